"""The sanitizer step of scripts/test.sh: _C built with AddressSanitizer + UndefinedBehaviorSanitizer
in a second meson build directory (build/asan), then the golden harness and the tiny-model sweep
run on it. Any sanitizer report ends its process with a non-zero status, and the step fails.

    .venv/bin/python tools/asan.py                     # the step: build (incremental), canaries, harness
    .venv/bin/python tools/asan.py --only harness -k add.Tensor   # golden cases whose id has a word
    .venv/bin/python tools/asan.py --only sweep gpt2 bert         # some sweep architectures
    .venv/bin/python tools/asan.py --only build        # just build/asan and build/asan/python
    build/asan/python tests/python/golden/harness.py -k add       # the sanitized interpreter, by hand

Upstream's answers are not recomputed: the harness reads the oracle cache in build/golden and the
sweep the one in build/sweep (both filled by the pytest step; this script fills a missing one
from .venv-upstream without sanitizers). See Note [Sanitized interpreter] and Note [Canaries].
"""
from __future__ import annotations

import argparse
import ctypes
import os
import runpy
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build" / "asan"
SANITIZED_C = BUILD / "_C.abi3.so"
PYTHON = BUILD / "python"  # the sanitized interpreter (written by write_interpreter)
VENV = ROOT / ".venv" / "bin"
HARNESS = ROOT / "tests" / "python" / "golden" / "harness.py"
SUMMARY = ROOT / "build" / "golden" / "summary-asan.txt"  # scripts/test.sh puts it on its SUMMARY line

# -O1 -g: ASan's recommended level (readable reports, a fraction of -O3's compile time).
# -fsanitize=float-cast-overflow: a float converted to an integer type that cannot hold it (gcc's
# "undefined" leaves it out; clang's, which upstream's CI uses, has it).
# UBSan is built recoverable and UBSAN_OPTIONS=halt_on_error=1 makes undefined behaviour end the
# process like an ASan report; UBSAN_OPTIONS=halt_on_error=0 lists every report of a run instead.
MESON_OPTIONS = ["--buildtype=plain", "-Doptimization=1", "-Ddebug=true", "-Db_ndebug=true",
                 "-Db_sanitize=address,undefined", "-Db_lundef=false",
                 "-Dc_args=['-fsanitize=float-cast-overflow','-fno-omit-frame-pointer']"]

# Note [Sanitized interpreter]
# Python itself is not sanitized: build/asan/python (a shell script) runs .venv's interpreter with
# - LD_PRELOAD of the compiler's libasan: the ASan runtime must be the first library loaded, before
#   the interpreter allocates anything; it then checks every malloc'd byte _C touches.
# - ASAN_OPTIONS detect_leaks=0: CPython never frees much of what it allocates (interned strings,
#   type caches, module state), which would bury any leak of ours; RSS growth is checked by
#   tests/python/test_hardening.py instead. allocator_may_return_null=1: hardening cases ask for
#   absurd sizes on purpose and expect upstream's RuntimeError, which our NULL check raises;
#   without it ASan aborts on the request itself.
# - PYTHONMALLOC=malloc: Python objects come from malloc too, so an overrun of a PyObject or tuple
#   our C writes is seen (pymalloc's arenas would hide it).
# - PYTHONPATH=build/asan/site: build/asan/site/torch is build/site/torch entry by entry (symlinks,
#   bytecode caches shared) except _C.abi3.so, which is build/asan's; it comes before the .pth
#   entry that puts build/site on .venv's path.
# and runs this file with --inside first, which refuses (exit 1, naming the _C it got) unless torch._C is build/asan's
# _C and links both sanitizer runtimes: a run that silently used the release _C would pass
# vacuously. Upstream's interpreter never runs under it (its caches are filled before, plainly).
ASAN_OPTIONS = "detect_leaks=0:allocator_may_return_null=1:print_summary=1"
UBSAN_OPTIONS = "print_stacktrace=1:halt_on_error=1"
RUNTIME_SYMBOLS = ("__asan_init", "__ubsan_handle_add_overflow")


