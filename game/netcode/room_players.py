"""Who of a room's players is connected: arrivals, drops and the grace a seat waits, departures,
and the seats the computer plays.

A player's seat stays theirs whatever their connection does. A connection gone without a goodbye
(:meth:`RoomPlayers.drop`) leaves the seat and its turn waiting until the grace is over
(:meth:`RoomPlayers.grace_over`); a quit (:meth:`RoomPlayers.leave`) makes the player inactive at
once; :meth:`RoomPlayers.rejoin` seats them again and sends them the whole game. After a restart
everyone is away until they come back (:meth:`RoomPlayers.mark_all_away`,
:meth:`RoomPlayers.mark_absent_away`). A player of a turn-based table may close the game and keep
their seat active (:meth:`RoomPlayers.go_offline`); a bot that cannot go on leaves the table
(:meth:`RoomPlayers.retire_bot`). Each change of a player's status is written to the game's log
and told to the table, followed by ``UpdateSetupDone`` once setup is over, as the reference does.

A part of :class:`~.room.Room` (a mixin: its state is the room's), under the room's rules: its
lock, no socket, and nothing called back but ``send``.
"""
from __future__ import annotations

import time
from typing import Any

import orjson

from game.rules.engine import Game

from .framing import LINE_OPTIONS
from .protocol import UPDATE_SETUP_DONE
from .server_messages import update_player_away


