"""The title and Settings, headless: every non-board scene renders at any size, the title's
buttons navigate, a solo game goes from the title to the board and is continued, settings are
checked and saved.

Every test points ``MOR_CONFIG_DIR``/``MOR_DATA_DIR`` at its own temporary folder, so the user's
real settings and saved games are never touched.
"""
from __future__ import annotations

import pygame
import pytest

from game.match import LocalMatch
from game.rules.actions import ReqChooseLeaders, ReqChooseResources
from game.scenes.app import App
from game.client.session import GameSession
from game.settings import Settings

from walk import click, click_at, frames, not_flat
from walk import close as _close  # (every scene closed, the hosted server stopped)
from support.sessions import LAN_HOST, ended_session, table_session
from support.table import Feed

pytestmark = [pytest.mark.timeout(120), pytest.mark.seed(1)]   # (seed: the deal of every game started here)

SIZES = [(1024, 640), (1920, 1080)]


# ---------------------------------------------------------------------------- every scene renders
def _scenes(app: App):
    from game.scenes import game_over, join, leaders, lobby, overlay, resources, settings_page, title, waiting
    from game.scenes.host import HostScene
    cfg = app.config
    yield "title", title.TitleScene(app)
    yield "settings", settings_page.SettingsScene(app)
    yield "join", join.JoinScene(app)
    host = HostScene(app)
    host.start_server = lambda: setattr(host, "error", "Port 51015 is already in use on this computer. "
                                                       "Choose another port in Settings.")
    yield "host", host
    s = GameSession(Feed("Ada", [{"type": "UpdateBookedSeats", "bookedSeats": 2, "canPrepareNewGame": "Ada"}], host=LAN_HOST),
                    cfg, "Ada")
    s.pump()
    yield "lobby", lobby.LobbyScene(app, s)
    s, _ = table_session(cfg, ["Ada"], 0)
    yield "leaders", leaders.LeaderChoiceScene(app, s)
    s, _ = table_session(cfg, ["Ada", "Bea", "Cy", "Dan"], 3)
    s.send(ReqChooseLeaders(tuple(s.vm.me["leadersHand"][:2])))
    s.pump()
    yield "resources", resources.ResourceChoiceScene(app, s)
    s.send(ReqChooseResources({s.vm.me["warehouseShelves"][1]: {"Coin": 2}}))
    s.pump()
    yield "waiting", waiting.WaitingScene(app, s)
    yield "game over", game_over.GameOverScene(app, ended_session(cfg, ["Ada", "Bea", "Cy"]))
    yield "solo game over", game_over.GameOverScene(app, ended_session(cfg, ["Ada"], lorenzo=True))
    s, _ = table_session(cfg, ["Ada", "Bea"], 0)
    s.connection_lost = True
    yield "overlay", overlay.ConnectionOverlay(app, s)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_scene_renders(dirs, size):
    app = App(headless=True, size=size)
    try:
        for name, scene in _scenes(app):
            scene.update = lambda dt: None      # draw the scene as built, whatever the session says
            app.stack.reset(scene)
            frames(app, 2)
            assert not_flat(app.window), name
            assert scene.widgets, f"{name} has no widgets"
    finally:
        _close(app)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("which", ["leaders", "resources"])
