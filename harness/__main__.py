"""`python -m harness COMMAND ARGS`: the same as `cribbage-zx COMMAND ARGS` (for a checkout without the script)."""
from .cli import run

run()
