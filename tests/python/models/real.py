"""Runs the real checkpoints in whichever torch this interpreter imports and prints JSON:
SmolLM2-135M-Instruct prompt logits, 32 greedy tokens and 24 seeded-sampling tokens, and
all-MiniLM-L6-v2 mean-pooled embeddings of eight sentences. With --float64 it also gives the
float64 logits/embeddings (the oracle side, for the derived tolerance of compare.py).

    python tests/python/models/real.py [--float64] [--bfloat16]
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tools"))
import models  # noqa: E402

PROMPT = "Explain in two sentences why the sky is blue."
SENTENCES = [
    "The cat sits on the mat.", "A dog is playing in the park.", "Paris is the capital of France.",
    "Machine learning models need data.", "It is raining heavily today.", "She plays the violin beautifully.",
    "The stock market fell sharply.", "Fresh bread smells wonderful.",
]


def smollm2(torch, dtype, with_generate=True):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    where = models.smollm2()
    tok = AutoTokenizer.from_pretrained(where)
    model = AutoModelForCausalLM.from_pretrained(where, dtype=dtype).eval()
    chat = [{"role": "user", "content": PROMPT}]
    inputs = tok.apply_chat_template(chat, add_generation_prompt=True, return_tensors="pt", return_dict=True)
    out = {}
    with torch.no_grad():
        out["logits"] = model(**inputs).logits[0, -1].float().tolist()
        if with_generate:
            g = model.generate(**inputs, max_new_tokens=32, do_sample=False, min_new_tokens=32)
            out["greedy"] = g[0, inputs["input_ids"].shape[1]:].tolist()
            torch.manual_seed(1234)
            s = model.generate(**inputs, max_new_tokens=24, min_new_tokens=24, do_sample=True,
                               temperature=0.8, top_k=40, top_p=0.95)
            out["sample"] = s[0, inputs["input_ids"].shape[1]:].tolist()
    return out


def minilm(torch, dtype):
    from transformers import AutoModel, AutoTokenizer

    where = models.minilm()
    tok = AutoTokenizer.from_pretrained(where)
    model = AutoModel.from_pretrained(where, dtype=dtype).eval()
    batch = tok(SENTENCES, padding=True, truncation=True, return_tensors="pt")
    with torch.no_grad():
        hidden = model(**batch).last_hidden_state
    mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
    pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
    return pooled.float().reshape(-1).tolist()


def main():
    import torch

    res = {"torch_file": torch.__file__}
    if "--bfloat16" in sys.argv:
        res["smollm2"] = smollm2(torch, torch.bfloat16)
    else:
        res["smollm2"] = smollm2(torch, torch.float32)
        res["minilm"] = minilm(torch, torch.float32)
    if "--float64" in sys.argv:
        res["smollm2_64"] = smollm2(torch, torch.float64, with_generate=False)
        res["minilm_64"] = minilm(torch, torch.float64)
    json.dump(res, sys.stdout)


if __name__ == "__main__":
    main()
