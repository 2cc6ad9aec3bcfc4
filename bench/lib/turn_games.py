"""Stored turn-based games for the scale bench (not part of the game): a data directory holding
``games`` two-player turn-based games between ``players`` keyed players, each past its set-up and
awaiting its first seat's move, as a server that ran them for days would have left it; and, for
each game, the move its current player makes next (a legal main action, then ``ReqEndTurn``).
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from pathlib import Path

from game.netcode import ratings_wire as W
from game.netcode.player_store import PlayerStore
from game.netcode.store import GameStore
from game.rules import default_config
from game.rules.actions import MAIN_ACTIONS, Action
from game.rules.engine import Game
from game.rules.playout import choose

DAY = 86400


@dataclass
class StoredGame:
    game: int
    nicknames: tuple[str, str]
    keys: tuple[str, str]
    mover: int                   # the seat whose turn it is (0 or 1)
    move: dict                   # its next main action, as sent


def make_stored_games(data_dir: Path, games: int, players: int, seed: int = 31) -> list[StoredGame]:
    """Fill ``data_dir`` (see the module's docstring); returns the games as the bench plays them."""
    config = default_config()
    rng = random.Random(seed)
    keys = [W.make_key() for _ in range(players)]
    store = PlayerStore(data_dir / "players.sqlite3", 0)
    ids = [store.add(k, f"P{i}").id for i, k in enumerate(keys)]
    store.close()
    gs = GameStore(data_dir)
    out = []
    for gid in range(games):
        a, b = gid % players, (gid + 1 + gid // players) % players
        if a == b:
            b = (b + 1) % players
        nicks = (f"P{a}", f"P{b}")
        game = Game.new(config, list(nicks), rng.getrandbits(63))
        extra = {"owners": {nicks[0]: ids[a], nicks[1]: ids[b]},
                 "turnBased": {"moveTime": DAY, "level": "medium", "table": f"T{gid}"}}
        glog = gs.create(gid, config, game, {n: f"tok{gid}{n}" for n in nicks}, None, None, extra)
        assert glog is not None
        while game.phase == "setup":
            nick = next(p.nickname for p in game.players if not (p.chose_leaders and p.chose_resources))
            action = choose(game, nick, rng)
            game.apply(nick, action)
            glog.record("apply", nick, action)
        mover = nicks.index(game.current_player.nickname)   # (seats are dealt in another order than the names)
        glog.append(["turns", "", {"owing": [nicks[mover]], "deadline": time.time() + DAY, "missed": {},
                                   "stood": {}, "given": {}, "standIns": {}}])
        glog.close()
        move = choose(game, nicks[mover], rng)      # a main action (nothing is done yet this turn)
        for _ in range(50):
            if move is None or isinstance(move, MAIN_ACTIONS):
                break
            move = choose(game, nicks[mover], rng)
        out.append(StoredGame(gid, nicks, (keys[a], keys[b]), mover, (move or Action.from_dict(
            {"type": "ReqEndTurn"})).to_dict()))
    return out
