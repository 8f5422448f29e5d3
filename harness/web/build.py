"""The WebAssembly core: harness/web/spectrum.cpp over kosarev's z80.h, compiled with Debian's clang for wasm32.

z80.h (header-only C++, MIT) is taken from the pinned `z80` source distribution on PyPI, through pip, and
checked against its SHA-256; it is never kept in the checkout. The module is written to
harness/web/static/spectrum.wasm with the digest of what it was made from beside it
(spectrum.wasm.inputs), so an edit of the wrapper or of the flags builds it again; a wheel carries the
module built by setup.py's build hook, and a user of the wheel needs no compiler. Without a compiler:
`missing()` says in one line what is missing and how to get it.

Only the standard library (and harness.errors when the package is there) is imported here: setup.py runs
this file before the package is installed.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

__all__ = ["BuildProblem", "build", "current", "missing", "module_bytes", "inputs_digest", "MODULE"]

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "spectrum.cpp"
MODULE = HERE / "static" / "spectrum.wasm"
INPUTS = MODULE.with_name(MODULE.name + ".inputs")
Z80_SDIST = "z80==1.2.0"          # the release harness/spectrum/cpu.py was checked against
Z80_H_SHA256 = "9b813b27b39d6f609e672dcde8808d57142932d44c22590608d41cd777eb4734"
COMPILER = "clang++"
FLAGS = ("--target=wasm32-wasi", "-mexec-model=reactor", "-O2", "-DNDEBUG", "-std=c++17", "-fno-exceptions",
         "-Wl,--no-entry")
HOW = ("apt-get install clang lld wasi-libc libc++-dev-wasm32 libclang-rt-14-dev-wasm32 "
       "(tools/install-system-deps.sh does it)")


# The module cannot be built here: the message says what is missing and how to get it (one of the package's
# error kinds; a plain Exception when setup.py runs this file before the package can be imported).
try:
    from ..errors import OutputError as BuildProblem   # re-exported: page.py catches it
except ImportError:
    class BuildProblem(Exception):           # type: ignore[no-redef]
        pass


def inputs_digest() -> str:
    """What the module is made from: the wrapper, z80.h's pinned digest and the flags."""
    h = hashlib.sha256(SOURCE.read_bytes())
    h.update(Z80_H_SHA256.encode())
    h.update(" ".join(FLAGS).encode())
    return h.hexdigest()


def missing() -> str | None:
    """None when a compiler for wasm32 is here, else one line: what is missing and how to get it."""
    if shutil.which(COMPILER) is None:
        return f"no {COMPILER}: {HOW}"
    if shutil.which("wasm-ld") is None and shutil.which("wasm-ld-14") is None:
        return f"no wasm-ld (lld): {HOW}"
    return None


def fetch_z80_h(folder: Path) -> Path:
    """z80.h out of the pinned source distribution (pip download), checked against its SHA-256."""
    done = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-binary", ":all:", "--no-deps",
                           "--dest", str(folder), Z80_SDIST], capture_output=True, text=True, timeout=300)
    archives = sorted(folder.glob("z80-*.tar.gz"))
    if done.returncode != 0 or not archives:
        last = (done.stderr.strip().splitlines() or ["no archive"])[-1]
        raise BuildProblem(f"pip download {Z80_SDIST} (its source distribution holds z80.h) failed: {last}")
    with tarfile.open(archives[0]) as tar:
        member = next((m for m in tar.getmembers() if m.name.endswith("/z80.h") and m.name.count("/") == 1), None)
        if member is None:
            raise BuildProblem(f"{archives[0].name}: no z80.h at its top")
        data = tar.extractfile(member).read()       # type: ignore[union-attr]
    digest = hashlib.sha256(data).hexdigest()
    if digest != Z80_H_SHA256:
        raise BuildProblem(f"{archives[0].name}: z80.h has SHA-256 {digest}, not the pinned {Z80_H_SHA256}")
    header = folder / "z80.h"
    header.write_bytes(data)
    return header


def build(out: Path | None = None) -> Path:
    """Compile the module to *out* (default MODULE), atomically, with its inputs' digest beside it;
    BuildProblem if it cannot."""
    out = out or MODULE
    problem = missing()
    if problem is not None:
        raise BuildProblem(problem)
    if not SOURCE.is_file():
        raise BuildProblem(f"this install carries neither spectrum.wasm nor {SOURCE.name}: "
                           "install from a checkout where clang is present")
    with tempfile.TemporaryDirectory(prefix="cribbage-zx-wasm-") as tmp:
        folder = Path(tmp)
        fetch_z80_h(folder)
        target = folder / "spectrum.wasm"
        done = subprocess.run([COMPILER, *FLAGS, "-I", str(folder), "-o", str(target), str(SOURCE)],
                              capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            first = (done.stderr.strip().splitlines() or ["no message"])[0]
            raise BuildProblem(f"{COMPILER} {SOURCE.name} failed: {first} ({HOW})")
        out.parent.mkdir(parents=True, exist_ok=True)
        part = out.with_name(out.name + ".part")
        shutil.copyfile(target, part)
        os.replace(part, out)
    inputs = out.with_name(out.name + ".inputs")
    inputs.write_text(inputs_digest() + "\n", encoding="ascii")
    return out


def current(out: Path | None = None) -> bool:
    """The module at *out* (default MODULE) was built from the wrapper and flags as they are now."""
    out = out or MODULE
    inputs = out.with_name(out.name + ".inputs")
    return out.is_file() and inputs.is_file() and inputs.read_text(encoding="ascii").strip() == inputs_digest()


def module_bytes(out: Path | None = None) -> bytes:
    """The module (default MODULE): the one built (or packaged) if current, else built now; BuildProblem
    when it cannot be. In a wheel, which carries no wrapper source, the packaged module is taken as it is."""
    out = out or MODULE
    if out.is_file() and (current(out) or not SOURCE.is_file()):
        return out.read_bytes()
    return build(out).read_bytes()


if __name__ == "__main__":                 # python harness/web/build.py: build it now
    try:
        print(build())
    except BuildProblem as exc:
        print(f"spectrum.wasm not built: {exc}", file=sys.stderr)
        sys.exit(2)
