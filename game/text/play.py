"""A game in typed commands: the queries, the actions and what others do, over one
:class:`~game.client.session.GameSession`.

:class:`GameShell` takes a line (:meth:`GameShell.command`) and says what it does through
``say``; :meth:`GameShell.follow` takes what arrived from the match (others' moves, refusals,
the player's turn, the end) and says it. An action is said before it is sent and waits for
Enter (an empty line): the plan it builds is the board's own (:class:`~game.client.board_input.BoardInput`
with the same targets a click gives), so every refusal is in the board's words. The rules are
never asked here but through the session and the plans.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any, Callable

from game.client import board_input as BI
from game.client.board_input import RESOURCES, BoardInput
from game.client.flow.presence import AwayNews, stopped_heading, stopped_words
from game.client.hint import Hinter, HintPlan
from game.client.notices import ConnectionLost, LobbyRefused, ReconnectFailed, Said, TurnStarted
from game.client.plans import BuyPlan, MarketPlan, ProductionPlan
from game.client.greyed import greyed_words
from game.client.session import ChatLine, GameSession
from game.client.words import leader_words

from . import describe as D

log = logging.getLogger("mor.text")

Say = Callable[[str], None]
RECAP = 12
"""The lines of the log said on coming back to a game (a resumed save, a seat taken back)."""
COLOURS = ("Green", "Blue", "Yellow", "Purple")


_CLICKS = re.compile(r"click (?P<a>shelf \d|the \w+ depot), then (?P<b>shelf \d|the \w+ depot), to move")


def typed(words: str, me: dict) -> str:
    """The board's words for a plan, with its clicks said as the commands that do the same
    ("click shelf 3, then shelf 2, to move both" → "say move 3 2 to move both")."""
    def place(name: str) -> str:
        return name.removeprefix("shelf ") if name.startswith("shelf ") else name
    return _CLICKS.sub(lambda m: f"say move {place(m['a'])} {place(m['b'])} to move", words)


class Refused(Exception):
    """A command that cannot be done as typed: the message says why, in words."""


@dataclass
class Help:
    usage: str
    text: str


QUERIES: dict[str, Help] = {
    "market": Help("market", "The market's marbles, row by row and column by column, and what each line gives you."),
    "grid": Help("grid", "The development cards on sale, by level and colour: points, cost, production, "
                         "and whether you can buy them."),
    "board": Help("board [NAME]", "Your board (or another player's): points, faith, shelves, strongbox, "
                                  "card slots and leaders in play."),
    "leaders": Help("leaders", "Your leaders, numbered, with what they do and need; others' leaders in play."),
    "track": Help("track", "The faith track: where everyone is, the Vatican reports, your next points."),
    "lorenzo": Help("lorenzo", "Solo: Lorenzo's black cross and his tokens."),
    "log": Help("log [N]", "The last N lines of what happened (10 if no N)."),
    "score": Help("score", "Everyone's victory points; at the end, the final scores."),
    "turn": Help("turn", "Whose turn it is and what you can do now (also an empty line)."),
    "server": Help("server", "The server this game is played on: encrypted or not, and its certificate."),
    "help": Help("help [COMMAND]", "The commands, or one command in detail."),
}
ACTIONS: dict[str, Help] = {
    "take": Help("take row N | take column N",
                 "Take a market line (rows 1 to 3, columns 1 to 4). Its resources are placed as suggested; "
                 "change that with put, discard, white and swap, then Enter takes it."),
    "buy": Help("buy COLOUR LEVEL [slot N]", "Buy the top card of a deck (buy green 1), into a slot you choose "
                                             "or the first that takes it; Enter buys it."),
    "produce": Help("produce [N ...]", "With no number: the productions you can run, numbered. With numbers "
                                       "(or base): run those together; choose free resources with pay and get."),
    "play": Help("play N", "Play leader N of your hand (numbers as leaders says them)."),
    "discard": Help("discard N", "Discard leader N of your hand for 1 faith; in a market plan, discard "
                                 "resource N instead."),
    "swap": Help("swap A B", "Swap two shelves (1 to 3; depots are d1 and d2), or move what fits from A to B."),
    "move": Help("move A B [RESOURCE]", "Move what fits from shelf A to shelf B (one RESOURCE, if given)."),
    "end": Help("end", "End your turn."),
    "undo": Help("undo", "Take back your last move of this turn."),
    "hint": Help("hint", "Ask the hard computer player what it would do; its plan is said, Enter does it."),
    "players": Help("players N [LEVEL ...]", "In a server's waiting room, if you are first: a game of N players, "
                                             "with computer players of these levels (easy, medium, hard)."),
    "say": Help("say TEXT", "Say something to the table (also: chat TEXT)."),
    "keep": Help("keep A B", "At the start: keep these two of your four leaders (numbers as shown)."),
    "resources": Help("resources RES [RES]", "At the start: the resources your seat receives (Coin, Servant, "
                                             "Shield or Stone)."),
    "cancel": Help("cancel", "Drop what you are arranging: nothing is sent."),
}
PLAN_EDITS: dict[str, Help] = {
    "put": Help("put N PLACE", "In a market plan: resource N goes on PLACE (1, 2 or 3 for the shelves, "
                               "d1 or d2 for a leader's depot)."),
    "white": Help("white N RESOURCE", "In a market plan with two white-marble leaders: white marble N becomes RESOURCE."),
    "suggest": Help("suggest", "In a market plan: place everything as suggested again."),
    "slot": Help("slot N", "In a purchase: put the card in slot N."),
    "pay": Help("pay N RES [RES]", "In a production plan: the free resources production N is paid with."),
    "get": Help("get N RES", "In a production plan: the free resource production N gives."),
    "use": Help("use RES PLACE", "In a purchase or a production plan: pay one RES from PLACE instead (1, 2 or 3 "
                                 "for the shelves, d1 or d2 for a depot, strongbox)."),
}
HELP = {**QUERIES, **ACTIONS, **PLAN_EDITS, "leave": Help("leave", "Leave the game (a game on this machine stays "
                                                                    "saved; a server keeps your seat).")}
ALIASES = {"chat": "say", "cards": "grid", "scores": "score", "?": "help", "h": "help", "q": "leave",
           "quit": "leave", "exit": "leave", "faith": "track", "end turn": "end", "pass": "end"}


def _number(word: str, most: int, what: str) -> int:
    """A 1-based number typed by the player, as a 0-based index."""
    try:
        n = int(word)
    except ValueError:
        raise Refused(f"{word!r} is not a number: say a {what} from 1 to {most}.") from None
    if not 1 <= n <= most:
        raise Refused(f"There is no {what} {n}: say one from 1 to {most}.")
    return n - 1


def _resource(word: str) -> str:
    for r in RESOURCES:
        if r.lower().startswith(word.lower()) and len(word) >= 2:
            return r
    raise Refused(f"{word!r} is not a resource: say Coin, Servant, Shield or Stone.")


class GameShell:
    """Typed commands over one game (see the module docstring)."""

    def __init__(self, session: GameSession, say: Say, wake: Callable[[], None] | None = None) -> None:
        self.session = session
        self.say = say
        self.wake = wake
        self.input = BoardInput(session)
        self.pending: tuple[str, Callable[[], None]] | None = None   # a one-step action waiting for Enter
        self.hinter: Hinter | None = None
        self._told = 0                   # log lines said so far
        self._stage: str | None = None
        self._away = AwayNews()            # who is away, said once each (see follow)
        self._over_said = False
        self.left = False                # the player left the game (back to the menu)
        self._heard: list[str] = []      # what the session told since the last follow (said after the log)
        self._lobby_heard: list[str] = []   # the waiting room's refusals, likewise
        self._turn = False               # it became the player's turn since the last follow
        notices = session.notices        # (methods: held weakly, they go with the shell)
        notices.subscribe(Said, self._hear_said)
        notices.subscribe(ConnectionLost, self._hear_lost)
        notices.subscribe(ReconnectFailed, self._hear_failed)
        notices.subscribe(LobbyRefused, self._hear_lobby)
        notices.subscribe(TurnStarted, self._hear_turn)

    @property
    def vm(self) -> Any:
        return self.session.vm

    # ------------------------------------------------------------------ what arrives
    def follow(self) -> None:
        """Take what the match sent and say what is new: lines of the log, a refusal, the stage
        of the game, the player's turn, a lost connection, the end."""
        s = self.session
        msgs = s.pump()
        mine = any(m.get("type") == "UpdateCurrentPlayer" and m.get("player") == s.nickname for m in msgs)
        if self.hinter is not None:
            self._take_hint()
        if len(s.log) < self._told:
            self._told = len(s.log)
        if self._told == 0 and len(s.log) > 1 and self._stage is None:   # a resumed game, or a table joined again
            if len(s.log) > RECAP:       # the last lines only: a long game read whole would take minutes
                self._told = len(s.log) - RECAP
                self.say(f"What happened last (the last {RECAP} of {len(s.log)} lines; log and a number says "
                         f"more, for example log 40):")
            else:
                self.say("What happened so far:")
        for line in s.log[self._told:]:
            self.say(("Chat: " + line) if isinstance(line, ChatLine) else line)
        self._told = len(s.log)
        heard, self._heard = self._heard, []
        for words in heard:
            self.say(words)
        for words in self._away.news(s.away, s.nickname):    # who is away, and how long their seat waits
            self.say(words)
        self._lobby()
        stage = s.stage()
        entered = stage != self._stage
        if entered:
            self._stage = stage
            self._enter(stage)
        turn, self._turn = self._turn, False
        if (turn or mine) and stage == "board" and self.vm.my_turn:
            self.pending = None
            if not entered:
                said = D.turn(s).split(": ", 1)[-1]
                self.say("Your turn. " + said[:1].upper() + said[1:])
        if not self.input.can_act() and (self.input.plan is not None or self.pending is not None) \
                and stage in ("board", "ended"):
            self.input.turn_over()
            self.pending = None

    # what the session tells (game.client.notices), said in follow after the log's new lines
    def _hear_said(self, notice: Said) -> None:
        self._heard.append(notice.words)

    def _hear_lost(self, notice: ConnectionLost) -> None:
        s = self.session
        if s.server_stopped:     # on purpose, the server said: not a crash
            host = s.match.host_name or None
            self._heard.append(f"{stopped_heading(host)}. {stopped_words(host, 'say leave', 'the menu')}")
        else:
            self._heard.append("The connection to the server was lost: trying to get it back (your seat is kept).")

    def _hear_failed(self, notice: ReconnectFailed) -> None:
        self._heard.append(f"Could not get back to the game: {notice.words}. Say leave to go back to the menu.")

    def _hear_lobby(self, notice: LobbyRefused) -> None:
        self._lobby_heard.append(notice.words)

    def _hear_turn(self, notice: TurnStarted) -> None:
        self._turn = True

    def _lobby(self) -> None:
        """A remote table's waiting room, said when it changes."""
        s = self.session
        refusals, self._lobby_heard = self._lobby_heard, []
        if s.vm.game is not None:
            return
        lobby = s.lobby
        for words in refusals:
            self.say(words)
        state = (lobby.booked, lobby.head, lobby.players_count, tuple(lobby.players))
        if state == getattr(self, "_lobby_said", None) or not (lobby.booked or lobby.head):
            return
        self._lobby_said = state
        self.say(self.waiting_words(again=getattr(self, "_asked_count", False)))
        if lobby.players_count is None and lobby.head == s.nickname:
            self._asked_count = True           # how to choose is said in full once

    def waiting_words(self, again: bool = True) -> str:
        """Who is in the waiting room, and what it waits for (``again``: how to choose the number
        of players said shortly, it was said in full before)."""
        s = self.session
        lobby = s.lobby
        names = lobby.players or ([lobby.head] if lobby.head else [])
        seated = f"Waiting room: {D.joined(names)}." if names else f"Waiting room: {lobby.booked} seated."
        if lobby.players_count is None:
            if lobby.head == s.nickname and again:
                return f"{seated} You choose how many play: say players and a number from 1 to 4."
            if lobby.head == s.nickname:
                return (f"{seated} You choose how many play: say players and a number from 1 to 4, with "
                        f"computer players if you like (for example players 3 hard medium: you, two bots "
                        f"and one more person).")
            return f"{seated} Waiting for {lobby.head or 'the first player'} to choose the number of players."
        left = lobby.players_count - lobby.booked - len(lobby.bots)
        bots = f", {len(lobby.bots)} computer player{'s' * (len(lobby.bots) > 1)}" if lobby.bots else ""
        return (f"{seated} A game of {lobby.players_count}{bots}"
                + (f": waiting for {left} more." if left > 0 else ": starting."))

    def do_players(self, args: list[str]) -> None:
        s = self.session
        if s.vm.game is not None:
            raise Refused("The game has already started.")
        if not s.remote:
            raise Refused("That is for a table on a server.")
        if s.lobby.players_count is not None:
            raise Refused(f"The number of players is already chosen: a game of {s.lobby.players_count}.")
        if s.lobby.head != s.nickname:
            raise Refused(f"Only the first player in the waiting room chooses the number of players"
                          f"{' (' + s.lobby.head + ')' if s.lobby.head else ''}.")
        if not args:
            raise Refused("Say players and a number from 1 to 4.")
        n = _number(args[0], 4, "number of players") + 1
        levels = []
        for w in args[1:]:
            level = next((lv for lv in ("easy", "medium", "hard") if lv.startswith(w.lower())), None)
            if level is None:
                raise Refused(f"{w!r} is not a level: say easy, medium or hard.")
            levels.append(level)
        if len(levels) > n - 1:
            raise Refused(f"A game of {n} has room for {n - 1} computer player{'s' * (n != 2)} besides you.")
        s.match.new_game(n, levels or None)
        self.say(f"Asked for a game of {n}" + (f" with {len(levels)} computer player{'s' * (len(levels) > 1)}"
                                               if levels else "") + ".")

    def _enter(self, stage: str) -> None:
        s = self.session
        if stage == "lobby":
            return
        if stage == "leaders":
            keep = int(self.vm.me["setup"].get("chosenLeadersCount", 2))
            self.say(f"Choose the {keep} leaders you keep, of these {len(self.vm.me['leadersHand'])} "
                     f"(say keep and their numbers, for example keep 1 3):")
            for line in D.leaders(s):
                self.say(line)
        elif stage == "resources":
            n = int(self.vm.me["setup"].get("initialResources", 0))
            faith = int(self.vm.me.get("faithPoints", 0))
            gets = f"{n} resource{'s' * (n > 1)} of your choice"
            self.say((f"Your seat starts with {faith} Faith on the track and {gets}" if faith else
                      f"Your seat receives {gets} to start with")
                     + f": say resources and {'one' if n == 1 else 'them'} (for example resources "
                       f"{' '.join(['Coin'] * n)}).")
        elif stage == "waiting":
            self.say("Waiting for the others to choose their leaders and resources.")
        elif stage == "board":
            g = self.vm.game
            others = [s.name_in_words(p["nickname"]) for p in g["players"] if p["nickname"] != s.nickname]
            against = "Lorenzo il Magnifico" if not others else D.joined(others)
            order = [("you" if p["nickname"] == s.nickname else s.name_in_words(p["nickname"])) for p in g["players"]]
            turns = f" The turns go: {', '.join(order)}." if others else ""
            self.say(f"The game is on: you play against {against}.{turns} Ask market, grid, board, leaders or help "
                     f"at any time.")
            self.say(D.turn(s))
        elif stage == "ended" and not self._over_said:
            self._over_said = True
            self.input.cancel()
            self.pending = None
            for line in D.score(s):
                self.say(line)
            self.say("Say leave to go back to the menu (log, board and the other questions still answer).")

    # ------------------------------------------------------------------ commands
    def command(self, line: str) -> None:
        """One typed line: a query, an action (said, then Enter sends it), a plan edit, Enter."""
        self._command(line)
        self.follow()            # what the match answered (at once for a game on this machine)

    def ask(self, line: str) -> None:
        """A question alone (``market``, ``board``…: no action, nothing followed), for a replay."""
        self._command(line)

    def _command(self, line: str) -> None:
        text = line.strip()
        if not text:
            self.confirm()
            return
        words = text.split()
        if words[0].isdigit() and self.session.vm.game is not None and self.session.stage() == "leaders":
            words = ["keep", *words]       # the leaders were said as a numbered list: "1 3" keeps them
        name = words[0].lower()
        name = ALIASES.get(" ".join(w.lower() for w in words[:2]), ALIASES.get(name, name))
        args = words[1:] if name != "end" else []
        handler = getattr(self, "do_" + name, None)
        if handler is None:
            self.say(f"No command {words[0]!r}. Say help for the commands.")
            return
        try:
            if name in ("say",):
                handler(text.split(None, 1)[1] if len(words) > 1 else "")
            else:
                handler(args)
        except Refused as e:
            self.say(str(e))

    def confirm(self) -> None:
        """Enter: the plan or the action said last is sent; with nothing waiting, whose turn it is."""
        plan = self.input.plan
        if plan is not None:
            if not self.input.can_act():
                self.input.turn_over()
                self.say(greyed_words("confirm", self.session, None) or "You cannot act now.")
                return
            problem = plan.problem() if hasattr(plan, "problem") else None
            if not getattr(plan, "ready", True):
                self.say(problem or "It is not ready yet.")
                return
            self.input.send_plan()
            return
        if self.pending is not None:
            _what, do = self.pending
            self.pending = None
            do()
            return
        self.say(self._turn_words())

    def _ask(self, what: str, do: Callable[[], None]) -> None:
        """Say what an action would do; Enter does it."""
        self.input.cancel()
        self.pending = (what, do)
        self.say(f"{what} Press Enter to do it, or type another command.")

    def _need_turn(self, key: str = "") -> None:
        """Refuse an action when it is not this player's to do now (the board's words)."""
        g = self.vm.game
        if g is None or not g.get("isSetupDone"):
            raise Refused("The game has not started yet: first the leaders and starting resources are chosen.")
        if not self.input.can_act():
            raise Refused(greyed_words(key or "act", self.session, None) or "You cannot act now.")

    def _need_main(self) -> None:
        self._need_turn()
        if self.vm.game["isMandatoryActionDone"]:
            raise Refused(greyed_words("produce", self.session, None) or "Your main action is done.")

    # queries ------------------------------------------------------------
    def _game(self) -> None:
        if self.vm.game is None:
            raise Refused("There is no game yet: waiting for it to start.")

    def _lines(self, lines: list[str]) -> None:
        for line in lines:
            self.say(line)

    def do_market(self, args: list[str]) -> None:
        self._game()
        self._lines(D.market(self.session))

    def do_grid(self, args: list[str]) -> None:
        self._game()
        self._lines(D.grid(self.session))

    def do_board(self, args: list[str]) -> None:
        self._game()
        if not args:
            self._lines(D.board(self.session))
            return
        name = " ".join(args)
        nicks = [p["nickname"] for p in self.vm.game["players"]]
        found = [n for n in nicks if n.lower() == name.lower()] or [n for n in nicks if n.lower().startswith(name.lower())]
        if len(found) != 1:
            raise Refused(f"No player called {name!r} at this table: " + D.joined(nicks) + ".")
        self._lines(D.board(self.session, found[0]))

    def do_leaders(self, args: list[str]) -> None:
        self._game()
        self._lines(D.leaders(self.session))

    def do_track(self, args: list[str]) -> None:
        self._game()
        self._lines(D.track(self.session))

    def do_lorenzo(self, args: list[str]) -> None:
        self._game()
        self._lines(D.lorenzo(self.session))

    def do_score(self, args: list[str]) -> None:
        self._game()
        self._lines(D.score(self.session))

    def do_turn(self, args: list[str]) -> None:
        self.say(self._turn_words())

    def _turn_words(self) -> str:
        """Whose turn it is and what to do; before the game, the waiting room and its invite code."""
        s = self.session
        if s.vm.game is not None or not s.remote:
            return D.turn(s)
        table = s.lobby.table or {}
        code = f" Its invite code is {table.get('code')}." if table.get("private") and table.get("code") else ""
        at = f"At the table {table.get('name')}.{code} " if table.get("name") else ""
        return at + self.waiting_words()

    def do_server(self, args: list[str]) -> None:
        link = self.session.link
        if link is None:
            self.say("This game is played on this machine: nothing of it crosses a network.")
            return
        self.say(f"{link.line} {link.details}".replace("\n", " "))

    def do_log(self, args: list[str]) -> None:
        n = 10
        if args:
            try:
                n = max(1, int(args[0]))
            except ValueError:
                raise Refused(f"{args[0]!r} is not a number: say log, or log and how many lines.") from None
        lines = self.session.log[-n:]
        if not lines:
            self.say("Nothing has happened yet.")
        for line in lines:
            self.say(("Chat: " + line) if isinstance(line, ChatLine) else line)

    def do_help(self, args: list[str]) -> None:
        if args:
            name = ALIASES.get(args[0].lower(), args[0].lower())
            h = HELP.get(name)
            if h is None:
                raise Refused(f"No command {args[0]!r}. Say help for the commands.")
            self.say(f"{h.usage}: {h.text}")
            return
        self.say("Questions, at any time: " + ", ".join(QUERIES) + ".")
        self.say("Actions, each said first and done when you press Enter: " + ", ".join(ACTIONS) + ".")
        self.say("While arranging a market take, a purchase or productions: " + ", ".join(PLAN_EDITS)
                 + ". Then Enter sends it, cancel drops it.")
        self.say("Say help and a command for more, for example help take. Say leave to leave the game.")

    # actions --------------------------------------------------------------
    def do_take(self, args: list[str]) -> None:
        self._need_main()
        if not args:
            raise Refused("Take which line? Say take row 1 to 3, or take column 1 to 4.")
        kind = args[0].lower()
        rest = args[1:]
        if kind[:1] in ("r", "c") and kind[1:].isdigit():    # take r2, take c3
            kind, rest = kind[:1], [kind[1:]]
        grid = self.vm.game["market"]["grid"]
        if kind in ("row", "r"):
            is_row, most = True, len(grid)
        elif kind in ("column", "col", "c"):
            is_row, most = False, len(grid[0])
        else:
            raise Refused("Say take row and a number from 1 to 3, or take column and a number from 1 to 4.")
        if not rest:
            raise Refused(f"Which {'row' if is_row else 'column'}? Say a number from 1 to {most}.")
        index = _number(rest[0], most, "row" if is_row else "column")
        self.pending = None
        self.input.cancel()
        self.input.click(BI.Line(is_row, index))
        self._say_plan()

    def do_buy(self, args: list[str]) -> None:
        self._need_main()
        if len(args) < 2:
            raise Refused("Buy which card? Say buy, its colour and its level, for example buy green 1.")
        colour = next((c for c in COLOURS if c.lower().startswith(args[0].lower())), None)
        if colour is None:
            raise Refused(f"{args[0]!r} is not a colour of the cards: say green, blue, yellow or purple.")
        level = _number(args[1], 3, "level") + 1
        why = self.session.purchase_words(colour, level)
        if why is None:
            raise Refused(f"No {colour.lower()} card of level {level} is left on the grid.")
        if why != "Click to buy":
            raise Refused(f"You cannot buy the level {level} {colour.lower()} card: {why[:1].lower()}{why[1:]}")
        self.pending = None
        self.input.cancel()
        self.input.click(BI.Card(colour, level))
        if len(args) >= 4 and args[2].lower() == "slot":
            self.do_slot(args[3:])
            return
        self._say_plan()

    def do_produce(self, args: list[str]) -> None:
        self._need_main()
        if not self.session.can_produce():
            raise Refused(greyed_words("produce", self.session, None) or "Nothing can be produced now.")
        names = self.production_names()
        if not args:
            self.say("The productions you have (say produce and their numbers, for example produce 1 2):")
            for i, (pid, name) in enumerate(names):
                prod = self._production(pid)
                self.say(f"{i + 1}. {name}: {D.production_words(prod)}.")
            return
        chosen = []
        for a in args:
            if a.lower() == "base":
                chosen.append(names[0][0])
            else:
                chosen.append(names[_number(a, len(names), "production")][0])
        self.pending = None
        self.input.cancel()
        self.input.start_production()
        for pid in dict.fromkeys(chosen):
            self.input.click(BI.Production(pid))
        self._say_plan()

    def _production(self, pid: int) -> dict:
        return next(p for p in self.vm.game["productions"] if p["id"] == pid)

    def production_names(self) -> list[tuple[int, str]]:
        """This player's productions in order, each with its name in words: the base production,
        the top card of each slot, the leaders' in play."""
        me = self.vm.me
        out = [(me["baseProduction"], "the base production")]
        for i, slot in enumerate(me["devSlots"]):
            if slot:
                card = self.vm.cards[slot[-1]]
                out.append((card["production"], f"the {card['color'].lower()} card of slot {i + 1}"))
        prods = {p["id"]: p for p in self.vm.game["productions"]}
        for lid in me["leadersHand"]:
            ld = self.vm.leader(lid)
            if ld["active"] and ld.get("production", -1) >= 0:
                out.append((ld["production"], "your " + leader_words(ld, prods)[0]))
        return out

    def _leader_index(self, args: list[str], verb: str) -> int:
        hand = list(self.vm.me["leadersHand"])
        if not args:
            raise Refused(f"{verb.capitalize()} which leader? Say {verb} and its number (leaders lists them).")
        return hand[_number(args[0], len(hand), "leader")] if hand else -1

    def do_play(self, args: list[str]) -> None:
        self._need_turn()
        if not self.vm.me["leadersHand"]:
            raise Refused("You have no leaders.")
        lid = self._leader_index(args, "play")
        ld = self.vm.leader(lid)
        name, ability, _need, vp = leader_words(ld, {p["id"]: p for p in self.vm.game["productions"]})
        if ld["active"]:
            raise Refused(f"Your {name} is already in play.")
        why = self.session.leader_refusal(lid)
        if why is not None:
            raise Refused(f"You cannot play your {name} yet: still missing {D.missing(why)}.")
        self._ask(f"Play your {name} ({vp} VP): {ability}", lambda: self.input.leader_action(lid, True))

    def do_discard(self, args: list[str]) -> None:
        if isinstance(self.input.plan, MarketPlan):
            self._plan_discard(args)
            return
        self._need_turn()
        if not self.vm.me["leadersHand"]:
            raise Refused("You have no leaders.")
        lid = self._leader_index(args, "discard")
        ld = self.vm.leader(lid)
        name = leader_words(ld, {})[0]
        if ld["active"]:
            raise Refused("A leader in play stays in play: only a leader still in your hand can be discarded.")
        self._ask(f"Discard your {name} for 1 faith.", lambda: self.input.leader_action(lid, False))

    def _place(self, word: str) -> int:
        """A shelf (1 to 3) or a leader's depot (d1, d2) by the player's word: its container id."""
        me = self.vm.me
        w = word.lower().removeprefix("shelf")
        if w.startswith("d"):
            depots = list(me.get("leaderDepots") or [])
            if not depots:
                raise Refused("You have no leader's depot.")
            return depots[_number(w.removeprefix("depot").removeprefix("d") or "0", len(depots), "depot")]
        return me["warehouseShelves"][_number(w, len(me["warehouseShelves"]), "shelf")]

    def do_swap(self, args: list[str]) -> None:
        self._move(args, swap_first=True)

    def do_move(self, args: list[str]) -> None:
        self._move(args, swap_first=False)

    def _move(self, args: list[str], swap_first: bool) -> None:
        self._need_turn()
        if len(args) < 2:
            raise Refused("Say two shelves: swap 1 2 (depots are d1 and d2).")
        a, b = self._place(args[0]), self._place(args[1])
        if a == b:
            raise Refused("Choose two different shelves.")
        unit = _resource(args[2]) if len(args) > 2 else None
        plan = self.input.plan
        if isinstance(plan, MarketPlan):    # before the take, in the plan: sent with it
            self.input.selected_item = self.input.selected_shelf = None
            if unit is not None:
                self.input.selected_shelf = a
                self.input.drop(a, BI.Shelf(b), unit)
            else:
                self.input.click(BI.Shelf(a))
                self.input.click(BI.Shelf(b))
            self._say_plan()
            return
        if plan is not None:
            raise Refused("Finish or cancel what you are arranging first.")
        request, why = self.input.rearrangement(a, b, unit, swap_first)
        if request is None:            # said now, in the board's words: nothing to confirm
            raise Refused(why or "Nothing there to move.")
        self._ask(self.input.request_words(request) + ".", lambda: self.input.rearrange(a, b, unit, swap_first))

    def _box(self, cid: int) -> str:
        me = self.vm.me
        if cid in me["warehouseShelves"]:
            return f"shelf {me['warehouseShelves'].index(cid) + 1}"
        bound = self.vm.container(cid).get("boundedResType", "")
        return f"the {bound} depot"

    def do_end(self, args: list[str]) -> None:
        self._need_turn("end")
        if not self.vm.game["isMandatoryActionDone"]:
            raise Refused(greyed_words("end", self.session, None) or "Take your main action first.")
        players = self.vm.game["players"]
        me = next(i for i, p in enumerate(players) if p["nickname"] == self.session.nickname)
        later = [p["nickname"] for p in players[me + 1:] if p.get("active", True)]   # this round's
        after = next(iter(later + [p["nickname"] for p in players[:me] if p.get("active", True)]), None)
        if len(players) == 1:
            who = "Lorenzo takes his turn: one token from his pile."
        elif self.vm.game.get("lastRound") and not later:
            who = "It is the last turn of the last round: the game ends, and the final scores follow."
        else:
            who = (f"{self.session.name_in_words(after)} plays next." if after
                   else "You play again: nobody else is at the table.")
        self._ask(f"End your turn. {who}", self.session.end_turn)

    def do_undo(self, args: list[str]) -> None:
        self._need_turn("undo")
        why = self.session.undo_words()
        if why is not None:
            raise Refused(why)
        self._ask("Take back your last move of this turn.", self.session.undo)

    def do_hint(self, args: list[str]) -> None:
        self._need_turn()
        if self.hinter is None:
            self.hinter = Hinter(self.session.config, on_ready=self.wake)
        self.input.cancel()
        self.pending = None
        if self.hinter.ask(self.vm.game, self.vm.nickname, self.session.version):
            self.say("Thinking about a hint.")
        else:
            self.say("Still thinking about the last hint.")

    def _take_hint(self) -> None:
        got = self.hinter.take() if self.hinter is not None else None
        if got is None:
            return
        version, answer = got
        if answer is None:
            self.say("No hint could be found this time.")
            return
        if not self.input.can_act():
            return                   # the turn is over: the hint is for a turn gone
        if version != self.session.version or self.input.plan is not None or self.pending is not None:
            self.say("The hint came after you had moved on, so it is dropped: say hint again for one now.")
            return
        self.input.take_hint(answer.action, answer.why, answer.then)
        self._say_plan()

    def do_say(self, text: str) -> None:
        if not text.strip():
            raise Refused("Say what? Type say and your words.")
        if not self.session.can_chat:
            raise Refused("Talking to the table opens when the game starts." if self.session.remote
                          and self.vm.game is None else "Nobody else is at this table to talk to.")
        self.session.chat(text)

    def do_keep(self, args: list[str]) -> None:
        self._game()
        if self.session.stage() != "leaders":
            raise Refused("Your leaders are already chosen.")
        hand = list(self.vm.me["leadersHand"])
        keep = int(self.vm.me["setup"].get("chosenLeadersCount", 2))
        picked = list(dict.fromkeys(hand[_number(a, len(hand), "leader")] for a in args))
        if len(picked) != keep:
            raise Refused(f"Say {keep} different numbers from 1 to {len(hand)}, for example keep 1 3.")
        prods = {p["id"]: p for p in self.vm.game["productions"]}
        names = D.joined([leader_words(self.vm.leader(lid), prods)[0] for lid in picked])
        self._ask(f"Keep your {names}.", lambda: self.session.choose_leaders(picked))

    def do_resources(self, args: list[str]) -> None:
        self._game()
        if self.session.stage() != "resources":
            raise Refused("You have no starting resources to choose now.")
        from game.client.plans import starting_placement
        n = int(self.vm.me["setup"].get("initialResources", 0))
        picked = [_resource(a) for a in args]
        if len(picked) != n:
            raise Refused(f"Say {n} resource{'s' * (n > 1)}: Coin, Servant, Shield or Stone.")
        shelves = [self.vm.container(cid) for cid in self.vm.me["warehouseShelves"]]
        placed = starting_placement(picked, [(c["id"], c["size"]) for c in shelves])
        where = "; ".join(f"{D.counted(m)} on {self._box(cid)}" for cid, m in placed.items())
        self._ask(f"Start with {where}.", lambda: self.session.choose_resources(placed))

    def do_cancel(self, args: list[str]) -> None:
        if self.input.plan is None and self.pending is None:
            self.say("Nothing to cancel.")
            return
        self.input.cancel()
        self.pending = None
        self.say("Dropped: nothing was sent.")

    def do_leave(self, args: list[str]) -> None:
        self.left = True

    # plan edits ----------------------------------------------------------------
    def _market_plan(self) -> MarketPlan:
        plan = self.input.plan
        if not isinstance(plan, MarketPlan):
            raise Refused("That is for a market take: say take row N or take column N first.")
        return plan

    def _item(self, plan: MarketPlan, word: str) -> int:
        if not plan.items:
            raise Refused("This line gives nothing to store.")
        return _number(word, len(plan.items), "resource")

    def do_put(self, args: list[str]) -> None:
        plan = self._market_plan()
        if len(args) < 2:
            raise Refused("Say put, the resource's number and the place, for example put 1 3.")
        i, cid = self._item(plan, args[0]), self._place(args[1])
        why = plan.why_not(i, cid)
        if why is not None:       # the board's words, its clicks said as commands
            raise Refused(typed(why, self.vm.me) + ".")
        self.input.selected_shelf = None
        self.input.click(BI.Item(i))
        self.input.click(BI.Shelf(cid))
        self._say_plan()

    def _plan_discard(self, args: list[str]) -> None:
        plan = self._market_plan()
        if not args:
            raise Refused("Say discard and the number of the resource to give up.")
        self.input.click(BI.Item(self._item(plan, args[0])))
        self.input.click(BI.Discard())
        self._say_plan()

    def do_white(self, args: list[str]) -> None:
        plan = self._market_plan()
        if len(plan.white_options) < 2:
            raise Refused("Your white marbles have no choice to make.")
        if len(args) < 2:
            raise Refused("Say white, the white marble's number and a resource, for example white 1 Coin.")
        i = _number(args[0], len(plan.white_choice), "white marble")
        res = _resource(args[1])
        if res not in plan.white_options:
            raise Refused(f"Your white marbles become {' or '.join(plan.white_options)}, not {res}.")
        plan.choose_white(i, res)
        self._say_plan()

    def do_suggest(self, args: list[str]) -> None:
        self._market_plan()
        self.input.click(BI.Suggest())
        self._say_plan()

    def do_slot(self, args: list[str]) -> None:
        plan = self.input.plan
        if not isinstance(plan, BuyPlan):
            raise Refused("That is for a purchase: say buy COLOUR LEVEL first.")
        if not args:
            raise Refused("Which slot? Say slot 1, 2 or 3.")
        i = _number(args[0], 3, "slot")
        if i not in plan.slots:
            raise Refused(f"Slot {i + 1} cannot take this card: " + (
                "a level-1 card needs an empty slot, and a level-2 or 3 card goes on a card one level lower. "
                f"It fits in slot {D.joined([str(s + 1) for s in plan.slots])}."))
        self.input.click(BI.Slot(i))
        self._say_plan()

    def _blank(self, args: list[str], side: str) -> None:
        plan = self.input.plan
        if not isinstance(plan, ProductionPlan):
            raise Refused("That is for productions: say produce and their numbers first.")
        names = self.production_names()
        if len(args) < 2:
            raise Refused(f"Say {'pay' if side == 'in' else 'get'}, the production's number and the resources.")
        pid = names[0][0] if args[0].lower() == "base" else names[_number(args[0], len(names), "production")][0]
        if pid not in plan.selected:
            raise Refused("That production is not in the plan: say produce with it.")
        blanks = (plan.input_blanks if side == "in" else plan.output_blanks).get(pid, [])
        if not blanks:
            raise Refused(f"That production has no free resource to {'pay' if side == 'in' else 'get'}.")
        picked = [_resource(a) for a in args[1:]]
        if len(picked) != len(blanks):
            raise Refused(f"Say {len(blanks)} resource{'s' * (len(blanks) > 1)}.")
        for k, res in enumerate(picked):
            self.input.click(BI.Blank(pid, side, k, res))
            if self.input.note:
                break
        self._say_plan()

    def do_pay(self, args: list[str]) -> None:
        self._blank(args, "in")

    def do_get(self, args: list[str]) -> None:
        self._blank(args, "out")

    def do_use(self, args: list[str]) -> None:
        plan = self.input.plan
        if isinstance(plan, BuyPlan):
            pay = plan.payment
        elif isinstance(plan, ProductionPlan) and plan.selected and not plan.problem():
            pay = plan.get_payment()
        else:
            raise Refused("That is for a purchase or productions: say what is paid from where once one is planned.")
        if len(args) < 2:
            raise Refused("Say use, a resource and where to pay it from, for example use Stone strongbox.")
        res = _resource(args[0])
        word = args[1].lower()
        target = self.vm.me["strongbox"] if word.startswith("strong") or word == "s" else self._place(word)
        if not pay.cost.get(res):
            raise Refused(f"No {res} is paid here.")
        sources = {cid: (held, taken) for cid, held, taken in pay.sources(res)}
        held, taken = sources.get(target, (0, 0))
        where = self._paid_from(target)
        if taken >= held:
            raise Refused(f"There is no more {res} to pay from {where}: it holds {held}"
                          + (f", {taken} already paid from it." if taken else "."))
        donor = next((cid for cid, (_h, t) in sources.items() if t > 0 and cid != target), None)
        if donor is None:
            raise Refused(f"All the {res} is already paid from {where}.")
        self.input.click(BI.Pay(res, donor, target))
        self._say_plan()

    # ------------------------------------------------------------------ the plan in words
    def _say_plan(self) -> None:
        plan = self.input.plan
        if self.input.note:
            self.say(self.input.note.rstrip(".") + ".")
            self.input.note = None
        if plan is None:
            return
        for line in self.plan_words(plan):
            self.say(line)

    def plan_words(self, plan: Any) -> list[str]:
        """What the plan would do, in words, and how to change or send it."""
        out: list[str] = []
        why = getattr(plan, "why", "")
        if why:
            out.append(f"Hint: {why}")
        if isinstance(plan, MarketPlan):
            where = f"{'row' if plan.is_row else 'column'} {plan.index + 1}"
            faith = f", and {plan.faith} Faith at once" if plan.faith else ""
            if not plan.items:
                out.append(f"Taking {where} gives nothing to store{faith}.")
            else:
                out.append(f"Taking {where} gives {D.counted(plan.intake())}{faith}.")
                for i, (res, cid) in enumerate(zip(plan.items, plan.target)):
                    place = "discarded" if cid is None else f"on {plan.box_name(cid)}"
                    out.append(f"  {i + 1}. {res}: {place}.")
            if plan.white_choice:
                out.append("White marbles: " + ", ".join(f"{k + 1} becomes {r}" for k, r in enumerate(plan.white_choice))
                           + " (change with white N RESOURCE).")
            if plan.moves:
                n = len(plan.moves)
                arranged = "; ".join(f"{plan.box_name(cid)}: {D.counted(m, 'empty')}" for cid, m in plan.arranged().items())
                out.append(f"Your shelves are rearranged first ({n} move{'s' * (n > 1)}): {arranged}.")
            warn = plan.discard_warning()
            if warn:
                out.append(warn)
            out.append("Press Enter to take it; or put N PLACE, discard N, swap A B, suggest, cancel.")
        elif isinstance(plan, BuyPlan):
            c = plan.card
            cost = D.counted(plan.cost, "nothing")
            out.append(f"Buying the level {c.level} {c.color.lower()} card ({c.victory_points} VP) for {cost}, "
                       f"into slot {plan.slot + 1 if plan.slot is not None else '?'}.")
            out.append(self._paid_words(plan.payment))
            if len(plan.slots) > 1:
                out.append(f"It fits in slot {D.joined([str(s + 1) for s in plan.slots])}: change with slot N.")
            out.append("Press Enter to buy it; or cancel.")
        elif isinstance(plan, ProductionPlan):
            names = dict(self.production_names())
            numbers = {pid: i + 1 for i, (pid, _n) in enumerate(self.production_names())}
            for pid in sorted(plan.selected, key=lambda pid: numbers.get(pid, 0)):   # as produce numbers them
                prod = plan.available[pid]
                ins = dict(prod.input)
                for r in plan.input_blanks.get(pid, []):
                    ins[r] = ins.get(r, 0) + 1
                outs = dict(prod.output)
                for r in plan.output_blanks.get(pid, []):
                    outs[r] = outs.get(r, 0) + 1
                free = []
                if plan.input_blanks.get(pid):
                    free.append(f"pay {numbers[pid]} to change what it is paid with")
                if plan.output_blanks.get(pid):
                    free.append(f"get {numbers[pid]} to change what it gives")
                more = f" (say {' and '.join(free)})" if free else ""
                out.append(f"{numbers[pid]}. {names.get(pid, 'a production').capitalize()}: pays {D.counted(ins)}, "
                           f"gives {D.counted(outs)}{more}.")
            problem = plan.problem()
            if problem:
                out.append(problem)
            else:
                out.append(f"In all: pay {D.counted(plan.total_input())}, get {D.counted(plan.total_output())}.")
                out.append(self._paid_words(plan.get_payment()))
                out.append("Press Enter to produce; or cancel.")
        elif isinstance(plan, HintPlan):
            out.append(f"{plan.text}. Press Enter to do it; or cancel.")
        return out

    def _paid_words(self, pay: Any) -> str:
        """Where the payment comes from, and how to change it."""
        paid = "; ".join(f"{D.counted(m)} from {self._paid_from(cid)}" for cid, m in pay.taken.items())
        other = any(taken < held and any(t > 0 for c, _h, t in srcs if c != cid)
                    for srcs in (pay.sources(res) for res in pay.cost) for cid, held, taken in srcs)
        return f"Paid with {paid or 'nothing'}." + (" (use RES PLACE pays from elsewhere.)" if other else "")

    def _paid_from(self, cid: int) -> str:
        me = self.vm.me
        if cid == me["strongbox"]:
            return "the strongbox"
        return self._box(cid)

    # ------------------------------------------------------------------ completion
    def words(self) -> list[str]:
        """Every command word (for completion)."""
        return sorted({*HELP, *ALIASES} - {"end turn"})

    def close(self) -> None:
        if self.hinter is not None:
            self.hinter.close()
            self.hinter = None
