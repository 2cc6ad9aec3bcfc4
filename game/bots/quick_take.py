"""The worth of taking a market line, worked out without making the take on a copy of the game.

The medium policy weighs every market line it could take (the hard bot's playouts do so at every
turn of every player), and a take is most of what it tries. Copying the game and making the take
costs about as much as judging the position reached; yet the evaluation reads only a little of
what a take changes: the taker's storage, points and faith, the others' faith (the resources
left over) or Lorenzo's cross. :func:`take_value` works those out and hands the evaluation a
stand-in for the game and the player after the take, sharing everything else with the game.

The takes valued so are the medium policy's own, legal by construction: the line's resources
read as the engine reads them (white marbles turned by the player's leaders) and a placement
:func:`~game.rules.choices.suggest_placement` made for that warehouse. A take that reaches a
Vatican report or the end of the faith track (favor tiles, the last round, the end of the game)
is left to the engine (None): the caller makes it on a copy as before.
``tests/bots/test_quick_take.py`` compares the value, the storage, faith and points with the
engine's take on every market request the policy weighs in many positions.
"""
from __future__ import annotations

from game.rules.actions import ReqTakeFromMarket
from game.rules.engine import PLAY, Game
from game.rules.state import Container, PlayerState

from .evaluate import Evaluator

_new = object.__new__


class After:
    """The game after a take, as :meth:`Evaluator.value` reads it (the grid, the reports made and
    the phase are the game's own: a take changes none of them)."""

    __slots__ = ("phase", "solo", "decks", "players", "black_cross", "fired", "last_round", "winners")


def take_value(ev: Evaluator, g: Game, p: PlayerState, take: ReqTakeFromMarket,
               brings: tuple[int, int]) -> tuple[float, PlayerState] | None:
    """``ev``'s value of the position ``p`` reaches by making ``take`` on ``g`` now, and ``p``
    after it (a stand-in: read it, never play on it); None when the engine must say (the take
    moves a faith marker onto a Vatican report or the end of the track, or it is not ``p``'s
    main action now). ``take`` is one the medium policy built (its placement
    :func:`~game.rules.choices.suggest_placement`'s, for the warehouse of ``p``) and ``brings``
    what the line brings: (its faith marbles, how many of its resources are left over)."""
    if g.phase != PLAY or g.main_done or g.current != p.seat:
        return None
    faith, discarded = brings
    lookups = g.lookups
    last = g.config.last_space
    seat = p.seat
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
    q = _new(PlayerState)
    q.nickname, q.seat, q.slots, q.hand, q.active_leaders, q.favors, q.strongbox = (
        p.nickname, seat, p.slots, p.hand, p.active_leaders, p.favors, p.strongbox)
    q.faith = faiths[seat]
    plan = take.shelves
    if any(plan.values()):
        q.shelves = [_filled(c, plan.get(c.id)) for c in p.shelves]
        q.depots = [_filled(c, plan.get(c.id)) for c in p.depots] if p.depots else p.depots
        cards, track, favors, leaders, count = g._score_parts(q)       # (as Scoring._flush_vp)
        q.vp = cards + track + favors + leaders + count // lookups.per_vp
    else:
        q.shelves, q.depots = p.shelves, p.depots
        tv = lookups.track_vp
        end = len(tv) - 1    # (its marker alone moved: the track's difference)
        q.vp = p.vp + tv[min(q.faith, end)] - tv[min(p.faith, end)] if q.faith != p.faith else p.vp
    after = [q if o is p else _moved(o, faiths[o.seat], lookups.track_vp) for o in players]
    a = _new(After)
    a.phase, a.solo, a.decks, a.fired, a.last_round, a.winners = (
        g.phase, g.solo, g.decks, fired, g.last_round, g.winners)
    a.players = after
    a.black_cross = cross
    return ev.value(a, q), q   # type: ignore[arg-type]


def _filled(c: Container, add: dict[str, int] | None) -> Container:
    """``c`` with ``add`` stored in it (``c`` itself when nothing is)."""
    if not add:
        return c
    content = dict(c.content)
    for r, n in add.items():
        content[r] = content.get(r, 0) + n
    n = _new(Container)
    n.id, n.kind, n.capacity, n.bound, n.owner, n.stamp = c.id, c.kind, c.capacity, c.bound, c.owner, None
    n.content = content if 0 not in content.values() else {r: k for r, k in content.items() if k}
    return n


def _moved(o: PlayerState, faith: int, tv: tuple[int, ...]) -> PlayerState:
    """Another player, with their marker at ``faith`` (the resources left over)."""
    if faith == o.faith:
        return o
    q = o.copy(None)
    q.faith = faith
    end = len(tv) - 1
    q.vp = o.vp + tv[min(faith, end)] - tv[min(o.faith, end)]
    return q
