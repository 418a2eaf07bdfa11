"""Backward cases: for every overload whose derivative the door records (generated/autograd_table.c:
a generated node kind, or a C composition of a CompositeImplicitAutograd op), the gradients of a
random cotangent with respect to every floating input, from the same argument specs the forward
cases use (cases_op_*.py). Upstream's torch.autograd.grad is the oracle; values compare under
the derived tolerance (backward formulas reduce and multiply), layouts exactly.

    <overload>/bwd            float32, contiguous inputs
    <overload>/bwd_f64        float64 (when the kernel claims it)
    <overload>/bwd_t          transposed inputs (gradients keep upstream's strides); an op whose
                              forward spec lists layouts without "t" gets bwd_<layout> for those
    <overload>/bwd_<extra>    each extra argument set of the forward spec (broadcasting, ...)

How each kind of overload is differentiated:
- in place (add_, t_, fill_, uniform_, ...): the self argument is a clone of the leaf that
  requires grad (an in-place op on a leaf that requires grad is an error), so the overload's own
  node is recorded on the clone and the gradient reaches the leaf through it. An in-place
  overload with no forward spec of its own takes its functional's (add_.Tensor: add.Tensor's).
- random (cases_op_random, native_dropout): both sides draw after the runner's manual_seed(0), so
  the draws, the masks and the gradients are bit-identical: compared exactly (a float64 rerun
  would draw other numbers, so `derived` has nothing to stand on).
- the gradient kernels (cases_op_grad: gelu_backward, ...) and the backward ops below:
  differentiated with respect to their floating inputs, i.e. double backward (exactly for the
  kernels that select or scale once, whose gradient is the same kernel).
- _foreach_*: the gradients of the list outputs with respect to every list element.
- ops whose forward cases are hand-written (the backward ops, the *_scatter forms, polygamma,
  outer/ger, ...): one hand spec each at the end (HAND).
"""
import re
from pathlib import Path

import cases_op_compose
import cases_op_conv
import cases_op_factory
import cases_op_grad
import cases_op_index
import cases_op_linalg
import cases_op_matmul
import cases_op_pool
import cases_op_pointwise
import cases_op_property
import cases_op_random
import cases_op_reduce
import cases_op_view
from spell import CLAIMS, SCHEMAS, Op, Render, aten_expr, dtypes_of

ROOT = Path(__file__).resolve().parents[3]
TABLE = ROOT / "generated" / "autograd_table.c"


def recorded_overloads() -> set[str]:
    """cnames of overloads the door differentiates (a recorder or a C composition)."""
    text = TABLE.read_text()
    names = set(re.findall(r"\{TN_OP_(\w+), TN_AG_RECORD,", text))
    # a C composition, or its wrapper that checks concrete int lists first (Note [Concrete int lists])
    names |= set(re.findall(r"\{TN_OP_(\w+), TN_AG_CIA, (?:tn_compose_|compose_concrete_)", text))
    return names


def c_ident(overload: str) -> str:
    base, _, ov = overload.partition(".")
    return f"{base}__{ov}" if ov else base


RECORDED = recorded_overloads()
FLOATS = ("float32", "float64")
MODULES = (cases_op_compose, cases_op_conv, cases_op_factory, cases_op_grad, cases_op_index, cases_op_linalg,
           cases_op_matmul, cases_op_pool, cases_op_pointwise, cases_op_property, cases_op_random, cases_op_reduce, cases_op_view)
# draws after the runner's manual_seed(0): bit-identical on both sides, compared exactly; and the
# gradient kernels that select or scale once (threshold, hardtanh, leaky_relu: exact in
# cases_op_grad), whose gradient is the same kernel again (the float64 rerun would also not stand
# for them: upstream's float32 vector body and its float64 loop treat NaN inputs differently,
# Note [Activation NaN tails], which made the derived bound of their nan_tails cases blind)
EXACT = {op.overload for op in cases_op_random.OPS} | {op.overload for op in cases_op_grad.OPS if op.tol == "exact"}


def is_inplace(overload: str) -> bool:
    return overload.split(".")[0].endswith("_")


def backward_code(op: Op, dtype: str, args=None, kw=None, layout="contig", overload=None) -> str:
    """The case's code: the inputs, requires_grad on the floating ones, the call, the vjp. An in-place
    overload writes into a clone of its self argument (the leaf keeps its gradient)."""
    overload = overload or op.overload
    r = Render(dtype, layout)
    pos, kws = r.call(op.args if args is None else args, op.kw if kw is None else kw)
    names = [b.split(" = ")[0] for b in r.bindings]
    lines = list(r.bindings)
    lines.append(f"requires_grad({', '.join(names)})" if names else "pass")
    if is_inplace(overload) and pos:
        lines.append(f"s = {pos[0]}.clone()")
        pos = ["s"] + pos[1:]
    lines.append(f"r = {aten_expr(overload, pos + kws)}")
    lines.append(f"out = vjp(r, [{', '.join(names)}])")
    return "; ".join(lines)


# variants upstream cannot differentiate, for reasons of its own backend: no oracle to compare with
UPSTREAM_FAILS = {
    # gelu_double_backward through oneDNN: "itensor_view_from_dense expects float/bfloat16/half/int8/fp8
    # tensor inputDouble", "could not create a primitive descriptor for the reorder primitive"
    "gelu_backward/bwd_mixed_f64_grad", "gelu_backward/bwd_bcast_x", "gelu_backward/bwd_bcast_grad",
}


# float64 gradients a comparison with upstream cannot resolve: upstream's float64 answer is
# farther from the truth than ours (Note [Float64 error from the float32 run] in compare.py,
# `tools/f64_truth.py` on both sides); their float32 cases stay. linalg_lstsq: on session 33's AVX2
# machine upstream's float32 run predicts a float64 bound of 5.73e-15 and ours lies 5.8e-15 from
# upstream's float64 answer (element 11 of 2.83; on the AVX-512 machines before it passed); against
# a 200-bit answer (`tools/f64_truth.py --case lstsq` on each side) ours's largest error is 2.42e-15,
# upstream's 3.36e-15, and at element 11 ours 2.42e-15, upstream 3.36e-15.
NO_F64 = {"linalg_lu_solve", "linalg_lstsq"}


def add_op(op: Op, overload: str) -> None:
    """The backward cases of `overload` from the forward spec `op` (the overload's own, or its
    functional's for an in-place overload without one)."""
    tol = "exact" if overload in EXACT else "derived"
    claimed = [d for d in (CLAIMS.get(overload) if overload != op.overload else dtypes_of(op)) if d in FLOATS]
    if "float32" not in claimed or f"{overload}/bwd" in CASES:
        return
    CASES[f"{overload}/bwd"] = {"code": backward_code(op, "float32", overload=overload), "tol": tol}
    if "float64" in claimed and overload not in NO_F64:
        CASES[f"{overload}/bwd_f64"] = {"code": backward_code(op, "float64", overload=overload), "tol": tol}
    if any(getattr(a, "shape", None) and len(a.shape) >= 2 for a in op.args):
        # a forward spec that lists its layouts without "t" excludes transposed inputs for a
        # reason (upstream's flash attention reads q/k/v as if their last stride were 1): the
        # backward takes the layouts the spec lists instead
        noncontig = op.layouts if isinstance(op.layouts, tuple) and "t" not in op.layouts else ("t",)
        for lay in noncontig:
            CASES[f"{overload}/bwd_{lay}"] = {"code": backward_code(op, "float32", layout=lay, overload=overload),
                                             "tol": tol}
    for name, (args, kw) in op.extra.items():
        if f"{overload}/bwd_{name}" not in UPSTREAM_FAILS:
            CASES[f"{overload}/bwd_{name}"] = {"code": backward_code(op, "float32", args, kw, overload=overload),
                                              "tol": tol}


