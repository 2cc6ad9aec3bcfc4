"""The client application: the window, the frame loop and the scene stack.

One frame: every pygame event goes first to the top scene's pygame_gui manager, then to the
scene (``handle_event``, or ``on_ui`` for widget events); then ``update(dt)``; then the visible
scenes draw, bottom first, each followed by its widgets. Nothing in a frame blocks: matches are
polled, never waited on.

Idle when idle: :meth:`App.run` runs frames (60 a second) only while something happens, and
sleeps otherwise; when it falls asleep it gives the memory freed meanwhile back to the system
(:func:`~game.scenes.memory.give_back`: glibc would keep it resident, and a long game's board
drew and dropped enough pictures to hold some 20 MB that way). It stays awake for :data:`LINGER`
seconds after any input or wake-up (pygame_gui's hover states and tooltips, a button's press, the board's flash after a change), and for as long as
a visible scene's :meth:`~game.scenes.scene.Scene.frame_interval` asks (an animation: every frame;
a blinking text cursor, a breathing mark: a few frames a second). Otherwise it sleeps on
:attr:`App.wake_event`, looking at pygame's queue every :data:`POLL` seconds (pygame's own
``event.wait`` polls every millisecond, which costs more than a sleeping game should). Whatever
happens off the main thread calls :meth:`App.wake` (thread-safe): a remote match's connection
does, for every message it receives (see :meth:`App._hook_matches`), and so does the thread that
joins a server.

``App(headless=True)`` draws into an off-screen surface, for tests and screenshots.

A frame that fails (a bug, or a state a misbehaving server left behind) does not close the game.
The error is logged with its traceback. A game in progress is fetched again from its match
(``resync``), at most once every few seconds. Until a frame succeeds again, a plain page says what
happened and that Esc leads back to the title. ``strict`` (the default when headless) lets errors
through instead, so that tests and screenshots fail loudly.
"""
from __future__ import annotations

import gc
import logging
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any, Callable

import pygame

from game.i18n import N_, _
import pygame_gui

from game import i18n
from game.client.games import GameConfig, default_config
from game.settings import Settings, data_dir

from . import registry
from .memory import clear_caches, give_back
from .notice import Notice, draw_notice
from .scene import Scene, SceneStack

log = logging.getLogger("mor.app")
MIN_SIZE = (1024, 640)
TITLE = N_("Masters of Renaissance")
FPS = 60
LINGER = 1.5
"""Seconds of frames after the last input or wake-up (tooltips show after 1 s of hovering)."""
POLL = 1 / 60
"""Seconds between two looks at pygame's event queue while idle (the latency of input then)."""
IDLE_TICK = 5.0
"""A sleeping app still runs one frame this often (a safety net; nothing should rely on it)."""
TERMINATE_SIGNALS = ("SIGTERM", "SIGHUP", "SIGINT")
"""Signals on which :meth:`App.run` ends without asking anything (see :meth:`App._catch_terminate`);
SIGINT is a Ctrl-C in the terminal the game was started from (no ``KeyboardInterrupt`` traceback)."""
MAX_DT = 0.5


