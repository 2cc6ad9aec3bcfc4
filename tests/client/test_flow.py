"""The app's flow without a display (game/client/flow): what it asks before it replaces anything,
the seats kept at servers (every one of them), and why a seat is where it is."""
from __future__ import annotations

import orjson
import pytest

from game.client.flow.hosting import host_question
from game.client.flow.local import new_solo_question, new_versus_question, start_new_solo
from game.client.flow.questions import Answer, Question
from game.client.flow.seats import (KeptSeat, another_nickname, ask_before_seating, forget_seat, kept_seat_at,
                                    kept_seats, seat_question, why_seated)
from game.client.games import default_config, open_solo
from game.match.seats import remember_unfinished


@pytest.fixture(scope="module")
def config():
    return default_config()


def _keep(data, host, port, nick, players, at):
    remember_unfinished(data / "unfinished-games.json", f"{host}:{port}/{nick}",
                        {"host": host, "port": port, "nickname": nick, "players": players, "at": at})


def test_a_question_is_answered_by_number_word_or_cancel():
    q = Question("T", "Text.", (Answer("continue", "Continue it"), Answer("new", "New game, lose it"),
                                Answer("cancel", "Cancel")))
    assert [q.pick(s) for s in ("1", "2", "3", "4", "new", "continue", "menu", "", "maybe")] == \
        ["continue", "new", "cancel", None, "new", "continue", "cancel", None, None]
    assert q.lines() == ["T. Text.", "1. Continue it", "2. New game, lose it", "3. Cancel"]


@pytest.mark.seed(1)
def test_a_new_solo_game_asks_over_a_saved_one_and_sets_a_damaged_one_aside(tmp_path, config):
    path = tmp_path / "solo-game.json"
    assert new_solo_question(config, path) is None                  # nothing saved: nothing to ask
    open_solo(config, path, "Ada").close()
    q = new_solo_question(config, path)
    assert q is not None and q.keys == ["continue", "new", "cancel"] and "the saved game is lost" in q.text
    path.write_text("{not a game")
    q = new_solo_question(config, path)
    assert q is not None and q.keys == ["new", "cancel"] and "solo-game.damaged.json" in q.text
    start_new_solo(config, path, "Ada").close()
    assert (tmp_path / "solo-game.damaged.json").read_text() == "{not a game"
    assert new_solo_question(config, path).keys == ["continue", "new", "cancel"]


def test_a_new_game_against_the_computer_asks_over_a_saved_one(tmp_path, config):
    path = tmp_path / "bots-game.json"
    assert new_versus_question(config, path) is None
    path.write_bytes(orjson.dumps({"bots": {"Bot (bot)": "hard"}}))
    q = new_versus_question(config, path)
    assert q.keys == ["continue", "new", "cancel"] and "Bot (hard)" in q.text and "lost" in q.text
    path.write_text("[]")
    assert new_versus_question(config, path).keys == ["new", "cancel"]


def test_the_saved_game_against_the_computer_is_said_saved_once_in_every_language(tmp_path, config):
    """QA: the question read "You have a game against the computer saved. A game against Bot
    (hard) is saved."; the title's tip was made by replacing English words, and in Italian said
    nothing of where the game was left."""
    from game import i18n
    from game.client.games import continue_tip
    path = tmp_path / "bots-game.json"
    path.write_bytes(orjson.dumps({"bots": {"Bot (bot)": "hard"}}))
    q = new_versus_question(config, path)
    assert q.lines()[0] == ("You have a game against the computer saved. It is against Bot (hard). Starting a new "
                            "game replaces it: the saved game is lost."), q.lines()[0]
    assert continue_tip(path, config) == "A game against Bot (hard), saved where you left it."
    try:
        i18n.use("it")
        assert continue_tip(path, config) == "Una partita contro Bot (difficile), salvata dove l'avevi lasciata."
        assert new_versus_question(config, path).lines()[0].count("salvat") == 2      # the title, and what is lost
    finally:
        i18n.use("en")


