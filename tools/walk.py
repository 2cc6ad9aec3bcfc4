"""Walk the client as a player does: the real ``App`` frame loop, fed posted mouse and key events only.

:class:`Walk` drives one headless :class:`~game.scenes.app.App` from the title, finds buttons by
the words on them (as a player reads them), clicks points, presses keys and types, and records
the frames it passes through: the first frame of every scene it meets is kept, so a test can look
at exactly what the player saw first, and written as a PNG to the walk's folder (when given one) by
:meth:`Walk.save`: the test kit calls :func:`save_failed_walks` when a test fails (a passing test
writes none; those it writes are compressed lightly, :func:`write_png`: pygame's took 0.2-0.8 s a
1920x1080 frame).

:func:`board_check` looks at a board frame's pixels and says which panels are drawn: the
development card grid's cards, the market's arrows, the faith track, the player's board.
Used by ``tests/scenes/test_walk.py`` and by ``tools/screenshots.py``.
"""
from __future__ import annotations

import time
import weakref
from pathlib import Path
from types import SimpleNamespace
from typing import Callable

import pygame
import pygame_gui

from game import i18n
from game.scenes.app import App
from game.scenes.catalog import register_scenes
register_scenes()

Pos = tuple[int, int]

_walks: weakref.WeakSet[Walk] = weakref.WeakSet()     # the walks alive, for save_failed_walks


class Walk:
    """A player at one app. ``out``: a folder for the frames (None: keep them in memory only)."""

    def __init__(self, app: App, out: Path | None = None, name: str = "walk") -> None:
        self.app = app
        self.out = Path(out) if out is not None else None
        self.name = name
        self.firsts: list[tuple[str, pygame.Surface]] = []   # (scene class, its first frame)
        self._last: object = None
        self._asked_over: object = None   # the scene under the last question (AskScene) met
        app.on_frame.append(self._record)
        _walks.add(self)

    # ------------------------------------------------------------------ recording
    def _record(self, app: App) -> None:
        top = app.stack.top
        if top is self._last or top is None:
            return
        back = type(self._last).__name__ == "AskScene" and top is self._asked_over
        self._last = top
        if type(top).__name__ == "AskScene":
            self._asked_over = app.stack.scenes[-2] if len(app.stack.scenes) > 1 else None
        if back:                      # back from a question over it (a confirmation): not a new scene
            return
        self.firsts.append((type(top).__name__, app.window.copy()))

    def save(self) -> list[Path]:
        """Write the first frames met so far to the walk's folder, in order
        (``<name>-<n>-<scene>.png``); nothing when the walk has no folder."""
        if self.out is None:
            return []
        self.out.mkdir(parents=True, exist_ok=True)
        paths = [self.out / f"{self.name}-{n:02d}-{kind}.png" for n, (kind, _) in enumerate(self.firsts, 1)]
        for path, (_, shot) in zip(paths, self.firsts):
            write_png(shot, path)
        return paths

    def first(self, kind: str, nth: int = 0) -> pygame.Surface:
        """The first frame of the ``nth`` time the walk met a scene of class ``kind``."""
        frames = [s for k, s in self.firsts if k == kind]
        assert len(frames) > nth, f"{self.name}: never saw {kind} (saw {[k for k, _ in self.firsts]})"
        return frames[nth]

    @property
    def scene(self) -> str:
        return type(self.app.stack.top).__name__

    # ------------------------------------------------------------------ input
    def frames(self, n: int = 1, events=()) -> None:
        frames(self.app, n, events)

    def move(self, pos: Pos) -> None:
        move(self.app, pos)

    def click(self, pos: Pos, after: int = 3) -> None:
        """Move there, press and release the left button, then frames for the widgets' events."""
        click_at(self.app, pos, max(0, after - 1))     # (``after``: the release's frame counted)

    def key(self, key: int, unicode: str = "", after: int = 2) -> None:
        self.frames(1, [pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=unicode, scancode=0)])
        self.frames(after, [pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode=unicode, scancode=0)])

    def type(self, words: str) -> None:
        """Type into the focused text field (select what is there first with Ctrl+A)."""
        self.frames(1, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=pygame.KMOD_CTRL, unicode="",
                                           scancode=4)])
        self.frames(1, [pygame.event.Event(pygame.TEXTINPUT, text=words)])

    def button_at(self, label: str) -> Pos | None:
        """The centre of the visible, enabled button whose words start with ``label``."""
        top = self.app.stack.top
        for el in top.ui.get_sprite_group().sprites():
            if isinstance(el, pygame_gui.elements.UIButton) and el.visible and el.is_enabled \
                    and str(el.text).startswith(label):
                return el.rect.center
        return None

    def entry_at(self, placeholder_or_index: int) -> Pos:
        """The centre of the ``n``-th text field on the screen (top to bottom)."""
        top = self.app.stack.top
        entries = sorted((el for el in top.ui.get_sprite_group().sprites()
                          if isinstance(el, pygame_gui.elements.UITextEntryLine) and el.visible),
                         key=lambda e: (e.rect.y, e.rect.x))
        return entries[placeholder_or_index].rect.center

    def press(self, label: str, timeout: float = 10.0) -> None:
        """Click the button that says ``label`` (waiting for it to appear and be enabled)."""
        self.until(lambda: self.button_at(label) is not None, timeout, f"a button {label!r}")
        self.click(self.button_at(label))

    def until(self, cond: Callable[[], bool], timeout: float = 10.0, what: str = "") -> None:
        end = time.monotonic() + timeout
        while not cond():
            assert time.monotonic() < end, f"{self.name}: timed out waiting for {what} (at {self.scene})"
            self.frames(1)
            time.sleep(0.005)

    def until_scene(self, kind: str, timeout: float = 10.0) -> None:
        self.until(lambda: self.scene == kind, timeout, kind)

    def fill_join_page(self, port: int, nickname: str) -> None:
        """From the title: Join a game, this machine's ``port`` as the address, and ``nickname``."""
        self.press(i18n._("Join a game"))          # (in the app's language)
        self.until_scene("JoinScene")
        self.click(self.entry_at(0))
        self.type(f"127.0.0.1:{port}")
        self.click(self.entry_at(1))
        self.type(nickname)

    def join(self, port: int, nickname: str) -> None:
        """From the title: the table at this machine's ``port`` joined as ``nickname``."""
        self.fill_join_page(port, nickname)
        self.press(i18n._("Join"))


