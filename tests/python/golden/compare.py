"""Agreement between torchnative's result and upstream's for one golden case, comparator by
comparator (the table is in docs/TESTING.md; selftest.py proves each one catches faults).

  exception      upstream raises iff ours raises, with the same exception class.
  structure      the kind of result (tensor, number, tuple, named tuple, list) and its length.
  dtype          dtype, device, and the lazy conj/neg bits (how the elements are to be read).
  shape          sizes.
  stride         strides, for every tensor result (upstream defines them for all of ours).
  offset         storage offset.
  requires_grad  the flag.
  alias          which inputs, named variables and earlier results share the result's storage.
  value.exact    (default) every element bit-identical, except that any NaN matches any NaN;
                 +0.0 and -0.0 differ. Integer, bool and complex results, and float results of
                 ops that do no rounding (views, copies, comparisons, min/max, factories,
                 seeded random draws, rounding to integers).
  value.derived  float results of ops that round (transcendentals, reductions, matmul,
                 normalisations). Upstream also runs the case with its floating inputs made
                 float64; its own error is E = max|up - up64| over the tensor's finite
                 elements, and each element of ours must satisfy
                     |ours - up64| <= 2*E + ulp(dtype) * |up64|
                 i.e. no further from the float64 answer than twice upstream's worst error
                 plus one unit in the last place of the result dtype (2^-23 float32, 2^-10
                 float16, 2^-7 bfloat16, 2^-52 float64). Where upstream's element is not
                 finite, ours must match it exactly. When the float64 run is no wider than the
                 result (a float64 result), E cannot be measured and is taken as one ulp of
                 the largest |up64|, or upstream's float32 run's error scaled to float64 when
                 larger (Note [Float64 error from the float32 run]), and the bound is 3E +
                 ulp |up64|: the reference is then upstream's own answer, E from the truth.
                 Where the oracle also ran the case with its sums in other orders (`spread`:
                 path -> E over its own run and every order; Note [Upstream's error over
                 orders] in tools/opinfo_oracle.py), E is that largest error.
"""
from __future__ import annotations

import base64
import math

import numpy as np

COMPARATORS = ("exception", "structure", "dtype", "shape", "stride", "offset", "requires_grad", "alias",
               "value.exact", "value.derived")

ULP = {"torch.float16": 2.0 ** -10, "torch.bfloat16": 2.0 ** -7, "torch.float32": 2.0 ** -23,
       "torch.float64": 2.0 ** -52, "torch.complex64": 2.0 ** -23, "torch.complex128": 2.0 ** -52}
ULP32 = ULP["torch.float32"]
NP = {"torch.bool": np.bool_, "torch.uint8": np.uint8, "torch.int8": np.int8, "torch.int16": np.int16,
      "torch.int32": np.int32, "torch.int64": np.int64, "torch.float16": np.float16, "torch.bfloat16": np.uint16,
      "torch.float32": np.float32, "torch.float64": np.float64, "torch.complex64": np.complex64,
      "torch.complex128": np.complex128, "torch.uint16": np.uint16, "torch.uint32": np.uint32,
      "torch.uint64": np.uint64}
WIDTH = {"torch.float16": 16, "torch.bfloat16": 16, "torch.float32": 32, "torch.float64": 64,
         "torch.complex64": 32, "torch.complex128": 64}
FLOATING = ("torch.float16", "torch.bfloat16", "torch.float32", "torch.float64", "torch.complex64", "torch.complex128")
SHOW = 5


class Verdict:
    """What one comparison found: errors as (comparator, message), and which comparators ran."""

    def __init__(self):
        self.errors: list[tuple[str, str]] = []
        self.checked: set[str] = set()

    def check(self, comparator: str) -> None:
        self.checked.add(comparator)

    def fail(self, comparator: str, message: str) -> None:
        self.errors.append((comparator, message))

    def __bool__(self) -> bool:  # True when the results agree
        return not self.errors

    def lines(self) -> list[str]:
        return [f"[{c}] {m}" for c, m in self.errors]


# ---- decoding ------------------------------------------------------------------------------------

