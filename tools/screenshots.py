"""Render every client scene to PNG, headless: ``python tools/screenshots.py [OUT_DIR]``.

Games are played by the engine's random policy to a mid-game position, then shown through the
same session/view-model path the real client uses; the first boards are walked to from the title
by the real frame loop with posted events (tools/walk.py), and their FIRST frame is saved (the
run fails if a panel is missing from it). Writes ``docs/screenshots/*.png`` by default, in English,
and the same pictures in Italian in ``docs/screenshots/it/``.

Every picture is the same at every run, byte for byte: the games are seeded (the one Play solo
deals too: :data:`SEED` through ``MOR_SEED``), and the frames are drawn with a fixed clock (each
frame's time step is given, never read from the wall clock).
"""
from __future__ import annotations

import os
import random
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from game.match import Match  # noqa: E402
from game.netcode.server_messages import visible_to
from game.rules import Game, default_config, player_view  # noqa: E402
from game.rules.playout import steps  # noqa: E402
from game.client import board_input as BI  # noqa: E402


class TableMatch(Match):
    """An in-process game seen by one of its players; the others are played by the random policy."""

    def __init__(self, game: Game, nickname: str) -> None:
        self.game, self.nickname = game, nickname
        self.out = [player_view(game, nickname)]

    def send(self, request) -> None:
        from game.rules.errors import GameError
        try:
            events = self.game.apply(self.nickname, request)
        except GameError as e:
            self.out.append(e.to_dict())
            return
        self.out += [e for e in events if visible_to(e, self.nickname)]

    def poll(self):
        out, self.out = self.out, []
        return out

    def close(self) -> None:
        pass


def mid_game(nicks: list[str], seed: int, moves: int) -> Game:
    """A game after about ``moves`` random requests, stopped at the start of the first player's
    turn; seeds whose game ends earlier are skipped."""
    for s in range(seed, seed + 50):
        g = Game.new(default_config(), nicks, s)
        rng = random.Random(s)
        for i, (nick, action) in enumerate(steps(g, rng)):
            g.apply(nick, action)
            if i >= moves and g.phase == "play" and g.current_player.nickname == nicks[0] and not g.main_done:
                return g
    raise RuntimeError("no seed gave a long enough game")


def session_for(game: Game, nickname: str):
    from game.client.session import GameSession
    s = GameSession(TableMatch(game, nickname), default_config(), nickname)
    s.pump()
    return s


def shoot_board(app, game: Game, nickname: str, path: Path, hover=None) -> None:
    from game.scenes.board import BoardScene
    scene = BoardScene(app, session_for(game, nickname))
    app.stack.reset(scene)
    app.frame(0.016)
    if hover is not None:
        import pygame
        app.frame(0.016, [pygame.event.Event(pygame.MOUSEMOTION, pos=hover, rel=(0, 0), buttons=(0, 0, 0))])
    app.frame(0.016)
    app.screenshot(path)


class _Lobby(Match):
    """A match that only ever says where the waiting room stands (for the lobby picture)."""

    def __init__(self, msgs):
        self.msgs = list(msgs)

    def poll(self):
        out, self.msgs = self.msgs, []
        return out

    def send(self, request) -> None:
        pass

    def close(self) -> None:
        pass


def _played_out(nicks: list[str], seed: int) -> Game:
    g = Game.new(default_config(), nicks, seed)
    for nick, action in steps(g, random.Random(seed)):
        g.apply(nick, action)
    return g


NICKNAME = "Player 694"
"""The player of every picture (a fresh install draws its own nickname at random, from the OS)."""


