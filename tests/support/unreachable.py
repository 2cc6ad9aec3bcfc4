"""Servers a join fails at, each its own way, all on 127.0.0.1: nobody listening (a closed port),
no answer (a socket that listens and never accepts: the join's timeout made short), TLS asked of a
plain port, a plain knock at a TLS port, a certificate changed since the last visit, a full server,
a nickname already at the table. :func:`failing_join` sets one up and gives the address to type,
the nickname to join as, and the words both front ends must say."""
from __future__ import annotations

import socket
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from game.client import join_words as W
from game.client.address import hostport

KINDS = ("refused", "timed_out", "not_tls", "plain_at_tls", "changed_certificate", "full", "name_taken")
SHORT_TIMEOUT = 0.6
"""The join's timeout in these tests (game.client.tables.CONNECT_TIMEOUT), so that "no answer" is fast."""


def _server(stack: ExitStack, folder: Path, **options: Any) -> Any:
    from game.netcode.server import Server, ServerOptions
    from game.rules.components import default_config
    srv = Server(default_config(), ServerOptions(host="127.0.0.1", port=0, data_dir=folder, heartbeat=5, seed=3,
                                                 **options))
    srv.start()
    stack.callback(srv.stop)
    return srv


def failing_join(kind: str, stack: ExitStack, tmp_path: Path, certs: dict, monkeypatch: Any) -> tuple[str, str, str]:
    """(address to type, nickname, the words said) for a join that fails as ``kind`` (see
    :data:`KINDS`); what it starts is ended by ``stack``."""
    import game.client.tables as tables
    from game.settings import data_dir
    monkeypatch.setattr(tables, "CONNECT_TIMEOUT", SHORT_TIMEOUT)
    # each kind's servers met for the first time: a port 0 may be given again, and one that spoke
    # TLS for an earlier kind would be taken for a server whose identity changed
    (data_dir() / "known_servers").unlink(missing_ok=True)
    if kind == "refused":
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        return f"127.0.0.1:{port}", "Bea", W.REFUSED.format(where=hostport("127.0.0.1", port))
    if kind == "timed_out":
        s = stack.enter_context(socket.socket())
        s.bind(("127.0.0.1", 0))
        s.listen(1)           # the connection is made by the system, and nothing ever answers
        port = s.getsockname()[1]
        return f"127.0.0.1:{port}", "Bea", W.TIMED_OUT.format(where=hostport("127.0.0.1", port))
    if kind == "full":
        from game.match import RemoteMatch
        srv = _server(stack, tmp_path / "full", max_connections=1)
        first = RemoteMatch("127.0.0.1", srv.address[1], "Ada", connect_timeout=5, remember=False)
        stack.callback(first.close)
        port = srv.address[1]
        return f"127.0.0.1:{port}", "Bea", W.TURNED_AWAY.format(where=hostport("127.0.0.1", port),
                                                               words="The server is full: try again later.")
    if kind == "name_taken":
        from game.match import RemoteMatch
        srv = _server(stack, tmp_path / "taken")
        ada = RemoteMatch("127.0.0.1", srv.address[1], "Ada", connect_timeout=5, remember=False)
        stack.callback(ada.close)
        port = srv.address[1]
        return f"127.0.0.1:{port}", "Ada", W.NAME_TAKEN.format(nickname="Ada", where=hostport("127.0.0.1", port))
    cert, key = certs["one"]
    if kind == "not_tls":
        srv = _server(stack, tmp_path / "plain")
        port = srv.address[1]
        return f"tls://127.0.0.1:{port}", "Bea", W.NOT_TLS.format(where=hostport("127.0.0.1", port))
    srv = _server(stack, tmp_path / "tls", tls_cert=cert, tls_key=key, tls_port=0)
    if kind == "plain_at_tls":
        port = srv.tls_address[1]
        return f"127.0.0.1:{port}", "Bea", W.CLOSED.format(where=hostport("127.0.0.1", port))
    assert kind == "changed_certificate"
    from game.netcode.tls import fingerprint
    port = srv.address[1]
    data_dir().mkdir(parents=True, exist_ok=True)
    (data_dir() / "known_servers").write_text(f"127.0.0.1:{port} {fingerprint(b'another')}\n", encoding="utf-8")
    return f"127.0.0.1:{port}", "Bea", "Not connected: this is not the server you met"   # (its warning's title)
