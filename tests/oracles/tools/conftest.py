"""What the outside tools' tests share: one mypy cache a worker."""
from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def mypy_cache(tmp_path_factory) -> Path:
    """One mypy cache for a worker's mypy runs with the same options (test_mypy, test_core_protocol): a later
    run reads the standard library's analysis from it instead of doing it again (mypy's incremental mode,
    the same errors); a worker's own, so no two processes write it at once."""
    return tmp_path_factory.mktemp("mypy") / "cache"
