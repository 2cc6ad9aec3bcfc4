"""A remote game in the client's session: seats survive an app restart, a hosted game is played
to the end by two clients over loopback, unreadable updates are skipped, chat is not repeated on a
rejoin, and a player who comes back reads what happened."""
from __future__ import annotations

import json
import random
import time

import pytest

from game.match import RemoteMatch
from game.netcode.server import Server
from game.netcode.server_options import ServerOptions
from game.rules import default_config
from game.rules.playout import choose
from game.rules.shadow import shadow_game
from game.rules.views import player_view
from game.client.session import GameSession
from support.remote import solo_session, table_of_two
from support.table import Feed
from support.wait import pump_until

CFG = default_config()


@pytest.mark.timeout(60)
def test_the_seat_token_survives_an_app_restart(server, tmp_path):
    tokens = tmp_path / "seats.json"
    first = solo_session(server, "Bea", tokens)
    first.match.conn.close()                          # the app dies without saying goodbye
    host, port = server.address
    again = GameSession(RemoteMatch(host, port, "Bea", token_file=tokens), CFG, "Bea")
    pump_until(again, lambda: again.vm.has_game)
    assert again.vm.game["players"][0]["nickname"] == "Bea"
    # without the saved token the seat is refused
    other = GameSession(RemoteMatch(host, port, "Bea", token_file=tmp_path / "empty.json"), CFG, "Bea")
    pump_until(other, lambda: other.lobby.error is not None)
    assert "already playing" in other.lobby.error


@pytest.mark.timeout(120)
def test_a_hosted_game_is_played_to_the_end_by_two_clients(server, tmp_path):
    a, b = table_of_two(server, tmp_path)
    rng = random.Random(5)
    sessions = {"Ada": a, "Bruno": b}
    for _ in range(3000):
        for s in sessions.values():
            s.pump()
        if a.vm.game["ended"] and b.vm.game["ended"]:
            break
        for nick, s in sessions.items():
            g = s.vm.game
            if g["ended"]:
                continue
            acting = (not g["isSetupDone"] and s.stage() in ("leaders", "resources")) or s.vm.my_turn
            if acting:
                shadow = shadow_game(g, CFG, nick)
                request = choose(shadow, nick, rng)
                if request is not None:
                    n, stage = len(s.log), s.stage()
                    s.send(request)
                    if stage in ("leaders", "resources"):   # both choose at once: the other's lines
                        pump_until(s, lambda: s.stage() != stage or s.error is not None)   # are not mine
                    else:
                        pump_until(s, lambda: len(s.log) > n or s.error is not None)
                    assert s.error is None, f"{nick}: {request!r} refused: {s.error}"
        time.sleep(0.002)
    assert a.vm.game["ended"] and b.vm.game["ended"]
    assert a.vm.game.get("winnerPlayer") == b.vm.game.get("winnerPlayer")
    assert a.vm.game.get("winnerPlayer") in ("Ada", "Bruno")


@pytest.mark.timeout(60)
@pytest.mark.logs_errors("cannot apply")
def test_an_update_the_client_cannot_read_is_skipped_and_the_whole_game_fetched_again(server, tmp_path):
    from game.client.session import UNREADABLE
    session = solo_session(server, "Vera", tmp_path / "seats.json")
    match = session.match
    old_conn = match.conn
    # a server that breaks the protocol: an update without the fields it must carry
    match._extra.append({"type": "UpdateMarket"})
    match._extra.append({"type": "UpdateBookedSeats", "bookedSeats": "many"})
    session.pump()                                    # nothing escapes the frame
    assert session.error == UNREADABLE
    pump_until(session, lambda: match.conn is not old_conn and not session.connection_lost)
    room = server.room_of("Vera")
    assert session.vm.game == player_view(room.game, "Vera")   # the board is whole again
    assert server.room_of("Vera") is room                     # the same seat, the same game


@pytest.mark.logs_errors("cannot apply")
def test_a_local_match_with_an_unreadable_message_goes_on():
    from game.client.session import UNREADABLE

    session = GameSession(Feed("Ada", [{"type": "UpdateBookedSeats"}, {"type": "UpdateJoinGame", "playersCount": 2}]),
                          CFG, "Ada")
    assert len(session.pump()) == 2
    assert session.error == UNREADABLE and session.lobby.players_count == 2


