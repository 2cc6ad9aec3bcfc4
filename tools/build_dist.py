#!/usr/bin/env python3
"""Build the game as one executable file with PyInstaller (``make dist``).

Writes, under ``dist/``:

* ``masters-of-renaissance`` (``.exe`` on Windows): the whole game in one file (Python, pygame-ce,
  pygame_gui, zeroconf, our ``config/`` and ``assets/`` with the fonts). It runs from any
  directory: ``dist/masters-of-renaissance --screenshot /tmp/title.png`` works without a display.
* ``masters-of-renaissance.png``: the window icon (drawn by :func:`game.scenes.app.window_icon`),
  256 px.
* ``masters-of-renaissance.desktop`` (Linux): a desktop entry pointing at both, to copy into
  ``~/.local/share/applications/``.

Usage: ``python tools/build_dist.py`` (from the repository, in its ``.venv`` with PyInstaller).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAME = "masters-of-renaissance"


def render_icon(path: Path, size: int = 256) -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    sys.path.insert(0, str(ROOT))
    import pygame
    pygame.init()
    pygame.display.set_mode((1, 1))
    from game.scenes.app import window_icon
    pygame.image.save(window_icon(size), str(path))


def desktop_entry(binary: Path, icon: Path) -> str:
    return "\n".join([
        "[Desktop Entry]",
        "Type=Application",
        "Name=Masters of Renaissance",
        "GenericName=Board game",
        "Comment=Play Masters of Renaissance solo against Lorenzo, or with friends on your network",
        f"Exec=\"{binary}\" %u",   # a game link opened on the desktop (mor://...) comes as the argument
        "MimeType=x-scheme-handler/mor;",
        f"Icon={icon}",
        "Terminal=false",
        "Categories=Game;BoardGame;",
        "StartupWMClass=Masters of Renaissance",
        "",
    ])


def main() -> int:
    dist, build = ROOT / "dist", ROOT / "build" / "pyinstaller"
    dist.mkdir(exist_ok=True)
    icon = dist / f"{NAME}.png"
    render_icon(icon)
    sep = os.pathsep
    cmd = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--onefile", "--windowed",
           "--name", NAME, "--distpath", str(dist), "--workpath", str(build), "--specpath", str(build),
           "--add-data", f"{ROOT / 'config'}{sep}config", "--add-data", f"{ROOT / 'assets'}{sep}assets",
           "--add-data", f"{ROOT / 'game' / 'locale'}{sep}game/locale",
           "--collect-submodules", "game", "--collect-data", "pygame_gui",
           "--collect-submodules", "zeroconf", "--collect-submodules", "pygame_gui",
           "--exclude-module", "tkinter", "--exclude-module", "pytest", "--exclude-module", "hypothesis",
           str(ROOT / "main.py")]
    if sys.platform == "win32":
        cmd[cmd.index("--name"):cmd.index("--name")] = ["--icon", str(icon)]
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, cwd=ROOT)
    binary = dist / (NAME + (".exe" if sys.platform == "win32" else ""))
    if sys.platform.startswith("linux"):
        entry = dist / f"{NAME}.desktop"
        entry.write_text(desktop_entry(binary.resolve(), icon.resolve()), encoding="utf-8")
        entry.chmod(0o755)
    shutil.rmtree(build, ignore_errors=True)
    size = binary.stat().st_size / 2 ** 20
    print(f"dist: {binary} ({size:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
