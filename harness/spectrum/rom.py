"""The Sinclair 48K ROM: found, checked and loaded.

The emulator is only as faithful as its ROM, so a wrong or missing file is an
error at load time, never a machine that silently misbehaves later.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from .. import resources
from ..errors import InputError

ROM_SIZE = 16384
#: SHA-256 of the standard Sinclair 48K ROM (the one Amstrad allows emulators to ship).
ROM_SHA256 = "d55daa439b673b0e3f5897f99ac37ecb45f974d1862b4dadb85dec34af99cb42"
DEFAULT_ROM = resources.ROM


def load_rom(path: str | Path | None = None, verify: bool = True) -> bytes:
    """Read the ROM image at *path* (default ``roms/48.rom``) and verify its checksum."""
    rom_path = Path(path) if path is not None else DEFAULT_ROM
    try:
        data = rom_path.read_bytes()
    except OSError as exc:
        raise InputError(f"{rom_path}: cannot read the 48K ROM: {exc.strerror}") from exc
    if len(data) != ROM_SIZE:
        raise InputError(f"{rom_path}: a 48K ROM has {ROM_SIZE} bytes, this file has {len(data)}")
    if verify:
        digest = hashlib.sha256(data).hexdigest()
        if digest != ROM_SHA256:
            raise InputError(f"{rom_path}: SHA-256 {digest} is not the standard 48K ROM ({ROM_SHA256})")
    return data