@pytest.mark.timeout(60)
@pytest.mark.parametrize("compat", [True, False])
def test_without_a_token_the_seat_is_asked_back_by_nickname(tmp_path, compat):
    """As on a server that gives no token (the reference's): a nickname rejoin, which only a server
    that allows it (``compat_rejoin``) grants; ours otherwise says so, and the client tells."""
    srv = Server(CFG, ServerOptions(host="127.0.0.1", port=0, data_dir=tmp_path / "srv", heartbeat=5, seed=3,
                                    compat_rejoin=compat))
    srv.start()
    try:
        session = solo_session(srv, "Nomi", tmp_path / "seats.json")
        session.match.token = None                    # as if the server had never given one
        session.match.conn._sock.shutdown(2)
        if compat:
            pump_until(session, lambda: not session.connection_lost and session.vm.has_game
                       and session.match.conn is not None and "Reconnected" in " ".join(session.log))
            room = srv.room_of("Nomi")
            # (a client that joins without a token is a reference client: no extension it never asked for)
            pump_until(session, lambda: session.vm.game == room.view("Nomi") != player_view(room.game, "Nomi"))
        else:
            pump_until(session, lambda: session.reconnect_failed is not None)
    finally:
        srv.stop()


@pytest.mark.timeout(60)
def test_two_clients_at_one_table_talk_to_each_other(server, tmp_path):
    from game.client.session import ChatLine
    a, b = table_of_two(server, tmp_path)
    assert a.can_chat and b.can_chat
    a.chat("  Buona   fortuna!  ")
    for s in (a, b):
        pump_until(s, lambda s=s: any(isinstance(line, ChatLine) for line in s.log))
        (line,) = [x for x in s.log if isinstance(x, ChatLine)]
        assert line.speaker == "Ada" and line == "Ada: Buona fortuna!"


def test_a_rejoin_does_not_repeat_the_chat_already_shown():
    from game.client.session import ChatLine
    from game.rules.engine import Game
    game = Game.new(CFG, ["Ada", "Bruno"], 3)
    view = player_view(game, "Ada")

    def said(who, text):
        return {"type": "UpdateChat", "player": who, "text": text}

    feed = Feed("Ada", [view, said("Ada", "hi"), said("Bruno", "hello")])
    session = GameSession(feed, CFG, "Ada")
    session.pump()
    # the connection dropped and came back: the game, the table's recent lines, then a new one
    feed.say({"type": "Reconnected"}, view, said("Ada", "hi"), said("Bruno", "hello"), said("Bruno", "welcome back"))
    session.pump()
    chat = [str(x) for x in session.log if isinstance(x, ChatLine)]
    assert chat == ["Ada: hi", "Bruno: hello", "Bruno: welcome back"]


@pytest.mark.timeout(60)
def test_after_a_finished_game_joining_again_means_a_new_game(server, tmp_path):
    tokens = tmp_path / "seats.json"
    session = solo_session(server, "Fin", tokens)
    rng = random.Random(2)
    for _ in range(2000):
        g = session.vm.game
        if g["ended"]:
            break
        request = choose(shadow_game(g, CFG, "Fin"), "Fin", rng)
        n = session.version
        session.send(request)
        pump_until(session, lambda: session.version > n)
    assert session.vm.game["ended"] and session.match.game_over
    session.close()
    assert set(json.loads(tokens.read_text()).values()) == {""}     # the seat is forgotten
    host, port = server.address
    again = GameSession(RemoteMatch(host, port, "Fin", token_file=tokens), CFG, "Fin")
    pump_until(again, lambda: again.lobby.head == "Fin")
    assert not again.vm.has_game
    again.close()


