"""The text client: the title page's choices as a numbered menu, then a game in typed commands.

:class:`TextClient` takes one typed line at a time (:meth:`TextClient.line`) and says everything
through ``say`` (one call per line of output); :meth:`TextClient.tick` takes what arrived from the
game. It never reads the terminal itself (:mod:`game.text.terminal` does), so tests drive it
directly, and through a real pseudo-terminal.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from game.client.address import hostport
from game.client.flow.hosting import (end_kept_hosted_game, host_question, join_own_table, server_folder,
                                      start_hosting)
from game.client.flow.local import new_solo_question, new_versus_question, start_new_solo
from game.client.flow.questions import Question
from game.client.flow.seats import (KeptSeat, another_nickname, asked_words, forget_seat, gone_words, kept_seat_at,
                                    kept_seats, seat_question, seats_file, why_seated)
from game.client.games import (GameNotOpened, bots_save_path, default_config, describe_solo_save, open_bots,
                               open_solo, saved_summary)
from game.client.session import GameSession
from game.client.words import validate_nickname
from game.settings import BOT_PACES, GAME_PORT, Settings, data_dir

from .describe import spoken
from .play import GameShell

log = logging.getLogger("mor.text")
Say = Callable[[str], None]
LEVELS = ("easy", "medium", "hard")
REPLAY_QUESTIONS = ("market", "grid", "board", "leaders", "track", "lorenzo", "score", "log")
LONGEST = 300
"""The longest line taken (a chat line is at most 200 characters)."""


@dataclass
class Choice:
    label: str
    do: Callable[[], None]


@dataclass
class Options:
    """What the command line chose: the nickname, where games are kept, the pace of the bots."""

    nickname: str | None = None
    data_dir: Path | None = None
    bot_pace: float | None = None
    settings: Settings | None = field(default=None)


class TextClient:
    """The menu, and the game once one is open (see the module docstring)."""

    def __init__(self, say: Say, options: Options | None = None, wake: Callable[[], None] | None = None) -> None:
        self.say: Say = lambda line: say(spoken(line))     # every line, the board's signs in words
        self.wake = wake
        self.options = options or Options()
        self.settings = self.options.settings or Settings.load()
        self.config = default_config()
        self.data_dir = self.options.data_dir or data_dir()
        self.nickname = (self.options.nickname or self.settings.nickname or "Player").strip()
        self.shell: GameShell | None = None
        self.choices: list[Choice] = []
        self.question: Callable[[str], None] | None = None   # the next line answers a question
        self.done = False
        self.server: Any = None              # the LAN server this client hosts, while it does
        self.browser: Any = None             # looking for LAN tables, while the join list is up
        self.replay: Any = None              # a replay being stepped through
        self.replay_step = 0
        self.seating: Any = None             # a seat being asked for (game.client.tables.Seating)
        self._tables_at: tuple[str, int] | None = None   # the server whose tables were listed last
        self._tables_tls: int | None = None               # where that server speaks TLS (None: it does not)
        self._rejoin: KeptSeat | None = None              # the kept seat being asked back, while it is
        self._asked: str | None = None                    # what the seat being asked for is, in words
        self._back_to_kept = False                         # the player chose to go back to a kept seat
        self._from_tables: tuple[str, int] | None = None  # the seat was asked from a server's tables

    # ------------------------------------------------------------------ paths
    @property
    def solo_path(self) -> Path:
        return self.data_dir / "solo-game.json"

    @property
    def bots_path(self) -> Path:
        return bots_save_path(self)

    @property
    def pace(self) -> float:
        if self.options.bot_pace is not None:
            return self.options.bot_pace
        return BOT_PACES.get(self.settings.bot_pace, BOT_PACES["normal"])

    # ------------------------------------------------------------------ the loop's two calls
    def start(self) -> None:
        self.say("Masters of Renaissance, in words. Type help at any time; a number chooses from a list.")
        self.menu()

    def tick(self) -> None:
        """What arrived from the game (or the network's list of tables), said."""
        if self.shell is not None:
            self.shell.follow()
            if self.shell.left:
                self._leave_game()
        else:
            self._follow_seating()

    def line(self, text: str) -> None:
        """One typed line."""
        if len(text) > LONGEST:       # (never read back whole: a screen reader would read it all)
            self.say(f"That line is too long ({len(text)} characters): nothing was done. Say help for the commands.")
            return
        if self.question is not None:
            ask, self.question = self.question, None
            ask(text.strip())
            return
        if self.shell is not None:
            self.shell.command(text)
            if self.shell is not None and self.shell.left:
                self._leave_game()
            return
        if self.replay is not None:
            self._replay_command(text.strip())
            return
        if self.seating is not None:
            if text.strip().lower() in ("cancel", "menu", "back"):
                self.seating.cancel()
                self.seating = None
                self.say("Not joined.")
                self.menu()
            else:
                self.say(f"Still connecting to {self.seating.where} (say cancel to give up).")
            return
        self._menu_command(text.strip())

    def words(self) -> list[str]:
        """The words that complete now."""
        if self.shell is not None:
            return self.shell.words()
        if self.replay is not None:
            return ["next", "back", "turn", "start", "end", "market", "grid", "board", "leaders", "track", "score",
                    "log", "leave"]
        return ["help", "menu", "quit", *(str(i + 1) for i in range(len(self.choices)))]

    def close(self) -> None:
        if self.shell is not None:
            self.shell.close()
            self.shell.session.close()
            self.shell = None
        self._stop_browser()
        self._stop_server()
        if self.seating is not None:
            self.seating.cancel()
            self.seating = None

    # ------------------------------------------------------------------ the menu
    def menu(self) -> None:
        self.choices = []
        hosted = self.server.address[1] if self.server is not None else None
        for kept in kept_seats(self.data_dir, hosted):      # every seat kept at a server: straight back to it
            self.choices.append(Choice(kept.offer, lambda k=kept: self.rejoin(k)))
        self.choices.append(Choice("Play solo against Lorenzo il Magnifico (a new game)", self.new_solo))
        said = describe_solo_save(self.config, self.solo_path) if self.solo_path.exists() else None
        if said:
            self.choices.append(Choice(f"Continue the saved solo game. {said}", self.resume_solo))
        self.choices.append(Choice("Play against the computer (a new game)", self.ask_bots))
        bots_said, bots_problem = saved_summary(self.bots_path, self.config)
        if bots_said:
            self.choices.append(Choice(f"Continue the game against the computer. {bots_said}", self.resume_bots))
        elif bots_problem:
            self.say(bots_problem)
        self.choices += [Choice("Host a game on this network", self.ask_host),
                         Choice("Join a game on the network", self.join_menu),
                         Choice("Past games and replays", self.past_games),
                         Choice(f"Change your name (now {self.nickname})", self.ask_name),
                         Choice("Quit", self.quit)]
        self._list("Main menu. Say the number of your choice:")

    @property
    def seats_file(self) -> Path:
        """Where the seats at servers are kept (their tokens; beside them, the unfinished games)."""
        return seats_file(self.data_dir)

    def rejoin(self, kept: KeptSeat) -> None:
        """Back to a seat kept at a server, with its token (the server gives the seat back)."""
        self.nickname = kept.nickname
        self.seat(kept.host, kept.port, rejoin=kept)

    def ask(self, question: Question, then: Callable[[str], None]) -> None:
        """Put ``question`` (its answers numbered); the next line that names an answer calls
        ``then`` with its key (one that names none asks again)."""
        self.choices = []
        for text in question.lines():
            self.say(text)

        def answer(text: str) -> None:
            key = question.pick(text)
            if key is None:
                self.say(f"Say a number from 1 to {len(question.answers)}.")
                self.question = answer
                return
            then(key)
        self.question = answer

    def _list(self, head: str) -> None:
        self.say(head)
        for i, c in enumerate(self.choices):
            self.say(f"{i + 1}. {c.label}")

    def _menu_command(self, text: str) -> None:
        if not text:
            self._list("Say the number of your choice:")
            return
        word = text.split()[0].lower()
        if word in ("help", "?", "h"):
            self.say("Say the number of a choice of the list. Say menu for the main menu, quit to stop.")
            return
        if word in ("menu", "back"):
            self._stop_browser()
            self.menu()
            return
        if word in ("quit", "exit", "q"):
            self.quit()
            return
        if word.isdigit() and 1 <= int(word) <= len(self.choices):
            self.choices[int(word) - 1].do()
            return
        self.say(f"Say a number from 1 to {len(self.choices)}.")

    def quit(self) -> None:
        self.say("Goodbye.")
        self.done = True

    def hang_up(self, why: str) -> None:
        """The input has ended (Ctrl-D, the end of a script) or the player pressed Ctrl-C: say so,
        leave what is open as ``leave`` would (saying where the game stays), and say goodbye."""
        if self.done:
            return
        self.say(why)
        if self.shell is not None:
            self._leave_game(menu=False)
        self.quit()

    def ask_name(self) -> None:
        self.say(f"Your name is {self.nickname}. Type the new one (1 to 24 letters, digits or spaces):")

        def then(answer: str) -> None:
            name = validate_nickname(answer)
            if name is None:
                self.say(f"That cannot be a name: 1 to 24 letters, digits, spaces or punctuation. "
                         f"Your name stays {self.nickname}.")
            else:
                answer = name
                self.nickname = answer
                self.settings.nickname = answer
                try:
                    self.settings.save()
                except OSError as e:
                    log.warning("settings not saved: %s", e)
                self.say(f"Your name is now {answer}.")
            self.menu()
        self.question = then

    # ------------------------------------------------------------------ games on this machine
    def _open(self, session: GameSession) -> None:
        self._stop_browser()
        self.choices = []
        self.shell = GameShell(session, self.say, self.wake)
        hook = self.wake
        if hook is not None:
            session.match.on_message = hook
        self.shell.follow()

    def new_solo(self) -> None:
        """A new solo game; over a saved one, the player is asked first (continue it, or lose it)."""
        question = new_solo_question(self.config, self.solo_path)
        if question is None:
            self._start_solo()
            return

        def then(key: str) -> None:
            if key == "continue":
                self.resume_solo()
            elif key == "new":
                self._start_solo()
            else:
                self.say("Nothing was started: the saved game is kept.")
                self.menu()
        self.ask(question, then)

    def _start_solo(self) -> None:
        try:
            session = start_new_solo(self.config, self.solo_path, self.nickname)
        except GameNotOpened as e:
            self.say(f"The game could not start: {e}")
            self.menu()
            return
        self.say(f"A new solo game for {self.nickname}, against Lorenzo il Magnifico. It is saved as you play.")
        self._open(session)

    def resume_solo(self) -> None:
        try:
            session = open_solo(self.config, self.solo_path)
        except GameNotOpened as e:
            self.say(f"The saved game could not be opened: {e}. It is kept as it is.")
            self.menu()
            return
        self.say("The saved solo game, where you left it.")
        self._open(session)

    def ask_bots(self) -> None:
        """A new game against the computer; over a saved one, the player is asked first."""
        question = new_versus_question(self.config, self.bots_path)
        if question is None:
            self._ask_levels()
            return

        def then(key: str) -> None:
            if key == "continue":
                self.resume_bots()
            elif key == "new":
                self._ask_levels()
            else:
                self.say("Nothing was started: the saved game is kept.")
                self.menu()
        self.ask(question, then)

    def _ask_levels(self) -> None:
        self.say("How many computer players, and how strong? Say a number from 1 to 3 and a level "
                 "(easy, medium or hard), for example 2 medium:")

        def then(answer: str) -> None:
            words = answer.lower().split()
            if not words or not words[0].isdigit() or not 1 <= int(words[0]) <= 3:
                self.say("Say a number from 1 to 3 first.")
                self.menu()
                return
            level = next((lv for lv in LEVELS if len(words) > 1 and lv.startswith(words[1])), "medium")
            try:
                session = open_bots(self.config, self.bots_path, self.pace, self.nickname, [level] * int(words[0]))
            except GameNotOpened as e:
                self.say(f"The game could not start: {e}")
                self.menu()
                return
            self.say(f"A new game against {words[0]} {level} computer player{'s' * (int(words[0]) > 1)}.")
            self._open(session)
        self.question = then

    def resume_bots(self) -> None:
        try:
            session = open_bots(self.config, self.bots_path, self.pace)
        except GameNotOpened as e:
            self.say(f"The saved game could not be opened: {e}. It is kept as it is.")
            self.menu()
            return
        self.say("The game against the computer, where you left it.")
        self._open(session)

    def _leave_game(self, menu: bool = True) -> None:
        shell = self.shell
        self.shell = None
        if shell is not None:
            shell.close()
            g = shell.session.vm.game
            remote = shell.session.remote
            shell.session.close()
            if remote:
                self.say("You left the table." + ("" if g is None or g.get("ended") or self.server is not None
                                                  else " The server keeps your seat: Return to your game, in the "
                                                       "menu, takes you back to it."))
            else:
                self.say("You left the game." + ("" if g is None or g.get("ended") else " It is saved."))
        if self.server is not None:
            self.say("Your table's server stops with you: the others at it are disconnected.")
        self._stop_server()
        tables, self._from_tables = self._from_tables, None
        if menu and tables is not None and shell is not None and shell.session.remote and g is None:
            self.say("Back to the tables.")      # left a waiting room reached from a server's tables
            self.show_tables(hostport(*tables))
        elif menu:
            self.menu()

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
                self.say("No table opened: your LAN game is kept.")
                self.menu()
        self.ask(question, then)

    def _host(self, port: int | None) -> None:
        from game.client.address import PORT_REFUSED, describe_bind_error
        from game.client.lan import lan_addresses
        port = self.settings.server_port if port is None else port
        data = server_folder(self.data_dir)
        try:
            self.server = start_hosting(self.config, port, self.data_dir, self.nickname, self.pace)
        except OSError as e:
            # a port refused is often another program's (another game's): another one, asked here
            self.say(describe_bind_error(e, port, data, remedy="Say another port to host on (1024 to 65535), "
                                                               "press Enter for any free port, or say menu."))
            if e.errno in PORT_REFUSED:
                self.question = self._host_port_answer
            return
        port = self.server.address[1]
        where = ", ".join(f"{a}:{port}" for a in lan_addresses()) or f"this computer, port {port}"
        self.say(f"Your table is open on this network; friends join it at {where}, or find it in their list.")
        self._join_own_table(port)

    def _host_port_answer(self, text: str) -> None:
        if not text:
            self._host(0)
        elif text.isdigit() and 1024 <= int(text) <= 65535:
            self._host(int(text))
        elif text.lower() in ("menu", "back", "cancel"):
            self.menu()
        else:
            self.say("Say a port from 1024 to 65535, press Enter for any free port, or say menu.")
            self.question = self._host_port_answer

    def join_menu(self) -> None:
        from game.client.lan import Browser
        if self.browser is None:
            try:
                self.browser = Browser()
            except OSError as e:
                self.say(f"Cannot look for tables on this network: {e}.")
        self.say("Looking for tables on this network… Say list to see what is found, or type an address "
                 f"(host or host:port; the port is {GAME_PORT} if you leave it out) to join its waiting room, "
                 "or tables and an address for a server's named tables. Say menu to go back.")
        self.choices = []
        self.question = self._join_answer

    def _join_answer(self, text: str) -> None:
        word = text.lower()
        if word in ("menu", "back", ""):
            self._stop_browser()
            self.menu()
            return
        if word == "list":
            games = self.browser.games() if self.browser is not None else []
            if not games:
                problem = getattr(self.browser, "problem", None)
                self.say(problem or "No table found yet. Say list again in a moment, or type an address.")
            else:
                self.say("Tables found (say the number to join one):")
                for i, g in enumerate(games):
                    self.say(f"{i + 1}. {g.label}, at {g.address}:{g.port}" + (", encrypted" if g.info.tls else ""))
            self.found = games
            self.question = self._join_answer
            return
        if word.isdigit() and 1 <= int(word) <= len(getattr(self, "found", [])):
            g = self.found[int(word) - 1]
            self._stop_browser()
            self.seat(g.address, g.port, tls_port=g.info.tls or None)   # announced TLS: asked there at once
            return
        if word.split()[0] == "tables":
            self.show_tables(text.split(None, 1)[1] if len(text.split()) > 1 else "")
            return
        self._stop_browser()
        self.join_address(text)

    def join_address(self, text: str) -> None:
        from game.client.address import parse_address
        try:
            host, port = parse_address(text, GAME_PORT)
        except ValueError as e:
            self.say(str(e))
            self.menu()
            return
        self.seat(host, port)

    # a server's tables ----------------------------------------------------------------
    def show_tables(self, address: str) -> None:
        """The open tables of the server at ``address``, numbered, and how to sit at one."""
        from game.client.address import describe_connect_error, parse_address
        from game.client.security import identity_warning
        from game.client.tables import NoTables, list_tables
        if address or self._tables_at is None:
            try:
                host, port = parse_address(address, GAME_PORT)
            except ValueError as e:
                self.say(f"{e} (Say tables and the server's address.)")
                self.question = self._join_answer
                return
        else:
            host, port = self._tables_at
        self._tables_at, self._tables_tls = (host, port), None
        try:
            listing = list_tables(host, port)
        except NoTables as e:
            self.say(f"{e} Say quick for it, or menu.")
            self.question = lambda answer: self._tables_answer(host, port, [], answer)
            return
        except OSError as e:
            warning = identity_warning(e)
            self.say(warning.line if warning else describe_connect_error(e, host, port))
            self.question = self._join_answer
            return
        where = hostport(host, port)
        if listing.link is not None and listing.link.first_meeting:   # a server met for the first time
            self.say(f"{listing.link.line} Its certificate is remembered: you will be warned if it changes.")
        if not listing.tables:
            self.say(f"No table is open at {where}.")
        else:
            more = f" (the first {len(listing.tables)} of {listing.total})" if listing.more else ""
            self.say(f"Tables open at {where}{more}:")
            for i, t in enumerate(listing.tables):
                host_words = f", opened by {t.host}" if t.host else ""
                private = " Private: it needs its invite code." if t.private else ""
                self.say(f"{i + 1}. {t.name}{host_words}: {t.seats_words}.{private}")
        queue = (f"{listing.waiting} waiting" + (f" for a game of {listing.queue_count}" if listing.queue_count else "")
                 if listing.waiting else "nobody waiting yet")
        self.say(("Say a number to sit at a table, " if listing.tables else "Say ")
                 + "new and a name to open one (new Ada's game 3 private: 3 seats, by invite code), "
                 f"code and an invite code for a private table, quick for the Quick game ({queue}), "
                 "tables to look again, or menu.")
        self._tables_tls = listing.tls_port    # where it speaks TLS: a seat is asked there at once
        self.question = lambda answer: self._tables_answer(host, port, list(listing.tables), answer)

    def _tables_answer(self, host: str, port: int, tables: list, text: str) -> None:
        words = text.split()
        word = words[0].lower() if words else "tables"
        again = lambda: setattr(self, "question", lambda a: self._tables_answer(host, port, tables, a))  # noqa: E731
        if word in ("menu", "back"):
            self._stop_browser()
            self.menu()
        elif word in ("tables", "list"):
            self.show_tables("")
        elif word == "quick":
            self.seat(host, port, tls_port=self._tables_tls, from_tables=True)
        elif word == "code" and len(words) > 1:
            self.seat(host, port, code=words[1], tls_port=self._tables_tls)
        elif word == "new" and len(words) > 1:
            rest = words[1:]
            private = rest[-1].lower() == "private"
            if private:
                rest = rest[:-1]
            seats = 2
            if len(rest) > 1 and rest[-1].isdigit():
                seats, rest = int(rest[-1]), rest[:-1]
            if not 2 <= seats <= 4 or not rest:
                self.say("Say new, the table's name, its seats (2 to 4) and private if you like: new Ada's game 3.")
                again()
                return
            self.seat(host, port, create=" ".join(rest), players=seats, private=private, tls_port=self._tables_tls)
        elif word.isdigit() and 1 <= int(word) <= len(tables):
            t = tables[int(word) - 1]
            if t.private:
                self.say(f"{t.name} is private: say code and its invite code (its host has it).")
                again()
                return
            self.seat(host, port, name=t.name, tls_port=self._tables_tls)
        else:
            self.say("Say a table's number, new and a name, code and an invite code, quick, tables, or menu.")
            again()

    def seat(self, host: str, port: int, **where: Any) -> None:
        """Connect to the server at ``host:port`` and ask for a seat (see
        :func:`game.client.tables.join`: a table by ``name``, ``code``, a new one ``create``, or
        the waiting room); :meth:`tick` follows the answer."""
        from game.client.tables import Seating
        self._stop_browser()
        self.choices = []
        rejoin = where.pop("rejoin", None)             # a kept seat asked back (see rejoin)
        from_tables = where.pop("from_tables", False)  # asked from the list of a server's tables
        checked = where.pop("checked", False)          # the player was asked about a seat kept there
        at_table = bool(where.keys() - {"tls_port"})   # a table asked for (else the waiting list)
        again = (self.menu if rejoin else
                 (lambda: self.show_tables(hostport(host, port))) if at_table or from_tables else self.join_menu)
        kept = None if rejoin is not None or checked else kept_seat_at(self.data_dir, host, port, self.nickname)
        if kept is not None:     # the server would give that seat back, whatever is asked: say so first
            asked = asked_words(**where)

            def then(key: str) -> None:
                if key == "return":
                    self._back_to_kept = True
                elif key == "other":
                    self.nickname = another_nickname(kept.nickname)
                else:
                    self.say("Not joined: your seat in that game stays kept.")
                    again()
                    return
                self.seat(host, port, checked=True, from_tables=from_tables, **where)
            self.ask(seat_question(kept, asked), then)
            return
        self.say(f"Connecting to {hostport(host, port)}…")
        self._rejoin = rejoin
        self._asked = None if rejoin is not None else asked_words(**where)
        self._from_tables = (host, port) if at_table or from_tables else None
        self.seating = Seating(host, port, self.nickname, self.config, self.wake, token_file=self.seats_file, **where)
        self._seat_again = again
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
            back, self._back_to_kept = self._back_to_kept, False
            why = why_seated(self._asked, back, session.vm.has_game, seating.where)
            if why:             # not what was asked for: why the player sits there
                self.say(why)
            if session.link is not None:     # encrypted (and to whom) or not, said once; "server" says it again
                self.say(session.link.line)
            table = session.lobby.table
            if table:
                code = table.get("code") if table.get("private") else None
                self.say(f"You sit at the table {table.get('name')}."
                         + (f" It is private: its invite code is {code}, to give to the others." if code else ""))
            self._open(session)
        elif state == "failed":
            self.seating = None
            # a server that is not the one met there before: the warning, and what to do
            self.say(seating.warning.line if seating.warning else seating.error or "The server did not take you.")
            self._back_to_kept = False
            self._seat_again()

    def _join_own_table(self, port: int) -> None:
        from game.client.address import describe_connect_error
        self.say(f"Connecting to {hostport('127.0.0.1', port)}…")
        try:
            session = join_own_table(port, self.nickname, self.config, connect_timeout=5, token_file=self.seats_file)
        except OSError as e:
            self.say(describe_connect_error(e, "127.0.0.1", port))
            self._stop_server()
            self.menu()
            return
        self.say("Connected. Waiting for the table (say players N to choose how many play, if you are asked).")
        self._open(session)

    def _stop_browser(self) -> None:
        if self.browser is not None:
            self.browser.close()
            self.browser = None

    def _stop_server(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None

    # ------------------------------------------------------------------ past games
    def past_games(self) -> None:
        from game.client.replay import past_games
        games = past_games(self.data_dir)
        if not games:
            self.say("No finished game on this machine yet.")
            return
        self.choices = []
        for g in games[:20]:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.when))
            self.choices.append(Choice(f"{g.title} ({when}; {g.result})", lambda g=g: self.open_replay(g.path)))
        self._list("Finished games, newest first (say a number to replay one, menu to go back):")

    def open_replay(self, path: Path) -> None:
        from game.client.replay import ReplayError, open_replay
        try:
            self.replay = open_replay(path, self.config, self.nickname)
        except ReplayError as e:
            self.say(str(e))
            return
        from game.client.replay import ReplayFeed
        feed = ReplayFeed(self.replay.viewer, self.replay.bots)
        self.replay_session = GameSession(feed, self.replay.config, self.replay.viewer)
        self.replay_shell = GameShell(self.replay_session, self.say)
        self.choices = []
        self.say(f"A replay of {len(self.replay)} moves. Say next (or Enter), back, turn, start, end to move "
                 "through it; market, board, score and the other questions answer at each step; leave to stop.")
        self._replay_at(0)

    def _replay_at(self, step: int) -> None:
        self.replay_step = max(0, min(step, len(self.replay)))
        self.replay_session.match.out.append(self.replay.view_at(self.replay_step))
        self.replay_session.pump()
        lines = self.replay.lines_until(self.replay_step)
        self.replay_session.log = lines
        self.say(f"Move {self.replay_step} of {len(self.replay)}." + (f" {lines[-1]}" if lines and self.replay_step
                                                                    else " The table as dealt."))

    def _replay_command(self, text: str) -> None:
        word = text.split()[0].lower() if text else "next"
        if word in ("leave", "quit", "menu", "q"):
            self.replay = None
            self.menu()
        elif word in ("next", "n"):
            self._replay_at(self.replay_step + 1)
        elif word in ("back", "b", "previous"):
            self._replay_at(self.replay_step - 1)
        elif word == "turn":
            self._replay_at(self.replay.next_turn(self.replay_step))
        elif word == "start":
            self._replay_at(0)
        elif word == "end":
            self._replay_at(len(self.replay))
        elif word in REPLAY_QUESTIONS:
            self.replay_shell.ask(text)       # a question only: a replay has no moves of its own
        elif word in ("help", "?", "h"):
            self.say("In a replay: next (or Enter) and back go one move, turn to the next turn, start and end to "
                     "either end; the questions " + ", ".join(REPLAY_QUESTIONS) + " answer at each move; leave "
                     "goes back to the menu.")
        else:
            self.say("Say next, back, turn, start, end, a question (market, board, score and the others), or leave.")

