"""Seeded random legal play: used by the property tests, the benchmark and simple bots.

:func:`random_game` plays a whole game with :func:`choose`, a policy that picks among
:func:`~game.rules.choices.legal_actions` with a bias toward progress (buying a card when it
can, producing sometimes, leader actions now and then), so games end in a realistic number of
turns. It is a test driver, not a strong player.
"""
from __future__ import annotations

import random
from typing import Callable, Iterator

from .actions import Action, ReqActivateProductions, ReqEndTurn, ReqLeaderAction
from .choices import (activatable_leaders, affordable_cards, buy_request, legal_actions, market_line,
                      production_request, take_market_request)
from .components import GameConfig
from .engine import ENDED, SETUP, Game


def choose(game: Game, nickname: str, rng: random.Random) -> Action | None:
    """A random legal request for ``nickname``, biased toward ending the game; None if none.

    It builds only the request it picks (not every legal one), so random games are cheap.
    """
    p = game.player(nickname)
    if game.phase == SETUP:
        acts = list(legal_actions(game, nickname))
        return rng.choice(acts) if acts else None
    if game.phase == ENDED or game.current != p.seat:
        return None
    in_hand = []
    for lid in p.hand:
        if lid not in p.active_leaders:
            in_hand.append(lid)
    if in_hand:
        ready = activatable_leaders(game, p)
        if ready and rng.random() < 0.7:
            return ReqLeaderAction(rng.choice(ready).id, True)
        if rng.random() < 0.01:
            return ReqLeaderAction(rng.choice(in_hand), False)
    if game.main_done:
        return ReqEndTurn()
    if rng.random() < 0.85:
        offers = affordable_cards(game, p)
        if offers:
            offer = rng.choice(offers)
            return buy_request(game, p, offer, rng.choice(offer.slots))
    if rng.random() < 0.3:
        prods = list(game.available_productions(p).values())
        rng.shuffle(prods)
        for prod in prods:
            req = production_request(game, p, prod)
            if req is not None:
                return ReqActivateProductions((req,))
    rows = game.config.market_rows
    k = rng.choice(range(rows + game.config.market_columns))   # the draw of rng.choice(market_lines(...))
    return take_market_request(game, p, market_line(game, p, k < rows, k if k < rows else k - rows))


def steps(game: Game, rng: random.Random, max_steps: int = 20000) -> Iterator[tuple[str, Action]]:
    """Yield (nickname, request) pairs of random legal play until the game ends."""
    for _ in range(max_steps):
        if game.phase == ENDED:
            return
        if game.phase == SETUP:
            who = [p.nickname for p in game.players if not (p.chose_leaders and p.chose_resources)]
            nick = rng.choice(who)
        else:
            nick = game.current_player.nickname
        action = choose(game, nick, rng)
        if action is None:
            raise RuntimeError(f"no legal action for {nick} in phase {game.phase}")
        yield nick, action
    raise RuntimeError("game did not end")


def random_game(config: GameConfig, nicknames: list[str], seed: int,
                on_step: Callable[[Game, str, Action, list], None] | None = None) -> Game:
    """Play a whole seeded random game; ``on_step`` sees each accepted request and its events."""
    game = Game.new(config, nicknames, seed)
    rng = random.Random(seed ^ 0x5EED)
    for nick, action in steps(game, rng):
        events = game.apply(nick, action)
        if on_step is not None:
            on_step(game, nick, action, events)
    return game
