"""Pointwise ops on long arrays, ours (.venv) against upstream torch 2.13.0 (.venv-upstream), bit for bit.

    .venv/bin/python tools/ulp_survey.py                     # every op, every dtype: a table of differences
    .venv/bin/python tools/ulp_survey.py -k erf --dtype float16 -v   # some ops; -v prints differing elements
    .venv/bin/python tools/ulp_survey.py --markdown docs/ulp_survey.md

The fuzzer's tensors have at most 64 elements and its values are compared within derived
tolerances, so a kernel that rounds differently from upstream's (a half-type op computed in float32
and rounded once where upstream rounds each step, another approximation of erf) passes it. Here each
op runs on N = 70,001 elements (a vector body and an odd tail) in float32, float64, float16 and
bfloat16, contiguous and with stride 2 (upstream's vector paths differ by layout), and every
element's bits are compared. The report per op and dtype: elements that differ, the largest
distance in units in the last place (ulp), and how many differ only in a zero's sign or a NaN.

Inputs are drawn once, in upstream's process (seeded), and written as bytes: both sides read the
same bits, so no conversion of ours's is under test but the op's. Half of each input is spread over
magnitudes 1e-4 .. 1e4 of both signs, a quarter uniform in (-1, 1) (the domain of asin, atanh,
erfinv), a quarter small integers and halves (rounding, floor, pow's exponents), then ±0, ±inf, NaN
and the dtype's extremes. Each side runs in its own process (`--worker`); outputs are raw bytes
in a scratch directory.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
PYTHONS = {"ours": ROOT / ".venv/bin/python", "upstream": ROOT / ".venv-upstream/bin/python"}
N = 70_001
DTYPES = ["float32", "float64", "float16", "bfloat16"]
LAYOUTS = ["contiguous", "stride2"]

# name -> (arity, expression over a, b, c). The names are what the table prints; the expressions
# run in the worker with torch and F in scope.
UNARY = ["abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "deg2rad",
         "digamma", "erf", "erfc", "erfinv", "exp", "exp2", "expm1", "floor", "frac", "i0", "lgamma",
         "log", "log10", "log1p", "log2", "logit", "neg", "rad2deg", "reciprocal", "round", "rsqrt",
         "sigmoid", "sign", "sin", "sinc", "sinh", "sqrt", "square", "tan", "tanh", "trunc", "nan_to_num",
         "angle", "signbit", "sgn", "positive"]
SPECIAL = ["i0e", "i1", "i1e", "ndtr", "ndtri", "log_ndtr", "erfcx", "entr", "expit",
           "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0", "modified_bessel_i1",
           "modified_bessel_k0", "modified_bessel_k1", "scaled_modified_bessel_k0",
           "scaled_modified_bessel_k1", "spherical_bessel_j0", "airy_ai"]
ACTIVATIONS = ["relu", "relu6", "gelu", "silu", "mish", "softplus", "elu", "selu", "celu", "hardswish",
               "hardsigmoid", "logsigmoid", "softsign", "tanhshrink", "hardtanh", "leaky_relu",
               "hardshrink", "softshrink"]
BINARY = ["add", "sub", "mul", "div", "remainder", "fmod", "pow", "atan2", "hypot", "copysign",
          "nextafter", "xlogy", "logaddexp", "logaddexp2", "maximum", "minimum", "fmax", "fmin",
          "floor_divide", "igamma", "igammac", "ldexp"]
OPS: dict[str, tuple[int, str]] = {
    **{op: (1, f"torch.{op}(a)") for op in UNARY},
    **{f"special.{op}": (1, f"torch.special.{op}(a)") for op in SPECIAL},
    **{f"F.{op}": (1, f"F.{op}(a)") for op in ACTIVATIONS},
    "F.gelu(tanh)": (1, "F.gelu(a, approximate='tanh')"),
    "polygamma(1)": (1, "torch.polygamma(1, a)"),
    "polygamma(2)": (1, "torch.polygamma(2, a)"),
    "mvlgamma(1)": (1, "torch.mvlgamma(a.abs() + 1, 1)"),
    **{op: (2, f"torch.{op}(a, b)") for op in BINARY},
    "div(floor)": (2, "torch.div(a, b, rounding_mode='floor')"),
    "div(trunc)": (2, "torch.div(a, b, rounding_mode='trunc')"),
    "special.xlog1py": (2, "torch.special.xlog1py(a, b)"),
    "special.zeta": (2, "torch.special.zeta(a, b)"),
    "add(alpha)": (2, "torch.add(a, b, alpha=0.7)"),
    "pow(a, 2.5)": (1, "torch.pow(a, 2.5)"),
    "pow(a, 0.5)": (1, "torch.pow(a, 0.5)"),
    "pow(a, -1)": (1, "torch.pow(a, -1)"),
    "pow(2.5, a)": (1, "torch.pow(2.5, a)"),
    "mul(a, 0.1)": (1, "torch.mul(a, 0.1)"),
    "div(a, 3)": (1, "torch.div(a, 3)"),
    "lerp(0.3)": (2, "torch.lerp(a, b, 0.3)"),
    "lerp": (3, "torch.lerp(a, b, c)"),
    "addcmul": (3, "torch.addcmul(a, b, c, value=0.5)"),
    "addcdiv": (3, "torch.addcdiv(a, b, c, value=0.5)"),
    "clamp": (3, "torch.clamp(a, torch.minimum(b, c), torch.maximum(b, c))"),
    "where": (3, "torch.where(a > 0, b, c)"),
}


# ---- the worker: runs in each interpreter -----------------------------------------------------------

def draw_inputs(torch, dtype):
    """Three inputs of N elements in `dtype` (see the module's docstring), from seeded generators."""
    g = torch.Generator().manual_seed(20261205)
    f64 = torch.float64
    out = []
    for _ in range(3):
        n2, n4 = N // 2, N // 4
        spread = torch.randn(n2, generator=g, dtype=f64).sign() * 10 ** (torch.rand(n2, generator=g, dtype=f64) * 8 - 4)
        unit = torch.rand(n4, generator=g, dtype=f64) * 2 - 1
        halves = torch.randint(-16, 17, (n4,), generator=g).to(f64) / 2
        info = torch.finfo(dtype)
        edge = torch.tensor([0.0, -0.0, float("inf"), -float("inf"), float("nan"), info.max, -info.max,
                             info.tiny, -info.tiny, info.eps, 1.0, -1.0, 0.5], dtype=f64)
        x = torch.cat([spread, unit, halves, edge])
        x = torch.cat([x, x[: N - x.numel()]]) if x.numel() < N else x[:N]
        out.append(x[torch.randperm(N, generator=g)].to(dtype))
    return out


def worker(scratch: Path, side: str, names: list[str], dtypes: list[str]) -> None:
    import torch
    import torch.nn.functional as F

    if (side == "ours") != hasattr(torch._C, "_torchnative"):
        sys.exit(f"{side} worker imported the wrong torch: {torch._C.__file__}")
    torch.set_num_threads(1)
    status = {}
    for dt in dtypes:
        dtype = getattr(torch, dt)
        path = scratch / f"input-{dt}.bin"
        if side == "upstream":
            ins = draw_inputs(torch, dtype)
            path.write_bytes(b"".join(x.view(torch.uint8).numpy().tobytes() for x in ins))
        else:
            raw = torch.frombuffer(bytearray(path.read_bytes()), dtype=dtype)
            ins = list(raw.view(3, N).unbind(0))
        for layout in LAYOUTS:
            if layout == "stride2":  # the same values, every other element of a buffer twice as long
                args = [torch.stack([x, torch.zeros_like(x)], 1)[:, 0] for x in ins]
            else:
                args = ins
            for name in names:
                arity, expr = OPS[name]
                key = f"{name}|{dt}|{layout}"
                try:
                    r = eval(expr, {"torch": torch, "F": F, "a": args[0], "b": args[1], "c": args[2]})
                except Exception as e:
                    status[key] = {"exc": type(e).__name__, "msg": str(e).splitlines()[0][:200] if str(e) else ""}
                    continue
                status[key] = {"dtype": str(r.dtype).removeprefix("torch."), "shape": list(r.shape)}
                (scratch / f"{side}-{key.replace('|', '_')}.bin").write_bytes(
                    r.contiguous().view(-1).view(torch.uint8).numpy().tobytes() if r.dtype != torch.bool
                    else r.contiguous().to(torch.uint8).numpy().tobytes())
    (scratch / f"{side}.json").write_text(json.dumps(status))


# ---- comparison -----------------------------------------------------------------------------------

BITS = {"float32": (np.uint32, np.int64), "float64": (np.uint64, None), "float16": (np.uint16, np.int64),
        "bfloat16": (np.uint16, np.int64), "bool": (np.uint8, np.int64)}


def as_float(raw: np.ndarray, dtype: str) -> np.ndarray:
    """Values of raw bits, as float64, for printing."""
    if dtype == "bfloat16":
        return (raw.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return raw.view({"float32": np.float32, "float64": np.float64, "float16": np.float16}.get(dtype, raw.dtype)).astype(np.float64)


def ulps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distances in units in the last place between floats given by their bits (±0 are 0 apart):
    magnitudes' difference when the signs agree, their sum across zero; exact in uint64, returned as
    float64 (distances past 2**53 print approximately)."""
    width = a.dtype.itemsize * 8
    a, b = a.astype(np.uint64), b.astype(np.uint64)
    mask = np.uint64((1 << (width - 1)) - 1)
    ma, mb = a & mask, b & mask
    same = (a >> np.uint64(width - 1)) == (b >> np.uint64(width - 1))
    return np.where(same, np.maximum(ma, mb) - np.minimum(ma, mb), ma + mb).astype(np.float64)


def compare(scratch: Path, key: str, res: dict) -> dict:
    """Differences of one case: {"differ", "max_ulp", "zero_sign", "nan", "examples"}."""
    o, u = res["ours"].get(key), res["upstream"].get(key)
    if "exc" in o or "exc" in u:
        same = o.get("exc") == u.get("exc")
        return {"refused": f"ours {o.get('exc', 'computes')}, upstream {u.get('exc', 'computes')}", "same": same}
    if o != u:
        return {"meta": f"ours {o}, upstream {u}"}
    dt = u["dtype"]
    if dt not in BITS:
        dt = {"int64": "float64", "int32": "float32"}.get(dt, dt)
    utype = BITS[dt][0]
    f = key.replace("|", "_")
    ob = np.frombuffer((scratch / f"ours-{f}.bin").read_bytes(), dtype=utype)
    ub = np.frombuffer((scratch / f"upstream-{f}.bin").read_bytes(), dtype=utype)
    diff = ob != ub
    if dt in ("float32", "float64", "float16", "bfloat16"):
        ov, uv = as_float(ob, dt), as_float(ub, dt)
        both_nan = np.isnan(ov) & np.isnan(uv)
        diff &= ~both_nan
        zero_sign = int((diff & (ov == 0) & (uv == 0)).sum())
        nan = int((diff & (np.isnan(ov) != np.isnan(uv))).sum())
        finite = diff & np.isfinite(ov) & np.isfinite(uv)
        ulp = ulps(ob, ub)[finite]
        max_ulp = float(ulp.max()) if ulp.size else 0.0
    else:
        ov, uv = ob, ub
        zero_sign = nan = 0
        max_ulp = float(diff.sum() > 0)
    idx = np.flatnonzero(diff)
    if idx.size and max_ulp:  # the first differing elements and the farthest
        far = np.flatnonzero(finite)[np.argmax(ulps(ob, ub)[finite])]
        idx = np.concatenate([idx[:4], [far]])
    return {"differ": int(diff.sum()), "max_ulp": max_ulp, "zero_sign": zero_sign, "nan": nan,
            "examples": [(int(i), float(ov[i]), float(uv[i])) for i in idx[:5]]}


def survey(names: list[str], dtypes: list[str]) -> dict:
    with tempfile.TemporaryDirectory(prefix="ulp_survey") as d:
        scratch = Path(d)
        res = {}
        for side in ("upstream", "ours"):  # upstream first: it writes the inputs
            subprocess.run([str(PYTHONS[side]), __file__, "--worker", side, "--scratch", d,
                            "--dtype", ",".join(dtypes), "--ops", json.dumps(names)], check=True)
            res[side] = json.loads((scratch / f"{side}.json").read_text())
        inputs = {dt: np.frombuffer((scratch / f"input-{dt}.bin").read_bytes(), dtype=BITS[dt][0]).reshape(3, N)
                  for dt in dtypes}
        table = {}
        for key in res["upstream"]:
            c = compare(scratch, key, res)
            if c.get("examples"):
                dt = key.split("|")[1]
                c["examples"] = [(i, [float(as_float(inputs[dt][k, i:i + 1], dt)[0]) for k in range(OPS[key.split("|")[0]][0])], ov, uv)
                                 for i, ov, uv in c["examples"]]
            table[key] = c
        return table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--scratch", help=argparse.SUPPRESS)
    ap.add_argument("--ops", help=argparse.SUPPRESS)
    ap.add_argument("-k", action="append", default=[], help="only ops whose name contains this (repeatable)")
    ap.add_argument("--dtype", default=",".join(DTYPES), help="comma-separated dtypes (default: all four)")
    ap.add_argument("-v", action="store_true", help="print up to 5 differing elements per case: index, inputs, ours, upstream")
    ap.add_argument("--all", action="store_true", help="list the cases that agree too")
    ap.add_argument("--markdown", help="write the table of differing cases to this file")
    args = ap.parse_args()
    dtypes = args.dtype.split(",")
    if args.worker:
        worker(Path(args.scratch), args.worker, json.loads(args.ops), dtypes)
        return
    names = [n for n in OPS if not args.k or any(k in n for k in args.k)]
    table = survey(names, dtypes)
    rows, agree = [], 0
    for key, c in table.items():
        if c.get("differ") == 0 or c.get("same"):
            agree += 1
            if not args.all:
                continue
        op, dt, layout = key.split("|")
        if "differ" in c:
            what = f"{c['differ']} differ, max {c['max_ulp']:g} ulp" + (
                f", {c['zero_sign']} zero sign" if c["zero_sign"] else "") + (f", {c['nan']} NaN" if c["nan"] else "")
        else:
            what = c.get("refused") or c.get("meta")
        rows.append((op, dt, layout, what, c.get("examples", [])))
    lines = [f"{len(table)} cases ({len(names)} ops x {len(dtypes)} dtypes x {len(LAYOUTS)} layouts, "
             f"{N} elements each): {agree} bit for bit (or refused alike), {len(table) - agree} differ"]
    lines += [f"| {op} | {dt} | {layout} | {what} |" for op, dt, layout, what, _ in rows]
    print("\n".join(lines))
    if args.v:
        for op, dt, layout, what, ex in rows:
            for i, ins, ov, uv in ex:
                print(f"  {op} {dt} {layout} [{i}] inputs {ins}: ours {ov!r} upstream {uv!r}")
    if args.markdown:
        head = ["# Pointwise ops bit for bit against upstream", "",
                "`.venv/bin/python tools/ulp_survey.py --markdown docs/ulp_survey.md` (see the tool's docstring).", "",
                lines[0], "", "| op | dtype | layout | elements that differ |", "|---|---|---|---|"]
        Path(args.markdown).write_text("\n".join(head + lines[1:]) + "\n")


if __name__ == "__main__":
    main()
