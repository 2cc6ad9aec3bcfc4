"""The non-board scenes, headless: they render at any size, their buttons navigate, settings are
checked and saved, joining explains failures, and a solo game goes from the title to the board.

Every test points ``MOR_CONFIG_DIR``/``MOR_DATA_DIR`` at its own temporary folder, so the user's
real settings and saved games are never touched.
"""
from __future__ import annotations

import socket

import pygame
import pytest

from game.match import LocalMatch
from game.rules.actions import ReqChooseLeaders, ReqChooseResources
from game.rules.engine import Game, Termination
from game.rules.views import player_view
from game.scenes.app import App
from game.client.session import GameSession
from game.client.join_words import NAME_TAKEN, REFUSED
from game.settings import Settings

from walk import click, click_at, frames, free_port, not_flat
from walk import close as _close  # (every scene closed, the hosted server stopped)
from support.hosting import host_with_bruno
from support.table import Feed
from support.wait import frames_until

pytestmark = [pytest.mark.timeout(120), pytest.mark.seed(1)]   # (seed: the deal of every game started here)

SIZES = [(1024, 640), (1920, 1080)]
LAN_HOST = "192.168.1.9"
"""Where the fed remote matches say their server is."""


# ---------------------------------------------------------------------------- fixtures & helpers
@pytest.fixture
def board_module():
    import game.scenes.board
    return game.scenes.board


def table_session(config, names, seat: int, seed: int = 7):
    """A multiplayer game run in-process, seen by the player in ``seat``."""
    game = Game.new(config, list(names), seed)
    me = game.players[seat].nickname
    s = GameSession(LocalMatch(config, me, game=game), config, me)
    s.pump()
    return s, game


def ended_session(config, names, me_index: int = 0, lorenzo: bool = False) -> GameSession:
    g = Game.new(config, list(names), 11)
    for p in g.players:
        g.apply(p.nickname, ReqChooseLeaders(tuple(p.hand[:2])))
    for p in g.players:
        if not p.chose_resources:
            g.apply(p.nickname, ReqChooseResources({p.shelves[2].id: {"Coin": p.bonus}}))
    for i, p in enumerate(g.players):
        p.faith = 6 + 5 * i
        p.slots = [[i], [i + 12], []]
        p.strongbox.content = {"Coin": 2 + i}
    if lorenzo:
        g.black_cross = 24
        g._end(Termination.LORENZO_FAITH)
    else:
        g._end(Termination.SOLO_FAITH if len(names) == 1 else Termination.ROUND_COMPLETED)
    me = g.players[me_index].nickname
    s = GameSession(Feed(me, [player_view(g, me)], host=LAN_HOST), config, me)
    s.pump()
    return s


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


# ---------------------------------------------------------------------------- leaders
class TestLeaderChoice:
    def test_a_third_pick_replaces_the_oldest_and_clicking_again_unselects(self, app):
        from game.scenes.leaders import LeaderChoiceScene
        s, _ = table_session(app.config, ["Ada"], 0)
        scene = LeaderChoiceScene(app, s)
        app.stack.push(scene)
        frames(app, 2)
        a, b, c, _d = scene.hand
        for i in (0, 1, 2):
            click_at(app, scene.card_rects[i].center)
        assert scene.selected == [b, c]
        click_at(app, scene.card_rects[1].center)
        assert scene.selected == [c]
        assert not scene.widgets["confirm"].is_enabled

    def test_words_for_every_leader(self, app):
        from game.scenes.leaders import leader_words
        s, _ = table_session(app.config, ["Ada"], 0)
        prods = {p["id"]: p for p in s.vm.game["productions"]}
        for ld in s.vm.game["leaderCards"]:
            name, ability, need, vp = leader_words(ld, prods)
            assert name and ability.endswith(".") and need.startswith("To play it you need") and vp > 0


# ---------------------------------------------------------------------------- resources
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


