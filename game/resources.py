"""Where the game's data files are: ``config/`` (rules data, widget theme) and ``assets/`` (fonts).

In a source checkout, and in the editable install that ``make`` makes, both folders sit beside
the ``game`` package, at the top of the repository. An installed wheel carries them inside the
package, as ``game/_data/config`` and ``game/_data/assets`` (see ``[tool.setuptools.package-dir]``
in ``pyproject.toml``), so that ``pip install .`` gives a game that runs from anywhere.
"""
from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The folder ``name`` (``"config"`` or ``"assets"``) of this installation."""
    inside = _PACKAGE / "_data" / name
    return inside if inside.is_dir() else _PACKAGE.parent / name


def data_path(relative: str | Path) -> Path:
    """A path written relative to the repository's top (``"assets/fonts/x.ttf"``) made absolute
    for this installation."""
    first, *rest = Path(relative).parts
    return data_dir(first).joinpath(*rest)


CONFIG_DIR = data_dir("config")
ASSETS_DIR = data_dir("assets")
