"""How a :class:`~game.netcode.server.Server` runs: its options, the CLI flags of ``server.py``.

Each limit here is what one stranger may take of the server (see ``docs/server.md``); 0 means no
limit where the comment says so.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass
class ServerOptions:
    """How a :class:`Server` runs (the CLI flags of ``server.py``)."""

    host: str = "0.0.0.0"
    port: int = 51015
    data_dir: Path | None = None     # None: games are not saved
    compat_rejoin: bool = False      # retake a seat by nickname alone, without a token
    heartbeat: float = 12.5          # seconds of silence before ReqHeartbeat; 2x drops the client
    grace: float = 600.0             # seconds an empty unfinished game is kept before it is removed
    restart_grace: float = 30.0      # after a restart, seconds players have to come back before
                                     # they are marked away (their turns then skipped)
    away_grace: float = 0.0          # seconds a dropped player's seat (and turn) waits, from their
                                     # last input, whether the connection closed or went silent
                                     # (0: away at once; server.py and a host's server: 30)
    fsync: bool = False              # fsync every log line (survives power loss, slower)
    seed: int | None = None          # draw game seeds from random.Random(seed); None: game.seeds.new_seed()
    status_interval: float = 60.0    # seconds between two status lines in the log (0: none)
    bot_processes: bool = False      # bots think in worker processes (else threads)
    bot_workers: int = 1             # how many decisions are thought about at once
    bot_delay: float = 0.6           # seconds at least between two bot moves of one game
    bot_time_limit: float = 8.0      # seconds a decision may take (then the easy bot decides)
    bot_budget: int | None = None    # the hard bot's search effort (None: its default)
    announce: bool | None = None     # announce the server on the LAN (mDNS); None: unless on loopback
    announce_name: str = ""          # the table's name in the announcement ("" : from the waiting list)
    announce_host: str = ""          # the host's nickname in it ("" : the head of the waiting list)
    tls_cert: Path | None = None     # PEM certificate (chain): serve TLS on tls_port too
    tls_key: Path | None = None      # its private key (None: in tls_cert)
    tls_port: int | None = None      # None: port + 1 (0: any free port)
    # limits, so that a stranger cannot take what the other players need (0: no limit)
    max_connections: int = 4000      # connections at once (also kept under the descriptor limit)
    max_per_address: int = 32        # connections at once from one address (an IPv6 /56: a home line)
    keep_finished: int = 20000       # finished games' logs kept (the newest; 0: all)
    max_per_network: int = 128       # connections at once from one IPv6 /48 (256 home lines)
    join_time: float = 30.0          # seconds a new connection has to send ReqJoin
    lobby_time: float = 1800.0       # seconds a player may stay connected outside a game in progress
    head_time: float = 60.0          # seconds the head of the waiting list has to choose the number
                                     # of players while others wait; then the next in line is asked
    line_rate: float = 50.0          # lines a second one connection is served (bursts of 4 s' worth)
    tls_handshake_rate: float = 4.0  # new TLS handshakes a second from one address (bursts of
                                     # TLS_BURST s' worth); past it a handshake waits its turn
    max_tls_handshakes: int = 16     # TLS handshakes in progress at once in all; past them one
                                     # waits for a handshake to end
    tls_handshakes_in_all: float = 200.0   # TLS handshakes begun a second on the whole server
    tls_handshake_time: float = 2.0  # seconds a handshake holds one of max_tls_handshakes; then it
                                     # gives it back and waits its turn again when its bytes come (0: no limit)
    give_back_after: float = 10.0    # seconds the server is quiet after a burst of connections or of
                                     # lines before the freed memory is given back to the system (0: never)
    max_output: int | None = None    # bytes queued for one connection (None: MAX_QUEUED_BYTES)
    max_output_total: int = 256 * 1024 * 1024   # bytes queued for all connections together
    tables_per_address: int = 8      # games in progress started from one address
    bots_per_address: int = 6        # bot seats in games in progress started from one address
    max_bots: int = 24               # bot seats in games in progress on the whole server
    bot_load: float = 0.7            # share of the bot workers' time (thinking, over the last
                                     # BOT_WINDOW seconds) past which no more bot games are
                                     # admitted: the games admitted keep their pace (0: no limit)
    keys_per_address: int = 5        # new player keys kept an hour from one address (see .ratings)
    max_players: int = 100_000       # players (keys) kept by the server
    ratings_rate: float = 0.5        # leaderboards a second one connection is answered (bursts of 3)
    max_watchers_per_table: int = 50   # connections watching one table
    max_watchers: int = 1000         # connections watching a table, on the whole server
    watch_rate: float = 0.5          # watch requests a second from one address (bursts of WATCH_BURST)
    watcher_output: int = 512 * 1024   # bytes queued for a watcher past which it is behind: dropped
    turn_tables_per_address: int = 20   # turn-based tables open and games under way started from one address
    games_per_key: int = 30          # unfinished games (and seats at open turn-based tables) of one player key
    wake_batch: int = 4              # turn-based games replayed from their files per wake-up after a start
                                     # (0: only when someone needs one; see turn_based.py)
    seat_time: float = 120.0         # seconds a player of a real-time game has for a turn, then the
                                     # computer plays it (see seat_clock.py; 0: no clock on turns)
    setup_time: float = 180.0        # seconds for the setup choices (leaders, resources) (0: none)
    seat_given_after: int = 3        # turns run out in a row that give the seat to the computer for
                                     # good (0: never, the computer plays each turn run out)
    seat_clock_bots: bool = True     # a game of one person with bots has the clock too (its bots
                                     # are the server's to share; a host's own server: False)
    max_game_moves: int = 20000      # calls one game keeps at most, once what was taken back is
                                     # dropped (see compaction.py; a real game takes a few hundred)
    max_turn_moves: int = 200        # requests in a row a player may make that an undo could still take back
                                     # (swaps, moves: a turn of thousands was replayed at each rejoin; 0: no limit)
    move_time_scale: float = 1.0     # a turn-based table's time per move is multiplied by this (tests: small)
    stall_log: float = 0.0           # log every wake-up of the loop longer than this many ms,
                                     # with what ran in it (a diagnostic; 0: off)