def raw(desc: dict) -> bytes:
    return base64.b64decode(desc["data"]) if desc.get("data") else b""


def array(desc: dict) -> np.ndarray:
    """A tensor description's elements as numpy, flat; bfloat16 widened exactly to float32."""
    a = np.frombuffer(raw(desc), dtype=NP[desc["dtype"]])
    if desc["dtype"] == "torch.bfloat16":
        a = (a.astype(np.uint32) << 16).view(np.float32)
    return a


def as_real(a: np.ndarray) -> np.ndarray:
    """Complex as interleaved (re, im) float pairs; everything else widened to float64."""
    if np.iscomplexobj(a):
        return np.stack([a.real, a.imag], axis=-1).reshape(-1).astype(np.float64)
    return a.astype(np.float64)


def scalar_value(x):
    if isinstance(x, str) and x in ("nan", "inf", "-inf"):
        return float(x)
    if isinstance(x, list):
        return complex(scalar_value(x[0]), scalar_value(x[1]))
    return x


# ---- the comparison ------------------------------------------------------------------------------

def compare(ours: dict, up: dict, up64: dict | None = None, tol: str = "exact", path: str = "out",
            spread: dict | None = None) -> Verdict:
    """spread: per result path, upstream's float32 error over its own run and its runs with the
    sums in other orders (E is at least that)."""
    v = Verdict()
    v.check("exception")
    if "raises" in up or "raises" in ours:
        if ours.get("raises") != up.get("raises"):
            v.fail("exception", f"{path}: upstream {up.get('raises') or 'returns'}, ours "
                                f"{ours.get('raises') or 'returns'} ({ours.get('message', '')})")
        return v
    _compare(v, ours, up, up64, tol, path, spread or {})
    return v


def value_comparator(up: dict, up64: dict | None, tol: str) -> str:
    """Which value comparator reads upstream's leaf `up` (a tensor or number description)."""
    if tol != "derived" or not up64:
        return "value.exact"
    if "tensor" in up:
        if (up["dtype"] in FLOATING and "tensor" in up64 and up64["shape"] == up["shape"]
                and up64["dtype"] in FLOATING):
            return "value.derived"
        return "value.exact"
    if "scalar" in up and isinstance(scalar_value(up["value"]), float) and \
            isinstance(scalar_value(up64.get("value")), float):
        return "value.derived"
    return "value.exact"


def _kind(d: dict) -> str:
    return "tensor" if "tensor" in d else "seq" if "seq" in d else "scalar" if "scalar" in d else "?"


def _compare(v: Verdict, ours: dict, up: dict, up64: dict | None, tol: str, path: str, spread: dict) -> None:
    v.check("structure")
    if _kind(ours) != _kind(up):
        v.fail("structure", f"{path}: upstream a {_kind(up)}, ours a {_kind(ours)}")
        return
    if "seq" in up:
        if up["seq"] != ours["seq"] or len(up["items"]) != len(ours["items"]):
            v.fail("structure", f"{path}: upstream {up['seq']}[{len(up['items'])}], ours {ours['seq']}[{len(ours['items'])}]")
            return
        items64 = up64["items"] if up64 and "seq" in up64 and len(up64["items"]) == len(up["items"]) else None
        for i, (a, b) in enumerate(zip(ours["items"], up["items"])):
            _compare(v, a, b, items64[i] if items64 else None, tol, f"{path}[{i}]", spread)
        return
    if "scalar" in up:
        if up["scalar"] != ours["scalar"]:
            v.fail("structure", f"{path}: upstream {up['scalar']}, ours {ours['scalar']}")
            return
        o, u = scalar_value(ours["value"]), scalar_value(up["value"])
        if value_comparator(up, up64, tol) == "value.derived":
            v.check("value.derived")
            bad = derived_errors(np.array([o]), np.array([u]), np.array([scalar_value(up64["value"])]), ULP32, path,
                                 floor=spread.get(path, 0.0))
            for m in bad:
                v.fail("value.derived", m)
            return
        v.check("value.exact")
        if not same_scalar(o, u):
            v.fail("value.exact", f"{path}: ours {o!r}, upstream {u!r}")
        return
    _compare_tensor(v, ours, up, up64, tol, path, spread.get(path, 0.0))


