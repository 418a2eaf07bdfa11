"""The harness's self-test: faults shaped like plausible misimplementations are injected into our
side's result of every golden case, at every comparator (compare.py), and each must be caught
by that comparator. A comparator that no case exercised, or that no fault was injected at,
fails the self-test too.

    .venv/bin/python tests/python/golden/harness.py --self-test

Faults (each applied to one result at a time; a fault that would not change the result, like
permuting a constant tensor, is not applicable there):
  exception      wrong exception class; returns where upstream raises; raises where it returns
  structure      last item of a tuple dropped; a number where upstream has a tensor (and the
                 reverse); an int where upstream has a float
  dtype          same bytes read as another dtype of the same width (float32 <-> int32, ...)
  shape          a trailing dimension of size 1 added
  stride         the result laid out the other way round (column-major), or a gap in its only
                 dimension longer than 1
  offset         storage offset one element later
  requires_grad  the flag flipped
  alias          a copy where upstream aliases an input; an alias where upstream copies
  value.exact, value.derived
                 one wrong element (the middle one), the last element wrong, elements permuted
                 (rolled by one), a constant output (0, or 1 where upstream is all zeros).
                 Permuting or flattening elements that are equal as numbers (NaN = NaN,
                 -0.0 = 0.0) changes nothing and is not injected. A wrong float is moved by
                 max(2^-10, 4 ulp of its dtype) times the tensor's largest magnitude (at
                 least one ulp); a wrong integer by one; a wrong bool flipped; NaN and inf
                 become 0.
"""
from __future__ import annotations

import base64
import collections
import copy

import numpy as np

import compare

MAX_LEAVES = 2  # tensors/numbers of one result injected into (the first ones)
SAME_WIDTH = {"torch.float32": "torch.int32", "torch.int32": "torch.float32", "torch.float64": "torch.int64",
              "torch.int64": "torch.float64", "torch.float16": "torch.bfloat16", "torch.bfloat16": "torch.float16",
              "torch.int16": "torch.float16", "torch.uint16": "torch.int16", "torch.int8": "torch.uint8",
              "torch.uint8": "torch.int8", "torch.bool": "torch.uint8", "torch.complex64": "torch.float64",
              "torch.complex128": "torch.float64", "torch.uint32": "torch.int32", "torch.uint64": "torch.int64"}


class Result:
    def __init__(self):
        self.injected = collections.Counter()   # (comparator, fault) -> n
        self.caught = collections.Counter()
        self.missed: list[str] = []
        self.exercised = collections.Counter()  # comparator -> cases whose clean comparison ran it
        self.clean_failures: list[str] = []
        self.refused = 0  # cases where ours refuses by name (harness.py Note [Refusals]): nothing to inject

    @property
    def ok(self) -> bool:
        """Every injection caught, every comparator exercised and injected at. (Cases that
        already disagree are not injected into; test_golden reports them.)"""
        return not self.missed and not self.unexercised()

    def unexercised(self) -> list[str]:
        injected = {c for c, _ in self.injected}
        return [c for c in compare.COMPARATORS if not self.exercised[c] or c not in injected]

    def report(self) -> str:
        lines = ["comparator      fault                          injected  caught"]
        for (c, f), n in sorted(self.injected.items()):
            lines.append(f"{c:15} {f:30} {n:8}  {self.caught[(c, f)]:6}")
        for c in self.unexercised():
            lines.append(f"FAIL comparator {c}: exercised by {self.exercised[c]} cases, "
                         f"{sum(n for (k, _), n in self.injected.items() if k == c)} injections")
        for m in self.missed[:40]:
            lines.append(f"MISSED {m}")
        if len(self.missed) > 40:
            lines.append(f"... {len(self.missed) - 40} more missed")
        if self.clean_failures or self.refused:
            lines.append(f"not injected: {len(self.clean_failures)} cases that disagree already, "
                         f"{self.refused} refused")
        total, caught = sum(self.injected.values()), sum(self.caught.values())
        lines.append(f"self-test: {total} faults injected at {len({c for c, _ in self.injected})} of "
                     f"{len(compare.COMPARATORS)} comparators, {caught} caught, {total - caught} missed")
        return "\n".join(lines)


# ---- element-level helpers -----------------------------------------------------------------------

def _values(desc: dict) -> np.ndarray:
    """Writable element array of a tensor description (bfloat16 as float32)."""
    return compare.array(desc).copy()


