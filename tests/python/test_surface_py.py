"""runtime/py (torch._C's Python-shaped half) against upstream 2.13.0, without the C core.

Each runtime/py file of ours is exec'd as the C loader does (fresh namespace, __name__
"torch._C") and installed on a stand-in module; results are compared with facts captured from
upstream into data/upstream_2_13_0.json (by data/capture_upstream.py). Run with either venv:

    .venv-upstream/bin/python -m pytest tests/python/test_surface_py.py
"""
import copy
import datetime
import json
import pickle
import subprocess
import sys
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = json.loads((ROOT / "tests" / "python" / "data" / "upstream_2_13_0.json").read_text())
ORDER = [n.strip() for n in (ROOT / "runtime" / "py" / "ORDER").read_text().splitlines()
         if n.strip() and not n.startswith("#")]
# The files this suite covers; ORDER also holds the C core's own (tn_*.py), which need it.
OURS = ["surface_manifest.py", "support.py", "schema.py", "enums.py", "jit.py", "autograd.py",
        "dynamo.py", "distributed.py", "cold.py", "surface.py"]


def _path(name):
    p = ROOT / "runtime" / "py" / name
    return p if p.exists() else ROOT / "generated" / name


def load(files=OURS):
    C = types.ModuleType("torch._C")
    # distributed.py's C half (stores, backend: runtime/c10d_*.c) and schema.py's parser
    # (runtime/schema_parser.c) come from the built _C.
    real = sys.modules.get("torch._C")
    if real is not None and hasattr(real, "_tn_c10d"):
        C._tn_c10d = real._tn_c10d
    if real is not None and hasattr(real, "_torchnative"):
        C._torchnative = types.SimpleNamespace(
            _parse_schema=real._torchnative._parse_schema,
            _schema_registries=real._torchnative._schema_registries)
    for name in files:
        ns = {"__name__": "torch._C"}
        exec(compile(_path(name).read_text(), str(_path(name)), "exec"), ns)
        ns["install"](C)
    return C


@pytest.fixture
def importable(C):
    """Make the stand-in importable as torch._C (pickle looks classes up by module)."""
    saved = {k: sys.modules.get(k) for k in ("torch", "torch._C")}
    pkg = types.ModuleType("torch")
    pkg.__path__ = []
    pkg._C = C
    sys.modules.update({"torch": pkg, "torch._C": C})
    yield C
    for k, v in saved.items():
        if v is None:
            sys.modules.pop(k, None)
        else:
            sys.modules[k] = v


@pytest.fixture(scope="module")
def C():
    # The stand-in's submodules take torch._C.*'s place in sys.modules for the duration (under
    # .venv, the conftest has imported torchnative's real torch already).
    saved = {k: v for k, v in sys.modules.items() if k.startswith("torch._C.")}
    for k in saved:
        del sys.modules[k]
    mp = sys.modules.setdefault("torch.multiprocessing", types.ModuleType("torch.multiprocessing"))
    C = load()
    C._c10d_init()
    C._autograd_init()
    yield C
    real = sys.modules.get("torch._C")
    if real is not None and hasattr(real, "_torchnative"):
        # the stand-in's schema.py handed the parser its registries: hand back the real ones
        g = real.parse_schema.__globals__
        real._torchnative._schema_registries(g["_OPAQUE_TYPES"], g["_CUSTOM_CLASSES"])
    for k in [k for k in sys.modules if k.startswith("torch._C.")]:
        del sys.modules[k]
    sys.modules.update(saved)
    if sys.modules.get("torch.multiprocessing") is mp and not hasattr(mp, "__file__"):
        del sys.modules["torch.multiprocessing"]


# ---- loading -------------------------------------------------------------------------------


def test_order_runs_our_files_in_dependency_order():
    positions = [ORDER.index(n) for n in OURS]
    assert positions == sorted(positions)
    assert ORDER[-1] == "surface.py"


def test_every_file_defines_install_and_imports_no_torch():
    for name in OURS:
        src = _path(name).read_text()
        assert "def install(C)" in src, name
        assert "\nimport torch" not in src and "\nfrom torch" not in src, name


# ---- schemas -------------------------------------------------------------------------------


def _enc(v):
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
        return ["list", [_enc(x) for x in v]]
    return ["device", v.text]  # schema._Device; upstream hands out torch.device


def _arg_facts(a):
    ai = a.alias_info
    alias = None if ai is None else [ai.is_write, sorted(ai.before_set), sorted(ai.after_set)]
    default = _enc(a._default) if a.has_default_value() else "<none>"
    return [a.name, str(a.type), a.type.str(), type(a.type).__name__, a.type.kind(),
            str(a.real_type), a.real_type.str(), a.real_type.kind(), a.N, a.kwarg_only, a.is_out,
            a.is_write, alias, default]


def _schema_outcomes(C):
    table = DATA["arg_table"]
    out = {"ok": 0, "err": 0, "str": [], "facts": [], "flags": [], "hash": []}
    for d in DATA["schemas"]:
        try:
            s = C.parse_schema(d["s"])
        except RuntimeError:
            out["err"] += 1
            if d["reparsed"][0] != "err":
                out["str"].append(d["s"])
            continue
        out["ok"] += 1
        if d["reparsed"] != ["ok", str(s)]:
            out["str"].append(d["s"])
        facts = [[_arg_facts(a) for a in s.arguments], [_arg_facts(a) for a in s.returns]]
        want = [[table[i] for i in d["args"]], [table[i] for i in d["rets"]]]
        if json.loads(json.dumps(facts)) != want:
            out["facts"].append(d["s"])
        if [s.name, s.overload_name, s.is_mutable, s._is_view_op()] != [
                d["name"], d["overload"], d["is_mutable"], d["view"]]:
            out["flags"].append(d["s"])
        try:
            hash(s)
            h = "ok"
        except RuntimeError as e:
            h = f"RuntimeError: {e}"
        if h != d["hash"]:
            out["hash"].append(d["s"])
    return out


