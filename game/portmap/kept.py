"""The mapping a hosted game made, kept in a small file beside the hosted games while it stands,
so that a game killed while hosting (kill -9, a power cut) has it replaced the next time rather
than left beside a new one: the next hosting removes what the file names before it asks anew.

The file (``portmap.json`` in the hosting folder) says the protocol, the ports and the
description; it is removed with the mapping.
"""
from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import Any

__all__ = ["Kept", "description_for"]

NAME = "portmap.json"
ID_NAME = "portmap-id"


def description_for(folder: Path) -> str:
    """The mapping's description at the router: the game's name and this install's own short
    id (made once and kept in ``folder``), the same at every hosting, so that its mappings are
    known again at the router (``Masters of Renaissance 3f9a2c``)."""
    path = Path(folder) / ID_NAME
    try:
        ident = path.read_text(encoding="ascii").strip()
    except OSError:
        ident = ""
    if not (len(ident) == 6 and all(c in "0123456789abcdef" for c in ident)):
        ident = secrets.token_hex(3)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(ident + "\n", encoding="ascii")
        except OSError:
            pass
    return f"Masters of Renaissance {ident}"


class Kept:
    """The mapping kept in ``folder`` (see the module's text)."""

    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / NAME

    def read(self) -> dict[str, Any] | None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def write(self, **mapping: Any) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(mapping), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:
            pass

    def clear(self) -> None:
        try:
            self.path.unlink()
        except OSError:
            pass
