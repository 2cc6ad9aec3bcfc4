"""The rules engine: one game of Masters of Renaissance, solo included.

A :class:`Game` is created from (config, nicknames, seed) and changed only through
:meth:`Game.apply` (a player's request), :meth:`Game.set_active` (a player drops or comes back)
and nothing else. Both check everything first and change nothing when they refuse, raising a
typed :class:`~game.rules.errors.GameError`. On success they return the list of events: state
messages in the exact wire shape of seed document 002 (``{"...": ..., "type": "UpdateMarket"}``).
``UpdateLeadersHand`` is private to its ``player``; every other event is for everyone.

The same config, seed and sequence of accepted calls give the same game, so a game is saved as
its seed plus :attr:`Game.history` and rebuilt with :meth:`Game.replay`.

>>> from game.rules.components import default_config
>>> g = Game.new(default_config(), ["Ada"], seed=7)
>>> g.phase
'setup'
"""
from __future__ import annotations

import enum
import random
from bisect import bisect_right
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

from . import errors as E
from .actions import (Action, ReqActivateProductions, ReqBuyDevCard, ReqChooseLeaders,
                      ReqChooseResources, ReqEndTurn, ReqLeaderAction, ReqMoveResources,
                      ReqSwapShelves, ReqTakeFromMarket)
from .components import DevCard, GameConfig, LeaderCard, Production, derived
# the phases live in state.py (choices and views read them too); they may be imported from here
from .state import (DEPOT, ENDED, FAVOR_REMOVED, FAVOR_UP, PLAY, SETUP, SHELF, STRONGBOX, Container,
                    PlayerState)
from .views import player_views
from .warehouse import (check_distinct_shelves, clean_res_map, fits, new_contents_after_add,
                        new_contents_after_take, res_name)

LORENZO = -1  # faith "seat" of the black cross

_CARD_REVEALED, _VATICAN_REPORT, _LAST_ROUND, _OTHERS_FAITH, _NOT_FINAL = range(5)
_FINAL_REASONS = (E.UNDO_CARD_REVEALED, E.UNDO_VATICAN_REPORT, E.UNDO_LAST_ROUND, E.UNDO_OTHERS_FAITH)
"""Why a request is final (it cannot be taken back), the most telling reason first: it showed
the next card of a deck (``UpdateDevSlot``), it brought a Vatican report
(``UpdateVaticanSection``) or the last round (``UpdateLastRound``), it moved another player's
marker (their ``UpdateFaithPoints``)."""

Event = dict[str, Any]


class Termination(enum.Enum):
    """Why the game ended."""

    ROUND_COMPLETED = "round_completed"      # multiplayer: the final round was played out
    SOLO_FAITH = "solo_faith"                # solo: the player reached the end of the track
    SOLO_CARDS = "solo_cards"                # solo: the player gained the 7th card
    LORENZO_FAITH = "lorenzo_faith"          # solo: the black cross reached the end of the track
    LORENZO_COLOR = "lorenzo_color"          # solo: a colour vanished from the grid


