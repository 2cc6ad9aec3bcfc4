"""Every benchmark script runs, with short settings, and ends with its JSON line (no figure is
judged here: speed targets live in bench/, never in timed tests; ``make bench`` runs them with
their full settings)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.early       # the suite's longest file after the bots' games

ROOT = Path(__file__).resolve().parent.parent

QUICK: dict[str, list[str]] = {
    "bot_decisions.py": ["--per-table", "1", "--budget", "2"],
    "bot_tables.py": ["--every", "0.5", "--seconds", "2", "--max-tables", "2", "--level", "easy"],
    "bots.py": ["--games", "1", "--budget", "2"],
    "client_frames.py": ["--quick", "--dummy"],
    "engine.py": ["--seconds", "0.1", "--seeds", "3", "--repeat", "1"],
    "history.py": ["--quick"],
    "server_attacks.py": ["--limit", "3", "--joiners", "50", "--seconds", "1", "--connections", "50",
                          "--bot-tables", "2", "--attack-seconds", "0.5", "--quiet-seconds", "0",
                          "--clock-seconds", "4", "--newcomer-wait", "2", "--after-seconds", "0"],
    "server_bots.py": ["--seconds", "1", "--bot-games", "1", "--level", "easy"],
    "server_churn.py": ["--cycles", "200", "--settle", "0.5"],
    "server_load.py": ["--quick", "--no-pin"],
    "server_path.py": ["--games", "5", "--repeat", "1"],
    "server_scale.py": ["--players", "8", "--turns", "1", "--think", "0,0.1"],
    "ratings_store.py": ["--players", "50", "--games", "20"],
    "server_soak.py": ["--rounds", "2", "--games", "5", "--turns", "3"],
}
"""The short settings of each script in bench/ (a new one gets its line here)."""


def bench(script: str, *args: str, timeout: float = 600) -> tuple[dict, list[str]]:
    """Run ``bench/<script>``: (its last line as JSON, the lines before it)."""
    out = subprocess.run([sys.executable, str(ROOT / "bench" / script), *args], cwd=ROOT, capture_output=True,
                         text=True, timeout=timeout)
    return _figures(out.returncode, out.stdout, out.stderr)


def _figures(code: int, stdout: str, stderr: str) -> tuple[dict, list[str]]:
    assert code == 0, stderr[-3000:]
    *lines, last = stdout.strip().splitlines()
    figures = json.loads(last)
    assert isinstance(figures, dict), last
    return figures, lines


ATTACKS = [["silent_head", "joiners", "line_flood", "connections", "bot_tables", "sit_leave", "squatters"],
           ["names", "bot_tables_left", "ipv6_56", "tls_flood", "rejoin_loop"],
           ["replays", "silent_table", "churn"]]
"""server_attacks.py's attacks, in three runs side by side: each attack starts a server of its own
and mostly waits on clocks (its seats', the newcomer's), so one after the other they held a
worker of the suite for 50 s at a fifth of a core."""


def server_attacks(*args: str, timeout: float = 600) -> tuple[dict, list[str]]:
    """``bench/server_attacks.py`` with every attack of its default list, in the runs of ATTACKS
    at once: (their figures merged, their lines)."""
    import tempfile
    figures: dict = {}
    lines: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        outs = [(Path(folder) / f"{i}.out", Path(folder) / f"{i}.err") for i in range(len(ATTACKS))]
        procs = []
        try:
            for group, (out, err) in zip(ATTACKS, outs):
                with out.open("w") as o, err.open("w") as e:
                    procs.append(subprocess.Popen([sys.executable, str(ROOT / "bench" / "server_attacks.py"), *args,
                                                   "--only", ",".join(group)], cwd=ROOT, stdout=o, stderr=e, text=True))
            for proc, (out, err) in zip(procs, outs):
                code = proc.wait(timeout=timeout)
                f, ls = _figures(code, out.read_text(), err.read_text())
                figures.update(f)
                lines += ls
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
    return figures, lines


def check_server_attacks(figures: dict, lines: list[str]) -> None:
    """Every attack of the script's own list ran, once."""
    from bench.server_attacks import ALL
    assert sorted(sum(ATTACKS, [])) == sorted(ALL)
    ran = [line.split(":")[0] for line in lines if line.split(":")[0] in ALL]
    assert sorted(ran) == sorted(ALL) and set(ALL) <= figures.keys(), (ran, sorted(figures))


def check_server_load(figures: dict, lines: list[str]) -> None:
    (run,) = figures["runs"]
    assert run["games"] == 10 and run["errors"] == 0, run
    assert run["requests"] == 10 * 2 * 4 * 2      # games x players x turns x 2 requests a turn
    assert {"requests_per_s", "p50_ms", "p99_ms", "server_peak_rss_mb"} <= run.keys()
    assert 0 < run["p50_ms"] <= run["p99_ms"]


def check_server_path(figures: dict, lines: list[str]) -> None:
    assert figures["errors"] == 0 and figures["requests"] > 100 and figures["us_per_request"] > 0


def check_server_soak(figures: dict, lines: list[str]) -> None:
    assert figures["errors"] == 0 and figures["rounds"] == 2 and len(figures["rss_mb"]) == 2
    assert figures["requests"] == 2 * 5 * 2 * 3 * 2


