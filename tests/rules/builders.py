"""Builders for the rules acceptance tests: put a game straight into a scenario's "Given".

The scenarios of ``shared/reference/scenarios.md`` describe a position (market, storage,
cards, faith, leaders) rather than the moves that led to it, so these helpers create a real
game, finish its setup through the engine, and then set the state directly. Everything is
addressed the way the scenarios write it:

- seats are ints in turn order (0 = inkwell) or nicknames; ``A, B, C, D = names(g)``;
- storage is ``D1``/``D2``/``D3`` (warehouse), ``SB`` (strongbox) and ``LD_Coin`` etc. (the
  depot of the active ``leader_depot_coin``);
- market rows use the scenario letters (``W`` white, ``B`` Shield, ``G`` Stone, ``Y`` Coin,
  ``P`` Servant, ``R`` Faith);
- development slots are 1-based in requests built here (``slot=1`` is S1), as in the scenarios;
  market rows and columns are 1-based too (``take_row(g, A, 3)`` is row 3).

Request builders only *build* requests; tests apply them with ``g.apply(nick, request)``, or
check a refusal with :func:`refused`, which also asserts that nothing changed.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

import pytest

from game.rules.actions import (ProductionRequest, ReqActivateProductions, ReqBuyDevCard,
                                ReqChooseLeaders, ReqChooseResources, ReqEndTurn,
                                ReqTakeFromMarket)
from game.rules.components import GameConfig, default_config
from game.rules.engine import Game
from game.rules.errors import GameError
from game.rules.state import FAVOR_DOWN, FAVOR_REMOVED, FAVOR_UP, PlayerState

__all__ = [
    "CFG", "NICKS", "LETTERS", "UP", "DOWN", "REMOVED", "M0", "M1", "NEUTRAL",
    "by_key", "card_id", "leader_id", "token_id", "play_game", "names", "player", "turn_to",
    "set_market", "market_rows", "slide_letter", "give_leader", "set_shelves", "set_strongbox",
    "set_depot", "depot", "storage", "cid", "cmap", "give_cards", "set_deck", "put_on_top",
    "deck_sizes", "set_tokens", "set_faith", "set_reports", "set_favors", "take_row", "take_col",
    "buy", "prod", "produce", "refused", "of_type", "neutral_main", "neutral_turn", "pay_cost",
]

CFG: GameConfig = default_config()
NICKS = ("ann", "ben", "cat", "dan")
LETTERS = {"W": "Zero", "B": "Shield", "G": "Stone", "Y": "Coin", "P": "Servant", "R": "Faith"}
_MARBLE_LETTER = {v: k for k, v in LETTERS.items()}
UP, DOWN, REMOVED = FAVOR_UP, FAVOR_DOWN, FAVOR_REMOVED

# Reference markets of scenarios.md
M0 = ["W Y G B", "B P P W", "G Y W R"]   # slide W
M1 = ["W W W G", "B B Y Y", "P P G R"]   # slide W
# Column 1 and the slide are white: taking column 1 yields nothing and leaves the column white.
NEUTRAL = ["W Y G B", "W P P B", "W Y G R"]  # slide W


# ---------------------------------------------------------------------------- components
def by_key(config: GameConfig, key: str) -> Any:
    """The development card, leader or solo token whose ``key`` is ``key``."""
    for item in (*config.dev_cards, *config.leaders, *config.solo_tokens):
        if item.key == key:
            return item
    raise KeyError(key)


def card_id(key: str) -> int:
    return by_key(CFG, key).id


def leader_id(key: str) -> int:
    return by_key(CFG, key).id


def token_id(key: str) -> int:
    return by_key(CFG, key).id


# ---------------------------------------------------------------------------- game & seats
def play_game(n_players: int, seed: int = 1, leaders: Mapping[int, Sequence[str]] | None = None) -> Game:
    """A game of ``n_players`` in phase 'play', seat 0 to move, with empty storage.

    Setup goes through the engine: every player keeps the first 2 of the 4 leaders dealt and,
    if the seat has bonus resources, puts Coins on D3. Afterwards every container is emptied and
    every hand is cleared, so a scenario starts from nothing; ``leaders`` ({seat: [keys]}) puts
    those leaders in hand (not active). Faith stays as the setup left it (0/0/1/1 by seat).
    """
    g = Game.new(CFG, list(NICKS[:n_players]), seed)
    for p in g.players:
        g.apply(p.nickname, ReqChooseLeaders(tuple(p.hand[:CFG.leaders_kept])))
    for p in g.players:
        if not p.chose_resources:
            g.apply(p.nickname, ReqChooseResources({p.shelves[2].id: {"Coin": p.bonus}}))
    assert g.phase == "play" and g.current == 0 and not g.main_done
    for c in g.containers:
        c.content = {}
    for p in g.players:
        p.hand = []
        p.active_leaders = []
        p.depots = []
    for d in g.leader_depot.values():
        d.owner = None
    for seat, keys in (leaders or {}).items():
        for key in keys:
            give_leader(g, seat, key, active=False)
    return g


def names(g: Game) -> tuple[str, ...]:
    """The nicknames in seat order: ``A, B, C = names(g)`` as in the scenarios."""
    return tuple(p.nickname for p in g.players)


def player(g: Game, who: int | str) -> PlayerState:
    return g.players[who] if isinstance(who, int) else g.player(who)


def turn_to(g: Game, who: int | str) -> None:
    """Make it ``who``'s turn, main action not yet done."""
    g.current = player(g, who).seat
    g.main_done = False


