"""The log's words at the moments that matter, walked like a player: the real ``App`` frame loop,
posted events (tools/walk.py), and the words the frames draw.

In solo the log speaks of one player against Lorenzo: a Vatican report says whether the player
is in the section (Lorenzo has no tile), and the end says who ended the game and why (never "the
last round has begun; the game is over": solo has no last round). With others, the last round
says who began it.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pygame
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from walk import Walk  # noqa: E402

from game.scenes.app import App  # noqa: E402

pytestmark = pytest.mark.timeout(120)
SIZES = [(1024, 640), (1920, 1080)]


@pytest.fixture(autouse=True)
def _dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("MOR_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv("MOR_DATA_DIR", str(tmp_path / "data"))


class Words:
    """The words drawn by the frames run inside the test (every ``fonts.render``)."""

    def __init__(self, monkeypatch) -> None:
        from game.scenes.art import fonts
        self.seen: list[str] = []
        real = fonts.render

        def render(text, *args, **kw):
            self.seen.append(str(text))
            return real(text, *args, **kw)
        monkeypatch.setattr(fonts, "render", render)

    def drawn(self) -> str:
        return " ".join(self.seen)


def _close(app: App) -> None:
    while app.stack.top is not None:
        app.stack.pop()


def _solo(size, *, cross: int, token: str, faith: int | None = None, setup=None):
    """Ada's solo board, main action done; Lorenzo's black cross at ``cross`` and his next token
    the first of kind ``token`` ("move": +2 spaces; "discard": two Blue cards)."""
    from screenshots import TableMatch, mid_game

    from game.rules import default_config
    from game.scenes.board import BoardScene
    from game.scenes.session import GameSession
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
    session = GameSession(TableMatch(game, "Ada"), default_config(), "Ada")
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
        assert last == ("Ada ended the turn. Lorenzo moved the black cross 2 spaces — Vatican report 3: Ada is not "
                        "in the section; the favor tile is removed; Lorenzo's black cross reached the end of the "
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
        assert last == ("Ada ended the turn. Lorenzo discarded two Blue cards from the grid — no Blue card is left "
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
        said = ("Vatican report 1: Ada is in the section and turns the favor tile face up (+2 VP)" if faith >= 5
                else "Vatican report 1: Ada is not in the section; the favor tile is removed")
        assert str(session.log[-1]) == f"Ada ended the turn. Lorenzo moved the black cross 2 spaces — {said}.", session.log[-1]
        assert "nobody" not in str(session.log[-1])
        assert "Vatican report 1" in words.drawn()
    finally:
        _close(walk.app)


def test_with_others_the_last_round_says_who_began_it_and_the_end_who_won():
    """Ada discards a leader for the faith that takes her to the end of the track: the report,
    then who began the last round; the last turn played out: who won."""
    from screenshots import TableMatch, mid_game

    from game.rules import default_config
    from game.rules.actions import ReqEndTurn, ReqLeaderAction
    from game.rules.playout import choose
    from game.scenes.session import GameSession
    game = mid_game(["Ada", "Bruno"], 5, 12)
    game.player("Ada").faith = 23
    game.player("Bruno").faith = 3
    game.fired = [True, True, False]
    match = TableMatch(game, "Ada")
    session = GameSession(match, default_config(), "Ada")
    session.pump()
    ada = game.player("Ada")
    leader = next(i for i in ada.hand if i not in ada.active_leaders)
    session.send(ReqLeaderAction(leader, False))
    session.pump()
    assert str(session.log[-1]) == ("Ada discarded a leader for 1 faith — Vatican report 3: Ada turns the favor tile "
                                    "face up (+4 VP); Bruno's is removed; Ada reached the end of the faith track: "
                                    "the last round has begun."), session.log[-1]
    rng = random.Random(5)
    while not game.main_done:
        session.send(choose(game, "Ada", rng))
    session.send(ReqEndTurn())
    while not game.ended:                     # Bruno's last turn
        match.out += game.apply("Bruno", choose(game, "Bruno", rng))
    session.pump()
    winner = game.outcome().winners[0]
    assert str(session.log[-1]).endswith(f"— the last round was played out: {winner} wins."), session.log[-1]
