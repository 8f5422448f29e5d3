"""conformance.judge by hand (issue 51): the cores' outcomes of one instruction written out here, no core run.

What judge must say, each planted and beside its near miss: a field on which every core that keeps it agrees is
no disagreement, one that differs is (only that field, its values, the cores grouped by value, the larger group
first); a field a core does not keep is not compared for it; a lone core's difference is explained by KNOWN
only when the other two agree (three values: unexplained), and where only two cores keep a field the certified
one (z80-python) rules, so the other is the lone one, and with no certified core among the two, neither is;
a block instruction's repeat is seen only when every core left PC on it, a run of DD/FD before the ED
stepped over, across the top of memory too. The expected explanations are KNOWN's by its documented
opcode, field and bits (docs/CONFORMANCE.md), not worked out by the code under test."""
from __future__ import annotations

from harness.oracle.conformance import FIELDS, KNOWN, Case, Outcome, judge

OURS, CERT, SKOOL = "z80", "z80-python", "SkoolKit"


class Core:
    """A stand-in for a stepper: judge reads only its name and the fields it keeps."""

    def __init__(self, name: str, keeps: frozenset[str] = frozenset(FIELDS)):
        self.name, self.keeps = name, keeps


THREE = [Core(OURS), Core(CERT), Core(SKOOL, frozenset(FIELDS) - {"wz"})]    # as conformance.steppers()


def _why(core: str, page: str, op: int, field_: str) -> str:
    """KNOWN's explanation for that lone core, page, opcode and field (found by its documented key)."""
    hits = [k.why for k in KNOWN if (k.core, k.page, k.field) == (core, page, field_) and op in k.opcodes]
    assert len(hits) == 1, hits
    return hits[0]


def _case(code: bytes, pc: int = 0x8000) -> tuple[Case, bytes]:
    regs = {f: 0 for f in FIELDS if f not in ("writes", "port_reads", "port_writes", "t")}
    regs["pc"] = pc
    mem = bytearray(0x10000)
    for i, b in enumerate(code):
        mem[(pc + i) & 0xFFFF] = b
    return Case("test", code, regs, 0), bytes(mem)


def _after(pc: int, **changed: object) -> dict[str, object]:
    """Every compared field after the instruction: PC at *pc*, F 0x44, the rest 0 or empty, *changed* set."""
    values: dict[str, object] = {f: 0 for f in FIELDS}
    values.update(pc=pc, f=0x44, writes=((0x9000, 0x12),), port_reads=(), port_writes=(), t=21)
    values.update(changed)
    return values


def _judge(case, mem, per_core: dict[str, dict[str, object]], cores=THREE):
    return judge(case, mem, {c.name: Outcome(per_core[c.name]) for c in cores}, cores)


# ---------------------------------------------------------------- what differs, and who agrees
def test_cores_that_agree_give_no_disagreement_and_one_flag_bit_apart_gives_exactly_that_field():
    case, mem = _case(b"\x80")                                     # ADD A,B
    same = _after(0x8001)
    assert _judge(case, mem, {OURS: same, CERT: same, SKOOL: same}) == []
    found = _judge(case, mem, {OURS: _after(0x8001, f=0x45), CERT: same, SKOOL: same})   # our carry wrong
    assert len(found) == 1
    d = found[0]
    assert (d.case, d.field, d.values, d.why) == (case, "f", {OURS: 0x45, CERT: 0x44, SKOOL: 0x44}, None)
    assert d.agree == ((CERT, SKOOL), (OURS,))                     # the pair first, though ours came first


def test_a_write_to_another_address_or_of_another_value_is_a_disagreement_of_the_writes():
    case, mem = _case(b"\x77")                                     # LD (HL),A
    same = _after(0x8001)
    for wrong in (((0x9001, 0x12),), ((0x9000, 0x13),), ()):
        found = _judge(case, mem, {OURS: same, CERT: same, SKOOL: _after(0x8001, writes=wrong)})
        assert [(d.field, d.agree, d.why) for d in found] == [("writes", ((OURS, CERT), (SKOOL,)), None)]


def test_three_values_are_three_groups_and_unexplained_even_where_one_alone_would_be():
    case, mem = _case(b"\xcb\x46")                                 # BIT 0,(HL): SkoolKit's bits 3, 5 known
    found = _judge(case, mem, {OURS: _after(0x8002, f=0x44), CERT: _after(0x8002, f=0x45),
                               SKOOL: _after(0x8002, f=0x6C)})
    assert [(d.field, d.agree, d.why) for d in found] == [("f", ((OURS,), (CERT,), (SKOOL,)), None)]
    # near miss: the other two agree, so SkoolKit alone differs, in bits 3 and 5 only: explained
    found = _judge(case, mem, {OURS: _after(0x8002), CERT: _after(0x8002), SKOOL: _after(0x8002, f=0x6C)})
    assert [(d.field, d.agree, d.why) for d in found] == [("f", ((OURS, CERT), (SKOOL,)),
                                                           _why(SKOOL, "CB", 0x46, "f"))]


def test_a_field_a_core_does_not_keep_is_not_compared_for_it():
    case, mem = _case(b"\x00")                                     # NOP
    same = _after(0x8001)
    assert _judge(case, mem, {OURS: same, CERT: same, SKOOL: _after(0x8001, wz=0x1234)}) == []
    found = _judge(case, mem, {OURS: same, CERT: _after(0x8001, wz=0x1234), SKOOL: same})
    assert [(d.field, d.values) for d in found] == [("wz", {OURS: 0, CERT: 0x1234})]


