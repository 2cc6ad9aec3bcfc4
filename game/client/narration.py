"""The action log in words: "Bianca took row 2: 2 Coins, 1 Faith; discarded 1 Stone — everyone else +1 faith".

A :class:`Narrator` reads the same messages as the view model (after the view model applied
them). It remembers the state at the start of each action so that, when ``UpdateAction`` closes
the action, it can say what changed.
"""
from __future__ import annotations

import copy
from typing import Any

import orjson

from .view_model import ViewModel
from .words import amount, joined, leader_ability, vanished_colour
from .words import amounts as _amounts

Msg = dict[str, Any]
TOKEN_WORDS = {
    "ActionTokenDiscardTwo": "discarded two {color} cards from the grid",
    "ActionTokenBlackMoveTwo": "moved the black cross 2 spaces",
    "ActionTokenBlackMoveOneShuffle": "moved the black cross 1 space and shuffled the tokens",
}
ORDINAL = {1: "first", 2: "second", 3: "third"}
UNDONE = {"TAKE_MARKET_RESOURCES": "market action", "ACTIVATE_PRODUCTION": "production",
          "ACTIVATE_LEADER": "leader", "DISCARD_LEADER": "leader discard",
          "SWAP_SHELVES": "warehouse move", "BUY_DEVELOPMENT_CARD": "purchase"}
"""What an undo took back, in words (``UpdateUndo.action``)."""


def _copy(game: Msg | None) -> Msg | None:
    """A deep copy of the view model's game, through JSON (a wire message is JSON: ten times
    faster than ``copy.deepcopy``, which told a rejoining player's whole history in 0.3 s)."""
    try:
        return orjson.loads(orjson.dumps(game))
    except TypeError:            # something that is not JSON (never from a server or the engine)
        return copy.deepcopy(game)


def amounts(m: dict[str, int]) -> str:
    """``{"Coin": 2, "Faith": 1}`` → ``"2 Coins, 1 Faith"``."""
    return _amounts(m)


