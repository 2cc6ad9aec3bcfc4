"""A full disk in the middle of games, and two restarts (issue 20, section 5).

The disk is faked in the store's module: writes take what fits of a byte budget and then fail
with ENOSPC, as a real full disk does (a line cut short), and the truncation that cleans up
after a failed write may be made to fail too (the worst case: the cut line stays in the file).
Nothing that was answered may be lost, nothing that was refused may come back, and the game
must never be thrown away."""
from __future__ import annotations

import errno
import json
import logging
import os
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from game.bots import driver
from game.netcode import store as store_mod
from game.netcode.server import CANNOT_SAVE, CANNOT_START, SAVING_AGAIN, SERVER_VOICE
from game.rules.engine import Game
from game.rules.playout import choose
from game.rules.views import player_view

from conftest import CONFIG, TIMEOUT, acting, drive, room_of, start_game, step, wait_until

pytestmark = pytest.mark.timeout(60)

ROOT = Path(__file__).resolve().parents[2]


class FullDisk:
    """``os.write`` and ``os.ftruncate`` of the store, with a byte budget (None: room enough)."""

    def __init__(self, monkeypatch) -> None:
        self.room: int | None = None
        self.truncate_fails = False
        self.cut = 0                              # writes cut short
        real_write, real_truncate = os.write, os.ftruncate

        def write(fd, data):
            if self.room is None:
                return real_write(fd, data)
            if self.room <= 0:
                raise OSError(errno.ENOSPC, "No space left on device")
            n = real_write(fd, bytes(data[:self.room]))
            self.room -= n
            if n < len(data):
                self.cut += 1
            return n

        def ftruncate(fd, size):
            if self.truncate_fails:
                raise OSError(errno.ENOSPC, "No space left on device")
            return real_truncate(fd, size)

        monkeypatch.setattr(store_mod.os, "write", write)
        monkeypatch.setattr(store_mod.os, "ftruncate", ftruncate)


def wire(msg):
    return json.loads(json.dumps(msg))


def told(p, text: str) -> bool:
    return any(m["type"] == "UpdateChat" and m["player"] == SERVER_VOICE and m["text"] == text for m in p.received)


def hear(p, text: str, timeout: float = TIMEOUT) -> None:
    """Wait for the server's notice ``text`` at ``p``'s table."""
    if not told(p, text):
        p.until(lambda m: m["type"] == "UpdateChat" and m["player"] == SERVER_VOICE and m["text"] == text, timeout)


def refused(answer: list[dict]) -> bool:
    return answer[-1] == {"msg": CANNOT_SAVE, "type": "ErrProtocol", "say": {"code": "save.cannot_save", "args": {}}}


