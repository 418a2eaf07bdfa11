"""The main job: stream a chat reply from SmolLM2-135M-Instruct on torchnative, offline.

    .venv/bin/python tools/chat.py [--prompt TEXT] [--dtype float32|bfloat16] [--max-new-tokens N]

The model's own chat template builds the prompt; `generate` runs on a background thread and
the main thread prints tokens from a TextIteratorStreamer as they arrive (the pattern apps use),
then reports time to first token and decode tokens per second.
"""
from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import models  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--prompt", default="What is the capital of France? Answer in one sentence.")
    ap.add_argument("--dtype", choices=["float32", "bfloat16"], default="float32")
    ap.add_argument("--max-new-tokens", type=int, default=64)
    ap.add_argument("--sample", action="store_true", help="sample (temperature 0.7, top_k 50, top_p 0.9, seed 0)")
    args = ap.parse_args()

    t0 = time.perf_counter()
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer, TextIteratorStreamer

    t_import = time.perf_counter() - t0
    where = models.smollm2()
    tok = AutoTokenizer.from_pretrained(where)
    model = AutoModelForCausalLM.from_pretrained(where, dtype=getattr(torch, args.dtype)).eval()
    t_load = time.perf_counter() - t0 - t_import
    print(f"torch {torch.__version__} with _C from {torch._C.__file__}", file=sys.stderr)
    print(f"import torch+transformers {t_import:.2f} s, load model {t_load:.2f} s ({args.dtype})", file=sys.stderr)

    chat = [{"role": "user", "content": args.prompt}]
    inputs = tok.apply_chat_template(chat, add_generation_prompt=True, return_tensors="pt", return_dict=True)
    streamer = TextIteratorStreamer(tok, skip_prompt=True, skip_special_tokens=True)
    gen_kwargs = dict(**inputs, streamer=streamer, max_new_tokens=args.max_new_tokens)
    if args.sample:
        torch.manual_seed(0)
        gen_kwargs.update(do_sample=True, temperature=0.7, top_k=50, top_p=0.9)
    else:
        gen_kwargs.update(do_sample=False)
    result = {}

    def run():
        with torch.no_grad():
            result["ids"] = model.generate(**gen_kwargs)

    start = time.perf_counter()
    worker = threading.Thread(target=run)
    worker.start()
    first = None
    print(f"> {args.prompt}\n", flush=True)
    for piece in streamer:
        if first is None and piece:
            first = time.perf_counter()
        print(piece, end="", flush=True)
    worker.join()
    end = time.perf_counter()
    if "ids" not in result:
        print("\ngenerate failed", file=sys.stderr)
        return 1
    n_new = result["ids"].shape[1] - inputs["input_ids"].shape[1]
    first = first or end
    decode_rate = (n_new - 1) / (end - first) if n_new > 1 and end > first else float("nan")
    print(f"\n\n[{n_new} tokens; time to first token {first - start:.3f} s; "
          f"decode {decode_rate:.1f} tokens/s]", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
