"""What a host's page reads of its server (``Server.host_view``): a picture taken at once, never
the server's own tables."""
from __future__ import annotations

import dataclasses

import pytest

from conftest import start_game, wait_until

pytestmark = pytest.mark.timeout(20)


def test_host_view_says_who_is_connected_and_who_holds_a_seat(server, players):
    ann, bob, cy = players(server.address, "Ann", "Bob", "Cy")
    start_game(ann, bob)
    cy.join()
    view = server.host_view()
    assert view.connected == {"Ann", "Bob", "Cy"}
    assert view.seated == {"Ann", "Bob"}           # Cy waits: no seat yet
    assert view.others("Ann") == ["Bob", "Cy"]
    assert view.table.games == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.seated = frozenset()                  # read-only: nothing of the server's to change
    bob.close()
    wait_until(lambda: "Bob" not in server.host_view().connected)
    assert server.host_view().seated == {"Ann", "Bob"}   # away, still seated


def test_host_view_of_an_empty_server(server):
    view = server.host_view()
    assert view.connected == frozenset() and view.seated == frozenset() and view.others("Ann") == []
    assert view.table.games == 0