CASES = {}
SPECS = {op.overload: op for mod in MODULES for op in mod.OPS}
# overloads whose backward cases are HAND-written: a gradient that depends on a sign LAPACK
# chooses (Note [Non-unique linalg results] in cases_op_linalg.py), or an input that must be
# positive-definite
HAND_ONLY = {"_linalg_eigh", "linalg_cholesky_ex"}
for overload, op in SPECS.items():
    if c_ident(overload) in RECORDED and overload not in HAND_ONLY:
        add_op(op, overload)
# in-place overloads without a spec of their own: their functional's spec (same arguments)
for overload in sorted(SCHEMAS):
    base, _, ov = overload.partition(".")
    functional = f"{base[:-1]}.{ov}" if ov else base[:-1]
    if (is_inplace(overload) and not base.startswith("_") and overload not in SPECS and functional in SPECS
            and overload in CLAIMS and c_ident(overload) in RECORDED):
        add_op(SPECS[functional], overload)

# A TensorList input whose first element needs no gradient still sends gradients to the others
# (upstream's task_should_compute_output over the list's edge range): transformers' cache
# concatenates a constant empty tensor in front of the keys and values.
CASES["cat/bwd_first_element_constant_legacy_empty"] = {
    "code": "e = torch.tensor([]); k = make((1, 2, 3, 4), torch.float32, seed=1); requires_grad(k); "
            "r = torch.cat([e, k], dim=-2); out = vjp(r, [k])", "tol": "derived"}
CASES["cat/bwd_first_element_constant"] = {
    "code": "a = make((2, 3), torch.float32, seed=1); b = make((1, 3), torch.float32, seed=2); requires_grad(b); "
            "r = torch.cat([a, b]); out = vjp(r, [b])", "tol": "derived"}
CASES["stack/bwd_first_element_constant"] = {
    "code": "a = make((2, 3), torch.float32, seed=1); b = make((2, 3), torch.float32, seed=2); requires_grad(b); "
            "r = torch.stack([a, b], 1); out = vjp(r, [b])", "tol": "derived"}
# TensorList inputs whose first element does not require grad: the node must still compute the
# others' gradients (transformers' KV cache cats onto a legacy empty tensor, torch.tensor([]))
_LIST = "a = make((2, 3), torch.float32, seed=1); b = make((2, 3), torch.float32, seed=2); requires_grad(b); "
CASES["cat/bwd_first_no_grad"] = {"code": _LIST + "r = torch.cat([a, b]); out = vjp(r, [b])", "tol": "derived"}
CASES["cat/bwd_legacy_empty_first"] = {
    "code": "b = make((1, 2, 3, 4), torch.float32, seed=2, layout='t'); requires_grad(b); "
            "r = torch.cat([torch.tensor([]), b], dim=-2); out = vjp(r, [b])", "tol": "derived"}
CASES["stack/bwd_first_no_grad"] = {"code": _LIST + "r = torch.stack([a, b], 1); out = vjp(r, [b])", "tol": "derived"}
# broadcast_tensors / broadcast_to differentiate through expand (F.mse_loss calls the first)
CASES["broadcast_tensors/bwd"] = {
    "code": "a = make((2, 1, 3), torch.float32, seed=1); b = make((4, 3), torch.float32, seed=2); "
            "c = make((2, 4, 3), torch.float32, seed=3); requires_grad(a, b, c); "
            "r = torch.broadcast_tensors(a, b, c); out = (vjp(r, [a, b, c]), r[2] is c)", "tol": "derived"}
CASES["broadcast_to/bwd"] = {"code": "a = make((3, 1), torch.float32, seed=1); requires_grad(a); "
                                     "r = torch.broadcast_to(a, (2, 3, 4)); out = vjp(r, [a])", "tol": "derived"}
CASES["mse_loss/bwd_broadcast_target"] = {
    "code": "a = make((4, 3), torch.float32, seed=1); t = make((3,), torch.float32, seed=2); requires_grad(a); "
            "r = torch.nn.functional.mse_loss(a, t.expand(4, 3)); out = vjp(r, [a])", "tol": "derived"}

# ---- _foreach_*: the gradients of the list outputs with respect to every list element ---------------

def tl(seed: int, dt: str, role: str = "any", zerodim: bool = True) -> str:
    """Four tensors of different shapes: one transposed, one 0-dim (as cases_foreach.py's lists)."""
    r = f", role='{role}'" if role != "any" else ""
    last = f", make((), torch.{dt}, seed={seed + 30}{r})" if zerodim else ""
    return (f"[make((3, 4), torch.{dt}, seed={seed}{r}), make((5,), torch.{dt}, seed={seed + 10}{r}), "
            f"make((4, 3), torch.{dt}, seed={seed + 20}{r}, layout='t'){last}]")


# overload -> (the lists it takes: name and value role, its other arguments)
FOREACH = {
    "_foreach_add.List": ("X Y", "alpha=0.5"), "_foreach_add.Scalar": ("X", "1.5"),
    "_foreach_add.ScalarList": ("X", "[1.0, 2, -0.5, 4]"), "_foreach_add.Tensor": ("X", "s, alpha=2"),
    "_foreach_sub.List": ("X Y", "alpha=-2"), "_foreach_sub.Scalar": ("X", "3"),
    "_foreach_sub.ScalarList": ("X", "[1.0, 2, -0.5, 4]"),
    "_foreach_mul.List": ("X Y", ""), "_foreach_mul.Scalar": ("X", "0.75"),
    "_foreach_mul.ScalarList": ("X", "[0.5, 2, -3.0, 0.1]"), "_foreach_mul.Tensor": ("X", "s"),
    "_foreach_div.List": ("X Z", ""), "_foreach_div.Scalar": ("X", "0.75"),
    "_foreach_div.ScalarList": ("X", "[0.5, 2, -3.0, 0.1]"), "_foreach_div.Tensor": ("X", "s"),
    "_foreach_addcmul.Scalar": ("X Y Z", "0.5"), "_foreach_addcmul.ScalarList": ("X Y Z", "[0.5, 1, -2.0, 3]"),
    "_foreach_addcdiv.Scalar": ("X Y Z", "0.5"), "_foreach_addcdiv.ScalarList": ("X Y Z", "[0.5, 1, -2.0]"),
    "_foreach_lerp.List": ("X Y W", ""), "_foreach_lerp.Scalar": ("X Y", "0.3"),
    "_foreach_maximum.List": ("X Y", ""), "_foreach_minimum.List": ("X Y", ""),
    "_foreach_clamp_max.Scalar": ("X", "0.3"), "_foreach_clamp_min.Scalar": ("X", "-0.2"),
    "_foreach_neg": ("X", ""), "_foreach_sqrt": ("P", ""), "_foreach_norm.Scalar": ("X", "2"),
}
LISTS = {"X": (1, "any"), "Y": (2, "any"), "Z": (3, "nonzero"), "W": (4, "prob"), "P": (5, "pos")}


def foreach_code(overload: str, dt: str, lists: str, rest: str) -> str:
    names = lists.split()
    # upstream's addcdiv backward selects into each element: a 0-dim one raises IndexError there
    zerodim = not overload.startswith("_foreach_addcdiv")
    lines = [f"{n} = {tl(LISTS[n][0], dt, LISTS[n][1], zerodim)}" for n in names]
    grads = " + ".join(names)
    if overload.endswith(".Tensor"):
        # the 0-dim Tensor operand needs no grad: upstream's node for it raises "inconsistent range
        # for TensorList output" (its gradient would be one tensor for a list of outputs)
        lines.append(f"s = make((), torch.{dt}, seed=50, role='nonzero')")
    lines.append(f"requires_grad(*({grads}))")
    args = ", ".join(names + ([rest] if rest else []))
    lines.append(f"r = {aten_expr(overload, [args])}")
    lines.append(f"out = vjp(r, {grads})")
    return "; ".join(lines)


