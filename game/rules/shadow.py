"""A game rebuilt from what one player sees: the client's and the bots' way to ask the rules.

A *shadow game* is a :class:`~game.rules.engine.Game` built from an ``UpdateGame`` message (kept
up to date by the client's view model, or made by :func:`game.rules.views.player_view`) instead of
from a seed, so :mod:`game.rules.choices` can list what this player may do now.
"""
from __future__ import annotations

from typing import Any

from .components import GameConfig
from .engine import Game
from .lookups import lookups
from .state import DEPOT, ENDED, FAVOR_DOWN, FAVOR_REMOVED, PLAY, SETUP, SHELF, STRONGBOX, Container, PlayerState
from .views import REVEALED_TOKENS


def shadow_game(view: dict[str, Any], config: GameConfig, nickname: str) -> Game:
    """A game rebuilt from what ``nickname`` sees (an ``UpdateGame`` kept up to date).

    It holds no hidden information: decks hold only their top card (repeated to their size) and
    other players' hands only their active leaders. It is good for asking
    :mod:`game.rules.choices` what this player may do now (legal lines, affordable cards, where
    resources fit, runnable productions), never for playing on: it has no random generator state.
    """
    g = Game.__new__(Game)
    g.config = config
    g.lookups = lookups(config)
    g.seed = 0
    g.nicknames = tuple(p["nickname"] for p in view["players"])
    g.rng = None  # type: ignore[assignment]
    g.history = []
    g.version = 0
    g.solo = len(view["players"]) == 1
    g._events, g._dirty, g._end_pending = [], {}, False
    g._undo_mark, g._undo_stack, g._undo_barrier = None, [], None   # a shadow has nothing to undo
    wire = {c["id"]: c for c in view["resContainers"]}
    by_id = {}
    for cid in sorted(wire):
        c = wire[cid]
        kind = STRONGBOX if c["size"] < 0 else SHELF
        cont = Container(cid, kind, c["size"])
        cont.content = {r: n for r, n in c["content"].items() if n}
        by_id[cid] = cont
    # the engine finds a container at the index of its id; the reference numbers them per server
    # process (a later game's start at 12 or 1200), so the ids below are filled by one container
    # nobody owns
    nobody = Container(-1, SHELF, 0)
    g.containers = [by_id.get(i, nobody) for i in range(max(by_id, default=-1) + 1)]
    leaders = {ld["id"]: ld for ld in view["leaderCards"]}
    g.leader_depot = {}
    for lid, ld in leaders.items():
        if ld["containerId"] >= 0 and ld["containerId"] in by_id:
            depot = by_id[ld["containerId"]]
            depot.kind, depot.bound = DEPOT, config.leaders[lid].resource
            g.leader_depot[lid] = depot
    g.players = []
    for seat, p in enumerate(view["players"]):
        shelves = [by_id[i] for i in p["warehouseShelves"]]
        box = by_id[p["strongbox"]]
        for c in (*shelves, box):
            c.owner = seat
        st = PlayerState(p["nickname"], seat, shelves, box, len(p["devSlots"]), len(config.vatican_sections),
                         p["setup"]["initialResources"], 0)
        st.active = p["active"]
        st.faith = p["faithPoints"]
        st.vp = p["victoryPoints"]
        st.slots = [list(s) for s in p["devSlots"]]
        st.hand = list(p["leadersHand"])
        st.active_leaders = [i for i in p.get("activeLeaders", [i for i in p["leadersHand"] if leaders[i]["active"]])]
        st.depots = [g.leader_depot[i] for i in st.active_leaders if i in g.leader_depot]
        for d in st.depots:
            d.owner = seat
        st.chose_leaders = p["setup"]["hasChosenLeaders"]
        # (the reference server leaves the flag false for a seat with nothing to choose)
        st.chose_resources = p["setup"]["hasChosenResources"] or not p["setup"]["initialResources"]
        tiles = p.get("favorTiles")
        if tiles:
            st.favors = [{"DOWN": FAVOR_DOWN, "UP": 1, "REMOVED": FAVOR_REMOVED}[t] for t in tiles]
        g.players.append(st)
    g.by_nick = {p.nickname: p for p in g.players}
    grid = view["devCardGrid"]
    left = grid.get("cardsLeft", {})
    g.decks = {}
    for color in config.colors:
        tops = grid["topCards"].get(color, [None] * (len(config.levels) + 1))
        counts = left.get(color)
        g.decks[color] = {}
        for lv in config.levels:
            top = tops[lv] if lv < len(tops) else None
            n = counts[lv] if counts else (1 if top is not None else 0)
            g.decks[color][lv] = [top] * n if top is not None else []
    m = view["market"]
    g.market = [x for row in m["grid"] for x in row]
    g.slide = m["slide"]
    g.tokens = []
    g.last_token = view.get("lastActionToken")
    g.revealed = [t for t in view.get(REVEALED_TOKENS) or () if isinstance(t, int)]
    g.black_cross = view["blackPoints"]
    g.phase = ENDED if view["ended"] else (PLAY if view["isSetupDone"] else SETUP)
    g.current = g.nicknames.index(view["currentPlayer"]) if view["currentPlayer"] in g.nicknames else 0
    g.main_done = view["isMandatoryActionDone"]
    g.last_round = view["lastRound"]
    secs = sorted(view["faithTrack"]["vaticanSections"].values(), key=lambda s: s["faithPointsEnd"])
    g.fired = [s["activated"] for s in secs]
    g.termination = None
    g.lorenzo_won = False
    g.winners = (view["winnerPlayer"],) if "winnerPlayer" in view else ()
    return g
