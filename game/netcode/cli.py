"""The server's command line: ``python server.py --help`` or the installed ``mor-server``.

Hosts many games at once over TCP with the reference protocol (newline-delimited JSON). Every
accepted request is written to the data directory before it is answered, and unfinished games
are restored when the server starts again.

Once it listens, the server prints one line to standard output,
``mor-server: listening on HOST:PORT`` (with the real port when ``--port 0`` is given); everything
else goes to the log on standard error. SIGTERM or SIGINT stop it cleanly (exit code 0); unfinished
games stay saved either way, even after SIGKILL.
"""
from __future__ import annotations

import argparse
import logging
import signal
import ssl
import sys
import time
from pathlib import Path

from game.rules.components import ConfigError, load_config

from .connection import LINE_BURST
from .server_options import ServerOptions
from .tls import TLS_BURST
from .outbox import MAX_QUEUED_BYTES
from .watchers import WATCH_BURST

log = logging.getLogger("mor.server")


def _positive(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="mor-server", description="Masters of Renaissance multiplayer server.",
        epilog="Prints 'mor-server: listening on HOST:PORT' on standard output once it accepts "
               "connections. SIGTERM or SIGINT stop it with exit code 0; unfinished games are "
               "restored from --data-dir at the next start.")
    ap.add_argument("--host", default="0.0.0.0",
                    help="address to listen on (default 0.0.0.0: every interface; 127.0.0.1 for this machine only)")
    ap.add_argument("--port", type=int, default=51015,
                    help="TCP port to listen on (default 51015; 0 picks a free one, printed at start)")
    ap.add_argument("--config", metavar="FILE", default=None,
                    help="game configuration file (default: config/default.json)")
    ap.add_argument("--data-dir", metavar="DIR", default="server-data",
                    help="where games are saved and restored from (default ./server-data); one server at a "
                         "time may use it")
    ap.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                    help="how much to log on standard error (default INFO)")
    ap.add_argument("--compat-rejoin", action="store_true",
                    help="let clients without a rejoin token retake a dropped seat by nickname alone "
                         "(what reference clients need; anyone who knows the nickname could take the seat)")
    ap.add_argument("--heartbeat", type=_positive, default=12.5, metavar="SECONDS",
                    help="seconds without a line from a client before the server sends ReqHeartbeat; "
                         "a client silent for twice that is dropped (default 12.5, as the reference)")
    ap.add_argument("--grace", type=_positive, default=600.0, metavar="SECONDS",
                    help="seconds an unfinished game with nobody connected is kept before it is removed "
                         "for good (default 600)")
    ap.add_argument("--away-grace", type=float, default=30.0, metavar="SECONDS",
                    help="seconds a player whose connection ended without a goodbye (closed, or silent "
                         "past the heartbeat) keeps their seat and turn, counted from their last message; "
                         "the others are told who is away and for how long (default 30; 0: at once)")
    ap.add_argument("--restart-grace", type=float, default=30.0, metavar="SECONDS",
                    help="after a restart, seconds the players of a restored game have to come back before "
                         "they are marked away and their turns skipped; until then the turn waits for its "
                         "player (default 30; 0: at once)")
    ap.add_argument("--status-interval", type=float, default=60.0, metavar="SECONDS",
                    help="seconds between two status lines in the log: connections, games in progress, "
                         "lines per second, memory (default 60; 0 for none; nothing while idle)")
    ap.add_argument("--fsync", action="store_true",
                    help="also fsync every saved request (survives power loss, slower; a killed server "
                         "loses nothing either way)")
    ap.add_argument("--bot-delay", type=float, default=0.6, metavar="SECONDS",
                    help="seconds at least between two moves of the bots of one game, so that the people "
                         "at the table can follow them (default 0.6; 0 for none)")
    ap.add_argument("--announce", action=argparse.BooleanOptionalAction, default=None,
                    help="announce the server on the local network (mDNS/DNS-SD, service _mor._tcp), so "
                         "that players find it in Join without typing an address (default: on, unless "
                         "--host is a loopback address such as 127.0.0.1)")
    ap.add_argument("--name", default="", metavar="TEXT",
                    help="the table's name in the announcement (default: \"<first waiting player>'s table\")")
    ap.add_argument("--bot-threads", action="store_true",
                    help="let bots think in threads of the server's process instead of a worker process")
    ap.add_argument("--tls-cert", metavar="PEM", type=Path, default=None,
                    help="serve TLS too, with this certificate (chain), on --tls-port; the plain port "
                         "stays for reference clients (see docs/server.md)")
    ap.add_argument("--tls-key", metavar="PEM", type=Path, default=None,
                    help="the certificate's private key (default: in the --tls-cert file)")
    ap.add_argument("--tls-port", type=int, default=None, metavar="N",
                    help="the TLS port (default: --port + 1)")
    ap.add_argument("--stall-log", type=float, default=0.0, metavar="MS",
                    help="diagnostic: log (WARNING) every wake-up of the server's loop that takes longer "
                         "than MS milliseconds, with what ran in it (default 0: off)")
    lim = ap.add_argument_group(
        "limits", "What one stranger may take of the server (docs/server.md, 'On the internet'); 0 lifts a limit.")
    d = ServerOptions()
    lim.add_argument("--max-connections", type=_count, default=d.max_connections, metavar="N",
                     help=f"connections at once; past them a newcomer is told the server is full (default "
                          f"{d.max_connections}, and always under the limit of open files, which the server raises "
                          f"as far as it may)")
    lim.add_argument("--max-per-address", type=_count, default=d.max_per_address, metavar="N",
                     help=f"connections at once from one IP address (an IPv6 /56: a home line) (default {d.max_per_address})")
    lim.add_argument("--max-per-network", type=_count, default=d.max_per_network, metavar="N",
                     help=f"connections at once from one IPv6 network, a /48 (256 home lines' /56s) "
                          f"(default {d.max_per_network})")
    lim.add_argument("--keep-finished", type=_count, default=d.keep_finished, metavar="N",
                     help=f"finished games' logs kept for replays (the newest N; older ones are removed; 0 keeps "
                          f"all) (default {d.keep_finished})")
    lim.add_argument("--join-time", type=_seconds, default=d.join_time, metavar="SECONDS",
                     help=f"seconds a new connection has to send its nickname (ReqJoin) (default {d.join_time:g})")
    lim.add_argument("--lobby-time", type=_seconds, default=d.lobby_time, metavar="SECONDS",
                     help=f"seconds a player may stay connected outside a game in progress: waiting, or after "
                          f"their game ended (default {d.lobby_time:g})")
    lim.add_argument("--head-time", type=_seconds, default=d.head_time, metavar="SECONDS",
                     help=f"seconds the first of the waiting list has to choose the number of players while "
                          f"others wait; then it goes to the back and the next is asked (default {d.head_time:g})")
    lim.add_argument("--line-rate", type=_seconds, default=d.line_rate, metavar="LINES",
                     help=f"lines a second one connection is served, after a burst of {LINE_BURST:g} s' worth; "
                          f"a faster sender is simply read more slowly (default {d.line_rate:g})")
    lim.add_argument("--tls-handshake-rate", type=_seconds, default=d.tls_handshake_rate, metavar="N",
                     help=f"new TLS handshakes a second from one address, after a burst of {TLS_BURST:g} s' worth; "
                          f"past it a handshake waits its turn (up to {TLS_BURST:g} s, then the connection is "
                          f"closed) (default {d.tls_handshake_rate:g})")
    lim.add_argument("--max-tls-handshakes", type=_count, default=d.max_tls_handshakes, metavar="N",
                     help=f"TLS handshakes in progress at once on the whole server; past them a handshake waits "
                          f"for one to end (default {d.max_tls_handshakes})")
    lim.add_argument("--tls-handshakes-in-all", type=_seconds, default=d.tls_handshakes_in_all, metavar="N",
                     help=f"TLS handshakes begun a second on the whole server (each costs the loop about 0.6 ms); "
                          f"past them a handshake waits its turn, the addresses taking turns "
                          f"(default {d.tls_handshakes_in_all:g})")
    lim.add_argument("--tls-handshake-time", type=_seconds, default=d.tls_handshake_time, metavar="SECONDS",
                     help=f"seconds a TLS handshake may hold one of --max-tls-handshakes; then it gives it back "
                          f"and waits its turn again when its client says more (a stalled handshake holds "
                          f"nobody out; 0: no limit) (default {d.tls_handshake_time:g})")
    lim.add_argument("--max-output", type=_count, default=MAX_QUEUED_BYTES, metavar="BYTES",
                     help=f"bytes waiting to be sent to one connection; past them it is not reading and is "
                          f"dropped (default {MAX_QUEUED_BYTES})")
    lim.add_argument("--max-output-total", type=_count, default=d.max_output_total, metavar="BYTES",
                     help=f"bytes waiting to be sent to all connections together; past them the connections "
                          f"that are behind are dropped (default {d.max_output_total})")
    lim.add_argument("--tables-per-address", type=_count, default=d.tables_per_address, metavar="N",
                     help=f"games in progress and open tables started from one address "
                          f"(default {d.tables_per_address})")
    lim.add_argument("--bots-per-address", type=_count, default=d.bots_per_address, metavar="N",
                     help=f"computer players in games in progress started from one address "
                          f"(default {d.bots_per_address})")
    lim.add_argument("--max-bots", type=_count, default=d.max_bots, metavar="N",
                     help=f"computer players in games in progress on the whole server (default {d.max_bots})")
    lim.add_argument("--bot-load", type=_share, default=d.bot_load, metavar="SHARE",
                     help=f"share of the bot workers' time past which no more games with bots are admitted, "
                          f"so that those under way keep their pace; 0 lifts it (default {d.bot_load:g})")
    lim.add_argument("--keys-per-address", type=_count, default=d.keys_per_address, metavar="N",
                     help=f"new player keys kept in an hour from one address (default {d.keys_per_address})")
    lim.add_argument("--max-players", type=_count, default=d.max_players, metavar="N",
                     help=f"players (keys) the server keeps with their ratings (default {d.max_players})")
    lim.add_argument("--ratings-rate", type=_seconds, default=d.ratings_rate, metavar="N",
                     help=f"leaderboards a second one connection is answered, after a burst of 3 "
                          f"(default {d.ratings_rate:g})")
    lim.add_argument("--turn-tables-per-address", type=_count, default=d.turn_tables_per_address, metavar="N",
                     help=f"turn-based tables open and turn-based games under way started from one address "
                          f"(default {d.turn_tables_per_address})")
    lim.add_argument("--games-per-key", type=_count, default=d.games_per_key, metavar="N",
                     help=f"unfinished games one player key may have on the server (default {d.games_per_key})")
    ap.add_argument("--wake-batch", type=_count, default=d.wake_batch, metavar="N",
                    help=f"turn-based games replayed from their files per wake-up after a start (0: only when "
                         f"needed; default {d.wake_batch})")
    lim.add_argument("--seat-time", type=_seconds, default=d.seat_time, metavar="SECONDS",
                     help=f"seconds a player of a real-time game has for a turn; then the computer plays that "
                          f"turn for them (0: no clock) (default {d.seat_time:g})")
    lim.add_argument("--setup-time", type=_seconds, default=d.setup_time, metavar="SECONDS",
                     help=f"seconds a player of a real-time game has for the setup choices (leaders and "
                          f"resources); then the computer chooses (0: no clock) (default {d.setup_time:g})")
    lim.add_argument("--seat-given-after", type=_count, default=d.seat_given_after, metavar="N",
                     help=f"turns run out in a row after which the computer plays the seat to the end of the "
                          f"game (0: never) (default {d.seat_given_after})")
    lim.add_argument("--max-game-moves", type=_count, default=d.max_game_moves, metavar="N",
                     help=f"calls (moves, undos, departures) one game keeps, once the requests taken back are "
                          f"dropped; past them only ending a turn is taken from people (default {d.max_game_moves})")
    lim.add_argument("--max-turn-moves", type=_count, default=d.max_turn_moves, metavar="N",
                     help=f"requests in a row one player may make that an undo could still take back (swaps, "
                          f"moves); past them only ending the turn or an undo is taken (0: no limit) "
                          f"(default {d.max_turn_moves})")
    ap.add_argument("--move-time-scale", type=float, default=d.move_time_scale, metavar="X",
                    help="multiply turn-based tables' time per move by X (for tests; default 1)")
    lim.add_argument("--max-watchers-per-table", type=_count, default=d.max_watchers_per_table, metavar="N",
                     help=f"connections watching one table (default {d.max_watchers_per_table})")
    lim.add_argument("--max-watchers", type=_count, default=d.max_watchers, metavar="N",
                     help=f"connections watching a table, on the whole server (default {d.max_watchers})")
    lim.add_argument("--watch-rate", type=_seconds, default=d.watch_rate, metavar="N",
                     help=f"watch requests a second from one address, after a burst of {WATCH_BURST:g}; past it "
                          f"they are refused (default {d.watch_rate:g})")
    lim.add_argument("--watcher-output", type=_count, default=d.watcher_output, metavar="BYTES",
                     help=f"bytes waiting to be sent to a watcher when an update comes; past them it is behind "
                          f"and is dropped (default {d.watcher_output})")
    return ap


