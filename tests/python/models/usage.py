"""The other ways people call a transformers model, on tools/sweep.py's tiny checkpoints: a
forward with labels (the loss: cross_entropy with ignore_index), a forward without attention
mask or cache (transformers' packed-sequence check, torch.diff), beam search
(repeat_interleave, take_along_dim) and a repetition penalty with no_repeat_ngram_size
(Tensor.unfold). Prints JSON; with --float64 also the float64 loss and logits (the oracle side
of compare.py's derived tolerance).

    python tests/python/models/usage.py [--float64]
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tools"))
import sweep  # noqa: E402

ARCHS = ("llama", "gpt2", "falcon", "bert")


def run(torch, transformers, arch, dtype, with_generate):
    cls = getattr(transformers, sweep.ARCHS[arch][0])
    m = cls.from_pretrained(sweep.ensure_weights(arch), dtype=torch.float32).eval().to(dtype)
    ids = torch.tensor([[5, 6, 7, 8, 9, 10], [11, 12, 13, 14, 15, 16]])
    labels = ids.clone()
    labels[1, :2] = -100
    out = {}
    with torch.no_grad():
        out["loss"] = [m(input_ids=ids, labels=labels).loss.item()]
        if arch in sweep.CAUSAL:
            out["no_mask_logits"] = m(input_ids=ids, use_cache=False).logits.double().reshape(-1).tolist()
            if with_generate:
                kw = dict(max_new_tokens=4, do_sample=False, pad_token_id=sweep.TOKENS["pad_token_id"])
                out["beam"] = m.generate(ids, num_beams=3, **kw).tolist()
                out["penalty"] = m.generate(ids, repetition_penalty=1.3, no_repeat_ngram_size=2, **kw).tolist()
    return out


def main():
    import torch
    import transformers

    torch.set_num_threads(1)
    res = {"torch_file": torch.__file__}
    for arch in ARCHS:
        res[arch] = run(torch, transformers, arch, torch.float32, True)
        if "--float64" in sys.argv:
            res[arch + "_64"] = run(torch, transformers, arch, torch.float64, False)
    json.dump(res, sys.stdout)


if __name__ == "__main__":
    main()
