"""How good a position is for one player, in victory points (the medium bot's judgement).

:meth:`Evaluator.value` adds to the points a player holds now what their position promises:

- the cards they aim at (the top cards their slots accept next), each worth its points, its
  production and its step toward the end, discounted by the resources still missing;
- the productions on top of their slots and their active leaders' abilities;
- leaders still in hand, by how close their requirement is and how much game is left;
- the faith track between its squares and the Vatican reports still to come (a favor is as good
  as won once the marker is inside its section, lost if the leading marker gets there first);
- in solo, Lorenzo: every space of the black cross brings his win nearer, and a colour running
  out is a threat (the last card of a colour is never a target);
- a finished game: its real score, with a large bonus for a solo win and a large loss for
  Lorenzo's.

The numbers are hand-tuned against bench/bots.py; they are weights, not probabilities.
"""
from __future__ import annotations

import math
from typing import Mapping

from game.rules.components import DevCard, GameConfig, Production
from game.rules.engine import ENDED, Game
from game.rules.state import PlayerState

GAMMA = 0.78                # value kept per missing resource of a target card
LEADER_GAMMA = 0.8          # ... per missing unit of a leader's requirement (a card counts 3)
CARD_BONUS_SOLO = 1.0       # a card is a step of seven toward beating Lorenzo
CARD_BONUS_MULTI = 1.5
RESOURCE_VALUE = 0.3        # any resource: a fifth of a point at the end, and base-production fuel
BLACK_CROSS = 0.55          # each space of Lorenzo's cross
OPPONENT_FAITH = 0.25       # each faith point given to an opponent (a discarded resource)
SOLO_WIN = 40.0
RACE = 30.0                 # a solo position's chance of beating Lorenzo, in points
RACE_SPREAD = 5.0
TURNS_PER_CARD = 4.5        # turns a card takes, gathering included
GATHER_RATE = 2.5           # useful resources a turn of gathering brings
LORENZO_PACE = 5 / 7        # spaces the black cross moves a turn (tokens +2, +2, +1 of 7)
SOLO_LOSS = -40.0
ABILITY = {"white_marble": 5.0, "discount": 3.0, "extra_depot": 2.5, "production": 3.5}


def production_value(prod: Production) -> float:
    """What having a production on hand is worth (it can be run again and again)."""
    out = sum(n for r, n in prod.output.items() if r != "Faith") + prod.output_choice
    faith = prod.output.get("Faith", 0)
    inp = sum(prod.input.values()) + prod.input_choice
    return max(0.0, 0.45 * (out - inp) + 0.35 * faith + 0.1)