def check_bots(figures: dict, lines: list[str]) -> None:
    assert any(line.startswith("solo hard") for line in lines)        # progress lines come first
    for level in ("easy", "medium", "hard"):
        assert 0 <= figures[f"{level}_solo_win_rate"] <= 1
        assert figures[f"{level}_solo_median_vp"] >= 0
        assert 0 < figures[f"{level}_decision_p50_ms"] <= figures[f"{level}_decision_p95_ms"]
        assert figures[f"{level}_decision_wall_p95_ms"] > 0
        assert 0 <= figures[f"four_player_win_share_{level}"] <= 1
    assert 0 <= figures["hard_vs_medium_2p_win_rate"] <= 1 and 0 <= figures["medium_vs_easy_2p_win_rate"] <= 1
    assert abs(sum(figures[f"four_player_win_share_{lv}"] for lv in ("easy", "medium", "hard")) - 1) < 0.01
    assert figures["games"] == {"easy_solo": 1, "medium_solo": 1, "hard_solo": 1, "hard_vs_medium_2p": 1,
                                "medium_vs_easy_2p": 1, "four_player": 1}


def check_bot_decisions(figures: dict, lines: list[str]) -> None:
    assert figures["positions"] == {"1": 1, "2": 1, "4": 1} and figures["hard_budget"] == 2
    for level in ("medium", "hard"):
        assert 0 < figures[f"{level}_decision_p50_ms"] <= figures[f"{level}_decision_p95_ms"]
        assert len(figures[f"{level}_requests_digest"]) == 16


def check_history(figures: dict, lines: list[str]) -> None:
    assert figures["history_calls"] > 100 and figures["log_lines"] >= figures["history_calls"] // 2
    assert figures["history_lines"] >= 2 and figures["history_bytes"] > 10_000
    for key in ("history_replay_ms", "tell_ms", "board_first_frame_ms", "log_wrap_all_ms",
                "new_line_frame_p50_ms", "new_line_frame_p95_ms", "scroll_frame_p95_ms"):
        assert figures[key] > 0, key


def check_engine(figures: dict, lines: list[str]) -> None:
    """It runs under the product's collector policy and under Python's default one."""
    keys = {"solo_games_per_s", "four_player_games_per_s", "apply_median_us", "apply_p99_us", "undo_median_us"}
    assert keys <= figures.keys() and keys == figures["default_collector"].keys()
    assert 0 < figures["apply_fastest_median_us"] <= figures["apply_fastest_p99_us"]
    assert any(line.strip().startswith("ReqEndTurn 4p") for line in lines)   # the figures by request kind
    assert any(line.startswith("collector as Python sets it") for line in lines)


def check_client_frames(figures: dict, lines: list[str]) -> None:
    """Every part ran, the whole game's too (a turn of it, through the app flow)."""
    assert figures["quick"] is True and figures["game_driver"] == "dummy"
    assert figures["first_frame_s"] > 0 and 0 < figures["frame_p50_ms"] <= figures["frame_p95_ms"]
    assert figures["game_peak_rss_mb"] > 0 and figures["bots_worker_rss_mb"] > 0
    assert any(line.startswith("a whole 4-player game") and "(1 turns of the player" in line for line in lines)
    assert figures["bot_decisions_process"] >= 0 and figures["bot_frame_p95_process_ms"] > 0


CHECKS = {"server_attacks.py": check_server_attacks, "server_load.py": check_server_load, "server_path.py": check_server_path,
          "server_soak.py": check_server_soak, "bots.py": check_bots, "bot_decisions.py": check_bot_decisions,
          "history.py": check_history, "engine.py": check_engine, "client_frames.py": check_client_frames}


def test_every_bench_script_has_its_short_settings_here():
    assert sorted(QUICK) == sorted(p.name for p in (ROOT / "bench").glob("*.py"))


@pytest.mark.timeout(660)
@pytest.mark.parametrize("script", sorted(QUICK))
def test_every_bench_runs_with_short_settings_and_ends_with_one_json_object(script):
    if script == "server_attacks.py":
        figures, lines = server_attacks(*QUICK[script])
    else:
        figures, lines = bench(script, *QUICK[script])
    if script in CHECKS:
        CHECKS[script](figures, lines)


def test_bots_bench_plays_the_ceiling_on_a_second_set_of_seeds():
    figures, _ = bench("bots.py", "--games", "2", "--levels", "hard", "--budget", "2", "--ceiling",
                       "--seed-offset", "100000", timeout=110)
    assert figures["games"] == {"hard_solo": 2, "ceiling_solo": 2, "ceiling_deep_solo": 2}
    assert figures["seed_offset"] == 100000
    for name in ("ceiling", "ceiling_deep"):
        assert 0 <= figures[f"{name}_solo_win_rate"] <= 1 and figures[f"{name}_solo_median_vp"] > 0
    if figures["ceiling_deep_solo_win_rate"]:
        assert figures["hard_over_ceiling"] == round(figures["hard_solo_win_rate"]
                                                     / figures["ceiling_deep_solo_win_rate"], 3)


def test_bots_bench_refuses_an_unknown_level():
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "bots.py"), "--games", "1", "--levels", "easy,wizard"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and "wizard" in out.stderr


@pytest.mark.timeout(120)
def test_bots_bench_deals_its_games_to_workers_with_the_same_figures():
    """Every game is seeded: two worker processes give the figures of one (times aside)."""
    figures = []
    for jobs in (1, 2):
        result, _ = bench("bots.py", "--games", "3", "--levels", "easy,medium", "--jobs", str(jobs), timeout=100)
        assert result["jobs"] == jobs
        figures.append({k: v for k, v in result.items() if not k.endswith("_ms") and k not in ("seconds", "jobs")})
    assert figures[0] == figures[1]
    assert figures[0]["games"] == {"easy_solo": 3, "medium_solo": 3, "medium_vs_easy_2p": 3, "four_player": 3}
    assert figures[0]["medium_solo_median_vp"] > figures[0]["easy_solo_median_vp"]


