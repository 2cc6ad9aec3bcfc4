"""The table in words: what the text client answers to ``market``, ``grid``, ``board``, ``leaders``,
``track``, ``lorenzo`` and ``score``.

Each answer is a few plain sentences, or a short table in words (one line per row, the row's name
first), read in order by a screen reader: never a picture made of characters. Everything is read
from the session's view model and its front door (:class:`~game.client.session.GameSession`), as
the board draws it.
"""
from __future__ import annotations

import re
from typing import Any

from game.client.outcome import final_scores, outcome_words
from game.client.session import GameSession
from game.client.words import LORENZO, amount, joined, leader_words, market_gives

Msg = dict[str, Any]
LEVELS = (1, 2, 3)
ORDINAL = {1: "first", 2: "second", 3: "third"}
TOKENS = {
    "ActionTokenDiscardTwo": "discard two {color} cards from the grid",
    "ActionTokenBlackMoveTwo": "move the black cross 2 spaces",
    "ActionTokenBlackMoveOneShuffle": "move the black cross 1 space and shuffle the tokens",
}


def spoken(line: str) -> str:
    """A line as a screen reader should read it: the board's compact signs in words. A clause
    after a dash is a sentence of its own; an arrow "gives"; +2 and −2 "plus 2" and "minus 2"; a
    sentence that trails off (…) ends with a full stop.

    >>> spoken("Ada took row 1; discarded 1 Coin — Lorenzo's black cross +1 — Vatican report 1: ...")
    "Ada took row 1; discarded 1 Coin. Lorenzo's black cross plus 1. Vatican report 1: ..."
    >>> spoken("Ada played a leader: 1 Coin → 1 resource of your choice + 1 Faith (net −2 Coins)")
    'Ada played a leader: 1 Coin gives 1 resource of your choice and 1 Faith (net minus 2 Coins)'
    >>> spoken("Looking for tables… Say list to see them.")
    'Looking for tables. Say list to see them.'
    """
    line = _DASH.sub(lambda m: ". " + m[1].upper(), line).replace(" — ", ": ")
    line = line.replace(" → ", " gives ").replace(" + ", " and ")
    line = _SIGN.sub(lambda m: m[1] + ("plus " if m[2] == "+" else "minus "), line)
    line = _TRAILING.sub(".", line)
    return line[:-1] + "." if line.endswith("…") else line


_DASH = re.compile(r" — (\w)")
_SIGN = re.compile(r"(^|[\s(])([+−])(?=\d)")
_TRAILING = re.compile(r"…(?= [A-Z])")


def counted(amounts: dict[str, int], empty: str = "nothing") -> str:
    """``{"Coin": 2, "Stone": 1}`` → ``"2 Coins and 1 Stone"``."""
    parts = [amount(n, r) for r, n in sorted(amounts.items()) if n]
    return joined(parts) if parts else empty


def marble(kind: str) -> str:
    return {"Zero": "white", "Faith": "red (Faith)"}.get(kind, kind)


def production_words(prod: Msg) -> str:
    """"1 Coin and 1 Stone give 1 Faith", "2 resources of your choice give 1 of your choice"."""
    ins = counted(prod.get("input") or {}, "")
    if prod.get("inputBlanks"):
        n = prod["inputBlanks"]
        ins = joined([x for x in (ins, f"{n} resource{'s' * (n > 1)} of your choice") if x])
    outs = counted(prod.get("output") or {}, "")
    if prod.get("outputBlanks"):
        n = prod["outputBlanks"]
        outs = joined([x for x in (outs, f"{n} resource{'s' * (n > 1)} of your choice") if x])
    return f"{ins or 'nothing'} give{'s' if ins.startswith('1 ') and ' and ' not in ins else ''} {outs or 'nothing'}"