def _compare_tensor(v: Verdict, ours: dict, up: dict, up64: dict | None, tol: str, path: str,
                    floor: float = 0.0) -> None:
    ok = True
    for comparator, keys in (("dtype", ("dtype", "device", "conj", "neg")), ("shape", ("shape",)),
                             ("stride", ("stride",)), ("offset", ("offset",)),
                             ("requires_grad", ("requires_grad",)), ("alias", ("alias",))):
        v.check(comparator)
        diff = [f"{k}: upstream {up[k]}, ours {ours[k]}" for k in keys if up[k] != ours[k]]
        if diff:
            v.fail(comparator, f"{path}: " + "; ".join(diff))
            ok = ok and comparator not in ("dtype", "shape")
    if not ok or up["data"] is None or ours["data"] is None:
        if ok and (up["data"] is None) != (ours["data"] is None):
            v.fail("dtype", f"{path}: one side has no data")
        return
    if value_comparator(up, up64, tol) == "value.derived":
        v.check("value.derived")
        if raw(ours) == raw(up):
            return
        wider = WIDTH[up64["dtype"]] > WIDTH[up["dtype"]]
        for m in derived_errors(as_real(array(ours)), as_real(array(up)), as_real(array(up64)),
                                ULP[up["dtype"]], path, wider, floor):
            v.fail("value.derived", m)
        return
    v.check("value.exact")
    if raw(ours) == raw(up):
        return
    for m in exact_errors(array(ours), array(up), path):
        v.fail("value.exact", m)


# ---- element rules -------------------------------------------------------------------------------

def same_scalar(a, b) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, complex):
        return same_scalar(a.real, b.real) and same_scalar(a.imag, b.imag)
    return a == b


def exact_mask(o: np.ndarray, u: np.ndarray) -> np.ndarray:
    if o.dtype.kind in "fc":
        o, u = as_real(o), as_real(u)
        return ((o == u) & (np.signbit(o) == np.signbit(u))) | (np.isnan(o) & np.isnan(u))
    return o == u


def listing(bad_idx, describe, path) -> list[str]:
    out = [describe(i) for i in bad_idx[:SHOW]]
    if len(bad_idx) > SHOW:
        out.append(f"{path}: ... {len(bad_idx) - SHOW} more elements differ")
    return out


def exact_errors(o: np.ndarray, u: np.ndarray, path: str) -> list[str]:
    if o.shape != u.shape:
        return [f"{path}: {o.size} elements, upstream {u.size}"]
    good = exact_mask(o, u)
    ro, ru = (as_real(o), as_real(u)) if o.dtype.kind == "c" else (o, u)
    bad = np.flatnonzero(~good)
    return listing(bad, lambda i: f"{path}[{i}]: ours {ro[i].item()!r}, upstream {ru[i].item()!r}", path)


# Note [Float64 error from the float32 run]
# A float64 result has no wider rerun, so the `derived` rule's E would be one ulp of its largest
# element: too small for an algorithm whose rounding errors add up (a solve, a QR, their
# backwards: n * u * cond(A) of them), and two correct implementations (MKL and the reference
# LAPACK) then differ by more, by CPU. The oracle also runs such a case with its float64 inputs
# narrowed to float32: upstream's float32 error E32 = max|up32 - up64| is the same algorithm's
# error at u = 2**-24, so at 2**-53 it is E32 * 2**-29 (rounding error scales with the unit
# roundoff; the float32 run's input rounding is part of it, as a float64 input's would be).
# `narrowed_floor` gives that floor per result path; E is at least it. And the reference is then
# upstream's answer itself, E from the truth: ours within 2E of the truth is within 3E of it, so
# the bound is 3E + ulp |up|. Where even that is too narrow, upstream's float64 answer is the less
# accurate one: op_backward/linalg_lu_solve/bwd_f64 against a 200-bit mpmath answer
# (`tools/f64_truth.py` on each side, session 27's AVX-512 CPU): upstream's largest error 1.95e-15,
# ours 6.1e-16, while upstream's float32 run predicts 4.3e-16; that case is left out
# (cases_op_backward.NO_F64).
NARROW = 2.0 ** -29


