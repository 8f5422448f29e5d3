"""argparse that raises the command's domain error instead of exiting, and range-checked numbers.

Every command is an argparse subcommand of `cribbage-zx` (see cli.py) and can
also be called as ``module.main(argv)`` from tests; either way a bad argument
is one line naming the option, never a traceback or a silent default.
"""
from __future__ import annotations

import argparse
import difflib
import math
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, NoReturn, Sequence

from ..errors import HarnessError
from ..runtime.validate import quoted

if TYPE_CHECKING:
    from ..runtime.jobs import SchedulerAddress


class ArgParser(argparse.ArgumentParser):
    def __init__(self, *args: Any, error_class: type[Exception] = ValueError, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._error_class = error_class

    def error(self, message: str) -> NoReturn:  # argparse would print usage and sys.exit(2)
        raise self._error_class(f"{self.prog}: {message}")

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        ns, rest = super().parse_known_args(args, namespace)
        if getattr(ns, "_runner_options", False):       # options that are checked together (see below)
            ns._runner_options = False
            _check_runner_options(ns, self.error)
        return ns, rest

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        """As argparse's, but an option it does not know is answered with the nearest it does."""
        ns, rest = self.parse_known_args(args, namespace)
        if rest:
            known = self._known_options(getattr(ns, "command", None))
            self.error(f"unrecognized arguments: {' '.join(rest)}" + did_you_mean(
                [arg.split("=", 1)[0] for arg in rest if arg.startswith("-")], known))
        return ns

    def _known_options(self, command: str | None) -> list[str]:
        """Every option string of this parser and of the subcommand *command* chosen on the line."""
        known: list[str] = []
        for action in self._actions:
            known += action.option_strings
            if isinstance(action, argparse._SubParsersAction) and command in action.choices:
                known += [o for a in action.choices[command]._actions for o in a.option_strings]
        return known

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        try:
            super()._check_value(action, value)
        except argparse.ArgumentError as exc:
            if isinstance(value, str) and action.choices is not None:
                exc.message += did_you_mean([value], [str(c) for c in action.choices])
            raise


def did_you_mean(given: Sequence[str], known: Sequence[str]) -> str:
    """" (did you mean X?)" for the nearest of *known* to any of *given* (difflib's ratio 0.6 or more), else ""."""
    for word in given:
        near = difflib.get_close_matches(word, known, n=1)
        if near:
            return f" (did you mean {near[0]}?)"
    return ""


def int_in(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number within [low, high] (either bound may be open).

    argparse puts the option's name in front of the message: ``argument --limit: -5 is not
    at least 1``.
    """
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{quoted(text)} is not a whole number") from None
        if low is not None and high is not None and not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not in {low}..{high}")
        if low is not None and value < low:
            raise argparse.ArgumentTypeError(f"{value} is not at least {low}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"{value} is more than {high}")
        return value
    parse.__name__ = "whole number"
    return parse


def float_in(low: float, high: float | None = None, open_low: bool = True) -> Callable[[str], float]:
    """An argparse type: a finite number above *low* (or at least, if not *open_low*) and at most *high*
    (nan and inf are refused: "no limit" is the option left out)."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{quoted(text)} is not a number") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"{quoted(text)} is not a finite number")
        if (value <= low if open_low else value < low) or (high is not None and value > high):
            bound = f"more than {low}" if open_low else f"at least {low}"
            raise argparse.ArgumentTypeError(f"{text} is not {bound}" + (f" and at most {high}" if high else ""))
        return value
    parse.__name__ = "number"
    return parse


def command_parser(module: ModuleType, prog: str, error_class: type[Exception]) -> ArgParser:
    """The parser of one command, for its ``main(argv)``: the same arguments as under `cribbage-zx`."""
    parser = ArgParser(prog=prog, description=(module.__doc__ or "").strip().splitlines()[0],
                       error_class=error_class)
    module.add_arguments(parser)
    return parser


def add_runner_options(parser: argparse.ArgumentParser, jobs: str) -> None:
    """--workers and --scheduler, as every command that hands its *jobs* to the job runner takes them."""
    import os
    parser.add_argument("--workers", type=int_in(1, 512), default=min(2, os.cpu_count() or 1),
                        help="worker processes (default: 2, or 1 on a one-core machine)")
    parser.add_argument("--scheduler", metavar="ADDRESS", type=_scheduler_address,
                        help=f"run the {jobs} on a Dask cluster: 'local' for a LocalCluster of --workers "
                             "processes on this machine (loopback, TLS with a temporary certificate), or a "
                             "scheduler's address, tls://HOST:8786 (with the --tls-* files) or tcp://HOST:8786 "
                             "(on this machine, or anywhere with --insecure)")
    parser.add_argument("--tls-ca-file", metavar="PEM", help="the CA certificate that signed the scheduler's")
    parser.add_argument("--tls-cert", metavar="PEM", help="this client's certificate (for a tls:// scheduler)")
    parser.add_argument("--tls-key", metavar="PEM", help="this client's private key (for a tls:// scheduler)")
    parser.add_argument("--insecure", action="store_true",
                        help="allow a plain tcp:// scheduler off this machine (anyone who can reach it, or the "
                             "network between, can run code on its workers and in this process)")
    parser.set_defaults(_runner_options=True)


def _scheduler_address(text: str) -> SchedulerAddress:
    from ..runtime.jobs import parse_scheduler
    try:
        return parse_scheduler(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
_scheduler_address.__name__ = "scheduler address"


def _check_runner_options(ns: argparse.Namespace, error: Callable[[str], NoReturn]) -> None:
    """--scheduler with its TLS files and --insecure, checked together (jobs.checked_scheduler)."""
    from ..runtime.jobs import checked_scheduler
    try:
        ns.scheduler = checked_scheduler(ns.scheduler, ns.tls_ca_file, ns.tls_cert, ns.tls_key, ns.insecure)
    except ValueError as exc:
        error(str(exc))

def add_accelerate_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--accelerate", action="store_true",
                        help="answer the ROM's LINE-ADDR from a cache of its own results (the same games, "
                             "frames and screens in less CPU; harness/spectrum/accelerate.py); default: the plain ROM")


@contextmanager
def naming_flags(words: Mapping[str, Callable[[str], str]]) -> Iterator[None]:
    """Library code run by a command: an error it marked with a fix in its own terms (errors.needing) that
    *words* knows is raised again, of the same class, as ``words[fix](message)``: the command names its flag.
    Any other error passes as it is."""
    try:
        yield
    except HarnessError as exc:
        word = words.get(exc.fix) if exc.fix is not None else None
        if word is None:
            raise
        raise type(exc)(word(str(exc))) from None
