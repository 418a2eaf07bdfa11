"""Instructions per call of the small ops in tools/bench.py's `ops` group, counted by valgrind's
callgrind: a count does not move with the machine's load, so two builds can be compared on a
shared machine where per-call times at a fraction of a microsecond are noise.

    .venv/bin/python tools/op_instructions.py                              # ours (.venv)
    .venv/bin/python tools/op_instructions.py --python /other/worktree/.venv/bin/python --ops view,cat

Each op runs --calls times inside one call of math.fsum (its argument is a generator that calls
the op and yields nothing), and callgrind counts only while math_fsum runs
(--toggle-collect), so interpreter start-up and `import torch` are not counted. The count of
the same loop around a plain name (`x`) is subtracted: what is left is the op's call through
the interpreter, the binding, the door and the kernel, per call. One process per op, each
under valgrind (~1-2 min per op: most of it `import torch` at valgrind's speed). Needs the
`valgrind` package (Debian). This is a measurement tool, not a test.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from bench import OPS  # noqa: E402  (label -> (setup, statement), the ops group's small ops)

BASELINE = ("x = 1", "x")


def worker(setup: str, stmt: str, calls: int) -> None:
    import math

    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    g = {"torch": torch, "F": F, "math": math}
    exec(setup, g)
    exec(f"math.fsum(0.0 for _ in range({calls}) if ({stmt}) is None)", g)


def count(python: str, setup: str, stmt: str, calls: int) -> int:
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", "--collect-atstart=no",
           "--toggle-collect=math_fsum*", python, __file__, "--worker", setup, stmt, str(calls)]
    p = subprocess.run(cmd, capture_output=True, text=True, check=True)
    m = re.search(r"Collected : (\d+)", p.stderr)
    if not m:
        raise SystemExit(f"no callgrind count in:\n{p.stderr[-2000:]}")
    return int(m.group(1))


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--python", default=str(ROOT / ".venv" / "bin" / "python"),
                    help="the interpreter whose torch is measured (default: ours, .venv)")
    ap.add_argument("--ops", default="", help="comma-separated words; the ops whose bench.py label contains one "
                    "(default: all of " + "; ".join(OPS) + ")")
    ap.add_argument("--calls", type=int, default=1000)
    args = ap.parse_args()
    which = subprocess.run([args.python, "-c", "import torch; print(torch._C.__file__)"],
                           capture_output=True, text=True, check=True).stdout.strip()
    print(f"torch._C: {which}")
    base = count(args.python, *BASELINE, args.calls)
    words = [w for w in args.ops.split(",") if w]
    for label, (setup, stmt) in OPS.items():
        if words and not any(w in label for w in words):
            continue
        n = count(args.python, setup, stmt, args.calls)
        print(f"{label:28s} {(n - base) / args.calls:8.0f} instructions per call")


if __name__ == "__main__":
    main()
