"""GameSession in parts: the table of the messages outside the game, the waiting room's table,
and the notices each front end subscribes to (heard once, nobody resetting a flag)."""
from __future__ import annotations

import gc

from support.table import Feed

from game.client.game_log import ChatLine, Note
from game.client.games import default_config
from game.client.lobby import HANDLERS as LOBBY_MESSAGES
from game.client.notices import (ConnectionLost, LobbyRefused, Notice, Notices, PlayerAway, Reconnected,
                                 ReconnectFailed, ReplayArrived, ReplayRefused, Said, ServerStopping, TurnStarted)
from game.client.session import ASIDE, GameSession
from game.client.words import NICKNAME_ERRORS, RECONNECTED, REPLAY_ERRORS
from game.match import LocalMatch
from game.rules.engine import Game
from game.rules.views import player_view

CFG = default_config()


def duo_view() -> dict:
    return player_view(Game.new(CFG, ["Ada", "Bruno"], 3), "Ada")


def heard(session: GameSession, kind: type[Notice] = Notice) -> list[Notice]:
    out: list[Notice] = []
    session.notices.subscribe(kind, out.append)
    return out


OUTSIDE = {
    "ConnectionLost": {"type": "ConnectionLost"},
    "Reconnected": {"type": "Reconnected"},
    "ReconnectFailed": {"type": "ReconnectFailed", "reason": "the seat was given away"},
    "UpdateServerStopping": {"type": "UpdateServerStopping", "reason": "HOST_STOPPED"},
    "UpdatePlayerAway": {"type": "UpdatePlayerAway", "player": "Bruno", "seconds": 30},
    "UpdateSeatClock": {"type": "UpdateSeatClock", "player": "Bruno", "code": "PLAYED_FOR", "level": "medium",
                        "missed": 1, "setup": False},
    "UpdateHistory": {"type": "UpdateHistory", "messages": [], "last": True},
    "UpdateReplay": {"type": "UpdateReplay", "replay": {"game": 1}},
    "ErrReplay": {"type": "ErrReplay", "reason": "NOT_FINISHED"},
    "UpdateChat": {"type": "UpdateChat", "player": "Bruno", "text": "hello"},
    "UpdateWatchers": {"type": "UpdateWatchers", "count": 2, "hidden": False},
    "UpdateWatcherChat": {"type": "UpdateWatcherChat", "player": "Wes", "text": "nice"},
    "UpdateWatching": {"type": "UpdateWatching", "table": "Salon", "private": False, "players": ["Ada", "Bruno"],
                       "playersCount": 2, "bots": [], "started": True, "watchers": 2},
    "ErrWatch": {"type": "ErrWatch", "reason": "FULL", "msg": "Salon has as many watchers as it takes."},
    "UpdatePlayer": {"type": "UpdatePlayer", "rating": 3, "games": 1, "place": 2, "soloBest": None},
    "ErrKey": {"type": "ErrKey", "reason": "LIMIT", "msg": "Too many new players from your address lately."},
    "UpdateRatingChange": {"type": "UpdateRatingChange", "ratings": [{"player": "Ada", "before": 0, "after": 4}]},
}


# ---------------------------------------------------------------------------- the handler tables
def test_each_message_outside_the_game_has_its_handler_and_never_reaches_the_view_model():
    assert set(ASIDE) == set(OUTSIDE)
    feed = Feed("Ada", [duo_view()])
    session = GameSession(feed, CFG, "Ada")
    session.pump()
    fed: list[dict] = []
    session.vm.feed = fed.append                 # type: ignore[method-assign]
    session.narrator.take = lambda m: fed.append(m)   # type: ignore[method-assign]
    for m in OUTSIDE.values():
        feed.out.append(m)
        session.pump()
    assert fed == []
    assert session.lobby.error is None and session.error is None


def test_the_waiting_rooms_messages_fill_the_lobby_and_its_refusals_are_its_own():
    assert set(LOBBY_MESSAGES) == {"UpdateBookedSeats", "UpdateJoinGame", "ErrNickname", "ErrTable", "ErrNewGame"}
    feed = Feed("Ada", [{"type": "UpdateBookedSeats", "bookedSeats": 2, "canPrepareNewGame": "Bruno",
                         "players": ["Bruno", "Ada"], "table": {"name": "Oak", "private": False, "code": "K7"}},
                        {"type": "UpdateJoinGame", "playersCount": 3, "bots": ["easy"]}])
    session = GameSession(feed, CFG, "Ada")
    notices = heard(session)
    session.pump()
    lobby = session.lobby
    assert (lobby.booked, lobby.head, lobby.players, lobby.table["name"]) == (2, "Bruno", ["Bruno", "Ada"], "Oak")
    assert (lobby.players_count, lobby.bots) == (3, ["easy"])
    assert session.version == 2 and notices == []
    feed.out = [{"type": "ErrNickname", "reason": "TAKEN"}, {"type": "ErrNewGame", "isInvalidPlayersCount": True}]
    session.pump()
    assert notices == [LobbyRefused(NICKNAME_ERRORS["TAKEN"]), LobbyRefused("Choose between 1 and 4 players.")]
    assert lobby.error == "Choose between 1 and 4 players." and session.error is None


