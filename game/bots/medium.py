"""The medium bot (for now it plays like the easy one; its heuristic player replaces this)."""
from __future__ import annotations

from .easy import EasyBot


class MediumBot(EasyBot):
    level = "medium"
