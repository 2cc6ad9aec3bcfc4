"""The rows of the Join page's list of games (no network: a stand-in browser holds the games)."""
from __future__ import annotations

import time

import orjson
import pygame

from game.netcode.discovery import FoundGame, TableInfo
from game.scenes.lan_list import LanGames


class FakeBrowser:
    problem = ""
    version = 1

    def __init__(self, games):
        self._games = games
        self.started = time.monotonic()

    def games(self):
        return list(self._games)

    def close(self):
        pass


def found(name: str, address: str, port: int, **info) -> FoundGame:
    return FoundGame(service=f"{name} ({port})", address=address, port=port,
                     info=TableInfo(name=name, host="Ada", **info), seen=time.monotonic())


def painted(lan: LanGames, games) -> LanGames:
    lan._seats = __import__("game.scenes.lan_list", fromlist=["_read_seats"])._read_seats(lan.seat_file)
    lan.browser = FakeBrowser(games)
    surface = pygame.Surface((1024, 640))
    lan.paint(surface, pygame.Rect(200, 150, 620, 222), 0.6)
    return lan


def test_a_started_table_where_we_hold_a_seat_says_rejoin_and_the_others_wait(tmp_path):
    pygame.init()
    seats = tmp_path / "seats.json"
    seats.write_bytes(orjson.dumps({"127.0.0.1:51015/Bob": "tok", "127.0.0.1:51016/Cy": ""}))
    games = [found("Ada's table", "127.0.0.1", 51015, taken=2, started=True),
             found("Ada's table", "127.0.0.1", 51016, taken=2, started=True),
             found("Ada's table", "127.0.0.1", 51017, taken=1, free=1)]
    lan = painted(LanGames(seat_file=seats), games)
    by_port = {g.port: action for (_, g), action in zip(lan.rows, lan.actions)}
    # our seat (a token) -> Rejoin under that name; a spent seat (empty token) and someone else's -> wait
    assert by_port == {51015: "Rejoin as Bob", 51016: "Wait for a seat", 51017: "Join"}
    assert lan.seated(games[0]) == ["Bob"] and lan.seated(games[1]) == []


def test_a_damaged_seats_file_lists_the_games_as_usual(tmp_path):
    pygame.init()
    seats = tmp_path / "seats.json"
    seats.write_bytes(b"\x00garbage{")
    lan = painted(LanGames(seat_file=seats), [found("T", "10.0.0.2", 51015, taken=2, started=True)])
    assert lan.actions == ["Wait for a seat"]


def test_a_table_found_later_goes_at_the_end_and_the_rows_under_the_pointer_stay(tmp_path):
    pygame.init()
    lan = LanGames(seat_file=tmp_path / "seats.json")
    mine = found("Zeno's table", "10.0.0.2", 51015, taken=1, free=1)
    painted(lan, [mine])
    row, game = lan.rows[0]
    # a table that sorts before it appears (and another goes): the row under the pointer is the same
    other = found("Ada's table", "10.0.0.3", 51015, taken=1, free=3)
    painted(lan, [other, mine])
    assert lan.at(row.center) is not None and lan.at(row.center).service == mine.service
    assert [g.service for _, g in lan.rows] == [mine.service, other.service]


def test_a_table_that_leaves_keeps_its_row_while_the_pointer_is_on_the_list(tmp_path):
    """QA (s5-i-B-join3/4): with the pointer on the second row, the first table leaves the network:
    the second row stays where it is with the same table; the first is greyed and joins nothing.
    Once the pointer leaves the list, the rows close up."""
    pygame.init()
    lan = LanGames(seat_file=tmp_path / "seats.json")
    first = found("Ada's table", "10.0.0.2", 51015, taken=1, free=1)
    second = found("Bea's table", "10.0.0.3", 51015, taken=1, free=1)
    painted(lan, [first, second])
    (row1, _), (row2, _) = lan.rows
    lan.pointer = row2.center
    painted(lan, [second])
    assert lan.at(row2.center).service == second.service
    assert lan.at(row1.center) is None and lan.gone_at(row1.center)
    third = found("Cy's table", "10.0.0.4", 51015, taken=1, free=1)
    painted(lan, [third, second])                      # a new table goes after them, never in the gap
    assert [g.service for _, g in lan.rows] == [second.service, third.service]
    assert lan.at(row2.center).service == second.service and lan.gone_at(row1.center)
    lan.pointer = (0, 0)                               # the pointer elsewhere: the rows close up
    painted(lan, [third, second])
    assert lan.at(row1.center).service == second.service and not lan.gone_at(row1.center)


def test_a_table_that_speaks_tls_is_marked_encrypted(tmp_path):
    pygame.init()
    games = [found("Ada's table", "10.0.0.2", 51015, free=1, tls=51016), found("Bo's table", "10.0.0.3", 51015, free=1)]
    lan = painted(LanGames(seat_file=tmp_path / "seats.json"), games)
    assert lan.notes == ["host Ada \u00b7 1 seat free \u00b7 10.0.0.2:51015 \u00b7 encrypted",
                         "host Ada \u00b7 1 seat free \u00b7 10.0.0.3:51015"]
    assert len(lan.locks) == 1 and lan.rows[0][0].contains(lan.locks[0])   # one padlock, on the first row
