"""A player's storage: the containers they may use, placements and payments read from a request,
new contents committed (a container shared with a bot's copy is copied first), and the shelves
rearranged (``ReqSwapShelves``, ``ReqMoveResources``).
"""
from __future__ import annotations

from typing import Any, Mapping

from . import errors as E
from .actions import ReqMoveResources, ReqSwapShelves
from .state import DEPOT, STRONGBOX, Container, PlayerState
from .warehouse import check_distinct_shelves, clean_res_map, fits, new_contents_after_take, res_name


_new = object.__new__


def _raise(err: Exception) -> Any:
    raise err


class Storage:
    """The storage part of :class:`~game.rules.engine.Game` (a mixin: the engine's state is the game's)."""

    def _res(self, name: str) -> str:
        return res_name(name, self.config.resources)

    def _own_container(self, p: PlayerState, cid: int, *, depot_like: bool) -> Container:
        """The container ``cid`` if ``p`` may use it here.

        :raises ErrObjectNotOwned: unknown, someone else's, an inactive leader's, or (when
            ``depot_like``) the strongbox.
        """
        if 0 <= cid < len(self.containers):
            c = self.containers[cid]
            if c.owner == p.seat and not (depot_like and c.kind == STRONGBOX):
                return c
        return _raise(E.ErrObjectNotOwned(cid, "Shelf" if depot_like else "ResourceContainer"))

    def _placement(self, p: PlayerState, shelves: Mapping[int, Mapping[str, int]]) -> dict[Container, dict[str, int]]:
        """Resolve a ``{container id: {res: n}}`` placement request into containers and clean maps."""
        out: dict[Container, dict[str, int]] = {}
        for cid, m in shelves.items():
            c = self._own_container(p, cid, depot_like=True)
            clean = clean_res_map(m, self.config.resources, is_input=False, is_replacement=False)
            if clean:
                out[c] = clean
        return out

    def _payment(self, p: PlayerState, containers: Mapping[int, Mapping[str, int]]) -> dict[Container, dict[str, int]]:
        out: dict[Container, dict[str, int]] = {}
        for cid, m in containers.items():
            c = self._own_container(p, cid, depot_like=False)
            clean = clean_res_map(m, self.config.resources, is_input=True, is_replacement=False)
            if clean:
                prev = out.setdefault(c, {})
                for r, n in clean.items():
                    prev[r] = prev.get(r, 0) + n
        return out

    def _pay(self, p: PlayerState, containers: Mapping[int, Mapping[str, int]],
             cost: Mapping[str, int]) -> dict[Container, dict[str, int]]:
        """Check that ``containers`` pays exactly ``cost``; return the containers' new contents."""
        payment = self._payment(p, containers)
        paid: dict[str, int] = {}
        for m in payment.values():
            for r, n in m.items():
                paid[r] = paid.get(r, 0) + n
        if paid != cost:   # (neither holds a zero)
            for r in sorted(set(paid) | set(cost)):
                if paid.get(r, 0) != cost.get(r, 0):
                    raise E.ErrReplacedTransRecipe(True, r, cost.get(r, 0), paid.get(r, 0))
        return new_contents_after_take(payment)

    def _own(self, c: Container) -> Container:
        """``c`` if this game may change it in place, else this game's own copy of it, put where
        ``c`` was: in :attr:`containers`, its player's storage or :attr:`leader_depot`."""
        stamp = self._stamp
        if c.stamp is stamp:
            return c
        n = _new(Container)
        n.id, n.kind, n.capacity, n.bound, n.content, n.owner, n.stamp = (
            c.id, c.kind, c.capacity, c.bound, c.content, c.owner, stamp)
        self.containers[c.id] = n
        if c.kind == DEPOT:
            depots = self.leader_depot
            for lid, d in depots.items():
                if d is c:
                    depots[lid] = n
                    break
        if c.owner is not None:
            q = self._own_seat(c.owner)
            if q.strongbox is c:
                q.strongbox = n
            else:
                for into in (q.shelves, q.depots):
                    for i, d in enumerate(into):
                        if d is c:
                            into[i] = n
        return n

    def _own_seat(self, seat: int) -> PlayerState:
        """The player at ``seat``, ready to be changed: on a bot's copy of a game (a search copy,
        :func:`game.bots.common.clone`) that shares it with another game, first a copy of it put
        in its place (:attr:`players` and :attr:`by_nick`). A game that is no search copy shares
        its players with no other and changes them in place."""
        q = self.players[seat]
        if q.stamp is self._stamp or not self.search:
            return q
        q = q.copy(self._stamp)
        self.players[seat] = q
        self.by_nick[q.nickname] = q
        return q

    def _commit(self, new: Mapping[Container, dict[str, int]]) -> None:
        """Give containers their new contents: dicts made for this (the container keeps them)."""
        ev = None if self.search else self._events
        dirty = self._dirty
        stamp = self._stamp
        for c, content in new.items():
            if c.stamp is not stamp:
                c = self._own(c)
            c.content = content if 0 not in content.values() else {r: n for r, n in content.items() if n}
            if ev is not None:
                ev.append({"resContainer": c.to_wire(), "type": "UpdateResourceContainer"})
            if c.owner is not None:
                dirty[c.owner] = None

    def _swap_shelves(self, p: PlayerState, a: ReqSwapShelves) -> str:
        self._check_turn(p)
        c1 = self._own_container(p, a.shelf1, depot_like=True)
        c2 = self._own_container(p, a.shelf2, depot_like=True)
        if c1 is c2:
            raise E.ErrObjectNotOwned(a.shelf2, "Shelf")
        self._rearrange(p, {c1: dict(c2.content), c2: dict(c1.content)})
        return a.ACTION

    def _move_resources(self, p: PlayerState, a: ReqMoveResources) -> str:
        self._check_turn(p)
        src = self._own_container(p, a.source, depot_like=True)
        dst = self._own_container(p, a.target, depot_like=True)
        if src is dst:
            raise E.ErrObjectNotOwned(a.target, "Shelf")
        if a.count <= 0:
            raise E.ErrInvalidResourceTransaction(False, False, E.NEGATIVE_VALUES)
        r = self._res(a.res_type)
        taken = new_contents_after_take({src: {r: a.count}})[src]
        moved = dict(dst.content)
        moved[r] = moved.get(r, 0) + a.count
        self._rearrange(p, {src: taken, dst: moved})
        return a.ACTION

    def _rearrange(self, p: PlayerState, new: dict[Container, dict[str, int]]) -> None:
        """Check and commit new contents for depot-like containers of ``p``."""
        for c, content in new.items():
            why = fits(c, content)
            if why is not None:
                res = next((r for r in content if r != c.bound), None) if why == E.BOUNDED_RESTYPE_DIFFER else None
                raise E.ErrResourceTransfer(res or next(iter(content)), True, why)
        check_distinct_shelves(p.shelves, new)
        self._commit(new)
