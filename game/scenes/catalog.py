"""Every screen of the client, registered by name (:mod:`.registry`) once, by the launcher.

This is the one module that imports every scene module; no scene module imports another: they
ask the app for a screen by name (the game's board and a replay's share their board through a
leaf, :mod:`.board_base`). It also gives the app, by name, what it calls back (leaving a game,
asking before quitting), so that :mod:`.app` imports neither :mod:`.router` nor :mod:`.hosting`.
"""
from __future__ import annotations

from . import registry


def register_scenes() -> None:
    """Fill the registry (again: the same screens)."""
    from . import (ask, board, fetch_replay, game_over, help, host, join, leaderboard, leaders, lobby, my_games,
                   overlay, past_games, replay, resources, settings_page, tables, title, versus, waiting, watch_table)
    from .hosting import ask_before_quitting
    from .router import leave_game
    for name, make in {
        "title": title.TitleScene, "settings": settings_page.SettingsScene, "host": host.HostScene,
        "join": join.JoinScene, "tables": tables.TablesScene, "leaderboard": leaderboard.LeaderboardScene,
        "my_games": my_games.MyGamesScene, "help": help.HelpScene, "versus": versus.VersusScene,
        "past_games": past_games.PastGamesScene, "replay": replay.ReplayScene,
        "watch": fetch_replay.watch_finished,
        "watch_table": watch_table.WatchTableScene,
        "ask": ask.AskScene, "connection": overlay.ConnectionOverlay,
        # the stages of a game (GameSession.stage)
        "lobby": lobby.LobbyScene, "leaders": leaders.LeaderChoiceScene, "resources": resources.ResourceChoiceScene,
        "waiting": waiting.WaitingScene, "board": board.BoardScene, "ended": game_over.GameOverScene,
    }.items():
        registry.register(name, make)
    # what the app calls back, by name (it imports neither the router nor the hosting questions)
    registry.register_action("leave_game", leave_game)
    registry.register_action("before_quit", ask_before_quitting)
