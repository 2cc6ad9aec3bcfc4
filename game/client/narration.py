"""The action log in words: "Bianca took row 2: 2 Coins, 1 Faith; discarded 1 Stone — everyone else +1 faith".

A :class:`Narrator` reads the same messages as the view model (after the view model applied
them). It remembers the state at the start of each action so that, when ``UpdateAction`` closes
the action, it can say what changed.
"""
from __future__ import annotations

import copy
from typing import Any, Callable

import orjson

from game.i18n import _, ngettext

from .view_model import ViewModel
from .words import amount, cards, colour_name, joined, leader_ability, leader_name, vanished_colour
from .words import amounts as _amounts

Msg = dict[str, Any]


def token_words(kind: str, colour: str) -> str:
    """What Lorenzo's action token did, after his name ("Lorenzo discarded two green cards...")."""
    if kind == "ActionTokenDiscardTwo":
        return _("Lorenzo discarded {cards} from the grid").format(cards=cards(2, colour))
    if kind == "ActionTokenBlackMoveTwo":
        return _("Lorenzo moved the black cross 2 spaces")
    if kind == "ActionTokenBlackMoveOneShuffle":
        return _("Lorenzo moved the black cross 1 space and shuffled the tokens")
    return _("Lorenzo played a token")


def undone_words(who: str, action: str, mine: bool = False) -> str:
    """What an undo took back, in words (``UpdateUndo.action``); ``mine``: this player's own, told
    to them ("You took back your purchase.")."""
    if mine:
        said = {"TAKE_MARKET_RESOURCES": _("You took back your market action."),
                "ACTIVATE_PRODUCTION": _("You took back your production."),
                "ACTIVATE_LEADER": _("You took back playing a leader."),
                "DISCARD_LEADER": _("You took back your leader discard."),
                "SWAP_SHELVES": _("You took back your warehouse move."),
                "BUY_DEVELOPMENT_CARD": _("You took back your purchase.")}.get(action)
        return said or _("You took back your last move.")
    said = {"TAKE_MARKET_RESOURCES": _("{name} took back their market action."),
            "ACTIVATE_PRODUCTION": _("{name} took back their production."),
            "ACTIVATE_LEADER": _("{name} took back playing a leader."),
            "DISCARD_LEADER": _("{name} took back their leader discard."),
            "SWAP_SHELVES": _("{name} took back their warehouse move."),
            "BUY_DEVELOPMENT_CARD": _("{name} took back their purchase.")}.get(action)
    return (said or _("{name} took back their last move.")).format(name=who)


