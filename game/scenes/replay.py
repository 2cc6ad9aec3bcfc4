"""A finished game, stepped through move by move or turn by turn, forward and back.

The board is the game board itself (:class:`~game.scenes.board_base.BoardBase`: the panels and
their drawing the game's board has), fed with the table as the watching player saw it at each
step, and read only: its action bar gives way to the replay's controls. The log beside it holds
what had happened so far; a click on an opponent's name opens their whole board, as in a game.
At the last step, once the game is over, every hand is shown.

A replay opens at the deal. Buttons and keys: «/» (Home/End) the deal and the end, ‹/›
(Left/Right) a move, *Previous turn*/*Next turn* (Up/Down, Page Up/Down) a turn, Esc back.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.client.narration import Narrator
from game.client.replay import Replay, ReplayFeed, export_to
from game.client.session import GameSession
from game.client.view_model import ViewModel
from game.i18n import N_, _
from game.settings import data_dir

from .art import palette as P
from .board_base import BoardBase
from .panels.base import text


CONTROLS = [("first", "\u00ab", N_("To the start: the deal (Home)")),
            ("back", "\u2039", N_("One move back (Left)")),
            ("next", "\u203a", N_("One move on (Right)")),
            ("last", "\u00bb", N_("To the end of the game (End)"))]
"""(key, label, tooltip) of the stepping buttons of the first row, left to right: as on a media
player, the double arrows go to either end and the single ones one move."""
TURN_CONTROLS = [("turn_back", N_("\u2039 Previous turn"), N_("Back to the start of the previous turn (Up)")),
                 ("turn_next", N_("Next turn \u203a"), N_("On to the start of the next turn (Down)"))]
"""(key, label, tooltip) of the second row: a whole turn at a time."""


class ReplayViewModel(ViewModel):
    """The watching player's view model, for whom it is never "your turn": nothing can be played."""

    @property
    def my_turn(self) -> bool:
        return False


