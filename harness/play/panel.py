"""Draws the referee's lines into the window beside the screen: the latest lines that fit, wrapped, coloured by tone.

Only drawing lives here; what the lines say comes from `referee`, which
tests read without a window.
"""
from __future__ import annotations

import textwrap

from .referee import PanelLine

BACKGROUND = (24, 24, 32)
TONE_COLOURS = {
    "heading": (255, 255, 255),
    "event": (200, 200, 210),
    "engine": (140, 200, 255),
    "agree": (120, 220, 120),
    "deviation": (255, 190, 60),
    "unexplained": (255, 80, 80),
    "note": (150, 150, 150),
}
MONOSPACE = ("dejavusansmono", "liberationmono", "freemono", "monospace")


_fonts: dict = {}


def panel_font(size: int):
    """A monospaced font that has Cyrillic (DejaVu Sans Mono where installed), else pygame's own.

    Kept between frames, and made again after a pygame.quit() has invalidated it.
    """
    import pygame
    font = _fonts.get(size)
    if font is not None:
        try:
            font.get_height()
            return font
        except pygame.error:
            pass
    if not pygame.font.get_init():
        pygame.font.init()
    path = next(filter(None, (pygame.font.match_font(name) for name in MONOSPACE)), None)
    font = pygame.font.Font(path, size) if path else pygame.font.Font(None, size + 2)
    _fonts[size] = font
    return font


def wrap(lines: list[PanelLine], columns: int) -> list[PanelLine]:
    """Each line cut to *columns* characters at spaces; continuation lines indented by two."""
    out: list[PanelLine] = []
    for line in lines:
        parts = textwrap.wrap(line.text, columns, subsequent_indent="  ", drop_whitespace=False) or [""]
        out += [PanelLine(p.rstrip(), line.tone) for p in parts]
    return out


def draw_panel(surf, area, lines: list[PanelLine], scale: int = 1) -> None:
    """Fill *area* of *surf* with the last lines of *lines* that fit."""
    font = panel_font(6 * scale + 1)
    surf.fill(BACKGROUND, area)
    pad = 3 * scale
    char_w = max(font.size("M")[0], 1)
    line_h = font.get_linesize()
    columns = max((area.width - 2 * pad) // char_w, 10)
    visible = wrap(lines, columns)[-max((area.height - 2 * pad) // line_h, 1):]
    y = area.top + pad
    for line in visible:
        colour = TONE_COLOURS.get(line.tone, TONE_COLOURS["event"])
        surf.blit(font.render(line.text, True, colour, BACKGROUND), (area.left + pad, y))
        y += line_h
