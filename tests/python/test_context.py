"""torch._C's global settings (runtime/context.c) against upstream 2.13.0.

Scenarios below are snippets that call settings functions through S(label, fn, *args) (which
records the value's repr, or the exception class and message, and any Python warnings). RUNNER
executes every scenario in a forked child of one interpreter (so each starts from the defaults),
once in .venv-upstream (the oracle) and once in .venv (ours); each test compares one scenario's
transcript. A few facts torchnative answers differently on purpose (no quantized engines; no
oneDNN build flag) are checked here against literals, with the upstream value in a comment.
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import ROOT, UPSTREAM_PY

OURS_PY = ROOT / ".venv" / "bin" / "python"

RUNNER = r'''
import json, os, re, sys, threading, warnings
import numpy as np
import torch
C = torch._C

def norm(msg):
    # Upstream appends where a C++ TORCH_WARN fired, and prefixes internal asserts with theirs.
    msg = re.sub(r" \(Triggered internally at .*\)$", "", msg, flags=re.S)
    msg = re.sub(r" at 0x[0-9a-f]+>", " at 0x...>", msg)
    return re.sub(r"^false INTERNAL ASSERT FAILED at .*?please report a bug to PyTorch\. ", "", msg, flags=re.S)

class Recorder:
    def __init__(self):
        self.log = []
    def __call__(self, label, fn, *args, **kwargs):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                value = fn(*args, **kwargs)
                out = ["ok", norm(repr(value))]
            except Exception as e:
                value = None
                out = ["raise", type(e).__name__, norm(str(e))]
        out.append([[w.category.__name__, norm(str(w.message))] for w in caught])
        self.log.append([norm(label), out])
        return value

GETTERS = """_get_cudnn_enabled _get_flash_sdp_enabled _get_fa3_sdp_enabled _get_mem_efficient_sdp_enabled
_get_math_sdp_enabled _get_math_sdp_allow_fp16_bf16_reduction _get_overrideable_sdp_enabled _get_cudnn_sdp_enabled
_get_sdp_priority_order _get_mkldnn_enabled _get_cudnn_benchmark _get_cudnn_depthwise_kernel _get_miopen_immediate
_get_cudnn_deterministic _get_mkldnn_deterministic _get_onednn_allow_tf32 _get_deterministic_algorithms
_get_deterministic_algorithms_warn_only _get_deterministic_fill_uninitialized_memory _get_nnpack_enabled
_get_warnAlways _get_cudnn_allow_tf32 _get_cublas_allow_tf32 _get_float32_matmul_precision
_get_cublas_allow_fp16_reduced_precision_reduction _get_cublas_allow_bf16_reduced_precision_reduction
_get_cublas_allow_fp16_accumulation _get_backcompat_broadcast_warn _get_backcompat_keepdim_warn
_override_stale_capture_stream _check_sparse_tensor_invariants _is_default_mobile_cpu_allocator_set
_get_cpu_capability _get_privateuse1_backend_name _get_graph_exec_group _is_grad_layout_enforcement_enabled
_get_blas_preferred_backend _get_blas_default_backend _get_linalg_preferred_backend
_get_rocm_fa_preferred_backend _get_sm_carveout_experimental _get_accelerator _get_autograd_fallback_mode""".split()

PAIRS = [("generic", "all")] + [(b, o) for b in ("mkldnn", "cuda") for o in ("all", "conv", "rnn", "matmul")]

def snap(S, tag):
    for g in GETTERS:
        S(f"{tag}:{g}", getattr(C, g))

def fp32(S, tag):
    for b, o in PAIRS:
        S(f"{tag}:{b}/{o}", C._get_fp32_precision_getter, b, o)
    for g in ("_get_float32_matmul_precision", "_get_cublas_allow_tf32", "_get_cudnn_allow_tf32"):
        S(f"{tag}:{g}", getattr(C, g))

def run(code):
    S = Recorder()
    ns = {"torch": torch, "C": C, "np": np, "S": S, "threading": threading, "warnings": warnings,
          "snap": lambda tag: snap(S, tag), "fp32": lambda tag: fp32(S, tag), "sys": sys}
    exec(code, ns)
    return S.log

scenarios = json.load(sys.stdin)
results = {}
for sid, code in scenarios.items():
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            payload = json.dumps(run(code))
        except BaseException as e:
            payload = json.dumps([["<scenario raised>", ["raise", type(e).__name__, str(e), []]]])
        with os.fdopen(w, "w") as f:
            f.write(payload)
        os._exit(0)
    os.close(w)
    with os.fdopen(r) as f:
        data = f.read()
    os.waitpid(pid, 0)
    results[sid] = json.loads(data) if data else [["<child died>", []]]
json.dump({"torch_file": torch.__file__, "ours": hasattr(C, "_torchnative"), "results": results}, sys.stdout)
'''

# ---- scenarios -------------------------------------------------------------------------------

SCENARIOS: dict[str, str] = {}
ENV_SCENARIOS: dict[str, tuple[dict, str]] = {}

SCENARIOS["defaults"] = """
snap("fresh")
fp32("fresh")
"""

# (getter or None, setter) for every setter taking one bool; bad values cover THP's exact-bool
# check and pybind11's convert-anything-with-__bool__ caster.
BOOL_PAIRS = [
    ("_get_cudnn_enabled", "_set_cudnn_enabled"),
    ("_get_flash_sdp_enabled", "_set_sdp_use_flash"),
    ("_get_fa3_sdp_enabled", "_set_sdp_use_fa3"),
    ("_get_mem_efficient_sdp_enabled", "_set_sdp_use_mem_efficient"),
    ("_get_math_sdp_enabled", "_set_sdp_use_math"),
    ("_get_math_sdp_allow_fp16_bf16_reduction", "_set_math_sdp_allow_fp16_bf16_reduction"),
    ("_get_overrideable_sdp_enabled", "_set_sdp_use_overrideable"),
    ("_get_cudnn_sdp_enabled", "_set_sdp_use_cudnn"),
    ("_get_mkldnn_enabled", "_set_mkldnn_enabled"),
    ("_get_cudnn_benchmark", "_set_cudnn_benchmark"),
    ("_get_miopen_immediate", "_set_miopen_immediate"),
    ("_get_cudnn_deterministic", "_set_cudnn_deterministic"),
    ("_get_mkldnn_deterministic", "_set_mkldnn_deterministic"),
    ("_get_onednn_allow_tf32", "_set_onednn_allow_tf32"),
    ("_get_deterministic_fill_uninitialized_memory", "_set_deterministic_fill_uninitialized_memory"),
    ("_get_nnpack_enabled", "_set_nnpack_enabled"),
    ("_get_warnAlways", "_set_warnAlways"),
    ("_get_cudnn_allow_tf32", "_set_cudnn_allow_tf32"),
    ("_get_cublas_allow_tf32", "_set_cublas_allow_tf32"),
    ("_get_cublas_allow_fp16_accumulation", "_set_cublas_allow_fp16_accumulation"),
    ("_get_backcompat_broadcast_warn", "_set_backcompat_broadcast_warn"),
    ("_get_backcompat_keepdim_warn", "_set_backcompat_keepdim_warn"),
    ("_override_stale_capture_stream", "_set_override_stale_capture_stream"),
    ("_check_sparse_tensor_invariants", "_set_check_sparse_tensor_invariants"),
    ("_is_grad_layout_enforcement_enabled", "_set_grad_layout_enforcement_enabled"),
    (None, "_set_warn_on_accumulate_grad_stream_mismatch"),
    (None, "_set_cached_tensors_enabled"),
    (None, "set_flush_denormal"),
]
for _get, _set in BOOL_PAIRS:
    _code = [f"s = C.{_set}", f"g = C.{_get}" if _get else "g = None"]
    _code.append("""
