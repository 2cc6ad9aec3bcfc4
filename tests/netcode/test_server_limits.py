"""The attacks of a server that strangers share (issue 20), each bounded in time, each checking
that the other players are still served: a silent head of the waiting list, a long waiting
list, a line flood, too many connections, connections that never join or never play, and clients
that never read (one address's tables and bots, and connections opened and closed in a loop: in
test_server_bot_limits.py); and every limit is written in the operator's guide.

Other loopback addresses (127.0.0.2, ...) stand for other machines."""
from __future__ import annotations

import logging
import socket
import threading
import time

import pytest

from game.netcode import door, transport
from game.netcode.connection import LINE_BURST, address_key
from game.netcode.transport import LINES_PER_TURN

from conftest import TIMEOUT, Peer, wait_until


def booked(msgs: list[dict]) -> dict:
    return [m for m in msgs if m["type"] == "UpdateBookedSeats"][-1]


class TestWaitingList:
    @pytest.mark.timeout(30)
    def test_a_head_that_never_chooses_blocks_nobody(self, make_server, peers):
        """The head joins, then only answers heartbeats: after ``head_time`` the next in line is
        asked, and starts a game (it used to get ErrNewGame forever)."""
        srv = make_server(head_time=0.5)
        silent = peers(srv.address).welcome()
        silent.join("silent")
        b = peers(srv.address).welcome()
        assert booked(b.join("b"))["canPrepareNewGame"] == "silent"
        b.send({"type": "ReqNewGame", "playersCount": 2})   # (a game of one would start at once)
        assert b.expect("ErrNewGame")["isInvalidPlayersCount"] is False   # not yet its turn
        t0 = time.monotonic()
        b.until(lambda m: m.get("canPrepareNewGame") == "b", timeout=5)
        assert time.monotonic() - t0 < 3
        assert silent.expect("UpdateBookedSeats")["canPrepareNewGame"] == "silent"   # b's join
        assert silent.expect("UpdateBookedSeats") == {"bookedSeats": 2, "canPrepareNewGame": "b",
                                                      "type": "UpdateBookedSeats"}   # not first any more
        b.send({"type": "ReqNewGame", "playersCount": 1})
        b.until(lambda m: m["type"] == "UpdateGame")
        assert silent.expect("UpdateBookedSeats")["canPrepareNewGame"] == "silent"   # first again, alone
        silent.probe()

    @pytest.mark.timeout(30)
    def test_a_head_whose_game_cannot_fill_holds_the_list_only_its_time(self, make_server, peers):
        """Issue 28: the head asks for a game of four, then only answers heartbeats, and nobody
        else comes: its choice held the others until the lobby's time (30 minutes). Now the choice
        lapses after ``head_time`` and the next in line is asked (and may choose a game it fills)."""
        srv = make_server(head_time=0.5)
        silent = peers(srv.address).welcome()
        silent.join("silent")
        silent.send({"type": "ReqNewGame", "playersCount": 4})
        silent.expect("UpdateJoinGame", playersCount=4)
        b = peers(srv.address, source="127.0.0.2").welcome()
        assert booked(b.join("b"))["canPrepareNewGame"] == "silent"
        t0 = time.monotonic()
        b.until(lambda m: m.get("canPrepareNewGame") == "b", timeout=5)
        assert time.monotonic() - t0 < 3
        assert srv.pending_count is None
        b.send({"type": "ReqNewGame", "playersCount": 1})
        b.until(lambda m: m["type"] == "UpdateGame")
        assert silent.until(lambda m: m["type"] == "UpdateBookedSeats" and m["bookedSeats"] == 1)[-1][
            "canPrepareNewGame"] == "silent"                   # alone again, asked again

    @pytest.mark.timeout(30)
    def test_a_row_of_squatters_from_one_address_holds_the_head_once(self, make_server, peers):
        """Issue 28, finding 9: four squatters from one address at the head of the Quick game
        held it ``head_time`` each (32 per address: 32 minutes). When the head's time is up, the
        rest of its address goes to the back with it: the honest player is asked next."""
        srv = make_server(head_time=0.5)
        squatters = []
        for i in range(4):
            p = peers(srv.address, source="127.0.0.2").welcome()
            p.join(f"squat{i}")
            squatters.append(p)
        honest = peers(srv.address, source="127.0.0.3").welcome()
        assert booked(honest.join("honest"))["canPrepareNewGame"] == "squat0"
        t0 = time.monotonic()
        honest.until(lambda m: m.get("canPrepareNewGame") == "honest", timeout=5)
        assert time.monotonic() - t0 < 1.5          # one head_time, not four
        honest.send({"type": "ReqNewGame", "playersCount": 1})
        honest.until(lambda m: m["type"] == "UpdateGame")
        for p in squatters:                          # the squatters are still served, at the back
            p.send({"type": "ReqHeartbeat"})
            p.until(lambda m: m["type"] == "ResHeartbeat")

    @pytest.mark.timeout(30)
    def test_a_head_that_let_its_time_pass_is_not_asked_before_a_newcomer(self, make_server, peers):
        """A connection that let its time as the head pass goes to the back, and is not asked
        again before someone who has not been asked yet."""
        srv = make_server(head_time=0.5)
        x = peers(srv.address, source="127.0.0.2").welcome()
        x.join("x")
        y = peers(srv.address, source="127.0.0.3").welcome()
        y.join("y")
        y.until(lambda m: m.get("canPrepareNewGame") == "y", timeout=5)     # x's time passed
        h = peers(srv.address, source="127.0.0.4").welcome()
        h.join("h")
        asked = h.until(lambda m: m.get("canPrepareNewGame") not in (None, "y"), timeout=5)[-1]
        assert asked["canPrepareNewGame"] == "h"                             # not x again

    def test_the_heads_time_shrinks_as_the_list_grows(self, make_server):
        from game.netcode.lobby import Lobby
        srv = make_server(head_time=60)
        lobby: Lobby = srv.lobby
        told = lobby.told()
        for n, limit in ((1, 60), (told, 60), (2 * told, 30), (4 * told, 15), (100 * told, 10)):
            lobby.waiting[:] = [object()] * n
            assert lobby.head_limit() == limit, n
        lobby.waiting.clear()

    @pytest.mark.timeout(60)
    def test_each_join_and_departure_costs_the_same_however_long_the_list(self, make_server):
        """400 joiners: each is told where it stands when it joins, and only the first four (the
        next game's players) hear of later changes: about 2 messages a join, not 200."""
        srv = make_server(head_time=0, lobby_time=0)
        n = 400
        socks = []
        try:
            for i in range(n):
                p = Peer(srv.address)
                socks.append(p)
                p.welcome()
                got = p.join(f"w{i}")
                assert booked(got) == {"bookedSeats": i + 1, "canPrepareNewGame": "w0",
                                       "type": "UpdateBookedSeats"}
            socks[200].close()                      # a departure far back: nobody needs to hear
            socks[1].close()                        # one among the first: the first four hear
            wait_until(lambda: len(srv.waiting) == n - 2)
            time.sleep(0.2)
            counts = []
            for i, p in enumerate(socks):
                if i in (1, 200):
                    counts.append(0)
                    continue
                p.sock.setblocking(False)
                data = b""
                try:
                    while chunk := p.sock.recv(1 << 16):
                        data += chunk
                except OSError:
                    pass
                counts.append(data.count(b"UpdateBookedSeats"))
            extra = sum(counts)                     # beyond each joiner's own answer
            # the joins of w1..w3 and w1's departure, told to the first four; w4 moved up among them
            assert counts[:5] == [4, 0, 2, 1, 1] and extra == 8, counts[:8]   # was n (n - 1) / 2 = 79,800
        finally:
            for p in socks:
                p.close()

    @pytest.mark.timeout(30)
    def test_the_first_four_see_the_reference_flow(self, make_server, peers):
        """As the reference server: each join is told to every one of the (first four) waiting."""
        srv = make_server()
        a = peers(srv.address).welcome()
        a.join("alice")
        b = peers(srv.address).welcome()
        assert booked(b.join("bob")) == {"bookedSeats": 2, "canPrepareNewGame": "alice", "type": "UpdateBookedSeats"}
        assert a.expect("UpdateBookedSeats") == {"bookedSeats": 2, "canPrepareNewGame": "alice",
                                                 "type": "UpdateBookedSeats"}
        a.send({"type": "ReqNewGame", "playersCount": 2})
        a.expect("UpdateJoinGame", playersCount=2)
        b.expect("UpdateJoinGame", playersCount=2)


