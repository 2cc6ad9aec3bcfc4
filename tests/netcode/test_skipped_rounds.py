"""The rounds of a returning player's skipped turns (``recent_history``'s second half), as the
players met them: round 1 is the first turn of the game, a round begins when the turn passes the
first seat, and a turn that only went round between seats nobody could play from is no round."""
from __future__ import annotations

import random

import pytest

from game.netcode.history import recent_history
from game.rules.actions import ReqEndTurn
from game.rules.engine import Game
from game.rules.playout import choose

from conftest import CONFIG


class Table:
    """A game past its setup, played turn by turn with the engine's random policy, counting the
    rounds as the players see them (the turn back at the first seat, or beyond it)."""

    def __init__(self, players: int, seed: int) -> None:
        self.g = g = Game.new(CONFIG, [f"p{i}" for i in range(players)], seed)
        self.rng = random.Random(seed)
        while g.phase == "setup":
            nick = next(p.nickname for p in g.players if not (p.chose_leaders and p.chose_resources))
            g.apply(nick, choose(g, nick, self.rng))
        self.seats = [p.nickname for p in g.players]
        self.round = 1

    def turn(self) -> None:
        """The current player's main action, then the end of their turn."""
        g = self.g
        nick, before = g.current_player.nickname, g.current
        while not g.main_done:
            g.apply(nick, choose(g, nick, self.rng))
        g.apply(nick, ReqEndTurn())
        if g.current <= before:
            self.round += 1

    def until(self, round_: int, seat: int) -> None:
        while not (self.round == round_ and self.g.current == seat):
            self.turn()

    def away(self, seat: int) -> None:
        g = self.g
        before = g.current
        g.set_active(self.seats[seat], False)
        if g.current < before and g.players[g.current].active:
            self.round += 1      # the turn of the last seat's player went on to the first seat

    def back(self, seat: int) -> None:
        self.g.set_active(self.seats[seat], True)

    def skipped(self, seat: int) -> list[int]:
        return recent_history(self.g, self.seats[seat])[1]


def test_a_round_nobody_played_in_still_counts_when_its_turns_went_to_players_who_could_play():
    """QA (s5-p-B-returned2): in round 3 the host stopped hosting on his turn (passed on) and came
    back; the joiner was then killed on his turn and stayed away through the host's next turn:
    his turns of rounds 3 and 4 were skipped (it said "rounds 3 and 3")."""
    t = Table(2, 8)
    t.until(3, 0)
    t.away(0)                     # the host stops hosting on his turn: it goes to the joiner
    t.back(0)
    assert t.g.current == 1 and t.round == 3
    t.away(1)                     # the joiner is killed on his turn: it goes to the host
    assert t.g.current == 0 and t.round == 4
    t.turn()                      # the host's turn; the joiner's is skipped again
    assert t.g.current == 0 and t.round == 5
    t.back(1)
    assert t.skipped(1) == [3, 4]
    assert t.skipped(0) == [3]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("where", ["first", "last", "middle"])
def test_a_player_away_for_whole_rounds_is_told_each_round(players, where):
    """Away from the start of their turn of round 3 until round 6 begins: rounds 3, 4 and 5
    skipped, whatever their seat (and round 6 too for the first seat, passed over at once)."""
    seat = {"first": 0, "last": players - 1, "middle": players // 2}[where]
    t = Table(players, 30 + players)
    t.until(3, seat)
    t.away(seat)
    while t.round < 6:
        t.turn()
    t.back(seat)
    assert t.skipped(seat) == [3, 4, 5] + ([6] if seat == 0 else [])
    assert all(t.skipped(s) == [] for s in range(players) if s != seat)


def test_several_players_away_each_hear_of_their_own_rounds():
    """Four players: the second seat leaves in round 2 (after the first seat's turn), the last
    one in round 3 on its turn; both come back in round 5."""
    t = Table(4, 41)
    t.until(2, 1)
    t.away(1)                            # round 2: its turn goes to the third seat
    t.until(3, 3)
    t.away(3)                            # round 3: its turn goes on to the first seat (round 4)
    assert t.round == 4 and t.g.current == 0
    t.until(5, 2)
    t.back(1)
    t.back(3)
    assert t.skipped(1) == [2, 3, 4, 5]
    assert t.skipped(3) == [3, 4]
    assert t.skipped(0) == t.skipped(2) == []


def test_a_turn_handed_round_empty_seats_is_no_round_and_skips_nobody():
    """Everyone goes away on the first seat's turn of round 3 (a server stopped with its players
    seated, restored with no grace; the current player marked last): the turn is handed on
    between the empty seats. The first seat is back first: the turn is his again, still in
    round 3, and nobody lost a turn; after it the others are back and the turn goes on."""
    t = Table(3, 52)
    t.until(3, 0)
    for s in (1, 2, 0):
        t.g.set_active(t.seats[s], False)
    t.back(0)
    assert t.g.current == 0
    t.back(1)
    t.back(2)
    t.turn()
    assert t.g.current == 1
    assert [t.skipped(s) for s in range(3)] == [[], [], []]
    t.away(1)                            # then the second seat leaves on its turn of round 3
    t.until(4, 2)
    t.back(1)
    assert t.skipped(1) == [3, 4]
