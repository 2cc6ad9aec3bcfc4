"""What a player who comes back to our server is told: Lorenzo's tokens face up since the last
shuffle (``UpdateGame.revealedActionTokens``, our extension) and the whole game's history
(``UpdateHistory``), after a rejoin and after a restart of the server; a reference client (no
token) is sent neither."""
from __future__ import annotations

import random

import orjson
import pytest

from game.netcode.framing import MAX_LINE
from game.netcode.history import history_lines, recent_history
from game.rules.engine import Game
from game.rules.playout import steps

from conftest import CONFIG, Player, drive, room_of, start_game, step

pytestmark = pytest.mark.timeout(60)

KEY = "revealedActionTokens"


def _history(answer_then: list[dict]) -> list[dict]:
    """The messages of the ``UpdateHistory`` lines in ``answer_then``, in order (all of them came)."""
    lines = [m for m in answer_then if m["type"] == "UpdateHistory"]
    assert lines and lines[-1]["last"] and not any(m["last"] for m in lines[:-1])
    return [x for m in lines for x in m["messages"]]


def _until_history(p: Player) -> list[dict]:
    return p.until(lambda m: m["type"] == "UpdateHistory" and m["last"])


def test_the_tokens_face_up_and_the_whole_log_come_back_after_a_restart(make_server, players):
    srv = make_server()
    (s,) = players(srv.address, "s")
    start_game(s)
    assert s.view[KEY] == []                                   # nothing drawn yet
    game = room_of(srv, "s").game
    rng = random.Random(2)
    drive(game, [s], rng, stop=lambda g: len(g.revealed) >= 2)
    assert not game.ended
    revealed = list(game.revealed)
    calls = sum(1 for kind, _n, _a in game.history if kind == "apply")
    token = s.token
    srv.stop()
    srv2 = make_server()                                       # the same data directory
    (back,) = players(srv2.address, "s")
    answer = back.join(token=token)
    assert answer[-1]["type"] == "UpdateGame" and answer[-1][KEY] == revealed
    history = _history(_until_history(back))
    # the whole game, from before the first move
    assert history[0]["type"] == "UpdateGame" and not history[0]["isSetupDone"] and history[0][KEY] == []
    assert sum(1 for m in history if m["type"] == "UpdateAction") == calls
    told = [m["actionToken"] for m in history if m["type"] == "UpdateActionToken"]
    assert told[-len(revealed):] == revealed


def test_a_long_game_is_told_whole_to_each_player_after_a_restart(make_server, players):
    srv = make_server()
    a, b = players(srv.address, "a", "b")
    start_game(a, b)
    game = room_of(srv, "a").game
    drive(game, [a, b], random.Random(6), stop=lambda g: len(g.history) > 80)
    assert not game.ended
    calls = sum(1 for kind, _n, _a in game.history if kind == "apply")
    tokens = {p.nickname: p.token for p in (a, b)}
    srv.stop()
    srv2 = make_server()
    for nick in ("a", "b"):
        (back,) = players(srv2.address, nick)
        back.join(token=tokens[nick])
        history = _history(_until_history(back))
        assert not history[0]["isSetupDone"]                   # from the very start, not the last 60 calls
        assert sum(1 for m in history if m["type"] == "UpdateAction") == calls > 60
        assert KEY not in history[0]                           # no Lorenzo at this table


def test_a_rejoin_without_a_restart_gets_them_too(make_server, players):
    srv = make_server()
    (s,) = players(srv.address, "s")
    start_game(s)
    game = room_of(srv, "s").game
    drive(game, [s], random.Random(3), stop=lambda g: len(g.revealed) >= 2)
    revealed, token = list(game.revealed), s.token
    s.close()
    (back,) = players(srv.address, "s")
    for _ in range(100):          # the server notices the drop
        answer = back.join(token=token)
        if answer[-1]["type"] == "UpdateGame":
            break
    assert answer[-1][KEY] == revealed
    assert _history(_until_history(back))[0]["type"] == "UpdateGame"


