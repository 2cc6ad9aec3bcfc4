"""The mutable parts of a game: resource containers and players.

The engine owns these objects and changes them only after a request has been fully validated,
so a refused request never leaves a trace. Everything here is plain data; the rules live in
``engine.py`` and the subsystem modules.
"""
from __future__ import annotations

from typing import Any

SETUP, PLAY, ENDED = "setup", "play", "ended"
"""The phases of a game (``Game.phase``)."""

SHELF = "shelf"
STRONGBOX = "strongbox"
DEPOT = "depot"

_new = object.__new__

# favor tile states
FAVOR_DOWN, FAVOR_UP, FAVOR_REMOVED = 0, 1, 2


class Container:
    """A warehouse shelf, a strongbox or a leader depot.

    ``content`` holds only positive counts. ``capacity`` is -1 for the strongbox. ``bound`` is the
    printed type of a leader depot (shelves take their type from what they hold). ``stamp`` says
    which game may change it in place (see ``Game._stamp``): a bot's copy of a game shares the
    containers with it until one of the two changes one.
    """

    __slots__ = ("id", "kind", "capacity", "bound", "content", "owner", "stamp")

    def __init__(self, cid: int, kind: str, capacity: int, bound: str | None = None,
                 owner: int | None = None) -> None:
        self.id = cid
        self.kind = kind
        self.capacity = capacity
        self.bound = bound
        self.content: dict[str, int] = {}
        self.owner = owner  # seat of the owning player; None for a depot whose leader is not active
        self.stamp: object = None

    def total(self) -> int:
        return sum(self.content.values())

    def res_type(self) -> str | None:
        """The type a shelf holds now (None when empty), or a depot's printed type."""
        if self.bound is not None:
            return self.bound
        for r in self.content:
            return r
        return None

    def to_wire(self) -> dict[str, Any]:
        content = self.content
        out: dict[str, Any] = {"id": self.id, "content": content.copy()}
        if self.kind != STRONGBOX:   # the reference binds no strongbox
            t = self.bound
            if t is None:
                for t in content:
                    break
            if t is not None:
                out["boundedResType"] = t
        out["size"] = self.capacity
        return out

    def __repr__(self) -> str:
        return f"Container({self.id}, {self.kind}, {self.content})"


class PlayerState:
    """One seat at the table."""

    __slots__ = ("nickname", "seat", "active", "shelves", "strongbox", "depots", "slots", "faith",
                 "hand", "active_leaders", "chose_leaders", "chose_resources", "bonus", "favors",
                 "vp", "stamp")

    def __init__(self, nickname: str, seat: int, shelves: list[Container], strongbox: Container,
                 n_slots: int, n_sections: int, bonus: int, faith: int) -> None:
        self.nickname = nickname
        self.seat = seat
        self.active = True
        self.shelves = shelves
        self.strongbox = strongbox
        self.depots: list[Container] = []          # depots of active extra-depot leaders
        self.slots: list[list[int]] = [[] for _ in range(n_slots)]  # card ids, bottom first
        self.faith = faith
        self.hand: list[int] = []                  # leaders held: in hand or active (not discarded)
        self.active_leaders: list[int] = []
        self.chose_leaders = False
        self.chose_resources = bonus == 0
        self.bonus = bonus
        self.favors = [FAVOR_DOWN] * n_sections
        self.vp = 0
        self.stamp: object = None   # which game may change it in place (see ``Game._own_seat``)

    def copy(self, stamp: object) -> PlayerState:
        """A copy with its own lists (storage, slots, leaders and hand: the engine changes these
        in place) sharing what the engine replaces (the containers, the cards of a slot, the
        favor tiles), for the game whose stamp is ``stamp``."""
        q = _new(PlayerState)
        q.nickname = self.nickname
        q.seat = self.seat
        q.active = self.active
        q.faith = self.faith
        q.chose_leaders = self.chose_leaders
        q.chose_resources = self.chose_resources
        q.bonus = self.bonus
        q.vp = self.vp
        q.shelves = self.shelves.copy()
        q.strongbox = self.strongbox
        q.depots = self.depots.copy()
        q.slots = self.slots.copy()
        q.hand = self.hand.copy()
        q.active_leaders = self.active_leaders.copy()
        q.favors = self.favors
        q.stamp = stamp
        return q

    def containers(self) -> list[Container]:
        """Every container the player may pay from: shelves, active leader depots, strongbox."""
        return [*self.shelves, *self.depots, self.strongbox]

    def depot_like(self) -> list[Container]:
        """Containers the player may place into and rearrange: shelves and active leader depots."""
        return [*self.shelves, *self.depots]

    def resource_totals(self) -> dict[str, int]:
        """Every resource the player holds, by type (shelves, leader depots, strongbox)."""
        out: dict[str, int] = {}
        get = out.get
        for c in self.shelves:
            for r, n in c.content.items():
                out[r] = get(r, 0) + n
        for c in self.depots:
            for r, n in c.content.items():
                out[r] = get(r, 0) + n
        for r, n in self.strongbox.content.items():
            out[r] = get(r, 0) + n
        return out

    def resource_count(self) -> int:
        return sum(c.total() for c in self.containers())

    def card_count(self) -> int:
        return sum(len(s) for s in self.slots)

    def top_cards(self) -> list[int]:
        out = []
        for s in self.slots:
            if s:
                out.append(s[-1])
        return out
