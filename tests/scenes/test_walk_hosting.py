"""Hosting a table and coming back to one, walked like a player (tools/walk.py), two windows at
once: a host's question about ending the table defaults to Stay; a returning player reads the
chat in order; a host who stops on his turn finds it waiting; the Join list holds still; a bot
sits where asked; a kept game or a new table; a seat kept for another game is told as such.
"""
from __future__ import annotations

import time

import pygame
import pytest
from support.remote import started_server

from walk import all_to_the_board, all_until, region, close as _close, free_port, host_for_two, start

pytestmark = [pytest.mark.timeout(120), pytest.mark.seed(1)]   # (seed: the deal of every game started here)
SIZES = [(1024, 640), (1920, 1080)]


# ---------------------------------------------------------------------------- ending a hosted table
def test_a_host_asked_about_ending_the_table_stays_on_enter_and_on_esc():
    host = start(name="host", nickname="Ada")
    guest = start(name="guest", nickname="Bea")
    try:
        host_for_two(host, guest, "Bea")
        all_until((host, guest), lambda: host.scene == guest.scene == "LeaderChoiceScene")
        server = host.app.server
        for key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE):
            host.press("Leave")                                 # Bea is seated: asked first
            host.until_scene("AskScene")
            assert host.app.stack.top.title == "Your friend is still here"   # (one friend)
            host.key(key, "\r" if key != pygame.K_ESCAPE else "")
            assert host.scene == "LeaderChoiceScene" and host.app.server is server, key
            assert not server.room_of("Ada").finished and "Ada" in server.room_of("Ada").online
        # closing the window: asked; Enter stays, and so does a repeat of a key held down
        host.frames(1, [pygame.event.Event(pygame.QUIT)])
        assert host.scene == "AskScene" and host.app.running
        host.frames(1, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)])
        host.frames(2)
        assert host.app.running and host.scene == "LeaderChoiceScene" and host.app.server is server
        # the dark (main) button of the question is Stay
        host.press("Leave")
        host.until_scene("AskScene")
        ask = host.app.stack.top
        assert ask.default == "stay"
        assert "@menu" in ask.widgets["stay"].get_class_ids() and "@menu" not in ask.widgets["leave"].get_class_ids()
        host.press("Leave the table")
        host.until_scene("TitleScene")
    finally:
        _close(guest.app)
        _close(host.app)


# ---------------------------------------------------------------------------- the log of a table left and rejoined
@pytest.mark.timeout(150)
def test_a_returning_player_reads_the_chat_in_order_and_the_others_read_their_turns_passed(tmp_path):
    from walk import play_market_turn
    ada = start(name="ada", nickname="Ada")
    bea = start(name="bea", nickname="Bea")
    back = None
    server = started_server(ada.app.config, tmp_path / "srv")
    port = server.address[1]
    try:
        ada.join(port, "Ada")
        ada.until_scene("LobbyScene")
        ada.press("2 players")
        bea.join(port, "Bea")
        all_to_the_board(ada, bea, leaders=True)
        # Bea says something at the table, then Ada leaves it
        bea.click(bea.entry_at(0))
        bea.type("hello from Bea")
        bea.key(pygame.K_RETURN, "\r")
        log_of = lambda w: [str(line) for line in w.app.stack.top.session.log]   # noqa: E731
        ada.until(lambda: "Bea: hello from Bea" in log_of(ada), 10, "the chat line")
        ada.press("Leave")
        ada.until_scene("TitleScene")
        _close(ada.app)
        # Bea plays on; each time the turn passes over Ada, her log says so
        turns, end = 0, time.monotonic() + 60
        while sum("Ada is away" in line for line in log_of(bea)) < 2:
            assert turns < 3 and time.monotonic() < end, log_of(bea)[-6:]
            bea.frames(2)
            session = bea.app.stack.top.session
            if session.vm.my_turn and not session.vm.game["isMandatoryActionDone"]:   # as Bea's board shows it
                play_market_turn(bea, 2, line=turns)
                turns += 1
            time.sleep(0.01)
        away = [line for line in log_of(bea) if "Ada is away" in line]
        assert all(line.endswith(("it is your turn.", "it is your turn again.")) for line in away), away
        assert not any(line.endswith("ended the turn.") for line in log_of(bea)[-4:]), log_of(bea)[-4:]
        # Ada comes back on a new start of the game: her log has the chat line where it was said
        back = start(name="back", nickname="Ada")
        back.join(port, "Ada")
        back.press("Back to that game")        # asked first: the server keeps her seat there
        back.until_scene("BoardScene", 15)
        taken = ("Bea took row", "Bea took column")        # Bea's turns, played after she spoke
        back.until(lambda: any(line.startswith(taken) for line in log_of(back)), 10, "the history")
        told = log_of(back)
        said = told.index("Bea: hello from Bea")
        after = [i for i, line in enumerate(told) if line.startswith(taken)]
        assert after and said < min(after), told
        assert told.count("Bea: hello from Bea") == 1
    finally:
        for w in (back, bea, ada):
            if w is not None:
                _close(w.app)
        server.stop()


