"""The Join page's answer to a failed knock stands whole between the fields and the buttons, in
English and in Italian, at 1024x640 and 1920x1080: the longest answers (three or four lines) were
drawn over the Nickname field and its note at 1024x640. Measured on the boxes drawn
(tests/support/fit.py), through the real frame loop."""
from __future__ import annotations

import pytest

from support.fit import Measure

from game import i18n
from game.client.join_words import CLOSED, TLS_UNREACHED
from game.i18n import _
from game.scenes.app import App
from game.scenes.catalog import register_scenes
from game.scenes.join import JoinScene

register_scenes()


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("size", [(1024, 640), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_longest_answers_to_a_join_stand_clear_of_the_fields(monkeypatch, size, lang):
    app = App(headless=True, size=size, language=lang)
    try:
        m = Measure(monkeypatch, app)
        where = "203.0.113.77:51015"
        for words in (_(CLOSED).format(where=where), _(TLS_UNREACHED).format(where=where, tls=51016)):
            scene = JoinScene(app)
            app.stack.reset(scene)
            app.frame(0.016)
            scene._fail(words)
            m.clear()
            app.frame(0.016)
            assert not m.problems(), m.problems()
            drawn = " ".join(m.said())
            assert words.split()[-1] in drawn, "the answer is drawn to its last word"
    finally:
        while app.stack.top is not None:
            app.stack.pop()
        i18n.use("en")
