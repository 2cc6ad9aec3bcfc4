"""A search copy (``Game.search``, the bots' look-ahead copies) plays exactly like a real game
while recording nothing: the same state after every call, no history, no undo, no events.

Whole seeded random games are played on a real game and on a search twin side by side, and
compared in full (snapshot, every player's view) after every accepted call, every refusal and
every player leaving or coming back, for 1 to 4 players, to the end of the game (Lorenzo's wins
included)."""
from __future__ import annotations

import random

import pytest

from game.rules.actions import ReqBuyDevCard, ReqEndTurn, ReqTakeFromMarket
from game.rules.engine import Game
from game.rules.errors import UNDO_NOTHING, GameError
from game.rules.playout import steps
from game.rules.state import Container
from game.rules.views import player_view

from builders import CFG, set_faith


def twins(players: int, seed: int) -> tuple[Game, Game]:
    nicks = [f"P{i}" for i in range(players)]
    real = Game.new(CFG, nicks, seed)
    fast = Game.new(CFG, nicks, seed)
    fast.search = True
    return real, fast


def same(real: Game, fast: Game) -> None:
    assert fast.snapshot() == real.snapshot()
    for p in real.players:
        assert player_view(fast, p.nickname) == player_view(real, p.nickname)
    assert player_view(fast, None) == player_view(real, None)


def bad_requests(g: Game):
    """Requests the engine refuses now, for different reasons."""
    if g.phase != "play" or not g.main_done:
        yield ReqEndTurn()
    yield ReqTakeFromMarket(True, 9, {}, {})
    yield ReqBuyDevCard("Green", 1, 7, {})


def play_side_by_side(players: int, seed: int, head_start: int | None = None) -> Game:
    """Play a seeded random game on twins, comparing them all along; ``head_start``: the faith
    every player gets once setup is over (so that random play reaches the end of the track)."""
    real, fast = twins(players, seed)
    same(real, fast)
    rng = random.Random(seed)
    away = None
    for k, (nick, action) in enumerate(steps(real, random.Random(seed ^ 0x5EED))):
        if head_start is not None and real.phase == "play":
            set_faith(real, *[head_start] * players)
            set_faith(fast, *[head_start] * players)
            head_start = None
        if k % 9 == 4:
            for bad in bad_requests(real):
                with pytest.raises(GameError) as refused:
                    real.apply(nick, bad)
                with pytest.raises(type(refused.value)) as also:
                    fast.apply(nick, bad)
                assert also.value.to_dict() == refused.value.to_dict()
            same(real, fast)
        events = real.apply(nick, action)
        assert events and fast.apply(nick, action) == []
        same(real, fast)
        if players > 1 and k % 23 == 11:
            # someone leaves (the current player now and then: the turn passes) and comes back
            if away is None:
                away = rng.choice(real.players).nickname
                assert real.set_active(away, False) and fast.set_active(away, False) == []
            else:
                assert real.set_active(away, True) and fast.set_active(away, True) == []
                away = None
            same(real, fast)
    assert real.ended and fast.ended
    assert fast.outcome() == real.outcome()
    # nothing was recorded on the way
    assert fast.history == [] and fast._events == [] and fast._undo_stack == [] and fast._undo_mark is None
    return real


@pytest.mark.parametrize("players, seeds", [(1, (1, 2, 289)), (2, (1, 2)), (3, (1,)), (4, (1, 2))])
def test_a_search_copy_plays_whole_games_exactly_like_the_real_game(players, seeds):
    ends = {play_side_by_side(players, s).termination.value for s in seeds}
    if players == 1:     # Lorenzo wins by faith and by a colour (seed 289)
        assert ends == {"lorenzo_faith", "lorenzo_color"}
    else:
        assert ends == {"round_completed"}
    # and a game brought near the end of the track: the last round, reports fired at once
    ends = play_side_by_side(players, 7, head_start=22).termination.value
    assert ends == ("solo_faith" if players == 1 else "round_completed")


def test_a_search_copy_keeps_no_undo_history_or_events(monkeypatch):
    """The bookkeeping itself is skipped, not just thrown away: no undo mark is taken, no event
    (containers, market, grid on the wire) is built."""
    calls: dict[str, int] = {}

    def counted(name, fn):
        def wrapper(*args, **kwargs):
            calls[name] = calls.get(name, 0) + 1
            return fn(*args, **kwargs)
        return wrapper

    for name in ("_capture", "_note_for_undo", "market_wire", "grid_wire"):
        monkeypatch.setattr(Game, name, counted(name, getattr(Game, name)))
    monkeypatch.setattr(Container, "to_wire", counted("to_wire", Container.to_wire))
    real, fast = twins(2, 5)
    moves = []
    for k, (nick, action) in enumerate(steps(real, random.Random(5))):
        real.apply(nick, action)
        moves.append((nick, action))
        if k == 80:
            break
    recorded = dict(calls)
    assert {"_capture", "_note_for_undo", "market_wire", "grid_wire", "to_wire"} <= recorded.keys()
    calls.clear()

    class NoEvents(list):
        def append(self, event):
            raise AssertionError(f"a search copy built an event: {event}")

    fast._events = NoEvents()
    for nick, action in moves:
        assert fast.apply(nick, action) == []
    assert calls == {}
    assert fast.snapshot() == real.snapshot()
    assert fast.history == [] and len(real.history) == len(moves)
    assert fast.undo_refusal(fast.current_player.nickname) == UNDO_NOTHING
