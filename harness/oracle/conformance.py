"""Our Z80 core beside two others, one instruction at a time, on every opcode of every prefix group.

The cores: ours (kosarev's C++ `z80` package behind harness/spectrum/cpu.py's `Z80Core`, as the machine
runs it), `z80-python` (pure Python, certified against ZEXALL, raxoft's z80test, SingleStepTests and
FUSE's tests) and SkoolKit's C simulator (behind harness/spectrum/skoolcore.py's `SkoolKitCore`). Each
case is one seeded random state: every register and flag (F's undocumented bits 3 and 5 too), the
alternate set, I, R, IFF1 = IFF2, the interrupt mode, WZ (MEMPTR), and the whole 64K filled with seeded
random bytes, the instruction's bytes at PC. The memory is a 48K Spectrum's: 0000-3FFF reads but drops
writes (SkoolKit's 48K memory has that built in; the others are given it). A port read answers a seeded
function of the port's 16-bit address. Each core runs one instruction (a run of DD/FD prefixes and what
follows them is one instruction, as z80-python and SkoolKit count it; our core stops after each prefix,
so it is stepped until no prefix is pending); then every register, every byte written, every port read
and written, and the T-states are compared.

A field a core does not keep is not compared for that core, and the difference is stated once in
`MODELLING` (with the reason), never case by case. Every other difference is a `Disagreement` with its
exact state and which cores agree; `KNOWN` lists the ones explained (by the certified core's verdict),
each by its group, opcodes, field and bits, so an unexplained one cannot hide under an explanation.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Iterable, Protocol

import numpy as np

from ..errors import UsageError
from ..spectrum.cpu import Z80Core
from ..spectrum.skoolcore import SkoolKitCore

ROM_END = 0x4000
#: the fields compared: 8-bit registers, 16-bit registers, interrupt state
REGS8 = ("a", "f", "b", "c", "d", "e", "h", "l", "i", "r")
REGS16 = ("ix", "iy", "sp", "pc", "alt_af", "alt_bc", "alt_de", "alt_hl", "wz")
OTHER = ("iff1", "iff2", "im", "halted")
FIELDS = REGS8 + REGS16 + OTHER + ("writes", "port_reads", "port_writes", "t")
#: the core certified against ZEXALL, z80test, SingleStepTests and FUSE's tests: its verdict decides a
#: field only two cores keep
CERTIFIED = "z80-python"
#: more prefix bytes than any run the generator makes, plus the instruction: our core's step budget
MAX_PREFIX_STEPS = 16


# ---------------------------------------------------------------- states and outcomes
@dataclass(frozen=True)
class Case:
    """One random starting state and the instruction at its PC."""
    group: str
    code: bytes                  # the instruction's leading bytes as the group fixes them (at PC)
    regs: dict[str, int]         # every field of REGS8, REGS16 and OTHER
    seed: int                    # the memory's and the ports' seed

    def memory(self) -> bytes:
        mem = bytearray(random.Random(self.seed).randbytes(0x10000))
        pc = self.regs["pc"]
        for i, b in enumerate(self.code):
            mem[(pc + i) & 0xFFFF] = b
        return bytes(mem)

    def port_value(self, port: int) -> int:
        """What the bus answers to IN from *port*: a seeded function of the 16-bit address."""
        return ((port * 0x9E3779B1) ^ (self.seed * 0x85EBCA6B)) >> 11 & 0xFF

    def describe(self) -> str:
        r = self.regs
        regs = " ".join(f"{k}={r[k]:02X}" for k in REGS8) + " " + " ".join(f"{k}={r[k]:04X}" for k in REGS16)
        return (f"{self.group} {self.code.hex(' ').upper()} at PC={r['pc']:04X}: {regs} iff={int(r['iff1'])} "
                f"im={r['im']} memory seed {self.seed}")


@dataclass(frozen=True)
class Outcome:
    """What one core did: every compared field's value after the instruction."""
    values: dict[str, object]


class Stepper(Protocol):
    name: str
    #: the fields this core keeps (the others are not compared for it; MODELLING says why)
    keeps: frozenset[str]

    def execute(self, case: Case, memory: bytes) -> Outcome: ...


