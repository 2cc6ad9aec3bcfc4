"""The server's parts below the transport, driven without a socket (sans-I/O): requests in,
messages out. A player is a plain object with ``send``/``push`` that keeps what it is told."""
from __future__ import annotations

from game.netcode.client_messages import ReqJoin, ReqNewGame
from game.netcode.tls import TLS_BURST, HandshakeGate

from conftest import CONFIG
from fakes import Fake, parts


def test_the_quick_game_starts_when_its_head_has_chosen_and_enough_people_wait():
    lobby, games, _ = parts()
    ann, bob = Fake(), Fake()
    lobby.join(ann, ReqJoin("Ann", token=""))
    assert ann.types() == ["UpdateSessionToken", "UpdateBookedSeats"] and lobby.waiting == [ann]
    lobby.new_game(ann, ReqNewGame(2))
    assert ann.told[-1] == {"type": "UpdateJoinGame", "playersCount": 2} and lobby.pending_count == 2
    lobby.join(bob, ReqJoin("Bob", token=""))
    assert not lobby.waiting and lobby.pending_count is None
    (room,) = games.rooms.values()
    assert ann.room is room and bob.room is room and set(games.seats) == {"Ann", "Bob"}
    assert ann.types()[-1] == "UpdateGame" and bob.types()[-1] == "UpdateGame"


def test_only_the_head_chooses_and_a_bad_count_changes_nothing():
    lobby, games, _ = parts()
    ann, bob = Fake(), Fake()
    lobby.join(ann, ReqJoin("Ann", token=""))
    lobby.join(bob, ReqJoin("Bob", token=""))
    lobby.new_game(bob, ReqNewGame(2))
    assert bob.told[-1]["type"] == "ErrNewGame" and lobby.pending_count is None
    lobby.new_game(ann, ReqNewGame(9))
    assert ann.told[-1] == {"type": "ErrNewGame", "isInvalidPlayersCount": True} and not games.rooms


def test_the_per_address_limit_on_games_is_the_lobbys_own_refusal():
    lobby, games, _ = parts(tables_per_address=1)
    first = [Fake(ip="10.0.0.9"), Fake(ip="10.0.0.9")]
    for i, f in enumerate(first):
        lobby.join(f, ReqJoin(f"P{i}", token=""))
    lobby.new_game(first[0], ReqNewGame(2))
    assert len(games.rooms) == 1
    again = Fake(ip="10.0.0.9")
    lobby.join(again, ReqJoin("Again", token=""))
    lobby.new_game(again, ReqNewGame(1))
    assert again.told[-1]["type"] == "ErrNewGame" and "at most 1" in again.told[-1]["reason"]
    assert len(games.rooms) == 1


def test_a_tls_handshake_waits_its_turn_past_the_burst_and_is_closed_past_twice_that():
    gate = HandshakeGate(rate=2.0)
    burst = int(2.0 * TLS_BURST)
    assert all(gate.admit("10.0.0.1", 0.0) == 0.0 for _ in range(burst))
    assert gate.admit("10.0.0.1", 0.0) == 0.5            # the next in 0.5 s, the one after in 1 s
    assert gate.admit("10.0.0.2", 0.0) == 0.0            # another address is not held back
    waits = [gate.admit("10.0.0.1", 0.0) for _ in range(burst)]
    assert None in waits                                 # past a burst's worth of waiting: closed
    gate.forget(100.0)
    assert gate.buckets == {}                            # whole again: forgotten


def test_a_rooms_grace_is_told_to_our_clients_and_a_stale_timer_changes_nothing():
    from game.netcode.room import Room
    from game.rules.engine import Game
    told: list[tuple[str, list]] = []
    room = Room(1, Game.new(CONFIG, ["Ann", "Bob", "Ref"], 5), lambda nick, msgs: told.append((nick, msgs)))
    room.plain = {"Ref"}                                 # a reference client: told nothing new
    room.start(["Ann", "Bob", "Ref"])
    told.clear()
    room.drop("Ann", 100.0)
    assert [(n, m[0]["type"], m[0]["player"]) for n, m in told] == [("Bob", "UpdatePlayerAway", "Ann")]
    assert room.game.player("Ann").active and room.away == {"Ann": 100.0}
    room.rejoin("Ann")                                   # back: Bob hears it, nothing was skipped
    room.drop("Ann", 200.0)                              # gone again, a new grace
    assert not room.grace_over("Ann", 100.0)             # the first grace's timer: nothing changes
    assert room.game.player("Ann").active
    assert room.grace_over("Ann", 200.0) and not room.game.player("Ann").active