class RoomPlayers:
    """The players' side of :class:`~.room.Room` (which provides the state below, ``send``,
    ``view``, ``_record``, ``_tell_due`` and ``_broadcast``)."""

    game: Game
    lock: Any
    nicknames: tuple[str, ...]
    humans: tuple[str, ...]
    bots: dict[str, str]
    stand_ins: dict[str, str]
    turn_time: int | None
    online: set[str]
    away: dict[str, float]
    plain: set[str]
    empty_since: float | None
    closed: bool
    unsaved: bool
    _unsaved_status: dict[str, bool]
    watch: Any

    def start(self, nicknames: list[str]) -> None:
        """Seat the first connections: each gets its own ``UpdateGame``."""
        with self.lock:
            for nick in nicknames:
                self.online.add(nick)
                self.send(nick, [self.view(nick)])
            self.empty_since = None if self.online else time.monotonic()

    def leave(self, nickname: str) -> None:
        """A player's connection is gone (dropped or quit): the player becomes inactive.

        The others get ``UpdatePlayerStatus`` and whatever the engine does about it (the turn of a
        player who leaves mid-turn ends at once). Nothing is recorded once the room is closed.
        """
        with self.lock:
            if nickname not in self.online:
                return
            self.online.discard(nickname)
            self.away.pop(nickname, None)
            if not self.online:
                self.empty_since = time.monotonic()
            if self.closed:
                return
            self._set_active(nickname, False)

    def drop(self, nickname: str, until: float) -> None:
        """A player's connection is gone without a goodbye: their seat (and their turn) waits for
        them until ``until`` (a ``time.monotonic()`` value: the grace), then :meth:`grace_over`
        marks them away. Our clients at the table are told who is away and for how long
        (``UpdatePlayerAway``); a game over needs no grace (as :meth:`leave`)."""
        with self.lock:
            if nickname not in self.online:
                return
            self.online.discard(nickname)
            if not self.online:
                self.empty_since = time.monotonic()
            if self.game.ended or self.closed:
                if not self.closed:
                    self._set_active(nickname, False)
                return
            self.away[nickname] = until
            said = [update_player_away(nickname, until - time.monotonic())]
            for nick in self.nicknames:
                if nick in self.online and nick not in self.plain:
                    self.send(nick, said)
            if self.watch is not None:
                self.watch(orjson.dumps(said[0], option=LINE_OPTIONS))

    def grace_over(self, nickname: str, until: float) -> bool:
        """The grace given at :meth:`drop` (``until``) is over and the player is not back: away now,
        as after a drop (the others are told; the turn passes). False if nothing changed."""
        with self.lock:
            if self.away.get(nickname) != until or nickname in self.online:
                return False
            del self.away[nickname]
            if self.closed or self.game.ended:
                return False
            self._set_active(nickname, False)
            return True

    def rejoin(self, nickname: str, intro: list[dict[str, Any]] | None = None) -> bool:
        """A player is back: mark them active, tell the others, send them the whole game.

        The returning player gets ``intro`` (if any), then ``UpdateSetupDone`` when setup is over,
        then their ``UpdateGame``. Returns False (and does nothing) if the room is closed.
        """
        with self.lock:
            if self.closed:
                return False
            self.online.add(nickname)
            self.empty_since = None
            waited = self.away.pop(nickname, None) is not None   # back within a grace: nothing skipped
            self._set_active(nickname, True, skip=nickname)
            if waited:   # our clients heard that the seat waited: they hear it is taken again
                back = [{"player": nickname, "isActive": True, "type": "UpdatePlayerStatus"}]
                for nick in self.nicknames:
                    if nick in self.online and nick != nickname and nick not in self.plain:
                        self.send(nick, back)
                if self.watch is not None:
                    self.watch(orjson.dumps(back[0], option=LINE_OPTIONS))
            out = list(intro or ())
            # as the reference: the player's own status, UpdateSetupDone (setup over), the game
            out.append({"player": nickname, "isActive": True, "type": "UpdatePlayerStatus"})
            if self.game.phase != "setup":
                out.append({"type": UPDATE_SETUP_DONE})
            out.append(self.view(nickname))
            if nickname not in self.plain:   # who of the others is not connected, and how long their seat waits
                now = time.monotonic()
                out.extend(update_player_away(n, until - now) for n, until in self.away.items())
            self.send(nickname, out)
            return True

    def mark_absent_away(self) -> None:
        """After a restart, once the players had time to come back: those who did not are away
        (the others are told; the turn of one of them passes on)."""
        with self.lock:
            self.away.clear()
            if self.game.ended or self.closed:
                return
            for nick in self._current_last(self.humans):
                if nick not in self.online:
                    self._set_active(nick, False)

    def retire_bot(self, nickname: str) -> None:
        """A bot that cannot go on leaves the table: inactive like a player who quit (recorded,
        told to everyone), so the engine skips its turns from then on."""
        with self.lock:
            if self.closed or nickname not in self.movers() or self.game.ended:
                return
            self.stand_ins.pop(nickname, None)
            self._set_active(nickname, False)

    def mark_all_away(self) -> None:
        """After a restart nobody is connected yet: everyone is inactive until they rejoin (but
        the bots, which never leave)."""
        with self.lock:
            if self.game.ended:
                return
            for nick in self._current_last(self.humans):
                self._set_active(nick, False)

    @property
    def humans_online(self) -> bool:
        """Whether a person is at the table (bots play only then)."""
        return any(n in self.online for n in self.humans)

    @property
    def bots_may_play(self) -> bool:
        """Whether the computer plays now: while a person is at the table, or always at a
        turn-based table (whose people come and go)."""
        return self.turn_time is not None or self.humans_online

    def movers(self) -> dict[str, str]:
        """The seats the computer plays now, ``{nickname: level}``: the bots', and those it plays
        this turn for a player whose time ran out (a turn-based table)."""
        return {**self.bots, **self.stand_ins} if self.stand_ins else self.bots

    def go_offline(self, nickname: str) -> None:
        """A player of a turn-based table closes the game: the seat stays theirs and active (their
        turn waits for them, until their time runs out), nobody is told."""
        with self.lock:
            self.online.discard(nickname)
            self.away.pop(nickname, None)
            if not self.online:
                self.empty_since = time.monotonic()

    # ------------------------------------------------------------------ internals
    def _current_last(self, nicknames: tuple[str, ...]) -> list[str]:
        """``nicknames`` with the current player's last: marking the others away first, the turn
        goes from its player straight to someone who is there (not handed between empty seats)."""
        current = self.game.current_player.nickname if self.game.phase == "play" else None
        return sorted(nicknames, key=lambda n: n == current)

    def _set_active(self, nickname: str, active: bool, skip: str | None = None) -> None:
        self._unsaved_status.pop(nickname, None)
        game = self.game
        playing = game.phase == "play"
        events = game.set_active(nickname, active)
        if not events:
            return
        self.unsaved = False
        if not self._record("active", nickname, active):
            if self.unsaved:
                self._unsaved_status[nickname] = active   # said again once the disk has room
                self._tell_due()
            return
        if playing and not game.ended:
            # the reference follows every status change with UpdateSetupDone, then the turn
            at = next((i + 1 for i, e in enumerate(events) if e.get("type") == "UpdatePlayerStatus"), 0)
            events = events[:at] + [{"type": UPDATE_SETUP_DONE}] + events[at:]
        plain = self.plain
        # once a game is over the reference tells nobody who comes and goes (its client, drawing
        # the scores, failed on an UpdatePlayerStatus then)
        self._broadcast(events, skip=skip, only=(lambda n: n not in plain) if game.ended and plain else None)
