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

import time
from pathlib import Path
from typing import Any

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.client.narration import Narrator
from game.client.replay import Replay, ReplayError, ReplayFeed, export_to, keep_finished
from game.settings import data_dir
from game.client.notices import ReplayArrived, ReplayRefused
from game.client.session import GameSession
from game.client.words import named
from game.client.view_model import ViewModel
from game.client.words import joined

from .art import fonts
from .art import palette as P
from .backdrop import OXBLOOD, SEPIA, PaintedScene, title_block
from .board_base import BoardBase
from .panels.base import text

CONTROLS = [("first", "\u00ab", "To the start: the deal (Home)"),
            ("back", "\u2039", "One move back (Left)"),
            ("next", "\u203a", "One move on (Right)"),
            ("last", "\u00bb", "To the end of the game (End)")]
"""(key, label, tooltip) of the stepping buttons of the first row, left to right: as on a media
player, the double arrows go to either end and the single ones one move."""
TURN_CONTROLS = [("turn_back", "\u2039 Previous turn", "Back to the start of the previous turn (Up)"),
                 ("turn_next", "Next turn \u203a", "On to the start of the next turn (Down)")]
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
        for key, button in self.buttons.items():     # the game's controls give way to the replay's
            if key not in ("rules", "leave"):
                button.hide()
        self.buttons["leave"].set_text("Back")
        self.buttons["leave"].set_tooltip("Back to where you came from")
        self.buttons["rules"].set_text("Export")
        self.buttons["rules"].set_tooltip("Save this game as one file that another copy of the game can open")
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
                    rect, label, self.ui, tool_tip_text=tip,
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
            self.note = f"Could not save the file: {e.strerror or e}"
            self.session.say(self.note)
            return None
        self.note = f"Saved as {path}"
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
        where = "the deal" if self.step == 0 else (
            "the end of the game" if self.step == len(r) else
            "choosing leaders and resources" if turn == 0 else f"turn {turn} of {turns}")
        text(surface, f"Replay — {where}, move {self.step} of {len(r)}", (a.x + round(10 * u), a.y + round(8 * u)),
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


def open_replay_scene(app: Any, path: Path, viewer: str | None = None) -> "ReplayScene | str":
    """The replay scene of a file, or the reason it cannot be opened (in words)."""
    from game.client.replay import open_replay
    try:
        replay = open_replay(path, app.config, viewer)
    except ReplayError as e:
        return str(e)
    return ReplayScene(app, replay)


# ---------------------------------------------------------------------------- the Past games page

class PastGamesScene(PaintedScene):
    """The finished games of this machine, newest first, each opened with a click; and a game file
    made by another copy of the game, opened by its path (or dropped onto the window)."""

    PAGE = 6

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        from game.client.replay import past_games
        self.games = past_games(app.data_dir)
        self.page = 0
        self.message: str | None = None
        self.rows: list[tuple[Any, pygame.Rect]] = []    # the games shown, and where
        self.mouse: tuple[int, int] | None = None

    def layout(self) -> None:
        w, h = self.app.size
        u = self.unit
        bw, bh, gap = round(760 * u), round(56 * u), round(8 * u)
        top = round(h * 0.2)
        shown = self.games[self.page * self.PAGE:(self.page + 1) * self.PAGE]
        self.rows = []
        for i, (game, rect) in enumerate(zip(shown, self.column(w // 2, top, bw, bh, gap, len(shown)))):
            # a clear button takes the click; the row's two lines are painted under it (see paint)
            self.button(f"game{i}", rect, "", "@row", tooltip=f"Watch this game again, move by move ({game.path.name})")
            self.rows.append((game, rect))
        y = top + self.PAGE * (bh + gap) + round(4 * u)
        sw = round(120 * u)
        self.button("older", pygame.Rect(w // 2 + bw // 2 - sw, y, sw, round(36 * u)), "Older »", "@quiet",
                    enabled=(self.page + 1) * self.PAGE < len(self.games))
        self.button("newer", pygame.Rect(w // 2 - bw // 2, y, sw, round(36 * u)), "« Newer", "@quiet",
                    enabled=self.page > 0)
        y += round(56 * u)
        ew = round(480 * u)
        self.entry("path", pygame.Rect(w // 2 - bw // 2, y, ew, round(40 * u)), "", 1000)
        self.widgets["path"].set_text("")
        self.button("open", pygame.Rect(w // 2 - bw // 2 + ew + round(10 * u), y, bw - ew - round(10 * u),
                                        round(40 * u)), "Open file", "@menu")
        self.button("back", pygame.Rect(w // 2 - round(140 * u), h - round(90 * u), round(280 * u), round(48 * u)),
                    "Back to the title", "@menu_quiet")

    def paint(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        u = self.unit
        title_block(surface, "Past games", None, w // 2, round(h * 0.06), u, size=64)
        if not self.games:
            img = fonts.render("No finished game on this computer yet: games you finish here are kept.",
                               max(12, round(20 * u)), SEPIA, "italic")
            surface.blit(img, img.get_rect(midtop=(w // 2, round(h * 0.26))))
        for game, rect in self.rows:
            paint_row(surface, game, rect, u, hot=self.mouse is not None and rect.collidepoint(self.mouse))
        entry = self.widgets.get("path")
        if entry is not None:
            img = fonts.render("A game file from another copy of the game: type its path (or drop it here)",
                               max(11, round(16 * u)), SEPIA, "italic")
            surface.blit(img, img.get_rect(bottomleft=(entry.rect.x, entry.rect.y - round(4 * u))))
        if self.message:
            img = fonts.render(self.message, max(12, round(18 * u)), OXBLOOD, "italic")
            surface.blit(img, img.get_rect(midtop=(w // 2, h - round(132 * u))))

    def on_button(self, name: str) -> None:
        if name == "back":
            self.app.stack.pop()
        elif name in ("older", "newer"):
            self.page += 1 if name == "older" else -1
            self.build()
        elif name == "open":
            self.open_path(self.widgets["path"].get_text())
        elif name.startswith("game"):
            game = self.games[self.page * self.PAGE + int(name[4:])]
            self.open_path(str(game.path))

    def on_enter(self, name: str) -> None:
        if name == "path":
            self.open_path(self.widgets["path"].get_text())

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        elif event.type == pygame.WINDOWLEAVE:
            self.mouse = None
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.stack.pop()
        elif event.type == pygame.DROPFILE:
            self.open_path(event.file)

    def open_path(self, path: str) -> None:
        path = path.strip().strip('"')
        if not path:
            self.message = "Type the path of a game file first."
            return
        scene = open_replay_scene(self.app, Path(path).expanduser(), self.app.settings.nickname)
        if isinstance(scene, str):
            self.message = scene
            return
        self.message = None
        self.app.stack.push(scene)


KINDS = {"solo": "Solo against Lorenzo", "bots": "Against the computer", "lan": "Hosted here",
         "server": "Online"}


def result_of(game: Any) -> str:
    """Who won a past game, in words ("Cosimo won", "Ada and Bea shared the win", "Lorenzo won")."""
    winners = [w.removesuffix(" (bot)") for w in game.winners]
    if len(winners) == 1:
        return f"{winners[0]} won"
    if winners:
        return f"{joined(winners)} shared the win"
    return "Lorenzo won" if game.kind == "solo" else "No winner"


def paint_row(surface: pygame.Surface, game: Any, rect: pygame.Rect, u: float, hot: bool = False) -> None:
    """One past game on two lines: when and what kind (the result on the right), then who played
    (shortened with an ellipsis when long; the result never is)."""
    from .backdrop import FADED, INK
    radius = max(2, round(8 * u))
    pygame.draw.rect(surface, (247, 236, 210) if hot else (239, 226, 196), rect, border_radius=radius)
    pygame.draw.rect(surface, (138, 107, 58) if hot else (185, 154, 98), rect, max(1, round(2 * u)),
                     border_radius=radius)
    pad = round(16 * u)
    inner = rect.inflate(-2 * pad, 0)
    big, small = max(12, round(20 * u)), max(11, round(17 * u))
    result = fonts.render(result_of(game), big, OXBLOOD if game.winners or game.kind == "solo" else FADED)
    top = rect.y + round(6 * u)
    surface.blit(result, result.get_rect(topright=(inner.right, top)))
    head = f"{_when(game.when)} \u00b7 {KINDS.get(game.kind, 'A game')}"
    room = inner.w - result.get_width() - round(20 * u)
    img = fonts.render(_fit(head, big, room, "regular"), big, INK)
    surface.blit(img, img.get_rect(topleft=(inner.x, top)))
    players = ", ".join(named(n, game.bots) for n in game.players)
    img = fonts.render(_fit(players, small, inner.w, "italic"), small, SEPIA, "italic")
    surface.blit(img, img.get_rect(bottomleft=(inner.x, rect.bottom - round(6 * u))))


def _fit(text: str, size: int, width: int, style: str) -> str:
    """``text``, cut with an ellipsis to fit ``width`` pixels at ``size``."""
    font = fonts.font(size, style)
    if font.size(text)[0] <= width:
        return text
    while text and font.size(text + "\u2026")[0] > width:
        text = text[:-1]
    return text.rstrip(" ,") + "\u2026"


def _when(t: float) -> str:
    return time.strftime("%d %b %H:%M", time.localtime(t)) if t else "?"


# ---------------------------------------------------------------------------- from the game-over page
def watch_finished(app: Any, session: GameSession) -> PaintedScene | ReplayScene:
    """The screen of the replay of the game that just ended: made here for a game run on this
    machine, asked of the server for a remote one (our servers answer ``ReqReplay``; the scene
    waits for it)."""
    record = session.match.replay_record()
    if record is not None:                   # solo, or against the computer: the engine is here
        return ReplayScene(app, Replay(record, app.config))
    return FetchReplayScene(app, session)


class FetchReplayScene(PaintedScene):
    """Waits for the server's ``UpdateReplay`` (a moment), then shows the replay; or says why not."""

    def __init__(self, app: Any, session: GameSession) -> None:
        super().__init__(app)
        self.session = session
        self.message = "Asking the server for the game's replay…"
        self.record: Any = None              # the replay the server sent
        self.refused: str | None = None      # or why it has none, in words
        self.listen(session, ReplayArrived, self._arrived)
        self.listen(session, ReplayRefused, self._refused)
        if not session.match.fetch_replay():
            self.message = "This server does not keep replays (it is not one of ours)."

    def layout(self) -> None:
        w, h = self.app.size
        u = self.unit
        self.button("back", pygame.Rect(w // 2 - round(140 * u), h - round(120 * u), round(280 * u), round(48 * u)),
                    "Back", "@menu_quiet")

    def frame_interval(self) -> float | None:
        return 0.1

    def update(self, dt: float) -> None:
        self.session.pump()
        record, error = self.record, self.refused
        if error:
            self.message = error
        elif record is not None:
            try:
                replay = Replay(record, self.app.config, self.session.nickname)
            except ReplayError as e:
                self.message = str(e)
                self.record = None
                return
            if self.app.server is None:   # a game hosted here is kept by its server already
                keep_finished(replay, self.app.data_dir)
            self.app.stack.replace(ReplayScene(self.app, replay))

    def _arrived(self, notice: ReplayArrived) -> None:
        self.record = notice.record

    def _refused(self, notice: ReplayRefused) -> None:
        self.refused = notice.words

    def paint(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        u = self.unit
        title_block(surface, "Replay", None, w // 2, round(h * 0.06), u, size=56)
        img = fonts.render(self.message, max(12, round(20 * u)), SEPIA, "italic")
        surface.blit(img, img.get_rect(midtop=(w // 2, round(h * 0.4))))

    def on_button(self, name: str) -> None:
        self.app.stack.pop()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.stack.pop()
