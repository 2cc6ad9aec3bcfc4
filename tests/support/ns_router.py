"""The stand-in router (tests/support/router.py) as the router of a network namespace, for
tests/portmap/test_across_namespaces.py: its UPnP IGD listens on the inside address, it reports
the namespace's outside address, and each mapping it grants is forwarded for real, at once: an
``iptables`` DNAT rule (``iptables``) or, where iptables is not to be had, a forwarder of its
own that listens at the outside port and relays each connection to the inside one
(``relay``; also where iptables cannot use its NAT table). Removed mappings stop being forwarded.

    python tests/support/ns_router.py INSIDE OUTSIDE NAT [HELD_PORT]

``HELD_PORT``: an outside port already forwarded to another computer (the game's mapping of that
number gets another). It prints ``ENV <MOR_ROUTER value>``, then ``ADD out in`` and ``REMOVE out
in`` as mappings come and go, and runs until its standard input ends.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from support.relay import Relay                          # noqa: E402
from support.router import Mapping, StandInRouter      # noqa: E402


def say(*words: object) -> None:
    print(*words, flush=True)


def main() -> None:
    inside, outside, nat, *held = sys.argv[1:]
    if nat == "iptables" and subprocess.run(["iptables", "-t", "nat", "-L", "-n"], capture_output=True).returncode:
        nat = "relay"              # (iptables without its NAT table here, as in some containers)
    relays: dict[int, Relay] = {}

    def rule(op: str, m: Mapping) -> list[str]:
        return ["iptables", "-t", "nat", op, "PREROUTING", "-d", outside, "-p", "tcp", "--dport", str(m.outside),
                "-j", "DNAT", "--to-destination", f"{m.client}:{m.inside}"]

    def on_map(what: str, m: Mapping) -> None:
        if nat == "iptables" and m.outside not in relays:
            done = subprocess.run(rule("-A" if what == "add" else "-D", m), check=False, capture_output=True)
            if done.returncode == 0 or what != "add":
                say(what.upper(), m.outside, m.inside)
                return
            print(f"iptables refused the rule ({done.stderr!r}): relayed instead", file=sys.stderr)
        if what == "add":
            relays[m.outside] = Relay((m.client, m.inside), listen=(outside, m.outside))
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
