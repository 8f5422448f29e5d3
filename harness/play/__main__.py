"""`python -m harness.play ARGS`: the same as `cribbage-zx play ARGS`."""
import sys

from .command import main

sys.exit(main(sys.argv[1:]))