class Narrator:
    def __init__(self, vm: ViewModel) -> None:
        self.vm = vm
        self._before: Msg | None = None
        self._extra: list[str] = []
        self._status = False     # the last update was a player leaving or coming back
        self._gone: str | None = None   # ... and it was this player leaving

    def take(self, m: Msg) -> str | None:
        """Read one message; return a finished log line, if this message finished one."""
        t = m.get("type")
        status, self._status = self._status, False
        gone, self._gone = self._gone, None
        if t == "UpdateSetupDone":   # (the reference follows every status change with it)
            self._status, self._gone = status, gone
            return None
        if t == "UpdateCurrentPlayer" and status and self._before is not None:
            # the turn passed because a player left or came back, not at the end of a turn
            if gone is not None:     # the player whose turn it was left: their turn is passed
                line = f"{self._away([gone])}, so {self._turn_of(m['player'])}."
                return line[:1].upper() + line[1:]
            return f"It is {'your' if m['player'] == self.vm.nickname else m['player'] + chr(39) + 's'} turn."
        if t == "UpdateGame":
            self._before = _copy(self.vm.game)
            self._extra = []
            return None
        if self._before is None:
            return None
        if t == "UpdateVaticanSection":
            self._extra.append(self._vatican(m))
        elif t == "UpdateLastRound":
            self._extra.append(LAST_ROUND)       # told at the end of the action (see below)
        elif t == "UpdateGameEnd":
            # the game is over at once: no last round to play (in solo there is never one)
            self._extra = [x for x in self._extra if x is not LAST_ROUND]
            self._extra.append(self._game_end(m))
        elif t == "UpdateUndo":
            what = UNDONE.get(m.get("action", ""), "last move")
            return f"{m['player']} took back their {what}."
        elif t == "UpdatePlayerStatus":
            self._status = True
            self._gone = None if m["isActive"] else m["player"]
            if m["player"] == self.vm.nickname:
                return None      # our own return (the reference tells the returning player too)
            return f"{m['player']} {'is back at the table' if m['isActive'] else 'left the table'}."
        elif t == "UpdateAction":
            line = self._sentence(m["action"], m["player"])
            self._extra = [self._last_round(m["player"]) if x is LAST_ROUND else x for x in self._extra]
            if self._extra:
                line += " — " + "; ".join(self._extra)
            self._extra = []
            self._before = _copy(self.vm.game)
            return line[:1].upper() + line[1:] + "."
        return None

    # ------------------------------------------------------------------ what an action led to
    def _vatican(self, m: Msg) -> str:
        """"Vatican report 2: Ada and Bea turn the favor tile face up (+3 VP); Cosimo's is removed";
        in solo the one player is in the section or not (Lorenzo has no tile)."""
        assert self._before is not None
        who = list(m["bonusGivenPlayers"])
        sections = self._before["faithTrack"]["vaticanSections"]
        sec = next((x for x in sections.values() if x["id"] == m["vaticanSection"]), None)
        n = sorted(int(k) for k in sections).index(sec["faithPointsEnd"]) + 1 if sec else 0
        vp = f" (+{sec['victoryPoints']} VP)" if sec and sec.get("victoryPoints") else ""
        players = [p["nickname"] for p in self._before["players"]]
        out = [p for p in players if p not in who]
        head = f"Vatican report {n}: "
        if len(players) == 1:
            me = players[0]
            if who:
                return head + f"{me} is in the section and turns the favor tile face up{vp}"
            return head + f"{me} is not in the section; the favor tile is removed"
        if not who:
            return head + "nobody is in the section; every favor tile is removed"
        said = head + f"{joined(who)} turn{'s' * (len(who) == 1)} the favor tile face up{vp}"
        if out:
            said += f"; {joined(out)}{chr(39)}s " + ("is" if len(out) == 1 else "are") + " removed"
        return said

    def _last_round(self, actor: str) -> str:
        """Why the last round began: the player who reached the end of the track or bought a
        seventh card (the one who acted first: discarded resources may move the others too)."""
        g = self.vm.game
        assert g is not None
        top = int(g.get("faithTrack", {}).get("maxFaith", 24))
        players = sorted(g["players"], key=lambda p: p["nickname"] != actor)
        for p in players:
            if int(p.get("faithPoints", 0)) >= top:
                return f"{p['nickname']} reached the end of the faith track: the last round has begun"
            if sum(len(s) for s in p["devSlots"]) >= 7:
                return f"{p['nickname']} has seven development cards: the last round has begun"
        return "the last round has begun"

    def _game_end(self, m: Msg) -> str:
        """Who ended the game, why, and who won."""
        g = self.vm.game
        assert g is not None
        top = int(g.get("faithTrack", {}).get("maxFaith", 24))
        if len(g["players"]) > 1:
            return f"the last round was played out: {m.get('winner', 'nobody')} wins"
        p = g["players"][0]
        me = p["nickname"]
        if "winner" not in m:
            if int(g.get("blackPoints", 0)) >= top:
                return "Lorenzo's black cross reached the end of the faith track: Lorenzo wins"
            gone = vanished_colour(g)
            if gone:
                return f"no {gone} card is left on the grid: Lorenzo wins"
            return "a colour of development cards ran out on the grid: Lorenzo wins"
        if int(p.get("faithPoints", 0)) >= top:
            return f"{me} reached the end of the faith track before Lorenzo: {me} wins"
        if sum(len(s) for s in p["devSlots"]) >= 7:
            return f"that is {me}'s seventh development card, before Lorenzo could stop it: {me} wins"
        return f"the game is over: {me} wins"

    # ------------------------------------------------------------------ sentences
    def _sentence(self, action: str, who: str) -> str:
        before, after = self._before, self.vm.game
        assert before is not None and after is not None
        if action == "TAKE_MARKET_RESOURCES":
            return self._market(who, before, after)
        if action == "BUY_DEVELOPMENT_CARD":
            p0, p1 = _player(before, who), _player(after, who)
            for i, (s0, s1) in enumerate(zip(p0["devSlots"], p1["devSlots"])):
                if s0 != s1:
                    card = _card(after, s1[-1])
                    return (f"{who} bought a level {card['level']} {card['color']} card "
                            f"({card['victoryPoints']} VP) for the {ORDINAL.get(i + 1, str(i + 1))} slot")
            return f"{who} bought a card"
        if action == "ACTIVATE_PRODUCTION":
            net = _diff(_holdings(before, who), _holdings(after, who))
            faith = _player(after, who)["faithPoints"] - _player(before, who)["faithPoints"]
            if faith:
                net["Faith"] = faith
            parts = [amount(n, r, signed=True) for r, n in sorted(net.items()) if n]
            return f"{who} ran production" + (f" (net {', '.join(parts)})" if parts else "")
        if action == "ACTIVATE_LEADER":
            lid = next((ld["id"] for ld in after["leaderCards"] if ld["active"]
                        and not _leader(before, ld["id"])["active"]), None)
            return f"{who} played a leader" + (f": {leader_ability(_leader(after, lid))}" if lid is not None else "")
        if action == "DISCARD_LEADER":
            return f"{who} discarded a leader for 1 faith"
        if action == "SWAP_SHELVES":
            return f"{who} rearranged the warehouse"
        if action == "CHOOSE_LEADERS":
            return f"{who} kept two leaders"
        if action == "CHOOSE_RESOURCES":
            gained = _diff(_holdings(before, who), _holdings(after, who))
            return f"{who} took the starting resources" + (f" ({amounts(gained)})" if gained else "")
        if action == "END_TURN":
            if len(after["players"]) == 1:
                tok = after.get("lastActionToken")
                kinds = {t["id"]: t for t in after.get("actionTokens", [])}
                if tok is not None:
                    t = kinds.get(tok, {})
                    words = TOKEN_WORDS.get(t.get("kind", ""), "played a token").format(
                        color=t.get("discardedDevCardColor", ""))
                    return f"{who} ended the turn. Lorenzo {words}"
                return f"{who} ended the turn"
            if after["ended"]:
                return f"{who} ended the turn"
            passed = self._passed_over(after, who, after["currentPlayer"])
            if passed:                # the away players' turns are passed, each time: say so
                again = " again" if after["currentPlayer"] == who else ""
                return f"{who} ended the turn; {self._away(passed)}, so {self._turn_of(after['currentPlayer'])}{again}"
            if after["currentPlayer"] == who:
                return f"{who} ended the turn"
            return f"{who} ended the turn; it is {after['currentPlayer']}'s turn"
        return f"{who}: {action.lower().replace('_', ' ')}"

    @staticmethod
    def _passed_over(g: Msg, start: str, stop: str) -> list[str]:
        """The players seated after ``start`` and before ``stop`` (going round the table) who are
        away: their turns were passed over."""
        seats = [p["nickname"] for p in g["players"]]
        if start not in seats or stop not in seats:
            return []
        i, out = seats.index(start), []
        for _ in range(len(seats)):
            i = (i + 1) % len(seats)
            if seats[i] == stop:
                break
            if not g["players"][i].get("active", True):
                out.append(seats[i])
        return out

    def _away(self, who: list[str]) -> str:
        """"Ada is away", "Ada and Cosimo are away", "you were away" (a returning player's history)."""
        names = ["you" if n == self.vm.nickname else n for n in who]
        verb = "were" if names == ["you"] else "is" if len(names) == 1 else "are"
        return f"{' and '.join(names)} {verb} away"

    def _turn_of(self, player: str) -> str:
        return "it is your turn" if player == self.vm.nickname else f"the turn passes to {player}"

    def _market(self, who: str, before: Msg, after: Msg) -> str:
        line, gave = _market_line(before["market"], after["market"])
        stored = {r: n for r, n in _diff(_holdings(before, who), _holdings(after, who)).items() if n > 0}
        faith = _player(after, who)["faithPoints"] - _player(before, who)["faithPoints"]
        got = dict(stored)
        if faith:
            got["Faith"] = faith
        text = f"{who} took {line}: {amounts(got)}"
        if gave is not None:
            taken = {r: n for r, n in gave.items() if r not in ("Zero", "Faith")}
            convert = _converts(after, who)
            if convert and gave.get("Zero"):
                taken[convert] = taken.get(convert, 0) + gave["Zero"]
            dropped = {r: n - stored.get(r, 0) for r, n in taken.items() if n > stored.get(r, 0)}
            n = sum(dropped.values())
            if n:
                gain = f"Lorenzo's black cross +{n}" if len(after["players"]) == 1 else f"everyone else +{n} faith"
                text += f"; discarded {amounts(dropped)} — {gain}"
        return text


