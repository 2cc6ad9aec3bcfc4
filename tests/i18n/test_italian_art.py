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
