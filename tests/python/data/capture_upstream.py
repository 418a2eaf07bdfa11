"""Capture the upstream facts tests/python/test_surface_py.py compares torchnative against.

    .venv-upstream/bin/python tests/python/data/capture_upstream.py

Runs on upstream torch 2.13.0 (the oracle venv) and writes upstream_2_13_0.json next to this
file: every registered schema (str, re-parse, per-argument facts), schema-parser edge cases,
the dispatch-key algebra, every pybind11 enum, the names of torch._C and each submodule, and
the behaviour of the cold Python-shaped pieces (stores, ReduceOp, dynamo helpers, ...).
Deterministic for a given torch; re-run on a torch version bump.
"""
import datetime
import json
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "upstream_2_13_0.json")

# Record torch._C's names right after the extension loads, before torch's Python adds any.
_pre = {}


class _Finder:
    @classmethod
    def find_spec(cls, name, path, target=None):
        if name != "torch._C":
            return None
        import importlib.util
        sys.meta_path.remove(cls)
        spec = importlib.util.find_spec(name)
        orig = spec.loader.exec_module

        def exec_module(mod):
            orig(mod)
            _pre["dir"] = sorted(dir(mod))
        spec.loader.exec_module = exec_module
        return spec


sys.meta_path.insert(0, _Finder)
import torch  # noqa: E402

C = torch._C
subs_after_torch = sorted(k for k in sys.modules if k.startswith("torch._C"))
dir_after_torch = sorted(dir(C))
import torch._dynamo  # noqa: E402,F401
import torch.distributed as dist  # noqa: E402
import transformers  # noqa: E402,F401
from transformers import LlamaForCausalLM  # noqa: E402,F401


def enc(v):
    """A default value as JSON (floats as repr, to keep -0.0, inf and nan)."""
    if v is None:
        return None
    if isinstance(v, bool):
        return ["bool", v]
    if isinstance(v, int):
        return ["int", v]
    if isinstance(v, float):
        return ["float", repr(v)]
    if isinstance(v, complex):
        return ["complex", repr(v.real), repr(v.imag)]
    if isinstance(v, str):
        return ["str", v]
    if isinstance(v, list):
        return ["list", [enc(x) for x in v]]
    if isinstance(v, torch.device):
        return ["device", str(v)]
    return ["other", repr(v)]


def arg_facts(a):
    ai = a.alias_info
    alias = None if ai is None else [ai.is_write, sorted(ai.before_set), sorted(ai.after_set)]
    return [a.name, str(a.type), a.type.str(), type(a.type).__name__, a.type.kind(),
            str(a.real_type), a.real_type.str(), a.real_type.kind(), a.N, a.kwarg_only, a.is_out,
            a.is_write, alias, enc(a.default_value) if a.has_default_value() else "<none>"]


def try_str(f):
    try:
        return ["ok", f()]
    except Exception as e:  # noqa: BLE001
        first = str(e).strip().splitlines()
        return ["err", type(e).__name__, first[0] if first else ""]


# ---- schemas -------------------------------------------------------------------------------
schemas = []
seen = set()
for s in C._jit_get_all_schemas():
    text = str(s)
    if text in seen:
        continue
    seen.add(text)
    try:
        hash(s)
        h = "ok"
    except Exception as e:  # noqa: BLE001
        h = f"{type(e).__name__}: {e}"
    schemas.append({
        "s": text, "reparsed": try_str(lambda: str(C.parse_schema(text))),
        "name": s.name, "overload": s.overload_name, "is_mutable": s.is_mutable,
        "view": s._is_view_op(), "hash": h,
        "args": [arg_facts(a) for a in s.arguments], "rets": [arg_facts(a) for a in s.returns],
    })
schemas.sort(key=lambda d: d["s"])

