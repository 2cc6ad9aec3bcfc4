"""The end of a game in words and figures: every player's score by category, best first, and
the headline with its reason ("Lucrezia (hard) wins" / "She bought a seventh development
card, and the round was played out.").

Scores come from the rules engine (the shadow game of the final view), so every front end shows
the figures the rules count.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from game.i18n import _, ngettext
from game.rules.shadow import shadow_game

from .words import LORENZO, colour_name, joined, vanished_colour

if TYPE_CHECKING:
    from .session import GameSession


def final_scores(session: GameSession) -> list[tuple[str, dict[str, int]]]:
    """Every player's score by category, best first (total, then resources left)."""
    g = session.vm.game
    assert g is not None
    game = shadow_game(g, session.config, session.nickname)
    rows = []
    for p in g["players"]:
        s = game.score(p["nickname"])
        rows.append((p["nickname"], {"cards": s.cards, "faith_track": s.faith_track, "favors": s.favors,
                                     "leaders": s.leaders, "resource_vp": s.resource_vp, "total": s.total,
                                     "resources": s.resources}))
    rows.sort(key=lambda r: (-r[1]["total"], -r[1]["resources"]))
    return rows


def outcome_words(session: GameSession, rows: list[tuple[str, dict[str, int]]]) -> tuple[str, str]:
    """The headline and the reason, in words."""
    g = session.vm.game
    assert g is not None
    me = session.nickname
    max_faith = int(g.get("faithTrack", {}).get("maxFaith", 24))
    players = g["players"]
    solo = len(players) == 1
    winner = g.get("winnerPlayer")
    if solo:
        p = players[0]
        cards = sum(len(s) for s in p["devSlots"])
        if not winner:
            if int(g.get("blackPoints", 0)) >= max_faith:
                why = _("His black cross reached the end of the faith track first.")
            else:
                gone = vanished_colour(g)
                why = (_("No {colour} development card is left on the grid.").format(colour=colour_name(gone)) if gone
                       else _("A colour of development cards ran out on the grid."))
            return _("{name} wins").format(name=LORENZO), why
        if int(p.get("faithPoints", 0)) >= max_faith:
            why = _("You reached the end of the faith track before Lorenzo.")
        elif cards >= 7:
            why = _("You bought your seventh development card before Lorenzo could stop you.")
        else:
            why = _("You beat Lorenzo.")
        return (_("You win") if winner == me else _("{name} wins").format(name=winner)), why
    if not winner and rows:
        winner = rows[0][0]
    says = session.shown_name             # a bot with its level: "Lucrezia (hard) wins"
    head = _("You win") if winner == me else _("{name} wins").format(name=says(winner))
    trigger = ""
    for p in players:              # what ended the game: the player reading it is told "you"
        mine = p["nickname"] == me
        if int(p.get("faithPoints", 0)) >= max_faith:
            trigger = (_("You reached the end of the faith track, and the round was played out.") if mine else
                       _("{name} reached the end of the faith track, and the round was played out.").format(
                           name=says(p["nickname"])))
            break
        if sum(len(s) for s in p["devSlots"]) >= 7:
            trigger = (_("You bought a seventh development card, and the round was played out.") if mine else
                       _("{name} bought a seventh development card, and the round was played out.").format(
                           name=says(p["nickname"])))
            break
    tie = ""
    if len(rows) > 1 and rows[0][1]["total"] == rows[1][1]["total"]:
        total = rows[0][1]["total"]
        left = {"points": total, "mine": rows[0][1]["resources"], "theirs": rows[1][1]["resources"]}
        if winner == me:
            tie = " " + ngettext("Tied on {points} point, you win on the resources left ({mine} against {theirs}).",
                                 "Tied on {points} points, you win on the resources left ({mine} against {theirs}).",
                                 total).format(**left)
        else:
            tie = " " + ngettext("Tied on {points} point, {name} wins on the resources left ({mine} against {theirs}).",
                                 "Tied on {points} points, {name} wins on the resources left ({mine} against "
                                 "{theirs}).", total).format(name=says(winner), **left)
        if rows[0][1]["resources"] == rows[1][1]["resources"]:
            tied = [says(n) for n, s in rows
                    if s["total"] == rows[0][1]["total"] and s["resources"] == rows[0][1]["resources"]]
            tie = " " + _("{names} tied on points and resources left: they share the win.").format(names=joined(tied))
            head = _("You share the win") if me in tied else _("A shared win")
    return head, (trigger + tie).strip() or _("The final round was played out.")
