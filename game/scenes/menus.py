"""The menu scenes: title, settings, hosting a LAN game and joining one by address.

None of them blocks a frame: the server starts on its own thread, and joining connects on a
short-lived thread (:class:`game.client.tables.Seating`) whose answer :meth:`JoinScene.update`
follows.
"""
from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui

from game.client.address import check_port, describe_bind_error, hostport, parse_address
from game.client.games import bots_save_path, describe_solo_save, sample_view, saved_summary
from game.client.lan import lan_addresses
from game.client.words import NICKNAME_MAX, joined
from game.settings import BOT_PACES, GAME_PORT

from .app import WINDOW_SIZES, fits, largest_fitting
from .art import fonts
from .backdrop import (FADED, INK, OXBLOOD, SEPIA, PaintedScene, blit_lines, glow, panel, title_block,
                       tracked, wrap)
from .nickname import check_nickname

if TYPE_CHECKING:
    from game.client.tables import Seating
    from game.match import RemoteMatch

log = logging.getLogger("mor.menus")

TITLE = "Masters of Renaissance"
MENU_TEXT_MAX = 415
"""The widest words of a title entry, in design pixels at the menu's type (26): its buttons widen
to hold them up to this, and stay clear of the art on either side."""
KICKER = "A digital edition of the board game"



def size_label(size: tuple[int, int]) -> str:
    return f"{size[0]} \u00d7 {size[1]}"


