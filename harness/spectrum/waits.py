"""The embedded Spectrum's wait detector: whether the program is waiting for a key, and for what.

Waits for a key are judged (`wait_state`) only at frame ends where one is possible: the ROM's WAIT-KEY
(0x15D4, the only way into the editor's and INPUT's key loop) and PAUSE's HALT (0x1F3D, the only way into
PAUSE's loop) are traps that raise a flag, cleared at the first frame end outside the routine (WAIT-KEY:
its return address no longer on the stack at all; PAUSE, which calls nothing: PC out of its loop); INKEY$
polls are counted by the S_INKEY trap. Elsewhere a frame end costs one test. The result is the same as
judging every frame end.

A part of `Spectrum48` (machine.py), which inherits it and sets the traps.
"""
from __future__ import annotations

from .core import Core
from .keyboard import Keyboard
from .machine_types import WaitState
from .memory_access import MachineMemory

# ROM addresses ("The Complete Spectrum ROM Disassembly")
WAIT_KEY = 0x15D4         # WAIT-KEY: the editor's and INPUT's wait for a key starts here (every CALL and JR)
WAIT_KEY1 = (0x15DE, 0x15E6)   # WAIT-KEY1: CALL INPUT-AD; RET C; JR Z,WAIT-KEY1
WAIT_KEY1_RET = 0x15E1         # its return address while INPUT-AD/KEY-INPUT look for a key
WAIT_KEY1_RET_BYTES = WAIT_KEY1_RET.to_bytes(2, "little")
PAUSE_RANGE = (0x1F3D, 0x1F4F)


class WaitDetector(MachineMemory):
    """Judges at a frame end what the program waits for; the traps below keep the judging rare."""

    cpu: Core
    keyboard: Keyboard

    def _trap_inkey(self) -> bool:
        """S_INKEY: note the frame of an INKEY$ that finds no key (two in six frames: a polling loop)."""
        if self.keyboard.any_pressed():
            return False          # a poll that finds a key is being answered, not waiting
        seen = self.s.inkey_frames
        if not seen or seen[-1] != self.s.frames:
            seen.append(self.s.frames)
            del seen[:-4]
        return False

    def _trap_wait_key(self) -> bool:
        """WAIT-KEY entered: the editor or INPUT may wait (judged at frame ends until it has returned)."""
        self.s.maybe_key_wait = True
        return False

    def wait_state(self) -> WaitState | None:
        """What the program is waiting for right now, judged at a frame boundary."""
        if self.keyboard.any_pressed():
            return None
        pc = self.cpu.pc
        line, stmt = self.ppc, self.subppc
        if self._in_wait_key() and not self.peek("FLAGS") & 0x20:
            return WaitState("input" if self.peek("FLAGX") & 0x20 else "editor", line, stmt)
        if PAUSE_RANGE[0] <= pc < PAUSE_RANGE[1] and self.cpu.get("bc") == 0:
            return WaitState("pause", line, stmt)
        # INKEY$ polled in at least two of the last six frames: a BASIC loop waiting for a key
        # (one pass of a loop far down a long program can take more than a frame: GO TO searches)
        recent = [f for f in self.s.inkey_frames if f >= self.s.frames - 6]
        if len(recent) >= 2:
            return WaitState("inkey", line, stmt)
        return None

    def _maybe_waiting(self) -> bool:
        """False when wait_state() is sure to be None at this frame end: not in WAIT-KEY's loop nor PAUSE's
        since their traps last fired, and INKEY$ polled in fewer than two of the last six frames."""
        s = self.s
        if s.maybe_key_wait:
            if self._inside_wait_key():
                return True
            s.maybe_key_wait = False     # out of the loop: only WAIT-KEY (a trap) leads back in
        if s.maybe_pause:
            if PAUSE_RANGE[0] <= self.cpu.pc < PAUSE_RANGE[1]:
                return True
            s.maybe_pause = False        # out of the loop: only its HALT at PAUSE_1 (a trap) leads back in
        seen = s.inkey_frames            # ascending frame numbers
        return len(seen) >= 2 and seen[-2] >= s.frames - 6

    def _inside_wait_key(self) -> bool:
        """Somewhere in WAIT-KEY or below it, however deep (INPUT-AD's return address anywhere in the
        512 bytes above SP, at any alignment; the editor moves ERR_SP below it while it prints): a
        superset of _in_wait_key, true until WAIT-KEY has returned (or by chance, which costs only time)."""
        pc = self.cpu.pc
        if WAIT_KEY <= pc < WAIT_KEY1[1]:
            return True
        sp = self.cpu.get("sp")
        return WAIT_KEY1_RET_BYTES in bytes(self.mem[sp:min(sp + 512, 0x10000)])

    def _in_wait_key(self) -> bool:
        """In the editor's WAIT-KEY1 loop, or below it in INPUT-AD/KEY-INPUT (its return address is on
        the stack). PC ranges alone would also match printing, which shares CALL-SUB with INPUT-AD."""
        pc = self.cpu.pc
        if WAIT_KEY1[0] <= pc < WAIT_KEY1[1]:
            return True
        sp = self.cpu.get("sp")
        mem = self.mem
        return any((mem[(sp + i) & 0xFFFF] | mem[(sp + i + 1) & 0xFFFF] << 8) == WAIT_KEY1_RET
                   for i in range(0, 12, 2))

