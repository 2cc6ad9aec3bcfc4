"""The board scene: it renders at every size, and a whole solo game is played with the mouse."""
from __future__ import annotations


import pygame
import pytest

from support.table import Table, mid_game
from walk import click_at

from game.match import LocalMatch
from game.rules import default_config, player_view
from game.scenes.app import App
from game.scenes.board import BoardScene
from game.client.session import GameSession
from game.client import board_input as BI

CFG = default_config()


def press(app: App, button) -> None:
    click_at(app, button.rect.center)


def distinct_colours(surface: pygame.Surface) -> int:
    w, h = surface.get_size()
    return len({tuple(surface.get_at((x, y))) for x in range(0, w, 17) for y in range(0, h, 13)})


@pytest.mark.parametrize("size", [(1024, 640), (1920, 1080)])
@pytest.mark.parametrize("players", [1, 4])
def test_board_renders(size, players):
    app = App(headless=True, size=size)
    nicks = ["Ada", "Bruno", "Cora", "Dario"][:players]
    game = mid_game(nicks, 11, 30 if players == 1 else 100)
    session = GameSession(Table(game, "Ada"), CFG, "Ada")
    app.stack.push(BoardScene(app, session))
    app.frame(0.016)
    app.frame(0.016)
    assert isinstance(app.stack.top, BoardScene)
    assert distinct_colours(app.window) > 100
    # every hit target lies inside the window
    for hit in app.stack.top.hits:
        assert app.window.get_rect().contains(hit.rect), hit


def _board(app: App, session: GameSession) -> BoardScene:
    scene = BoardScene(app, session)
    app.stack.push(scene)
    app.frame(0.016)
    return scene


def _hit(scene: BoardScene, target) -> tuple[int, int]:
    return next(h.rect.center for h in scene.hits if h.target == target)


def _confirm_dialog(app: App, scene: BoardScene) -> None:
    if scene.confirm_dialog is not None:
        press(app, scene.confirm_dialog.confirm_button)


@pytest.mark.timeout(240)
def test_a_solo_game_is_played_to_the_end_with_the_mouse(tmp_path):
    app = App(headless=True, size=(1280, 800))
    match = LocalMatch(CFG, "Ada", seed=5, save_path=tmp_path / "solo.json")
    # setup straight through the engine's own request (the setup scenes are tested elsewhere)
    session = GameSession(match, CFG, "Ada")
    session.pump()
    session.send(__import__("game.rules.actions", fromlist=["x"]).ReqChooseLeaders(tuple(session.vm.me["leadersHand"][:2])))
    session.pump()
    assert session.stage() == "board"
    scene = _board(app, session)
    turns = 0
    while session.stage() == "board" and turns < 200:
        assert session.vm.my_turn
        line = BI.Line(turns % 2 == 0, turns % 3)
        click_at(app, _hit(scene, line))
        assert scene.plan is not None
        press(app, scene.buttons["confirm"])
        _confirm_dialog(app, scene)
        assert session.vm.game["isMandatoryActionDone"], session.error
        if session.stage() != "board":
            break
        press(app, scene.buttons["end"])
        _confirm_dialog(app, scene)
        turns += 1
    assert session.stage() == "ended"
    assert session.vm.game["ended"]
    assert not (tmp_path / "solo.json").exists()   # a finished solo game is no longer offered to resume


def test_refusal_is_shown_in_words_and_changes_nothing():
    app = App(headless=True, size=(1280, 800))
    game = mid_game(["Ada", "Bruno"], 3, 20)
    match = Table(game, "Ada")
    session = GameSession(match, CFG, "Ada")
    _board(app, session)
    before = player_view(game, "Ada")
    from game.rules.actions import ReqBuyDevCard
    session.send(ReqBuyDevCard("Green", 3, 0, {}))
    app.frame(0.016)
    assert session.error and session.error[0].isupper() and session.error.endswith(".")
    assert player_view(game, "Ada") == before


