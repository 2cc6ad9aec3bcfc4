"""Development cards: their cost after discounts, the slots that accept them, a purchase (the next
card of its deck shown), and the grid as the wire shows it.
"""
from __future__ import annotations

from typing import Any

from . import errors as E
from .actions import ReqBuyDevCard
from .components import DevCard
from .scoring import Termination
from .state import PlayerState
from .undo import CARD_REVEALED


class DevelopmentCards:
    """The dev cards part of :class:`~game.rules.engine.Game` (a mixin: the engine's state is the game's)."""

    def card_cost(self, p: PlayerState, card: DevCard) -> dict[str, int]:
        """The cost of ``card`` for ``p`` after active discount leaders (never below 0)."""
        if not p.active_leaders:
            return dict(self.lookups.card_cost[card.id])
        cost = dict(card.cost)
        for ld in self.active_leaders_of(p, "discount"):
            if ld.resource in cost:
                cost[ld.resource] = max(0, cost[ld.resource] - ld.discount)
        return {r: n for r, n in cost.items() if n}

    def slot_accepts(self, p: PlayerState, slot: int, level: int) -> bool:
        """Level 1 goes into an empty slot; level N on top of a level N-1 card."""
        s = p.slots[slot]
        if not s:
            return level == self.config.levels[0]
        return self.config.dev_cards[s[-1]].level == level - 1

    def top_card(self, color: str, level: int) -> DevCard | None:
        deck = self.decks[color][level]
        return self.config.dev_cards[deck[-1]] if deck else None

    def _buy_dev_card(self, p: PlayerState, a: ReqBuyDevCard) -> str:
        self._check_main(p)
        cfg = self.config
        color = a.color[:1].upper() + a.color[1:].lower() if a.color not in self.decks else a.color
        if color not in self.decks:
            raise E.ErrNoSuchEntity("COLOR", code=a.color)
        if a.level not in self.decks[color]:
            raise E.ErrNoSuchEntity("DEVCARD", a.level)
        card = self.top_card(color, a.level)
        if card is None:
            raise E.ErrBuyDevCard(True)
        if not 0 <= a.dev_slot < cfg.dev_slots:
            raise E.ErrObjectNotOwned(a.dev_slot, "DevSlot")
        if not self.slot_accepts(p, a.dev_slot, card.level):
            raise E.ErrBuyDevCard(False)
        cost = self.card_cost(p, card)
        totals = p.resource_totals()
        short = {r: n - totals.get(r, 0) for r, n in cost.items() if totals.get(r, 0) < n}
        if short:
            raise E.ErrCardRequirements(None, short)
        new = self._pay(p, a.res_containers, cost)
        # committed from here on
        self.main_done = True
        self._commit(new)
        decks = self.decks[color].copy()    # (the grid is replaced, never changed in place)
        decks[card.level] = decks[card.level][:-1]
        self.decks = {**self.decks, color: decks}
        p.slots[a.dev_slot] = [*p.slots[a.dev_slot], card.id]
        self._dirty[p.seat] = None
        self._made_final(CARD_REVEALED)
        if not self.search:
            self._events.append({"player": p.nickname, "devSlot": a.dev_slot,
                                 "devCards": list(p.slots[a.dev_slot]), "type": "UpdateDevSlot"})
            self._events.append({"devCardGrid": self.grid_wire(), "type": "UpdateDevCardGrid"})
        if self.solo and self._color_gone(color):
            self._end(Termination.LORENZO_COLOR)
        elif p.card_count() >= cfg.end_game_cards:
            if self.solo:
                self._end(Termination.SOLO_CARDS)
            else:
                self._trigger_last_round()
        return a.ACTION

    def grid_wire(self) -> dict[str, Any]:
        cfg = self.config
        levels = cfg.levels
        top = {}
        left = {}
        decks = self.decks
        for c in cfg.colors:
            ds = decks[c]
            t = [None]
            n = [0]
            for lv in levels:
                deck = ds[lv]
                if deck:
                    t.append(deck[-1])
                    n.append(len(deck))
                else:
                    t.append(None)
                    n.append(0)
            top[c] = t
            left[c] = n
        # cardsLeft is our extension (the reference sends only top cards); clients ignore unknown keys
        return {"levelsCount": len(cfg.levels), "colorsCount": len(cfg.colors), "topCards": top,
                "cardsLeft": left}

    def _color_gone(self, color: str) -> bool:
        return not any(self.decks[color].values())
