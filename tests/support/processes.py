"""Processes a test starts and the processes they start: alive or not, and whose children."""
from __future__ import annotations

import os
import subprocess
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from .wait import until


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, waiting for a parent to reap it, has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        return state not in ("Z", "X")
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` now (read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == pid:
                found.append(int(entry.name))
    return sorted(found)


def wait_for(cond: Callable[[], object], timeout: float = 10.0, step: float = 0.05) -> bool:
    """Whether ``cond()`` comes true within ``timeout`` seconds (asked every ``step`` seconds):
    :func:`support.wait.until` that answers instead of failing the test."""
    try:
        until(cond, timeout=timeout, pause=step)
    except AssertionError:
        return False
    return True


def all_gone(pids: list[int], timeout: float = 5.0) -> list[int]:
    """Those of ``pids`` still running after ``timeout`` seconds (none, once they all ended)."""
    wait_for(lambda: not any(alive(p) for p in pids), timeout)
    return [p for p in pids if alive(p)]


@contextmanager
def reaped(proc: subprocess.Popen) -> Iterator[subprocess.Popen]:
    """``proc``, killed and reaped on the way out if it still runs (a test that failed half-way)."""
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
