"""The Past games page: the finished games of this machine, newest first, each opened with a click
(its replay, :mod:`.replay`, asked of the app by name); and a game file made by another copy of the
game, opened by its path (or dropped onto the window).
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pygame

from game.i18n import N_, _

from game.client.replay import ReplayError, open_replay, past_games
from game.client.words import player_name

from .art import fonts
from .backdrop import OXBLOOD, SEPIA, PaintedScene, title_block


class PastGamesScene(PaintedScene):
    """The finished games of this machine, newest first, each opened with a click; and a game file
    made by another copy of the game, opened by its path (or dropped onto the window)."""

    PAGE = 6

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.games = past_games(app.data_dir)
        self.page = 0
        self.message: str | None = None
        self.rows: list[tuple[Any, pygame.Rect]] = []    # the games shown, and where
        self.mouse: tuple[int, int] | None = None

    def layout(self) -> None:
        w, h = self.app.size
        u = self.unit
        bw, bh, gap = round(760 * u), round(56 * u), round(8 * u)
        top = round(h * 0.2)
        shown = self.games[self.page * self.PAGE:(self.page + 1) * self.PAGE]
        self.rows = []
        for i, (game, rect) in enumerate(zip(shown, self.column(w // 2, top, bw, bh, gap, len(shown)))):
            # a clear button takes the click; the row's two lines are painted under it (see paint)
            self.button(f"game{i}", rect, "", "@row", tooltip=_("Watch this game again, move by move ({file})").format(file=game.path.name))
            self.rows.append((game, rect))
        y = top + self.PAGE * (bh + gap) + round(4 * u)
        sw = round(120 * u)
        self.button("older", pygame.Rect(w // 2 + bw // 2 - sw, y, sw, round(36 * u)), _("Older »"), "@quiet",
                    enabled=(self.page + 1) * self.PAGE < len(self.games))
        self.button("newer", pygame.Rect(w // 2 - bw // 2, y, sw, round(36 * u)), _("« Newer"), "@quiet",
                    enabled=self.page > 0)
        y += round(56 * u)
        ew = round(480 * u)
        self.entry("path", pygame.Rect(w // 2 - bw // 2, y, ew, round(40 * u)), "", 1000)
        self.widgets["path"].set_text("")
        self.button("open", pygame.Rect(w // 2 - bw // 2 + ew + round(10 * u), y, bw - ew - round(10 * u),
                                        round(40 * u)), _("Open file"), "@menu")
        self.button("back", pygame.Rect(w // 2 - round(140 * u), h - round(90 * u), round(280 * u), round(48 * u)),
                    _("Back to the title"), "@menu_quiet")

    def paint(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        u = self.unit
        title_block(surface, _("Past games"), None, w // 2, round(h * 0.06), u, size=64)
        if not self.games:
            img = fonts.render(_("No finished game on this computer yet: games you finish here are kept."),
                               max(12, round(20 * u)), SEPIA, "italic")
            surface.blit(img, img.get_rect(midtop=(w // 2, round(h * 0.26))))
        for game, rect in self.rows:
            paint_row(surface, game, rect, u, hot=self.mouse is not None and rect.collidepoint(self.mouse))
        entry = self.widgets.get("path")
        if entry is not None:
            img = fonts.render(_("A game file from another copy of the game: type its path (or drop it here)"),
                               max(11, round(16 * u)), SEPIA, "italic")
            surface.blit(img, img.get_rect(bottomleft=(entry.rect.x, entry.rect.y - round(4 * u))))
        if self.message:
            img = fonts.render(self.message, max(12, round(18 * u)), OXBLOOD, "italic")
            surface.blit(img, img.get_rect(midtop=(w // 2, h - round(132 * u))))

    def on_button(self, name: str) -> None:
        if name == "back":
            self.app.stack.pop()
        elif name in ("older", "newer"):
            self.page += 1 if name == "older" else -1
            self.build()
        elif name == "open":
            self.open_path(self.widgets["path"].get_text())
        elif name.startswith("game"):
            game = self.games[self.page * self.PAGE + int(name[4:])]
            self.open_path(str(game.path))

    def on_enter(self, name: str) -> None:
        if name == "path":
            self.open_path(self.widgets["path"].get_text())

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        elif event.type == pygame.WINDOWLEAVE:
            self.mouse = None
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.stack.pop()
        elif event.type == pygame.DROPFILE:
            self.open_path(event.file)

    def open_path(self, path: str) -> None:
        path = path.strip().strip('"')
        if not path:
            self.message = _("Type the path of a game file first.")
            return
        try:
            replay = open_replay(Path(path).expanduser(), self.app.config, self.app.settings.nickname)
        except ReplayError as e:
            self.message = str(e)
            return
        self.message = None
        self.app.stack.push(self.app.scene("replay", replay))


KINDS = {"solo": N_("Solo against Lorenzo"), "bots": N_("Against the computer"), "lan": N_("Hosted here"),
         "server": N_("Online")}
"""A past game's kind in words, marked for the catalogue (said with ``_``)."""


def paint_row(surface: pygame.Surface, game: Any, rect: pygame.Rect, u: float, hot: bool = False) -> None:
    """One past game on two lines: when and what kind (the result on the right), then who played
    (shortened with an ellipsis when long; the result never is)."""
    from .backdrop import FADED, INK
    radius = max(2, round(8 * u))
    pygame.draw.rect(surface, (247, 236, 210) if hot else (239, 226, 196), rect, border_radius=radius)
    pygame.draw.rect(surface, (138, 107, 58) if hot else (185, 154, 98), rect, max(1, round(2 * u)),
                     border_radius=radius)
    pad = round(16 * u)
    inner = rect.inflate(-2 * pad, 0)
    big, small = max(12, round(20 * u)), max(11, round(17 * u))
    result = fonts.render(game.result, big, OXBLOOD if game.winners or game.kind == "solo" else FADED)
    top = rect.y + round(6 * u)
    surface.blit(result, result.get_rect(topright=(inner.right, top)))
    head = f"{_when(game.when)} \u00b7 " + (_(KINDS[game.kind]) if game.kind in KINDS else _("A game"))
    room = inner.w - result.get_width() - round(20 * u)
    img = fonts.render(_fit(head, big, room, "regular"), big, INK)
    surface.blit(img, img.get_rect(topleft=(inner.x, top)))
    players = ", ".join(player_name(n, game.bots) for n in game.players)
    img = fonts.render(_fit(players, small, inner.w, "italic"), small, SEPIA, "italic")
    surface.blit(img, img.get_rect(bottomleft=(inner.x, rect.bottom - round(6 * u))))


def _fit(text: str, size: int, width: int, style: str) -> str:
    """``text``, cut with an ellipsis to fit ``width`` pixels at ``size``."""
    font = fonts.font(size, style)
    if font.size(text)[0] <= width:
        return text
    while text and font.size(text + "\u2026")[0] > width:
        text = text[:-1]
    return text.rstrip(" ,") + "\u2026"


def _when(t: float) -> str:
    return time.strftime("%d %b %H:%M", time.localtime(t)) if t else "?"
