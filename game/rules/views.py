"""What one player may see: the ``UpdateGame`` message, with hidden information removed.

The shape follows the reference server's ``UpdateGame`` (see ``shared/protocol/reference-notes.md``):
every component of the game, every container and production, the market, the grid's top cards
and each player's board. Hidden: other players' leaders still in hand (only active ones are
listed; ``leadersHandCount`` gives the count), the order of every deck (only top cards), and the
order of Lorenzo's token pile (tokens are listed by id, unlike the reference, which leaks it).
"""
from __future__ import annotations

import dataclasses
from types import MappingProxyType
from typing import Any, Mapping, Protocol, Sequence

from .components import (CardRequirement, DevCard, GameConfig, LeaderCard, Production, SeatSetup, SoloToken,
                         VaticanSection, derived)
from .state import ENDED, FAVOR_UP, SETUP, Container, PlayerState


class Table(Protocol):
    """What a view reads of a game (:class:`game.rules.engine.Game` is one): the engine imports
    this module for the views :meth:`~game.rules.engine.Game.undo` returns, so this one names
    what it needs rather than importing the engine."""

    config: GameConfig
    players: list[PlayerState]
    containers: list[Container]
    leader_depot: Mapping[int, Container]
    solo: bool
    phase: str
    main_done: bool
    last_round: bool
    fired: list[bool]
    black_cross: int
    last_token: int | None
    revealed: list[int]
    winners: Sequence[str]

    @property
    def current_player(self) -> PlayerState: ...

    def market_wire(self) -> dict[str, Any]: ...

    def grid_wire(self) -> dict[str, Any]: ...

_LEADER_TYPES = {"discount": "DISCOUNT", "extra_depot": "DEPOT", "white_marble": "ZERO", "production": "PRODUCTION"}
_TOKEN_KINDS = {"discard": "ActionTokenDiscardTwo", "move": "ActionTokenBlackMoveTwo",
                "move_shuffle": "ActionTokenBlackMoveOneShuffle"}
REVEALED_TOKENS = "revealedActionTokens"
"""``UpdateGame`` key (our extension, solo): Lorenzo's tokens face up since the last shuffle."""
_ANSI = {"Coin": "\u001b[33m", "Servant": "\u001b[35m", "Shield": "\u001b[36m", "Stone": "\u001b[90m",
         "Faith": "\u001b[31m", "Zero": "\u001b[37m", "Green": "\u001b[32m", "Blue": "\u001b[34m",
         "Yellow": "\u001b[33m", "Purple": "\u001b[35m"}


def production_wire(prod: Production, config: GameConfig) -> dict[str, Any]:
    return {"id": prod.id, "input": dict(prod.input), "inputBlanks": prod.input_choice,
            "inputBlanksExclusions": ["Faith"] if prod.input_choice else [],
            "output": dict(prod.output), "outputBlanks": prod.output_choice,
            "outputBlanksExclusions": ["Faith"] if prod.output_choice else [], "discardableOutput": False}


def leader_wire(leader: LeaderCard, game: Table) -> dict[str, Any]:
    active = any(leader.id in p.active_leaders for p in game.players)
    return _leader_wire(derived(game.config, _Fixed).leaders[leader.id], leader, game, active)


def _leader_wire(fixed: tuple[dict[str, Any], dict[str, Any]], leader: LeaderCard, game: Table,
                 active: bool) -> dict[str, Any]:
    head, tail = fixed
    depot = game.leader_depot.get(leader.id)
    return {**head, "active": active, "containerId": depot.id if depot is not None else -1, **tail}


