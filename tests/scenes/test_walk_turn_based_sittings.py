"""Issue 31's *Done when*, played through: two players in two front ends play a turn-based game
over several sittings, a third watches it live in the window and in the terminal, and the finished
game moves both ratings, read in both leaderboards.

Wes plays in the window (the real ``App`` frame loop, posted events: tools/walk.py), Tex in the
text client on a real pty, each with a key of their own (their own data folder). The server is
``server.py`` in a child process (TLS, seeded, a move every ``MOVE`` seconds: ``--move-time-scale``)
with a short game (``short_config``: the faith track ends three spaces on and both seats start two
on, so the first faith anyone gains ends the game at the end of that round).

1. Wes opens a turn-based table in the window; Tex sits at it in the terminal, sees the leaders to
   choose and leaves (the client quits); Wes keeps two leaders and closes the window.
2. The server is killed (``kill -9``) and started again on the same ports.
3. Tex's time runs out: the computer chooses for him. Meanwhile Vic watches from the window's Tables
   page and Ula with ``watch`` in the terminal.
4. Wes opens the window again, finds the game in *My games* (his move first) and takes a market
   line with the red marble: his faith reaches the end. Both watchers see it.
5. Tex starts the terminal again, finds the game with ``games``, is told kindly that the computer
   played his turn, and plays the last turn of the round: the game is over, the ratings move.
6. The leaderboard in the window and ``ratings`` in the terminal name both players, one game each.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from walk import Walk, close, free_port, play_market_turn, start

from game.rules.components import DEFAULT_CONFIG_PATH
from support.pty import PtyProgram
from support.wait import until

pytestmark = [pytest.mark.timeout(150), pytest.mark.seed(5)]

ROOT = Path(__file__).resolve().parents[2]
MOVE = 14.0
"""Seconds a move may take at the table (an hour a move, scaled)."""


def short_config(path: Path) -> Path:
    """The standard game, but its faith track ends at space 3 and every seat starts on space 2."""
    data = json.loads(Path(DEFAULT_CONFIG_PATH).read_text())
    data["faith_track"] = {"last_space": 3, "vp_squares": [[3, 1]],
                           "vatican_sections": [{"id": 0, "first_space": 2, "pope_space": 3, "favor_vp": 2}]}
    for seat in data["seats"]:
        seat["starting_faith"] = 2
    path.write_text(json.dumps(data))
    return path


class Served:
    """``server.py`` in a child process on ``port`` (TLS on ``port + 1``), its games in ``data``."""

    def __init__(self, port: int, data: Path, config: Path, certs: tuple[Path, Path], log: Path) -> None:
        cert, key = certs
        self.log_path = log
        self._log = log.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "server.py"), "--host", "127.0.0.1", "--port", str(port),
             "--tls-port", str(port + 1), "--tls-cert", str(cert), "--tls-key", str(key), "--data-dir", str(data),
             "--config", str(config), "--move-time-scale", str(MOVE / 3600), "--restart-grace", "1",
             "--bot-delay", "0", "--log-level", "INFO", "--no-announce"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=self._log, env={**os.environ, "MOR_SEED": "5"})
        line = self.proc.stdout.readline().decode()   # type: ignore[union-attr]
        assert line.startswith("mor-server: listening on"), (line, log.read_text(errors="replace")[-2000:])

    def kill(self, sig: int = signal.SIGKILL) -> None:
        self.proc.send_signal(sig)
        self.proc.wait(timeout=10)
        self._log.close()

    def cleanup(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._log.close()


def terminal(name: str, folder: Path, **env: str) -> PtyProgram:
    """The text client on a pty as ``name``, with its own settings and key (``folder``)."""
    return PtyProgram(["--plain", "--name", name], seed=5,
                      env={"MOR_DATA_DIR": str(folder / "data"), "MOR_CONFIG_DIR": str(folder / "cfg"), **env})


def to_tables(p: PtyProgram, port: int) -> None:
    join = p.expect("Join a game on the network")
    p.send(join.split(".")[0], f"tables 127.0.0.1:{port}")


def red_line(grid: list[list[str]]) -> tuple[bool, int]:
    """The market line holding the red marble: (a row?, its index from 0)."""
    for r, row in enumerate(grid):
        if "Faith" in row:
            return True, r
    return False, next(c for c in range(len(grid[0])) if any(row[c] == "Faith" for row in grid))


def step(began: float, what: str) -> None:
    """A line in the test's output (shown when it fails): where the walk got to, and when."""
    print(f"{time.monotonic() - began:6.1f} s  {what}", flush=True)


