"""Games survive the server: restarts, SIGKILL, SIGTERM and damaged files; and the command line.

The state a restarted server serves is compared with an in-process replay of the requests that
were answered before it went down: ``Game.new`` with the game's seed and the accepted requests.
The players come back within the server's ``restart_grace``, so nobody is marked away: the game
is served exactly as it stood, a half-done turn included (see test_server_returning.py for a
player who does not come back in time).
"""
from __future__ import annotations

import importlib
import json
import random
import re
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

import game.netcode.cli as server_cli
from game.rules.engine import Game
from game.rules.views import player_view

from support.processes import all_gone, children, wait_for

from conftest import CONFIG, TIMEOUT, Player, drive, room_of, start_game, step, wait_until, wire
from server_process import ROOT, ServerProcess

pytestmark = pytest.mark.timeout(30)

def rejoin(address, nickname: str, token: str, expected: Game, players) -> Player:
    """Rejoin with the token; the ``UpdateGame`` must equal ``expected`` after the same rejoin."""
    (p,) = players(address, nickname)
    answer = p.join(token=token)
    expected.set_active(nickname, True)
    intro = ["UpdateSessionToken", "UpdatePlayerStatus"] + (["UpdateSetupDone"] if expected.phase != "setup" else []) + ["UpdateGame"]
    assert [m["type"] for m in answer] == intro
    assert answer[-1] == wire(player_view(expected, nickname))
    return p


def game_files(data_dir: Path) -> list[Path]:
    return sorted((data_dir / "games").glob("*.jsonl"), key=lambda f: int(f.stem))


def header(path: Path) -> dict:
    with path.open("rb") as f:
        return json.loads(f.readline())


def replica(path: Path) -> Game:
    """A local copy of a just-started game, from the seed in its log header (as a test may)."""
    h = header(path)
    return Game.new(CONFIG, h["nicknames"], h["seed"])


def players_of(group, game: Game):
    by = {p.nickname: p for p in group}
    return [by[q.nickname] for q in game.players if q.nickname in by]


