"""``server.py`` run for a benchmark: a subprocess with its limits lifted, its RSS and threads
sampled; and how busy the whole machine was meanwhile. (Used by ``server_load.py`` and the
other server benchmarks.)"""
from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SERVER = ROOT / "server.py"

LIFTED = ["--max-per-address", "0", "--tables-per-address", "0", "--line-rate", "0", "--join-time", "0",
          "--lobby-time", "0", "--max-connections", "20000"]
"""The limits meant for strangers, lifted: every client of the load generator comes from
127.0.0.1, and a closed loop of few games sends more lines a second than a person does."""


class ServerProcess:
    """``server.py`` as a subprocess, with a thread sampling its RSS and thread count."""

    def __init__(self, data_dir: Path, pin: int | None, extra_args: list[str] | None = None,
                 server: Path = SERVER) -> None:
        self.data_dir = data_dir
        self.stderr_path = data_dir / "server.stderr"
        self._stderr = open(self.stderr_path, "wb")
        cmd = [sys.executable, str(server), "--host", "127.0.0.1", "--port", "0",
               "--data-dir", str(data_dir / "data"), "--log-level", "WARNING", *LIFTED, *(extra_args or [])]
        preexec = (lambda: os.sched_setaffinity(0, {pin})) if pin is not None else None
        self.proc = subprocess.Popen(cmd, cwd=str(server.parent), stdout=subprocess.PIPE, stderr=self._stderr,
                                     stdin=subprocess.DEVNULL, preexec_fn=preexec)
        self.pid = self.proc.pid
        self.port = self._read_port(timeout=20.0)
        self.idle_rss_mb = self.rss_mb()
        self.peak_rss_mb = self.idle_rss_mb
        self.peak_threads = 0
        self._stop = threading.Event()
        self._sampler = threading.Thread(target=self._sample, name="rss-sampler", daemon=True)
        self._sampler.start()

    def _read_port(self, timeout: float) -> int:
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            r, _, _ = select.select([self.proc.stdout], [], [], 0.2)
            if r:
                line = self.proc.stdout.readline().decode(errors="replace").strip()
                if not line:
                    break
                if "listening on" in line:
                    return int(line.rsplit(":", 1)[1])
            if self.proc.poll() is not None:
                break
        self.stop()
        raise RuntimeError(f"server did not start: {self.stderr_tail()}")

    def _status(self) -> dict[str, str]:
        out = {}
        try:
            with open(f"/proc/{self.pid}/status") as f:
                for line in f:
                    k, _, v = line.partition(":")
                    out[k] = v.strip()
        except OSError:
            pass
        return out

    def rss_mb(self) -> float:
        v = self._status().get("VmRSS")
        return int(v.split()[0]) / 1024 if v else 0.0

    def cpu_seconds(self) -> tuple[float, float]:
        """(user, system) CPU seconds of the server so far, all its threads."""
        try:
            with open(f"/proc/{self.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            tick = os.sysconf("SC_CLK_TCK")
            return int(fields[11]) / tick, int(fields[12]) / tick
        except (OSError, IndexError, ValueError):
            return 0.0, 0.0

    def context_switches(self) -> int:
        """Voluntary + involuntary context switches summed over the server's live threads."""
        total = 0
        try:
            tasks = os.listdir(f"/proc/{self.pid}/task")
        except OSError:
            return 0
        for tid in tasks:
            try:
                with open(f"/proc/{self.pid}/task/{tid}/status") as f:
                    for line in f:
                        if line.endswith("ctxt_switches:", 0, line.find(":") + 1):
                            total += int(line.split()[1])
            except (OSError, ValueError):
                pass
        return total

    def sample(self) -> bool:
        """Update the peaks; False once the process is gone."""
        st = self._status()
        if not st:
            return False
        rss = st.get("VmRSS")
        if rss:
            self.peak_rss_mb = max(self.peak_rss_mb, int(rss.split()[0]) / 1024)
        thr = st.get("Threads")
        if thr:
            self.peak_threads = max(self.peak_threads, int(thr))
        return True

    def _sample(self) -> None:
        while self.sample() and not self._stop.wait(0.1):
            pass

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stderr_tail(self, n: int = 2000) -> str:
        try:
            return self.stderr_path.read_bytes()[-n:].decode(errors="replace")
        except OSError:
            return ""

    def stop(self) -> int | None:
        self._stop.set()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.send_signal(signal.SIGCONT)   # in case it was stopped
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self._stderr.close()
        return self.proc.returncode


def machine_busy_seconds() -> float:
    """CPU seconds spent busy by the whole machine so far (all cores, from /proc/stat)."""
    try:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return 0.0
    idle = v[3] + (v[4] if len(v) > 4 else 0)
    return (sum(v[:8]) - idle) / os.sysconf("SC_CLK_TCK")
