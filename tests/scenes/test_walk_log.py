"""The log's words at the moments that matter, walked like a player: the real ``App`` frame loop,
posted events (tools/walk.py), and the words the frames draw.

In solo the log speaks of one player against Lorenzo: a Vatican report says whether the player
is in the section (Lorenzo has no tile), and the end says who ended the game and why (never "the
last round has begun; the game is over": solo has no last round). With others, the last round
says who began it.
"""
from __future__ import annotations

import random

import pygame
import pytest
from support.drawn import Words

from walk import Walk

from game.scenes.app import App

pytestmark = pytest.mark.timeout(120)
SIZES = [(1024, 640), (1920, 1080)]


def _close(app: App) -> None:
    while app.stack.top is not None:
        app.stack.pop()


def _solo(size, *, cross: int, token: str, faith: int | None = None, setup=None):
    """Ada's solo board, main action done; Lorenzo's black cross at ``cross`` and his next token
    the first of kind ``token`` ("move": +2 spaces; "discard": two Blue cards)."""
    from support.table import Table, mid_game

    from game.rules import default_config
    from game.scenes.board import BoardScene
    from game.client.session import GameSession
    game = mid_game(["Ada"], 3, 6)
    game.black_cross = cross
    if faith is not None:
        game.player("Ada").faith = faith
    tid = next(t.id for t in game.config.solo_tokens if t.kind == token and (t.kind != "discard" or t.color == "Blue"))
    game.tokens.remove(tid)
    game.tokens.insert(0, tid)
    game.main_done = True
    if setup is not None:
        setup(game)
    app = App(headless=True, size=size)
    app.settings.confirm_end_turn = False
    walk = Walk(app, None, "log")
    session = GameSession(Table(game, "Ada"), default_config(), "Ada")
    app.stack.push(BoardScene(app, session))
    walk.frames(2)
    return walk, game, session


def _end_turn(walk: Walk) -> None:
    walk.press("End turn")
    walk.frames(20)
    walk.app.frame(3.0)          # the report's moment over: the log drawn in full
    walk.frames(2)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_solo_lost_to_the_black_cross_says_so_and_no_last_round(size, monkeypatch):
    walk, game, session = _solo(size, cross=22, token="move", faith=3,
                                setup=lambda g: setattr(g, "fired", [True, True, False]))
    try:
        words = Words(monkeypatch)
        _end_turn(walk)
        assert game.phase == "ended"
        last = str(session.log[-1])
        assert last == ("You ended the turn. Lorenzo moved the black cross 2 spaces — Vatican report 3: you are not "
                        "in the section; your favor tile is removed; Lorenzo's black cross reached the end of the "
                        "faith track: Lorenzo wins."), last
        assert "last round" not in " ".join(str(x) for x in session.log)
        assert "Lorenzo wins" in words.drawn() and "last round" not in words.drawn()
    finally:
        _close(walk.app)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_solo_lost_to_the_last_blue_cards_says_which_colour_ran_out(size, monkeypatch):
    def two_blue_left(g):
        decks = g.decks["Blue"]
        for level in decks:
            del decks[level][1 if level == 1 else 0:]
        assert sum(len(d) for d in decks.values()) == 1
        decks[2].append(g.decks["Green"][2][0])      # any card: the token discards by count
    walk, game, session = _solo(size, cross=3, token="discard", setup=two_blue_left)
    try:
        words = Words(monkeypatch)
        _end_turn(walk)
        assert game.phase == "ended" and game.lorenzo_won
        last = str(session.log[-1])
        assert last == ("You ended the turn. Lorenzo discarded 2 blue cards from the grid — no blue card is left "
                        "on the grid: Lorenzo wins."), last
        assert "Lorenzo wins" in words.drawn() and "last round" not in words.drawn()
    finally:
        _close(walk.app)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("faith", [2, 6])
def test_a_solo_vatican_report_says_whether_the_player_is_in_the_section(size, faith, monkeypatch):
    walk, game, session = _solo(size, cross=6, token="move", faith=faith,
                                setup=lambda g: setattr(g, "fired", [False, False, False]))
    try:
        words = Words(monkeypatch)
        _end_turn(walk)
        assert game.phase == "play" and game.fired[0]
        said = ("Vatican report 1: you are in the section and turn the favor tile face up (+2 VP)" if faith >= 5
                else "Vatican report 1: you are not in the section; your favor tile is removed")
        assert str(session.log[-1]) == f"You ended the turn. Lorenzo moved the black cross 2 spaces — {said}.", session.log[-1]
        assert "nobody" not in str(session.log[-1])
        assert "Vatican report 1" in words.drawn()
    finally:
        _close(walk.app)


