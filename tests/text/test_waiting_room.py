"""A server's waiting room through the text client: Enter (or turn) says who waits, for what,
and the private table's invite code again; what cannot be done there is said in its own words."""
from __future__ import annotations

import pytest

from support.text import text_client
from support.wait import until


@pytest.mark.timeout(60)
def test_the_waiting_room_is_said_again_on_enter_with_its_invite_code(server, tmp_path):
    host, port = server.address
    ada, said_a = text_client("Ada", tmp_path / "a")
    bea, said_b = text_client("Bea", tmp_path / "b")
    ada.show_tables(f"{host}:{port}")
    ada.line("new Ada's game 3 private")
    until(lambda: said_a.has("its invite code is"), ada.tick)
    code = next(line for line in said_a if "invite code is" in line).split("invite code is ")[1].split(",")[0]
    bea.show_tables(f"{host}:{port}")
    bea.line(f"code {code}")
    until(lambda: said_a.has("Waiting room: Ada and Bea."), ada.tick, bea.tick)

    ada.line("")
    assert said_a[-1] == (f"At the table Ada's game. Its invite code is {code}. Waiting room: Ada and Bea. "
                          f"A game of 3: waiting for 1 more.")
    ada.line("turn")
    assert said_a[-1].startswith("At the table Ada's game.")
    ada.line("players 2")
    assert said_a[-1] == "The number of players is already chosen: a game of 3."
    ada.line("say hello")
    assert said_a[-1] == "Talking to the table opens when the game starts."
    ada.close()
    bea.close()


@pytest.mark.timeout(60)
def test_the_example_of_a_new_table_is_named_after_the_player(server, tmp_path):
    """How to open a table is said with an example named after the player (as the window's
    draft is), not a fixed "Ada's game" that reads as a real table, nor English in Italian."""
    from game import i18n
    host, port = server.address
    bea, said = text_client("Bea", tmp_path / "b")
    bea.show_tables(f"{host}:{port}")
    assert "(new Bea's table 3 private: 3 seats, by invite code;" in said[-1] and "Ada" not in said[-1], said[-1]
    bea.line("new Salon 9")                 # (seats 2 to 4)
    assert said[-1] == "Say new, the table's name, its seats (2 to 4) and private if you like: new Bea's table 3."
    try:
        i18n.use("it")
        bea.line("tables")
        until(lambda: "(new Il tavolo di Bea 3 private: 3 posti" in said[-1], bea.tick, what="the Italian tables")
        assert "Ada's game" not in said[-1]
    finally:
        i18n.use("en")
        bea.close()