def test_the_setup_titles_stand_clear_of_the_frame(app, size, which):
    """'Choose your leaders' touched the frame's inner rule at every size."""
    from game.scenes.backdrop import unit_of
    app.resize(size)
    scene = next(v for k, v in _scenes(app) if k == which)
    app.stack.reset(scene)
    frames(app, 2)
    w, h = size
    u = unit_of(size)
    rule = round(24 * u) + round(9 * u) + round(5 * u)          # the frame's innermost rule
    def inked(y):
        return sum(sum(abs(a - b) for a, b in zip(app.window.get_at((x, y))[:3], (52, 32, 18))) < 40
                   for x in range(round(w * 0.3), round(w * 0.7), 2))
    top = next(y for y in range(rule + 2, h // 3) if inked(y) > 2)
    assert top - rule >= round(10 * u), (which, top, rule)


def test_a_resize_rebuilds_the_widgets(app):
    from game.scenes.title import TitleScene
    app.stack.push(TitleScene(app))
    frames(app, 2)
    small = app.stack.top.widgets["solo"].rect.copy()
    app.resize((1920, 1080))
    frames(app, 2)
    big = app.stack.top.widgets["solo"].rect
    assert big.w > small.w and big.h > small.h
    assert not_flat(app.window)


# ---------------------------------------------------------------------------- title
class TestTitle:
    def test_buttons_navigate(self, app):
        from game.scenes.join import JoinScene
        from game.scenes.settings_page import SettingsScene
        from game.scenes.title import TitleScene
        app.stack.push(TitleScene(app))
        frames(app, 2)
        assert "continue" not in app.stack.top.widgets   # no saved solo game yet
        click(app, "settings")
        assert isinstance(app.stack.top, SettingsScene)
        click(app, "back")
        assert isinstance(app.stack.top, TitleScene)
        click(app, "join")
        assert isinstance(app.stack.top, JoinScene)
        click(app, "back")
        assert isinstance(app.stack.top, TitleScene)
        click(app, "quit")
        assert not app.running

    def test_escape_quits(self, app):
        from game.scenes.title import TitleScene
        app.stack.push(TitleScene(app))
        frames(app, 1, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b",
                                           scancode=41)])
        assert not app.running

    def test_solo_from_the_title_to_the_board(self, app, board_module):
        from game.scenes.title import TitleScene
        from game.scenes.leaders import LeaderChoiceScene
        app.stack.push(TitleScene(app))
        frames(app, 2)
        click(app, "solo")
        scene = app.stack.top
        assert isinstance(scene, LeaderChoiceScene)
        assert app.solo_save_path.exists()
        assert not scene.widgets["confirm"].is_enabled
        hand = scene.hand
        click_at(app, scene.card_rects[0].center)
        click_at(app, scene.card_rects[2].center)
        assert scene.selected == [hand[0], hand[2]]
        assert scene.widgets["confirm"].is_enabled
        click(app, "confirm")
        assert scene.session.stage() == "board"
        assert isinstance(app.stack.top, board_module.BoardScene)
        assert scene.session.vm.me["leadersHand"] == [hand[0], hand[2]]

    def test_continue_resumes_the_saved_solo_game(self, app, board_module):
        from game.scenes.title import TitleScene
        match = LocalMatch(app.config, "Ada", seed=3, save_path=app.solo_save_path)
        match.send(ReqChooseLeaders(tuple(match.game.players[0].hand[:2])))
        app.stack.push(TitleScene(app))
        frames(app, 2)
        click(app, "continue")
        top = app.stack.top
        assert isinstance(top, board_module.BoardScene)
        assert top.session.nickname == "Ada"

    def test_a_resumed_solo_game_keeps_its_log(self, app, board_module):
        import random

        from game.rules.playout import choose
        from game.rules.shadow import shadow_game
        from game.scenes.title import TitleScene
        match = LocalMatch(app.config, "Ada", seed=3, save_path=app.solo_save_path)
        first = GameSession(match, app.config, "Ada")
        first.pump()
        rng = random.Random(3)
        while sum("ended the turn" in line for line in first.log) < 5:
            first.send(choose(shadow_game(first.vm.game, app.config, "Ada"), "Ada", rng))
            first.pump()
        told = list(first.log)
        first.close()
        app.stack.push(TitleScene(app))
        frames(app, 2)
        click(app, "continue")
        board = app.stack.top
        assert isinstance(board, board_module.BoardScene)
        assert [str(x) for x in board.session.log] == told      # the same story, not "The game begins."

    def test_a_damaged_save_is_explained(self, app):
        from game.scenes.title import TitleScene
        app.solo_save_path.parent.mkdir(parents=True, exist_ok=True)
        app.solo_save_path.write_text("not a game")
        app.stack.push(TitleScene(app))
        frames(app, 2)
        click(app, "continue")
        from game.scenes.ask import AskScene
        assert isinstance(app.stack.top, AskScene)            # asked in words, no parser error
        assert app.stack.top.title == "Your saved solo game cannot be opened"
        click(app, "cancel")
        assert isinstance(app.stack.top, TitleScene) and app.solo_save_path.read_text() == "not a game"


    def _saved(self, app) -> bytes:
        match = LocalMatch(app.config, "Ada", seed=3, save_path=app.solo_save_path)
        match.send(ReqChooseLeaders(tuple(match.game.players[0].hand[:2])))
        return app.solo_save_path.read_bytes()

    def test_play_solo_over_a_save_asks_first_and_cancel_keeps_it(self, app):
        from game.scenes.ask import AskScene
        from game.scenes.title import TitleScene
        saved = self._saved(app)
        app.stack.push(TitleScene(app))
        frames(app, 2)
        click(app, "solo")
        ask = app.stack.top
        assert isinstance(ask, AskScene)
        assert "At turn 1" in ask.text and "lost" in ask.text      # says what would be lost
        assert set(ask.widgets) == {"continue", "new", "cancel"}
        assert app.solo_save_path.read_bytes() == saved             # nothing touched yet
        click(app, "cancel")
        assert isinstance(app.stack.top, TitleScene)
        assert app.solo_save_path.read_bytes() == saved
        click(app, "solo")
        frames(app, 1, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b", scancode=41)])
        assert isinstance(app.stack.top, TitleScene) and app.running   # Esc is Cancel, not Quit
        assert app.solo_save_path.read_bytes() == saved

    def test_play_solo_over_a_save_can_continue_it(self, app, board_module):
        from game.scenes.title import TitleScene
        saved = self._saved(app)
        app.stack.push(TitleScene(app))
        frames(app, 2)
        click(app, "solo")
        click(app, "continue")
        top = app.stack.top
        assert isinstance(top, board_module.BoardScene) and top.session.nickname == "Ada"
        assert app.solo_save_path.read_bytes() == saved

    def test_play_solo_over_a_save_replaces_it_only_when_told(self, app):
        from game.scenes.title import TitleScene
        from game.scenes.leaders import LeaderChoiceScene
        saved = self._saved(app)
        app.stack.push(TitleScene(app))
        frames(app, 2)
        click(app, "solo")
        click(app, "new")
        assert isinstance(app.stack.top, LeaderChoiceScene)
        assert app.solo_save_path.read_bytes() != saved

    def test_a_damaged_save_is_put_aside_not_lost(self, app):
        from game.scenes.title import TitleScene
        from game.scenes.leaders import LeaderChoiceScene
        app.solo_save_path.parent.mkdir(parents=True, exist_ok=True)
        app.solo_save_path.write_text("not a game")
        app.stack.push(TitleScene(app))
        frames(app, 2)
        click(app, "solo")
        assert "cannot be opened" in app.stack.top.text
        click(app, "new")
        assert isinstance(app.stack.top, LeaderChoiceScene)
        assert app.solo_save_path.with_suffix(".damaged.json").read_text() == "not a game"

    @pytest.mark.parametrize("size", SIZES)
    def test_what_an_entry_does_is_said_under_the_menu_never_over_another_entry(self, app, size):
        from game.scenes.title import TitleScene
        app.resize(size)
        app.stack.push(TitleScene(app))
        frames(app, 2)
        title = app.stack.top
        host = title.widgets["host"].rect.center
        app.frame(1 / 60, [pygame.event.Event(pygame.MOUSEMOTION, pos=host, rel=(0, 0), buttons=(0, 0, 0))])
        for _ in range(30):          # 1.5 s of hovering: long past any tooltip delay
            app.frame(0.05)
        assert title.hovered() == "host"
        tips = [e for e in title.ui.get_sprite_group().sprites() if type(e).__name__ == "UITooltip"]
        assert not tips
        before = app.window.copy()
        band = title.caption_rect
        assert band is not None
        app.frame(1 / 60, [pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(0, 0), buttons=(0, 0, 0))])
        app.frame(1 / 60)
        # the caption is drawn in its own band under the last entry (or in the footer's place), and
        # goes when the pointer leaves
        band = pygame.Rect(0, band.y, size[0], band.h)
        assert all(not band.colliderect(w.rect) for w in title.widgets.values())
        diff = [(x, y) for x in range(0, size[0], 4) for y in range(0, size[1], 4)
                if before.get_at((x, y)) != app.window.get_at((x, y))]
        assert diff and all(band.collidepoint(p) or title.widgets["host"].rect.collidepoint(p) for p in diff)


