"""Masters of Renaissance: the game client.

Run ``python main.py`` (or double-click it) to open the window at the title page, or
``python main.py --screenshot out.png`` to render the title page to a PNG and exit
(no display needed). ``--size WxH`` sets the window size (the saved setting otherwise).
The installed game runs the same code as ``mor`` (:mod:`game.launcher`).

Started by a Python that lacks the game's libraries, it sets up ``.venv`` beside this file
(once) and restarts inside it (:mod:`game.bootstrap`). A Python older than 3.11 gets a clear
message instead.

The bots think in worker processes spawned from this program: ``multiprocessing.freeze_support()``
comes first under ``__main__`` (in the one-file executable a worker is this program started again).

This file must stay readable by old Pythons, so that they can say they are too old: no syntax
newer than Python 2.7 / 3.0 here (no f-strings, no annotations, no walrus).
"""
import os
import sys

MIN_PYTHON = (3, 11)


def too_old(version_info):
    """The message for a Python older than :data:`MIN_PYTHON`, or None."""
    if tuple(version_info[:2]) >= MIN_PYTHON:
        return None
    return ("Masters of Renaissance needs Python %d.%d or newer; this is Python %d.%d (%s).\n"
            "Install a newer Python from https://www.python.org/downloads/ and open the game with it."
            % (MIN_PYTHON[0], MIN_PYTHON[1], version_info[0], version_info[1], sys.executable))


def _say(message):
    sys.stderr.write(message + "\n")
    try:
        try:
            import tkinter as tk
            from tkinter import messagebox
        except ImportError:
            import Tkinter as tk
            import tkMessageBox as messagebox
        root = tk.Tk()
        root.withdraw()
        messagebox.showerror("Masters of Renaissance", message)
        root.destroy()
    except Exception:
        pass


def run():
    message = too_old(sys.version_info)
    if message:
        _say(message)
        return 1
    here = os.path.dirname(os.path.abspath(__file__))
    if here not in sys.path:
        sys.path.insert(0, here)
    from game.bootstrap import ensure_environment
    from pathlib import Path
    ensure_environment(Path(here))
    from game.launcher import main
    return main()


if __name__ == "__main__":
    # First thing: in the one-file executable, a bot's worker process is this same program
    # started again, and this call turns it into the worker (a no-op otherwise; see game.bots.driver).
    import multiprocessing
    multiprocessing.freeze_support()
    sys.exit(run())
