"""The machine's tests: a machine in fast mode, and a machine on each CPU core (one suite over two CPUs; SkoolKit's
core only where the oracles are selected)."""
from __future__ import annotations

import pytest

from harness.spectrum.machine import Spectrum48


def pytest_generate_tests(metafunc) -> None:
    """A test asking for `cpu_core` runs on each core: the z80 package's, and SkoolKit's simulator (another
    core: an oracle) wherever the oracles are selected (`make test-all`; tests/tiers.py)."""
    if "cpu_core" in metafunc.fixturenames:
        from tiers import oracles_selected
        cores = ["z80", "skoolkit"] if oracles_selected(metafunc.config) else ["z80"]
        metafunc.parametrize("cpu_core", cores, indirect=True, scope="session")


@pytest.fixture(scope="session")
def cpu_core(request):
    """Each CPU core the machine runs on (harness/program/runs/loaded.py CORES): the z80 package's, then
    SkoolKit's simulator (several times slower; needs the 'oracle' extra). A test asking for it, or for
    core_machine, runs once on each: one suite over two CPUs."""
    from harness.program.runs.loaded import CORES, core_class
    assert request.param in CORES
    if request.param == "skoolkit":
        pytest.importorskip("skoolkit.simulator", reason="SkoolKit (the 'oracle' extra) is not installed")
    return core_class(request.param)


@pytest.fixture(scope="session")
def booted_on_core(cpu_core):
    """One boot per core per session (a snapshot is the core's own: it restores on that core only)."""
    m = Spectrum48(core=cpu_core)
    m.boot()
    return m.snapshot()


@pytest.fixture
def core_machine(cpu_core, booted_on_core):
    """A freshly booted machine on each core in turn."""
    m = Spectrum48(core=cpu_core)
    m.restore(booted_on_core)
    return m


@pytest.fixture
def core_fast_machine(cpu_core, booted_on_core):
    m = Spectrum48(fast=True, core=cpu_core)
    m.restore(booted_on_core)
    return m


@pytest.fixture
def fast_machine(booted_snapshot):
    m = Spectrum48(fast=True)
    m.restore(booted_snapshot)
    return m
