"""The generator's model: every ATen overload and every Python binding, from upstream's own data.

Loads native_functions.yaml, tags.yaml and deprecated.yaml through the vendored torchgen (so
overload order, grouping and signature strings are upstream's), checks them against
schemas/pinned.yaml, and joins them with our hand list schemas/kernels.yaml. Every decision
about what is emitted is made here; templates only loop and substitute.
"""
from __future__ import annotations

import dataclasses
import hashlib
import os
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(os.environ.get("TN_SITE", ROOT / "build" / "site"))

if str(SITE) not in sys.path:
    sys.path.insert(0, str(SITE))
if str(ROOT / "codegen") not in sys.path:
    sys.path.insert(0, str(ROOT / "codegen"))

from schema_print import schema_string  # noqa: E402

PINNED = ROOT / "schemas" / "pinned.yaml"
KERNELS = ROOT / "schemas" / "kernels.yaml"
EXTRA_OPS = ROOT / "schemas" / "extra_ops.yaml"

# The Python modules upstream binds operators into, with the predicate gen_python_functions uses.
BINDING_MODULES = ["torch", "nn", "fft", "linalg", "nested", "sparse", "special"]


def c_ident(name: str) -> str:
    """ATen overload name -> C identifier, mechanically: add.Tensor -> add__Tensor."""
    base, _, overload = name.partition(".")
    return f"{base}__{overload}" if overload else base


# Note [Concrete int lists]
# c10::SymInt stores a value below -2**62 in its heap encoding (is_heap_allocated), as a symbolic
# integer would be. The dispatcher's registration wrapper of a kernel written for int lists
# (its BackendMetadata without "_symint") converts each SymInt[] argument with
# C10_AS_INTARRAYREF_SLOW, which raises "SymIntArrayRef expected to contain only concrete
# integers" for such a value before the kernel checks anything (torch.roll(t, -2**63) on CPU). The
# kernel CPU calls reach is the CPU key's, else CompositeExplicitAutograd(NonFunctional)'s, else
# CompositeImplicitAutograd's; a `_symint` kernel takes the value as it is, and so does ours.
# A call on a meta self reaches the Meta key's kernel instead: where that one is `_symint`
# (as_strided, resize_, set_.source_Storage_storage_offset) nothing is converted, so the glue
# checks only a self that is not meta (meta_symint below). A CompositeImplicitAutograd kernel that
# calls such an op converts nothing itself: ours checks where it calls it (set_.source_Tensor_
# storage_offset in ops/factory.c).
_CPU_KEYS = ("CPU", "CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional",
             "CompositeImplicitAutograd")


def concrete_lists(backend_indices, natives) -> dict:
    """{overload name: [argument index]} of the SymInt[] arguments Note [Concrete int lists] checks."""
    from torchgen.model import DispatchKey
    out = {}
    for f in natives:
        meta = None
        for key in _CPU_KEYS:
            meta = backend_indices[getattr(DispatchKey, key)].get_kernel(f)
            if meta is not None:
                break
        if meta is None or meta.supports_symint():
            continue
        idx = [i for i, a in enumerate(f.func.arguments.flat_all)
               if str(a.type).rstrip("?").startswith("SymInt[")]
        if idx:
            out[str(f.func.name)] = idx
    return out


def meta_symint(backend_indices, natives) -> set:
    """Overloads whose Meta key kernel takes SymInt lists as they are (Note [Concrete int lists])."""
    from torchgen.model import DispatchKey
    meta = backend_indices[DispatchKey.Meta]
    return {str(f.func.name) for f in natives
            if meta.get_kernel(f) is not None and meta.get_kernel(f).supports_symint()}