class _Fixed:
    """The parts of every ``UpdateGame`` of a config that no game changes (card and production
    faces, resource types, colours, the track's tiles, Lorenzo's tokens), built once per config.
    Every view holds these same objects: a view is read, sent or copied, never changed in place
    (the client's view model copies the one it keeps)."""

    def __init__(self, cfg: GameConfig) -> None:
        self.colors = [{"name": c, "ansiColor": _ANSI.get(c, "")} for c in cfg.colors]
        self.resource_types = [
            {"name": r, "ansiColor": _ANSI.get(r, ""), "isStorable": True, "isGiveableToPlayer": False,
             "isTakeableFromPlayer": True} for r in cfg.resources] + [
            {"name": "Faith", "ansiColor": _ANSI["Faith"], "isStorable": False, "isGiveableToPlayer": True,
             "isTakeableFromPlayer": False},
            {"name": "Zero", "ansiColor": _ANSI["Zero"], "isStorable": False, "isGiveableToPlayer": False,
             "isTakeableFromPlayer": False}]
        self.dev_cards = [{"color": c.color, "cost": {"requirements": dict(c.cost)}, "level": c.level,
                           "id": c.id, "victoryPoints": c.victory_points, "production": c.production.id}
                          for c in cfg.dev_cards]
        self.productions = [production_wire(cfg.productions[pid], cfg) for pid in sorted(cfg.productions)]
        self.tokens = [_token_wire(t) for t in cfg.solo_tokens]   # by id: the draw order is secret
        self.tiles = [{"faithPoints": s, "victoryPoints": v} for s, v in cfg.vp_squares]
        self.leaders = []   # each leader's face, before and after what a game changes
        for leader in cfg.leaders:
            head: dict[str, Any] = {"resourceType": leader.resource, "leaderType": _LEADER_TYPES[leader.kind]}
            if leader.requires_cards:
                head["devCardRequirement"] = {"entries": [
                    {"color": r.color, "quantity": r.count, "level": r.level or 0} for r in leader.requires_cards]}
            if leader.requires_resources:
                head["resourceRequirement"] = {"requirements": dict(leader.requires_resources)}
            tail = {"discount": leader.discount, "id": leader.id, "victoryPoints": leader.victory_points,
                    "production": leader.production.id if leader.production is not None else -1}
            self.leaders.append((head, tail))


def player_view(game: Table, nickname: str | None) -> dict[str, Any]:
    """The ``UpdateGame`` message for ``nickname`` (None: a spectator, who sees no hand at all).

    A view shares with every other view of its config the parts no game changes (the cards'
    faces, the productions...): read it, send it or copy it, never change it in place."""
    return player_views(game, (nickname,))[0]


def player_views(game: Table, nicknames: Sequence[str | None]) -> list[dict[str, Any]]:
    """:func:`player_view` for each of ``nicknames``, at once: what they all see is built once,
    and shared by the views (an undo sends every player theirs)."""
    cfg = game.config
    fixed: _Fixed = derived(cfg, _Fixed)
    base_production = cfg.base_production.id
    kept = cfg.leaders_kept
    public = []
    own = {}
    for p in game.players:
        hand = p.hand
        active_leaders = p.active_leaders
        entry = {
            "nickname": p.nickname,
            "baseProduction": base_production,
            "warehouseShelves": [s.id for s in p.shelves],
            "strongbox": p.strongbox.id,
            "setup": {"chosenLeadersCount": kept, "initialResources": p.bonus,
                      "initialExcludedResources": ["Faith"], "hasChosenLeaders": p.chose_leaders,
                      "hasChosenResources": p.chose_resources},
            # others see only the leaders played, in the order they were played (the order a client
            # that follows the game's updates knows them in)
            "leadersHand": [i for i in active_leaders if i in hand],
            "leadersHandCount": len(hand),
            "devSlots": [s.copy() for s in p.slots],
            "faithPoints": p.faith,
            "victoryPoints": p.vp,
            "active": p.active,
            # extension fields (reference clients ignore unknown keys)
            "activeLeaders": active_leaders.copy(),
            "leaderDepots": [d.id for d in p.depots],
            "favorTiles": [_FAVOR_WORDS[f] for f in p.favors],
        }
        public.append(entry)
        if p.nickname in nicknames:
            own[p.nickname] = {**entry, "leadersHand": hand.copy()}
    sections = {}
    players = game.players
    for i, sec in enumerate(cfg.vatican_sections):
        sections[str(sec.pope_space)] = {
            "id": sec.id, "faithPointsBeginning": sec.first_space, "faithPointsEnd": sec.pope_space,
            "victoryPoints": sec.favor_vp, "activated": game.fired[i],
            "bonusGivenPlayers": [p.nickname for p in players if p.favors[i] == FAVOR_UP],
        }
    active = {lid for p in players for lid in p.active_leaders}
    msg: dict[str, Any] = {
        "players": public,
        "devCardColors": fixed.colors,
        "resourceTypes": fixed.resource_types,
        "leaderCards": [_leader_wire(face, ld, game, ld.id in active) for face, ld in zip(fixed.leaders, cfg.leaders)],
        "developmentCards": fixed.dev_cards,
        "resContainers": [c.to_wire() for c in game.containers],
        "productions": fixed.productions,
    }
    if game.solo:
        msg["actionTokens"] = fixed.tokens
    msg["faithTrack"] = {"vaticanSections": sections, "yellowTiles": fixed.tiles, "maxFaith": cfg.last_space}
    msg["market"] = game.market_wire()
    msg["devCardGrid"] = game.grid_wire()
    msg["isSetupDone"] = game.phase != SETUP
    msg["devSlotsCount"] = cfg.dev_slots
    msg["currentPlayer"] = game.current_player.nickname
    msg["inkwellPlayer"] = players[0].nickname
    if game.winners:
        msg["winnerPlayer"] = game.winners[0]
    msg["blackPoints"] = game.black_cross
    msg["lastRound"] = game.last_round
    msg["ended"] = game.phase == ENDED
    msg["isMandatoryActionDone"] = game.main_done
    if game.solo and game.last_token is not None:
        msg["lastActionToken"] = game.last_token  # extension: the token shown face up
    if game.solo:
        # extension (our clients only; a server leaves it out for reference clients): the tokens
        # face up since the last shuffle, in the order they came. Public: each was shown face up.
        msg[REVEALED_TOKENS] = game.revealed.copy()
    msg["type"] = "UpdateGame"
    out = []
    for nick in nicknames:
        view = msg.copy()
        view["players"] = [own.get(e["nickname"], e) if e["nickname"] == nick else e for e in public]
        out.append(view)
    return out


