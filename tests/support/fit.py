"""Text boxes measured (issue 29, Fit): for the scene on screen, every text drawn and the box it is
drawn in, and what is wrong with them: words wider than their box, cut short ("…"), boxes over each
other, or outside the window.

Two kinds of text are measured:

- pygame_gui's elements (labels, buttons, entries, text boxes): the words' width in the element's
  font against the element's rect; visible elements over each other; outside the window.
- our own words (``game/scenes/art/fonts.py``): every surface ``fonts.render``/``fonts.ink`` makes
  is remembered, and the window records where each is blitted (the headless window is swapped for
  a recording Surface), so the rect each text takes on screen is known. Words drawn first on a
  layer of their own are measured by width only (wider than the window).

Use: ``m = Measure(monkeypatch, app)``; put a scene on screen; ``m.clear()``; run a frame or two;
``m.problems()`` lists what is wrong, each a readable line; ``m.pause()`` until the next page.
"""
from __future__ import annotations

import functools
import re
from collections import OrderedDict
from pathlib import Path

import pygame

ELLIPSIS = "\u2026"
ROOT = Path(__file__).resolve().parents[2]
FINGERPRINT = r".*[0-9A-F]{2}(?::[0-9A-F]{2})+\u2026"
"""A certificate's fingerprint shortened by design ("secure · certificate 5F:3A:9C:02…",
``game.client.security.short_fingerprint``), its whole on the label under the pointer."""


@functools.lru_cache(maxsize=None)
def meant_to_end_in_ellipsis() -> re.Pattern:
    """Words that end in "…" by design ("Looking for games on this network…"), in the code and in
    the catalogues, and a shortened fingerprint: a line that ends so and is none of them was cut short."""
    said = set()
    for path in list((ROOT / "game").rglob("*.py")) + list((ROOT / "game" / "locale").rglob("*.po")):
        said.update(re.findall(r'"((?:[^"\\\n]|\\.)*\u2026)"', path.read_text(encoding="utf-8")))
    alts = sorted((re.sub(r"\\\{[^}]*\\\}", ".*", re.escape(s)) for s in said), key=len, reverse=True)
    return re.compile("|".join([FINGERPRINT, *alts]))


class _Window(pygame.Surface):
    """The headless window, remembering where each known text surface is blitted on it."""

    def __init__(self, size, measure: "Measure") -> None:
        super().__init__(size)
        self.measure = measure

    def blit(self, source, dest, area=None, special_flags=0):
        r = super().blit(source, dest, area, special_flags)
        words = self.measure.texts.get(id(source)) if self.measure.recording else None
        if words is not None and area is None and r.w and r.h:
            pos = dest.topleft if isinstance(dest, pygame.Rect) else (int(dest[0]), int(dest[1]))
            rect = pygame.Rect(pos, source.get_size())
            ink = pygame.mask.from_surface(source, 200)
            if r != rect:       # partly outside this surface: the part that is in it
                ink = _crop(ink, r.x - rect.x, r.y - rect.y, r.size)
            self.measure.placed.append((words, rect, _Drawn(r, ink, self.subsurface(r).copy())))
        return r


class _Drawn:
    """Where a text's ink went (``at``, the part of its rect on the surface), and the pixels there
    just after it was drawn: if the window shows other pixels there at the end, it was covered."""

    def __init__(self, at: pygame.Rect, ink: pygame.mask.Mask, pixels: pygame.Surface) -> None:
        self.at, self.ink, self.pixels = at, ink, pixels

    def seen(self, window: pygame.Surface) -> float:
        """The share of the text's ink still on ``window`` (1.0: all of it; 0.0: covered)."""
        inked = self.ink.count()
        if not inked or not pygame.Rect((0, 0), window.get_size()).contains(self.at):
            return 1.0
        now = window.subsurface(self.at).copy()
        same = pygame.mask.from_threshold(self.pixels, (0, 0, 0, 0), (24, 24, 24, 255), now)
        return same.overlap_area(self.ink, (0, 0)) / inked


def _crop(mask: pygame.mask.Mask, x: int, y: int, size) -> pygame.mask.Mask:
    out = pygame.mask.Mask(size)
    out.draw(mask, (-x, -y))
    return out


