"""The window's end of a game, on the board under *See the scores*, reads as two sentences in
each language: "The game is over. Ada wins." ("La partita è finita. Vince Ada."), never an
outcome with its capital after a colon ("The game is over: You win")."""
from __future__ import annotations

import re

import pytest

END = {"en": "The game is over. ", "it": "La partita è finita. "}


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_board_says_the_end_in_two_sentences(lang, monkeypatch):
    from support.drawn import Words
    from support.table import played_out, session_for

    from game import i18n
    from game.scenes.app import App
    from game.scenes.board import BoardScene
    from game.scenes.catalog import register_scenes
    register_scenes()
    app = App(headless=True, size=(1024, 640), language=lang)
    try:
        board = BoardScene(app, session_for(played_out(["Ada", "Bruno"], 4), "Ada"), final=True)
        app.stack.reset(board)
        app.frame(0.016)
        words = Words(monkeypatch)
        board._over(0.0)        # the game ended while the board was shown
        app.frame(0.016)
        app.frame(0.016)
        assert app.stack.top is board
        said = [s for s in words.seen if s.startswith(END[lang].split(".")[0]) and "\u2014" not in s]  # (the top bar's aside)
    finally:
        while app.stack.top is not None:
            app.stack.pop()
        i18n.use("en")
    assert said, f"the end is not said on the board: {words.seen}"
    assert all(re.fullmatch(re.escape(END[lang]) + r"[A-Z][^:]*\.", s) for s in said), said
