"""The procedural art package: sizes, alpha, caching, and that pieces are told apart."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.rules import Game, default_config, player_view  # noqa: E402
from game.scenes import art  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.init()
    pygame.display.set_mode((1, 1))
    yield


@pytest.fixture(scope="module")
def msg():
    return player_view(Game.new(default_config(), ["Ada"], 1), "Ada")


@pytest.fixture(scope="module")
def prods(msg):
    return {p["id"]: p for p in msg["productions"]}


def _ok(surf, size):
    assert isinstance(surf, pygame.Surface)
    assert surf.get_size() == tuple(size)
    assert surf.get_flags() & pygame.SRCALPHA
    assert surf.get_bitsize() == 32


def _bytes(surf):
    return pygame.image.tobytes(surf, "RGBA")


def _gray(surf, n=24):
    small = pygame.transform.smoothscale(surf, (n, n))
    out = []
    for y in range(n):
        for x in range(n):
            r, g, b, a = small.get_at((x, y))
            out.append((0.299 * r + 0.587 * g + 0.114 * b) * a / 255)
    return out


def test_palette_names():
    p = art.palette
    for name in ("PARCHMENT", "PARCHMENT_DARK", "INK", "SEPIA", "OXBLOOD", "GOLD", "GOLD_LIGHT", "WALNUT",
                 "WALNUT_DARK", "OAK", "FELT", "HIGHLIGHT", "DIM"):
        assert len(getattr(p, name)) in (3, 4)
    assert set(p.CARD_COLORS) == {"Green", "Blue", "Yellow", "Purple"}
    assert set(p.RESOURCE_COLORS) >= {"Coin", "Servant", "Shield", "Stone", "Faith"}


def test_fonts():
    assert art.font(20) is art.font(20)
    for style in ("regular", "italic", "caps"):
        assert art.font(18, style).get_height() > 0
        s = art.render("Lorenzo", 18, (0, 0, 0), style)
        assert s.get_width() > 0 and s.get_flags() & pygame.SRCALPHA
    size = art.fit("Masters of Renaissance", 100, 40)

    def width(s: int) -> int:
        return art.font(s).size("Masters of Renaissance")[0]

    assert width(size) <= 100 < width(size + 1)   # the largest size that fits
    assert art.fit("x", 100, 30) == 30


@pytest.mark.parametrize("size", [12, 40, 97])
def test_icons(size):
    for name in ("Coin", "Servant", "Shield", "Stone", "Faith", "Any"):
        _ok(art.resource_icon(name, size), (size, size))
    _ok(art.vp_badge(12, size), (size, size))
    _ok(art.level_pips(3, size), (size, size))
    _ok(art.black_cross(size), (size, size))
    _ok(art.inkwell(size), (size, size))
    for d in ("left", "right", "up", "down"):
        _ok(art.arrow(d, size), (size, size))


def test_icons_differ_and_cache():
    imgs = [_bytes(art.resource_icon(n, 40)) for n in ("Coin", "Servant", "Shield", "Stone", "Faith", "Any")]
    assert len(set(imgs)) == len(imgs)
    assert art.resource_icon("Coin", 40) is art.resource_icon("Coin", 40)
    assert _bytes(art.arrow("left", 40)) != _bytes(art.arrow("right", 40))
    assert _bytes(art.vp_badge(3, 40)) != _bytes(art.vp_badge(4, 40))


KINDS = ("Zero", "Shield", "Stone", "Coin", "Servant", "Faith")


@pytest.mark.parametrize("d", [10, 36, 120])
def test_marbles_size(d):
    for k in KINDS:
        _ok(art.marble(k, d), (d, d))


def test_marbles_differ_in_grayscale():
    grays = {k: _gray(art.marble(k, 96)) for k in KINDS}
    for i, a in enumerate(KINDS):
        for b in KINDS[i + 1:]:
            diff = sum(abs(x - y) for x, y in zip(grays[a], grays[b])) / len(grays[a])
            assert diff > 2.0, (a, b, diff)
    # the symbol, not only the tone: equalise the mean brightness and they still differ
    def centred(v):
        m = sum(v) / len(v)
        return [x - m for x in v]
    shapes = {k: centred(v) for k, v in grays.items()}
    for i, a in enumerate(KINDS):
        for b in KINDS[i + 1:]:
            diff = sum(abs(x - y) for x, y in zip(shapes[a], shapes[b])) / len(shapes[a])
            assert diff > 1.0, (a, b, diff)
    assert art.marble("Coin", 40) is art.marble("Coin", 40)


@pytest.mark.parametrize("h", [40, 60, 180, 400])
def test_all_dev_cards(msg, prods, h):
    w = art.card_width(h)
    assert w == round(h * 0.66)
    images = set()
    for card in msg["developmentCards"]:
        s = art.dev_card(card, prods, h)
        _ok(s, (w, h))
        images.add(_bytes(s))
    assert len(images) == 48


@pytest.mark.parametrize("h", [40, 60, 180, 400])
def test_all_leaders(msg, prods, h):
    w = art.card_width(h)
    images = set()
    for ld in msg["leaderCards"]:
        s = art.leader_card(ld, prods, h)
        d = art.leader_card(ld, prods, h, dimmed=True)
        _ok(s, (w, h))
        _ok(d, (w, h))
        assert _bytes(s) != _bytes(d)
        images.add(_bytes(s))
    assert len(images) == 16


def test_cards_cached_by_content(msg, prods):
    card = msg["developmentCards"][5]
    a = art.dev_card(card, prods, 150)
    assert art.dev_card(dict(card), dict(prods), 150) is a
    assert art.dev_card(card, msg["productions"], 150) is a  # a list of productions works too
    ld = msg["leaderCards"][12]
    assert art.leader_card(ld, prods, 150) is art.leader_card(dict(ld), prods, 150)
    assert art.leader_card(ld, prods, 150, dimmed=True) is art.leader_card(ld, prods, 150, dimmed=True)
    tok = msg["actionTokens"][3]
    assert art.token(tok, 64) is art.token(dict(tok), 64)


def test_backs_tokens_tiles(msg):
    for h in (40, 180):
        w = art.card_width(h)
        backs = [art.card_back("dev", h, lv) for lv in (1, 2, 3, None)] + [art.card_back("leader", h)]
        for b in backs:
            _ok(b, (w, h))
        assert len({_bytes(b) for b in backs}) == 5
    for size in (24, 90):
        toks = [art.token(t, size) for t in msg["actionTokens"]]
        for t in toks:
            _ok(t, (size, size))
        kinds = {(t["kind"], t.get("discardedDevCardColor")) for t in msg["actionTokens"]}
        assert len({_bytes(t) for t in toks}) == len(kinds)
        tiles = [art.favor_tile(vp, st, size) for vp in (2, 3, 4) for st in ("DOWN", "UP", "REMOVED")]
        for t in tiles:
            _ok(t, (size, size))
        assert len({_bytes(t) for t in tiles}) >= 7  # REMOVED outlines may coincide


def test_board_pieces():
    _ok(art.wood_panel(300, 200), (300, 200))
    _ok(art.wood_panel(37, 23), (37, 23))
    _ok(art.parchment(123, 45), (123, 45))
    assert art.parchment(123, 45) is art.parchment(123, 45)
    for cap in (1, 2, 3):
        _ok(art.shelf(cap, 200, 50), (200, 50))
    assert _bytes(art.shelf(1, 200, 50)) != _bytes(art.shelf(3, 200, 50))
    spaces = [art.faith_space(8, 40, 40, pope=True, section=True, vp=2),
              art.faith_space(5, 40, 40, pope=False, section=True, vp=None),
              art.faith_space(3, 40, 40, pope=False, section=False, vp=1),
              art.faith_space(1, 40, 40, pope=False, section=False, vp=None)]
    for s in spaces:
        _ok(s, (40, 40))
    assert len({_bytes(s) for s in spaces}) == 4
    _ok(art.faith_space(24, 30, 55, pope=True, section=True, vp=20), (30, 55))


def test_every_face_sets_lining_figures_that_cannot_be_confused():
    """0 is taller than o, every digit stands as tall as a capital (no old-style 1 like a small I,
    no descending 3), in every face and at small and large sizes; pygame_gui's theme uses the
    same faces."""
    import json

    from game.scenes.art import fonts as F
    from game.scenes.scene import THEME_PATH

    def ink_height(text, size, style):
        img = F.render(text, size, (0, 0, 0), style)
        return img.get_bounding_rect(min_alpha=60).h

    for style in ("regular", "italic", "caps"):
        for size in (12, 16, 24, 40):
            cap = ink_height("H", size, style)
            heights = [ink_height(d, size, style) for d in "0123456789"]
            assert max(heights) - min(heights) <= max(1, size // 12), (style, size, heights)
            assert abs(heights[0] - cap) <= max(1, size // 12), (style, size)
            assert heights[0] >= ink_height("o", size, style) * 1.25, (style, size)
    theme = THEME_PATH.read_text(encoding="utf-8")
    paths = {v for block in json.loads(theme).values() if isinstance(block, dict)
             for k, v in block.get("font", {}).items() if k.endswith("_path")}
    assert paths and all("LF-" in p for p in paths), paths


@pytest.mark.parametrize("w, h", [(240, 150), (97, 301), (60, 40)])
def test_wood_drawn_for_some_bands_has_the_whole_pictures_pixels_in_them(w, h):
    """A frame's rails and stiles are drawn from wood whose grain lines are drawn only where they
    are used (``bands``): there, its pixels are the whole picture's, to the last one."""
    from game.scenes.art._draw import wood
    for vertical in (False, True):
        across = w if vertical else h
        bands = ((0, across // 7), (across - across // 5, across))
        whole, part = wood(w, h, seed=5, vertical=vertical), wood(w, h, seed=5, vertical=vertical, bands=bands)
        for lo, hi in bands:
            rect = pygame.Rect(lo, 0, hi - lo, h) if vertical else pygame.Rect(0, lo, w, hi - lo)
            assert _bytes(whole.subsurface(rect)) == _bytes(part.subsurface(rect)), (vertical, lo, hi)
        assert _bytes(whole) != _bytes(part)              # (lines elsewhere were left out)


def test_a_drop_shadow_is_blurred_once_per_shape_and_is_the_blur_of_its_silhouette():
    """Two pictures of one shape share their shadow, drawn once (leader cards of one size share
    their emblem's and cartouche's), and it is the gaussian blur of the shape's silhouette."""
    from game.scenes.art import _draw
    red, blue = _draw.canvas(40, 30), _draw.canvas(40, 30)
    for surf, colour in ((red, (200, 30, 30)), (blue, (30, 30, 200))):
        pygame.draw.ellipse(surf, colour, (6, 4, 28, 20))
    _draw.shadow.cache_clear()
    drawn = _draw.shadow.cache_info()["misses"]
    a, b = _draw.drop_shadow(red, (2, 3), 3, 90), _draw.drop_shadow(blue, (2, 3), 3, 90)
    assert _draw.shadow.cache_info()["misses"] == drawn + 1 and _bytes(a) != _bytes(b)
    pad = 3 * 2 + 2
    sh = _draw.canvas(40 + 2 * pad, 30 + 2 * pad)
    sh.blit(_draw.silhouette(red, (30, 18, 8), 90), (pad + 2, pad + 3))
    expected = _draw.canvas(40, 30)
    expected.blit(pygame.transform.gaussian_blur(sh, 3), (-pad, -pad))
    expected.blit(red, (0, 0))
    assert _bytes(a) == _bytes(expected)
