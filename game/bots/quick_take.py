"""The worth of taking a market line, worked out without making the take on a copy of the game.

The medium policy weighs every market line it could take (the hard bot's playouts do so at every
turn of every player), and a take is most of what it tries. Copying the game and making the take
costs about as much as judging the position reached; yet the evaluation reads only a little of
what a take changes: the taker's storage, points and faith, the others' faith (the resources
left over) or Lorenzo's cross. :func:`take_value` works those out and hands the evaluation a
stand-in for the game and the player after the take, sharing everything else with the game.

The engine stays the judge of what is allowed: the request is read by the engine's own checks
(the line, the white marbles, the placement), and a take the engine would refuse, or one that
reaches a Vatican report or the end of the faith track (favor tiles, the last round, the end of
the game), is left to the engine (None): the caller makes it on a copy as before.
``tests/bots/test_quick_take.py`` compares the value with the one after the engine's take on
every market request of many positions.
"""
from __future__ import annotations

from game.rules.actions import ReqTakeFromMarket
from game.rules.engine import PLAY, Game
from game.rules.errors import GameError
from game.rules.state import Container, PlayerState
from game.rules.warehouse import new_contents_after_add

from .evaluate import Evaluator

_new = object.__new__


class After:
    """The game after a take, as :meth:`Evaluator.value` reads it (the grid, the reports made and
    the phase are the game's own: a take changes none of them)."""

    __slots__ = ("phase", "solo", "decks", "players", "by_nick", "black_cross", "fired", "last_round",
                 "winners")


def take_value(ev: Evaluator, g: Game, p: PlayerState, take: ReqTakeFromMarket) -> tuple[float, PlayerState] | None:
    """``ev``'s value of the position ``p`` reaches by making ``take`` on ``g`` now, and ``p``
    after it (a stand-in: read it, never play on it); None when the engine must say (the take is
    refused, or moves a faith marker onto a Vatican report or the end of the track)."""
    if g.phase != PLAY or g.main_done or g.current != p.seat:
        return None
    try:
        intake, faith = g.market_intake(p, take.is_row, take.index, take.replacements)
        placement = g._placement(p, take.shelves)
        total_placed = 0
        placed: dict[str, int] = {}
        for m in placement.values():
            for r, n in m.items():
                placed[r] = placed.get(r, 0) + n
                total_placed += n
        total_in = sum(intake.values())
        if total_placed > total_in or any(n > intake.get(r, 0) for r, n in placed.items()):
            return None                      # (refused: the engine says how)
        new = new_contents_after_add(placement, p.shelves)
    except GameError:
        return None
    lookups = g.lookups
    last = g.config.last_space
    seat = p.seat
    discarded = total_in - total_placed
    players = g.players
    faiths = [q.faith for q in players]
    if faith:
        f = faiths[seat] + faith
        faiths[seat] = f if f < last else last
    cross = g.black_cross
    if discarded:
        if g.solo:
            cross = cross + discarded if cross + discarded < last else last
        else:
            for i, f in enumerate(faiths):
                if i != seat:
                    f += discarded
                    faiths[i] = f if f < last else last
    fired = g.fired
    if faith or discarded:       # a faith step: the reports the markers reach, the track's end
        top = max(cross, *faiths)
        if top >= last:
            return None
        for i, space in enumerate(lookups.pope_spaces):
            if top >= space and not fired[i]:
                return None
    # the taker: the containers the take fills get their new contents (as Storage._commit)
    q = p.copy(None)
    if new:
        by_id = {c.id: content for c, content in new.items()}
        for into in (q.shelves, q.depots):
            for i, c in enumerate(into):
                content = by_id.get(c.id)
                if content is not None:
                    into[i] = _filled(c, content)
    tv = lookups.track_vp
    end = len(tv) - 1
    q.faith = faiths[seat]
    if new:                                  # (as Scoring._flush_vp: counted again)
        cards, track, favors, leaders, count = g._score_parts(q)
        q.vp = cards + track + favors + leaders + count // lookups.per_vp
    elif q.faith != p.faith:                 # (its marker alone moved: the track's difference)
        q.vp = p.vp + tv[min(q.faith, end)] - tv[min(p.faith, end)]
    after = [q if o is p else _moved(o, faiths[o.seat], tv, end) for o in players]
    a = _new(After)
    a.phase, a.solo, a.decks, a.fired, a.last_round, a.winners = (
        g.phase, g.solo, g.decks, fired, g.last_round, g.winners)
    a.players = after
    a.by_nick = {o.nickname: o for o in after}
    a.black_cross = cross
    return ev.value(a, q), q   # type: ignore[arg-type]


def _filled(c: Container, content: dict[str, int]) -> Container:
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
