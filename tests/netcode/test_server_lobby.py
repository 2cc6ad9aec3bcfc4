"""Joining, the waiting list and the start of games, over real sockets."""
from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import pytest

from game.rules.engine import Game
from game.rules.playout import choose

from conftest import CONFIG, Player, start_game, wait_until

pytestmark = pytest.mark.timeout(20)


def joined(p, nick, **extra):
    p.welcome()
    return p.join(nick, **extra)


class TestNickname:
    def test_requests_before_joining_are_not_set(self, server, peers):
        p = peers(server.address).welcome()
        for msg in ({"type": "ReqSwapShelves", "shelf1": 0, "shelf2": 1}, {"type": "ReqEndTurn"},
                    {"type": "ReqNewGame", "playersCount": 1}):
            p.send(msg)
            p.expect("ErrNickname", reason="NOT_SET")
        p.probe()

    @pytest.mark.parametrize("bad", [{}, {"nickname": None}, {"nickname": ""}, {"nickname": "  "},
                                     {"nickname": "x" * 25}, {"nickname": "a\tb"}, {"nickname": "a\nb"},
                                     {"nickname": "\u200b"}])
    def test_blank_long_or_unprintable_nicknames_are_not_set(self, server, peers, bad):
        p = peers(server.address).welcome()
        p.send({"type": "ReqJoin", **bad})
        p.expect("ErrNickname", reason="NOT_SET")
        p.probe()
        assert p.join("fine")[-1]["type"] == "UpdateBookedSeats"

    def test_24_printable_characters_and_json_specials_are_fine(self, server, peers):
        a = peers(server.address)
        assert joined(a, "y" * 24)[-1]["canPrepareNewGame"] == "y" * 24
        b = peers(server.address)
        assert joined(b, "  Zoë<&='>  ")[-1] == {"bookedSeats": 2, "canPrepareNewGame": "y" * 24,
                                                 "type": "UpdateBookedSeats"}
        assert "Zoë<&='>" in server.by_nick

    def test_already_set(self, server, peers):
        p = peers(server.address)
        joined(p, "first")
        p.send({"type": "ReqJoin", "nickname": "second"})
        p.expect("ErrNickname", reason="ALREADY_SET")
        p.send({"type": "ReqQuit"})
        p.expect("ResQuit")
        p.send({"type": "ReqJoin", "nickname": "third"})
        p.expect("ErrNickname", reason="ALREADY_SET")

    def test_taken_by_a_connected_player(self, server, peers):
        joined(peers(server.address), "dup")
        p = peers(server.address)
        assert joined(p, "dup")[-1] == {"reason": "TAKEN", "type": "ErrNickname"}
        p.probe()

    def test_free_again_once_its_owner_left_the_lobby(self, server, peers):
        a = peers(server.address)
        joined(a, "gone")
        a.close()
        wait_until(lambda: "gone" not in server.by_nick)
        assert joined(peers(server.address), "gone")[-1]["type"] == "UpdateBookedSeats"

    def test_not_in_game(self, server, peers):
        p = peers(server.address)
        joined(p, "early")
        p.send({"type": "ReqEndTurn"})
        p.expect("ErrNickname", reason="NOT_IN_GAME")

    def test_quit_before_joining_is_harmless(self, server, peers):
        p = peers(server.address).welcome()
        p.send({"type": "ReqQuit"})
        p.expect("ResQuit")
        assert p.join("after")[-1]["type"] == "UpdateBookedSeats"

    def test_a_token_is_given_only_to_clients_that_ask(self, server, peers):
        a, b = peers(server.address), peers(server.address)
        ans = joined(a, "asks", token="")
        assert [m["type"] for m in ans] == ["UpdateSessionToken", "UpdateBookedSeats"]
        assert len(ans[0]["token"]) >= 16
        assert [m["type"] for m in joined(b, "plain")] == ["UpdateBookedSeats"]


def past_booked_seats(p) -> dict:
    """The first message ``p`` receives that is not an ``UpdateBookedSeats``."""
    while (m := p.recv())["type"] == "UpdateBookedSeats":
        pass
    return m


