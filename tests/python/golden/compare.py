"""Agreement between torchnative's result and upstream's for one golden case.

Tolerances (docs/TESTING.md):
  exact    (default)  every value bit-identical; NaN where upstream has NaN. Integer and bool
                      results, views, factories and anything that does no rounding.
  derived             float results of rounding computations. Upstream also runs the case with
                      float64 inputs; its own float32 error E = max|up32 - up64|. Ours must
                      satisfy |ours - up64| <= 2*E + ulp32(up64) elementwise: no further from
                      the float64 answer than twice upstream's own worst error, plus one ulp.
Shape, strides, storage offset, dtype and requires_grad always match exactly; an exception
must be of the same class.
"""
from __future__ import annotations

import math

ULP32 = 2.0 ** -23


def decode(x):
    if isinstance(x, str) and x in ("nan", "inf", "-inf"):
        return float(x)
    return x


def flat(values):
    out = []
    for v in values:
        if isinstance(v, list):
            out.extend(flat(v))
        else:
            out.append(decode(v))
    return out


def same_exact(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return a == b and type(a) is type(b)


def compare(ours: dict, up: dict, up64: dict | None, tol: str, path: str = "out") -> list[str]:
    """Returns the disagreements (empty when the results agree)."""
    if "raises" in up or "raises" in ours:
        if ours.get("raises") != up.get("raises"):
            return [f"{path}: upstream {up.get('raises') or 'returns'}, ours {ours.get('raises') or 'returns'}"
                    f" ({ours.get('message', '')})"]
        return []
    if set(up) != set(ours):
        return [f"{path}: kind differs: upstream {sorted(up)}, ours {sorted(ours)}"]
    if "seq" in up:
        if up["seq"] != ours["seq"] or len(up["items"]) != len(ours["items"]):
            return [f"{path}: upstream {up['seq']}[{len(up['items'])}], ours {ours['seq']}[{len(ours['items'])}]"]
        errs = []
        for i, (a, b) in enumerate(zip(ours["items"], up["items"])):
            errs += compare(a, b, up64["items"][i] if up64 else None, tol, f"{path}[{i}]")
        return errs
    if "tensor" in up:
        errs = [f"{path}.{k}: upstream {up[k]}, ours {ours[k]}"
                for k in ("dtype", "shape", "stride", "offset", "requires_grad") if up[k] != ours[k]]
        if errs:
            return errs
        return compare_values(flat(ours["values"]), flat(up["values"]),
                              flat(up64["values"]) if up64 else None, tol, path)
    if "scalar" in up:
        if up["scalar"] != ours["scalar"]:
            return [f"{path}: upstream {up['scalar']}, ours {ours['scalar']}"]
        return compare_values(flat([ours["value"]]), flat([up["value"]]),
                              flat([up64["value"]]) if up64 else None, tol, path)
    if ours != up:
        return [f"{path}: upstream {up}, ours {ours}"]
    return []


def compare_values(ours, up, up64, tol, path) -> list[str]:
    if tol == "derived" and up64 is not None and any(isinstance(v, float) for v in up):
        err_up = max((abs(a - b) for a, b in zip(up, up64)
                      if isinstance(a, float) and math.isfinite(a) and math.isfinite(b)), default=0.0)
        bad = []
        for i, (o, r, r64) in enumerate(zip(ours, up, up64)):
            if isinstance(r, float) and not math.isfinite(r):
                ok = same_exact(o, r)
            else:
                ok = isinstance(o, float) and abs(o - r64) <= 2 * err_up + ULP32 * abs(r64)
            if not ok:
                bad.append(f"{path}[{i}]: ours {o}, upstream {r}, float64 {r64}, bound {2 * err_up + ULP32 * abs(r64):.3g}")
        return bad[:5] + ([f"... {len(bad) - 5} more"] if len(bad) > 5 else [])
    bad = [f"{path}[{i}]: ours {o!r}, upstream {r!r}" for i, (o, r) in enumerate(zip(ours, up)) if not same_exact(o, r)]
    return bad[:5] + ([f"... {len(bad) - 5} more"] if len(bad) > 5 else [])
