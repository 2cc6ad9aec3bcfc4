"""Watching a table of a server in words (issue 31): the game told as it goes, read only.

:class:`WatchReader` is what the text client does while it watches (``watch`` on a server's
tables, see :mod:`.network`): the log's new lines as they come (the moves in the third person,
the players' chat and the watchers'), who sits while the table waits, how many watch, and the
end. Commands: ``say`` and a line (the watchers' chat; anything else that is not a command is
said too), ``look`` (the table now), ``players``, ``log N``, ``leave`` (back to the tables).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from game.client.address import hostport
from game.client.notices import ConnectionLost
from game.client.session import GameSession
from game.i18n import N_, _
from game.client.watch_words import WATCH_CLOSED, WATCH_LOST, waiting_words, watching_words

from . import describe as D
from .news import News

Say = Callable[[str], None]
WATCHING_WORDS = ("say", "look", "players", "log", "leave", "help")
HELP = N_("You watch: nothing you say plays. Say say and a line to talk with the other watchers (the players "
          "read it too unless they hide it), look for the table now, players for each player's board, "
          "log and a number for the last lines, leave to go back to the tables.")


class WatchNews(News):
    """:class:`~.news.News` for a watcher: a lost connection keeps no seat."""

    def _hear_lost(self, notice: ConnectionLost) -> None:
        self._heard.append(_(WATCH_LOST) + " " + _("Say leave to go back to the tables."))


class WatchReader:
    """The text client watching the table of ``session`` (a watcher's: see
    :func:`game.client.watching.watch_session`)."""

    def __init__(self, session: GameSession, say: Say) -> None:
        self.session = session
        self.say = say
        self.news = WatchNews(session, say)
        self.left = False
        self._said: tuple[Any, ...] = ()       # the table's state said last (who sits, started, closed)
        self._lost = False

    def start(self) -> None:
        self.follow()

    def follow(self) -> None:
        """Say what arrived: the table's state when it changed, the log's new lines, the watchers."""
        s = self.session
        msgs = s.pump()
        if any(m.get("type") == "ConnectionLost" for m in msgs) and not self._lost and not s.vm.has_game:
            self._lost = True
            self.say(_(WATCH_LOST) + " " + _("Say leave to go back to the tables."))
        w = s.watchers
        state = (w.players, w.started, w.closed)
        if w.started and not w.closed and not s.vm.has_game:
            return  # said once the game is here (its players' names need its bots' levels), and
            #         nothing before it: "You watch ..." is the first line a watcher hears
        elif state != self._said:
            self._said = state
            if w.closed:
                self.say(_(WATCH_CLOSED) + " " + _("Say leave to go back to the tables."))
            elif w.started:
                names = tuple(s.shown_name(p) for p in w.players)    # (a bot with its level)
                self.say(watching_words(w.table, names) + " " + _("Say help for what you may do."))
            else:
                self.say(waiting_words(w.table, w.players, w.seats))
        self.news.tell()   # the log's new lines, and how many watch when it changes

    def command(self, line: str) -> None:
        words = line.split()
        word = words[0].lower() if words else ""
        if word in ("leave", "back", "menu", "quit"):
            self.left = True
        elif word in ("help", "?", "h"):
            self.say(_(HELP))
        elif word == "look":
            self._look()
        elif word == "players":
            self._players()
        elif word == "log":
            n = int(words[1]) if len(words) > 1 and words[1].isdigit() else 12
            for text in self.session.log[-n:]:
                self.say(text)
        elif not words:             # Enter: where the table is now, in a line
            self.say(self._now())
        elif word == "say" and len(words) > 1:
            self.session.chat(line.split(None, 1)[1])
        elif words:
            self.session.chat(line.strip())
        self.follow()

    def words(self) -> list[str]:
        return list(WATCHING_WORDS)

    def _now(self) -> str:
        """The table now in a line: the connection lost, the table closed, who sits while it
        waits, or whose turn it is."""
        s = self.session
        w = s.watchers
        if self._lost or s.connection_lost:
            return _(WATCH_LOST) + " " + _("Say leave to go back to the tables.")
        if w.closed:
            return _(WATCH_CLOSED) + " " + _("Say leave to go back to the tables.")
        if not s.vm.has_game:
            return waiting_words(w.table, w.players, w.seats)
        g = s.vm.game
        if g["ended"]:
            return _("The game is over.")
        if not g["isSetupDone"]:
            return _("The players are choosing their leaders and starting resources.")
        return _("It is {name}'s turn.").format(name=s.shown_name(g["currentPlayer"]))

    def _look(self) -> None:
        """Whose turn it is, the market, the points so far (the cards on sale: the players' boards)."""
        self.say(self._now())
        vm = self.session.vm
        if not vm.has_game:
            return
        m = vm.game["market"]
        for r, row in enumerate(m["grid"]):
            self.say(_("Market row {n}: {marbles}.").format(n=r + 1, marbles=", ".join(D.marble(x) for x in row)))
        self.say(_("The spare marble: {marble}.").format(marble=D.marble(m["slide"])))
        for text in D.score(self.session):
            self.say(text)

    def _players(self) -> None:
        vm = self.session.vm
        if not vm.has_game:
            self._look()
            return
        for p in vm.game["players"]:
            for text in D.board(self.session, p["nickname"]):
                self.say(text)

    def close(self) -> None:
        self.session.close()


class Watches:
    """Watching a table, for :class:`~game.text.client.TextClient` (its menu, its questions and its
    say are the client's): asked from a server's tables (``watch`` and a number, a name or
    ``code`` and an invite code), connected without blocking, then read by a :class:`WatchReader`
    until ``leave``, which goes back to the tables."""

    say: Say
    wake: Callable[[], None] | None
    config: Any
    nickname: str
    choices: list
    _playing: list
    _tables_tls: int | None
    watching: Any            # a watch being asked for (game.client.watching.Watching)
    reader: WatchReader | None

    if TYPE_CHECKING:      # the client's own
        def show_tables(self, address: str) -> None: ...
        def _stop_browser(self) -> None: ...

    def watch_from(self, host: str, port: int, tables: list, words: list[str]) -> bool:
        """``watch`` and what follows it, on the list of ``host:port``'s tables: a number (an open
        table or a game being played), ``code`` and an invite code, or a table's name. False
        (said why) when it names nothing to watch."""
        where: dict[str, str]
        word = words[0]
        if word.lower() == "code" and len(words) > 1:
            where = {"code": words[1]}
        elif word.isdigit():
            n = int(word)
            listed = [(t.name, t.private) for t in tables] + [(g.name, False) for g in self._playing]
            if not 1 <= n <= len(listed):
                self.say(_("Say watch and a number from 1 to {n}.").format(n=len(listed)) if listed else
                         _("No table is listed to watch: say watch and a table's name, or its invite code."))
                return False
            name, private = listed[n - 1]
            if private:
                self.say(_("{name} is private: say watch code and its invite code.").format(name=name))
                return False
            where = {"name": name}
        else:
            where = {"name": " ".join(words)}
        self.watch(host, port, **where)
        return True

    def watch(self, host: str, port: int, **where: str) -> None:
        """Connect to ``host:port`` and ask to watch a table (``name`` or ``code``); :meth:`tick`
        follows the answer."""
        from game.client.watching import Watching
        self._stop_browser()
        self.choices = []
        self.say(_("Connecting to {where} to watch…").format(where=hostport(host, port)))
        self._watch_from = (host, port)
        self.watching = Watching(host, port, self.nickname, self.config, self.wake, tls_port=self._tables_tls,
                                 **where)
        self.follow_watching()

    def follow_watching(self) -> None:
        """The watch asked for: connected (the table is read from now on), or refused (said why,
        and the tables are listed again)."""
        watching = self.watching
        if watching is None:
            return
        state = watching.poll()
        if state == "seated":
            self.watching = None
            self.reader = WatchReader(watching.session, self.say)
            if self.wake is not None:
                watching.session.match.on_message = self.wake
            self.reader.start()
        elif state == "failed":
            self.watching = None
            self.say(watching.warning.line if watching.warning else watching.error or _("The server did not let you watch."))
            self.show_tables(hostport(*self._watch_from))

    def leave_watch(self) -> None:
        """Stop watching: back to the tables of the server."""
        reader, self.reader = self.reader, None
        if reader is not None:
            reader.close()
        self.say(_("You stopped watching. Back to the tables."))
        self.show_tables(hostport(*self._watch_from))