def test_esc_drops_an_unsent_plan():
    app = App(headless=True, size=(1280, 800))
    game = mid_game(["Ada"], 2, 10)
    session = GameSession(Table(game, "Ada"), CFG, "Ada")
    scene = _board(app, session)
    version = game.version
    click_at(app, _hit(scene, BI.Line(True, 0)))
    assert scene.plan is not None
    app.frame(0.016, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b", scancode=41)])
    assert scene.plan is None
    assert game.version == version


def test_view_model_matches_the_engine_after_board_actions():
    app = App(headless=True, size=(1280, 800))
    game = mid_game(["Ada", "Bruno"], 4, 20)
    session = GameSession(Table(game, "Ada"), CFG, "Ada")
    scene = _board(app, session)
    click_at(app, _hit(scene, BI.Line(False, 1)))
    press(app, scene.buttons["confirm"])
    _confirm_dialog(app, scene)
    app.frame(0.016)
    assert session.vm.game == player_view(game, "Ada")


def test_turn_bell_is_soft_and_short():
    from game.scenes.sound import RATE, bell_samples
    samples = bell_samples()
    assert 0.2 < len(samples) / RATE < 1.0
    assert max(abs(s) for s in samples) < 0.35 * 32767          # never loud
    assert max(abs(s) for s in samples[-200:]) < 0.05 * 32767   # fades out


@pytest.mark.seed(1)
@pytest.mark.timeout(300)
def test_from_the_title_to_the_end_of_a_solo_game_with_the_mouse_only():
    """Title → Play solo → pick 2 leaders → play every turn on the board → the end-of-game scene."""
    from game.scenes.game_over import GameOverScene
    from game.scenes.title import TitleScene
    from game.scenes.leaders import LeaderChoiceScene
    app = App(headless=True, size=(1280, 800))
    app.settings.confirm_end_turn = False
    app.stack.push(TitleScene(app))
    app.frame(0.016)
    press(app, app.stack.top.widgets["solo"])
    leaders = app.stack.top
    assert isinstance(leaders, LeaderChoiceScene)
    click_at(app, leaders.card_rects[1].center)
    click_at(app, leaders.card_rects[3].center)
    press(app, leaders.widgets["confirm"])
    scene = app.stack.top
    assert isinstance(scene, BoardScene)
    session = scene.session
    for turn in range(300):
        if not isinstance(app.stack.top, BoardScene):
            break
        click_at(app, _hit(scene, BI.Line(turn % 2 == 1, turn % 3)))
        press(app, scene.buttons["confirm"])
        _confirm_dialog(app, scene)
        if isinstance(app.stack.top, BoardScene) and scene.over_for is None:
            assert session.vm.game["isMandatoryActionDone"], session.error
            press(app, scene.buttons["end"])
        if scene.over_for is not None:      # the last moves stay on the board until the player asks
            assert isinstance(app.stack.top, BoardScene) and session.vm.game["ended"]
            press(app, scene.buttons["scores"])
    assert isinstance(app.stack.top, GameOverScene)
    assert session.vm.game["ended"]


def _game_with_swap():
    """A 2-player game at Ada's turn where two of her shelves, one not empty, fit each other's
    size; and those two shelves."""
    for seed in range(1, 60):
        game = mid_game(["Ada", "Bruno"], seed, 30)
        shelves = game.player("Ada").shelves
        for a in shelves:
            for b in shelves:
                if a is not b and a.total() and a.total() <= b.capacity and b.total() <= a.capacity:
                    return game, a.id, b.id
    raise AssertionError("no seed gives two shelves that can be swapped")


def test_a_shelf_dragged_onto_another_is_swapped_with_it():
    app = App(headless=True, size=(1280, 800))
    game, a, b = _game_with_swap()
    before = {a: dict(game.containers[a].content), b: dict(game.containers[b].content)}
    session = GameSession(Table(game, "Ada"), CFG, "Ada")
    scene = _board(app, session)
    start, end = _hit(scene, BI.Shelf(a)), _hit(scene, BI.Shelf(b))
    ev = pygame.event.Event
    app.frame(0.016, [ev(pygame.MOUSEMOTION, pos=start, rel=(0, 0), buttons=(0, 0, 0)),
                      ev(pygame.MOUSEBUTTONDOWN, pos=start, button=1)])
    mid = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
    app.frame(0.016, [ev(pygame.MOUSEMOTION, pos=mid, rel=(1, 1), buttons=(1, 0, 0))])
    assert scene.dragging and scene.drag_from == a
    app.frame(0.016, [ev(pygame.MOUSEMOTION, pos=end, rel=(1, 1), buttons=(1, 0, 0)),
                      ev(pygame.MOUSEBUTTONUP, pos=end, button=1)])
    app.frame(0.016)
    assert not scene.dragging and scene.selected_shelf is None
    assert game.containers[a].content == before[b] and game.containers[b].content == before[a]
    assert session.error is None


def test_a_press_and_release_on_one_shelf_only_selects_it():
    app = App(headless=True, size=(1280, 800))
    game, a, _ = _game_with_swap()
    scene = _board(app, GameSession(Table(game, "Ada"), CFG, "Ada"))
    click_at(app, _hit(scene, BI.Shelf(a)))
    assert scene.selected_shelf == a and not scene.dragging and scene.drag_from is None


def test_a_shelf_dropped_off_the_shelves_stays_selected_and_nothing_is_sent():
    app = App(headless=True, size=(1280, 800))
    game, a, _ = _game_with_swap()
    version = game.version
    scene = _board(app, GameSession(Table(game, "Ada"), CFG, "Ada"))
    start = _hit(scene, BI.Shelf(a))
    ev = pygame.event.Event
    app.frame(0.016, [ev(pygame.MOUSEMOTION, pos=start, rel=(0, 0), buttons=(0, 0, 0)),
                      ev(pygame.MOUSEBUTTONDOWN, pos=start, button=1)])
    app.frame(0.016, [ev(pygame.MOUSEMOTION, pos=(5, 5), rel=(1, 1), buttons=(1, 0, 0))])
    app.window.fill((0, 0, 0))
    app.frame(0.016)   # the dragged shelf is drawn under the pointer without failing
    app.frame(0.016, [ev(pygame.MOUSEBUTTONUP, pos=(5, 5), button=1)])
    assert scene.selected_shelf == a and not scene.dragging
    assert game.version == version


@pytest.mark.logs_errors("a frame failed")
def test_a_frame_that_fails_does_not_close_the_game_and_the_board_comes_back():
    app = App(headless=True, size=(1280, 800), strict=False)
    game = mid_game(["Ada", "Bruno"], 5, 30)
    match = Table(game, "Ada", resync=True)
    session = GameSession(match, CFG, "Ada")
    scene = _board(app, session)
    session.vm.game["market"] = None          # a state no board can draw (a broken server's doing)
    scene._rev += 1
    app.frame(0.016)                          # no exception comes out
    assert app.fault and match.resyncs == 1
    app.frame(0.016)                          # the whole game came back: the board draws again
    assert app.fault is None and app.stack.top is scene
    assert distinct_colours(app.window) > 100


@pytest.mark.logs_errors("a frame failed")
def test_escape_leaves_a_failing_screen_for_the_title():
    from game.scenes.title import TitleScene
    app = App(headless=True, size=(1280, 800), strict=False)
    game = mid_game(["Ada", "Bruno"], 5, 30)
    session = GameSession(Table(game, "Ada"), CFG, "Ada")   # no resync: it stays broken
    scene = _board(app, session)
    session.vm.game["market"] = None
    scene._rev += 1
    app.frame(0.016)
    app.frame(0.016)
    assert app.fault
    app.frame(0.016, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b")])
    app.frame(0.016)
    assert isinstance(app.stack.top, TitleScene) and app.fault is None


def test_a_headless_app_lets_errors_through():
    app = App(headless=True, size=(1280, 800))
    game = mid_game(["Ada", "Bruno"], 5, 30)
    session = GameSession(Table(game, "Ada"), CFG, "Ada")
    scene = _board(app, session)
    session.vm.game["market"] = None
    scene._rev += 1
    with pytest.raises(Exception):
        app.frame(0.016)


def test_enter_confirms_a_plan_and_then_the_warning_about_discards():
    app = App(headless=True, size=(1280, 800))
    enter = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r")
    escape = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b")
    for seed in range(5, 40):   # a game where some line throws resources away (so a warning comes)
        game = mid_game(["Ada", "Bruno"], seed, 40)
        scene = _board(app, GameSession(Table(game, "Ada"), CFG, "Ada"))
        lines = [BI.Line(True, i) for i in range(3)] + [BI.Line(False, j) for j in range(4)]
        for line in lines:
            click_at(app, _hit(scene, line))
            if scene.plan is not None and scene.plan.discarded:
                break
            app.frame(0.016, [escape])
        if scene.plan is not None and scene.plan.discarded:
            break
        app.stack.pop()
    else:
        pytest.fail("no game offers a line that throws resources away")
    version = game.version
    app.frame(0.016, [enter])
    app.frame(0.016)
    assert scene.confirm_dialog is not None and game.version == version   # warned, nothing sent yet
    app.frame(0.016, [enter])
    app.frame(0.016)
    assert game.version == version + 1 and game.main_done
    assert scene.plan is None and scene.confirm_dialog is None


def test_the_window_icon_is_drawn():
    from game.scenes.app import window_icon
    App(headless=True, size=(1024, 640))
    icon = window_icon()
    assert icon.get_size() == (64, 64)
    colours = {tuple(icon.get_at((x, y))) for x in range(0, 64, 4) for y in range(0, 64, 4)}
    assert len(colours) > 20 and icon.get_at((0, 0)).a == 0   # drawn, with see-through corners


def test_the_table_chats_from_the_foot_of_the_log():
    from game.client.session import ChatLine
    app = App(headless=True, size=(1280, 800))
    game = mid_game(["Ada", "Bruno"], 5, 30)
    match = Table(game, "Ada", chat=True)
    session = GameSession(match, CFG, "Ada")
    scene = _board(app, session)
    entry = scene.chat_entry
    assert entry is not None and entry.visible
    click_at(app, entry.rect.center)
    entry.set_text("  a fine   market today ")
    app.frame(0.016, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=40)])
    for _ in range(3):
        app.frame(0.016)
    assert match.said == ["a fine market today"]
    assert entry.get_text() == ""
    line = session.log[-1]
    assert isinstance(line, ChatLine) and line.speaker == "Ada" and line.endswith("a fine market today")
    match.out.append({"type": "UpdateChat", "player": "Bruno", "text": "thank you"})
    app.frame(0.016)
    assert session.log[-1] == "Bruno: thank you" and game.version == game.version   # chat is no game move
    click_at(app, _hit(scene, BI.Line(True, 0)))                    # a plan takes the log's place
    assert scene.plan is not None and not entry.visible


