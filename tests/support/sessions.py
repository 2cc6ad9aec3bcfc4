"""Sessions of games in given states, for the window's tests of the scenes around the board:
a game run in-process seen from one seat, and a game over as a remote match would feed it."""
from __future__ import annotations

from game.client.session import GameSession
from game.match import LocalMatch
from game.rules.actions import ReqChooseLeaders, ReqChooseResources
from game.rules.engine import Game, Termination
from game.rules.views import player_view

from .table import Feed

LAN_HOST = "192.168.1.9"
"""Where the fed remote matches say their server is."""


def table_session(config, names, seat: int, seed: int = 7):
    """A multiplayer game run in-process, seen by the player in ``seat``."""
    game = Game.new(config, list(names), seed)
    me = game.players[seat].nickname
    s = GameSession(LocalMatch(config, me, game=game), config, me)
    s.pump()
    return s, game


def waiting_session(config, names, seat: int = 0):
    """:func:`table_session`'s player past their set-up choices (two leaders, and the resources
    if they get any, none chosen), waiting for the others': the session and the game."""
    s, game = table_session(config, names, seat)
    s.send(ReqChooseLeaders(tuple(s.vm.me["leadersHand"][:2])))
    s.pump()
    if s.stage() == "resources":
        s.send(ReqChooseResources({}))
        s.pump()
    return s, game


def ended_session(config, names, me_index: int = 0, lorenzo: bool = False) -> GameSession:
    """A game of ``names`` over (``lorenzo``: a solo game Lorenzo won), as the player at ``me_index`` is told it."""
    g = Game.new(config, list(names), 11)
    for p in g.players:
        g.apply(p.nickname, ReqChooseLeaders(tuple(p.hand[:2])))
    for p in g.players:
        if not p.chose_resources:
            g.apply(p.nickname, ReqChooseResources({p.shelves[2].id: {"Coin": p.bonus}}))
    for i, p in enumerate(g.players):
        p.faith = 6 + 5 * i
        p.slots = [[i], [i + 12], []]
        p.strongbox.content = {"Coin": 2 + i}
    if lorenzo:
        g.black_cross = 24
        g._end(Termination.LORENZO_FAITH)
    else:
        g._end(Termination.SOLO_FAITH if len(names) == 1 else Termination.ROUND_COMPLETED)
    me = g.players[me_index].nickname
    s = GameSession(Feed(me, [player_view(g, me)], host=LAN_HOST), config, me)
    s.pump()
    return s
