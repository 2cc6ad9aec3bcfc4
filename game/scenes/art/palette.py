"""The house palette: paper, iron-gall ink, oxblood, gold leaf, walnut and felt.

Every colour is an ``(r, g, b)`` tuple except :data:`HIGHLIGHT` and :data:`DIM`, which are
``(r, g, b, a)`` overlays meant to be blitted over a card or a space.
"""
from __future__ import annotations

Color = tuple[int, int, int]

PARCHMENT: Color = (244, 232, 204)
PARCHMENT_DARK: Color = (218, 194, 150)
INK: Color = (52, 32, 18)
SEPIA: Color = (98, 66, 38)
OXBLOOD: Color = (122, 42, 30)
GOLD: Color = (176, 134, 58)
GOLD_LIGHT: Color = (232, 198, 118)
GOLD_DARK: Color = (112, 80, 30)
WALNUT: Color = (96, 60, 34)
WALNUT_DARK: Color = (54, 32, 18)
OAK: Color = (164, 118, 70)
FELT: Color = (30, 66, 70)
IVORY: Color = (250, 244, 228)

CARD_COLORS: dict[str, Color] = {
    "Green": (58, 112, 66),
    "Blue": (40, 84, 142),
    "Yellow": (204, 152, 40),
    "Purple": (112, 56, 122),
}

RESOURCE_COLORS: dict[str, Color] = {
    "Coin": (222, 176, 52),
    "Servant": (126, 76, 152),
    "Shield": (54, 104, 170),
    "Stone": (140, 136, 128),
    "Faith": (186, 42, 36),
    "Zero": (236, 232, 222),
    "Any": (244, 232, 204),
}

# Marble glass colours (slightly more saturated than the printed resources).
MARBLE_COLORS: dict[str, Color] = {
    "Zero": (238, 236, 230),
    "Shield": (46, 102, 186),
    "Stone": (132, 130, 126),
    "Coin": (236, 188, 44),
    "Servant": (120, 64, 160),
    "Faith": (196, 36, 32),
}

HIGHLIGHT: tuple[int, int, int, int] = (255, 206, 96, 120)
"""A warm candle-light glow for legal targets (RGBA, blit over the target)."""
DIM: tuple[int, int, int, int] = (34, 24, 16, 150)
"""A smoky overlay for illegal or greyed-out things (RGBA)."""


def mix(a, b, t: float) -> Color:
    """Blend colour ``a`` towards ``b`` by ``t`` (0 gives ``a``); alpha, if any, is dropped."""
    # (written out: it runs for every cell of some gradients)
    red, green, blue = (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
                        round(a[2] + (b[2] - a[2]) * t))
    return (red if 0 <= red <= 255 else (0 if red < 0 else 255),
            green if 0 <= green <= 255 else (0 if green < 0 else 255),
            blue if 0 <= blue <= 255 else (0 if blue < 0 else 255))


def shade(c, t: float) -> Color:
    """Darken (``t`` < 0, towards black) or lighten (``t`` > 0, towards white) colour ``c``."""
    return mix(c, (0, 0, 0), -t) if t < 0 else mix(c, (255, 255, 255), t)
