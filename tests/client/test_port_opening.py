"""Hosting asks the router to open the port (the one app flow owns it, not the scenes): the
Settings switch on, the port forwarded while the server runs and removed when it stops; the link
to send takes the outside address once the router forwards the port; the switch off, the router
is never asked and the host page says how to do it by hand."""
from __future__ import annotations

import time

import pytest
from support.router import OUTSIDE, StandInRouter

from game.client import port_words as W
from game.client.flow.hosting import start_hosting
from game.client.flow.port_opening import port_mapping, port_words, reachable_at
from game.portmap import State
from game.rules.components import default_config

pytestmark = pytest.mark.timeout(30)


def test_hosting_opens_the_port_and_stopping_closes_it(tmp_path, monkeypatch):
    told = []
    with StandInRouter(natpmp=False) as router:
        monkeypatch.setenv("MOR_ROUTER", router.env())
        server = start_hosting(default_config(), 0, tmp_path / "data", "Ada", 0.3, open_port=True, on_port=told.append)
        try:
            port = server.address[1]
            assert reachable_at(port_mapping(server), ["192.168.1.20"], port) in (("192.168.1.20", port),
                                                                                   (OUTSIDE, port))
            router.wait_for(lambda: port_mapping(server).state is State.OPEN, "the port forwarded", timeout=5)
            assert reachable_at(port_mapping(server), ["192.168.1.20"], port) == (OUTSIDE, port)
            tls = server.tls_address[1]             # (encrypted by default: its TLS port forwarded too)
            assert [(m.outside, m.inside) for m in router.mappings()] == sorted([(port, port), (tls, tls)])
            assert told[-1].state is State.OPEN
        finally:
            server.stop()
        router.wait_for(lambda: port_mapping(server).state is State.CLOSED, "the mapping closed", timeout=3)
        assert router.mappings() == [] and told[-1].state is State.CLOSED


def test_with_the_switch_off_no_router_is_asked(tmp_path, monkeypatch):
    with StandInRouter() as router:
        monkeypatch.setenv("MOR_ROUTER", router.env())
        server = start_hosting(default_config(), 0, tmp_path / "data", "Ada", 0.3, open_port=False)
        try:
            port = server.address[1]
            time.sleep(0.3)
            assert port_mapping(server) is None and router.requests == []
            assert reachable_at(None, ["192.168.1.20"], port) == ("192.168.1.20", port)
            assert port_words(None, ["192.168.1.20"], port, asked=False) == W.OFF.format(port=port, lan="192.168.1.20")
        finally:
            server.stop()


def test_a_server_let_go_is_freed_and_its_mapping_removed(tmp_path, monkeypatch):
    """The mapping's registry keeps no server alive: one stopped and let go is freed."""
    import gc
    import weakref
    with StandInRouter(natpmp=False) as router:
        monkeypatch.setenv("MOR_ROUTER", router.env())
        server = start_hosting(default_config(), 0, tmp_path / "data", "Ada", 0.3, open_port=True)
        router.wait_for(lambda: port_mapping(server).state is State.OPEN, "the port forwarded", timeout=5)
        server.stop()
        router.wait_for(lambda: router.mappings() == [], "the mapping removed", timeout=3)
        gone = weakref.ref(server)
        del server
        gc.collect()
        assert gone() is None


def test_the_switch_turned_while_hosting_removes_and_asks_again(tmp_path, monkeypatch):
    """Settings' switch turned off while hosting: the mapping standing is removed and the host
    page says so; on again: the router is asked again, and the port forwarded."""
    from game.client.flow.hosting import server_folder
    from game.client.flow.port_opening import follow_switch
    with StandInRouter(natpmp=False) as router:
        monkeypatch.setenv("MOR_ROUTER", router.env())
        data = tmp_path / "data"
        server = start_hosting(default_config(), 0, data, "Ada", 0.3, open_port=True)
        try:
            port, lan = server.address[1], ["192.168.1.20"]
            router.wait_for(lambda: port_mapping(server).state is State.OPEN, "the port forwarded", timeout=5)
            follow_switch(server, server_folder(data), False)
            assert port_words(port_mapping(server), lan, port, asked=False) in (
                W.REMOVING.format(port=port), W.REMOVED.format(port=port, lan=lan[0]))
            router.wait_for(lambda: router.mappings() == [], "the mapping removed", timeout=3)
            router.wait_for(lambda: port_mapping(server).state is State.CLOSED, "the mapper closed", timeout=3)
            assert port_words(port_mapping(server), lan, port, asked=False) == W.REMOVED.format(port=port, lan=lan[0])
            assert port_words(port_mapping(server), lan, port, asked=False, short=True) == W.SHORT_REMOVED
            assert reachable_at(port_mapping(server), lan, port) == (lan[0], port)
            follow_switch(server, server_folder(data), True)
            router.wait_for(lambda: port_mapping(server).state is State.OPEN, "the port forwarded again", timeout=5)
            assert len(router.mappings()) == 2 and reachable_at(port_mapping(server), lan, port) == (OUTSIDE, port)
            assert follow_switch(server, server_folder(data), True) is not None and len(router.mappings()) == 2
        finally:
            server.stop()
        router.wait_for(lambda: router.mappings() == [], "the mapping removed with the server", timeout=3)


