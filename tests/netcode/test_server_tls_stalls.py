"""TLS handshakes that stall: a stranger who opens connections to the TLS port and then says
nothing (or sends its ClientHello and nothing more) must not hold the server's handshakes in
progress (``max_tls_handshakes``) away from everyone else. A handshake holds one of them for
``tls_handshake_time`` at most; then it gives it back and waits its turn again when its bytes
come (its connection's clocks still close it if it stays silent)."""
from __future__ import annotations

import random
import socket
import ssl
import time

import pytest

from game.netcode.client import Connection, client_tls_context

from conftest import TIMEOUT, round_trips, start_game, still_served, wait_until


def _stalled(address: tuple[str, int], hello: bool) -> socket.socket:
    """A connection from 127.0.0.2 to the TLS port that says nothing, or only its ClientHello."""
    raw = socket.socket()
    raw.bind(("127.0.0.2", 0))
    raw.connect(address)
    if not hello:
        return raw
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    tls = ctx.wrap_socket(raw, do_handshake_on_connect=False)
    tls.setblocking(False)
    try:
        tls.do_handshake()   # its ClientHello goes out; it never answers the server's
    except ssl.SSLWantReadError:
        pass
    return tls


@pytest.mark.timeout(60)
def test_stalled_handshakes_hold_the_others_handshakes_a_moment_only(make_server, certs, players):
    """Finding (stranger 1): 16 silent connections to the TLS port from one address held every
    handshake slot until the heartbeat closed them (25 s with the defaults): no player could
    connect over TLS meanwhile, and the stranger could start again at once. Now four stalled
    handshakes hold the four slots ``tls_handshake_time`` (2 s, the default) at most: a TLS player
    arriving after them joins within a few seconds, and the players seated meanwhile are served as
    before. Fails before the fix: the player waits the heartbeat's two periods (10 s). (Five are
    opened, silent ones and ones stopped after their ClientHello, so that four fill the slots: with
    four, a loaded run now and then saw three in progress, the fourth not begun, and waited in vain.)"""
    cert, key = certs["two"]
    srv = make_server(tls_cert=cert, tls_key=key, tls_port=0, max_tls_handshakes=4, tls_handshake_time=2.0,
                      max_per_address=32, heartbeat=5.0)
    ada, bea = players(srv.address, "Ada", "Bea")
    start_game(ada, bea)
    room = srv.room_of("Ada")
    rng = random.Random(54)
    before = round_trips(room, [ada, bea], rng, 20)
    stalled = [_stalled(srv.tls_address, hello=i % 2 == 1) for i in range(5)]
    try:
        wait_until(lambda: srv.tls_gate.in_progress == 4)
        started = time.monotonic()
        conn = Connection(*srv.tls_address, timeout=TIMEOUT, tls=client_tls_context(), heartbeat_interval=0.1)
        try:
            conn.send({"nickname": "cy", "type": "ReqJoin"})
            conn.wait_for(lambda m: m["type"] == "UpdateBookedSeats", TIMEOUT)
            took = time.monotonic() - started
        finally:
            conn.close()
        during = round_trips(room, [ada, bea], rng, 20)
        assert took < 6.0, f"a TLS player waited {took:.1f} s behind four stalled handshakes"
        still_served(before, during)
        assert all(s in srv.sessions for s in list(srv.sessions) if s.ip == "127.0.0.2")
        wait_until(lambda: srv.tls_gate.in_progress == 0)   # (the fifth's turn came last: 2 s at most too)
    finally:
        for s in stalled:
            s.close()
    wait_until(lambda: not any(s.handshake for s in list(srv.sessions)))
    assert srv.tls_gate.in_progress == 0 and not srv.tls_gate.queued
