"""torch.autograd.Function on torchnative's C _FunctionBase (runtime/autograd_function.c, Note
[Custom Function nodes]): save_for_backward / saved_tensors, mark_dirty (with and without a view
of the input), mark_non_differentiable, set_materialize_grads, needs_input_grad,
once_differentiable, setup_context, non-tensor inputs and outputs, inputs returned as they are,
and upstream's errors (wrong gradient counts, a saved tensor modified in place, mark_dirty on a
leaf, backward twice). Gradients are compared under the derived tolerance; names, flags and
versions exactly.
"""

PRELUDE = '''
from torch.autograd import Function
from torch.autograd.function import once_differentiable
seen = []

class MulConst(Function):
    @staticmethod
    def forward(ctx, x, c):
        ctx.c = c
        ctx.save_for_backward(x)
        return x * c
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        seen.append(ctx.needs_input_grad)
        return g * ctx.c + x * 0, None

class ExpOut(Function):
    @staticmethod
    def forward(ctx, x):
        r = x.exp()
        ctx.save_for_backward(r)
        return r
    @staticmethod
    def backward(ctx, g):
        r, = ctx.saved_tensors
        return g * r

class MulAddInplace(Function):
    """x.mul_(2).add_(y) in place, marked dirty; saves y"""
    @staticmethod
    def forward(ctx, x, y):
        x.mul_(2).add_(y * y)
        ctx.mark_dirty(x)
        ctx.save_for_backward(y)
        return x
    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * 2, g * 2 * y

class SortVals(Function):
    @staticmethod
    def forward(ctx, x):
        v, i = x.sort()
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(i)
        ctx.n = x.shape[-1]
        return v, i
    @staticmethod
    def backward(ctx, gv, gi):
        i, = ctx.saved_tensors
        seen.append(gi is None)
        return torch.zeros_like(gv).scatter(-1, i, gv)

class TwoOut(Function):
    @staticmethod
    def forward(ctx, x, materialize):
        ctx.set_materialize_grads(materialize)
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, ga, gb):
        seen.append((ga is None, gb is None))
        r = 0
        if ga is not None:
            r = r + ga * 2
        if gb is not None:
            r = r + gb * 3
        return r, None

class Once(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sin()
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x.cos()

class WithExtras(Function):
    @staticmethod
    def forward(ctx, a, k, b, name):
        ctx.k = k
        return a * b + k, k + 1, name
    @staticmethod
    def backward(ctx, g, gk, gname):
        seen.append((gk is None, gname is None))
        return g, None, g * 2, None, None, None

class SetupCtx(Function):
    @staticmethod
    def forward(x, w):
        return x @ w
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, w = inputs
        ctx.save_for_backward(x, w)
    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        return g @ w.t(), x.t() @ g

class Ident(Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 5

class BadCount(Function):
    @staticmethod
    def forward(ctx, x, y):
        return x + y
    @staticmethod
    def backward(ctx, g):
        return g

class BadNonTensor(Function):
    @staticmethod
    def forward(ctx, x, k):
        return x * k
    @staticmethod
    def backward(ctx, g):
        return g, g

class ScaleView(Function):
    """scales a view of a non-leaf in place (CopySlices holds the Function's node)"""
    @staticmethod
    def forward(ctx, v):
        v.mul_(3)
        ctx.mark_dirty(v)
        return v
    @staticmethod
    def backward(ctx, g):
        return g * 3
'''


def case(code: str, tol: str = "derived") -> dict:
    return {"code": PRELUDE + code, "tol": tol}


