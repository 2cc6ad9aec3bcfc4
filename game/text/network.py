"""The text client's network: hosting a table on this network, joining one (found on the
network or typed), a server's named tables, a seat asked there (a kept one asked back, or
asked about first when the server keeps one under that name), and a seat followed until the
server takes the player.

:class:`Network` is part of :class:`~game.text.client.TextClient` (its menu, its questions and
its open game are the client's)."""
from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from game.client.address import hostport
from game.client.lan_words import found_label
from game.client.flow.hosting import (end_kept_hosted_game, host_question, join_own_table, leaving_question, people_at,
                                      server_folder, start_hosting)
from game.client.flow.seats import (KeptSeat, ask_before_seating, asked_words, forget_seat, gone_words, seats_file,
                                    why_seated)
from game.i18n import _, ngettext
from game.settings import GAME_PORT

from .standings import say_ratings
from .vocabulary import BACK_WORDS

if TYPE_CHECKING:
    from game.client.flow.questions import Question
    from game.client.session import GameSession
    from game.settings import Settings

log = logging.getLogger("mor.text")


TURN_WORDS = {"hourly": 3600, "daily": 86400, "3days": 259200}
"""What the ``new`` command takes last for a turn-based table: its time a move (seconds)."""

class Network:
    """Hosting, joining and the seats at servers, for :class:`~game.text.client.TextClient`."""

    say: Callable[[str], None]
    wake: Callable[[], None] | None
    config: Any
    data_dir: Path
    nickname: str
    settings: "Settings"
    pace: float
    choices: list
    question: Callable[[str], None] | None
    server: Any
    browser: Any
    seating: Any
    _tables_at: tuple[str, int] | None
    _tables_tls: int | None
    _rejoin: KeptSeat | None
    _asked: str | None
    _back_to_kept: bool
    _from_tables: tuple[str, int] | None
    _playing: list
    _port_said: str | None
    _lan: list[str]

    if TYPE_CHECKING:      # the watching part's (game.text.watch.Watches)
        def watch_from(self, host: str, port: int, tables: list, words: list[str]) -> bool: ...

    shell: Any

    if TYPE_CHECKING:      # the client's own
        def _leave_game(self, menu: bool = True, stop_server: bool = True) -> None: ...
        def menu(self) -> None: ...
        def quit(self) -> None: ...
        def ask(self, question: Question, then: Callable[[str], None]) -> None: ...
        def _open(self, session: GameSession) -> None: ...

    @property
    def seats_file(self) -> Path:
        """Where the seats at servers are kept (their tokens; beside them, the unfinished games)."""
        return seats_file(self.data_dir)

    def rejoin(self, kept: KeptSeat) -> None:
        """Back to a seat kept at a server, with its token (the server gives the seat back)."""
        self.nickname = kept.nickname
        self.seat(kept.host, kept.port, rejoin=kept, host_name=kept.host_name, table_name=kept.table_name)

    # ------------------------------------------------------------------ the network
    def ask_host(self, port: int | None = None) -> None:
        """Open a table on this network, on the port of the settings (or ``port``; 0: any free one).
        With a hosted game kept unfinished here, the player is asked first: hosting brings it
        back, so a new table means ending it."""
        question = host_question(self.data_dir, self.nickname) if self.server is None and port is None else None
        if question is None:
            self._host(port)
            return

        def then(key: str) -> None:
            if key == "continue":
                self._host(None)
            elif key == "new":
                problem = end_kept_hosted_game(self.data_dir, self.nickname)
                if problem:
                    self.say(problem)
                    self.menu()
                else:
                    self._host(None)
            else:
                self.say(_("No table opened: your LAN game is kept."))
                self.menu()
        self.ask(question, then)

    def leave_table(self) -> None:
        """The player said leave. A host with other people at the table is asked first
        (:func:`~game.client.flow.hosting.leaving_question`): leave the table and let them play
        on, stop hosting, or stay; anyone else leaves at once."""
        shell = self.shell
        assert shell is not None
        shell.left = False
        g = shell.session.vm.game
        stage = "waiting" if g is None else "ended" if g.get("ended") else "game"
        question = leaving_question(people_at(self.server, shell.session.nickname), stage)
        if question is None:
            self._leave_game()
            return

        def then(key: str) -> None:
            if key == "stay":
                self.say(_("You stay at the table."))
            else:
                self._leave_game(stop_server=key == "stop")
        self.ask(question, then)

    def stop_hosting(self) -> None:
        """Close the table this computer hosts (the host has left it): the others are disconnected."""
        self._stop_server()
        self.say(_("Your table is closed: the others at it are disconnected. The game is kept, and goes on when you "
                   "host it again."))
        self.menu()

    def _host(self, port: int | None) -> None:
        from game.client.address import PORT_REFUSED, describe_bind_error
        from game.client.lan import lan_addresses
        port = self.settings.server_port if port is None else port
        data = server_folder(self.data_dir)
        try:
            self.server = start_hosting(self.config, port, self.data_dir, self.nickname, self.pace,
                                        open_port=self.settings.open_port, on_port=lambda _status: self._wake())
        except OSError as e:
            # a port refused is often another program's (another game's): another one, asked here
            self.say(describe_bind_error(e, port, data, remedy=_("Say another port to host on (1024 to 65535), "
                                                                 "press Enter for any free port, or say menu.")))
            if e.errno in PORT_REFUSED:
                self.question = self._host_port_answer
            return
        port = self.server.address[1]
        self._port_said = None
        self._lan = lan_addresses()
        where = ", ".join(f"{a}:{port}" for a in self._lan) or _("this computer, port {port}").format(port=port)
        self.say(_("Your table is open on this network; friends join it at {where}, or find it in their list.").format(
            where=where))
        # the link to send, whole (as the window's Copy link button): said again at the router's
        # address if it comes to forward the port (follow_port)
        from game.client.flow.port_opening import share_link
        from game.client.port_words import LINK
        self.say(_(LINK).format(link=share_link(self.server, self._lan)))
        self._join_own_table(port)

    def _wake(self) -> None:
        if self.wake is not None:
            self.wake()

    def follow_port(self) -> None:
        """What the router did with the hosted port, said when it changes (and what the host can
        do when friends on the internet cannot join)."""
        if self.server is None:
            return
        from game.client.flow.port_opening import link_words, port_mapping, port_words
        tls = self.server.tls_address
        words = port_words(port_mapping(self.server), self._lan, self.server.address[1],
                           asked=self.settings.open_port, tls=tls[1] if tls else None)
        if words and words != self._port_said:
            self._port_said = words
            self.say(words)
            link = link_words(self.server, self._lan) if self.settings.open_port else None
            if link:
                self.say(link)

    def _host_port_answer(self, text: str) -> None:
        if not text:
            self._host(0)
        elif text.isdigit() and 1024 <= int(text) <= 65535:
            self._host(int(text))
        elif text.lower() in BACK_WORDS:
            self.menu()
        else:
            self.say(_("Say a port from 1024 to 65535, press Enter for any free port, or say menu."))
            self.question = self._host_port_answer

    def join_menu(self) -> None:
        from game.client.lan import Browser
        if self.browser is None:
            try:
                self.browser = Browser()
            except OSError as e:
                self.say(_("Cannot look for tables on this network: {why}.").format(why=e))
        self.say(_("Looking for tables on this network… Say list to see what is found, or type an address "
                   "(host or host:port; the port is {port} if you leave it out) to join its waiting room, "
                   "or tables and an address for a server's named tables (ratings and an address for its "
                   "leaderboard). Say menu to go back.").format(port=GAME_PORT))
        self.choices = []
        self.question = self._join_answer

    def _join_answer(self, text: str) -> None:
        word = text.lower()
        if word in ("menu", "back", "leave", ""):
            self._stop_browser()
            self.menu()
            return
        if word in ("quit", "exit", "q"):
            self._stop_browser()
            self.quit()
            return
        if word == "list":
            games = self.browser.games() if self.browser is not None else []
            if not games:
                problem = getattr(self.browser, "problem", None)
                self.say(problem or _("No table found yet. Say list again in a moment, or type an address."))
            else:
                self.say(_("Tables found (say the number to join one):"))
                for i, g in enumerate(games):
                    self.say(f"{i + 1}. " + (_("{table}, at {where}, encrypted") if g.info.tls else _("{table}, at {where}"))
                             .format(table=found_label(g), where=f"{g.address}:{g.port}"))
            self.found = games
            self.question = self._join_answer
            return
        if word.isdigit() and 1 <= int(word) <= len(getattr(self, "found", [])):
            g = self.found[int(word) - 1]
            self._stop_browser()
            self.seat(g.address, g.port, tls_port=g.info.tls or None,   # announced TLS: asked there at once
                      host_name=g.info.host, table_name=g.info.name)
            return
        if word.split()[0] == "tables":
            self.show_tables(text.split(None, 1)[1] if len(text.split()) > 1 else "")
            return
        if word.split()[0] == "ratings":
            self.show_ratings(text.split(None, 1)[1] if len(text.split()) > 1 else "")
            return
        if word.split()[0] == "games" and len(text.split()) > 1:
            self._my_games_at(text.split(None, 1)[1])
            return
        self._stop_browser()
        self.join_address(text)

    def join_address(self, text: str) -> None:
        """Join the game at an address typed, or a game link pasted whole (with its invite code)."""
        from game.client.links import read_address
        try:
            link = read_address(text, GAME_PORT)
        except ValueError as e:
            self.say(str(e))
            self.menu()
            return
        if link.code:
            self.seat(link.host, link.port, code=link.code)
        else:
            self.seat(link.host, link.port)

    def show_ratings(self, address: str) -> None:
        """The leaderboard of the server at ``address`` (:mod:`.standings`), then the join menu's question."""
        from game.client.address import parse_address
        try:
            host, port = parse_address(address, GAME_PORT)
        except ValueError as e:
            self.say(f"{e} " + _("(Say ratings and the server's address.)"))
        else:
            say_ratings(self.say, host, port, self.data_dir)
        self.question = self._join_answer

    def _my_games_at(self, address: str) -> None:
        """``games ADDRESS``: the player's games at that server (:mod:`.my_games`)."""
        from game.client.address import parse_address
        try:
            host, port = parse_address(address, GAME_PORT)
        except ValueError as e:
            self.say(f"{e} " + _("(Say games and the server's address.)"))
            self.question = self._join_answer
            return
        self._stop_browser()
        self.show_my_games(host, port)   # type: ignore[attr-defined]

    # a server's tables ----------------------------------------------------------------
    def show_tables(self, address: str) -> None:
        """The open tables of the server at ``address``, numbered, and how to sit at one."""
        from game.client.address import describe_connect_error, parse_address
        from game.client.security import identity_warning
        from game.client.tables import NoTables, list_tables, own_table_name
        if address or self._tables_at is None:
            try:
                host, port = parse_address(address, GAME_PORT)
            except ValueError as e:
                self.say(f"{e} " + _("(Say tables and the server's address.)"))
                self.question = self._join_answer
                return
        else:
            host, port = self._tables_at
        self._tables_at, self._tables_tls = (host, port), None
        try:
            listing = list_tables(host, port)
        except NoTables as e:
            self.say(f"{e} " + _("Say quick for it, or menu."))
            self.question = lambda answer: self._tables_answer(host, port, [], answer)
            return
        except OSError as e:
            warning = identity_warning(e)
            self.say(warning.line if warning else describe_connect_error(e, host, port))
            self.question = self._join_answer
            return
        where = hostport(host, port)
        if listing.link is not None and listing.link.first_meeting:   # a server met for the first time
            self.say(listing.link.line + " " + _("Its certificate is remembered: you will be warned if it changes."))
        if not listing.tables:
            self.say(_("No table is open at {where}.").format(where=where))
        else:
            self.say(_("Tables open at {where} (the first {n} of {total}):").format(
                where=where, n=len(listing.tables), total=listing.total) if listing.more else
                _("Tables open at {where}:").format(where=where))
            for i, t in enumerate(listing.tables):
                host_words = ", " + _("opened by {name}").format(name=t.host) if t.host else ""
                private = " " + _("Private: it needs its invite code.") if t.private else ""
                seated = f" ({t.seated_words})" if t.rated else ""
                pace = ", " + _("turn-based: {pace}").format(pace=t.pace_words) if t.move_time else ""
                self.say(f"{i + 1}. {t.name}{host_words}: {t.seats_words}{seated}{pace}.{private}")
        self._playing = list(listing.playing)
        if listing.playing:
            self.say(_("Games being played, to watch (say watch and a number):"))
            for i, g in enumerate(listing.playing, len(listing.tables) + 1):
                self.say(f"{i}. {g.title}: {g.players_words}.")
        if not listing.waiting:
            queue = _("nobody waiting yet")
        elif listing.queue_count:
            queue = ngettext("{n} waiting for a game of {size}", "{n} waiting for a game of {size}",
                             listing.waiting).format(n=listing.waiting, size=listing.queue_count)
        else:
            queue = ngettext("{n} waiting", "{n} waiting", listing.waiting).format(n=listing.waiting)
        # TRANSLATORS: the commands (new, private, daily, hourly, 3days, games, code, quick, watch, ratings,
        # tables, menu) are typed as they are: keep them in English
        # TRANSLATORS: {example} is a table's name made of the player's own ("Bea's table")
        self.say((_("Say a number to sit at a table, new and a name to open one (new {example} 3 private: 3 seats, "
                    "by invite code; add daily, hourly or 3days for a turn-based table), games for your games here, "
                    "code and an invite code for a private table, quick for the Quick game ({queue}), watch and a "
                    "number, a name or an invite code to watch a table, ratings for the leaderboard, tables to look "
                    "again, or menu.") if listing.tables else
                  _("Say new and a name to open one (new {example} 3 private: 3 seats, by invite code; add daily, "
                    "hourly or 3days for a turn-based table), games for your games here, code and an invite code for "
                    "a private table, quick for the Quick game ({queue}), watch and a number, a name or an invite "
                    "code to watch a table, ratings for the leaderboard, tables to look again, or menu.")).format(
            queue=queue, example=own_table_name(self.nickname)))
        self._tables_tls = listing.tls_port    # where it speaks TLS: a seat is asked there at once
        self.question = lambda answer: self._tables_answer(host, port, list(listing.tables), answer)

    def _tables_answer(self, host: str, port: int, tables: list, text: str) -> None:
        from game.client.tables import own_table_name
        words = text.split()
        word = words[0].lower() if words else "tables"
        again = lambda: setattr(self, "question", lambda a: self._tables_answer(host, port, tables, a))  # noqa: E731
        if word in ("menu", "back", "leave"):
            self._stop_browser()
            self.menu()
        elif word in ("quit", "exit", "q"):
            self._stop_browser()
            self.quit()
        elif word in ("tables", "list"):
            self.show_tables("")
        elif word == "ratings":
            say_ratings(self.say, host, port, self.data_dir, self._tables_tls)
            again()
        elif word == "games":
            self.show_my_games(host, port, self._tables_tls)   # type: ignore[attr-defined]
        elif word == "quick":
            self.seat(host, port, tls_port=self._tables_tls, from_tables=True)
        elif word == "code" and len(words) > 1:
            self.seat(host, port, code=words[1], tls_port=self._tables_tls)
        elif word == "watch" and len(words) > 1:
            if not self.watch_from(host, port, tables, words[1:]):
                again()
        elif word == "new" and len(words) > 1:
            rest = words[1:]
            move_time = TURN_WORDS.get(rest[-1].lower())    # a turn-based table: its time a move
            if move_time is not None:
                rest = rest[:-1]
            private = bool(rest) and rest[-1].lower() == "private"
            if private:
                rest = rest[:-1]
            seats = 2
            if len(rest) > 1 and rest[-1].isdigit():
                seats, rest = int(rest[-1]), rest[:-1]
            if not 2 <= seats <= 4 or not rest:
                self.say(_("Say new, the table's name, its seats (2 to 4) and private if you like: new {example} "
                           "3.").format(example=own_table_name(self.nickname)))
                again()
                return
            if move_time is not None:
                from game.client.my_games import remember_server
                remember_server(self.data_dir, host, port)   # its turns are announced while the client runs
            self.seat(host, port, create=" ".join(rest), players=seats, private=private, tls_port=self._tables_tls,
                      **({"move_time": move_time} if move_time is not None else {}))
        elif word.isdigit() and 1 <= int(word) <= len(tables):
            t = tables[int(word) - 1]
            if t.private:
                self.say(_("{table} is private: say code and its invite code (its host has it).").format(table=t.name))
                again()
                return
            if t.move_time:
                from game.client.my_games import remember_server
                remember_server(self.data_dir, host, port)
            self.seat(host, port, name=t.name, tls_port=self._tables_tls)
        else:
            self.say(_("Say a table's number, new and a name, code and an invite code, quick, watch and a table, "
                       "tables, or menu."))
            again()

    def seat(self, host: str, port: int, **where: Any) -> None:
        """Connect to the server at ``host:port`` and ask for a seat (see
        :func:`game.client.tables.join`: a table by ``name``, ``code``, a new one ``create``, or
        the waiting room); :meth:`tick` follows the answer. Where the server keeps a seat for this
        nickname, the player is asked first (:func:`~game.client.flow.seats.ask_before_seating`)."""
        self._stop_browser()
        self.choices = []
        rejoin = where.pop("rejoin", None)             # a kept seat asked back (see rejoin)
        from_tables = where.pop("from_tables", False)  # asked from the list of a server's tables
        at_table = bool(where.keys() - {"tls_port", "host_name", "table_name"})   # a table asked for (else the queue)
        again = (self.menu if rejoin else
                 (lambda: self.show_tables(hostport(host, port))) if at_table or from_tables else self.join_menu)
        self._seat_again = again
        self._from_tables = (host, port) if at_table or from_tables else None
        if rejoin is not None:                         # chosen in the menu
            self._rejoin, self._asked = rejoin, None
            self._knock(host, port, self.nickname, True, where)
            return

        def cancelled() -> None:
            self.say(_("Not joined: your seat in that game stays kept."))
            again()
        self._rejoin, self._asked = None, asked_words(**where)
        ask_before_seating(self.data_dir, host, port, self.nickname, self._asked, self.ask,
                           lambda nick, chose: self._knock(host, port, nick, chose, where), cancelled)

    def _knock(self, host: str, port: int, nickname: str, chose: bool, where: dict[str, Any]) -> None:
        """Ask for the seat as ``nickname`` (``chose``: the player chose the seat kept there)."""
        from game.client.tables import Seating
        self.nickname, self._back_to_kept = nickname, chose
        self.say(_("Connecting to {where}…").format(where=hostport(host, port)))
        self.seating = Seating(host, port, self.nickname, self.config, self.wake, token_file=self.seats_file, **where)
        self._follow_seating()

    def _follow_seating(self) -> None:
        seating = self.seating
        if seating is None:
            return
        state = seating.poll()
        if state == "seated":
            self.seating = None
            session = seating.session
            if self._rejoin and not session.vm.has_game:    # its game has ended there, or the server lost it
                forget_seat(self.data_dir, self._rejoin)
                session.close()
                self.say(gone_words(self._rejoin))
                self.menu()
                return
            chose, self._back_to_kept = self._back_to_kept, False
            why = why_seated(self._asked, seating.sent_token, session.vm.has_game, seating.where, chose=chose)
            if why:             # not what was asked for: why the player sits there
                self.say(why)
            if session.link is not None:     # encrypted (and to whom) or not, said once; "server" says it again
                self.say(session.link.line)
            table = session.lobby.table
            if table:
                code = table.get("code") if table.get("private") else None
                self.say(_("You sit at the table {table}.").format(table=table.get("name"))
                         + (" " + _("It is private: its invite code is {code}, to give to the others.").format(code=code)
                            if code else ""))
            self._open(session)
        elif state == "failed":
            self.seating = None
            # a server that is not the one met there before: the warning, and what to do
            self.say(seating.warning.line if seating.warning else seating.error or _("The server did not take you."))
            self._back_to_kept = False
            self._seat_again()

    def _join_own_table(self, port: int) -> None:
        from game.client.address import describe_connect_error
        self.say(_("Connecting to {where}…").format(where=hostport("127.0.0.1", port)))
        try:
            session = join_own_table(port, self.nickname, self.config, connect_timeout=5, token_file=self.seats_file)
        except OSError as e:
            self.say(describe_connect_error(e, "127.0.0.1", port))
            self._stop_server()
            self.menu()
            return
        self.say(_("Connected. Waiting for the table (say players N to choose how many play, if you are asked)."))
        if session.link is not None and session.link.secure:    # the fingerprint its guests are shown
            from game.client.port_words import HOST_TLS
            self.say(_(HOST_TLS).format(short=session.link.short))
        self._open(session)

    def _stop_browser(self) -> None:
        if self.browser is not None:
            self.browser.close()
            self.browser = None

    def _stop_server(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None