def test_with_others_the_last_round_says_who_began_it_and_the_end_who_won():
    """Ada discards a leader for the faith that takes her to the end of the track: the report,
    then who began the last round; the last turn played out: who won."""
    from support.table import Table, mid_game

    from game.rules import default_config
    from game.rules.actions import ReqEndTurn, ReqLeaderAction
    from game.rules.playout import choose
    from game.client.session import GameSession
    game = mid_game(["Ada", "Bruno"], 5, 12)
    game.player("Ada").faith = 23
    game.player("Bruno").faith = 3
    game.fired = [True, True, False]
    match = Table(game, "Ada")
    session = GameSession(match, default_config(), "Ada")
    session.pump()
    ada = game.player("Ada")
    leader = next(i for i in ada.hand if i not in ada.active_leaders)
    session.send(ReqLeaderAction(leader, False))
    session.pump()
    assert str(session.log[-1]) == ("You discarded a leader for 1 faith — Vatican report 3: you turn the favor tile "
                                    "face up (+4 VP); Bruno's is removed; you reached the end of the faith track: "
                                    "the last round has begun."), session.log[-1]
    rng = random.Random(5)
    while not game.main_done:
        session.send(choose(game, "Ada", rng))
    session.send(ReqEndTurn())
    while not game.ended:                     # Bruno's last turn
        match.out += game.apply("Bruno", choose(game, "Bruno", rng))
    session.pump()
    winner = game.outcome().winners[0]
    won = "you win" if winner == "Ada" else f"{winner} wins"       # (the log is Ada's)
    assert str(session.log[-1]).endswith(f"— the last round was played out: {won}."), session.log[-1]


def _swappable(seed_from: int = 3):
    """A solo game at Ada's turn with two shelves, one not empty, that fit each other's contents."""
    from support.table import mid_game
    for seed in range(seed_from, seed_from + 60):
        game = mid_game(["Ada"], seed, 12)
        shelves = game.player("Ada").shelves
        for i, a in enumerate(shelves):
            for j, b in enumerate(shelves):
                if i < j and a.total() + b.total() and a.total() <= b.capacity and b.total() <= a.capacity:
                    return game, i, j
    raise RuntimeError("no game with two shelves to swap")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_moves_in_the_warehouse_one_after_another_are_one_line_with_their_count(size, monkeypatch):
    """QA (s6-lan-b-plan-sent): three moves sent with a plan read "Bea rearranged the warehouse."
    three times. Ada swaps two shelves, then swaps them back, with the mouse: one line says
    both; her next move in the market is a line of its own."""
    from types import SimpleNamespace

    from support.table import Table

    from game.rules import default_config
    from game.rules.views import player_view
    from game.scenes.board import BoardScene
    from game.scenes.layout import board_layout
    from game.scenes.panels.player_board import PlayerBoardPanel
    from game.client.session import GameSession
    from game.client.view_model import ViewModel
    from walk import board_geometry
    game, i, j = _swappable()
    app = App(headless=True, size=size)
    app.settings.confirm_end_turn = False
    walk = Walk(app, None, "log")
    session = GameSession(Table(game, "Ada"), default_config(), "Ada")
    app.stack.push(BoardScene(app, session))
    walk.frames(3)
    vm = ViewModel("Ada")
    vm.feed(player_view(game, "Ada"))
    panel = PlayerBoardPanel(board_layout(size, 1, True).board, board_layout(size, 1, True).unit)
    rects = panel.shelf_rects(SimpleNamespace(vm=vm), vm.me)
    shelves = [rects[cid] for cid in vm.me["warehouseShelves"]]
    try:
        words = Words(monkeypatch)
        before = len(session.log)
        for _ in range(2):
            walk.click(shelves[i].center)
            walk.click(shelves[j].center)
            walk.frames(2)
        swaps = [a for kind, _n, a in game.history if kind == "apply" and type(a).__name__ == "ReqSwapShelves"]
        assert len(swaps) == 2
        assert [str(x) for x in session.log[before:]] == ["You rearranged the warehouse (2 moves)."]
        walk.click(board_geometry(size, 1)["arrows"][0].center)
        walk.key(pygame.K_RETURN, "\r")
        if walk.scene == "AskScene":
            walk.key(pygame.K_RETURN, "\r")
        walk.frames(3)
        import re                            # (the plan may rearrange more first: counted in)
        assert re.fullmatch(r"You rearranged the warehouse \((\d+) moves\)\.", str(session.log[-2]))
        assert str(session.log[-1]).startswith("You took ")
        assert sum("rearranged" in str(x) for x in session.log[before:]) == 1
        assert any("rearranged the warehouse (2 moves)" in s for s in words.seen)
    finally:
        _close(walk.app)
