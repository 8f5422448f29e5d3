#!/usr/bin/env bash
# Debian tools the tests use as independent checks: listbasic (fuse-emulator-utils) and zmakebas.
# Installs them when missing and we are root with apt; otherwise says which tests will skip.
set -u
need=()
command -v listbasic >/dev/null 2>&1 || need+=(fuse-emulator-utils)
command -v zmakebas >/dev/null 2>&1 || need+=(zmakebas)
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
