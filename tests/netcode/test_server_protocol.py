"""The server's connection layer over real sockets: handshake, heartbeat, framing and bad input.

Every bad line gets exactly one answer and leaves the connection usable (checked with a
``ReqHeartbeat`` probe after each answer).
"""
from __future__ import annotations

import logging
import socket
import time

import pytest

from game.netcode import event_log
from game.netcode import server as server_mod
from game.netcode.client_messages import ReqWelcome
from game.netcode.framing import CHUNK, MAX_LINE
from game.netcode.heap import pid_rss_mb

from conftest import wait_until

pytestmark = pytest.mark.timeout(30)


class TestHandshake:
    def test_the_server_speaks_first(self, server, peers):
        p = peers(server.address)
        assert p.recv() == {"type": "ReqWelcome"}

    def test_welcome_and_heartbeat_are_answered_res_messages_are_not(self, server, peers):
        p = peers(server.address).welcome()
        p.send({"type": "ResWelcome"})
        p.send({"type": "ResHeartbeat"})
        p.send({"type": "ReqWelcome"})
        p.expect("ResWelcome")
        p.send({"type": "ReqHeartbeat"})
        p.expect("ResHeartbeat")
        p.send({"type": "ReqWelcome"})
        p.expect("ResWelcome")
        p.quiet()

    def test_join_without_handshake_and_with_crlf(self, server, peers):
        p = peers(server.address).welcome()
        p.send(b'{"type":"ReqJoin","nickname":"nohandshake"}\r')
        p.expect("UpdateBookedSeats", bookedSeats=1, canPrepareNewGame="nohandshake")

    def test_tcp_nodelay_on_every_accepted_socket(self, server, peers):
        for _ in range(3):
            peers(server.address).welcome()
        with server.lock:
            sessions = list(server.sessions)
        assert len(sessions) == 3
        for s in sessions:
            assert s.sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0

    def test_goodbye_is_answered_then_the_server_closes(self, server, peers):
        p = peers(server.address).welcome()
        p.send({"type": "ReqGoodbye"})
        p.expect("ResGoodbye")
        assert p.closed_by_server()
        wait_until(lambda: not server.sessions)

    def test_quit_then_goodbye(self, server, peers):
        p = peers(server.address).welcome()
        p.join("leaver")
        p.send({"type": "ReqQuit"})
        p.expect("ResQuit")
        p.send({"type": "ReqGoodbye"})
        p.expect("ResGoodbye")
        assert p.closed_by_server()
        assert "leaver" not in server.by_nick


class TestHeartbeat:
    @pytest.mark.timeout(15)
    def test_silence_gets_a_heartbeat_then_a_drop(self, make_server, peers):
        srv = make_server(heartbeat=0.3)
        p = peers(srv.address)
        t0 = time.monotonic()
        p.expect("ReqWelcome")
        p.expect("ReqHeartbeat", timeout=2)
        t1 = time.monotonic() - t0
        assert p.closed_by_server(timeout=2)
        t2 = time.monotonic() - t0
        assert 0.2 <= t1 < 1.0 and 0.5 <= t2 < 1.5, (t1, t2)

    @pytest.mark.timeout(15)
    def test_any_line_resets_the_timer(self, make_server, peers):
        srv = make_server(heartbeat=0.6)      # (at 0.3 s, a busy machine's late answer came after the drop)
        p = peers(srv.address).welcome()
        end = time.monotonic() + 3.5          # several heartbeat periods, answering each probe late
        beats = 0
        while time.monotonic() < end:
            msg = p.recv(timeout=2)
            if msg["type"] == "ReqHeartbeat":
                beats += 1
                time.sleep(0.15)
                p.send({"type": "ResWelcome"})  # not a ResHeartbeat: any line will do
        assert beats >= 3
        p.send({"type": "ReqHeartbeat"})
        p.until(lambda m: m["type"] == "ResHeartbeat")

    @pytest.mark.timeout(15)
    def test_a_silent_seated_player_is_dropped_and_becomes_inactive(self, make_server, peers, players):
        srv = make_server(heartbeat=0.3)
        (alice,) = players(srv.address, "alice")
        alice.join()
        alice.send({"type": "ReqNewGame", "playersCount": 2})
        alice.until_type("UpdateJoinGame")
        mute = peers(srv.address).welcome()
        mute.join("mute")                      # completes the game; then mute says nothing more
        alice.until_type("UpdateGame")
        # mute never answers anything: ReqHeartbeat after 0.3 s, dropped after 0.6 s
        status = alice.until_type("UpdatePlayerStatus", timeout=3)[-1]
        assert status == {"player": "mute", "isActive": False, "type": "UpdatePlayerStatus"}
        assert "ReqHeartbeat" in [m["type"] for m in (mute.received + _drain(mute))]
        assert not srv.room_of("alice").game.player("mute").active


