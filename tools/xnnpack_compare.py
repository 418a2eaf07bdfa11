"""The XNNPACK decision, measured: for each op where the system XNNPACK (Debian libxnnpack-dev,
2022) has an operator, time ours, XNNPACK and upstream torch 2.13.0 on the same float32 inputs,
and check each result against upstream's float64 answer with the golden harness's derived
tolerance (docs/TESTING.md, value.derived: |r - up64| <= 2E + ulp*|up64|, E = upstream float32's
own max error). The table it prints is the one in docs/DESIGN.md ("XNNPACK, op by op").

    .venv/bin/python tools/xnnpack_compare.py            # every case, markdown table on stdout
    .venv/bin/python tools/xnnpack_compare.py -k conv    # cases whose name contains a word
    nice .venv/bin/python tools/xnnpack_compare.py --rounds 5 --repeats 5   # a shared machine

Times are the best of --repeats runs, after a warm-up, with the same thread count on every side.
With --rounds R > 1 that is measured R times per side, the three sides taking turns in ABBA
order (ours, XNNPACK, upstream, then the reverse; each torch side keeps one process for all its
rounds), and the table shows the median of the R best-of times: on a machine other work shares,
a side is not favoured by running while the machine happens to be quiet. Threads: torch's default, which XNNPACK's thread pool is
given too. XNNPACK runs in tools/xnnpack_run.c, compiled here against the system library: "run" reuses an operator
made once (packed weights cached, as routing would), "+layout" adds the NCHW <-> NHWC copies a
convolution on torch's default layout would need (none for a channels-last input, whose memory
order is XNNPACK's NHWC already). This is a benchmark, not a test.
"""
from __future__ import annotations

import argparse
import json
import os
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

# Runs in each venv: load the inputs, then for each "run" line on stdin time the op (best of reps)
# and print {"time": ...}; the first run also saves the result (and, upstream, float64's). One
# process per side and case serves every round, so a round costs no interpreter start.
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
y.contiguous().numpy().tofile(out)
if spec.get("f64"):
    run([x.double() for x in xs]).contiguous().numpy().tofile(out + ".f64")
print(json.dumps({"threads": torch.get_num_threads(), "torch": torch.__file__}), flush=True)
for line in sys.stdin:
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter(); run(xs); best = min(best, time.perf_counter() - t)
    print(json.dumps({"time": best}), flush=True)
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


class Side:
    """A torch side's worker process (ours or upstream) for one case."""

    def __init__(self, side: str, spec: dict):
        self.side = side
        # upstream's interpreter must not see a PYTHONPATH meant for ours (it would import our tree)
        env = {k: v for k, v in os.environ.items() if side == "ours" or k != "PYTHONPATH"}
        self.p = subprocess.Popen([str(PY[side]), "-c", WORKER, json.dumps(spec)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
        self.info = self._read()

    def _read(self) -> dict:
        line = self.p.stdout.readline()
        if not line:
            sys.exit(f"{self.side} failed:\n{self.p.stderr.read()[-2000:]}")
        return json.loads(line)

    def time(self) -> float:
        self.p.stdin.write("run\n")
        self.p.stdin.flush()
        return self._read()["time"]

    def close(self) -> None:
        self.p.stdin.close()
        self.p.wait()


def run_xnn(exe: Path, work: Path, op: str, shapes, params, files, repeats: int, threads: int) -> dict:
    """One run of tools/xnnpack_run.c (no interpreter to start): best-of-repeats run time and with
    layout copies; writes work/xnn.f32."""
    p = subprocess.run([str(exe), op, str(repeats), str(threads), str(work / "xnn.f32"), *files, "--",
                        *map(str, xnn_ints(op, shapes, params))], capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"xnnpack failed on {op} {shapes}:\n{p.stderr}")
    return json.loads(p.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-k", default="")
    ap.add_argument("--repeats", type=int, default=20, help="timed runs per process (best is kept)")
    ap.add_argument("--rounds", type=int, default=1, help="processes per side, in ABBA order (median is kept)")
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
            sides = {side: Side(side, {"op": op, "shapes": shapes, "params": params, "files": files,
                                       "reps": args.repeats, "out": str(work / f"{side}.f32"),
                                       "f64": side == "upstream"})
                     for side in ("ours", "upstream")}
            ours_torch, up_torch = sides["ours"].info["torch"], sides["upstream"].info["torch"]
            assert ours_torch.startswith(str(ROOT / "build" / "site")) and "/.venv-upstream/" in up_torch, (ours_torch, up_torch)
            threads = sides["upstream"].info["threads"]
            assert sides["ours"].info["threads"] == threads
            times = {"ours": [], "xnn": [], "upstream": []}
            layout = []
            for rnd in range(args.rounds):
                order = ("ours", "xnn", "upstream") if rnd % 2 == 0 else ("upstream", "xnn", "ours")
                for side in order:
                    if side == "xnn":
                        xt = run_xnn(exe, work, op, shapes, params, files, args.repeats, threads)
                        times["xnn"].append(xt["run"])
                        layout.append(xt["with_layout"])
                    else:
                        times[side].append(sides[side].time())
            for side in sides.values():
                side.close()
            up = np.fromfile(work / "upstream.f32", dtype=np.float32)
            up64 = np.fromfile(work / "upstream.f32.f64", dtype=np.float64)
            agree = {s: derived_ok(np.fromfile(work / f"{s}.f32", dtype=np.float32), up, up64)
                     for s in ("ours", "xnn")}
            med = {side: float(np.median(t)) for side, t in times.items()}
            rows.append((name, med["ours"], med["xnn"], float(np.median(layout)), med["upstream"],
                         agree["ours"], agree["xnn"], op))
            print(f"{name}: ours {fmt_time(med['ours'])}, xnnpack {fmt_time(med['xnn'])} "
                  f"(+layout {fmt_time(float(np.median(layout)))}), upstream {fmt_time(med['upstream'])}",
                  file=sys.stderr)
    stat = (f"median of {args.rounds} rounds (ABBA order) of best of {args.repeats}" if args.rounds > 1
            else f"best of {args.repeats}")
    argv = " ".join(sys.argv[1:])
    print(f"threads: {threads} on every side; {stat}; "
          f"command: `.venv/bin/python tools/xnnpack_compare.py{' ' + argv if argv else ''}`\n")
    print("| op | ours | XNNPACK run | XNNPACK + layout | upstream | ours agrees | XNNPACK agrees |")
    print("|---|---|---|---|---|---|---|")
    for name, t_ours, t_x, t_xl, t_up, a_o, a_x, op in rows:
        lay = fmt_time(t_xl) if op == "conv2d" and "channels-last" not in name else "—"
        yn = lambda a: ("yes" if a[0] else "**no**") + f" ({a[1]:.2f})"
        print(f"| {name} | {fmt_time(t_ours)} | {fmt_time(t_x)} | {lay} | {fmt_time(t_up)} | {yn(a_o)} | {yn(a_x)} |")
    print("\nagrees: every element within value.derived's bound; in parentheses the largest "
          "error as a fraction of its bound (1.00 = at the bound).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
