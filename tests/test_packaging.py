"""What an installed wheel carries: every package, every data file, working entry points.

``config/`` and ``assets/`` live at the top of the repository; pyproject.toml maps them into the
package (``game/_data/...``) for a wheel, and ``game.resources`` finds them in either place.
"""
from __future__ import annotations

import fnmatch
import importlib
import tomllib
from pathlib import Path

import game.resources as resources

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def test_every_package_of_the_game_is_listed():
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "game").rglob("__init__.py")}
    listed = {p for p in SETUPTOOLS["packages"] if not p.startswith("game._data")}
    assert found == listed


def test_every_data_file_goes_into_the_wheel():
    mapping = PYPROJECT["tool"]["setuptools"]["package-dir"]
    globs = PYPROJECT["tool"]["setuptools"]["package-data"]
    for package, folder in mapping.items():
        assert package in SETUPTOOLS["packages"]
        files = [p.relative_to(ROOT / folder).as_posix() for p in (ROOT / folder).rglob("*") if p.is_file()]
        assert files, folder
        missed = [f for f in files if not any(fnmatch.fnmatch(f, g) for g in globs[package])]
        assert not missed, f"{folder}/ files a wheel would leave out: {missed}"


def test_entry_points_name_real_functions():
    scripts = {**PYPROJECT["project"]["scripts"], **PYPROJECT["project"]["gui-scripts"]}
    assert set(scripts) == {"mor", "mor-server", "mor-text"}
    for target in scripts.values():
        module, _, name = target.partition(":")
        assert callable(getattr(importlib.import_module(module), name)), target


def test_a_source_checkout_reads_the_top_level_folders():
    assert resources.CONFIG_DIR == ROOT / "config"
    assert resources.ASSETS_DIR == ROOT / "assets"
    assert resources.data_path("assets/fonts/OFL.txt") == ROOT / "assets" / "fonts" / "OFL.txt"


def test_an_installed_package_reads_its_own_copy(tmp_path, monkeypatch):
    package = tmp_path / "site-packages" / "game"
    (package / "_data" / "config").mkdir(parents=True)
    monkeypatch.setattr(resources, "_PACKAGE", package)
    assert resources.data_dir("config") == package / "_data" / "config"
    assert resources.data_path("config/default.json") == package / "_data" / "config" / "default.json"
    assert resources.data_dir("assets") == package.parent / "assets"   # not shipped: the checkout's place


def test_the_desktop_entry_opens_game_links():
    """The desktop's handler of ``mor:`` links is the game, the link given as its argument."""
    from build_dist import desktop_entry
    entry = desktop_entry(Path("/opt/mor/mor"), Path("/opt/mor/icon.png")).splitlines()
    assert "MimeType=x-scheme-handler/mor;" in entry
    assert 'Exec="/opt/mor/mor" %u' in entry