class TestWaitingList:
    def test_every_waiting_connection_hears_of_a_join(self, server, peers):
        a, b, c = (peers(server.address) for _ in range(3))
        joined(a, "a")
        joined(b, "b")
        a.expect("UpdateBookedSeats", bookedSeats=2, canPrepareNewGame="a")
        joined(c, "c")
        for p in (a, b):
            p.expect("UpdateBookedSeats", bookedSeats=3, canPrepareNewGame="a")

    def test_only_the_head_may_start_and_counts_are_checked(self, server, peers):
        a, b = peers(server.address), peers(server.address)
        joined(a, "head")
        joined(b, "tail")
        a.expect("UpdateBookedSeats")
        b.send({"type": "ReqNewGame", "playersCount": 2})
        b.expect("ErrNewGame", isInvalidPlayersCount=False)
        for bad in (0, -1, -7, 5, 1000):
            a.send({"type": "ReqNewGame", "playersCount": bad})
            a.expect("ErrNewGame", isInvalidPlayersCount=True)
        a.probe()
        b.probe()
        a.send({"type": "ReqNewGame", "playersCount": 2})
        for p in (a, b):
            p.expect("UpdateJoinGame", playersCount=2)
            p.expect("UpdateGame")

    def test_a_game_of_one_starts_at_once_from_anywhere_in_the_list(self, server, peers):
        """Issue 28: a row of squatters at the head of the Quick game (who never choose) kept a
        newcomer from a solo game for their whole head time. A game nobody else is needed for
        (solo, or one person with bots) starts at once from any place in the list; the others
        stay where they were, told the list's new length."""
        a, b, c = peers(server.address), peers(server.address), peers(server.address)
        joined(a, "squat")
        joined(b, "solo")
        joined(c, "third")
        a.expect("UpdateBookedSeats", bookedSeats=2, canPrepareNewGame="squat")
        a.expect("UpdateBookedSeats", bookedSeats=3, canPrepareNewGame="squat")
        b.send({"type": "ReqNewGame", "playersCount": 1})
        assert past_booked_seats(b) == {"type": "UpdateJoinGame", "playersCount": 1}
        b.expect("UpdateGame")
        a.expect("UpdateBookedSeats", bookedSeats=2, canPrepareNewGame="squat")
        c.send({"type": "ReqNewGame", "playersCount": 2})          # a second person is needed: the head's
        assert past_booked_seats(c) == {"type": "ErrNewGame", "isInvalidPlayersCount": False}
        a.send({"type": "ReqNewGame", "playersCount": 2})
        for p in (a, c):
            p.expect("UpdateJoinGame", playersCount=2)
            p.expect("UpdateGame")

    def test_a_pending_count_waits_for_players(self, server, peers):
        a, b, c, d = (peers(server.address) for _ in range(4))
        joined(a, "a")
        a.send({"type": "ReqNewGame", "playersCount": 3})
        a.expect("UpdateJoinGame", playersCount=3)
        a.quiet()
        joined(b, "b")
        b.expect("UpdateJoinGame", playersCount=3)
        a.expect("UpdateBookedSeats", bookedSeats=2)
        a.quiet()                                   # UpdateJoinGame only once
        joined(c, "c")                              # completes the game
        c.expect("UpdateJoinGame", playersCount=3)
        c.expect("UpdateGame")
        for p in (a, b):
            p.expect("UpdateBookedSeats", bookedSeats=3)
            p.expect("UpdateGame")
        assert joined(d, "d")[-1] == {"bookedSeats": 1, "canPrepareNewGame": "d", "type": "UpdateBookedSeats"}

    def test_players_beyond_the_count_stay_waiting(self, server, peers):
        a, b, c = (peers(server.address) for _ in range(3))
        for p, n in ((a, "a"), (b, "b"), (c, "c")):
            joined(p, n)
        a.send({"type": "ReqNewGame", "playersCount": 2})
        for p in (a, b):
            p.until(lambda m: m["type"] == "UpdateJoinGame")
            p.expect("UpdateGame")
        c.until(lambda m: m == {"bookedSeats": 1, "canPrepareNewGame": "c", "type": "UpdateBookedSeats"})
        c.send({"type": "ReqNewGame", "playersCount": 1})
        c.expect("UpdateJoinGame", playersCount=1)
        c.expect("UpdateGame")
        assert len(server.rooms) == 2

    def test_when_the_head_leaves_the_next_one_chooses(self, server, peers):
        a, b = peers(server.address), peers(server.address)
        joined(a, "a")
        a.send({"type": "ReqNewGame", "playersCount": 3})
        a.expect("UpdateJoinGame")
        joined(b, "b")
        b.expect("UpdateJoinGame", playersCount=3)
        a.close()
        b.expect("UpdateBookedSeats", bookedSeats=1, canPrepareNewGame="b")
        assert server.pending_count is None
        b.send({"type": "ReqNewGame", "playersCount": 1})
        b.expect("UpdateJoinGame", playersCount=1)
        b.expect("UpdateGame")