EDGE_SCHEMAS = [
    "aten::foo(Tensor a, int b=1) -> Tensor",
    "aten::x(...) -> ...", "aten::x(int a, ...) -> (int, ...)", "aten::x() -> ((str, int)[])",
    "aten::x() -> (str, int)[]", "aten::x(Tensor a, int b=1, Tensor c) -> Tensor",
    "aten::x(Tensor a, int b=1, *, int c) -> ()", "aten::x(Tensor[] a=[]) -> ()",
    "aten::x(float[] a=[1, 2.5]) -> ()", "aten::x(str[] a=[\"a\"]) -> ()",
    "aten::x(str a='\\n\\101') -> ()", "aten::x(str a='\\x41') -> ()",
    "aten::x(int a=-3, float b=-0.0, float c=1e-05, float d=0.1, Scalar e=2.5, complex f=-1.5j, Scalar g=1j) -> ()",
    "aten::x(bool[3] a=[True, False, True]) -> ()", "aten::x(int[2] a=[3, 3]) -> ()",
    "aten::x(int[1] a=[3]) -> ()", "aten::x(int[] a=[]) -> ()", "aten::x(float[2] a=1) -> ()",
    "aten::x(float a=100000000000.0) -> ()", "aten::x(float a=1e20) -> ()", "aten::x(float a=3) -> ()",
    "aten::x(Device d=\"cuda:1\") -> ()", "aten::x(Device? d='cpu') -> ()",
    "aten::x(ScalarType d=float, ScalarType? e=complex, ScalarType f=long, Layout l=strided, int r=Mean) -> ()",
    "aten::x(ScalarType g=float32, ScalarType? h=bfloat16) -> ()", "aten::x(int d=Float) -> ()",
    "aten::x(int? d=float32) -> ()", "aten::x(Scalar d=float) -> ()", "aten::x(int d=-Mean) -> ()",
    "x(t a) -> ()", "aten::x(Tensor self) -> Tensor self", "aten::x(Tensor self) -> (Tensor a, Tensor b)",
    " aten::x ( Tensor  self ) ->Tensor ", "aten::x(Tensor(a! -> a|b) self) -> ()",
    "aten::x(Tensor(a|*) self) -> ()", "aten::x(Tensor(a) self) -> Tensor(a)",
    "aten::x(Tensor(a!) self) -> Tensor(a!)", "aten::x(Tensor self, Dict(str, Tensor)(a) d) -> ()",
    "aten::x(Tensor self, Tensor(a)?[] d) -> ()", "aten::x(Tensor self, Tensor(a!)?[] d) -> ()",
    "aten::x.__foo(Tensor self) -> ()", "aten::x.default(Tensor self) -> ()",
    "aten::x.1(Tensor self) -> ()", "aten::x(Tensor self) -> Tensor(a) [] ",
    "aten::x(Tensor! a) -> Tensor", "aten::x(Tensor(a -> *) a) -> Tensor(a)",
    "aten::x(Any a, t b, Future(int) f, RRef(int) r, Await(int) w, Union(int, str) u, Union(int, NoneType) o) -> ()",
    "aten::x(Storage s, QScheme q, Capsule c, AnyClassType a, AnyEnumType e, Quantizer z, Generator g, Stream st) -> ()",
    "aten::x(SymInt a, SymInt[] b, SymBool c, SymInt? d, int[1]? e=None, Dimname n, ConstQuantizerPtr q, DeviceIndex i) -> ()",
    "aten::x(SymFloat a) -> ()", "aten::x(double a) -> ()", "aten::x(int64_t a) -> ()",
    "aten::x(NoneType a, None b, (int, float) c, () d, (Tensor, Tensor)[] e) -> ()",
    "c10d::x(__torch__.torch.classes.c10d.ProcessGroup p) -> __torch__.torch.classes.c10d.Work",
    "c10d::x(__torch__.torch.classes.c10d.Nope p) -> ()", "c10d::x(__torch__.foo.Bar p) -> ()",
    "aten::x(Tensor a, str b=\"\\\"'\\\\\", str c=\" \\n\\t\") -> ()", "aten::foo", "aten::x(Tensor a,) -> ()",
    "aten::x(Tensor if) -> ()", "aten::x(Tensor a, *, Tensor(a!) out) -> Tensor(a!)",
    "aten::x(Tensor(a) a, Tensor(b!) b) -> (Tensor(a), Tensor(b!))",
]
edge = {}
for text in EDGE_SCHEMAS:
    r = try_str(lambda: C.parse_schema(text))
    if r[0] == "ok":
        s = r[1]
        edge[text] = {"str": str(s), "args": [arg_facts(a) for a in s.arguments],
                      "rets": [arg_facts(a) for a in s.returns], "is_mutable": s.is_mutable,
                      "view": s._is_view_op()}
    else:
        edge[text] = {"error": r[1]}
