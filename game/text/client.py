"""The text client: the title page's choices as a numbered menu, then a game in typed commands.

:class:`TextClient` takes one typed line at a time (:meth:`TextClient.line`) and says everything
through ``say`` (one call per line of output); :meth:`TextClient.tick` takes what arrived from the
game. It never reads the terminal itself (:mod:`game.text.terminal` does), so tests drive it
directly, and through a real pseudo-terminal. Here: the menu, the games on this machine, leaving
a game; hosting, joining and the seats at servers are :mod:`.network`'s, a game in commands
:mod:`.play`'s, a replay :mod:`.replay_reader`'s.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from game.client.address import hostport
from game.client.flow.hosting import people_at, quitting_question, server_folder
from game.client.flow.local import new_solo_question, new_versus_question, start_new_solo
from game.client.flow.questions import Question
from game.client.flow.seats import KeptSeat, kept_seats
from game.client.games import (GameNotOpened, bots_save_path, default_config, describe_solo_save, open_bots,
                               open_solo, saved_opponents)
from game.client.lan import saved_hosted_games
from game.client.links import Link
from game.client.session import GameSession
from game.client.words import bot_level, validate_nickname
from game import i18n
from game.i18n import _, ngettext
from game.settings import BOT_PACES, Settings, data_dir

from .describe import spoken
from .my_games import MyGamesText
from .network import Network
from .play import GameShell
from .replay_reader import WORDS as REPLAY_WORDS
from .replay_reader import ReplayReader
from .vocabulary import BACK_WORDS
from .watch import WATCHING_WORDS, Watches, WatchReader

log = logging.getLogger("mor.text")
Say = Callable[[str], None]
LEVELS = ("easy", "medium", "hard")
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
    link: Link | None = None
    """A game link opened from the command line (``mor-text mor://HOST:PORT``): joined at once."""


class TextClient(Network, Watches, MyGamesText):
    """The menu, and the game once one is open (see the module docstring)."""

    def __init__(self, say: Say, options: Options | None = None, wake: Callable[[], None] | None = None) -> None:
        self.say: Say = lambda line: say(spoken(line))     # every line, the board's signs in words
        self.wake = wake
        self.options = options or Options()
        self.settings = self.options.settings or Settings.load()
        self.settings.speak(i18n.current())     # (a fresh install's drawn name, in the language spoken)
        self.config = default_config()
        self.data_dir = self.options.data_dir or data_dir()
        self.nickname = (self.options.nickname or self.settings.nickname or "Player").strip()
        self.shell: GameShell | None = None
        self.choices: list[Choice] = []
        self.question: Callable[[str], None] | None = None   # the next line answers a question
        self.done = False
        self.server: Any = None              # the LAN server this client hosts, while it does
        self.browser: Any = None             # looking for LAN tables, while the join list is up
        self.replay: ReplayReader | None = None   # a finished game being read again
        self.seating: Any = None             # a seat being asked for (game.client.tables.Seating)
        self._tables_at: tuple[str, int] | None = None   # the server whose tables were listed last
        self._tables_tls: int | None = None               # where that server speaks TLS (None: it does not)
        self._rejoin: KeptSeat | None = None              # the kept seat being asked back, while it is
        self._asked: str | None = None                    # what the seat being asked for is, in words
        self._back_to_kept = False                         # the player chose to go back to a kept seat
        self._from_tables: tuple[str, int] | None = None  # the seat was asked from a server's tables
        self._port_said: str | None = None   # what was last said of the hosted port at the router
        self._lan: list[str] = []            # this computer's LAN addresses, when it hosts
        self._playing: list = []                          # the games being played there, to watch
        self.watching: Any = None                         # a watch being asked for (game.client.watching.Watching)
        self.reader: WatchReader | None = None            # a table being watched
        self._watch_from: tuple[str, int] = ("", 0)       # the server whose table is watched

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
        self.say(_("Masters of Renaissance, in words. Type help at any time; a number chooses from a list."))
        self.start_turn_news()
        if self.options.link is not None:   # the Join step, with the link's address (and code) given
            self.say(_("Opening the link {link}.").format(link=self.options.link))
            self.join_address(str(self.options.link))
            return
        self.menu()

    def tick(self) -> None:
        """What arrived from the game (or the network's list of tables), said."""
        self.follow_port()
        self.follow_turn_news()
        if self.shell is not None:
            self.shell.follow()
            if self.shell.left:
                self.leave_table()
        elif self.reader is not None:
            self.reader.follow()
        elif self.watching is not None:
            self.follow_watching()
        else:
            self._follow_seating()

    def line(self, text: str) -> None:
        """One typed line."""
        if len(text) > LONGEST:       # (never read back whole: a screen reader would read it all)
            self.say(_("That line is too long ({n} characters): nothing was done. Say help for the commands.").format(n=len(text)))
            return
        if self.question is not None:
            ask, self.question = self.question, None
            ask(text.strip())
            return
        if self.shell is not None:
            self.shell.command(text)
            if self.shell is not None and self.shell.left:
                self.leave_table()
            return
        if self.reader is not None:
            self.reader.command(text.strip())
            if self.reader.left:
                self.leave_watch()
            return
        if self.watching is not None:
            self.say(_("Still connecting to {where} to watch.").format(where=self.watching.where))
            return
        if self.replay is not None:
            if not self.replay.command(text.strip()):
                self.replay = None
                self.menu()
            return
        if self.seating is not None:
            if text.strip().lower() in BACK_WORDS:
                self.seating.cancel()
                self.seating = None
                self.say(_("Not joined."))
                self.menu()
            else:
                self.say(_("Still connecting to {where} (say cancel to give up).").format(where=self.seating.where))
            return
        self._menu_command(text.strip())

    def words(self) -> list[str]:
        """The words that complete now."""
        if self.shell is not None:
            return self.shell.words()
        if self.replay is not None:
            return list(REPLAY_WORDS)
        if self.reader is not None:
            return list(WATCHING_WORDS)
        return ["help", "menu", "quit", *(str(i + 1) for i in range(len(self.choices)))]

    def close(self) -> None:
        self.stop_turn_news()
        if self.shell is not None:
            self.shell.close()
            self.shell.session.close()
            self.shell = None
        if self.reader is not None:
            self.reader.close()
            self.reader = None
        self._stop_browser()
        self._stop_server()
        if self.seating is not None:
            self.seating.cancel()
            self.seating = None

    # ------------------------------------------------------------------ the menu
    def menu(self) -> None:
        self.choices = []
        hosted = self.server.address[1] if self.server is not None else None
        if self.server is None and saved_hosted_games(server_folder(self.data_dir), self.nickname):
            # the LAN game this computer hosted, kept unfinished: hosting it again brings it back
            self.choices.append(Choice(_("Return to your LAN game (host it again and take your seat back)"),
                                       lambda: self._host(None)))
        for kept in kept_seats(self.data_dir, hosted):      # every seat kept at a server: straight back to it
            self.choices.append(Choice(kept.offer, lambda k=kept: self.rejoin(k)))
        self.choices.append(Choice(_("Play solo against Lorenzo il Magnifico (a new game)"), self.new_solo))
        said = describe_solo_save(self.config, self.solo_path) if self.solo_path.exists() else None
        if said:
            self.choices.append(Choice(_("Continue the saved solo game. {said}").format(said=said), self.resume_solo))
        self.choices.append(Choice(_("Play against the computer (a new game)"), self.ask_bots))
        bots_names, bots_problem = saved_opponents(self.bots_path, self.config)
        if bots_names:
            self.choices.append(Choice(_("Continue the saved game against {names}.").format(names=bots_names),
                                       self.resume_bots))
        elif bots_problem:
            self.say(bots_problem)
        if self.server is not None:       # the host left the table, the others play on
            port = self.server.address[1]
            self.choices += [Choice(_("Return to your LAN game (your table on this computer)"),
                                    lambda: self._join_own_table(port)),
                             Choice(_("Stop hosting (the others at your table are disconnected)"), self.stop_hosting)]
        else:
            self.choices.append(Choice(_("Host a game on this network"), self.ask_host))
        self.choices += [Choice(_("Join a game on the network"), self.join_menu),
                         Choice(_("Past games and replays"), self.past_games),
                         Choice(_("Change your name (now {nickname})").format(nickname=self.nickname), self.ask_name),
                         Choice(_("Quit"), self.quit)]
        self._list(_("Main menu. Say the number of your choice:"))

    def ask(self, question: Question, then: Callable[[str], None]) -> None:
        """Put ``question`` (its answers numbered); the next line that names an answer calls
        ``then`` with its key (one that names none asks again)."""
        self.choices = []
        for text in question.lines():
            self.say(text)

        def answer(text: str) -> None:
            key = question.pick(text)
            if key is None:
                self.say(_("Say a number from 1 to {n}.").format(n=len(question.answers)))
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
            self._list(_("Say the number of your choice:"))
            return
        word = text.split()[0].lower()
        if word in ("help", "?", "h"):
            self.say(_("Say the number of a choice of the list. Say menu for the main menu, quit to stop."))
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
        self.say(_("Say a number from 1 to {n}.").format(n=len(self.choices)))

    def quit(self) -> None:
        """Quit; a host whose table has other people at it is asked first."""
        question = quitting_question(people_at(self.server, self.nickname))
        if question is None:
            self._goodbye()
            return

        def then(key: str) -> None:
            if key == "quit":
                self._goodbye()
            else:
                self.menu()
        self.ask(question, then)

    def _goodbye(self) -> None:
        self.say(_("Goodbye."))
        self.done = True

    def hang_up(self, why: str) -> None:
        """The input has ended (Ctrl-D, the end of a script) or the player pressed Ctrl-C: say so,
        leave what is open as ``leave`` would (saying where the game stays), and say goodbye."""
        if self.done:
            return
        self.say(why)
        if self.shell is not None:
            self._leave_game(menu=False)
        self._goodbye()

    def ask_name(self) -> None:
        self.say(_("Your name is {nickname}. Type the new one (1 to 24 letters, digits, spaces or punctuation), "
                   "or press Enter to keep it:").format(nickname=self.nickname))
        self.question = self._name_answer

    def _name_answer(self, answer: str) -> None:
        """A new name; Enter (or menu) keeps the old one, a name that cannot be one is asked again."""
        if not answer or answer.lower() in BACK_WORDS:
            self.say(_("Your name stays {nickname}.").format(nickname=self.nickname))
            self.menu()
            return
        name = validate_nickname(answer)
        if name is None:
            self.say(_("That cannot be a name: 1 to 24 letters, digits, spaces or punctuation. Type another, "
                       "or press Enter to keep {nickname}.").format(nickname=self.nickname))
            self.question = self._name_answer
            return
        self.nickname = name
        self.settings.nickname = name
        try:
            self.settings.save()
        except OSError as e:
            log.warning("settings not saved: %s", e)
        self.say(_("Your name is now {answer}.").format(answer=name))
        self.menu()

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
                self.say(_("Nothing was started: the saved game is kept."))
                self.menu()
        self.ask(question, then)

    def _start_solo(self) -> None:
        try:
            session = start_new_solo(self.config, self.solo_path, self.nickname)
        except GameNotOpened as e:
            self.say(_("The game could not start: {e}").format(e=e))
            self.menu()
            return
        self.say(_("A new solo game for {nickname}, against Lorenzo il Magnifico. It is saved as you play.").format(nickname=self.nickname))
        self._open(session)

    def resume_solo(self) -> None:
        try:
            session = open_solo(self.config, self.solo_path)
        except GameNotOpened as e:
            self.say(_("The saved game could not be opened: {e}. It is kept as it is.").format(e=e))
            self.menu()
            return
        self.say(_("The saved solo game, where you left it."))
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
                self.say(_("Nothing was started: the saved game is kept."))
                self.menu()
        self.ask(question, then)

    def _ask_levels(self) -> None:
        self.say(_("How many computer players, and how strong? Say a number from 1 to 3 and a level "
                 "(easy, medium or hard), for example 2 medium; or say menu to go back:"))
        self.question = self._levels_answer

    def _levels_answer(self, answer: str) -> None:
        """The number of computer players and their level; a wrong answer is said and asked again."""
        words = answer.lower().split()
        if words and words[0] in BACK_WORDS:
            self.menu()
            return
        said = words[1] if len(words) > 1 else None     # a level, as typed or in the player's words
        level = next((lv for lv in LEVELS if said and (lv.startswith(said) or bot_level(lv).startswith(said))),
                     None if said else "medium")
        if not words or not words[0].isdigit() or not 1 <= int(words[0]) <= 3:
            self.say(_("Say a number of computer players from 1 to 3, then a level (easy, medium or hard), "
                       "for example 2 medium; or say menu to go back."))
        elif level is None or len(words) > 2:
            self.say(_("'{said}' is not a level: say easy, medium or hard after the number, for example "
                       "{n} medium; or say menu to go back.").format(said=" ".join(words[1:]), n=words[0]))
        else:
            self._start_bots(int(words[0]), level)
            return
        self.question = self._levels_answer

    def _start_bots(self, n: int, level: str) -> None:
        try:
            session = open_bots(self.config, self.bots_path, self.pace, self.nickname, [level] * n)
        except GameNotOpened as e:
            self.say(_("The game could not start: {e}").format(e=e))
            self.menu()
            return
        self.say(ngettext("A new game against {n} {level} computer player.",
                          "A new game against {n} {level} computer players.", n).format(
            n=n, level=bot_level(level)))
        self._open(session)

    def resume_bots(self) -> None:
        try:
            session = open_bots(self.config, self.bots_path, self.pace)
        except GameNotOpened as e:
            self.say(_("The saved game could not be opened: {e}. It is kept as it is.").format(e=e))
            self.menu()
            return
        self.say(_("The game against the computer, where you left it."))
        self._open(session)

    def _leave_game(self, menu: bool = True, stop_server: bool = True) -> None:
        """Close the game open (``menu``: then show the menu, or the server's tables it was asked
        from); the server this computer hosts stops too, unless ``stop_server`` is False."""
        shell = self.shell
        self.shell = None
        if shell is not None:
            shell.close()
            g = shell.session.vm.game
            remote = shell.session.remote
            shell.session.close()
            if remote:
                if g is None or g.get("ended") or self.server is not None:
                    self.say(_("You left the table."))
                else:
                    self.say(_("You left the table. The server keeps your seat: Return to your game, in the menu, "
                               "takes you back to it."))
            elif g is None or g.get("ended"):
                self.say(_("You left the game."))
            else:
                self.say(_("You left the game. It is saved."))
        if self.server is not None and not stop_server:
            self.say(_("Your table stays open on this computer: the others play on, and your turns are skipped "
                     "until you return (Return to your LAN game, in the menu; Stop hosting ends it)."))
        elif self.server is not None:
            self.say(_("Your table's server stops with you: the others at it are disconnected."))
            self._stop_server()
        tables, self._from_tables = self._from_tables, None
        if menu and tables is not None and shell is not None and shell.session.remote and g is None:
            self.say(_("Back to the tables."))      # left a waiting room reached from a server's tables
            self.show_tables(hostport(*tables))
        elif menu:
            self.menu()

    # ------------------------------------------------------------------ past games
    def past_games(self) -> None:
        from game.client.replay import past_games
        games = past_games(self.data_dir)
        if not games:
            self.say(_("No finished game on this machine yet."))
            self.menu()         # (where the player is, said: a screen reader heard nothing more)
            return
        self.choices = []
        for g in games[:20]:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.when))
            self.choices.append(Choice(f"{g.title} ({when}; {g.result})", lambda g=g: self.open_replay(g.path)))
        self._list(_("Finished games, newest first (say a number to replay one, menu to go back):"))

    def open_replay(self, path: Path) -> None:
        from game.client.replay import ReplayError, open_replay
        try:
            replay = open_replay(path, self.config, self.nickname)
        except ReplayError as e:
            self.say(str(e))
            return
        self.choices = []
        self.replay = ReplayReader(replay, self.say)
        self.replay.start()
