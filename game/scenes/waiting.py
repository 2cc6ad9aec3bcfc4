"""The set-up's last screen: the player has chosen; the others are still choosing. When the game
starts the scene hands over to the board (see :func:`router.follow`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.i18n import _

from .art import fonts
from .backdrop import FADED, GOLD, GREEN_INK, INK, OXBLOOD, SEPIA, blit_lines, panel, title_block, tracked
from .router import SessionScene, leave_game

if TYPE_CHECKING:
    from game.client.session import GameSession


class WaitingScene(SessionScene):
    """The player has chosen; the others are still choosing."""

    stage = "waiting"

    def __init__(self, app, session: "GameSession", message: str | None = None) -> None:
        super().__init__(app, session)
        self.message = message
        self.t = 0.0
        self.sheet = pygame.Rect(0, 0, 0, 0)

    def layout(self) -> None:
        w, h = self.app.size
        u = self.unit
        n = len(self.session.vm.game["players"]) if self.session.vm.has_game else 1
        sw, sh = round(720 * u), round((150 + 62 * n) * u)
        self.sheet = pygame.Rect((w - sw) // 2, round(h * 0.26), sw, sh)
        # in the corner where the choosing pages have it: not under the pointer that has just
        # clicked their "Keep these 2 leaders" or "Take it" (a double click left the table)
        self.button("leave", pygame.Rect(round(52 * u), h - round(48 * u) - round(56 * u), round(130 * u),
                                         round(44 * u)), _("Leave"), "@quiet", tooltip=_("Leave the game"))

    def frame_interval(self) -> float | None:
        return 1 / 12   # the breathing rings and the dots

    def tick(self, dt: float) -> None:
        self.t += dt

    def on_button(self, name: str) -> None:
        if name == "leave":
            leave_game(self.app, self.session)

    def paint(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        u = self.unit
        dots = "." * (1 + int(self.t * 2) % 3)
        title = self.message or _("Waiting for the others to choose")
        title_block(surface, title, None, w // 2, round(h * 0.06), u, size=56)
        surface.blit(panel(self.sheet.w, self.sheet.h, u), self.sheet.topleft)
        g = self.session.vm.game
        if g is None:
            return
        size, small = max(13, round(25 * u)), max(11, round(19 * u))
        y = self.sheet.y + round(40 * u)
        x_name = self.sheet.x + round(60 * u)
        cols = (self.sheet.x + round(340 * u), self.sheet.x + round(520 * u))
        for x, label in zip(cols, (_("leaders"), _("resources"))):
            k = tracked(label, small, OXBLOOD, max(1, round(2 * u)))
            surface.blit(k, k.get_rect(midtop=(x, y)))
        y += round(44 * u)
        for p in g["players"]:
            me = p["nickname"] == self.session.nickname
            name = _("{name} (you)").format(name=p["nickname"]) if me else self.session.shown_name(p["nickname"])
            name += "" if p.get("active", True) else " \u2014 " + _("away")
            img = fonts.render(name, size, INK if p.get("active", True) else FADED)
            surface.blit(img, img.get_rect(midleft=(x_name, y + round(20 * u))))
            st = p["setup"]
            chose = st["hasChosenResources"] or not st.get("initialResources")   # nothing to choose
            for x, done in zip(cols, (st["hasChosenLeaders"], chose)):
                _mark(surface, (x, y + round(20 * u)), round(13 * u), done, self.t, u)
            y += round(62 * u)
        note = _("The game begins when everyone has chosen") + dots
        blit_lines(surface, [note], small, SEPIA, w // 2, self.sheet.bottom - round(46 * u), "italic", align="center")


def _mark(surface: pygame.Surface, c: tuple[int, int], r: int, done: bool, t: float, u: float) -> None:
    """A green seal with a tick when done; a slowly breathing empty ring while choosing."""
    if done:
        pygame.draw.circle(surface, GREEN_INK, c, r)
        pygame.draw.circle(surface, GOLD, c, r, max(1, round(2 * u)))
        pts = [(c[0] - r * 0.45, c[1]), (c[0] - r * 0.1, c[1] + r * 0.4), (c[0] + r * 0.5, c[1] - r * 0.38)]
        pygame.draw.lines(surface, (250, 243, 226), False, pts, max(2, round(3 * u)))
    else:
        import math
        a = (math.sin(t * 2.5) + 1) / 2
        col = tuple(round(x + (y - x) * a) for x, y in zip((200, 180, 140), SEPIA))
        pygame.draw.circle(surface, col, c, r, max(1, round(2 * u)))
