"""The text client run in a real pseudo-terminal, read line by line as a screen reader reads it.

Its games are dealt from ``seed`` (``MOR_SEED``: every test that plays a game seeds it), and it
keeps the test's settings and saves (the kit's ``dirs`` fixture put them in the environment)."""
from __future__ import annotations

import os
import pty
import select
import signal
import sys
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def no_echo() -> None:
    """The terminal (this process's, on the pty) echoes no typed line. What a test types while the
    program writes (a line typed ahead) was echoed by the terminal at that moment, anywhere in
    the program's output: in the middle of a line, just before its end (the kernel writes a line
    and its end separately), so that the line a test read was not the program's. Programs with a
    line editor show what is typed themselves (raw mode), as before."""
    attrs = termios.tcgetattr(0)
    attrs[3] &= ~termios.ECHO
    termios.tcsetattr(0, termios.TCSANOW, attrs)


class PtyProgram:
    """``python -m game.text.terminal ARGS`` on a pty, its games dealt from ``seed``: :meth:`expect`
    waits for a line, :meth:`send` types, :meth:`quit` leaves from the main menu. ``env`` is added
    to this process's environment."""

    def __init__(self, args: list[str], *, seed: int, env: dict[str, str] | None = None,
                 module: str = "game.text.terminal") -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:   # the child: the text client on the pty (``module``: one that runs it)
            os.chdir(ROOT)
            no_echo()
            os.execve(sys.executable, [sys.executable, "-m", module, *args],
                      {**os.environ, "MOR_SEED": str(seed), **(env or {})})
        self.buffer = ""
        self.lines: list[str] = []     # every complete line read so far
        self.read = 0                  # lines already matched by expect
        self.sent: list[str] = []      # every line typed

    def _fill(self, deadline: float) -> bool:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        ready, _, _ = select.select([self.fd], [], [], left)
        if not ready:
            return False
        try:
            chunk = os.read(self.fd, 65536).decode("utf-8", "replace")
        except OSError:         # the child has gone
            return False
        if not chunk:
            return False
        self.buffer += chunk.replace("\r\n", "\n")
        *done, self.buffer = self.buffer.split("\n")
        self.lines += done
        return True

    def expect(self, *needles: str, timeout: float = 10.0) -> str:
        """The first new line containing one of ``needles`` (every line before it is read past)."""
        deadline = time.monotonic() + timeout
        while True:
            while self.read < len(self.lines):
                line = self.lines[self.read]
                self.read += 1
                if any(n in line for n in needles):
                    return line
            if not self._fill(deadline):
                raise AssertionError(f"none of {needles} within {timeout} s; last lines: {self.lines[-15:]}")

    def prompted(self, timeout: float = 10.0) -> None:
        """Wait until a line editor's prompt is up (prompt_toolkit turns bracketed paste on)."""
        deadline = time.monotonic() + timeout
        while "\x1b[?2004h" not in self.buffer:
            if not self._fill(deadline):
                raise AssertionError(f"no prompt within {timeout} s; last lines: {self.lines[-5:]}")
        self.buffer = self.buffer.replace("\x1b[?2004h", "")

    def type_line(self, text: str) -> None:
        """Wait for the line editor's prompt, then type ``text`` and Enter (a carriage return, as
        a terminal's key sends it)."""
        self.prompted()
        os.write(self.fd, (text + "\r").encode())

    def send(self, *lines: str) -> None:
        for line in lines:
            self.sent.append(line)
            os.write(self.fd, (line + "\n").encode())

    def wait(self, timeout: float = 10.0) -> int:
        """The exit status, once the program ends (read to the end meanwhile)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                try:
                    while self._fill(time.monotonic() + 0.05):
                        pass
                finally:
                    os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            self._fill(min(deadline, time.monotonic() + 0.1))
        self.kill()
        raise AssertionError(f"still running after {timeout} s; last lines: {self.lines[-15:]}")

    def quit(self) -> None:
        """From the main menu: quit, the goodbye said, and the program ended with status 0."""
        self.send("quit")
        self.expect("Goodbye.")
        assert self.wait() == 0

    def leave_and_quit(self) -> None:
        """From a game or a waiting room: leave for the main menu, then :meth:`quit`."""
        self.send("leave")
        self.expect("Main menu")
        self.quit()

    def __enter__(self) -> "PtyProgram":
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()

    def kill(self) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except OSError:
            pass
        try:
            os.close(self.fd)
        except OSError:
            pass
