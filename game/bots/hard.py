"""The hard bot: the medium player's best ideas, each played out a few turns ahead.

For its main action it takes the most promising candidates of the medium policy and tries each
of them on the same handful of *determinizations*: complete games consistent with its view, in
which what it cannot see is sampled (the order of each deck under its top card, the other
players' leaders in hand, Lorenzo's token pile and the generator that reshuffles it). On each it
plays the candidate, then the turns after it, everyone playing the fast medium policy, and scores
the position reached with the medium evaluation (its own against the best opponent's in a
multiplayer game). The candidate with the best average wins.

The effort is a number of playouts per main action (``budget``), not a time: the same view and
generator always give the same decision. Setup choices, leader plays, discards and the end of
the turn are the medium policy's.
"""
from __future__ import annotations

import random

from game.rules.components import GameConfig
from game.rules.engine import ENDED, PLAY, SETUP, Game
from game.rules.errors import GameError
from game.rules.state import PlayerState

from .base import Decision
from .common import board, clone, who_acts
from .evaluate import Evaluator
from .medium import Candidate, Policy

DEFAULT_BUDGET = {1: 140, 2: 120, 3: 80, 4: 60}
"""Playouts per main action by table size when none is given: a playout costs more with more
players (their turns are played out too) and, solo, with its deeper horizon; these keep a
decision's p95 near half a second of one core of this machine solo and under a second at every
size (measured solo, seeds 10000-10099 against Lorenzo: see docs/bots.md; four players at 60
about 0.75 s)."""
WIDTH = 5                   # candidates searched (the medium policy's best)
HORIZON = {1: 4}            # own turns played out (this one included) before judging, by table size
DEFAULT_HORIZON = 2         # ... at a table not listed there


def determinize(g: Game, view: dict, me: str, rng: random.Random) -> Game:
    """A complete game consistent with what ``me`` sees (``g`` is the game rebuilt from ``view``).

    Each deck keeps its size and top card; the cards under it are drawn from those of its colour
    and level that are seen nowhere. The others' leaders in hand (``leadersHandCount`` says how
    many) are drawn from the leaders seen nowhere. Lorenzo's pile is shuffled, the token just
    revealed last (it went to the bottom), unless it was the reshuffle.
    """
    cfg = g.config
    h = clone(g, random.Random(rng.getrandbits(64)))
    seen_cards = {cid for q in h.players for s in q.slots for cid in s}
    grid = {}
    for color, shared in h.decks.items():
        grid[color] = decks = shared.copy()        # (the copy shares the grid with g: replaced)
        for lv, deck in shared.items():
            if len(deck) < 2:
                continue
            top = deck[-1]
            pool = [c.id for c in cfg.dev_cards if c.color == color and c.level == lv
                    and c.id != top and c.id not in seen_cards]
            rng.shuffle(pool)
            under = pool[:len(deck) - 1]
            while len(under) < len(deck) - 1:      # a view can't say more than the components hold
                under.append(top)
            decks[lv] = under + [top]
    h.decks = grid
    mine = h.player(me)
    known = set(mine.hand) | {lid for q in h.players for lid in q.active_leaders}
    pool = [ld.id for ld in cfg.leaders if ld.id not in known]
    rng.shuffle(pool)
    counts = {p["nickname"]: p["leadersHandCount"] for p in view["players"]}
    for q in h.players:
        if q is not mine:
            for _ in range(counts[q.nickname] - len(q.hand)):
                if pool:
                    q.hand.append(pool.pop())
    if h.solo:
        h.tokens = lorenzo_pile(h, rng)
    return h


def lorenzo_pile(g: Game, rng: random.Random) -> list[int]:
    """A draw pile for Lorenzo consistent with what is face up: the tokens revealed since the
    last shuffle lie at the bottom in the order they came (none is drawn again before the
    shuffle token), the others above them in a random order. A view without that list (a
    reference server's) gives only the token just revealed."""
    last = g.last_token
    reshuffle = {t.id for t in g.config.solo_tokens if t.kind == "move_shuffle"}
    if last is None or last in reshuffle:
        seen: list[int] = []
    elif g.revealed and g.revealed[-1] == last:
        seen = list(g.revealed)
    else:
        seen = [last]
    rest = [t.id for t in g.config.solo_tokens if t.id not in seen]
    rng.shuffle(rest)
    return rest + seen


class SoloJudge(Evaluator):
    """The evaluation that judges the end of a solo playout. Its world holds a whole sampled
    token pile, so the turns Lorenzo needs to win are counted by drawing that pile (and, after
    the shuffle token, piles shuffled by the world's generator) rather than from his average
    pace: the tokens face up since the last shuffle are not drawn again before it."""

    LOOK = 60                   # tokens drawn at most (Lorenzo never needs that many)
    FAITH_PACE = 0.5            # spaces of faith a turn when the player races on the track

    def turns_to_finish(self, g: Game, p: PlayerState, nearest: int | None = None) -> float:
        """The evaluation's count of turns to the seventh card, but only if the grid still
        holds a card of each level the slots need (Lorenzo discards the lowest level of a
        colour first: once the level-1 cards are gone an empty slot stays empty), and the
        faith track's end when that is nearer."""
        faith = (self.config.last_space - p.faith) / self.FAITH_PACE
        need = self.config.end_game_cards - p.card_count()
        if need <= 0:
            return 0.0
        supply: dict[int, int] = {}
        for decks in g.decks.values():
            for lv, deck in decks.items():
                supply[lv] = supply.get(lv, 0) + len(deck)
        level = self.card_level
        top = self.top_level
        reach = 0
        for t in sorted((level[s[-1]] if s else 0 for s in p.slots), reverse=True):
            for lv in range(t + 1, top + 1):
                if supply.get(lv, 0) <= 0:
                    break
                supply[lv] -= 1
                reach += 1
        if reach < need:
            return faith
        return min(faith, super().turns_to_finish(g, p, nearest))

    def lorenzo_turns(self, g: Game) -> float:
        cfg = self.config
        tokens = cfg.solo_tokens
        left = {color: sum(len(d) for d in decks.values()) for color, decks in g.decks.items()}
        cross = g.black_cross
        last = cfg.last_space
        pile = list(g.tokens)
        rng = random.Random(g.rng.getrandbits(32))
        for turn in range(1, self.LOOK + 1):
            if not pile:
                break
            token = tokens[pile.pop(0)]
            if token.kind == "discard":
                n = left.get(token.color, 0)
                left[token.color] = max(0, n - token.amount)
                if n and not left[token.color]:
                    return turn - 0.5
            else:
                cross += token.spaces
                if cross >= last:
                    return turn - 0.5
            if token.kind == "move_shuffle":
                pile = [t.id for t in tokens]
                rng.shuffle(pile)
            else:
                pile.append(token.id)
        return float(self.LOOK)