def narrowed_floor(up32: dict | None, up64: dict | None, path: str = "out") -> dict:
    """{result path: E32 * 2**-29} over the float64 tensors and numbers of upstream's float64
    answer that its float32 run (`up32`) computed in float32 (Note [Float64 error from the
    float32 run])."""
    out = {}
    if not up32 or not up64 or _kind(up32) != _kind(up64):
        return out
    if "seq" in up64:
        if len(up32["items"]) == len(up64["items"]):
            for i, (a, b) in enumerate(zip(up32["items"], up64["items"])):
                out.update(narrowed_floor(a, b, f"{path}[{i}]"))
        return out
    if "scalar" in up64:
        a, b = scalar_value(up32.get("value")), scalar_value(up64.get("value"))
        if isinstance(a, float) and isinstance(b, float) and math.isfinite(a) and math.isfinite(b):
            out[path] = abs(a - b) * NARROW
        return out
    if ("tensor" in up64 and up64["dtype"] in ("torch.float64", "torch.complex128")
            and up32.get("dtype") in ("torch.float32", "torch.complex64") and up32["shape"] == up64["shape"]
            and up32.get("data") is not None and up64.get("data") is not None):
        a, b = as_real(array(up32)), as_real(array(up64))
        with np.errstate(invalid="ignore"):
            finite = np.isfinite(a) & np.isfinite(b)
            if finite.any():
                out[path] = float(np.max(np.abs(a - b)[finite])) * NARROW
    return out


def derived_errors(o: np.ndarray, u: np.ndarray, r: np.ndarray, ulp: float, path: str, wider: bool = True,
                   floor: float = 0.0) -> list[str]:
    """The `derived` rule on flat float64 arrays (ours, upstream, upstream's float64 answer);
    wider: the float64 answer is more precise than the result dtype; floor: upstream's error over
    other orders of its sums (E is at least that)."""
    o, u, r = (np.asarray(x, dtype=np.float64) for x in (o, u, r))
    if not (o.shape == u.shape == r.shape):
        return [f"{path}: {o.size} elements, upstream {u.size}, float64 run {r.size}"]
    with np.errstate(invalid="ignore", over="ignore"):
        finite = np.isfinite(u) & np.isfinite(r)
        err = float(np.max(np.abs(u - r)[finite])) if finite.any() else 0.0
        if not wider and finite.any():
            err = max(err, ulp * float(np.max(np.abs(r[finite]))))
        err = max(err, floor)
        # Note [Float64 error from the float32 run]: a float64 result's reference is upstream's own
        # answer, E away from the truth itself; ours within 2E of the truth is within 3E of it.
        # (A narrower result without a wider rerun keeps 2E: a case that spells its dtype out, whose
        # E is then the ulp floor, and 3 ulps of float16 would let the self-test's 4-ulp fault by.)
        bound = (3 if not wider and ulp == ULP["torch.float64"] else 2) * err + ulp * np.abs(r)
        close = np.abs(o - r) <= bound
        good = np.where(finite, close, exact_mask(o, u))
    bad = np.flatnonzero(~good)
    return listing(bad, lambda i: f"{path}[{i}]: ours {float(o[i])!r}, upstream {float(u[i])!r}, "
                                  f"float64 {float(r[i])!r}, bound {float(bound[i]):.3g}", path)


def compare_values(ours, up, up64, tol, path) -> list[str]:
    """The value rules on plain lists of numbers (tools/sweep.py, the real-model tests)."""
    def arr(xs):
        return np.array([float(scalar_value(x)) if not isinstance(x, bool) else x for x in xs])
    o, u = arr(ours), arr(up)
    if tol == "derived" and up64 is not None and u.dtype.kind == "f":
        return derived_errors(o, u, arr(up64), ULP32, path)
    return exact_errors(o, u, path)
