"""Where bots think (game.bots.driver.BotPool): in a worker process that ends when asked, when
the program that started it ends however it ends, and on a thread when processes cannot start."""
from __future__ import annotations

import dataclasses
import logging
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from game.bots import driver
from game.bots.driver import BotPool, make_job
from game.rules import Game, default_config
from game.rules.playout import steps
from support.processes import alive, reaped
from support.wait import until

CFG = default_config()
ROOT = Path(__file__).resolve().parents[2]


def play_phase_game() -> Game:
    """Two players, a few turns into the game (the hard bot searches there)."""
    g = Game.new(CFG, ["Ada", "Bob"], 7)
    for n, (nick, action) in enumerate(steps(g, random.Random(7))):
        g.apply(nick, action)
        if g.phase == "play" and n > 12:
            break
    return g


def ask(pool: BotPool, job, timeout: float = 30.0):
    got, ready = [], threading.Event()
    pool.submit(job, lambda a: (got.append(a), ready.set()))
    assert ready.wait(timeout), "no answer"
    return got[0]


def test_a_hard_decision_is_thought_in_a_worker_process_that_close_ends_at_once():
    g = play_phase_game()
    nick = g.current_player.nickname
    pool = BotPool(CFG, processes=True)
    try:
        pool.warm()
        answer = ask(pool, make_job(g, nick, "hard", budget=4))
        assert answer.level == "hard" and pool.mode == "processes"
        assert answer.pid not in (0, os.getpid())
        assert pool.worker_pids() == [answer.pid]
        g.apply(nick, answer.action)           # a request the engine accepts
        # a long search under way when the game is left: the worker ends now, the answer is None
        nick = g.current_player.nickname
        got, ready = [], threading.Event()
        pool.submit(make_job(g, nick, "hard", budget=100_000), lambda a: (got.append(a), ready.set()))
        time.sleep(0.3)
    finally:
        t0 = time.perf_counter()
        pool.close()
        closing = time.perf_counter() - t0
    assert closing < 2.5
    until(lambda: not alive(answer.pid), timeout=5)
    until(lambda: answer.pid not in [p.pid for p in multiprocessing.active_children()], timeout=5)
    assert ready.wait(5) and got == [None]
    assert pool.worker_pids() == []


WORKER_THEN_WAIT = """
import sys, time
from game.bots.driver import BotPool
from game.rules import default_config
def main():
    pool = BotPool(default_config(), processes=True)
    pool.warm()
    while not pool.worker_pids():
        time.sleep(0.02)
    print(pool.worker_pids()[0], flush=True)
    time.sleep(120)
if __name__ == "__main__":
    main()
"""


def test_a_worker_ends_with_the_program_that_started_it_even_when_that_is_killed_and_nothing_leaks(tmp_path):
    script = tmp_path / "game_that_crashes.py"
    script.write_text(WORKER_THEN_WAIT)
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    with reaped(proc), proc.stderr:
        worker = int(proc.stdout.readline())
        assert alive(worker)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        until(lambda: not alive(worker), what=f"worker {worker} to end with the killed game")
        # its standard error ends once the worker and multiprocessing's resource tracker have ended:
        # the tracker warns there of every semaphore the killed game left behind ("leaked semaphore")
        assert proc.stderr.read() == ""


def test_when_processes_cannot_be_started_the_bots_think_on_a_thread_and_the_log_says_so(monkeypatch, caplog):
    def refused(workers, config_path):
        raise OSError(38, "Function not implemented")   # e.g. no semaphores on this system
    monkeypatch.setattr(driver, "_process_executor", refused)
    g = Game.new(CFG, ["Ada", "Bob"], 3)
    pool = BotPool(CFG, processes=True)
    try:
        with caplog.at_level(logging.WARNING, logger="mor.bots"):
            pool.warm()
            answer = ask(pool, make_job(g, "Ada", "easy"))
        assert answer.level == "easy" and answer.pid == 0
        assert pool.mode == "threads" and "Function not implemented" in pool.why_threads
        assert any("think on a thread" in r.message and "cannot start" in r.message for r in caplog.records)
        g.apply("Ada", answer.action)
    finally:
        pool.close()


def test_a_worker_that_dies_before_its_first_answer_hands_the_job_to_a_thread(caplog):
    # the worker loads the rules from the config's path: a path that is gone kills it at start
    broken = dataclasses.replace(CFG, path=str(ROOT / "config" / "no-such-config.json"))
    g = Game.new(CFG, ["Ada", "Bob"], 3)
    pool = BotPool(broken, processes=True)
    try:
        with caplog.at_level(logging.WARNING, logger="mor.bots"):
            answer = ask(pool, make_job(g, "Bob", "medium"))
        assert answer.level == "medium" and answer.pid == 0     # the bot asked for, on a thread
        assert pool.mode == "threads" and "BrokenProcessPool" in pool.why_threads
        assert any("cannot start" in r.message for r in caplog.records)
        g.apply("Bob", answer.action)
        assert multiprocessing.active_children() == []
    finally:
        pool.close()


def test_check_bots_on_the_command_line_says_where_the_bots_thought(capsys):
    import json

    from game.launcher import main
    assert main(["--check-bots", "3"]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["mode"] == "processes" and report["bot_moves"] >= 3 and report["retired"] == {}
    assert report["pids"] and report["this_pid"] not in report["pids"]