def _writes(before: bytes, after: bytes) -> tuple[tuple[int, int], ...]:
    a, b = np.frombuffer(before, np.uint8), np.frombuffer(after, np.uint8)
    where = np.flatnonzero(a != b)
    return tuple((int(i), int(b[i])) for i in where)


class _Ports:
    def __init__(self, case: Case):
        self.case = case
        self.reads: list[int] = []
        self.writes: list[tuple[int, int]] = []

    def read(self, port: int) -> int:
        self.reads.append(port & 0xFFFF)
        return self.case.port_value(port & 0xFFFF)

    def write(self, port: int, value: int) -> None:
        self.writes.append((port & 0xFFFF, value & 0xFF))


# ---------------------------------------------------------------- our core: the z80 package via cpu.Z80Core
#: byte offsets of the z80 package's packed state (cpu.STATE_SIZE): words little-endian
_W = {"bc": 0, "de": 2, "hl": 4, "af": 6, "pc": 8, "sp": 10, "wz": 12, "ix": 24, "iy": 26,
      "alt_bc": 28, "alt_de": 30, "alt_hl": 32, "alt_af": 34}
_R_AT, _I_AT, _IFF1_AT, _IFF2_AT, _HALT_AT, _IM_AT, _PREFIX_AT, _MEM_AT = 36, 37, 38, 39, 41, 42, 43, 44
_PAIR8 = {"b": (0, 1), "c": (0, 0), "d": (2, 1), "e": (2, 0), "h": (4, 1), "l": (4, 0), "a": (6, 1), "f": (6, 0)}


def packed_registers(s: memoryview | bytes) -> dict[str, int]:
    """Every register and interrupt field of the z80 package's packed state *s*, by the names compared."""
    values = {reg: s[at + hi] for reg, (at, hi) in _PAIR8.items()}
    values.update({reg: s[_W[reg]] | s[_W[reg] + 1] << 8 for reg in REGS16})
    values.update(r=s[_R_AT], i=s[_I_AT], iff1=s[_IFF1_AT], iff2=s[_IFF2_AT], im=s[_IM_AT], halted=s[_HALT_AT])
    return values


class OurCore:
    """Our core as the machine runs it: `cpu.Z80Core` (the ROM protected as `protect` does), stepped by
    `run(1)` until no DD/FD prefix is pending."""
    name = "z80"
    keeps = frozenset(FIELDS)

    def __init__(self, make: Callable[[], Z80Core] = Z80Core):
        self.core = make()
        self.core.protect(0, ROM_END)
        self.state = self.core.state_view

    def execute(self, case: Case, memory: bytes) -> Outcome:
        s, r = self.state, case.regs
        for reg, (at, hi) in _PAIR8.items():
            s[at + hi] = r[reg]
        for reg in REGS16:
            s[_W[reg]], s[_W[reg] + 1] = r[reg] & 0xFF, r[reg] >> 8
        s[_R_AT], s[_I_AT], s[_IFF1_AT], s[_IFF2_AT] = r["r"], r["i"], r["iff1"], r["iff2"]
        s[_HALT_AT], s[_IM_AT], s[_PREFIX_AT], s[40] = r["halted"], r["im"], 0, 0
        s[_MEM_AT:] = memory
        ports = _Ports(case)
        self.core.set_port_handlers(ports.read, ports.write)
        t = 0
        for _ in range(MAX_PREFIX_STEPS):
            t += self.core.run(1)[0]
            if s[_PREFIX_AT] == 0:
                break
        values: dict[str, object] = dict(packed_registers(s))
        values.update(writes=_writes(memory, bytes(s[_MEM_AT:])),
                      port_reads=tuple(ports.reads), port_writes=tuple(ports.writes), t=t)
        return Outcome(values)