class HardBot:
    level = "hard"
    horizon: int | None = None
    """Own turns a playout plays (this one included) before it is judged; None: by table size
    (:data:`HORIZON`)."""

    def __init__(self, config: GameConfig, budget: int | None = None) -> None:
        self.config = config
        self.budget = None if budget is None else max(1, budget)
        self.ev = Evaluator(config)
        self.policy = Policy(config, self.ev)
        self.rollout = Policy(config, self.ev, fast=True, quiet=True)
        self.solo_judge = SoloJudge(config)

    def decide(self, view: dict, nickname: str, rng: random.Random) -> Decision:
        g, p = board(view, self.config, nickname)
        if g.phase == SETUP or g.main_done or self.policy.ready_leader(g, p) is not None:
            return self.policy.decide(g, p)
        budget = self.budget or DEFAULT_BUDGET.get(len(g.players), min(DEFAULT_BUDGET.values()))
        ranked = self.policy.ranked(g, p)
        # rearranging is searched only toward the medium policy's own choice, which stays the
        # same after each swap: so a search never undoes the swaps of the one before
        cands = [c for i, c in enumerate(ranked) if i == 0 or not c.pre][:min(WIDTH, budget)]
        if len(cands) == 1:
            return self.policy.explain(g, p, cands[0])
        worlds = self.worlds(g, view, nickname, rng, max(1, budget // len(cands)))
        depth = self.horizon or HORIZON.get(len(g.players), DEFAULT_HORIZON)
        best = None
        for c in cands:
            total = 0.0
            for w, seed in worlds:
                total += self.playout(w, nickname, c, seed, depth)
            score = total / len(worlds)
            if best is None or score > best[0] + 1e-9:
                best = (score, c)
        return self.policy.explain(g, p, best[1], searched=len(worlds))   # (each candidate: as many futures)

    def worlds(self, g: Game, view: dict, me: str, rng: random.Random, n: int) -> list[tuple[Game, int | None]]:
        """The futures each candidate is played out in: ``n`` determinizations, each with the
        seed of its generator (Lorenzo's reshuffles)."""
        out: list[tuple[Game, int | None]] = []
        for _ in range(n):
            out.append((determinize(g, view, me, rng), rng.getrandbits(32)))
        return out

    def playout(self, world: Game, me: str, c: Candidate, seed: int | None, depth: int) -> float:
        """The value of ``c`` played out in ``world`` for ``depth`` own turns (this one
        included), reshuffling with ``Random(seed)`` (with ``world``'s own generator when
        ``seed`` is None)."""
        h = clone(world, random.Random(seed) if seed is not None else None)
        try:
            for a in c.pre:
                h.apply(me, a)
            h.apply(me, c.main)
        except GameError:
            return -1e9
        turns = 1
        for _ in range(400):
            if h.phase == ENDED:
                break
            nick = who_acts(h)
            if nick is None:
                break
            if nick == me and h.phase == PLAY and not h.main_done and h.current_player.nickname == me:
                turns += 1
                if turns > depth:
                    break
            h = self.rollout.advance(h, h.player(nick))
        return self.judge(h, me)

    def judge(self, h: Game, me: str) -> float:
        p = h.player(me)
        if h.solo:
            return self.solo_judge.value(h, p)
        v = self.ev.value(h, p)
        others = [self.ev.value(h, q) for q in h.players if q is not p]
        return v - max(others)


class CeilingBot(HardBot):
    """For the benchmark only (no player can choose it): the hard bot's search given what a
    player cannot see. Its one future is the real game itself (every deck in order, Lorenzo's
    pile and the generator that reshuffles it), so each candidate is played out once, exactly;
    its win rate bounds what sampling the hidden things could ever give the same search.
    ``horizon`` (own turns played out; by default the hard bot's) may be set deeper than the
    hard bot's, to see what the game allows. :func:`game.bots.arena.play` shows it the game
    (:attr:`world`)."""

    level = "ceiling"

    def __init__(self, config: GameConfig, budget: int | None = None, horizon: int | None = None) -> None:
        super().__init__(config, budget)
        self.horizon = horizon
        self.world: Game | None = None

    def worlds(self, g: Game, view: dict, me: str, rng: random.Random, n: int) -> list[tuple[Game, int | None]]:
        if self.world is None:
            raise RuntimeError("the ceiling bot plays only where it is shown the game (the arena)")
        return [(clone(self.world), None)]
