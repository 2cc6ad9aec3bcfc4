"""The server's event loop: the non-blocking line splitter, one thread for every connection, a
failing accept, a bug in one connection, floods, calls from other threads, the portable poller,
broadcasts encoded once, and the collector policy of ``server.py``."""
from __future__ import annotations

import errno
import gc
import io
import json
import logging
import os
import random
import resource
import socket
import subprocess
import sys
import threading
import time
import weakref
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.netcode import clocks
from game.netcode import server as server_mod
from game.netcode.framing import MAX_LINE, LineFeeder, LineReader, LineTooLong, encode
from game.netcode.room import Room
from game.netcode.heap import FrozenHeap
from game.netcode.poller import Poller, SelectorPoller
from game.rules.actions import ReqChooseLeaders
from game.rules.engine import Game
from game.rules.playout import choose

from conftest import CONFIG, TIMEOUT, acting, drive, room_of, start_game, wait_until

pytestmark = pytest.mark.timeout(30)

ROOT = Path(__file__).resolve().parents[2]

TOO_LONG = "<too long>"


def fed(chunks, max_line: int = MAX_LINE) -> list:
    feeder = LineFeeder(max_line)
    out = []
    for c in chunks:
        out += [TOO_LONG if isinstance(x, LineTooLong) else x for x in feeder.feed(c)]
    return out


def read(data: bytes, max_line: int = MAX_LINE) -> list:
    return [TOO_LONG if isinstance(x, LineTooLong) else x
            for x in LineReader(io.BytesIO(data), max_line=max_line)]


class TestLineFeeder:
    def test_lf_cr_crlf_and_empty_lines(self):
        assert fed([b"a\nb\rc\r\nd\n\n\r\n\r"]) == [b"a", b"b", b"c", b"d", b"", b"", b""]

    def test_cr_cr_and_lf_cr_are_two_line_ends(self):
        assert fed([b"a\r\rb\n", b"c\n\rd\n"]) == [b"a", b"", b"b", b"c", b"", b"d"]

    def test_crlf_split_between_two_feeds_is_one_line_end(self):
        assert fed([b"one\r", b"\ntwo\r", b"three\n"]) == [b"one", b"two", b"three"]
        assert fed([b"x\r", b"", b"\n"]) == [b"x"]

    def test_a_line_in_pieces_and_the_unfinished_rest_kept(self):
        feeder = LineFeeder()
        assert feeder.feed(b'{"type":') == []
        assert feeder.feed(b'"ReqQuit"}\n{"ty') == [b'{"type":"ReqQuit"}']
        assert feeder.feed(b'pe":"ReqGoodbye"}\n') == [b'{"type":"ReqGoodbye"}']

    def test_many_lines_in_one_feed(self):
        data = b"".join(encode({"type": "ReqHeartbeat", "n": i}) for i in range(1000))
        assert fed([data]) == data.split(b"\n")[:-1]

    def test_exactly_max_line_is_a_line_one_more_is_refused_once(self):
        assert fed([b"x" * 8 + b"\n"], max_line=8) == [b"x" * 8]
        assert fed([b"x" * 9 + b"\nok\n"], max_line=8) == [TOO_LONG, b"ok"]
        assert fed([b"x" * 5, b"x" * 5, b"x" * 5, b"\r", b"\nok\n"], max_line=8) == [TOO_LONG, b"ok"]

    def test_an_oversize_line_is_never_buffered(self):
        feeder = LineFeeder()
        chunk = b"y" * 65536
        out = []
        for _ in range(160):                       # 10 MiB without a line end
            out += feeder.feed(chunk)
        out += feeder.feed(b"y\r\nnext\n")
        assert [type(x) for x in out] == [LineTooLong, bytes] and out[1] == b"next"
        assert feeder.max_buffered <= MAX_LINE

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.sampled_from([b"a", b"bcd", b"\xc3\xab", b"\r", b"\n", b"\r\n", b" ", b"xxxxxx"]),
                    max_size=80),
           st.lists(st.integers(min_value=1, max_value=13), min_size=1, max_size=20))
    def test_the_same_lines_as_line_reader_however_the_bytes_arrive(self, pieces, sizes):
        data = b"".join(pieces)
        chunks, pos, i = [], 0, 0
        while pos < len(data):
            n = sizes[i % len(sizes)]
            chunks.append(data[pos:pos + n])
            pos, i = pos + n, i + 1
        assert fed(chunks, max_line=8) == read(data, max_line=8)
        assert fed([data], max_line=8) == read(data, max_line=8)


