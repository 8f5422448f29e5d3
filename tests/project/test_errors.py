"""One base class for every domain error (harness.errors.HarnessError), and the command line's use of it:
a HarnessError is one line and exit status 2, a bug keeps its traceback."""
from __future__ import annotations

import importlib
import inspect
import pkgutil
import types

import pytest

import harness
from harness import cli, errors
from harness.errors import HarnessError, InputError, MachineError, OutputError, UsageError


def _all_modules() -> list[types.ModuleType]:
    names = [m.name for m in pkgutil.walk_packages(harness.__path__, "harness.")
             if not m.name.endswith(".__main__")]          # a script: importing it runs it
    return [importlib.import_module(n) for n in names]


def foreign_errors(modules) -> list[str]:
    """Exception classes defined in *modules* that do not derive from HarnessError (a stop by a signal,
    cli.Terminated, is a KeyboardInterrupt, not an error)."""
    out = []
    for module in modules:
        for name, obj in vars(module).items():
            if (inspect.isclass(obj) and issubclass(obj, BaseException) and obj.__module__ == module.__name__
                    and not issubclass(obj, (HarnessError, KeyboardInterrupt))):
                out.append(f"{module.__name__}.{name}")
    return out


def test_every_error_class_of_the_package_derives_from_harness_error():
    modules = _all_modules()
    assert len(modules) > 40
    assert foreign_errors(modules) == []


def test_the_walk_finds_a_planted_error_class_and_passes_a_derived_one():
    planted = types.ModuleType("harness.planted")
    exec("class Plain(ValueError): pass\nclass Derived(HarnessError, ValueError): pass\n"
         "from json import JSONDecodeError\n", {"HarnessError": HarnessError, "__name__": "harness.planted"},
         planted.__dict__)
    assert foreign_errors([planted]) == ["harness.planted.Plain"]


#: the handful (harness/errors.py) and the subclasses some caller catches apart, each where it is raised
KINDS = {"HarnessError", "UsageError", "InputError", "OutputError", "MachineError"}
KEPT_APART = {"RunTimeout", "DriverError", "BudgetExceeded", "VariableError", "NoRoom", "CharsetError",
              "StudyError", "IllegalAction", "RefusedVerdict", "Diverged", "BudgetSpent"}


def error_classes(modules) -> dict[str, str]:
    """The HarnessError classes *modules* define: name -> module."""
    return {name: module.__name__ for module in modules for name, obj in vars(module).items()
            if inspect.isclass(obj) and issubclass(obj, HarnessError) and obj.__module__ == module.__name__}


def unlisted_errors(modules) -> list[str]:
    """Error classes that are neither one of the handful nor a kept subclass named in errors.py's docstring."""
    doc = errors.__doc__ or ""
    return sorted(f"{module}.{name}" for name, module in error_classes(modules).items()
                  if name not in KINDS and not (name in KEPT_APART and f"``{name}(" in doc))


def test_the_package_raises_a_handful_of_error_kinds_and_documents_every_one():
    modules = _all_modules()
    found = error_classes(modules)
    assert {n for n, m in found.items() if m == "harness.errors"} == KINDS
    assert unlisted_errors(modules) == []
    assert set(found) == KINDS | KEPT_APART
    for kind in KINDS - {"HarnessError"}:
        assert f"\n{kind} " in errors.__doc__, kind               # a row of the table: who raises, what to do


def test_a_new_error_class_is_caught_and_a_documented_kept_one_is_not():
    planted = types.ModuleType("harness.planted")
    exec("class SweepError(HarnessError): pass\nclass RunTimeout(MachineError): pass\n",
         {"HarnessError": HarnessError, "MachineError": MachineError, "__name__": "harness.planted"},
         planted.__dict__)
    assert unlisted_errors([planted]) == ["harness.planted.SweepError"]


def test_the_kinds_are_what_old_handlers_expect():
    assert issubclass(InputError, ValueError) and issubclass(OutputError, OSError)
    assert not issubclass(UsageError, (ValueError, OSError)) and not issubclass(MachineError, (ValueError, OSError))
    assert str(OutputError(28, "out/report.json: cannot write it: No space left on device")) == (
        "out/report.json: cannot write it: No space left on device")
    assert str(OutputError("out: another run is writing into this folder")) == (
        "out: another run is writing into this folder")


class _Planted(HarnessError):
    pass


def _failing_main(exc: BaseException):
    def main(argv):
        raise exc
    return main


