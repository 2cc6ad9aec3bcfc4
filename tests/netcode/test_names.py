"""Names as people read them (issue 28, finding 13): "Server" was accepted as a nickname and its
chat looked like the server's notices; "HON" and "hоn" (a Cyrillic о) sat beside "hon"; a chat
line of one letter and 199 combining marks was accepted."""
from __future__ import annotations

import pytest

from game.netcode import protocol as P
from game.netcode.client_messages import clean_chat, validate_nickname
from game.netcode.names import MAX_MARKS, NickBook, cap_marks, fold, reserved

from game.netcode.server_messages import err_nickname

from conftest import start_game, wait_until

ZALGO = "a" + "\u0301" * 199


def test_names_that_read_the_same_fold_the_same():
    assert fold("hon") == fold("HON") == fold("hоn") == fold("ｈｏｎ") == fold("h o n")
    assert fold("Zoë") == fold("Zoe") and fold("Ada") != fold("Adam")
    assert reserved("Server") and reserved("SERVER") and reserved("Sеrver") and not reserved("Servers")


def test_combining_marks_are_capped_per_character():
    assert cap_marks(ZALGO) == "a" + "\u0301" * MAX_MARKS
    assert clean_chat(ZALGO) == "a" + "\u0301" * MAX_MARKS
    assert cap_marks("Nguyễn") == "Nguyễn" and validate_nickname("Nguyễn") == "Nguyễn"
    assert validate_nickname("a" + "\u0301" * (MAX_MARKS + 1)) is None


def test_the_book_of_nicknames_finds_one_that_reads_the_same():
    book = NickBook()
    book["hon"] = 1
    assert book.like("HON") == book.like("hоn") == "hon" and book.like("ada") is None
    del book["hon"]
    assert book.like("hon") is None
    book["Ada"] = 2
    assert book.pop("Ada") == 2 and book.like("ada") is None


@pytest.mark.timeout(30)
def test_the_server_refuses_names_that_read_as_one_in_use_or_its_own(server, peers, players):
    (hon,) = players(server.address, "hon")
    start_game(hon)
    taken = err_nickname(P.TAKEN)
    for name in ("Server", "SERVER", "HON", "hоn", "Ｈｏｎ"):
        p = peers(server.address).welcome()
        assert p.join(name, token="")[-1] == taken, name
        p.close()
    hon.close()                                      # gone: the seat is still hon's
    wait_until(lambda: "hon" not in server.by_nick)
    p = peers(server.address).welcome()
    assert p.join("hоn", token="")[-1] == taken      # one that reads as a seated player
    q = peers(server.address).welcome()
    assert q.join("Honora", token="")[-1]["type"] == "UpdateBookedSeats"


@pytest.mark.timeout(30)
def test_a_zalgo_chat_line_reaches_the_table_capped(server, players):
    (a,) = players(server.address, "a")
    start_game(a)
    a.send({"type": "ReqChat", "text": ZALGO})
    said = a.until(lambda m: m["type"] == "UpdateChat")[-1]
    assert said["text"] == "a" + "\u0301" * MAX_MARKS
