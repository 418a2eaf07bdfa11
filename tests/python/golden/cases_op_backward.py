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
"""
import re
from pathlib import Path

import cases_op_compose
import cases_op_conv
import cases_op_index
import cases_op_matmul
import cases_op_pointwise
import cases_op_reduce
import cases_op_view
from spell import Op, Render, aten_expr, dtypes_of

ROOT = Path(__file__).resolve().parents[3]
TABLE = ROOT / "generated" / "autograd_table.c"


def recorded_overloads() -> set[str]:
    """cnames of overloads the door differentiates (a recorder or a C composition)."""
    text = TABLE.read_text()
    names = set(re.findall(r"\{TN_OP_(\w+), TN_AG_RECORD,", text))
    names |= set(re.findall(r"\{TN_OP_(\w+), TN_AG_CIA, tn_compose_", text))
    return names


def c_ident(overload: str) -> str:
    base, _, ov = overload.partition(".")
    return f"{base}__{ov}" if ov else base


RECORDED = recorded_overloads()
FLOATS = ("float32", "float64")


def backward_code(op: Op, dtype: str, args=None, kw=None, layout="contig") -> str:
    r = Render(dtype, layout)
    pos, kws = r.call(op.args if args is None else args, op.kw if kw is None else kw)
    names = [b.split(" = ")[0] for b in r.bindings]
    lines = list(r.bindings)
    lines.append(f"requires_grad({', '.join(names)})" if names else "pass")
    lines.append(f"r = {aten_expr(op.overload, pos + kws)}")
    lines.append(f"out = vjp(r, [{', '.join(names)}])")
    return "; ".join(lines)


CASES = {}
for mod in (cases_op_compose, cases_op_conv, cases_op_index, cases_op_matmul, cases_op_pointwise, cases_op_reduce,
            cases_op_view):
    for op in mod.OPS:
        if c_ident(op.overload) not in RECORDED or op.overload.split(".")[0].endswith("_"):
            continue
        claimed = [d for d in dtypes_of(op) if d in FLOATS]
        if "float32" not in claimed:
            continue
        key = f"{op.overload}/bwd"
        if key in CASES:
            continue
        CASES[key] = {"code": backward_code(op, "float32"), "tol": "derived"}
        if "float64" in claimed:
            CASES[f"{op.overload}/bwd_f64"] = {"code": backward_code(op, "float64"), "tol": "derived"}
        if any(getattr(a, "shape", None) and len(a.shape) >= 2 for a in op.args):
            # a forward spec that lists its layouts without "t" excludes transposed inputs for a
            # reason (upstream's flash attention reads q/k/v as if their last stride were 1): the
            # backward takes the layouts the spec lists instead
            noncontig = op.layouts if isinstance(op.layouts, tuple) and "t" not in op.layouts else ("t",)
            for lay in noncontig:
                CASES[f"{op.overload}/bwd_{lay}"] = {"code": backward_code(op, "float32", layout=lay), "tol": "derived"}
        for name, (args, kw) in op.extra.items():
            CASES[f"{op.overload}/bwd_{name}"] = {"code": backward_code(op, "float32", args, kw), "tol": "derived"}

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
