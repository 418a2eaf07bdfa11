#!/usr/bin/env bash
# Every test, in order of cost; ends with one summary line. Usage: scripts/test.sh
#   1. setup (idempotent: a no-op when nothing changed)
#   2. the generator's output is what is checked in (codegen/gen.py --check, codegen/surface.py --check)
#   3. Criterion tests of kernels/ (meson test)
#   4. pytest: the Python side against upstream run in .venv-upstream
#   5. asan: _C built with ASan + UBSan (build/asan): sanitizer canaries, then the golden harness on it (tools/asan.py)
set -uo pipefail
cd "$(dirname "$0")/.."
failed=()
step() {  # step <name> <command...>
    local name=$1; shift
    printf '\n== %s: %s\n' "$name" "$*"
    if "$@"; then printf '== %s: ok\n' "$name"; else printf '== %s: FAILED\n' "$name"; failed+=("$name"); fi
}
rm -f build/golden/summary-*.txt  # written by test_golden.py, test_surface_dirs.py: exact counts
step setup scripts/setup.sh
if [ ${#failed[@]} -eq 0 ]; then
    step regen .venv/bin/python codegen/gen.py --check
    step surface-regen .venv/bin/python codegen/surface.py --check
    step criterion .venv/bin/meson test -C build/meson --suite kernels --suite runtime --print-errorlogs -q
    step pytest .venv/bin/python -m pytest tests/python -q -p no:cacheprovider
    step asan .venv/bin/python tools/asan.py
fi
golden=""
for f in build/golden/summary-*.txt; do
    [ -f "$f" ] && while IFS= read -r line; do golden="$golden; $line"; done < "$f"
done
if [ ${#failed[@]} -eq 0 ]; then
    echo "SUMMARY: all steps passed (setup, regen, surface-regen, criterion, pytest, asan)$golden"
else
    echo "SUMMARY: FAILED: ${failed[*]}$golden"
    exit 1
fi
