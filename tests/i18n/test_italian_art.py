"""The art's words in the player's language: a leader card's ribbon ("Steward", "Custode"),
drawn again when the language changes (its cache knows the word)."""
from __future__ import annotations

import pygame

from game import i18n


def test_a_leader_cards_ribbon_is_drawn_in_the_players_language(monkeypatch):
    from game.client.games import sample_view
    from game.rules import default_config
    from game.scenes.art import leader_cards as L
    pygame.init()
    view = sample_view(default_config())
    leader = next(ld for ld in view["leaderCards"] if ld.get("leaderType") == "DEPOT")
    said: list[str] = []
    real = L.ribbon
    monkeypatch.setattr(L, "ribbon", lambda text, *a, **k: (said.append(text), real(text, *a, **k))[1])
    english = pygame.image.tobytes(L.leader_card(leader, view["productions"], 307), "RGBA")
    try:
        i18n.use("it")
        italian = pygame.image.tobytes(L.leader_card(leader, view["productions"], 307), "RGBA")
    finally:
        i18n.use("en")
    assert "Steward" in said and "Custode" in said, said          # (an odd height: drawn here, not cached)
    assert english != italian


def test_the_titles_fan_of_leader_cards_is_drawn_again_in_the_language_chosen(dirs):
    """The title's leader cards carry their ribbon's word from 250 px up (1920x1080): after a
    switch to Italian in Settings the title shows the fan as drawn in Italian, not the English
    one it kept for that window size."""
    from game.scenes import title
    from game.scenes.app import App
    app = App(headless=True, size=(1920, 1080), language="en")
    app.stack.push(title.TitleScene(app))
    app.frame(1 / 60)
    english = pygame.image.tobytes(app.window, "RGB")
    try:
        app.speak("it")
        app.frame(1 / 60)
        switched = pygame.image.tobytes(app.window, "RGB")
        title._TITLE_ART.clear()                          # drawn from nothing, in Italian
        app.frame(1 / 60)
        assert switched == pygame.image.tobytes(app.window, "RGB")
        assert switched != english
    finally:
        app.speak("en")
        while app.stack.top is not None:
            app.stack.pop()
