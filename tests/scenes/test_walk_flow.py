"""The app's flow in the window, walked like a player (the real ``App`` frame loop, posted events
only, tools/walk.py): every seat kept at a server is offered from the title; a seat asked at a
server that keeps one for that name says so first (back to that game, or another name); leaving a
waiting room reached from a server's tables goes back to those tables."""
from __future__ import annotations

import time
from pathlib import Path

import orjson
import pytest

from walk import Walk, close, free_port, start

from game.client.games import default_config
from game.scenes.backdrop import OXBLOOD
from game.client.session import GameSession
from game.match import RemoteMatch
from game.match.seats import remember_unfinished
from game.netcode.server import Server
from game.netcode.server_options import ServerOptions

pytestmark = [pytest.mark.timeout(120), pytest.mark.seed(1)]   # (seed: the deal of every game started here)
GAME = ("LeaderChoiceScene", "ResourceChoiceScene", "WaitingScene", "BoardScene")


@pytest.fixture
def server(tmp_path):
    srv = Server(default_config(), ServerOptions(host="127.0.0.1", port=0, data_dir=tmp_path / "srv", seed=3,
                                                 announce=False))
    srv.start()
    yield srv
    srv.stop()


def _answers(walk: Walk) -> list[str]:
    top = walk.app.stack.top
    assert walk.scene == "AskScene", walk.scene
    return [label for _key, label, _tip in top.answers]


def test_the_title_offers_every_seat_kept_at_a_server(tmp_path):
    """QA: after sitting at a table on a second server, the seat at the first disappeared from the
    title (both were still kept)."""
    first, second = free_port(), free_port()       # nobody answers there: the Join page says so
    data = tmp_path / "data"
    for at, port, nick in ((100, first, "Ada"), (200, second, "Ada 2")):
        remember_unfinished(data / "unfinished-games.json", f"127.0.0.1:{port}/{nick}",
                            {"host": "127.0.0.1", "port": port, "nickname": nick, "players": [nick, "Bea"], "at": at})
    walk = start(nickname="Ada")
    try:
        walk.press("Return to a game on a server (2)")
        assert _answers(walk) == [f"Your game at 127.0.0.1:{second}, as Ada 2, with Bea",
                                  f"Your game at 127.0.0.1:{first}, as Ada, with Bea", "Cancel"]
        walk.press(f"Your game at 127.0.0.1:{first}")          # the older one, still offered
        walk.until_scene("JoinScene")
        join = walk.app.stack.top
        assert join.draft == {"address": f"127.0.0.1:{first}", "nickname": "Ada"}
        walk.until(lambda: join.busy is None, 15, "the answer")
        assert "127.0.0.1" in (join.error or ""), join.error
    finally:
        close(walk.app)


def _kept_seat(server, data: Path, nick: str = "Ada", host_name: str = "") -> None:
    """``nick`` sits in a game at ``server`` (against a bot) from this computer, and closes it: the
    seat is kept there, and remembered here (``host_name``: the host, as the network's list named
    them when the seat was taken)."""
    match = RemoteMatch("127.0.0.1", server.address[1], nick, token_file=data / "seats.json")
    match.host_name, match.table_name = host_name, f"{host_name}'s table" if host_name else ""
    session = GameSession(match, default_config(), nick)
    end = time.monotonic() + 10
    asked = False
    while not session.vm.has_game:
        assert time.monotonic() < end, "no game"
        session.pump()
        if not asked and session.lobby.booked:
            match.new_game(2, ["easy"])
            asked = True
        time.sleep(0.01)
    end = time.monotonic() + 5
    while not (data / "unfinished-games.json").exists():
        assert time.monotonic() < end, "not remembered"
        session.pump()
        time.sleep(0.01)
    session.close()


def test_a_quick_game_where_a_seat_is_kept_asks_first(server, tmp_path):
    """QA: Quick game (and Join, and Open the table) at a server where the player has an
    unfinished seat put them back in the old game without a word."""
    _kept_seat(server, tmp_path / "data")
    port = server.address[1]
    walk = start(nickname="Ada")
    try:
        walk.press("Return to your game at")
        walk.until(lambda: walk.scene in GAME, 15, "the old game")
        walk.press("Leave")
        walk.until_scene("TitleScene")
        walk.fill_join_page(port, "Ada")
        walk.press("Tables")
        walk.until_scene("TablesScene")
        walk.press("Quick game")
        assert walk.scene == "AskScene" and walk.app.stack.top.title == "You have a game at this server"
        assert "takes you back to that game" in walk.app.stack.top.text
        assert _answers(walk) == ["Back to that game", "Play as Ada 2", "Cancel"]
        walk.press("Cancel")                                  # nothing asked of the server
        assert walk.scene == "TablesScene" and walk.app.stack.top.seating is None
        walk.press("Open the table")
        assert walk.scene == "AskScene" and "the new table" in walk.app.stack.top.text
        walk.press("Back to that game")
        walk.until(lambda: walk.scene in GAME, 15, "the old game")   # the old game, chosen
        _says_nothing_of_why(walk)
        walk.press("Leave")
        walk.until_scene("TitleScene")
        walk.fill_join_page(port, "Ada")
        walk.press("Join")
        assert walk.scene == "AskScene" and "the Quick game" in walk.app.stack.top.text
        walk.press("Back to that game")
        walk.until(lambda: walk.scene in GAME, 15, "the old game")
        _says_nothing_of_why(walk)      # QA: it said "rather than the Quick game", though chosen
        walk.press("Leave")
        walk.until_scene("TitleScene")
        walk.fill_join_page(port, "Ada")
        walk.press("Join")
        walk.press("Play as Ada 2")
        walk.until_scene("LobbyScene", 15)
        assert walk.app.stack.top.session.nickname == "Ada 2"
    finally:
        close(walk.app)


