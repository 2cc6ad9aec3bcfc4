"""The history of a game as one player saw it, for a player who comes back.

A client that rejoins (or a solo game that is resumed) gets the game as it is now; the story of
how it got there is not in that ``UpdateGame``. :func:`recent_history` replays the game from its
seed and keeps, for the whole game (or its last ``calls`` accepted calls), the messages the
player received then: the ``UpdateGame`` before them, then every update visible to that player,
but for the requests that were taken back (:func:`taken_back`: neither they nor their undos). The client feeds them to a scratch view model and tells them in words (the same
narration as live), so its log reads as if it had never left, from the first move. A whole
4-player game is a few hundred kilobytes of updates, sent once per rejoin in lines of at most
half the line limit (``bench``-free figures: ``tests/netcode/test_server_returning.py``).

It also tells which of the player's turns were skipped during their latest absence (a player who
is away is passed over): the round of each.

On the wire it is our extension ``UpdateHistory`` (sent only to clients that joined with a token,
after their ``UpdateGame`` on a rejoin), split by :func:`history_lines` into lines that each stay
well under the framing's line limit: ``{"type": "UpdateHistory", "messages": [...], "last": bool}``
and, in the last one, ``"skipped": [round, ...]``.
"""
from __future__ import annotations

import copy
from typing import Any

import orjson

from game.rules.actions import Action
from game.rules.engine import Game
from game.rules.views import player_view

from .framing import MAX_LINE
from .server_messages import update_chat, visible_to
from .server_words import said_again

Msg = dict[str, Any]
UPDATE_HISTORY = "UpdateHistory"
HISTORY_CALLS: int | None = None
"""Accepted calls (requests, departures and returns, undos) told to a player who comes back:
all of them (None), so the log of a player who comes back starts with the game."""


def recent_history(game: Game, nickname: str | None, calls: int | None = HISTORY_CALLS,
                   chat: "list[tuple[str, str, int]] | tuple" = ()) -> tuple[list[Msg], list[int]]:
    """The messages ``nickname`` received during the last ``calls`` calls of ``game`` (None: the
    whole game; an ``UpdateGame`` first; ``nickname`` None: what nobody's seat sees, a watcher's), and the rounds of their turns skipped while they were
    last away. ``chat``: lines said at the table as (player, text, calls in the game's history
    when said); each goes in as an ``UpdateChat`` where it was said among the moves, so that a
    returning player reads the table's talk in the order everyone else did.

    :raises GameError: the game's history does not replay (it always does for a real game).
    """
    history = list(game.history)
    telling = Telling(game, nickname)
    telling.tell(history, taken_back(history))
    return telling.told(history, chat, calls)


