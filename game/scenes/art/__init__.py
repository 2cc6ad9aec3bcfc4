"""Procedural art for the board: palette, fonts, icons, marbles, cards and board furniture.

Everything is drawn by code (no images). Each function returns an ``SRCALPHA`` surface of exactly the
requested size, cached by its arguments: the same call returns the same object, so copy it before
drawing on it. No display is needed (surfaces are never ``convert``-ed); call ``pygame.init()`` (or at
least ``pygame.font.init()``) first.
"""
from . import board, card_parts, cards, fonts, icons, leader_cards, marbles, palette, tiles
from .board import faith_space, parchment, shelf, wood_panel
from .card_parts import card_width
from .cards import card_back, dev_card
from .fonts import fit, font, render
from .icons import arrow, black_cross, inkwell, level_pips, resource_icon, vp_badge
from .leader_cards import leader_card
from .marbles import marble
from .tiles import favor_tile, token

__all__ = ["board", "card_parts", "cards", "fonts", "icons", "leader_cards", "marbles", "palette", "tiles", "faith_space", "parchment", "shelf",
           "wood_panel", "card_back", "card_width", "dev_card", "favor_tile", "leader_card", "token", "fit",
           "font", "render", "arrow", "black_cross", "inkwell", "level_pips", "resource_icon", "vp_badge",
           "marble"]
