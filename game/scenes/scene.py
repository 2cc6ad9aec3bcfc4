"""Scenes and the scene stack.

A scene is one screen of the client (title, lobby, board...). The :class:`SceneStack` calls its
hooks in this order: ``enter`` once when it is pushed; ``resume`` whenever it becomes the top
scene again (after ``enter`` too); ``handle_event`` for each input event while on top;
``update(dt)`` once per frame while on top; ``draw(surface)`` once per frame for the top scene
(and for the scenes under an overlay that is not opaque); ``pause`` when another scene is pushed
over it; ``exit`` once when it is popped. ``draw`` never changes state.

Frames run only while something happens (see :mod:`game.scenes.app`): after input, after
:meth:`App.wake <game.scenes.app.App.wake>`, and as often as :meth:`Scene.frame_interval` asks. A
scene that moves by itself (an animation, a timer) says so there; one that waits on a thread has
the thread call ``app.wake()``.

Each scene owns a pygame_gui ``UIManager`` (themed by ``config/theme.json``) for its widgets, made
by :func:`ui_manager`: the managers of all scenes at one scale share one theme (its fonts and its
cache of widget shapes, whose atlases alone weigh 4-12 MB), so a scene costs only its widgets.
"""
from __future__ import annotations

import copy
import functools
from typing import TYPE_CHECKING, Any, Callable, TypeVar

import pygame
import pygame_gui

from game.resources import CONFIG_DIR, data_path

if TYPE_CHECKING:
    from game.client.notices import Notice, Subscription
    from game.client.session import GameSession

    from .app_port import AppPort as App

    N = TypeVar("N", bound=Notice)

THEME_PATH = CONFIG_DIR / "theme.json"
_THEME: dict | None = None


def theme() -> dict:
    """``config/theme.json`` with its font paths made absolute (so any working directory works)."""
    global _THEME
    if _THEME is None:
        import json
        data = json.loads(THEME_PATH.read_text(encoding="utf-8"))
        for block in data.values():
            font = block.get("font") if isinstance(block, dict) else None
            if font:
                for key in ("regular_path", "italic_path", "bold_path", "bold_italic_path"):
                    if key in font:
                        font[key] = str(data_path(font[key]))
        _THEME = data
    return _THEME


# ---------------------------------------------------------------------------- theme at scale
_SCALED_KEYS = ("border_width", "shadow_width", "shape_corner_radius", "list_item_height", "rect_width")


@functools.lru_cache(maxsize=8)
def _scaled_theme(scale: float) -> str:
    import json
    data = copy.deepcopy(theme())
    # a quiet (paper-coloured) button with the menu's larger type, for secondary menu entries
    if "@menu" in data and "@quiet" in data:
        data["@menu_quiet"] = {**copy.deepcopy(data["@menu"]), "colours": copy.deepcopy(data["@quiet"]["colours"])}
    for block in data.values():
        if not isinstance(block, dict):
            continue
        font = block.get("font")
        if isinstance(font, dict) and "size" in font:
            font["size"] = str(max(10, round(int(font["size"]) * scale)))
        misc = block.get("misc")
        if isinstance(misc, dict):
            for key in _SCALED_KEYS:
                if key in misc:
                    misc[key] = str(max(1, round(float(misc[key]) * scale)))
            if "padding" in misc:
                misc["padding"] = ",".join(str(max(1, round(int(v) * scale))) for v in misc["padding"].split(","))
    return json.dumps(data)


def scaled_theme(scale: float) -> dict:
    """``config/theme.json`` with font sizes, borders and padding multiplied by ``scale``."""
    import json
    return json.loads(_scaled_theme(round(scale, 2)))



_THEMES: dict[float, Any] = {}
"""The pygame_gui theme of each scale in use (only the latest scale is kept: scenes made at an
older one keep theirs alive through their managers until they go)."""


class _SharedThemeManager(pygame_gui.UIManager):
    """A ``UIManager`` whose theme is the one shared by every manager at its scale."""

    def __init__(self, size: tuple[int, int], scale: float) -> None:
        self._theme_scale = scale
        super().__init__(size, None, enable_live_theme_updates=False)

    def create_new_theme(self, theme_path: Any = None) -> Any:
        if theme_path is not None:   # an explicit theme (not ours): a theme of its own
            return super().create_new_theme(theme_path)
        shared = _THEMES.get(self._theme_scale)
        if shared is None:
            _THEMES.clear()
            shared = super().create_new_theme(scaled_theme(self._theme_scale))
            _THEMES[self._theme_scale] = shared
        return shared


def ui_manager(size: tuple[int, int], scale: float) -> pygame_gui.UIManager:
    """A pygame_gui manager for a scene of a window of ``size``, themed at ``scale`` (the theme is
    shared with every other scene's manager at that scale)."""
    return _SharedThemeManager(size, round(scale, 2))


def shared_themes() -> int:
    """How many pygame_gui themes are kept for new managers (tests read it)."""
    return len(_THEMES)


def unit_of(size: tuple[int, int]) -> float:
    """One design pixel at this window size (1.0 at 1280x800)."""
    return min(size[0] / 1280, size[1] / 800)


