"""What every board panel shares: the hit type, the per-frame context, drawing helpers.

A panel (:mod:`.top_bar`, :mod:`.market`, :mod:`.grid`, :mod:`.faith`, :mod:`.player_board`,
:mod:`.log`, :mod:`.plan`, :mod:`.actions`) is built from its rect and the board's ``unit``. It
answers "what is under this point" with :meth:`Panel.hits` and draws itself with
:meth:`Panel.draw`; both compute the panel's geometry from the rect and the :class:`Context`,
so drawing never depends on hit regions computed by an earlier frame.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import pygame

from game.client import board_input as BI
from game.client.board_input import RESOURCES, owned  # noqa: F401  (RESOURCES: the panels take it from here)

from .. import art
from ..art import fonts as F
from ..art import palette as P

Target = BI.Target
PLAYER_COLORS = [(178, 52, 40), (40, 96, 160), (46, 122, 70), (150, 104, 24)]


@dataclass
class Hit:
    """A clickable thing on the board: where it is and what it is (``target``, one of the typed
    targets of :mod:`game.client.board_input`: ``Line``, ``Card``, ``Shelf``, ``Leader``...), which
    the board's input takes as it is."""
    rect: pygame.Rect
    target: Target


@dataclass
class Context:
    """Everything a panel draws from, for one frame: the session's view model and the scene's
    input state (read only)."""
    session: Any
    plan: Any = None
    hover: Target | None = None
    selected_item: int | None = None
    selected_shelf: int | None = None
    viewing: str | None = None
    flash: float = 0.0
    buyable: Callable[[], set] = field(default=lambda: set())
    cards: Mapping[int, dict] = field(default_factory=dict)
    leaders: Mapping[int, dict] = field(default_factory=dict)
    chat: bool = False
    log_scroll: int = 0
    log_unseen: int = 0            # rows told while the log was scrolled back (shown below, unread)
    note: str | None = None        # why the last choice in the plan could not be taken
    can_produce: bool = True       # some production could run now with what the player owns
    link: Any = None               # the connection to the server, to show (None: none to show)

    @property
    def vm(self):
        return self.session.vm

    @property
    def g(self) -> dict[str, Any]:
        return self.session.vm.game

    @property
    def me(self) -> dict[str, Any]:
        return self.session.vm.me

    @property
    def nickname(self) -> str:
        return self.session.vm.nickname

    @property
    def can_act(self) -> bool:
        return bool(self.vm.my_turn and not self.session.connection_lost and not self.g.get("ended"))

    @property
    def main_open(self) -> bool:
        """The player may still take their main action (market, card or production) now."""
        return self.can_act and not self.g["isMandatoryActionDone"]

    def vm_totals(self) -> dict[str, int]:
        """What the player owns of each resource (shelves, leader depots and strongbox)."""
        return owned(self.vm)

    def productions(self) -> dict[int, dict[str, Any]]:
        return {p["id"]: p for p in self.g["productions"]}

    def changed(self, kind: str) -> list:
        """The view model's last changes of ``kind`` while they still glow."""
        if self.flash <= 0:
            return []
        return [c for c in self.vm.last_changes if c.kind == kind]


class Panel:
    """One region of the board (see the module docstring)."""

    def __init__(self, rect: pygame.Rect, unit: float) -> None:
        self.rect = pygame.Rect(rect)
        self.unit = unit

    def px(self, n: float) -> int:
        """``n`` design pixels at this board's scale."""
        return round(n * self.unit)

    def hits(self, ctx: Context) -> list[Hit]:
        """The clickable things of this panel, topmost last."""
        return []

    def draw_static(self, surface: pygame.Surface) -> None:
        """What changes only with the window size (panel paper, headings)."""

    def draw(self, surface: pygame.Surface, ctx: Context) -> None:
        """The panel's content, from the view model."""

    def draw_hover(self, surface: pygame.Surface, ctx: Context) -> None:
        """Marks for what the mouse is over (every frame, over the cached board)."""


def reading_size(unit: float) -> int:
    """The log's type size at this board's scale: no text a player must read is smaller."""
    return max(12, round(15 * unit))


def fit_lines(words: str, size: int, floor: int, width: int, most: int, style: str = "italic") -> tuple[int, list[str]]:
    """``words`` wrapped to ``width``: at ``size`` if that takes at most ``most`` lines, else at
    the largest size down to ``floor`` that does, else at ``floor`` (every line; the caller cuts)."""
    from ..backdrop import wrap
    for s in range(max(size, floor), floor - 1, -1):
        lines = wrap(words, s, width, style)
        if len(lines) <= most:
            return s, lines
    return floor, wrap(words, floor, width, style)


def target_at(hits: list[Hit], pos: tuple[int, int]) -> Target | None:
    """The topmost target under ``pos``."""
    for hit in reversed(hits):
        if hit.rect.collidepoint(pos):
            return hit.target
    return None


def glow(surface: pygame.Surface, rect: pygame.Rect, color: tuple[int, int, int], width: int = 3,
         radius: int = 8) -> None:
    pad = width + 2
    layer = pygame.Surface((rect.w + 2 * pad, rect.h + 2 * pad), pygame.SRCALPHA)
    for i in range(width, 0, -1):
        alpha = int(200 * (1 - i / (width + 1)))
        pygame.draw.rect(layer, (*color, alpha), layer.get_rect().inflate(-2 * (pad - i), -2 * (pad - i)),
                         width=2, border_radius=radius + i)
    surface.blit(layer, (rect.x - pad, rect.y - pad))


def veil(surface: pygame.Surface, rect: pygame.Rect, alpha: int = 110, radius: int = 6) -> None:
    layer = pygame.Surface(rect.size, pygame.SRCALPHA)
    pygame.draw.rect(layer, (*P.DIM[:3], alpha), layer.get_rect(), border_radius=radius)
    surface.blit(layer, rect.topleft)


def text(surface: pygame.Surface, words: str, pos: tuple[int, int], size: int, color=None, style: str = "regular",
         anchor: str = "topleft", max_width: int | None = None) -> pygame.Rect:
    if max_width is not None:
        size = F.fit(words, max_width, size, style)
    img = F.render(words, size, color or P.INK, style)
    r = img.get_rect(**{anchor: pos})
    surface.blit(img, r)
    return r


def panel(surface: pygame.Surface, rect: pygame.Rect, radius: int = 10, fill=None, border=None) -> None:
    """A framed panel with a soft shadow: parchment, or ``fill``."""
    shadow = pygame.Surface((rect.w + 8, rect.h + 8), pygame.SRCALPHA)
    pygame.draw.rect(shadow, (30, 18, 8, 70), shadow.get_rect(), border_radius=radius + 4)
    surface.blit(shadow, (rect.x - 2, rect.y + 2))
    if fill is None:
        surface.blit(art.board.parchment(rect.w, rect.h), rect)
    else:
        pygame.draw.rect(surface, fill, rect, border_radius=radius)
    pygame.draw.rect(surface, border or P.GOLD, rect, width=2, border_radius=radius)