def card_words(g: Msg, card: Msg) -> str:
    """"level 1 green card, 1 VP, costs 2 Shields; 1 Coin gives 1 Faith"."""
    prods = {p["id"]: p for p in g["productions"]}
    cost = counted((card.get("cost") or {}).get("requirements") or {})
    prod = prods.get(card.get("production", -1))
    does = f"; it produces: {production_words(prod)}" if prod else ""
    return f"level {card['level']} {card['color'].lower()} card, {card['victoryPoints']} VP, costs {cost}{does}"


# ---------------------------------------------------------------------------- market
def market(session: GameSession) -> list[str]:
    g = session.vm.game
    assert g is not None
    m = g["market"]
    out = ["The market, row by row (left to right), and what taking each line would give you:"]
    for r, row in enumerate(m["grid"]):
        out.append(f"Row {r + 1}: {', '.join(marble(x) for x in row)}. {_gives(session, True, r)}".rstrip())
    for c in range(len(m["grid"][0])):
        col = [row[c] for row in m["grid"]]
        out.append(f"Column {c + 1}: {', '.join(marble(x) for x in col)}. {_gives(session, False, c)}".rstrip())
    out.append(f"The spare marble: {marble(m['slide'])}.")
    return out


def _gives(session: GameSession, is_row: bool, index: int) -> str:
    if not session.vm.game.get("isSetupDone"):
        return ""
    line = session.market_line(is_row, index)
    said = market_gives(line)
    if len(line.white_options) > 1:    # which: the board shows them as it is taken
        said += f" ({' or '.join(line.white_options)})"
    return said + "."


# ---------------------------------------------------------------------------- grid
def grid(session: GameSession) -> list[str]:
    g = session.vm.game
    assert g is not None
    cards = session.vm.cards
    top = g["devCardGrid"]["topCards"]
    left = g["devCardGrid"].get("cardsLeft") or {}
    play = g.get("isSetupDone") and not g.get("ended")
    out = ["The development cards on sale, the top card of each deck (buy one with: buy COLOUR LEVEL):"]
    for level in LEVELS:
        whys = {c: session.purchase_words(c, level) for c in top} if play else {}
        same = set(whys.values())
        once = next(iter(same)) if len(same) == 1 and None not in same and "Click to buy" not in same else None
        out.append(f"Level {level}:" + (f" none can be bought now. {once}" if once else ""))
        for colour, piles in top.items():
            cid = piles[level] if level < len(piles) else None
            n = (left.get(colour) or [0] * 4)[level] if level < len(left.get(colour) or []) else None
            if cid is None or cid not in cards:
                out.append(f"  {colour}: none left.")
                continue
            card = cards[cid]
            deck = f" ({n} in the deck)" if n else ""
            line = f"  {colour}{deck}: {card['victoryPoints']} VP, costs " \
                   f"{counted((card.get('cost') or {}).get('requirements') or {})}; produces: " \
                   f"{production_words(_prod(g, card))}."
            if play and not once:
                why = whys[colour]
                line += " You can buy it." if why == "Click to buy" else f" {why}" if why else ""
            out.append(line)
    return out


def _prod(g: Msg, card: Msg) -> Msg:
    return next((p for p in g["productions"] if p["id"] == card.get("production")), {})


# ---------------------------------------------------------------------------- boards
def shelves(session: GameSession, p: Msg) -> list[str]:
    """Each shelf and depot and the strongbox, in words."""
    vm = session.vm
    out = []
    for k, cid in enumerate(p["warehouseShelves"]):
        c = vm.container(cid)
        out.append(f"Shelf {k + 1} (holds {c['size']}): {counted(c['content'], 'empty')}.")
    for k, cid in enumerate(p.get("leaderDepots") or []):
        c = vm.container(cid)
        bound = c.get("boundedResType") or next(
            (ld["resourceType"] for ld in vm.leaders.values() if ld.get("containerId") == cid), "")
        out.append(f"Depot {k + 1}, the {bound} depot (holds {c['size']}): {counted(c['content'], 'empty')}.")
    box = vm.container(p["strongbox"])
    out.append(f"Strongbox: {counted(box['content'], 'empty')}.")
    return out


