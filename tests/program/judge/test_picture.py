"""The picture reader on the real machine: the golden screens read back as the cards the game dealt (rank and
suit through the tape's font and UDGs, colours from the attributes) and the pegs at the holes the scores give;
faults planted in the display file's bytes (another suit's glyph, INK stored as PAPER, a peg one hole off) are
read as such, while the FLASH bit and the selector's pointer change nothing. A tape whose line 5410 sets
PAPER 2 where it says INK 2 plays a deal that the comparison flags, card by card."""
import checkout

import pytest

from harness.program.model import program as P
from harness.program.judge.compare import compare
from harness.program.observe.driver import DriverOptions, GameDriver
from harness.program.records.events import Deal, Picture, Who, read_jsonl
from harness.program.observe.picture import PictureReader, SlotView
from harness.program.observe.players import make
from harness.spectrum.machine import Spectrum48

ROOT = checkout.ROOT
GOLDEN = ROOT / "tests" / "data" / "golden"
with open(GOLDEN / "transcript.jsonl", encoding="utf-8") as _f:
    _, EVENTS = read_jsonl(_f)
INK, PAPER = 0xD9, 0xDA


@pytest.fixture(scope="module")
def loaded(loaded_tape):
    return loaded_tape.snapshot          # the machine at the program's first question (tests/conftest.py)


def machine_showing(loaded, name):
    m = Spectrum48(fast=True)
    m.restore(loaded)                       # fonts and UDGs as the program set them (lines 8, 9900)
    m.write(0x4000, (GOLDEN / f"{name}.scr").read_bytes())
    return m


def cell_address(row, col, line):
    return 0x4000 + ((row & 0x18) << 8) + (line << 8) + ((row & 7) << 5) + col


def test_the_discard_screen_reads_as_the_cards_dealt(loaded):
    m = machine_showing(loaded, "discard")
    reader = PictureReader()
    cells = reader.cells(m.mem)
    deal = next(e for e in EVENTS if isinstance(e, Deal))
    for slot, card in zip(P.HAND_SLOTS_DEALT, deal.player):
        view = reader.slot(cells, slot)
        assert (view.state, view.card, view.paper) == ("up", card, 7), slot
        assert view.ink == (2 if card[1] in "HD" else 0), slot              # 5410: hearts and diamonds in red
    states = [reader.slot(cells, s).state for s in P.COMPUTER_SLOTS_DEALT]
    assert states.count("down") == 4 and states.count("empty") == 2          # 680-685 erased the two discarded


def test_the_pegs_are_read_from_the_bitmap_at_the_holes_the_scores_give(loaded):
    m = machine_showing(loaded, "show")
    pic = next(e for e in EVENTS if isinstance(e, Picture) and e.moment == "pause 4661")
    pegs = PictureReader().pegs(PictureReader().cells(m.mem))
    s, v = pic.variables["scores"], pic.variables["back"]
    assert pegs[Who.COMPUTER] == sorted({v[0], s[0]} - {0}) and pegs[Who.PLAYER] == sorted({v[1], s[1]} - {0})
    assert P.peg_place(Who.PLAYER, 1) == (19, 25, "upper") and P.peg_place(Who.PLAYER, 31) == (2, 27, "upper")
    assert P.peg_place(Who.COMPUTER, 61) == P.peg_place(Who.COMPUTER, 1)     # 6410: the second lap


def test_planted_faults_in_the_display_are_read_as_they_look(loaded):
    m = machine_showing(loaded, "discard")
    reader = PictureReader()
    slot = P.HAND_SLOTS_DEALT[0]
    card = reader.slot(reader.cells(m.mem), slot).card
    spade = bytes(m.mem[(m.mem[23675] | m.mem[23676] << 8) + 8 * 18:][:8])       # UDG S, the spade
    for r, c in ((slot.y + 1, slot.column), (slot.y + 3, slot.column + 2)):
        for line in range(8):
            m.mem[cell_address(r, c, line)] = spade[line]
    assert reader.slot(reader.cells(m.mem), slot).card == card[0] + "S"          # another suit
    red = next(s for s in P.HAND_SLOTS_DEALT[1:] if reader.slot(reader.cells(m.mem), s).ink == 2)
    for r in range(5):
        for c in range(3):
            m.mem[0x5800 + 32 * (red.y + r) + red.column + c] = 2 << 3          # PAPER 2, INK 0
    view = reader.slot(reader.cells(m.mem), red)
    assert (view.state, view.paper, view.ink) == ("up", 2, 0)


