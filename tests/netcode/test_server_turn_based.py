"""Turn-based tables over 127.0.0.1 (TLS, player keys): a seat kept by key while its player is
gone, the game going on when the player whose turn it is moves, a turn run out played by the
computer and told kindly, three in a row and the seat is the computer's; the clock and the seats
outlive a restart and ``kill -9``; My games; the limits tried as attacks. The clock runs fast
here: ``move_time_scale`` makes an hour a second or so."""
from __future__ import annotations

import random
import signal

import pytest

from game import i18n
from game.client.lobby import Lobby
from game.netcode import turn_wire as T
from game.netcode.protocol import TABLE_LIMIT, TABLE_NEEDS_KEY, TABLE_NO_SUCH
from game.rules.playout import choose

from conftest import TIMEOUT, round_trips, start_game, still_served, wait_until
from server_process import TlsServerProcess
from table_requests import watch
from turn_tables import HOUR, back, my_games, setup_choice, sit, turn_table

pytestmark = pytest.mark.timeout(90)

def test_a_seat_is_kept_by_key_and_the_game_waits_for_its_player_over_a_restart(turn_server, keyed):
    srv = turn_server()
    (ann, bob), gid = turn_table(srv, keyed, "Ann", "Bob")
    ann.close()                                       # Ann closes the game: nobody is away, nothing skipped
    room = srv.rooms[gid]
    wait_until(lambda: "Ann" not in room.online)
    assert room.game.player("Ann").active and srv.sweep(now=1e12) == []
    setup_choice(srv, gid, bob, random.Random(1))     # Bob moves; the game waits for Ann
    assert not room.game.player("Ann").chose_leaders
    mine = my_games(bob)["games"]
    assert [(g["game"], g["table"], g["moveTime"], g["yourTurn"]) for g in mine] == [(gid, "Salon", HOUR, False)]
    ann = keyed(srv.tls_address, "Ann", ann.key)
    assert my_games(ann)["games"][0]["yourTurn"] and 0 < my_games(ann)["games"][0]["timeLeft"] <= HOUR
    assert back(ann, gid)[-1]["type"] == "UpdateGame"
    assert ann.until_type(T.UPDATE_TURN_CLOCK)[-1]["players"] == ["Ann"]
    ann.close(), bob.close()
    deadline = srv.turns.clocks[gid].deadline
    srv.stop()
    for batch in (0, 4):       # left in its file until needed, or replayed in the background: the deadline kept
        again = turn_server(wake_batch=batch)
        clock = again.turns.clocks[gid]
        assert clock.deadline == deadline and clock.owing == ("Ann",)
        if batch == 0:
            assert gid in again.turns.asleep and gid not in again.rooms
            asker = keyed(again.tls_address, "Ann", ann.key)
            (row,) = my_games(asker)["games"]       # listed from its file
            assert (row["game"], row["yourTurn"], row["moveTime"]) == (gid, True, HOUR)
            asker.close()
        else:
            def woken(srv=again) -> bool:
                with srv.lock:              # (the loop brings it back under the server's lock)
                    return gid in srv.rooms
            wait_until(woken)
            room = again.rooms[gid]
            assert room.turn_time == HOUR and room.game.player("Ann").active
            assert again.turns.clocks[gid].deadline == deadline
            assert room.log is not None and room.log._fd < 0   # no descriptor held while nobody plays
        again.stop()
    again = turn_server(wake_batch=0)                 # Ann asking for her seat brings the game back
    ann = keyed(again.tls_address, "Ann", ann.key)
    assert back(ann, gid)[-1]["type"] == "UpdateGame"
    setup_choice(again, gid, ann, random.Random(2))   # Ann's move: the game goes on
    assert again.rooms[gid].game.phase == "play"
    stranger = keyed(again.tls_address, "Ann")        # another key: not Ann's seat, nor her name
    assert back(stranger, gid)[-1]["reason"] == TABLE_NO_SUCH
    assert my_games(stranger)["games"] == []


def test_a_player_without_a_key_cannot_open_nor_sit_at_a_turn_based_table(turn_server, keyed, players):
    srv = turn_server()
    (plain,) = players(srv.address, "Dee")
    plain.send({"type": "ReqJoin", "nickname": "Dee", "token": "",
                "table": {"create": "Slow", "playersCount": 2, "private": False, "moveTime": HOUR}})
    refused = plain.until_type("ErrTable")[-1]
    assert refused["reason"] == TABLE_NEEDS_KEY and "player key" in refused["msg"]
    i18n.use("it")
    assert Lobby().take(refused).startswith("Un tavolo a turni ti tiene il posto grazie alla tua chiave di giocatore")
    i18n.use("en")
    odd = keyed(srv.tls_address, "Eve")
    assert sit(odd, {"create": "Odd", "playersCount": 2, "private": False, "moveTime": 60})[-1]["reason"] == "INVALID"
    assert len(srv.tables) == 0


