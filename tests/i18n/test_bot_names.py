"""One name per bot, everywhere (issue 29): a computer player is "Cosimo (easy)" ("Cosimo
(facile)" in Italian) wherever a player reads it, never "Cosimo (bot)" (its nickname on the
wire), "Cosimo · easy bot" nor "Cosimo (easy bot)". Both front ends are walked through games
against an easy bot, in English and in Italian: a saved game in its last round continued and
played to its end (the moves told, the scores, the final standings), then a new game from the
menu (its waiting for the others, its setup, the bot's first turn); every word they draw or print
is read."""
from __future__ import annotations

import random
import re
from pathlib import Path

import orjson
import pytest

from game.bots.driver import BOT_NAMES
from game.i18n import translations
from game.match.bots import BOTS_FORMAT
from game.rules import Game, codec, default_config
from game.rules.playout import steps

LEVEL = {"en": "easy", "it": "facile"}
"""An easy bot's level, as each language says it after the bot's name."""
GIVEN = [n for n in BOT_NAMES if n != "Lorenzo de' Medici"]      # (never given: Lorenzo il Magnifico is Lorenzo)
WRONG = re.compile(r"\(bot\)|\(easy bot\)|\(bot facile\)|\u00b7 (easy )?bot|easy bot\b|bot facile\b")
"""The forms a named bot took before (a seat not yet named is "an easy bot": never after a name)."""
VICTORY = re.compile(r"[Pp]unti Vittoria")
"""Victory points in Italian (a bot may be called Vittoria)."""


def misnamed(texts: list[str], lang: str) -> list[str]:
    """The texts that name a bot otherwise than "Cosimo (easy)"."""
    one = LEVEL[lang]
    bad = []
    for said in texts:
        text = VICTORY.sub("", said)
        for name in GIVEN:
            if any(not text.startswith(f"{name} ({one})", m.start()) for m in re.finditer(re.escape(name), text)):
                bad.append(said)
        if any(name in text for name in GIVEN) and WRONG.search(text):
            bad.append(said)
    return sorted(set(bad))


def named(texts: list[str], lang: str) -> bool:
    return any(f"{name} ({LEVEL[lang]})" in t for t in texts for name in GIVEN)


def save_near_the_end(data: Path) -> None:
    """A game against one easy bot ("Cosimo (bot)", who plays first) saved in its last round,
    the player Ada to play its last turn."""
    nicks = ["Ada", "Cosimo (bot)"]
    for seed in range(1, 40):
        g = Game.new(default_config(), nicks, seed)
        for nick, action in steps(g, random.Random(seed)):
            g.apply(nick, action)
            if g.last_round and not g.ended and g.phase == "play" and g.current_player.nickname == "Ada" \
                    and not g.main_done:
                data.mkdir(parents=True, exist_ok=True)
                (data / "bots-game.json").write_bytes(orjson.dumps(
                    {"format": BOTS_FORMAT, "player": "Ada", "bots": {"Cosimo (bot)": "easy"},
                     "game": codec.game_record(g)}))
                return
    raise AssertionError("no seed gave a game in its last round")


def test_the_checker_sees_every_other_form():
    assert misnamed(["Cosimo (bot) took row 1.", "Cosimo · easy bot", "Lucrezia (easy bot) wins",
                     "Turno di Cosimo · bot facile", "Cosimo's turn", "Cosimo (facile)"], "en") == sorted(
        ["Cosimo (bot) took row 1.", "Cosimo · easy bot", "Lucrezia (easy bot) wins", "Turno di Cosimo · bot facile",
         "Cosimo's turn", "Cosimo (facile)"])
    assert not misnamed(["Cosimo (easy) took row 1.", "It is Lucrezia (easy)'s turn", "2 easy bots"], "en")
    assert misnamed(["Cosimo (easy)"], "it") == ["Cosimo (easy)"]


