#!/usr/bin/env bash
# Debian tools the tests use as independent checks (MAME too, below): listbasic, tape2wav, tape2pulses, fmfconv
# (fuse-emulator-utils), zmakebas, and for tests/oracles/emulators/test_fuse.py the Fuse emulator itself (fuse-emulator-sdl)
# run headless in Xvfb (xvfb), driven by xdotool and photographed by xwd (x11-apps).
# Installs them when missing and we are root with apt; otherwise says which tests will skip.
set -u
need=()
command -v listbasic >/dev/null 2>&1 || need+=(fuse-emulator-utils)
command -v zmakebas >/dev/null 2>&1 || need+=(zmakebas)
command -v fuse-sdl >/dev/null 2>&1 || need+=(fuse-emulator-sdl)
command -v Xvfb >/dev/null 2>&1 || need+=(xvfb)
command -v xdotool >/dev/null 2>&1 || need+=(xdotool)
command -v xwd >/dev/null 2>&1 || need+=(x11-apps)
# the HTML edition: Graphviz dot draws the call graph; the browser tests load the pages in headless chromium
command -v dot >/dev/null 2>&1 || need+=(graphviz)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
# play.html's WebAssembly core (harness/web/build.py): clang for wasm32 with its linker, libc and builtins
command -v clang++ >/dev/null 2>&1 || need+=(clang)
command -v wasm-ld >/dev/null 2>&1 || command -v wasm-ld-14 >/dev/null 2>&1 || need+=(lld)
[ -d /usr/lib/wasm32-wasi ] || need+=(wasi-libc)
[ -d /usr/lib/wasm32-wasi/c++/v1 ] || [ -d /usr/include/wasm32-wasi/c++ ] || need+=(libc++-dev-wasm32)
ls /usr/lib/llvm-*/lib/clang/*/lib/wasi/libclang_rt.builtins-wasm32.a >/dev/null 2>&1 || need+=(libclang-rt-14-dev-wasm32)
# tests/test_emulators.py: MAME's spectrum driver loads our tape headless (Debian installs it as /usr/games/mame)
command -v mame >/dev/null 2>&1 || [ -x /usr/games/mame ] || need+=(mame)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing ${need[*]} (Debian packages used by the tests)"
    apt-get update -qq >/dev/null 2>&1
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null 2>&1 \
        || echo "could not install ${need[*]}: the tests that need them will skip with a reason"
else
    echo "missing ${need[*]} and not root with apt: the tests that need them will skip with a reason"
fi
exit 0
