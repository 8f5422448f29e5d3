"""argparse that raises the command's domain error instead of exiting, so every command is testable."""
from __future__ import annotations

import argparse


class ArgParser(argparse.ArgumentParser):
    def __init__(self, *args, error_class: type[Exception] = ValueError, **kwargs):
        super().__init__(*args, **kwargs)
        self._error_class = error_class

    def error(self, message: str):  # argparse would print usage and sys.exit(2)
        raise self._error_class(f"{self.prog}: {message}")