def board(session: GameSession, nick: str | None = None) -> list[str]:
    vm = session.vm
    g = vm.game
    assert g is not None
    me = nick is None or nick == session.nickname
    p = vm.me if me else vm.player(nick)
    who = "Your board" if me else f"The board of {session.name_in_words(p['nickname'])}"
    away = "" if p.get("active", True) else " (away from the table)"
    out = [f"{who}{away}: {p['victoryPoints']} VP so far, faith {p['faithPoints']}."]
    out += shelves(session, p)
    for i, slot in enumerate(p["devSlots"]):
        if not slot:
            out.append(f"Slot {i + 1}: empty.")
            continue
        card = vm.cards[slot[-1]]
        under = f", on {len(slot) - 1} more" if len(slot) > 1 else ""
        out.append(f"Slot {i + 1}: {card_words(g, card)}{under}.")
    played = [lid for lid in p["leadersHand"] if vm.leader(lid)["active"]]
    prods = {pr["id"]: pr for pr in g["productions"]}
    for lid in played:
        name, ability, _need, vp = leader_words(vm.leader(lid), prods)
        out.append(f"Leader in play: {name} ({vp} VP). {ability}")
    if not me:
        hidden = int(p.get("leadersHandCount", len(p["leadersHand"]))) - len(played)
        if hidden > 0:
            out.append(f"{hidden} leader{'s' * (hidden > 1)} in hand, face down.")
    return out


def leaders(session: GameSession) -> list[str]:
    vm = session.vm
    g = vm.game
    assert g is not None
    prods = {pr["id"]: pr for pr in g["productions"]}
    hand = list(vm.me["leadersHand"])
    out = []
    playing = g.get("isSetupDone") and not g.get("ended")
    for i, lid in enumerate(hand):
        ld = vm.leader(lid)
        name, ability, need, vp = leader_words(ld, prods)
        if ld["active"]:
            out.append(f"{i + 1}. {name}, in play ({vp} VP). {ability}")
            continue
        line = f"{i + 1}. {name}, in your hand ({vp} VP). {ability} {need}"
        if playing and vm.me["setup"]["hasChosenLeaders"]:
            why = session.leader_refusal(lid)
            line += " You can play it now." if why is None else f" Still missing: {missing(why)}."
        out.append(line)
    if not out:
        out.append("You have no leaders left.")
    for p in g["players"]:
        if p["nickname"] == session.nickname:
            continue
        theirs = [leader_words(vm.leader(lid), prods) for lid in p["leadersHand"] if vm.leader(lid)["active"]]
        if theirs:
            out.append(f"{session.name_in_words(p['nickname'])} has in play: "
                       + "; ".join(f"{n} ({a})" for n, a, _, _ in theirs))
    return out


# ---------------------------------------------------------------------------- track, Lorenzo, scores
def missing(why: str) -> str:
    """The board's "Needs 5 Shields (you have 1)" as what is still missing ("5 Shields (you have 1)")."""
    return why[len("Needs "):] if why.startswith("Needs ") else why[:1].lower() + why[1:]


def track(session: GameSession) -> list[str]:
    g = session.vm.game
    assert g is not None
    ft = g["faithTrack"]
    out = [f"The faith track runs from 0 to {ft['maxFaith']}."]
    marks = [f"{'you' if p['nickname'] == session.nickname else session.name_in_words(p['nickname'])} "
             f"on {p['faithPoints']}" for p in g["players"]]
    if len(g["players"]) == 1:
        marks.append(f"Lorenzo's black cross on {g.get('blackPoints', 0)}")
    out.append("Markers: " + joined(marks) + ".")
    me = session.vm.me
    for i, sec in enumerate(sorted(ft["vaticanSections"].values(), key=lambda s: s["faithPointsEnd"])):
        head = (f"Vatican report {i + 1} (spaces {sec['faithPointsBeginning']} to {sec['faithPointsEnd']}, "
                f"{sec['victoryPoints']} VP)")
        if sec["activated"]:
            who = [n for n in sec.get("bonusGivenPlayers") or []]
            got = "you turned your tile face up" if session.nickname in who else "your tile was removed"
            others = [n for n in who if n != session.nickname]
            more = f"; {joined(others)} too" if others and len(g["players"]) > 1 else ""
            out.append(f"{head}: made; {got}{more}.")
        else:
            out.append(f"{head}: to come, when a marker reaches {sec['faithPointsEnd']}.")
    tiles = ft.get("yellowTiles") or []
    nxt = next((t for t in tiles if t["faithPoints"] > me["faithPoints"]), None)
    if nxt is not None:
        out.append(f"Your next victory points on the track: space {nxt['faithPoints']}, worth {nxt['victoryPoints']} VP.")
    return out