# --------------------------------------------------------------------------------------- the loop
def _recv_all(p, until: str, timeout: float = 20.0) -> list[dict]:
    out = p.until(lambda m: m["type"] == until, timeout)
    return out


class TestOneThread:
    def test_connections_add_no_thread(self, server, peers):
        before = threading.active_count()
        conns = [peers(server.address) for _ in range(50)]
        for p in conns:
            p.expect("ReqWelcome")
        assert threading.active_count() == before
        assert len(server.sessions) == 50

    def test_an_idle_server_does_not_spin(self, server, peers):
        peers(server.address).welcome()
        n = server.wakeups
        time.sleep(0.5)
        assert server.wakeups - n <= 3


class TestAccept:
    def test_a_failing_accept_pauses_accepting_instead_of_spinning(self, server, peers, monkeypatch, caplog):
        real = socket.socket.accept

        def no_fds(self):
            raise OSError(errno.EMFILE, "Too many open files")

        monkeypatch.setattr(socket.socket, "accept", no_fds)
        p = peers(server.address)               # waits in the backlog
        time.sleep(0.1)
        n = server.wakeups
        time.sleep(0.5)
        assert server.wakeups - n < 20, "the loop spun on a listener it cannot accept from"
        assert any("accept failed" in r.getMessage() for r in caplog.records)
        monkeypatch.setattr(socket.socket, "accept", real)
        p.expect("ReqWelcome", timeout=2)       # taken as soon as accepting works again
        p.join("late")


class TestOutOfFileDescriptors:
    @pytest.mark.timeout(60)
    def test_past_its_descriptors_the_server_says_it_is_full_and_neither_spins_nor_stops(self, tmp_path):
        """``server.py`` with 64 file descriptors (a hard limit it cannot raise): it keeps a
        headroom below them, so it never runs out; past its connections, a newcomer is told
        that the server is full and closed (not left in the kernel's backlog); once some close,
        newcomers are served again."""
        proc = subprocess.Popen(
            [sys.executable, str(ROOT / "server.py"), "--host", "127.0.0.1", "--port", "0",
             "--data-dir", str(tmp_path / "data"), "--log-level", "WARNING", "--max-per-address", "0"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64)))
        conns: list[socket.socket] = []
        try:
            line = proc.stdout.readline().decode()
            port = int(line.rsplit(":", 1)[1])
            for _ in range(80):                   # more than the server can hold
                conns.append(socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT))
            late = conns[-1]
            reader = LineReader(late)
            assert json.loads(reader.readline())["type"] == "ReqWelcome"
            assert json.loads(reader.readline()) == {"msg": "The server is full: try again later.",
                                                     "type": "ErrProtocol",
                                                     "say": {"code": "limits.server_full", "args": {}}}
            assert reader.readline() is None      # and closed
            time.sleep(0.3)
            cpu0 = _cpu_seconds(proc.pid)
            time.sleep(1.0)
            assert _cpu_seconds(proc.pid) - cpu0 < 0.3, "the server spins while full"
            for c in conns[:40]:
                c.close()
            time.sleep(0.3)
            fresh = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
            conns.append(fresh)
            assert fresh.recv(100) == b'{"type":"ReqWelcome"}\n'
        finally:
            for c in conns:
                c.close()
            proc.terminate()
            _, err = proc.communicate(timeout=10)
        assert proc.returncode == 0
        log = err.decode()
        assert "accept failed" not in log and " ERROR " not in log, log[-2000:]
        assert "at most 48 connections, not 4000: the limit of open files is 64" in log
        assert log.count("connections refused:") == 1, log[-2000:]   # once, not once per refusal


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class TestFailures:
    @pytest.mark.logs_errors("unexpected error")
    def test_a_bug_while_reading_one_connection_costs_only_that_connection(
            self, server, peers, players, monkeypatch):
        (a,) = players(server.address, "a")
        a.join()
        a.send({"type": "ReqNewGame", "playersCount": 2})
        a.until_type("UpdateJoinGame")
        b = peers(server.address).welcome()
        b.join("b")
        a.until_type("UpdateGame")
        game = room_of(server, "a").game
        real_feed = LineFeeder.feed

        def feed(self, data):
            if b"boom" in data:
                raise RuntimeError("a bug")
            return real_feed(self, data)

        monkeypatch.setattr(LineFeeder, "feed", feed)
        lurker = peers(server.address).welcome()
        lurker.send(b"boom")
        assert lurker.closed_by_server()
        (session,) = [s for s in server.sessions if s.nickname == "b"]
        b.send(b"boom")                           # b's connection dies; b becomes inactive
        assert a.until_type("UpdatePlayerStatus")[-1] == {"player": "b", "isActive": False,
                                                           "type": "UpdatePlayerStatus"}
        assert b.closed_by_server()
        assert session.closed and not game.player("b").active
        a.probe()                                 # the others are served as before
        drive(game, [a], random.Random(3), stop=lambda g: g.version >= 12)

    @pytest.mark.logs_errors("failed")
    def test_a_failing_timer_does_not_stop_the_loop(self, server, peers, monkeypatch):
        monkeypatch.setattr(server, "sweep", lambda *a: 1 / 0)
        time.sleep(server_mod.SWEEP_INTERVAL * 1.5)
        peers(server.address).welcome().probe()