def _says_nothing_of_why(walk: Walk) -> None:
    """The player chose to go back to the kept game: no word of why they sit there."""
    notice = walk.app.notice
    assert notice is None or "rather than" not in notice.words, notice.words
    assert not any("rather than" in str(line) for line in walk.app.stack.top.session.log)


def _says_why_seated(walk: Walk, where: str, asked: str) -> None:
    """Once seated back at the kept game, the window says why, as the text client does, on the
    first frame of the page it lands on (whichever it is), and in the game's log."""
    why = (f"You are back at your unfinished game at {where}: the server keeps your seat until it ends, "
           f"so it gave you that one rather than {asked}.")
    notice = walk.app.notice
    assert notice is not None and notice.words == why, notice
    assert notice.rect is not None and walk.app.window.get_rect().contains(notice.rect)   # drawn
    first = walk.firsts[-1][1]                        # the page's first frame: the strip's rule on it
    assert tuple(first.get_at((notice.rect.centerx, notice.rect.y)))[:3] == OXBLOOD
    assert why in [str(line) for line in walk.app.stack.top.session.log]


def test_a_seat_given_back_unasked_says_why(server, tmp_path):
    """A seat token kept here, its game not remembered (nothing to ask about): the server gives the
    seat back rather than the Quick game asked for, and the page says why."""
    data = tmp_path / "data"
    _kept_seat(server, data)
    (data / "unfinished-games.json").unlink()
    port = server.address[1]
    walk = start(nickname="Ada")
    try:
        walk.fill_join_page(port, "Ada")
        walk.press("Join")
        walk.until(lambda: walk.scene in GAME, 15, "the old game")
        _says_why_seated(walk, f"127.0.0.1:{port}", "the Quick game")
    finally:
        close(walk.app)


def test_a_seat_taken_back_from_the_title_names_the_host_who_stops(server, tmp_path):
    """QA: a seat taken from the title's list of kept seats said "The host stopped hosting the
    game": the host's name is kept with the seat, and said."""
    _kept_seat(server, tmp_path / "data", "Bea", host_name="Ada")
    walk = start(nickname="Bea")
    try:
        walk.press("Return to your game at")
        walk.until(lambda: walk.scene in GAME, 15, "the old game")
        server.stop()                                    # what Ada's Stop hosting does
        walk.until_scene("ConnectionOverlay", 15)
        walk.until(lambda: walk.app.stack.top.session.server_stopped, 10, "stopped on purpose")
        assert walk.app.stack.top.heading == "Ada stopped hosting the game"
    finally:
        close(walk.app)


def test_leave_in_a_waiting_room_goes_back_to_the_tables(server):
    """QA: Leave in a server's waiting room, reached from its Tables page, went to the title."""
    walk = start(nickname="Cy")
    try:
        walk.fill_join_page(server.address[1], "Cy")
        walk.press("Tables")
        walk.until_scene("TablesScene")
        walk.press("Quick game")
        walk.until_scene("LobbyScene", 15)
        walk.press("Leave")
        walk.until_scene("TablesScene")
        walk.press("Back")
        walk.until_scene("JoinScene")
        assert walk.app.stack.top.draft["address"] == f"127.0.0.1:{server.address[1]}"
        walk.press("Back")
        walk.until_scene("TitleScene")
    finally:
        close(walk.app)


def test_a_new_game_against_the_computer_over_a_saved_one_asks_the_flows_question(tmp_path, monkeypatch):
    """The window asked its own way (a second press of Start, "Replace it"), the text client the
    flow's question: both now put the one question, with the same words and answers."""
    from game.client.flow.local import new_versus_question
    from game.match import BotMatch
    monkeypatch.setenv("MOR_SEED", "5")
    path = tmp_path / "data" / "bots-game.json"
    BotMatch(default_config(), "Ada", ["easy", "hard"], seed=5, save_path=path, pace=0, processes=False).close()
    saved = path.read_bytes()
    question = new_versus_question(default_config(), path)
    walk = start(nickname="Ada")
    try:
        walk.press("Play against the computer")
        walk.until_scene("VersusScene")
        walk.press("Start")
        assert walk.scene == "AskScene"
        ask = walk.app.stack.top
        assert (ask.title, ask.text) == (question.title, question.text)
        assert _answers(walk) == ["Continue it", "New game, lose it", "Cancel"]
        walk.press("Cancel")
        assert walk.scene == "VersusScene" and path.read_bytes() == saved      # nothing replaced
        walk.press("Start")
        walk.press("New game, lose it")
        walk.until(lambda: walk.scene in GAME, 20, "the new game")
        assert sorted(orjson.loads(path.read_bytes())["bots"].values()) == ["medium"]   # the new one, saved
    finally:
        top = walk.app.stack.top
        if getattr(top, "session", None) is not None:
            top.session.match.close()
        close(walk.app)