def test_a_peg_moved_one_hole_is_read_one_hole_on(loaded):
    m = machine_showing(loaded, "show")
    reader = PictureReader()
    before = reader.pegs(reader.cells(m.mem))[Who.PLAYER]
    hole = before[-1]
    for place in (P.peg_place(Who.PLAYER, hole), P.peg_place(Who.PLAYER, hole + 1)):   # 6460 OVER 1: off, on
        row, col, half = place
        for k, b in enumerate(P.peg_shape(col)):
            m.mem[cell_address(row, col, k + (0 if half == "upper" else 4))] ^= b
    assert reader.pegs(reader.cells(m.mem))[Who.PLAYER] == sorted(before[:-1] + [hole + 1])


def test_flash_and_the_pointer_change_nothing(loaded):
    m = machine_showing(loaded, "discard")
    reader = PictureReader()
    before = reader.read(m.mem)
    for a in range(0x5800, 0x5B00):
        if (a - 0x5800) // 32 in range(16, 21):
            m.mem[a] |= 0x80                                     # FLASH 1 on every cell of the hand
    m.mem[0x5800 + 32 * 21 + 1] |= 0x80                          # 3720: the pointer at 21,4X-3
    after = reader.read(m.mem)
    assert after[0] == before[0] and after[1] == before[1]


def _patched(snapshot, line, old, new):
    """A machine whose program has *old* replaced by *new* in *line* (as a tape built that way would)."""
    m = Spectrum48(fast=True)
    m.restore(snapshot)
    prog = m.peek("PROG")
    data = m.program_bytes()
    pos = 0
    while pos < len(data):
        number, length = int.from_bytes(data[pos:pos + 2], "big"), int.from_bytes(data[pos + 2:pos + 4], "little")
        if number == line:
            body = data[pos + 4:pos + 4 + length]
            at = body.index(bytes([old]))
            m.mem[prog + pos + 4 + at] = new
            return m
        pos += 4 + length
    raise AssertionError(f"line {line} not found")


def test_a_tape_whose_ink_was_stored_as_paper_is_caught_card_by_card(loaded):
    m = _patched(loaded, 5410, INK, PAPER)                       # 5410 ... THEN PAPER 2: red cards on red paper
    rec = GameDriver(m, make("random", 7), seed=7, options=DriverOptions(max_deals=1)).play()
    screen = [d for d in compare(rec.events).differences if d.kind == "screen" and not d.deviation]
    colour = [d for d in screen if d.cause.value == "screen colour"]
    assert colour and all(d.observed == "2/0" and d.expected == "7/2" for d in colour)
    assert {d.cause.value for d in screen} <= {"screen colour", "screen face"}
    clean = Spectrum48(fast=True)
    clean.restore(loaded)
    rec = GameDriver(clean, make("random", 7), seed=7, options=DriverOptions(max_deals=1)).play()
    assert [d for d in compare(rec.events).differences if d.kind == "screen" and not d.deviation] == []


def test_a_picture_half_drawn_is_marked_so(loaded):
    m = Spectrum48(fast=True)
    m.restore(loaded)
    driver = GameDriver(m, make("random", 7), seed=7, options=DriverOptions(max_deals=1))
    driver.observer.extra_hooks[(5450, 1)] = lambda: driver.observer.observe_picture("mid-redraw", 5450)
    rec = driver.play()
    half = [e for e in rec.events if isinstance(e, Picture) and e.moment == "mid-redraw"]
    assert half and all(e.drawing for e in half)
    assert not any(e.drawing for e in rec.events if isinstance(e, Picture) and e.moment != "mid-redraw")
    assert any(SlotView.parse(code).state == "other" for e in half for code in e.slots.values())


def test_a_picture_in_the_selectors_polling_loop_is_named_by_the_loops_head(loaded):
    """Which of 3730/3750 a frame end catches is timing alone (a fast run and an RZX run differ): the picture is
    named 3730, the loop's head; 3725 (keys held) and every other line keep their own."""
    from harness.program.observe.observer import Observer
    m = machine_showing(loaded, "play")
    pictures: list[Picture] = []
    observer = Observer(m, pictures.append)
    for line in (3750, 3730, 3725, 4925):
        observer.observe_picture("select 2720", line)
    assert [p.line for p in pictures] == [3730, 3730, 3725, 4925]
    assert pictures[0].slots == pictures[1].slots                  # the same screen, named the same