LAST_ROUND = "the last round has begun"
"""Stands in the action's line for the start of the last round until the action is over (then
it says who began it, or goes when the game ended at once)."""


def _player(g: Msg, who: str) -> Msg:
    return next(p for p in g["players"] if p["nickname"] == who)


def _card(g: Msg, cid: int) -> Msg:
    return next(c for c in g["developmentCards"] if c["id"] == cid)


def _leader(g: Msg, lid: int) -> Msg:
    return next(ld for ld in g["leaderCards"] if ld["id"] == lid)


def _converts(g: Msg, who: str) -> str | None:
    """The resource white marbles become for this player when exactly one leader converts them."""
    p = _player(g, who)
    actives = p.get("activeLeaders", [i for i in p["leadersHand"] if _leader(g, i)["active"]])
    zero = [_leader(g, i)["resourceType"] for i in actives if _leader(g, i)["leaderType"] == "ZERO"]
    return zero[0] if len(zero) == 1 else None


def _holdings(g: Msg, who: str) -> dict[str, int]:
    p = _player(g, who)
    ids = set(p["warehouseShelves"]) | {p["strongbox"]} | set(p.get("leaderDepots", []))
    out: dict[str, int] = {}
    for c in g["resContainers"]:
        if c["id"] in ids:
            for r, n in c["content"].items():
                out[r] = out.get(r, 0) + n
    return out


def _diff(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    return {r: b.get(r, 0) - a.get(r, 0) for r in set(a) | set(b) if b.get(r, 0) != a.get(r, 0)}


def _market_line(m0: Msg, m1: Msg) -> tuple[str, dict[str, int] | None]:
    """Which line was taken (by the push rule) and what its marbles were."""
    g0, g1 = m0["grid"], m1["grid"]
    for r, row in enumerate(g0):
        if g1[r] == row[1:] + [m0["slide"]] and m1["slide"] == row[0]:
            return f"row {r + 1}", _tally(row)
    for c in range(len(g0[0])):
        col = [row[c] for row in g0]
        new = [row[c] for row in g1]
        if new == col[1:] + [m0["slide"]] and m1["slide"] == col[0]:
            return f"column {c + 1}", _tally(col)
    return "from the market", None


def _tally(marbles: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for x in marbles:
        out[x] = out.get(x, 0) + 1
    return out
