"""Architecture sweep: twelve transformers architectures, tiny and randomly initialised, run on
torchnative and on upstream torch 2.13.0 and compared module by module.

    .venv/bin/python tools/sweep.py                 # all twelve; prints the table
    .venv/bin/python tools/sweep.py gpt2 bert       # some of them
    .venv/bin/python tools/sweep.py --json out.json # also write every row as JSON

Architectures: llama, qwen2, mistral, gemma, phi, gpt2, gpt_neox, opt, falcon, bert, and two with
convolutional front ends: vit and whisper.

Per architecture:
1. Weights. A tiny config (AutoConfig.for_model, shrunk: hidden 32-64, 2 layers, 2-4 heads,
   vocab 192, 64 positions) is initialised on upstream (.venv-upstream) with seed 0 and
   initializer_range 0.2 (so that greedy tokens vary from step to step), every
   parameter is then nudged by seeded noise (so norm weights and biases are not all ones and
   zeros), and saved with save_pretrained (safetensors) to
   ~/.cache/torchnative/sweep/<arch>/<hash of the config and this recipe>/ ($TN_CACHE moves it).
2. Runs. Each side loads the directory with from_pretrained (meta-device construction) in its
   own subprocess (a crash or refusal on one architecture does not stop the sweep) and runs a
   fixed padded batch: float32 with a forward hook on every module (every tensor it outputs),
   bfloat16 (final output only) and, for the causal LMs, 5 greedy tokens of `generate`.
   Upstream also runs float64 (model.double()), and runs the torchnative job a second time as a
   control that must agree with itself exactly.
3. Verdict. float32 agrees when every module output and the final output is within the "derived"
   tolerance of tests/python/golden/compare.py (|ours - up64| <= 2*max|up32 - up64| + ulp32,
   per tensor) and the greedy tokens are identical. bfloat16 must run; its largest deviation
   from upstream's bfloat16 output is reported for information.

The table: arch | float32 (agrees / disagrees: max error, first module that disagrees / refused:
the refusal text / crashed) | bf16 (max |ours - upstream|, or the error) | generate | control.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OURS_PY = ROOT / ".venv" / "bin" / "python"
UPSTREAM_PY = ROOT / ".venv-upstream" / "bin" / "python"
CACHE = Path(os.environ.get("TN_CACHE", Path.home() / ".cache" / "torchnative")) / "sweep"
RECIPE = "sweep-weights-v2"  # bump when the way weights are made changes
SEED = 0
INIT_STD = 0.2  # initializer_range / init_std: large enough that greedy tokens vary step to step
NEW_TOKENS = 5
TOKENS = {"bos_token_id": 1, "eos_token_id": 2, "pad_token_id": 0}

# model_type -> (AutoModel class, config overrides). Sizes are native attribute names.
ARCHS: dict[str, tuple[str, dict]] = {
    "llama": ("AutoModelForCausalLM", dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                                           num_attention_heads=4, num_key_value_heads=2, head_dim=16,
                                           vocab_size=192, max_position_embeddings=64)),
    "qwen2": ("AutoModelForCausalLM", dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                                           num_attention_heads=4, num_key_value_heads=2,
                                           vocab_size=192, max_position_embeddings=64)),
    "mistral": ("AutoModelForCausalLM", dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                                             num_attention_heads=4, num_key_value_heads=2, head_dim=16,
                                             vocab_size=192, max_position_embeddings=64, sliding_window=4)),
    "gemma": ("AutoModelForCausalLM", dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                                           num_attention_heads=4, num_key_value_heads=1, head_dim=16,
                                           vocab_size=192, max_position_embeddings=64)),
    "phi": ("AutoModelForCausalLM", dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                                         num_attention_heads=4, num_key_value_heads=4,
                                         vocab_size=192, max_position_embeddings=64)),
    "gpt2": ("AutoModelForCausalLM", dict(n_embd=64, n_layer=2, n_head=4, n_inner=128, vocab_size=192,
                                          n_positions=64)),
    "gpt_neox": ("AutoModelForCausalLM", dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                                              num_attention_heads=4, vocab_size=192,
                                              max_position_embeddings=64)),
    "opt": ("AutoModelForCausalLM", dict(hidden_size=64, ffn_dim=128, num_hidden_layers=2, num_attention_heads=4,
                                         word_embed_proj_dim=64, vocab_size=192, max_position_embeddings=64)),
    "falcon": ("AutoModelForCausalLM", dict(hidden_size=64, ffn_hidden_size=128, num_hidden_layers=2,
                                            num_attention_heads=4, vocab_size=192, max_position_embeddings=64)),
    "bert": ("AutoModelForMaskedLM", dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                                          num_attention_heads=4, vocab_size=192, max_position_embeddings=64,
                                          type_vocab_size=2)),
    # beyond the ten: convolutional front ends (ViT's patch embedding is a strided conv2d,
    # Whisper's encoder starts with two conv1d)
    "vit": ("AutoModel", dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                              image_size=32, patch_size=8)),
    "whisper": ("AutoModel", dict(d_model=64, encoder_ffn_dim=128, decoder_ffn_dim=128, encoder_layers=2,
                                  decoder_layers=2, encoder_attention_heads=4, decoder_attention_heads=4,
                                  num_mel_bins=16, max_source_positions=32, max_target_positions=32,
                                  vocab_size=192, decoder_start_token_id=1)),
}
CAUSAL = {a for a, (cls, _) in ARCHS.items() if cls == "AutoModelForCausalLM"}


def weights_key(arch: str) -> str:
    spec = json.dumps([RECIPE, SEED, INIT_STD, arch, ARCHS[arch], TOKENS], sort_keys=True)
    return hashlib.sha256(spec.encode()).hexdigest()[:16]


def weights_dir(arch: str) -> Path:
    return CACHE / arch / weights_key(arch)


# -- worker side: runs inside .venv or .venv-upstream --------------------------------------------

def fixed_input(torch, arch: str, vocab: int):
    """A batch of two rows of 8 tokens; row 1 has two pad positions (left for decoders, right
    for BERT)."""
    ids = torch.tensor([[(7 * i + 11 * b + 5) % (vocab - 3) + 3 for i in range(8)] for b in range(2)])
    mask = torch.ones(2, 8, dtype=torch.int64)
    if arch in CAUSAL:
        mask[1, :2] = 0
        ids[1, :2] = TOKENS["pad_token_id"]
    else:
        mask[1, -2:] = 0
        ids[1, -2:] = TOKENS["pad_token_id"]
    return ids, mask


def model_inputs(torch, arch: str, model) -> dict:
    """The forward's keyword arguments: the fixed tokens, or for ViT seeded images and for Whisper
    seeded log-mel frames (its decoder takes the tokens), in the model's dtype."""
    ids, mask = fixed_input(torch, arch, model.config.vocab_size if hasattr(model.config, "vocab_size") else 192)
    gen = torch.Generator().manual_seed(SEED + 2)
    if arch == "vit":
        size = model.config.image_size
        return {"pixel_values": torch.randn(2, 3, size, size, generator=gen).to(model.dtype)}
    if arch == "whisper":
        frames = 2 * model.config.max_source_positions
        feats = torch.randn(2, model.config.num_mel_bins, frames, generator=gen).to(model.dtype)
        return {"input_features": feats, "decoder_input_ids": ids, "decoder_attention_mask": mask, "use_cache": False}
    return {"input_ids": ids, "attention_mask": mask, "use_cache": False}


