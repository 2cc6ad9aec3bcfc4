"""The text client's worker processes (the computer players' and the hint's) end with it, and say
nothing, however the player leaves: Ctrl-C (which the terminal sends to every process of the
game, the workers too), Ctrl-D, or a SIGTERM from outside. Played through a real pty, seeded."""
from __future__ import annotations

import os
import signal
import time

import pytest

from support.processes import all_gone, children, wait_for
from support.pty import PtyProgram


def started(worker: str) -> PtyProgram:
    """The text client on a pty with a worker process under way: the computer player's (a game
    against one hard bot, at the leaders' choice) or the hint's (a solo game, a hint asked)."""
    p = PtyProgram(["--plain", "--name", "Ada"], seed=3)
    p.expect("Main menu")
    if worker == "bot":
        p.send(p.expect("Play against the computer").split(".")[0])
        p.expect("How many computer players")
        p.send("1 hard")
        p.expect("Choose the 2 leaders you keep")
    else:
        p.send("1")
        p.expect("Choose the 2 leaders you keep")
        p.send("keep 1 2", "")
        p.expect("It is your turn")
        p.send("hint")
        p.expect("Thinking about a hint")
    return p


@pytest.mark.parametrize("worker, how", [("bot", "Ctrl-C"), ("bot", "Ctrl-D"), ("bot", "SIGTERM"),
                                         ("hint", "Ctrl-C")])
def test_leaving_ends_the_workers_without_a_traceback(worker, how):
    p = started(worker)
    try:
        assert wait_for(lambda: len(children(p.pid)) >= 2, 10), children(p.pid)  # the worker, the tracker
        kids = children(p.pid)
        time.sleep(0.2)     # a player's reaction: the worker still starts (imports), or thinks
        if how == "SIGTERM":
            os.kill(p.pid, signal.SIGTERM)
        else:
            os.write(p.fd, b"\x03" if how == "Ctrl-C" else b"\x04")
        p.expect("leaving")
        p.expect("Goodbye.")
        assert p.wait() == 0
    finally:
        p.kill()
    said = "\n".join([*p.lines, p.buffer])
    for sign in ("Traceback", "Error", "Warning", "leaked"):
        assert sign not in said, said[-2000:]
    assert all_gone(kids) == []
