"""Network namespaces for a test that crosses a router (Linux, as root): the host's home network
behind its router, and a guest on the "internet" side, each a namespace of its own, joined by
``veth`` pairs; the router's namespace forwards packets between its two sides (``ip_forward``).
:func:`why_not` says why none can be made here (the test is then skipped); :class:`Network`
makes them and removes them, whatever happened; :class:`Program` is one program started in one
of them, its output read line by line."""
from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

HOST, ROUTER_INSIDE = "10.77.1.2", "10.77.1.1"
ROUTER_OUTSIDE, GUEST = "198.51.100.1", "198.51.100.2"
"""The router's outside address and the guest's: RFC 5737's TEST-NET-2, public as far as the game
can tell (it is no private range), reached only inside the test's namespaces."""


def _ip(*args: str, ns: str | None = None) -> subprocess.CompletedProcess:
    argv = ["ip", "netns", "exec", ns, *args] if ns else ["ip", *args]
    return subprocess.run(argv, capture_output=True, text=True, timeout=10)


def why_not() -> str | None:
    """Why network namespaces cannot be made here (None: they can)."""
    if not sys.platform.startswith("linux"):
        return "network namespaces are Linux's"
    if shutil.which("ip") is None:
        return "no `ip` command (iproute2) to make network namespaces"
    if os.geteuid() != 0:
        return "making network namespaces needs root"
    probe = f"morprobe{os.getpid()}"
    made = _ip("netns", "add", probe)
    if made.returncode != 0:
        return f"network namespaces not permitted here ({made.stderr.strip() or made.returncode})"
    _ip("netns", "del", probe)
    return None


def nat_kind() -> str:
    """How the router forwards what it maps: ``iptables`` (a DNAT rule) where the command is,
    else ``relay`` (a forwarder of the stand-in's own); ``MOR_TEST_NAT`` chooses."""
    return os.environ.get("MOR_TEST_NAT") or ("iptables" if shutil.which("iptables") else "relay")


class Network:
    """Three namespaces: ``home`` (the host, ``HOST``) behind ``router`` (``ROUTER_INSIDE`` /
    ``ROUTER_OUTSIDE``), and ``internet`` (the guest, ``GUEST``), which reaches the home only at
    the router's outside address. A context manager: removed on the way out, whatever happened."""

    def __init__(self) -> None:
        tag = f"{os.getpid()}{int(time.monotonic() * 1000) % 1000}"
        self.home, self.router, self.internet = f"morh{tag}", f"morr{tag}", f"mori{tag}"

    def __enter__(self) -> "Network":
        try:
            self._make()
        except BaseException:
            self.remove()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()

    def _make(self) -> None:
        h, r, i = self.home, self.router, self.internet
        steps = [(("netns", "add", n), None) for n in (h, r, i)] + [
            (("link", "add", "eth0", "netns", h, "type", "veth", "peer", "name", "lan0", "netns", r), None),
            (("link", "add", "eth0", "netns", i, "type", "veth", "peer", "name", "wan0", "netns", r), None),
            (("ip", "addr", "add", f"{HOST}/24", "dev", "eth0"), h),
            (("ip", "addr", "add", f"{ROUTER_INSIDE}/24", "dev", "lan0"), r),
            (("ip", "addr", "add", f"{ROUTER_OUTSIDE}/24", "dev", "wan0"), r),
            (("ip", "addr", "add", f"{GUEST}/24", "dev", "eth0"), i),
        ] + [(("ip", "link", "set", dev, "up"), n) for n, devs in ((h, ("lo", "eth0")), (r, ("lo", "lan0", "wan0")),
                                                                   (i, ("lo", "eth0"))) for dev in devs] + [
            (("ip", "route", "add", "default", "via", ROUTER_INSIDE), h),
            (("sysctl", "-qw", "net.ipv4.ip_forward=1"), r),
        ]
        for args, ns in steps:
            done = _ip(*args, ns=ns)
            if done.returncode != 0:
                raise OSError(f"{' '.join(args)} (in {ns or 'the test'}): {done.stderr.strip()}")

    def remove(self) -> None:
        for n in (self.home, self.router, self.internet):
            _ip("netns", "del", n)

    def start(self, ns: str, argv: list[str], log: Path, env: dict[str, str] | None = None) -> "Program":
        return Program(["ip", "netns", "exec", ns, *argv], log, env)


class Program:
    """A program started (in a namespace), its standard output read line by line (:meth:`expect`),
    its standard error kept in ``log``; :meth:`kill` is kill -9."""

    def __init__(self, argv: list[str], log: Path, env: dict[str, str] | None = None) -> None:
        self.log = log
        self._err = open(log, "ab")
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._err,
                                     env={**os.environ, **(env or {})}, start_new_session=True, text=True)
        self.lines: "queue.Queue[str | None]" = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def expect(self, prefix: str, timeout: float = 10.0) -> str:
        """The rest of the next line that starts with ``prefix`` (the lines before it read past)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                line = ""
            if not line or line is None:
                if line is None:
                    self.lines.put(None)           # (ended: said again to the next expect)
                elif time.monotonic() < deadline:
                    continue
                raise AssertionError(f"no line {prefix!r} ({'it ended' if line is None else 'timed out'}); "
                                     f"read: {self.seen[-8:]}; its errors: {self.errors()}")
            self.seen.append(line)
            if line.startswith(prefix):
                return line[len(prefix):].strip()

    def errors(self, most: int = 1500) -> str:
        """The end of what it wrote to its standard error (``most`` characters; 0: all)."""
        try:
            return self.log.read_text(errors="replace")[-most:]
        except OSError:
            return ""

    def close_input(self) -> None:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        except OSError:
            pass

    def wait(self, timeout: float = 10.0) -> int:
        return self.proc.wait(timeout)

    def kill(self) -> None:
        """kill -9 (its whole group), and reaped."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            pass
        self._err.close()
