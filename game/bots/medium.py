"""The medium bot: a heuristic player that weighs each request of its turn.

Each time it is asked it plays its leaders as soon as their requirements are met, then tries
every main action worth considering on a copy of the game and keeps the one that leaves the best
position by :class:`~game.bots.evaluate.Evaluator`: each card it can buy into each slot, each
market line (with the warehouse rearranged first when that keeps more of the line, and each way
of turning white marbles with two leaders), and the productions it can pay for, alone and
together, with their free choices aimed at the card it is saving for. Once the main action is
done it discards leaders that can no longer pay off, and ends its turn.

:class:`Policy` works on any :class:`~game.rules.engine.Game` for one player: the medium bot runs
it on the game rebuilt from its view; the hard bot runs it inside its playouts.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import combinations, permutations
from typing import Callable

from game.rules.actions import (Action, ProductionRequest, ReqActivateProductions, ReqBuyDevCard,
                                ReqChooseLeaders, ReqChooseResources, ReqEndTurn, ReqLeaderAction,
                                ReqSwapShelves, ReqTakeFromMarket)
from game.rules.choices import (activatable_leaders, affordable_cards, market_lines, suggest_payment,
                                suggest_placement)
from game.rules.components import GameConfig, LeaderCard
from game.rules.engine import ENDED, SETUP, Game
from game.rules.errors import GameError
from game.rules.state import PlayerState

from game.i18n import N_, _, ngettext

from .base import Decision
from .common import (amount_words, board, card_words, clone, discard_copy, empties_color, leader_words, line_words,
                     res_words, resource_word, slot_words)
from .evaluate import ABILITY, Evaluator
from .quick_value import Effect, effect_value

_ABILITY_WORDS = {"discount": N_("its cards cost one {r} less"), "extra_depot": N_("two more {r} fit in storage"),
                  "white_marble": N_("white marbles become {r}"),
                  "production": N_("a new production ({r} into faith and a resource of choice)")}
"""What a leader's ability gives, marked for the catalogue (said with ``_``)."""


@dataclass
class Candidate:
    """A main action, the rearranging it needs first, and how to say why."""

    pre: tuple[Action, ...]
    main: Action
    words: Callable[[Game, PlayerState], str]
    value: float = 0.0
    tried: tuple[Game, Game | None] | None = field(default=None, repr=False, compare=False)
    """(the game, the copy the action was tried on) once :meth:`Policy.ranked` has tried it:
    :meth:`Policy.explain` looks at that copy rather than trying the action again. The copy is
    None for an action valued without being made (:func:`.quick_value.effect_value`), which
    ends nothing."""
    start: tuple[Game, Game] | None = field(default=None, repr=False, compare=False)
    """(the game, a copy of it with ``pre`` made) when the candidate was built on such a copy:
    the main action is tried on a copy of that one, the rearranging is not made again."""
    effect: Effect | None = field(default=None, repr=False, compare=False)
    """What a market take or productions change (:func:`.quick_value.effect_value` values the
    action from it without making it)."""
    same_as: Candidate | None = field(default=None, repr=False, compare=False)
    """An earlier candidate of the same :meth:`Policy.ranked` that leaves every player exactly as
    this one does (a market line storing the same, with as many faith marbles and resources left
    over: only the market differs, which the evaluation never reads): once that one was tried,
    its value is this one's and this one is not tried (it never ranks above it: ties go to the
    earlier candidate). Only a ``fast`` policy sets it (its :meth:`Policy.ranked` is only ever
    asked for the best)."""