def start(size: tuple[int, int] = (1024, 640), out: Path | None = None, name: str = "walk",
          nickname: str | None = None, language: str | None = None) -> Walk:
    """A headless app opened at the title as a player starts it (no end-of-turn question; named
    ``nickname`` if given; speaking ``language`` as ``--lang`` says it), its first frames drawn."""
    from game.scenes.title import TitleScene
    app = App(headless=True, size=size, language=language)
    app.settings.confirm_end_turn = False
    if nickname is not None:
        app.settings.nickname = nickname
    walk = Walk(app, out, name)
    app.stack.push(TitleScene(app))
    walk.frames(2)
    return walk


def write_png(surface: pygame.Surface, path: Path) -> None:
    """``surface``'s pixels as an RGB PNG at ``path``, compressed at zlib's fastest level (a third
    of the time pygame's own takes, for a file a third larger: these frames are looked at, not kept)."""
    import struct
    import zlib
    w, h = surface.get_size()
    data = pygame.image.tobytes(surface, "RGB")
    row = w * 3
    raw = b"".join(b"\x00" + data[y * row:(y + 1) * row] for y in range(h))   # each row unfiltered

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    Path(path).write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                           + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))


# ---------------------------------------------------------------------------- several players
def host_for_two(host: Walk, guest: Walk, nickname: str = "Bea") -> int:
    """``host`` hosts a LAN game for two from the title, on a free port (its setting), and
    ``guest`` joins it from the title as ``nickname``. Returns the port."""
    port = free_port()
    host.app.settings.server_port = port
    host.press("Host a LAN game")
    host.until_scene("LobbyScene")
    host.press("2 players")
    guest.join(port, nickname)
    return port