# ---------------------------------------------------------------------------- stopping hosting on one's turn
@pytest.mark.timeout(150)
def test_a_host_who_stops_hosting_on_his_turn_finds_it_waiting_when_he_hosts_again():
    """Ada hosts, Bea joins; on Ada's turn she stops hosting (asked first) and hosts again from
    the title: the game waits for her as after a server restart. It is still her turn, nothing
    of hers was skipped, and Bea (connected the whole time, back by herself) reads no turn of
    Ada's passed and no "While you were away" line."""
    from walk import play_market_turn
    ada = start(name="ada", nickname="Ada")
    bea = start(name="bea", nickname="Bea")
    port = free_port()
    ada.app.settings.server_port = port
    log_of = lambda w: [str(line) for line in w.app.stack.top.session.log]   # noqa: E731
    try:
        ada.press("Host a LAN game")
        ada.until_scene("LobbyScene")
        ada.press("2 players")
        bea.join(port, "Bea")
        all_to_the_board(ada, bea, leaders=True)
        game = ada.app.server.room_of("Ada").game
        if game.current_player.nickname == "Bea":      # Bea plays first: her turn, then Ada's
            play_market_turn(bea, 2)
        ada.until(lambda: game.current_player.nickname == "Ada", 10, "Ada's turn")
        # the server's game says so at once; her board says so when her client has read it
        ada.until(lambda: ada.button_at("Hint") is not None, 10, "Ada's board on her turn")
        ada.press("Leave")
        ada.until_scene("AskScene")
        assert "the game waits, kept as it is (your turn too), until you host again" in ada.app.stack.top.text
        ada.press("Stop hosting")
        ada.until_scene("TitleScene")
        assert not any(kind == "active" for kind, _n, _a in game.history[-3:]), game.history[-3:]
        # the title says what its offer does: nothing is hosted now, the game is hosted again
        assert ada.app.stack.top.captions["return"] == "Host your unfinished game again and take your seat back"
        ada.press("Return to your LAN game")
        ada.until_scene("BoardScene", 15)
        game = ada.app.server.room_of("Ada").game
        all_until((ada, bea), lambda: "Bea" in ada.app.server.room_of("Ada").online
              and bea.scene == "BoardScene" and not bea.app.stack.top.session.connection_lost)
        ada.frames(3)
        bea.frames(3)
        assert game.current_player.nickname == "Ada" and all(p.active for p in game.players)
        ada.until(lambda: ada.button_at("Hint") is not None, 10, "her turn still, on her board")
        assert not any("skipped" in line for line in log_of(ada)), log_of(ada)[-5:]
        assert not any("Ada is away" in line or "skipped" in line for line in log_of(bea)), log_of(bea)[-5:]
    finally:
        _close(bea.app)
        _close(ada.app)