_FAVOR_WORDS = ("DOWN", "UP", "REMOVED")


def _token_wire(token: Any) -> dict[str, Any]:
    out = {"id": token.id, "kind": _TOKEN_KINDS[token.kind]}
    if token.color:
        out["discardedDevCardColor"] = token.color
    return out


def config_from_view(view: dict[str, Any], base: GameConfig) -> GameConfig:
    """The game a server plays, read from one of its ``UpdateGame`` messages.

    A client asks the rules (hints, costs, what fits, the requests it builds) about *this*
    config, never about its own files: the server may run a custom config, and the reference
    server numbers its containers and productions per process (a second game's base production
    was 58). What ``UpdateGame`` does not carry (players allowed, the cards that end the game,
    resources per victory point, how many cards a token discards or spaces it moves, leader keys)
    comes from ``base``.

    :raises ValueError: the message lacks something the rules need (KeyError, TypeError and
        IndexError are turned into ValueError, with the message).
    """
    try:
        return _config_from_view(view, base)
    except (KeyError, TypeError, IndexError, AttributeError) as err:
        raise ValueError(f"UpdateGame does not describe a game: {err!r}") from err


def _ordered(names: list[str], known: tuple[str, ...]) -> tuple[str, ...]:
    """``names`` in ``known``'s order (the reference lists them in hash-set order), others after."""
    return tuple([n for n in known if n in names] + sorted(n for n in names if n not in known))


