"""Requests a player can make, as values.

Each request mirrors one client message of seed document 002 with the reference server's field
names: ``to_dict()`` gives the wire message and ``from_dict()`` reads one back, checking types
(a wrong or missing field raises :class:`~game.rules.errors.MalformedRequest`). Whether the request
is *legal* is the engine's business, not this module's.

Resource maps are ``{resource name: count}``; container maps are ``{container id: resource map}``.
Both keep whatever names/ids the client sent, so the engine can refuse unknown ones precisely.

>>> Action.from_dict({"type": "ReqSwapShelves", "shelf1": 0, "shelf2": 2})
ReqSwapShelves(shelf1=0, shelf2=2)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping

from .errors import MalformedRequest

ResMap = dict[str, int]
ContainerMap = dict[int, ResMap]


def _int(v: Any, name: str) -> int:
    if type(v) is not int:
        raise MalformedRequest(detail=f"{name} must be an integer")
    return v


def _bool(v: Any, name: str) -> bool:
    if type(v) is not bool:
        raise MalformedRequest(detail=f"{name} must be true or false")
    return v


def _str(v: Any, name: str) -> str:
    if type(v) is not str:
        raise MalformedRequest(detail=f"{name} must be a string")
    return v


def _res_map(v: Any, name: str) -> ResMap:
    if type(v) is not dict:
        raise MalformedRequest(detail=f"{name} must be an object of resource counts")
    out: ResMap = {}
    for k, n in v.items():
        out[_str(k, name)] = _int(n, f"{name}.{k}")
    return out


def _container_map(v: Any, name: str) -> ContainerMap:
    if type(v) is not dict:
        raise MalformedRequest(detail=f"{name} must be an object keyed by container id")
    out: ContainerMap = {}
    for k, m in v.items():
        if type(k) is int:
            cid = k
        elif type(k) is str and k.isascii() and (k.isdigit() or (k[:1] == "-" and k[1:].isdigit())):
            cid = int(k)
        else:
            raise MalformedRequest(detail=f"{name} key {k!r} is not a container id")
        if cid in out:
            raise MalformedRequest(detail=f"{name} names container {cid} twice")
        out[cid] = _res_map(m, f"{name}.{k}")
    return out


def _int_list(v: Any, name: str) -> list[int]:
    if type(v) is not list:
        raise MalformedRequest(detail=f"{name} must be a list of ids")
    return [_int(x, name) for x in v]


def _need(d: Mapping[str, Any], key: str) -> Any:
    try:
        return d[key]
    except KeyError:
        raise MalformedRequest(detail=f"missing field {key}") from None


def _wire_res(m: ResMap) -> dict[str, int]:
    return dict(m)


def _wire_containers(m: ContainerMap) -> dict[str, dict[str, int]]:
    return {str(k): dict(v) for k, v in m.items()}


class Action:
    """Base class. ``TYPE`` is the protocol message type; ``ACTION`` the UpdateAction name."""

    TYPE: ClassVar[str] = ""
    ACTION: ClassVar[str] = ""
    REGISTRY: ClassVar[dict[str, type["Action"]]] = {}

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        Action.REGISTRY[cls.TYPE] = cls

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def parse(cls, d: Mapping[str, Any]) -> "Action":
        raise NotImplementedError

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> "Action":
        """Read a request message; raises MalformedRequest if it is not a well-formed request."""
        if not isinstance(d, Mapping):
            raise MalformedRequest(detail="a request must be a JSON object")
        t = d.get("type")
        kind = Action.REGISTRY.get(t) if type(t) is str else None
        if kind is None:
            raise MalformedRequest(f'Event type "{t}" is not a game request.')
        return kind.parse(d)


@dataclass(frozen=True, slots=True)
class ReqChooseLeaders(Action):
    TYPE: ClassVar[str] = "ReqChooseLeaders"
    ACTION: ClassVar[str] = "CHOOSE_LEADERS"
    leaders: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "leaders": list(self.leaders)}

    @classmethod
    def parse(cls, d: Mapping[str, Any]) -> "ReqChooseLeaders":
        return cls(tuple(_int_list(_need(d, "leaders"), "leaders")))


@dataclass(frozen=True, slots=True)
class ReqChooseResources(Action):
    TYPE: ClassVar[str] = "ReqChooseResources"
    ACTION: ClassVar[str] = "CHOOSE_RESOURCES"
    shelves: ContainerMap

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "shelves": _wire_containers(self.shelves)}

    @classmethod
    def parse(cls, d: Mapping[str, Any]) -> "ReqChooseResources":
        return cls(_container_map(_need(d, "shelves"), "shelves"))


@dataclass(frozen=True, slots=True)
class ReqSwapShelves(Action):
    """Swap the whole contents of two depots (warehouse shelves or leader depots)."""

    TYPE: ClassVar[str] = "ReqSwapShelves"
    ACTION: ClassVar[str] = "SWAP_SHELVES"
    shelf1: int
    shelf2: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "shelf1": self.shelf1, "shelf2": self.shelf2}

    @classmethod
    def parse(cls, d: Mapping[str, Any]) -> "ReqSwapShelves":
        return cls(_int(_need(d, "shelf1"), "shelf1"), _int(_need(d, "shelf2"), "shelf2"))


@dataclass(frozen=True, slots=True)
class ReqMoveResources(Action):
    """Extension: move ``count`` of ``resType`` from one depot to another (swaps can't split a shelf)."""

    TYPE: ClassVar[str] = "ReqMoveResources"
    ACTION: ClassVar[str] = "SWAP_SHELVES"
    source: int
    target: int
    res_type: str
    count: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "from": self.source, "to": self.target, "resType": self.res_type,
                "count": self.count}

    @classmethod
    def parse(cls, d: Mapping[str, Any]) -> "ReqMoveResources":
        return cls(_int(_need(d, "from"), "from"), _int(_need(d, "to"), "to"),
                   _str(_need(d, "resType"), "resType"), _int(_need(d, "count"), "count"))


