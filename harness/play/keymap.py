"""The host keyboard mapped onto the 48K's: which Spectrum keys a held host key presses.

Host keys are named as pygame names them (``pygame.key.name``), so this
module needs no pygame and tests can use it alone. Both shifts are CAPS
SHIFT and both Ctrl and Alt keys are SYMBOL SHIFT, so a host combination is
the Spectrum's own (Shift+0 is DELETE); the arrows, Backspace and Escape are
the usual CAPS SHIFT shortcuts, and a few punctuation keys are their
SYMBOL SHIFT combinations. A tap shorter than the ROM can see (xdotool's
``key`` sends down and up in one go) is held for `MIN_HOLD` frames.
"""
from __future__ import annotations

from ..spectrum.keyboard import parse_combo

MIN_HOLD = 3        # frames: KEYBOARD scans once per interrupt and wants a key down at two scans

_LETTERS_DIGITS = {c: c.upper() for c in "abcdefghijklmnopqrstuvwxyz0123456789"}

#: pygame key name -> Spectrum key combination (parse_combo syntax)
HOST_KEYS: dict[str, str] = {
    **_LETTERS_DIGITS,
    **{f"[{d}]": d for d in "0123456789"},            # the keypad's digits
    "return": "ENTER", "enter": "ENTER",
    "space": "SPACE",
    "left shift": "CAPS SHIFT", "right shift": "CAPS SHIFT",
    "left ctrl": "SYMBOL SHIFT", "right ctrl": "SYMBOL SHIFT",
    "left alt": "SYMBOL SHIFT", "right alt": "SYMBOL SHIFT",
    "backspace": "CAPS SHIFT+0",          # DELETE
    "escape": "CAPS SHIFT+SPACE",         # BREAK
    "left": "CAPS SHIFT+5", "down": "CAPS SHIFT+6", "up": "CAPS SHIFT+7", "right": "CAPS SHIFT+8",
    "caps lock": "CAPS SHIFT+2",
    ",": "SYMBOL SHIFT+N", ".": "SYMBOL SHIFT+M", "/": "SYMBOL SHIFT+V", ";": "SYMBOL SHIFT+O",
    "'": "SYMBOL SHIFT+7", "-": "SYMBOL SHIFT+J", "=": "SYMBOL SHIFT+L",
}


def spectrum_keys(host_key: str) -> frozenset[str]:
    """The Spectrum keys a host key holds down (empty for a key the Spectrum has no use for)."""
    combo = HOST_KEYS.get(host_key.lower())
    return parse_combo(combo) if combo else frozenset()


class HeldKeys:
    """Host keys held now, each with the frame it went down; a quick tap is held for MIN_HOLD frames."""

    def __init__(self, min_hold: int = MIN_HOLD) -> None:
        self.min_hold = min_hold
        self._down: dict[str, int] = {}          # host key -> frame it went down
        self._releasing: dict[str, int] = {}     # host key released early -> frame it may go up

    def down(self, host_key: str, frame: int) -> None:
        self._releasing.pop(host_key, None)
        self._down.setdefault(host_key, frame)

    def up(self, host_key: str, frame: int) -> None:
        since = self._down.pop(host_key, None)
        if since is not None and frame < since + self.min_hold:
            self._releasing[host_key] = since + self.min_hold

    def clear(self) -> None:
        self._down.clear()
        self._releasing.clear()

    def spectrum_keys(self, frame: int) -> frozenset[str]:
        """The Spectrum keys down at *frame*: every held host key's, and a released tap's until its time."""
        for key, until in list(self._releasing.items()):
            if frame >= until:
                del self._releasing[key]
        keys: set[str] = set()
        for key in (*self._down, *self._releasing):
            keys |= spectrum_keys(key)
        return frozenset(keys)


#: the window's own keys (never the Spectrum's), for F1's help and `play --help`
WINDOW_KEYS: tuple[tuple[str, str], ...] = (
    ("F1", "this key help (again or Esc: close it)"),
    ("H", "a hint: the engine's value of each discard, or what each card pegs now (at the card selector)"),
    ("P, Pause", "pause and go on (P at an INPUT is the letter P: use Pause there)"),
    ("F2 then 1-9", "save the game in slot 1-9 (ENTER or F2 again: the last slot used)"),
    ("F3 then 1-9", "load slot 1-9 (ENTER or F3 again: the last slot used)"),
    ("F11", "full screen and back (the window can also be resized)"),
    ("F10", "quit"),
)
#: the window keys that toggle (press again to undo), by their WINDOW_KEYS name -> the toggle's name
TOGGLES: dict[str, str] = {"F1": "F1", "H": "H", "P, Pause": "P", "F11": "F11"}
#: what the Spectrum's keys do in «КРИБЕДЖ», and the host keys that press them
GAME_KEYS: tuple[tuple[str, str], ...] = (
    ("SPACE", "move the card pointer; SPACE at the demo question shows the board demo"),
    ("ENTER", "choose the card under the pointer; end a typed answer"),
    ("Y / N, digits", "answers and your count (muggins), then ENTER"),
    ("any key", "cut the pack, the next deal, turn up the crib"),
    ("Shift", "CAPS SHIFT (Shift+0 or Backspace: DELETE; Esc: BREAK; the arrows: CAPS SHIFT+5..8)"),
    ("Ctrl, Alt", "SYMBOL SHIFT (, . / ; ' - = type their SYMBOL SHIFT combinations)"),
)
#: pygame names of the window's keys that letters would otherwise send to the Spectrum
HINT_KEY, PAUSE_KEY = "h", "p"


def key_help(toggles: dict[str, bool] | None = None) -> list[str]:
    """Every key, the window's and the game's, one per line (F1 and --help); a toggle is marked as one, with
    its state now when *toggles* (toggle name -> on) says it."""
    def mark(k: str) -> str:
        name = TOGGLES.get(k)
        if name is None:
            return ""
        state = (toggles or {}).get(name)
        return "[toggle] " if state is None else f"[toggle, {'on' if state else 'off'} now] "
    width = max(len(k) for k, _ in WINDOW_KEYS + GAME_KEYS)
    return (["The window's keys ([toggle]: the same key again undoes it):"]
            + [f"  {k:<{width}}  {mark(k)}{what}" for k, what in WINDOW_KEYS]
            + ["The Spectrum's keys (every other key goes to the Spectrum):"]
            + [f"  {k:<{width}}  {what}" for k, what in GAME_KEYS])
