"""The rules engine: one game of Masters of Renaissance, solo included.

A :class:`Game` is created from (config, nicknames, seed) and changed only through
:meth:`Game.apply` (a player's request), :meth:`Game.set_active` (a player drops or comes back)
and nothing else. Both check everything first and change nothing when they refuse, raising a
typed :class:`~game.rules.errors.GameError`. On success they return the list of events: state
messages in the exact wire shape of seed document 002 (``{"...": ..., "type": "UpdateMarket"}``).
``UpdateLeadersHand`` is private to its ``player``; every other event is for everyone.

The same config, seed and sequence of accepted calls give the same game, so a game is saved as
its seed plus :attr:`Game.history` and rebuilt with :meth:`Game.replay`.

This module holds the game's life (creation, requests, players coming and going, undo, the
result); the rules each request applies are in one module per job, each a mixin of :class:`Game`:
:mod:`.setup_phase`, :mod:`.storage`, :mod:`.leaders`, :mod:`.market`, :mod:`.dev_cards`,
:mod:`.production`, :mod:`.faith`, :mod:`.turns`, :mod:`.scoring` and :mod:`.undo`.

>>> from game.rules.components import default_config
>>> g = Game.new(default_config(), ["Ada"], seed=7)
>>> g.phase
'setup'
"""
from __future__ import annotations

import random
from typing import Any, Callable, Iterable, Sequence

from . import errors as E
from .actions import (Action, ReqActivateProductions, ReqBuyDevCard, ReqChooseLeaders,
                      ReqChooseResources, ReqEndTurn, ReqLeaderAction, ReqMoveResources,
                      ReqSwapShelves, ReqTakeFromMarket)
from .components import GameConfig
from .dev_cards import DevelopmentCards
from .faith import FaithTrack
from .leaders import Leaders
from .lookups import lookups
from .market import Market
from .production import Productions
from .scoring import Outcome, Score, Scoring, Termination
from .setup_phase import Setup
from .shuffle import shuffle as _shuffle
# the phases live in state.py (choices and views read them too); they may be imported from here
from .state import DEPOT, ENDED, PLAY, SETUP, SHELF, STRONGBOX, Container, PlayerState
from .storage import Storage
from .turns import Turns
from .undo import FINAL_REQUESTS, NOT_FINAL, Undo, action_name
from .views import player_views

Event = dict[str, Any]


