#!/usr/bin/env bash
# Sets up this clone from nothing, idempotently, and quickly when nothing changed:
#   1. Debian packages (XNNPACK, pthreadpool, Criterion, pkg-config, OpenSSL for HMAC, LAPACK)
#   2. .venv-upstream (torch==2.13.0, the oracle) and .venv (ours), from requirements/*.txt
#   3. the vendored torch tree in build/site (vendor/assemble.py), no upstream native file
#   4. the meson build of _C.abi3.so, linked into the tree, and the tree put on .venv's path
#   5. the real checkpoints (SmolLM2 GGUF converted once, MiniLM) in the cache (tools/models.py)
# Usage: scripts/setup.sh        (everything)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CACHE=${TN_CACHE:-$HOME/.cache/torchnative}
PY=${TN_PYTHON:-python3}
mkdir -p "$CACHE" build

say() { printf 'setup: %s\n' "$*"; }

# -- 1. Debian packages ------------------------------------------------------------------
DEB_PACKAGES="libxnnpack-dev libpthreadpool-dev libcriterion-dev pkg-config zlib1g-dev libssl-dev liblapack-dev liblapacke-dev libsleef-dev"
missing=""
for p in $DEB_PACKAGES; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
    say "installing Debian packages:$missing"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi

# -- 2. environments ---------------------------------------------------------------------
# Each venv records the hash of the lock files it was made from; a changed lock rebuilds it.
lock_hash() { cat requirements/common.txt "requirements/$1.txt" | sha256sum | cut -c1-16; }
make_venv() {  # make_venv <dir> <lock name>
    local dir=$1 lock=$2 want
    want=$(lock_hash "$lock")
    if [ -f "$dir/.lock-hash" ] && [ "$(cat "$dir/.lock-hash")" = "$want" ]; then return; fi
    say "creating $dir from requirements/$lock.txt"
    rm -rf "$dir"
    "$PY" -m venv "$dir"
    # --no-deps: every package is pinned in the lock; nothing may arrive unasked (such as torch).
    "$dir/bin/pip" install -q --no-deps -r "requirements/$lock.txt" 2>&1 | grep -v "^WARNING: Location" || true
    # In .venv, packages that declare torch (accelerate) see no torch until the tree is built.
    local problems
    problems=$("$dir/bin/pip" check 2>&1 | grep -v "^No broken requirements" |
               grep -v "requires torch, which is not installed" || true)
    if [ -n "$problems" ]; then echo "$problems" >&2; exit 1; fi
    echo "$want" > "$dir/.lock-hash"
}
make_venv .venv-upstream upstream
make_venv .venv ours
# The only torch .venv may see is our tree in build/site (its dist-info says 2.13.0).
torch_at=$(.venv/bin/pip show torch 2>/dev/null | sed -n 's/^Location: //p' || true)
if [ -n "$torch_at" ] && [ "$torch_at" != "$ROOT/build/site" ]; then
    echo "setup: a torch other than ours is installed in .venv ($torch_at); refusing" >&2; exit 1
fi

# -- 3. the vendored torch tree ----------------------------------------------------------
WHEEL=$(ls "$CACHE"/wheels/torch-2.13.0*.whl 2>/dev/null | head -1 || true)
if [ -z "$WHEEL" ]; then
    say "fetching the torch 2.13.0 CPU wheel"
    .venv/bin/pip download -q torch==2.13.0 --no-deps -d "$CACHE/wheels" 2>&1 | grep -v "^WARNING: Location" || true
    WHEEL=$(ls "$CACHE"/wheels/torch-2.13.0*.whl | head -1)
fi
.venv/bin/python vendor/assemble.py --wheel "$WHEEL" --out build/site >/dev/null
# Byte-compile the tree as pip does at install time (the environment may forbid writing .pyc
# at import, PYTHONDONTWRITEBYTECODE); up-to-date files are skipped. Like pip, files written for
# a newer Python (torch/testing/_internal/py312_intrinsics.py) are left as source.
.venv/bin/python -m compileall -q -j 0 build/site >/dev/null || true

# -- 4. build and link -------------------------------------------------------------------
if [ ! -f build/meson/build.ninja ]; then
    .venv/bin/meson setup build/meson --buildtype=release -Db_ndebug=if-release >/dev/null
fi
.venv/bin/ninja -C build/meson >/dev/null || .venv/bin/ninja -C build/meson
ln -sfn ../../meson/_C.abi3.so build/site/torch/_C.abi3.so
SITE=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
# The tree goes on .venv's path; TORCH_USE_RTLD_GLOBAL tells torch/__init__.py not to look
# for libtorch_global_deps.so, an upstream native library the tree does not carry.
cat > "$SITE/torchnative.pth" <<EOF
$ROOT/build/site
$ROOT/python
import os; os.environ.setdefault("TORCH_USE_RTLD_GLOBAL", "1")
EOF
.venv/bin/python vendor/assemble.py --check --wheel "$WHEEL" --out build/site >/dev/null
# Likewise _C's embedded runtime files: the first import allowed to write bytecode caches their
# compiled code in build/site/torch/__pycache__ (runtime/py/codecache.py); stale entries rewrite.
env -u PYTHONDONTWRITEBYTECODE .venv/bin/python -c "import torch" >/dev/null

# -- 5. models ----------------------------------------------------------------------------
TN_CACHE="$CACHE" .venv-upstream/bin/python tools/models.py >/dev/null 2>&1 || TN_CACHE="$CACHE" .venv-upstream/bin/python tools/models.py
