"""The client's memory stays bounded: every cache of pictures keeps to its budget in bytes through
a whole game, a resize empties them, and a game left for the title is freed with its pictures."""
from __future__ import annotations

import gc
import random
import sys
import weakref
from pathlib import Path

import pygame
import pytest

from game.netcode.server_messages import visible_to
from game.rules.components import default_config
from game.rules.engine import Game
from game.rules.playout import steps
from game.scenes import memory
from game.scenes.app import App
from game.scenes.board import BoardScene
from game.scenes.memory import SurfaceCache, surface_cache

from support.table import session_for
from walk import Walk, board_check


def test_a_surface_cache_keeps_to_its_budget_in_bytes_and_in_entries():
    made = []

    def square(side: int) -> pygame.Surface:
        made.append(side)
        return pygame.Surface((side, side), pygame.SRCALPHA)

    cache = SurfaceCache(square, budget=100 * 100 * 4 * 3, maxsize=5)
    for side in (100, 100, 100):
        cache(side)
    assert made == [100] and len(cache) == 1          # served again, drawn once
    for side in range(50, 110, 10):                   # 50..100: more pixels than the budget holds
        cache(side)
        assert cache.nbytes <= cache.budget and len(cache) <= 5
        assert cache.nbytes == sum(s.get_width() * s.get_height() * 4 for s, _ in cache._data.values())
    assert (100,) in cache._data                      # the latest is kept, the oldest went first
    assert (50,) not in cache._data
    big = cache(400)                                  # heavier than the whole budget: drawn, not kept
    assert big.get_size() == (400, 400) and (400,) not in cache._data
    cache.cache_clear()
    assert len(cache) == 0 and cache.nbytes == 0
    # tuples of surfaces weigh what their surfaces weigh; keyword arguments are part of the key
    pair = surface_cache(1, 8)(lambda w, h=1: (pygame.Surface((w, h)), pygame.Surface((w, h))))
    pair(10, h=10)
    pair(10, h=10)
    assert len(pair) == 1 and pair.nbytes == 2 * 10 * 10 * pygame.Surface((1, 1)).get_bytesize()


def _first_board(app: App, nicks: list[str]) -> BoardScene:
    """The board of ``nicks[0]`` at the first turn of a seeded game, drawn once."""
    game = Game.new(default_config(), nicks, 3)
    for nick, action in steps(game, random.Random(3)):
        game.apply(nick, action)
        if game.phase == "play":
            break
    board = BoardScene(app, session_for(game, nicks[0]))
    app.stack.reset(board)
    app.frame(1 / 60)
    return board


def _over_budget() -> dict[str, dict[str, int]]:
    return {name: info for name, info in memory.caches().items()
            if info["bytes"] > info["budget"] or info["count"] > info["maxsize"]}


def test_a_whole_game_keeps_every_cache_in_its_budget_and_the_title_frees_it(app):
    """A whole 2-player game shown on the board, the mouse moving between the moves: the caches
    stop growing (the second half of the game adds less than the first), never pass their budgets,
    and leaving for the title frees the game, its scene and the pictures cached for it."""
    from game.scenes.title import TitleScene
    memory.clear_caches(kept=True)                    # from nothing, whatever other tests drew
    game = Game.new(default_config(), ["Ada", "Bruno"], 3)
    rng = random.Random(3)
    session, board, moves, totals = None, None, 0, []
    for nick, action in steps(game, random.Random(3)):
        events = game.apply(nick, action)
        if session is None:
            if game.phase != "play":
                continue
            session = session_for(game, "Ada")
            board = BoardScene(app, session)
            app.stack.reset(board)
        else:
            session.match.out += [e for e in events if visible_to(e, "Ada")]
        moves += 1
        pos = (rng.randrange(1024), rng.randrange(640))
        app.frame(1 / 60, [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))])
        assert not _over_budget(), _over_budget()
        totals.append(sum(i["count"] for i in memory.caches().values()))
    app.frame(1 / 60)
    assert game.ended and moves > 40
    half = len(totals) // 2
    assert totals[-1] - totals[half] <= totals[half] - totals[0] + 50, totals[::10]
    assert memory.cached_bytes() <= memory.budget_bytes()
    assert memory.cached_bytes() > 0                  # the board did use them
    # back to the title: the game and its board go, with the pictures cached for them (the kept
    # textures and glyphs stay, within their budgets: the next game draws no wood again)
    gone = [weakref.ref(session), weakref.ref(board), weakref.ref(game)]
    del session, board, game, events
    app.stack.reset(TitleScene(app))
    assert memory.cached_bytes(kept=False) == 0
    assert 0 < memory.cached_bytes(kept=True) <= memory.budget_bytes(kept=True) and not _over_budget()
    app.frame(1 / 60)
    gc.collect()
    assert [r() for r in gone] == [None, None, None]