@pytest.fixture(scope="module")
def schema_outcomes(C):
    return _schema_outcomes(C)


def test_every_registered_schema_parses_as_upstream(schema_outcomes):
    # 4417 distinct schemas of upstream's registry; one (PyObject without a registered opaque
    # type) fails there too.
    assert len(DATA["schemas"]) == 4417
    assert sum(d["s"].startswith("aten::") for d in DATA["schemas"]) == 3754
    assert (schema_outcomes["ok"], schema_outcomes["err"]) == (4416, 1)


def test_every_schema_prints_exactly_like_upstream(schema_outcomes):
    assert schema_outcomes["str"] == []


def test_every_argument_and_return_matches_upstream(schema_outcomes):
    # name, type str/.str()/class/kind, real_type, N, kwarg_only, is_out, is_write, alias sets,
    # default_value.
    assert schema_outcomes["facts"] == []


def test_schema_name_overload_mutability_and_view(schema_outcomes):
    assert schema_outcomes["flags"] == []


def test_schema_hash_refuses_list_defaults_like_upstream(schema_outcomes):
    assert sum(d["hash"] != "ok" for d in DATA["schemas"]) == 92
    assert schema_outcomes["hash"] == []


def test_schema_edge_cases(C):
    mismatches = []
    for text, want in DATA["edge_schemas"].items():
        try:
            s = C.parse_schema(text)
        except RuntimeError:
            if "error" not in want:
                mismatches.append(text)
            continue
        got = {"str": str(s), "args": [_arg_facts(a) for a in s.arguments],
               "rets": [_arg_facts(a) for a in s.returns], "is_mutable": s.is_mutable,
               "view": s._is_view_op()}
        if json.loads(json.dumps(got)) != want:
            mismatches.append(text)
    assert len(DATA["edge_schemas"]) == 62
    assert mismatches == []


def test_schema_ast_is_the_parsers_output(C):
    # Note [Schema AST] in runtime/schema_parser.c: the one parser's tuples, read by the C
    # argument parser and by schema.py; the last item of an argument is its Note [Argument memo]
    # key (flags digit: return 4 + kwarg-only 2 + type variables 1, then the text).
    ast = C._torchnative._parse_schema("aten::f.o(Tensor(a!) x, SymInt[2] s=1, *, str m='a') -> "
                                       "Tensor(a!)", True)
    assert ast == (
        "aten::f", "o",
        (("x", ("TensorType", "Tensor"), ("TensorType", "Tensor"), None, False,
          (True, ("a",), ("a",), ()), 0, None, "1Tensor(a!) x"),
         ("s", ("ListType", ("IntType", "SymInt")), ("ListType", ("SymIntType", "SymInt")), 2,
          False, None, 2, (1, 1), "1SymInt[2] s=1"),
         ("m", ("StringType", "str"), ("StringType", "str"), None, True, None, 1, "a",
          "3str m='a'")),
        (("", ("TensorType", "Tensor"), ("TensorType", "Tensor"), None, False,
          (True, ("a",), ("a",), ()), 0, None, "5Tensor(a!)"),),
        False, False)
    assert C._torchnative._parse_schema("aten::f.o", True) == ("aten::f", "o")


def test_shared_arguments_keep_their_defaults_apart(C):
    # Note [Shared schema objects]: 1 == 1.0 == True and 0.0 == -0.0, but they print apart;
    # a bare `!` is numbered by position, so it is never shared.
    texts = ["aten::f(Scalar a=1) -> ()", "aten::f(Scalar a=1.) -> ()",
             "aten::f(Scalar a=True) -> ()", "aten::f(float a=0.) -> ()",
             "aten::f(float a=-0.) -> ()"]
    got = [(str(s), repr(s.arguments[0].default_value))
           for s in (C.parse_schema(t) for t in texts)]
    assert got == [("aten::f(Scalar a=1) -> ()", "1"), ("aten::f(Scalar a=1.) -> ()", "1.0"),
                   ("aten::f(Scalar a=True) -> ()", "True"), ("aten::f(float a=0.) -> ()", "0.0"),
                   ("aten::f(float a=0.) -> ()", "-0.0")]
    s = C.parse_schema("aten::f(Tensor! a, Tensor! b) -> ()")
    assert [a.alias_info._text() for a in s.arguments] == ["($0! -> )", "($1! -> )"]
    s = C.parse_schema("aten::g(Tensor! b) -> ()")
    assert s.arguments[0].alias_info._text() == "($0! -> )"


def test_typevars_only_with_allow_typevars_or_aten_prim(C):
    for text, want in DATA["edge_typevars_off"].items():
        try:
            got = ["ok", str(C.parse_schema(text, False))]
        except RuntimeError:
            got = ["err"]
        assert got == want[:len(got)], text


def test_parse_schema_refuses_a_bare_name(C):
    with pytest.raises(RuntimeError, match="only the operator name was given"):
        C.parse_schema("aten::foo")


def test_opaque_types_parse_as_pyobject(C):
    # torch.library defines without type variables; a dotted lower-case name is then unknown
    # until register_opaque_type registers it.
    text = "_dtensor::x(my.mod.Mesh m) -> my.mod.Mesh"
    with pytest.raises(RuntimeError, match="unknown type specifier"):
        C.parse_schema(text, False)
    C._register_opaque_type("my.mod.Mesh")
    try:
        assert C._is_opaque_type_registered("my.mod.Mesh")
        s = C.parse_schema(text, False)
        assert type(s.arguments[0].type) is C.PyObjectType
        with pytest.raises(RuntimeError, match="already registered"):
            C._register_opaque_type("my.mod.Mesh")
    finally:
        C._unregister_opaque_type("my.mod.Mesh")
    assert not C._is_opaque_type_registered("my.mod.Mesh")


