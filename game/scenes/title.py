"""The title page: every unfinished game first (the LAN game this computer hosts, the seats kept
at servers, the saved games here), then a new game, hosting, joining, past games, help, settings.

What each entry asks before it replaces anything, and the words of the seats kept at servers,
come from the app's flow (:mod:`game.client.flow`): the text client's menu asks the same.
"""
from __future__ import annotations

import logging

import pygame

from game.client.flow.hosting import end_kept_hosted_game, host_question
from game.client.flow.local import new_solo_question, start_new_solo
from game.client.flow.seats import KeptSeat, choose_seat_question, kept_seats, title_entry
from game.client.games import bots_save_path, continue_tip, describe_solo_save, sample_view
from game.client.my_games import turn_servers
from game import i18n
from game.i18n import N_, _

from .art import fonts
from .asking import ask
from .backdrop import OXBLOOD, SEPIA, PaintedScene, blit_lines, glow, title_block, tracked, wrap
from .nickname import check_nickname

log = logging.getLogger("mor.title")

TITLE = N_("Masters of Renaissance")
MENU_TEXT_MAX = 415
"""The widest words of a title entry, in design pixels at the menu's type (26): its buttons widen
to hold them up to this, and stay clear of the art on either side."""
KICKER = N_("A digital edition of the board game")


