"""A friend across the internet, for real: the host in its home network namespace behind a router
namespace, the guest in a third one on the router's outside, joined only through the router. The
router is the stand-in (tests/support/ns_router.py) granting UPnP mappings to the game's real
``miniupnpc`` and forwarding each for real (an iptables DNAT rule, or a relay of its own where
iptables is not to be had); it already forwards the port after the game's to another computer, so
the hosted game's TLS port gets another number outside. The host hosts as the app's flow does and
shows the link; the guest opens that link and moves to TLS at the number the router gave; both
play a seeded game through their sessions, the host killed with kill -9 and hosting again, then
the guest killed and joining again, to the game's end. Closing the host removes its mappings.

Skipped, saying why, where network namespaces cannot be made (not Linux, not root, a container
that forbids them)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from support.netns import HOST, ROUTER_INSIDE, ROUTER_OUTSIDE, Network, nat_kind, why_not

from game.client import port_words as W

REASON = why_not()
pytestmark = [pytest.mark.timeout(60), pytest.mark.skipif(REASON is not None, reason=str(REASON))]

SUPPORT = Path(__file__).resolve().parents[1] / "support"
PORT = 41015
TLS = PORT + 1          # (taken at the router by another computer: the game's TLS port gets PORT + 2 outside)


def test_a_guest_on_the_internet_joins_by_the_link_over_tls_and_both_come_back(tmp_path):
    py = sys.executable
    programs = []

    def start(net, ns, name, *argv, env=None):
        p = net.start(ns, [py, *argv], tmp_path / f"{name}.err", env)
        programs.append(p)
        return p

    with Network() as net:
        try:
            router = start(net, net.router, "router", str(SUPPORT / "ns_router.py"), ROUTER_INSIDE, ROUTER_OUTSIDE,
                           nat_kind(), str(TLS))
            env = {"MOR_ROUTER": router.expect("ENV"), "MOR_LAN_INTERFACES": HOST, "MOR_SEED": "7"}
            home = str(tmp_path / "ada")
            host = start(net, net.home, "host", str(SUPPORT / "ns_player.py"), "host", home, str(PORT), "1", env=env)
            assert host.expect("WORDS") == W.OPEN.format(where=f"{ROUTER_OUTSIDE}:{PORT}", via="UPnP")
            link = host.expect("LINK")
            assert link == f"mor://{ROUTER_OUTSIDE}:{PORT}"
            assert {router.expect("ADD"), router.expect("ADD")} == {f"{PORT} {PORT}", f"{PORT + 2} {TLS}"}

            away = str(tmp_path / "bea")
            guest = start(net, net.internet, "guest", str(SUPPORT / "ns_player.py"), "guest", away, link, "2")
            assert guest.expect("SEATED") == f"True {PORT + 2}"      # encrypted, at the TLS port's outside number
            assert host.expect("SEATED", timeout=15).startswith("True")
            host.expect("MOVED 10", timeout=15)

            host.kill()                                               # kill -9: the server goes with it
            host = start(net, net.home, "host-again", str(SUPPORT / "ns_player.py"), "host", home, str(PORT), "1",
                         "again", env=env)
            assert host.expect("WORDS") == W.OPEN.format(where=f"{ROUTER_OUTSIDE}:{PORT}", via="UPnP")
            assert host.expect("SEATED", timeout=15).startswith("True")
            host.expect("MOVED 10", timeout=15)                       # the game goes on: the guest came back

            guest.kill()
            guest = start(net, net.internet, "guest-again", str(SUPPORT / "ns_player.py"), "guest", away, link, "3")
            assert guest.expect("SEATED") == f"True {PORT + 2}"       # its seat taken back, by its token
            winner = guest.expect("ENDED", timeout=30)
            assert winner in ("Ada", "Bea") and host.expect("ENDED", timeout=10) == winner
            assert guest.wait() == 0

            host.close_input()                                        # hosting stops: the mappings go
            assert host.wait() == 0
            assert {router.expect("REMOVE"), router.expect("REMOVE")} >= {f"{PORT} {PORT}", f"{PORT + 2} {TLS}"}
            for p in programs:                                        # nothing went wrong on either side
                assert not [line for line in p.errors(0).splitlines()
                            if line.startswith(("ERROR", "CRITICAL", "Traceback"))], (p.log.stem, p.errors())
        except AssertionError:
            for p in programs:              # (what each said last, shown with the failure)
                print(p.log.stem, p.seen[-6:], p.errors()[-600:])
            raise
        finally:
            for p in programs:
                p.close_input()
                p.kill()