class TestResourceChoice:
    def _scene(self, app, seat):
        from game.scenes.resources import ResourceChoiceScene
        s, g = table_session(app.config, ["Ada", "Bea", "Cy", "Dan"], seat)
        s.send(ReqChooseLeaders(tuple(s.vm.me["leadersHand"][:2])))
        s.pump()
        assert s.stage() == "resources"
        scene = ResourceChoiceScene(app, s)
        app.stack.push(scene)
        frames(app, 2)
        return scene, s

    def test_two_of_a_kind_need_a_shelf_of_two(self, app):
        scene, s = self._scene(app, 3)
        assert scene.count == 2
        click_at(app, scene.token_rects["Shield"].center)
        click_at(app, scene.token_rects["Shield"].center)
        assert scene.picks == ["Shield", "Shield"]
        assert scene.valid_shelves("Shield") == [1, 2]
        assert not scene.widgets["shelf_Shield_0"].is_enabled
        click(app, "shelf_Shield_2")
        assert scene.shelf_of == {"Shield": 2}
        click(app, "confirm")
        assert s.stage() == "waiting"
        bottom = s.vm.me["warehouseShelves"][2]
        assert s.vm.container(bottom)["content"] == {"Shield": 2}

    def test_two_kinds_go_on_two_shelves_and_swap(self, app):
        scene, _s = self._scene(app, 3)
        scene.pick("Coin")
        scene.pick("Stone")
        assert len(set(scene.shelf_of.values())) == 2
        coin = scene.shelf_of["Coin"]
        scene.put("Stone", coin)
        assert scene.shelf_of["Stone"] == coin and scene.shelf_of["Coin"] != coin
        assert scene.ready

    def test_one_resource_then_unpick(self, app):
        scene, _s = self._scene(app, 1)
        assert scene.count == 1
        scene.pick("Coin")
        scene.pick("Servant")           # replaces the only pick
        assert scene.picks == ["Servant"]
        click_at(app, scene.pick_rects[0].center)
        assert scene.picks == [] and not scene.widgets["confirm"].is_enabled


def test_waiting_lists_who_has_chosen(app):
    from game.scenes.waiting import WaitingScene
    s, g = table_session(app.config, ["Ada", "Bea"], 0)
    s.send(ReqChooseLeaders(tuple(s.vm.me["leadersHand"][:2])))
    s.pump()
    if s.stage() == "resources":
        s.send(ReqChooseResources({}))
        s.pump()
    assert s.stage() == "waiting"
    scene = WaitingScene(app, s)
    app.stack.push(scene)
    frames(app, 2)
    assert isinstance(app.stack.top, WaitingScene)
    assert not_flat(app.window)


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


# ---------------------------------------------------------------------------- join & host
class TestJoin:
    def _open(self, app):
        from game.scenes.join import JoinScene
        app.stack.push(JoinScene(app))
        frames(app, 2)
        return app.stack.top

    def test_nobody_listening(self, app):
        scene = self._open(app)
        port = free_port()
        scene.widgets["address"].set_text(f"127.0.0.1:{port}")
        click(app, "join")
        frames_until(app, lambda: scene.busy is None)
        assert scene.error == REFUSED.format(where=f"127.0.0.1:{port}")

    def test_an_address_without_a_port_knocks_at_the_games_port_not_the_players_own(self, app):
        app.settings.server_port = 51017      # where this player hosts: not where the friend does
        scene = self._open(app)
        knocked = []     # where it knocks, not what answers there (a game hosted at 51015 meanwhile did)
        scene._knock = lambda target, nickname, chose: knocked.append(target)
        scene.widgets["address"].set_text("127.0.0.1")
        click(app, "join")
        assert knocked == [("127.0.0.1", 51015)]

    @pytest.mark.parametrize("text", ["", "not an address!", "10.0.0.1:port", "10.0.0.1:0", "[::1"])
    def test_bad_addresses(self, app, text):
        scene = self._open(app)
        scene.widgets["address"].set_text(text)
        click(app, "join")
        assert scene.busy is None and scene.errors["address"]

    def test_parse_address(self):
        from game.client.address import parse_address
        assert parse_address("192.168.1.2", 51015) == ("192.168.1.2", 51015)
        assert parse_address(" host.lan:4000 ", 1) == ("host.lan", 4000)
        assert parse_address("[fe80::1]:7", 1) == ("fe80::1", 7)
        assert parse_address("::1", 9) == ("::1", 9)

    def test_joining_a_server_and_a_taken_nickname(self, app, dirs):
        from game.netcode.server import Server
        from game.netcode.server_options import ServerOptions
        from game.scenes.lobby import LobbyScene
        from game.match import RemoteMatch
        server = Server(app.config, ServerOptions(host="127.0.0.1", port=0))
        host, port = server.start()
        other = None
        try:
            other = RemoteMatch("127.0.0.1", port, "Ada")
            scene = self._open(app)
            scene.widgets["address"].set_text(f"127.0.0.1:{port}")
            scene.widgets["nickname"].set_text("Ada")
            click(app, "join")
            frames_until(app, lambda: scene.busy is None)
            assert scene.errors["nickname"] == NAME_TAKEN.format(nickname="Ada", where=f"127.0.0.1:{port}")
            assert scene.widgets["join_as"].text == "Join as Ada 2"
            scene.widgets["nickname"].set_text("Bea")
            click(app, "join")
            frames_until(app, lambda: isinstance(app.stack.top, LobbyScene))
            lobby = app.stack.top
            frames_until(app, lambda: lobby.session.lobby.booked == 2)
            assert lobby.session.lobby.head == "Ada" and not lobby.choosing
            assert Settings.load().last_address == f"127.0.0.1:{port}"
        finally:
            if other is not None:
                other.close()
            _close(app)
            server.stop()


