"""Aliasing: views share storage (compare data_ptr of the untyped storages as a bool), in-place
writes through a view show in the base, _version moves on in-place ops and is shared by views,
out-of-place ops never alias, ._base / _is_view."""
SH = "a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()"
CASES = {}
VIEWS = {
    "view": "a.view(6, 2)", "reshape_contig": "a.reshape(-1)", "t": "a[0].t()", "transpose": "a.transpose(0, 2)",
    "permute": "a.permute(2, 0, 1)", "slice": "a[1:]", "select": "a[1]", "narrow": "a.narrow(1, 1, 2)",
    "unsqueeze": "a.unsqueeze(0)", "squeeze": "a[:, :1].squeeze(1)", "expand": "a[:, :1].expand(2, 3, 2)",
    "as_strided": "a.as_strided((2, 2), (1, 2))", "diagonal": "a.diagonal(0, 1, 2)", "split": "a.split(1)[1]",
    "chunk": "a.chunk(3, 1)[2]", "unbind": "a.unbind(1)[0]", "flatten": "a.flatten()", "unflatten": "a.unflatten(2, (1, 2))",
    "movedim": "a.movedim(0, 2)", "swapaxes": "a.swapaxes(1, 2)", "alias": "torch.ops.aten.alias(a)",
    "detach": "a.detach()", "view_as": "a.view_as(torch.empty(3, 4))", "mT": "a.mT", "ellipsis": "a[...]",
    "none_index": "a[None]", "int_index_2": "a[1, 2]", "view_dtype": "a.view(torch.int32)", "real": "a.real",
    "contiguous_noop": "a.contiguous()", "expand_as": "a[:1].expand_as(a)", "T_2d": "a[0].T",
}
for name, expr in VIEWS.items():
    CASES[f"shares_{name}"] = f"a = arange(2, 3, 2); b = {expr}; out = ({SH}, b._is_view(), b._base is a)"
COPIES = {
    "clone": "a.clone()", "contiguous_copy": "a.transpose(0, 1).contiguous()", "reshape_copy": "a.transpose(0, 1).reshape(-1)",
    "add": "a + 0", "to_dtype": "a.to(torch.float64)", "index_list": "a[[0, 1]]", "mask": "a[a > 2]", "flip": "a.flip(0)",
    "cat": "torch.cat([a])", "stack_one": "torch.stack([a])", "sort": "a.sort(0)[0]", "masked_fill": "a.masked_fill(a > 2, 0.0)",
    "index_select": "a.index_select(0, torch.tensor([0]))", "repeat_1": "a.repeat(1, 1, 1)", "roll_0": "a.roll(0, 0)",
    "tril": "a[0].tril()", "where_same": "torch.where(a > -1, a, a)", "exp": "a.exp()", "sum_keep": "a.sum(0, keepdim=True)",
}
for name, expr in COPIES.items():
    CASES[f"not_shared_{name}"] = f"a = arange(2, 3, 2); b = {expr}; out = ({SH}, b._is_view())"