@dataclasses.dataclass
class Op:
    index: int
    name: str            # "add"
    overload: str        # "Tensor" or ""
    schema: str          # upstream's printed schema, "aten::add.Tensor(...) -> Tensor"
    cname: str           # "add__Tensor"
    kind: str            # functional / inplace / out / mutable / scratch
    tags: list[str]
    is_view: bool        # returns an alias of an input
    # out= rule (Note [out= rules] in runtime/dispatch.c): "exact" for structured out overloads
    # that are not TensorIterator ops (their resize_out requires out.dtype == the result dtype);
    # "from_out" when in addition the meta function takes the computation dtype from out;
    # "" for the rest (TensorIterator's can_cast, or copy_ into out); "exact" too for in-place
    # overloads whose structured delegate is not TensorIterator (check_inplace: self's dtype)
    cia: bool            # CompositeImplicitAutograd: no kernel of its own upstream
    functional: str | None = None  # cname of the functional sibling (for inplace/out)
    cia_alias: str | None = None   # cname of the op a CIA alias names (subtract_ -> sub_, OUT_ALIASES)
    out_rule: str = ""
    overlap_unchecked: bool = False  # in OVERLAP_UNCHECKED_INPLACE or OVERLAP_UNCHECKED_OUT
    numel_resize: bool = False     # an out= overload of NUMEL_RESIZE_OUT
    quiet_resize: bool = False     # an out= overload of QUIET_RESIZE_OUT
    cia_checks_first: bool = False # in CIA_OUT_CHECKS_FIRST
    structured_out: bool = False   # a structured out overload: resize_out restrides a resized out
    resize_only_out: bool = False  # out= upstream resize_output()s (autogen wrappers, RESIZE_ONLY_OUT)
    unary_iter_out: bool = False   # a TensorIterator out= of one operand, not structured (Note [Unary iterator out=])
    iter_alias: bool = False       # an out= alias of a pointwise op's out (multiply.out: mul.out's TensorIterator)
    out_copy_devices: bool = False # in OUT_THROUGH_PY_META: on meta, self and out must share a device first
    meta_any_device: bool = False  # in META_ANY_DEVICE_OUT: on meta, CPU inputs beside a meta self
    out_copy_scalar_ok: bool = False  # in OUT_META_SAFE_COPY: ... unless self is a 0-dim CPU tensor
    kernel_mixes_devices: bool = False  # in KERNEL_MIXES_DEVICES: on meta, tensors on any devices reach the kernel
    kernel: dict | None = None     # entry from schemas/kernels.yaml
    # indices of SymInt[] arguments upstream's CPU kernel takes as concrete ints (Note [Concrete
    # int lists] in codegen/model.py): the glue refuses a value below -2**62 in them first
    concrete_lists: list = dataclasses.field(default_factory=list)
    concrete_not_meta: bool = False  # ... checked only when self is not meta (meta_symint)
    func: object = None  # torchgen FunctionSchema

    @property
    def qualified(self) -> str:
        return f"{self.name}.{self.overload}" if self.overload else self.name


@dataclasses.dataclass
class Signature:
    text: str                 # upstream's signature_str, e.g. "add(Tensor input, ...)"
    functional: str           # cname of the op called when out is None
    out: str | None           # cname of the op called when out= is given
    deprecated_args: str | None  # for |deprecated: the aten call's arguments, schema order
    structseq: str | None     # return_types name when the functional op returns a named tuple
    structseq_out: str | None  # the same for the out op


@dataclasses.dataclass
class Binding:
    module: str               # "torch", "tensor", "nn", ...
    name: str                 # Python name
    cname: str                # C identifier of the trampoline
    signatures: list[Signature]
    noarg: bool
    dunder: bool              # binary dunder: TypeError becomes NotImplemented

    @property
    def meth_noargs(self) -> bool:
        """A Tensor method without parameters: METH_NOARGS, as upstream's (CPython refuses any
        argument itself: "TensorBase.abs() takes no arguments (1 given)")."""
        return self.module == "tensor" and self.noarg


@dataclasses.dataclass
class StructSeq:
    name: str                 # "max"
    fields: list[str]


class _UniqueKeyLoader(yaml.SafeLoader):
    """PyYAML keeps the last of two equal keys in a mapping; in our schemas that silently drops an
    entry (kernels.yaml listed zeros twice under out_checks in session 30), so a repeat is an error."""

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def load_schema(path: Path):
    """One of this repo's YAML files (schemas/), refusing a key repeated in a mapping."""
    return yaml.load(path.read_text(), Loader=_UniqueKeyLoader)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def check_pinned() -> dict:
    pinned = load_schema(PINNED)
    for rel, want in pinned["sha256"].items():
        path = SITE / rel
        if not path.exists():
            raise SystemExit(f"codegen: {path} missing; run scripts/setup.sh to vendor the tree")
        got = sha256(path)
        if got != want:
            raise SystemExit(f"codegen: {rel} has sha256 {got}, schemas/pinned.yaml pins {want}")
    return pinned


# Structured ops whose meta function takes the computation dtype from out= when dtype= is not
# given (aten/src/ATen/native/ReduceOps.cpp: infer_dtype_from_optional in sum/nansum/mean/prod,
# meta_func_cum_ops in cumsum/cumprod); the schema does not say this.
DTYPE_FROM_OUT = {"sum", "nansum", "mean", "prod", "cumsum", "cumprod"}
# ... and out overloads that are not structured but compute in out's dtype the same way
# (nansum_out: get_dtype_from_result, then its kernel's dispatch on that dtype; mean.dtype_out
# calls the structured mean.out, whose meta requires out's dtype to be the result's)
DTYPE_FROM_OUT_UNSTRUCTURED = {"nansum.out", "mean.dtype_out"}


