"""The stand-in router (tests/support/router.py) as the router of a network namespace, for
tests/portmap/test_across_namespaces.py: its UPnP IGD listens on the inside address, it reports
the namespace's outside address, and each mapping it grants is forwarded for real, at once: an
``iptables`` DNAT rule (``--nat iptables``) or, where iptables is not to be had, a forwarder of its
own that listens at the outside port and relays each connection to the inside one
(``--nat relay``). Removed mappings stop being forwarded.

    python tests/support/ns_router.py INSIDE OUTSIDE NAT [HELD_PORT]

``HELD_PORT``: an outside port already forwarded to another computer (the game's mapping of that
number gets another). It prints ``ENV <MOR_ROUTER value>``, then ``ADD out in`` and ``REMOVE out
in`` as mappings come and go, and runs until its standard input ends.
"""
from __future__ import annotations

import socket
import subprocess
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from support.router import Mapping, StandInRouter      # noqa: E402


def say(*words: object) -> None:
    print(*words, flush=True)


class Relay:
    """Connections to ``(outside, port)`` relayed to ``(client, inside)``, until :meth:`close`."""

    def __init__(self, outside: str, port: int, client: str, inside: int) -> None:
        self.to = (client, inside)
        self.listener = socket.create_server((outside, port), reuse_port=False)
        self.listener.settimeout(0.2)
        self.closed = threading.Event()
        self.open: list[socket.socket] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while not self.closed.is_set():
            try:
                near, _ = self.listener.accept()
            except (socket.timeout, OSError):
                continue
            try:
                far = socket.create_connection(self.to, timeout=3)
            except OSError:
                near.close()
                continue
            self.open += [near, far]
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self) -> None:
        """Stop forwarding (the port is free again when this returns)."""
        self.closed.set()
        self.thread.join(2)
        self.listener.close()
        for s in self.open:
            try:
                s.close()
            except OSError:
                pass


def main() -> None:
    inside, outside, nat, *held = sys.argv[1:]
    relays: dict[int, Relay] = {}

    def rule(op: str, m: Mapping) -> list[str]:
        return ["iptables", "-t", "nat", op, "PREROUTING", "-d", outside, "-p", "tcp", "--dport", str(m.outside),
                "-j", "DNAT", "--to-destination", f"{m.client}:{m.inside}"]

    def on_map(what: str, m: Mapping) -> None:
        if nat == "iptables":
            subprocess.run(rule("-A" if what == "add" else "-D", m), check=False, capture_output=True)
        elif what == "add":
            relays[m.outside] = Relay(outside, m.outside, m.client, m.inside)
        elif m.outside in relays:
            relays.pop(m.outside).close()
        say(what.upper(), m.outside, m.inside)

    with StandInRouter(natpmp=False, bind=inside, outside=outside, on_map=on_map) as router:
        for port in held:            # another computer's, granted before the game asks
            router.table[("TCP", int(port))] = Mapping("upnp", "TCP", int(port), "10.77.1.9", 443, "Someone else",
                                                       0, 0.0)
        say("ENV", router.env(timeout=0.5))
        sys.stdin.read()
        for relay in relays.values():
            relay.close()


if __name__ == "__main__":
    main()
