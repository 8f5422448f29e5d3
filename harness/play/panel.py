"""Draws what the window adds to the machine's screen: the panel's lines beside it, the status line under it,
the card pointer's marker over it, and the key help over everything.

Only drawing lives here; what the lines say comes from `referee`, `hint` and
`waits`, which tests read without a window. Text is at least MIN_FONT pixels
high, so the panel is readable at the smallest scale.
"""
from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from ..program.model import program as P
from .keymap import key_help
from .referee import PanelLine

if TYPE_CHECKING:
    from pygame import Rect, Surface
    from pygame.font import Font

BACKGROUND = (24, 24, 32)
STATUS_BACKGROUND = (0, 0, 96)
STATUS_COLOUR = (255, 255, 120)
NOTICE_COLOUR = (120, 255, 255)
POINTER_COLOUR = (255, 0, 255)          # bright magenta: the Spectrum's screen has no such colour in this game
EVENT_COLOUR = (200, 200, 210)          # a panel line's tone when it names none the panel knows
TONE_COLOURS = {
    "heading": (255, 255, 255),
    "event": EVENT_COLOUR,
    "engine": (140, 200, 255),
    "agree": (120, 220, 120),
    "deviation": (255, 190, 60),
    "unexplained": (255, 80, 80),
    "note": (150, 150, 150),
    "hint": (255, 255, 120),
    "hidden": (120, 120, 150),
    "legend": (255, 200, 255),
    "translation": (170, 255, 200),
}
PINNED = ("legend", "translation", "hint")   # tones kept at the top of the panel, in this order, above the rest
PAUSED_BANNER = ("PAUSED", "P or Pause: go on")
PAUSED_BACKGROUND = (160, 0, 0)
MONOSPACE = ("dejavusansmono", "liberationmono", "freemono", "monospace")
MIN_FONT = 12                            # pixels: readable at scale 1


_fonts: dict[int, Font] = {}


def font_size(scale: int) -> int:
    return max(MIN_FONT, 6 * scale + 1)


def panel_font(size: int) -> Font:
    """A monospaced font that has Cyrillic (DejaVu Sans Mono where installed), else pygame's own.

    Kept between frames, and made again after a pygame.quit() has invalidated it.
    """
    import pygame  # lazy: pygame is optional (the play extra); importing panel needs no window
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


