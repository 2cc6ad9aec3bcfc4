"""The tables of a server: sit at an open one, open a new one, paste an invite code, or take a
Quick game (the server's waiting list).

Reached from *Join a game* (its *Tables…* button) with the address and nickname typed there. The
list comes from :func:`game.client.tables.list_tables` on a short-lived thread, again every few
seconds while the page is shown (the frame loop sleeps in between); a seat is asked with
:class:`game.client.tables.Seating`, and once the server seats the player the page hands over to
the waiting room (or the game, if the table filled).
"""
from __future__ import annotations

import functools
import time
from dataclasses import replace
from typing import Any

import pygame
import pygame_gui

from game.client.address import hostport
from game.client.flow.seats import ask_before_seating, asked_words, why_seated
from game.client.my_games import MOVE_TIMES, remember_server
from game.client.my_games_words import move_time_words, pace_button_words
from game.client.security import identity_warning
from game.client.tables import (PAGE, TABLE_NAME_MAX, NoTables, OpenTable, PlayingTable, Seating, TableList, list_tables,
                                own_table_name)
from game.client.watching import Watching
from game.i18n import _, ngettext, pgettext

from .art import fonts
from .asking import ask
from .fetching import Fetch
from .link_mark import LinkMark, warn
from .backdrop import (FADED, GOLD, GREEN_INK, INK, OXBLOOD, PANEL, SEPIA, PaintedScene, blit_lines, mix, panel,
                       title_block, tracked, wrap, wrap_within)

REFRESH_SECONDS = 5.0
"""How often the list is asked again while the page is shown (and nothing else is going on)."""
ROWS = 6
"""Tables shown at once; *Next* and *Previous* page through the rest."""
SEATS = (2, 3, 4)