edge_typevars_off = {t: try_str(lambda: str(C.parse_schema(t, False)))
                     for t in ("x(t a) -> ()", "aten::x(t a) -> ()", "foo::x(t a) -> ()")}

# ---- JIT types ----------------------------------------------------------------------------


def type_facts(t):
    return [type(t).__name__, str(t), repr(t), t.str(), t.annotation_str, t.kind(),
            [str(x) for x in t.containedTypes()]]


TYPE_EXPRS = [
    "TensorType.get()", "IntType.get()", "FloatType.get()", "ComplexType.get()", "BoolType.get()",
    "StringType.get()", "NoneType.get()", "NumberType.get()", "DeviceObjType.get()",
    "StreamObjType.get()", "AnyType.get()", "SymIntType.get()", "SymBoolType.get()",
    "PyObjectType.get()", "_GeneratorType.get()", "ListType(IntType.get())",
    "ListType.ofTensors()", "OptionalType(TensorType.get())",
    "OptionalType(OptionalType(IntType.get()))", "TupleType([IntType.get(), TensorType.get()])",
    "TupleType([])", "DictType(StringType.get(), TensorType.get())",
    "FutureType(IntType.get())", "AwaitType(IntType.get())", "RRefType(IntType.get())",
    "UnionType([IntType.get(), StringType.get()])",
    "UnionType([TensorType.get(), NoneType.get(), IntType.get()])",
]
_cns = {n: getattr(C, n) for n in dir(C)}
types_ = {e: eval(e, _cns) for e in TYPE_EXPRS}
type_table = {k: type_facts(v) for k, v in types_.items()}
subtype_cases = [
    ("IntType.get()", "NumberType.get()"), ("TensorType.get()", "OptionalType(TensorType.get())"),
    ("IntType.get()", "FloatType.get()"), ("NoneType.get()", "OptionalType(TensorType.get())"),
    ("ListType(IntType.get())", "ListType(IntType.get())"), ("IntType.get()", "AnyType.get()"),
    ("IntType.get()", "UnionType([IntType.get(), StringType.get()])"),
    ("TupleType([IntType.get(), TensorType.get()])", "TupleType([NumberType.get(), TensorType.get()])"),
]
subtypes = {f"{a} <: {b}": eval(a, _cns).isSubtypeOf(eval(b, _cns)) for a, b in subtype_cases}

# ---- dispatch keys -------------------------------------------------------------------------
sys.path.insert(0, HERE)
D, S = C.DispatchKey, C.DispatchKeySet
vals = list(range(0, 156))
dispatch = {
    "members": [[n, int(k)] for n, k in D.__members__.items()],
    "names": {v: C._dispatch_key_name(D(v)) for v in vals},
    "single": {v: [repr(S(D(v))), S(D(v)).raw_repr(), repr(S(D(v)).highestPriorityTypeId())]
               for v in vals},
    "full": [repr(C._dispatch_keyset_full()), C._dispatch_keyset_full().raw_repr()],
    "full_after": {v: C._dispatch_keyset_full_after(D(v)).raw_repr() for v in range(1, 47)},
    "in_alias": {f"{v},{a}": C._dispatch_is_included_in_alias(D(v), D(a))
                 for v in vals for a in range(150, 156)},
    "is_alias": {v: C._dispatch_is_alias_key(D(v)) for v in vals},
    "to_func": {v: int(C._to_functionality_key(D(v))) for v in vals},
    "func_backends": {v: [int(k) for k in C._functionality_to_backend_keys(D(v))]
                      for v in range(0, 47)},
    "from_autograd": {v: C._dispatch_get_backend_keyset_from_autograd(D(v)).raw_repr()
                      for v in vals},
    "constants": {n: getattr(C, n).raw_repr() for n in (
        "_after_ADInplaceOrView_keyset", "_after_autograd_keyset",
        "_dispatch_autogradother_backends", "_additional_keys_to_prop_for_wrapper_tensors")},
    "reprs": [repr(D.CPU), str(D.CPU), D.CPU.name, D.CPU.value, repr(D(12)), D(12).name,
              hash(D.CPU), D.CPU == 49, D.CPU == D(49)],
}
names_to_parse = sorted(set(dispatch["names"].values()) | {n for n, _ in dispatch["members"]}
                        | {"CatchAll", "Math", "DefaultBackend", "Default", "Foo"})