class TestHangUp:
    def test_a_last_request_and_the_close_arriving_together(self, server, peers):
        """The data and the FIN are both there when the loop looks: the request is answered and
        the close noticed at once (not at the heartbeat timeout)."""
        other = peers(server.address).welcome()
        p = peers(server.address).welcome()
        with server.lock:                         # the loop wakes for `other` and waits here
            other.send({"type": "ReqHeartbeat"})
            time.sleep(0.05)
            p.sock.sendall(b'{"type":"ReqJoin","nickname":"brief"}\n{"type":"ReqQuit"}\n')
            p.sock.shutdown(socket.SHUT_WR)
            time.sleep(0.05)
        other.expect("ResHeartbeat")
        assert [m["type"] for m in p.until(lambda m: m["type"] == "ResQuit")] == \
            ["UpdateBookedSeats", "ResQuit"]
        wait_until(lambda: len(server.sessions) == 1, timeout=1)
        assert p.closed_by_server(timeout=1)

    def test_a_flood_then_the_close(self, make_server, peers):
        server = make_server(line_rate=0)         # no line rate: served as fast as it comes
        n = 30_000
        p = peers(server.address).welcome()
        p.sock.sendall(b'{"type":"ReqHeartbeat"}\n' * n)
        p.sock.shutdown(socket.SHUT_WR)
        assert [p.recv(timeout=20)["type"] for _ in range(n)] == ["ResHeartbeat"] * n
        wait_until(lambda: not server.sessions, timeout=2)


class TestFloods:
    @pytest.mark.timeout(60)
    def test_a_flood_is_answered_in_order_without_starving_anyone(self, make_server, peers):
        server = make_server(line_rate=0)         # no line rate: only the loop's fairness holds it
        n = 40_000                                # ~1 MB of requests sent at once
        flood = peers(server.address).welcome()
        other = peers(server.address).welcome()
        data = b"".join(b'{"type":"ReqHeartbeat","n":%d}\n' % i for i in range(n)) + b'{"type":"ReqGoodbye"}\n'
        sender = threading.Thread(target=flood.sock.sendall, args=(data,), daemon=True)
        sender.start()
        t0 = time.monotonic()
        other.probe()                             # served while the flood is being read
        assert time.monotonic() - t0 < 1.0
        got = _recv_all(flood, "ResGoodbye", timeout=40)
        assert [m["type"] for m in got] == ["ResHeartbeat"] * n + ["ResGoodbye"]
        assert flood.closed_by_server()
        sender.join(5)

    def test_lines_after_goodbye_are_not_answered(self, server, peers):
        p = peers(server.address).welcome()
        p.send(b'{"type":"ReqGoodbye"}\n{"type":"ReqHeartbeat"}')
        p.expect("ResGoodbye")
        with pytest.raises((EOFError, ConnectionError)):
            p.recv()


