"""Micro-benchmark of the decode GEMV: F.linear(x [m, in], W [out, in]) on SmolLM2-135M's shapes,
ours (.venv) beside upstream torch 2.13.0 (.venv-upstream), float32 and bfloat16.

    .venv/bin/python tools/gemv_bench.py                       # hot and cold, m = 1, both dtypes
    .venv/bin/python tools/gemv_bench.py --m 1,4 --calls 2000 --modes hot --sides ours

Modes: hot calls one weight again and again (it stays in L2/L3: per-call overhead and kernel
speed); cold cycles through enough copies of the weight to pass 128 MiB, so every call streams
W from DRAM as decode does (its GB/s column is weight bytes / median time). Each number is the
median of --calls timed calls (perf_counter_ns around each call) after a warm-up; the load
average at the start of each side is printed with it, since the machine is shared. Each side
runs in its own process (`--worker SIDE`) with the same thread count (torch's default unless
--threads). This is a benchmark, not a test.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHONS = {"ours": ROOT / ".venv/bin/python", "upstream": ROOT / ".venv-upstream/bin/python"}
SHAPES = [(576, 192), (576, 576), (576, 1536), (1536, 576), (576, 49152)]  # (in, out): k/v, q/o, gate/up, down, lm_head
COLD_BYTES = 128 << 20


def worker(args) -> None:
    import torch
    import torch.nn.functional as F

    if args.threads:
        torch.set_num_threads(args.threads)
    res = []
    for dt_name in args.dtypes.split(","):
        dt = getattr(torch, dt_name)
        for m in [int(v) for v in args.m.split(",")]:
            for in_f, out_f in SHAPES:
                for mode in args.modes.split(","):
                    wbytes = in_f * out_f * (4 if dt == torch.float32 else 2)
                    copies = 1 if mode == "hot" else max(2, -(-COLD_BYTES // wbytes))
                    ws = [torch.randn(out_f, in_f).to(dt) for _ in range(copies)]
                    x = torch.randn(m, in_f).to(dt)
                    calls = args.calls if mode == "hot" else max(args.calls // 4, 3 * copies)
                    if out_f >= 49152:
                        calls = max(calls // 8, 2 * copies)
                    for i in range(min(calls, 50) + copies):
                        F.linear(x, ws[i % copies])
                    t = []
                    pc = time.perf_counter_ns
                    for i in range(calls):
                        w = ws[i % copies]
                        t0 = pc()
                        F.linear(x, w)
                        t.append(pc() - t0)
                    med = statistics.median(t) / 1e3
                    res.append({"dtype": dt_name, "m": m, "in": in_f, "out": out_f, "mode": mode,
                                "us": med, "gbs": wbytes / (med * 1e3)})
                    del ws
    print(json.dumps({"threads": torch.get_num_threads(), "load": os.getloadavg()[0],
                      "rows": res}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--worker", choices=list(PYTHONS))
    ap.add_argument("--sides", default="ours,upstream")
    ap.add_argument("--dtypes", default="float32,bfloat16")
    ap.add_argument("--m", default="1")
    ap.add_argument("--modes", default="hot,cold")
    ap.add_argument("--calls", type=int, default=3000)
    ap.add_argument("--threads", type=int, default=0)
    args = ap.parse_args()
    if args.worker:
        worker(args)
        return
    out = {}
    for side in args.sides.split(","):
        cmd = [str(PYTHONS[side]), __file__, "--worker", side, "--dtypes", args.dtypes, "--m", args.m,
               "--modes", args.modes, "--calls", str(args.calls), "--threads", str(args.threads)]
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        if r.returncode:
            sys.exit(f"{side} worker failed:\n{r.stderr}")
        out[side] = json.loads(r.stdout.strip().splitlines()[-1])
        print(f"# {side}: threads {out[side]['threads']}, load {out[side]['load']:.2f}")
    sides = list(out)
    head = f"{'dtype':9} {'m':>2} {'shape':>11} {'mode':4}" + "".join(
        f" {s + ' us':>12} {'GB/s':>6}" for s in sides) + ("  ours/up" if len(sides) == 2 else "")
    print(head)
    for i, row in enumerate(out[sides[0]]["rows"]):
        line = f"{row['dtype']:9} {row['m']:>2} {str(row['in']) + 'x' + str(row['out']):>11} {row['mode']:4}"
        for s in sides:
            r = out[s]["rows"][i]
            line += f" {r['us']:12.2f} {r['gbs']:6.1f}"
        if len(sides) == 2:
            line += f"  {out[sides[0]]['rows'][i]['us'] / out[sides[1]]['rows'][i]['us']:7.2f}x"
        print(line)


if __name__ == "__main__":
    main()
