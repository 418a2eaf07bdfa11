"""Run golden cases in whichever torch this interpreter imports and describe the results.

A case is a snippet that leaves its result in `out` (a tensor, a number, a tuple of those, or
anything torch returns). Its inputs come from the helpers below (randn, arange, make). The
oracle run (upstream, `record`) generates them and records each one as bytes with its dtype,
shape, strides and storage offset; our run (`replay`) rebuilds the same tensors from those bytes
instead of generating them. Results travel the same way: tensors as the raw bytes of their
elements plus geometry, never as pickled torch objects. compare.py decides agreement.

    .venv-upstream/bin/python tests/python/golden/runner.py  > upstream.json   # the oracle run
"""
from __future__ import annotations

import base64
import collections
import importlib
import json
import math
import pkgutil
import sys
import warnings
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]

# When True the floating-point inputs are made as float64 (same values): the float64 reference
# run that measures upstream's own rounding error (see compare.py, the `derived` comparator).
AS_FLOAT64 = False
# When True float64 inputs are made as float32 (rounded): for a float64 result the float64 run is
# no more precise, so upstream's float32 error, scaled by 2**-29, stands for its float64 one
# (Note [Float64 error from the float32 run] in compare.py).
AS_FLOAT32 = False

# Exceptions that mean the snippet itself is wrong, not the torch under test.
CASE_BUGS = (NameError, SyntaxError)
# A generated spelling (spell.py) that upstream answers with one of these does not exist there
# for these arguments; the oracle drops it instead of keeping it as a case.
NOT_A_SPELLING = ("AttributeError", "TypeError")


class CaseError(Exception):
    """The case is broken (bad snippet, replay out of step): a harness error, never a result."""


DTYPES = {str(d): d for d in (
    torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16,
    torch.bfloat16, torch.float32, torch.float64, torch.complex64, torch.complex128, torch.uint16,
    torch.uint32, torch.uint64)}


# ---- the per-case context: which inputs were made, and how --------------------------------------

class Context:
    """mode: "plain" (generate, record nothing), "record" (oracle: generate and record every
    input), "replay" (ours: rebuild every input from the oracle's record)."""

    def __init__(self, mode: str, records: list | None = None, float64: bool = False):
        self.mode = mode
        self.records = [] if records is None else records
        self.float64 = float64
        self.inputs: list[torch.Tensor] = []   # kept alive so storage identity stays meaningful
        self.kernels: collections.Counter = collections.Counter()


_ctx: Context | None = None
_NATIVE = getattr(torch._C, "_torchnative", None)


def _harvest() -> None:
    """Adds the C kernels that ran since the last call to this case's count (ours only)."""
    if _NATIVE is not None:
        calls = _NATIVE.kernel_calls(True)
        if _ctx is not None:
            _ctx.kernels.update(calls)


def _discard() -> None:
    """Forgets kernel calls made by the harness itself (rebuilding inputs, reading results)."""
    if _NATIVE is not None:
        _NATIVE.kernel_calls(True)


def _input(sig: str, build) -> torch.Tensor:
    ctx = _ctx
    if ctx is None or ctx.mode == "plain" or ctx.float64:
        t = build()
    elif ctx.mode == "record":
        try:
            t = build()
        except Exception as e:
            raise CaseError(f"helper {sig} failed on upstream: {type(e).__name__}: {e}") from e
        ctx.records.append(encode_input(sig, t))
    else:
        i = len(ctx.inputs)
        if i >= len(ctx.records) or ctx.records[i]["sig"] != sig:
            want = ctx.records[i]["sig"] if i < len(ctx.records) else "no more inputs"
            raise CaseError(f"replay out of step at input {i}: case asks {sig}, oracle recorded {want}")
        _harvest()
        t = decode_input(ctx.records[i])
        _discard()
    if ctx is not None:
        ctx.inputs.append(t)
    return t


def _widen(t: torch.Tensor) -> torch.Tensor:
    if AS_FLOAT32:
        return t.to({torch.float64: torch.float32, torch.complex128: torch.complex64}.get(t.dtype, t.dtype))
    return t.double() if AS_FLOAT64 and t.dtype.is_floating_point else t


# ---- input helpers (the names cases use) ---------------------------------------------------------

def gen(seed: int = 0) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def randn(*shape, seed: int = 0, dtype=torch.float32):
    """Standard normal values (float32 draws cast to dtype)."""
    return _input(f"randn{shape}, seed={seed}, dtype={dtype}",
                  lambda: _widen(torch.randn(*shape, generator=gen(seed), dtype=torch.float32).to(dtype)))


