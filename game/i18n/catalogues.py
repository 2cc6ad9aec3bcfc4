"""The message catalogues on disk: ``game/locale/<code>/LC_MESSAGES/mor.po`` and its compiled ``mor.mo``.

``make`` compiles each ``.po`` to its ``.mo`` with Babel before the game or the tests run (``make
catalogues`` also extracts the words and updates the ``.po``), and the game reads the ``.mo`` with
the standard library's :mod:`gettext`. A checkout run without ``make`` (the ``.mo`` missing, or
older than a ``.po`` just edited) has its catalogue compiled in memory from the ``.po`` when Babel
is installed (it is among the test and development dependencies; a player's installation carries
the ``.mo``), so that nobody plays or tests yesterday's words.
"""
from __future__ import annotations

import gettext
import io
import logging
from pathlib import Path

__all__ = ["DOMAIN", "LOCALE_DIR", "compile_po", "po_path", "translations"]

log = logging.getLogger("mor.i18n")

DOMAIN = "mor"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"


def po_path(code: str) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def compile_po(po: Path) -> bytes:
    """The ``.mo`` of the catalogue ``po``, compiled in memory by Babel (fuzzy entries left out, as
    ``pybabel compile`` does)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    with po.open("rb") as f:
        catalog = read_po(f)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def translations(code: str) -> gettext.NullTranslations:
    """The catalogue of the language ``code``: its compiled ``.mo``, or its ``.po`` compiled now when
    the ``.mo`` is missing or older; English words (with a warning in the log) when neither can be read."""
    po = po_path(code)
    mo = po.with_suffix(".mo")
    try:
        stale = not mo.exists() or (po.exists() and po.stat().st_mtime > mo.stat().st_mtime)
        if not stale:
            with mo.open("rb") as f:
                return gettext.GNUTranslations(f)
        return gettext.GNUTranslations(io.BytesIO(compile_po(po)))
    except ImportError:
        log.warning("the %s catalogue is not compiled (run make): speaking English", code)
    except Exception as e:   # an unreadable .mo (OSError), a broken .po (Babel's PoFileError, ValueError)
        log.warning("the %s catalogue cannot be read (%s): speaking English", code, e)
    return gettext.NullTranslations()
