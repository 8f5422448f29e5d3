"""The checkout's own scripts (docs writers, screenshots, the mutation run, benchmarks), run as modules from the
checkout's top: ``.venv/bin/python -m tools.write_playing_guide``. The package is the checkout's, not the
wheel's: `harness` comes from the environment, as any user of the library finds it."""
from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"


def import_oracle_helpers() -> None:
    """Make the Fuse oracle's test modules importable (tests/oracles/emulators/test_fuse.py, test_emulators.py),
    for the two tools that drive Fuse as the tests do. They import their neighbours (helpers, waiting,
    checkout) by bare name, as pytest puts tests/ on the path: the same folders go on this process's path."""
    for folder in (TESTS, TESTS / "oracles" / "emulators"):
        if str(folder) not in sys.path:
            sys.path.append(str(folder))