def test_the_kept_pictures_hold_no_word_of_their_own_and_outlive_a_game(app, monkeypatch):
    """The kept caches (textures, icons, glyphs keyed by their text) survive the handover back to
    the title, so a second game draws no wood again; and none of them draws a word it was not
    given: each kept picture of a 4-player board, drawn again in Italian, is the same picture."""
    from game.scenes.title import TitleScene
    memory.clear_caches(kept=True)
    kept = {name: c for name, c in memory._CACHES.items() if c.kept}
    drawn: list[tuple[str, tuple, dict]] = []
    originals = {name: c.function for name, c in kept.items()}
    for name, cache in kept.items():
        def record(*args, _draw=cache.function, _name=name, **kwargs):
            drawn.append((_name, args, kwargs))
            return _draw(*args, **kwargs)
        monkeypatch.setattr(cache, "function", record)
    _first_board(app, ["Ada", "Bruno", "Cora", "Dario"])
    assert len({name for name, _a, _k in drawn}) >= 8, drawn   # textures, icons and words
    app.stack.reset(TitleScene(app))
    app.frame(1 / 60)
    assert memory.cached_bytes(kept=False) < memory.cached_bytes(kept=True)
    first = len(drawn)
    _first_board(app, ["Ada", "Bruno", "Cora", "Dario"])          # the same board again: drawn from them
    assert len(drawn) - first < first // 4, drawn[first:]
    app.speak("it")
    try:
        for name, args, kwargs in drawn[:first]:
            held = kept[name](*args, **kwargs)
            again = originals[name](*args, **kwargs)
            for old, new in zip(held if isinstance(held, tuple) else (held,),
                                again if isinstance(again, tuple) else (again,)):
                assert pygame.image.tobytes(old, "RGBA") == pygame.image.tobytes(new, "RGBA"), (name, args)
    finally:
        app.speak("en")


def test_a_resize_empties_the_scenes_caches_drawn_for_the_old_size(app):
    """The scenes' pictures go with the old size; the kept ones (keyed by their size) stay, and the
    new size's are drawn beside them within their budgets."""
    from game.scenes.title import TitleScene
    memory.clear_caches(kept=True)                    # from nothing, whatever other tests drew
    app.stack.push(TitleScene(app))
    app.frame(1 / 60)
    assert memory.cached_bytes() > 0
    app.resize((1280, 800))
    assert memory.cached_bytes(kept=False) == 0
    before = memory.cached_bytes(kept=True)
    app.frame(1 / 60)                                 # the title is drawn again, at the new size
    assert memory.cached_bytes(kept=True) > before and not _over_budget()


def test_every_scene_at_one_scale_shares_one_ui_theme_and_a_popped_scene_frees_its_manager(app, monkeypatch):
    """pygame_gui's theme holds the fonts and the atlases of widget shapes (4 MB each): the scenes'
    managers share one per scale instead of one each, and a popped scene's manager goes with it."""
    from game.scenes import scene
    from game.scenes.settings_page import SettingsScene
    from game.scenes.title import TitleScene
    from game.scenes.scene import shared_themes
    # themes of this test's own: one shared with a manager another test left alive in this worker
    # (at the same size) would outlive this test's scenes, and the last assert fail (seen)
    monkeypatch.setattr(scene, "_THEMES", {})
    title = TitleScene(app)
    app.stack.push(title)
    app.frame(1 / 60)
    over = SettingsScene(app)
    app.stack.push(over)
    app.frame(1 / 60)
    assert title.ui is not over.ui and title.ui.ui_theme is over.ui.ui_theme
    assert shared_themes() == 1
    atlases = [c["surface"] for c in title.ui.ui_theme.shape_cache.cache_surfaces]
    assert atlases and all(s.get_size() == (1024, 1024) for s in atlases)
    manager = weakref.ref(over.ui)
    app.stack.pop()
    del over
    app.frame(1 / 60)
    gc.collect()
    assert manager() is None
    # another scale: a theme of its own for the new size, shared again, the old one let go
    old = weakref.ref(title.ui.ui_theme)
    app.resize((1600, 900))
    app.frame(1 / 60)
    other = SettingsScene(app)
    app.stack.push(other)
    app.frame(1 / 60)
    assert other.ui.ui_theme is title.ui.ui_theme and shared_themes() == 1
    gc.collect()
    assert old() is None
    assert title.widgets and all(w.ui_manager is title.ui for w in title.widgets.values())


