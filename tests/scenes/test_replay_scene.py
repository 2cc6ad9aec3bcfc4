"""The replay scene in the real frame loop, with posted events only: from the title's Past games to
a finished game's board, stepped back and forth with the keys and the buttons (each first frame
shows the table of that step), exported, and opened again from its file; a damaged file is
explained; the game-over page opens the replay of the game just played."""
from __future__ import annotations

import random

import orjson
import pygame
import pytest

from game import replays as R
from game.client import replay as C
from game.match import LocalMatch
from game.rules import default_config
from game.rules.playout import choose, random_game
from game.scenes.app import App
from game.scenes.title import TitleScene
from game.scenes.past_games import PastGamesScene
from game.scenes.replay import ReplayScene
from game.client import board_input as BI
from walk import click, click_at, frames

CFG = default_config()


@pytest.fixture
def app(tmp_path, monkeypatch):
    import game.scenes.replay as scene_module
    monkeypatch.setattr(scene_module, "default_export_dir", lambda: tmp_path / "exported")
    (tmp_path / "exported").mkdir()          # (a documents folder: there already, never made by the game)
    a = App(headless=True, size=(1024, 640))
    yield a
    while a.stack.top is not None:
        a.stack.pop()


def key(app: App, k: int) -> None:
    frames(app, 2, [pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)])


def shows(scene: ReplayScene, step: int) -> None:
    """The scene's board and log are those of ``step`` (from a replay of the file from the start)."""
    assert scene.step == step
    fresh = C.Replay(scene.replay.record, CFG)
    assert scene.session.vm.game == fresh.view_at(step)
    assert scene.session.log == fresh.lines_until(step)


def test_past_games_to_a_replay_stepped_exported_and_opened_again(app, tmp_path):
    game = random_game(CFG, ["Ada", "Bruno", "Carla"], seed=12)
    R.save_finished(game, app.data_dir / R.REPLAYS, "bots", "Ada")
    app.stack.reset(TitleScene(app))
    frames(app, 2)
    click(app, "past")
    page = app.stack.top
    assert isinstance(page, PastGamesScene) and len(page.games) == 1
    click(app, "game0")
    scene = app.stack.top
    assert isinstance(scene, ReplayScene)
    end = len(scene.replay)
    shows(scene, 0)                                        # it opens at the deal
    key(app, pygame.K_END)
    shows(scene, end)                                      # the end: every hand is shown
    view = scene.session.vm.game
    assert [p["leadersHand"] for p in view["players"]] == [q.hand for q in game.players]
    key(app, pygame.K_LEFT)
    shows(scene, end - 1)
    key(app, pygame.K_UP)
    start = scene.replay.previous_turn(end - 1)
    shows(scene, start)
    click_at(app, scene.controls["turn_back"].rect.center)
    shows(scene, scene.replay.previous_turn(start))
    key(app, pygame.K_HOME)
    shows(scene, 0)
    assert not scene.controls["back"].is_enabled
    click_at(app, scene.controls["next"].rect.center)
    shows(scene, 1)
    key(app, pygame.K_DOWN)
    shows(scene, scene.replay.next_turn(1))
    # the others' hands are hidden before the end
    g = scene.replay.game_at(scene.step)
    for p, q in zip(scene.session.vm.game["players"], g.players):
        if q.nickname != "Ada":
            assert set(p["leadersHand"]) <= set(q.active_leaders)
    # an opponent's whole board opens with a click on their name
    chip = next(h for h in scene.hits if isinstance(h.target, BI.Opponent))
    click_at(app, chip.rect.center)
    assert scene.viewing == chip.target.nickname
    click_at(app, chip.rect.center)
    # export, then open the file from the Past games page
    click_at(app, scene.buttons["rules"].rect.center)
    (exported,) = (tmp_path / "exported").glob("*.json")
    assert "Saved as" in (scene.session.error or "")
    click_at(app, scene.buttons["leave"].rect.center)
    assert app.stack.top is page
    page.widgets["path"].set_text(str(exported))
    click(app, "open")
    again = app.stack.top
    assert isinstance(again, ReplayScene) and again.replay.final.snapshot() == game.snapshot()
    key(app, pygame.K_ESCAPE)
    assert app.stack.top is page
    # a damaged file and another game's rules are explained, and nothing opens
    bad = tmp_path / "bad.json"
    record = orjson.loads(exported.read_bytes())
    for data, words in ((b"{oops", "not JSON"), (orjson.dumps({**record, "configDigest": "f" * 64}), "other rules")):
        bad.write_bytes(data)
        page.widgets["path"].set_text(str(bad))
        click(app, "open")
        assert app.stack.top is page and words in page.message
    frames(app, 2)


def test_the_game_over_page_opens_the_replay_of_the_game_just_played(app):
    from game.scenes.router import scene_for
    from game.client.session import GameSession
    match = LocalMatch(CFG, "Ada", seed=3, save_path=app.data_dir / "solo-game.json")
    rng = random.Random(3)
    while not match.game.ended:
        match.send(choose(match.game, "Ada", rng))
    session = GameSession(match, CFG, "Ada")
    session.pump()
    app.stack.reset(scene_for(app, session))
    frames(app, 2)
    click(app, "replay")
    scene = app.stack.top
    assert isinstance(scene, ReplayScene) and scene.replay.final.snapshot() == match.game.snapshot()
    assert [g.kind for g in C.past_games(app.data_dir)] == ["solo"]     # and it is kept


LEVELS = {"Cosimo (bot)": "hard", "Lucrezia (bot)": "easy"}


