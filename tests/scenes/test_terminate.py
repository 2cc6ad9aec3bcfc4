"""A program nobody is there to answer for: SIGTERM (a logout, a shutdown, ``kill``) or SIGHUP (a
closed terminal) ends the real frame loop at once, without the question a window close asks
while hosting; the hosted game is kept, as on *Quit*. (QA found a hosting client that got a
SIGTERM sitting on "Quit while hosting?" twenty minutes later, its port and its announcement
still up.)"""
from __future__ import annotations

import signal
import threading
import time

import pygame
import pytest

from support.hosting import host_with_bruno
from walk import click, frames

from game.scenes.ask import AskScene

pytestmark = [pytest.mark.timeout(60), pytest.mark.seed(1)]   # (seed: the deal of every game started here)


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_a_terminate_signal_ends_a_hosting_app_without_asking_and_the_game_is_kept(app, tmp_path, name,
                                                                                    monkeypatch):
    monkeypatch.setattr(pygame, "quit", lambda: None)   # the real shutdown, but pygame stays up
    sig = getattr(signal, name)
    before = signal.getsignal(sig)
    bruno = host_with_bruno(app, tmp_path)
    click(app, "players_2")
    server = app.server
    # a window close still asks (someone is there to answer)
    frames(app, 1, [pygame.event.Event(pygame.QUIT)])
    assert isinstance(app.stack.top, AskScene) and "Quit" in app.stack.top.title and app.running
    # the real loop, asleep on that question, gets the signal
    timer = threading.Timer(0.5, signal.raise_signal, (sig,))
    timer.start()
    t0 = time.monotonic()
    try:
        app.run(app.stack.top)       # (run pushes its first scene: the question, again on top)
    finally:
        timer.cancel()
    assert time.monotonic() - t0 < 5
    assert not app.running and app.terminated_by == name
    assert app.stack.top is None                       # shut down: every scene left
    assert app.server is None and server._stopping.is_set()   # the table is closed (its game kept) ...
    assert signal.getsignal(sig) == before             # ... and the signal handler given back
    bruno.close()
