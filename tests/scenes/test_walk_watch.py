"""Watching a table in the window (issue 31), walked like a player: the real ``App`` frame loop
from the title, posted events only (tools/walk.py). Two seeded players (the client API, no
window) play at a public table; Wes opens *Join a game* › *Tables…*, clicks the game being
played, and watches it: the board drawn whole, read only, following the moves as nobody's seat
sees them; his chat line reaches the players; *Stop watching* goes back to the tables."""
from __future__ import annotations

import random

import orjson
import pytest

from walk import Walk, board_check, close, start

from game.client.session import ChatLine
from game.client.watch_words import WATCHER
from game.client.watching import Watching
from game.rules import default_config
from game.rules.views import player_view
from support.remote import named_table_of_two, play_requests
from support.wait import pump_until, until

pytestmark = pytest.mark.timeout(120)
ALL = {"cards": True, "arrows": True, "track": True, "board": True, "actions": True}


def _to_tables(walk: Walk, port: int, nickname: str) -> None:
    walk.fill_join_page(port, nickname)
    walk.press("Tables")
    walk.until_scene("TablesScene")
    walk.until(lambda: walk.app.stack.top.listing is not None, 10, "the list of tables")


def test_a_game_being_played_is_watched_from_the_tables_page(server, tmp_path):
    ada, bea = named_table_of_two(server, tmp_path)
    rng = random.Random(8)
    play_requests(server, [ada, bea], rng, 6)
    wes = start(name="wes")
    try:
        _to_tables(wes, server.address[1], "Wes")
        page = wes.app.stack.top
        wes.until(lambda: any(t.name == "Salon" for _r, t in page.rows), 10, "Salon among the games being played")
        wes.click(next(r.center for r, t in page.rows if t.name == "Salon"))
        wes.until_scene("WatchTableScene")
        scene = wes.app.stack.top
        wes.until(lambda: scene.layout is not None, 10, "the board")
        wes.frames(3)
        drawn = board_check(wes.app.window, 2)
        assert drawn == {**ALL, "actions": False}                     # the board whole; no action bar to play
        assert wes.button_at("Stop watching") is not None and wes.button_at("End turn") is None
        play_requests(server, [ada, bea], rng, 10)
        room = server.room_of("Ada")
        public = orjson.loads(orjson.dumps(player_view(room.game, None)))
        wes.until(lambda: scene.session.vm.game == public, 10, "the table as nobody's seat sees it")
        market = scene.layout.market.center
        before, played = list(ada.log), len(room.game.history)
        wes.click(market)                                             # a click on the market plays nothing
        wes.frames(3)
        assert len(room.game.history) == played and scene.plan is None
        wes.click(scene.chat_entry.rect.center)
        wes.type("bravo")
        wes.key(13, "\r")
        pump_until(ada, lambda: WATCHER.format("Wes") + ": bravo" in ada.log, what="the players read Wes")
        said = [line for line in ada.log if line not in before and isinstance(line, ChatLine)]
        assert said == [WATCHER.format("Wes") + ": bravo"]                # said once, by a watcher
        wes.press("Stop watching")
        wes.until_scene("TablesScene")
        pump_until(ada, lambda: ada.watchers.count == 0, what="nobody watches any more")
    finally:
        close(wes.app)
        ada.close()
        bea.close()


def test_a_player_hides_the_watchers_chat_with_the_switch_of_the_chat_line(server, tmp_path):
    """Ada's board (the real frame loop) shows the switch once someone watches; a click hides the
    watchers' chat (the server confirms it), and a watcher's line no longer reaches her log."""
    ada, bea = named_table_of_two(server, tmp_path)
    play_requests(server, [ada, bea], random.Random(9), 4)       # the setup done: the board
    walk = start(name="ada")
    watcher = None
    try:
        walk.app.stack.push(walk.app.scene("board", ada))
        walk.until_scene("BoardScene")
        board = walk.app.stack.top
        walk.frames(2)
        assert board.watchers_switch is not None and not board.watchers_switch.visible   # nobody watches
        chat = board.chat_entry       # the whole line while the switch is hidden: its hint read whole
        assert chat.rect.w == board.log.chat_rect().w
        assert chat.font.size(chat.placeholder_text)[0] < chat.rect.w - 8, "the chat line's hint is cut"
        watcher = Watching(*server.address, "Wes", default_config(), name="Salon")
        until(lambda: watcher.poll() == "seated", what="Wes watching")
        walk.until(lambda: board.watchers_switch.visible, 5, "the switch, once someone watches")
        assert not board.chat_entry.rect.colliderect(board.watchers_switch.rect)   # the line makes room
        walk.press("1 watching \u00b7 hide")                        # how many watch, and what a press does
        walk.until(lambda: ada.watchers.hidden, 5, "the watchers' chat hidden")
        walk.until(lambda: walk.button_at("1 watching \u00b7 show") is not None, 5, "the switch says what it does now")
        watcher.session.chat("psst")
        pump_until(bea, lambda: WATCHER.format("Wes") + ": psst" in bea.log)
        walk.frames(5)
        assert WATCHER.format("Wes") + ": psst" not in ada.log
    finally:
        if watcher is not None and watcher.session is not None:
            watcher.session.close()
        close(walk.app)
        ada.close()
        bea.close()
