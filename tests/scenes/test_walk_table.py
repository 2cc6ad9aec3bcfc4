"""A 4-player table, walked like a player (the real ``App`` frame loop, posted events): the
opponents' cards are readable at every window size, their pawns and favor tiles are told apart,
an opponent's board is named as their card names them, and an enlarged card covers nothing the
player is about to read or click.
"""
from __future__ import annotations


import pygame
import pytest

from walk import Walk

from game.scenes.app import App

pytestmark = pytest.mark.timeout(120)
SIZES = [(1024, 640), (1920, 1080)]
NICKS = ("Ada", "Isabella (bot)", "Lucrezia (bot)", "Cosimo (bot)")


def _close(app: App) -> None:
    while app.stack.top is not None:
        app.stack.pop()


def _table(size, faith: dict[str, int] | None = None) -> tuple[Walk, object]:
    """Ada's turn at a 4-player table against three bots of known levels (a game on this machine)."""
    from support.table import Table, mid_game

    from game.rules import default_config
    from game.scenes.board import BoardScene
    from game.client.session import GameSession
    game = mid_game(list(NICKS), 3, 40)
    for p in game.players:
        if faith and p.nickname in faith:
            p.faith = faith[p.nickname]
    match = Table(game, "Ada")
    match.bots = {"Isabella (bot)": "medium", "Lucrezia (bot)": "hard", "Cosimo (bot)": "easy"}
    app = App(headless=True, size=size)
    walk = Walk(app, None, "table")
    app.stack.push(BoardScene(app, GameSession(match, default_config(), "Ada")))
    walk.frames(2)
    app.frame(5.0)
    walk.move((3, 3))
    walk.frames(2)
    return walk, game


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_opponents_cards_say_every_fact_at_the_logs_size_inside_the_card(size, monkeypatch):
    from game.scenes.layout import board_layout
    from game.scenes.panels import top_bar
    from game.scenes.panels.log import LogPanel
    L = board_layout(size, 4, False)
    floor = LogPanel(L.log, L.unit).size
    drawn: list[tuple[str, int, pygame.Rect]] = []
    inside = [False]
    text, chip = top_bar.text, top_bar.TopBar._chip

    def spy_text(surface, words, pos, size, *a, max_width=None, **k):
        from game.scenes.art import fonts as F
        shown = F.fit(words, max_width, size, a[1] if len(a) > 1 else k.get("style", "regular")) \
            if max_width is not None else size
        rect = text(surface, words, pos, size, *a, max_width=max_width, **k)
        if inside[0]:
            drawn.append((words, shown, rect))
        return rect

    def spy_chip(self, *a, **k):
        inside[0] = True
        try:
            return chip(self, *a, **k)
        finally:
            inside[0] = False
    monkeypatch.setattr(top_bar, "text", spy_text)
    monkeypatch.setattr(top_bar.TopBar, "_chip", spy_chip)
    walk, game = _table(size)
    try:
        walk.app.stack.top._rev += 1       # (drawn again with the spies)
        walk.frames(2)
        assert drawn
        for words, shown, rect in drawn:
            assert shown >= floor, f"{words!r} at {shown} px, under the log's {floor}"
            assert any(o.contains(rect) for o in L.opponents), (words, rect)
        said = " ".join(w for w, _s, _r in drawn)
        for name in ("Isabella (medium)", "Lucrezia (hard)", "Cosimo (easy)"):
            assert name in said
        for fact in ("VP", "faith", "card", "res", "leader", "in hand"):
            assert said.count(fact) >= 3, (fact, said)
    finally:
        _close(walk.app)


