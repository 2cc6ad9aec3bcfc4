"""The requests of our tables' extension as the server tests send them, each returning what came
up to its answer: sitting at a table (by a raw :class:`~conftest.Peer`, or a
:class:`~conftest.Player`), watching one, and a table of two whose game has started."""
from __future__ import annotations

from game.netcode import watch_wire as W

from conftest import Peer, Player


def sit(p: Peer, nick: str, **table) -> list[dict]:
    """``ReqJoin`` with a ``table``; the answer up to ``UpdateBookedSeats``, ``ErrTable`` or a game."""
    p.send({"type": "ReqJoin", "nickname": nick, "token": "", "table": table})
    return p.until(lambda m: m["type"] in ("UpdateBookedSeats", "ErrTable", "ErrNickname", "UpdateGame"))


def seat(p: Player, **table) -> list[dict]:
    """``ReqJoin`` at a table (by name, code, or a new one); the answer up to the seat or the game."""
    p.send({"type": "ReqJoin", "nickname": p.nickname, "token": "", "table": table})
    return p.until(lambda m: m["type"] in ("UpdateBookedSeats", "ErrTable", "UpdateGame"))


def watch(w: Player, **where) -> list[dict]:
    """``ReqWatch``; the answer up to ``UpdateWatching`` (and a game's history) or ``ErrWatch``."""
    w.send(W.ReqWatch(w.nickname, **where).to_dict())
    got = w.until(lambda m: m["type"] in (W.UPDATE_WATCHING, W.ERR_WATCH))
    if got[-1]["type"] == W.UPDATE_WATCHING and got[-1]["started"]:
        got += w.until(lambda m: m["type"] == "UpdateHistory" and m["last"])
    return got


def table_of_two(srv, players, name: str = "Salon", private: bool = False) -> tuple[Player, Player, dict]:
    """Ada opens the table ``name`` for two, Bea sits (by its code if ``private``): their game has
    started. Returns them and the table as Ada was told it."""
    ada, bea = players(srv.address, "Ada", "Bea")
    booked = seat(ada, create=name, playersCount=2, private=private)[-1]
    assert seat(bea, **({"code": booked["table"]["code"]} if private else {"name": name}))[-1]["type"] == "UpdateGame"
    ada.until_type("UpdateGame")
    return ada, bea, booked["table"]
