"""The game client's command line: ``python main.py`` or the installed ``mor``.

It opens the window at the title page, or with ``--screenshot out.png`` renders the title page
to a PNG and exits (no display needed). ``--size WxH`` sets the window size (the saved setting
otherwise).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

DEFAULT_SCREENSHOT_SIZE = (1280, 800)
MAX_SIDE = 8192
"""The longest side ``--size`` takes (an 8K screen is 7680 wide)."""


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT, got {text!r}") from None
    if w < 320 or h < 200:
        raise argparse.ArgumentTypeError("the window must be at least 320x200")
    if w > MAX_SIDE or h > MAX_SIDE:   # SDL cannot make the surface: "Out of memory" and a traceback
        raise argparse.ArgumentTypeError(f"the window must be at most {MAX_SIDE}x{MAX_SIDE}")
    return w, h


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="mor", description="Play Masters of Renaissance.")
    parser.add_argument("--screenshot", metavar="PATH", type=Path,
                        help="render the title page to this PNG file and exit (headless)")
    parser.add_argument("--size", metavar="WxH", type=_size, default=None,
                        help="window size in pixels (default: the saved setting, 1280x800 at first)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.screenshot is not None:
        # A screenshot never needs a real screen or a sound card.
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")

    from game.scenes.app import App
    from game.scenes.menus import TitleScene

    if args.screenshot is not None:
        app = App(headless=True, size=args.size or DEFAULT_SCREENSHOT_SIZE)
        try:
            app.stack.push(TitleScene(app))
            for _ in range(2):          # let pygame_gui lay its widgets out
                app.frame(1 / 60)
            args.screenshot.parent.mkdir(parents=True, exist_ok=True)
            app.screenshot(args.screenshot)
        finally:
            app.shutdown()
        return 0

    app = App(size=args.size)
    app.run(TitleScene(app))
    return 0


if __name__ == "__main__":
    sys.exit(main())
