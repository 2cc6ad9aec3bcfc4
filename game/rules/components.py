"""Game components (cards, tokens, track, numbers) loaded from ``config/*.json``.

Everything here is immutable and cheap to read: frozen slotted dataclasses, tuples, and
:class:`types.MappingProxyType` over plain dicts. :func:`load_config` reads and validates a file
and raises one :class:`ConfigError` at the first problem, naming the file, the JSON path of the
field and what is wrong.

>>> cfg = default_config()
>>> cfg.dev_cards[0].key, cfg.dev_cards[0].production.id
('dev_green_l1_vp1', 5)

Config file schema ``mor-config/1`` (a JSON object; every key is required, unknown keys are an
error; "n" is an integer, bools are not integers)::

    schema            "mor-config/1"
    resources         [name, ...]   storable resources, e.g. Coin Servant Shield Stone
                                    ("Faith" and "Zero" are reserved and may not be listed)
    colors            [name, ...]   development card colours
    players           {min: n>=1, max: n>=min}
    market            {rows: n>=1, columns: n>=1, marbles: {yield: count}}
                      marbles are named by what they yield: a resource, "Zero" (white marble)
                      or "Faith" (red); the counts must add up to rows*columns+1
    warehouse         {shelves: [capacity>=1, ...]}
    dev_slots         n>=1
    leaders           {dealt: n>=1, kept: 1<=n<=dealt}; dealt*players.max <= len(leader_cards)
    seats             [{bonus_resources: n, starting_faith: n}, ...]  exactly players.max entries
    faith_track       {last_space: n>=1,
                       vp_squares: [[space, vp], ...]  spaces strictly ascending, inside the track,
                       vatican_sections: [{id, first_space, pope_space, favor_vp}, ...]}
                      sections ascending and not overlapping, first_space <= pope_space <= last_space
    base_production   production (below)
    development_cards [{id, key, color, level: n>=1, victory_points, cost: {resource: n>=1},
                        production}, ...]
                      every (colour, level) deck holds the same number of cards; levels are 1..k
    leader_cards      [{id, key, kind, victory_points, resource,
                        requires_cards: [{color, level: n|null (any), count: n>=1}, ...],
                        requires_resources: {resource: n>=1},
                        discount: n, depot_capacity: n, production: production|null}, ...]
                      kind "discount" needs discount>=1, "extra_depot" depot_capacity>=1,
                      "production" a production whose input holds `resource`, "white_marble"
                      none of them; the fields of other kinds must be 0/null
    solo              {tokens: [{id, key, kind, color, amount, spaces}, ...]}
                      kind "discard": color + amount>=1, spaces 0;
                      "move" / "move_shuffle": color null, amount 0, spaces>=1
    end_game          {dev_cards: n>=1}
    scoring           {resources_per_vp: n>=1}

    production        {id, input: {resource: n>=1}, input_choice: n,
                       output: {resource or "Faith": n>=1}, output_choice: n}
                      it must consume and yield at least one unit

Ids of cards, leaders, tokens and vatican sections are each exactly 0..n-1. Cards, leaders and
tokens may come in any order; their tuples are sorted so that index == id. Vatican sections
stay in file order (ascending pope space), so their index is NOT their id: the reference
numbers them 0 (pope space 8), 2 (16), 1 (24). Production ids over base, card and leader productions together are exactly
0..n-1. Card, leader and token keys are unique. The ids of ``config/default.json`` are those
of the AM49 reference server; ``tools/build_config.py`` regenerates it.
"""
from __future__ import annotations

import json
import os
import pathlib
from collections import Counter
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any, Callable, Mapping

from game.resources import CONFIG_DIR

__all__ = [
    "Production", "DevCard", "CardRequirement", "LeaderCard", "SoloToken", "VaticanSection",
    "SeatSetup", "GameConfig", "ConfigError", "DEFAULT_CONFIG_PATH", "load_config", "default_config",
]