def _drain(p):
    out = []
    try:
        while True:
            out.append(p.recv(timeout=1))
    except (EOFError, TimeoutError, ConnectionError):
        return out


BAD_LINES = [
    (b"this is not json", "Invalid syntax."),
    (b'{"type":"ReqWelcome"', "Invalid syntax."),
    (b"[1,2,3]", "Invalid syntax."),
    (b"42", "Invalid syntax."),
    (b"null", "Invalid syntax."),
    (b'{"type":"ReqEndTurn"} trailing', "Invalid syntax."),
    (b"{type:ReqWelcome}", "Invalid syntax."),
    (b"\xff\xfe{}", "Invalid syntax."),
    (b"", "Empty input."),
    (b"   ", "Empty input."),
    (b'{"foo":1}', 'Field "type" not found.'),
    (b'{"type":null}', 'Field "type" not found.'),
    (b'{"type":{}}', 'Field "type" not found.'),
    (b'{"type":7}', 'Field "type" not found.'),
    (b'{"type":"ReqNope"}', 'Event type "ReqNope" as subclass of "VCEvent" does not exist.'),
    (b'{"type":"UpdateGame"}', 'Event type "UpdateGame" as subclass of "VCEvent" does not exist.'),
    (b'{"type":"ErrAction","reason":"x"}', 'Event type "ErrAction" as subclass of "VCEvent" does not exist.'),
    (b'{"type":"UpdateSessionToken","token":"x"}',
     'Event type "UpdateSessionToken" as subclass of "VCEvent" does not exist.'),
    (b'{"type":"ResQuit"}', 'Event type "ResQuit" as subclass of "VCEvent" does not exist.'),
    (b'{"type":"ReqSwapShelves","shelf1":"x","shelf2":1}', "Invalid attribute types."),
    (b'{"type":"ReqSwapShelves","shelf1":0}', "Invalid attribute types."),
    (b'{"type":"ReqTakeFromMarket"}', "Invalid attribute types."),
    (b'{"type":"ReqTakeFromMarket","isRow":1,"index":0,"replacements":{},"shelves":{}}', "Invalid attribute types."),
    (b'{"type":"ReqTakeFromMarket","isRow":true,"index":0,"replacements":{},"shelves":[{"2":{"Coin":1}}]}',
     "Invalid attribute types."),
    (b'{"type":"ReqChooseLeaders","leaders":"1,2"}', "Invalid attribute types."),
    (b'{"type":"ReqChooseLeaders","leaders":[1.5,2]}', "Invalid attribute types."),
    (b'{"type":"ReqBuyDevCard","color":1,"level":1,"devSlot":0,"resContainers":{}}', "Invalid attribute types."),
    (b'{"type":"ReqActivateProductions","prodRequests":{}}', "Invalid attribute types."),
    (b'{"type":"ReqActivateProductions","prodRequests":[7]}', "Invalid attribute types."),
    (b'{"type":"ReqNewGame","playersCount":"2"}', "Invalid attribute types."),
    (b'{"type":"ReqNewGame"}', "Invalid attribute types."),
    (b'{"type":"ReqJoin","nickname":5}', "Invalid attribute types."),
    (b'{"type":"ReqJoin","nickname":"x","token":5}', "Invalid attribute types."),
    # past sys.maxsize (orjson reads integers up to 2**64 - 1): the page of tables was an internal error
    (b'{"type":"ReqTables","from":18446744073709551615}', "Invalid attribute types."),
    (b'{"type":"ReqTables","from":9223372036854775808}', "Invalid attribute types."),
    (b'{"type":"ReqWatchList","from":18446744073709551615}', "Invalid attribute types."),
]