# ---------------------------------------------------------------------------- the text client
@pytest.mark.timeout(90)
@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_text_client_names_a_bot_one_way(lang, dirs):
    from support.pty import PtyProgram
    t = translations(lang).gettext if lang != "en" else str

    def head(message: str) -> str:      # a message's words before its first field
        return t(message).split("{")[0]
    save_near_the_end(dirs / "data")
    p = PtyProgram(["--plain", "--name", "Ada", "--lang", lang, "--bot-pace", "0"], seed=1)
    try:
        line = p.expect(head("Continue the saved game against {names}."), timeout=20)
        assert named([line], lang), line                  # the menu says who the saved game is against
        p.send(line.split(".")[0])
        p.expect(t("The game against the computer, where you left it."))
        p.send("score", "track", "turn", "board cosimo", "leaders", "take row 1", "", "end", "")
        p.expect(head("The game is over. {head}. {why}"), timeout=20)
        p.send("score", "log 8", "board cos")
        p.expect(head("The board of {name}"))
        p.send("leave")
        p.expect(t("Main menu. Say the number of your choice:"))
        p.send("2")
        p.expect(head("How many computer players, and how strong? Say a number from 1 to 3 and a level "
                      "(easy, medium or hard), for example 2 medium; or say menu to go back:"))
        p.send(f"1 {LEVEL[lang]}")              # (a level in the player's words)
        p.expect(head("Choose the {keep} leaders you keep, of these {n} (say keep and their numbers, for example "
                      "keep 1 3):"))
        p.send("keep 1 2", "", "resources Coin", "")
        p.expect(head("The game is on: you play against {against}.{turns} Ask market, grid, board, leaders or help "
                      "at any time."), timeout=20)
        p.send("score", "turn", "track")
        p.expect(head("Markers: {marks}."))
        p.send("leave")
        p.expect(t("Main menu. Say the number of your choice:"))
        p.send("quit")
        p.expect(t("Goodbye."))
        assert p.wait() == 0
    finally:
        p.kill()
    typed = set(p.sent)
    said = [line for line in p.lines if line.strip() not in typed]
    assert named(said, lang)
    bad = misnamed(said, lang)
    assert not bad, "a bot named otherwise:\n" + "\n".join(bad)


# ---------------------------------------------------------------------------- the window
@pytest.mark.timeout(120)
@pytest.mark.seed(1)
@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_window_names_a_bot_one_way(lang, dirs, monkeypatch):
    import pygame_gui
    from support.drawn import Words
    from support.wait import frames_until
    from walk import close, start

    from game.client import board_input as BI
    from game.scenes.board import BoardScene
    from game.scenes.game_over import GameOverScene
    from game.settings import BOT_PACES
    monkeypatch.setitem(BOT_PACES, "normal", 0.0)
    save_near_the_end(dirs / "data")
    walk = start((1024, 640), nickname="Ada", language=lang)
    app = walk.app
    words = Words(monkeypatch, tracked=True)
    seen: list[str] = []

    def look() -> None:
        """What the page shows besides what it draws itself: its buttons, the window's title."""
        seen.extend(str(el.text) for el in app.stack.top.ui.get_sprite_group().sprites()
                    if isinstance(el, pygame_gui.elements.UIButton) and el.visible)
        seen.append(app.caption)

    def press(name: str) -> None:
        look()
        walk.click(app.stack.top.widgets[name].rect.center)

    def my_turn(session) -> None:
        """A market line taken as placed by the board, then the turn ended."""
        board = app.stack.top
        frames_until(app, lambda: session.vm.my_turn, timeout=30)
        walk.click(next(h.rect.center for h in board.hits if h.target == BI.Line(True, 0)))
        walk.click(board.buttons["confirm"].rect.center)
        if board.confirm_dialog is not None:
            walk.click(board.confirm_dialog.confirm_button.rect.center)
        frames_until(app, lambda: session.vm.game["isMandatoryActionDone"])
        look()
        walk.click(board.buttons["end"].rect.center)

    try:
        press("versus")                       # the saved game, in its last round: played to its end
        press("continue")
        frames_until(app, lambda: isinstance(app.stack.top, BoardScene), timeout=30)
        session = app.stack.top.session
        walk.frames(3)
        my_turn(session)
        frames_until(app, lambda: isinstance(app.stack.top, GameOverScene)
                     or app.stack.top.over_for is not None, timeout=30)
        if not isinstance(app.stack.top, GameOverScene):   # the end, seen on the board first
            look()
            walk.click(app.stack.top.buttons["scores"].rect.center)
        walk.until_scene("GameOverScene")
        walk.frames(3)
        ended = list(words.seen)
        press("title")                        # a new game against an easy bot, from the title
        walk.until_scene("TitleScene")
        press("versus")
        press("count_1")
        press("level_0_easy")
        press("start")
        walk.until_scene("LeaderChoiceScene")
        session = app.stack.top.session
        leaders = app.stack.top
        for rect in leaders.card_rects[:2]:
            walk.click(rect.center)
        press("confirm")
        frames_until(app, lambda: app.stack.top is not leaders)
        walk.frames(3)
        if app.stack.top.__class__.__name__ == "ResourceChoiceScene":
            res = app.stack.top
            kind = next(iter(res.token_rects))
            for _ in range(res.count):
                walk.click(res.token_rects[kind].center)
            press(f"shelf_{kind}_{res.valid_shelves(kind)[-1]}")
            press("confirm")
        frames_until(app, lambda: isinstance(app.stack.top, BoardScene), timeout=30)
        my_turn(session)                      # a turn each: the bot's told
        frames_until(app, lambda: session.vm.my_turn, timeout=30)
        walk.frames(3)
        look()
    finally:
        close(app)
    seen += words.seen
    assert named(ended, lang), "the final standings name the bot"
    assert named(seen, lang)
    bad = misnamed(seen, lang)
    assert not bad, "a bot named otherwise:\n" + "\n".join(bad)