class Telling:
    """A game told to one seat, call by call, from its seed: what :func:`recent_history` says.

    It can be told further as the game goes on (:meth:`tell` takes the calls it has not seen),
    so a server keeps one per seat that came back and replays only what happened since (a rejoin
    loop cost the loop the whole game each time: issue 28, finding 2). Calls a later undo may
    still take back must not be told to a kept one (see :func:`told_for_good`).
    """

    def __init__(self, game: Game, nickname: str | None) -> None:
        self.source = game
        self.nickname = nickname
        self.g = g = Game(game.config, game.nicknames, game.seed)
        self.seat = g.player(nickname).seat if nickname is not None else -1   # -1: nobody's seat (a watcher)
        self.n = len(g.players)
        self.first = player_view(g, nickname)      # the game as it stood before the first call
        self.moves: list[Msg] = []                 # what the calls told, in order
        self.starts: list[int] = []                # where each call's messages begin in ``moves``
        self.rounds = 0
        self.skipped: list[int] = []
        # Rounds and skips follow the turn as the players met it: it moves only when it reaches
        # someone who can play. A turn the engine hands to a seat whose player is away while nobody
        # can play (everyone gone, as when a restart's grace ended with nobody back) is no move: the
        # turn stays where it was (``at``) until someone can play again, and then goes on from there.
        self.at: int | None = None   # the seat the turn really is at (None: the game has not begun; a
                                     # walk from there starts at the first seat, with no round passed)
        self.unfinished = False      # the player's own turn left them (a departure) before they played it
        self.lost = True             # an action was accepted since the last turn of theirs that was skipped
        self.size = len(orjson.dumps(self.first))   # the bytes of what it tells, roughly (for a cache's budget)

    @property
    def calls(self) -> int:
        """The calls told so far."""
        return len(self.starts)

    def _skip(self) -> None:         # a turn of the player's went by while they were away
        if self.lost:                # (a turn passed on twice with nothing played between is one turn lost)
            self.skipped.append(self.rounds)
        self.lost = False

    def _walk(self, to: int) -> None:
        """The turn goes from ``at`` to ``to`` (all the way round when they are the same seat):
        a round begins each time it passes the first seat; a seat passed over was away."""
        at, seat = self.at, self.seat
        if at == seat and self.unfinished and not self.g.players[seat].active:
            self._skip()             # their turn went on to the others while they were away
        self.unfinished = False
        s = -1 if at is None else at
        while True:
            s = (s + 1) % self.n
            if s == 0 and at is not None:
                self.rounds += 1
            if s == to:
                break
            if s == seat:
                self._skip()

    def tell(self, history: list[tuple[str, str, Any]], undone: frozenset[int] | set[int] = frozenset()) -> None:
        """Tell the calls of ``history`` not told yet (``undone``: the places of requests taken
        back and of their undos, left out: :func:`taken_back`)."""
        g, seat, nickname = self.g, self.seat, self.nickname
        for i in range(len(self.starts), len(history)):
            self.starts.append(len(self.moves))
            if i in undone:          # a request taken back, or its undo: the game is as if neither was made
                continue
            kind, nick, arg = history[i]
            before, playing, main_done = g.current, g.phase == "play", g.main_done
            if kind == "apply":
                events = g.apply(nick, arg if isinstance(arg, Action) else Action.from_dict(arg))
                self.lost = True
            elif kind == "undo":
                events = g.undo(nick)
            else:
                events = g.set_active(nick, bool(arg))
                if nick == nickname and not arg:
                    self.skipped, self.lost = [], True     # a new absence starts
            if not playing and g.phase == "play":
                self.rounds = 1
            if g.phase == "play" and self.n > 1:
                moved = any(e.get("type") == "UpdateCurrentPlayer" for e in events)
                if moved and before == seat == self.at and kind != "apply" and not main_done:
                    self.unfinished = True                 # their turn was taken from them half-done or unplayed
                if g.players[g.current].active:           # someone can play: the turn is theirs
                    if g.current != self.at or (moved and before == self.at):
                        self._walk(g.current)              # (round to the same seat only when passed on from it)
                    elif moved:
                        self.unfinished = False            # back where it was: that turn resumes
                    self.at = g.current
            for e in events:
                if visible_to(e, nickname):
                    self.moves.append(e)
                    self.size += len(orjson.dumps(e))

    def copy(self) -> "Telling":
        """Another telling from here on (the calls told so far are shared, the game is copied)."""
        other = copy.copy(self)
        other.g = copy.deepcopy(self.g)
        other.moves, other.starts, other.skipped = list(self.moves), list(self.starts), list(self.skipped)
        return other

    def told(self, history: list[tuple[str, str, Any]], chat: "list[tuple[str, str, int]] | tuple" = (),
             calls: int | None = None) -> tuple[list[Msg], list[int]]:
        """What :func:`recent_history` returns, once every call of ``history`` is told."""
        assert self.calls == len(history)
        cut = 0 if calls is None else max(0, len(history) - calls)
        said = sorted(chat, key=lambda c: c[2])   # (stable: lines said at one moment keep their order)
        out: list[Msg] = [self.first if cut == 0 else self._view_at(history, cut)]
        k = 0
        for i in range(cut, len(history) + 1):
            while k < len(said) and (said[k][2] <= i or i == len(history)):
                if said[k][2] >= cut or i == cut:
                    who, text, _at = said[k]
                    out.append(update_chat(who, said_again(text)))
                k += 1
            if i < len(history):
                end = self.starts[i + 1] if i + 1 < len(self.starts) else len(self.moves)
                out.extend(self.moves[self.starts[i]:end])
        back = next((bool(arg) for kind, nick, arg in reversed(history) if kind == "active" and nick == self.nickname), False)
        return out, (list(self.skipped) if back else [])

    def _view_at(self, history: list[tuple[str, str, Any]], cut: int) -> Msg:
        """The seat's ``UpdateGame`` before call ``cut`` (replayed: only for a part of a game)."""
        return player_view(Game.replay(self.g.config, self.g.nicknames, self.g.seed, history[:cut]), self.nickname)


