"""Type on the 48K's keyboard and read the screen back as text: PRINT "HI";2+3 in the ROM's editor.

    python examples/type_and_read.py
"""
from harness.spectrum import Spectrum48, read_screen, rom_char

machine = Spectrum48(fast=True)
machine.boot()                                          # the © message, the editor waiting in K mode
print(read_screen(machine.mem, font_text=rom_char).rows[23].rstrip())

# a key at a time, as the keyboard has them: P in K mode is PRINT; SYMBOL SHIFT+P is ", +O is ;, +K is +
for key in ["P", "SYMBOL SHIFT+P", "CAPS SHIFT+H", "CAPS SHIFT+I", "SYMBOL SHIFT+P", "SYMBOL SHIFT+O",
            "2", "SYMBOL SHIFT+K", "3"]:
    machine.tap(key)                                    # pressed, held two frames, released, a gap
print("typed:", read_screen(machine.mem, font_text=rom_char).rows[23].rstrip())

machine.tap("ENTER")
machine.run_until_wait()                                # the line runs; the ROM waits again
screen = read_screen(machine.mem, font_text=rom_char)   # every cell matched against the ROM's font
print("row 0:", screen.rows[0].rstrip())
print("row 23:", screen.rows[23].rstrip())              # the report: 0 OK, 0:1