def arange(*shape, dtype=torch.float32):
    """0, 1, 2, ... in the given shape (a view of a 1-d arange, as upstream's reshape makes it)."""
    def build():
        n = math.prod(shape)
        return _widen(torch.arange(n, dtype=torch.int64).reshape(*shape).to(dtype))
    return _input(f"arange{shape}, dtype={dtype}", build)


# Value domains for make(): what the inputs of an op need to be interesting, per dtype kind.
ROLES = ("any", "pos", "nonzero", "unit", "gt1", "prob", "index", "mask", "small")
LAYOUTS = ("contig", "t", "slice", "offset", "expand")


def make(shape, dtype=torch.float32, seed: int = 0, role: str = "any", layout: str = "contig",
         high: int | None = None):
    """A tensor of `shape` and `dtype` with values from `role`, laid out in memory as `layout`:
    contig; t (last two dims transposed); slice (every other element of a twice-as-long last
    dim); offset (rows 1: of one more row: a storage offset); expand (zero stride along the
    first dim longer than 1)."""
    shape = tuple(shape)
    if role not in ROLES or layout not in LAYOUTS:
        raise CaseError(f"make: unknown role {role!r} or layout {layout!r}")

    def build():
        g = gen(seed)
        mem = list(shape)
        if layout == "t":
            if len(shape) < 2:
                raise CaseError("make: layout 't' needs two dims")
            mem[-1], mem[-2] = mem[-2], mem[-1]
        elif layout == "slice":
            if not shape:
                raise CaseError("make: layout 'slice' needs a dim")
            mem[-1] *= 2
        elif layout == "offset":
            if not shape:
                raise CaseError("make: layout 'offset' needs a dim")
            mem[0] += 1
        elif layout == "expand":
            big = [i for i, s in enumerate(shape) if s > 1]
            if not big:
                raise CaseError("make: layout 'expand' needs a dim longer than 1")
            mem[big[0]] = 1
        t = _widen(values(mem, dtype, role, g, high))
        if layout == "t":
            t = t.transpose(-1, -2)
        elif layout == "slice":
            t = t[..., ::2]
        elif layout == "offset":
            t = t[1:]
        elif layout == "expand":
            t = t.expand(*shape)
        return t
    return _input(f"make({shape}, {dtype}, seed={seed}, role={role}, layout={layout}, high={high})", build)


def literal(data, dtype=torch.float32):
    """torch.tensor(data, dtype=dtype) as a recorded input (special values: nan, inf, -0.0)."""
    return _input(f"literal({data!r}, {dtype})", lambda: _widen(torch.tensor(data, dtype=dtype)))


def values(shape, dtype, role, g, high):
    """Contiguous values of `role` (see ROLES) for dtype, from generator g."""
    n = list(shape)
    if dtype == torch.bool:
        if role in ("pos", "nonzero", "gt1"):
            return torch.ones(n, dtype=torch.bool)
        return torch.randn(n, generator=g) > 0
    if dtype.is_floating_point or dtype.is_complex:
        base = torch.float64 if dtype in (torch.float64, torch.complex128) else torch.float32
        x = torch.randn(n, generator=g, dtype=base)
        if role == "pos":
            x = x.abs() + 0.1
        elif role == "nonzero":
            x = x.sign() * (x.abs() + 0.1)
        elif role == "unit":
            x = x.tanh() * 0.9
        elif role == "gt1":
            x = x.abs() + 1.1
        elif role == "prob":
            x = x.sigmoid() * 0.98 + 0.01
        elif role == "small":
            x = x * 0.25
        elif role == "index":
            x = torch.randint(high or 3, n, generator=g).to(base)
        elif role == "mask":
            x = (x > 0).to(base)
        if dtype.is_complex:
            x = torch.complex(x, torch.randn(n, generator=g, dtype=base))
        return x.to(dtype)
    unsigned = dtype in (torch.uint8, torch.uint16, torch.uint32, torch.uint64)
    lo, hi = {"any": (-9, 10), "pos": (1, 10), "nonzero": (1, 10), "unit": (-1, 2), "gt1": (2, 10),
              "prob": (0, 2), "index": (0, high or 3), "mask": (0, 2), "small": (-3, 4)}[role]
    if unsigned and lo < 0:
        lo, hi = 0, hi - lo
    x = torch.randint(lo, hi, n, generator=g)
    if role == "nonzero" and not unsigned:
        x = x * (torch.randint(0, 2, n, generator=g) * 2 - 1)
    return x.to(dtype)