def test_the_board_keeps_no_window_sized_background_besides_its_frame_and_lets_its_frame_go(app):
    """The walnut table and the panels' parchment are drawn once into the board's cached frame:
    no cache keeps a window-sized copy of them, and a board that is left lets its frames go even
    if something still holds the scene."""
    from game.scenes.title import TitleScene
    memory.clear_caches(kept=True)
    board = _first_board(app, ["Ada", "Bruno", "Cora", "Dario"])
    window = app.window.get_width() * app.window.get_height()
    assert board._static is not None and board._base is not None
    for name, cache in memory._CACHES.items():
        for value, _size in cache._data.values():
            for s in (value if isinstance(value, tuple) else (value,)):
                if isinstance(s, pygame.Surface):
                    assert s.get_width() * s.get_height() < window * 0.6, (name, s.get_size())
    app.stack.reset(TitleScene(app))
    assert board._static is None and board._base is None


def test_one_font_object_per_style_serves_every_size_with_the_pixels_of_its_own_font():
    """Each pygame Font holds a FreeType face and HarfBuzz tables (about 180 KB): a game asked for
    some eighty sizes. One object per style now serves them all, drawing what a font opened at
    that size draws."""
    from game.scenes.art import fonts as F
    pygame.font.init()
    seen = {}
    for size, style, text in ((14, "regular", "Coin 0123"), (76, "regular", "Masters"), (22, "italic", "the end"),
                              (14, "caps", "warehouse"), (9, "regular", "x 3"), (14, "regular", "Shield")):
        f = F.font(size, style)
        seen.setdefault(style, set()).add(id(f))
        own = pygame.font.Font(F.FONTS_DIR / F._FILES[style], size)
        assert f.size(text) == own.size(text) and f.get_height() == own.get_height()
        assert pygame.image.tobytes(f.render(text, True, (60, 40, 20)), "RGBA") == \
            pygame.image.tobytes(own.render(text, True, (60, 40, 20)), "RGBA")
    assert all(len(ids) == 1 for ids in seen.values()) and len(seen) == 3
    with pytest.raises(ValueError):
        F.font(12, "bold")


def test_the_heap_is_given_back_when_a_scene_hands_over_and_after_a_game_is_left(app, monkeypatch):
    """glibc keeps freed pictures in the process: the app returns them (malloc_trim) in the frame
    a scene is popped or replaced, and after a game is left (with a collection first)."""
    from game.scenes import app as app_module
    from game.scenes.settings_page import SettingsScene
    from game.scenes.title import TitleScene
    calls = []
    monkeypatch.setattr(app_module, "give_back", lambda: calls.append("trim"))
    monkeypatch.setattr(app_module.gc, "collect", lambda *a: calls.append("gc") or 0)
    app.stack.push(TitleScene(app))
    app.frame(1 / 60)
    app.frame(1 / 60)
    calls.clear()
    app.frame(1 / 60)
    assert calls == []                                # nothing handed over: nothing to give back
    settings = SettingsScene(app)
    app.stack.push(settings)
    app.frame(1 / 60)

    class Pop(type(settings)):
        def update(self, dt):
            self.app.stack.pop()
    settings.__class__ = Pop
    calls.clear()
    app.frame(1 / 60)                                 # the scene pops itself in its update
    assert calls == ["trim"]
    calls.clear()

    class Leave(TitleScene):
        def update(self, dt):
            self.app.stack.reset(TitleScene(self.app))
    app.stack.top.__class__ = Leave
    app.frame(1 / 60)
    assert calls == ["gc", "trim"]


