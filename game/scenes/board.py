"""The board: the whole game on one screen, every action with the mouse.

The screen is composed of panels (:mod:`game.scenes.panels`), each laid out from its rect, each
answering "what is under this point" and drawing itself from the view model: the top bar (whose
turn; the opponents, or Lorenzo's last token), the market, the development card grid, the faith
track, the player's board, the log (or the plan being built, in its place) and the action bar.
This scene composes them and keeps the input flow.

Input is read in one place (:meth:`BoardScene._click`): a click on a target either starts a plan
(:mod:`game.client.plans`: take a line, buy a card, run productions), edits the current plan, or
does a one-step action (swap two shelves, also by dragging one onto the other; play or discard a
leader). Esc or Back drops the plan: nothing is sent until Confirm (or Enter, which also answers
yes to a warning). Illegal targets are greyed out before they are tried; refusals are shown as
plain text. Everything is drawn from the session's view model.
"""
from __future__ import annotations

from typing import Any

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.client.hint import HintPlan, Hinter, plan_for
from game.client.plans import BuyPlan, MarketPlan, ProductionPlan
from game.client.session import GameSession
from game.rules.actions import ReqEndTurn, ReqLeaderAction, ReqSwapShelves
from game.rules.choices import activatable_leaders, affordable_cards

from .art import palette as P
from .layout import BoardLayout, board_layout
from .panels.actions import ActionBar
from .panels.base import RESOURCES, Context, Hit, Target, panel, target_at, text
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

OVER_GUARD = 1.0
"""Seconds after the game ends on the board during which Enter does not leave it for the scores."""

__all__ = ["BoardScene", "Hit", "DRAG_DISTANCE"]


