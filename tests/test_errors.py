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
