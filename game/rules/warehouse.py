"""Depot rules: what may be added to, taken from or swapped between a player's containers.

Functions here only *check*; they return the new contents and never change a container, so the
engine can validate a whole request before committing any of it.

- A warehouse shelf holds one type, up to its capacity; no two shelves hold the same type.
- A leader depot holds only its printed type, up to its capacity, and is exempt from the
  distinct-type rule.
- The strongbox takes anything, but only production puts things there.
"""
from __future__ import annotations

from typing import Iterable, Mapping

from .errors import (BOUNDED_RESTYPE_DIFFER, CAPACITY_REACHED, DUPLICATE_BOUNDED_RESOURCE,
                     NEGATIVE_VALUES, NON_STORABLE, ErrInvalidResourceTransaction, ErrNoSuchEntity,
                     ErrResourceTransfer)
from .state import SHELF, STRONGBOX, Container

NON_STORABLE_NAMES = ("Faith", "Zero")


def res_name(name: str, resources: tuple[str, ...], *, allow_faith: bool = False) -> str:
    """Normalise a resource name from a request (first letter capitalised, as the reference does).

    :raises ErrNoSuchEntity: RESOURCE, when no such resource exists.
    :raises ErrResourceTransfer: NON_STORABLE, for Faith or a white marble where storage is meant.
    """
    if name in resources:
        return name
    fixed = name[:1].upper() + name[1:]
    if fixed in resources:
        return fixed
    if fixed in NON_STORABLE_NAMES:
        if allow_faith and fixed == "Faith":
            return fixed
        raise ErrResourceTransfer(fixed, True, NON_STORABLE)
    raise ErrNoSuchEntity("RESOURCE", code=name)


def clean_res_map(m: Mapping[str, int], resources: tuple[str, ...], *, is_input: bool,
                  is_replacement: bool) -> dict[str, int]:
    """A resource map from a request with names normalised and zero entries dropped.

    :raises ErrInvalidResourceTransaction: NEGATIVE_VALUES, ILLEGAL_NON_STORABLE.
    :raises ErrNoSuchEntity: RESOURCE.
    """
    out: dict[str, int] = {}
    for name, n in m.items():
        if n < 0:
            raise ErrInvalidResourceTransaction(is_input, is_replacement, NEGATIVE_VALUES)
        if name in resources:   # as the names usually come
            r = name
        else:
            try:
                r = res_name(name, resources)
            except ErrResourceTransfer:
                if n == 0:
                    continue
                raise ErrInvalidResourceTransaction(is_input, is_replacement, "ILLEGAL_NON_STORABLE") from None
        if n:
            out[r] = out.get(r, 0) + n
    return out


def new_contents_after_add(additions: Mapping[Container, Mapping[str, int]],
                           shelves: Iterable[Container]) -> dict[Container, dict[str, int]]:
    """Check adding resources to shelves/depots; return each touched container's new content.

    :raises ErrResourceTransfer: BOUNDED_RESTYPE_DIFFER, CAPACITY_REACHED, DUPLICATE_BOUNDED_RESOURCE.
    """
    result: dict[Container, dict[str, int]] = {}
    new_type = False   # whether a shelf that was empty takes something
    for c, add in additions.items():
        if not add:
            continue
        if not c.content and c.kind == SHELF:
            new_type = True
        content = dict(c.content)
        for r, n in add.items():
            content[r] = content.get(r, 0) + n
        if c.kind != STRONGBOX:
            if c.bound is not None:
                for r in add:
                    if r != c.bound:
                        raise ErrResourceTransfer(r, True, BOUNDED_RESTYPE_DIFFER)
            elif len(content) > 1 and len([r for r, n in content.items() if n]) > 1:
                held = c.res_type()
                bad = next(r for r in add if r != held) if held else sorted(add)[1]
                raise ErrResourceTransfer(bad, True, BOUNDED_RESTYPE_DIFFER)
            if sum(content.values()) > c.capacity:
                raise ErrResourceTransfer(next(iter(add)), True, CAPACITY_REACHED)
        result[c] = content
    if new_type:   # (otherwise every shelf keeps the type it held, or stays empty)
        check_distinct_shelves(shelves, result)
    return result


def check_distinct_shelves(shelves: Iterable[Container], new: Mapping[Container, Mapping[str, int]]) -> None:
    """No two warehouse shelves may hold the same type.

    :raises ErrResourceTransfer: DUPLICATE_BOUNDED_RESOURCE.
    """
    seen: set[str] = set()
    for s in shelves:
        if s.kind != SHELF:
            continue
        content = new.get(s, s.content)
        for r, n in content.items():
            if n:
                if r in seen:
                    raise ErrResourceTransfer(r, True, DUPLICATE_BOUNDED_RESOURCE)
                seen.add(r)


def new_contents_after_take(takes: Mapping[Container, Mapping[str, int]]) -> dict[Container, dict[str, int]]:
    """Check taking resources out of containers; return each touched container's new content.

    :raises ErrResourceTransfer: CAPACITY_REACHED (isAdded false) when a container holds too few.
    """
    result: dict[Container, dict[str, int]] = {}
    for c, take in takes.items():
        if not take:
            continue
        content = dict(c.content)
        for r, n in take.items():
            left = content.get(r, 0) - n
            if left < 0:
                raise ErrResourceTransfer(r, False, CAPACITY_REACHED)
            if left:
                content[r] = left
            else:
                content.pop(r, None)
        result[c] = content
    return result


def fits(c: Container, content: Mapping[str, int]) -> str | None:
    """Why ``content`` can't sit in depot-like container ``c`` (an ErrResourceTransfer reason), or None."""
    types = [r for r, n in content.items() if n]
    if c.bound is not None:
        if any(r != c.bound for r in types):
            return BOUNDED_RESTYPE_DIFFER
    elif len(types) > 1:
        return BOUNDED_RESTYPE_DIFFER
    if sum(content.values()) > c.capacity:
        return CAPACITY_REACHED
    return None
