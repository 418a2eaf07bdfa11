"""List the operators upstream registers from C++ outside native_functions.yaml.

Run in the upstream interpreter; prints schemas/extra_ops.yaml:
    .venv-upstream/bin/python codegen/list_extra_ops.py > schemas/extra_ops.yaml
"""
from __future__ import annotations

import json
import os

import torch
import torch._dynamo  # noqa: F401  (registers its ops, as a user's import would)
import torchgen
import transformers  # noqa: F401
from torchgen.gen import parse_native_yaml

# Where upstream registers each namespace, for the reader of the YAML.
SOURCES = {
    "_c10d_functional": "torch/csrc/distributed/c10d/Functional.cpp",
    "_c10d_functional_autograd": "torch/csrc/distributed/c10d/Functional.cpp",
    "aten": "torch/csrc/jit/runtime/register_prim_ops.cpp and friends (TorchScript scalar ops, hacked twins)",
    "inductor": "torch/csrc/inductor/resize_storage_bytes.cpp, torch/csrc/dynamo/compiled_autograd.cpp",
    "prim": "torch/csrc/jit/runtime/register_prim_ops.cpp",
    "profiler": "torch/csrc/autograd/record_function_ops.cpp",
    "quantized": "aten/src/ATen/native/quantized/library.cpp",
    "_quantized": "aten/src/ATen/native/quantized/library.cpp",
    "c10d": "torch/csrc/distributed/c10d/Ops.cpp",
    "symm_mem": "torch/csrc/distributed/c10d/symm_mem/SymmetricMemory.cpp",
    "static_runtime": "torch/csrc/jit/runtime/static/native_ops.cpp",
    "sparse": "aten/src/ATen/native/ao_sparse/library.cpp",
    "quantization": "torch/csrc/jit/passes/quantization (fake quant registrations)",
    "fsdp": "torch/csrc/distributed/c10d/Functional.cpp",
    "_dtensor": "torch/csrc/distributed/c10d/Functional.cpp",
    "_test": "torch/csrc/utils (test-only registrations)",
    "inductor_prims": "torch/csrc/inductor",
}
# torch.backends.mkldnn is unavailable in torchnative, so its operators are not listed.
LEFT_OUT = {"mkl", "mkldnn", "onednn", "mkldnn_prepacked"}

HEADER = """\
# Operators upstream registers from C++ outside native_functions.yaml.
# They are part of torch.ops and of what torch/transformers look up (torch.ops.profiler.*
# during import, prim::device, aten::size.int in traced code). Each string is upstream's
# printed schema, taken from torch._C._get_schema in .venv-upstream after
# `import torch, transformers, torch._dynamo`: every dispatcher op plus the TorchScript ops
# torch.ops resolves (ops Python itself defines are excluded).
# mkl/mkldnn/onednn ops are left out: torch.backends.mkldnn reports them unavailable here.
# None of these has a kernel in torchnative yet; calling one raises a refusal naming it.
# Regenerate the list: .venv-upstream/bin/python codegen/list_extra_ops.py > schemas/extra_ops.yaml
"""


def main() -> None:
    base = os.path.join(os.path.dirname(torchgen.__file__), "packaged", "ATen", "native")
    parsed = parse_native_yaml(os.path.join(base, "native_functions.yaml"), os.path.join(base, "tags.yaml"))
    in_yaml = {"aten::" + str(f.func.name) for f in parsed.native_functions}
    python_defined = set(torch.library._defs)
    found: dict[str, set[str]] = {}

    def add(qualname: str, overload: str) -> None:
        full = qualname + ("." + overload if overload else "")
        ns_name = qualname.split("::")[0]
        if ns_name in LEFT_OUT or full in in_yaml or full in python_defined or qualname in python_defined:
            return
        found.setdefault(ns_name, set()).add(str(torch._C._get_schema(qualname, overload)))

    # every operator the dispatcher holds ...
    for full in torch._C._dispatch_get_all_op_names():
        qualname, _, overload = full.partition(".")
        add(qualname, overload)
    # ... and the TorchScript operators torch.ops also resolves (aten::add.int and friends)
    for ns_name in list(torch.ops._dir):
        ns = getattr(torch.ops, ns_name)
        for packet_name in list(getattr(ns, "_dir", [])):
            qualname = f"{ns_name}::{packet_name}"
            packet = getattr(ns, packet_name)
            if ns_name in LEFT_OUT or not hasattr(packet, "_overload_names"):
                continue
            for overload in packet._overload_names:
                add(qualname, overload)
    print(HEADER)
    for ns_name in sorted(found):
        print(f"{ns_name}:  # {SOURCES.get(ns_name, 'unknown')}")
        for schema in sorted(found[ns_name]):
            print("  - " + json.dumps(schema))


if __name__ == "__main__":
    main()
