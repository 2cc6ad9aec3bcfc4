"""The hosted game's port opened by the router itself, as games people play with friends do it:
a mapping asked of the home router (UPnP IGD through ``miniupnpc``, or NAT-PMP, RFC 6886), with a
lease renewed while the game is hosted and removed when hosting stops.

- :mod:`.where`: which router to ask, and how long to wait (``MOR_ROUTER``; the tests point it at
  a stand-in router on loopback);
- :mod:`.outcome`: what came of it (:class:`~.outcome.Status`), and whether an address is private;
- :mod:`.natpmp`: NAT-PMP's few UDP packets, their encoding and one exchange;
- :mod:`.upnp`: the IGD through ``miniupnpc``;
- :mod:`.kept`: the mapping made, kept on disk, so a game killed while hosting has it replaced
  the next time, not stacked;
- :mod:`.mapper`: :class:`~.mapper.PortMapper`, the thread that asks, renews and removes.

Nothing here draws or knows the player's words: :mod:`game.client` says what happened.
"""
from .mapper import PortMapper
from .outcome import State, Status
from .where import Router, router_from_env

__all__ = ["PortMapper", "Router", "State", "Status", "router_from_env"]