class TestGameStart:
    def test_each_player_gets_its_own_view(self, server, players):
        group = players(server.address, "ann", "ben", "cat")
        start_game(*group)
        game = server.room_of("ann").game
        for p in group:
            mine = {q["nickname"]: q for q in p.view["players"]}
            assert set(mine) == {"ann", "ben", "cat"}
            for nick, q in mine.items():
                assert q["leadersHandCount"] == 4
                if nick == p.nickname:
                    assert q["leadersHand"] == game.player(nick).hand
                else:
                    assert q["leadersHand"] == []     # hidden: only active leaders are shown
            assert "actionTokens" not in p.view
            assert p.view["isSetupDone"] is False

    def test_solo_action_tokens_are_listed_in_id_order(self, server, players):
        (p,) = players(server.address, "solo")
        start_game(p)
        ids = [t["id"] for t in p.view["actionTokens"]]
        assert ids == sorted(ids) == list(range(len(CONFIG.solo_tokens)))

    def test_ids_are_per_game_and_games_are_independent(self, server, players):
        a1, a2, b1, b2 = players(server.address, "a1", "a2", "b1", "b2")
        start_game(a1, a2)
        start_game(b1, b2)
        room_a, room_b = server.room_of("a1"), server.room_of("b1")
        assert room_a is not room_b
        for p in (a1, b1):   # container and production ids start at 0 in every game
            assert sorted(q["strongbox"] for q in p.view["players"]) == [3, 7]
            assert p.view["productions"][0]["id"] == 0
        # everything game B does stays in game B
        before = room_a.game.snapshot()
        hand = room_b.game.player("b1").hand
        assert b1.request({"type": "ReqChooseLeaders", "leaders": hand[:2]})[-1]["type"] == "UpdateAction"
        assert b1.request({"type": "ReqChooseLeaders", "leaders": hand[2:]})[-1]["type"] == "ErrInitialChoice"
        b1.send({"type": "ReqNope"})
        b1.until_type("ErrProtocol")
        assert room_a.game.snapshot() == before
        a1.probe()
        a2.probe()
        assert not [m for m in a1.received + a2.received if m.get("player") in ("b1", "b2")]

    def test_a_game_with_a_count_of_one_is_solo(self, server, players):
        (p,) = players(server.address, "lonely")
        start_game(p)
        game = server.room_of("lonely").game
        assert isinstance(game, Game) and game.solo
        assert p.view["players"][0]["nickname"] == "lonely"


class TestConcurrency:
    @pytest.mark.timeout(60)
    def test_many_clients_at_once_each_starting_and_playing_a_solo_game(self, server):
        """The reference lost lobby replies when clients joined at the same moment."""
        def client(i: int) -> int:
            p = Player(server.address, f"c{i}")
            try:
                seen = p.join()
                assert seen[-1]["type"] == "UpdateBookedSeats"
                while seen[-1].get("canPrepareNewGame") != p.nickname:   # wait to be the head
                    seen = p.until_type("UpdateBookedSeats", timeout=20)
                p.send({"type": "ReqNewGame", "playersCount": 1})
                p.until_type("UpdateGame")
                game = server.room_of(p.nickname).game
                rng = random.Random(i)
                for _ in range(6):
                    assert p.request(choose(game, p.nickname, rng))[-1]["type"] == "UpdateAction"
                p.send({"type": "ReqQuit"})
                p.until_type("ResQuit")
                return game.version
            finally:
                p.close()

        with ThreadPoolExecutor(max_workers=24) as pool:
            versions = list(pool.map(client, range(24)))
        assert all(v >= 6 for v in versions)
        assert len(server.rooms) == 24 and not server.waiting
