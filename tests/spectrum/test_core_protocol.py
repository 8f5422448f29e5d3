"""The CPU core seam (harness/spectrum/core.py): every core the machine runs on satisfies the `Core` Protocol,
at run time and for mypy; the Protocol names everything the harness uses of a core; the code that reads the
z80 package's packed state refuses another core in one line; mypy reads our stub of the z80 package."""
from __future__ import annotations

import checkout
import re

import pytest

from harness.spectrum import cpu as cpu_module
from harness.spectrum import z80snap
from harness.spectrum.accelerate import accelerate
from harness.errors import MachineError
from harness.spectrum.core import Core, PackedStateCore
from harness.spectrum.cpu import Z80Core
from harness.spectrum.machine import Spectrum48
from harness.spectrum.recording import CountingCore

ROOT = checkout.ROOT


def _skoolkit(python: bool) -> Core:
    pytest.importorskip("skoolkit.simulator", reason="SkoolKit (the 'oracle' extra) is not installed")
    from harness.spectrum.skoolcore import SkoolKitCore
    return SkoolKitCore(python=python)


def _members(protocol: type) -> set[str]:
    return {name for name in dir(protocol) if not name.startswith("_")}


@pytest.mark.parametrize("make", [Z80Core, CountingCore, lambda: _skoolkit(False), lambda: _skoolkit(True)],
                         ids=["z80", "counting", "skoolkit-c", "skoolkit-python"])
def test_every_core_is_a_core_and_only_the_z80_ones_offer_the_packed_state(make):
    core = make()
    assert isinstance(core, Core)
    assert isinstance(core, PackedStateCore) == isinstance(core, Z80Core)


def test_a_core_missing_one_method_is_not_a_core_and_the_same_core_with_it_is():
    class Complete:
        name, memory, pc, iff1, int_blocked = "fake", bytearray(0x10000), 0, False, False

        def __getattr__(self, attr: str):             # anything else the Protocol asks for: a method
            if attr in _members(Core):
                return lambda *args: None
            raise AttributeError(attr)

    class NoInterrupt(Complete):
        def __getattr__(self, attr: str):
            if attr == "interrupt":
                raise AttributeError(attr)
            return super().__getattr__(attr)

    assert isinstance(Complete(), Core)
    assert not isinstance(NoInterrupt(), Core)


def _outside_the_protocol(sources: dict[str, str]) -> dict[str, list[str]]:
    """The attributes read of a `cpu` in *sources* (path -> text) that the Protocol does not name, by file:
    Core's members anywhere, PackedStateCore's in the accelerator (and its recording of LINE-ADDR's table),
    its CountingCore's in the recorder."""
    allowed = {"harness/spectrum/accelerate.py": _members(PackedStateCore),
               "harness/spectrum/lineaddr.py": _members(PackedStateCore),
               "harness/spectrum/recording.py": set(dir(CountingCore())),
               # the conformance oracle drives z80-python's own CPU object (named `cpu` there), not a Core
               "harness/oracle/conformance.py": _members(Core) | {"step", "capture_state", "restore_state",
                                                                   "read_port", "write_port"}}
    module = set(vars(cpu_module)) | {"py"}          # the module harness/spectrum/cpu.py named as `cpu`
    outside: dict[str, list[str]] = {}
    for path, text in sorted(sources.items()):
        for attr in sorted(set(re.findall(r"\bcpu\.([A-Za-z_][A-Za-z_0-9]*)", text))):
            if attr not in module and attr not in allowed.get(path, _members(Core)):
                outside.setdefault(attr, []).append(path)
    return outside


def test_the_protocol_names_everything_the_harness_uses_of_a_core():
    """So a new use must be added to the Protocol (and so to every core: mypy and the tests above)."""
    sources = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in (ROOT / "harness").rglob("*.py")
               if not (p.parent.name == "spectrum" and p.name in ("cpu.py", "core.py", "skoolcore.py"))}
    assert _outside_the_protocol(sources) == {}
    used = set(re.findall(r"\bcpu\.([a-z_0-9]+)", "".join(sources.values())))
    assert {"get", "set", "pc", "iff1", "run", "interrupt", "save_state", "load_state"} <= used


def test_a_use_of_the_core_outside_the_protocol_is_found_and_one_inside_it_is_not():
    planted = {"harness/program/x.py": "m.cpu.get('a'); m.cpu.frame_tick", "harness/spectrum/accelerate.py":
               "self.cpu.state_view", "harness/play/y.py": "self.cpu.state_view; cpu.counting"}
    assert _outside_the_protocol(planted) == {"counting": ["harness/play/y.py"], "frame_tick": ["harness/program/x.py"],
                                              "state_view": ["harness/play/y.py"]}


def test_the_accelerator_and_a_z80_snapshot_refuse_a_core_without_the_packed_state_in_one_line():
    m = Spectrum48(fast=True, core=lambda: _skoolkit(False))
    with pytest.raises(MachineError, match=r"^the ROM accelerator needs the z80 package's core .*SkoolKit"):
        accelerate(m)
    with pytest.raises(MachineError, match=r"^a \.z80 snapshot needs the z80 package's core"):
        z80snap.from_machine(m)
    plain = Spectrum48(fast=True)                     # the near miss: the default core has it
    accelerate(plain)
    assert plain.accelerator is not None and z80snap.from_machine(plain).regs["pc"] == plain.cpu.pc


@pytest.mark.parametrize("python", [False, True], ids=["skoolkit-c", "skoolkit-python"])
def test_a_skoolkit_core_saves_and_restores_its_registers_and_memory(python):
    core = _skoolkit(python)
    core.set("bc", 0x1234)
    core.set("sp", 0xFF00)
    core.pc = 0x8000
    core.memory[0x9000] = 0x5A
    saved = core.save_state()
    core.set("bc", 0)
    core.pc = 0
    core.memory[0x9000] = 0
    core.load_state(saved)
    assert (core.get("bc"), core.get("sp"), core.pc, core.memory[0x9000]) == (0x1234, 0xFF00, 0x8000, 0x5A)


def test_the_z80_stub_names_only_what_the_installed_package_has_and_types_it_as_it_behaves():
    import ast

    import z80
    stub = ast.parse((ROOT / "stubs" / "z80" / "__init__.pyi").read_text(encoding="utf-8"))
    (machine,) = [node for node in stub.body if isinstance(node, ast.ClassDef) and node.name == "Z80Machine"]
    names = {n.target.id for n in machine.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
    names |= {n.name for n in machine.body if isinstance(n, ast.FunctionDef) and n.name != "__init__"}
    assert {"run", "on_handle_active_int", "get_state_view", "memory", "pc"} <= names
    m = z80.Z80Machine()
    assert [n for n in sorted(names) if not hasattr(m, n)] == []
    assert isinstance(m.on_handle_active_int(), bool) and isinstance(m.memory, memoryview)
    assert isinstance(m.get_state_view(), memoryview) and isinstance(m.run(), int)
