"""A notice over every page (App.tell): on the first frame of the page it goes over, for its
seconds from there, then gone (the real App frame loop, headless)."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from game.scenes import notice as notice_module
from game.scenes.backdrop import OXBLOOD


def test_a_notice_counts_its_seconds_from_the_first_frame_that_shows_it(app, monkeypatch):
    """QA (a real window, a loaded machine): the board the seat led to took seconds to make,
    and the notice told as the seat was taken had mostly run out before its first frame."""
    clock = [1000.0]
    monkeypatch.setattr(notice_module, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    app.stack.push(app.scene("title"))
    app.tell("You are back at your unfinished game.")
    clock[0] += notice_module.SECONDS + 5          # the next page took long to make
    app.frame(1 / 60)
    shown = app.notice
    assert shown is not None and shown.rect is not None, "not drawn on the page's first frame"
    assert tuple(app.window.get_at((shown.rect.centerx, shown.rect.y)))[:3] == OXBLOOD
    clock[0] += notice_module.SECONDS - 1
    app.frame(1 / 60)
    assert app.notice is shown and app._interval() == pytest.approx(1.0)   # the app wakes to take it away
    clock[0] += 1
    app.frame(1 / 60)
    assert app.notice is None
