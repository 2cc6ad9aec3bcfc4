"""The waiting room of a server: who is waiting, who chooses the number of players, and when.

The first player in the waiting list (the *head*) chooses how many play: Solo, 2, 3 or 4. The
others read "Waiting for X to choose the number of players…". Once the number is chosen, the head
may put a computer player (easy, medium or hard) in any empty seat, or take one out again (our
server's extension: ``ReqNewGame`` with ``bots``). The game starts by itself when people and bots
fill it; the scene then hands over to the leader choice (see :func:`router.follow`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.client.words import bot_level, bot_seat, seat_choice_tip
from game.i18n import N_, _, ngettext, pgettext

from .art import fonts
from .link_mark import LinkMark
from .backdrop import FADED, INK, OXBLOOD, SEPIA, blit_lines, panel, title_block, tracked, wrap
from .router import SessionScene, leave_game

if TYPE_CHECKING:
    from collections.abc import Sequence

    from game.client.session import GameSession

SEAT_CHOICES = (("players_1", N_("Solo"), 1), ("players_2", N_("2 players"), 2), ("players_3", N_("3 players"), 3),
                ("players_4", N_("4 players"), 4))
"""(button, its words marked for the catalogue, how many play)."""
BOT_LEVELS = (("easy", N_("Easy bot")), ("medium", N_("Medium bot")), ("hard", N_("Hard bot")))


def port_mapping_state(server) -> str | None:
    """The hosted port's state at the router ("open", "refused"...; None: nobody was asked)."""
    from game.client.flow.port_opening import port_mapping
    status = port_mapping(server)
    return status.state.value if status is not None else None


