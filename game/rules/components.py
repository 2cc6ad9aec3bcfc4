"""Game components (cards, tokens, track, numbers) loaded from ``config/*.json``.

Everything here is immutable and cheap to read: frozen slotted dataclasses, tuples, and
:class:`types.MappingProxyType` over plain dicts. :func:`load_config` reads and validates a file
(the schema and its checks: :mod:`.config_schema`) and raises one :class:`ConfigError` at the
first problem, naming the file, the JSON path of the field and what is wrong.

>>> cfg = default_config()
>>> cfg.dev_cards[0].key, cfg.dev_cards[0].production.id
('dev_green_l1_vp1', 5)

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
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any, Callable, Mapping

from game.resources import CONFIG_DIR

from .config_schema import CONFIG_SPEC, Invalid, check_semantics, expect

__all__ = [
    "Production", "DevCard", "CardRequirement", "LeaderCard", "SoloToken", "VaticanSection",
    "SeatSetup", "GameConfig", "ConfigError", "DEFAULT_CONFIG_PATH", "load_config", "default_config",
]

DEFAULT_CONFIG_PATH = CONFIG_DIR / "default.json"
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
            raise Invalid("$", f"duplicate key {json.dumps(k)} in a JSON object")
        out[k] = v
    return out


def _parse(text: str) -> dict:
    try:
        doc = json.loads(text, object_pairs_hook=_no_duplicate_keys,
                         parse_constant=lambda c: _reject_constant(c))
    except json.JSONDecodeError as e:
        raise Invalid("$", f"invalid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    expect(doc, dict, "$", "an object")
    ctx = {"leader_kind": LEADER_KINDS, "token_kind": TOKEN_KINDS}
    CONFIG_SPEC(doc, "$", ctx)
    check_semantics(doc)
    return doc


def _reject_constant(const: str) -> None:
    raise Invalid("$", f"invalid JSON: {const} is not allowed")


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
    except Invalid as e:
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
