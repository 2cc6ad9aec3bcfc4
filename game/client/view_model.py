"""The client's one view model, built by one reducer from one stream of protocol messages.

Every message goes through :meth:`ViewModel.feed`, which hands it to the one handler of its type;
a whole ``UpdateGame`` (a start, a resume, a rejoin, an undo, a replay's step) is one more such
message. At any moment the model equals what the server (or the in-process engine) would send in
a fresh ``UpdateGame`` for this player, however it got there: update by update, from a whole
game, from a reloaded save, or in a replay (``tests/client/test_one_view.py`` checks it at every
move of whole games).

Its records (the game itself, each player, container, leader and card) are the same objects
for the model's whole life: every message, ``UpdateGame`` included, changes them in place. A
scene may keep one and draw from it later; it is never a stale copy (a board that kept the
leaders of the game before an undo drew a leader played after it "in hand"). Scenes draw only
from it. It is pure Python: no pygame, no sockets; the same object is fed by a local solo
session and a remote one.

>>> vm = ViewModel("Ada")
>>> vm.feed({"type": "UpdateLastRound"})  # ignored until a game arrives
>>> vm.has_game
False
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

import orjson

from game.rules.views import REVEALED_TOKENS

Msg = dict[str, Any]

MAIN_ACTIONS = {"TAKE_MARKET_RESOURCES", "BUY_DEVELOPMENT_CARD", "ACTIVATE_PRODUCTION"}


@dataclass
class Change:
    """The last change, for highlighting: what kind of thing changed and its id or owner."""

    kind: str          # "market", "container", "faith", "slot", "grid", "leader", "vatican", "token", ...
    key: Any = None


class ViewModel:
    """State of one player's game as seen by that player."""

    def __init__(self, nickname: str) -> None:
        self.nickname = nickname
        self.game: Msg | None = None
        self.errors: list[Msg] = []        # refusals not yet shown
        self.changes: list[Change] = []    # changes since the last UpdateAction
        self.last_changes: list[Change] = []
        self._players: dict[str, Msg] = {}
        self._containers: dict[int, Msg] = {}
        self._leaders: dict[int, Msg] = {}
        self._cards: dict[int, Msg] = {}
        self.revealed_tokens: list[int] = []   # solo: Lorenzo's tokens face up since the last shuffle
        self.bot_levels: dict[str, str] = {}   # a server game's bots' levels (our extension botLevels)

    # ------------------------------------------------------------------ feeding
    @property
    def has_game(self) -> bool:
        return self.game is not None

    def feed(self, msg: Msg) -> None:
        """Apply one server message (an update, an error, or anything else, which is ignored)."""
        t = msg.get("type", "")
        if t.startswith("Err"):
            self.errors.append(msg)
        elif self.game is not None or t == "UpdateGame":
            handler = getattr(self, "_on_" + t, None)
            if handler is not None:
                handler(msg)

    def _on_UpdateGame(self, msg: Msg) -> None:
        """The whole game: every field as the message gives it, in the records the model has."""
        whole = orjson.loads(orjson.dumps(msg))   # a copy (JSON's: 7 times faster than deepcopy)
        if self.game is None:
            self.game = whole
        else:
            _assign(self.game, whole)
        self._index()
        self.changes = []
        # the whole game again (a start, a resume, a rejoin, an undo): our server and the engine
        # say which tokens are face up (our extension); from a reference server, at least the
        # last one is known
        levels = msg.get("botLevels")   # our server's extension: the bots' levels
        if isinstance(levels, dict):
            self.bot_levels = {str(k): str(v) for k, v in levels.items()}
        revealed = msg.get(REVEALED_TOKENS)
        last = msg.get("lastActionToken")
        kinds = {t["id"]: t.get("kind") for t in msg.get("actionTokens", [])}
        if isinstance(revealed, list):
            self.revealed_tokens = [t for t in revealed if t in kinds]
        elif last is None or kinds.get(last) == "ActionTokenBlackMoveOneShuffle":
            self.revealed_tokens = []
        elif last not in self.revealed_tokens:
            self.revealed_tokens = [last]

    def _index(self) -> None:
        g = self.game
        assert g is not None
        self._players = {p["nickname"]: p for p in g["players"]}
        self._containers = {c["id"]: c for c in g["resContainers"]}
        self._leaders = {ld["id"]: ld for ld in g["leaderCards"]}
        self._cards = {c["id"]: c for c in g["developmentCards"]}

    def snapshot(self) -> Msg:
        """The current state as an ``UpdateGame`` message (a copy)."""
        assert self.game is not None
        return copy.deepcopy(self.game)

    def _changed(self, kind: str, key: Any = None) -> None:
        self.changes.append(Change(kind, key))

    # ------------------------------------------------------------------ handlers
    def _on_UpdateMarket(self, m: Msg) -> None:
        self.game["market"] = m["market"]  # type: ignore[index]
        self._changed("market")

    def _on_UpdateResourceContainer(self, m: Msg) -> None:
        c = m["resContainer"]
        old = self._containers.get(c["id"])
        if old is None:
            self.game["resContainers"].append(c)  # type: ignore[index]
        else:
            old.clear()
            old.update(c)
        self._containers[c["id"]] = old if old is not None else c
        self._changed("container", c["id"])

    def _on_UpdateFaithPoints(self, m: Msg) -> None:
        if m.get("isBlackCross"):
            self.game["blackPoints"] = m["faithPoints"]  # type: ignore[index]
            self._changed("faith", None)
        else:
            self._players[m["player"]]["faithPoints"] = m["faithPoints"]
            self._changed("faith", m["player"])

    def _on_UpdateVictoryPoints(self, m: Msg) -> None:
        self._players[m["player"]]["victoryPoints"] = m["victoryPoints"]

    def _on_UpdateVaticanSection(self, m: Msg) -> None:
        g = self.game
        assert g is not None
        index = None
        for i, (key, sec) in enumerate(sorted(g["faithTrack"]["vaticanSections"].items(), key=lambda kv: int(kv[0]))):
            if sec["id"] == m["vaticanSection"]:
                sec["activated"] = True
                sec["bonusGivenPlayers"] = list(m["bonusGivenPlayers"])
                index = i
        if index is not None:
            for p in g["players"]:
                tiles = p.get("favorTiles")
                if tiles is not None and index < len(tiles):
                    tiles[index] = "UP" if p["nickname"] in m["bonusGivenPlayers"] else "REMOVED"
        self._changed("vatican", m["vaticanSection"])

    def _on_UpdateActionToken(self, m: Msg) -> None:
        self.game["lastActionToken"] = m["actionToken"]  # type: ignore[index]
        kinds = {t["id"]: t.get("kind") for t in self.game.get("actionTokens", [])}  # type: ignore[union-attr]
        if kinds.get(m["actionToken"]) == "ActionTokenBlackMoveOneShuffle":
            self.revealed_tokens = []          # every token went back into the pile
        elif m["actionToken"] not in self.revealed_tokens:
            self.revealed_tokens.append(m["actionToken"])
        if REVEALED_TOKENS in self.game:   # type: ignore[operator]
            self.game[REVEALED_TOKENS] = list(self.revealed_tokens)  # type: ignore[index]
        self._changed("token", m["actionToken"])

    def _on_UpdateDevCardGrid(self, m: Msg) -> None:
        self.game["devCardGrid"] = m["devCardGrid"]  # type: ignore[index]
        self._changed("grid")

    def _on_UpdateDevSlot(self, m: Msg) -> None:
        self._players[m["player"]]["devSlots"][m["devSlot"]] = list(m["devCards"])
        self._changed("slot", (m["player"], m["devSlot"]))

    def _on_UpdateLeadersHand(self, m: Msg) -> None:
        self._players[m["player"]]["leadersHand"] = list(m["leaders"])
        self._changed("leader", m["player"])

    def _on_UpdateLeadersHandCount(self, m: Msg) -> None:
        self._players[m["player"]]["leadersHandCount"] = m["leadersHandCount"]

    def _on_UpdateActivateLeader(self, m: Msg) -> None:
        lid = m["leader"]
        leader = self._leaders.get(lid)
        if leader is not None:
            leader["active"] = True
        owner = self._players.get(m.get("player", ""))
        if owner is not None:
            if lid not in owner["leadersHand"]:
                owner["leadersHand"].append(lid)
            if "activeLeaders" in owner:
                owner["activeLeaders"].append(lid)
            if leader is not None and leader.get("containerId", -1) >= 0 and "leaderDepots" in owner:
                owner["leaderDepots"].append(leader["containerId"])
        self._changed("leader", m.get("player"))

    def _on_UpdateCurrentPlayer(self, m: Msg) -> None:
        self.game["currentPlayer"] = m["player"]  # type: ignore[index]
        self.game["isMandatoryActionDone"] = False  # type: ignore[index]
        self._changed("turn", m["player"])

    def _on_UpdateSetupDone(self, m: Msg) -> None:
        # only that: the reference leaves hasChosenResources false for seats with nothing to
        # choose, and re-sends UpdateSetupDone on every change of a player's status
        self.game["isSetupDone"] = True  # type: ignore[index]

    def _on_UpdateLastRound(self, m: Msg) -> None:
        self.game["lastRound"] = True  # type: ignore[index]

    def _on_UpdateGameEnd(self, m: Msg) -> None:
        g = self.game
        assert g is not None
        g["ended"] = True
        if "winner" in m:
            g["winnerPlayer"] = m["winner"]
            # keep the reference key order: winnerPlayer sits before blackPoints
            order = list(g)
            tail = order[order.index("inkwellPlayer") + 1:]
            for k in tail:
                g[k] = g.pop(k)

    def _on_UpdatePlayerStatus(self, m: Msg) -> None:
        p = self._players.get(m["player"])
        if p is not None:
            p["active"] = m["isActive"]

    def _on_UpdateAction(self, m: Msg) -> None:
        g = self.game
        assert g is not None
        action = m["action"]
        p = self._players.get(m["player"])
        if action in MAIN_ACTIONS:
            g["isMandatoryActionDone"] = True
        elif action == "CHOOSE_LEADERS" and p is not None:
            p["setup"]["hasChosenLeaders"] = True
        elif action == "CHOOSE_RESOURCES" and p is not None:
            p["setup"]["hasChosenResources"] = True
        self.last_changes = self.changes
        self.changes = []

    # ------------------------------------------------------------------ reading
    @property
    def me(self) -> Msg:
        return self._players[self.nickname]

    def player(self, nickname: str) -> Msg:
        return self._players[nickname]

    def container(self, cid: int) -> Msg:
        return self._containers[cid]

    def leader(self, lid: int) -> Msg:
        return self._leaders[lid]

    @property
    def leaders(self) -> Mapping[int, Msg]:
        """Every leader card of the game by id (read only)."""
        return MappingProxyType(self._leaders)

    @property
    def cards(self) -> Mapping[int, Msg]:
        """Every development card of the game by id (read only)."""
        return MappingProxyType(self._cards)

    @property
    def my_turn(self) -> bool:
        g = self.game
        return bool(g and g["isSetupDone"] and not g["ended"] and g["currentPlayer"] == self.nickname)



def _key(value: Any) -> Any:
    """What names a record in a list of them (a card's or container's id, a player's nickname)."""
    if isinstance(value, dict):
        return value.get("id", value.get("nickname"))
    return None


def _assign(old: Msg, new: Msg) -> Msg:
    """Make ``old`` equal to ``new`` in place, keeping every record ``old`` holds that ``new``
    still has (a dict under the same key, or in a list under the same id or nickname)."""
    merged = {k: _assigned(old.get(k), v) for k, v in new.items()}
    old.clear()
    old.update(merged)
    return old


def _assigned(old: Any, new: Any) -> Any:
    if isinstance(new, dict):
        return _assign(old, new) if isinstance(old, dict) else new
    if isinstance(new, list) and isinstance(old, list):
        kept = {k: x for x in old if (k := _key(x)) is not None}
        return [_assigned(kept.pop(_key(x), None), x) if _key(x) is not None else x for x in new]
    return new
