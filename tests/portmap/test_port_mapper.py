"""The game's own mapping code (a real ``miniupnpc`` on its side) against a stand-in router on
127.0.0.1 (tests/support/router.py): the port forwarded by UPnP (found by SSDP on loopback, or at
its description's URL) or by NAT-PMP, renewed while hosted, removed when hosting stops; a mapping
left by a game that was killed is replaced, not stacked; and a router that refuses, stops
answering, answers garbage or has a private outside address is each told apart, in its words."""
from __future__ import annotations

import time

import pytest
from support.router import CARRIER_OUTSIDE, OUTSIDE, StandInRouter

from game.client import port_words as W
from game.client.flow.port_opening import port_words
from game.portmap import PortMapper, State, router_from_env
from game.portmap.kept import Kept, description_for

pytestmark = pytest.mark.timeout(30)

PORT = 40123


def settled(mapper: PortMapper, timeout: float = 8.0):
    deadline = time.monotonic() + timeout
    while mapper.status.state is State.ASKING:
        assert time.monotonic() < deadline, "the mapper never answered"
        time.sleep(0.01)
    return mapper.status


def mapper_for(router: StandInRouter, folder, monkeypatch, port: int = PORT, **env) -> PortMapper:
    monkeypatch.setenv("MOR_ROUTER", router.env(**env))
    return PortMapper(port, folder, router_from_env()).start()


@pytest.mark.parametrize("kind", ["upnp", "natpmp"])
def test_the_port_is_forwarded_while_hosted_and_removed_after(kind, tmp_path, monkeypatch):
    with StandInRouter(upnp=kind == "upnp", natpmp=kind == "natpmp") as router:
        mapper = mapper_for(router, tmp_path, monkeypatch)
        status = settled(mapper)
        assert (status.state, status.outside, status.outside_port) == (State.OPEN, OUTSIDE, PORT)
        assert status.via == {"upnp": "UPnP", "natpmp": "NAT-PMP"}[kind]
        [m] = router.mappings()
        assert (m.via, m.proto, m.outside, m.client, m.inside) == (kind, "TCP", PORT, "127.0.0.1", PORT)
        if kind == "upnp":
            assert m.description == description_for(tmp_path) and m.lease == 3600
        assert port_words(status, ["192.168.1.20"], PORT) == \
            f"Friends on the internet can join at {OUTSIDE}:{PORT} (your router forwards it here, by {status.via})."
        mapper.close(wait=5)
        assert not mapper.alive and mapper.status.state is State.CLOSED
        assert router.mappings() == [] and Kept(tmp_path).read() is None


def test_ssdp_on_loopback_finds_the_router(tmp_path, monkeypatch):
    """Discovery as at home, by SSDP multicast, sent out of 127.0.0.1 only (MOR_LAN_INTERFACES)."""
    with StandInRouter(ssdp=True, natpmp=False) as router:
        mapper = mapper_for(router, tmp_path, monkeypatch, discover=True)
        assert settled(mapper).state is State.OPEN
        assert router.asked("ssdp search") >= 1 and [m.via for m in router.mappings()] == ["upnp"]
        mapper.close(wait=5)
        assert router.mappings() == []


@pytest.mark.parametrize("kind", ["upnp", "natpmp"])
def test_the_lease_is_renewed_while_hosted(kind, tmp_path, monkeypatch):
    with StandInRouter(upnp=kind == "upnp", natpmp=kind == "natpmp") as router:
        monkeypatch.setenv("MOR_ROUTER", router.env() + ",lease=2")
        mapper = PortMapper(PORT, tmp_path, router_from_env()).start()
        assert settled(mapper).state is State.OPEN
        action = "upnp AddPortMapping" if kind == "upnp" else "natpmp map"
        router.wait_for(lambda: router.asked(action) >= 3, "the lease renewed twice", timeout=5)
        assert len(router.mappings()) == 1
        mapper.close(wait=5)
        assert router.mappings() == []


def test_the_mapping_goes_when_hosting_stops_without_being_told(tmp_path, monkeypatch):
    """The server stopped (its owner never called close): the mapper sees it and removes the mapping."""
    hosting = [True]
    with StandInRouter(natpmp=False) as router:
        monkeypatch.setenv("MOR_ROUTER", router.env())
        mapper = PortMapper(PORT, tmp_path, router_from_env(), hosting=lambda: hosting[0]).start()
        assert settled(mapper).state is State.OPEN
        hosting[0] = False
        router.wait_for(lambda: router.mappings() == [], "the mapping removed", timeout=3)
        router.wait_for(lambda: not mapper.alive, "the mapper ended", timeout=3)


