"""The kit's matches, instead of a fake ``Match`` per test file.

- :class:`Table`: a game run in this process (any number of seats), seen by one of its players
  through the same messages a server sends; the other seats move only when the test says
  (:meth:`Table.others_play`). It can chat, undo and fetch the game again when asked to.
- :class:`Feed`: a match that hands out only the messages the test gives it and keeps what the
  client sent (a server's lobby, a reconnection, an unreadable update).

The screenshots' :class:`TableMatch` (tools/screenshots.py) is the base of :class:`Table`, and
:func:`mid_game`, :func:`played_out` and :func:`session_for` are the positions the scene tests and the pictures share.
"""
from __future__ import annotations

import random
from typing import Any

from game.match import Match
from game.match.local import local_apply, local_undo
from game.netcode.server_messages import visible_to
from game.rules import Game, player_view
from game.rules.playout import choose
from screenshots import TableMatch, mid_game, session_for
from screenshots import _played_out as played_out

__all__ = ["Feed", "Table", "TableMatch", "mid_game", "past_setup", "played_out", "session_for"]

Msg = dict[str, Any]


class Table(TableMatch):
    """``game`` as ``nickname`` sees it. ``chat``: lines said are kept in :attr:`said` and echoed
    as a server does; ``undo``: the engine's undo; ``resync``: the whole game again, counted in
    :attr:`resyncs`."""

    def __init__(self, game: Game, nickname: str, *, chat: bool = False, undo: bool = False,
                 resync: bool = False) -> None:
        super().__init__(game, nickname)
        self.supports_chat, self.supports_undo, self.supports_resync = chat, undo, resync
        self.said: list[str] = []
        self.resyncs = 0

    def send(self, request) -> None:
        events = local_apply(self.game, self.nickname, request, self.out)
        self.out += [e for e in events or () if visible_to(e, self.nickname)]

    def say(self, *msgs: Msg) -> None:
        """Messages as if the server had sent them (the next :meth:`poll` hands them out)."""
        self.out += msgs

    def others_play(self, rng: random.Random) -> None:
        """The other seats play (the random policy) until it is this player's turn again, or the
        set-up waits only for them; what this player sees of it is handed out by :meth:`poll`."""
        g = self.game
        while not g.ended:
            if g.phase == "setup":
                waiting = [p.nickname for p in g.players if not (p.chose_leaders and p.chose_resources)]
                nick = next((n for n in waiting if n != self.nickname), None)
            else:
                nick = g.current_player.nickname
                nick = None if nick == self.nickname else nick
            if nick is None:
                return
            self.out += [e for e in g.apply(nick, choose(g, nick, rng)) if visible_to(e, self.nickname)]

    def chat(self, text: str) -> None:
        self.said.append(text)
        self.out.append({"type": "UpdateChat", "player": self.nickname, "text": text})

    def undo(self) -> None:
        self.out += local_undo(self.game, self.nickname)

    def resync(self) -> None:
        self.resyncs += 1
        self.out.append(player_view(self.game, self.nickname))


def past_setup(game: Game, nickname: str, seed: int) -> Game:
    """``game`` with every seat's set-up chosen in seat order, then the turns played up to
    ``nickname``'s (the random policy of ``seed``)."""
    rng = random.Random(seed)
    while game.phase == "setup":
        nick = next(p.nickname for p in game.players if not (p.chose_leaders and p.chose_resources))
        game.apply(nick, choose(game, nick, rng))
    while not game.ended and game.current_player.nickname != nickname:
        game.apply(game.current_player.nickname, choose(game, game.current_player.nickname, rng))
    return game


class Feed(Match):
    """A match that hands out the messages it is given (:meth:`say`, or ``msgs`` at the start) and
    keeps what the client sends (:attr:`sent`: requests, and ``("new_game", n)``)."""

    def __init__(self, nickname: str = "Ada", msgs=(), host: str | None = None) -> None:
        self.nickname = nickname
        self.host = host
        self.out: list[Msg] = list(msgs)
        self.sent: list[Any] = []
        self.closed = False

    def say(self, *msgs: Msg) -> None:
        self.out += msgs

    def poll(self) -> list[Msg]:
        out, self.out = self.out, []
        return out

    def send(self, request) -> None:
        self.sent.append(request)

    def new_game(self, n: int, *args: Any) -> None:
        self.sent.append(("new_game", n))

    def close(self) -> None:
        self.closed = True
