"""Render every client scene to PNG, headless: ``python tools/screenshots.py [OUT_DIR]``.

Games are played by the engine's random policy to a mid-game position, then shown through the
same session/view-model path the real client uses. Writes ``docs/screenshots/*.png`` by default.
"""
from __future__ import annotations

import os
import random
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.netcode.protocol import visible_to  # noqa: E402
from game.rules import Game, default_config, player_view  # noqa: E402
from game.rules.playout import steps  # noqa: E402


class TableMatch:
    """An in-process game seen by one of its players; the others are played by the random policy."""

    def __init__(self, game: Game, nickname: str) -> None:
        self.game, self.nickname = game, nickname
        self.out = [player_view(game, nickname)]

    def send(self, request) -> None:
        from game.rules.errors import GameError
        try:
            events = self.game.apply(self.nickname, request)
        except GameError as e:
            self.out.append(e.to_dict())
            return
        self.out += [e for e in events if visible_to(e, self.nickname)]

    def poll(self):
        out, self.out = self.out, []
        return out

    def close(self) -> None:
        pass


def mid_game(nicks: list[str], seed: int, moves: int) -> Game:
    """A game after about ``moves`` random requests, stopped at the start of the first player's
    turn; seeds whose game ends earlier are skipped."""
    for s in range(seed, seed + 50):
        g = Game.new(default_config(), nicks, s)
        rng = random.Random(s)
        for i, (nick, action) in enumerate(steps(g, rng)):
            g.apply(nick, action)
            if i >= moves and g.phase == "play" and g.current_player.nickname == nicks[0] and not g.main_done:
                return g
    raise RuntimeError("no seed gave a long enough game")


def session_for(game: Game, nickname: str):
    from game.scenes.session import GameSession
    s = GameSession(TableMatch(game, nickname), default_config(), nickname)
    s.pump()
    return s


def shoot_board(app, game: Game, nickname: str, path: Path, hover=None) -> None:
    from game.scenes.board import BoardScene
    scene = BoardScene(app, session_for(game, nickname))
    app.stack.reset(scene)
    app.frame(0.016)
    if hover is not None:
        import pygame
        app.frame(0.016, [pygame.event.Event(pygame.MOUSEMOTION, pos=hover, rel=(0, 0), buttons=(0, 0, 0))])
    app.frame(0.016)
    app.screenshot(path)


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    from game.scenes.app import App
    sizes = [(1280, 800)]
    for size in sizes:
        app = App(headless=True, size=size)
        solo = mid_game(["Ada"], 7, 40)
        shoot_board(app, solo, "Ada", out / "board-solo.png")
        four = mid_game(["Ada", "Bruno", "Cora", "Dario"], 11, 120)
        shoot_board(app, four, "Ada", out / "board-4-players.png")
    print(f"wrote {sorted(p.name for p in out.glob('*.png'))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
