"""Run golden cases in whichever torch this interpreter imports and describe the results.

A case is a snippet that leaves its result in `out` (a tensor, a number, a tuple of those, or
anything torch returns); inputs come from the helpers below so both sides see the same values.
The same snippet runs in .venv-upstream (the oracle) and in .venv (torchnative); compare.py
decides agreement.

    .venv-upstream/bin/python tests/python/golden/runner.py  > upstream.json   # all cases
"""
from __future__ import annotations

import importlib
import json
import math
import pkgutil
import sys
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent

# When True the float32 inputs are made as float64 (same values): the float64 reference run
# that measures upstream's own float32 error (see compare.py).
AS_FLOAT64 = False


def gen(seed: int = 0) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def randn(*shape, seed: int = 0, dtype=torch.float32):
    """Standard normal values, identical on both sides (torchnative's mt19937 is bit-exact)."""
    t = torch.randn(*shape, generator=gen(seed), dtype=torch.float32)
    if AS_FLOAT64 and dtype == torch.float32:
        return t.double()
    return t.to(dtype)


def arange(*shape, dtype=torch.float32):
    n = 1
    for s in shape:
        n *= s
    t = torch.arange(n, dtype=torch.int64).reshape(*shape)
    if AS_FLOAT64 and dtype == torch.float32:
        return t.double()
    return t.to(dtype)


def describe(v):
    """A JSON description of a result: exact for tensors (values, shape, strides, dtype)."""
    if isinstance(v, torch.Tensor):
        t = v.detach()
        values = t.reshape(-1).tolist() if t.numel() else []
        if t.dtype.is_complex:
            values = [[z.real, z.imag] for z in values]
        return {"tensor": True, "dtype": str(t.dtype), "shape": list(t.shape),
                "stride": list(t.stride()), "offset": t.storage_offset(),
                "requires_grad": v.requires_grad, "values": [encode(x) for x in values]}
    if isinstance(v, (tuple, list)):
        return {"seq": type(v).__name__ if type(v) in (tuple, list) else "structseq:" + type(v).__name__,
                "items": [describe(x) for x in v]}
    if isinstance(v, torch.Size):
        return {"size": list(v)}
    if isinstance(v, (bool, int, float, complex, str, type(None))):
        return {"scalar": type(v).__name__, "value": encode(v)}
    if isinstance(v, (torch.dtype, torch.device, torch.layout, torch.memory_format)):
        return {"scalar": type(v).__name__, "value": str(v)}
    return {"other": type(v).__name__, "repr": repr(v)}


def encode(x):
    if isinstance(x, list):
        return [encode(y) for y in x]
    if isinstance(x, float) and not math.isfinite(x):
        return repr(x)
    if isinstance(x, complex):
        return [encode(x.real), encode(x.imag)]
    return x


def run_case(code: str) -> dict:
    torch.manual_seed(0)
    ns = {"torch": torch, "randn": randn, "arange": arange, "gen": gen, "math": math}
    try:
        exec(code, ns)
    except Exception as e:  # the exception type is part of the contract
        return {"raises": type(e).__name__, "message": str(e).splitlines()[0] if str(e) else ""}
    if "out" not in ns:
        raise SystemExit(f"golden case did not set `out`: {code!r}")
    return describe(ns["out"])


def all_cases() -> dict[str, dict]:
    """case id -> {"code": ..., "tol": ...} from every cases_*.py module next to this file."""
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    cases: dict[str, dict] = {}
    for mod in sorted(m.name for m in pkgutil.iter_modules([str(HERE)]) if m.name.startswith("cases_")):
        for cid, spec in importlib.import_module(mod).CASES.items():
            key = f"{mod[6:]}/{cid}"
            if key in cases:
                raise SystemExit(f"duplicate golden case {key}")
            cases[key] = spec if isinstance(spec, dict) else {"code": spec}
    return cases


def main() -> None:
    global AS_FLOAT64
    results = {}
    for key, spec in all_cases().items():
        AS_FLOAT64 = False
        entry = {"result": run_case(spec["code"])}
        if spec.get("tol") == "derived":
            AS_FLOAT64 = True
            entry["float64"] = run_case(spec["code"])
        results[key] = entry
    json.dump({"torch": torch.__version__, "torch_file": torch.__file__, "results": results},
              sys.stdout, sort_keys=True)


if __name__ == "__main__":
    main()