def test_the_certified_core_alone_is_listed_after_the_two_that_agree_and_explained_where_known():
    for code, page in ((b"\xdd\x37", "DD"), (b"\xfd\x3f", "FD")):     # SCF after DD, CCF after FD
        case, mem = _case(code)
        found = _judge(case, mem, {OURS: _after(0x8002), CERT: _after(0x8002, f=0x6C), SKOOL: _after(0x8002)})
        assert [(d.field, d.agree, d.why) for d in found] == [
            ("f", ((OURS, SKOOL), (CERT,)), _why(CERT, page, code[1], "f"))]
    # near miss: SCF without the prefix: unexplained
    case, mem = _case(b"\x37")
    found = _judge(case, mem, {OURS: _after(0x8001), CERT: _after(0x8001, f=0x6C), SKOOL: _after(0x8001)})
    assert [(d.field, d.agree, d.why) for d in found] == [("f", ((OURS, SKOOL), (CERT,)), None)]


# ---------------------------------------------------------------- two cores keep the field: the certified one rules
def test_where_two_cores_keep_a_field_the_certified_one_rules_and_the_other_is_explained():
    case, mem = _case(b"\xed\xa2")                                 # INI: our MEMPTR from B after the decrement
    found = _judge(case, mem, {OURS: _after(0x8002, wz=0x1235), CERT: _after(0x8002, wz=0x1335),
                               SKOOL: _after(0x8002, wz=0x0001)})
    assert [(d.field, d.values, d.agree, d.why) for d in found] == [
        ("wz", {OURS: 0x1235, CERT: 0x1335}, ((OURS,), (CERT,)), _why(OURS, "ED", 0xA2, "wz"))]
    # near miss: the same values on an opcode KNOWN does not name (OUTI): unexplained
    case, mem = _case(b"\xed\xa3")
    found = _judge(case, mem, {OURS: _after(0x8002, wz=0x1235), CERT: _after(0x8002, wz=0x1335),
                               SKOOL: _after(0x8002)})
    assert [(d.field, d.why) for d in found] == [("wz", None)]


def test_two_cores_without_the_certified_one_neither_is_the_lone_one():
    case, mem = _case(b"\xcb\x46")                                 # BIT 0,(HL): SkoolKit's bits 3, 5 known
    cores = [Core(OURS), Core(CERT, frozenset(FIELDS) - {"f"}), Core(SKOOL)]
    found = _judge(case, mem, {OURS: _after(0x8002), CERT: _after(0x8002, f=0x01), SKOOL: _after(0x8002, f=0x6C)},
                   cores)
    assert [(d.field, d.values, d.agree, d.why) for d in found] == [
        ("f", {OURS: 0x44, SKOOL: 0x6C}, ((OURS,), (SKOOL,)), None)]
    # ... though the first of them alone would be explained (INI's MEMPTR, ours): two lone cores, no lone one
    case, mem = _case(b"\xed\xa2")
    cores = [Core(OURS), Core(CERT, frozenset(FIELDS) - {"wz"}), Core(SKOOL)]
    found = _judge(case, mem, {OURS: _after(0x8002, wz=0x1235), CERT: _after(0x8002),
                               SKOOL: _after(0x8002, wz=0x1335)}, cores)
    assert [(d.field, d.agree, d.why) for d in found] == [("wz", ((OURS,), (SKOOL,)), None)]
    # near miss: the certified core keeps F and sides with ours: SkoolKit is alone, and explained
    case, mem = _case(b"\xcb\x46")
    found = _judge(case, mem, {OURS: _after(0x8002), CERT: _after(0x8002), SKOOL: _after(0x8002, f=0x6C)})
    assert [(d.field, d.why) for d in found] == [("f", _why(SKOOL, "CB", 0x46, "f"))]


# ---------------------------------------------------------------- a block instruction's repeat
def _ldir(pc: int, left_at: int, code: bytes = b"\xed\xb0"):
    """LDIR (or *code*) at *pc*, every core leaving PC at *left_at*, ours with F's bit 5 apart (KNOWN: the
    repeat's bits 3 and 5 from PC's high byte)."""
    case, mem = _case(code, pc)
    found = _judge(case, mem, {OURS: _after(left_at, f=0x64), CERT: _after(left_at), SKOOL: _after(left_at)})
    assert [d.field for d in found] == ["f"]
    return found[0].why


def test_a_repeat_is_explained_only_while_every_core_leaves_pc_on_the_instruction():
    repeat = _why(OURS, "ED", 0xB0, "f")
    assert _ldir(0x8000, 0x8000) == repeat
    assert _ldir(0x8000, 0x8002) is None                           # near miss: the last iteration, PC past it


def test_the_repeat_goes_back_to_the_ed_past_a_run_of_prefixes():
    repeat = _why(OURS, "ED", 0xB0, "f")
    assert _ldir(0x8000, 0x8002, b"\xdd\xfd\xed\xb0") == repeat    # PC back on the ED, the prefixes behind it
    assert _ldir(0x8000, 0x8000, b"\xdd\xfd\xed\xb0") == repeat    # ... or on the first prefix
    assert _ldir(0x8000, 0x8001, b"\xdd\xfd\xed\xb0") is None      # near misses: on the second prefix,
    assert _ldir(0x8000, 0x8003, b"\xdd\xfd\xed\xb0") is None      # on the B0,
    assert _ldir(0x8000, 0x8004, b"\xdd\xfd\xed\xb0") is None      # past it


def test_the_repeat_across_the_top_of_memory():
    repeat = _why(OURS, "ED", 0xB0, "f")
    assert _ldir(0xFFFF, 0x0000, b"\xdd\xed\xb0") == repeat        # the DD at FFFF, the ED at 0000
    assert _ldir(0xFFFF, 0xFFFF, b"\xdd\xed\xb0") == repeat
    assert _ldir(0xFFFF, 0x0002, b"\xdd\xed\xb0") is None
