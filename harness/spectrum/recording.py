"""Recording a run as RZX: each frame's instruction-fetch count and the bytes its port reads returned.

The z80 core has no per-fetch callback, and its R register counts fetches in
7 bits only. So a recording machine runs on `CountingCore`, which hands the
core at most `CHUNK_T` T-states at a time: every fetch takes at least 4
T-states, so a chunk holds at most 100 fetches (102 with a prefixed
instruction started at its end), fewer than R's 128, and the difference of
R before and after a chunk is the exact count. R goes up in a HALT too (one
fetch every 4 T-states), as Fuse counts it; the interrupt's acknowledge also
raises R, but happens outside any chunk, so it is not counted, as the RZX
format wants. The cost is paid only by a machine built with this core:
about 175 calls into the core a frame instead of one.

What breaks the count: machine code that writes R (LD R,A, ED 4F). The 48K
ROM holds the bytes ED 4F nowhere, and the BASIC program has no machine code.

`RzxRecorder` makes the file. It starts at a frame boundary by taking the
interrupt there, then saves the snapshot (so the first RZX frame starts
after its interrupt, as players expect: Fuse and SkoolKit raise the
interrupt at the end of each frame, never before the first); every frame
the machine completes becomes one RZX frame; `stop` closes a frame cut short.

A frame is closed where a player's interrupt is taken. Players offer it once, at the frame's count; this
machine holds it for the ULA's 32 T-states, so where the CPU refuses it (right after EI, or between an
index prefix and its instruction) this machine takes it one instruction later, and a player would lose
it. So a frame that ends there is closed only after the next whole instruction (its fetches counted in
this frame), where both take it. (Until issue 48 only the prefix was so treated: a frame ending just
after the EI of BEEPER's `EI; RET` lost the player its interrupt, and the replay went astray.)

What the format cannot carry, the recording must not contain: Python writing
to memory or registers while it runs (the fast mode's skipped BEEP and
PAUSE, a trap that loads a tape block, a poke). A recording machine
therefore runs with fast=False, and the driver's one poke (SEED, at the
first question) comes before the recording starts.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..errors import MachineError
from . import z80snap
from .core import packed_state
from .cpu import CORE_FRAME_WRAP, Z80Core
from .machine import INT_LENGTH_T, Spectrum48
from .rzx import MAX_FETCHES, Rzx, RzxFrame

CHUNK_T = 400               # T-states per call into the core while counting (see the module's note)
PLAY_CHUNK_T = 508          # a player's longest run: at most 127 fetches (4 T-states each at least), R's 7 bits
IM1_VECTOR = 0x0038
R_AT = 36                   # R's byte in the z80 core's packed state (I follows): read there, not by property


class CountingCore(Z80Core):
    """The z80 core that, while `counting`, counts instruction fetches and keeps the bytes IN read."""

    name = "z80 (counting fetches)"

    def __init__(self) -> None:
        super().__init__()
        self.counting = False
        self.fetches = 0
        self.inputs = bytearray()
        #: called once after the next whole instruction (see RzxRecorder._frame_end)
        self.after_instruction: Callable[[], None] | None = None
        state, r = self.state_view, self.state_view[R_AT]
        state[R_AT] = r ^ 0x55
        if self._m.r != r ^ 0x55:
            raise MachineError(f"the z80 core keeps R elsewhere than byte {R_AT} of its state "
                               f"(harness/spectrum/recording.py was checked against z80 1.2)")
        state[R_AT] = r

    def mid_prefix(self) -> bool:
        """True between an index prefix (DD/FD) and the rest of its instruction, which the core runs apart."""
        return bool(self._m.int_disabled) and self.memory[(self._m.pc - 1) & 0xFFFF] in (0xDD, 0xFD)

    def _finish_instruction(self) -> int:
        """Run one step; once the instruction is whole, call `after_instruction` (once)."""
        m = self._m
        r = m.r
        elapsed, _ = super().run(1)
        self.fetches += (m.r - r) & 0x7F
        self._instruction_done()
        return elapsed

    def _instruction_done(self) -> None:
        done = self.after_instruction
        if done is not None and not self.mid_prefix():
            self.after_instruction = None
            done()                      # which may ask again (RzxRecorder._frame_end: EI after EI)

    def run(self, ticks: int) -> tuple[int, bool]:
        if not self.counting:
            return super().run(ticks)
        total = 0
        while self.after_instruction is not None and total < ticks:
            total += self._finish_instruction()
        if total >= ticks:
            return total, False
        # Z80Core.run inlined, R read from the state: ~12,000 chunks a second of game
        state, counters, run, hit, fetches = self.state_view, self.counters, self._run, self._breakpoint_hit, 0
        try:
            while True:
                r, start = state[R_AT], counters[1]
                counters[0] = min(ticks - total, CHUNK_T)
                events = run()
                fetches += (state[R_AT] - r) & 0x7F
                total += (counters[1] - start) % CORE_FRAME_WRAP
                if events & hit or total >= ticks:
                    return total, bool(events & hit)
        finally:
            self.fetches += fetches

    def step_over_breakpoint(self) -> int:
        r = self._m.r
        elapsed = super().step_over_breakpoint()
        if self.counting:
            self.fetches += (self._m.r - r) & 0x7F
            self._instruction_done()
        return elapsed

    def _recorded(self, read: Callable[[int], int]) -> Callable[[int], int]:
        """*read*, with every value it returns while counting kept for the frame's port readings."""
        inputs = self.inputs

        def recorded(port: int) -> int:
            value = read(port) & 0xFF
            if self.counting:
                inputs.append(value)
            return value
        return recorded

    def set_port_handlers(self, read: Callable[[int], int], write: Callable[[int, int], None]) -> None:
        super().set_port_handlers(self._recorded(read), write)

    def set_port_reader(self, read: Callable[[int], int]) -> None:
        # the machine's port table (a bytes.__getitem__) is wrapped too: a recording sees every IN
        super().set_port_reader(self._recorded(read))

    def take_frame(self) -> RzxFrame:
        """The frame counted so far, and a fresh count."""
        frame = RzxFrame(self.fetches, bytes(self.inputs))
        self.fetches = 0
        del self.inputs[:]
        return frame