CASES.update({
    # writes through views show in the base; versions are shared
    "inplace_through_slice": "a = arange(3, 4); v = a[1:, 2:]; v.add_(100); out = (a, a._version, v._version)",
    "inplace_through_transpose": "a = arange(3, 4); a.t()[0].fill_(-1); out = (a, a._version)",
    "inplace_through_select": "a = arange(3, 4); a[2].mul_(2); out = a",
    "inplace_through_expand_error": "a = arange(3, 1); a.expand(3, 4).add_(1)",
    "inplace_through_view_chain": "a = arange(2, 3, 4); v = a.permute(2, 0, 1)[1:3].flatten(1); v.zero_(); out = (a, a._version, v._version)",
    "inplace_through_diagonal": "a = torch.zeros(3, 3); a.diagonal().fill_(1); out = a",
    "inplace_through_unbind": "a = arange(2, 3); a.unbind(0)[1].neg_(); out = a",
    "inplace_through_split": "a = arange(6); a.split(2)[1].copy_(torch.tensor([9.0, 9.0])); out = a",
    "inplace_through_view_dtype": "a = torch.zeros(2, dtype=torch.int32); a.view(torch.float32).fill_(1.0); out = a",
    "inplace_through_as_strided": "a = torch.zeros(6); a.as_strided((2, 2), (3, 1), 1).fill_(5); out = a",
    "setitem_through_view": "a = arange(3, 4); v = a[:, 1]; v[0] = 50.0; v[[1, 2]] = -1.0; out = (a, a._version)",
    "base_write_seen_in_view": "a = arange(3, 4); v = a.t(); a[0, 1] = 77.0; out = v[1, 0]",
    "version_starts_zero": "a = arange(3); out = (a._version, torch.zeros(2)._version, (a + 1)._version)",
    "version_increments": "a = torch.zeros(3); a.add_(1); a.mul_(2); a[0] = 5.0; out = a._version",
    "version_shared_by_views": "a = torch.zeros(3, 2); v = a[0]; v.add_(1); w = a.t(); out = (a._version, v._version, w._version)",
    "version_out_arg": "a = torch.zeros(3); o = torch.empty(3); torch.add(a, 1, out=o); out = (a._version, o._version)",
    "version_copy_": "a = torch.zeros(3); a.copy_(torch.ones(3)); out = a._version",
    "version_setitem_basic": "a = torch.zeros(3); a[1:] = 2.0; out = a._version",
    "version_setitem_advanced": "a = torch.zeros(3); a[[0, 2]] = 2.0; out = a._version",
    "version_functional_unchanged": "a = torch.zeros(3); b = a.exp(); c = a.masked_fill(a > 1, 2.0); d = a.index_put((torch.tensor([0]),), torch.tensor(1.0)); out = (a._version, b._version, c._version, d._version)",
    "version_clone_fresh": "a = torch.zeros(3); a.add_(1); b = a.clone(); out = (a._version, b._version)",
    "version_detach_shares": "a = torch.zeros(3); b = a.detach(); b.add_(1); out = (a._version, b._version, a)",
    "version_random_inplace": "a = torch.zeros(3); a.uniform_(); a.normal_(); out = a._version",
    "version_t_": "a = torch.zeros(2, 3); a.t_(); a.unsqueeze_(0); a.squeeze_(); out = a._version",
    "version_resize": "a = torch.zeros(2, 3); a.resize_(6); b = torch.zeros(2); b.resize_(2); out = (a._version, b._version)",
    "version_zero_fill": "a = torch.zeros(2); a.zero_(); a.fill_(1); out = a._version",
    "version_index_put_": "a = torch.zeros(3); a.index_put_((torch.tensor([1]),), torch.tensor(1.0)); out = a._version",
    "version_scatter_": "a = torch.zeros(3); a.scatter_(0, torch.tensor([1]), 1.0); out = a._version",
    "version_masked_fill_": "a = torch.zeros(3); a.masked_fill_(a == 0, 1.0); out = a._version",
    "version_clamp_": "a = torch.zeros(3); a.clamp_(0, 1); out = a._version",
    "version_cumsum_": "a = torch.zeros(3); a.cumsum_(0); out = a._version",
    "version_tril_": "a = torch.zeros(3, 3); a.tril_(); out = a._version",
    "version_set_": "a = torch.zeros(3); a.set_(torch.ones(2)); out = a._version",
    "version_detach_": "a = torch.zeros(3); a.detach_(); out = a._version",
    "version_requires_grad_": "a = torch.zeros(3); a.requires_grad_(); out = a._version",
    "version_relu_": "a = torch.zeros(3); torch.relu_(a); out = a._version",
    "version_fn_out_tuple": "v = torch.empty(3); i = torch.empty(3, dtype=torch.int64); torch.sort(torch.tensor([3.0, 1.0, 2.0]), out=(v, i)); out = (v._version, i._version)",
    "base_of_view_of_view": "a = arange(3, 4); b = a[1:][:, 1:]; out = (b._base is a, b.storage_offset())",
    "base_none_for_fresh": "a = arange(3, 4); out = (a._base is None, a.clone()._base is None)",
    "is_view_detach": "a = arange(3); out = (a.detach()._is_view(), a._is_view())",
    "storage_offset_views": "a = arange(3, 4); out = (a[1].storage_offset(), a[:, 2].storage_offset(), a.t()[1:].storage_offset(), a[2:, 3:].storage_offset())",
    "storage_size": "a = arange(3, 4); out = (a.untyped_storage().nbytes(), a[1:].untyped_storage().nbytes())",
    "data_ptr_offset": "a = arange(3, 4); b = a[1:]; out = b.data_ptr() - a.data_ptr()",
    "is_set_to": "a = arange(3); out = (a.is_set_to(a), a.is_set_to(a[:]), a.is_set_to(a.clone()))",
    "same_storage_after_set": "a = arange(3); b = torch.empty(0); b.set_(a); out = ({SH}, a._version, b._version)".format(SH=SH),
    "resize_grows_shared_storage": "a = torch.zeros(2); b = a.view(2); a.resize_(10); out = (a.untyped_storage().nbytes(), b.untyped_storage().nbytes(), {SH})".format(SH=SH),
    "out_aliasing_input_full": "a = arange(4); torch.mul(a, 2, out=a); out = (a, a._version)",
    "out_partial_overlap_copy_error": "a = arange(4); a[1:].copy_(a[:3])",
    "inplace_self_add": "a = arange(4); a.add_(a); out = a",
    "copy_from_overlapping_view_reversed": "a = arange(4); a.copy_(a.flip(0)); out = a",
    "copy_same_tensor": "a = arange(4); a.copy_(a); out = (a, a._version)",
    "view_of_detached_requires_grad": "a = arange(3).requires_grad_(); b = a.detach(); out = (b.requires_grad, {SH})".format(SH=SH),
    "reshape_view_when_possible": "a = arange(2, 3, 4); b = a.transpose(1, 2).reshape(2, 12); c = a.reshape(6, 4); out = (b._is_view(), c._is_view())",
    "split_views_distinct_offsets": "a = arange(7); out = tuple(p.storage_offset() for p in a.split(3))",
    "unbind_views": "a = arange(2, 3); out = tuple((p.storage_offset(), p.stride()) for p in a.unbind(1))",
})
# x[idx] op= v reads the view, writes it in place, then assigns the view to itself (a full
# overlap, allowed; falcon_h1's compute_mup_vector); leading size-1 dims kept the same sizes
CASES["setitem_inplace_same_view"] = "x = torch.ones(1, 1, 10); x[:, :, :4] *= 2.0; x[0, :, 6:] += 1.0; out = (x, x._version)"
CASES["setitem_self_view_prefix1"] = "x = torch.ones(1, 3, 4); v = x[0, :1]; x[0, :1] = v.unsqueeze(0); out = x"