class TestOtherThreads:
    def test_send_and_abort_from_another_thread(self, server, peers, players):
        a, b = players(server.address, "a", "b")
        start_game(a, b)
        (sb,) = [s for s in server.sessions if s.nickname == "b"]
        sb.send({"type": "UpdateJoinGame", "playersCount": 2})   # not the loop's thread: it is woken
        assert b.get(timeout=1) == {"type": "UpdateJoinGame", "playersCount": 2}
        for i in range(2000):                     # while the loop is busy sending to b
            sb.send({"type": "UpdateJoinGame", "playersCount": i})
            if i % 100 == 0:
                b.send({"type": "ReqHeartbeat"})
        got = [m["playersCount"] for m in b.until(lambda m: m.get("playersCount") == 1999)
               if m["type"] == "UpdateJoinGame"]
        assert got == list(range(2000))
        sb.abort()
        assert a.until_type("UpdatePlayerStatus", timeout=2)[-1]["player"] == "b"
        wait_until(lambda: sb not in server.sessions)
        assert not room_of(server, "a").game.player("b").active


class TestSelectorPoller:
    """Where there is no epoll the loop runs on a level-triggered ``selectors`` selector."""

    def test_a_game_bad_input_and_goodbye(self, make_server, peers, players, monkeypatch):
        monkeypatch.setattr(Poller, "create", staticmethod(SelectorPoller))
        srv = make_server()
        assert isinstance(srv._poller, SelectorPoller)
        a, b = players(srv.address, "a", "b")
        start_game(a, b)
        game = room_of(srv, "a").game
        drive(game, [a, b], random.Random(5), stop=lambda g: g.version >= 20)
        p = peers(srv.address).welcome()
        p.send(b"not json")
        p.expect("ErrProtocol", msg="Invalid syntax.")
        p.send(b'{"type":"ReqHeartbeat","pad":"' + b"x" * MAX_LINE + b'"}')
        p.expect("ErrProtocol", msg="Line too long.")
        p.probe()
        p.send(b'{"type":"ReqGoodbye"}\n{"type":"ReqHeartbeat"}')
        p.expect("ResGoodbye")
        with pytest.raises((EOFError, ConnectionError)):
            p.recv()

    @pytest.mark.timeout(15)
    def test_heartbeat(self, make_server, peers, monkeypatch):
        monkeypatch.setattr(Poller, "create", staticmethod(SelectorPoller))
        srv = make_server(heartbeat=0.3)
        p = peers(srv.address).welcome()
        p.expect("ReqHeartbeat", timeout=2)
        assert p.closed_by_server(timeout=2)


class TestConnectionClocks:
    """The connections' time limits are a heap of deadlines, not a walk over every connection."""

    @staticmethod
    def _count_looks(srv, monkeypatch) -> list[int]:
        """The connections looked at by each run of the watch, from now on."""
        looks: list[int] = []
        check_one, check_all = srv.clocks.check, srv.clocks.check_due

        def counted_one(s, now):
            looks[-1] += 1
            return check_one(s, now)

        def counted_all(now):
            looks.append(0)
            return check_all(now)

        monkeypatch.setattr(srv.clocks, "check", counted_one)
        monkeypatch.setattr(srv.clocks, "check_due", counted_all)
        return looks

    def test_connections_far_from_their_deadlines_are_not_looked_at(self, make_server, peers, monkeypatch):
        srv = make_server(heartbeat=12.5, head_time=0)   # the watch still runs every second
        conns = [peers(srv.address).welcome() for _ in range(40)]
        looks = self._count_looks(srv, monkeypatch)
        wait_until(lambda: len(looks) >= 2, timeout=5)
        assert sum(looks) == 0, "a connection was looked at long before any deadline of its own"
        assert len(srv.sessions) == len(conns)

    def test_a_crowd_falling_silent_together_is_pinged_over_several_wake_ups(self, make_server, peers,
                                                                             monkeypatch):
        monkeypatch.setattr(clocks, "WATCH_BATCH", 8)
        srv = make_server(heartbeat=0.4)
        looks = self._count_looks(srv, monkeypatch)
        crowd = [peers(srv.address).welcome() for _ in range(30)]
        for p in crowd:
            p.expect("ReqHeartbeat", timeout=5)
        assert max(looks) <= 8 and sum(looks) >= 30
        for p in crowd:                        # silent on: closed after twice the heartbeat
            assert p.closed_by_server(timeout=5)
        wait_until(lambda: not srv.sessions)
        assert not any(ref() for _, _, ref in srv.clocks.heap), "a closed connection is kept by its clock"

    def test_connections_opened_and_closed_leave_no_trace_in_the_clocks(self, make_server):
        srv = make_server(heartbeat=12.5)
        for _ in range(1500):
            socket.create_connection(srv.address).close()
        wait_until(lambda: not srv.sessions)
        assert len(srv.clocks.heap) <= 1001, "the clocks keep an entry for every connection ever closed"


