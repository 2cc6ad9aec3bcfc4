"""The log of the game (what happened, newest at the foot) and, in a game with others, a line
to talk to the table."""
from __future__ import annotations

import pygame
import pygame_gui

from ..art import palette as P
from ..session import ChatLine
from .base import Context, Panel, text


class LogPanel(Panel):
    def chat_rect(self) -> pygame.Rect:
        eh = self.px(30)
        r = self.rect
        return pygame.Rect(r.x + self.px(8), r.bottom - eh - self.px(6), r.w - self.px(16), eh)

    def build_chat(self, ui: pygame_gui.UIManager) -> pygame_gui.elements.UITextEntryLine:
        entry = pygame_gui.elements.UITextEntryLine(self.chat_rect(), ui,
                                                    placeholder_text="Say something to the table, then Enter")
        entry.set_text_length_limit(200)
        return entry

    def draw(self, surface: pygame.Surface, ctx: Context) -> None:
        r = self.rect
        size = self.px(16)
        line_h = round(size * 1.25)
        foot = self.px(42) if ctx.chat else 0   # room for the chat line
        lines = ctx.session.log[-max(1, (r.h - self.px(12) - foot) // line_h):]
        y = r.bottom - self.px(8) - foot - line_h * len(lines)
        for k, line in enumerate(lines):
            x = r.x + self.px(10)
            if isinstance(line, ChatLine):   # what a player said: their name, then their words
                name = text(surface, line.speaker + ":", (x, y), size, P.OXBLOOD, "regular")
                text(surface, line[len(line.speaker) + 1:].strip(), (name.right + self.px(6), y), size, P.SEPIA,
                     "regular", max_width=r.right - self.px(10) - name.right - self.px(6))
                y += line_h
                continue
            last = k == len(lines) - 1
            text(surface, line, (x, y), size, P.OXBLOOD if last and ctx.flash > 0 else P.INK,
                 "regular" if last else "italic", max_width=r.w - self.px(20))
            y += line_h
        if not lines:
            text(surface, "The game begins.", (r.x + self.px(10), r.y + self.px(8)), size, P.SEPIA, "italic")
