"""The Tables page's message (a server that does not answer, a private table's code...) stands
between the list and the buttons, whole, clear of every field: it was drawn over the buttons' tops (two lines over half
of them) at 1024x640 and 1920x1080. Through the real frame loop: the page asks 127.0.0.1 at a
port nobody listens on, and its answer is measured as drawn (tests/support/fit.py)."""
from __future__ import annotations

import pygame
import pygame_gui
import pytest

from support.fit import Measure
from support.wait import frames_until
from walk import free_port

from game import i18n
from game.scenes.app import App
from game.scenes.tables import TablesScene

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("size", [(1024, 640), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_tables_page_message_stands_clear_of_the_buttons(monkeypatch, size, lang):
    app = App(headless=True, size=size, language=lang)
    try:
        page = TablesScene(app, "127.0.0.1", free_port(), "Ada")
        app.stack.push(page)
        frames_until(app, lambda: page.error, what="the answer: nobody listens there")
        m = Measure(monkeypatch, app)
        for words in (page.error, page.error + " " + page.error):    # one line, then two
            page.error = words
            m.clear()
            app.frame(1 / 60)
            drawn = [(w, pygame.Rect(r)) for w, r, _d in m.placed if w.strip() and w.strip() in words]
            assert drawn and words.split()[-1] in drawn[-1][0], "the message is drawn to its last word"
            widgets = [e.rect for e in page.widgets.values() if getattr(e, "visible", False)]
            assert widgets
            for w, r in drawn:   # over no button or field (the bottom row, the invite code's), nor the list
                assert not any(r.colliderect(e) for e in widgets), f"{w!r} at {tuple(r)} over a button or field"
                assert r.top >= page.list_rect.bottom, f"{w!r} at {tuple(r)} over the list"
    finally:
        while app.stack.top is not None:
            app.stack.pop()
        i18n.use("en")
