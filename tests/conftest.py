"""Shared fixtures: a booted 48K is the starting point of most emulator tests."""
from __future__ import annotations

import pytest

from harness.spectrum.machine import Spectrum48

pytest_plugins = ["cpu_durations"]      # pytest --cpu-durations=N: the costliest tests by CPU time


@pytest.fixture(scope="session")
def built_tape():
    """The game's tape, built once for the whole test run (harness.build.build(): a Build)."""
    from harness.build import build
    return build()


@pytest.fixture(scope="session")
def booted_snapshot():
    m = Spectrum48()
    m.boot()
    return m.snapshot()


@pytest.fixture
def machine(booted_snapshot):
    """A freshly booted machine (restored from one boot per session)."""
    m = Spectrum48()
    m.restore(booted_snapshot)
    return m


@pytest.fixture
def fast_machine(booted_snapshot):
    m = Spectrum48(fast=True)
    m.restore(booted_snapshot)
    return m
