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
from game.client.words import CLICK_TO_BUY, LORENZO, amount, cards as cards_of, colour_name, joined, leader_words, market_gives
from game.client.words import resource_name
from game.i18n import _, ngettext, pgettext

Msg = dict[str, Any]
LEVELS = (1, 2, 3)


def _token_words(kind: str, colour: str) -> str:
    """What a token of Lorenzo's does."""
    if kind == "ActionTokenDiscardTwo":
        return _("discard {cards} from the grid").format(cards=cards_of(2, colour))
    if kind == "ActionTokenBlackMoveTwo":
        return _("move the black cross 2 spaces")
    if kind == "ActionTokenBlackMoveOneShuffle":
        return _("move the black cross 1 space and shuffle the tokens")
    return _("a token")


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
    line = line.replace(" → ", " " + pgettext("spoken sign", "gives") + " ").replace(
        " + ", " " + pgettext("spoken sign", "and") + " ")
    plus, minus = pgettext("spoken sign", "plus"), pgettext("spoken sign", "minus")
    line = _SIGN.sub(lambda m: m[1] + (plus if m[2] == "+" else minus) + " ", line)
    line = _TRAILING.sub(".", line)
    return line[:-1] + "." if line.endswith("…") else line


_DASH = re.compile(r" — (\w)")
_SIGN = re.compile(r"(^|[\s(])([+−])(?=\d)")
_TRAILING = re.compile(r"…(?= [A-Z])")


def counted(amounts: dict[str, int], empty: str | None = None) -> str:
    """``{"Coin": 2, "Stone": 1}`` → ``"2 Coins and 1 Stone"`` (``empty``: "nothing" unless given)."""
    parts = [amount(n, r) for r, n in sorted(amounts.items()) if n]
    return joined(parts) if parts else (_("nothing") if empty is None else empty)


def marble(kind: str) -> str:
    """A marble of the market by its colour ("white", "red (Faith)", "Coin")."""
    return {"Zero": pgettext("marble", "white"), "Faith": pgettext("marble", "red (Faith)")}.get(
        kind, resource_name(kind, 1))


def production_words(prod: Msg) -> str:
    """"1 Coin and 1 Stone give 1 Faith", "2 resources of your choice give 1 of your choice"."""
    def side(fixed: dict[str, int], blanks: int) -> tuple[str, int]:
        """The words of one side, and how many things it counts (one thing: "gives", else "give")."""
        parts = [amount(n, r) for r, n in sorted(fixed.items()) if n]
        counts = [n for n in fixed.values() if n]
        if blanks:
            parts.append(ngettext("{n} resource of your choice", "{n} resources of your choice", blanks).format(n=blanks))
            counts.append(blanks)
        return joined(parts) if parts else "", sum(counts)
    ins, n_in = side(prod.get("input") or {}, int(prod.get("inputBlanks") or 0))
    outs, _n_out = side(prod.get("output") or {}, int(prod.get("outputBlanks") or 0))
    return ngettext("{input} gives {output}", "{input} give {output}", n_in).format(
        input=ins or _("nothing"), output=outs or _("nothing"))


def card_words(g: Msg, card: Msg) -> str:
    """"level 1 green card, 1 VP, costs 2 Shields; 1 Coin gives 1 Faith"."""
    prods = {p["id"]: p for p in g["productions"]}
    cost = counted((card.get("cost") or {}).get("requirements") or {})
    prod = prods.get(card.get("production", -1))
    said = _("level-{level} {colour} card, {vp} VP, costs {cost}").format(
        level=card["level"], colour=colour_name(card["color"]), vp=card["victoryPoints"], cost=cost)
    return said + ("; " + _("it produces: {production}").format(production=production_words(prod)) if prod else "")


# ---------------------------------------------------------------------------- market
def market(session: GameSession) -> list[str]:
    g = session.vm.game
    assert g is not None
    m = g["market"]
    out = [_("The market, row by row (left to right), and what taking each line would give you:")]
    for r, row in enumerate(m["grid"]):
        out.append(_("Row {n}: {marbles}. {gives}").format(n=r + 1, marbles=", ".join(marble(x) for x in row),
                                                          gives=_gives(session, True, r)).rstrip())
    for c in range(len(m["grid"][0])):
        col = [row[c] for row in m["grid"]]
        out.append(_("Column {n}: {marbles}. {gives}").format(n=c + 1, marbles=", ".join(marble(x) for x in col),
                                                             gives=_gives(session, False, c)).rstrip())
    out.append(_("The spare marble: {marble}.").format(marble=marble(m['slide'])))
    return out


