"""A game against the computer on this machine (BotMatch): the bots' moves come one at a time at
the pace, and unknown levels are refused."""
from __future__ import annotations

import time

import pytest

from game.match import BotMatch
from game.rules import default_config
from game.rules.actions import ReqChooseLeaders, ReqChooseResources

CFG = default_config()


def test_bot_moves_come_one_at_a_time_at_the_pace():
    match = BotMatch(CFG, "Ada", ["easy", "easy"], seed=8, pace=0.25)
    me = match.game.player("Ada")
    match.send(ReqChooseLeaders(tuple(me.hand[:2])))
    if me.bonus:
        shelf = me.shelves[-1]
        match.send(ReqChooseResources({shelf.id: {"Coin": me.bonus}}))
    seen: list[tuple[float, str]] = []
    end = time.monotonic() + 20
    while len(seen) < 6 and time.monotonic() < end and not (
            match.game.phase == "play" and match.game.current_player.nickname == "Ada"):
        for m in match.poll():
            if m["type"] == "UpdateAction" and m["player"] != "Ada":
                seen.append((time.monotonic(), m["player"]))
        time.sleep(0.005)
    match.close()
    assert len(seen) >= 4
    gaps = [b - a for (a, _), (b, _) in zip(seen, seen[1:])]
    assert min(gaps) >= 0.2, gaps   # (read a little after each move is made: a margin)


def test_bad_levels_are_refused():
    from game.bots import UnknownLevel
    with pytest.raises(UnknownLevel):
        BotMatch(CFG, "Ada", ["easy", "godlike"], seed=1)
    with pytest.raises(ValueError):
        BotMatch(CFG, "Ada", ["easy"] * 4, seed=1)
