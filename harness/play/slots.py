"""The window's save slots: where they live, what they are called, and the sidecar kept beside each .z80.

F2 and a digit save the session as a .z80 (slot N beside the slots' name: cribbage-N.z80), F3 loads one.
A .z80 cannot hold what the window knows beyond the machine, so a JSON sidecar beside it
(cribbage-N.z80.json) keeps the seed, the referee's count of deals and its panel as a person saw it.
`read_sidecar` is its one reader: a typed `Sidecar`, each field checked; a .z80 from elsewhere has none.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Mapping

from ..errors import InputError
from ..runtime import atomic
from ..runtime.validate import read_json
from .settings import PathLike

if TYPE_CHECKING:
    from .referee import PanelLine

SLOT_NAME = "cribbage.z80"         # the slots' name in the data folder: cribbage-1.z80 ... cribbage-9.z80


def data_folder(environ: Mapping[str, str] = os.environ) -> Path:
    """Where the window keeps its save slots: $XDG_DATA_HOME/cribbage-zx, else ~/.local/share/cribbage-zx (the
    XDG base directory specification's default), never the working folder."""
    base = environ.get("XDG_DATA_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path(os.path.expanduser("~")) / ".local" / "share"
    return root / "cribbage-zx"


def default_save(environ: Mapping[str, str] = os.environ) -> Path:
    """The slots' name when the command names none: cribbage.z80 in `data_folder`."""
    return data_folder(environ) / SLOT_NAME


def shown_path(path: Path) -> str:
    """A folder as the window says it: under the home folder as ~/..., else as it is."""
    home = Path(os.path.expanduser("~"))
    try:
        return "~/" + str(Path(path).relative_to(home)) if home != Path("~") else str(path)
    except ValueError:
        return str(path)


def slot_path(base: PathLike, slot: int) -> Path:
    """Save slot 1-9 beside the slots' name: cribbage.z80 -> cribbage-3.z80."""
    base = Path(base)
    return base.with_name(f"{base.stem}-{slot}{base.suffix or '.z80'}")


def sidecar(path: Path) -> Path:
    """What the window keeps beside a .z80: the seed, how many deals the referee has seen and its panel."""
    return path.with_name(path.name + ".json")


@dataclass(frozen=True)
class Sidecar:
    """What a save knows beyond the machine: the game's seed, the deals the referee had seen, and the
    referee's panel as a person saw it (None: not known, or no referee)."""

    seed: int | None = None
    deals: int | None = None
    panel: tuple[PanelLine, ...] | None = None


def write_sidecar(path: Path, side: Sidecar) -> None:
    """*side* beside the .z80 *path*, atomically; the panel as [text, tone] pairs (no panel: no such key)."""
    data: dict[str, object] = {"seed": side.seed, "deals": side.deals}
    if side.panel is not None:
        data["panel"] = [[line.text, line.tone] for line in side.panel]
    atomic.write_json(sidecar(path), data)


def read_sidecar(path: Path, panel: bool = True) -> Sidecar:
    """The sidecar beside the .z80 *path* (none there: an empty Sidecar; a bad one is one line naming it, an
    InputError). A seed or deals of another type count as not known; the panel is read and checked only
    when *panel* asks for it (a session with a referee)."""
    where = sidecar(path)
    if not where.exists():
        return Sidecar()
    found = read_json(where)                  # arbitrary JSON: each field checked below
    side: dict[str, object] = found if isinstance(found, dict) else {}
    seed, deals = side.get("seed"), side.get("deals")
    return Sidecar(seed if isinstance(seed, int) else None, deals if isinstance(deals, int) else None,
                   saved_panel(side, where) if panel else None)


def saved_panel(side: Mapping[str, object], where: Path) -> tuple[PanelLine, ...] | None:
    """The referee's panel as a person saw it at the save (the sidecar's "panel": [text, tone] pairs), or None
    when the sidecar has none; anything else there is an InputError naming the file."""
    from .referee import PanelLine              # the referee's module (the comparison) only when it is asked for
    panel = side.get("panel")
    if panel is None:
        return None
    if not isinstance(panel, list) or not all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)
                                              for p in panel):
        raise InputError(f"{where}: \"panel\" is not a list of [text, tone] pairs")
    return tuple(PanelLine(text, tone) for text, tone in panel)
