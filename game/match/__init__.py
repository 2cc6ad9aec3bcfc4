"""One interface to a game, whether the engine runs in this process or on a server.

- :mod:`.interface`: :class:`Match`, everything a client may do with a game, whoever runs it.
- :mod:`.local`: :class:`LocalMatch`, a solo game against Lorenzo in-process (no sockets, no
  threads), saved after every accepted request and resumed with :meth:`LocalMatch.resume`.
- :mod:`.bots`: :class:`BotMatch`, the player against computer opponents on this machine, with
  no server; the bots think in a worker process, their moves applied from ``poll`` at a pace.
- :mod:`.remote`: :class:`RemoteMatch`, a seat at a server's table, which reconnects by itself.
- :mod:`.seats`: the seats kept at servers (tokens, and the unfinished games the title offers).

The four match classes are named here, the package's face: ``from game.match import LocalMatch``.
"""
from .bots import BotMatch
from .interface import Match, Msg
from .local import LocalMatch
from .remote import RemoteMatch

__all__ = ["BotMatch", "LocalMatch", "Match", "Msg", "RemoteMatch"]