def test_a_turn_run_out_is_played_by_the_computer_three_in_a_row_give_the_seat(turn_server, keyed):
    srv = turn_server(move_time_scale=1.2 / HOUR, bot_delay=0.0, restart_grace=0.0)
    (ann, bob), gid = turn_table(srv, keyed, "Ann", "Bob")
    bob.close()
    rng = random.Random(3)
    setup_choice(srv, gid, ann, rng)
    room = srv.rooms[gid]
    wait_until(lambda: room.game.phase == "play", timeout=TIMEOUT + 2)   # Bob's set-up, played for him
    bob = keyed(srv.tls_address, "Bob", bob.key)
    said = back(bob, gid) + bob.until(lambda m: m["type"] == "UpdateChat" and m["player"] == "Server")
    assert "the computer played one of your turns" in said[-1]["text"]
    assert said[-1]["say"] == {"code": "turns.stood", "args": {"n": 1, "level": "medium"}}
    bob.close()
    wait_until(lambda: "Bob" not in room.online)
    given = []
    for _ in range(200):   # Ann plays her turns; Bob's run out, twice more, and his seat is the computer's
        game = room.game
        if "Bob" in room.bots:
            break
        if game.phase == "play" and game.current_player.nickname == "Ann":
            answer = ann.request(choose(game, "Ann", rng))
            assert not answer[-1]["type"].startswith("Err"), answer[-1]
        else:
            given += ann.until(lambda m: m["type"] in ("UpdateChat", T.UPDATE_TURN_CLOCK), timeout=TIMEOUT)
    assert "Bob" in room.bots and room.game.player("Bob").active
    wait_until(lambda: any(m["type"] == "UpdateChat" and "Bob let 3 turns run out" in m["text"]
                           for m in ann.received))
    bob = keyed(srv.tls_address, "Bob", bob.key)
    refused = back(bob, gid)[-1]
    assert refused["type"] == "ErrTable" and "the computer" in refused["msg"]
    i18n.use("it")
    assert Lobby().take(refused) == Lobby().take({"type": "ErrTable", "reason": TABLE_NO_SUCH, "msg": "?", "say": {
        "code": "turns.given_to_bot", "args": {"nick": "Bob", "n": 3, "level": "medium"}}}) != refused["msg"]


def test_turn_based_limits_hold_against_one_address_and_one_key(turn_server, keyed):
    srv = turn_server(turn_tables_per_address=3, games_per_key=1)
    eve = [keyed(srv.tls_address, f"Eve{i}") for i in range(4)]
    said = [sit(p, {"create": f"T{i}", "playersCount": 2, "private": False, "moveTime": HOUR})[-1]
            for i, p in enumerate(eve)]
    assert [m["type"] for m in said] == ["UpdateBookedSeats"] * 3 + ["ErrTable"]
    assert said[-1]["reason"] == TABLE_LIMIT and "at most 3" in said[-1]["msg"]
    real = sit(eve[3], {"create": "Now", "playersCount": 2, "private": False})[-1]   # real-time: its own limit
    assert real["type"] == "UpdateBookedSeats"
    partner = keyed(srv.tls_address, "Ivo")
    assert sit(partner, {"name": "T0"})[-1]["type"] == "UpdateGame"   # Eve0's key has one game now
    again = keyed(srv.tls_address, "Eve again", eve[0].key)
    refused = sit(again, {"name": "T1"})[-1]
    assert refused["reason"] == TABLE_LIMIT and "(1)" in refused["msg"]
    assert said[-1]["say"] == {"code": "limits.turn_tables", "args": {"most": 3}}   # said in the player's language
    assert refused["say"] == {"code": "limits.games_per_key", "args": {"most": 1}}
    i18n.use("it")
    assert Lobby().take(said[-1]) == "Troppi tavoli e partite a turni dal tuo indirizzo (al massimo 3): prima finiscine uno."
    assert Lobby().take(refused) == ("Hai su questo server tutte le partite che tiene per un giocatore (1): prima "
                                     "finiscine una.")


def game_beside(srv, players, seed: int) -> tuple:
    """A real-time game of two beside an attack: its room, players, random source and round trips."""
    group = players(srv.address, "Ada", "Bea")
    start_game(*group)
    room = srv.room_of("Ada")
    rng = random.Random(seed)
    return room, group, rng, round_trips(room, group, rng, 20)