class Policy:
    """The medium policy for one player of a game (see the module docstring).

    ``fast`` trims the choices it tries (for playouts): no warehouse rearranging unless the line
    at all, fewer production sets. ``quiet`` leaves the reason of a main action unsaid (empty):
    for playouts, where nobody reads it; the request is the same.
    """

    def __init__(self, config: GameConfig, evaluator: Evaluator | None = None, *, fast: bool = False,
                 quiet: bool = False) -> None:
        self.config = config
        self.ev = evaluator or Evaluator(config)
        self.fast = fast
        self.quiet = quiet
        self._reached: tuple[Game, int, str, float] | None = None
        """(game, its version, player, value): the position :meth:`advance` last went on from
        after a main action, and its value for that player, which :meth:`ranked` has worked out
        (:meth:`discard_now` asks for it next)."""

    # ------------------------------------------------------------------ entry
    def decide(self, g: Game, p: PlayerState) -> Decision:
        if g.phase == SETUP:
            return self.setup_leaders(g, p) if not p.chose_leaders else self.setup_resources(g, p)
        leader = self.ready_leader(g, p)
        if leader is not None:
            what = _(_ABILITY_WORDS[leader.kind]).format(r=resource_word(leader.resource))
            return Decision(ReqLeaderAction(leader.id, True),
                            _("Play {leader}: its requirement is met, {vp} VP and {what}.").format(
                                leader=leader_words(leader), vp=leader.victory_points, what=what))
        if g.main_done:
            discard = self.discard_now(g, p, end_of_game=g.last_round and not g.solo)
            if discard is not None:
                return discard
            return Decision(ReqEndTurn(), _("End the turn: the main action is done."))
        return self.explain(g, p, self.best_main(g, p))

    def advance(self, g: Game, p: PlayerState) -> Game:
        """Make on ``g`` (a copy for searching) the request :meth:`decide` would make, and return
        the game after it: ``g`` itself, or for a main action the copy :meth:`ranked` tried it on,
        which is that very position (so it is not played again)."""
        if g.phase != SETUP and not g.main_done:
            leader = self.ready_leader(g, p)
            if leader is not None:
                action = ReqLeaderAction(leader.id, True)
            else:
                best = self.best_main(g, p)
                action = self.explain(g, p, best).action
                tried = best.tried
                if action is best.main and tried is not None and tried[0] is g:
                    h = tried[1]
                    if h is None:          # (valued without being made: made now, on g)
                        g.apply(p.nickname, action)
                        h = g
                    self._reached = (h, h.version, p.nickname, best.value)
                    return h
        else:
            action = self.decide(g, p).action
        g.apply(p.nickname, action)
        return g

    def ready_leader(self, g: Game, p: PlayerState) -> LeaderCard | None:
        """A leader in hand whose requirement is met (played at once: it costs nothing)."""
        ready = activatable_leaders(g, p)
        return max(ready, key=lambda ld: (ld.victory_points, -ld.id)) if ready else None

    def explain(self, g: Game, p: PlayerState, best: Candidate, searched: int = 0) -> Decision:
        """The request to make now for the main action ``best``: a swap it needs first, a leader
        to discard before the game ends with it, or the action itself."""
        if best.pre:
            return Decision(best.pre[0], best.words(g, p),
                            then=(*best.pre[1:], best.main))
        tried = best.tried
        after = tried[1] if tried is not None and tried[0] is g else self._after(g, best)
        if after is not None and after.phase == ENDED:     # (a last round still lets it play leaders after)
            discard = self.discard_now(g, p, end_of_game=True)
            if discard is not None:
                return discard
        if self.quiet:
            return Decision(best.main, "")
        why = best.words(g, p)
        if searched:
            why = ngettext("{why}: with the game played on to its end once, it did best.",
                           "{why}: with the game played on to its end {n} different ways, it did best.",
                           searched).format(why=why.rstrip("."), n=searched)
        return Decision(best.main, why)

    # ------------------------------------------------------------------ setup
    def leader_score(self, leader: LeaderCard) -> float:
        need = sum(3 * r.count + (2 if r.level and r.level > 1 else 0) for r in leader.requires_cards)
        need += sum(leader.requires_resources.values())
        return (leader.victory_points + ABILITY[leader.kind]) * 0.85 ** need

    def setup_leaders(self, g: Game, p: PlayerState) -> Decision:
        cfg = self.config
        best = None
        for pair in combinations(sorted(p.hand), cfg.leaders_kept):
            leaders = [cfg.leaders[i] for i in pair]
            score = sum(self.leader_score(ld) for ld in leaders)
            colors = [set(r.color for r in ld.requires_cards) for ld in leaders]
            if len(colors) == 2 and colors[0] & colors[1]:
                score += 1.5
            kinds = [ld.kind for ld in leaders]
            if kinds.count("white_marble") == 2:
                score -= 2.0
            if best is None or score > best[0]:
                best = (score, pair)
        pair = best[1]
        a, b = (leader_words(cfg.leaders[i]) for i in pair)
        return Decision(ReqChooseLeaders(pair), _("Keep {leader} and {other}: the likeliest to be played, for the most "
                                                  "points.").format(leader=a, other=b))

    def setup_resources(self, g: Game, p: PlayerState) -> Decision:
        cfg = self.config
        have = p.resource_totals()
        ts = self.ev.targets(g, p, have)
        want: dict[str, int] = {}
        for _score, card, cost, _miss in ts[:3]:
            for r, n in cost.items():
                want[r] = want.get(r, 0) + n
        r = max(cfg.resources, key=lambda x: (want.get(x, 0), -cfg.resources.index(x)))
        shelf = max(p.shelves, key=lambda s: s.capacity)
        return Decision(ReqChooseResources({shelf.id: {r: p.bonus}}),
                        _("Start with {amount}: the cheapest cards on offer ask for it.").format(
                            amount=amount_words(p.bonus, r)))

    # ------------------------------------------------------------------ leaders
    def discard_now(self, g: Game, p: PlayerState, *, end_of_game: bool) -> Decision | None:
        """A leader to discard for its faith point, if keeping it is worth less."""
        cfg = self.config
        hand = [lid for lid in p.hand if lid not in p.active_leaders]
        if not hand:
            return None
        if end_of_game:
            lid = hand[0]
            return Decision(ReqLeaderAction(lid, False),
                            _("Discard {leader} for 1 Faith: the game ends before it could be played.").format(
                                leader=leader_words(cfg.leaders[lid])))
        reached = self._reached
        if reached is not None and reached[0] is g and reached[1] == g.version and reached[2] == p.nickname:
            now = reached[3]
        else:
            now = self.ev.value(g, p)
        best = None
        for lid in hand:
            quick = effect_value(self.ev, g, p, Effect({}, 1, 0, lid))
            if quick is not None:
                v = quick[0]
            else:
                h = discard_copy(g)
                h.apply(p.nickname, ReqLeaderAction(lid, False))
                v = self.ev.value(h, h.player(p.nickname))
            if v > now + 0.25 and (best is None or v > best[0]):
                best = (v, lid)
        if best is None:
            return None
        return Decision(ReqLeaderAction(best[1], False),
                        _("Discard {leader} for 1 Faith: it is unlikely to be played in time.").format(
                            leader=leader_words(cfg.leaders[best[1]])))

    # ------------------------------------------------------------------ main action
    def _after(self, g: Game, c: Candidate, nick: str | None = None) -> Game | None:
        """The copy of ``g`` that ``c`` was made on (by the current player, ``nick`` if given);
        None: it was refused."""
        if nick is None:
            nick = g.current_player.nickname
        start = c.start
        try:
            if start is not None and start[0] is g:
                h = clone(start[1], share_rng=True)
            else:
                h = clone(g, share_rng=True)
                for a in c.pre:
                    h.apply(nick, a)
            h.apply(nick, c.main)
        except GameError:
            return None
        return h

    def ranked(self, g: Game, p: PlayerState) -> list[Candidate]:
        """Every candidate main action, best first. Ties go to one needing no rearranging, then
        to the smallest final arrangement: an order that does not depend on the current
        arrangement, so after each swap the same plan comes first again and the swaps never go
        round in circles."""
        keyed = []
        nick = p.nickname
        for c in self.candidates(g, p):
            same = c.same_as
            if same is not None and same.tried is not None:
                c.value = same.value
                keyed.append(((round(c.value, 6), True, ()), len(keyed), c))
                continue
            main = c.main
            quick = None
            effect = c.effect
            if effect is not None:
                start = c.start
                if not c.pre or start is not None and start[0] is g:
                    base = g if not c.pre else start[1]
                    quick = effect_value(self.ev, base, base.by_nick[nick], effect)
            if quick is not None:       # (worked out without making it: nothing ended)
                c.tried = (g, None)
                c.value, after = quick
            else:
                h = self._after(g, c, nick)
                if h is None:
                    continue
                c.tried = (g, h)
                after = h.by_nick[nick]
                c.value = self.ev.value(h, after)
            key = (round(c.value, 6), not c.pre,
                   (_arrangement(after), str(main)) if c.pre else ())
            keyed.append((key, len(keyed), c))
        keyed.sort(key=lambda t: (t[0], -t[1]), reverse=True)
        assert keyed, "a player always has a market line to take"
        return [c for _k, _v, c in keyed]

    def best_main(self, g: Game, p: PlayerState) -> Candidate:
        return self.ranked(g, p)[0]

    def candidates(self, g: Game, p: PlayerState):
        yield from self.buy_candidates(g, p)
        yield from self.market_candidates(g, p)
        yield from self.production_candidates(g, p)

    def buy_candidates(self, g: Game, p: PlayerState):
        for offer in affordable_cards(g, p):
            if empties_color(g, offer.card):
                continue
            seen = set()
            for slot in offer.slots:
                key = tuple(p.slots[slot][-1:])
                if key in seen:
                    continue
                seen.add(key)
                pay = suggest_payment(g, p, offer.cost) or {}
                card = offer.card

                def words(g2, p2, card=card, slot=slot):
                    return _("Buy {card} into {slot}: the best card it can pay for now.").format(
                        card=card_words(card), slot=slot_words(slot))
                yield Candidate((), ReqBuyDevCard(card.color, card.level, slot, pay), words)

    def _shelf_orders(self, p: PlayerState) -> list[tuple[tuple[int, int], ...]]:
        """Ways to rearrange the shelves by swapping whole shelves: lists of swaps (as id pairs)."""
        shelves = p.shelves
        n = len(shelves)
        out: list[tuple[tuple[int, int], ...]] = []
        seen = set()
        for perm in permutations(range(n)):
            # shelf i receives the contents of shelf perm[i]
            if any(shelves[perm[i]].total() > shelves[i].capacity for i in range(n)):
                continue
            key = tuple(tuple(sorted(shelves[perm[i]].content.items())) for i in range(n))
            if key in seen:
                continue
            seen.add(key)
            swaps = []
            cur = list(range(n))             # cur[i]: whose original contents shelf i holds now
            for i in range(n):
                if cur[i] != perm[i]:
                    j = cur.index(perm[i])
                    swaps.append((shelves[i].id, shelves[j].id))
                    cur[i], cur[j] = cur[j], cur[i]
            out.append(tuple(swaps))
        return out

    def market_candidates(self, g: Game, p: PlayerState):
        orders = None
        taken: dict[tuple, Candidate] | None = {} if self.fast else None
        unsaid = self.fast and self.quiet       # (a playout's candidates: nobody reads their words)
        for line in market_lines(g, p):
            whites = [{}]
            if len(line.white_options) > 1 and line.whites:
                a, b = line.white_options[:2]
                whites = [{a: line.whites}, {b: line.whites}]
                if line.whites > 1:
                    whites.append({a: line.whites // 2, b: line.whites - line.whites // 2})
            for reps in whites:
                intake = dict(line.resources)
                for r, n in reps.items():
                    intake[r] = intake.get(r, 0) + n
                plan = suggest_placement(g, p, intake)
                spill = 0
                for n in intake.values():
                    spill += n
                for m in plan.values():
                    for n in m.values():
                        spill -= n
                if unsaid:
                    words = _unsaid
                else:
                    gain = dict(intake)
                    if line.faith:
                        gain["Faith"] = line.faith

                    def words(g2, p2, line=line, gain=gain, spill=spill):
                        aim = self._aim_words(g2, p2)
                        said = dict(line=line_words(line.is_row, line.index), gain=res_words(gain), card=aim)
                        words = (_("Take {line} of the market ({gain}), toward {card}.") if aim else
                                 _("Take {line} of the market ({gain}).")).format(**said)
                        return words + (" " + ngettext("{n} will not fit.", "{n} will not fit.", spill).format(n=spill)
                                        if spill else "")
                plain = Candidate((), ReqTakeFromMarket(line.is_row, line.index, reps, plan), words,
                                  effect=Effect(plan, line.faith, spill))
                if taken is not None:
                    # what the take does to the players: the plan's resources stored, the faith
                    # marbles, the resources left over (faith for the others, or Lorenzo)
                    key = (tuple((cid, tuple(m.items())) for cid, m in plan.items()), line.faith, spill)
                    plain.same_as = taken.get(key)
                    if plain.same_as is None:
                        taken[key] = plain
                yield plain
                if self.fast:
                    continue
                # (:meth:`ranked` has tried ``plain`` by now: a rearranging that stores exactly what
                # it stores leads to a position of the same value, which ranks below it: not tried)
                stored = _stored(plan) if plain.tried is not None and plain.tried[0] is g else None
                if orders is None:
                    # each rearrangement made once, on a copy shared by every line it is tried for
                    orders = []
                    for swaps in self._shelf_orders(p):
                        if swaps:
                            h = clone(g, share_rng=True)
                            for a, b in swaps:
                                h.apply(p.nickname, ReqSwapShelves(a, b))
                            orders.append((swaps, h, h.player(p.nickname)))
                for swaps, h, q in orders:
                    plan2 = suggest_placement(h, q, intake)
                    if stored is not None and _stored(plan2) == stored:
                        continue
                    spill2 = sum(intake.values()) - sum(n for m in plan2.values() for n in m.values())

                    def words2(g2, p2, line=line, gain=gain, spill2=spill2):
                        said = dict(line=line_words(line.is_row, line.index), gain=res_words(gain), n=spill2)
                        return (ngettext("Rearrange the warehouse first, so that {line} of the market ({gain}) fits "
                                         "better ({n} will not fit).",
                                         "Rearrange the warehouse first, so that {line} of the market ({gain}) fits "
                                         "better ({n} will not fit).", spill2) if spill2 else
                                _("Rearrange the warehouse first, so that {line} of the market ({gain}) fits "
                                  "better.")).format(**said)
                    yield Candidate(tuple(ReqSwapShelves(a, b) for a, b in swaps),
                                    ReqTakeFromMarket(line.is_row, line.index, reps, plan2), words2,
                                    start=(g, h), effect=Effect(plan2, line.faith, spill2))

    def _aim_words(self, g: Game, p: PlayerState) -> str:
        ts = self.ev.targets(g, p, p.resource_totals())
        if not ts:
            return ""
        card = ts[0][1]
        return card_words(card)

    # ------------------------------------------------------------------ productions
    def production_candidates(self, g: Game, p: PlayerState):
        avail = g.available_productions(p)
        base_id = self.config.base_production.id
        others = [prod for pid, prod in sorted(avail.items()) if pid != base_id]
        have = p.resource_totals()
        aim = self.ev.best_target(g, p, have)
        need: dict[str, int] = {}
        if aim is not None:
            for r, n in aim[1].items():
                need[r] = n
        surplus = {r: have.get(r, 0) - need.get(r, 0) for r in self.config.resources}
        # free outputs: what the aimed card misses most
        short = sorted(self.config.resources, key=lambda r: (have.get(r, 0) - need.get(r, 0), self.config.resources.index(r)))
        out_res = short[0]
        pay = self._payer(p, surplus, out_res)
        if self.fast:              # playouts: as many as can run together, with or without the base
            chosen: list = []
            for prod in others:
                if pay(chosen + [prod]) is not None:
                    chosen.append(prod)
            sets = [chosen, []] if chosen else [[]]
        else:
            sets = [list(combo) for size in range(len(others) + 1) for combo in combinations(others, size)]
        for combo in sets:
            for with_base in (False, True):
                if not combo and not with_base:
                    continue
                prods = combo + ([avail[base_id]] if with_base else [])
                reqs = pay(prods)
                if reqs is None:
                    continue
                gained: dict[str, int] = {}
                spent: dict[str, int] = {}
                changes: dict[int, dict[str, int]] = {}
                for prod, req in zip(prods, reqs):
                    for r, n in prod.output.items():
                        gained[r] = gained.get(r, 0) + n
                    for r, n in req.output_rep.items():
                        gained[r] = gained.get(r, 0) + n
                    for cid, m in req.input_containers.items():
                        into = changes.setdefault(cid, {})
                        for r, n in m.items():
                            spent[r] = spent.get(r, 0) + n
                            into[r] = into.get(r, 0) - n
                made = {r: n for r, n in gained.items() if r != "Faith"}     # (into the strongbox)
                if made:
                    into = changes.setdefault(p.strongbox.id, {})
                    for r, n in made.items():
                        into[r] = into.get(r, 0) + n

                def words(g2, p2, gained=gained, spent=spent):
                    aim = self._aim_words(g2, p2)
                    said = dict(spent=res_words(spent), gained=res_words(gained), card=aim)
                    return (_("Run productions: {spent} become {gained}, toward {card}.") if aim else
                            _("Run productions: {spent} become {gained}.")).format(**said)
                yield Candidate((), ReqActivateProductions(tuple(reqs)), words,
                                effect=Effect(changes, gained.get("Faith", 0)))

    def _payer(self, p: PlayerState, surplus: dict[str, int], out_res: str):
        """A function paying for a list of productions run together (their requests, or None:
        ``p`` cannot pay for them all), one after the other: the first from the shelves, then
        the depots, then the strongbox, each free input from the resource most to spare. What
        is left after paying for each list is kept, so a list extending one paid before (the
        same productions, then more) is paid from there, not from the start again."""
        order = [*p.shelves, *p.depots, p.strongbox]
        ids = [c.id for c in order]
        states: dict[tuple[int, ...], tuple | None] = {
            (): ({c.id: dict(c.content) for c in order if c.content}, dict(surplus), [])}

        def pay(prods) -> list[ProductionRequest] | None:
            key = tuple(prod.id for prod in prods)
            k = len(key)
            while key[:k] not in states:
                k -= 1
            state = states[key[:k]]
            while state is not None and k < len(key):
                state = self._pay_one(state, prods[k], ids, out_res)
                k += 1
                states[key[:k]] = state
            return None if state is None else state[2]
        return pay

    def _pay_one(self, state: tuple, prod, ids: list[int], out_res: str) -> tuple | None:
        """The state of :meth:`_payer` (what is left in each container, the resources to spare,
        the requests so far) once ``prod`` is paid for too (None: it cannot be). Each input is
        taken from the containers in ``ids``' order; a container's counts are copied before
        they first change (the state paid from is kept as it was)."""
        resources = self.config.resources
        avail = state[0].copy()
        spare = state[1].copy()
        mine: set[int] = set()          # containers whose counts this state has copied
        plan: dict[int, dict[str, int]] = {}

        def take(r: str, n: int) -> int:
            """Take ``n`` of ``r``; what could not be taken."""
            for cid in ids:
                m = avail.get(cid)
                if m is None:
                    continue
                have = m.get(r, 0)
                if have > 0:
                    k = have if have < n else n
                    if cid not in mine:
                        m = avail[cid] = m.copy()
                        mine.add(cid)
                    m[r] = have - k
                    into = plan.get(cid)
                    if into is None:
                        into = plan[cid] = {}
                    into[r] = into.get(r, 0) + k
                    n -= k
                    if n <= 0:
                        return 0
            return n

        for r, n in prod.input.items():
            if take(r, n):
                return None
            spare[r] = spare.get(r, 0) - n
        for _k in range(prod.input_choice):
            # the resource most to spare among those held (then the most held, then the first)
            best = None
            for r in resources:
                left = 0
                for m in avail.values():
                    left += m.get(r, 0)
                if left > 0:
                    key = (spare.get(r, 0), left)
                    if best is None or key > best[0]:
                        best = (key, r)
            if best is None:
                return None
            r = best[1]
            take(r, 1)
            spare[r] = spare.get(r, 0) - 1
        outs = {out_res: prod.output_choice} if prod.output_choice else {}
        return avail, spare, [*state[2], ProductionRequest(prod.id, plan, {}, outs)]


def _unsaid(g: Game, p: PlayerState) -> str:
    """The words of a candidate of a quiet, fast policy (a playout's), which nobody reads."""
    return ""


def _stored(plan) -> dict[str, int]:
    """How much of each resource a placement stores."""
    out: dict[str, int] = {}
    for m in plan.values():
        for r, n in m.items():
            if n:
                out[r] = out.get(r, 0) + n
    return out


def _arrangement(p: PlayerState) -> tuple:
    """The shelves' contents in a form that orders arrangements (for breaking ties)."""
    return tuple(tuple(sorted(s.content.items())) for s in p.shelves)


class MediumBot:
    level = "medium"

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.policy = Policy(config)

    def decide(self, view: dict, nickname: str, rng: random.Random) -> Decision:
        g, p = board(view, self.config, nickname)
        return self.policy.decide(g, p)