DEFAULT_CONFIG_PATH = CONFIG_DIR / "default.json"
SCHEMA = "mor-config/1"
FAITH = "Faith"
ZERO = "Zero"
LEADER_KINDS = ("discount", "extra_depot", "white_marble", "production")
TOKEN_KINDS = ("discard", "move", "move_shuffle")


# --------------------------------------------------------------------------- components


def _rebuild(cls: type, values: tuple) -> Any:
    return cls(*(MappingProxyType(v) if isinstance(v, dict) else v for v in values))


class _Frozen:
    """Immutable component: copying returns itself; pickling re-wraps mapping proxies."""

    __slots__ = ()

    def __copy__(self) -> Any:
        return self

    def __deepcopy__(self, memo: dict) -> Any:
        return self

    def __reduce__(self) -> tuple:
        values = tuple(dict(v) if isinstance(v, MappingProxyType) else v
                       for v in (getattr(self, f.name) for f in fields(self)))  # type: ignore[arg-type]
        return _rebuild, (type(self), values)


@dataclass(frozen=True, slots=True)
class Production(_Frozen):
    """A production: fixed inputs plus ``input_choice`` free inputs give fixed outputs plus
    ``output_choice`` free outputs. Free choices are storable resources; only ``output`` may
    contain ``"Faith"``."""

    id: int
    input: Mapping[str, int]
    input_choice: int
    output: Mapping[str, int]
    output_choice: int

    def __hash__(self) -> int:
        return hash((Production, self.id))


@dataclass(frozen=True, slots=True)
class DevCard(_Frozen):
    """A development card."""

    id: int
    key: str
    color: str
    level: int
    victory_points: int
    cost: Mapping[str, int]
    production: Production

    def __hash__(self) -> int:
        return hash((DevCard, self.id))


@dataclass(frozen=True, slots=True)
class CardRequirement(_Frozen):
    """``count`` development cards of ``color``; ``level`` None means any level."""

    color: str
    level: int | None
    count: int


@dataclass(frozen=True, slots=True)
class LeaderCard(_Frozen):
    """A leader card. ``kind`` is "discount" | "extra_depot" | "white_marble" | "production";
    ``resource`` is the one the effect is about (discounted, stored, converted to, or the
    production's fixed input)."""

    id: int
    key: str
    kind: str
    victory_points: int
    resource: str
    requires_cards: tuple[CardRequirement, ...]
    requires_resources: Mapping[str, int]
    discount: int
    depot_capacity: int
    production: Production | None

    def __hash__(self) -> int:
        return hash((LeaderCard, self.id))


@dataclass(frozen=True, slots=True)
class SoloToken(_Frozen):
    """A Lorenzo action token. "discard": remove ``amount`` cards of ``color``; "move": black
    cross forward ``spaces``; "move_shuffle": forward ``spaces`` then reshuffle all tokens."""

    id: int
    key: str
    kind: str
    color: str | None
    amount: int
    spaces: int


@dataclass(frozen=True, slots=True)
class VaticanSection(_Frozen):
    """A vatican report section of the faith track and its pope's favor tile."""

    id: int
    first_space: int
    pope_space: int
    favor_vp: int


@dataclass(frozen=True, slots=True)
class SeatSetup(_Frozen):
    """What the player in a seat (0-based turn order) starts with."""

    bonus_resources: int
    starting_faith: int


@dataclass(frozen=True, slots=True)
class GameConfig(_Frozen):
    """Every number and component of one game variant. Build it with :func:`load_config`."""

    path: str
    resources: tuple[str, ...]
    colors: tuple[str, ...]
    min_players: int
    max_players: int
    market_rows: int
    market_columns: int
    marbles: tuple[str, ...]
    shelf_capacities: tuple[int, ...]
    dev_slots: int
    leaders_dealt: int
    leaders_kept: int
    seats: tuple[SeatSetup, ...]
    last_space: int
    vp_squares: tuple[tuple[int, int], ...]
    vatican_sections: tuple[VaticanSection, ...]
    base_production: Production
    dev_cards: tuple[DevCard, ...]
    leaders: tuple[LeaderCard, ...]
    solo_tokens: tuple[SoloToken, ...]
    end_game_cards: int
    resources_per_vp: int
    productions: Mapping[int, Production]
    levels: tuple[int, ...]

    def __hash__(self) -> int:
        return hash((GameConfig, self.resources, self.colors, self.dev_cards, self.leaders))