def test_the_bots_of_turn_based_games_count_among_their_address_s_bots(turn_server, keyed, players):
    """Finding (stranger 5): a turn-based game's bots play whether or not anyone is at the table
    (three turns run out and the last person's seat is the computer's too: the game plays itself
    to its end), and they counted in no limit of their address: one key opened 10 tables of a
    person and three hard bots, 30 bot seats against ``bots_per_address`` 6, each a whole game of
    hard bots for the workers hours later. They count now: two such tables, then a third is
    refused, and so is a real-time game with a bot from that address; the players of a game
    beside it are served as before. Fails before the fix (the third table starts)."""
    srv = turn_server(bots_per_address=6)
    room, group, rng, before = game_beside(srv, players, 55)
    eve = keyed(srv.tls_address, "Eve")
    said = []
    for i in range(3):
        p = keyed(srv.tls_address, "Eve", eve.key)
        said.append(sit(p, {"create": f"Bots{i}", "playersCount": 4, "private": False, "moveTime": HOUR,
                            "bots": ["easy"] * 3})[-1])
        p.close()
    during = round_trips(room, group, rng, 20)
    assert [m["type"] for m in said] == ["UpdateGame", "UpdateGame", "ErrTable"], said
    assert said[-1]["reason"] == TABLE_LIMIT and said[-1]["say"] == {"code": "limits.bots", "args": {"most": 6}}
    zed = keyed(srv.tls_address, "Zed")                 # a real-time game with a bot, from that address
    zed.send({"type": "ReqJoin", "nickname": "Zed", "token": "", "key": zed.key})
    zed.until_type("UpdateBookedSeats")
    zed.send({"type": "ReqNewGame", "playersCount": 2, "bots": ["easy"]})
    refused = zed.until(lambda m: m["type"] in ("ErrNewGame", "UpdateGame"))[-1]
    assert refused["type"] == "ErrNewGame" and refused["say"]["code"] == "limits.bots", refused
    still_served(before, during)


def test_a_turn_based_game_the_computer_plays_every_seat_of_is_removed(turn_server, keyed, players):
    """Finding (stranger 7): a turn-based game's bots play whether or not anyone is there, and once
    its last person let three turns run out the computer played every seat to the end of the game,
    for nobody: a stranger's tables of hard bots, left at once, each became a whole game for the
    bots' workers hours later, whatever the limits on bots. Such a game is abandoned now, as a
    real-time game nobody comes back to (removed once empty for ``grace``); the players of a game beside
    it are served as before. Fails before the fix (the bots play on)."""
    srv = turn_server(move_time_scale=0.4 / HOUR, bot_delay=0.5, restart_grace=0.0, grace=1.0)
    room, group, rng, before = game_beside(srv, players, 77)
    eve = keyed(srv.tls_address, "Eve")
    assert sit(eve, {"create": "Left", "playersCount": 2, "private": False, "moveTime": HOUR,
                     "bots": ["easy"]})[-1]["type"] == "UpdateGame"
    (gid,) = [g for g, r in srv.rooms.items() if r.turn_time is not None]
    left = srv.rooms[gid]
    eve.close()
    wait_until(lambda: "Eve" in left.bots, timeout=20)          # three turns run out: the computer's
    during = round_trips(room, group, rng, 20)
    wait_until(lambda: gid not in srv.rooms, timeout=5)         # then abandoned, not played out for nobody
    assert not left.game.ended and left.closed
    calls = len(left.game.history)
    assert gid not in srv.turns.clocks
    still_served(before, during)
    wait_until(lambda: len(left.game.history) == calls, timeout=2)


def test_a_turn_based_game_and_its_clock_outlive_kill_9(certs, keyed, tmp_path):
    cert, key = certs["one"]
    data = tmp_path / "data"
    sp = TlsServerProcess(data, tmp_path / "server.log", cert, key)
    try:
        ann, bob = keyed(sp.address, "Ann"), keyed(sp.address, "Bob")
        assert sit(ann, {"create": "Salon", "playersCount": 2, "private": False, "moveTime": HOUR})[-1][
            "type"] == "UpdateBookedSeats"
        assert sit(bob, {"name": "Salon"})[-1]["type"] == "UpdateGame"
        clock = bob.until_type(T.UPDATE_TURN_CLOCK)[-1]
        gid = my_games(ann)["games"][0]["game"]
        assert sp.kill(signal.SIGKILL) == -signal.SIGKILL
        sp = TlsServerProcess(data, tmp_path / "server.log", cert, key)
        ann = keyed(sp.address, "Ann", ann.key)
        (game,) = my_games(ann)["games"]
        assert game["game"] == gid and game["yourTurn"] and game["moveTime"] == HOUR
        assert clock["timeLeft"] - 60 < game["timeLeft"] <= clock["timeLeft"]   # the deadline kept, not renewed
        assert back(ann, gid)[-1]["type"] == "UpdateGame"
        assert sp.kill(signal.SIGTERM) == 0
    finally:
        sp.cleanup()


