"""Every command the README shows works right after `make run`: each `cribbage-zx ...` it shows is accepted by
the tool's own parser (placeholders given a value; nothing is run), every option it names is some command's,
every tape it loads is one `make run` builds, and `make run` itself echoes nothing but the project's lines.
(Every command it shows is run after `make run` on a clean copy, Fuse's to the title, by
tests/oracles/tools/test_make_run.py.)"""
from __future__ import annotations

import re
import shlex

import pytest

from harness import cli
from harness.errors import InputError, UsageError
from helpers import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
MAKEFILE = (ROOT / "Makefile").read_text(encoding="utf-8")
#: what a placeholder of the README stands for when its command is parsed
PLACEHOLDERS = {"DIR": "out/regress", "N": "1", "COMMAND": "build"}
#: the tape `cribbage-zx build` writes by default, by its --lang (docs/PLAYING.md's table says the same)
BUILT_BY = {"": "build/cribbage.tap", "en": "build/cribbage-en.tap"}


def shown_commands(readme: str) -> list[str]:
    """The cribbage-zx command lines of the README: inline code spans and lines of its code blocks."""
    spans = re.findall(r"`([^`\n]+)`", readme) + re.findall(r"^[^`\n]*$", readme, re.M)
    out = []
    for text in spans:
        m = re.match(r"^\s*(?:\.venv/bin/)?cribbage-zx(?: (.*))?$", text.strip())
        if m and (m[1] or "").split()[:1] != ["COMMAND"]:
            out.append(m[1] or "")
    return out


def refused(command: str) -> str | None:
    """Why the tool's parser refuses *command* (its arguments after cribbage-zx), or None."""
    argv = [PLACEHOLDERS.get(a, a.split("|")[0]) for a in shlex.split(command)]
    if "--help" in argv or "--version" in argv or not argv:
        return None
    try:
        cli.build_parser(argv[0] if argv[0] in cli.COMMANDS else "").parse_args(argv)
    except (UsageError, InputError) as exc:           # InputError: a path the parser checks as it parses
        return f"cribbage-zx {command}: {exc}"
    return None


def every_option() -> set[str]:
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return {o for a in parser._actions for o in a.option_strings} | {
        o for p in sub.choices.values() for a in p._actions for o in a.option_strings}


def run_recipe(makefile: str) -> list[str]:
    """The lines of the `run` target's recipe, as make runs them."""
    m = re.search(r"^run:[^\n]*\n((?:\t[^\n]*\n)+)", makefile, re.M)
    assert m, "the Makefile has no run target"
    return [line[1:] for line in m[1].splitlines()]


def tapes_made(makefile: str) -> set[str]:
    made = set()
    for line in run_recipe(makefile):
        m = re.search(r"cribbage-zx build(?P<rest>[^#]*)", line)
        if m and "-o" not in m["rest"].split() and "--out" not in m["rest"]:
            lang = re.search(r"--lang (\w+)", m["rest"])
            made.add(BUILT_BY["" if lang is None or lang[1] == "ru" else lang[1]])
    return made


def tapes_loaded(readme: str) -> set[str]:
    return {re.sub(r"^(\.\./)+", "", t) for t in re.findall(r"(?:\.\./)*build/[\w.-]+\.tap", readme)}


def noisy_recipe_lines(makefile: str) -> list[str]:
    """Recipe lines of `run` and of the install it depends on that make would echo, and pip installs
    that are not -qq (pip -q still passes setuptools' editable-install warning on)."""
    install = re.search(r"^\$\(STAMP\):[^\n]*\n((?:\t[^\n]*\n)+)", makefile, re.M)
    lines = run_recipe(makefile) + [line[1:] for line in (install[1].splitlines() if install else [])]
    return [line for line in lines if not line.startswith("@")
            or ("pip install" in line and " -qq " not in f" {line} ")]


#: what `make run` leaves in the checkout, which the README's later commands read (the parser checks that an input
#: exists as it parses: here, before make run, only these may be missing)
MADE_BY_MAKE_RUN = re.compile(r": (--[a-z-]+ )?(out|build)/[^:]*: no such (file|folder)")


def test_every_command_the_readme_shows_is_accepted():
    commands = shown_commands(README)
    assert len(commands) >= 8 and "build --lang en" in commands
    assert [why for c in commands if (why := refused(c)) and not MADE_BY_MAKE_RUN.search(why)] == []
    assert MADE_BY_MAKE_RUN.search("cribbage-zx html --report out/regress: --report out/regress: no such folder")
    assert not MADE_BY_MAKE_RUN.search("cribbage-zx html --report notes: --report notes: no such folder")


def test_a_mistyped_command_or_option_in_the_readme_is_caught():
    assert refused("regres --seed 1") is not None and refused("regress --sed 1") is not None
    assert refused("regress --seed N") is None and refused("sweep show|play|discard") is None    # near misses


def test_every_option_the_readme_names_is_an_option_of_the_tool():
    named = set(re.findall(r"`(--[a-z][a-z0-9-]*)", README))
    assert named and sorted(named - every_option()) == []
    assert "--turbo" in every_option() and "--turbos" not in every_option()


def test_every_tape_the_readme_loads_is_one_make_run_builds():
    assert tapes_loaded(README) <= tapes_made(MAKEFILE) == {"build/cribbage.tap", "build/cribbage-en.tap"}
    without_en = MAKEFILE.replace("\t@$(VENV)/bin/cribbage-zx build --lang en\n", "")
    assert without_en != MAKEFILE and tapes_made(without_en) == {"build/cribbage.tap"}     # planted: caught
    assert "build/cribbage-en.tap" in tapes_loaded(README)


def test_make_run_echoes_nothing_but_the_projects_lines():
    assert noisy_recipe_lines(MAKEFILE) == []
    planted = MAKEFILE.replace("\t@$(VENV)/bin/cribbage-zx build\n", "\t$(VENV)/bin/cribbage-zx build\n")
    assert planted != MAKEFILE and noisy_recipe_lines(planted) == ["$(VENV)/bin/cribbage-zx build"]
    loud_pip = MAKEFILE.replace("pip install -qq -e", "pip install -q -e")
    assert loud_pip != MAKEFILE and len(noisy_recipe_lines(loud_pip)) == 1


@pytest.mark.parametrize("placeholder", sorted(PLACEHOLDERS))
def test_each_placeholder_is_one_the_readme_uses(placeholder):
    assert re.search(rf"`[^`]*\b{placeholder}\b[^`]*`", README)