# ---------------------------------------------------------------- z80-python
class Z80PythonCore:
    """`z80-python`'s `Z80CPU` over a flat 64K whose first 16K drops writes; `step()` once."""
    name = "z80-python"
    keeps = frozenset(FIELDS)

    def __init__(self) -> None:
        try:
            from z80_python import CPUState, Z80CPU      # lazy: an optional package (the oracle extra)
        except ImportError:
            raise UsageError("conformance needs z80-python (MIT): pip install -e '.[oracle]'") from None
        self._state_cls = CPUState
        self.mem = bytearray(0x10000)
        self.cpu = Z80CPU(self.mem.__getitem__, self._write)

    def _write(self, addr: int, value: int) -> None:
        if addr >= ROM_END:
            self.mem[addr] = value

    def execute(self, case: Case, memory: bytes) -> Outcome:
        r = case.regs
        self.mem[:] = memory
        ports = _Ports(case)
        self.cpu.read_port, self.cpu.write_port = ports.read, ports.write
        self.cpu.restore_state(self._state_cls(
            a=r["a"], f=r["f"], b=r["b"], c=r["c"], d=r["d"], e=r["e"], h=r["h"], l=r["l"], ix=r["ix"],
            iy=r["iy"], sp=r["sp"], pc=r["pc"], wz=r["wz"], i=r["i"], r=r["r"], iff1=bool(r["iff1"]),
            iff2=bool(r["iff2"]), im=r["im"], af_alt=r["alt_af"], bc_alt=r["alt_bc"], de_alt=r["alt_de"],
            hl_alt=r["alt_hl"], q=r["f"], halted=bool(r["halted"])))
        t = self.cpu.step()
        st = self.cpu.capture_state()
        values: dict[str, object] = {reg: getattr(st, reg) for reg in REGS8 + ("ix", "iy", "sp", "pc", "wz", "im")}
        values.update(alt_af=st.af_alt, alt_bc=st.bc_alt, alt_de=st.de_alt, alt_hl=st.hl_alt,
                      iff1=int(st.iff1), iff2=int(st.iff2), halted=int(st.halted),
                      writes=_writes(memory, bytes(self.mem)), port_reads=tuple(ports.reads),
                      port_writes=tuple(ports.writes), t=t)
        return Outcome(values)


# ---------------------------------------------------------------- SkoolKit
_SK = {"a": 0, "f": 1, "b": 2, "c": 3, "d": 4, "e": 5, "h": 6, "l": 7, "i": 14, "r": 15}
_SK_PAIRS = {"ix": (8, 9), "iy": (10, 11), "alt_af": (16, 17), "alt_bc": (18, 19), "alt_de": (20, 21),
             "alt_hl": (22, 23)}
_SK_SP, _SK_PC, _SK_T, _SK_IFF, _SK_IM, _SK_HALT = 12, 24, 25, 26, 27, 28


class SkoolKitStepper:
    """SkoolKit's C simulator (its Python one when C is not built) behind `skoolcore.SkoolKitCore`, which
    makes its HALT leave PC past the HALT as the others do; `run(1)` runs one instruction, and a DD/FD
    that SkoolKit ran alone (before an opcode the prefix leaves alone, or another prefix) is followed by
    the rest, as the other cores count one instruction."""
    name = "SkoolKit"
    #: SkoolKit keeps no WZ and one IFF for both (cases have IFF1 = IFF2, so iff2 is still compared)
    keeps = frozenset(FIELDS) - {"wz"}

    def __init__(self) -> None:
        self.core = SkoolKitCore()
        self.core.protect(0, ROM_END)
        self.regs = self.core.registers

    def execute(self, case: Case, memory: bytes) -> Outcome:
        r, g = case.regs, self.regs
        for reg, at in _SK.items():
            g[at] = r[reg]
        for reg, (hi, lo) in _SK_PAIRS.items():
            g[hi], g[lo] = r[reg] >> 8, r[reg] & 0xFF
        g[_SK_SP], g[_SK_IFF], g[_SK_IM], g[_SK_T] = r["sp"], r["iff1"], r["im"], 0
        self.core.pc = r["pc"]
        g[_SK_HALT] = r["halted"]
        self.core.memory[:] = memory
        ports = _Ports(case)
        self.core.set_port_handlers(ports.read, ports.write)
        t = 0
        for _ in range(MAX_PREFIX_STEPS):
            pc = self.core.pc
            t += self.core.run(1)[0]
            if not (self.core.memory[pc] in (0xDD, 0xFD) and self.core.pc == (pc + 1) & 0xFFFF):
                break       # SkoolKit runs a DD/FD before an opcode the prefix leaves alone as a step
        values: dict[str, object] = {reg: g[at] for reg, at in _SK.items()}
        values.update({reg: g[hi] << 8 | g[lo] for reg, (hi, lo) in _SK_PAIRS.items()})
        values.update(sp=g[_SK_SP], pc=self.core.pc, iff1=g[_SK_IFF], iff2=g[_SK_IFF], im=g[_SK_IM],
                      halted=g[_SK_HALT], writes=_writes(memory, bytes(self.core.memory)),
                      port_reads=tuple(ports.reads), port_writes=tuple(ports.writes), t=t)
        return Outcome(values)


