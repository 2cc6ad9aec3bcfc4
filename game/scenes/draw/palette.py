"""The named colours of the art set: a warm Renaissance palette.

Paper and wood for surfaces, iron-gall and sepia inks for lines and text, gold
leaf for borders, and earth-pigment versions of the four card colours (verdigris,
lapis, saffron, murex), the four resources and the six market marbles.  Every
colour is an ``(r, g, b)`` tuple; the helpers at the bottom mix and shade them.
"""
from __future__ import annotations

Color = tuple[int, int, int]

# --- surfaces ---------------------------------------------------------------
PARCHMENT: Color = (240, 226, 194)
PARCHMENT_LIGHT: Color = (250, 242, 222)
PARCHMENT_DARK: Color = (219, 196, 150)
VELLUM: Color = (245, 236, 214)
WALNUT: Color = (84, 52, 31)
WALNUT_DARK: Color = (50, 30, 18)
WALNUT_LIGHT: Color = (120, 80, 48)
OAK: Color = (158, 112, 64)
OAK_LIGHT: Color = (196, 152, 96)

# --- inks and metals --------------------------------------------------------
INK: Color = (40, 27, 18)
SEPIA: Color = (98, 64, 34)
SEPIA_LIGHT: Color = (150, 110, 70)
GOLD: Color = (199, 156, 64)
GOLD_LIGHT: Color = (242, 212, 128)
GOLD_DARK: Color = (126, 88, 30)
SILVER: Color = (196, 198, 200)
DEEP_RED: Color = (138, 30, 32)
DEEP_RED_DARK: Color = (88, 16, 20)
VERMILION: Color = (190, 52, 38)
BLACK: Color = (22, 20, 20)
WHITE: Color = (255, 255, 255)

# --- development card colours (rich pigments, not neon) ---------------------
CARD_GREEN: Color = (52, 108, 60)      # verdigris / forest
CARD_BLUE: Color = (36, 72, 138)       # lapis lazuli
CARD_YELLOW: Color = (214, 158, 36)    # saffron / ochre
CARD_PURPLE: Color = (106, 48, 112)    # murex
CARD_COLORS: dict[str, Color] = {
    "Green": CARD_GREEN, "Blue": CARD_BLUE, "Yellow": CARD_YELLOW, "Purple": CARD_PURPLE,
}

# --- resources --------------------------------------------------------------
COIN: Color = (222, 172, 44)
SERVANT: Color = (124, 76, 160)
SHIELD: Color = (46, 112, 178)
STONE: Color = (136, 132, 126)
FAITH: Color = (184, 34, 36)
RESOURCE_COLORS: dict[str, Color] = {
    "Coin": COIN, "Servant": SERVANT, "Shield": SHIELD, "Stone": STONE, "Faith": FAITH,
}

# --- market marbles ---------------------------------------------------------
MARBLE_WHITE: Color = (236, 232, 224)
MARBLE_BLUE: Color = (44, 98, 180)
MARBLE_GREY: Color = (126, 124, 122)
MARBLE_YELLOW: Color = (232, 182, 36)
MARBLE_PURPLE: Color = (126, 62, 156)
MARBLE_RED: Color = (188, 36, 36)
MARBLE_COLORS: dict[str, Color] = {
    "Zero": MARBLE_WHITE, "Shield": MARBLE_BLUE, "Stone": MARBLE_GREY,
    "Coin": MARBLE_YELLOW, "Servant": MARBLE_PURPLE, "Faith": MARBLE_RED,
}

# --- papal favour tiles (by victory points) ---------------------------------
FAVOR_COLORS: dict[int, Color] = {2: (222, 178, 52), 3: (214, 116, 40), 4: (176, 40, 36)}


def mix(a: Color, b: Color, t: float) -> Color:
    """The colour ``t`` of the way from ``a`` to ``b`` (0 gives ``a``, 1 gives ``b``)."""
    t = max(0.0, min(1.0, t))
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def lighten(c: Color, t: float) -> Color:
    """``c`` mixed toward white by ``t``."""
    return mix(c, (255, 255, 255), t)


def darken(c: Color, t: float) -> Color:
    """``c`` mixed toward black by ``t``."""
    return mix(c, (0, 0, 0), t)


def luminance(c: Color) -> float:
    """Perceived brightness of ``c``, 0..255 (ITU-R BT.601 weights)."""
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def grey(c: Color) -> Color:
    """``c`` as a neutral grey of the same brightness."""
    v = round(luminance(c))
    return (v, v, v)


def card_color(name: str | None) -> Color:
    """The pigment of a card colour name; an oak brown for unknown or ``None``."""
    return CARD_COLORS.get(name or "", OAK)


def resource_color(name: str) -> Color:
    """The colour of a resource name; a sepia for unknown names."""
    return RESOURCE_COLORS.get(name, SEPIA_LIGHT)
