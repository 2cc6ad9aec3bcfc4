"""Watching a table of a server (issue 31), for every front end (pure Python, no pygame).

A watcher sees what every player sees of the others: the server sends the public ``UpdateGame``
and its updates (see :mod:`game.netcode.watchers`). :class:`Watching` connects without blocking
the caller (as :class:`~game.client.tables.Seating` does for a seat) and ends with a
:class:`~game.client.session.GameSession` whose view model (:class:`WatchViewModel`) is nobody's
seat: never "your turn", every player told in the third person, one player's board shown at the
centre (the first, or the one chosen with :meth:`WatchViewModel.show`). The session's
``watchers`` (:class:`~game.client.watch_news.WatchNews`) says which table, who sits, whether
its game has started; its chat is the watchers' channel. Nothing can be played: a request would
be refused by the server anyway, and :class:`WatchMatch` sends none.
"""
from __future__ import annotations

from typing import Any

from game.match import Match
from game.netcode.client_messages import ReqChat, ReqGoodbye, ReqQuit
from game.netcode.watch_wire import ReqWatch

from .narration import Narrator
from .queries import RulesQueries
from .session import GameSession
from .tables import Seating, connect
from .view_model import Msg, ViewModel

__all__ = ["WatchMatch", "WatchViewModel", "Watching", "watch_session"]


class WatchMatch(Match):
    """A connection that watches the table ``name`` (public) or of invite ``code`` at ``host:port``,
    as ``nickname`` (the name the watchers' chat shows). Blocks while connecting.

    :raises OSError: the server cannot be reached.
    """

    supports_chat = True

    def __init__(self, host: str, port: int, nickname: str, *, name: str | None = None, code: str | None = None,
                 connect_timeout: float = 5.0, tls_port: int | None = None) -> None:
        self.conn, self.link, self.tls_port = connect(host, port, connect_timeout, tls_port=tls_port)
        self.host, self.port, self.nickname = host.removeprefix("tls://"), port, nickname
        self.table_name = name or ""
        self.secure = self.tls_port is not None
        self.server_fingerprint = self.conn.fingerprint
        self.first_meeting = self.link.first_meeting
        self.conn.send(ReqWatch(nickname, name, code).to_dict())

    @property
    def on_message(self) -> Any:
        return self.conn.on_message

    @on_message.setter
    def on_message(self, hook: Any) -> None:
        self.conn.on_message = hook
        if hook is not None:
            hook()   # messages may have arrived before the hook was set

    def poll(self) -> list[Msg]:
        return self.conn.poll()

    def chat(self, text: str) -> None:
        """Say a line to the table's watchers (and its players who do not hide them)."""
        self._send(ReqChat(text).to_dict())

    def _send(self, msg: Msg) -> None:
        try:
            self.conn.send(msg)
        except ConnectionError:
            pass    # ConnectionLost is queued: the session says so

    def close(self) -> None:
        """Stop watching, and close the connection."""
        self._send(ReqQuit().to_dict())
        self._send(ReqGoodbye().to_dict())
        self.conn.close()


class WatchViewModel(ViewModel):
    """The table as nobody's seat sees it: no player is "you", it is never "your turn", and
    :attr:`me` is the player whose board is at the centre (:meth:`show`)."""

    def __init__(self) -> None:
        super().__init__("")
        self.shown: str | None = None

    def show(self, nickname: str) -> None:
        """Put ``nickname``'s board at the centre."""
        if nickname in self._players:
            self.shown = nickname

    @property
    def me(self) -> Msg:
        return self._players[self.shown] if self.shown in self._players else self.game["players"][0]  # type: ignore[index]

    @property
    def my_turn(self) -> bool:
        return False


class ShownQueries(RulesQueries):
    """The rules asked about the player whose board is at the centre of a watcher's table (what
    the board shows of the market's lines, for one): a watcher plays nothing itself."""

    def __init__(self, vm: WatchViewModel, picture: Any) -> None:
        self._vm = vm
        super().__init__("", picture)

    @property   # type: ignore[override]
    def nickname(self) -> str:
        return str(self._vm.me["nickname"]) if self._vm.has_game else ""

    @nickname.setter
    def nickname(self, value: str) -> None:
        pass    # always the player shown


def watch_session(match: Match, config: Any) -> GameSession:
    """A :class:`GameSession` for a watcher: its view model and narrator are nobody's seat's."""
    session = GameSession(match, config, "")
    vm = session.vm = WatchViewModel()
    session.narrator = Narrator(vm)
    session.rules = ShownQueries(vm, lambda: (session.version, vm.game, session.config))
    return session


class Watching(Seating):
    """Connecting to a server and asking to watch a table without blocking the caller: ``state``
    ``"connecting"``, ``"joining"`` (asked), ``"seated"`` (watching: :attr:`session` has the
    table, waiting or under way) or ``"failed"`` (:attr:`error` says why). ``where``: ``name``
    or ``code`` of the table."""

    def _open(self) -> Any:
        return WatchMatch(self.host, self.port, self.nickname, **self._where)

    def _session(self, match: Any) -> Any:
        return watch_session(match, self.config)

    def _answered(self, session: Any) -> bool:
        """The table named; and, for a game under way, the game as it stands (a line said at once
        must find the table, as the window's and the terminal's first frame do)."""
        news = session.watchers
        return bool(news.table) and (not news.started or session.vm.has_game)

    def _refused(self, session: Any) -> str | None:
        return session.watchers.refused