class TablesScene(PaintedScene):
    """The open tables of the server at ``host:port``, for ``nickname`` (``tls_port``: where it speaks
    TLS, when its LAN announcement said so)."""

    def __init__(self, app, host: str, port: int, nickname: str, address: str = "", tls_port: int | None = None) -> None:
        super().__init__(app)
        self.host, self.port, self.nickname = host, port, nickname
        self.address = address or hostport(host, port)
        self.where = hostport(host.removeprefix("tls://"), port)
        self.listing: TableList | None = None
        self.no_tables = False          # the server keeps one waiting list only (the reference's)
        self.first = 0                  # the first table shown (in the whole list)
        self.error: str | None = None
        self.note: str | None = None    # a word about what to do (e.g. a private table's code)
        self.seating: Seating | None = None
        self.busy: str | None = None    # what we are doing, while seating
        self.draft = {"table_name": own_table_name(nickname), "code": ""}
        self.players = 2
        self.private = False
        self.move_time: int | None = None   # a new table's time a move (None: real-time; see game.client.my_games)
        self.rows: list[tuple[pygame.Rect, OpenTable | PlayingTable]] = []
        self.watch_zones: list[tuple[pygame.Rect, str]] = []   # each row's "Watch" (the table's name)
        self.watching: Watching | None = None   # a watch being asked for
        self.hover: str | None = None
        self.list_rect = pygame.Rect(0, 0, 0, 0)
        self.cards: dict[str, pygame.Rect] = {}
        self.mark = LinkMark()          # encrypted or not, as the last list came
        self.asked = ""                 # the seat asked, in words (see sit)
        self.back_to_kept = False       # the player chose to go back to the seat kept here (see sit)
        # where the server speaks TLS (its LAN announcement says, or the last list): lists go straight there
        self.tls_port = tls_port
        self.refused = False            # the server is not the one met there before: not asked again
        self._fetch = Fetch("tables")
        self._fetched_at = 0.0

    # life ----------------------------------------------------------------------------------
    def enter(self) -> None:
        super().enter()
        self.refresh()

    def exit(self) -> None:
        if self.seating is not None and self.seating.state != "seated":
            self.seating.cancel()
        if self.watching is not None:
            self.watching.cancel()
        super().exit()

    def frame_interval(self) -> float | None:
        # a list being fetched is looked for every 0.1 s (the fetch does not wake the app: a
        # wake-up is a burst of frames, every few seconds), else the next refresh is awaited
        own = 0.1 if self.seating is not None or self.watching is not None or self._fetch.pending else \
            max(0.2, self._fetched_at + REFRESH_SECONDS - time.monotonic())
        base = super().frame_interval()
        return min((i for i in (own, base) if i is not None), default=None)

    def refresh(self) -> None:
        """Ask the server for the list again (on a thread; :meth:`update` takes the answer)."""
        if self.refused:
            return
        start = (self.first // PAGE) * PAGE
        if self._fetch.start(lambda: list_tables(self.host, self.port, start, tls_port=self.tls_port)):
            self._fetched_at = time.monotonic()

    def update(self, dt: float) -> None:
        result = self._fetch.take()
        if result is not None:
            self._take_list(result)
        if self.seating is not None:
            self._follow_seat()
        elif self.watching is not None:
            self._follow_watch()
        elif time.monotonic() - self._fetched_at >= REFRESH_SECONDS:
            self.refresh()

    def _paging(self) -> tuple[bool, bool, bool]:
        """What of the list the widgets show: whether it pages, and which way it can."""
        total = self.listing.total if self.listing is not None else 0
        return total > ROWS, self.first > 0, self.first + ROWS < total

    def _take_list(self, result: Any) -> None:
        """A list came (or a failure): the page paints it; the widgets are made again only when
        its paging changed (a refresh every few seconds must cost next to nothing)."""
        paging = self._paging()
        if isinstance(result, NoTables):
            self.no_tables, self.listing = True, None
        elif isinstance(result, OSError):
            from game.client.address import describe_connect_error
            self.error = describe_connect_error(result, self.host.removeprefix("tls://"), self.port)
            self._unreachable = self.error   # (cleared when a list comes again)
            warning = identity_warning(result)
            if warning is not None:          # not the server met there before: said once, not asked again
                self.refused, self.listing = True, None
                warn(self.app, warning)
        else:
            self.no_tables = False
            self.tls_port = result.tls_port
            was = self.listing.link if self.listing is not None else None
            if was is not None and was.first_meeting and result.link is not None and result.link.secure:
                # met for the first time on this page: the refreshes say so too
                result = replace(result, link=replace(result.link, first_meeting=True))
            if self.error and self.error == getattr(self, "_unreachable", None):
                self.error = None
            self.listing = result
            if self.first >= max(1, result.total):
                self.first = max(0, (result.total - 1) // ROWS * ROWS)
        if self._paging() != paging:
            self.rebuild()

    # seating -------------------------------------------------------------------------------
    def sit(self, words: str, **where: Any) -> None:
        """Ask for a seat (see :func:`game.client.tables.join`); the page waits for the answer.
        Where the server keeps a seat for this nickname (it would give that one back, whatever is
        asked), the player is asked first (:func:`~game.client.flow.seats.ask_before_seating`)."""
        if self.seating is not None:
            return
        ask_before_seating(self.app.data_dir, self.host, self.port, self.nickname, asked_words(**where),
                           functools.partial(ask, self.app), lambda nick, chose: self._sit(words, nick, chose, where))

    def _sit(self, words: str, nickname: str, chose: bool, where: dict[str, Any]) -> None:
        """Ask for the seat as ``nickname`` (``chose``: the player chose the seat kept here)."""
        self.nickname, self.back_to_kept = nickname, chose
        self.error = self.note = None
        self.busy = words
        # where the server speaks TLS (announced, or learnt from its list): the seat is asked there
        self.asked = asked_words(**where)
        self.seating = Seating(self.host, self.port, self.nickname, self.app.config, self.app.wake,
                               tls_port=self.tls_port, **where)
        self.rebuild()

    def _follow_seat(self) -> None:
        seating = self.seating
        assert seating is not None
        state = seating.poll()
        if state == "failed":
            self.seating, self.busy = None, None
            self.error = seating.error
            if seating.warning is not None:
                self.refused = True
                warn(self.app, seating.warning)
            self.refresh()
            self.rebuild()
        elif state == "seated":
            s = self.app.settings
            s.nickname = self.nickname
            s.last_address = self.address
            s.save()
            from .router import seated_scene
            session = seating.session
            self.seating = None
            self.app.stack.pop()                       # the Join page goes too
            # leaving its waiting room comes back here
            back = [("join", ()), ("tables", (self.host, self.port, self.nickname, self.address, self.tls_port))]
            why = why_seated(self.asked, seating.sent_token, session.vm.has_game, self.where, chose=self.back_to_kept)
            self.app.stack.replace(seated_scene(self.app, session, why, way_back=back))

    # watching ------------------------------------------------------------------------------
    def watch(self, words: str, **where: str) -> None:
        """Ask to watch a table (``name``: public; ``code``: any); the page waits for the answer,
        then the table is shown over it (*Stop watching* comes back here)."""
        if self.seating is not None or self.watching is not None:
            return
        self.error = self.note = None
        self.busy = words
        self.watching = Watching(self.host, self.port, self.nickname, self.app.config, self.app.wake,
                                 tls_port=self.tls_port, **where)
        self.rebuild()

    def _follow_watch(self) -> None:
        watching = self.watching
        assert watching is not None
        state = watching.poll()
        if state in ("failed", "seated"):
            self.watching, self.busy = None, None
            self.rebuild()
        if state == "failed":
            self.error = watching.error
            if watching.warning is not None:
                self.refused = True
                warn(self.app, watching.warning)
        elif state == "seated":
            self.app.stack.push(self.app.scene("watch_table", watching.session))

    # layout --------------------------------------------------------------------------------
    def rebuild(self) -> None:
        self.read_entries(self.draft)
        self.ui.clear_and_reset()
        self.build()

    def layout(self) -> None:
        w, h = self.app.size
        u = self.unit
        free = self.seating is None and self.watching is None
        top = round(h * 0.06) + round(128 * u)
        bottom = h - round(96 * u)
        cw = round(400 * u)
        gap = round(24 * u)
        lw = min(round(760 * u), w - cw - gap - round(80 * u))
        x0 = (w - lw - gap - cw) // 2
        # (the list stops higher than the cards: under it, two lines of a message above the buttons)
        self.list_rect = pygame.Rect(x0, top, lw, bottom - round(36 * u) - top)
        cx = self.list_rect.right + gap
        hq, hn = round(164 * u), round(232 * u)
        hc = bottom - top - hq - hn - 2 * round(12 * u)
        self.cards = {"quick": pygame.Rect(cx, top, cw, hq),
                      "new": pygame.Rect(cx, top + hq + round(12 * u), cw, hn),
                      "code": pygame.Rect(cx, top + hq + hn + 2 * round(12 * u), cw, hc)}
        pad = round(22 * u)
        bh = round(44 * u)
        q = self.cards["quick"]
        self.button("quick", pygame.Rect(q.x + pad, q.bottom - bh - round(18 * u), q.w - 2 * pad, bh), _("Quick game"),
                    tooltip=_("Join the waiting list: the first in it chooses how many play, the others fill the game"),
                    enabled=free)
        n = self.cards["new"]
        y = n.y + round(46 * u)
        e = self.entry("table_name", pygame.Rect(n.x + pad, y, n.w - 2 * pad, bh), self.draft["table_name"],
                       TABLE_NAME_MAX)
        if not free:
            e.disable()
        y += bh + round(10 * u)
        sw = round(54 * u)
        for i, k in enumerate(SEATS):
            self.button(f"seats_{k}", pygame.Rect(n.x + pad + i * (sw + round(6 * u)), y, sw, bh), str(k),
                        "@menu" if k == self.players else "@menu_quiet", tooltip=_("A table for {n} players").format(n=k),
                        enabled=free)
        px = n.x + pad + 3 * (sw + round(6 * u)) + round(6 * u)
        self.button("private", pygame.Rect(px, y, n.right - pad - px, bh), _("Private") if self.private else _("Public"),
                    "@menu" if self.private else "@menu_quiet",
                    tooltip=_("Private: joined only with the invite code you share") if not self.private else
                    _("Public: listed here, anyone may sit"), enabled=free)
        y += bh + round(12 * u)
        tw = (n.w - 2 * pad - round(8 * u)) // 2        # halves: "In tempo reale" needs as much as "Apri il tavolo"
        self.button("pace", pygame.Rect(n.x + pad, y, tw, bh), pace_button_words(self.move_time),
                    "@menu" if self.move_time else "@menu_quiet", enabled=free,
                    tooltip=_("Turn-based, {pace}: you may close the game and come back").format(
                        pace=move_time_words(self.move_time)) if self.move_time else
                    _("Real-time: everyone plays now, to the end; click for a turn-based table"))
        self.button("create", pygame.Rect(n.x + pad + tw + round(8 * u), y, n.w - 2 * pad - tw - round(8 * u), bh),
                    _("Open the table"), enabled=free)
        c = self.cards["code"]
        cy = c.y + round(46 * u)
        jw, gap = round(96 * u), round(8 * u)
        e = self.entry("code", pygame.Rect(c.x + pad, cy, c.w - 2 * pad - 2 * (jw + gap), bh), self.draft["code"], 24)
        if not free:
            e.disable()
        self.button("code_watch", pygame.Rect(c.right - pad - 2 * jw - gap, cy, jw, bh), _("Watch"), "@menu_quiet",
                    enabled=free, tooltip=_("Watch the table of this invite code, without playing"))
        self.button("code_join", pygame.Rect(c.right - pad - jw, cy, jw, bh), _("Join"), enabled=free,
                    tooltip=_("Sit at the table of this invite code"))
        lr = self.list_rect
        nw = round(130 * u)
        ny = lr.bottom - round(52 * u)
        total = self.listing.total if self.listing is not None else 0
        if total > ROWS:
            self.button("previous", pygame.Rect(lr.x + pad, ny, nw, round(36 * u)),
                        pgettext("paging", "\u2039 Previous"), "@quiet", enabled=free and self.first > 0)
            self.button("next", pygame.Rect(lr.right - pad - nw, ny, nw, round(36 * u)), _("Next \u203a"), "@quiet",
                        enabled=free and self.first + ROWS < total)
        bw, bg = round(180 * u), round(16 * u)
        by = h - round(70 * u)
        x0 = w // 2 - 2 * bw - bg - bg // 2
        self.button("back", pygame.Rect(x0, by, bw, bh), _("Cancel") if not free else _("Back"), "@menu_quiet")
        self.button("my_games", pygame.Rect(x0 + bw + bg, by, bw, bh), _("My games"), "@menu_quiet",
                    tooltip=_("Your games here, those awaiting your move first"), enabled=free)
        self.button("leaderboard", pygame.Rect(x0 + 2 * (bw + bg), by, bw, bh), _("Leaderboard"), "@menu_quiet",
                    tooltip=_("The best players here, and your place"), enabled=free)
        self.button("refresh", pygame.Rect(x0 + 3 * (bw + bg), by, bw, bh), _("Refresh"), "@menu_quiet",
                    tooltip=_("Ask the server for its tables again"), enabled=free)

    # input ---------------------------------------------------------------------------------
    def on_ui(self, event: pygame.event.Event) -> Any:
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED:
            name = self.name_of(event.ui_element)
            if name in self.draft:
                self.draft[name] = event.text
            return
        super().on_ui(event)

    def on_enter(self, name: str) -> None:
        if name == "code":
            self.on_button("code_join")
        elif name == "table_name":
            self.on_button("create")

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.on_button("back")
        elif event.type == pygame.MOUSEMOTION:
            self.mark.pointer = event.pos
            table = self.at(event.pos)
            hover = table.name if table is not None else None
            if hover != self.hover:
                self.hover = hover
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.seating is None and self.watching is None:
            zone = next((name for rect, name in self.watch_zones if rect.collidepoint(event.pos)), None)
            table = self.at(event.pos)
            if zone is not None:
                self.watch(_("Watching \u201c{name}\u201d\u2026").format(name=zone), name=zone)
            elif table is not None:
                self.choose(table)

    def at(self, pos: tuple[int, int]) -> OpenTable | PlayingTable | None:
        for rect, table in self.rows:
            if rect.collidepoint(pos):
                return table
        return None

    def choose(self, table: OpenTable | PlayingTable) -> None:
        """A row was clicked: sit there (a game being played: watch it), or say how to join a
        private table."""
        if isinstance(table, PlayingTable):
            self.watch(_("Watching \u201c{name}\u201d\u2026").format(name=table.title), name=table.name)
            return
        if table.private:
            self.error = None
            self.note = _("\u201c{table}\u201d is private: paste the invite code {host} shares under Invite code.").format(
                table=table.name, host=table.host or _("its host"))
            code = self.widgets.get("code")
            if code is not None:
                code.focus()
            return
        if table.move_time:
            remember_server(self.app.data_dir, self.host.removeprefix("tls://"), self.port)
        self.sit(_("Sitting at \u201c{table}\u201d\u2026").format(table=table.name), name=table.name)

    def on_button(self, name: str) -> None:
        self.read_entries(self.draft)
        if name == "back":
            if self.seating is not None or self.watching is not None:
                for asked in (self.seating, self.watching):
                    if asked is not None:
                        asked.cancel()
                self.seating = self.watching = None
                self.busy = None
                self.rebuild()
                return
            self.app.stack.pop()
        elif self.seating is not None or self.watching is not None:
            return
        elif name == "refresh":
            self.error = self.note = None
            self.refresh()
        elif name == "leaderboard":
            tls = self.listing.tls_port if self.listing is not None else self.tls_port
            self.app.stack.push(self.app.scene("leaderboard", self.host, self.port, tls))
        elif name == "my_games":
            tls = self.listing.tls_port if self.listing is not None else self.tls_port
            self.app.stack.push(self.app.scene("my_games", [(self.host, self.port)], tls))
        elif name == "pace":
            times = (None, *MOVE_TIMES)
            self.move_time = times[(times.index(self.move_time) + 1) % len(times)]
            self.rebuild()
        elif name == "quick":
            self.sit(_("Joining the Quick game\u2026"))
        elif name.startswith("seats_"):
            self.players = int(name.split("_")[1])
            self.rebuild()
        elif name == "private":
            self.private = not self.private
            self.rebuild()
        elif name == "create":
            table = " ".join(self.draft["table_name"].split())
            if not table:
                self.error = _("Give the table a name first.")
                return
            if self.move_time is not None:   # its turns are announced while the game runs (My games)
                remember_server(self.app.data_dir, self.host.removeprefix("tls://"), self.port)
            self.sit(_("Opening \u201c{table}\u201d\u2026").format(table=table), create=table, players=self.players, private=self.private,
                     **({"move_time": self.move_time} if self.move_time is not None else {}))
        elif name == "code_join":
            code = self.draft["code"].strip()
            if not code:
                self.error = _("Paste the invite code first (e.g. K7QF-M2XD).")
                return
            self.sit(_("Joining the table of code {code}\u2026").format(code=code.upper()), code=code)
        elif name == "code_watch":
            code = self.draft["code"].strip()
            if not code:
                self.error = _("Paste the invite code first (e.g. K7QF-M2XD).")
                return
            self.watch(_("Watching the table of code {code}\u2026").format(code=code.upper()), code=code)
        elif name in ("previous", "next"):
            self.first = max(0, self.first + (ROWS if name == "next" else -ROWS))
            listing = self.listing
            if listing is None or not listing.start <= self.first < listing.start + PAGE:
                self.refresh()
            self.rebuild()

    # drawing -------------------------------------------------------------------------------
    def paint(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        u = self.unit
        bottom = title_block(surface, _("Tables"), None, w // 2, round(h * 0.06), u, size=64)
        sub = _("at {where}  \u00b7  you are {name}").format(where=self.where, name=self.nickname)
        size = max(12, round(22 * u))
        link = self.listing.link if self.listing is not None else None
        text = fonts.render(sub, size, SEPIA, "italic")
        mark = self.mark.surface(link, max(11, round(19 * u))) if link is not None else None
        gap = round(18 * u)
        x = w // 2 - (text.get_width() + (gap + mark.get_width() if mark else 0)) // 2
        y = bottom + round(6 * u)
        surface.blit(text, (x, y))
        self.mark.paint(surface, link, max(11, round(19 * u)),
                        midleft=(x + text.get_width() + gap, y + text.get_height() // 2))
        self._paint_list(surface, u)
        self._paint_cards(surface, u)
        msg, colour = (self.busy, SEPIA) if self.busy else (self.error, OXBLOOD) if self.error else (self.note, SEPIA)
        if msg:   # between the list and the buttons, smaller if it must be to stand there whole
            y = self.list_rect.bottom + round(6 * u)
            room = h - round(70 * u) - round(4 * u) - y
            lines, size = wrap_within(msg, max(12, round(21 * u)), self.list_rect.w - round(8 * u), room,
                                      max(11, round(15 * u)), "italic")
            blit_lines(surface, lines, size, colour, self.list_rect.centerx, y, "italic", align="center")
        self.mark.paint_tip(surface, u)

    def _paint_list(self, surface: pygame.Surface, u: float) -> None:
        r = self.list_rect
        surface.blit(panel(r.w, r.h, u), r.topleft)
        small = max(11, round(18 * u))
        k = tracked(_("open tables"), small, OXBLOOD, max(1, round(2 * u)))
        surface.blit(k, k.get_rect(midtop=(r.centerx, r.y + round(18 * u))))
        self.rows = []
        self.watch_zones = []
        inner = r.inflate(-round(48 * u), 0)
        top = r.y + round(18 * u) + k.get_height() + round(14 * u)
        listing = self.listing
        size = max(11, round(20 * u))
        if listing is None or not (listing.tables or listing.playing):
            if self.no_tables:
                text = _("This server keeps one waiting list and no tables (it is not this edition's server): "
                         "take a Quick game to join it.")
            elif listing is None:
                text = "" if self.error else _("Asking the server for its tables\u2026")
            else:
                text = _("No table is open here yet. Open one under New table, or take a Quick game.")
            blit_lines(surface, wrap(text, size, inner.w, "italic")[:4], size, SEPIA, r.centerx, top + round(20 * u),
                       "italic", align="center")
            return
        row_h, gap = round(58 * u), round(8 * u)
        name_size, note_size = max(12, round(23 * u)), max(10, round(17 * u))
        shown: list[OpenTable | PlayingTable] = [
            t for i, t in enumerate(listing.tables, listing.start) if self.first <= i < self.first + ROWS]
        if self.first + ROWS >= listing.total:      # the games being played, after the last open tables
            shown += list(listing.playing[:ROWS - len(shown)])
        free = self.seating is None and self.watching is None
        for i, t in enumerate(shown):
            row = pygame.Rect(inner.x, top + i * (row_h + gap), inner.w, row_h)
            self.rows.append((row, t))
            hot = free and self.hover == t.name
            fill = mix(PANEL, GOLD, 0.28 if hot else 0.12)
            pygame.draw.rect(surface, fill, row, border_radius=round(8 * u))
            pygame.draw.rect(surface, GOLD if hot else mix(PANEL, GOLD, 0.5), row, max(1, round(2 * u)),
                             border_radius=round(8 * u))
            pad = round(14 * u)
            playing = isinstance(t, PlayingTable)
            private = not playing and t.private
            action = _("Watch \u203a") if playing else _("Invite only") if private else _("Sit here \u203a")
            act = fonts.render(action, name_size, FADED if private else GREEN_INK, "italic" if private else "regular")
            right = row.right - pad
            if not playing and not private:         # a table waiting may be watched too
                watch = fonts.render(_("Watch"), note_size, SEPIA, "italic")
                zone = watch.get_rect(midright=(right, row.centery))
                surface.blit(watch, zone)
                self.watch_zones.append((zone.inflate(round(12 * u), row.h - zone.h), t.name))
                right = zone.left - pad
            surface.blit(act, act.get_rect(midright=(right, row.centery)))
            room = right - row.x - 2 * pad - act.get_width()
            nsize = fonts.fit(t.title, room, name_size)
            name = fonts.render(t.title, nsize, INK)
            surface.blit(name, name.get_rect(midleft=(row.x + pad, row.centery - round(10 * u))))
            if playing:
                note_text = _("being played: {players}").format(players=t.players_words)
            else:
                parts = ([_("host {name}").format(name=t.host)] if t.host else []) + [t.seats_words]
                parts += [t.seated_words] if t.rated else []
                parts += [_("turn-based, {pace}").format(pace=t.pace_words)] if t.move_time else []
                parts += [_("private")] if t.private else []
                note_text = " \u00b7 ".join(parts)
            note = fonts.render(note_text, fonts.fit(note_text, room, note_size), SEPIA, "italic")
            surface.blit(note, note.get_rect(midleft=(row.x + pad, row.centery + round(14 * u))))
        if listing.total > ROWS:
            last = min(listing.total, self.first + ROWS)
            img = fonts.render(_("{first}\u2013{last} of {total}").format(first=self.first + 1, last=last,
                                                                           total=listing.total),
                               note_size, SEPIA, "italic")
            surface.blit(img, img.get_rect(midbottom=(r.centerx, r.bottom - round(24 * u))))

    def _paint_cards(self, surface: pygame.Surface, u: float) -> None:
        small = max(11, round(18 * u))
        body = max(11, round(19 * u))
        for key, title in (("quick", _("quick game")), ("new", _("new table")), ("code", _("invite code"))):
            c = self.cards[key]
            surface.blit(panel(c.w, c.h, u), c.topleft)
            k = tracked(title, small, OXBLOOD, max(1, round(2 * u)))
            surface.blit(k, k.get_rect(midtop=(c.centerx, c.y + round(16 * u))))
        q = self.cards["quick"]
        listing = self.listing
        if listing is None:
            text = _("Play with whoever comes: the first in line chooses how many play.")
        elif listing.waiting == 0:
            text = _("Nobody is waiting: you will choose how many play, and the others fill the game.")
        else:
            n = listing.waiting
            text = (ngettext("{n} person waits for a game for {size}: join them.",
                             "{n} people wait for a game for {size}: join them.", n) if listing.queue_count else
                    ngettext("{n} person waits for a game: join them.", "{n} people wait for a game: join them.",
                             n)).format(n=n, size=listing.queue_count)
        lines = wrap(text, body, q.w - round(44 * u), "italic")[:2]
        blit_lines(surface, lines, body, SEPIA, q.centerx, q.y + round(44 * u), "italic", align="center")
        c = self.cards["code"]
        hint = _("Paste the code a host shares to sit at their private table.")
        lines = wrap(hint, body, c.w - round(44 * u), "italic")
        y = c.y + round(46 * u) + round(44 * u) + round(10 * u)
        if y + len(lines) * round(body * 1.2) <= c.bottom - round(6 * u):
            blit_lines(surface, lines, body, FADED, c.centerx, y, "italic", align="center")
