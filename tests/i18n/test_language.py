"""The language spoken: the system's by default, chosen by --lang or the saved setting, switched
at once (each word is looked up when said)."""
from __future__ import annotations

import pytest

from game import i18n
from game.client.words import amount, joined, leader_words
from game.settings import Settings


@pytest.mark.parametrize("env, spoken", [
    ({"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "it_IT.UTF-8"}, "it"),
    ({"LANGUAGE": "it:en", "LANG": "en_GB.UTF-8"}, "it"),
    ({"LANGUAGE": "", "LC_ALL": "en_US.UTF-8", "LANG": "it_IT.UTF-8"}, "en"),
    ({"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "fr_FR.UTF-8"}, "en"),   # not spoken: English
    ({"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8"}, "en"),
])
def test_the_system_language_is_spoken_unless_told_otherwise(monkeypatch, env, spoken):
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    assert i18n.use() == spoken == i18n.current()
    assert i18n.use("en") == "en"
    assert i18n.use("it-IT") == "it"


def test_a_switch_changes_the_next_word_said_without_a_restart():
    ld = {"leaderType": "DEPOT", "resourceType": "Coin", "victoryPoints": 3,
          "resourceRequirement": {"requirements": {"Shield": 5}}}
    assert amount(2, "Stone") == "2 Stones" and joined(["Ada", "Bea"]) == "Ada and Bea"
    i18n.use("it")
    assert (amount(1, "Stone"), amount(2, "Stone"), amount(3, "Faith")) == ("1 Pietra", "2 Pietre", "3 Fede")
    assert joined(["Ada", "Bea", "Cosimo"]) == "Ada, Bea e Cosimo"
    assert leader_words(ld, {})[:3] == ("Custode delle Monete",
                                        "Un deposito extra che contiene fino a 2 Monete, oltre al tuo Magazzino.",
                                        "Per giocarlo: 5 Scudi.")
    i18n.use("en")
    assert leader_words(ld, {})[0] == "Steward of Coin"


def test_the_choice_is_saved_and_a_bad_one_is_ignored(monkeypatch):
    s = Settings.load()
    assert s.language == ""               # the system's
    s.language = "it"
    s.save()
    assert Settings.load().language == "it"
    Settings.path().write_text('{"language": "klingon"}')
    loaded = Settings.load()
    assert loaded.language == "" and "language" in (loaded.problem or "")


def test_both_front_ends_take_lang():
    from game.launcher import parse_args
    from game.text.terminal import parse_args as text_args
    assert parse_args(["--lang", "it"]).lang == "it"
    assert text_args(["--lang", "en"]).lang == "en"
    with pytest.raises(SystemExit):
        parse_args(["--lang", "xx"])


def test_an_unreadable_catalogue_leaves_english_with_a_warning(monkeypatch, tmp_path, caplog):
    from game.i18n import catalogues
    monkeypatch.setattr(catalogues, "LOCALE_DIR", tmp_path)
    mo = catalogues.po_path("it").with_suffix(".mo")
    mo.parent.mkdir(parents=True)
    mo.write_bytes(b"not a catalogue")
    t = catalogues.translations("it")
    assert t.gettext("Coin") == "Coin"
    assert "speaking English" in caplog.text


def test_the_windows_title_is_said_in_the_language_spoken():
    """The window's title bar (and the taskbar) name the game in the player's language too."""
    from game.scenes.app import App
    app = App(headless=True, size=(1024, 640), language="it")
    assert app.caption == "Maestri del Rinascimento"
    app.speak("en")
    assert app.caption == "Masters of Renaissance"


@pytest.fixture
def english_system_fresh_install(monkeypatch):
    """An English system whose account's name is nobody's (a fresh install draws "Player 613")."""
    import getpass
    monkeypatch.setattr(getpass, "getuser", lambda: "root")
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.setenv(var, "")
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("USER", "root")
    monkeypatch.setenv("LOGNAME", "root")


def test_lang_draws_a_fresh_installs_name_in_the_language_chosen(english_system_fresh_install):
    """``--lang it`` on an English system: the window's and the text client's fresh player is
    "Giocatore 613", not "Player 613"; a name saved stays as it is."""
    import re

    from support.pty import PtyProgram

    from game.scenes.app import App
    app = App(headless=True, size=(1024, 640), language="it")
    assert re.fullmatch(r"Giocatore \d{3}", app.settings.nickname), app.settings.nickname
    app = App(headless=True, size=(1024, 640))
    assert re.fullmatch(r"Player \d{3}", app.settings.nickname), app.settings.nickname   # the system's
    with PtyProgram(["--plain", "--lang", "it"], seed=1) as p:
        line = p.expect("Cambia il tuo nome (ora ", timeout=20)
        assert re.search(r"\(ora Giocatore \d{3}\)$", line), line
        p.send("quit")
        p.expect("Arrivederci.")
        assert p.wait() == 0
    s = Settings.load()
    s.nickname = "Player 613"          # a name saved (chosen, or kept by joining a table) is the player's
    s.save()
    app = App(headless=True, size=(1024, 640), language="it")
    assert app.settings.nickname == "Player 613"


def test_the_language_chosen_in_settings_says_a_fresh_name_in_it_too(english_system_fresh_install):
    """Settings' language button (the system's, English, Italian...): the drawn name follows it,
    its number kept, and is saved in the language chosen."""
    from walk import close, start
    walk = start((1024, 640))
    try:
        drawn = walk.app.settings.nickname
        assert drawn.startswith("Player ")
        walk.press("Settings")
        walk.until_scene("SettingsScene")
        walk.press("System: English")
        walk.press("English")
        assert walk.app.settings.nickname == drawn.replace("Player", "Giocatore")
        assert Settings.load().nickname == drawn.replace("Player", "Giocatore") and Settings.load().language == "it"
        assert walk.app.stack.top.widgets["nickname"].get_text() == drawn.replace("Player", "Giocatore")
        walk.press("Italiano")
        assert walk.app.settings.nickname == drawn
    finally:
        close(walk.app)