PAWN_MIN = {(1024, 640): 14, (1920, 1080): 24}
"""The least a pawn's drawn diameter may be: at 1024x640 a pawn used to be 8 px (QA)."""


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_pawns_on_one_space_stand_side_by_side_readable_over_their_space(size):
    """Three players on space 6, the fourth on 7: each pawn is drawn at least PAWN_MIN across, in
    its own colour at its centre, none on another; they stand above the track (over none of its
    numbers and points), each group over its own space."""
    from game.scenes.panels.base import PLAYER_COLORS
    walk, game = _table(size, faith={"Ada": 6, "Isabella (bot)": 6, "Lucrezia (bot)": 6, "Cosimo (bot)": 7})
    board = walk.app.stack.top
    try:
        ctx = board.context()
        spots = board.faith.pawn_spots(ctx)
        inner, sw, _sh, top = board.faith.geometry(ctx)
        seats = [p["nickname"] for p in board.g["players"]]
        for a in range(4):
            xa, ya, ra = spots[a]
            assert 2 * ra + 1 >= PAWN_MIN[size], (size, spots[a])
            assert walk.app.window.get_at((xa, ya))[:3] == PLAYER_COLORS[a % 4], (a, spots[a])
            assert walk.app.window.get_at((xa + ra - 1, ya))[:3] != PLAYER_COLORS[a % 4]   # a rim around it
            for b in range(4):
                if b != a:
                    xb, yb, rb = spots[b]
                    assert (xa - xb) ** 2 + (ya - yb) ** 2 >= (ra + rb + 1) ** 2, (spots[a], spots[b])
            assert ya + ra < top and board.layout.faith.collidepoint(xa, ya - ra)   # above the spaces, in the panel
        for space, names in ((6, ("Ada", "Isabella (bot)", "Lucrezia (bot)")), (7, ("Cosimo (bot)",))):
            xs = [spots[seats.index(n)][0] for n in names]
            assert abs((min(xs) + max(xs)) / 2 - (inner.x + space * sw + sw / 2)) <= sw / 2, (space, xs)
    finally:
        _close(walk.app)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_lorenzos_cross_and_the_players_pawn_on_one_space_stand_apart(size):
    """Solo: the player and Lorenzo's black cross on space 3: the pawn in its colour, the cross
    dark, side by side over space 3, as large as a pawn."""
    from support.table import Table, mid_game

    from game.rules import default_config
    from game.scenes.board import BoardScene
    from game.scenes.panels.base import PLAYER_COLORS
    from game.client.session import GameSession
    game = mid_game(["Ada"], 3, 0)
    game.player("Ada").faith, game.black_cross = 3, 3
    app = App(headless=True, size=size)
    walk = Walk(app, None, "solo")
    app.stack.push(BoardScene(app, GameSession(Table(game, "Ada"), default_config(), "Ada")))
    walk.frames(2)
    app.frame(5.0)
    walk.frames(2)
    board = app.stack.top
    try:
        spots = board.faith.pawn_spots(board.context())
        (xa, ya, ra), (xl, yl, rl) = spots[0], spots["lorenzo"]
        assert 2 * ra + 1 >= PAWN_MIN[size] and rl >= ra
        assert abs(xa - xl) >= ra + rl, (spots, size)
        assert app.window.get_at((xa, ya))[:3] == PLAYER_COLORS[0]
        assert min(sum(app.window.get_at((xl, y))[:3]) for y in range(yl - rl // 2, yl + rl // 2)) < 150   # dark
    finally:
        _close(app)


def _changed_rects(a: pygame.Surface, b: pygame.Surface) -> list[pygame.Rect]:
    mask = pygame.mask.from_threshold(a, (0, 0, 0), (1, 1, 1, 255), b, 1)
    diff = pygame.mask.Mask(a.get_size(), fill=True)
    diff.erase(mask, (0, 0))
    return diff.get_bounding_rects()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_leaders_enlarged_card_covers_neither_the_track_nor_the_top_bar(size):
    """The pointer resting on each leader in hand shows the leader enlarged, beside it: never
    over the faith track, the top bar, the action bar or the leader itself."""
    from game.scenes.layout import board_layout
    walk, _game = _table(size)
    L = board_layout(size, 4, False)
    board = walk.app.stack.top
    try:
        leaders = list(board.player_board.leader_rects(board.me).values())
        assert leaders
        for card in leaders:
            walk.move((3, 3))
            walk.frames(2)
            calm = walk.app.window.copy()
            walk.move(card.center)
            walk.frames(2)
            changed = [r for r in _changed_rects(calm, walk.app.window) if not card.inflate(12, 12).contains(r)]
            assert changed, "no enlarged card"
            big = changed[0].unionall(changed[1:])
            assert big.h >= card.h, big                                        # enlarged, not a mark
            for where, rect in (("track", L.faith), ("top bar", L.top_bar), ("action bar", L.actions)):
                assert not big.colliderect(rect), f"over the {where}: {big} / {rect}"
            assert not big.colliderect(card), (big, card)
    finally:
        _close(walk.app)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_an_opponents_board_is_named_as_their_card_names_them(size, monkeypatch):
    from game.scenes import board_base as board_module
    from game.scenes.layout import board_layout
    said: list[str] = []
    text = board_module.text

    def spy(surface, words, *a, **k):
        said.append(str(words))
        return text(surface, words, *a, **k)
    monkeypatch.setattr(board_module, "text", spy)
    walk, _game = _table(size)
    L = board_layout(size, 4, False)
    try:
        for chip in L.opponents:
            said.clear()
            walk.click(chip.center)
            walk.move((3, 3))
            walk.frames(2)
            nick = walk.app.stack.top.viewing
            assert nick is not None
            shown = walk.app.stack.top.session.shown_name(nick)
            assert shown == f"{nick.removesuffix(' (bot)')} ({walk.app.stack.top.session.match.bots[nick]})", shown
            assert any(shown in w for w in said), said
            assert not any("(bot)'s" in w for w in said), said
            walk.click((3, 3))
    finally:
        _close(walk.app)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_lorenzos_warning_goes_when_the_game_is_over(size, monkeypatch):
    """Solo, one Purple token from losing, Lorenzo's next token ends the game (his cross to 24):
    the warning is in the top bar before, and gone from the board once the game is over."""
    from support.table import Table, mid_game

    from game.rules import default_config
    from game.scenes.board import BoardScene
    from game.scenes.panels import top_bar
    from game.client.session import GameSession
    said: list[str] = []
    text = top_bar.text

    def spy(surface, w, *a, **k):
        said.append(str(w))
        return text(surface, w, *a, **k)
    monkeypatch.setattr(top_bar, "text", spy)
    game = mid_game(["Ada"], 3, 6)
    game.black_cross = 22
    move = next(t.id for t in game.config.solo_tokens if t.kind == "move" and t.spaces == 2)
    game.tokens.remove(move)
    game.tokens.insert(0, move)
    game.main_done = True
    decks = game.decks["Purple"]
    for lv in decks:
        del decks[lv][1 if lv == min(decks) else 0:]
    game.revealed = []
    app = App(headless=True, size=size)
    app.settings.confirm_end_turn = False
    walk = Walk(app, None, "end")
    try:
        app.stack.push(BoardScene(app, GameSession(Table(game, "Ada"), default_config(), "Ada")))
        walk.frames(2)
        app.frame(5.0)
        assert any("Beware" in w for w in said), said
        walk.press("End turn")
        walk.frames(30)
        assert game.phase == "ended" and walk.scene == "BoardScene"
        said.clear()
        walk.app.stack.top._rev += 1
        walk.frames(2)
        assert said and not any("Beware" in w for w in said), said
    finally:
        _close(app)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_points_under_the_tracks_spaces_are_readable(size):
    """On the track, the victory points of spaces 3, 6, …, 21 are figures at least 6 px tall
    (dark ink in the lower part of the space), at 1024x640 as at 1920x1080."""
    walk, game = _table(size, faith={n: 0 for n in NICKS})
    board = walk.app.stack.top
    try:
        inner, sw, sh, top = board.faith.geometry(board.context())
        shot = walk.app.window
        for n in (3, 6, 9, 12, 15, 18, 21):
            space = pygame.Rect(inner.x + n * sw, top, sw - 2, sh)
            low = pygame.Rect(space.x + 2, space.y + sh * 45 // 100, space.w - 4, sh * 55 // 100 - 2)
            ys = [y for y in range(low.y, low.bottom) for x in range(low.x, low.right)
                  if sum(shot.get_at((x, y))[:3]) < 260]
            assert ys and max(ys) - min(ys) + 1 >= 6, (n, size, (min(ys), max(ys)) if ys else None)
    finally:
        _close(walk.app)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_bots_turn_and_the_scores_name_it_with_its_level(size, monkeypatch):
    """The top bar says whose turn it is as the bot's card says who it is ("Isabella
    (medium)'s turn", never "Isabella (bot)'s turn"), and the scores' sentences name a bot with its
    level ("Lucrezia (hard) wins")."""
    from game.client.outcome import outcome_words
    from game.scenes.panels import top_bar
    from walk import play_market_turn
    said: list[str] = []
    text = top_bar.text
    monkeypatch.setattr(top_bar, "text", lambda surface, words, *a, **k: said.append(str(words))
                        or text(surface, words, *a, **k))
    walk, game = _table(size)
    walk.app.settings.confirm_end_turn = False
    try:
        said.clear()
        play_market_turn(walk, 4)                     # Ada's turn, with the mouse: now a bot's
        bot = game.current_player.nickname
        level = walk.app.stack.top.session.match.bots[bot]
        walk.frames(2)                                # (the board was drawn again as the turn passed)
        assert f"{bot.removesuffix(' (bot)')} ({level})'s turn" in said, said
        assert not any("(bot)'s" in w for w in said), said
        session = walk.app.stack.top.session
        g = dict(session.vm.game, winnerPlayer="Lucrezia (bot)")
        monkeypatch.setattr(session.vm, "game", g)
        rows = [(n, {"total": 40 - i, "resources": 3}) for i, n in enumerate(
            ("Lucrezia (bot)", "Ada", "Isabella (bot)", "Cosimo (bot)"))]
        head, _why = outcome_words(session, rows)
        assert head == "Lucrezia (hard) wins"
        rows[1] = ("Ada", {"total": 40, "resources": 3})
        _head, why = outcome_words(session, rows)
        assert "Lucrezia (hard) and Ada tied on points and resources left" in why, why
    finally:
        _close(walk.app)