@dataclass(frozen=True, slots=True)
class Score:
    """One player's victory points by category; ``resources`` is the count left in storage."""

    cards: int
    faith_track: int
    favors: int
    leaders: int
    resource_vp: int
    resources: int

    @property
    def total(self) -> int:
        return self.cards + self.faith_track + self.favors + self.leaders + self.resource_vp


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game. ``winners`` holds several nicknames only for a shared win."""

    termination: Termination
    winners: tuple[str, ...]
    lorenzo_won: bool
    scores: Mapping[str, Score]


class Game:
    """A game in progress. See the module docstring for the contract.

    The lists and dicts below are replaced, never changed in place, so that an undo mark and a
    bot's copy (:func:`game.bots.common.clone`) may share them: a container's ``content``,
    ``market``, each deck (``decks[color][level]``), ``tokens``, ``revealed``, ``fired``, a
    player's ``favors`` and each of their ``slots``.
    """

    _final = _NOT_FINAL   # see _note_for_undo
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

    # ------------------------------------------------------------------ construction & replay
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

    # ------------------------------------------------------------------ public API
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
            handler(self, p, action)
            if dirty:
                self._flush_vp()
            self._end_pending = False
            self.version += 1
            return []
        # the state before this request, if it may become the point an undo goes back to (ending
        # the turn and buying a card are always final)
        mark = (self._capture() if not self._undo_stack and self.phase == PLAY and self.current == p.seat
                and kind not in _FINAL_REQUESTS else None)
        self._events = ev = []
        dirty.clear()
        self._final = _NOT_FINAL
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

    # ------------------------------------------------------------------ undo
    def undo_refusal(self, nickname: str) -> str | None:
        """Why ``nickname`` cannot take back a request now (an ``E.UNDO_*`` code), or None.

        :raises KeyError: ``nickname`` does not play in this game.
        """
        p = self.by_nick[nickname]
        if self.phase == SETUP:
            return E.UNDO_SETUP
        if self.phase == ENDED:
            return E.UNDO_ENDED
        if self.current != p.seat:
            return E.UNDO_NOT_CURRENT
        if not self._undo_stack:
            return self._undo_barrier or E.UNDO_NOTHING
        return None

    def can_undo(self, nickname: str) -> bool:
        """Whether ``nickname`` may take back their last request now (see :meth:`undo`)."""
        return self.undo_refusal(nickname) is None

    def undoable_action(self, nickname: str) -> str | None:
        """The ``UpdateAction`` name of the request :meth:`undo` would take back, or None."""
        if self.undo_refusal(nickname) is not None:
            return None
        return _action_name(self._undo_stack[-1][1])

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
            _HANDLERS[type(action)](self, self.by_nick[nick], action)
            self._close_events()
        self._events = []
        if not stack:
            self._undo_mark = None
        self.history.append(("undo", nickname, None))
        self.version += 1
        ev: list[Event] = [{"player": nickname, "action": _action_name(taken), "type": "UpdateUndo"}]
        for q, view in zip(self.players, player_views(self, [q.nickname for q in self.players])):
            view["player"] = q.nickname
            ev.append(view)
        return ev

    def _note_for_undo(self, p: PlayerState, kind: type, action: Action, mark: tuple | None) -> None:
        """After an accepted request: may it be taken back, and may what came before it?

        The request is final when it revealed something or touched the others: the handlers
        note it in ``_final`` as they make the events that show it (see :data:`_FINAL_REASONS`)."""
        if kind is ReqEndTurn:
            why = E.UNDO_TOKEN_REVEALED if self.solo else None   # multiplayer: a new turn begins
        elif self.phase != PLAY or kind in _SETUP_REQUESTS:
            why = E.UNDO_ENDED if self.phase == ENDED else None
        else:
            final = self._final
            if final == _NOT_FINAL:
                if mark is not None:
                    self._undo_mark = mark
                self._undo_stack.append((p.nickname, action))
                return
            why = _FINAL_REASONS[final]
        self._undo_barrier = why
        self._undo_stack.clear()
        self._undo_mark = None

    def _made_final(self, rank: int) -> None:
        """Note that the request being applied cannot be taken back (``rank``: the reason's
        index in :data:`_FINAL_REASONS`, the most telling reason first)."""
        if rank < self._final:
            self._final = rank

    def _capture(self) -> tuple:
        """What a request that can be taken back may change, copied (see :meth:`_restore`).

        Such a request changes only the current player's storage, leaders, faith and points, the
        leader depots, the market, the main-action flag and (solo) the black cross: anything that
        would touch the others, the decks, the reports or the turn order makes it final (see
        :meth:`_note_for_undo`), and then this mark is dropped. The undo tests compare whole
        snapshots, so anything missed here would show.
        """
        p = self.players[self.current]
        # by seat, container order and id, so that a copy of the game (a bot's clone) may use it;
        # the contents and the market are kept, not copied: the engine replaces them, never
        # changes one in place
        shelves = []
        for c in p.shelves:
            shelves.append(c.content)
        depots = []
        for d in self.leader_depot.values():
            depots.append((d.owner, d.content))
        mine = []
        for d in p.depots:
            mine.append(d.id)
        return (p.seat, shelves, p.strongbox.content, depots, mine, p.hand.copy(), p.active_leaders.copy(),
                p.faith, p.vp, self.market, self.slide, self.black_cross, self.main_done)

    def _restore(self, mark: tuple) -> None:
        """Put back a state from :meth:`_capture` (the mark stays intact: what the game may change
        in place is copied again)."""
        (seat, shelves, box, depots, p_depots, hand, leaders, faith, vp,
         self.market, self.slide, self.black_cross, self.main_done) = mark
        conts = self.containers
        p = self.players[seat]
        own = self._own
        for c, content in zip(p.shelves.copy(), shelves):
            own(c).content = content
        own(p.strongbox).content = box
        for c, (owner, content) in zip(list(self.leader_depot.values()), depots):
            c = own(c)
            c.owner = owner
            c.content = content
        p.depots = [conts[cid] for cid in p_depots]
        p.hand, p.active_leaders, p.faith, p.vp = hand.copy(), leaders.copy(), faith, vp

    # ------------------------------------------------------------------ checks shared by handlers
    def _check_turn(self, p: PlayerState) -> None:
        if self.phase == SETUP:
            raise E.ErrAction(E.EARLY_MANDATORY_ACTION)
        if self.phase == ENDED:
            raise E.ErrAction(E.GAME_ENDED)
        if self.current != p.seat:
            raise E.ErrAction(E.NOT_CURRENT_PLAYER)

    def _check_main(self, p: PlayerState) -> None:
        if self.phase != PLAY or self.current != p.seat or self.main_done:
            self._check_turn(p)   # (raises the refusal of the first check that fails)
            raise E.ErrAction(E.LATE_MANDATORY_ACTION)

    def _check_setup(self, p: PlayerState) -> None:
        if self.phase != SETUP:
            raise E.ErrAction(E.LATE_SETUP_ACTION)

    def _res(self, name: str) -> str:
        return res_name(name, self.config.resources)

    def _own_container(self, p: PlayerState, cid: int, *, depot_like: bool) -> Container:
        """The container ``cid`` if ``p`` may use it here.

        :raises ErrObjectNotOwned: unknown, someone else's, an inactive leader's, or (when
            ``depot_like``) the strongbox.
        """
        if 0 <= cid < len(self.containers):
            c = self.containers[cid]
            if c.owner == p.seat and not (depot_like and c.kind == STRONGBOX):
                return c
        return _raise(E.ErrObjectNotOwned(cid, "Shelf" if depot_like else "ResourceContainer"))

    def _placement(self, p: PlayerState, shelves: Mapping[int, Mapping[str, int]]) -> dict[Container, dict[str, int]]:
        """Resolve a ``{container id: {res: n}}`` placement request into containers and clean maps."""
        out: dict[Container, dict[str, int]] = {}
        for cid, m in shelves.items():
            c = self._own_container(p, cid, depot_like=True)
            clean = clean_res_map(m, self.config.resources, is_input=False, is_replacement=False)
            if clean:
                out[c] = clean
        return out

    def _payment(self, p: PlayerState, containers: Mapping[int, Mapping[str, int]]) -> dict[Container, dict[str, int]]:
        out: dict[Container, dict[str, int]] = {}
        for cid, m in containers.items():
            c = self._own_container(p, cid, depot_like=False)
            clean = clean_res_map(m, self.config.resources, is_input=True, is_replacement=False)
            if clean:
                prev = out.setdefault(c, {})
                for r, n in clean.items():
                    prev[r] = prev.get(r, 0) + n
        return out

    def _own(self, c: Container) -> Container:
        """``c`` if this game may change it in place, else this game's own copy of it, put where
        ``c`` was: in :attr:`containers`, its player's storage or :attr:`leader_depot`."""
        stamp = self._stamp
        if c.stamp is stamp:
            return c
        n = _new(Container)
        n.id, n.kind, n.capacity, n.bound, n.content, n.owner, n.stamp = (
            c.id, c.kind, c.capacity, c.bound, c.content, c.owner, stamp)
        self.containers[c.id] = n
        if c.kind == DEPOT:
            depots = self.leader_depot
            for lid, d in depots.items():
                if d is c:
                    depots[lid] = n
                    break
        if c.owner is not None:
            q = self.players[c.owner]
            if q.strongbox is c:
                q.strongbox = n
            else:
                for into in (q.shelves, q.depots):
                    for i, d in enumerate(into):
                        if d is c:
                            into[i] = n
        return n

    def _commit(self, new: Mapping[Container, dict[str, int]]) -> None:
        """Give containers their new contents: dicts made for this (the container keeps them)."""
        ev = None if self.search else self._events
        dirty = self._dirty
        stamp = self._stamp
        for c, content in new.items():
            if c.stamp is not stamp:
                c = self._own(c)
            c.content = content if 0 not in content.values() else {r: n for r, n in content.items() if n}
            if ev is not None:
                ev.append({"resContainer": c.to_wire(), "type": "UpdateResourceContainer"})
            if c.owner is not None:
                dirty[c.owner] = None

    # ------------------------------------------------------------------ setup
    def _choose_leaders(self, p: PlayerState, a: ReqChooseLeaders) -> str:
        self._check_setup(p)
        if p.chose_leaders:
            raise E.ErrInitialChoice(True, 0)
        for lid in a.leaders:
            if lid not in p.hand:  # unknown ids too, as the reference answers
                raise E.ErrObjectNotOwned(lid, "LeaderCard")
        distinct = list(dict.fromkeys(a.leaders))
        missing = self.config.leaders_kept - len(distinct)
        if missing or len(distinct) != len(a.leaders):
            raise E.ErrInitialChoice(True, missing if missing else len(a.leaders) - len(distinct))
        p.hand = distinct
        p.chose_leaders = True
        self._emit_hand(p)
        self._maybe_finish_setup()
        return a.ACTION

    def _choose_resources(self, p: PlayerState, a: ReqChooseResources) -> str:
        self._check_setup(p)
        placement = self._placement(p, a.shelves)
        if p.chose_resources:
            if p.bonus == 0 and not placement:
                return a.ACTION  # the reference accepts an empty choice from a seat with nothing to choose
            raise E.ErrInitialChoice(False, 0)
        for c in placement:
            if c.kind != SHELF:
                raise E.ErrObjectNotOwned(c.id, "Shelf")
        total = sum(n for m in placement.values() for n in m.values())
        if total != p.bonus:
            raise E.ErrReplacedTransRecipe(False, "", p.bonus, total)
        new = new_contents_after_add(placement, p.shelves)
        self._commit(new)
        p.chose_resources = True
        self._maybe_finish_setup()
        return a.ACTION

    def _emit_hand(self, p: PlayerState) -> None:
        if self.search:
            return
        self._events.append({"player": p.nickname, "leaders": list(p.hand), "type": "UpdateLeadersHand"})
        self._events.append({"player": p.nickname, "leadersHandCount": len(p.hand),
                             "type": "UpdateLeadersHandCount"})

    def _maybe_finish_setup(self) -> None:
        present = False
        for p in self.players:
            if p.active:
                if not (p.chose_leaders and p.chose_resources):
                    return
                present = True
        if not present:
            return
        for p in self.players:  # players who are away get default choices
            if not p.chose_leaders:
                p.hand = p.hand[:self.config.leaders_kept]
                p.chose_leaders = True
                self._emit_hand(p)
            if not p.chose_resources:
                self._commit(new_contents_after_add(self._default_bonus(p), p.shelves))
                p.chose_resources = True
        self.phase = PLAY
        if not self.search:
            self._events.append({"type": "UpdateSetupDone"})
        self.current = 0
        self.main_done = False
        if not self.current_player.active:
            # the first seat is away: say who plays first (otherwise every view already names the
            # first seat, and the reference sends nothing after UpdateSetupDone)
            self.current = self._next_active_seat(self.current)[0]
            if not self.search:
                self._events.append({"player": self.current_player.nickname, "type": "UpdateCurrentPlayer"})

    def _default_bonus(self, p: PlayerState) -> dict[Container, dict[str, int]]:
        """Starting resources for a player who did not choose: all of the first resource, on
        the largest shelf."""
        if not p.bonus:
            return {}
        return {max(p.shelves, key=lambda s: s.capacity): {self.config.resources[0]: p.bonus}}

    # ------------------------------------------------------------------ shelves
    def _swap_shelves(self, p: PlayerState, a: ReqSwapShelves) -> str:
        self._check_turn(p)
        c1 = self._own_container(p, a.shelf1, depot_like=True)
        c2 = self._own_container(p, a.shelf2, depot_like=True)
        if c1 is c2:
            raise E.ErrObjectNotOwned(a.shelf2, "Shelf")
        self._rearrange(p, {c1: dict(c2.content), c2: dict(c1.content)})
        return a.ACTION

    def _move_resources(self, p: PlayerState, a: ReqMoveResources) -> str:
        self._check_turn(p)
        src = self._own_container(p, a.source, depot_like=True)
        dst = self._own_container(p, a.target, depot_like=True)
        if src is dst:
            raise E.ErrObjectNotOwned(a.target, "Shelf")
        if a.count <= 0:
            raise E.ErrInvalidResourceTransaction(False, False, E.NEGATIVE_VALUES)
        r = self._res(a.res_type)
        taken = new_contents_after_take({src: {r: a.count}})[src]
        moved = dict(dst.content)
        moved[r] = moved.get(r, 0) + a.count
        self._rearrange(p, {src: taken, dst: moved})
        return a.ACTION

    def _rearrange(self, p: PlayerState, new: dict[Container, dict[str, int]]) -> None:
        """Check and commit new contents for depot-like containers of ``p``."""
        for c, content in new.items():
            why = fits(c, content)
            if why is not None:
                res = next((r for r in content if r != c.bound), None) if why == E.BOUNDED_RESTYPE_DIFFER else None
                raise E.ErrResourceTransfer(res or next(iter(content)), True, why)
        check_distinct_shelves(p.shelves, new)
        self._commit(new)

    # ------------------------------------------------------------------ leaders
    def _leader_action(self, p: PlayerState, a: ReqLeaderAction) -> str:
        self._check_turn(p)
        if a.leader not in p.hand:  # unknown ids too, as the reference answers
            raise E.ErrObjectNotOwned(a.leader, "LeaderCard")
        leader = self.config.leaders[a.leader]
        if not a.is_activate:
            if leader.id in p.active_leaders:
                raise E.ErrActiveLeaderDiscarded()
            p.hand.remove(leader.id)
            self._emit_hand(p)
            self._dirty[p.seat] = None
            self._faith_step({p.seat: 1})
            return "DISCARD_LEADER"
        if leader.id in p.active_leaders:
            raise E.ErrObjectNotOwned(a.leader, "LeaderCard")
        missing_cards, missing_res = self.missing_requirements(p, leader)
        if missing_cards or missing_res:
            raise E.ErrCardRequirements(missing_cards, missing_res)
        p.active_leaders.append(leader.id)
        if leader.kind == "extra_depot":
            depot = self._own(self.leader_depot[leader.id])
            depot.owner = p.seat
            p.depots.append(depot)
        self._dirty[p.seat] = None
        if not self.search:
            self._events.append({"leader": leader.id, "player": p.nickname, "type": "UpdateActivateLeader"})
        return "ACTIVATE_LEADER"

    def missing_requirements(self, p: PlayerState, leader: LeaderCard) -> tuple[list[dict[str, Any]], dict[str, int]]:
        """What ``p`` lacks to activate ``leader``: ([{color, quantity, level}], {res: n}).

        Cards count covered ones too, and "any level" adds up every level; resources are
        counted over all storage and are not spent.
        """
        cards = self.config.dev_cards
        owned = [cards[cid] for slot in p.slots for cid in slot]
        missing_cards = []
        for req in leader.requires_cards:
            have = sum(1 for c in owned if c.color == req.color and (req.level is None or c.level == req.level))
            if have < req.count:
                missing_cards.append({"color": req.color, "quantity": req.count - have, "level": req.level or 0})
        missing_res: dict[str, int] = {}
        if leader.requires_resources:
            totals = p.resource_totals()
            for r, n in leader.requires_resources.items():
                if totals.get(r, 0) < n:
                    missing_res[r] = n - totals.get(r, 0)
        return missing_cards, missing_res

    def active_leaders_of(self, p: PlayerState, kind: str) -> list[LeaderCard]:
        leaders = self.config.leaders
        out = []
        for i in p.active_leaders:
            if leaders[i].kind == kind:
                out.append(leaders[i])
        return out

    # ------------------------------------------------------------------ market
    def line(self, is_row: bool, index: int) -> list[str]:
        """The marbles of a market row (left to right) or column (top to bottom), 0-based."""
        cols = self.config.market_columns
        if is_row:
            return self.market[index * cols:(index + 1) * cols]
        return self.market[index::cols]

    def market_intake(self, p: PlayerState, is_row: bool, index: int,
                      replacements: Mapping[str, int]) -> tuple[dict[str, int], int]:
        """What taking a line gives ``p``: ({resource: n} with whites converted, faith).

        :raises ErrNoSuchEntity: MARKET_INDEX.
        :raises ErrInvalidResourceTransaction, ErrReplacedTransRecipe: bad white replacements.
        """
        cfg = self.config
        if not 0 <= index < (cfg.market_rows if is_row else cfg.market_columns):
            raise E.ErrNoSuchEntity("MARKET_INDEX", index)
        intake: dict[str, int] = {}
        faith = whites = 0
        cols = cfg.market_columns
        market = self.market
        for m in market[index * cols:(index + 1) * cols] if is_row else market[index::cols]:   # self.line
            if m == "Faith":
                faith += 1
            elif m == "Zero":
                whites += 1
            else:
                intake[m] = intake.get(m, 0) + 1
        if not replacements and not p.active_leaders:   # (the usual case: nothing below applies)
            return intake, faith
        reps = (clean_res_map(replacements, cfg.resources, is_input=False, is_replacement=True)
                if replacements else {})
        options = [ld.resource for ld in self.active_leaders_of(p, "white_marble")] if p.active_leaders else []
        if reps and any(r not in options for r in reps):
            raise E.ErrInvalidResourceTransaction(False, True, E.EXCLUDED)
        chosen = sum(reps.values())
        if len(options) == 1 and not reps:
            reps = {options[0]: whites} if whites else {}
        elif options and chosen != whites:
            raise E.ErrReplacedTransRecipe(False, "", whites, chosen)
        for r, n in reps.items():
            intake[r] = intake.get(r, 0) + n
        return intake, faith

    def _take_from_market(self, p: PlayerState, a: ReqTakeFromMarket) -> str:
        self._check_main(p)
        intake, faith = self.market_intake(p, a.is_row, a.index, a.replacements)
        placement = self._placement(p, a.shelves)
        placed: dict[str, int] = {}
        for m in placement.values():
            for r, n in m.items():
                placed[r] = placed.get(r, 0) + n
        total_in, total_placed = sum(intake.values()), sum(placed.values())
        if total_placed > total_in:
            raise E.ErrReplacedTransRecipe(False, "", total_in, total_placed)
        for r, n in placed.items():
            if n > intake.get(r, 0):
                raise E.ErrReplacedTransRecipe(False, r, intake.get(r, 0), n)
        new = new_contents_after_add(placement, p.shelves)
        discarded = total_in - total_placed
        # committed from here on
        self.main_done = True
        self._commit(new)
        self._push_market(a.is_row, a.index)
        if faith:
            self._faith_step({p.seat: faith})
        if discarded and self.phase != ENDED:
            if self.solo:
                self._faith_step({LORENZO: discarded})
            else:
                others = {}
                for q in self.players:
                    if q is not p:
                        others[q.seat] = discarded
                self._faith_step(others)
        return a.ACTION

    def _push_market(self, is_row: bool, index: int) -> None:
        """Slide the spare marble into a line; the market becomes a new list (never changed in
        place, so an undo mark and a bot's copy may keep the old one)."""
        cols = self.config.market_columns
        m = self.market.copy()
        if is_row:
            start = index * cols
            out = m[start]
            m[start:start + cols] = m[start + 1:start + cols] + [self.slide]
        else:
            out = m[index]
            last = len(m) - cols + index
            m[index:last:cols] = m[index + cols::cols]
            m[last] = self.slide
        self.market = m
        self.slide = out
        if not self.search:
            self._events.append({"market": self.market_wire(), "type": "UpdateMarket"})

    def market_wire(self) -> dict[str, Any]:
        market = self.market
        grid = []
        for row in self.lookups.market_rows:
            grid.append(market[row])
        return {"grid": grid, "replaceableResType": "Zero", "slide": self.slide}

    # ------------------------------------------------------------------ development cards
    def card_cost(self, p: PlayerState, card: DevCard) -> dict[str, int]:
        """The cost of ``card`` for ``p`` after active discount leaders (never below 0)."""
        if not p.active_leaders:
            return dict(self.lookups.card_cost[card.id])
        cost = dict(card.cost)
        for ld in self.active_leaders_of(p, "discount"):
            if ld.resource in cost:
                cost[ld.resource] = max(0, cost[ld.resource] - ld.discount)
        return {r: n for r, n in cost.items() if n}

    def slot_accepts(self, p: PlayerState, slot: int, level: int) -> bool:
        """Level 1 goes into an empty slot; level N on top of a level N-1 card."""
        s = p.slots[slot]
        if not s:
            return level == self.config.levels[0]
        return self.config.dev_cards[s[-1]].level == level - 1

    def top_card(self, color: str, level: int) -> DevCard | None:
        deck = self.decks[color][level]
        return self.config.dev_cards[deck[-1]] if deck else None

    def _buy_dev_card(self, p: PlayerState, a: ReqBuyDevCard) -> str:
        self._check_main(p)
        cfg = self.config
        color = a.color[:1].upper() + a.color[1:].lower() if a.color not in self.decks else a.color
        if color not in self.decks:
            raise E.ErrNoSuchEntity("COLOR", code=a.color)
        if a.level not in self.decks[color]:
            raise E.ErrNoSuchEntity("DEVCARD", a.level)
        card = self.top_card(color, a.level)
        if card is None:
            raise E.ErrBuyDevCard(True)
        if not 0 <= a.dev_slot < cfg.dev_slots:
            raise E.ErrObjectNotOwned(a.dev_slot, "DevSlot")
        if not self.slot_accepts(p, a.dev_slot, card.level):
            raise E.ErrBuyDevCard(False)
        cost = self.card_cost(p, card)
        totals = p.resource_totals()
        short = {r: n - totals.get(r, 0) for r, n in cost.items() if totals.get(r, 0) < n}
        if short:
            raise E.ErrCardRequirements(None, short)
        new = self._pay(p, a.res_containers, cost)
        # committed from here on
        self.main_done = True
        self._commit(new)
        decks = self.decks[color]
        decks[card.level] = decks[card.level][:-1]
        p.slots[a.dev_slot] = [*p.slots[a.dev_slot], card.id]
        self._dirty[p.seat] = None
        self._made_final(_CARD_REVEALED)
        if not self.search:
            self._events.append({"player": p.nickname, "devSlot": a.dev_slot,
                                 "devCards": list(p.slots[a.dev_slot]), "type": "UpdateDevSlot"})
            self._events.append({"devCardGrid": self.grid_wire(), "type": "UpdateDevCardGrid"})
        if self.solo and self._color_gone(color):
            self._end(Termination.LORENZO_COLOR)
        elif p.card_count() >= cfg.end_game_cards:
            if self.solo:
                self._end(Termination.SOLO_CARDS)
            else:
                self._trigger_last_round()
        return a.ACTION

    def _pay(self, p: PlayerState, containers: Mapping[int, Mapping[str, int]],
             cost: Mapping[str, int]) -> dict[Container, dict[str, int]]:
        """Check that ``containers`` pays exactly ``cost``; return the containers' new contents."""
        payment = self._payment(p, containers)
        paid: dict[str, int] = {}
        for m in payment.values():
            for r, n in m.items():
                paid[r] = paid.get(r, 0) + n
        if paid != cost:   # (neither holds a zero)
            for r in sorted(set(paid) | set(cost)):
                if paid.get(r, 0) != cost.get(r, 0):
                    raise E.ErrReplacedTransRecipe(True, r, cost.get(r, 0), paid.get(r, 0))
        return new_contents_after_take(payment)

    def grid_wire(self) -> dict[str, Any]:
        cfg = self.config
        levels = cfg.levels
        top = {}
        left = {}
        decks = self.decks
        for c in cfg.colors:
            ds = decks[c]
            t = [None]
            n = [0]
            for lv in levels:
                deck = ds[lv]
                if deck:
                    t.append(deck[-1])
                    n.append(len(deck))
                else:
                    t.append(None)
                    n.append(0)
            top[c] = t
            left[c] = n
        # cardsLeft is our extension (the reference sends only top cards); clients ignore unknown keys
        return {"levelsCount": len(cfg.levels), "colorsCount": len(cfg.colors), "topCards": top,
                "cardsLeft": left}

    def _color_gone(self, color: str) -> bool:
        return not any(self.decks[color].values())

    # ------------------------------------------------------------------ production
    def available_productions(self, p: PlayerState) -> dict[int, Production]:
        """Productions ``p`` may run now: the base one, top cards, active production leaders."""
        cfg = self.config
        out = {cfg.base_production.id: cfg.base_production}
        for cid in p.top_cards():
            prod = cfg.dev_cards[cid].production
            out[prod.id] = prod
        for ld in self.active_leaders_of(p, "production"):
            if ld.production is not None:
                out[ld.production.id] = ld.production
        return out

    def _activate_productions(self, p: PlayerState, a: ReqActivateProductions) -> str:
        self._check_main(p)
        cfg = self.config
        if not a.prod_requests:
            raise E.ErrReplacedTransRecipe(True, "", 1, 0)
        available = self.available_productions(p)
        seen: set[int] = set()
        payment: dict[int, dict[str, int]] = {}
        out_res: dict[str, int] = {}
        faith = 0
        for req in a.prod_requests:
            pid = req.production
            if pid not in available or pid in seen:  # unknown ids too, as the reference answers
                raise E.ErrObjectNotOwned(pid, "ReducedProductionRequest")
            seen.add(pid)
            prod = available[pid]
            nonstore = clean_res_map(req.input_non_storable_rep, cfg.resources, is_input=True, is_replacement=True)
            if nonstore:
                raise E.ErrInvalidResourceTransaction(True, True, E.ILLEGAL_STORABLE)
            reps = clean_res_map(req.output_rep, cfg.resources, is_input=False, is_replacement=True)
            n_reps = sum(reps.values())
            if n_reps != prod.output_choice:
                raise E.ErrReplacedTransRecipe(False, "", prod.output_choice, n_reps)
            paid: dict[str, int] = {}
            for cid, m in req.input_containers.items():
                for r, n in clean_res_map(m, cfg.resources, is_input=True, is_replacement=False).items():
                    paid[r] = paid.get(r, 0) + n
                    into = payment.setdefault(cid, {})
                    into[r] = into.get(r, 0) + n
            for r, n in prod.input.items():
                if paid.get(r, 0) < n:
                    raise E.ErrReplacedTransRecipe(True, r, n, paid.get(r, 0))
            need = sum(prod.input.values()) + prod.input_choice
            if sum(paid.values()) != need:
                raise E.ErrReplacedTransRecipe(True, "", need, sum(paid.values()))
            for r, n in prod.output.items():
                if r == "Faith":
                    faith += n
                else:
                    out_res[r] = out_res.get(r, 0) + n
            for r, n in reps.items():
                out_res[r] = out_res.get(r, 0) + n
        new = new_contents_after_take(self._payment(p, payment))
        # committed from here on
        self.main_done = True
        if out_res:
            box = new.get(p.strongbox, dict(p.strongbox.content))
            for r, n in out_res.items():
                box[r] = box.get(r, 0) + n
            new[p.strongbox] = box
        self._commit(new)
        if faith:
            self._faith_step({p.seat: faith})
        return a.ACTION

    # ------------------------------------------------------------------ faith & Vatican reports
    def _faith_step(self, moves: Mapping[int, int]) -> None:
        """Move markers at once, then resolve reports and end conditions (one "faith step")."""
        last = self.config.last_space
        ev = None if self.search else self._events
        players = self.players
        dirty = self._dirty
        for seat, n in moves.items():
            if seat == LORENZO:
                new = self.black_cross + n
                if new > last:
                    new = last
                if new != self.black_cross:
                    self.black_cross = new
                    if ev is not None:
                        ev.append({"isBlackCross": True, "faithPoints": new, "type": "UpdateFaithPoints"})
            else:
                q = players[seat]
                new = q.faith + n
                if new > last:
                    new = last
                if new != q.faith:
                    if seat not in dirty:
                        dirty[seat] = q.faith
                    q.faith = new
                    if seat != self._actor and self._final > _OTHERS_FAITH:
                        self._final = _OTHERS_FAITH
                    if ev is not None:
                        ev.append({"player": q.nickname, "isBlackCross": False, "faithPoints": new,
                                   "type": "UpdateFaithPoints"})
        top = self.black_cross
        for q in players:
            if q.faith > top:
                top = q.faith
        t = self.lookups
        for i in range(len(t.pope_spaces)) if top >= t.first_pope else ():
            if top >= t.pope_spaces[i] and not self.fired[i]:
                sec = self.config.vatican_sections[i]
                self.fired = fired = self.fired.copy()
                fired[i] = True
                given = []
                for q in self.players:
                    q.favors = favors = q.favors.copy()
                    if q.faith >= sec.first_space:
                        favors[i] = FAVOR_UP
                        given.append(q.nickname)
                    else:
                        favors[i] = FAVOR_REMOVED
                    self._dirty[q.seat] = None
                self._made_final(_VATICAN_REPORT)
                if ev is not None:
                    ev.append({"vaticanSection": sec.id, "bonusGivenPlayers": given, "type": "UpdateVaticanSection"})
        if self.phase == ENDED:
            return
        if self.solo:
            if self.black_cross >= last:
                self._end(Termination.LORENZO_FAITH)
            elif self.players[0].faith >= last:
                self._end(Termination.SOLO_FAITH)
        elif top >= last:   # (no black cross in multiplayer)
            self._trigger_last_round()

    # ------------------------------------------------------------------ turn flow & end
    def _end_turn(self, p: PlayerState, a: ReqEndTurn) -> str:
        self._check_turn(p)
        if not self.main_done:
            raise E.ErrAction(E.EARLY_TURN_END)
        if self.solo:
            self._reveal_token()
            if self.phase != ENDED:
                self.main_done = False
                if not self.search:
                    self._events.append({"player": p.nickname, "type": "UpdateCurrentPlayer"})
        else:
            self._pass_turn()
        return a.ACTION

    def _next_active_seat(self, seat: int) -> tuple[int, bool]:
        """The next active seat after ``seat`` and whether the inkwell was passed on the way."""
        n = len(self.players)
        wrapped = False
        s = seat
        for _ in range(n):
            s += 1
            if s == n:
                s = 0
                wrapped = True
            if self.players[s].active:
                return s, wrapped
        s = seat + 1
        return (0, True) if s == n else (s, False)

    def _pass_turn(self) -> None:
        nxt, wrapped = self._next_active_seat(self.current)
        if wrapped and self.last_round:
            self._end(Termination.ROUND_COMPLETED)
            return
        self.current = nxt
        self.main_done = False
        if not self.search:
            self._events.append({"player": self.players[nxt].nickname, "type": "UpdateCurrentPlayer"})

    def _trigger_last_round(self) -> None:
        if not self.last_round:
            self.last_round = True
            self._made_final(_LAST_ROUND)
            if not self.search:
                self._events.append({"type": "UpdateLastRound"})

    def _reveal_token(self) -> None:
        cfg = self.config
        pile = self.tokens[1:]   # lists that a bot's copy may share are replaced, not changed
        tid = self.tokens[0]
        self.tokens = pile
        token = cfg.solo_tokens[tid]
        self.last_token = tid
        if token.kind == "discard":
            left = token.amount
            decks = self.decks[token.color]
            for lv in cfg.levels:
                deck = decks[lv]
                n = len(deck)
                if n:
                    if n > left:
                        n = left
                    decks[lv] = deck[:-n]
                    left -= n
                    if not left:
                        break
            if not self.search:
                self._events.append({"devCardGrid": self.grid_wire(), "type": "UpdateDevCardGrid"})
        else:
            self._faith_step({LORENZO: token.spaces})
        if token.kind == "move_shuffle":
            self.tokens = [t.id for t in cfg.solo_tokens]
            _shuffle(self.rng, self.tokens)
            self.revealed = []       # every token back in the pile (the shuffle token shows as the last)
        else:
            pile.append(tid)         # kept face up until the next shuffle; never drawn before it
            self.revealed = [*self.revealed, tid]
        if not self.search:
            self._events.append({"actionToken": tid, "type": "UpdateActionToken"})
        if self.phase != ENDED and token.kind == "discard" and self._color_gone(token.color):
            self._end(Termination.LORENZO_COLOR)

    def _end(self, why: Termination) -> None:
        self.phase = ENDED
        self.termination = why
        if why in (Termination.LORENZO_FAITH, Termination.LORENZO_COLOR):
            self.lorenzo_won = True
            self.winners = ()
        elif self.solo:
            self.winners = (self.players[0].nickname,)
        else:
            # every score counted once: a player whose points this request changed, or whose
            # count differs from their points (a test may set storage directly), is counted again
            # by _flush_vp as usual; the others' points are already what the count says
            per_vp = self.lookups.per_vp
            dirty = self._dirty
            best = -1
            scores = []
            for q in self.players:
                cards, track, favors, leaders, count = self._score_parts(q)
                total = cards + track + favors + leaders + count // per_vp
                scores.append((total, count, q.nickname))
                if total > best:
                    best = total
                if q.seat in dirty or total != q.vp:
                    dirty[q.seat] = None
            tied = [(count, nick) for total, count, nick in scores if total == best]
            most = max(count for count, _ in tied)
            self.winners = tuple(nick for count, nick in tied if count == most)
        self._trigger_last_round()
        if self.solo:
            for q in self.players:
                self._dirty[q.seat] = None
        self._end_pending = True

    def _close_events(self) -> None:
        """Final events of an accepted call: changed scores, then the end of the game if it came."""
        self._flush_vp()
        if self._end_pending:
            self._end_pending = False
            self._events.append({"winner": self.winners[0], "type": "UpdateGameEnd"} if self.winners
                                else {"type": "UpdateGameEnd"})

    # ------------------------------------------------------------------ scoring
    def _score(self, p: PlayerState) -> Score:
        """The score breakdown of ``p``."""
        cards, track, favors, leaders, count = self._score_parts(p)
        return Score(cards, track, favors, leaders, count // self.lookups.per_vp, count)

    def _score_parts(self, p: PlayerState) -> tuple[int, int, int, int, int]:
        """Points from cards, the faith track, favor tiles and leaders, and the resources held."""
        t = self.lookups
        card_vp = t.card_vp
        cards = 0
        for slot in p.slots:
            for c in slot:
                cards += card_vp[c]
        favors = 0
        if FAVOR_UP in p.favors:
            i = 0
            favor_vp = t.favor_vp
            for f in p.favors:
                if f == FAVOR_UP:
                    favors += favor_vp[i]
                i += 1
        leaders = 0
        if p.active_leaders:
            leader_vp = t.leader_vp
            for lid in p.active_leaders:
                leaders += leader_vp[lid]
        count = 0
        for c in p.shelves:
            for n in c.content.values():
                count += n
        for c in p.depots:
            for n in c.content.values():
                count += n
        for n in p.strongbox.content.values():
            count += n
        tv = t.track_vp
        faith = p.faith
        return cards, tv[faith] if faith < len(tv) else tv[-1], favors, leaders, count

    def _flush_vp(self) -> None:
        """Count again the points of the players a request changed (in seat order); a player
        whose faith marker alone moved gains the track's difference."""
        dirty = self._dirty
        if not dirty:
            return
        t = self.lookups
        per_vp = t.per_vp
        tv = t.track_vp
        end = len(tv) - 1
        players = self.players
        for seat in sorted(dirty) if len(dirty) > 1 else dirty:
            q = players[seat]
            was = dirty[seat]
            if was is None:
                cards, faith, favors, leaders, count = self._score_parts(q)
                vp = cards + faith + favors + leaders + count // per_vp
            else:   # the track's points, beyond its end those of its last space
                faith = q.faith
                vp = q.vp + tv[faith if faith < end else end] - tv[was if was < end else end]
            if vp != q.vp:
                q.vp = vp
                if not self.search:
                    self._events.append({"player": q.nickname, "victoryPoints": vp, "type": "UpdateVictoryPoints"})
        dirty.clear()

    # ------------------------------------------------------------------ snapshots
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


class Lookups:
    """What the engine reads of a config on every request, as flat tables by id (one per config,
    shared by every game of it: see :func:`lookups`)."""

    __slots__ = ("config", "card_vp", "card_level", "card_cost", "leader_vp", "favor_vp", "track_vp", "per_vp",
                 "first_pope", "pope_spaces", "market_rows", "leader_most_cards")

    def __init__(self, cfg: GameConfig) -> None:
        self.config = cfg
        self.card_vp = tuple(c.victory_points for c in cfg.dev_cards)      # ids are 0..n-1
        self.card_level = tuple(c.level for c in cfg.dev_cards)
        # each card's printed cost as (resource, n) pairs, zeros left out
        self.card_cost = tuple(tuple((r, n) for r, n in c.cost.items() if n) for c in cfg.dev_cards)
        self.leader_vp = tuple(ld.victory_points for ld in cfg.leaders)
        self.favor_vp = tuple(sec.favor_vp for sec in cfg.vatican_sections)
        squares = [s for s, _ in cfg.vp_squares]
        self.track_vp = tuple(cfg.vp_squares[i - 1][1] if i else 0
                              for i in (bisect_right(squares, f) for f in range(cfg.last_space + 1)))
        self.per_vp = cfg.resources_per_vp
        # the most cards one of a leader's card requirements asks for (0: none)
        self.leader_most_cards = tuple(max((r.count for r in ld.requires_cards), default=0) for ld in cfg.leaders)
        cols = cfg.market_columns
        self.market_rows = tuple(slice(i * cols, (i + 1) * cols) for i in range(cfg.market_rows))
        self.pope_spaces = tuple(sec.pope_space for sec in cfg.vatican_sections)
        self.first_pope = min(self.pope_spaces, default=cfg.last_space + 1)

    def __copy__(self) -> "Lookups":
        return self          # immutable: a copied game (copy.deepcopy) keeps the same tables

    def __deepcopy__(self, memo: dict) -> "Lookups":
        return self


def lookups(cfg: GameConfig) -> Lookups:
    """The :class:`Lookups` of ``cfg`` (made once per config)."""
    return derived(cfg, Lookups)


def _shuffle(rng: random.Random, x: list) -> None:
    """``rng.shuffle(x)``: the same draws from ``rng`` and the same order, without a method call
    per element (``tests/rules/test_api.py`` compares the two)."""
    if type(rng) is not random.Random:
        rng.shuffle(x)
        return
    bits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()   # Random._randbelow_with_getrandbits
        j = bits(k)
        while j >= n:
            j = bits(k)
        x[i], x[j] = x[j], x[i]


_new = object.__new__


def _raise(err: Exception) -> Any:
    raise err


_FINAL_REQUESTS = (ReqEndTurn, ReqBuyDevCard)
_SETUP_REQUESTS = (ReqChooseLeaders, ReqChooseResources)
def _action_name(action: Action) -> str:
    """The ``UpdateAction`` name of a request (a leader request names what it did)."""
    return action.action_name if type(action) is ReqLeaderAction else action.ACTION


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
