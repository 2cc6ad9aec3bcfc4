"""The top bar: who the player is and whose turn it is, the opponents (click one to see their
whole board) or, in solo, Lorenzo and his last token."""
from __future__ import annotations

from typing import Any

import pygame

from game.client import board_input as BI
from game.client.words import colour_name
from game.i18n import _, ngettext, pgettext

from ..art import tiles as T
from ..art import fonts as F
from ..art import palette as P
from .base import PLAYER_COLORS, Context, Hit, Panel, glow, reading_size, text


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

    @staticmethod
    def _centre(ctx: Context) -> str:
        """The player whose board is at the centre: the player, or the one a watcher looks at."""
        return str(ctx.me["nickname"]) if ctx.nickname not in {p["nickname"] for p in ctx.g["players"]} \
            else ctx.nickname

    def _others(self, ctx: Context) -> list[dict[str, Any]]:
        centre = self._centre(ctx)
        return [p for p in ctx.g["players"] if p["nickname"] != centre]

    def hits(self, ctx: Context) -> list[Hit]:
        out = [Hit(rect, BI.Opponent(p["nickname"])) for rect, p in zip(self.opponents, self._others(ctx))]
        tr = self.token_rect()
        if tr is not None and ctx.g.get("lastActionToken") is not None:
            out.append(Hit(tr, BI.Token()))
        out += [Hit(r, BI.Token(tid)) for tid, r in self.revealed_rects(ctx)]
        lock = self.lock_rect(ctx)
        if lock is not None:
            out.append(Hit(lock, BI.Lock()))
        return out

    def _mark(self, ctx: Context) -> pygame.Surface | None:
        """The padlock and its word (secure, or not encrypted) of a game on a server."""
        if ctx.link is None:
            return None
        from ..link_mark import LinkMark
        # the size of the turn's line under it (at 1024x640 the log's 12 px made a smudge of "secure")
        return LinkMark().surface(ctx.link, max(reading_size(self.unit), self.px(19)), detail=False)

    def lock_rect(self, ctx: Context) -> pygame.Rect | None:
        """Where the padlock is: at the right end of the player's heading, on its line (None: no server)."""
        mark = self._mark(ctx)
        if mark is None:
            return None
        r = self.rect
        return mark.get_rect(midright=(r.x + round(r.w * 0.34) - self.px(6), self.heading_middle))

    @property
    def heading_middle(self) -> int:
        """The height of the middle of the player's heading (name, points, faith)."""
        return self.rect.y + self.px(4) + self.px(24) * 3 // 5

    def _pile_tip(self, surface: pygame.Surface, ctx: Context) -> None:
        """The pile in words, on a dark label in the top bar left of Lorenzo (over the player's
        own heading, for as long as the pointer stays): the track and the market stay in view."""
        from ..art import fonts as F
        from ..backdrop import wrap
        r = self.rect
        room = pygame.Rect(r.x + self.px(4), r.y + self.px(3), self.token.x - r.x - self.px(12), r.h - self.px(6))
        size = self.px(16)
        while True:
            lines = wrap(self.pile_words(ctx), size, room.w - self.px(16), "italic")
            lead = round(size * 1.15)
            if len(lines) * lead + self.px(6) <= room.h or size <= 11:
                break
            size -= 1
        lines = lines[:max(1, (room.h - self.px(6)) // lead)]
        label = pygame.Rect(0, 0, max(F.font(size, "italic").size(ln)[0] for ln in lines) + self.px(16),
                            len(lines) * lead + self.px(6))
        label.midright = (room.right, room.centery)
        pygame.draw.rect(surface, P.INK, label, border_radius=6)
        pygame.draw.rect(surface, P.GOLD, label, width=1, border_radius=6)
        for i, line in enumerate(lines):
            text(surface, line, (label.x + self.px(8), label.y + self.px(3) + i * lead), size, P.PARCHMENT, "italic")

    def draw(self, surface: pygame.Surface, ctx: Context) -> None:
        r = self.rect
        g = ctx.g
        cur = g["currentPlayer"]
        if g.get("ended"):
            status = _("The game is over — click a player to see their board") if self.opponents else \
                _("The game is over")
        elif ctx.session.connection_lost:
            status = _("Connection lost — reconnecting…")
        elif ctx.vm.my_turn:
            status = _("Your turn — take from the market, buy a card or produce") if not g["isMandatoryActionDone"] \
                else _("Your turn — play a leader, rearrange, or end the turn")
        else:   # a bot with its level after its name: "Lucrezia (hard)'s turn"
            status = _("{name}'s turn").format(name=ctx.session.shown_name(cur))
        if g["lastRound"] and not g.get("ended"):
            status += " · " + _("last round")
        left = r.x + self.px(14)
        me = ctx.me
        head = _("{centre} · {vp} VP · faith {faith}").format(centre=self._centre(ctx), vp=me["victoryPoints"],
                                                              faith=me["faithPoints"])
        width = round(r.w * 0.34 - self.px(20))
        dot = self.own_dot(ctx)
        if dot is not None:   # the player's own colour, as each opponent's chip shows theirs
            (cx, cy), rad, colour = dot
            pygame.draw.circle(surface, P.INK, (cx, cy), rad + max(1, self.px(1.5)))
            pygame.draw.circle(surface, colour, (cx, cy), rad)
            shift = 2 * rad + self.px(10)
            left, width = left + shift, width - shift
        lock = self.lock_rect(ctx)
        if lock is not None:   # the connection: encrypted or not (its certificate under the pointer)
            surface.blit(self._mark(ctx), lock)
        text(surface, head, (left, r.y + self.px(4)), self.px(24), P.INK, "caps",
             max_width=width if lock is None else min(width, lock.x - self.px(10) - left))
        text(surface, status, (left, r.y + self.px(34)), self.px(19), P.OXBLOOD if ctx.vm.my_turn else P.SEPIA,
             "italic", max_width=width)
        for rect, p in zip(self.opponents, self._others(ctx)):
            self._chip(surface, ctx, rect, p)
        if self.token is not None:
            self._lorenzo(surface, ctx)

    def own_dot(self, ctx: Context) -> tuple[tuple[int, int], int, tuple[int, int, int]] | None:
        """Where the player's own colour is drawn, before their name: (centre, radius, colour);
        None for one who has no seat at the table (a replay seen by nobody in it)."""
        seats = [q["nickname"] for q in ctx.g["players"]]
        who = self._centre(ctx)
        if who not in seats:
            return None
        rad = max(4, self.px(8))
        centre = (self.rect.x + self.px(14) + rad, self.heading_middle)
        return centre, rad, PLAYER_COLORS[seats.index(who) % 4]

    def _chip(self, surface: pygame.Surface, ctx: Context, rect: pygame.Rect, p: dict[str, Any]) -> None:
        inner = rect.inflate(-self.px(6), -self.px(6))
        pygame.draw.rect(surface, P.PARCHMENT_DARK, inner, border_radius=8)
        border = P.OXBLOOD if p["nickname"] == ctx.g["currentPlayer"] else P.GOLD
        pygame.draw.rect(surface, border, inner, width=2, border_radius=8)
        seat = [q["nickname"] for q in ctx.g["players"]].index(p["nickname"])
        name = ctx.session.shown_name(p["nickname"])
        if not p["active"]:
            name = pgettext("a player not at the table", "{name} (away)").format(name=name)
        facts, leaders = self.chip_facts(ctx, p)
        floor = reading_size(self.unit)
        room = inner.w - self.px(14)
        size = max(floor, self.px(15))
        lines = [f"{facts} · {leaders}"]
        if F.font(size, "regular").size(lines[0])[0] > room:   # too long for one line: two, never smaller
            lines = [facts, leaders]
        step = size + max(1, self.px(2))
        body = len(lines) * step
        name_size = max(floor, min(self.px(19), inner.h - body - self.px(4)))
        top = inner.y + max(1, (inner.h - name_size - body) // 2 - self.px(1))
        text(surface, name, (inner.x + self.px(26), top), name_size, P.INK, "regular",
             max_width=inner.w - self.px(34))
        pygame.draw.circle(surface, PLAYER_COLORS[seat % 4], (inner.x + self.px(14), top + name_size * 2 // 3),
                           max(4, self.px(7)))
        y = top + name_size + max(1, self.px(3))
        for line in lines:
            text(surface, line, (inner.x + self.px(8), y), size, P.SEPIA, "regular", max_width=room)
            y += step

    def chip_facts(self, ctx: Context, p: dict[str, Any]) -> tuple[str, str]:
        """An opponent's card in words: ("24 VP · faith 15 · 4 cards · 3 res", "0 leaders played,
        2 in hand")."""
        cards = sum(len(s) for s in p["devSlots"])
        res = sum(sum(ctx.vm.container(c)["content"].values())
                  for c in [*p["warehouseShelves"], p["strongbox"], *p.get("leaderDepots", [])])
        played = sum(1 for lid in p["leadersHand"] if ctx.leaders.get(lid, {}).get("active"))
        held = p["leadersHandCount"] - played
        leaders = ngettext("{n} leader played", "{n} leaders played", played).format(n=played)
        if held:
            leaders = _("{played}, {n} in hand").format(played=leaders, n=held)
        return (_("{vp} VP · faith {faith} · {cards} · {res} res").format(
            vp=p["victoryPoints"], faith=p["faithPoints"], cards=ngettext("{n} card", "{n} cards", cards).format(n=cards),
            res=res)), leaders

    def _lorenzo(self, surface: pygame.Surface, ctx: Context) -> None:
        """Lorenzo: his black cross, the tokens face up since the last shuffle (as chips with words:
        "−2 Purple", "+2"), how many are left in the pile, a warning when one token would end the
        game, and his last token."""
        rect = self.token
        g = ctx.g
        tok = g.get("lastActionToken")
        tokens = {t["id"]: t for t in g.get("actionTokens", [])}
        text(surface, "Lorenzo", (rect.x, rect.y + self.px(4)), self.px(20), P.INK, "caps")
        text(surface, _("black cross {n}").format(n=g["blackPoints"]), (rect.x, rect.y + self.px(30)), self.px(16),
             P.SEPIA, "italic")
        tr = self.token_rect()
        if tok is not None and tok in tokens and tr is not None:
            surface.blit(T.token(tokens[tok], tr.h), tr)
        if not tokens:
            return
        shown = [t for t in ctx.vm.revealed_tokens if t in tokens]
        x, right = self._pile_span()
        left = len(tokens) - len(shown)
        warn = pile_warning(g, shown) if not g.get("ended") else None   # (no warning once it is over)
        count = _("{left} of {n} left in the pile").format(left=left, n=len(tokens))
        if warn:
            text(surface, f"{warn} · {count}", (x, rect.y + self.px(4)), self.px(16), P.OXBLOOD, "italic",
                 max_width=right - x)
        else:
            text(surface, (_("Face up since the shuffle · {count}") if shown else
                           _("No token face up since the shuffle · {count}")).format(count=count),
                 (x, rect.y + self.px(5)), self.px(15), P.SEPIA, "italic", max_width=right - x)
        for tid, r in self.revealed_rects(ctx):
            surface.blit(_chip(tokens[tid], r.size), r)

    def _pile_span(self) -> tuple[int, int]:
        """Left and right of the pile's words and chips (between the name and the last token)."""
        tr = self.token_rect()
        return self.token.x + self.px(130), (tr.x if tr is not None else self.token.right) - self.px(8)

    def revealed_rects(self, ctx: Context) -> list[tuple[int, pygame.Rect]]:
        """(token id, rect) of each chip for a token face up since the shuffle, in the order they
        came; at least 18 pixels high."""
        if self.token is None:
            return []
        tokens = {t["id"]: t for t in ctx.g.get("actionTokens", [])}
        shown = [t for t in ctx.vm.revealed_tokens if t in tokens]
        x, right = self._pile_span()
        h = max(18, self.px(24))
        y = self.token.bottom - h - self.px(4)
        gap = self.px(5)
        widths = [_chip_width(tokens[t], h) for t in shown]
        total = sum(widths) + gap * max(0, len(shown) - 1)
        if total > right - x and total:          # very narrow: the chips share the room
            scale = (right - x - gap * max(0, len(shown) - 1)) / sum(widths)
            widths = [max(2 * h, int(w * scale)) for w in widths]
        out = []
        for tid, w in zip(shown, widths):
            out.append((tid, pygame.Rect(x, y, w, h)))
            x += w + gap
        return out

    def pile_words(self, ctx: Context) -> str:
        """Lorenzo's pile in words (the tooltip of his tokens): his last token, those face up
        since the shuffle, and how many are left."""
        from game.client.narration import token_words
        g = ctx.g
        tokens = {t["id"]: t for t in g.get("actionTokens", [])}
        shown = [t for t in ctx.vm.revealed_tokens if t in tokens]
        last = tokens.get(g.get("lastActionToken"))
        parts = []
        if last is not None:
            parts.append(_("Last: {token}.").format(token=token_words(last["kind"], last.get("discardedDevCardColor", ""))))
        if shown:
            parts.append(_("Face up since the shuffle: {tokens}.").format(
                tokens=", ".join(chip_words(tokens[t], True) for t in shown)))
        parts.append(_("{left} of {n} left in the pile.").format(left=len(tokens) - len(shown), n=len(tokens)))
        return " ".join(parts)

    def draw_hover(self, surface: pygame.Surface, ctx: Context) -> None:
        t = ctx.hover
        if isinstance(t, BI.Token) and self.token is not None:
            self._pile_tip(surface, ctx)
        if isinstance(t, BI.Lock) and ctx.link is not None:
            from ..link_mark import tip
            lock = self.lock_rect(ctx)
            if lock is not None:
                tip(surface, ctx.link.details, lock, self.unit)
        if isinstance(t, BI.Opponent):
            for rect, p in zip(self.opponents, self._others(ctx)):
                if p["nickname"] == t.nickname:
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
            return _("Beware: one more {colour} token and you lose").format(colour=colour_name(color))
    return None


def chip_words(token: dict[str, Any], long: bool = False) -> str:
    """A face-up token in a few words: "−2 Purple", "+2" ("+2 black cross" when ``long``)."""
    if token.get("kind") == "ActionTokenDiscardTwo":
        return f"\u22122 {colour_name(token.get('discardedDevCardColor', '')).capitalize()}"
    two = token.get("kind") == "ActionTokenBlackMoveTwo"
    if long:
        return _("+2 black cross") if two else _("+1 black cross")
    return "+2" if two else "+1"


def _chip_width(token: dict[str, Any], h: int) -> int:
    from ..art import fonts as F
    words = chip_words(token)
    w = F.font(round(h * 0.72), "regular").size(words)[0] + round(h * 0.7)
    if token.get("kind") != "ActionTokenDiscardTwo":
        w += h                                   # the black cross beside the words
    return max(2 * h, w)


def _chip(token: dict[str, Any], size: tuple[int, int]) -> pygame.Surface:
    """A face-up token as a small plaque: the cards' colour with "−2 Purple" on it, or ivory
    with the black cross and "+2"."""
    from ..art import fonts as F
    from ..art import icons as I
    w, h = size
    out = pygame.Surface((w, h), pygame.SRCALPHA)
    discard = token.get("kind") == "ActionTokenDiscardTwo"
    fill = P.CARD_COLORS.get(token.get("discardedDevCardColor", ""), P.SEPIA) if discard else P.IVORY
    pygame.draw.rect(out, fill, out.get_rect(), border_radius=max(3, h // 4))
    pygame.draw.rect(out, P.GOLD_DARK, out.get_rect(), width=1,
                     border_radius=max(3, h // 4))
    x = round(h * 0.35)
    if not discard:
        cross = I.black_cross(h - 4)
        out.blit(cross, cross.get_rect(midleft=(x - 2, h // 2)))
        x += h - 2
    words = F.render(chip_words(token), F.fit(chip_words(token), w - x - 2, round(h * 0.72)),
                     P.IVORY if discard else P.INK, "regular")
    out.blit(words, words.get_rect(midleft=(x, h // 2)))
    return out
