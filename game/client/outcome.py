"""The end of a game in words and figures: every player's score by category, best first, and
the headline with its reason ("Lucrezia (hard bot) wins" / "She bought a seventh development
card, and the round was played out.").

Scores come from the rules engine (the shadow game of the final view), so every front end shows
the figures the rules count.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from game.rules.shadow import shadow_game

from .words import LORENZO, joined, vanished_colour

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
                why = "His black cross reached the end of the faith track first."
            else:
                gone = vanished_colour(g)
                why = (f"No {gone.lower()} development card is left on the grid." if gone
                       else "A colour of development cards ran out on the grid.")
            return f"{LORENZO} wins", why
        if int(p.get("faithPoints", 0)) >= max_faith:
            why = "You reached the end of the faith track before Lorenzo."
        elif cards >= 7:
            why = "You bought your seventh development card before Lorenzo could stop you."
        else:
            why = "You beat Lorenzo."
        return f"{winner} wins", why
    if not winner and rows:
        winner = rows[0][0]
    says = session.name_in_words          # a bot with its level: "Lucrezia (hard bot) wins"
    head = "You win" if winner == me else f"{says(winner)} wins"
    trigger = ""
    for p in players:
        if int(p.get("faithPoints", 0)) >= max_faith:
            trigger = f"{says(p['nickname'])} reached the end of the faith track, and the round was played out."
            break
        if sum(len(s) for s in p["devSlots"]) >= 7:
            trigger = f"{says(p['nickname'])} bought a seventh development card, and the round was played out."
            break
    tie = ""
    if len(rows) > 1 and rows[0][1]["total"] == rows[1][1]["total"]:
        tie = (f" Tied on {rows[0][1]['total']} points, {says(winner)} wins on the resources left "
               f"({rows[0][1]['resources']} against {rows[1][1]['resources']}).")
        if rows[0][1]["resources"] == rows[1][1]["resources"]:
            tied = [says(n) for n, s in rows
                    if s["total"] == rows[0][1]["total"] and s["resources"] == rows[0][1]["resources"]]
            tie = f" {joined(tied)} tied on points and resources left: they share the win."
            head = "You share the win" if me in tied else "A shared win"
    return head, (trigger + tie).strip() or "The final round was played out."
