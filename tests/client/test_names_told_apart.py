"""A nickname is unique at a table only (issue 31): where one list shows players of several
tables (the open tables, the leaderboard), two whose names read the same are each shown with their
number on the server, so that nobody passes for another; a seat refused because someone at that
table has the name is said in words, in the player's language."""
from __future__ import annotations

from game import i18n
from game.client.lobby import Lobby
from game.client.ratings import Leaderboard
from game.client.tables import TableList


def test_two_anns_at_two_tables_are_told_apart_by_their_numbers():
    m = {"type": "UpdateTables", "from": 0, "total": 2, "tables": [
        {"name": "Salon", "host": "Ann", "players": 2, "taken": 1, "free": 1, "bots": [], "private": False,
         "seated": [{"name": "Ann", "rating": 4, "player": 3}]},
        {"name": "Atelier", "host": "Ann", "players": 2, "taken": 2, "free": 0, "bots": [], "private": False,
         "seated": [{"name": "\u0410NN", "rating": 0, "player": 9}, {"name": "Bob", "rating": 1, "player": 4}]}]}
    salon, atelier = TableList.from_message(m).tables
    assert salon.seated_words == "Ann #3 (rated 4)"
    assert atelier.seated_words == "\u0410NN #9 (rated 0), Bob (rated 1)"   # Bob's name is his alone: as it is


def test_one_ann_keeps_her_name_alone_and_the_leaderboard_tells_two_apart():
    alone = TableList.from_message({"tables": [{"name": "Salon", "players": 2, "taken": 1, "free": 1,
                                                "seated": [{"name": "Ann", "rating": 4, "player": 3}]}]})
    assert alone.tables[0].seated_words == "Ann (rated 4)"
    board = Leaderboard.from_message({"type": "UpdateRatings", "total": 3, "top": [
        {"name": "Ann", "rating": 9, "games": 2, "player": 3}, {"name": "Bob", "rating": 5, "games": 1, "player": 4},
        {"name": "ann", "rating": 1, "games": 1, "player": 7}]})
    assert [r.line for r in board.rows] == ["1. Ann #3: 9 (2 games)", "2. Bob: 5 (1 game)", "3. ann #7: 1 (1 game)"]


def test_a_name_taken_at_the_table_is_said_in_words_in_italian_too():
    refusal = {"type": "ErrTable", "reason": "NICKNAME_TAKEN", "msg": "Someone at “Salon” is called Ann already."}
    assert Lobby().take(refusal) == ("Someone at that table is called by your name already (or by one that reads "
                                     "the same): choose another name to sit there.")
    i18n.use("it")
    assert Lobby().take(refusal).startswith("A quel tavolo c'è già qualcuno con il tuo nome")
    board = Leaderboard.from_message({"top": [{"name": "Ann", "rating": 9, "games": 2, "player": 3},
                                              {"name": "Ann", "rating": 1, "games": 1, "player": 5}]})
    assert board.rows[0].name == "Ann n. 3"
