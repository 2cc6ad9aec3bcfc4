"""The watchers' limits (issue 31), each tried as an attack, bounded in time, while two players
play at the watched table: too many watchers at one table, too many in all, a flood of watch
requests from one address, and a watcher that never reads. Each checks that the seated players
are still served (``still_served``: their requests' round trips, a request and its ``UpdateAction``
at both players, against the same table's before the attack)."""
from __future__ import annotations

import random
import socket
import threading

import pytest

from game.netcode import watch_wire as W
from game.netcode.server_words import said

from conftest import Peer, round_trips, still_served, wait_until
from table_requests import seat, table_of_two, watch


def raw_watch(p: Peer, nick: str, **where) -> dict:
    p.send(W.ReqWatch(nick, **where).to_dict())
    return p.until(lambda m: m["type"] in (W.UPDATE_WATCHING, W.ERR_WATCH))[-1]


class TestWatcherLimits:
    @pytest.mark.timeout(40)
    def test_watchers_per_table_and_in_all(self, make_server, players, peers):
        srv = make_server(max_watchers_per_table=4, max_watchers=6)
        ada, bea, _ = table_of_two(srv, players, "One")
        room = srv.room_of("Ada")
        rng = random.Random(5)
        before = round_trips(room, [ada, bea], rng, 20)
        crowd = [peers(srv.address) for _ in range(6)]
        answers = [raw_watch(p, f"w{i}", name="One") for i, p in enumerate(crowd)]
        assert [a["type"] for a in answers] == [W.UPDATE_WATCHING] * 4 + [W.ERR_WATCH] * 2
        assert answers[-1] == W.err_watch(W.FULL, said("watch.full", name="One", most=4))
        assert answers[-1]["msg"] == "\u201cOne\u201d has as many watchers as it takes (4): try again later."
        cy, dee = players(srv.address, "Cy", "Dee")
        seat_two = [Peer(srv.address) for _ in range(3)]
        try:
            seat(cy, create="Two", playersCount=2, private=False)
            seat(dee, name="Two")
            got = [raw_watch(p, f"v{i}", name="Two") for i, p in enumerate(seat_two)]
            assert [a["type"] for a in got] == [W.UPDATE_WATCHING] * 2 + [W.ERR_WATCH]
            assert got[-1]["reason"] == W.BUSY and srv.watchers.count == 6
        finally:
            for p in seat_two:
                p.close()
        during = round_trips(room, [ada, bea], rng, 40)
        still_served(before, during)
        wait_until(lambda: srv.watchers.count == 4)                          # the closed ones are gone

    @pytest.mark.timeout(40)
    def test_a_flood_of_watch_requests_from_one_address(self, make_server, players, peers):
        """One address asks to watch 400 times (and the tables it asks for are being played): past
        its burst each is refused at once, the game so far is built once per move whoever asks,
        and another address is served."""
        srv = make_server(watch_rate=0.5, line_rate=0)
        ada, bea, _ = table_of_two(srv, players, "One")
        room = srv.room_of("Ada")
        rng = random.Random(6)
        before = round_trips(room, [ada, bea], rng, 20)
        flood = peers(srv.address)
        stop = threading.Event()

        def pour() -> None:
            line = (b'{"type":"ReqWatch","nickname":"f","name":"One"}\n') * 40
            flood.sock.settimeout(0.05)
            for _ in range(10):
                if stop.is_set():
                    return
                try:
                    flood.sock.sendall(line)
                except OSError:
                    return
        pourer = threading.Thread(target=pour, daemon=True)
        pourer.start()
        try:
            during = round_trips(room, [ada, bea], rng, 40)
        finally:
            stop.set()
            pourer.join(5)
        answers = []
        while len(answers) < 400:
            m = flood.recv()
            if m["type"] in (W.UPDATE_WATCHING, W.ERR_WATCH):
                answers.append(m)
        refused = [m for m in answers if m["type"] == W.ERR_WATCH]
        assert {m["reason"] for m in refused} == {W.TOO_FAST} and len(refused) >= 400 - 10 - 30, len(refused)
        other = peers(srv.address, source="127.0.0.2")
        assert raw_watch(other, "o", name="One")["type"] == W.UPDATE_WATCHING
        still_served(before, during)

    @pytest.mark.timeout(40)
    def test_a_watcher_that_never_reads_is_dropped_and_the_table_plays_on(self, make_server, players, peers):
        srv = make_server(watcher_output=4096, line_rate=0)
        ada, bea, _ = table_of_two(srv, players, "One")
        room = srv.room_of("Ada")
        rng = random.Random(7)
        before = round_trips(room, [ada, bea], rng, 20)
        stuck = peers(srv.address, rcvbuf=1024)
        stuck.send(W.ReqWatch("stuck", name="One").to_dict())
        wait_until(lambda: srv.watchers.count == 1)
        for s in list(srv.sessions):
            if s.watching is not None:
                s.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        reader, = players(srv.address, "Reader")
        watch(reader, name="One")
        during = round_trips(room, [ada, bea], rng, 120)
        wait_until(lambda: srv.watchers.count == 1, timeout=5)             # the stuck one was dropped
        assert stuck.closed_by_server(timeout=5)
        still_served(before, during)
        reader.send({"type": "ReqHeartbeat"})
        reader.until_type("ResHeartbeat")                                  # the one that reads watches on
        assert [m for m in reader.received if m["type"] == "UpdateAction"][-1] == \
            [m for m in ada.received if m["type"] == "UpdateAction"][-1]
