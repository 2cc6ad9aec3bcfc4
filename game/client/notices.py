"""What a game session tells its front ends once, when it happens: a refusal in words, the
player's turn beginning, the connection lost and back, a reconnection refused, the waiting room's
refusal, a replay arrived or refused.

A front end subscribes to the kinds of notice it shows (:meth:`Notices.subscribe`) and hears
each one once, while the session takes the message that caused it (in
:meth:`~game.client.session.GameSession.pump`). Nobody resets a flag to mark a thing as heard.

A listener that is a bound method is held weakly: a scene that is gone stops listening by
itself. A scene that leaves while it is still referenced closes its :class:`Subscription`.

>>> notices = Notices()
>>> heard = []
>>> sub = notices.subscribe(Said, lambda n: heard.append(n.words))
>>> notices.publish(Said("That shelf is full.")); notices.publish(TurnStarted())
>>> sub.close(); notices.publish(Said("Not heard."))
>>> heard
['That shelf is full.']
"""
from __future__ import annotations

import logging
import weakref
from dataclasses import dataclass
from typing import Any, Callable, Generic, TypeVar

from .security import IdentityWarning

log = logging.getLogger("mor.notices")


@dataclass(frozen=True)
class Notice:
    """Something a session tells its front ends once."""


@dataclass(frozen=True)
class Said(Notice):
    """A sentence for the board's message box: a refused request (the server's, the engine's or
    the client's own), an update this version could not read, or what an export did."""
    words: str


@dataclass(frozen=True)
class TurnStarted(Notice):
    """It has just become this player's turn (a sound, a line, the window's title)."""


@dataclass(frozen=True)
class ConnectionLost(Notice):
    """The connection to the server dropped during a game: the match is trying to get it back."""


@dataclass(frozen=True)
class Reconnected(Notice):
    """The connection came back; the board is up to date again."""


@dataclass(frozen=True)
class ReconnectFailed(Notice):
    """The game could not be got back: why, in words, and the identity warning when the server
    is not the one the game was played on."""
    words: str
    warning: IdentityWarning | None = None


@dataclass(frozen=True)
class ServerStopping(Notice):
    """The server stops on purpose (its host stopped hosting), not a crash: ``reason`` as it said."""
    reason: str


@dataclass(frozen=True)
class PlayerAway(Notice):
    """A player is not connected; their seat waits ``seconds`` for them."""
    player: str
    seconds: float


@dataclass(frozen=True)
class LobbyRefused(Notice):
    """The waiting room refused something (a nickname, a table, the number of players), in words."""
    words: str


@dataclass(frozen=True)
class ReplayArrived(Notice):
    """The server sent the finished game's replay asked for (its record)."""
    record: Any


@dataclass(frozen=True)
class ReplayRefused(Notice):
    """The server has no replay to give, and why, in words."""
    words: str


N = TypeVar("N", bound=Notice)


class Subscription(Generic[N]):
    """One listener of one kind of notice; :meth:`close` stops it (closing twice is harmless)."""

    def __init__(self, notices: "Notices", kind: type[N], listener: Callable[[N], Any]) -> None:
        self.kind = kind
        self._notices = weakref.ref(notices)
        if hasattr(listener, "__self__") and hasattr(listener, "__func__"):
            method = weakref.WeakMethod(listener)    # type: ignore[arg-type]
            self._listener: Callable[[], Callable[[N], Any] | None] = method
        else:
            self._listener = lambda: listener

    @property
    def listener(self) -> Callable[[N], Any] | None:
        """The listener, or None when it was a method of an object that is gone."""
        return self._listener()

    def close(self) -> None:
        notices = self._notices()
        if notices is not None:
            notices._drop(self)


class Notices:
    """The notices of one session, and who listens to which kind (in the order they subscribed)."""

    def __init__(self) -> None:
        self._subs: list[Subscription[Any]] = []

    def subscribe(self, kind: type[N], listener: Callable[[N], Any]) -> Subscription[N]:
        """Call ``listener`` with every notice of ``kind`` (or of a kind derived from it) published
        from now on, until the subscription is closed or the listener's object is gone."""
        sub = Subscription(self, kind, listener)
        self._subs.append(sub)
        return sub

    def publish(self, notice: Notice) -> None:
        """Tell every listener of the notice's kind. A listener that fails is logged; the others
        still hear it (and the message that caused it is still taken)."""
        for sub in list(self._subs):
            if not isinstance(notice, sub.kind):
                continue
            listener = sub.listener
            if listener is None:
                self._drop(sub)
                continue
            try:
                listener(notice)
            except Exception:
                log.exception("a listener of %r failed", notice)

    def listening(self, kind: type[Notice] = Notice) -> int:
        """How many listeners alive would hear a notice of ``kind`` (tests read it)."""
        return sum(1 for s in self._subs if issubclass(kind, s.kind) and s.listener is not None)

    def _drop(self, sub: Subscription[Any]) -> None:
        if sub in self._subs:
            self._subs.remove(sub)
