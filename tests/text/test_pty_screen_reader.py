"""What a screen reader reads at the edges of a game played through a real pseudo-terminal:
leaving by Ctrl-C or Ctrl-D, coming back, and bad input, each said in words."""
from __future__ import annotations

import os

import pytest

from .pty_helper import PtyProgram


def solo_game(tmp_path, *args: str) -> PtyProgram:
    """A new solo game on a pty, its leaders kept: the player's turn."""
    env = {"MOR_DATA_DIR": str(tmp_path / "data"), "MOR_CONFIG_DIR": str(tmp_path / "cfg")}
    p = PtyProgram(["--plain", "--name", "Ada", *args], env)
    p.expect("Main menu")
    p.send("1")
    p.expect("Choose the 2 leaders you keep")
    p.send("keep 1 2", "")
    p.expect("It is your turn")
    return p


@pytest.mark.parametrize("key, why", [(b"\x04", "The end of the input: leaving."), (b"\x03", "Ctrl-C: leaving.")])
def test_ctrl_d_and_ctrl_c_in_a_game_say_that_it_is_left_and_saved(tmp_path, key, why):
    p = solo_game(tmp_path)
    try:
        os.write(p.fd, key)
        assert p.expect("leaving").endswith(why)     # (after the terminal's own ^C)
        assert p.expect("You left the game") == "You left the game. It is saved."
        assert p.expect("Goodbye.") == "Goodbye."
        assert p.wait() == 0
    finally:
        p.kill()
