"""The questions a player asks of a game in typed commands (market, grid, board, leaders, track,
lorenzo, score, turn, server, log, help): each says part of the table in words and changes nothing,
so a replay answers them too."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from game.client.session import ChatLine
from game.i18n import _

from . import describe as D
from .vocabulary import ALIASES, ACTIONS, HELP, PLAN_EDITS, QUERIES, Refused

if TYPE_CHECKING:
    from game.client.session import GameSession

    from .news import News


def _table(describe: Callable[[Any], list[str]]) -> Callable[["Queries", list[str]], None]:
    """A question that says one part of the table (a function of :mod:`.describe`), once there is a game."""
    def ask(self: "Queries", args: list[str]) -> None:
        self._game()
        self._lines(describe(self.session))
    ask.__doc__ = describe.__doc__
    return ask


class Queries:
    """The questions' commands, for :class:`~game.text.play.GameShell` (``do_`` + the command's
    name, given the words typed after it)."""

    session: "GameSession"
    news: "News"
    say: Callable[[str], None]
    vm: Any

    # queries ------------------------------------------------------------
    def _game(self) -> None:
        if self.vm.game is None:
            raise Refused(_("There is no game yet: waiting for it to start."))

    def _lines(self, lines: list[str]) -> None:
        for line in lines:
            self.say(line)

    do_market = _table(D.market)
    do_grid = _table(D.grid)
    do_leaders = _table(D.leaders)
    do_track = _table(D.track)
    do_lorenzo = _table(D.lorenzo)
    do_score = _table(D.score)

    def do_board(self, args: list[str]) -> None:
        self._game()
        if not args:
            self._lines(D.board(self.session))
            return
        name = " ".join(args)
        nicks = [p["nickname"] for p in self.vm.game["players"]]
        if len(nicks) == 1 and len(name) >= 3 and "lorenzo il magnifico".startswith(name.lower()):
            self._lines(D.lorenzo(self.session))    # (Lorenzo has no board: his cross and tokens)
            return
        said = {n: {n.lower(), self.session.shown_name(n).lower()} for n in nicks}   # a bot by either name
        found = [n for n in nicks if name.lower() in said[n]] or \
            [n for n in nicks if any(x.startswith(name.lower()) for x in said[n])]
        if len(found) != 1:
            raise Refused(_("No player called {name} at this table: {players}.").format(
                name=repr(name), players=D.joined([self.session.shown_name(n) for n in nicks])))
        self._lines(D.board(self.session, found[0]))

    def do_turn(self, args: list[str]) -> None:
        self.say(self._turn_words())

    def _turn_words(self) -> str:
        """Whose turn it is and what to do; before the game, the waiting room and its invite code."""
        s = self.session
        lost = self.news.connection_words()
        if lost is not None:
            return lost
        if s.vm.game is not None or not s.remote:
            return D.turn(s)
        table = s.lobby.table or {}
        code = " " + _("Its invite code is {code}.").format(code=table.get("code")) \
            if table.get("private") and table.get("code") else ""
        at = _("At the table {name}.").format(name=table.get("name")) + code + " " if table.get("name") else ""
        return at + self.news.waiting_words()

    def do_server(self, args: list[str]) -> None:
        link = self.session.link
        if link is None:
            self.say(_("This game is played on this machine: nothing of it crosses a network."))
            return
        # (not encrypted: the details begin with it, the line would say it twice)
        said = f"{link.line} {link.details}" if link.fingerprint else link.details
        self.say(said.replace("\n", " "))

    def do_log(self, args: list[str]) -> None:
        n = 10
        if args:
            try:
                n = max(1, int(args[0]))
            except ValueError:
                raise Refused(_("{word} is not a number: say log, or log and how many lines.").format(
                    word=repr(args[0]))) from None
        lines = self.session.log[-n:]
        if not lines:
            self.say(_("Nothing has happened yet."))
        for line in lines:
            self.say(_("Chat: {line}").format(line=line) if isinstance(line, ChatLine) else line)

    def do_help(self, args: list[str]) -> None:
        if args:
            name = ALIASES.get(args[0].lower(), args[0].lower())
            h = HELP.get(name)
            if h is None:
                raise Refused(_("No command {word}. Say help for the commands.").format(word=repr(args[0])))
            self.say(f"{h.usage}: {_(h.text)}")
            return
        self.say(_("Questions, at any time: {commands}.").format(commands=", ".join(QUERIES)))
        self.say(_("Actions, each said first and done when you press Enter: {commands}.").format(
            commands=", ".join(ACTIONS)))
        self.say(_("While arranging a market take, a purchase or productions: {commands}. Then Enter sends it, "
                   "cancel drops it.").format(commands=", ".join(PLAN_EDITS)))
        self.say(_("Say help and a command for more, for example help take. Say leave to leave the game."))