_DERIVED: dict[tuple[int, Callable], tuple[GameConfig, Any]] = {}


def derived(config: GameConfig, make: Callable[[GameConfig], Any]) -> Any:
    """``make(config)``, made once per config and kept (for the last few dozen configs): the
    tables the engine and the views read on every request."""
    key = (id(config), make)
    hit = _DERIVED.get(key)
    if hit is not None and hit[0] is config:
        return hit[1]
    if len(_DERIVED) >= 64:
        del _DERIVED[next(iter(_DERIVED))]
    value = make(config)
    _DERIVED[key] = (config, value)
    return value


class ConfigError(ValueError):
    """A config file problem. ``str(e) == f"{file}: {field}: {problem}"``; ``field`` is a JSON
    path such as ``development_cards[12].cost.Coin``, ``$`` for the whole document, or
    ``<file>`` when the file itself cannot be read."""

    def __init__(self, file: str, field: str, problem: str) -> None:
        self.file, self.field, self.problem = file, field, problem
        super().__init__(f"{file}: {field}: {problem}")

    def __reduce__(self) -> tuple:
        return ConfigError, (self.file, self.field, self.problem)


# --------------------------------------------------------------------------- schema walker


class _Bad(Exception):
    """Internal: (field, problem); turned into ConfigError by load_config."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(field, problem)
        self.field, self.problem = field, problem


def _jtype(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    return {int: "an integer", float: "a number", str: "a string", list: "a list",
            dict: "an object"}.get(type(v), type(v).__name__)


def _expect(v: Any, kind: type, path: str, what: str) -> None:
    if not isinstance(v, kind) or isinstance(v, bool):
        raise _Bad(path, f"expected {what}, got {_jtype(v)}")


# A spec is a callable (value, path, ctx) -> None raising _Bad. ctx holds the names declared
# by the file itself ("resource", "color", ...), filled in before they are needed.
Spec = Callable[[Any, str, dict], None]


def _int(lo: int = 0) -> Spec:
    def check(v: Any, path: str, ctx: dict) -> None:
        _expect(v, int, path, "an integer")
        if v < lo:
            raise _Bad(path, f"must be >= {lo}, got {v}" if lo else f"must not be negative, got {v}")
    return check


def _str(v: Any, path: str, ctx: dict) -> None:
    _expect(v, str, path, "a string")
    if not v.strip():
        raise _Bad(path, "must not be empty")


def _const(value: str) -> Spec:
    def check(v: Any, path: str, ctx: dict) -> None:
        if v != value:
            raise _Bad(path, f"must be {json.dumps(value)}, got {json.dumps(v)}")
    return check


_DOMAIN_LABEL = {"resource": "resource", "output": "resource", "marble": "marble", "color": "colour",
                 "leader_kind": "leader kind", "token_kind": "token kind"}


def _name(domain: str) -> Spec:
    """A string that must be one of ctx[domain]."""
    def check(v: Any, path: str, ctx: dict) -> None:
        _expect(v, str, path, "a string")
        allowed = ctx[domain]
        if v not in allowed:
            if v == FAITH and domain == "resource":
                raise _Bad(path, '"Faith" is not allowed here: it may appear only in production outputs')
            raise _Bad(path, f"unknown {_DOMAIN_LABEL[domain]} {json.dumps(v)} "
                             f"(expected one of {', '.join(allowed)})")
    return check


def _nullable(spec: Spec) -> Spec:
    def check(v: Any, path: str, ctx: dict) -> None:
        if v is not None:
            spec(v, path, ctx)
    return check


def _list(item: Spec, min_len: int = 1, unique: bool = False) -> Spec:
    def check(v: Any, path: str, ctx: dict) -> None:
        _expect(v, list, path, "a list")
        if len(v) < min_len:
            raise _Bad(path, f"must hold at least {min_len} entr{'y' if min_len == 1 else 'ies'}")
        for i, x in enumerate(v):
            item(x, f"{path}[{i}]", ctx)
            if unique and x in v[:i]:
                raise _Bad(f"{path}[{i}]", f"duplicate entry {json.dumps(x)}")
    return check


def _pair(a: Spec, b: Spec) -> Spec:
    def check(v: Any, path: str, ctx: dict) -> None:
        _expect(v, list, path, "a list of two integers")
        if len(v) != 2:
            raise _Bad(path, f"expected a list of two integers, got {len(v)} entries")
        a(v[0], f"{path}[0]", ctx)
        b(v[1], f"{path}[1]", ctx)
    return check


def _map(key: Spec, value: Spec) -> Spec:
    def check(v: Any, path: str, ctx: dict) -> None:
        _expect(v, dict, path, "an object")
        for k, x in v.items():
            key(k, f"{path}.{k}", ctx)
            value(x, f"{path}.{k}", ctx)
    return check


def _obj(**spec: Spec) -> Spec:
    """An object with exactly these keys, checked in this order."""
    def check(v: Any, path: str, ctx: dict) -> None:
        _expect(v, dict, path, "an object")
        prefix = "" if path == "$" else path + "."
        for k, s in spec.items():
            if k not in v:
                raise _Bad(prefix + k, "missing field")
            s(v[k], prefix + k, ctx)
        for k in v:
            if k not in spec:
                raise _Bad(prefix + k, f"unknown key (expected {', '.join(spec)})")
    return check


def _names(domain: str, reserved: tuple[str, ...]) -> Spec:
    """The list that declares a name domain; stores it in ctx for the specs that follow."""
    base = _list(_str, unique=True)

    def check(v: Any, path: str, ctx: dict) -> None:
        base(v, path, ctx)
        for i, x in enumerate(v):
            if x in reserved:
                raise _Bad(f"{path}[{i}]", f"{json.dumps(x)} is reserved and cannot be listed here")
        ctx[domain] = tuple(v)
        if domain == "resource":
            ctx["output"] = (*v, FAITH)
            ctx["marble"] = (*v, ZERO, FAITH)
    return check


_RES_MAP = _map(_name("resource"), _int(1))
_PRODUCTION = _obj(id=_int(), input=_RES_MAP, input_choice=_int(), output=_map(_name("output"), _int(1)),
                  output_choice=_int())
_SCHEMA = _obj(
    schema=_const(SCHEMA),
    resources=_names("resource", (FAITH, ZERO)),
    colors=_names("color", ()),
    players=_obj(min=_int(1), max=_int(1)),
    market=_obj(rows=_int(1), columns=_int(1), marbles=_map(_name("marble"), _int())),
    warehouse=_obj(shelves=_list(_int(1))),
    dev_slots=_int(1),
    leaders=_obj(dealt=_int(1), kept=_int(1)),
    seats=_list(_obj(bonus_resources=_int(), starting_faith=_int())),
    faith_track=_obj(last_space=_int(1), vp_squares=_list(_pair(_int(1), _int(1)), min_len=0),
                    vatican_sections=_list(_obj(id=_int(), first_space=_int(), pope_space=_int(1),
                                              favor_vp=_int(1)), min_len=0)),
    base_production=_PRODUCTION,
    development_cards=_list(_obj(id=_int(), key=_str, color=_name("color"), level=_int(1),
                               victory_points=_int(), cost=_RES_MAP, production=_PRODUCTION)),
    leader_cards=_list(_obj(id=_int(), key=_str, kind=_name("leader_kind"), victory_points=_int(),
                          resource=_name("resource"),
                          requires_cards=_list(_obj(color=_name("color"), level=_nullable(_int(1)),
                                                  count=_int(1)), min_len=0),
                          requires_resources=_RES_MAP, discount=_int(), depot_capacity=_int(),
                          production=_nullable(_PRODUCTION))),
    solo=_obj(tokens=_list(_obj(id=_int(), key=_str, kind=_name("token_kind"), color=_nullable(_name("color")),
                             amount=_int(), spaces=_int()), min_len=0)),
    end_game=_obj(dev_cards=_int(1)),
    scoring=_obj(resources_per_vp=_int(1)),
)


# --------------------------------------------------------------------------- semantic checks


def _check_ids(items: list[dict], path: str, what: str = "id") -> None:
    """Ids unique and exactly 0..n-1."""
    seen: dict[int, int] = {}
    for i, x in enumerate(items):
        if x["id"] in seen:
            raise _Bad(f"{path}[{i}].id", f"duplicate {what} {x['id']} (also {path}[{seen[x['id']]}])")
        seen[x["id"]] = i
    missing = sorted(set(range(len(items))) - set(seen))
    if missing:
        raise _Bad(path, f"{what}s must be exactly 0..{len(items) - 1}; missing {missing[0]}")


def _check_production(p: dict, path: str) -> None:
    if not p["input"] and not p["input_choice"]:
        raise _Bad(path, "a production must consume at least one resource")
    if not p["output"] and not p["output_choice"]:
        raise _Bad(path, "a production must yield at least one unit")


def _check_semantics(d: dict) -> None:
    pl, mk, ft = d["players"], d["market"], d["faith_track"]
    if pl["max"] < pl["min"]:
        raise _Bad("players.max", f"must be >= players.min ({pl['min']}), got {pl['max']}")
    want = mk["rows"] * mk["columns"] + 1
    if sum(mk["marbles"].values()) != want:
        raise _Bad("market.marbles", f"marble counts add up to {sum(mk['marbles'].values())}, "
                                     f"expected rows*columns+1 = {want}")
    if len(d["seats"]) != pl["max"]:
        raise _Bad("seats", f"has {len(d['seats'])} entries, expected players.max = {pl['max']}")
    ld, n_leaders = d["leaders"], len(d["leader_cards"])
    if ld["kept"] > ld["dealt"]:
        raise _Bad("leaders.kept", f"must be <= leaders.dealt ({ld['dealt']}), got {ld['kept']}")
    if ld["dealt"] * pl["max"] > n_leaders:
        raise _Bad("leaders.dealt", f"{ld['dealt']} per player x {pl['max']} players needs more than "
                                    f"the {n_leaders} leader cards")

    last, prev = ft["last_space"], 0
    for i, (space, _vp) in enumerate(ft["vp_squares"]):
        if space <= prev or space > last:
            raise _Bad(f"faith_track.vp_squares[{i}]", f"space {space} must be ascending and within "
                                                       f"1..last_space ({last})")
        prev = space
    secs, prev = ft["vatican_sections"], -1
    for i, s in enumerate(secs):
        p = f"faith_track.vatican_sections[{i}]"
        if not prev < s["first_space"] <= s["pope_space"] <= last:
            raise _Bad(p, f"spaces {s['first_space']}..{s['pope_space']} must be ascending, after the "
                          f"previous section and within the track (last_space {last})")
        prev = s["pope_space"]
    _check_ids(secs, "faith_track.vatican_sections")

    cards, leaders, tokens = d["development_cards"], d["leader_cards"], d["solo"]["tokens"]
    levels = sorted({c["level"] for c in cards})
    if levels != list(range(1, len(levels) + 1)):
        raise _Bad("development_cards", f"card levels must be 1..n without gaps, got {levels}")
    decks = Counter((c["color"], c["level"]) for c in cards)
    size = Counter(decks.values()).most_common(1)[0][0]
    for color in d["colors"]:
        for lv in levels:
            if decks[(color, lv)] != size:
                raise _Bad("development_cards", f"the {color} level {lv} deck has {decks[(color, lv)]} "
                                                f"cards, the others {size}: every colour/level deck must "
                                                f"hold the same number of cards")

    _check_ids(cards, "development_cards")
    _check_ids(leaders, "leader_cards")
    _check_ids(tokens, "solo.tokens")
    keys: dict[str, str] = {}
    for path, items in (("development_cards", cards), ("leader_cards", leaders), ("solo.tokens", tokens)):
        for i, x in enumerate(items):
            if x["key"] in keys:
                raise _Bad(f"{path}[{i}].key", f"duplicate key {json.dumps(x['key'])} (also {keys[x['key']]})")
            keys[x["key"]] = f"{path}[{i}]"

    kind_field = {"discount": "discount", "extra_depot": "depot_capacity", "production": "production"}
    for i, c in enumerate(leaders):
        p = f"leader_cards[{i}]"
        for kind, fld in kind_field.items():
            has = c[fld] not in (0, None)
            if kind == c["kind"] and not has:
                raise _Bad(f"{p}.{fld}", f"{json.dumps(kind)} leaders need a {fld.replace('_', ' ')}")
            if kind != c["kind"] and has:
                raise _Bad(f"{p}.{fld}", f"must be {'null' if fld == 'production' else 0} for "
                                         f"{json.dumps(c['kind'])} leaders")
        if c["kind"] == "production" and c["resource"] not in c["production"]["input"]:
            raise _Bad(f"{p}.resource", "a production leader's resource must be an input of its production")
        for j, r in enumerate(c["requires_cards"]):
            if r["level"] is not None and r["level"] not in levels:
                raise _Bad(f"{p}.requires_cards[{j}].level", f"there are no level {r['level']} cards")

    prods = [("base_production", d["base_production"])]
    prods += [(f"development_cards[{i}].production", c["production"]) for i, c in enumerate(cards)]
    prods += [(f"leader_cards[{i}].production", c["production"]) for i, c in enumerate(leaders)
              if c["production"] is not None]
    owner: dict[int, str] = {}
    for path, p in prods:
        _check_production(p, path)
        if p["id"] in owner:
            raise _Bad(f"{path}.id", f"duplicate production id {p['id']} (also {owner[p['id']]})")
        owner[p["id"]] = path
    missing = sorted(set(range(len(prods))) - set(owner))
    if missing:
        raise _Bad("$", f"production ids (base_production, development_cards, leader_cards) must be "
                        f"exactly 0..{len(prods) - 1}; missing {missing[0]}")

    for i, t in enumerate(tokens):
        p = f"solo.tokens[{i}]"
        discard = t["kind"] == "discard"
        for fld, ok, need in (("color", (t["color"] is not None) == discard,
                               "a colour" if discard else "null"),
                              ("amount", (t["amount"] >= 1) if discard else t["amount"] == 0,
                               ">= 1" if discard else "0"),
                              ("spaces", t["spaces"] == 0 if discard else t["spaces"] >= 1,
                               "0" if discard else ">= 1")):
            if not ok:
                raise _Bad(f"{p}.{fld}", f"must be {need} for a {json.dumps(t['kind'])} token")


# --------------------------------------------------------------------------- building


def _production(p: dict) -> Production:
    return Production(p["id"], MappingProxyType(dict(p["input"])), p["input_choice"],
                      MappingProxyType(dict(p["output"])), p["output_choice"])


def _build(d: dict, path: str) -> GameConfig:
    base = _production(d["base_production"])
    cards = tuple(DevCard(c["id"], c["key"], c["color"], c["level"], c["victory_points"],
                          MappingProxyType(dict(c["cost"])), _production(c["production"]))
                  for c in sorted(d["development_cards"], key=lambda c: c["id"]))
    leaders = tuple(LeaderCard(c["id"], c["key"], c["kind"], c["victory_points"], c["resource"],
                               tuple(CardRequirement(r["color"], r["level"], r["count"])
                                     for r in c["requires_cards"]),
                               MappingProxyType(dict(c["requires_resources"])), c["discount"],
                               c["depot_capacity"],
                               None if c["production"] is None else _production(c["production"]))
                    for c in sorted(d["leader_cards"], key=lambda c: c["id"]))
    tokens = tuple(SoloToken(t["id"], t["key"], t["kind"], t["color"], t["amount"], t["spaces"])
                   for t in sorted(d["solo"]["tokens"], key=lambda t: t["id"]))
    prods = [base, *(c.production for c in cards), *(l.production for l in leaders if l.production)]
    ft, mk = d["faith_track"], d["market"]
    return GameConfig(
        path=path,
        resources=tuple(d["resources"]), colors=tuple(d["colors"]),
        min_players=d["players"]["min"], max_players=d["players"]["max"],
        market_rows=mk["rows"], market_columns=mk["columns"],
        marbles=tuple(name for name, n in mk["marbles"].items() for _ in range(n)),
        shelf_capacities=tuple(d["warehouse"]["shelves"]),
        dev_slots=d["dev_slots"], leaders_dealt=d["leaders"]["dealt"], leaders_kept=d["leaders"]["kept"],
        seats=tuple(SeatSetup(s["bonus_resources"], s["starting_faith"]) for s in d["seats"]),
        last_space=ft["last_space"],
        vp_squares=tuple((s, vp) for s, vp in ft["vp_squares"]),
        vatican_sections=tuple(VaticanSection(s["id"], s["first_space"], s["pope_space"], s["favor_vp"])
                               for s in ft["vatican_sections"]),
        base_production=base, dev_cards=cards, leaders=leaders, solo_tokens=tokens,
        end_game_cards=d["end_game"]["dev_cards"], resources_per_vp=d["scoring"]["resources_per_vp"],
        productions=MappingProxyType({p.id: p for p in sorted(prods, key=lambda p: p.id)}),
        levels=tuple(sorted({c.level for c in cards})),
    )


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict:
    out: dict = {}
    for k, v in pairs:
        if k in out:
            raise _Bad("$", f"duplicate key {json.dumps(k)} in a JSON object")
        out[k] = v
    return out


def _parse(text: str) -> dict:
    try:
        doc = json.loads(text, object_pairs_hook=_no_duplicate_keys,
                         parse_constant=lambda c: _reject_constant(c))
    except json.JSONDecodeError as e:
        raise _Bad("$", f"invalid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    _expect(doc, dict, "$", "an object")
    ctx = {"leader_kind": LEADER_KINDS, "token_kind": TOKEN_KINDS}
    _SCHEMA(doc, "$", ctx)
    _check_semantics(doc)
    return doc


def _reject_constant(const: str) -> None:
    raise _Bad("$", f"invalid JSON: {const} is not allowed")


_CACHE: dict[tuple[str, int, int], GameConfig] = {}


def load_config(path: str | os.PathLike | None = None) -> GameConfig:
    """Read, validate and build a config; ``None`` means :data:`DEFAULT_CONFIG_PATH`.

    The result is cached per resolved path (and file size and modification time), so loading
    the same file again is cheap and returns the same object.

    :raises ConfigError: at the first problem, e.g.
        ``ConfigError("x.json", "development_cards[12].cost.Coin", "must be >= 1, got 0")``.
    """
    file = pathlib.Path(DEFAULT_CONFIG_PATH if path is None else path).resolve()
    name = str(file)
    try:
        st = file.stat()
        key = (name, st.st_mtime_ns, st.st_size)
        if key in _CACHE:
            return _CACHE[key]
        text = file.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise ConfigError(name, "<file>", "file not found") from None
    except UnicodeDecodeError as e:
        raise ConfigError(name, "<file>", f"not UTF-8 text ({e.reason} at byte {e.start})") from None
    except OSError as e:
        raise ConfigError(name, "<file>", f"cannot read the file: {e.strerror or e}") from None
    try:
        cfg = _build(_parse(text), name)
    except _Bad as e:
        raise ConfigError(name, e.field, e.problem) from None
    except RecursionError:
        raise ConfigError(name, "$", "JSON nested too deeply") from None
    _CACHE[key] = cfg
    return cfg


_DEFAULT: list[GameConfig] = []


def default_config() -> GameConfig:
    """The standard game: :func:`load_config` of :data:`DEFAULT_CONFIG_PATH`, loaded once per
    process (later edits of the file are not seen; call :func:`load_config` for that)."""
    if not _DEFAULT:
        _DEFAULT.append(load_config(None))
    return _DEFAULT[0]
