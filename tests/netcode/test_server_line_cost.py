"""What a line may cost the server before it is checked (issue 28, finding 3): big game requests
from connections that never joined, and big lines from a player in a game. Each bounded in time,
over 127.0.0.1 (127.0.0.2 stands for the attackers' machine), with an honest player measuring its
round trips the way the other attack tests do."""
from __future__ import annotations

import random
import threading
import time

import orjson
import pytest

from game.netcode.connection import LINE_BURST
from game.rules.actions import Action

from conftest import round_trips, start_game, still_served, wait_until

BIG = orjson.dumps({"type": "ReqChooseResources",
                    "shelves": {str(i): {"Coin": 1} for i in range(3000)}}) + b"\n"
"""A 53 KB game request naming 3,000 containers: ~6 ms to read in full (issue 28's attack line)."""


@pytest.fixture
def parses(monkeypatch) -> list[int]:
    """Counts the ``ReqChooseResources`` the server read in full (its fields checked)."""
    kind = Action.REGISTRY["ReqChooseResources"]
    real = kind.parse.__func__
    count = [0]

    def spy(cls, d):
        count[0] += 1
        return real(cls, d)
    monkeypatch.setattr(kind, "parse", classmethod(spy))
    return count


class TestBigLines:
    @pytest.mark.timeout(60)
    def test_strangers_without_a_game_cannot_make_the_server_read_big_requests(
            self, make_server, players, peers, parses):
        """32 connections that never joined each send a 53 KB ReqChooseResources every 20 ms for
        3 s: each line is refused before it is parsed (it was parsed in full, ~6 ms each, and 4
        such connections filled the loop), and the honest player's round trips stay within
        the bound of the same game's before the attack."""
        srv = make_server(max_per_address=0)
        hon, = players(srv.address, "hon")
        start_game(hon)
        room = srv.room_of("hon")
        rng = random.Random(28)
        before = round_trips(room, [hon], rng, 20)
        crowd = [peers(srv.address, source="127.0.0.2").welcome() for _ in range(32)]
        stop = threading.Event()
        sent = [0]

        def pour() -> None:
            for p in crowd:
                p.sock.settimeout(0.02)
            while not stop.is_set():
                for p in crowd:
                    try:
                        p.sock.sendall(BIG)
                        sent[0] += 1
                    except (TimeoutError, BlockingIOError):
                        pass
                    except OSError:
                        return
                time.sleep(0.02)
        pourer = threading.Thread(target=pour, daemon=True)
        pourer.start()
        try:
            time.sleep(0.3)
            during: list[float] = []
            t0 = time.monotonic()
            while time.monotonic() - t0 < 3 and not room.game.ended:
                during += round_trips(room, [hon], rng, 5)
                time.sleep(0.02)
            late, = players(srv.address, "late")            # a newcomer starts a game meanwhile
            t = time.monotonic()
            start_game(late)
            new_game = time.monotonic() - t
        finally:
            stop.set()
            pourer.join(5)
        during.sort()
        assert sent[0] > 300, sent[0]                      # the attack was real (~16 MB)
        assert parses[0] == 0, parses[0]                    # none was read in full (was every one)
        got = crowd[0].recv()
        assert got == {"msg": "Line too long.", "type": "ErrProtocol"}, got
        still_served(before, during)
        assert new_game < 1.0, new_game

    @pytest.mark.timeout(30)
    def test_a_game_request_without_a_game_is_refused_from_its_type(self, make_server, peers, parses):
        """Joined but waiting, or not joined at all: a long game request is refused before its
        fields are read (the answer the reference gives: ErrNickname); a short one is read first,
        as the reference does (bad fields get ErrProtocol)."""
        srv = make_server()
        joined = peers(srv.address).welcome()
        joined.join("wait")
        joined.sock.sendall(BIG)
        assert joined.until(lambda m: m["type"] == "ErrNickname")[-1]["reason"] == "NOT_IN_GAME"
        stranger = peers(srv.address).welcome()
        stranger.send({"type": "ReqChooseResources", "shelves": {"6": {"Coin": 1}}})
        assert stranger.expect("ErrNickname")["reason"] == "NOT_SET"
        stranger.send(b'{"type":"ReqChat","text":"' + b"a" * 9000 + b'"}')   # over 8 KB before joining
        assert stranger.expect("ErrProtocol")["msg"] == "Line too long."
        joined.send(b'{"type":"ReqChat","text":"' + b"a" * 9000 + b'"}')     # once joined: parsed, refused
        assert joined.expect("ErrProtocol")["msg"] != "Line too long."
        assert parses[0] == 1                               # the short one only (was 2)

    @pytest.mark.timeout(30)
    def test_bytes_count_toward_the_line_rate(self, make_server, peers, parses):
        """A player in a game sends twenty 53 KB requests at once: each counts as 104 lines, so
        after the burst (4 s of 50 lines) about one is read every two seconds (all twenty were
        read at once, 0.2 s of the loop's time)."""
        srv = make_server(line_rate=50)
        hon = peers(srv.address).welcome()
        hon.join("hon")
        hon.send({"type": "ReqNewGame", "playersCount": 1})
        hon.until(lambda m: m["type"] == "UpdateGame")
        pourer = threading.Thread(target=lambda: hon.sock.sendall(BIG * 20), daemon=True)
        t0 = time.monotonic()
        pourer.start()
        wait_until(lambda: parses[0] >= 1)
        time.sleep(1.0)
        elapsed = time.monotonic() - t0
        burst = 50 * LINE_BURST
        assert 1 <= parses[0] <= 2 + (burst + 50 * elapsed) // 104, (parses[0], elapsed)   # was 20