def sanitized_or_die() -> None:
    """Refuse unless this interpreter's torch._C is build/asan's and links ASan and UBSan."""
    import torch

    got = Path(torch._C.__file__).resolve()
    if got != SANITIZED_C.resolve():
        raise SystemExit(f"asan: torch._C is {got}, not the sanitized build {SANITIZED_C}")
    lib = ctypes.CDLL(str(got))  # the loaded module's handle: dlsym searches it and what it links
    missing = [s for s in RUNTIME_SYMBOLS if not hasattr(lib, s)]
    if missing:
        raise SystemExit(f"asan: {got} does not link {', '.join(missing)}: not a sanitized build")


def inside(argv: list[str]) -> None:
    """build/asan/python's first step: check the _C, then run a script or `-c code` as python would
    (sys.path[0] is the script's folder, not tools/, before anything is imported)."""
    if not argv:
        raise SystemExit("asan: build/asan/python needs a script or -c code")
    code = argv[0] == "-c"
    sys.path[0] = "" if code else str(Path(argv[0]).resolve().parent)
    sanitized_or_die()
    if code:
        sys.argv = ["-c"] + argv[2:]
        exec(compile(argv[1], "<string>", "exec"), {"__name__": "__main__"})
    else:
        sys.argv = argv
        runpy.run_path(argv[0], run_name="__main__")


def say(msg: str) -> None:
    print(f"asan: {msg}", flush=True)


def libasan() -> str:
    """The ASan runtime of the compiler meson built with (gcc -print-file-name=libasan.so)."""
    cc = os.environ.get("CC", "cc")
    path = subprocess.run([cc, "-print-file-name=libasan.so"], capture_output=True, text=True, check=True).stdout.strip()
    if not Path(path).is_file():
        raise SystemExit(f"asan: {cc} has no libasan.so (it printed {path!r}); install the compiler's libasan")
    return str(Path(path).resolve())