# Out overloads that are not structured but whose out= implementation requires the result dtype
# too (softmax_out/log_softmax_out call the structured _softmax_out; sort.values calls the
# structured sort.values_stable; matmul_out calls mm/bmm's; nll_loss_out the structured
# nll_loss_forward.output; index_select_out_cpu_, where_self_out and addmv check equality themselves).
EXACT_OUT = {"softmax.int_out", "log_softmax.int_out", "sort.values", "matmul.out", "index_select.out",
             "where.self_out", "mv.out", "argsort.stable_out", "take_along_dim.out", "nll_loss.out",
             "linalg_matmul.out", "diag.out", "linear.out"}
# (diag_out and linear_out too: found by calling every single-out overload with an out of another
# dtype; so were the autogenerated ones below and the activations in SAME_DTYPE_OUT.)
# The out= overloads torchgen writes itself (autogen: in native_functions.yaml, tagged "generated":
# isnan.out, sum.out, relu.out, clone.out, ...): gen_composite_out_kernel calls the functional, then
# resize_out_helper and copy_arg, which requires out's dtype to be the result's ("Expected out tensor
# to have dtype bool, but got float instead"): the exact rule, after computing.
# Out overloads whose C++ (CompositeExplicitAutograd) hands self, converted to dtype=, to another
# out= overload upstream's Meta key runs as a Python meta function under out_wrapper (softmax_out
# calls _softmax.out, log_softmax_out _log_softmax.out; argsort_out_stable hands self to
# sort.values_stable, whose meta_sort is one too; the CIA square_out calls pow.Tensor_Scalar_out,
# log_sigmoid_out log_sigmoid_forward.output with a buffer on self's device; outer_out and ger_out
# mul.out, nanmean_out nansum.out, each after its own argument checks, CIA_OUT_CHECKS_FIRST):
# called with self and out on different
# devices (one of them meta) that function's first check refuses the copy ("Attempting to copy
# from device cpu to device meta"), before the dim or dtype checks (TN_OPF_OUT_COPY_DEVICES).
OUT_THROUGH_PY_META = {"softmax.int_out", "log_softmax.int_out", "argsort.stable_out", "square.out", "log_sigmoid.out",
                       "outer.out", "ger.out", "nanmean.out"}
# Structured out= overloads that reach no Python meta function on the meta device but their C++
# meta function, which compares no devices (scatter_meta_impl, gather's): with a meta self, CPU
# index and src are taken (TN_OPF_META_ANY_DEVICE; the functionals' Python meta functions take
# them too)
META_ANY_DEVICE_OUT = {"scatter.src_out", "scatter.value_out", "scatter.reduce_out", "scatter.value_reduce_out",
                       "scatter_add.out", "gather.out"}
# ... of which these reach a meta function that copies with _safe_copy_out itself (meta_sort, not
# out_wrapper's first check): a result on a 0-dim CPU self's device is a CPU scalar, copied into a
# meta out unchecked (TN_OPF_OUT_COPY_SCALAR_OK; argsort's out check in ops/index.c calls it).
OUT_META_SAFE_COPY = {"argsort.stable_out"}
# Composites (CompositeExplicitAutogradNonFunctional) whose C++ kernel is what the Meta key runs (no
# Python meta function, no device check of their own): as_strided_scatter clones self and copy_s
# src into its view, so a meta self takes a CPU src, and a CPU self meets copy_'s "Cannot copy out
# of meta tensor" after the size check (TN_OPF_KERNEL_MIXES_DEVICES: no mixed-device check at the
# door; the kernel's parts check)
KERNEL_MIXES_DEVICES = {"as_strided_scatter"}
# Out and in-place overloads built on a TensorIterator whose functional carries no pointwise tag
# (floor_divide_out: TensorIterator::binary_op, then div_floor_stub; floor_divide_ is floor_divide_out
# into self): they check what an iterator checks before writing (an out with internal overlap, before
# the kernel's ZeroDivisionError), as the pointwise ones (TN_OPF_ITER_ALIAS)
ITER_OUT_UNTAGGED = {"floor_divide.out", "floor_divide_.Tensor", "floor_divide_.Scalar"}
# Structured out overloads with their own rule: cat's meta casts into out (can_cast, TypeError);
# pow.Scalar_out's meta takes out's dtype and its kernel redispatches to pow.Tensor_Tensor_out
# (a TensorIterator: can_cast), or fills 1 when the base is 1.
NOT_EXACT_OUT = {"cat.out", "pow.Scalar_out"}
# TensorIterator out overloads built with check_all_same_dtype (TensorIteratorBase's
# build_borrowing_unary_op / unary_op: UnaryOps.cpp, clamp's scalar overloads in
# TensorCompare.cpp, hardtanh_out through clamp_out; lerp_Tensor's meta builds its own config
# without cast_common_dtype_to_outputs): out's dtype must equal the result's, "Found dtype Double
# but expected Float" (listed from upstream by calling each with a float64 out).
SAME_DTYPE_OUT = {"abs.out", "absolute.out", "bitwise_not.out", "ceil.out", "clamp.out", "clamp_max.out",
                  "clamp_min.out", "clip.out", "fix.out", "floor.out", "frac.out", "hardtanh.out", "neg.out", "negative.out",
                  "round.out", "round.decimals_out", "sgn.out", "sign.out", "trunc.out", "conj_physical.out",
                  "lerp.Tensor_out",
                  # the activations (Activation.cpp's metas build_borrowing_unary_op, hardswish_out
                  # unary_op): measured by calling every one-tensor .out overload of
                  # native_functions.yaml on upstream with a float32 input and a float64 out
                  "elu.out", "gelu.out", "hardshrink.out", "hardsigmoid.out", "hardswish.out", "leaky_relu.out",
                  "mish.out", "silu.out", "softplus.out", "softshrink.out"}