def all_until(walks: tuple[Walk, ...] | list[Walk], until: Callable[[], bool], timeout: float = 30.0) -> None:
    """Frames for every walk in turn (players of one game, each at their own window) until
    ``until()``; fails, saying each walk's scene, after ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < end, [w.scene for w in walks]
        for w in walks:
            w.frames(1)
        time.sleep(0.005)


def all_to_the_board(*walks: Walk, leaders: bool = False, timeout: float = 30.0) -> None:
    """Frames for every walk until each sees the board: one who has a starting resource to take
    takes a Coin to the bottom shelf; ``leaders``: one choosing leaders keeps the first and third."""
    def step() -> bool:
        for w in walks:
            if leaders and w.scene == "LeaderChoiceScene" and w.button_at("Keep these") is None:
                for k in (pygame.K_1, pygame.K_3, pygame.K_RETURN):
                    w.key(k)
            if w.scene == "ResourceChoiceScene" and w.button_at("Take it") is None:
                w.click(w.app.stack.top.token_rects["Coin"].center)
                for label in ("Bottom", "Take it"):
                    if w.scene == "ResourceChoiceScene" and w.button_at(label) is not None:
                        w.click(w.button_at(label))
        return all(w.scene == "BoardScene" for w in walks)
    all_until(walks, step, timeout)


# ---------------------------------------------------------------------------- input to any app
def frames(app: App, n: int = 1, events=(), dt: float = 1 / 60) -> None:
    """``n`` frames of ``app``, the first given ``events`` (posted input, as pygame delivers it)."""
    app.frame(dt, list(events))
    for _ in range(n - 1):
        app.frame(dt)


def move(app: App, pos: Pos, dt: float = 1 / 60) -> None:
    """The pointer moves to ``pos``: one frame."""
    frames(app, 1, [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))], dt)


def click_at(app: App, pos: tuple[float, float], after: int = 3, dt: float = 1 / 60) -> None:
    """A left click at ``pos`` as a player makes it: the pointer moves there, the button goes down
    and up (a frame each), then ``after`` more frames (the widgets' own events, posted as the
    release is taken, arrive in them: a scene a button opens is on top after the second)."""
    pos = (int(pos[0]), int(pos[1]))
    move(app, pos, dt)
    frames(app, 1, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)], dt)
    frames(app, 1 + after, [pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)], dt)


def click(app: App, name: str, after: int = 3) -> None:
    """Click the widget of the top scene called ``name`` (``widgets[name]``): it must be enabled."""
    widget = app.stack.top.widgets[name]
    assert widget.is_enabled, f"{name} is disabled"
    click_at(app, widget.rect.center, after)


def save_failed_walks() -> None:
    """Every live walk's first frames to its folder (the test kit calls it when a test fails)."""
    for walk in list(_walks):
        walk.save()


def free_port() -> int:
    """A port free on every address a moment ago, with the next one free too (for a game a test
    hosts, whose TLS port is the next one).

    Taken below the kernel's ephemeral range (``ip_local_port_range``, 32768 and up by default),
    where no ``bind`` to port 0 and no outgoing connection ever lands: hosting tests failed now
    and then with "Address already in use" because another test's server, bound to port 0
    between this choice and the host's bind, had been given the same port. Here only two tests
    that both chose one could meet, one chance in thousands. Odd, so that a game's port is never
    another's TLS port."""
    import random
    import socket
    low = 32768
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        pass
    top = max(low, 12002)
    pick = random.SystemRandom()
    for _ in range(200):
        port = pick.randrange(max(10001, top - 20000), top - 1, 2) | 1
        try:
            with socket.socket() as s, socket.socket() as t:
                s.bind(("0.0.0.0", port))
                t.bind(("0.0.0.0", port + 1))
        except OSError:
            continue
        return port
    raise OSError("no two free ports in a row")


def close(app: App) -> None:
    """Every scene closed, and the server the app hosts stopped, as quitting does."""
    while app.stack.top is not None:
        app.stack.pop()
    if app.turn_news is not None:    # its thread ends with the app, as it does when quitting
        app.turn_news.close()
        app.turn_news = None
    if app.server is not None:
        app.server.stop()
        app.server = None