@dataclass(frozen=True, slots=True)
class ReqLeaderAction(Action):
    TYPE: ClassVar[str] = "ReqLeaderAction"
    leader: int
    is_activate: bool

    @property
    def action_name(self) -> str:
        return "ACTIVATE_LEADER" if self.is_activate else "DISCARD_LEADER"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "leader": self.leader, "isActivate": self.is_activate}

    @classmethod
    def parse(cls, d: Mapping[str, Any]) -> "ReqLeaderAction":
        return cls(_int(_need(d, "leader"), "leader"), _bool(_need(d, "isActivate"), "isActivate"))


@dataclass(frozen=True, slots=True)
class ReqTakeFromMarket(Action):
    """Take a row (``is_row``) or column; ``index`` is 0-based (rows 0-2 top to bottom, columns 0-3).

    ``replacements`` says what the white marbles become ({res: n}, needed only with two white-marble
    leaders; with one it may be left empty). ``shelves`` says where each taken resource goes; what
    is not placed is discarded.
    """

    TYPE: ClassVar[str] = "ReqTakeFromMarket"
    ACTION: ClassVar[str] = "TAKE_MARKET_RESOURCES"
    is_row: bool
    index: int
    replacements: ResMap = field(default_factory=dict)
    shelves: ContainerMap = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "isRow": self.is_row, "index": self.index,
                "replacements": _wire_res(self.replacements), "shelves": _wire_containers(self.shelves)}

    @classmethod
    def parse(cls, d: Mapping[str, Any]) -> "ReqTakeFromMarket":
        return cls(_bool(_need(d, "isRow"), "isRow"), _int(_need(d, "index"), "index"),
                   _res_map(_need(d, "replacements"), "replacements"),
                   _container_map(_need(d, "shelves"), "shelves"))


@dataclass(frozen=True, slots=True)
class ReqBuyDevCard(Action):
    """Buy the top card of the (color, level) deck into slot ``dev_slot`` (0-based), paying from containers."""

    TYPE: ClassVar[str] = "ReqBuyDevCard"
    ACTION: ClassVar[str] = "BUY_DEVELOPMENT_CARD"
    color: str
    level: int
    dev_slot: int
    res_containers: ContainerMap = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "color": self.color, "level": self.level, "devSlot": self.dev_slot,
                "resContainers": _wire_containers(self.res_containers)}

    @classmethod
    def parse(cls, d: Mapping[str, Any]) -> "ReqBuyDevCard":
        return cls(_str(_need(d, "color"), "color"), _int(_need(d, "level"), "level"),
                   _int(_need(d, "devSlot"), "devSlot"),
                   _container_map(_need(d, "resContainers"), "resContainers"))


@dataclass(frozen=True, slots=True)
class ProductionRequest:
    """One production to run: where its inputs come from and what its blanks become."""

    production: int
    input_containers: ContainerMap = field(default_factory=dict)
    input_non_storable_rep: ResMap = field(default_factory=dict)
    output_rep: ResMap = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"production": self.production, "inputContainers": _wire_containers(self.input_containers),
                "inputNonStorableRep": _wire_res(self.input_non_storable_rep),
                "outputRep": _wire_res(self.output_rep)}

    @classmethod
    def parse(cls, d: Any) -> "ProductionRequest":
        if type(d) is not dict:
            raise MalformedRequest(detail="each production request must be an object")
        return cls(_int(_need(d, "production"), "production"),
                   _container_map(_need(d, "inputContainers"), "inputContainers"),
                   _res_map(d.get("inputNonStorableRep", {}), "inputNonStorableRep"),
                   _res_map(_need(d, "outputRep"), "outputRep"))


@dataclass(frozen=True, slots=True)
class ReqActivateProductions(Action):
    TYPE: ClassVar[str] = "ReqActivateProductions"
    ACTION: ClassVar[str] = "ACTIVATE_PRODUCTION"
    prod_requests: tuple[ProductionRequest, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "prodRequests": [p.to_dict() for p in self.prod_requests]}

    @classmethod
    def parse(cls, d: Mapping[str, Any]) -> "ReqActivateProductions":
        reqs = _need(d, "prodRequests")
        if type(reqs) is not list:
            raise MalformedRequest(detail="prodRequests must be a list")
        return cls(tuple(ProductionRequest.parse(p) for p in reqs))


@dataclass(frozen=True, slots=True)
class ReqEndTurn(Action):
    TYPE: ClassVar[str] = "ReqEndTurn"
    ACTION: ClassVar[str] = "END_TURN"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE}

    @classmethod
    def parse(cls, d: Mapping[str, Any]) -> "ReqEndTurn":
        return cls()


SETUP_ACTIONS = (ReqChooseLeaders, ReqChooseResources)
MAIN_ACTIONS = (ReqTakeFromMarket, ReqBuyDevCard, ReqActivateProductions)
