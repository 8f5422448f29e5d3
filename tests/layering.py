"""harness/'s layers and the program's stages, as data: what tests/project/test_layers.py holds the package
to, and tests/project/test_tiers.py holds the folders of tests/ to (docs/ARCHITECTURE.md draws them)."""
from __future__ import annotations

LAYERS: list[set[str]] = [
    {"errors"},
    {"resources"},
    {"runtime"},
    {"spectrum", "cribbage"},          # side by side: neither imports the other
    {"program"},
    {"edition", "play", "bench", "oracle"},   # side by side: none imports another
    {"web"},                           # play.html: the play window's keys, waits and turbo rule in the page
    {"commands"},
    {"cli"},
    {"__main__"},                      # python -m harness: runs cli
]
LEVEL = {unit: i for i, layer in enumerate(LAYERS) for unit in layer}
#: units that are data or the package's own __init__, not layered code
DATA_UNITS = {"data", "_data", "__init__"}


def unit_of(module: str) -> str:
    """The layer unit of a dotted module name under harness ('harness.program.judge.compare' -> 'program')."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


#: harness.program's sub-packages, bottom up: a stage may import its own and the stages below it
PROGRAM_STAGES = ["records", "model", "observe", "judge", "runs"]
STAGE_LEVEL = {stage: i for i, stage in enumerate(PROGRAM_STAGES)}


def stage_of(module: str) -> str | None:
    """The stage of a module of harness.program ('harness.program.judge.compare' -> 'judge'), else None."""
    parts = module.split(".")
    return parts[2] if parts[:2] == ["harness", "program"] and len(parts) > 2 else None