for overload, (lists, rest) in FOREACH.items():
    for dt, suffix in (("float32", ""), ("float64", "_f64")):
        CASES[f"{overload}/bwd{suffix}"] = {"code": foreach_code(overload, dt, lists, rest), "tol": "derived"}
CASES["_foreach_norm.Scalar/bwd_ord1"] = {"code": foreach_code("_foreach_norm.Scalar", "float32", "X", "1"),
                                          "tol": "derived"}
CASES["_foreach_norm.Scalar/bwd_inf"] = {"code": foreach_code("_foreach_norm.Scalar", "float32", "X", "float('inf')"),
                                         "tol": "derived"}

# ---- HAND: overloads whose forward cases are hand-written --------------------------------------------
# overload -> {variant: (setup binding the inputs, the call, the inputs that require grad)}; {dt} in
# the setup is the variant's dtype (float32, float64 in the *_f64 variants)

A = "torch.ops.aten"


def mk(shape, seed, dt="{dt}", **kw) -> str:
    opts = "".join(f", {k}={v!r}" for k, v in kw.items())
    return f"make({tuple(shape)!r}, torch.{dt}, seed={seed}{opts})"


def hand(overload: str, variants: dict, tol: str = "derived", f64: bool = True) -> None:
    """Each variant as float32; the plain one (bwd) also as float64 unless f64 is False."""
    for name, (setup, call, grads) in variants.items():
        for dt, suffix in (("float32", ""), ("float64", "_f64")) if f64 and name == "bwd" else (("float32", ""),):
            code = f"{setup}; requires_grad({grads}); r = {call}; out = vjp(r, [{grads}])"
            CASES[f"{overload}/{name}{suffix}"] = {"code": code.replace("{dt}", dt), "tol": tol}


G35, Y35 = mk((3, 5), 1), mk((3, 5), 2, role="prob")
hand("_softmax_backward_data", {
    "bwd": (f"g = {G35}; y = {Y35}", f"{A}._softmax_backward_data(g, y, 1, torch.{{dt}})", "g, y"),
    "bwd_dim0_t": (f"g = {mk((4, 3), 1, layout='t')}; y = {mk((4, 3), 2, role='prob')}",
                   f"{A}._softmax_backward_data(g, y, 0, torch.float32)", "g, y"),
    "bwd_3d": (f"g = {mk((2, 3, 4), 1)}; y = {mk((2, 3, 4), 2, role='prob')}",
               f"{A}._softmax_backward_data(g, y, 1, torch.float32)", "g, y")})
hand("_log_softmax_backward_data", {
    "bwd": (f"g = {G35}; y = {mk((3, 5), 2)}", f"{A}._log_softmax_backward_data(g, y, 1, torch.{{dt}})", "g, y"),
    "bwd_dim0_t": (f"g = {mk((4, 3), 1, layout='t')}; y = {mk((4, 3), 2)}",
                   f"{A}._log_softmax_backward_data(g, y, 0, torch.float32)", "g, y"),
    "bwd_3d": (f"g = {mk((2, 3, 4), 1)}; y = {mk((2, 3, 4), 2)}",
               f"{A}._log_softmax_backward_data(g, y, 1, torch.float32)", "g, y")})

# linear algebra (HAND_ONLY above): eigenvectors through |V|, as upstream's OpInfo differentiates
# them (sample_inputs_linalg_eigh); Cholesky of M M^T + 3 I, M the leaf
SPD_OF = "(m @ m.mT + 3 * torch.eye(3, dtype=m.dtype))"
hand("_linalg_eigh", {
    "bwd": (f"m = {mk((2, 3, 3), 1)}", f"(lambda w, v: (w, v.abs()))(*{A}._linalg_eigh(m))", "m"),
    "bwd_upper_t": (f"m = {mk((3, 3), 1, layout='t')}", f"(lambda w, v: (w, v.abs()))(*{A}._linalg_eigh(m, 'U'))", "m"),
    "bwd_values": (f"m = {mk((2, 3, 3), 1)}", f"{A}._linalg_eigh(m)[0]", "m"),
    "bwd_values_only": (f"m = {mk((3, 3), 1)}", f"{A}._linalg_eigh(m, 'L', False)", "m"),
    "bwd_eigvalsh": (f"m = {mk((2, 3, 3), 1)}", "torch.linalg.eigvalsh(m)", "m")}, f64=False)
hand("linalg_cholesky_ex", {
    "bwd": (f"m = {mk((2, 3, 3), 1)}", f"{A}.linalg_cholesky_ex({SPD_OF})", "m"),
    "bwd_upper": (f"m = {mk((2, 3, 3), 1)}", f"{A}.linalg_cholesky_ex({SPD_OF}, upper=True)", "m"),
    "bwd_t": (f"m = {mk((3, 3), 1, layout='t')}", f"torch.linalg.cholesky({SPD_OF})", "m")})
# double backward through the QR and Householder-product helpers (ops/autograd_manual.c composes
# them at the door, so create_graph records their ops): the gradient of the first vjp's gradients
# for a second cotangent. The square Householder case is float64: in float32 its tau gradient sums
# two paths (through tau and through the saved result), each rounded to float32 where it leaves a
# node, and lands 7.6e-7 from float64 where the derived bound of its three elements is 7.5e-7
# (upstream's own error there is 2e-7)
VT = f"v = {mk((4, 3), 1)}; tau = {mk((2,), 2)}"
hand("linalg_householder_product", {
    "bwd_double": (VT, f"vjp({A}.linalg_householder_product(v, tau), [v, tau], create_graph=True)", "v, tau"),
    "bwd_double_square_f64": (f"v = {mk((3, 3), 1, dt='float64')}; tau = {mk((3,), 2, dt='float64')}",
                              f"vjp({A}.linalg_householder_product(v, tau), [v, tau], create_graph=True)", "v, tau")},
     f64=False)
# the wide QR with one output's gradient undefined, the rectangular LU batched and transposed
hand("linalg_qr", {
    "bwd_wide_q_only": (f"m = {mk((3, 5), 1)}", f"{A}.linalg_qr(m)[0]", "m"),
    "bwd_wide_r_only": (f"m = {mk((3, 5), 1)}", f"{A}.linalg_qr(m)[1]", "m"),
    "bwd_wide_batched_t": (f"m = {mk((2, 3, 5), 1, layout='t')}", f"{A}.linalg_qr(m)", "m")}, f64=False)
hand("linalg_lu_factor_ex", {
    "bwd_wide_batched": (f"m = {mk((2, 3, 5), 1)}", f"{A}.linalg_lu_factor_ex(m)", "m"),
    "bwd_tall_t": (f"m = {mk((5, 3), 1, layout='t')}", f"{A}.linalg_lu_factor_ex(m)", "m"),
    # double backward: the helper unpacks the factorization with lu_unpack, whose own gradient
    # reaches LU (schemas/autograd_compositions.yaml, decomposed)
    "bwd_double": (f"m = {mk((3, 3), 1)}", f"vjp({A}.linalg_lu_factor_ex(m), [m], create_graph=True)", "m"),
    "bwd_double_wide": (f"m = {mk((3, 5), 1)}", f"vjp({A}.linalg_lu_factor_ex(m), [m], create_graph=True)", "m"),
    "bwd_double_tall": (f"m = {mk((5, 3), 1)}", f"vjp({A}.linalg_lu_factor_ex(m), [m], create_graph=True)", "m")},
     f64=False)
