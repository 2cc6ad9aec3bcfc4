"""What the engine reads of a config on every request, as flat tables by id."""
from __future__ import annotations

from bisect import bisect_right

from .components import GameConfig, derived


class Lookups:
    """What the engine reads of a config on every request, as flat tables by id (one per config,
    shared by every game of it: see :func:`lookups`)."""

    __slots__ = ("config", "card_vp", "card_level", "card_cost", "leader_vp", "favor_vp", "track_vp", "per_vp",
                 "first_pope", "pope_spaces", "market_rows", "leader_most_cards")

    def __init__(self, cfg: GameConfig) -> None:
        self.config = cfg
        self.card_vp = tuple(c.victory_points for c in cfg.dev_cards)      # ids are 0..n-1
        self.card_level = tuple(c.level for c in cfg.dev_cards)
        # each card's printed cost as (resource, n) pairs, zeros left out
        self.card_cost = tuple(tuple((r, n) for r, n in c.cost.items() if n) for c in cfg.dev_cards)
        self.leader_vp = tuple(ld.victory_points for ld in cfg.leaders)
        self.favor_vp = tuple(sec.favor_vp for sec in cfg.vatican_sections)
        squares = [s for s, _ in cfg.vp_squares]
        self.track_vp = tuple(cfg.vp_squares[i - 1][1] if i else 0
                              for i in (bisect_right(squares, f) for f in range(cfg.last_space + 1)))
        self.per_vp = cfg.resources_per_vp
        # the most cards one of a leader's card requirements asks for (0: none)
        self.leader_most_cards = tuple(max((r.count for r in ld.requires_cards), default=0) for ld in cfg.leaders)
        cols = cfg.market_columns
        self.market_rows = tuple(slice(i * cols, (i + 1) * cols) for i in range(cfg.market_rows))
        self.pope_spaces = tuple(sec.pope_space for sec in cfg.vatican_sections)
        self.first_pope = min(self.pope_spaces, default=cfg.last_space + 1)

    def __copy__(self) -> "Lookups":
        return self          # immutable: a copied game (copy.deepcopy) keeps the same tables

    def __deepcopy__(self, memo: dict) -> "Lookups":
        return self


def lookups(cfg: GameConfig) -> Lookups:
    """The :class:`Lookups` of ``cfg`` (made once per config)."""
    return derived(cfg, Lookups)
