"""A whole solo game against Lorenzo, played by typed commands through a real pseudo-terminal,
read line by line as a screen reader reads it, to the final scores."""
from __future__ import annotations

import re

from support.pty import PtyProgram


def test_a_solo_game_by_typed_commands_to_the_scores():
    p = PtyProgram(["--plain", "--name", "Ada"], seed=4)
    try:
        p.expect("Main menu")
        p.send("1")
        p.expect("Choose the 2 leaders you keep")
        p.send("keep 1 2")
        p.expect("Keep your")
        p.send("")
        p.expect("The game is on: you play against Lorenzo il Magnifico")
        p.send("market")
        row = p.expect("Row 1:")
        assert re.match(r"Row 1: \w.*\. Gives ", row), row
        turns = 0
        while True:
            # the strategy of a script: buy what can be bought, else take the first row that gives
            # something; then end the turn
            p.send("take row 1", "")
            line = p.expect("You took row 1", "Ada took", "The game is over")   # told to her, not of her
            assert not line.startswith("Ada took"), line
            if "The game is over" in line:
                break
            p.send("end")
            line = p.expect("End your turn.", "The game is over")
            if "The game is over" in line:     # (the take ended it)
                break
            p.send("")
            line = p.expect("Your turn.", "The game is over")
            turns += 1
            if "The game is over" in line:
                break
            assert turns < 200
        head = line
        assert head == ("The game is over. Lorenzo il Magnifico wins. His black cross reached the end of the "
                        "faith track first."), head                # (the deal of seed 4, this script)
        score = p.expect("Ada:", "You:")
        assert re.search(r"\d+ VP \(\d+ from cards", score), score
        p.expect("Say leave to go back to the menu")
        p.send("score")
        assert "The game is over" in p.expect("The game is over")
        p.send("leave")
        p.expect("Main menu")
        past = p.expect("Past games and replays")
        p.send(past.split(".")[0])                     # the finished game, replayed
        listed = p.expect("1. Solo: Ada")
        winner = "Lorenzo" if "Lorenzo il Magnifico wins" in head else "Ada"
        assert listed.startswith("1. Solo: Ada (") and listed.endswith(f"; {winner} won)"), listed   # who won, said
        p.send("1")
        moves = int(re.search(r"A replay of (\d+) moves", p.expect("A replay of"))[1])
        assert p.expect("Move 0 of") == f"Move 0 of {moves}. The table as dealt."
        p.send("")
        assert p.expect("Move 1 of") == f"Move 1 of {moves}. Ada kept two leaders."
        p.send("help")             # the replay's own commands, not the game's actions
        said = p.expect("In a replay")
        assert said.startswith("In a replay: next (or Enter) and back go one move") and "take" not in said, said
        p.send("end", "score")
        last = p.expect("Move ")
        assert last.startswith(f"Move {moves} of {moves}. Ada ") and last.endswith(" wins."), last
        assert p.expect("The game is over") == head
        p.leave_and_quit()
    finally:
        p.kill()
    text = "\n".join(p.lines)
    assert "\x1b[" not in text          # plain: no colour, no cursor movement
    assert turns > 5


def test_mor_text_through_a_pipe_is_plain():
    """``mor --text`` (main.py) with no terminal: plain lines, no line editor, quits on request."""
    import subprocess
    import sys

    from support.pty import ROOT
    out = subprocess.run([sys.executable, "main.py", "--text", "--name", "Bea"], input="help\nquit\n", cwd=ROOT,
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("Masters of Renaissance, in words.")
    assert "1. Play solo against Lorenzo il Magnifico (a new game)" in lines
    assert "Say the number of a choice of the list. Say menu for the main menu, quit to stop." in lines
    assert lines[-1] == "Goodbye."
    assert "\x1b" not in out.stdout and out.stderr == ""


def test_on_a_terminal_the_line_editor_completes_and_gives_the_terminal_back():
    """Without --plain, on a terminal: prompt_toolkit reads the line (Tab completes a command),
    and quitting ends the program at once, its prompt closed."""
    import os
    import time
    env = {"TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1"}     # (this pty answers no cursor position request)
    saved = os.environ.pop("NO_COLOR", None)
    try:
        p = PtyProgram(["--name", "Ada"], seed=1, env=env)
    finally:
        if saved is not None:
            os.environ["NO_COLOR"] = saved
    try:
        p.expect("7. Quit")
        p.prompted()
        os.write(p.fd, b"hel\t")          # Tab completes "hel" to "help" (shown on the line), then Enter
        deadline = time.monotonic() + 10
        while "help" not in p.buffer and p._fill(deadline):
            pass
        os.write(p.fd, b"\r")
        p.expect("Say the number of a choice of the list.")
        p.type_line("quit")
        p.expect("Goodbye.")
        assert p.wait() == 0
    finally:
        p.kill()


def test_a_name_that_cannot_be_one_is_refused_before_anything_starts():
    """``--name`` is checked as the menu's Change your name checks it: a clear error, exit 2."""
    import subprocess
    import sys

    from support.pty import ROOT
    for bad in ("   ", "x" * 40, "a\tb"):
        out = subprocess.run([sys.executable, "main.py", "--text", "--name", bad], input="quit\n", cwd=ROOT,
                             capture_output=True, text=True, timeout=30)
        assert out.returncode == 2 and "cannot be a name" in out.stderr, (bad, out.stderr)
        assert "Main menu" not in out.stdout
