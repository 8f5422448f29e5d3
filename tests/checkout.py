"""Where the checkout's files are, for the tests in any folder of tests/: the checkout itself, tests/ and its data."""
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
DATA = TESTS / "data"
