"""Watching a table in the text client (issue 31), in a real pseudo-terminal: the games being
played listed with a server's tables, ``watch`` and a number, the game told as it goes (read
only, in the third person), the watchers' chat reaching the players, and ``leave`` back to the
tables; a player's ``watchers`` command in a game."""
from __future__ import annotations

import random

import pytest

from game.client.tables import Seating
from game.client.watch_words import WATCHER
from game.rules import default_config
from support.pty import PtyProgram
from support.remote import named_table_of_two, play_requests
from support.text import text_client
from support.wait import pump_until, until

pytestmark = pytest.mark.timeout(60)
CFG = default_config()


def test_watch_a_game_from_the_tables_then_leave(server, tmp_path):
    host, port = server.address
    ada, bea = named_table_of_two(server, tmp_path)
    rng = random.Random(4)
    play_requests(server, [ada, bea], rng, 4)
    p = PtyProgram(["--plain", "--name", "Wes"], seed=1)
    try:
        p.expect("Main menu")
        join = p.expect("Join a game on the network")
        p.send(join.split(".")[0], f"tables {host}:{port}")
        p.expect("Games being played, to watch")
        assert p.expect("1. Salon") == "1. Salon: Ada and Bea play."
        p.expect("watch and a number")
        p.send("watch 1")
        p.expect("You watch Salon: Ada and Bea play.")
        p.expect("1 person watches this game.")
        start = p.read
        play_requests(server, [ada, bea], rng, 6)
        p.expect("ended the turn; it is", timeout=15)             # the game told as it goes
        p.send("say nice game")
        pump_until(ada, lambda: WATCHER.format("Wes") + ": nice game" in ada.log)
        p.expect("Chat: Wes (watching): nice game")
        p.send("end")                                    # a watcher plays nothing: it is said as chat
        pump_until(bea, lambda: WATCHER.format("Wes") + ": end" in bea.log)
        told = p.lines[start:p.read]
        assert not [line for line in told if "your turn" in line.lower() or line.startswith("You ")], told
        p.send("leave")
        p.expect("You stopped watching. Back to the tables.")
        p.expect("Games being played, to watch")
        p.send("menu", "quit")
        p.expect("Goodbye.")
        assert p.wait() == 0
        pump_until(ada, lambda: ada.watchers.count == 0, what="the watcher gone")
    finally:
        p.kill()
        ada.close()
        bea.close()


def test_a_player_hears_how_many_watch_and_hides_their_chat(server, tmp_path):
    host, port = server.address
    client, said = text_client("Ada", tmp_path / "data")
    client.seat(host, port, create="Salon", players=2, private=False)
    until(lambda: client.shell is not None, client.tick, what="Ada at her table")
    bea = Seating(host, port, "Bea", CFG, token_file=tmp_path / "bea.json", name="Salon")
    until(lambda: bea.poll() == "seated", what="Bea's seat")
    until(lambda: client.shell.session.vm.has_game, client.tick, what="the game")
    wes = text_client("Wes", tmp_path / "wes")[0]
    wes.watch(host, port, name="Salon")
    until(lambda: wes.reader is not None, wes.tick, what="Wes watching")
    until(lambda: said.has("1 person watches this game."), client.tick, what="Ada told one watches")
    client.line("watchers hide")
    until(lambda: client.shell.session.watchers.hidden, client.tick)
    wes.line("say psst")
    pump_until(bea.session, lambda: WATCHER.format("Wes") + ": psst" in bea.session.log)
    client.tick()
    client.line("watchers")
    assert said[-1] == "1 person watches this game. The watchers' chat is hidden: you no longer read what they say."
    assert not said.has("psst")
    wes.close()
    client.close()
    bea.session.close()
