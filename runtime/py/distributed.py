"""torch.distributed's native half: _c10d_init, the _Dist*Error exceptions, torch._C._distributed
(placements) and torch._C._distributed_c10d (stores, ProcessGroup/Backend/Work, ReduceOp, options,
FakeProcessGroup, registry, ProcessGroupGloo), built inside _c10d_init as upstream does. The C
half (stores, the star engine) is torch._C._tn_c10d (runtime/c10d_*.c); this file gives it
upstream's class shapes. See Note [gloo is served by the star backend]. To add a name: define it
in _build() and list it in `exported` at its end."""

# Note [gloo is served by the star backend]
# torch.distributed's Python picks a CPU backend by the name "gloo" (backend="gloo", and
# backend=None on a machine without accelerators) and builds it as
# torch._C._distributed_c10d.ProcessGroupGloo(store, rank, size, timeout), as it does for
# upstream's own gloo. torchnative answers that name with its own C backend (runtime/c10d_star.c:
# rank 0 is a hub every rank connects to; reductions fold in rank order), registered in the
# same place upstream's is, and says so once in a UserWarning: it is not gloo's wire format, so
# a group cannot mix torchnative ranks with upstream ranks running real gloo. NCCL, MPI, UCC and
# XCCL stay absent (ImportError at `from torch._C._distributed_c10d import ProcessGroupNCCL`).
# A ProcessGroup dispatches each collective to the Backend registered for its tensors' device,
# as c10d does (FakeProcessGroup moves no data, as upstream's).

import datetime
import os
import sys
import threading
import time


def _exceptions():
    # Upstream creates these with PyErr_NewException("torch.distributed.<Name>", ...).
    def make(name, base, doc):
        cls = type(name, (base,), {"__doc__": doc, "__module__": "torch.distributed"})
        return cls
    DistError = make("DistError", RuntimeError, "Exception raised when an error occurs in the "
                     "distributed library")
    DistBackendError = make("DistBackendError", DistError, "Exception raised when a backend "
                            "error occurs in distributed")
    DistNetworkError = make("DistNetworkError", DistError, "Exception raised when a network "
                            "error occurs in distributed")
    DistStoreError = make("DistStoreError", DistError, "Exception raised when an error occurs "
                          "in the distributed store")
    QueueEmptyError = make("QueueEmptyError", DistStoreError, "Exception raised when an error "
                           "occurs in the distributed store")
    return {"_DistError": DistError, "_DistBackendError": DistBackendError,
            "_DistNetworkError": DistNetworkError, "_DistStoreError": DistStoreError,
            "_DistQueueEmptyError": QueueEmptyError}


# c10d's kUnsetTimeout (-1 ms) and the defaults of init.cpp.
_UNSET_TIMEOUT = datetime.timedelta(milliseconds=-1)

_MODNAME = "torch._C._distributed_c10d"


_STATES = {}


def _build_state(C):
    """The registries _build's functions share (also read by _install_functional)."""
    return _STATES.setdefault(id(C), {"works": {}})