dispatch["parse"] = {n: (None if C._parse_dispatch_key(n) is None else int(C._parse_dispatch_key(n)))
                     for n in names_to_parse}
some = [0, 1, 5, 13, 19, 20, 21, 46, 49, 50, 64, 66, 83, 100, 117, 134, 135, 149, 150, 151]
dispatch["pairs"] = {}
for a in some:
    for b in some:
        x, y = S(D(a)), S(D(b))
        dispatch["pairs"][f"{a},{b}"] = [
            (x | y).raw_repr(), (x & y).raw_repr(), (x - y).raw_repr(), x.add(D(b)).raw_repr(),
            x.remove(D(b)).raw_repr(), x.has(D(b)), int((x | y).highestPriorityTypeId()),
            repr(x | y), x == y]
devs = {}
for d in ["cpu", "cuda", "meta", "mps", "xpu", "hpu", "lazy", "xla", "mtia", "privateuseone",
          "ipu", "ve", "maia", "hip", "fpga", "vulkan", "cpu:0", "metal", "foo"]:
    devs[d] = try_str(lambda: C._dispatch_key_for_device(d))
dispatch["for_device"] = devs

# ---- enums of every module ------------------------------------------------------------------


def walk_modules():
    out = {}

    def walk(m, path):
        if path in out:
            return
        out[path] = m
        for k in dir(m):
            v = getattr(m, k)
            if isinstance(v, types.ModuleType) and v.__name__.startswith("torch._C"):
                walk(v, f"{path}.{k}")
    walk(C, "torch._C")
    return out


modules = walk_modules()
enums = {}
for path, m in sorted(modules.items()):
    for k in dir(m):
        v = getattr(m, k)
        if isinstance(v, type) and type(v).__name__ == "pybind11_type" and "__members__" in dir(v):
            enums[f"{path}.{k}"] = [[n, int(x)] for n, x in v.__members__.items()]
            continue
        if isinstance(v, type):
            for kk, vv in vars(v).items():
                if isinstance(vv, type) and "__members__" in dir(vv) and kk != "__class__":
                    enums[f"{path}.{k}.{kk}"] = [[n, int(x)] for n, x in vv.__members__.items()]

module_dirs = {path: sorted(n for n in dir(m) if not (n.startswith("__") and n.endswith("__")))
               for path, m in sorted(modules.items())}
dummies = sorted(n for n in dir(C) if getattr(getattr(C, n), "__module__", None)
                 in ("torch._utils", "torch.cuda.gds"))
build_flags = {n: getattr(C, n) for n in dir(C) if isinstance(getattr(C, n), bool)}

# ---- distributed ---------------------------------------------------------------------------
Pd = C._distributed
PLACEMENT_EXPRS = [
    "Shard(1).dim", "Shard(1) == Shard(1)", "Shard(1) == Shard(2)",
    "Shard(1) == StridedShard(1, split_factor=2)", "StridedShard(1, split_factor=2) == Shard(1)",
    "Shard(1).is_shard()", "Shard(1).is_shard(1)", "Shard(1).is_shard(2)",
    "Shard(1).is_partial()", "Shard(1).is_replicate()", "Replicate().is_replicate()",
    "Replicate() == Replicate()", "Partial().reduce_op", "Partial(None).reduce_op",
    "Partial('avg').is_partial('avg')", "Partial('avg').is_partial('sum')",
    "Partial('avg').is_partial()", "Partial() == Partial('sum')",
    "StridedShard(1, split_factor=2).split_factor", "StridedShard(1, split_factor=2).is_shard()",
    "Placement().is_shard()", "Placement().is_partial()", "Placement().is_replicate()",
    "Shard(1).__getstate__()", "Replicate().__getstate__()", "Partial('avg').__getstate__()",
    "StridedShard(1, split_factor=3).__getstate__()", "Shard(1) == 1", "Replicate() == Shard(1)",
    "Shard(dim=3).dim", "type(Shard.dim).__name__", "Shard.__hash__ is None",
    "[b.__name__ for b in StridedShard.__mro__[:-2]]",
]
placements = {e: try_str(lambda: repr(eval(e, {n: getattr(Pd, n) for n in dir(Pd)})))
              for e in PLACEMENT_EXPRS}

