"""The text client at a server that speaks TLS: said once on connecting ("Connected securely to
HOST (certificate …)"), again by the ``server`` command; a plain server is "not encrypted"; a
server whose certificate changed is refused with the warning and what to do. Through a real
pseudo-terminal, and through the client's own lines."""
from __future__ import annotations

import re

import pytest

from game.netcode.tls import fingerprint
from game.settings import data_dir

from support.pty import PtyProgram
from support.text import text_client
from support.wait import until

pytestmark = pytest.mark.timeout(60)


def test_connecting_securely_is_said_in_a_terminal_and_said_again_on_asking(tls_server):
    host, port = tls_server.address
    short = ":".join(tls_server.tls_fingerprint.removeprefix("SHA256:").split(":")[:4]) + "\u2026"
    p = PtyProgram(["--plain", "--name", "Ada"], seed=1)
    try:
        p.send(p.expect("Join a game on the network").split(".")[0])
        p.expect("Looking for tables on this network")
        p.send(f"{host}:{port}")
        line = p.expect("Connected securely", "not encrypted", "Could not", "No game server")
        assert line == f"Connected securely to {host}:{port} (certificate {short}).", line
        p.expect("You choose how many play")
        p.send("server")
        again = p.expect("Connected securely")
        assert tls_server.tls_fingerprint in again and "first time" in again, again
        p.leave_and_quit()
    finally:
        p.kill()
    assert sum("Connected securely" in line for line in p.lines) == 2   # once on connecting, once asked


def test_asked_in_a_terminal_a_plain_server_is_said_not_encrypted_once(server):
    """QA: ``server`` said "Connected to HOST: not encrypted. Not encrypted: fine on your own
    network; ...": the same two words twice in a row, read whole by a screen reader."""
    host, port = server.address
    p = PtyProgram(["--plain", "--name", "Ada", f"mor://{host}:{port}"], seed=1)
    try:
        assert p.expect("Connected to") == f"Connected to {host}:{port}: not encrypted."
        p.expect("You choose how many play")
        p.send("server")
        said = p.expect("Not encrypted", "not encrypted")
        assert said.startswith(f"Not encrypted: fine on your own network; on the internet, someone on the way to "
                               f"{host}:{port} could read the game."), said
        p.leave_and_quit()
    finally:
        p.kill()


def test_a_plain_server_is_said_not_encrypted_and_a_changed_certificate_refused(server, tls_server):
    ada, said = text_client("Ada", data_dir())
    try:
        ada.join_address(f"127.0.0.1:{server.address[1]}")
        until(lambda: said.has("You choose how many play"), ada.tick)
        assert said.has(f"Connected to 127.0.0.1:{server.address[1]}: not encrypted.")
        ada.line("server")
        assert said[-1] == (f"Not encrypted: fine on your own network; on the internet, someone on the way to "
                            f"127.0.0.1:{server.address[1]} could read the game. A server that offers TLS is reached "
                            f"securely by itself.")                 # (not encrypted, said once)
        ada.line("leave")
        key = f"127.0.0.1:{tls_server.address[1]}"
        (data_dir() / "known_servers").write_text(f"{key} {fingerprint(b'met before')}\n", encoding="utf-8")
        mark = len(said)
        join = [line for line in said if "Join a game on the network" in line][-1]
        ada.line(join.split(".")[0])
        ada.line(f"tables 127.0.0.1:{tls_server.address[1]}")
        refused = next(line for line in said[mark:] if "not the server you met" in line)
        assert re.search(r"remove the line that starts with .127\.0\.0\.1:\d+. from .*known_servers", refused)
        assert "then join again" in refused and "Ada" not in tls_server.by_nick
    finally:
        ada.close()


def test_a_table_found_with_tls_is_joined_at_its_tls_port_without_asking(tmp_path, certs, monkeypatch):
    """A table found on the network that announces TLS, picked by its number, and a seat taken
    from a server's list of tables: both go straight to the TLS port (its plain port is never
    asked where TLS is: that is a round trip in clear)."""
    import game.match.remote
    from game.netcode.server import Server
    from game.netcode.server_options import ServerOptions
    from game.rules.components import default_config
    cert, key = certs["one"]
    server = Server(default_config(), ServerOptions(host="127.0.0.1", port=0, data_dir=tmp_path / "srv", announce=True,
                                                    announce_name="Ada's table", announce_host="Ada",
                                                    tls_cert=cert, tls_key=key, tls_port=0))
    host, port = server.start()
    bea, said = text_client("Bea", data_dir())
    try:
        join = next(line for line in said if "Join a game on the network" in line)
        bea.line(join.split(".")[0])
        until(lambda: bea.line("list") or said.has(f"at 127.0.0.1:{port}, encrypted"), timeout=15)
        number = next(line for line in said if f"at 127.0.0.1:{port}, encrypted" in line).split(".")[0]
        asked: list = []     # the plain port asked where TLS is, while that would be a wasted round trip
        real = game.match.remote.offered_tls_port
        watching = [True]
        monkeypatch.setattr(game.match.remote, "offered_tls_port",
                            lambda *a, **k: asked.append(a) if watching[0] else real(*a, **k))
        bea.line(number)
        until(lambda: said.has("You choose how many play"), bea.tick)
        assert said.has(f"Connected securely to 127.0.0.1:{port}") and asked == []
        bea.line("leave")
        watching[0] = False
        bea.line(join.split(".")[0])
        bea.line(f"tables 127.0.0.1:{port}")             # asked on the plain port: its TLS port learnt
        until(lambda: said.has("quick for the Quick game"), bea.tick)
        watching[0] = True
        mark = len(said)
        bea.line("quick")
        until(lambda: said.has("You choose how many play", mark), bea.tick)
        assert said.has(f"Connected securely to 127.0.0.1:{port}", mark) and asked == []
    finally:
        bea.close()
        server.stop()