def steppers(skoolkit: bool = True) -> list[Stepper]:
    """Our core, z80-python and (when installed) SkoolKit: a one-line UsageError names what is missing."""
    out: list[Stepper] = [OurCore(), Z80PythonCore()]
    if skoolkit:
        out.append(SkoolKitStepper())
    return out


# ---------------------------------------------------------------- the groups
#: (name, leading bytes for each opcode of the group): every prefix group, the undocumented opcodes with it
def _groups() -> dict[str, list[bytes]]:
    prefixes = {0xCB, 0xDD, 0xED, 0xFD}
    return {
        "unprefixed": [bytes([op]) for op in range(256) if op not in prefixes],
        "CB": [bytes([0xCB, op]) for op in range(256)],
        "ED": [bytes([0xED, op]) for op in range(256)],
        "DD": [bytes([0xDD, op]) for op in range(256) if op not in (0xCB, 0xDD, 0xFD)],
        "FD": [bytes([0xFD, op]) for op in range(256) if op not in (0xCB, 0xDD, 0xFD)],
        "DDCB": [bytes([0xDD, 0xCB, d, op]) for op in range(256) for d in (0x00,)],
        "FDCB": [bytes([0xFD, 0xCB, d, op]) for op in range(256) for d in (0x00,)],
        # runs of DD/FD: each pair and triple of prefixes before a sample of opcodes (the last prefix rules)
        "DD/FD runs": [bytes(run) + bytes([op]) for run in ((0xDD, 0xDD), (0xDD, 0xFD), (0xFD, 0xDD),
                                                           (0xFD, 0xFD), (0xDD, 0xFD, 0xDD), (0xFD, 0xDD, 0xFD))
                       for op in (0x00, 0x21, 0x23, 0x26, 0x36, 0x44, 0x66, 0x6F, 0x7E, 0x86, 0xE3, 0xE9,
                                  0xF9, 0xED, 0xCB)],
    }


GROUPS = _groups()


def _code(group: str, lead: bytes, rng: random.Random) -> bytes:
    """The bytes at PC: the group's leading bytes; DDCB/FDCB with a random displacement."""
    if group in ("DDCB", "FDCB"):
        return lead[:2] + bytes([rng.randrange(256)]) + lead[3:]
    return lead


def make_case(group: str, lead: bytes, seed: int) -> Case:
    rng = random.Random(seed)
    regs = {k: rng.randrange(256) for k in REGS8}
    regs.update({k: rng.randrange(0x10000) for k in REGS16})
    iff = rng.randrange(2)
    regs.update(iff1=iff, iff2=iff, im=rng.randrange(3), halted=0)
    return Case(group, _code(group, lead, rng), regs, seed)


def cases(k: int, seed: int, groups: Iterable[str] | None = None) -> Iterable[Case]:
    """*k* cases of every opcode of each group, seeded: the same *seed* gives the same states."""
    for gi, group in enumerate(groups or GROUPS):
        if group not in GROUPS:
            raise UsageError(f"no opcode group {group!r} (the groups: {', '.join(GROUPS)})")
        for oi, lead in enumerate(GROUPS[group]):
            for n in range(k):
                yield make_case(group, lead, (seed * 1_000_003 + gi * 100_003 + oi * 1009 + n) & 0x7FFFFFFF)