class TestWindowSizes:
    @pytest.mark.parametrize("screen, offered", [
        ((1600, 900), [(1024, 640), (1280, 720), (1280, 800), (1366, 768)]),
        ((1920, 1080), [(1024, 640), (1280, 720), (1280, 800), (1366, 768), (1440, 900), (1600, 900)]),
        ((1366, 768), [(1024, 640)]),
        ((1280, 800), [(1024, 640), (1280, 720)])])
    def test_settings_offers_only_sizes_that_fit_the_screen(self, app, screen, offered):
        """Every size that fits with the window's frame (64 pixels high), and none that does not."""
        from game.scenes.settings_page import SettingsScene
        app.screen_size = screen
        app.stack.push(SettingsScene(app))
        frames(app, 2)
        assert app.stack.top.sizes() == offered
        options = app.stack.top.widgets["window_size"].options_list
        assert len(options) == len(offered)

    def test_a_screen_smaller_than_every_size_is_offered_the_smallest_alone(self, app):
        from game.scenes.settings_page import SettingsScene
        app.screen_size = (800, 600)
        app.stack.push(SettingsScene(app))
        frames(app, 2)
        assert app.stack.top.sizes() == [(1024, 640)]

    def test_a_saved_size_larger_than_the_screen_is_not_used(self, dirs, monkeypatch):
        from game.scenes import app as app_module
        settings = Settings.load()
        settings.window_size = (1920, 1080)
        monkeypatch.setattr(app_module, "desktop_size", lambda: (1600, 900))
        a = App(settings, size=None)
        try:
            assert a.size == (1366, 768)
            assert a.window.get_size() == (1366, 768)
        finally:
            _close(a)
            pygame.display.set_mode((1, 1))

    @pytest.mark.parametrize("size", [(1600, 900), (1920, 1080), (1024, 640)])
    def test_the_size_list_rows_do_not_overlap(self, app, size):
        from game.scenes.settings_page import SettingsScene
        app.resize(size)
        app.stack.push(SettingsScene(app))
        frames(app, 2)
        click(app, "window_size")
        dd = app.stack.top.widgets["window_size"]
        lst = dd.current_state.options_selection_list
        assert lst is not None
        rows = [item["button_element"] for item in lst.item_list if item.get("button_element") is not None]
        assert len(rows) >= 3
        for a, b in zip(rows, rows[1:]):
            assert a.rect.bottom <= b.rect.top + 1          # one under the other
        line = rows[0].font.size("1920 \u00d7 1080")[1]
        assert rows[0].rect.height >= line * 1.1, (rows[0].rect.height, line)   # and each tall enough for its text


