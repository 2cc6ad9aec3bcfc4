"""The player's key and ratings in the client (game/client/keys.py, ratings.py, rating_words.py): the
key made on first use beside the known servers and sent over TLS only, a key taken from another
machine (a bad one refused in words), the leaderboard and the tables list with ratings, against
real servers on loopback."""
from __future__ import annotations

import random

import pytest

from game.client import tables as T
from game.client.keys import key_file, key_lines, shown_key, take_key
from game.client.ratings import NoRatings, leaderboard
from game.client.session import GameSession
from game.match import RemoteMatch
from game.netcode import ratings_wire as W
from game.netcode.player_key import KEY_FILE, read_key
from game.rules import default_config
from game.rules.playout import choose
from game.settings import data_dir
from support.wait import pump_until

CONFIG = default_config()
pytestmark = pytest.mark.timeout(60)


def seated(srv, nick: str, folder, tls: bool = True) -> GameSession:
    host, port = srv.address
    match = RemoteMatch(host, port, nick, token_file=folder / "seats.json",
                        tls_port=srv.tls_address[1] if tls else None)
    return GameSession(match, CONFIG, nick)


def test_the_key_is_made_on_first_use_beside_the_known_servers_and_sent_over_tls_only(tls_server, server, tmp_path):
    ada = seated(tls_server, "Ada", tmp_path / "ada")
    pump_until(ada, lambda: ada.rating is not None)
    assert ada.rating == {"rating": 0, "games": 0, "place": None, "soloBest": None}
    key = read_key(tmp_path / "ada" / KEY_FILE)
    assert key is not None and (tmp_path / "ada" / "known_servers").exists()
    assert (tmp_path / "ada" / KEY_FILE).stat().st_mode & 0o077 == 0      # the owner's alone
    assert tls_server.ratings.store.find(key) is not None
    plain = seated(server, "Bea", tmp_path / "bea", tls=False)
    pump_until(plain, lambda: plain.lobby.booked > 0)
    assert plain.rating is None and not (tmp_path / "bea" / KEY_FILE).exists()   # never made for nothing
    assert len(server.ratings.store) == 0
    ada.close(), plain.close()


def test_two_players_finish_a_game_and_see_their_ratings_move_in_the_log_the_board_and_the_tables(
        tls_server, tmp_path):
    ada, bea = seated(tls_server, "Ada", tmp_path / "ada"), None
    pump_until(ada, lambda: ada.lobby.head == "Ada")
    bea = seated(tls_server, "Bea", tmp_path / "bea")
    pump_until(bea, lambda: bea.lobby.booked == 2)
    host, port = tls_server.address
    listed = T.list_tables(host, port)            # nobody at a table: the Quick game only
    assert listed.tables == ()
    ada.match.new_game(2)
    pump_until(ada, lambda: ada.vm.has_game)
    pump_until(bea, lambda: bea.vm.has_game)
    game = tls_server.room_of("Ada").game
    rng = random.Random(4)
    by = {"Ada": ada, "Bea": bea}
    while not game.ended:
        nick = (rng.choice([p.nickname for p in game.players if not (p.chose_leaders and p.chose_resources)])
                if game.phase == "setup" else game.current_player.nickname)
        before = game.version
        by[nick].match.send(choose(game, nick, rng))
        pump_until(by[nick], lambda: game.version > before or game.ended)
    for s in (ada, bea):
        pump_until(s, lambda: s.rating_change)
        assert s.rating_change.startswith("Ratings: you 0 \u2192 ")
        assert any(str(line) == s.rating_change for line in s.log)
    board = leaderboard(host, port, folder=tmp_path / "ada")
    assert [r.name for r in board.rows] and {r.name for r in board.rows} == {"Ada", "Bea"}
    assert board.total == 2 and board.you["games"] == 1 and board.mine in (1, 2)
    assert board.standing.startswith(("You are 1st", "You are 2nd"))
    assert board.link.secure
    ada.close(), bea.close()


def test_a_plain_server_answers_a_board_without_the_players_place(server, tmp_path):
    board = leaderboard(*server.address, folder=tmp_path)
    assert board.rows == () and board.you is None and "not encrypted" in board.standing
    assert not (tmp_path / KEY_FILE).exists()


def test_a_table_lists_its_people_with_their_ratings(tls_server, tmp_path):
    ada = GameSession(T.join(*tls_server.address, "Ada", create="Ada's", players=3,
                             token_file=tmp_path / "seats.json", tls_port=tls_server.tls_address[1]), CONFIG, "Ada")
    pump_until(ada, lambda: ada.rating is not None and ada.lobby.booked > 0)
    (table,) = T.list_tables(*tls_server.address).tables
    assert table.seated == (("Ada", 0),) and table.seated_words == "Ada (rated 0)"
    ada.close()


def test_a_key_from_another_machine_is_taken_and_a_bad_one_refused_in_words(tmp_path):
    path = key_file(tmp_path)
    mine, _ = shown_key(path)                       # made on first use
    assert mine is not None and read_key(path) == mine
    other = W.make_key()
    for bad, says in [("", "48 characters"), (other[:-3], "48 characters"),
                      (other[:-1] + ("0" if other[-1] != "0" else "1"), "mistake")]:
        assert says in take_key(bad, path) and read_key(path) == mine     # nothing changed
    assert take_key(f"  {other}\n", path) is None and read_key(path) == other
    lines = key_lines(path)
    assert lines[0] == other and any("another machine" in line for line in lines)
    assert any(str(path) in line for line in lines)


def test_a_damaged_key_file_is_left_as_it_is_and_said(tmp_path):
    path = key_file(tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("garbage\n")
    key, why = shown_key(path)
    assert key is None and "damaged" in why and path.read_text() == "garbage\n"
    assert key_lines(path) == [why]


def test_the_key_lives_in_the_players_data_folder_by_default():
    assert key_file() == data_dir() / KEY_FILE


def test_no_board_from_a_server_that_keeps_none(tmp_path):
    import socket
    import threading
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:     # a server of another kind (no TLS): it knows no ReqRatings
        for _ in range(2):
            conn, _ = listener.accept()
            with conn:
                conn.sendall(b'{"type":"ReqWelcome"}\n')
                asked = conn.recv(4096)
                conn.sendall(b'{"type":"ResWelcome"}\n' if b"ReqWelcome" in asked else
                             b'{"msg":"Event type \\"ReqRatings\\" as subclass of \\"VCEvent\\" does not exist.",'
                             b'"type":"ErrProtocol"}\n')
                conn.recv(4096)
    threading.Thread(target=serve, daemon=True).start()
    with pytest.raises(NoRatings, match="keeps no ratings"):
        leaderboard(*listener.getsockname()[:2], tls_port=None, folder=tmp_path, timeout=2)
    listener.close()
