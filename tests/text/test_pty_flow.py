"""The app's flow in the text client, through a real pseudo-terminal: a new game never replaces a
saved one without asking, every seat kept at a server is offered, and a seat asked at a server
where one is kept says first that the server would give that one back (and offers another name)."""
from __future__ import annotations

import orjson
import pytest

from game.client.games import default_config
from game.match import LocalMatch
from game.match.seats import remember_unfinished

from support.pty import PtyProgram
from support.text import at_server
from support.wait import until

pytestmark = pytest.mark.timeout(60)


def test_play_solo_asks_before_it_replaces_the_saved_game(tmp_path):
    """QA: Play solo (and Play against the computer) replaced a saved game without asking, 3 times
    of 3; the window asks, the terminal did not."""
    data = tmp_path / "data"
    solo = LocalMatch(default_config(), "Ada", seed=7, save_path=data / "solo-game.json")
    solo.close()
    saved = (data / "solo-game.json").read_bytes()
    (data / "bots-game.json").write_bytes(orjson.dumps({"bots": {"Bot 1 (bot)": "hard"}}))
    bots = (data / "bots-game.json").read_bytes()
    p = PtyProgram(["--plain", "--name", "Ada"], seed=1)
    try:
        p.expect("Main menu")
        p.send("1")                                   # Play solo
        asked = p.expect("You have a solo game saved")
        assert "Starting a new game replaces it: the saved game is lost." in asked, asked
        assert p.expect("3. Cancel") == "3. Cancel"
        p.send("3")
        p.expect("the saved game is kept")
        assert (data / "solo-game.json").read_bytes() == saved
        menu = [p.expect("Play against the computer (a new game)")]
        kept = p.expect("Continue the ")               # the saved game, said once (QA: "saved" twice)
        assert kept.endswith(". Continue the saved game against Bot 1 (hard)."), kept
        p.send(menu[0].split(".")[0])
        asked = p.expect("You have a game against the computer saved")
        assert asked == ("You have a game against the computer saved. It is against Bot 1 (hard). Starting a new "
                         "game replaces it: the saved game is lost."), asked
        p.send("cancel")
        p.expect("the saved game is kept")
        assert (data / "bots-game.json").read_bytes() == bots
        p.expect("Main menu")
        p.send("1")
        p.expect("You have a solo game saved")
        p.send("1")                                   # Continue it: the saved game, not a new one
        p.expect("The saved solo game, where you left it.")
        p.leave_and_quit()
    finally:
        p.kill()
    assert (data / "solo-game.json").read_bytes() == saved


def test_every_seat_kept_at_a_server_is_in_the_menu(tmp_path):
    """QA: the menus offered one kept seat (the window) or three (the terminal): every one is offered."""
    data = tmp_path / "data"
    for i in range(5):
        remember_unfinished(data / "unfinished-games.json", f"10.0.0.{i}:51015/Ada",
                            {"host": f"10.0.0.{i}", "port": 51015, "nickname": "Ada", "players": ["Ada", "Bea"],
                             "at": 100 + i})
    p = PtyProgram(["--plain", "--name", "Ada"], seed=1)
    try:
        p.expect("Main menu")
        offers = [p.expect("Return to your game at") for _ in range(5)]
        assert offers == [f"{n + 1}. Return to your game at 10.0.0.{4 - n}:51015, as Ada, with Bea" for n in range(5)]
        p.send("quit")
        assert p.wait() == 0
    finally:
        p.kill()


def test_the_quick_game_where_a_seat_is_kept_asks_first(server, tmp_path):
    """QA: Quick game on a server where the player has an unfinished seat put them back in the
    old game without a word."""
    host, port = server.address
    ada, said = at_server(server, "Ada", tmp_path / "data")
    ada.line("players 2 easy")
    until(lambda: said.has("Choose the 2 leaders you keep"), ada.tick)
    ada.close()                          # her seat is kept at the server, its game under way
    p = PtyProgram(["--plain", "--name", "Ada"], seed=1)
    try:
        p.expect("Main menu")
        p.expect(f"1. Return to your game at {host}:{port}, as Ada")
        join = p.expect("Join a game on the network")
        p.send(join.split(".")[0], f"tables {host}:{port}")
        p.expect("quick for the Quick game")
        p.send("quick")
        asked = p.expect("You have a game at this server")
        assert f"unfinished game at {host}:{port} as Ada" in asked and "takes you back to that game" in asked, asked
        p.expect("2. Play as Ada 2")
        start = p.read
        p.send("1")                                        # back to it: chosen, so nothing to explain
        p.expect("Choose the 2 leaders you keep")
        assert not any("rather than" in line for line in p.lines[start:p.read]), p.lines[start:p.read]
        p.send("leave")
        p.expect("Main menu")
        p.send(join.split(".")[0], f"tables {host}:{port}")
        p.expect("quick for the Quick game")
        p.send("quick")
        p.expect("You have a game at this server")
        p.send("2")                                        # another name: the Quick game's waiting room
        assert p.expect("You choose how many play").startswith("Waiting room: Ada 2.")
        p.send("leave")                                    # a waiting room left: back to the tables
        p.expect("Back to the tables.")
        p.expect("quick for the Quick game")
        p.send("menu", "quit")
        p.expect("Goodbye.")
        assert p.wait() == 0
    finally:
        p.kill()
