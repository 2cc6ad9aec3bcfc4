"""``python main.py --screenshot PATH`` renders the title page headless and exits 0."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pygame

ROOT = Path(__file__).resolve().parents[1]


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               MOR_CONFIG_DIR=str(tmp_path / "config"), MOR_DATA_DIR=str(tmp_path / "data"))
    return subprocess.run([sys.executable, "main.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)


def _colours(img: pygame.Surface) -> set:
    w, h = img.get_size()
    return {tuple(img.get_at((x * w // 31, y * h // 19)))[:3] for x in range(31) for y in range(19)}


def test_screenshot_of_the_title(tmp_path):
    out = tmp_path / "tmp" / "x.png"
    result = _run(tmp_path, "--screenshot", str(out))
    assert result.returncode == 0, result.stderr
    img = pygame.image.load(str(out))
    assert img.get_size() == (1280, 800)
    assert len(_colours(img)) > 60          # a painted page, not a flat colour
    assert "Traceback" not in result.stderr


def test_screenshot_at_another_size(tmp_path):
    out = tmp_path / "small.png"
    result = _run(tmp_path, "--screenshot", str(out), "--size", "1024x640")
    assert result.returncode == 0, result.stderr
    assert pygame.image.load(str(out)).get_size() == (1024, 640)


def test_a_bad_size_is_refused(tmp_path):
    result = _run(tmp_path, "--screenshot", str(tmp_path / "y.png"), "--size", "big")
    assert result.returncode == 2 and "WIDTHxHEIGHT" in result.stderr


def test_a_size_too_large_for_any_screen_is_refused_without_a_traceback():
    import argparse

    import pytest

    from game.launcher import _size
    assert _size("7680x4320") == (7680, 4320)
    for text in ("99999x99999", "1024x9000"):
        with pytest.raises(argparse.ArgumentTypeError, match="at most 8192x8192"):
            _size(text)
