"""Make the game's fonts: EB Garamond 12 with lining figures as its default digits.

EB Garamond's default figures are old-style (a 0 like an o, a 1 like a small I, a 3 that
descends); its lining figures sit behind the OpenType feature ``lnum``, which SDL_ttf cannot
select. This maps the digits 0-9 of each face to the face's own ``.lnum`` glyphs and renames the
family "EB Garamond 12 LF", so every count, cost and score (ours and pygame_gui's) has figures
that cannot be confused. The SIL Open Font License allows such a modified version (EB Garamond
has no reserved font name).

    python tools/lining_fonts.py [SOURCE_DIR]

SOURCE_DIR holds the TrueType files of Debian's ``fonts-ebgaramond-extra`` package (the
default). Needs ``fonttools`` (a build tool only; the game does not import it).
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "assets" / "fonts"
FACES = {"EBGaramond12-Regular.ttf": "EBGaramond12LF-Regular.ttf",
         "EBGaramond12-Italic.ttf": "EBGaramond12LF-Italic.ttf",
         "EBGaramondSC12-Regular.ttf": "EBGaramondSC12LF-Regular.ttf"}
DIGITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


def lining(source: Path, target: Path) -> None:
    from fontTools.ttLib import TTFont
    font = TTFont(source)
    glyphs = set(font.getGlyphOrder())
    for table in font["cmap"].tables:
        if not table.isUnicode():
            continue
        for i, name in enumerate(DIGITS):
            if name + ".lnum" in glyphs and 0x30 + i in table.cmap:
                table.cmap[0x30 + i] = name + ".lnum"
    names = font["name"]
    for rec in names.names:
        if rec.nameID in (1, 3, 4, 6, 16, 18):
            text = rec.toUnicode()
            text = text.replace("EB Garamond 12", "EB Garamond 12 LF").replace("EB Garamond SC 12", "EB Garamond SC 12 LF")
            text = text.replace("EBGaramond12-", "EBGaramond12LF-").replace("EBGaramondSC12-", "EBGaramondSC12LF-")
            rec.string = text
    font.save(target)


def main(argv: list[str]) -> int:
    src = Path(argv[0]) if argv else Path("/usr/share/fonts/truetype/ebgaramond")
    for name, out in FACES.items():
        lining(src / name, OUT / out)
        print("wrote", OUT / out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
