"""Masters of Renaissance: the game client.

Run ``python main.py`` to open the window, or
``python main.py --screenshot out.png`` to render one frame to a PNG and exit
(no display needed).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
FONTS_DIR = ROOT / "assets" / "fonts"
CAPTION = "Masters of Renaissance"
DEFAULT_SIZE = (1280, 800)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT, got {text!r}") from None
    if w < 320 or h < 200:
        raise argparse.ArgumentTypeError("the window must be at least 320x200")
    return w, h


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="mor", description="Play Masters of Renaissance.")
    parser.add_argument("--screenshot", metavar="PATH", type=Path,
                        help="render one frame to this PNG file and exit (headless)")
    parser.add_argument("--size", metavar="WxH", type=_size, default=DEFAULT_SIZE,
                        help="window size in pixels (default: %(default)s)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.screenshot is not None:
        # A screenshot never needs a real screen or a sound card.
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

    import pygame

    from game.scenes.title_placeholder import TitlePlaceholder

    pygame.init()
    try:
        pygame.display.set_caption(CAPTION)
        screen = pygame.display.set_mode(args.size, pygame.RESIZABLE)
        scene = TitlePlaceholder(FONTS_DIR)

        if args.screenshot is not None:
            scene.draw(screen)
            args.screenshot.parent.mkdir(parents=True, exist_ok=True)
            pygame.image.save(screen, args.screenshot)
            return 0

        clock = pygame.time.Clock()
        while True:
            for event in pygame.event.get():
                if event.type == pygame.QUIT:
                    return 0
                if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                    return 0
            screen = pygame.display.get_surface()
            scene.draw(screen)
            pygame.display.flip()
            clock.tick(30)
    finally:
        pygame.quit()


if __name__ == "__main__":
    sys.exit(main())