class Scene:
    """Base class of every screen."""

    opaque = True  # False for overlays: the scene below is drawn first
    session: "GameSession | None" = None   # the game this scene shows, if it shows one

    def __init__(self, app: "App") -> None:
        self.app = app
        self._listening: list[Subscription[Any]] = []
        self._ui_scale = round(unit_of(app.size), 2)
        self.ui = ui_manager(app.size, self._ui_scale)

    # lifecycle ---------------------------------------------------------------------------
    def enter(self) -> None:
        """Called once, when the scene is pushed. Build widgets here."""
        self.build()

    def resume(self) -> None:
        """Called each time the scene becomes the top scene."""

    def pause(self) -> None:
        """Called when another scene is pushed over this one."""

    def exit(self) -> None:
        """Called once, when the scene is popped."""
        for sub in getattr(self, "_listening", ()):
            sub.close()
        self.ui.clear_and_reset()

    def listen(self, session: "GameSession", kind: "type[N]", listener: "Callable[[N], Any]") -> None:
        """Hear ``session``'s notices of ``kind`` (:mod:`game.client.notices`) until the scene
        leaves the stack (or is gone, for a listener that is one of its methods)."""
        self._listening.append(session.notices.subscribe(kind, listener))

    def resize(self, size: tuple[int, int]) -> None:
        """The window changed size: lay the widgets out again (with type scaled to the new size)."""
        self.fit_ui(size)
        self.build()

    def fit_ui(self, size: tuple[int, int]) -> None:
        """Make :attr:`ui` a manager for a window of ``size``, emptied of widgets: the same one
        when the scale is unchanged, else a new one themed at the new scale."""
        scale = round(unit_of(size), 2)
        if scale != self._ui_scale:
            self._ui_scale = scale
            self.ui.clear_and_reset()
            self.ui = ui_manager(size, scale)
        else:
            if tuple(self.ui.window_resolution) != tuple(size):
                self.ui.set_window_resolution(size)
            self.ui.clear_and_reset()

    # per frame ---------------------------------------------------------------------------
    def build(self) -> None:
        """Create the widgets for the current window size."""

    def handle_event(self, event: pygame.event.Event) -> None:
        """One input event (pygame_gui has already seen it)."""

    def update(self, dt: float) -> None:
        """Advance the scene by ``dt`` seconds."""

    def frame_interval(self) -> float | None:
        """How often this scene needs a frame while nothing happens: None when it is still (the
        app sleeps until input or a wake-up), 0 while it animates (every frame), else seconds.

        The default asks for a few frames a second while a text entry has the focus (its cursor
        blinks); scenes that animate extend it."""
        for element in self.ui.get_sprite_group().sprites():
            if isinstance(element, pygame_gui.elements.UITextEntryLine) and element.is_focused and element.visible:
                return 0.2
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the scene (background and game art); the app draws the widgets on top."""

    def notice_area(self) -> pygame.Rect | None:
        """Where the app's notice strip (:mod:`.notice`) may go without hiding what the player
        needs in view (on the board: its log, which keeps the same words as its newest line);
        None: the top centre of the window."""
        return None

    def on_ui(self, event: pygame.event.Event) -> Any:
        """A pygame_gui event of this scene's widgets (button pressed, text entered...)."""


class SceneStack:
    """The scenes of the app, the top one active."""

    def __init__(self) -> None:
        self.scenes: list[Scene] = []
        self.resets = 0      # times the stack started again (see :meth:`reset`)
        self.handovers = 0   # times a scene took the top one's place (see :meth:`replace`)

    @property
    def top(self) -> Scene | None:
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> None:
        if self.top is not None:
            self.top.pause()
        self.scenes.append(scene)
        scene.enter()
        scene.resume()

    def pop(self) -> Scene | None:
        if not self.scenes:
            return None
        scene = self.scenes.pop()
        scene.exit()
        if self.top is not None:
            self.top.resume()
        return scene

    def replace(self, scene: Scene) -> None:
        """``scene`` takes the top one's place (a game's next stage, the next menu): the pictures
        cached for the one that goes are dropped, as by :meth:`reset` (the leader choice's large
        cards and halos were kept through a whole game, the board's through the scores)."""
        from .memory import clear_caches
        if self.scenes:
            self.scenes.pop().exit()
            clear_caches()
            self.handovers += 1
        self.scenes.append(scene)
        scene.enter()
        scene.resume()

    def reset(self, scene: Scene) -> None:
        """Pop everything and start again from ``scene`` (the pictures cached for the scenes
        left are dropped; the app gives their memory back after the next frame)."""
        from .memory import clear_caches
        while self.scenes:
            self.scenes.pop().exit()
        clear_caches()
        self.resets += 1
        self.push(scene)

    def visible(self) -> list[Scene]:
        """The scenes to draw, bottom first: the top one and any under non-opaque overlays."""
        out: list[Scene] = []
        for scene in reversed(self.scenes):
            out.append(scene)
            if scene.opaque:
                break
        return list(reversed(out))
