"""A connection's security as a player sees it (game/client/security.py): the tables list and a
seat go over TLS where the server speaks it, say so (and to whom: the certificate), and a server
that is not the one met before is refused with a warning that says what to do; against real
servers on loopback, with self-signed certificates (tests/conftest.py)."""
from __future__ import annotations


import pytest

from game.client import tables as T
from game.client.security import Link, identity_warning, link_of
from game.client.session import GameSession
from game.match import LocalMatch
from game.netcode.client import ServerIdentityChanged
from game.netcode.tls import fingerprint
from game.rules import default_config
from game.settings import data_dir
from support.wait import pump_until, until

CONFIG = default_config()
pytestmark = pytest.mark.timeout(30)


def known(srv) -> str:
    """The player's remembered certificate of ``srv`` (asked on its plain port)."""
    return (data_dir() / "known_servers").read_text(encoding="utf-8")


def seated(seating: T.Seating) -> str:
    return until(lambda: seating.poll() in ("seated", "failed") and seating.state, what="a seat")


def test_the_tables_of_a_tls_server_are_asked_over_tls_and_say_so(tls_server):
    host, port = tls_server.address
    first = T.list_tables(host, port)
    link = first.link
    assert link is not None and link.secure and link.first_meeting
    assert link.fingerprint == tls_server.tls_fingerprint          # only the TLS port shows it
    assert first.tls_port == tls_server.tls_address[1]
    assert link.line == f"Connected securely to {host}:{port} (certificate {link.short})."
    assert link.short == ":".join(tls_server.tls_fingerprint[7:].split(":")[:4]) + "\u2026"
    assert tls_server.tls_fingerprint in link.details and "first time" in link.details
    assert f"{host}:{port} {tls_server.tls_fingerprint}" in known(tls_server)
    again = T.list_tables(host, port, tls_port=first.tls_port)     # the page's next refresh: straight to TLS
    assert again.link.secure and not again.link.first_meeting and again.tls_port == first.tls_port
    typed = T.list_tables(f"tls://{host}", tls_server.tls_address[1])   # tls:// typed: no plain port at all
    assert typed.link.fingerprint == tls_server.tls_fingerprint and typed.link.where.endswith(
        str(tls_server.tls_address[1]))
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        gone = s.getsockname()[1]
    # an announcement older than the server's last start: its TLS port asked again on the plain port
    stale = T.list_tables(host, port, tls_port=gone)
    assert stale.link.secure and stale.tls_port == tls_server.tls_address[1]


def test_a_plain_server_lists_its_tables_not_encrypted(server):
    listed = T.list_tables(*server.address)
    assert listed.link == Link(f"127.0.0.1:{server.address[1]}", None) and listed.tls_port is None
    assert listed.link.label == "not encrypted" and "not encrypted" in listed.link.line
    assert "Not encrypted" in listed.link.details
    assert not (data_dir() / "known_servers").exists()


def test_a_changed_certificate_is_refused_with_what_to_do(tls_server):
    host, port = tls_server.address
    key = f"{host}:{port}"
    other = fingerprint(b"the certificate met before")
    path = data_dir() / "known_servers"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{key} {other}\n", encoding="utf-8")
    joined = len(tls_server.sessions)
    with pytest.raises(ServerIdentityChanged) as refused:
        T.list_tables(host, port)
    warning = identity_warning(refused.value)
    assert warning is not None and "not the server you met" in warning.title
    text = warning.text
    assert key in text and str(path) in text and "nothing was sent" in text and "then join again" in text
    assert other[7:18] in text and tls_server.tls_fingerprint[7:18] in text   # it was…, it is… (short)
    # a seat is refused the same way, and the seating says it is this warning, not a failure to connect
    seating = T.Seating(host, port, "Ada", CONFIG)
    assert seated(seating) == "failed" and seating.warning == warning
    assert "Ada" not in tls_server.by_nick and len(tls_server.sessions) <= joined + 1
    assert path.read_text(encoding="utf-8") == f"{key} {other}\n"      # nothing replaced


def test_a_server_that_stopped_speaking_tls_is_refused_with_what_to_do(server):
    host, port = server.address
    path = data_dir() / "known_servers"
    path.parent.mkdir(parents=True, exist_ok=True)
    was = fingerprint(b"met before")
    path.write_text(f"{host}:{port} {was}\n", encoding="utf-8")
    with pytest.raises(ServerIdentityChanged) as refused:
        T.list_tables(host, port)
    warning = identity_warning(refused.value)
    assert "stopped speaking securely" in warning.title and str(path) in warning.text
    assert was[7:18] in warning.text and "turned encryption off" in warning.text
    assert identity_warning(ConnectionRefusedError()) is None


def test_a_seat_at_a_tls_server_knows_it_is_secure(tls_server):
    seating = T.Seating(*tls_server.address, "Ada", CONFIG)
    try:
        assert seated(seating) == "seated" and seating.warning is None
        link = seating.session.link
        assert link.secure and link.fingerprint == tls_server.tls_fingerprint and link.first_meeting
        assert link.where == f"127.0.0.1:{tls_server.address[1]}"
    finally:
        seating.session.close()


def test_a_seat_at_a_plain_server_knows_it_is_not_encrypted(server):
    plain = T.Seating(*server.address, "Bea", CONFIG)
    try:
        assert seated(plain) == "seated" and not plain.session.link.secure
        assert plain.session.link.line == f"Connected to 127.0.0.1:{server.address[1]}: not encrypted."
    finally:
        plain.session.close()


def test_a_game_on_this_machine_has_no_link(tmp_path):
    match = LocalMatch(CONFIG, "Ada", seed=1, save_path=tmp_path / "solo.json")
    assert link_of(match) is None and GameSession(match, CONFIG, "Ada").link is None


def test_a_game_whose_server_changes_its_certificate_is_not_rejoined(tls_server):
    seating = T.Seating(*tls_server.address, "Ada", CONFIG)
    assert seated(seating) == "seated"
    session = seating.session
    try:
        session.match.new_game(1)
        pump_until(session, lambda: session.vm.has_game, what="the game")
        # someone now answers at the server's address with another certificate; the game reconnects
        key = f"127.0.0.1:{tls_server.address[1]}"
        (data_dir() / "known_servers").write_text(f"{key} {fingerprint(b'another')}\n", encoding="utf-8")
        session.match.resync()
        pump_until(session, lambda: session.reconnect_failed is not None, what="the refused reconnection")
        warning = session.reconnect_warning
        assert warning is not None and "not the server you met" in warning.title
        assert session.reconnect_failed == warning.line and "then join again" in session.reconnect_failed
    finally:
        session.close()