CASES = {
    "save_for_backward_input": case(
        "x = randn(3, 4); requires_grad(x); y = MulConst.apply(x, 2.5)\n"
        "out = (y, vjp(y, [x]), y.grad_fn.name(), type(y.grad_fn).__name__, seen[0], y.is_leaf)"),
    "needs_input_grad_two_tensors": case(
        "x = randn(3); w = randn(3, seed=1); requires_grad(x); y = MulConst.apply(x, w)\n"
        "g = vjp(y, [x]); out = (g, seen[0], MulConst.apply(w, w).requires_grad)"),
    "save_output": case(
        "x = randn(5); requires_grad(x); y = ExpOut.apply(x); out = (y, vjp(y, [x]), y.grad_fn.name())"),
    "save_output_double_backward": case(
        "x = randn(5); requires_grad(x); y = ExpOut.apply(x * 1)\n"
        "g, = torch.autograd.grad(y.sum(), x, create_graph=True); out = (g, vjp(g, [x]))"),
    "mark_dirty_save_for_backward": case(
        "a = randn(4, 3); y = randn(4, 3, seed=1); requires_grad(a, y); x = a * 1; v0 = x._version\n"
        "r = MulAddInplace.apply(x, y)\n"
        "out = (r, r is x, x._version - v0, x.grad_fn.name(), vjp(r, [a, y]))"),
    "mark_dirty_then_modified_saved": case(
        "a = randn(3); y = randn(3, seed=1); requires_grad(a, y); x = a * 1; r = MulAddInplace.apply(x, y)\n"
        "with torch.no_grad():\n    y.add_(1)\nr.sum().backward()", "exact"),
    "mark_dirty_leaf_error": case(
        "x = randn(3); y = randn(3, seed=1); requires_grad(x, y); MulAddInplace.apply(x, y)", "exact"),
    "mark_dirty_leaf_no_grad_ok": case(
        "x = randn(3); y = randn(3, seed=1); requires_grad(y); r = MulAddInplace.apply(x, y)\n"
        "out = (r, x.grad_fn.name(), x.requires_grad, vjp(r, [y]))"),
    "mark_dirty_view_copyslices": case(
        "a = randn(4, 3); requires_grad(a); b = a * 1; v = b[1:3]; r = ScaleView.apply(v)\n"
        "out = (b, vjp(b, [a]), b.grad_fn.name(), r.grad_fn.name())"),
    "mark_non_differentiable": case(
        "x = randn(3, 5); requires_grad(x); v, i = SortVals.apply(x)\n"
        "out = (v, i, v.requires_grad, i.requires_grad, vjp(v, [x]), seen)"),
    "materialize_grads_default": case(
        "x = randn(4); requires_grad(x); a, b = TwoOut.apply(x, True); g, = torch.autograd.grad(a.sum(), x)\n"
        "out = (g, seen)"),
    "materialize_grads_false": case(
        "x = randn(4); requires_grad(x); a, b = TwoOut.apply(x, False); g, = torch.autograd.grad(b.sum(), x)\n"
        "out = (g, seen)"),
    "once_differentiable_first_order": case(
        "x = randn(4); requires_grad(x); y = Once.apply(x); out = (y, vjp(y, [x]))"),
    "once_differentiable_double_backward_error": case(
        "x = randn(4); gy = randn(4, seed=1); requires_grad(x, gy); y = Once.apply(x)\n"
        "g, = torch.autograd.grad(y, x, gy, create_graph=True); g.sum().backward()", "exact"),
    "once_differentiable_grad_fn": case(
        "x = randn(4); gy = randn(4, seed=1); requires_grad(x, gy); y = Once.apply(x)\n"
        "g, = torch.autograd.grad(y, x, gy, create_graph=True)\n"
        "out = (g, g.requires_grad, g.grad_fn.name(), g.grad_fn.next_functions[0][0].name())"),
    "once_differentiable_no_grad_outputs": case(
        "x = randn(4); requires_grad(x); y = Once.apply(x)\n"
        "g, = torch.autograd.grad(y.sum(), x, create_graph=True); out = (g, g.requires_grad, g.grad_fn)"),
    "non_tensor_inputs_and_outputs": case(
        "a = randn(3); b = randn(3, seed=1); requires_grad(a, b); r, k, s = WithExtras.apply(a, 2, b, 'n')\n"
        "out = (r, k, s, vjp(r, [a, b]), seen)"),
    "setup_context": case(
        "x = randn(2, 3); w = randn(3, 4, seed=1); requires_grad(x, w); y = SetupCtx.apply(x, w)\n"
        "out = (y, vjp(y, [x, w]), y.grad_fn.name())"),
    "input_returned_as_is": case(
        "x = randn(3); requires_grad(x); y = Ident.apply(x)\n"
        "out = (y is x, y._is_view(), y.grad_fn.name(), vjp(y, [x]))"),
    "input_returned_as_is_inplace_error": case(
        "x = randn(3); requires_grad(x); y = Ident.apply(x * 1); y.add_(1)", "exact"),
    "next_functions": case(
        "x = randn(3); requires_grad(x); y = MulConst.apply(x.exp(), 2.0)\n"
        "nf = y.grad_fn.next_functions\n"
        "out = (len(nf), nf[0][0].name(), nf[0][1], nf[0][0].next_functions[0][0].name())", "exact"),
    "wrong_gradient_count": case(
        "x = randn(3); y = randn(3, seed=1); requires_grad(x, y); BadCount.apply(x, y).sum().backward()", "exact"),
    "gradient_for_non_tensor_input": case(
        "x = randn(3); requires_grad(x); BadNonTensor.apply(x, 2).sum().backward()", "exact"),
    "saved_input_modified_inplace": case(
        "x = randn(3); requires_grad(x); x2 = x * 1; y = MulConst.apply(x2, 2.0); x2.add_(1)\n"
        "y.sum().backward()", "exact"),
    "backward_twice": case(
        "x = randn(3); requires_grad(x); y = MulConst.apply(x * 1, 2.0); y.sum().backward(); y.sum().backward()",
        "exact"),
    "no_grad_forward": case(
        "x = randn(3); requires_grad(x)\nwith torch.no_grad():\n    y = MulConst.apply(x, 3.0)\n"
        "out = (y, y.requires_grad, y.grad_fn)", "exact"),
    "no_input_requires_grad": case(
        "x = randn(3); y = ExpOut.apply(x); out = (y, y.requires_grad, y.grad_fn)"),
    "grad_mode_off_inside_forward": case(
        "class G(Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x):\n"
        "        seen.append(torch.is_grad_enabled()); return x * 2\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        seen.append(torch.is_grad_enabled()); return g * 2\n"
        "x = randn(2); requires_grad(x); G.apply(x).sum().backward(); out = (x.grad, seen)"),
}