def _gives(session: GameSession, is_row: bool, index: int) -> str:
    if not session.vm.game.get("isSetupDone"):
        return ""
    line = session.market_line(is_row, index)
    said = market_gives(line)
    if len(line.white_options) > 1:    # which: the board shows them as it is taken
        said += " (" + _(" or ").join(resource_name(r, 1) for r in line.white_options) + ")"
    return said + "."


# ---------------------------------------------------------------------------- grid
def grid(session: GameSession) -> list[str]:
    g = session.vm.game
    assert g is not None
    cards = session.vm.cards
    top = g["devCardGrid"]["topCards"]
    left = g["devCardGrid"].get("cardsLeft") or {}
    play = g.get("isSetupDone") and not g.get("ended")
    out = [_("The development cards on sale, the top card of each deck (buy one with: buy COLOUR LEVEL):")]
    for level in LEVELS:
        whys = {c: session.purchase_words(c, level) for c in top} if play else {}
        same = set(whys.values())
        once = next(iter(same)) if len(same) == 1 and None not in same and _(CLICK_TO_BUY) not in same else None
        out.append(_("Level {level}: none can be bought now. {why}").format(level=level, why=once) if once else
                   _("Level {level}:").format(level=level))
        for colour, piles in top.items():
            cid = piles[level] if level < len(piles) else None
            n = (left.get(colour) or [0] * 4)[level] if level < len(left.get(colour) or []) else None
            if cid is None or cid not in cards:
                out.append("  " + _("{colour}: none left.").format(colour=colour_name(colour).capitalize()))
                continue
            card = cards[cid]
            args = {"colour": colour_name(colour).capitalize(), "vp": card["victoryPoints"],
                    "cost": counted((card.get("cost") or {}).get("requirements") or {}),
                    "production": production_words(_prod(g, card)), "n": n}
            line = "  " + (ngettext("{colour} ({n} in the deck): {vp} VP, costs {cost}; produces: {production}.",
                                    "{colour} ({n} in the deck): {vp} VP, costs {cost}; produces: {production}.",
                                    n or 0) if n else
                           _("{colour}: {vp} VP, costs {cost}; produces: {production}.")).format(**args)
            if play and not once:
                why = whys[colour]
                line += " " + _("You can buy it.") if why == _(CLICK_TO_BUY) else f" {why}" if why else ""
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
        out.append(_("Shelf {n} (holds {size}): {content}.").format(n=k + 1, size=c["size"],
                                                                  content=counted(c["content"], _("empty"))))
    for k, cid in enumerate(p.get("leaderDepots") or []):
        c = vm.container(cid)
        bound = c.get("boundedResType") or next(
            (ld["resourceType"] for ld in vm.leaders.values() if ld.get("containerId") == cid), "")
        out.append(_("Depot {n}, for {resource} (holds {size}): {content}.").format(
            n=k + 1, resource=resource_name(bound), size=c["size"], content=counted(c["content"], _("empty"))))
    box = vm.container(p["strongbox"])
    out.append(_("Strongbox: {content}.").format(content=counted(box["content"], _("empty"))))
    return out


