"""The words of a command line's help said in the player's language: argparse's own ("usage:",
"options", the help option's line), which it looks up through the gettext functions it imported
(the standard library ships no catalogue for them; ours has them)."""
from __future__ import annotations

import argparse

from game.i18n import N_, _, ngettext

WORDS = (N_("usage: "), N_("positional arguments"), N_("options"), N_("show this help message and exit"),
         N_("%(prog)s: error: %(message)s\n"), N_("the following arguments are required: %s"),
         N_("unrecognized arguments: %s"), N_("argument %(argument_name)s: %(message)s"),
         N_("invalid choice: %(value)r (choose from %(choices)s)"), N_("expected one argument"))
"""argparse's words a player may read, marked for the catalogue."""


def speak_argparse() -> None:
    """From now on argparse says its words in the language spoken (looked up as each is said)."""
    argparse._ = _                      # type: ignore[attr-defined]
    argparse.ngettext = ngettext        # type: ignore[attr-defined]