# In-place overloads whose upstream kernel writes a self with internal overlap (an expanded
# tensor) without assert_no_internal_overlap: the result then depends on the kernel's write
# order (tril_ writes only the zeros), so those calls are refused by name here (listed from
# upstream by calling each in-place kernel we have on an expanded self).
# threshold's TensorIterator turns the overlap check off (its out_check in ops/pointwise.c), so
# threshold_ and threshold.out write an expanded self / out unchecked too.
OVERLAP_UNCHECKED_INPLACE = {"tril_", "triu_", "baddbmm_", "addmv_", "threshold_"}
# ... and the out= overloads that write an out with internal overlap unchecked: the reductions
# whose TensorIterator turns the check off (their results accumulate into the shared slots:
# sum(arange(9).reshape(3, 3), 1) into an expanded out gives 36 three times) and tril/triu
# (listed from upstream by calling each reduction-tagged out= overload on an expanded out;
# aminmax, logsumexp, max.dim, min.dim and mean check it and raise as ours does), and the out=
# kernels that write out through its strides in a loop of their own: randperm (its swaps),
# histc (its bins' sums), cummax/cummin (listed from upstream by calling out= overloads without
# a tensor input, and the scans, on an expanded out; zeros/ones/full/empty fill or leave it:
# their out check in ops/factory.c).
OVERLAP_UNCHECKED_OUT = {"all.out", "all.dims_out", "any.out", "any.dims_out", "amax.out", "amin.out", "argmax.out",
                         "argmin.out", "linalg_vector_norm.out", "nansum.out", "norm.out", "norm.dtype_out",
                         "prod.int_out", "std.out", "std.correction_out", "var.out", "var.correction_out",
                         "sum.IntList_out", "tril.out", "triu.out", "threshold.out", "randperm.out",
                         "randperm.generator_out", "histc.out", "cummax.out", "cummin.out",
                         # session 32 s32c (seed-7 #425266): the softmax kernels write numel
                         # elements in row-major order from out's data pointer whatever its strides
                         # (SoftMax.cpp's structured out= has no overlap check, its kernels index
                         # data_ptr() as contiguous): an out that repeats elements spans fewer, so
                         # they land past its elements, past its storage for an expanded tensor
                         # (its storage's other elements otherwise): no defined result to agree with
                         "_softmax.out", "_log_softmax.out", "_softmax_backward_data.out",
                         "_log_softmax_backward_data.out"}
# any/all: out may be bool or uint8 (check_result_is_bytebool), the result computed in out's
BYTEBOOL_OUT = {"all.out", "all.dims_out", "all.all_out", "any.out", "any.dims_out", "any.all_out"}
# ... and those whose meta requires a bool out (build_borrowing_unary_force_boolean_op after
# "<op> does not support non-boolean outputs.")
BOOL_OUT = {"signbit.out", "isposinf.out", "isneginf.out"}
# Out overloads whose C++ requires out's dtype to be self's before computing
# (logcumsumexp_out's check_scalar_type_device_layout_equal). nan_to_num_out, amax/amin's meta,
# histc and masked_select_out_impl_cpu (after its mask check) check it in their own words: their
# out_checks in schemas/kernels.yaml (Note [Out checks]).
SELF_DTYPE_OUT = {"logcumsumexp.out"}
# The range factories' out= overloads (every overload of these names; RangeFactories.cpp) resize
# out only when its numel differs from the result's: an out of the right numel keeps its shape, a
# 0-dim one too (TN_OPF_OUT_NUMEL_RESIZE)...
NUMEL_RESIZE_OUT = {"arange", "linspace", "logspace", "range"}
# ... and these call resize_ on out themselves: a resized out gets no deprecation warning
# (TN_OPF_OUT_QUIET_RESIZE; arange's does)
QUIET_RESIZE_OUT = {"linspace", "logspace", "range"}