@pytest.mark.skipif(sys.platform != "linux", reason="epoll is Linux's")
def test_a_wake_up_takes_a_share_of_the_ready_connections_and_the_next_ones_the_rest():
    """``Poller.poll(timeout, max_events)``: edge-triggered connections not returned stay ready
    for the next polls, in the order they came (what EVENTS_PER_WAKEUP relies on)."""
    poller = Poller()
    pairs = [socket.socketpair() for _ in range(10)]
    try:
        for a, _ in pairs:
            a.setblocking(False)
            poller.register(a.fileno(), Poller.IN, edge=True)
        for _, b in pairs:
            b.send(b"x\n")
        order = [a.fileno() for a, _ in pairs]
        got = [[fd for fd, _ in poller.poll(0, 4)] for _ in range(4)]
        assert [len(g) for g in got] == [4, 4, 2, 0]
        assert sum(got, []) == order
    finally:
        for a, b in pairs:
            a.close()
            b.close()
        poller.close()


def test_the_stall_log_says_what_a_long_wake_up_did(make_server, peers, caplog):
    caplog.set_level(logging.WARNING, logger="mor.server")
    srv = make_server(stall_log=0.0001)   # every wake-up is "long"
    p = peers(srv.address).welcome()
    p.send({"type": "ReqHeartbeat"})
    p.expect("ResHeartbeat")
    p.send({"type": "ReqChat", "text": "hi"})   # not joined: refused
    p.expect("ErrNickname")
    def said() -> list[str]:   # (a wake-up is logged once it is over: after its replies)
        return [r.getMessage() for r in caplog.records if "stall: wake-up of" in r.getMessage()]

    wait_until(lambda: any("ReqChat 1" in m for m in said()))
    assert any("ReqHeartbeat 1" in m for m in said())
    assert all(" ms (CPU " in m and " connections; " in m for m in said())


class TestBroadcast:
    def _room(self):
        game = Game.new(CONFIG, ["ann", "bob"], 7)
        sent: list[tuple[str, list]] = []
        raw: list[tuple[str, bytes]] = []
        room = Room(1, game, lambda n, m: sent.append((n, m)), send_bytes=lambda n, d: raw.append((n, d)))
        room.start(["ann", "bob"])
        return game, room, sent, raw

    def test_each_event_is_encoded_once_for_everyone(self):
        game, room, sent, raw = self._room()
        rng = random.Random(1)
        while game.phase == "setup":
            nick = acting(game, rng)
            assert room.submit(nick, choose(game, nick, rng))
        raw.clear()
        nick = game.current_player.nickname
        assert room.submit(nick, choose(game, nick, rng))
        (n1, d1), (n2, d2) = raw
        assert {n1, n2} == {"ann", "bob"} and d1 is d2          # one buffer for both players
        assert json.loads(d1.splitlines()[-1])["type"] == "UpdateAction"

    def test_the_same_bytes_as_encoding_each_message_for_each_player(self):
        game, room, sent, raw = self._room()
        twin_game = Game.new(CONFIG, ["ann", "bob"], 7)
        twin: list[tuple[str, list]] = []
        twin_room = Room(1, twin_game, lambda n, m: twin.append((n, m)))   # no send_bytes
        twin_room.start(["ann", "bob"])
        raw.clear()
        twin.clear()
        rng = random.Random(4)
        for _ in range(60):
            if game.ended:
                break
            nick = acting(game, rng)
            action = choose(game, nick, rng)
            assert room.submit(nick, action) and twin_room.submit(nick, action)
        assert sorted(raw) == sorted((n, b"".join(encode(m) for m in msgs)) for n, msgs in twin)

    def test_the_requester_is_answered_first(self):
        game, room, sent, raw = self._room()
        raw.clear()
        hand = game.player("bob").hand
        assert room.submit("bob", ReqChooseLeaders(tuple(hand[:2])))
        assert [n for n, _ in raw] == ["bob", "ann"]

    def test_a_private_update_goes_to_its_owner_only(self):
        game, room, sent, raw = self._room()
        raw.clear()
        hand = game.player("ann").hand
        assert room.submit("ann", ReqChooseLeaders(tuple(hand[:2])))
        by_nick = {n: [json.loads(x) for x in d.splitlines()] for n, d in raw}
        assert "UpdateLeadersHand" in [m["type"] for m in by_nick["ann"]]
        assert "UpdateLeadersHand" not in [m["type"] for m in by_nick["bob"]]
        assert by_nick["ann"][-1] == by_nick["bob"][-1]