def test_a_host_back_at_a_kept_game_is_told_who_is_away_and_how_long_their_seat_waits(tmp_path, monkeypatch):
    """QA: a host back at a kept game was not told which guests were connected during the grace.
    Ada hosts, Bea sits; Ada stops hosting; Ada hosts again: her page says Bea is away and how
    long Bea's seat waits (the server's UpdatePlayerAway), over the page and in the game's log."""
    monkeypatch.setenv("MOR_SEED", "4")
    walk = start(nickname="Ada")
    walk.app.settings.server_port = free_port()
    bea = None
    try:
        walk.press("Host a LAN game")
        walk.until(lambda: walk.scene == "LobbyScene" or getattr(walk.app.stack.top, "error", None), 30, "hosted")
        assert walk.scene == "LobbyScene", walk.app.stack.top.error
        port = walk.app.server.address[1]
        bea = GameSession(RemoteMatch("127.0.0.1", port, "Bea", token_file=tmp_path / "bea.json", retry_delays=()),
                          default_config(), "Bea")
        walk.until(lambda: bea.pump() is not None and bea.lobby.booked == 2, 15, "Bea seated")
        walk.press("2 players")
        walk.until(lambda: walk.scene in GAME and bea.pump() is not None and bea.vm.has_game, 15, "the game")
        walk.press("Leave")
        walk.press("Stop hosting")
        walk.until_scene("TitleScene")
        # (Bea's client tries no reconnection: she is not back when Ada hosts again)
        walk.press("Return to your LAN game")
        walk.until(lambda: walk.scene in GAME, 20, "the kept game")
        walk.until(lambda: walk.app.notice is not None and "Bea is away" in walk.app.notice.words, 10, "Bea away")
        words = walk.app.notice.words
        assert words.startswith("Bea is away: their seat and turn wait up to ") and " s for them" in words, words
        walk.frames(1)
        assert walk.app.notice.rect is not None                                  # drawn over the page
        assert words in [str(line) for line in walk.app.stack.top.session.log]   # and kept in the log
    finally:
        if bea is not None:
            bea.close()
        close(walk.app)


def test_the_fields_stay_readable_while_joining():
    """Played in a real window: while Join knocked at a server, the address and nickname fields
    (disabled) turned black, their words light on dark, unlike every other field of the game."""
    import socket
    with socket.socket() as deaf:                 # takes the connection, never answers: "Knocking…" stays
        deaf.bind(("127.0.0.1", 0))
        deaf.listen()
        walk = start(nickname="Ada")
        try:
            walk.fill_join_page(deaf.getsockname()[1], "Ada")
            walk.press("Join")
            join = walk.app.stack.top
            walk.until(lambda: join.busy is not None, 5, "knocking")
            walk.frames(2)
            field = join.widgets["address"].rect
            inside = walk.app.window.get_at((field.x + field.w * 3 // 4, field.centery))[:3]
            assert sum(inside) > 3 * 170, inside          # paper, as the page (it was near black)
        finally:
            close(walk.app)


@pytest.mark.parametrize("size", [(1024, 640), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_list_of_kept_seats_shows_each_whole(tmp_path, size):
    """Played in a real window: the list of games kept on servers cut its answers short ("…, with
    Lucrezia (b"): each is now whole on its button, the card within the window."""
    from game.scenes.art import fonts
    data = tmp_path / "data"
    for at, port, nick, others in ((100, 51777, "Player 695", ["Lucrezia (bot)"]),
                                   (200, 51015, "Player 695", ["Player 694", "Bartholomew"])):
        remember_unfinished(data / "unfinished-games.json", f"127.0.0.1:{port}/{nick}",
                            {"host": "127.0.0.1", "port": port, "nickname": nick, "players": [nick, *others],
                             "at": at})
    walk = start(size=size, nickname="Ada")
    try:
        walk.press("Return to a game on a server (2)")
        ask = walk.app.stack.top
        assert walk.app.window.get_rect().contains(ask.card)
        u = ask.unit
        for _key, label, _tip in ask.answers[:-1]:
            button = next(b for b in ask.widgets.values() if str(b.text) == label)   # whole, not cut
            assert fonts.font(round(26 * u)).size(label)[0] <= button.rect.w - round(16 * u), label
            assert ask.card.contains(button.rect)
    finally:
        close(walk.app)
