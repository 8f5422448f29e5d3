"""The program's texts as a reader reads them: `harness/program/model/text.py` (the play window's panel needs them too,
and views import only from below)."""
from __future__ import annotations

from ..program.model.text import ROW, as_words

__all__ = ["ROW", "as_words"]