def lorenzo(session: GameSession) -> list[str]:
    g = session.vm.game
    assert g is not None
    if len(g["players"]) > 1:
        return ["Lorenzo plays only in a solo game."]
    kinds = {t["id"]: t for t in g.get("actionTokens", [])}
    out = [f"{LORENZO}: his black cross is on space {g.get('blackPoints', 0)} of "
           f"{g['faithTrack']['maxFaith']}."]
    last = g.get("lastActionToken")
    if last is None or last not in kinds:
        out.append("He has not turned up a token yet.")
    else:
        out.append(f"His last token: {_token(kinds[last])}.")
    shown = [t for t in session.vm.revealed_tokens if t in kinds]
    left = len(kinds) - len(shown)
    out.append(f"{len(shown)} token{'s' * (len(shown) != 1)} face up since the last shuffle, {left} still in the pile.")
    return out


def _token(t: Msg) -> str:
    return TOKENS.get(t.get("kind", ""), "a token").format(color=str(t.get("discardedDevCardColor", "")).lower())


def score(session: GameSession) -> list[str]:
    g = session.vm.game
    assert g is not None
    if g.get("ended"):
        rows = final_scores(session)
        head, why = outcome_words(session, rows)
        out = [f"The game is over: {head}. {why}"]
        for nick, s in rows:
            who = "You" if nick == session.nickname else session.name_in_words(nick)
            out.append(f"{who}: {s['total']} VP ({s['cards']} from cards, {s['faith_track']} from the track, "
                       f"{s['favors']} from favor tiles, {s['leaders']} from leaders, {s['resource_vp']} from "
                       f"{s['resources']} resources left).")
        return out
    out = ["Victory points so far (the track, favor tiles, cards and leaders in play; "
           "resources count at the end):"]
    for p in sorted(g["players"], key=lambda p: -p["victoryPoints"]):
        who = "You" if p["nickname"] == session.nickname else session.name_in_words(p["nickname"])
        out.append(f"{who}: {p['victoryPoints']} VP, faith {p['faithPoints']}.")
    if len(g["players"]) == 1:
        out.append(f"Lorenzo's black cross: space {g.get('blackPoints', 0)}.")
    return out


def turn(session: GameSession) -> str:
    """Whose turn it is and what is left to do, in one sentence."""
    g = session.vm.game
    if g is None:
        return "No game yet."
    if g.get("ended"):
        return "The game is over: say score for the final scores."
    if not g.get("isSetupDone"):
        stage = session.stage()
        if stage == "leaders":
            return ("Choose the leaders you keep: say keep and their numbers (keep 1 3); "
                    "leaders says them again.")
        if stage == "resources":
            return "Choose your starting resources: say resources and them (resources Coin)."
        return "Waiting for the others to choose their leaders and resources."
    if not session.vm.my_turn:
        return f"It is {session.name_in_words(g['currentPlayer'])}'s turn."
    if g["isMandatoryActionDone"]:
        return ("It is your turn; your main action is done: play or discard a leader, rearrange your shelves, "
                "or end your turn (end).")
    return "It is your turn: take from the market (take), buy a card (buy) or produce (produce)."
