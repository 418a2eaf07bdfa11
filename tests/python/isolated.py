"""Run snippets in child interpreters, ours (.venv) and upstream (.venv-upstream), so a crash or a
hang is a result rather than the end of the test run.

One child per side runs the snippets in order and prints one JSON line per snippet. When it dies
(a signal, an abort) or a snippet outlasts its timeout, the snippet is run again alone in a fresh
child: if it fails alone it is recorded as {"crash": returncode} or {"hang": seconds}; if it only
fails after the snippets before it in the same child, the earliest such snippet is found by
bisection and the result says so ({"crash": rc, "after": i}). A fresh child then continues at the
next snippet. See Note [Fuzz budget] for what keeps the snippets cheap and the sides comparable.
A snippet leaves its result in `out`; results are described by `describe` (type, dtype, shape,
strides, device and up to 64 values), exceptions by class name and first line of message.
Upstream's answers are cached in build/isolated/ keyed by the snippets and this driver.
"""
from __future__ import annotations

import hashlib
import json
import os
import select
import subprocess
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OURS_PY = ROOT / ".venv" / "bin" / "python"
UPSTREAM_PY = ROOT / ".venv-upstream" / "bin" / "python"
CACHE = ROOT / "build" / "isolated"

# Note [Fuzz budget]
# Both sides run under the same limits, so a call that would need more than them has the same
# outcome on both (an allocation failure) and stays comparable:
# - address space: RLIMIT_AS is set, after `import torch`, to the child's size then plus
#   MEM_BUDGET, so a legal multi-GB allocation (torch.empty(2**33)) fails at once on both sides
#   instead of filling memory;
# - per-snippet state: the RNG is reseeded, the default dtype and grad mode reset and warnings
#   silenced before every snippet (warnings once went to a pipe nobody read and stalled the child);
# - describe never materialises a large tensor: past 4096 elements it reads the first 64 by
#   index, so a 2**62-element expanded view costs 64 reads.
MEM_BUDGET = 4 << 30

CHILD = r'''
import json, math, os, resource, sys, warnings
side, start, budget = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
import torch, torch.nn.functional as F
if (side == "ours") != hasattr(torch._C, "_torchnative"):
    print(json.dumps({"wrong_torch": torch._C.__file__}), flush=True)
    sys.exit(3)
with open("/proc/self/statm") as f:
    vm = int(f.read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (vm + budget, resource.getrlimit(resource.RLIMIT_AS)[1]))
warnings.simplefilter("ignore")

def scalar(x):
    if isinstance(x, complex):
        return [scalar(x.real), scalar(x.imag)]
    if isinstance(x, float) and not math.isfinite(x):
        return repr(x)
    return x

def values(v):
    if v.device.type == "meta":
        return None
    n = v.numel()
    if n <= 4096:
        return [scalar(x) for x in v.detach().reshape(-1)[:64].tolist()]
    out, shape = [], list(v.shape)
    for k in range(64):  # the first 64 in row-major order, one element at a time
        idx, rest = [], k
        for s in reversed(shape):
            idx.append(rest % s)
            rest //= s
        out.append(scalar(v[tuple(reversed(idx))].item()))
    return out

def describe(v):
    if isinstance(v, torch.Tensor):
        return {"tensor": str(v.dtype), "shape": list(v.shape), "stride": list(v.stride()),
                "device": v.device.type, "values": values(v)}
    if isinstance(v, (torch.dtype, torch.device)):
        return {type(v).__name__: str(v)}
    if isinstance(v, torch.Size):
        return {"Size": list(v)}
    if isinstance(v, (tuple, list)):
        return {type(v).__name__: [describe(x) for x in v]}
    if isinstance(v, float) and not math.isfinite(v):
        return {"float": repr(v)}
    if isinstance(v, complex):
        return {"complex": scalar(v)}
    if isinstance(v, (bool, int, float, str, type(None))):
        return {type(v).__name__: v}
    return {"other": type(v).__name__}

# results go to the parent through the original stdout alone: whatever a snippet prints (Python's
# print or C++'s std::cout, on fd 1) goes to stderr instead of into the JSON lines
results = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)
sys.stdout = sys.stderr
cases = json.loads(sys.stdin.readline())
for i in range(start, len(cases)):
    torch.manual_seed(0)
    torch.set_default_dtype(torch.float32)
    torch.set_grad_enabled(True)
    ns = {"torch": torch, "F": F}
    try:
        exec(cases[i], ns)
    except Exception as e:
        r = {"exc": type(e).__name__, "msg": (str(e).splitlines() or [""])[0][:400]}
    else:
        try:
            r = {"ok": describe(ns.get("out"))}
        except Exception as e:
            r = {"describe_exc": type(e).__name__, "msg": (str(e).splitlines() or [""])[0][:400]}
    results.write(json.dumps({"i": i, **r}) + "\n")
    results.flush()
'''


