"""What the player sees on the board, through the frame loop: menus and hover art never cover
what is about to be clicked or confirmed."""
from __future__ import annotations


import pygame
import pytest

from support.table import Table, mid_game

from game.rules import default_config
from game.scenes.app import App
from game.scenes.board import BoardScene
from game.scenes.panels.faith import VaticanMoment
from game.client.session import GameSession
from game.client import board_input as BI

CFG = default_config()
SIZES = [(1024, 640), (1920, 1080)]


def move(app: App, pos) -> None:
    app.frame(0.001, [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))])


def click(app: App, pos) -> None:
    move(app, pos)
    app.frame(0.001, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)])
    app.frame(0.001, [pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)])
    app.frame(0.001)


def pixels(surface: pygame.Surface, rect: pygame.Rect) -> bytes:
    return pygame.image.tobytes(surface.subsurface(rect.clip(surface.get_rect())), "RGB")


def board(size, nicks=("Ada", "Bruno"), seed=9, moves=60) -> tuple[App, BoardScene]:
    app = App(headless=True, size=size)
    scene = BoardScene(app, GameSession(Table(mid_game(list(nicks), seed, moves), "Ada"), CFG, "Ada"))
    app.stack.push(scene)
    app.frame(0.001)
    app.frame(5.0)     # past the glow of the last change
    return app, scene


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_leader_menu_opens_in_the_action_bar_inside_the_window(size):
    app, scene = board(size, ("Ada",), 3, 6)
    leaders = [h for h in scene.hits if isinstance(h.target, BI.Leader)]
    assert len(leaders) == 2
    for hit in leaders:
        other = next(h.rect for h in leaders if h is not hit)
        move(app, (3, 3))
        before = pixels(app.window, other)
        click(app, hit.rect.center)
        buttons = scene._leader_buttons
        assert [b.text for b in buttons] == ["Play", "Discard (+1 Faith)"]
        for b in buttons:
            assert app.window.get_rect().contains(b.rect)
            assert not b.rect.colliderect(other) and not b.rect.colliderect(hit.rect)
            assert b.font.size(b.text)[0] <= b.rect.w - 8, f"{b.text!r} is cut off"
        move(app, (3, 3))
        assert pixels(app.window, other) == before          # the other leader is still in full view
        app.frame(0.001, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b")])
        assert not scene._leader_buttons


def _hover_everything(app: App, scene: BoardScene, kinds) -> int:
    """Hover every target of ``kinds``: the action bar and the log (or the plan) never change;
    how many showed enlarged art (pixels changed away from the hovered thing)."""
    L = scene.layout
    move(app, (3, 3))
    calm = app.window.copy()
    clear = [pixels(calm, r) for r in (L.actions, L.log)]
    shown = 0
    w, h = calm.get_size()
    probe = [(x, y, (y * w + x) * 4) for x in range(0, w, 7) for y in range(0, h, 7)]   # (and where in the bytes)
    before = pygame.image.tobytes(calm, "RGBA")
    for hit in [h for h in scene.hits if isinstance(h.target, kinds)]:
        move(app, hit.rect.center)
        assert [pixels(app.window, r) for r in (L.actions, L.log)] == clear, hit.target
        now, near = pygame.image.tobytes(app.window, "RGBA"), hit.rect.inflate(16, 16)
        shown += any(not near.collidepoint(x, y) and now[i:i + 4] != before[i:i + 4] for x, y, i in probe)
    return shown


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_hover_art_never_covers_the_action_bar_or_the_log(size):
    app, scene = board(size, ("Ada", "Bruno", "Cora"), 9, 60)
    kinds = (BI.Card, BI.Leader, BI.Production, BI.Favor, BI.Marble, BI.Slot)
    assert _hover_everything(app, scene, kinds) >= 14    # 12 decks, 2 leaders at least


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_hover_art_never_covers_the_production_being_confirmed(size):
    app, scene = board(size, ("Ada", "Bruno", "Cora"), 9, 60)
    click(app, scene.buttons["produce"].rect.center)
    assert scene.plan is not None
    base = next(h for h in scene.hits if isinstance(h.target, BI.Production))
    click(app, base.rect.center)                  # something chosen: the summary shows what is paid
    assert _hover_everything(app, scene, (BI.Production, BI.Leader, BI.Card)) >= 2


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_log_wraps_at_one_size_scrolls_with_the_wheel_and_marks_the_newest_line(size):
    from game.scenes.art import fonts as F
    app = App(headless=True, size=size)
    session = GameSession(Table(mid_game(["Ada", "Bruno"], 5, 30), "Ada", chat=True), CFG, "Ada")
    session.pump()
    session.log += [f"Line {i}: Bruno takes row 2 from the market, 2 Coin, 1 Shield and 1 faith, and stores "
                    f"them on his shelves" for i in range(30)]
    scene = BoardScene(app, session)
    app.stack.push(scene)
    app.frame(0.001)
    app.frame(5.0)
    panel, L = scene.log, scene.layout
    ctx = scene.context()
    assert ctx.chat and panel.visible_rows(True) >= 6            # more than five lines, chat line and all
    area = panel.text_area(True)
    rows = panel.rows(ctx)
    assert len(rows) >= 60                                     # long lines wrapped, not shrunk
    assert all(F.font(panel.size, "regular").size(words)[0] <= area.w - panel.px(8) for _s, words, _f, _n in rows)
    # the newest line stands on a band: its margin differs from an older line's
    y_new = area.bottom - panel.line_h // 2
    y_old = area.bottom - panel.line_h * 5 - panel.line_h // 2
    assert app.window.get_at((area.x - 2, y_new)) != app.window.get_at((area.x - 2, y_old))
    # the wheel over the log goes back through the history, and forward again
    newest = pixels(app.window, L.log)
    move(app, L.log.center)
    app.frame(0.001, [pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=2, flipped=False, precise_x=0.0, precise_y=2.0)])
    app.frame(0.001)
    assert scene.log_scroll == 6 and pixels(app.window, L.log) != newest
    app.frame(0.001, [pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-5, flipped=False, precise_x=0.0, precise_y=-5.0)])
    app.frame(0.001)
    assert scene.log_scroll == 0 and pixels(app.window, L.log) == newest
    # far back, the oldest line is shown; a line arriving meanwhile does not move the view
    app.frame(0.001, [pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=100, flipped=False, precise_x=0.0, precise_y=100.0)])
    app.frame(0.001)
    assert scene.log_scroll == len(rows) - panel.visible_rows(True)
    session.match.chat("hello")
    app.frame(0.001)
    assert scene.log_scroll == len(rows) - panel.visible_rows(True) + 1


