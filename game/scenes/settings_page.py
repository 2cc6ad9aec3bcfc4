"""Settings: the nickname, the window, sound, turn confirmation, the computer's pace, the port
hosting uses and whether the router is asked to open it, and the player's key (a key pasted from another machine is checked, and kept by
:func:`game.client.keys.take_key`); saved with :meth:`game.settings.Settings.save`."""
from __future__ import annotations

import re
from typing import Any

import pygame
import pygame_gui

from game.client.address import check_port
from game.client.keys import KEY_FIELD_NOTE, KEY_LENGTH, check_key, current_key, take_key
from game.client.port_words import SETTING, SETTING_NOTE
from game import i18n
from game.i18n import LANGUAGES, _, pgettext
from game.client.words import NICKNAME_MAX, pace_label
from game.settings import BOT_PACES

from .app import WINDOW_SIZES, fits, largest_fitting
from .art import fonts
from .backdrop import FADED, INK, OXBLOOD, SEPIA, PaintedScene, blit_lines, panel, title_block, wrap
from .nickname import check_nickname


def language_label(code: str) -> str:
    """The language setting's button: the language by its own name, or the system's ("System: English")."""
    if code in LANGUAGES:
        return LANGUAGES[code]
    return _("System: {language}").format(language=LANGUAGES[i18n.choose(None)])


def next_language(code: str) -> str:
    """The setting after ``code`` on the button: the system's, then each language in turn."""
    order = ["", *LANGUAGES]
    return order[(order.index(code) + 1) % len(order)] if code in order else ""


def size_label(size: tuple[int, int]) -> str:
    return f"{size[0]} \u00d7 {size[1]}"