# ---------------------------------------------------------------------------- settings
class TestSettings:
    def _open(self, app):
        from game.scenes.settings_page import SettingsScene
        app.stack.push(SettingsScene(app))
        frames(app, 2)
        return app.stack.top

    def test_invalid_input_is_explained_and_not_saved(self, app):
        scene = self._open(app)
        scene.widgets["nickname"].set_text("   ")
        scene.widgets["server_port"].set_text("70000")
        click(app, "save")
        assert "nickname" in scene.errors and "server_port" in scene.errors
        assert not Settings.path().exists()
        scene.widgets["nickname"].set_text("x" * 25)
        scene.widgets["server_port"].set_text("51016")
        click(app, "save")
        assert "24" in scene.errors["nickname"] and "server_port" not in scene.errors
        assert not Settings.path().exists()

    @pytest.mark.parametrize("nick", ["Ada \U0001F600", "\u2764\ufe0f Bea", "Cy \U0001F44D\U0001F3FD"])
    def test_a_nickname_the_game_cannot_draw_is_refused_with_the_reason(self, app, monkeypatch, nick):
        """An emoji drew as an empty box on every card and pawn: it is refused, and the words say why."""
        from game.scenes.art import fonts
        drawn: list[str] = []
        render = fonts.render
        monkeypatch.setattr(fonts, "render", lambda t, *a, **k: (drawn.append(str(t)), render(t, *a, **k))[1])
        scene = self._open(app)
        scene.widgets["nickname"].set_text(nick)
        click(app, "save")
        assert scene.errors["nickname"] == "Emoji and some signs show as empty boxes: leave them out."
        assert not Settings.path().exists()
        assert "show as empty boxes" in " ".join(drawn), drawn
        scene.widgets["nickname"].set_text("Zoë Ω Жанна")         # accents, Greek, Cyrillic: drawn
        click(app, "save")
        assert scene.errors == {}

    def test_valid_settings_persist(self, app):
        scene = self._open(app)
        scene.widgets["nickname"].set_text("  Lucrezia ")
        scene.widgets["server_port"].set_text("50123")
        click(app, "sound")
        click(app, "confirm_end_turn")
        click(app, "save")
        assert scene.errors == {} and scene.status == "Saved."
        saved = Settings.load()
        assert (saved.nickname, saved.server_port, saved.sound, saved.confirm_end_turn) == ("Lucrezia", 50123, True, False)
        assert saved.problem is None
        assert app.settings.nickname == "Lucrezia"

    def test_a_settings_problem_is_shown(self, app, dirs):
        Settings.path().parent.mkdir(parents=True, exist_ok=True)
        Settings.path().write_text("{broken")
        app.settings = Settings.load()
        scene = self._open(app)
        assert app.settings.problem and "damaged" in app.settings.problem
        assert not_flat(app.window)
        del scene
