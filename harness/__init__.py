"""cribbage-zx: «КРИБЕДЖ» on an embedded ZX Spectrum 48K (docs/LIBRARY.md: the public face).

The version is kept here and only here: pyproject.toml reads it (``[tool.setuptools.dynamic]``),
``cribbage-zx --version`` prints it, and the preservation pack's manifest carries it.
"""

__version__ = "0.2.0"
