"""What a scene may ask of the app: the narrow interface of :class:`game.scenes.app.App` that
the scenes, the router and the hosting questions use (:class:`AppPort`), so that none of them
imports :mod:`.app`, not even for its types, and the app imports none of them: the launcher tells
the app what to call on leaving a game and before quitting (:mod:`.registry`'s actions).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from game.client.games import GameConfig
    from game.settings import Settings


class AppPort(Protocol):
    """The app as a scene sees it."""

    settings: "Settings"
    config: "GameConfig"
    size: tuple[int, int]
    screen_size: tuple[int, int] | None
    stack: Any
    """The scenes, the top one active (:class:`.scene.SceneStack`)."""
    server: Any
    """The server this app hosts in its process, while it does (see :mod:`game.client.flow.hosting`)."""
    running: bool

    @property
    def data_dir(self) -> Path: ...

    @property
    def solo_save_path(self) -> Path: ...

    def scene(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """The screen called ``name`` (see :mod:`.registry`), built for this app."""
        ...

    def wake(self) -> None:
        """Ask for frames now (from any thread)."""
        ...

    def tell(self, words: str) -> None:
        """Show ``words`` over whatever page is on top for a few seconds."""
        ...

    def notify_turn(self) -> None:
        """It is the player's turn: a sound, a title flash."""
        ...

    def quit(self) -> None:
        """Quit (asking first while hosting a game with other people at it)."""
        ...

    def resize(self, size: tuple[int, int]) -> None:
        """Give the window a new size."""
        ...
