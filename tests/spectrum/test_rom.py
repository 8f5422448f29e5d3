import hashlib

import pytest

from harness.errors import InputError
from harness.spectrum.rom import DEFAULT_ROM, load_rom


def test_standard_rom_loads_and_starts_with_di_xor_a():
    rom = load_rom()
    assert len(rom) == 16384
    # 0000 DI; 0001 XOR A; 0002 LD DE,FFFF -- the START routine of the disassembly
    assert rom[:5] == bytes([0xF3, 0xAF, 0x11, 0xFF, 0xFF])
    assert hashlib.md5(rom).hexdigest() == "4c42a2f075212361c3117015b107ff68"


def test_missing_rom_names_the_file(tmp_path):
    with pytest.raises(InputError, match="nothere.rom"):
        load_rom(tmp_path / "nothere.rom")


def test_wrong_size_is_refused(tmp_path):
    p = tmp_path / "short.rom"
    p.write_bytes(DEFAULT_ROM.read_bytes()[:16000])
    with pytest.raises(InputError, match="16000"):
        load_rom(p)


def test_changed_byte_fails_the_checksum(tmp_path):
    data = bytearray(DEFAULT_ROM.read_bytes())
    data[0x1000] ^= 1
    p = tmp_path / "patched.rom"
    p.write_bytes(bytes(data))
    with pytest.raises(InputError, match="SHA-256"):
        load_rom(p)
