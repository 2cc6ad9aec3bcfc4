"""What a screen reader reads at the edges of a game played through a real pseudo-terminal:
leaving by Ctrl-C or Ctrl-D, coming back, and bad input, each said in words."""
from __future__ import annotations

import os
import re

import pytest

from support.pty import PtyProgram


def solo_game(*args: str, seed: int = 1) -> PtyProgram:
    """A new solo game on a pty (the deal of ``seed``), its leaders kept: the player's turn."""
    p = PtyProgram(["--plain", "--name", "Ada", *args], seed=seed)
    p.expect("Main menu")
    p.send("1")
    p.expect("Choose the 2 leaders you keep")
    p.send("keep 1 2", "")
    p.expect("It is your turn")
    return p


@pytest.mark.parametrize("key, why", [(b"\x04", "The end of the input: leaving."), (b"\x03", "Ctrl-C: leaving.")])
def test_ctrl_d_and_ctrl_c_in_a_game_say_that_it_is_left_and_saved(key, why):
    """Also when what started the game ignored Ctrl-C (a launcher, a test runner's worker): the
    ignored signal is inherited, and the player would be stuck."""
    import signal
    was = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        p = solo_game()
    finally:
        signal.signal(signal.SIGINT, was)
    try:
        os.write(p.fd, key)
        assert p.expect("leaving").endswith(why)     # (after the terminal's own ^C)
        assert p.expect("You left the game") == "You left the game. It is saved."
        assert p.expect("Goodbye.") == "Goodbye."
        assert p.wait() == 0
    finally:
        p.kill()


def test_hosting_on_a_port_in_use_asks_for_another_one(tmp_path):
    """The port of the settings is another program's: the text client has no Settings page, so it
    asks here (Enter: any free port), and the table opens there."""
    import json
    import socket
    blocker = socket.socket()
    blocker.bind(("0.0.0.0", 0))
    blocker.listen()
    taken = blocker.getsockname()[1]
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "settings.json").write_text(json.dumps({"server_port": taken}))
    p = PtyProgram(["--plain", "--name", "Ada"], seed=1)
    try:
        host = p.expect("Host a game on this network")
        p.send(host.split(".")[0])
        assert p.expect(f"Port {taken}") == (f"Port {taken} is already in use on this computer. Say another port to "
                                            f"host on (1024 to 65535), press Enter for any free port, or say menu.")
        p.send("80")
        assert p.expect("Say a port") == "Say a port from 1024 to 65535, press Enter for any free port, or say menu."
        p.send("")
        opened = p.expect("Your table is open on this network")
        assert f":{taken}" not in opened, opened
        p.expect("You choose how many play")
        p.send("leave")
        p.expect("Your table's server stops with you")
        p.expect("Main menu")
        p.quit()
    finally:
        p.kill()
        blocker.close()


def test_a_long_game_continued_tells_its_last_lines_not_its_whole_log():
    """Continuing a saved game says the last lines of its log and how to hear more, not every
    line since the start (a screen reader would read them all before the player's turn)."""
    p = solo_game()
    try:
        for turn in range(6):     # six turns: a take, then Lorenzo's token, each several lines
            p.send("take row 1", "", "end", "")
            p.expect("Your turn.")
        p.send("take row 1", "", "undo", "")
        p.expect("You took back")  # (a request taken back is not told again: the game is as if it was not made)
        p.send("leave")
        resume = p.expect("Continue the saved solo game")
        p.send(resume.split(".")[0])
        said = p.expect("What happened")
        shown, total = map(int, re.fullmatch(r"What happened last \(the last (\d+) of (\d+) lines; log and a number "
                                             r"says more, for example log (?:\d+)\):", said).groups())
        assert shown == 12 < total
        told = [p.expect("") for _ in range(12)]
        assert not any("took back" in line for line in told), told
        assert sum(line.startswith("You took row 1: ") for line in told) >= 2, told
        p.expect("It is your turn")
        p.send("quit", "quit")
        p.expect("Goodbye.")
        assert p.wait() == 0
    finally:
        p.kill()


def test_the_boards_signs_are_said_in_words():
    """The log's compact signs (a dash between clauses, +1, a trailing ellipsis) are read aloud as
    noise: the text client says them in words."""
    p = solo_game()
    try:
        p.send("take row 1", "discard 1", "")
        took = p.expect("You took row 1")
        assert took.endswith("Lorenzo's black cross plus 1."), took
        assert "; discarded 1 " in took and " — " not in took
        p.send("hint")
        assert p.expect("Thinking about a hint") == "Thinking about a hint."
        p.expect("Hint: ")
        p.send("cancel", "quit")
        p.send(p.expect("Join a game on the network").split(".")[0])
        assert p.expect("Looking for tables").startswith("Looking for tables on this network. Say list")
        p.send("menu", "quit")
        p.expect("Goodbye.")
        assert p.wait() == 0
    finally:
        p.kill()
    noise = [line for line in p.lines if any(sign in line for sign in ("—", "→", "−", "…"))]
    assert not noise, noise


def test_bad_lines_are_answered_shortly_and_the_game_goes_on():
    """A very long line, an unknown word, a wrong number, an empty line: each gets one short
    answer (never the line read back), and the game is as it was."""
    p = solo_game()
    try:
        p.send("x" * 1000)
        assert p.expect("too long") == ("That line is too long (1000 characters): nothing was done. "
                                        "Say help for the commands.")
        p.send("frobnicate")
        assert p.expect("No command") == "No command 'frobnicate'. Say help for the commands."
        p.send("take row 9")
        assert p.expect("no row") == "There is no row 9: say one from 1 to 3."
        p.send("")
        assert p.expect("It is your turn") == ("It is your turn: take from the market (take), buy a card (buy) "
                                               "or produce (produce).")
        p.send("take row 1", "")
        p.expect("You took row 1")
        p.send("quit", "quit")
        p.expect("Goodbye.")
        assert p.wait() == 0
    finally:
        p.kill()
    assert not [line for line in p.lines if len(line) > 400 and not line.startswith("xxxx")]


def test_a_game_against_the_computer_says_the_order_of_the_turns():
    """Against two computer players: the start says who plays when, End says who plays next, and
    their moves are said as they happen, up to the player's turn again."""
    p = PtyProgram(["--plain", "--name", "Ada", "--bot-pace", "0"], seed=1)
    try:
        p.expect("Main menu")
        p.send("2")
        p.expect("How many computer players")
        p.send("2 easy")
        p.expect("Choose the 2 leaders you keep")
        p.send("keep 1 2", "")
        line = p.expect("The game is on", "Your seat ")
        if line.startswith("Your seat "):      # (a seat after the first)
            p.send("resources Coin", "")
            line = p.expect("The game is on", timeout=30)
        order = line.split("The turns go: ")[1].split(".")[0].split(", ")
        assert sorted(order) == sorted(["you", *(f"{b} (easy)" for b in line.split("against ")[1]
                                                   .split(". ")[0].replace(" (easy)", "").split(" and "))])
        mine = order.index("you")
        after = order[(mine + 1) % 3]
        last = order[(mine + 2) % 3].replace("easy bot", "bot")
        p.expect("Your turn", "It is your turn", timeout=30)
        p.send("take row 1", "", "end")
        assert p.expect("End your turn.") == (f"End your turn. {after} plays next. Press Enter to do it, "
                                              f"or type another command.")
        p.send("")
        p.expect(f"{last} ended the turn", timeout=30)
        p.expect("Your turn.")
        p.send("quit", "quit")
        p.expect("Goodbye.")
        assert p.wait() == 0
    finally:
        p.kill()