class Measure:
    """Records the words drawn by the frames run after it is made (until the test ends)."""

    def __init__(self, monkeypatch, app) -> None:
        from game.scenes.art import fonts
        self.app = app
        self.texts: dict[int, str] = {}
        self.made: list[tuple[str, int]] = []
        self.recording = True
        self._keep: dict[int, pygame.Surface] = {}   # ids stay unique while their surfaces live
        for name in ("render", "ink", "figures"):
            real = getattr(fonts, name)

            def hook(text, *args, _real=real, **kw):
                img = _real(text, *args, **kw)
                self.texts[id(img)] = str(text)
                self._keep[id(img)] = img
                if self.recording:
                    self.made.append((str(text), img.get_width()))
                return img
            monkeypatch.setattr(fonts, name, hook)
        self._tracked(monkeypatch)
        self.wrapped: list[tuple[str, list[str]]] = []
        self._wraps(monkeypatch)
        self.placed: list[tuple[str, pygame.Rect]] = []
        self.window = _Window(app.window.get_size(), self)
        app.window = self.window
        self._board(monkeypatch)

    def _tracked(self, monkeypatch) -> None:
        """Small capitals set letter by letter (``backdrop.tracked``) are measured too."""
        from support.drawn import on_tracked

        def seen(text, img) -> None:
            self.texts[id(img)] = str(text)
            self._keep[id(img)] = img
            if self.recording:
                self.made.append((str(text), img.get_width()))
        on_tracked(monkeypatch, seen)

    def _wraps(self, monkeypatch) -> None:
        """Words wrapped to lines (``backdrop.wrap``, wherever a scene took it): a text some of whose
        lines are drawn and the rest not had its end dropped (``wrap(...)[:3]``)."""
        import sys

        from game.scenes import backdrop
        real = backdrop.wrap

        def wrap(text, *args, **kw):
            lines = real(text, *args, **kw)
            if self.recording:
                self.wrapped.append((str(text), list(lines)))
            return lines
        for name, module in list(sys.modules.items()):
            if name.startswith("game.scenes") and getattr(module, "wrap", None) is real:
                monkeypatch.setattr(module, "wrap", wrap)

    def _board(self, monkeypatch) -> None:
        """The board draws on window-sized layers of its own (a static one, a cached one): their
        panels draw on recording copies of them, so their words are placed as well. (The static
        layer's panels were drawn a second time, on a copy thrown away: a tenth of the fit tests'
        time, their paper drawn again as the board had just let its cache of it go.)"""
        from game.scenes.art import board as art_board
        from game.scenes.board_base import BoardBase as BoardScene
        dynamic, static = BoardScene._draw_dynamic, BoardScene._render_static
        record = self._recorded

        def draw_dynamic(scene, surface, ctx):
            record(surface, lambda rec: dynamic(scene, rec, ctx))

        def render_static(scene, size):
            panels = list(scene.panels)
            for p in panels:
                p.draw_static = lambda surface, _real=p.draw_static: record(surface, _real)
            try:
                return static(scene, size)
            finally:
                for p in panels:
                    del p.draw_static
        monkeypatch.setattr(BoardScene, "_draw_dynamic", draw_dynamic)
        monkeypatch.setattr(BoardScene, "_render_static", render_static)
        monkeypatch.setattr(art_board.wood_panel, "once", _table_once(art_board.wood_panel.once))
        for cache in (art_board.parchment, art_board.wood_panel):   # (see _kept_while_measured)
            _kept_while_measured(monkeypatch, cache)

    def _recorded(self, surface: pygame.Surface, draw) -> None:
        """``draw(rec)`` on a recording copy of ``surface``, copied back onto it (while paused:
        on ``surface`` itself)."""
        if not self.recording:
            draw(surface)
            return
        rec = _Window(surface.get_size(), self)
        rec.blit(surface, (0, 0))
        draw(rec)
        surface.blit(rec, (0, 0))

    def clear(self) -> None:
        """Forget what was drawn so far and record what the next frames draw."""
        self.recording = True
        self.made.clear()
        self.placed.clear()
        self.wrapped.clear()

    def pause(self) -> None:
        """Record nothing until the next :meth:`clear` (which would forget it): the frames a walk
        runs between two pages it measures (its clicks, its waits) are drawn without the
        recorder's bookkeeping (a mask and a copy of the pixels under every text drawn)."""
        self.recording = False

    # -- pygame_gui ---------------------------------------------------------------------------
    def elements(self) -> list[tuple[str, str, pygame.Rect, int]]:
        """(kind, words, rect, the words' width) of every visible pygame_gui element with words."""
        import pygame_gui.elements as E
        top = self.app.stack.top
        out = []
        if top is None or getattr(top, "ui", None) is None:
            return out
        for el in top.ui.get_sprite_group().sprites():
            if not getattr(el, "visible", True) or isinstance(el, (E.UIPanel, E.UIScrollingContainer)):
                continue
            kind = type(el).__name__
            if isinstance(el, E.UITextBox):
                words = str(getattr(el, "html_text", "") or "")
                width = 0     # it wraps its words itself
            elif isinstance(el, E.UITextEntryLine):
                words, width = str(el.get_text()), 0     # the player's own, scrolled within
            elif isinstance(el, (E.UILabel, E.UIButton)):
                words = str(el.text or "")
                font = getattr(el, "font", None)
                width = font.size(words)[0] if (font is not None and words) else 0
            else:
                continue
            clip = el.get_clip_rect() if hasattr(el, "get_clip_rect") else None
            rect = pygame.Rect(el.rect)
            if clip is not None and clip.size != rect.size:
                continue      # scrolled partly out of its container: the container shows the rest
            out.append((kind, words, rect, width))
        return out

    def said(self) -> list[str]:
        """Every text drawn since :meth:`clear`, and the words of the visible buttons and labels."""
        return [t for t, _w in self.made] + [words for kind, words, _r, _w in self.elements()
                                              if kind in ("UIButton", "UILabel")]

    # -- what is wrong -------------------------------------------------------------------------
    def problems(self) -> list[str]:
        win = pygame.Rect((0, 0), self.window.get_size())
        out: list[str] = []
        els = self.elements()
        for kind, words, rect, width in els:
            room = rect.w - 4
            if width > room:
                out.append(f"{kind} {words!r} {width}px wide in a box of {room}px")
            if not win.contains(rect):
                out.append(f"{kind} {words!r} at {tuple(rect)} outside the window")
        boxes = [(words, r) for _k, words, r, _w in els if words]
        for i, (a, ra) in enumerate(boxes):
            for b, rb in boxes[i + 1:]:
                if ra.inflate(-4, -4).colliderect(rb.inflate(-4, -4)):
                    out.append(f"{a!r} at {tuple(ra)} over {b!r} at {tuple(rb)}")
        out += [f"UIButton {words!r} cut at its edge ({tuple(rect)})" for words, rect in self._cut_buttons()]
        meant = meant_to_end_in_ellipsis()
        for words, w in self.made:
            if w > win.w:
                out.append(f"{words!r} {w}px wide, wider than the window")
            if words.rstrip().endswith(ELLIPSIS) and len(words.strip()) > 3 and not meant.fullmatch(words):
                out.append(f"{words!r} cut short")
        out += self._dropped()
        placed: dict[tuple, _Drawn] = {}
        for words, r, drawn in self.placed:
            if words.strip():
                placed[(words, tuple(r))] = drawn
        top = self.app.stack.top          # a page's sheet of paper (a plaque): words on it stay on it
        sheets = [pygame.Rect(r).inflate(4, 4) for r in (getattr(top, k, None) for k in ("sheet", "plaque"))
                  if r is not None and pygame.Rect(r).w > 0]
        for words, r in placed:
            ink = _ink_rect(placed[(words, r)])
            if not win.contains(pygame.Rect(r)):
                out.append(f"{words!r} at {r} outside the window")
            for sheet in sheets:
                if sheet.colliderect(ink) and not sheet.contains(ink):
                    out.append(f"{words!r} at {r} across the edge of its sheet {tuple(sheet.inflate(-4, -4))}")
        # lines over each other, both still to be seen at the end (not one covered by a panel later)
        shown = [(w, pygame.Rect(r), d) for (w, r), d in placed.items() if d.seen(self.window) > 0.6]
        block = {ln.strip(): text for text, lines in self.wrapped for ln in lines}   # a paragraph's lines
        for i, (a, ra, da) in enumerate(shown):
            for b, rb, db in shown[i + 1:]:
                if a == b or (block.get(a.strip(), a) == block.get(b.strip(), b)):
                    continue
                if _ink_over(ra, rb) or da.ink.overlap(db.ink, (db.at.x - da.at.x, db.at.y - da.at.y)):
                    out.append(f"{a!r} at {tuple(ra)} over {b!r} at {tuple(rb)}")
        return list(dict.fromkeys(out))

    def _cut_buttons(self) -> list[tuple[str, pygame.Rect]]:
        """Buttons whose words run past the inside of their frame: pygame_gui centres them in a text
        area that may be wider than the button's inside, and cuts them at its edge (a small "Esci"
        whose words fit its rect less 4 px was still cut)."""
        import pygame_gui.elements as E
        top = self.app.stack.top
        if top is None or getattr(top, "ui", None) is None:
            return []
        out = []
        for el in top.ui.get_sprite_group().sprites():
            layout = getattr(getattr(el, "drawable_shape", None), "text_box_layout", None)
            if not isinstance(el, E.UIButton) or not getattr(el, "visible", True) or layout is None or not el.text:
                continue
            inset = layout.layout_rect.x        # the frame: shadow and border
            if any(row.x < inset or row.x + row.width > el.rect.w - inset for row in layout.layout_rows if row.width):
                out.append((str(el.text), pygame.Rect(el.rect)))
        return out

    def _dropped(self) -> list[str]:
        """Wrapped texts drawn in part: some of a wrapping's lines drawn, no wrapping drawn whole."""
        drawn = {w.strip() for w, _w in self.made}
        tries: dict[str, list[list[str]]] = {}
        for text, lines in self.wrapped:
            tries.setdefault(text, []).append([ln.strip() for ln in lines if ln.strip()])
        out = []
        for text, ways in tries.items():
            if any(all(ln in drawn for ln in lines) for lines in ways):
                continue
            part = next((lines for lines in ways if lines and lines[0] in drawn), None)
            if part is not None:
                lost = [ln for ln in part if ln not in drawn]
                out.append(f"{text!r} drawn without its end {' '.join(lost)!r}")
        return out


