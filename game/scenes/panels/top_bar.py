"""The top bar: who the player is and whose turn it is, the opponents (click one to see their
whole board) or, in solo, Lorenzo and his last token."""
from __future__ import annotations

from typing import Any

import pygame

from ..art import cards as C
from ..art import palette as P
from .base import PLAYER_COLORS, Context, Hit, Panel, glow, text


class TopBar(Panel):
    def __init__(self, rect: pygame.Rect, unit: float, opponents: list[pygame.Rect],
                 token: pygame.Rect | None) -> None:
        super().__init__(rect, unit)
        self.opponents = [pygame.Rect(r) for r in opponents]
        self.token = pygame.Rect(token) if token is not None else None

    def token_rect(self) -> pygame.Rect | None:
        """Where Lorenzo's last token is shown (solo only)."""
        if self.token is None:
            return None
        size = self.token.h - self.px(6)
        r = pygame.Rect(0, 0, size, size)
        r.midright = (self.token.right - self.px(4), self.token.centery)
        return r

    def _others(self, ctx: Context) -> list[dict[str, Any]]:
        return [p for p in ctx.g["players"] if p["nickname"] != ctx.nickname]

    def hits(self, ctx: Context) -> list[Hit]:
        out = [Hit(rect, ("opponent", p["nickname"])) for rect, p in zip(self.opponents, self._others(ctx))]
        tr = self.token_rect()
        if tr is not None and ctx.g.get("lastActionToken") is not None:
            out.append(Hit(tr, ("token",)))
        return out

    def draw(self, surface: pygame.Surface, ctx: Context) -> None:
        r = self.rect
        g = ctx.g
        cur = g["currentPlayer"]
        if g.get("ended"):
            status = "The game is over — click a player to see their board" if self.opponents else "The game is over"
        elif ctx.session.connection_lost:
            status = "Connection lost — reconnecting…"
        elif ctx.vm.my_turn:
            status = "Your turn" + (" — take from the market, buy a card or produce" if not g["isMandatoryActionDone"]
                                    else " — play a leader, rearrange, or end the turn")
        else:
            status = f"{cur}'s turn"
        if g["lastRound"] and not g.get("ended"):
            status += " · last round"
        left = r.x + self.px(14)
        me = ctx.me
        head = f"{ctx.nickname} · {me['victoryPoints']} VP · faith {me['faithPoints']}"
        width = round(r.w * 0.34 - self.px(20))
        text(surface, head, (left, r.y + self.px(4)), self.px(24), P.INK, "caps", max_width=width)
        text(surface, status, (left, r.y + self.px(34)), self.px(19), P.OXBLOOD if ctx.vm.my_turn else P.SEPIA,
             "italic", max_width=width)
        for rect, p in zip(self.opponents, self._others(ctx)):
            self._chip(surface, ctx, rect, p)
        if self.token is not None:
            self._lorenzo(surface, ctx)

    def _chip(self, surface: pygame.Surface, ctx: Context, rect: pygame.Rect, p: dict[str, Any]) -> None:
        inner = rect.inflate(-self.px(6), -self.px(6))
        pygame.draw.rect(surface, P.PARCHMENT_DARK, inner, border_radius=8)
        border = P.OXBLOOD if p["nickname"] == ctx.g["currentPlayer"] else P.GOLD
        pygame.draw.rect(surface, border, inner, width=2, border_radius=8)
        seat = [q["nickname"] for q in ctx.g["players"]].index(p["nickname"])
        pygame.draw.circle(surface, PLAYER_COLORS[seat % 4], (inner.x + self.px(14), inner.y + self.px(16)), self.px(7))
        name = p["nickname"] + ("" if p["active"] else " (away)")
        text(surface, name, (inner.x + self.px(26), inner.y + self.px(3)), self.px(19), P.INK, "regular",
             max_width=inner.w - self.px(34))
        cards = sum(len(s) for s in p["devSlots"])
        res = sum(sum(ctx.vm.container(c)["content"].values())
                  for c in [*p["warehouseShelves"], p["strongbox"], *p.get("leaderDepots", [])])
        played = sum(1 for lid in p["leadersHand"] if ctx.leaders.get(lid, {}).get("active"))
        held = p["leadersHandCount"] - played
        leaders = f"{played} leader{'s' * (played != 1)} played" + (f", {held} in hand" if held else "")
        info = f"{p['victoryPoints']} VP · faith {p['faithPoints']} · {cards} cards · {res} res · {leaders}"
        text(surface, info, (inner.x + self.px(8), inner.y + self.px(28)), self.px(15), P.SEPIA, "regular",
             max_width=inner.w - self.px(14))

    def _lorenzo(self, surface: pygame.Surface, ctx: Context) -> None:
        """Lorenzo: his black cross, the tokens face up since the last shuffle, how many are left
        in the pile, a warning when one token would end the game, and his last token."""
        rect = self.token
        g = ctx.g
        tok = g.get("lastActionToken")
        tokens = {t["id"]: t for t in g.get("actionTokens", [])}
        text(surface, "Lorenzo", (rect.x, rect.y + self.px(4)), self.px(20), P.INK, "caps")
        text(surface, f"black cross {g['blackPoints']}", (rect.x, rect.y + self.px(30)), self.px(16),
             P.SEPIA, "italic")
        tr = self.token_rect()
        if tok is not None and tok in tokens and tr is not None:
            surface.blit(C.token(tokens[tok], tr.h), tr)
        if not tokens:
            return
        shown = [t for t in ctx.vm.revealed_tokens if t in tokens]
        x = rect.x + self.px(130)
        right = (tr.x if tr is not None else rect.right) - self.px(8)
        warn = pile_warning(g, shown)
        if warn:
            text(surface, warn, (x, rect.y + self.px(4)), self.px(16), P.OXBLOOD, "italic", max_width=right - x)
        else:
            text(surface, "Face up since the shuffle:" if shown else "No token face up since the shuffle",
                 (x, rect.y + self.px(6)), self.px(15), P.SEPIA, "italic", max_width=right - x)
        mini = self.px(18)
        for i, tid in enumerate(shown):
            surface.blit(C.token(tokens[tid], mini), (x + i * (mini + self.px(3)), rect.y + self.px(24)))
        left = len(tokens) - len(shown)
        text(surface, f"{left} of {len(tokens)} left in the pile", (x, rect.bottom - self.px(4)), self.px(14),
             P.SEPIA, "italic", anchor="bottomleft", max_width=right - x)

    def draw_hover(self, surface: pygame.Surface, ctx: Context) -> None:
        t = ctx.hover
        if t is not None and t[0] == "opponent":
            for rect, p in zip(self.opponents, self._others(ctx)):
                if p["nickname"] == t[1]:
                    glow(surface, rect, P.GOLD_LIGHT[:3], width=2)


def pile_warning(g: dict[str, Any], revealed: list[int]) -> str | None:
    """In solo, a colour that one more of Lorenzo's tokens would wipe off the grid (which loses
    the game), if a token for it is still in the pile; else None."""
    left = g.get("devCardGrid", {}).get("cardsLeft") or {}
    for t in g.get("actionTokens", []):
        color = t.get("discardedDevCardColor")
        if t.get("kind") != "ActionTokenDiscardTwo" or not color or t["id"] in revealed or color not in left:
            continue
        if sum(left[color]) <= 2:
            return f"Beware: one more {color} token and you lose"
    return None