# ---------------------------------------------------------------- known differences
@dataclass(frozen=True)
class Modelling:
    """A field a core does not keep: not compared for it, said once."""
    core: str
    field: str
    why: str


MODELLING = (
    Modelling("SkoolKit", "wz", "SkoolKit's simulator keeps no WZ (MEMPTR) register: WZ is not compared for it"),
    Modelling("SkoolKit", "iff2", "SkoolKit keeps one interrupt flip-flop for IFF1 and IFF2: every case starts "
                                  "with IFF1 = IFF2 so that its one flag stands for both"),
    Modelling("z80-python", "q", "Q (the flags the last instruction wrote; SCF/CCF take bits 3 and 5 from "
                                 "(Q xor F) or A) starts as F, as after an instruction that wrote the flags: "
                                 "our core and SkoolKit keep no Q and behave so always"),
)


def decoded(code: bytes, memory: bytes, pc: int) -> tuple[str, int]:
    """The page and opcode an instruction runs: a run of DD/FD prefixes stripped (the last one rules)."""
    at = pc
    index = ""
    while memory[at & 0xFFFF] in (0xDD, 0xFD):
        index = "DD" if memory[at & 0xFFFF] == 0xDD else "FD"
        at += 1
    op = memory[at & 0xFFFF]
    if op == 0xED:
        return "ED", memory[(at + 1) & 0xFFFF]
    if op == 0xCB:
        return (index + "CB", memory[(at + 2) & 0xFFFF]) if index else ("CB", memory[(at + 1) & 0xFFFF])
    return index or "base", op


@dataclass(frozen=True)
class Known:
    """An explained disagreement: *core* alone differs from the other two on *field* (only in *mask*'s bits
    for a register) when the instruction run is one of *opcodes* of *page* (after any DD/FD run);
    *why* gives the certified core's verdict; *ours_wrong*: a finding against our core."""
    core: str
    page: str
    opcodes: frozenset[int]
    field: str
    mask: int
    why: str
    ours_wrong: bool = False
    repeating: bool = False          # only when the block instruction repeats (every core left PC on it)

    def explains(self, page: str, op: int, field_: str, lone: str, values: dict[str, object],
                 repeated: bool = False) -> bool:
        if (page, field_, lone) != (self.page, self.field, self.core) or op not in self.opcodes:
            return False
        if self.repeating and not repeated:
            return False
        if field_ in REGS8 or field_ in REGS16:
            others = {v for c, v in values.items() if c != lone}
            return len(others) == 1 and ((int(values[lone]) ^ int(others.pop())) & ~self.mask) == 0  # type: ignore[call-overload]
        return True


_BIT_HL = frozenset(op for op in range(0x40, 0x80) if op & 7 == 6)
_LD_CP_R = frozenset((0xB0, 0xB1, 0xB8, 0xB9))        # LDIR CPIR LDDR CPDR
_IN_OT_R = frozenset((0xB2, 0xB3, 0xBA, 0xBB))        # INIR OTIR INDR OTDR
_BLOCK_R = _LD_CP_R | _IN_OT_R
_SCF_CCF = frozenset((0x37, 0x3F))
_REPEAT = ("while it repeats (BC, or B, not yet 0) a block instruction's F bits 3 and 5 come from PC's high "
           "byte (the instruction's address), as measured on real Z80s in 2018 (z80-python and SkoolKit "
           "agree); our core gives the bits of a last iteration")
