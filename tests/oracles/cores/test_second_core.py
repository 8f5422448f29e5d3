"""A second CPU core (SkoolKit's simulator, harness/spectrum/skoolcore.py) as an oracle for the first (z80).

The same machine on both cores must do the same thing: machine code with
interrupts, HALT, prefixes and port reads to the same memory and registers;
a whole regress game and a sweep chunk to byte-identical results. SkoolKit is
GPL-3 and optional (the 'oracle' and test extras): without it these tests skip.
"""
from __future__ import annotations

import dataclasses
import json

import pytest

pytest.importorskip("skoolkit.simulator", reason="SkoolKit (the 'oracle' extra) is not installed")

from harness.program.runs import regress, sweep_chunks
from harness.program.model.build import tape_bytes
from harness.program.runs.loaded import init_worker
from harness.program.model.subroutine import Subroutine, program_at_editor
from harness.spectrum.cpu import Z80Core
from harness.spectrum.machine import Spectrum48
from harness.spectrum.skoolcore import SkoolKitCore
from harness.spectrum.tape import read_tap

REGS = ("a", "f", "bc", "de", "hl", "ix", "iy", "sp", "pc", "i", "alt_af", "alt_bc", "alt_de", "alt_hl", "iff1")
# EI; HALT; LD IX,0x1234; INC (IX+1); IN A,(254); ADD A,(IX+1); LD (0x9000),A; DI; EI; JR back to HALT
PROGRAM = bytes([0xFB, 0x76, 0xDD, 0x21, 0x34, 0x12, 0xDD, 0x34, 0x01, 0xDB, 0xFE, 0xDD, 0x86, 0x01,
                 0x32, 0x00, 0x90, 0xF3, 0xFB, 0x18, 0xEC])


def state(m: Spectrum48) -> tuple:
    regs = {r: m.cpu.get(r) for r in REGS}
    regs["f"] &= 0xD7                    # flag bits 3 and 5 (undocumented; SkoolKit keeps no MEMPTR)
    regs["pc"] = m.cpu.pc
    return m.read(0x4000, 0xC000), regs, m.frames


def run_program(core, booted_snapshot, frames: int = 120) -> tuple:
    """The booted machine (its state moved onto *core*) running PROGRAM with a key held now and then."""
    z = Spectrum48(core=Z80Core)
    z.restore(booted_snapshot)
    m = Spectrum48(core=core)
    m.write(0x4000, z.read(0x4000, 0xC000))
    for r in ("a", "f", "bc", "de", "hl", "ix", "iy", "sp", "i", "r", "alt_af", "alt_bc", "alt_de", "alt_hl",
              "iff1", "iff2"):
        m.cpu.set(r, z.cpu.get(r))
    m.write(0x8000, PROGRAM)
    m.cpu.pc = 0x8000
    m.s.t = z.s.t
    for i in range(frames):
        if i % 30 == 10:
            m.press("A")
        elif i % 30 == 14:
            m.release()
        m.run_frame()
    return state(m)


def test_both_cores_run_machine_code_with_interrupts_halt_prefixes_and_ports_alike(booted_snapshot):
    ours, theirs = run_program(Z80Core, booted_snapshot), run_program(SkoolKitCore, booted_snapshot)
    assert ours[1] == theirs[1] and ours[2] == theirs[2]
    assert [hex(0x4000 + i) for i in range(0xC000) if ours[0][i] != theirs[0][i]] == []


class FlawedCore(SkoolKitCore):
    """The planted difference: a core whose IN reads the keyboard one bit wrong."""

    def set_port_handlers(self, read, write):
        super().set_port_handlers(lambda port: read(port) ^ 0x01, write)


def test_a_core_that_reads_one_key_wrong_is_told_apart(booted_snapshot):
    ours, flawed = run_program(Z80Core, booted_snapshot), run_program(FlawedCore, booted_snapshot)
    assert ours[0] != flawed[0] or ours[1] != flawed[1]


def test_the_adapter_keeps_the_z80_cores_conventions():
    """PC past a HALT while halted, no interrupt right after EI, a breakpoint stops before its instruction,
    and the whole state saved and restored."""
    for core in (Z80Core, SkoolKitCore):
        m = Spectrum48(core=core)
        m.write(0x8000, bytes([0xFB, 0x00, 0x76]))       # EI; NOP; HALT
        cpu = m.cpu
        cpu.pc = 0x8000
        cpu.run(1)
        assert cpu.iff1 and cpu.int_blocked and not cpu.interrupt(), core.name
        cpu.set_breakpoint(0x8002)
        assert cpu.run(1000)[1] and cpu.pc == 0x8002, core.name
        saved = cpu.save_state()
        cpu.step_over_breakpoint()
        cpu.run(40)
        assert cpu.pc == 0x8003, core.name               # halted: PC past the HALT
        assert cpu.interrupt() and cpu.pc == 0x0038, core.name
        assert m.read(cpu.get("sp"), 2) == b"\x03\x80", core.name
        cpu.load_state(saved)
        assert cpu.pc == 0x8002 and cpu.iff1, core.name


@pytest.fixture
def restore_regress_worker():
    yield
    init_worker(tape_bytes(None))      # the default core again for the tests that follow