hand("linalg_qr", {
    "bwd_double": (f"m = {mk((4, 3), 1)}", f"vjp({A}.linalg_qr(m), [m], create_graph=True)", "m"),
    "bwd_double_wide": (f"m = {mk((3, 5), 1)}", f"vjp({A}.linalg_qr(m), [m], create_graph=True)", "m"),
    "bwd_double_wide_q": (f"m = {mk((2, 3, 5), 1)}", f"vjp({A}.linalg_qr(m)[0], [m], create_graph=True)", "m")},
     f64=False)

# mean and rstd from the forward (not differentiable: upstream's not_implemented)
LN = (f"x = {mk((2, 3, 4), 1)}; w = {mk((4,), 2)}; b = {mk((4,), 3)}; g = {mk((2, 3, 4), 4)}; "
      f"_, mean, rstd = {A}.native_layer_norm(x, [4], w, b, 1e-5)")
LN2 = (f"x = {mk((2, 3, 4), 1)}; w = {mk((3, 4), 2)}; g = {mk((2, 3, 4), 4)}; "
       f"_, mean, rstd = {A}.native_layer_norm(x, [3, 4], w, None, 1e-5)")
LN0 = f"x = {mk((3, 5), 1)}; g = {mk((3, 5), 4)}; _, mean, rstd = {A}.native_layer_norm(x, [5], None, None, 1e-5)"
hand("native_layer_norm_backward", {
    "bwd": (LN, f"{A}.native_layer_norm_backward(g, x, [4], mean, rstd, w, b, [True, True, True])", "g, x, w, b"),
    "bwd_input_only": (LN, f"{A}.native_layer_norm_backward(g, x, [4], mean, rstd, w, b, [True, False, False])",
                       "g, x, w, b"),
    "bwd_weight_bias": (LN, f"{A}.native_layer_norm_backward(g, x, [4], mean, rstd, w, b, [False, True, True])",
                        "g, x, w, b"),
    "bwd_two_dims": (LN2, f"{A}.native_layer_norm_backward(g, x, [3, 4], mean, rstd, w, None, [True, True, False])",
                     "g, x, w"),
    "bwd_no_weight": (LN0, f"{A}.native_layer_norm_backward(g, x, [5], mean, rstd, None, None, [True, False, False])",
                      "g, x")})

NLL = f"x = {mk((5, 4), 1)}; t = literal([0, 3, 1, 1, 2], torch.int64); w = {mk((4,), 3, role='pos')}"
hand("nll_loss_backward", {
    "bwd": (NLL + "; go = literal(0.75, torch.{dt}); tw = literal(3.5, torch.{dt})",
            f"{A}.nll_loss_backward(go, x, t, None, 1, -100, tw)", "go, x"),
    "bwd_none_weight": (NLL + f"; go = {mk((5,), 2)}; tw = literal(0.0)",
                        f"{A}.nll_loss_backward(go, x, t, w, 0, -100, tw)", "go, x"),
    "bwd_sum_ignore": (NLL + "; go = literal(1.5); tw = literal(3.0)",
                       f"{A}.nll_loss_backward(go, x, t, w, 2, 1, tw)", "go, x")})
NLL2 = f"x = {mk((2, 3, 4, 5), 1)}; t = {mk((2, 4, 5), 2, dt='int64', role='index', high=3)}; w = {mk((3,), 3, role='pos')}"
hand("nll_loss2d_backward", {
    "bwd": (NLL2 + "; go = literal(0.75, torch.{dt}); tw = literal(40.0, torch.{dt})",
            f"{A}.nll_loss2d_backward(go, x, t, None, 1, -100, tw)", "go, x"),
    "bwd_none_weight": (NLL2 + f"; go = {mk((2, 4, 5), 4)}; tw = literal(0.0)",
                        f"{A}.nll_loss2d_backward(go, x, t, w, 0, -100, tw)", "go, x"),
    "bwd_sum_ignore": (NLL2 + "; go = literal(1.5); tw = literal(30.0)",
                       f"{A}.nll_loss2d_backward(go, x, t, w, 2, 1, tw)", "go, x")})
hand("nll_loss2d_forward", {
    "bwd": (NLL2, f"{A}.nll_loss2d_forward(x, t, None, 1, -100)", "x"),
    "bwd_none_weight": (NLL2, f"{A}.nll_loss2d_forward(x, t, w, 0, -100)", "x"),
    "bwd_sum_ignore": (NLL2, f"{A}.nll_loss2d_forward(x, t, w, 2, 1)", "x"),
    "bwd_mean_weight": (NLL2, f"{A}.nll_loss2d_forward(x, t, w, 1, 0)", "x")})
hand("nll_loss2d", {
    "bwd": (NLL2, f"{A}.nll_loss2d(x, t)", "x"),
    "bwd_none_weight": (NLL2, f"{A}.nll_loss2d(x, t, w, 0)", "x"),
    "bwd_sum_ignore": (NLL2, f"{A}.nll_loss2d(x, t, w, 2, 1)", "x")})

MSE = f"x = {mk((3, 4), 1)}; y = {mk((3, 4), 2)}"
hand("mse_loss_backward", {
    "bwd": ("go = literal(0.75, torch.{dt}); " + MSE, f"{A}.mse_loss_backward(go, x, y, 1)", "go, x, y"),
    "bwd_none": (f"go = {mk((3, 4), 3)}; " + MSE, f"{A}.mse_loss_backward(go, x, y, 0)", "go, x, y"),
    "bwd_sum": ("go = literal(1.5); " + MSE, f"{A}.mse_loss_backward(go, x, y, 2)", "go, x, y"),
    "bwd_bcast": (f"go = literal(0.5); x = {mk((3, 4), 1)}; y = {mk((4,), 2)}",
                  f"{A}.mse_loss_backward(go, x, y, 1)", "go, x, y")})

EMB = f"g = {mk((2, 3, 5), 1)}; i = literal([[0, 2, 2], [5, 0, 2]], torch.int64)"
hand("embedding_dense_backward", {
    "bwd": (EMB, f"{A}.embedding_dense_backward(g, i, 6, -1, False)", "g"),
    "bwd_padding": (EMB, f"{A}.embedding_dense_backward(g, i, 6, 2, False)", "g"),
    "bwd_freq": (EMB, f"{A}.embedding_dense_backward(g, i, 6, 0, True)", "g")})
hand("embedding_backward", {
    "bwd": (EMB, f"{A}.embedding_backward(g, i, 6, -1, False, False)", "g"),
    "bwd_padding_freq": (EMB, f"{A}.embedding_backward(g, i, 6, 2, True, False)", "g")})

hand("select_backward", {
    "bwd": (f"g = {mk((4,), 1)}", f"{A}.select_backward(g, [3, 4], 0, 1)", "g"),
    "bwd_negative_index": (f"g = {mk((3,), 1)}", f"{A}.select_backward(g, [3, 4], 1, -1)", "g")})
hand("slice_backward", {
    "bwd": (f"g = {mk((3, 2), 1)}", f"{A}.slice_backward(g, [3, 7], 1, 1, 5, 2)", "g"),
    "bwd_t": (f"g = {mk((3, 2), 1, layout='t')}", f"{A}.slice_backward(g, [3, 7], 1, 0, 4, 2)", "g"),
    "bwd_dim0": (f"g = {mk((2, 4), 1)}", f"{A}.slice_backward(g, [5, 4], 0, 2, 4, 1)", "g")})