# ---------------------------------------------------------------------------- the Join list holds still
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_join_list_holds_still_under_the_pointer_while_tables_come_and_go(size, monkeypatch):
    """Two tables listed; the pointer on the second. The first leaves the network and a third
    appears: the second's row is drawn where it was, pixel for pixel, and a click on it joins
    the second table (QA: a click joined the table that slid under the pointer). A click on the
    row of the table that left joins nothing and says why."""
    from game.netcode.discovery import FoundGame, TableInfo
    from game.scenes import lan_list

    def table(name: str, port: int) -> FoundGame:
        return FoundGame(service=f"{name} ({port})", address="127.0.0.1", port=port,
                         info=TableInfo(name=name, host=name.split("'")[0], taken=1, free=1), seen=time.monotonic())

    class Network:
        games: list[FoundGame] = []

    class FakeBrowser:
        problem = ""
        version = 1

        def __init__(self, on_change=None) -> None:
            self.started = time.monotonic() - 10

        def games(self):
            return list(Network.games)

        def close(self):
            pass

    monkeypatch.setattr(lan_list, "Browser", FakeBrowser)
    ada, bea, cy = table("Ada's table", free_port()), table("Bea's table", free_port()), table("Cy's table", free_port())
    Network.games = [ada, bea]
    walk = start(size)
    try:
        walk.press("Join a game")
        walk.until_scene("JoinScene")
        walk.frames(2)
        lan = walk.app.stack.top.lan
        (row1, _), (row2, _) = lan.rows
        walk.move(row2.center)
        walk.frames(2)
        before = region(walk.app.window, row2)
        Network.games = [cy, bea]                  # Ada's table leaves, Cy's appears (found first)
        walk.move((row2.centerx + 3, row2.centery))
        walk.frames(2)
        assert region(walk.app.window, row2) == before
        walk.click(row2.center)
        assert walk.app.stack.top.widgets["address"].get_text() == f"127.0.0.1:{bea.port}"
        walk.until(lambda: walk.app.stack.top.busy is None, 10, "the knock to end")
        walk.click(row1.center)                    # the row of the table that left
        assert walk.app.stack.top.widgets["address"].get_text() == f"127.0.0.1:{bea.port}"
        assert "no longer on the network" in (walk.app.stack.top.error or "")
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- a bot sits where asked
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_bot_asked_for_in_the_waiting_room_sits_under_the_buttons_clicked(size, monkeypatch):
    """QA (s6-host4b-1920): the bot levels were under every empty seat, and "Easy bot" under the
    fourth seat seated the bot in the second. The levels are under the next free seat only; a
    click seats the bot there, and the levels move on to the seat after it; the pointer resting
    where it clicked brings up no tooltip over them."""
    import pygame_gui
    at = [(0, 0)]
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: at[0])   # (a headless display has no pointer)
    walk = start(size, name="host", nickname="Ada")
    walk.app.settings.server_port = free_port()

    def levels() -> list[tuple[int, int]]:
        top = walk.app.stack.top
        return [el.rect.center for el in top.ui.get_sprite_group().sprites()
                if str(getattr(el, "text", "")) == "Easy bot" and el.visible]

    try:
        walk.press("Host a LAN game")
        walk.until_scene("LobbyScene")
        walk.press("4 players")
        walk.until(lambda: walk.button_at("Easy bot") is not None, 10, "the bot buttons")
        _seats, _r, _cy, xs = walk.app.stack.top._seat_geometry()
        assert [x for x, _y in levels()] == [xs[1]]
        at[0] = walk.button_at("Easy bot")
        walk.press("Easy bot")
        walk.until(lambda: walk.app.server.pending_bots == ("easy",) and [x for x, _ in levels()] == [xs[2]],
                   10, "the bot seated and the levels under the next seat")
        free = walk.button_at("Free the seat")
        assert free is not None and free[0] == xs[1]
        walk.frames(150)                                # the pointer rests on "Free the seat"
        top = walk.app.stack.top
        tips = [el.rect for el in top.ui.get_sprite_group().sprites()
                if isinstance(el, pygame_gui.elements.UITooltip) and el.visible]
        buttons = [el.rect for el in top.ui.get_sprite_group().sprites()
                   if str(getattr(el, "text", "")).endswith(" bot") and el.visible]
        assert not any(t.colliderect(b) for t in tips for b in buttons), (tips, buttons)
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- a new table or the old game
@pytest.mark.timeout(150)
def test_host_with_a_kept_game_asks_to_continue_it_or_end_it_for_a_new_table():
    """QA (s6-r-c-host3a): with a hosted game kept unfinished, "Host a LAN game" went straight
    back into it. Now it asks: Continue it (the old board), or New table, end it (a fresh
    waiting room; the old game is not brought back any more, and the title stops offering it)."""
    ada = start(name="ada", nickname="Ada")
    bea = start(name="bea", nickname="Bea")
    try:
        host_for_two(ada, bea, "Bea")
        all_to_the_board(ada, bea, leaders=True)
        for answer in ("Continue it", "New table, end it"):
            ada.press("Leave")
            ada.until_scene("AskScene")
            ada.press("Stop hosting")
            ada.until_scene("TitleScene")
            assert ada.button_at("Return to your LAN game") is not None
            ada.press("Host a LAN game")
            ada.until_scene("AskScene")
            ask = ada.app.stack.top
            assert ask.title == "Your LAN game is not finished" and "with Bea" in ask.text
            ada.press(answer)
            if answer == "Continue it":
                ada.until_scene("BoardScene", 15)
                all_until((ada, bea), lambda: "Bea" in ada.app.server.room_of("Ada").online)
        ada.until_scene("LobbyScene", 15)
        ada.until(lambda: ada.app.stack.top.choosing, 10, "a new table's waiting room")
        assert ada.app.server.room_of("Ada") is None
        games = ada.app.data_dir / "server" / "games"
        assert not list(games.glob("*.jsonl")) and list((games / "finished").glob("*.jsonl"))
        ada.press("Stop hosting")
        ada.until_scene("TitleScene")
        assert ada.button_at("Return to your LAN game") is None
    finally:
        _close(bea.app)
        _close(ada.app)