# ---------------------------------------------------------------------------- market
def set_market(g: Game, rows: Sequence[str], slide: str = "W") -> None:
    """Set the grid from scenario letters, e.g. ``set_market(g, M0)``."""
    grid = [LETTERS[m] for r in rows for m in r.split()]
    assert len(grid) == CFG.market_rows * CFG.market_columns, rows
    g.market[:] = grid
    g.slide = LETTERS[slide]


def market_rows(g: Game) -> list[str]:
    cols = CFG.market_columns
    return [" ".join(_MARBLE_LETTER[m] for m in g.market[i:i + cols]) for i in range(0, len(g.market), cols)]


def slide_letter(g: Game) -> str:
    return _MARBLE_LETTER[g.slide]


# ---------------------------------------------------------------------------- leaders
def give_leader(g: Game, who: int | str, key: str, active: bool = True) -> int:
    """Put a leader in ``who``'s hand, active or not; an active depot leader gets its depot."""
    p = player(g, who)
    lid = leader_id(key)
    for q in g.players:
        assert lid not in q.hand, f"{key} is already held by {q.nickname}"
    p.hand.append(lid)
    if active:
        p.active_leaders.append(lid)
        d = g.leader_depot.get(lid)
        if d is not None:
            d.owner = p.seat
            p.depots.append(d)
    return lid


def depot(g: Game, key_or_res: str) -> Any:
    """The depot container of ``leader_depot_<res>`` (``"Coin"`` or ``"leader_depot_coin"``)."""
    key = key_or_res if key_or_res.startswith("leader_") else f"leader_depot_{key_or_res.lower()}"
    return g.leader_depot[leader_id(key)]


# ---------------------------------------------------------------------------- storage
def _container(g: Game, who: int | str, name: str) -> Any:
    p = player(g, who)
    if name in ("D1", "D2", "D3"):
        return p.shelves[int(name[1]) - 1]
    if name == "SB":
        return p.strongbox
    if name.startswith("LD_"):
        return depot(g, name[3:])
    raise KeyError(name)


def cid(g: Game, who: int | str, name: str) -> int:
    """The container id of ``D1``/``D2``/``D3``/``SB``/``LD_<Res>`` of ``who``."""
    return _container(g, who, name).id


def cmap(g: Game, who: int | str, **where: Mapping[str, int]) -> dict[int, dict[str, int]]:
    """A ``{container id: {res: n}}`` map for requests: ``cmap(g, A, D1={"Coin": 1})``."""
    return {cid(g, who, name): dict(m) for name, m in where.items()}


def set_shelves(g: Game, who: int | str, d1: Mapping[str, int] | None = None,
                d2: Mapping[str, int] | None = None, d3: Mapping[str, int] | None = None) -> None:
    p = player(g, who)
    for shelf, m in zip(p.shelves, (d1, d2, d3)):
        shelf.content = {r: n for r, n in (m or {}).items() if n}


def set_strongbox(g: Game, who: int | str, content: Mapping[str, int]) -> None:
    player(g, who).strongbox.content = {r: n for r, n in content.items() if n}


def set_depot(g: Game, res: str, content: Mapping[str, int]) -> None:
    depot(g, res).content = {r: n for r, n in content.items() if n}


def storage(g: Game, who: int | str) -> dict[str, dict[str, int]]:
    """Everything ``who`` stores, by scenario name: D1, D2, D3, SB and each active LD_<Res>."""
    p = player(g, who)
    out = {f"D{i + 1}": dict(s.content) for i, s in enumerate(p.shelves)}
    out["SB"] = dict(p.strongbox.content)
    for d in p.depots:
        out[f"LD_{d.bound}"] = dict(d.content)
    return out


# ---------------------------------------------------------------------------- cards
def give_cards(g: Game, who: int | str, slot_lists: Sequence[Sequence[str]]) -> None:
    """Set ``who``'s slots (bottom first, by key) and take those cards out of the grid."""
    p = player(g, who)
    assert len(slot_lists) <= CFG.dev_slots
    for i in range(CFG.dev_slots):
        keys = slot_lists[i] if i < len(slot_lists) else []
        ids = [card_id(k) for k in keys]
        p.slots[i] = ids
        for c in ids:
            card = CFG.dev_cards[c]
            deck = g.decks[card.color][card.level]
            if c in deck:
                deck.remove(c)