def make_weights(arch: str, out: Path) -> None:
    import torch
    import transformers

    cls, overrides = ARCHS[arch]
    config = transformers.AutoConfig.for_model(arch, **overrides, **TOKENS)
    for name in ("initializer_range", "init_std"):
        if hasattr(config, name):
            setattr(config, name, INIT_STD)
    torch.manual_seed(SEED)
    model = getattr(transformers, cls).from_config(config).eval()
    gen = torch.Generator().manual_seed(SEED + 1)
    with torch.no_grad():
        for _, p in sorted(model.named_parameters()):
            p.add_(torch.randn(p.shape, generator=gen) * 0.05)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out, safe_serialization=True)
    (out / ".done").write_text(f"made by {torch.__version__} transformers {transformers.__version__}\n")


def tensors_of(x, found):
    """Every tensor in a module's output, in order (tuples, lists, dicts and ModelOutputs)."""
    import torch

    if isinstance(x, torch.Tensor):
        found.append(x)
    elif isinstance(x, (tuple, list)):
        for y in x:
            tensors_of(y, found)
    elif isinstance(x, dict):
        for y in x.values():
            tensors_of(y, found)
    return found


def describe(t) -> dict:
    t = t.detach()
    return {"dtype": str(t.dtype).removeprefix("torch."), "shape": list(t.shape),
            "values": [v if v == v and abs(v) != float("inf") else repr(v)
                       for v in t.double().reshape(-1).tolist()] if t.dtype.is_floating_point
            else t.reshape(-1).tolist()}


