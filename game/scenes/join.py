"""Join a game: pick a table found on the network, or type the host's address, and a nickname;
then the server's waiting room (its Quick game), or *Tables…* for its named tables.

Joining connects on a short-lived thread (:class:`game.client.tables.Seating`) whose answer
:meth:`JoinScene.update` follows: no frame waits. A seat kept at that server under that nickname
(the server would give it back rather than the Quick game) is asked about first
(:func:`game.client.flow.seats.seat_question`).
"""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import pygame

from game.i18n import _
import pygame_gui

from game.client.address import hostport
from game.client.links import Link, read_address
from game.client.flow.seats import (KeptSeat, another_nickname, ask_before_seating, asked_words, forget_seat,
                                    gone_words, why_seated)
from game.client.words import NICKNAME_MAX
from game.settings import GAME_PORT

from .art import fonts
from .asking import ask
from .backdrop import FADED, INK, OXBLOOD, SEPIA, PaintedScene, blit_lines, panel, title_block, wrap, wrap_within
from .nickname import check_nickname

if TYPE_CHECKING:
    from game.client.tables import Seating


class JoinScene(PaintedScene):
    """Pick a game found on the network (or type the host's address) and a nickname; join its
    waiting room."""

    def __init__(self, app, rejoin: KeptSeat | None = None, link: Link | None = None) -> None:
        super().__init__(app)
        from .lan_list import LanGames
        self.lan = LanGames(on_change=app.wake)   # the games announced on the network, kept live
        self.lan_rect = pygame.Rect(0, 0, 0, 0)
        s = app.settings
        self.draft = {"address": s.last_address, "nickname": s.nickname}
        self.rejoin = rejoin     # the title's "Return to your game at host:port"
        if rejoin is not None:
            self.draft = {"address": rejoin.where, "nickname": rejoin.nickname}
        elif link is not None:   # a game link opened (``mor URL``): the field holds it, Join takes it
            self.draft["address"] = str(link)
        self._code: str | None = None     # the invite code of the link typed, if it has one
        self.errors: dict[str, str] = {}
        self.error: str | None = None
        self.busy: str | None = None     # what we are doing, while connecting
        self.session = None
        self.remote: Any = None                  # the match of ``session``: its seat token
        self.seating: Seating | None = None      # connecting and asking for the seat, off the frame loop
        self._target: tuple[str, int] | None = None
        self.rows: dict[str, pygame.Rect] = {}
        self.sheet = pygame.Rect(0, 0, 0, 0)
        self.instead: str | None = None   # a free nickname offered when the one typed is taken
        self.back_to_kept = False         # asked to go back to the seat kept at that server (see join)

    def enter(self) -> None:
        self.lan.start()
        super().enter()
        if self.rejoin is not None:        # straight back to the seat, as Join would with these fields
            self.join()

    def exit(self) -> None:
        self.lan.close()
        super().exit()

    def frame_interval(self) -> float | None:
        own = 0.5 if self.lan.searching else None   # "looking…" turns into "nothing found"
        if self.seating is not None:
            own = 0.1                               # the server's answer to the join is followed
        base = super().frame_interval()
        return min((i for i in (own, base) if i is not None), default=None)

    def layout(self) -> None:
        w, h = self.app.size
        u = self.unit
        sw, sh = round(760 * u), round(340 * u)
        self.lan_rect = pygame.Rect((w - sw) // 2, round(h * 0.06) + round(138 * u), sw, round(222 * u))
        self.sheet = pygame.Rect((w - sw) // 2, self.lan_rect.bottom + round(14 * u), sw, sh)
        label_x = self.sheet.x + round(50 * u)
        field_x = self.sheet.x + round(250 * u)
        row_h = round(46 * u)
        y = self.sheet.y + round(44 * u)
        self.rows = {}
        for key, width, limit in (("address", 300, 80), ("nickname", 300, NICKNAME_MAX + 8)):
            self.rows[key] = pygame.Rect(label_x, y, field_x - label_x, row_h)
            e = self.entry(key, pygame.Rect(field_x, y, round(width * u), row_h), self.draft[key], limit)
            if self.busy:
                e.disable()
            y += row_h + round(48 * u)
        bw, bh = round(200 * u), round(50 * u)
        by = self.sheet.bottom - round(78 * u)
        if self.instead and not self.busy:   # the nickname is taken at that table: one click joins as another
            aw, bw, gap = round(300 * u), round(170 * u), round(16 * u)
            x = self.sheet.centerx - (aw + 2 * bw + 2 * gap) // 2
            self.button("join_as", pygame.Rect(x, by, aw, bh), _("Join as {name}").format(name=self.instead),
                        tooltip=_("The same table, with this nickname (kept in Settings for next time)"))
            self.button("join", pygame.Rect(x + aw + gap, by, bw, bh), _("Join"), "@menu_quiet",
                        tooltip=_("Join with the nickname typed above"))
            self.button("back", pygame.Rect(x + aw + bw + 2 * gap, by, bw, bh), _("Back"), "@menu_quiet")
        else:
            gap = round(20 * u)
            x = self.sheet.centerx - (3 * bw + 2 * gap) // 2
            self.button("join", pygame.Rect(x, by, bw, bh), _("Join"), enabled=self.busy is None,
                        tooltip=_("Join the waiting room at this address (a friend's table, or the Quick game)"))
            self.button("tables", pygame.Rect(x + bw + gap, by, bw, bh), _("Tables\u2026"), "@menu_quiet",
                        enabled=self.busy is None,
                        tooltip=_("See the tables open at this address, open one, or paste an invite code"))
            self.button("back", pygame.Rect(x + 2 * (bw + gap), by, bw, bh),
                        _("Cancel") if self.busy else _("Back"), "@menu_quiet")
        if not self.draft["address"]:
            self.widgets["address"].focus()

    def rebuild(self) -> None:
        self.read_entries(self.draft)
        self.ui.clear_and_reset()
        self.build()

    def paint(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        u = self.unit
        bottom = title_block(surface, _("Join a game"), None, w // 2, round(h * 0.06), u, size=64)
        hint = _("Pick a game found on your network, or type the address shown on the host's screen.")
        blit_lines(surface, [hint], max(12, round(22 * u)), SEPIA, w // 2, bottom + round(8 * u), "italic",
                   align="center")
        self.lan.paint(surface, self.lan_rect, u, enabled=self.busy is None)
        surface.blit(panel(self.sheet.w, self.sheet.h, u), self.sheet.topleft)
        size, small = max(12, round(24 * u)), max(11, round(18 * u))
        labels = {"address": _("Address"), "nickname": _("Nickname")}
        notes = {"address": _("e.g. 192.168.1.23 or 192.168.1.23:51015"), "nickname": _("How the others will see you")}
        notes_bottom = self.sheet.y
        for key, rect in self.rows.items():
            img = fonts.render(labels[key], size, INK)
            surface.blit(img, img.get_rect(midleft=(rect.x, rect.centery)))
            note = self.errors.get(key)
            colour = OXBLOOD if note else FADED
            note = note or notes[key]
            x = rect.right
            lines = wrap(note, small, self.sheet.right - x - round(40 * u), "italic")
            notes_bottom = blit_lines(surface, lines, small, colour, x + 2, rect.bottom + round(6 * u), "italic",
                                      leading=1.1)
        msg, colour = (self.busy, SEPIA) if self.busy else (self.error, OXBLOOD)
        if msg:   # between the fields' notes and the buttons, smaller if it must be to stand there whole
            buttons = self.sheet.bottom - round(78 * u)
            room = buttons - notes_bottom - round(4 * u)
            lines, size = wrap_within(msg, max(12, round(22 * u)), self.sheet.w - round(60 * u), room,
                                      max(11, round(16 * u)), "italic")
            y = notes_bottom + max(0, (room - len(lines) * round(size * 1.18)) // 2)
            blit_lines(surface, lines, size, colour, w // 2, y, "italic", align="center")

    def on_ui(self, event: pygame.event.Event) -> Any:
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED:
            name = self.name_of(event.ui_element)
            if name in self.draft:
                self.draft[name] = event.text
                self.errors.pop(name, None)
                offer = self.widgets.get("join_as")
                if name == "nickname" and offer is not None and event.text.strip() != self.instead:
                    offer.disable()                # typing a name of one's own: Join takes it
            return
        super().on_ui(event)

    def on_enter(self, name: str) -> None:
        if self.busy is None:
            self.join()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.on_button("back")
        elif event.type == pygame.MOUSEMOTION:
            self.lan.pointer = event.pos           # the rows hold still while the pointer is on them
            game = self.lan.at(event.pos)
            self.lan.hover = game.service if game is not None else None
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.busy is None:
            self.lan.pointer = event.pos
            game = self.lan.at(event.pos)
            if game is not None:
                self.join_found(game)
            elif self.lan.gone_at(event.pos):
                self.error = _("That table is no longer on the network: its host stopped hosting or left.")

    def join_found(self, game) -> None:
        """Join a game found on the network: its address goes in the field, then as typed."""
        address = f"{game.address}:{game.port}"
        self._found = game       # its name and host, for the words of a lost connection
        widget = self.widgets.get("address")
        if widget is not None:
            widget.set_text(address)
        self.draft["address"] = address
        self.join()

    def on_button(self, name: str) -> None:
        if name == "join_as" and self.busy is None and self.instead:
            widget = self.widgets.get("nickname")
            if widget is not None:
                widget.set_text(self.instead)
            self.draft["nickname"] = self.instead
            self.join()
        elif name == "join" and self.busy is None:
            self.join()
        elif name == "tables" and self.busy is None:
            self.show_tables()
        elif name == "back":
            self.cancel()
            self.app.stack.pop()

    # joining -----------------------------------------------------------------------------
    def _checked(self) -> tuple[str, int] | None:
        """The address typed, once it and the nickname are good (else the fields say why)."""
        self.read_entries(self.draft)
        self.errors, self.error, self.instead = {}, None, None
        problem = check_nickname(self.draft["nickname"])
        if problem:
            self.errors["nickname"] = problem
        try:
            link = read_address(self.draft["address"], GAME_PORT)   # host:port, or a game link pasted whole
        except ValueError as e:
            self.errors["address"] = str(e)
            link = None
        if self.errors or link is None:
            return None
        self._code = link.code
        return link.host, link.port

    def show_tables(self) -> None:
        """The tables at the address typed (their page asks the server)."""
        target = self._checked()
        if target is not None:
            self.app.stack.push(self.app.scene("tables", target[0], target[1], self.draft["nickname"].strip(),
                                               self.draft["address"].strip(), self._announced_tls(target)))

    def _announced_tls(self, target: tuple[str, int]) -> int | None:
        """Where a server found on the network at ``target`` speaks TLS, as it announced (None: it
        does not say so): its list and its seat are asked there straight away, not on the plain port."""
        return next((g.info.tls for g in self.lan.games() if (g.address, g.port) == target and g.info.tls), None)

    def join(self) -> None:
        """Check the fields and start connecting (on a thread: a frame never waits). Where the
        server keeps a seat for this nickname (it would give that one back, not the Quick game),
        the player is asked first (:func:`~game.client.flow.seats.ask_before_seating`)."""
        target = self._checked()
        if target is None:
            return
        nickname = self.draft["nickname"].strip()
        if self.rejoin is not None:         # the title's kept seat: chosen there
            self._knock(target, nickname, True)
            return
        where = {"code": self._code} if self._code else {}
        ask_before_seating(self.app.data_dir, *target, nickname, asked_words(**where), functools.partial(ask, self.app),
                           lambda nick, chose: self._knock(target, nick, chose))

    def _knock(self, target: tuple[str, int], nickname: str, chose: bool) -> None:
        """Ask for a seat at ``target`` as ``nickname`` (``chose``: the player chose the seat kept there)."""
        self.back_to_kept = chose
        if nickname != self.draft["nickname"].strip():       # another name, chosen when asked
            self.draft["nickname"] = nickname
            widget = self.widgets.get("nickname")
            if widget is not None:
                widget.set_text(nickname)
        self._target = target
        self.busy = _("Knocking at {where}\u2026").format(where=hostport(*target))
        self.rebuild()
        from game.client.tables import Seating   # the waiting list: a friend's table, or the Quick game
        found = getattr(self, "_found", None)
        if self.rejoin is not None:           # the host and the table as the seat kept them
            names = (self.rejoin.host_name, self.rejoin.table_name)
        elif found is not None and (found.address, found.port) == tuple(target):   # as the network's list says
            names = (found.info.host, found.info.name)
        else:
            names = ("", "")
        self.seating = Seating(target[0], target[1], nickname, self.app.config, self.app.wake,
                               tls_port=self._announced_tls(target), host_name=names[0], table_name=names[1],
                               **({"code": self._code} if self._code and self.rejoin is None else {}))

    def cancel(self) -> None:
        if self.seating is not None:
            self.seating.cancel()
            self.seating = None
        if self.session is not None:
            self.session.close()
            self.session = None

    def update(self, dt: float) -> None:
        seating = self.seating
        if self.busy is None or seating is None:
            return
        state = seating.poll()
        if self.session is None and seating.session is not None:    # connected: the waiting room is asked
            self.session, self.remote = seating.session, seating.remote
            found = getattr(self, "_found", None)
            if found is not None and (found.address, found.port) == tuple(self._target):   # type: ignore[arg-type]
                self.session.lobby.next_game = found.info.started and not found.info.free   # "Wait for a seat"
            self.busy = _("Joining the waiting room\u2026")
        if state == "failed":
            self.seating = None
            if seating.taken and seating.remote is not None:   # someone at that table has this name
                nick = seating.nickname
                self.instead = another_nickname(nick)
                if seating.remote.token:   # we asked for our seat back with a kept token
                    self.errors["nickname"] = (
                        _("\u201c{name}\u201d has a seat at this table, but not the one this computer kept "
                          "under that name (that was another game at this address): choose another name.").format(
                            name=nick))
                else:
                    self.errors["nickname"] = seating.error or ""   # the words the text client says
            self.session = None
            self._fail("" if seating.taken else seating.error or "")
            if seating.warning is not None:   # not the server met there before: what to do, over the page
                from .link_mark import warn
                warn(self.app, seating.warning)
        elif state == "seated":
            self.seating = None
            self.follow_join(seating.sent_token)

    def follow_join(self, token_sent: bool) -> None:
        """The server seated us: the waiting room or our game (or, for a seat to take back, the
        news that its game is not there any more)."""
        session = self.session
        if self.rejoin is not None and session.lobby.booked > 0 and not session.vm.has_game:
            # the seat's game is not there any more (it ended meanwhile, or the server lost it)
            forget_seat(self.app.data_dir, self.rejoin)
            gone, self.rejoin = gone_words(self.rejoin), None
            self._fail(gone + " " + _("Join again to sit at a new table."))
            return
        s = self.app.settings
        s.nickname = session.nickname
        s.last_address = self.draft["address"].strip()
        s.save()
        from .router import seated_scene
        self.session = None
        asked = None if self.rejoin is not None else asked_words()
        why = why_seated(asked, token_sent, session.vm.has_game, self.draft["address"].strip(), chose=self.back_to_kept)
        self.app.stack.replace(seated_scene(self.app, session, why))

    def _fail(self, message: str) -> None:
        if self.session is not None:
            self.session.close()
            self.session = None
        self.busy = None
        self.error = message or None
        self.rebuild()