def empty_out(ref):
    """Fresh zero-size out= tensors matching the dtypes of a reference result."""
    if isinstance(ref, torch.Tensor):
        return torch.empty(0, dtype=ref.dtype)
    return tuple(empty_out(r) for r in ref)


# ---- bytes: inputs and results -------------------------------------------------------------------

def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def storage_bytes(st) -> bytes:
    if st.nbytes() == 0:
        return b""
    u8 = torch.empty(0, dtype=torch.uint8).set_(st)
    return torch.empty(u8.shape, dtype=torch.uint8).copy_(u8).numpy().tobytes()


def element_bytes(t: torch.Tensor) -> bytes:
    """The elements of t in row-major order, as raw bytes (any dtype; conj/neg bits unresolved)."""
    if t.numel() == 0:
        return b""
    n = t.element_size()
    u8 = torch.empty(0, dtype=torch.uint8).set_(t.untyped_storage())
    v = u8.as_strided(list(t.shape) + [n], [s * n for s in t.stride()] + [1], t.storage_offset() * n)
    return torch.empty(v.shape, dtype=torch.uint8).copy_(v).numpy().tobytes()


def encode_input(sig: str, t: torch.Tensor) -> dict:
    if t.requires_grad or t.device.type != "cpu":
        raise CaseError(f"helper {sig} made an input this harness cannot record")
    return {"sig": sig, "dtype": str(t.dtype), "shape": list(t.shape), "stride": list(t.stride()),
            "offset": t.storage_offset(), "view": t._is_view(),
            "storage": b64(storage_bytes(t.untyped_storage()))}