def _names_on_the_top_bar(app: App, monkeypatch) -> list[str]:
    """The words the replay's top bar writes (its opponents' cards), drawn again."""
    from game.scenes.panels import top_bar
    said: list[str] = []
    text = top_bar.text
    monkeypatch.setattr(top_bar, "text", lambda surface, words, *a, **k: (said.append(str(words)),
                                                                          text(surface, words, *a, **k))[1])
    app.stack.top._rev += 1
    frames(app, 2)
    return said


def test_a_replay_of_a_game_against_the_computer_names_each_bot_with_its_level(app, monkeypatch):
    """A game against the computer, finished: its replay, opened from the game-over page and again
    from Past games, names the bots as the game did ("Cosimo (hard)"), never "Cosimo (bot)"."""
    from game.client.session import GameSession
    from game.match import Match
    from game.match.local import keep_replay
    from game.replays import replay_record
    from game.rules.views import player_view
    from game.scenes.router import scene_for
    game = random_game(CFG, ["Ada", *LEVELS], seed=12)

    class Ended(Match):                                    # a game against the computer, over
        nickname, bots, replay_path, save_path = "Ada", dict(LEVELS), None, app.data_dir / "bots-game.json"

        def __init__(self) -> None:
            self.game = game

        def replay_record(self):
            return replay_record(game, "bots", "Ada", self.bots)

    match = Ended()
    session = GameSession(match, CFG, "Ada")
    session.vm.feed(player_view(game, "Ada"))
    app.stack.reset(scene_for(app, session))
    frames(app, 2)
    click(app, "replay")                                   # from the game-over page
    assert isinstance(app.stack.top, ReplayScene)
    said = " ".join(_names_on_the_top_bar(app, monkeypatch))
    assert "Cosimo (hard)" in said and "Lucrezia (easy)" in said and "(bot)" not in said, said
    while app.stack.top is not None:
        app.stack.pop()
    keep_replay(match, "bots")                              # the game is kept as it ends
    assert R.read_record(match.replay_path)["bots"] == LEVELS
    app.stack.reset(TitleScene(app))
    frames(app, 2)
    from game.scenes.art import fonts
    rendered: list[str] = []
    render = fonts.render
    monkeypatch.setattr(fonts, "render", lambda words, *a, **k: (rendered.append(str(words)), render(words, *a, **k))[1])
    click(app, "past")
    page = app.stack.top
    assert isinstance(page, PastGamesScene)
    row = next(w for w in rendered if w.startswith("Ada, "))
    assert row == "Ada, Cosimo (hard), Lucrezia (easy)", row   # the list names them so too, whole
    click(app, "game0")                                    # from Past games
    assert isinstance(app.stack.top, ReplayScene)
    said = " ".join(_names_on_the_top_bar(app, monkeypatch))
    assert "Cosimo (hard)" in said and "Lucrezia (easy)" in said and "(bot)" not in said, said


def test_export_goes_to_the_games_data_never_over_a_file_and_makes_no_folder_unasked(tmp_path, monkeypatch):
    """With MOR_DATA_DIR set, Export wrote to ~/Documents (and made a folder there unasked), and a
    second export replaced the first without asking: it goes to the data folder's exports, and
    a second export is a second file."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    from game.client.replay import open_replay
    from game.scenes.replay import ReplayScene, default_export_dir
    assert default_export_dir() == tmp_path / "data" / "exports"
    app = App(headless=True, size=(1024, 640))
    try:
        game = random_game(CFG, ["Ada", "Bruno"], seed=12)
        saved = R.save_finished(game, app.data_dir / R.REPLAYS, "bots", "Ada")
        scene = ReplayScene(app, open_replay(saved, app.config, "Ada"))
        app.stack.push(scene)
        frames(app, 3)
        click_at(app, scene.buttons["rules"].rect.center)
        click_at(app, scene.buttons["rules"].rect.center)
        files = sorted((tmp_path / "data" / "exports").glob("*.json"))
        assert len(files) == 2 and files[0].read_bytes() == files[1].read_bytes()
        second = [f for f in files if f.stem.endswith("-2")]     # the second export: "…-2.json"
        assert len(second) == 1 and scene.session.error == f"Saved as {second[0]}"
        assert not any((tmp_path / "home").iterdir())                       # nothing made in the home folder
    finally:
        while app.stack.top is not None:
            app.stack.pop()


def test_a_file_that_cannot_be_opened_is_explained_in_the_players_language(tmp_path):
    """Past games in Italian: a path with no file, a folder, a file that is not JSON and one that is
    not a replay are each explained in Italian (they were said in English, with the OS's
    "No such file or directory"), and nothing opens."""
    from game import i18n
    app = App(headless=True, size=(1024, 640), language="it")
    try:
        page = PastGamesScene(app)
        app.stack.push(page)
        frames(app, 2)
        (tmp_path / "oops.json").write_bytes(b"{oops")
        (tmp_path / "other.json").write_bytes(b"{}")
        for path, words in ((tmp_path / "none.json", "Non c'è nessun file in"), (tmp_path, "è una cartella"),
                            (tmp_path / "oops.json", "Il file è danneggiato: non è JSON."),
                            (tmp_path / "other.json", "non è una partita registrata")):
            click_at(app, page.widgets["path"].rect.center)
            page.widgets["path"].set_text(str(path))
            click(app, "open")
            assert app.stack.top is page and words in (page.message or ""), page.message
    finally:
        while app.stack.top is not None:
            app.stack.pop()
        i18n.use("en")