# CompositeImplicitAutograd out= overloads whose decomposition checks its arguments before the
# first out= op it calls, whose autograd kernel refuses an argument that requires grad (Note [CIA
# out= under autograd] in runtime/dispatch.c): nanmean_out's dims (the count's sum) before
# nansum.out; outer_out's (and ger's) 1-d checks before mul.out. The other CIA out= overloads call
# their out= op first (std.out, linalg_det.out, cross.out, nll_loss.out). (take_along_dim_out, which
# checks its devices, index dtype, dim and broadcast before gather.out, is its C composition on
# every path: ops/compositions.c.)
CIA_OUT_CHECKS_FIRST = {"nanmean.out", "outer.out", "ger.out"}

# Out overloads whose resized out takes the strides the result would have (upstream's structured
# resize_out restrides it with the meta function's): the structured ones, the composite aliases
# of structured ones (subtract.out is sub.out; OUT_ALIASES, upstream's alias names), and these,
# whose C++ calls a structured out (sort_out and argsort's stable_out call sort.values_stable)
# or builds a TensorIterator on out (floor_divide_out, hardswish_out: its set_output_raw_strided
# restrides a resized out as resize_out does). Other outs resize_output: contiguous (e.g.
# _fft_c2c_mkl_out, which fft_fft.out reaches; the autogenerated foo.out wrappers). Their meta
# function sets out (its dtype checked) before the impl's own errors (Note [Meta twins]):
# nll_loss_out calls the structured nll_loss_forward.output too.
RESTRIDED_OUT = {"sort.values", "argsort.stable_out", "floor_divide.out", "hardswish.out", "nll_loss.out"}
# ... the autogenerated ones (native_functions.yaml's autogen:, e.g. add.Scalar_out, relu.out,
# clone.out: the functional, then resize_output and copy_arg, which wants out's dtype to be the
# result's: out_rule "exact") and these hand-written ones that do the same (mvlgamma_out) keep a
# resized out contiguous (TN_OPF_OUT_RESIZE_ONLY)...
RESIZE_ONLY_OUT = {"mvlgamma.out"}
# ... and the TensorIterator outs that are not structured and have one operand (conj_physical_out,
# nan_to_num_out, logit_out: unary_op_impl_out and the like) take the iterator's layout of that
# operand, which their functional need not have (upstream's conj_physical of a real tensor is the
# tensor itself, its hardtanh an empty_like: TN_OPF_OUT_UNARY_ITER). A Scalar argument of such an
# op is a 0-dim operand (fmod_out(self, wrapped_scalar_tensor(other))), except in these:
SCALAR_NOT_OPERAND_OUT = {"hardtanh.out", "float_power.Tensor_Scalar_out", "float_power.Scalar_out"}
OUT_ALIASES = {
    "absolute": "abs", "arccos": "acos", "arccosh": "acosh", "arcsin": "asin", "arcsinh": "asinh",
    "arctan": "atan", "arctan2": "atan2", "arctanh": "atanh", "clip": "clamp", "divide": "div",
    "fix": "trunc", "greater": "gt", "greater_equal": "ge", "less": "lt", "less_equal": "le",
    "multiply": "mul", "negative": "neg", "not_equal": "ne", "subtract": "sub", "true_divide": "div",
    "special_expit": "sigmoid", "special_exp2": "exp2", "special_expm1": "expm1", "special_log1p": "log1p",
    "special_erf": "erf", "special_erfc": "erfc", "special_erfinv": "erfinv", "special_gammaln": "lgamma",
    "special_digamma": "digamma", "special_psi": "digamma", "special_i0": "i0", "special_logit": "logit",
    "special_round": "round", "special_sinc": "sinc", "special_xlogy": "xlogy",
    "concat": "cat", "concatenate": "cat", "linalg_matmul": "matmul",
    "min": "minimum", "max": "maximum",  # binary min.out / max.out ("binary min, alias for minimum")
}

# the dunders upstream writes as CIA calls of the op they name (__and__ -> bitwise_and, __iand__ ->
# bitwise_and_), by torchgen's base name
DUNDER_ALIASES = {"and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor"}


def alias_target(n, dunder=False) -> str | None:
    """The overload an alias overload names (OUT_ALIASES; with dunder, __and__ and friends too):
    subtract_.Tensor -> sub_.Tensor, multiply.out -> mul.out; None for a name that is no alias."""
    table = DUNDER_ALIASES if dunder and n.name.dunder_method else OUT_ALIASES
    target = table.get(str(n.name.base))
    if target is None or (n.name.dunder_method and not dunder):
        return None
    return target + ("_" if n.name.inplace else "") + (f".{n.overload_name}" if n.overload_name else "")