def test_a_dropped_player_comes_back_with_the_seat_token_and_key(turn_server, keyed):
    srv = turn_server()
    (ann, bob), gid = turn_table(srv, keyed, "Ann", "Bob")
    token = next(m["token"] for m in ann.received if m["type"] == "UpdateSessionToken")
    ann.close()
    wait_until(lambda: "Ann" not in srv.rooms[gid].online)
    ann = keyed(srv.tls_address, "Ann", ann.key)     # as our client reconnects: nickname, token, key
    assert "UpdateGame" in [m["type"] for m in ann.join(token)]
    assert "Ann" in srv.rooms[gid].online
    thief = keyed(srv.tls_address, "Bob")             # the token alone, another key: not the seat
    bob.close()
    wait_until(lambda: "Bob" not in srv.rooms[gid].online)
    bob_token = next(m["token"] for m in bob.received if m["type"] == "UpdateSessionToken")
    thief.send({"type": "ReqJoin", "nickname": "Bob", "token": bob_token, "key": thief.key})
    # another "Bob" may play (a nickname is unique at a table), in the Quick game: never in Bob's seat
    assert thief.until(lambda m: m["type"] in ("UpdateGame", "UpdateBookedSeats"))[-1]["type"] == "UpdateBookedSeats"
    assert "Bob" not in srv.rooms[gid].online


def test_the_computer_plays_on_in_a_game_brought_back_from_its_file(turn_server, keyed):
    srv = turn_server(bot_delay=30.0)                 # the bot thinks, but moves only after the restart
    ann = keyed(srv.tls_address, "Ann")
    said = sit(ann, {"create": "Salon", "playersCount": 2, "private": False, "moveTime": HOUR, "bots": ["easy"]})
    assert said[-1]["type"] == "UpdateGame"
    (gid,) = list(srv.rooms)
    bot = next(n for n in srv.rooms[gid].bots)
    ann.close()
    srv.stop()
    again = turn_server(wake_batch=0, bot_delay=0.0)  # nothing replayed in the background: this game is, at once

    def bot_chose() -> bool:
        with again.lock:
            room = again.rooms.get(gid)
            return room is not None and room.game.player(bot).chose_leaders
    wait_until(bot_chose, timeout=TIMEOUT + 5)


@pytest.mark.parametrize("private", [False, True])
def test_a_turn_based_game_is_watched_after_a_restart_as_before(turn_server, keyed, private):
    """A game of days outlives restarts, and so does its watching: by its table's name if public,
    by its invite code only if private (kept in the game's log)."""
    from game.netcode import watch_wire as W
    srv = turn_server()
    ann, bob = keyed(srv.tls_address, "Ann"), keyed(srv.tls_address, "Bob")
    said = sit(ann, {"create": "Salon", "playersCount": 2, "private": private, "moveTime": HOUR})
    code = said[-1]["table"].get("code")
    assert sit(bob, {"code": code} if private else {"name": "Salon"})[-1]["type"] == "UpdateGame"
    ann.close()
    bob.close()
    srv.stop()
    again = turn_server(wake_batch=0)       # nothing replayed in the background: asked for, it is
    eve = keyed(again.tls_address, "Eve")
    by_name = watch(eve, name="Salon")[-1]
    if private:
        assert by_name["type"] == W.ERR_WATCH and by_name["reason"] in (W.PRIVATE, W.NO_SUCH)
        eve.send(W.ReqWatchList().to_dict())
        assert eve.until_type(W.UPDATE_WATCH_LIST)[-1]["tables"] == []      # not listed either
        by_code = [m for m in watch(eve, code=code) if m["type"] == W.UPDATE_WATCHING]
        assert by_code and by_code[-1]["players"] == ["Ann", "Bob"] and by_code[-1]["started"]
    else:
        assert by_name["type"] == "UpdateHistory"
        eve.send(W.ReqWatchList().to_dict())
        (row,) = eve.until_type(W.UPDATE_WATCH_LIST)[-1]["tables"]
        assert (row["name"], row["players"]) == ("Salon", ["Ann", "Bob"])