class TestInProcessRestart:
    def test_every_game_comes_back_and_everyone_rejoins(self, make_server, players):
        srv = make_server()
        a, b = players(srv.address, "a", "b")
        start_game(a, b)
        (s,) = players(srv.address, "s")
        start_game(s)
        rng = random.Random(10)
        duo, solo = room_of(srv, "a").game, room_of(srv, "s").game
        drive(duo, [a, b], rng, stop=lambda g: g.phase == "play" and g.version >= 10)
        while not duo.main_done:      # the current player stops half-way through the turn
            step(duo, [a, b], rng)
        drive(solo, [s], rng, stop=lambda g: g.version >= 6)
        expected = {g: Game.replay(CONFIG, g.nicknames, g.seed, g.history) for g in (duo, solo)}
        tokens = {p.nickname: p.token for p in (a, b, s)}
        srv.stop()
        srv2 = make_server()
        assert sorted(r.nicknames for r in srv2.rooms.values()) == sorted([room_of(srv, "a").nicknames, ("s",)])
        exp_duo, exp_solo = expected[duo], expected[solo]
        back = [rejoin(srv2.address, q.nickname, tokens[q.nickname], exp_duo, players) for q in exp_duo.players]
        back_s = rejoin(srv2.address, "s", tokens["s"], exp_solo, players)
        new_duo, new_solo = room_of(srv2, "a").game, room_of(srv2, "s").game
        assert new_duo.snapshot() == exp_duo.snapshot()
        drive(new_duo, back, rng)
        drive(new_solo, [back_s], rng)
        assert new_duo.ended and new_solo.ended
        srv2.stop()
        assert not make_server().rooms           # finished games are not restored

    def test_one_server_per_data_directory(self, make_server, players, tmp_path):
        srv = make_server()
        (p,) = players(srv.address, "p")
        start_game(p)
        with pytest.raises(OSError, match="in use by another server"):
            make_server()
        before = game_files(tmp_path / "data")[0].read_bytes()
        p.probe()
        assert game_files(tmp_path / "data")[0].read_bytes() == before   # the first one's log untouched
        srv.stop()
        assert make_server().rooms                                        # free once it stopped

    @pytest.mark.logs_errors("cannot restore", "not restored")
    def test_a_damaged_game_file_is_skipped_and_the_others_served(self, make_server, players, tmp_path, caplog):
        srv = make_server()
        group = players(srv.address, "d1", "d2", "d3")
        for p in group:
            start_game(p)
        rng = random.Random(11)
        for p in group:
            drive(room_of(srv, p.nickname).game, [p], rng, stop=lambda g: g.version >= 4)
        kept = room_of(srv, "d2").game
        kept = Game.replay(CONFIG, kept.nicknames, kept.seed, kept.history)
        srv.stop()
        files = game_files(tmp_path / "data")
        assert len(files) == 3
        lines = files[0].read_bytes().splitlines(keepends=True)
        files[0].write_bytes(b"".join(lines[:2] + [b"#$%garbage\n"] + lines[2:]))
        with files[2].open("ab") as f:
            f.write(b'["apply","d3",{"type":"ReqEn')        # torn last line: a crash mid-write
        (tmp_path / "data" / "games" / "7.jsonl").write_bytes(b"not even a header\n")
        (tmp_path / "data" / "games" / "6.jsonl").write_bytes(files[1].read_bytes())   # a stray copy
        srv2 = make_server()
        errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
        assert len(errors) == 3
        assert any("0.jsonl" in e and "line 3 is damaged" in e for e in errors)
        assert any("7.jsonl" in e for e in errors)
        assert any("game 6 not restored: d2 already seated" in e for e in errors)
        assert sorted(sum((r.nicknames for r in srv2.rooms.values()), ())) == ["d2", "d3"]
        rejoin(srv2.address, "d2", group[1].token, kept, players)
        (d1,) = players(srv2.address, "d1")
        start_game(d1)                                          # not seated any more: a new game
        assert room_of(srv2, "d1").id == 8                      # ids never collide with old files

    def test_finished_games_move_out_of_the_way_of_restarts(self, make_server, players, tmp_path, caplog):
        data = tmp_path / "data"
        srv = make_server()
        (solo,) = players(srv.address, "fin")
        start_game(solo)
        drive(room_of(srv, "fin").game, [solo], random.Random(5))      # played to its end
        wait_until(lambda: (data / "games" / "finished" / "0.jsonl").exists())
        assert game_files(data) == []
        srv.stop()
        # a finished log an older server left among the live ones, damaged in the middle: moved
        # on start by its end mark alone, never parsed
        lines = (data / "games" / "finished" / "0.jsonl").read_bytes().splitlines(keepends=True)
        (data / "games" / "3.jsonl").write_bytes(b"".join(lines[:2] + [b"#$%garbage\n"] + lines[2:]))
        # and the archive itself may hold anything: a start does not read it
        (data / "games" / "finished" / "9.jsonl").write_bytes(b"junk that is no log at all\n")
        srv2 = make_server()
        assert not srv2.rooms
        assert not [r for r in caplog.records if r.levelname == "ERROR"]
        assert game_files(data) == [] and (data / "games" / "finished" / "3.jsonl").exists()
        (p,) = players(srv2.address, "next")
        start_game(p)
        assert room_of(srv2, "next").id == 10                    # ids go on after the archived ones


# --------------------------------------------------------------------------------------- subprocess
@pytest.fixture
def spawn(tmp_path):
    made: list[ServerProcess] = []

    def start() -> ServerProcess:
        sp = ServerProcess(tmp_path / "data", tmp_path / "server.log")
        made.append(sp)
        return sp

    yield start
    for sp in made:
        sp.cleanup()


def wait_lost(*group) -> None:
    for p in group:
        deadline = time.monotonic() + TIMEOUT
        while p.conn.connected and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not p.conn.connected