hand("diagonal_backward", {
    "bwd": (f"g = {mk((2, 3), 1)}", f"{A}.diagonal_backward(g, [2, 3, 4], 1, 1, 2)", "g"),
    "bwd_negative_offset": (f"g = {mk((3,), 1)}", f"{A}.diagonal_backward(g, [4, 3], -1, 0, 1)", "g")})
hand("unfold_backward", {
    "bwd": (f"g = {mk((2, 4, 3), 1)}", f"{A}.unfold_backward(g, [2, 6], 1, 3, 1)", "g"),
    "bwd_step2": (f"g = {mk((2, 2, 3), 1)}", f"{A}.unfold_backward(g, [2, 6], 1, 3, 2)", "g"),
    "bwd_gap": (f"g = {mk((2, 2), 1)}", f"{A}.unfold_backward(g, [7], 0, 2, 3)", "g")})
hand("gather_backward", {
    "bwd": (f"g = {mk((3, 2), 1)}; x = {mk((3, 5), 2)}; i = literal([[0, 4], [2, 2], [1, 1]], torch.int64)",
            f"{A}.gather_backward(g, x, 1, i, False)", "g, x"),
    "bwd_dim0": (f"g = {mk((2, 3), 1)}; x = {mk((4, 3), 2)}; i = literal([[0, 3, 3], [0, 0, 1]], torch.int64)",
                 f"{A}.gather_backward(g, x, 0, i, False)", "g, x")})
IDX = "literal([0, 2, 2, 4], torch.int64)"
hand("index_select_backward", {
    "bwd": (f"g = {mk((4, 3), 1)}; i = {IDX}", f"{A}.index_select_backward(g, [5, 3], 0, i)", "g"),
    "bwd_dim1": (f"g = {mk((5, 2), 1)}; i = literal([2, 2], torch.int64)", f"{A}.index_select_backward(g, [5, 3], 1, i)",
                 "g")})
VSR = f"{A}.value_selecting_reduction_backward"
hand("value_selecting_reduction_backward", {
    "bwd": (f"x = {mk((3, 5), 1)}; v, i = torch.max(x, 1); g = {mk((3,), 2)}", f"{VSR}(g, 1, i, [3, 5], False)", "g"),
    "bwd_keepdim": (f"x = {mk((3, 5), 1)}; v, i = torch.min(x, 0, keepdim=True); g = {mk((1, 5), 2)}",
                    f"{VSR}(g, 0, i, [3, 5], True)", "g"),
    "bwd_sort": (f"x = {mk((4, 6), 1)}; v, i = torch.sort(x, 1); g = {mk((4, 6), 2)}",
                 f"{VSR}(g, 1, i, [4, 6], True)", "g")})
MASK = "make((3, 4), torch.bool, seed=3, role='mask')"
hand("masked_select_backward", {
    "bwd": (f"x = {mk((3, 4), 1)}; m = {MASK}; g = {mk((3, 4), 2)}[m]", f"{A}.masked_select_backward(g, x, m)", "g, x"),
    "bwd_bcast": (f"x = {mk((4,), 1)}; m = {MASK}; g = {mk((3, 4), 2)}[m]", f"{A}.masked_select_backward(g, x, m)",
                  "g, x")})
CP = f"x = {mk((3, 6), 1, role='nonzero')}; g = {mk((3, 6), 2)}; y = torch.cumprod(x, 1)"
CPZ = (f"x = {mk((3, 6), 1)}; x[0, 2] = 0; x[1, 1] = 0; x[1, 4] = 0; x[2, 5] = 0; g = {mk((3, 6), 2)}; "
       "y = torch.cumprod(x, 1)")
hand("cumprod_backward", {
    "bwd": (CP, f"{A}.cumprod_backward(g, x, 1, y)", "g, x, y"),
    "bwd_dim0": (f"x = {mk((4, 3), 1, role='nonzero')}; g = {mk((4, 3), 2)}; y = torch.cumprod(x, 0)",
                 f"{A}.cumprod_backward(g, x, 0, y)", "g, x, y"),
    "bwd_zeros": (CPZ, f"{A}.cumprod_backward(g, x, 1, y)", "g, x, y")})
hand("cummaxmin_backward", {
    "bwd": (f"x = {mk((3, 6), 1)}; v, i = torch.cummax(x, 1); g = {mk((3, 6), 2)}",
            f"{A}.cummaxmin_backward(g, x, i, 1)", "g, x"),
    "bwd_cummin_dim0": (f"x = {mk((5, 2), 1)}; v, i = torch.cummin(x, 0); g = {mk((5, 2), 2)}",
                        f"{A}.cummaxmin_backward(g, x, i, 0)", "g, x")})

CONV = f"x = {mk((2, 4, 7, 8), 1)}; w = {mk((6, 2, 3, 2), 2)}; go = {mk((2, 6, 4, 6), 3)}"
CONV_ARGS = "[2, 1], [1, 0], [1, 2], False, [0], 2"
hand("convolution_backward", {
    "bwd": (CONV, f"{A}.convolution_backward(go, x, w, [6], {CONV_ARGS}, [True, True, True])", "go, x, w"),
    "bwd_input_only": (CONV, f"{A}.convolution_backward(go, x, w, [6], {CONV_ARGS}, [True, False, False])",
                       "go, x, w"),
    "bwd_weight_only": (CONV, f"{A}.convolution_backward(go, x, w, None, {CONV_ARGS}, [False, True, False])",
                        "go, x, w"),
    "bwd_1d": (f"x = {mk((2, 4, 9), 1)}; w = {mk((3, 4, 3), 2)}; go = {mk((2, 3, 7), 3)}",
               f"{A}.convolution_backward(go, x, w, [3], [1], [0], [1], False, [0], 1, [True, True, True])",
               "go, x, w")})
# the double backward's own gradients: what a third derivative of a convolution runs
CDB = (f"x = {mk((2, 4, 7, 8), 1)}; w = {mk((6, 2, 3, 2), 2)}; go = {mk((2, 6, 4, 6), 3)}; "
       f"ggi = {mk((2, 4, 7, 8), 4)}; ggw = {mk((6, 2, 3, 2), 5)}; ggb = {mk((6,), 6)}")
hand("_convolution_double_backward", {
    "bwd": (CDB, f"{A}._convolution_double_backward(ggi, ggw, ggb, go, w, x, {CONV_ARGS}, [True, True, True])",
            "ggi, ggw, ggb, go, w, x"),
    "bwd_no_ggb": (CDB, f"{A}._convolution_double_backward(ggi, ggw, None, go, w, x, {CONV_ARGS}, [True, True, False])",
                   "ggi, ggw, go, w, x"),
    # transposed (no output_padding: upstream hands it to the plain convolutions of its gW and gI,
    # whose backward then refuses it, and so does ours)
    "bwd_transposed": (f"x = {mk((2, 4, 5, 6), 1)}; w = {mk((4, 3, 3, 2), 2)}; go = {mk((2, 6, 9, 8), 3)}; "
                       f"ggi = {mk((2, 4, 5, 6), 4)}; ggw = {mk((4, 3, 3, 2), 5)}; ggb = {mk((6,), 6)}",
                       f"{A}._convolution_double_backward(ggi, ggw, ggb, go, w, x, [2, 1], [1, 0], [1, 2], True, [0], 2, "
                       "[True, True, True])", "ggi, ggw, ggb, go, w, x"),
    "bwd_transposed_output_padding": (
        f"x = {mk((2, 4, 5, 6), 1)}; w = {mk((4, 3, 3, 2), 2)}; go = {mk((2, 6, 10, 8), 3)}; "
        f"ggi = {mk((2, 4, 5, 6), 4)}; ggw = {mk((4, 3, 3, 2), 5)}",
        f"{A}._convolution_double_backward(ggi, ggw, None, go, w, x, [2, 1], [1, 0], [1, 2], True, [1, 0], 2, "
        "[True, True, False])", "ggi, ggw, go, w, x")})

