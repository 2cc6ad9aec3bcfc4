"""``server.py`` run as a child process, for the tests that kill it, restart it on its files, or
read its log (persistence, ratings, turn-based tables): plain, or serving TLS too."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from conftest import wait_until

ROOT = Path(__file__).resolve().parents[2]


class ServerProcess:
    """``server.py`` run as a child process on a free port (``extra``: more of its options)."""

    def __init__(self, data_dir: Path, log_path: Path, *extra: str, env: dict[str, str] | None = None) -> None:
        self.log_path = log_path
        self.errlog = log_path.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "server.py"), "--host", "127.0.0.1", "--port", "0",
             "--data-dir", str(data_dir), "--log-level", "INFO", *extra],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=self.errlog, env=env)
        line = self.proc.stdout.readline().decode()
        m = re.fullmatch(r"mor-server: listening on ([\d.]+):(\d+)\n", line)
        assert m, f"unexpected first line {line!r}; log: {self.log()}"
        self.address = (m.group(1), int(m.group(2)))

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kill(self, sig: int) -> int:
        self.proc.send_signal(sig)
        code = self.proc.wait(timeout=10)
        self.errlog.close()
        return code

    def cleanup(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.errlog.close()


class TlsServerProcess(ServerProcess):
    """``server.py`` in a child process serving TLS too, its deal seeded (``MOR_SEED``): its TLS
    address (:attr:`address`) read from its log."""

    def __init__(self, data_dir: Path, log_path: Path, cert: Path, key: Path) -> None:
        super().__init__(data_dir, log_path, "--tls-cert", str(cert), "--tls-key", str(key), "--tls-port", "0",
                         env={**os.environ, "MOR_SEED": "5"})
        said = wait_until(lambda: re.findall(r"listening with TLS on ([\d.]+):(\d+)", self.log()))
        self.address = (said[-1][0], int(said[-1][1]))