def build() -> None:
    """Configure build/asan once (again when MESON_OPTIONS change), then build _C incrementally."""
    stamp = BUILD / "tn-meson-options.txt"
    want = "\n".join(MESON_OPTIONS) + "\n"
    if not (BUILD / "build.ninja").exists() or not stamp.exists() or stamp.read_text() != want:
        again = ["--reconfigure"] if (BUILD / "build.ninja").exists() else []
        subprocess.run([str(VENV / "meson"), "setup", *again, str(BUILD), *MESON_OPTIONS],
                       cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        stamp.write_text(want)
    proc = subprocess.run([str(VENV / "ninja"), "-C", str(BUILD), "_C.abi3.so"], capture_output=True, text=True)
    if proc.returncode:
        sys.stdout.write(proc.stdout[-20000:] + proc.stderr[-5000:])
        raise SystemExit("asan: building build/asan failed")


def write_tree() -> None:
    """build/asan/site/torch: build/site/torch with build/asan's _C (Note [Sanitized interpreter])."""
    src, dst = ROOT / "build" / "site" / "torch", BUILD / "site" / "torch"
    if dst.exists():
        shutil.rmtree(dst)  # symlinks only: rmtree unlinks them, never follows them
    dst.mkdir(parents=True)
    for entry in sorted(src.iterdir()):
        if entry.name != "_C.abi3.so":
            (dst / entry.name).symlink_to(os.path.relpath(entry, dst))
    (dst / "_C.abi3.so").symlink_to(os.path.relpath(SANITIZED_C, dst))


def write_interpreter() -> None:
    PYTHON.write_text(f"""#!/bin/sh
# Written by tools/asan.py: .venv's Python running build/asan's _C (Note [Sanitized interpreter]).
export LD_PRELOAD="{libasan()}${{LD_PRELOAD:+:$LD_PRELOAD}}"
export ASAN_OPTIONS="{ASAN_OPTIONS}${{ASAN_OPTIONS:+:$ASAN_OPTIONS}}"
export UBSAN_OPTIONS="{UBSAN_OPTIONS}${{UBSAN_OPTIONS:+:$UBSAN_OPTIONS}}"
export PYTHONMALLOC=malloc
export PYTHONPATH="{BUILD / 'site'}${{PYTHONPATH:+:$PYTHONPATH}}"
exec "{VENV / 'python'}" "{Path(__file__).resolve()}" --inside "$@"
""")
    PYTHON.chmod(0o755)


# Note [Canaries]
# Each check must be able to fail, so before the real runs the step makes the sanitizers fire on
# purpose, each in its own child, and requires the report, its kind and where it points:
# upstream's canaries torch._C._crash_if_csrc_asan(3) (a stack overrun in runtime/, like
# upstream's torch/csrc), _crash_if_aten_asan(3) (the same in kernels/, ATen's counterpart) and
# _crash_if_csrc_ubsan(0) (inf converted to int); and a tensor whose geometry is set one element
# past its storage (the private set_geometry skips the checks) then filled, for a small storage
# (data inside the storage's own block) and a large one. The bytes between a storage's end and its
# 64-byte rounding are poisoned (Note [Sanitized storage] in runtime/tensor.c), so ASan calls
# that write "use-after-poison" (past the whole block it would say heap-buffer-overflow). And the
# guard itself: --inside under plain .venv (the release _C) must refuse.
CANARIES = [  # (what, code, the report's kind, a place its stack names)
    ("stack overrun in runtime/", "torch._C._crash_if_csrc_asan(3)",
     "AddressSanitizer: stack-buffer-overflow", "in crash_if_csrc_asan"),
    ("stack overrun in kernels/", "torch._C._crash_if_aten_asan(3)",
     "AddressSanitizer: stack-buffer-overflow", "in tn_canary_stack_overrun"),
    ("undefined behaviour", "torch._C._crash_if_csrc_ubsan(0)",
     "runtime error: inf is outside the range of representable values of type 'int'", "runtime/module_functions.c"),
    ("write past a small storage", "t = torch.empty(5); torch._C._torchnative.set_geometry(t, 0, [6], [1]); t.fill_(1)",
     "AddressSanitizer: use-after-poison", "kernels/copy.c"),
    ("write past a large storage",
     "t = torch.empty(1000); torch._C._torchnative.set_geometry(t, 0, [1001], [1]); t.fill_(1)",
     "AddressSanitizer: use-after-poison", "kernels/copy.c"),
]


def canaries() -> list[str]:
    failures = []
    plain = subprocess.run([str(VENV / "python"), __file__, "--inside", "-c", "pass"], capture_output=True, text=True)
    if plain.returncode == 0 or "not the sanitized build" not in plain.stderr:
        failures.append(f"the guard accepted the release _C (exit {plain.returncode}): {plain.stderr[-500:]}")
    clean = subprocess.run([str(PYTHON), "-c", "import torch; torch.ones(3).add_(1)"], capture_output=True, text=True)
    if clean.returncode:
        failures.append(f"a clean call under the sanitizers failed (exit {clean.returncode}):\n{clean.stderr[-3000:]}")
    for what, code, report, where in CANARIES:
        proc = subprocess.run([str(PYTHON), "-c", f"import torch; {code}"], capture_output=True, text=True)
        if proc.returncode == 0 or report not in proc.stderr or where not in proc.stderr:
            failures.append(f"canary '{what}' ({code}) did not report {report!r} at {where!r} "
                            f"(exit {proc.returncode}):\n{proc.stderr[:3000]}")
    return failures


def fill_oracles(harness: bool, archs: list[str]) -> None:
    """Upstream's caches, computed here in the plain interpreter if missing (never under ASan)."""
    if harness:
        subprocess.run([str(VENV / "python"), "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
                        "import harness; harness.load_oracle()", str(HARNESS.parent)], check=True)
    if archs:
        sys.path.insert(0, str(ROOT / "tools"))
        import sweep
        for arch in archs:
            sweep.oracle(arch, ROOT / "build" / "sweep")


# What scripts/test.sh runs (the sweep's upstream runs come from build/sweep, which the pytest
# step's test_sweep.py filled).
STEP_PARTS = ["canaries", "harness", "sweep"]
REPORTS = ("runtime error:", "ERROR: AddressSanitizer")  # how each sanitizer's report begins


def run_harness(word: str | None) -> tuple[bool, str]:
    """(passed, the harness's count line). Reports also fail it when UBSAN_OPTIONS=halt_on_error=0
    let the process go on (listing every report of a run)."""
    cmd = [str(PYTHON), str(HARNESS)] + (["-k", word] if word else [])
    say(f"golden harness: {' '.join(cmd)}")
    proc = subprocess.run(cmd, cwd=ROOT, timeout=3600, capture_output=True, text=True)
    sys.stdout.write(proc.stdout + proc.stderr)
    counts = [line for line in proc.stdout.splitlines() if " cases, " in line]
    reported = any(r in proc.stderr for r in REPORTS)
    return proc.returncode == 0 and not reported, (counts or ["no count"])[-1].split(" (pinned")[0]


def run_sweep(archs: list[str]) -> bool:
    sys.path.insert(0, str(ROOT / "tools"))
    import sweep

    say(f"sweep ({len(archs)} architectures, each in its own sanitized interpreter): {' '.join(archs)}")
    rows = sweep.sweep(archs, ROOT / "build" / "sweep", python=PYTHON)
    print(sweep.table(rows), flush=True)
    ok = True
    for r in rows:
        if not (r.get("agrees") and r.get("bf16_ok") and (r["arch"] not in sweep.CAUSAL or r.get("generate") == "identical")):
            ok = False
            d = r.get("detail") or r.get("bf16_detail") or ""
            print(f"\n{r['arch']}:\n" + ("\n".join(d) if isinstance(d, list) else str(d)), flush=True)
    return ok


def main() -> int:
    if sys.argv[1:2] == ["--inside"]:
        inside(sys.argv[2:])
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", choices=["build", "canaries", "harness", "sweep"], help="one part (after the build)")
    ap.add_argument("-k", dest="word", help="harness: only cases whose id contains this")
    ap.add_argument("archs", nargs="*", metavar="ARCH", help="sweep: some architectures (default all)")
    args = ap.parse_args()
    times = {}
    t0 = time.perf_counter()
    build()
    write_tree()
    write_interpreter()
    times["build"] = time.perf_counter() - t0
    say(f"build/asan/_C.abi3.so ready ({times['build']:.0f} s); interpreter {PYTHON}")
    if args.only == "build":
        return 0
    sys.path.insert(0, str(ROOT / "tools"))
    import sweep
    archs = args.archs or list(sweep.ARCHS)
    unknown = [a for a in archs if a not in sweep.ARCHS]
    if unknown:
        ap.error(f"unknown architecture {unknown[0]!r}; choose from {', '.join(sweep.ARCHS)}")
    parts = [args.only] if args.only else STEP_PARTS
    fill_oracles("harness" in parts, archs if "sweep" in parts else [])
    failed, labels = [], []
    for part in parts:
        t = time.perf_counter()
        if part == "canaries":
            problems = canaries()
            for p in problems:
                say(f"FAIL {p}")
            ok, label = not problems, f"canaries ({len(CANARIES)} planted faults reported, the release _C refused)"
        elif part == "harness":
            ok, counts = run_harness(args.word)
            label = f"golden harness ({counts})"
        else:
            ok, label = run_sweep(archs), f"sweep ({len(archs)} architectures)"
        times[part] = time.perf_counter() - t
        labels.append(label)
        if not ok:
            failed.append(part)
    spent = ", ".join(f"{k} {v:.0f} s" for k, v in times.items())
    if failed:
        say(f"FAILED: {', '.join(failed)} ({spent})")
        return 1
    line = f"clean under ASan + UBSan: {'; '.join(labels)} ({spent}, total {time.perf_counter() - t0:.0f} s)"
    say(line)
    if not args.only and not args.word and not args.archs:  # the full step: its line on test.sh's SUMMARY
        SUMMARY.write_text(f"asan: {line}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