def test_the_waiting_room_names_everyone_under_their_pawn(app, monkeypatch):
    """Ada waits at a server; Bea joins from the app: both names are drawn under the pawns (only
    the first pawn had a name: the host could not see who had joined). A reference client is
    told only the count and the head, as the reference server tells it."""
    from game.netcode.client import Connection
    from game.netcode.server import Server
    from game.netcode.server_options import ServerOptions
    from game.scenes.art import fonts
    from game.scenes.lobby import LobbyScene
    from game.match import RemoteMatch
    drawn: list[str] = []
    render = fonts.render
    monkeypatch.setattr(fonts, "render", lambda text, *a, **k: (drawn.append(str(text)), render(text, *a, **k))[1])
    server = Server(app.config, ServerOptions(host="127.0.0.1", port=0))
    host, port = server.start()
    other = plain = None
    try:
        other = RemoteMatch("127.0.0.1", port, "Ada")
        plain = Connection("127.0.0.1", port)
        plain.send({"type": "ReqJoin", "nickname": "Cy"})
        scene = TestJoin()._open(app)
        scene.widgets["address"].set_text(f"127.0.0.1:{port}")
        scene.widgets["nickname"].set_text("Bea")
        click(app, "join")
        frames_until(app, lambda: isinstance(app.stack.top, LobbyScene))
        lobby = app.stack.top
        frames_until(app, lambda: lobby.session.lobby.booked == 3)
        drawn.clear()
        lobby.build()
        frames(app, 2)
        assert lobby.session.lobby.players == ["Ada", "Cy", "Bea"]
        assert {"Ada", "Cy", "Bea"} <= set(drawn), drawn
        seen = plain.wait_for(lambda m: m["type"] == "UpdateBookedSeats" and m["bookedSeats"] == 3, timeout=5)
        assert "players" not in seen
    finally:
        for c in (other, plain):
            if c is not None:
                c.close()
        _close(app)
        server.stop()


