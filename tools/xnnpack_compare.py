"""The XNNPACK decision, measured: for each op where the system XNNPACK (Debian libxnnpack-dev,
2022) has an operator, time ours, XNNPACK and upstream torch 2.13.0 on the same float32 inputs,
and check each result against upstream's float64 answer with the golden harness's derived
tolerance (docs/TESTING.md, value.derived: |r - up64| <= 2E + ulp*|up64|, E = upstream float32's
own max error). The table it prints is the one in docs/DESIGN.md ("XNNPACK, op by op").

    .venv/bin/python tools/xnnpack_compare.py            # every case, markdown table on stdout
    .venv/bin/python tools/xnnpack_compare.py -k conv    # cases whose name contains a word

Times are the best of --repeats runs in one process per side, after a warm-up, with the same
thread count on every side (torch's default, which XNNPACK's thread pool is given too). XNNPACK
runs in tools/xnnpack_run.c, compiled here against the system library: "run" reuses an operator
made once (packed weights cached, as routing would), "+layout" adds the NCHW <-> NHWC copies a
convolution on torch's default layout would need (none for a channels-last input, whose memory
order is XNNPACK's NHWC already). This is a benchmark, not a test.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
PY = {"ours": ROOT / ".venv" / "bin" / "python", "upstream": ROOT / ".venv-upstream" / "bin" / "python"}

# name -> (op, input shapes, params). conv2d params: (stride, padding, groups); a conv1d is a
# conv2d of height 1 (what upstream's conv1d computes too).
CASES = {
    "conv2d 1x64x56x56, 64x64x3x3, padding 1": ("conv2d", [(1, 64, 56, 56), (64, 64, 3, 3)], ((1, 1), (1, 1), 1)),
    "conv2d 1x3x224x224, 768x3x16x16, stride 16 (ViT)": ("conv2d", [(1, 3, 224, 224), (768, 3, 16, 16)], ((16, 16), (0, 0), 1)),
    "conv2d depthwise 1x128x56x56, 128x1x3x3, padding 1": ("conv2d", [(1, 128, 56, 56), (128, 1, 3, 3)], ((1, 1), (1, 1), 128)),
    "conv2d depthwise 1x128x56x56 channels-last, 128x1x3x3, padding 1": ("conv2d", [(1, 128, 56, 56), (128, 1, 3, 3)], ((1, 1), (1, 1), 128, "channels_last")),
    "conv2d depthwise 1x384x28x28, 384x1x3x3, padding 1": ("conv2d", [(1, 384, 28, 28), (384, 1, 3, 3)], ((1, 1), (1, 1), 384)),
    "conv2d depthwise 8x32x112x112, 32x1x3x3, stride 2, padding 1": ("conv2d", [(8, 32, 112, 112), (32, 1, 3, 3)], ((2, 2), (1, 1), 32)),
    "conv1d 1x80x3000, 384x80x3, padding 1 (Whisper)": ("conv2d", [(1, 80, 1, 3000), (384, 80, 1, 3)], ((1, 1), (0, 1), 1)),
    "linear 1x576 @ 1536x576": ("linear", [(1, 576), (1536, 576)], ()),
    "linear 16x576 @ 1536x576": ("linear", [(16, 576), (1536, 576)], ()),
    "linear 64x576 @ 1536x576": ("linear", [(64, 576), (1536, 576)], ()),
    "softmax 64x1024, last dim": ("softmax", [(64, 1024)], ()),
    "add 2^20": ("add", [(1 << 20,), (1 << 20,)], ()),
    "mul 2^20": ("multiply", [(1 << 20,), (1 << 20,)], ()),
    "sigmoid 2^20": ("sigmoid", [(1 << 20,)], ()),
}

# Runs in each venv: load the inputs, time the op, save the result (and, upstream, float64's).
WORKER = r"""
import json, sys, time, numpy as np, torch
import torch.nn.functional as F
spec = json.loads(sys.argv[1])
op, shapes, params, files, out, reps = spec["op"], spec["shapes"], spec["params"], spec["files"], spec["out"], spec["reps"]
xs = [torch.from_numpy(np.fromfile(f, dtype=np.float32).reshape(s)) for f, s in zip(files, shapes)]
if op == "conv2d" and len(params) > 3:  # an input already in channels-last memory order
    xs[0] = xs[0].contiguous(memory_format=torch.channels_last)
def run(xs):
    if op == "conv2d":
        return F.conv2d(xs[0], xs[1], stride=tuple(params[0]), padding=tuple(params[1]), groups=params[2])
    if op == "linear":
        return F.linear(xs[0], xs[1])
    if op == "softmax":
        return torch.softmax(xs[0], -1)
    if op == "add":
        return xs[0] + xs[1]
    if op == "multiply":
        return xs[0] * xs[1]
    return torch.sigmoid(xs[0])
y = run(xs)
best = float("inf")
for _ in range(reps):
    t = time.perf_counter(); run(xs); best = min(best, time.perf_counter() - t)
y.contiguous().numpy().tofile(out)
if spec.get("f64"):
    run([x.double() for x in xs]).contiguous().numpy().tofile(out + ".f64")
