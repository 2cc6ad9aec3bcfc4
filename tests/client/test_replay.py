"""Replays (game/replays.py): a replay ends in exactly the game's final state for 1 to 4 players;
stepping back and forth gives the states of a replay from the start; the export file opens in
another copy of the game; damaged or foreign files are refused with a clear error; the games of
this machine (solo, against the computer, hosted) are kept and listed."""
from __future__ import annotations

import random

import orjson
import pytest

from game import replays as R
from game.client import replay as C
from game.match import BotMatch, LocalMatch
from game.rules import default_config
from game.rules.engine import Game
from game.rules.playout import choose, random_game

CFG = default_config()
NICKS = ["Ada", "Bruno", "Carla", "Dario"]


def with_undos(players: int, seed: int) -> Game:
    """A random game with a few undos and a player leaving and coming back in it."""
    g = Game.new(CFG, NICKS[:players], seed)
    rng = random.Random(seed)
    for n in range(5000):
        if g.ended:
            return g
        who = (g.current_player.nickname if g.phase == "play" else
               next(p.nickname for p in g.players if not (p.chose_leaders and p.chose_resources)))
        if g.can_undo(who) and rng.random() < 0.2:
            g.undo(who)
        elif n == 60 and players > 1:
            g.set_active(NICKS[1], False)
            g.set_active(NICKS[1], True)
        else:
            g.apply(who, choose(g, who, rng))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_a_replay_ends_in_the_games_final_state(players):
    game = with_undos(players, 20 + players)
    replay = C.Replay(orjson.loads(orjson.dumps(R.replay_record(game, "bots", "Ada"))), CFG)
    assert len(replay) == len(game.history)
    assert replay.final.snapshot() == game.snapshot()
    assert replay.game_at(len(replay)).snapshot() == game.snapshot()
    end = replay.view_at(len(replay))
    assert [p["leadersHand"] for p in end["players"]] == [q.hand for q in game.players]   # everything, at the end
    assert replay.lines and replay.turn_starts[0] == 0 and len(replay.turn_starts) > 5


def test_stepping_back_and_forth_gives_the_states_of_a_replay_from_the_start():
    game = with_undos(3, 7)
    replay = C.Replay(R.replay_record(game, "lan"), CFG, viewer="Bruno")
    rng = random.Random(1)
    step = 0
    for _ in range(25):
        step = rng.choice([rng.randrange(len(replay) + 1), replay.next_turn(step), replay.previous_turn(step),
                           min(len(replay), step + 1), max(0, step - 1)])
        expected = Game.replay(CFG, game.nicknames, game.seed, game.history[:step])
        assert replay.game_at(step).snapshot() == expected.snapshot()
        view = replay.view_at(step)
        me = next(p for p in view["players"] if p["nickname"] == "Bruno")
        assert me["leadersHand"] == expected.player("Bruno").hand
        if not expected.ended:   # the others' hands stay hidden until the end
            for p, q in zip(view["players"], expected.players):
                if q.nickname != "Bruno":
                    assert set(p["leadersHand"]) <= set(q.active_leaders)
    assert replay.turn_of(0) == 0 and replay.turn_of(len(replay)) == len(replay.turn_starts) - 1


def test_the_export_opens_in_another_copy_and_damaged_files_are_refused(tmp_path):
    game = random_game(CFG, NICKS[:2], seed=3)
    replay = C.Replay(R.replay_record(game, "solo", "Ada"), CFG)
    path = C.export_to(replay, tmp_path / "out")
    again = C.open_replay(path, CFG)
    assert again.final.snapshot() == game.snapshot() and again.viewer == "Ada"
    record = orjson.loads(path.read_bytes())

    def refused(data: bytes, words: str) -> None:
        bad = tmp_path / "bad.json"
        bad.write_bytes(data)
        with pytest.raises(R.ReplayError) as info:
            C.open_replay(bad, CFG)
        assert words in str(info.value)

    refused(b"{not json", "not JSON")
    refused(b'{"format": "mor-game/1"}', "not a replay")
    refused(orjson.dumps({**record, "configDigest": "0" * 64}), "other rules")
    refused(orjson.dumps({**record, "history": record["history"][:-5]}), "does not hold a finished game")
    moved = [list(h) for h in record["history"]]
    i = next(i for i, h in enumerate(moved) if h[0] == "apply" and h[2]["type"] == "ReqBuyDevCard")
    moved[i][2] = {**moved[i][2], "level": 3}
    refused(orjson.dumps({**record, "history": moved}), f"move {i + 1}")
    refused(orjson.dumps({**record, "history": [["jump", "Ada", None]]}), "move 1 is not a move")
    refused(orjson.dumps({**record, "seed": "x"}), "no players or no seed")


