"""A TCP relay a test puts in front of a port: every connection made to it is relayed to the
target, both ways, until either side closes. It can keep what clients sent through it
(``record``: to show that a token never crossed in the clear), and it stands in for a router's
port forwarding (tests/support/ns_router.py)."""
from __future__ import annotations

import socket
import threading


class Relay:
    """Connections to ``listen`` (any free port of 127.0.0.1 by default; :attr:`address`)
    relayed to ``target``; with ``record``, what the clients sent is kept in :attr:`sent`.
    :meth:`close` stops listening (the port is free again when it returns) and cuts what it relays."""

    def __init__(self, target: tuple[str, int], listen: tuple[str, int] = ("127.0.0.1", 0),
                 record: bool = False) -> None:
        self.target = target
        self.record = record
        self.sent = bytearray()
        self.listener = socket.create_server(listen)
        self.listener.settimeout(0.1)
        self.address = self.listener.getsockname()[:2]
        self._closed = threading.Event()
        self._socks: list[socket.socket] = []
        self._thread = threading.Thread(target=self._accept, daemon=True, name="relay")
        self._thread.start()

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                client, _ = self.listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            try:
                server = socket.create_connection(self.target, timeout=3)
            except OSError:
                client.close()
                continue
            server.settimeout(None)
            self._socks += [client, server]
            threading.Thread(target=self._pipe, args=(client, server, self.record), daemon=True).start()
            threading.Thread(target=self._pipe, args=(server, client, False), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket, record: bool) -> None:
        try:
            while data := src.recv(65536):
                if record:
                    self.sent += data
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self) -> None:
        self._closed.set()
        self._thread.join(2)
        self.listener.close()
        for s in self._socks:
            try:
                s.close()
            except OSError:
                pass
