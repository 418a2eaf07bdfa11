"""Issue #2's entry conditions: the vendored tree is upstream 2.13.0 with our _C as its only
native file, and transformers imports over it."""
from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, SITE

NATIVE_SUFFIXES = (".so", ".pyd", ".dll", ".dylib")


def test_version_and_our_native_module(torch):
    assert torch.__version__.split("+")[0] == "2.13.0"
    assert importlib.metadata.version("torch") == "2.13.0"
    assert Path(torch._C.__file__).resolve().is_relative_to(ROOT / "build")


def test_only_native_file_in_the_tree_is_ours():
    natives = [p for p in (SITE / "torch").rglob("*") if p.suffix in NATIVE_SUFFIXES or ".so." in p.name]
    assert [p.relative_to(SITE).as_posix() for p in natives] == ["torch/_C.abi3.so"]


def test_no_upstream_torch_reachable_from_venv():
    # every directory on .venv's path that holds a `torch` package must be our tree
    roots = [Path(p) for p in sys.path if p and (Path(p) / "torch" / "__init__.py").exists()]
    assert [r.resolve() for r in roots] == [SITE.resolve()]
    shown = subprocess.run([sys.executable, "-m", "pip", "show", "torch"], capture_output=True, text=True).stdout
    assert f"Location: {SITE}" in shown and "torchnative" in shown


def test_transformers_imports_in_a_fresh_interpreter():
    code = ("import torch, transformers; "
            "from transformers import AutoModelForCausalLM, LlamaForCausalLM, TextIteratorStreamer; "
            "print(torch._C.__file__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert Path(out.stdout.strip()).resolve().is_relative_to(ROOT / "build")


def test_embedded_code_cache(torch, tmp_path):
    # runtime/py/codecache.py: _C's embedded files are compiled once and their code cached as a
    # hash-checked .pyc; a changed source or a damaged file is recompiled and rewritten.
    load = torch._C._torchnative.code_cache

    def run(code):
        ns = {}
        exec(code, ns)
        return ns["X"]

    assert run(load("probe.py", "X = 1\n", tmp_path, write=True)) == 1
    (cached,) = (tmp_path / "__pycache__").glob("_C_probe.*.pyc")
    # the cache is what gets read: swap in other code under the same header
    blob = cached.read_bytes()
    other = compile("X = 'from the cache'\n", "probe", "exec")
    import marshal
    cached.write_bytes(blob[:16] + marshal.dumps(other))
    assert run(load("probe.py", "X = 1\n", tmp_path, write=True)) == "from the cache"
    # another source (another hash) is recompiled and rewritten
    assert run(load("probe.py", "X = 2\n", tmp_path, write=True)) == 2
    assert cached.read_bytes()[16:] != blob[16:]
    assert run(load("probe.py", "X = 2\n", tmp_path, write=False)) == 2
    # a damaged body is recompiled; nothing is written when writing is off
    cached.write_bytes(cached.read_bytes()[:20])
    assert run(load("probe.py", "X = 2\n", tmp_path, write=False)) == 2
    assert len(cached.read_bytes()) == 20
    assert run(load("probe.py", "X = 2\n", tmp_path, write=True)) == 2
    assert len(cached.read_bytes()) > 20
    # the runtime's own files are cached beside the tree once an import may write
    assert sorted((Path(torch.__file__).parent / "__pycache__").glob("_C_schema.*.pyc"))
