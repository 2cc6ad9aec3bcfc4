"""The servers where the player has turn-based games (``turn_servers.json``) are read by a My games
page while the turn news's thread writes them: a reader never finds the file half-written (an empty
list of servers said "You have no game in progress" to a player who had one)."""
from __future__ import annotations

import threading

from game.client.my_games import remember_server, turn_servers


def test_the_servers_are_never_read_half_written(tmp_path):
    remember_server(tmp_path, "127.0.0.1", 1001)
    stop = threading.Event()

    def write() -> None:
        while not stop.is_set():
            for port in (1001, 1002, 1003):
                remember_server(tmp_path, "127.0.0.1", port)

    writers = [threading.Thread(target=write) for _ in range(2)]
    for t in writers:
        t.start()
    try:
        seen = [turn_servers(tmp_path) for _ in range(3000)]
    finally:
        stop.set()
        for t in writers:
            t.join()
    assert all(seen), sum(1 for s in seen if not s)
    assert set(turn_servers(tmp_path)) == {("127.0.0.1", 1001), ("127.0.0.1", 1002), ("127.0.0.1", 1003)}
    assert [p.name for p in tmp_path.iterdir()] == ["turn_servers.json"]      # nothing left aside