def out_rule(f, kind, delegates=None) -> str:
    name = str(f.func.name)
    if kind.name == "inplace" and f.structured_delegate is not None and delegates is not None:
        # a structured in-place op whose kernel is not TensorIterator: its set_output's
        # check_inplace requires the result's dtype to be self's ("Bad in-place call")
        d = delegates.get(str(f.structured_delegate))
        if d is None or not d.structured or d.structured_inherits == "TensorIteratorBase":
            return ""
        return "from_out" if str(d.func.name.name) in DTYPE_FROM_OUT else "exact"
    if kind.name != "out" or name in NOT_EXACT_OUT:
        return ""
    if name in BYTEBOOL_OUT:
        return "bytebool"
    if name in EXACT_OUT or "generated" in f.tags:
        return "exact"
    if name in SAME_DTYPE_OUT:
        return "same"
    if name in BOOL_OUT:
        return "bool"
    if name in SELF_DTYPE_OUT:
        return "self"
    if name in DTYPE_FROM_OUT_UNSTRUCTURED:
        return "from_out"
    if not f.structured or f.structured_inherits == "TensorIteratorBase":
        return ""
    return "from_out" if str(f.func.name.name) in DTYPE_FROM_OUT else "exact"


def load_kernel_list() -> tuple[dict, dict, dict]:
    doc = load_schema(KERNELS)
    return doc.get("dtype_sets", {}), doc.get("kernels", {}) or {}, doc.get("out_checks", {}) or {}