print(json.dumps({"time": best, "threads": torch.get_num_threads(), "torch": torch.__file__}))
"""


def build_runner(work: Path) -> Path:
    cc = shutil.which("cc") or shutil.which("gcc")
    exe = work / "xnnpack_run"
    subprocess.run([cc, "-O2", "-o", str(exe), str(ROOT / "tools" / "xnnpack_run.c"), "-lXNNPACK",
                    "-lpthreadpool", "-lm"], check=True)
    return exe


def xnn_ints(op: str, shapes, params) -> list[int]:
    if op == "conv2d":
        (n, c, h, w), (o, _, kh, kw) = shapes
        (sh, sw), (ph, pw), g = params[:3]
        return [n, c, h, w, o, kh, kw, sh, sw, ph, pw, g]
    if op == "linear":
        return [shapes[0][0], shapes[0][1], shapes[1][0]]
    if op == "softmax":
        return list(shapes[0])
    return [shapes[0][0]]


def derived_ok(r: np.ndarray, up: np.ndarray, up64: np.ndarray) -> tuple[bool, float]:
    """value.derived of docs/TESTING.md; returns (agrees, max |r - up64| / (2E + ulp*|up64|))."""
    e = float(np.max(np.abs(up.astype(np.float64) - up64)))
    bound = 2 * e + 2.0 ** -23 * np.abs(up64)
    err = np.abs(r.astype(np.float64) - up64)
    worst = float(np.max(err / np.maximum(bound, 1e-300)))
    return bool(np.all(err <= bound)), worst


def fmt_time(s: float) -> str:
    return f"{s * 1e3:.2f} ms" if s >= 1e-3 else f"{s * 1e6:.1f} µs"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-k", default="")
    ap.add_argument("--repeats", type=int, default=20)
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        exe = build_runner(work)
        rng = np.random.default_rng(0)
        for name, (op, shapes, params) in CASES.items():
            if args.k not in name:
                continue
            files = []
            for i, s in enumerate(shapes):
                a = rng.standard_normal(s, dtype=np.float32)
                if op == "softmax":
                    a *= 4
                f = work / f"in{i}.f32"
                a.tofile(f)
                files.append(str(f))
            res = {}
            for side in ("ours", "upstream"):
                spec = {"op": op, "shapes": shapes, "params": params, "files": files, "reps": args.repeats,
                        "out": str(work / f"{side}.f32"), "f64": side == "upstream"}
                p = subprocess.run([str(PY[side]), "-c", WORKER, json.dumps(spec)], capture_output=True,
                                   text=True, cwd=ROOT)
                if p.returncode:
                    sys.exit(f"{side} failed on {name}:\n{p.stderr[-2000:]}")
                res[side] = json.loads(p.stdout.strip().splitlines()[-1])
            ours_torch, up_torch = res["ours"]["torch"], res["upstream"]["torch"]
            assert ours_torch.startswith(str(ROOT / "build" / "site")) and "/.venv-upstream/" in up_torch, (ours_torch, up_torch)
            threads = res["upstream"]["threads"]
            assert res["ours"]["threads"] == threads
            p = subprocess.run([str(exe), op, str(args.repeats), str(threads), str(work / "xnn.f32"), *files, "--",
                                *map(str, xnn_ints(op, shapes, params))], capture_output=True, text=True)
            if p.returncode:
                sys.exit(f"xnnpack failed on {name}:\n{p.stderr}")
            xt = json.loads(p.stdout)
            up = np.fromfile(work / "upstream.f32", dtype=np.float32)
            up64 = np.fromfile(work / "upstream.f32.f64", dtype=np.float64)
            agree = {s: derived_ok(np.fromfile(work / f"{s}.f32", dtype=np.float32), up, up64)
                     for s in ("ours", "xnn")}
            rows.append((name, res["ours"]["time"], xt["run"], xt["with_layout"], xt["create"],
                         res["upstream"]["time"], agree["ours"], agree["xnn"], op))
            print(f"{name}: ours {fmt_time(res['ours']['time'])}, xnnpack {fmt_time(xt['run'])} "
                  f"(+layout {fmt_time(xt['with_layout'])}), upstream {fmt_time(res['upstream']['time'])}",
                  file=sys.stderr)
    print(f"threads: {threads} on every side; best of {args.repeats}; "
          f"command: `.venv/bin/python tools/xnnpack_compare.py`\n")
    print("| op | ours | XNNPACK run | XNNPACK + layout | upstream | ours agrees | XNNPACK agrees |")
    print("|---|---|---|---|---|---|---|")
    for name, t_ours, t_x, t_xl, _, t_up, a_o, a_x, op in rows:
        lay = fmt_time(t_xl) if op == "conv2d" and "channels-last" not in name else "—"
        yn = lambda a: ("yes" if a[0] else "**no**") + f" ({a[1]:.2f})"
        print(f"| {name} | {fmt_time(t_ours)} | {fmt_time(t_x)} | {lay} | {fmt_time(t_up)} | {yn(a_o)} | {yn(a_x)} |")
    print("\nagrees: every element within value.derived's bound; in parentheses the largest "
          "error as a fraction of its bound (1.00 = at the bound).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