def tell_again(kept: Telling | None, game: Game, nickname: str | None,
               chat: "list[tuple[str, str, int]] | tuple" = ()) -> tuple[Telling, list[Msg], list[int]]:
    """:func:`recent_history` for a seat told before: ``kept`` (a :class:`Telling` this returned
    last time for the same game and seat, or None) is told the calls since, as far as no undo can
    reach, and returned to be kept for next time; the rest is told on a copy. The same messages
    as :func:`recent_history`, for the cost of what is new."""
    history = list(game.history)
    undone = taken_back(history)
    if kept is None or kept.source is not game or kept.nickname != nickname or kept.calls > len(history):
        kept = Telling(game, nickname)
    kept.tell(history[:told_for_good(game, history)], undone)
    telling = kept
    if telling.calls < len(history):
        telling = telling.copy()
        telling.tell(history, undone)
    messages, skipped = telling.told(history, chat)
    return kept, messages, skipped


def told_for_good(game: Game, history: list[tuple[str, str, Any]]) -> int:
    """How many of the first calls of ``history`` (``game``'s) no later undo can reach: a
    :class:`Telling` kept for later may be told those, and no more."""
    open_ = game.open_requests()
    if not open_:
        return len(history)
    standing = [i for i, (kind, _n, _a) in enumerate(history) if kind == "apply"]
    undone = taken_back(history)
    standing = [i for i in standing if i not in undone]
    return standing[-open_]


def taken_back(history: list[tuple[str, str, Any]]) -> frozenset[int]:
    """The places in ``history`` of the requests later taken back and of the undos that took them
    back. Leaving both out gives the same game (an undo restores the state exactly as it was
    before its request, and never reaches past a player leaving or coming back), so a returning
    player is not told a turn's swaps and undos one by one: each undo sends the whole table again,
    and a turn spent swapping and undoing made a rejoin megabytes long (issue 28, finding 4).
    """
    standing: list[int] = []     # the requests an undo would take back, the latest last
    out: set[int] = set()
    for i, (kind, _nick, _arg) in enumerate(history):
        if kind == "apply":
            standing.append(i)
        elif kind == "undo":
            if not standing:     # (never, for a real game: then tell everything as it happened)
                return frozenset()
            out.update((standing.pop(), i))
    return frozenset(out)


def history_lines(messages: list[Msg], skipped: list[int], limit: int = MAX_LINE // 2) -> list[Msg]:
    """``UpdateHistory`` messages carrying ``messages`` in order, each under ``limit`` bytes as JSON
    (a single message larger than that travels alone)."""
    envelope = len(orjson.dumps({"type": UPDATE_HISTORY, "messages": [], "last": False, "skipped": skipped}))
    out: list[Msg] = []
    chunk: list[Msg] = []
    size = envelope
    for m in messages:
        n = len(orjson.dumps(m)) + 1
        if chunk and size + n > limit:
            out.append({"type": UPDATE_HISTORY, "messages": chunk, "last": False})
            chunk, size = [], envelope
        chunk.append(m)
        size += n
    out.append({"type": UPDATE_HISTORY, "messages": chunk, "last": True, "skipped": list(skipped)})
    return out
