"""The upstream half of tools/opinfo.py (Note [OpInfo samples as bytes]): encoding a sample as
bytes, rebuilding it, describing a call, and the oracle run itself, which .venv-upstream runs:

    .venv-upstream/bin/python tools/opinfo_oracle.py OUT_DIR [--dtype float16] [--first 8]

OUT_DIR/index.json maps every OpInfo (name.variant) to its sample count or why it is not
measured; OUT_DIR/<n>.json.gz holds op n's samples in that dtype (float32 unless --dtype): the
encoded sample, upstream's result and its float64 rerun (Note [The float64 rerun per dtype]).
tools/opinfo.py caches OUT_DIR under build/opinfo/ keyed by the dtype and a hash of this file,
the golden runner and the OpInfo sources, so editing the comparison side reruns nothing.
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import json
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "python" / "golden"
CACHE = ROOT / "build" / "opinfo"
DTYPE = "float32"  # the default: docs/opinfo.md and tests/python/test_opinfo.py's EXPECTED
# every dtype issue 14 asks for, in the order the reports list them
DTYPES = ("float32", "float64", "bfloat16", "float16", "int64", "bool", "complex64")
# A sample whose inputs hold more bytes than this is not shipped (grid_sampler_3d's samples are
# ~11 MB each, 94% of the document otherwise); it is counted as unshippable.
MAX_SAMPLE_BYTES = 4 << 20

if str(GOLDEN) not in sys.path:
    sys.path.insert(0, str(GOLDEN))


def op_key(op) -> str:
    return op.name + (f".{op.variant_test_name}" if op.variant_test_name else "")


# ---- Note [OpInfo samples as bytes] ---------------------------------------------------------------
# A sample (input, args, kwargs) is encoded as a tree of tagged JSON values; tensors are entries of
# a per-sample table: dtype, shape, strides, storage offset, whether upstream's was a view, and
# which storage it lives on (storages by data pointer, so inputs sharing memory share it here too;
# their bytes in base64). Ours rebuilds the storages, then each tensor on its storage: a view of a
# 1-d base when upstream's was a view, else a tensor set_ onto the storage. Values the encoding
# does not know (functions, generators, NumPy arrays) make the sample unshippable: it is counted,
# not run.

class Unshippable(Exception):
    pass


class Table:
    """The tensors of one sample and the storages under them (upstream: encode)."""

    def __init__(self):
        self.storages: list[str] = []
        self.by_ptr: dict[int, int] = {}
        self.tensors: list[dict] = []
        self.by_id: dict[int, int] = {}
        self.keep: list = []  # the encoded tensors, alive so ids stay unique

    def tensor(self, t) -> int:
        import torch
        import runner
        if id(t) in self.by_id:
            return self.by_id[id(t)]
        if type(t) not in (torch.Tensor, torch.nn.Parameter) or t.layout != torch.strided or \
                t.device.type != "cpu" or t.is_conj() or t.is_neg() or t.is_quantized:
            raise Unshippable(f"tensor {type(t).__name__} {t.layout} {t.device}")
        st = t.untyped_storage()
        ptr = st.data_ptr() if st.nbytes() else None
        if ptr is not None and ptr in self.by_ptr:
            sidx = self.by_ptr[ptr]
        else:
            sidx = len(self.storages)
            self.storages.append(runner.b64(runner.storage_bytes(st)))
            if ptr is not None:
                self.by_ptr[ptr] = sidx
        self.tensors.append({"dtype": str(t.dtype), "shape": list(t.shape), "stride": list(t.stride()),
                             "offset": t.storage_offset(), "view": t._is_view(), "storage": sidx,
                             "requires_grad": t.requires_grad})
        self.by_id[id(t)] = len(self.tensors) - 1
        self.keep.append(t)
        return self.by_id[id(t)]

    def encode(self, x):
        import torch
        if isinstance(x, torch.Tensor):
            return {"T": self.tensor(x)}
        if x is None or isinstance(x, (bool, int, str)):
            return {"v": x}
        if isinstance(x, float):
            return {"f": repr(x)}
        if isinstance(x, complex):
            return {"c": [repr(x.real), repr(x.imag)]}
        if isinstance(x, torch.Size):
            return {"size": list(x)}
        if isinstance(x, (tuple, list)) and type(x) in (tuple, list):
            return {type(x).__name__: [self.encode(v) for v in x]}
        if isinstance(x, dict) and type(x) is dict and all(isinstance(k, str) for k in x):
            return {"dict": [[k, self.encode(v)] for k, v in x.items()]}
        if isinstance(x, (torch.dtype, torch.device, torch.memory_format, torch.layout)):
            return {type(x).__name__: str(x)}
        if isinstance(x, slice):
            return {"slice": [self.encode(x.start), self.encode(x.stop), self.encode(x.step)]}
        if x is Ellipsis:
            return {"ellipsis": True}
        raise Unshippable(type(x).__name__)

    def nbytes(self) -> int:
        return sum(len(b) * 3 // 4 for b in self.storages)

    def document(self) -> dict:
        return {"storages": self.storages, "tensors": self.tensors}


class Rebuilt:
    """A sample's tensors rebuilt from a Table's document (ours: decode); `inputs` in table order
    is what the Describer labels in0, in1, ... on both sides."""

    def __init__(self, doc: dict):
        import torch
        import runner
        storages = []
        for raw64 in doc["storages"]:
            raw = base64.b64decode(raw64)
            u8 = torch.empty(len(raw), dtype=torch.uint8)
            if raw:
                u8.copy_(torch.frombuffer(bytearray(raw), dtype=torch.uint8))
            storages.append(u8.untyped_storage())
        self.inputs = []
        for rec in doc["tensors"]:
            dt = runner.DTYPES[rec["dtype"]]
            st = storages[rec["storage"]]
            if rec["view"]:
                item = torch.empty(0, dtype=dt).element_size()
                base = torch.empty(0, dtype=dt).set_(st, 0, (st.nbytes() // item,), (1,))
                t = base.as_strided(rec["shape"], rec["stride"], rec["offset"])
            else:
                t = torch.empty(0, dtype=dt).set_(st, rec["offset"], rec["shape"], rec["stride"])
            if rec["requires_grad"]:
                t.requires_grad_()
            self.inputs.append(t)

    def decode(self, x):
        import torch
        (tag, v), = x.items()
        if tag == "T":
            return self.inputs[v]
        if tag == "v":
            return v
        if tag == "f":
            return float(v)
        if tag == "c":
            return complex(float(v[0]), float(v[1]))
        if tag == "size":
            return torch.Size(v)
        if tag in ("tuple", "list"):
            items = [self.decode(i) for i in v]
            return tuple(items) if tag == "tuple" else items
        if tag == "dict":
            return {k: self.decode(i) for k, i in v}
        if tag == "dtype":
            return getattr(torch, v.split(".", 1)[1])
        if tag == "device":
            return torch.device(v)
        if tag in ("memory_format", "layout"):
            return getattr(torch, v.split(".", 1)[1])
        if tag == "slice":
            return slice(*(self.decode(i) for i in v))
        if tag == "ellipsis":
            return Ellipsis
        raise ValueError(f"unknown encoded value {tag}")


# ---- running one call (both sides) ---------------------------------------------------------------

# Note [Singular vectors up to sign]: an SVD's singular vectors are unique up to the sign of each
# pair (u_k, v_k), and the LAPACK under upstream's wheel and Debian's choose other signs. Both sides
# describe these ops' results in one canonical gauge: the first min(m, n) columns of U (the rest of a
# full U or V is any basis of the complement) with each pair flipped so that the entry of largest
# magnitude of u_k is positive; S as is. Upstream's own OpInfo samples compare |U|, |Vh| and U Vh
# instead (sample_inputs_svd), which this implies. Complex vectors are unique up to a phase: the
# same entry is made real and positive (u_k times conj(s), v_k's row of Vh times s, with s its
# sgn). linalg.eigh's eigenvectors (the columns of Q) are unique up to the same sign or phase and
# get the same gauge. An empty U has no entry to pick: it is described as it is.
def _phase(U):
    """Per column of U (batched), the sgn of its entry of largest magnitude (1 where it is 0)."""
    import torch
    if U.numel() == 0:
        return torch.ones(*U.shape[:-2], 1, U.shape[-1], dtype=U.dtype)
    idx = U.abs().argmax(dim=-2, keepdim=True)
    sign = torch.sgn(torch.take_along_dim(U, idx, dim=-2))
    return torch.where(sign == 0, torch.ones_like(sign), sign)


def _svd_canonical(r, vh: bool):
    U, S, V = r
    k = S.shape[-1]
    U = U[..., :k]
    V = V[..., :k, :] if vh else V[..., :k]
    sign = _phase(U)
    return U * sign.conj(), S, (V * sign.mT if vh else V * sign.conj())


def _eigh_canonical(r):
    L, Q = r
    return L, Q * _phase(Q).conj()


CANONICAL = {"linalg.svd": lambda r: _svd_canonical(r, True), "svd": lambda r: _svd_canonical(r, False),
             "svd_lowrank": lambda r: _svd_canonical(r, False), "pca_lowrank": lambda r: _svd_canonical(r, False),
             "linalg.eigh": _eigh_canonical}


def describe_call(op, inputs, args, kwargs) -> dict:
    """Runs op(*args, **kwargs) after torch.manual_seed(0): the golden runner's description of
    the result (aliasing against `inputs`), or of the exception."""
    import torch
    import runner

    class Ctx:
        pass
    ctx = Ctx()
    ctx.inputs = inputs
    torch.manual_seed(0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = op(*args, **kwargs)
            if hasattr(op, "variant_test_name") and op_key(op) in CANONICAL:  # an OpInfo, not a bare function
                r = CANONICAL[op_key(op)](r)
    except Exception as e:  # the exception class is part of the contract
        return {"raises": type(e).__name__, "message": (str(e).splitlines() or [""])[0][:300]}
    try:
        return runner.Describer(ctx, {})(r)
    except Exception as e:
        return {"unreadable": f"{type(e).__name__}: {e}"[:300]}


# Note [The float64 rerun per dtype]: value.derived (tests/python/golden/compare.py) bounds ours
# by upstream's own rounding error, measured against the same call in float64. Which inputs the
# rerun widens follows the dtype whose samples these are:
#   float32, complex64  float32 and complex64 tensors and dtype arguments made float64 and
#                       complex128 (the float32 run's rule since the first oracle; unchanged).
#   float16, bfloat16   every floating tensor and dtype argument narrower than 64 bits (float16,
#                       bfloat16, float32; complex32, complex64) made float64 (complex128): the
#                       golden runner's _widen, which makes every floating input float64.
#   float64             nothing is wider: the rerun is the result itself ("same"), and compare.py
#                       takes E as one ulp of the largest |up64|, the golden harness's rule for a
#                       float64 result.
#   int64, bool         integer and bool results compare exactly (compare.py reads them with
#                       value.exact whatever the rerun). A floating result of integer inputs
#                       (sin, div, mean of a promoted tensor) is float32 because that is the
#                       default dtype, so its float64 call is the same call under
#                       torch.set_default_dtype(torch.float64), floating inputs widened as for
#                       float16; it is made only when upstream's result holds a floating value.
WIDEN_32 = ("float32", "complex64")
WIDEN_ALL = ("float16", "bfloat16", "float32", "complex32", "complex64")
WIDEN = {"float32": WIDEN_32, "complex64": WIDEN_32, "float16": WIDEN_ALL, "bfloat16": WIDEN_ALL,
         "float64": (), "int64": WIDEN_ALL, "bool": WIDEN_ALL}


def widen(x, narrow=WIDEN_32):
    """x with every tensor and torch.dtype argument whose dtype is in `narrow` made float64
    (complex ones complex128): the float64 rerun (Note [The float64 rerun per dtype])."""
    import torch
    names = {getattr(torch, n) for n in narrow}

    def wide(dt):
        if dt not in names:
            return None
        return torch.complex128 if dt.is_complex else torch.float64
    if isinstance(x, torch.dtype):
        return wide(x) or x
    if isinstance(x, torch.Tensor):
        w = wide(x.dtype)
        return x.detach().to(w).requires_grad_(x.requires_grad) if w else x
    if isinstance(x, (tuple, list)) and type(x) in (tuple, list):
        return type(x)(widen(v, narrow) for v in x)
    if isinstance(x, dict) and type(x) is dict:
        return {k: widen(v, narrow) for k, v in x.items()}
    return x


def has_floating(desc) -> bool:
    """Whether a result description holds a floating tensor or a float/complex number."""
    if isinstance(desc, dict):
        if "tensor" in desc:
            return desc["dtype"] in ("torch.float16", "torch.bfloat16", "torch.float32", "torch.float64",
                                     "torch.complex32", "torch.complex64", "torch.complex128")
        if "scalar" in desc:
            return desc["scalar"] in ("float", "complex")
        return any(has_floating(v) for v in desc.get("items", []))
    return False


# ---- upstream: the oracle run ------------------------------------------------------------------

def oracle_sources() -> list[Path]:
    internal = ROOT / "build" / "site" / "torch" / "testing" / "_internal"
    return [Path(__file__).resolve(), GOLDEN / "runner.py", internal / "common_methods_invocations.py",
            *sorted((internal / "opinfo").rglob("*.py"))]


def oracle_dir(dtype: str = DTYPE, first: int | None = None) -> Path:
    """The cache of dtype's oracle (of each OpInfo's first samples only, with first)."""
    digest = hashlib.sha256()
    for f in oracle_sources():
        digest.update(f.name.encode() + f.read_bytes())
    return CACHE / f"upstream-{dtype}{f'-first{first}' if first else ''}-{digest.hexdigest()[:16]}"


def dtypes_in(encoded) -> list:
    """The torch.dtype arguments of an encoded sample (factories: dtype=torch.float32)."""
    import torch
    if isinstance(encoded, dict):
        if "dtype" in encoded and len(encoded) == 1:
            return [getattr(torch, encoded["dtype"].split(".", 1)[1])]
        return [d for v in encoded.values() for d in dtypes_in(v)]
    if isinstance(encoded, list):
        return [d for v in encoded for d in dtypes_in(v)]
    return []


def too_big(nbytes: int) -> str:
    return f"inputs of {nbytes / 2**20:.1f} MiB (more than {MAX_SAMPLE_BYTES >> 20} MiB)"


def op_samples(op, dtype, first: int | None = None) -> list[dict]:
    """op's samples in dtype made by upstream (seeded), each encoded with upstream's answers;
    first: only the first ones (every sample is made, so they are the full run's first ones)."""
    import torch
    name = str(dtype).split(".", 1)[1]
    narrow = WIDEN[name]
    out = []
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        samples = list(op.sample_inputs("cpu", dtype, requires_grad=False))
    for s in samples[:first]:
        table = Table()
        try:
            call = table.encode([s.input, *s.args])
            kw = table.encode(dict(s.kwargs))
        except Unshippable as e:
            out.append({"unshippable": str(e)})
            continue
        size = table.nbytes()
        if size > MAX_SAMPLE_BYTES:
            out.append({"unshippable": too_big(size)})
            continue
        inputs = list(table.keep)
        rec = {"sample": table.document(), "args": call, "kwargs": kw}
        # the float64 rerun gets fresh inputs from the bytes: the op may write into its inputs
        wide = Rebuilt(rec["sample"])
        wide_args, wide_kwargs = widen(wide.decode(call), narrow), widen(wide.decode(kw), narrow)
        rec["result"] = describe_call(op, inputs, [s.input, *s.args], dict(s.kwargs))
        floats = {getattr(torch, n) for n in narrow}
        if name == "float64":
            if any(t.dtype in (torch.float64, torch.complex128) for t in inputs) or \
                    any(d in (torch.float64, torch.complex128) for d in dtypes_in([call, kw])):
                rec["float64"] = "same"
        elif name in ("int64", "bool"):
            if has_floating(rec["result"]):
                before = torch.get_default_dtype()
                torch.set_default_dtype(torch.float64)
                try:
                    rec["float64"] = describe_call(op, [], wide_args, wide_kwargs)
                finally:
                    torch.set_default_dtype(before)
        elif any(t.dtype in floats for t in inputs) or any(d in floats for d in dtypes_in([call, kw])):
            rec["float64"] = describe_call(op, [], wide_args, wide_kwargs)
        out.append(rec)
    return out


def upstream_main(out_dir: str, dtype_name: str = DTYPE, first: int | None = None) -> None:
    import torch
    if hasattr(torch._C, "_torchnative") or "/.venv-upstream/" not in torch.__file__:
        raise SystemExit(f"the OpInfo oracle must run upstream torch, not {torch.__file__}")
    from torch.testing._internal.common_methods_invocations import op_db
    dtype = getattr(torch, dtype_name)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    index = {}
    for n, op in enumerate(op_db):
        key = op_key(op)
        if key in index:
            raise SystemExit(f"two OpInfos named {key}")
        if dtype not in op.supported_dtypes("cpu"):
            index[key] = {"skip": f"no {dtype_name} on cpu"}
            continue
        t0 = time.perf_counter()
        try:
            samples = op_samples(op, dtype, first)
        except Exception as e:
            index[key] = {"skip": f"upstream's sample_inputs raised {type(e).__name__}: {str(e)[:200]}"}
            continue
        with gzip.open(out / f"{n}.json.gz", "wt") as f:
            json.dump(samples, f)
        index[key] = {"file": f"{n}.json.gz", "samples": len(samples),
                      "shippable": sum("unshippable" not in s for s in samples),
                      "secs": round(time.perf_counter() - t0, 3)}
    (out / "index.json").write_text(json.dumps({"torch": torch.__version__, "torch_file": torch.__file__,
                                                "dtype": dtype_name, "first": first, "ops": index}, indent=1, sort_keys=True))


def load_samples(oracle: Path, entry: dict) -> list[dict]:
    with gzip.open(oracle / entry["file"], "rt") as f:
        return json.load(f)


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out_dir", help="where index.json and the per-op sample files go")
    ap.add_argument("--dtype", default=DTYPE, choices=DTYPES, help="whose samples (default float32)")
    ap.add_argument("--first", type=int, help="only each OpInfo's first N samples")
    a = ap.parse_args()
    upstream_main(a.out_dir, a.dtype, a.first)