def test_schema_equality_pickle_and_constructors(importable):
    C = importable
    a = C.parse_schema("aten::foo(Tensor a, int b=1) -> Tensor")
    b = C.parse_schema("aten::foo(Tensor a, int b=1) -> Tensor")
    assert a == b and hash(a) == hash(b)
    assert a != C.parse_schema("aten::foo(Tensor a, int b=2) -> Tensor")
    assert pickle.loads(pickle.dumps(a)) == a
    assert copy.deepcopy(a) == a and a.__getstate__() == str(a)
    arg = C.Argument("x", C.IntType.get(), None, 3, False, None)
    assert (arg.default_value, arg.has_default_value(), arg.real_type is arg.type) == (3, True, True)
    s = C.FunctionSchema("aten::x", "", [arg], [], False, False)
    assert str(s) == "aten::x(int x=3) -> ()"
    assert isinstance(a.arguments, list) and a.arguments is not a.arguments


def test_alias_info_constructor_wants_qualified_symbols(C):
    ai = C._AliasInfo(True, {"alias::a"}, {"alias::a"})
    assert (ai.is_write, ai.before_set, ai.after_set) == (True, {"a"}, {"a"})
    with pytest.raises(RuntimeError, match="namespace"):
        C._AliasInfo(True, {"a"}, {"a"})


def test_backward_and_forward_compatibility(C):
    old = C.parse_schema("aten::f(Tensor a, int b) -> Tensor")
    new = C.parse_schema("aten::f(Tensor a, int b, int c=1) -> Tensor")
    assert new.is_backward_compatible_with(old)
    assert not old.is_backward_compatible_with(new)
    assert new.check_forward_compatible_with(old) == (True, "")


# ---- JIT types -----------------------------------------------------------------------------


def _eval_type(C, expr):
    return eval(expr, {n: getattr(C, n) for n in dir(C)})


def test_type_spellings_match_upstream(C):
    got = {}
    for expr in DATA["types"]:
        t = _eval_type(C, expr)
        got[expr] = [type(t).__name__, str(t), repr(t), t.str(), t.annotation_str, t.kind(),
                     [str(x) for x in t.containedTypes()]]
    assert len(got) == 27
    assert got == DATA["types"]


def test_subtyping_matches_upstream(C):
    for case, want in DATA["subtypes"].items():
        a, b = case.split(" <: ")
        assert _eval_type(C, a).isSubtypeOf(_eval_type(C, b)) == want, case


def test_type_singletons_are_the_same_object_and_types_unhashable(C):
    for cls in (C.TensorType, C.IntType, C.FloatType, C.BoolType, C.StringType, C.NoneType,
                C.NumberType, C.DeviceObjType, C.AnyType, C.SymIntType, C._GeneratorType):
        assert cls.get() is cls.get()
    assert C.parse_schema("aten::f(int a) -> int").arguments[0].type is C.IntType.get()
    assert C.ListType(C.IntType.get()) == C.ListType(C.IntType.get())
    assert C.ListType(C.IntType.get()) is not C.ListType(C.IntType.get())
    assert C.ListType.ofInts() is C.ListType.ofInts()
    with pytest.raises(TypeError):
        hash(C.IntType.get())
    with pytest.raises(TypeError, match="No constructor defined"):
        C.IntType()


# ---- dispatch keys -------------------------------------------------------------------------


def _dispatch_facts(C):
    D, S = C.DispatchKey, C.DispatchKeySet
    vals = range(0, 156)
    f = {
        "members": [[n, int(k)] for n, k in D.__members__.items()],
        "names": {str(v): C._dispatch_key_name(D(v)) for v in vals},
        "single": {str(v): [repr(S(D(v))), S(D(v)).raw_repr(),
                            repr(S(D(v)).highestPriorityTypeId())] for v in vals},
        "full": [repr(C._dispatch_keyset_full()), C._dispatch_keyset_full().raw_repr()],
        "full_after": {str(v): C._dispatch_keyset_full_after(D(v)).raw_repr()
                       for v in range(1, 47)},
        "in_alias": {f"{v},{a}": C._dispatch_is_included_in_alias(D(v), D(a))
                     for v in vals for a in range(150, 156)},
        "is_alias": {str(v): C._dispatch_is_alias_key(D(v)) for v in vals},
        "to_func": {str(v): int(C._to_functionality_key(D(v))) for v in vals},
        "func_backends": {str(v): [int(k) for k in C._functionality_to_backend_keys(D(v))]
                          for v in range(0, 47)},
        "from_autograd": {str(v): C._dispatch_get_backend_keyset_from_autograd(D(v)).raw_repr()
                          for v in vals},
        "constants": {n: getattr(C, n).raw_repr() for n in DATA["dispatch"]["constants"]},
        "parse": {n: (None if C._parse_dispatch_key(n) is None else int(C._parse_dispatch_key(n)))
                  for n in DATA["dispatch"]["parse"]},
        "reprs": [repr(D.CPU), str(D.CPU), D.CPU.name, D.CPU.value, repr(D(12)), D(12).name,
                  hash(D.CPU), D.CPU == 49, D.CPU == D(49)],
    }
    pairs = {}
    for key in DATA["dispatch"]["pairs"]:
        a, b = map(int, key.split(","))
        x, y = S(D(a)), S(D(b))
        pairs[key] = [(x | y).raw_repr(), (x & y).raw_repr(), (x - y).raw_repr(),
                      x.add(D(b)).raw_repr(), x.remove(D(b)).raw_repr(), x.has(D(b)),
                      int((x | y).highestPriorityTypeId()), repr(x | y), x == y]
    f["pairs"] = pairs
    return f


