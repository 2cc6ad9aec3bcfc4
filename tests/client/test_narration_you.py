"""A player's log tells them their own moves ("You took row 1"), not of them in the third person
as if they were someone else; the others by their names. A replay, and a watcher, tell everyone
by name; and the end of the game tells the player their own win. (QA: a player read "Ada took
row 1" on her own turn.)"""
from __future__ import annotations

import pytest
from support.table import Table, mid_game

from game import i18n
from game.client.game_log import add_line
from game.client.session import GameSession
from game.rules import default_config
from game.rules.actions import ReqEndTurn
from game.rules.playout import choose


@pytest.mark.seed(3)
def test_a_players_own_moves_are_told_to_them_and_the_others_by_name():
    import random
    game = mid_game(["Ada", "Bruno"], 3, 6)
    match = Table(game, "Ada")
    session = GameSession(match, default_config(), "Ada")
    session.pump()
    rng = random.Random(3)
    try:
        for _round in range(2):
            while game.current_player.nickname != "Ada" and not game.ended:
                who = game.current_player.nickname
                match.out += game.apply(who, choose(game, who, rng))
            session.pump()
            while not game.main_done:
                session.send(choose(game, "Ada", rng))
            session.send(ReqEndTurn())
            session.pump()
        lines = [str(x) for x in session.log]
        assert any(x.startswith("You ended the turn; it is Bruno's turn") for x in lines), lines
        assert any(x.startswith("Bruno ended the turn; it is your turn") for x in lines), lines   # the others: by name
        assert not any("Ada's turn" in x for x in lines), lines
        assert not any(x.startswith("Ada ") for x in lines), lines           # herself: never by name
    finally:
        session.close()


def test_the_warehouse_moves_of_the_reader_are_one_line_in_every_language():
    lines: list[str] = []
    for _ in range(3):
        add_line(lines, "You rearranged the warehouse.")
    assert lines == ["You rearranged the warehouse (3 moves)."]
    try:
        i18n.use("it")
        lines = []
        for _ in range(2):
            add_line(lines, "Hai riordinato il Magazzino.")
        add_line(lines, "Bruno ha riordinato il Magazzino.")
        assert lines == ["Hai riordinato il Magazzino (2 mosse).", "Bruno ha riordinato il Magazzino."]
    finally:
        i18n.use("en")


def test_the_end_tells_the_player_their_own_win_and_what_they_did():
    """The scores' headline and reason: "You win", "You reached the end of the faith track" and
    "you win on the resources left" to the player who did it (a solo win read "Ada wins", and the
    reason named her); the others read her name."""
    from game.client.outcome import outcome_words
    from support.sessions import ended_session
    rows = [("Ada", {"total": 30, "resources": 5}), ("Bea", {"total": 30, "resources": 2})]

    def told(me_index: int) -> tuple[str, str]:
        s = ended_session(default_config(), ["Ada", "Bea"], me_index)
        s.vm.game["players"][0]["faithPoints"] = 24
        s.vm.game["winnerPlayer"] = "Ada"
        return outcome_words(s, rows)

    assert told(0) == ("You win", "You reached the end of the faith track, and the round was played out. "
                                  "Tied on 30 points, you win on the resources left (5 against 2).")
    assert told(1) == ("Ada wins", "Ada reached the end of the faith track, and the round was played out. "
                                   "Tied on 30 points, Ada wins on the resources left (5 against 2).")
    solo = ended_session(default_config(), ["Ada"])
    assert solo.vm.game["winnerPlayer"] == "Ada" and outcome_words(solo, [])[0] == "You win"
    try:
        i18n.use("it")
        assert told(0) == ("Hai vinto", "Hai raggiunto la fine del Tracciato Fede, e il giro è stato giocato fino in "
                                        "fondo. Pari a 30 punti, vinci tu per le risorse rimaste (5 contro 2).")
    finally:
        i18n.use("en")
