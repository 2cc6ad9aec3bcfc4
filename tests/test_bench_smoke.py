"""The benchmark scripts still run and end with their JSON line (no figure is judged here: speed
targets live in bench/, never in timed tests)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.timeout(120)
def test_server_load_quick_run_plays_every_game_without_errors():
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "server_load.py"), "--quick", "--no-pin"],
                         cwd=ROOT, capture_output=True, text=True, timeout=110)
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    (run,) = result["runs"]
    assert run["games"] == 10 and run["errors"] == 0, run
    assert run["requests"] == 10 * 2 * 4 * 2      # games x players x turns x 2 requests a turn
    assert {"requests_per_s", "p50_ms", "p99_ms", "server_peak_rss_mb"} <= run.keys()
    assert 0 < run["p50_ms"] <= run["p99_ms"]


@pytest.mark.timeout(120)
def test_server_path_and_soak_run_clean():
    path = subprocess.run([sys.executable, str(ROOT / "bench" / "server_path.py"), "--games", "5", "--repeat", "1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=100)
    assert path.returncode == 0, path.stderr[-2000:]
    figures = json.loads(path.stdout.strip().splitlines()[-1])
    assert figures["errors"] == 0 and figures["requests"] > 100 and figures["us_per_request"] > 0
    soak = subprocess.run([sys.executable, str(ROOT / "bench" / "server_soak.py"), "--rounds", "2", "--games", "5",
                           "--turns", "3"], cwd=ROOT, capture_output=True, text=True, timeout=100)
    assert soak.returncode == 0, soak.stderr[-2000:]
    figures = json.loads(soak.stdout.strip().splitlines()[-1])
    assert figures["errors"] == 0 and figures["rounds"] == 2 and len(figures["rss_mb"]) == 2
    assert figures["requests"] == 2 * 5 * 2 * 3 * 2


@pytest.mark.timeout(120)
def test_bots_bench_runs_every_part_and_reports_every_figure():
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "bots.py"), "--games", "2", "--budget", "2"],
                         cwd=ROOT, capture_output=True, text=True, timeout=110)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.strip().splitlines()
    figures = json.loads(lines[-1])
    assert any(line.startswith("solo hard") for line in lines[:-1])        # progress lines come first
    for level in ("easy", "medium", "hard"):
        assert 0 <= figures[f"{level}_solo_win_rate"] <= 1
        assert figures[f"{level}_solo_median_vp"] >= 0
        assert 0 < figures[f"{level}_decision_p50_ms"] <= figures[f"{level}_decision_p95_ms"]
        assert figures[f"{level}_decision_wall_p95_ms"] > 0
        assert 0 <= figures[f"four_player_win_share_{level}"] <= 1
    assert 0 <= figures["hard_vs_medium_2p_win_rate"] <= 1 and 0 <= figures["medium_vs_easy_2p_win_rate"] <= 1
    assert abs(sum(figures[f"four_player_win_share_{lv}"] for lv in ("easy", "medium", "hard")) - 1) < 0.01
    assert figures["games"] == {"easy_solo": 2, "medium_solo": 2, "hard_solo": 2, "hard_vs_medium_2p": 2,
                                "medium_vs_easy_2p": 2, "four_player": 2}


def test_bots_bench_plays_the_ceiling_on_a_second_set_of_seeds():
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "bots.py"), "--games", "2", "--levels", "hard",
                          "--budget", "2", "--ceiling", "--seed-offset", "100000"],
                         cwd=ROOT, capture_output=True, text=True, timeout=110)
    assert out.returncode == 0, out.stderr[-2000:]
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    assert figures["games"] == {"hard_solo": 2, "ceiling_solo": 2, "ceiling_deep_solo": 2}
    assert figures["seed_offset"] == 100000
    for name in ("ceiling", "ceiling_deep"):
        assert 0 <= figures[f"{name}_solo_win_rate"] <= 1 and figures[f"{name}_solo_median_vp"] > 0
    if figures["ceiling_deep_solo_win_rate"]:
        assert figures["hard_over_ceiling"] == round(figures["hard_solo_win_rate"]
                                                     / figures["ceiling_deep_solo_win_rate"], 3)


@pytest.mark.timeout(120)
def test_bot_decisions_bench_times_both_levels_on_its_positions():
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "bot_decisions.py"), "--per-table", "1",
                          "--budget", "2"], cwd=ROOT, capture_output=True, text=True, timeout=110)
    assert out.returncode == 0, out.stderr[-2000:]
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    assert figures["positions"] == {"1": 1, "2": 1, "4": 1} and figures["hard_budget"] == 2
    for level in ("medium", "hard"):
        assert 0 < figures[f"{level}_decision_p50_ms"] <= figures[f"{level}_decision_p95_ms"]
        assert len(figures[f"{level}_requests_digest"]) == 16


def test_bots_bench_refuses_an_unknown_level():
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "bots.py"), "--games", "1", "--levels", "easy,wizard"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and "wizard" in out.stderr


@pytest.mark.timeout(120)
def test_history_bench_reports_every_figure():
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "history.py")], cwd=ROOT, capture_output=True,
                         text=True, timeout=110)
    assert out.returncode == 0, out.stderr[-2000:]
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    assert figures["history_calls"] > 100 and figures["log_lines"] >= figures["history_calls"] // 2
    assert figures["history_lines"] >= 2 and figures["history_bytes"] > 10_000
    for key in ("history_replay_ms", "tell_ms", "board_first_frame_ms", "log_wrap_all_ms",
                "new_line_frame_p50_ms", "new_line_frame_p95_ms", "scroll_frame_p95_ms"):
        assert figures[key] > 0, key


@pytest.mark.timeout(120)
def test_bots_bench_deals_its_games_to_workers_with_the_same_figures():
    """Every game is seeded: two worker processes give the figures of one (times aside)."""
    figures = []
    for jobs in (1, 2):
        out = subprocess.run([sys.executable, str(ROOT / "bench" / "bots.py"), "--games", "3", "--levels",
                              "easy,medium", "--jobs", str(jobs)], cwd=ROOT, capture_output=True, text=True,
                             timeout=100)
        assert out.returncode == 0, out.stderr[-2000:]
        result = json.loads(out.stdout.strip().splitlines()[-1])
        assert result["jobs"] == jobs
        figures.append({k: v for k, v in result.items() if not k.endswith("_ms") and k not in ("seconds", "jobs")})
    assert figures[0] == figures[1]
    assert figures[0]["games"] == {"easy_solo": 3, "medium_solo": 3, "medium_vs_easy_2p": 3, "four_player": 3}
    assert figures[0]["medium_solo_median_vp"] > figures[0]["easy_solo_median_vp"]


@pytest.mark.timeout(120)
def test_engine_bench_runs_under_the_products_collector_policy_and_the_default_one():
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "engine.py"), "--seconds", "0.1", "--seeds", "3",
                          "--repeat", "1"], cwd=ROOT, capture_output=True, text=True, timeout=100)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.strip().splitlines()
    figures = json.loads(lines[-1])
    keys = {"solo_games_per_s", "four_player_games_per_s", "apply_median_us", "apply_p99_us", "undo_median_us"}
    assert keys <= figures.keys() and keys == figures["default_collector"].keys()
    assert 0 < figures["apply_fastest_median_us"] <= figures["apply_fastest_p99_us"]
    assert any(line.strip().startswith("ReqEndTurn 4p") for line in lines)   # the figures by request kind
    assert any(line.startswith("collector as Python sets it") for line in lines)
