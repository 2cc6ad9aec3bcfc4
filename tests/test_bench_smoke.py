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