class Game(Setup, Storage, Leaders, Market, DevelopmentCards, Productions, FaithTrack, Turns, Scoring,
           Undo):
    """A game in progress. See the module docstring for the contract.

    The lists and dicts below are replaced, never changed in place, so that an undo mark and a
    bot's copy (:func:`game.bots.common.clone`) may share them: a container's ``content``,
    ``market``, the grid (``decks``, each ``decks[color]`` and each deck ``decks[color][level]``),
    ``tokens``, ``revealed``, ``fired``, a player's ``favors`` and each of their ``slots``.
    """

    _final = NOT_FINAL   # see Undo._note_for_undo
    _stamp: object = None
    """The containers this game may change in place are those with this stamp (``Container.stamp``);
    any other is first copied (:meth:`_own`). Every container of a new game (or a shadow) has
    the stamp of its game, None; a bot's copy (:func:`game.bots.common.clone`) shares the
    containers with its original and gives each of the two a new stamp, so that whichever
    changes a container first changes its own copy of it."""
    _actor = -2     # the seat whose request is being applied (no seat at all outside apply)

    search = False
    """A copy used only to look ahead (a bot's): :meth:`apply` then keeps no undo information and
    no history, builds no events and returns ``[]``; the game itself changes exactly as it would
    otherwise (``tests/rules/test_search_copy.py`` compares every state along whole games), and
    :meth:`set_active` likewise returns ``[]``. Set on the bots' copies
    (:func:`game.bots.common.clone`); never on a game that players, a server or a replay use."""

    def __init__(self, config: GameConfig, nicknames: Sequence[str], seed: int) -> None:
        """Use :meth:`new`; this builds the initial state (setup phase)."""
        n = len(nicknames)
        if not config.min_players <= n <= config.max_players:
            raise ValueError(f"a game needs {config.min_players} to {config.max_players} players, not {n}")
        if len(set(nicknames)) != n or any(not isinstance(x, str) or not x.strip() for x in nicknames):
            raise ValueError("nicknames must be distinct non-empty strings")
        self.config = config
        self.lookups = lookups(config)
        self.seed = seed
        self.nicknames = tuple(nicknames)
        self.rng = random.Random(seed)
        self.history: list[tuple[str, str, Any]] = []
        self.version = 0
        self.search = False
        self.solo = n == 1
        self._events: list[Event] = []
        # seats whose points a request changed: None to count them again, or the faith they had
        # when their marker alone moved (their points then change by the track's difference)
        self._dirty: dict[int, int | None] = {}
        self._end_pending = False
        # undo (see :meth:`undo`): the state before the first request that can still be taken
        # back, the current player's requests applied since, and why nothing older can be
        self._undo_mark: tuple | None = None
        self._undo_stack: list[tuple[str, Action]] = []
        self._undo_barrier: str | None = None
        rng = self.rng
        order = list(nicknames)
        _shuffle(rng, order)
        cfg = config
        # containers: 3 shelves + strongbox per player, then one per extra-depot leader (reference ids)
        self.containers: list[Container] = []
        self.players: list[PlayerState] = []
        n_sections = len(cfg.vatican_sections)
        for seat, nick in enumerate(order):
            shelves = [self._new_container(SHELF, cap, owner=seat) for cap in cfg.shelf_capacities]
            box = self._new_container(STRONGBOX, -1, owner=seat)
            setup = cfg.seats[seat] if not self.solo else cfg.seats[0]
            self.players.append(PlayerState(nick, seat, shelves, box, cfg.dev_slots, n_sections,
                                            setup.bonus_resources, setup.starting_faith))
        self.leader_depot: dict[int, Container] = {}
        for leader in cfg.leaders:
            if leader.kind == "extra_depot":
                self.leader_depot[leader.id] = self._new_container(DEPOT, leader.depot_capacity,
                                                                   bound=leader.resource)
        self.by_nick = {p.nickname: p for p in self.players}
        # development grid: decks[color][level] -> card ids, top card last
        self.decks: dict[str, dict[int, list[int]]] = {c: {lv: [] for lv in cfg.levels} for c in cfg.colors}
        for card in cfg.dev_cards:
            self.decks[card.color][card.level].append(card.id)
        for c in cfg.colors:
            for lv in cfg.levels:
                _shuffle(rng, self.decks[c][lv])
        marbles = list(cfg.marbles)
        _shuffle(rng, marbles)
        self.market: list[str] = marbles[:-1]   # row-major, rows * columns
        self.slide: str = marbles[-1]
        leader_ids = [leader.id for leader in cfg.leaders]
        _shuffle(rng, leader_ids)
        for i, p in enumerate(self.players):
            p.hand = leader_ids[i * cfg.leaders_dealt:(i + 1) * cfg.leaders_dealt]
        self.tokens: list[int] = []           # solo draw pile, next token first
        self.last_token: int | None = None
        self.revealed: list[int] = []         # solo: tokens face up since the last shuffle, in order
        self.black_cross = 0
        if self.solo:
            self.tokens = [t.id for t in cfg.solo_tokens]
            _shuffle(rng, self.tokens)
        self.phase = SETUP
        self.current = 0
        self.main_done = False
        self.last_round = False
        self.fired = [False] * n_sections
        self.termination: Termination | None = None
        self.lorenzo_won = False
        self.winners: tuple[str, ...] = ()
        for p in self.players:
            p.vp = self._score(p).total

    @classmethod
    def new(cls, config: GameConfig, nicknames: Sequence[str], seed: int) -> "Game":
        """Start a game: shuffled decks, market and leaders; 4 leaders dealt to each player.

        :raises ValueError: wrong number of players, or nicknames not distinct and non-empty.
        """
        return cls(config, nicknames, seed)

    @classmethod
    def replay(cls, config: GameConfig, nicknames: Sequence[str], seed: int,
               history: Iterable[tuple[str, str, Any]]) -> "Game":
        """Rebuild a game from its seed and the accepted calls of :attr:`history`.

        :raises GameError: if the history does not fit this config and seed.
        """
        g = cls(config, nicknames, seed)
        for kind, nick, arg in history:
            if kind == "apply":
                g.apply(nick, arg if isinstance(arg, Action) else Action.from_dict(arg))
            elif kind == "undo":
                g.undo(nick)
            else:
                g.set_active(nick, bool(arg))
        return g

    def _new_container(self, kind: str, capacity: int, bound: str | None = None,
                       owner: int | None = None) -> Container:
        c = Container(len(self.containers), kind, capacity, bound, owner)
        self.containers.append(c)
        return c

    def player(self, nickname: str) -> PlayerState:
        """The player with that nickname.

        :raises KeyError: no such player in this game.
        """
        return self.by_nick[nickname]

    @property
    def current_player(self) -> PlayerState:
        return self.players[self.current]

    @property
    def ended(self) -> bool:
        return self.phase == ENDED

    def apply(self, nickname: str, action: Action) -> list[Event]:
        """Apply one request of ``nickname``; return the events, ending with ``UpdateAction``.

        :raises KeyError: ``nickname`` does not play in this game.
        :raises GameError: the request is refused; nothing changed.
        """
        p = self.by_nick[nickname]
        kind = type(action)
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise E.MalformedRequest(detail=f"{kind.__name__} is not a game request")
        dirty = self._dirty
        if self.search:   # a look-ahead copy: the same changes, nothing recorded
            if self._undo_mark is not None or self._undo_stack:
                # what came before the copy was taken cannot be taken back once it is played on
                self._undo_mark, self._undo_stack, self._undo_barrier = None, [], None
            dirty.clear()
            if p.stamp is not self._stamp:
                p = self._own_seat(p.seat)     # (shared with another copy until now)
            handler(self, p, action)
            if dirty:
                self._flush_vp()
            self._end_pending = False
            self.version += 1
            return []
        # the state before this request, if it may become the point an undo goes back to (ending
        # the turn and buying a card are always final)
        mark = (self._capture() if not self._undo_stack and self.phase == PLAY and self.current == p.seat
                and kind not in FINAL_REQUESTS else None)
        self._events = ev = []
        dirty.clear()
        self._final = NOT_FINAL
        self._actor = p.seat
        try:
            name = handler(self, p, action)
        except BaseException:
            self._events = []
            raise
        if dirty or self._end_pending:
            self._close_events()
        ev.append({"action": name, "player": nickname, "type": "UpdateAction"})
        self.history.append(("apply", nickname, action))
        self.version += 1
        self._events = []
        self._note_for_undo(p, kind, action, mark)
        return ev

    def set_active(self, nickname: str, active: bool) -> list[Event]:
        """Mark a player as connected (``True``) or gone (``False``); return the events.

        An inactive player's turns are skipped. If the current player leaves, their turn ends
        (in solo the game simply waits for them). If setup can now complete, it does: players
        who are away get their first leaders and a default choice of starting resources.

        :raises KeyError: ``nickname`` does not play in this game.
        """
        p = self.by_nick[nickname]
        if p.active == active:
            return []
        self._events = ev = []
        self._dirty.clear()
        p = self._own_seat(p.seat)
        p.active = active
        ev.append({"player": nickname, "isActive": active, "type": "UpdatePlayerStatus"})
        if self.phase == SETUP:
            self._maybe_finish_setup()
        elif self.phase == PLAY and not self.solo:
            if not active and self.current == p.seat:
                self._pass_turn()
            elif active and not self.current_player.active:
                self._pass_turn()
        self._close_events()
        if self.search:
            self.version += 1
            self._events = []
            return []
        self.history.append(("active", nickname, active))
        self.version += 1
        self._events = []
        if self._undo_stack:   # the others may have acted on the table as it stood: keep it
            self._undo_barrier = E.UNDO_PLAYER_STATUS
        if any(e["type"] == "UpdateCurrentPlayer" for e in ev):
            self._undo_barrier = None
        self._undo_stack.clear()
        self._undo_mark = None
        return ev

    def outcome(self) -> Outcome | None:
        """The result with every player's score breakdown, or None while the game goes on."""
        if self.phase != ENDED:
            return None
        return Outcome(self.termination, self.winners, self.lorenzo_won,  # type: ignore[arg-type]
                       {p.nickname: self._score(p) for p in self.players})

    def score(self, nickname: str) -> Score:
        """The current score breakdown of a player."""
        return self._score(self.by_nick[nickname])

    def undo(self, nickname: str) -> list[Event]:
        """Take back the last accepted request of the current player's turn.

        Requests are taken back one at a time, back to the start of the turn, but never past
        one that revealed something hidden (a card purchase shows the next card of its deck; in
        solo, ending the turn shows Lorenzo's token) or that changed what the other players had
        (faith from discarded resources, a Vatican report, the last round, the end of the game),
        nor past a player leaving or coming back. The state is then exactly what it was before
        that request; :attr:`history` records the undo, so :meth:`replay` gives the same game.

        Returns the events: ``UpdateUndo`` (our extension, for everyone: ``player`` and the
        ``action`` taken back), then one ``UpdateGame`` per player, private to that player
        (``player`` names it), since the whole table may need redrawing.

        :raises KeyError: ``nickname`` does not play in this game.
        :raises ErrUndo: nothing can be taken back now (``reason`` says why); nothing changed.
        """
        why = self.undo_refusal(nickname)
        if why is not None:
            raise E.ErrUndo(why)
        stack = self._undo_stack
        _, taken = stack.pop()
        assert self._undo_mark is not None
        self._restore(self._undo_mark)
        for nick, action in stack:   # replayed silently: the views below tell everything
            self._events = []
            self._dirty.clear()
            _HANDLERS[type(action)](self, self._own_seat(self.by_nick[nick].seat), action)
            self._close_events()
        self._events = []
        if not stack:
            self._undo_mark = None
        self.history.append(("undo", nickname, None))
        self.version += 1
        ev: list[Event] = [{"player": nickname, "action": action_name(taken), "type": "UpdateUndo"}]
        for q, view in zip(self.players, player_views(self, [q.nickname for q in self.players])):
            view["player"] = q.nickname
            ev.append(view)
        return ev

    def snapshot(self) -> dict[str, Any]:
        """The complete state as plain data (for equality checks and debugging)."""
        return {
            "phase": self.phase, "current": self.current, "main_done": self.main_done,
            "last_round": self.last_round, "fired": list(self.fired), "market": list(self.market),
            "slide": self.slide, "decks": {c: {lv: list(d) for lv, d in ds.items()} for c, ds in self.decks.items()},
            "containers": [(c.id, c.owner, dict(c.content)) for c in self.containers],
            "players": [{"nick": p.nickname, "active": p.active, "faith": p.faith, "hand": list(p.hand),
                         "active_leaders": list(p.active_leaders), "slots": [list(s) for s in p.slots],
                         "favors": list(p.favors), "vp": p.vp, "chose": (p.chose_leaders, p.chose_resources),
                         "depots": [d.id for d in p.depots]} for p in self.players],
            "tokens": list(self.tokens), "last_token": self.last_token, "revealed": list(self.revealed),
            "black_cross": self.black_cross,
            "winners": list(self.winners), "lorenzo_won": self.lorenzo_won,
            "termination": self.termination.value if self.termination else None,
            "rng": self.rng.getstate(), "version": self.version,
        }


_HANDLERS: dict[type, Callable[[Game, PlayerState, Any], str]] = {
    ReqChooseLeaders: Game._choose_leaders,
    ReqChooseResources: Game._choose_resources,
    ReqSwapShelves: Game._swap_shelves,
    ReqMoveResources: Game._move_resources,
    ReqLeaderAction: Game._leader_action,
    ReqTakeFromMarket: Game._take_from_market,
    ReqBuyDevCard: Game._buy_dev_card,
    ReqActivateProductions: Game._activate_productions,
    ReqEndTurn: Game._end_turn,
}
