"""The board of a game, drawn from a session, and the mouse on it: what the game's board
(:class:`~game.scenes.board.BoardScene`) and a replay's (:class:`~game.scenes.replay.ReplayScene`)
are both made of. A leaf of game/scenes: no scene module is imported here.

The screen is composed of panels (:mod:`game.scenes.panels`), each laid out from its rect, each
answering "what is under this point" and drawing itself from the view model: the top bar (whose
turn; the opponents, or Lorenzo's last token), the market, the development card grid, the faith
track, the player's board, the log (or the plan being built, in its place) and the action bar.

Input is read in one place: the panels say what is under a point as the typed targets of
:mod:`game.client.board_input` (``Line``, ``Card``, ``Shelf``…), and the board's input
(:class:`~game.client.board_input.BoardInput`) turns the target into a plan step or a request:
a click either starts a plan (:mod:`game.client.plans`: take a line, buy a card, run
productions), edits the current plan, or does a one-step action (swap two shelves, also by
dragging one onto the other; play or discard a leader). Illegal targets are greyed out before
they are tried; refusals are shown as plain text. Everything is drawn from the session's view
model.
"""
from __future__ import annotations

from typing import Any

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.client import board_input as BI
from game.client.board_input import BoardInput
from game.client.plans import MarketPlan
from game.client.session import GameSession
from game.i18n import _, pgettext

from .art import palette as P
from .layout import BoardLayout, board_layout
from .panels.actions import ActionBar
from .panels.base import Context, Hit, Target, panel, target_at, text
from .panels.faith import FaithPanel, VaticanMoment, draw_moment
from .panels.grid import GridPanel
from .panels.hover import draw_hover_card
from .panels.log import LogPanel
from .panels.market import MarketPanel
from .panels.plan import PlanPanel
from .panels.player_board import PlayerBoardPanel
from .panels.top_bar import TopBar
from .scene import Scene

DRAG_DISTANCE = 6
"""Pixels the mouse must travel with the button down before a press on a shelf becomes a drag."""

GREY_DELAY = 0.6
"""Seconds the pointer rests on a greyed button before the board says why it is greyed."""

__all__ = ["BoardBase", "DRAG_DISTANCE", "GREY_DELAY", "Hit"]


