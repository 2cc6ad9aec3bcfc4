"""Play against the computer: choose 1 to 3 opponents and the level of each, or continue the
saved game, then play on this machine with no server (:class:`~game.match.BotMatch`).

A game against the computer is saved after every move (``bots-game.json`` in the data folder)
and picked up here with *Continue*. A saved game is never replaced without asking: *Start* puts
the app flow's question first (:func:`game.client.flow.local.new_versus_question`, the text
client's words too). A save that cannot be read is reported, and left as it is.
"""
from __future__ import annotations

import logging
from typing import Any

import pygame

from game.i18n import N_, NP_, _, ngettext, pgettext

from game.client.flow.local import new_versus_question
from game.client.games import bots_save_path, saved_summary
from game.client.words import pace_label
from game.settings import BOT_PACES

from .art import fonts
from .asking import ask
from .backdrop import FADED, INK, OXBLOOD, SEPIA, PaintedScene, blit_lines, panel, title_block, tracked, wrap
from .nickname import check_nickname

log = logging.getLogger("mor.versus")

LEVELS = (("easy", NP_("bot level", "Easy"), N_("A beginner who knows the rules: buys what it can, rarely plans ahead")),
          ("medium", NP_("bot level", "Medium"),
           N_("A steady player: aims at cards and leaders that fit, watches the faith track")),
          ("hard", NP_("bot level", "Hard"), N_("Looks ahead: tries each promising move many times before choosing")))
"""(level, its name (context, words) and what it plays like, marked for the catalogue)."""


