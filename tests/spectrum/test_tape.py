"""TAP files (harness.spectrum.tape): blocks, checksums, headers, errors."""

import pytest

from harness.errors import InputError
from harness.spectrum.tape import (FLAG_DATA, Header, TapeBlock, code_header, parse_header, program_header,
                                   read_tap, write_tap)

# A program header for 10 PRINT "HI" (10 bytes), autostart 10, built by hand:
PROGRAM_HEADER = bytes.fromhex(
    "13 00"                             # block length 19 = flag + 17 + checksum
    " 00"                               # flag: header
    " 00"                               # type 0: program
    " 4e 41 4d 45 20 20 20 20 20 20"    # name "NAME" padded with spaces to 10
    " 0a 00"                            # data length 10
    " 0a 00"                            # param1: autostart line 10
    " 0a 00"                            # param2: program length without variables, 10
    " 0d"                               # checksum: 00^00^'N'^'A'^'M'^'E'^0A^0A^0A = 0D
)

DATA_BLOCK = bytes.fromhex(
    "0c 00"                             # block length 12 = flag + 10 + checksum
    " ff"                               # flag: data
    " 00 0a 06 00 f5 22 48 49 22 0d"    # 10 PRINT "HI"
    " 0a"                               # checksum: FF^00^0A^06^00^F5^22^48^49^22^0D = 0A
)

CODE_HEADER = bytes.fromhex(
    "13 00"                             # block length 19
    " 00"                               # flag: header
    " 03"                               # type 3: code
    " 63 68 72 20 20 20 20 20 20 20"    # name "chr" padded to 10
    " 00 03"                            # length 768
    " 58 fc"                            # param1: start 64600 = FC58
    " 00 80"                            # param2: 32768
    " 7d"                               # checksum: 03^'c'^'h'^'r'^20^03^58^FC^80 = 7D
)


def test_program_header_bytes():
    assert program_header("NAME", 10, autostart_line=10).to_bytes() == PROGRAM_HEADER


def test_code_header_bytes():
    assert code_header("chr", 64600, 768).to_bytes() == CODE_HEADER


def test_data_block_bytes():
    assert TapeBlock(FLAG_DATA, bytes.fromhex("000a0600f5224849220d")).to_bytes() == DATA_BLOCK


def test_program_header_without_autostart_or_with_variables():
    h = parse_header(program_header("X", 300, vars_offset=250))
    assert (h.type, h.name, h.length, h.param1, h.param2) == (0, "X", 300, 0x8000, 250)
    assert h.autostart_line is None


def test_parse_header():
    h = parse_header(read_tap(PROGRAM_HEADER)[0])
    assert h == Header(type=0, name="NAME", length=10, param1=10, param2=10)
    assert h.autostart_line == 10
    assert h.to_block().to_bytes() == PROGRAM_HEADER


def test_parse_header_refuses_a_data_block():
    with pytest.raises(ValueError, match="not a header"):
        parse_header(TapeBlock(FLAG_DATA, bytes(17)))


def test_name_longer_than_ten_is_refused():
    with pytest.raises(ValueError, match="longer than 10"):
        program_header("ELEVENCHARS", 1)


def test_read_and_write_round_trip():
    raw = PROGRAM_HEADER + DATA_BLOCK + CODE_HEADER
    blocks = read_tap(raw)
    assert [(b.flag, len(b.data)) for b in blocks] == [(0, 17), (0xFF, 10), (0, 17)]
    assert write_tap(blocks) == raw


def test_read_from_a_path(tmp_path):
    path = tmp_path / "x.tap"
    path.write_bytes(PROGRAM_HEADER + DATA_BLOCK)
    assert len(read_tap(path)) == 2 and len(read_tap(str(path))) == 2


CORRUPT = [
    # (file bytes, block index, byte offset, what the message says)
    (PROGRAM_HEADER + DATA_BLOCK[:1], 1, 21, "truncated length prefix"),
    (PROGRAM_HEADER + DATA_BLOCK[:-1], 1, 21, "truncated block"),
    (PROGRAM_HEADER[:-1] + b"\x0e" + DATA_BLOCK, 0, 0, "bad checksum"),
    (PROGRAM_HEADER + b"\x01\x00\xff", 1, 21, "too short"),
]


@pytest.mark.parametrize("raw,index,offset,what", CORRUPT)
def test_corrupt_files_say_where(tmp_path, raw, index, offset, what):
    path = tmp_path / "bad.tap"
    path.write_bytes(raw)
    with pytest.raises(InputError) as e:
        read_tap(path)
    msg = str(e.value)
    assert str(path) in msg and f"block {index} at byte offset {offset}" in msg and what in msg


def test_bytes_source_is_named():
    with pytest.raises(InputError, match="<bytes>: block 0"):
        read_tap(b"\x05")