def _share(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be from 0 to 1, not {text}")
    return value


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
    return value


def _seconds(text: str) -> float:
    value = float(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
    return value


def main(argv: list[str] | None = None) -> int:
    """Run the server until SIGTERM/SIGINT. Returns the exit code (0, or 1/2 when it cannot start)."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=args.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        config = load_config(args.config)
    except ConfigError as e:
        log.error("bad configuration: %s", e)
        return 2
    from game.netcode.heap import FrozenHeap
    from game.netcode.server import Server
    options = ServerOptions(host=args.host, port=args.port, data_dir=Path(args.data_dir),
                            compat_rejoin=args.compat_rejoin, heartbeat=args.heartbeat,
                            grace=args.grace, restart_grace=max(0.0, args.restart_grace),
                            away_grace=max(0.0, args.away_grace), fsync=args.fsync,
                            status_interval=max(0.0, args.status_interval),
                            bot_delay=max(0.0, args.bot_delay), bot_processes=not args.bot_threads,
                            announce=args.announce, announce_name=args.name.strip(),
                            tls_cert=args.tls_cert, tls_key=args.tls_key, tls_port=args.tls_port,
                            max_connections=args.max_connections, max_per_address=args.max_per_address,
                            max_per_network=args.max_per_network, keep_finished=args.keep_finished,
                            join_time=args.join_time, lobby_time=args.lobby_time, head_time=args.head_time,
                            line_rate=args.line_rate, tls_handshake_rate=args.tls_handshake_rate,
                            max_tls_handshakes=args.max_tls_handshakes,
                            tls_handshakes_in_all=args.tls_handshakes_in_all,
                            tls_handshake_time=args.tls_handshake_time,
                            max_output=args.max_output,
                            max_output_total=args.max_output_total, tables_per_address=args.tables_per_address,
                            bots_per_address=args.bots_per_address, max_bots=args.max_bots,
                            bot_load=args.bot_load, stall_log=max(0.0, args.stall_log),
                            keys_per_address=args.keys_per_address, max_players=args.max_players,
                            ratings_rate=args.ratings_rate,
                            max_watchers_per_table=args.max_watchers_per_table, max_watchers=args.max_watchers,
                            watch_rate=args.watch_rate, watcher_output=args.watcher_output,
                            turn_tables_per_address=args.turn_tables_per_address, games_per_key=args.games_per_key,
                            move_time_scale=max(1e-9, args.move_time_scale), wake_batch=args.wake_batch,
                            seat_time=args.seat_time, setup_time=args.setup_time,
                            seat_given_after=args.seat_given_after, max_game_moves=args.max_game_moves,
                            max_turn_moves=args.max_turn_moves)
    if args.tls_cert is None and (args.tls_key is not None or args.tls_port is not None):
        log.error("--tls-key and --tls-port need --tls-cert")
        return 2
    stopping: list[int] = []

    def stop(signum: int, frame: object) -> None:
        # no locks in a signal handler: it runs between two bytecodes of the main thread, which may
        # hold that very lock (``threading.Event.set`` here once hung a server for good on SIGTERM)
        stopping.append(signum)

    # before the server starts: a stop asked for as soon as it listens is a clean stop too
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    try:
        server = Server(config, options)   # creates the data directory
        host, port = server.start()
    except ssl.SSLError as e:
        log.error("cannot use %s and %s as the TLS certificate and its key: %s", args.tls_cert,
                  args.tls_key or args.tls_cert, e)
        return 2
    except OSError as e:
        log.error("cannot start on %s:%d with data in %s: %s", args.host, args.port, args.data_dir, e)
        return 1
    # no multi-millisecond collector pauses in the middle of serving
    from game import runtime
    runtime.settle_collector()
    heap = FrozenHeap.for_connections(server.max_connections or options.max_connections)
    heap.start()
    print(f"mor-server: listening on {host}:{port}", flush=True)
    while not stopping:
        time.sleep(0.25)   # resumed after a handler runs (PEP 475): the stop is seen within 0.25 s
        heap.tick()
    server.stop()
    if server.announcer is not None:
        server.announcer.close(timeout=2.0)   # let the goodbye reach the network before we exit
    heap.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
