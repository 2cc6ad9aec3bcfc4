"""A game as the front ends see it: the one front door of the pygame scenes and the text client.

:class:`GameSession` polls its :class:`~game.match.Match` once per frame (never blocking) and
hands every message to the part whose job it is:

- the messages outside the game (the connection, a history, a replay, chat) to the handler
  table :data:`ASIDE`; the waiting room's to :class:`~game.client.lobby.Lobby` (its own table);
- every message of the game to the one :class:`~game.client.view_model.ViewModel`, the undo
  rule (:mod:`game.client.undo`) and the narrator, whose lines go to the log
  (:class:`~game.client.game_log.GameLog`, which also keeps chat and history lines once);
- what a front end hears once (a refusal, the player's turn, a lost connection...) to the
  :class:`~game.client.notices.Notices` each front end subscribes to.

What a front end asks the rules goes to :class:`~game.client.queries.RulesQueries`, what it
sends to :class:`~game.client.commands.Commands`; the session answers for both. It also says
which screen the player should be on (:meth:`GameSession.stage`).
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable, Sequence

from game.i18n import _
from game.rules.actions import Action
from game.rules.choices import MarketLine
from game.rules.components import GameConfig
from game.rules.engine import Game
from game.rules.views import config_from_view

from .commands import Commands
from .game_log import ChatLine, GameLog, Note, tell
from .lobby import HANDLERS as LOBBY_MESSAGES
from .lobby import Lobby
from .narration import Narrator
from .notices import (ConnectionLost, LobbyRefused, Notices, PlayerAway, Reconnected, ReconnectFailed,
                      ReplayArrived, ReplayRefused, Said, ServerStopping, TurnStarted)
from .queries import RulesQueries
from .rating_words import change_line, unrated_line
from .refusals import describe_error, refusal_words
from .seat_clock_words import seat_clock_line
from .security import IdentityWarning, Link, identity_warning, link_of
from .server_words import chat_said
from .undo import UndoRule
from .view_model import ViewModel
from .watch_news import TYPES as WATCH_TYPES
from .watch_news import UPDATE_WATCHER_CHAT, WatchNews
from .watch_words import WATCHER
from .words import NO_REPLAY, NOT_TAKEN_BACK, RECONNECTED, REPLAY_ERRORS, UNREADABLE, player_name

if TYPE_CHECKING:
    from game.match import Match

__all__ = ["ASIDE", "ChatLine", "GameSession", "Lobby", "Note", "UNREADABLE"]

Msg = dict[str, Any]
log = logging.getLogger("mor.session")


class GameSession:
    """One seat at one game, for one front end (see the module docstring)."""

    def __init__(self, match: "Match", config: GameConfig, nickname: str) -> None:
        self.match = match
        self.config = config              # the game played by: a server's, once its UpdateGame came
        self.local_config = config        # our own files' game: a local match plays by it
        self.nickname = nickname
        self.vm = ViewModel(nickname)
        self.narrator = Narrator(self.vm, self.shown_name, you=True)     # this player's moves: "You took..."
        self.version = 0                  # bumped by every message that changed what is shown
        self.notices = Notices()
        self.lobby = Lobby()
        self.game_log = GameLog()
        self.undo_rule = UndoRule(nickname)
        self.rules = RulesQueries(nickname, lambda: (self.version, self.vm.game, self.config))
        self.commands = Commands(match, self._sending, lambda: self.can_chat)
        self.connection_lost = False
        self.reconnect_failed: str | None = None           # why the game could not be got back
        self.reconnect_warning: IdentityWarning | None = None   # the server is not the one the game was on
        self.server_stopped: str | None = None   # the server said it stops on purpose (UpdateServerStopping.reason)
        self.away: dict[str, float] = {}   # players not connected -> seconds their seat waits, as told
        self.skipped: list[int] = []      # rounds of this player's turns skipped while away
        self.watchers = WatchNews()       # who watches the table (and, a watcher's, which table)
        self.rating: dict[str, Any] | None = None   # this player's rating on the server (UpdatePlayer), if keyed
        self.rating_change = ""           # the ratings' change at the game's end, in words
        self._error: str | None = None
        self._sent: Action | None = None  # the last request sent (to word its refusal)

    # ------------------------------------------------------------------ what it is
    @property
    def remote(self) -> bool:
        """Whether a server plays the game (a local match carries its engine's config)."""
        return self.match.config is None

    @property
    def link(self) -> Link | None:
        """How the game reaches its server, encrypted or not, and its certificate (None: a game on
        this machine)."""
        return link_of(self.match)

    @property
    def log(self) -> list[str]:
        """The log's lines: the moves told, chat (:class:`ChatLine`), the client's notes (:class:`Note`)."""
        return self.game_log.lines

    @log.setter
    def log(self, lines: list[str]) -> None:
        self.game_log.lines = lines

    @property
    def error(self) -> str | None:
        """The sentence the board's message box shows: the last refusal (or the client's own
        line, see :meth:`say`), until the next request goes out or it is dismissed."""
        return self._error

    def say(self, words: str) -> None:
        """Show ``words`` in the message box, and tell the front ends (a :class:`Said` notice)."""
        self._error = words
        self.notices.publish(Said(words))

    def dismiss(self) -> None:
        """The message box empties (the player moved on: a plan changed, a new screen)."""
        self._error = None

    # ------------------------------------------------------------------ per frame
    def pump(self) -> list[Msg]:
        """Take every message that arrived; return them (already applied).

        A message that cannot be applied (a server that breaks the protocol, or a newer one) is
        logged and skipped, the player is told, and a remote match is asked for the whole game
        again (``resync``): the board may be behind for a moment, the game never stops."""
        msgs = self.match.poll()
        resynced = False
        for m in msgs:
            try:
                self._take(m)
            except Exception:
                log.exception("cannot apply %.200r", m)
                self.say(_(UNREADABLE))
                if self.match.supports_resync and not resynced:
                    resynced = True
                    self.match.resync()
        return msgs

    def _take(self, m: Msg) -> None:
        t = m.get("type", "")
        aside = ASIDE.get(t)
        if aside is not None:
            aside(self, m)
            return
        if t == "UpdatePlayerStatus":
            self.away.pop(m.get("player"), None)
        was_my_turn = self.vm.my_turn
        self.game_log.game_message(t)
        refused = self.lobby.take(m)
        if refused is not None:
            self.notices.publish(LobbyRefused(refused))
        self.undo_rule.take(m)
        self.vm.feed(m)
        self.version += 1
        if t == "UpdateGame" and self.remote:
            self._adopt_server_game()
        if t.startswith("Err") and t not in LOBBY_MESSAGES:
            self.say(self._refusal(m))
            self.vm.errors.clear()
        self.game_log.told(self.narrator.take(m))
        if self.vm.my_turn and not was_my_turn:
            self.notices.publish(TurnStarted())

    # ------------------------------------------------------------------ the messages outside the game
    def _connection_lost(self, m: Msg) -> None:
        if self.vm.has_game and not self.vm.game["ended"]:
            if not self.connection_lost:
                self.connection_lost = True
                self.notices.publish(ConnectionLost())

    def _reconnected(self, m: Msg) -> None:
        self.connection_lost = False
        self.server_stopped = None
        self.game_log.note(_(RECONNECTED))
        self.notices.publish(Reconnected())

    def _reconnect_failed(self, m: Msg) -> None:
        # a server that is not the one the game was played on: the warning, and what to do
        warning = self.reconnect_warning = identity_warning(m["refusal"]) if "refusal" in m else None
        self.reconnect_failed = warning.line if warning else m.get("reason") or _(NOT_TAKEN_BACK)
        self.notices.publish(ReconnectFailed(self.reconnect_failed, warning))

    def _server_stopping(self, m: Msg) -> None:
        """Our extension: its host stopped the server on purpose (not a crash)."""
        self.server_stopped = m.get("reason") or "HOST_STOPPED"
        self.notices.publish(ServerStopping(self.server_stopped))

    def _player_away(self, m: Msg) -> None:
        """Our extension: who is away, and how long their seat waits."""
        self.away[m["player"]] = seconds = float(m.get("seconds") or 0)
        self.notices.publish(PlayerAway(m["player"], seconds))

    def _seat_clock(self, m: Msg) -> None:
        """Our extension: a player's time is short or ran out (the computer plays for them), in
        words in the log; the player's own also in the message box."""
        words = seat_clock_line(m, self.nickname)
        if words:
            self.game_log.note(words)
            if m.get("player") == self.nickname:
                self.say(words)
            self.version += 1

    def _history(self, m: Msg) -> None:
        """Our extension: how the game got here, for a player who comes back (in parts)."""
        whole = self.game_log.history_part(m)
        if whole is not None:
            self.skipped = [int(r) for r in m.get("skipped") or []]
            self.game_log.merge(tell(self.nickname, whole, self.bot_levels), self.skipped)
            self.version += 1

    def _replay(self, m: Msg) -> None:
        self.notices.publish(ReplayArrived(m.get("replay")))

    def _replay_refused(self, m: Msg) -> None:
        self.notices.publish(ReplayRefused(_(REPLAY_ERRORS.get(m.get("reason", ""), NO_REPLAY))))

    def _rated(self, m: Msg) -> None:
        """Our extension: the player's rating on this server (they joined with their key)."""
        self.rating = {k: m.get(k) for k in ("rating", "games", "place", "soloBest")}
        self.version += 1

    def _unrated(self, m: Msg) -> None:
        """Our extension: the server did not take the player's key; they play unrated (a note)."""
        self.game_log.note(unrated_line(m))
        self.version += 1

    def _rating_change(self, m: Msg) -> None:
        """Our extension: the game was rated (or a solo best kept): a note, and the words kept."""
        line = change_line(list(m.get("ratings") or ()), self.nickname)
        if line:
            self.rating_change = line
            self.game_log.note(line)
            self.version += 1

    def _chat(self, m: Msg) -> None:
        who, text = chat_said(m)     # (the server's notices in the player's language)
        if self.game_log.heard(self.shown_name(who), text):
            self.version += 1

    def _watch_news(self, m: Msg) -> None:
        """Our extension: the table's watchers (their count, their chat; a watcher's table)."""
        if m.get("type") == UPDATE_WATCHER_CHAT:
            if not self.watchers.hidden and self.game_log.heard(_(WATCHER).format(m.get("player")), str(m.get("text"))):
                self.version += 1
            return
        self.watchers.take(m)
        self.version += 1

    def hide_watchers(self, hide: bool) -> None:
        """Hide the watchers' chat of this table (or show it again): the server confirms it
        (``watchers.hidden``), and sends none meanwhile."""
        self.match.hide_watchers(hide)

    def _adopt_server_game(self) -> None:
        """Play by the server's game: its cards, leaders, productions (with its ids), market,
        track and tokens, as its ``UpdateGame`` gives them, for hints, costs and requests."""
        try:
            self.config = config_from_view(self.vm.game, self.local_config)  # type: ignore[arg-type]
        except ValueError:
            log.exception("the server's game cannot be read; hints follow our own config")
            self.config = self.local_config

    def _refusal(self, m: Msg) -> str:
        """A refusal of the last request, in the player's words (:mod:`game.client.refusals`);
        the engine's or the server's own words go to the log file."""
        request = self._sent
        log.warning("refused %r: %s", request, describe_error(m))
        player = None
        if self.vm.has_game and self.vm.game.get("isSetupDone"):
            try:
                player = self.shadow().player(self.nickname)
            except Exception:   # a view this client cannot rebuild: the error's own fields are said
                log.exception("no picture of the game to word a refusal with")
        return refusal_words(m, request, player)

    # ------------------------------------------------------------------ reading
    def stage(self) -> str:
        """Which screen fits now: lobby, leaders, resources, waiting, board or ended."""
        g = self.vm.game
        if g is None:
            return "lobby"
        if g["ended"]:
            return "ended"
        if g["isSetupDone"]:
            return "board"
        me = self.vm.me["setup"]
        if not me["hasChosenLeaders"]:
            return "leaders"
        if not me["hasChosenResources"] and me.get("initialResources", 0) > 0:
            return "resources"   # (the reference leaves the flag false when there is nothing to choose)
        return "waiting"

    def shown_name(self, nick: str) -> str:
        """A player's name as every front end says and draws it: a computer player with its level,
        "Cosimo (easy)" for the wire's "Cosimo (bot)" (:func:`~.words.player_name`), anyone else as
        they are."""
        return player_name(nick, self.bot_levels)

    @property
    def next_player(self) -> str | None:
        """Who plays after the current player: the next one in turn order still in the game
        (None in a solo game, or when nobody else is)."""
        g = self.vm.game
        players = g["players"] if g else []
        at = next((i for i, p in enumerate(players) if p["nickname"] == g.get("currentPlayer")), None)
        if at is None:
            return None
        after = (players[(at + k) % len(players)] for k in range(1, len(players)))
        return next((p["nickname"] for p in after if p.get("active", True)), None)

    @property
    def bot_levels(self) -> dict[str, str]:
        """The computer players' levels, by nickname (a game on this machine's, a server's
        ``botLevels``); empty when the game has none or its server does not say."""
        return self.match.bots or self.vm.bot_levels or {}

    @property
    def can_undo(self) -> bool:
        """Whether the Undo button may be offered: my turn, a game that knows undo, and a request of
        mine this turn that the engine's rule lets me take back (followed from the updates, as
        ``Game.undo`` decides; the engine or the server has the last word)."""
        return (self.match.supports_undo and self.undo_rule.undoable > 0
                and self.vm.has_game and self.vm.my_turn and not self.vm.game["ended"])

    def undo_words(self) -> str | None:
        """Why Undo is greyed on this player's turn, in words (None when it is not)."""
        if not self.match.supports_undo or self.can_undo:
            return None
        return self.undo_rule.words()

    @property
    def can_chat(self) -> bool:
        """Whether this game has other people to talk to (a remote game of two or more)."""
        return (self.match.supports_chat and self.vm.has_game
                and len(self.vm.game["players"]) > 1)

    # ------------------------------------------------------------------ the rules asked (RulesQueries)
    def shadow(self) -> Game:
        return self.rules.shadow()

    def can_produce(self) -> bool:
        return self.rules.can_produce()

    def buyable(self) -> set[tuple[str, int]]:
        return self.rules.buyable()

    def market_line(self, is_row: bool, index: int) -> MarketLine:
        return self.rules.market_line(is_row, index)

    def purchase_words(self, color: str, level: int) -> str | None:
        return self.rules.purchase_words(color, level)

    def leader_refusal(self, lid: int) -> str | None:
        return self.rules.leader_refusal(lid)

    # ------------------------------------------------------------------ requests (Commands)
    def _sending(self, action: Action | None) -> None:
        """A request (or an undo: None) goes out: the refusal shown is dismissed, and the next
        one is worded for this request."""
        self._error = None
        self._sent = action

    def send(self, action: Action) -> None:
        self.commands.send(action)

    def undo(self) -> None:
        self.commands.undo()

    def chat(self, text: str) -> None:
        self.commands.chat(text)

    def end_turn(self) -> None:
        self.commands.end_turn()

    def leader_action(self, lid: int, play: bool) -> None:
        self.commands.leader_action(lid, play)

    def choose_leaders(self, ids: Sequence[int]) -> None:
        self.commands.choose_leaders(ids)

    def choose_resources(self, placed: dict[int, dict[str, int]]) -> None:
        self.commands.choose_resources(placed)

    def close(self) -> None:
        self.match.close()


ASIDE: dict[str, Callable[[GameSession, Msg], None]] = {
    "ConnectionLost": GameSession._connection_lost,
    "Reconnected": GameSession._reconnected,
    "ReconnectFailed": GameSession._reconnect_failed,
    "UpdateServerStopping": GameSession._server_stopping,   # our extension
    "UpdatePlayerAway": GameSession._player_away,           # our extension
    "UpdateSeatClock": GameSession._seat_clock,             # our extension
    "UpdateHistory": GameSession._history,      # our extension
    "UpdateReplay": GameSession._replay,        # our extension
    "ErrReplay": GameSession._replay_refused,   # our extension
    "UpdateChat": GameSession._chat,            # our extension
    "UpdatePlayer": GameSession._rated,         # our extension (keys and ratings)
    "ErrKey": GameSession._unrated,             # our extension
    "UpdateRatingChange": GameSession._rating_change,   # our extension
}
ASIDE.update(dict.fromkeys(WATCH_TYPES, GameSession._watch_news))   # our extension: watchers
"""The messages outside the game, by type: each is taken by its handler alone (the view model,
the undo rule and the narrator never see it). The waiting room's messages have their own table
(:data:`game.client.lobby.HANDLERS`) and go on to the view model like the game's."""
