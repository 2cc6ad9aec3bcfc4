"""The main menu's questions through a real pseudo-terminal, read line by line: a wrong answer is
said and the question asked again (never a silent default, never a drop back to the menu the
player did not ask for), and menu goes back."""
from __future__ import annotations

import pytest

from support.pty import PtyProgram

pytestmark = pytest.mark.timeout(60)


def test_a_wrong_number_of_computer_players_is_asked_again():
    """QA: "4" dropped the player back to the main menu (their next "2 expert" then chose its
    second line), and an unknown level ("2 expert") started a medium game without a word."""
    p = PtyProgram(["--plain", "--name", "Ada", "--bot-pace", "0"], seed=3)
    try:
        p.expect("Main menu")
        p.send("2")
        p.expect("How many computer players")
        p.send("4")
        assert p.expect("Say a number of computer players") == (
            "Say a number of computer players from 1 to 3, then a level (easy, medium or hard), for example "
            "2 medium; or say menu to go back.")
        p.send("2 expert")
        assert p.expect("is not a level") == ("'expert' is not a level: say easy, medium or hard after the number, "
                                              "for example 2 medium; or say menu to go back.")
        p.send("")
        p.expect("Say a number of computer players")
        p.send("menu")
        p.expect("Main menu")
        p.send("2")
        p.expect("How many computer players")
        p.send("1 hard")
        assert p.expect("A new game against") == "A new game against 1 hard computer player."
        p.expect("Choose the 2 leaders you keep")
        p.leave_and_quit()
    finally:
        p.kill()
    menus = [line for line in p.lines if line.startswith("Main menu")]
    assert len(menus) == 3, p.lines        # at the start, on menu, on leave: never on a wrong answer
