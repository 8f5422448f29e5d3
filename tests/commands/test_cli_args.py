"""The command line: --help everywhere, usage without a command, and every number range-checked by name."""
import checkout
import subprocess
import sys

import pytest

from harness.errors import UsageError
from harness import cli
from harness.commands.cliargs import int_in
from harness.commands import regress as regress_command
from harness.commands import sweep as sweep_command

ROOT = checkout.ROOT


def _cli(*args, timeout=60):
    return subprocess.run([sys.executable, "-m", "harness.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


def test_help_exits_zero_and_lists_every_command():
    done = _cli("--help")
    assert done.returncode == 0, done.stderr
    for name in ("build", "regress", "sweep", "snapshot", "bench", "stats"):
        assert name in done.stdout


@pytest.mark.parametrize("command", sorted(cli.COMMANDS))
def test_each_command_has_help(command, capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main([command, "--help"])
    assert exit_.value.code == 0
    assert f"cribbage-zx {command}" in capsys.readouterr().out


def test_bench_help_exits_zero_from_the_shell():
    done = _cli("bench", "--help")
    assert done.returncode == 0 and "--runner" in done.stdout, done.stderr


def test_no_command_prints_usage_and_exits_2():
    done = _cli()
    assert done.returncode == 2
    assert "usage: cribbage-zx" in done.stderr and "COMMAND" in done.stderr


def test_an_unknown_command_is_one_line_and_exit_2():
    done = _cli("regres")
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "regres" in done.stderr


BAD = [
    (["sweep", "show", "--limit", "-5"], "--limit: -5 is not at least 1"),
    (["sweep", "show", "--limit", "0"], "--limit: 0 is not at least 1"),
    (["sweep", "show", "--workers", "0"], "--workers: 0 is not in 1..512"),
    (["sweep", "discard", "--samples", "0"], "--samples: 0 is not in 1..10000000"),
    (["sweep", "play", "--max-suffix", "8"], "--max-suffix: 8 is not in 1..7"),
    (["sweep", "play", "--sample", "-1"], "--sample: -1 is not at least 0"),
    (["sweep", "show", "--chunk", "0"], "--chunk: 0 is not in 1..100000"),
    (["regress", "--games", "0"], "--games: 0 is not in 1..100000"),
    (["regress", "--workers", "0"], "--workers: 0 is not in 1..512"),
    (["regress", "--seed", "65536"], "--seed: 65536 is not in 0..65535"),
    (["regress", "--games", "two"], "--games: 'two' is not a whole number"),
    (["snapshot", "--at", "10000", "x.z80"], "--at: 10000 is not in 0..9999"),
    (["snapshot", "--at", "10", "--max-frames", "0", "x.z80"], "--max-frames: 0 is not in 1..10000000"),
    (["bench", "--runner", "--workers", "1"], "--workers: 1 is not in 2..512"),
    (["build", "--wav-bits", "24"], "--wav-bits"),
]


@pytest.mark.parametrize("argv,message", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_a_number_out_of_range_names_its_option(argv, message):
    with pytest.raises(UsageError, match=message.replace(".", r"\.")):
        cli.build_parser().parse_args(argv)


def test_the_shell_sees_one_line_and_exit_2_for_a_bad_number():
    done = _cli("sweep", "show", "--limit", "-5")
    assert done.returncode == 2
    assert done.stderr.strip() == "cribbage-zx sweep: argument --limit: -5 is not at least 1"


GOOD = [
    (["sweep", "show", "--limit", "1", "--workers", "1"], {"limit": 1, "workers": 1}),
    (["sweep", "discard", "--samples", "1"], {"samples": 1}),
    (["sweep", "play", "--max-suffix", "7", "--sample", "0"], {"max_suffix": 7, "sample": 0}),
    (["regress", "--games", "1", "--seed", "65535", "--workers", "1"], {"games": 1, "seed": 65535}),
    (["regress", "--seed", "0"], {"seed": 0}),
    (["snapshot", "--at", "9999", "x.z80"], {"at": 9999}),
    (["snapshot", "--at", "0", "x.z80"], {"at": 0}),
]


@pytest.mark.parametrize("argv,expected", GOOD, ids=[" ".join(a) for a, _ in GOOD])
def test_the_bounds_themselves_are_accepted(argv, expected):
    args = cli.build_parser().parse_args(argv)
    assert {k: getattr(args, k) for k in expected} == expected


def test_module_mains_raise_their_own_errors():
    with pytest.raises(UsageError, match="--workers: 0"):
        sweep_command.main(["show", "--workers", "0"])
    with pytest.raises(UsageError, match="--games: -1"):
        regress_command.main(["--games", "-1"])


def test_int_in_messages():
    assert int_in(1)("7") == 7
    for text, message in (("0", "0 is not at least 1"), ("x", "'x' is not a whole number")):
        with pytest.raises(Exception, match=message):
            int_in(1)(text)
    with pytest.raises(Exception, match="9 is more than 8"):
        int_in(None, 8)("9")


FORKED_WORKER = """
import os, signal, sys, time
from harness import cli
cli._COMMAND_PID = os.getpid()
for sig in (signal.SIGTERM, signal.SIGHUP):
    signal.signal(sig, cli._terminated)
pid = os.fork()
if pid == 0:                                   # a worker forked by the command: its parent's handler, inherited
    time.sleep(30)
    os._exit(0)
time.sleep(0.2)
os.kill(pid, signal.SIGTERM)
_, status = os.waitpid(pid, 0)
print(os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM)
try:
    os.kill(os.getpid(), signal.SIGTERM)       # the command itself: Terminated, as Ctrl-C
    time.sleep(5)
    print("not stopped")
except cli.Terminated as exc:
    print("terminated", exc.signum == signal.SIGTERM)
"""


def test_a_forked_worker_dies_of_sigterm_quietly_and_the_command_is_terminated():
    """A worker forked from the command inherits its SIGTERM handler; stopped by its parent it dies of the
    signal with nothing on stderr (not a Terminated traceback from inside fork's clean-up), while the
    command's own process still turns SIGTERM into Terminated."""
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", FORKED_WORKER], capture_output=True, text=True, timeout=60,
                          cwd=checkout.ROOT)
    assert done.stderr == ""
    assert done.stdout.split("\n")[:2] == ["True", "terminated True"]