@pytest.mark.parametrize("kind", ["upnp", "natpmp"])
def test_a_mapping_left_by_a_killed_game_is_replaced_not_stacked(kind, tmp_path, monkeypatch):
    """What a game killed while hosting leaves (its mapping at the router, the file naming it) is
    removed by the next hosting, on another port: one mapping stands, its own. (The real kill -9
    of a hosting game: tests/text/test_pty_port.py.)"""
    with StandInRouter(upnp=kind == "upnp", natpmp=kind == "natpmp") as router:
        first = mapper_for(router, tmp_path, monkeypatch)
        assert settled(first).state is State.OPEN
        left, kept = dict(router.table), Kept(tmp_path).read()
        first.close(wait=5)
        router.table.update(left)                  # as if killed before it could remove anything
        Kept(tmp_path).write(**kept)
        assert [(m.outside, m.inside) for m in router.mappings()] == [(PORT, PORT)]
        second = PortMapper(PORT + 1, tmp_path, router_from_env()).start()
        assert settled(second).state is State.OPEN
        assert [(m.outside, m.inside) for m in router.mappings()] == [(PORT + 1, PORT + 1)]
        second.close(wait=5)
        assert router.mappings() == []


def test_a_mapping_of_this_install_is_known_by_its_description_alone(tmp_path, monkeypatch):
    """Without the file (lost with the disk's last write), UPnP's list of mappings still shows
    this install's by its description: replaced too. Another computer's mapping stays."""
    with StandInRouter(natpmp=False) as router:
        first = mapper_for(router, tmp_path, monkeypatch)
        assert settled(first).state is State.OPEN
        left = dict(router.table)
        first.close(wait=5)
        router.table.update(left)
        from support.router import Mapping
        router.table[("TCP", 8080)] = Mapping("upnp", "TCP", 8080, "192.168.1.30", 8080, "Someone else", 0, 0.0)
        second = PortMapper(PORT + 1, tmp_path, router_from_env()).start()
        assert settled(second).state is State.OPEN
        assert sorted((m.outside, m.client) for m in router.mappings()) == [(8080, "192.168.1.30"),
                                                                           (PORT + 1, "127.0.0.1")]
        second.close(wait=5)


@pytest.mark.parametrize("mode, upnp, state, words", [
    ("refuse", True, State.REFUSED, W.REFUSED.format(port=PORT, lan="192.168.1.20", detail="Action not authorized")),
    ("refuse", False, State.REFUSED, W.REFUSED.format(port=PORT, lan="192.168.1.20", detail="Not Authorized/Refused")),
    ("slow", True, State.TIMED_OUT, W.TIMED_OUT.format(port=PORT, lan="192.168.1.20")),
    ("slow", False, State.NO_ROUTER, W.NO_ROUTER.format(port=PORT, lan="192.168.1.20")),
    ("garbage", True, State.GARBAGE, W.GARBAGE.format(port=PORT, lan="192.168.1.20")),
    ("garbage", False, State.GARBAGE, W.GARBAGE.format(port=PORT, lan="192.168.1.20")),
    ("private", True, State.PRIVATE, W.PRIVATE.format(outside=CARRIER_OUTSIDE)),
    ("private", False, State.PRIVATE, W.PRIVATE.format(outside=CARRIER_OUTSIDE)),
])
def test_each_way_a_router_fails_is_told_apart_in_words(mode, upnp, state, words, tmp_path, monkeypatch):
    with StandInRouter(upnp=upnp, natpmp=not upnp, mode=mode, hold=0.8) as router:
        mapper = mapper_for(router, tmp_path, monkeypatch, timeout=0.4)
        status = settled(mapper)
        assert status.state is state, status
        assert port_words(status, ["192.168.1.20"], PORT) == words
        assert router.mappings() == []          # nothing forwarded: nothing to remove later either
        mapper.close(wait=3)
        assert not mapper.alive


def test_no_router_at_all(tmp_path, monkeypatch):
    """Nobody at the description's URL nor at the NAT-PMP port: no router answered."""
    with StandInRouter() as router:
        env = router.env(timeout=0.3)
    monkeypatch.setenv("MOR_ROUTER", env)             # (the router is closed now)
    mapper = PortMapper(PORT, tmp_path, router_from_env()).start()
    assert settled(mapper).state is State.NO_ROUTER
    mapper.close(wait=3)
    assert not mapper.alive