class TestFrozenHeap:
    def test_old_objects_are_frozen_and_the_valve_collects_their_cycles(self):
        heap = FrozenHeap(growth=1.0, slack=10**9, check=0.0)
        try:
            heap.start()
            assert heap.full_collections == 1 and gc.get_freeze_count() > 0

            class Node:
                pass

            a, b = Node(), Node()
            a.other, b.other = b, a
            ref = weakref.ref(a)
            heap.tick()                            # the pair is frozen: collections skip it
            del a, b
            gc.collect()
            assert ref() is not None and heap.full_collections == 1
            heap.slack = 0                         # the frozen heap "grew": the valve opens
            heap.tick()
            assert heap.full_collections == 2 and ref() is None
        finally:
            heap.stop()
        assert gc.get_freeze_count() == 0

    def test_the_players_a_server_is_made_for_do_not_open_the_valve(self):
        """A full collection holds the interpreter (264 ms at 10,000 players): a server filling
        up to its connections is no growth; a heap past what they explain still is."""
        heap = FrozenHeap.for_connections(3000, growth=1.0, check=0.0)
        players: list = []
        try:
            heap.start()
            players += [[[] for _ in range(40)] for _ in range(3000)]   # 3,000 players' objects
            heap.tick()
            assert heap.full_collections == 1, "a full server opened the valve"
            players += [[[] for _ in range(50)] for _ in range(4000)]
            heap.tick()
            assert heap.full_collections == 2
        finally:
            heap.stop()
            players.clear()

    def test_a_finished_game_is_freed_without_the_collector(self, make_server, players):
        """Rooms hold no reference cycle: under the frozen heap of a long-running server, a cycle
        would keep every finished game in memory until the safety valve opened."""
        srv = make_server(grace=0.01)
        a, b = players(srv.address, "ann", "ben")
        start_game(a, b)
        room = room_of(srv, "ann")
        refs = [weakref.ref(room), weakref.ref(room.game)]
        del room
        for p in (a, b):
            p.send({"type": "ReqGoodbye"})
            p.until_type("ResGoodbye")
        wait_until(lambda: not srv.sessions)
        wait_until(lambda: srv.sweep(time.monotonic() + 60) or not srv.rooms)
        enabled = gc.isenabled()
        gc.disable()
        try:
            assert not srv.rooms
            assert all(r() is None for r in refs), "a removed room survives until a full collection"
        finally:
            if enabled:
                gc.enable()


class TestStatusLine:
    def test_the_operator_sees_who_is_here_and_how_busy_the_server_is(self, make_server, players, caplog):
        caplog.set_level(logging.INFO, logger="mor.server")
        srv = make_server(status_interval=0.3)
        a, b = players(srv.address, "sa", "sb")
        start_game(a, b)
        (w,) = players(srv.address, "sw")
        w.join()
        a.probe()

        def status_lines() -> list[str]:
            return [r.getMessage() for r in caplog.records if r.getMessage().startswith("status:")]

        wait_until(lambda: any("waiting to play 1" in m for m in status_lines()), timeout=5)
        line = next(m for m in status_lines() if "waiting to play 1" in m)
        assert "connections 3; games in progress 1 (players online 2); waiting to play 1" in line
        assert "lines/s" in line and "MB" in line

    def test_an_idle_server_says_nothing(self, make_server, caplog):
        caplog.set_level(logging.INFO, logger="mor.server")
        srv = make_server(status_interval=0.05)
        time.sleep(1.3)   # the janitor runs every second
        assert srv.wakeups >= 1
        assert not [r for r in caplog.records if r.getMessage().startswith("status:")]
