"""`python -m harness.play ARGS`: the same as `cribbage-zx play ARGS`."""
import sys

from .command import PROG, main

try:
    code = main(sys.argv[1:])
except KeyboardInterrupt:                   # Ctrl-C: the window is closed on the way out (Window.run's finally)
    print(f"{PROG}: interrupted", file=sys.stderr)
    code = 130
sys.exit(code)
