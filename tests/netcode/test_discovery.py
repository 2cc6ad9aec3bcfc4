"""Finding games on the LAN (mDNS/DNS-SD), over loopback only: announce and browse on 127.0.0.1.

Every zeroconf instance here is restricted to the loopback interface, so the tests neither send
to nor hear from the real network.
"""
from __future__ import annotations

import time

import pytest

from game.netcode.cli import build_parser
from game.netcode.discovery import (NO_MULTICAST, Announcer, Browser, FoundGame, TableInfo,
                                    should_announce)

from conftest import Player
from support.wait import until

pytestmark = pytest.mark.timeout(60)

LOOPBACK = ["127.0.0.1"]


def wait_for(pred, timeout: float = 10.0):
    return until(pred, timeout=timeout, what="it seen on the network", pause=0.05)


def found(browser: Browser, port: int, **want) -> FoundGame | None:
    for g in browser.games():
        if g.port == port and all(getattr(g.info, k) == v for k, v in want.items()):
            return g
    return None


@pytest.fixture
def browser():
    b = Browser(interfaces=LOOPBACK)
    yield b
    b.close()


def test_a_table_is_found_changes_and_goes(browser):
    a = Announcer(TableInfo("Ada's table", "Ada", 1, 3), 40001, "127.0.0.1")
    try:
        g = wait_for(lambda: found(browser, 40001))
        assert (g.address, g.info) == ("127.0.0.1", TableInfo("Ada's table", "Ada", 1, 3))
        assert g.label == "Ada's table \u2014 1 seated, 3 free"
        a.update(TableInfo("Ada's table", "Ada", 2, 2))
        wait_for(lambda: found(browser, 40001, taken=2, free=2))
        assert browser.problem is None and a.problem is None
    finally:
        a.close(timeout=5)
    wait_for(lambda: found(browser, 40001) is None)


def test_a_server_announces_its_waiting_room_and_its_game(make_server, browser):
    srv = make_server(announce=True, announce_name="Test table")
    port = srv.address[1]
    wait_for(lambda: found(browser, port, name="Test table", taken=0, free=4, started=False))
    a, b = Player(srv.address, "ada"), Player(srv.address, "bruno")
    try:
        a.join()
        wait_for(lambda: found(browser, port, host="ada", taken=1, free=3))
        a.send({"type": "ReqNewGame", "playersCount": 2})
        a.until_type("UpdateJoinGame")
        wait_for(lambda: found(browser, port, taken=1, free=1))
        b.join()
        b.until_type("UpdateGame")
        g = wait_for(lambda: found(browser, port, started=True, free=0, games=1))
        assert g.info.taken == 2 and "playing" in g.label
    finally:
        a.close()
        b.close()
    srv.stop()
    wait_for(lambda: found(browser, port) is None)


def test_loopback_servers_are_not_announced_unless_asked(make_server):
    srv = make_server()
    assert srv.announcer is None
    assert should_announce("0.0.0.0") and should_announce("192.168.1.20") and should_announce("")
    assert not should_announce("127.0.0.1") and not should_announce("::1") and not should_announce("localhost")
    p = build_parser()
    assert p.parse_args([]).announce is None
    assert p.parse_args(["--announce"]).announce is True
    assert p.parse_args(["--no-announce", "--name", "Friday"]).announce is False


def test_no_multicast_says_why_and_joining_by_address_still_works(make_server):
    """An interface that does not exist here stands for a network without multicast."""
    b = Browser(interfaces=["192.0.2.77"])
    a = Announcer(TableInfo("x"), 40002, "192.0.2.77")
    try:
        wait_for(lambda: b.problem and a.problem)
        assert b.problem == NO_MULTICAST and "address" in b.problem and b.games() == []
    finally:
        b.close()
        a.close()
    srv = make_server()
    p = Player(srv.address, "cora")
    try:
        assert p.join()[-1]["type"] == "UpdateBookedSeats"
    finally:
        p.close()


def test_garbled_announcements_are_read_safely():
    info = TableInfo.from_properties({b"name": b"\xff\xfeT", b"taken": b"-3", b"free": b"x", b"started": b"1"})
    assert info.taken == 0 and info.free == 0 and info.started and info.name.endswith("T")
    assert TableInfo.from_properties({}) == TableInfo("")
    assert TableInfo.from_properties(TableInfo("A", "b", 2, 1, True, 3).properties()) == TableInfo("A", "b", 2, 1, True, 3)