class LobbyScene(SessionScene):
    """The waiting room."""

    stage = "lobby"

    def __init__(self, app, session: "GameSession", way_back: "Sequence[tuple[str, tuple]]" = ()) -> None:
        """``way_back``: the pages (by name, with their arguments) that lead back to where the
        seat was asked, pushed over the title when the waiting room is left (a server's tables:
        Join a game, then its Tables page); none: the title."""
        super().__init__(app, session)
        self.way_back = list(way_back)
        self.lost = False            # the server closed the connection while we waited
        self.asked: int | None = None
        self.sheet = pygame.Rect(0, 0, 0, 0)
        self._shape: tuple | None = None
        self.addresses: list[str] = []
        self.plaque = pygame.Rect(0, 0, 0, 0)
        self.you_top = 0
        self.hosting = app.server is not None
        self.mark = LinkMark()
        self.copied: str | None = None   # the game link copied to the clipboard (hosting), once it is
        self.words_rect = pygame.Rect(0, 0, 0, 0)   # where the router's answer is said (hosting)
        if self.hosting:
            from game.client.lan import lan_addresses
            self.addresses = lan_addresses()

    @property
    def is_head(self) -> bool:
        lobby = self.session.lobby
        return bool(lobby.head) and lobby.head == self.session.nickname

    @property
    def seating(self) -> bool:
        """Whether the head may put bots in the empty seats (a game of 2 or more is waiting)."""
        lobby = self.session.lobby
        return self.is_head and (lobby.players_count or 0) >= 2 and not self.lost

    def _seat_geometry(self) -> tuple[int, int, int, list[int]]:
        """(seats shown, pawn radius, y of the pawns' centres, x of each pawn's centre)."""
        lobby = self.session.lobby
        u = self.unit
        # the most a table seats until its number is chosen, then its seats (and, faded, anyone
        # waiting beyond them for the next game)
        seats = max(4, lobby.booked) if lobby.players_count is None else max(lobby.players_count, lobby.booked)
        r = round(24 * u)
        gap = round((118 if self.seating else 40) * u)
        total = seats * 2 * r + (seats - 1) * gap
        cx = self.sheet.centerx
        xs = [cx - total // 2 + r + i * (2 * r + gap) for i in range(seats)]
        return seats, r, self.sheet.y + round(36 * u) + round(r * 1.4), xs

    @property
    def choosing(self) -> bool:
        """Whether the count buttons are on screen."""
        return self.is_head and self.session.lobby.players_count is None and not self.lost

    def layout(self) -> None:
        w, h = self.app.size
        u = self.unit
        sw, sh = round(820 * u), round((400 if self.choosing or self.seating else 290) * u)
        self.plaque = pygame.Rect(0, 0, 0, 0)
        top = round(h * 0.25)
        if self.hosting or self.session.lobby.table:   # the address to share, or the table's name and code
            words = self._port_words_height()       # (the plaque a little lower, to leave room for them)
            self.plaque = pygame.Rect(w // 2 - round(300 * u), round(h * 0.19), round(600 * u),
                                      round((80 if words else 92) * u))
            top = self.plaque.bottom + round(22 * u) + words
            if self.hosting and self.app.server is not None:   # the address as a link, to send a friend
                from game.client.links import COPY_LINK, COPY_TIP, LINK_COPIED
                link = self.share_link()
                cw = round(150 * u)
                self.button("copy_link", pygame.Rect(self.plaque.right + round(14 * u), self.plaque.centery - round(22 * u),
                                                     cw, round(44 * u)),
                            _(LINK_COPIED if self.copied == link else COPY_LINK), "@quiet", tooltip=_(COPY_TIP).format(link=link))
        # under the sheet, a column that never overlaps: the "you are" line, then Leave/Stop hosting
        bw, bh = round(240 * u), round(48 * u)
        leave = pygame.Rect(w // 2 - bw // 2, h - round(110 * u), bw, bh)
        you_h = fonts.font(self._you_size(), "caps").get_height()
        gap = max(4, round(8 * u))
        self.sheet = pygame.Rect((w - sw) // 2, top, sw, min(sh, leave.y - 2 * gap - you_h - top))
        self.you_top = self.sheet.bottom + gap
        if self.choosing:
            bw, bh, gap = round(160 * u), round(54 * u), round(16 * u)
            total = 4 * bw + 3 * gap
            x = self.sheet.centerx - total // 2
            y = self.sheet.bottom - bh - round(54 * u)
            for i, (name, text, n) in enumerate(SEAT_CHOICES):
                tip = seat_choice_tip(n, max(1, self.session.lobby.booked))
                self.button(name, pygame.Rect(x + i * (bw + gap), y, bw, bh), _(text), tooltip=tip,
                            enabled=self.asked is None)
        if self.seating:
            lobby = self.session.lobby
            _seats, r, cy, xs = self._seat_geometry()
            bw, bh, gap = round(124 * u), round(28 * u), round(5 * u)
            top = cy + round(r * 2.6)   # quiet buttons in the body's type: "Medium bot" whole
            for i in range(lobby.booked, lobby.players_count or 0):
                if i >= len(xs):
                    break
                k = i - lobby.booked
                if k < len(lobby.bots):
                    # (no tooltip: it comes up under the pointer that just seated the bot, over
                    # the levels of the next seat)
                    self.button(f"unbot_{k}", pygame.Rect(xs[i] - bw // 2, top, bw, bh), _("Free the seat"),
                                "@quiet", enabled=self.asked is None)
                    continue
                if k > len(lobby.bots):
                    break              # the levels under the next free seat only: a bot sits where asked
                for j, (level, text) in enumerate(BOT_LEVELS):
                    self.button(f"bot_{i}_{level}", pygame.Rect(xs[i] - bw // 2, top + j * (bh + gap), bw, bh),
                                _(text), "@quiet", tooltip=_("Seat a computer player ({level}) here").format(
                                    level=bot_level(level)),
                                enabled=self.asked is None)
        label = _("Stop hosting") if self.app.server is not None else _("Leave")
        self.button("leave", leave, label, "@menu_quiet",
                    tooltip=_("Close the game server and go back to the title") if self.app.server else
                    _("Leave the waiting room"))
        self._shape = self._state()

    def _state(self) -> tuple:
        lobby = self.session.lobby
        return (self.choosing, self.seating, self.asked, self.lost, lobby.error, lobby.booked,
                lobby.players_count, tuple(lobby.bots), bool(lobby.table), self.port_words(short=True))

    def update(self, dt: float) -> None:
        if self._pump_lobby():
            return
        if self._state() != self._shape:
            self.ui.clear_and_reset()
            self.build()

    def _pump_lobby(self) -> bool:
        """Take the server's messages; True if the scene was replaced."""
        from .router import scene_for
        session = self.session
        msgs = session.pump()
        if any(m.get("type") == "ConnectionLost" for m in msgs) and not session.vm.has_game:
            self.lost = True
        if any(m.get("type") in ("ErrNewGame", "UpdateJoinGame") for m in msgs):
            self.asked = None
        if session.stage() != self.stage:
            nxt = scene_for(self.app, session)
            if nxt is not None:
                self.app.stack.replace(nxt)
                return True
        return False

    def leave(self) -> None:
        """Leave the waiting room: for the page the seat was asked from (see :attr:`way_back`), or
        the title (a host is asked first, while others wait at the table)."""
        app = self.app
        leave_game(app, self.session)
        if self.way_back and app.server is None:     # (nobody was asked: the title is on top)
            for name, args in self.way_back:
                app.stack.push(app.scene(name, *args))

    def seat_link(self):
        """How this seat reaches the server, as the mark beside "you are" shows it: encrypted (and
        to whom) or not; for the host, its own game's certificate when it serves TLS (the
        fingerprint its guests are shown), else nothing."""
        link = self.session.link
        return None if self.hosting and link is not None and not link.secure else link

    def share_link(self) -> str:
        """The game link to the table this app hosts (``mor://address:port``): at the router's
        outside address once it forwards the port, else at this computer's LAN address."""
        from game.client.flow.port_opening import share_link
        return share_link(self.app.server, self.addresses)

    def port_words(self, short: bool = False) -> str | None:
        """What the router did with the hosted port, in words (None: not hosting, or nothing to
        say); ``short``: the line under the link (the whole sentence shows while the pointer is on it)."""
        if not self.hosting or self.app.server is None:
            return None
        from game.client.flow.port_opening import port_mapping, port_words
        tls = self.app.server.tls_address
        return port_words(port_mapping(self.app.server), self.addresses, self.app.server.address[1],
                          asked=self.app.settings.open_port, short=short, tls=tls[1] if tls else None)

    def _port_words_lines(self) -> tuple[list[str], int]:
        words = self.port_words(short=True)
        small = max(11, round(17 * self.unit))
        if not words:
            return [], small
        return wrap(words, small, round(900 * self.unit), "italic"), small

    def _port_words_height(self) -> int:
        lines, small = self._port_words_lines()
        return round(len(lines) * small * 1.15) + (round(4 * self.unit) if lines else 0)

    def copy_link(self) -> None:
        """The hosted game's link, to the clipboard (the button says so; or why it could not)."""
        from pygame_gui.core.utility import clipboard_copy
        link = self.share_link()
        try:
            clipboard_copy(link)
        except pygame.error:        # no clipboard where this runs: the address on the page is still there
            from game.client.links import NO_CLIPBOARD
            self.session.lobby.error = _(NO_CLIPBOARD)
            return
        self.copied = link
        self.ui.clear_and_reset()
        self.build()

    def on_button(self, name: str) -> None:
        if name == "leave":
            self.leave()
            return
        if name == "copy_link":
            self.copy_link()
            return
        for key, _text, n in SEAT_CHOICES:
            if name == key and self.asked is None:
                self.asked = n
                self.session.lobby.error = None
                self.session.match.new_game(n)
        lobby = self.session.lobby
        if self.asked is None and lobby.players_count and (name.startswith("bot_") or name.startswith("unbot_")):
            bots = list(lobby.bots)
            if name.startswith("bot_"):
                bots.append(name.rsplit("_", 1)[1])
            else:
                k = int(name.split("_", 1)[1])
                bots = bots[:k] + bots[k + 1:]
            self.asked = lobby.players_count
            lobby.error = None
            from game.settings import BOT_PACES   # the player's pace for the bots' moves (botPace)
            pace = BOT_PACES.get(self.app.settings.bot_pace, BOT_PACES["normal"]) if bots else None
            self.session.match.new_game(lobby.players_count, bots, pace)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.leave()
        elif event.type == pygame.MOUSEMOTION:
            self.mark.pointer = event.pos

    # drawing -----------------------------------------------------------------------------
    def paint(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        u = self.unit
        title_block(surface, _("The waiting room"), None, w // 2, round(h * 0.06), u, size=64)
        lobby = self.session.lobby
        if self.hosting and self.app.server is not None:
            port = self.app.server.address[1]
            places = [f"{a}:{port}" for a in self.addresses[:2]]
            addr = (_("{one}   or   {other}").format(one=places[0], other=places[1]) if len(places) == 2 else
                    places[0] if places else _("127.0.0.1:{port} (no network found)").format(port=port))
            surface.blit(panel(self.plaque.w, self.plaque.h, u, (246, 232, 196)), self.plaque.topleft)
            announcer = getattr(self.app.server, "announcer", None)
            found = announcer is not None and announcer.problem is None   # announced on the network
            said = _("friends find this game in join, or type") if found else _("friends join by typing")
            cap = max(11, round(17 * u))
            k = tracked(said, cap, OXBLOOD, max(1, round(2 * u)))
            while k.get_width() > self.plaque.w - round(40 * u) and cap > 9:     # (Italian is longer; clear of the frame)
                cap -= 1
                k = tracked(said, cap, OXBLOOD, 1)
            surface.blit(k, k.get_rect(midtop=(self.plaque.centerx - round(3 * u), self.plaque.y + round(14 * u))))
            size = fonts.fit(addr, self.plaque.w - round(60 * u), max(14, round(34 * u)))
            img = fonts.render(addr, size, INK)
            surface.blit(img, img.get_rect(midtop=(self.plaque.centerx - round(3 * u),
                                                   self.plaque.y + round(14 * u) + k.get_height())))
            link = fonts.render(self.share_link(), max(10, round(16 * u)), SEPIA, "italic")   # the link to send
            surface.blit(link, link.get_rect(midtop=(self.plaque.centerx, self.plaque.bottom + round(2 * u))))
            lines, small = self._port_words_lines()        # what the router did with the port
            self.words_rect = pygame.Rect(0, 0, 0, 0)
            if lines:
                status = port_mapping_state(self.app.server)
                top = self.plaque.bottom + round(4 * u) + link.get_height()
                end = blit_lines(surface, lines, small, INK if status == "open" else OXBLOOD, w // 2, top, "italic",
                                 align="center", leading=1.15)
                wide = max(fonts.font(small, "italic").size(line)[0] for line in lines)
                self.words_rect = pygame.Rect(w // 2 - wide // 2, top, wide, end - top)
        elif lobby.table:
            self._paint_table(surface, lobby.table)
        surface.blit(panel(self.sheet.w, self.sheet.h, u), self.sheet.topleft)
        cx = self.sheet.centerx
        y = self.sheet.y + round(36 * u)
        # the seats: a pawn for each player waiting and each bot asked for, an empty place for
        # each seat still free
        seats, r, cy, xs = self._seat_geometry()
        filled = lobby.booked
        bots = lobby.bots if lobby.players_count is not None else []
        for i in range(seats):
            c = (xs[i], cy)
            bot = filled <= i < filled + len(bots)
            taken = (i < filled or bot) and not self.lost   # (the connection lost: nobody is known to wait)
            _pawn(surface, c, r, PAWN_COLOURS[i % 4] if taken else None,
                  lobby.players_count is not None and i >= lobby.players_count, u)
            names = lobby.players or ([lobby.head] if lobby.head else [])   # a reference server names the head only
            tag_text = None if not taken else names[i] if i < min(filled, len(names)) else (
                bot_seat(bots[i - filled]) if bot else None)
            if tag_text:
                tag = fonts.render(tag_text, max(11, round(17 * u)), SEPIA, "italic")
                surface.blit(tag, tag.get_rect(midtop=(c[0], c[1] + round(r * 1.55))))
        y += round(r * 2.9) + round(40 * u)
        if self.seating:
            y += round(100 * u)
        size = max(13, round(26 * u))
        small = max(12, round(21 * u))
        lines: list[tuple[str, tuple, str]] = []
        if self.lost:
            lines.append((_("The connection to the server was lost."), OXBLOOD, "regular"))
            lines.append((_("Leave, then join again when the host is back."), SEPIA, "italic"))
        elif lobby.booked == 0 and not lobby.head:
            lines.append((_("Joining the waiting room\u2026"), SEPIA, "italic"))
        else:
            n = lobby.booked
            waiting = ngettext("{n} player waiting", "{n} players waiting", n).format(n=n)
            if bots:
                waiting = _("{waiting} and {bots}").format(
                    waiting=waiting, bots=ngettext("{n} bot", "{n} bots", len(bots)).format(n=len(bots)))
            lines.append((waiting, INK, "regular"))
            if lobby.players_count is not None:
                c = lobby.players_count
                n += len(bots)
                if c == 1:
                    lines.append((_("A solo game against Lorenzo is starting\u2026"), SEPIA, "italic"))
                else:
                    more = max(0, c - n)
                    lines.append((ngettext("A game for {c} players: waiting for {n} more to join\u2026",
                                           "A game for {c} players: waiting for {n} more to join\u2026", more).format(
                        c=c, n=more) if more else _("A game for {c} players is starting\u2026").format(c=c),
                        SEPIA, "italic"))
            elif self.is_head and lobby.next_game:
                lines.append((_("The game at this table is already under way: you are first in line for the next "
                                "one. Choose how many play in it; it starts as soon as enough players wait."),
                              SEPIA, "italic"))
            elif self.is_head:
                lines.append((_("You choose how many play. The game starts as soon as enough players wait."),
                              SEPIA, "italic"))
            elif lobby.next_game:
                lines.append((_("The game at this table is already under way: you wait for the next one, "
                                "whose size {name} chooses\u2026").format(name=lobby.head or _("the first player")),
                              SEPIA, "italic"))
            else:
                lines.append((_("Waiting for {name} to choose the number of players\u2026").format(
                    name=lobby.head or _("the first player")), SEPIA, "italic"))
        for text, colour, style in lines:
            s = size if style == "regular" else small
            wrapped = wrap(text, s, self.sheet.w - round(90 * u), style)
            y = blit_lines(surface, wrapped, s, colour, cx, y, style, align="center") + round(4 * u)
        if lobby.error:
            err = wrap(lobby.error, small, self.sheet.w - round(90 * u), "italic")
            blit_lines(surface, err, small, OXBLOOD, cx, y + round(4 * u), "italic", align="center")
        if self.choosing:
            k = tracked(_("how many players?"), max(11, round(18 * u)), FADED, max(1, round(2 * u)))
            surface.blit(k, k.get_rect(midbottom=(cx, self.sheet.bottom - round(118 * u))))
        you = tracked(_("you are {name}").format(name=self.session.nickname), self._you_size(), FADED, max(1, round(2 * u)))
        link = self.seat_link()
        size = max(11, round(self._you_size() * 1.05))
        gap = round(22 * u) if link is not None else 0
        mark_w = self.mark.surface(link, size).get_width() if link is not None else 0
        x = cx - (you.get_width() + gap + mark_w) // 2
        surface.blit(you, (x, self.you_top))
        self.mark.paint(surface, link, size, midleft=(x + you.get_width() + gap, self.you_top + you.get_height() // 2))
        self.mark.paint_tip(surface, u)
        pointer = self.mark.pointer
        if pointer is not None and self.words_rect.collidepoint(pointer):   # the whole sentence, and what to do
            from .link_mark import tip
            tip(surface, self.port_words() or "", self.words_rect, u)

    def _paint_table(self, surface: pygame.Surface, table: dict) -> None:
        """The plaque of a named table: its name, and the invite code of a private one (to share)."""
        u = self.unit
        p = self.plaque
        surface.blit(panel(p.w, p.h, u, (246, 232, 196)), p.topleft)
        name = str(table.get("name") or "")
        code = table.get("code") if table.get("private") else None
        kicker = _("{table}  \u00b7  private: share its invite code").format(table=name) if code else \
            pgettext("kicker", "table")
        k = tracked(kicker, max(11, round(17 * u)), OXBLOOD, max(1, round(2 * u)))
        if k.get_width() > p.w - round(30 * u):
            k = tracked(_("private table: share its invite code"), max(11, round(17 * u)), OXBLOOD, max(1, round(2 * u)))
        surface.blit(k, k.get_rect(midtop=(p.centerx, p.y + round(14 * u))))
        text = str(code) if code else name
        size = fonts.fit(text, p.w - round(60 * u), max(14, round(34 * u)))
        img = fonts.render(text, size, INK)
        surface.blit(img, img.get_rect(midtop=(p.centerx, p.y + round(14 * u) + k.get_height())))

    def _you_size(self) -> int:
        return max(10, round(17 * self.unit))


PAWN_COLOURS = [(178, 52, 40), (40, 96, 160), (46, 122, 70), (150, 104, 24)]


def _pawn(surface: pygame.Surface, c: tuple[int, int], r: int, colour, unused: bool, u: float) -> None:
    """A wooden pawn (a head on a bell-shaped body) for a taken seat; a dashed outline for a free one."""
    k = 4
    size = (round(r * 2.4) * k, round(r * 3.0) * k)
    big = pygame.Surface(size, pygame.SRCALPHA)
    R = r * k
    cx = size[0] // 2
    head_c = (cx, round(R * 0.62))
    body = [(cx - R * 0.95, size[1] - R * 0.18), (cx - R * 0.55, R * 1.35), (cx - R * 0.3, R * 1.05),
            (cx + R * 0.3, R * 1.05), (cx + R * 0.55, R * 1.35), (cx + R * 0.95, size[1] - R * 0.18)]
    if colour is None:
        edge = (*FADED, 120) if unused else (*SEPIA, 200)
        fill = (0, 0, 0, 0) if unused else (236, 222, 192, 255)
        pygame.draw.polygon(big, fill, body)
        pygame.draw.circle(big, fill, head_c, round(R * 0.52))
        pygame.draw.polygon(big, edge, body, max(2, round(2 * u * k)))
        pygame.draw.circle(big, edge, head_c, round(R * 0.52), max(2, round(2 * u * k)))
    else:
        dark = tuple(max(0, round(v * 0.6)) for v in colour)
        shadow = [(x + R * 0.12, y + R * 0.12) for x, y in body]
        pygame.draw.polygon(big, (*dark, 255), shadow)
        pygame.draw.polygon(big, (*colour, 255), body)
        pygame.draw.circle(big, (*dark, 255), (head_c[0] + round(R * 0.1), head_c[1] + round(R * 0.1)), round(R * 0.52))
        pygame.draw.circle(big, (*colour, 255), head_c, round(R * 0.52))
        light = tuple(min(255, round(v + (255 - v) * 0.45)) for v in colour)
        pygame.draw.circle(big, (*light, 200), (head_c[0] - round(R * 0.18), head_c[1] - round(R * 0.18)), round(R * 0.16))
        pygame.draw.polygon(big, (*dark, 255), body, max(2, round(1.5 * u * k)))
        base = pygame.Rect(0, 0, round(R * 2.1), round(R * 0.36))
        base.midbottom = (cx, size[1] - round(R * 0.04))
        pygame.draw.ellipse(big, (*dark, 255), base)
    img = pygame.transform.smoothscale(big, (size[0] // k, size[1] // k))
    surface.blit(img, img.get_rect(center=c))