# ---------------------------------------------------------------------------- a watcher
@pytest.mark.timeout(60)
def test_a_watched_game_names_its_bot_one_way(server, tmp_path):
    """The games being played, listed to watch, and the game watched name a bot as its players
    do (the list's rows carry the bots' levels, as the game's UpdateGame does)."""
    from support.pty import PtyProgram
    from support.wait import pump_until, until

    from game.client.tables import Seating
    host, port = server.address
    seat = Seating(host, port, "Ada", default_config(), token_file=tmp_path / "ada.json", create="Salon",
                   players=2, private=False, bots=["easy"], bot_pace=0.0)
    until(lambda: seat.poll() in ("seated", "failed"), what="Ada's seat")
    assert seat.state == "seated", seat.error
    ada = seat.session
    pump_until(ada, lambda: ada.vm.has_game)
    p = PtyProgram(["--plain", "--name", "Wes"], seed=1)
    try:
        join = p.expect("Join a game on the network", timeout=20)
        p.send(join.split(".")[0], f"tables {host}:{port}")
        p.expect("Games being played, to watch")
        listed = p.expect("1. Salon")
        p.send("watch 1")
        p.expect("You watch Salon")
        p.expect("1 person watches this game.")
        p.send("leave")
        p.expect("You stopped watching.")
        p.send("menu", "quit")
        p.expect("Goodbye.")
    finally:
        p.kill()
        ada.close()
    said = [line for line in p.lines if line.strip() not in set(p.sent)]
    assert named([listed], "en"), listed
    assert not misnamed(said, "en"), "a bot named otherwise:\n" + "\n".join(misnamed(said, "en"))


# ---------------------------------------------------------------------------- My games
@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang", ["en", "it"])
def test_my_games_names_a_bot_one_way(lang, tls_server, tmp_path):
    """My games (both front ends draw its lines) names a bot as its game does: the server's rows
    carry the bots' levels, as its UpdateGame does."""
    from game.client import tables as T
    from game.client.my_games import my_games
    from game.client.session import GameSession
    from game.i18n import use
    from support.wait import pump_until

    host, port = tls_server.address
    tls = tls_server.tls_address[1]
    ada = GameSession(T.join(host, port, "Ada", create="Salon", players=2, bots=("easy",), bot_pace=0.0,
                             move_time=86400, token_file=tmp_path / "ada" / "seats.json", tls_port=tls),
                      default_config(), "Ada")
    try:
        pump_until(ada, lambda: ada.vm.has_game)
        use(lang)
        lines = [g.line for g in my_games(host, port, tls_port=tls, folder=tmp_path / "ada").games]
    finally:
        ada.close()
    assert len(lines) == 1 and named(lines, lang), lines
    assert not misnamed(lines, lang), lines


def test_a_watcher_hears_who_plays_once_the_game_and_its_bots_levels_are_there(monkeypatch):
    """The line naming a watched game's players waits for the game: the table's watching state
    may come first, and the bots' levels come with the game (a clean-clone run said "Giuliano
    (bot)" to a watcher, the race this test makes certain)."""
    from types import SimpleNamespace

    from game.client.words import player_name
    from game.text import watch
    monkeypatch.setattr(watch, "WatchNews", lambda session, say: SimpleNamespace(tell=lambda: None))
    levels: dict[str, str] = {}
    session = SimpleNamespace(
        pump=lambda: [], vm=SimpleNamespace(has_game=False),
        watchers=SimpleNamespace(players=("Ada", "Giuliano (bot)"), started=True, closed=False, table="Salon",
                                 seats=2, count=1),
        shown_name=lambda nick: player_name(nick, levels))
    said: list[str] = []
    reader = watch.WatchReader(session, said.append)
    reader.follow()
    assert said == []                                  # the game (and Giuliano's level) not here yet
    session.vm.has_game, levels["Giuliano (bot)"] = True, "easy"
    reader.follow()
    reader.follow()
    assert said == ["You watch Salon: Ada and Giuliano (easy) play. Say help for what you may do."]