def test_every_seat_kept_at_a_server_is_offered_newest_first(tmp_path):
    """QA: after sitting at a table on a second server, the seat at the first vanished from the
    title, though both were kept."""
    _keep(tmp_path, "10.0.0.5", 51015, "Ada", ["Ada", "Bea"], 100)
    _keep(tmp_path, "127.0.0.1", 6000, "Ada", ["Cy", "Ada"], 200)
    _keep(tmp_path, "play.example", 51015, "Ada 2", ["Ada 2", "Dee", "Eve"], 300)
    seats = kept_seats(tmp_path)
    assert [s.where for s in seats] == ["play.example:51015", "127.0.0.1:6000", "10.0.0.5:51015"]
    assert seats[0].line == "Your game at play.example:51015, as Ada 2, with Dee and Eve"
    assert seats[2].label == "Return to your game at 10.0.0.5:51015"
    assert seats[2].detail == "Back to your seat as Ada, with Bea"
    # the game this computer hosts on port 6000 is offered in its own words, not as a kept seat
    assert [s.port for s in kept_seats(tmp_path, hosted_port=6000)] == [51015, 51015]
    assert kept_seat_at(tmp_path, "tls://10.0.0.5", 51015, "Ada") == seats[2]
    assert kept_seat_at(tmp_path, "10.0.0.5", 51015, "Bea") is None
    forget_seat(tmp_path, seats[1])
    assert len(kept_seats(tmp_path)) == 2


def test_asking_a_seat_where_one_is_kept_says_why_and_offers_another_name():
    seat = KeptSeat("h:1/Ada", "h", 1, "Ada", ("Ada", "Bea"))
    q = seat_question(seat, "the Quick game")
    assert q.keys == ["return", "other", "cancel"] and q.default == "return"
    assert "unfinished game at h:1 as Ada, with Bea" in q.text and "takes you back to that game" in q.text
    assert q.answers[1].label == "Play as Ada 2"
    assert another_nickname("Bea 2") == "Bea 3" and len(another_nickname("x" * 24)) == 24
    # a kept seat's token sent, and the server put the player in its game: why, unless they chose it
    assert "rather than the Quick game" in why_seated("the Quick game", True, True, "h:1")
    assert why_seated("the Quick game", False, False, "h:1") is None
    assert why_seated("the Quick game", False, True, "h:1") is None     # a new game started at once
    assert why_seated(None, True, True, "h:1") is None


def test_a_seat_chosen_when_asked_is_not_explained():
    """QA: after a plain Join where the player chose "Back to that game", the window said it had
    seated them there "rather than the Quick game", as though they had not chosen."""
    assert why_seated("the Quick game", True, True, "h:1", chose=True) is None


def test_the_kept_seat_question_is_asked_once_for_every_front_end(tmp_path):
    """One function asks it (the window's Join and Tables pages and the text client): with no seat
    kept there, the seat is asked at once; else each answer seats as it says, or nothing."""
    seated, asked = [], []
    ask = lambda question, then: asked.append((question, then))     # noqa: E731

    def seat(nick: str, chose: bool) -> None:
        seated.append((nick, chose))
    ask_before_seating(tmp_path, "h", 1, "Ada", "the Quick game", ask, seat)
    assert seated == [("Ada", False)] and asked == []
    _keep(tmp_path, "h", 1, "Ada", ["Ada", "Bea"], 100)
    cancelled = []
    for answer in ("return", "other", "cancel"):
        ask_before_seating(tmp_path, "h", 1, "Ada", "the Quick game", ask, seat, lambda: cancelled.append(1))
        question, then = asked[-1]
        assert question.title == "You have a game at this server" and "asking for the Quick game" in question.text
        then(answer)
    assert seated[1:] == [("Ada", True), ("Ada 2", False)] and cancelled == [1]


def test_hosting_asks_over_a_hosted_game_kept_unfinished(tmp_path):
    assert host_question(tmp_path, "Ada") is None
    games = tmp_path / "server" / "games"
    games.mkdir(parents=True)
    (games / "1.jsonl").write_text(orjson.dumps({"nicknames": ["Ada", "Bea"], "bots": {}}).decode() + "\n")
    q = host_question(tmp_path, "Ada")
    assert q.keys == ["continue", "new", "cancel"] and "with Bea" in q.text
    assert host_question(tmp_path, "Cy") is None
