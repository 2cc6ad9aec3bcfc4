"""The game client's command line: ``python main.py`` or the installed ``mor``.

It opens the window at the title page, or with ``--screenshot out.png`` renders the title page
to a PNG and exits (no display needed). ``mor mor://HOST:PORT[/CODE]`` opens a game link (see
:mod:`game.client.links`): the window starts at the Join page with the link in its address field;
a bad link is refused in words on stderr and nothing is started. ``--size WxH`` sets the window size (the saved setting
otherwise). ``--check-bots N`` plays N moves of three hard computer players headless and prints,
as JSON, whether they thought in a worker process (``tools/dist_smoke.sh`` runs it on the built
executable, where that needs ``multiprocessing.freeze_support()``).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path
from typing import Any

from game import i18n
from game.i18n import LANGUAGES, _
from game.i18n.cli import speak_argparse

DEFAULT_SCREENSHOT_SIZE = (1280, 800)
MAX_SIDE = 8192
"""The longest side ``--size`` takes (an 8K screen is 7680 wide)."""


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(_("expected WIDTHxHEIGHT, got {text}").format(text=repr(text))) from None
    if w < 320 or h < 200:
        raise argparse.ArgumentTypeError(_("the window must be at least 320x200"))
    if w > MAX_SIDE or h > MAX_SIDE:   # SDL cannot make the surface: "Out of memory" and a traceback
        raise argparse.ArgumentTypeError(_("the window must be at most {side}x{side}").format(side=MAX_SIDE))
    return w, h


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    speak_argparse()
    parser = argparse.ArgumentParser(prog="mor", description=_("Play Masters of Renaissance."))
    parser.add_argument("--screenshot", metavar="PATH", type=Path,
                        help=_("render the title page to this PNG file and exit (headless)"))
    parser.add_argument("--size", metavar="WxH", type=_size, default=None,
                        help=_("window size in pixels (default: the saved setting, 1280x800 at first)"))
    parser.add_argument("--text", action="store_true",
                        help=_("play in this terminal by typed commands (the text client, as mor-text; "
                               "mor-text --help lists its options, which follow --text)"))
    parser.add_argument("link", nargs="?", metavar="LINK",
                        help=_("a game link a host sent, as mor://203.0.113.7:51015 (or .../CODE for a private "
                               "table): open the Join page with it filled in"))
    parser.add_argument("--lang", choices=sorted(LANGUAGES), default=None,
                        help=_("the language the game speaks (default: the saved setting, else the system's)"))
    parser.add_argument("--check-bots", metavar="MOVES", type=int, default=None,
                        help=_("check the computer players: play MOVES of their moves against three hard bots "
                               "(headless, nothing saved), print where they thought as JSON and exit"))
    return parser.parse_args(argv)


def check_bots(moves: int, level: str = "hard") -> dict:
    """Play a game against three ``level`` bots until they have made ``moves`` moves (or it ends),
    the player's own moves chosen by the easy bot here. Where did the bots think? ``mode`` is
    ``"processes"`` when they thought in a worker process (``pids``: the processes whose answers
    were applied), ``"threads"`` when processes could not start (``why``)."""
    import time

    from game.bots.driver import due, make_job, think
    from game.match import BotMatch
    from game.rules.components import default_config
    config = default_config()
    t0 = time.perf_counter()
    match = BotMatch(config, "Checker", [level] * 3, seed=1, pace=0.0)
    try:
        deadline = time.monotonic() + 60 + 10 * moves
        while match.bot_moves < moves and not match.game.ended and not match.retired:
            if time.monotonic() > deadline:
                break
            if due(match.game, {match.nickname: "easy"}):
                match.send(think(make_job(match.game, match.nickname, "easy"), config).action)
            else:
                time.sleep(0.01)
            match.poll()
        return {"bot_moves": match.bot_moves, "mode": match.bot_mode, "pids": sorted(match.decided_in),
                "this_pid": os.getpid(), "why": match.why_threads, "retired": match.retired,
                "seconds": round(time.perf_counter() - t0, 2)}
    finally:
        match.close()


def main(argv: list[str] | None = None) -> int:
    raw = sys.argv[1:] if argv is None else list(argv)
    if "--text" in raw:                # the text client takes the rest of the line
        from game.text.terminal import main as text_main
        return text_main([a for a in raw if a != "--text"])
    from game.settings import Settings
    i18n.use(Settings.load().language)     # the saved choice, else the system's (--help is said in it)
    args = parse_args(argv)
    link = None
    if args.link is not None:
        from game.client.links import LinkError, parse_link
        try:
            link = parse_link(args.link)
        except LinkError as e:
            print("mor: " + _("this link cannot be opened. {why}").format(why=e), file=sys.stderr)
            return 2
    if args.check_bots is not None:
        import json
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
        report = check_bots(max(1, args.check_bots))
        print(json.dumps(report), flush=True)
        ok = (report["mode"] == "processes" and report["bot_moves"] >= max(1, args.check_bots)
              and os.getpid() not in report["pids"])
        return 0 if ok else 1
    if args.screenshot is not None:
        # A screenshot never needs a real screen or a sound card.
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")

    from game.scenes.app import App
    from game.scenes.catalog import register_scenes
    register_scenes()                  # every screen, by name, once

    if args.screenshot is not None:
        app = App(headless=True, size=args.size or DEFAULT_SCREENSHOT_SIZE, language=args.lang)
        try:
            app.stack.push(app.scene("title"))
            for _frame in range(2):          # let pygame_gui lay its widgets out
                app.frame(1 / 60)
            args.screenshot.parent.mkdir(parents=True, exist_ok=True)
            app.screenshot(args.screenshot)
        finally:
            app.shutdown()
        return 0

    app = App(size=args.size, language=args.lang)
    from game import runtime
    runtime.settle_collector()        # the window, its pictures and the rules are loaded
    app.run(first_scene(app, link))
    return 0


def first_scene(app: Any, link: Any = None) -> Any:
    """The page the window opens at: the title, or, for a game ``link``, the Join page with the
    link in its address field (the title under it, for Back)."""
    if link is None:
        return app.scene("title")
    app.stack.push(app.scene("title"))
    return app.scene("join", link=link)


if __name__ == "__main__":
    import multiprocessing
    multiprocessing.freeze_support()   # a frozen bot worker process stops here (see main.py)
    sys.exit(main())