def test_a_click_that_leaves_a_scene_gives_the_heap_back_in_that_frame(app, monkeypatch):
    """A scene left by a click (a button's event, handled before the update) gives its memory
    back as one left in an update does; a game left by a click is collected first. (A whole game
    on a real display kept every byte on the title after it: 'Back to the title' is a click.)"""
    from game.scenes import app as app_module
    from game.scenes.settings_page import SettingsScene
    from game.scenes.title import TitleScene
    calls = []
    monkeypatch.setattr(app_module, "give_back", lambda: calls.append("trim"))
    monkeypatch.setattr(app_module.gc, "collect", lambda *a: calls.append("gc") or 0)
    walk = Walk(app)
    app.stack.push(TitleScene(app))
    walk.frames(3)
    calls.clear()
    walk.click(app.stack.top.widgets["settings"].rect.center, after=3)
    assert isinstance(app.stack.top, SettingsScene) and calls == ["trim"]
    walk.frames(2)
    calls.clear()
    walk.key(pygame.K_ESCAPE, after=3)                # Esc: back to the title
    assert isinstance(app.stack.top, TitleScene) and calls == ["trim"]

    class Leave(TitleScene):                          # a game left by a key (as Esc leaves a board)
        def handle_event(self, event):
            if event.type == pygame.KEYDOWN and event.key == pygame.K_q:
                self.app.stack.reset(TitleScene(self.app))
    app.stack.reset(Leave(app))
    walk.frames(2)
    calls.clear()
    walk.key(pygame.K_q, after=0)
    assert type(app.stack.top) is TitleScene and calls == ["gc", "trim"]


def _run_title(app, monkeypatch, linger: float, script) -> list[float]:
    """Run the title in ``App.run`` (linger ``linger``, idle tick 0.25 s) with ``script(trims,
    wait)`` on a thread beside it; ``trims`` holds the times the heap was given back, and ``wait``
    waits up to 10 s for a condition. The loop stops when the script returns."""
    import threading
    import time
    from game.scenes import app as app_module
    from game.scenes.title import TitleScene
    trims: list[float] = []
    monkeypatch.setattr(app_module, "give_back", lambda: trims.append(time.perf_counter()))
    monkeypatch.setattr(app_module, "LINGER", linger)
    monkeypatch.setattr(app_module, "IDLE_TICK", 0.25)
    app.shutdown = lambda: None
    error = []

    def wait(cond, timeout=10.0):
        end = time.monotonic() + timeout
        while not cond() and time.monotonic() < end:
            time.sleep(0.01)

    def run():
        try:
            script(trims, wait)
        except BaseException as e:
            error.append(e)
        finally:
            app.running = False
            app.wake()

    threading.Thread(target=run, daemon=True).start()
    app.run(TitleScene(app))
    assert not error, error
    return trims


def test_the_frame_loop_gives_the_heap_back_when_it_falls_asleep_once_per_burst(app, monkeypatch):
    """``App.run`` gives the memory freed while it drew back to the system each time it falls
    asleep after a burst of frames, once (not on the frames of its idle tick)."""
    import time
    seen = {}

    def script(trims, wait):
        wait(lambda: app.drawn > 0)
        wait(lambda: trims)                       # the first burst ends: asleep, given back
        time.sleep(0.3)                           # (a second give-back would come now)
        seen["first"] = len(trims)
        time.sleep(1.0)                           # asleep: idle ticks only (about four)
        seen["asleep"] = len(trims) - seen["first"]
        drawn, before = app.drawn, len(trims)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(0, 0), buttons=(0, 0, 0)))
        wait(lambda: len(trims) > before)         # awake for the linger, then asleep again
        time.sleep(0.3)
        seen["burst"] = app.drawn - drawn
        seen["after"] = len(trims) - seen["first"] - seen["asleep"]

    _run_title(app, monkeypatch, 0.2, script)
    assert seen["first"] == 1                         # the title's first frames, then sleep: given back
    assert seen["asleep"] == 0                        # idle ticks give nothing back (nothing was drawn)
    assert seen["burst"] > 3 and seen["after"] == 1   # one burst, one give-back


def test_a_burst_of_one_frame_longer_than_the_linger_still_gives_the_heap_back(app, monkeypatch):
    """On a slow or busy machine one frame (the first of a scene above all) can outlast the
    linger: the app is asleep as soon as it is drawn. That frame was still a burst, and what it
    freed is given back (it used to be kept until a burst of several frames came)."""
    import time
    seen = {}

    def script(trims, wait):
        wait(lambda: app.drawn > 0 and trims)     # the first frame alone, then asleep
        seen["first"] = before = len(trims)
        app.wake()                                # woken once: one frame, then asleep
        wait(lambda: len(trims) > before)
        time.sleep(0.6)                           # idle ticks after it give nothing back
        seen["woken"] = len(trims) - before

    _run_title(app, monkeypatch, 0.0, script)         # every frame outlasts the linger
    assert seen["first"] == 1 and seen["woken"] == 1


