"""A server that goes away mid-game, heard through a real pseudo-terminal: once the connection is
lost, whose turn it is (turn, or Enter) says that the connection is being got back, never "It is
your turn: take from the market" (nothing can reach the server); a watcher's Enter says so too."""
from __future__ import annotations

import random
import re

import pytest

from support.pty import PtyProgram
from support.relay import Relay
from support.remote import named_table_of_two, play_requests

pytestmark = pytest.mark.timeout(60)


def test_whose_turn_says_the_connection_is_lost_not_that_it_is_your_turn(server):
    """QA: the server killed mid-game; the player's turn and Enter said "It is your turn: take
    from the market (take), buy a card (buy) or produce (produce)" for as long as it was gone."""
    relay = Relay(server.address)             # the way to the server, cut below
    host, port = relay.address
    p = PtyProgram(["--plain", "--name", "Ada", f"mor://{host}:{port}"], seed=2)
    try:
        p.expect("You choose how many play", timeout=20)
        p.send("players 2 easy")
        p.expect("Choose the 2 leaders you keep", timeout=20)
        p.send("keep 1 2", "")
        line = p.expect("The game is on", "Your seat receives", timeout=20)
        if line.startswith("Your seat receives"):
            p.send("resources Coin", "")
            p.expect("The game is on", timeout=20)
        p.send("turn")
        p.expect("It is your turn", "It is Giuliano", "It is ", timeout=20)
        relay.close()                         # the server is gone, as after a crash
        lost = "The connection to the server was lost: trying to get it back (your seat is kept)."
        assert p.expect("The connection to the server was lost", timeout=20) == lost
        p.send("turn")
        assert p.expect("connection", "It is ") == lost
        p.send("")
        assert p.expect("connection", "It is ") == lost
        p.leave_and_quit()
    finally:
        p.kill()
        relay.close()


def test_a_watcher_who_presses_enter_hears_where_the_table_is(server, tmp_path):
    """QA: a watcher's Enter said nothing at all, even after the connection to the server was lost
    (a screen reader heard silence): it says whose turn it is, or that the connection is lost."""
    ada, bea = named_table_of_two(server, tmp_path)
    play_requests(server, [ada, bea], random.Random(4), 4)
    relay = Relay(server.address)
    host, port = relay.address
    p = PtyProgram(["--plain", "--name", "Wes"], seed=1)
    try:
        p.send(p.expect("Join a game on the network").split(".")[0], f"tables {host}:{port}")
        p.expect("1. Salon")
        p.send("watch 1")
        p.expect("You watch Salon: Ada and Bea play.")
        p.expect("person watches this game.")
        p.send("")
        assert re.fullmatch(r"It is (Ada|Bea)'s turn\.|The players are choosing .*", p.expect("It is ", "The players")), \
            p.lines[-3:]
        relay.close()
        lost = "The connection to the server was lost: you no longer watch this table. Say leave to go back to the tables."
        assert p.expect("The connection to the server was lost", timeout=20) == lost
        p.send("")
        assert p.expect("connection", "It is ") == lost
        p.send("leave")
        p.expect("You stopped watching")
        p.send("menu", "quit")
        p.expect("Goodbye.")
        assert p.wait() == 0
    finally:
        p.kill()
        relay.close()
        ada.close()
        bea.close()
