"""Independent oracles: other Z80 cores and other Spectrum emulators, set beside ours.

* `conformance`: every opcode of every prefix group, one instruction from seeded random states, on our
  core (the z80 package behind harness/spectrum/cpu.py), the certified pure-Python core `z80-python` and
  SkoolKit's simulator; every register, memory write, port access and T-state compared.
* `lockstep`: our workload (the tape's LOAD, the title, the first deal) run instruction by instruction on
  our core and on `z80-python`, the registers and written bytes compared after each.
* `emulators`: kosarev's `zx` (its own tape loader and RZX player) and MAME's `spectrum` driver load our
  tape headless; their screens are read back with our screen reader.

A views-layer package (beside bench, which times the cores): it reads the machine (spectrum) and the
program's tape and recordings (game), and nothing above.
"""
