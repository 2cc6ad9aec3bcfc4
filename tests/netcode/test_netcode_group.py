"""The client library's lowest layer, ClientProtocol (no I/O), and the load generator's
ConnectionGroup built on it (bench/lib: many non-blocking connections on the caller's thread),
against scripted sockets and the real server."""
from __future__ import annotations

import select
import socket
import sys
import threading
import time

import pytest

from game.netcode import protocol as p
from game.netcode.client_messages import ReqJoin, ReqNewGame
from game.netcode.server_messages import (
    err_nickname,
    req_heartbeat,
    req_welcome,
    res_goodbye,
    res_heartbeat,
    res_quit,
    res_welcome,
    update_join_game,
)
from bench.lib.connection_group import ConnectionGroup
from game.netcode.client import CONNECTION_LOST, ClientProtocol
from game.netcode.framing import MAX_LINE, LineReader, decode_line, encode
from game.netcode.poller import Poller, SelectorPoller
from game.rules.actions import ReqEndTurn

from conftest import TIMEOUT

pytestmark = pytest.mark.timeout(30)


# --------------------------------------------------------------------------- ClientProtocol
def make_protocol() -> tuple[ClientProtocol, list[bytes]]:
    sent: list[bytes] = []
    return ClientProtocol(sent.append), sent


def test_protocol_answers_welcome_and_heartbeat_without_delivering_them():
    proto, sent = make_protocol()
    out = proto.feed(encode(req_welcome()) + encode(req_heartbeat()) + encode(res_quit()))
    assert out == [res_quit()]
    assert sent == [encode(res_welcome()), encode(res_heartbeat())]


def test_protocol_joins_lines_split_across_reads_and_every_line_end():
    proto, _ = make_protocol()
    data = b'{"type":"ResQuit"}\r\n{"type":"ResGoodbye"}\r{"type":"UpdateSetupDone"}\n'
    out = []
    for i in range(len(data)):   # one byte at a time: the worst split there is
        out += proto.feed(data[i:i + 1])
    assert [m["type"] for m in out] == ["ResQuit", "ResGoodbye", "UpdateSetupDone"]


def test_protocol_skips_bad_and_oversize_lines_and_goes_on():
    proto, _ = make_protocol()
    big = b'{"type":"x","pad":"' + b"a" * (MAX_LINE + 10) + b'"}\n'
    out = proto.feed(b"not json\n" + b'{"no":"type"}\n' + big[:30_000])
    out += proto.feed(big[30_000:] + encode(res_quit()))
    assert out == [res_quit()]
    assert proto.skipped == 3


def test_protocol_swallows_one_res_heartbeat_per_probe():
    proto, _ = make_protocol()
    proto.probe_sent()
    hb = encode(res_heartbeat())
    assert proto.feed(hb) == []                      # the answer to our own probe
    assert proto.feed(hb) == [res_heartbeat()]     # the application's own ReqHeartbeat's answer


def test_a_muted_protocol_drops_updates_but_answers_requests_and_delivers_errors():
    proto, sent = make_protocol()
    proto.muted = True
    update = encode({"market": {"grid": [["Coin"]]}, "type": "UpdateMarket"})
    error = encode(err_nickname(p.NOT_IN_GAME))
    out = proto.feed(update + encode(req_heartbeat()) + error + update)
    assert out == [err_nickname(p.NOT_IN_GAME)]
    assert sent == [encode(res_heartbeat())]
    assert proto.muted_lines == 2 and proto.skipped == 0
    proto.muted = False
    assert proto.feed(update) == [decode_line(update)]


def test_muting_from_a_handler_takes_effect_at_the_next_line(scripted, group):
    peer = group.connect("127.0.0.1", scripted.port)
    conn, _ = scripted.accept()
    conn.sendall(encode(res_quit()) + encode(update_join_game(2)) + encode(res_goodbye()))
    seen = []

    def handler(peer_, msg):
        seen.append(msg["type"])
        peer_.protocol.muted = True

    deadline = time.monotonic() + TIMEOUT
    while not peer.protocol.muted_lines:
        assert time.monotonic() < deadline
        group.dispatch(handler, 0.05)
    assert seen == ["ResQuit"] and peer.protocol.muted_lines == 2
    conn.close()


