"""The program's texts as a reader reads them: one line of words instead of the 32-column layout.

The instruction pages are single strings laid out for the screen's 32 columns, padded with spaces
to each row's end, with words hyphenated across rows («ИГРО-   КОВ»); the listing's REMs are padded
the same way so the printed listing wraps at a space. `as_words` undoes that layout: a string is cut
into the screen rows it prints as (it starts at column 0), a REM is not (its column depends on the
listing), runs of spaces become one, and a word hyphenated at a row's end is joined again.
"""
from __future__ import annotations

import re

__all__ = ["ROW", "as_words"]

ROW = 32
_HYPHENATED = re.compile(r"(?<=\w)-\n(?=\w)")


def as_words(text: str, kind: str = "string") -> str:
    """*text* (a string's or REM's characters as read) as one line of words; *kind* "string" or "rem"."""
    if kind == "string" and len(text) > ROW:
        text = "\n".join(text[i:i + ROW].rstrip(" ") for i in range(0, len(text), ROW))
    elif kind == "rem":
        text = re.sub(r"(?<=\w)- {2,}(?=\w)", "-\n", text)      # a REM's hyphen before the padding
    text = _HYPHENATED.sub("", text)
    return " ".join(text.split())