def test_a_new_head_of_the_quick_game_chooses_again():
    """The head chose a game of four, then left (or let the choice lapse): the server asks the new
    head, who must be able to choose (a table keeps its size whoever hosts it)."""
    booked = {"type": "UpdateBookedSeats", "bookedSeats": 2, "canPrepareNewGame": "Bruno", "players": ["Bruno", "Ada"]}
    feed = Feed("Ada", [booked, {"type": "UpdateJoinGame", "playersCount": 4, "bots": ["easy"]},
                        {**booked, "bookedSeats": 3, "players": ["Bruno", "Ada", "Cy"]}])
    session = GameSession(feed, CFG, "Ada")
    session.pump()
    assert (session.lobby.players_count, session.lobby.bots) == (4, ["easy"])   # the same head: chosen
    feed.out = [{**booked, "canPrepareNewGame": "Ada", "players": ["Ada", "Cy", "Bruno"]}]
    session.pump()
    assert (session.lobby.head, session.lobby.players_count, session.lobby.bots) == ("Ada", None, [])
    table = {"name": "Oak", "private": False}
    feed.out = [{**booked, "table": table}, {"type": "UpdateJoinGame", "playersCount": 3},
                {**booked, "canPrepareNewGame": "Ada", "table": table}]
    session.pump()
    assert session.lobby.players_count == 3                                     # a table's new host


def test_a_refusal_of_the_game_is_said_once_and_dismissed_by_the_next_request():
    feed = Feed("Ada", [duo_view(), {"type": "ErrProtocol", "msg": "what?"}])
    session = GameSession(feed, CFG, "Ada")
    said = heard(session, Said)
    session.pump()
    session.pump()
    assert len(said) == 1 and said[0].words == session.error and session.error
    assert session.vm.errors == []
    session.end_turn()
    assert session.error is None and len(feed.sent) == 1 and len(said) == 1


def test_a_rejoin_repeats_no_chat_line_and_a_new_line_moves_the_version():
    view = duo_view()

    def line(who: str, text: str) -> dict:
        return {"type": "UpdateChat", "player": who, "text": text}

    feed = Feed("Ada", [view, line("Bruno", "hello")])
    session = GameSession(feed, CFG, "Ada")
    session.pump()
    version = session.version
    feed.out = [view, line("Bruno", "hello")]          # a rejoin: the game, then the table's recent lines
    session.pump()
    assert session.version == version + 1              # the UpdateGame only
    feed.out = [line("Bruno", "hello")]                # said again, after the rejoin's lines: a new line
    session.pump()
    assert [str(x) for x in session.log if isinstance(x, ChatLine)] == ["Bruno: hello", "Bruno: hello"]
    assert session.version == version + 2


def test_a_history_in_parts_is_told_once_merged_and_its_skipped_turns_noted():
    game = Game.new(CFG, ["Ada", "Bruno"], 3)
    view = player_view(game, "Ada")
    said = {"type": "UpdateChat", "player": "Bruno", "text": "back soon"}
    feed = Feed("Ada", [view, {"type": "UpdateHistory", "messages": [said], "last": False},
                        {"type": "UpdateHistory", "messages": [], "last": True, "skipped": [3, 4]}])
    session = GameSession(feed, CFG, "Ada")
    session.pump()
    assert [str(x) for x in session.log if isinstance(x, ChatLine)] == ["Bruno: back soon"]
    assert isinstance(session.log[-1], Note) and "skipped twice (rounds 3 and 4)" in session.log[-1]
    assert session.skipped == [3, 4]
    feed.out = [view, said]                            # the rejoin's recent line: heard already
    session.pump()
    assert sum(isinstance(x, ChatLine) for x in session.log) == 1


# ---------------------------------------------------------------------------- notices
def test_the_connection_notices_come_once_each_and_the_state_stays_readable():
    feed = Feed("Ada", [duo_view(), OUTSIDE["ConnectionLost"], OUTSIDE["ConnectionLost"]])
    session = GameSession(feed, CFG, "Ada")
    notices = heard(session)
    session.pump()
    assert notices == [ConnectionLost()] and session.connection_lost
    feed.out = [OUTSIDE["Reconnected"], OUTSIDE["ReconnectFailed"]]
    session.pump()
    assert notices[1:] == [Reconnected(), ReconnectFailed("the seat was given away", None)]
    assert not session.connection_lost and session.log[-1] == RECONNECTED
    assert session.reconnect_failed == "the seat was given away"


