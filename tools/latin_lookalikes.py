"""Make ``game/netcode/lookalikes.py``: the characters that read as a Latin letter, and that letter.

:func:`game.netcode.names.fold` takes each character that looks like a Latin one as that letter.
Unicode's confusables (through ``confusable_homoglyphs``) say which those are, but the package
answers from a 900 KB JSON file it loads whole: 140 ms on the server's event loop at the first
non-ASCII nickname and some 15 MB resident for good. Only a little of it is needed (about 1,300
characters, each with one letter), so this writes that little as a module the server imports.

    python tools/latin_lookalikes.py

Run it again after upgrading ``confusable_homoglyphs`` (a build and test tool only: the game does
not import it); ``tests/netcode/test_names_lookalikes.py`` fails while the module disagrees with it.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "game" / "netcode" / "lookalikes.py"


def latin(ch: str) -> str:
    """The Latin letter ``ch`` looks like, per the package (``ch`` itself when it is Latin or
    looks like none): what ``names`` asked the package for each non-ASCII character."""
    from confusable_homoglyphs import confusables
    found = confusables.is_confusable(ch, preferred_aliases=["latin"], greedy=False)
    if not found:
        return ch
    for glyph in found[0]["homoglyphs"]:
        if glyph["n"].startswith("LATIN ") and len(glyph["c"]) == 1:
            return glyph["c"]
    return ch


def lookalikes() -> dict[str, str]:
    """Every non-ASCII character of the package's data that reads as another (character ->
    the Latin one); a character missing from it reads as itself."""
    from confusable_homoglyphs import confusables
    found = {}
    for ch in confusables.confusables_data:
        if len(ch) == 1 and not ch.isascii() and latin(ch) != ch:
            found[ch] = latin(ch)
    return found


def _escaped(text: str) -> str:
    return "".join(f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\U{ord(c):08x}" for c in text)


def source(found: dict[str, str]) -> str:
    """The module's text: each Latin letter with the characters that read as it."""
    by_letter: dict[str, list[str]] = {}
    for ch, letter in sorted(found.items()):
        by_letter.setdefault(letter, []).append(ch)
    lines = ['"""The characters that read as a Latin letter (Unicode\'s confusables), by that letter.',
             "",
             "Made by ``tools/latin_lookalikes.py`` from ``confusable_homoglyphs``: do not edit.",
             '"""',
             "",
             "BY_LETTER = {"]
    for letter in sorted(by_letter):
        head = f'    "{_escaped(letter)}": ' if not letter.isascii() else f'    "{letter}": '
        row = ""
        for ch in by_letter[letter]:
            if len(head) + len(row) + len(_escaped(ch)) > 96:
                lines.append(f'{head}"{row}"')
                head, row = " " * len(head), ""
            row += _escaped(ch)
        lines.append(f'{head}"{row}",')
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> None:
    OUT.write_text(source(lookalikes()), encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