class TestBadInput:
    @pytest.mark.parametrize("line, msg", BAD_LINES, ids=[repr(x[0][:40]) for x in BAD_LINES])
    def test_one_error_and_the_connection_is_kept(self, server, peers, line, msg):
        p = peers(server.address).welcome()
        p.send(line)
        assert p.recv() == {"msg": msg, "type": "ErrProtocol"}
        p.probe()

    def test_bad_lines_in_a_game_change_nothing(self, server, peers):
        p = peers(server.address).welcome()
        p.join("solo")
        p.send({"type": "ReqNewGame", "playersCount": 1})
        p.until(lambda m: m["type"] == "UpdateGame")
        game = server.room_of("solo").game
        before = game.snapshot()
        for line, msg in BAD_LINES:
            p.send(line)
            assert p.recv() == {"msg": msg, "type": "ErrProtocol"}
        p.probe()
        assert game.snapshot() == before

    def test_a_line_over_64_kib_is_refused_and_the_connection_kept(self, server, peers):
        p = peers(server.address).welcome()
        p.send(b'{"type":"ReqWelcome","pad":"' + b"x" * MAX_LINE + b'"}')
        p.expect("ErrProtocol", msg="Line too long.")
        p.send({"type": "ReqWelcome"})
        p.expect("ResWelcome")

    def test_a_line_of_exactly_64_kib_is_read_once_joined(self, server, peers):
        p = peers(server.address).welcome()
        p.join("long")   # before the ReqJoin, 8 KB (MAX_LINE_UNJOINED)
        head, tail = b'{"type":"ReqWelcome","pad":"', b'"}'
        p.send(head + b"x" * (MAX_LINE - len(head) - len(tail)) + tail)
        p.expect("ResWelcome")

    @pytest.mark.timeout(30)
    def test_a_10_mb_line_costs_no_memory(self, server, peers):
        p = peers(server.address).welcome()
        p.join("big")
        payload = b'{"type":"ReqWelcome","pad":"' + b"y" * (10 * 1024 * 1024) + b'"}\n'
        rss = pid_rss_mb()   # of this process, which runs the server too
        p.sock.sendall(payload)
        p.expect("ErrProtocol", msg="Line too long.", timeout=20)
        p.send({"type": "ReqNewGame", "playersCount": 1})
        p.until(lambda m: m["type"] == "UpdateGame")
        (session,) = [s for s in server.sessions if s.nickname == "big"]
        assert session.line_reader.max_buffered <= MAX_LINE + CHUNK
        assert pid_rss_mb() - rss < 8, "the server held the long line in memory"

    @pytest.mark.logs_errors("failed to handle")
    def test_an_internal_failure_is_answered_and_the_connection_kept(self, server, peers, monkeypatch):
        def broken(*a, **k):
            raise RuntimeError("boom")

        monkeypatch.setitem(server_mod._HANDLERS, ReqWelcome, broken)
        p = peers(server.address).welcome()
        p.send({"type": "ReqWelcome"})
        p.expect("ErrProtocol", msg="Internal server error.")
        p.probe()

    @pytest.mark.timeout(30)
    @pytest.mark.logs_errors("failed to handle", "failed inside the server")
    def test_a_failure_repeated_at_will_is_logged_a_few_times_then_summed_up(self, server, peers, monkeypatch,
                                                                              caplog):
        """A request that meets a bug, sent again and again by a stranger: each is answered, its
        traceback is logged for the first few only, and the rest are summed up in one line (each
        was an ERROR with its traceback: a log flood at will)."""
        def broken(*a, **k):
            raise RuntimeError("boom")

        monkeypatch.setitem(server_mod._HANDLERS, ReqWelcome, broken)
        stranger = peers(server.address).welcome()
        stranger.sock.sendall(b'{"type":"ReqWelcome"}\n' * 300)
        for _ in range(300):
            stranger.expect("ErrProtocol", msg="Internal server error.")
        with server.lock:
            server.events.interval = 0          # the interval is over: its sum is written now
            server.events.flush()
        logged = [r for r in caplog.records if r.levelno >= logging.ERROR]
        tracebacks = [r for r in logged if "failed to handle" in r.getMessage()]
        assert len(tracebacks) == event_log.FIRST and all(r.exc_info for r in tracebacks)   # was 300
        assert logged[-1].getMessage().startswith(
            "requests that failed inside the server (RuntimeError): 297 more from 1 address")
        honest = peers(server.address).welcome()
        honest.join("honest")
        honest.probe()


class TestManyConnections:
    @pytest.mark.timeout(60)
    def test_500_connections_opened_and_closed(self, server, peers):
        for i in range(500):
            s = socket.create_connection(server.address, timeout=5)
            if i % 3 == 0:   # some close abortively (RST), some after reading the welcome
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            elif i % 3 == 1:
                assert s.recv(100).startswith(b'{"type":"ReqWelcome"}')
            s.close()
        t0 = time.monotonic()
        p = peers(server.address).welcome()
        p.join("survivor")
        assert time.monotonic() - t0 < 1.0
        wait_until(lambda: len(server.sessions) == 1, timeout=10)

    @pytest.mark.timeout(60)
    def test_200_idle_connections(self, server, peers):
        idle = [peers(server.address) for _ in range(200)]
        for p in idle:
            p.expect("ReqWelcome")
        t0 = time.monotonic()
        p = peers(server.address).welcome()
        p.join("busy")
        p.send({"type": "ReqNewGame", "playersCount": 1})
        p.until(lambda m: m["type"] == "UpdateGame")
        assert time.monotonic() - t0 < 1.0
        assert len(server.sessions) == 201
