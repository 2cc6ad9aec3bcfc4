"""What a reference client (one that joined without a ``token`` field) is sent: the reference's wire.

Our clients get the engine's updates and errors as they are (richer: ``cardsLeft``, who activated
a leader, scores counting stored resources at every step...). A reference client gets them as
the AM49 reference server sends them, checked against the recorded transcripts
(``tests/netcode/test_server_reference_clients.py``; ``docs/compatibility.md`` lists each one):

* ``UpdateVictoryPoints`` counts stored resources only once the game is over; during play a
  player's points are the cards', the track's, the favours' and the leaders'. When a game ends
  with a winner, every player is sent a last one (stored resources counted), before
  ``UpdateGameEnd``; when Lorenzo wins, none.
* A solo game that our rules end in the middle of a main action (E27) ends for a reference
  client as the reference ends it: that action's updates (``UpdateLastRound`` among them) and
  its ``UpdateAction``, and the ending (the last points, ``UpdateGameEnd``, ``UpdateAction
  END_TURN``) as the answer to the client's next request, which its client sends from its turn
  menu (``ReqEndTurn``). Sent unasked, right after the action, the ending reached its client
  while it was drawing its menu again, and it stayed there until another request.
* ``UpdateActivateLeader`` is ``{leader}``; ``UpdateDevCardGrid`` has no ``cardsLeft``; after a
  production the strongbox is sent even when only Faith came out of it.
* A development card the offered resources do not pay exactly (or that the player cannot
  afford) is refused with the reference's ``ErrReplacedTransRecipe`` (``isIllegalDiscardedOut``,
  "choose all and only the needed resources"), or ``ErrResourceTransfer`` when the offer is
  right but the resources are not there; Faith asked of a production's free output is
  ``EXCLUDED``.

A :class:`ReferenceWire` belongs to one room and is used under the room's lock.
"""
from __future__ import annotations

from typing import Any, Mapping

from game.rules.actions import Action, ReqActivateProductions, ReqBuyDevCard, ReqSwapShelves
from game.rules.engine import Game
from game.rules.errors import EXCLUDED, ILLEGAL_NON_STORABLE, GameError

Event = dict[str, Any]

END_TURN = "END_TURN"
_VP = "UpdateVictoryPoints"


def stored(game: Game, nickname: str) -> int:
    """How many resources ``nickname`` keeps (shelves, leader depots, strongbox)."""
    p = game.player(nickname)
    return sum(n for c in p.containers() for n in c.content.values())


def reference_vp(game: Game, nickname: str, final: bool | None = None) -> int:
    """``nickname``'s points as the reference tells them: without stored resources until the end
    of a game a player won (``final``; by default whether the game is over and Lorenzo did not win)."""
    p = game.player(nickname)
    if game.ended and not game.lorenzo_won if final is None else final:
        return p.vp
    return p.vp - stored(game, nickname) // game.config.resources_per_vp


def plain_view(view: Mapping[str, Any], game: Game) -> dict[str, Any]:
    """An ``UpdateGame`` for a reference client: the players' points as the reference counts
    them, no ``cardsLeft`` in the grid (the other extension keys are harmless to it)."""
    out = dict(view)
    out["players"] = [{**p, "victoryPoints": reference_vp(game, p["nickname"])} for p in view["players"]]
    grid = view.get("devCardGrid")
    if isinstance(grid, dict) and "cardsLeft" in grid:
        out["devCardGrid"] = {k: v for k, v in grid.items() if k != "cardsLeft"}
    return out


