"""A game's history kept bounded (issue 28, finding 12): what was taken back is dropped.

Every undo used to add two calls for good, the request it took back and itself, to the game's
history in memory and to its log on disk; a turn spent swapping and undoing, or a long chat, grew
both without bound. A request taken back and its undo change nothing once together (an undo
restores the state exactly as it was: :func:`.history.taken_back`), so once the lines a game no
longer needs (those two, and chat lines past the :data:`~.room.CHAT_KEPT` a room keeps) are as
many as those it needs (and at least :data:`COMPACT_MIN`), the game is **compacted**: both are
dropped from ``Game.history``, the room's chat is placed again among the calls that stay, and the
log is written anew (its header, the calls that stay with the last chat lines among them, its
last ``turns`` line: :meth:`.store.GameLog.rewrite`). Each compaction costs about what the game
weighs, and comes only after as many lines again: a line costs a bounded amount, however long the
churn. A restart replays the compacted log into the same game.

Beyond that, a game keeps at most ``max_game_moves`` calls (a real game takes a few hundred):
past it a person's request other than ending the turn is refused in words (``limits.game_length`` of :mod:`.server_words`),
the computer's are not, so the game can still end.
"""
from __future__ import annotations

import logging
from itertools import accumulate
from typing import Any

from game.rules.codec import history_entry

from .history import taken_back

log = logging.getLogger("mor.room")

COMPACT_MIN = 64
"""Lines a game no longer needs before it is compacted (and at least as many as its history).
Until then they are kept in memory, some 450 bytes a line: at 500, 32 games churning from 4
addresses held 4.4 MB, and the allocator's arenas they were scattered over stayed resident once
they were dropped (issue 28's churn: 10 MB above idle 30 s later). A compaction costs about what
the game weighs, after as many lines again: at 64, a small game is rewritten every 32 swap/undo
pairs (about 1 ms, its log read and written anew: some 15 µs a line taken back)."""


def due(room: Any) -> bool:
    """Whether ``room``'s game has enough dead lines to be compacted."""
    return room.dead >= max(COMPACT_MIN, len(room.game.history) // 2)   # (the history holds the dead calls)


def compact(room: Any) -> bool:
    """Drop the requests taken back and their undos from ``room``'s game and log (under the
    room's lock; see the module's docstring). False if nothing was done (the log could not be
    written: the game stays as it was, and is tried again after as many lines)."""
    game = room.game
    history = game.history
    drop = taken_back(history)
    kept = [h for i, h in enumerate(history) if i not in drop]
    # a chat line said after n calls is said after as many of those that stay
    before = [0, *accumulate(0 if i in drop else 1 for i in range(len(history)))]
    chat = [(who, text, before[min(at, len(history))]) for who, text, at in room.chat]
    if room.log is not None:
        body: list[Any] = []
        lines = sorted(chat, key=lambda c: c[2])
        k = 0
        for i, call in enumerate(kept):
            while k < len(lines) and lines[k][2] <= i:
                body.append(["chat", lines[k][0], lines[k][1]])
                k += 1
            body.append(history_entry(*call))
        body.extend(["chat", who, text] for who, text, _at in lines[k:])
        try:
            room.log.rewrite(body)
        except OSError as e:
            log.warning("game %d: cannot compact its log: %s", room.id, e)
            room.dead = 0
            return False
    history[:] = kept
    room.chat.clear()
    room.chat.extend(chat)
    room.dead = 0
    room.compactions += 1
    log.info("game %d compacted: %d calls taken back dropped, %d kept", room.id, len(drop), len(kept))
    return True
