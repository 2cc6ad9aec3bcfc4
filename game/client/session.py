"""A game as the client scenes see it: a match, the view model it feeds, and the story so far.

:class:`GameSession` polls its :class:`~game.match.Match` once per frame (never blocking), feeds
every message to the one :class:`~game.client.view_model.ViewModel`, keeps the lobby state of a
remote match, tells in words what happened (the action log), and says which screen the player
should be on (:meth:`GameSession.stage`). Scenes read it; only scenes send requests through it.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

from game.rules.actions import (Action, ReqChooseLeaders, ReqChooseResources, ReqEndTurn,
                                ReqLeaderAction)
from game.rules.choices import MarketLine, activatable_leaders, affordable_cards, market_lines, runnable_productions
from game.rules.components import GameConfig
from game.rules.engine import Game
from game.rules.shadow import shadow_game
from game.rules.state import PlayerState
from game.rules.views import config_from_view

from .narration import Narrator
from .plans import BuyPlan
from .refusals import leader_missing_words, refusal_words
from .security import IdentityWarning, Link, identity_warning, link_of
from .view_model import ViewModel

if TYPE_CHECKING:
    from game.match import Match

Msg = dict[str, Any]
log = logging.getLogger("mor.session")

class ChatLine(str):
    """A line of the log that a player said (drawn apart from the game's own lines)."""

    speaker: str = ""

    @classmethod
    def of(cls, speaker: str, text: str) -> "ChatLine":
        line = cls(f"{speaker}: {text}")
        line.speaker = speaker
        return line


class Note(str):
    """A line of the log that this client adds (not a move of the game): reconnections, skipped turns."""


UNREADABLE = ("The server sent an update this version of the game could not read; "
              "the whole game is being fetched again.")

REPLAY_ERRORS = {
    "NOT_FINISHED": "The game is not over yet: its replay would show every hidden card.",
    "NO_SUCH_GAME": "The server no longer has this game.",
    "NOT_YOURS": "That game is not one of yours.",
}

NICKNAME_ERRORS = {
    "TAKEN": "That nickname is already playing on this server. Choose another one.",
    "NOT_SET": "Choose a nickname first (1 to 24 letters, digits or spaces).",
    "ALREADY_SET": "You have already joined with a nickname.",
    "NOT_IN_GAME": "You are not in a game yet.",
}


@dataclass
class Lobby:
    booked: int = 0
    head: str = ""
    players_count: int | None = None
    bots: list[str] = field(default_factory=list)   # levels of the bots asked for (our extension)
    error: str | None = None
    players: list[str] = field(default_factory=list)   # who waits, in order (our extension; else the head only)
    next_game: bool = False    # the table's game was under way when this player sat down: they wait for the next
    table: dict[str, Any] | None = None   # the named table sat at: {name, private, code} (our server's tables)


@dataclass
class GameSession:
    match: Match
    config: GameConfig
    nickname: str
    vm: ViewModel = field(init=False)
    lobby: Lobby = field(default_factory=Lobby)
    log: list[str] = field(default_factory=list)
    error: str | None = None            # the last refusal, in words
    connection_lost: bool = False
    reconnect_failed: str | None = None
    server_stopped: str | None = None   # the server said it stops on purpose (UpdateServerStopping.reason)
    away: dict[str, float] = field(default_factory=dict)   # players not connected -> seconds their seat waits, as told
    reconnect_warning: IdentityWarning | None = None   # why: the server is not the one the game was on
    turn_started: bool = False          # set when it becomes this player's turn (for the sound)
    _shadow: Game | None = field(default=None, init=False)
    _shadow_version: int = field(default=-1, init=False)
    _answers: dict = field(default_factory=dict, init=False)   # what the front door said (see _answer)
    _answers_version: int = field(default=-1, init=False)
    version: int = field(default=0, init=False)
    replay: dict | None = None          # a replay the server sent (UpdateReplay), for the replay scene
    replay_error: str | None = None
    undoable: int = field(default=0, init=False)   # my requests of this turn that may be taken back
    _final_seen: bool = field(default=False, init=False)
    _undo_reason: str = field(default="turn", init=False)   # why nothing can be undone: see undo_words
    _undone: bool = field(default=False, init=False)
    _sent: Action | None = field(default=None, init=False)   # the last request sent (to word its refusal)
    _chat_seen: list[tuple[str, str]] = field(default_factory=list, init=False)
    _chat_replay: list[tuple[str, str]] | None = field(default=None, init=False)
    _history: list[Msg] = field(default_factory=list, init=False)   # UpdateHistory lines so far
    skipped: list[int] = field(default_factory=list)   # rounds of this player's turns skipped while away

    def __post_init__(self) -> None:
        self.vm = ViewModel(self.nickname)
        self.narrator = Narrator(self.vm)
        self.local_config = self.config   # our own files' game: a local match plays by it

    @property
    def remote(self) -> bool:
        """Whether a server plays the game (a local match carries its engine's config)."""
        return self.match.config is None

    @property
    def link(self) -> Link | None:
        """How the game reaches its server, encrypted or not, and its certificate (None: a game on
        this machine)."""
        return link_of(self.match)

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
                self.error = UNREADABLE
                if self.match.supports_resync and not resynced:
                    resynced = True
                    self.match.resync()
        return msgs

    def _take(self, m: Msg) -> None:
        t = m.get("type", "")
        was_my_turn = self.vm.my_turn
        if t == "ConnectionLost":
            if self.vm.has_game and not self.vm.game["ended"]:
                self.connection_lost = True
            return
        if t == "UpdateServerStopping":   # our extension: its host stopped the server on purpose
            self.server_stopped = m.get("reason") or "HOST_STOPPED"
            return
        if t == "UpdatePlayerAway":   # our extension: who is away, and how long their seat waits
            self.away[m["player"]] = float(m.get("seconds") or 0)
            return
        if t == "UpdatePlayerStatus":
            self.away.pop(m.get("player"), None)
        if t == "Reconnected":
            self.connection_lost = False
            self.server_stopped = None
            self.log.append(Note("Reconnected: the board is up to date again."))
            return
        if t == "ReconnectFailed":
            # a server that is not the one the game was played on: the warning, and what to do
            warning = self.reconnect_warning = identity_warning(m["refusal"]) if "refusal" in m else None
            self.reconnect_failed = warning.line if warning else m.get("reason") or "the server did not take us back"
            return
        if t == "UpdateHistory":   # our extension: how the game got here, for a player who comes back
            self._history.extend(m.get("messages") or [])
            if m.get("last", True):
                self._take_history(self._history, [int(r) for r in m.get("skipped") or []])
                self._history = []
            return
        if t == "UpdateReplay":
            self.replay = m.get("replay")
            return
        if t == "ErrReplay":
            self.replay_error = REPLAY_ERRORS.get(m.get("reason", ""), "The server has no replay of this game.")
            return
        if t == "UpdateChat":
            said = (str(m["player"]), str(m["text"]))
            replay = self._chat_replay
            if replay is not None and said in replay:   # the table's recent lines, after a rejoin
                replay.remove(said)
                return
            self._chat_seen.append(said)
            del self._chat_seen[:-40]
            self.log.append(ChatLine.of(*said))
            self.version += 1
            return
        # a rejoin's UpdateGame is followed by the last lines said at the table: skip those we have
        self._chat_replay = list(self._chat_seen) if t == "UpdateGame" else None
        if t == "UpdateBookedSeats":
            self.lobby.booked, self.lobby.head = m["bookedSeats"], m["canPrepareNewGame"]
            self.lobby.players = [str(n) for n in m.get("players") or ()]
            table = m.get("table")
            self.lobby.table = table if isinstance(table, dict) else None
        elif t == "UpdateJoinGame":
            self.lobby.players_count = m["playersCount"]
            self.lobby.bots = [str(b) for b in m.get("bots") or ()]
        elif t == "ErrNickname":
            self.lobby.error = NICKNAME_ERRORS.get(m.get("reason", ""), "The server refused the nickname.")
        elif t == "ErrTable":    # a seat at a table refused: nothing taken, the player may choose again
            self.lobby.error = str(m.get("msg") or "That table cannot be joined.")
        elif t == "ErrNewGame":
            self.lobby.error = (str(m["reason"]) if m.get("reason") else "Choose between 1 and 4 players."
                                if m.get("isInvalidPlayersCount")
                                else "Only the first player in the waiting room chooses the number of players.")
        self._track_undo(m)
        self.vm.feed(m)
        self.version += 1
        if t == "UpdateGame" and self.remote:
            self._adopt_server_game()
        if t.startswith("Err") and t not in ("ErrNickname", "ErrNewGame", "ErrTable"):
            self.error = self._refusal(m)
            self.vm.errors.clear()
        line = self.narrator.take(m)
        if line:
            add_line(self.log, line)
        if self.vm.my_turn and not was_my_turn:
            self.turn_started = True

    def _adopt_server_game(self) -> None:
        """Play by the server's game: its cards, leaders, productions (with its ids), market,
        track and tokens, as its ``UpdateGame`` gives them, for hints, costs and requests."""
        try:
            self.config = config_from_view(self.vm.game, self.local_config)  # type: ignore[arg-type]
        except ValueError:
            log.exception("the server's game cannot be read; hints follow our own config")
            self.config = self.local_config

    def _take_history(self, messages: list[Msg], skipped: list[int]) -> None:
        """Tell the history in words (a scratch view model and narrator, as live) and put the
        lines this log lacks where they belong: all of them before anything else when the log has
        none of the game's lines yet (a resume, a new client), else those after the last line the
        log already has. Then say which of this player's turns were skipped."""
        vm = ViewModel(self.nickname)
        narrator = Narrator(vm)
        told: list[str] = []
        for m in messages:
            if m.get("type") == "UpdateChat":   # what was said at the table, where it was said
                told.append(ChatLine.of(str(m.get("player")), str(m.get("text"))))
                continue
            try:
                vm.feed(m)
                line = narrator.take(m)
            except Exception:   # a history this client cannot follow: what was told so far stays
                log.exception("cannot tell the history at %.200r", m)
                break
            if line:
                add_line(told, line)
        ours = [i for i, line in enumerate(self.log) if not isinstance(line, (ChatLine, Note))]
        if not ours:
            self.log[:0] = told
            for line in told:
                if isinstance(line, ChatLine):
                    self._chat_seen.append((line.speaker, line[len(line.speaker) + 2:]))
        else:
            have = [self.log[i] for i in ours]
            moves = [j for j, line in enumerate(told) if not isinstance(line, ChatLine)]
            plain = [told[j] for j in moves]
            new = told
            for k in range(min(len(have), 6), 0, -1):   # the longest tail of ours found in the history
                tail = have[-k:]
                at = [j for j in range(len(plain) - k + 1) if plain[j:j + k] == tail]
                if at:
                    new = told[moves[at[-1] + k - 1] + 1:]
                    break
            heard = {str(line) for line in self.log[-60:] if isinstance(line, ChatLine)}
            new = [line for line in new if not (isinstance(line, ChatLine) and str(line) in heard)]
            for line in new:
                if isinstance(line, ChatLine):
                    self._chat_seen.append((line.speaker, line[len(line.speaker) + 2:]))
            self.log.extend(new)
        del self._chat_seen[:-40]
        if skipped:
            self.log.append(Note(skipped_words(skipped)))
        self.skipped = list(skipped)
        self.version += 1

    # ------------------------------------------------------------------ requests
    def send(self, action: Action) -> None:
        self.error = None
        self._sent = action
        self.match.send(action)

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

    # ------------------------------------------------------------------ undo
    @property
    def can_undo(self) -> bool:
        """Whether the Undo button may be offered: my turn, a game that knows undo, and a request of
        mine this turn that the engine's rule lets me take back (followed from the updates, as
        ``Game.undo`` decides; the engine or the server has the last word)."""
        return (self.match.supports_undo and self.undoable > 0
                and self.vm.has_game and self.vm.my_turn and not self.vm.game["ended"])

    def shown_name(self, nick: str) -> str:
        """A player's name as the table shows it: a bot of a game on this machine with its level
        ("Lucrezia · hard bot" for "Lucrezia (bot)")."""
        return named(nick, self.match.bots or self.vm.bot_levels or {})

    def name_in_words(self, nick: str) -> str:
        """A player's name in a sentence: a bot of a game on this machine with its level in
        brackets ("Lucrezia (hard bot) wins" for "Lucrezia (bot)"), anyone else as they are."""
        shown = self.shown_name(nick)
        if shown == nick:
            return nick
        name, level = shown.split(" \u00b7 ", 1)
        return f"{name} ({level})"

    def undo_words(self) -> str | None:
        """Why Undo is greyed on this player's turn, in words (None when it is not)."""
        if not self.match.supports_undo or self.can_undo:
            return None
        return {"loaded": "Nothing to undo since the game was resumed: the moves made before stay as they are.",
                "final": "Your last move cannot be taken back: a card was bought, or something new was turned "
                         "up (a card, a token, a Vatican report).",
                "undone": "Nothing more to undo this turn: your moves are all taken back.",
                }.get(self._undo_reason, "Nothing to undo yet: you have not moved this turn.")

    def undo(self) -> None:
        """Take back my last request of this turn (answered by the table as it was, or a refusal)."""
        if self.match.supports_undo:
            self.error = None
            self._sent = None
            self.match.undo()

    def _track_undo(self, m: Msg) -> None:
        """Follow the engine's undo rule from the updates (docs/rules-engine.md, "Undo")."""
        t = m.get("type", "")
        me = self.nickname
        if t == "UpdateUndo":
            if m.get("player") == me:
                self.undoable = max(0, self.undoable - 1)
                self._undo_reason = "undone"
            self._undone = True      # the UpdateGame that follows is the same turn
        elif t == "UpdateGame":
            if not self._undone:
                self.undoable = 0
                self._undo_reason = "loaded" if m.get("isSetupDone") else "turn"
            self._undone = False
        elif t in ("UpdateDevSlot", "UpdateVaticanSection", "UpdateLastRound", "UpdateActionToken",
                   "UpdateGameEnd") or (t == "UpdateFaithPoints" and not m.get("isBlackCross")
                                        and m.get("player") != me):
            self._final_seen = True
        elif t in ("UpdateCurrentPlayer", "UpdatePlayerStatus", "UpdateSetupDone"):
            self.undoable = 0
            self._undo_reason = "turn"
        elif t == "UpdateAction":
            if m.get("player") == me and m.get("action") not in ("END_TURN", "CHOOSE_LEADERS", "CHOOSE_RESOURCES"):
                self.undoable = 0 if self._final_seen else self.undoable + 1
                if self._final_seen:
                    self._undo_reason = "final"
            self._final_seen = False

    @property
    def can_chat(self) -> bool:
        """Whether this game has other people to talk to (a remote game of two or more)."""
        return (self.match.supports_chat and self.vm.has_game
                and len(self.vm.game["players"]) > 1)

    def chat(self, text: str) -> None:
        """Say ``text`` to the table (nothing for an empty line; the server cleans the rest)."""
        text = " ".join(text.split())
        if text and self.can_chat:
            self.match.chat(text[:200])

    def close(self) -> None:
        self.match.close()

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

    def shadow(self) -> Game:
        """The engine's picture of what this player sees (for legal choices), rebuilt on change."""
        if self._shadow is None or self._shadow_version != self.version:
            assert self.vm.game is not None
            self._shadow = shadow_game(self.vm.game, self.config, self.nickname)
            self._shadow_version = self.version
        return self._shadow

    # ------------------------------------------------------------------ the front door
    # What a front end asks the rules, answered from this player's own view (the shadow game):
    # the scenes never import game.rules. Answers are kept until the game changes.
    def _answer(self, key: Any, compute: Callable[[Game, PlayerState], Any]) -> Any:
        if self._answers_version != self.version:
            self._answers, self._answers_version = {}, self.version
        if key not in self._answers:
            sh = self.shadow()
            self._answers[key] = compute(sh, sh.player(self.nickname))
        return self._answers[key]

    def can_produce(self) -> bool:
        """Whether some production could run now."""
        return self._answer("produce", lambda sh, me: bool(runnable_productions(sh, me)))

    def buyable(self) -> set[tuple[str, int]]:
        """(colour, level) of the cards of the grid this player can buy now."""
        return self._answer("buyable", lambda sh, me: {(o.card.color, o.card.level) for o in affordable_cards(sh, me)})

    def market_line(self, is_row: bool, index: int) -> MarketLine:
        """What taking a row (``is_row``) or a column of the market would give this player."""
        return self._answer(("line", is_row, index), lambda sh, me: next(
            line for line in market_lines(sh, me) if line.is_row == is_row and line.index == index))

    def purchase_words(self, color: str, level: int) -> str | None:
        """Why the top card of a pile cannot be bought now, or "Click to buy" (None: the pile is empty)."""
        def words(sh: Game, me: PlayerState) -> str | None:
            card = sh.top_card(color, level)
            return None if card is None else BuyPlan.start(sh, me, card).problem() or "Click to buy"
        return self._answer(("buy", color, level), words)

    def leader_refusal(self, lid: int) -> str | None:
        """Why this player's leader ``lid`` cannot be played yet, in words (None: it can be)."""
        def why(sh: Game, me: PlayerState) -> str | None:
            if any(ld.id == lid for ld in activatable_leaders(sh, me)):
                return None
            return leader_missing_words(sh, me, lid)
        return self._answer(("leader", lid), why)

    def end_turn(self) -> None:
        self.send(ReqEndTurn())

    def leader_action(self, lid: int, play: bool) -> None:
        """Play (``play``) or discard this player's leader ``lid``."""
        self.send(ReqLeaderAction(lid, play))

    def choose_leaders(self, ids: Sequence[int]) -> None:
        """Keep these leaders of the four dealt (at the set-up)."""
        self.send(ReqChooseLeaders(tuple(ids)))

    def choose_resources(self, placed: dict[int, dict[str, int]]) -> None:
        """The starting resources chosen, by shelf: {shelf id: {resource: count}}."""
        self.send(ReqChooseResources(placed))


_REARRANGED = re.compile(r"(?P<who>.+) rearranged the warehouse(?: \((?P<n>\d+) moves\))?\.")


def add_line(lines: list, line: str) -> None:
    """Put a told line at the end of a log. A player's moves in the warehouse one after another
    are one line, with their count ("Bea rearranged the warehouse (3 moves)."), as a plan sends
    its rearrangement: a request per move."""
    if type(line) is str and lines and type(lines[-1]) is str:
        new, last = _REARRANGED.fullmatch(line), _REARRANGED.fullmatch(lines[-1])
        if new is not None and last is not None and new["who"] == last["who"]:
            lines[-1] = f"{new['who']} rearranged the warehouse ({int(last['n'] or 1) + 1} moves)."
            return
    lines.append(line)


def skipped_words(rounds: list[int]) -> str:
    """What a player who comes back is told about the turns they missed: how many, and in which
    rounds (counted from the first turn of the game, which the board does not show: the count
    comes first), and where to read what happened.

    >>> skipped_words([5])
    'While you were away, your turn was skipped once (round 5): the game went on without you. The log above tells what happened.'
    >>> skipped_words([3, 4, 5])
    'While you were away, your turn was skipped 3 times (rounds 3 to 5): the game went on without you. The log above tells what happened.'
    >>> skipped_words([2, 4])
    'While you were away, your turn was skipped twice (rounds 2 and 4): the game went on without you. The log above tells what happened.'
    """
    n = len(rounds)
    times = {1: "once", 2: "twice"}.get(n, f"{n} times")
    if n == 1:
        which = f"round {rounds[0]}"
    elif n > 2 and rounds == list(range(rounds[0], rounds[0] + n)):
        which = f"rounds {rounds[0]} to {rounds[-1]}"
    else:
        which = "rounds " + ", ".join(str(r) for r in rounds[:-1]) + f" and {rounds[-1]}"
    return (f"While you were away, your turn was skipped {times} ({which}): the game went on without you. "
            "The log above tells what happened.")


def named(nick: str, levels: dict[str, str]) -> str:
    """A player's name as the table shows it: a bot with its level ("Lucrezia · hard bot" for
    "Lucrezia (bot)" when ``levels`` says "hard"), anyone else as they are."""
    level = levels.get(nick)
    if isinstance(level, str) and nick.endswith(" (bot)"):
        return f"{nick.removesuffix(' (bot)')} · {level} bot"
    return nick


def describe_error(m: Msg) -> str:
    """A refusal from the engine or the server, in the engine's words (for the log file; the
    player reads :func:`game.client.refusals.refusal_words`)."""
    from game.rules import errors as E
    t = m.get("type")
    if t == "ErrProtocol":
        from game.netcode.protocol import CHAT_TOO_FAST
        if m.get("msg") == CHAT_TOO_FAST:
            return "You are chatting faster than the server allows; wait a moment."
        return f"The server did not understand the request ({m.get('msg', '')})."
    cls = next((c for c in vars(E).values() if isinstance(c, type) and issubclass(c, E.GameError)
                and getattr(c, "TYPE", None) == t), None)
    if cls is None:
        return f"Refused: {t}."
    err = cls.__new__(cls)
    err.fields = {k: v for k, v in m.items() if k != "type"}
    try:
        return err.describe()
    except (KeyError, TypeError):
        return f"Refused: {t}."
