"""The action bar: Confirm and Back while a plan is built, Produce… and End turn otherwise, and
a row of small buttons at its foot (Rules, Leave; more can be added to :data:`SMALL`)."""
from __future__ import annotations

from typing import Sequence

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.client.greyed import greyed_words as _greyed_words
from game.i18n import N_, _

from .base import Context, Panel

MAIN = [("confirm", N_("Confirm"), "@menu", 0, N_("Send what you planned (Enter)")),
        ("back", N_("Back"), "@quiet", 1, N_("Drop this plan; nothing was sent (Esc or a right click)")),
        ("produce", N_("Produce…"), None, 0, N_("Choose productions to run: your main action")),
        ("end", N_("End turn"), None, 1, N_("Pass to the next player, once your main action is done"))]
"""(key, label, theme class, column, tooltip) of the large buttons (words marked N_, said with _())."""

SMALL = [("leave", N_("Leave"), N_("Back to the title (a solo game is saved; online, you can join again later)")),
         ("rules", N_("Rules"), N_("How to play, in eight short pages (F1); the game waits here")),
         ("undo", N_("Undo"), N_("Take back your last move of this turn (Ctrl+Z), until you buy a card, "
                                 "end the turn, or the others' boards change")),
         ("hint", N_("Hint"), N_("What the hard computer player would do now (H): a plan to look at, then "
                                 "confirm, change or drop"))]
"""(key, label, tooltip) of the small buttons, two to a row from the bottom right (see
:meth:`ActionBar.small_rect`)."""


class ActionBar(Panel):
    def small_rect(self, i: int) -> pygame.Rect:
        """The ``i``-th small button: two to a row under the large ones, filled from the bottom
        right (right column first), so that every one stays inside the bar."""
        a = self.rect
        gap = self.px(8)
        col_w = (a.w - self.px(24)) // 2
        lh = self.px(26)
        row, col = divmod(i, 2)
        x = a.x + self.px(8) + (1 - col) * (col_w + gap)
        y = a.bottom - self.px(6) - (row + 1) * lh - row * self.px(6)
        return pygame.Rect(x, y, col_w, lh)

    def main_rects(self) -> tuple[pygame.Rect, pygame.Rect]:
        """The two large buttons' places, left and right (Confirm/Back, Produce/End turn, or a
        leader's Play/Discard)."""
        a = self.rect
        bh = self.px(44)
        col_w = (a.w - self.px(24)) // 2
        left = pygame.Rect(a.x + self.px(8), a.y + self.px(10), col_w, bh)
        return left, left.move(col_w + self.px(8), 0)

    def build(self, ui: pygame_gui.UIManager) -> dict[str, pygame_gui.elements.UIButton]:
        """The bar's buttons, by key."""
        out: dict[str, pygame_gui.elements.UIButton] = {}
        places = self.main_rects()
        for key, label, cls, col, tip in MAIN:
            out[key] = pygame_gui.elements.UIButton(
                places[col], _(label), ui, tool_tip_text=_(tip),
                object_id=ObjectID(class_id=cls) if cls else None)
        for i, (key, label, tip) in enumerate(SMALL):
            out[key] = pygame_gui.elements.UIButton(self.small_rect(i), _(label), ui, tool_tip_text=_(tip),
                                                    object_id=ObjectID(class_id="@quiet"))
        return out

    def place_tooltips(self, ui: pygame_gui.UIManager, avoid: Sequence[pygame.Rect] = ()) -> None:
        """A tooltip that would cover the bar, or what the player must read now (``avoid``: a
        refusal, an export's "Saved as…"), goes where it covers neither (:meth:`tip_rect`)."""
        window = pygame.Rect((0, 0), ui.get_root_container().get_rect().size)
        for el in ui.get_sprite_group().sprites():
            if isinstance(el, pygame_gui.elements.UITooltip) and (
                    el.rect.colliderect(self.rect) or any(el.rect.colliderect(a) for a in avoid)):
                r = self.tip_rect(el.rect.size, window, avoid)
                if r.topleft != el.rect.topleft:
                    el.set_position(r.topleft)

    def tip_rect(self, size: tuple[int, int], window: pygame.Rect,
                 avoid: Sequence[pygame.Rect] = ()) -> pygame.Rect:
        """Where a tooltip of ``size`` about the bar goes: above it, right-aligned with it (the
        buttons stay in view while it is read); when that would cover something in ``avoid``,
        beside the bar on the left, over the log's newest lines (or above those, when no room)."""
        gap = self.px(6)
        r = pygame.Rect((0, 0), size)
        places = [("bottomright", (self.rect.right, self.rect.top - gap)),
                  ("bottomright", (self.rect.left - gap, self.rect.bottom)),
                  ("bottomleft", (self.rect.left, self.rect.top - gap))]
        for anchor, at in places:
            setattr(r, anchor, at)
            r.clamp_ip(window)
            if not r.colliderect(self.rect) and not any(r.colliderect(a) for a in avoid):
                return r
        r.bottomright = places[1][1]
        r.clamp_ip(window)
        return r

    @staticmethod
    def refresh(buttons: dict[str, pygame_gui.elements.UIButton], ctx: Context) -> None:
        """Show and enable what fits the moment: a plan's Confirm/Back, or Produce/End turn."""
        if not buttons:
            return
        planning = ctx.plan is not None
        for key in ("confirm", "back"):
            (buttons[key].show if planning else buttons[key].hide)()
        (buttons["produce"].hide if planning else buttons["produce"].show)()
        (buttons["end"].hide if planning else buttons["end"].show)()
        (buttons["produce"].enable if ctx.main_open and ctx.can_produce and not planning
         else buttons["produce"].disable)()
        if "hint" in buttons:   # the board sets its text while the hint is being thought about
            (buttons["hint"].enable if ctx.can_act and not planning else buttons["hint"].disable)()
        done = ctx.can_act and ctx.g["isMandatoryActionDone"]
        (buttons["end"].enable if done and not planning else buttons["end"].disable)()
        session = ctx.session
        (buttons["undo"].show if session.match.supports_undo else buttons["undo"].hide)()
        (buttons["undo"].enable if session.can_undo and not planning else buttons["undo"].disable)()
        if planning:
            ready = getattr(ctx.plan, "ready", True)
            (buttons["confirm"].enable if ready else buttons["confirm"].disable)()


def greyed_words(key: str, ctx: Context) -> str | None:
    """Why the action bar's button ``key`` is greyed now, in words (None: no reason to give); the
    words are the client's (:func:`game.client.greyed.greyed_words`), shared with the text client."""
    return _greyed_words(key, ctx.session, ctx.plan)
