"""The text client says what the session tells (game.client.notices) once, after the log's new
lines: a refusal, a lost connection, a failed reconnection, the waiting room's refusal, the
player's turn. It resets no flag of the session's: the session's state stays as it is."""
from __future__ import annotations

from support.table import Feed

from game.client.flow.presence import away_words
from game.client.games import default_config
from game.client.session import GameSession
from game.client.words import NICKNAME_ERRORS
from game.rules.engine import Game
from game.rules.views import player_view
from game.text.play import GameShell

CFG = default_config()


def shell_over(feed: Feed) -> tuple[GameShell, GameSession, list[str]]:
    session = GameSession(feed, CFG, "Ada")
    said: list[str] = []
    return GameShell(session, said.append), session, said


def test_the_waiting_rooms_refusal_is_said_once():
    feed = Feed("Ada", [{"type": "UpdateBookedSeats", "bookedSeats": 1, "canPrepareNewGame": "Ada"}])
    shell, session, said = shell_over(feed)
    shell.follow()
    feed.out = [{"type": "ErrNickname", "reason": "TAKEN"}]
    shell.follow()
    shell.follow()
    assert said.count(NICKNAME_ERRORS["TAKEN"]) == 1
    assert session.lobby.error == NICKNAME_ERRORS["TAKEN"]      # still there for who shows it


def test_a_refusal_a_lost_connection_and_a_failed_return_are_said_once_each_in_order():
    view = {**player_view(Game.new(CFG, ["Ada", "Bruno"], 3), "Ada"), "isSetupDone": True, "currentPlayer": "Bruno"}
    feed = Feed("Ada", [view])
    shell, session, said = shell_over(feed)
    shell.follow()
    feed.out = [{"type": "UpdateChat", "player": "Bruno", "text": "hi"}, {"type": "ErrProtocol", "msg": "what?"},
                {"type": "ConnectionLost"}, {"type": "ReconnectFailed", "reason": "the seat was given away"}]
    n = len(said)
    shell.follow()
    shell.follow()
    new = said[n:]
    assert new[0] == "Chat: Bruno: hi"
    assert new[1] == session.error and new[1]
    assert new[2].startswith("The connection to the server was lost")
    assert new[3] == "Could not get back to the game: the seat was given away. Say leave to go back to the menu."
    assert len(new) == 4
    assert session.error and session.connection_lost and session.reconnect_failed   # the session's state, unreset


def test_the_turn_is_said_once_when_it_comes():
    view = {**player_view(Game.new(CFG, ["Ada", "Bruno"], 3), "Ada"), "isSetupDone": True, "currentPlayer": "Bruno"}
    feed = Feed("Ada", [view])
    shell, session, said = shell_over(feed)
    shell.follow()
    feed.out = [{**view, "currentPlayer": "Ada"}]      # the whole game again (a resync): the turn is Ada's now
    shell.follow()
    shell.follow()
    assert sum(line.startswith("Your turn.") for line in said) == 1


def test_who_is_away_is_said_from_the_notice_each_time_it_comes():
    """The away line comes from the session's PlayerAway notice (it polled ``session.away``): each
    notice is said once, a new grace again; one away before the game was opened here is said too."""
    view = {**player_view(Game.new(CFG, ["Ada", "Bruno", "Cy"], 3), "Ada"), "isSetupDone": True,
            "currentPlayer": "Bruno"}
    away = {"type": "UpdatePlayerAway", "player": "Cy", "seconds": 20}
    feed = Feed("Ada", [view, away])
    session = GameSession(feed, CFG, "Ada")
    session.pump()                                     # (as seating does, before the game is opened here)
    said: list[str] = []
    shell = GameShell(session, said.append)
    shell.follow()
    assert [line for line in said if "is away" in line] == [away_words("Cy", 20)]
    feed.out = [{"type": "UpdatePlayerAway", "player": "Bruno", "seconds": 30}]
    shell.follow()
    shell.follow()
    feed.out = [{"type": "UpdatePlayerAway", "player": "Bruno", "seconds": 30}]   # away again: a new grace
    shell.follow()
    assert [line for line in said if "is away" in line] == [away_words("Cy", 20), away_words("Bruno", 30),
                                                            away_words("Bruno", 30)]
    feed.out = [{"type": "UpdatePlayerAway", "player": "Ada", "seconds": 30}]     # never oneself
    shell.follow()
    assert sum("is away" in line for line in said) == 3