class App:
    """Owns the window and runs scenes."""

    def __init__(self, settings: Settings | None = None, config: GameConfig | None = None, *,
                 headless: bool = False, size: tuple[int, int] | None = None,
                 strict: bool | None = None, language: str | None = None) -> None:
        self.settings = settings or Settings.load()
        i18n.use(language or self.settings.language)   # --lang, else the saved choice, else the system's
        self.settings.speak(i18n.current())             # (a fresh install's drawn name, in it)
        self.strict = headless if strict is None else strict
        self.fault: str | None = None      # why the last frame failed (cleared by a good frame)
        self._faults = 0                   # frames that failed in a row
        self._fault_hint = ""
        self._resync_at = 0.0
        self.config = config or default_config()
        self.headless = headless
        # SDL presents a window through an OpenGL texture by default on X11, which loads the GL
        # driver (Mesa and LLVM: about 100 MB of resident memory) for a game drawn entirely in
        # software; its own framebuffer path (XShm, GDI) shows the same pixels with none of that.
        os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")
        pygame.init()
        self.screen_size: tuple[int, int] | None = None if headless else desktop_size()
        self.size = size or self.settings.window_size
        if size is None and not self.settings.fullscreen and not fits(self.size, self.screen_size):
            self.size = largest_fitting(self.screen_size)   # a saved size larger than this screen
        self.size = (max(MIN_SIZE[0], self.size[0]), max(MIN_SIZE[1], self.size[1]))
        if headless:
            pygame.display.set_mode((1, 1))  # pixel formats for convert(); drawing goes off-screen
            self.window = pygame.Surface(self.size)
        else:
            flags = pygame.RESIZABLE | (pygame.FULLSCREEN if self.settings.fullscreen else 0)
            self.window = pygame.display.set_mode(self.size, flags)
            pygame.display.set_caption(_(TITLE))
            try:
                pygame.display.set_icon(window_icon())
            except pygame.error as e:   # a window manager without icons: not worth stopping for
                log.info("no window icon: %s", e)
        self.stack = SceneStack()
        self.clock = pygame.time.Clock()
        self.running = True
        self.focused = True
        self.frames = 0
        self.on_frame: list[Callable[["App"], None]] = []
        self.wake_event = threading.Event()   # set from any thread: a frame is wanted now
        self._awake_until = 0.0               # perf_counter time until which frames run anyway
        self._woken = False                   # the last wait ended with an input event or a wake
        self._last_frame = 0.0
        self.drawn = 0                        # frames drawn by run() (tests and the bench read it)
        self.server = None        # an in-process server while hosting (see HostScene)
        self.terminated_by: str | None = None   # the signal that ended run(), if one did
        self.sound = None
        self.notice: Notice | None = None   # a few words over every page for a few seconds (see tell)
        self.turn_news: Any = None          # games becoming the player's turn (game.client.my_games.TurnNews)
        self.caption = _(TITLE)             # the window's title as last set

    @property
    def data_dir(self) -> Path:
        return data_dir()

    @property
    def solo_save_path(self) -> Path:
        return self.data_dir / "solo-game.json"

    # ------------------------------------------------------------------ loop
    def run(self, first: Scene) -> None:
        """Run until the player quits: frames while something happens, sleep otherwise."""
        self.stack.push(first)
        last = time.perf_counter()
        self.wake()
        caught = self._catch_terminate()
        busy = False
        try:
            while self.running and self.stack.top is not None:
                events = self._wait()
                if not self.running:
                    break
                now = time.perf_counter()
                # woken (an input, a wake): a burst begins, even if its one frame outlasts the linger
                busy = busy or self._woken
                self.frame(min(MAX_DT, now - last), events)
                last = now
                self.drawn += 1
                if not self.headless:
                    pygame.display.flip()
                if self._awake(time.perf_counter()):
                    self.clock.tick(FPS)
                elif busy:   # the last frame of a burst: the app sleeps now, and gives back what it freed
                    busy = False
                    give_back()
        finally:
            for sig, handler in caught.items():
                signal.signal(sig, handler)
        if self.terminated_by:
            log.info("%s: quitting without asking", self.terminated_by)
        self.shutdown()

    def _catch_terminate(self) -> dict[int, object]:
        """End the loop, without asking, on the signals that end a program nobody is there to
        answer for (a logout or shutdown, ``kill``, a closed terminal): SDL turns them into a
        window close, which asks first while hosting, and the question waited for ever (QA).
        Quitting this way is like *Quit*: a hosted game is kept and goes on when hosted again.
        Returns the handlers replaced (only the main thread can catch signals)."""
        if threading.current_thread() is not threading.main_thread():
            return {}
        caught = {}
        for name in TERMINATE_SIGNALS:
            sig = getattr(signal, name, None)
            if sig is not None:
                try:
                    caught[sig] = signal.signal(sig, self._terminated)
                except (OSError, ValueError):
                    pass
        return caught

    def _terminated(self, signum: int, frame: object) -> None:
        # (a signal handler: no locks here, :meth:`_wait` sees ``running`` within POLL seconds)
        self.terminated_by = signal.Signals(signum).name
        self.running = False

    def wake(self) -> None:
        """Ask for frames now (from any thread): something changed that the player should see."""
        self.wake_event.set()

    def _awake(self, now: float) -> bool:
        """Whether the next frame should follow at once (at the frame rate)."""
        return now < self._awake_until or self._interval() == 0

    def _interval(self) -> float | None:
        """The shortest frame interval any visible scene asks for (None: none asked)."""
        asked = [i for i in (s.frame_interval() for s in self.stack.visible()) if i is not None]
        if self.notice is not None:       # the frame that takes it away
            asked.append(self.notice.left())
        return min(asked) if asked else None

    def _wait(self) -> list[pygame.event.Event]:
        """The events of the next frame: at once while awake, else after sleeping until an input
        event, a :meth:`wake` or the interval a scene asked for."""
        self._hook_matches()
        now = time.perf_counter()
        if self._awake(now):
            events = pygame.event.get()
        else:
            interval = self._interval()
            due = self._last_frame + (IDLE_TICK if interval is None else min(interval, IDLE_TICK))
            while True:
                events = pygame.event.get()
                if events or self.wake_event.is_set() or not self.running:
                    break
                now = time.perf_counter()
                if now >= due:
                    break
                self.wake_event.wait(min(POLL, due - now))
        now = time.perf_counter()
        self._woken = bool(events) or self.wake_event.is_set()
        if self._woken:
            self.wake_event.clear()   # before the frame polls: what comes during it wakes the next one
            self._awake_until = now + LINGER
        self._last_frame = now
        return events

    def _hook_matches(self) -> None:
        """Let the match of every game on the stack wake the loop when a message arrives."""
        for scene in self.stack.scenes:
            if scene.session is not None and scene.session.match.on_message != self.wake:
                scene.session.match.on_message = self.wake

    def frame(self, dt: float, injected: list[pygame.event.Event] = ()) -> None:  # type: ignore[assignment]
        """Process one frame: ``injected`` events (tests), pending pygame events, an update, drawing."""
        events = [*injected, *pygame.event.get()]
        self._follow_turn_news()
        # before the events: a click (a button's event) hands over as often as an update does
        first, went = self.stack.top, (self.stack.resets, self.stack.handovers)
        try:
            for event in events:
                self._event(event)
            top = self.stack.top
            if top is not None:
                top.ui.update(dt)
                top.update(dt)
                if self.stack.top is not top and self.stack.top is not None:
                    self.stack.top.ui.update(0.0)   # a scene handed over: its widgets show on its first frame
            gone = (self.stack.resets, self.stack.handovers) != went
            if gone:    # a game or a scene was left: its objects go before the next one draws its pictures
                gc.collect()
            self.draw()
            if gone or self.stack.top is not first:
                give_back()
        except Exception as e:
            if self.strict:
                raise
            self._recover(e, events)
        else:
            self.fault, self._faults = None, 0
        self.frames += 1
        for hook in self.on_frame:
            hook(self)

    def _recover(self, error: Exception, events: list[pygame.event.Event]) -> None:
        """A frame failed: log it (once per streak), ask for the whole game again, say so on screen;
        Esc leaves for the title."""
        self._faults += 1
        if self._faults == 1:
            log.error("a frame failed; the game goes on", exc_info=error)
        self.fault = f"{type(error).__name__}: {error}"[:160]
        session = self.stack.top.session if self.stack.top is not None else None
        resync = session.match.resync if session is not None and session.match.supports_resync else None
        self._fault_hint = (_("The game is being fetched again; press Esc for the title.") if resync is not None
                            else _("Press Esc for the title. A solo game is saved after every move: "
                                   "Continue picks it up."))
        now = time.monotonic()
        if resync is not None and now >= self._resync_at:
            self._resync_at = now + 5.0
            try:
                resync()
            except Exception:
                log.exception("could not fetch the game again")
        if any(e.type == pygame.KEYDOWN and e.key == pygame.K_ESCAPE for e in events):
            self.fault = None
            try:
                leave_game = registry.action("leave_game")
                if leave_game is None:
                    raise LookupError("no leave_game action is registered")
                leave_game(self, session, ask=False)
            except Exception:   # leaving failed too: the title, whatever it takes
                log.exception("could not leave the game cleanly")
                self.stack.reset(self.scene("title"))
            return
        try:
            self._draw_fault()
        except Exception:
            log.exception("could not draw the fault page")

    def _draw_fault(self) -> None:
        """The page shown while frames fail: drawn with as little of the game as possible."""
        from .art import fonts as F
        from .art import palette as P
        from .backdrop import BACKDROP, title_block
        w, h = self.window.get_size()
        unit = min(w / 1280, h / 800)
        try:
            BACKDROP.draw(self.window)
            y = title_block(self.window, _("A hitch"), _("Something went wrong on this screen"), w // 2,
                            round(h * 0.3), unit, size=80) + round(24 * unit)
        except Exception:   # even the page cannot be painted: plain paper
            self.window.fill(P.PARCHMENT[:3])
            y = h // 2 - 40
        for text, size, color in ((self._fault_hint, 24, P.INK),
                                  (self.fault or "", 16, P.SEPIA)):
            img = F.render(text, max(10, round(size * unit)), color, "italic")
            self.window.blit(img, img.get_rect(midtop=(w // 2, y)))
            y += img.get_height() + round(10 * unit)

    def draw(self) -> None:
        for scene in self.stack.visible():
            scene.draw(self.window)
            scene.ui.draw_ui(self.window)
        if self.notice is not None:
            if self.notice.left() > 0:
                top = self.stack.top
                draw_notice(self.window, self.notice, top.notice_area() if top is not None else None)
            else:
                self.notice = None

    def tell(self, words: str) -> None:
        """Show ``words`` over whatever page is on top for a few seconds (see :mod:`.notice`),
        from the next frame on: the page a scene hands over to shows them on its first frame.
        Words told before the frame that would show the last ones are shown with them."""
        if self.notice is not None and self.notice.until is None and words not in self.notice.words:
            words = f"{self.notice.words} {words}"
        self.notice = Notice(words)
        self.wake()

    def _event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.quit()
            return
        if event.type == pygame.VIDEORESIZE and not self.headless:
            self.resize((event.w, event.h))
            return
        if event.type == pygame.WINDOWFOCUSLOST:
            self.focused = False
        elif event.type == pygame.WINDOWFOCUSGAINED:
            self.focused = True
            self.set_caption(_(TITLE))
        notice = self.notice
        if (event.type == pygame.MOUSEBUTTONDOWN and notice is not None and notice.rect is not None
                and notice.rect.collidepoint(event.pos)):
            self.notice = None             # a click on the notice puts it away (and does nothing else)
            return
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
        clear_caches()     # every cached picture was drawn for the old size
        for scene in self.stack.scenes:
            scene.resize(size)
        give_back()

    def speak(self, language: str) -> None:
        """Speak ``language`` from now on ("" for the system's, see :func:`game.i18n.use`): every
        page on the stack builds its widgets again, so the next frame says everything in it."""
        i18n.use(language)
        self.set_caption(_(TITLE))
        clear_caches()     # a cached picture may hold words
        for scene in self.stack.scenes:
            scene.resize(self.size)
        self.wake()

    def scene(self, name: str, *args: Any, **kwargs: Any) -> Scene:
        """The screen called ``name`` (see :mod:`.registry`), built for this app."""
        return registry.make(name, self, *args, **kwargs)

    def _follow_turn_news(self) -> None:
        """A game on a server that became the player's turn (see :class:`~game.client.my_games.TurnNews`,
        started at the first frame): said over the page, and in the window's title."""
        if self.turn_news is None:
            from game.client.my_games import TurnNews, news_interval
            self.turn_news = TurnNews(self.data_dir, news_interval(), wake=self.wake)
            return
        lines = self.turn_news.take()
        if lines:
            for line in lines:
                self.tell(line)
            self.set_caption(_("\u25cf Your turn \u2014 {title}").format(title=_(TITLE)))

    def set_caption(self, caption: str) -> None:
        self.caption = caption
        if not self.headless:
            pygame.display.set_caption(caption)

    def notify_turn(self) -> None:
        """It is the player's turn: a short sound if enabled, and a title flash when unfocused."""
        if self.settings.sound:
            if self.sound is None:
                from .sound import Sound
                self.sound = Sound()
            self.sound.play_turn()
        if not self.focused and not self.headless:
            pygame.display.set_caption(_("\u25cf Your turn \u2014 {title}").format(title=_(TITLE)))

    def quit(self) -> None:
        """Quit; while hosting a game with other people at it, ask first (the ``before_quit``
        action, :func:`.hosting.ask_before_quitting`)."""
        try:
            ask = registry.action("before_quit")
            if ask is not None and ask(self):
                return
        except Exception:   # asking must never keep a player from quitting
            log.exception("cannot ask before quitting")
        self.running = False

    def shutdown(self) -> None:
        if self.turn_news is not None:
            self.turn_news.close()
            self.turn_news = None
        matches = {id(sc.session.match): sc.session.match for sc in self.stack.scenes if sc.session is not None}
        while self.stack.top is not None:
            self.stack.pop()
        for match in matches.values():   # a bot match's worker process ends now (the game stays saved)
            match.shutdown()
        if self.server is not None:
            self.server.stop()
            self.server = None
        pygame.quit()

    def screenshot(self, path: str | os.PathLike) -> None:
        self.draw()
        pygame.image.save(self.window, str(path))


WINDOW_SIZES = [(1024, 640), (1280, 720), (1280, 800), (1366, 768), (1440, 900), (1600, 900),
                (1680, 1050), (1920, 1080), (1920, 1200), (2560, 1440), (3840, 2160)]
"""The window sizes Settings offers (those that fit the screen)."""
DECORATION = (0, 64)
"""Room a window needs beyond its size: title bar and task bar."""


def desktop_size() -> tuple[int, int] | None:
    """The largest screen's size (None if pygame cannot tell)."""
    try:
        sizes = pygame.display.get_desktop_sizes()
    except (pygame.error, AttributeError):
        return None
    sizes = [tuple(s) for s in sizes if s[0] > 0 and s[1] > 0]
    return max(sizes, key=lambda s: s[0] * s[1]) if sizes else None   # type: ignore[return-value]


def fits(size: tuple[int, int], screen: tuple[int, int] | None) -> bool:
    """Whether a window of ``size`` fits on ``screen`` with its decorations (any size does when the
    screen is unknown)."""
    if screen is None:
        return True
    return size[0] + DECORATION[0] <= screen[0] and size[1] + DECORATION[1] <= screen[1]


def largest_fitting(screen: tuple[int, int] | None) -> tuple[int, int]:
    """The largest of :data:`WINDOW_SIZES` that fits ``screen`` (the smallest if none does)."""
    fitting = [s for s in WINDOW_SIZES if fits(s, screen)]
    return max(fitting, key=lambda s: s[0] * s[1]) if fitting else WINDOW_SIZES[0]


def window_icon(size: int = 64) -> pygame.Surface:
    """The game's icon: a coin marble on a walnut tile with a gold rim."""
    from .art import marbles as M
    from .art import palette as P
    icon = pygame.Surface((size, size), pygame.SRCALPHA)
    rect = icon.get_rect().inflate(-size // 16, -size // 16)
    radius = size // 5
    pygame.draw.rect(icon, P.WALNUT_DARK, rect, border_radius=radius)
    pygame.draw.rect(icon, P.GOLD, rect, width=max(2, size // 20), border_radius=radius)
    marble = M.marble("Coin", round(size * 0.68))
    icon.blit(marble, marble.get_rect(center=rect.center))
    return icon


_UI_EVENTS = {
    pygame_gui.UI_BUTTON_PRESSED, pygame_gui.UI_TEXT_ENTRY_FINISHED, pygame_gui.UI_TEXT_ENTRY_CHANGED,
    pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED, pygame_gui.UI_DROP_DOWN_MENU_CHANGED,
    pygame_gui.UI_HORIZONTAL_SLIDER_MOVED, pygame_gui.UI_WINDOW_CLOSE,
}
