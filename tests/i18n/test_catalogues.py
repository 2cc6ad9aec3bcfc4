"""The message catalogues: every word of the game translated in each language, with its plural
forms and its placeholders, and no word of the code missing from them (extraction up to date)."""
from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from game import i18n
from game.i18n.catalogues import LOCALE_DIR, TEMPLATE, compile_po, po_path

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
            "npgettext": ((1, "c"), 2, 3), "N_": None, "NP_": ((1, "c"), 2), "NN_": (1, 2)}
"""As ``make catalogues`` extracts (Babel's defaults, ``-k NP_:1c,2`` and ``-k NN_:1,2``)."""

TRANSLATED = sorted(code for code in i18n.LANGUAGES if code != i18n.SOURCE)
FIELD = re.compile(r"\{([^{}]*)\}")


@functools.lru_cache(maxsize=None)
def catalogue(path: Path):
    """The catalogue at ``path``, read once for the module's tests (they only read it)."""
    with path.open("rb") as f:
        return read_po(f)


@functools.lru_cache(maxsize=1)
def marking_sources() -> tuple[tuple[Path, str, tuple[ast.AST, ...]], ...]:
    """(path, text, every node of its tree) of each module of game/ that imports game.i18n (the
    only ones that can mark a word), parsed once for the tests that read their code."""
    out = []
    for path in sorted((ROOT / "game").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "game.i18n" in text:
            out.append((path, text, tuple(ast.walk(ast.parse(text)))))
    return tuple(out)


def key(message) -> tuple[str | None, str]:
    return message.context, message.id[0] if isinstance(message.id, tuple) else message.id


def fields(text: str) -> set[str]:
    return set(FIELD.findall(text))


def test_every_language_listed_has_a_catalogue_and_every_catalogue_is_listed():
    found = {p.parent.parent.name for p in LOCALE_DIR.glob("*/LC_MESSAGES/mor.po")}
    assert found == set(TRANSLATED)


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_word_is_translated_with_its_plural_forms_and_placeholders(code):
    cat = catalogue(po_path(code))
    assert cat.num_plurals >= 1 and cat.plural_expr, "the catalogue's header names its plural forms"
    problems = []
    for m in cat:
        if not m.id:
            continue
        if m.fuzzy:
            problems.append(f"fuzzy (a guess to check): {m.id!r}")
        if isinstance(m.id, tuple):
            strings = m.string if isinstance(m.string, tuple) else (m.string,)
            if len(strings) != cat.num_plurals or not all(strings):
                problems.append(f"not every plural form: {m.id!r}")
            allowed = fields(m.id[0]) | fields(m.id[1])
            for s in strings:      # a form for one may say "una" rather than {n}: the others are kept
                if not fields(s) <= allowed or not (fields(m.id[1]) - {"n"}) <= fields(s):
                    problems.append(f"placeholders differ: {m.id!r} -> {s!r}")
        elif not m.string:
            problems.append(f"untranslated: {m.id!r}")
        elif fields(m.string) != fields(m.id):
            problems.append(f"placeholders differ: {m.id!r} -> {m.string!r}")
    assert not problems, f"{len(problems)} problem(s) in {code}:\n" + "\n".join(problems[:40])


def test_the_template_and_the_catalogues_hold_every_word_the_code_marks():
    """``make catalogues`` was run after the last word was marked or changed (only the files that
    import game.i18n can mark one: the others are not read, to keep this fast)."""
    extracted = {(ctx, msg if isinstance(msg, str) else msg[0])
                 for path in (ROOT / "game").rglob("*.py") if "i18n" in path.read_text(encoding="utf-8")
                 for _line, msg, _comments, ctx in extract_from_file("python", str(path), keywords=KEYWORDS)}
    template = {key(m) for m in catalogue(TEMPLATE) if m.id}
    assert not extracted - template, f"not in the template (run make catalogues): {sorted(extracted - template)[:20]}"
    assert not template - extracted, f"no longer in the code (run make catalogues): {sorted(template - extracted)[:20]}"
    for code in TRANSLATED:
        words = {key(m) for m in catalogue(po_path(code)) if m.id}
        assert words == template, f"{code} differs from the template (run make catalogues): {sorted(words ^ template)[:20]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_compiled_catalogue_is_the_catalogue(code):
    """The .mo make built says what the .po says (or it is compiled from the .po when missing)."""
    import gettext
    import io
    mo = po_path(code).with_suffix(".mo")
    if mo.exists() and mo.stat().st_mtime >= po_path(code).stat().st_mtime:
        assert mo.read_bytes() and gettext.GNUTranslations(io.BytesIO(mo.read_bytes()))
    built = gettext.GNUTranslations(io.BytesIO(compile_po(po_path(code))))
    some = next(m for m in catalogue(po_path(code)) if m.id and isinstance(m.id, str) and not m.context)
    assert built.gettext(some.id) == some.string


def test_no_word_is_marked_inside_another_call_to_translate():
    """``_(table.get(key, N_("default")))`` hides the inner word from Babel (it reads no call
    inside a keyword's arguments): the default must be marked on a line of its own."""
    markers = set(KEYWORDS)
    hidden = []
    for path, _text, nodes in marking_sources():
        for node in nodes:
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in markers:
                for inner in (n for arg in node.args for n in ast.walk(arg)):
                    if (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id in markers
                            and any(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in inner.args)):
                        hidden.append(f"{path.relative_to(ROOT)}:{inner.lineno}")
    assert not hidden, f"marked words Babel cannot see: {hidden}"


def test_no_module_that_translates_binds_the_name_of_the_translator():
    """``for _ in ...`` or ``a, _ = f()`` in a module that imports ``_`` from game.i18n makes
    ``_`` a local of that function: a word said there calls the wrong thing (or fails)."""
    bound = []
    for path, text, nodes in marking_sources():
        if "game.i18n import" not in text:
            continue
        if not any(isinstance(n, ast.ImportFrom) and n.module == "game.i18n" and any(a.name == "_" for a in n.names)
                   for n in nodes):
            continue
        bound += [f"{path.relative_to(ROOT)}:{n.lineno}" for n in nodes
                  if isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store)
                  or isinstance(n, ast.arg) and n.arg == "_"]
    assert not bound, f"_ bound where it translates: {bound}"


def test_italian_says_casella_for_the_faith_track_and_spazio_for_a_card_slot():
    """One Italian word per thing (the glossary at the top of the catalogue): a space of the
    faith track is a casella, wherever a marker, the black cross or a Vatican report stands on
    one or moves by it; a slot of a board's development cards is a spazio. "spazi" in a name's
    letters, digits and spaces stays."""
    track = re.compile(r"\b(spaces?|steps?)\b")
    said: list[str] = []
    for m in catalogue(po_path("it")):
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strs = m.string if isinstance(m.string, tuple) else (m.string,)
        if not m.id or any("letters" in i or "no spaces" in i for i in ids):
            continue
        english = " ".join(ids)
        italian = " ".join(strs)
        if track.search(english) and re.search(r"\b(track|cross|Vatican|marker|pope)", english, re.I):
            if re.search(r"\bspazi[oe]?\b", italian) or (re.search(r"\bspaces?\b", english) and "casell" not in italian):
                said.append(f"the track: {english!r} -> {italian!r}")
        if re.search(r"\bslots?\b", english) and "casell" in italian:
            said.append(f"a slot: {english!r} -> {italian!r}")
    assert not said, "\n".join(said)
