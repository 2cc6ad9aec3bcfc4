"""The config file's schema, checked before anything is built from it: a walker of specs (each a
callable that raises :class:`Invalid` naming the JSON path), then the checks across fields.
:func:`game.rules.components.load_config` reads a file through it.

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
"""
from __future__ import annotations

import json
from collections import Counter
from typing import Any, Callable

SCHEMA = "mor-config/1"
FAITH = "Faith"
ZERO = "Zero"




class Invalid(Exception):
    """(field, problem): what is wrong with the file, and where; load_config makes it a ConfigError."""

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


def expect(v: Any, kind: type, path: str, what: str) -> None:
    if not isinstance(v, kind) or isinstance(v, bool):
        raise Invalid(path, f"expected {what}, got {_jtype(v)}")


# A spec is a callable (value, path, ctx) -> None raising Invalid. ctx holds the names declared
# by the file itself ("resource", "color", ...), filled in before they are needed.
Spec = Callable[[Any, str, dict], None]


def _int(lo: int = 0) -> Spec:
    def check(v: Any, path: str, ctx: dict) -> None:
        expect(v, int, path, "an integer")
        if v < lo:
            raise Invalid(path, f"must be >= {lo}, got {v}" if lo else f"must not be negative, got {v}")
    return check


def _str(v: Any, path: str, ctx: dict) -> None:
    expect(v, str, path, "a string")
    if not v.strip():
        raise Invalid(path, "must not be empty")


def _const(value: str) -> Spec:
    def check(v: Any, path: str, ctx: dict) -> None:
        if v != value:
            raise Invalid(path, f"must be {json.dumps(value)}, got {json.dumps(v)}")
    return check


_DOMAIN_LABEL = {"resource": "resource", "output": "resource", "marble": "marble", "color": "colour",
                 "leader_kind": "leader kind", "token_kind": "token kind"}


def _name(domain: str) -> Spec:
    """A string that must be one of ctx[domain]."""
    def check(v: Any, path: str, ctx: dict) -> None:
        expect(v, str, path, "a string")
        allowed = ctx[domain]
        if v not in allowed:
            if v == FAITH and domain == "resource":
                raise Invalid(path, '"Faith" is not allowed here: it may appear only in production outputs')
            raise Invalid(path, f"unknown {_DOMAIN_LABEL[domain]} {json.dumps(v)} "
                             f"(expected one of {', '.join(allowed)})")
    return check


def _nullable(spec: Spec) -> Spec:
    def check(v: Any, path: str, ctx: dict) -> None:
        if v is not None:
            spec(v, path, ctx)
    return check


def _list(item: Spec, min_len: int = 1, unique: bool = False) -> Spec:
    def check(v: Any, path: str, ctx: dict) -> None:
        expect(v, list, path, "a list")
        if len(v) < min_len:
            raise Invalid(path, f"must hold at least {min_len} entr{'y' if min_len == 1 else 'ies'}")
        for i, x in enumerate(v):
            item(x, f"{path}[{i}]", ctx)
            if unique and x in v[:i]:
                raise Invalid(f"{path}[{i}]", f"duplicate entry {json.dumps(x)}")
    return check


def _pair(a: Spec, b: Spec) -> Spec:
    def check(v: Any, path: str, ctx: dict) -> None:
        expect(v, list, path, "a list of two integers")
        if len(v) != 2:
            raise Invalid(path, f"expected a list of two integers, got {len(v)} entries")
        a(v[0], f"{path}[0]", ctx)
        b(v[1], f"{path}[1]", ctx)
    return check


def _map(key: Spec, value: Spec) -> Spec:
    def check(v: Any, path: str, ctx: dict) -> None:
        expect(v, dict, path, "an object")
        for k, x in v.items():
            key(k, f"{path}.{k}", ctx)
            value(x, f"{path}.{k}", ctx)
    return check


def _obj(**spec: Spec) -> Spec:
    """An object with exactly these keys, checked in this order."""
    def check(v: Any, path: str, ctx: dict) -> None:
        expect(v, dict, path, "an object")
        prefix = "" if path == "$" else path + "."
        for k, s in spec.items():
            if k not in v:
                raise Invalid(prefix + k, "missing field")
            s(v[k], prefix + k, ctx)
        for k in v:
            if k not in spec:
                raise Invalid(prefix + k, f"unknown key (expected {', '.join(spec)})")
    return check


def _names(domain: str, reserved: tuple[str, ...]) -> Spec:
    """The list that declares a name domain; stores it in ctx for the specs that follow."""
    base = _list(_str, unique=True)

    def check(v: Any, path: str, ctx: dict) -> None:
        base(v, path, ctx)
        for i, x in enumerate(v):
            if x in reserved:
                raise Invalid(f"{path}[{i}]", f"{json.dumps(x)} is reserved and cannot be listed here")
        ctx[domain] = tuple(v)
        if domain == "resource":
            ctx["output"] = (*v, FAITH)
            ctx["marble"] = (*v, ZERO, FAITH)
    return check


_RES_MAP = _map(_name("resource"), _int(1))
_PRODUCTION = _obj(id=_int(), input=_RES_MAP, input_choice=_int(), output=_map(_name("output"), _int(1)),
                  output_choice=_int())