def test_a_reference_client_is_never_sent_the_tokens_face_up(make_server, players):
    srv = make_server(compat_rejoin=True)
    (s,) = players(srv.address, "s")
    start_game(s, token=None)
    game = room_of(srv, "s").game
    drive(game, [s], random.Random(4), stop=lambda g: len(g.revealed) >= 1)
    s.close()
    (back,) = players(srv.address, "s")
    for _ in range(100):
        answer = back.join(token=None)
        if answer[-1]["type"] == "UpdateGame":
            break
    back.probe()                                               # nothing after the UpdateGame
    drive(game, [back], random.Random(5), stop=lambda g: g.version > game.version + 6)
    seen = s.received + back.received
    assert sum(m["type"] == "UpdateGame" for m in seen) == 2
    assert not any(KEY in m for m in seen)
    assert not any(m["type"] in ("UpdateHistory", "UpdateSessionToken") for m in seen)


def test_a_whole_four_player_game_travels_in_lines_the_framing_takes():
    g = Game.new(CONFIG, ["a", "b", "c", "d"], 11)
    for nick, action in steps(g, random.Random(11)):
        g.apply(nick, action)
    assert g.ended
    messages, _skipped = recent_history(g, "b")
    assert sum(m["type"] == "UpdateAction" for m in messages) == len(g.history)
    lines = history_lines(messages, [])
    assert [m for line in lines for m in line["messages"]] == messages
    for line in lines:   # a message larger than half the limit (a 4-player UpdateGame) travels alone
        size = len(orjson.dumps(line))
        assert size < MAX_LINE // 2 or (len(line["messages"]) == 1 and size < MAX_LINE)


def test_the_turns_skipped_while_away_are_the_rounds_the_others_played():
    """Round 1 is the first turn of the game; a round ends when the turn comes back to the first
    seat. A player who leaves at the start of round r and is away for two rounds missed r and r+1."""
    from game.rules.actions import ReqEndTurn
    from game.rules.playout import choose
    from game.client.words import skipped_words
    g = Game.new(CONFIG, ["a", "b", "c"], 21)
    rng = random.Random(21)
    while g.phase == "setup":
        nick = next(p.nickname for p in g.players if not (p.chose_leaders and p.chose_resources))
        g.apply(nick, choose(g, nick, rng))
    seats = [p.nickname for p in g.players]
    rounds = 1

    def turn() -> None:   # the current player's main action, then the end of the turn
        nonlocal rounds
        nick = g.current_player.nickname
        while not g.main_done:
            g.apply(nick, choose(g, nick, rng))
        if any(e.get("type") == "UpdateCurrentPlayer" and e["player"] == seats[0]
               for e in g.apply(nick, ReqEndTurn())):
            rounds += 1

    for _ in range(4):                                   # round 1 and part of round 2
        turn()
    while g.current != 0:
        turn()
    away = seats[2]
    start = rounds
    g.set_active(away, False)
    for _ in range(4):                                   # two rounds of the two others
        turn()
    assert rounds == start + 2
    g.set_active(away, True)
    _messages, skipped = recent_history(g, away)
    assert skipped == [start, start + 1]
    assert recent_history(g, seats[0])[1] == []          # nobody else was away
    assert skipped_words(skipped) == (f"While you were away, your turn was skipped twice (rounds {start} and "
                                      f"{start + 1}): the game went on without you. The log above tells what happened.")
    assert "skipped once (round 5)" in skipped_words([5])
    assert "skipped 3 times (rounds 3 to 5)" in skipped_words([3, 4, 5])
    assert "skipped 3 times (rounds 2, 4 and 7)" in skipped_words([2, 4, 7])