# ---------------------------------------------------------------------------- title
class TitleScene(PaintedScene):
    """The title page: play solo (or continue), host, join, settings, quit."""

    def __init__(self, app) -> None:
        super().__init__(app)
        self.message: str | None = None
        self.mouse: tuple[int, int] | None = None
        self.captions: dict[str, str] = {}
        self.caption_y = 0
        self.caption_rect: pygame.Rect | None = None
        self.seat: tuple[str, dict] | None = None   # a game on a server to return to (see remote_seat)

    def layout(self) -> None:
        w, h = self.app.size
        u = self.unit
        items = []
        from .hosting import hosted_game_open
        # every unfinished game first, each taking the player straight back to it
        if hosted_game_open(self.app):   # hosted now (the host left the table), or kept to be hosted again
            items.append(("return", "Return to your LAN game", "Back to your seat at the game you host"
                          if self.app.server is not None else "Host your unfinished game again and take your seat back"))
        self.seat = remote_seat(self.app)
        if self.seat is not None:
            record = self.seat[1]
            players = [n for n in record.get("players") or () if n != record["nickname"]]
            where = hostport(record["host"], record["port"])
            label = f"Return to your game at {where}"
            if fonts.font(26).size(label)[0] > MENU_TEXT_MAX:      # a long host name
                label = f"Return to {where}" if fonts.font(26).size(f"Return to {where}")[0] <= MENU_TEXT_MAX \
                    else "Return to your game on its server"
            items.append(("rejoin", label,
                          f"Back to your seat as {record['nickname']}"
                          + (f", with {joined(players)}" if players else "")))
        solo_saved = self.app.solo_save_path.exists()
        if solo_saved:
            items.append(("continue", "Continue solo game", "Pick up your saved game against Lorenzo"))
        versus_saved = bots_save_path(self.app).exists()
        if versus_saved:
            summary, problem = saved_summary(bots_save_path(self.app), self.app.config)
            items.append(("continue_versus", "Continue the game against the computer",
                          (summary or problem or "").replace(" is saved.", ", saved where you left it.")))
        items += [("solo", "Play solo", "A new game against Lorenzo il Magnifico"
                   + (" (you will be asked about the saved one)" if solo_saved else "")),
                  ("versus", "Play against the computer", "You and 1 to 3 computer players, on this computer"
                   + (" (the saved game is kept unless you choose to replace it)" if versus_saved else "")),
                  ("host", "Host a LAN game", "Open a game on this computer for friends on your network"),
                  ("join", "Join a game", "Join a friend's game, found on your network"),
                  ("past", "Past games", "Go through a finished game again, move by move; open a game file"),
                  ("help", "How to play", "The rules in eight short pages"),
                  ("settings", "Settings", "Your nickname, the window, sound, the port you host on"),
                  ("quit", "Quit", None)]
        self.captions = {name: tip for name, _text, tip in items if tip}
        widest = max(fonts.font(26).size(text)[0] for _name, text, _tip in items)
        bw, bh, gap = round(min(max(360, widest + 40), MENU_TEXT_MAX + 35) * u), round(50 * u), round(12 * u)
        cx = w // 2 + max(0, bw - round(420 * u)) // 2      # a wide column leans away from the cards
        top = round(h * 0.36)
        quiet = ("past", "help", "settings", "quit")
        row = [item for item in items if item[0] in quiet] if len(items) > 8 else []
        column = [item for item in items if item not in row]   # many unfinished games: the quiet ones in a row
        n = len(column) + (1 if row else 0)
        if n >= 7:
            top = round(h * {7: 0.34, 8: 0.31}.get(n, 0.29))
            bh, gap = round({7: 50, 8: 45}.get(n, 42) * u), round({7: 12, 8: 9}.get(n, 8) * u)
        rects = self.column(cx, top, bw, bh, gap, len(column))
        for (name, text, _tip), rect in zip(column, rects):   # what a button does is said under the menu
            self.button(name, rect, text, "@menu_quiet" if name in quiet else "@menu")
        if row:
            small_gap = round(8 * u)
            words = [fonts.font(20).size(text)[0] + 20 for _name, text, _tip in row]   # each as wide as its words
            spare = (bw / u - small_gap / u * (len(row) - 1) - sum(words)) / len(row)
            x, y = rects[0].x, rects[-1].bottom + gap
            for (name, text, _tip), width in zip(row, words):
                rect = pygame.Rect(x, y, round((width + spare) * u), round(bh * 0.85))
                x = rect.right + small_gap
                rects.append(rect)
                self.button(name, rect, text, "@quiet")
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
        title_block(surface, TITLE, KICKER, w // 2, round(h * 0.085), u, size=88)
        footer = tracked(f"playing as {self.app.settings.nickname}  \u00b7  esc quits",
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
            app.stack.push(SettingsScene(app))
        elif name == "help":
            app.stack.push(app.scene("help"))
        elif name == "past":
            app.stack.push(app.scene("past_games"))
        elif name == "join":
            app.stack.push(JoinScene(app))
        elif name == "return":             # hosting again brings back the game it keeps
            app.stack.push(HostScene(app))
        elif name == "host":
            self.ask_host()
        elif name == "rejoin" and self.seat is not None:   # joining again with the seat's token
            app.stack.push(JoinScene(app, rejoin=self.seat))
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

    def ask_host(self) -> None:
        """Open a table. With a hosted game kept unfinished on this computer (not hosted now),
        ask first: continue it, or end it and open a new table (hosting always brings back the
        games it keeps, so a new table means ending the old game)."""
        app = self.app
        from game.client.lan import end_saved_hosted_games, saved_hosted_games
        me = app.settings.nickname.strip()
        kept = saved_hosted_games(app.data_dir / "server", me) if app.server is None else []
        if not kept:
            app.stack.push(HostScene(app))
            return
        others = sorted({n for _path, people in kept for n in people if n != me})
        text = ("Your LAN game" + (f" with {joined(others)}" if others else "") + " is kept on this computer, "
                "and hosting brings it back as it was. Continue it, or end it for good and "
                "open a new table" + (f" ({joined(others)} cannot take {'their seats' if len(others) > 1 else 'a seat'} "
                                      "in it again)." if others else "."))

        def then(answer: str) -> None:
            if answer == "continue":
                app.stack.push(HostScene(app))
            elif answer == "new":
                try:
                    end_saved_hosted_games(app.data_dir / "server", me)
                except OSError as e:
                    log.warning("cannot end the hosted game: %s", e)
                    self.message = f"The old game could not be ended ({e.strerror or e}); it is kept."
                    return
                app.stack.push(HostScene(app))
        app.stack.push(app.scene("ask", "Your LAN game is not finished", text,
                                   [("continue", "Continue it", None), ("new", "New table, end it", None),
                                    ("cancel", "Cancel", None)], then, default="continue"))

    def ask_solo(self) -> None:
        """A new solo game; if one is saved, first ask whether to continue it or lose it."""
        app = self.app
        if not app.solo_save_path.exists():
            self.start_solo(resume=False)
            return
        what = describe_solo_save(app.config, app.solo_save_path)

        def then(answer: str) -> None:
            if answer == "continue":
                self.start_solo(resume=True)
            elif answer == "new":
                self.start_solo(resume=False)
        if what is None:
            title = "Your saved solo game cannot be opened"
            text = ("The saved game cannot be opened: the file is damaged, or was saved by another version. "
                    "Starting a new game puts it aside (as solo-game.damaged.json) and saves the new one in "
                    "its place.")
            answers = [("new", "Start a new game", None), ("cancel", "Cancel", None)]
        else:
            title = "You have a solo game saved"
            text = (f"{what} Starting a new game replaces it: the saved game is lost.")
            answers = [("continue", "Continue it", None), ("new", "New game, lose it", None),
                       ("cancel", "Cancel", None)]
        app.stack.push(app.scene("ask", title, text, answers, then, warning=True))

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
                if app.solo_save_path.exists() and describe_solo_save(app.config, app.solo_save_path) is None:
                    app.solo_save_path.replace(app.solo_save_path.with_suffix(".damaged.json"))
                session = open_solo(app.config, app.solo_save_path, nick)
        except (GameNotOpened, OSError) as e:
            log.warning("cannot start the solo game: %s", e)
            self.message = (f"The saved solo game could not be opened ({e}). Start a new one with Play solo."
                            if resume else f"The solo game could not start: {e}")
            return
        session.pump()
        app.stack.reset(scene_for(app, session))


def remote_seat(app) -> tuple[str, dict] | None:
    """The newest game on a server (or a friend's LAN table) this install has a seat in and that
    has not ended, as (seat key, record); the seat's token is kept beside it (see RemoteMatch)."""
    from game.match import unfinished_games
    for key, record in unfinished_games(app.data_dir / "unfinished-games.json"):
        server = app.server
        if server is not None and record["port"] == server.address[1] and \
                record["host"] in ("127.0.0.1", "localhost", "::1"):
            continue                  # the game this app hosts: "Return to your LAN game"
        return key, record
    return None


def _title_art(surface: pygame.Surface, app, u: float) -> None:
    """Fanned leader cards on the left and a handful of marbles on the right of the menu."""
    w, h = surface.get_size()
    art = _TITLE_ART.get((w, h))
    if art is None:
        art = _paint_title_art((w, h), app, u)
        _TITLE_ART.clear()
        _TITLE_ART[(w, h)] = art
    surface.blit(art, (0, 0))


_TITLE_ART: dict[tuple[int, int], pygame.Surface] = {}


def _paint_title_art(size: tuple[int, int], app, u: float) -> pygame.Surface:
    w, h = size
    layer = pygame.Surface(size, pygame.SRCALPHA)
    try:
        from .art import cards, marbles
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
        card = cards.leader_card(ld, prods, ch)
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


# ---------------------------------------------------------------------------- settings
class SettingsScene(PaintedScene):
    """Nickname, window, sound, turn confirmation and server port; saved with ``Settings.save``."""

    TOGGLES = (("fullscreen", "Full screen"), ("sound", "Sound"), ("confirm_end_turn", "Confirm end of turn"))

    def __init__(self, app) -> None:
        super().__init__(app)
        s = app.settings
        self.draft: dict[str, Any] = {
            "nickname": s.nickname, "window_size": tuple(s.window_size), "fullscreen": s.fullscreen,
            "sound": s.sound, "confirm_end_turn": s.confirm_end_turn, "server_port": str(s.server_port),
            "bot_pace": s.bot_pace,
        }
        if not s.fullscreen:           # the window as it is now (e.g. started with --size WxH)
            self.draft["window_size"] = tuple(app.size)
        elif not fits(self.draft["window_size"], app.screen_size):   # saved on a larger screen
            self.draft["window_size"] = largest_fitting(app.screen_size)
        self.errors: dict[str, str] = {}
        self.status: str | None = None
        self.rows: dict[str, pygame.Rect] = {}
        self.sheet = pygame.Rect(0, 0, 0, 0)

    def sizes(self) -> list[tuple[int, int]]:
        """The window sizes that fit this screen (with the window's frame), and the current one."""
        screen = self.app.screen_size
        out = [s for s in WINDOW_SIZES if fits(s, screen)] or WINDOW_SIZES[:1]
        current = self.draft["window_size"]
        if current not in out and (fits(current, screen) or current == tuple(self.app.size)):
            out.append(self.draft["window_size"])
            out.sort()
        return out

    def layout(self) -> None:
        w, h = self.app.size
        u = self.unit
        sw, sh = round(820 * u), round(620 * u)
        self.sheet = pygame.Rect((w - sw) // 2, round(h * 0.2), sw, min(sh, h - round(h * 0.2) - round(40 * u)))
        label_x = self.sheet.x + round(50 * u)
        field_x = self.sheet.x + round(330 * u)
        row_h, gap = round(44 * u), round(20 * u)
        y = self.sheet.y + round(36 * u)
        self.rows = {}
        order = ["nickname", "window_size", "fullscreen", "sound", "confirm_end_turn", "bot_pace", "server_port"]
        for key in order:
            self.rows[key] = pygame.Rect(label_x, y, field_x - label_x, row_h)
            field = pygame.Rect(field_x, y, round(250 * u), row_h)
            if key == "nickname":
                self.entry("nickname", field, self.draft["nickname"], limit=NICKNAME_MAX + 8)
            elif key == "server_port":
                self.entry("server_port", pygame.Rect(field_x, y, round(140 * u), row_h), self.draft["server_port"], 5)
            elif key == "bot_pace":
                self.button("bot_pace", pygame.Rect(field_x, y, round(120 * u), row_h),
                            self.draft["bot_pace"].capitalize(), "@menu_quiet")
            elif key == "window_size":
                options = [size_label(s) for s in self.sizes()]
                dd = pygame_gui.elements.UIDropDownMenu(options, size_label(self.draft["window_size"]), field,
                                                        self.ui)
                _full_width_list(dd)
                self.widgets["window_size"] = dd
            else:
                on = self.draft[key]
                b = self.button(key, pygame.Rect(field_x, y, round(120 * u), row_h), "On" if on else "Off",
                                "@menu" if on else "@menu_quiet")
                b.set_text("On" if on else "Off")
            y += row_h + gap
        by = self.sheet.bottom - round(80 * u)
        bw, bh = round(180 * u), round(48 * u)
        self.button("save", pygame.Rect(self.sheet.centerx - bw - round(10 * u), by, bw, bh), "Save")
        self.button("back", pygame.Rect(self.sheet.centerx + round(10 * u), by, bw, bh), "Back", "@menu_quiet")

    def paint(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        u = self.unit
        title_block(surface, "Settings", None, w // 2, round(h * 0.06), u, size=64)
        surface.blit(panel(self.sheet.w, self.sheet.h, u), self.sheet.topleft)
        labels = {"nickname": "Nickname", "window_size": "Window size", "fullscreen": "Full screen",
                  "sound": "Sound", "confirm_end_turn": "Confirm end of turn", "server_port": "Server port",
                  "bot_pace": "Computer's pace"}
        size = max(12, round(24 * u))
        small = max(11, round(18 * u))
        for key, rect in self.rows.items():
            img = fonts.render(labels[key], size, INK)
            surface.blit(img, img.get_rect(midleft=(rect.x, rect.centery)))
            note = self.errors.get(key)
            colour, style = OXBLOOD, "italic"
            if note is None:
                note = {"nickname": "How others see you", "server_port": "Used when you host",
                        "confirm_end_turn": "Ask before passing the turn", "fullscreen": "Applied when you save",
                        "sound": "A chime on your turn", "window_size": "Applied when you save",
                        "bot_pace": "How quickly computer players' moves follow each other"}.get(key)
                colour = FADED
            if note:
                x = rect.right + round(270 * u)
                lines = wrap(note, small, self.sheet.right - x - round(30 * u), style)
                y = rect.centery - len(lines) * round(small * 1.15) // 2
                blit_lines(surface, lines, small, colour, x, y, style, leading=1.15)
        status = self.status
        if self.app.settings.problem:
            status = f"Note: {self.app.settings.problem}"
        if status:
            lines = wrap(status, small, self.sheet.w - round(80 * u), "italic")
            colour = OXBLOOD if status.startswith(("Note", "Not saved", "Could")) else SEPIA
            blit_lines(surface, lines, small, colour, self.sheet.centerx,
                       self.sheet.bottom - round(108 * u) - (len(lines) - 1) * round(small * 1.15),
                       "italic", align="center", leading=1.15)

    def on_ui(self, event: pygame.event.Event) -> Any:
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED:
            name = self.name_of(event.ui_element)
            if name in ("nickname", "server_port"):
                self.draft[name] = event.text
                self.errors.pop(name, None)
                self.status = None
            return
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element is self.widgets.get("window_size"):
            self.draft["window_size"] = _size_from_label(event.text, self.draft["window_size"])
            self.status = None
            return
        super().on_ui(event)

    def on_enter(self, name: str) -> None:
        self.save()

    def on_button(self, name: str) -> None:
        if name in dict(self.TOGGLES):
            self.draft[name] = not self.draft[name]
            self.status = None
            self.rebuild()
        elif name == "bot_pace":
            paces = list(BOT_PACES)
            self.draft["bot_pace"] = paces[(paces.index(self.draft["bot_pace"]) + 1) % len(paces)]
            self.status = None
            self.rebuild()
        elif name == "save":
            self.save()
        elif name == "back":
            self.app.stack.pop()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.stack.pop()

    def rebuild(self) -> None:
        self._read_widgets()
        self.ui.clear_and_reset()
        self.build()

    def save(self) -> bool:
        """Check the draft; save it if it is all valid. Returns whether it was saved."""
        self._read_widgets()
        self.errors = {}
        problem = check_nickname(self.draft["nickname"])
        if problem:
            self.errors["nickname"] = problem
        problem = check_port(str(self.draft["server_port"]))
        if problem:
            self.errors["server_port"] = problem
        if self.errors:
            self.status = "Not saved: fix the fields marked in red."
            return False
        s = self.app.settings
        old_window = (tuple(s.window_size), s.fullscreen)
        s.nickname = self.draft["nickname"].strip()
        s.window_size = tuple(self.draft["window_size"])
        s.fullscreen = bool(self.draft["fullscreen"])
        s.sound = bool(self.draft["sound"])
        s.confirm_end_turn = bool(self.draft["confirm_end_turn"])
        s.server_port = int(str(self.draft["server_port"]).strip())
        s.bot_pace = self.draft["bot_pace"]
        s.problem = None
        s.save()
        if s.problem:
            self.status = None
            return False
        self.status = "Saved."
        # the window takes what was chosen when that changed, or when it is not the window as it
        # is (started with --size, or dragged to another size: the saved size chosen again)
        if (tuple(s.window_size), s.fullscreen) != old_window or \
                (not s.fullscreen and tuple(s.window_size) != tuple(self.app.size)):
            self.app.resize(s.window_size)
        return True

    def _read_widgets(self) -> None:
        for name in ("nickname", "server_port"):
            w = self.widgets.get(name)
            if w is not None:
                self.draft[name] = w.get_text()
        dd = self.widgets.get("window_size")
        if dd is not None:
            opt = dd.selected_option
            text = opt[0] if isinstance(opt, tuple) else opt
            self.draft["window_size"] = _size_from_label(text, self.draft["window_size"])


def _full_width_list(dd: pygame_gui.elements.UIDropDownMenu) -> None:
    """The opened list of ``dd`` as wide as the drop-down itself (pygame_gui leaves out the arrow's
    width, so the list looked narrower than the button it hangs from)."""
    state = dd.menu_states["expanded"]
    start = state.start

    def widened(should_rebuild: bool = True) -> None:
        start(should_rebuild)
        options = state.options_selection_list
        if options is not None and options.relative_rect.width < dd.relative_rect.width:
            options.set_dimensions((dd.relative_rect.width, options.relative_rect.height))
    state.start = widened


def _size_from_label(text: str, default: tuple[int, int]) -> tuple[int, int]:
    m = re.match(r"\s*(\d+)\s*\D+\s*(\d+)", str(text))
    return (int(m.group(1)), int(m.group(2))) if m else default


# ---------------------------------------------------------------------------- host
class HostScene(PaintedScene):
    """Start the in-process server, then join it as the host and go to the waiting room."""

    def __init__(self, app) -> None:
        super().__init__(app)
        self.error: str | None = None
        self.addresses: list[str] = []
        self.port = app.settings.server_port
        self._ready = False
        self._frames = 0
        self.sheet = pygame.Rect(0, 0, 0, 0)

    def enter(self) -> None:
        self.start_server()
        super().enter()

    def start_server(self) -> None:
        from game.client.lan import host_server
        app = self.app
        problem = check_nickname(app.settings.nickname)
        if problem:
            self.error = "Choose a nickname in Settings before hosting a game."
            return
        if app.server is None:
            data = app.data_dir / "server"
            try:
                data.mkdir(parents=True, exist_ok=True)
                nick = app.settings.nickname.strip()
                server = host_server(app.config, self.port, data, nick,
                                     BOT_PACES.get(app.settings.bot_pace, 0.9))
            except OSError as e:
                self.error = describe_bind_error(e, self.port, data)
                log.warning("cannot host: %s", e)
                return
            app.server = server
        self.port = app.server.address[1]
        self.addresses = lan_addresses()
        self._ready = True

    def layout(self) -> None:
        w, h = self.app.size
        u = self.unit
        sw, sh = round(760 * u), round(190 * u)
        self.sheet = pygame.Rect((w - sw) // 2, round(h * 0.3), sw, sh)
        bw, bh = round(220 * u), round(50 * u)
        if self.error:
            y = self.sheet.bottom + round(40 * u)
            self.button("settings", pygame.Rect(w // 2 - bw - round(10 * u), y, bw, bh), "Settings",
                        tooltip="Change the port or your nickname")
            self.button("back", pygame.Rect(w // 2 + round(10 * u), y, bw, bh), "Back", "@menu_quiet")

    def update(self, dt: float) -> None:
        if not self._ready:
            return
        self._frames += 1
        if self._frames < 2:
            return   # let one frame show "opening…"
        self._ready = False
        self.connect()

    def connect(self) -> None:
        from game.client.session import GameSession
        from game.match import RemoteMatch
        app = self.app
        try:
            match = RemoteMatch("127.0.0.1", self.port, app.settings.nickname.strip(), connect_timeout=3,
                                remember=False)
        except OSError as e:
            self.error = f"The game server started but this computer could not join it ({e})."
            self.rebuild()
            return
        session = GameSession(match, app.config, match.nickname)
        app.stack.replace(app.scene("lobby", session))

    def rebuild(self) -> None:
        self.ui.clear_and_reset()
        self.build()

    def paint(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        u = self.unit
        bottom = title_block(surface, "Host a LAN game", None, w // 2, round(h * 0.06), u, size=64)
        hint = "Friends on the same network find your game under Join a game, or type the address shown."
        small = max(12, round(22 * u))
        blit_lines(surface, wrap(hint, small, round(w * 0.7), "italic"), small, SEPIA, w // 2, bottom + round(8 * u),
                   "italic", align="center")
        surface.blit(panel(self.sheet.w, self.sheet.h, u), self.sheet.topleft)
        size = max(13, round(28 * u))
        cx = self.sheet.centerx
        if self.error:
            head = fonts.render("The game could not be opened", size, OXBLOOD)
            surface.blit(head, head.get_rect(midtop=(cx, self.sheet.y + round(44 * u))))
            lines = wrap(self.error, small, self.sheet.w - round(100 * u), "italic")
            blit_lines(surface, lines, small, INK, cx, self.sheet.y + round(44 * u) + head.get_height() + round(16 * u),
                       "italic", align="center")
        else:
            head = fonts.render(f"Opening a game on port {self.port}\u2026", size, INK)
            surface.blit(head, head.get_rect(center=self.sheet.center))

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.on_button("back")

    def on_button(self, name: str) -> None:
        if name in ("back", "settings"):
            if self.app.server is not None:
                self.app.server.stop()
                self.app.server = None
            if name == "settings":
                self.app.stack.replace(SettingsScene(self.app))
            else:
                self.app.stack.pop()


# ---------------------------------------------------------------------------- join
class JoinScene(PaintedScene):
    """Pick a game found on the network (or type the host's address) and a nickname; join its
    waiting room."""

    def __init__(self, app, rejoin: tuple[str, dict] | None = None) -> None:
        super().__init__(app)
        from .lan_list import LanGames
        self.lan = LanGames(on_change=app.wake)   # the games announced on the network, kept live
        self.lan_rect = pygame.Rect(0, 0, 0, 0)
        s = app.settings
        self.draft = {"address": s.last_address, "nickname": s.nickname}
        self.rejoin = rejoin     # (seat key, record): the title's "Return to your game at host:port"
        if rejoin is not None:
            record = rejoin[1]
            self.draft = {"address": hostport(record["host"], record["port"]), "nickname": record["nickname"]}
        self.errors: dict[str, str] = {}
        self.error: str | None = None
        self.busy: str | None = None     # what we are doing, while connecting
        self.session = None
        self.remote: RemoteMatch | None = None   # the RemoteMatch of ``session``: its seat token and remembered games
        self.seating: Seating | None = None      # connecting and asking for the seat, off the frame loop
        self._target: tuple[str, int] | None = None
        self.rows: dict[str, pygame.Rect] = {}
        self.sheet = pygame.Rect(0, 0, 0, 0)
        self.instead: str | None = None   # a free nickname offered when the one typed is taken

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
            self.button("join_as", pygame.Rect(x, by, aw, bh), f"Join as {self.instead}",
                        tooltip="The same table, with this nickname (kept in Settings for next time)")
            self.button("join", pygame.Rect(x + aw + gap, by, bw, bh), "Join", "@menu_quiet",
                        tooltip="Join with the nickname typed above")
            self.button("back", pygame.Rect(x + aw + bw + 2 * gap, by, bw, bh), "Back", "@menu_quiet")
        else:
            gap = round(20 * u)
            x = self.sheet.centerx - (3 * bw + 2 * gap) // 2
            self.button("join", pygame.Rect(x, by, bw, bh), "Join", enabled=self.busy is None,
                        tooltip="Join the waiting room at this address (a friend's table, or the Quick game)")
            self.button("tables", pygame.Rect(x + bw + gap, by, bw, bh), "Tables\u2026", "@menu_quiet",
                        enabled=self.busy is None,
                        tooltip="See the tables open at this address, open one, or paste an invite code")
            self.button("back", pygame.Rect(x + 2 * (bw + gap), by, bw, bh),
                        "Cancel" if self.busy else "Back", "@menu_quiet")
        if not self.draft["address"]:
            self.widgets["address"].focus()

    def rebuild(self) -> None:
        self.read_entries(self.draft)
        self.ui.clear_and_reset()
        self.build()

    def paint(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        u = self.unit
        bottom = title_block(surface, "Join a game", None, w // 2, round(h * 0.06), u, size=64)
        hint = "Pick a game found on your network, or type the address shown on the host's screen."
        blit_lines(surface, [hint], max(12, round(22 * u)), SEPIA, w // 2, bottom + round(8 * u), "italic",
                   align="center")
        self.lan.paint(surface, self.lan_rect, u, enabled=self.busy is None)
        surface.blit(panel(self.sheet.w, self.sheet.h, u), self.sheet.topleft)
        size, small = max(12, round(24 * u)), max(11, round(18 * u))
        labels = {"address": "Address", "nickname": "Nickname"}
        notes = {"address": "e.g. 192.168.1.23 or 192.168.1.23:51015", "nickname": "How the others will see you"}
        for key, rect in self.rows.items():
            img = fonts.render(labels[key], size, INK)
            surface.blit(img, img.get_rect(midleft=(rect.x, rect.centery)))
            note = self.errors.get(key)
            colour = OXBLOOD if note else FADED
            note = note or notes[key]
            x = rect.right
            lines = wrap(note, small, self.sheet.right - x - round(40 * u), "italic")
            blit_lines(surface, lines, small, colour, x + 2, rect.bottom + round(6 * u), "italic", leading=1.1)
        msg, colour = (self.busy, SEPIA) if self.busy else (self.error, OXBLOOD)
        if msg:
            size = max(12, round(22 * u))
            lines = wrap(msg, size, self.sheet.w - round(90 * u), "italic")
            y = self.sheet.bottom - round(88 * u) - len(lines) * round(size * 1.18)
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
                self.error = "That table is no longer on the network: its host stopped hosting or left."

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
            target = parse_address(self.draft["address"], GAME_PORT)
        except ValueError as e:
            self.errors["address"] = str(e)
            target = None
        if self.errors or target is None:
            return None
        return target

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
        """Check the fields and start connecting (on a thread: a frame never waits)."""
        target = self._checked()
        if target is None:
            return
        self._target = target
        self.busy = f"Knocking at {hostport(*target)}\u2026"
        self.rebuild()
        from game.client.tables import Seating   # the waiting list: a friend's table, or the Quick game
        self.seating = Seating(target[0], target[1], self.draft["nickname"].strip(), self.app.config, self.app.wake,
                               tls_port=self._announced_tls(target))

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
                self.remote.table_name, self.remote.host_name = found.info.name, found.info.host
                self.session.lobby.next_game = found.info.started and not found.info.free   # "Wait for a seat"
            self.busy = "Joining the waiting room\u2026"
        if state == "failed":
            self.seating = None
            if seating.taken and seating.remote is not None:   # someone at that table has this name
                nick = seating.nickname
                self.instead = another_nickname(nick)
                if seating.remote.token:   # we asked for our seat back with a kept token
                    self.errors["nickname"] = (
                        f"\u201c{nick}\u201d has a seat at this table, but not the one this computer kept "
                        f"under that name (that was another game at this address): choose another name.")
                else:
                    self.errors["nickname"] = (f"\u201c{nick}\u201d is already playing at this table: "
                                               f"choose another name.")
            self.session = None
            self._fail("" if seating.taken else seating.error or "")
            if seating.warning is not None:   # not the server met there before: what to do, over the page
                from .link_mark import warn
                warn(self.app, seating.warning)
        elif state == "seated":
            self.seating = None
            self.follow_join()

    def follow_join(self) -> None:
        """The server seated us: the waiting room or our game (or, for a seat to take back, the
        news that its game is not there any more)."""
        session = self.session
        if self.rejoin is not None and session.lobby.booked > 0 and not session.vm.has_game:
            # the seat's game is not there any more (it ended meanwhile, or the server lost it)
            from game.match import forget_unfinished
            forget_unfinished(self.remote.games_file, self.rejoin[0])
            where = hostport(*self._target)  # type: ignore[misc]
            self.rejoin = None
            self._fail(f"Your game at {where} is not running there any more: it has ended, or the server "
                       f"no longer has it. Join again to sit at a new table.")
            return
        s = self.app.settings
        s.nickname = session.nickname
        s.last_address = self.draft["address"].strip()
        s.save()
        from .router import scene_for
        self.session = None
        self.app.stack.replace(scene_for(self.app, session))

    def _fail(self, message: str) -> None:
        if self.session is not None:
            self.session.close()
            self.session = None
        self.busy = None
        self.error = message or None
        self.rebuild()


def another_nickname(nick: str) -> str:
    """A nickname like ``nick`` for when it is taken: "Player" gives "Player 2", "Bea 2" gives
    "Bea 3" (within :data:`NICKNAME_MAX`)."""
    import re
    m = re.fullmatch(r"(.*?)\s*(\d+)", nick.strip())
    stem, n = (m.group(1), int(m.group(2)) + 1) if m and m.group(1) else (nick.strip(), 2)
    tail = f" {n}"
    return stem[:NICKNAME_MAX - len(tail)].rstrip() + tail
