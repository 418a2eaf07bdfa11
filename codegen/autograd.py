"""Autograd from upstream's own tables: node kinds and recorders generated from derivatives.yaml.

torchgen's load_derivatives() reads derivatives.yaml (shipped in the wheel); its
match_differentiability_info() pairs every overload with the formulas it uses (in-place and out=
variants share the functional's). From that this module decides, per overload, what the door does
when an argument requires grad (the autograd "mode"), and emits:

  autograd.h                 node structs are private; this declares the recorder table
  autograd_nodes_<k>.c       one node kind per DifferentiabilityInfo (MulBackward0, ...): the
                             saved fields, _saved_<name> getters, and apply(): the formulas,
                             translated by codegen/formula.py into calls through the door
  autograd_<k>.c (too)        one recorder per overload: make the node, save inputs, run the
                             kernel below autograd, give outputs their history, save outputs
  autograd_helpers.h         prototypes of the FunctionsManual helpers the formulas call, from
                             our hand list schemas/autograd_helpers.yaml (bodies: ops/autograd_manual.c)

A _foreach_ kind's apply runs torchgen's per-element formula once per output (foreach_derivative).
A formula that cannot be translated (or calls a helper not in the list) becomes an apply() that
raises "derivative for aten::<op> is not implemented" when that gradient is needed.
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from formula import Emitter, Parser, Untranslatable, Val
from model import load_schema

ROOT = Path(__file__).resolve().parent.parent
HELPERS = ROOT / "schemas" / "autograd_helpers.yaml"
COMPOSITIONS = ROOT / "schemas" / "autograd_compositions.yaml"
COMPLEX = ROOT / "schemas" / "autograd_complex.yaml"

# the door's autograd modes (runtime/autograd.h TN_AG_*)
MODE_NONE, MODE_RECORD, MODE_CIA, MODE_NOTIMPL, MODE_OUT, MODE_CIA_KERNEL = 0, 1, 2, 3, 4, 5
# Note [CIA out= under autograd] (runtime/dispatch.c): CompositeImplicitAutograd out= overloads
# whose decomposition calls another overload's out= first, whose VariableType refuses an input
# requiring grad ("<name>(): functions with out=... arguments don't support automatic
# differentiation"): each with the name upstream's message gives, the op whose out= it calls
# (nanmean.out -> nansum.out, outer.out -> mul.out, fft_fft.out -> _fft_c2c.out). Measured by
# calling each on torch 2.13 with a float input requiring grad (special_ndtr.out computes; so does
# fft_ihfft.out, which copies its result into out); ours refuses some of them (linalg_svd.U ...),
# and the autograd check comes first there too. A few take another path for some inputs, which
# one name per op does not follow: fft_fft.out of a real input (_fft_r2c; fft_ifft.out and a
# one-dimensional fft_ihfftn.out compute), linalg_vecdot.out of 1-d inputs (vdot), matrix_power
# with n = 0 or 1 (computes) or -1 (linalg_inv_ex), chain_matmul of one matrix (computes).
_CIA_OUT_BY_NAME = {
    "std": ["std.out"], "var": ["var.out"], "abs": ["absolute.out"], "acos": ["arccos.out"],
    "acosh": ["arccosh.out"], "asin": ["arcsin.out"], "asinh": ["arcsinh.out"], "atan": ["arctan.out"],
    "atanh": ["arctanh.out"], "atan2": ["arctan2.out"], "clamp": ["clip.out", "clip.Tensor_out"],
    "div": ["divide.out", "divide.out_mode", "true_divide.out"], "trunc": ["fix.out"],
    "mul": ["ger.out", "kron.out", "multiply.out", "outer.out"], "log_sigmoid_forward": ["log_sigmoid.out"],
    "maximum": ["max.out"], "minimum": ["min.out"], "sort": ["argsort.stable_out", "msort.out"],
    "neg": ["negative.out"], "sub": ["subtract.out"], "digamma": ["special_digamma.out", "special_psi.out"],
    "erf": ["special_erf.out"], "erfc": ["special_erfc.out"], "erfinv": ["special_erfinv.out"],
    "exp2": ["special_exp2.out"], "sigmoid": ["special_expit.out"], "expm1": ["special_expm1.out"],
    "igamma": ["special_gammainc.out"], "igammac": ["special_gammaincc.out"], "lgamma": ["special_gammaln.out"],
    "i0": ["special_i0.out"], "log1p": ["special_log1p.out"], "logit": ["special_logit.out"],
    "round": ["special_round.out"], "sinc": ["special_sinc.out"],
    "xlogy": ["special_xlogy.out", "special_xlogy.other_scalar_out", "special_xlogy.self_scalar_out"],
    "pow": ["square.out", "float_power.Scalar_out", "float_power.Tensor_Scalar_out", "float_power.Tensor_Tensor_out"],
    "cat": ["concat.out", "concatenate.out", "column_stack.out", "dstack.out", "hstack.out", "row_stack.out",
            "vstack.out"],
    "nansum": ["nanmean.out"], "nll_loss_forward": ["nll_loss.out"], "nll_loss2d_forward": ["nll_loss2d.out"],
    "logsumexp": ["special_logsumexp.out"], "polygamma": ["special_polygamma.out"],
    "mm": ["chain_matmul.out", "linalg_multi_dot.out"], "linalg_cross": ["cross.out"],
    "_fft_c2c": ["fft_fft.out", "fft_fft2.out", "fft_fftn.out", "fft_ifft.out", "fft_ifft2.out", "fft_ifftn.out",
                 "fft_ihfft2.out", "fft_ihfftn.out"],
    "_fft_c2r": ["fft_hfft.out", "fft_hfft2.out", "fft_hfftn.out", "fft_irfft.out", "fft_irfft2.out", "fft_irfftn.out"],
    "_fft_r2c": ["fft_rfft.out", "fft_rfft2.out", "fft_rfftn.out"], "norm": ["frobenius_norm.out"],
    "linalg_inv_ex": ["inverse.out", "linalg_inv.out"], "linalg_cholesky_ex": ["linalg_cholesky.out"],
    "_linalg_det": ["linalg_det.out"], "_linalg_eigh": ["linalg_eigh.eigvals", "linalg_eigvalsh.out"],
    "linalg_lu_factor_ex": ["linalg_lu_factor.out"], "matmul": ["linalg_matmul.out", "linalg_matrix_power.out",
                                                                "matrix_power.out"],
    "_linalg_slogdet": ["linalg_slogdet.out", "slogdet.out"], "_linalg_solve_ex": ["linalg_solve.out",
                                                                                  "linalg_solve_ex.out"],
    "_linalg_svd": ["linalg_svd.U", "linalg_svdvals.out", "svd.U"], "sum": ["linalg_vecdot.out"],
    "linalg_lu_solve": ["lu_solve.out"], "multilabel_margin_loss_forward": ["multilabel_margin_loss.out"],
    "mvlgamma": ["special_multigammaln.out"], "linalg_householder_product": ["orgqr.out"], "linalg_qr": ["qr.Q"],
    "slow_conv3d_forward": ["slow_conv3d.out"], "_slow_conv2d_forward": ["thnn_conv2d.out"],
}
CIA_OUT_CHECKED = {op: name for name, ops in _CIA_OUT_BY_NAME.items() for op in ops}
# ... whose out= arguments include an output the inner op's derivatives.yaml entry marks
# non-differentiable (output_differentiability), which that VariableType does not check: a float
# out requiring grad reaches the kernel's checks (argsort.stable_out's out is sort.values_stable's
# indices: its meta's dim wrap, then "Expected out tensor to have dtype long int"). Measured on
# torch 2.13 with each of these outs a float tensor requiring grad.
CIA_OUT_NONDIFF = {"argsort.stable_out": ("out",), "linalg_lu_factor.out": ("pivots",),
                   "linalg_solve_ex.out": ("info",)}

# CompositeImplicitAutograd out= overloads whose composition computes the functional and ends in
# out.copy_(result) (Linear.cpp tensordot_out, Sorting.cpp quantile_out_impl): nothing checks the
# call, the parts record (CopyBackwards on out) and copy_ refuses a leaf out that requires grad;
# the door runs runtime/py/tn_decompose.py's composition with autograd on, as for a functional
CIA_OUT_COPIED = {"tensordot.out", "quantile.out", "quantile.scalar_out", "nanquantile.out",
                  "nanquantile.scalar_out"}

C_KEYWORDS = {"default", "int", "float", "double", "char", "short", "long", "signed", "unsigned",
              "register", "return", "struct", "union", "switch", "case", "break", "continue", "do",
              "while", "for", "if", "else", "goto", "sizeof", "static", "extern", "const", "void",
              "volatile", "inline", "restrict", "enum", "typedef", "auto", "bool", "true", "false"}


def cname(name: str) -> str:
    return name + "_" if name in C_KEYWORDS else name


# ---- C++ types of saved fields and helper parameters ---------------------------------------

def norm_cpp(t: str) -> str:
    """A C++ type spelled canonically: no const/&/namespaces, SymInt as int."""
    t = t.replace("const ", "").replace("&", "").strip()
    t = re.sub(r"\b(at|c10|std|torch|autograd|generated)::", "", t)
    t = re.sub(r"(^|(?<=[<, ]))::", "", t)
    t = t.replace("SymIntArrayRef", "IntArrayRef").replace("SymInt", "int64_t")
    t = t.replace("OptionalIntArrayRef", "optional<IntArrayRef>")
    t = t.replace("string_view", "string").replace("Variable", "Tensor").replace("variable_list", "vector<Tensor>")
    t = t.replace("TensorList", "vector<Tensor>").replace("ArrayRef<Tensor>", "vector<Tensor>")
    t = t.replace("IntArrayRef", "IntList")
    t = re.sub(r"\s+", " ", t).replace("< ", "<").replace(" >", ">").replace(", ", ",")
    if t == "int":
        t = "int64_t"
    return t


# formula type of each canonical C++ type
CPP_TO_TY = {
    "Tensor": "T", "optional<Tensor>": "T", "Scalar": "S", "optional<Scalar>": "S",
    "int64_t": "I", "optional<int64_t>": "OI", "double": "D", "optional<double>": "OD",
    "bool": "B", "optional<bool>": "OB", "ScalarType": "ST", "optional<ScalarType>": "ST",
    "IntList": "IA", "optional<IntList>": "IA", "Layout": "L", "TensorOptions": "TO",
    "string": "STR", "optional<string>": "STR", "TypeAndSize": "TAS", "TensorGeometry": "TG",
    "vector<Tensor>": "TL", "List<optional<Tensor>>": "TL", "vector<ScalarType>": "VST",
    "vector<vector<int64_t>>": "VVI", "ArrayRef<Scalar>": "SL",
}

# C storage of saved fields, by canonical C++ type
SAVED_C = {
    "Tensor": "tn_saved", "optional<Tensor>": "tn_saved", "vector<Tensor>": "tn_saved_list",
    "List<optional<Tensor>>": "tn_saved_list", "Scalar": "tn_value", "optional<Scalar>": "tn_value",
    "int64_t": "int64_t", "optional<int64_t>": "tn_opt_int", "double": "double",
    "optional<double>": "tn_opt_double", "bool": "int", "optional<bool>": "int", "ScalarType": "int",
    "optional<ScalarType>": "int", "IntList": "tn_ag_ints", "optional<IntList>": "tn_ag_ints",
    "Layout": "int", "TensorOptions": "tn_ag_options", "string": "char *", "optional<string>": "char *",
    "TypeAndSize": "tn_ag_type_and_size", "TensorGeometry": "tn_ag_geometry",
    "vector<ScalarType>": "tn_ag_dtypes", "vector<vector<int64_t>>": "tn_ag_sizes_list",
    "ArrayRef<Scalar>": "tn_ag_scalars",
}

# how a saved field reads in a formula: (type, C expression with {f} = n->field)
SAVED_READ = {
    "Scalar": ("S", "{f}"), "optional<Scalar>": ("S", "{f}"), "int64_t": ("I", "{f}"),
    "optional<int64_t>": ("OI", "{f}"), "double": ("D", "{f}"), "optional<double>": ("OD", "{f}"),
    "bool": ("B", "{f}"), "optional<bool>": ("OB", "{f}"), "ScalarType": ("ST", "{f}"),
    "optional<ScalarType>": ("ST", "{f}"), "IntList": ("IA", "tn_ag_ints_view(&{f})"),
    "optional<IntList>": ("IA", "tn_ag_ints_view(&{f})"), "Layout": ("L", "{f}"),
    "TensorOptions": ("TO", "{f}"), "string": ("STR", "{f}"), "optional<string>": ("STR", "{f}"),
    "TypeAndSize": ("TAS", "{f}"), "TensorGeometry": ("TG", "{f}"), "vector<ScalarType>": ("VST", "{f}"),
    "vector<vector<int64_t>>": ("VVI", "{f}"), "ArrayRef<Scalar>": ("SL", "{f}"),
}

# Python getter (_saved_<name>) of saved non-tensor fields, as upstream exposes them
SAVED_GETTER = {
    "Scalar": "tn_ag_scalar_to_py(&{f})", "optional<Scalar>": "tn_ag_scalar_to_py(&{f})",
    "int64_t": "PyLong_FromLongLong({f})", "optional<int64_t>": "tn_ag_opt_int_to_py({f})",
    "double": "PyFloat_FromDouble({f})", "optional<double>": "tn_ag_opt_double_to_py({f})",
    "bool": "PyBool_FromLong({f})", "optional<bool>": "tn_ag_opt_bool_to_py({f})",
    "IntList": "tn_ag_ints_to_py(&{f})", "optional<IntList>": "tn_ag_ints_to_py(&{f})",
    "string": "tn_ag_str_to_py({f})", "optional<string>": "tn_ag_str_to_py({f})",
}


def drop_unused_tensor_locals(lines: list[str], names: set[str]) -> list[str]:
    """A recorder declares a local for each Tensor argument; one nothing reads (an argument that is
    neither an edge nor saved, e.g. nll_loss_backward's total_weight) is left out."""
    # names inside the schema comment and the messages are not reads
    body = re.sub(r'"[^"]*"|/\*.*?\*/', '', "\n".join(lines), flags=re.S)
    keep = []
    for line in lines:
        m = re.match(r"    PyObject \*(\w+) = tn_ag_arg_tensor\(", line)
        if m and m.group(1) in names and len(re.findall(rf"\b{m.group(1)}\b", body)) == 1:
            continue
        keep.append(line)
    return keep


# ---- the helper list -------------------------------------------------------------------------

@dataclasses.dataclass
class HelperSig:
    name: str
    cname: str
    ret: str                   # canonical C++ return type
    params: list[tuple[str, str]]  # (canonical type, name)
    text: str
    defaults: list = dataclasses.field(default_factory=list)  # per param: its default's C++ text, or None


CPP_SIG = re.compile(r"\s*(.+?)\s+(\w+)\s*\((.*)\)\s*;?\s*$", re.S)


def split_cpp_params(params: str) -> list[str]:
    """A C++ parameter list split at its top-level commas (not those inside <...>), comments
    dropped."""
    out, depth, cur = [], 0, ""
    for ch in params:
        depth += (ch == "<") - (ch == ">")
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return [re.sub(r"/\*.*?\*/", "", p) for p in out]


def cpp_defaults(text: str) -> list:
    """Each parameter's default value as written (`bool x = true` -> "true"), or None."""
    params = CPP_SIG.match(text).group(3)
    return [p.split("=", 1)[1].strip() if "=" in p else None for p in split_cpp_params(params)]


def parse_cpp_sig(text: str) -> tuple[str, str, list[tuple[str, str]]]:
    m = CPP_SIG.match(text)
    if not m:
        raise SystemExit(f"codegen: cannot parse helper signature {text!r}")
    ret, name, params = m.groups()
    plist = []
    for p in split_cpp_params(params):
        p = p.split("=")[0].strip()
        pm = re.match(r"(.+?)\s*([A-Za-z_]\w*)$", p)
        if not pm:
            raise SystemExit(f"codegen: cannot parse parameter {p!r} of {name}")
        plist.append((norm_cpp(pm.group(1)), pm.group(2)))
    return norm_cpp(ret), name, plist


def load_helpers() -> dict[str, list[HelperSig]]:
    doc = load_schema(HELPERS) or {}
    out: dict[str, list[HelperSig]] = {}
    for name, sigs in (doc.get("helpers") or {}).items():
        sigs = sigs if isinstance(sigs, list) else [sigs]
        for k, text in enumerate(sigs):
            ret, n, params = parse_cpp_sig(text)
            if n != name:
                raise SystemExit(f"codegen: helper {name}: signature names {n}")
            out.setdefault(name, []).append(HelperSig(
                name=name, cname=f"tn_fm_{name}" + (f"_{k}" if k else ""), ret=ret, params=params,
                text=" ".join(text.split()), defaults=cpp_defaults(text)))
    return out


# C parameter types of helper prototypes, by canonical C++ type
HELPER_C = {
    "Tensor": "PyObject *", "optional<Tensor>": "PyObject *", "Scalar": "const tn_value *",
    "optional<Scalar>": "const tn_value *", "int64_t": "int64_t", "optional<int64_t>": "tn_opt_int",
    "double": "double", "optional<double>": "tn_opt_double", "bool": "int", "optional<bool>": "int",
    "ScalarType": "int", "optional<ScalarType>": "int", "IntList": "tn_ints", "optional<IntList>": "tn_ints",
    "Layout": "int", "TensorOptions": "tn_ag_options", "string": "const char *",
    "optional<string>": "const char *", "TensorGeometry": "const tn_ag_geometry *",
    "vector<Tensor>": "tn_tensors", "List<optional<Tensor>>": "tn_tensors",
    "vector<ScalarType>": "const tn_ag_dtypes *", "vector<vector<int64_t>>": "const tn_ag_sizes_list *",
    "TypeAndSize": "const tn_ag_type_and_size *",
}


def helper_prototype(h: HelperSig) -> str:
    params = []
    if h.ret.startswith("tuple<"):
        params.append("PyObject **out")
    elif h.ret == "vector<Tensor>":
        params.append("PyObject **out, Py_ssize_t nout")
    for t, n in h.params:
        if t.startswith("array<bool"):
            params.append(f"const int64_t *{n}")
            continue
        ct = HELPER_C.get(t)
        if ct is None:
            raise SystemExit(f"codegen: helper {h.name}: no C type for {t}")
        params.append(f"{ct}{'' if ct.endswith('*') else ' '}{n}")
    ret = "PyObject *" if h.ret == "Tensor" else "int "
    return f"{ret}{h.cname}({', '.join(params)})"


# ---- the model ---------------------------------------------------------------------------------

@dataclasses.dataclass
class SavedField:
    name: str        # C field name ("self_", "other_scalar_type")
    pyname: str      # _saved_<pyname>
    cpp: str         # canonical C++ type
    expr: str        # torchgen's expression at save time
    is_output: bool


@dataclasses.dataclass
class Kind:
    op: str                      # "MulBackward0"
    info: object
    fields: list[SavedField]
    list_args: list[str]         # TensorList args with derivatives: their sizes are saved
    edges: list[tuple[str, bool]]  # args_with_derivatives: (name, is_list)
    apply_body: str = ""
    ntemp: int = 0
    nvecs: int = 0
    locals: list[str] = dataclasses.field(default_factory=list)
    untranslated: list[str] = dataclasses.field(default_factory=list)
    qualname: str = ""

    @property
    def foreach(self) -> bool:
        return self.info.name.startswith("_foreach_")


def torchgen_locals():
    from torchgen import local
    return local.parametrize(use_const_ref_for_mutable_tensors=False, use_ilistref_for_tensor_lists=False)


class AutogradModel:
    def __init__(self, model):
        with torchgen_locals():
            self.build(model)

    def build(self, model):
        from torchgen.api.autograd import match_differentiability_info
        from torchgen.packaged.autograd.load_derivatives import load_derivatives

        self.model = model
        self.helpers = load_helpers()
        comp = load_schema(COMPOSITIONS) or {}
        self.compositions = set(comp.get("compositions") or [])
        self.cia_nondiff = set(comp.get("nondifferentiable") or [])
        self.manual = set(comp.get("manual") or [])
        self.decomposed = set(comp.get("decomposed") or [])
        unknown = sorted((self.compositions | self.cia_nondiff | self.manual | self.decomposed) - set(model.by_qual))
        if unknown:
            raise SystemExit(f"codegen: schemas/autograd_compositions.yaml names unknown overloads: {unknown}")
        deriv = model.native_yaml.parent.parent.parent / "autograd" / "derivatives.yaml"
        infos, _ = load_derivatives(str(deriv), str(model.native_yaml), str(model.tags_yaml))
        # node kinds derivatives.yaml spells out (the others torchgen derives: foreach ops from
        # their per-tensor op, gen_foreach_derivativeinfo)
        self.spelled_out = {i.op for by_key in infos.values() for i in by_key.values() if i is not None}
        self.fns = {str(f.func.func.name): f for f in match_differentiability_info(model.natives, infos)}
        self.natives = {str(f.func.name): f for f in model.natives}
        self.qual_of_cname = {o.cname: o.qualified for o in model.ops}
        self.by_cpp_name = self.cpp_overloads()
        self.kinds: dict[str, Kind] = {}
        self.modes: dict[str, tuple[int, str | None]] = {}
        self.used_helpers: set[str] = set()
        for op in model.ops:
            self.modes[op.qualified] = self.decide(op)
        stale = sorted(q for q in CIA_OUT_CHECKED if self.modes.get(q, (None,))[0] != MODE_OUT)
        if stale:
            raise SystemExit(f"codegen: CIA_OUT_CHECKED lists overloads that are no checked out= overloads: {stale}")
        for kind in self.kinds.values():
            self.translate(kind)
        # node kinds whose formulas are checked on complex tensors (Note [Complex autograd] in
        # runtime/autograd.c); every other generated kind refuses complex tensors by name
        self.complex_verified = set((load_schema(COMPLEX) or {}).get("verified") or [])
        unknown = sorted(self.complex_verified - set(self.kinds))
        if unknown:
            raise SystemExit(f"codegen: schemas/autograd_complex.yaml names unknown node kinds: {unknown}")
        untranslated = sorted(k for k in self.complex_verified if self.kinds[k].untranslated)
        if untranslated:
            raise SystemExit(f"codegen: schemas/autograd_complex.yaml lists kinds with untranslated formulas: {untranslated}")

    # -- which ops record what --

    @staticmethod
    def cia_out_nondiff(op, f):
        """The mask of a CIA_OUT_CHECKED overload's arguments its check skips (CIA_OUT_NONDIFF)."""
        names = CIA_OUT_NONDIFF.get(op.qualified, ())
        args = [a.name for a in f.func.arguments.flat_all]
        unknown = [n for n in names if n not in args]
        if op.qualified in CIA_OUT_NONDIFF and (unknown or op.qualified not in CIA_OUT_CHECKED):
            raise SystemExit(f"codegen: CIA_OUT_NONDIFF names no out= argument of a CIA_OUT_CHECKED {op.qualified}: {unknown}")
        return sum(1 << i for i, a in enumerate(args) if a in names and i < 64)

    def decide(self, op):
        from torchgen.api.autograd import gen_differentiable_outputs
        from torchgen.packaged.autograd.gen_variable_type import DONT_REQUIRE_DERIVATIVE
        from torchgen.model import SchemaKind

        fn = self.fns.get(op.qualified)
        from torchgen.packaged.autograd.gen_trace_type import MANUAL_AUTOGRAD

        f = self.natives[op.qualified]
        if op.qualified in self.manual:
            return (MODE_RECORD, "manual")
        if str(f.func.name.name) in MANUAL_AUTOGRAD:
            return (MODE_NONE, None)   # upstream's hand-written kernel records nothing
        if f.func.kind() == SchemaKind.out and op.cia and op.qualified in self.compositions:
            return (MODE_CIA, None)  # its parts (an out= among them) check and record (diff.out)
        if f.func.kind() == SchemaKind.out and op.cia and op.qualified in CIA_OUT_COPIED:
            return (MODE_CIA, None)
        if f.func.kind() == SchemaKind.out:
            base = f.func.name.name.base
            # upstream's VariableType checks an out= call's tensors only where the op has a
            # derivative entry with differentiable inputs and outputs (lt.Tensor_out, argmax.out and
            # the _foreach_ outs take a requires-grad input); ops without an entry keep the check
            if fn is None and op.functional:  # qr.Q: the functional's derivative entry
                fn = self.fns.get(self.qual_of_cname.get(op.functional, ""))
            info = None
            if fn is not None:
                info = fn.info.get("Default") if fn.info else None
                tensor_in = [a for a in f.func.arguments.flat_non_out if a.type.is_tensor_like()]
                diff_inputs = [a for a in tensor_in if info is None or a.name not in info.non_differentiable_arg_names]
                if (base in DONT_REQUIRE_DERIVATIVE or not gen_differentiable_outputs(fn, "Default") or
                        (tensor_in and not diff_inputs)):
                    # a CompositeImplicitAutograd one still meets its inner out='s check
                    # (argsort.stable_out: sort.values_stable's, though argsort is not differentiable)
                    return (MODE_OUT, self.cia_out_nondiff(op, f)) if op.qualified in CIA_OUT_CHECKED else (MODE_NONE, None)
            if info is None and op.qualified in CIA_OUT_CHECKED:
                # a CompositeImplicitAutograd out= overload has no VariableType kernel of its own: it
                # decomposes into another overload's out= whose VariableType checks every tensor
                # but its non-differentiable outputs
                return (MODE_OUT, self.cia_out_nondiff(op, f))
            if info is None:
                # no derivative entry: upstream registers autogradNotImplementedFallback, which
                # runs the kernel (its errors first) and gives out a node refusing backward
                return (MODE_NOTIMPL, None)
            # the check skips what the entry marks non_differentiable (index_select's index) and
            # the outputs it does not differentiate (sort.values_stable's indices: upstream's
            # VariableType checks the differentiable outputs only)
            diff_out = {o.name for o in gen_differentiable_outputs(fn, "Default")}  # out='s names
            nondiff_out = {a.name for a in f.func.arguments.out if a.name not in diff_out}
            nondiff = [i for i, a in enumerate(f.func.arguments.flat_all)
                       if a.type.is_tensor_like() and (a.name in info.non_differentiable_arg_names or a.name in nondiff_out)]
            return (MODE_OUT, sum(1 << i for i in nondiff if i < 64))
        if op.cia:
            if op.qualified in self.cia_nondiff:
                return (MODE_NONE, None)
            # beside a kernel of its own upstream, the Autograd key takes the composite only for a
            # backend without one (OperatorEntry's rule 2.1): a structured delegate has CPU and Meta
            # kernels (silu_backward: NotImplemented node everywhere), mish_backward CPU only
            if f.structured_delegate is not None:
                return (MODE_NOTIMPL, None)
            if op.qualified in self.model.cpu_kernels:
                return (MODE_CIA_KERNEL, None)
            return (MODE_CIA, None)
        if fn is None:
            return (MODE_NONE, None)
        info = fn.info.get("Default") if fn.info else None
        diff_inputs = [a for a in f.func.arguments.flat_non_out
                       if a.type.is_tensor_like() and (info is None or a.name not in info.non_differentiable_arg_names)]
        diff_outputs = gen_differentiable_outputs(fn, "Default")
        base = f.func.name.name.base
        if base in DONT_REQUIRE_DERIVATIVE or str(f.func.name.name) in DONT_REQUIRE_DERIVATIVE:
            return (MODE_NONE, None)
        if not diff_inputs or not diff_outputs:
            return (MODE_NONE, None)
        if info is None or not info.has_derivatives:
            return (MODE_NOTIMPL, None)
        if not self.runs_here(op):
            # no C kernel computes it (nor its functional sibling): the door refuses the forward
            # call, or computes it by a decomposition not listed `decomposed`; no node kind is
            # generated, backward refuses by name (Note [Refusing a formula upstream has])
            return (MODE_NOTIMPL, "formula")
        kind = self.kinds.get(info.op)
        if kind is None:
            kind = self.make_kind(info)
            if kind is None:
                return (MODE_NOTIMPL, "formula")
            self.kinds[info.op] = kind
        return (MODE_RECORD, info.op)

    def runs_here(self, op) -> bool:
        if op.kernel is not None or op.qualified in self.decomposed:
            return True
        f = self.model.by_cname.get(op.functional) if op.functional else None
        return f is not None and f.kernel is not None

    def make_kind(self, info) -> Kind | None:
        fields = []
        saved_in, saved_out = info.all_saved_inputs, info.all_saved_outputs
        if str(info.func.func.name).startswith("_foreach_"):
            # torchgen keeps a foreach info's saved attributes in a set (gen_foreach_derivativeinfo in
            # torchgen/api/autograd.py): order them by name so every run generates the same file
            saved_in, saved_out = (sorted(x, key=lambda s: str(s.nctype.name)) for x in (saved_in, saved_out))
        for sa, is_out in [(s, False) for s in saved_in] + [(s, True) for s in saved_out]:
            name = str(sa.nctype.name.name if hasattr(sa.nctype.name, "name") else sa.nctype.name)
            cpp = norm_cpp(sa.nctype.type.cpp_type())
            if cpp not in SAVED_C:
                return None
            fields.append(SavedField(name=cname(name) + ("_" if cpp in ("Tensor", "optional<Tensor>") else ""),
                                     pyname=name, cpp=cpp, expr=sa.expr, is_output=is_out))
        edges = []
        for a in info.args_with_derivatives:
            arg = getattr(a, "argument", a)
            is_list = str(getattr(arg, "type", "")) in ("Tensor[]", "Tensor?[]")
            edges.append((a.name, is_list))
        qual = str(info.func.func.name)
        return Kind(op=info.op, info=info, fields=fields, edges=edges,
                    list_args=[n for n, is_list in edges if is_list], qualname=f"aten::{qual}")

    # -- C++ API overloads, for formula calls --

    def cpp_overloads(self):
        from torchgen import local
        from torchgen.api import cpp
        from torchgen.api.types import CppSignatureGroup
        from torchgen.model import SchemaKind

        table: dict[tuple[str, bool], list] = {}
        if True:
            for f in self.model.natives:
                if f.func.kind() == SchemaKind.out:
                    continue
                from torchgen.model import Variant
                for method in (False, True):
                    selfs = [a for a in f.func.arguments.flat_positional if a.name == "self"]
                    if method and (Variant.method not in f.variants or not selfs
                                   or not str(selfs[0].type).startswith("Tensor")):
                        continue
                    g = CppSignatureGroup.from_native_function(f, method=method)
                    sig = g.signature
                    binds = []
                    for b in sig.arguments():
                        arg = b.argument
                        binds.append(arg)
                    table.setdefault((cpp.name(f.func), method), []).append((f, binds))
        return table

    # -- translation --

    def translate(self, kind: Kind) -> None:
        info = kind.info
        em = Emitter(FormulaContext(self, kind))
        # saved tensors are unpacked first (upstream's apply does the same), which is also where
        # version-counter errors surface
        for fld in kind.fields:
            if fld.cpp in ("Tensor", "optional<Tensor>"):
                var = fld.name[:-1]
                t = em.temp()
                em.line(f"PyObject *{var} = {t} = tn_saved_unpack(&n->{fld.name}, n_);")
                em.line(f"if (!{var} && PyErr_Occurred()) goto fail_;")
            elif fld.cpp in ("vector<Tensor>", "List<optional<Tensor>>"):
                var = fld.name
                v = em.local("tn_ag_vec")
                em.line(f"vecs_[nvecs_++] = &{v};")
                em.line(f"if (tn_ag_vec_unpack(&{v}, &n->{fld.name}, n_) < 0) goto fail_;")
                em.line(f"tn_tensors {var} = {{{v}.v, {v}.n}};")
                em.nvecs += 1
        foreach = kind.foreach
        if not foreach:
            em.line("int any_grad_defined_ = tn_ag_any_defined(grads_, n_->num_inputs);")
        for d in info.derivatives:
            idxs = [self.edge_index_expr(kind, v) for v in d.var_names]
            needs = " || ".join(self.needs_expr(kind, v, ix, is_list) for v, (ix, is_list) in zip(d.var_names, idxs))
            em.line(f"if ({needs}) {{")
            em.indent += 1
            if not foreach:
                em.line("if (any_grad_defined_) {")
                em.indent += 1
            mark = len(em.lines)
            ntemp0 = em.ntemp
            nvecs0 = em.nvecs
            indent0 = em.indent
            try:
                if foreach:
                    self.foreach_derivative(em, d, idxs)
                elif len(d.var_names) > 1:
                    em.line(f"int64_t grad_input_mask[{len(d.var_names)}] = {{"
                            + ", ".join(self.needs_expr(kind, v, ix, is_list)
                                        for v, (ix, is_list) in zip(d.var_names, idxs)) + "};")
                    em.line("(void)grad_input_mask;")
                if not foreach:
                    formula = FORMULA_OVERRIDES.get(d.formula, d.formula)
                    tree = Parser(formula).parse()
                    v = em.emit(tree)
                    self.assign_result(em, kind, d, idxs, v)
            except Untranslatable as e:
                del em.lines[mark:]
                em.indent = indent0
                em.ntemp = max(em.ntemp, ntemp0)
                em.nvecs = nvecs0
                kind.untranslated.append(f"{','.join(d.var_names)}: {d.formula} ({e})")
                msg = f"derivative for {kind.qualname} is not implemented in torchnative"
                em.line(f'tn_ag_refuse("{msg}", "{c_escape(str(e))}");')
                em.line("goto fail_;")
            for _ in range(1 if foreach else 2):
                em.indent -= 1
                em.line("}")
        kind.apply_body = "\n".join(em.lines)
        kind.ntemp = em.ntemp
        kind.nvecs = em.nvecs
        kind.locals = em.locals

    @staticmethod
    def foreach_derivative(em: Emitter, d, idxs) -> None:
        """upstream's DERIVATIVE_SINGLE_FOREACH (gen_autograd_functions.py): the per-tensor
        formula torchgen rewrote with grads[i], self[i], scalars[i], result[i], run once per
        output of the node; an undefined grads[i] gives an undefined gradient. Each element's
        temporaries are released before the next; tn_ag_copy_range hands the gradients to the
        input's edges (upstream's copy_range: a plain Tensor input takes one)."""
        if len(d.var_names) != 1:
            raise Untranslatable("foreach derivative of several inputs")
        (ix, is_list), = idxs
        tree = Parser(d.formula).parse()
        acc = em.local("tn_ag_vec")
        em.line(f"if (tn_ag_vec_alloc(&{acc}, n_->num_inputs) < 0) goto fail_;")
        em.line(f"vecs_[nvecs_++] = &{acc};")
        em.nvecs += 1
        nvecs0 = em.nvecs
        em.line("for (Py_ssize_t i_ = 0; i_ < n_->num_inputs; i_++) {")
        em.indent += 1
        em.line("if (!grads_[i_])")
        em.line("    continue;")
        t0 = em.ntemp
        v = em.emit(tree)
        if v.ty != "T":
            raise Untranslatable(f"element result of type {v.ty}")
        if em.nvecs != nvecs0:
            raise Untranslatable("a list inside the element loop")
        em.line(f"{acc}.v[i_] = Py_XNewRef({v.c});")
        if em.ntemp > t0:
            em.line(f"tn_ag_release_temps(&t_[{t0}], {em.ntemp - t0});")
        em.indent -= 1
        em.line("}")
        count = f"(int)n->{d.var_names[0]}_size_" if is_list else "1"
        em.line(f"if (tn_ag_copy_range(n_, out_, {ix}, {count}, &{acc}) < 0) goto fail_;")

    def edge_index_expr(self, kind: Kind, var: str):
        """(C expression of the first edge index of `var`, is_list)"""
        pos = []
        for name, is_list in kind.edges:
            if name == var:
                base = " + ".join(pos) if pos else "0"
                return base, is_list
            pos.append(f"(int)n->{name}_size_" if is_list else "1")
        raise Untranslatable(f"{var} has no edge")

    @staticmethod
    def needs_expr(kind: Kind, var: str, ix: str, is_list: bool) -> str:
        """upstream's task_should_compute_output: for a TensorList input, any of its edges (the
        first element alone may be one that needs no gradient: cat([cache, k]))"""
        if is_list:
            return f"tn_ag_needs_range(n_, {ix}, (int)n->{var}_size_)"
        return f"tn_ag_needs(n_, {ix})"

    def assign_result(self, em: Emitter, kind: Kind, d, idxs, v: Val) -> None:
        if len(d.var_names) == 1:
            ix, is_list = idxs[0]
            if is_list:
                if v.ty != "VT":
                    raise Untranslatable("list gradient")
                em.line(f"for (Py_ssize_t i_ = 0; i_ < {v.c}.n; i_++)")
                em.line(f"    if (tn_ag_needs(n_, {ix} + (int)i_)) out_[{ix} + i_] = Py_XNewRef({v.c}.v[i_]);")
                return
            if v.ty == "NONE":
                return
            if v.ty != "T":
                raise Untranslatable(f"result of type {v.ty}")
            em.line(f"out_[{ix}] = Py_XNewRef({v.c});")
            return
        if v.ty != "TUP" or v.n != len(d.var_names):
            raise Untranslatable(f"multi-output result of type {v.ty}")
        items = v.c.strip("{}").split(", ")
        for (ix, is_list), item in zip(idxs, items):
            if is_list:
                raise Untranslatable("list in a tuple result")
            em.line(f"if (tn_ag_needs(n_, {ix})) out_[{ix}] = Py_XNewRef({item});")


def c_escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"')


# Formulas whose C++ needs more than the translator's grammar, spelled with helpers we have.
FORMULA_OVERRIDES = {
    # roll: grad.roll_symint(fmap(reverse_list_symint(shifts), [](c10::SymInt i){return -i;}), reverse_list(dims))
    "grad.roll_symint(fmap(reverse_list_symint(shifts), [](c10::SymInt i){return -i;}), reverse_list(dims))":
        "grad.roll(negate_list(reverse_list(shifts)), reverse_list(dims))",
}


class FormulaContext:
    """Names, ATen calls and helper calls for formulas of one node kind."""

    def __init__(self, am: AutogradModel, kind: Kind):
        self.am = am
        self.kind = kind
        self.fields = {f.pyname: f for f in kind.fields}

    def lookup(self, name: str) -> Val | None:
        if name == "grad":
            return Val("T", "tn_ag_grad_at(grads_, n_->num_inputs, 0)")
        if name == "grads":
            return Val("TL", "(tn_tensors){grads_, n_->num_inputs}")
        if name == "grad_input_mask":
            return Val("MASK", "grad_input_mask")
        if name in self.kind.info.available_named_gradients:
            # upstream's grad_<output name>: grads[i], i its place among the differentiable outputs
            # (lu_unpack's P is not one: grad_L is grads[0])
            return Val("T", f"tn_ag_grad_at(grads_, n_->num_inputs, {self.kind.info.available_named_gradients.index(name)})")
        if name == "i" and self.kind.foreach:
            return Val("I", "(int64_t)i_")   # the element loop of foreach_derivative
        f = self.fields.get(name)
        if f is None:
            return None
        if f.cpp in ("Tensor", "optional<Tensor>"):
            return Val("T", f.name[:-1])
        if f.cpp in ("vector<Tensor>", "List<optional<Tensor>>"):
            return Val("TL", f.name)
        ty, expr = SAVED_READ[f.cpp]
        return Val(ty, expr.format(f=f"n->{f.name}"))

    def is_helper(self, name: str) -> bool:
        return name in self.am.helpers or name in MANUAL_NAMES

    # -- helpers --

    def helper_call(self, em: Emitter, name: str, vals: list[Val]) -> Val:
        if name in ("reverse_list", "negate_list") and len(vals) == 1 and vals[0].ty == "IA":
            buf = em.local("int64_t", None)
            em.locals[-1] = f"int64_t {buf}[TN_MAX_NDIM];"
            ia = em.local("tn_ints")
            em.line(f"{ia} = tn_ag_{name}({vals[0].c}, {buf});")
            return Val("IA", ia)
        sigs = self.am.helpers.get(name)
        if not sigs:
            raise Untranslatable(f"helper {name} is not in schemas/autograd_helpers.yaml")
        best = None
        for h in sigs:
            if len(vals) < len(h.params) and all(d in ("true", "false") for d in h.defaults[len(vals):]):
                # trailing defaulted bools, as C++ fills them in
                vals = vals + [Val("B", "1" if d == "true" else "0") for d in h.defaults[len(vals):]]
            if len(vals) != len(h.params):
                continue
            cost = 0
            for v, (t, _) in zip(vals, h.params):
                c = helper_arg_cost(v, t)
                if c is None:
                    cost = None
                    break
                cost += c
            if cost is not None and (best is None or cost < best[0]):
                best = (cost, h)
        if best is None:
            raise Untranslatable(f"no overload of {name} takes ({', '.join(v.ty for v in vals)})")
        h = best[1]
        self.am.used_helpers.add(h.cname)
        cargs = [helper_arg(em, v, t) for v, (t, _) in zip(vals, h.params)]
        if h.ret == "Tensor":
            return em.tensor_call(f"{h.cname}({', '.join(cargs)})")
        if h.ret.startswith("tuple<"):
            n = h.ret.count("Tensor")
            outs = [em.temp() for _ in range(n)]
            arr = em.local(f"PyObject *", None)
            em.locals[-1] = f"PyObject *{arr}[{n}];"
            em.line(f"if ({h.cname}({', '.join([arr] + cargs)}) < 0) goto fail_;")
            for k, o in enumerate(outs):
                em.line(f"{o} = {arr}[{k}];")
            return Val("TUP", "{" + ", ".join(outs) + "}", n=n)
        if h.ret == "vector<Tensor>":
            # one gradient per element of the node's list argument
            lst = self.kind.list_args[0] if self.kind.list_args else None
            if lst is None:
                raise Untranslatable("vector result without a list argument")
            v = em.local("tn_ag_vec")
            em.line(f"if (tn_ag_vec_alloc(&{v}, (Py_ssize_t)n->{lst}_size_) < 0) goto fail_;")
            em.line(f"vecs_[nvecs_++] = &{v};")
            em.nvecs += 1
            em.line(f"if ({h.cname}({', '.join([v + '.v', v + '.n'] + cargs)}) < 0) goto fail_;")
            return Val("VT", v)
        raise Untranslatable(f"helper {name} returns {h.ret}")

    # -- ATen calls --

    def op_call(self, em: Emitter, name: str, vals: list[Val], method: bool) -> Val:
        cands = self.am.by_cpp_name.get((name, method), [])
        if method and not cands:
            cands = []
        best = None
        for f, binds in cands:
            args = vals[1:] if method else vals
            if len(args) > len(binds):
                continue
            cost = 0
            ok = True
            for k, b in enumerate(binds):
                if k < len(args):
                    c = aten_arg_cost(args[k], b)
                    if c is None:
                        ok = False
                        break
                    cost += c
                elif not has_default(b):
                    ok = False
                    break
            if ok and (best is None or cost < best[0]):
                best = (cost, f, binds)
        if best is None:
            raise Untranslatable(f"no ATen overload {name}({', '.join(v.ty for v in vals)})")
        _, f, binds = best
        return emit_aten_call(em, f, binds, vals[1:] if method else vals, vals[0] if method else None)


# names the translator treats as helpers even without a C body yet (they then refuse by name)
MANUAL_NAMES = {
    "handle_r_to_c", "maybe_multiply", "mul_tensor_backward", "div_tensor_self_backward",
    "div_tensor_other_backward", "pow_backward", "pow_backward_self", "pow_backward_exponent",
    "sum_backward", "mean_backward", "restore_reduced_dims", "scale_grad_by_count", "logsumexp_backward",
    "mm_mat1_backward", "mm_mat2_backward", "permute_backwards", "unsqueeze_to", "slice_backward_wrapper",
    "cat_tensors_backward", "stack_tensors_backward", "split_backward", "split_with_sizes_backward",
    "unbind_backward", "_to_copy_backward", "masked_fill_backward", "index_backward", "as_strided_backward",
    "evenly_distribute_backward", "clamp_backward", "clamp_backward_min_max", "var_backward", "std_backward",
    "var_mean_backward", "std_mean_backward", "norm_backward", "linalg_vector_norm_backward", "prod_backward",
    "cumsum_backward", "logcumsumexp_backward", "repeat_backward", "sgn_backward",
    "atan2_backward", "copysign_tensor_self_backward", "log1p_backward", "nansum_backward",
    "infinitely_differentiable_silu_backward", "infinitely_differentiable_mish_backward",
    "infinitely_differentiable_logit_backward", "constant_pad_nd_backward",
    "scatter_reduce_backward", "reverse_list", "negate_list", "to_args_sizes", "to_args_scalartypes",
}


def has_default(arg) -> bool:
    from torchgen.model import TensorOptionsArguments
    if isinstance(arg, TensorOptionsArguments):
        return True
    return arg.default is not None


def helper_arg_cost(v: Val, t: str) -> int | None:
    want = CPP_TO_TY.get(t)
    if t.startswith("array<bool"):
        return 0 if v.ty == "MASK" else None
    if want is None:
        return None
    if v.ty == want:
        return 0
    if v.ty == "NONE" and t.startswith("optional<"):
        return 0
    if want == "S" and v.ty in ("I", "D", "B"):
        return 1
    if want == "D" and v.ty == "I":
        return 2
    if want == "OD" and v.ty in ("D", "I"):
        return 1
    if want == "OI" and v.ty == "I":
        return 1
    if want == "I" and v.ty == "B":
        return 3
    return None


def helper_arg(em: Emitter, v: Val, t: str) -> str:
    if t.startswith("array<bool"):
        return v.c
    want = CPP_TO_TY[t]
    if want == "T":
        return "NULL" if v.ty == "NONE" else v.c
    if want == "S":
        if v.ty == "NONE":
            return "NULL"
        if v.ty == "S":
            return f"&{v.c}"
        loc = em.local("tn_value")
        em.line(f"{loc} = {em.scalar_of(v)};")
        return f"&{loc}"
    if want == "OI":
        if v.ty == "NONE":
            return "(tn_opt_int){0, 0}"
        return v.c if v.ty == "OI" else f"(tn_opt_int){{1, {v.c}}}"
    if want == "OD":
        if v.ty == "NONE":
            return "(tn_opt_double){0, 0}"
        return v.c if v.ty == "OD" else f"(tn_opt_double){{1, (double){v.c}}}"
    if want == "IA":
        return "tn_ag_ints_none()" if v.ty == "NONE" else v.c
    if want == "STR":
        return "NULL" if v.ty == "NONE" else v.c
    if want in ("TG", "VST", "VVI", "TAS"):
        return f"&{v.c}"
    if want == "OB":
        return "-1" if v.ty == "NONE" else v.c
    return v.c


def schema_ty(arg) -> str:
    t = str(arg.type)
    return t


def aten_arg_cost(v: Val, arg) -> int | None:
    from torchgen.model import TensorOptionsArguments, SelfArgument
    if isinstance(arg, SelfArgument):
        arg = arg.argument
    if isinstance(arg, TensorOptionsArguments):
        return {"TO": 0, "ST": 1}.get(v.ty)
    t = str(arg.type)
    opt = t.endswith("?")
    core = t[:-1] if opt else t
    if v.ty == "NONE":
        return 0 if opt else None
    if core.startswith("Tensor(") or core == "Tensor":
        return 0 if v.ty == "T" else None
    if core == "Scalar":
        return {"S": 0, "I": 1, "D": 1, "B": 1}.get(v.ty)
    if core in ("int", "SymInt"):
        return {"I": 0, "B": 3, "OI": 0 if opt else None}.get(v.ty)
    if core == "float":
        return {"D": 0, "I": 2, "OD": 0 if opt else None}.get(v.ty)
    if core == "bool":
        return {"B": 0, "OB": 0 if opt else None}.get(v.ty)
    if re.match(r"(Sym)?[Ii]nt\[\d*\]", core):
        return {"IA": 0, "I": 3}.get(v.ty)
    if core == "ScalarType":
        return 0 if v.ty == "ST" else None
    if core == "str":
        return 0 if v.ty == "STR" else None
    if core in ("Tensor[]", "Tensor?[]"):
        return 0 if v.ty == "TL" else None
    if core.startswith("bool["):
        return 0 if v.ty == "MASK" else None
    if core == "Layout":
        return 0 if v.ty == "L" else None
    return None


def default_value(arg) -> str:
    """tn_value C expression of a schema default."""
    t = str(arg.type)
    d = arg.default
    opt = t.endswith("?")
    core = t[:-1] if opt else t
    if d == "None":
        return "(tn_value){0}"
    if core == "bool":
        return f"tn_ag_value_bool({1 if d == 'True' else 0})"
    if core in ("int", "SymInt"):
        if d == "Mean":
            return "tn_value_int(1)"
        if d == "Sum":
            return "tn_value_int(2)"
        return f"tn_value_int({int(d)})"
    if core == "float":
        return f"tn_value_double({float(d)!r})"
    if core == "Scalar":
        if re.fullmatch(r"-?\d+", d):
            return f"tn_value_int({int(d)})"
        return f"tn_value_double({float(d)!r})"
    if re.match(r"(Sym)?[Ii]nt\[(\d*)\]", core):
        m = re.match(r"(Sym)?[Ii]nt\[(\d*)\]", core)
        if d.startswith("["):
            vals = [int(x) for x in d.strip("[]").split(",") if x.strip()]
        else:
            n = int(m.group(2) or 1)
            vals = [int(d)] * n
        if not vals:
            return "tn_ag_value_ints_lit(NULL, 0)"
        return f"tn_ag_value_ints_lit((int64_t[]){{{', '.join(map(str, vals))}}}, {len(vals)})"
    if core == "str":
        return f'tn_ag_value_str("{d.strip(chr(39)).strip(chr(34))}")'
    if core == "MemoryFormat" and d == "contiguous_format":
        return "tn_ag_value_memfmt(0)"
    if core == "ScalarType" and d == "long":
        return "tn_ag_value_dtype(TN_DTYPE_I64)"
    raise Untranslatable(f"default {d!r} of {t}")


def value_of(em: Emitter, v: Val, arg) -> list[str]:
    """tn_value expressions for one C++ argument (TensorOptions expands to four)."""
    from torchgen.model import TensorOptionsArguments, SelfArgument
    if isinstance(arg, SelfArgument):
        arg = arg.argument
    if isinstance(arg, TensorOptionsArguments):
        if v is None:
            return ["(tn_value){0}"] * 4
        if v.ty == "ST":
            return [f"tn_ag_value_dtype({v.c})", "(tn_value){0}", "(tn_value){0}", "(tn_value){0}"]
        return [f"tn_ag_value_dtype({v.c}.dtype)", "(tn_value){0}", f"tn_ag_value_device({v.c}.device)",
                "(tn_value){0}"]
    if v is None:
        return [default_value(arg)]
    if v.ty == "NONE":
        return ["(tn_value){0}"]
    t = str(arg.type)
    core = t[:-1] if t.endswith("?") else t
    if v.ty == "T":
        return [f"tn_value_tensor({v.c})"]
    if v.ty == "OD":
        return [f"({v.c}.has ? tn_value_double({v.c}.v) : (tn_value){{0}})"]
    if v.ty == "OI":
        return [f"({v.c}.has ? tn_value_int({v.c}.v) : (tn_value){{0}})"]
    if v.ty == "OB":
        return [f"({v.c} < 0 ? (tn_value){{0}} : tn_ag_value_bool({v.c}))"]
    if core == "Scalar":
        return [em.scalar_of(v)]
    if core in ("int", "SymInt"):
        return [f"tn_value_int({v.c})"]
    if core == "float":
        return [f"tn_value_double({v.c})"]
    if core == "bool":
        return [f"tn_ag_value_bool({v.c})"]
    if v.ty == "IA":
        return [f"tn_ag_value_ints({v.c})"]
    if v.ty == "I" and re.match(r"(Sym)?[Ii]nt\[", core):
        loc = em.local("int64_t")
        em.line(f"{loc} = {v.c};")
        return [f"tn_ag_value_ints_lit(&{loc}, 1)"]
    if v.ty == "ST":
        return [f"tn_ag_value_dtype({v.c})"]
    if v.ty == "STR":
        return [f"tn_ag_value_str({v.c})"]
    if v.ty == "TL":
        return [f"tn_ag_value_tensors({v.c})"]
    if v.ty == "MASK":
        n = re.match(r"bool\[(\d+)\]", core).group(1)
        return [f"tn_ag_value_bools({v.c}, {n})"]
    if v.ty == "L":
        return ["(tn_value){0}"]
    raise Untranslatable(f"{v.ty} for {t}")


def emit_aten_call(em: Emitter, f, binds, args: list[Val], self_val: Val | None) -> Val:
    from torchgen.model import SelfArgument, TensorOptionsArguments
    from torchgen.api import cpp

    # values in schema order (flat_all), the C++ binding order differs only by TensorOptions
    by_name: dict[str, list[str]] = {}
    if self_val is not None:
        by_name["self"] = [f"tn_value_tensor({self_val.c})"]
    for k, b in enumerate(binds):
        v = args[k] if k < len(args) else None
        exprs = value_of(em, v, b)
        if isinstance(b, TensorOptionsArguments):
            for name, e in zip(("dtype", "layout", "device", "pin_memory"), exprs):
                by_name[name] = [e]
        else:
            a = b.argument if isinstance(b, SelfArgument) else b
            by_name[a.name] = exprs
    values = []
    for a in f.func.arguments.flat_all:
        if a.name not in by_name:
            raise Untranslatable(f"argument {a.name} of {f.func.name} unbound")
        values += by_name[a.name]
    opid = "TN_OP_" + c_ident(str(f.func.name))
    call = f"tn_ag_op({opid}, (tn_value[]){{{', '.join(values) if values else '{0}'}}})"
    rets = f.func.returns
    if len(rets) == 1 and str(rets[0].type) == "Tensor":
        return em.tensor_call(call)
    if len(rets) > 1 and all(str(r.type) == "Tensor" for r in rets):
        tup = em.tensor_call(call)
        outs = [em.temp() for _ in rets]
        for k, o in enumerate(outs):
            em.line(f"{o} = tn_ag_tuple_item({tup.c}, {k});")
            em.line(f"if (!{o} && PyErr_Occurred()) goto fail_;")
        return Val("TUP", "{" + ", ".join(outs) + "}", n=len(rets))
    raise Untranslatable(f"{f.func.name} returns {', '.join(str(r.type) for r in rets)}")


def c_ident(name: str) -> str:
    base, _, overload = name.partition(".")
    return f"{base}__{overload}" if overload else base


# ---- rendering ---------------------------------------------------------------------------------

SHARDS = 6


def saved_input_stmt(field: SavedField, f, inplace: bool, arg_index: dict[str, int], tensor_vars: set) -> str:
    """C statement saving one field at record time (before the kernel runs)."""
    e = field.expr
    dst = f"n->{field.name}"
    m = re.fullmatch(r"(\w+)", e)
    if m and m.group(1) in arg_index:
        a = m.group(1)
        i = arg_index[a]
        cpp = field.cpp
        if cpp in ("Tensor", "optional<Tensor>"):
            if inplace and a == "self":
                return f"if (tn_ag_save_original_self(&{dst}, {a}, n_) < 0) goto fail_;"
            return f"if (tn_saved_save(&{dst}, {a}, n_, 0) < 0) goto fail_;"
        if cpp in ("vector<Tensor>", "List<optional<Tensor>>"):
            return f"if (tn_saved_list_save(&{dst}, &a_[{i}], n_) < 0) goto fail_;"
        if cpp in ("Scalar", "optional<Scalar>"):
            return f"{dst} = a_[{i}];"
        if cpp in ("int64_t", "Layout"):
            return f"{dst} = a_[{i}].u.i;"
        if cpp == "bool":
            return f"{dst} = (int)a_[{i}].u.i;"
        if cpp == "optional<bool>":
            return f"{dst} = a_[{i}].tag == TN_V_NONE ? -1 : (int)a_[{i}].u.i;"
        if cpp == "double":
            return f"{dst} = a_[{i}].u.d;"
        if cpp == "optional<int64_t>":
            return f"{dst} = (tn_opt_int){{a_[{i}].tag != TN_V_NONE, a_[{i}].u.i}};"
        if cpp == "optional<double>":
            return f"{dst} = (tn_opt_double){{a_[{i}].tag != TN_V_NONE, a_[{i}].u.d}};"
        if cpp in ("ScalarType", "optional<ScalarType>"):
            return f"{dst} = a_[{i}].tag == TN_V_NONE ? -1 : (int)a_[{i}].u.i;"
        if cpp in ("IntList", "optional<IntList>"):
            return f"if (tn_ag_ints_save(&{dst}, &a_[{i}]) < 0) goto fail_;"
        if cpp in ("string", "optional<string>"):
            return f"if (tn_ag_str_save(&{dst}, &a_[{i}]) < 0) goto fail_;"
        if cpp == "TypeAndSize":
            return f"if (tn_ag_type_and_size_save(&{dst}, {a}) < 0) goto fail_;"
        if cpp == "ArrayRef<Scalar>":
            return f"if (tn_ag_scalars_save(&{dst}, &a_[{i}]) < 0) goto fail_;"
        raise Untranslatable(f"saving {cpp} {e}")
    m = re.fullmatch(r"(\w+)\.(sym_sizes|sizes)\(\)(\.vec\(\))?", e)
    if m:
        return f"if (tn_ag_ints_save_sizes(&{dst}, {m.group(1)}) < 0) goto fail_;"
    m = re.fullmatch(r"(\w+)\.scalar_type\(\)", e)
    if m:
        return f"{dst} = TN_T({m.group(1)})->dtype;"
    m = re.fullmatch(r"(\w+)\.layout\(\)", e)
    if m:
        return f"{dst} = 0;"
    m = re.fullmatch(r"(\w+)\.options\(\)", e)
    if m:
        return f"{dst} = tn_ag_options_of({m.group(1)});"
    m = re.fullmatch(r"(\w+)\.has_value\(\) \? std::optional<c10::SymIntArrayRef>\(\w+->sym_sizes\(\)\) : std::nullopt", e)
    if m:
        return f"if (tn_ag_ints_save_sizes_opt(&{dst}, {m.group(1)}) < 0) goto fail_;"
    m = re.fullmatch(r"(\w+)\.sym_size\((-?\d+)\)", e)
    if m:
        return f"if (tn_ag_size_save(&{dst}, {m.group(1)}, {m.group(2)}) < 0) goto fail_;"
    m = re.fullmatch(r"strides_or_error\((\w+), \"\w+\"\)(\.vec\(\))?", e)
    if m:
        return f"if (tn_ag_ints_save_strides(&{dst}, {m.group(1)}) < 0) goto fail_;"
    m = re.fullmatch(r"TensorGeometry\((\w+)\)", e)
    if m:
        return f"if (tn_ag_geometry_save(&{dst}, {m.group(1)}) < 0) goto fail_;"
    m = re.fullmatch(r"to_args_scalartypes\((\w+)\)", e)
    if m:
        return f"if (tn_ag_dtypes_save(&{dst}, &a_[{arg_index[m.group(1)]}]) < 0) goto fail_;"
    m = re.fullmatch(r"to_args_sizes(_symint)?\((\w+)\)", e)
    if m:
        return f"if (tn_ag_sizes_list_save(&{dst}, &a_[{arg_index[m.group(2)]}]) < 0) goto fail_;"
    m = re.fullmatch(r"(\w+)\.dim\(\)", e)
    if m:
        return f"{dst} = TN_T({m.group(1)})->ndim;"
    m = re.fullmatch(r"(\w+)\.sym_numel\(\)", e)
    if m:
        return f"{dst} = TN_T({m.group(1)})->numel;"
    raise Untranslatable(f"saving {field.cpp} = {e}")


class Renderer:
    def __init__(self, am: AutogradModel):
        self.am = am
        self.unrecorded: list[str] = []

    def kind_code(self, kind: Kind) -> list[str]:
        k = kind.op
        info = kind.info
        out = []
        out.append(f"/* {k}: {kind.qualname}")
        for d in info.derivatives:
            out.append(f" *   {', '.join(d.var_names)}: {d.original_formula}".replace("*/", "* /").replace("/*", "/ *"))
        out.append(" */")
        out.append("typedef struct {")
        out.append("    tn_node base;")
        for fld in kind.fields:
            out.append(f"    {SAVED_C[fld.cpp]}{'' if SAVED_C[fld.cpp].endswith('*') else ' '}{fld.name};")
        for la in kind.list_args:
            out.append(f"    Py_ssize_t {la}_size_;")
        out.append(f"}} {k};")
        out.append("")
        # apply
        out.append("static int")
        out.append(f"{k}_apply(tn_node *n_, PyObject **grads_, PyObject **out_)")
        out.append("{")
        out.append(f"    {k} *n = ({k} *)n_;")
        out.append(f"    PyObject *t_[{max(kind.ntemp, 1)}] = {{0}};")
        if kind.nvecs:
            out.append(f"    tn_ag_vec *vecs_[{kind.nvecs}];")
            out.append("    int nvecs_ = 0;")
        for loc in kind.locals:
            out.append(f"    {loc}")
        out.append("    int rc_ = -1;")
        out.append(kind.apply_body)
        out.append("    rc_ = 0;")
        out.append("fail_: __attribute__((unused));")
        out.append(f"    tn_ag_release_temps(t_, {max(kind.ntemp, 1)});")
        if kind.nvecs:
            out.append("    for (int i_ = 0; i_ < nvecs_; i_++)")
            out.append("        tn_ag_vec_free(vecs_[i_]);")
        out.append("    (void)n;")
        out.append("    return rc_;")
        out.append("}")
        out.append("")
        tensors = [f for f in kind.fields if f.cpp in ("Tensor", "optional<Tensor>")]
        lists = [f for f in kind.fields if f.cpp in ("vector<Tensor>", "List<optional<Tensor>>")]
        owned = [f for f in kind.fields if f.cpp in ("IntList", "optional<IntList>", "string", "optional<string>",
                                                     "TypeAndSize", "TensorGeometry", "vector<ScalarType>",
                                                     "vector<vector<int64_t>>", "ArrayRef<Scalar>")]
        out.append("static void")
        out.append(f"{k}_release(tn_node *n_)")
        out.append("{")
        out.append(f"    {k} *n = ({k} *)n_;")
        for fld in tensors:
            out.append(f"    tn_saved_release(&n->{fld.name});")
        for fld in lists:
            out.append(f"    tn_saved_list_release(&n->{fld.name});")
        out.append("    (void)n;")
        out.append("}")
        out.append("")
        out.append("static void")
        out.append(f"{k}_finalize(tn_node *n_)")
        out.append("{")
        out.append(f"    {k} *n = ({k} *)n_;")
        for fld in owned:
            out.append(f"    tn_ag_free_{SAVED_C[fld.cpp].replace('char *', 'str').replace('tn_ag_', '')}(&n->{fld.name});")
        out.append("    (void)n;")
        out.append("}")
        out.append("")
        out.append("static int")
        out.append(f"{k}_traverse(tn_node *n_, visitproc visit, void *arg)")
        out.append("{")
        out.append(f"    {k} *n = ({k} *)n_;")
        for fld in tensors:
            out.append(f"    if (tn_saved_traverse(&n->{fld.name}, visit, arg))")
            out.append("        return -1;")
        for fld in lists:
            out.append(f"    for (Py_ssize_t i_ = 0; i_ < n->{fld.name}.n; i_++)")
            out.append(f"        if (tn_saved_traverse(&n->{fld.name}.items[i_], visit, arg))")
            out.append("            return -1;")
        out.append("    (void)n;")
        out.append("    return 0;")
        out.append("}")
        out.append("")
        getters = []
        # the foreach nodes torchgen derives expose no _saved_<name> attributes upstream (dir(grad_fn)
        # in torch 2.13); those derivatives.yaml spells out (ForeachDivBackward0, ...) do
        derived = kind.foreach and kind.op not in self.am.spelled_out
        for fld in [] if derived else kind.fields:
            g = f"{k}_get_{fld.pyname}"
            if fld.cpp in ("Tensor", "optional<Tensor>"):
                body = f"tn_saved_to_py(&(({k} *)self)->{fld.name}, TN_NODE(self))"
            elif fld.cpp in ("vector<Tensor>", "List<optional<Tensor>>"):
                body = f"tn_ag_saved_list_to_py(&(({k} *)self)->{fld.name}, TN_NODE(self))"
            elif fld.cpp in SAVED_GETTER:
                body = SAVED_GETTER[fld.cpp].format(f=f"(({k} *)self)->{fld.name}")
            else:
                continue
            out.append("static PyObject *")
            out.append(f"{g}(PyObject *self, void *c)")
            out.append("{")
            out.append(f"    return {body};")
            out.append("}")
            out.append("")
            getters.append((fld.pyname, g))
        out.append(f"static PyGetSetDef {k}_getset[] = {{")
        for py, g in getters:
            out.append(f'    {{"_saved_{py}", {g}, NULL, NULL, NULL}},')
        out.append("    {NULL},")
        out.append("};")
        out.append("")
        out.append(f"tn_node_kind tn_kind_{k} = {{")
        out.append(f'    .name = "{k}",')
        out.append(f"    .basicsize = sizeof({k}),")
        out.append(f"    .apply = {k}_apply,")
        out.append(f"    .release = {k}_release,")
        out.append(f"    .finalize = {k}_finalize,")
        out.append(f"    .traverse = {k}_traverse,")
        out.append(f"    .getset = {k}_getset,")
        out.append(f'    .op = "{kind.qualname}",')
        rule = "TN_COMPLEX_VERIFIED" if kind.op in self.am.complex_verified else "TN_COMPLEX_REFUSE"
        out.append(f"    .complex_rule = {rule},")
        out.append("};")
        out.append("")
        return out

    def recorder_code(self, op, kind: Kind) -> list[str]:
        from torchgen.api import cpp
        from torchgen.api.autograd import gen_differentiable_outputs
        from torchgen.model import SchemaKind

        am = self.am
        f = am.natives[op.qualified]
        fn = am.fns[op.qualified]
        info = fn.info["Default"]
        inplace = f.func.kind() == SchemaKind.inplace
        args = list(f.func.arguments.flat_all)
        arg_index = {a.name: i for i, a in enumerate(args)}
        edge_names = [n for n, _ in kind.edges]
        out = [f"/* {op.schema} */", "PyObject *", f"tn_ag_record_{op.cname}(tn_op *op_, tn_value *a_)", "{"]
        tensor_vars = set()
        for i, a in enumerate(args):
            t = str(a.type)
            if t.startswith("Tensor") and not t.startswith("Tensor[") and not t.startswith("Tensor?["):
                out.append(f"    PyObject *{cname(a.name)} = tn_ag_arg_tensor(&a_[{i}]);")
                tensor_vars.add(a.name)
        req = []
        for name, is_list in kind.edges:
            i = arg_index.get(name)
            if i is None:
                raise Untranslatable(f"edge {name} not an argument")
            req.append(f"tn_value_requires_grad(&a_[{i}])")
        # inputs the op is not differentiable in must not require grad (check_no_requires_grad);
        # upstream's VariableType checks them whether or not a differentiable input requires grad;
        # a written argument other than self is checked too (rrelu_with_noise's noise)
        base = f.func.name.name.base + ("_" if f.func.name.name.inplace else "")
        for i, a in enumerate(args):
            if not a.type.is_tensor_like() or (a.is_write and a.name == "self") or a.name in edge_names or a.name == "output":
                continue
            if a.name in info.non_differentiable_arg_names:
                continue
            if f.func.arguments.out and a in f.func.arguments.out:
                continue
            out.append(f'    if (tn_ag_check_no_requires_grad(&a_[{i}], "{a.name}", "{base}") < 0)')
            out.append("        return NULL;")
        # output_differentiability conditions (upstream's `_any_requires_grad &= cond`): _to_copy's alone
        conds = list(getattr(info, "output_differentiability_conditions", None) or [])
        if conds:
            if conds != ["!dtype || isDifferentiableType(*dtype)"] or "dtype" not in arg_index:
                raise Untranslatable(f"output_differentiability condition {conds}")
            i = arg_index["dtype"]
            out.append(f"    if (!(({' || '.join(req)}) && (a_[{i}].tag == TN_V_NONE || "
                       f"tn_dtype_is_differentiable((int)a_[{i}].u.i))))")
        else:
            out.append(f"    if (!({' || '.join(req)}))")
        out.append("        return tn_autograd_redispatch(op_, a_);")
        if inplace:
            out.append("    if (tn_autograd_check_inplace(self, 1) < 0)")
            out.append("        return NULL;")
        nnext = " + ".join(f"(int)a_[{arg_index[n]}].n" if is_list else "1" for n, is_list in kind.edges)
        out.append(f"    int nnext_ = {nnext};")
        out.append(f"    {kind.op} *n = ({kind.op} *)tn_node_new(&tn_kind_{kind.op}, nnext_, 0);")
        out.append("    if (!n)")
        out.append("        return NULL;")
        out.append("    tn_node *n_ = &n->base;")
        out.append("    PyObject *r_ = NULL;")
        pos = []
        for name, is_list in kind.edges:
            base = " + ".join(pos) if pos else "0"
            i = arg_index[name]
            if is_list:
                out.append(f"    n->{name}_size_ = a_[{i}].n;")
                out.append(f"    for (Py_ssize_t i_ = 0; i_ < a_[{i}].n; i_++)")
                out.append(f"        if (tn_node_set_next_edge(n_, {base} + (int)i_, a_[{i}].u.tensors[i_]) < 0)")
                out.append("            goto fail_;")
                pos.append(f"(int)a_[{i}].n")
            else:
                out.append(f"    if (tn_node_set_next_edge(n_, {base}, {cname(name)}) < 0)")
                out.append("        goto fail_;")
                pos.append("1")
        # saved inputs, guarded as upstream guards them
        has_list = bool(kind.list_args)
        for fld in kind.fields:
            if fld.is_output:
                continue
            stmt = saved_input_stmt(fld, f, inplace, arg_index, tensor_vars)
            guard = None
            if (not has_list and "backward" not in info.name and len(kind.edges) > 1
                    and fld.cpp == "Tensor"):
                used = [d for d in info.derivatives if fld.pyname in {str(x.nctype.name) for x in d.saved_inputs}]
                if len(used) == 1 and len(used[0].var_names) == 1:
                    guard = f"tn_node_needs(n_, {edge_names.index(used[0].var_names[0])})"
            if guard:
                out.append(f"    if ({guard}) {{")
                out.append(f"        {stmt}")
                out.append("    }")
            else:
                out.append(f"    {stmt}")
        out.append("    r_ = tn_autograd_redispatch(op_, a_);")
        out.append("    if (!r_)")
        out.append("        goto fail_;")
        ret_names = cpp.return_names(f)
        if inplace:
            out.append("    if (tn_autograd_rebase_history(self, n_) < 0)")
            out.append("        goto fail_;")
        else:
            diff = [d.name for d in gen_differentiable_outputs(fn, "Default")]
            nret = len(f.func.returns)
            out.append("    int nr_ = 0;")
            for k2, (rname, r) in enumerate(zip(ret_names, f.func.returns)):
                if rname not in diff:
                    continue
                item = "r_" if nret == 1 else f"tn_ag_result_item(r_, {k2})"
                if str(r.type) == "Tensor[]":
                    out.append(f"    if (tn_ag_set_history_list({item}, n_, &nr_) < 0)")
                else:
                    out.append(f"    if (tn_autograd_set_history({item}, n_, nr_++) < 0)")
                out.append("        goto fail_;")
        for fld in kind.fields:
            if not fld.is_output:
                continue
            if inplace:
                src = "self"
            else:
                if fld.pyname in ret_names:
                    k2 = ret_names.index(fld.pyname)
                elif fld.pyname == "result":
                    k2 = 0
                elif re.fullmatch(r"result\d+", fld.pyname):
                    k2 = int(fld.pyname[6:])
                else:
                    raise Untranslatable(f"saved output {fld.pyname}")
                src = "r_" if len(f.func.returns) == 1 else f"tn_ag_result_item(r_, {k2})"
            if fld.cpp in ("Tensor", "optional<Tensor>"):
                out.append(f"    if (tn_saved_save(&n->{fld.name}, {src}, n_, 1) < 0)")
                out.append("        goto fail_;")
            elif fld.cpp == "vector<Tensor>":
                out.append(f"    if (tn_ag_saved_list_save_outputs(&n->{fld.name}, {src}, n_) < 0)")
                out.append("        goto fail_;")
            elif fld.cpp == "Scalar":
                out.append(f"    if (tn_ag_scalar_of_tensor(&n->{fld.name}, {src}) < 0)")
                out.append("        goto fail_;")
            else:
                raise Untranslatable(f"saved output of type {fld.cpp}")
        out += ["    Py_DECREF(n);", "    return r_;", "fail_:", "    Py_XDECREF(r_);", "    Py_DECREF(n);",
                "    return NULL;", "}", ""]
        return drop_unused_tensor_locals(out, {cname(n) for n in tensor_vars})

    def files(self, banner) -> dict[str, str]:
        with torchgen_locals():
            return self.render_files(banner)

    def render_files(self, banner) -> dict[str, str]:
        am = self.am
        kinds = sorted(am.kinds.values(), key=lambda k: k.op)
        ops_by_kind: dict[str, list] = {}
        for op in am.model.ops:
            mode, k = am.modes[op.qualified]
            if mode == MODE_RECORD:
                ops_by_kind.setdefault(k, []).append(op)
        recorded = {}
        shards: list[list[str]] = [[] for _ in range(SHARDS)]
        for i, kind in enumerate(kinds):
            code = self.kind_code(kind)
            for op in ops_by_kind.get(kind.op, []):
                try:
                    code += self.recorder_code(op, kind)
                    recorded[op.qualified] = True
                except Untranslatable as e:
                    am.modes[op.qualified] = (MODE_NOTIMPL, "formula")
                    self.unrecorded.append(f"{op.qualified}: {e}")
            shards[i * SHARDS // max(len(kinds), 1)].extend(code)
        files = {}
        head = ['#include "runtime/autograd.h"', '#include "runtime/dtype.h"', '#include "generated/autograd.h"',
                '#include "generated/autograd_helpers.h"', "", "#include <math.h>", ""]
        for s, body in enumerate(shards):
            files[f"autograd_{s}.c"] = banner("autograd") + "\n" + "\n".join(head + body) + "\n"
        # the table the door reads
        hdr = [banner("autograd"), "#ifndef TN_GENERATED_AUTOGRAD_H", "#define TN_GENERATED_AUTOGRAD_H", "",
               '#include "runtime/autograd.h"', "",
               "/* One recorder per overload whose derivative is generated (see codegen/autograd.py). */"]
        table = []
        ops_protos: list[str] = []
        checked: list[str] = []  # compose wrappers that check concrete int lists first

        def composer(op) -> str:
            """tn_compose_X, behind the check of Note [Concrete int lists] (codegen/model.py) where
            upstream's CompositeImplicitAutograd registration converts SymInt[] arguments: the
            door reaches a composition for a meta or a grad-requiring call without the glue."""
            if not op.concrete_lists or op.concrete_not_meta:
                return f"tn_compose_{op.cname}"
            checked.extend([f"static PyObject *\ncompose_concrete_{op.cname}(tn_op *op, tn_value *a)\n{{",
                            "    /* Note [Concrete int lists] in codegen/model.py */"])
            for i in op.concrete_lists:
                checked.extend([f"    if (a[{i}].tag != TN_V_NONE && tn_check_concrete_ints(\"{op.name}\", a[{i}].n, "
                            f"a[{i}].u.ints) < 0)", "        return NULL;"])
            checked.extend([f"    return tn_compose_{op.cname}(op, a);", "}", ""])
            return f"compose_concrete_{op.cname}"

        for op in am.model.ops:
            mode, k = am.modes[op.qualified]
            if mode == MODE_NONE:
                continue
            if mode == MODE_RECORD and k == "manual":
                ops_protos.append(f"PyObject *tn_manual_{op.cname}(tn_op *op, tn_value *a);")
                table.append(f"    {{TN_OP_{op.cname}, TN_AG_RECORD, tn_manual_{op.cname}}},")
            elif mode == MODE_RECORD:
                hdr.append(f"PyObject *tn_ag_record_{op.cname}(tn_op *op_, tn_value *a_);")
                table.append(f"    {{TN_OP_{op.cname}, TN_AG_RECORD, tn_ag_record_{op.cname}}},")
            elif mode == MODE_CIA and op.qualified in am.compositions:
                ops_protos.append(f"PyObject *tn_compose_{op.cname}(tn_op *op, tn_value *a);")
                table.append(f"    {{TN_OP_{op.cname}, TN_AG_CIA, {composer(op)}}},")
            elif mode == MODE_CIA_KERNEL:
                compose = "NULL"
                if op.qualified in am.compositions:
                    ops_protos.append(f"PyObject *tn_compose_{op.cname}(tn_op *op, tn_value *a);")
                    compose = composer(op)
                table.append(f"    {{TN_OP_{op.cname}, TN_AG_CIA_KERNEL, {compose}}},")
            elif mode == MODE_OUT and (k or CIA_OUT_CHECKED.get(op.qualified, op.name) != op.name):
                # the name its refusal gives (Note [CIA out= under autograd]), where not its own
                name = CIA_OUT_CHECKED.get(op.qualified, op.name)
                named = "" if name == op.name else f', 0, "{name}"'
                table.append(f"    {{TN_OP_{op.cname}, TN_AG_OUT, NULL, {k:#x}{named}}},")
            elif mode == MODE_NOTIMPL and k == "formula":
                table.append(f"    {{TN_OP_{op.cname}, TN_AG_NOTIMPL, NULL, 0, 1}},")
            else:
                name = {MODE_CIA: "TN_AG_CIA", MODE_NOTIMPL: "TN_AG_NOTIMPL", MODE_OUT: "TN_AG_OUT"}[mode]
                table.append(f"    {{TN_OP_{op.cname}, {name}, NULL}},")
        for kind in kinds:
            hdr.append(f"extern tn_node_kind tn_kind_{kind.op};")
        hdr += ["", "#endif /* TN_GENERATED_AUTOGRAD_H */", ""]
        files["autograd.h"] = "\n".join(hdr)
        files["autograd_table.c"] = "\n".join(
            [banner("autograd"), '#include "generated/autograd.h"', '#include "generated/autograd_helpers.h"',
             '#include "runtime/tensor.h"', ""] + checked + [
             "/* every overload an argument requiring grad changes the door's path for; ends with mode 0 */",
             "const tn_autograd_entry tn_autograd_table[] = {"] + table + ["    {0, 0, NULL},", "};", ""])
        hh = [banner("autograd"), "#ifndef TN_GENERATED_AUTOGRAD_HELPERS_H", "#define TN_GENERATED_AUTOGRAD_HELPERS_H",
              "", '#include "runtime/autograd.h"', "",
              "/* FunctionsManual helpers (schemas/autograd_helpers.yaml), written in ops/autograd_manual.c.",
              " * Tensors: NULL without an exception is an undefined tensor. */"]
        for name in sorted(am.helpers):
            for h in am.helpers[name]:
                hh.append(f"/* {h.text} */")
                hh.append(helper_prototype(h) + ";")
        hh += ["", "/* C decompositions of CompositeImplicitAutograd ops (ops/compositions.c) and ops upstream",
               " * differentiates by hand (ops/autograd_manual.c): schemas/autograd_compositions.yaml */"]
        hh += ops_protos
        hh += ["", "#endif", ""]
        files["autograd_helpers.h"] = "\n".join(hh)
        return files

    def report(self) -> str:
        am = self.am
        lines = []
        for kind in sorted(am.kinds.values(), key=lambda k: k.op):
            for u in kind.untranslated:
                lines.append(f"{kind.op}: {u}")
        return "\n".join(lines)
