"""Undo within a turn: ``Game.can_undo`` / ``Game.undo`` (docs/rules-engine.md, "Undo").

Each kind of request taken back gives exactly the state before it (full snapshots); undo is
refused, with a typed ``ErrUndo`` and no change, where something hidden was revealed or the
others' boards changed; random games with random undos replay exactly from their history.
"""
from __future__ import annotations

import random

import pytest

from game.rules import codec
from game.rules.actions import ReqEndTurn, ReqLeaderAction, ReqMoveResources, ReqSwapShelves
from game.rules.engine import Game
from game.rules.errors import (UNDO_CARD_REVEALED, UNDO_ENDED, UNDO_LAST_ROUND, UNDO_NOT_CURRENT,
                               UNDO_NOTHING, UNDO_OTHERS_FAITH, UNDO_PLAYER_STATUS, UNDO_SETUP,
                               UNDO_TOKEN_REVEALED, UNDO_VATICAN_REPORT, ErrUndo)
from game.rules.playout import choose
from game.rules.views import player_view

from builders import (CFG, M0, NEUTRAL, cid, names, pay_cost,
                       play_game, prod, produce, set_faith, set_market, set_reports, set_shelves, set_strongbox,
                       take_col, take_row)


def state(g: Game) -> dict:
    """The whole state but the change counter (an undo is a change: the counter goes on)."""
    s = g.snapshot()
    del s["version"]
    return s


def undo_restores(g: Game, who: str, request) -> list[dict]:
    """Apply ``request``, take it back, and check the state is exactly the earlier one."""
    before = state(g)
    views = {p.nickname: player_view(g, p.nickname) for p in g.players}
    g.apply(who, request)
    assert g.can_undo(who)
    assert state(g) != before
    events = g.undo(who)
    assert state(g) == before
    assert events[0] == {"player": who, "action": g.history[-2][2].action_name
                         if isinstance(request, ReqLeaderAction) else request.ACTION, "type": "UpdateUndo"}
    updates = events[1:]
    assert [e["type"] for e in updates] == ["UpdateGame"] * len(g.players)
    for e in updates:   # each player gets the view they had before the request
        nick = e.pop("player")
        assert e == views[nick]
    return events


def refusal(g: Game, who: str) -> str:
    """Check ``who`` cannot undo (typed error, nothing changed) and return the reason."""
    before, history = g.snapshot(), list(g.history)
    assert not g.can_undo(who)
    with pytest.raises(ErrUndo) as info:
        g.undo(who)
    assert g.snapshot() == before and g.history == history
    assert info.value.describe().startswith("Nothing was taken back: ")
    return info.value.fields["reason"]


# ---------------------------------------------------------------------------- each kind of request
def test_undo_market_take_solo_even_with_discards():
    g = play_game(1)
    (a,) = names(g)
    set_market(g, M0)
    # row 1: W Y G B; keep the Coin, discard Stone and Shield: Lorenzo moves (no one to react)
    undo_restores(g, a, take_row(g, a, 1, D1={"Coin": 1}))


def test_undo_market_take_with_everything_kept():
    g = play_game(3)
    a, _, _ = names(g)
    set_market(g, M0)
    undo_restores(g, a, take_row(g, a, 3, D1={"Coin": 1}, D2={"Stone": 1}))   # G Y W R: +1 faith too


def test_undo_production_swap_move_and_leaders():
    g = play_game(2, leaders={0: ["leader_depot_coin", "leader_discount_servant"]})
    a, _ = names(g)
    set_shelves(g, a, d1={"Shield": 1}, d3={"Coin": 3})
    set_strongbox(g, a, {"Stone": 5, "Servant": 5, "Shield": 5})
    undo_restores(g, a, produce(prod(g, a, "base", {"Coin": 1}, SB={"Stone": 2})))
    undo_restores(g, a, ReqSwapShelves(cid(g, a, "D1"), cid(g, a, "D2")))
    undo_restores(g, a, ReqMoveResources(cid(g, a, "D1"), cid(g, a, "D2"), "Shield", 1))
    depot_leader = g.players[0].hand[0]
    undo_restores(g, a, ReqLeaderAction(depot_leader, True))
    undo_restores(g, a, ReqLeaderAction(g.players[0].hand[1], False))


def test_undo_steps_back_one_request_at_a_time_to_the_start_of_the_turn():
    g = play_game(2, leaders={0: ["leader_depot_coin"]})
    a, _ = names(g)
    set_shelves(g, a, d1={"Shield": 1}, d3={"Coin": 3})
    set_strongbox(g, a, {"Shield": 5})
    set_market(g, NEUTRAL)
    lid = g.players[0].hand[0]
    requests = [ReqLeaderAction(lid, True), ReqSwapShelves(cid(g, a, "D1"), cid(g, a, "D2")),
                ReqMoveResources(cid(g, a, "D3"), cid(g, a, "LD_Coin"), "Coin", 2),
                take_col(g, a, 1)]
    states = []
    for r in requests:
        states.append(state(g))
        g.apply(a, r)
    names_back = []
    for s in reversed(states):
        names_back.append(g.undoable_action(a))
        g.undo(a)
        assert state(g) == s
    assert names_back == ["TAKE_MARKET_RESOURCES", "SWAP_SHELVES", "SWAP_SHELVES", "ACTIVATE_LEADER"]
    assert refusal(g, a) == UNDO_NOTHING
    # the game goes on from there as if nothing had happened
    for r in requests:
        g.apply(a, r)
    g.apply(a, ReqEndTurn())


