"""`cribbage-zx play`: the game in a window on the embedded Spectrum, with an optional live referee panel.

keymap: host keys -> Spectrum keys; beeper: the ear bit as sound; session: the
machine, keys, screen and referee as one steppable object (no clock, so tests
drive it frame by frame); referee: the panel's text from the comparison's
judgements; command: the real-time window loop and the command line.
"""