def _config_from_view(view: dict[str, Any], base: GameConfig) -> GameConfig:
    containers = {c["id"]: c for c in view["resContainers"]}
    prods: dict[int, Production] = {}
    for p in view["productions"]:
        prods[p["id"]] = Production(p["id"], MappingProxyType(dict(p["input"])), p["inputBlanks"],
                                    MappingProxyType(dict(p["output"])), p["outputBlanks"])
    cards = []
    by_id_base = {c.id: c for c in base.dev_cards}
    for c in sorted(view["developmentCards"], key=lambda c: c["id"]):
        old = by_id_base.get(c["id"])
        cards.append(DevCard(c["id"], old.key if old else f"card_{c['id']}", c["color"], c["level"],
                             c["victoryPoints"], MappingProxyType(dict(c["cost"]["requirements"])),
                             prods[c["production"]]))
    kinds = {v: k for k, v in _LEADER_TYPES.items()}
    leaders = []
    base_leaders = {ld.id: ld for ld in base.leaders}
    for ld in sorted(view["leaderCards"], key=lambda ld: ld["id"]):
        kind = kinds[ld["leaderType"]]
        old = base_leaders.get(ld["id"])
        reqs = tuple(CardRequirement(e["color"], e["level"] or None, e["quantity"])
                     for e in ld.get("devCardRequirement", {}).get("entries", ()))
        depot = containers.get(ld.get("containerId", -1))
        capacity = 0
        if kind == "extra_depot":
            capacity = depot["size"] if depot is not None else (old.depot_capacity if old else 2)
        leaders.append(LeaderCard(
            ld["id"], old.key if old else f"leader_{ld['id']}", kind, ld["victoryPoints"], ld["resourceType"],
            reqs, MappingProxyType(dict(ld.get("resourceRequirement", {}).get("requirements", {}))),
            ld["discount"] if kind == "discount" else 0, capacity,
            prods[ld["production"]] if kind == "production" else None))
    for i, ld in enumerate(leaders):
        if i != ld.id:
            raise ValueError(f"leader ids are not 0..{len(leaders) - 1}")
    for i, c in enumerate(cards):
        if i != c.id:
            raise ValueError(f"development card ids are not 0..{len(cards) - 1}")
    me = view["players"][0]
    shelves = tuple(containers[i]["size"] for i in me["warehouseShelves"])
    track = view["faithTrack"]
    sections = tuple(VaticanSection(s["id"], s["faithPointsBeginning"], s["faithPointsEnd"], s["victoryPoints"])
                     for s in sorted(track["vaticanSections"].values(), key=lambda s: s["faithPointsEnd"]))
    squares = tuple(sorted((t["faithPoints"], t["victoryPoints"]) for t in track["yellowTiles"]))
    grid = view["market"]["grid"]
    marbles = [x for row in grid for x in row] + [view["market"]["slide"]]
    first = {m: len(base.marbles) - base.marbles[::-1].index(m) for m in set(base.marbles)}
    marbles = tuple(sorted(marbles, key=lambda m: (first.get(m, len(base.marbles) + 1), m)))
    seats = list(base.seats)
    for i, p in enumerate(view["players"]):
        if i < len(seats):
            seats[i] = SeatSetup(p["setup"]["initialResources"], seats[i].starting_faith)
    tokens = base.solo_tokens
    if view.get("actionTokens"):
        by_kind = {v: k for k, v in _TOKEN_KINDS.items()}
        old_tokens = {t.id: t for t in base.solo_tokens}
        made = []
        for t in sorted(view["actionTokens"], key=lambda t: t["id"]):
            kind = by_kind[t["kind"]]
            old = old_tokens.get(t["id"])
            same = old is not None and old.kind == kind
            made.append(SoloToken(t["id"], old.key if same else f"token_{t['id']}", kind,
                                  t.get("discardedDevCardColor"), (old.amount if same else 2) if kind == "discard" else 0,
                                  0 if kind == "discard" else (old.spaces if same else (1 if kind == "move_shuffle" else 2))))
        tokens = tuple(made)
    levels = tuple(range(1, view["devCardGrid"]["levelsCount"] + 1))
    hand = max([len(p["leadersHand"]) for p in view["players"]] + [me["setup"]["chosenLeadersCount"]])
    return dataclasses.replace(
        base,
        path=f"{base.path} (as its server plays it)",
        resources=_ordered([r["name"] for r in view["resourceTypes"] if r["isStorable"]], base.resources),
        colors=_ordered([c["name"] for c in view["devCardColors"]], base.colors),
        market_rows=len(grid), market_columns=len(grid[0]), marbles=marbles,
        shelf_capacities=shelves, dev_slots=view["devSlotsCount"],
        leaders_dealt=max(base.leaders_dealt, hand),
        leaders_kept=me["setup"]["chosenLeadersCount"], seats=tuple(seats),
        last_space=track["maxFaith"], vp_squares=squares, vatican_sections=sections,
        base_production=prods[me["baseProduction"]], dev_cards=tuple(cards), leaders=tuple(leaders),
        solo_tokens=tokens, productions=MappingProxyType(prods), levels=levels)
