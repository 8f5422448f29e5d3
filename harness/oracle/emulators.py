"""Other whole Spectrums load our tape: kosarev's `zx` (PyPI) and MAME's `spectrum` driver, headless.

Each returns the 64K (or the screen's 6912 bytes placed in a 64K) it ended with, read back by our screen
reader (harness/spectrum/screen.py) the same way as our own machine's.

* `zx`: ``zx.Spectrum(headless=True)`` (no SDL window, no sound device): its own ROM (zx/roms), its own
  tape player fed the TAP's pulses, ``load_tape`` types LOAD "" and plays the tape to its end; ``run``
  goes on for emulated seconds; ``read(0, 0x10000)`` is its memory. An RZX is played with its own
  player (``_run_file``, the function its command line uses), to the end of the recording.
* MAME (Debian's ``mame``, 0.251 here): ``mame spectrum -video none -sound none -nothrottle`` with our
  ROM as ``spectrum.rom`` (the name and CRC dddee531f its driver asks for) in a private ROM path, the TAP as
  its cassette, and an autoboot Lua script that types LOAD "" (``natkeyboard:post``), presses play on the
  cassette, waits until the tape has run out and some frames more, writes 4000-5AFF to a file and a PNG
  snapshot (``video:snapshot``, which works with ``-video none``) and exits.
"""
from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import MachineError, UsageError

if TYPE_CHECKING:
    from zx import Spectrum

SCREEN_START, SCREEN_END = 0x4000, 0x5B00
#: frames MAME runs after its cassette has ended: the program's start to the title
MAME_AFTER_TAPE = 1500
MAME_BUDGET_S = 900          # wall-clock seconds before the MAME run is stopped with a message
MAME_LUA = """
local m = manager.machine
local cass = nil
for tag, dev in pairs(m.cassettes) do cass = dev end
local frame, ended = 0, nil
emu.register_frame_done(function()
  frame = frame + 1
  if frame == 100 then m.natkeyboard:post('J""\\n') end
  if frame == 200 then cass:play() end
  if frame > 200 and ended == nil and cass.position >= cass.length then ended = frame end
  if ended ~= nil and frame == ended + {after} then
    local space = m.devices[":maincpu"].spaces["program"]
    local f = io.open("{screen}", "wb")
    for a = 0x4000, 0x5AFF do f:write(string.char(space:read_u8(a))) end
    f:close()
    m.video:snapshot()
    print("cribbage-zx: screen written at frame " .. frame)
    m:exit()
  end
  if frame > {max_frames} then print("cribbage-zx: the tape did not end"); m:exit() end
end)
"""


@dataclass(frozen=True)
class Screen:
    memory: bytes            # 64K: the screen at 4000-5AFF (and, from zx, all the rest)
    cpu_s: float             # the emulator's CPU seconds (its process's, for MAME)
    png: Path | None = None  # the emulator's own picture of it, when it makes one (MAME's snapshot)
    pixels: bytes | None = None   # zx's own frame: 352x280 RGBX, its border included


def mame_program() -> str | None:
    return shutil.which("mame") or (str(Path("/usr/games/mame")) if Path("/usr/games/mame").exists() else None)


def mame_title(tape: Path, rom: Path, workdir: Path, max_frames: int = 12_000) -> Screen:
    """MAME's `spectrum` loads *tape* headless; its screen after the tape and MAME_AFTER_TAPE frames."""
    mame = mame_program()
    if mame is None:
        raise UsageError("MAME is not installed (Debian package mame; tools/install-system-deps.sh)")
    roms = workdir / "roms" / "spectrum"
    roms.mkdir(parents=True, exist_ok=True)
    shutil.copy(rom, roms / "spectrum.rom")
    shutil.copy(tape, workdir / "tape.tap")
    screen = workdir / "screen.bin"
    (workdir / "boot.lua").write_text(MAME_LUA.replace("{after}", str(MAME_AFTER_TAPE)).replace(
        "{screen}", str(screen)).replace("{max_frames}", str(max_frames)), encoding="utf-8")
    command = [mame, "spectrum", "-rompath", "roms", "-video", "none", "-sound", "none", "-nothrottle",
               "-cass", "tape.tap", "-snapshot_directory", "snap", "-cfg_directory", "cfg",
               "-nvram_directory", "nvram", "-skip_gameinfo", "-autoboot_script", "boot.lua"]
    start = time.monotonic()
    try:
        done = subprocess.run(command, cwd=workdir, capture_output=True, text=True, timeout=MAME_BUDGET_S,
                              env={"PATH": "/usr/bin:/bin", "HOME": str(workdir), "XDG_RUNTIME_DIR": str(workdir)})
    except subprocess.TimeoutExpired:
        raise MachineError(f"MAME did not finish loading {tape} within {MAME_BUDGET_S} s") from None
    if not screen.exists():
        raise MachineError(f"MAME wrote no screen for {tape} (exit {done.returncode}): "
                           f"{(done.stdout + done.stderr).strip().splitlines()[-3:]}")
    memory = bytearray(0x10000)
    memory[SCREEN_START:SCREEN_END] = screen.read_bytes()
    pngs = sorted((workdir / "snap").rglob("*.png"))
    return Screen(bytes(memory), time.monotonic() - start, pngs[-1] if pngs else None)


def _zx() -> type[Spectrum]:
    """kosarev's zx's Spectrum, or UsageError: an optional oracle."""
    try:
        from zx import Spectrum       # lazy: an optional package, needed only by the zx oracle
    except ImportError:
        raise UsageError("zx is not installed (MIT, kosarev's emulator): pip install -e '.[oracle]'") from None
    return Spectrum


def zx_title(tape: Path, seconds: float = 20.0) -> Screen:
    """zx loads *tape* (LOAD "" typed, the tape played to its end) and runs *seconds* more: its 64K."""
    spectrum = _zx()
    start = time.process_time()
    with spectrum(headless=True) as m:
        m.load_tape(str(tape))
        m.run(duration=seconds, fast_forward=True)
        memory = bytes(m.read(0, 0x10000))
        m.render_screen()
        pixels = bytes(m.get_frame_pixels())
    return Screen(memory, time.process_time() - start, pixels=pixels)


def zx_play_rzx(rzx: Path) -> Screen:
    """zx plays the recording *rzx* to its end: its 64K then."""
    spectrum = _zx()
    from zx._except import EmulationExit  # the end of the playback (lazy: as _zx)
    start = time.process_time()
    with spectrum(headless=True) as m:
        try:
            m._run_file(str(rzx), fast_forward=True)
        except EmulationExit:
            pass
        except Exception as e:        # zx's own errors (a damaged file): one line naming the file
            raise MachineError(f"zx could not play {rzx}: {type(e).__name__}: {e}") from None
        memory = bytes(m.read(0, 0x10000))
    return Screen(memory, time.process_time() - start)


def scratch() -> Path:
    return Path(tempfile.mkdtemp(prefix="cribbage-oracle-"))
