"""Render every piece of procedural art onto parchment sheets and save them as PNGs.

Usage: ``python tools/gallery.py [OUT_PREFIX]`` (default ``/tmp/art-gallery``), which writes
``OUT_PREFIX-pieces.png``, ``-dev180.png``, ``-leaders180.png``, ``-small60.png``, ``-large360.png``.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygame  # noqa: E402

from game.rules import Game, default_config, player_view  # noqa: E402
from game.scenes import art  # noqa: E402
from game.scenes.art.palette import OXBLOOD  # noqa: E402


def _message() -> dict:
    g = Game.new(default_config(), ["Ada"], 1)
    return player_view(g, "Ada")


def _label(sheet: pygame.Surface, text: str, pos, size: int = 22, color=OXBLOOD) -> None:
    sheet.blit(art.render(text, size, color, "caps"), pos)


def _grid(sheet, surfaces, x0, y0, cols, gap=12):
    x, y, rowh = x0, y0, 0
    for i, s in enumerate(surfaces):
        if i and i % cols == 0:
            x, y = x0, y + rowh + gap
            rowh = 0
        sheet.blit(s, (x, y))
        x += s.get_width() + gap
        rowh = max(rowh, s.get_height())
    return y + rowh


def pieces(msg: dict) -> pygame.Surface:
    sheet = art.parchment(1600, 1300).copy()
    _label(sheet, "Resources", (30, 20))
    x = 30
    for name in ("Coin", "Servant", "Shield", "Stone", "Faith", "Any"):
        for s, dy in ((20, 0), (32, 26), (56, 64), (110, 126)):
            sheet.blit(art.resource_icon(name, s), (x, 56 + dy))
        x += 130
    _label(sheet, "Marbles", (820, 20))
    x = 820
    for kind in ("Zero", "Shield", "Stone", "Coin", "Servant", "Faith"):
        for s, dy in ((20, 0), (32, 26), (56, 64), (110, 126)):
            sheet.blit(art.marble(kind, s), (x, 56 + dy))
        x += 125
    y = 300
    _label(sheet, "Badges, pips, crosses, inkwell, arrows", (30, y))
    x = 30
    for f in (lambda s: art.vp_badge(3, s), lambda s: art.vp_badge(12, s), lambda s: art.level_pips(1, s),
              lambda s: art.level_pips(2, s), lambda s: art.level_pips(3, s), art.black_cross, art.inkwell,
              lambda s: art.arrow("left", s), lambda s: art.arrow("right", s), lambda s: art.arrow("up", s),
              lambda s: art.arrow("down", s)):
        for s, dy in ((24, 0), (48, 30), (80, 84)):
            sheet.blit(f(s), (x, y + 36 + dy))
        x += 100
    y = 520
    _label(sheet, "Lorenzo's tokens", (30, y))
    _grid(sheet, [art.token(t, 120) for t in msg["actionTokens"]] + [art.token(t, 48) for t in msg["actionTokens"]],
          30, y + 36, 7, 14)
    _label(sheet, "Papal favor tiles", (1060, y))
    tiles = [art.favor_tile(vp, st, 84) for st in ("UP", "DOWN", "REMOVED") for vp in (2, 3, 4)]
    _grid(sheet, tiles, 1060, y + 36, 3, 14)
    y = 860
    _label(sheet, "Card backs", (30, y))
    backs = [art.card_back("dev", 180, lv) for lv in (1, 2, 3, None)] + [art.card_back("leader", 180)]
    _grid(sheet, backs, 30, y + 36, 5, 14)
    _label(sheet, "Shelves", (700, y))
    for i, cap in enumerate((1, 2, 3)):
        sheet.blit(art.shelf(cap, 260, 64), (700, y + 36 + i * 76))
    sheet.blit(art.shelf(2, 130, 40), (980, y + 36))
    _label(sheet, "Faith track", (700, y + 280))
    spaces = [art.faith_space(n, 56, 56, pope=n in (8, 16, 24), section=n in (5, 6, 7, 8, 12, 13, 16),
                              vp={3: 1, 6: 2, 9: 4, 12: 6, 15: 9, 16: None, 24: 20}.get(n))
              for n in (0, 3, 5, 6, 7, 8, 9, 12, 16, 24)]
    _grid(sheet, spaces, 700, y + 316, 10, 4)
    _label(sheet, "Panels", (1300, y))
    sheet.blit(art.wood_panel(260, 170), (1300, y + 36))
    sheet.blit(art.wood_panel(260, 120, inset="felt"), (1300, y + 220))
    return sheet


def dev_sheet(msg: dict, height: int) -> pygame.Surface:
    prods = {p["id"]: p for p in msg["productions"]}
    w = art.card_width(height)
    sheet = art.parchment(30 + 12 * (w + 12), 70 + 4 * (height + 12)).copy()
    _label(sheet, f"Development cards at {height} px", (30, 20))
    cards = sorted(msg["developmentCards"], key=lambda c: (["Green", "Blue", "Yellow", "Purple"].index(c["color"]),
                                                           c["level"], c["id"]))
    _grid(sheet, [art.dev_card(c, prods, height) for c in cards], 30, 60, 12)
    return sheet


def leader_sheet(msg: dict, height: int) -> pygame.Surface:
    prods = {p["id"]: p for p in msg["productions"]}
    w = art.card_width(height)
    sheet = art.parchment(30 + 8 * (w + 12), 70 + 4 * (height + 12) + 40).copy()
    _label(sheet, f"Leaders at {height} px (rows 3-4 dimmed)", (30, 20))
    ls = msg["leaderCards"]
    _grid(sheet, [art.leader_card(ld, prods, height) for ld in ls]
          + [art.leader_card(ld, prods, height, dimmed=True) for ld in ls], 30, 60, 8)
    return sheet


def small_sheet(msg: dict, height: int) -> pygame.Surface:
    prods = {p["id"]: p for p in msg["productions"]}
    w = art.card_width(height)
    sheet = art.parchment(30 + 16 * (w + 8), 80 + 5 * (height + 8)).copy()
    _label(sheet, f"Everything at {height} px", (30, 20))
    surfs = [art.dev_card(c, prods, height) for c in msg["developmentCards"]]
    surfs += [art.leader_card(ld, prods, height) for ld in msg["leaderCards"]]
    surfs += [art.card_back("dev", height, lv) for lv in (1, 2, 3)] + [art.card_back("leader", height)]
    _grid(sheet, surfs, 30, 60, 16, 8)
    return sheet


def large_sheet(msg: dict, height: int) -> pygame.Surface:
    prods = {p["id"]: p for p in msg["productions"]}
    w = art.card_width(height)
    devs = {c["id"]: c for c in msg["developmentCards"]}
    leaders = msg["leaderCards"]
    sheet = art.parchment(30 + 5 * (w + 16), 80 + 2 * (height + 16)).copy()
    _label(sheet, f"Enlarged at {height} px", (30, 20))
    surfs = [art.dev_card(devs[i], prods, height) for i in (4, 13, 22, 36, 45)]
    surfs += [art.leader_card(leaders[i], prods, height) for i in (0, 5, 9, 14)] + [art.card_back("dev", height, 2)]
    _grid(sheet, surfs, 30, 60, 5, 16)
    return sheet


def main(argv: list[str]) -> int:
    prefix = argv[1] if len(argv) > 1 else "/tmp/art-gallery"
    pygame.init()
    pygame.display.set_mode((1, 1))
    msg = _message()
    t = time.perf_counter()
    for name, fn in (("pieces", pieces), ("dev180", lambda m: dev_sheet(m, 180)),
                     ("leaders180", lambda m: leader_sheet(m, 180)), ("small60", lambda m: small_sheet(m, 60)),
                     ("large360", lambda m: large_sheet(m, 360))):
        path = f"{prefix}-{name}.png"
        pygame.image.save(fn(msg), path)
        print(path)
    print(f"rendered in {time.perf_counter() - t:.1f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