def _about_to_report(nicks=("Ada",)):
    """A game at Ada's turn with her marker one space before the first pope space."""
    game = mid_game(list(nicks), 3, 6)
    for p in game.players:
        p.faith = 7 if p.nickname == "Ada" else 2
    return game


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_vatican_report_gets_its_moment_on_the_board(size, tmp_path):
    app = App(headless=True, size=size)
    game = _about_to_report(("Ada", "Bruno"))
    scene = BoardScene(app, GameSession(Table(game, "Ada"), CFG, "Ada"))
    app.stack.push(scene)
    app.frame(0.001)
    app.frame(5.0)
    L = scene.layout
    assert scene.frame_interval() is None                     # nothing moves: the app may sleep
    calm = pixels(app.window, L.faith)
    leader = next(h for h in scene.hits if isinstance(h.target, BI.Leader))
    click(app, leader.rect.center)
    discard = next(b for b in scene._leader_buttons if b.text.startswith("Discard"))
    click(app, discard.rect.center)                           # +1 faith: Ada reaches the pope space
    assert game.player("Ada").faith == 8
    frames = []
    for _ in range(6):                                        # the moment plays, frame after frame
        app.frame(0.15)
        assert scene.frame_interval() == 0.0
        frames.append(pixels(app.window, L.faith))
    if len(set(frames)) != 6 or calm in frames:               # the moment as drawn, to be looked at
        pygame.image.save(app.window, str(tmp_path / "report.png"))
    assert len(set(frames)) == 6 and calm not in frames       # the tile turns, the section pulses
    moment = scene.moments[0]
    assert moment.gained == ["Ada"] and moment.lost == ["Bruno"] and moment.mine == "UP"
    assert moment.words("Ada") == "you turn the tile face up: +2 VP; Bruno loses it"
    many = VaticanMoment(0, 2, ["Lucrezia (bot)", "Isabella (bot)", "Cosimo (bot)"], ["Ada", "Bruno"], "REMOVED")
    assert many.words("Ada") == ("Lucrezia (bot), Isabella (bot) and Cosimo (bot) turn the tile face up: +2 VP; "
                                 "Bruno loses it; you were not in the section: your tile is removed")
    for _ in range(40):
        app.frame(0.15)
    assert not scene.moments and scene.frame_interval() is None
    settled = pixels(app.window, L.faith)
    assert settled not in frames and settled != calm          # the banner is gone, the tile stays up


