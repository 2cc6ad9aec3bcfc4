"""The history of a game as one player saw it, for a player who comes back.

A client that rejoins (or a solo game that is resumed) gets the game as it is now; the story of
how it got there is not in that ``UpdateGame``. :func:`recent_history` replays the game from its
seed and keeps, for the whole game (or its last ``calls`` accepted calls), the messages the
player received then: the ``UpdateGame`` before them, then every update visible to that player,
but for the requests that were taken back (:func:`taken_back`: neither they nor their undos). The client feeds them to a scratch view model and tells them in words (the same
narration as live), so its log reads as if it had never left, from the first move. A whole
4-player game is a few hundred kilobytes of updates, sent once per rejoin in lines of at most
half the line limit (``bench``-free figures: ``tests/netcode/test_server_returning.py``).

It also tells which of the player's turns were skipped during their latest absence (a player who
is away is passed over): the round of each.

On the wire it is our extension ``UpdateHistory`` (sent only to clients that joined with a token,
after their ``UpdateGame`` on a rejoin), split by :func:`history_lines` into lines that each stay
well under the framing's line limit: ``{"type": "UpdateHistory", "messages": [...], "last": bool}``
and, in the last one, ``"skipped": [round, ...]``.
"""
from __future__ import annotations

from typing import Any

import orjson

from game.rules.actions import Action
from game.rules.engine import Game
from game.rules.views import player_view

from .framing import MAX_LINE
from .server_messages import visible_to

Msg = dict[str, Any]
UPDATE_HISTORY = "UpdateHistory"
HISTORY_CALLS: int | None = None
"""Accepted calls (requests, departures and returns, undos) told to a player who comes back:
all of them (None), so the log of a player who comes back starts with the game."""


def recent_history(game: Game, nickname: str | None, calls: int | None = HISTORY_CALLS,
                   chat: "list[tuple[str, str, int]] | tuple" = ()) -> tuple[list[Msg], list[int]]:
    """The messages ``nickname`` received during the last ``calls`` calls of ``game`` (None: the
    whole game; an ``UpdateGame`` first; ``nickname`` None: what nobody's seat sees, a watcher's), and the rounds of their turns skipped while they were
    last away. ``chat``: lines said at the table as (player, text, calls in the game's history
    when said); each goes in as an ``UpdateChat`` where it was said among the moves, so that a
    returning player reads the table's talk in the order everyone else did.

    :raises GameError: the game's history does not replay (it always does for a real game).
    """
    history = list(game.history)
    cut = 0 if calls is None else max(0, len(history) - calls)
    undone = taken_back(history)
    g = Game(game.config, game.nicknames, game.seed)
    seat = g.player(nickname).seat if nickname is not None else -1   # None: nobody's seat (a watcher)
    n = len(g.players)
    out: list[Msg] = []
    rounds, skipped = 0, []
    # Rounds and skips follow the turn as the players met it: it moves only when it reaches
    # someone who can play. A turn the engine hands to a seat whose player is away while nobody
    # can play (everyone gone, as when a restart's grace ended with nobody back) is no move: the
    # turn stays where it was (``at``) until someone can play again, and then goes on from there.
    at: int | None = None   # the seat the turn really is at (None: the game has not begun; a
                            # walk from there starts at the first seat, with no round passed)
    unfinished = False      # the player's own turn left them (a departure) before they played it
    lost = True             # an action was accepted since the last turn of theirs that was skipped

    def skip() -> None:     # a turn of the player's went by while they were away
        nonlocal lost
        if lost:            # (a turn passed on twice with nothing played between is one turn lost)
            skipped.append(rounds)
        lost = False

    def walk(to: int) -> None:
        """The turn goes from ``at`` to ``to`` (all the way round when they are the same seat):
        a round begins each time it passes the first seat; a seat passed over was away."""
        nonlocal rounds, unfinished
        if at == seat and unfinished and not g.players[seat].active:
            skip()          # their turn went on to the others while they were away
        unfinished = False
        s = -1 if at is None else at
        while True:
            s = (s + 1) % n
            if s == 0 and at is not None:
                rounds += 1
            if s == to:
                break
            if s == seat:
                skip()

    said = sorted(chat, key=lambda c: c[2])       # (stable: lines said at one moment keep their order)
    told = 0                                      # the chat lines already placed

    def tell(upto: int) -> None:                  # the lines said before call ``upto``
        nonlocal told
        while told < len(said) and said[told][2] <= upto:
            who, text, _at = said[told]
            out.append({"player": who, "text": text, "type": "UpdateChat"})
            told += 1

    for i, (kind, nick, arg) in enumerate(history):
        if i == cut:
            out.append(player_view(g, nickname))
        if i >= cut:
            tell(i)
        if i in undone:       # a request taken back, or its undo: the game is as if neither was made
            continue
        before, playing, main_done = g.current, g.phase == "play", g.main_done
        if kind == "apply":
            events = g.apply(nick, arg if isinstance(arg, Action) else Action.from_dict(arg))
            lost = True
        elif kind == "undo":
            events = g.undo(nick)
        else:
            events = g.set_active(nick, bool(arg))
            if nick == nickname and not arg:
                skipped, lost = [], True           # a new absence starts
        if not playing and g.phase == "play":
            rounds = 1
        if g.phase == "play" and n > 1:
            moved = any(e.get("type") == "UpdateCurrentPlayer" for e in events)
            if moved and before == seat == at and kind != "apply" and not main_done:
                unfinished = True                  # their turn was taken from them half-done or unplayed
            if g.players[g.current].active:       # someone can play: the turn is theirs
                if g.current != at or (moved and before == at):
                    walk(g.current)                # (round to the same seat only when passed on from it)
                elif moved:
                    unfinished = False             # back where it was: that turn resumes
                at = g.current
        if i >= cut:
            out.extend(e for e in events if visible_to(e, nickname))
    if cut >= len(history):
        out.append(player_view(g, nickname))
    tell(1 << 62)                                 # what was said since the last move
    back = next((bool(arg) for kind, nick, arg in reversed(history) if kind == "active" and nick == nickname), False)
    return out, (skipped if back else [])