def board(session: GameSession, nick: str | None = None) -> list[str]:
    vm = session.vm
    g = vm.game
    assert g is not None
    me = nick is None or nick == session.nickname
    p = vm.me if me else vm.player(nick)
    who = _("Your board") if me else _("The board of {name}").format(name=session.shown_name(p["nickname"]))
    away = "" if p.get("active", True) else " " + _("(away from the table)")
    out = [_("{who}{away}: {vp} VP so far, faith {faith}.").format(who=who, away=away, vp=p["victoryPoints"],
                                                                  faith=p["faithPoints"])]
    out += shelves(session, p)
    for i, slot in enumerate(p["devSlots"]):
        if not slot:
            out.append(_("Slot {n}: empty.").format(n=i + 1))
            continue
        card = vm.cards[slot[-1]]
        if len(slot) > 1:
            out.append(ngettext("Slot {n}: {card}, on {under} more.", "Slot {n}: {card}, on {under} more.",
                                len(slot) - 1).format(n=i + 1, card=card_words(g, card), under=len(slot) - 1))
        else:
            out.append(_("Slot {n}: {card}.").format(n=i + 1, card=card_words(g, card)))
    played = [lid for lid in p["leadersHand"] if vm.leader(lid)["active"]]
    prods = {pr["id"]: pr for pr in g["productions"]}
    for lid in played:
        name, ability, _need, vp = leader_words(vm.leader(lid), prods)
        out.append(_("Leader in play: {name} ({vp} VP). {ability}").format(name=name, vp=vp, ability=ability))
    if not me:
        hidden = int(p.get("leadersHandCount", len(p["leadersHand"]))) - len(played)
        if hidden > 0:
            out.append(ngettext("{n} leader in hand, face down.", "{n} leaders in hand, face down.", hidden).format(
                n=hidden))
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
            out.append(_("{n}. {name}, in play ({vp} VP). {ability}").format(n=i + 1, name=name, vp=vp, ability=ability))
            continue
        line = _("{n}. {name}, in your hand ({vp} VP). {ability} {need}").format(n=i + 1, name=name, vp=vp,
                                                                                ability=ability, need=need)
        if playing and vm.me["setup"]["hasChosenLeaders"]:
            why = session.leader_refusal(lid)
            line += " " + (_("You can play it now.") if why is None else
                           _("Missing: {what}.").format(what=missing(why)))
        out.append(line)
    if not out:
        out.append(_("You have no leaders left."))
    for p in g["players"]:
        if p["nickname"] == session.nickname:
            continue
        theirs = [leader_words(vm.leader(lid), prods) for lid in p["leadersHand"] if vm.leader(lid)["active"]]
        if theirs:
            out.append(_("{name} has in play: {leaders}").format(
                name=session.shown_name(p["nickname"]), leaders="; ".join(f"{n} ({a})" for n, a, _v, _p in theirs)))
    return out


# ---------------------------------------------------------------------------- track, Lorenzo, scores
def missing(why: str) -> str:
    """The board's "Needs 5 Shields (you have 1)" as what is still missing ("5 Shields (you have 1)")."""
    head = _("Needs {what}").split("{what}")[0]
    return why[len(head):] if why.startswith(head) else why[:1].lower() + why[1:]


def track(session: GameSession) -> list[str]:
    g = session.vm.game
    assert g is not None
    ft = g["faithTrack"]
    out = [_("The faith track runs from 0 to {n}.").format(n=ft["maxFaith"])]
    marks = [_("{name} on {n}").format(name=_("you") if p["nickname"] == session.nickname else
                                       session.shown_name(p["nickname"]), n=p["faithPoints"]) for p in g["players"]]
    if len(g["players"]) == 1:
        marks.append(_("Lorenzo's black cross on {n}").format(n=g.get("blackPoints", 0)))
    out.append(_("Markers: {marks}.").format(marks=joined(marks)))
    ended = bool(g.get("ended"))
    me = session.vm.me
    for i, sec in enumerate(sorted(ft["vaticanSections"].values(), key=lambda s: s["faithPointsEnd"])):
        head = _("Vatican report {n} (spaces {first} to {last}, {vp} VP)").format(
            n=i + 1, first=sec["faithPointsBeginning"], last=sec["faithPointsEnd"], vp=sec["victoryPoints"])
        if sec["activated"]:
            who = [n for n in sec.get("bonusGivenPlayers") or []]
            got = _("you turned your tile face up") if session.nickname in who else _("your tile was removed")
            others = [session.shown_name(n) for n in who if n != session.nickname]
            more = "; " + _("{names} too").format(names=joined(others)) if others and len(g["players"]) > 1 else ""
            out.append(_("{head}: made; {got}{more}.").format(head=head, got=got, more=more))
        elif ended:     # the game is over: no report is to come
            out.append(_("{head}: never made, the game ended first.").format(head=head))
        else:
            out.append(_("{head}: to come, when a marker reaches {n}.").format(head=head, n=sec["faithPointsEnd"]))
    tiles = ft.get("yellowTiles") or []
    nxt = next((t for t in tiles if t["faithPoints"] > me["faithPoints"]), None)
    if nxt is not None and not ended:
        out.append(_("Your next victory points on the track: space {n}, worth {vp} VP.").format(
            n=nxt["faithPoints"], vp=nxt["victoryPoints"]))
    return out