def test_after_a_chat_line_the_board_has_its_keys_back():
    """QA (release): Enter sent the line and the entry showed its placeholder, as if left, but it
    kept the keyboard: H (the hint) then typed "h" into it, drawn against the placeholder
    ("hSay something to the table…"). A sent line gives the keys back to the board; a click
    on the entry takes them again."""
    app = App(headless=True, size=(1024, 640))
    game = mid_game(["Ada", "Bruno"], 5, 30)
    match = Table(game, "Ada", chat=True)
    scene = _board(app, GameSession(match, CFG, "Ada"))
    hints: list[int] = []
    scene._hint = lambda: hints.append(1)
    entry = scene.chat_entry
    click_at(app, entry.rect.center)
    assert entry.is_focused
    app.frame(0.016, [pygame.event.Event(pygame.TEXTINPUT, text="well played")])
    app.frame(0.016, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=40)])
    app.frame(0.016)
    assert match.said == ["well played"] and entry.get_text() == ""
    assert not entry.is_focused
    app.frame(0.016, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_h, mod=0, unicode="h", scancode=11),
                      pygame.event.Event(pygame.TEXTINPUT, text="h")])
    app.frame(0.016)
    assert entry.get_text() == "" and hints == [1]
    click_at(app, entry.rect.center)                       # another line: a click on the entry
    app.frame(0.016, [pygame.event.Event(pygame.TEXTINPUT, text="h")])
    assert entry.is_focused and entry.get_text() == "h" and hints == [1]


