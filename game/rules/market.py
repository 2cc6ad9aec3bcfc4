"""The market: a line of marbles taken (whites converted by leaders), placed or discarded (a
faith step for the others, or for Lorenzo), and the spare marble slid in.
"""
from __future__ import annotations

from typing import Any, Mapping

from . import errors as E
from .actions import ReqTakeFromMarket
from .faith import LORENZO
from .state import ENDED, PlayerState
from .warehouse import clean_res_map, new_contents_after_add


class Market:
    """The market part of :class:`~game.rules.engine.Game` (a mixin: the engine's state is the game's)."""

    def line(self, is_row: bool, index: int) -> list[str]:
        """The marbles of a market row (left to right) or column (top to bottom), 0-based."""
        cols = self.config.market_columns
        if is_row:
            return self.market[index * cols:(index + 1) * cols]
        return self.market[index::cols]

    def market_intake(self, p: PlayerState, is_row: bool, index: int,
                      replacements: Mapping[str, int]) -> tuple[dict[str, int], int]:
        """What taking a line gives ``p``: ({resource: n} with whites converted, faith).

        :raises ErrNoSuchEntity: MARKET_INDEX.
        :raises ErrInvalidResourceTransaction, ErrReplacedTransRecipe: bad white replacements.
        """
        cfg = self.config
        if not 0 <= index < (cfg.market_rows if is_row else cfg.market_columns):
            raise E.ErrNoSuchEntity("MARKET_INDEX", index)
        intake: dict[str, int] = {}
        faith = whites = 0
        cols = cfg.market_columns
        market = self.market
        for m in market[index * cols:(index + 1) * cols] if is_row else market[index::cols]:   # self.line
            if m == "Faith":
                faith += 1
            elif m == "Zero":
                whites += 1
            else:
                intake[m] = intake.get(m, 0) + 1
        if not replacements and not p.active_leaders:   # (the usual case: nothing below applies)
            return intake, faith
        reps = (clean_res_map(replacements, cfg.resources, is_input=False, is_replacement=True)
                if replacements else {})
        options = [ld.resource for ld in self.active_leaders_of(p, "white_marble")] if p.active_leaders else []
        if reps and any(r not in options for r in reps):
            raise E.ErrInvalidResourceTransaction(False, True, E.EXCLUDED)
        chosen = sum(reps.values())
        if len(options) == 1 and not reps:
            reps = {options[0]: whites} if whites else {}
        elif options and chosen != whites:
            raise E.ErrReplacedTransRecipe(False, "", whites, chosen)
        for r, n in reps.items():
            intake[r] = intake.get(r, 0) + n
        return intake, faith

    def _take_from_market(self, p: PlayerState, a: ReqTakeFromMarket) -> str:
        self._check_main(p)
        intake, faith = self.market_intake(p, a.is_row, a.index, a.replacements)
        placement = self._placement(p, a.shelves)
        placed: dict[str, int] = {}
        for m in placement.values():
            for r, n in m.items():
                placed[r] = placed.get(r, 0) + n
        total_in, total_placed = sum(intake.values()), sum(placed.values())
        if total_placed > total_in:
            raise E.ErrReplacedTransRecipe(False, "", total_in, total_placed)
        for r, n in placed.items():
            if n > intake.get(r, 0):
                raise E.ErrReplacedTransRecipe(False, r, intake.get(r, 0), n)
        new = new_contents_after_add(placement, p.shelves)
        discarded = total_in - total_placed
        # committed from here on
        self.main_done = True
        self._commit(new)
        self._push_market(a.is_row, a.index)
        if faith:
            self._faith_step({p.seat: faith})
        if discarded and self.phase != ENDED:
            if self.solo:
                self._faith_step({LORENZO: discarded})
            else:
                others = {}
                for q in self.players:
                    if q is not p:
                        others[q.seat] = discarded
                self._faith_step(others)
        return a.ACTION

    def _push_market(self, is_row: bool, index: int) -> None:
        """Slide the spare marble into a line; the market becomes a new list (never changed in
        place, so an undo mark and a bot's copy may keep the old one)."""
        cols = self.config.market_columns
        m = self.market.copy()
        if is_row:
            start = index * cols
            out = m[start]
            m[start:start + cols] = m[start + 1:start + cols] + [self.slide]
        else:
            out = m[index]
            last = len(m) - cols + index
            m[index:last:cols] = m[index + cols::cols]
            m[last] = self.slide
        self.market = m
        self.slide = out
        if not self.search:
            self._events.append({"market": self.market_wire(), "type": "UpdateMarket"})

    def market_wire(self) -> dict[str, Any]:
        market = self.market
        grid = []
        for row in self.lookups.market_rows:
            grid.append(market[row])
        return {"grid": grid, "replaceableResType": "Zero", "slide": self.slide}
