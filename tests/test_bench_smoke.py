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
