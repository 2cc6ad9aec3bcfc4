"""One side of a game across network namespaces (tests/portmap/test_across_namespaces.py), run as
a program of its own in its namespace: ``host`` hosts as the app's flow does (the server, the
router asked to open its ports, the link to send, the host's own seat), ``guest`` opens the link
as a front end does (a seat asked at the address it names; TLS as the server says). Each plays
its own moves through its session (seeded random legal moves, read from its own view), and says
what happens on standard output, one line each, for the test to read:

``WORDS <the host page's sentence>``, ``LINK mor://...``, ``SEATED <secure> <tls port or ->``,
``MOVED <n>`` (its own moves sent so far), ``IDLE ...`` (nothing to do for a while: whose turn it
is), ``ENDED <winner>``.

    python tests/support/ns_player.py host DATA PORT SEED [again]
    python tests/support/ns_player.py guest DATA LINK SEED

The host stops hosting when its standard input ends (the test closes it); a guest, once the game
has ended. Either may be killed (kill -9) at any time and started again with the same DATA: the
host brings its game back, the guest takes its seat back by the token kept in DATA.
"""
from __future__ import annotations

import random
import select
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from game.client.games import default_config                     # noqa: E402
from game.client.session import GameSession                      # noqa: E402
from game.rules.playout import choose                            # noqa: E402
from game.rules.shadow import shadow_game                        # noqa: E402

CONFIG = default_config()
RETRY = (0.2, 0.3, 0.5, 0.5, 1, 1, 1, 2, 2, 2, 3, 3)
"""A lost connection tried again soon (the host comes back within seconds)."""


def say(*words: object) -> None:
    print(*words, flush=True)


def play(session: GameSession, rng: random.Random, deadline: float, stop=lambda: False) -> str:
    """The player's own moves, until the game ends (its winner) or ``stop()`` says so ("")."""
    nick, moved, waiting, sent = session.nickname, 0, 0.0, -1
    idle = time.monotonic()
    while time.monotonic() < deadline:
        got = session.pump()
        if waiting and not got and session.version != sent:
            waiting = 0.0                      # the answer to the last move came (and nothing more is coming)
        if stop():
            return ""
        g = session.vm.game
        if g is not None and g.get("ended"):
            return str(g.get("winnerPlayer", ""))
        if g is not None and (not waiting or time.monotonic() - waiting > 3.0):
            action = choose(shadow_game(g, CONFIG, nick), nick, rng)
            if action is None and time.monotonic() - idle > 2:
                idle = time.monotonic()
                say("IDLE", g.get("currentPlayer"), g.get("isSetupDone"), g.get("isMandatoryActionDone"),
                    [p.get("nickname") for p in g.get("players", ())])
            if action is not None:
                idle = time.monotonic()
                sent = session.version
                session.send(action)
                moved += 1
                waiting = time.monotonic()
                say("MOVED", moved)
        time.sleep(0.005)
    raise SystemExit(f"{nick}: the game did not end in time")


def stdin_closed() -> bool:
    ready, _, _ = select.select([sys.stdin], [], [], 0)
    return bool(ready) and not sys.stdin.readline()


def host(data: Path, port: int, seed: int, again: bool) -> None:
    from game.client.flow.hosting import join_own_table, start_hosting
    from game.client.flow.port_opening import port_mapping, port_words, share_link
    from game.client.lan import lan_addresses
    from game.portmap import State
    server = start_hosting(CONFIG, port, data, "Ada", 0.05, open_port=True)
    try:
        lan = lan_addresses()
        deadline = time.monotonic() + 8
        while (port_mapping(server) is None or port_mapping(server).state is State.ASKING) \
                and time.monotonic() < deadline:
            time.sleep(0.02)
        say("WORDS", port_words(port_mapping(server), lan, port))
        say("LINK", share_link(server, lan))
        session = join_own_table(port, "Ada", CONFIG, token_file=data / "seats.json")
        session.match.retry_delays = RETRY
        deadline = time.monotonic() + 30
        while not session.vm.has_game:                       # the guest awaited (the kept game: back at once)
            session.pump()
            if not again and session.lobby.booked == 2:
                session.match.new_game(2)
                again = True
            if time.monotonic() > deadline:
                raise SystemExit("no game began")
            time.sleep(0.01)
        say("SEATED", session.match.secure, "-")
        winner = play(session, random.Random(seed), time.monotonic() + 60, stdin_closed)
        if winner:
            say("ENDED", winner)
        while not stdin_closed():                            # hosted until the test says
            session.pump()
            time.sleep(0.02)
        session.close()
    finally:
        server.stop()
        mapper_end = time.monotonic() + 3                    # (the mapping removed before the exit)
        while port_mapping(server) is not None and port_mapping(server).state is not State.CLOSED \
                and time.monotonic() < mapper_end:
            time.sleep(0.02)


def guest(data: Path, link_text: str, seed: int) -> None:
    from game.client.links import parse_link
    from game.client.tables import Seating
    link = parse_link(link_text)
    seat = Seating(link.host, link.port, "Bea", CONFIG, token_file=data / "seats.json",
                   **({"code": link.code} if link.code else {}))
    deadline = time.monotonic() + 20
    while seat.poll() not in ("seated", "failed"):
        if time.monotonic() > deadline:
            raise SystemExit("no seat")
        time.sleep(0.01)
    if seat.state != "seated":
        raise SystemExit(f"not seated: {seat.error}")
    session = seat.session
    session.match.retry_delays = RETRY
    say("SEATED", session.match.secure, session.match.tls_port or "-")
    winner = play(session, random.Random(seed), time.monotonic() + 60)
    say("ENDED", winner)
    session.close()


if __name__ == "__main__":
    import faulthandler
    import logging
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    faulthandler.dump_traceback_later(15, repeat=True)    # (a program stuck says where, in its log)
    role, data, where, seed, *rest = sys.argv[1:]
    folder = Path(data)
    folder.mkdir(parents=True, exist_ok=True)
    if role == "host":
        host(folder, int(where), int(seed), "again" in rest)
    else:
        guest(folder, where, int(seed))
