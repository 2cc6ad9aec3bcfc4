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


def test_changing_the_name_keeps_it_on_enter_and_asks_again_when_wrong():
    """QA: Enter at "Type the new one" said "That cannot be a name", "menu" renamed the player
    "menu", and a name too long went back to the main menu instead of asking again."""
    p = PtyProgram(["--plain", "--name", "Ada"], seed=3)
    try:
        p.send("6")
        assert p.expect("Your name is Ada.") == ("Your name is Ada. Type the new one (1 to 24 letters, digits, "
                                                 "spaces or punctuation), or press Enter to keep it:")
        p.send("")
        assert p.expect("Your name") == "Your name stays Ada."
        p.expect("Main menu")
        p.send("6", "menu")
        assert p.expect("Your name stays") == "Your name stays Ada."
        assert p.expect("Change your name") == "6. Change your name (now Ada)"
        p.send("6", "x" * 30)
        assert p.expect("That cannot be a name") == ("That cannot be a name: 1 to 24 letters, digits, spaces or "
                                                     "punctuation. Type another, or press Enter to keep Ada.")
        p.send("Bea")
        assert p.expect("Your name") == "Your name is now Bea."
        assert p.expect("Change your name") == "6. Change your name (now Bea)"
        p.quit()
    finally:
        p.kill()
    assert len([line for line in p.lines if line.startswith("Main menu")]) == 4, p.lines


def test_past_games_with_none_says_where_the_player_is_again():
    """QA: Past games and replays, with no game finished, said "No finished game on this machine
    yet." and nothing more: no list, no question; the player's next "1" started a solo game."""
    p = PtyProgram(["--plain", "--name", "Ada"], seed=3)
    try:
        past = p.expect("Past games and replays")
        p.expect("Quit")
        p.send(past.split(".")[0])
        p.expect("No finished game on this machine yet.")
        assert p.expect("Main menu", "", timeout=5) == "Main menu. Say the number of your choice:"
        p.quit()
    finally:
        p.kill()


def test_menu_in_a_game_goes_back_to_the_menu_as_the_menu_says():
    """QA: the menu's help says "Say menu for the main menu"; in a game, menu (and back) said "No
    command 'menu'" though quit and exit left for the menu."""
    p = PtyProgram(["--plain", "--name", "Ada"], seed=3)
    try:
        p.expect("Quit")
        p.send("1")
        p.expect("Choose the 2 leaders you keep")
        p.send("menu")
        assert p.expect("You left the game", "No command") == "You left the game. It is saved."
        p.expect("Main menu")
        p.send(p.expect("Continue the saved solo game").split(".")[0])
        p.expect("Choose the 2 leaders you keep")
        p.send("back")
        assert p.expect("You left the game", "No command") == "You left the game. It is saved."
        p.expect("Main menu")
        p.quit()
    finally:
        p.kill()


def test_players_in_a_game_says_where_to_hear_who_plays():
    """QA: players, in a game against the computer, said "The game has already started." and
    nothing of the players, nor what to say to hear them."""
    p = PtyProgram(["--plain", "--name", "Ada", "--bot-pace", "0"], seed=3)
    try:
        p.send("2")
        p.expect("How many computer players")
        p.send("1 easy")
        p.expect("Choose the 2 leaders you keep")
        p.send("players")
        assert p.expect("The game has already started") == (
            "The game has already started: players chooses how many play, in a server's waiting room. Say score "
            "for everyone's points, or board and a name for a player's board.")
        p.leave_and_quit()
    finally:
        p.kill()


def test_board_lorenzo_in_a_solo_game_says_lorenzo():
    """QA: board lorenzo, in a solo game, said "No player called 'lorenzo' at this table: Ada.",
    as though the player had mistyped a name."""
    p = PtyProgram(["--plain", "--name", "Ada"], seed=3)
    try:
        p.send("1")
        p.expect("Choose the 2 leaders you keep")
        p.send("keep 1 2", "")
        p.expect("The game is on")
        p.send("board lorenzo")
        assert p.expect("Lorenzo il Magnifico:", "No player") == \
            "Lorenzo il Magnifico: his black cross is on space 0 of 24."
        p.send("board bea")
        assert p.expect("No player") == "No player called 'bea' at this table: Ada."
        p.leave_and_quit()
    finally:
        p.kill()
