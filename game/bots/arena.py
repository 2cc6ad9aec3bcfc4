"""Whole games between bots, in-process: used by the tests and ``bench/bots.py``.

Each bot is asked only when the engine would accept a request from it, with its own view, and
its random generator is seeded per decision as the seat driver does
(``Random(f"{seed}:{nickname}:{index}")``), so a game is a function of its seed and levels.
:func:`play_many` plays a batch of such games, in worker processes if asked: since every game is
a function of its seed, the results are the same whatever the number of workers.
"""
from __future__ import annotations

import hashlib
import random
import time
import traceback
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Sequence

import orjson

from game import runtime
from game.rules.components import GameConfig, default_config
from game.rules.engine import Game
from game.rules.views import player_view

from . import make_bot
from .base import Bot, Decision
from .common import who_acts
from .hard import CeilingBot
from .workers import WorkerProcesses


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
            made[nick] = _make(level, config, budget)
        by_nick[nick] = made[nick]
        if isinstance(made[nick], CeilingBot):   # the benchmark's bound: it sees the game itself
            made[nick].world = game
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


def _make(level: str, config: GameConfig, budget: int | None) -> Bot:
    """A bot of ``level``, or the benchmark's ``"ceiling"`` (:class:`~game.bots.hard.CeilingBot`;
    ``"ceiling6"``: one that plays 6 of its turns out instead of the hard bot's 2)."""
    if level.startswith(CeilingBot.level):
        depth = level.removeprefix(CeilingBot.level)
        return CeilingBot(config, budget, horizon=int(depth)) if depth else CeilingBot(config, budget)
    return make_bot(level, config, budget=budget)


# ---------------------------------------------------------------------------- batches of games
def digest(game: Game, whys: Sequence[str] = ()) -> str:
    """A fingerprint of a game's requests in order (and of the bots' reasons, if given): two
    games with the same digest were played with the same decisions."""
    h = hashlib.sha256()
    for kind, nick, what in game.history:
        item = [kind, nick, what.to_dict() if hasattr(what, "to_dict") else what]
        h.update(orjson.dumps(item, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS))
    for why in whys:
        h.update(why.encode())
    return h.hexdigest()[:16]


@dataclass(frozen=True)
class Summary:
    """A finished game of :func:`play` in a few figures, small enough to send between processes:
    the seats' final scores, the winners (empty when Lorenzo won), its :func:`digest`, how many
    requests it took and every decision's time by nickname (``cpu``: processor time of the
    deciding thread, ``times``: the clock)."""

    seed: int
    levels: tuple[str, ...]
    scores: dict[str, int]
    winners: tuple[str, ...]
    lorenzo_won: bool
    termination: str
    requests: int
    digest: str
    whys: tuple[str, ...]
    cpu: dict[str, list[float]]
    times: dict[str, list[float]]


def summarize(played: Played, seed: int) -> Summary:
    outcome = played.game.outcome()
    if outcome is None:
        raise RuntimeError(f"game {seed} did not end")
    return Summary(seed, tuple(played.levels.values()),
                   {nick: s.total for nick, s in outcome.scores.items()}, tuple(outcome.winners),
                   bool(outcome.lorenzo_won), outcome.termination.value, len(played.game.history),
                   digest(played.game, played.whys), tuple(played.whys), played.cpu, played.times)


class GameFailed(RuntimeError):
    """A game played in a worker process of :func:`play_many` failed (a refused request, a
    crash): the message names the game and holds the worker's traceback. (The engine's errors
    do not all survive the trip between processes, so they travel as this.)"""


_WORKER: dict = {}


def _init_worker(config: GameConfig | None) -> None:
    """A batch's worker, set up as the game's own bot workers are: the configuration loaded, then
    the collector's policy (:func:`game.runtime.settle_collector`; without it the hard games of a
    batch took about a fifth longer)."""
    _WORKER["config"] = config if config is not None else default_config()
    _WORKER["bots"] = {}
    runtime.settle_collector()


def _in_worker(spec: tuple[tuple[str, ...], int, int | None]) -> Summary:
    try:
        return _play_one(spec, _WORKER["config"], _WORKER["bots"])
    except Exception as e:
        levels, seed, budget = spec
        raise GameFailed(f"game {seed} with {list(levels)} (budget {budget}) failed in a worker: "
                         f"{type(e).__name__}: {e}\n{traceback.format_exc()}") from None


def _play_one(spec: tuple[tuple[str, ...], int, int | None], config: GameConfig, bots: dict) -> Summary:
    levels, seed, budget = spec
    seated = {}
    for i, level in enumerate(levels):      # bots keep no state between decisions: reused
        if (level, budget) not in bots:
            bots[(level, budget)] = _make(level, config, budget)
        seated[f"Bot{i + 1}"] = bots[(level, budget)]
    return summarize(play(config, levels, seed, budget=budget, bots=seated), seed)


def play_many(specs: Iterable[tuple[Sequence[str], int, int | None]], *, jobs: int = 1,
              config: GameConfig | None = None) -> Iterator[Summary]:
    """Play each game ``(levels, seed, budget)`` of ``specs`` with :func:`play` and yield its
    :class:`Summary`, in the order of ``specs``.

    ``jobs`` > 1 deals the games to that many worker processes (:class:`.workers.WorkerProcesses`:
    spawned, so safe whatever threads the caller runs; they leave a Ctrl-C to the caller and end
    when the iterator is done, closed or fails). The
    summaries are the same as with ``jobs=1``; only the times differ. ``config`` is the games'
    configuration (default: the standard game).

    :raises GameError: a bot made a request the engine refused (a bug), with ``jobs=1``.
    :raises GameFailed: the same, or any other failure of a game, in a worker process.
    """
    specs = [(tuple(levels), seed, budget) for levels, seed, budget in specs]
    if jobs <= 1 or len(specs) <= 1:
        config = config if config is not None else default_config()
        bots: dict = {}
        for spec in specs:
            yield _play_one(spec, config, bots)
        return
    pool = WorkerProcesses(min(jobs, len(specs)), initializer=_init_worker, initargs=(config,))
    try:
        futures = [pool.submit(_in_worker, spec) for spec in specs]
        for future in futures:
            yield future.result()
    finally:
        # the workers end on the way out, whatever happened (a failed game, a closed generator, a
        # Ctrl-C, which they leave to us): a game under way is cut short
        pool.shutdown(wait=True, cancel_futures=True)