def test_a_restart_at_the_start_of_a_players_turn_is_told_to_them_as_one_turn_skipped():
    """The server restarts while it is Ada's turn (everyone away, in seat order); Bea comes back
    first and the turn goes to her. Ada, back later, is told her turn of that round was skipped,
    once (not twice for the turn that went round between the empty seats); Bea is told nothing."""
    from game.rules.actions import ReqEndTurn
    from game.rules.playout import choose
    g = Game.new(CONFIG, ["a", "b"], 8)
    rng = random.Random(8)
    while g.phase == "setup":
        nick = next(p.nickname for p in g.players if not (p.chose_leaders and p.chose_resources))
        g.apply(nick, choose(g, nick, rng))
    first, second = (p.nickname for p in g.players)
    for _ in range(3):                        # round 1, and round 2 begins: the first seat's turn
        nick = g.current_player.nickname
        while not g.main_done:
            g.apply(nick, choose(g, nick, rng))
        g.apply(nick, ReqEndTurn())
    assert g.current_player.nickname == second
    g.apply(second, choose(g, second, rng))
    while not g.main_done:
        g.apply(second, choose(g, second, rng))
    g.apply(second, ReqEndTurn())             # round 3: the first seat's turn
    assert g.current_player.nickname == first and not g.main_done
    for nick in (first, second):              # the restart: everyone away, in seat order
        g.set_active(nick, False)
    g.set_active(second, True)                # the second seat is back first: the turn is theirs
    assert g.current_player.nickname == second
    g.set_active(first, True)
    assert recent_history(g, first)[1] == [3]
    assert recent_history(g, second)[1] == []


def test_the_log_says_whose_turn_it_is_when_a_departure_passes_it_on():
    """A turn that passes because its player left (or a restart) is told in the log, as an ended
    turn is; an ended turn still reads as one line."""
    from game.netcode.server_messages import visible_to
    from game.rules.actions import ReqEndTurn
    from game.rules.playout import choose
    from game.rules.views import player_view
    from game.client.session import GameSession
    from support.table import Feed

    g = Game.new(CONFIG, ["a", "b"], 9)
    rng = random.Random(9)
    while g.phase == "setup":
        nick = next(p.nickname for p in g.players if not (p.chose_leaders and p.chose_resources))
        g.apply(nick, choose(g, nick, rng))
    first, second = (p.nickname for p in g.players)
    feed = Feed(second, [player_view(g, second)])
    session = GameSession(feed, CONFIG, second)
    session.pump()

    def play(events):
        feed.say(*(e for e in events if visible_to(e, second)))
        session.pump()

    while not g.main_done:
        play(g.apply(first, choose(g, first, rng)))
    play(g.apply(first, ReqEndTurn()))
    assert session.log[-1] == f"{first.capitalize()} ended the turn; it is your turn."     # (the second player's log)
    play(g.set_active(first, False))                     # not the current player: no turn passes
    assert session.log[-1] == f"{first} left the table."
    play(g.set_active(first, True))
    assert session.log[-1] == f"{first} is back at the table."
    while not g.main_done:
        play(g.apply(second, choose(g, second, rng)))
    play(g.apply(second, ReqEndTurn()))
    play(g.set_active(first, False))                     # the current player leaves: the turn is mine
    assert session.log[-2:] == [f"{first} left the table.", f"{first.capitalize()} is away, so it is your turn."]
    # each time the turn would come to the player who is away, the log says it is passed
    while not g.main_done:
        play(g.apply(second, choose(g, second, rng)))
    play(g.apply(second, ReqEndTurn()))
    assert session.log[-1] == f"You ended the turn; {first} is away, so it is your turn again."
    assert sum("is away" in line for line in session.log) == 2


def test_after_a_restart_the_turn_waits_for_its_player_half_done_as_it_was(make_server, players):
    """A restart is nobody's departure: the players have ``restart_grace`` seconds to come back,
    and meanwhile the turn waits for its player, who finds it as they left it (main action done,
    the turn not ended); the first one back is not handed someone else's turn."""
    srv = make_server()
    a, b = players(srv.address, "a", "b")
    start_game(a, b)
    game = room_of(srv, "a").game
    rng = random.Random(14)
    drive(game, [a, b], rng, stop=lambda g: g.phase == "play" and g.version >= 8)
    while not game.main_done:
        step(game, [a, b], rng)                       # half-way through a turn
    current = game.current_player.nickname
    other = "b" if current == "a" else "a"
    tokens = {p.nickname: p.token for p in (a, b)}
    srv.stop()
    srv2 = make_server(restart_grace=30)
    (first,) = players(srv2.address, other)           # the other one is back first
    view = first.join(token=tokens[other])[-1]
    assert view["currentPlayer"] == current and view["isMandatoryActionDone"]
    assert all(p["active"] for p in view["players"])  # nobody is away yet
    (back,) = players(srv2.address, current)
    view = back.join(token=tokens[current])[-1]
    assert view["currentPlayer"] == current and view["isMandatoryActionDone"]
    from game.rules.actions import ReqEndTurn
    answer = back.request(ReqEndTurn())                # the turn goes on where it was
    assert answer[-1]["type"] == "UpdateAction" and answer[-1]["action"] == "END_TURN"
    assert recent_history(room_of(srv2, "a").game, current)[1] == []


