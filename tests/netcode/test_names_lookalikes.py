"""The letters that read as Latin ones, kept small (issue 28): ``fold`` asked
``confusable_homoglyphs``, which loads its 900 KB JSON whole at the first non-ASCII nickname
(~140 ms on the server's loop, ~15 MB resident for good). ``game.netcode.lookalikes`` keeps only
what folding needs, made by ``tools/latin_lookalikes.py``; it must say what the package says."""
from __future__ import annotations

import subprocess
import sys

import latin_lookalikes

from game.netcode import names


def test_folding_a_foreign_name_leaves_the_confusables_package_unloaded():
    probe = ("import sys; from game.netcode.names import fold; "
             "print(fold('h\\u043en'), fold('\\u0405erver'), fold('\\U0001d421ON'), "
             "'confusable_homoglyphs' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         timeout=60, check=True).stdout.split()
    assert out == ["hon", "server", "hon", "False"]


def test_the_lookalikes_say_what_the_package_says_of_every_character():
    package = latin_lookalikes.lookalikes()
    assert len(package) > 1000
    assert names._LATIN == {ord(ch): letter for ch, letter in package.items()}
    assert "\u043e" in package and package["\u043e"] == "o"     # Cyrillic о
