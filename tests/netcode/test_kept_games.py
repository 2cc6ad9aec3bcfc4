"""A start with many games stored answers at once (issue 28: 1,000 real-time games took 11 s
before the first answer, 2 s asked): the games are left in their files, a game comes back the
moment one of its players does, and the rest a few at a time."""
from __future__ import annotations

import random

import pytest

from game.netcode import protocol as P
from game.netcode.server_messages import err_nickname
from game.netcode.store import GameStore
from game.rules.engine import Game
from game.rules.playout import choose
from game.rules.views import player_view

from conftest import CONFIG, start_game, wait_until, wire

GAMES = 30


def stored_games(data_dir) -> dict[str, tuple[str, Game]]:
    """``GAMES`` two-player games a few turns in, stored as a server leaves them: nickname ->
    (its seat's token, the game)."""
    rng = random.Random(8)
    store = GameStore(data_dir)
    seats = {}
    for gid in range(GAMES):
        nicks = [f"a{gid}", f"b{gid}"]
        g = Game.new(CONFIG, nicks, rng.getrandbits(63))
        tokens = {n: f"token-{n}" for n in nicks}
        glog = store.create(gid, CONFIG, g, tokens)
        while len(g.history) < 12:
            nick = (next(p.nickname for p in g.players if not (p.chose_leaders and p.chose_resources))
                    if g.phase == "setup" else g.current_player.nickname)
            action = choose(g, nick, rng)
            g.apply(nick, action)
            glog.record("apply", nick, action)
        glog.close()
        seats.update({n: (tokens[n], g) for n in nicks})
    return seats


@pytest.mark.timeout(30)
def test_a_start_answers_before_its_games_are_back_and_a_player_gets_theirs_at_once(make_server, peers, players, tmp_path):
    seats = stored_games(tmp_path / "data")
    srv = make_server(wait_for_kept=False)
    assert len(srv.rooms) < GAMES                       # (not every game replayed before it listens)
    peers(srv.address).welcome().probe()                # served at once
    p = peers(srv.address).welcome()
    assert p.join("b29", token="")[-1] == err_nickname(P.TAKEN)   # a seat of a game still in its file
    token, game = seats["a29"]
    (back,) = players(srv.address, "a29")
    answer = back.join(token=token)
    game.set_active("a29", True)
    assert answer[-1] == wire(player_view(game, "a29"))          # its game, replayed at once
    wait_until(lambda: len(srv.rooms) == GAMES and not len(srv.games.later))
    (new,) = players(srv.address, "newcomer")
    start_game(new)                                     # and new games as ever
    assert new.nickname in srv.room_of("newcomer").nicknames
