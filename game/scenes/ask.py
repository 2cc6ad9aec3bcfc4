"""A question over the current screen: a card with a title, a few lines and two or three answers
(Enter gives the default answer, the first unless told otherwise; Esc gives the last, which should
change nothing).

Every confirmation of the game is one: starting a new solo game over a saved one (or a damaged
one), leaving or quitting while hosting a game with players seated, discarding resources from a
market line, ending the turn. It is modal: the screen behind is blurred and darkened, takes no
input (the scene stack gives events to the top scene only), and waits until it is answered.
"""
from __future__ import annotations

from typing import Callable, Sequence

import pygame

from .art import fonts
from .backdrop import INK, OXBLOOD, PANEL, SEPIA, PaintedScene, blit_lines, dim, panel, wrap

COLUMN_FROM = 3
"""More answers than this, or a long one, are a list, one a row (a row of buttons would not fit
the card, or cut their words)."""


class AskScene(PaintedScene):
    """Ask ``title`` (explained by ``text``) with ``answers`` = [(name, label, tooltip or None)];
    the scene pops itself, then calls ``then(name)``. ``default``: the answer Enter gives, drawn as
    the main button (the first one when None); a question whose first answer cannot be undone (ending
    a table others sit at) makes the harmless one the default, so that a key carried over from the
    screen behind changes nothing."""

    opaque = False

    def __init__(self, app, title: str, text: str, answers: Sequence[tuple[str, str, str | None]],
                 then: Callable[[str], None], warning: bool = False, default: str | None = None) -> None:
        super().__init__(app)
        self.title, self.text, self.answers, self.then = title, text, list(answers), then
        self.default = default if default in {a[0] for a in self.answers} else self.answers[0][0]
        self.warning = warning
        self.card = pygame.Rect(0, 0, 0, 0)

    def layout(self) -> None:
        w, h = self.app.size
        u = self.unit
        n = len(self.answers)
        small = max(12, round(21 * u))
        if n > COLUMN_FROM or any(fonts.font(20).size(label)[0] > 200 for _n, label, _t in self.answers):
            # a list to choose from (the games kept on servers): one answer a row, as wide as the
            # longest needs within the window; one longer still is cut, whole in its tooltip
            fit = max(600, min(max(_menu_width(label) for _n, label, _t in self.answers) + 60,
                               round(w / u) - 220))
            bw, bh, gap = round(fit * u), round(44 * u), round(10 * u)
            cw = bw + round(100 * u)
            shown = [(name, _cut(label, fit - 60), tip) for name, label, tip in self.answers]
            shown = [(name, cut, tip or (label if cut != label else None))
                     for (name, cut, tip), (_n, label, _t) in zip(shown, self.answers)]
            lines = wrap(self.text, small, cw - round(90 * u), "italic")
            ch = round(130 * u) + len(lines) * round(small * 1.2) + n * bh + (n - 1) * gap
            self.card = pygame.Rect((w - cw) // 2, max(0, (h - ch) // 2), cw, ch)
            x = self.card.centerx - bw // 2
            y = self.card.bottom - round(30 * u) - n * bh - (n - 1) * gap
            for i, (name, label, tip) in enumerate(shown):
                cls = "@menu" if name == self.default else "@menu_quiet"
                self.button(name, pygame.Rect(x, y + i * (bh + gap), bw, bh), label, cls, tooltip=tip)
            return
        bw, bh, gap = round((230 if n > 2 else 260) * u), round(50 * u), round(16 * u)
        cw = max(round(660 * u), n * bw + (n - 1) * gap + round(80 * u))
        lines = wrap(self.text, small, cw - round(90 * u), "italic")
        ch = round(150 * u) + len(lines) * round(small * 1.2) + bh
        self.card = pygame.Rect((w - cw) // 2, (h - ch) // 2, cw, ch)
        x = self.card.centerx - (n * bw + (n - 1) * gap) // 2
        y = self.card.bottom - bh - round(30 * u)
        for i, (name, label, tip) in enumerate(self.answers):
            cls = "@menu" if name == self.default else "@menu_quiet"
            self.button(name, pygame.Rect(x + i * (bw + gap), y, bw, bh), label, cls, tooltip=tip)

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        u = self.unit
        dim(surface)
        edge = max(2, round(6 * u))    # the paper is opaque: nothing behind shows through the words
        pygame.draw.rect(surface, PANEL, self.card.inflate(-2 * edge, -2 * edge), border_radius=edge)
        surface.blit(panel(self.card.w, self.card.h, u), self.card.topleft)
        size = max(14, round(32 * u))
        head = fonts.render(self.title, fonts.fit(self.title, self.card.w - round(60 * u), size),
                            OXBLOOD if self.warning else INK)
        y = self.card.y + round(34 * u)
        surface.blit(head, head.get_rect(midtop=(self.card.centerx, y)))
        small = max(12, round(21 * u))
        lines = wrap(self.text, small, self.card.w - round(90 * u), "italic")
        blit_lines(surface, lines, small, SEPIA, self.card.centerx, y + head.get_height() + round(14 * u), "italic",
                   align="center")

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.answer(self.answers[-1][0])
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.answer(self.default)

    def on_button(self, name: str) -> None:
        self.answer(name)

    @property
    def confirm_button(self):
        """The button of the first answer (the one Enter gives)."""
        return self.widgets.get(self.answers[0][0])

    def answer(self, name: str) -> None:
        if self.app.stack.top is self:
            self.app.stack.pop()
        self.then(name)


MENU_TYPE = 26
"""The size of the answers' words (the theme's ``@menu`` buttons), in design pixels."""


def _menu_width(label: str) -> int:
    """How wide ``label`` is on an answer's button, in design pixels."""
    return fonts.font(MENU_TYPE).size(label)[0]


def _cut(label: str, width: int) -> str:
    """``label`` as it fits ``width`` design pixels: whole, or cut at a word with an ellipsis."""
    if _menu_width(label) <= width:
        return label
    words = label.split(" ")
    while len(words) > 1 and _menu_width(" ".join(words) + "\u2026") > width:
        words.pop()
    return " ".join(words).rstrip(",") + "\u2026"