def test_a_server_stopping_on_purpose_and_a_player_away_are_kept_and_told():
    feed = Feed("Ada", [duo_view(), OUTSIDE["UpdatePlayerAway"], OUTSIDE["UpdateServerStopping"]])
    session = GameSession(feed, CFG, "Ada")
    notices = heard(session)
    session.pump()
    assert notices == [PlayerAway("Bruno", 30.0), ServerStopping("HOST_STOPPED")]
    assert session.away == {"Bruno": 30.0} and session.server_stopped == "HOST_STOPPED"
    feed.out = [{"type": "UpdatePlayerStatus", "player": "Bruno", "isActive": True}, OUTSIDE["Reconnected"]]
    session.pump()
    assert session.away == {} and session.server_stopped is None


def test_a_seat_clocks_news_is_worded_in_the_log_and_the_players_own_in_the_message_box():
    """The server's ``UpdateSeatClock`` is a code the client words (in the player's language):
    another's time run out goes to the log; one's own also to the message box."""
    from game.i18n import use
    mine = {"type": "UpdateSeatClock", "player": "Ada", "code": "SEAT_GIVEN", "level": "hard", "missed": 3}
    feed = Feed("Ada", [duo_view(), OUTSIDE["UpdateSeatClock"], {**mine, "code": "NEW_CODE"}])
    session = GameSession(feed, CFG, "Ada")
    said = heard(session, Said)
    session.pump()
    assert session.log[-1] == Note("Bruno's time for this turn ran out: the computer (medium) plays it for them.")
    assert said == [] and session.error is None          # (a code this version does not know: nothing)
    try:
        use("it")
        feed.out.append(mine)
        session.pump()
    finally:
        use("en")
    words = ("Il tuo tempo è scaduto per 3 turni di fila: il computer (difficile) gioca il tuo posto fino alla "
             "fine della partita.")
    assert session.log[-1] == Note(words) and said == [Said(words)]


def test_a_lost_connection_before_the_game_or_after_its_end_is_no_notice():
    session = GameSession(Feed("Ada", [OUTSIDE["ConnectionLost"]]), CFG, "Ada")
    notices = heard(session)
    session.pump()
    assert notices == [] and not session.connection_lost


def test_a_replay_arrives_or_is_refused_as_a_notice():
    session = GameSession(Feed("Ada", [OUTSIDE["UpdateReplay"], OUTSIDE["ErrReplay"]]), CFG, "Ada")
    notices = heard(session)
    session.pump()
    assert notices == [ReplayArrived({"game": 1}), ReplayRefused(REPLAY_ERRORS["NOT_FINISHED"])]


def test_the_turn_starts_once_when_it_becomes_the_players(tmp_path):
    session = GameSession(LocalMatch(CFG, "Ada", seed=11, save_path=tmp_path / "solo.json"), CFG, "Ada")
    turns = heard(session, TurnStarted)
    session.pump()
    assert turns == []                                 # the set-up: not a turn yet
    leaders = list(session.vm.me["leadersHand"])[:2]
    session.choose_leaders(leaders)
    session.pump()
    assert session.stage() == "board" and turns == [TurnStarted()]
    session.pump()
    assert turns == [TurnStarted()]
    session.close()
    view = {**duo_view(), "isSetupDone": True, "currentPlayer": "Bruno"}
    feed = Feed("Ada", [view])
    session = GameSession(feed, CFG, "Ada")
    turns = heard(session, TurnStarted)
    for who in ("Ada", "Ada", "Bruno", "Ada"):
        feed.out.append({"type": "UpdateCurrentPlayer", "player": who})
        session.pump()
    assert turns == [TurnStarted(), TurnStarted()]


def test_notices_by_kind_until_closed_or_their_listener_is_gone():
    notices = Notices()
    everything: list[Notice] = []
    said: list[str] = []
    notices.subscribe(Notice, everything.append)
    sub = notices.subscribe(Said, lambda n: said.append(n.words))

    class Scene:
        def __init__(self) -> None:
            self.turns = 0

        def turn(self, notice: TurnStarted) -> None:
            self.turns += 1

    scene = Scene()
    notices.subscribe(TurnStarted, scene.turn)
    notices.publish(Said("a"))
    notices.publish(TurnStarted())
    assert said == ["a"] and scene.turns == 1 and len(everything) == 2
    sub.close()
    sub.close()
    notices.publish(Said("b"))
    assert said == ["a"] and len(everything) == 3
    assert notices.listening(TurnStarted) == 2
    del scene
    gc.collect()
    assert notices.listening(TurnStarted) == 1        # a method of a scene that is gone: not held
    notices.publish(TurnStarted())
    assert len(everything) == 4
