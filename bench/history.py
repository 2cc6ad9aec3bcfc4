"""What a returning player costs: the whole history of a 4-player game, told and shown.

A 4-player game is played by the medium bot (seeded) and stopped a few moves before its end.
Then, as for a player who rejoins (or resumes):

* the server's side: ``recent_history`` (the game replayed for that player) and its
  ``UpdateHistory`` lines (``history_calls``, ``history_messages``, ``history_bytes``,
  ``history_lines``, ``history_replay_ms``);
* the client's side: the session tells the history in words (``tell_ms``, ``log_lines``);
* the board at 1600x900 (dummy video driver) with that log: the first frame (every picture drawn
  for the first time, every line wrapped), ``board_first_frame_ms``; the whole log wrapped with
  no cache, ``log_wrap_all_ms`` (``log_rows`` rows); a new line arriving (the log re-wrapped from its cache, the
  board redrawn), ``new_line_frame_p50_ms``/``new_line_frame_p95_ms``; the wheel scrolling back
  through the whole log, ``scroll_frame_p95_ms``.

Times are the process's CPU time (``time.process_time``), so that a loaded machine does not
inflate them. Prints readable lines, then as its LAST line one JSON object. Targets: telling and the first
frame well under a second; a new line or a scroll within the board's frame budget (p95 <= 8 ms).
``--quick``: a quarter of the frames, to check that the bench runs (not figures to compare).
"""
from __future__ import annotations

import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("MOR_CONFIG_DIR", tempfile.mkdtemp())
os.environ.setdefault("MOR_DATA_DIR", os.environ["MOR_CONFIG_DIR"])
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import orjson  # noqa: E402

from game.bots import make_bot  # noqa: E402
from game.match import Match  # noqa: E402
from game.netcode.history import history_lines, recent_history  # noqa: E402
from game.rules import default_config  # noqa: E402
from game.rules.engine import Game  # noqa: E402
from game.rules.views import player_view  # noqa: E402

NICKS = ["Ada", "Bruno", "Cora", "Dario"]


def played_game(seed: int = 7) -> Game:
    cfg = default_config()
    g = Game.new(cfg, NICKS, seed)
    bot = make_bot("medium", cfg)
    rng = random.Random(seed)
    while not g.ended:
        nick = (next(p.nickname for p in g.players if not (p.chose_leaders and p.chose_resources))
                if g.phase == "setup" else g.current_player.nickname)
        g.apply(nick, bot.decide(player_view(g, nick), nick, rng).action)
    return Game.replay(cfg, NICKS, seed, g.history[:-6])    # a few moves before the end


class Returning(Match):
    """A match that hands a returning player their game and its whole history, then stays quiet."""

    def __init__(self, game: Game, nickname: str) -> None:
        self.out = [player_view(game, nickname), *history_lines(*recent_history(game, nickname))]

    def poll(self):
        out, self.out = self.out, []
        return out

    def send(self, request) -> None:
        pass

    def close(self) -> None:
        pass


def main() -> None:
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="a few frames of each kind: a check that the bench runs, not figures to compare")
    args = ap.parse_args()
    frames = 15 if args.quick else 60      # new lines; twice as many wheel steps
    import pygame

    from game.scenes.app import App
    from game.scenes.catalog import register_scenes
    register_scenes()
    from game.scenes.board import BoardScene
    from game.client.session import GameSession

    game = played_game()
    me = "Bruno"
    t = time.process_time()
    messages, skipped = recent_history(game, me)
    replay_ms = (time.process_time() - t) * 1000
    lines = history_lines(messages, skipped)
    figures: dict[str, float] = {
        "history_calls": len(game.history), "history_messages": len(messages),
        "history_bytes": sum(len(orjson.dumps(x)) + 1 for x in lines), "history_lines": len(lines),
        "history_replay_ms": round(replay_ms, 1),
    }
    session = GameSession(Returning(game, me), default_config(), me)
    t = time.process_time()
    session.pump()
    figures["tell_ms"] = round((time.process_time() - t) * 1000, 1)
    figures["log_lines"] = len(session.log)
    app = App(headless=True, size=(1600, 900))
    scene = BoardScene(app, session)
    app.stack.push(scene)
    t = time.process_time()
    app.frame(0.016)
    figures["board_first_frame_ms"] = round((time.process_time() - t) * 1000, 1)
    app.frame(5.0)
    from game.scenes.panels import log as log_panel
    log_panel._wrap.cache_clear()
    scene.log._rows_key = None
    t = time.process_time()
    rows = scene.log.rows(scene.context())
    figures["log_wrap_all_ms"] = round((time.process_time() - t) * 1000, 1)
    figures["log_rows"] = len(rows)
    new_line = []
    for i in range(frames):
        session.log.append(f"Line {i}: Cora took row 2 from the market: 2 Coin, 1 Shield and 1 Faith, and "
                           f"stored them on her shelves.")
        session.version += 1
        t = time.process_time()
        app.frame(0.016)
        new_line.append((time.process_time() - t) * 1000)
    app.frame(5.0)
    log_rect = scene.layout.log
    app.frame(0.016, [pygame.event.Event(pygame.MOUSEMOTION, pos=log_rect.center, rel=(0, 0), buttons=(0, 0, 0))])
    scroll = []
    for _ in range(2 * frames):
        t = time.process_time()
        app.frame(0.016, [pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False,
                                             precise_x=0.0, precise_y=1.0)])
        scroll.append((time.process_time() - t) * 1000)
    assert scene.log_scroll > 0, "the wheel did not scroll the log"
    new_line.sort()
    scroll.sort()
    figures["new_line_frame_p50_ms"] = round(statistics.median(new_line), 2)
    figures["new_line_frame_p95_ms"] = round(new_line[int(len(new_line) * 0.95) - 1], 2)
    figures["scroll_frame_p95_ms"] = round(scroll[int(len(scroll) * 0.95) - 1], 2)
    for k, v in figures.items():
        print(f"{k:>24}: {v}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