class RzxRecorder:
    """Records a machine built with ``core=CountingCore`` from `start` to `stop`."""

    def __init__(self, machine: Spectrum48):
        if not isinstance(machine.cpu, CountingCore):
            raise MachineError("an RZX recording needs a machine built with core=CountingCore")
        if machine.fast:
            raise MachineError("an RZX recording needs fast=False: the fast mode skips BEEP and PAUSE "
                                 "in Python, which no other emulator would do")
        self.m = machine
        self.cpu: CountingCore = machine.cpu          # checked just above
        self.frames: list[RzxFrame] = []
        self.snapshot: bytes | None = None
        self.tstates = 0
        self.start_frame = 0
        self.split_instructions = 0        # frames that ended inside an instruction (see _frame_end)
        self.after_ei_frames: list[int] = []   # the frames that ended right after an EI (see _frame_end)
        self._deferred = False             # this frame's close waits for an instruction (see _frame_end)

    def start(self) -> None:
        """Take the coming interrupt, save the snapshot, and count from there (call between frames)."""
        m = self.m
        if m.mid_frame:
            raise MachineError("a recording starts between two frames, not inside one")
        m.take_interrupt()                   # the frame's interrupt, as run_frame would take it first
        if m.cpu.pc != IM1_VECTOR or m.cpu.iff1:
            raise MachineError(f"the interrupt was not taken at frame {m.frames} (PC={m.cpu.pc:#06x}): "
                                 f"a recording starts where interrupts are enabled")
        m.place_in_frame()                   # the rest of this frame runs without a second interrupt
        self.snapshot = z80snap.write_z80(z80snap.from_machine(m))
        self.tstates = m.s.t
        self.start_frame = m.frames
        self.cpu.fetches = 0
        del self.cpu.inputs[:]
        self.cpu.counting = True
        m.on_frame_end = self._frame_end

    def _frame_end(self) -> None:
        """Close this frame's count where a player takes the frame's interrupt (see the module's note).

        If the frame ended between an index prefix and the rest of its instruction (the core runs a prefix
        as a step of its own), it is closed once that instruction is whole: players (Fuse, SkoolKit) check
        the count only between whole instructions, so they run it in this frame. If it ended right after
        an EI (the CPU refuses an interrupt there), it is closed after the next instruction: this machine
        takes its interrupt there (the ULA holds it 32 T-states), and a player, which offers it once at
        the frame's count, takes it only there."""
        cpu = self.cpu
        if cpu.int_blocked:
            if not self._deferred:
                if self.m.s.t >= INT_LENGTH_T:          # this machine loses the interrupt; a player would not
                    raise MachineError(f"frame {len(self.frames)} of the recording ended {self.m.s.t} T-states "
                                       f"into an instruction that refuses the interrupt: not recordable")
                if cpu.mid_prefix():
                    self.split_instructions += 1
                else:
                    self.after_ei_frames.append(len(self.frames))
            self._deferred = True
            cpu.after_instruction = self._frame_end
        else:
            self._deferred = False
            self._close_frame()

    def _close_frame(self) -> None:
        frame = self.cpu.take_frame()
        if frame.fetches > MAX_FETCHES:
            raise MachineError(f"frame {len(self.frames)} of the recording has {frame.fetches} fetches, "
                                 f"more than the format's {MAX_FETCHES}")
        self.frames.append(frame)

    def stop(self) -> Rzx:
        """End the recording (a frame cut short is kept) and return it."""
        if self.snapshot is None:
            raise MachineError("the recording was never started")
        m = self.m
        m.on_frame_end = None
        while self.cpu.after_instruction is not None:   # the last frame ended inside an instruction: finish it,
            m.s.t += self.cpu._finish_instruction()     # so that the recording ends where a player stops
        if self.cpu.fetches or self.cpu.inputs:
            self.frames.append(self.cpu.take_frame())
        self.cpu.counting = False
        return Rzx(snapshot=self.snapshot, frames=list(self.frames), tstates=self.tstates)