def set_deck(g: Game, color: str, level: int, keys_or_count: int | Sequence[str]) -> None:
    """Set a deck: a count keeps that many of its current cards (from the bottom); a list of
    keys sets it exactly, bottom to top (the LAST key is the top card)."""
    deck = g.decks[color][level]
    if isinstance(keys_or_count, int):
        assert keys_or_count <= len(deck)
        del deck[keys_or_count:]
        return
    ids = [card_id(k) for k in keys_or_count]
    for c in ids:
        card = CFG.dev_cards[c]
        assert (card.color, card.level) == (color, level), card.key
    deck[:] = ids


def put_on_top(g: Game, key: str) -> None:
    card = by_key(CFG, key)
    deck = g.decks[card.color][card.level]
    deck.remove(card.id)
    deck.append(card.id)


def deck_sizes(g: Game, color: str) -> tuple[int, ...]:
    return tuple(len(g.decks[color][lv]) for lv in CFG.levels)


# ---------------------------------------------------------------------------- faith & tokens
def set_faith(g: Game, *values: int, lorenzo: int | None = None) -> None:
    """Faith in seat order; ``lorenzo`` sets the black cross."""
    assert len(values) <= len(g.players)
    for p, v in zip(g.players, values):
        p.faith = v
    if lorenzo is not None:
        g.black_cross = lorenzo


def set_reports(g: Game, *fired: bool) -> None:
    """Which Vatican reports (in track order: pope space 8, 16, 24) have already fired."""
    g.fired[:len(fired)] = list(fired)


def set_favors(g: Game, who: int | str, *states: int) -> None:
    player(g, who).favors[:len(states)] = list(states)


def set_tokens(g: Game, keys: Sequence[str]) -> None:
    """Lorenzo's pile, next token first (revealed tokens sit at the end until a shuffle)."""
    g.tokens[:] = [token_id(k) for k in keys]


# ---------------------------------------------------------------------------- requests
def take_row(g: Game, who: int | str, row: int, replacements: Mapping[str, int] | None = None,
             **where: Mapping[str, int]) -> ReqTakeFromMarket:
    """Take market row ``row`` (1-3, top to bottom), storing ``where``; the rest is discarded."""
    return ReqTakeFromMarket(True, row - 1, dict(replacements or {}), cmap(g, who, **where))


def take_col(g: Game, who: int | str, col: int, replacements: Mapping[str, int] | None = None,
             **where: Mapping[str, int]) -> ReqTakeFromMarket:
    """Take market column ``col`` (1-4, left to right), storing ``where``."""
    return ReqTakeFromMarket(False, col - 1, dict(replacements or {}), cmap(g, who, **where))


def buy(g: Game, who: int | str, color: str, level: int, slot: int,
        **payment: Mapping[str, int]) -> ReqBuyDevCard:
    """Buy the top card of (color, level) into slot ``slot`` (1-3), paying from ``payment``."""
    return ReqBuyDevCard(color, level, slot - 1, cmap(g, who, **payment))


def pay_cost(g: Game, who: int | str, color: str, level: int, slot: int) -> ReqBuyDevCard:
    """Buy the top card of (color, level) into ``slot`` paying its discounted cost from SB."""
    p = player(g, who)
    card = g.top_card(color, level)
    assert card is not None
    return ReqBuyDevCard(color, level, slot - 1, {p.strongbox.id: g.card_cost(p, card)})


def prod(g: Game, who: int | str, source: str, out: Mapping[str, int] | None = None,
         **inputs: Mapping[str, int]) -> ProductionRequest:
    """One production: ``source`` is ``"base"``, a card key or a production-leader key."""
    if source == "base":
        pid = CFG.base_production.id
    else:
        pid = by_key(CFG, source).production.id
    return ProductionRequest(pid, cmap(g, who, **inputs), {}, dict(out or {}))


def produce(*requests: ProductionRequest) -> ReqActivateProductions:
    return ReqActivateProductions(tuple(requests))


# ---------------------------------------------------------------------------- assertions
def refused(g: Game, who: int | str, request: Any, error: type[GameError]) -> GameError:
    """Assert ``request`` is refused with exactly ``error`` and that nothing changed."""
    nick = player(g, who).nickname
    before = g.snapshot()
    with pytest.raises(GameError) as info:
        g.apply(nick, request)
    assert type(info.value) is error, f"expected {error.__name__}, got {info.value!r}"
    assert g.snapshot() == before
    return info.value


def of_type(events: Iterable[Mapping[str, Any]], kind: str) -> list[Mapping[str, Any]]:
    """The events of one type, in order."""
    return [e for e in events if e["type"] == kind]


def neutral_main(g: Game, who: int | str) -> list[dict]:
    """A main action that changes nothing but the turn state: take an all-white column."""
    set_market(g, NEUTRAL)
    return g.apply(player(g, who).nickname, take_col(g, who, 1))


def neutral_turn(g: Game, who: int | str) -> list[dict]:
    """A whole turn of ``who`` with :func:`neutral_main`; returns the end-turn events."""
    neutral_main(g, who)
    return g.apply(player(g, who).nickname, ReqEndTurn())