# ---------------------------------------------------------------------------- refusals
def test_refused_in_setup_for_others_and_at_the_start_of_a_turn():
    g = Game.new(CFG, ["ann", "ben"], seed=3)
    assert refusal(g, "ann") == UNDO_SETUP
    g = play_game(2)
    a, b = names(g)
    assert refusal(g, a) == UNDO_NOTHING
    set_market(g, NEUTRAL)
    g.apply(a, take_col(g, a, 1))
    assert refusal(g, b) == UNDO_NOT_CURRENT
    assert g.can_undo(a)


def test_refused_after_a_card_purchase_but_later_requests_can_be_taken_back():
    g = play_game(2)
    a, _ = names(g)
    set_strongbox(g, a, {"Coin": 9, "Stone": 9, "Servant": 9, "Shield": 9})
    set_shelves(g, a, d1={"Shield": 1})
    g.apply(a, pay_cost(g, a, "Green", 1, 1))
    assert refusal(g, a) == UNDO_CARD_REVEALED
    undo_restores(g, a, ReqSwapShelves(cid(g, a, "D1"), cid(g, a, "D2")))
    assert refusal(g, a) == UNDO_CARD_REVEALED


def test_refused_after_ending_the_turn():
    g = play_game(2)
    a, b = names(g)
    set_market(g, NEUTRAL)
    g.apply(a, take_col(g, a, 1))
    g.apply(a, ReqEndTurn())
    assert refusal(g, a) == UNDO_NOT_CURRENT
    assert refusal(g, b) == UNDO_NOTHING
    solo = play_game(1)
    (s,) = names(solo)
    set_market(solo, NEUTRAL)
    solo.apply(s, take_col(solo, s, 1))
    solo.apply(s, ReqEndTurn())
    assert refusal(solo, s) == UNDO_TOKEN_REVEALED


def test_refused_after_discards_move_the_others():
    g = play_game(3)
    a, _, _ = names(g)
    set_market(g, M0)
    g.apply(a, take_row(g, a, 1))   # everything discarded: the others move
    assert refusal(g, a) == UNDO_OTHERS_FAITH


def test_refused_after_a_vatican_report_and_the_last_round():
    g = play_game(2, leaders={0: ["leader_depot_coin"]})
    a, _ = names(g)
    set_faith(g, 7, 0)
    g.apply(a, ReqLeaderAction(g.players[0].hand[0], False))   # faith 8: the first report
    assert refusal(g, a) == UNDO_VATICAN_REPORT
    g = play_game(2, leaders={0: ["leader_depot_coin"]})
    a, _ = names(g)
    set_reports(g, True, True, True)
    set_faith(g, CFG.last_space - 1, 0)
    g.apply(a, ReqLeaderAction(g.players[0].hand[0], False))   # the end of the track: last round
    assert g.last_round
    assert refusal(g, a) == UNDO_LAST_ROUND


def test_refused_after_someone_leaves_or_once_the_game_is_over():
    g = play_game(3)
    a, b, _ = names(g)
    set_market(g, NEUTRAL)
    g.apply(a, take_col(g, a, 1))
    g.set_active(b, False)
    assert refusal(g, a) == UNDO_PLAYER_STATUS
    g = play_game(1)
    (s,) = names(g)
    g.phase = "ended"
    assert refusal(g, s) == UNDO_ENDED


# ---------------------------------------------------------------------------- random games
@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_with_random_undos_replay_exactly(players, seed):
    """Undo at random during random games: each undo gives the state before the request it takes
    back, and the history (undos included) replays to the same game, through the codec too."""
    nicks = ["Ada", "Bruno", "Carla", "Dario"][:players]
    g = Game.new(CFG, nicks, seed)
    rng = random.Random(seed)
    undos = 0
    pending: list[tuple[dict, str]] = []   # (state before, nickname) of requests that may be taken back
    for _ in range(5000):
        if g.ended:
            break
        nick = g.current_player.nickname if g.phase == "play" else next(
            p.nickname for p in g.players if not (p.chose_leaders and p.chose_resources))
        if g.can_undo(nick) and rng.random() < 0.3:
            before, who = pending.pop()
            assert who == nick
            g.undo(nick)
            undos += 1
            assert state(g) == before
            continue
        action = choose(g, nick, rng)
        before = state(g)
        g.apply(nick, action)
        if g.can_undo(nick):
            pending.append((before, nick))
        else:
            pending.clear()
    assert g.ended and undos >= 2
    again = Game.replay(CFG, nicks, seed, g.history)
    assert again.snapshot() == g.snapshot()
    assert codec.loads(codec.dumps(g), CFG).snapshot() == g.snapshot()


def test_a_damaged_undo_record_is_refused():
    g = play_game(1)
    record = codec.game_record(Game.new(CFG, ["ann"], seed=1))
    record["history"].append(["undo", "ann", None])
    with pytest.raises(ErrUndo):
        codec.restore(record, CFG)
    record["history"][-1] = ["redo", "ann", None]
    with pytest.raises(ValueError):
        codec.restore(record, CFG)
    assert g.phase == "play"


def test_a_bots_copy_of_the_game_undoes_on_its_own():
    from game.bots.common import clone
    g = play_game(2)
    a, _ = names(g)
    set_shelves(g, a, d1={"Shield": 1})
    before = state(g)
    g.apply(a, ReqSwapShelves(cid(g, a, "D1"), cid(g, a, "D2")))
    after = state(g)
    copy = clone(g)
    copy.undo(a)
    assert state(g) == after
    s = state(copy)
    assert s["containers"] == before["containers"] and s["players"] == before["players"]