def run_forward(torch, model, arch, hooks: bool) -> dict:
    inputs = model_inputs(torch, arch, model)
    seen: list = []
    calls: dict[str, int] = {}
    handles = []
    if hooks:
        def hook(name):
            def record(_mod, _args, output):
                n = calls.get(name, 0)
                calls[name] = n + 1
                for i, t in enumerate(tensors_of(output, [])):
                    seen.append([f"{name or '<root>'}#{n}.{i}", describe(t)])
            return record
        handles = [m.register_forward_hook(hook(name)) for name, m in model.named_modules()]
    try:
        with torch.no_grad():
            out = model(**inputs)
    finally:
        for h in handles:
            h.remove()
    final = out.logits if "logits" in out else out.last_hidden_state
    return {"modules": seen, "final": describe(final)}


def run_generate(torch, model, arch) -> list:
    ids, mask = fixed_input(torch, arch, model.config.vocab_size)
    with torch.no_grad():
        g = model.generate(input_ids=ids, attention_mask=mask, max_new_tokens=NEW_TOKENS,
                           min_new_tokens=NEW_TOKENS, do_sample=False, pad_token_id=TOKENS["pad_token_id"])
    return g[:, ids.shape[1]:].tolist()


def guarded(fn):
    try:
        return {"ok": fn()}
    except Exception as e:  # a refusal is a result; its text goes in the table
        return {"error": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}",
                "trace": traceback.format_exc()[-2000:]}


def worker(arch: str, role: str) -> dict:
    """role "oracle": float32 + float64 + bfloat16 (+ generate); role "candidate": float32 +
    bfloat16 (+ generate). Upstream runs both (the candidate job as the control)."""
    import torch
    import transformers

    torch.set_num_threads(1)  # the same reduction order every run, on both sides
    where = weights_dir(arch)
    cls = getattr(transformers, ARCHS[arch][0])
    res: dict = {"torch_file": torch.__file__}

    def load(dtype):
        return cls.from_pretrained(where, dtype=dtype).eval()

    def f32():
        m = load(torch.float32)
        res["attn_implementation"] = m.config._attn_implementation
        out = run_forward(torch, m, arch, hooks=True)
        if arch in CAUSAL:
            out["generate"] = guarded(lambda: run_generate(torch, m, arch))
        return out

    res["float32"] = guarded(f32)
    if role == "oracle":
        res["float64"] = guarded(lambda: run_forward(torch, load(torch.float32).double(), arch, hooks=True))
    res["bfloat16"] = guarded(lambda: run_forward(torch, load(torch.bfloat16), arch, hooks=False)["final"])
    return res


# -- orchestrator side: any Python ---------------------------------------------------------------

def ensure_weights(arch: str) -> Path:
    where = weights_dir(arch)
    if not (where / ".done").exists():
        proc = subprocess.run([str(UPSTREAM_PY), __file__, "--make", arch], capture_output=True, text=True)
        if proc.returncode:
            raise RuntimeError(f"making {arch} weights failed:\n{proc.stderr[-3000:]}")
    return where


def run_worker(python: Path, arch: str, role: str, timeout: float = 900) -> dict:
    proc = subprocess.run([str(python), __file__, "--worker", role, arch], capture_output=True, text=True,
                          timeout=timeout)
    if proc.returncode:
        tail = proc.stderr.strip().splitlines()[-1:] or [""]
        return {"crashed": f"exit {proc.returncode}: {tail[0]}", "stderr": proc.stderr[-3000:]}
    return json.loads(proc.stdout)


def oracle_cache_key(arch: str) -> str:
    return hashlib.sha256(Path(__file__).read_bytes() + arch.encode()).hexdigest()[:16]