class TestServerProcess:
    @pytest.mark.timeout(60)
    def test_sigkill_loses_nothing_answered_and_sigterm_exits_cleanly(self, spawn, players, tmp_path):
        data = tmp_path / "data"
        sp = spawn()
        a, b = players(sp.address, "ann", "bea")
        start_game(a, b)
        (path,) = game_files(data)
        game = replica(path)                       # our copy, fed with every answered request
        for p in (a, b):
            assert p.view == wire(player_view(game, p.nickname))
        tokens = {p.nickname: p.token for p in (a, b)}
        rng = random.Random(12)
        drive(game, [a, b], rng, mirror=True, stop=lambda g: g.phase == "play" and g.version >= 9)
        while not game.main_done:
            step(game, [a, b], rng, mirror=True)   # killed half-way through a turn
        assert sp.kill(signal.SIGKILL) == -signal.SIGKILL
        wait_lost(a, b)

        sp = spawn()
        group = [rejoin(sp.address, q.nickname, tokens[q.nickname], game, players) for q in game.players]
        drive(game, group, rng, mirror=True, stop=lambda g: g.version >= 25)
        # a damaged extra file must not keep the next start from serving this game
        lines = path.read_bytes().splitlines(keepends=True)
        (data / "games" / "5.jsonl").write_bytes(b"".join(lines[:4] + [b"\x00garbage\n"] + lines[4:]))
        assert sp.kill(signal.SIGTERM) == 0
        wait_lost(*group)

        sp = spawn()
        wait_until(lambda: "cannot restore" in sp.log())   # (stored games come back just after the start)
        group = [rejoin(sp.address, q.nickname, tokens[q.nickname], game, players) for q in game.players]
        drive(game, group, rng, mirror=True)
        winner = None if game.outcome().lorenzo_won else game.outcome().winners[0]
        for p in group:
            assert [m.get("winner") for m in p.received if m["type"] == "UpdateGameEnd"] == [winner]
        assert sp.kill(signal.SIGTERM) == 0
        assert not path.exists()
        done = path.parent / "finished" / path.name
        assert json.loads(done.read_bytes().splitlines()[-1]) == ["end"]


    def test_sigterm_ends_the_bots_worker_process_quietly_and_no_child_is_left(self, spawn, players, monkeypatch):
        monkeypatch.setenv("MOR_SEED", "7")            # (the server's games are dealt from it)
        sp = spawn()
        (ann,) = players(sp.address, "ann")
        ann.join()
        ann.send({"type": "ReqNewGame", "playersCount": 2, "bots": ["hard"]})
        ann.until_type("UpdateGame")
        assert wait_for(lambda: len(children(sp.proc.pid)) >= 2)   # the bots' worker, the resource tracker
        kids = children(sp.proc.pid)
        assert sp.kill(signal.SIGTERM) == 0
        assert all_gone(kids) == []
        assert not re.search(r" (WARNING|ERROR) |Traceback", sp.log()), sp.log()   # nor "did not end; killing it"

class TestCommandLine:
    def test_help_explains_every_flag(self, capsys):
        with pytest.raises(SystemExit) as exit_:
            server_cli.main(["--help"])
        assert exit_.value.code == 0
        text = capsys.readouterr().out
        parser = server_cli.build_parser()
        flags = [a for a in parser._actions if a.option_strings]
        assert len(flags) >= 10
        for action in flags:
            assert action.help, action.option_strings
            for opt in action.option_strings:
                assert opt in text
        for words in ("--port", "--data-dir", "--heartbeat", "--grace", "--compat-rejoin", "--fsync",
                      "listening on", "SIGTERM"):
            assert words in text

    def test_the_script_runs_with_help(self):
        out = subprocess.run([sys.executable, str(ROOT / "server.py"), "--help"], cwd=ROOT,
                             capture_output=True, text=True, timeout=20)
        assert out.returncode == 0 and "--data-dir" in out.stdout

    def test_bad_values_are_refused(self, capsys):
        for argv in (["--heartbeat", "0"], ["--grace", "-1"], ["--port", "x"], ["--log-level", "LOUD"]):
            with pytest.raises(SystemExit) as exit_:
                server_cli.main(argv)
            assert exit_.value.code == 2

    def test_the_mor_server_entry_point(self):
        project = tomllib.loads((ROOT / "pyproject.toml").read_text())
        assert project["project"]["scripts"]["mor-server"] == "game.netcode.cli:main"
        assert server_cli.main is importlib.import_module("server").main   # server.py runs the same

    @pytest.mark.logs_errors("cannot start")
    def test_an_unusable_port_exits_with_1(self, tmp_path):
        import socket
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            port = taken.getsockname()[1]
            code = server_cli.main(["--host", "127.0.0.1", "--port", str(port), "--data-dir",
                                    str(tmp_path / "d"), "--log-level", "ERROR"])
        assert code == 1
