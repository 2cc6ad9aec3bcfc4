"""The one bot-turn policy (game/bots/turn_policy.py): what the server's bot scheduler and a game
against the computer on this machine both do when a bot's request is refused or never comes."""
from __future__ import annotations

from game.bots.driver import FALLBACK_LEVEL, Job
from game.bots.turn_policy import Leave, after_no_answer, after_refusal

JOB = Job("Cosimo (bot)", "hard", {"players": []}, "7:Cosimo (bot):3", 3, 41, budget=20)


def test_a_refused_request_is_asked_again_of_the_fallback_bot_with_the_same_view():
    again = after_refusal(JOB, "hard")
    assert isinstance(again, Job) and again.level == FALLBACK_LEVEL
    assert (again.nickname, again.view, again.seed, again.version) == (JOB.nickname, JOB.view, JOB.seed, JOB.version)


def test_a_refused_fallback_request_makes_the_bot_leave_saying_why():
    leave = after_refusal(JOB, FALLBACK_LEVEL)
    assert leave == Leave("cannot find a move the rules accept")
    assert leave.farewell == ("Sorry, I cannot find a move the rules accept, so I leave the table: "
                              "the game goes on without me.")


def test_no_answer_at_all_makes_the_bot_leave():
    assert after_no_answer().farewell.startswith("Sorry, I could not decide on a move, so I leave the table")