_TABLES: dict[tuple, pygame.Surface] = {}
"""The board's window-sized walnut table, by size (see :func:`_table_once`)."""


def _table_once(real):
    """``wood_panel.once`` drawing each window size's table once per process: the board draws it
    afresh into every static layer (it keeps no window-sized picture), the same pixels for the
    same size, and the fit tests put a dozen boards on screen at each size (a quarter of their
    time). It carries no words: what is measured is unchanged. The last two sizes are kept."""
    def once(*args, **kw):
        key = (args, tuple(kw.items()))
        if key not in _TABLES:
            while len(_TABLES) >= 2:
                del _TABLES[next(iter(_TABLES))]
            _TABLES[key] = real(*args, **kw)
        return _TABLES[key]
    return once


def _kept_while_measured(monkeypatch, cache) -> None:
    """``cache`` (the panels' parchment, their walnut) keeps its pictures while the test measures:
    the board lets them go after each static layer (it draws them into it), so every board put on
    screen drew them all again, the same pixels at the same size, and none carries words. The
    cache starts empty and is given back as it was when the test ends."""
    monkeypatch.setattr(cache, "_data", OrderedDict())
    for name in ("nbytes", "hits", "misses"):
        monkeypatch.setattr(cache, name, 0)
    monkeypatch.setattr(cache, "cache_clear", lambda: None)


def _ink_rect(drawn: _Drawn) -> pygame.Rect:
    """Where a text's ink is (its rect less the empty margins of its glyphs)."""
    rects = drawn.ink.get_bounding_rects()
    if not rects:
        return pygame.Rect(drawn.at.topleft, (0, 0))
    return rects[0].unionall(rects[1:]).move(drawn.at.topleft)


def _ink_over(a: pygame.Rect, b: pygame.Rect) -> bool:
    """Two texts over each other, or one's line set against the other's with no leading between
    (the rects of lines set at a leading of 1.15 do not meet); their ink touching is always."""
    cut = a.clip(b)
    return cut.w > 3 and cut.h > 2