def _build(C):
    support = C._tn_support
    make_enum = support.make_enum
    refuse = support.refuse
    def _no_constructor(name):
        def __init__(self, *args, **kwargs):
            raise TypeError(f"{_MODNAME}.{name}: No constructor defined!")
        return __init__

    # ---- enums ------------------------------------------------------------------------------
    BuiltinCommHookType = make_enum("BuiltinCommHookType", [("ALLREDUCE", 1), ("FP16_COMPRESS", 2)],
                                    module=_MODNAME)
    DebugLevel = make_enum("DebugLevel", [("OFF", 0), ("INFO", 1), ("DETAIL", 2)], module=_MODNAME)
    ErrorType = make_enum("ErrorType", [("SUCCESS", 0), ("TIMEOUT", 1), ("COMM_ERROR", 2),
                                        ("REMOTE_ERROR", 3)], module=_MODNAME)
    OpType = make_enum("OpType", [(n, i) for i, n in enumerate((
        "BROADCAST", "ALLREDUCE", "ALLREDUCE_COALESCED", "REDUCE", "ALLGATHER", "_ALLGATHER_BASE",
        "ALLGATHER_COALESCED", "GATHER", "SCATTER", "REDUCE_SCATTER", "ALLTOALL_BASE", "ALLTOALL",
        "SEND", "RECV", "RECVANYSOURCE", "BARRIER", "_REDUCE_SCATTER_BASE", "COALESCED",
        "_ALLREDUCE_SPARSE", "REDUCE_SCATTER_TENSOR_COALESCED"))] + [("UNKNOWN", 100)],
        module=_MODNAME)
    WorkResult = make_enum("WorkResult", [("SUCCESS", 0), ("TIMEOUT", 1), ("COMM_ERROR", 2),
                                          ("UNKNOWN", 100)], module=_MODNAME)

    # ---- stores: C types (runtime/c10d_store.c) -------------------------------------------
    T = C._tn_c10d
    Store, HashStore, FileStore, TCPStore, PrefixStore = (
        T.Store, T.HashStore, T.FileStore, T.TCPStore, T.PrefixStore)

    # ---- ReduceOp ---------------------------------------------------------------------------

    RedOpType = make_enum("RedOpType", [
        ("SUM", 0), ("AVG", 1), ("PRODUCT", 2), ("MIN", 3), ("MAX", 4), ("BAND", 5), ("BOR", 6),
        ("BXOR", 7), ("PREMUL_SUM", 8)], module=_MODNAME, qualname="ReduceOp.RedOpType")

    class _ReduceOpMeta(type):
        """Makes `ReduceOp.SUM` (a RedOpType) an instance of ReduceOp, as upstream's does."""

        def __instancecheck__(cls, instance):
            if isinstance(instance, RedOpType):
                return True
            return super().__instancecheck__(instance)

    class ReduceOp(metaclass=_ReduceOpMeta):
        def __init__(self, op):
            if not isinstance(op, RedOpType):
                raise TypeError("__init__(): incompatible constructor arguments. The following "
                                "argument types are supported:\n    1. (self, op: RedOpType)")
            self.op = op
            self._factor = None

        @property
        def factor(self):
            if self.op != RedOpType.PREMUL_SUM:
                raise RuntimeError("Only PREMUL_SUM supports accessing factor")
            return self._factor

        def __eq__(self, other):
            if isinstance(other, RedOpType):
                return self.op == other
            if isinstance(other, ReduceOp):
                return self.op == other.op
            return NotImplemented

        def __hash__(self):
            return hash(self.op._value_)

        def __copy__(self):
            new = ReduceOp(self.op)
            new._factor = self._factor
            return new

        def __deepcopy__(self, memo):
            return self.__copy__()

        def __getstate__(self):
            return (self.op._value_, self._factor)

        def __setstate__(self, state):
            self.op = RedOpType(state[0])
            self._factor = state[1]

    def _red_op_call(self, factor):
        if self != RedOpType.PREMUL_SUM:
            raise RuntimeError(f"Only PREMUL_SUM supports calling with a factor, got {self}")
        op = ReduceOp(RedOpType.PREMUL_SUM)
        op._factor = factor
        return op

    RedOpType.__call__ = _red_op_call
    ReduceOp.RedOpType = RedOpType
    for name, member in RedOpType.__members__.items():
        setattr(ReduceOp, name, member)

    def _make_nccl_premul_sum(factor):
        return RedOpType.PREMUL_SUM(factor)

    # ---- options ----------------------------------------------------------------------------

    def _options(name, fields, base=object):
        def __init__(self):
            if base is not object:
                base.__init__(self)
            for f, default in fields:
                setattr(self, f, default() if callable(default) else default)
        return type(name, (base,), {"__init__": __init__, "__module__": _MODNAME})

    def _sum():
        return ReduceOp(RedOpType.SUM)

    common = [("timeout", _UNSET_TIMEOUT), ("asyncOp", True)]
    BroadcastOptions = _options("BroadcastOptions", [("rootRank", 0), ("rootTensor", 0)] + common)
    AllreduceOptions = _options("AllreduceOptions", [("reduceOp", _sum)] + common)
    AllreduceCoalescedOptions = _options("AllreduceCoalescedOptions", [], AllreduceOptions)
    ReduceOptions = _options("ReduceOptions", [("reduceOp", _sum), ("rootRank", 0),
                                               ("rootTensor", 0)] + common)
    AllgatherOptions = _options("AllgatherOptions", common)
    GatherOptions = _options("GatherOptions", [("rootRank", 0)] + common)
    ScatterOptions = _options("ScatterOptions", [("rootRank", 0)] + common)
    ReduceScatterOptions = _options("ReduceScatterOptions", [("reduceOp", _sum)] + common)
    BarrierOptions = _options("BarrierOptions", [("device_ids", list), ("device", None)] + common)
    AllToAllOptions = _options("AllToAllOptions", common)
    _DistributedBackendOptions = _options("_DistributedBackendOptions", [
        ("store", None), ("group_rank", 0), ("group_size", 0),
        ("timeout", datetime.timedelta(0)), ("group_id", ""), ("global_ranks_in_group", list)])

    # ---- Work -------------------------------------------------------------------------------

    class Work:
        """c10d::Work. A bare Work never completes; subclasses (and backends) complete it."""

        def __init__(self):
            pass

        def is_completed(self):
            return False

        def is_success(self):
            return True

        def exception(self):
            return None

        def wait(self, timeout=_UNSET_TIMEOUT):
            # c10d would block forever on a Work that no backend completes.
            refuse(f"{_MODNAME}.Work.wait", "this Work has no backend that could complete it")

        def get_future(self):
            raise RuntimeError("Work::getFuture not implemented.")

        def get_future_result(self):
            raise RuntimeError("Work::getFutureResult not implemented.")

        def source_rank(self):
            raise RuntimeError("sourceRank() may only be called on work objects that correspond "
                               "to a recv or recv-from-any call.")

        _source_rank = source_rank

        def result(self):
            raise RuntimeError("result() not implemented.")

        def synchronize(self):
            pass

        def block_current_stream(self):
            pass

        def _get_op_type(self):
            return OpType.UNKNOWN

        def _get_duration(self):
            raise RuntimeError("Work::getDuration not implemented.")

        def boxed(self):
            refuse(f"{_MODNAME}.Work.boxed", "TorchScript objects are not implemented")

        @staticmethod
        def unbox(obj):
            refuse(f"{_MODNAME}.Work.unbox", "TorchScript objects are not implemented")

    def _done_future(value):
        import torch
        fut = torch.futures.Future()
        fut.set_result(value)
        return fut

    class FakeWork(Work):
        """What FakeProcessGroup's collectives return: done, with no data moved."""

        def __init__(self):
            super().__init__()
            self.seq_id = -1

        def wait(self, timeout=_UNSET_TIMEOUT):
            return True

        def getFuture(self):
            return self.get_future()

        def get_future(self):
            return _done_future(None)

    class PythonCallbackWork(Work):
        def __init__(self, callback):
            super().__init__()
            self._callback = callback

        def wait(self, timeout=_UNSET_TIMEOUT):
            return self._callback(timeout)

        def get_future(self):
            raise RuntimeError("PythonCallbackWork::getFuture not implemented.")

    # ---- Backend ----------------------------------------------------------------------------

    _COLLECTIVES = (
        "allreduce", "allreduce_coalesced", "reduce", "allgather", "_allgather_base",
        "allgather_coalesced", "allgather_into_tensor_coalesced", "gather", "scatter",
        "reduce_scatter", "_reduce_scatter_base", "reduce_scatter_tensor_coalesced",
        "alltoall_base", "alltoall", "send", "recv", "recv_anysource", "barrier", "broadcast",
        "monitored_barrier",
    )

    class _BackendOptions:
        def __init__(self, backend, timeout=datetime.timedelta(seconds=1800)):
            self._backend = backend
            self._timeout = timeout
            self.global_ranks_in_group = []
            self.group_name = ""

        @property
        def backend(self):
            return self._backend

    class Backend:
        """c10d::Backend: the per-device implementation a ProcessGroup dispatches to."""

        Options = _BackendOptions
        __init__ = _no_constructor("Backend")

        def _setup(self, rank, size, name, options=None):
            self._rank = rank
            self._size = size
            self._name = name
            self._options = options or _BackendOptions(name)
            return self

        def rank(self):
            return self._rank

        def size(self):
            return self._size

        def name(self):
            return self._name

        _get_backend_name = name

        @property
        def options(self):
            return self._options

        supports_splitting = property(lambda self: False)
        supports_coalescing = property(lambda self: False)
        supports_time_estimate = property(lambda self: False)
        supports_shrinking = property(lambda self: False)

        def supports_tensor_alloc(self, device):
            return False

        def set_timeout(self, timeout):
            self._options._timeout = timeout

        def abort(self):
            pass

        def shutdown(self):
            pass

        def eager_connect_single_device(self, device):
            pass

        def _set_sequence_number_for_group(self):
            pass

        def _get_sequence_number_for_group(self):
            return 0

    def _unsupported(name):
        def method(self, *args, **kwargs):
            raise RuntimeError(f"Backend {self.name()} does not support {name}")
        method.__name__ = name
        return method

    for _name in _COLLECTIVES:
        setattr(Backend, _name, _unsupported(_name))

    class _FakeOptions(_BackendOptions):
        def __init__(self):
            super().__init__("fake")
            self.fake_option = 0
            self.error_on_collective = False

    _FakeOptions.__qualname__ = "FakeProcessGroup.Options"
    _FakeOptions.__name__ = "Options"

    class FakeProcessGroup(Backend):
        """c10d::FakeProcessGroup: every collective succeeds at once and moves no data (for
        tracing and for tests that only need a process group to exist)."""

        Options = _FakeOptions
        __init__ = _no_constructor("FakeProcessGroup")

        @staticmethod
        def _create_internal(rank, world_size, options=None):
            pg = FakeProcessGroup.__new__(FakeProcessGroup)
            return pg._setup(rank, world_size, "fake", options or _FakeOptions())

    def _fake_collective(self, *args, **kwargs):
        if self._options.error_on_collective:
            raise RuntimeError("FakeProcessGroup collective operation error "
                               "(error_on_collective=true)")
        return FakeWork()

    for _name in _COLLECTIVES:
        setattr(FakeProcessGroup, _name, _fake_collective)

    # ---- ProcessGroup -----------------------------------------------------------------------

    BackendType = make_enum("BackendType", [
        ("UNDEFINED", 0), ("GLOO", 1), ("NCCL", 2), ("XCCL", 5), ("UCC", 3), ("MPI", 4),
        ("CUSTOM", 6)], module=_MODNAME, qualname="ProcessGroup.BackendType")
    _BACKEND_TYPE_NAMES = {0: "undefined", 1: "gloo", 2: "nccl", 3: "ucc", 4: "mpi", 5: "xccl",
                           6: "custom"}

    def _device_type(device):
        t = getattr(device, "type", None)
        if t is None:
            t = str(device).split(":", 1)[0]
        return t

    def _first_tensor_device(args):
        for a in args:
            if hasattr(a, "device") and hasattr(a, "dtype"):
                return _device_type(a.device)
            if isinstance(a, (list, tuple)):
                d = _first_tensor_device(a)
                if d is not None:
                    return d
        return None

    def _pg_metaclass():
        # Upstream's ProcessGroup is created with torch._opaque_base.OpaqueBaseMeta (so that
        # register_opaque_type(ProcessGroup, typ="reference") accepts it).
        # Only while torch itself is importing (or imported): a stand-in _C under test has no
        # torch package to import it from.
        if "torch" not in sys.modules:
            return type
        try:
            import importlib
            return importlib.import_module("torch._opaque_base").OpaqueBaseMeta
        except ImportError:
            return type

    class ProcessGroup(metaclass=_pg_metaclass()):
        """c10d::ProcessGroup: rank/size, a group store, and one Backend per device type that
        collectives are dispatched to (by the device of their tensors)."""

        def __init__(self, *args):
            if len(args) == 3:
                store, rank, size = args
            elif len(args) == 2:
                store, (rank, size) = None, args
            else:
                raise TypeError("__init__(): incompatible constructor arguments; expected "
                                "(store, rank, size) or (rank, size)")
            self._store = store
            self._rank = int(rank)
            self._size = int(size)
            self._backends = {}
            self._device_types_list = []
            self._default_backend_type = BackendType.UNDEFINED
            self._group_name = None
            self._group_desc = ""
            self._bound_device_id = None
            self._use_pg_for_symm_mem = False

        def rank(self):
            return self._rank

        def size(self):
            return self._size

        def get_group_store(self):
            return self._store

        def name(self):
            return _BACKEND_TYPE_NAMES[self._default_backend_type._value_]

        _get_backend_name = name

        @property
        def group_name(self):
            if self._group_name is None:
                raise RuntimeError("ProcessGroup name not set")
            return self._group_name

        @property
        def group_desc(self):
            return self._group_desc

        def _set_group_name(self, name):
            self._group_name = name

        def _set_group_desc(self, desc):
            self._group_desc = desc

        def _id(self):
            return id(self)

        @property
        def bound_device_id(self):
            return self._bound_device_id

        @bound_device_id.setter
        def bound_device_id(self, device):
            self._bound_device_id = device

        @property
        def use_pg_for_symm_mem_rendezvous(self):
            return self._use_pg_for_symm_mem

        @use_pg_for_symm_mem_rendezvous.setter
        def use_pg_for_symm_mem_rendezvous(self, value):
            self._use_pg_for_symm_mem = bool(value)

        @property
        def _device_types(self):
            import torch
            return [torch.device(t) for t in self._device_types_list]

        def _register_backend(self, device, backend_type, backend):
            t = _device_type(device)
            if t not in self._device_types_list:
                self._device_types_list.append(t)
            self._backends[t] = (backend_type, backend)

        def _set_default_backend(self, backend_type):
            self._default_backend_type = backend_type

        def _get_backend(self, device):
            t = _device_type(device)
            if t not in self._backends:
                raise RuntimeError(f"No backend type associated with device type {t}")
            return self._backends[t][1]

        def _backend_id(self, backend_type):
            for bt, backend in self._backends.values():
                if bt == backend_type:
                    return id(backend)
            raise RuntimeError(f"Could not find backend for backend type {backend_type}")

        def _has_hooks(self):
            return False

        def _wait_for_pending_works(self):
            pass

        def _set_sequence_number_for_group(self):
            pass

        def _get_sequence_number_for_group(self):
            return 0

        def _register_on_completion_hook(self, hook):
            refuse(f"{_MODNAME}.ProcessGroup._register_on_completion_hook")

        def _enable_collectives_timing(self):
            pass

        def abort(self):
            for _, backend in self._backends.values():
                backend.abort()

        def shutdown(self):
            for _, backend in self._backends.values():
                backend.shutdown()

        def set_timeout(self, timeout):
            for _, backend in self._backends.values():
                backend.set_timeout(timeout)

        def _start_coalescing(self, device):
            refuse(f"{_MODNAME}.ProcessGroup._start_coalescing")

        def _end_coalescing(self, device):
            refuse(f"{_MODNAME}.ProcessGroup._end_coalescing")

        def split_group(self, *args, **kwargs):
            refuse(f"{_MODNAME}.ProcessGroup.split_group")

        def merge_remote_group(self, *args, **kwargs):
            refuse(f"{_MODNAME}.ProcessGroup.merge_remote_group")

        def boxed(self):
            refuse(f"{_MODNAME}.ProcessGroup.boxed", "TorchScript objects are not implemented")

        @staticmethod
        def unbox(obj):
            refuse(f"{_MODNAME}.ProcessGroup.unbox", "TorchScript objects are not implemented")

    def _dispatching(name, backend_name=None):
        def method(self, *args, **kwargs):
            device = _first_tensor_device(args) or _first_tensor_device(kwargs.values())
            if device is None:
                device = self._device_types_list[0] if self._device_types_list else "cpu"
            backend = self._get_backend(device)
            return getattr(backend, backend_name or name)(*args, **kwargs)
        method.__name__ = name
        return method

    for _name in _COLLECTIVES:
        setattr(ProcessGroup, _name, _dispatching(_name))
    for _name, _target in (("all_gather_single", "_allgather_base"),
                           ("reduce_scatter_single", "_reduce_scatter_base"),
                           ("all_to_all_single", "alltoall_base"),
                           ("all_gather_single_coalesced", "allgather_into_tensor_coalesced"),
                           ("reduce_scatter_single_coalesced", "reduce_scatter_tensor_coalesced")):
        setattr(ProcessGroup, _name, _dispatching(_name, _target))
    ProcessGroup.BackendType = BackendType
    for _name, _member in BackendType.__members__.items():
        setattr(ProcessGroup, _name, _member)

    # ---- torchnative's CPU backend, serving "gloo" (runtime/c10d_star.c) ------------------
    # See Note [gloo is served by the star backend].

    _star_state = {"warned": False}
    _RED = {int(RedOpType.SUM): 0, int(RedOpType.AVG): 1, int(RedOpType.PRODUCT): 2,
            int(RedOpType.MIN): 3, int(RedOpType.MAX): 4, int(RedOpType.BAND): 5,
            int(RedOpType.BOR): 6, int(RedOpType.BXOR): 7}

    def _warn_gloo_once():
        if _star_state["warned"]:
            return
        _star_state["warned"] = True
        import warnings
        warnings.warn(
            "torchnative serves the 'gloo' backend (and backend=None on CPU) with its own C "
            "collective backend (runtime/c10d_star.c: a star of TCP connections to rank 0, "
            "reductions in rank order). It does not speak gloo's wire format: every rank of the "
            "group must run torchnative.", UserWarning, stacklevel=4)

    def _ms(td, default):
        if td is None:
            return default
        ms = T_timedelta_ms(td)
        return default if ms < 0 else ms

    def T_timedelta_ms(td):
        return (td.days * 86400000000 + td.seconds * 1000000 + td.microseconds) // 1000

    def _is_tensor(x):
        return hasattr(x, "dtype") and hasattr(x, "is_contiguous")

    def _redop_of(opts, who):
        op = getattr(opts, "reduceOp", opts)
        if op is None:
            op = RedOpType.SUM
        red = getattr(op, "op", op)
        if red == RedOpType.PREMUL_SUM:
            # upstream's gloo refuses it with this RuntimeError too
            raise RuntimeError(f"ProcessGroupGloo::{who}: Cannot use ReduceOp.PREMUL_SUM with "
                               "torchnative's CPU backend (it folds SUM, AVG, PRODUCT, MIN, MAX, "
                               "BAND, BOR, BXOR)")
        return _RED[int(red)]

    _INT_DTYPES = ("torch.bool", "torch.uint8", "torch.int8", "torch.int16", "torch.int32",
                   "torch.int64", "torch.uint16", "torch.uint32", "torch.uint64")
    _BIT_NAMES = {5: "BAND", 6: "BOR", 7: "BXOR"}

    def _check_redop(red, t, who):
        d = str(t.dtype)
        if red in _BIT_NAMES and d not in _INT_DTYPES:
            raise RuntimeError(f"{who}: Cannot use ReduceOp.{_BIT_NAMES[red]} with non-integral "
                               f"dtype {d}")
        if red == 1 and (d in _INT_DTYPES or t.is_complex()):
            raise RuntimeError(f"{who}: ReduceOp.AVG needs a floating dtype, got {d} (use SUM "
                               "and divide)")
        if t.is_complex() and red != 0:
            raise RuntimeError(f"{who}: complex tensors reduce with SUM or AVG only, got "
                               f"{t.dtype}")

    def _staged(t, post, copy_in=True):
        """A contiguous tensor to hand the engine for t; when t is not contiguous a temporary
        whose result is copied back into t after the wait."""
        if t.is_contiguous():
            return t
        tmp = t.contiguous() if copy_in else t.new_empty(t.shape)
        post.append(lambda: t.copy_(tmp))
        return tmp

    def _real(t):
        import torch
        return torch.view_as_real(t) if t.is_complex() else t

    class _TNWork(Work):
        """The Work of torchnative's backend: waits on the engine's ops (GIL released), then
        copies results into non-contiguous outputs."""

        def __init__(self, handles, op_type, result, post=()):
            super().__init__()
            self._handles = handles
            self._op_type = op_type
            self._result = result
            self._post = list(post)

        def wait(self, timeout=_UNSET_TIMEOUT):
            ms = T_timedelta_ms(timeout) if timeout is not None else -1
            for h in self._handles:
                h.wait(ms if ms > 0 else -1)
            post, self._post = self._post, []
            for fn in post:
                fn()
            return True

        def is_completed(self):
            return all(h.is_completed() for h in self._handles) and not self._post

        def is_success(self):
            return all(h.is_success() for h in self._handles)

        def exception(self):
            for h in self._handles:
                e = h.error()
                if e is not None:
                    return C._DistBackendError(e)
            return None

        def source_rank(self):
            return self._handles[0].source_rank()

        _source_rank = source_rank

        def result(self):
            return self._result

        def get_future(self):
            # Completed by waiting: the future is done when it is returned.
            self.wait()
            return _done_future(self._result)

        def get_future_result(self):
            return self.get_future()

        def _get_op_type(self):
            return self._op_type

    class _GlooOptions(_BackendOptions):
        def __init__(self, timeout=datetime.timedelta(seconds=1800)):
            super().__init__("gloo", timeout)
            self.devices = []
            self.threads = 2

    _GlooOptions.__qualname__ = "ProcessGroupGloo.Options"
    _GlooOptions.__name__ = "Options"

    class _GlooDevice:
        __init__ = _no_constructor("ProcessGroupGloo.Device")

    class ProcessGroupGloo(Backend):
        """Backend "gloo" as torchnative serves it: runtime/c10d_star.c's star engine (see
        Note [gloo is served by the star backend]); not gloo's wire format."""

        Options = _GlooOptions
        Device = _GlooDevice

        def __init__(self, store, rank, size, timeout=datetime.timedelta(seconds=1800)):
            opts = timeout if isinstance(timeout, _GlooOptions) else _GlooOptions(timeout)
            self._setup(int(rank), int(size), "gloo", opts)
            _warn_gloo_once()
            self._seq = 0
            self._star = T._Star(store, int(rank), int(size), _ms(opts._timeout, 1800000))

        @staticmethod
        def create_device(hostname="", interface="", lazy_init=None):
            refuse(f"{_MODNAME}.ProcessGroupGloo.create_device",
                   "torchnative's backend listens where TORCHNATIVE_DIST_ADDR says (default: the "
                   "store's address, else loopback); gloo devices do not apply")

        @staticmethod
        def create_default_device(lazy_init=None):
            refuse(f"{_MODNAME}.ProcessGroupGloo.create_default_device",
                   "torchnative's backend listens where TORCHNATIVE_DIST_ADDR says")

        def _set_default_timeout(self, timeout):
            self._options._timeout = timeout

        def set_timeout(self, timeout):
            self._options._timeout = timeout

        def _set_sequence_number_for_group(self):
            pass

        def _get_sequence_number_for_group(self):
            return self._seq

        def abort(self):
            self._star.abort(f"[rank {self._rank}] the process group was aborted")

        def shutdown(self):
            self._star.shutdown()

        def _timeout_ms(self, opts):
            t = getattr(opts, "timeout", None)
            ms = T_timedelta_ms(t) if t is not None else -1
            return ms if ms > 0 else _ms(self._options._timeout, 1800000)

        def _submit(self, kind, opts=None, **kw):
            self._seq += 1
            return self._star.submit(kind, timeout_ms=self._timeout_ms(opts), **kw)

        def _one(self, tensors, who):
            if _is_tensor(tensors):
                return tensors
            if len(tensors) != 1:
                raise RuntimeError(f"ProcessGroupGloo::{who}: requires a single-element tensor "
                                   f"list, got {len(tensors)} (torchnative's backend takes one "
                                   "tensor per call)")
            return tensors[0]

        # -- the collectives ------------------------------------------------------------------

        def allreduce(self, tensors, opts=None):
            t = self._one(tensors, "allreduce")
            red = _redop_of(opts, "allreduce")
            _check_redop(red, t, "ProcessGroupGloo::allreduce")
            post = []
            buf = _staged(_real(t), post)
            h = self._submit(T.STAR_ALLREDUCE, opts, buf=buf, redop=red)
            return _TNWork([h], OpType.ALLREDUCE, [t], post)

        def allreduce_coalesced(self, tensors, opts=None):
            import torch
            if not tensors:
                raise RuntimeError("ProcessGroupGloo::allreduce_coalesced: requires non-empty "
                                   "tensor list")
            if len({t.dtype for t in tensors}) != 1:
                raise RuntimeError("ProcessGroupGloo::allreduce_coalesced: tensors must all have "
                                   "the same type")
            red = _redop_of(opts, "allreduce_coalesced")
            _check_redop(red, tensors[0], "ProcessGroupGloo::allreduce_coalesced")
            flat = torch.cat([_real(t).reshape(-1) for t in tensors])
            h = self._submit(T.STAR_ALLREDUCE, opts, buf=flat, redop=red)

            def scatter_back():
                off = 0
                for t in tensors:
                    n = _real(t).numel()
                    _real(t).copy_(flat[off:off + n].view(_real(t).shape))
                    off += n
            return _TNWork([h], OpType.ALLREDUCE_COALESCED, tensors, [scatter_back])

        def broadcast(self, tensors, opts=None):
            t = self._one(tensors, "broadcast")
            root = getattr(opts, "rootRank", opts if isinstance(opts, int) else 0)
            post = []
            buf = _staged(_real(t), post)
            h = self._submit(T.STAR_BROADCAST, opts, buf=buf, root=int(root))
            return _TNWork([h], OpType.BROADCAST, [t], post)

        def reduce(self, tensors, opts=None):
            t = self._one(tensors, "reduce")
            red = _redop_of(opts, "reduce")
            _check_redop(red, t, "ProcessGroupGloo::reduce")
            root = int(getattr(opts, "rootRank", 0))
            post = []
            buf = _staged(_real(t), post)
            h = self._submit(T.STAR_REDUCE, opts, buf=buf, root=root, redop=red)
            return _TNWork([h], OpType.REDUCE, [t], post)

        def _gather_parts(self, outs, like, who, post):
            if len(outs) != self._size:
                raise RuntimeError(f"ProcessGroupGloo::{who}: invalid output tensor list: "
                                   f"expected {self._size} tensors, got {len(outs)}")
            parts = []
            for o in outs:
                if o.numel() != like.numel() or o.dtype != like.dtype:
                    raise RuntimeError(f"ProcessGroupGloo::{who}: invalid tensor size or type in "
                                       "output tensor list")
                parts.append(_staged(_real(o), post, copy_in=False))
            return parts

        def allgather(self, output_tensors, input_tensors, opts=None):
            if len(input_tensors) != 1 or len(output_tensors) != 1:
                raise RuntimeError("ProcessGroupGloo::allgather: requires a single input tensor "
                                   "and a single output list")
            t = input_tensors[0]
            post = []
            parts = self._gather_parts(output_tensors[0], t, "allgather", post)
            h = self._submit(T.STAR_ALLGATHER, opts, buf=_real(t).contiguous(), parts=parts)
            return _TNWork([h], OpType.ALLGATHER, output_tensors, post)

        def _flat_parts(self, big, n, who, what):
            if big.numel() != n * self._size:
                raise RuntimeError(f"ProcessGroupGloo::{who}: {what} tensor size must be equal "
                                   "to world_size times input tensor size")
            flat = _real(big).reshape(-1)
            k = flat.numel() // self._size
            return [flat.narrow(0, i * k, k) for i in range(self._size)]

        def _allgather_base(self, output, input, opts=None):
            if output.dtype != input.dtype:
                raise RuntimeError("output tensor must have the same type as input tensor")
            post = []
            out = _staged(output, post, copy_in=False)
            parts = self._flat_parts(out, input.numel(), "_allgather_base", "output")
            h = self._submit(T.STAR_ALLGATHER, opts, buf=_real(input).contiguous(), parts=parts)
            return _TNWork([h], OpType._ALLGATHER_BASE, [output], post)

        def allgather_coalesced(self, output_lists, input_list, opts=None):
            works = [self.allgather([o], [i], opts) for o, i in zip(output_lists, input_list)]
            return _TNWork([h for w in works for h in w._handles], OpType.ALLGATHER_COALESCED,
                           output_lists, [f for w in works for f in w._post])

        def allgather_into_tensor_coalesced(self, outputs, inputs, opts=None):
            works = [self._allgather_base(o, i, opts) for o, i in zip(outputs, inputs)]
            return _TNWork([h for w in works for h in w._handles], OpType.COALESCED, outputs,
                           [f for w in works for f in w._post])

        def gather(self, output_tensors, input_tensors, opts=None):
            root = int(getattr(opts, "rootRank", 0))
            t = self._one(input_tensors, "gather")
            post, parts = [], None
            if self._rank == root:
                if len(output_tensors) != 1:
                    raise RuntimeError("ProcessGroupGloo::gather: requires a single-element output "
                                       "list containing a list with <size> tensors.")
                parts = self._gather_parts(output_tensors[0], t, "gather", post)
            elif output_tensors:
                raise RuntimeError("ProcessGroupGloo::gather: requires empty output on non-root")
            h = self._submit(T.STAR_GATHER, opts, buf=_real(t).contiguous(), parts=parts, root=root)
            return _TNWork([h], OpType.GATHER, output_tensors, post)

        def scatter(self, output_tensors, input_tensors, opts=None):
            root = int(getattr(opts, "rootRank", 0))
            t = self._one(output_tensors, "scatter")
            post, parts = [], None
            if self._rank == root:
                if len(input_tensors) != 1 or len(input_tensors[0]) != self._size:
                    raise RuntimeError("ProcessGroupGloo::scatter: requires a single-element input "
                                       "list containing a list with <size> tensors")
                parts = []
                for x in input_tensors[0]:
                    if x.numel() != t.numel() or x.dtype != t.dtype:
                        raise RuntimeError("ProcessGroupGloo::scatter: invalid tensor size or "
                                           "type in input tensor list")
                    parts.append(_real(x).contiguous())
            elif input_tensors:
                raise RuntimeError("ProcessGroupGloo::scatter: requires empty input on non-root")
            buf = _staged(_real(t), post, copy_in=False)
            h = self._submit(T.STAR_SCATTER, opts, buf=buf, parts=parts, root=root)
            return _TNWork([h], OpType.SCATTER, output_tensors, post)

        def reduce_scatter(self, output_tensors, input_tensors, opts=None):
            t = self._one(output_tensors, "reduce_scatter")
            if len(input_tensors) != 1 or len(input_tensors[0]) != self._size:
                raise RuntimeError("ProcessGroupGloo::reduce_scatter: requires a single input "
                                   f"list of {self._size} tensors")
            red = _redop_of(opts, "reduce_scatter")
            _check_redop(red, t, "ProcessGroupGloo::reduce_scatter")
            parts = []
            for x in input_tensors[0]:
                if x.numel() != t.numel() or x.dtype != t.dtype:
                    raise RuntimeError("ProcessGroupGloo::reduce_scatter: invalid tensor size or "
                                       "type in input tensor list")
                parts.append(_real(x).contiguous())
            post = []
            buf = _staged(_real(t), post, copy_in=False)
            h = self._submit(T.STAR_REDUCE_SCATTER, opts, buf=buf, parts=parts, redop=red)
            return _TNWork([h], OpType.REDUCE_SCATTER, output_tensors, post)

        def _reduce_scatter_base(self, output, input, opts=None):
            red = _redop_of(opts, "reduce_scatter_tensor")
            _check_redop(red, output, "ProcessGroupGloo::_reduce_scatter_base")
            if output.dtype != input.dtype:
                raise RuntimeError("input tensor must be the same type as the output tensor.")
            parts = self._flat_parts(input.contiguous(), output.numel(), "_reduce_scatter_base",
                                     "input")
            post = []
            buf = _staged(_real(output), post, copy_in=False)
            h = self._submit(T.STAR_REDUCE_SCATTER, opts, buf=buf, parts=parts, redop=red)
            return _TNWork([h], OpType._REDUCE_SCATTER_BASE, [output], post)

        def reduce_scatter_tensor_coalesced(self, outputs, inputs, opts=None):
            works = [self._reduce_scatter_base(o, i, opts) for o, i in zip(outputs, inputs)]
            return _TNWork([h for w in works for h in w._handles],
                           OpType.REDUCE_SCATTER_TENSOR_COALESCED, outputs,
                           [f for w in works for f in w._post])

        def alltoall_base(self, output, input, output_split_sizes, input_split_sizes, opts=None):
            n = self._size

            def rows(t, splits, what):
                if not splits:
                    if t.dim() == 0 or t.size(0) % n:
                        raise RuntimeError(f"Tensor's dim 0 does not divide equally across group "
                                           f"size ({what})")
                    splits = [t.size(0) // n] * n
                if len(splits) != n or sum(splits) != (t.size(0) if t.dim() else 1):
                    raise RuntimeError(f"Split sizes doesn't match total dim 0 size ({what})")
                out, off = [], 0
                for k in splits:
                    out.append(t.narrow(0, off, k).reshape(-1))
                    off += k
                return out
            post = []
            src = _real(input).contiguous()
            dst = _staged(_real(output), post, copy_in=False)
            ins = rows(src, list(input_split_sizes), "input")
            outs = rows(dst, list(output_split_sizes), "output")
            h = self._submit(T.STAR_ALLTOALL, opts, parts=ins, parts2=outs)
            return _TNWork([h], OpType.ALLTOALL_BASE, [output], post)

        def alltoall(self, output_tensors, input_tensors, opts=None):
            if len(output_tensors) != self._size or len(input_tensors) != self._size:
                raise RuntimeError("ProcessGroupGloo::alltoall: requires lists of <size> tensors")
            post = []
            ins = [_real(t).contiguous().reshape(-1) for t in input_tensors]
            outs = [_staged(_real(t), post, copy_in=False).view(-1) for t in output_tensors]
            h = self._submit(T.STAR_ALLTOALL, opts, parts=ins, parts2=outs)
            return _TNWork([h], OpType.ALLTOALL, output_tensors, post)

        def barrier(self, opts=None):
            h = self._submit(T.STAR_BARRIER, opts)
            return _TNWork([h], OpType.BARRIER, [])

        def monitored_barrier(self, timeout=None, wait_all_ranks=False):
            ms = _ms(timeout, _ms(self._options._timeout, 1800000))
            self._seq += 1
            h = self._star.submit(T.STAR_BARRIER, tag=2 if wait_all_ranks else 1, timeout_ms=ms)
            h.wait()

        def send(self, tensors, dstRank, tag=0):
            t = self._one(tensors, "send")
            h = self._star.submit(T.STAR_SEND, buf=_real(t).contiguous(), root=int(dstRank),
                                  tag=int(tag), timeout_ms=_ms(self._options._timeout, 1800000))
            return _TNWork([h], OpType.SEND, [t])

        def _recv(self, tensors, src, tag, op_type):
            t = self._one(tensors, "recv")
            post = []
            buf = _staged(_real(t), post, copy_in=False)
            h = self._star.submit(T.STAR_RECV, buf=buf, root=src, tag=int(tag),
                                  timeout_ms=_ms(self._options._timeout, 1800000))
            return _TNWork([h], op_type, [t], post)

        def recv(self, tensors, srcRank, tag=0):
            return self._recv(tensors, int(srcRank), tag, OpType.RECV)

        def recv_anysource(self, tensors, tag=0):
            return self._recv(tensors, -1, tag, OpType.RECVANYSOURCE)

    class _ProcessGroupWrapper(Backend):
        """TORCH_DISTRIBUTED_DEBUG=DETAIL's wrapper. Upstream checks through a helper gloo group
        that every rank calls the same collective with the same shapes; torchnative's hub checks
        exactly that for every collective (Note [Star protocol]), so the wrapper forwards."""

        def __init__(self, pg, gloo_pg):
            self._setup(pg.rank(), pg.size(), pg.name(), pg.options)
            self.wrapped_pg = pg
            self._helper = gloo_pg

        def get_error(self):
            return ErrorType.SUCCESS

        def __getattribute__(self, name):
            if name in _COLLECTIVES:
                return getattr(object.__getattribute__(self, "wrapped_pg"), name)
            return object.__getattribute__(self, name)

    # ---- DDP pieces (not implemented: DistributedDataParallel needs them above world size 1) ---

    class Reducer:
        def __init__(self, *args, **kwargs):
            self._args = args

        def __getattr__(self, name):
            if name.startswith("__"):
                raise AttributeError(name)
            refuse(f"{_MODNAME}.Reducer.{name}", "DistributedDataParallel's reducer")

    class Logger:
        def __init__(self, reducer):
            self._reducer = reducer

        def __getattr__(self, name):
            if name.startswith("__"):
                raise AttributeError(name)
            refuse(f"{_MODNAME}.Logger.{name}", "DistributedDataParallel's logger")

    class DDPLoggingData:
        def __init__(self):
            self.strs_map = {}
            self.ints_map = {}

    class GradBucket:
        __init__ = _no_constructor("GradBucket")

    class _ControlCollectives:
        __init__ = _no_constructor("_ControlCollectives")

    class _StoreCollectives(_ControlCollectives):
        def __init__(self, store, rank, world_size):
            self._store, self._rank, self._world_size = store, rank, world_size

    def _control(name):
        def method(self, *args, **kwargs):
            refuse(f"{_MODNAME}._ControlCollectives.{name}")
        return method

    for _name in ("barrier", "broadcast_send", "broadcast_recv", "gather_send", "gather_recv",
                  "scatter_send", "scatter_recv", "all_gather", "all_sum"):
        setattr(_ControlCollectives, _name, _control(_name))

    # ---- module functions -------------------------------------------------------------------

    state = _build_state(C)
    state.update({"debug": DebugLevel.OFF, "groups": {}, "inflight": False, "global_rank": None})

    def get_debug_level():
        return state["debug"]

    def set_debug_level(level):
        state["debug"] = DebugLevel(level)

    def set_debug_level_from_env():
        v = os.environ.get("TORCH_DISTRIBUTED_DEBUG", "OFF").upper()
        if v not in DebugLevel.__members__:
            raise ValueError("The value of TORCH_DISTRIBUTED_DEBUG must be OFF, INFO, or DETAIL, "
                             f"but it is {v}.")
        state["debug"] = DebugLevel.__members__[v]

    def _register_process_group(group_name, process_group):
        # The functional collectives' kernels go in with the first group (torch.library is
        # not importable yet while torch imports torch.distributed).
        if not _FUNCTIONAL and sys.modules.get("torch._C") is C:
            _install_functional(C)
        if group_name in state["groups"]:
            raise RuntimeError(f"The process group with the name {group_name} is already "
                               "registered")
        state["groups"][group_name] = process_group

    def _resolve_process_group(group_name):
        pg = state["groups"].get(group_name)
        if pg is None:
            raise RuntimeError("Could not resolve the process group registered under the name "
                               f"{group_name}")
        return pg

    def _unregister_process_group(group_name):
        state["groups"].pop(group_name, None)

    def _unregister_all_process_groups():
        state["groups"].clear()

    def _current_process_group():
        return None

    def _set_process_group(pg):
        refuse(f"{_MODNAME}._set_process_group")

    # c10d's work registry: the Work a functional collective left on its output tensor, until
    # wait_tensor takes it (keyed by the tensor's storage, as c10d keys it).
    works = state.setdefault("works", {})

    def _register_work(tensor, work):
        works[tensor.untyped_storage().data_ptr()] = work

    def _get_work_registry_size():
        return len(works)

    def _set_allow_inflight_collective_as_graph_input(value):
        state["inflight"] = bool(value)

    def _allow_inflight_collective_as_graph_input():
        return state["inflight"]

    def _set_global_rank(rank):
        state["global_rank"] = rank

    def _set_thread_isolation_mode(enable):
        pass

    _DDP = ("torch.nn.parallel.DistributedDataParallel above world size 1 (its Reducer: "
            "gradient buckets and allreduce hooks need autograd's gradient hooks)")

    def _verify_params_across_processes(process_group, params, logger):
        # Compares parameter shapes across ranks; one rank has nothing to compare with. Only
        # DistributedDataParallel calls it: above one rank, DDP refuses here, by name.
        if process_group.size() == 1:
            return None
        refuse(f"{_MODNAME}._verify_params_across_processes", _DDP)

    def _broadcast_coalesced(process_group, tensors, buffer_size, src=0):
        # A broadcast within a group of one leaves every tensor as it is.
        if process_group.size() == 1:
            return None
        refuse(f"{_MODNAME}._broadcast_coalesced", _DDP)

    def _compute_bucket_assignment_by_size(*args, **kwargs):
        refuse(f"{_MODNAME}._compute_bucket_assignment_by_size",
               "DistributedDataParallel's bucketing")

    def _register_comm_hook(reducer, state_, comm_hook):
        refuse(f"{_MODNAME}._register_comm_hook", "DistributedDataParallel comm hooks")

    def _register_builtin_comm_hook(reducer, comm_hook_type):
        refuse(f"{_MODNAME}._register_builtin_comm_hook", "DistributedDataParallel comm hooks")

    def _test_python_store(store):
        refuse(f"{_MODNAME}._test_python_store")

    def _create_work_from_future(future):
        refuse(f"{_MODNAME}._create_work_from_future")

    names = dict(locals())
    exported = (
        "BuiltinCommHookType", "DebugLevel", "ErrorType", "OpType", "WorkResult", "Store",
        "HashStore", "FileStore", "TCPStore", "PrefixStore", "ReduceOp",
        "BroadcastOptions", "AllreduceOptions", "AllreduceCoalescedOptions", "ReduceOptions",
        "AllgatherOptions", "GatherOptions", "ScatterOptions", "ReduceScatterOptions",
        "BarrierOptions", "AllToAllOptions", "_DistributedBackendOptions", "Work", "FakeWork",
        "PythonCallbackWork", "Backend", "FakeProcessGroup", "ProcessGroup", "ProcessGroupGloo",
        "_ProcessGroupWrapper", "Reducer", "Logger",
        "DDPLoggingData", "GradBucket", "_ControlCollectives", "_StoreCollectives",
        "get_debug_level", "set_debug_level", "set_debug_level_from_env",
        "_register_process_group", "_resolve_process_group", "_unregister_process_group",
        "_unregister_all_process_groups", "_current_process_group", "_set_process_group",
        "_register_work", "_get_work_registry_size",
        "_set_allow_inflight_collective_as_graph_input",
        "_allow_inflight_collective_as_graph_input", "_set_global_rank",
        "_set_thread_isolation_mode", "_verify_params_across_processes", "_broadcast_coalesced",
        "_compute_bucket_assignment_by_size", "_register_comm_hook",
        "_register_builtin_comm_hook", "_test_python_store", "_make_nccl_premul_sum",
        "_create_work_from_future",
    )
    mod = support.submodule(C, _MODNAME, "distributed c10d bindings")
    support.set_all(mod, names, exported)
    _BackendOptions.__module__ = _MODNAME
    _BackendOptions.__qualname__ = "Backend.Options"
    _BackendOptions.__name__ = "Options"
    _FakeOptions.__module__ = _MODNAME
    for cls in (_GlooOptions, _GlooDevice):
        cls.__module__ = _MODNAME
    _ReduceOpMeta.__qualname__ = _ReduceOpMeta.__name__
    _ReduceOpMeta.__module__ = _MODNAME
    for cls in (BackendType, RedOpType):
        cls.__module__ = _MODNAME
    mod._DEFAULT_FIRST_BUCKET_BYTES = 1048576
    mod._DEFAULT_NO_TIMEOUT = datetime.timedelta(0)
    mod._DEFAULT_PG_TIMEOUT = datetime.timedelta(seconds=1800)
    return mod


def _build_placements(C):
    """torch._C._distributed: the DTensor placement value types placement_types.py subclasses
    (torch/csrc/distributed/python_placement.cpp). Equality by value; unhashable, as upstream's
    (the Python subclasses add __hash__); fields read-only; pickled through __getstate__."""
    support = C._tn_support
    mod = support.submodule(C, "torch._C._distributed")
    modname = "torch._C._distributed"

    class Placement:
        def is_shard(self, dim=None):
            return False

        def is_replicate(self):
            return False

        def is_partial(self, reduce_op=None):
            return False

    def value_type(name, fields, extra):
        def __eq__(self, other):
            # Equal to another instance of the same C++ value class (subclasses included).
            if not isinstance(other, base_of[name]):
                return False
            return all(getattr(self, "_" + f) == getattr(other, "_" + f) for f in fields)

        def __getstate__(self):
            return {f: getattr(self, "_" + f) for f in fields}

        def __setstate__(self, state):
            for f in fields:
                setattr(self, "_" + f, state[f])

        ns = {"__eq__": __eq__, "__hash__": None, "__getstate__": __getstate__,
              "__setstate__": __setstate__}
        for f in fields:
            ns[f] = property(lambda self, _f=f: getattr(self, "_" + _f))
        ns.update(extra)
        return type(name, (Placement,), ns)

    def shard_init(self, dim):
        self._dim = int(dim)

    def strided_init(self, dim, *, split_factor):
        self._dim = int(dim)
        self._split_factor = int(split_factor)

    def replicate_init(self):
        pass

    def partial_init(self, reduce_op=None):
        self._reduce_op = "sum" if reduce_op is None else reduce_op

    Shard = value_type("Shard", ("dim",), {
        "__init__": shard_init,
        "is_shard": lambda self, dim=None: dim is None or dim == self._dim})
    StridedShard = value_type("StridedShard", ("dim", "split_factor"), {"__init__": strided_init})
    Replicate = value_type("Replicate", (), {"__init__": replicate_init,
                                             "is_replicate": lambda self: True})
    Partial = value_type("Partial", ("reduce_op",), {
        "__init__": partial_init,
        "is_partial": lambda self, reduce_op=None: reduce_op is None or reduce_op == self._reduce_op})
    # Subclass instances compare by the C++ class they derive from (placement_types subclasses).
    base_of = {"Shard": Shard, "StridedShard": StridedShard, "Replicate": Replicate,
               "Partial": Partial}
    for name, cls in (("Placement", Placement), ("Shard", Shard), ("StridedShard", StridedShard),
                      ("Replicate", Replicate), ("Partial", Partial)):
        setattr(mod, name, support.publish(cls, modname, name))


def install(C):
    _build_placements(C)
    for name, cls in _exceptions().items():
        cls.__qualname__ = cls.__name__
        setattr(C, name, cls)

    built = []

    def _c10d_init():
        if not built:
            _build(C)
            built.append(True)
            fill = getattr(C._tn_support, "fill_placeholders", None)
            if fill is not None:
                fill(C, _MODNAME)
        return True

    C._c10d_init = C._tn_support.publish(_c10d_init, "torch._C", "_c10d_init")


# Note [Functional collectives]
# torch.ops._c10d_functional.* (what torch.distributed._functional_collectives, DTensor and
# compiled code call) are C++ kernels upstream (torch/csrc/distributed/c10d/Functional.cpp):
# resolve the group, run the ProcessGroup collective, leave its Work in the registry under the
# output, and wait_tensor waits for it. Here they are CPU kernels through torch.library doing
# the same on the Python ProcessGroup, installed when first process group registers.

_FUNCTIONAL = {}


def _install_functional(C):
    import torch
    M = C._distributed_c10d
    works = _build_state(C)["works"]
    R = M.ReduceOp
    reds = {"sum": R.SUM, "avg": R.AVG, "product": R.PRODUCT, "min": R.MIN, "max": R.MAX,
            "band": R.BAND, "bor": R.BOR, "bxor": R.BXOR}

    def group_of(g):
        return M._resolve_process_group(g) if isinstance(g, str) else g

    def red(op):
        if op not in reds:
            raise ValueError(f"Unrecognized reduce_op: {op}")
        return reds[op]

    def reg(t, work):
        if work is not None:
            M._register_work(t, work)
        return t

    def all_reduce_(input, reduce_op, group_name):
        opts = M.AllreduceOptions()
        opts.reduceOp = red(reduce_op)
        return reg(input, group_of(group_name).allreduce([input], opts))

    def all_reduce(input, reduce_op, group_name):
        return all_reduce_(input.clone(memory_format=torch.contiguous_format), reduce_op,
                           group_name)

    def all_reduce_coalesced_(inputs, reduce_op, group_name):
        for t in inputs:
            all_reduce_(t, reduce_op, group_name)
        return inputs

    def all_reduce_coalesced(inputs, reduce_op, group_name):
        return [all_reduce(t, reduce_op, group_name) for t in inputs]

    def all_gather_into_tensor_out(input, group_size, group_name, *, out):
        pg = group_of(group_name)
        return reg(out, pg._allgather_base(out, input.contiguous(), M.AllgatherOptions()))

    def all_gather_into_tensor(input, group_size, group_name):
        shape = list(input.shape)
        shape[0] = shape[0] * group_size if shape else group_size
        out = input.new_empty(shape)
        return all_gather_into_tensor_out(input, group_size, group_name, out=out)

    def all_gather_into_tensor_coalesced(inputs, group_size, group_name):
        return [all_gather_into_tensor(t, group_size, group_name) for t in inputs]

    def reduce_scatter_tensor_out(input, reduce_op, group_size, group_name, *, out):
        opts = M.ReduceScatterOptions()
        opts.reduceOp = red(reduce_op)
        pg = group_of(group_name)
        return reg(out, pg._reduce_scatter_base(out, input.contiguous(), opts))

    def reduce_scatter_tensor(input, reduce_op, group_size, group_name):
        if input.dim() == 0 or input.size(0) % group_size:
            raise RuntimeError(f"input dimension 0 ({input.size(0) if input.dim() else 0}) must be "
                               f"divisible by group_size ({group_size})")
        shape = list(input.shape)
        shape[0] //= group_size
        out = input.new_empty(shape)
        return reduce_scatter_tensor_out(input, reduce_op, group_size, group_name, out=out)

    def reduce_scatter_tensor_coalesced(inputs, reduce_op, group_size, group_name):
        return [reduce_scatter_tensor(t, reduce_op, group_size, group_name) for t in inputs]

    def all_to_all_single(input, output_split_sizes, input_split_sizes, group_name):
        shape = list(input.shape)
        shape[0] = sum(int(x) for x in output_split_sizes)
        out = input.new_empty(shape)
        pg = group_of(group_name)
        work = pg.alltoall_base(out, input.contiguous(), [int(x) for x in output_split_sizes],
                                [int(x) for x in input_split_sizes], M.AllToAllOptions())
        return reg(out, work)

    def broadcast_(input, src, group_name):
        opts = M.BroadcastOptions()
        opts.rootRank = src
        return reg(input, group_of(group_name).broadcast([input], opts))

    def broadcast(input, src, group_name):
        return broadcast_(input.clone(memory_format=torch.contiguous_format), src, group_name)

    def wait_tensor(tensor):
        work = works.pop(tensor.untyped_storage().data_ptr(), None)
        if work is not None:
            work.wait()
        return tensor

    def isend(tensor, dst, tag, group_name):
        return reg(tensor, group_of(group_name).send([tensor], dst, tag))

    def irecv(tensor, src, tag, group_name):
        return reg(tensor, group_of(group_name).recv([tensor], src, tag))

    def batch_p2p_ops(op_list, peer_list, tag_list, tensors, group_name):
        pg = group_of(group_name)
        for op, peer, tag, t in zip(op_list, peer_list, tag_list, tensors):
            if op == "isend":
                reg(t, pg.send([t], peer, tag))
            elif op == "irecv":
                reg(t, pg.recv([t], peer, tag))
            else:
                raise ValueError(f"batch_p2p_ops: unknown op {op}")
        return list(tensors)

    lib = torch.library.Library("_c10d_functional", "IMPL")
    for name, fn in (("all_reduce", all_reduce), ("all_reduce_", all_reduce_),
                     ("all_reduce_coalesced", all_reduce_coalesced),
                     ("all_reduce_coalesced_", all_reduce_coalesced_),
                     ("all_gather_into_tensor", all_gather_into_tensor),
                     ("all_gather_into_tensor_out", all_gather_into_tensor_out),
                     ("all_gather_into_tensor_coalesced", all_gather_into_tensor_coalesced),
                     ("reduce_scatter_tensor", reduce_scatter_tensor),
                     ("reduce_scatter_tensor_out", reduce_scatter_tensor_out),
                     ("reduce_scatter_tensor_coalesced", reduce_scatter_tensor_coalesced),
                     ("all_to_all_single", all_to_all_single), ("broadcast", broadcast),
                     ("broadcast_", broadcast_), ("wait_tensor", wait_tensor),
                     ("isend", isend), ("irecv", irecv), ("batch_p2p_ops", batch_p2p_ops)):
        lib.impl(name, fn, "CPU")
    _FUNCTIONAL["lib"] = lib