def board_of(walk: Walk):
    return walk.app.stack.top.session.vm.game


def test_a_turn_based_game_over_sittings_watched_and_rated(tmp_path, certs):
    port = free_port()
    config = short_config(tmp_path / "short.json")
    served = Served(port, tmp_path / "srv", config, certs["one"], tmp_path / "server.log")
    began = time.monotonic()
    wes = vic = None
    tex = ula = None
    try:
        # 1. the first sittings: Wes opens a turn-based table in the window, Tex sits in the terminal
        wes = start(name="wes")
        wes.fill_join_page(port, "Wes")
        wes.press("Tables")
        wes.until_scene("TablesScene")
        wes.frames(2)
        wes.press("Real-time")                             # the pace of a new table: an hour a move
        wes.press("Open the table")
        wes.until_scene("LobbyScene", 15)
        tex = terminal("Tex", tmp_path / "tex")
        to_tables(tex, port)
        assert tex.expect("1. Wes's table").endswith("turn-based: 1 hour a move.")
        tex.send("1")
        tex.expect("Choose the 2 leaders you keep", timeout=15)
        tex.send("leave")                                  # Tex closes the game without choosing
        tex.expect("Main menu")
        tex.quit()
        wes.until_scene("LeaderChoiceScene", 15)
        wes.key(ord("1"), "1")
        wes.key(ord("3"), "3")
        wes.key(13, "\r")
        wes.until(lambda: wes.scene in ("WaitingScene", "BoardScene"), 10, "Wes's leaders kept")
        wes.frames(3)
        close(wes.app)                                     # Wes closes the window
        wes = None

        step(began, "Wes and Tex left after their first sittings")
        # 2. the server is killed and started again, on the same ports, with the same games
        served.kill(signal.SIGKILL)
        served = Served(port, tmp_path / "srv", config, certs["one"], tmp_path / "server.log")

        step(began, "the server restarted")
        # 3. while Tex's time runs out, Vic watches in the window and Ula in the terminal
        vic = start(name="vic")
        vic.fill_join_page(port, "Vic")
        vic.press("Tables")
        vic.until_scene("TablesScene")
        page = vic.app.stack.top
        listed = lambda: page.listing is not None and any(t.name == "Wes's table" for _r, t in page.rows)  # noqa: E731
        for _ in range(6):            # (the restarted server brings its games back from their files)
            if listed():
                break
            vic.until(lambda: page.listing is not None, 10, "the list of tables")
            vic.frames(2)
            if not listed():
                time.sleep(0.5)
                vic.press("Refresh")
        vic.until(listed, 10, "the game among those being played")
        vic.click(next(r.center for r, t in page.rows if t.name == "Wes's table"))
        vic.until_scene("WatchTableScene")
        watched = vic.app.stack.top
        vic.until(lambda: watched.session.vm.has_game, 10, "the watched game")
        ula = terminal("Ula", tmp_path / "ula")
        to_tables(ula, port)
        ula.expect("Games being played, to watch")
        assert ula.expect("1. Wes's table").startswith("1. Wes's table: Wes and Tex play, 1 watch")   # Vic
        ula.send("watch 1")
        ula.expect("You watch Wes's table")
        vic.until(lambda: watched.session.vm.game["isSetupDone"], MOVE + 20, "Tex's setup chosen by the computer")

        step(began, "Tex's setup chosen by the computer, watched by Vic and Ula")
        # 4. Wes's second sitting: My games from the title, his move first; the red marble taken
        wes = start(name="wes-again")
        wes.press("My games")
        wes.until_scene("MyGamesScene")
        mine = wes.app.stack.top
        wes.until(lambda: mine.games or mine.problems, 15, "Wes's games")
        assert not mine.problems, mine.problems
        (row,) = mine.games
        assert row[3].your_turn and row[3].line.startswith("Wes's table, with Tex: your turn, ")
        wes.frames(2)
        wes.until(lambda: mine.rows, 5, "the row drawn")
        wes.click(mine.rows[0][0].center)
        wes.until_scene("BoardScene", 15)
        wes.frames(3)
        is_row, at = red_line(board_of(wes)["market"]["grid"])
        play_market_turn(wes, 2, at if is_row else 3 + at)
        faith = lambda g: {p["nickname"]: p["faithPoints"] for p in g["players"]}   # noqa: E731
        wes.until(lambda: faith(board_of(wes))["Wes"] == 3, 10, "Wes at the end of the faith track")
        vic.until(lambda: faith(watched.session.vm.game)["Wes"] == 3, 10, "Vic sees it live")
        ula.expect("ended the turn", timeout=10)                        # Ula is told as it goes

        step(began, "Wes's move made and watched")
        # 5. Tex's second sitting: games, told of the turn the computer played, the round's last turn
        tex = terminal("Tex", tmp_path / "tex")
        to_tables(tex, port)
        tex.expect("games for your games here")
        tex.send("games")
        assert tex.expect("1. Wes's table").startswith("1. Wes's table, with Wes: your turn, ")
        tex.send("1")
        tex.expect("While you were away the computer played one of your turns", timeout=15)
        tex.send("take row 1")                         # any line: the round ends with this turn
        tex.expect("Press Enter to take it")
        tex.send("")
        tex.expect("You took row 1")                  # (his own move, told to him)
        tex.send("end")
        tex.expect("It is the last turn of the last round")   # asked first: the game ends with it
        tex.send("")
        changed = tex.expect("Ratings:", timeout=20)
        assert not [line for line in tex.lines if "Your time for this move ran out" in line]   # his own turn
        # (said for a screen reader, --plain: "→" is "gives", "−" is "minus")
        moved = re.fullmatch(r"Ratings: you 0 gives ((?:minus )?\d+), Wes 0 gives ((?:minus )?\d+)\.", changed.strip())
        assert moved and "0" not in moved.groups(), changed                  # both ratings moved
        vic.until(lambda: watched.session.vm.game["ended"], 10, "Vic sees the end")
        ula.expect("last round was played out", timeout=10)

        step(began, "the game over, rated")
        # 6. the leaderboards: ratings in the terminal, the Leaderboard page in the window
        ula.send("leave")
        ula.expect("You stopped watching. Back to the tables.")
        ula.expect("ratings for the leaderboard")
        ula.send("ratings")
        ula.expect("Leaderboard of")
        board = [ula.expect("1. "), ula.expect("2. ")]
        assert sorted(line.split(":")[0][3:] for line in board) == ["Tex", "Wes"], board
        assert all(line.endswith("(1 game)") for line in board), board
        vic.press("Stop watching")
        vic.until_scene("TablesScene")
        vic.press("Leaderboard")
        vic.until_scene("LeaderboardScene")
        leaders = vic.app.stack.top
        vic.until(lambda: leaders.board is not None, 10, "the leaderboard")
        assert sorted((r.name, r.games) for r in leaders.board.rows) == [("Tex", 1), ("Wes", 1)]
        vic.frames(3)
        assert time.monotonic() - began < 120
    except BaseException:
        print("the server's log, its end:\n" + (tmp_path / "server.log").read_text(errors="replace")[-6000:])
        if wes is not None and wes.scene == "MyGamesScene":
            print("My games:", wes.app.stack.top.games, wes.app.stack.top.problems)
        raise
    finally:
        for w in (wes, vic):
            if w is not None:
                close(w.app)
        for p in (tex, ula):
            if p is not None:
                p.kill()
        served.cleanup()
