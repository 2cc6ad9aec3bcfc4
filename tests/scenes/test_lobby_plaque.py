"""The host's plaque in the waiting room (where friends read the address): its caption stands
clear of the plaque's inner frame in both languages at both sizes; the Italian one at 1920x1080
ran from one side of the frame to the other. Hosted for real (127.0.0.1 server of the app, the
title's Host a LAN game through the frame loop), measured on the boxes drawn (tests/support/fit.py)."""
from __future__ import annotations

import pygame
import pytest

from support.fit import Measure
from support.wait import frames_until
from walk import close, free_port

from game import i18n
from game.scenes.app import App
from game.scenes.lobby import LobbyScene
from game.scenes.title import TitleScene

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("size", [(1024, 640), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_hosts_plaque_caption_stands_clear_of_its_frame(monkeypatch, size, lang):
    app = App(headless=True, size=size, language=lang)
    try:
        app.settings.server_port = free_port()
        app.settings.open_port = False
        app.stack.push(TitleScene(app))
        app.frame(1 / 60)
        host = app.stack.top.widgets["host"]
        for kind in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            extra = {"rel": (0, 0), "buttons": (0, 0, 0)} if kind == pygame.MOUSEMOTION else {"button": 1}
            app.frame(1 / 60, [pygame.event.Event(kind, pos=host.rect.center, **extra)])
        lobby = frames_until(app, lambda: isinstance(app.stack.top, LobbyScene) and app.stack.top, what="the lobby")
        if getattr(app.server, "announcer", None) is not None:   # announced or not: the longer caption
            monkeypatch.setattr(app.server.announcer, "problem", None)
        m = Measure(monkeypatch, app)
        app.frame(1 / 60)
        said = {i18n._("friends find this game in join, or type"), i18n._("friends join by typing")}
        caption = next(pygame.Rect(r) for w, r, _d in m.placed if w in said)
        margin = round(16 * lobby.unit)     # the panel's inner frame is drawn 8u inside its edge
        inside = lobby.plaque.inflate(-2 * margin, -2 * margin)
        assert inside.left <= caption.left and caption.right <= inside.right, (tuple(caption), tuple(lobby.plaque))
    finally:
        close(app)
        i18n.use("en")