@pytest.mark.slow
def test_a_regress_game_gives_the_same_record_on_both_cores(restore_regress_worker):
    # The whole game on both cores, not a stretch from a shared mid-game snapshot: the record compared is the
    # game's (every deal's transcript, frames and profile), and a snapshot made on the z80 core would leave all
    # before it unchecked by the oracle. Most of this test's CPU is SkoolKit's C simulator, run in batches
    # (skoolcore.SkoolKitCore.run; one instruction per Python call made it ~57 CPU-s, now ~16); the z80 half
    # is one ordinary game.
    tape = tape_bytes(None)
    records = {}
    for core in ("z80", "skoolkit"):
        init_worker(tape, core)
        game = dataclasses.asdict(regress.play_one(regress.GameJob(0, regress.spread_seed(1), "random")))
        game.pop("wall_s")
        game.pop("cpu_s")               # CPU and screen-reading seconds: timings, like the wall time
        game.pop("screen_s")
        game.pop("screens")
        records[core] = json.dumps(game, sort_keys=True, ensure_ascii=False)
    assert records["z80"] == records["skoolkit"]
    assert json.loads(records["z80"])["completed"]


@pytest.mark.slow
def test_a_show_sweep_chunk_gives_the_same_result_on_both_cores(monkeypatch):
    blocks = read_tap(tape_bytes(None))
    items = sweep_chunks.sweep_items("show")[0][:30]
    results = {}
    for core in (Z80Core, SkoolKitCore):
        m = program_at_editor(blocks, core=core)
        routine = sweep_chunks.SHOW_ROUTINE
        worker = sweep_chunks.SweepWorker("show", Subroutine(m, routine.line, set(routine.returns),
                                                             setup=sweep_chunks.SHOW_SETUP),
                                          sweep_chunks.Profiler.for_program(m.program_bytes()).statements)
        results[core.__name__] = json.dumps(sweep_chunks.run_chunk_on(worker, sweep_chunks.ChunkJob(0, items)).as_json(),
                                            sort_keys=True)
    assert results["Z80Core"] == results["SkoolKitCore"]
    assert json.loads(results["Z80Core"])["cases"] == 30


# A loop with a HALT, a stretch of 20 DJNZ rounds with no breakpoint (where batches run whole), three
# breakpointed NOPs (one right after an EI) and, every third round, an OUT
LOOP = bytes([0xFB, 0x76,                   # 8000 EI; 8001 HALT
              0x06, 0x14,                   # 8002 LD B,20
              0x3C, 0x10, 0xFD,             # 8004 INC A; DJNZ 8004
              0x00, 0x00,                   # 8007 NOP; NOP (breakpoints)
              0xFB, 0x00,                   # 8009 EI; 800A NOP (a breakpoint right after EI: interrupt blocked)
              0xDB, 0xFE,                   # 800B IN A,(254)
              0x0D, 0x20, 0xF2,             # 800D DEC C; JR NZ,8002
              0xD3, 0xFE,                   # 8010 OUT (254),A: written for real, so its batch is run again
              0x0E, 0x03, 0x18, 0xEA])      # 8012 LD C,3; JR 8000
BREAKPOINTS = (0x8007, 0x8008, 0x800A)


def stops(core: SkoolKitCore, batched: bool, runs: int = 400) -> list[tuple]:
    """Each run()'s result, PC, T-states, A and whether an interrupt is blocked, with breakpoints stepped
    over and an interrupt offered after every run, as the machine does."""
    writes: list[tuple[int, int]] = []
    core.set_port_handlers(lambda port: 0xBF, lambda port, value: writes.append((port, value)))
    core.memory[0x8000:0x8000 + len(LOOP)] = LOOP
    core.memory[0x0038:0x003A] = bytes([0xFB, 0xC9])      # the interrupt's routine: EI; RET
    core.pc = 0x8000
    core.set("sp", 0xFF00)
    core.set("bc", 0x0003)
    for bp in BREAKPOINTS:
        core.set_breakpoint(bp)
    if not batched:
        core._trace = None
    seen = []
    for i in range(runs):
        elapsed, at_bp = core.run(37 + (i * 97) % 2000)
        seen.append((elapsed, at_bp, core.pc, core.get("a"), core.int_blocked, len(writes)))
        if at_bp:
            core.step_over_breakpoint()
        elif i % 3 == 0:
            core.interrupt()
    return seen


def test_batched_runs_stop_where_one_instruction_at_a_time_does():
    """The C batches (CSimulator.trace) against the adapter's single steps: the same stops, T-states, OUTs
    (none made twice by a batch undone) and interrupt blocking after EI, over 400 runs of many lengths."""
    core = SkoolKitCore()
    if core._trace is None:
        pytest.skip("SkoolKit's C simulator is not built: no batches to compare")
    batched, stepped = stops(SkoolKitCore(), True), stops(SkoolKitCore(), False)
    assert batched == stepped
    assert {s[1] for s in batched} == {True, False} and any(s[4] for s in batched) and batched[-1][5] > 10


class BlindBatches(SkoolKitCore):
    """The planted difference: batches that do not look at the breakpoints they ran past."""

    def _run_batch(self, ticks):
        kept, self._breakpoints = self._breakpoints, set()
        try:
            return super()._run_batch(ticks)
        finally:
            self._breakpoints = kept


def test_batches_blind_to_the_breakpoints_they_pass_are_told_apart():
    assert stops(BlindBatches(), True) != stops(SkoolKitCore(), False)