def draw_panel(surf: Surface, area: Rect, lines: list[PanelLine], scale: int = 1) -> None:
    """Fill *area* of *surf* with *lines*: the card legend, the screen's texts in English and the hint (PINNED)
    at the top, then the last others that fit."""
    font = panel_font(font_size(scale))
    surf.fill(BACKGROUND, area)
    pad = 3 * scale
    char_w = max(font.size("M")[0], 1)
    line_h = font.get_linesize()
    columns = max((area.width - 2 * pad) // char_w, 10)
    rows = max((area.height - 2 * pad) // line_h, 1)
    pinned = wrap([l for tone in PINNED for l in lines if l.tone == tone], columns)
    rest = wrap([l for l in lines if l.tone not in PINNED], columns)
    visible = pinned[:rows] + (rest[-(rows - len(pinned)):] if rows > len(pinned) else [])
    y = area.top + pad
    for line in visible:
        colour = TONE_COLOURS.get(line.tone, EVENT_COLOUR)
        surf.blit(font.render(line.text, True, colour, BACKGROUND), (area.left + pad, y))
        y += line_h


def status_rows(status: str, notice: str, columns: int, rows: int) -> list[tuple[str, str]]:
    """The status line wrapped into the rows the window has under the screen (the notice keeps the last row
    when there is one), each cut to *columns*: (text, "status" or "notice")."""
    rows = max(rows, 1)
    room = rows - 1 if notice and rows > 1 else rows
    wrapped = textwrap.wrap(status, columns, subsequent_indent="  ") or [""]
    if len(wrapped) > room:
        wrapped = wrapped[:room]
        wrapped[-1] = wrapped[-1][:max(columns - 3, 1)].rstrip() + "..."
    out = [(t[:columns], "status") for t in wrapped]
    if notice:
        out = out[:rows - 1] + [(notice[:columns], "notice")]
    return out


def draw_status(surf: Surface, area: Rect, status: str, notice: str, scale: int = 1) -> None:
    """The status line (what the program waits for) and the window's last message under the screen, wrapped
    inside the window (`status_rows`)."""
    font = panel_font(font_size(scale))
    surf.fill(STATUS_BACKGROUND, area)
    pad = 3 * scale
    columns = max((area.width - 2 * pad) // max(font.size("M")[0], 1), 10)
    line_h = font.get_linesize()
    y = area.top + pad // 2
    for text, kind in status_rows(status, notice, columns, max((area.height - pad // 2) // line_h, 1)):
        colour = NOTICE_COLOUR if kind == "notice" else STATUS_COLOUR
        surf.blit(font.render(text, True, colour, STATUS_BACKGROUND), (area.left + pad, y))
        y += line_h


def draw_paused(surf: Surface, area: Rect, scale: int = 1) -> None:
    """Pause, on the screen itself: a banner across the middle of the Spectrum's screen."""
    import pygame  # lazy: as in panel_font (pygame is optional)
    font = panel_font(font_size(scale) * 2)
    small = panel_font(font_size(scale))
    big, rest = PAUSED_BANNER
    height = font.get_linesize() + small.get_linesize() + 8 * scale
    band = pygame.Rect(area.left, area.centery - height // 2, area.width, height)
    surf.fill(PAUSED_BACKGROUND, band)
    title = font.render(big, True, (255, 255, 255), PAUSED_BACKGROUND)
    note = small.render(rest, True, (255, 255, 255), PAUSED_BACKGROUND)
    surf.blit(title, (band.centerx - title.get_width() // 2, band.top + 4 * scale))
    surf.blit(note, (band.centerx - note.get_width() // 2, band.top + 4 * scale + font.get_linesize()))


def pointer_rect(slot: int, scale: int) -> Rect:
    """The marker's box in window pixels: round the card of *slot* (rows 16-17, four columns a slot) and the
    selector's own pointer cell under it (row 21, column 4*slot-3), 32 px of border above and left."""
    import pygame  # lazy: as in panel_font (pygame is optional)
    left = (32 + 8 * (4 * (slot - 1))) * scale
    top = (32 + 8 * P.HAND_ROWS[0]) * scale
    bottom = (32 + 8 * 22) * scale
    return pygame.Rect(left - 2 * scale, top - 2 * scale, 8 * 3 * scale + 4 * scale, bottom - top + 4 * scale)


def draw_pointer(surf: Surface, slot: int, scale: int) -> None:
    """A bright frame round the slot the card selector points at, always on (the program's own flashes)."""
    import pygame  # lazy: as in panel_font (pygame is optional)
    rect = pointer_rect(slot, scale)
    pygame.draw.rect(surf, POINTER_COLOUR, rect, width=max(2, scale + 1))


def draw_help(surf: Surface, scale: int, toggles: dict[str, bool] | None = None, extra: list[str] | None = None) -> None:
    """F1: every key over the whole window, on a dark veil; each toggle with its state now; then *extra* lines
    (where the save slots go)."""
    import pygame  # lazy: as in panel_font (pygame is optional)
    font = panel_font(font_size(scale))
    veil = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
    veil.fill((0, 0, 0, 225))
    surf.blit(veil, (0, 0))
    pad = 8 * scale
    char_w = max(font.size("M")[0], 1)
    columns = max((surf.get_width() - 2 * pad) // char_w, 20)
    lines = wrap([PanelLine(t, "heading" if not t.startswith(" ") else "event") for t in key_help(toggles) + (extra or [])],
                 columns)
    y = pad
    for line in lines:
        surf.blit(font.render(line.text, True, TONE_COLOURS[line.tone]), (pad, y))
        y += font.get_linesize()