def test_a_played_leader_looks_nothing_like_one_in_hand_on_either_board():
    def shown(played: bool, viewer: str):
        app = App(headless=True, size=(1280, 800))
        game = mid_game(["Ada", "Bruno"], 3, 6)
        bruno = game.player("Bruno")
        lid = bruno.hand[0]
        if played:
            bruno.active_leaders.append(lid)
        scene = BoardScene(app, GameSession(Table(game, viewer), CFG, viewer))
        app.stack.push(scene)
        app.frame(0.001)
        app.frame(5.0)
        if viewer == "Ada":                                   # Bruno's board, opened from his chip
            chip = next(h for h in scene.hits if h.target == BI.Opponent("Bruno"))
            click(app, chip.rect.center)
            move(app, (3, 3))
            big = scene.layout.board.copy()
            from game.scenes.layout import board_layout
            from game.scenes.panels.player_board import PlayerBoardPanel
            L = board_layout(app.size, 2, False)
            rects = PlayerBoardPanel(L.board, L.unit).leader_rects({"leadersHand": [lid]} if played else
                                                                   {"leadersHand": []})
            assert big.w
            return app.window.copy(), rects.get(lid)
        rect = next(h.rect for h in scene.hits if h.target == BI.Leader(lid))
        return app.window.copy(), rect

    in_hand, rect = shown(False, "Bruno")
    played, rect2 = shown(True, "Bruno")
    assert rect == rect2
    diff = sum(in_hand.get_at((x, y)) != played.get_at((x, y))
               for x in range(rect.x, rect.right, 3) for y in range(rect.y, rect.bottom, 3))
    assert diff > 0.5 * (rect.w // 3) * (rect.h // 3)          # not a caption: the card itself differs
    # an opponent's played leader shows on their board; the one in hand is a hidden back
    seen, rect = shown(True, "Ada")
    assert rect is not None
    colours = {tuple(seen.get_at((x, y)))[:3] for x in range(rect.x, rect.right, 4) for y in range(rect.y, rect.bottom, 4)}
    assert len(colours) > 80


def test_lorenzos_pile_shows_the_tokens_face_up_and_warns_before_a_colour_runs_out():
    from game.scenes.panels.top_bar import pile_warning
    app = App(headless=True, size=(1280, 800))
    app.settings.confirm_end_turn = False
    game = mid_game(["Ada"], 7, 4)
    session = GameSession(Table(game, "Ada"), CFG, "Ada")
    scene = BoardScene(app, session)
    app.stack.push(scene)
    app.frame(0.001)
    app.frame(5.0)
    pile = scene.layout.token.copy()
    seen = set()
    for turn in range(6):                                      # turns played with the mouse
        line = next(h for h in scene.hits if h.target == BI.Line(True, turn % 3))
        click(app, line.rect.center)
        click(app, scene.buttons["confirm"].rect.center)
        if scene.confirm_dialog is not None:
            click(app, scene.confirm_dialog.confirm_button.rect.center)
        click(app, scene.buttons["end"].rect.center)
        app.frame(5.0)
        assert app.stack.top is scene and game.version > 0
        revealed = session.vm.revealed_tokens
        last = game.last_token
        shuffled = CFG.solo_tokens[last].kind == "move_shuffle"
        assert (revealed == []) if shuffled else (revealed[-1] == last and game.tokens[-len(revealed):] == revealed)
        seen.add(pixels(app.window, pile))
    assert len(seen) >= 3                                      # the pile's corner follows the draws
    # a colour two cards from the end with its token still in the pile: a warning in words
    game = mid_game(["Ada"], 7, 4)
    session = GameSession(Table(game, "Ada"), CFG, "Ada")
    scene = BoardScene(app, session)
    app.stack.reset(scene)
    app.frame(0.001)
    app.frame(5.0)
    view = session.vm.game
    token = next(t for t in view["actionTokens"] if t.get("discardedDevCardColor")
                 and t["id"] not in session.vm.revealed_tokens)
    color = token["discardedDevCardColor"]
    view["devCardGrid"]["cardsLeft"][color] = [0, 0, 1, 1]
    assert pile_warning(view, []) == f"Beware: one more {color.lower()} token and you lose"
    assert pile_warning(view, [token["id"]]) is None           # face up: it cannot come before a shuffle
    before = pixels(app.window, pile)
    scene._rev += 1                                            # the view changed under the board: redraw
    app.frame(0.001)
    assert pixels(app.window, pile) != before


def test_base_production_offers_a_picker_of_what_the_player_owns():
    app = App(headless=True, size=(1280, 800))
    game = mid_game(["Ada", "Bruno"], 3, 6)
    ada = game.player("Ada")
    for c in ada.shelves:
        c.content.clear()
    ada.strongbox.content.clear()
    ada.strongbox.content.update({"Stone": 3, "Coin": 1})
    scene = BoardScene(app, GameSession(Table(game, "Ada"), CFG, "Ada"))
    app.stack.push(scene)
    app.frame(0.001)
    app.frame(5.0)
    click(app, scene.buttons["produce"].rect.center)
    base = next(h for h in scene.hits if h.target == BI.Production(0))
    click(app, base.rect.center)
    plan = scene.plan
    assert plan.input_blanks[0] == ["Stone", "Stone"]          # what there is most of
    assert plan.output_blanks[0] == ["Servant"]                # what is not paid, and least held
    picks = {(h.target.production, h.target.side, h.target.index, h.target.res): h.rect
             for h in scene.hits if isinstance(h.target, BI.Blank)}
    assert len(picks) == 12                                    # 2 to pay, 1 to get, 4 resources each
    before = pixels(app.window, scene.layout.log)
    click(app, picks[(0, "in", 0, "Servant")].center)         # none owned: refused, in words
    assert plan.input_blanks[0] == ["Stone", "Stone"] and scene.note == "You have no Servants to pay with."
    assert pixels(app.window, scene.layout.log) != before
    click(app, picks[(0, "in", 1, "Coin")].center)
    assert plan.input_blanks[0] == ["Stone", "Coin"] and scene.note is None
    click(app, picks[(0, "in", 0, "Coin")].center)            # a second Coin: only one is owned
    assert plan.input_blanks[0] == ["Stone", "Coin"] and scene.note == "You have 1 Coin: not enough to pay 2."
    assert plan.output_blanks[0] == ["Servant"]                # never what is paid
    click(app, picks[(0, "out", 0, "Shield")].center)
    assert plan.output_blanks[0] == ["Shield"] and plan.ready
    click(app, picks[(0, "in", 1, "Stone")].center)           # the player's own choice stays
    assert plan.output_blanks[0] == ["Shield"]


def test_base_production_never_offers_to_give_back_what_it_pays():
    """1 Coin and 1 Servant owned: the base production pays them and, until the player chooses,
    gives a Shield or a Stone (it gave a Coin back: the main action for nothing)."""
    app = App(headless=True, size=(1024, 640))
    game = mid_game(["Ada"], 3, 0)
    ada = game.player("Ada")
    for c in ada.shelves:
        c.content.clear()
    ada.strongbox.content.clear()
    ada.strongbox.content.update({"Coin": 1, "Servant": 1})
    scene = BoardScene(app, GameSession(Table(game, "Ada"), CFG, "Ada"))
    app.stack.push(scene)
    app.frame(0.001)
    app.frame(5.0)
    click(app, scene.buttons["produce"].rect.center)
    base = next(h for h in scene.hits if h.target == BI.Production(0))
    click(app, base.rect.center)
    plan = scene.plan
    assert sorted(plan.input_blanks[0]) == ["Coin", "Servant"]
    assert plan.output_blanks[0] in (["Shield"], ["Stone"]) and plan.ready
    while app.stack.top is not None:
        app.stack.pop()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_button_of_the_action_bar_stays_inside_it(size):
    app, scene = board(size)
    bar = scene.layout.actions
    shown = [b for b in scene.buttons.values() if b.visible]
    assert len(shown) >= 5
    for b in shown:
        assert bar.contains(b.rect), b.text
        assert b.font.size(b.text)[0] <= b.rect.w - 4, b.text
    for i, a in enumerate(shown):
        assert not any(a.rect.colliderect(b.rect) for b in shown[i + 1:]), a.text


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_short_log_shows_every_line(size, monkeypatch):
    """A log of fewer lines than the panel holds shows them all (a rejoined board's first frame
    showed only its last line, and a restarted server's walk caught it)."""
    from game.scenes.art import fonts as F
    drawn: list[str] = []
    render = F.render
    monkeypatch.setattr(F, "render", lambda t, *a, **k: (drawn.append(str(t)), render(t, *a, **k))[1])
    app = App(headless=True, size=size)
    session = GameSession(Table(mid_game(["Ada", "Bruno"], 5, 30), "Ada", chat=True), CFG, "Ada")
    session.pump()
    scene = BoardScene(app, session)
    app.stack.push(scene)
    try:
        app.frame(0.001)
        room = scene.log.visible_rows(scene.context().chat)
        for n in range(1, room + 1):                 # one line, two... as many as there is room for
            session.log[:] = [f"Line {i}: Ada took row 1" for i in range(n)]
            drawn.clear()
            app.frame(0.001)
            assert {f"Line {i}: Ada took row 1" for i in range(n)} <= set(drawn), (n, room, drawn)
    finally:
        while app.stack.top is not None:
            app.stack.pop()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_log_scrolled_back_says_how_many_new_lines_wait_below_and_follows_again_at_the_bottom(size, monkeypatch):
    """Scrolled back to read, the player did not see the bots' and Lorenzo's moves arrive: the
    log now says at its foot how many new lines wait below (over none of its lines), and once
    scrolled back down it follows the newest line again."""
    from game.scenes.art import fonts as F
    from game.scenes.panels import log as log_module
    drawn: list[str] = []
    rows: list[tuple[str, pygame.Rect]] = []    # (words, their ink on the screen) of the log's rows
    render = F.render
    monkeypatch.setattr(F, "render", lambda t, *a, **k: (drawn.append(str(t)), render(t, *a, **k))[1])

    real_text = log_module.text

    def text(surface, words, pos, size, color=None, style="regular", **kw):
        r = real_text(surface, words, pos, size, color, style, **kw)
        rows.append((words, render(words, size, color or (0, 0, 0), style).get_bounding_rect().move(r.topleft)))
        return r
    monkeypatch.setattr(log_module, "text", text)
    app = App(headless=True, size=size)
    session = GameSession(Table(mid_game(["Ada", "Bruno"], 5, 30), "Ada", chat=True), CFG, "Ada")
    session.pump()
    session.log += [f"Line {i}: Bruno takes row 2 from the market" for i in range(40)]
    scene = BoardScene(app, session)
    app.stack.push(scene)
    app.frame(0.001)
    app.frame(5.0)
    try:
        move(app, scene.layout.log.center)
        app.frame(0.001, [pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=2, flipped=False)])   # 6 rows back
        app.frame(0.001)
        assert scene.log_scroll == 6
        session.log += ["Bruno buys the level-1 green card", "Lorenzo il Magnifico moves his cross 2 spaces"]
        drawn.clear()
        rows.clear()
        app.frame(0.001)
        app.frame(0.001)
        assert "\u2193 2 new lines below: scroll down to read" in drawn, drawn
        pill = scene.log.badge(scene.context())[1]
        assert len(rows) >= 3 and all(scene.layout.log.contains(ink) for _w, ink in rows)
        bands = [pygame.Rect(scene.layout.log.x, ink.y, scene.layout.log.w, ink.h) for _w, ink in rows]
        assert not any(band.colliderect(pill) for band in bands), "the words below cover a row of the log"
        assert "Lorenzo il Magnifico moves his cross 2 spaces" not in drawn        # still reading the older lines
        drawn.clear()
        app.frame(0.001, [pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-5, flipped=False)])
        app.frame(0.001)
        assert scene.log_scroll == 0
        assert "Lorenzo il Magnifico moves his cross 2 spaces" in drawn and not any("new line" in t for t in drawn)
        session.log.append("Bruno ends his turn")                                 # following again
        drawn.clear()
        app.frame(0.001)
        app.frame(0.001)
        assert scene.log_scroll == 0 and "Bruno ends his turn" in drawn
    finally:
        while app.stack.top is not None:
            app.stack.pop()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("seat", [0, 2])