class TitleScene(PaintedScene):
    """The title page: play solo (or continue), host, join, settings, quit."""

    def __init__(self, app) -> None:
        super().__init__(app)
        self.message: str | None = None
        self.mouse: tuple[int, int] | None = None
        self.captions: dict[str, str] = {}
        self.caption_y = 0
        self.caption_rect: pygame.Rect | None = None
        self.seats: list[KeptSeat] = []   # the games on servers that keep a seat for this player

    def layout(self) -> None:
        w, h = self.app.size
        u = self.unit
        items = []
        from .hosting import hosted_game_open
        # every unfinished game first, each taking the player straight back to it
        if hosted_game_open(self.app):   # hosted now (the host left the table), or kept to be hosted again
            items.append(("return", _("Return to your LAN game"), _("Back to your seat at the game you host")
                          if self.app.server is not None else _("Host your unfinished game again and take your seat back")))
        server = self.app.server
        self.seats = kept_seats(self.app.data_dir, server.address[1] if server is not None else None)
        entry = title_entry(self.seats)       # every one of them: the seat, or a list of them
        if entry is not None:
            label, tip = entry
            if fonts.font(26).size(label)[0] > MENU_TEXT_MAX:      # a long host name
                where = self.seats[0].where
                back = _("Return to {where}").format(where=where)
                label = back if fonts.font(26).size(back)[0] <= MENU_TEXT_MAX else _("Return to your game on its server")
            items.append(("rejoin", label, tip))
        if turn_servers(self.app.data_dir):   # turn-based games somewhere: theirs, your move first
            items.append(("my_games", _("My games"), _("Your games on the servers you play on, your move first")))
        solo_saved = self.app.solo_save_path.exists()
        if solo_saved:
            items.append(("continue", _("Continue solo game"), _("Pick up your saved game against Lorenzo")))
        versus_saved = bots_save_path(self.app).exists()
        if versus_saved:
            items.append(("continue_versus", _("Continue the game against the computer"),
                          continue_tip(bots_save_path(self.app), self.app.config)))
        asked = " " + _("(you will be asked about the saved one)")
        items += [("solo", _("Play solo"), _("A new game against Lorenzo il Magnifico") + (asked if solo_saved else "")),
                  ("versus", _("Play against the computer"), _("You and 1 to 3 computer players, on this computer")
                   + (asked if versus_saved else "")),
                  ("host", _("Host a LAN game"), _("Open a game on this computer for friends on your network")),
                  ("join", _("Join a game"), _("Join a friend's game, found on your network")),
                  ("past", _("Past games"), _("Go through a finished game again, move by move; open a game file")),
                  ("help", _("How to play"), _("The rules in eight short pages")),
                  ("settings", _("Settings"), _("Your nickname, the window, sound, the language, the port you "
                                                "host on")),
                  ("quit", _("Quit"), None)]
        self.captions = {name: tip for name, _text, tip in items if tip}
        widest = max(fonts.font(26).size(text)[0] for _name, text, _tip in items)
        bw, bh, gap = round(min(max(360, widest + 40), MENU_TEXT_MAX + 35) * u), round(50 * u), round(12 * u)
        cx = w // 2 + max(0, bw - round(420 * u)) // 2      # a wide column leans away from the cards
        top = round(h * 0.36)
        quiet = ("past", "help", "settings", "quit")
        row = [item for item in items if item[0] in quiet] if len(items) > 8 else []
        column = [item for item in items if item not in row]   # many unfinished games: the quiet ones in a row
        small_gap = round(8 * u)

        def widths(line: list) -> list[int]:      # each as wide as its words and its frame, never less
            return [fonts.font(20).size(text)[0] + 20 for _name, text, _tip in line]
        lines = [row] if row else []
        if row and sum(widths(row)) + small_gap / u * (len(row) - 1) > bw / u:   # (Italian): two rows of two
            lines = [row[:2], row[2:]]
        n = len(column) + len(lines)
        if n >= 7:
            top = round(h * {7: 0.34, 8: 0.31}.get(n, 0.29))
            bh, gap = round({7: 50, 8: 45}.get(n, 42) * u), round({7: 12, 8: 9}.get(n, 8) * u)
        rects = self.column(cx, top, bw, bh, gap, len(column))
        for (name, text, _tip), rect in zip(column, rects):   # what a button does is said under the menu
            self.button(name, rect, text, "@menu_quiet" if name in quiet else "@menu")
        if lines:
            x0, y = rects[0].x, rects[-1].bottom + gap
            for line in lines:
                words = widths(line)
                spare = (bw / u - small_gap / u * (len(line) - 1) - sum(words)) / len(line)
                x = x0
                for (name, text, _tip), width in zip(line, words):
                    rect = pygame.Rect(x, y, round((width + spare) * u), round(bh * 0.85))
                    x = rect.right + small_gap
                    rects.append(rect)
                    self.button(name, rect, text, "@quiet")
                y = rects[-1].bottom + small_gap
        self.caption_y = rects[-1].bottom + round(16 * u)

    def resume(self) -> None:
        """Back on top (from a page or a question over it): the pointer moved meanwhile, so the
        caption follows where it is now, not the entry it last crossed here."""
        super().resume()
        self.mouse = pygame.mouse.get_pos() if pygame.mouse.get_focused() else None

    def hovered(self) -> str | None:
        """The menu entry under the pointer, if any."""
        if self.mouse is None:
            return None
        for name, widget in self.widgets.items():
            if widget.rect.collidepoint(self.mouse) and widget.visible:
                return name
        return None

    def paint(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        u = self.unit
        _title_art(surface, self.app, u)
        title_block(surface, _(TITLE), _(KICKER), w // 2, round(h * 0.085), u, size=88)
        footer = tracked(_("playing as {name}  \u00b7  esc quits").format(name=self.app.settings.nickname),
                         max(10, round(18 * u)), (150, 120, 86), max(1, round(2 * u)))
        footer_rect = footer.get_rect(midbottom=(w // 2, h - round(52 * u)))
        caption = self.captions.get(self.hovered() or "")
        self.caption_rect = None
        below = self.caption_y            # the free space under the menu
        if self.message:                  # a problem is said there first, in full
            size = max(12, round(20 * u))
            lines = wrap(self.message, size, round(w * 0.7), "italic")
            below = blit_lines(surface, lines, size, OXBLOOD, w // 2, below, "italic", align="center")
        if caption:   # never over another entry (a tooltip would cover the one below)
            img = fonts.render(caption, max(12, round(20 * u)), SEPIA, "italic")
            rect = img.get_rect(midtop=(w // 2, below))
            if rect.bottom > footer_rect.top - round(4 * u):   # no room above the footer: in its place
                rect = img.get_rect(midbottom=footer_rect.midbottom)
                footer = None
            surface.blit(img, rect)
            self.caption_rect = rect
        if footer is not None:
            surface.blit(footer, footer_rect)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        elif event.type == pygame.WINDOWLEAVE:
            self.mouse = None
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.quit()

    def on_button(self, name: str) -> None:
        app = self.app
        if name == "quit":
            app.quit()
        elif name == "settings":
            app.stack.push(app.scene("settings"))
        elif name == "help":
            app.stack.push(app.scene("help"))
        elif name == "past":
            app.stack.push(app.scene("past_games"))
        elif name == "my_games":
            self.app.stack.push(self.app.scene("my_games"))
        elif name == "join":
            app.stack.push(app.scene("join"))
        elif name == "return":             # hosting again brings back the game it keeps
            app.stack.push(app.scene("host"))
        elif name == "host":
            self.ask_host()
        elif name == "rejoin" and self.seats:   # joining again with the seat's token
            self.rejoin()
        elif name == "continue_versus":
            versus = app.scene("versus")
            app.stack.push(versus)
            if versus.saved:              # straight back to the board; a problem is said on that page
                versus.open(resume=True)
        elif name == "solo":
            self.ask_solo()
        elif name == "versus":
            app.stack.push(app.scene("versus"))
        elif name == "continue":
            if describe_solo_save(app.config, app.solo_save_path) is None:
                self.ask_solo()     # it cannot be opened: say so, and offer a new game
            else:
                self.start_solo(resume=True)

    def rejoin(self) -> None:
        """Back to a seat kept at a server: the one there is, or the one chosen from the list."""
        app = self.app
        if len(self.seats) == 1:
            app.stack.push(app.scene("join", rejoin=self.seats[0]))
            return
        seats = {s.key: s for s in self.seats}

        def then(answer: str) -> None:
            if answer in seats:
                app.stack.push(app.scene("join", rejoin=seats[answer]))
        ask(app, choose_seat_question(self.seats), then)

    def ask_host(self) -> None:
        """Open a table. With a hosted game kept unfinished on this computer (not hosted now),
        ask first: continue it, or end it and open a new table (hosting always brings back the
        games it keeps, so a new table means ending the old game)."""
        app = self.app
        me = app.settings.nickname.strip()
        question = host_question(app.data_dir, me) if app.server is None else None
        if question is None:
            app.stack.push(app.scene("host"))
            return

        def then(answer: str) -> None:
            if answer == "continue":
                app.stack.push(app.scene("host"))
            elif answer == "new":
                problem = end_kept_hosted_game(app.data_dir, me)
                if problem:
                    log.warning("cannot end the hosted game: %s", problem)
                    self.message = problem
                    return
                app.stack.push(app.scene("host"))
        ask(app, question, then)

    def ask_solo(self) -> None:
        """A new solo game; if one is saved, first ask whether to continue it or lose it."""
        question = new_solo_question(self.app.config, self.app.solo_save_path)
        if question is None:
            self.start_solo(resume=False)
            return

        def then(answer: str) -> None:
            if answer == "continue":
                self.start_solo(resume=True)
            elif answer == "new":
                self.start_solo(resume=False)
        ask(self.app, question, then)

    def start_solo(self, resume: bool) -> None:
        """Start (or resume) the solo game and go to the screen it is at."""
        from game.client.games import GameNotOpened, open_solo

        from .router import scene_for

        app = self.app
        try:
            if resume:
                session = open_solo(app.config, app.solo_save_path)
            else:
                nick = app.settings.nickname.strip()
                if check_nickname(nick):
                    nick = "Player"
                session = start_new_solo(app.config, app.solo_save_path, nick)
        except (GameNotOpened, OSError) as e:
            log.warning("cannot start the solo game: %s", e)
            self.message = (_("The saved solo game could not be opened ({why}). Start a new one with Play solo.")
                            if resume else _("The solo game could not start: {why}")).format(why=e)
            return
        session.pump()
        app.stack.reset(scene_for(app, session))


def _title_art(surface: pygame.Surface, app, u: float) -> None:
    """Fanned leader cards on the left and a handful of marbles on the right of the menu."""
    w, h = surface.get_size()
    key = (w, h, i18n.current())     # (the cards' ribbons say their word from 250 px up)
    art = _TITLE_ART.get(key)
    if art is None:
        art = _paint_title_art((w, h), app, u)
        _TITLE_ART.clear()
        _TITLE_ART[key] = art
    surface.blit(art, (0, 0))


_TITLE_ART: dict[tuple[int, int, str], pygame.Surface] = {}


def _paint_title_art(size: tuple[int, int], app, u: float) -> pygame.Surface:
    w, h = size
    layer = pygame.Surface(size, pygame.SRCALPHA)
    try:
        from .art import leader_cards, marbles
        view = sample_view(app.config)
    except Exception:   # the art is decoration: a missing piece never stops the menu
        log.exception("title art unavailable")
        return layer
    prods = {p["id"]: p for p in view["productions"]}
    leaders = view["leaderCards"]
    # a fan of three leader cards on the left
    ch = round(min(h * 0.32, 250 * u))
    picks = [leaders[i % len(leaders)] for i in (2, 9, 13)]
    cx, cy = round(w * 0.185), round(h * 0.6)
    for i, ld in enumerate(picks):
        card = leader_cards.leader_card(ld, prods, ch)
        img = pygame.transform.rotozoom(card, (1 - i) * 12, 1)
        pos = (cx + (i - 1) * round(ch * 0.3), cy + abs(i - 1) * round(ch * 0.05))
        shadow = _shadow_of(img, round(10 * u))
        layer.blit(shadow, shadow.get_rect(center=(pos[0] + round(5 * u), pos[1] + round(8 * u))))
        layer.blit(img, img.get_rect(center=pos))
    # the market on the right: a walnut tray of twelve marbles and the one waiting to slide in
    d = round(min(h * 0.06, 46 * u))
    step = round(d * 1.18)
    pad = round(d * 0.45)
    tray = pygame.Rect(0, 0, 4 * step + 2 * pad, 3 * step + 2 * pad)
    tray.center = (round(w * 0.815), round(h * 0.58))
    shadow = glow(tray.size, round(12 * u), (40, 24, 10), round(16 * u))
    layer.blit(shadow, shadow.get_rect(center=(tray.centerx + round(5 * u), tray.centery + round(8 * u))))
    pygame.draw.rect(layer, (96, 60, 34), tray, border_radius=round(12 * u))
    pygame.draw.rect(layer, (70, 42, 22), tray.inflate(-round(10 * u), -round(10 * u)), border_radius=round(8 * u))
    pygame.draw.rect(layer, (176, 134, 58), tray, max(1, round(2 * u)), border_radius=round(12 * u))
    kinds = ["Zero", "Coin", "Shield", "Zero", "Servant", "Stone", "Faith", "Coin", "Stone", "Zero", "Servant",
             "Shield"]
    for k, kind in enumerate(kinds):
        r, c = divmod(k, 4)
        m = marbles.marble(kind, d)
        layer.blit(m, m.get_rect(center=(tray.x + pad + step * c + step // 2, tray.y + pad + step * r + step // 2)))
    slide = marbles.marble("Zero", d)
    layer.blit(slide, slide.get_rect(center=(tray.right + round(d * 0.2), tray.y - round(d * 0.25))))
    return layer


def _shadow_of(img: pygame.Surface, blur: int) -> pygame.Surface:
    """A soft shadow of ``img``'s shape, ``blur`` pixels wider on each side."""
    mask = pygame.mask.from_surface(img, 8)
    sw, sh = img.get_size()
    padded = pygame.Surface((sw + 4 * blur, sh + 4 * blur), pygame.SRCALPHA)
    padded.blit(mask.to_surface(setcolor=(40, 24, 10, 90), unsetcolor=(0, 0, 0, 0)), (2 * blur, 2 * blur))
    k = max(2, blur)
    small = pygame.transform.smoothscale(padded, (max(1, padded.get_width() // k), max(1, padded.get_height() // k)))
    return pygame.transform.smoothscale(small, padded.get_size())

