"""FFTs of small inputs holding one or two inf/NaN, ours against upstream and numpy.fft (pocketfft).

Note [FFT non-finite lines] in kernels/fft.c: which bins of such a transform are inf or NaN
follows the algorithm. This sweep counts, per function and dtype, the calls where ours agrees
with upstream, upstream with pocketfft, ours with pocketfft, and the calls where ours differs
from both (the ones tests/python/fuzz_artefacts.py's fft_nonfinite does not excuse). Lengths
1..9 for the 1-D functions, shapes up to 4x4 for the 2-D/n-D ones, three norms, float32/float64.

    .venv/bin/python scripts/fft_nonfinite_sweep.py          # both sides (4-10 min), the table
    .venv/bin/python scripts/fft_nonfinite_sweep.py --dump OUT.json   # one side, this interpreter
"""
import collections
import itertools
import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INF, NAN = math.inf, math.nan
FILL = [0.5, -1.25, 2.0, 0.75, -3.0, 1.5, -0.25, 4.0, 1.0, -2.5, 0.125, 3.5, -0.5, 2.25, -1.0, 0.375]
RVALS = [INF, -INF, NAN]
CVALS = [complex(INF, 0), complex(-INF, 0), complex(NAN, 0), complex(0, INF), complex(0, -INF)]
NORMS = [None, "ortho", "forward"]
OPS1 = {"rfft": False, "ihfft": False, "fft_r": False, "ifft_r": False,  # _r: a real input
        "fft": True, "ifft": True, "irfft": True, "hfft": True}
OPS2 = {"rfft2": False, "fftn_r": False, "fftn": True, "irfft2": True, "ihfft2": False, "hfftn": True}
NO_NUMPY = ("ihfft2", "hfftn")


def tokens(t):
    import torch
    t = t.detach().resolve_conj()
    if t.is_complex():
        t = torch.view_as_real(t)
    tok = lambda v: "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) else float(v)  # noqa: E731
    return [list(t.shape), [tok(v) for v in t.reshape(-1).tolist()]]


def signals(numel, cplx):
    vals = CVALS if cplx else RVALS
    base = [complex(FILL[i % 16], FILL[(i + 5) % 16]) if cplx else FILL[i % 16] for i in range(numel)]
    for i in range(numel):
        for v in vals:
            s = list(base)
            s[i] = v
            yield s
    for i, j in itertools.combinations(range(numel), 2):
        for v, w in itertools.product(vals, vals):
            s = list(base)
            s[i], s[j] = v, w
            yield s


def dump(path):
    import numpy as np
    import torch
    call = lambda mod, op, x, norm: getattr(mod.fft, op.split("_")[0])(x, norm=norm)  # noqa: E731
    out = {}

    def one(key, op, x, norm):
        try:
            with np.errstate(all="ignore"):
                ref = None if op in NO_NUMPY else tokens(torch.from_numpy(np.asarray(call(np, op, x.numpy(), norm))))
                out[key] = {"t": tokens(call(torch, op, x, norm)), "np": ref}
        except Exception as e:
            out[key] = {"t": type(e).__name__, "np": None}

    for rdt, cdt in ((torch.float64, torch.complex128), (torch.float32, torch.complex64)):
        for n in range(1, 10):
            for op, cplx in OPS1.items():
                for s in signals(n, cplx):
                    x = torch.tensor(s, dtype=cdt if cplx else rdt)
                    for norm in NORMS:
                        one(f"{op}|{rdt}|{[repr(v) for v in s]}|{norm}", op, x, norm)
        for shape in itertools.product(range(1, 5), range(1, 5)):
            for op, cplx in OPS2.items():
                for s in signals(math.prod(shape), cplx):
                    x = torch.tensor(s, dtype=cdt if cplx else rdt).reshape(shape)
                    for norm in NORMS[:2]:
                        one(f"{op}|{rdt}|{shape}|{[repr(v) for v in s]}|{norm}", op, x, norm)
    Path(path).write_text(json.dumps(out))


def same(a, b):
    """Same shape, inf/NaN in the same places (inf of the same sign), finite values close."""
    if a is None or b is None or isinstance(a, str) or isinstance(b, str):
        return a == b
    if a[0] != b[0]:
        return False
    scale = max([abs(p) for p in a[1] + b[1] if not isinstance(p, str)] + [1.0])
    return all(p == q if isinstance(p, str) or isinstance(q, str) else abs(p - q) <= 1e-4 * scale
               for p, q in zip(a[1], b[1]))


def main():
    if sys.argv[1:2] == ["--dump"]:
        return dump(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        sides = {"ours": ROOT / ".venv/bin/python", "up": ROOT / ".venv-upstream/bin/python"}
        procs = [subprocess.Popen([str(py), __file__, "--dump", f"{tmp}/{k}.json"]) for k, py in sides.items()]
        if any(p.wait() for p in procs):
            sys.exit("a side failed")
        ours, up = (json.loads(Path(f"{tmp}/{k}.json").read_text()) for k in sides)
    stats = collections.defaultdict(lambda: [0] * 5)
    for k, o in ours.items():
        u, s = up[k], stats[" ".join(k.split("|")[:2])]
        s[0] += 1
        s[1] += same(o["t"], u["t"])
        if o["np"] is not None:
            s[2] += same(u["t"], u["np"])
            s[3] += same(o["t"], o["np"])
            s[4] += not same(o["t"], u["t"]) and not same(o["t"], o["np"])
    print(f"{'function dtype':30} {'calls':>7} {'ours=up':>8} {'up=np':>7} {'ours=np':>8} {'neither':>8}")
    total = [0] * 5
    for name in sorted(stats):
        total = [a + b for a, b in zip(total, stats[name])]
        print(f"{name:30} " + " ".join(f"{v:>{w}}" for v, w in zip(stats[name], (7, 8, 7, 8, 8))))
    print(f"{'total':30} " + " ".join(f"{v:>{w}}" for v, w in zip(total, (7, 8, 7, 8, 8))))


if __name__ == "__main__":
    main()
