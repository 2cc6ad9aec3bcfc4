"""Scenes by name: the launcher registers every screen once (:func:`game.scenes.catalog.register_scenes`);
a scene asks for another one by name (``app.scene("title")``), so that no screen imports another
and the modules of game/scenes import each other in no circle.

The stages of a game (:meth:`game.client.session.GameSession.stage`: ``lobby``, ``leaders``,
``resources``, ``waiting``, ``board``, ``ended``) are names too: the screen a game goes to.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from .scene import Scene

_SCENES: dict[str, Callable[..., "Scene"]] = {}
_ACTIONS: dict[str, Callable[..., Any]] = {}


def register(name: str, make: Callable[..., "Scene"]) -> None:
    """``make(app, *args, **kwargs)`` builds the screen called ``name``."""
    _SCENES[name] = make


def registered(name: str) -> bool:
    return name in _SCENES


def register_action(name: str, do: Callable[..., Any]) -> None:
    """What the app calls at one of its moments (``"leave_game"``: leave the game for the title;
    ``"before_quit"``: ask before quitting, True if it asked), so that it imports no scene helper."""
    _ACTIONS[name] = do


def action(name: str) -> Callable[..., Any] | None:
    """The action registered as ``name``, if any."""
    return _ACTIONS.get(name)


def make(name: str, app: Any, *args: Any, **kwargs: Any) -> "Scene":
    """The screen called ``name``, built for ``app``.

    :raises LookupError: no screen has that name (the launcher registers them all).
    """
    try:
        factory = _SCENES[name]
    except KeyError:
        raise LookupError(f"no scene is registered as {name!r} (game.scenes.catalog.register_scenes() "
                          "fills the registry)") from None
    return factory(app, *args, **kwargs)
