"""What every level shares: the board rebuilt from a view, a cheap copy of a game, and words.

A bot's whole knowledge is the view; :func:`board` turns it into a :class:`~game.rules.engine.Game`
(``shadow_game``) so that :mod:`game.rules.choices` can list the legal choices. :func:`clone`
copies a game (a shadow or a sampled one) so a bot can try a request on the copy and look at
the result, without touching the original.
"""
from __future__ import annotations

import random
from typing import Any, Mapping

from game.i18n import _, npgettext, pgettext
from game.rules.components import DevCard, GameConfig, LeaderCard
from game.rules.engine import ENDED, PLAY, SETUP, Game
from game.rules.shadow import shadow_game
from game.rules.state import PlayerState


def board(view: dict, config: GameConfig, nickname: str) -> tuple[Game, PlayerState]:
    """The game as ``nickname`` sees it and their seat in it.

    :raises ValueError: ``nickname`` does not play in this view, or has nothing to do now.
    """
    if not any(p.get("nickname") == nickname for p in view.get("players", ())):
        raise ValueError(f"{nickname!r} does not play in this game")
    g = shadow_game(view, config, nickname)
    p = g.player(nickname)
    if g.phase == SETUP:
        if p.chose_leaders and p.chose_resources:
            raise ValueError(f"{nickname} has made every setup choice; the others have not yet")
    elif g.phase == ENDED:
        raise ValueError("the game is over")
    elif g.phase == PLAY and g.current != p.seat:
        raise ValueError(f"it is not {nickname}'s turn")
    return g, p


# ---------------------------------------------------------------------------- copying
_SHARED = frozenset({
    # never changed in place by the engine (replaced, or fixed for the whole game)
    "config", "lookups", "seed", "nicknames", "solo", "version", "search", "market", "slide", "last_token",
    "decks",
    "black_cross", "tokens", "revealed", "fired",
    "phase", "current", "main_done", "last_round", "termination", "lorenzo_won", "winners",
    "_end_pending", "_undo_mark", "_undo_barrier", "_final", "_actor",
    # rebuilt by clone below (new for both the copy and the original: _stamp)
    "containers", "leader_depot", "players", "by_nick",
    "history", "_events", "_dirty", "rng", "_undo_stack", "_stamp"})
"""Every attribute of a :class:`Game` that :func:`clone` may take over as it is or builds anew
(``tests/bots`` checks that a game has no other: a new one must be added here, and copied below
if it can change in place)."""


def clone(g: Game, rng: random.Random | None = None, *, share_rng: bool = False) -> Game:
    """An independent copy of ``g`` for trying requests on: a *search* copy
    (:attr:`Game.search`), which changes exactly as ``g`` would but records nothing (no
    history, no undo, no events) and so costs less to play on.

    ``rng`` becomes the copy's random generator (Lorenzo's reshuffles); by default the copy gets
    a copy of ``g``'s generator, or a fixed one when ``g`` has none (a shadow game).
    ``share_rng`` keeps ``g``'s own generator (cheaper): only for trying requests that draw
    nothing (anything but the end of a solo turn).

    The hard bot makes tens of thousands of copies a game, so this is written for speed: plain
    attribute copies, no ``copy`` module, and what the engine replaces rather than changes in
    place is shared (the containers' contents, the market, the grid of decks, Lorenzo's pile, the
    cards of a slot, the favor tiles: see :class:`Game`). The containers themselves are shared too,
    until the copy or ``g`` changes one (``Game._stamp``: each gets a new stamp here, so each
    copies a container before its first change); so are the players of a search copy (each
    game copies a player before its first change, ``Game._own_seat``). ``tests/bots`` compares a copy with its
    original and plays whole games on copies and on originals.
    """
    new = _new(Game)
    d = new.__dict__
    d.update(g.__dict__)
    d["search"] = True
    d["_undo_stack"] = g._undo_stack.copy()   # (taken back on the copy only, until it is played on)
    d["_stamp"] = stamp = object()
    g._stamp = object()
    d["containers"] = g.containers.copy()
    d["leader_depot"] = g.leader_depot.copy()
    if g.search:
        # the players are shared too, until one of the two games changes one (Game._own_seat)
        d["players"] = g.players.copy()
        d["by_nick"] = g.by_nick.copy()
    else:    # (a game that is no search copy changes its players in place: copied now)
        _seat([p.copy(stamp) for p in g.players], d)
    _unrecorded(d)
    if share_rng:
        rng = g.rng
    elif rng is None:
        rng = random.Random(0)
        if g.rng is not None:
            rng.setstate(g.rng.getstate())
    d["rng"] = rng
    return new


def discard_copy(g: Game) -> Game:
    """A search copy of ``g`` for discarding one leader on, cheaper than :func:`clone`: it copies
    what a discard may change (the players, the reports, the end of the game) and shares the rest
    with ``g`` (storage, cards, the grid, the market, Lorenzo's pile, the generator), which a
    discard leaves as it is. Never play anything else
    on it (``tests/bots`` checks it against a clone on every leader of many positions). The
    players of a search copy are shared as :func:`clone` shares them (each of the two games
    copies one before its first change)."""
    new = _new(Game)
    d = new.__dict__
    d.update(g.__dict__)
    d["search"] = True
    d["_undo_mark"], d["_undo_stack"], d["_undo_barrier"] = None, [], None
    if g.search:
        d["players"] = g.players.copy()
        d["by_nick"] = g.by_nick.copy()
        d["_stamp"] = object()
        g._stamp = object()
    else:
        _seat([p.copy(g._stamp) for p in g.players], d)
    _unrecorded(d)
    return new