def _same_numbers(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal as numbers (NaN equal to NaN, -0.0 to 0.0): a change no comparator should see."""
    return bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))


@np.errstate(over="ignore", invalid="ignore")
def _store(desc: dict, a: np.ndarray) -> dict:
    if desc["dtype"] == "torch.bfloat16":
        bits = a.astype(np.float32).view(np.uint32).astype(np.uint64)
        a = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    else:
        a = a.astype(compare.NP[desc["dtype"]])
    out = dict(desc)
    out["data"] = base64.b64encode(a.tobytes()).decode("ascii")
    return out


@np.errstate(over="ignore", invalid="ignore")
def _wrong(desc: dict, a: np.ndarray, i: int) -> dict:
    """desc with element i of its values `a` made wrong (see the module docstring)."""
    a = a.copy()
    if a.dtype == np.bool_:
        a[i] = not a[i]
    elif a.dtype.kind in "ui":
        a[i] = a[i] - 1 if a[i] == np.iinfo(a.dtype).max else a[i] + 1
    else:
        real = a.real if a.dtype.kind == "c" else a
        x = float(real[i])
        if not np.isfinite(x) or (a.dtype.kind == "c" and not np.isfinite(a[i].imag)):
            new = 0.0
        else:
            # the scale of the values: a complex result's magnitudes (its real parts may all be
            # zero, as imag's gradient is, where a step scaled by them would be below any bound)
            mags = np.abs(a[np.isfinite(a)])
            step = max(2.0 ** -10, 4 * compare.ULP[desc["dtype"]])
            new = x + step * max(float(mags.max()) if mags.size else 0.0, abs(x), 1e-30)
        a[i] = complex(new, 0.0 if not np.isfinite(a[i].imag) else a[i].imag) if a.dtype.kind == "c" else new
    out = _store(desc, a)
    if out["data"] == desc["data"]:  # rounded back to the same value: one unit in the last place
        raw = np.frombuffer(base64.b64decode(desc["data"]), dtype=np.uint8).reshape(a.size, -1).copy()
        width = raw.shape[1] // (2 if a.dtype.kind == "c" else 1)
        word = raw[i, :width].view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[width])
        word += 1
        out = {**desc, "data": base64.b64encode(raw.tobytes()).decode("ascii")}
    return out


# ---- faults --------------------------------------------------------------------------------------

def tensor_faults(leaf: dict):
    """(comparator, fault, new leaf) for one tensor description of ours."""
    yield "dtype", "wrong dtype", {**leaf, "dtype": SAME_WIDTH[leaf["dtype"]]}
    yield "shape", "wrong shape", {**leaf, "shape": leaf["shape"] + [1], "stride": leaf["stride"] + [1]}
    big = [d for d, s in enumerate(leaf["shape"]) if s > 1]
    if len(big) >= 2:
        stride, acc = list(leaf["stride"]), 1
        for d in range(len(leaf["shape"])):
            stride[d] = acc
            acc *= leaf["shape"][d]
        if stride != leaf["stride"]:
            yield "stride", "column-major layout", {**leaf, "stride": stride}
    elif len(big) == 1:
        stride = list(leaf["stride"])
        stride[big[0]] = stride[big[0]] * 2 or 1
        yield "stride", "gap in strides", {**leaf, "stride": stride}
    yield "offset", "wrong storage offset", {**leaf, "offset": leaf["offset"] + 1}
    yield "requires_grad", "requires_grad flipped", {**leaf, "requires_grad": not leaf["requires_grad"]}
    if leaf["alias"]:
        yield "alias", "copy where upstream aliases", {**leaf, "alias": []}
    else:
        yield "alias", "alias where upstream copies", {**leaf, "alias": ["in0"]}
    yield "structure", "number instead of tensor", {"scalar": "float", "value": 0.0}
    if not leaf.get("data"):
        return
    a = _values(leaf)
    n = a.size
    yield "value", "one wrong element", _wrong(leaf, a, n // 2)
    if n > 1:
        yield "value", "last element wrong", _wrong(leaf, a, n - 1)
        rolled = np.roll(a, 1)
        if not _same_numbers(rolled, a):
            yield "value", "permuted", _store(leaf, rolled)
    const = np.zeros_like(a)
    if _same_numbers(const, a):
        const = np.ones_like(a)
    yield "value", "constant output", _store(leaf, const)


def scalar_faults(leaf: dict):
    v = leaf["value"]
    kind = leaf["scalar"]
    yield "structure", "tensor instead of number", {
        "tensor": True, "dtype": "torch.float32", "device": "cpu", "shape": [], "stride": [], "offset": 0,
        "requires_grad": False, "conj": False, "neg": False, "data": base64.b64encode(np.float32(0).tobytes()).decode(),
        "alias": []}
    if kind == "float":
        yield "structure", "int instead of float", {"scalar": "int", "value": 0}
        x = compare.scalar_value(v)
        new = 0.0 if x != x or x in (float("inf"), float("-inf")) else x + 2.0 ** -10 * max(abs(x), 1e-30)
        yield "value", "wrong number", {**leaf, "value": new}
    elif kind == "bool":
        yield "value", "wrong number", {**leaf, "value": not v}
    elif kind == "int":
        yield "value", "wrong number", {**leaf, "value": v + 1}
    elif kind == "complex":
        yield "value", "wrong number", {**leaf, "value": [compare.scalar_value(v[0]) + 1.0, v[1]]}
    elif kind == "NoneType":
        return
    else:  # str, dtype, device, layout, memory_format
        yield "value", "wrong value", {**leaf, "value": str(v) + "_x"}


def leaves(desc: dict, path=()):
    if "seq" in desc:
        for i, item in enumerate(desc["items"]):
            yield from leaves(item, path + (i,))
    elif "tensor" in desc or "scalar" in desc:
        yield path, desc


def replace(desc: dict, path, new: dict) -> dict:
    if not path:
        return new
    out = dict(desc)
    out["items"] = list(desc["items"])
    out["items"][path[0]] = replace(desc["items"][path[0]], path[1:], new)
    return out


def leaf_at(desc: dict, path):
    for i in path:
        desc = desc["items"][i]
    return desc


def faults(ours: dict, up: dict, up64: dict | None, tol: str):
    """Every (comparator, fault, faulted copy of ours) applicable to this case; "value" is
    resolved to the value comparator that reads that leaf."""
    if "raises" in up:
        other = "ValueError" if up["raises"] == "RuntimeError" else "RuntimeError"
        yield "exception", "wrong exception class", {"raises": other, "message": "injected"}
        yield "exception", "returns where upstream raises", {"scalar": "NoneType", "value": None}
        return
    yield "exception", "raises where upstream returns", {"raises": "RuntimeError", "message": "injected"}
    seqs = [p for p, _ in _seqs(ours)]
    if seqs:
        p = seqs[0]
        s = leaf_at(ours, p)
        if s["items"]:
            yield "structure", "tuple item dropped", replace(ours, p, {**s, "items": s["items"][:-1]})
    for k, (path, leaf) in enumerate(leaves(ours)):
        if k >= MAX_LEAVES:
            break
        gen = tensor_faults(leaf) if "tensor" in leaf else scalar_faults(leaf)
        value = compare.value_comparator(leaf_at(up, path), _leaf_or_none(up64, path), tol)
        for comparator, fault, new in gen:
            yield value if comparator == "value" else comparator, fault, replace(ours, path, new)


def _leaf_or_none(desc, path):
    try:
        return leaf_at(desc, path) if desc is not None else None
    except (KeyError, IndexError):
        return None


def _seqs(desc, path=()):
    if "seq" in desc:
        yield path, desc
        for i, item in enumerate(desc["items"]):
            yield from _seqs(item, path + (i,))


def run(suite) -> Result:
    res = Result()
    for key in suite.cases:
        ours = suite.run(key)
        clean = suite.verdict(key, ours)
        for c in clean.checked:
            res.exercised[c] += 1
        if suite.refused(key):
            res.refused += 1
            continue
        if not clean:
            res.clean_failures.append(key)
            continue
        up = suite.oracle[key]
        for comparator, fault, bad in faults(copy.deepcopy(ours), up["result"], up.get("float64"),
                                             suite.cases[key].get("tol", "exact")):
            v = suite.verdict(key, bad)
            hit = {c for c, _ in v.errors}
            res.injected[(comparator, fault)] += 1
            if comparator in hit:
                res.caught[(comparator, fault)] += 1
            else:
                res.missed.append(f"{key}: {comparator} / {fault}: " + ("; ".join(v.lines()) or "no error reported"))
    return res