class ReferenceWire:
    """The reference's side of one room: the points last told to its reference clients, and the
    ending a solo game's reference client is still to be sent.

    :param game: the room's game, as it stands before the next request (the points told so far
        are taken from it).
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.told = {n: reference_vp(game, n) for n in game.nicknames}
        self.pending: dict[str, list[Event]] = {}
        self._owners: dict[int, str] = {}

    # ------------------------------------------------------------------ accepted requests
    def events(self, events: list[Event], nickname: str, request: Action) -> list[Event]:
        """The answer to ``nickname``'s accepted ``request`` as a reference client gets it."""
        game = self.game
        deferred = (game.ended and game.solo and events and events[-1].get("type") == "UpdateAction"
                    and events[-1].get("action") != END_TURN)
        out: list[Event] = []
        ending: list[Event] = []
        touched: set[str] = set()   # players whose points or stored resources changed
        for e in events:
            t = e.get("type")
            if t == _VP:   # the engine's come last (before the ending): told below, the reference's way
                touched.add(e["player"])
                continue
            if t == "UpdateResourceContainer":
                touched.add(self._owner(e["resContainer"]["id"]))
            if t == "UpdateGameEnd":
                ending.append(e)
                continue
            if t == "UpdateActivateLeader":
                e = {"leader": e["leader"], "type": t}
            elif t == "UpdateDevCardGrid" and "cardsLeft" in e["devCardGrid"]:
                e = {"devCardGrid": {k: v for k, v in e["devCardGrid"].items() if k != "cardsLeft"}, "type": t}
            out.append(e)
        action = out.pop()             # the request's UpdateAction, last
        if action.get("action") == "ACTIVATE_PRODUCTION":
            self._strongbox_too(out, nickname)
        elif type(request) is ReqSwapShelves:
            out = self._swap(out, request, nickname)
        if deferred:
            out += self._vp_changes(touched, final=False)
            if not any(e.get("type") == "UpdateLastRound" for e in out):
                out.append({"type": "UpdateLastRound"})
            out.append(action)
            self.pending[nickname] = [*self._final_vp(), *ending,
                                      {"action": END_TURN, "player": nickname, "type": "UpdateAction"}]
            return out
        out += self._final_vp() if ending and not self.game.lorenzo_won else self._vp_changes(touched)
        return [*out, *ending, action]

    def _strongbox_too(self, out: list[Event], nickname: str) -> None:
        """After a production the reference sends the strongbox, changed or not (a Faith-only
        production), after the containers paid from."""
        box = self.game.player(nickname).strongbox
        if any(e.get("type") == "UpdateResourceContainer" and e["resContainer"]["id"] == box.id for e in out):
            return
        at = max((i + 1 for i, e in enumerate(out) if e.get("type") == "UpdateResourceContainer"), default=0)
        out.insert(at, {"resContainer": box.to_wire(), "type": "UpdateResourceContainer"})

    def _swap(self, out: list[Event], request: ReqSwapShelves, nickname: str) -> list[Event]:
        """A swap as the reference tells it: each shelf that held something emptied, then each
        filled with what the other held (4 updates for two full shelves, none for two empty ones)."""
        shelves = {c.id: c for c in self.game.player(nickname).depot_like()}
        first, second = shelves[request.shelf1], shelves[request.shelf2]
        rest = [e for e in out if not (e.get("type") == "UpdateResourceContainer"
                                       and e["resContainer"]["id"] in (first.id, second.id))]
        steps = []
        for shelf, other in ((first, second), (second, first)):   # ``other`` holds what ``shelf`` held
            if other.content:
                steps.append(_emptied(shelf))
        for c in (first, second):
            if c.content:
                steps.append({"resContainer": c.to_wire(), "type": "UpdateResourceContainer"})
        return steps + rest

    def _owner(self, container: int) -> str:
        """Whose container this is ("" for a leader's depot nobody has played)."""
        owner = self._owners.get(container)
        if owner is None:   # a depot leader played since: look again
            self._owners = {c.id: p.nickname for p in self.game.players for c in p.containers()}
            owner = self._owners.setdefault(container, "")
        return owner

    def _vp_changes(self, touched: set[str], final: bool | None = None) -> list[Event]:
        """``UpdateVictoryPoints`` for each of the ``touched`` players whose reference points
        changed, in seat order (the others' cannot have)."""
        out = []
        for nick in self.game.nicknames:
            if nick not in touched:
                continue
            vp = reference_vp(self.game, nick, final)
            if self.told.get(nick) != vp:
                self.told[nick] = vp
                out.append({"player": nick, "victoryPoints": vp, "type": _VP})
        return out

    def _final_vp(self) -> list[Event]:
        """At the end of a game a player won, the reference sends every player's points once more
        (stored resources counted); none when Lorenzo wins."""
        game = self.game
        if game.lorenzo_won:
            return []
        for nick in game.nicknames:
            self.told[nick] = game.player(nick).vp
        return [{"player": n, "victoryPoints": game.player(n).vp, "type": _VP} for n in game.nicknames]

    def ending(self, nickname: str) -> list[Event] | None:
        """The reference's ending of a solo game still owed to ``nickname`` (then forgotten), or None."""
        return self.pending.pop(nickname, None)

    # ------------------------------------------------------------------ refused requests
    def error(self, err: GameError, action: Action, nickname: str) -> dict[str, Any]:
        """A refusal as the reference words it (the engine's, where the reference says the same)."""
        msg = err.to_dict()
        t = msg["type"]
        if type(action) is ReqBuyDevCard and t in ("ErrCardRequirements", "ErrReplacedTransRecipe"):
            return self._unpaid(action, nickname) or msg
        if (type(action) is ReqActivateProductions and t == "ErrInvalidResourceTransaction"
                and msg["reason"] == ILLEGAL_NON_STORABLE and not msg["isInput"] and msg["isReplacement"]
                and any(_res(name) == "Faith" for r in action.prod_requests for name in r.output_rep)):
            return {**msg, "reason": EXCLUDED}
        return msg

    def _unpaid(self, action: ReqBuyDevCard, nickname: str) -> dict[str, Any] | None:
        game = self.game
        p = game.player(nickname)
        color = action.color if action.color in game.decks else action.color[:1].upper() + action.color[1:].lower()
        if action.level not in game.decks.get(color, ()):
            return None
        card = game.top_card(color, action.level)
        if card is None:
            return None
        cost = game.card_cost(p, card)
        offered: dict[str, int] = {}
        for m in action.res_containers.values():
            for name, n in m.items():
                offered[_res(name)] = offered.get(_res(name), 0) + n
        offered = {r: n for r, n in offered.items() if n}
        if offered != dict(cost):
            return {"isInput": True, "resType": "", "replacedCount": 0, "shelvesChoiceResCount": 0,
                    "isIllegalDiscardedOut": True, "type": "ErrReplacedTransRecipe"}
        totals = p.resource_totals()
        short = next((r for r, n in cost.items() if totals.get(r, 0) < n), None)
        if short is None:
            return None
        return {"resType": short, "isAdded": False, "reason": "CAPACITY_REACHED", "type": "ErrResourceTransfer"}


def _emptied(c: Any) -> Event:
    """``UpdateResourceContainer`` of container ``c`` with nothing in it."""
    wire = {"id": c.id, "content": {}}
    if c.bound is not None:
        wire["boundedResType"] = c.bound
    wire["size"] = c.capacity
    return {"resContainer": wire, "type": "UpdateResourceContainer"}


def _res(name: str) -> str:
    """A resource or colour name as the reference reads it (first letter capitalised)."""
    return name[:1].upper() + name[1:]
