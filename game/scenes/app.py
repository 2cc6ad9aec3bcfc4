"""The client application: the window, the frame loop and the scene stack.

One frame: every pygame event goes first to the top scene's pygame_gui manager, then to the
scene (``handle_event``, or ``on_ui`` for widget events); then ``update(dt)``; then the visible
scenes draw, bottom first, each followed by its widgets. Nothing in a frame blocks: matches are
polled, never waited on.

``App(headless=True)`` draws into an off-screen surface, for tests and screenshots.
"""
from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import Callable

import pygame
import pygame_gui

from game.rules.components import GameConfig, default_config
from game.settings import Settings, data_dir

from .scene import Scene, SceneStack

log = logging.getLogger("mor.app")
MIN_SIZE = (1024, 640)
TITLE = "Masters of Renaissance"


class App:
    """Owns the window and runs scenes."""

    def __init__(self, settings: Settings | None = None, config: GameConfig | None = None, *,
                 headless: bool = False, size: tuple[int, int] | None = None) -> None:
        self.settings = settings or Settings.load()
        self.config = config or default_config()
        self.headless = headless
        pygame.init()
        self.size = size or self.settings.window_size
        self.size = (max(MIN_SIZE[0], self.size[0]), max(MIN_SIZE[1], self.size[1]))
        if headless:
            pygame.display.set_mode((1, 1))  # pixel formats for convert(); drawing goes off-screen
            self.window = pygame.Surface(self.size)
        else:
            flags = pygame.RESIZABLE | (pygame.FULLSCREEN if self.settings.fullscreen else 0)
            self.window = pygame.display.set_mode(self.size, flags)
            pygame.display.set_caption(TITLE)
        self.stack = SceneStack()
        self.clock = pygame.time.Clock()
        self.running = True
        self.focused = True
        self.frames = 0
        self.on_frame: list[Callable[["App"], None]] = []
        self.server = None        # an in-process server while hosting (see HostScene)
        self.sound = None

    @property
    def data_dir(self) -> Path:
        return data_dir()

    @property
    def solo_save_path(self) -> Path:
        return self.data_dir / "solo-game.json"

    # ------------------------------------------------------------------ loop
    def run(self, first: Scene) -> None:
        """Run until the player quits."""
        self.stack.push(first)
        last = time.perf_counter()
        while self.running and self.stack.top is not None:
            now = time.perf_counter()
            self.frame(min(0.1, now - last))
            last = now
            if not self.headless:
                pygame.display.flip()
            self.clock.tick(60)
        self.shutdown()

    def frame(self, dt: float, injected: list[pygame.event.Event] = ()) -> None:  # type: ignore[assignment]
        """Process one frame: ``injected`` events (tests), pending pygame events, an update, drawing."""
        for event in [*injected, *pygame.event.get()]:
            self._event(event)
        top = self.stack.top
        if top is not None:
            top.ui.update(dt)
            top.update(dt)
        self.draw()
        self.frames += 1
        for hook in self.on_frame:
            hook(self)

    def draw(self) -> None:
        for scene in self.stack.visible():
            scene.draw(self.window)
            scene.ui.draw_ui(self.window)

    def _event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type == pygame.VIDEORESIZE and not self.headless:
            self.resize((event.w, event.h))
            return
        if event.type == pygame.WINDOWFOCUSLOST:
            self.focused = False
        elif event.type == pygame.WINDOWFOCUSGAINED:
            self.focused = True
            pygame.display.set_caption(TITLE)
        top = self.stack.top
        if top is None:
            return
        consumed = top.ui.process_events(event)
        if event.type in _UI_EVENTS:
            top.on_ui(event)
        elif not consumed:
            top.handle_event(event)

    def resize(self, size: tuple[int, int]) -> None:
        size = (max(MIN_SIZE[0], size[0]), max(MIN_SIZE[1], size[1]))
        self.size = size
        if self.headless:
            self.window = pygame.Surface(size)
        else:
            flags = pygame.RESIZABLE | (pygame.FULLSCREEN if self.settings.fullscreen else 0)
            self.window = pygame.display.set_mode(size, flags)
        for scene in self.stack.scenes:
            scene.resize(size)

    def notify_turn(self) -> None:
        """It is the player's turn: a short sound if enabled, and a title flash when unfocused."""
        if self.settings.sound:
            if self.sound is None:
                from .sound import Sound
                self.sound = Sound()
            self.sound.play_turn()
        if not self.focused and not self.headless:
            pygame.display.set_caption("● Your turn — " + TITLE)

    def quit(self) -> None:
        self.running = False

    def shutdown(self) -> None:
        while self.stack.top is not None:
            self.stack.pop()
        if self.server is not None:
            self.server.stop()
            self.server = None
        pygame.quit()

    def screenshot(self, path: str | os.PathLike) -> None:
        self.draw()
        pygame.image.save(self.window, str(path))


_UI_EVENTS = {
    pygame_gui.UI_BUTTON_PRESSED, pygame_gui.UI_TEXT_ENTRY_FINISHED, pygame_gui.UI_TEXT_ENTRY_CHANGED,
    pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED, pygame_gui.UI_DROP_DOWN_MENU_CHANGED,
    pygame_gui.UI_HORIZONTAL_SLIDER_MOVED, pygame_gui.UI_WINDOW_CLOSE,
}