M = C._distributed_c10d
st = M.HashStore()
store_log = []
for expr in ["st.set('a', 'x')", "st.get('a')", "st.set('b', b'\\x00y')", "st.get('b')",
             "st.add('n', 3)", "st.add('n', 2)", "st.get('n')", "st.num_keys()",
             "st.check(['a', 'zz'])", "st.compare_set('a', 'x', 'z')", "st.get('a')",
             "st.compare_set('a', 'nope', 'q')", "st.compare_set('new', '', 'v')",
             "st.compare_set('new2', 'x', 'v')", "st.delete_key('a')", "st.delete_key('a')",
             "st.num_keys()", "st.timeout", "st.multi_get(['b', 'n'])",
             "st.multi_set(['c', 'd'], ['1', '2'])", "st.get('d')", "sorted(st.list_keys())",
             "st.append('b', 'zz')", "st.get('b')", "st.queue_push('q', '1')", "st.queue_len('q')",
             "st.queue_pop('q')", "st.has_extended_api()", "st.add('b', 1)"]:
    r = try_str(lambda: eval(expr))
    store_log.append([expr, repr(r[1]) if r[0] == "ok" else r])
st.set_timeout(datetime.timedelta(milliseconds=10))
store_log.append(["st.get('missing')", try_str(lambda: st.get("missing"))])
ps = M.PrefixStore("pre", st)
for expr in ["ps.set('k', 'v')", "st.get('pre/k')", "ps.get('k')", "ps.underlying_store is st",
             "ps._underlying_non_prefix_store is st", "ps.add('c', 5)", "st.get('pre/c')",
             "ps.check(['k'])", "ps.timeout", "sorted(ps.list_keys())", "ps.delete_key('k')",
             "M.PrefixStore('a', M.PrefixStore('b', st))._underlying_non_prefix_store is st"]:
    r = try_str(lambda: eval(expr))
    store_log.append([expr, repr(r[1]) if r[0] == "ok" else r])
R = M.ReduceOp
dist_facts = {
    "store_log": store_log,
    "reduce_op": {
        "members": list(R.RedOpType.__members__), "SUM==ReduceOp(SUM)": R(R.SUM) == R.SUM,
        "isinstance": isinstance(R.SUM, R), "premul_factor": R.PREMUL_SUM(2.0).factor,
        "premul_op": R.PREMUL_SUM(2.0).op.name, "SUM(2.0)": try_str(lambda: R.SUM(2.0)),
        "factor_of_sum": try_str(lambda: R(R.SUM).factor), "hash": hash(R(R.MAX)),
        "meta": type(R).__name__, "has_UNUSED": hasattr(R, "UNUSED"),
    },
    "options": {
        "AllreduceOptions.timeout": str(M.AllreduceOptions().timeout),
        "AllreduceOptions.asyncOp": M.AllreduceOptions().asyncOp,
        "AllreduceOptions.reduceOp": M.AllreduceOptions().reduceOp.op.name,
        "BroadcastOptions.rootRank": M.BroadcastOptions().rootRank,
        "BarrierOptions.device_ids": M.BarrierOptions().device_ids,
        "BarrierOptions.device": M.BarrierOptions().device,
        "Backend.Options('x').backend": M.Backend.Options("x").backend,
        "Backend.Options('x')._timeout": str(M.Backend.Options("x")._timeout),
        "_DistributedBackendOptions().timeout": str(M._DistributedBackendOptions().timeout),
        "_DistributedBackendOptions().group_rank": M._DistributedBackendOptions().group_rank,
        "FakeProcessGroup.Options().fake_option": M.FakeProcessGroup.Options().fake_option,
        "FakeProcessGroup.Options().error_on_collective":
            M.FakeProcessGroup.Options().error_on_collective,
    },
    "backend_type": [[n, int(v)] for n, v in M.ProcessGroup.BackendType.__members__.items()],
    "constants": {"_DEFAULT_FIRST_BUCKET_BYTES": M._DEFAULT_FIRST_BUCKET_BYTES,
                  "_DEFAULT_NO_TIMEOUT": str(M._DEFAULT_NO_TIMEOUT),
                  "_DEFAULT_PG_TIMEOUT": str(M._DEFAULT_PG_TIMEOUT)},
    "errors": {n: [getattr(C, n).__name__, getattr(C, n).__module__,
                   [b.__name__ for b in getattr(C, n).__mro__[1:]]]
               for n in ("_DistError", "_DistBackendError", "_DistNetworkError",
                         "_DistStoreError", "_DistQueueEmptyError")},
    "available": {"gloo": dist.is_gloo_available(), "nccl": dist.is_nccl_available(),
                  "mpi": dist.is_mpi_available(), "ucc": dist.is_ucc_available(),
                  "xccl": dist.is_xccl_available()},
    "pg": {},
}
pg = M.ProcessGroup(M.HashStore(), 0, 1)
for expr in ["pg.rank()", "pg.size()", "pg.name()", "pg.group_desc", "pg._get_backend_name()",
             "pg._device_types", "pg.bound_device_id", "pg._has_hooks()", "pg.group_name",
             "pg.allreduce([torch.ones(2)])", "pg._get_backend(torch.device('cpu'))"]:
    dist_facts["pg"][expr] = (lambda r: repr(r[1]) if r[0] == "ok" else r)(try_str(lambda: eval(expr)))