class TestLineFlood:
    @pytest.mark.timeout(30)
    def test_a_tiny_line_flood_is_served_at_its_rate_and_the_game_next_to_it_is_not_slowed(
            self, make_server, peers, players, caplog):
        caplog.set_level(logging.WARNING, logger="mor.server")
        srv = make_server(line_rate=50)
        a, = players(srv.address, "a")
        a.join()
        a.send({"type": "ReqNewGame", "playersCount": 1})
        a.until_type("UpdateGame")
        flood = peers(srv.address).welcome()
        stop = threading.Event()
        sent = [0]

        def pour() -> None:
            chunk = b"\n" * 4096                  # empty lines: each answered with an error
            flood.sock.settimeout(0.05)
            while not stop.is_set():
                try:
                    sent[0] += flood.sock.send(chunk)
                except (TimeoutError, BlockingIOError):
                    pass
                except OSError:
                    return
        pourer = threading.Thread(target=pour, daemon=True)
        pourer.start()
        t0 = time.monotonic()
        waits = []
        try:
            for _ in range(40):
                t = time.monotonic()
                a.send({"type": "ReqHeartbeat"})
                a.until_type("ResHeartbeat")
                waits.append(time.monotonic() - t)
                time.sleep(0.03)
        finally:
            stop.set()
            pourer.join(5)
        elapsed = time.monotonic() - t0
        answered = srv.lines_handled
        assert sent[0] > 10_000                     # the flood was real
        assert answered <= 50 * (elapsed + LINE_BURST) + 60, (answered, elapsed)   # was every line
        waits.sort()
        assert waits[len(waits) // 2] < 0.25 and waits[-1] < 2.5, waits   # was seconds a request
        slowed = [r.getMessage() for r in caplog.records if "read more slowly" in r.getMessage()]
        assert 1 <= len(slowed) <= 1 + elapsed // 10 and slowed[0].startswith(   # the operator hears of it, once in 10 s
            "connections past 50 lines a second, read more slowly: 127.0.0.1: held back"), slowed

    @pytest.mark.timeout(30)
    def test_one_connection_is_served_its_share_of_a_wakeup_not_64_kb_of_lines(self, make_server, peers, monkeypatch):
        """Without a line rate, a connection that sent 64 KB of lines at once still waits its
        turn: the line of another connection ready at the same moment is answered after at most
        LINES_PER_TURN of the flood's (it was answered after all of them)."""
        srv = make_server(line_rate=0)
        order = []
        real = transport.Transport._handle_line

        def spy(self, s, line):
            order.append(s.nickname or str(s.number))
            return real(self, s, line)
        monkeypatch.setattr(transport.Transport, "_handle_line", spy)
        flood = peers(srv.address).welcome()
        other = peers(srv.address).welcome()
        numbers = sorted(s.number for s in srv.sessions)
        with srv.lock:                              # both arrive while the loop waits
            flood.sock.sendall(b'{"type":"ReqHeartbeat"}\n' * 2700)
            other.send({"type": "ReqHeartbeat"})
            time.sleep(0.1)
        other.expect("ResHeartbeat")
        wait_until(lambda: len(order) == 2701)
        mine = order.index(str(numbers[1]))
        assert mine <= LINES_PER_TURN, mine