CONFIG_SPEC = _obj(
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
            raise Invalid(f"{path}[{i}].id", f"duplicate {what} {x['id']} (also {path}[{seen[x['id']]}])")
        seen[x["id"]] = i
    missing = sorted(set(range(len(items))) - set(seen))
    if missing:
        raise Invalid(path, f"{what}s must be exactly 0..{len(items) - 1}; missing {missing[0]}")


def _check_production(p: dict, path: str) -> None:
    if not p["input"] and not p["input_choice"]:
        raise Invalid(path, "a production must consume at least one resource")
    if not p["output"] and not p["output_choice"]:
        raise Invalid(path, "a production must yield at least one unit")


def check_semantics(d: dict) -> None:
    pl, mk, ft = d["players"], d["market"], d["faith_track"]
    if pl["max"] < pl["min"]:
        raise Invalid("players.max", f"must be >= players.min ({pl['min']}), got {pl['max']}")
    want = mk["rows"] * mk["columns"] + 1
    if sum(mk["marbles"].values()) != want:
        raise Invalid("market.marbles", f"marble counts add up to {sum(mk['marbles'].values())}, "
                                     f"expected rows*columns+1 = {want}")
    if len(d["seats"]) != pl["max"]:
        raise Invalid("seats", f"has {len(d['seats'])} entries, expected players.max = {pl['max']}")
    ld, n_leaders = d["leaders"], len(d["leader_cards"])
    if ld["kept"] > ld["dealt"]:
        raise Invalid("leaders.kept", f"must be <= leaders.dealt ({ld['dealt']}), got {ld['kept']}")
    if ld["dealt"] * pl["max"] > n_leaders:
        raise Invalid("leaders.dealt", f"{ld['dealt']} per player x {pl['max']} players needs more than "
                                    f"the {n_leaders} leader cards")

    last, prev = ft["last_space"], 0
    for i, (space, _vp) in enumerate(ft["vp_squares"]):
        if space <= prev or space > last:
            raise Invalid(f"faith_track.vp_squares[{i}]", f"space {space} must be ascending and within "
                                                       f"1..last_space ({last})")
        prev = space
    secs, prev = ft["vatican_sections"], -1
    for i, s in enumerate(secs):
        p = f"faith_track.vatican_sections[{i}]"
        if not prev < s["first_space"] <= s["pope_space"] <= last:
            raise Invalid(p, f"spaces {s['first_space']}..{s['pope_space']} must be ascending, after the "
                          f"previous section and within the track (last_space {last})")
        prev = s["pope_space"]
    _check_ids(secs, "faith_track.vatican_sections")

    cards, leaders, tokens = d["development_cards"], d["leader_cards"], d["solo"]["tokens"]
    levels = sorted({c["level"] for c in cards})
    if levels != list(range(1, len(levels) + 1)):
        raise Invalid("development_cards", f"card levels must be 1..n without gaps, got {levels}")
    decks = Counter((c["color"], c["level"]) for c in cards)
    size = Counter(decks.values()).most_common(1)[0][0]
    for color in d["colors"]:
        for lv in levels:
            if decks[(color, lv)] != size:
                raise Invalid("development_cards", f"the {color} level {lv} deck has {decks[(color, lv)]} "
                                                f"cards, the others {size}: every colour/level deck must "
                                                f"hold the same number of cards")

    _check_ids(cards, "development_cards")
    _check_ids(leaders, "leader_cards")
    _check_ids(tokens, "solo.tokens")
    keys: dict[str, str] = {}
    for path, items in (("development_cards", cards), ("leader_cards", leaders), ("solo.tokens", tokens)):
        for i, x in enumerate(items):
            if x["key"] in keys:
                raise Invalid(f"{path}[{i}].key", f"duplicate key {json.dumps(x['key'])} (also {keys[x['key']]})")
            keys[x["key"]] = f"{path}[{i}]"

    kind_field = {"discount": "discount", "extra_depot": "depot_capacity", "production": "production"}
    for i, c in enumerate(leaders):
        p = f"leader_cards[{i}]"
        for kind, fld in kind_field.items():
            has = c[fld] not in (0, None)
            if kind == c["kind"] and not has:
                raise Invalid(f"{p}.{fld}", f"{json.dumps(kind)} leaders need a {fld.replace('_', ' ')}")
            if kind != c["kind"] and has:
                raise Invalid(f"{p}.{fld}", f"must be {'null' if fld == 'production' else 0} for "
                                         f"{json.dumps(c['kind'])} leaders")
        if c["kind"] == "production" and c["resource"] not in c["production"]["input"]:
            raise Invalid(f"{p}.resource", "a production leader's resource must be an input of its production")
        for j, r in enumerate(c["requires_cards"]):
            if r["level"] is not None and r["level"] not in levels:
                raise Invalid(f"{p}.requires_cards[{j}].level", f"there are no level {r['level']} cards")

    prods = [("base_production", d["base_production"])]
    prods += [(f"development_cards[{i}].production", c["production"]) for i, c in enumerate(cards)]
    prods += [(f"leader_cards[{i}].production", c["production"]) for i, c in enumerate(leaders)
              if c["production"] is not None]
    owner: dict[int, str] = {}
    for path, p in prods:
        _check_production(p, path)
        if p["id"] in owner:
            raise Invalid(f"{path}.id", f"duplicate production id {p['id']} (also {owner[p['id']]})")
        owner[p["id"]] = path
    missing = sorted(set(range(len(prods))) - set(owner))
    if missing:
        raise Invalid("$", f"production ids (base_production, development_cards, leader_cards) must be "
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
                raise Invalid(f"{p}.{fld}", f"must be {need} for a {json.dumps(t['kind'])} token")