@pytest.mark.timeout(60)
def test_the_client_comes_back_after_the_server_restarts(tmp_path):
    first = Server(CFG, ServerOptions(host="127.0.0.1", port=0, data_dir=tmp_path / "srv", heartbeat=5, seed=3))
    host, port = first.start()
    session = solo_session(first, "Rea", tmp_path / "seats.json")
    before = player_view(first.room_of("Rea").game, "Rea")
    first.stop()                                          # the host restarts its server
    pump_until(session, lambda: session.connection_lost)
    second = Server(CFG, ServerOptions(host="127.0.0.1", port=port, data_dir=tmp_path / "srv", heartbeat=5))
    second.start()
    try:
        pump_until(session, lambda: not session.connection_lost and second.room_of("Rea") is not None
                   and "Rea" in second.room_of("Rea").online, timeout=30)
        room = second.room_of("Rea")
        after = player_view(room.game, "Rea")
        for key in ("market", "devCardGrid", "resContainers", "leaderCards", "faithTrack"):
            assert after[key] == before[key], key      # the very game that was being played
        pump_until(session, lambda: session.vm.game == player_view(room.game, "Rea"))
    finally:
        second.stop()


def _play_until(session: GameSession, rng, cond, limit: int = 400) -> None:
    """``session``'s player plays the engine's random policy (their own turns only) until ``cond()``."""
    for _ in range(limit):
        if cond():
            return
        g = session.vm.game
        if g["ended"] or g["currentPlayer"] != session.nickname:
            time.sleep(0.01)
            session.pump()
            continue
        request = choose(shadow_game(g, CFG, session.nickname), session.nickname, rng)
        n = session.version
        session.send(request)
        pump_until(session, lambda: session.version > n)
    assert cond(), "the game did not get there"


@pytest.mark.timeout(90)
def test_a_player_who_comes_back_with_a_new_client_reads_the_log_and_their_skipped_turns(server, tmp_path):
    from game.rules.actions import ReqChooseLeaders, ReqChooseResources
    from game.client.session import ChatLine, Note
    a, b = table_of_two(server, tmp_path)
    for s in (a, b):          # setup through the engine's own requests
        s.send(ReqChooseLeaders(tuple(s.vm.me["leadersHand"][:2])))
        pump_until(s, lambda s=s: s.vm.me["setup"]["hasChosenLeaders"])
    for s in (a, b):
        if not s.vm.me["setup"]["hasChosenResources"]:
            shelf = s.vm.me["warehouseShelves"][2]
            s.send(ReqChooseResources({shelf: {"Coin": s.vm.me["setup"].get("chosenResourcesCount", 1)}}))
    for s in (a, b):
        pump_until(s, lambda s=s: s.stage() == "board")
    rng = random.Random(4)
    turns = lambda s: sum(1 for line in s.log if "ended the turn" in line)   # noqa: E731
    while turns(a) < 4:       # two turns each
        for s in (a, b):
            pump_until(s, lambda s=s: s.vm.game["currentPlayer"] == s.nickname)
            _play_until(s, rng, lambda s=s: s.vm.game["currentPlayer"] != s.nickname or s.vm.game["ended"])
    pump_until(a, lambda: turns(a) >= 4 and a.vm.game["currentPlayer"] == "Ada")
    told_before = [str(x) for x in b.log if not isinstance(x, (ChatLine, Note))]   # as Bruno read it
    b.close()                 # Bruno leaves the table; Ada plays on, Bruno's turns are skipped
    pump_until(a, lambda: not next(p for p in a.vm.game["players"] if p["nickname"] == "Bruno").get("active", True))
    for _ in range(2):
        _play_until(a, rng, lambda: any(line.startswith("You ended the turn") for line in a.log[-1:]))
        a.log.append("(mark)")
    host, port = server.address
    back = GameSession(RemoteMatch(host, port, "Bruno", token_file=tmp_path / "b.json"), CFG, "Bruno")
    pump_until(back, lambda: back.vm.has_game and back.skipped)
    lines = [str(x) for x in back.log]
    # what happened before is there, in order, as Bruno read it (his own moves told to him: "You...")
    run = told_before[-8:]
    assert len(run) >= 6 and any(lines[i:i + len(run)] == run for i in range(len(lines))), (run, lines)
    assert not any(x.startswith("The game begins") for x in lines[1:])
    assert len(back.skipped) == 2
    assert lines[-1].startswith("While you were away, your turn was skipped twice (rounds ")
    back.close()
    a.close()
