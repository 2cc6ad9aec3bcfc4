"""A hosted game is encrypted by default: the game makes its certificate the first time it hosts
and keeps it (hosted again, the same fingerprint), our clients joining by its plain address go to
its TLS port by themselves and remember the certificate, and a reference client still plays on the
plain port."""
from __future__ import annotations

import json
import socket

import pytest

from game.client import join_words as W
from game.client.address import describe_connect_error
from game.client.flow.hosting import server_folder, start_hosting
from game.match import RemoteMatch
from game.netcode.tls import cert_fingerprint
from game.rules.components import default_config

pytestmark = pytest.mark.timeout(30)


def _line(f) -> dict:
    return json.loads(f.readline())


def test_a_hosted_game_serves_tls_with_a_certificate_of_its_own_kept(tmp_path):
    data = tmp_path / "data"
    server = start_hosting(default_config(), 0, data, "Ada", 0.3)
    try:
        assert server.tls_address is not None
        fingerprint = server.tls_fingerprint
        assert fingerprint == cert_fingerprint(server_folder(data) / "tls" / "cert.pem")
        assert (server_folder(data) / "tls" / "key.pem").stat().st_mode & 0o077 == 0   # the key: its owner's only
        bea = RemoteMatch("127.0.0.1", server.address[1], "Bea", token_file=tmp_path / "bea" / "seats.json",
                          connect_timeout=5)
        try:
            assert bea.secure and bea.first_meeting
        finally:
            bea.close()
        with socket.create_connection(("127.0.0.1", server.address[1]), timeout=5) as s:   # a reference client
            f = s.makefile("rwb")
            assert _line(f)["type"] == "ReqWelcome"
            f.write(b'{"type": "ReqWelcome"}\n')
            f.flush()
            assert _line(f) == {"type": "ResWelcome"}          # (nothing of ours: no TLS port told)
    finally:
        server.stop()
    again = start_hosting(default_config(), 0, data, "Ada", 0.3)
    try:
        assert again.tls_fingerprint == fingerprint                      # kept: the guests know it
        bea = RemoteMatch("127.0.0.1", again.address[1], "Bea", token_file=tmp_path / "bea" / "seats.json",
                          connect_timeout=5)
        try:
            assert bea.secure
        finally:
            bea.close()
    finally:
        again.stop()


def test_a_hosted_game_whose_certificate_changed_is_refused_with_what_to_do(tmp_path):
    """The hosting folder's tls/ removed: hosted again on the same port, a new certificate; a guest
    who met the old one is refused, told what to do, and nothing of the seat is sent."""
    import shutil

    from game.client.security import identity_warning
    from walk import free_port
    data = tmp_path / "data"
    seats = tmp_path / "bea" / "seats.json"
    for attempt in range(5):   # (a port free a moment ago, or the one after it, may be another test's by now)
        port = free_port()
        try:
            server = start_hosting(default_config(), port, data, "Ada", 0.3)
            break
        except OSError:
            continue
    try:
        RemoteMatch("127.0.0.1", port, "Bea", token_file=seats, connect_timeout=5).close()
    finally:
        server.stop()
    shutil.rmtree(server_folder(data) / "tls")
    again = start_hosting(default_config(), port, data, "Ada", 0.3)
    try:
        with pytest.raises(Exception) as refused:
            RemoteMatch("127.0.0.1", port, "Bea", token_file=seats, connect_timeout=5).close()
        warning = identity_warning(refused.value)
        assert warning is not None and warning.title == "Not connected: this is not the server you met"
        assert "if they made a new certificate" in warning.text and "known_servers" in warning.text
    finally:
        again.stop()


def test_a_tls_port_out_of_reach_is_joined_in_the_clear_only_by_a_stranger(tmp_path):
    """A host whose router forwards only the plain port (forwarded by hand): the TLS port the
    server tells is out of reach. A guest who never met the server joins on the plain port, not
    encrypted; one who met it over TLS is not joined in the clear (someone may be in the way)."""
    from walk import free_port
    server = start_hosting(default_config(), 0, tmp_path / "data", "Ada", 0.3)
    try:
        port, nowhere = server.address[1], free_port()
        cy = RemoteMatch("127.0.0.1", port, "Cy", token_file=tmp_path / "cy" / "seats.json", connect_timeout=5)
        try:
            assert cy.secure                                  # met over TLS
        finally:
            cy.close()
        server.tls_outside = ("127.0.0.1", nowhere)           # (as if reached through that router)
        bea = RemoteMatch("127.0.0.1", port, "Bea", token_file=tmp_path / "bea" / "seats.json", connect_timeout=2)
        try:
            assert not bea.secure and bea.tls_port is None and bea.player_key is None
        finally:
            bea.close()
        with pytest.raises(OSError) as refused:
            RemoteMatch("127.0.0.1", port, "Cy", token_file=tmp_path / "cy" / "seats.json", connect_timeout=2)
        assert describe_connect_error(refused.value, "127.0.0.1", port) == \
            W.TLS_UNREACHED.format(where=f"127.0.0.1:{port}", tls=nowhere)
    finally:
        server.stop()