hand("native_dropout_backward", {
    "bwd": (f"g = {mk((3, 4), 1)}; m = {MASK}", f"{A}.native_dropout_backward(g, m, 1.25)", "g"),
    "bwd_scale0": (f"g = {mk((3, 4), 1)}; m = {MASK}", f"{A}.native_dropout_backward(g, m, 0.0)", "g")})
# draws after the runner's manual_seed(0): the masks agree bit for bit, so the gradients compare exactly
hand("native_dropout", {
    "bwd": (f"x = {mk((3, 4), 1)}", f"{A}.native_dropout(x, 0.3, True)", "x"),
    "bwd_eval": (f"x = {mk((3, 4), 1)}", f"{A}.native_dropout(x, 0.3, False)", "x"),
    "bwd_train_none": (f"x = {mk((3, 4), 1)}", f"{A}.native_dropout(x, 0.3, None)", "x"),
    "bwd_p1": (f"x = {mk((3, 4), 1)}", f"{A}.native_dropout(x, 1.0, True)", "x"),
    "bwd_t": (f"x = {mk((3, 4), 1, layout='t')}", f"{A}.native_dropout(x, 0.5, True)", "x")}, tol="exact")
hand("masked_scatter_backward", {
    "bwd": (f"g = {mk((3, 4), 1)}; m = {MASK}", f"{A}.masked_scatter_backward(g, m, [4, 5])", "g"),
    "bwd_bcast_mask": (f"g = {mk((3, 4), 1)}; m = make((4,), torch.bool, seed=3, role='mask')",
                       f"{A}.masked_scatter_backward(g, m, [12])", "g")})

for fn in ("outer", "ger"):
    hand(fn, {"bwd": (f"a = {mk((3,), 1)}; b = {mk((4,), 2)}", f"{A}.{fn}(a, b)", "a, b"),
              "bwd_slice": (f"a = {mk((3,), 1)}; b = {mk((4,), 2, layout='slice')}", f"{A}.{fn}(a, b)", "a, b")})
for fn in ("polygamma", "special_polygamma"):
    hand(fn, {"bwd": (f"x = {mk((3, 4), 1, role='pos')}", f"{A}.{fn}(1, x)", "x"),
              "bwd_n0": (f"x = {mk((3, 4), 1, role='pos')}", f"{A}.{fn}(0, x)", "x"),
              "bwd_n3": (f"x = {mk((3, 4), 1, role='pos')}", f"{A}.{fn}(3, x)", "x")})

SRC = f"x = {mk((5, 3), 1)}; src = {mk((4, 3), 2)}; i = {IDX}"
hand("index_add", {
    "bwd": (SRC, f"{A}.index_add(x, 0, i, src)", "x, src"),
    "bwd_alpha": (SRC, f"{A}.index_add(x, 0, i, src, alpha=2)", "x, src"),
    "bwd_dim1_t": (f"x = {mk((3, 5), 1, layout='t')}; src = {mk((3, 4), 2, layout='t')}; i = {IDX}",
                   f"{A}.index_add(x, 1, i, src)", "x, src")})
hand("masked_scatter", {
    "bwd": (f"x = {mk((3, 4), 1)}; m = {MASK}; src = {mk((12,), 2)}", f"{A}.masked_scatter(x, m, src)", "x, src"),
    "bwd_bcast_mask": (f"x = {mk((3, 4), 1)}; m = make((4,), torch.bool, seed=3, role='mask'); src = {mk((3, 5), 2)}",
                       f"{A}.masked_scatter(x, m, src)", "x, src"),
    "bwd_bcast_self": (f"x = {mk((4,), 1)}; m = {MASK}; src = {mk((20,), 2)}", f"{A}.masked_scatter(x, m, src)",
                       "x, src")})
SELF = f"x = {mk((4, 5), 1)}"
hand("slice_scatter", {
    "bwd": (SELF + f"; src = {mk((4, 2), 2)}", f"{A}.slice_scatter(x, src, 1, 1, 5, 2)", "x, src"),
    "bwd_defaults": (SELF + f"; src = {mk((4, 5), 2)}", f"{A}.slice_scatter(x, src)", "x, src"),
    "bwd_t": (f"x = {mk((4, 5), 1, layout='t')}; src = {mk((2, 5), 2)}", f"{A}.slice_scatter(x, src, 0, 2)", "x, src")})
hand("select_scatter", {
    "bwd": (SELF + f"; src = {mk((5,), 2)}", f"{A}.select_scatter(x, src, 0, 2)", "x, src"),
    "bwd_dim1": (SELF + f"; src = {mk((4,), 2)}", f"{A}.select_scatter(x, src, 1, -1)", "x, src")})
hand("diagonal_scatter", {
    "bwd": (SELF + f"; src = {mk((4,), 2)}", f"{A}.diagonal_scatter(x, src, 1)", "x, src"),
    "bwd_negative": (SELF + f"; src = {mk((3,), 2)}", f"{A}.diagonal_scatter(x, src, -1)", "x, src")})
hand("as_strided_scatter", {
    "bwd": (SELF + f"; src = {mk((2, 2), 2)}", f"{A}.as_strided_scatter(x, src, [2, 2], [5, 2], 1)", "x, src"),
    "bwd_flat": (SELF + f"; src = {mk((3,), 2)}", f"{A}.as_strided_scatter(x, src, [3], [6])", "x, src")})
# igamma, igammac and zeta differentiate only in their second argument (the first refuses
# upstream, not_implemented): gradients with only `other` requiring grad
for fn in ("igamma", "igammac", "special_zeta"):
    a_role = "gt1" if fn == "special_zeta" else "pos"
    hand(fn, {"bwd_other": (f"a = {mk((3, 4), 1, role=a_role)}; x = {mk((3, 4), 2, role='pos')}", f"{A}.{fn}(a, x)", "x"),
              "bwd_other_f64": (f"a = {mk((3, 4), 1, dt='float64', role=a_role)}; x = {mk((3, 4), 2, dt='float64', role='pos')}",
                                f"{A}.{fn}(a, x)", "x"),
              "bwd_other_bcast": (f"a = {mk((4,), 1, role=a_role)}; x = {mk((3, 1), 2, role='pos')}", f"{A}.{fn}(a, x)", "x")})
hand("special_zeta.other_scalar", {"bwd_refused": (f"a = {mk((3, 4), 1, role='gt1')}", f"{A}.special_zeta.other_scalar(a, 2.0)", "a")})
# rrelu_with_noise: training multiplies the gradient by the drawn noise, eval by leaky_relu's slope
NOISE = "n = torch.empty(3, 4, dtype=torch.{dt})"
hand("rrelu_with_noise", {"bwd": (f"x = {mk((3, 4), 1)}; {NOISE}", f"{A}.rrelu_with_noise(x, n, 0.1, 0.3, True)", "x"),
                          "bwd_eval": (f"x = {mk((3, 4), 1)}; {NOISE}", f"{A}.rrelu_with_noise(x, n, 0.1, 0.3, False)", "x"),
                          "bwd_t": (f"x = {mk((4, 3), 1, layout='t')}; n = torch.empty(4, 3)", f"{A}.rrelu_with_noise(x, n, 0.2, 0.5, True)", "x"),
                          "bwd_shape": (f"x = {mk((3, 4), 1)}; n = torch.empty(4, 3)", f"{A}.rrelu_with_noise(x, n, 0.2, 0.5, True)", "x")})

