"""A server stopped on purpose (the host's *Stop hosting*, an operator's SIGTERM) tells our clients
so before the connections close: a guest can tell it from a crash. Reference clients are told
nothing new."""
from __future__ import annotations

import pytest

from conftest import start_game

pytestmark = pytest.mark.timeout(20)


def test_our_guests_are_told_the_server_stops_on_purpose_before_it_closes(make_server, players, peers):
    server = make_server()
    ann, bob = players(server.address, "Ann", "Bob")
    start_game(ann, bob)
    waiting = players(server.address, "Cy")[0]
    waiting.join()
    plain = peers(server.address).welcome()
    plain.join("Ref")                                  # a reference client, in the waiting list
    server.stop()
    for p in (ann, bob, waiting):
        said = p.until_type("UpdateServerStopping")[-1]
        assert said == {"type": "UpdateServerStopping", "reason": "HOST_STOPPED"}, p
        assert p.conn.get(5)["type"] == "ConnectionLost"      # then the connection ends
    assert plain.closed_by_server()
    assert not any(m["type"] == "UpdateServerStopping" for m in plain.received)


def test_a_crash_says_nothing_a_connection_only_ends(make_server, players):
    server = make_server()
    ann, bob = players(server.address, "Ann", "Bob")
    start_game(ann, bob)
    for s in list(server.sessions):    # what a crash looks like from outside: the sockets end
        s.abort()
    seen = []
    while not seen or seen[-1]["type"] != "ConnectionLost":
        seen.append(ann.conn.get(5))
    assert "UpdateServerStopping" not in [m["type"] for m in seen]
