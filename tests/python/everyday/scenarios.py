"""What a new user does in the first hour (issue 16), run in whichever torch this interpreter
imports; prints one JSON object. tests/python/test_everyday.py runs every group in both
interpreters and compares.

    python tests/python/everyday/scenarios.py <group> [args]

Groups: rows (the issue's table), numpy, dataloader, multiprocessing, overlap, autocast,
autocast_registrations; `all DIR` runs them all and saves checkpoints into DIR; `load DIR...`
loads the checkpoints of each DIR; pipeline [--float64 | --both].
A case's result is {"ok": value, "warn": [categories]} or {"err": exception class, "msg": its
first line}; tensors are encoded bit for bit (enc).
"""
from __future__ import annotations

import io
import json
import os
import sys
import warnings
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[3]


def enc(x):
    """A JSON value for x; tensors by dtype, shape, strides, offset and their elements' bytes."""
    if isinstance(x, torch.Tensor):
        t = x.detach()
        raw = t.contiguous().reshape(-1).view(torch.uint8).tolist() if t.device.type == "cpu" else None
        return {"dtype": str(t.dtype), "shape": list(t.shape), "stride": list(t.stride()),
                "offset": t.storage_offset(), "device": t.device.type, "requires_grad": x.requires_grad,
                "bytes": bytes(raw).hex() if raw is not None else None}
    if isinstance(x, dict):
        return {str(k): enc(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [enc(v) for v in x]
    if isinstance(x, (bool, int, str)) or x is None:
        return x
    if isinstance(x, float):
        return repr(x)
    if isinstance(x, (torch.dtype, torch.device, np.dtype)):
        return str(x)
    return repr(x)


def run_case(fn):
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = fn()
        return {"ok": enc(value), "warn": sorted({w.category.__name__ for w in caught})}
    except Exception as e:  # noqa: BLE001 - the exception class is the result
        return {"err": type(e).__name__, "msg": str(e).strip().split("\n")[0][:300]}


def run_group(cases: dict) -> dict:
    return {name: run_case(fn) for name, fn in cases.items()}


# ---------------------------------------------------------------- rows (the table)

def rows():
    def dataloader():
        return next(iter(torch.utils.data.DataLoader([1, 2])))

    def save_load():
        b = io.BytesIO()
        torch.save({"w": torch.arange(4.0)}, b)
        b.seek(0)
        return torch.load(b)

    def autocast_mm():
        with torch.autocast("cpu", dtype=torch.bfloat16):
            return (torch.ones(2, 2) @ torch.ones(2, 2)).dtype

    def module_to_in_meta_context():
        with torch.device("meta"):
            m = torch.nn.Linear(2, 2)
            m.to(dtype=torch.float32)
        return m.weight.dtype, m.weight.device

    def share_memory():
        t = torch.arange(3.0)
        t.share_memory_()
        return t.is_shared(), t

    def inplace_full_overlap():
        a = torch.arange(4.0)
        a.add_(a)
        return a

    return run_group({
        "dataloader_list": dataloader,
        "torch_save_load": save_load,
        "tensor_from_ndarray": lambda: torch.tensor(np.zeros(2)),
        "FloatTensor_from_ndarray": lambda: torch.FloatTensor(np.sin(np.arange(3.0))),
        "equal": lambda: torch.equal(torch.ones(2), torch.ones(2)),
        "allclose": lambda: torch.allclose(torch.ones(2), torch.ones(2) + 1e-9),
        "isclose": lambda: torch.isclose(torch.ones(2), torch.ones(2)),
        "assert_close": lambda: torch.testing.assert_close(torch.ones(2), torch.ones(2)),
        "autocast_bf16_matmul_dtype": autocast_mm,
        "module_to_under_meta_device": module_to_in_meta_context,
        "share_memory_": share_memory,
        "inplace_full_overlap": inplace_full_overlap,
    })


# ---------------------------------------------------------------- numpy and Python data

class _ArrayInterface:
    def __init__(self, a):
        self.a = a

    @property
    def __array_interface__(self):
        return self.a.__array_interface__


class _ArrayMethod:
    def __init__(self, a):
        self.a = a

    def __array__(self, dtype=None, copy=None):
        return self.a


def numpy_cases():
    cases = {}
    for name in ("float64", "float32", "float16", "int64", "int32", "int16", "int8", "uint8", "uint16", "uint32",
                 "uint64", "bool", "complex64", "complex128", "longlong", "intc", "ulonglong", "longdouble"):
        dt = getattr(np, name if name != "bool" else "bool_")
        cases[f"tensor_{name}"] = lambda dt=dt: torch.tensor(np.arange(3).astype(dt))
        cases[f"scalar_{name}"] = lambda dt=dt: torch.tensor(dt(1))
        cases[f"from_numpy_{name}"] = lambda dt=dt: torch.from_numpy(np.arange(3).astype(dt))
    cases.update({
        "tensor_0d": lambda: torch.tensor(np.array(1.5)),
        "tensor_noncontiguous": lambda: torch.tensor(np.arange(12.0).reshape(3, 4)[:, ::2]),
        "tensor_negative_stride": lambda: torch.tensor(np.arange(5.0)[::-1]),
        "tensor_fortran_order": lambda: torch.tensor(np.asfortranarray(np.arange(6.0).reshape(2, 3))),
        "tensor_dtype_given": lambda: torch.tensor(np.arange(3.0), dtype=torch.int32),
        "tensor_big_endian": lambda: torch.tensor(np.arange(3, dtype=">i4")),
        "tensor_object_array": lambda: torch.tensor(np.array([1, "a"], dtype=object)),
        "tensor_str_array": lambda: torch.tensor(np.array(["a"])),
        "tensor_list_of_arrays": lambda: torch.tensor([np.arange(2.0), np.arange(2.0)]),
        "tensor_list_of_f32_arrays": lambda: torch.tensor([np.arange(2, dtype=np.float32)]),
        "tensor_list_array_and_list": lambda: torch.tensor([np.arange(2), [1.5, 2]]),
        "tensor_empty_2d": lambda: torch.tensor(np.zeros((0, 3))),
        "tensor_list_0d_arrays": lambda: torch.tensor([np.array(1.5)]),
        "list_of_float64_scalars": lambda: torch.tensor([np.float64(1.5), np.float64(2)]),
        "list_float32_scalar_and_int": lambda: torch.tensor([np.float32(1.5), 2]),
        "list_int32_scalars": lambda: torch.tensor([np.int32(1), np.int32(2)]),
        "list_int32_scalar_and_int": lambda: torch.tensor([np.int32(1), 2]),
        "list_float16_float32": lambda: torch.tensor([np.float16(1), np.float32(2)]),
        "list_uint8_and_bool": lambda: torch.tensor([np.uint8(1), True]),
        "list_numpy_bool": lambda: torch.tensor([np.bool_(True), False]),
        "float32_scalar_into_int64": lambda: torch.tensor([np.float32(1.5)], dtype=torch.int64),
        "float_into_int64": lambda: torch.tensor([1.5], dtype=torch.int64),
        "FloatTensor_array": lambda: torch.FloatTensor(np.sin(np.arange(3.0))),
        "LongTensor_float_array": lambda: torch.LongTensor(np.arange(3.0)),
        "Tensor_int_array": lambda: torch.Tensor(np.arange(3)),
        "DoubleTensor_2d_float32_array": lambda: torch.DoubleTensor(np.ones((2, 2), dtype=np.float32)),
        "FloatTensor_numpy_scalar": lambda: torch.FloatTensor(np.float64(1.5)),
        "FloatTensor_list_of_scalars": lambda: torch.FloatTensor([np.float32(1.5)]),
        "FloatTensor_shares_float32_array": lambda: (lambda a: (torch.FloatTensor(a).add_(1), a.tolist())[1])(
            np.arange(3, dtype=np.float32)),
        "new_with_array": lambda: torch.ones(2).new(np.arange(3)),
        "new_tensor_with_array": lambda: torch.ones(2).new_tensor(np.arange(3)),
        "as_tensor": lambda: torch.as_tensor(np.arange(3.0)),
        "as_tensor_dtype": lambda: torch.as_tensor(np.arange(3.0), dtype=torch.float32),
        "as_tensor_shares_memory": lambda: (lambda a: (torch.as_tensor(a).add_(1), a.tolist())[1])(np.arange(3.0)),
        "from_numpy_shares_memory": lambda: (lambda a: (torch.from_numpy(a).add_(1), a.tolist())[1])(np.arange(3.0)),
        "from_numpy_negative_stride": lambda: torch.from_numpy(np.arange(3.0)[::-1]),
        "from_numpy_list": lambda: torch.from_numpy([1, 2]),
        "from_numpy_object": lambda: torch.from_numpy(np.array([1, None])),
        "from_numpy_empty_strides": lambda: torch.from_numpy(np.zeros((0, 3))).stride(),
        "array_interface_object": lambda: torch.tensor(_ArrayInterface(np.arange(4.0).reshape(2, 2))),
        "array_interface_as_tensor": lambda: torch.as_tensor(_ArrayInterface(np.arange(4, dtype=np.int16))),
        "array_method_object": lambda: torch.tensor(_ArrayMethod(np.arange(4.0))),
        "array_method_as_tensor": lambda: torch.as_tensor(_ArrayMethod(np.arange(3, dtype=np.int8))),
        "asarray_array": lambda: torch.asarray(np.arange(3, dtype=np.int16)),
        "asarray_array_interface": lambda: torch.asarray(_ArrayInterface(np.arange(3.0))),
        "numpy_of_tensor": lambda: torch.arange(3.0).numpy().dtype,
        "numpy_of_bfloat16": lambda: torch.ones(2, dtype=torch.bfloat16).numpy(),
        "asarray_of_tensor_f16": lambda: np.asarray(torch.arange(3, dtype=torch.float16)).tolist(),
        "tensor_times_float64_scalar": lambda: torch.ones(2) * np.float64(2.5),
        "int32_tensor_plus_int64_scalar": lambda: torch.ones(2, dtype=torch.int32) + np.int64(2),
        "int32_tensor_plus_numpy_bool": lambda: torch.ones(2, dtype=torch.int32) + np.bool_(True),
        "int32_tensor_times_float32_scalar": lambda: torch.ones(2, dtype=torch.int32) * np.float32(2),
        "float32_scalar_times_f16_tensor": lambda: np.float32(2.5) * torch.ones(2, dtype=torch.float16),
        "full_int32_scalar": lambda: torch.full((2,), np.int32(1)),
        "full_float32_scalar": lambda: torch.full((2,), np.float32(1.5)),
        "arange_numpy_int": lambda: torch.arange(np.int64(4)),
        "zeros_numpy_sizes": lambda: torch.zeros(np.int64(2), np.int32(3)),
        "reshape_numpy_int": lambda: torch.arange(6).reshape(np.int64(2), 3),
        "index_int_array": lambda: torch.arange(6)[np.array([0, 2])],
        "index_bool_array": lambda: torch.arange(3)[np.array([True, False, True])],
        "index_2d_array": lambda: torch.arange(12).reshape(3, 4)[np.array([[0, 1], [2, 0]])],
        "index_numpy_int": lambda: torch.arange(6)[np.int64(4)],
        "setitem_int_array": lambda: (lambda a: (a.__setitem__(np.array([0]), 5), a)[1])(torch.arange(6).reshape(2, 3)),
        "tensor_ragged": lambda: torch.tensor([[1, 2], [3]]),
        "tensor_str": lambda: torch.tensor("abc"),
        "tensor_list_of_str": lambda: torch.tensor(["a"]),
        "tensor_bytes": lambda: torch.tensor(b"ab"),
        "tensor_none": lambda: torch.tensor(None),
        "tensor_dict": lambda: torch.tensor({1: 2}),
        "tensor_overflow": lambda: torch.tensor([2**63]),
        "tensor_uint8_out_of_range": lambda: torch.tensor([300], dtype=torch.uint8),
        "tensor_range": lambda: torch.tensor(range(4)),
        "tensor_tuple_of_0d_tensors": lambda: torch.tensor((torch.tensor(1), torch.tensor(2.5))),
        "tensor_list_of_1d_tensors": lambda: torch.tensor([torch.ones(2), torch.zeros(2)]),
        "tensor_int8_tensor_and_float": lambda: torch.tensor([torch.tensor(1, dtype=torch.int8), 1.5]),
        "tensor_empty_lists": lambda: torch.tensor([[], []]),
        "tensor_complex_python": lambda: torch.tensor([1, 2j]),
        "tensor_bool_int": lambda: torch.tensor([True, 2]),
        "tensor_of_tensor_warns": lambda: torch.tensor(torch.ones(2)),
        "default_float64": lambda: (torch.set_default_dtype(torch.float64), torch.tensor([1.5]), torch.tensor([1j]),
                                    torch.set_default_dtype(torch.float32))[1:3],
    })
    return run_group(cases)


# ---------------------------------------------------------------- save / load

SAVE_DTYPES = ("float64", "float32", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool",
               "complex64")


def save_objects():
    """What is saved: every listed dtype (with edge values), views sharing one storage, an empty
    tensor, a non-contiguous view, nested containers."""
    g = torch.Generator().manual_seed(16)
    obj = {}
    for name in SAVE_DTYPES:
        dt = getattr(torch, name)
        if dt.is_floating_point or dt.is_complex:
            t = (torch.randn(7, generator=g, dtype=torch.float64) * 1e3).to(dt)
            if not dt.is_complex:
                t[0], t[1], t[2] = float("inf"), float("-inf"), float("nan")
                t[3] = -0.0
        elif dt == torch.bool:
            t = torch.tensor([True, False, True, True, False, False, True])
        else:
            info = torch.iinfo(dt)
            t = torch.tensor([info.min, info.max, 0, 1, -1 if info.min < 0 else 2, 3, 4]).to(dt)
        obj[name] = t
    base = torch.arange(48, dtype=torch.float32).reshape(6, 8)
    obj["shared"] = {"base": base, "rows": base[1:4], "cols": base[:, ::3], "t": base.t(), "elem": base[2, 5]}
    obj["empty"] = torch.empty(0, 3)
    obj["scalar"] = torch.tensor(2.5, dtype=torch.float64)
    obj["list"] = [torch.ones(2, dtype=torch.int8), (3, "text", 1.5)]
    return obj


def digest(obj):
    """enc of every tensor plus which ones share a storage (indices by first appearance)."""
    tensors, out = [], {}

    def walk(x, path):
        if isinstance(x, torch.Tensor):
            tensors.append((path, x))
        elif isinstance(x, dict):
            for k, v in x.items():
                walk(v, f"{path}.{k}")
        elif isinstance(x, (list, tuple)):
            for i, v in enumerate(x):
                walk(v, f"{path}[{i}]")
        else:
            out[path] = enc(x)

    walk(obj, "")
    groups = {}
    for path, t in tensors:
        ptr = t.untyped_storage().data_ptr()
        out[path] = dict(enc(t), storage=groups.setdefault(ptr, len(groups)),
                         storage_nbytes=t.untyped_storage().nbytes())
    return out


def _custom_model_classes():
    """A transformers model whose __init__ moves a submodule with .to(dtype=...): from_pretrained
    builds it under its loading context (torch._C._nn._parse_to through a __torch_function__
    mode)."""
    import transformers

    class EverydayConfig(transformers.PretrainedConfig):
        model_type = "everyday_custom"

    class EverydayModel(transformers.PreTrainedModel):
        config_class = EverydayConfig

        def __init__(self, config):
            super().__init__(config)
            self.inner = torch.nn.Linear(4, 3).to(dtype=torch.float32)
            self.post_init()

        def forward(self, x):
            return self.inner(x)

    return EverydayConfig, EverydayModel


def _tiny_llama():
    sys.path.insert(0, str(ROOT / "tools"))
    import sweep
    import transformers

    return getattr(transformers, sweep.ARCHS["llama"][0]), sweep.ensure_weights("llama")


def save_pretrained_bin(d):
    """transformers checkpoints written with torch.save (pytorch_model.bin)."""
    cls, weights = _tiny_llama()
    model = cls.from_pretrained(weights)
    cfg_cls, model_cls = _custom_model_classes()
    torch.manual_seed(4)
    custom = model_cls(cfg_cls())
    for m, name in ((model, "llama_bin"), (custom, "custom_bin")):
        # the layout of transformers' older checkpoints (its save_pretrained now writes safetensors)
        m.config.save_pretrained(d / name)
        torch.save(m.state_dict(), d / name / "pytorch_model.bin")
    return {"llama": digest(model.state_dict()), "custom": digest(custom.state_dict()),
            "files": sorted(p.name for p in (d / "llama_bin").iterdir())}


def load_pretrained_bin(d):
    cls, _ = _tiny_llama()
    model = cls.from_pretrained(d / "llama_bin")
    tokens = model.generate(torch.tensor([[5, 6, 7]]), max_new_tokens=3, do_sample=False, pad_token_id=0)
    cfg_cls, model_cls = _custom_model_classes()
    custom = model_cls.from_pretrained(d / "custom_bin")
    return {"llama": digest(model.state_dict()), "custom": digest(custom.state_dict()), "tokens": tokens.tolist()}


def save(directory):
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    obj = save_objects()
    torch.save(obj, d / "ckpt.pt")
    torch.save(obj, d / "legacy.pt", _use_new_zipfile_serialization=False)
    buf = io.BytesIO()
    torch.save(obj, buf)
    (d / "buffer.pt").write_bytes(buf.getvalue())
    torch.serialization.set_crc32_options(False)
    try:
        torch.save(obj, d / "nocrc.pt")
    finally:
        torch.serialization.set_crc32_options(True)
    return {"saved": digest(obj), "pretrained": run_case(lambda: save_pretrained_bin(d))}


def in_file_mapping(ptr: int, path: Path) -> bool:
    """Whether address ptr lies in a mapping of the file at path (/proc/self/maps)."""
    target = os.stat(path)
    for line in Path("/proc/self/maps").read_text().splitlines():
        parts = line.split(maxsplit=5)
        lo, hi = (int(v, 16) for v in parts[0].split("-"))
        if lo <= ptr < hi and len(parts) == 6 and parts[5].strip() and os.path.exists(parts[5].strip()):
            st = os.stat(parts[5].strip())
            if (st.st_ino, st.st_dev) == (target.st_ino, target.st_dev):
                return True
    return False


def load(directory):
    d = Path(directory)
    out = {}
    for name in ("ckpt.pt", "legacy.pt", "buffer.pt", "nocrc.pt"):
        out[name] = run_case(lambda name=name: digest(torch.load(d / name)))
    out["buffer.pt from BytesIO"] = run_case(lambda: digest(torch.load(io.BytesIO((d / "buffer.pt").read_bytes()))))
    out["ckpt.pt weights_only=False"] = run_case(lambda: digest(torch.load(d / "ckpt.pt", weights_only=False)))
    out["ckpt.pt mmap"] = run_case(lambda: digest(torch.load(d / "ckpt.pt", mmap=True)))

    def mapped():
        o = torch.load(d / "ckpt.pt", mmap=True)
        return {k: in_file_mapping(v.untyped_storage().data_ptr(), d / "ckpt.pt")
                for k, v in o.items() if isinstance(v, torch.Tensor) and v.untyped_storage().nbytes()}

    out["mmap storages are the file's mapping"] = run_case(mapped)
    out["legacy.pt mmap refuses"] = run_case(lambda: torch.load(d / "legacy.pt", mmap=True))

    def unsafe_global():
        b = io.BytesIO()
        torch.save({"f": io.BytesIO}, b)
        b.seek(0)
        return torch.load(b)

    out["weights_only refuses a global"] = run_case(unsafe_global)
    out["from_pretrained pytorch_model.bin"] = run_case(lambda: load_pretrained_bin(d))
    return out


def zip_layout(directory):
    """The zip structure of the saved files as Python's zipfile reads it (offsets, flags, crc,
    sizes), and the files' bytes outside the serialization_id record."""
    import hashlib
    import zipfile

    out = {}
    for name in ("ckpt.pt", "nocrc.pt", "buffer.pt"):
        path = Path(directory) / name
        with zipfile.ZipFile(path) as z:
            infos = z.infolist()
            out[name] = [[i.filename, i.header_offset, i.flag_bits, i.compress_type, i.CRC, i.file_size, i.extra.hex()]
                         for i in infos]
            sid = next(i for i in infos if i.filename.endswith("/.data/serialization_id"))
        data = bytearray(path.read_bytes())
        extra_len = int.from_bytes(data[sid.header_offset + 28:sid.header_offset + 30], "little")
        start = sid.header_offset + 30 + len(sid.filename) + extra_len
        out[name + " serialization_id crc half"] = data[start + 20:start + 40].decode()
        # blank the record whose bytes differ by design (Note [Checkpoint zip layout]): its
        # data, its crc in the descriptor and in the central directory
        data[start:start + 40 + 8] = bytes(48)
        cd = data.rfind(b"PK\x01\x02", 0, data.rfind(b"PK\x06\x06"))
        data[cd + 16:cd + 20] = bytes(4)
        out[name + " sha256 without the id"] = hashlib.sha256(bytes(data)).hexdigest()
    return out


# ---------------------------------------------------------------- data loading

class _Raises(torch.utils.data.Dataset):
    def __len__(self):
        return 6

    def __getitem__(self, i):
        if i == 3:
            raise ValueError("item 3 is broken")
        return torch.tensor([i])


class _Dies(torch.utils.data.Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        if i == 2:
            os._exit(3)
        return torch.tensor([i])


def dataloader():
    from torch.utils.data import DataLoader, TensorDataset

    data = TensorDataset(torch.arange(40.0).reshape(20, 2), torch.arange(20))

    def batches(**kw):
        g = torch.Generator().manual_seed(7)
        return [list(b) for b in DataLoader(data, batch_size=3, shuffle=True, generator=g, **kw)]

    def pinned():
        return [list(b) for b in DataLoader(data, batch_size=8, pin_memory=True)][0]

    def _exit_reported(fn):
        try:
            fn()
        except RuntimeError as e:
            if str(e).startswith("DataLoader worker (pid") and "exited unexpectedly" in str(e):
                raise RuntimeError("DataLoader worker exited unexpectedly") from None
            raise

    def masked_pid(fn):
        import re

        def run():
            try:
                fn()
            except RuntimeError as e:
                raise RuntimeError(re.sub(r"\d{2,}", "N", str(e))) from None
        return run

    return run_group({
        "list_of_ints": lambda: list(torch.utils.data.DataLoader([1, 2, 3], batch_size=2)),
        "shuffled_workers_0": lambda: batches(num_workers=0),
        "shuffled_workers_2": lambda: batches(num_workers=2),
        "shuffled_workers_2_persistent": lambda: batches(num_workers=2, persistent_workers=True),
        "batches_in_shared_memory": lambda: [t.is_shared() for b in DataLoader(data, batch_size=5, num_workers=2)
                                             for t in b],
        "worker_raises": lambda: list(DataLoader(_Raises(), batch_size=2, num_workers=2)),
        # the loader's SIGCHLD handler and its failed-worker check race to report the exit, with
        # and without the exit code: the same error either way, compared without that detail
        "worker_exits": masked_pid(lambda: _exit_reported(lambda: list(DataLoader(_Dies(), batch_size=1, num_workers=2)))),
        "pin_memory": pinned,
        "pin_memory_tensor": lambda: torch.ones(2).pin_memory(),
        "is_pinned": lambda: torch.ones(2).is_pinned(),
    })


def _child_fill(t, q, received):
    t.fill_(7)
    q.put(torch.arange(4) * 10)
    received.wait(60)  # the parent takes the tensor's file descriptor from this process


def multiprocessing_cases():
    import torch.multiprocessing as mp

    def shared_tensor_and_queue():
        ctx = mp.get_context("fork")
        t = torch.zeros(3)
        t.share_memory_()
        q, received = ctx.Queue(), ctx.Event()
        p = ctx.Process(target=_child_fill, args=(t, q, received))
        p.start()
        got = q.get(timeout=60)
        received.set()
        p.join(60)
        return t, got, p.exitcode, t.is_shared()

    def share_view():
        base = torch.arange(6.0)
        v = base[2:4]
        v.share_memory_()
        v.add_(100)
        return base, base.is_shared()

    return run_group({
        "share_memory_and_queue": shared_tensor_and_queue,
        "share_memory_of_view_moves_base": share_view,
        "sharing_strategy": lambda: mp.get_sharing_strategy(),
        "storage_new_shared": lambda: torch.UntypedStorage._new_shared(8).is_shared(),
    })


def pipeline_cases(dtype):
    sys.path.insert(0, str(ROOT / "tools"))
    import models
    from transformers import pipeline

    pipe = pipeline("feature-extraction", model=str(models.minilm()), dtype=dtype)
    out = pipe(["The cat sits on the mat.", "Paris is the capital of France.", "Fresh bread."])
    return {"embeddings": [float(v) for sentence in out for tok in sentence[0] for v in tok]}


# ---------------------------------------------------------------- autocast

def autocast_op_cases():
    """name -> (upstream's AutocastCPU op it exercises, fn). Inputs are float32 unless the case
    says otherwise; each runs under torch.autocast("cpu", dtype=bfloat16)."""
    F = torch.nn.functional
    g = torch.Generator().manual_seed(3)

    def r(*shape, dtype=torch.float32):
        return torch.randn(*shape, generator=g).to(dtype)

    x, w, b3 = r(4, 6), r(5, 6), r(5)
    m1, m2, m3 = r(3, 4), r(4, 5), r(3, 5)
    bb1, bb2, bb3 = r(2, 3, 4), r(2, 4, 5), r(2, 3, 5)
    img, k2 = r(1, 2, 6, 6), r(3, 2, 3, 3)
    sig, k1 = r(1, 2, 9), r(3, 2, 3)
    vol, k3 = r(1, 2, 4, 4, 4), r(2, 2, 2, 2, 2)
    q, kk, v = r(1, 2, 5, 8), r(1, 2, 5, 8), r(1, 2, 5, 8)
    logits, target = r(4, 5), torch.tensor([0, 3, 1, 4])
    probs = torch.rand(4, 5, generator=g)
    return {
        "mm": ("aten::mm", lambda: torch.mm(m1, m2)),
        "mm_bf16_input": ("aten::mm", lambda: torch.mm(m1.bfloat16(), m2)),
        "mm_f64_input": ("aten::mm", lambda: torch.mm(m1.double(), m2.double())),
        "matmul": ("aten::matmul", lambda: m1 @ m2),
        "matmul_batched": ("aten::matmul", lambda: bb1 @ bb2),
        "bmm": ("aten::bmm", lambda: torch.bmm(bb1, bb2)),
        "addmm": ("aten::addmm", lambda: torch.addmm(m3, m1, m2)),
        "baddbmm": ("aten::baddbmm", lambda: torch.baddbmm(bb3, bb1, bb2)),
        "addbmm": ("aten::addbmm", lambda: torch.addbmm(m3, bb1, bb2)),
        "linear": ("aten::linear", lambda: F.linear(x, w, b3)),
        "linear_module": ("aten::linear", lambda: (torch.manual_seed(5), torch.nn.Linear(6, 5)(x))[1]),
        "linalg_vecdot": ("aten::linalg_vecdot", lambda: torch.linalg.vecdot(m1, m1)),
        "conv1d": ("aten::conv1d", lambda: F.conv1d(sig, k1)),
        "conv1d_same": ("aten::conv1d.padding", lambda: F.conv1d(sig, k1, padding="same")),
        "conv2d": ("aten::conv2d", lambda: F.conv2d(img, k2, stride=2)),
        "conv2d_valid": ("aten::conv2d.padding", lambda: F.conv2d(img, k2, padding="valid")),
        "conv3d": ("aten::conv3d", lambda: F.conv3d(vol, k3)),
        "conv3d_same": ("aten::conv3d.padding", lambda: F.conv3d(vol, k3, padding="same")),
        "conv_transpose1d": ("aten::conv_transpose1d", lambda: F.conv_transpose1d(sig, k1.transpose(0, 1))),
        "conv_transpose2d": ("aten::conv_transpose2d.input", lambda: F.conv_transpose2d(img, k2.transpose(0, 1))),
        "prelu": ("aten::prelu", lambda: F.prelu(x, torch.tensor([0.25]))),
        "sdpa": ("aten::scaled_dot_product_attention", lambda: F.scaled_dot_product_attention(q, kk, v)),
        "sdpa_causal": ("aten::scaled_dot_product_attention",
                        lambda: F.scaled_dot_product_attention(q, kk, v, is_causal=True)),
        "addmm_activation": ("aten::_addmm_activation", lambda: torch._addmm_activation(m3, m1, m2)),
        "cat_mixed": ("aten::cat", lambda: torch.cat([m1, m1.bfloat16()])),
        "cat_bf16": ("aten::cat", lambda: torch.cat([m1.bfloat16(), m1.bfloat16()])),
        "cat_f64_bf16": ("aten::cat", lambda: torch.cat([m1.double(), m1.bfloat16()])),
        "cat_f16_bf16": ("aten::cat", lambda: torch.cat([m1.half(), m1.bfloat16()])),
        "stack_mixed": ("aten::stack", lambda: torch.stack([m1, m1.bfloat16()])),
        "index_copy": ("aten::index_copy", lambda: m1.bfloat16().index_copy(0, torch.tensor([2, 0]), m1[:2])),
        "nll_loss": ("aten::nll_loss", lambda: F.nll_loss(logits.bfloat16(), target)),
        "cross_entropy": ("aten::cross_entropy_loss", lambda: F.cross_entropy(logits.bfloat16(), target)),
        "mse_loss": ("aten::mse_loss", lambda: F.mse_loss(logits.bfloat16(), probs.bfloat16())),
        "l1_loss": ("aten::l1_loss", lambda: F.l1_loss(logits.bfloat16(), probs.bfloat16())),
        "smooth_l1_loss": ("aten::smooth_l1_loss", lambda: F.smooth_l1_loss(logits.bfloat16(), probs.bfloat16())),
        "huber_loss": ("aten::huber_loss", lambda: F.huber_loss(logits.bfloat16(), probs.bfloat16())),
        "kl_div": ("aten::kl_div", lambda: F.kl_div(logits.bfloat16(), probs.bfloat16(), reduction="batchmean")),
        "bce": ("aten::binary_cross_entropy", lambda: F.binary_cross_entropy(probs.bfloat16(), probs.bfloat16())),
        "bce_logits": ("aten::binary_cross_entropy_with_logits",
                       lambda: F.binary_cross_entropy_with_logits(logits.bfloat16(), probs.bfloat16())),
        "prod": ("aten::prod", lambda: torch.prod(m1.bfloat16())),
        "prod_dim": ("aten::prod.dim_int", lambda: torch.prod(m1.bfloat16(), 1)),
        "trace": ("aten::trace", lambda: torch.trace(m1.bfloat16())),
        "cdist": ("aten::cdist", lambda: torch.cdist(m1.bfloat16(), m1.bfloat16())),
        "inverse": ("aten::inverse", lambda: torch.inverse(torch.eye(3).bfloat16() * 2)),
        "fft_rfft": ("aten::fft_rfft", lambda: torch.fft.rfft(m1.bfloat16())),
        "layer_norm_falls_through": (None, lambda: F.layer_norm(m1, (4,))),
        "add_falls_through": (None, lambda: m1 + m1.bfloat16()),
        "softmax_falls_through": (None, lambda: torch.softmax(m1, -1)),
    }


def autocast_cases():
    out = {}
    for name, (op, fn) in autocast_op_cases().items():
        def under(fn=fn, dtype=torch.bfloat16):
            with torch.autocast("cpu", dtype=dtype):
                return fn()
        out[name] = dict(run_case(under), op=op)
        out[name + " float16"] = dict(run_case(lambda fn=fn: under(fn, torch.float16)), op=op)

    def cache(enabled):
        torch.manual_seed(0)
        lin = torch.nn.Linear(4, 3)
        xin = torch.randn(2, 4)
        with torch.autocast("cpu", cache_enabled=enabled):
            first = lin(xin)
            with torch.no_grad():
                lin.weight.add_(1.0)  # a cached cast keeps the old weights until the region ends
            second = lin(xin)
        third = lin(xin)
        return first, second, third, torch.equal(first, second)

    def nested():
        a, b = torch.ones(2, 2), torch.ones(2, 2)
        with torch.autocast("cpu"):
            r1 = (a @ b).dtype
            with torch.autocast("cpu", enabled=False):
                r2 = (a @ b).dtype, torch.is_autocast_enabled("cpu")
                with torch.autocast("cpu", dtype=torch.float16):
                    r3 = (a @ b).dtype, torch.get_autocast_dtype("cpu")
            r4 = (a @ b).dtype, torch.get_autocast_dtype("cpu")
        return r1, r2, r3, r4, torch.is_autocast_enabled("cpu"), (a @ b).dtype

    def decorated():
        @torch.autocast("cpu")
        def f(a):
            return a @ a
        return f(torch.ones(2, 2)).dtype

    def unsupported_dtype():
        with torch.autocast("cpu", dtype=torch.float32):
            return (torch.ones(2, 2) @ torch.ones(2, 2)).dtype, torch.is_autocast_enabled("cpu")

    def cuda_on_cpu_build():
        with torch.autocast("cuda"):
            return (torch.ones(2, 2) @ torch.ones(2, 2)).dtype

    def inside_op_excluded():
        seen = []

        class Mode(torch.utils._python_dispatch.TorchDispatchMode):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                seen.append((str(func), torch.is_autocast_enabled("cpu")))
                return func(*args, **(kwargs or {}))

        with torch.autocast("cpu"), Mode():
            r = torch.mm(torch.ones(2, 2), torch.ones(2, 2))
        return r.dtype, seen

    def model_forward():
        torch.manual_seed(1)
        net = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.GELU(), torch.nn.LayerNorm(16),
                                  torch.nn.Linear(16, 4))
        with torch.autocast("cpu"):
            y = net(torch.randn(3, 8))
            loss = torch.nn.functional.cross_entropy(y, torch.tensor([0, 1, 2]))
        return y, loss

    out.update(run_group({
        "cache_enabled": lambda: cache(True),
        "cache_disabled": lambda: cache(False),
        "nested": nested,
        "decorator": decorated,
        "float32_dtype_disables": unsupported_dtype,
        "cuda_on_cpu_build": cuda_on_cpu_build,
        "excluded_inside_the_op": inside_op_excluded,
        "model_forward": model_forward,
        "state_after": lambda: (torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"),
                                torch.is_autocast_cache_enabled()),
    }))
    return out


def autocast_registrations():
    """Upstream's AutocastCPU registrations (upstream) or our policy table (ours), and how we
    compute each listed op."""
    if hasattr(torch._C, "_torchnative"):
        pol = torch._C._torchnative.autocast_policies()
        return {"ops": sorted(pol), "routes": {k: torch._C._torchnative.route(k) for k in pol}}
    return {"ops": sorted(torch._C._dispatch_get_registrations_for_dispatch_key("AutocastCPU"))}


# ---------------------------------------------------------------- overlap

# Upstream computes these over memory it reads while writing, in its own loop order (Note
# [Overlap rules]): both sides must compute; the values are compared only where order cannot
# matter.
OVERLAP_ORDER_DEPENDENT = {"shifted_add_", "broadcast_column_input", "copy_transposed_subview", "mm_out_self",
                           "sum_out_overlapping_input"}


def overlap_cases():
    def a34():
        return torch.arange(12.0).reshape(3, 4)

    def ar(n):
        return torch.arange(float(n))

    return run_group({
        "add_self": lambda: (lambda a: a.add_(a))(a34()),
        "shifted_add_": lambda: (lambda a: (a[:, 1:].add_(a[:, :-1]), a)[1])(a34()),
        "shifted_1d": lambda: (lambda a: a[1:].add_(a[:-1]))(ar(6)),
        "strided_copy": lambda: (lambda a: (a[::2].copy_(a[1::2]), a)[1])(ar(8)),
        "copy_transposed_square": lambda: (lambda a: a.copy_(a.t()))(ar(9).reshape(3, 3)),
        "copy_transposed_subview": lambda: (lambda a: (a[:2, :2].copy_(a[:2, :2].t()), a)[1])(ar(9).reshape(3, 3)),
        "out_is_input": lambda: (lambda a: torch.add(a, 1, out=a))(a34()),
        "out_partial": lambda: (lambda a: (torch.add(a[:3], 1, out=a[1:4]), a)[1])(ar(6)),
        "inplace_on_expanded": lambda: (lambda a: a.expand(3, 4).add_(1))(torch.zeros(4)),
        "broadcast_column_input": lambda: (lambda a: (a.add_(a[:, 0:1]), a)[1])(a34()),
        "rows_minus_previous": lambda: (lambda a: (a[1:].sub_(a[:-1]), a)[1])(a34()),
        "transpose_add_self": lambda: (lambda a: a.add_(a.t()))(ar(4).reshape(2, 2)),
        "unsqueeze_and_view": lambda: (lambda a: a.unsqueeze(0).add_(a.view(1, 4)))(ar(4)),
        "out_broadcast_self": lambda: (lambda a: (torch.add(a, a[0], out=a), a)[1])(ar(6).reshape(2, 3)),
        "copy_same_view": lambda: (lambda a: a[0:2].copy_(a[0:2]))(a34()),
        "copy_through_dtype_view": lambda: (lambda a: (a.view(torch.int32).copy_(a.view(torch.int32).flip(0)), a)[1])(ar(4)),
        "where_out_self": lambda: (lambda a: torch.where(a > 5, a, torch.zeros(1), out=a))(a34()),
        "where_out_partial": lambda: (lambda a: (torch.where(a[:3] > 1, a[:3], a[1:4], out=a[1:4]), a)[1])(ar(5)),
        "clamp_out_partial": lambda: (lambda a: (torch.clamp(a[:4], 0, 3, out=a[2:6]), a)[1])(ar(8)),
        "neg_out_partial": lambda: (lambda a: (torch.neg(a[:4], out=a[1:5]), a)[1])(ar(6)),
        "exp_out_transposed_input": lambda: (lambda a: torch.exp(a.t(), out=a))(torch.zeros(3, 3)),
        "lerp_partial": lambda: (lambda a: a[1:].lerp_(a[:-1], 0.5))(ar(5)),
        "addcmul_partial": lambda: (lambda a: a[1:].addcmul_(a[:-1], a[:-1]))(ar(5)),
        "pow_self": lambda: (lambda a: a.pow_(a))(torch.arange(1.0, 4.0)),
        "relu_on_view": lambda: (lambda a: torch.relu_(a[1:]))(torch.arange(-3.0, 3.0)),
        "diagonal_add_row": lambda: (lambda a: (a.diagonal().add_(a[0]), a)[1])(ar(9).reshape(3, 3)),
        "fill_expanded": lambda: (lambda a: a.expand(3, 4).fill_(1))(torch.zeros(4)),
        "zero_expanded": lambda: (lambda a: a.expand(3, 4).zero_())(torch.zeros(4)),
        "copy_into_expanded": lambda: (lambda a: a.expand(3, 4).copy_(torch.ones(3, 4)))(torch.zeros(4)),
        "masked_fill_expanded": lambda: (lambda a: a.expand(2, 3).masked_fill_(torch.tensor([True, False, True]), 1.0))(
            torch.zeros(3)),
        "masked_fill_expanded_mask": lambda: torch.zeros(2, 3).masked_fill_(torch.tensor([True, False, True]).expand(2, 3), 1.0),
        "masked_fill_mask_overlaps": lambda: (lambda a: a.view(torch.bool).masked_fill_(a.view(torch.bool), True))(
            torch.zeros(4, dtype=torch.uint8)),
        "masked_fill_bad_broadcast": lambda: torch.ones(3).masked_fill_(torch.ones(2, 3, dtype=torch.bool), 1.0),
        "setitem_shifted": lambda: (lambda a: (a.__setitem__(slice(1, None), a[:-1]), a)[1])(ar(6)),
        "setitem_self": lambda: (lambda a: (a.__setitem__(slice(None), a), a)[1])(ar(6)),
        "mm_out_self": lambda: (lambda a: torch.mm(a, a, out=a))(torch.eye(2) * 2),
        "matmul_out_fresh": lambda: torch.matmul(torch.ones(2, 2), torch.ones(2, 2), out=torch.zeros(2, 2)),
        "sum_out_overlapping_input": lambda: (lambda a: (torch.sum(a, 0, out=a[0]), a)[1])(a34()),
        "cumsum_out_self": lambda: (lambda a: torch.cumsum(a, 0, out=a))(ar(4)),
        "cumsum_out_partial": lambda: (lambda a: (torch.cumsum(a[:3], 0, out=a[1:4]), a)[1])(ar(5)),
        "cumsum_out_apart": lambda: (lambda a: (torch.cumsum(a[:2], 0, out=a[2:4]), a)[1])(ar(5)),
        "index_select_out_self": lambda: (lambda a: torch.index_select(a, 0, torch.tensor([1, 0]), out=a))(ar(4).reshape(2, 2)),
        "index_select_out_partial": lambda: (lambda a: torch.index_select(a, 0, torch.tensor([0]), out=a[1:2]))(ar(4)),
        "gather_out_self": lambda: (lambda a: torch.gather(a, 1, torch.tensor([[1, 0], [0, 1]]), out=a))(ar(4).reshape(2, 2)),
        "scatter_src_self": lambda: (lambda a: a.scatter_(1, torch.zeros(3, 4, dtype=torch.long), a))(a34()),
        "scatter_src_partial": lambda: (lambda a: a.scatter_(0, torch.tensor([0]), a[1:2]))(ar(4)),
        "scatter_add_src_partial": lambda: (lambda a: a.scatter_add_(0, torch.tensor([0]), a[1:2]))(ar(4)),
        "scatter_functional_overlap": lambda: (lambda a: torch.scatter(a, 0, torch.tensor([0]), a[1:2]))(ar(4)),
        "cat_out_is_input": lambda: (lambda a, b: torch.cat([a, b], out=a))(torch.ones(2), torch.zeros(2)),
        "cat_out_partial": lambda: (lambda a: torch.cat([a[:1], a[2:3]], out=a[1:3]))(ar(4)),
        "index_put_values_overlap": lambda: (lambda a: a.index_put_((torch.tensor([0, 1]),), a[1:3]))(a34()),
        "index_put_values_apart": lambda: (lambda a: a[1:].index_put_((torch.tensor([0]),), a[0:1]))(ar(4)),
        "index_put_expanded": lambda: (lambda a: a.expand(2, 3).index_put_((torch.tensor([0]),), torch.ones(3)))(torch.zeros(3)),
    })


# ---------------------------------------------------------------- refusals

def _jit_target(x):
    return x * 2


def refusal_cases():
    """What a user reaches that torchnative does not do: the message (checked on our side)."""
    F = torch.nn.functional
    return run_group({
        "compile": lambda: torch.compile(_jit_target),
        "jit_script": lambda: torch.jit.script(_jit_target),
        "jit_trace": lambda: torch.jit.trace(_jit_target, torch.ones(2)),
        "export": lambda: torch.export.export(torch.nn.Linear(2, 2), (torch.ones(1, 2),)),
        "func_vmap": lambda: torch.func.vmap(_jit_target)(torch.ones(2)),
        "vmap": lambda: torch.vmap(_jit_target)(torch.ones(2)),
        "func_grad": lambda: torch.func.grad(lambda x: x.sum())(torch.ones(2)),
        "func_jacrev": lambda: torch.func.jacrev(_jit_target)(torch.ones(2)),
        # bicubic computes now (torch._decomp through _unsafe_index), so does bilinear antialiasing;
        # bicubic antialiasing still refuses
        "interpolate_antialias": lambda: F.interpolate(torch.ones(1, 1, 4, 4), scale_factor=2, mode="bicubic",
                                                       antialias=True),
        # (bincount was the example until it became a composition, session 28; lstsq until it got a
        # kernel, session 29)
        "matrix_exp": lambda: torch.linalg.matrix_exp(torch.eye(2)),
        "matrix_exp_aten": lambda: torch.ops.aten.linalg_matrix_exp(torch.eye(2)),
        "ones_complex32": lambda: torch.ones(2, dtype=torch.complex32),
        "sharing_strategy_file_system": lambda: (
            torch.multiprocessing.set_sharing_strategy("file_system"),
            torch.ones(2).share_memory_(),
            torch.multiprocessing.set_sharing_strategy("file_descriptor"))[1],
        "assert_close_mismatch": lambda: torch.testing.assert_close(torch.ones(2), torch.zeros(2)),
    })


# ---------------------------------------------------------------- results of several tensors

def return_types_cases():
    """torch.return_types printed, and medians of integer and bool tensors (sorted in Python)."""
    return run_group({
        "print_return_types": lambda: (repr(torch.max(torch.tensor([[1.0, 2.0], [3.0, 0.0]]), 1)),
                                       str(torch.linalg.slogdet(torch.eye(2)))),
        "median_of_empty_int64": lambda: torch.median(torch.tensor([], dtype=torch.int64)),
        "median_int64_dim": lambda: torch.median(torch.tensor([[3, -9, 7], [2**40, 5, -1]]), 1),
        "median_bool": lambda: torch.median(torch.tensor([True, False])),
        "nanmedian_bool_dim": lambda: torch.nanmedian(torch.tensor([[True, False]]), 1),
    })


# ---------------------------------------------------------------- main

GROUPS = {"rows": rows, "numpy": numpy_cases, "dataloader": dataloader, "multiprocessing": multiprocessing_cases,
          "overlap": overlap_cases, "autocast": autocast_cases, "autocast_registrations": autocast_registrations,
          "refusals": refusal_cases, "return_types": return_types_cases}


def main():
    """all DIR: every group, and the save group into DIR (one process: torch imports once);
    load DIR...: each directory's files; pipeline [--float64 | --both]; or one group by name."""
    group, args = sys.argv[1], sys.argv[2:]
    res = {"torch_file": torch.__file__}
    if group == "all":
        for name, fn in GROUPS.items():
            res[name] = fn()
        res["save"] = save(args[0])
        res["save"]["layout"] = zip_layout(args[0])
    elif group == "load":
        for d in args:
            res[d] = load(d)
    elif group == "pipeline":
        if "--both" in args:
            res["float32"] = pipeline_cases(torch.float32)
            res["float64"] = pipeline_cases(torch.float64)
        else:
            res.update(pipeline_cases(torch.float64 if "--float64" in args else torch.float32))
    elif group in GROUPS:
        res.update(GROUPS[group]())
    else:
        raise SystemExit(f"unknown group {group}")
    json.dump(res, sys.stdout)


if __name__ == "__main__":
    main()
