"""A seat kept at a server is offered by the text client's menu, as the title page offers it:
a player whose terminal closed mid-game takes the seat back by its number, and hears what
happened meanwhile; a server that no longer answers is said so, and the menu comes again."""
from __future__ import annotations

import orjson
import pytest

from support.text import at_server, text_client
from support.wait import until

from game.client.flow.seats import kept_seats
from game.match.seats import remember_unfinished


@pytest.mark.timeout(60)
def test_the_menu_takes_a_player_back_to_a_seat_kept_at_a_server(server, tmp_path):
    host, port = server.address
    ada, said = at_server(server, "Ada", tmp_path / "data")
    ada.line("players 2 easy")
    until(lambda: said.has("Choose the 2 leaders you keep"), ada.tick)
    ada.line("keep 1 2")
    ada.line("")
    until(lambda: said.has("The game is on"), ada.tick)
    ada.close()                       # the terminal closed: the server keeps the seat

    again, said = text_client("Someone", tmp_path / "data")
    offer = next(line for line in said if "Return to your game" in line)
    assert offer == f"1. Return to your game at {host}:{port}, as Ada, with {offer.split('with ')[1]}", offer
    again.line("1")
    until(lambda: said.has("The game is on"), again.tick)
    assert said.has("What happened so far") and said.has("You kept two leaders.")
    assert again.shell is not None and again.shell.session.nickname == "Ada"
    again.close()

    server.stop()                      # the server is gone: the seat is said unreachable, the menu again
    third, said = text_client("Ada", tmp_path / "data")
    third.line("1")
    until(lambda: said.has("Main menu", since=2), third.tick)
    assert any("127.0.0.1" in line and "connect" in line.lower() for line in said[1:]), said[-6:]
    third.close()


@pytest.mark.timeout(60)
def test_a_guest_is_told_the_host_stopped_hosting_not_that_the_connection_was_lost(server, tmp_path):
    """The window's guest and the terminal's were both told "connection lost" when the host
    chose Stop hosting, as after a crash: the server now says it stops on purpose, and so do
    the front ends."""
    bea, said = at_server(server, "Bea", tmp_path / "data")
    try:
        bea.line("players 2 easy")
        until(lambda: said.has("Choose the 2 leaders you keep"), bea.tick)
        server.stop()                            # what the host's Stop hosting does
        until(lambda: said.has("stopped hosting the game"), bea.tick)
        line = next(line for line in said if "stopped hosting the game" in line)
        assert line.startswith("The host stopped hosting the game. On purpose, not a crash"), line
        assert "say leave: the menu offers your seat" in line
        assert not said.has("The connection to the server was lost")
    finally:
        bea.close()


@pytest.mark.timeout(60)
def test_a_seat_taken_back_from_the_menu_names_the_host_who_stops(server, tmp_path):
    """QA: a seat taken from the list of kept seats said "The host stopped hosting…": the host's
    name, as the network's list gave it when the seat was taken, was not kept with the seat."""
    data = tmp_path / "data"
    bea, said = at_server(server, "Bea", data)
    match = bea.shell.session.match
    match.host_name, match.table_name = "Ada", "Ada's table"    # as the network's list named them
    bea.line("players 2 easy")
    until(lambda: said.has("Choose the 2 leaders you keep"), bea.tick)
    bea.close()
    record = next(iter(orjson.loads((data / "unfinished-games.json").read_bytes()).values()))
    assert (record["host_name"], record["table_name"]) == ("Ada", "Ada's table")

    again, said = text_client("Someone", data)
    try:
        again.line("1")                                    # Return to your game at …
        until(lambda: said.has("Choose the 2 leaders you keep"), again.tick)
        server.stop()                                      # what Ada's Stop hosting does
        until(lambda: said.has("stopped hosting the game"), again.tick)
        line = next(line for line in said if "stopped hosting the game" in line)
        assert line.startswith("Ada stopped hosting the game. On purpose, not a crash"), line
    finally:
        again.close()
    record = next(iter(orjson.loads((data / "unfinished-games.json").read_bytes()).values()))
    assert record["host_name"] == "Ada"                   # kept when the seat was taken back


def test_a_seat_kept_before_host_names_were_still_loads(tmp_path):
    remember_unfinished(tmp_path / "unfinished-games.json", "h:1/Ada",
                        {"host": "h", "port": 1, "nickname": "Ada", "players": ["Ada", "Bea"], "at": 1})
    seat = kept_seats(tmp_path)[0]
    assert (seat.host_name, seat.table_name, seat.others) == ("", "", ["Bea"])