def taken_back(history: list[tuple[str, str, Any]]) -> frozenset[int]:
    """The places in ``history`` of the requests later taken back and of the undos that took them
    back. Leaving both out gives the same game (an undo restores the state exactly as it was
    before its request, and never reaches past a player leaving or coming back), so a returning
    player is not told a turn's swaps and undos one by one: each undo sends the whole table again,
    and a turn spent swapping and undoing made a rejoin megabytes long (issue 28, finding 4).
    """
    standing: list[int] = []     # the requests an undo would take back, the latest last
    out: set[int] = set()
    for i, (kind, _nick, _arg) in enumerate(history):
        if kind == "apply":
            standing.append(i)
        elif kind == "undo":
            if not standing:     # (never, for a real game: then tell everything as it happened)
                return frozenset()
            out.update((standing.pop(), i))
    return frozenset(out)


def history_lines(messages: list[Msg], skipped: list[int], limit: int = MAX_LINE // 2) -> list[Msg]:
    """``UpdateHistory`` messages carrying ``messages`` in order, each under ``limit`` bytes as JSON
    (a single message larger than that travels alone)."""
    envelope = len(orjson.dumps({"type": UPDATE_HISTORY, "messages": [], "last": False, "skipped": skipped}))
    out: list[Msg] = []
    chunk: list[Msg] = []
    size = envelope
    for m in messages:
        n = len(orjson.dumps(m)) + 1
        if chunk and size + n > limit:
            out.append({"type": UPDATE_HISTORY, "messages": chunk, "last": False})
            chunk, size = [], envelope
        chunk.append(m)
        size += n
    out.append({"type": UPDATE_HISTORY, "messages": chunk, "last": True, "skipped": list(skipped)})
    return out