class TestHost:
    def test_port_in_use(self, app):
        from game.scenes.host import HostScene
        with socket.socket() as busy:
            busy.bind(("0.0.0.0", 0))
            busy.listen()
            port = busy.getsockname()[1]
            app.settings.server_port = port
            app.stack.push(HostScene(app))
            frames(app, 3)
            scene = app.stack.top
            assert isinstance(scene, HostScene)
            assert scene.error == (f"Port {port} is already in use on this computer. "
                                   "Choose another port in Settings.")
            assert app.server is None

    def test_host_a_solo_game_through_the_lobby(self, app):
        from game.scenes.lobby import LobbyScene
        from game.scenes.title import TitleScene
        from game.scenes.leaders import LeaderChoiceScene
        app.settings.server_port = free_port()
        app.stack.push(TitleScene(app))
        frames(app, 2)
        click(app, "host")
        frames_until(app, lambda: isinstance(app.stack.top, LobbyScene))
        assert app.server is not None
        lobby = app.stack.top
        frames_until(app, lambda: lobby.choosing)
        click(app, "players_1")
        frames_until(app, lambda: isinstance(app.stack.top, LeaderChoiceScene))
        click(app, "leave")
        assert app.server is None and isinstance(app.stack.top, TitleScene)

    def test_stopping_a_hosted_waiting_room_with_a_friend_in_it_asks_first(self, app, tmp_path):
        from game.scenes.ask import AskScene
        from game.scenes.lobby import LobbyScene
        from game.scenes.title import TitleScene
        bruno = host_with_bruno(app, tmp_path)
        click(app, "leave")
        ask = app.stack.top
        assert isinstance(ask, AskScene) and "Bruno" in ask.text and "waiting room" in ask.text
        click(app, "stay")
        assert isinstance(app.stack.top, LobbyScene) and app.server is not None
        click(app, "leave")
        click(app, "stop")
        assert isinstance(app.stack.top, TitleScene) and app.server is None
        bruno.close()

    def test_the_host_leaves_the_table_the_game_goes_on_and_the_title_brings_them_back(self, app, tmp_path):
        from game.scenes.ask import AskScene
        from game.scenes.title import TitleScene
        from game.scenes.leaders import LeaderChoiceScene
        bruno = host_with_bruno(app, tmp_path)
        click(app, "players_2")
        frames_until(app, lambda: isinstance(app.stack.top, LeaderChoiceScene))
        click(app, "leave")
        ask = app.stack.top
        assert isinstance(ask, AskScene) and set(ask.widgets) == {"leave", "stop", "stay"}
        assert "Bruno is at your table" in ask.text and "skipped" in ask.text
        click(app, "leave")
        title = app.stack.top
        assert isinstance(title, TitleScene) and app.server is not None   # the game goes on for Bruno
        assert "return" in title.widgets
        room = app.server.room_of("Bruno")
        assert room is not None and not room.finished
        click(app, "return")
        frames_until(app, lambda: isinstance(app.stack.top, LeaderChoiceScene))
        assert app.settings.nickname in room.online
        # quitting the window while Bruno plays asks too; Stay keeps everything
        frames(app, 1, [pygame.event.Event(pygame.QUIT)])
        assert isinstance(app.stack.top, AskScene) and app.running and "Quit" in app.stack.top.title
        click(app, "stay")
        assert app.running and isinstance(app.stack.top, LeaderChoiceScene)
        frames(app, 1, [pygame.event.Event(pygame.QUIT)])
        click(app, "quit")
        assert not app.running
        app.running = True                       # closing the window twice quits without a third ask
        frames(app, 1, [pygame.event.Event(pygame.QUIT)])
        assert app.running and isinstance(app.stack.top, AskScene)
        frames(app, 1, [pygame.event.Event(pygame.QUIT)])
        assert not app.running
        bruno.close()


# ---------------------------------------------------------------------------- lobby
def test_lobby_head_chooses_and_others_wait(app):
    from game.scenes.lobby import LobbyScene
    booked = {"type": "UpdateBookedSeats", "bookedSeats": 2, "canPrepareNewGame": "Ada"}
    head = GameSession(Feed("Ada", [booked], host=LAN_HOST), app.config, "Ada")
    app.stack.push(LobbyScene(app, head))
    frames(app, 2)
    assert app.stack.top.choosing
    click(app, "players_3")
    assert head.match.sent == [("new_game", 3)]
    head.match.say({"type": "UpdateJoinGame", "playersCount": 3})
    frames(app, 2)
    assert "players_3" not in app.stack.top.widgets
    other = GameSession(Feed("Bea", [booked], host=LAN_HOST), app.config, "Bea")
    app.stack.reset(LobbyScene(app, other))
    frames(app, 2)
    assert not app.stack.top.choosing and "players_1" not in app.stack.top.widgets


def test_the_count_buttons_say_how_many_more_are_awaited_counting_those_waiting(app):
    """Two already wait (the host and a friend): 2 players starts at once, 3 waits for 1 more,
    4 for 2 more (they said "1 more" for 2 players, counting from the host alone)."""
    from game.scenes.lobby import LobbyScene
    booked = {"type": "UpdateBookedSeats", "bookedSeats": 2, "canPrepareNewGame": "Ada"}
    head = GameSession(Feed("Ada", [booked], host=LAN_HOST), app.config, "Ada")
    app.stack.push(LobbyScene(app, head))
    frames(app, 2)
    tips = {n: app.stack.top.widgets[f"players_{n}"].tool_tip_text for n in (1, 2, 3, 4)}
    assert tips[1] == "Play alone against Lorenzo il Magnifico"
    assert tips[2] == "Start at once with the 2 waiting"
    assert tips[3] == "Wait for 1 more to join" and tips[4] == "Wait for 2 more to join"
    head.match.say({"type": "UpdateBookedSeats", "bookedSeats": 3, "canPrepareNewGame": "Ada"})
    frames(app, 2)
    tips = {n: app.stack.top.widgets[f"players_{n}"].tool_tip_text for n in (2, 3, 4)}
    assert tips == {2: "Start at once with the first 2 waiting", 3: "Start at once with the 3 waiting",
                    4: "Wait for 1 more to join"}


