"""How the session names a player everywhere: a bot of a game on this machine with its level."""
from __future__ import annotations


def test_a_bot_of_a_game_on_this_machine_is_named_with_its_level():
    """The top bar's name cards and the scores name a bot with its level (a game against the
    computer knows them: its match's ``bots``)."""
    from game.client.session import GameSession
    from game.rules import default_config
    from support.table import Feed

    match = Feed("Ada")
    match.bots = {"Lucrezia (bot)": "hard"}
    s = GameSession(match, default_config(), "Ada")
    assert s.shown_name("Lucrezia (bot)") == "Lucrezia (hard)"
    assert s.shown_name("Ada") == "Ada" and s.shown_name("Cosimo (bot)") == "Cosimo (bot)"