def lorenzo(session: GameSession) -> list[str]:
    g = session.vm.game
    assert g is not None
    if len(g["players"]) > 1:
        return [_("Lorenzo plays only in a solo game.")]
    kinds = {t["id"]: t for t in g.get("actionTokens", [])}
    out = [_("{lorenzo}: his black cross is on space {n} of {most}.").format(
        lorenzo=LORENZO, n=g.get("blackPoints", 0), most=g["faithTrack"]["maxFaith"])]
    last = g.get("lastActionToken")
    if last is None or last not in kinds:
        out.append(_("He has not turned up a token yet."))
    else:
        out.append(_("His last token: {token}.").format(token=_token(kinds[last])))
    shown = [t for t in session.vm.revealed_tokens if t in kinds]
    left = len(kinds) - len(shown)
    out.append(ngettext("{n} token face up since the last shuffle, {left} still in the pile.",
                        "{n} tokens face up since the last shuffle, {left} still in the pile.", len(shown)).format(
        n=len(shown), left=left))
    return out


def _token(t: Msg) -> str:
    return _token_words(t.get("kind", ""), str(t.get("discardedDevCardColor", "")))


def score(session: GameSession) -> list[str]:
    g = session.vm.game
    assert g is not None
    if g.get("ended"):
        rows = final_scores(session)
        head, why = outcome_words(session, rows)
        out = [_("The game is over. {head}. {why}").format(head=head, why=why)]
        for nick, s in rows:
            who = _("You") if nick == session.nickname else session.shown_name(nick)
            out.append(ngettext("{who}: {total} VP ({cards} from cards, {track} from the track, {favors} from favor "
                                "tiles, {leaders} from leaders, {resource_vp} from {n} resource left).",
                                "{who}: {total} VP ({cards} from cards, {track} from the track, {favors} from favor "
                                "tiles, {leaders} from leaders, {resource_vp} from {n} resources left).",
                                s["resources"]).format(
                who=who, total=s["total"], cards=s["cards"], track=s["faith_track"], favors=s["favors"],
                leaders=s["leaders"], resource_vp=s["resource_vp"], n=s["resources"]))
        return out
    out = [_("Victory points so far (the track, favor tiles, cards, leaders in play and resources):")]
    for p in sorted(g["players"], key=lambda p: -p["victoryPoints"]):
        who = _("You") if p["nickname"] == session.nickname else session.shown_name(p["nickname"])
        out.append(_("{who}: {vp} VP, faith {faith}.").format(who=who, vp=p["victoryPoints"], faith=p["faithPoints"]))
    if len(g["players"]) == 1:
        out.append(_("Lorenzo's black cross: space {n}.").format(n=g.get("blackPoints", 0)))
    return out


def turn(session: GameSession) -> str:
    """Whose turn it is and what is left to do, in one sentence."""
    g = session.vm.game
    if g is None:
        return _("No game yet.")
    if g.get("ended"):
        return _("The game is over: say score for the final scores.")
    if not g.get("isSetupDone"):
        stage = session.stage()
        if stage == "leaders":
            return _("Choose the leaders you keep: say keep and their numbers (keep 1 3); leaders says them again.")
        if stage == "resources":
            return _("Choose your starting resources: say resources and them (resources Coin).")
        return _("Waiting for the others to choose their leaders and resources.")
    if not session.vm.my_turn:
        return _("It is {name}'s turn.").format(name=session.shown_name(g["currentPlayer"]))
    if g["isMandatoryActionDone"]:
        return _("It is your turn; your main action is done: play or discard a leader, rearrange your shelves, "
                 "or end your turn (end).")
    return _("It is your turn: take from the market (take), buy a card (buy) or produce (produce).")
