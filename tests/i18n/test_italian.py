"""A player who chooses Italian reads Italian: in the window (Settings, applied at once and kept;
the title page; the game's log) and in the text client (--lang it)."""
from __future__ import annotations

import pygame
import pytest
from support.drawn import Words
from walk import Walk, close, start

from game import i18n
from game.settings import Settings


def buttons(walk: Walk) -> list[str]:
    import pygame_gui
    return [str(el.text) for el in walk.app.stack.top.ui.get_sprite_group().sprites()
            if isinstance(el, pygame_gui.elements.UIButton) and el.visible]


@pytest.mark.seed(1)
def test_italian_chosen_in_settings_is_spoken_at_once_on_every_page_and_kept(monkeypatch):
    walk = start((1024, 640))
    try:
        assert "Play solo" in buttons(walk)
        walk.press("Settings")
        walk.until_scene("SettingsScene")
        walk.press("System: English")       # the system's (English here), then English, then Italian
        walk.press("English")
        words = Words(monkeypatch)
        walk.frames(2)
        assert i18n.current() == "it" and Settings.load().language == "it"     # kept, without Save
        assert {"Italiano", "Salva", "Indietro"} <= set(buttons(walk)), buttons(walk)
        assert "Lingua" in words.seen and "Nome" in words.seen and "Nickname" not in words.seen
        walk.key(pygame.K_ESCAPE)
        walk.until_scene("TitleScene")
        walk.frames(2)
        shown = buttons(walk)               # the page under Settings was built again in Italian
        assert {"Gioca in solitario", "Unisciti a una partita", "Impostazioni", "Esci"} <= set(shown), shown
        assert "Play solo" not in shown
        walk.press("Gioca in solitario")          # a new solo game: its leaders chosen in Italian
        walk.until_scene("LeaderChoiceScene")
        assert "Esci" in buttons(walk) and any(b.startswith("Tieni questi 2 Leader") for b in buttons(walk))
    finally:
        close(walk.app)


def test_a_solo_game_is_told_in_italian(monkeypatch):
    """The log of a game: a leader's words, Lorenzo's token, the Vatican report, the end."""
    from support.table import Table, mid_game

    from game.client.session import GameSession
    from game.rules import default_config
    from game.scenes.board import BoardScene
    game = mid_game(["Ada"], 3, 6)
    game.black_cross = 22
    game.player("Ada").faith = 3
    game.fired = [True, True, False]
    tid = next(t.id for t in game.config.solo_tokens if t.kind == "move")
    game.tokens.remove(tid)
    game.tokens.insert(0, tid)
    game.main_done = True
    from game.scenes.app import App
    app = App(headless=True, size=(1024, 640), language="it")
    app.settings.confirm_end_turn = False
    walk = Walk(app, None, "italian")
    try:
        session = GameSession(Table(game, "Ada"), default_config(), "Ada")
        app.stack.push(BoardScene(app, session))
        walk.frames(2)
        assert {"Fine turno", "Produci…", "Regole", "Esci"} <= set(buttons(walk)), buttons(walk)
        session.end_turn()
        walk.frames(20)
        app.frame(3.0)
        walk.frames(2)
        assert game.phase == "ended"
        assert str(session.log[-1]) == (
            "Hai finito il turno. Lorenzo ha avanzato la Croce Nera di 2 caselle — Rapporto in Vaticano 3: non sei "
            "nella sezione; la tua tessera Favore Papale viene rimossa; la Croce Nera di Lorenzo ha raggiunto la fine "
            "del Tracciato Fede: vince Lorenzo."), session.log[-1]
    finally:
        close(app)