_new = object.__new__


def _seat(players: list[PlayerState], d: dict) -> None:
    d["players"] = players
    d["by_nick"] = {q.nickname: q for q in players}


def _unrecorded(d: dict) -> None:
    """No history, events or changes recorded on a search copy."""
    d["history"] = []
    d["_events"] = []
    d["_dirty"] = {}


# ---------------------------------------------------------------------------- rules facts
def empties_color(g: Game, card: DevCard) -> bool:
    """In solo, buying ``card`` would take the last card of its colour: Lorenzo would win."""
    if not g.solo:
        return False
    return sum(len(deck) for deck in g.decks[card.color].values()) <= 1


# ---------------------------------------------------------------------------- words
# The bots' reasons (a hint's words) in the current language: the worker that thinks a hint speaks
# the player's (``Job.language``). The words are the catalogue's, shared with game/client/words.py.

def card_words(card: DevCard) -> str:
    colour = {"GREEN": pgettext("colour", "green"), "BLUE": pgettext("colour", "blue"),
              "YELLOW": pgettext("colour", "yellow"), "PURPLE": pgettext("colour", "purple")}.get(
        card.color.upper(), card.color.lower())
    return _("the level-{level} {colour} card ({vp} VP)").format(level=card.level, colour=colour, vp=card.victory_points)


_WIRE_KIND = {"discount": "DISCOUNT", "extra_depot": "DEPOT", "white_marble": "ZERO", "production": "PRODUCTION"}


def leader_card_name(kind: str, resource: str) -> str | None:
    """A leader card's name by its kind as the wire says it ("DEPOT") and its resource ("Steward
    of Coin"), in the current language; None for a card of no known kind. (The client names the
    cards with it too: one table of names.)"""
    names = {
        ("DISCOUNT", "Coin"): _("Patron of Coin"), ("DISCOUNT", "Servant"): _("Patron of Servants"),
        ("DISCOUNT", "Shield"): _("Patron of Shields"), ("DISCOUNT", "Stone"): _("Patron of Stone"),
        ("DEPOT", "Coin"): _("Steward of Coin"), ("DEPOT", "Servant"): _("Steward of Servants"),
        ("DEPOT", "Shield"): _("Steward of Shields"), ("DEPOT", "Stone"): _("Steward of Stone"),
        ("ZERO", "Coin"): _("Alchemist of Coin"), ("ZERO", "Servant"): _("Alchemist of Servants"),
        ("ZERO", "Shield"): _("Alchemist of Shields"), ("ZERO", "Stone"): _("Alchemist of Stone"),
        ("PRODUCTION", "Coin"): _("Artisan of Coin"), ("PRODUCTION", "Servant"): _("Artisan of Servants"),
        ("PRODUCTION", "Shield"): _("Artisan of Shields"), ("PRODUCTION", "Stone"): _("Artisan of Stone"),
    }
    return names.get((kind, resource))


def leader_words(leader: LeaderCard) -> str:
    """The leader by its card's name ("Steward of Coin"), as the client names it."""
    return (leader_card_name(_WIRE_KIND.get(leader.kind, leader.kind), leader.resource)
            or _("the {resource} leader").format(resource=resource_word(leader.resource)))


def line_words(is_row: bool, index: int) -> str:
    return (_("row {n}") if is_row else _("column {n}")).format(n=index + 1)


def amount_words(n: int, resource: str) -> str:
    said = {"Coin": npgettext("amount", "{n} Coin", "{n} Coins", n),
            "Servant": npgettext("amount", "{n} Servant", "{n} Servants", n),
            "Shield": npgettext("amount", "{n} Shield", "{n} Shields", n),
            "Stone": npgettext("amount", "{n} Stone", "{n} Stones", n),
            "Faith": npgettext("amount", "{n} Faith", "{n} Faith", n)}.get(resource)
    return said.format(n=n) if said else f"{n} {resource}"


def resource_word(resource: str, n: int = 1) -> str:
    """A resource's name ("Coin", "Stones"), as the client says it."""
    names = {"Coin": npgettext("resource", "Coin", "Coins", n), "Servant": npgettext("resource", "Servant", "Servants", n),
             "Shield": npgettext("resource", "Shield", "Shields", n), "Stone": npgettext("resource", "Stone", "Stones", n),
             "Faith": pgettext("resource", "Faith")}
    return names.get(resource, resource)


def res_words(m: Mapping[str, Any]) -> str:
    parts = [amount_words(n, r) for r, n in sorted(m.items()) if n]
    return ", ".join(parts) if parts else _("nothing")


def slot_words(slot: int) -> str:
    return _("slot {n}").format(n=slot + 1)


def who_acts(game: Game) -> str | None:
    """The player the engine waits for: the first seat with a setup choice left, or the current one."""
    if game.phase == ENDED:
        return None
    if game.phase == SETUP:
        for p in game.players:
            if p.active and not (p.chose_leaders and p.chose_resources):
                return p.nickname
        return None
    return game.current_player.nickname