# pooling and upsampling gradients (ops/pool.c), differentiated again: with respect to grad_output
# (the forward op of the gradient) and self (no gradient: zeros, as upstream's formulas say)
PX = mk((2, 3, 7, 8), 1)
hand("_adaptive_avg_pool2d_backward", {
    "bwd": (f"x = {PX}; g = {mk((2, 3, 3, 5), 2)}", f"{A}._adaptive_avg_pool2d_backward(g, x)", "g, x"),
    "bwd_cl": (f"x = {mk((2, 5, 9, 11), 1)}.contiguous(memory_format=torch.channels_last); "
               f"g = {mk((2, 5, 4, 3), 2)}.contiguous(memory_format=torch.channels_last)",
               f"{A}._adaptive_avg_pool2d_backward(g, x)", "g, x")})
hand("avg_pool2d_backward", {
    "bwd": (f"x = {PX}; g = {mk((2, 3, 4, 9), 2)}",
            f"{A}.avg_pool2d_backward(g, x, [3, 2], [2, 1], [1, 1], True, False, None)", "g, x"),
    "bwd_divisor": (f"x = {PX}; g = {mk((2, 3, 6, 4), 2)}",
                    f"{A}.avg_pool2d_backward(g, x, [2, 3], [1, 2], [0, 1], False, True, 5)", "g, x")})
MPI = f"x = {PX}; g = {mk((2, 3, 3, 9), 2)}; _, i = {A}.max_pool2d_with_indices(x, [3, 2], [2, 1], [1, 1], [2, 1], True)"
hand("max_pool2d_with_indices_backward", {
    "bwd": (MPI, f"{A}.max_pool2d_with_indices_backward(g, x, [3, 2], [2, 1], [1, 1], [2, 1], True, i)", "g, x")})
hand("upsample_nearest2d_backward", {
    "bwd": (f"g = {mk((2, 3, 7, 9), 1)}", f"{A}.upsample_nearest2d_backward(g, [7, 9], [2, 3, 5, 4])", "g"),
    "bwd_scales": (f"g = {mk((2, 3, 8, 7), 1)}", f"{A}.upsample_nearest2d_backward(g, [8, 7], [2, 3, 5, 4], 1.7, 1.9)",
                   "g")})
hand("upsample_bilinear2d_backward", {
    "bwd": (f"g = {mk((2, 3, 7, 9), 1)}", f"{A}.upsample_bilinear2d_backward(g, [7, 9], [2, 3, 5, 4], False)", "g"),
    "bwd_align_scales": (f"g = {mk((2, 3, 8, 7), 1)}",
                         f"{A}.upsample_bilinear2d_backward(g, [8, 7], [2, 3, 5, 4], True, 1.7, 1.9)", "g"),
    "bwd_cl": (f"g = {mk((1, 19, 8, 7), 1)}.contiguous(memory_format=torch.channels_last)",
               f"{A}.upsample_bilinear2d_backward(g, [8, 7], [1, 19, 5, 4], False)", "g")})

# ---- complex: Wirtinger gradients (Note [Complex autograd] in runtime/autograd.c) -----------------
# Every node kind schemas/autograd_complex.yaml lists as verified has cases here with complex inputs
# or outputs; the cotangent of a complex output has an imaginary part (runner.cotangent), so a
# dropped conjugation changes the answer. Each variant runs in complex128/float64 (bwd_complex) and,
# where the op computes in single precision too, complex64/float32 (bwd_complex64). {c} is the
# variant's complex dtype, {f} its real one.


def Z(shape, seed, dt="{c}", **kw) -> str:
    return mk(shape, seed, dt, **kw)


def X(shape, seed, dt="{f}", **kw) -> str:
    return mk(shape, seed, dt, **kw)


def cplx(overload: str, variants: dict, single: bool = True) -> None:
    """variant name -> (setup, call, inputs that require grad), {c}/{f} filled per precision"""
    precisions = [("complex128", "float64", "")] + ([("complex64", "float32", "64")] if single else [])
    for name, (setup, call, grads) in variants.items():
        for c, f, suffix in precisions:
            code = f"{setup}; requires_grad({grads}); r = {call}; out = vjp(r, [{grads}])"
            CASES[f"{overload}/bwd_complex{suffix}{name}"] = {
                "code": code.replace("{c}", c).replace("{f}", f), "tol": "derived"}


Z34, W34, X34 = f"z = {Z((3, 4), 1)}", f"w = {Z((3, 4), 2)}", f"x = {X((3, 4), 3)}"
cplx("_conj", {"": (Z34, f"{A}._conj(z)", "z"),
               "_method": (Z34, "z.conj()", "z"),
               "_then_mul": (f"{Z34}; {W34}", "z.conj() * w", "z, w"),
               "_twice": (Z34, "z.conj().conj() * 2", "z")})
cplx("_conj_physical", {"": (Z34, f"{A}._conj_physical(z)", "z"),
                        "_of_conj": (Z34, f"{A}._conj_physical(z.conj())", "z")})
cplx("_neg_view", {"": (Z34, f"{A}._neg_view(z)", "z"),
                   "_real": (X34, f"{A}._neg_view(x)", "x")})
cplx("view_as_real", {"": (Z34, "torch.view_as_real(z)", "z"),
                      "_times_real": (f"{Z34}; x = {X((3, 4, 2), 3)}", "torch.view_as_real(z) * x", "z, x"),
                      "_of_conj": (Z34, "torch.view_as_real(z.conj().resolve_conj())", "z"),
                      "_real_imag": (Z34, "(z.real, z.imag, z.conj().imag)", "z")})
cplx("view_as_complex", {"": (f"x = {X((3, 4, 2), 1)}", "torch.view_as_complex(x)", "x"),
                         "_round_trip": (f"x = {X((3, 2), 1)}; w = {Z((3,), 2)}",
                                         "torch.view_as_real(torch.view_as_complex(x) * w)", "x, w")})
# real / imag of a complex tensor: view_as_real and select (ops/compositions.c, as ATen's C++);
# of a conjugated one through _conj, imag then through _neg_view
cplx("imag", {"": (Z34, "torch.imag(z)", "z"),
              "_of_conj": (Z34, "z.conj().imag * 3", "z"),
              "_of_neg_view": (Z34, f"{A}._neg_view(z).imag", "z")})
cplx("real", {"": (Z34, "torch.real(z)", "z"),
              "_of_conj": (Z34, "z.conj().real * 3", "z")})
cplx("complex", {"": (f"a = {X((3, 4), 1)}; b = {X((3, 4), 2)}", "torch.complex(a, b)", "a, b"),
                 "_bcast": (f"a = {X((3, 1), 1)}; b = {X((4,), 2)}", "torch.complex(a, b)", "a, b")})
cplx("polar", {"": (f"a = {X((3, 4), 1, role='pos')}; t = {X((3, 4), 2)}", "torch.polar(a, t)", "a, t"),
               "_zero_abs": (f"a = {X((3, 4), 1, role='pos')} * (torch.arange(12).reshape(3, 4) % 3 != 0); "
                             f"t = {X((3, 4), 2)}", "torch.polar(a, t)", "a, t"),
               "_bcast": (f"a = {X((3, 1), 1, role='pos')}; t = {X((4,), 2)}", "torch.polar(a, t)", "a, t")})