class TestConnections:
    @pytest.mark.timeout(30)
    def test_connections_per_address_and_in_total(self, make_server, peers):
        srv = make_server(max_per_address=3, max_connections=5)
        mine = [peers(srv.address).welcome() for _ in range(3)]
        extra = peers(srv.address)
        extra.expect("ReqWelcome")
        assert extra.expect("ErrProtocol")["msg"].startswith("Too many connections from your address (at most 3)")
        assert extra.closed_by_server()
        others = [peers(srv.address, source="127.0.0.2").welcome() for _ in range(2)]
        full = peers(srv.address, source="127.0.0.3")
        full.expect("ReqWelcome")
        assert full.expect("ErrProtocol")["msg"] == "The server is full: try again later."
        assert full.closed_by_server()
        for p in mine + others:
            p.probe()                               # everyone else is served as before
        mine[0].close()
        wait_until(lambda: len(srv.sessions) == 4)
        peers(srv.address).welcome().probe()        # a place freed is a place taken

    def test_an_ipv6_home_line_counts_as_its_whole_56(self):
        """A single IPv6 host is given a /64 and a home line a /56 (issue 28, finding 6): the
        per-address limits count the /56, or one line would have 256 addresses (and one machine
        2^64) to open connections from."""
        key = address_key
        assert key(("2001:db8:1:2:aaaa::1", 5, 0, 0)) == key(("2001:db8:1:2:ffff:1:2:3", 6, 0, 0)) == "2001:db8:1::/56"
        assert key(("2001:db8:1:ff::1", 5, 0, 0)) == key(("2001:db8:1:2::1", 5, 0, 0))    # another /64 of the line
        assert key(("2001:db8:1:100::1", 5, 0, 0)) != key(("2001:db8:1:2::1", 5, 0, 0))   # the next line
        assert key(("fe80::1%eth0", 5, 0, 2)) == "fe80::/56"
        assert key(("::ffff:192.0.2.7", 5, 0, 0)) == key(("192.0.2.7", 5)) == "192.0.2.7"   # IPv4 on a dual stack

    @pytest.mark.timeout(30)
    def test_one_home_line_of_ipv6_cannot_fill_the_server(self, make_server, peers):
        """Issue 28, finding 6: a home line's /56 is 256 /64s, each an address of its own to
        ``max_per_address``: 130 of them filled the server and 17 of 18 newcomers read "The server
        is full". A /56 is one address now, and the /48 around it counts 128 at most
        (``max_per_network``). The loopback has no such addresses: the server is handed accepted
        sockets as if they came from them."""
        srv = make_server(max_per_address=4, max_per_network=12, max_connections=40)
        # (each /56 of the /48 is one address: 4 connections; the /48 counts 12 in all)
        lst = socket.create_server(("127.0.0.1", 0))
        ours = []

        def arrive(host: str) -> None:     # a connection from ``host`` reaches the server's door
            c = socket.create_connection(lst.getsockname())
            conn, _ = lst.accept()
            ours.append(c)
            srv._call_soon(srv._open_session, conn, (host, 40000 + len(ours), 0, 0))

        try:
            for line in range(10):         # ten home lines (/56s) of one /48, four connections each
                for i in range(4):
                    arrive(f"2001:db8:aa:{line:x}00::{i + 1}")
            refused = ours[-1]                                  # (the last handed over: all are in)
            refused.settimeout(TIMEOUT)
            assert b"Too many connections from your network (at most 12)" in refused.recv(4096)
            assert srv.per_network == {"2001:db8:aa::/48": 12}
            assert len(srv.sessions) == 12                      # the server is far from full
            arrive("2001:db8:bb::1")                            # another site is let in
            wait_until(lambda: srv.per_network.get("2001:db8:bb::/48") == 1)
            for i in range(5):                                  # and so are newcomers on IPv4
                peers(srv.address, source=f"127.0.0.{9 + i}").welcome().probe()
            for c in ours[:4]:
                c.close()                                       # a place freed on the line is a place taken
            wait_until(lambda: srv.per_network.get("2001:db8:aa::/48") == 8)
            for sub in range(5):                                # five /64s of one home line: one address
                arrive(f"2001:db8:cc:{sub}::1")
            ours[-1].settimeout(TIMEOUT)
            assert b"Too many connections from your address (at most 4)" in ours[-1].recv(4096)
            assert srv.per_address.get("2001:db8:cc::/56") == 4
        finally:
            for c in ours:
                c.close()
            lst.close()

    def test_the_server_raises_its_descriptor_limit_and_keeps_headroom(self, make_server):
        resource = pytest.importorskip("resource")
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = min(hard, soft + 500) - door.DESCRIPTOR_HEADROOM if hard != resource.RLIM_INFINITY else soft + 500
        try:
            srv = make_server(max_connections=want)
            now = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
            assert now >= want + door.DESCRIPTOR_HEADROOM or now == hard
            assert srv.max_connections <= now - min(door.DESCRIPTOR_HEADROOM, now // 4)
        finally:
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

    @pytest.mark.timeout(30)
    def test_a_connection_that_never_sends_its_nickname_is_closed(self, make_server, peers, caplog):
        caplog.set_level(logging.INFO, logger="mor.server")
        srv = make_server(join_time=0.6)
        idle = peers(srv.address).welcome()
        joined = peers(srv.address).welcome()
        joined.join("j")
        t0 = time.monotonic()
        while time.monotonic() - t0 < 3:
            try:
                idle.send({"type": "ReqHeartbeat"})   # alive, but never joins
            except OSError:
                break
            time.sleep(0.1)
        assert any(m.get("msg") == "No ReqJoin within 0.6 s: closing the connection." for m in idle.received) or \
            idle.until(lambda m: m["type"] == "ErrProtocol", timeout=1)[-1]["msg"].startswith("No ReqJoin")
        assert idle.closed_by_server(timeout=2)
        joined.probe()
        assert any("sent no ReqJoin in time" in r.getMessage() and r.levelno == logging.INFO for r in caplog.records)

    @pytest.mark.timeout(30)
    def test_a_player_who_never_gets_a_game_is_closed_and_one_in_a_game_is_not(self, make_server, peers, players):
        srv = make_server(lobby_time=0.8, head_time=0)
        a, = players(srv.address, "a")
        a.join()
        a.send({"type": "ReqNewGame", "playersCount": 1})
        a.until_type("UpdateGame")
        waiter = peers(srv.address).welcome()
        waiter.join("waiter")
        got = waiter.until(lambda m: m["type"] == "ErrProtocol", timeout=4)
        assert got[-1]["msg"] == "No game joined within 0.8 s: closing the connection."
        assert waiter.closed_by_server(timeout=2)
        time.sleep(0.5)
        a.probe()                                   # in a game: kept however long it plays


class TestOutput:
    @pytest.mark.timeout(30)
    def test_clients_that_never_read_are_dropped_when_all_the_output_passes_its_limit(
            self, make_server, peers, players, caplog):
        caplog.set_level(logging.WARNING, logger="mor.server")
        srv = make_server(line_rate=0, max_output=1 << 20, max_output_total=96 * 1024)
        a, = players(srv.address, "a")
        a.join()
        stuck = [peers(srv.address, rcvbuf=1024) for _ in range(3)]
        wait_until(lambda: len(srv.sessions) == 4)
        for s in list(srv.sessions):
            if s.nickname is None:
                s.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        for p in stuck:                             # each is sent ~130 KB it never reads
            p.sock.sendall(b'{"type":"ReqHeartbeat"}\n' * 5000)
        wait_until(lambda: len(srv.sessions) < 4, timeout=10)
        assert srv.queued <= 96 * 1024 + (1 << 17)
        a.probe()
        assert any("for everyone" in r.getMessage() for r in caplog.records)


class TestEveryLimitIsWritten:
    def test_each_limit_flag_is_in_the_operators_table_with_its_default(self):
        """Issue 20: each limit has a flag and a default, and is written in docs/server.md ("On
        the internet"): the table's rows and the command line's "limits" group name the same flags,
        with the same defaults."""
        import re
        from pathlib import Path
        from game.netcode.cli import build_parser
        doc = (Path(__file__).resolve().parents[2] / "docs" / "server.md").read_text(encoding="utf-8")
        section = doc.split("## On the internet", 1)[1].split("\n## ", 1)[0]
        rows = {m[1]: m[2] for m in re.finditer(r"^\| `(--[a-z-]+)` \| ([^|]+) \|", section, re.M)}
        group = next(g for g in build_parser()._action_groups if g.title == "limits")
        flags = {a.option_strings[0]: a.default for a in group._group_actions}
        assert set(rows) == set(flags), (set(rows) ^ set(flags))
        scale = {"": 1, "s": 1, "lines/s": 1, "a second": 1, "MB": 1 << 20}
        for flag, written in rows.items():
            number, unit = re.fullmatch(r"([\d.]+)\s*(.*?)\s*", written).groups()
            assert float(number) * scale[unit] == flags[flag], (flag, written, flags[flag])

    def test_the_systemd_unit_of_the_docs_starts_a_server_the_command_line_takes(self):
        """docs/server.md's unit for a server on the internet: its ExecStart is a command line
        mor-server accepts, serving TLS and announcing nothing."""
        import shlex
        from pathlib import Path
        from game.netcode.cli import build_parser
        doc = (Path(__file__).resolve().parents[2] / "docs" / "server.md").read_text(encoding="utf-8")
        unit = doc.split("# /etc/systemd/system/mor-server.service", 1)[1].split("```", 1)[0]
        line = unit.split("ExecStart=", 1)[1].replace("\\\n", " ").split("\n", 1)[0]
        words = shlex.split(line)
        assert words[0].endswith("/mor-server")
        args = build_parser().parse_args(words[1:])
        assert args.tls_cert is not None and args.tls_key is not None and args.announce is False
        assert args.host == "0.0.0.0" and args.port == 51015