def test_the_same_news_again_wakes_nobody():
    """Announcements repeat; a page is redrawn only when what it lists changes."""
    from zeroconf import ServiceStateChange

    class Info:
        port = 40002
        properties = TableInfo("Bea's table", "Bea", 1, 1).properties()

        def parsed_addresses(self):
            return ["127.0.0.1"]

    class Zc:
        def get_service_info(self, *args):
            return Info()

    woken = []
    b = Browser(interfaces=LOOPBACK, on_change=lambda: woken.append(1))
    try:
        wait_for(lambda: b._zc is not None or b.problem)
        woken.clear()
        name = "Bea's table._mor._tcp.local."
        b._changed(Zc(), "_mor._tcp.local.", name, ServiceStateChange.Added)
        v = b.version
        assert len(woken) == 1 and [g.info.host for g in b.games()] == ["Bea"]
        b._changed(Zc(), "_mor._tcp.local.", name, ServiceStateChange.Updated)
        assert b.version == v and len(woken) == 1
        Info.properties = TableInfo("Bea's table", "Bea", 2, 0).properties()
        b._changed(Zc(), "_mor._tcp.local.", name, ServiceStateChange.Updated)
        assert b.version == v + 1 and len(woken) == 2 and b.games()[0].info.taken == 2
    finally:
        b.close()


def test_two_announcers_on_one_computer_keep_their_own_addresses(browser):
    """A hosted game on the LAN and a server on loopback, on one computer: each is found at its
    own address (they once shared the computer's address records, and a browser mixed them)."""
    lan = Announcer(TableInfo("Lan table", "Ada", 1, 1), 40003, "0.0.0.0", addresses=["192.0.2.99"],
                    interfaces=LOOPBACK)
    loop = Announcer(TableInfo("Loop table", "Bea", 1, 1), 40004, "127.0.0.1")
    try:
        a = wait_for(lambda: found(browser, 40003))
        b = wait_for(lambda: found(browser, 40004))
        time.sleep(0.5)      # both announcements are out; a mix would show now
        a, b = found(browser, 40003), found(browser, 40004)
        assert (a.address, b.address) == ("192.0.2.99", "127.0.0.1")
    finally:
        lan.close(timeout=5)
        loop.close(timeout=5)


def test_the_tests_announce_under_a_service_type_of_their_own_so_no_players_list_shows_them(monkeypatch):
    from game.netcode import discovery
    mine = discovery.service_type()                  # set by tests/conftest.py, for this test only
    assert mine.startswith("_mt") and mine.endswith("._tcp.local.") and mine != discovery.SERVICE_TYPE
    assert discovery._instance_name("Ada's table", 4000).endswith(f":4000).{mine}")
    monkeypatch.delenv(discovery.SERVICE_TYPE_ENV)
    assert discovery.service_type() == discovery.SERVICE_TYPE == "_mor._tcp.local."
    assert discovery._instance_name("Ada's table", 4000).endswith(")._mor._tcp.local.")


def test_an_announcement_closed_at_once_sends_its_goodbyes_and_leaves_no_task_behind(caplog, monkeypatch):
    """Zeroconf's unregister returns with its goodbyes still to send: closing its loop then
    destroyed them, and asyncio logged "Task was destroyed but it is pending!" as an error (a
    loaded suite failed on it). Goodbyes spaced as a busy machine spaces them: all sent, none
    left pending."""
    import gc

    import zeroconf._core
    monkeypatch.setattr(zeroconf._core, "_UNREGISTER_TIME", 400)     # ms between goodbyes (125)
    for i in range(2):
        a = Announcer(TableInfo(f"Table {i}", "Ada", 1, 3), 40010 + i, "127.0.0.1")
        assert a.registered.wait(5)
        a.update(TableInfo(f"Table {i}", "Ada", 2, 3))
        a.close(timeout=5)
        assert not a._thread.is_alive()
    gc.collect()
    assert not [r for r in caplog.records if "destroyed but it is pending" in r.getMessage()]
