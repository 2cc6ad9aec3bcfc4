"""Whole games between bots, in-process: used by the tests and ``bench/bots.py``.

Each bot is asked only when the engine would accept a request from it, with its own view, and
its random generator is seeded per decision as the seat driver does
(``Random(f"{seed}:{nickname}:{index}")``), so a game is a function of its seed and levels.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from game.rules.components import GameConfig
from game.rules.engine import ENDED, SETUP, Game
from game.rules.views import player_view

from . import Bot, Decision, make_bot


@dataclass
class Played:
    """A finished game and how each bot spent its time, seconds per decision by nickname: on the
    clock (``times``) and on the processor (``cpu``, this thread only: what a decision costs on
    a core of its own, whatever else the machine is doing)."""

    game: Game
    levels: dict[str, str]
    times: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)
    whys: list[str] = field(default_factory=list)


def who_acts(game: Game) -> str | None:
    """The player the engine waits for: the first seat with a setup choice left, or the current one."""
    if game.phase == ENDED:
        return None
    if game.phase == SETUP:
        for p in game.players:
            if p.active and not (p.chose_leaders and p.chose_resources):
                return p.nickname
        return None
    return game.current_player.nickname


def play(config: GameConfig, levels: Sequence[str], seed: int, *, budget: int | None = None,
         bots: dict[str, Bot] | None = None, max_requests: int = 5000,
         on_decision: Callable[[Game, str, Decision], None] | None = None) -> Played:
    """Play one game with a bot of ``levels[i]`` for player ``"Bot{i+1}"`` to its end.

    :raises GameError: a bot made a request the engine refused (a bug).
    :raises RuntimeError: the game did not end within ``max_requests`` requests.
    """
    nicks = [f"Bot{i + 1}" for i in range(len(levels))]
    game = Game.new(config, nicks, seed)
    made: dict[str, Bot] = dict(bots or {})
    by_nick = {}
    for nick, level in zip(nicks, levels):
        if nick not in made:
            made[nick] = make_bot(level, config, budget=budget)
        by_nick[nick] = made[nick]
    out = Played(game, dict(zip(nicks, levels)), {n: [] for n in nicks}, {n: [] for n in nicks})
    counts = dict.fromkeys(nicks, 0)
    for _ in range(max_requests):
        nick = who_acts(game)
        if nick is None:
            return out
        view = player_view(game, nick)
        rng = random.Random(f"{seed}:{nick}:{counts[nick]}")
        counts[nick] += 1
        t0, c0 = time.perf_counter(), time.thread_time()
        decision = by_nick[nick].decide(view, nick, rng)
        out.cpu[nick].append(time.thread_time() - c0)
        out.times[nick].append(time.perf_counter() - t0)
        out.whys.append(decision.why)
        game.apply(nick, decision.action)
        if on_decision is not None:
            on_decision(game, nick, decision)
    raise RuntimeError(f"game {seed} with {list(levels)} did not end in {max_requests} requests")