def test_a_lost_waiting_room_shows_nobody_still_waiting(app, monkeypatch):
    """The host gone (the connection lost), the waiting room no longer draws the host's pawn and
    name as if they still waited there: the seats are empty under "The connection to the server
    was lost."."""
    from support.drawn import Words
    from game.scenes.lobby import LobbyScene
    booked = {"type": "UpdateBookedSeats", "bookedSeats": 2, "canPrepareNewGame": "Ada"}
    bea = GameSession(Feed("Bea", [booked], host=LAN_HOST), app.config, "Bea")
    app.stack.push(LobbyScene(app, bea))
    frames(app, 2)
    seen = Words(monkeypatch)
    frames(app, 1)
    assert "Ada" in seen                                   # the host's pawn is named while she waits
    bea.match.say({"type": "ConnectionLost"})
    frames(app, 2)
    assert app.stack.top.lost
    seen.seen.clear()
    frames(app, 1)
    assert "The connection to the server was lost." in seen and "Ada" not in seen


def test_lobby_leave_closes_the_match(app):
    from game.scenes.lobby import LobbyScene
    from game.scenes.title import TitleScene
    s = GameSession(Feed("Ada", [], host=LAN_HOST), app.config, "Ada")
    app.stack.push(LobbyScene(app, s))
    frames(app, 2)
    click(app, "leave")
    assert s.match.closed and isinstance(app.stack.top, TitleScene)


# ---------------------------------------------------------------------------- game over
class TestGameOver:
    def test_scores_add_up_and_the_winner_leads(self, app):
        from game.client.outcome import final_scores
        from game.scenes.game_over import GameOverScene
        s = ended_session(app.config, ["Ada", "Bea", "Cy"])
        rows = final_scores(s)
        for _nick, sc in rows:
            assert sc["total"] == sc["cards"] + sc["faith_track"] + sc["favors"] + sc["leaders"] + sc["resource_vp"]
        scene = GameOverScene(app, s)
        assert scene.headline.endswith("win" if s.vm.game["winnerPlayer"] == s.nickname else "wins")
        assert rows[0][0] == s.vm.game["winnerPlayer"]

    def test_the_ratings_change_is_said_under_the_scores(self, app):
        from game.scenes.game_over import GameOverScene
        s = ended_session(app.config, ["Ada", "Bea"])
        scene = GameOverScene(app, s)
        app.stack.reset(scene)
        scene.update = lambda dt: None
        app.draw()
        below = scene.sheet.bottom + round(30 * scene.unit)
        strip = pygame.Rect(scene.sheet.x, below, scene.sheet.w, round(30 * scene.unit))
        before = pygame.image.tobytes(app.window.subsurface(strip), "RGB")
        s._take({"type": "UpdateRatingChange", "ratings": [
            {"player": "Ada", "before": 0, "after": 4}, {"player": "Bea", "before": 0, "after": -2}]})
        assert s.rating_change == "Ratings: you 0 \u2192 4, Bea 0 \u2192 \u22122."
        app.draw()
        assert pygame.image.tobytes(app.window.subsurface(strip), "RGB") != before

    def test_a_shared_win_is_told_as_one(self, app):
        from game.scenes.game_over import GameOverScene
        g = Game.new(app.config, ["Ada", "Bea", "Cy"], 11)
        for p in g.players:
            g.apply(p.nickname, ReqChooseLeaders(tuple(p.hand[:2])))
        for p in g.players:
            if not p.chose_resources:
                g.apply(p.nickname, ReqChooseResources({p.shelves[2].id: {"Coin": p.bonus}}))
        cards = app.config.dev_cards
        a_card = next(i for i, c in enumerate(cards) if c.level == 1)
        b_card = next(i for i, c in enumerate(cards) if i != a_card and c.level == 1
                      and c.victory_points == cards[a_card].victory_points)
        for p in g.players:   # Ada and Bea level on points and on resources left; Cy behind
            p.faith = 9 if p.nickname != "Cy" else 2
            p.slots = [[a_card if p.nickname == "Ada" else b_card], [], []] if p.nickname != "Cy" else [[], [], []]
            p.strongbox.content = {"Coin": 3}
            for shelf in p.shelves:
                shelf.content = {}
        g._end(Termination.ROUND_COMPLETED)
        assert g.outcome().winners == ("Ada", "Bea")
        for me, headline in (("Bea", "You share the win"), ("Cy", "A shared win")):
            s = GameSession(Feed(me, [player_view(g, me)], host=LAN_HOST), app.config, me)
            s.pump()
            scene = GameOverScene(app, s)
            assert scene.headline == headline
            assert "Ada and Bea tied on points and resources left" in scene.why

    def test_lorenzo_wins_solo(self, app):
        from game.scenes.game_over import GameOverScene
        s = ended_session(app.config, ["Ada"], lorenzo=True)
        scene = GameOverScene(app, s)
        assert scene.headline == "Lorenzo il Magnifico wins"
        assert "faith track" in scene.why

    def test_back_to_the_title(self, app):
        from game.scenes.game_over import GameOverScene
        from game.scenes.title import TitleScene
        s = ended_session(app.config, ["Ada"])
        app.stack.push(GameOverScene(app, s))
        frames(app, 2)
        click(app, "title")
        assert isinstance(app.stack.top, TitleScene)