def _slot(i: int, who: str, level: int, colour: str, vp: int, mine: bool = False) -> str:
    args = {"name": who, "level": level, "colour": colour_name(colour), "vp": vp}
    if mine:
        if i == 1:
            return _("You bought a level-{level} {colour} card ({vp} VP) for the first slot").format(**args)
        if i == 2:
            return _("You bought a level-{level} {colour} card ({vp} VP) for the second slot").format(**args)
        if i == 3:
            return _("You bought a level-{level} {colour} card ({vp} VP) for the third slot").format(**args)
        return _("You bought a level-{level} {colour} card ({vp} VP) for slot {n}").format(n=i, **args)
    if i == 1:
        return _("{name} bought a level-{level} {colour} card ({vp} VP) for the first slot").format(**args)
    if i == 2:
        return _("{name} bought a level-{level} {colour} card ({vp} VP) for the second slot").format(**args)
    if i == 3:
        return _("{name} bought a level-{level} {colour} card ({vp} VP) for the third slot").format(**args)
    return _("{name} bought a level-{level} {colour} card ({vp} VP) for slot {n}").format(n=i, **args)


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
    """``name``: a player's name as the log says it (a bot's with its level, see
    :meth:`~.session.GameSession.shown_name`), from their nickname. ``you``: the log is read by
    the view model's player, whose own moves are told to them ("You took row 1"), not of them in
    the third person (a replay, a watcher: everyone by their name)."""

    def __init__(self, vm: ViewModel, name: Callable[[str], str] = str, you: bool = False) -> None:
        self.vm = vm
        self.name = name
        self.you = you
        self._before: Msg | None = None
        self._extra: list[Any] = []   # words, and LAST_ROUND until the action is over
        self._status = False     # the last update was a player leaving or coming back
        self._gone: str | None = None   # ... and it was this player leaving

    def _mine(self, who: str | None) -> bool:
        """Whether ``who`` is the player who reads this log (told "you")."""
        return self.you and who is not None and who == self.vm.nickname

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
                line = self._away_so(self._away([gone]), m["player"]) + "."
                return line[:1].upper() + line[1:]
            if m["player"] == self.vm.nickname:
                return _("It is your turn.")
            return _("It is {name}'s turn.").format(name=self.name(m["player"]))
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
            return undone_words(self.name(m["player"]), m.get("action", ""), self._mine(m["player"]))
        elif t == "UpdatePlayerStatus":
            self._status = True
            self._gone = None if m["isActive"] else m["player"]
            if m["player"] == self.vm.nickname:
                return None      # our own return (the reference tells the returning player too)
            if m["isActive"]:
                return _("{name} is back at the table.").format(name=self.name(m["player"]))
            return _("{name} left the table.").format(name=self.name(m["player"]))
        elif t == "UpdateAction":
            line = self._sentence(m["action"], m["player"])
            self._extra = [self._last_round(m["player"]) if x is LAST_ROUND else str(x) for x in self._extra]
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
        vp = " " + _("(+{vp} VP)").format(vp=sec["victoryPoints"]) if sec and sec.get("victoryPoints") else ""
        players = [p["nickname"] for p in self._before["players"]]
        out = [p for p in players if p not in who]
        if len(players) == 1:
            me = self.name(players[0])
            if self._mine(players[0]):
                said = (_("you are in the section and turn the favor tile face up{vp}").format(vp=vp) if who else
                        _("you are not in the section; your favor tile is removed"))
            elif who:
                said = _("{name} is in the section and turns the favor tile face up{vp}").format(name=me, vp=vp)
            else:
                said = _("{name} is not in the section; the favor tile is removed").format(name=me)
        elif not who:
            said = _("nobody is in the section; every favor tile is removed")
        else:
            said = self._turned_up(who, vp)
            if out:
                said += "; " + self._removed(out)
        return _("Vatican report {n}: {what}").format(n=n, what=said)

    def _turned_up(self, who: list[str], vp: str) -> str:
        """"Ada and Bea turn the favor tile face up", "you turn...", "Bea and you turn..."."""
        others = [self.name(n) for n in who if not self._mine(n)]
        if len(others) == len(who):
            return ngettext("{names} turns the favor tile face up{vp}", "{names} turn the favor tile face up{vp}",
                            len(who)).format(names=joined(others), vp=vp)
        if not others:
            return _("you turn the favor tile face up{vp}").format(vp=vp)
        return _("{names} and you turn the favor tile face up{vp}").format(names=joined(others), vp=vp)

    def _removed(self, out: list[str]) -> str:
        """"Cosimo's is removed", "yours is removed", "Cosimo's and yours are removed"."""
        others = [self.name(n) for n in out if not self._mine(n)]
        if len(others) == len(out):
            return ngettext("{names}'s is removed", "{names}'s are removed", len(out)).format(names=joined(others))
        if not others:
            return _("yours is removed")
        return ngettext("{names}'s and yours are removed", "{names}'s and yours are removed", len(others)).format(
            names=joined(others))

    def _last_round(self, actor: str) -> str:
        """Why the last round began: the player who reached the end of the track or bought a
        seventh card (the one who acted first: discarded resources may move the others too)."""
        g = self.vm.game
        assert g is not None
        top = int(g.get("faithTrack", {}).get("maxFaith", 24))
        players = sorted(g["players"], key=lambda p: p["nickname"] != actor)
        for p in players:
            mine = self._mine(p["nickname"])
            if int(p.get("faithPoints", 0)) >= top:
                if mine:
                    return _("you reached the end of the faith track: the last round has begun")
                return _("{name} reached the end of the faith track: the last round has begun").format(
                    name=self.name(p["nickname"]))
            if sum(len(s) for s in p["devSlots"]) >= 7:
                if mine:
                    return _("you have seven development cards: the last round has begun")
                return _("{name} has seven development cards: the last round has begun").format(
                    name=self.name(p["nickname"]))
        return _("the last round has begun")

    def _game_end(self, m: Msg) -> str:
        """Who ended the game, why, and who won."""
        g = self.vm.game
        assert g is not None
        top = int(g.get("faithTrack", {}).get("maxFaith", 24))
        if len(g["players"]) > 1:
            if "winner" not in m:
                return _("the last round was played out: nobody wins")
            if self._mine(m["winner"]):
                return _("the last round was played out: you win")
            return _("the last round was played out: {name} wins").format(name=self.name(m["winner"]))
        p = g["players"][0]
        me = self.name(p["nickname"])
        if "winner" not in m:
            if int(g.get("blackPoints", 0)) >= top:
                return _("Lorenzo's black cross reached the end of the faith track: Lorenzo wins")
            gone = vanished_colour(g)
            if gone:
                return _("no {colour} card is left on the grid: Lorenzo wins").format(colour=colour_name(gone))
            return _("a colour of development cards ran out on the grid: Lorenzo wins")
        mine = self._mine(p["nickname"])
        if int(p.get("faithPoints", 0)) >= top:
            if mine:
                return _("you reached the end of the faith track before Lorenzo: you win")
            return _("{name} reached the end of the faith track before Lorenzo: {name} wins").format(name=me)
        if sum(len(s) for s in p["devSlots"]) >= 7:
            if mine:
                return _("that is your seventh development card, before Lorenzo could stop it: you win")
            return _("that is {name}'s seventh development card, before Lorenzo could stop it: {name} wins").format(
                name=me)
        if mine:
            return _("the game is over: you win")
        return _("the game is over: {name} wins").format(name=me)

    # ------------------------------------------------------------------ sentences
    def _sentence(self, action: str, who: str) -> str:
        before, after = self._before, self.vm.game
        assert before is not None and after is not None
        if action == "TAKE_MARKET_RESOURCES":
            return self._market(who, before, after)
        if self._mine(who):
            return self._my_sentence(action, who, before, after)
        name = self.name(who)
        if action == "BUY_DEVELOPMENT_CARD":
            p0, p1 = _player(before, who), _player(after, who)
            for i, (s0, s1) in enumerate(zip(p0["devSlots"], p1["devSlots"])):
                if s0 != s1:
                    card = _card(after, s1[-1])
                    return _slot(i + 1, name, card["level"], card["color"], card["victoryPoints"])
            return _("{name} bought a card").format(name=name)
        if action == "ACTIVATE_PRODUCTION":
            net = _diff(_holdings(before, who), _holdings(after, who))
            faith = _player(after, who)["faithPoints"] - _player(before, who)["faithPoints"]
            if faith:
                net["Faith"] = faith
            parts = [amount(n, r, signed=True) for r, n in sorted(net.items()) if n]
            if parts:
                return _("{name} ran production (net {amounts})").format(name=name, amounts=", ".join(parts))
            return _("{name} ran production").format(name=name)
        if action == "ACTIVATE_LEADER":
            lid = next((ld["id"] for ld in after["leaderCards"] if ld["active"]
                        and not _leader(before, ld["id"])["active"]), None)
            if lid is None:
                return _("{name} played a leader").format(name=name)
            ld = _leader(after, lid)
            return _("{name} played {leader}: {ability}").format(
                name=name, leader=leader_name(ld["leaderType"], ld["resourceType"]), ability=leader_ability(ld))
        if action == "DISCARD_LEADER":
            return _("{name} discarded a leader for 1 faith").format(name=name)
        if action == "SWAP_SHELVES":
            return _("{name} rearranged the warehouse").format(name=name)
        if action == "CHOOSE_LEADERS":
            return _("{name} kept two leaders").format(name=name)
        if action == "CHOOSE_RESOURCES":
            gained = _diff(_holdings(before, who), _holdings(after, who))
            if gained:
                return _("{name} took the starting resources ({amounts})").format(name=name, amounts=amounts(gained))
            return _("{name} took the starting resources").format(name=name)
        if action == "END_TURN":
            if len(after["players"]) == 1:
                tok = after.get("lastActionToken")
                kinds = {t["id"]: t for t in after.get("actionTokens", [])}
                if tok is not None:
                    t = kinds.get(tok, {})
                    return _("{name} ended the turn. {token}").format(
                        name=name, token=token_words(t.get("kind", ""), t.get("discardedDevCardColor", "")))
                return _("{name} ended the turn").format(name=name)
            if after["ended"]:
                return _("{name} ended the turn").format(name=name)
            passed = self._passed_over(after, who, after["currentPlayer"])
            if passed:                # the away players' turns are passed, each time: say so
                return _("{name} ended the turn; {away}").format(
                    name=name, away=self._away_so(self._away(passed), after["currentPlayer"], who))
            if after["currentPlayer"] == who:
                return _("{name} ended the turn").format(name=name)
            if self._mine(after["currentPlayer"]):
                return _("{name} ended the turn; it is your turn").format(name=name)
            return _("{name} ended the turn; it is {next}'s turn").format(name=name, next=self.name(after["currentPlayer"]))
        return f"{name}: {action.lower().replace('_', ' ')}"

    def _my_sentence(self, action: str, who: str, before: Msg, after: Msg) -> str:
        """What the reader of the log did, told to them: "You bought...", "You ended the turn"."""
        if action == "BUY_DEVELOPMENT_CARD":
            p0, p1 = _player(before, who), _player(after, who)
            for i, (s0, s1) in enumerate(zip(p0["devSlots"], p1["devSlots"])):
                if s0 != s1:
                    card = _card(after, s1[-1])
                    return _slot(i + 1, "", card["level"], card["color"], card["victoryPoints"], mine=True)
            return _("You bought a card")
        if action == "ACTIVATE_PRODUCTION":
            net = _diff(_holdings(before, who), _holdings(after, who))
            faith = _player(after, who)["faithPoints"] - _player(before, who)["faithPoints"]
            if faith:
                net["Faith"] = faith
            parts = [amount(n, r, signed=True) for r, n in sorted(net.items()) if n]
            if parts:
                return _("You ran production (net {amounts})").format(amounts=", ".join(parts))
            return _("You ran production")
        if action == "ACTIVATE_LEADER":
            lid = next((ld["id"] for ld in after["leaderCards"] if ld["active"]
                        and not _leader(before, ld["id"])["active"]), None)
            if lid is None:
                return _("You played a leader")
            ld = _leader(after, lid)
            return _("You played {leader}: {ability}").format(
                leader=leader_name(ld["leaderType"], ld["resourceType"]), ability=leader_ability(ld))
        if action == "DISCARD_LEADER":
            return _("You discarded a leader for 1 faith")
        if action == "SWAP_SHELVES":
            return _("You rearranged the warehouse")
        if action == "CHOOSE_LEADERS":
            return _("You kept two leaders")
        if action == "CHOOSE_RESOURCES":
            gained = _diff(_holdings(before, who), _holdings(after, who))
            if gained:
                return _("You took the starting resources ({amounts})").format(amounts=amounts(gained))
            return _("You took the starting resources")
        if action == "END_TURN":
            if len(after["players"]) == 1:
                tok = after.get("lastActionToken")
                kinds = {t["id"]: t for t in after.get("actionTokens", [])}
                if tok is not None:
                    t = kinds.get(tok, {})
                    return _("You ended the turn. {token}").format(
                        token=token_words(t.get("kind", ""), t.get("discardedDevCardColor", "")))
                return _("You ended the turn")
            if after["ended"]:
                return _("You ended the turn")
            passed = self._passed_over(after, who, after["currentPlayer"])
            if passed:
                return _("You ended the turn; {away}").format(
                    away=self._away_so(self._away(passed), after["currentPlayer"], who))
            if after["currentPlayer"] == who:
                return _("You ended the turn")
            return _("You ended the turn; it is {next}'s turn").format(next=self.name(after["currentPlayer"]))
        return f"{self.name(who)}: {action.lower().replace('_', ' ')}"

    @staticmethod
    def _passed_over(g: Msg, start: str, stop: str) -> list[str]:
        """The players seated after ``start`` and before ``stop`` (going round the table) who are
        away: their turns were passed over."""
        seats = [p["nickname"] for p in g["players"]]
        if start not in seats or stop not in seats:
            return []
        i, out = seats.index(start), []
        for _seat in range(len(seats)):
            i = (i + 1) % len(seats)
            if seats[i] == stop:
                break
            if not g["players"][i].get("active", True):
                out.append(seats[i])
        return out

    def _away(self, who: list[str]) -> str:
        """"Ada is away", "Ada and Cosimo are away", "you were away" (a returning player's history)."""
        if who == [self.vm.nickname]:
            return _("you were away")
        names = [_("you") if n == self.vm.nickname else self.name(n) for n in who]
        return ngettext("{names} is away", "{names} are away", len(names)).format(names=joined(names))

    def _away_so(self, away: str, player: str, ended: str | None = None) -> str:
        """"Ada is away, so the turn passes to Bea" (``again`` when it comes back to who ``ended`` it)."""
        if player == self.vm.nickname:
            if player == ended:
                return _("{away}, so it is your turn again").format(away=away)
            return _("{away}, so it is your turn").format(away=away)
        if player == ended:
            return _("{away}, so the turn passes to {name} again").format(away=away, name=self.name(player))
        return _("{away}, so the turn passes to {name}").format(away=away, name=self.name(player))

    def _market(self, who: str, before: Msg, after: Msg) -> str:
        line, gave = _market_line(before["market"], after["market"], self._mine(who))
        stored = {r: n for r, n in _diff(_holdings(before, who), _holdings(after, who)).items() if n > 0}
        faith = _player(after, who)["faithPoints"] - _player(before, who)["faithPoints"]
        got = dict(stored)
        if faith:
            got["Faith"] = faith
        text = line.format(name=self.name(who), amounts=amounts(got))
        if gave is not None:
            taken = {r: n for r, n in gave.items() if r not in ("Zero", "Faith")}
            convert = _converts(after, who)
            if convert and gave.get("Zero"):
                taken[convert] = taken.get(convert, 0) + gave["Zero"]
            dropped = {r: n - stored.get(r, 0) for r, n in taken.items() if n > stored.get(r, 0)}
            n = sum(dropped.values())
            if n:
                if len(after["players"]) == 1:
                    gain = _("Lorenzo's black cross +{n}").format(n=n)
                else:
                    gain = _("everyone else +{n} faith").format(n=n)
                text += "; " + _("discarded {amounts} — {gain}").format(amounts=amounts(dropped), gain=gain)
        return text


LAST_ROUND = object()
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


def _market_line(m0: Msg, m1: Msg, mine: bool = False) -> tuple[str, dict[str, int] | None]:
    """Which line was taken (by the push rule), as the sentence that says it (``{name}`` and
    ``{amounts}`` still to fill; ``mine``: told to the player who took it), and what its marbles were."""
    g0, g1 = m0["grid"], m1["grid"]
    for r, row in enumerate(g0):
        if g1[r] == row[1:] + [m0["slide"]] and m1["slide"] == row[0]:
            said = _("You took row {n}: {amounts}") if mine else _("{name} took row {n}: {amounts}")
            return said.replace("{n}", str(r + 1)), _tally(row)
    for c in range(len(g0[0])):
        col = [row[c] for row in g0]
        new = [row[c] for row in g1]
        if new == col[1:] + [m0["slide"]] and m1["slide"] == col[0]:
            said = _("You took column {n}: {amounts}") if mine else _("{name} took column {n}: {amounts}")
            return said.replace("{n}", str(c + 1)), _tally(col)
    return (_("You took from the market: {amounts}") if mine else _("{name} took from the market: {amounts}")), None


def _tally(marbles: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for x in marbles:
        out[x] = out.get(x, 0) + 1
    return out
