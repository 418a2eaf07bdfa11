"""Benchmark torchnative (.venv) against upstream torch 2.13.0 (.venv-upstream), side by side.

    .venv/bin/python tools/bench.py                 # full run: 5 repetitions, docs/PERF.md + docs/perf.png
    .venv/bin/python tools/bench.py --quick         # end-to-end check: 2 reps, 8 new tokens, short timings
    .venv/bin/python tools/bench.py --reps 7 --groups ops,import
    .venv/bin/python tools/bench.py --dist          # torch.distributed vs upstream gloo -> docs/DISTRIBUTED.md
    .venv/bin/python tools/bench.py --fed           # one federated round, ours vs upstream -> docs/FEDERATED.md
    .venv/bin/python tools/bench.py --adapt         # one Tent step on SmolLM2 -> its section of docs/PERF.md
    .venv/bin/python tools/bench.py --train         # training steps -> the training section of docs/PERF.md

Any python can run it: every measurement happens in a fresh worker process started with the
interpreter of each venv (`tools/bench.py --worker GROUP --side SIDE`), and the chart is drawn
by `.venv-upstream/bin/python tools/bench.py --plot` (matplotlib lives there, pinned in
requirements/upstream.txt). This is a benchmark, not a test: scripts/test.sh never runs it.

How it measures (each number in PERF.md is the median over the repetitions):
- Repetitions loop outermost; within one, every group runs ours then upstream, and the next
  repetition runs upstream then ours (ABBA), so drift on a shared machine hits both sides.
- Every worker checks which torch it imported (ours: `torch._C` under build/; upstream: under
  .venv-upstream) and the run aborts if either is wrong. Both sides use the same thread count:
  torch's default (`torch.get_num_threads()`) unless --threads sets it; the run aborts if the
  two sides report different counts.
- groups:
  import     wall time of a fresh `python -c "import torch"`, plus, in another fresh process,
             the in-process time of `import torch` and VmRSS right after it (/proc/self/status).
  ops        per-call cost of small ops in a tight timeit loop (best of several repeats of an
             autoranged loop, per call; the loop's own overhead is included on both sides).
  prefill    one forward with use_cache=True over S tokens (SmolLM2-135M, float32 unless
             --prefill-dtypes says otherwise), after one warm-up forward at that S; best of
             --prefill-inner forwards.
  decode     greedy generate (fixed chat prompt, max_new_tokens = min_new_tokens = --new-tokens)
             after a short warm-up generate, in float32 and bfloat16; a streamer records when
             each token arrives: time to first token = generate() call -> first new token,
             decode tokens/s = (n - 1) / (last token - first token). Peak RSS during generate is
             VmHWM after resetting it (clear_refs 5) just before the timed generate.
  bandwidth  this machine's read bandwidth: a small C program (compiled here with cc -O3
             -march=native) sums a 1 GiB array with 1 and with T threads (T = the torch thread
             count); best pass of several. Decode's ceiling is bandwidth(T) / weight bytes per token.
  size       our build/meson/_C.abi3.so stripped (strip on a copy), beside upstream's
             libtorch_cpu.so + libtorch_python.so + _C.so stripped (and the system libraries our
             _C links for context).

--dist (separately, not part of the default run): all_reduce of 4 MB and 64 MB float32 and the
latency of a 4-byte all_reduce and of barrier, at 2 and 4 local processes (`backend="gloo"`:
torchnative's own backend against upstream's gloo), and each rank's peak RSS over a 256 MB
all_reduce (VmHWM after clear_refs, minus the RSS before the tensor existed, minus the tensor).
ABBA over --reps repetitions; medians; writes the numbers section of docs/DISTRIBUTED.md and
build/bench/dist.json.

--fed (separately): one torchnative.federated round (FedAvg, Tent's objective on SmolLM2-135M)
over 4 local processes, for the normalisation parameters' delta and for the full float32 model
delta (--fed-modes), every process on ours and then every process on upstream (tools/federated.py --bench);
per rank the round's wall time, the bytes it put into and read from the store, and its peak RSS
(VmHWM) after the round; --reps repetitions (default 1), medians; writes the numbers section of
docs/FEDERATED.md and build/bench/fed.json.
--adapt (separately): one Tent step (torchnative.adapt: forward, entropy, autograd.grad over the
61 RMSNorm weights, SGD) on SmolLM2-135M-Instruct float32 over 64 tokens, best of --adapt-steps
steps after one warm-up step, and the peak RSS during those steps (VmHWM after clear_refs, so
the steps' own peak on top of the loaded model). ABBA over --reps; medians; writes the marked
adaptation section of docs/PERF.md (a full run keeps that section) and build/bench/adapt.json.
--train (separately, like --dist): one training step (zero_grad, forward, cross-entropy or MSE
backward, optimiser step) of a small MLP (64-256-64, batch 32, MSE, AdamW: dispatch-bound), of
the sweep's tiny Llama (its fixed 2 x 8 batch, AdamW) and of SmolLM2-135M-Instruct float32
(batch 1 x 128 tokens, AdamW), in float32, with torch's default threads. Per worker: warm-up
steps, then the median step time of the timed steps, peak RSS over them (VmHWM reset after the
warm-up) and VmRSS after every step (does RSS come back to the same level step after step, i.e.
are saved activations freed?). ABBA over --reps repetitions; medians; writes the section between
the bench:train markers of docs/PERF.md (a full run keeps that section) and build/bench/train.json.

--kernels (separately, like --train): the larger kernels of KERNELS (convolutions, transposed
convolution, pooling, interpolation, a batched solve, a 2^16 rfft; a row that refuses says so),
timed like the per-op rows, ABBA over --reps; writes the section between the bench:kernels markers
of docs/PERF.md (a full run keeps it) and build/bench/kernels.json.

Options: --reps N (default 5; --quick: 2), --quick, --groups LIST, --new-tokens N (64; quick 8),
--prefill-sizes LIST (6,128,512,1024), --prefill-dtypes LIST (float32), --prefill-inner N
(2; quick 1), --threads N, --timeout SECONDS per worker (3600), --md PATH (docs/PERF.md),
--png PATH (docs/perf.png), --json PATH (build/bench/results.json: every sample, for --render),
--render JSON (rewrite PERF.md and the chart from saved samples, measuring nothing).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"
SIDES = ("ours", "upstream")
PYTHONS = {"ours": ROOT / ".venv" / "bin" / "python", "upstream": ROOT / ".venv-upstream" / "bin" / "python"}
GROUPS = ("import", "ops", "bandwidth", "prefill", "decode")
DECODE_DTYPES = ("float32", "bfloat16")
PROMPT = "Write a short story about a robot who learns to paint."

# The small ops: label -> (setup, statement). Setup runs once in the worker, after import torch.
OPS = {
    "x.view(2, 2)": ("x = torch.randn(4)", "x.view(2, 2)"),
    "x.transpose(0, 1)": ("x = torch.randn(2, 2)", "x.transpose(0, 1)"),
    "x + y (4 x f32)": ("x = torch.randn(4); y = torch.randn(4)", "x + y"),
    "torch.cat([a, b]) (4 + 4)": ("a = torch.randn(4); b = torch.randn(4)", "torch.cat([a, b])"),
    "F.linear 1x576 @ 576x576": ("x = torch.randn(1, 576); w = torch.randn(576, 576)", "F.linear(x, w)"),
}

# Larger kernels, for context (no target), measured by --kernels into their own section of
# docs/PERF.md: the convolutions vision and speech models start with, then the heavier kernels of
# issue 14 (transposed convolution, pooling, interpolation, a batched solve, a long real FFT).
KERNELS = {
    "F.conv2d 1x64x56x56, 64x64x3x3, padding 1": ("x = torch.randn(1, 64, 56, 56); w = torch.randn(64, 64, 3, 3)",
                                                 "F.conv2d(x, w, padding=1)"),
    "F.conv2d 1x3x224x224, 768x3x16x16, stride 16 (ViT patches)": (
        "x = torch.randn(1, 3, 224, 224); w = torch.randn(768, 3, 16, 16)", "F.conv2d(x, w, stride=16)"),
    "F.conv2d depthwise 1x128x56x56, 128x1x3x3, padding 1": (
        "x = torch.randn(1, 128, 56, 56); w = torch.randn(128, 1, 3, 3)", "F.conv2d(x, w, padding=1, groups=128)"),
    "F.conv1d 1x80x3000, 384x80x3, padding 1 (Whisper stem)": (
        "x = torch.randn(1, 80, 3000); w = torch.randn(384, 80, 3)", "F.conv1d(x, w, padding=1)"),
    "F.conv3d 1x16x16x32x32, 32x16x3x3x3, padding 1 (sums in double)": (
        "x = torch.randn(1, 16, 16, 32, 32); w = torch.randn(32, 16, 3, 3, 3)", "F.conv3d(x, w, padding=1)"),
    "F.conv_transpose2d 1x64x28x28, 64x32x4x4, stride 2, padding 1": (
        "x = torch.randn(1, 64, 28, 28); w = torch.randn(64, 32, 4, 4)",
        "F.conv_transpose2d(x, w, stride=2, padding=1)"),
    "F.max_pool2d 1x64x112x112, 3x3, stride 2, padding 1": (
        "x = torch.randn(1, 64, 112, 112)", "F.max_pool2d(x, 3, 2, 1)"),
    "F.avg_pool2d 1x64x56x56, 2x2": ("x = torch.randn(1, 64, 56, 56)", "F.avg_pool2d(x, 2)"),
    "F.adaptive_avg_pool2d 1x512x14x14 -> 7x7": (
        "x = torch.randn(1, 512, 14, 14)", "F.adaptive_avg_pool2d(x, 7)"),
    "F.interpolate 1x64x56x56 -> 112x112, bilinear": (
        "x = torch.randn(1, 64, 56, 56)", "F.interpolate(x, size=(112, 112), mode='bilinear')"),
    "F.interpolate 1x64x56x56 -> 112x112, nearest": (
        "x = torch.randn(1, 64, 56, 56)", "F.interpolate(x, size=(112, 112), mode='nearest')"),
    "torch.linalg.solve 64x(32x32), 64x(32x4)": (
        "a = torch.randn(64, 32, 32) + 32 * torch.eye(32); b = torch.randn(64, 32, 4)", "torch.linalg.solve(a, b)"),
    "torch.fft.rfft 2^16": ("x = torch.randn(65536)", "torch.fft.rfft(x)"),
}

# Targets: (what, test on the ratio ours/upstream or on the value).
TARGET_OP_RATIO = 0.4
TARGET_PREFILL_RATIO = 1.0
TARGET_IMPORT_RATIO = 0.3
TARGET_RSS_RATIO = 0.4
TARGET_DECODE_CEILING = 0.85
TARGET_C_BYTES = 8_000_000
TARGET_TRAIN_RATIO = {"mlp": 0.5, "llama-tiny": 1.0, "smollm2": 1.0}  # step time, ours / upstream (issue 10)


# -- worker side ---------------------------------------------------------------------------------

def status_kib(key: str) -> int:
    with open("/proc/self/status") as f:
        return int(re.search(rf"^{key}:\s+(\d+) kB", f.read(), re.M).group(1))


def emit(kind: str, payload) -> None:
    print(f"BENCH-{kind} {json.dumps(payload)}", flush=True)


def check_torch(torch, side: str) -> str:
    """The worker must have imported the torch it is meant to measure; anything else aborts."""
    where = os.path.realpath(torch._C.__file__)
    want = {"ours": ROOT / "build", "upstream": ROOT / ".venv-upstream"}[side]
    if not where.startswith(str(want.resolve()) + os.sep) or not torch.__version__.startswith("2.13.0"):
        emit("ABORT", f"{side} worker imported torch {torch.__version__} with _C at {where}, expected under {want}")
        sys.exit(3)
    return where


def setup_threads(torch, threads):
    if threads:
        torch.set_num_threads(int(threads))
    return torch.get_num_threads()


def worker_ops(torch, p):
    import timeit

    import torch.nn.functional as F

    out = {}
    for label, (setup, stmt) in (KERNELS if p.get("kernels") else OPS).items():
        env = {"torch": torch, "F": F}
        try:
            exec(setup, env)
            timer = timeit.Timer(stmt, globals=env)
            timer.timeit(10 if p.get("kernels") else 100)  # warm-up: dispatch, caches, packed weights
        except Exception as e:  # a kernel row that refuses is reported as such, the others still run
            if not p.get("kernels"):
                raise
            out[label] = {"error": f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"}
            continue
        number, _ = timer.autorange()  # smallest 1/2/5*10^k loop taking >= 0.2 s
        number = max(1, int(number * p["op_scale"]))
        best = min(timer.repeat(p["op_repeat"], number))
        out[label] = best / number
    return out


def load_model(torch, dtype: str):
    sys.path.insert(0, str(TOOLS))
    import models
    from transformers import AutoModelForCausalLM, AutoTokenizer

    where = models.smollm2()
    tok = AutoTokenizer.from_pretrained(where)
    model = AutoModelForCausalLM.from_pretrained(where, dtype=getattr(torch, dtype)).eval()
    return tok, model


def worker_prefill(torch, p):
    _, model = load_model(torch, p["dtype"])
    vocab = model.config.vocab_size
    out = {}
    with torch.no_grad():
        for s in p["sizes"]:
            ids = (torch.arange(s, dtype=torch.long) * 7919 + 11) % (vocab - 16) + 16
            ids = ids.unsqueeze(0)
            model(input_ids=ids, use_cache=True)  # warm-up at this S
            best = float("inf")
            for _ in range(p["inner"]):
                t0 = time.perf_counter()
                model(input_ids=ids, use_cache=True)
                best = min(best, time.perf_counter() - t0)
            out[str(s)] = best
    return out


def worker_decode(torch, p):
    from transformers.generation.streamers import BaseStreamer

    class Clock(BaseStreamer):
        """Records when generate hands over each new token (the first put() is the prompt)."""

        def __init__(self):
            self.times = []
            self.prompt_seen = False

        def put(self, value):
            if not self.prompt_seen:
                self.prompt_seen = True
                return
            self.times.append(time.perf_counter())

        def end(self):
            pass

    tok, model = load_model(torch, p["dtype"])
    chat = [{"role": "user", "content": PROMPT}]
    inputs = tok.apply_chat_template(chat, add_generation_prompt=True, return_tensors="pt", return_dict=True)
    n = p["new_tokens"]
    kw = dict(do_sample=False, pad_token_id=tok.eos_token_id)
    # What a decode step reads: every parameter once. The tied embedding / lm_head matrix is one
    # parameter (parameters() yields it once): lm_head reads all of it, the lookup one row.
    weight_bytes = sum(t.numel() * t.element_size() for t in model.parameters())
    rss_loaded = status_kib("VmRSS")
    with torch.no_grad():
        model.generate(**inputs, max_new_tokens=4, min_new_tokens=4, **kw)  # warm-up
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # reset VmHWM: the peak below is the generate's own
        clock = Clock()
        t0 = time.perf_counter()
        ids = model.generate(**inputs, max_new_tokens=n, min_new_tokens=n, streamer=clock, **kw)
        t_end = time.perf_counter()
        # The step split in two: the model's Linear layers alone, in model order on one-token
        # inputs (what a decode step streams from memory), and the rest of the step.
        lins = [m for m in model.modules() if isinstance(m, torch.nn.Linear)]
        xs = {k: torch.randn(1, 1, k, dtype=model.dtype) for k in {m.in_features for m in lins}}
        linear_s = float("inf")
        for _ in range(6):
            t = time.perf_counter()
            for m in lins:
                m(xs[m.in_features])
            linear_s = min(linear_s, time.perf_counter() - t)
        linear_bytes = sum(m.weight.numel() * m.weight.element_size() for m in lins)
    got = ids.shape[1] - inputs["input_ids"].shape[1]
    if got != n or len(clock.times) != n:
        raise RuntimeError(f"asked for {n} new tokens, generate gave {got} ({len(clock.times)} streamed)")
    first, last = clock.times[0], clock.times[-1]
    return {
        "ttft": first - t0,
        "decode_tps": (n - 1) / (last - first),
        "total_s": t_end - t0,
        "prompt_tokens": int(inputs["input_ids"].shape[1]),
        "new_tokens": n,
        "weight_bytes": weight_bytes,
        "n_params": sum(t.numel() for t in model.parameters()),
        "rss_loaded_kib": rss_loaded,
        "peak_rss_generate_kib": status_kib("VmHWM"),
        "text_head": tok.decode(ids[0, inputs["input_ids"].shape[1]:][:12]),
        "linear_s": linear_s,
        "linear_count": len(lins),
        "linear_bytes": linear_bytes,
        "other_s": (last - first) / (n - 1) - linear_s,
    }


ADAPT_TEXT = ("The lighthouse keeper counted the ships that passed each night, writing their names in a ledger "
              "that smelled of salt and old paper. ") * 4
ADAPT_MD_BEGIN, ADAPT_MD_END = "<!-- bench:adapt:begin -->", "<!-- bench:adapt:end -->"
TARGET_ADAPT_RATIO = 1.0


def worker_adapt(torch, p):
    sys.path.insert(0, str(ROOT / "python"))
    from torchnative import adapt

    tok, model = load_model(torch, "float32")
    ids = tok(ADAPT_TEXT, return_tensors="pt").input_ids[:, :p["tokens"]]
    if ids.shape[1] != p["tokens"]:
        raise RuntimeError(f"the text gives {ids.shape[1]} tokens, fewer than {p['tokens']}")
    batch = {"input_ids": ids, "attention_mask": torch.ones_like(ids)}
    rss_loaded = status_kib("VmRSS")
    a = adapt.wrap(model, method=adapt.Tent(), lr=1e-3)
    a.step(**batch)  # warm-up
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    best = float("inf")
    for _ in range(p["steps"]):
        t = time.perf_counter()
        a.step(**batch)
        best = min(best, time.perf_counter() - t)
    peak = status_kib("VmHWM")
    a.revert()
    return {"step_s": best, "peak_rss_kib": peak, "rss_loaded_kib": rss_loaded, "tokens": int(ids.shape[1]),
            "adapted_tensors": len(a.names)}
TRAIN_MODELS = {"mlp": "small MLP 64-256-64, batch 32, MSE", "llama-tiny": "tiny Llama (the sweep's), 2 x 8 tokens",
                "smollm2": "SmolLM2-135M-Instruct float32, 1 x 128 tokens"}


def worker_train(torch, p):
    """Training steps of one model: median step time, peak RSS over the timed steps, RSS after each."""
    name = p["model"]
    torch.manual_seed(0)
    if name == "mlp":
        model = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.GELU(), torch.nn.Linear(256, 64))
        x, y = torch.randn(32, 64), torch.randn(32, 64)
        loss_fn = lambda: torch.nn.functional.mse_loss(model(x), y)  # noqa: E731
    else:
        from transformers import AutoModelForCausalLM

        sys.path.insert(0, str(TOOLS))
        if name == "llama-tiny":
            import sweep

            model = AutoModelForCausalLM.from_pretrained(sweep.ensure_weights("llama"), dtype=torch.float32)
            ids, mask = sweep.fixed_input(torch, "llama", model.config.vocab_size)
        else:
            import models

            model = AutoModelForCausalLM.from_pretrained(models.smollm2(), dtype=torch.float32)
            vocab = model.config.vocab_size
            ids = ((torch.arange(p["tokens"], dtype=torch.long) * 7919 + 11) % (vocab - 16) + 16).unsqueeze(0)
            mask = torch.ones_like(ids)
        model.train()
        loss_fn = lambda: model(input_ids=ids, attention_mask=mask, labels=ids, use_cache=False).loss  # noqa: E731
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)

    def step():
        opt.zero_grad()
        loss = loss_fn()
        loss.backward()
        opt.step()
        return loss.item()

    for _ in range(p["warmup"]):
        step()
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # reset VmHWM: the peak below is the timed steps'
    times, rss = [], []
    for _ in range(p["steps"]):
        t0 = time.perf_counter()
        step()
        times.append(time.perf_counter() - t0)
        rss.append(status_kib("VmRSS"))
    return {"step_s": statistics.median(times), "peak_rss_kib": status_kib("VmHWM"), "rss_kib": rss,
            "n_params": sum(t.numel() for t in model.parameters())}


# The import group runs this instead of the worker, so nothing is imported before torch.
IMPORT_SNIPPET = """
import time
t0 = time.perf_counter()
import torch
t1 = time.perf_counter()
import json, os, re
status = open("/proc/self/status").read()
rss = int(re.search(r"^VmRSS:\\s+(\\d+) kB", status, re.M).group(1))
print("BENCH-IMPORT " + json.dumps({"import_s": t1 - t0, "rss_kib": rss, "c": os.path.realpath(torch._C.__file__),
      "version": torch.__version__, "threads": torch.get_num_threads()}))