def decode_input(rec: dict) -> torch.Tensor:
    """Rebuilds a recorded input with upstream's geometry: a fresh tensor when upstream's was
    not a view (so _base, _is_view and _version read the same), else a view of a 1-d base."""
    dt = DTYPES[rec["dtype"]]
    raw = base64.b64decode(rec["storage"])
    item = torch.empty(0, dtype=dt).element_size()
    if rec["view"]:
        base = torch.empty(len(raw) // item, dtype=dt)
        t = base.as_strided(rec["shape"], rec["stride"], rec["offset"])
    else:
        t = torch.empty_strided(rec["shape"], rec["stride"], dtype=dt)
        if rec["offset"] or t.untyped_storage().nbytes() != len(raw):
            raise CaseError(f"cannot rebuild input {rec['sig']}: storage larger than its tensor")
    if raw:
        # written through a second tensor on the same storage, so t's version counter stays 0
        torch.empty(0, dtype=torch.uint8).set_(t.untyped_storage()).copy_(
            torch.frombuffer(bytearray(raw), dtype=torch.uint8))
    return t


def _storage_key(t: torch.Tensor):
    try:
        st = t.untyped_storage()
        return st.data_ptr() if st.nbytes() and st.data_ptr() else None
    except Exception:  # storage-less tensors share nothing we can see
        return None


class Describer:
    """Turns a case's `out` into JSON; tensors carry which inputs, names and earlier results
    share their storage (the aliasing comparator)."""

    def __init__(self, ctx: Context, ns: dict):
        self.owners: list[tuple[str, object]] = []
        for i, x in enumerate(ctx.inputs):
            self.owners.append((f"in{i}", _storage_key(x)))
        for name, x in sorted(ns.items()):
            if isinstance(x, torch.Tensor) and name != "out" and not name.startswith("__"):
                self.owners.append((f"var:{name}", _storage_key(x)))
        self.results = 0

    def alias(self, t: torch.Tensor) -> list[str]:
        key = _storage_key(t)
        labels = sorted(name for name, k in self.owners if key is not None and k == key)
        self.owners.append((f"out{self.results}", key))
        self.results += 1
        return labels

    def __call__(self, v):
        if isinstance(v, torch.Tensor):
            t = v.detach()
            data = b64(element_bytes(t)) if t.device.type == "cpu" else None
            return {"tensor": True, "dtype": str(t.dtype), "device": str(t.device), "shape": list(t.shape),
                    "stride": list(t.stride()), "offset": t.storage_offset(), "requires_grad": v.requires_grad,
                    "conj": t.is_conj(), "neg": t.is_neg(), "data": data, "alias": self.alias(v)}
        if isinstance(v, (tuple, list)):
            kind = type(v).__name__ if type(v) in (tuple, list) else "structseq:" + type(v).__name__
            return {"seq": kind, "items": [self(x) for x in v]}
        if isinstance(v, (bool, int, float, complex, str, type(None))):
            return {"scalar": type(v).__name__, "value": encode(v)}
        if isinstance(v, (torch.dtype, torch.device, torch.layout, torch.memory_format)):
            return {"scalar": type(v).__name__, "value": str(v)}
        raise CaseError(f"golden case returned a {type(v).__name__}, which no comparator reads")


def encode(x):
    if isinstance(x, float) and not math.isfinite(x):
        return repr(x)
    if isinstance(x, complex):
        return [encode(x.real), encode(x.imag)]
    return x


def _tensors_in(r):
    if isinstance(r, torch.Tensor):
        return [r]
    if isinstance(r, (tuple, list)):
        return [t for x in r for t in _tensors_in(x)]
    return []


def cotangent(like: torch.Tensor, k: int) -> torch.Tensor:
    """A deterministic, irregular cotangent of like's shape and dtype: frac(j * 0.618034 + k / 7)
    + 0.5 for element j, computed in float64 (exact on both sides) and rounded once. Positive, so
    the sums backward makes (broadcast reduction, sum_to) do not cancel: the derived tolerance
    bounds errors relative to the result, which a cancelling sum would make meaningless. A complex
    cotangent also gets a positive imaginary part frac(j * 0.414214 + k / 11) + 0.5: with a real
    one, grad.conj() == grad and a dropped conjugation would go unseen (Note [Complex autograd])."""
    n = like.numel()
    j = torch.arange(n, dtype=torch.float64)
    v = torch.remainder(j * 0.618034 + k / 7.0, 1.0) + 0.5
    if like.dtype.is_complex:
        v = torch.complex(v, torch.remainder(j * 0.414214 + k / 11.0, 1.0) + 0.5)
    return v.reshape(like.shape).to(like.dtype)


def vjp(r, inputs, create_graph: bool = False):
    """A backward case's answer: gradients of r's outputs that require grad with respect to the
    inputs that require grad, for deterministic cotangents; None where an input is not reached.
    What upstream's torch.autograd.grad computes is the oracle. With create_graph the gradients
    record their own graph (a double backward case differentiates them again)."""
    outs = [t for t in _tensors_in(r) if t.requires_grad]
    ins = [t for t in inputs if isinstance(t, torch.Tensor) and t.requires_grad]
    if not outs or not ins:
        return ("no gradient", [t.requires_grad for t in _tensors_in(r)])
    cots = [cotangent(o, i) for i, o in enumerate(outs)]
    grads = torch.autograd.grad(outs, ins, cots, allow_unused=True, create_graph=create_graph)
    # upstream answers some gradients (sgn's) with an efficient zero tensor, which has no storage
    # to read: compared as the zeros it stands for
    return tuple(torch.zeros(g.shape, dtype=g.dtype) if g is not None and g._is_zerotensor() else g for g in grads)


def requires_grad(*ts):
    """Marks the floating-point inputs of a backward case as requiring grad."""
    for t in ts:
        if isinstance(t, torch.Tensor) and (t.dtype.is_floating_point or t.dtype.is_complex):
            t.requires_grad_()


# ---- running a case ------------------------------------------------------------------------------

# Note [float64 stand-ins]
# The `derived` tolerance needs upstream's float64 answer. An op upstream computes only in single
# or reduced precision has none (_grouped_mm takes float32, bfloat16 and float16), so its float64
# reference run calls, in the op's place, the composition upstream's CPU kernel is
# (ATen/native/GroupedMMUtils.h, _grouped_mm_fallback: one mm per group), in float64.

def _grouped_mm_float64(*args, **kw):
    names = ("input", "mat2", "offs", "bias", "out_dtype")
    a, b, offs, _, _ = (list(args) + [kw.get(n, kw.get("self") if n == "input" else None) for n in names[len(args):]])
    if a.dim() == 3 and b.dim() == 3:
        return torch.bmm(a, b)
    ends = offs.tolist()
    starts = [0] + ends[:-1]
    if a.dim() == 2 and b.dim() == 3:
        out = a.new_zeros(a.shape[0], b.shape[-1])
        for g, (s, e) in enumerate(zip(starts, ends)):
            out[s:e] = a[s:e] @ b[g]
    elif a.dim() == 3:
        out = a.new_zeros(a.shape[1], b.shape[1])
        for g, (s, e) in enumerate(zip(starts, ends)):
            out[:, s:e] = a[g] @ b[:, s:e]
    else:
        out = torch.stack([a[:, s:e] @ b[s:e] for s, e in zip(starts, ends)])
    return out


FLOAT64_STANDINS = {"torch.ops.aten._grouped_mm.default(": "_grouped_mm_float64(",
                    "torch._grouped_mm(": "_grouped_mm_float64("}

NAMESPACE = {"torch": torch, "randn": randn, "arange": arange, "make": make, "literal": literal, "gen": gen,
             "math": math, "empty_out": empty_out, "nan": math.nan, "inf": math.inf, "vjp": vjp,
             "requires_grad": requires_grad}


def run_case(code: str, mode: str = "plain", records: list | None = None, float64: bool = False,
             float32: bool = False) -> tuple[dict, Context]:
    """Runs one snippet; returns (description of `out` or of the exception, the context with
    recorded inputs and, on ours, the C kernels the case ran). float64 / float32: the reruns with
    the inputs widened or narrowed (AS_FLOAT64, AS_FLOAT32), which record nothing."""
    global _ctx, AS_FLOAT64, AS_FLOAT32
    ctx = Context(mode, records, float64 or float32)
    _ctx, AS_FLOAT64, AS_FLOAT32 = ctx, float64, float32
    ns = dict(NAMESPACE)
    if float64:  # Note [float64 stand-ins]
        for call, standin in FLOAT64_STANDINS.items():
            code = code.replace(call, standin)
        ns["_grouped_mm_float64"] = _grouped_mm_float64
    try:
        torch.manual_seed(0)
        _discard()
        try:
            with warnings.catch_warnings():  # warnings are not compared; keep the test log quiet
                warnings.simplefilter("ignore")
                exec(compile(code, "<golden case>", "exec"), ns)
        except CaseError:
            raise
        except CASE_BUGS as e:
            raise CaseError(f"golden case is broken: {type(e).__name__}: {e}") from e
        except Exception as e:  # the exception class is part of the contract
            _harvest()
            return {"raises": type(e).__name__, "message": str(e).splitlines()[0] if str(e) else ""}, ctx
        _harvest()
        if "out" not in ns:
            raise CaseError(f"golden case did not set `out`: {code!r}")
        try:
            desc = Describer(ctx, ns)(ns["out"])
        except CaseError:
            raise
        except Exception as e:
            raise CaseError(f"cannot read the case's result: {type(e).__name__}: {e}") from e
        _discard()
        return desc, ctx
    finally:
        _ctx, AS_FLOAT64, AS_FLOAT32 = None, False, False


def all_cases() -> dict[str, dict]:
    """case id -> {"code", "tol", "optional"} from every cases_*.py module next to this file."""
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    cases: dict[str, dict] = {}
    for mod in sorted(m.name for m in pkgutil.iter_modules([str(HERE)]) if m.name.startswith("cases_")):
        for cid, spec in importlib.import_module(mod).CASES.items():
            key = f"{mod[6:]}/{cid}"
            if key in cases:
                raise SystemExit(f"duplicate golden case {key}")
            cases[key] = spec if isinstance(spec, dict) else {"code": spec}
    return cases


def family(key: str) -> str:
    return key.split("/", 1)[0]


def main() -> None:
    """The oracle run: every case in upstream, inputs recorded; float64 reruns for `derived`."""
    if hasattr(torch._C, "_torchnative") or "/.venv-upstream/" not in torch.__file__:
        raise SystemExit(f"the oracle must run upstream torch, not {torch.__file__} ({torch._C.__file__})")
    results, dropped, broken = {}, {}, []
    for key, spec in all_cases().items():
        try:
            result, ctx = run_case(spec["code"], "record")
            if spec.get("optional") and result.get("raises") in NOT_A_SPELLING:
                dropped[key] = f"{result['raises']}: {result['message']}"
                continue
            entry = {"result": result, "inputs": ctx.records}
            if spec.get("tol") == "derived":
                entry["float64"] = run_case(spec["code"], "record", float64=True)[0]
                if '"torch.float64"' in json.dumps(result) or '"torch.complex128"' in json.dumps(result):
                    entry["float32"] = run_case(spec["code"], "record", float32=True)[0]
        except CaseError as e:
            broken.append(f"{key}: {e}")
            continue
        results[key] = entry
    if broken:
        raise SystemExit("broken golden cases:\n" + "\n".join(broken))
    json.dump({"torch": torch.__version__, "torch_file": torch.__file__, "torch_C_file": torch._C.__file__,
               "results": results, "dropped": dropped}, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    main()