# ---------------------------------------------------------------------------- a seat kept for another game
@pytest.mark.timeout(120)
def test_a_seat_kept_for_another_game_at_the_same_address_is_told_as_such(tmp_path):
    """QA (s6-r-b-rejoined): the seat kept on this computer for "Bea" at an address was for
    another game there; joining as Bea said she "is already playing at this table" although
    her seat was empty. It says the kept seat is not this table's."""
    import orjson

    from game.match import RemoteMatch
    from game.client.session import GameSession
    walk = start(nickname="Bea")
    server = started_server(walk.app.config, tmp_path / "srv")
    port = server.address[1]
    ada = bea = None
    try:
        ada = GameSession(RemoteMatch("127.0.0.1", port, "Ada", token_file=tmp_path / "ada" / "seats.json"),
                          walk.app.config, "Ada")
        walk.until(lambda: (ada.pump() or True) and ada.lobby.head == "Ada", 10, "Ada waiting")
        ada.match.new_game(2)
        bea = GameSession(RemoteMatch("127.0.0.1", port, "Bea", token_file=tmp_path / "bea" / "seats.json"),
                          walk.app.config, "Bea")
        walk.until(lambda: (ada.pump() or bea.pump() or True) and server.room_of("Bea") is not None, 10, "the game")
        bea.close()                                    # Bea's other install leaves: her seat is empty
        seats = walk.app.data_dir / "seats.json"       # this install's seat there: another game's
        seats.parent.mkdir(parents=True, exist_ok=True)
        seats.write_bytes(orjson.dumps({f"127.0.0.1:{port}/Bea": "a-token-of-another-game"}))
        walk.join(port, "Bea")
        walk.until(lambda: "nickname" in walk.app.stack.top.errors, 10, "the answer")
        said = walk.app.stack.top.errors["nickname"]
        assert "not the one this computer kept" in said and "already playing" not in said, said
    finally:
        for s in (ada, bea):
            if s is not None:
                s.close()
        server.stop()
        _close(walk.app)
