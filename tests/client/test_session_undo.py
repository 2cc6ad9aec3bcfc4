"""Undo in the client's session: offered exactly when the engine allows it, taken back and saved
in a local solo game, and in a game against the computer."""
from __future__ import annotations

import random

import pytest

from game.client.session import GameSession
from game.match import LocalMatch
from game.netcode.server_messages import visible_to
from game.rules import default_config, player_view
from game.rules.actions import ReqSwapShelves
from game.rules.engine import Game
from game.rules.playout import choose
from support.table import Table

CFG = default_config()


@pytest.mark.parametrize("players", [1, 2, 4])
def test_the_session_offers_undo_exactly_when_the_engine_allows_it(players):
    """Random play with random undos: after every message, the session's ``can_undo`` equals the
    engine's, and its view model equals the player's view."""
    nicks = ["Ada", "Bruno", "Cora", "Dario"][:players]
    game = Game.new(CFG, nicks, seed=7)
    sessions = {n: GameSession(Table(game, n, undo=True), CFG, n) for n in nicks}
    rng = random.Random(7)
    undos = 0

    def deliver(events):
        for n, s in sessions.items():
            s.match.out += [{k: v for k, v in e.items() if k != "player"} if e["type"] == "UpdateGame" else e
                            for e in events if visible_to(e, n)]
            s.pump()

    for _ in range(3000):
        if game.ended:
            break
        who = (game.current_player.nickname if game.phase == "play" else
               next(p.nickname for p in game.players if not (p.chose_leaders and p.chose_resources)))
        if game.can_undo(who) and rng.random() < 0.3:
            deliver(game.undo(who))
            undos += 1
        else:
            deliver(game.apply(who, choose(game, who, rng)))
        for n, s in sessions.items():
            assert s.can_undo == game.can_undo(n), (n, game.history[-3:])
            assert s.vm.game == player_view(game, n)
    assert game.ended and undos >= 2


def test_a_local_solo_game_takes_back_and_saves_the_undo(tmp_path):
    save = tmp_path / "solo.json"
    match = LocalMatch(CFG, "Ada", seed=5, save_path=save)
    game = match.game
    for nick, action in _setup_and_a_move(game):
        match.send(action)
    before_undo = game.snapshot()
    match.undo()
    out = match.poll()
    assert [m["type"] for m in out][-2:] == ["UpdateUndo", "UpdateGame"]
    assert "player" not in out[-1]
    resumed = LocalMatch.resume(CFG, save)
    assert resumed.game.snapshot() == game.snapshot() != before_undo
    match.undo()
    assert match.poll()[-1]["type"] == "ErrUndo"


def _setup_and_a_move(game: Game):
    rng = random.Random(1)
    out = []
    trial = Game.new(CFG, list(game.nicknames), game.seed)
    while trial.phase == "setup":
        a = choose(trial, "Ada", rng)
        trial.apply("Ada", a)
        out.append(("Ada", a))
    p = trial.player("Ada")
    a = ReqSwapShelves(p.shelves[0].id, p.shelves[1].id)
    out.append(("Ada", a))
    return out


def test_undo_in_a_game_against_the_computer(tmp_path):
    import time
    from game.match import BotMatch
    from game.rules.actions import ReqEndTurn
    from game.rules.choices import market_lines, take_market_request
    match = BotMatch(CFG, "Ada", ["easy"], seed=4, save_path=tmp_path / "bots.json", pace=0)
    game = match.game
    rng = random.Random(4)
    deadline = time.monotonic() + 60
    taken = False
    while time.monotonic() < deadline and not taken:
        match.poll()
        me = game.player("Ada")
        if game.phase == "setup" and not (me.chose_leaders and me.chose_resources):
            match.send(choose(game, "Ada", rng))
        elif game.phase == "play" and game.current_player is me and not game.main_done:
            before = player_view(game, "Ada")
            match.send(take_market_request(game, me, market_lines(game, me)[0]))
            if game.can_undo("Ada"):
                match.undo()
                out = match.poll()
                assert [m["type"] for m in out[-2:]] == ["UpdateUndo", "UpdateGame"] and out[-1] == before
                assert player_view(game, "Ada") == before
                taken = True
            else:   # the discards moved the bot's faith: final
                match.send(ReqEndTurn())
        time.sleep(0.001)
    match.close()
    assert taken