fpg = M.FakeProcessGroup._create_internal(0, 1)
dist_facts["fake_pg"] = {"name": fpg.name(), "rank": fpg.rank(), "size": fpg.size(),
                         "wait": fpg.allreduce([torch.ones(2)]).wait(),
                         "supports_splitting": fpg.supports_splitting}
M.set_debug_level(M.DebugLevel.OFF)
dist_facts["debug_level"] = repr(M.get_debug_level())
M._register_process_group("g1", pg)
dist_facts["resolve"] = [M._resolve_process_group("g1") is pg,
                         try_str(lambda: M._resolve_process_group("nope"))]
M._unregister_all_process_groups()

# ---- dynamo, functorch, export, jit, autograd bits -----------------------------------------
Dy = C._dynamo
E = Dy.eval_frame


def f_sample(a, b=1, *c, **d):
    x = 1

    def g():
        return x + a
    return g


dynamo_facts = {
    "is_valid_var_name": {s: Dy.is_valid_var_name(s) for s in
                          ["", "1", " ", "-", "a b", "_", "0x", "a-b", "1a", "a", "a.b", "print"]},
    "strip_function_call": {s: Dy.strip_function_call(s) for s in [
        "a(b)", "a.b(c.d)", "foo", "f(g(h))", "___odict_getitem(a, 1)",
        "a.layers[slice(2)][0]._xyz", "getattr(a.layers[slice(2)][0]._abc, '0')",
        "a.layers[slice(None, -1, None)][0]._xyz", "a[1]", "", "(x)", "f(None)", "f( x )"]},
    "code_framelocals_names": [list(E.code_framelocals_names(f_sample.__code__)),
                               list(E.code_framelocals_names(f_sample(1).__code__))],
    "py_opcode_caches": list(E.py_opcode_caches),
    "defaults": {"get_c_recursion_limit": E.get_c_recursion_limit(),
                 "get_eval_frame_callback": repr(E.get_eval_frame_callback()),
                 "get_eval_frame_isolate_recompiles_id": E.get_eval_frame_isolate_recompiles_id(),
                 "NULL_STACK_VALUE": repr(E.NULL_STACK_VALUE),
                 "FrameExecStrategy()": [E._FrameExecStrategy().cur_action.name,
                                         E._FrameExecStrategy().recursive_action.name]},
    "pt2_archive_constants": {k: getattr(C._export.pt2_archive_constants, k)
                              for k in dir(C._export.pt2_archive_constants)
                              if not k.startswith("__")},
}
F_ = C._functorch
x = torch.ones(2)
functorch_facts = {
    "maybe_current_level": F_.maybe_current_level(), "peek_interpreter_stack": F_.peek_interpreter_stack(),
    "get_interpreter_stack": F_.get_interpreter_stack(),
    "get_dynamic_layer_stack_depth": F_.get_dynamic_layer_stack_depth(),
    "is_batchedtensor": F_.is_batchedtensor(x), "is_gradtrackingtensor": F_.is_gradtrackingtensor(x),
    "is_functionaltensor": F_.is_functionaltensor(x),
    "is_functorch_wrapped_tensor": F_.is_functorch_wrapped_tensor(x),
    "is_legacy_batchedtensor": F_.is_legacy_batchedtensor(x),
    "maybe_get_level": F_.maybe_get_level(x), "maybe_get_bdim": F_.maybe_get_bdim(x),
    "dlevel": F_.dlevel(x), "is_dead_tensor_wrapper": F_.is_dead_tensor_wrapper(x),
    "get_inplace_requires_grad_allowed": F_.get_inplace_requires_grad_allowed(),
    "get_single_level_autograd_function_allowed": F_.get_single_level_autograd_function_allowed(),
    "_is_vmap_fallback_enabled": F_._is_vmap_fallback_enabled(),
}
A = C._autograd
autograd_facts = {
    "_profiler_enabled": A._profiler_enabled(), "_profiler_type": repr(A._profiler_type()),
    "_saved_tensors_hooks_get_disabled_error_message": A._saved_tensors_hooks_get_disabled_error_message(),
    "_top_saved_tensors_default_hooks": repr(A._top_saved_tensors_default_hooks(False)),
    "_saved_tensors_hooks_is_enabled": A._saved_tensors_hooks_is_enabled(),
    "_supported_activities": sorted(repr(a) for a in A._supported_activities()),
    "kineto_available": A.kineto_available(),
}
J = C._jit_tree_views
fac = J.SourceRangeFactory("def f(x):\n    return x + 1\n", "f.py", 10, 0)
jit_facts = {
    "make_range": [fac.make_range(2, 4, 10).highlight(), fac.make_range(2, 4, 10).start,
                   fac.make_range(2, 4, 10).end],
    "make_raw_range": [fac.make_raw_range(0, 3).highlight(), str(fac.make_raw_range(0, 3))],
    "no_file": J.SourceRangeFactory("abc", None, 1, 0).make_raw_range(0, 1).highlight(),
    "error_report": C.ErrorReport(fac.make_range(2, 4, 10)).what(),
    "call_stack": C.ErrorReport.call_stack(),
    "mro_Var": [c.__name__ for c in J.Var.__mro__[:-2]],
    "ident_name": J.Ident(fac.make_raw_range(0, 1), "x").name,
}

