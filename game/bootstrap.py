"""A double-click that works: ``main.py`` run by a Python that lacks the game's libraries.

:func:`ensure_environment` is called by ``main.py`` before anything else of the game is
imported. When every library imports, it returns at once (a second start costs one
``find_spec`` per library). Otherwise it makes ``.venv`` beside ``main.py``, installs the game
into it with pip (showing progress in a small window when tkinter and a display are there, in
the console otherwise) and starts ``main.py`` again inside it. A later start from the same
Python finds the ready ``.venv`` and goes straight there.

This module uses the standard library only. The decision is a pure function (:func:`plan`), so
it is tested without creating anything.
"""
from __future__ import annotations

import importlib.util
import os
import queue
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

REQUIRED = ("pygame", "pygame_gui", "orjson", "platformdirs", "zeroconf", "prompt_toolkit", "openskill",
            "miniupnpc", "cryptography")
"""Top-level modules the game needs (pyproject's dependencies, by import name)."""

STAMP = ".bootstrap-ok"
"""Written in ``.venv`` once the game is installed in it (newer than ``pyproject.toml``)."""

SKIP_ENV = "MOR_NO_BOOTSTRAP"
"""Set to 1 to never create or enter a ``.venv`` (a packager, a system install)."""

REEXEC_ENV = "MOR_BOOTSTRAPPED"
"""Set on the restarted process, so that a broken ``.venv`` is reported instead of looping."""


def missing_modules(names: Iterable[str] = REQUIRED) -> list[str]:
    """The modules of ``names`` this Python cannot import (by finding them, not importing)."""
    out = []
    for name in names:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            out.append(name)
    return out


def venv_python(venv: Path) -> Path:
    """The interpreter of a virtual environment (``pythonw`` on Windows: no console window)."""
    if os.name == "nt":
        scripts = venv / "Scripts"
        gui = scripts / "pythonw.exe"
        return gui if gui.exists() else scripts / "python.exe"
    return venv / "bin" / "python"


def venv_ready(root: Path) -> bool:
    """Whether ``root/.venv`` holds an installed game at least as new as ``pyproject.toml``."""
    venv = root / ".venv"
    stamp = venv / STAMP
    if not venv_python(venv).exists() or not stamp.exists():
        return False
    try:
        return stamp.stat().st_mtime >= (root / "pyproject.toml").stat().st_mtime
    except OSError:
        return False


@dataclass(frozen=True)
class Plan:
    action: str          # "run" (go on here), "enter" (restart in .venv), "install", "fail"
    reason: str = ""


def plan(missing: Sequence[str], *, root: Path, in_venv: bool, ready: bool, frozen: bool = False,
         skip: bool = False, reexecuted: bool = False) -> Plan:
    """What ``main.py`` must do before the game can start."""
    if frozen or skip or not missing:
        return Plan("run")
    if in_venv or reexecuted:
        return Plan("fail", f"The game's libraries are missing ({', '.join(missing)}) in {sys.prefix}. "
                            f"Delete the folder {root / '.venv'} and start the game again, or run "
                            f"'make venv' in {root}.")
    if not (root / "pyproject.toml").exists():
        return Plan("fail", f"The game's libraries are missing ({', '.join(missing)}) and this copy of "
                            f"the game has no pyproject.toml to install them from.")
    return Plan("enter") if ready else Plan("install")


def _in_venv(root: Path) -> bool:
    try:
        return Path(sys.prefix).resolve() == (root / ".venv").resolve()
    except OSError:
        return False


def ensure_environment(root: Path, argv: Sequence[str] | None = None) -> None:
    """Make sure the game can start from ``root`` (the folder of ``main.py``); may restart the
    process inside ``root/.venv``, or exit with a message. Returns only when the game can run."""
    missing = missing_modules()
    if not missing:
        return
    p = plan(missing, root=root, in_venv=_in_venv(root), ready=venv_ready(root),
             frozen=bool(getattr(sys, "frozen", False)), skip=os.environ.get(SKIP_ENV) == "1",
             reexecuted=os.environ.get(REEXEC_ENV) == "1")
    if p.action == "run":
        return
    if p.action == "fail":
        tell(p.reason, title="Masters of Renaissance cannot start")
        sys.exit(1)
    if p.action == "install":
        ok, detail = install(root)
        if not ok:
            tell("The game could not set itself up:\n\n" + detail, title="Masters of Renaissance cannot start")
            sys.exit(1)
    restart_in_venv(root, argv if argv is not None else sys.argv)


def restart_in_venv(root: Path, argv: Sequence[str]) -> None:
    python = str(venv_python(root / ".venv"))
    env = dict(os.environ, **{REEXEC_ENV: "1"})
    args = [python, str(root / "main.py"), *argv[1:]]
    if os.name == "nt":                 # execv does not replace the process there
        sys.exit(subprocess.call(args, env=env))
    os.execve(python, args, env)