KNOWN: tuple[Known, ...] = (
    Known("SkoolKit", "CB", _BIT_HL, "f", 0x28,
          "BIT n,(HL) copies bits 3 and 5 of F from MEMPTR's high byte (z80 and z80-python agree); SkoolKit, "
          "keeping no MEMPTR, takes them from elsewhere"),
    Known("z80", "ED", _LD_CP_R, "f", 0x28, _REPEAT, ours_wrong=True, repeating=True),
    Known("z80", "ED", _IN_OT_R, "f", 0x3C,
          _REPEAT + "; INIR/OTIR/INDR/OTDR also set H and P/V again from B and the carry, as measured", True, True),
    Known("z80", "ED", _BLOCK_R, "wz", 0xFFFF,
          "while a block instruction repeats, MEMPTR becomes PC+1 (z80-python); our core leaves it", True, True),
    Known("z80", "ED", frozenset((0xA2, 0xAA, 0xB2, 0xBA)), "wz", 0xFFFF,
          "INI/IND (and INIR/INDR): MEMPTR = BC+1 / BC-1 with B as it was before the decrement (z80-python, "
          "after the MEMPTR document); our core uses B after it", True),
    Known("z80-python", "DD", _SCF_CCF, "f", 0x28,
          "SCF/CCF after a DD/FD prefix: z80-python's Q is 0 (the prefix's M1 wrote no flags), so bits 3 and 5 "
          "are (F | A)'s; our core and SkoolKit keep no Q and take A's", True),
    Known("z80-python", "FD", _SCF_CCF, "f", 0x28, "as for DD", True),
)


# ---------------------------------------------------------------- running and judging
@dataclass(frozen=True)
class Disagreement:
    case: Case
    field: str
    values: dict[str, object]            # core -> its value
    agree: tuple[tuple[str, ...], ...]   # the cores grouped by the value they gave
    why: str | None                      # the explanation from KNOWN, or None: unexplained

    def describe(self) -> str:
        vals = ", ".join(f"{c}: {_show(self.field, v)}" for c, v in self.values.items())
        groups = " | ".join("+".join(g) for g in self.agree)
        return f"{self.case.describe()}\n  {self.field}: {vals} (agreeing: {groups})" + (
            f"\n  explained: {self.why}" if self.why else "")


def _show(field_: str, v: object) -> str:
    if field_ in REGS8:
        return f"{int(v):02X}"          # type: ignore[call-overload]
    if field_ in REGS16:
        return f"{int(v):04X}"          # type: ignore[call-overload]
    return str(v)


@dataclass
class GroupResult:
    group: str
    opcodes: int
    cases: int = 0
    agreed: int = 0
    explained: int = 0
    unexplained: int = 0


@dataclass
class Result:
    cores: tuple[str, ...]
    k: int
    seed: int
    groups: dict[str, GroupResult] = field(default_factory=dict)
    disagreements: list[Disagreement] = field(default_factory=list)

    @property
    def unexplained(self) -> list[Disagreement]:
        return [d for d in self.disagreements if d.why is None]


def judge(case: Case, memory: bytes, outcomes: dict[str, Outcome], steppers_: list[Stepper]) -> list[Disagreement]:
    """Every field on which the cores that keep it do not all agree."""
    page, op = decoded(case.code, memory, case.regs["pc"])
    at = case.regs["pc"]
    while memory[at & 0xFFFF] in (0xDD, 0xFD):     # a repeat goes back to the ED, past any DD/FD before it
        at += 1
    repeated = all(o.values["pc"] in (case.regs["pc"], at & 0xFFFF) for o in outcomes.values())
    keeps = {s.name: s.keeps for s in steppers_}
    out = []
    for f in FIELDS:
        values = {c: o.values[f] for c, o in outcomes.items() if f in keeps[c]}
        if len(set(map(repr, values.values()))) <= 1:
            continue
        by_value: dict[str, list[str]] = {}
        for c, v in values.items():
            by_value.setdefault(repr(v), []).append(c)
        agree = tuple(tuple(g) for g in sorted(by_value.values(), key=len, reverse=True))
        why = None
        lone = [g[0] for g in agree if len(g) == 1]
        if len(values) == 2 and CERTIFIED in values:       # two cores keep the field: the certified one rules
            lone = [c for c in values if c != CERTIFIED]
        if len(agree) == 2 and len(lone) == 1:
            why = next((k.why for k in KNOWN if k.explains(page, op, f, lone[0], values, repeated)), None)
        out.append(Disagreement(case, f, values, agree, why))
    return out


