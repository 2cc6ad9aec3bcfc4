"""The worth of a market take, productions or a leader's discard, worked out without making them on a copy.

The medium policy weighs every main action it could make (the hard bot's playouts do so at every
turn of every player), and market takes and productions are most of what it tries. Copying the
game and making the request costs about as much as judging the position reached; yet the
evaluation reads only a little of what they change: the player's storage, points, faith and
hand, and for a take the others' faith (the resources left over) or Lorenzo's cross. (After
the main action, the policy weighs discarding each leader in hand the same way.)
:func:`effect_value` works those out and hands the evaluation a stand-in for the game and the
player after the request, sharing everything else with the game.

The requests valued so are the medium policy's own, legal by construction (a placement
:func:`~game.rules.choices.suggest_placement` made for that warehouse, productions paid from what
the player holds): the policy says their :class:`Effect`. One whose faith reaches a Vatican
report or the end of the track (favor tiles, the last round, the end of the game) is left to
the engine (None): the caller makes it on a copy as before. ``tests/bots/test_quick_value.py``
compares the value, the storage, faith and points with the engine's on every take and every
set of productions the policy weighs in many positions.
"""
from __future__ import annotations

from typing import NamedTuple

from game.rules.engine import PLAY, Game
from game.rules.state import Container, PlayerState

from .evaluate import Evaluator

_new = object.__new__


class Effect(NamedTuple):
    """What a market take or productions change: each container's counts by container id (plus
    what comes in, minus what is paid), the player's faith and the resources left over (a step
    of faith for each other player, or for Lorenzo)."""

    changes: dict[int, dict[str, int]]
    faith: int
    left_over: int = 0
    discard: int | None = None
    """A leader discarded from the hand (its faith point in ``faith``), at any time of the turn."""


class After:
    """The game after the request, as :meth:`Evaluator.value` reads it (the grid, the reports
    made and the phase are the game's own: neither request changes them)."""

    __slots__ = ("phase", "solo", "decks", "players", "black_cross", "fired", "last_round", "winners")


def effect_value(ev: Evaluator, g: Game, p: PlayerState, effect: Effect) -> tuple[float, PlayerState] | None:
    """``ev``'s value of the position ``p`` reaches by making on ``g`` now the request whose
    effect is ``effect`` (their main action, or a discard), and ``p`` after it (a stand-in: read
    it, never play on it); None when the engine must say (a faith marker reaches a Vatican
    report or the end of the track, or it is not ``p``'s turn, or main action, now)."""
    changes, faith, discarded, leader = effect
    if g.phase != PLAY or g.current != p.seat or g.main_done and leader is None:
        return None
    lookups = g.lookups
    seat = p.seat
    players = g.players
    cross = g.black_cross
    fired = g.fired
    faiths = None                # every player's faith after, when a marker moves
    if faith or discarded:       # a faith step: the reports the markers reach, the track's end
        last = g.config.last_space
        faiths = [q.faith for q in players]
        if faith:
            f = faiths[seat] + faith
            faiths[seat] = f if f < last else last
        if discarded:
            if g.solo:
                cross = cross + discarded if cross + discarded < last else last
            else:
                for i, f in enumerate(faiths):
                    if i != seat:
                        f += discarded
                        faiths[i] = f if f < last else last
        top = max(cross, *faiths)
        if top >= last:
            return None
        for i, space in enumerate(lookups.pope_spaces):
            if top >= space and not fired[i]:
                return None
    # the player: the containers the request changes get their new contents (Storage._commit)
    q = _new(PlayerState)
    q.nickname, q.seat, q.slots, q.hand, q.active_leaders, q.favors = (
        p.nickname, seat, p.slots, p.hand, p.active_leaders, p.favors)
    if leader is not None:
        q.hand = [lid for lid in p.hand if lid != leader]
    q.faith = faiths[seat] if faiths is not None else p.faith
    tv = lookups.track_vp
    end = len(tv) - 1
    changed = any(changes.values())
    if changed:
        get = changes.get
        q.shelves = [_changed(c, get(c.id)) for c in p.shelves]
        q.depots = [_changed(c, get(c.id)) for c in p.depots] if p.depots else p.depots
        q.strongbox = _changed(p.strongbox, get(p.strongbox.id))
    else:
        q.shelves, q.depots, q.strongbox = p.shelves, p.depots, p.strongbox
    if changed or leader is not None:     # (Scoring._flush_vp: counted again)
        cards, track, favors, leaders, count = g._score_parts(q)
        q.vp = cards + track + favors + leaders + count // lookups.per_vp
    else:   # (its marker alone moved: the track's difference)
        q.vp = p.vp + tv[min(q.faith, end)] - tv[min(p.faith, end)] if q.faith != p.faith else p.vp
    if faiths is not None and discarded and not g.solo:
        after = [q if o is p else _moved(o, faiths[o.seat], tv, end) for o in players]
    else:                        # (the others as they were)
        after = players.copy()
        after[seat] = q
    a = _new(After)
    a.phase, a.solo, a.decks, a.fired, a.last_round, a.winners = (
        g.phase, g.solo, g.decks, fired, g.last_round, g.winners)
    a.players = after
    a.black_cross = cross
    return ev.value(a, q), q   # type: ignore[arg-type]


def _changed(c: Container, delta: dict[str, int] | None) -> Container:
    """``c`` with ``delta`` added to its counts (``c`` itself when nothing changes)."""
    if not delta:
        return c
    content = dict(c.content)
    for r, n in delta.items():
        content[r] = content.get(r, 0) + n
    n = _new(Container)
    n.id, n.kind, n.capacity, n.bound, n.owner, n.stamp = c.id, c.kind, c.capacity, c.bound, c.owner, None
    n.content = content if 0 not in content.values() else {r: k for r, k in content.items() if k}
    return n


def _moved(o: PlayerState, faith: int, tv: tuple[int, ...], end: int) -> PlayerState:
    """Another player, with their marker at ``faith`` (the resources left over)."""
    if faith == o.faith:
        return o
    q = o.copy(None)
    q.faith = faith
    q.vp = o.vp + tv[min(faith, end)] - tv[min(o.faith, end)]
    return q
