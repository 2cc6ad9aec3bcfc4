"""Connection against a tiny scripted server on 127.0.0.1."""
from __future__ import annotations

import socket
import threading
import time

import pytest

from game.netcode.client_messages import ReqHeartbeat, ReqJoin, ReqNewGame, ReqWelcome
from game.netcode.server_messages import (
    req_heartbeat,
    req_welcome,
    res_heartbeat,
    res_welcome,
    update_booked_seats,
    update_join_game,
)
from game.netcode.client import CONNECTION_LOST, Connection
from game.netcode.framing import LineReader, decode_line, encode
from game.rules.actions import ReqEndTurn

pytestmark = pytest.mark.timeout(30)


class FakeServer:
    """Accepts one connection; the test script sends and receives whole messages."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.conn: socket.socket | None = None
        self._accepted = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        self.listener.settimeout(10)
        try:
            self.conn, _ = self.listener.accept()
        except OSError:
            return
        self.conn.settimeout(5)
        self.reader = LineReader(self.conn)
        self._accepted.set()

    def wait_accepted(self) -> None:
        assert self._accepted.wait(5), "client never connected"

    def send(self, *msgs: dict) -> None:
        self.wait_accepted()
        self.conn.sendall(b"".join(encode(m) for m in msgs))

    def send_raw(self, data: bytes) -> None:
        self.wait_accepted()
        self.conn.sendall(data)

    def recv(self) -> dict | None:
        """The next message from the client, or None at EOF. Fails after 5 s of silence."""
        self.wait_accepted()
        line = self.reader.readline()
        return None if line is None else decode_line(line)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.listener.close()


@pytest.fixture
def server():
    s = FakeServer()
    yield s
    s.close()


@pytest.fixture
def conn(server):
    c = Connection("127.0.0.1", server.port, timeout=5)
    server.wait_accepted()
    yield c
    c.close()


def test_nodelay_is_set(conn):
    assert conn._sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


def test_messages_arrive_in_order(server, conn):
    msgs = [update_booked_seats(1, "alice"), update_join_game(1), {"type": "UpdateSetupDone"}]
    server.send(*msgs)
    assert [conn.get(timeout=5) for _ in msgs] == msgs
    assert conn.poll() == []


def test_poll_returns_everything_pending_without_blocking(server, conn):
    assert conn.poll() == []
    server.send({"n": 1, "type": "A"}, {"n": 2, "type": "B"})
    deadline = time.monotonic() + 5
    got: list[dict] = []
    while len(got) < 2 and time.monotonic() < deadline:
        got += conn.poll()
        time.sleep(0.01)
    assert [m["n"] for m in got] == [1, 2]


def test_get_times_out(conn):
    with pytest.raises(TimeoutError):
        conn.get(timeout=0.05)


def test_welcome_and_heartbeat_are_answered_and_not_delivered(server, conn):
    server.send(req_welcome(), req_heartbeat(), {"type": "UpdateSetupDone"})
    assert server.recv() == {"type": "ResWelcome"}
    assert server.recv() == {"type": "ResHeartbeat"}
    assert conn.get(timeout=5) == {"type": "UpdateSetupDone"}
    assert conn.poll() == []


def test_server_res_messages_are_delivered(server, conn):
    conn.send(ReqWelcome())
    assert server.recv() == {"type": "ReqWelcome"}
    server.send(res_welcome())
    assert conn.get(timeout=5) == {"type": "ResWelcome"}
    conn.send(ReqHeartbeat())
    assert server.recv() == {"type": "ReqHeartbeat"}
    server.send(res_heartbeat())
    assert conn.get(timeout=5) == {"type": "ResHeartbeat"}  # asked for by the application: delivered


def test_send_accepts_dicts_actions_and_lobby_messages(server, conn):
    conn.send({"type": "ReqQuit"})
    conn.send(ReqEndTurn())
    conn.send(ReqJoin("alice"))
    conn.send(ReqNewGame(1))
    assert [server.recv() for _ in range(4)] == [
        {"type": "ReqQuit"}, {"type": "ReqEndTurn"}, {"nickname": "alice", "type": "ReqJoin"},
        {"playersCount": 1, "type": "ReqNewGame"}]


def test_bad_lines_from_the_server_are_skipped(server, conn):
    server.send_raw(b"garbage\r\n\n" + b"x" * (70 * 1024) + b"\n" + b'{"type":"UpdateSetupDone"}\r\n')
    assert conn.get(timeout=5) == {"type": "UpdateSetupDone"}
    assert conn.poll() == []


def test_connection_lost_once_when_the_server_closes(server, conn):
    server.send({"type": "ResQuit"})
    server.conn.close()
    assert conn.get(timeout=5) == {"type": "ResQuit"}
    lost = conn.get(timeout=5)
    assert lost == {"type": CONNECTION_LOST, "reason": "closed by server"}
    assert not conn.connected
    conn._reader.join(5)
    assert not conn._reader.is_alive()
    with pytest.raises(TimeoutError):
        conn.get(timeout=0.1)
    with pytest.raises(ConnectionError):
        conn.send({"type": "ReqHeartbeat"})


def test_close_is_idempotent_and_joins_the_threads(server, conn):
    conn.close()
    conn.close()
    assert not conn._reader.is_alive() and not conn._keepalive.is_alive()
    assert conn.poll() == [{"type": CONNECTION_LOST, "reason": "closed by client"}]
    with pytest.raises(ConnectionError):
        conn.send({"type": "ReqQuit"})
    assert server.recv() is None  # the server sees EOF


def test_close_from_another_thread_while_waiting(server, conn):
    threading.Timer(0.1, conn.close).start()
    with pytest.raises(ConnectionError):
        conn.wait_for(lambda m: m["type"] == "UpdateGame", timeout=10)
    assert conn.poll() == [{"type": CONNECTION_LOST, "reason": "closed by client"}]


def test_wait_for_keeps_the_other_messages_in_order(server, conn):
    server.send({"n": 1, "type": "A"}, {"n": 2, "type": "B"}, {"n": 3, "type": "C"}, {"n": 4, "type": "B"})
    assert conn.wait_for(lambda m: m["type"] == "C", timeout=5)["n"] == 3
    assert conn.wait_for(lambda m: m["type"] == "B", timeout=5)["n"] == 2  # found among the kept ones
    assert conn.get(timeout=5)["n"] == 1
    assert conn.get(timeout=5)["n"] == 4
    server.send({"n": 5, "type": "D"})
    with pytest.raises(TimeoutError):
        conn.wait_for(lambda m: m["type"] == "Z", timeout=0.3)
    assert conn.poll() == [{"n": 5, "type": "D"}]


def test_wait_for_stops_at_connection_lost(server, conn):
    server.send({"type": "A"})
    server.conn.close()
    with pytest.raises(ConnectionError):
        conn.wait_for(lambda m: m["type"] == "Never", timeout=10)
    assert [m["type"] for m in conn.poll()] == ["A", CONNECTION_LOST]


def test_quiet_client_sends_its_own_heartbeat(server):
    t0 = time.monotonic()         # before the connection (a loaded machine may run this thread late)
    c = Connection("127.0.0.1", server.port, timeout=5, heartbeat_interval=0.2)
    try:
        assert server.recv() == {"type": "ReqHeartbeat"}
        assert time.monotonic() - t0 >= 0.15
        server.send(res_heartbeat(), {"type": "Marker"})
        assert c.get(timeout=5) == {"type": "Marker"}  # the answer to our own probe is not delivered
        assert server.recv() == {"type": "ReqHeartbeat"}  # and they keep coming while quiet
    finally:
        c.close()


def test_outgoing_traffic_postpones_the_heartbeat(server):
    c = Connection("127.0.0.1", server.port, timeout=5, heartbeat_interval=1.0)
    try:
        for _ in range(6):
            c.send({"type": "ResHeartbeat"})
            time.sleep(0.1)
        got = [server.recv() for _ in range(6)]
        assert got == [{"type": "ResHeartbeat"}] * 6  # no ReqHeartbeat squeezed in between
    finally:
        c.close()


def test_connect_refused_raises():
    s = socket.create_server(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    with pytest.raises(OSError):
        Connection("127.0.0.1", port, timeout=2)