def shots(app) -> dict:
    """name -> a function that puts the scene on the app's stack (the app's player named
    :data:`NICKNAME`)."""
    app.settings.nickname = NICKNAME
    import pygame
    from game.rules.actions import ReqChooseLeaders
    from game.scenes import game_over, join, leaders, lobby, overlay, resources, settings_page, title, waiting
    from game.scenes import help as help_
    from game.scenes.board import BoardScene
    from game.client.session import GameSession
    cfg = default_config()

    def board(nicks, seed, moves, act=None):
        def make():
            scene = BoardScene(app, session_for(mid_game(nicks, seed, moves), nicks[0]))
            app.stack.reset(scene)
            app.frame(0.016)
            if act:
                act(scene)
        return make

    def market_plan(scene):
        hit = next(h for h in scene.hits if h.target == BI.Line(False, 2))
        ev = pygame.event.Event
        app.frame(0.016, [ev(pygame.MOUSEBUTTONDOWN, pos=hit.rect.center, button=1)])

    def opponent(scene):
        hit = next(h for h in scene.hits if isinstance(h.target, BI.Opponent))
        app.frame(0.016, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=hit.rect.center, button=1)])

    def hover_card(scene):
        hit = next(h for h in scene.hits if isinstance(h.target, BI.Card))
        app.frame(0.016, [pygame.event.Event(pygame.MOUSEMOTION, pos=hit.rect.center, rel=(0, 0), buttons=(0, 0, 0))])

    def setup_scene(kind):
        def make():
            g = Game.new(cfg, ["Ada", "Bruno", "Cora", "Dario"], 7)
            # the fourth player has resources to choose after the leaders; the first has none, so
            # once its leaders are kept it waits for the others (the waiting page, not a hand-over)
            me = g.players[0 if kind == "waiting" else 3].nickname
            s = GameSession(TableMatch(g, me), cfg, me)
            s.pump()
            if kind != "leaders":
                s.send(ReqChooseLeaders(tuple(s.vm.me["leadersHand"][:2])))
                s.pump()
            scene = {"leaders": leaders.LeaderChoiceScene, "resources": resources.ResourceChoiceScene,
                     "waiting": waiting.WaitingScene}[kind](app, s)
            app.stack.reset(scene)
        return make

    def over(nicks, seed):
        def make():
            g = _played_out(nicks, seed)
            app.stack.reset(game_over.GameOverScene(app, session_for(g, nicks[0])))
        return make

    def waiting_room():
        s = GameSession(_Lobby([{"bookedSeats": 3, "canPrepareNewGame": "Ada", "type": "UpdateBookedSeats"}]),
                        cfg, "Ada")
        s.pump()
        app.stack.reset(lobby.LobbyScene(app, s))

    def lost():
        s = session_for(mid_game(["Ada", "Bruno"], 3, 30), "Ada")
        app.stack.reset(BoardScene(app, s))
        app.frame(0.016)
        s.connection_lost = True
        app.stack.push(overlay.ConnectionOverlay(app, s))

    return {
        "title": lambda: app.stack.reset(title.TitleScene(app)),
        "settings": lambda: app.stack.reset(settings_page.SettingsScene(app)),
        "join": lambda: app.stack.reset(join.JoinScene(app)),
        "how-to-play-market": lambda: app.stack.reset(help_.HelpScene(app, 2)),
        "how-to-play-leaders": lambda: app.stack.reset(help_.HelpScene(app, 5)),
        "lobby": waiting_room,
        "leader-choice": setup_scene("leaders"),
        "starting-resources": setup_scene("resources"),
        "waiting": setup_scene("waiting"),
        "board-solo": board(["Ada"], 7, 30),
        "board-4-players": board(["Ada", "Bruno", "Cora", "Dario"], 11, 120),
        "board-market-plan": board(["Ada", "Bruno"], 5, 40, market_plan),
        "board-card-hover": board(["Ada", "Bruno", "Cora"], 9, 60, hover_card),
        "board-opponent": board(["Ada", "Bruno", "Cora"], 9, 60, opponent),
        "reconnecting": lost,
        "game-over-4-players": over(["Ada", "Bruno", "Cora", "Dario"], 4),
        "game-over-solo": over(["Ada"], 4),
    }


SEED = 7
"""The seed of the solo game Play solo deals for the first boards (``MOR_SEED`` while they are walked)."""


@contextmanager
def _seeded() -> Iterator[None]:
    """New games dealt from :data:`SEED` meanwhile (``MOR_SEED``: see game/seeds.py), as it was after."""
    from game.seeds import ENV
    was = os.environ.get(ENV)
    os.environ[ENV] = str(SEED)
    try:
        yield
    finally:
        if was is None:
            del os.environ[ENV]
        else:
            os.environ[ENV] = was


