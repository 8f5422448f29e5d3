"""`cribbage-zx play` (the command line: harness/commands/play.py): the game in a window on the embedded
Spectrum, with a live referee panel.

settings: what a session is built from (`PlaySettings`, frozen and checked); session: the machine, keys,
screen and referee as one steppable object (no clock, so tests drive it frame by frame); window: the
real-time loop, paced at real time or turbo, and the window's own keys; panel: what the window draws beside,
under and over the screen; referee: the panel's lines from the comparison's judgements; hint: the engine's
advice at a wait; waits: what the program waits for, in words; translate: the English of the screen's
Russian; cards: cards as the window writes them; keymap: host keys -> Spectrum keys; beeper: the ear bit as
sound; record: a game's keys recorded and replayed, and a moment's hash; slots: the save slots and the
sidecar beside each .z80; saved: a session saved from play.html, opened by --load. The package names no
option in what it raises: the command words its refusals (`errors.needing`, `FLAG_WORDS`).
"""
