"""The finished games' logs a server keeps (issue 28, finding 12: they were never pruned): the
newest ``keep_finished``, the oldest removed as new ones come and at start."""
from __future__ import annotations

import random

import pytest

from game.netcode import protocol as P
from game.netcode.client_messages import ReqReplay
from game.netcode.finished_shelf import FinishedShelf

from conftest import drive, room_of, start_game, wait_until


def logs(folder) -> list[int]:
    return sorted(int(p.stem) for p in folder.glob("*.jsonl"))


def test_the_newest_are_kept_as_new_ones_come(tmp_path):
    for gid in (3, 10, 2, 7):
        (tmp_path / f"{gid}.jsonl").write_text("x\n")
    (tmp_path / "notes.txt").write_text("not a game\n")
    shelf = FinishedShelf(keep=3)
    shelf.open(tmp_path)
    assert logs(tmp_path) == [3, 7, 10] and len(shelf) == 3
    (tmp_path / "11.jsonl").write_text("x\n")
    shelf.added(11)
    assert logs(tmp_path) == [7, 10, 11] and (tmp_path / "notes.txt").exists()
    everything = FinishedShelf(keep=0)
    everything.open(tmp_path)
    everything.added(12)
    assert logs(tmp_path) == [7, 10, 11]                 # 0 keeps all (12 was never written)


@pytest.mark.timeout(60)
def test_a_server_keeps_the_newest_finished_games(make_server, players, tmp_path):
    srv = make_server(keep_finished=2, grace=0)
    ids, tokens = [], {}
    for i in range(3):
        (p,) = players(srv.address, f"p{i}")
        start_game(p)
        room = room_of(srv, f"p{i}")
        drive(room.game, [p], random.Random(i))
        ids.append(room.id)
        tokens[room.id] = p.token
        p.close()
        wait_until(lambda: room.id not in srv.rooms)     # swept (the shelf is told just after)
    folder = srv.store.data_dir / "games" / "finished"
    wait_until(lambda: logs(folder) == ids[1:])          # the oldest removed, the newest two kept
    (c,) = players(srv.address, "somebody")
    c.join()
    c.send(ReqReplay(ids[0], tokens[ids[0]]))
    assert c.until(lambda m: m["type"] in (P.UPDATE_REPLAY, P.ERR_REPLAY))[-1]["reason"] == P.REPLAY_NO_SUCH_GAME
    c.send(ReqReplay(ids[2], tokens[ids[2]]))
    assert c.until(lambda m: m["type"] in (P.UPDATE_REPLAY, P.ERR_REPLAY))[-1]["type"] == P.UPDATE_REPLAY