class BoardBase(Scene):
    """A game's board drawn from ``session``, its panels, and the mouse on it (what is under
    the pointer, a click or a drag handed to the board's input, an opponent's board opened, the
    log scrolled). What the player does with the action bar is the subclass's."""

    def __init__(self, app: Any, session: GameSession) -> None:
        super().__init__(app)
        self.session = session
        self.input = BoardInput(session)             # the plan, what is picked: what a click does
        self._menu_shown: int | None = None          # the leader whose Play/Discard buttons are up
        self.hover: Target | None = None
        self.hover_rect: pygame.Rect | None = None   # where the enlarged hover card was last drawn
        self.mouse = (0, 0)
        self.drag_from: int | None = None            # the shelf the left button went down on
        self._drag_unit: str | None = None           # ... and the one stored resource carried (in a plan)
        self.dragging = False                        # ... and the mouse has moved away with it
        self.layout: BoardLayout | None = None
        self.flash = 0.0
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self._leader_buttons: list[pygame_gui.elements.UIButton] = []
        self.chat_entry: Any = None
        self._static: pygame.Surface | None = None   # table, panels and headings for this size
        self._base: pygame.Surface | None = None     # the whole board without the hover card
        self._base_key: tuple | None = None
        self._rev = 0                                # bumped by every click or key (plan edits)
        self.log_scroll = 0                          # rows of the log scrolled back from the newest
        self.moments: list[VaticanMoment] = []       # Vatican reports being shown, the first one now
        self._log_rows = 0
        self.log_unseen = 0                          # rows told while the log was scrolled back
        self.over_for: float | None = None           # seconds since the game ended on this board
        self._grey: tuple[Any, float] = (None, 0.0)  # the greyed button under the pointer, and for how long

    # ------------------------------------------------------------------ helpers
    @property
    def vm(self):
        return self.session.vm

    # what the player is arranging lives in the board's input (game/client/board_input.py)

    plan = property(lambda self: self.input.plan, lambda self, v: setattr(self.input, "plan", v))

    selected_item = property(lambda self: self.input.selected_item,
                             lambda self, v: setattr(self.input, "selected_item", v))

    selected_shelf = property(lambda self: self.input.selected_shelf,
                              lambda self, v: setattr(self.input, "selected_shelf", v))

    viewing = property(lambda self: self.input.viewing, lambda self, v: setattr(self.input, "viewing", v))

    note = property(lambda self: self.input.note, lambda self, v: setattr(self.input, "note", v))

    leader_menu = property(lambda self: self.input.leader_menu)

    @property
    def g(self) -> dict[str, Any]:
        return self.session.vm.game  # type: ignore[return-value]

    @property
    def me(self) -> dict[str, Any]:
        return self.session.vm.me

    def _can_act(self) -> bool:
        return self.input.can_act()

    def context(self) -> Context:
        """What the panels draw from this frame."""
        return Context(self.session, plan=self.plan, hover=self.hover, selected_item=self.selected_item,
                       selected_shelf=self.selected_shelf, viewing=self.viewing, flash=self.flash,
                       buyable=self.session.buyable, cards=self.vm.cards, leaders=self.vm.leaders,
                       chat=self.chat_entry is not None, log_scroll=self.log_scroll,
                       log_unseen=self.log_unseen if self.log_scroll else 0,
                       note=self.note, can_produce=self.session.can_produce(),
                       # how the game reaches its server (not shown to the host of the table)
                       link=self.session.link if self.app.server is None else None)

    @property
    def hits(self) -> list[Hit]:
        """Every clickable thing on the board now, topmost last (computed from the panels)."""
        if self.layout is None or self.g is None:
            return []
        ctx = self.context()
        out: list[Hit] = []
        out += self.market.hits(ctx)
        out += self.grid.hits(ctx)
        out += self.player_board.hits(ctx)
        out += self.top_bar.hits(ctx)
        out += self.faith.hits(ctx)
        if self.plan is not None:
            out += self.plan_panel.hits(ctx)
        return out

    # ------------------------------------------------------------------ lifecycle
    # ------------------------------------------------------------------ lifecycle
    def build(self) -> None:
        """The panels for the window's size, the action bar's buttons and the chat line."""
        if self.g is None:
            self.session.pump()
        g = self.g
        if g is None:
            return
        n = len(g["players"])
        self.layout = L = board_layout(self.app.size, n, n == 1)
        u = L.unit
        self.top_bar = TopBar(L.top_bar, u, L.opponents, L.token)
        self.market = MarketPanel(L.market, u)
        self.grid = GridPanel(L.grid, u)
        self.faith = FaithPanel(L.faith, u)
        self.player_board = PlayerBoardPanel(L.board, u)
        self.log = LogPanel(L.log, u)
        self.plan_panel = PlanPanel(L.log, u)
        self.action_bar = ActionBar(L.actions, u)
        self.panels = [self.top_bar, self.market, self.grid, self.faith, self.player_board, self.log,
                       self.action_bar]
        self.buttons = self.action_bar.build(self.ui)
        self._leader_buttons = []
        self.chat_entry = None
        if self.session.can_chat:   # a line to talk to the table, at the foot of the log
            self.chat_entry = self.log.build_chat(self.ui)
        self._static = None
        self._refresh_buttons()

    def _refresh_buttons(self) -> None:
        """Show and enable the buttons that fit the moment (the board's own: none to play here)."""

    def read_only_bar(self, leave: str, tip: str) -> None:
        """The action bar of a board where nothing is played (a replay's, a watcher's): How to
        play and the way out (``leave``, its tooltip ``tip``) only."""
        for key, button in self.buttons.items():
            if key not in ("rules", "leave"):
                button.hide()
        self.buttons["leave"].set_text(leave)
        self.buttons["leave"].set_tooltip(tip)

    # ------------------------------------------------------------------ greyed buttons say why
    def _greyed_under(self, pos: tuple[int, int]) -> Any:
        """The visible, greyed button of the action bar (or a leader's Play) under ``pos``."""
        for el in [*self.buttons.values(), *self._leader_buttons]:
            if el.visible and not el.is_enabled and el.rect.collidepoint(pos):
                return el
        return None

    def greyed_tip(self) -> str | None:
        """Why the greyed button under the pointer is greyed, once the pointer has rested on it
        :data:`GREY_DELAY` seconds (pygame_gui gives a disabled button no tooltip)."""
        el, t = self._grey
        if el is None or t < GREY_DELAY or self.layout is None or self.g is None:
            return None
        why = getattr(el, "why", None)
        if why:
            return why
        key = next((k for k, b in self.buttons.items() if b is el), None)
        from .panels.actions import greyed_words
        return greyed_words(key, self.context()) if key else None

    def _draw_greyed_tip(self, surface: pygame.Surface) -> None:
        """The reason, as a tooltip above the action bar (right-aligned with it)."""
        words = self.greyed_tip()
        if not words:
            return
        from .art import fonts as F
        from .backdrop import wrap
        u = self.layout.unit
        size = round(17 * u)
        lines = wrap(words, size, round(330 * u), "regular")
        lead = round(size * 1.25)
        w = max(F.font(size, "regular").size(ln)[0] for ln in lines) + round(20 * u)
        box = self.action_bar.tip_rect((w, len(lines) * lead + round(12 * u)), surface.get_rect(),
                                       self.keep_readable())
        pygame.draw.rect(surface, P.INK, box, border_radius=6)
        pygame.draw.rect(surface, P.GOLD, box, width=1, border_radius=6)
        for i, line in enumerate(lines):
            text(surface, line, (box.x + round(10 * u), box.y + round(6 * u) + i * lead), size, P.PARCHMENT)

    # ------------------------------------------------------------------ input
    def handle_event(self, event: pygame.event.Event) -> None:
        """The mouse on the board (what it is over, a click, a drag, the wheel over the log, a
        right click that drops what is picked), F1 (how to play), Esc (an opponent's board closed,
        a plan or a pick dropped)."""
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN):
            self._rev += 1
        if event.type == pygame.MOUSEWHEEL:
            self._wheel(event.y)
        elif event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            self.hover = self._target_at(event.pos)
            if self.drag_from is not None and not self.dragging:
                start = self._drag_start
                self.dragging = abs(event.pos[0] - start[0]) + abs(event.pos[1] - start[1]) > DRAG_DISTANCE
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = event.pos
            target = self._target_at(event.pos)
            # outside a plan or during a market plan, a press on one stored resource may start
            # carrying that one alone
            unit = (self.player_board.held_at(self.context(), target.id, event.pos)
                    if (self.plan is None or isinstance(self.plan, MarketPlan)) and isinstance(target, BI.Shelf)
                    else None)
            self.input.refused = None
            self._click(target)
            self._drag_unit = None
            if isinstance(target, BI.Shelf) and target.id in (self.selected_shelf, self.input.refused):
                self.drag_from, self._drag_start, self.dragging = target.id, event.pos, False
                self._drag_unit = unit
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self._drop(event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 3:
            self._cancel()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_F1:
            self._rules()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            if self.viewing or self.leader_menu is not None or self.plan is not None or self.selected_shelf is not None:
                self._cancel()

    def frame_interval(self) -> float | None:
        """Every frame while a Vatican report is shown or the last change glows (not while a
        question over the board holds them still)."""
        if self.app.stack.top is not self:
            return None
        if self.moments or self.flash > 0:
            return 0.0
        return super().frame_interval()

    def _wheel(self, steps: int) -> None:
        """The mouse wheel over the log scrolls it (up: older lines)."""
        if self.layout is None or self.plan is not None or not self.layout.log.collidepoint(self.mouse):
            return
        most = self.log.max_scroll(self.context())
        self.log_scroll = max(0, min(most, self.log_scroll + 3 * steps))
        self.log_unseen = min(self.log_unseen, self.log_scroll)     # what came into view is read

    def _target_at(self, pos: tuple[int, int]) -> Target | None:
        return target_at(self.hits, pos)

    def _rules(self) -> None:
        """How to play, over the board (Back returns here; the game's messages wait meanwhile)."""
        self.app.stack.push(self.app.scene("help"))

    def exit(self) -> None:
        self._static = self._base = self._base_key = None   # two window-sized pictures, whoever still holds the scene
        super().exit()

    def _drop(self, pos: tuple[int, int]) -> None:
        """The left button comes up: a shelf dragged onto another one is swapped with it (the same
        as clicking one, then the other); dropped anywhere else, the first stays selected."""
        start, dragging = self.drag_from, self.dragging
        unit, self._drag_unit = getattr(self, "_drag_unit", None), None
        self.drag_from, self.dragging = None, False
        if start is None or not dragging:
            return
        self._rev += 1
        self.input.drop(start, self._target_at(pos), unit)
        self._sync_leader_menu()

    def _cancel(self) -> None:
        self.input.cancel()
        self.drag_from, self.dragging = None, False
        self._close_leader_menu()

    def _click(self, target: Target | None) -> None:
        """A click on a board target: the board's input turns it into a plan step or a request."""
        self.input.click(target)
        self._sync_leader_menu()

    def _open_leader_menu(self, lid: int) -> None:
        """Play and Discard for a leader in hand: the card is marked, and the two buttons take the
        place of Produce and End turn in the action bar, just under the leaders (so they cover
        nothing on the board). A Play that cannot be done yet says what is missing."""
        self._close_leader_menu()
        if not any(h.target == BI.Leader(lid) for h in self.hits):
            return
        self.input.leader_menu = self._menu_shown = lid
        why = self.session.leader_refusal(lid)
        ready = why is None
        left, right = self.action_bar.main_rects()
        play_rect = pygame.Rect(left.x, left.y, round((right.right - left.x) * 0.4), left.h)
        discard_rect = pygame.Rect(play_rect.right + (right.x - left.right), left.y, 0, left.h)
        discard_rect.w = right.right - discard_rect.x     # the longer words get the wider button
        play = pygame_gui.elements.UIButton(play_rect, pgettext("leader", "Play"), self.ui,
                                            object_id=ObjectID(class_id="@menu"),
                                            tool_tip_text=_("Play this leader: its ability works from now on") if ready
                                            else why)
        play.leader_action = (lid, True)  # type: ignore[attr-defined]
        play.why = why   # type: ignore[attr-defined]
        if not ready:
            play.disable()
        discard = pygame_gui.elements.UIButton(discard_rect, _("Discard (+1 Faith)"), self.ui,
                                               object_id=ObjectID(class_id="@quiet"),
                                               tool_tip_text=_("Give this leader up for one step on the faith track "
                                                               "(Esc keeps it)"))
        discard.leader_action = (lid, False)  # type: ignore[attr-defined]
        self._leader_buttons = [play, discard]
        self._refresh_buttons()

    def _close_leader_menu(self) -> None:
        for b in getattr(self, "_leader_buttons", []):
            b.kill()
        was = getattr(self, "_menu_shown", None)
        self._leader_buttons = []
        self._menu_shown = self.input.leader_menu = None
        if was is not None:
            self._refresh_buttons()

    def _sync_leader_menu(self) -> None:
        """Show the Play and Discard buttons of the leader the input offers them for (if any)."""
        want = self.input.leader_menu
        if want == self._menu_shown:
            return
        self._close_leader_menu()
        if want is not None:
            self._open_leader_menu(want)

    def _leader_button(self, el: Any) -> None:
        lid, activate = el.leader_action
        self._close_leader_menu()
        self.input.leader_action(lid, activate)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        """Blit the cached board (redrawn only when something it shows changed), then the marks
        for what the mouse is over and the hover card.

        Every panel draws from the layout and the view model alone, so the first frame is whole.
        """
        L = self.layout
        if L is None or self.g is None:
            return
        size = surface.get_size()
        if self._static is None or self._static.get_size() != size:
            self._static = self._render_static(size)
            self._base_key = None
        key = self._frame_key()
        if key != self._base_key or self._base is None:
            if self._base is None or self._base.get_size() != size:
                self._base = self._static.copy()
            else:   # drawn again in place: a new window-sized copy each change kept two (QA's peak RSS)
                self._base_key = None
                self._base.blit(self._static, (0, 0))
            ctx = self.context()
            ctx.hover = None              # hover marks are drawn on top, not cached
            self._draw_dynamic(self._base, ctx)
            self._base_key = key
        surface.blit(self._base, (0, 0))
        ctx = self.context()
        if self.moments:
            draw_moment(surface, ctx, self.faith, self.moments[0], self._static, self.banner_room())
        if self.viewing is None:
            for p in (self.top_bar, self.market, self.grid, self.player_board):
                p.draw_hover(surface, ctx)
            if self.leader_menu is not None:   # the leader whose Play/Discard are in the action bar
                from .panels.base import glow
                rect = next((h.rect for h in self.hits if h.target == BI.Leader(self.leader_menu)), None)
                if rect is not None:
                    glow(surface, rect.inflate(6, 6), P.OXBLOOD[:3], width=4)
        self.hover_rect = None
        if self.dragging:
            self._draw_dragged(surface, ctx)
        elif self.viewing is None and self.leader_menu is None:   # (a leader's menu: the card is chosen)
            self.hover_rect = draw_hover_card(surface, ctx, L.unit, self.mouse, self.keep_clear())
        self._draw_greyed_tip(surface)

    def banner_room(self) -> pygame.Rect:
        """Where a Vatican report's banner may go: the top of the card slots, under the track and
        above every slot's cards (only the slots' captions are there), clear of every favor tile."""
        pb = self.player_board
        u = self.layout.unit
        tops = [pb.slot_card_rect(i, 0, len(slot)).top if slot else r.bottom
                for i, (r, slot) in enumerate(zip(pb.slots, self.me["devSlots"]))]
        top = pb.slots[0].y + round(4 * u)
        return pygame.Rect(pb.slots[0].x, top, pb.slots[-1].right - pb.slots[0].x, min(tops) - round(4 * u) - top)

    def notice_area(self) -> pygame.Rect | None:
        """Over the log, whose newest line says the same words: a notice never covers the top bar
        (whose turn, what to do now), the track, the market, the cards or the player's board."""
        L = self.layout
        return None if L is None else L.log

    def keep_clear(self) -> list[pygame.Rect]:
        """What hover art never covers: the top bar (whose turn, what to do now), the action bar,
        the log or the plan being confirmed, an open leader menu, and the hovered thing itself;
        while a plan is built, the warehouse and the strongbox (what is paid from, or where
        resources go); a leader's, the track; a card of the grid's, the grid and the market's
        arrows (what the pointer goes to next)."""
        L = self.layout
        out = [L.top_bar, L.actions, L.log] + [b.rect for b in self._leader_buttons]
        if self.plan is not None:
            out += [L.warehouse, L.strongbox]
        if self.hover is not None:
            out += [h.rect for h in self.hits if h.target == self.hover][:1]
            if isinstance(self.hover, BI.Leader):   # the track stays in view (beside the card: the slots)
                out += [L.faith]
            elif isinstance(self.hover, BI.Card):   # beside the grid: its other cards and the market's arrows stay in view
                out += [L.grid] + [h.rect for h in self.hits if isinstance(h.target, BI.Line)]
        return out

    def _frame_key(self) -> tuple:
        """Everything the cached board depends on besides the static layer."""
        return (self.session.version, self._rev, self.flash > 0, self.session.error,
                self.session.connection_lost, self.viewing, self.selected_item, self.selected_shelf,
                id(self.plan), self.log_scroll, len(self.session.log), self.over_for is not None)

    def _render_static(self, size: tuple[int, int]) -> pygame.Surface:
        """The parts that change only with the window size: table, panels, headings, board frame."""
        from . import art
        surface = pygame.Surface(size).convert() if pygame.display.get_init() and pygame.display.get_surface() \
            else pygame.Surface(size)
        surface.fill(P.WALNUT_DARK)
        surface.blit(art.board.wood_panel.once(*size), (0, 0))   # drawn into the frame, not kept
        for p in (self.top_bar, self.market, self.grid, self.faith, self.log, self.action_bar):
            panel(surface, p.rect)
        for p in self.panels:
            p.draw_static(surface)
        # the panels' paper and the board's walnut live in this frame now, not in their caches as
        # well (7 MB at 1600x900 that no other frame used in a whole game: drawn again in 0.1 s)
        art.board.parchment.cache_clear()
        art.board.wood_panel.cache_clear()
        return surface

    def _draw_dynamic(self, surface: pygame.Surface, ctx: Context) -> None:
        for p in (self.top_bar, self.market, self.grid, self.faith, self.player_board):
            p.draw(surface, ctx)
        if self.plan is not None:
            self.plan_panel.draw(surface, ctx)
        else:
            self.log.draw(surface, ctx)
        if self.session.error:
            self._draw_error(surface, self.session.error)
        if self.over_for is not None:
            self._draw_over(surface)
        if self.viewing is not None:
            self._draw_opponent_full(surface, ctx, self.viewing)

    def keep_readable(self) -> list[pygame.Rect]:
        """What a tooltip never covers: the refusal (or note) the player is reading now."""
        box = self.error_box(self.session.error) if self.session.error and self.layout is not None else None
        return [box[0]] if box is not None else []

    def error_box(self, words: str) -> tuple[pygame.Rect, list[str], int, int, int]:
        """Where a refusal's label goes, and its lines: (box, lines, type size, line step, padding)."""
        from .art import fonts as F
        from .backdrop import wrap
        from .panels.base import reading_size
        u = self.layout.unit
        slots = self.player_board.slots
        room = pygame.Rect(slots[0].x, slots[0].y, slots[-1].right - slots[0].x, slots[0].h)
        size = max(reading_size(u), round(17 * u))
        pad = max(4, round(8 * u))
        lines = wrap(words, size, room.w - 2 * pad, "italic")[:2]
        step = round(size * 1.2)
        w = max(F.font(size, "italic").size(ln)[0] for ln in lines) + 2 * pad
        box = pygame.Rect(0, 0, w, len(lines) * step + pad)
        box.midbottom = (room.centerx, room.bottom - round(6 * u))
        return box, lines, size, step, pad

    def _draw_error(self, surface: pygame.Surface, words: str) -> None:
        """A refusal, on its own label at the foot of the card slots (over nothing the player
        reads at that moment), at the log's size or larger, wrapped on two lines at most; no
        tooltip covers it (:meth:`keep_readable`)."""
        box, lines, size, step, pad = self.error_box(words)
        pygame.draw.rect(surface, P.PARCHMENT, box, border_radius=6)
        pygame.draw.rect(surface, P.OXBLOOD, box, width=2, border_radius=6)
        for i, line in enumerate(lines):
            text(surface, line, (box.centerx, box.y + pad // 2 + i * step), size, P.OXBLOOD, "italic", anchor="midtop")

    def _draw_over(self, surface: pygame.Surface) -> None:
        """Who won, in the action bar under *See the scores*."""
        from game.client.outcome import final_scores, outcome_words
        head, _why = outcome_words(self.session, final_scores(self.session))
        a = self.layout.actions
        top = self.action_bar.main_rects()[0].bottom
        bottom = self.action_bar.small_rect(2).top
        # TRANSLATORS: on the board as the game ends: {outcome} is a sentence, "You win", "Ada wins"
        said = _("The game is over. {outcome}.").format(outcome=head)
        text(surface, said, (a.centerx, (top + bottom) // 2), round(17 * self.layout.unit),
             P.OXBLOOD, "italic", anchor="center", max_width=a.w - round(16 * self.layout.unit))

    def _draw_opponent_full(self, surface: pygame.Surface, ctx: Context, nick: str) -> None:
        u = self.layout.unit
        veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        veil.fill((20, 12, 6, 150))
        surface.blit(veil, (0, 0))
        p = self.vm.player(nick)
        head = self.opponent_header()
        body = self.opponent_board_rect()
        panel(surface, head.union(body).inflate(round(8 * u), round(8 * u)))   # one panel: its header, then the board
        PlayerBoardPanel(body, u).draw(surface, ctx, p)
        text(surface, _("The board of {name} — {vp} VP, faith {faith}").format(
            name=self.session.shown_name(nick), vp=p["victoryPoints"], faith=p["faithPoints"]),
             (head.x + round(10 * u), head.centery), round(19 * u), P.INK, "caps", anchor="midleft",
             max_width=head.w * 2 // 3)
        text(surface, _("click anywhere to close (Esc)"), (head.right - round(10 * u), head.centery), round(16 * u),
             P.SEPIA, "italic", anchor="midright", max_width=head.w // 3 - round(20 * u))

    def opponent_header(self) -> pygame.Rect:
        """The header row of an opponent's board when it is open: where the player's own board
        starts (under the faith track, which stays in view)."""
        b = self.layout.board
        return pygame.Rect(b.x, b.y, b.w, round(34 * self.layout.unit))

    def opponent_board_rect(self) -> pygame.Rect:
        """The opponent's board under its header, in the rest of the player's board's place (the
        action bar's buttons stay clear of it)."""
        b = self.layout.board
        top = self.opponent_header().bottom + round(6 * self.layout.unit)
        return pygame.Rect(b.x, top, b.w, b.bottom - top)

    def _draw_dragged(self, surface: pygame.Surface, ctx: Context) -> None:
        """The shelf the player drags: the shelf it would swap with glows, and what the dragged one
        holds follows the pointer, lifted off the board by a shadow."""
        from .art import icons as I
        from .panels.base import glow, veil
        if self.drag_from is None:
            return
        hits = self.hits
        source = next((h.rect for h in hits if h.target == BI.Shelf(self.drag_from)), None)
        if source is not None:
            veil(surface, source, 120, radius=8)   # its content is "in the hand"
        t = self.hover
        if isinstance(t, BI.Shelf) and t.id != self.drag_from:
            rect = next((h.rect for h in hits if h.target == t), None)
            if rect is not None:
                glow(surface, rect, P.HIGHLIGHT[:3], width=4)
        held = (self.plan.arranged() if isinstance(self.plan, MarketPlan) else {}).get(
            self.drag_from, self.vm.container(self.drag_from)["content"])
        content = ([self._drag_unit] if self._drag_unit is not None else
                   [r for r, n in sorted(held.items()) for _k in range(n)])
        cell = round(40 * self.layout.unit)
        mx, my = self.mouse
        if not content:
            pygame.draw.circle(surface, P.OXBLOOD, (mx, my), cell // 3, width=3)
            return
        lift = max(2, round(4 * self.layout.unit))
        for i, res in enumerate(content):
            center = (round(mx + (i - (len(content) - 1) / 2) * cell * 0.85), my)
            shadow = pygame.Surface((cell, cell), pygame.SRCALPHA)
            pygame.draw.circle(shadow, (0, 0, 0, 90), (cell // 2, cell // 2), cell // 2 - 1)
            surface.blit(shadow, shadow.get_rect(center=(center[0] + lift, center[1] + lift)))
            icon = I.resource_icon(res, cell)
            surface.blit(icon, icon.get_rect(center=center))