class WithBool:
    def __bool__(self):
        return True
class BadBool:
    def __bool__(self):
        raise ValueError("no")
for v in (True, False, True, False):
    S(f"set {v}", s, v)
    if g: S("get", g)
bad = [1, 0, 1.5, np.bool_(True), None, "x", b"x", [], torch.tensor(True), WithBool(), BadBool()]
for b in bad:
    S(f"bad {type(b).__name__}", s, b)
    if g: S("get", g)
S("no args", s)
S("two args", s, True, True)
S("keyword", s, arg=True)
if g: S("getter with an argument", g, 1)
""")
    SCENARIOS[f"bool{_set}"] = "\n".join(_code)

SCENARIOS["deterministic"] = """
get, wo = C._get_deterministic_algorithms, C._get_deterministic_algorithms_warn_only
set_ = C._set_deterministic_algorithms
for args, kw in [((True,), {}), ((True,), {"warn_only": True}), ((False,), {}), ((), {"mode": True}),
                 ((), {"mode": True, "warn_only": False}), ((False,), {"warn_only": True})]:
    S(f"set {args} {kw}", set_, *args, **kw); S("get", get); S("warn_only", wo)
for args, kw in [((1,), {}), ((np.bool_(True),), {}), ((None,), {}), ((), {}), ((True, True), {}),
                 ((True,), {"foo": 1}), ((True,), {"foo": 1, "bar": 2}), ((True,), {"warn_only": 1}),
                 ((torch.tensor(True),), {}), ((True,), {"mode": True}), ((), {"warn_only": True}),
                 ((True, True, True), {}), ((1,), {"foo": 1}), ((), {"foo": 1})]:
    S(f"bad {args!r} {sorted(kw)}", set_, *args, **kw); S("get", get); S("warn_only", wo)