def test_the_games_of_this_machine_are_kept_and_listed(tmp_path):
    data = tmp_path / "data"
    solo = LocalMatch(CFG, "Ada", seed=4, save_path=data / "solo-game.json")
    rng = random.Random(4)
    while not solo.game.ended:
        solo.send(choose(solo.game, "Ada", rng))
    assert not (data / "solo-game.json").exists()          # the save goes, as before
    (kept,) = C.past_games(data)
    assert kept.kind == "solo" and kept.players == ["Ada"] and kept.title.startswith("Solo")
    assert C.open_replay(kept.path, CFG).final.snapshot() == solo.game.snapshot()
    # a hosted game's log, as the LAN host's server leaves it
    game = random_game(CFG, NICKS[:2], seed=9)
    folder = data / R.HOSTED
    folder.mkdir(parents=True)
    lines = [orjson.dumps({"format": "mor-log/1", "game": 0, "config": None, "nicknames": list(game.nicknames),
                           "seed": game.seed, "tokens": {}, "bots": {NICKS[1]: "medium"}})]
    lines += [orjson.dumps(h) for h in R.replay_record(game, "lan")["history"]] + [b'["end"]']
    (folder / "0.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    games = C.past_games(data)
    assert {g.kind for g in games} == {"solo", "lan"}
    hosted = next(g for g in games if g.kind == "lan")
    assert C.open_replay(hosted.path, CFG, viewer="Bruno").final.snapshot() == game.snapshot()
    assert C.open_replay(hosted.path, CFG).bots == {NICKS[1]: "medium"}      # the log's bots, with their levels


def test_a_game_against_the_computer_is_kept_when_it_ends(tmp_path):
    data = tmp_path / "data"
    match = BotMatch(CFG, "Ada", ["easy"], seed=2, save_path=data / "bots-game.json", pace=0)
    rng = random.Random(2)
    import time
    deadline = time.monotonic() + 60
    while not match.game.ended and time.monotonic() < deadline:
        g = match.game
        if (g.phase == "play" and g.current_player.nickname == "Ada") or (
                g.phase == "setup" and not (g.player("Ada").chose_leaders and g.player("Ada").chose_resources)):
            match.send(choose(g, "Ada", rng))
        match.poll()
        time.sleep(0.001)
    match.close()
    assert match.game.ended
    (kept,) = C.past_games(data)
    assert kept.kind == "bots" and set(kept.players) == set(match.game.nicknames)
    assert C.open_replay(kept.path, CFG).bots == match.bots and set(match.bots.values()) == {"easy"}   # levels kept


def test_a_damaged_file_is_explained_in_the_players_language(tmp_path):
    """Every refusal of a damaged file is said in Italian to an Italian player, the move's number
    put in (those of ``game.replays`` that name a move stayed in English)."""
    from game import i18n
    record = R.replay_record(random_game(CFG, NICKS[:2], seed=3), "solo", "Ada")
    i18n.use("it")
    for history, words in [([["jump", "Ada", None]], "Il file è danneggiato: la mossa 1 non è una mossa."),
                           ([["apply", "Ada", {"type": "ReqNothing"}]],
                            "Il file è danneggiato: la mossa 1 non è una richiesta."),
                           ("none", "Il file è danneggiato: non ha l'elenco delle mosse.")]:
        bad = tmp_path / "bad.json"
        bad.write_bytes(orjson.dumps({**record, "history": history}))
        with pytest.raises(R.ReplayError) as info:
            C.open_replay(bad, CFG)
        assert str(info.value) == words
