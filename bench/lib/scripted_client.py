"""The scripted clients of the load generator: one game as they see it (:class:`Table`), one
client (:class:`Client`), and the placement and market-line rules they play by."""
from __future__ import annotations

import random
from itertools import permutations

from bench.lib.connection_group import Peer

class Table:
    """One game as the load generator knows it: its clients (in seat order), whose turn it is, and
    the public state they all see (the market, flat, row by row; the top cards of the grid)."""

    __slots__ = ("key", "clients", "by_nick", "done", "current", "market", "columns", "top_cards")

    def __init__(self, key: tuple[str, ...]) -> None:
        self.key = key
        self.clients: list[Client] = []
        self.by_nick: dict[str, Client] = {}
        self.done = False
        self.current = ""
        self.market: list[str] = []
        self.columns = 4
        self.top_cards: dict[str, list[int | None]] = {}

    def set_market(self, grid: list[list[str]]) -> None:
        self.columns = len(grid[0])
        self.market = [m for row in grid for m in row]


class Client:
    __slots__ = ("nick", "peer", "rng", "table", "state", "asked", "pending",
                 "pending_kind", "sent_at", "fallback_tried", "shelves", "strongbox", "containers",
                 "slots", "main_done", "turns", "done", "ended",
                 "setup_done", "bonus", "hand", "lost", "said_goodbye", "scheduled")

    def __init__(self, nick: str, seed: int) -> None:
        self.nick = nick
        self.peer: Peer | None = None
        self.rng = random.Random(seed)
        self.table: Table | None = None
        self.state = "connected"        # connected, waiting, game, quitting, closed
        self.asked = False              # sent ReqNewGame as head of the waiting list
        self.pending: bytes | None = None
        self.pending_kind = ""          # setup, main, end, quit
        self.sent_at = 0.0
        self.fallback_tried = False
        self.shelves: list[int] = []
        self.strongbox = -1
        self.containers: dict[int, tuple[dict[str, int], int]] = {}   # own: id -> (content, size)
        self.slots: list[list[int]] = []
        self.main_done = False
        self.turns = 0
        self.done = False
        self.ended = False
        self.setup_done = False
        self.bonus = 0
        self.hand: list[int] = []
        self.lost = False
        self.said_goodbye = False
        self.scheduled = False          # a think-time timer will call maybe_act


def shelf_state(c: Client) -> tuple[tuple[int, str | None, int], ...]:
    """The client's shelves, in order, as (size, type held or None, count held)."""
    out = []
    for sid in c.shelves:
        content, size = c.containers[sid]
        held = None
        total = 0
        for r, n in content.items():
            if n:
                held = r
                total += n
        out.append((size, held, total))
    return tuple(out)


Plan = tuple[tuple[int, str, int], ...]      # (shelf index, resource, count)
_placements: dict[tuple, tuple[Plan, int]] = {}


def suggest_placement(shelves: tuple[tuple[int, str | None, int], ...],
                      intake: tuple[tuple[str, int], ...]) -> tuple[Plan, int]:
    """The engine's placement rule (``choices.suggest_placement``, no leader depots) on the client's
    own mirror: fill shelves already holding a type, then the best assignment of the other types
    to empty shelves. Returns (placement by shelf index, number of resources placed); memoized,
    since the shelf states and market lines that occur are few."""
    key = (shelves, intake)
    hit = _placements.get(key)
    if hit is not None:
        return hit
    left = dict(intake)
    plan: list[tuple[int, str, int]] = []
    placed = 0
    empty: list[tuple[int, int]] = []
    held_types = set()
    for i, (size, held, total) in enumerate(shelves):
        if held is None:
            empty.append((i, size))
            continue
        held_types.add(held)
        want = left.get(held, 0)
        if want and total < size:
            n = min(want, size - total)
            plan.append((i, held, n))
            left[held] = want - n
            placed += n
    todo = [r for r, n in left.items() if n > 0 and r not in held_types]
    if todo and empty:
        best_n = -1
        best: tuple = ()
        k = min(len(todo), len(empty))
        for types in permutations(todo, k):
            for shelves_ in permutations(empty, k):
                stored = sum(min(left[r], size) for r, (_, size) in zip(types, shelves_))
                if stored > best_n:
                    best_n, best = stored, tuple(zip(types, shelves_))
        for r, (i, size) in best:
            n = min(left[r], size)
            plan.append((i, r, n))
            placed += n
    result = (tuple(plan), placed)
    if len(_placements) < 200_000:
        _placements[key] = result
    return result


shelf_ids: dict[tuple, int] = {}                 # shelf states seen -> a small number
line_choices: dict[tuple, tuple[int, Plan]] = {}  # (shelf state number, *marbles) -> choice


def line_choice(shelves: tuple[tuple[int, str | None, int], ...], marbles: list[str]) -> tuple[int, Plan]:
    """What taking a market line does for these shelves: (waste, placement). Discards move the
    opponent and faith marbles move us along the track: both bring the end of the game closer,
    so the load generator keeps them few (the games should last ``--turns`` turns)."""
    intake: dict[str, int] = {}
    faith = taken = 0
    for m in marbles:
        if m == "Faith":
            faith += 1
        elif m != "Zero":
            intake[m] = intake.get(m, 0) + 1
            taken += 1
    plan, placed = suggest_placement(shelves, tuple(sorted(intake.items())))
    return taken - placed + faith, plan