def test_a_button_clicked_while_an_opponents_board_is_open_only_closes_it():
    """QA (release): with Bruno's board open over Ada's ("click anywhere to close"), the action
    bar's buttons still acted: Hint opened a market plan whose shelves were hidden under
    Bruno's board, with Confirm ready. A click on a button, as anywhere, closes the board looked
    at, and does nothing else; H (the hint's key) closes it and asks for the hint."""
    app = App(headless=True, size=(1024, 640))
    game = mid_game(["Ada", "Bruno"], 5, 30)
    if game.current_player.nickname != "Ada":
        game = mid_game(["Ada", "Bruno"], 5, 31)
    scene = _board(app, GameSession(Table(game, "Ada", chat=True), CFG, "Ada"))
    assert scene.session.vm.my_turn
    hints: list[int] = []
    scene._hint = lambda: hints.append(1)
    for key in ("hint", "produce"):
        click_at(app, _hit(scene, BI.Opponent("Bruno")))
        assert scene.viewing == "Bruno"
        press(app, scene.buttons[key])
        assert scene.viewing is None and scene.plan is None and hints == [], key
    press(app, scene.buttons["hint"])                   # (the board looked at is closed: it acts)
    assert hints == [1]
    click_at(app, _hit(scene, BI.Opponent("Bruno")))       # H, the hint's key: the board it shows, then the hint
    app.frame(0.016, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_h, mod=0, unicode="h", scancode=11)])
    assert scene.viewing is None and hints == [1, 1]