def run(k: int = 8, seed: int = 1, groups: Iterable[str] | None = None, cores: list[Stepper] | None = None,
        progress: Callable[[str], None] | None = None) -> Result:
    """*k* seeded cases of every opcode of each group on every core; the table and each disagreement."""
    cores = cores if cores is not None else steppers()
    result = Result(tuple(c.name for c in cores), k, seed)
    for case in cases(k, seed, groups):
        g = result.groups.get(case.group)
        if g is None:
            g = result.groups[case.group] = GroupResult(case.group, len(GROUPS[case.group]))
            if progress:
                progress(case.group)
        memory = case.memory()
        outcomes = {c.name: c.execute(case, memory) for c in cores}
        found = judge(case, memory, outcomes, cores)
        g.cases += 1
        if not found:
            g.agreed += 1
        elif all(d.why for d in found):
            g.explained += 1
        else:
            g.unexplained += 1
        result.disagreements.extend(found)
    return result


def table(result: Result) -> str:
    """The per-group table, as Markdown."""
    rows = ["| group | opcodes | cases | all agree | explained | unexplained |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
    total = GroupResult("all", 0)
    for g in result.groups.values():
        rows.append(f"| {g.group} | {g.opcodes} | {g.cases:,} | {g.agreed:,} | {g.explained:,} | {g.unexplained:,} |")
        total.opcodes += g.opcodes
        total.cases += g.cases
        total.agreed += g.agreed
        total.explained += g.explained
        total.unexplained += g.unexplained
    rows.append(f"| **all** | {total.opcodes:,} | {total.cases:,} | {total.agreed:,} | {total.explained:,} | "
                f"{total.unexplained:,} |")
    return "\n".join(rows)


# ---------------------------------------------------------------- the page
DOCS_BEGIN = "<!-- conformance: written by `cribbage-zx conformance --write-docs`; do not edit by hand -->"
DOCS_END = "<!-- conformance: end -->"
#: the run the page shows (tests/test_conformance.py checks the page is this run's)
DOCS_K, DOCS_SEED = 8, 1


def docs_block(result: Result) -> str:
    """The page's generated part: the table, the modelling differences, the explained ones and findings."""
    counts: dict[str, int] = {}
    for d in result.disagreements:
        if d.why:
            counts[d.why] = counts.get(d.why, 0) + 1
    lines = [DOCS_BEGIN, "",
             f"Cores: {', '.join(result.cores)}; K = {result.k} seeded random states per opcode (seed {result.seed}).",
             "", table(result), "",
             "Not compared (a field a core does not keep), said once:", "",
             "| core | field | why |", "| --- | --- | --- |"]
    lines += [f"| {m.core} | {m.field} | {m.why} |" for m in MODELLING]
    lines += ["", "Explained disagreements (the lone core, the instructions, the field and bits; the certified "
              "core's verdict):", "",
              "| lone core | page | opcodes | field (bits) | differences in this run | finding against our core | why |",
              "| --- | --- | --- | --- | ---: | --- | --- |"]
    for k in KNOWN:
        ops = " ".join(f"{op:02X}" for op in sorted(k.opcodes))
        bits = f"{k.field} ({k.mask:#04x})" if k.field in REGS8 else k.field
        lines.append(f"| {k.core} | {k.page} | {ops} | {bits} | {counts.get(k.why, 0):,} | "
                     f"{'yes' if k.ours_wrong else 'no'} | {k.why} |")
    unexplained = result.unexplained
    lines += ["", f"Unexplained disagreements: {len(unexplained)}."]
    lines += [f"\n```\n{d.describe()}\n```" for d in unexplained[:20]]
    lines += ["", DOCS_END]
    return "\n".join(lines)


def replace_block(page: str, block: str, path: str) -> str:
    """*page* with its generated part replaced by *block* (a UsageError naming *path* if it has none)."""
    try:
        head, rest = page.split(DOCS_BEGIN, 1)
        _, tail = rest.split(DOCS_END, 1)
    except ValueError:
        raise UsageError(f"{path}: no generated part to replace (the lines {DOCS_BEGIN!r} ... {DOCS_END!r})") from None
    return head + block + tail