class ReplayScene(BoardBase):
    """The board of a finished game, at step ``step`` of ``replay`` (the deal when None)."""

    def __init__(self, app: Any, replay: Replay, step: int | None = None, export_dir: Path | None = None) -> None:
        self.replay = replay
        self.step = 0 if step is None else max(0, min(step, len(replay)))
        self.export_dir = export_dir
        feed = ReplayFeed(replay.viewer, replay.bots)
        session = GameSession(feed, replay.config, replay.viewer)
        session.vm = ReplayViewModel(replay.viewer)
        session.narrator = Narrator(session.vm)
        super().__init__(app, session)
        self.note = None                      # (the board's note, here the last export's result, in words)
        self.controls: dict[str, pygame_gui.elements.UIButton] = {}
        self._show(self.step)

    # ------------------------------------------------------------------ stepping
    def _show(self, step: int) -> None:
        self.step = max(0, min(step, len(self.replay)))
        feed = self.session.match
        feed.out.append(self.replay.view_at(self.step))
        self.session.pump()
        self.session.log = self.replay.lines_until(self.step)
        self.session.dismiss()
        self._cancel()
        self._refresh_controls()

    def go(self, where: str) -> None:
        r, s = self.replay, self.step
        target = {"first": 0, "last": len(r), "back": s - 1, "next": s + 1,
                  "turn_back": r.previous_turn(s), "turn_next": r.next_turn(s)}[where]
        if target != s and 0 <= target <= len(r):
            self._show(target)

    # ------------------------------------------------------------------ board overrides
    def _can_act(self) -> bool:
        return False

    def build(self) -> None:
        super().build()
        if self.layout is None:
            return
        self.read_only_bar(_("Back"), _("Back to where you came from"))   # the game's controls give way to the replay's
        self.buttons["rules"].set_text(_("Export"))
        self.buttons["rules"].set_tooltip(_("Save this game as one file that another copy of the game can open"))
        a = self.layout.actions
        u = self.layout.unit
        self.controls = {}
        for row, (controls, y, bh) in enumerate(((CONTROLS, 32, 36), (TURN_CONTROLS, 74, 30))):
            n = len(controls)
            gap = round(6 * u)
            bw = (a.w - round(16 * u) - gap * (n - 1)) // n
            for i, (key, label, tip) in enumerate(controls):
                rect = pygame.Rect(a.x + round(8 * u) + i * (bw + gap), a.y + round(y * u), bw, round(bh * u))
                self.controls[key] = pygame_gui.elements.UIButton(
                    rect, _(label) if row else label, self.ui, tool_tip_text=_(tip),
                    object_id=ObjectID(class_id="@menu" if row == 0 else "@quiet"))
        self._refresh_controls()

    def _refresh_controls(self) -> None:
        if not self.controls:
            return
        at_start, at_end = self.step == 0, self.step == len(self.replay)
        for key in ("first", "turn_back", "back"):
            (self.controls[key].disable if at_start else self.controls[key].enable)()
        for key in ("next", "turn_next", "last"):
            (self.controls[key].disable if at_end else self.controls[key].enable)()

    def update(self, dt: float) -> None:
        self.session.pump()
        if self.layout is None and self.g is not None:
            self.build()
        if self.layout is not None:        # a tooltip never covers the controls it explains
            self.action_bar.place_tooltips(self.ui, self.keep_readable())
        self.flash = max(0.0, self.flash - dt)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            keys = {pygame.K_LEFT: "back", pygame.K_RIGHT: "next", pygame.K_UP: "turn_back",
                    pygame.K_PAGEUP: "turn_back", pygame.K_DOWN: "turn_next", pygame.K_PAGEDOWN: "turn_next",
                    pygame.K_HOME: "first", pygame.K_END: "last"}
            if event.key in keys:
                self._rev += 1
                self.go(keys[event.key])
                return
            if event.key == pygame.K_ESCAPE and self.viewing is None:
                self.app.stack.pop()
                return
        super().handle_event(event)

    def on_ui(self, event: pygame.event.Event) -> None:
        self._rev += 1
        if event.type != pygame_gui.UI_BUTTON_PRESSED:
            return
        el = event.ui_element
        for key, button in self.controls.items():
            if el is button:
                self.go(key)
                return
        if el is self.buttons.get("leave"):
            self.app.stack.pop()
        elif el is self.buttons.get("rules"):
            self.export()

    def export(self) -> Path | None:
        """Write the game's file (into the export folder: the user's documents by default)."""
        folder = self.export_dir or default_export_dir()
        try:    # a folder of the game's own data may be made; the player's documents folder is not
            path = export_to(self.replay, folder, make_folder=folder.parent == data_dir())
        except OSError as e:
            self.note = _("Could not save the file: {why}").format(why=e.strerror or e)
            self.session.say(self.note)
            return None
        self.note = _("Saved as {path}").format(path=path)
        self.session.say(self.note)
        return path

    # ------------------------------------------------------------------ drawing
    def _frame_key(self) -> tuple:
        return super()._frame_key() + (self.step, self.note)

    def _draw_dynamic(self, surface: pygame.Surface, ctx: Any) -> None:
        super()._draw_dynamic(surface, ctx)
        a = self.layout.actions
        u = self.layout.unit
        r = self.replay
        turns = max(0, len(r.turn_starts) - 1)
        turn = r.turn_of(self.step)
        where = _("the deal") if self.step == 0 else (
            _("the end of the game") if self.step == len(r) else
            _("choosing leaders and resources") if turn == 0 else _("turn {n} of {total}").format(n=turn, total=turns))
        text(surface, _("Replay — {where}, move {n} of {total}").format(where=where, n=self.step, total=len(r)), (a.x + round(10 * u), a.y + round(8 * u)),
             round(17 * u), P.INK, "italic", max_width=a.w - round(20 * u))



def default_export_dir() -> Path:
    """Where exported games go: the ``exports`` folder of the game's data when ``MOR_DATA_DIR``
    says where that is (a test, a portable copy); else the user's documents folder as it is (the
    home folder if there is none): no folder of ours is made there unasked."""
    import os

    import platformdirs
    if os.environ.get("MOR_DATA_DIR"):
        return data_dir() / "exports"
    try:
        docs = Path(platformdirs.user_documents_dir())
    except Exception:   # platformdirs may fail on an odd system: the home folder will do
        docs = Path.home()
    return docs if docs.is_dir() else Path.home()