# Arguments repeat across schemas ("Tensor self" ...): store each distinct fact list once.
arg_table = []
arg_index = {}


def intern(facts_):
    key = json.dumps(facts_, sort_keys=True)
    if key not in arg_index:
        arg_index[key] = len(arg_table)
        arg_table.append(facts_)
    return arg_index[key]


for d in schemas:
    d["args"] = [intern(a) for a in d["args"]]
    d["rets"] = [intern(a) for a in d["rets"]]

# Constant answers (runtime/py/cold.py): upstream's result for the arguments given.
COLD_CALLS = {
    "_mtia_isBuilt": (), "_mtia_isInBadFork": (), "_mtia_getDeviceCount": (),
    "_mps_is_available": (), "_mps_is_in_bad_fork": (), "_accelerator_getAccelerator": (),
    "_accelerator_hooks_device_count": (), "_accelerator_hooks_get_current_device": (),
    "_is_flash_attention_available": (), "_is_ck_sdpa_available": (), "_is_xnnpack_enabled": (),
    "_log_api_usage_once": ("python.nn_module",), "_log_api_usage_metadata": ("x", {}),
}
cold = {n: repr(getattr(C, n)(*args)) for n, args in COLD_CALLS.items()}

facts = {
    "torch_version": torch.__version__,
    "cold": cold, "cold_calls": COLD_CALLS,
    "arg_table": arg_table,
    "schemas": schemas, "edge_schemas": edge, "edge_typevars_off": edge_typevars_off,
    "types": type_table, "subtypes": subtypes, "dispatch": dispatch, "enums": enums,
    "tags": [[n, int(v)] for n, v in C.Tag.__members__.items()],
    "dir_at_load": _pre["dir"], "dir_after_torch": dir_after_torch,
    "module_dirs": module_dirs, "python_dummies": dummies,
    "sys_modules_after_torch": subs_after_torch, "build_flags": build_flags,
    "distributed": dist_facts, "placements": placements, "dynamo": dynamo_facts, "functorch": functorch_facts,
    "autograd": autograd_facts, "jit": jit_facts,
}
with open(OUT, "w") as fh:
    json.dump(facts, fh, sort_keys=True, separators=(",", ":"), default=repr)
    fh.write("\n")
print(f"wrote {OUT}: {len(schemas)} schemas, {len(enums)} enums, {len(dir_after_torch)} names")