class TestFullDisk:
    def test_a_full_disk_refuses_what_it_cannot_save_tells_the_table_and_loses_nothing(
            self, make_server, players, monkeypatch, tmp_path, caplog):
        caplog.set_level(logging.INFO)
        disk = FullDisk(monkeypatch)
        srv = make_server(restart_grace=30)
        a, b = players(srv.address, "ann", "bea")
        start_game(a, b)
        tokens = {p.nickname: p.token for p in (a, b)}
        by = {"ann": a, "bea": b}
        rng = random.Random(20)
        drive(room_of(srv, "ann").game, [a, b], rng, stop=lambda g: g.phase == "play" and g.version >= 8)
        mirror = room_of(srv, "ann").game
        mirror = Game.replay(CONFIG, mirror.nicknames, mirror.seed, mirror.history)   # what was answered

        # the disk fills in the middle of a request's line: it is refused, the table is told
        disk.room = 7
        game = room_of(srv, "ann").game
        nick = acting(game, rng)
        action = choose(game, nick, rng)
        version = game.version
        assert refused(by[nick].request(action))
        assert disk.cut == 1
        for p in (a, b):
            hear(p, CANNOT_SAVE)
        assert room_of(srv, "ann").game.version == version          # as it was before the request
        assert room_of(srv, "ann").game.history == mirror.history
        assert refused(by[nick].request(action))                     # still full: refused again
        assert sum(told(p, CANNOT_SAVE) for p in (a, b)) == 2        # told once, not at every refusal

        # room again: the same request is played, the table is told, the game goes on
        disk.room = None
        answer = by[nick].request(action)
        assert answer[-1]["type"] == "UpdateAction"
        mirror.apply(nick, action)
        for p in (a, b):
            hear(p, SAVING_AGAIN)
        game = room_of(srv, "ann").game
        for _ in range(4):
            nick, action, _ = step(game, [a, b], rng)
            mirror.apply(nick, action)

        # full again, and this time the cut line cannot even be taken back before the stop
        disk.room, disk.truncate_fails = 5, True
        nick = acting(game, rng)
        assert refused(by[nick].request(choose(game, nick, rng)))
        assert not any(r.levelno >= logging.ERROR for r in caplog.records), \
            [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        srv.stop()
        disk.room, disk.truncate_fails = None, False

        # first restart: the cut line is cut off, the game is as it was answered
        srv2 = make_server()
        assert any("cutting off a last line cut short" in r.getMessage() for r in caplog.records)
        assert len(srv2.rooms) == 1
        restored = next(iter(srv2.rooms.values())).game
        assert restored.history == mirror.history
        back = {}
        for q in mirror.players:
            (p,) = players(srv2.address, q.nickname)
            answer = p.join(token=tokens[q.nickname])
            mirror.set_active(q.nickname, True)
            assert answer[-1] == wire(player_view(mirror, q.nickname))
            back[q.nickname] = p
        group = [back[q.nickname] for q in mirror.players]
        for _ in range(4):
            nick, action, _ = step(mirror, group, rng, mirror=True)
        srv2.stop()

        # second restart: nothing damaged, nothing lost
        srv3 = make_server()
        restored = next(iter(srv3.rooms.values())).game
        assert restored.history == mirror.history
        assert not any("damaged" in r.getMessage() for r in caplog.records)

    def test_a_game_that_cannot_be_created_starts_once_the_disk_has_room(self, make_server, players, monkeypatch,
                                                                         tmp_path, caplog):
        caplog.set_level(logging.INFO)
        disk = FullDisk(monkeypatch)
        srv = make_server()
        a, b = players(srv.address, "ann", "bea")
        a.join()
        b.join()
        disk.room = 0
        a.send({"type": "ReqNewGame", "playersCount": 2})
        for p in (a, b):
            hear(p, CANNOT_START)
        assert not list((tmp_path / "data" / "games").glob("*.jsonl"))   # no empty file left behind
        disk.room = None
        for p in (a, b):
            p.until_type("UpdateGame", timeout=5)
        assert len(srv.rooms) == 1
        assert not any(r.levelno >= logging.ERROR for r in caplog.records)

    def test_a_bot_whose_move_cannot_be_saved_tries_again(self, make_server, players, monkeypatch):
        """The bot's move is refused like anyone's; the bot does not leave the table, it asks
        again and plays once the disk has room."""
        disk = FullDisk(monkeypatch)
        gate = threading.Event()
        real = driver.think

        def held(job, config, level=None):
            gate.wait(TIMEOUT)
            return real(job, config, level)
        monkeypatch.setattr(driver, "think", held)
        srv = make_server(bot_delay=0.0)
        (a,) = players(srv.address, "ann")
        a.join()
        a.send({"type": "ReqNewGame", "playersCount": 2, "bots": ["easy"]})
        a.until_type("UpdateGame")
        room = room_of(srv, "ann")
        bot = next(iter(room.bots))
        disk.room = 0
        gate.set()
        hear(a, CANNOT_SAVE)
        assert room.game.player(bot).active and not room.game.player(bot).chose_leaders
        disk.room = None
        wait_until(lambda: room.game.player(bot).chose_leaders, timeout=10)
        hear(a, SAVING_AGAIN)
        assert room.game.player(bot).active             # it did not leave the table


class TestStop:
    def test_a_server_stopped_as_soon_as_it_listens_exits_cleanly(self, tmp_path):
        for i in range(3):
            proc = subprocess.Popen(
                [sys.executable, str(ROOT / "server.py"), "--host", "127.0.0.1", "--port", "0",
                 "--data-dir", str(tmp_path / "data"), "--log-level", "INFO", "--no-announce"],
                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            try:
                line = proc.stdout.readline()
                assert b"listening on" in line
                proc.send_signal(signal.SIGTERM)
                _, err = proc.communicate(timeout=TIMEOUT * 2)
            finally:
                if proc.poll() is None:   # a failed run leaves no server behind
                    proc.kill()
                    proc.communicate()
            assert proc.returncode == 0, err.decode()[-2000:]
            assert b"Traceback" not in err and b" ERROR " not in err