def test_a_player_not_back_within_the_grace_is_passed_over(make_server, players):
    srv = make_server()
    a, b = players(srv.address, "a", "b")
    start_game(a, b)
    game = room_of(srv, "a").game
    drive(game, [a, b], random.Random(15), stop=lambda g: g.phase == "play" and g.version >= 8)
    current = game.current_player.nickname
    other = "b" if current == "a" else "a"
    token = next(p.token for p in (a, b) if p.nickname == other)
    srv.stop()
    srv2 = make_server(restart_grace=0.3)
    (back,) = players(srv2.address, other)
    assert back.join(token=token)[-1]["currentPlayer"] == current
    told = back.until(lambda m: m["type"] == "UpdateCurrentPlayer")   # once the grace is over
    assert {"player": current, "isActive": False, "type": "UpdatePlayerStatus"} in told
    assert told[-1]["player"] == other
    assert room_of(srv2, other).game.current_player.nickname == other


def test_turns_skipped_in_an_absence_already_told_are_not_told_again_after_a_restart(make_server, players):
    """Bea is away for a round (her turn passed over), comes back and is told; the server then
    restarts and she is back within its grace: nothing of hers was skipped this time, and her
    history says nothing skipped (the old absence is not told as new)."""
    srv = make_server()
    a, b = players(srv.address, "a", "b")
    start_game(a, b)
    game = room_of(srv, "a").game
    rng = random.Random(16)
    drive(game, [a, b], rng, stop=lambda g: g.phase == "play" and g.current_player.nickname == "a")
    token = b.token
    b.close()
    import time
    end = time.monotonic() + 5
    while game.player("b").active:
        assert time.monotonic() < end
        time.sleep(0.01)
    version = game.version
    drive(game, [a], rng, stop=lambda g: g.version > version and g.current_player.nickname == "a"
          and g.history[-1][0] == "apply" and type(g.history[-1][2]).__name__ == "ReqEndTurn")
    (back,) = players(srv.address, "b")
    back.join(token=token)
    assert _until_history(back)[-1]["skipped"], "the turn passed over while away is told"
    srv.stop()
    srv2 = make_server(restart_grace=30)
    (again,) = players(srv2.address, "b")
    again.join(token=token)
    assert _until_history(again)[-1]["skipped"] == []


def test_rejoining_again_and_again_replays_only_what_is_new(make_server, players, monkeypatch):
    """Issue 28, finding 2: a stranger with a seat's token rejoining in a loop cost the loop the
    whole game each time; the server keeps the seat's telling and replays only the calls since,
    and what it tells is what a telling from the seed tells."""
    from game.netcode import history
    fresh = []

    class Counted(history.Telling):
        def __init__(self, *a):
            fresh.append(1)
            super().__init__(*a)

    monkeypatch.setattr(history, "Telling", Counted)
    srv = make_server()
    (s,) = players(srv.address, "s")
    start_game(s)
    game = room_of(srv, "s").game
    drive(game, [s], random.Random(3), stop=lambda g: len(g.history) > 30)
    token, told = s.token, []

    def rejoin():
        nonlocal token
        (back,) = players(srv.address, "s")
        for _ in range(100):      # the server notices the drop
            if back.join(token=token)[-1]["type"] == "UpdateGame":
                break
        told.append(_history(_until_history(back)))
        token = back.token or token
        return back

    s.close()
    for _ in range(4):
        rejoin().close()
    back = rejoin()
    drive(game, [back], random.Random(4), stop=lambda g: g.version > game.version + 4)
    back.close()
    rejoin().close()
    assert len(fresh) == 1                       # one replay from the seed, then only what was new
    monkeypatch.undo()
    for before, after in zip(told, told[1:]):
        assert after[:len(before)] == before and len(after) > len(before)
    assert told[-1] == recent_history(game, "s")[0][:len(told[-1])]
