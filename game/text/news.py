"""What arrives from a game, said once, in the order a player wants to hear it: the log's new
lines (a recap of the last ones on coming back to a game), what the session told (a refusal, a
lost connection, a host who stopped hosting, who is away), the waiting room when it changes, the
stage of the game entered (the leaders to keep, the starting resources, the board, the scores).

:class:`News` listens to the session's notices (:mod:`game.client.notices`) as they come and
says them in :meth:`News.tell`, after the log's new lines; :class:`~game.text.play.GameShell`
calls it from its ``follow``.
"""
from __future__ import annotations

from typing import Any, Callable

from game.client.flow.presence import away_words, stopped_heading, stopped_words
from game.client.notices import ConnectionLost, LobbyRefused, PlayerAway, ReconnectFailed, Said, TurnStarted
from game.client.session import ChatLine, GameSession
from game.client.watch_words import watchers_words
from game.client.words import resource_name
from game.i18n import _, ngettext

from . import describe as D

Say = Callable[[str], None]
RECAP = 12
"""The lines of the log said on coming back to a game (a resumed save, a seat taken back)."""


class News:
    """What arrives from ``session``, said through ``say`` (see the module docstring)."""

    def __init__(self, session: GameSession, say: Say) -> None:
        self.session = session
        self.say = say
        self._told = 0                   # log lines said so far
        self.stage: str | None = None    # the stage said last
        self._heard: list[str] = []      # what the session told since the last tell (said after the log)
        self._lobby_heard: list[str] = []   # the waiting room's refusals, likewise
        self._lobby_said: tuple | None = None
        self._asked_count = False        # how to choose the number of players was said in full
        self._turn = False               # it became the player's turn since the last tell
        self._watchers = 0               # how many watch, as said last (our server tells)
        notices = session.notices        # (methods: held weakly, they go with this object)
        notices.subscribe(Said, self._hear_said)
        notices.subscribe(ConnectionLost, self._hear_lost)
        notices.subscribe(ReconnectFailed, self._hear_failed)
        notices.subscribe(LobbyRefused, self._hear_lobby)
        notices.subscribe(TurnStarted, self._hear_turn)
        notices.subscribe(PlayerAway, self._hear_away)
        for who, seconds in session.away.items():     # away already when the game was opened here
            self._hear_away(PlayerAway(who, seconds))

    @property
    def vm(self) -> Any:
        return self.session.vm

    def tell(self) -> None:
        """Say what is new since the last call: the log's lines, what the session told, who is
        away, the waiting room."""
        s = self.session
        if len(s.log) < self._told:
            self._told = len(s.log)
        if self._told == 0 and len(s.log) > 1 and self.stage is None:   # a resumed game, or a table joined again
            if len(s.log) > RECAP:       # the last lines only: a long game read whole would take minutes
                self._told = len(s.log) - RECAP
                self.say(_("What happened last (the last {recap} of {n} lines; log and a number says more, for example log 40):").format(recap=RECAP, n=len(s.log)))
            else:
                self.say(_("What happened so far:"))
        for line in s.log[self._told:]:
            self.say(_("Chat: {line}").format(line=line) if isinstance(line, ChatLine) else line)
        self._told = len(s.log)
        heard, self._heard = self._heard, []
        for words in heard:
            self.say(words)
        if s.watchers.count != self._watchers:       # how many watch, when it changes
            self._watchers = s.watchers.count
            self.say(watchers_words(self._watchers))
        self._lobby()

    def turn_started(self) -> bool:
        """Whether it became the player's turn since the last call."""
        turn, self._turn = self._turn, False
        return turn

    # what the session tells (game.client.notices), said in tell after the log's new lines
    def _hear_said(self, notice: Said) -> None:
        self._heard.append(notice.words)

    def _hear_lost(self, notice: ConnectionLost) -> None:
        self._heard.append(self._lost_words())

    def _hear_failed(self, notice: ReconnectFailed) -> None:
        self._heard.append(self._failed_words(notice.words))

    def _lost_words(self) -> str:
        s = self.session
        if s.server_stopped:     # on purpose, the server said: not a crash
            host = s.match.host_name or None
            leave, menu = _("say leave"), _("the menu")
            return f"{stopped_heading(host)}. {stopped_words(host, leave, menu)}"
        return _("The connection to the server was lost: trying to get it back (your seat is kept).")

    @staticmethod
    def _failed_words(why: str) -> str:
        return _("Could not get back to the game: {why}. Say leave to go back to the menu.").format(why=why)

    def connection_words(self) -> str | None:
        """While the connection to the server of a game under way is lost: what is being done about
        it (asked whose turn it is, the player hears this, never "It is your turn")."""
        s = self.session
        if not s.connection_lost or s.vm.game is None or s.vm.game.get("ended"):
            return None
        return self._failed_words(s.reconnect_failed) if s.reconnect_failed else self._lost_words()

    def _hear_lobby(self, notice: LobbyRefused) -> None:
        self._lobby_heard.append(notice.words)

    def _hear_turn(self, notice: TurnStarted) -> None:
        self._turn = True

    def _hear_away(self, notice: PlayerAway) -> None:
        if notice.player != self.session.nickname:     # who is away, and how long their seat waits
            self._heard.append(away_words(notice.player, notice.seconds))

    # the waiting room ------------------------------------------------------------------
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
        if state == self._lobby_said or not (lobby.booked or lobby.head):
            return
        self._lobby_said = state
        self.say(self.waiting_words(again=self._asked_count))
        if lobby.players_count is None and lobby.head == s.nickname:
            self._asked_count = True           # how to choose is said in full once

    def waiting_words(self, again: bool = True) -> str:
        """Who is in the waiting room, and what it waits for (``again``: how to choose the number
        of players said shortly, it was said in full before)."""
        s = self.session
        lobby = s.lobby
        names = lobby.players or ([lobby.head] if lobby.head else [])
        seated = _("Waiting room: {names}.").format(names=D.joined(names)) if names else \
            _("Waiting room: {n} seated.").format(n=lobby.booked)
        if lobby.players_count is None:
            if lobby.head == s.nickname and again:
                return seated + " " + _("You choose how many play: say players and a number from 1 to 4.")
            if lobby.head == s.nickname:
                return seated + " " + _("You choose how many play: say players and a number from 1 to 4, with "
                                        "computer players if you like (for example players 3 hard medium: you, two "
                                        "bots and one more person).")
            if lobby.head:
                return seated + " " + _("Waiting for {name} to choose the number of players.").format(name=lobby.head)
            return seated + " " + _("Waiting for the first player to choose the number of players.")
        left = lobby.players_count - lobby.booked - len(lobby.bots)
        n, bots = lobby.players_count, len(lobby.bots)
        if bots:
            game = ngettext("A game of {n}, {bots} computer player", "A game of {n}, {bots} computer players",
                            bots).format(n=n, bots=bots)
        else:
            game = _("A game of {n}").format(n=n)
        if left > 0:
            return seated + " " + ngettext("{game}: waiting for {left} more.", "{game}: waiting for {left} more.",
                                           left).format(game=game, left=left)
        return seated + " " + _("{game}: starting.").format(game=game)

    # the stage of the game -------------------------------------------------------------
    def enter(self, stage: str) -> bool:
        """Say what the player does at ``stage`` when the game has just come to it; True if it has."""
        if stage == self.stage:
            return False
        self.stage = stage
        s = self.session
        if stage == "leaders":
            keep = int(self.vm.me["setup"].get("chosenLeadersCount", 2))
            self.say(_("Choose the {keep} leaders you keep, of these {n} (say keep and their numbers, for example keep 1 3):").format(keep=keep, n=len(self.vm.me['leadersHand'])))
            for line in D.leaders(s):
                self.say(line)
        elif stage == "resources":
            n = int(self.vm.me["setup"].get("initialResources", 0))
            faith = int(self.vm.me.get("faithPoints", 0))
            example = " ".join([resource_name("Coin", 1)] * n)      # (typed in the words the player reads)
            if faith:
                self.say(ngettext("Your seat starts with {faith} Faith on the track and {n} resource of your choice: "
                                  "say resources and one (for example resources {example}).",
                                  "Your seat starts with {faith} Faith on the track and {n} resources of your choice: "
                                  "say resources and them (for example resources {example}).", n).format(
                    faith=faith, n=n, example=example))
            else:
                self.say(ngettext("Your seat receives {n} resource of your choice to start with: say resources and "
                                  "one (for example resources {example}).",
                                  "Your seat receives {n} resources of your choice to start with: say resources and "
                                  "them (for example resources {example}).", n).format(n=n, example=example))
        elif stage == "waiting":
            self.say(_("Waiting for the others to choose their leaders and resources."))
        elif stage == "board":
            g = self.vm.game
            others = [s.shown_name(p["nickname"]) for p in g["players"] if p["nickname"] != s.nickname]
            against = "Lorenzo il Magnifico" if not others else D.joined(others)
            order = [(_("you") if p["nickname"] == s.nickname else s.shown_name(p["nickname"])) for p in g["players"]]
            turns = " " + _("The turns go: {order}.").format(order=", ".join(order)) if others else ""
            self.say(_("The game is on: you play against {against}.{turns} Ask market, grid, board, leaders or help at any time.").format(against=against, turns=turns))
            self.say(D.turn(s))
        elif stage == "ended":
            for line in D.score(s):
                self.say(line)
            self.say(_("Say leave to go back to the menu (log, board and the other questions still answer)."))
        return True