def oracle(arch: str, cache_dir: Path | None = None) -> dict:
    """Upstream's oracle and control runs for one architecture, cached under cache_dir (by a
    hash of this file) when one is given."""
    ensure_weights(arch)
    cache = cache_dir / f"sweep-{arch}-{oracle_cache_key(arch)}.json" if cache_dir else None
    if cache and cache.exists():
        return json.loads(cache.read_text())
    doc = {"oracle": run_worker(UPSTREAM_PY, arch, "oracle"), "control": run_worker(UPSTREAM_PY, arch, "candidate")}
    for side in doc.values():
        if "crashed" in side:
            raise RuntimeError(f"upstream failed on {arch}: {side['crashed']}\n{side['stderr']}")
        assert "/.venv-upstream/" in side["torch_file"], side["torch_file"]
    if cache:
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps(doc))
    return doc


def values(d: dict) -> list:
    return [float(v) if isinstance(v, str) else v for v in d["values"]]


def tensor_errors(ours: dict, up: dict, up64: dict | None, path: str) -> tuple[list[str], float]:
    """compare.py's derived rule on one tensor; returns (disagreements, max |ours - up32|)."""
    sys.path.insert(0, str(ROOT / "tests" / "python" / "golden"))
    import compare

    if ours["shape"] != up["shape"] or ours["dtype"] != up["dtype"]:
        return [f"{path}: upstream {up['dtype']}{up['shape']}, ours {ours['dtype']}{ours['shape']}"], float("inf")
    a, b = values(ours), values(up)
    diffs = [abs(x - y) for x, y in zip(a, b) if x == x and y == y and abs(x - y) != float("inf")]
    err = max(diffs, default=0.0)
    if up64 is None:
        return compare.compare_values(a, b, None, "exact", path), err
    return compare.compare_values(a, b, values(up64), "derived", path), err


def compare_run(ours: dict, up: dict, up64: dict | None) -> dict:
    """Module by module, in the order the hooks fired, then the final output."""
    up_mods = dict((k, v) for k, v in up["modules"])
    up64_mods = dict((k, v) for k, v in up64["modules"]) if up64 else {}
    ours_keys = [k for k, _ in ours["modules"]]
    if ours_keys != [k for k, _ in up["modules"]]:
        missing = [k for k in up_mods if k not in set(ours_keys)]
        extra = [k for k in ours_keys if k not in up_mods]
        return {"agrees": False, "first": "module structure differs", "max_error": None,
                "detail": f"upstream-only {missing[:5]}, ours-only {extra[:5]}"}
    first, detail, max_err = None, None, 0.0
    for key, t in ours["modules"] + [["<final>", ours["final"]]]:
        u = up["final"] if key == "<final>" else up_mods[key]
        u64 = (up64["final"] if key == "<final>" else up64_mods[key]) if up64 else None
        errs, e = tensor_errors(t, u, u64, key)
        max_err = max(max_err, e)
        if errs and first is None:
            first, detail = key, errs
    return {"agrees": first is None, "first": first, "detail": detail, "max_error": max_err}


def judge(arch: str, ours: dict, up: dict) -> dict:
    """One table row from the candidate run (ours or the control) and upstream's oracle run."""
    row: dict = {"arch": arch}
    if "crashed" in ours:
        row.update(float32=f"crashed ({ours['crashed']})", agrees=False, bf16_ok=False,
                   bf16="crashed", generate="crashed", detail=ours.get("stderr"))
        return row
    orc = up["oracle"]
    f32 = ours["float32"]
    if "error" in f32:
        row.update(float32=f"refused: {f32['error']}", agrees=False, detail=f32["trace"])
        row["generate"] = "-"
    else:
        c = compare_run(f32["ok"], orc["float32"]["ok"], orc["float64"]["ok"])
        row["max_error"] = c["max_error"]
        if c["agrees"]:
            row["float32"] = f"agrees (max err {c['max_error']:.3g})"
        else:
            row["float32"] = f"disagrees: max error {c['max_error']}, first at {c['first']}"
            row["detail"] = c["detail"]
        row["agrees"] = c["agrees"]
        if arch in CAUSAL:
            g, ug = f32["ok"]["generate"], orc["float32"]["ok"]["generate"]
            if "error" in g:
                row["generate"], row["agrees"] = f"refused: {g['error']}", False
                row.setdefault("detail", g["trace"])
            elif g["ok"] == ug["ok"]:
                row["generate"] = "identical"
            else:
                row["generate"], row["agrees"] = f"differs: ours {g['ok']} upstream {ug['ok']}", False
        else:
            row["generate"] = "-"
    b = ours["bfloat16"]
    if "error" in b:
        row["bf16"], row["bf16_ok"] = f"refused: {b['error']}", False
        row.setdefault("bf16_detail", b["trace"])
    else:
        _, e = tensor_errors(b["ok"], orc["bfloat16"]["ok"], None, "bf16")
        row["bf16"], row["bf16_ok"] = f"runs (max dev {e:.3g})", True
    row["attn"] = ours.get("attn_implementation")
    return row


