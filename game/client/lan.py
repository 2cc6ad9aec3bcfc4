"""Playing over the network from the client: hosting a table in this process, finding tables on
the local network, the games a host keeps (pure Python, no pygame).

The scenes use these rather than :mod:`game.netcode` itself.
"""
from __future__ import annotations

import json
import logging
import socket
from pathlib import Path
from typing import TYPE_CHECKING

from game.netcode.discovery import Browser, FoundGame
from game.netcode.store import GameLog, GameStore
from game.rules.components import GameConfig

if TYPE_CHECKING:
    from game.netcode.server import Server

log = logging.getLogger("mor.host")

__all__ = ["Browser", "FoundGame", "end_saved_hosted_games", "lan_addresses", "host_server", "saved_hosted_games",
           "saved_hosted_players"]


def host_server(config: GameConfig, port: int, data_dir: Path, nickname: str, bot_delay: float) -> Server:
    """A game server for ``nickname``'s table, started in this process on ``port`` (0: any free
    one) and announced on the local network, keeping its games in ``data_dir``; it serves TLS too,
    on the next port (or any free one), with the certificate it made for itself the first time
    (:func:`game.netcode.own_cert.own_certificate`), so that our clients join encrypted.

    :raises OSError: the port is taken, or the data directory is another server's.
    """
    from game.netcode.server import Server    # (the server's modules load only to host)
    from game.netcode.server_options import ServerOptions
    try:                                      # encrypted by default, with a certificate of its own
        from game.netcode.own_cert import own_certificate
        cert: Path | None
        cert, key = own_certificate(data_dir)
    except (OSError, ImportError, ValueError) as e:
        log.warning("hosting without TLS: no certificate (%s)", e)
        cert = key = None
    # TLS on the port after the game's (any free one when that is taken, or when the game's is any)
    tls_ports = ([port + 1] if 0 < port < 65535 else []) + [0] if cert is not None else [None]
    for i, tls_port in enumerate(tls_ports):
        server = Server(config, ServerOptions(host="0.0.0.0", port=port, data_dir=data_dir,
                                              announce_name=f"{nickname}'s table", announce_host=nickname,
                                              bot_delay=bot_delay, bot_processes=True,
                                              # the host's own table: the host chooses when to start,
                                              # waits as long as it likes, and seats as many bots as
                                              # its own machine thinks for
                                              head_time=0.0, lobby_time=0.0, bot_load=0.0,
                                              # a guest whose game crashed or whose link went
                                              # silent keeps the seat a while, the others told
                                              away_grace=30.0,
                                              # a friend who walks away: the computer plays their
                                              # turn once its time runs out, but their seat stays
                                              # theirs; alone with one's own bots, no clock
                                              seat_given_after=0, seat_clock_bots=False,
                                              tls_cert=cert, tls_key=key, tls_port=tls_port))
        try:
            server.start()
            return server
        except OSError:
            if i == len(tls_ports) - 1:
                raise
    raise AssertionError("unreachable")


def saved_hosted_players(data_dir: Path) -> set[str]:
    """The people of the unfinished games kept in a server data directory (from the logs' headers)."""
    return {n for _path, people in saved_hosted_games(data_dir) for n in people}


def saved_hosted_games(data_dir: Path, me: str | None = None) -> list[tuple[Path, list[str]]]:
    """The unfinished games kept in a server data directory (``me`` at them, if given): each
    log's path and its people (the bots left out), from the logs' headers."""
    out: list[tuple[Path, list[str]]] = []
    folder = data_dir / "games"
    try:
        names = sorted(p for p in folder.iterdir() if p.suffix == ".jsonl" and p.stem.isdigit())
    except OSError:
        return out
    for path in names:
        try:
            with open(path, "rb") as f:
                header = json.loads(f.readline())
                f.seek(0, 2)
                size = f.tell()
                f.seek(max(0, size - 16))
                if f.read().endswith(b'["end"]\n'):
                    continue
        except (OSError, ValueError):
            continue
        bots = header.get("bots") or {}
        people = [str(n) for n in header.get("nicknames") or () if n not in bots]
        if me is None or me in people:
            out.append((path, people))
    return out


def end_saved_hosted_games(data_dir: Path, me: str) -> int:
    """End the unfinished games kept in a server data directory that ``me`` plays (their logs
    marked ended and put with the finished ones: they are not brought back any more). Returns
    how many. Only while this app does not host (the data directory is taken for the while).

    :raises OSError: another game server uses the data directory, or a log cannot be written.
    """
    store = GameStore(data_dir)
    store.lock()
    try:
        games = saved_hosted_games(data_dir, me)
        for path, _people in games:
            GameLog(path, fsync=True).finish()
        return len(games)
    finally:
        store.unlock()


def lan_addresses() -> list[str]:
    """This computer's LAN IPv4 addresses, best first (never loopback).

    A UDP socket "connected" to a private address makes the system choose the interface it would
    route through; no packet is sent.
    """
    found: list[str] = []
    for probe in ("192.168.255.255", "10.255.255.255", "172.31.255.255", "203.0.113.1"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                ip = s.getsockname()[0]
        except OSError:
            continue
        if ip and not ip.startswith(("127.", "0.")) and ip not in found:
            found.append(ip)
    try:
        for ip in socket.gethostbyname_ex(socket.gethostname())[2]:
            if not ip.startswith(("127.", "0.")) and ip not in found:
                found.append(ip)
    except OSError:
        pass
    return found
