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
import time
from pathlib import Path

import pytest

from support.processes import alive, reaped, wait_for

ROOT = Path(__file__).resolve().parents[2]

OWNER = """
import faulthandler, os, random, signal, sys, threading, time
faulthandler.register(signal.SIGUSR1, all_threads=True)     # (the test asks for the stacks of a hang)
if __name__ == "__mp_main__" and os.environ.get("SLOW_START"):   # the worker imports this file too
    print("starting", os.getpid(), flush=True)
    time.sleep(5)                                                   # (as a slow disk would)
from game.bots.driver import BotPool, make_job
from game.rules import Game, default_config
from game.rules.playout import steps


def leave(signum, frame):
    raise KeyboardInterrupt


def main():
    # Ctrl-C raises KeyboardInterrupt, as in a program started from a terminal (the app and the
    # text client take it themselves): a run started in the background (``make test &``) passes
    # on an ignored SIGINT, and Python then leaves it ignored, so the owner slept through it
    signal.signal(signal.SIGINT, signal.default_int_handler)
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
            pool.submit(make_job(game, game.current_player.nickname, "hard", budget=100_000), lambda a: None)
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


@pytest.mark.parametrize("sig, phase, started", [
    ("SIGINT", "starting", "from a terminal"), ("SIGINT", "idle", "from a terminal"),
    ("SIGINT", "thinking", "from a terminal"), ("SIGTERM", "thinking", "from a terminal"),
    ("SIGINT", "idle", "with SIGINT ignored")])
def test_a_signal_to_the_group_ends_the_owner_which_ends_its_worker_without_a_word(tmp_path, sig, phase, started):
    """``started`` with SIGINT ignored: as by a shell's ``&`` or a launcher (inherited; a clean-clone
    run started so failed here, the owner asleep through its Ctrl-C)."""
    script = tmp_path / "owner.py"
    script.write_text(OWNER)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PHASE": phase, "SLOW_START": "1" if phase == "starting" else ""}
    was = signal.signal(signal.SIGINT, signal.SIG_IGN if started == "with SIGINT ignored" else signal.SIG_DFL)
    try:
        proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=env, start_new_session=True)
    finally:
        signal.signal(signal.SIGINT, was)
    with reaped(proc):
        said, worker = proc.stdout.readline().split()
        assert said == phase and alive(int(worker))
        os.killpg(proc.pid, getattr(signal, sig))        # as a terminal's Ctrl-C does: every process in it
        try:
            out, err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the owner did not end in 20 s: {hung(proc)}")
    assert proc.returncode == 0 and out.splitlines()[-1] == "closed", (out, err)
    assert err == ""                  # no traceback, no warning, from the worker or from its owner
    assert wait_for(lambda: not alive(int(worker)), 5)


def hung(proc: subprocess.Popen) -> str:
    """What a hung owner was doing: whether it still runs, every process of its session (a
    worker or a resource tracker left holding its pipes keeps ``communicate`` waiting after the
    owner ended), their threads' stacks (faulthandler, on SIGUSR1, set by the owner's script,
    which its worker imports too), their signal masks, and the output so far."""
    lines = [f"owner {proc.pid} {'still runs' if proc.poll() is None else f'ended with {proc.returncode}'}"]
    session = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if entry.name.isdigit() and int(stat[3]) == proc.pid:      # (the session's id)
                cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                session.append(int(entry.name))
                lines.append(f"process {entry.name} parent {stat[1]} state {stat[0]}: {cmd[:160]}")
        except (OSError, IndexError, ValueError):
            continue
    for pid in session:
        for status in sorted(Path(f"/proc/{pid}/task").glob("*/status")):
            try:
                fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line)
            except OSError:
                continue
            lines.append(f"  {pid}/{status.parent.name} {fields.get('Name', '').strip()} "
                         f"{fields.get('State', '').strip()} blocked {fields.get('SigBlk', '').strip()} "
                         f"pending {fields.get('SigPnd', '').strip()}/{fields.get('ShdPnd', '').strip()} "
                         f"wchan {_read(f'/proc/{pid}/task/{status.parent.name}/wchan')}")
    for pid in session:
        if "python" in _read(f"/proc/{pid}/cmdline") and "resource_tracker" not in _read(f"/proc/{pid}/cmdline"):
            try:
                os.kill(pid, signal.SIGUSR1)
            except OSError:
                pass
    time.sleep(1.0)                   # (faulthandler writes at once, from the signal handler)
    for pid in session:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    out, err = proc.communicate()
    return "\n".join([*lines, "out:", out, "err:", err])


def _read(path: str) -> str:
    try:
        return Path(path).read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return "?"


def test_a_worker_that_dies_under_a_job_breaks_the_pool_and_every_other_job_is_answered():
    import concurrent.futures as cf
    import time

    from game.bots.workers import WorkerProcesses
    pool = WorkerProcesses(2)
    try:
        assert pool.submit(os.getpid).result(60) != os.getpid()
        naps = [pool.submit(time.sleep, 0.2) for _ in range(3)]
        dies = pool.submit(os._exit, 3)
        with pytest.raises(cf.process.BrokenProcessPool, match="ended abruptly"):
            dies.result(60)
        for nap in naps:          # each is answered: done, or failed as broken (none left hanging)
            e = nap.exception(60)
            assert e is None or isinstance(e, cf.process.BrokenProcessPool), e
        with pytest.raises(cf.process.BrokenProcessPool):
            pool.submit(os.getpid)
    finally:
        pool.shutdown()
    assert pool.pids() == []


def test_a_pool_shut_down_under_a_job_cancels_it_at_once_and_refuses_the_next_as_shut_down():
    import concurrent.futures as cf
    import time

    from game.bots.workers import WorkerProcesses
    pool = WorkerProcesses(1)
    nap = pool.submit(time.sleep, 60)
    assert wait_for(lambda: nap.running() and pool.pids(), 60)
    (worker,) = pool.pids()
    t0 = time.monotonic()
    pool.shutdown(cancel_futures=True)
    assert time.monotonic() - t0 < 1.0 and not alive(worker)
    assert isinstance(nap.exception(5), cf.CancelledError)
    with pytest.raises(RuntimeError, match="after shutdown"):
        pool.submit(os.getpid)


ARENA_OWNER = """
import multiprocessing, signal
from game.bots.arena import play_many


