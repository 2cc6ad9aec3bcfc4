"""The port opened by itself, in the text client on a real pty, with a stand-in router on
127.0.0.1: hosting says where friends on the internet join (or why they cannot, in the window's
words); a hosting game killed with kill -9 and hosted again leaves one mapping at the router, not
two (the game's port and its TLS port each once); quitting removes them."""
from __future__ import annotations

import json

import pytest
from support.pty import PtyProgram
from support.router import OUTSIDE, StandInRouter
from walk import free_port

from game.client import port_words as W

pytestmark = pytest.mark.timeout(60)


def _host(p: PtyProgram, port: int) -> int:
    """Host from the menu on ``port`` (another free one if a program took it meanwhile, as a
    player answers the question): the port hosted on."""
    line = p.expect("Host a game on this network")
    p.send(line.split(".")[0].strip())
    while "already in use" in p.expect("Your table is open on this network", "is already in use"):
        port = free_port()
        p.send(str(port))
    return port


def _settings(dirs, port: int) -> None:
    cfg = dirs / "cfg"
    cfg.mkdir(parents=True, exist_ok=True)
    (cfg / "settings.json").write_text(json.dumps({"nickname": "Ada", "server_port": port}), encoding="utf-8")


def test_a_hosting_game_killed_and_hosted_again_leaves_one_mapping(dirs):
    with StandInRouter(natpmp=False) as router:
        env = {"MOR_ROUTER": router.env()}
        first = free_port()
        _settings(dirs, first)
        with PtyProgram(["--plain"], seed=1, env=env) as p:
            first = _host(p, first)
            p.expect(W.OPEN.format(where=f"{OUTSIDE}:{first}", via="UPnP"))
            p.expect(W.LINK.format(link=f"mor://{OUTSIDE}:{first}"))
            router.wait_for(lambda: len(router.mappings()) == 2, "the game's port and its TLS port forwarded")
            left = {m.inside for m in router.mappings()}
            assert first in left
            p.kill()                                  # kill -9: nothing removed
        assert {m.inside for m in router.mappings()} == left
        second = free_port()
        _settings(dirs, second)                       # hosted again, on another port
        with PtyProgram(["--plain"], seed=1, env=env) as p:
            second = _host(p, second)
            assert "Your table is encrypted (TLS)" in p.expect("Your table is encrypted (TLS)", "Waiting room")
            p.expect(W.OPEN.format(where=f"{OUTSIDE}:{second}", via="UPnP"))
            now = {m.inside for m in router.mappings()}
            assert len(now) == 2 and second in now and not now & left, (left, now)   # its own two, and no more
            p.leave_and_quit()
        assert router.mappings() == []                # the game closed: the mapping too


def test_a_router_that_refuses_is_said_with_what_to_do(dirs):
    with StandInRouter(upnp=False, mode="refuse") as router:
        port = free_port()
        _settings(dirs, port)
        with PtyProgram(["--plain"], seed=1, env={"MOR_ROUTER": router.env()}) as p:
            port = _host(p, port)
            line = p.expect("Your router refused to open port")
            assert "(Not Authorized/Refused)" in line and f"forward TCP port {port}" in line, line
            tls = W.TLS_TOO.split("{tls}")                                  # its TLS port named too
            assert tls[0] in line and line.endswith(tls[1]), line
            p.leave_and_quit()
        assert router.mappings() == []


def test_a_host_without_a_router_prints_nothing_of_miniupnpc(dirs):
    """miniupnpc's C code prints ``connect: Connection refused`` to standard error when nobody
    answers: the player's terminal never shows it (the game's log does, at debug level)."""
    nobody = free_port()                              # (nothing listens there: every connection refused)
    port = free_port()
    _settings(dirs, port)
    env = {"MOR_ROUTER": f"upnp=http://127.0.0.1:{nobody}/rootDesc.xml,natpmp=127.0.0.1:{nobody},timeout=0.3"}
    with PtyProgram(["--plain"], seed=1, env=env) as p:
        port = _host(p, port)
        p.expect("No router answered when asked to open port")
        p.leave_and_quit()
    said = [line for line in p.lines if "connect:" in line or "Connection refused" in line or "miniupnpc" in line]
    assert said == [], said