# ---------------------------------------------------------------------------- router & overlay
class TestOverlay:
    def _game(self, app):
        from game.scenes.waiting import WaitingScene
        s, g = table_session(app.config, ["Ada", "Bea"], 0)
        s.send(ReqChooseLeaders(tuple(s.vm.me["leadersHand"][:2])))
        s.pump()
        if s.stage() == "resources":
            s.send(ReqChooseResources({}))
            s.pump()
        scene = WaitingScene(app, s)
        app.stack.push(scene)
        frames(app, 2)
        return scene, s

    def test_lost_connection_covers_the_game_and_goes_away_when_back(self, app):
        from game.scenes.overlay import ConnectionOverlay
        from game.scenes.waiting import WaitingScene
        from game.scenes.backdrop import dim
        scene, s = self._game(app)
        behind = app.window.copy()
        dim(behind)
        s.match._out.append({"type": "ConnectionLost"})
        frames(app, 2)
        overlay = app.stack.top
        assert isinstance(overlay, ConnectionOverlay)
        w, h = app.size                               # the game stays visible under the veil, dimmed
        around = [(x, y) for x in range(8, w, w // 16) for y in range(8, h, h // 12)
                  if not overlay.card.collidepoint(x, y)]
        same = sum(app.window.get_at(p) == behind.get_at(p) for p in around)
        assert same >= 0.9 * len(around), (same, len(around))
        s.match._out.append({"type": "Reconnected"})
        frames(app, 2)
        assert isinstance(app.stack.top, WaitingScene)

    def test_a_connection_lost_while_leaders_are_chosen_says_they_come_back_not_the_board(self, app, monkeypatch):
        """QA: the card said "the board will be back as it was" during the choice of leaders,
        where there is no board yet."""
        from game.scenes import overlay as O
        from game.scenes.router import scene_for
        drawn: list[str] = []
        tracked = O.tracked
        monkeypatch.setattr(O, "tracked", lambda text, *a, **k: (drawn.append(text), tracked(text, *a, **k))[1])
        s, _g = table_session(app.config, ["Ada", "Bea"], 0)
        app.stack.push(scene_for(app, s))
        frames(app, 2)
        s.match._out.append({"type": "ConnectionLost"})
        frames(app, 2)
        assert isinstance(app.stack.top, O.ConnectionOverlay)
        assert drawn and drawn[-1] == "your leaders will be back to choose from", drawn
        assert not any("board" in words for words in drawn)

    def test_a_failed_reconnection_says_so_and_leave_goes_to_the_title(self, app):
        from game.scenes.title import TitleScene
        from game.scenes.overlay import ConnectionOverlay
        _scene, s = self._game(app)
        s.match._out.extend([{"type": "ConnectionLost"}, {"type": "ReconnectFailed", "reason": "server unreachable"}])
        frames(app, 3)
        top = app.stack.top
        assert isinstance(top, ConnectionOverlay) and top.failed
        assert top.widgets["leave"].text == "Back to the title"
        click(app, "leave")
        assert isinstance(app.stack.top, TitleScene)

    def test_router_maps_every_stage(self, app, board_module):
        from game.scenes import game_over, leaders, lobby, router
        s = GameSession(Feed("Ada", host=LAN_HOST), app.config, "Ada")
        assert isinstance(router.scene_for(app, s), lobby.LobbyScene)
        s, _ = table_session(app.config, ["Ada"], 0)
        assert isinstance(router.scene_for(app, s), leaders.LeaderChoiceScene)
        s.send(ReqChooseLeaders(tuple(s.vm.me["leadersHand"][:2])))
        s.pump()
        assert isinstance(router.scene_for(app, s), board_module.BoardScene)
        assert isinstance(router.scene_for(app, ended_session(app.config, ["Ada"])), game_over.GameOverScene)
