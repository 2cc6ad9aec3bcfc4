"""A bot worker process ends with its owner and only when its owner says so (game.bots.workers):
a Ctrl-C or a SIGTERM sent to the whole process group, as a terminal or a service manager sends
it, reaches the owner, which ends its worker in order; nothing is printed by the worker, and no
worker is left, whether it was starting, idle or thinking.

Each case runs a real owner process in a session of its own and signals its whole group."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from support.processes import alive, reaped, wait_for

ROOT = Path(__file__).resolve().parents[2]

OWNER = """
import os, random, signal, sys, threading, time
if __name__ == "__mp_main__" and os.environ.get("SLOW_START"):   # the worker imports this file too
    print("starting", os.getpid(), flush=True)
    time.sleep(5)                                                   # (as a slow disk would)
from game.bots.driver import BotPool, make_job
from game.rules import Game, default_config
from game.rules.playout import steps


def leave(signum, frame):
    raise KeyboardInterrupt


def main():
    signal.signal(signal.SIGTERM, leave)
    phase = os.environ["PHASE"]
    game = Game.new(default_config(), ["Ada", "Bob"], 7)
    for n, (nick, action) in enumerate(steps(game, random.Random(7))):
        game.apply(nick, action)
        if game.phase == "play" and n > 12:
            break
    pool = BotPool(default_config(), processes=True)
    try:
        pool.warm()
        if phase == "idle":
            ready = threading.Event()
            pool.submit(make_job(game, game.current_player.nickname, "easy"), lambda a: ready.set())
            ready.wait(60)
            print("idle", *pool.worker_pids(), flush=True)
        elif phase == "thinking":
            pool.submit(make_job(game, game.current_player.nickname, "hard", budget=100_000), print)
            while not pool.worker_pids():
                time.sleep(0.02)
            time.sleep(0.3)
            print("thinking", *pool.worker_pids(), flush=True)
        time.sleep(60)
    except KeyboardInterrupt:
        pass
    finally:
        pool.close()
    print("closed", flush=True)


if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize("sig, phase", [("SIGINT", "starting"), ("SIGINT", "idle"), ("SIGINT", "thinking"),
                                        ("SIGTERM", "thinking")])
def test_a_signal_to_the_group_ends_the_owner_which_ends_its_worker_without_a_word(tmp_path, sig, phase):
    script = tmp_path / "owner.py"
    script.write_text(OWNER)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PHASE": phase, "SLOW_START": "1" if phase == "starting" else ""}
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, start_new_session=True)
    with reaped(proc):
        said, worker = proc.stdout.readline().split()
        assert said == phase and alive(int(worker))
        os.killpg(proc.pid, getattr(signal, sig))        # as a terminal's Ctrl-C does: every process in it
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0 and out.splitlines()[-1] == "closed", (out, err)
    assert err == ""                  # no traceback, no warning, from the worker or from its owner
    assert wait_for(lambda: not alive(int(worker)), 5)