def test_the_players_own_colour_is_shown_before_their_name(size, seat):
    """Each opponent's chip has a dot of their colour; the player's own colour was shown nowhere."""
    from game.scenes.panels.top_bar import PLAYER_COLORS
    nicks = ["Ada", "Bruno", "Carla"]
    app = App(headless=True, size=size)
    me = nicks[seat]
    game = mid_game(nicks, 9, 12)
    scene = BoardScene(app, GameSession(Table(game, me), CFG, me))
    app.stack.push(scene)
    app.frame(0.001)
    app.frame(5.0)
    try:
        seat_of = [p.nickname for p in game.players].index(me)
        (cx, cy), rad, colour = scene.top_bar.own_dot(scene.context())
        assert colour == PLAYER_COLORS[seat_of % 4]
        assert tuple(app.window.get_at((cx, cy)))[:3] == colour
        assert scene.layout.top_bar.contains(pygame.Rect(cx - rad, cy - rad, 2 * rad, 2 * rad))
    finally:
        while app.stack.top is not None:
            app.stack.pop()


def test_clicking_the_chosen_leader_again_puts_it_back():
    """A leader clicked opens Play and Discard; clicked again, it is put back as a player
    expects (as a shelf clicked twice is): the menu closes and End turn is back."""
    app, scene = board((1024, 640), ("Ada",), 3, 6)
    hit = next(h for h in scene.hits if isinstance(h.target, BI.Leader))
    click(app, hit.rect.center)
    assert scene.leader_menu == hit.target.id and scene._leader_buttons
    click(app, hit.rect.center)
    assert scene.leader_menu is None
    assert not scene._leader_buttons
    assert scene.buttons["end"].visible