def control_row(arch: str, doc: dict) -> str:
    """Upstream's candidate run against its oracle run must agree exactly (the harness check)."""
    c, o = doc["control"], doc["oracle"]
    if c["float32"] != o["float32"] or c["bfloat16"] != o["bfloat16"]:
        return "upstream disagrees with itself"
    return "exact"


def sweep(archs, cache_dir: Path | None = None, python: Path = OURS_PY, jobs: int = 2) -> list[dict]:
    def one(arch):
        try:
            up = oracle(arch, cache_dir)
        except Exception as e:
            return {"arch": arch, "float32": f"oracle failed: {e}", "agrees": False, "bf16_ok": False,
                    "bf16": "-", "generate": "-", "control": "-"}
        bad = [f"{k}: {up['oracle'][k]['error']}" for k in ("float32", "float64", "bfloat16") if "error" in up["oracle"][k]]
        if bad:
            return {"arch": arch, "float32": f"upstream failed: {'; '.join(bad)}", "agrees": False, "bf16_ok": False,
                    "bf16": "-", "generate": "-", "control": "-"}
        try:
            row = judge(arch, run_worker(python, arch, "candidate"), up)
        except Exception as e:  # a malformed result is a disagreement of this architecture only
            return {"arch": arch, "float32": f"comparison failed: {type(e).__name__}: {e}", "agrees": False,
                    "bf16_ok": False, "bf16": "-", "generate": "-", "control": "-"}
        row["control"] = control_row(arch, up)
        return row

    with ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(one, archs))


def table(rows: list[dict]) -> str:
    lines = ["| arch | float32 | bfloat16 | greedy generate (5) | upstream control |",
             "|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['arch']} | {r['float32']} | {r.get('bf16', '-')} | {r.get('generate', '-')} "
                     f"| {r.get('control', '-')} |")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("archs", nargs="*", metavar="ARCH", help=f"some of: {' '.join(ARCHS)} (default all)")
    ap.add_argument("--json", type=Path, help="also write the rows (with details) as JSON")
    ap.add_argument("--jobs", type=int, default=2, help="architectures run at once (default 2)")
    ap.add_argument("--cache", type=Path, default=ROOT / "build" / "sweep",
                    help="where upstream's results are cached (default build/sweep)")
    ap.add_argument("--worker", nargs=2, metavar=("ROLE", "ARCH"), help=argparse.SUPPRESS)
    ap.add_argument("--make", metavar="ARCH", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.make:
        make_weights(args.make, weights_dir(args.make))
        return 0
    if args.worker:
        json.dump(worker(args.worker[1], args.worker[0]), sys.stdout)
        return 0
    unknown = [a for a in args.archs if a not in ARCHS]
    if unknown:
        ap.error(f"unknown architecture {unknown[0]!r}; choose from {', '.join(ARCHS)}")
    rows = sweep(args.archs or list(ARCHS), args.cache, jobs=args.jobs)
    print(table(rows))
    for r in rows:
        if r.get("detail") and not r.get("agrees"):
            d = r["detail"]
            print(f"\n{r['arch']}:\n" + ("\n".join(d) if isinstance(d, list) else d))
        if r.get("bf16_detail"):
            print(f"\n{r['arch']} bfloat16:\n{r['bf16_detail']}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0 if all(r.get("agrees") and r.get("bf16_ok") for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
