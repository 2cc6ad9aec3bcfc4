"""Every screen of the client, registered by name (:mod:`.registry`) once, by the launcher.

This is the one module that imports every scene module; no scene module imports another: they
ask the app for a screen by name (the game's board and a replay's share their board through a
leaf, :mod:`.board_base`).
"""
from __future__ import annotations

from . import registry


def register_scenes() -> None:
    """Fill the registry (again: the same screens)."""
    from . import ask, board, game_over, help, lobby, menus, overlay, replay, setup, tables, versus
    for name, make in {
        "title": menus.TitleScene, "settings": menus.SettingsScene, "host": menus.HostScene,
        "join": menus.JoinScene, "tables": tables.TablesScene, "help": help.HelpScene, "versus": versus.VersusScene,
        "past_games": replay.PastGamesScene, "replay": replay.ReplayScene, "watch": replay.watch_finished,
        "ask": ask.AskScene, "connection": overlay.ConnectionOverlay,
        # the stages of a game (GameSession.stage)
        "lobby": lobby.LobbyScene, "leaders": setup.LeaderChoiceScene, "resources": setup.ResourceChoiceScene,
        "waiting": setup.WaitingScene, "board": board.BoardScene, "ended": game_over.GameOverScene,
    }.items():
        registry.register(name, make)
