"""The hard bot's solo search: Lorenzo's pile sampled as the face-up tokens say, and his turns to
win counted by drawing the sampled pile."""
from __future__ import annotations

import random

from game.bots.common import board
from game.bots.hard import SoloJudge, determinize
from game.rules import Game, default_config, player_view
from game.rules.playout import steps

CFG = default_config()
KIND = {t.id: t for t in CFG.solo_tokens}


def test_the_sampled_pile_keeps_the_face_up_tokens_at_the_bottom_in_their_order():
    g = Game.new(CFG, ["Solo"], 4)
    rng = random.Random(4)
    checked = 0
    for nick, action in steps(g, random.Random(4)):
        g.apply(nick, action)
        if g.ended:
            break
        if len(g.revealed) < 2 or g.current_player.nickname != nick:
            continue
        view = player_view(g, nick)
        shadow, _ = board(view, CFG, nick)
        k = len(g.revealed)
        assert g.tokens[-k:] == g.revealed                   # the engine's own pile
        for _ in range(3):
            world = determinize(shadow, view, nick, rng)
            assert world.tokens[-k:] == g.revealed
            assert sorted(world.tokens[:-k]) == sorted(g.tokens[:-k])   # the unseen ones, any order
        checked += 1
    assert checked >= 3


def _world(cross: int, pile: list[str]) -> Game:
    g = Game.new(CFG, ["Solo"], 1)
    g.black_cross = cross
    by = {}
    for t in CFG.solo_tokens:
        name = t.color or f"{t.kind}{t.spaces}"
        by.setdefault(name, []).append(t.id)
    g.tokens = [by[name].pop() for name in pile]
    g.tokens += [tid for ids in by.values() for tid in ids]
    return g


def test_lorenzo_needs_as_many_turns_as_the_sampled_pile_says():
    judge = SoloJudge(CFG)
    colors = sorted({t.color for t in CFG.solo_tokens if t.color})
    # black cross at 20: two +2 tokens after a discard end it on his third token
    g = _world(20, [colors[0], "move2", "move2"])
    assert judge.lorenzo_turns(g) == 2.5
    # the same cross, but the +2 tokens come after the shuffle's +1: a reshuffled pile follows
    g = _world(21, [colors[0], colors[1], "move_shuffle1"])
    assert judge.lorenzo_turns(g) > 3
    # a colour with two cards left goes at its discard token
    g = _world(0, [colors[1], colors[2], colors[0]])
    decks = g.decks[colors[0]]
    for lv, deck in decks.items():
        del deck[:-2 if lv == CFG.levels[-1] else len(deck)]
    assert sum(len(d) for d in decks.values()) == 2
    assert judge.lorenzo_turns(g) == 2.5


def test_an_empty_slot_with_no_level_one_card_left_blocks_the_seventh_card():
    """Lorenzo discards the lowest level of a colour first: once the level-1 cards are gone an
    empty slot can never be filled, and the judge counts only the faith track's end."""
    judge = SoloJudge(CFG)
    g = Game.new(CFG, ["Solo"], 2)
    p = g.players[0]
    by_level = {lv: [c.id for c in CFG.dev_cards if c.level == lv] for lv in CFG.levels}
    p.slots[0][:] = by_level[1][:1] + by_level[2][:1] + by_level[3][:1]
    p.slots[1][:] = by_level[1][1:2] + by_level[2][1:2]
    p.faith = 14
    held = {cid for s in p.slots for cid in s}
    for decks in g.decks.values():
        for deck in decks.values():
            deck[:] = [c for c in deck if c not in held]
    open_route = judge.turns_to_finish(g, p, 0)
    assert open_route < 10                              # a level-1 card, then a level-3 one
    for decks in g.decks.values():
        decks[1].clear()
    assert judge.turns_to_finish(g, p, 0) == (CFG.last_space - 14) / SoloJudge.FAITH_PACE
    p.slots[2][:] = by_level[1][2:3]                    # the third slot started in time
    assert judge.turns_to_finish(g, p, 0) < open_route
