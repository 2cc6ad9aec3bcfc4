"""The one interface to a game, whoever runs it: :class:`Match` (and :data:`Msg`, a wire message).

Scenes hold a :class:`Match` and never know which kind it is. Every kind takes requests with
``send`` and hands back, through ``poll``, the same stream of protocol messages (``UpdateGame``,
updates, errors, ``UpdateGameEnd``...), which feeds the client's one view model. ``poll`` never
blocks, so the frame loop never waits on the engine or the network.
"""
from __future__ import annotations

from typing import Any, Callable, Protocol

from game.rules.actions import Action
from game.rules.components import GameConfig

Msg = dict[str, Any]


class Match(Protocol):
    """Everything a client may do with a game, whoever runs it.

    :class:`LocalMatch`, :class:`BotMatch` and :class:`RemoteMatch` implement it (the replay scene's
    feed too); what one kind of match cannot do it says with a ``supports_*`` flag, never by
    lacking a member. A class that subclasses it gets the defaults below: a game on this machine
    with nobody else to talk to, no undo, nothing to fetch again and no server to ask.
    """

    nickname: str
    config: GameConfig | None = None
    """The rules of a game the engine runs in this process; None when its messages bring the rules
    (a server's game, a replay's views): the client then reads them from ``UpdateGame``."""
    bots: dict[str, str] = {}
    """The computer players of a game run here, with their levels ({nickname: level})."""
    on_message: Callable[[], None] | None = None
    """Called (from any thread) when :meth:`poll` has news, so that a sleeping frame loop wakes."""
    supports_undo: bool = False
    """Whether :meth:`undo` is understood (the engine here, or a server of ours)."""
    supports_chat: bool = False
    """Whether :meth:`chat` reaches other people (a server's table)."""
    supports_resync: bool = False
    """Whether :meth:`resync` fetches the whole game again (from a server)."""
    host: str | None = None
    """The server's address (None for a game on this machine), with :attr:`port`."""
    port: int | None = None
    host_name: str = ""
    """Who hosts the table and its name, as the network's list of tables said ("" when unknown)."""
    table_name: str = ""
    secure: bool = False
    """Whether the game crosses the network encrypted (TLS): see :attr:`server_fingerprint`."""
    server_fingerprint: str | None = None
    """The server certificate's fingerprint (``SHA256:AB:CD:…``), over TLS."""
    first_meeting: bool = False
    """The server's certificate was met for the first time (it is remembered now)."""

    def send(self, request: Action) -> None:
        """Send a game request; its answer arrives later through :meth:`poll`."""

    def poll(self) -> list[Msg]:
        """Every message that arrived since the last call, oldest first (never blocks)."""
        return []

    def close(self) -> None:
        """Leave the game (a local game stays saved; a remote seat becomes inactive)."""

    def shutdown(self) -> None:
        """The application quits: end what runs in the background for this match (a bot match's
        worker process). The game itself stays as it is, saved or seated on its server."""

    def undo(self) -> None:
        """Take back my last request of this turn (answered through :meth:`poll`), if
        :attr:`supports_undo`."""

    def chat(self, text: str) -> None:
        """Say a line to the table, if :attr:`supports_chat`."""

    def resync(self) -> None:
        """Fetch the whole game again (after an update that could not be read), if
        :attr:`supports_resync`."""

    def hide_watchers(self, hide: bool) -> None:
        """Hide the watchers' chat of this table, or show it again (a server's table)."""

    def replay_record(self) -> Msg | None:
        """The replay of this game, once it has ended, when the engine ran here (None otherwise:
        ask the server with :meth:`fetch_replay`)."""
        return None

    def fetch_replay(self) -> bool:
        """Ask the server for this game's replay (an ``UpdateReplay`` through :meth:`poll`);
        False when there is no server of ours to ask."""
        return False