@pytest.fixture(scope="module")
def dispatch_facts(C):
    return _dispatch_facts(C)


@pytest.mark.parametrize("part", ["members", "names", "single", "full", "full_after", "in_alias",
                                  "is_alias", "to_func", "func_backends", "from_autograd",
                                  "constants", "parse", "reprs", "pairs"])
def test_dispatch_key_algebra_matches_upstream(dispatch_facts, part):
    assert dispatch_facts[part] == DATA["dispatch"][part]


def test_dispatch_key_counts(C):
    assert len(C.DispatchKey.__members__) == 145
    assert C._dispatch_keyset_full().raw_repr() == (1 << 62) - 1


def test_dispatch_key_for_device(C):
    for dev, want in DATA["dispatch"]["for_device"].items():
        try:
            got = ["ok", C._dispatch_key_for_device(dev)]
        except RuntimeError:
            got = ["err"]
        assert got == want[:len(got)], dev


def test_dispatch_keyset_accepts_key_names_and_chains(importable):
    C = importable
    full = C._dispatch_keyset_full()
    ks = full.remove(C.DispatchKey.Python).remove("Functionalize").add(C.DispatchKey.CPU)
    assert not ks.has(C.DispatchKey.Python) and ks.has(C.DispatchKey.CPU)
    assert repr(C.DispatchKeySet("CPU")) == "DispatchKeySet(CPU)"
    with pytest.raises(TypeError):
        hash(ks)
    assert pickle.loads(pickle.dumps(ks)) == ks


def test_dispatch_key_guards_are_context_managers(C):
    with C._ExcludeDispatchKeyGuard(C.DispatchKeySet(C.DispatchKey.Python)):
        with C._IncludeDispatchKeyGuard(C.DispatchKey.CPU):
            with C._AutoDispatchBelowAutograd():
                pass


# ---- enums ---------------------------------------------------------------------------------


def _find(C, path):
    obj = C
    for part in path.split(".")[2:]:
        obj = getattr(obj, part)
    return obj


def test_every_upstream_enum_has_upstreams_members_in_order(C):
    assert len(DATA["enums"]) == 41
    for path, members in DATA["enums"].items():
        cls = _find(C, path)
        assert [[n, int(v)] for n, v in cls.__members__.items()] == members, path


def test_tag_is_tags_yaml_in_sorted_order(C):
    assert [[n, int(v)] for n, v in C.Tag.__members__.items()] == DATA["tags"]
    assert len(DATA["tags"]) == 20


def test_enums_behave_like_pybind11_enums(importable):
    C = importable
    k = C.DispatchKey.CPU
    assert isinstance(k, C.DispatchKey) and not isinstance(k, int)
    assert (k.name, k.value, int(k), k.__index__(), hash(k)) == ("CPU", 49, 49, 49, 49)
    assert k != 49 and k == C.DispatchKey(49) and C.DispatchKey(49) is k
    assert pickle.loads(pickle.dumps(k)) is k
    with pytest.raises(TypeError):
        iter(C.DispatchKey)
    with pytest.raises(TypeError):
        k < C.DispatchKey.CUDA  # noqa: B015
    assert C.DispatchKey.EndOfDenseBackends.name == "Meta"
    assert (C.SUM, C.AVG) == (C.AggregationType.SUM, C.AggregationType.AVG)
    assert C._monitor.MEAN is C._monitor.Aggregation.MEAN


def test_build_flags_are_upstreams_except_the_machinery_we_lack(C):
    upstream = DATA["build_flags"]
    ours = {n: getattr(C, n) for n in upstream}
    assert all(type(v) is bool for v in ours.values())
    differ = sorted(n for n in upstream if ours[n] != upstream[n])
    assert differ == ["_has_mkldnn", "has_lapack", "has_mkl", "has_openmp", "has_spectral"]
    assert not any(ours[n] for n in differ)


# ---- the surface: manifest, placeholders, absent names -------------------------------------