def recording_machine(rom: bytes | str | Path | None = None, screenshot_dir: str | Path | None = None) -> Spectrum48:
    """A Spectrum48 that can be recorded: the counting core, real timing (fast=False)."""
    return Spectrum48(rom, core=CountingCore, fast=False, screenshot_dir=screenshot_dir)


class RzxPlayer:
    """Plays an RZX on the embedded core as Fuse and SkoolKit play one: from its snapshot, each frame runs
    its count of instruction fetches with every IN answered by the frame's next recorded reading, then the
    frame's interrupt is offered. The count is kept as the recorder keeps it (R's difference over runs of
    at most `PLAY_CHUNK_T` T-states), and a run is never longer than 4 T-states a fetch still due, so a frame
    never runs past its count: a count that falls inside an instruction, readings used up or left over,
    are a MachineError naming the frame (a recording that is not this machine's)."""

    def __init__(self, rzx: Rzx, rom: bytes | str | Path | None = None):
        self.rzx = rzx
        self.m = z80snap.to_machine(z80snap.read_z80(rzx.snapshot), Spectrum48(rom, fast=False))
        self.cpu = packed_state(self.m.cpu, "an RZX player")      # R read in the core's packed state
        self.frame = 0                       # RZX frames played
        self._inputs = b""
        self._read = 0
        self.cpu.set_port_handlers(self._in, self._out)   # the machine's own would put its key table back

    def _in(self, port: int) -> int:
        if self._read >= len(self._inputs):
            raise MachineError(f"RZX frame {self.frame}: an IN from port {port:#06x} past the frame's "
                               f"{len(self._inputs)} recorded readings")
        self._read += 1
        return self._inputs[self._read - 1]

    def _out(self, port: int, value: int) -> None:
        if not port & 1:
            self.m.s.border = value & 7

    def play(self, frames: int = 1, last_interrupt: bool = True) -> None:
        """Play the next *frames* frames of the recording, each with its interrupt (but the last one's
        without *last_interrupt*: where the recording's machine stopped)."""
        cpu, state = self.cpu, self.cpu.state_view
        for n in range(frames):
            if self.frame >= len(self.rzx.frames):
                raise MachineError(f"the recording has {len(self.rzx.frames)} frames; none is left to play")
            f = self.rzx.frames[self.frame]
            self._inputs, self._read = f.inputs, 0
            left = f.fetches
            while left > 0:
                r = state[R_AT]
                _, at_trap = cpu.run(min(PLAY_CHUNK_T, 4 * left))
                if at_trap:
                    cpu.step_over_breakpoint()
                left -= (state[R_AT] - r) & 0x7F
            if left < 0:
                raise MachineError(f"RZX frame {self.frame}: its count of {f.fetches} fetches ends inside an "
                                   f"instruction ({-left} fetch{'es' if left < -1 else ''} past it)")
            if self._read != len(f.inputs):
                raise MachineError(f"RZX frame {self.frame}: {len(f.inputs) - self._read} of its "
                                   f"{len(f.inputs)} port readings left unread")
            if last_interrupt or n < frames - 1:
                cpu.interrupt()
            self.frame += 1

    def ram(self) -> bytes:
        return self.m.read(0x4000, 0xC000)


def replay_problem(rzx: Rzx, end: z80snap.Z80Snapshot, rom: bytes | str | Path | None = None) -> str | None:
    """Why *rzx* does not replay to *end* (the recording's machine where `RzxRecorder.stop` left it), in one
    line, or None: it is played on the embedded core to its last frame as Fuse and SkoolKit play it
    (`RzxPlayer`: a frame whose count falls inside an instruction, or whose readings are not used up, is
    named), and its registers and RAM are then compared with *end*'s."""
    player = RzxPlayer(rzx, rom)
    try:
        player.play(len(rzx.frames), last_interrupt=False)
    except MachineError as exc:
        return str(exc)
    played = z80snap.from_machine(player.m)
    regs = [f"{k} {played.regs[k]:#06x} not {v:#06x}" for k, v in end.regs.items() if played.regs[k] != v]
    ram = [i for i in range(len(end.ram)) if played.ram[i] != end.ram[i]] if played.ram != end.ram else []
    if not regs and not ram and (played.iff1, played.iff2) == (end.iff1, end.iff2):
        return None
    where = [", ".join(regs[:3])] if regs else []
    if ram:
        where.append(f"{len(ram)} bytes of RAM from {0x4000 + ram[0]:#06x}")
    if (played.iff1, played.iff2) != (end.iff1, end.iff2):
        where.append(f"interrupts {'on' if played.iff1 else 'off'} not {'on' if end.iff1 else 'off'}")
    return (f"its {len(rzx.frames)} frames replay, but end elsewhere than the recorded machine: "
            + "; ".join(where))


def check_replays(rzx: Rzx, end: z80snap.Z80Snapshot, name: str, rom: bytes | str | Path | None = None) -> None:
    """A MachineError, in one line naming *name*, when *rzx* does not replay to *end* (`replay_problem`)."""
    problem = replay_problem(rzx, end, rom)
    if problem is not None:
        raise MachineError(f"{name} does not replay: {problem}")