def test_a_solo_game_has_no_one_to_chat_with():
    app = App(headless=True, size=(1280, 800))
    game = mid_game(["Ada"], 7, 30)
    scene = _board(app, GameSession(Table(game, "Ada", chat=True), CFG, "Ada"))
    assert scene.chat_entry is None
    scene2 = _board(app, GameSession(Table(mid_game(["Ada", "Bruno"], 5, 30), "Ada"), CFG, "Ada"))
    assert scene2.chat_entry is None                              # a match that cannot chat (local)


def _crowded_table():
    """Ada's turn in a 2-player game: a lone Stone on her big shelf, two Coins on the middle one,
    three Shields in the first market row."""
    game = mid_game(["Ada", "Bruno"], 11, 20)
    game.market[:4] = ["Shield", "Shield", "Shield", "Zero"]
    p = game.player("Ada")
    for c in p.depot_like():
        c.content = {}
    p.depots = []
    p.shelves[1].content, p.shelves[2].content = {"Coin": 2}, {"Stone": 1}
    return game, p


def test_taking_a_line_rearranges_the_shelves_first_instead_of_discarding():
    app = App(headless=True, size=(1280, 800))
    game, p = _crowded_table()
    scene = _board(app, GameSession(Table(game, "Ada"), CFG, "Ada"))
    click_at(app, _hit(scene, BI.Line(True, 0)))
    assert scene.plan is not None and scene.plan.discarded == 0 and scene.plan.moves
    press(app, scene.buttons["confirm"])
    _confirm_dialog(app, scene)
    app.frame(0.016)
    assert p.shelves[0].content == {"Stone": 1} and p.shelves[2].content == {"Shield": 3}
    assert p.shelves[1].content == {"Coin": 2}
    assert scene.session.error is None


def test_the_shelves_are_swapped_by_clicks_during_a_plan_and_sent_before_the_take():
    app = App(headless=True, size=(1280, 800))
    game, p = _crowded_table()
    sent = []
    match = Table(game, "Ada")
    real_send = match.send
    match.send = lambda r: (sent.append(type(r).__name__), real_send(r))
    scene = _board(app, GameSession(match, CFG, "Ada"))
    click_at(app, _hit(scene, BI.Line(True, 0)))
    plan = scene.plan
    plan.reset_arrangement()                       # as if the player wanted the shelves as they were
    assert plan.discarded == 2
    s1, _s2, s3 = (s.id for s in p.shelves)
    click_at(app, _hit(scene, BI.Shelf(s3)))         # pick the Stone's shelf ...
    click_at(app, _hit(scene, BI.Shelf(s1)))         # ... and swap it with the small one, in the plan
    assert plan.moves and plan.discarded == 0 and scene.plan is plan
    assert p.shelves[2].content == {"Stone": 1}    # nothing sent yet
    press(app, scene.buttons["confirm"])
    _confirm_dialog(app, scene)
    app.frame(0.016)
    assert sent == ["ReqSwapShelves", "ReqTakeFromMarket"]
    assert p.shelves[0].content == {"Stone": 1} and p.shelves[2].content == {"Shield": 3}