# --------------------------------------------------------------------------- a scripted server
class ScriptedServer:
    """Accepts any number of connections; the test talks to each accepted socket directly."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.listener.settimeout(5)

    def accept(self) -> tuple[socket.socket, LineReader]:
        conn, _ = self.listener.accept()
        conn.settimeout(5)
        return conn, LineReader(conn)

    def close(self) -> None:
        self.listener.close()


@pytest.fixture
def scripted():
    s = ScriptedServer()
    yield s
    s.close()


@pytest.fixture(params=["epoll", "selectors"] if hasattr(select, "epoll") else ["selectors"])
def group(request, monkeypatch):
    """A group on each kind of poller (epoll where there is one, and the portable one)."""
    if request.param == "selectors":
        monkeypatch.setattr(Poller, "create", staticmethod(SelectorPoller))
    g = ConnectionGroup()
    yield g
    g.close()


def poll_until(group: ConnectionGroup, count: int, timeout: float = TIMEOUT) -> list:
    """At least ``count`` (peer, message) pairs, polling as a load generator would."""
    out: list = []
    deadline = time.monotonic() + timeout
    while len(out) < count:
        assert time.monotonic() < deadline, f"only {out!r} after {timeout} s"
        out += group.poll(0.05)
    return out


def test_messages_come_with_their_peer_and_in_order(scripted, group):
    a = group.connect("127.0.0.1", scripted.port, data="a")
    sa, _ = scripted.accept()
    b = group.connect("127.0.0.1", scripted.port, data="b")
    sb, _ = scripted.accept()
    sb.sendall(encode(res_quit()) + encode(res_goodbye()))
    sa.sendall(encode(update_join_game(2)))
    got = poll_until(group, 3)
    assert [(peer.data, m["type"]) for peer, m in got if peer is b] == [("b", "ResQuit"), ("b", "ResGoodbye")]
    assert [(peer.data, m["type"]) for peer, m in got if peer is a] == [("a", "UpdateJoinGame")]
    assert all(peer.received_at > 0 for peer, _ in got)
    assert a.sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    sa.close()
    sb.close()


def test_welcome_is_answered_by_the_group(scripted, group):
    group.connect("127.0.0.1", scripted.port)
    conn, reader = scripted.accept()
    conn.sendall(encode(req_welcome()))
    deadline = time.monotonic() + TIMEOUT
    conn.settimeout(0.05)
    answer = None
    while answer is None and time.monotonic() < deadline:
        assert group.poll(0.05) == []
        try:
            answer = reader.readline()
        except TimeoutError:
            pass
    assert answer is not None and decode_line(answer) == res_welcome()
    conn.close()


def test_send_takes_dicts_actions_lobby_messages_and_encoded_lines(scripted, group):
    peer = group.connect("127.0.0.1", scripted.port)
    conn, reader = scripted.accept()
    peer.send({"type": "ReqHeartbeat"})
    peer.send(ReqEndTurn())
    peer.send(ReqJoin("alice"))
    peer.send(b'{"type":"ReqQuit"}\n')
    got = [decode_line(reader.readline()) for _ in range(4)]
    assert [m["type"] for m in got] == ["ReqHeartbeat", "ReqEndTurn", "ReqJoin", "ReqQuit"]
    assert got[2]["nickname"] == "alice"
    with pytest.raises(TypeError):
        peer.send({"type": "x", "bad": object()})
    conn.close()


def test_what_the_socket_does_not_take_is_sent_by_poll(scripted, group):
    peer = group.connect("127.0.0.1", scripted.port)
    conn, reader = scripted.accept()
    line = b'{"type":"ReqHeartbeat","pad":"' + b"x" * 60_000 + b'"}\n'
    for _ in range(100):   # 6 MB: far more than the socket buffers hold
        peer.send(line)
    assert peer.out, "the socket should not have taken 6 MB at once"
    received = []

    def read() -> None:
        for _ in range(100):
            received.append(reader.readline())

    t = threading.Thread(target=read)
    t.start()
    deadline = time.monotonic() + 20
    while t.is_alive() and time.monotonic() < deadline:
        group.poll(0.01)
    t.join(1)
    assert len(received) == 100 and all(r == line[:-1] for r in received)
    assert not peer.out
    conn.close()


def test_connection_lost_once_after_what_came_before(scripted, group):
    peer = group.connect("127.0.0.1", scripted.port, data="me")
    conn, _ = scripted.accept()
    conn.sendall(encode(res_quit()))
    conn.close()
    got = poll_until(group, 2)
    assert [m["type"] for _, m in got] == ["ResQuit", CONNECTION_LOST]
    assert got[1][1]["reason"] == "closed by server"
    assert not peer.connected and peer not in group.peers
    assert group.poll(0.05) == []
    with pytest.raises(ConnectionError):
        peer.send(ReqJoin("late"))


def test_close_by_the_client_is_reported_once(scripted, group):
    peer = group.connect("127.0.0.1", scripted.port)
    conn, reader = scripted.accept()
    peer.close()
    peer.close()
    assert group.poll(0) == [(peer, {"type": CONNECTION_LOST, "reason": "closed by client"})]
    assert group.poll(0) == []
    assert reader.readline() is None   # the server side sees EOF
    conn.close()


def test_quiet_peers_send_their_own_heartbeat_and_its_answer_is_swallowed(scripted):
    group = ConnectionGroup(heartbeat_interval=0.2)
    try:
        peer = group.connect("127.0.0.1", scripted.port)
        conn, reader = scripted.accept()
        conn.settimeout(0.05)
        probe = None
        deadline = time.monotonic() + 5
        while probe is None and time.monotonic() < deadline:
            group.poll(0.05)
            try:
                probe = reader.readline()
            except TimeoutError:
                pass
        assert probe is not None and decode_line(probe) == req_heartbeat()
        conn.sendall(encode(res_heartbeat()) + encode(res_quit()))
        got = poll_until(group, 1)
        assert [m for _, m in got] == [res_quit()]
        assert peer.connected
        conn.close()
    finally:
        group.close()


def test_many_quiet_peers_send_their_heartbeats_spread_over_the_second_not_at_once():
    """Peers that fell quiet together do not send their keep-alives in one burst (10,000 of them
    made a server answer 1,200 heartbeats in one wake-up): each is looked at once a second, at
    a moment of its own, as separate clients would be."""
    listener = socket.create_server(("127.0.0.1", 0))
    group = ConnectionGroup(heartbeat_interval=0.2)
    arrived: list[float] = []
    accepted: list[socket.socket] = []
    try:
        peers = [group.connect("127.0.0.1", listener.getsockname()[1]) for _ in range(50)]
        accepted += [listener.accept()[0] for _ in peers]
        for conn in accepted:
            conn.setblocking(False)
        seen: set[socket.socket] = set()
        deadline = time.monotonic() + 5
        while len(seen) < len(accepted) and time.monotonic() < deadline:
            group.poll(0.005)
            for conn in accepted:
                if conn not in seen:
                    try:
                        if conn.recv(100):
                            seen.add(conn)
                            arrived.append(time.monotonic())
                    except BlockingIOError:
                        pass
        assert len(seen) == len(peers)
    finally:
        group.close()
        listener.close()
        for conn in accepted:
            conn.close()
    arrived.sort()
    assert arrived[-1] - arrived[0] >= 0.5, "the quiet peers' heartbeats came in one burst"
    assert max(sum(1 for t in arrived if t0 <= t < t0 + 0.05) for t0 in arrived) <= 10


@pytest.mark.skipif(sys.platform != "linux", reason="SO_TIMESTAMPNS is Linux's")
def test_kernel_timestamps_tell_when_a_message_arrived_not_when_it_was_read(scripted):
    group = ConnectionGroup(kernel_timestamps=True)
    try:
        peer = group.connect("127.0.0.1", scripted.port)
        conn, _ = scripted.accept()
        # the kernel turns stamping on a moment after it is asked: the first packets may go unstamped
        deadline = time.monotonic() + TIMEOUT
        while peer.received_at == peer.read_at:
            assert time.monotonic() < deadline, "no packet was ever stamped"
            conn.sendall(encode(res_heartbeat()))
            poll_until(group, 1)
        sent = time.time()
        conn.sendall(encode(res_quit()))
        time.sleep(0.3)                       # the owner is busy elsewhere
        got = poll_until(group, 1)
        assert [m for _, m in got] == [res_quit()]
        assert sent - 0.05 <= peer.received_at <= sent + 0.1
        assert peer.read_at - peer.received_at >= 0.25
        assert group.clock is time.time
        conn.close()
    finally:
        group.close()


def test_without_kernel_timestamps_arrival_is_the_read(scripted, group):
    peer = group.connect("127.0.0.1", scripted.port)
    conn, _ = scripted.accept()
    conn.sendall(encode(res_quit()))
    poll_until(group, 1)
    assert peer.received_at == peer.read_at and abs(peer.read_at - time.perf_counter()) < 5
    conn.close()


def test_connect_refused_raises(group):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    with pytest.raises(OSError):
        group.connect("127.0.0.1", port, timeout=2)
    assert not group.peers


# --------------------------------------------------------------------------- the real server
def test_two_peers_set_up_and_play_a_turn_on_the_real_server(server, group):
    host, port = server.address
    peers = {nick: group.connect(host, port, data=nick) for nick in ("alice", "bob")}
    inbox: dict[str, list[dict]] = {"alice": [], "bob": []}

    def pump(pred) -> None:
        deadline = time.monotonic() + TIMEOUT
        while not pred():
            assert time.monotonic() < deadline, inbox
            for peer, msg in group.poll(0.05):
                assert not msg["type"].startswith("Err"), msg
                inbox[peer.data].append(msg)

    def count(who: str, type_: str) -> int:
        return sum(m["type"] == type_ for m in inbox[who])

    peers["alice"].send(ReqJoin("alice"))
    pump(lambda: count("alice", "UpdateBookedSeats"))
    peers["alice"].send(ReqNewGame(2))
    peers["bob"].send(ReqJoin("bob"))
    pump(lambda: count("alice", "UpdateGame") and count("bob", "UpdateGame"))
    everything = inbox["alice"] + inbox["bob"]
    assert not any(m["type"] in ("ReqWelcome", "ReqHeartbeat") for m in everything)   # answered below us
    for who, peer in peers.items():
        game = next(m for m in inbox[who] if m["type"] == "UpdateGame")
        me = next(pl for pl in game["players"] if pl["nickname"] == who)
        keep = me["setup"]["chosenLeadersCount"]
        peer.send({"type": "ReqChooseLeaders", "leaders": me["leadersHand"][:keep]})
        if me["setup"]["initialResources"]:
            shelf = me["warehouseShelves"][-1]
            peer.send({"type": "ReqChooseResources", "shelves": {str(shelf): {"Coin": 1}}})
    pump(lambda: count("alice", "UpdateSetupDone") and count("bob", "UpdateSetupDone"))
    first = game["currentPlayer"]
    other = "bob" if first == "alice" else "alice"
    before = count(other, "UpdateCurrentPlayer")
    peers[first].send({"type": "ReqTakeFromMarket", "isRow": True, "index": 0, "replacements": {},
                       "shelves": {}})
    peers[first].send(ReqEndTurn())
    pump(lambda: count(other, "UpdateCurrentPlayer") > before)
    turn = [m for m in inbox[other] if m["type"] == "UpdateCurrentPlayer"][-1]
    assert turn["player"] == other
    assert [m["action"] for m in inbox[first] if m["type"] == "UpdateAction" and m["player"] == first][-2:] \
        == ["TAKE_MARKET_RESOURCES", "END_TURN"]
