"""The board: the whole game on one screen, every action with the mouse.

The board itself (panels, drawing, the mouse on it) is :class:`~game.scenes.board_base.BoardBase`;
this scene plays on it: it follows the session, keeps the action bar's buttons (Confirm and
Back, Produce and End turn, Undo, Hint, Rules, Leave) and the keys (Enter confirms and answers
yes to a warning, Esc or Back drops a plan: nothing is sent until Confirm), asks the hard bot
for a hint, and shows the game's end until the player asks for the scores.
"""
from __future__ import annotations

from typing import Any

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.client.hint import Hinter
from game.client.plans import MarketPlan
from game.client.session import GameSession
from game.i18n import _
from game.client.watch_words import HIDE_ON, HIDE_WATCHERS, SHOW_WATCHERS, WATCHERS_TIP, watchers_words

from .board_base import DRAG_DISTANCE, BoardBase, Hit
from .panels.actions import ActionBar
from .panels.faith import FaithPanel, VaticanMoment
from .router import follow, leave_game, ring_on_turns, scene_for

OVER_GUARD = 1.0
"""Seconds after the game ends on the board during which Enter does not leave it for the scores."""

__all__ = ["BoardScene", "Hit", "DRAG_DISTANCE"]


class BoardScene(BoardBase):
    """The game board for one player (solo or multiplayer)."""

    def __init__(self, app: Any, session: GameSession, final: bool = False) -> None:
        super().__init__(app, session)
        ring_on_turns(self, session)
        self.final = final                           # the finished game, looked at from the scores
        self.confirm_dialog: Any = None
        self._reported: set | None = None            # sections whose report was seen
        self.hinter: Hinter | None = None            # the hard bot, asked on the Hint button
        self._played = False                         # the game was in play under this board
        self._held: set[int] = set()                 # keys down when it ended (released before they count)
        self.watchers_switch: Any = None             # hides or shows the watchers' chat (a server's table)
        self._watchers_shown: tuple | None = None    # what the switch says now

    def build(self) -> None:
        super().build()
        self.watchers_switch = None
        if self.chat_entry is not None and self.session.remote:   # the watchers' chat: shown or hidden
            u = self.layout.unit
            line = self.log.chat_rect()
            sw = round(150 * u)
            self.chat_entry.kill()              # made again, narrower: the switch goes beside it
            self.chat_entry = self.log.build_chat(self.ui, leave=sw + round(6 * u))
            self.watchers_switch = pygame_gui.elements.UIButton(
                pygame.Rect(line.right - sw, line.y, sw, line.h), "", self.ui,
                object_id=ObjectID(class_id="@quiet"))
            self._watchers_shown = None
            self._refresh_watchers()
        if self.final and self.buttons:
            self.buttons["leave"].set_text(_("Scores"))
            self.buttons["leave"].set_tooltip(_("Back to the final scores (Esc)"))

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
        self._refresh_watchers()

    def _refresh_watchers(self) -> None:
        """The switch of the watchers' chat: shown while someone watches (or it is hidden), its
        words what a press does."""
        switch = self.watchers_switch
        if switch is None:
            return
        w = self.session.watchers
        shown = (w.count, w.hidden, self.plan is not None)
        if shown == self._watchers_shown:
            return
        self._watchers_shown = shown
        if (w.count or w.hidden) and self.plan is None:
            switch.set_text(_(SHOW_WATCHERS if w.hidden else HIDE_WATCHERS).format(w.count))
            switch.set_tooltip(watchers_words(w.count) + " " + _(HIDE_ON if w.hidden else WATCHERS_TIP))
            switch.show()
        else:
            switch.hide()
        if self.chat_entry is not None:   # the chat line takes the switch's room while it is hidden
            line = self.log.chat_rect(leave=switch.rect.w + round(6 * self.layout.unit) if switch.visible else 0)
            self.chat_entry.set_dimensions(line.size)

    # ------------------------------------------------------------------ per frame
    def update(self, dt: float) -> None:
        before = self.session.version
        if follow(self, self.session, self._stays):
            return   # another screen took its place, or the connection's overlay covers it
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
                self.input.turn_over()
        if self.session.stage() == "ended" and not self.final:
            self._over(dt)   # the last moves stay in view until the player asks for the scores
        if self.layout is not None:   # a view scrolled back stays on the lines it shows
            rows = len(self.log.rows(self.context()))
            if self.log_scroll and rows > self._log_rows:
                self.log_scroll += rows - self._log_rows
                self.log_unseen += rows - self._log_rows       # said below, until read
            elif not self.log_scroll:
                self.log_unseen = 0          # back at the newest line: the log follows again
            self._log_rows = rows
            self.action_bar.place_tooltips(self.ui, self.keep_readable())
        self._refresh_buttons()
        under = self._greyed_under(pygame.mouse.get_pos())
        self._grey = (under, self._grey[1] + dt if under is not None and under is self._grey[0] else 0.0)

    # ------------------------------------------------------------------ input
    def handle_event(self, event: pygame.event.Event) -> None:
        """The board's own keys (Enter confirms, Ctrl+Z undoes, H asks for a hint, Esc leaves a
        finished game), then the board's mouse and keys (:meth:`BoardBase.handle_event`)."""
        if self.over_for is not None and event.type in (pygame.KEYDOWN, pygame.KEYUP) \
                and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self._rev += event.type == pygame.KEYDOWN
            if event.type == pygame.KEYUP:
                self._held.discard(event.key)
            elif self.over_for < OVER_GUARD or event.key in self._held:
                self._held.add(event.key)   # an Enter from the turn's end, or a double press: not yet
            else:
                self._to_scores()
            return
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self._rev += 1
                self._enter()
                return
            if event.key == pygame.K_z and event.mod & pygame.KMOD_CTRL:
                self._rev += 1
                self._undo()
                return
            if event.key == pygame.K_ESCAPE and self.final and not self.viewing:
                self.app.stack.pop()
                return
            if (event.key == pygame.K_h and self.plan is None
                    and (self.chat_entry is None or not self.chat_entry.is_focused)):
                self._rev += 1
                self.viewing = None   # the hint's plan is built on the player's own board: in view
                self._hint()
                return
        super().handle_event(event)

    def exit(self) -> None:
        if self.hinter is not None:
            self.hinter.close()
            self.hinter = None
        super().exit()

    def on_ui(self, event: pygame.event.Event) -> None:
        self._rev += 1
        if event.type == pygame_gui.UI_BUTTON_PRESSED and self.viewing is not None:
            self.viewing = None   # "click anywhere to close": on a button too, which does nothing else
            return
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            el = event.ui_element
            if el is self.buttons.get("scores"):
                self._to_scores()
            elif el is self.buttons.get("confirm"):
                self._confirm()
            elif el is self.buttons.get("back"):
                self._cancel()
            elif el is self.buttons.get("produce"):
                self.input.start_production()
            elif el is self.buttons.get("end"):
                self._end_turn()
            elif el is self.buttons.get("rules"):
                self._rules()
            elif el is self.watchers_switch and el is not None:
                self.session.hide_watchers(not self.session.watchers.hidden)
            elif el is self.buttons.get("undo"):
                self._undo()
            elif el is self.buttons.get("leave") and self.final:
                self.app.stack.pop()
            elif el is self.buttons.get("hint"):
                self._hint()
            elif el is self.buttons.get("leave"):
                leave_game(self.app, self.session)
            elif el in self._leader_buttons:
                self._leader_button(el)
        elif event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.chat_entry:
            # sent: the line is emptied and the keys go back to the board (H, Enter), as the
            # entry's placeholder says; a click on it takes them again for another line
            self.session.chat(self.chat_entry.get_text())
            self.ui.set_focus_set(None)
            self.chat_entry.set_text("")

    def _confirmed(self, what: str) -> None:
        """A question was answered yes (its button, or Enter)."""
        if what == "market":
            self.input.send_plan()
        elif what == "end":
            self.session.end_turn()

    def _enter(self) -> None:
        """Enter: Confirm for a plan that is ready (a question over the board takes its own Enter)."""
        if self.plan is not None and getattr(self.plan, "ready", True) and self._can_act():
            self._confirm()

    def _stays(self, stage: str) -> bool:
        """The stages this board stays on: the game's board, and its end once it was in play here
        (the last moves stay in view); a finished game looked at from the scores, all."""
        self._played |= stage == "board"
        return self.final or stage == "board" or (stage == "ended" and self._played and self.layout is not None)

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
            left.union(right), _("See the scores"), self.ui, object_id=ObjectID(class_id="@menu"),
            tool_tip_text=_("The game is over: every player's score, and who won (Enter)"))
        self._rev += 1
        self._refresh_buttons()

    def _to_scores(self) -> None:
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
                self.buttons["hint"].set_text(_("Thinking…"))

    def _take_hint(self) -> None:
        """The hint's answer, once it has come: a plan (if the game has not moved meanwhile)."""
        if self.hinter is None:
            return
        got = self.hinter.take()
        if got is None:
            return
        if "hint" in self.buttons:
            self.buttons["hint"].set_text(_("Hint"))
        version, answer = got
        if answer is None:
            self.session.say(_("No hint could be found this time."))
            return
        if version != self.session.version or not self._can_act() or self.plan is not None:
            return   # the game moved on (or the player started a plan): the hint is stale
        self.input.take_hint(answer.action, answer.why, answer.then)

    def _confirm(self) -> None:
        plan = self.plan
        if isinstance(plan, MarketPlan) and plan.discarded:
            self._ask("market", _("Discard what does not fit?"), plan.discard_warning() or "", _("Discard and take"),
                      _("Back to the plan"))
            return
        self.input.send_plan()

    def _end_turn(self) -> None:
        self.input.selected_item = self.input.selected_shelf = self.input.refused = None   # nothing stays picked
        if self.app.settings.confirm_end_turn:
            after = self.session.next_player
            who = (_("Lorenzo takes his turn: one token from his pile.") if len(self.g["players"]) == 1
                   else _("{name} plays next.").format(name=self.session.shown_name(after)) if after
                   else _("The next player takes their turn."))
            self._ask("end", _("End your turn?"), who + " " + _("(Settings can stop this question.)"), _("End turn"))
        else:
            self.session.end_turn()

    def _ask(self, what: str, title: str, text: str, action: str, back: str | None = None) -> None:
        """A modal question over the dimmed board (:class:`~game.scenes.ask.AskScene`): ``action``
        (also Enter) does it, ``back`` (also Esc) changes nothing."""
        def then(answer: str) -> None:
            self.confirm_dialog = None
            if answer == "yes" and self.app.stack.top is self:
                self._confirmed(what)
        self.confirm_dialog = self.app.scene("ask", title, text, [("yes", action, None), ("no", back or _("Back"), None)],
                                             then)
        self.app.stack.push(self.confirm_dialog)