def test_cli_turns_a_harness_error_into_one_line_and_status_2(monkeypatch, capsys):
    monkeypatch.setattr(cli, "main", _failing_main(_Planted("basic/cribbage.bas:12: bad line")))
    with pytest.raises(SystemExit) as stop:
        cli.run([])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err == "cribbage-zx: basic/cribbage.bas:12: bad line\n"


def test_cli_reports_a_file_system_error_in_one_line(monkeypatch, capsys):
    monkeypatch.setattr(cli, "main", _failing_main(FileNotFoundError(2, "No such file or directory", "x.tap")))
    with pytest.raises(SystemExit) as stop:
        cli.run([])
    assert stop.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize("bug", [ValueError("a bug"), KeyError("a bug"), TypeError("a bug")])
def test_cli_lets_a_bug_keep_its_traceback(monkeypatch, bug):
    monkeypatch.setattr(cli, "main", _failing_main(bug))
    with pytest.raises(type(bug)):
        cli.run([])


def test_a_fix_in_the_librarys_terms_is_worded_by_the_command_and_other_errors_pass_as_they_are():
    from harness.commands.cliargs import naming_flags
    from harness.errors import needing
    words = {"replace": lambda m: f"{m}; use --replace to start afresh"}
    with pytest.raises(OutputError) as caught, naming_flags(words):
        raise needing(OutputError("out/x holds a different sweep"), "replace")
    assert str(caught.value) == "out/x holds a different sweep; use --replace to start afresh"
    with pytest.raises(InputError) as caught, naming_flags(words):       # near misses: another fix, none
        raise needing(InputError("no reading of line 10"), "entries")
    assert str(caught.value) == "no reading of line 10"
    with pytest.raises(MachineError) as caught, naming_flags(words):
        raise MachineError("the program stopped")
    assert str(caught.value) == "the program stopped"


#: messages of harness/program, harness/runtime and harness/play that still name a command-line option (issue 33
#: item 6; play's 17, session 13 and record 4, worded by its command in issue 50):
#: the count may only fall; the commands word the fix (errors.needing, commands/cliargs.naming_flags)
#: (22 before sweep's, readings' and snapshot's four were worded by their commands)
#: (jobs.py's 11 are cluster.py's 5 and scheduler.py's 6 since the runner was split by concern)
FLAG_MESSAGES = {"harness/runtime/cluster.py": 5, "harness/runtime/outdir.py": 5, "harness/runtime/scheduler.py": 6}


def flag_messages(source: str) -> int:
    """The raise statements of *source* whose message (a string or f-string) names an option (--word)."""
    import ast
    import re
    found = 0
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Raise) and node.exc is not None:
            texts = [n.value for n in ast.walk(node.exc) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
            found += any(re.search(r"(^|[\s(`'\"])--[a-z]", t) for t in texts)
    return found


def test_library_messages_name_no_option_beyond_those_counted():
    from pathlib import Path
    root = Path(harness.__file__).resolve().parent.parent
    counts = {}
    for folder in ("harness/program", "harness/runtime", "harness/play"):      # play: none since issue 50
        for path in sorted((root / folder).rglob("*.py")):
            n = flag_messages(path.read_text(encoding="utf-8"))
            if n:
                counts[str(path.relative_to(root))] = n
    grown = {k: v for k, v in counts.items() if v > FLAG_MESSAGES.get(k, 0)}
    assert not grown, f"library messages naming an option: {grown} (counted: {FLAG_MESSAGES})"
    assert counts == FLAG_MESSAGES, f"fewer library messages name an option now: lower FLAG_MESSAGES to {counts}"
    assert flag_messages('raise OutputError(f"{x}; use --replace")\n') == 1
    assert flag_messages('raise OutputError(f"{x} holds a sweep")\nprint("--replace")\n') == 0   # near miss


def test_the_readings_command_names_entries_for_a_line_without_a_reading(tmp_path):
    """The library says which lines have no reading; the command names its --entries (the near miss: a
    line with a reading is not refused, tests/test_readings.py runs such a selection)."""
    from harness.commands import readings as readings_cmd
    with pytest.raises(InputError) as caught:
        readings_cmd.main(["--entries", "1", "--out", str(tmp_path / "r.json")])
    assert str(caught.value) == "--entries: no reading of line(s) 1 in basic/readings.toml"
    assert caught.value.fix is None                           # worded: the command's own error now
