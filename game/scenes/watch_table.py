"""Watching a table live (issue 31): the game's board, read only, as nobody's seat sees it.

Reached from the Tables page (*Watch*): the session is a watcher's
(:func:`game.client.watching.watch_session`), fed by the server with what every player sees of
the others. The board is the game's (:class:`~game.scenes.board_base.BoardBase`: the same panels
and drawing), with no input that plays: a click on a player's name opens their whole board, as
in a game. The log tells the game in the third
person, and its chat line is the watchers' own channel (the players read it unless they hide
it). Until the table's game starts, the page says who sits. *Stop watching* (or Esc) goes back.
"""
from __future__ import annotations

from typing import Any

import pygame
import pygame_gui

from game.client.session import GameSession
from game.i18n import _
from game.client.watch_words import WATCH_CLOSED, WATCH_LOST, waiting_words, watchers_words, watching_words

from .art import palette as P
from .backdrop import SEPIA, blit_lines, title_block, wrap
from .board_base import BoardBase
from .panels.base import text


class WatchTableScene(BoardBase):
    """The table a watcher's ``session`` watches, waiting or under way."""

    def __init__(self, app: Any, session: GameSession) -> None:
        super().__init__(app, session)
        self.lost = False              # the connection to the server ended

    # ------------------------------------------------------------------ board overrides
    def _can_act(self) -> bool:
        return False

    def build(self) -> None:
        super().build()
        if self.layout is None:
            return
        self.read_only_bar(_("Stop watching"), _("Back to the tables"))   # nothing to play here
        bar = self.action_bar          # the way out across the bar's foot ("Smetti di guardare" is long), Rules above
        whole = bar.small_rect(1).union(bar.small_rect(0))
        self.buttons["leave"].set_position(whole.topleft)
        self.buttons["leave"].set_dimensions(whole.size)
        self.buttons["rules"].set_position(bar.small_rect(2).topleft)

    def update(self, dt: float) -> None:
        msgs = self.session.pump()
        if any(m.get("type") == "ConnectionLost" for m in msgs):
            self.lost = True
        if self.layout is None and self.g is not None:
            self.ui.clear_and_reset()
            self.build()
        if self.layout is not None:
            self.action_bar.place_tooltips(self.ui, self.keep_readable())
        self.flash = max(0.0, self.flash - dt)

    def frame_interval(self) -> float | None:
        own = super().frame_interval() if self.layout is not None else None
        return 0.25 if own is None else min(own, 0.25)     # the table moves without the player

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and self.viewing is None:
            self.leave()
            return
        if self.layout is not None:
            super().handle_event(event)

    def on_ui(self, event: pygame.event.Event) -> None:
        self._rev += 1
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.chat_entry:
            self.session.chat(self.chat_entry.get_text())
            self.chat_entry.set_text("")
            return
        if event.type != pygame_gui.UI_BUTTON_PRESSED:
            return
        if event.ui_element is self.buttons.get("leave"):
            self.leave()
        elif event.ui_element is self.buttons.get("rules"):
            self._rules()

    def leave(self) -> None:
        """Stop watching: the connection closes, and the page below (the Tables) comes back."""
        self.session.close()
        self.app.stack.pop()

    # ------------------------------------------------------------------ drawing
    def _frame_key(self) -> tuple:
        w = self.session.watchers
        return super()._frame_key() + (w.count, self.lost)

    def _draw_dynamic(self, surface: pygame.Surface, ctx: Any) -> None:
        super()._draw_dynamic(surface, ctx)
        a = self.layout.actions
        u = self.layout.unit
        w = self.session.watchers
        names = tuple(self.session.shown_name(p) for p in w.players)   # (a bot with its level)
        said = _(WATCH_LOST) if self.lost else f"{watching_words(w.table, names)} {watchers_words(w.count)}"
        text(surface, said, (a.x + round(10 * u), a.y + round(8 * u)), round(17 * u), P.INK, "italic",
             max_width=a.w - round(20 * u))

    def draw(self, surface: pygame.Surface) -> None:
        if self.layout is not None and self.g is not None:
            super().draw(surface)
            return
        w, h = surface.get_size()       # the table still waits for its players (or closed)
        u = min(w / 1600, h / 900)
        surface.fill(P.PARCHMENT)
        bottom = title_block(surface, table_title(self.session), None, w // 2, round(h * 0.3), u, size=56)
        watchers = self.session.watchers
        words = (_(WATCH_LOST) if self.lost else _(WATCH_CLOSED) if watchers.closed else
                 waiting_words(watchers.table, watchers.players, watchers.seats))
        size = max(12, round(26 * u))
        lines = wrap(words + "  " + _("Esc: stop watching."), size, w - round(200 * u), "italic")
        blit_lines(surface, lines, size, SEPIA, w // 2, bottom + round(30 * u), "italic", align="center")


def table_title(session: GameSession) -> str:
    """The watched table's name, for the page's title."""
    return session.watchers.table or _("A table")