@pytest.mark.parametrize("away", [False, True])
def test_the_end_turn_question_names_who_plays_next(away):
    """"End your turn?" says who plays next by name, skipping a player who left (it said "The next
    player takes their turn." whoever it was), in the player's language."""
    from game import i18n
    app = App(headless=True, size=(1280, 800))
    game = mid_game(["Ada", "Bruno", "Cora"], 11, 60)
    order = [p.nickname for p in game.players]            # (the turn order: the deal's)
    after, then = order[(order.index("Ada") + 1) % 3], order[(order.index("Ada") + 2) % 3]
    if away:
        game.set_active(after, False)
        after = then
    scene = BoardScene(app, GameSession(Table(game, "Ada"), CFG, "Ada"))
    app.stack.push(scene)
    app.frame(0.001)
    app.frame(5.0)
    click(app, next(h for h in scene.hits if h.target == BI.Line(True, 0)).rect.center)
    click(app, scene.buttons["confirm"].rect.center)
    if scene.confirm_dialog is not None:                      # (what does not fit is discarded)
        click(app, scene.confirm_dialog.confirm_button.rect.center)
    click(app, scene.buttons["end"].rect.center)
    asked = app.stack.top
    assert asked.title == "End your turn?"
    assert asked.text.startswith(f"{after} plays next."), asked.text
    i18n.use("it")
    scene._end_turn()
    assert scene.confirm_dialog.text.startswith(f"Poi gioca {after}.")
