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

from game.rules.components import DevCard, GameConfig, LeaderCard, Production
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
    """Scores positions of games played with ``config`` (see the module docstring)."""

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.prod_value = {pid: production_value(prod) for pid, prod in config.productions.items()}
        self.card_prod = [self.prod_value[c.production.id] for c in config.dev_cards]
        self.squares = list(config.vp_squares)

    # ------------------------------------------------------------------ pieces
    def track_points(self, faith: int) -> int:
        pts = 0
        for space, vp in self.squares:
            if faith >= space:
                pts = vp
        return pts

    def next_levels(self, g: Game, p: PlayerState) -> dict[int, int]:
        """Level -> how many slots accept a card of that level now."""
        cards = self.config.dev_cards
        out: dict[int, int] = {}
        top = self.config.levels[-1]
        for s in p.slots:
            lv = 1 if not s else cards[s[-1]].level + 1
            if lv <= top:
                out[lv] = out.get(lv, 0) + 1
        return out

    def card_worth(self, g: Game, card: DevCard) -> float:
        bonus = CARD_BONUS_SOLO if g.solo else CARD_BONUS_MULTI
        return card.victory_points + bonus + self.card_prod[card.id]

    def targets(self, g: Game, p: PlayerState, have: Mapping[str, int]) -> list[tuple[float, DevCard, dict[str, int], int]]:
        """Cards this player could aim at: (discounted worth, card, cost, missing), best first."""
        out = []
        levels = self.next_levels(g, p)
        for color in self.config.colors:
            decks = g.decks[color]
            left = sum(len(d) for d in decks.values())
            for lv in levels:
                deck = decks.get(lv)
                if not deck:
                    continue
                if g.solo and left <= 1:
                    continue
                card = self.config.dev_cards[deck[-1]]
                cost = g.card_cost(p, card)
                miss = 0
                for r, n in cost.items():
                    h = have.get(r, 0)
                    if h < n:
                        miss += n - h
                worth = self.card_worth(g, card)
                if g.solo and left <= 4:
                    worth -= (5 - left) * 0.8   # taking from a colour about to vanish helps Lorenzo
                out.append((worth * GAMMA ** miss, card, cost, miss))
        out.sort(key=lambda t: (-t[0], t[1].id))
        return out

    def target_term(self, g: Game, p: PlayerState, have: Mapping[str, int]) -> float:
        ts = self.targets(g, p, have)
        if not ts:
            return 0.0
        best, card, cost, _ = ts[0]
        left = dict(have)
        for r, n in cost.items():
            left[r] = max(0, left.get(r, 0) - n)
        levels = self.next_levels(g, p)
        second = 0.0
        for _, c2, cost2, _ in ts[1:]:
            if c2.level == card.level and levels.get(card.level, 0) < 2:
                continue
            miss = sum(max(0, n - left.get(r, 0)) for r, n in cost2.items())
            second = max(second, self.card_worth(g, c2) * GAMMA ** miss)
        return best + 0.45 * second

    def leader_missing(self, g: Game, p: PlayerState, leader: LeaderCard) -> int:
        cards, res = g.missing_requirements(p, leader)
        return sum(3 * c["quantity"] for c in cards) + sum(res.values())

    def horizon(self, g: Game, p: PlayerState) -> float:
        """Roughly how much of the game is left, 1 at the start, near 0 at the end."""
        cfg = self.config
        left = 1.0 - p.card_count() / cfg.end_game_cards
        if g.solo:
            left = min(left, 1.0 - g.black_cross / cfg.last_space)
            low = min(sum(len(d) for d in g.decks[c].values()) for c in cfg.colors)
            left = min(left, low / 8)
        else:
            most = max(q.card_count() for q in g.players)
            faith = max(q.faith for q in g.players)
            left = min(left, 1.0 - most / cfg.end_game_cards, 1.0 - faith / cfg.last_space)
            if g.last_round:
                left = 0.0
        return max(0.0, left)

    def faith_term(self, g: Game, p: PlayerState) -> float:
        cfg = self.config
        top = max([q.faith for q in g.players] + [g.black_cross])
        v = 0.12 * p.faith
        # between squares: part of the next square's gain
        nxt = next(((s, vp) for s, vp in self.squares if s > p.faith), None)
        if nxt is not None:
            here = self.track_points(p.faith)
            prev = max([s for s, _ in self.squares if s <= p.faith], default=0)
            span = nxt[0] - prev
            v += (nxt[1] - here) * 0.5 * (p.faith - prev) / span
        for i, sec in enumerate(cfg.vatican_sections):
            if g.fired[i]:
                continue
            if p.faith >= sec.first_space:
                v += sec.favor_vp
                continue
            need = sec.first_space - p.faith
            slack = sec.pope_space - top
            chance = max(0.0, min(1.0, (slack - need + 4) / 8))
            v += sec.favor_vp * chance * 0.8
        return v

    def turns_to_finish(self, g: Game, p: PlayerState, have: Mapping[str, int]) -> float:
        """Solo: about how many turns this player needs for the cards that end the game."""
        cfg = self.config
        need = cfg.end_game_cards - p.card_count()
        cards = cfg.dev_cards
        room = sum(cfg.levels[-1] - (cards[s[-1]].level if s else 0) for s in p.slots)
        if room < need:
            return 99.0
        return need * TURNS_PER_CARD

    def lorenzo_turns(self, g: Game) -> float:
        """Solo: about how many turns Lorenzo needs to win."""
        cfg = self.config
        t = (cfg.last_space - g.black_cross) / LORENZO_PACE
        for c in cfg.colors:
            left = sum(len(d) for d in g.decks[c].values())
            t = min(t, left * 3.5 + 1)
        return t

    def win_chance(self, g: Game, p: PlayerState, have: Mapping[str, int]) -> float:
        margin = self.lorenzo_turns(g) - self.turns_to_finish(g, p, have)
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
        have = p.resource_totals()
        v = float(p.vp)
        v -= sum(have.values()) // cfg.resources_per_vp       # counted smoothly below instead
        v += RESOURCE_VALUE * sum(have.values())
        v += self.target_term(g, p, have)
        v += (CARD_BONUS_SOLO if g.solo else CARD_BONUS_MULTI) * p.card_count()
        cards = cfg.dev_cards
        for s in p.slots:
            if s:
                v += self.card_prod[s[-1]]
        horizon = self.horizon(g, p)
        for lid in p.active_leaders:
            v += ABILITY[cfg.leaders[lid].kind] * (0.3 + 0.7 * horizon)
        for lid in p.hand:
            if lid in p.active_leaders:
                continue
            leader = cfg.leaders[lid]
            miss = self.leader_missing(g, p, leader)
            reach = LEADER_GAMMA ** miss * min(1.0, 0.2 + 1.2 * horizon)
            v += (leader.victory_points + ABILITY[leader.kind] * horizon) * reach
        v += self.faith_term(g, p)
        if g.solo:
            v -= BLACK_CROSS * g.black_cross
            v += RACE * self.win_chance(g, p, have)
        else:
            v -= OPPONENT_FAITH * sum(q.faith for q in g.players if q is not p)
        del cards
        return v
