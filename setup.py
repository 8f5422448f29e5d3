"""The wheel's build hook: the WebAssembly core of play.html (harness/web/build.py) compiled into the package
when Debian's clang is present, so a pip user needs no compiler. Without one the wheel is built all the same
and `cribbage-zx html` says in one line that the page is not written and how to get the compiler."""
import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyWithWasm(build_py):
    def run(self):
        path = Path(__file__).resolve().parent / "harness" / "web" / "build.py"
        spec = importlib.util.spec_from_file_location("_cribbage_zx_web_build", path)
        web = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(web)
        if not web.current():
            try:
                web.build()
            except web.BuildProblem as exc:
                print(f"spectrum.wasm not built (play.html will not be written): {exc}")
        super().run()


setup(cmdclass={"build_py": BuildPyWithWasm})