class SettingsScene(PaintedScene):
    """Nickname, window, sound, turn confirmation and server port; saved with ``Settings.save``."""

    TOGGLES = (("fullscreen", "Full screen"), ("sound", "Sound"), ("confirm_end_turn", "Confirm end of turn"),
               ("open_port", SETTING))

    def __init__(self, app) -> None:
        super().__init__(app)
        s = app.settings
        self.draft: dict[str, Any] = {
            "nickname": s.nickname, "window_size": tuple(s.window_size), "fullscreen": s.fullscreen,
            "sound": s.sound, "confirm_end_turn": s.confirm_end_turn, "server_port": str(s.server_port),
            "bot_pace": s.bot_pace, "player_key": current_key(), "open_port": s.open_port,
        }
        self.kept_key = self.draft["player_key"]
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
        row_h, gap = round(38 * u), round(6 * u)
        y = self.sheet.y + round(30 * u)
        self.rows = {}
        order = ["nickname", "language", "window_size", "fullscreen", "sound", "confirm_end_turn", "bot_pace",
                 "server_port", "open_port", "player_key"]
        for key in order:
            self.rows[key] = pygame.Rect(label_x, y, field_x - label_x, row_h)
            field = pygame.Rect(field_x, y, round(250 * u), row_h)
            if key == "nickname":
                self.entry("nickname", field, self.draft["nickname"], limit=NICKNAME_MAX + 8)
            elif key == "player_key":       # as wide as the sheet allows: a key is 48 characters
                self.entry("player_key", pygame.Rect(field_x, y, self.sheet.right - round(40 * u) - field_x, row_h),
                           self.draft["player_key"], limit=KEY_LENGTH + 16)
            elif key == "server_port":
                self.entry("server_port", pygame.Rect(field_x, y, round(140 * u), row_h), self.draft["server_port"], 5)
            elif key == "language":
                self.button("language", pygame.Rect(field_x, y, round(250 * u), row_h),
                            language_label(self.app.settings.language), "@menu_quiet")
            elif key == "bot_pace":
                self.button("bot_pace", pygame.Rect(field_x, y, round(120 * u), row_h),
                            pace_label(self.draft["bot_pace"]), "@menu_quiet")
            elif key == "window_size":
                options = [size_label(s) for s in self.sizes()]
                dd = pygame_gui.elements.UIDropDownMenu(options, size_label(self.draft["window_size"]), field,
                                                        self.ui)
                _full_width_list(dd)
                self.widgets["window_size"] = dd
            else:
                on = self.draft[key]
                said = pgettext("setting", "On") if on else pgettext("setting", "Off")
                b = self.button(key, pygame.Rect(field_x, y, round(120 * u), row_h), said,
                                "@menu" if on else "@menu_quiet")
                b.set_text(said)
            y += row_h + gap
        by = self.sheet.bottom - round(80 * u)
        bw, bh = round(180 * u), round(48 * u)
        self.button("save", pygame.Rect(self.sheet.centerx - bw - round(10 * u), by, bw, bh), _("Save"))
        self.button("back", pygame.Rect(self.sheet.centerx + round(10 * u), by, bw, bh), _("Back"), "@menu_quiet")

    def _note_lines(self, note: str, size: int, width: int, style: str) -> tuple[int, list[str]]:
        """A row's note wrapped no taller than a row's pitch, so that it meets neither its neighbours'
        notes (longer words, in Italian, took three lines over the next row's): smaller type, down to
        four fifths, if need be."""
        ys = sorted(r.centery for r in self.rows.values())
        pitch = min((b - a for a, b in zip(ys, ys[1:])), default=size * 4)
        for s in range(size, max(9, round(size * 0.8)) - 1, -1):
            lines = wrap(note, s, width, style)
            if len(lines) * round(s * 1.15) <= pitch:
                break
        return s, lines

    def paint(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        u = self.unit
        title_block(surface, _("Settings"), None, w // 2, round(h * 0.06), u, size=64)
        surface.blit(panel(self.sheet.w, self.sheet.h, u), self.sheet.topleft)
        labels = {"nickname": _("Nickname"), "window_size": _("Window size"), "fullscreen": _("Full screen"),
                  "sound": _("Sound"), "confirm_end_turn": _("Confirm end of turn"), "server_port": _("Server port"),
                  "bot_pace": _("Computer's pace"), "player_key": _("Player key"), "open_port": _(SETTING),
                  "language": _("Language")}
        size = max(12, round(24 * u))
        small = max(11, round(18 * u))
        for key, rect in self.rows.items():
            img = fonts.render(labels[key], size, INK)
            surface.blit(img, img.get_rect(midleft=(rect.x, rect.centery)))
            note = self.errors.get(key)
            colour, style = OXBLOOD, "italic"
            if key == "player_key":       # its field is wide: its word is said under the sheet's fields
                continue
            if note is None:
                note = {"nickname": _("How others see you"), "server_port": _("Used when you host"),
                        "confirm_end_turn": _("Ask before passing the turn"), "fullscreen": _("Applied when you save"),
                        "sound": _("A chime on your turn"), "window_size": _("Applied when you save"),
                        "bot_pace": _("How quickly computer players' moves follow each other"),
                        "open_port": _(SETTING_NOTE), "language": _("Applied at once")}.get(key)
                colour = FADED
            if note:
                x = rect.right + round(270 * u)
                s, lines = self._note_lines(note, small, self.sheet.right - x - round(30 * u), style)
                y = rect.centery - len(lines) * round(s * 1.15) // 2
                blit_lines(surface, lines, s, colour, x, y, style, leading=1.15)
        status = self.status
        if status is None and "player_key" in self.rows:
            status = _(KEY_FIELD_NOTE)
        if self.app.settings.problem:
            status = _("Note: {problem}").format(problem=self.app.settings.problem)
        if status:
            lines = wrap(status, small, self.sheet.w - round(80 * u), "italic")
            colour = SEPIA if status in (_("Saved."), _(KEY_FIELD_NOTE)) else OXBLOOD
            blit_lines(surface, lines, small, colour, self.sheet.centerx,
                       self.sheet.bottom - round(108 * u) - (len(lines) - 1) * round(small * 1.15),
                       "italic", align="center", leading=1.15)

    def on_ui(self, event: pygame.event.Event) -> Any:
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED:
            name = self.name_of(event.ui_element)
            if name in ("nickname", "server_port", "player_key"):
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
        elif name == "language":   # applied and kept at once: the page is already in the new language
            settings = self.app.settings
            settings.language = next_language(settings.language)
            self._read_widgets()
            drawn = settings.drawn if self.draft["nickname"] == settings.nickname else None
            if drawn is not None:             # a fresh install's drawn name, said in the new language
                settings.speak(i18n.choose(settings.language))
                self.draft["nickname"] = settings.nickname
            settings.save()
            settings.drawn = drawn            # (and in the next one: the name is not the player's choice yet)
            self.app.speak(settings.language)
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
        key = self.draft["player_key"].strip()
        if key and key != self.kept_key:    # a key pasted from another machine (an empty field changes nothing)
            problem = check_key(key)
            if problem:
                self.errors["player_key"] = problem
        if self.errors:   # the key's field has no room for its word beside it: said in the status line
            said = [_("fix the fields marked in red.")] if set(self.errors) - {"player_key"} else []
            self.status = _("Not saved: {why}").format(why=" ".join(said + [self.errors.get("player_key", "")]).strip())
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
        was_open, s.open_port = s.open_port, bool(self.draft["open_port"])
        s.problem = None
        s.save()
        if s.problem:
            self.status = None
            return False
        if s.open_port != was_open and self.app.server is not None:   # the mapping removed, or asked for
            from game.client.flow.hosting import server_folder        # (the host page says which)
            from game.client.flow.port_opening import follow_switch
            follow_switch(self.app.server, server_folder(self.app.data_dir), s.open_port)
        if key and key != self.kept_key:
            problem = take_key(key)
            if problem:
                self.status = _("Not saved: {why}").format(why=problem)
                return False
            self.kept_key = key
        self.status = _("Saved.")
        # the window takes what was chosen when that changed, or when it is not the window as it
        # is (started with --size, or dragged to another size: the saved size chosen again)
        if (tuple(s.window_size), s.fullscreen) != old_window or \
                (not s.fullscreen and tuple(s.window_size) != tuple(self.app.size)):
            self.app.resize(s.window_size)
        return True

    def _read_widgets(self) -> None:
        for name in ("nickname", "server_port", "player_key"):
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
