"""Hosting a LAN game: the server starts in this process (:func:`game.client.flow.hosting.start_hosting`),
then the host takes a seat at it and goes to the waiting room; a port that cannot be had is said,
with the way to Settings."""
from __future__ import annotations

import logging

import pygame

from game.i18n import _

from game.client.address import describe_bind_error
from game.client.flow.hosting import join_own_table, server_folder, start_hosting
from game.client.lan import lan_addresses
from game.settings import BOT_PACES

from .art import fonts
from .backdrop import INK, OXBLOOD, SEPIA, PaintedScene, blit_lines, panel, title_block, wrap
from .nickname import check_nickname

log = logging.getLogger("mor.host")


class HostScene(PaintedScene):
    """Start the in-process server, then join it as the host and go to the waiting room."""

    def __init__(self, app) -> None:
        super().__init__(app)
        self.error: str | None = None
        self.addresses: list[str] = []
        self.port = app.settings.server_port
        self._ready = False
        self._frames = 0
        self.sheet = pygame.Rect(0, 0, 0, 0)

    def enter(self) -> None:
        self.start_server()
        super().enter()

    def start_server(self) -> None:
        app = self.app
        problem = check_nickname(app.settings.nickname)
        if problem:
            self.error = _("Choose a nickname in Settings before hosting a game.")
            return
        if app.server is None:
            try:
                server = start_hosting(app.config, self.port, app.data_dir, app.settings.nickname.strip(),
                                       BOT_PACES.get(app.settings.bot_pace, 0.9), open_port=app.settings.open_port)
            except OSError as e:
                self.error = describe_bind_error(e, self.port, server_folder(app.data_dir))
                log.warning("cannot host: %s", e)
                return
            app.server = server
        self.port = app.server.address[1]
        self.addresses = lan_addresses()
        self._ready = True

    def layout(self) -> None:
        w, h = self.app.size
        u = self.unit
        sw, sh = round(760 * u), round(190 * u)
        self.sheet = pygame.Rect((w - sw) // 2, round(h * 0.3), sw, sh)
        bw, bh = round(220 * u), round(50 * u)
        if self.error:
            y = self.sheet.bottom + round(40 * u)
            self.button("settings", pygame.Rect(w // 2 - bw - round(10 * u), y, bw, bh), _("Settings"),
                        tooltip=_("Change the port or your nickname"))
            self.button("back", pygame.Rect(w // 2 + round(10 * u), y, bw, bh), _("Back"), "@menu_quiet")

    def update(self, dt: float) -> None:
        if not self._ready:
            return
        self._frames += 1
        if self._frames < 2:
            return   # let one frame show "opening…"
        self._ready = False
        self.connect()

    def connect(self) -> None:
        app = self.app
        try:
            session = join_own_table(self.port, app.settings.nickname.strip(), app.config)
        except OSError as e:
            self.error = _("The game server started but this computer could not join it ({e}).").format(e=e)
            self.rebuild()
            return
        app.stack.replace(app.scene("lobby", session))

    def rebuild(self) -> None:
        self.ui.clear_and_reset()
        self.build()

    def paint(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        u = self.unit
        bottom = title_block(surface, _("Host a LAN game"), None, w // 2, round(h * 0.06), u, size=64)
        hint = _("Friends on the same network find your game under Join a game, or type the address shown.")
        small = max(12, round(22 * u))
        blit_lines(surface, wrap(hint, small, round(w * 0.7), "italic"), small, SEPIA, w // 2, bottom + round(8 * u),
                   "italic", align="center")
        surface.blit(panel(self.sheet.w, self.sheet.h, u), self.sheet.topleft)
        size = max(13, round(28 * u))
        cx = self.sheet.centerx
        if self.error:
            head = fonts.render(_("The game could not be opened"), size, OXBLOOD)
            surface.blit(head, head.get_rect(midtop=(cx, self.sheet.y + round(44 * u))))
            lines = wrap(self.error, small, self.sheet.w - round(100 * u), "italic")
            blit_lines(surface, lines, small, INK, cx, self.sheet.y + round(44 * u) + head.get_height() + round(16 * u),
                       "italic", align="center")
        else:
            head = fonts.render(_("Opening a game on port {port}\u2026").format(port=self.port), size, INK)
            surface.blit(head, head.get_rect(center=self.sheet.center))

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.on_button("back")

    def on_button(self, name: str) -> None:
        if name in ("back", "settings"):
            if self.app.server is not None:
                self.app.server.stop()
                self.app.server = None
            if name == "settings":
                self.app.stack.replace(self.app.scene("settings"))
            else:
                self.app.stack.pop()
