"""A seeded fuzzer (issue 9): N random calls with adversarial arguments (huge, negative and
zero sizes, out-of-range dims, mixed dtypes, out= of other dtypes) made on ours and on upstream,
each side in a child interpreter (tests/python/isolated.py). Required: no crash, no hang, and
upstream's exception class or result (dtype, shape, values to 1e-5) for every call, except the
differences pinned in KNOWN (snippet -> why), which must still differ (exact, never a floor).
Time: N = 200 calls, 10 s with upstream's answers cached in build/isolated/, ~30 s cold (measured on the
shared 2-core machine: `pytest tests/python/test_fuzz.py`)."""
from __future__ import annotations

import math
import random
import re

from isolated import run_side, upstream_results

SEED, N = 9, 200
SIZES = [0, 1, 2, 3, -1, 2**31, 2**62, 2**63 - 1]
DIMS = [-3, -2, -1, 0, 1, 2, 3]
DTYPES = ["torch.float32", "torch.float64", "torch.int64", "torch.int32", "torch.bool", "torch.uint8",
          "torch.float16", "torch.bfloat16"]


def _shape(r):
    return tuple(r.choice(SIZES[:4]) for _ in range(r.randint(0, 3)))


def _tensor(r):
    dt = r.choice(DTYPES)
    shape = _shape(r)
    return f"torch.arange({math.prod(shape) or 0}).reshape({shape}).to({dt})"


def calls(seed=SEED, n=N):
    r = random.Random(seed)
    makers = [
        lambda: f"out = torch.empty({tuple(r.choice(SIZES) for _ in range(r.randint(1, 3)))})",
        lambda: f"out = torch.full({tuple(r.choice(SIZES) for _ in range(r.randint(1, 2)))}, 1.5)",
        lambda: f"out = torch.zeros({r.choice(SIZES)}, dtype={r.choice(DTYPES)})",
        lambda: f"out = {_tensor(r)}.repeat({', '.join(str(r.choice(SIZES)) for _ in range(r.randint(1, 3)))})",
        lambda: f"out = {_tensor(r)}.expand({', '.join(str(r.choice(SIZES)) for _ in range(r.randint(1, 3)))})",
        lambda: f"out = {_tensor(r)}.sum({r.choice(DIMS)})",
        lambda: f"out = {_tensor(r)}.cumsum({r.choice(DIMS)})",
        lambda: f"out = {_tensor(r)}.softmax({r.choice(DIMS)})",
        lambda: f"out = {_tensor(r)}.squeeze({r.choice(DIMS)})",
        lambda: f"out = {_tensor(r)}.transpose({r.choice(DIMS)}, {r.choice(DIMS)})",
        lambda: f"out = {_tensor(r)} + {_tensor(r)}",
        lambda: f"out = {_tensor(r)} * {r.choice(['2', '2.5', 'True', '2**70'])}",
        lambda: f"out = torch.matmul({_tensor(r)}, {_tensor(r)})",
        lambda: f"out = torch.cat([{_tensor(r)}, {_tensor(r)}], {r.choice(DIMS)})",
        lambda: f"out = {_tensor(r)}.view({', '.join(str(r.choice(SIZES[:5])) for _ in range(r.randint(1, 3)))})",
        lambda: f"out = torch.arange({r.choice(SIZES[:5])})",
        lambda: f"out = torch.nn.functional.pad({_tensor(r)}, ({r.choice(SIZES)}, {r.choice(SIZES[:5])}))",
        lambda: f"out = torch.empty_strided({(r.choice(SIZES[:4]),)}, {(r.choice([-1, 0, 1, 2**62]),)})",
        lambda: f"out = torch.add({_tensor(r)}, 1, out=torch.empty(0, dtype={r.choice(DTYPES)}))",
        lambda: f"out = torch.argmax({_tensor(r)}, {r.choice(DIMS)})",
    ]
    return [r.choice(makers)() for _ in range(n)]


# differences still open, by the pattern of the snippet: (pattern, why, how many of the seeded
# calls show it)
KNOWN: list[tuple[re.Pattern, str, int]] = []


def _same(c, a, b):
    if ("exc" in a) or ("exc" in b):
        return a.get("exc") == b.get("exc")
    if "torch.empty" in c:  # uninitialised memory: dtype and shape only
        return a["ok"]["tensor"] == b["ok"]["tensor"] and a["ok"]["shape"] == b["ok"]["shape"]
    return _close(a.get("ok"), b.get("ok"))


def _close(x, y):
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(_close(x[k], y[k]) for k in x)
    if isinstance(x, list) and isinstance(y, list):
        return len(x) == len(y) and all(_close(p, q) for p, q in zip(x, y))
    if isinstance(x, float) and isinstance(y, (int, float)):
        return abs(x - y) <= 1e-5 * max(1.0, abs(y))
    return x == y


def test_fuzz():
    cs = calls()
    ours, up = run_side("ours", cs), upstream_results(cs)
    bad = {}
    for c, a, b in zip(cs, ours, up):
        if "crash" in a or "hang" in a or not _same(c, a, b):
            bad[c] = (a, b)
    unexpected = {c: v for c, v in bad.items() if not any(p.search(c) for p, _, _ in KNOWN)}
    assert not unexpected, "\n".join(f"{c}\n  ours {a}\n  up   {b}" for c, (a, b) in unexpected.items())
    counts = [sum(1 for c in bad if p.search(c)) for p, _, _ in KNOWN]
    assert counts == [n for _, _, n in KNOWN], f"pinned differences changed: {counts}"