def test_mor_router_off_and_unreadable(monkeypatch):
    from game.portmap.where import Router
    monkeypatch.setenv("MOR_ROUTER", "off")
    assert router_from_env().off
    monkeypatch.setenv("MOR_ROUTER", "natpmp=127.0.0.1:5399,timeout=0.5")
    assert router_from_env() == Router(upnp=None, natpmp=("127.0.0.1", 5399), timeout=0.5, lease=3600,
                                       multicast_if="127.0.0.1")
    monkeypatch.setenv("MOR_ROUTER", "upnp=ssdp,nonsense=1")
    with pytest.raises(ValueError, match="nonsense"):
        router_from_env()


@pytest.mark.parametrize("kind", ["upnp", "natpmp"])
def test_a_second_port_is_forwarded_and_removed_with_the_first(kind, tmp_path, monkeypatch):
    """A hosted game's TLS port beside its plain one: both forwarded, the status naming the first,
    both removed; a game killed with both standing has both replaced."""
    with StandInRouter(upnp=kind == "upnp", natpmp=kind == "natpmp") as router:
        monkeypatch.setenv("MOR_ROUTER", router.env())
        first = PortMapper(PORT, tmp_path, router_from_env(), also=(PORT + 1,)).start()
        assert settled(first).outside_port == PORT
        assert [(m.outside, m.inside) for m in router.mappings()] == [(PORT, PORT), (PORT + 1, PORT + 1)]
        left, kept = dict(router.table), Kept(tmp_path).read()
        first.close(wait=5)
        assert router.mappings() == []
        router.table.update(left)                  # as if killed with both standing
        Kept(tmp_path).write(**kept)
        second = PortMapper(PORT + 5, tmp_path, router_from_env(), also=(PORT + 6,)).start()
        assert settled(second).state is State.OPEN
        assert [m.inside for m in router.mappings()] == [PORT + 5, PORT + 6]
        second.close(wait=5)
        assert router.mappings() == []


def test_a_killed_game_hosted_again_on_its_port_keeps_its_mappings_without_a_gap(tmp_path, monkeypatch):
    """Hosted again on the same ports (kill -9, then Return to your LAN game): the mappings the
    killed game left are this game's own, kept and renewed rather than removed and made again, so a
    guest coming back meanwhile never finds the port closed. The TLS port keeps its outside number."""
    from support.router import Mapping
    with StandInRouter(natpmp=False) as router:
        monkeypatch.setenv("MOR_ROUTER", router.env())
        router.table[("TCP", PORT + 1)] = Mapping("upnp", "TCP", PORT + 1, "192.168.1.30", 80, "Someone else", 0, 0.0)
        first = PortMapper(PORT, tmp_path, router_from_env(), also=(PORT + 1,)).start()
        assert settled(first).outside_ports == (PORT, PORT + 2)
        left, kept = dict(router.table), Kept(tmp_path).read()
        first.close(wait=5)
        router.table.update(left)                  # as if killed with both standing
        Kept(tmp_path).write(**kept)
        second = PortMapper(PORT, tmp_path, router_from_env(), also=(PORT + 1,)).start()
        assert settled(second).outside_ports == (PORT, PORT + 2)
        assert router.asked("upnp DeletePortMapping") == 2          # (the first game's own closing only)
        assert sorted((m.outside, m.inside) for m in router.mappings() if m.client == "127.0.0.1") == \
            [(PORT, PORT), (PORT + 2, PORT + 1)]
        second.close(wait=5)
        assert [m.client for m in router.mappings()] == ["192.168.1.30"]


def test_what_miniupnpc_prints_goes_to_the_log_not_the_terminal(capfd, caplog):
    """Standard error written inside (as miniupnpc's C code perror()s) reaches the log at debug
    level and not the terminal; standard error is the same again after."""
    import logging
    import os

    from game.portmap.quiet import quiet_stderr
    with caplog.at_level(logging.DEBUG, logger="mor.portmap"):
        with quiet_stderr():
            os.write(2, b"connect: Connection refused\n")
            with quiet_stderr():                       # (nested: written through to the same place)
                os.write(2, b"sendto: Network is unreachable\n")
        os.write(2, b"after\n")
    err = capfd.readouterr().err
    assert "refused" not in err and "unreachable" not in err and "after" in err
    said = [r.getMessage() for r in caplog.records]
    assert "miniupnpc said: connect: Connection refused" in said and \
        "miniupnpc said: sendto: Network is unreachable" in said