# ---------------------------------------------------------------------------- looking at a board
def not_flat(surface: pygame.Surface) -> bool:
    """Whether ``surface`` shows a picture: more than 40 colours among 23 x 17 points across it
    (a page drawn flat, or not at all, has a few)."""
    w, h = surface.get_size()
    colours = {tuple(surface.get_at((x * w // 23, y * h // 17)))[:3] for x in range(23) for y in range(17)}
    return len(colours) > 40


def _colours(surface: pygame.Surface, rect: pygame.Rect, step: int = 2) -> list[tuple[int, int, int]]:
    """The colours of every ``step``-th pixel of ``rect`` across and down, column after column
    (read from the rectangle's bytes: a ``get_at`` per pixel took a second a board)."""
    rect = rect.clip(surface.get_rect())
    if not rect.w or not rect.h:
        return []
    data = pygame.image.tobytes(surface.subsurface(rect), "RGB")
    row = rect.w * 3
    return [(data[i], data[i + 1], data[i + 2]) for x in range(0, row, 3 * step)
            for i in range(x, len(data), row * step)]


def _dark(c: tuple[int, int, int]) -> bool:
    return sum(c) < 3 * 110


def _paper(c: tuple[int, int, int]) -> bool:
    """Parchment (light, warm, low saturation) as the panels' paper is."""
    r, g, b = c
    return r > 185 and g > 160 and b > 110 and r - b < 95


def board_geometry(size: tuple[int, int], n_players: int) -> dict[str, list[pygame.Rect]]:
    """Where the board's pieces are for a window of ``size`` (from the layout and the panels'
    own geometry, for the standard game: a 3x4 market, 4 colours x 3 levels of cards)."""
    from game.scenes.layout import board_layout
    from game.scenes.panels.grid import GridPanel
    from game.scenes.panels.market import MarketPanel
    from game.scenes.panels.player_board import PlayerBoardPanel
    L = board_layout(size, n_players, n_players == 1)
    shape = SimpleNamespace(g={"market": {"grid": [[None] * 4] * 3},
                               "devCardGrid": {"topCards": {c: [] for c in ("Green", "Blue", "Yellow", "Purple")},
                                               "levelsCount": 3}})
    board = PlayerBoardPanel(L.board, L.unit)
    return {"cards": [r for _c, _l, r in GridPanel(L.grid, L.unit).card_rects(shape)],
            "arrows": [r for _t, r in MarketPanel(L.market, L.unit).arrow_rects(shape)],
            "track": [L.faith.inflate(-round(24 * L.unit), -round(24 * L.unit))],
            "board": [board.warehouse, board.strongbox, *board.slots],
            "actions": [L.actions.inflate(-round(16 * L.unit), -round(16 * L.unit))]}


def board_check(surface: pygame.Surface, n_players: int) -> dict[str, bool]:
    """Which panels a board frame shows: "cards" (every deck of the grid shows a card, not bare
    paper), "arrows" (every row and column has its carved arrow), "track" (the faith spaces),
    "board" (the player's board: shelves, strongbox, slots), "actions" (the action bar's buttons)."""
    geo = board_geometry(surface.get_size(), n_players)
    out = {}
    # a card: framed art, much of it neither paper nor the grid's paper
    out["cards"] = all(sum(not _paper(c) for c in cols) / len(cols) > 0.35
                       for cols in (_colours(surface, r) for r in geo["cards"]))
    # an arrow: a dark wooden button filling most of its square, with gold on it
    out["arrows"] = all(sum(_dark(c) for c in cols) / len(cols) > 0.3
                        for cols in (_colours(surface, r.inflate(-r.w // 4, -r.h // 4)) for r in geo["arrows"]))
    track = _colours(surface, geo["track"][0], 3)
    out["track"] = len(set(track)) > 60 and sum(not _paper(c) for c in track) / len(track) > 0.2
    board = [c for r in geo["board"] for c in _colours(surface, r, 3)]
    out["board"] = len(set(board)) > 60 and sum(not _paper(c) for c in board) / len(board) > 0.15
    bar = _colours(surface, geo["actions"][0], 3)
    out["actions"] = sum(not _paper(c) for c in bar) / len(bar) > 0.2
    return out


# ---------------------------------------------------------------------------- playing a turn
def play_market_turn(walk: Walk, n_players: int, line: int = 0) -> None:
    """One whole turn with the mouse and keys: click the ``line``-th arrow of the market (rows
    first, then columns), Enter (the suggested placement; Enter again if the board asks before
    discarding), then *End turn*. Needs ``settings.confirm_end_turn`` off."""
    arrows = board_geometry(walk.app.size, n_players)["arrows"]
    walk.click(arrows[line % len(arrows)].center)
    walk.key(pygame.K_RETURN, "\r")
    if walk.button_at("End turn") is None:          # asked before discarding: yes
        walk.key(pygame.K_RETURN, "\r")
    walk.press("End turn")
    walk.frames(2)


def region(surface: pygame.Surface, rect: pygame.Rect) -> bytes:
    """The pixels of ``rect`` (clipped to the surface), for comparing two frames."""
    return pygame.image.tobytes(surface.subsurface(rect.clip(surface.get_rect())), "RGB")


# ---------------------------------------------------------------------------- a standalone server
class ServerProcess:
    """Our standalone server (``server.py``) as a child process on 127.0.0.1, for walks that
    restart it: ``port`` 0 picks a free port; start it again on the same ``port`` and
    ``data_dir`` and it serves the same games (the clients' saved seats name the port)."""

    def __init__(self, data_dir: Path, port: int = 0, log_path: Path | None = None) -> None:
        import re
        import subprocess
        import sys
        root = Path(__file__).resolve().parent.parent
        self.log_path = log_path if log_path is not None else Path(data_dir).with_suffix(".log")
        self._log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, str(root / "server.py"), "--host", "127.0.0.1", "--port", str(port),
             "--data-dir", str(data_dir), "--log-level", "INFO", "--no-announce"],
            cwd=root, stdout=subprocess.PIPE, stderr=self._log)
        line = self.proc.stdout.readline().decode()   # type: ignore[union-attr]
        m = re.fullmatch(r"mor-server: listening on ([\d.]+):(\d+)\n", line)
        if m is None:
            self.stop()
            raise RuntimeError(f"the server did not start ({line!r}); see {self.log_path}")
        self.port = int(m.group(2))

    def kill(self) -> None:
        """``kill -9``: the server gets no chance to tidy up."""
        self.proc.kill()
        self.proc.wait(timeout=10)
        self._log.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self._log.close()
