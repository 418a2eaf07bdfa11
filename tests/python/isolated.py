"""Run snippets in child interpreters, ours (.venv) and upstream (.venv-upstream), so a crash or a
hang is a result rather than the end of the test run.

One child per side runs the snippets in order and prints one JSON line per snippet; when it dies
(a signal, an abort) or a snippet outlasts its timeout, the parent records that snippet as
{"crash": returncode} or {"hang": seconds} and starts a fresh child at the next snippet.
A snippet leaves its result in `out`; results are described by `describe` (type, dtype, shape and
the values as a list), exceptions by class name and first line of message. Upstream's answers are
cached in build/isolated/ keyed by the snippets' hash.
"""
from __future__ import annotations

import hashlib
import json
import os
import select
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OURS_PY = ROOT / ".venv" / "bin" / "python"
UPSTREAM_PY = ROOT / ".venv-upstream" / "bin" / "python"
CACHE = ROOT / "build" / "isolated"

CHILD = r'''
import json, math, sys
side = sys.argv[1]
import torch, torch.nn.functional as F
if (side == "ours") != hasattr(torch._C, "_torchnative"):
    print(json.dumps({"wrong_torch": torch._C.__file__}), flush=True)
    sys.exit(3)

def describe(v):
    if isinstance(v, torch.Tensor):
        vals = v.detach().reshape(-1)[:64].tolist() if v.device.type != "meta" else None
        if vals is not None and v.is_floating_point():
            vals = [x if math.isfinite(x) else repr(x) for x in vals]
        if vals is not None and v.is_complex():
            vals = [[c.real, c.imag] for c in vals]
        return {"tensor": str(v.dtype), "shape": list(v.shape), "values": vals}
    if isinstance(v, (torch.dtype, torch.device)):
        return {type(v).__name__: str(v)}
    if isinstance(v, torch.Size):
        return {"Size": list(v)}
    if isinstance(v, (tuple, list)):
        return {type(v).__name__: [describe(x) for x in v]}
    if isinstance(v, float) and not math.isfinite(v):
        return {"float": repr(v)}
    if isinstance(v, (bool, int, float, str, type(None))):
        return {type(v).__name__: v}
    return {"other": type(v).__name__}

cases = json.loads(sys.stdin.readline())
start = int(sys.argv[2])
for i in range(start, len(cases)):
    ns = {"torch": torch, "F": F}
    try:
        exec(cases[i], ns)
        r = {"ok": describe(ns.get("out"))}
    except Exception as e:
        r = {"exc": type(e).__name__, "msg": (str(e).splitlines() or [""])[0][:400]}
    print(json.dumps({"i": i, **r}), flush=True)
'''


def run_side(side: str, cases: list[str], timeout: float = 30.0) -> list[dict]:
    """One result per snippet, on `side` ("ours" or "upstream")."""
    py = OURS_PY if side == "ours" else UPSTREAM_PY
    env = dict(os.environ, PYTHONHASHSEED="0", OMP_NUM_THREADS="1")
    results: list[dict | None] = [None] * len(cases)
    start = 0
    while start < len(cases):
        p = subprocess.Popen([str(py), "-c", CHILD, side, str(start)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        p.stdin.write(json.dumps(cases) + "\n")
        p.stdin.close()
        # the first snippet also pays for `import torch`
        deadline = time.monotonic() + timeout + 180
        while True:
            ready, _, _ = select.select([p.stdout], [], [], max(0.0, deadline - time.monotonic()))
            line = p.stdout.readline() if ready else None
            if line:
                r = json.loads(line)
                if "wrong_torch" in r:
                    p.kill()
                    raise RuntimeError(f"{side} child imported the wrong torch: {r['wrong_torch']}")
                results[r.pop("i")] = r
                start += 1
                deadline = time.monotonic() + timeout
                continue
            if line is None:  # the snippet at `start` outlasted its timeout
                p.kill()
                p.wait()
                results[start] = {"hang": timeout}
            else:  # EOF: finished, or died at `start`
                rc = p.wait()
                if start < len(cases):
                    results[start] = {"crash": rc, "stderr": p.stderr.read()[-400:]}
            start += 1
            break
        p.stdout.close()
        p.stderr.close()
    return results  # type: ignore[return-value]


def upstream_results(cases: list[str], timeout: float = 30.0) -> list[dict]:
    """Upstream's answers, cached by the snippets' hash (upstream never changes under us)."""
    key = hashlib.sha256(json.dumps(cases).encode()).hexdigest()[:16]
    path = CACHE / f"upstream-{key}.json"
    if path.exists():
        return json.loads(path.read_text())
    res = run_side("upstream", cases, timeout)
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(res))
    return res