"""


def worker_main(args) -> int:
    p = json.loads(args.params)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    import torch

    c_path = check_torch(torch, args.side)
    threads = setup_threads(torch, p.get("threads"))
    workers = {"ops": worker_ops, "prefill": worker_prefill, "decode": worker_decode,
               "adapt": worker_adapt, "train": worker_train}
    fn = workers[args.worker]
    try:
        result = fn(torch, p)
    except Exception as e:  # reported as this measurement's error; the run goes on
        import traceback

        traceback.print_exc()
        emit("ERROR", f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300])
        return 1
    emit("RESULT", {"threads": threads, "c": c_path, "data": result})
    return 0


# -- bandwidth -----------------------------------------------------------------------------------

BANDWIDTH_C = r"""
/* Read bandwidth: T threads each sum their slice of a 1 GiB array; best of PASSES passes. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct { const uint64_t *p; size_t n; uint64_t sum; } slice;

static void *
sum_slice(void *arg)
{
    slice *s = arg;
    uint64_t a = 0, b = 0, c = 0, d = 0;
    for (size_t i = 0; i + 4 <= s->n; i += 4) {
        a += s->p[i]; b += s->p[i + 1]; c += s->p[i + 2]; d += s->p[i + 3];
    }
    s->sum = a + b + c + d;
    return NULL;
}

static double
now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int
main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 1, passes = argc > 2 ? atoi(argv[2]) : 8;
    size_t bytes = (size_t)1 << 30, n = bytes / sizeof(uint64_t);
    uint64_t *p = aligned_alloc(64, bytes);
    if (!p || threads < 1 || threads > 64)
        return 1;
    for (size_t i = 0; i < n; i++)
        p[i] = i;
    slice s[64];
    pthread_t t[64];
    double best = 1e30;
    uint64_t check = 0;
    for (int pass = 0; pass < passes; pass++) {
        double t0 = now();
        for (int k = 0; k < threads; k++) {
            s[k].p = p + n / threads * k;
            s[k].n = n / threads;
            pthread_create(&t[k], NULL, sum_slice, &s[k]);
        }
        for (int k = 0; k < threads; k++) {
            pthread_join(t[k], NULL);
            check += s[k].sum;
        }
        double dt = now() - t0;
        if (dt < best)
            best = dt;
    }
    printf("%.6f %llu\n", bytes / best / 1e9, (unsigned long long)(check & 1));
    return 0;
}
"""


def build_bandwidth(workdir: Path) -> Path | None:
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        return None
    src, exe = workdir / "bandwidth.c", workdir / "bandwidth"
    src.write_text(BANDWIDTH_C)
    subprocess.run([cc, "-O3", "-march=native", "-pthread", "-o", str(exe), str(src)], check=True)
    return exe


def run_bandwidth(exe: Path, threads: int, passes: int) -> dict:
    out = {}
    for t in sorted({1, threads}):
        r = subprocess.run([str(exe), str(t), str(passes)], capture_output=True, text=True, check=True)
        out[str(t)] = float(r.stdout.split()[0])
    return out


# -- size ----------------------------------------------------------------------------------------

def stripped_size(path: Path, workdir: Path) -> int:
    copy = workdir / ("strip-" + path.name)
    subprocess.run(["strip", "-o", str(copy), str(path)], check=True)
    size = copy.stat().st_size
    copy.unlink()
    return size


def measure_sizes(workdir: Path) -> dict:
    ours = ROOT / "build" / "meson" / "_C.abi3.so"
    up_torch = Path(subprocess.run(
        [str(PYTHONS["upstream"]), "-c", "import torch, os; print(os.path.dirname(torch.__file__))"],
        capture_output=True, text=True, check=True).stdout.strip())
    up = {"libtorch_cpu.so": up_torch / "lib" / "libtorch_cpu.so",
          "libtorch_python.so": up_torch / "lib" / "libtorch_python.so",
          "_C.so": next(up_torch.glob("_C.cpython-*.so"))}
    out = {"ours_C": stripped_size(ours, workdir), "ours_C_unstripped": ours.stat().st_size,
           "upstream": {k: stripped_size(v, workdir) for k, v in up.items()}, "ours_system_libs": {}}
    # The system libraries our _C links (XNNPACK and friends): context, not part of the target.
    ldd = subprocess.run(["ldd", str(ours)], capture_output=True, text=True).stdout
    for m in re.finditer(r"^\s*(\S+) => (\S+)", ldd, re.M):
        name, path = m.groups()
        if not re.match(r"lib(c|m|pthread|dl|rt)\.so", name):
            out["ours_system_libs"][name] = stripped_size(Path(path).resolve(), workdir)
    return out


# -- orchestration ------------------------------------------------------------------------------

def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def run_worker(side: str, group: str, params: dict, timeout: float) -> dict:
    cmd = [str(PYTHONS[side]), str(Path(__file__).resolve()), "--worker", group, "--side", side,
           "--params", json.dumps(params)]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    lines = {m.group(1): m.group(2) for m in re.finditer(r"^BENCH-(\w+) (.*)$", r.stdout, re.M)}
    if "ABORT" in lines:
        sys.exit(f"bench: aborted: {json.loads(lines['ABORT'])}")
    if "RESULT" in lines:
        return json.loads(lines["RESULT"])
    if "ERROR" in lines:
        return {"error": json.loads(lines["ERROR"])}
    return {"error": f"worker exited {r.returncode}: {(r.stderr.strip().splitlines() or ['?'])[-1][:300]}"}


def run_import(side: str, timeout: float) -> dict:
    py = str(PYTHONS[side])
    t0 = time.perf_counter()
    r = subprocess.run([py, "-c", "import torch"], capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        return {"error": f"python -c 'import torch' exited {r.returncode}"}
    t0 = time.perf_counter()
    subprocess.run([py, "-c", "pass"], check=True, timeout=timeout, cwd=ROOT)
    bare = time.perf_counter() - t0
    r = subprocess.run([py, "-c", IMPORT_SNIPPET], capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    m = re.search(r"^BENCH-IMPORT (.*)$", r.stdout, re.M)
    if not m:
        return {"error": f"import snippet exited {r.returncode}"}
    d = json.loads(m.group(1))
    want = {"ours": ROOT / "build", "upstream": ROOT / ".venv-upstream"}[side].resolve()
    if not d["c"].startswith(str(want) + os.sep):
        sys.exit(f"bench: aborted: {side} imported _C from {d['c']}, expected under {want}")
    return {"threads": d["threads"], "c": d["c"],
            "data": {"wall_s": wall, "bare_python_s": bare, "import_s": d["import_s"], "rss_kib": d["rss_kib"]}}


def probe(threads: int) -> int:
    """Each side imports the torch it should and reports one thread count; else abort."""
    seen = {}
    for side in SIDES:
        snippet = ("import os, torch\n" + (f"torch.set_num_threads({threads})\n" if threads else "")
                   + "print(os.path.realpath(torch._C.__file__), torch.__version__, torch.get_num_threads())")
        r = subprocess.run([str(PYTHONS[side]), "-c", snippet], capture_output=True, text=True, cwd=ROOT)
        if r.returncode != 0:
            sys.exit(f"bench: aborted: {side} cannot import torch: {r.stderr.strip().splitlines()[-1:]}")
        c, version, n = r.stdout.split()
        want = {"ours": ROOT / "build", "upstream": ROOT / ".venv-upstream"}[side].resolve()
        if not c.startswith(str(want) + os.sep) or not version.startswith("2.13.0"):
            sys.exit(f"bench: aborted: {side} imported torch {version} with _C at {c}, expected under {want}")
        seen[side] = int(n)
    if seen["ours"] != seen["upstream"]:
        sys.exit(f"bench: aborted: default thread counts differ ({seen}); pass --threads N")
    return seen["ours"]


def machine_info() -> dict:
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        m = re.search(r"^model name\s*:\s*(.*)$", f.read(), re.M)
        cpu = m.group(1).strip() if m else cpu
    with open("/proc/meminfo") as f:
        mem = int(re.search(r"MemTotal:\s+(\d+)", f.read()).group(1))
    nproc = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
    return {"nproc": nproc, "cpu": cpu, "mem_gib": round(mem / 2**20, 1), "kernel": platform.release(),
            "python": platform.python_version()}


def git_head() -> str:
    r = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return r.stdout.strip() + (" (with uncommitted changes)" if dirty else "")


def orchestrate(args) -> int:
    quick = args.quick
    reps = args.reps or (2 if quick else 5)
    groups = [g for g in args.groups.split(",") if g] if args.groups else list(GROUPS)
    for g in groups:
        if g not in GROUPS and g != "size":
            sys.exit(f"bench: unknown group {g!r} (known: {', '.join(GROUPS)}, size)")
    new_tokens = args.new_tokens or (8 if quick else 64)
    sizes = [int(s) for s in args.prefill_sizes.split(",")]
    prefill_dtypes = args.prefill_dtypes.split(",")
    inner = args.prefill_inner or (1 if quick else 2)
    for side, py in PYTHONS.items():
        if not py.exists():
            sys.exit(f"bench: {py} is missing (scripts/setup.sh makes it)")

    run = {"started": datetime.datetime.now().isoformat(timespec="seconds"),
           "command": " ".join(["tools/bench.py"] + sys.argv[1:]),
           "machine": machine_info(), "git": git_head(), "reps": reps, "quick": quick,
           "new_tokens": new_tokens, "prefill_sizes": sizes, "prefill_dtypes": prefill_dtypes,
           "prefill_inner": inner, "threads_requested": args.threads, "groups": groups,
           "loadavg_start": os.getloadavg(), "samples": {}}
    samples = run["samples"]

    def add(key: str, side: str, rep: int, res: dict):
        samples.setdefault(key, {}).setdefault(side, []).append(dict(res, rep=rep, loadavg=os.getloadavg()[0]))
        if "error" in res:
            log(f"  {key} {side}: ERROR {res['error']}")

    run["probe_threads"] = probe(args.threads)
    log(f"both sides: right torch, {run['probe_threads']} threads")
    workdir = Path(tempfile.mkdtemp(prefix="tn-bench-"))
    try:
        bw_exe = build_bandwidth(workdir) if "bandwidth" in groups or "decode" in groups else None
        if "size" in groups or not args.groups:
            log("size: stripping copies of the binaries")
            run["size"] = measure_sizes(workdir)
        base = {"threads": args.threads}
        jobs = []  # (key, group, params)
        if "ops" in groups:
            jobs.append(("ops", "ops", dict(base, op_repeat=3 if quick else 5, op_scale=0.25 if quick else 1.0)))
        if "prefill" in groups:
            for dt in prefill_dtypes:
                jobs.append((f"prefill-{dt}", "prefill", dict(base, dtype=dt, sizes=sizes, inner=inner)))
        if "decode" in groups:
            for dt in DECODE_DTYPES:
                jobs.append((f"decode-{dt}", "decode", dict(base, dtype=dt, new_tokens=new_tokens)))
        for rep in range(reps):
            order = SIDES if rep % 2 == 0 else SIDES[::-1]
            log(f"repetition {rep + 1}/{reps}, order {' then '.join(order)}")
            if "import" in groups:
                for side in order:
                    add("import", side, rep, run_import(side, args.timeout))
            if bw_exe and ("bandwidth" in groups or "decode" in groups):
                samples.setdefault("bandwidth", {}).setdefault("machine", []).append(
                    {"rep": rep, "data": run_bandwidth(bw_exe, run["probe_threads"], 4 if quick else 8)})
            for key, group, params in jobs:
                for side in order:
                    t0 = time.perf_counter()
                    res = run_worker(side, group, params, args.timeout)
                    log(f"  {key:18s} {side:8s} {time.perf_counter() - t0:6.1f} s")
                    add(key, side, rep, res)
        if not bw_exe and ("bandwidth" in groups or "decode" in groups):
            run["bandwidth_note"] = "no C compiler: bandwidth not measured"
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    run["loadavg_end"] = os.getloadavg()
    run["finished"] = datetime.datetime.now().isoformat(timespec="seconds")

    # Both sides must have run with one thread count.
    seen = {side: {s.get("threads") for k, v in samples.items() if k != "bandwidth"
                   for s in v.get(side, []) if "threads" in s} for side in SIDES}
    if seen["ours"] and seen["upstream"] and seen["ours"] != seen["upstream"]:
        sys.exit(f"bench: aborted: thread counts differ: ours {seen['ours']}, upstream {seen['upstream']}")
    run["threads"] = sorted(seen["ours"] | seen["upstream"])

    json_path = Path(args.json)
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(run, indent=1))
    return report(json_path, args)


def report(json_path: Path, args) -> int:
    """Summarise the samples in json_path into PERF.md and the chart (also --render)."""
    run = json.loads(json_path.read_text())
    summary = summarise(run)
    run["summary"] = summary
    md = render_md(run, summary, Path(args.png))  # also records run["targets"]
    json_path.write_text(json.dumps(run, indent=1))
    Path(args.md).write_text(md)
    log(f"wrote {args.md} and {json_path}")
    r = subprocess.run([str(PYTHONS["upstream"]), str(Path(__file__).resolve()), "--plot", str(json_path),
                        "--png", str(args.png)], cwd=ROOT)
    if r.returncode != 0:
        log("chart failed (matplotlib in .venv-upstream? see requirements/upstream.txt)")
        return 1
    log(f"wrote {args.png}")
    print(md)
    return 0


# -- summary -------------------------------------------------------------------------------------

def series(run, key, side, getter):
    out = []
    for s in run["samples"].get(key, {}).get(side, []):
        if "error" in s:
            continue
        try:
            out.append(getter(s["data"]))
        except (KeyError, TypeError):
            pass
    return out


def errors(run, key, side):
    return [s["error"] for s in run["samples"].get(key, {}).get(side, []) if "error" in s]


def stat(run, key, side, getter):
    vals = series(run, key, side, getter)
    if not vals:
        errs = errors(run, key, side)
        return {"median": None, "error": errs[0] if errs else "not measured", "n": 0}
    m = statistics.median(vals)
    spread = (max(vals) - min(vals)) / m if m else 0.0
    return {"median": m, "min": min(vals), "max": max(vals), "spread": spread, "n": len(vals)}


def summarise(run) -> dict:
    S = {}
    both = lambda key, getter: {side: stat(run, key, side, getter) for side in SIDES}  # noqa: E731
    if "import" in run["samples"]:
        S["import_wall"] = both("import", lambda d: d["wall_s"])
        S["import_inproc"] = both("import", lambda d: d["import_s"])
        S["bare_python"] = both("import", lambda d: d["bare_python_s"])
        S["rss_import"] = both("import", lambda d: d["rss_kib"] * 1024)
    if "ops" in run["samples"]:
        S["ops"] = {label: both("ops", lambda d, label=label: d[label]) for label in OPS}
    for dt in run["prefill_dtypes"]:
        if f"prefill-{dt}" in run["samples"]:
            S[f"prefill-{dt}"] = {str(s): both(f"prefill-{dt}", lambda d, s=s: d[str(s)])
                                  for s in run["prefill_sizes"]}
    bw = run["samples"].get("bandwidth", {}).get("machine", [])
    if bw:
        keys = sorted({k for s in bw for k in s["data"]}, key=int)
        S["bandwidth"] = {}
        for k in keys:
            vals = [s["data"][k] for s in bw if k in s["data"]]
            m = statistics.median(vals)
            S["bandwidth"][k] = {"median": m, "min": min(vals), "max": max(vals),
                                 "spread": (max(vals) - min(vals)) / m, "n": len(vals)}
    for dt in DECODE_DTYPES:
        key = f"decode-{dt}"
        if key not in run["samples"]:
            continue
        d = {name: both(key, lambda x, name=name: x[name])
             for name in ("decode_tps", "ttft", "weight_bytes", "n_params", "peak_rss_generate_kib", "rss_loaded_kib",
                          "linear_s", "other_s", "linear_bytes", "linear_count")}
        wb = [v["median"] for v in d["weight_bytes"].values() if v["median"]]
        if wb and S.get("bandwidth"):
            # the best of the thread counts measured: the highest bandwidth this machine showed
            tkey = max(S["bandwidth"], key=lambda k: S["bandwidth"][k]["median"])
            d["ceiling_tps"] = S["bandwidth"][tkey]["median"] * 1e9 / wb[0]
            d["ceiling_threads"] = int(tkey)
        S[key] = d
    return S


# -- PERF.md -------------------------------------------------------------------------------------

def fmt_time(s):
    if s is None:
        return "—"
    if s < 1e-3:
        return f"{s * 1e6:.2f} µs"
    if s < 1:
        return f"{s * 1e3:.1f} ms"
    return f"{s:.2f} s"


def fmt_bytes(b):
    if b is None:
        return "—"
    return f"{b / 2**20:.1f} MiB" if b >= 2**20 else f"{b / 2**10:.0f} KiB"


def cell(st, fmt):
    if st["median"] is None:
        return f"error: {st['error']}"
    text = fmt(st["median"])
    if st["n"] > 1 and st["spread"] > 0.10:
        text += f" (±{st['spread'] * 50:.0f}%)"
    return text


def ratio(a, b):
    return None if a["median"] is None or b["median"] is None or not b["median"] else a["median"] / b["median"]


def fmt_ratio(r):
    return "—" if r is None else f"{r:.2f}×"


def met(ok):
    return "—" if ok is None else ("yes" if ok else "**no**")


def load_range(run) -> str:
    loads = [s["loadavg"] for v in run["samples"].values() for side in v.values() for s in side if "loadavg" in s]
    return f"{min(loads):.2f} to {max(loads):.2f}" if loads else "not recorded"


def render_md(run, S, png: Path) -> str:
    m = run["machine"]
    threads = ", ".join(str(t) for t in run["threads"]) or "?"
    noisy = []
    lines = [
        "# Performance: torchnative vs upstream torch 2.13.0",
        "",
        "Generated by `tools/bench.py` (do not edit by hand; re-run it). Each number is the median of",
        f"{run['reps']} repetitions; each repetition runs every measurement in a fresh process per side,",
        "alternating which side goes first. Ratio = ours / upstream. A cell marked (±N%) had a",
        "spread (max − min) of more than 10% of its median across repetitions.",
        "",
        f"- command: `{run['command'].replace('tools/bench.py', '.venv/bin/python tools/bench.py', 1)}`",
        f"- date: {run['started']} → {run['finished']}; commit {run['git']}",
        f"- machine: {m['nproc']} CPUs (nproc), {m['cpu']}, {m['mem_gib']} GiB, Linux {m['kernel']}, Python {m['python']}",
        f"- threads: {threads} on both sides (torch.get_num_threads(); "
        + (f"set with --threads {run['threads_requested']})" if run["threads_requested"] else "torch's default, not set)"),
        f"- load average (1 min) at start {run['loadavg_start'][0]:.2f}, at end {run['loadavg_end'][0]:.2f}, "
        f"after each measurement {load_range(run)}",
        "",
        f"![chart]({png.name})",
        "",
    ]

    targets = []  # (target, where it stands, met)

    if "import_wall" in S:
        a, b = S["import_wall"]["ours"], S["import_wall"]["upstream"]
        r = ratio(a, b)
        ok = None if r is None else r <= TARGET_IMPORT_RATIO
        rr = ratio(S["rss_import"]["ours"], S["rss_import"]["upstream"])
        rok = None if rr is None else rr <= TARGET_RSS_RATIO
        ri = ratio(S["import_inproc"]["ours"], S["import_inproc"]["upstream"])
        lines += [
            "## import torch",
            "",
            "| metric | ours | upstream | ratio | target | met? |",
            "|---|---|---|---|---|---|",
            f"| `python -c \"import torch\"` wall time | {cell(a, fmt_time)} | {cell(b, fmt_time)} | {fmt_ratio(r)} | ≤ {TARGET_IMPORT_RATIO}× | {met(ok)} |",
            f"| `import torch` inside the process | {cell(S['import_inproc']['ours'], fmt_time)} | {cell(S['import_inproc']['upstream'], fmt_time)} | {fmt_ratio(ri)} | — | — |",
            f"| `python -c pass` (interpreter alone) | {cell(S['bare_python']['ours'], fmt_time)} | {cell(S['bare_python']['upstream'], fmt_time)} | — | — | — |",
            f"| VmRSS after `import torch` | {cell(S['rss_import']['ours'], fmt_bytes)} | {cell(S['rss_import']['upstream'], fmt_bytes)} | {fmt_ratio(rr)} | ≤ {TARGET_RSS_RATIO}× | {met(rok)} |",
            "",
        ]
        targets.append((f"import torch ≤ {TARGET_IMPORT_RATIO}× upstream time", fmt_ratio(r), ok,
                        r and r / TARGET_IMPORT_RATIO))
        targets.append((f"RSS after import ≤ {TARGET_RSS_RATIO}× upstream", fmt_ratio(rr), rok,
                        rr and rr / TARGET_RSS_RATIO))
        noisy += [S["import_wall"][s]["spread"] for s in SIDES if S["import_wall"][s]["median"]]

    if "ops" in S:
        lines += ["## Per-op cost (time per call, tight loop)", "",
                  "| op | ours | upstream | ratio | target | met? |", "|---|---|---|---|---|---|"]
        worst, all_ok = None, True
        for label, st in S["ops"].items():
            r = ratio(st["ours"], st["upstream"])
            ok = None if r is None else r <= TARGET_OP_RATIO
            all_ok = all_ok and bool(ok)
            worst = r if worst is None or (r is not None and r > worst) else worst
            lines.append(f"| `{label}` | {cell(st['ours'], fmt_time)} | {cell(st['upstream'], fmt_time)} | "
                         f"{fmt_ratio(r)} | ≤ {TARGET_OP_RATIO}× | {met(ok)} |")
            noisy += [st[s]["spread"] for s in SIDES if st[s]["median"]]
        lines += ["", "Tensors are float32; `x.transpose` is on a 2×2 tensor, the others on 4 elements;",
                  "F.linear has no bias. Each worker takes the best of several autoranged loops.", ""]
        targets.append((f"per-op cost ≤ {TARGET_OP_RATIO}× upstream (every op)", f"worst {fmt_ratio(worst)}", all_ok,
                        worst and worst / TARGET_OP_RATIO))

    lines += kept_section(KERNELS_MD_BEGIN, KERNELS_MD_END).splitlines()

    if "bandwidth" in S:
        lines += ["## Memory read bandwidth (this machine)", "", "| threads | read bandwidth |", "|---|---|"]
        for k, st in S["bandwidth"].items():
            lines.append(f"| {k} | {cell(st, lambda v: f'{v:.1f} GB/s')} |")
        lines += ["", "A C program compiled here (`cc -O3 -march=native`) sums a 1 GiB uint64 array split over",
                  "the threads; best of several passes per repetition. Decode's ceiling uses the higher of the",
                  "two: every decode step must stream all weights from memory (they do not fit in cache).", ""]

    for dt in DECODE_DTYPES:
        key = f"decode-{dt}"
        if key not in S:
            continue
        d = S[key]
        a, b = d["decode_tps"]["ours"], d["decode_tps"]["upstream"]
        r = ratio(a, b)
        ceil = d.get("ceiling_tps")
        pct = lambda st: None if st["median"] is None or not ceil else st["median"] / ceil  # noqa: E731
        po, pu = pct(a), pct(b)
        ok_ceiling = None if po is None else po >= TARGET_DECODE_CEILING
        ok_up = None if r is None else r >= 1.0
        wb = d["weight_bytes"]["ours"]["median"] or d["weight_bytes"]["upstream"]["median"]
        np_ = d["n_params"]["ours"]["median"] or d["n_params"]["upstream"]["median"]
        lines += [
            f"## SmolLM2-135M-Instruct decode, {dt}",
            "",
            "| metric | ours | upstream | ratio | target | met? |",
            "|---|---|---|---|---|---|",
            f"| decode tokens/s | {cell(a, lambda v: f'{v:.1f}')} | {cell(b, lambda v: f'{v:.1f}')} | {fmt_ratio(r)} | ≥ 1.0× | {met(ok_up)} |",
            f"| decode as % of ceiling | {'—' if po is None else f'{po * 100:.0f}%'} | {'—' if pu is None else f'{pu * 100:.0f}%'} | — | ≥ {TARGET_DECODE_CEILING * 100:.0f}% | {met(ok_ceiling)} |",
            f"| time to first token | {cell(d['ttft']['ours'], fmt_time)} | {cell(d['ttft']['upstream'], fmt_time)} | {fmt_ratio(ratio(d['ttft']['ours'], d['ttft']['upstream']))} | — | — |",
            f"| peak RSS during generate (VmHWM) | {cell(d['peak_rss_generate_kib']['ours'], lambda v: fmt_bytes(v * 1024))} | {cell(d['peak_rss_generate_kib']['upstream'], lambda v: fmt_bytes(v * 1024))} | {fmt_ratio(ratio(d['peak_rss_generate_kib']['ours'], d['peak_rss_generate_kib']['upstream']))} | — | — |",
        ]
        if d["linear_s"]["ours"]["median"] is not None:
            lb = d["linear_bytes"]["ours"]["median"] or d["linear_bytes"]["upstream"]["median"]
            gbs = lambda st: st if st["median"] is None else {**st, "median": lb / st["median"] / 1e9}  # noqa: E731
            lc = int(d["linear_count"]["ours"]["median"] or d["linear_count"]["upstream"]["median"])
            lines += [
                f"| per token: the {lc} Linear layers alone | {cell(d['linear_s']['ours'], fmt_time)} | {cell(d['linear_s']['upstream'], fmt_time)} | {fmt_ratio(ratio(d['linear_s']['ours'], d['linear_s']['upstream']))} | — | — |",
                f"| their read bandwidth ({lb / 1e6:.0f} MB of weights) | {cell(gbs(d['linear_s']['ours']), lambda v: f'{v:.1f} GB/s')} | {cell(gbs(d['linear_s']['upstream']), lambda v: f'{v:.1f} GB/s')} | — | — | — |",
                f"| per token: the rest of the step (decode step − Linear layers) | {cell(d['other_s']['ours'], fmt_time)} | {cell(d['other_s']['upstream'], fmt_time)} | {fmt_ratio(ratio(d['other_s']['ours'], d['other_s']['upstream']))} | — | — |",
            ]
        lines += [""]
        if ceil and wb:
            lines += [f"Ceiling: {S['bandwidth'][str(d['ceiling_threads'])]['median']:.1f} GB/s ({d['ceiling_threads']} thread{'s' if d['ceiling_threads'] > 1 else ''}) "
                      f"/ {wb / 1e6:.1f} MB per token = **{ceil:.1f} tokens/s**. Bytes per token = every parameter once "
                      f"({np_ / 1e6:.1f} M × {int(wb // np_)} B): the 30 layers' projections and norms, the final norm, and the",
                      "tied embedding/lm_head matrix (49152 × 576) counted once, since lm_head reads all of it each",
                      "step and the embedding lookup reads one row. KV-cache reads (46 KB per cached position in f32)",
                      "and activations are not counted: under 1% at these lengths.", "",
                      "The Linear layers alone are the model's own modules called in model order on one-token inputs",
                      "after the generate (best of 6 passes); the rest of the step is everything else a decode step",
                      "does: transformers' Python (module calls, cache update, rotary, masks, logits processors),",
                      "attention, norms and sampling. Reaching the ceiling needs the whole step at read bandwidth,",
                      "so the rest of the step alone caps how close decode can come to it.", ""]
        prompt = (series(run, key, "ours", lambda x: x["prompt_tokens"]) + series(run, key, "upstream", lambda x: x["prompt_tokens"]) + ["?"])[0]
        lines += [f"Greedy, the model's chat template around a fixed prompt ({prompt} tokens), "
                  f"max_new_tokens = min_new_tokens = {run['new_tokens']}, after a 4-token warm-up generate. Peak RSS is reset",
                  "(clear_refs) after loading, so it is the generate's own peak on top of the loaded model.", ""]
        targets.append((f"decode {dt} ≥ {TARGET_DECODE_CEILING * 100:.0f}% of ceiling", "—" if po is None else f"{po * 100:.0f}%",
                        ok_ceiling, po and TARGET_DECODE_CEILING / po))
        targets.append((f"decode {dt} ≥ upstream", fmt_ratio(r), ok_up, r and 1.0 / r))
        noisy += [d["decode_tps"][s]["spread"] for s in SIDES if d["decode_tps"][s]["median"]]

    for dt in run["prefill_dtypes"]:
        key = f"prefill-{dt}"
        if key not in S:
            continue
        lines += [f"## SmolLM2-135M-Instruct prefill, {dt} (one forward, use_cache=True)", "",
                  "| S | ours | upstream | ratio | target | met? |", "|---|---|---|---|---|---|"]
        worst, all_ok = None, True
        for s, st in S[key].items():
            r = ratio(st["ours"], st["upstream"])
            ok = None if r is None else r <= TARGET_PREFILL_RATIO
            all_ok = all_ok and bool(ok)
            worst = r if worst is None or (r is not None and r > worst) else worst
            lines.append(f"| {s} | {cell(st['ours'], fmt_time)} | {cell(st['upstream'], fmt_time)} | {fmt_ratio(r)} | ≤ {TARGET_PREFILL_RATIO}× | {met(ok)} |")
            noisy += [st[x]["spread"] for x in SIDES if st[x]["median"]]
        lines += ["", f"Best of {run['prefill_inner']} forwards after one warm-up forward at that S, batch 1.", ""]
        targets.append((f"prefill {dt} ≤ {TARGET_PREFILL_RATIO}× upstream at every S", f"worst {fmt_ratio(worst)}", all_ok,
                        worst and worst / TARGET_PREFILL_RATIO))

    if "size" in run:
        z = run["size"]
        up_total = sum(z["upstream"].values())
        ok = z["ours_C"] <= TARGET_C_BYTES
        lines += ["## Binary size (stripped copies)", "",
                  "| file | stripped size |", "|---|---|",
                  f"| ours: `build/meson/_C.abi3.so` | {fmt_bytes(z['ours_C'])} ({z['ours_C']:,} B; unstripped {fmt_bytes(z['ours_C_unstripped'])}) |"]
        for name, b in z["ours_system_libs"].items():
            lines.append(f"| ours, Debian library it links (context): `{name}` | {fmt_bytes(b)} |")
        for name, b in z["upstream"].items():
            lines.append(f"| upstream: `torch/lib/{name}`" if name != "_C.so" else "| upstream: `torch/_C.cpython-311-…so`")
            lines[-1] += f" | {fmt_bytes(b)} |"
        lines += [f"| upstream: those three together | {fmt_bytes(up_total)} |", "",
                  f"Target: our `_C` ≤ 8 MB (8,000,000 B) stripped: **{'met' if ok else 'not met'}** "
                  f"({z['ours_C'] / 1e6:.2f} MB; {z['ours_C'] / up_total:.3f}× upstream's three).", ""]
        targets.append(("_C ≤ 8 MB stripped", f"{z['ours_C'] / 1e6:.2f} MB", ok, z["ours_C"] / TARGET_C_BYTES))

    noisy_flag = run["loadavg_start"][0] > float(m["nproc"] or 1) or any(x > 0.10 for x in noisy)
    head = ["## Targets", "", "| target | where it stands | met? |", "|---|---|---|"]
    head += [f"| {t} | {w} | {met(ok)} |" for t, w, ok, _ in targets]
    run["targets"] = [{"target": t, "stands": w, "met": ok, "score": sc} for t, w, ok, sc in targets]
    head.append("")
    if noisy_flag:
        head += ["**Noisy machine**: the load average exceeded the CPU count and/or some medians had a spread",
                 "over 10% across repetitions (other jobs shared the CPUs). Treat ratios near a target as",
                 "unsettled; re-run on a quiet machine.", ""]
    i = lines.index(f"![chart]({png.name})")
    # the sections measured separately (--kernels above, --adapt, --train) are kept as they are
    return ("\n".join(lines[:i] + head + lines[i:]) + "\n" + kept_section(ADAPT_MD_BEGIN, ADAPT_MD_END)
            + kept_section(TRAIN_MD_BEGIN, TRAIN_MD_END))


# -- chart (runs in .venv-upstream, where matplotlib is) ------------------------------------------

def plot(json_path: Path, png: Path) -> int:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    run = json.loads(json_path.read_text())
    S = run["summary"]
    colors = {"ours": "#1f77b4", "upstream": "#ff7f0e"}
    fig, axes = plt.subplots(2, 3, figsize=(16, 9))
    fig.suptitle(f"torchnative vs upstream torch 2.13.0 — {run['started'][:10]}, {run['machine']['nproc']} CPUs "
                 f"({run['machine']['cpu']}), medians of {run['reps']} reps", fontsize=12)

    def bars(ax, labels, values_by_side, ylabel, title, log=False):
        x = range(len(labels))
        w = 0.38
        for i, side in enumerate(("ours", "upstream")):
            vals = [v if v is not None else 0 for v in values_by_side[side]]
            ax.bar([xi + (i - 0.5) * w for xi in x], vals, w, label=side, color=colors[side])
        ax.set_xticks(list(x))
        ax.set_xticklabels(labels, rotation=20, ha="right", fontsize=8)
        ax.set_ylabel(ylabel)
        ax.set_title(title, fontsize=10)
        if log:
            ax.set_yscale("log")
        ax.legend(fontsize=8)

    ax = axes[0, 0]
    if "ops" in S:
        labels = list(S["ops"])
        bars(ax, [lb.split(" (")[0] for lb in labels],
             {s: [(S["ops"][lb][s]["median"] or 0) * 1e6 for lb in labels] for s in colors},
             "µs per call (log)", "per-op cost (target: ours ≤ 0.4× upstream)", log=True)
        for i, lb in enumerate(labels):
            u = S["ops"][lb]["upstream"]["median"]
            if u:
                ax.plot([i - 0.4, i + 0.4], [u * 1e6 * TARGET_OP_RATIO] * 2, "k--", lw=1)
    else:
        ax.set_visible(False)

    ax = axes[0, 1]
    pkeys = [k for k in S if k.startswith("prefill-")]
    if pkeys:
        for k in pkeys:
            sizes = list(S[k])
            for side in colors:
                ys = [S[k][s][side]["median"] for s in sizes]
                pts = [(int(s), y * 1e3) for s, y in zip(sizes, ys) if y]
                if pts:
                    ax.plot(*zip(*pts), "o-" if k.endswith("float32") else "s--", color=colors[side],
                            label=f"{side} {k.split('-', 1)[1]}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("prompt tokens S")
        ax.set_ylabel("ms per forward (log)")
        ax.set_title("prefill (target: ours ≤ upstream)", fontsize=10)
        ax.legend(fontsize=8)
    else:
        ax.set_visible(False)

    ax = axes[0, 2]
    dkeys = [k for k in S if k.startswith("decode-")]
    if dkeys:
        labels = [k.split("-", 1)[1] for k in dkeys]
        bars(ax, labels, {s: [S[k]["decode_tps"][s]["median"] for k in dkeys] for s in colors},
             "tokens/s", "decode (target: ≥ 85% of ceiling and ≥ upstream)")
        for i, k in enumerate(dkeys):
            c = S[k].get("ceiling_tps")
            if c:
                ax.plot([i - 0.4, i + 0.4], [c, c], "k-", lw=1.5, label="bandwidth ceiling" if i == 0 else None)
                ax.plot([i - 0.4, i + 0.4], [c * TARGET_DECODE_CEILING] * 2, "k:", lw=1,
                        label="85% of ceiling" if i == 0 else None)
        ax.legend(fontsize=8)
    else:
        ax.set_visible(False)

    ax = axes[1, 0]
    lat_labels, lat = [], {"ours": [], "upstream": []}
    if "import_wall" in S:
        lat_labels.append('python -c "import torch"')
        for s in colors:
            lat[s].append((S["import_wall"][s]["median"] or 0) * 1e3)
    for k in dkeys:
        lat_labels.append(f"time to first token, {k.split('-', 1)[1]}")
        for s in colors:
            lat[s].append((S[k]["ttft"][s]["median"] or 0) * 1e3)
    if lat_labels:
        bars(ax, lat_labels, lat, "ms", "latency (target for import: ours ≤ 0.3× upstream)")
    else:
        ax.set_visible(False)

    ax = axes[1, 1]
    mem_labels, mem = [], {"ours": [], "upstream": []}
    if "import_wall" in S:
        mem_labels.append("after import torch")
        for s in colors:
            mem[s].append((S["rss_import"][s]["median"] or 0) / 2**20)
    for k in dkeys:
        mem_labels.append(f"peak in generate, {k.split('-', 1)[1]}")
        for s in colors:
            mem[s].append((S[k]["peak_rss_generate_kib"][s]["median"] or 0) / 1024)
    if mem_labels:
        bars(ax, mem_labels, mem, "MiB", "resident memory (target after import: ours ≤ 0.4× upstream)")
    else:
        ax.set_visible(False)

    ax = axes[1, 2]
    items = [t for t in run.get("targets", []) if t["score"]]
    if items:
        ys = list(range(len(items)))[::-1]
        scores = [t["score"] for t in items]
        lo = min(0.02, min(scores) / 2)
        ax.barh(ys, scores, left=lo, color=["#2ca02c" if t["met"] else "#d62728" for t in items], alpha=0.6)
        ax.axvline(1.0, color="k", lw=1)
        ax.set_xscale("log")
        ax.set_xlim(lo, max(max(scores) * 1.5, 2.0))
        ax.set_yticks([])
        for y, t in zip(ys, items):
            ax.text(lo * 1.1, y, f"{t['target']}: {t['stands']}", va="center", fontsize=7)
        ax.set_xlabel("ours / target threshold, oriented so ≤ 1 is met (log)")
        ax.set_title("targets (green met, red not)", fontsize=10)
    else:
        ax.set_visible(False)

    fig.tight_layout(rect=(0, 0, 1, 0.95))
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=90)
    return 0


# -- torch.distributed (--dist) ------------------------------------------------------------------

DIST_SIZES = {"4 MB": 4 << 20, "64 MB": 64 << 20}
DIST_MD_BEGIN, DIST_MD_END = "<!-- bench:dist:begin -->", "<!-- bench:dist:end -->"


def dist_worker(args) -> int:
    """One rank: the throughput/latency loop or the RSS probe; rank 0 emits the result."""
    import warnings

    warnings.simplefilter("ignore")
    p = json.loads(args.params)
    import torch
    import torch.distributed as dist

    check_torch(torch, args.side)
    rank, ws = p["rank"], p["world"]
    dist.init_process_group("gloo", init_method=p["init"], rank=rank, world_size=ws,
                            timeout=datetime.timedelta(seconds=600))
    out = {}
    if p["mode"] == "rss":
        base = status_kib("VmRSS")
        t = torch.ones((256 << 20) // 4)
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        dist.all_reduce(t)
        peak = status_kib("VmHWM")
        got = [None] * ws
        dist.all_gather_object(got, {"base_kib": base, "peak_kib": peak})
        out["ranks"] = got
        out["tensor_bytes"] = t.numel() * 4
    else:
        for label, nbytes in DIST_SIZES.items():
            t = torch.ones(nbytes // 4)
            reps = p["reps_small"] if nbytes < (32 << 20) else p["reps_large"]
            dist.all_reduce(t)
            times = []
            for _ in range(reps):
                dist.barrier()
                t0 = time.perf_counter()
                dist.all_reduce(t)
                times.append(time.perf_counter() - t0)
            out[label] = statistics.median(times)
        t = torch.ones(1)
        for name, fn in (("4 B all_reduce", lambda: dist.all_reduce(t)), ("barrier", dist.barrier)):
            fn()
            times = []
            for _ in range(p["reps_latency"]):
                t0 = time.perf_counter()
                fn()
                times.append(time.perf_counter() - t0)
            out[name] = statistics.median(times)
    dist.destroy_process_group()
    if rank == 0:
        emit("RESULT", {"data": out})
    return 0


def run_dist(side: str, ws: int, params: dict, timeout: float) -> dict:
    port = 20000 + (os.getpid() * 7 + ws * 131 + int(time.time() * 1000)) % 30000
    procs = []
    for r in range(ws):
        prm = dict(params, rank=r, world=ws, init=f"tcp://127.0.0.1:{port}")
        cmd = [str(PYTHONS[side]), str(Path(__file__).resolve()), "--dist-worker", "--side", side,
               "--params", json.dumps(prm)]
        procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                      cwd=ROOT))
    outs = []
    try:
        for pr in procs:
            outs.append(pr.communicate(timeout=timeout))
    except subprocess.TimeoutExpired:
        for pr in procs:
            pr.kill()
        return {"error": f"timed out after {timeout:.0f} s"}
    m = re.search(r"^BENCH-RESULT (.*)$", outs[0][0], re.M)
    if "BENCH-ABORT" in "".join(o[0] for o in outs):
        sys.exit(f"bench: aborted: {side} imported the wrong torch")
    if not m:
        return {"error": f"rank 0 exited {procs[0].returncode}: {(outs[0][1].strip().splitlines() or ['?'])[-1][:300]}"}
    return json.loads(m.group(1))


def orchestrate_dist(args) -> int:
    reps = args.reps or (2 if args.quick else 5)
    params = {"reps_small": 5 if args.quick else 20, "reps_large": 2 if args.quick else 5,
              "reps_latency": 50 if args.quick else 300}
    run = {"started": datetime.datetime.now().isoformat(timespec="seconds"),
           "command": " ".join(["tools/bench.py"] + sys.argv[1:]), "machine": machine_info(),
           "git": git_head(), "reps": reps, "params": params, "loadavg_start": os.getloadavg(),
           "samples": {}}
    for rep in range(reps):
        order = SIDES if rep % 2 == 0 else SIDES[::-1]
        log(f"dist repetition {rep + 1}/{reps}, order {' then '.join(order)}")
        for ws in (2, 4):
            for side in order:
                t0 = time.perf_counter()
                res = run_dist(side, ws, dict(params, mode="loop"), args.timeout)
                log(f"  world {ws} {side:8s} {time.perf_counter() - t0:6.1f} s {res.get('error', '')}")
                run["samples"].setdefault(f"loop-{ws}", {}).setdefault(side, []).append(res)
        if rep == 0:
            for side in order:
                res = run_dist(side, 2, dict(params, mode="rss"), args.timeout)
                run["samples"].setdefault("rss-2", {}).setdefault(side, []).append(res)
    run["loadavg_end"] = os.getloadavg()
    return save_section(run, args, "dist.json", render_dist(run), ROOT / "docs" / "DISTRIBUTED.md",
                        DIST_MD_BEGIN, DIST_MD_END)


def save_section(run, args, json_name: str, md: str, doc: Path, begin: str, end: str) -> int:
    """Every sample in build/bench/<json_name>; the rendered numbers between the doc's markers."""
    json_path = Path(args.json).with_name(json_name)
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(run, indent=1))
    text = doc.read_text() if doc.exists() else ""
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        doc.write_text(head + begin + "\n" + md + end + rest.split(end, 1)[1])
        log(f"wrote the numbers in {doc} and {json_path}")
    print(md)
    return 0


def orchestrate_adapt(args) -> int:
    reps = args.reps or (2 if args.quick else 5)
    params = {"threads": args.threads, "tokens": 64, "steps": args.adapt_steps}
    run = {"started": datetime.datetime.now().isoformat(timespec="seconds"),
           "command": " ".join(["tools/bench.py"] + sys.argv[1:]), "machine": machine_info(),
           "git": git_head(), "reps": reps, "params": params, "loadavg_start": os.getloadavg(), "samples": {}}
    for rep in range(reps):
        order = SIDES if rep % 2 == 0 else SIDES[::-1]
        log(f"adapt repetition {rep + 1}/{reps}, order {' then '.join(order)}")
        for side in order:
            t0 = time.perf_counter()
            res = run_worker(side, "adapt", params, args.timeout)
            log(f"  tent {side:8s} {time.perf_counter() - t0:6.1f} s {res.get('error', '')}")
            run["samples"].setdefault("adapt", {}).setdefault(side, []).append(dict(res, loadavg=os.getloadavg()[0]))
    run["loadavg_end"] = os.getloadavg()
    json_path = Path(args.json).with_name("adapt.json")
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(run, indent=1))
    md = render_adapt(run)
    doc = Path(args.md)
    text = doc.read_text() if doc.exists() else ""
    block = ADAPT_MD_BEGIN + "\n" + md + ADAPT_MD_END + "\n"
    if ADAPT_MD_BEGIN in text and ADAPT_MD_END in text:
        head, rest = text.split(ADAPT_MD_BEGIN, 1)
        text = head + block + rest.split(ADAPT_MD_END + "\n", 1)[-1]
    else:
        text = text.rstrip("\n") + "\n\n" + block
    doc.write_text(text)
    log(f"wrote the adaptation section of {doc} and {json_path}")
    print(md)
    return 0


def render_adapt(run) -> str:
    st = {name: {side: stat(run, "adapt", side, lambda d, name=name: d[name]) for side in SIDES}
          for name in ("step_s", "peak_rss_kib", "rss_loaded_kib")}
    r = ratio(st["step_s"]["ours"], st["step_s"]["upstream"])
    ok = None if r is None else r <= TARGET_ADAPT_RATIO
    kib = lambda v: fmt_bytes(v * 1024)  # noqa: E731
    rr = ratio(st["peak_rss_kib"]["ours"], st["peak_rss_kib"]["upstream"])
    m = run["machine"]
    loads = [s["loadavg"] for side in SIDES for s in run["samples"]["adapt"].get(side, [])]
    return "\n".join([
        "## Test-time adaptation: one Tent step on SmolLM2-135M-Instruct, float32, 64 tokens", "",
        f"- command: `.venv/bin/python {run['command']}`; {run['reps']} repetitions (ABBA), medians",
        f"- date: {run['started']}; commit {run['git']}; {m['nproc']} CPUs; load average (1 min) "
        f"{run['loadavg_start'][0]:.2f} at start, {min(loads, default=0):.2f} to {max(loads, default=0):.2f} "
        "after each measurement" + (" — **shared, loaded machine**: other jobs ran on these CPUs; the ratio is "
                                    "unsettled" if run["loadavg_start"][0] > float(m["nproc"] or 1) else ""), "",
        "| metric | ours | upstream | ratio | target | met? |", "|---|---|---|---|---|---|",
        f"| one Tent step (forward, entropy, autograd.grad over 61 RMSNorm weights, SGD) | "
        f"{cell(st['step_s']['ours'], fmt_time)} | {cell(st['step_s']['upstream'], fmt_time)} | {fmt_ratio(r)} | "
        f"≤ {TARGET_ADAPT_RATIO}× | {met(ok)} |",
        f"| peak RSS during the steps (VmHWM) | {cell(st['peak_rss_kib']['ours'], kib)} | "
        f"{cell(st['peak_rss_kib']['upstream'], kib)} | {fmt_ratio(rr)} | — | — |",
        f"| RSS with the model loaded | {cell(st['rss_loaded_kib']['ours'], kib)} | "
        f"{cell(st['rss_loaded_kib']['upstream'], kib)} | — | — | — |", "",
        f"Best of {run['params']['steps']} steps after one warm-up step, per worker; torchnative.adapt.Tent, lr 1e-3, "
        "batch 1. Peak RSS is reset (clear_refs) after the warm-up step, so it is the steps' own peak on top of "
        "the loaded model and the autograd graph's activations.", ""])


def render_dist(run) -> str:
    def med(key, side, field):
        vals = [s["data"][field] for s in run["samples"].get(key, {}).get(side, []) if "data" in s]
        return statistics.median(vals) if vals else None

    rows = []
    for ws in (2, 4):
        for label, nbytes in DIST_SIZES.items():
            o, u = med(f"loop-{ws}", "ours", label), med(f"loop-{ws}", "upstream", label)
            ro = nbytes / o / 1e9 if o else None
            ru = nbytes / u / 1e9 if u else None
            ratio = ro / ru if ro and ru else None
            rows.append((f"all_reduce {label} float32, GB/s (algorithm bandwidth)", ws,
                         f"{ro:.2f}" if ro else "—", f"{ru:.2f}" if ru else "—", ratio, "≥ 1.0×",
                         ratio is not None and ratio >= 1.0))
        for label in ("4 B all_reduce", "barrier"):
            o, u = med(f"loop-{ws}", "ours", label), med(f"loop-{ws}", "upstream", label)
            ratio = u / o if o and u else None
            rows.append((f"{label} latency", ws, fmt_time(o), fmt_time(u), ratio, "≤ gloo's",
                         ratio is not None and ratio >= 1.0))
    lines = [f"Measured by `{run['command']}` at {run['git']} on {run['machine']['nproc']} cores "
             f"({run['machine']['cpu']}), load average {run['loadavg_start'][0]:.1f} at the start "
             f"and {run['loadavg_end'][0]:.1f} at the end; {run['reps']} repetitions (ABBA), medians. "
             "Ratio: ours over gloo for throughput, gloo over ours for latency (above 1 is better).",
             "", "| measure | processes | torchnative | upstream gloo | ratio | target | met |",
             "|---|---|---|---|---|---|---|"]
    for name, ws, o, u, ratio, target, ok in rows:
        lines.append(f"| {name} | {ws} | {o} | {u} | {f'{ratio:.2f}×' if ratio else '—'} | {target} | "
                     f"{'yes' if ok else 'no'} |")
    for side in SIDES:
        for s in run["samples"].get("rss-2", {}).get(side, []):
            if "data" not in s:
                continue
            tb = s["data"]["tensor_bytes"]
            worst = max(r["peak_kib"] * 1024 - r["base_kib"] * 1024 - tb for r in s["data"]["ranks"])
            lines.append("")
            lines.append(f"Peak RSS over a 256 MB all_reduce, 2 processes, {side}: the worst rank grew "
                         f"{fmt_bytes(worst + tb)} above its RSS before the tensor existed, "
                         f"i.e. {fmt_bytes(worst)} beyond the tensor itself"
                         + (" (target: at most 64 MB beyond it)." if side == "ours" else "."))
    return "\n".join(lines) + "\n"


# -- torchnative.federated (--fed) ---------------------------------------------------------------

FED_MD_BEGIN, FED_MD_END = "<!-- bench:fed:begin -->", "<!-- bench:fed:end -->"
FED_MODES = {"tent": "Tent delta (normalisation parameters)", "full": "full float32 model delta"}


def orchestrate_fed(args) -> int:
    reps = args.reps or 1
    run = {"started": datetime.datetime.now().isoformat(timespec="seconds"),
           "command": " ".join(["tools/bench.py"] + sys.argv[1:]), "machine": machine_info(),
           "git": git_head(), "reps": reps, "loadavg_start": os.getloadavg(), "samples": {}}
    tmp = Path(tempfile.mkdtemp())
    for rep in range(reps):
        order = SIDES if rep % 2 == 0 else SIDES[::-1]
        for mode in args.fed_modes.split(","):
            for side in order:
                out = tmp / f"{mode}-{side}-{rep}.json"
                cmd = [str(PYTHONS[side]), str(ROOT / "tools" / "federated.py"), "--bench", mode, "--world", "4",
                       "--clients-python", str(PYTHONS[side]), "--json", str(out)]
                t0 = time.perf_counter()
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout, cwd=ROOT)
                if proc.returncode != 0:
                    res = {"error": (proc.stdout + proc.stderr).strip()[-500:]}
                else:
                    res = json.loads(out.read_text())
                    want = "/build/" if side == "ours" else "/.venv-upstream/"
                    if want not in res["clients_torch"][1]:
                        sys.exit(f"bench: aborted: {side} clients imported torch._C from {res['clients_torch'][1]}")
                log(f"fed {mode} {side:8s} {time.perf_counter() - t0:6.1f} s {res.get('error', '')}")
                run["samples"].setdefault(mode, {}).setdefault(side, []).append(res)
    shutil.rmtree(tmp, ignore_errors=True)
    run["loadavg_end"] = os.getloadavg()
    return save_section(run, args, "fed.json", render_fed(run), ROOT / "docs" / "FEDERATED.md",
                        FED_MD_BEGIN, FED_MD_END)


def render_fed(run) -> str:
    def med(mode, side, getter):
        vals = [getter(r) for s in run["samples"].get(mode, {}).get(side, []) if "ranks" in s for r in s["ranks"]]
        return statistics.median(vals) if vals else None

    def worst(mode, side, getter):
        vals = [getter(r) for s in run["samples"].get(mode, {}).get(side, []) if "ranks" in s for r in s["ranks"]]
        return max(vals) if vals else None

    lines = [f"Measured by `{run['command']}` at {run['git']} on {run['machine']['nproc']} cores "
             f"({run['machine']['cpu']}), load average {run['loadavg_start'][0]:.1f} at the start and "
             f"{run['loadavg_end'][0]:.1f} at the end; {run['reps']} repetition(s). One round over 4 local "
             "processes (rank 0 coordinates and hosts the store); time: the slowest rank's "
             "`participate()`; bytes: per rank, put into the store + read from it (the median rank; "
             "the coordinator's in brackets); peak RSS: VmHWM after the round (the median rank; the "
             "largest in brackets).", "",
             "| delta | side | round time | bytes on the wire per rank | peak RSS per rank |", "|---|---|---|---|---|"]
    for mode, label in FED_MODES.items():
        if mode not in run["samples"]:
            continue
        for side in SIDES:
            errs = [s["error"] for s in run["samples"].get(mode, {}).get(side, []) if "error" in s]
            if errs:
                lines.append(f"| {label} | {side} | failed: {errs[0][:120]} | | |")
                continue
            t = worst(mode, side, lambda r: r["seconds"])
            wire = med(mode, side, lambda r: r["bytes_published"] + r["bytes_fetched"])
            coord = [s["ranks"][0]["bytes_published"] + s["ranks"][0]["bytes_fetched"]
                     for s in run["samples"].get(mode, {}).get(side, []) if "ranks" in s]
            rss = med(mode, side, lambda r: r["hwm_after_kib"] * 1024)
            rss_max = worst(mode, side, lambda r: r["hwm_after_kib"] * 1024)
            lines.append(f"| {label} | {side} | {fmt_time(t)} | {fmt_bytes(wire)} ({fmt_bytes(max(coord, default=None))}) "
                         f"| {fmt_bytes(rss)} ({fmt_bytes(rss_max)}) |")
    return "\n".join(lines) + "\n"


# -- training (--train) ---------------------------------------------------------------------------

TRAIN_MD_BEGIN, TRAIN_MD_END = "<!-- bench:train:begin -->", "<!-- bench:train:end -->"


def noisy_note(what: str) -> str:
    """The warning a section carries when its machine was busy (one paragraph line)."""
    return ("**Noisy machine**: the load average exceeded the CPU count and/or some medians had a spread "
            f"over 10% across repetitions (other jobs shared the CPUs). Treat {what} as unsettled; "
            "re-run on a quiet machine.")


def kept_section(begin: str, end: str) -> str:
    """A section of the current docs/PERF.md between its markers (measured by its own mode, which a
    full run does not repeat), markers included; "" if it has none."""
    doc = ROOT / "docs" / "PERF.md"
    text = doc.read_text() if doc.exists() else ""
    if begin not in text or end not in text:
        return ""
    return "\n" + begin + text.split(begin, 1)[1].split(end, 1)[0] + end + "\n"


# -- larger kernels (--kernels) -------------------------------------------------------------------

KERNELS_MD_BEGIN, KERNELS_MD_END = "<!-- bench:kernels:begin -->", "<!-- bench:kernels:end -->"


def orchestrate_kernels(args) -> int:
    reps = args.reps or (2 if args.quick else 5)
    params = {"threads": args.threads, "kernels": True, "op_repeat": 3 if args.quick else 5,
              "op_scale": 0.25 if args.quick else 1.0}
    run = {"started": datetime.datetime.now().isoformat(timespec="seconds"),
           "command": " ".join(["tools/bench.py"] + sys.argv[1:]), "machine": machine_info(),
           "git": git_head(), "reps": reps, "loadavg_start": os.getloadavg(),
           "probe_threads": probe(args.threads), "samples": {}}
    for rep in range(reps):
        order = SIDES if rep % 2 == 0 else SIDES[::-1]
        log(f"kernels repetition {rep + 1}/{reps}, order {' then '.join(order)}")
        for side in order:
            t0 = time.perf_counter()
            res = run_worker(side, "ops", params, args.timeout)
            log(f"  kernels {side:8s} {time.perf_counter() - t0:6.1f} s {res.get('error', '')}")
            for label in KERNELS:  # one sample key per row, so a refused row is that row's error
                v = res.get("data", {}).get(label, {"error": res.get("error", "not measured")})
                sample = {"error": v["error"]} if isinstance(v, dict) else {"data": {"s": v}}
                run["samples"].setdefault(label, {}).setdefault(side, []).append(
                    dict(sample, rep=rep, loadavg=os.getloadavg()[0]))
    run["loadavg_end"] = os.getloadavg()
    run["finished"] = datetime.datetime.now().isoformat(timespec="seconds")
    return save_section(run, args, "kernels.json", render_kernels(run), Path(args.md), KERNELS_MD_BEGIN,
                        KERNELS_MD_END)


def render_kernels(run) -> str:
    lines = ["## Larger kernels (context, no target; `tools/bench.py --kernels`)", "",
             f"Measured by `.venv/bin/python {run['command']}` at {run['git']}, {run['started']} → {run['finished']}, "
             f"on {run['machine']['nproc']} CPUs ({run['machine']['cpu']}), {run['probe_threads']} threads on both "
             f"sides; load average (1 min) {run['loadavg_start'][0]:.1f} at the start and "
             f"{run['loadavg_end'][0]:.1f} at the end. float32, no bias; each worker takes the best of several "
             f"autoranged loops per row; {run['reps']} repetitions in fresh processes, ABBA; medians of those.", "",
             "| op | ours | upstream | ratio |", "|---|---|---|---|"]
    noisy = run["loadavg_start"][0] > float(run["machine"]["nproc"] or 1)
    for label in KERNELS:
        st = {side: stat(run, label, side, lambda d: d["s"]) for side in SIDES}
        lines.append(f"| `{label}` | {cell(st['ours'], fmt_time)} | {cell(st['upstream'], fmt_time)} | "
                     f"{fmt_ratio(ratio(st['ours'], st['upstream']))} |")
        noisy = noisy or any(st[s]["median"] and st[s]["spread"] > 0.10 for s in SIDES)
    lines.append("")
    if noisy:
        lines += [noisy_note("the ratios"), ""]
    return "\n".join(lines) + "\n"


def orchestrate_train(args) -> int:
    reps = args.reps or (2 if args.quick else 5)
    params = {"mlp": {"warmup": 3, "steps": 20}, "llama-tiny": {"warmup": 2, "steps": 20},
              "smollm2": {"warmup": 1, "steps": 2 if args.quick else 4, "tokens": 128}}
    run = {"started": datetime.datetime.now().isoformat(timespec="seconds"),
           "command": " ".join(["tools/bench.py"] + sys.argv[1:]), "machine": machine_info(),
           "git": git_head(), "reps": reps, "params": params, "loadavg_start": os.getloadavg(),
           "probe_threads": probe(args.threads), "samples": {}}
    for rep in range(reps):
        order = SIDES if rep % 2 == 0 else SIDES[::-1]
        log(f"train repetition {rep + 1}/{reps}, order {' then '.join(order)}")
        for name, prm in params.items():
            for side in order:
                t0 = time.perf_counter()
                res = run_worker(side, "train", dict(prm, model=name, threads=args.threads), args.timeout)
                log(f"  {name:10s} {side:8s} {time.perf_counter() - t0:6.1f} s {res.get('error', '')}")
                run["samples"].setdefault(name, {}).setdefault(side, []).append(
                    dict(res, rep=rep, loadavg=os.getloadavg()[0]))
    run["loadavg_end"] = os.getloadavg()
    run["finished"] = datetime.datetime.now().isoformat(timespec="seconds")
    json_path = Path(args.json).with_name("train.json")
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(run, indent=1))
    md = render_train(run)
    doc = Path(args.md)
    text = doc.read_text() if doc.exists() else ""
    if TRAIN_MD_BEGIN in text and TRAIN_MD_END in text:
        head, rest = text.split(TRAIN_MD_BEGIN, 1)
        text = head + TRAIN_MD_BEGIN + "\n" + md + TRAIN_MD_END + rest.split(TRAIN_MD_END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + TRAIN_MD_BEGIN + "\n" + md + TRAIN_MD_END + "\n"
    doc.write_text(text)
    log(f"wrote the training section of {doc} and {json_path}")
    print(md)
    return 0


def render_train(run) -> str:
    both = lambda key, getter: {side: stat(run, key, side, getter) for side in SIDES}  # noqa: E731
    lines = ["## Training steps (`tools/bench.py --train`)", "",
             f"Measured by `.venv/bin/python {run['command']}` at {run['git']}, {run['started']} → {run['finished']}, "
             f"on {run['machine']['nproc']} CPUs ({run['machine']['cpu']}), {run['probe_threads']} threads on both "
             f"sides; load average (1 min) {run['loadavg_start'][0]:.1f} at the start and "
             f"{run['loadavg_end'][0]:.1f} at the end, {load_range(run)} after each measurement. One step = "
             "zero_grad, forward, loss, backward, AdamW step. Each worker: warm-up steps, then the timed steps "
             f"(median step time); {run['reps']} repetitions in fresh processes, ABBA; medians of those. "
             "Peak RSS: VmHWM over the timed steps (reset after the warm-up). RSS drift: VmRSS after the "
             "last timed step minus after the first (saved activations freed: ~0).", "",
             "| model | steps timed | ours | upstream | ratio | target | met? | peak RSS ours | upstream | "
             "ratio | RSS drift ours | upstream |", "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    noisy = run["loadavg_start"][0] > float(run["machine"]["nproc"] or 1)
    for name, label in TRAIN_MODELS.items():
        if name not in run["samples"]:
            continue
        t = both(name, lambda d: d["step_s"])
        m = both(name, lambda d: d["peak_rss_kib"] * 1024)
        drift = both(name, lambda d: (d["rss_kib"][-1] - d["rss_kib"][0]) * 1024)
        r, rm = ratio(t["ours"], t["upstream"]), ratio(m["ours"], m["upstream"])
        target = TARGET_TRAIN_RATIO[name]
        ok = None if r is None else r <= target
        rss_target = " (target ≤ 1.0×: " + met(None if rm is None else rm <= 1.0) + ")" if name == "smollm2" else ""
        sd = lambda st: "—" if st["median"] is None else f"{st['median'] / 2**20:+.1f} MiB"  # noqa: E731
        lines.append(f"| {label} | {run['params'][name]['steps']} | {cell(t['ours'], fmt_time)} | "
                     f"{cell(t['upstream'], fmt_time)} | {fmt_ratio(r)} | ≤ {target}× | {met(ok)} | "
                     f"{cell(m['ours'], fmt_bytes)} | {cell(m['upstream'], fmt_bytes)} | {fmt_ratio(rm)}{rss_target} | "
                     f"{sd(drift['ours'])} | {sd(drift['upstream'])} |")
        noisy = noisy or any(t[s]["median"] and t[s]["spread"] > 0.10 for s in SIDES)
    lines.append("")
    if noisy:
        lines += [noisy_note("ratios near a target"), ""]
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 reps, 8 new tokens, 1 prefill forward: checks the tool end to end")
    ap.add_argument("--reps", type=int, default=0, help="repetitions (default 5, --quick 2)")
    ap.add_argument("--groups", default="", help=f"comma list from {','.join(GROUPS)},size (default: all)")
    ap.add_argument("--new-tokens", type=int, default=0, help="decode length (default 64, --quick 8)")
    ap.add_argument("--prefill-sizes", default="6,128,512,1024")
    ap.add_argument("--prefill-dtypes", default="float32")
    ap.add_argument("--prefill-inner", type=int, default=0, help="timed forwards per S per worker (default 2, --quick 1)")
    ap.add_argument("--threads", type=int, default=0, help="torch.set_num_threads on both sides (default: torch's default)")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds per worker process")
    ap.add_argument("--md", default=str(ROOT / "docs" / "PERF.md"))
    ap.add_argument("--png", default=str(ROOT / "docs" / "perf.png"))
    ap.add_argument("--json", default=str(ROOT / "build" / "bench" / "results.json"))
    ap.add_argument("--adapt", action="store_true", help="one Tent step on SmolLM2 vs upstream -> docs/PERF.md's section")
    ap.add_argument("--adapt-steps", type=int, default=3, help="timed Tent steps per worker (best of)")
    ap.add_argument("--worker", choices=("ops", "prefill", "decode", "adapt", "train"), help=argparse.SUPPRESS)
    ap.add_argument("--side", choices=SIDES, help=argparse.SUPPRESS)
    ap.add_argument("--params", default="{}", help=argparse.SUPPRESS)
    ap.add_argument("--render", metavar="RESULTS_JSON", help="only rewrite --md and --png from a saved --json")
    ap.add_argument("--dist", action="store_true", help="torch.distributed vs upstream gloo -> docs/DISTRIBUTED.md")
    ap.add_argument("--dist-worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--fed", action="store_true", help="one federated round, ours vs upstream -> docs/FEDERATED.md")
    ap.add_argument("--fed-modes", default="tent,full", help="with --fed: which deltas (tent, full)")
    ap.add_argument("--train", action="store_true", help="training steps -> the training section of docs/PERF.md")
    ap.add_argument("--kernels", action="store_true", help="the larger kernels -> their section of docs/PERF.md")
    ap.add_argument("--plot", metavar="RESULTS_JSON", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.dist_worker:
        return dist_worker(args)
    if args.dist:
        return orchestrate_dist(args)
    if args.fed:
        return orchestrate_fed(args)
    if args.adapt:
        return orchestrate_adapt(args)
    if args.train:
        return orchestrate_train(args)
    if args.kernels:
        return orchestrate_kernels(args)
    if args.worker:
        return worker_main(args)
    if args.plot:
        return plot(Path(args.plot), Path(args.png))
    if args.render:
        return report(Path(args.render), args)
    return orchestrate(args)


if __name__ == "__main__":
    sys.exit(main())