class Evaluator:
    """Scores positions of games played with ``config`` (see the module docstring).

    It runs thousands of times per decision of the hard bot, so it reads the game directly and
    keeps what it can of the components precomputed.
    """

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.prod_value = {pid: production_value(prod) for pid, prod in config.productions.items()}
        self.card_prod = [self.prod_value[c.production.id] for c in config.dev_cards]
        self.cost_items = [tuple(c.cost.items()) for c in config.dev_cards]
        self.cost_dict = [dict(items) for items in self.cost_items]
        """Each card's cost without discounts, as :meth:`_targets` gives it (shared: never changed)."""
        self.card_level = [c.level for c in config.dev_cards]
        self.card_color = [c.color for c in config.dev_cards]
        self.card_vp = [c.victory_points for c in config.dev_cards]
        # a card's worth before discounting, solo and multiplayer (as _targets adds it up)
        self.card_worth = {solo: [vp + (CARD_BONUS_SOLO if solo else CARD_BONUS_MULTI) + prod
                                  for vp, prod in zip(self.card_vp, self.card_prod)] for solo in (True, False)}
        self.track = [self.track_points(f) for f in range(config.last_space + 1)]
        self.top_level = config.levels[-1]
        self.gamma = [GAMMA ** i for i in range(64)]
        self.leader_gamma = [LEADER_GAMMA ** i for i in range(64)]
        self._held = (config.resources, (0,) * len(config.resources))
        """The resources in order, and as many zeros: ``map(have.get, *self._held)`` counts what is held."""
        self._aims: dict[tuple, list] = {}
        """What :meth:`_targets` and :meth:`target_term` found, by what goes into them: the
        grid's top cards (and, solo, how many cards each colour has left: see :meth:`_grid`),
        the levels the slots accept, the leaders played and the resources held. A search meets
        the same again and again (each move tried leaves the grid as it was, and the others'
        cards, unseen, are not in it)."""
        self._grids: dict[int, tuple[dict, int]] = {}
        """:meth:`_grid`'s number for each grid seen (by ``id``, the grid kept with it so that no
        other takes that id: a game replaces its grid rather than change it, see
        :class:`~game.rules.engine.Game`, and the bot's copies of a game share it)."""
        self._grid_numbers: dict[tuple, int] = {}
        self._discount_keys: dict[tuple[int, ...], tuple] = {}
        self._faith_terms: dict[tuple, float] = {}
        """:meth:`faith_term` by its key (a few thousand at most: the track is short)."""
        self._slot_summaries: dict[tuple[int, ...], tuple] = {}
        """:meth:`_slots` by the slots' ids (at most :data:`AIMS_KEPT`)."""

    AIMS_KEPT = 1_000           # entries of :attr:`_aims` kept at most (then it starts again): more
    # slow the whole down (measured: 50,000 made 12 hard games 8-15% slower on the processor, the
    # memory and the collector's passes over it costing more than the work saved)

    # ------------------------------------------------------------------ pieces
    def track_points(self, faith: int) -> int:
        pts = 0
        for space, vp in self.config.vp_squares:
            if faith >= space:
                pts = vp
        return pts

    def next_levels(self, g: Game, p: PlayerState) -> dict[int, int]:
        """Level -> how many slots accept a card of that level now."""
        level = self.card_level
        out: dict[int, int] = {}
        top = self.top_level
        for s in p.slots:
            lv = level[s[-1]] + 1 if s else 1
            if lv <= top:
                out[lv] = out.get(lv, 0) + 1
        return out

    def _discounts(self, p: PlayerState) -> dict[str, int]:
        leaders = self.config.leaders
        out: dict[str, int] = {}
        for lid in p.active_leaders:
            ld = leaders[lid]
            if ld.kind == "discount":
                out[ld.resource] = out.get(ld.resource, 0) + ld.discount
        return out

    def _aim(self, g: Game, p: PlayerState, have: Mapping[str, int], levels: dict[int, int],
             levels_key: tuple | None = None) -> list:
        """The entry of :attr:`_aims` for this position: [:meth:`_targets`, :meth:`target_term`
        or None until asked]. (``levels_key``: ``tuple(levels.items())``, if known.)"""
        kept = self._grids.get(id(g.decks))
        grid = self._grid(g) if kept is None else kept[1]
        key = (grid, tuple(levels.items()) if levels_key is None else levels_key,
               self._discount_key(p) if p.active_leaders else (), tuple(map(have.get, *self._held)))
        aims = self._aims
        aim = aims.get(key)
        if aim is None:
            if len(aims) >= self.AIMS_KEPT:
                aims.clear()
                self._grids.clear()
                self._grid_numbers.clear()
                key = (self._grid(g), *key[1:])
            aim = aims[key] = [self._find_targets(g, p, have, levels), None]
        return aim

    def _slots(self, p: PlayerState) -> tuple:
        """What the evaluation reads of ``p``'s slots: (the slots, the cards in them, the
        production worth of each top card in slot order, the levels they accept (as
        :meth:`next_levels`), each leader's missing cards so far found (by id, see
        :meth:`_cards_missing`), the levels as a key (``tuple(levels.items())``)). Remembered
        by the slots' identity: the engine replaces a slot rather than change it, and the bot's
        copies of a game share them."""
        key = tuple(map(id, p.slots))
        kept = self._slot_summaries.get(key)
        if kept is None:
            if len(self._slot_summaries) >= self.AIMS_KEPT:
                self._slot_summaries.clear()
            level = self.card_level
            card_prod = self.card_prod
            top = self.top_level
            n_cards = 0
            prods = []
            levels: dict[int, int] = {}
            for s in p.slots:
                if s:
                    n_cards += len(s)
                    cid = s[-1]
                    prods.append(card_prod[cid])
                    lv = level[cid] + 1
                else:
                    lv = 1
                if lv <= top:
                    levels[lv] = levels.get(lv, 0) + 1
            # (the slots themselves kept with it, so that no other list takes their ids)
            kept = self._slot_summaries[key] = (tuple(p.slots), n_cards, tuple(prods), levels, {},
                                                tuple(levels.items()))
        return kept

    def _cards_missing(self, slots: tuple, leader) -> int:
        """The cards ``leader`` still needs in ``slots``, three points of missing each."""
        owned: dict[tuple[str, int], int] = {}
        color = self.card_color
        level = self.card_level
        for s in slots:
            for cid in s:
                key = (color[cid], level[cid])
                owned[key] = owned.get(key, 0) + 1
        miss = 0
        for req in leader.requires_cards:
            if req.level is None:
                got = sum(n for (c, _), n in owned.items() if c == req.color)
            else:
                got = owned.get((req.color, req.level), 0)
            if got < req.count:
                miss += 3 * (req.count - got)
        return miss

    def _discount_key(self, p: PlayerState) -> tuple:
        """The discounts of ``p``'s leaders, in a form that may key :attr:`_aims`."""
        leaders = tuple(p.active_leaders)
        key = self._discount_keys.get(leaders)
        if key is None:
            key = self._discount_keys[leaders] = tuple(sorted(self._discounts(p).items()))
        return key

    def _grid(self, g: Game) -> int:
        """A number for what :meth:`_find_targets` reads of ``g``'s grid: each deck's top card
        and, solo, how many cards each colour has left (the same number for the same)."""
        decks = g.decks
        solo = g.solo
        seen = (solo, tuple(tuple(d[-1] if d else -1 for d in ds.values()) for ds in decks.values()),
                tuple(sum(len(d) for d in ds.values()) for ds in decks.values()) if solo else ())
        numbers = self._grid_numbers
        n = numbers.get(seen)
        if n is None:
            n = numbers[seen] = len(numbers)
        self._grids[id(decks)] = (decks, n)
        return n

    def _targets(self, g: Game, p: PlayerState, have: Mapping[str, int],
                 levels: dict[int, int]) -> tuple[list[tuple[float, float, int, dict[str, int], int]], tuple | None, int]:
        """(discounted worth, worth, card id, cost, missing) of each card ``p`` could aim at; the
        best of them (the lowest card id among equals; None: none) and the fewest missing. (The
        same objects for the same position: never change them.)"""
        return self._aim(g, p, have, levels)[0]

    def _find_targets(self, g: Game, p: PlayerState, have: Mapping[str, int],
                      levels: dict[int, int]) -> tuple[list[tuple[float, float, int, dict[str, int], int]], tuple | None, int]:
        """:meth:`_targets`, worked out."""
        out = []
        first = None
        nearest = 0
        disc = self._discounts(p) if p.active_leaders else None
        gamma = self.gamma
        solo = g.solo
        card_worth = self.card_worth[solo]
        cost_items = self.cost_items
        cost_dict = self.cost_dict
        for decks in g.decks.values():
            near = None
            if solo:
                left = 0
                for d in decks.values():
                    left += len(d)
                if left <= 1:
                    continue
                if left <= 4:
                    near = (5 - left) * 0.8     # taking from a colour about to vanish helps Lorenzo
            for lv in levels:
                deck = decks.get(lv)
                if not deck:
                    continue
                cid = deck[-1]
                miss = 0
                if disc:
                    cost = {}
                    for r, n in cost_items[cid]:
                        if r in disc:
                            n = max(0, n - disc[r])
                            if not n:
                                continue
                        cost[r] = n
                        h = have.get(r, 0)
                        if h < n:
                            miss += n - h
                else:
                    cost = cost_dict[cid]               # (shared: nobody changes it)
                    for r, n in cost_items[cid]:
                        h = have.get(r, 0)
                        if h < n:
                            miss += n - h
                worth = card_worth[cid]
                if near is not None:
                    worth -= near
                v = worth * gamma[miss if miss < 63 else 63]
                t = (v, worth, cid, cost, miss)
                out.append(t)
                if first is None:
                    first = t
                    nearest = miss
                else:
                    if v > first[0] or v == first[0] and cid < first[2]:
                        first = t
                    if miss < nearest:
                        nearest = miss
        return out, first, nearest

    def targets(self, g: Game, p: PlayerState, have: Mapping[str, int]) -> list[tuple[float, DevCard, dict[str, int], int]]:
        """Cards this player could aim at: (discounted worth, card, cost, missing), best first."""
        ts = sorted(self._targets(g, p, have, self.next_levels(g, p))[0], key=lambda t: (-t[0], t[2]))
        cards = self.config.dev_cards
        return [(v, cards[cid], cost, miss) for v, _, cid, cost, miss in ts]

    def best_target(self, g: Game, p: PlayerState, have: Mapping[str, int]) -> tuple[int, dict[str, int]] | None:
        """The first of :meth:`targets` as (card id, cost), without sorting them all (None: none)."""
        first = self._targets(g, p, have, self.next_levels(g, p))[1]
        return None if first is None else (first[2], first[3])

    def target_term(self, g: Game, p: PlayerState, have: Mapping[str, int],
                    levels: dict[int, int], levels_key: tuple | None = None) -> tuple[float, int | None]:
        """The worth of the cards aimed at (the best, and the best one after it) and how many
        resources the nearest card lacks (None: no card to aim at)."""
        aim = self._aim(g, p, have, levels, levels_key)
        term = aim[1]
        if term is None:
            term = aim[1] = self._target_term(aim[0], have, levels)
        return term

    def _target_term(self, targets: tuple, have: Mapping[str, int], levels: dict[int, int]) -> tuple[float, int | None]:
        """:meth:`target_term`, worked out from :meth:`_targets`."""
        ts, first, nearest = targets
        if first is None:
            return 0.0, None
        best, _, cid, cost, _ = first
        lv = self.card_level[cid]
        gamma = self.gamma
        second = 0.0
        level = self.card_level
        for t in ts:
            # (a worth at most the best second so far cannot beat it once discounted: skipped)
            if t[1] <= second or t is first or (level[t[2]] == lv and levels.get(lv, 0) < 2):
                continue
            miss = 0
            for r, n in t[3].items():
                h = have.get(r, 0) - cost.get(r, 0)
                if h < n:
                    miss += n - max(0, h)
            v = t[1] * gamma[min(miss, 63)]
            if v > second:
                second = v
        return best + 0.45 * second, nearest

    @staticmethod
    def table(g: Game) -> tuple[int, int, int]:
        """What :meth:`value` reads of the whole table: the most cards a player has, the
        furthest faith marker and the faith of all the players together."""
        most = faith = total = 0
        for q in g.players:
            n = 0
            for s in q.slots:
                n += len(s)
            if n > most:
                most = n
            f = q.faith
            total += f
            if f > faith:
                faith = f
        return most, faith, total

    def horizon(self, g: Game, p: PlayerState, table: tuple[int, int, int] | None = None) -> float:
        """Roughly how much of the game is left, 1 at the start, near 0 at the end (``table``:
        :meth:`table`, if known)."""
        cfg = self.config
        mine = 0
        for s in p.slots:
            mine += len(s)
        left = 1.0 - mine / cfg.end_game_cards
        if g.solo:
            left = min(left, 1.0 - g.black_cross / cfg.last_space)
            low = None
            for decks in g.decks.values():
                n = 0
                for d in decks.values():
                    n += len(d)
                if low is None or n < low:
                    low = n
            left = min(left, low / 8)
        else:
            most, faith, _ = self.table(g) if table is None else table
            left = min(left, 1.0 - most / cfg.end_game_cards, 1.0 - faith / cfg.last_space)
            if g.last_round:
                left = 0.0
        return max(0.0, left)

    def faith_term(self, g: Game, p: PlayerState, top: int | None = None) -> float:
        """The worth of ``p``'s place on the faith track: the points of the squares passed and
        part of the next, and the Vatican reports to come (remembered: it depends only on
        ``p``'s marker, the leading one and the reports made). ``top``: the furthest marker,
        the black cross's included, if known."""
        faith = p.faith
        if top is None:
            top = g.black_cross
            for q in g.players:
                if q.faith > top:
                    top = q.faith
        key = (faith, top, *g.fired)
        v = self._faith_terms.get(key)
        if v is None:
            v = self._faith_terms[key] = self._faith_term(g, faith, top)
        return v

    def _faith_term(self, g: Game, faith: int, top: int) -> float:
        """:meth:`faith_term`, worked out."""
        cfg = self.config
        v = 0.12 * faith
        # between squares: part of the next square's gain
        prev = 0
        for space, vp in cfg.vp_squares:
            if space > faith:
                here = self.track[faith]
                v += (vp - here) * 0.5 * (faith - prev) / (space - prev)
                break
            prev = space
        fired = g.fired
        for i, sec in enumerate(cfg.vatican_sections):
            if fired[i]:
                continue
            if faith >= sec.first_space:
                v += sec.favor_vp
                continue
            need = sec.first_space - faith
            slack = sec.pope_space - top
            chance = (slack - need + 4) / 8
            if chance > 0:
                v += sec.favor_vp * (chance if chance < 1 else 1.0) * 0.8
        return v

    def turns_to_finish(self, g: Game, p: PlayerState, nearest: int | None = None) -> float:
        """Solo: about how many turns this player needs for the cards that end the game
        (``nearest``: the resources the nearest card on offer lacks)."""
        need = self.config.end_game_cards - p.card_count()
        level = self.card_level
        room = 0
        for s in p.slots:
            room += self.top_level - (level[s[-1]] if s else 0)
        if room < need or nearest is None and need > 0:
            return 99.0
        if need <= 0:
            return 0.0
        return (need - 1) * TURNS_PER_CARD + 1.0 + nearest / GATHER_RATE

    def lorenzo_turns(self, g: Game) -> float:
        """Solo: about how many turns Lorenzo needs to win."""
        t = (self.config.last_space - g.black_cross) / LORENZO_PACE
        for decks in g.decks.values():
            left = 0
            for d in decks.values():
                left += len(d)
            # each of his discard tokens takes 2 cards of its colour and comes about once in 7 turns
            hits = (left + 1) // 2
            if 7.0 * hits - 3.5 < t:
                t = 7.0 * hits - 3.5
        return t

    def win_chance(self, g: Game, p: PlayerState, nearest: int | None) -> float:
        margin = self.lorenzo_turns(g) - self.turns_to_finish(g, p, nearest)
        return 1.0 / (1.0 + math.exp(-margin / RACE_SPREAD))

    # ------------------------------------------------------------------ the whole
    def value(self, g: Game, p: PlayerState) -> float:
        """The position's worth for ``p`` in points (see the module docstring)."""
        cfg = self.config
        if g.phase == ENDED:
            score = g.score(p.nickname).total
            if g.solo:
                return score + (SOLO_LOSS if g.lorenzo_won else SOLO_WIN)
            return score + (10.0 if p.nickname in g.winners else 0.0)
        have: dict[str, int] = {}
        get = have.get
        count = 0
        for c in p.shelves:
            for r, n in c.content.items():
                have[r] = get(r, 0) + n
                count += n
        for c in p.depots:
            for r, n in c.content.items():
                have[r] = get(r, 0) + n
                count += n
        for r, n in p.strongbox.content.items():
            have[r] = get(r, 0) + n
            count += n
        slots = self._slots(p)
        _, n_cards, prods, levels, card_miss, levels_key = slots
        v = float(p.vp) - count // cfg.resources_per_vp + RESOURCE_VALUE * count  # resources counted smoothly
        for prod in prods:
            v += prod
        term, nearest = self.target_term(g, p, have, levels, levels_key)
        v += term
        v += (CARD_BONUS_SOLO if g.solo else CARD_BONUS_MULTI) * n_cards
        solo = g.solo
        table = None if solo else self.table(g)
        horizon = self.horizon(g, p, table)
        leaders = cfg.leaders
        active = p.active_leaders
        in_hand = [lid for lid in p.hand if lid not in active] if active else p.hand
        for lid in active:
            v += ABILITY[leaders[lid].kind] * (0.3 + 0.7 * horizon)
        if in_hand:
            reach_scale = min(1.0, 0.2 + 1.2 * horizon)
            for lid in in_hand:
                leader = leaders[lid]
                miss = card_miss.get(lid)
                if miss is None:
                    miss = card_miss[lid] = self._cards_missing(slots[0], leader)
                for r, n in leader.requires_resources.items():
                    if have.get(r, 0) < n:
                        miss += n - have.get(r, 0)
                reach = self.leader_gamma[min(miss, 63)] * reach_scale
                v += (leader.victory_points + ABILITY[leader.kind] * horizon) * reach
        if solo:
            v += self.faith_term(g, p)
            v -= BLACK_CROSS * g.black_cross
            v += RACE * self.win_chance(g, p, nearest)
        else:
            _, top, faith = table
            v += self.faith_term(g, p, top if top > g.black_cross else g.black_cross)
            v -= OPPONENT_FAITH * (faith - p.faith)
        return v