class VersusScene(PaintedScene):
    """Choose the opponents; Continue, Start or Back."""

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.levels: list[str] = ["medium"]
        self.message: str | None = None
        self.sheet = pygame.Rect(0, 0, 0, 0)
        self.rows: list[pygame.Rect] = []
        self.count_row = pygame.Rect(0, 0, 0, 0)
        self.saved, self.problem = saved_summary(bots_save_path(app), app.config)
        self.opening: bool | None = None   # a game being opened (resume or not): said for a frame first
        self._opening_frames = 0

    def open(self, resume: bool) -> None:
        """Say "Opening…" on this page, then start (or continue) the game a frame later: loading
        a saved game and starting the computer players takes a few seconds on a slow machine, and
        a click must show at once that it was taken (QA)."""
        self.opening, self._opening_frames = resume, 0
        self.rebuild()

    def frame_interval(self) -> float | None:
        return 0 if self.opening is not None else super().frame_interval()

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.opening is not None:
            self._opening_frames += 1
            if self._opening_frames >= 3:      # the page with its words is on the screen by now
                resume, self.opening = self.opening, None
                self.begin(resume)

    def layout(self) -> None:
        w, h = self.app.size
        u = self.unit
        sw = round(860 * u)
        top = round(h * 0.2)
        self.sheet = pygame.Rect((w - sw) // 2, top, sw, min(round(560 * u), h - top - round(30 * u)))
        x0 = self.sheet.x + round(60 * u)
        fx = self.sheet.x + round(300 * u)
        row_h, gap = round(46 * u), round(16 * u)
        y = self.sheet.y + round(34 * u)
        if self.saved or self.problem:
            if self.saved:
                self.button("continue", pygame.Rect(self.sheet.right - round(260 * u), y, round(200 * u), row_h),
                            _("Continue it"), tooltip=_("Pick up the saved game where you left it"))
            y += row_h + round(30 * u)
        self.count_row = pygame.Rect(x0, y, fx - x0, row_h)
        bw = round(70 * u)
        for n in (1, 2, 3):
            self.button(f"count_{n}", pygame.Rect(fx + (n - 1) * (bw + round(12 * u)), y, bw, row_h), str(n),
                        "@menu" if n == len(self.levels) else "@menu_quiet",
                        tooltip=ngettext("A game of {size}: you and {n} computer player",
                                         "A game of {size}: you and {n} computer players", n).format(size=n + 1, n=n))
        y += row_h + round(26 * u)
        self.rows = []
        lw = round(150 * u)
        for i, level in enumerate(self.levels):
            self.rows.append(pygame.Rect(x0, y, fx - x0, row_h))
            for k, (key, text, tip) in enumerate(LEVELS):
                self.button(f"level_{i}_{key}", pygame.Rect(fx + k * (lw + round(12 * u)), y, lw, row_h),
                            pgettext(*text), "@menu" if key == level else "@menu_quiet")
            y += row_h + gap + round(26 * u)   # the level's description below
        by = self.sheet.bottom - round(78 * u)
        bw, bh = round(200 * u), round(50 * u)
        self.button("start", pygame.Rect(self.sheet.centerx - bw - round(10 * u), by, bw, bh),
                    _("Start"),
                    tooltip=_("Start a new game against these opponents"), enabled=self.opening is None)
        self.button("back", pygame.Rect(self.sheet.centerx + round(10 * u), by, bw, bh), _("Back"), "@menu_quiet")

    def paint(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        u = self.unit
        title_block(surface, _("Play against the computer"), None, w // 2, round(h * 0.06), u, size=60)
        surface.blit(panel(self.sheet.w, self.sheet.h, u), self.sheet.topleft)
        size = max(12, round(24 * u))
        small = max(11, round(19 * u))
        x0 = self.sheet.x + round(60 * u)
        y = self.sheet.y + round(34 * u)
        if self.saved or self.problem:
            text, colour = (self.saved, INK) if self.saved else (self.problem, OXBLOOD)
            width = (self.sheet.right - round(290 * u) if self.saved else self.sheet.right - round(60 * u)) - x0
            lines = wrap(text or "", small, width, "italic")
            blit_lines(surface, lines, small, colour, x0, y + round(23 * u) - len(lines) * round(small * 0.6),
                       "italic", leading=1.15)
        img = fonts.render(_("Opponents"), size, INK)
        surface.blit(img, img.get_rect(midleft=(self.count_row.x, self.count_row.centery)))
        about = {key: _(tip) for key, _text, tip in LEVELS}
        for i, rect in enumerate(self.rows):
            img = fonts.render(_("Opponent {n}").format(n=i + 1), size, SEPIA)
            surface.blit(img, img.get_rect(midleft=(rect.x, rect.centery)))
            said = about[self.levels[i]] + "."     # under the level buttons, on the sheet (in smaller type if need be)
            room = self.sheet.right - round(40 * u) - rect.right
            desc = fonts.render(said, max(11, fonts.fit(said, room, small, "italic")), FADED, "italic")
            surface.blit(desc, desc.get_rect(topleft=(rect.right, rect.bottom + round(5 * u))))
        if not self.message and self.opening is None:
            hint = _("You and the computer players take turns here; the game is saved after every move.")
            lines = wrap(hint, small, self.sheet.w - round(100 * u), "italic")
            blit_lines(surface, lines, small, SEPIA, self.sheet.centerx,
                       self.sheet.bottom - round(96 * u) - len(lines) * round(small * 1.15), "italic",
                       align="center", leading=1.15)
        note = tracked(_("you are {name}  \u00b7  pace of their moves: {pace}  \u00b7  both are changed in Settings").format(
            name=self.app.settings.nickname, pace=pace_label(self.app.settings.bot_pace)),
                       max(10, round(16 * u)), FADED, max(1, round(2 * u)))
        surface.blit(note, note.get_rect(midtop=(self.sheet.centerx, self.sheet.bottom + round(10 * u))))
        message = self.message
        if self.opening is not None:
            message = (_("Opening the saved game\u2026") if self.opening else _("Setting up the table\u2026"))
        if message:
            lines = wrap(message, small, self.sheet.w - round(100 * u), "italic")
            blit_lines(surface, lines, small, OXBLOOD, self.sheet.centerx,
                       self.sheet.bottom - round(96 * u) - len(lines) * round(small * 1.15), "italic",
                       align="center", leading=1.15)

    def rebuild(self) -> None:
        self.ui.clear_and_reset()
        self.build()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.stack.pop()

    def on_button(self, name: str) -> None:
        if name == "back":
            self.app.stack.pop()
        elif name.startswith("count_"):
            n = int(name.rsplit("_", 1)[1])
            self.levels = (self.levels + [self.levels[-1]] * 3)[:n]
            self.rebuild()
        elif name.startswith("level_"):
            _key, i, level = name.split("_", 2)
            self.levels[int(i)] = level
            self.rebuild()
        elif self.opening is not None:
            return                             # a game is being opened
        elif name == "continue":
            self.open(resume=True)
        elif name == "start":
            self.ask_start()

    def ask_start(self) -> None:
        """A new game with the opponents chosen; over a saved one, first the flow's question:
        continue it, lose it for the new game, or cancel (nothing changes)."""
        question = new_versus_question(self.app.config, bots_save_path(self.app))
        if question is None:
            self.open(resume=False)
            return

        def then(answer: str) -> None:
            if answer in ("continue", "new"):
                self.open(resume=answer == "continue")
        ask(self.app, question, then)

    def begin(self, resume: bool) -> None:
        """Start (or continue) the game and go to the screen it is at."""
        from game.client.games import GameNotOpened, open_bots

        from .router import scene_for

        app = self.app
        pace = BOT_PACES.get(app.settings.bot_pace, BOT_PACES["normal"])
        path = bots_save_path(app)
        try:
            if resume:
                session = open_bots(app.config, path, pace)
            else:
                nick = app.settings.nickname.strip()
                if check_nickname(nick) or nick.endswith("(bot)"):
                    nick = "Player"
                session = open_bots(app.config, path, pace, nick, self.levels)
        except GameNotOpened as e:
            log.warning("cannot start the game against the computer: %s", e)
            self.message = (_("The saved game could not be opened ({why}). It is kept as it is; Start replaces it.")
                            if resume else _("The game could not start: {why}")).format(why=e)
            self.rebuild()
            return
        session.pump()
        app.stack.reset(scene_for(app, session))