def first_board(size: tuple[int, int], language: str = "en"):
    """The FIRST frame of the board at ``size`` (a pygame Surface), walked to from the title
    through Play solo (the deal of :data:`SEED`) and the leader choice; the game it saved is removed.

    :raises SystemExit: a panel is missing from that frame.
    """
    import pygame

    from game.scenes.app import App
    from game.scenes.catalog import register_scenes
    register_scenes()
    from game.scenes.title import TitleScene
    from walk import Walk, board_check

    from game.i18n import _
    app = App(headless=True, size=size, language=language)
    app.settings.nickname = NICKNAME
    walk = Walk(app)
    try:
        with _seeded():
            app.stack.push(TitleScene(app))
            walk.frames(2)
            walk.press(_("Play solo"))
            walk.until_scene("LeaderChoiceScene")
            for key, ch in ((pygame.K_1, "1"), (pygame.K_3, "3"), (pygame.K_RETURN, "\r")):
                walk.key(key, ch)
            walk.until_scene("BoardScene")
        first = walk.first("BoardScene")
    finally:
        while app.stack.top is not None:
            app.stack.pop()
        if app.solo_save_path.exists():
            app.solo_save_path.unlink()
    missing = [k for k, ok in board_check(first, 1).items() if not ok]
    if missing:
        raise SystemExit(f"the first board frame at {size} lacks: {', '.join(missing)}")
    return first


def walked(out: Path, language: str = "en") -> list[str]:
    """Shots taken the way a player gets there (tools/walk.py): the first board at 1024x640 and
    1920x1080 (:func:`first_board`); then a Vatican report as it plays out, by discarding a
    leader on the space before the pope's."""
    import pygame

    from walk import Walk

    from game.i18n import _
    from game.scenes.app import App
    names = []
    for size in ((1024, 640), (1920, 1080)):
        name = f"first-board-solo-{size[0]}x{size[1]}"
        pygame.image.save(first_board(size, language), str(out / f"{name}.png"))
        names.append(name)
    # a Vatican report's moment, half a second in
    from game.scenes.board import BoardScene
    app = App(headless=True, size=(1280, 800), language=language)
    game = mid_game(["Ada", "Bruno"], 3, 6)
    for p in game.players:
        p.faith = 7 if p.nickname == "Ada" else 2
    scene = BoardScene(app, session_for(game, "Ada"))
    app.stack.push(scene)
    walk = Walk(app)
    walk.frames(2)
    leader = next(h for h in scene.hits if isinstance(h.target, BI.Leader))
    walk.click(leader.rect.center)
    walk.press(_("Discard (+1 Faith)"))
    for _ in range(5):
        app.frame(0.12)
    walk.move((3, 3))
    pygame.image.save(app.window, str(out / "board-vatican-report.png"))
    names.append("board-vatican-report")
    return names


def main(argv: list[str]) -> int:
    import tempfile
    os.environ["MOR_CONFIG_DIR"] = os.environ["MOR_DATA_DIR"] = tempfile.mkdtemp()
    root = Path(argv[0]) if argv else ROOT / "docs" / "screenshots"
    from game import i18n
    from game.scenes.app import App
    from game.scenes.catalog import register_scenes
    register_scenes()
    for lang in LANGUAGES:
        out = root if lang == i18n.SOURCE else root / lang
        out.mkdir(parents=True, exist_ok=True)
        app = App(headless=True, size=(1280, 800), language=lang)
        for name, make in shots(app).items():
            make()
            app.frame(0.016)
            app.frame(0.016)
            app.screenshot(out / f"{name}.png")
        while app.stack.top is not None:
            app.stack.pop()
        walked(out, lang)
        print(f"wrote {len(list(out.glob('*.png')))} screenshots to {out}")
    return 0


LANGUAGES = ("en", "it")
"""The languages pictured: English in the folder itself, any other in a folder of its code."""


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
