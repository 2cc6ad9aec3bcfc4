"""The client's side of a server's tables (game/client/tables.py): the list, a seat by name, by
code, at a new table or in the Quick game, and refusals in words; against a real server on
loopback."""
from __future__ import annotations

import socket
import threading

import pytest

from game.client import tables as T
from game.client.address import describe_connect_error, parse_address
from game.client.join_words import REFUSED
from game.netcode.framing import encode
from game.netcode.server import Server
from game.netcode.server_options import ServerOptions
from game.rules import default_config
from support.wait import until

CONFIG = default_config()
pytestmark = pytest.mark.timeout(30)


@pytest.fixture
def server(tmp_path):
    srv = Server(CONFIG, ServerOptions(host="127.0.0.1", port=0, data_dir=tmp_path / "data", seed=7,
                                       max_per_address=0, tables_per_address=0, bots_per_address=0))
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture
def seats(server, tmp_path):
    """``seats(nick, **where)``: a :class:`Seating` followed until it is seated or failed."""
    made: list[T.Seating] = []

    def sit(nick: str, **where) -> T.Seating:
        s = T.Seating(*server.address, nick, CONFIG, token_file=tmp_path / f"{nick}.json", **where)
        made.append(s)
        until(lambda: s.poll() in ("seated", "failed"), what=f"{nick}'s seat")
        return s

    yield sit
    for s in made:
        if s.session is not None:
            s.session.close()
        s.cancel()


def test_a_new_table_is_listed_and_joined_by_name(server, seats):
    assert T.list_tables(*server.address) == T.TableList((), 0, 0, 0, None)
    ada = seats("Ada", create="Ada's table", players=3, private=False)
    assert ada.state == "seated" and ada.session.lobby.players_count == 3
    assert ada.session.lobby.table == {"name": "Ada's table", "private": False}
    listed = T.list_tables(*server.address)
    assert listed.tables == (T.OpenTable("Ada's table", "Ada", 3, 1, 2, (), False, (("Ada", None),)),)
    assert listed.tables[0].seats_words == "1 of 3 seats taken" and not listed.more
    bea = seats("Bea", name="ada's table")
    assert bea.state == "seated" and bea.session.lobby.players == ["Ada", "Bea"]


def test_a_private_table_by_its_code_and_refusals_in_words(server, seats):
    ada = seats("Ada", create="Secret", players=2, private=True)
    code = ada.session.lobby.table["code"]
    by_name = seats("Bea", name="Secret")
    assert by_name.state == "failed" and "private" in by_name.error and not by_name.taken
    taken = seats("Ada", name="Nothing")
    assert taken.state == "failed" and taken.taken and "already playing" in taken.error
    bea = seats("Bea", code=code.lower().replace("-", " "))
    assert bea.state == "seated" and bea.session.vm.has_game          # the table filled: its game began


def test_the_quick_game_is_the_waiting_list(server, seats):
    ada = seats("Ada")
    assert ada.state == "seated" and ada.session.lobby.head == "Ada" and ada.session.lobby.table is None
    assert T.list_tables(*server.address).waiting == 1


def test_a_server_without_tables_and_one_not_there(tmp_path):
    """A reference-like server answers ReqTables with ErrProtocol: NoTables, in words."""
    lsock = socket.socket()
    lsock.bind(("127.0.0.1", 0))
    lsock.listen(1)
    port = lsock.getsockname()[1]

    def serve() -> None:
        # the client asks where TLS is spoken (a ReqWelcome of its own, answered plainly, as the
        # reference answers every ReqWelcome), then asks for the tables on a second connection
        for _ in range(2):
            conn, _ = lsock.accept()
            with conn:
                conn.sendall(encode({"type": "ReqWelcome"}))
                got = conn.recv(4096)
                if b"ReqWelcome" in got:
                    conn.sendall(encode({"type": "ResWelcome"}))
                    continue
                conn.sendall(encode({"msg": 'Event type "ReqTables" as subclass of "VCEvent" does not exist.',
                                     "type": "ErrProtocol"}))
                conn.recv(4096)

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    with pytest.raises(T.NoTables, match="Quick game"):
        T.list_tables("127.0.0.1", port, timeout=3)
    t.join(5)
    lsock.close()
    with pytest.raises(OSError) as e:
        T.list_tables("127.0.0.1", port, timeout=2)
    assert describe_connect_error(e.value, "127.0.0.1", port) == REFUSED.format(where=f"127.0.0.1:{port}")


def test_addresses_as_typed():
    assert parse_address("[fe80::1]:7", 1) == ("fe80::1", 7)
    with pytest.raises(ValueError, match="not an address"):
        parse_address("a b", 1)
    with pytest.raises(ValueError):
        T.join("127.0.0.1", 1, "x", name="a", code="b")