def test_the_switch_turned_on_while_hosting_without_it(tmp_path, monkeypatch):
    """Hosted with the switch off, then turned on: the router is asked, once, at that moment."""
    from game.client.flow.hosting import server_folder
    from game.client.flow.port_opening import follow_switch
    with StandInRouter(natpmp=False) as router:
        monkeypatch.setenv("MOR_ROUTER", router.env())
        data = tmp_path / "data"
        server = start_hosting(default_config(), 0, data, "Ada", 0.3, open_port=False)
        try:
            assert port_mapping(server) is None
            follow_switch(server, server_folder(data), True)
            router.wait_for(lambda: port_mapping(server).state is State.OPEN, "the port forwarded", timeout=5)
            assert {m.inside for m in router.mappings()} == {server.address[1], server.tls_address[1]}
        finally:
            server.stop()
        router.wait_for(lambda: router.mappings() == [], "the mapping removed with the server", timeout=3)


def test_a_tls_port_forwarded_under_another_number_is_told_to_those_who_come_through_the_router(tmp_path,
                                                                                                 monkeypatch):
    """The router gives the TLS port another outside number than asked (the one asked is another
    computer's): the server tells it (``ResWelcome.tlsOutside``) to our clients, who take it when
    they reached the server at the router's outside address; a client on this network keeps the
    TLS port itself; a reference client hears nothing of it."""
    import json
    import socket

    from support.router import Mapping

    from game.client.flow.hosting import server_folder
    from game.client.flow.port_opening import follow_switch
    from game.netcode.client import offered_tls_port
    with StandInRouter(natpmp=False) as router:
        monkeypatch.setenv("MOR_ROUTER", router.env())
        data = tmp_path / "data"
        server = start_hosting(default_config(), 0, data, "Ada", 0.3, open_port=False)
        try:
            port, tls = server.address[1], server.tls_address[1]
            router.table[("TCP", tls)] = Mapping("upnp", "TCP", tls, "192.168.1.30", 443, "Someone else", 0, 0.0)
            follow_switch(server, server_folder(data), True)
            router.wait_for(lambda: port_mapping(server).state is State.OPEN, "the port forwarded", timeout=5)
            given = port_mapping(server).outside_ports[1]
            assert given != tls and (given, tls) in [(m.outside, m.inside) for m in router.mappings()]
            assert server.tls_outside == (OUTSIDE, given)

            def welcome(asked: bytes) -> dict:
                with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                    f = s.makefile("rwb")
                    f.readline()                                     # (its ReqWelcome)
                    f.write(asked + b"\n")
                    f.flush()
                    return json.loads(f.readline())
            assert welcome(b'{"type": "ReqWelcome", "tls": true}') == {
                "type": "ResWelcome", "tlsPort": tls, "tlsOutside": {"host": OUTSIDE, "port": given}}
            assert welcome(b'{"type": "ReqWelcome"}') == {"type": "ResWelcome"}     # a reference client's
            assert offered_tls_port("127.0.0.1", port) == tls                       # reached on this network
            server.tls_outside = ("127.0.0.1", 4242)                   # as if 127.0.0.1 were the router's outside
            assert offered_tls_port("127.0.0.1", port) == 4242
            follow_switch(server, server_folder(data), False)
            router.wait_for(lambda: port_mapping(server).state is State.CLOSED, "the mapping removed", timeout=3)
            assert server.tls_outside is None
        finally:
            server.stop()
