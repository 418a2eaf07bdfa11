"""In-place ops on views while autograd records (Note [View + in-place] in runtime/autograd.c):
the base's grad_fn becomes CopySlices, the view's AsStridedBackward0, gradients flow through the
written slice; and upstream's errors for the forbidden cases (views of leaves that require grad,
multi-output views, views made in no_grad mode).
"""
D = {"tol": "derived"}


def case(code: str, tol: str = "derived") -> dict:
    return {"code": code, "tol": tol}


CASES = {
    # x[idx] = y on a tensor that needs no grad: x gets y's history through CopySlices
    "setitem_slice_leaf_no_grad": case(
        "x = randn(5, 3); y = randn(2, 3, seed=1); requires_grad(y); x[1:3] = y; r = x * randn(5, 3, seed=2)\n"
        "out = (vjp(r, [y]), x.grad_fn.name(), x.requires_grad, x.is_leaf)"),
    "setitem_select_nonleaf": case(
        "a = randn(4, 3); y = randn(3, seed=1); requires_grad(a, y); b = a.exp(); b[2] = y * 2\n"
        "out = (vjp(b, [a, y]), b.grad_fn.name())"),
    "setitem_scalar_nonleaf": case(
        "a = randn(4, 3); requires_grad(a); b = a * 3; b[1:, 0] = 5.0; out = vjp(b, [a])"),
    "setitem_advanced_on_view": case(
        "a = randn(5, 3); y = randn(2, 3, seed=1); requires_grad(a, y); b = a.sin(); b[1:][torch.tensor([0, 2])] = y\n"
        "out = vjp(b, [a, y])"),
    # narrow(...).add_(...): the written slice's gradient goes through add's node
    "narrow_add_nonleaf": case(
        "a = randn(4, 5); c = randn(4, 3, seed=1); requires_grad(a, c); b = a * 2; b.narrow(1, 1, 3).add_(c, alpha=0.5)\n"
        "out = vjp(b, [a, c])"),
    "narrow_mul_self_read": case(
        "a = randn(4, 5); w = randn(3, seed=1); requires_grad(a, w); b = a.tanh(); b.narrow(1, 2, 3).mul_(w)\n"
        "out = vjp(b.sum(0), [a, w])"),
    "transpose_row_mul_": case(
        "a = randn(3, 4); requires_grad(a); b = a + 1; v = b.t(); v[1].mul_(v[2])\n"
        "out = (vjp(b, [a]), v.grad_fn.name())"),
    # the view written is used afterwards: its grad_fn is regenerated (AsStridedBackward0)
    "view_used_after_write": case(
        "a = randn(4, 6); requires_grad(a); b = a.exp(); v = b[:, 1:4]; v.div_(3.0); r = v.pow(2)\n"
        "out = (vjp(r, [a]), v.grad_fn.name(), b.grad_fn.name())"),
    "view_chain_write": case(
        "a = randn(2, 3, 4); requires_grad(a); b = a * 1.5; v = b.permute(2, 0, 1)[1:3].select(1, 0); v.sub_(b[0, :2, 1:3].t())\n"
        "out = vjp(b, [a])"),
    # another view of the same base made before the write sees it (lazy regeneration)
    "other_view_sees_write": case(
        "a = randn(3, 4); requires_grad(a); b = a * 1; v1 = b[0]; v2 = b[0:1]; v2.mul_(2.0)\n"
        "out = (vjp(v1, [a]), v1.grad_fn.name())"),
    "base_used_after_two_writes": case(
        "a = randn(4, 4); y = randn(2, seed=1); requires_grad(a, y); b = a.clone(); b[0, :2] = y; b[:, 3].mul_(a[:, 0])\n"
        "out = vjp(b.sum(1), [a, y])"),
    "copy_into_view_of_zeros": case(
        "y = randn(4, seed=1); requires_grad(y); x = torch.zeros(4, 3); x[:, 1].copy_(y.exp())\n"
        "out = (vjp(x, [y]), x.grad_fn.name())"),
    "inplace_on_view_float64": case(
        "a = randn(3, 5, dtype=torch.float64); requires_grad(a); b = a.sigmoid(); b[1:, ::2].mul_(b[:2, 1::2])\n"
        "out = vjp(b, [a])"),
    "masked_fill_on_view": case(
        "a = randn(4, 4); requires_grad(a); b = a * a; b[1:3].masked_fill_(b[1:3] > 0.5, 0.0); out = vjp(b, [a])"),
    "double_write_same_view": case(
        "a = randn(5); requires_grad(a); b = a.exp(); v = b[1:4]; v.mul_(2); v.add_(v.clone()); out = vjp(b, [a])"),
    "retain_graph_twice": case(
        "a = randn(3, 3); requires_grad(a); b = a * 2; b[0].mul_(3); g1 = torch.autograd.grad(b.sum(), a, retain_graph=True)[0]\n"
        "g2 = torch.autograd.grad(b.sum(), a)[0]; out = (g1, g2)"),
    "version_and_is_leaf": case(
        "y = randn(2, seed=1); requires_grad(y); x = torch.zeros(4); v = x[1:3]; v.add_(y)\n"
        "out = (x._version, x.is_leaf, v.is_leaf, x.requires_grad, v.requires_grad, v.grad_fn.name())", "exact"),
    # create_graph through CopySlices
    "double_backward_through_copyslices": case(
        "a = randn(4); requires_grad(a); b = a * 1; b[1:3].mul_(a[:2]); g, = torch.autograd.grad(b.pow(2).sum(), a, create_graph=True)\n"
        "out = vjp(g, [a])"),
    # retain_grad (a kernel here): the retained gradient follows the rebased history
    "retain_grad_moves_with_rebase": case(
        "a = randn(4, 3); requires_grad(a); b = a * 2; b.retain_grad(); b[1].mul_(3); v = b[2:]; v.retain_grad()\n"
        "b.sum().backward(); out = (a.grad, b.grad, v.grad, b.retains_grad, v.retains_grad, a.retains_grad)"),
    "retain_grad_leaf_is_a_no_op": case(
        "a = randn(3); requires_grad(a); a.retain_grad(); (a * 2).sum().backward(); out = (a.grad, a.retains_grad)"),
    "error_retain_grad_without_requires_grad": case("x = randn(3); x.retain_grad()", "exact"),
    # the forbidden ones: upstream's RuntimeError
    "error_view_of_leaf": case("a = randn(3); requires_grad(a); a[0].add_(1)", "exact"),
    "error_view_of_leaf_setitem": case("a = randn(3); requires_grad(a); a[0:2] = 1.0", "exact"),
    "error_leaf_inplace": case("a = randn(3); requires_grad(a); a.add_(1)", "exact"),
    "error_multi_output_view": case("a = randn(4); requires_grad(a); b = a * 1; b.split(2)[0].add_(1)", "exact"),
    "error_multi_output_unbind": case("a = randn(2, 3); requires_grad(a); b = a * 1; x, y = b.unbind(0); y.mul_(2)", "exact"),
    "error_no_grad_view": case(
        "a = randn(3); requires_grad(a); b = a * 1\nwith torch.no_grad():\n    v = b[1:]\nv.mul_(2)", "exact"),
    "error_no_grad_view_of_plain": case(
        "x = torch.zeros(3); y = randn(2); requires_grad(y)\nwith torch.no_grad():\n    v = x[1:]\nv.add_(y)", "exact"),
    "no_grad_view_no_grad_write_ok": case(
        "a = randn(3); requires_grad(a); b = a * 1\nwith torch.no_grad():\n    v = b[1:]\n    v.mul_(2)\n"
        "out = (b.detach(), b.grad_fn.name())", "exact"),
    "error_inference_view": case(
        "x = torch.zeros(3); y = randn(2); requires_grad(y)\nwith torch.inference_mode():\n    v = x[1:]\nv.add_(y)", "exact"),
}
