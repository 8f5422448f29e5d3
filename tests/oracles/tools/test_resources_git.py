"""No copy of basic/ or roms/ is kept in the package (git's list of the checkout's files)."""
from __future__ import annotations

import checkout
import subprocess



ROOT = checkout.ROOT


def test_no_copy_of_the_data_is_kept_in_the_package():
    assert not (ROOT / "harness" / "_data").exists()
    tracked = subprocess.run(["git", "ls-files", "harness/_data"], cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode == 0:             # (a tarball has no git)
        assert tracked.stdout == ""