class Model:
    def __init__(self) -> None:
        self.pinned = check_pinned()
        from torchgen.gen import parse_native_yaml
        from torchgen.model import SchemaKind

        packaged = SITE / "torchgen" / "packaged"
        self.native_yaml = packaged / "ATen" / "native" / "native_functions.yaml"
        self.tags_yaml = packaged / "ATen" / "native" / "tags.yaml"
        self.deprecated_yaml = packaged / "autograd" / "deprecated.yaml"
        parsed = parse_native_yaml(str(self.native_yaml), str(self.tags_yaml))
        self.natives = parsed.native_functions
        # overloads with a CPU kernel of their own upstream (beside a CompositeImplicitAutograd one,
        # the dispatcher's Autograd key keeps the CPU registration: see runtime/autograd.h)
        from torchgen.model import DispatchKey
        cpu = parsed.backend_indices[DispatchKey.CPU]
        self.cpu_kernels = {str(f.func.name) for f in self.natives if cpu.has_kernel(f)}
        concrete = concrete_lists(parsed.backend_indices, self.natives)
        concrete_meta_free = meta_symint(parsed.backend_indices, self.natives)
        self.all_tags = sorted(t["tag"] for t in yaml.safe_load(self.tags_yaml.read_text()))
        self.dtype_sets, kernel_list, out_checks = load_kernel_list()

        structured_names = {str(f.func.name) for f in self.natives if f.structured}
        alias_outs = {str(f.func.name) for f in self.natives
                      if f.func.kind().name == "out" and alias_target(f.func.name) in structured_names}
        pointwise_names = {str(f.func.name) for f in self.natives if "pointwise" in f.tags}
        iter_aliases = {str(f.func.name) for f in self.natives
                        if f.func.kind().name in ("out", "inplace") and alias_target(f.func.name) in pointwise_names}
        iter_aliases |= ITER_OUT_UNTAGGED
        ops = []
        delegates = {str(f.func.name): f for f in self.natives}
        for f in self.natives:
            name = str(f.func.name.name)
            overload = f.func.name.overload_name
            qual = f"{name}.{overload}" if overload else name
            kind = f.func.kind()
            is_view = any(
                r.annotation is not None and not r.annotation.is_write for r in f.func.returns
            )
            ops.append(Op(
                index=0, name=name, overload=overload, schema=schema_string(f.func),
                cname=c_ident(qual), kind=kind.name, tags=sorted(f.tags), is_view=is_view,
                cia=f.has_composite_implicit_autograd_kernel, func=f.func,
                out_rule=out_rule(f, kind, delegates),
                overlap_unchecked=str(f.func.name) in OVERLAP_UNCHECKED_INPLACE | OVERLAP_UNCHECKED_OUT,
                iter_alias=str(f.func.name) in iter_aliases,
                numel_resize=kind.name == "out" and name in NUMEL_RESIZE_OUT,
                quiet_resize=kind.name == "out" and name in QUIET_RESIZE_OUT,
                cia_checks_first=str(f.func.name) in CIA_OUT_CHECKS_FIRST,
                out_copy_devices=str(f.func.name) in OUT_THROUGH_PY_META,
                meta_any_device=str(f.func.name) in META_ANY_DEVICE_OUT,
                out_copy_scalar_ok=str(f.func.name) in OUT_META_SAFE_COPY,
                kernel_mixes_devices=str(f.func.name) in KERNEL_MIXES_DEVICES,
                concrete_lists=concrete.get(str(f.func.name), []),
                concrete_not_meta=str(f.func.name) in concrete_meta_free and str(f.func.arguments.flat_all[0].type) == "Tensor",
                structured_out=kind.name == "out" and (bool(f.structured) or str(f.func.name) in RESTRIDED_OUT
                                                       or str(f.func.name) in alias_outs),
            ))
        ops.sort(key=lambda o: (o.name, o.overload))
        for i, op in enumerate(ops):
            op.index = i
        names = [o.cname for o in ops]
        if len(set(names)) != len(names):
            raise SystemExit("codegen: two overloads map to one C name")
        self.ops = ops
        self.by_qual = {o.qualified: o for o in ops}
        self.by_cname = {o.cname: o for o in ops}

        # functional siblings: inplace `add_.Tensor` and out `add.out` point at `add.Tensor`
        by_sig = {}
        for f in self.natives:
            if f.func.kind() == SchemaKind.functional:
                by_sig[f.func.signature()] = f
        for f in self.natives:
            if f.func.kind() in (SchemaKind.inplace, SchemaKind.out):
                base = by_sig.get(f.func.signature())
                if base is not None:
                    qual = str(f.func.name)
                    self.by_qual[qual].functional = c_ident(str(base.func.name))

        # Note [Unary iterator out=]: see RESIZE_ONLY_OUT and SCALAR_NOT_OPERAND_OUT
        autogen = {str(n) for f in self.natives for n in f.autogen}
        for o in ops:
            if o.kind != "out":
                continue
            q = o.qualified
            o.resize_only_out = q in autogen or q in RESIZE_ONLY_OUT
            if q in autogen and not o.out_rule:
                # the wrapper's copy_arg: "Expected out tensor to have dtype float, but got double
                # instead", after the functional ran (Note [out= rules])
                o.out_rule = "exact"
            fo = self.by_cname.get(o.functional) if o.functional else None
            if o.resize_only_out or o.structured_out or fo is None or not ("pointwise" in fo.tags or o.iter_alias):
                continue
            types = [str(a.type) for a in fo.func.arguments.flat_all]
            scalars = 0 if q in SCALAR_NOT_OPERAND_OUT else sum(t in ("Scalar", "Scalar?") for t in types)
            o.unary_iter_out = types.count("Tensor") == 1 and scalars == 0 and \
                not any("Tensor" in t and t != "Tensor" for t in types)

        # CIA aliases (OUT_ALIASES, every kind): the same overload of the op they name, when its
        # arguments and returns read the same (Note [Meta of a CIA alias] in runtime/dispatch.c)
        natives_by_name = {str(f.func.name): f for f in self.natives}
        for f in self.natives:
            n = f.func.name
            tname = alias_target(n, dunder=True)
            if not f.has_composite_implicit_autograd_kernel or tname is None:
                continue
            t = natives_by_name.get(tname)
            if t is not None and str(t.func.arguments) == str(f.func.arguments) and \
                    str(t.func.returns) == str(f.func.returns):
                self.by_qual[str(n)].cia_alias = c_ident(tname)

        unknown = [q for q in kernel_list if q not in self.by_qual]
        if unknown:
            raise SystemExit(f"codegen: schemas/kernels.yaml names unknown overloads: {unknown}")
        for qual, entry in kernel_list.items():
            entry = dict(entry or {})
            dtypes = entry.get("dtypes", "all")
            entry["dtype_list"] = self.expand_dtypes(dtypes, qual)
            self.by_qual[qual].kernel = entry

        # Note [Out checks]: every functional overload of a name in out_checks carries the hook
        unknown = sorted(set(out_checks) - {o.name for o in ops})
        if unknown:
            raise SystemExit(f"codegen: out_checks in schemas/kernels.yaml names unknown ops: {unknown}")
        self.out_checks = [(o, out_checks[o.name]) for o in ops
                           if o.kind == "functional" and o.name in out_checks]
        self.out_check_hooks = sorted(set(out_checks.values()))

        self.extra_schemas = [s for ns in load_schema(EXTRA_OPS).values() for s in ns]
        self.bindings, self.structseqs = self.load_bindings()
        self.tensor_aliases, self.tensor_manual = self.load_tensor_method_table()

    def expand_dtypes(self, spec, qual: str) -> list[str]:
        items = spec if isinstance(spec, list) else [spec]
        out: list[str] = []
        for item in items:
            if item in self.dtype_sets:
                out.extend(self.dtype_sets[item])
            else:
                out.append(item)
        known = {d for s in self.dtype_sets.values() for d in s}
        bad = [d for d in out if d not in known]
        if bad:
            raise SystemExit(f"codegen: {qual}: unknown dtypes {bad}")
        return out

    # -- Python bindings, exactly as tools/autograd/gen_python_functions.py groups them --------
    def load_bindings(self):
        from torchgen.packaged.autograd import gen_python_functions as g
        natives = [f for f in self.natives if g.should_generate_py_binding(f)]
        methods = g.load_signatures(natives, str(self.deprecated_yaml), method=True)
        functions = g.load_signatures(natives, str(self.deprecated_yaml), method=False)
        preds = {
            "tensor": (methods, g.is_py_variable_method, True),
            "torch": (functions, g.is_py_torch_function, False),
            "nn": (functions, g.is_py_nn_function, False),
            "fft": (functions, g.is_py_fft_function, False),
            "linalg": (functions, g.is_py_linalg_function, False),
            "nested": (functions, g.is_py_nested_function, False),
            "sparse": (functions, g.is_py_sparse_function, False),
            "special": (functions, g.is_py_special_function, False),
        }
        bindings: dict[str, list[Binding]] = {}
        structseqs: dict[str, StructSeq] = {}
        for module, (pairs, pred, method) in preds.items():
            grouped = g.group_filter_overloads(pairs, pred)
            out = []
            for name in sorted(grouped, key=str):
                overloads = grouped[name]
                sigs = []
                for grp in g.group_overloads(overloads, symint=True):
                    ps = grp.signature
                    seq = self.structseq_of(grp.base, structseqs)
                    seq_out = self.structseq_of(grp.outplace, structseqs) if grp.outplace else None
                    dep = None
                    if ps.deprecated:
                        dep = ",".join(ps.deprecated_args_exprs)
                    sigs.append(Signature(
                        text=ps.signature_str(symint=True),
                        functional=c_ident(str(grp.base.func.name)),
                        out=c_ident(str(grp.outplace.func.name)) if grp.outplace else None,
                        deprecated_args=dep,
                        structseq=seq,
                        structseq_out=seq_out,
                    ))
                prefix = {"tensor": "meth", "torch": "torch"}.get(module, module)
                out.append(Binding(
                    module=module, name=str(name), cname=f"{prefix}_{c_ident(str(name))}",
                    signatures=sigs, noarg=g.is_noarg(overloads), dunder=name.dunder_method,
                ))
            bindings[module] = out
        return bindings, structseqs

    def load_tensor_method_table(self):
        """Upstream's hand-written TensorBase method table (python_variable_methods.cpp, shipped
        in the wheel): dunders that alias a generated binding (`__add__` -> add, returning
        NotImplemented on TypeError) and the names whose methods are written by hand."""
        template = SITE / "torchgen/packaged/autograd/templates/python_variable_methods.cpp"
        text = template.read_text()
        table = text[text.index("PyMethodDef variable_methods[]"):]
        table = table[:table.index("${py_method_defs}")]
        generated = {b.name for b in self.bindings["tensor"]}
        aliases, manual = [], []
        for name, body in re.findall(r'\{"(\w+)", ([^\n]*?)\},', table):
            m = re.search(r"THPVariable_(\w+)", body)
            target = m.group(1) if m else ""
            notimpl = "TypeError_to_NotImplemented_" in body
            if target == "__eq__":
                target = "eq"  # upstream's __eq__ only adds a NumPy-array case before eq
            if target in generated:
                aliases.append({"name": name, "target": target, "cname": c_ident(target), "notimpl": notimpl})
            else:
                manual.append(name)
        return aliases, manual

    @staticmethod
    def structseq_of(f, structseqs) -> str | None:
        """Upstream names a returned named tuple after the C++ name of the op
        (torch.return_types.max, max_out); the first overload's fields define it."""
        from torchgen.api import cpp
        from torchgen.api.python import structseq_fieldnames

        fields = structseq_fieldnames(f.func.returns)
        if not fields:
            return None
        name = cpp.name(f.func)
        structseqs.setdefault(name, StructSeq(name=name, fields=list(fields)))
        return name

    def inputs_banner(self) -> str:
        nf = self.pinned["sha256"]["torchgen/packaged/ATen/native/native_functions.yaml"]
        return (f"native_functions.yaml (torch {self.pinned['torch_version']}, sha256 {nf[:16]}), "
                f"tags.yaml, deprecated.yaml, schemas/kernels.yaml, schemas/extra_ops.yaml")