def _child(side: str, cases: list[str], start: int, timeout: float, results: list, stop: int) -> tuple[int, dict | None]:
    """Run cases[start:stop] in one child, filling `results`; returns (index reached, the failure
    at that index: {"crash": rc, ...} or {"hang": s}, or None when all ran)."""
    py = OURS_PY if side == "ours" else UPSTREAM_PY
    env = dict(os.environ, PYTHONHASHSEED="0", OMP_NUM_THREADS="1")
    with tempfile.TemporaryFile("w+") as err:
        p = subprocess.Popen([str(py), "-c", CHILD, side, str(start), str(MEM_BUDGET)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=err, text=True, env=env)
        p.stdin.write(json.dumps(cases[:stop]) + "\n")
        p.stdin.close()
        deadline = time.monotonic() + timeout + 180  # the first snippet also pays for `import torch`
        i, failure = start, None
        while i < stop:
            ready, _, _ = select.select([p.stdout], [], [], max(0.0, deadline - time.monotonic()))
            line = p.stdout.readline() if ready else None
            if line:
                r = json.loads(line)
                if "wrong_torch" in r:
                    p.kill()
                    raise RuntimeError(f"{side} child imported the wrong torch: {r['wrong_torch']}")
                results[r.pop("i")] = r
                i += 1
                deadline = time.monotonic() + timeout
                continue
            if line is None:  # the snippet at i outlasted its timeout
                p.kill()
                p.wait()
                failure = {"hang": timeout}
            else:  # EOF before the end: died at i
                rc = p.wait()
                err.seek(0)
                failure = {"crash": rc, "stderr": err.read()[-400:]}
            break
        p.kill()
        p.wait()
        p.stdout.close()
    return i, failure


def _alone(side, cases, i, timeout):
    res = [None] * len(cases)
    _, failure = _child(side, cases, i, timeout, res, i + 1)
    return failure or res[i]


def run_side(side: str, cases: list[str], timeout: float = 30.0) -> list[dict]:
    """One result per snippet, on `side` ("ours" or "upstream")."""
    results: list[dict | None] = [None] * len(cases)
    start = 0
    while start < len(cases):
        i, failure = _child(side, cases, start, timeout, results, len(cases))
        if failure is None:
            break
        alone = _alone(side, cases, i, timeout) if i > start else failure
        if "crash" in alone or "hang" in alone:
            results[i] = alone
        elif _child(side, cases[:i + 1], start, timeout, [None] * len(cases), i + 1)[1] is None:
            results[i] = {**alone, "transient": failure}  # not reproduced: a loaded machine's stall
        else:  # fails only after earlier snippets of this child: find the latest start that matters
            lo, hi = start, i - 1  # the latest j with cases[j..i] failing is in [lo, hi]; lo fails
            while lo < hi:
                mid = (lo + hi + 1) // 2
                scratch = [None] * len(cases)
                _, f = _child(side, cases[:i + 1], mid, timeout, scratch, i + 1)
                lo, hi = (mid, hi) if f else (lo, mid - 1)
            results[i] = {**failure, "after": hi, "alone": alone}
        start = i + 1
    return results  # type: ignore[return-value]


def cache_key(cases: list[str]) -> str:
    h = hashlib.sha256(CHILD.encode())
    h.update(str(MEM_BUDGET).encode())
    h.update(json.dumps(cases).encode())
    return h.hexdigest()[:16]


def upstream_results(cases: list[str], timeout: float = 30.0) -> list[dict]:
    """Upstream's answers, cached by the snippets and the child's code (upstream never changes
    under us)."""
    path = CACHE / f"upstream-{cache_key(cases)}.json"
    if path.exists():
        return json.loads(path.read_text())
    res = run_side("upstream", cases, timeout)
    CACHE.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(res))
    tmp.replace(path)
    return res


def run_both(cases: list[str], timeout: float = 30.0) -> tuple[list[dict], list[dict]]:
    """(ours, upstream) for the same snippets; upstream (when not cached) runs beside ours."""
    up: list = []
    th = threading.Thread(target=lambda: up.append(upstream_results(cases, timeout)))
    th.start()
    ours = run_side("ours", cases, timeout)
    th.join()
    if not up:
        raise RuntimeError("the upstream run failed (see the thread's traceback above)")
    return ours, up[0]
