"""A returning player is told the game without the requests taken back (issue 28, finding 4):
a turn spent swapping shelves and undoing made every rejoin megabytes long, each undo sending
the whole table again. Leaving out each undone request with its undo gives the same game."""
from __future__ import annotations

import random

import orjson

from game.netcode.history import history_lines, recent_history, taken_back
from game.rules.actions import ReqSwapShelves
from game.rules.engine import Game
from game.rules.playout import choose

from conftest import CONFIG

NICKS = ["a", "b", "c"]


def a_game_with_undos(seed: int, moves: int = 160) -> Game:
    """A seeded 3-player game in which the player whose turn it is often takes a request back."""
    rng = random.Random(seed)
    g = Game.new(CONFIG, NICKS, seed)
    for _ in range(moves):
        if g.ended:
            break
        nick = (next(p.nickname for p in g.players if not (p.chose_leaders and p.chose_resources))
                if g.phase == "setup" else g.current_player.nickname)
        g.apply(nick, choose(g, nick, rng))
        while g.phase == "play" and g.can_undo(nick) and rng.random() < 0.5:
            g.undo(nick)
        if g.phase == "play" and rng.random() < 0.05:       # someone leaves and comes back
            other = rng.choice([n for n in NICKS if n != g.current_player.nickname])
            g.set_active(other, False)
            g.set_active(other, True)
    return g


def state(g: Game) -> dict:
    """Everything a game holds but the count of calls made to it."""
    return {k: v for k, v in g.snapshot().items() if k != "version"}


def swaps(g: Game) -> list[ReqSwapShelves]:
    """The shelf swaps the player whose turn it is may make now."""
    me = g.current_player
    return [ReqSwapShelves(a.id, b.id) for a in me.shelves for b in me.shelves
            if a.id < b.id and sum(a.content.values()) <= b.capacity and sum(b.content.values()) <= a.capacity]


def without_undone(g: Game) -> Game:
    """The same game, had nobody made the requests they took back."""
    drop = taken_back(list(g.history))
    return Game.replay(CONFIG, NICKS, g.seed, [h for i, h in enumerate(g.history) if i not in drop])


def test_leaving_out_what_was_taken_back_gives_the_same_game_at_every_step():
    for seed in (3, 8):
        g = a_game_with_undos(seed)
        assert sum(kind == "undo" for kind, _, _ in g.history) > 10     # the game has undos to leave out
        for end in range(0, len(g.history) + 1, 7):
            whole = Game.replay(CONFIG, NICKS, seed, g.history[:end])
            part = list(g.history[:end])
            drop = taken_back(part)
            short = Game.replay(CONFIG, NICKS, seed, [h for i, h in enumerate(part) if i not in drop])
            assert state(short) == state(whole), f"seed {seed}, step {end}"


def test_a_returning_player_hears_the_game_as_if_nothing_had_been_taken_back():
    g = a_game_with_undos(5)
    plain = without_undone(g)
    assert len(plain.history) < len(g.history)
    for nick in NICKS:
        told, skipped = recent_history(g, nick)
        assert told == recent_history(plain, nick)[0]
        assert not any(m["type"] == "UpdateUndo" for m in told)
        assert skipped == recent_history(plain, nick)[1]


def test_a_turn_spent_swapping_and_undoing_adds_nothing_to_a_rejoin():
    g, swap = next((g, swap) for moves in range(30, 90) for g in [a_game_with_undos(5, moves)]
                   if g.phase == "play" for swap in swaps(g))
    me = g.current_player
    before = orjson.dumps(history_lines(*recent_history(g, "a")))
    for _ in range(300):                      # the stranger's turn: swap, undo, swap, undo...
        g.apply(me.nickname, swap)
        g.undo(me.nickname)
    after = orjson.dumps(history_lines(*recent_history(g, "a")))
    assert len(after) == len(before)          # was +300 whole tables (megabytes)


def test_a_kept_telling_told_again_says_what_a_new_one_says_at_every_step():
    """The server keeps each returning seat's telling (a rejoin replays only what is new): told
    again at every step of a game full of undos, it says what a telling from the seed says."""
    from game.netcode.history import tell_again
    rng = random.Random(2)
    g = Game.new(CONFIG, NICKS, 9)
    kept = {nick: None for nick in NICKS}
    for step in range(140):
        if g.ended:
            break
        nick = (next(p.nickname for p in g.players if not (p.chose_leaders and p.chose_resources))
                if g.phase == "setup" else g.current_player.nickname)
        if g.phase == "play" and g.can_undo(nick) and rng.random() < 0.4:
            g.undo(nick)              # (a request told to someone already, now and then)
        else:
            g.apply(nick, choose(g, nick, rng))
        chat = [("a", "hello", 1), ("b", f"at {step}", len(g.history))]
        who = NICKS[step % 3]
        kept[who], told, skipped = tell_again(kept[who], g, who, chat)
        assert (told, skipped) == recent_history(g, who, chat=chat), f"step {step}"