X35 = f"x = {X((3, 5), 1)}"
cplx("_fft_r2c", {"": (X35, f"{A}._fft_r2c(x, [1], 0, True)", "x"),
                  "_two_sided": (X35, f"{A}._fft_r2c(x, [1], 1, False)", "x"),
                  "_even": (f"x = {X((3, 6), 1)}", f"{A}._fft_r2c(x, [1], 2, True)", "x"),
                  "_multi": (f"x = {X((2, 3, 4), 1)}", f"{A}._fft_r2c(x, [0, 2], 0, True)", "x"),
                  "_rfft": (f"x = {X((2, 7), 1)}", "torch.fft.rfft(x)", "x"),
                  "_fft_of_real": (X35, "torch.fft.fft(x, norm='ortho')", "x")})
cplx("_fft_c2c", {"": (f"z = {Z((3, 5), 1)}", f"{A}._fft_c2c(z, [1], 0, True)", "z"),
                  "_inverse": (f"z = {Z((3, 5), 1)}", f"{A}._fft_c2c(z, [1], 2, False)", "z"),
                  "_multi": (f"z = {Z((2, 3, 4), 1)}", f"{A}._fft_c2c(z, [0, 2], 1, True)", "z"),
                  "_fft2": (f"z = {Z((3, 4), 1)}", "torch.fft.fft2(z)", "z"),
                  "_ifft": (f"z = {Z((2, 6), 1)}", "torch.fft.ifft(z)", "z")})
cplx("_fft_c2r", {"": (f"z = {Z((3, 5), 1)}", f"{A}._fft_c2r(z, [1], 0, 8)", "z"),
                  "_odd": (f"z = {Z((3, 5), 1)}", f"{A}._fft_c2r(z, [1], 2, 9)", "z"),
                  "_multi": (f"z = {Z((2, 3, 4), 1)}", f"{A}._fft_c2r(z, [0, 2], 1, 6)", "z"),
                  "_irfft": (f"z = {Z((2, 4), 1)}", "torch.fft.irfft(z)", "z")})
# arithmetic: complex with complex, and with real inputs (handle_r_to_c: a real input keeps the real
# part of its complex gradient)
ZW = f"{Z34}; {W34}"
ZX = f"{Z34}; {X34}"
cplx("add.Tensor", {"": (ZW, "torch.add(z, w, alpha=2)", "z, w"),
                    "_complex_alpha": (ZW, "torch.add(z, w, alpha=0.5 - 2j)", "z, w"),
                    "_real_other": (ZX, "z + x", "z, x"),
                    "_real_self_bcast": (f"x = {X((4,), 3)}; {Z34}", "x + z", "x, z")})
cplx("add.Scalar", {"": (Z34, f"{A}.add.Scalar(z, 1 - 1j)", "z")})
cplx("sub.Tensor", {"": (ZW, "torch.sub(z, w, alpha=1.5 + 1j)", "z, w"),
                    "_real_other": (ZX, "z - x", "z, x")})
cplx("sub.Scalar", {"": (Z34, f"{A}.sub.Scalar(z, 2 + 1j)", "z")})
cplx("mul.Tensor", {"": (ZW, "z * w", "z, w"),
                    "_real_other": (ZX, "z * x", "z, x"),
                    "_bcast": (f"{Z34}; w = {Z((4,), 2)}", "z * w", "z, w"),
                    "_square": (Z34, "z * z", "z")})
cplx("mul.Scalar", {"": (Z34, f"{A}.mul.Scalar(z, 0.5 - 2j)", "z"),
                    "_real_scalar": (Z34, f"{A}.mul.Scalar(z, 3)", "z")})
cplx("div.Tensor", {"": (f"{Z34}; w = {Z((3, 4), 2, role='nonzero')}", "z / w", "z, w"),
                    "_real_other": (f"{Z34}; x = {X((3, 4), 3, role='nonzero')}", "z / x", "z, x"),
                    "_real_self": (f"x = {X((3, 4), 3)}; w = {Z((3, 4), 2, role='nonzero')}", "x / w", "x, w")})
cplx("div.Scalar", {"": (Z34, f"{A}.div.Scalar(z, 2 - 0.5j)", "z")})
cplx("neg", {"": (Z34, "-z", "z")})
cplx("sum", {"": (Z34, "z.sum()", "z")})
cplx("sum.dim_IntList", {"": (f"z = {Z((2, 3, 4), 1)}", "z.sum(1)", "z"),
                         "_keepdim": (f"z = {Z((2, 3, 4), 1)}", "z.sum((0, 2), keepdim=True)", "z")})
cplx("mean", {"": (Z34, "z.mean()", "z")})
cplx("mean.dim", {"": (f"z = {Z((2, 3, 4), 1)}", "z.mean(-1)", "z")})
cplx("clone", {"": (Z34, "z.clone()", "z")})
cplx("view", {"": (Z34, "z.view(2, 6)", "z")})
cplx("_unsafe_view", {"": (Z34, f"{A}._unsafe_view(z, [12])", "z")})
cplx("transpose.int", {"": (Z34, "z.transpose(0, 1)", "z")})
cplx("t", {"": (Z34, "z.t()", "z")})
cplx("permute", {"": (f"z = {Z((2, 3, 4), 1)}", "z.permute(2, 0, 1)", "z")})
cplx("expand", {"": (f"z = {Z((3, 1), 1)}", "z.expand(3, 4)", "z")})
cplx("select.int", {"": (Z34, "z[1]", "z")})
cplx("slice.Tensor", {"": (Z34, "z[:, 1:3]", "z")})
cplx("unsqueeze", {"": (Z34, "z.unsqueeze(1)", "z")})
cplx("reshape", {"": (Z34, "z.t().reshape(12)", "z"), "_view": (Z34, "z.reshape(2, 6)", "z")})
cplx("squeeze", {"": (f"z = {Z((1, 3, 1), 1)}", "z.squeeze()", "z")})
cplx("squeeze.dim", {"": (f"z = {Z((3, 1), 1)}", "z.squeeze(1)", "z")})
cplx("squeeze.dims", {"": (f"z = {Z((1, 3, 1), 1)}", "z.squeeze((0, 2))", "z")})
cplx("unbind.int", {"": (Z34, "z.unbind(1)", "z")})
cplx("cat", {"": (ZW, "torch.cat([z, w], 1)", "z, w"),
             "_real_input": (ZX, "torch.cat([z, x])", "z, x")})
cplx("stack", {"": (ZW, "torch.stack([z, w])", "z, w"),
               "_real_input": (ZX, "torch.stack([x, z], 1)", "x, z")})
cplx("split.Tensor", {"": (Z34, "z.split(3, 1)", "z")})
cplx("split_with_sizes", {"": (Z34, "z.split([1, 3], 1)", "z")})
cplx("flip", {"": (Z34, "z.flip(0, 1)", "z")})
cplx("roll", {"": (Z34, "z.roll((1, -1), (0, 1))", "z")})
cplx("constant_pad_nd", {"": (Z34, "torch.nn.functional.pad(z, (1, 2, 0, 1))", "z"),
                         "_crop": (Z34, "torch.nn.functional.pad(z, (-1, 0, 1, -1))", "z")})
# double backward through the FFT adjoints (their ops record when create_graph)
cplx("_fft_r2c", {"_double": (f"x = {X((2, 5), 1)}",
                              "torch.autograd.grad(torch.view_as_real(torch.fft.rfft(x) * torch.fft.rfft(x)).sum(), x, "
                              "create_graph=True)[0]",
                              "x")}, single=False)
cplx("_to_copy", {"": (X34, "x.to(torch.{c})", "x"),
                  "_widen": (f"z = {Z((3, 4), 1, dt='complex64')}", "z.to(torch.complex128)", "z")}, single=False)
