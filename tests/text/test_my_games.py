"""Turn-based tables and My games in the text client: ``new … daily`` opens a turn-based table, a
player who leaves keeps the seat, ``games`` lists it (your turn first, with the time left) and a
number takes the seat back by key; on a real pty, a game that becomes the player's turn while the
client runs is announced with the terminal's bell and a line."""
from __future__ import annotations

import pytest

from game.client import tables as T
from game.client.session import GameSession
from game.rules import default_config
from support.pty import PtyProgram
from support.text import text_client
from support.wait import pump_until, until

pytestmark = pytest.mark.timeout(60)


def bob_sits(tls_server, tmp_path) -> GameSession:
    """Bob, with a key of his own, sits at the turn-based table "Salon": its game starts."""
    host, port = tls_server.address
    bob = GameSession(T.join(host, port, "Bob", name="Salon", token_file=tmp_path / "bob" / "seats.json",
                             tls_port=tls_server.tls_address[1]), default_config(), "Bob")
    pump_until(bob, lambda: bob.vm.has_game)
    return bob


def test_a_turn_based_seat_is_left_listed_in_games_and_taken_again(tls_server, tmp_path):
    host, port = tls_server.address
    wes, said = text_client("Wes", tmp_path / "wes")
    wes.show_tables(f"{host}:{port}")
    until(lambda: said.has("daily, hourly or 3days"), wes.tick)
    wes.line("new Salon 2 daily")
    until(lambda: said.has("You sit at the table Salon"), wes.tick)
    bob = bob_sits(tls_server, tmp_path)
    try:
        until(lambda: said.has("Choose the 2 leaders you keep"), wes.tick)
        wes.line("leave")
        until(lambda: said.has("Main menu"), wes.tick)
        (room,) = [r for r in tls_server.rooms.values() if r.turn_time]
        assert room.game.player("Wes").active            # the seat is kept, nobody is away
        start = len(said)
        wes.show_my_games(host, port)
        line = next(s for s in said[start:] if s.startswith("1. "))
        assert line.startswith("1. Salon, with Bob: your turn, ") and line.endswith(" left (1 day a move)."), line
        assert "1 day left" in line or "23 hours 59 minutes left" in line, line
        wes.line("1")
        until(lambda: said.has("Choose the 2 leaders you keep", start), wes.tick)
        assert "Wes" in room.online
    finally:
        wes.close()
        bob.close()


def test_a_game_becoming_your_turn_rings_the_bell(tls_server, tmp_path):
    host, port = tls_server.address
    p = PtyProgram(["--plain", "--name", "Wes"], seed=1, env={"MOR_TURN_NEWS": "0.3"})
    bob = None
    try:
        join = p.expect("Join a game on the network")
        p.send(join.split(".")[0], f"tables {host}:{port}")
        p.expect("daily, hourly or 3days")
        p.send("new Salon 2 daily")
        p.expect("You sit at the table Salon")
        bob = bob_sits(tls_server, tmp_path)
        rung = p.expect("Your turn in Salon at")
        assert rung.startswith("\a") and f"at {host}:{port}" in rung and "left" in rung, repr(rung)
        p.send("leave")
        p.expect("Main menu")
        p.quit()
    finally:
        p.kill()
        if bob is not None:
            bob.close()