class BoardScene(Scene):
    """The game board for one player (solo or multiplayer)."""

    def __init__(self, app: Any, session: GameSession, final: bool = False) -> None:
        super().__init__(app)
        self.session = session
        self.final = final                           # the finished game, looked at from the scores
        self.plan: MarketPlan | BuyPlan | ProductionPlan | None = None
        self.selected_item: int | None = None       # market plan: the item being placed
        self.selected_shelf: int | None = None      # idle: first shelf of a swap
        self.leader_menu: int | None = None          # a leader whose Play/Discard buttons are open
        self.viewing: str | None = None              # an opponent whose board is open
        self.hover: Target | None = None
        self.hover_rect: pygame.Rect | None = None   # where the enlarged hover card was last drawn
        self.mouse = (0, 0)
        self.drag_from: int | None = None            # the shelf the left button went down on
        self._drag_unit: str | None = None           # ... and the one stored resource carried (in a plan)
        self.dragging = False                        # ... and the mouse has moved away with it
        self.layout: BoardLayout | None = None
        self.flash = 0.0
        self.confirm_dialog: Any = None
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self._leader_buttons: list[pygame_gui.elements.UIButton] = []
        self.chat_entry: Any = None
        self._static: pygame.Surface | None = None   # table, panels and headings for this size
        self._base: pygame.Surface | None = None     # the whole board without the hover card
        self._base_key: tuple | None = None
        self._rev = 0                                # bumped by every click or key (plan edits)
        self._refused: int | None = None             # a shelf pressed that the picked resource cannot go to
        self.note: str | None = None                 # why the last pick in a plan was refused
        self.log_scroll = 0                          # rows of the log scrolled back from the newest
        self.moments: list[VaticanMoment] = []       # Vatican reports being shown, the first one now
        self._reported: set | None = None            # sections whose report was seen
        self._log_rows = 0
        self.log_unseen = 0                          # rows told while the log was scrolled back
        self.hinter: Hinter | None = None            # the hard bot, asked on the Hint button
        self._played = False                         # the game was in play under this board
        self.over_for: float | None = None           # seconds since the game ended on this board
        self._held: set[int] = set()                 # keys down when it ended (released before they count)
        self._grey: tuple[Any, float] = (None, 0.0)  # the greyed button under the pointer, and for how long

    # ------------------------------------------------------------------ helpers
    @property
    def vm(self):
        return self.session.vm

    @property
    def g(self) -> dict[str, Any]:
        return self.session.vm.game  # type: ignore[return-value]

    @property
    def me(self) -> dict[str, Any]:
        return self.session.vm.me

    def _can_act(self) -> bool:
        return self.vm.my_turn and not self.session.connection_lost and not self.g.get("ended")

    def context(self) -> Context:
        """What the panels draw from this frame."""
        return Context(self.session, plan=self.plan, hover=self.hover, selected_item=self.selected_item,
                       selected_shelf=self.selected_shelf, viewing=self.viewing, flash=self.flash,
                       buyable=self._buyable, cards=self.vm.cards, leaders=self.vm.leaders,
                       chat=self.chat_entry is not None, log_scroll=self.log_scroll,
                       log_unseen=self.log_unseen if self.log_scroll else 0,
                       note=self.note, can_produce=self._can_produce())

    def _can_produce(self) -> bool:
        """Whether some production could run now (computed once per state)."""
        if getattr(self, "_produce_key", None) != self.session.version:
            from game.rules.choices import runnable_productions
            sh = self.session.shadow()
            self._produce_ok = bool(runnable_productions(sh, sh.player(self.vm.nickname)))
            self._produce_key = self.session.version
        return self._produce_ok

    def _buyable(self) -> set[tuple[str, int]]:
        """(colour, level) of the cards this player can buy now; computed once per state."""
        if getattr(self, "_buyable_key", None) != self.session.version:
            sh = self.session.shadow()
            self._buyable_set = {(o.card.color, o.card.level) for o in affordable_cards(sh, sh.player(self.vm.nickname))}
            self._buyable_key = self.session.version
        return self._buyable_set

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
    def build(self) -> None:
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
        if self.final:
            self.buttons["leave"].set_text("Scores")
            self.buttons["leave"].set_tooltip("Back to the final scores (Esc)")
        self._leader_buttons = []
        self.chat_entry = None
        if self.session.can_chat:   # a line to talk to the table, at the foot of the log
            self.chat_entry = self.log.build_chat(self.ui)
        self._static = None
        self._refresh_buttons()

    def _refresh_buttons(self) -> None:
        if not self.buttons:
            return
        if self.final or self.over_for is not None:   # nothing to play: the way to the scores
            keep = ("leave", "rules") if self.final else ("scores", "rules")
            for key, button in self.buttons.items():
                if key not in keep and button.visible:
                    button.hide()
        else:
            ActionBar.refresh(self.buttons, self.context())
            if self.leader_menu is not None:   # Play and Discard stand in their place
                for key in ("produce", "end"):
                    self.buttons[key].hide()
        if self.chat_entry is not None:   # the plan takes the log's place while it is built
            (self.chat_entry.hide if self.plan is not None else self.chat_entry.show)()

    # ------------------------------------------------------------------ per frame
    def update(self, dt: float) -> None:
        before = self.session.version
        self.session.pump()
        if self.layout is None and self.g is not None:
            self.build()
        self.flash = max(0.0, self.flash - dt)
        if self.moments:
            self.moments[0].t += dt
            if self.moments[0].done:
                self.moments.pop(0)
        if self.g is not None and self.layout is not None:
            self._new_reports()
        self._take_hint()
        if self.session.version != before:
            self.flash = 1.2
            if not self._can_act():   # (no longer this player's turn: nothing stays picked)
                self.plan = None
                self.selected_item = self.selected_shelf = self._refused = None
        if self.session.turn_started:
            self.session.turn_started = False
            self.app.notify_turn()
        stage = self.session.stage()
        self._played |= stage == "board"
        if stage == "ended" and self._played and not self.final and self.layout is not None:
            self._over(dt)   # the last moves stay in view until the player asks for the scores
        elif stage != "board" and not self.final:
            from .router import scene_for  # the router knows every game screen
            nxt = scene_for(self.app, self.session)
            if nxt is not None:
                self.app.stack.replace(nxt)
                return
        if self.session.connection_lost and not getattr(self, "_overlay_shown", False):
            self._overlay_shown = True
            from .overlay import ReconnectOverlay
            self.app.stack.push(ReconnectOverlay(self.app, self.session))
        elif not self.session.connection_lost:
            self._overlay_shown = False
        if self.layout is not None:   # a view scrolled back stays on the lines it shows
            rows = len(self.log.rows(self.context()))
            if self.log_scroll and rows > self._log_rows:
                self.log_scroll += rows - self._log_rows
                self.log_unseen += rows - self._log_rows       # said below, until read
            elif not self.log_scroll:
                self.log_unseen = 0          # back at the newest line: the log follows again
            self._log_rows = rows
            self.action_bar.place_tooltips(self.ui)
        self._refresh_buttons()
        under = self._greyed_under(pygame.mouse.get_pos())
        self._grey = (under, self._grey[1] + dt if under is not None and under is self._grey[0] else 0.0)

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
        box = pygame.Rect(0, 0, w, len(lines) * lead + round(12 * u))
        box.bottomright = (self.layout.actions.right, self.layout.actions.top - round(6 * u))
        box.clamp_ip(surface.get_rect())
        pygame.draw.rect(surface, P.INK, box, border_radius=6)
        pygame.draw.rect(surface, P.GOLD, box, width=1, border_radius=6)
        for i, line in enumerate(lines):
            text(surface, line, (box.x + round(10 * u), box.y + round(6 * u) + i * lead), size, P.PARCHMENT)

    # ------------------------------------------------------------------ input
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN):
            self._rev += 1
        if self.over_for is not None and event.type in (pygame.KEYDOWN, pygame.KEYUP) \
                and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if event.type == pygame.KEYUP:
                self._held.discard(event.key)
            elif self.over_for < OVER_GUARD or event.key in self._held:
                self._held.add(event.key)   # an Enter from the turn's end, or a double press: not yet
            else:
                self._to_scores()
            return
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
            unit = (self.player_board.held_at(self.context(), target[1], event.pos)
                    if (self.plan is None or isinstance(self.plan, MarketPlan)) and target is not None
                    and target[0] in ("shelf", "depot") else None)
            self._refused = None
            self._click(target)
            self._drag_unit = None
            if target is not None and target[0] in ("shelf", "depot") and target[1] in (self.selected_shelf,
                                                                                      self._refused):
                self.drag_from, self._drag_start, self.dragging = target[1], event.pos, False
                self._drag_unit = unit
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self._drop(event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 3:
            self._cancel()
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self._enter()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_F1:
            self._rules()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_z and event.mod & pygame.KMOD_CTRL:
            self._undo()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and self.final and not self.viewing:
            self.app.stack.pop()
        elif (event.type == pygame.KEYDOWN and event.key == pygame.K_h and self.plan is None
              and (self.chat_entry is None or not self.chat_entry.is_focused)):
            self._hint()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            if self.viewing or self.leader_menu is not None or self.plan is not None or self.selected_shelf is not None:
                self._cancel()

    def on_ui(self, event: pygame.event.Event) -> None:
        self._rev += 1
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            el = event.ui_element
            if el is self.buttons.get("scores"):
                self._to_scores()
            elif el is self.buttons.get("confirm"):
                self._confirm()
            elif el is self.buttons.get("back"):
                self._cancel()
            elif el is self.buttons.get("produce"):
                self._start_production()
            elif el is self.buttons.get("end"):
                self._end_turn()
            elif el is self.buttons.get("rules"):
                self._rules()
            elif el is self.buttons.get("undo"):
                self._undo()
            elif el is self.buttons.get("leave") and self.final:
                self.app.stack.pop()
            elif el is self.buttons.get("hint"):
                self._hint()
            elif el is self.buttons.get("leave"):
                from .router import leave_game   # asks first while hosting with others at the table
                leave_game(self.app, self.session)
            elif el in self._leader_buttons:
                self._leader_button(el)
        elif event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.chat_entry:
            self.session.chat(self.chat_entry.get_text())
            self.chat_entry.set_text("")

    def _confirmed(self, what: str) -> None:
        """A question was answered yes (its button, or Enter)."""
        if what == "market":
            self._send_plan()
        elif what == "end":
            self.session.send(ReqEndTurn())

    def _enter(self) -> None:
        """Enter: Confirm for a plan that is ready (a question over the board takes its own Enter)."""
        if self.plan is not None and getattr(self.plan, "ready", True) and self._can_act():
            self._confirm()

    def _over(self, dt: float) -> None:
        """The game ended while this board was shown (Lorenzo's last token, another player's last
        move, or the player's own): the board stays as it ended, with the last report's moment,
        the token and the log, and *See the scores* takes the action bar's place (Enter too, once
        :data:`OVER_GUARD` has passed)."""
        if self.over_for is not None:
            self.over_for += dt
            return
        self.over_for = 0.0
        self._cancel()
        if self.hinter is not None:
            self.hinter.close()
            self.hinter = None
        pressed = pygame.key.get_pressed()
        self._held = {k for k in (pygame.K_RETURN, pygame.K_KP_ENTER) if pressed[k]}
        left, right = self.action_bar.main_rects()
        self.buttons["scores"] = pygame_gui.elements.UIButton(
            left.union(right), "See the scores", self.ui, object_id=ObjectID(class_id="@menu"),
            tool_tip_text="The game is over: every player's score, and who won (Enter)")
        self._rev += 1
        self._refresh_buttons()

    def _to_scores(self) -> None:
        from .router import scene_for
        nxt = scene_for(self.app, self.session)
        if nxt is not None:
            self.app.stack.replace(nxt)

    def _new_reports(self) -> None:
        """A Vatican report the player has not seen yet gets its moment on the board (reports made
        before this board was first shown have none)."""
        fired = {sec.get("id") for sec in FaithPanel.sections_of(self.g) if sec.get("activated")}
        if self._reported is None:
            self._reported = fired
            return
        for sid in sorted(fired - self._reported, key=lambda i: str(i)):
            moment = VaticanMoment.of(self.context(), sid)
            if moment is not None:
                self.moments.append(moment)
        self._reported |= fired

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

    def _undo(self) -> None:
        """Undo (button or Ctrl+Z): a plan being built is dropped (nothing was sent); otherwise my
        last request of this turn is taken back, and the table comes back as it was."""
        if self.plan is not None or self.selected_shelf is not None or self.leader_menu is not None:
            self._cancel()
        elif self.session.can_undo and not self.session.connection_lost:
            self.session.undo()

    # ------------------------------------------------------------------ hint
    def _hint(self) -> None:
        """Ask the hard bot what to do now (on a worker thread; see :mod:`game.client.hint`)."""
        if not self._can_act() or self.plan is not None:
            return
        if self.hinter is None:
            self.hinter = Hinter(self.session.config, on_ready=getattr(self.app, "wake", None))
        if self.hinter.ask(self.g, self.vm.nickname, self.session.version):
            if "hint" in self.buttons:
                self.buttons["hint"].set_text("Thinking…")

    def _take_hint(self) -> None:
        """The hint's answer, once it has come: a plan (if the game has not moved meanwhile)."""
        if self.hinter is None:
            return
        got = self.hinter.take()
        if got is None:
            return
        if "hint" in self.buttons:
            self.buttons["hint"].set_text("Hint")
        version, answer = got
        if answer is None:
            self.session.error = "No hint could be found this time."
            return
        if version != self.session.version or not self._can_act() or self.plan is not None:
            return   # the game moved on (or the player started a plan): the hint is stale
        sh = self.session.shadow()
        self.plan = plan_for(answer.action, answer.why, sh, sh.player(self.vm.nickname), answer.then)
        self.selected_item = self._next_unplaced()
        self.selected_shelf = None

    def exit(self) -> None:
        if self.hinter is not None:
            self.hinter.close()
            self.hinter = None
        self._static = self._base = self._base_key = None   # two window-sized pictures, whoever still holds the scene
        super().exit()

    def _rules(self) -> None:
        """How to play, over the board (Back returns here; the game's messages wait meanwhile)."""
        from .help import HelpScene
        self.app.stack.push(HelpScene(self.app))

    def _drop(self, pos: tuple[int, int]) -> None:
        """The left button comes up: a shelf dragged onto another one is swapped with it (the same
        as clicking one, then the other); dropped anywhere else, the first stays selected."""
        start, dragging = self.drag_from, self.dragging
        unit, self._drag_unit = getattr(self, "_drag_unit", None), None
        self.drag_from, self.dragging = None, False
        if start is None or not dragging:
            return
        self._rev += 1
        if start == self._refused:   # a press that was refused for the picked resource, then dragged
            self.selected_shelf, self.note, self._refused = start, None, None
        target = self._target_at(pos)
        if (target is not None and target[0] in ("shelf", "depot") and target[1] != start
                and self.selected_shelf == start):
            if unit is not None and isinstance(self.plan, MarketPlan):   # one resource carried over
                self._plan_move(self.plan, start, target[1], unit, 1)
                self.selected_shelf = None
                return
            if self.plan is None and self._can_act():   # a drag moves what fits (or swaps if nothing can)
                self._rearrange(start, target[1], unit, swap_first=False)
                self.selected_shelf = None
                return
            self._click(target)

    def _cancel(self) -> None:
        self.note = None
        self.drag_from, self.dragging = None, False
        self.plan = None
        self.selected_item = None
        self.selected_shelf = None
        self.viewing = None
        self._close_leader_menu()

    def _click(self, target: Target | None) -> None:
        """Turn a click on a board target into a plan step or an action (the one place for input)."""
        if self.viewing is not None:
            self.viewing = None
            return
        self._close_leader_menu()
        if target is None:
            self.selected_shelf = None
            return
        kind = target[0]
        if kind == "opponent":
            self.viewing = target[1]
            return
        if not self._can_act():
            return
        sh = self.session.shadow()
        me = sh.player(self.vm.nickname)
        plan = self.plan
        if isinstance(plan, MarketPlan):
            self.note = None
            if kind == "item":
                self.selected_item, self.selected_shelf = target[1], None
            elif kind in ("shelf", "depot"):
                self._plan_shelf_click(plan, target[1])
            elif kind == "discard" and self.selected_item is not None:
                plan.put(self.selected_item, None)
                self.selected_item = self._next_unplaced()
            elif kind == "white":
                i = target[1]
                opts = plan.white_options
                plan.choose_white(i, opts[(opts.index(plan.white_choice[i]) + 1) % len(opts)])
            elif kind == "suggest":
                plan.suggest()
            return
        if isinstance(plan, BuyPlan):
            if kind == "slot" and target[1] in plan.slots:
                plan.slot = target[1]
            elif kind == "pay":
                _, res, src, dst = target
                plan.payment.move(res, src, dst)
            return
        if isinstance(plan, ProductionPlan):
            if kind == "production":
                plan.toggle(target[1])
                self.note = None
                self._default_blanks(plan, target[1])
            elif kind == "blank":
                self._pick(plan, *target[1:])
            elif kind == "pay":
                _, res, src, dst = target
                plan.get_payment().move(res, src, dst)
            return
        # no plan yet
        main_open = not self.g["isMandatoryActionDone"]
        if kind == "line" and main_open:
            self.plan = MarketPlan.start(sh, me, target[1], target[2])
            self.selected_item = self._next_unplaced()
        elif kind == "card" and main_open:
            card = sh.top_card(target[1], target[2])
            if card is not None:
                self.plan = BuyPlan.start(sh, me, card)
        elif kind == "production" and main_open:
            self._start_production()
            if isinstance(self.plan, ProductionPlan):
                self.plan.toggle(target[1])
                self._default_blanks(self.plan, target[1])
        elif kind in ("shelf", "depot"):
            if self.selected_shelf is None:
                self.selected_shelf = target[1]
            elif self.selected_shelf == target[1]:
                self.selected_shelf = None
            else:   # a swap if the rules let them swap, else what fits moves over
                self._rearrange(self.selected_shelf, target[1], None, swap_first=True)
                self.selected_shelf = None
        elif kind == "leader" and target[1] in self.me["leadersHand"] and not self.vm.leader(target[1])["active"]:
            self._open_leader_menu(target[1])
        if self.plan is not None:   # a plan begun: a shelf picked before it is no longer picked
            self.selected_shelf = None

    def _rearrange(self, src: int, dst: int, unit: str | None, swap_first: bool) -> None:
        """Outside a plan, move from shelf (or depot) ``src`` to ``dst`` what the rules allow,
        tried on a copy of the game first: ``unit`` alone when one resource was carried; else a
        swap of the two or as much of ``src`` as fits on ``dst`` (the swap first after two clicks,
        the move first after a drag). Nothing possible: the first refusal, in words."""
        from game.rules.actions import ReqMoveResources
        content = self.vm.container(src)["content"]
        moves = ([ReqMoveResources(src, dst, unit, 1)] if unit is not None else
                 [ReqMoveResources(src, dst, res, k) for res, n in sorted(content.items()) for k in range(n, 0, -1)])
        swap = [ReqSwapShelves(src, dst)] if unit is None else []
        first_why = None
        for request in (swap + moves if swap_first else moves + swap):
            why = self._refusal(request)
            if why is None:
                self.session.error = None
                self.session.send(request)
                return
            first_why = first_why or why
        self.session.error = first_why or "Nothing there to move."

    def _refusal(self, request: Any) -> str | None:
        """Why the engine would refuse ``request`` now (tried on a copy of the player's game), in
        the player's words (the engine's go to the log file), or None."""
        import copy

        from game.rules.errors import GameError

        from game.client.refusals import words_for
        game = copy.deepcopy(self.session.shadow())
        try:
            game.apply(self.vm.nickname, request)
        except GameError as e:
            return words_for(e, request, game.player(self.vm.nickname))
        return None

    def _plan_shelf_click(self, plan: MarketPlan, cid: int) -> None:
        """A shelf or depot clicked during a market plan: the selected resource goes there if it
        can; otherwise the shelf is picked, and a second one is swapped with it (in the plan:
        the swap is sent before the take, on Confirm)."""
        if self.selected_shelf is not None and self.selected_shelf != cid:
            try:
                plan.rearrange(ReqSwapShelves(self.selected_shelf, cid))
            except ValueError:   # they cannot swap: move over what fits (part of a shelf)
                if not self._move_what_fits(plan, self.selected_shelf, cid):
                    self.note = plan.why_no_swap(self.selected_shelf, cid)   # said in the plan, in words
            self.session.error = None
            self.selected_shelf = None
            self.selected_item = self._next_unplaced()
        elif self.selected_shelf == cid:
            self.selected_shelf = None
        elif self.selected_item is not None and cid in plan.targets_for(self.selected_item):
            plan.put(self.selected_item, cid)
            self.selected_item = self._next_unplaced()
        elif self.selected_item is not None:   # a shelf that does not glow for the picked resource: why
            why = plan.why_not(self.selected_item, cid) or "That resource does not fit there"
            if any(plan.arranged().get(cid, {}).values()):   # it holds something: the swap the footer offers
                name = plan.box_name(cid)
                self.note = f"{why.rstrip('.')}. Click another shelf to swap {name} with it."
                self.selected_shelf, self.selected_item = cid, None
            else:
                self.note = why
                self.selected_item, self._refused = None, cid    # (a drag from it still moves what it holds)
        else:
            self.selected_shelf, self.selected_item = cid, None

    def _move_what_fits(self, plan: MarketPlan, src: int, dst: int) -> bool:
        """Move as much of what ``src`` holds onto ``dst`` as the rules let (in the plan: the
        request goes before the take); False if nothing can move."""
        for res, n in sorted(plan.arranged().get(src, {}).items()):
            for k in range(n, 0, -1):
                if self._plan_move(plan, src, dst, res, k, quiet=True):
                    return True
        return False

    def _plan_move(self, plan: MarketPlan, src: int, dst: int, res: str, k: int, quiet: bool = False) -> bool:
        """``k`` of ``res`` from ``src`` to ``dst`` in the plan; a refusal is said in words."""
        from game.rules.actions import ReqMoveResources
        try:
            plan.rearrange(ReqMoveResources(src, dst, res, k))
        except ValueError:
            if not quiet:   # in the plan panel, where the player is looking, in plain words
                self.note = plan.why_no_move(src, dst, res)
            return False
        self.session.error = None
        self.selected_item = self._next_unplaced()
        return True

    def _pick(self, plan: ProductionPlan, pid: int, side: str, i: int, res: str) -> None:
        """Choose ``res`` for a free choice of a production; paying with what the player does not
        have enough of is refused in words."""
        self.note = None
        if side == "in":
            owned = self.context().vm_totals().get(res, 0)
            need = plan.total_input().get(res, 0) - (plan.input_blanks[pid][i] == res) + 1
            if owned < need:
                self.note = (f"You have no {res} to pay with." if not owned else
                             f"You have {owned} {res}: not enough to pay {need}.")
                return
        plan.set_blank(pid, side, i, res)

    def _default_blanks(self, plan: ProductionPlan, pid: int) -> None:
        """A production's free inputs paid with what the player has most of, one by one."""
        if pid not in plan.input_blanks:
            return
        left = dict(self.context().vm_totals())
        for res, n in plan.total_input().items():
            left[res] = left.get(res, 0) - (n - sum(b.count(res) for b in plan.input_blanks.values()))
        for p, blanks in plan.input_blanks.items():
            if p != pid:
                for r in blanks:
                    left[r] = left.get(r, 0) - 1
        for k in range(len(plan.input_blanks[pid])):
            best = max(RESOURCES, key=lambda r: (left.get(r, 0), -RESOURCES.index(r)))
            plan.set_blank(pid, "in", k, best)
            left[best] = left.get(best, 0) - 1

    def _next_unplaced(self) -> int | None:
        plan = self.plan
        if not isinstance(plan, MarketPlan):
            return None
        for i, t in enumerate(plan.target):
            if t is None:
                return i
        return None

    def _start_production(self) -> None:
        if not self._can_act() or self.g["isMandatoryActionDone"]:
            return
        sh = self.session.shadow()
        self.plan = ProductionPlan.start(sh, sh.player(self.vm.nickname))
        self.selected_shelf = None

    def _confirm(self) -> None:
        plan = self.plan
        if isinstance(plan, MarketPlan) and plan.discarded:
            self._ask("market", "Discard what does not fit?", plan.discard_warning() or "", "Discard and take",
                      "Back to the plan")
            return
        self._send_plan()

    def _send_plan(self) -> None:
        plan = self.plan
        if plan is None or not getattr(plan, "ready", True):
            return
        for request in (plan.requests() if isinstance(plan, MarketPlan) else [plan.request()]):
            self.session.send(request)   # a market plan's rearranging first, then the take
        self.plan = None
        self.selected_item = None
        self.selected_shelf = None

    def _end_turn(self) -> None:
        self.selected_item = self.selected_shelf = self._refused = None   # nothing stays picked into the next turn
        if self.app.settings.confirm_end_turn:
            who = ("Lorenzo takes his turn: one token from his pile." if len(self.g["players"]) == 1
                   else "The next player takes their turn.")
            self._ask("end", "End your turn?", f"{who} (Settings can stop this question.)", "End turn")
        else:
            self.session.send(ReqEndTurn())

    def _ask(self, what: str, title: str, text: str, action: str, back: str = "Back") -> None:
        """A modal question over the dimmed board (:class:`~game.scenes.ask.AskScene`): ``action``
        (also Enter) does it, ``back`` (also Esc) changes nothing."""
        from .ask import AskScene

        def then(answer: str) -> None:
            self.confirm_dialog = None
            if answer == "yes" and self.app.stack.top is self:
                self._confirmed(what)
        self.confirm_dialog = AskScene(self.app, title, text, [("yes", action, None), ("no", back, None)], then)
        self.app.stack.push(self.confirm_dialog)

    def _open_leader_menu(self, lid: int) -> None:
        """Play and Discard for a leader in hand: the card is marked, and the two buttons take the
        place of Produce and End turn in the action bar, just under the leaders (so they cover
        nothing on the board). A Play that cannot be done yet says what is missing."""
        self._close_leader_menu()
        if not any(h.target == ("leader", lid) for h in self.hits):
            return
        self.leader_menu = lid
        sh = self.session.shadow()
        me = sh.player(self.vm.nickname)
        ready = any(ld.id == lid for ld in activatable_leaders(sh, me))
        left, right = self.action_bar.main_rects()
        play_rect = pygame.Rect(left.x, left.y, round((right.right - left.x) * 0.4), left.h)
        discard_rect = pygame.Rect(play_rect.right + (right.x - left.right), left.y, 0, left.h)
        discard_rect.w = right.right - discard_rect.x     # the longer words get the wider button
        play = pygame_gui.elements.UIButton(play_rect, "Play", self.ui, object_id=ObjectID(class_id="@menu"),
                                            tool_tip_text="Play this leader: its ability works from now on" if ready
                                            else missing_words(sh, me, lid))
        play.leader_action = (lid, True)  # type: ignore[attr-defined]
        play.why = None if ready else missing_words(sh, me, lid)   # type: ignore[attr-defined]
        if not ready:
            play.disable()
        discard = pygame_gui.elements.UIButton(discard_rect, "Discard (+1 faith)", self.ui,
                                               object_id=ObjectID(class_id="@quiet"),
                                               tool_tip_text="Give this leader up for one step on the faith track "
                                                             "(Esc keeps it)")
        discard.leader_action = (lid, False)  # type: ignore[attr-defined]
        self._leader_buttons = [play, discard]
        self._refresh_buttons()

    def _close_leader_menu(self) -> None:
        for b in getattr(self, "_leader_buttons", []):
            b.kill()
        was = getattr(self, "leader_menu", None)
        self._leader_buttons = []
        self.leader_menu = None
        if was is not None:
            self._refresh_buttons()

    def _leader_button(self, el: Any) -> None:
        lid, activate = el.leader_action
        self._close_leader_menu()
        self.session.send(ReqLeaderAction(lid, activate))


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
                rect = next((h.rect for h in self.hits if h.target == ("leader", self.leader_menu)), None)
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

    def keep_clear(self) -> list[pygame.Rect]:
        """What hover art never covers: the action bar, the log or the plan being confirmed,
        an open leader menu, and the hovered thing itself; a leader's, the track and the top bar;
        a card of the grid's, the grid and the market's arrows (what the pointer goes to next)."""
        L = self.layout
        out = [L.actions, L.log] + [b.rect for b in self._leader_buttons]
        if self.hover is not None:
            out += [h.rect for h in self.hits if h.target == self.hover][:1]
            if self.hover[0] == "leader":   # the track and the top bar stay in view (beside the card: the slots)
                out += [L.faith, L.top_bar]
            elif self.hover[0] == "card":   # beside the grid: its other cards and the market's arrows stay in view
                out += [L.grid] + [h.rect for h in self.hits if h.target[0] == "line"]
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

    def _draw_error(self, surface: pygame.Surface, words: str) -> None:
        """A refusal, on its own label at the foot of the card slots (over nothing the player
        reads at that moment), at the log's size or larger, wrapped on two lines at most."""
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
        pygame.draw.rect(surface, P.PARCHMENT, box, border_radius=6)
        pygame.draw.rect(surface, P.OXBLOOD, box, width=2, border_radius=6)
        for i, line in enumerate(lines):
            text(surface, line, (box.centerx, box.y + pad // 2 + i * step), size, P.OXBLOOD, "italic", anchor="midtop")

    def _draw_over(self, surface: pygame.Surface) -> None:
        """Who won, in the action bar under *See the scores*."""
        from game.client.session import final_scores
        from game.client.words import outcome_words
        head, _why = outcome_words(self.session, final_scores(self.session))
        a = self.layout.actions
        top = self.action_bar.main_rects()[0].bottom
        bottom = self.action_bar.small_rect(2).top
        text(surface, f"The game is over: {head}", (a.centerx, (top + bottom) // 2), round(17 * self.layout.unit),
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
        text(surface, f"The board of {self.session.shown_name(nick)} — {p['victoryPoints']} VP, "
                      f"faith {p['faithPoints']}",
             (head.x + round(10 * u), head.centery), round(19 * u), P.INK, "caps", anchor="midleft",
             max_width=head.w * 2 // 3)
        text(surface, "click anywhere to close (Esc)", (head.right - round(10 * u), head.centery), round(16 * u),
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
        source = next((h.rect for h in hits if h.target[0] in ("shelf", "depot") and h.target[1] == self.drag_from),
                      None)
        if source is not None:
            veil(surface, source, 120, radius=8)   # its content is "in the hand"
        t = self.hover
        if t is not None and t[0] in ("shelf", "depot") and t[1] != self.drag_from:
            rect = next((h.rect for h in hits if h.target == t), None)
            if rect is not None:
                glow(surface, rect, P.HIGHLIGHT[:3], width=4)
        held = (self.plan.arranged() if isinstance(self.plan, MarketPlan) else {}).get(
            self.drag_from, self.vm.container(self.drag_from)["content"])
        content = ([self._drag_unit] if self._drag_unit is not None else
                   [r for r, n in sorted(held.items()) for _ in range(n)])
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


def missing_words(game, player, lid: int) -> str:
    """Why a leader cannot be played yet, in words ("Needs 5 Stone: you have 1")."""
    leader = game.config.leaders[lid]
    cards, res = game.missing_requirements(player, leader)
    totals = player.resource_totals()
    parts = [f"{leader.requires_resources[r]} {r} (you have {totals.get(r, 0)})" for r in sorted(res)]
    for c in cards:
        level = f"level {c['level']} " if c["level"] else ""
        parts.append(f"{c['quantity']} more {level}{c['color'].lower()} card{'s' * (c['quantity'] > 1)}")
    return "Needs " + "; ".join(parts) if parts else "You do not have what it asks for yet"
