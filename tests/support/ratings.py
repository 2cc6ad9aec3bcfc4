"""A TLS server of ours with players rated and one seated, for the tests that show ratings (the
window's Tables page and Leaderboard, the text client's tables and ``ratings``)."""
from __future__ import annotations

from pathlib import Path

from game.client import tables as T
from game.client.session import GameSession
from game.netcode import ratings_wire as W
from game.netcode.player_store import Change
from game.rules import default_config

from .wait import pump_until


def rated_and_seated(tls_server, tmp_path: Path) -> GameSession:
    """Ann (rated 11) and Bob (rated 3) kept by ``tls_server`` after a game of theirs, as it was
    saved; Ada, with her key, seated alone at her new table "Ada's" (3 seats): her session."""
    host, port = tls_server.address
    store = tls_server.ratings.store
    with tls_server.lock:
        ann, bob = store.add(W.make_key(), "Ann"), store.add(W.make_key(), "Bob")
        store.settle(None, [Change(ann, 29.0, 6.0), Change(bob, 21.0, 6.0)])
    ada = GameSession(T.join(host, port, "Ada", create="Ada's", players=3, token_file=tmp_path / "seats.json",
                             tls_port=tls_server.tls_address[1]), default_config(), "Ada")
    pump_until(ada, lambda: ada.rating is not None and ada.lobby.booked > 0)
    return ada