@pytest.mark.seed(1)
def test_the_text_client_speaks_italian_with_lang_it():
    """A new solo game in the terminal with --lang it: the menu, the leaders, the log, a refusal
    and the help (the commands stay the words typed: keep, take, help)."""
    from support.pty import PtyProgram
    p = PtyProgram(["--plain", "--name", "Ada", "--lang", "it"], seed=1)
    try:
        assert p.expect("Menu principale") == "Menu principale. Scrivi il numero della tua scelta:"
        p.send("1")
        assert p.expect("Scegli i 2 Leader").startswith("Scegli i 2 Leader che tieni, tra questi 4")
        assert p.expect("Custode delle Monete").endswith("Un deposito extra che contiene fino a 2 Monete, oltre al "
                                                         "tuo Magazzino. Per giocarlo: 5 Scudi.")
        p.send("keep 1 2", "")
        assert p.expect("Hai tenuto due Leader") == "Hai tenuto due Leader."
        assert p.expect("La partita è cominciata").startswith("La partita è cominciata: giochi contro Lorenzo")
        p.send("take row 9")
        assert p.expect("riga 9") == "Non c'è nessuna riga 9: scrivine una da 1 a 3."
        p.send("help keep")
        assert p.expect("keep A B") == ("keep A B: All'inizio: tieni questi due dei tuoi quattro Leader (numeri "
                                        "come mostrati).")
    finally:
        p.kill()


def test_resources_are_typed_in_the_words_the_terminal_says():
    """The text client names the resources in Italian ("2 Monete, 1 Scudo"): an Italian player types
    them so too, whole, plural or their first letters; English still works; a word that is none of
    them is told the four names in Italian."""
    from game.text.vocabulary import Refused, resource
    i18n.use("it")
    typed = ["Moneta", "monete", "SERVITORE", "servitori", "scudo", "Scudi", "pi", "Pietre", "coin", "Stone", "sh"]
    assert [resource(w) for w in typed] == ["Coin", "Coin", "Servant", "Servant", "Shield", "Shield", "Stone",
                                            "Stone", "Coin", "Stone", "Shield"]
    with pytest.raises(Refused) as refused:
        resource("oro")
    assert str(refused.value) == "'oro' non è una risorsa: scrivi Moneta, Servitore, Scudo o Pietra."


@pytest.mark.parametrize("lang, name", [("it_IT.UTF-8", r"Giocatore \d{3}"), ("C.UTF-8", r"Player \d{3}")])
def test_a_fresh_install_is_named_in_the_systems_language(monkeypatch, lang, name):
    import getpass
    import re
    monkeypatch.setattr(getpass, "getuser", lambda: "root")      # (an account's name that is nobody's)
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.setenv(var, "")
    monkeypatch.setenv("LANG", lang)
    assert re.fullmatch(name, Settings().nickname), Settings().nickname


def test_the_command_lines_help_is_said_in_the_systems_language(monkeypatch, capsys):
    """``mor --help`` on an Italian system, argparse's own words too ("uso:", "opzioni:"); and a
    bad option's refusal."""
    from game.launcher import main
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.setenv(var, "")
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    with pytest.raises(SystemExit):
        main(["--help"])
    said = capsys.readouterr().out
    assert said.startswith("uso: mor [-h]") and "\nGioca a Maestri del Rinascimento.\n" in said, said
    assert "opzioni:" in said and "mostra questo aiuto ed esce" in said and "usage" not in said, said
    with pytest.raises(SystemExit):
        main(["--size", "10x10"])
    assert capsys.readouterr().err.endswith(
        "mor: errore: argomento --size: la finestra deve essere almeno 320x200\n")


def test_a_discarded_resource_agrees_with_it_and_nothing_is_said_twice():
    """"Servitore scartato", "Moneta scartata" (not "Servitore: scartata"); no Italian sentence says
    "ancora" twice ("Manca ancora: ancora 1 carta blu") nor "a" before a name ("tocca a Ada")."""
    import re

    from babel.messages.pofile import read_po

    from game.client.words import discarded
    from game.i18n.catalogues import po_path
    i18n.use("it")
    try:
        assert [discarded(r) for r in ("Coin", "Servant", "Shield", "Stone")] == [
            "Moneta scartata", "Servitore scartato", "Scudo scartato", "Pietra scartata"]
    finally:
        i18n.use("en")
    with open(po_path("it"), "rb") as f:
        said = [s for m in read_po(f) if m.id for s in (m.string if isinstance(m.string, tuple) else (m.string,))]
    assert not [s for s in said if s.lower().count("ancora") > 1]
    assert not [s for s in said if re.search(r"\ba \{(name|next|player)\}", s)]