# ---------------------------------------------------------------------------- installing
def install_commands(root: Path) -> list[list[str]]:
    """The commands that set up ``root/.venv``: the environment, then the game in it."""
    venv = root / ".venv"
    py = venv_python(venv)
    if os.name == "nt" and py.name == "pythonw.exe":
        py = py.with_name("python.exe")
    return [[sys.executable, "-m", "venv", str(venv)],
            [str(py), "-m", "pip", "install", "--disable-pip-version-check", "-e", str(root)]]


def install(root: Path, show: Callable[[str], None] | None = None) -> tuple[bool, str]:
    """Create ``root/.venv`` and install the game in it; progress in a window or the console.

    Returns (ok, the last lines of output when not ok)."""
    steps = install_commands(root)
    lines: "queue.Queue[str | None]" = queue.Queue()
    result: dict[str, object] = {}

    def work() -> None:
        tail: list[str] = []
        for i, cmd in enumerate(steps):
            lines.put(("Preparing a place for the game\u2026", "Downloading and installing pygame and "
                       "the other libraries (once only)\u2026")[min(i, 1)])
            try:
                proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        errors="replace", cwd=str(root))
            except OSError as e:
                result["ok"], result["detail"] = False, f"{' '.join(cmd)}: {e}"
                lines.put(None)
                return
            assert proc.stdout is not None
            for line in proc.stdout:
                line = line.rstrip()
                if line:
                    tail = (tail + [line])[-12:]
                    lines.put(line)
            if proc.wait() != 0:
                hint = ""
                if i == 0:
                    hint = ("\n\nThis Python cannot make virtual environments. On Debian or Ubuntu, "
                            "install the package python3-venv (sudo apt install python3-venv).")
                result["ok"], result["detail"] = False, "\n".join(tail) + hint
                lines.put(None)
                return
        (root / ".venv" / STAMP).write_text(time.strftime("%Y-%m-%d %H:%M:%S\n"), encoding="utf-8")
        result["ok"], result["detail"] = True, ""
        lines.put(None)

    worker = threading.Thread(target=work, name="mor-install", daemon=True)
    worker.start()
    if show is not None:
        _pump(lines, show)
    elif not _window(lines):
        _pump(lines, _console)
    worker.join()
    return bool(result.get("ok")), str(result.get("detail", ""))


def _pump(lines: "queue.Queue[str | None]", show: Callable[[str], None]) -> None:
    while True:
        line = lines.get()
        if line is None:
            return
        show(line)


def _console(line: str) -> None:
    print(line if line.endswith("\u2026") else "  " + line[:150], flush=True)


def _window(lines: "queue.Queue[str | None]") -> bool:
    """Show the progress in a small tkinter window until the queue ends; False if no window
    can be opened (no tkinter, or no display)."""
    try:
        import tkinter as tk
        from tkinter import ttk
        root = tk.Tk()
    except Exception:
        return False
    root.title("Masters of Renaissance")
    root.configure(padx=24, pady=18, background="#f6ecd4")
    root.resizable(False, False)
    head = tk.Label(root, text="Setting up the game (the first start only)", font=("TkDefaultFont", 13, "bold"),
                    background="#f6ecd4", foreground="#34200f")
    head.pack(anchor="w")
    step = tk.Label(root, text="", background="#f6ecd4", foreground="#34200f", wraplength=460, justify="left")
    step.pack(anchor="w", pady=(8, 4))
    bar = ttk.Progressbar(root, mode="indeterminate", length=460)
    bar.pack(pady=6)
    bar.start(12)
    detail = tk.Label(root, text="", background="#f6ecd4", foreground="#62422a", wraplength=460,
                      justify="left", font=("TkDefaultFont", 9))
    detail.pack(anchor="w")
    done = {"v": False}

    def poll() -> None:
        try:
            while True:
                line = lines.get_nowait()
                if line is None:
                    done["v"] = True
                    root.destroy()
                    return
                if line.endswith("\u2026"):
                    step.configure(text=line)
                else:
                    detail.configure(text=line[:120])
                _console(line)
        except queue.Empty:
            pass
        root.after(80, poll)

    root.after(80, poll)
    root.protocol("WM_DELETE_WINDOW", lambda: None)   # closing it would leave half an install
    root.mainloop()
    if not done["v"]:
        _pump(lines, _console)
    return True


# ---------------------------------------------------------------------------- telling
def tell(message: str, title: str = "Masters of Renaissance") -> None:
    """Say something that stops the game: on standard error, and in a dialog when possible."""
    sys.stderr.write(message + "\n")
    try:
        import tkinter as tk
        from tkinter import messagebox
        root = tk.Tk()
        root.withdraw()
        messagebox.showerror(title, message)
        root.destroy()
    except Exception:
        pass
