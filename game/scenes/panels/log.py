"""The log of the game (what happened, newest at the foot, highlighted) and, in a game with
others, a line to talk to the table.

Long lines wrap at one type size (never shrunk). The mouse wheel over the log scrolls back
through everything the session has told (``Context.log_scroll``: rows up from the newest).
"""
from __future__ import annotations

import functools

import pygame
import pygame_gui

from game.i18n import _, ngettext

from game.client.session import ChatLine

from ..art import fonts as F
from ..art import palette as P
from .base import Context, Panel, reading_size, text

Row = tuple[str, str, bool, bool]
"""(speaker or "", words, first row of its line, newest line)."""


@functools.lru_cache(maxsize=4096)
def _wrap(words: str, size: int, width: int, style: str, indent: int) -> tuple[str, ...]:
    font = F.font(size, style)
    rows: list[str] = []
    line = ""
    room = width - indent
    for word in words.split(" "):
        trial = f"{line} {word}" if line else word
        if line and font.size(trial)[0] > room:
            rows.append(line)
            line, room = word, width
        else:
            line = trial
        while font.size(line)[0] > room and len(line) > 1:   # one word wider than the panel
            cut = len(line) - 1
            while cut > 1 and font.size(line[:cut])[0] > room:
                cut -= 1
            rows.append(line[:cut])
            line, room = line[cut:], width
    rows.append(line)
    return tuple(rows)


class LogPanel(Panel):
    def chat_rect(self, leave: int = 0) -> pygame.Rect:
        """The chat line, ``leave`` pixels left free at its right (for a switch beside it)."""
        eh = self.px(28)
        r = self.rect
        return pygame.Rect(r.x + self.px(8), r.bottom - eh - self.px(5), r.w - self.px(16) - leave, eh)

    def build_chat(self, ui: pygame_gui.UIManager, leave: int = 0) -> pygame_gui.elements.UITextEntryLine:
        entry = pygame_gui.elements.UITextEntryLine(self.chat_rect(leave), ui,
                                                    placeholder_text=_("Say something to the table, then Enter"))
        entry.set_text_length_limit(200)
        return entry

    @property
    def size(self) -> int:
        return reading_size(self.unit)

    @property
    def line_h(self) -> int:
        return round(self.size * 1.22)

    def text_area(self, chat: bool) -> pygame.Rect:
        """Where the rows go (above the chat line, if there is one)."""
        r = self.rect.inflate(-self.px(20), -self.px(12))
        if chat:
            r.h -= self.px(34)
        return r

    def visible_rows(self, chat: bool) -> int:
        return max(1, self.text_area(chat).h // self.line_h)

    def rows(self, ctx: Context) -> list[Row]:
        """Every line of the log wrapped to the panel's width, oldest first (kept until the log
        changes)."""
        lines = ctx.session.log
        key = (len(lines), ctx.chat, id(lines[-1]) if lines else None, lines[-1] if lines else None)
        if getattr(self, "_rows_key", None) == key:
            return self._rows
        self._rows, self._rows_key = self._wrap_all(ctx), key
        return self._rows

    def _wrap_all(self, ctx: Context) -> list[Row]:
        width = self.text_area(ctx.chat).w - self.px(10)
        out: list[Row] = []
        lines = ctx.session.log
        for k, line in enumerate(lines):
            newest = k == len(lines) - 1
            if isinstance(line, ChatLine):
                speaker = line.speaker + ":"
                indent = F.font(self.size, "regular").size(speaker + " ")[0]
                words = line[len(line.speaker) + 1:].strip()
                for i, row in enumerate(_wrap(words, self.size, width, "regular", indent)):
                    out.append((speaker if i == 0 else "", row, i == 0, newest))
            else:
                # measured in the wider roman: the newest line is set upright
                for i, row in enumerate(_wrap(str(line), self.size, width, "regular", 0)):
                    out.append(("", row, i == 0, newest))
        return out

    def max_scroll(self, ctx: Context) -> int:
        return max(0, len(self.rows(ctx)) - self.visible_rows(ctx.chat))

    def badge(self, ctx: Context) -> tuple[pygame.Surface, pygame.Rect]:
        """The words "↓ N new lines below" for the lines told while the log was scrolled back,
        and the pill they stand on, at the foot of the log (the rows are drawn above it)."""
        area = self.text_area(ctx.chat)
        k = ctx.log_unseen
        words = "\u2193 " + ngettext("{n} new line below: scroll down to read", "{n} new lines below: scroll down to read",
                                     k).format(n=k)
        img = F.render(words, max(10, self.px(14)), P.OXBLOOD, "italic")
        pill = img.get_rect(bottomright=(area.right, area.bottom)).inflate(self.px(12), self.px(4))
        pill.bottomright = (area.right + self.px(4), area.bottom + self.px(2))
        return img, pill

    def draw(self, surface: pygame.Surface, ctx: Context) -> None:
        area = self.text_area(ctx.chat)
        rows = self.rows(ctx)
        if not rows:
            text(surface, _("The game begins."), area.topleft, self.size, P.SEPIA, "italic")
            return
        n = self.visible_rows(ctx.chat)
        scroll = max(0, min(ctx.log_scroll, len(rows) - n))
        badge = self.badge(ctx) if scroll and ctx.log_unseen else None
        bottom = area.bottom if badge is None else badge[1].top - self.px(2)   # the rows stand above it
        shown = rows[max(0, len(rows) - n - scroll):len(rows) - scroll]
        shown = shown[max(0, len(shown) - max(1, (bottom - area.y) // self.line_h)):]
        y = bottom - self.line_h * len(shown)
        newest = [i for i, row in enumerate(shown) if row[3]]
        if newest:   # the newest line stands on a band of gold
            band = pygame.Rect(area.x - self.px(4), y + newest[0] * self.line_h - self.px(1),
                               area.w + self.px(8), len(newest) * self.line_h + self.px(2))
            layer = pygame.Surface(band.size, pygame.SRCALPHA)
            pygame.draw.rect(layer, (*P.GOLD_LIGHT, 110), layer.get_rect(), border_radius=4)
            surface.blit(layer, band)
        for speaker, words, _first, new in shown:
            x = area.x + self.px(4)
            if speaker:
                name = text(surface, speaker, (x, y), self.size, P.OXBLOOD, "regular")
                text(surface, words, (name.right + F.font(self.size, "regular").size(" ")[0], y), self.size,
                     P.SEPIA, "regular")
            elif words:
                text(surface, words, (x, y), self.size, P.INK if new else P.SEPIA, "regular" if new else "italic")
            y += self.line_h
        if len(rows) > n:   # a thin bar says where in the history the view is
            track = pygame.Rect(self.rect.right - self.px(7), area.y, max(2, self.px(3)), area.h)
            pygame.draw.rect(surface, P.PARCHMENT_DARK, track, border_radius=2)
            h = max(self.px(10), track.h * n // len(rows))
            top = track.bottom - h - (track.h - h) * scroll // max(1, len(rows) - n)
            pygame.draw.rect(surface, P.SEPIA, (track.x, top, track.w, h), border_radius=2)
        if badge is not None:   # moves told meanwhile: said where the eye goes, at the foot
            img, pill = badge
            pygame.draw.rect(surface, P.GOLD_LIGHT, pill, border_radius=pill.h // 2)
            pygame.draw.rect(surface, P.OXBLOOD, pill, 1, border_radius=pill.h // 2)
            surface.blit(img, img.get_rect(center=pill.center))
        elif scroll:
            text(surface, _("newer lines below"), (area.right, area.y), max(10, self.px(13)), P.OXBLOOD, "italic",
                 anchor="topright")