def leave(signum, frame):
    raise KeyboardInterrupt


def main():
    signal.signal(signal.SIGINT, signal.default_int_handler)     # (as above: whatever started us)
    signal.signal(signal.SIGTERM, leave)
    games = play_many([(["easy"] * 4, 500 + i, None) for i in range(2000)], jobs=2)
    try:
        next(games)
        print("playing", *[p.pid for p in multiprocessing.active_children()], flush=True)
        for _ in games:
            pass
    except KeyboardInterrupt:
        pass
    finally:
        games.close()
    print("closed", flush=True)


if __name__ == "__main__":
    main()
"""


def test_a_ctrl_c_to_a_batch_of_bot_games_ends_its_workers_without_a_word(tmp_path):
    """``arena.play_many`` (bench/bots.py's batches) deals its games to the same workers: a Ctrl-C
    to the group while they play reaches the owner alone, which ends them; none prints a
    ``KeyboardInterrupt`` traceback (the standard pool's workers each printed one)."""
    script = tmp_path / "batch.py"
    script.write_text(ARENA_OWNER)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, start_new_session=True)
    with reaped(proc):
        said, *workers = proc.stdout.readline().split()
        assert said == "playing" and len(workers) == 2 and all(alive(int(w)) for w in workers)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0 and out.splitlines()[-1] == "closed", (out, err)
    assert err == ""
    assert wait_for(lambda: not any(alive(int(w)) for w in workers), 5)