S("getter with an argument", get, 1)
S("torch.are_deterministic_algorithms_enabled", torch.are_deterministic_algorithms_enabled)
S("torch.use_deterministic_algorithms(True, warn_only=True)", torch.use_deterministic_algorithms, True, warn_only=True)
S("torch.is_deterministic_algorithms_warn_only_enabled", torch.is_deterministic_algorithms_warn_only_enabled)
S("torch.get_deterministic_debug_mode", torch.get_deterministic_debug_mode)
S("torch.set_deterministic_debug_mode('error')", torch.set_deterministic_debug_mode, "error")
S("torch.get_deterministic_debug_mode", torch.get_deterministic_debug_mode)
S("torch.set_deterministic_debug_mode(0)", torch.set_deterministic_debug_mode, 0)
S("get", get)
import torch.utils.deterministic as det
S("fill_uninitialized_memory", lambda: det.fill_uninitialized_memory)
S("set fill_uninitialized_memory", setattr, det, "fill_uninitialized_memory", False)
S("fill_uninitialized_memory", lambda: det.fill_uninitialized_memory)
S("set fill_uninitialized_memory 1", setattr, det, "fill_uninitialized_memory", 1)
"""

SCENARIOS["deterministic_under_function_mode"] = """
seen = []
class Mode(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        seen.append(getattr(func, "__name__", str(func)))
        return func(*args, **(kwargs or {}))
with Mode():
    S("use_deterministic_algorithms", torch.use_deterministic_algorithms, True)
    S("_set_deterministic_algorithms", C._set_deterministic_algorithms, False)
    S("_set_grad_layout_enforcement_enabled", C._set_grad_layout_enforcement_enabled, False)
    S("_set_cudnn_enabled", C._set_cudnn_enabled, False)
    S("set_float32_matmul_precision", torch.set_float32_matmul_precision, "high")
S("mode saw", lambda: seen)
S("grad layout", C._is_grad_layout_enforcement_enabled)
S("deterministic", C._get_deterministic_algorithms)
"""

SCENARIOS["float32_matmul_precision"] = """
for v in ["high", "medium", "HIGH", "Medium", "bogus", "highest", "", " high", b"high", b"medium", b"highest"]:
    S(f"set {v!r}", C._set_float32_matmul_precision, v)
    fp32(f"after {v!r}")
for v in [1, None, bytearray(b"high"), b"\\xff", ["high"]]:
    S(f"bad {v!r}", C._set_float32_matmul_precision, v)
S("no args", C._set_float32_matmul_precision)
S("keyword", C._set_float32_matmul_precision, precision="high")
S("torch.get_float32_matmul_precision", torch.get_float32_matmul_precision)
S("torch.set_float32_matmul_precision('medium')", torch.set_float32_matmul_precision, "medium")
S("torch.get_float32_matmul_precision", torch.get_float32_matmul_precision)
S("torch.set_float32_matmul_precision('nope')", torch.set_float32_matmul_precision, "nope")
"""

# Sequences of (new API) _set_fp32_precision_setter / legacy setters, dumping the resolved
# table and the legacy getters (which refuse mixed states) after each step.
FP32_SEQUENCES = [
    "generic,all,tf32 generic,all,bf16 generic,all,ieee generic,all,none generic,all,bogus generic,conv,tf32",
    "mkldnn,all,tf32 mkldnn,conv,bf16 mkldnn,matmul,none mkldnn,rnn,ieee mkldnn,all,none",
    "cuda,all,bf16 cuda,matmul,bf16 cuda,all,tf32 cuda,conv,none cuda,matmul,ieee cuda,all,ieee cuda,conv,ieee",
    "cudnn,F cudnn,T cuda,conv,ieee cudnn,T cublas,T cublas,F",
    "cuda,matmul,tf32 mm,highest generic,all,bf16 mkldnn,matmul,none",
    "generic,all,TF32 cuda,matmul,default generic,all, bad,all,tf32 cuda,bad,tf32 bad,bad,bad generic,conv,bogus "
    "generic,rnn,none mkldnn,conv,bogus cuda,all,bogus",
    "cudnn,F cudnn,T generic,all,ieee",
    "generic,all,ieee cudnn,F generic,all,tf32",
    "mm,high cuda,matmul,ieee",
    "mm,high mkldnn,matmul,ieee",
    "mm,medium mkldnn,matmul,tf32",
    "mkldnn,matmul,tf32",
    "mkldnn,all,bf16 cuda,conv,tf32 cudnn,T",
    "cuda,all,none mkldnn,matmul,ieee mm,high cuda,rnn,ieee",
    "generic,all,bf16 cudnn,T cudnn,F cuda,rnn,tf32",
    "cublas,T generic,all,ieee mm,medium generic,all,none",
]
# Random walks over the same steps (fixed seeds), to reach states the hand-written ones miss.
_STEPS = ([f"{b},{o},{p}" for b, o in [("generic", "all")] + [(b, o) for b in ("mkldnn", "cuda")
                                                               for o in ("all", "conv", "rnn", "matmul")]
           for p in ("none", "ieee", "tf32", "bf16")]
          + [f"mm,{m}" for m in ("highest", "high", "medium")] + ["cudnn,T", "cudnn,F", "cublas,T", "cublas,F"])
for _seed in range(4):
    _rng = random.Random(_seed)
    FP32_SEQUENCES.append(" ".join(_rng.choice(_STEPS) for _ in range(40)))
for _i, _seq in enumerate(FP32_SEQUENCES):
    _lines = ["fp32('fresh')"]
    for _step in _seq.split():
        _a = _step.split(",")
        if _a[0] == "mm":
            _lines.append(f"S('mm {_a[1]}', C._set_float32_matmul_precision, {_a[1]!r})")
        elif _a[0] in ("cudnn", "cublas"):
            _lines.append(f"S('{_step}', C._set_{_a[0]}_allow_tf32, {_a[1] == 'T'})")
        else:
            _lines.append(f"S('setter {_step}', C._set_fp32_precision_setter, *{_a!r})")
        _lines.append(f"fp32('after {_step}')")
    SCENARIOS[f"fp32_sequence_{_i}"] = "\n".join(_lines)

SCENARIOS["fp32_arguments"] = """
g, s = C._get_fp32_precision_getter, C._set_fp32_precision_setter
S("get bytes", g, b"cuda", "all")
S("get bytearray", g, bytearray(b"cuda"), "all")
S("get None", g, None, "all")
S("get ints", g, 1, 2)
S("get keywords", g, backend="cuda", op="all")
S("get one", g, "cuda")
S("get none", g)
S("set two", s, "generic", "all")
S("set bytes", s, b"generic", b"all", b"tf32")
S("set returns", s, "cuda", "all", "none")
S("set keyword", s, "cuda", "all", value="tf32")
S("set int", s, "cuda", "all", 3)
import torch.backends as tb
S("torch.backends.fp32_precision", lambda: tb.fp32_precision)
S("torch.backends.flags", lambda: [tb.flags(fp32_precision="tf32").__enter__(), tb.fp32_precision])
S("torch.backends.cuda.matmul.fp32_precision", lambda: torch.backends.cuda.matmul.fp32_precision)
S("set torch.backends.cuda.matmul.fp32_precision", setattr, torch.backends.cuda.matmul, "fp32_precision", "ieee")
S("torch.backends.cuda.matmul.fp32_precision", lambda: torch.backends.cuda.matmul.fp32_precision)
S("torch.backends.mkldnn.matmul.fp32_precision", lambda: torch.backends.mkldnn.matmul.fp32_precision)
S("torch.backends.cudnn.conv.fp32_precision", lambda: torch.backends.cudnn.conv.fp32_precision)
S("set torch.backends.cudnn.rnn.fp32_precision", setattr, torch.backends.cudnn.rnn, "fp32_precision", "ieee")
fp32("end")
"""

ENV_SCENARIOS["fp32_env_tf32_override"] = ({"TORCH_ALLOW_TF32_CUBLAS_OVERRIDE": "1"}, "fp32('env')")
ENV_SCENARIOS["backend_env_prefer"] = (
    {"TORCH_LINALG_PREFER_CUSOLVER": "1", "TORCH_BLAS_PREFER_CUBLASLT": "0", "TORCH_ROCM_FA_PREFER_CK": "1"},
    "S('blas', C._get_blas_preferred_backend); S('linalg', C._get_linalg_preferred_backend);"
    "S('rocm', C._get_rocm_fa_preferred_backend)")
ENV_SCENARIOS["backend_env_cublaslt"] = ({"TORCH_BLAS_PREFER_CUBLASLT": "1", "TORCH_ROCM_FA_PREFER_CK": "yes"},
                                        "S('blas', C._get_blas_preferred_backend); S('rocm', C._get_rocm_fa_preferred_backend)")
for _cap in ("avx2", "avx512", "default", "bogus", "AVX2", "sve256"):
    ENV_SCENARIOS[f"cpu_capability_env_{_cap}"] = (
        {"ATEN_CPU_CAPABILITY": _cap},
        "S('first', C._get_cpu_capability); S('second', C._get_cpu_capability);"
        "S('torch.backends.cpu', torch.backends.cpu.get_cpu_capability)")

SCENARIOS["cpu_capability"] = """
S("capability", C._get_cpu_capability)
S("torch.backends.cpu.get_cpu_capability", torch.backends.cpu.get_cpu_capability)
S("with an argument", C._get_cpu_capability, 1)
S("privateuse1 name", C._get_privateuse1_backend_name)
S("privateuse1 name with an argument", C._get_privateuse1_backend_name, 1)
"""

SCENARIOS["cublas_reductions"] = """
for f in ("fp16", "bf16"):
    s = getattr(C, f"_set_cublas_allow_{f}_reduced_precision_reduction")
    g = getattr(C, f"_get_cublas_allow_{f}_reduced_precision_reduction")
    for a in [(False,), (False, False), (True, False), (True, True), (False, True), (1,), (True, 1), (),
              (None,), (np.bool_(True),), (True, True, True)]:
        S(f"{f}{a!r}", s, *a); S("get", g)
    S(f"{f} keyword", s, True, allow_splitk=True)
    S(f"{f} getter with an argument", g, 1)
m = torch.backends.cuda.matmul
S("allow_fp16_reduced_precision_reduction", lambda: m.allow_fp16_reduced_precision_reduction)
S("set it False", setattr, m, "allow_fp16_reduced_precision_reduction", False)
S("allow_fp16_reduced_precision_reduction", lambda: m.allow_fp16_reduced_precision_reduction)
S("allow_fp16_reduced_precision_reduction_split_k", lambda: m.allow_fp16_reduced_precision_reduction_split_k)
S("set bf16 (False, False)", setattr, m, "allow_bf16_reduced_precision_reduction", (False, False))
S("allow_bf16_reduced_precision_reduction", lambda: m.allow_bf16_reduced_precision_reduction)
S("allow_bf16_reduced_precision_reduction_split_k", lambda: m.allow_bf16_reduced_precision_reduction_split_k)
S("allow_fp16_accumulation", lambda: m.allow_fp16_accumulation)
S("allow_tf32", lambda: m.allow_tf32)
S("set allow_tf32", setattr, m, "allow_tf32", True)
S("allow_tf32", lambda: m.allow_tf32)
S("float32 matmul precision", torch.get_float32_matmul_precision)
S("bad attribute", lambda: m.nope)
"""

SCENARIOS["cudnn_depthwise_kernel"] = """
for v in ["cudnn", "native", "auto", b"native", "AUTO", "bogus", "", 1, None, bytearray(b"auto")]:
    S(f"set {v!r}", C._set_cudnn_depthwise_kernel, v); S("get", C._get_cudnn_depthwise_kernel)
S("getter with an argument", C._get_cudnn_depthwise_kernel, 1)
"""

SCENARIOS["sdp_priority_order"] = """
# (more than five entries overruns upstream's array: undefined behaviour, not compared)
for o in [[0, 1, 2, 3, 4], [4, 3, 2, 1, 0], [0, 1, 2], [0, 0, 0, 0, 0], [9, 9, 9, 9, 9], [-1, 0, 1, 2, 3],
          (1, 2, 0, 3, 4), [True, 2, 0, 3, 4], [1.0, 2, 0, 3, 4], "abc", None, [300, 2**40, 0, 0, 0],
          [2**70, 0, 0, 0, 0], [np.int64(3), 0, 0, 0, 0], [torch.tensor(2), 0, 0, 0, 0], [], range(5),
          [1, "x", 0, 0, 0], [-2**31 - 1, 0, 0, 0, 0]]:
    S(f"set {o!r}", C._set_sdp_priority_order, o); S("get", C._get_sdp_priority_order)
S("keyword", C._set_sdp_priority_order, order=[1, 2, 0, 3, 4])
S("two args", C._set_sdp_priority_order, [1, 2, 0, 3, 4], 1)
S("getter with an argument", C._get_sdp_priority_order, 1)
"""

SCENARIOS["sdp_wrappers"] = """
cuda = torch.backends.cuda
for f in ("flash_sdp_enabled", "mem_efficient_sdp_enabled", "math_sdp_enabled", "cudnn_sdp_enabled",
          "fp16_bf16_reduction_math_sdp_allowed"):
    S(f, getattr(cuda, f))
S("enable_flash_sdp(False)", cuda.enable_flash_sdp, False)
S("enable_math_sdp(False)", cuda.enable_math_sdp, False)
S("enable_mem_efficient_sdp(False)", cuda.enable_mem_efficient_sdp, False)
S("enable_cudnn_sdp(False)", cuda.enable_cudnn_sdp, False)
S("allow_fp16_bf16_reduction_math_sdp(True)", cuda.allow_fp16_bf16_reduction_math_sdp, True)
snap("after enable_*")
from torch.nn.attention import sdpa_kernel, SDPBackend
def inside(backends, **kw):
    with sdpa_kernel(backends, **kw):
        return [C._get_flash_sdp_enabled(), C._get_math_sdp_enabled(), C._get_mem_efficient_sdp_enabled(),
                C._get_cudnn_sdp_enabled(), C._get_overrideable_sdp_enabled(), C._get_sdp_priority_order()]
S("sdpa_kernel(MATH)", inside, SDPBackend.MATH)
S("sdpa_kernel([FLASH, MATH], set_priority=True)", inside, [SDPBackend.FLASH_ATTENTION, SDPBackend.MATH],
  set_priority=True)
snap("after sdpa_kernel")
"""

SCENARIOS["backend_enums"] = """
for cls, set_, get in [("_BlasBackend", "_set_blas_preferred_backend", "_get_blas_preferred_backend"),
                       ("_LinalgBackend", "_set_linalg_preferred_backend", "_get_linalg_preferred_backend"),
                       ("_ROCmFABackend", "_set_rocm_fa_preferred_backend", "_get_rocm_fa_preferred_backend")]:
    E, s, g = getattr(C, cls), getattr(C, set_), getattr(C, get)
    for v in list(E.__members__.values()):
        S(f"{set_}({v!r})", s, v); S("get", g); S("default", C._get_blas_default_backend)
    for v in [0, "Cublas", None, 1.0]:
        S(f"{set_}({v!r})", s, v)
    S(f"{set_}()", s)
    S(f"{set_} keyword", s, arg0=list(E.__members__.values())[0])
    S(f"{get}(1)", g, 1)
    S(f"{get}(keyword)", g, x=1)
S("_get_blas_default_backend(1)", C._get_blas_default_backend, 1)
cuda = torch.backends.cuda
S("preferred_blas_library()", cuda.preferred_blas_library)
S("preferred_blas_library('cublas')", cuda.preferred_blas_library, "cublas")
S("preferred_blas_library('cublaslt')", cuda.preferred_blas_library, "cublaslt")
S("preferred_blas_library('nope')", cuda.preferred_blas_library, "nope")
S("preferred_blas_library(3)", cuda.preferred_blas_library, 3)
S("preferred_linalg_library()", cuda.preferred_linalg_library)
S("preferred_linalg_library('default')", cuda.preferred_linalg_library, "default")
S("preferred_linalg_library('cusolver')", cuda.preferred_linalg_library, "cusolver")
S("preferred_rocm_fa_library()", cuda.preferred_rocm_fa_library)
S("preferred_rocm_fa_library('ck')", cuda.preferred_rocm_fa_library, "ck")
"""

SCENARIOS["sm_carveout"] = """
class Index:
    def __index__(self):
        return 7
class Int:
    def __int__(self):
        return 9
for v in [5, None, 0, -3, 2**31, 2**31 - 1, -2**31, -2**31 - 1, True, 1.5, "3", np.int64(4), torch.tensor(3),
          Index(), Int(), 2**70]:
    S(f"set {type(v).__name__} {v if isinstance(v, (int, float, str, type(None))) else ''}",
      C._set_sm_carveout_experimental, v)
    S("get", C._get_sm_carveout_experimental)
S("no args", C._set_sm_carveout_experimental)
S("keyword", C._set_sm_carveout_experimental, arg0=3)
S("two args", C._set_sm_carveout_experimental, 3, 4)
S("getter with an argument", C._get_sm_carveout_experimental, 1)
"""

SCENARIOS["accelerator"] = """
class WithBool:
    def __bool__(self):
        return False
for args, kw in [((), {}), ((True,), {}), ((False,), {}), ((), {"check": True}), ((), {"check": False}),
                 ((None,), {}), ((), {"check": None}), ((1,), {}), ((0.0,), {}), (("x",), {}),
                 ((True, True), {}), ((), {"chk": 1}), ((True,), {"check": True}), ((np.bool_(False),), {}),
                 ((torch.tensor(False),), {}), ((WithBool(),), {}), (([],), {})]:
    S(f"{args!r} {kw!r}", C._get_accelerator, *args, **kw)
S("torch.accelerator.is_available", torch.accelerator.is_available)
"""

SCENARIOS["autograd_fallback_mode"] = """
for m in ["nothing", "error", "warn", "bogus", "NOTHING", "", b"nothing", bytearray(b"warn"), 1, None]:
    S(f"set {m!r}", C._set_autograd_fallback_mode, m); S("get", C._get_autograd_fallback_mode)
S("keyword", C._set_autograd_fallback_mode, mode="warn")
S("no args", C._set_autograd_fallback_mode)
S("getter with an argument", C._get_autograd_fallback_mode, 1)
"""

SCENARIOS["qengine_agreeing_refusals"] = """
# The engines 1..4 differ on purpose (see test_qengine_*); these refusals agree.
for v in [0, 5, 255, 256, -1, True, 1.0, "1", None, 2**64, np.int64(0), np.int64(7)]:
    S(f"set {v!r}", C._set_qengine, v)
S("supported with an argument", C._supported_qengines, 1)
S("no args", C._set_qengine)
"""

SCENARIOS["sparse_invariants"] = """
for v in [True, False, None, True, None]:
    S(f"set {v}", C._set_check_sparse_tensor_invariants, v); S("get", C._check_sparse_tensor_invariants)
S("getter with an argument", C._check_sparse_tensor_invariants, 1)
S("torch.sparse.check_sparse_tensor_invariants.is_enabled", torch.sparse.check_sparse_tensor_invariants.is_enabled)
S("enable", torch.sparse.check_sparse_tensor_invariants.enable)
S("is_enabled", torch.sparse.check_sparse_tensor_invariants.is_enabled)
S("disable", torch.sparse.check_sparse_tensor_invariants.disable)
def inside():
    with torch.sparse.check_sparse_tensor_invariants(True):
        return C._check_sparse_tensor_invariants()
S("inside the context manager", inside)
S("after it", C._check_sparse_tensor_invariants)
"""

SCENARIOS["mobile_allocator_and_capture_flags"] = """
S("is set", C._is_default_mobile_cpu_allocator_set)
S("unset first", C._unset_default_mobile_cpu_allocator)
S("set", C._set_default_mobile_cpu_allocator)
S("is set", C._is_default_mobile_cpu_allocator_set)
S("set twice", C._set_default_mobile_cpu_allocator)
S("unset", C._unset_default_mobile_cpu_allocator)
S("is set", C._is_default_mobile_cpu_allocator_set)
S("set with an argument", C._set_default_mobile_cpu_allocator, 1)
S("stale capture", C._override_stale_capture_stream)
S("stale capture with an argument", C._override_stale_capture_stream, 1)
"""

SCENARIOS["graph_exec_group"] = """
class Group:
    pass
g = Group()
S("fresh is None", lambda: C._get_graph_exec_group() is None)
before = sys.getrefcount(g)
S("set", C._set_graph_exec_group, g)
S("get is g", lambda: C._get_graph_exec_group() is g)
S("reference held", lambda: sys.getrefcount(g) - before)
seen = []
t = threading.Thread(target=lambda: seen.append(C._get_graph_exec_group() is None)); t.start(); t.join()
S("another thread sees None", lambda: seen)
S("set None", C._set_graph_exec_group, None)
S("reference dropped", lambda: sys.getrefcount(g) - before)
S("set 1", C._set_graph_exec_group, 1)
S("get", C._get_graph_exec_group)
S("no args", C._set_graph_exec_group)
S("keyword", C._set_graph_exec_group, group=g)
S("getter with an argument", C._get_graph_exec_group, 1)
C._set_graph_exec_group(None)
from torch.utils.checkpoint import GraphExecGroup
def nested():
    with GraphExecGroup() as a:
        inner = C._get_graph_exec_group() is a
        with GraphExecGroup():
            pass
S("GraphExecGroup nesting", nested)
S("after GraphExecGroup", C._get_graph_exec_group)
"""

SCENARIOS["grad_layout_enforcement"] = """
S("fresh", C._is_grad_layout_enforcement_enabled)
S("set False", C._set_grad_layout_enforcement_enabled, False)
seen = []
t = threading.Thread(target=lambda: seen.append(C._is_grad_layout_enforcement_enabled())); t.start(); t.join()
S("a new thread sees", lambda: seen)
def in_thread():
    C._set_grad_layout_enforcement_enabled(True)
t = threading.Thread(target=in_thread); t.start(); t.join()
S("main after a thread set True", C._is_grad_layout_enforcement_enabled)
S("keyword", C._set_grad_layout_enforcement_enabled, enabled=True)
S("get", C._is_grad_layout_enforcement_enabled)
S("both", C._set_grad_layout_enforcement_enabled, True, enabled=True)
S("unknown keyword", C._set_grad_layout_enforcement_enabled, True, foo=True)
S("only unknown keyword", C._set_grad_layout_enforcement_enabled, foo=True)
S("bad and unknown", C._set_grad_layout_enforcement_enabled, 1, foo=True)
"""

SCENARIOS["flush_denormal"] = """
x = 5e-324
S("on", C.set_flush_denormal, True)
S("x * 1.0 flushed", lambda: x * 1.0)
seen = []
t = threading.Thread(target=lambda: seen.append(x * 1.0)); t.start(); t.join()
S("a thread started after", lambda: seen)
S("off", torch.set_flush_denormal, False)
S("x * 1.0", lambda: x * 1.0)
S("torch.set_flush_denormal is it", lambda: torch.set_flush_denormal is C.set_flush_denormal)
"""

SCENARIOS["backends_wrappers"] = """
cudnn, mkldnn = torch.backends.cudnn, torch.backends.mkldnn
S("cudnn.enabled", lambda: cudnn.enabled)
S("cudnn.benchmark", lambda: cudnn.benchmark)
S("cudnn.deterministic", lambda: cudnn.deterministic)
S("cudnn.allow_tf32", lambda: cudnn.allow_tf32)
def in_cudnn_flags():
    with cudnn.flags(enabled=False, benchmark=True, deterministic=True, allow_tf32=False):
        return [C._get_cudnn_enabled(), C._get_cudnn_benchmark(), C._get_cudnn_deterministic(),
                C._get_cudnn_allow_tf32(), C._get_fp32_precision_getter("cuda", "all")]
S("inside cudnn.flags", in_cudnn_flags)
snap("after cudnn.flags")
S("set cudnn.benchmark", setattr, cudnn, "benchmark", True)
S("cudnn.benchmark", lambda: cudnn.benchmark)
S("cudnn.is_available", cudnn.is_available)
def in_mkldnn_flags():
    with mkldnn.flags(enabled=False, deterministic=True):
        return [C._get_mkldnn_enabled(), C._get_mkldnn_deterministic()]
S("inside mkldnn.flags", in_mkldnn_flags)
S("mkldnn.enabled", lambda: mkldnn.enabled)
S("set mkldnn.enabled", setattr, mkldnn, "enabled", False)
S("mkldnn.enabled", lambda: mkldnn.enabled)
S("mkldnn.deterministic", lambda: mkldnn.deterministic)
S("mkldnn.allow_tf32", lambda: mkldnn.allow_tf32)
def in_nnpack_flags():
    with torch.backends.nnpack.flags(enabled=False):
        return C._get_nnpack_enabled()
S("inside nnpack.flags", in_nnpack_flags)
S("miopen.immediate", lambda: torch.backends.miopen.immediate)
S("backends.disable_global_flags then set", lambda: (torch.backends.disable_global_flags(),
                                                     setattr(cudnn, "enabled", False)))
snap("end")
"""


# ---- running them -----------------------------------------------------------------------------

def _run(python, scenarios: dict, env_extra: dict | None = None) -> dict:
    env = dict(os.environ)
    for k in [k for k in env if k.startswith(("TORCH_", "ATEN_"))]:
        del env[k]
    env.update(env_extra or {})
    proc = subprocess.run([str(python), "-c", RUNNER], input=json.dumps(scenarios), capture_output=True,
                          text=True, env=env, cwd=str(ROOT), timeout=600)
    if proc.returncode:
        raise RuntimeError(f"{python} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout)


def _run_all(python) -> dict:
    """Every scenario on one interpreter: the plain ones in one process, each environment
    scenario in its own (upstream reads those variables when its context is built)."""
    jobs = [(SCENARIOS, None)] + [({sid: code}, env) for sid, (env, code) in ENV_SCENARIOS.items()]
    with ThreadPoolExecutor(max_workers=4) as pool:
        docs = list(pool.map(lambda job: _run(python, *job), jobs))
    results = {}
    for doc in docs:
        results.update(doc["results"])
    return {"ours": docs[0]["ours"], "torch_file": docs[0]["torch_file"], "results": results}


@pytest.fixture(scope="session")
def transcripts():
    with ThreadPoolExecutor(max_workers=2) as pool:
        up, ours = pool.map(_run_all, [UPSTREAM_PY, OURS_PY])
    assert "/.venv-upstream/" in up["torch_file"] and not up["ours"], "the oracle is not upstream torch"
    assert ours["ours"], "the .venv interpreter did not import torchnative"
    return up["results"], ours["results"]


ALL_IDS = sorted(SCENARIOS) + sorted(ENV_SCENARIOS)


@pytest.mark.parametrize("sid", ALL_IDS)
def test_scenario_matches_upstream(sid, transcripts):
    up, ours = transcripts[0][sid], transcripts[1][sid]
    diffs = []
    for i in range(max(len(up), len(ours))):
        u = up[i] if i < len(up) else None
        o = ours[i] if i < len(ours) else None
        if u != o:
            diffs.append(f"step {i}:\n  upstream: {u}\n  ours:     {o}")
    assert not diffs, f"{len(diffs)} differing steps in {sid}:\n" + "\n".join(diffs[:8])


# ---- in-process checks (this pytest process runs torchnative) -----------------------------------

def test_no_setting_is_left_a_placeholder(torch):
    mine = {"_get_deterministic_algorithms", "_set_deterministic_algorithms", "_get_float32_matmul_precision",
            "_get_fp32_precision_getter", "_set_fp32_precision_setter", "_set_sdp_use_flash",
            "_get_blas_preferred_backend", "_get_qengine", "_supported_qengines", "set_flush_denormal",
            "_get_cpu_capability", "_get_accelerator", "_set_graph_exec_group", "_get_autograd_fallback_mode"}
    for name in mine:
        assert f"torch._C.{name}" not in torch._C._tn_placeholders, name
        assert not getattr(getattr(torch._C, name), "_tn_placeholder", False), name


def test_defaults_literal(torch):
    # .venv-upstream/bin/python -c "import torch; C=torch._C; print(...)" on upstream 2.13.0 (CPU wheel)
    C = torch._C
    assert C._get_deterministic_algorithms() is False
    assert C._get_deterministic_fill_uninitialized_memory() is True
    assert C._get_float32_matmul_precision() == "highest"
    assert C._get_sdp_priority_order() == [1, 2, 0, 3, 4]
    assert (C._get_flash_sdp_enabled(), C._get_math_sdp_enabled(), C._get_fa3_sdp_enabled()) == (True, True, False)
    assert C._get_cudnn_allow_tf32() is True and C._get_cublas_allow_tf32() is False
    assert C._get_fp32_precision_getter("cuda", "conv") == "tf32"
    assert C._get_blas_preferred_backend() == C._BlasBackend.Cublas
    assert C._get_privateuse1_backend_name() == "privateuseone"
    assert C._get_accelerator() == torch.device("cpu")
    assert C._get_onednn_allow_tf32() is None
    assert C._get_autograd_fallback_mode() == "warn"


def test_qengine_none_supported(torch):
    # Upstream's CPU wheel: _supported_qengines() == [2, 3, 4, 1] and _get_qengine() == 4 (x86), from
    # .venv-upstream/bin/python -c "import torch; print(torch._C._supported_qengines(), torch._C._get_qengine())".
    # torchnative has no FBGEMM/QNNPACK/oneDNN kernels and answers as an upstream build without them.
    C = torch._C
    assert C._supported_qengines() == []
    assert C._get_qengine() == 0
    assert torch.backends.quantized.engine == "none"
    assert torch.backends.quantized.supported_engines == []
    for v, name in [(1, "FBGEMM"), (2, "QNNPACK"), (3, "ONEDNN"), (4, "X86")]:
        with pytest.raises(RuntimeError, match=f"^quantized engine {name} is not supported$"):
            C._set_qengine(v)
    with pytest.raises(RuntimeError, match="^quantized engine X86 is not supported$"):
        torch.backends.quantized.engine = "x86"
    assert C._get_qengine() == 0


def test_mkldnn_is_available_follows_the_build_flag(torch):
    # Upstream's wheel has _has_mkldnn True; torchnative's build flag is False (runtime/py/enums.py).
    assert torch.backends.mkldnn.is_available() is torch._C._has_mkldnn is False


def test_flush_denormal_changes_this_thread(torch):
    x = 5e-324
    try:
        assert torch.set_flush_denormal(True) is True
        assert x * 1.0 == 0.0
    finally:
        assert torch.set_flush_denormal(False) is True
    assert x * 1.0 == 5e-324


def test_graph_exec_group_is_per_thread(torch):
    C = torch._C
    marker = object()
    C._set_graph_exec_group(marker)
    try:
        seen = []
        t = threading.Thread(target=lambda: seen.append(C._get_graph_exec_group()))
        t.start()
        t.join()
        assert seen == [None]
        assert C._get_graph_exec_group() is marker
    finally:
        C._set_graph_exec_group(None)


def test_pybind_docstrings(torch):
    # upstream: torch._C._get_accelerator.__doc__ (pybind11 signature line)
    assert torch._C._get_accelerator.__doc__ == "_get_accelerator(check: bool | None = None) -> torch.device\n"
    assert torch._C._set_fp32_precision_setter.__doc__ == (
        "_set_fp32_precision_setter(arg0: str, arg1: str, arg2: str) -> str\n")


SEEDS = ("import torch; print(torch.default_generator.initial_seed(), torch.Generator().initial_seed(), "
         "max(torch.seed() for _ in range(16)) >= 2**53)")


@pytest.mark.parametrize("python", [OURS_PY, UPSTREAM_PY], ids=["ours", "upstream"])
def test_default_generator_starts_at_a_nondeterministic_seed(python):
    """The process's default generator starts at a seed from /dev/urandom, all 64 bits (upstream's
    getDefaultCPUGenerator and getNonDeterministicRandom on the CPU: the 53-bit mask is CUDA's), so
    unseeded draws differ between runs; torch.seed() draws the same way; a new torch.Generator()
    starts at 67280421310721 (default_rng_seed_val). Both sides, two processes each."""
    runs = [subprocess.run([str(python), "-c", SEEDS], capture_output=True, text=True, timeout=120).stdout.split()
            for _ in range(2)]
    assert runs[0][0] != runs[1][0], runs
    assert [r[1:] for r in runs] == [["67280421310721", "True"]] * 2, runs