def test_manifest_is_up_to_date():
    r = subprocess.run([sys.executable, str(ROOT / "codegen" / "surface.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_no_module_has_a_catch_all_getattr(C):
    mods = [m for k, m in sys.modules.items()
            if k.startswith("torch._C.") and isinstance(m, types.ModuleType)]
    assert len(mods) == 36
    for m in mods + [C]:
        assert "__getattr__" not in vars(m), m.__name__


def test_function_placeholders_are_functions_that_refuse_by_name(C):
    ph = C._jit_pass_lint
    assert "torch._C._jit_pass_lint" in C._tn_placeholders
    assert isinstance(ph, types.FunctionType) and ph._tn_placeholder is True
    with pytest.raises(NotImplementedError, match=r"torch\._C\._jit_pass_lint is not implemented"):
        ph()
    assert ph.__doc__ is None
    ph.__module__ = "torch"
    ph.__doc__ = "set by _add_docstr"
    assert (ph.__module__, ph.__doc__) == ("torch", "set by _add_docstr")
    assert C._fx_map_arg is not C._fx_map_aggregate  # one object per name


def test_constant_placeholders_refuse_truth_tests(C):
    ph = C.default_generator  # the C core's; a stub constant until it provides it
    assert "torch._C.default_generator" in C._tn_placeholders
    with pytest.raises(NotImplementedError, match=r"torch\._C\.default_generator"):
        bool(ph)
    with pytest.raises(NotImplementedError):
        ph()


def test_class_placeholders_are_real_classes_that_refuse_construction(C):
    cls = C.ScriptModule
    assert isinstance(cls, type) and "torch._C.ScriptModule" in C._tn_placeholders
    with pytest.raises(NotImplementedError, match=r"torch\._C\.ScriptModule"):
        cls()

    class Sub(cls):
        pass

    assert issubclass(Sub, cls)
    with pytest.raises(NotImplementedError):
        Sub()
    member = C._tn_manifest["MODULES"]["torch._C"]["ScriptModule"][2][0]
    with pytest.raises(NotImplementedError, match=rf"torch\._C\.ScriptModule\.{member}"):
        getattr(cls, member)(None)


def test_a_class_the_tree_passes_to_type_gets_a_metaclass_other_than_type(C):
    # torch/_awaits: class _PyAwaitMeta(type(torch._C._Await), type(Generic))
    import typing
    assert type(C._Await) is not type
    meta = type("_PyAwaitMeta", (type(C._Await), type(typing.Generic)), {})
    assert issubclass(meta, type)
    assert type(C.Future) is type  # 2.13's torch.futures.Future adds no metaclass


def test_exception_classes_are_simply_real(C):
    err = C.OutOfMemoryError("boom")
    assert isinstance(err, RuntimeError) and str(err) == "boom"


def _absent():
    import yaml
    return yaml.safe_load((ROOT / "schemas" / "surface_absent.yaml").read_text())


def test_absent_names_are_absent(C):
    data = _absent()
    count = 0
    for mod, names in data["names"].items():
        obj = _find(C, mod)
        for name in names:
            assert not hasattr(obj, name), f"{mod}.{name}"
            count += 1
    for mod in data["modules"]:
        assert mod not in sys.modules
        parent, _, leaf = mod.rpartition(".")
        assert not hasattr(_find(C, parent), leaf), mod
    assert count == 312 and len(data["modules"]) == 6


def test_feature_switches_read_like_upstreams_cpu_wheel(C):
    # hasattr probes of the tree (generated PROBES) that must be off...
    for name in ("_cuda_getDeviceCount", "_cuda_isInBadFork", "_xpu_getDeviceCount",
                 "_cuda_CUDAAllocator", "_CudaStreamBase", "_MemPool", "_gds_register_buffer",
                 "_mps_compileShader", "_nccl_all_reduce", "_rpc_init", "_dist_autograd_init"):
        assert not hasattr(C, name), name
    # "gloo" is served by torchnative's own backend (Note [gloo is served by the star backend])
    assert hasattr(C._distributed_c10d, "ProcessGroupGloo")
    assert not hasattr(C._distributed_c10d, "ProcessGroupNCCL")
    # ... and on.
    assert hasattr(C, "_c10d_init") and C._c10d_init() is True


def test_every_manifest_name_exists(C):
    manifest = C._tn_manifest["MODULES"]
    missing = [f"{mod}.{n}" for mod, ents in manifest.items() for n in ents
               if not hasattr(_find(C, mod), n)]
    assert missing == []
    assert sum(len(e) for e in manifest.values()) == 1442  # 1417 + schemas/surface_extra.yaml's 25


def test_top_level_names_against_upstream(C):
    upstream = set(DATA["dir_after_torch"]) - set(DATA["python_dummies"])
    ours = {n for n in dir(C) if not (n.startswith("__") and n.endswith("__"))}
    extra = sorted(n for n in ours - upstream)
    # _torchnative: the stand-in's share of the C core's private module (load())
    assert extra == ["_tn_c10d", "_tn_manifest", "_tn_placeholders", "_tn_schema", "_tn_support",
                     "_torchnative"]
    # Upstream names neither the stubs nor the tree name, and the rpc switches: the C core
    # may add some; nothing of ours should.
    assert len(upstream - ours) == 155
    assert len(ours & upstream) == 795
    assert len(DATA["dir_after_torch"]) == 977 and len(DATA["dir_at_load"]) == 932
    assert len(DATA["python_dummies"]) == 27


# Per submodule of upstream: [names we have, upstream names we lack]. What we lack there are
# names no stub declares and the tree never reads (guards' leaf-guard constants, the 656 autograd
# node classes of _functions, _te, _return_types, ViewMeta classes ...): the C core may add them.
SUBMODULES = {
    "torch._C._acc": [5, 0], "torch._C._aoti": [6, 0], "torch._C._autograd": [38, 6],
    "torch._C._cpu": [2, 0], "torch._C._distributed": [5, 0],
    "torch._C._distributed_c10d": [69, 7], "torch._C._dynamo": [12, 0],
    "torch._C._dynamo.compiled_autograd": [5, 0], "torch._C._dynamo.eval_frame": [37, 0],
    "torch._C._dynamo.guards": [80, 6], "torch._C._dynamo.utils": [1, 0],
    "torch._C._export": [7, 0], "torch._C._export.pt2_archive_constants": [27, 0],
    "torch._C._fft": [22, 0], "torch._C._functionalization": [4, 52],
    "torch._C._functions": [2, 656], "torch._C._functorch": [59, 0],
    "torch._C._instruction_counter": [2, 0], "torch._C._itt": [4, 0], "torch._C._jit": [0, 0],
    "torch._C._jit_tree_views": [48, 0], "torch._C._lazy": [18, 2],
    "torch._C._lazy_ts_backend": [3, 1], "torch._C._linalg": [43, 0],
    "torch._C._monitor": [16, 0], "torch._C._nativert": [0, 1], "torch._C._nested": [2, 0],
    "torch._C._nn": [96, 0], "torch._C._onnx": [4, 0], "torch._C._profiler": [45, 1],
    "torch._C._return_types": [0, 85], "torch._C._sparse": [7, 1], "torch._C._special": [56, 0],
    "torch._C._te": [0, 69], "torch._C._verbose": [2, 0], "torch._C.cpp": [1, 2],
    "torch._C.cpp.nn": [0, 1],
    "torch._C._distributed_rpc": "absent", "torch._C._distributed_autograd": "absent",
}


def test_submodule_names_against_upstream(C):
    summary, extras = {}, {}
    for path, names in DATA["module_dirs"].items():
        if path == "torch._C":
            continue
        try:
            mod = _find(C, path)
        except AttributeError:
            summary[path] = "absent"
            continue
        ours = {n for n in dir(mod) if not (n.startswith("__") and n.endswith("__"))}
        summary[path] = [len(ours & set(names)), len(set(names) - ours)]
        if ours - set(names):
            extras[path] = sorted(ours - set(names))
    assert extras == {}
    assert summary == SUBMODULES


def test_sys_modules_after_init(C):
    ours = sorted(k for k in sys.modules if k.startswith("torch._C."))
    upstream = [k for k in DATA["sys_modules_after_torch"] if k != "torch._C"]
    assert len(upstream) == 38
    assert sorted(set(upstream) - set(ours)) == ["torch._C._distributed_autograd",
                                                 "torch._C._distributed_rpc"]
    assert sorted(set(ours) - set(upstream)) == []
    assert C._functions.__name__ == "torch._C._functions"
    assert C._dynamo.compiled_autograd.__name__ == "torch._C._dynamo.autograd_compiler"


def test_from_torch_C_dynamo_eval_frame_import_works(C):
    ns = {}
    exec("from torch._C._dynamo.eval_frame import set_eval_frame, _FrameAction", ns)
    assert ns["set_eval_frame"] is C._dynamo.eval_frame.set_eval_frame
    exec("from torch._C._export.pt2_archive_constants import ARCHIVE_ROOT_NAME", ns)
    exec("from torch._C._distributed_c10d import HashStore, ProcessGroup", ns)


# ---- distributed ---------------------------------------------------------------------------


def test_hash_store_and_prefix_store_match_upstream(C):
    M = C._distributed_c10d
    env = {"M": M, "st": M.HashStore(), "datetime": datetime}
    ran = 0
    for expr, want in DATA["distributed"]["store_log"]:
        if expr.startswith("ps.set"):
            env["ps"] = M.PrefixStore("pre", env["st"])
        if expr == "st.get('missing')":
            env["st"].set_timeout(datetime.timedelta(milliseconds=10))
        try:
            got = repr(eval(expr, env))
        except Exception as e:  # noqa: BLE001
            got = ["err", type(e).__name__]
        assert got == (want[:2] if isinstance(want, list) else want), expr
        ran += 1
    assert ran == 42


def test_store_is_subclassable_and_prefix_store_wraps_it(C):
    M = C._distributed_c10d

    class MyStore(M.Store):
        def __init__(self):
            super().__init__()
            self.d = {}

        def set(self, k, v):
            self.d[k] = v

        def get(self, k):
            return self.d[k]

    s = MyStore()
    M.PrefixStore("x", s).set("a", "q")
    assert s.d == {"x/a": b"q"} and M.PrefixStore("x", s).get("a") == b"q"
    assert s.timeout == datetime.timedelta(seconds=300)
    with pytest.raises(RuntimeError, match="add"):
        s.add("k", 1)


def test_placements_match_upstream(C):
    ns = {n: getattr(C._distributed, n) for n in dir(C._distributed)}
    got = {}
    for expr in DATA["placements"]:
        try:
            got[expr] = ["ok", repr(eval(expr, ns))]
        except Exception as e:  # noqa: BLE001
            got[expr] = ["err", type(e).__name__]
    want = {k: v[:2] for k, v in DATA["placements"].items()}
    # pybind11 bases end in pybind11_object; ours in object.
    key = "[b.__name__ for b in StridedShard.__mro__[:-2]]"
    assert want[key] == ["ok", "['StridedShard', 'Placement']"]
    got[key] = ["ok", repr([b.__name__ for b in C._distributed.StridedShard.__mro__[:-1]])]
    assert len(want) == 33
    assert got == want


def test_reduce_op_matches_upstream(C):
    R = C._distributed_c10d.ReduceOp
    want = DATA["distributed"]["reduce_op"]
    assert list(R.RedOpType.__members__) == want["members"]
    assert (R(R.SUM) == R.SUM) is want["SUM==ReduceOp(SUM)"]
    assert isinstance(R.SUM, R) is want["isinstance"]
    assert R.PREMUL_SUM(2.0).factor == want["premul_factor"]
    assert R.PREMUL_SUM(2.0).op.name == want["premul_op"]
    with pytest.raises(RuntimeError, match="Only PREMUL_SUM"):
        R.SUM(2.0)
    with pytest.raises(RuntimeError, match="accessing factor"):
        R(R.SUM).factor  # noqa: B018
    assert hash(R(R.MAX)) == want["hash"]
    assert hasattr(R, "UNUSED") is want["has_UNUSED"]
    assert type(R).__name__ == want["meta"]


def test_options_backend_types_constants_and_errors(C):
    M = C._distributed_c10d
    d = DATA["distributed"]
    o = d["options"]
    assert str(M.AllreduceOptions().timeout) == o["AllreduceOptions.timeout"]
    assert M.AllreduceOptions().asyncOp is o["AllreduceOptions.asyncOp"]
    assert M.AllreduceOptions().reduceOp.op.name == o["AllreduceOptions.reduceOp"]
    assert M.BroadcastOptions().rootRank == o["BroadcastOptions.rootRank"]
    assert M.BarrierOptions().device_ids == o["BarrierOptions.device_ids"]
    assert M.Backend.Options("x").backend == o["Backend.Options('x').backend"]
    assert str(M.Backend.Options("x")._timeout) == o["Backend.Options('x')._timeout"]
    assert str(M._DistributedBackendOptions().timeout) == o["_DistributedBackendOptions().timeout"]
    assert M.FakeProcessGroup.Options().fake_option == o["FakeProcessGroup.Options().fake_option"]
    assert [[n, int(v)] for n, v in M.ProcessGroup.BackendType.__members__.items()] == \
        d["backend_type"]
    assert M.ProcessGroup.GLOO is M.ProcessGroup.BackendType.GLOO
    assert {k: str(getattr(M, k)) if k != "_DEFAULT_FIRST_BUCKET_BYTES" else getattr(M, k)
            for k in d["constants"]} == d["constants"]
    for name, (cls_name, module, bases) in d["errors"].items():
        cls = getattr(C, name)
        assert [cls.__name__, cls.__module__, [b.__name__ for b in cls.__mro__[1:]]] == \
            [cls_name, module, bases]


def test_process_group_dispatches_to_its_backend_and_fake_moves_nothing(C):
    M = C._distributed_c10d
    pg = M.ProcessGroup(M.HashStore(), 0, 1)
    assert (pg.rank(), pg.size(), pg.name(), pg.group_desc, pg._has_hooks()) == \
        (0, 1, "undefined", "", False)
    with pytest.raises(RuntimeError, match="No backend type associated with device type cpu"):
        pg.allreduce([])
    with pytest.raises(RuntimeError, match="name not set"):
        pg.group_name  # noqa: B018
    fake = M.FakeProcessGroup._create_internal(0, 1)
    assert (fake.name(), fake.rank(), fake.size()) == ("fake", 0, 1)
    with pytest.raises(TypeError, match="No constructor"):
        M.FakeProcessGroup(0, 1)
    pg._register_backend("cpu", M.ProcessGroup.BackendType.CUSTOM, fake)
    pg._set_default_backend(M.ProcessGroup.BackendType.CUSTOM)
    data = [1.0, 2.0]
    work = pg.allreduce([data])
    assert isinstance(work, M.FakeWork) and work.wait() is True and data == [1.0, 2.0]
    assert pg.name() == "custom" and pg._get_backend("cpu") is fake
    opts = M.FakeProcessGroup.Options()
    opts.error_on_collective = True
    with pytest.raises(RuntimeError, match="error_on_collective"):
        M.FakeProcessGroup._create_internal(0, 1, opts).barrier()


def test_a_bare_work_refuses_to_wait_forever(C):
    w = C._distributed_c10d.Work()
    assert (w.is_completed(), w.exception()) == (False, None)
    with pytest.raises(NotImplementedError, match="Work.wait"):
        w.wait()


def test_process_group_registry_and_debug_level(C):
    M = C._distributed_c10d
    pg = M.ProcessGroup(M.HashStore(), 0, 1)
    M._register_process_group("g1", pg)
    assert M._resolve_process_group("g1") is pg
    with pytest.raises(RuntimeError, match="Could not resolve the process group"):
        M._resolve_process_group("nope")
    M._unregister_all_process_groups()
    assert repr(M.get_debug_level()) == DATA["distributed"]["debug_level"]
    M.set_debug_level(M.DebugLevel.INFO)
    assert M.get_debug_level() is M.DebugLevel.INFO
    M.set_debug_level(M.DebugLevel.OFF)


def test_world_size_one_helpers_do_not_pretend_beyond_one_rank(C):
    M = C._distributed_c10d
    one, two = M.ProcessGroup(0, 1), M.ProcessGroup(0, 2)
    assert M._verify_params_across_processes(one, [], None) is None
    with pytest.raises(NotImplementedError):
        M._verify_params_across_processes(two, [], None)
    with pytest.raises(NotImplementedError):
        M._broadcast_coalesced(two, [], 0, 0)
    with pytest.raises(NotImplementedError, match="Reducer"):
        M.Reducer([], [], [], one).prepare_for_forward()


# ---- dynamo, export, functorch, autograd, jit ----------------------------------------------


def test_dynamo_helpers_match_upstream(C):
    d = DATA["dynamo"]
    Dy = C._dynamo
    assert {s: Dy.is_valid_var_name(s) for s in d["is_valid_var_name"]} == d["is_valid_var_name"]
    assert {s: Dy.strip_function_call(s) for s in d["strip_function_call"]} == \
        d["strip_function_call"]
    assert list(Dy.eval_frame.py_opcode_caches) == d["py_opcode_caches"]
    E = Dy.eval_frame
    got = {"get_c_recursion_limit": E.get_c_recursion_limit(),
           "get_eval_frame_callback": repr(E.get_eval_frame_callback()),
           "get_eval_frame_isolate_recompiles_id": E.get_eval_frame_isolate_recompiles_id(),
           "NULL_STACK_VALUE": repr(E.NULL_STACK_VALUE),
           "FrameExecStrategy()": [E._FrameExecStrategy().cur_action.name,
                                   E._FrameExecStrategy().recursive_action.name]}
    assert got == d["defaults"]


def test_code_framelocals_names(C):
    def f_sample(a, b=1, *c, **d):
        x = 1

        def g():
            return x + a
        return g

    E = C._dynamo.eval_frame
    assert [list(E.code_framelocals_names(f_sample.__code__)),
            list(E.code_framelocals_names(f_sample(1).__code__))] == \
        DATA["dynamo"]["code_framelocals_names"]


def test_set_eval_frame_takes_off_callbacks_and_refuses_compiling(C):
    E = C._dynamo.eval_frame
    assert E.set_eval_frame(None) is None
    assert E.set_eval_frame(False) is None
    assert E.set_eval_frame(None) is False
    with pytest.raises(NotImplementedError, match="PEP 523"):
        E.set_eval_frame(lambda *a: None)
    with pytest.raises(NotImplementedError, match="compiled autograd"):
        C._dynamo.compiled_autograd.set_autograd_compiler(object(), False)
    assert C._dynamo.compiled_autograd.set_autograd_compiler(None, False) == (None, False)


def test_pt2_archive_constants(C):
    want = DATA["dynamo"]["pt2_archive_constants"]
    assert len(want) == 27
    assert {k: getattr(C._export.pt2_archive_constants, k) for k in want} == want


def test_functorch_answers_for_plain_tensors(C):
    F = C._functorch
    plain = object()
    got = {}
    for name, want in DATA["functorch"].items():
        fn = getattr(F, name)
        try:
            got[name] = fn(plain)
        except TypeError:
            got[name] = fn()
    assert got == DATA["functorch"]
    with pytest.raises(NotImplementedError, match="vmap"):
        F._vmap_increment_nesting(2, "error")
    assert F.TransformType.Vmap.value == 1


def test_saved_tensor_hooks_stack(C):
    A = C._autograd
    want = DATA["autograd"]
    assert A._saved_tensors_hooks_get_disabled_error_message() == \
        want["_saved_tensors_hooks_get_disabled_error_message"]
    assert repr(A._top_saved_tensors_default_hooks(False)) == \
        want["_top_saved_tensors_default_hooks"]
    A._push_saved_tensors_default_hooks(len, str)
    assert A._top_saved_tensors_default_hooks(False) == (len, str)
    with pytest.raises(RuntimeError, match="no hooks"):
        A._saved_tensors_hooks_disable("no hooks here")
    A._pop_saved_tensors_default_hooks()
    A._saved_tensors_hooks_disable("hooks are off")
    assert not A._saved_tensors_hooks_is_enabled()
    with pytest.raises(RuntimeError, match="hooks are off"):
        A._push_saved_tensors_default_hooks(len, str)
    A._saved_tensors_hooks_enable()
    assert A._saved_tensors_hooks_is_enabled() is want["_saved_tensors_hooks_is_enabled"]


def test_profiler_is_off_and_refuses_to_start(C):
    A = C._autograd
    want = DATA["autograd"]
    assert A._profiler_enabled() is want["_profiler_enabled"]
    assert repr(A._profiler_type()) == want["_profiler_type"]
    assert sorted(repr(a) for a in A._supported_activities()) == want["_supported_activities"]
    # Upstream's wheel has Kineto; torchnative does not.
    assert want["kineto_available"] is True and A.kineto_available() is False
    with pytest.raises(NotImplementedError, match="profiler"):
        A._enable_profiler(None, set())
    with C._profiler._RecordFunctionFast("scope"):
        pass


def test_monitor_stat_events_and_wait_counter(C):
    M = C._monitor
    s = M.Stat("s", [M.Aggregation.SUM, M.Aggregation.MEAN], 2)
    for v in (1, 2, 3):
        s.add(v)
    assert s.get() == {M.Aggregation.SUM: 3.0, M.Aggregation.MEAN: 1.5} and s.count == 3
    seen = []
    h = M.register_event_handler(seen.append)
    M.log_event(M.Event("e", datetime.datetime.now(), {}))
    M.unregister_event_handler(h)
    M.log_event(M.Event("e", datetime.datetime.now(), {}))
    assert len(seen) == 1
    with M._WaitCounter("k").guard():
        pass


def test_source_ranges_and_error_report_match_upstream(C):
    J = C._jit_tree_views
    want = DATA["jit"]
    fac = J.SourceRangeFactory("def f(x):\n    return x + 1\n", "f.py", 10, 0)
    r = fac.make_range(2, 4, 10)
    assert [r.highlight(), r.start, r.end] == want["make_range"]
    assert [fac.make_raw_range(0, 3).highlight(), str(fac.make_raw_range(0, 3))] == \
        want["make_raw_range"]
    assert J.SourceRangeFactory("abc", None, 1, 0).make_raw_range(0, 1).highlight() == \
        want["no_file"]
    assert C.ErrorReport(r).what() == want["error_report"]
    assert C.ErrorReport.call_stack() == want["call_stack"]
    assert [c.__name__ for c in J.Var.__mro__[:-1]] == want["mro_Var"]
    assert J.Ident(fac.make_raw_range(0, 1), "x").name == want["ident_name"]

    class SourceContext(J.SourceRangeFactory):  # torch._sources subclasses it
        def __init__(self, source, filename, file_lineno, leading_whitespace_len,
                     uses_true_division=True, funcname=None):
            super().__init__(source, filename, file_lineno, leading_whitespace_len)

    assert SourceContext("abc", None, 1, 0).source == "abc"
    assert len([n for n in dir(J) if not n.startswith("__")]) == 48


def test_compilation_unit_is_constructible_and_refuses_to_compile(C):
    cu = C.CompilationUnit()
    with pytest.raises(NotImplementedError, match="TorchScript"):
        cu.define("def f(x): return x")


def test_constant_answers_match_upstream(C):
    # Every name cold.py answers, and nothing else, is in the upstream capture.
    ns = {"__name__": "torch._C"}
    exec(compile(_path("cold.py").read_text(), "cold.py", "exec"), ns)
    assert sorted(ns["ANSWERS"]) == sorted(DATA["cold"])
    got = {n: repr(getattr(C, n)(*args)) for n, args in DATA["cold_calls"].items()}
    assert got == DATA["cold"]
    assert not any(f"torch._C.{n}" in C._tn_placeholders for n in DATA["cold"])


def test_init_functions(C):
    assert C._jit_init() is True and C._autograd_init() is True
    assert C._multiprocessing_init() is True
    assert callable(sys.modules["torch.multiprocessing"]._prctl_pr_set_pdeathsig)
