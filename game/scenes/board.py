"""The board: the whole game on one screen, every action with the mouse.

Left: the market (12 marbles, the slide marble, an arrow for each row and column) and the
development card grid (top card of each deck and how many are left). Right: the faith track
(pope spaces, Vatican sections, favor tiles, every marker and Lorenzo's black cross), then the
player's board (warehouse shelves, leader depots, strongbox, base production, the 3 card slots
with what lies under each top card, leaders), then the action log and the action buttons. The
top bar says whose turn it is and shows the opponents (click one to see their whole board) or
Lorenzo's last token.

Input is read in one place (:meth:`BoardScene._click`): a click on a target either starts a plan
(:mod:`game.scenes.plans`: take a line, buy a card, run productions), edits the current plan, or
does a one-step action (swap two shelves, also by dragging one onto the other; play or discard a
leader). Esc or Back drops the plan: nothing is sent until Confirm (or Enter, which also answers
yes to a warning). Illegal targets are greyed out before they are tried; refusals are shown as
plain text. Everything is drawn from the session's view model.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.rules.actions import ReqEndTurn, ReqLeaderAction, ReqSwapShelves
from game.rules.choices import activatable_leaders, affordable_cards, market_lines

from . import art
from .art import cards as C
from .art import fonts as F
from .art import icons as I
from .art import marbles as M
from .art import palette as P
from .layout import BoardLayout, board_layout
from .plans import BuyPlan, MarketPlan, ProductionPlan
from .scene import Scene
from .session import ChatLine, GameSession

Target = tuple[Any, ...]
PLAYER_COLORS = [(178, 52, 40), (40, 96, 160), (46, 122, 70), (150, 104, 24)]
RESOURCES = ("Coin", "Servant", "Shield", "Stone")
DRAG_DISTANCE = 6
"""Pixels the mouse must travel with the button down before a press on a shelf becomes a drag."""


@dataclass
class Hit:
    rect: pygame.Rect
    target: Target


def _glow(surface: pygame.Surface, rect: pygame.Rect, color: tuple[int, int, int], width: int = 3,
          radius: int = 8) -> None:
    pad = width + 2
    layer = pygame.Surface((rect.w + 2 * pad, rect.h + 2 * pad), pygame.SRCALPHA)
    for i in range(width, 0, -1):
        alpha = int(200 * (1 - i / (width + 1)))
        pygame.draw.rect(layer, (*color, alpha), layer.get_rect().inflate(-2 * (pad - i), -2 * (pad - i)),
                         width=2, border_radius=radius + i)
    surface.blit(layer, (rect.x - pad, rect.y - pad))


def _veil(surface: pygame.Surface, rect: pygame.Rect, alpha: int = 110, radius: int = 6) -> None:
    layer = pygame.Surface(rect.size, pygame.SRCALPHA)
    pygame.draw.rect(layer, (*P.DIM[:3], alpha), layer.get_rect(), border_radius=radius)
    surface.blit(layer, rect.topleft)


def _text(surface: pygame.Surface, text: str, pos: tuple[int, int], size: int, color=None, style: str = "regular",
          anchor: str = "topleft", max_width: int | None = None) -> pygame.Rect:
    if max_width is not None:
        size = F.fit(text, max_width, size, style)
    img = F.render(text, size, color or P.INK, style)
    r = img.get_rect(**{anchor: pos})
    surface.blit(img, r)
    return r


def _panel(surface: pygame.Surface, rect: pygame.Rect, radius: int = 10, fill=None, border=None) -> None:
    shadow = pygame.Surface((rect.w + 8, rect.h + 8), pygame.SRCALPHA)
    pygame.draw.rect(shadow, (30, 18, 8, 70), shadow.get_rect(), border_radius=radius + 4)
    surface.blit(shadow, (rect.x - 2, rect.y + 2))
    if fill is None:
        surface.blit(art.board.parchment(rect.w, rect.h), rect)
        mask = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(mask, (0, 0, 0, 0), mask.get_rect(), border_radius=radius)
    else:
        pygame.draw.rect(surface, fill, rect, border_radius=radius)
    pygame.draw.rect(surface, border or P.GOLD, rect, width=2, border_radius=radius)


class BoardScene(Scene):
    """The game board for one player (solo or multiplayer)."""

    def __init__(self, app: Any, session: GameSession) -> None:
        super().__init__(app)
        self.session = session
        self.plan: MarketPlan | BuyPlan | ProductionPlan | None = None
        self.selected_item: int | None = None       # market plan: the item being placed
        self.selected_shelf: int | None = None      # idle: first shelf of a swap
        self.leader_menu: int | None = None          # a leader whose Play/Discard buttons are open
        self.viewing: str | None = None              # an opponent whose board is open
        self.hover: Target | None = None
        self.mouse = (0, 0)
        self.drag_from: int | None = None            # the shelf the left button went down on
        self.dragging = False                        # ... and the mouse has moved away with it
        self.hits: list[Hit] = []
        self.layout: BoardLayout | None = None
        self.flash = 0.0
        self.confirm_dialog: Any = None
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self._static: pygame.Surface | None = None   # table, panels and headings for this size
        self._base: pygame.Surface | None = None     # the whole board without the hover card
        self._base_key: tuple | None = None
        self._rev = 0                                # bumped by every click or key (plan edits)

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

    def _productions(self) -> dict[int, dict[str, Any]]:
        return {p["id"]: p for p in self.g["productions"]}

    def _card(self, cid: int) -> dict[str, Any]:
        return self._cards_by_id[cid]

    def _can_act(self) -> bool:
        return self.vm.my_turn and not self.session.connection_lost

    # ------------------------------------------------------------------ lifecycle
    def build(self) -> None:
        if self.g is None:
            self.session.pump()
        g = self.g
        if g is None:
            return
        self._cards_by_id = {c["id"]: c for c in g["developmentCards"]}
        self._leaders_by_id = {ld["id"]: ld for ld in g["leaderCards"]}
        n = len(g["players"])
        self.layout = L = board_layout(self.app.size, n, n == 1)
        u = L.unit
        bh = round(44 * u)
        a = L.actions
        specs = [("confirm", "Confirm", "@menu", 0, "Send what you planned (Enter)"),
                 ("back", "Back", "@quiet", 1, "Drop this plan; nothing was sent (Esc or a right click)"),
                 ("produce", "Produce…", None, 0, "Choose productions to run: your main action"),
                 ("end", "End turn", None, 1, "Pass to the next player, once your main action is done")]
        self.buttons = {}
        col_w = (a.w - round(24 * u)) // 2
        for key, label, cls, col, tip in specs:
            x = a.x + round(8 * u) + col * (col_w + round(8 * u))
            self.buttons[key] = pygame_gui.elements.UIButton(
                pygame.Rect(x, a.y + round(10 * u), col_w, bh), label, self.ui, tool_tip_text=tip,
                object_id=ObjectID(class_id=cls) if cls else None)
        lw, lh = round(84 * u), round(26 * u)
        self.buttons["leave"] = pygame_gui.elements.UIButton(
            pygame.Rect(a.right - lw - round(6 * u), a.bottom - lh - round(6 * u), lw, lh),
            "Leave", self.ui, object_id=ObjectID(class_id="@quiet"),
            tool_tip_text="Back to the title (a solo game is saved; online, you can join again later)")
        self.buttons["rules"] = pygame_gui.elements.UIButton(
            pygame.Rect(a.right - 2 * lw - round(12 * u), a.bottom - lh - round(6 * u), lw, lh),
            "Rules", self.ui, object_id=ObjectID(class_id="@quiet"),
            tool_tip_text="How to play, in eight short pages (F1); the game waits here")
        self._leader_buttons: list[pygame_gui.elements.UIButton] = []
        self.chat_entry = None
        if self.session.can_chat:   # a line to talk to the table, at the foot of the log
            r = L.log
            eh = round(30 * u)
            self.chat_entry = pygame_gui.elements.UITextEntryLine(
                pygame.Rect(r.x + round(8 * u), r.bottom - eh - round(6 * u), r.w - round(16 * u), eh), self.ui,
                placeholder_text="Say something to the table, then Enter")
            self.chat_entry.set_text_length_limit(200)
        self._refresh_buttons()

    def _refresh_buttons(self) -> None:
        b = self.buttons
        if not b:
            return
        planning = self.plan is not None
        can = self._can_act()
        for key in ("confirm", "back"):
            (b[key].show if planning else b[key].hide)()
        b["produce"].set_text("Produce…")
        (b["produce"].hide if planning else b["produce"].show)()
        (b["end"].hide if planning else b["end"].show)()
        if can and not self.g["isMandatoryActionDone"] and not planning:
            b["produce"].enable()
        else:
            b["produce"].disable()
        if can and self.g["isMandatoryActionDone"] and not planning:
            b["end"].enable()
        else:
            b["end"].disable()
        if planning:
            ready = getattr(self.plan, "ready", True)
            (b["confirm"].enable if ready else b["confirm"].disable)()
        if self.chat_entry is not None:   # the plan takes the log's place while it is built
            (self.chat_entry.hide if planning else self.chat_entry.show)()

    # ------------------------------------------------------------------ per frame
    def update(self, dt: float) -> None:
        before = self.session.version
        self.session.pump()
        if self.layout is None and self.g is not None:
            self.build()
        self.flash = max(0.0, self.flash - dt)
        if self.session.version != before:
            self.flash = 1.2
            if self.plan is not None and not self._can_act():
                self.plan = None
        if self.session.turn_started:
            self.session.turn_started = False
            self.app.notify_turn()
        if self.session.stage() != "board":
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
        self.hits = self._regions()
        self._refresh_buttons()

    # ------------------------------------------------------------------ input
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN):
            self._rev += 1
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            self.hover = self._target_at(event.pos)
            if self.drag_from is not None and not self.dragging:
                start = self._drag_start
                self.dragging = abs(event.pos[0] - start[0]) + abs(event.pos[1] - start[1]) > DRAG_DISTANCE
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = event.pos
            target = self._target_at(event.pos)
            self._click(target)
            if target is not None and target[0] in ("shelf", "depot") and self.selected_shelf == target[1]:
                self.drag_from, self._drag_start, self.dragging = target[1], event.pos, False
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self._drop(event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 3:
            self._cancel()
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self._enter()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_F1:
            self._rules()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            if self.viewing or self.leader_menu is not None or self.plan is not None or self.selected_shelf is not None:
                self._cancel()

    def on_ui(self, event: pygame.event.Event) -> None:
        self._rev += 1
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            el = event.ui_element
            if el is self.buttons.get("confirm"):
                self._confirm()
            elif el is self.buttons.get("back"):
                self._cancel()
            elif el is self.buttons.get("produce"):
                self._start_production()
            elif el is self.buttons.get("end"):
                self._end_turn()
            elif el is self.buttons.get("rules"):
                self._rules()
            elif el is self.buttons.get("leave"):
                self.session.close()
                from .menus import TitleScene
                self.app.stack.reset(TitleScene(self.app))
            elif el in self._leader_buttons:
                self._leader_button(el)
        elif event.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED:
            if event.ui_element is self.confirm_dialog:
                self._confirmed()
        elif event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.chat_entry:
            self.session.chat(self.chat_entry.get_text())
            self.chat_entry.set_text("")

    def _confirmed(self) -> None:
        """The confirmation dialog was answered yes (its button, or Enter)."""
        what = getattr(self, "_pending_confirm", None)
        self.confirm_dialog = None
        if what == "market":
            self._send_plan()
        elif what == "end":
            self.session.send(ReqEndTurn())

    def _enter(self) -> None:
        """Enter: yes to an open confirmation, else Confirm for a plan that is ready."""
        if self.confirm_dialog is not None:
            dialog = self.confirm_dialog
            self._confirmed()
            dialog.kill()
        elif self.plan is not None and getattr(self.plan, "ready", True) and self._can_act():
            self._confirm()

    def _target_at(self, pos: tuple[int, int]) -> Target | None:
        for hit in reversed(self.hits):
            if hit.rect.collidepoint(pos):
                return hit.target
        return None

    def _rules(self) -> None:
        """How to play, over the board (Back returns here; the game's messages wait meanwhile)."""
        from .help import HelpScene
        self.app.stack.push(HelpScene(self.app))

    def _drop(self, pos: tuple[int, int]) -> None:
        """The left button comes up: a shelf dragged onto another one is swapped with it (the same
        as clicking one, then the other); dropped anywhere else, the first stays selected."""
        start, dragging = self.drag_from, self.dragging
        self.drag_from, self.dragging = None, False
        if start is None or not dragging:
            return
        self._rev += 1
        target = self._target_at(pos)
        if (target is not None and target[0] in ("shelf", "depot") and target[1] != start
                and self.selected_shelf == start):
            self._click(target)

    def _cancel(self) -> None:
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
            if kind == "item":
                self.selected_item = target[1]
            elif kind in ("shelf", "depot") and self.selected_item is not None:
                if target[1] in plan.targets_for(self.selected_item):
                    plan.put(self.selected_item, target[1])
                    self.selected_item = self._next_unplaced()
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
            elif kind == "blank":
                _, pid, side, i = target
                blanks = (plan.input_blanks if side == "in" else plan.output_blanks)[pid]
                plan.set_blank(pid, side, i, RESOURCES[(RESOURCES.index(blanks[i]) + 1) % 4])
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
        elif kind in ("shelf", "depot"):
            if self.selected_shelf is None:
                self.selected_shelf = target[1]
            elif self.selected_shelf == target[1]:
                self.selected_shelf = None
            else:
                self.session.send(ReqSwapShelves(self.selected_shelf, target[1]))
                self.selected_shelf = None
        elif kind == "leader" and target[1] in self.me["leadersHand"] and not self._leaders_by_id[target[1]]["active"]:
            self._open_leader_menu(target[1])

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

    def _confirm(self) -> None:
        plan = self.plan
        if isinstance(plan, MarketPlan) and plan.discarded:
            self._ask("market", plan.discard_warning() or "", "Discard and take")
            return
        self._send_plan()

    def _send_plan(self) -> None:
        plan = self.plan
        if plan is None or not getattr(plan, "ready", True):
            return
        self.session.send(plan.request())
        self.plan = None
        self.selected_item = None

    def _end_turn(self) -> None:
        if self.app.settings.confirm_end_turn:
            self._ask("end", "End your turn?", "End turn")
        else:
            self.session.send(ReqEndTurn())

    def _ask(self, what: str, text: str, action: str) -> None:
        self._pending_confirm = what
        w, h = self.app.size
        rect = pygame.Rect(0, 0, min(520, w - 40), 220)
        rect.center = (w // 2, h // 2)
        self.confirm_dialog = pygame_gui.windows.UIConfirmationDialog(
            rect, text, self.ui, window_title="Please confirm", action_short_name=action)

    def _open_leader_menu(self, lid: int) -> None:
        self._close_leader_menu()
        rect = next((h.rect for h in self.hits if h.target == ("leader", lid)), None)
        if rect is None:
            return
        self.leader_menu = lid
        sh = self.session.shadow()
        ready = any(ld.id == lid for ld in activatable_leaders(sh, sh.player(self.vm.nickname)))
        u = self.layout.unit if self.layout else 1
        bh = round(32 * u)
        play = pygame_gui.elements.UIButton(pygame.Rect(rect.x, rect.bottom - 2 * bh - 6, rect.w, bh), "Play",
                                            self.ui, object_id=ObjectID(class_id="@menu"))
        play.leader_action = (lid, True)  # type: ignore[attr-defined]
        if not ready:
            play.disable()
        discard = pygame_gui.elements.UIButton(pygame.Rect(rect.x, rect.bottom - bh - 2, rect.w, bh),
                                               "Discard (+1 faith)", self.ui, object_id=ObjectID(class_id="@quiet"))
        discard.leader_action = (lid, False)  # type: ignore[attr-defined]
        self._leader_buttons = [play, discard]

    def _close_leader_menu(self) -> None:
        for b in getattr(self, "_leader_buttons", []):
            b.kill()
        self._leader_buttons = []
        self.leader_menu = None

    def _leader_button(self, el: Any) -> None:
        lid, activate = el.leader_action
        self._close_leader_menu()
        self.session.send(ReqLeaderAction(lid, activate))

    # ------------------------------------------------------------------ regions (hit targets)
    def _regions(self) -> list[Hit]:
        """Every clickable thing on the board and where it is (computed from the layout and the view)."""
        L = self.layout
        if L is None or self.g is None:
            return []
        out: list[Hit] = []
        out += self._market_regions(L)
        out += self._grid_regions(L)
        out += self._board_regions(L, self.me, own=True)
        for rect, p in zip(L.opponents, [p for p in self.g["players"] if p["nickname"] != self.vm.nickname]):
            out.append(Hit(rect, ("opponent", p["nickname"])))
        for i, rect in enumerate(self._favor_rects(L)):
            out.append(Hit(rect, ("favor", i)))
        tr = self._token_rect(L)
        if tr is not None and self.g.get("lastActionToken") is not None:
            out.append(Hit(tr, ("token",)))
        if self.plan is not None:
            out += self._plan_regions(L)
        return out

    def _market_geometry(self, L: BoardLayout) -> tuple[int, int, int, int]:
        """(marble diameter, grid left, grid top, gap)."""
        rows, cols = len(self.g["market"]["grid"]), len(self.g["market"]["grid"][0])
        r = L.market.inflate(-round(24 * L.unit), -round(24 * L.unit))
        d = int(min((r.w - 40 * L.unit) / (cols + 1.6), (r.h - 30 * L.unit) / (rows + 1.9)))
        gap = max(2, d // 8)
        gw = cols * d + (cols - 1) * gap
        left = r.x + (r.w - gw - d) // 2
        top = r.y + round(d * 1.05) + round(18 * L.unit)
        return d, left, top, gap

    def _market_regions(self, L: BoardLayout) -> list[Hit]:
        d, left, top, gap = self._market_geometry(L)
        grid = self.g["market"]["grid"]
        out = []
        for ri, row in enumerate(grid):
            for ci, _ in enumerate(row):
                out.append(Hit(pygame.Rect(left + ci * (d + gap), top + ri * (d + gap), d, d), ("marble", ri, ci)))
            out.append(Hit(pygame.Rect(left + len(row) * (d + gap), top + ri * (d + gap), d, d), ("line", True, ri)))
        for ci in range(len(grid[0])):
            out.append(Hit(pygame.Rect(left + ci * (d + gap), top + len(grid) * (d + gap), d, round(d * 0.8)),
                           ("line", False, ci)))
        return out

    def _grid_geometry(self, L: BoardLayout) -> tuple[int, int, int, int]:
        r = L.grid.inflate(-round(16 * L.unit), -round(34 * L.unit))
        colors = list(self.g["devCardGrid"]["topCards"])
        levels = self.g["devCardGrid"]["levelsCount"]
        gap = round(6 * L.unit)
        h = min((r.h - gap * (levels - 1)) // levels, int((r.w - gap * (len(colors) - 1)) / len(colors) / 0.66))
        w = C.card_width(h)
        left = r.x + (r.w - (len(colors) * w + (len(colors) - 1) * gap)) // 2
        return h, w, left, gap

    def _grid_regions(self, L: BoardLayout) -> list[Hit]:
        h, w, left, gap = self._grid_geometry(L)
        top = L.grid.y + round(26 * L.unit)
        levels = self.g["devCardGrid"]["levelsCount"]
        out = []
        for ci, color in enumerate(self._grid_colors()):
            for row in range(levels):
                level = levels - row
                out.append(Hit(pygame.Rect(left + ci * (w + gap), top + row * (h + gap), w, h), ("card", color, level)))
        return out

    def _grid_colors(self) -> list[str]:
        order = ["Green", "Blue", "Yellow", "Purple"]
        colors = list(self.g["devCardGrid"]["topCards"])
        return [c for c in order if c in colors] + [c for c in colors if c not in order]

    def _board_regions(self, L: BoardLayout, p: dict[str, Any], own: bool,
                       area: BoardLayout | None = None) -> list[Hit]:
        out: list[Hit] = []
        for cid, rect in self._shelf_rects(L, p).items():
            out.append(Hit(rect, ("shelf", cid)))
        for cid, rect in self._depot_rects(L, p).items():
            out.append(Hit(rect, ("depot", cid)))
        out.append(Hit(L.strongbox, ("strongbox", p["strongbox"])))
        out.append(Hit(L.base_production, ("production", p["baseProduction"])))
        for i, rect in enumerate(L.slots):
            slot = p["devSlots"][i]
            out.append(Hit(rect, ("slot", i)))
            if slot:
                top = self._card(slot[-1])
                out.append(Hit(self._slot_card_rect(L, i, len(slot) - 1, len(slot)), ("production", top["production"])))
        for lid, rect in self._leader_rects(L, p).items():
            out.append(Hit(rect, ("leader", lid)))
            ld = self._leaders_by_id[lid]
            if ld["active"] and ld["leaderType"] == "PRODUCTION":
                out.append(Hit(rect, ("production", ld["production"])))
        return out

    def _shelf_rects(self, L: BoardLayout, p: dict[str, Any]) -> dict[int, pygame.Rect]:
        r = L.warehouse
        u = L.unit
        title = round(24 * u)
        caps = [self.vm.container(cid)["size"] for cid in p["warehouseShelves"]]
        depots = p.get("leaderDepots", [])
        rows = len(caps) + (1 if depots else 0)
        h = min(round(52 * u), (r.h - title) // max(1, rows) - round(4 * u))
        cell = h - round(8 * u)
        out = {}
        for i, (cid, cap) in enumerate(zip(p["warehouseShelves"], caps)):
            w = cap * cell + (cap + 1) * round(6 * u)
            out[cid] = pygame.Rect(r.centerx - w // 2, r.y + title + i * (h + round(4 * u)), w, h)
        return out

    def _depot_rects(self, L: BoardLayout, p: dict[str, Any]) -> dict[int, pygame.Rect]:
        depots = p.get("leaderDepots", [])
        if not depots:
            return {}
        shelves = self._shelf_rects(L, p)
        last = max(shelves.values(), key=lambda r: r.bottom)
        u = L.unit
        h = last.h
        w = (L.warehouse.w - round(8 * u) * (len(depots) - 1)) // len(depots)
        w = min(w, round(last.h * 2.6))
        out = {}
        x0 = L.warehouse.centerx - (len(depots) * w + (len(depots) - 1) * round(8 * u)) // 2
        for i, cid in enumerate(depots):
            out[cid] = pygame.Rect(x0 + i * (w + round(8 * u)), last.bottom + round(4 * u), w, h)
        return out

    def _slot_card_rect(self, L: BoardLayout, slot: int, index: int, count: int) -> pygame.Rect:
        """Card ``index`` (0 = bottom) of a slot: covered cards peek out above the top card."""
        r = L.slots[slot]
        peek = round(22 * L.unit)
        h = min(r.h - peek * 2 - round(8 * L.unit), int(r.w / 0.66))
        w = C.card_width(h)
        bottom = r.bottom - round(6 * L.unit)
        return pygame.Rect(r.centerx - w // 2, bottom - h - (count - 1 - index) * peek, w, h)

    def _leader_rects(self, L: BoardLayout, p: dict[str, Any]) -> dict[int, pygame.Rect]:
        """Leaders side by side or stacked, whichever shows them larger."""
        r = L.leaders
        ids = list(p["leadersHand"])
        if not ids:
            return {}
        n = len(ids)
        gap = round(8 * L.unit)
        label = round(16 * L.unit)   # room for "in hand" above each card
        side = min(r.h - label, int((r.w - gap * (n - 1)) / n / 0.66))
        stacked = min((r.h - gap * (n - 1)) // n - label, int(r.w / 0.66))
        out = {}
        if stacked > side:
            h = stacked
            w = C.card_width(h)
            for i, lid in enumerate(ids):
                out[lid] = pygame.Rect(r.centerx - w // 2, r.y + label + i * (h + gap + label), w, h)
        else:
            h = side
            w = C.card_width(h)
            x0 = r.centerx - (n * w + (n - 1) * gap) // 2
            for i, lid in enumerate(ids):
                out[lid] = pygame.Rect(x0 + i * (w + gap), r.y + (r.h - h) // 2, w, h)
        return out

    def _plan_regions(self, L: BoardLayout) -> list[Hit]:
        out: list[Hit] = []
        panel = L.log
        u = L.unit
        size = round(34 * u)
        plan = self.plan
        x, y = panel.x + round(12 * u), panel.y + round(36 * u)
        if isinstance(plan, MarketPlan):
            for i, _ in enumerate(plan.items):
                out.append(Hit(pygame.Rect(x + i * (size + round(6 * u)), y, size, size), ("item", i)))
            x2 = x + max(1, len(plan.items)) * (size + round(6 * u)) + round(12 * u)
            out.append(Hit(pygame.Rect(x2, y, round(90 * u), size), ("discard",)))
            out.append(Hit(pygame.Rect(x2 + round(100 * u), y, round(90 * u), size), ("suggest",)))
            for i, _ in enumerate(plan.white_choice):
                out.append(Hit(pygame.Rect(x + i * (size + round(6 * u)), y + size + round(8 * u), size, size),
                               ("white", i)))
        elif isinstance(plan, (BuyPlan, ProductionPlan)):
            pay = plan.payment if isinstance(plan, BuyPlan) else plan.get_payment()
            if isinstance(plan, ProductionPlan):
                bx, small = x, round(28 * u)
                for pid in plan.selected:
                    for side, blanks in (("in", plan.input_blanks.get(pid, [])), ("out", plan.output_blanks.get(pid, []))):
                        for i, _ in enumerate(blanks):
                            out.append(Hit(pygame.Rect(bx, panel.y + round(32 * u), small, small), ("blank", pid, side, i)))
                            bx += small + round(4 * u)
                    bx += round(10 * u)
            y2 = panel.y + round(58 * u if isinstance(plan, BuyPlan) else 86 * u)
            cx = x
            for res in sorted(pay.cost):
                srcs = pay.sources(res)
                for cid, held, taken in srcs:
                    if taken < held:
                        donor = next((c for c, _h, t in srcs if t > 0 and c != cid), None)
                        if donor is not None:
                            out.append(Hit(pygame.Rect(cx, y2, round(120 * u), round(22 * u)), ("pay", res, donor, cid)))
                            cx += round(126 * u)
        return out

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        """Blit the cached board (redrawn only when something it shows changed), then the hover card."""
        L = self.layout
        if L is None or self.g is None:
            return
        size = surface.get_size()
        if self._static is None or self._static.get_size() != size:
            self._static = self._render_static(L, size)
            self._base_key = None
        key = self._frame_key()
        if key != self._base_key or self._base is None:
            base = self._static.copy()
            hover, self.hover = self.hover, None   # hover marks are drawn on top, not cached
            try:
                self._draw_dynamic(base, L)
            finally:
                self.hover = hover
            self._base, self._base_key = base, key
        surface.blit(self._base, (0, 0))
        self._draw_hover_marks(surface, L)
        if self.dragging:
            self._draw_dragged(surface, L)
        else:
            self._draw_hover(surface, L)

    def _frame_key(self) -> tuple:
        """Everything the cached board depends on besides the static layer."""
        return (self.session.version, self._rev, self.flash > 0, self.session.error,
                self.session.connection_lost, self.viewing, self.selected_item, self.selected_shelf)

    def _render_static(self, L: BoardLayout, size: tuple[int, int]) -> pygame.Surface:
        """The parts that change only with the window size: table, panels, headings, board frame."""
        u = L.unit
        surface = pygame.Surface(size).convert() if pygame.display.get_init() and pygame.display.get_surface() \
            else pygame.Surface(size)
        surface.fill(P.WALNUT_DARK)
        self._draw_table(surface)
        for rect in (L.top_bar, L.market, L.grid, L.faith, L.log, L.actions):
            _panel(surface, rect)
        _text(surface, "Market", (L.market.x + round(14 * u), L.market.y + round(6 * u)), round(22 * u), P.INK, "caps")
        _text(surface, "Development cards", (L.grid.x + round(14 * u), L.grid.y + round(4 * u)), round(20 * u),
              P.INK, "caps")
        self._draw_board_frame(surface, L)
        return surface

    def _draw_dynamic(self, surface: pygame.Surface, L: BoardLayout) -> None:
        self._draw_top_bar(surface, L)
        self._draw_market(surface, L)
        self._draw_grid(surface, L)
        self._draw_faith(surface, L)
        self._draw_player_board(surface, L, self.me, own=True)
        if self.plan is not None:
            self._draw_plan(surface, L)
        else:
            self._draw_log(surface, L)
        if self.viewing is not None:
            self._draw_opponent_full(surface, L, self.viewing)

    def _draw_table(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.blit(art.board.wood_panel(w, h), (0, 0))

    def _draw_top_bar(self, surface: pygame.Surface, L: BoardLayout) -> None:
        u = L.unit
        r = L.top_bar
        g = self.g
        cur = g["currentPlayer"]
        if self.session.connection_lost:
            status = "Connection lost — reconnecting…"
        elif self.vm.my_turn:
            status = "Your turn" + (" — take from the market, buy a card or produce" if not g["isMandatoryActionDone"]
                                    else " — play a leader, rearrange, or end the turn")
        else:
            status = f"{cur}'s turn"
        if g["lastRound"]:
            status += " · last round"
        left = r.x + round(14 * u)
        me = self.me
        head = f"{self.vm.nickname} · {me['victoryPoints']} VP · faith {me['faithPoints']}"
        _text(surface, head, (left, r.y + round(4 * u)), round(24 * u), P.INK, "caps",
              max_width=round(r.w * 0.34 - 20 * u))
        _text(surface, status, (left, r.y + round(34 * u)), round(19 * u),
              P.OXBLOOD if self.vm.my_turn else P.SEPIA, "italic", max_width=round(r.w * 0.34 - 20 * u))
        if self.session.error:
            _text(surface, self.session.error, (L.board.x + round(12 * u), L.board.bottom - round(26 * u)),
                  round(18 * u), P.OXBLOOD, "italic", max_width=L.board.w - round(24 * u))
        others = [p for p in g["players"] if p["nickname"] != self.vm.nickname]
        for rect, p in zip(L.opponents, others):
            self._draw_opponent_chip(surface, rect, p)
        if L.token is not None:
            self._draw_lorenzo(surface, L.token, L)

    def _draw_opponent_chip(self, surface: pygame.Surface, rect: pygame.Rect, p: dict[str, Any]) -> None:
        u = self.layout.unit  # type: ignore[union-attr]
        inner = rect.inflate(-round(6 * u), -round(6 * u))
        pygame.draw.rect(surface, P.PARCHMENT_DARK, inner, border_radius=8)
        border = P.OXBLOOD if p["nickname"] == self.g["currentPlayer"] else P.GOLD
        pygame.draw.rect(surface, border, inner, width=2, border_radius=8)
        seat = [q["nickname"] for q in self.g["players"]].index(p["nickname"])
        pygame.draw.circle(surface, PLAYER_COLORS[seat % 4], (inner.x + round(14 * u), inner.y + round(16 * u)),
                           round(7 * u))
        name = p["nickname"] + ("" if p["active"] else " (away)")
        _text(surface, name, (inner.x + round(26 * u), inner.y + round(3 * u)), round(19 * u), P.INK, "regular",
              max_width=inner.w - round(34 * u))
        cards = sum(len(s) for s in p["devSlots"])
        res = sum(sum(self.vm.container(c)["content"].values())
                  for c in [*p["warehouseShelves"], p["strongbox"], *p.get("leaderDepots", [])])
        info = f"{p['victoryPoints']} VP · faith {p['faithPoints']} · {cards} cards · {res} res · {p['leadersHandCount']} leaders"
        _text(surface, info, (inner.x + round(8 * u), inner.y + round(28 * u)), round(15 * u), P.SEPIA, "regular",
              max_width=inner.w - round(14 * u))
        if self.hover == ("opponent", p["nickname"]):
            _glow(surface, inner, P.HIGHLIGHT[:3])

    def _draw_lorenzo(self, surface: pygame.Surface, rect: pygame.Rect, L: BoardLayout) -> None:
        u = L.unit
        tok = self.g.get("lastActionToken")
        tokens = {t["id"]: t for t in self.g.get("actionTokens", [])}
        _text(surface, "Lorenzo", (rect.x, rect.y + round(4 * u)), round(20 * u), P.INK, "caps")
        _text(surface, f"black cross {self.g['blackPoints']}", (rect.x, rect.y + round(30 * u)), round(16 * u),
              P.SEPIA, "italic")
        tr = self._token_rect(L)
        if tok is not None and tok in tokens and tr is not None:
            surface.blit(C.token(tokens[tok], tr.h), tr)

    def _draw_market(self, surface: pygame.Surface, L: BoardLayout) -> None:
        u = L.unit
        d, left, top, gap = self._market_geometry(L)
        grid = self.g["market"]["grid"]
        tray = pygame.Rect(left - gap * 2, top - gap * 2, len(grid[0]) * (d + gap) + gap * 3,
                           len(grid) * (d + gap) + gap * 3)
        pygame.draw.rect(surface, P.WALNUT, tray, border_radius=round(10 * u))
        pygame.draw.rect(surface, P.GOLD, tray, width=2, border_radius=round(10 * u))
        active_line = None
        if isinstance(self.plan, MarketPlan):
            active_line = (self.plan.is_row, self.plan.index)
        elif self.hover and self.hover[0] == "line" and self._can_act() and not self.g["isMandatoryActionDone"]:
            active_line = (self.hover[1], self.hover[2])
        changed = any(c.kind == "market" for c in self.vm.last_changes) and self.flash > 0
        for ri, row in enumerate(grid):
            for ci, kind in enumerate(row):
                rect = pygame.Rect(left + ci * (d + gap), top + ri * (d + gap), d, d)
                surface.blit(M.marble(kind, d), rect)
                if active_line and ((active_line[0] and active_line[1] == ri) or (not active_line[0] and active_line[1] == ci)):
                    _glow(surface, rect.inflate(2, 2), P.HIGHLIGHT[:3], radius=d // 2)
        # slide marble above the top-right corner
        slide = pygame.Rect(left + len(grid[0]) * (d + gap), top - d - gap * 3, d, d)
        surface.blit(M.marble(self.g["market"]["slide"], d), slide)
        _text(surface, "slide", (slide.centerx, slide.y - round(2 * u)), round(14 * u), P.SEPIA, "italic",
              anchor="midbottom")
        can = self._can_act() and not self.g["isMandatoryActionDone"] and self.plan is None
        for hit in self.hits:
            if hit.target[0] != "line":
                continue
            is_row = hit.target[1]
            img = I.arrow("left" if is_row else "up", min(hit.rect.w, hit.rect.h))
            r = img.get_rect(center=hit.rect.center)
            surface.blit(img, r)
            if not can:
                _veil(surface, r, 90, radius=r.w // 2)
            elif self.hover == hit.target:
                _glow(surface, r, P.HIGHLIGHT[:3], radius=r.w // 2)
        if changed:
            _glow(surface, tray, P.GOLD_LIGHT[:3])
    def _buyable(self) -> set[tuple[str, int]]:
        """(colour, level) of the cards this player can buy now; computed once per state."""
        if getattr(self, "_buyable_key", None) != self.session.version:
            sh = self.session.shadow()
            self._buyable_set = {(o.card.color, o.card.level) for o in affordable_cards(sh, sh.player(self.vm.nickname))}
            self._buyable_key = self.session.version
        return self._buyable_set

    def _draw_hover_marks(self, surface: pygame.Surface, L: BoardLayout) -> None:
        """Glows and hints for what the mouse is over (drawn every frame over the cached board)."""
        t = self.hover
        if t is None or self.viewing is not None:
            return
        rect = next((h.rect for h in self.hits if h.target == t), None)
        if rect is None:
            return
        kind = t[0]
        can_main = self._can_act() and not self.g["isMandatoryActionDone"] and self.plan is None
        if kind == "line" and can_main:
            for h in self.hits:
                if h.target[0] == "marble" and ((t[1] and h.target[1] == t[2]) or (not t[1] and h.target[2] == t[2])):
                    _glow(surface, h.rect.inflate(2, 2), P.HIGHLIGHT[:3], radius=h.rect.w // 2)
            _glow(surface, rect, P.HIGHLIGHT[:3], radius=rect.w // 2)
            self._market_tip(surface, L, t)
        elif kind == "card" and can_main and (t[1], t[2]) in self._buyable():
            _glow(surface, rect, P.HIGHLIGHT[:3])
        elif kind in ("opponent", "shelf", "depot", "leader") and (kind == "opponent" or self._can_act()):
            _glow(surface, rect, P.GOLD_LIGHT[:3], width=2)

    def _market_tip(self, surface: pygame.Surface, L: BoardLayout, t: Target) -> None:
        u = L.unit
        sh = self.session.shadow()
        line = next(l for l in market_lines(sh, sh.player(self.vm.nickname)) if l.is_row == t[1] and l.index == t[2])
        gives = dict(line.resources)
        if line.faith:
            gives["Faith"] = line.faith
        tip = "Gives " + (", ".join(f"{n} {r}" for r, n in sorted(gives.items())) or "nothing")
        if line.whites and not line.white_options:
            tip += f" ({line.whites} white: nothing)"
        elif len(line.white_options) > 1:
            tip += f" + {line.whites} white to choose"
        img = F.render(tip, F.fit(tip, L.market.w - round(30 * u), round(17 * u), "italic"), P.PARCHMENT, "italic")
        r = img.get_rect(midbottom=(L.market.centerx, L.market.bottom - round(6 * u)))
        pygame.draw.rect(surface, P.INK, r.inflate(14, 6), border_radius=6)
        surface.blit(img, r)

    def _draw_grid(self, surface: pygame.Surface, L: BoardLayout) -> None:
        u = L.unit
        prods = self._productions()
        can = self._can_act() and not self.g["isMandatoryActionDone"] and self.plan is None
        buyable = self._buyable() if can else set()
        top = self.g["devCardGrid"]["topCards"]
        left_counts = self.g["devCardGrid"].get("cardsLeft", {})
        grid_changed = any(c.kind == "grid" for c in self.vm.last_changes) and self.flash > 0
        for hit in self.hits:
            if hit.target[0] != "card":
                continue
            _, color, level = hit.target
            cid = top[color][level] if level < len(top[color]) else None
            if cid is None:
                pygame.draw.rect(surface, P.PARCHMENT_DARK, hit.rect, border_radius=8)
                pygame.draw.rect(surface, P.SEPIA, hit.rect, width=1, border_radius=8)
                _text(surface, "empty", hit.rect.center, round(16 * u), P.SEPIA, "italic", anchor="center")
                continue
            surface.blit(C.dev_card(self._card(cid), prods, hit.rect.h), hit.rect)
            n = left_counts.get(color, [0, 0, 0, 0])[level] if left_counts else None
            if n:
                badge = pygame.Rect(0, 0, round(26 * u), round(20 * u))
                badge.bottomright = (hit.rect.right - round(3 * u), hit.rect.bottom - round(3 * u))
                pygame.draw.rect(surface, P.INK, badge, border_radius=6)
                _text(surface, f"×{n}", badge.center, round(14 * u), P.PARCHMENT, "regular", anchor="center")
            if can and (color, level) not in buyable:
                _veil(surface, hit.rect, 80)
            elif (color, level) in buyable and self.hover == hit.target:
                _glow(surface, hit.rect, P.HIGHLIGHT[:3])
            elif (color, level) in buyable:
                _glow(surface, hit.rect, P.GOLD_LIGHT[:3], width=2)
            if isinstance(self.plan, BuyPlan) and self.plan.card.id == cid:
                _glow(surface, hit.rect, P.OXBLOOD[:3], width=4)
        if grid_changed:
            _glow(surface, L.grid, P.GOLD_LIGHT[:3])

    def _draw_faith(self, surface: pygame.Surface, L: BoardLayout) -> None:
        u = L.unit
        r = L.faith
        ft = self.g["faithTrack"]
        last = ft["maxFaith"]
        inner = r.inflate(-round(20 * u), -round(20 * u))
        sw = inner.w // (last + 1)
        sh_ = min(round(sw * 1.25), inner.h - round(40 * u))
        top = inner.y + round(6 * u)
        sections = sorted(ft["vaticanSections"].values(), key=lambda s: s["faithPointsEnd"])
        vps = {t["faithPoints"]: t["victoryPoints"] for t in ft["yellowTiles"]}
        for n in range(last + 1):
            in_sec = any(s["faithPointsBeginning"] <= n <= s["faithPointsEnd"] for s in sections)
            pope = any(s["faithPointsEnd"] == n for s in sections)
            img = art.board.faith_space(n, sw - 2, sh_, pope=pope, section=in_sec, vp=vps.get(n))
            surface.blit(img, (inner.x + n * sw, top))
        # markers
        players = self.g["players"]
        marker = max(6, sw // 3)
        for seat, p in enumerate(players):
            x = inner.x + p["faithPoints"] * sw + sw // 2
            y = top + sh_ - marker - 2 - (seat % 2) * (marker // 2) - (seat // 2) * marker
            pygame.draw.circle(surface, (20, 12, 6), (x + 1, y + 2), marker // 2 + 2)
            pygame.draw.circle(surface, PLAYER_COLORS[seat % 4], (x, y), marker // 2 + 1)
            pygame.draw.circle(surface, P.GOLD_LIGHT, (x, y), marker // 2 + 1, width=2)
        if len(players) == 1:
            img = I.black_cross(marker + 6)
            x = inner.x + self.g["blackPoints"] * sw + sw // 2
            surface.blit(img, img.get_rect(center=(x, top + marker)))
        # favor tiles under their sections
        tiles = self.me.get("favorTiles", ["DOWN"] * len(sections))
        for i, rect in enumerate(self._favor_rects(L)):
            state = tiles[i] if i < len(tiles) else "DOWN"
            surface.blit(C.favor_tile(sections[i]["victoryPoints"], state, rect.h), rect)

    def _favor_rects(self, L: BoardLayout) -> list[pygame.Rect]:
        """Where the favor tiles sit: under the middle of their Vatican sections."""
        u = L.unit
        ft = self.g["faithTrack"]
        inner = L.faith.inflate(-round(20 * u), -round(20 * u))
        sw = inner.w // (ft["maxFaith"] + 1)
        sh_ = min(round(sw * 1.25), inner.h - round(40 * u))
        top = inner.y + round(6 * u)
        tsize = min(round(36 * u), inner.bottom - (top + sh_) - round(2 * u))
        out = []
        for sec in sorted(ft["vaticanSections"].values(), key=lambda s: s["faithPointsEnd"]):
            cx = inner.x + ((sec["faithPointsBeginning"] + sec["faithPointsEnd"]) / 2) * sw + sw // 2
            r = pygame.Rect(0, 0, tsize, tsize)
            r.midtop = (int(cx), top + sh_ + round(2 * u))
            out.append(r)
        return out

    def _token_rect(self, L: BoardLayout) -> pygame.Rect | None:
        if L.token is None:
            return None
        size = L.token.h - round(6 * L.unit)
        r = pygame.Rect(0, 0, size, size)
        r.midright = (L.token.right - round(4 * L.unit), L.token.centery)
        return r

    def _draw_board_frame(self, surface: pygame.Surface, L: BoardLayout) -> None:
        u = L.unit
        surface.blit(art.board.wood_panel(L.board.w, L.board.h), L.board)
        inner = L.board.inflate(-round(10 * u), -round(10 * u))
        surface.blit(art.board.parchment(inner.w, inner.h), inner)
        pygame.draw.rect(surface, P.GOLD, inner, width=2, border_radius=4)
        _text(surface, "Warehouse", (L.warehouse.x, L.warehouse.y), round(18 * u), P.SEPIA, "caps")

    def _draw_player_board(self, surface: pygame.Surface, L: BoardLayout, p: dict[str, Any], own: bool) -> None:
        u = L.unit
        if not own:
            self._draw_board_frame(surface, L)
        changed = {c.key for c in self.vm.last_changes if c.kind == "container"} if self.flash > 0 else set()
        plan = self.plan if own else None
        pending: dict[int, dict[str, int]] = plan.placement() if isinstance(plan, MarketPlan) else {}
        targets: set[int] = set()
        if isinstance(plan, MarketPlan) and self.selected_item is not None:
            targets = set(plan.targets_for(self.selected_item))
        paying: dict[int, dict[str, int]] = {}
        if isinstance(plan, BuyPlan):
            paying = plan.payment.taken
        elif isinstance(plan, ProductionPlan) and plan.selected:
            paying = plan.get_payment().taken
        for cid, rect in {**self._shelf_rects(L, p), **self._depot_rects(L, p)}.items():
            c = self.vm.container(cid)
            cap = c["size"]
            img = art.board.shelf(cap, rect.w, rect.h)
            surface.blit(img, rect)
            cell = rect.h - round(10 * u)
            items: list[tuple[str, str]] = []
            for res, n in c["content"].items():
                items += [(res, "held")] * n
            for res, n in pending.get(cid, {}).items():
                items += [(res, "new")] * n
            for res, n in paying.get(cid, {}).items():
                for k in range(len(items)):
                    if items[k] == (res, "held") and n > 0:
                        items[k] = (res, "paid")
                        n -= 1
            step = (rect.w - round(6 * u)) / max(1, cap)
            for k, (res, state) in enumerate(items[:cap]):
                icon = I.resource_icon(res, cell)
                ir = icon.get_rect(center=(int(rect.x + round(3 * u) + step * (k + 0.5)), rect.centery))
                surface.blit(icon, ir)
                if state == "new":
                    _glow(surface, ir, P.HIGHLIGHT[:3], width=2, radius=cell // 2)
                elif state == "paid":
                    _veil(surface, ir, 150, radius=cell // 2)
            if c.get("boundedResType") and cid in p.get("leaderDepots", []) and not c["content"]:
                ghost = I.resource_icon(c["boundedResType"], cell).copy()
                ghost.set_alpha(70)
                surface.blit(ghost, ghost.get_rect(center=rect.center))
            if cid in targets:
                _glow(surface, rect, P.HIGHLIGHT[:3])
            elif self.selected_shelf == cid:
                _glow(surface, rect, P.OXBLOOD[:3])
            elif cid in changed:
                _glow(surface, rect, P.GOLD_LIGHT[:3], width=2)
            elif own and self.hover == ("shelf", cid) and self._can_act() and plan is None:
                _glow(surface, rect, P.GOLD_LIGHT[:3], width=2)
        # strongbox
        sb = L.strongbox
        pygame.draw.rect(surface, P.OAK, sb, border_radius=8)
        pygame.draw.rect(surface, P.WALNUT_DARK, sb, width=2, border_radius=8)
        _text(surface, "Strongbox", (sb.x + round(8 * u), sb.y + round(3 * u)), round(16 * u), P.PARCHMENT, "caps")
        box = self.vm.container(p["strongbox"])["content"]
        isz = min(round(30 * u), sb.h - round(30 * u))
        bx = sb.x + round(8 * u)
        for res in RESOURCES:
            n = box.get(res, 0)
            icon = I.resource_icon(res, isz)
            surface.blit(icon, (bx, sb.bottom - isz - round(6 * u)))
            _text(surface, f"{n}", (bx + isz + round(3 * u), sb.bottom - isz - round(4 * u)), round(20 * u),
                  P.PARCHMENT if n else P.PARCHMENT_DARK)
            taken = paying.get(p["strongbox"], {}).get(res, 0)
            if taken:
                _text(surface, f"−{taken}", (bx + isz + round(3 * u), sb.bottom - isz - round(22 * u)),
                      round(15 * u), P.GOLD_LIGHT)
            bx += (sb.w - round(16 * u)) // 4
        if p["strongbox"] in changed:
            _glow(surface, sb, P.GOLD_LIGHT[:3], width=2)
        # base production: "? ? → ?" in a framed strip above the strongbox
        bp = L.base_production
        pygame.draw.rect(surface, P.PARCHMENT_DARK, bp, border_radius=8)
        pygame.draw.rect(surface, P.GOLD, bp, width=2, border_radius=8)
        _text(surface, "Base", (bp.x + round(8 * u), bp.centery), round(16 * u), P.SEPIA, "caps", anchor="midleft")
        label_w = round(58 * u)
        gap = round(4 * u)
        q = max(8, min(bp.h - round(12 * u), (bp.w - label_w - round(10 * u) - 3 * gap) // 4))
        any_icon = I.resource_icon("Any", q)
        x = bp.x + label_w
        for img in (any_icon, any_icon, I.arrow("right", q), any_icon):
            surface.blit(img, img.get_rect(midleft=(x, bp.centery)))
            x += q + gap
        self._production_marks(surface, bp, p["baseProduction"], own)
        # slots
        prods = self._productions()
        for i, rect in enumerate(L.slots):
            pygame.draw.rect(surface, (*P.PARCHMENT_DARK[:3],), rect, border_radius=8)
            pygame.draw.rect(surface, P.SEPIA, rect, width=1, border_radius=8)
            slot = p["devSlots"][i]
            level = self._card(slot[-1])["level"] if slot else 0
            hint = f"takes level {level + 1}" if level < 3 else "full"
            free = (self._slot_card_rect(L, i, 0, len(slot)).top if slot else rect.bottom) - rect.top
            if free >= round(48 * u):   # the room above the cards says what the slot takes next
                mid = rect.top + free // 2 if slot else rect.centery
                _text(surface, f"Slot {i + 1}", (rect.centerx, mid - round(10 * u)), round(18 * u), P.SEPIA,
                      "italic", anchor="center")
                _text(surface, hint, (rect.centerx, mid + round(12 * u)), round(14 * u), P.SEPIA, "italic",
                      anchor="center")
            for k, cid in enumerate(slot):
                cr = self._slot_card_rect(L, i, k, len(slot))
                surface.blit(C.dev_card(self._card(cid), prods, cr.h), cr)
            if slot:
                top_rect = self._slot_card_rect(L, i, len(slot) - 1, len(slot))
                self._production_marks(surface, top_rect, self._card(slot[-1])["production"], own)
            if isinstance(plan, BuyPlan) and i in plan.slots:
                _glow(surface, rect, P.OXBLOOD[:3] if plan.slot == i else P.HIGHLIGHT[:3], width=3 if plan.slot == i else 2)
            if any(c.kind == "slot" and c.key == (p["nickname"], i) for c in self.vm.last_changes) and self.flash > 0:
                _glow(surface, rect, P.GOLD_LIGHT[:3], width=2)
        # leaders
        for lid, rect in self._leader_rects(L, p).items():
            ld = self._leaders_by_id[lid]
            img = C.leader_card(ld, prods, rect.h, dimmed=not ld["active"] and not own)
            surface.blit(img, rect)
            if ld["active"]:
                _glow(surface, rect, P.GOLD_LIGHT[:3], width=2)
                if ld["leaderType"] == "PRODUCTION":
                    self._production_marks(surface, rect, ld["production"], own)
            else:
                _text(surface, "in hand", (rect.centerx, rect.y - round(2 * u)), round(14 * u), P.SEPIA, "italic",
                      anchor="midbottom")
        if p["leadersHandCount"] > len(p["leadersHand"]) and not own:
            _text(surface, f"+{p['leadersHandCount'] - len(p['leadersHand'])} hidden",
                  (L.leaders.centerx, L.leaders.bottom), round(15 * u), P.SEPIA, "italic", anchor="midbottom")

    def _production_marks(self, surface: pygame.Surface, rect: pygame.Rect, pid: int, own: bool) -> None:
        plan = self.plan
        if not own or not isinstance(plan, ProductionPlan):
            return
        if pid in plan.selected:
            _glow(surface, rect, P.OXBLOOD[:3], width=4)
        elif pid in plan.available:
            _glow(surface, rect, P.HIGHLIGHT[:3], width=2)

    def _draw_log(self, surface: pygame.Surface, L: BoardLayout) -> None:
        u = L.unit
        r = L.log
        size = round(16 * u)
        line_h = round(size * 1.25)
        foot = round(42 * u) if self.chat_entry is not None else 0   # room for the chat line
        lines = self.session.log[-max(1, (r.h - round(12 * u) - foot) // line_h):]
        y = r.bottom - round(8 * u) - foot - line_h * len(lines)
        for k, line in enumerate(lines):
            x = r.x + round(10 * u)
            if isinstance(line, ChatLine):   # what a player said: their name, then their words
                name = _text(surface, line.speaker + ":", (x, y), size, P.OXBLOOD, "regular")
                _text(surface, line[len(line.speaker) + 1:].strip(), (name.right + round(6 * u), y), size, P.SEPIA,
                      "regular", max_width=r.right - round(10 * u) - name.right - round(6 * u))
                y += line_h
                continue
            last = k == len(lines) - 1
            _text(surface, line, (x, y), size, P.OXBLOOD if last and self.flash > 0 else P.INK,
                  "regular" if last else "italic", max_width=r.w - round(20 * u))
            y += line_h
        if not lines:
            _text(surface, "The game begins.", (r.x + round(10 * u), r.y + round(8 * u)), size, P.SEPIA, "italic")


    def _draw_plan(self, surface: pygame.Surface, L: BoardLayout) -> None:
        u = L.unit
        r = L.log
        _panel(surface, r, fill=P.PARCHMENT, border=P.OXBLOOD)
        plan = self.plan
        x = r.x + round(12 * u)
        if isinstance(plan, MarketPlan):
            where = f"{'row' if plan.is_row else 'column'} {plan.index + 1}"
            head = f"Taking {where}" + (f" (+{plan.faith} faith)" if plan.faith else "")
            head += " — click a resource, then a glowing shelf" if plan.items else " — nothing to store"
            _text(surface, head, (x, r.y + round(8 * u)), round(18 * u), P.INK, "italic", max_width=r.w - round(24 * u))
            for hit in self.hits:
                t = hit.target
                if t[0] == "item":
                    res = plan.items[t[1]]
                    surface.blit(I.resource_icon(res, hit.rect.h), hit.rect)
                    if plan.target[t[1]] is None:
                        _veil(surface, hit.rect, 120, radius=hit.rect.w // 2)
                        _text(surface, "✕", hit.rect.center, round(16 * u), P.OXBLOOD, anchor="center")
                    if self.selected_item == t[1]:
                        _glow(surface, hit.rect, P.OXBLOOD[:3], radius=hit.rect.w // 2)
                elif t[0] in ("discard", "suggest"):
                    pygame.draw.rect(surface, P.PARCHMENT_DARK, hit.rect, border_radius=6)
                    pygame.draw.rect(surface, P.SEPIA, hit.rect, width=1, border_radius=6)
                    _text(surface, "Discard it" if t[0] == "discard" else "Suggest", hit.rect.center, round(16 * u),
                          P.INK, anchor="center")
                elif t[0] == "white":
                    surface.blit(M.marble("Zero", hit.rect.h), hit.rect)
                    icon = I.resource_icon(plan.white_choice[t[1]], hit.rect.h // 2)
                    surface.blit(icon, icon.get_rect(center=hit.rect.center))
            warn = plan.discard_warning()
            if warn:
                _text(surface, warn, (x, r.bottom - round(26 * u)), round(16 * u), P.OXBLOOD, "italic",
                      max_width=r.w - round(24 * u))
        elif isinstance(plan, BuyPlan):
            c = plan.card
            cost = ", ".join(f"{n} {res}" for res, n in sorted(plan.cost.items())) or "free"
            _text(surface, f"Buying a level {c.level} {c.color} card for {cost}"
                  + (" — choose a glowing slot" if len(plan.slots) > 1 else ""),
                  (x, r.y + round(8 * u)), round(18 * u), P.INK, "italic", max_width=r.w - round(24 * u))
            problem = plan.problem()
            if problem:
                _text(surface, problem, (x, r.y + round(36 * u)), round(17 * u), P.OXBLOOD, "italic", max_width=r.w - round(24 * u))
            else:
                self._draw_payment_hits(surface, plan.payment, r.y + round(34 * u), u)
        elif isinstance(plan, ProductionPlan):
            ins = ", ".join(f"{n} {res}" for res, n in sorted(plan.total_input().items())) or "—"
            outs = ", ".join(f"{n} {res}" for res, n in sorted(plan.total_output().items())) or "—"
            blanks = any(plan.input_blanks.get(p) or plan.output_blanks.get(p) for p in plan.selected)
            head = ("Click the productions to run (base, top cards, leaders)" if not plan.selected
                    else f"Pay {ins}  →  get {outs}" + ("  (click a resource below to change a free choice)"
                                                         if blanks else ""))
            _text(surface, head, (x, r.y + round(8 * u)), round(18 * u), P.INK, "italic", max_width=r.w - round(24 * u))
            for hit in self.hits:
                t = hit.target
                if t[0] == "blank":
                    _, pid, side, i = t
                    res = (plan.input_blanks if side == "in" else plan.output_blanks)[pid][i]
                    surface.blit(I.resource_icon(res, hit.rect.h), hit.rect)
                    _text(surface, "in" if side == "in" else "out", (hit.rect.right, hit.rect.bottom),
                          round(12 * u), P.SEPIA, "italic", anchor="bottomleft")
            problem = plan.problem()
            if problem and plan.selected:
                _text(surface, problem, (x, r.bottom - round(26 * u)), round(16 * u), P.OXBLOOD, "italic",
                      max_width=r.w - round(24 * u))
            elif plan.selected:
                self._draw_payment_hits(surface, plan.get_payment(), r.y + round(64 * u), u)

    def _draw_payment_hits(self, surface: pygame.Surface, pay: Any, y: int, u: float) -> None:
        names = {}
        me = self.me
        for i, cid in enumerate(me["warehouseShelves"]):
            names[cid] = f"shelf {i + 1}"
        names[me["strongbox"]] = "strongbox"
        for cid in me.get("leaderDepots", []):
            names[cid] = "leader depot"
        parts = []
        for cid, m in pay.taken.items():
            parts.append(f"{', '.join(f'{n} {r}' for r, n in m.items())} from the {names.get(cid, cid)}")
        _text(surface, "Paying " + ("; ".join(parts) or "nothing"), (self.layout.log.x + round(12 * u), y),
              round(16 * u), P.SEPIA, "italic", max_width=self.layout.log.w - round(24 * u))
        for hit in self.hits:
            if hit.target[0] == "pay":
                _, res, src, dst = hit.target
                pygame.draw.rect(surface, P.PARCHMENT_DARK, hit.rect, border_radius=6)
                pygame.draw.rect(surface, P.SEPIA, hit.rect, width=1, border_radius=6)
                _text(surface, f"{res} from {names.get(dst, dst)}", hit.rect.center, round(13 * u), P.INK,
                      anchor="center", max_width=hit.rect.w - 6)

    def _draw_opponent_full(self, surface: pygame.Surface, L: BoardLayout, nick: str) -> None:
        u = L.unit
        veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        veil.fill((20, 12, 6, 150))
        surface.blit(veil, (0, 0))
        p = self.vm.player(nick)
        big = board_layout(self.app.size, len(self.g["players"]), False)
        self._draw_player_board(surface, big, p, own=False)
        _panel(surface, pygame.Rect(big.board.x, big.board.y - round(40 * u), round(420 * u), round(36 * u)))
        _text(surface, f"{nick}'s board — {p['victoryPoints']} VP, faith {p['faithPoints']} (click to close)",
              (big.board.x + round(10 * u), big.board.y - round(36 * u)), round(18 * u), P.INK, "italic",
              max_width=round(400 * u))

    def _draw_dragged(self, surface: pygame.Surface, L: BoardLayout) -> None:
        """The shelf the player drags: the shelf it would swap with glows, and what the dragged one
        holds follows the pointer, lifted off the board by a shadow."""
        if self.drag_from is None:
            return
        source = next((h.rect for h in self.hits if h.target[0] in ("shelf", "depot")
                       and h.target[1] == self.drag_from), None)
        if source is not None:
            _veil(surface, source, 120, radius=8)   # its content is "in the hand"
        t = self.hover
        if t is not None and t[0] in ("shelf", "depot") and t[1] != self.drag_from:
            rect = next((h.rect for h in self.hits if h.target == t), None)
            if rect is not None:
                _glow(surface, rect, P.HIGHLIGHT[:3], width=4)
        content = [r for r, n in sorted(self.vm.container(self.drag_from)["content"].items()) for _ in range(n)]
        cell = round(40 * L.unit)
        mx, my = self.mouse
        if not content:
            pygame.draw.circle(surface, P.OXBLOOD, (mx, my), cell // 3, width=3)
            return
        lift = max(2, round(4 * L.unit))
        for i, res in enumerate(content):
            center = (round(mx + (i - (len(content) - 1) / 2) * cell * 0.85), my)
            shadow = pygame.Surface((cell, cell), pygame.SRCALPHA)
            pygame.draw.circle(shadow, (0, 0, 0, 90), (cell // 2, cell // 2), cell // 2 - 1)
            surface.blit(shadow, shadow.get_rect(center=(center[0] + lift, center[1] + lift)))
            icon = I.resource_icon(res, cell)
            surface.blit(icon, icon.get_rect(center=center))

    def _draw_hover(self, surface: pygame.Surface, L: BoardLayout) -> None:
        t = self.hover
        if t is None or self.viewing is not None:
            return
        img = None
        text = None
        prods = self._productions()
        big = round(300 * L.unit)
        if t[0] == "card":
            cid = self.g["devCardGrid"]["topCards"][t[1]][t[2]]
            if cid is not None:
                img = C.dev_card(self._card(cid), prods, big)
                if isinstance(self.plan, BuyPlan) or not self._can_act():
                    pass
                else:
                    sh = self.session.shadow()
                    card = sh.top_card(t[1], t[2])
                    if card is not None:
                        text = BuyPlan.start(sh, sh.player(self.vm.nickname), card).problem() or "Click to buy"
        elif t[0] == "leader":
            ld = self._leaders_by_id[t[1]]
            img = C.leader_card(ld, prods, big)
            from .narration import leader_ability
            text = leader_ability(ld)
        elif t[0] == "production" and t[1] in {c["production"] for c in self.g["developmentCards"]}:
            card = next(c for c in self.g["developmentCards"] if c["production"] == t[1])
            img = C.dev_card(card, prods, big)
        elif t[0] == "favor":
            sec = sorted(self.g["faithTrack"]["vaticanSections"].values(), key=lambda s: s["faithPointsEnd"])[t[1]]
            state = self.me.get("favorTiles", ["DOWN"] * 3)[t[1]]
            img = C.favor_tile(sec["victoryPoints"], state, round(110 * L.unit))
            text = {"UP": f"Yours: {sec['victoryPoints']} VP",
                    "REMOVED": "Lost: you were before space {0} when the report came".format(sec["faithPointsBeginning"]),
                    }.get(state, f"Vatican report {t[1] + 1}: {sec['victoryPoints']} VP if you are on space "
                                 f"{sec['faithPointsBeginning']} or beyond when a marker reaches {sec['faithPointsEnd']}")
        elif t[0] == "token":
            tokens = {k["id"]: k for k in self.g.get("actionTokens", [])}
            tok = tokens.get(self.g.get("lastActionToken"))
            if tok is not None:
                img = C.token(tok, round(120 * L.unit))
                from .narration import TOKEN_WORDS
                text = "Lorenzo " + TOKEN_WORDS.get(tok["kind"], "played a token").format(
                    color=tok.get("discardedDevCardColor", ""))
        elif t[0] == "marble":
            kind = self.g["market"]["grid"][t[1]][t[2]]
            img = M.marble(kind, round(90 * L.unit))
            text = {"Zero": "White marble: nothing, unless a white-marble leader is active",
                    "Faith": "Red marble: 1 faith at once"}.get(kind, f"{kind}")
        if img is None:
            return
        mx, my = self.mouse
        r = img.get_rect()
        r.topleft = (mx + 18, my - r.h // 2)
        if r.right > surface.get_width() - 8:
            r.right = mx - 18
        r.clamp_ip(surface.get_rect())
        surface.blit(img, r)
        if text:
            size = round(17 * L.unit)
            tip = F.render(text, size, P.PARCHMENT, "italic")
            tr = tip.get_rect(midtop=(r.centerx, r.bottom + 4))
            tr.clamp_ip(surface.get_rect().inflate(-20, -12))
            bg = tr.inflate(16, 8)
            pygame.draw.rect(surface, P.INK, bg, border_radius=6)
            surface.blit(tip, tr)