def test_the_board_draws_a_change_into_the_same_frame_and_a_question_dims_in_place(app):
    """A change on the board is drawn into the board's frame it already has (a new window-sized
    copy for each change made two of them live at once), and the screen behind a question is
    blurred and darkened in place, the same pixels as a veil laid over it."""
    from game.scenes.backdrop import BLUR, VEIL, dim
    board = _first_board(app, ["Ada", "Bruno"])
    base, static = board._base, board._static
    before = pygame.image.tobytes(base, "RGB")
    board.session.say("That shelf is full.")        # something changed: the board is drawn again
    app.frame(1 / 60)
    assert board._base is base and board._static is static
    assert pygame.image.tobytes(base, "RGB") != before
    # dim: in place, as the veil over the blur did it (within rounding)
    shot = app.window.copy()
    w, h = shot.get_size()
    want = pygame.transform.smoothscale(pygame.transform.smoothscale(shot, (w // BLUR, h // BLUR)), (w, h))
    veil = pygame.Surface((w, h), pygame.SRCALPHA)
    veil.fill(VEIL)
    want.blit(veil, (0, 0))
    dim(shot)
    for x, y in ((5, 5), (w // 2, h // 2), (w - 7, h // 3), (w // 5, h - 9), (w // 3, h // 4)):
        assert all(abs(a - b) <= 3 for a, b in zip(shot.get_at((x, y))[:3], want.get_at((x, y))[:3])), (x, y)


def test_the_boards_window_sized_table_is_drawn_with_at_most_three_window_sized_pictures_alive(tmp_path):
    """The walnut table under the board is drawn once per board at the window's size: its layers
    are cut to the parts that show (the stiles' columns, the rounded corners) and let go as soon as
    used. It made five window-sized pictures at once (39 MB at 1920x1080, the peak of a board's
    first frame); now the process's peak rises by less than 3.5 windows' worth while it is drawn."""
    import os
    import subprocess
    root = Path(__file__).resolve().parents[2]
    code = (
        "import pygame\n"
        "pygame.init()\n"
        "from game.scenes.art import board\n"
        "def hwm():\n"
        "    return next(int(l.split()[1]) * 1024 for l in open('/proc/self/status') if l.startswith('VmHWM'))\n"
        "h0 = hwm()\n"
        "s = board.wood_panel.once(1920, 1080)\n"
        "print(hwm() - h0, s.get_width() * s.get_height() * 4)\n")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60,
                         cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    rise, window = map(int, out.stdout.split()[-2:])
    assert rise < 3.5 * window, (rise / 2**20, window / 2**20)


@pytest.mark.seed(1)
def test_a_stage_that_hands_over_leaves_its_pictures_behind(app):
    """Title → Play solo → leader choice → board, through the frame loop: the leader choice's large
    cards and halos are not kept through the game once the board has taken its place (they were,
    to the end of it: with the board's panel paper, about 20 MB of a 4-player game's peak at
    1600x900), and the board's parchment and walnut live in its frame, not in a cache as well."""
    from game.scenes.title import TitleScene
    walk = Walk(app)
    app.settings.confirm_end_turn = False
    app.stack.push(TitleScene(app))
    walk.frames(2)
    walk.press("Play solo")
    walk.until_scene("LeaderChoiceScene")
    walk.frames(2)
    leaders = memory._CACHES["game.scenes.art.leader_cards._leader_card"]
    glow = memory._CACHES["game.scenes.backdrop.glow"]
    shown = set(leaders._data)
    assert len(shown) == 4 and len(glow) > 0          # the choice drew its four cards, lifted on halos
    walk.key(pygame.K_1, "1")
    walk.key(pygame.K_3, "3")
    walk.key(pygame.K_RETURN, "\r")
    walk.until_scene("BoardScene")                    # the board's first frame
    assert board_check(app.window, 1)["cards"]
    assert not shown & set(leaders._data) and len(glow) == 0
    assert len(memory._CACHES["game.scenes.art.board.parchment"]) == 0
    assert len(memory._CACHES["game.scenes.art.board.wood_panel"]) == 0
    assert memory.cached_bytes() > 0                  # what the board draws again stays cached
