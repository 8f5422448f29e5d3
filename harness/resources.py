"""Where the project's data files are: the one module that knows.

The listing, the font and the ROM live once, in the top-level ``basic/`` and
``roms/`` folders of the checkout. A wheel maps those folders into the package
as ``harness/_data/basic`` and ``harness/_data/roms`` (see ``package-dir`` in
pyproject.toml), so an installed tool finds them through
``importlib.resources``; a source or editable checkout has no ``_data`` folder
and uses the top-level files themselves. The benchmark program is ordinary
package data (``harness/data``).
"""
from __future__ import annotations

from importlib import resources
from pathlib import Path

from .errors import InputError

__all__ = ["data_path", "LISTING", "FONT", "ROM", "BENCH_PROGRAM", "PUBLISHED_CRIB", "DEFAULT_TAP"]


_PACKAGE = resources.files("harness")
#: the checkout the package was imported from (used only when it is not an installed wheel)
_CHECKOUT = Path(__file__).resolve().parent.parent
#: that checkout when it is a git one (the pack's manifest names its commit), else None
CHECKOUT = _CHECKOUT if (_CHECKOUT / ".git").exists() and (_CHECKOUT / "harness").is_dir() else None


def _folder(name: str) -> Path:
    """The folder ``basic`` or ``roms``: inside an installed wheel, else at the top of the checkout."""
    installed = _PACKAGE.joinpath("_data", name)
    if installed.is_dir():
        if not isinstance(installed, Path):
            raise InputError(f"{installed}: the package data is not on the file system (a zipped install?)")
        return installed
    return _CHECKOUT / name


def data_path(relative: str) -> Path:
    """The path of ``basic/...`` or ``roms/...`` (``relative`` as in the checkout, '/'-separated)."""
    folder, _, rest = relative.partition("/")
    if folder not in ("basic", "roms") or not rest or ".." in rest.split("/"):
        raise InputError(f"{relative}: not a file under basic/ or roms/")
    return _folder(folder).joinpath(*rest.split("/"))


def _package_file(*parts: str) -> Path:
    found = _PACKAGE.joinpath(*parts)
    if not isinstance(found, Path):
        raise InputError(f"{found}: the package data is not on the file system (a zipped install?)")
    return found


#: the reconstructed listing the tape is built from
LISTING = data_path("basic/cribbage.bas")
#: the game's "chr" font as text art
FONT = data_path("basic/chr_font.txt")
#: the Sinclair 48K ROM
ROM = data_path("roms/48.rom")
#: the CPU-heavy BASIC program of `cribbage-zx bench`
BENCH_PROGRAM = _package_file("data", "bench.bas")
#: the published crib tables and first-dealer band `cribbage-zx strength` compares with (sources inside)
PUBLISHED_CRIB = _package_file("data", "published_crib.json")
#: where `cribbage-zx build` writes the tape: under the current directory, never the installed package
DEFAULT_TAP = Path("build") / "cribbage.tap"


def docs_path(relative: str) -> Path | None:
    """A file or folder under the checkout's ``docs/`` (``relative`` '/'-separated), or None when it is not
    there (an installed wheel has no docs): for views that show what the docs hold only if present."""
    if ".." in relative.split("/"):
        raise InputError(f"{relative}: not a path under docs/")
    found = _CHECKOUT.joinpath("docs", *relative.split("/"))
    return found if found.exists() else None
