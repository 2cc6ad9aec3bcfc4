"""A nickname is a display name, unique per table (issue 31), over 127.0.0.1 with TLS and keys: two
players with keys called "Ann" play at two tables at once, each told only her own table's game and
chat; at one table a second "Ann" (or "ANN", or "Аnn" with a Cyrillic А) is refused in words and may
sit under another name; the list of tables and the leaderboard tell the two apart by their player
numbers; a keyed Ann away from her turn-based seat gets it back by key while another Ann plays on.
Players without a key keep the reference's flow: their nickname is who they are, unique among them."""
from __future__ import annotations

import random

import pytest

from game.netcode import ratings_wire as W
from game.netcode.protocol import TABLE_NICKNAME_TAKEN

from conftest import KeyedPlayer, Player, wait_until
from turn_tables import back, setup_choice, sit, turn_table

pytestmark = pytest.mark.timeout(60)


def said_by(p: KeyedPlayer, text: str) -> list[str]:
    """Who ``p`` heard say ``text`` so far."""
    return [m["player"] for m in p.received if m["type"] == "UpdateChat" and m.get("text") == text]


def test_two_keyed_anns_play_at_two_tables_each_told_her_own(turn_server, keyed):
    srv = turn_server()
    ann, other = keyed(srv.tls_address, "Ann"), keyed(srv.tls_address, "Ann")   # two keys, one name
    assert sit(ann, {"create": "Salon", "playersCount": 2, "private": False})[-1]["type"] == "UpdateBookedSeats"
    assert sit(other, {"create": "Atelier", "playersCount": 2, "private": False})[-1]["type"] == "UpdateBookedSeats"
    viewer = keyed(srv.tls_address, "Viewer")
    viewer.send({"type": "ReqTables"})
    rows = {t["name"]: t["seated"] for t in viewer.until_type("UpdateTables")[-1]["tables"]}
    (a,), (b,) = rows["Salon"], rows["Atelier"]
    assert a["name"] == b["name"] == "Ann" and a["player"] != b["player"]   # told apart by their numbers
    bob, cy = keyed(srv.tls_address, "Bob"), keyed(srv.tls_address, "Cy")
    assert sit(bob, {"name": "Salon"})[-1]["type"] == "UpdateGame"
    assert sit(cy, {"name": "Atelier"})[-1]["type"] == "UpdateGame"
    for p, others in ((ann, {"Ann", "Bob"}), (other, {"Ann", "Cy"})):
        view = p.until_type("UpdateGame")[-1]
        assert {q["nickname"] for q in view["players"]} == others
    rooms = {frozenset(r.nicknames): r for r in srv.rooms.values()}
    assert rooms[frozenset({"Ann", "Bob"})].online == {"Ann", "Bob"}
    assert rooms[frozenset({"Ann", "Cy"})].online == {"Ann", "Cy"}
    ann.send({"type": "ReqChat", "text": "hello from the salon"})
    other.send({"type": "ReqChat", "text": "hello from the atelier"})
    bob.until(lambda m: m.get("text") == "hello from the salon")
    cy.until(lambda m: m.get("text") == "hello from the atelier")
    ann.until(lambda m: m.get("text") == "hello from the salon")
    other.until(lambda m: m.get("text") == "hello from the atelier")
    assert said_by(bob, "hello from the atelier") == said_by(cy, "hello from the salon") == []
    assert said_by(ann, "hello from the atelier") == said_by(other, "hello from the salon") == []
    # each Ann's moves are her table's: the setup of one is not the other's
    salon = rooms[frozenset({"Ann", "Bob"})]
    setup_choice(srv, salon.id, ann, random.Random(3))
    assert salon.game.player("Ann").chose_leaders
    assert not rooms[frozenset({"Ann", "Cy"})].game.player("Ann").chose_leaders


@pytest.mark.parametrize("name", ["ANN", "\u0410nn"])
def test_at_one_table_a_second_ann_is_refused_in_words_and_sits_as_another(turn_server, keyed, name):
    srv = turn_server()
    ann, second = keyed(srv.tls_address, "Ann"), keyed(srv.tls_address, name)
    assert sit(ann, {"create": "Salon", "playersCount": 3, "private": False})[-1]["type"] == "UpdateBookedSeats"
    refused = sit(second, {"name": "Salon"})[-1]
    assert refused["type"] == "ErrTable" and refused["reason"] == TABLE_NICKNAME_TAKEN
    assert refused["msg"] == (f"Someone at “Salon” is called {name} already (or by a name that reads the same): "
                              f"choose another name to sit there.")
    second.nickname = "Anna"                          # nothing taken: the same connection sits as another
    assert sit(second, {"name": "Salon"})[-1]["type"] == "UpdateBookedSeats"
    assert [s.nickname for s in srv.tables.by_name("Salon").seats] == ["Ann", "Anna"]


def test_the_quick_game_is_one_table_and_keyless_names_stay_unique(turn_server, keyed):
    srv = turn_server()
    ann = keyed(srv.tls_address, "Ann")
    assert ann.join()[-1]["type"] == W.UPDATE_PLAYER                 # in the Quick game's waiting list
    keyless = Player(srv.address, "ann")                             # a reference client: the same list
    keyless.send({"type": "ReqJoin", "nickname": "ann"})
    assert keyless.until_type("ErrNickname")[-1]["reason"] == "TAKEN"
    again = keyed(srv.tls_address, "Ann")                            # another key, the same list
    again.send({"type": "ReqJoin", "nickname": "Ann", "token": "", "key": again.key})
    assert again.until(lambda m: m["type"] in ("ErrNickname", "UpdateBookedSeats"))[-1]["reason"] == "TAKEN"
    ref = Player(srv.address, "Zed")
    ref.send({"type": "ReqJoin", "nickname": "Zed"})
    ref.until_type("UpdateBookedSeats")
    twin = Player(srv.address, "ZED")                                # keyless: unique among the keyless
    twin.send({"type": "ReqJoin", "nickname": "ZED"})
    assert twin.until_type("ErrNickname")[-1]["reason"] == "TAKEN"
    for p in (keyless, ref, twin):
        p.close()


def test_a_keyed_ann_back_at_her_turn_based_seat_while_another_ann_plays(turn_server, keyed):
    srv = turn_server()
    (ann, bob), gid = turn_table(srv, keyed, "Ann", "Bob")
    ann.close()
    room = srv.rooms[gid]
    wait_until(lambda: "Ann" not in room.online)
    other = keyed(srv.tls_address, "Ann")          # her name is not held on the whole server for days
    assert other.join()[-1]["type"] == W.UPDATE_PLAYER
    mine = keyed(srv.tls_address, "Ann", ann.key)  # Ann back, by key: her seat
    assert back(mine, gid)[-1]["type"] == "UpdateGame"
    assert "Ann" in room.online
    bob.send({"type": "ReqChat", "text": "welcome back"})
    mine.until(lambda m: m.get("text") == "welcome back")
    other.send({"type": "ReqTables"})
    other.until_type("UpdateTables")
    assert said_by(other, "welcome back") == []
    ranks = {r["name"] for r in other.leaderboard()["top"]}
    assert ranks <= {"Ann", "Bob"}
