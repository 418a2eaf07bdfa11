"""Spectral primitives (ops/spectral.c over kernels/fft.c) and complex tensors (ops/view.c
complex views, ops/pointwise.c conj bits, complex, polar, complex arithmetic): values within
the derived tolerance (complex products: upstream's vector body and its scalar tail round
differently, by one ulp), shape, strides (upstream's MKL layout, Note [FFT result layout]) and
dtype exactly; views share storage and carry the conj / neg bits as upstream's do."""
from spell import Op, T, expand_all

D = "derived"
X3 = T((3, 4, 5))
OPS = [
    Op("_fft_r2c", X3, [2], 0, True, tol=D, zerodim=False,
       extra={"dim0": ((X3, [0], 1, True), None), "two_sided": ((X3, [1], 2, False), None),
              "multi": ((X3, [0, 2], 0, True), None), "multi_two_sided": ((X3, [2, 0], 1, False), None),
              "all": ((X3, [0, 1, 2], 2, True), None), "prime": ((T((2, 37)), [1], 0, True), None),
              "bluestein": ((T((2, 101)), [1], 1, False), None), "odd": ((T((4, 9)), [1], 0, True), None)}),
    Op("_fft_c2c", X3, [1], 0, True, tol=D, zerodim=False,
       extra={"backward": ((X3, [2], 2, False), None), "multi": ((X3, [0, 2], 1, True), None),
              "all": ((X3, [2, 1, 0], 0, False), None), "len1": ((T((3, 1)), [1], 0, True), None),
              "bluestein": ((T((2, 97)), [1], 2, True), None), "mixed": ((T((2, 60)), [1], 1, False), None)}),
    Op("_fft_c2r", X3, [2], 0, 8, tol=D, zerodim=False,
       extra={"odd": ((X3, [2], 2, 9), None), "multi": ((X3, [0, 2], 1, 8), None),
              "all": ((X3, [1, 0, 2], 2, 7), None), "dim1": ((X3, [1], 0, 6), None)}),
    # torch.fft's 1-D functions (ops/spectral.c, upstream's C++ compositions): n (padded,
    # sliced), dim, every norm, integer promotion, upstream's errors; lengths through each path
    # of kernels/fft.c (real signals of even length as half-length complex ones, odd ones whole,
    # Bluestein halves: 2 x 37)
    *[Op(f"fft_{k}", T((3, 10)), None, -1, None, tol=D, zerodim=False, dtypes=dts,
         extra={"n_pad": ((T((3, 10)), 16, -1, None), None), "n_slice": ((T((3, 10)), 6, 1, "ortho"), None),
                "dim0": ((T((6, 4)), None, 0, "forward"), None), "backward": ((T((2, 12)), None, -1, "backward"), None),
                "even_bluestein": ((T((2, 74)), None, 1, None), None), "long": ((T((2, 1024)), None, -1, None), None),
                "mixed": ((T((2, 90)), None, -1, "ortho"), None), "odd": ((T((3, 15)), None, -1, None), None),
                "bad_norm": ((T((3, 4)), None, -1, "sideways"), None), "n_zero": ((T((3, 4)), 0, -1, None), None),
                "bad_dim": ((T((3, 4)), None, 2, None), None), "ints": ((T((3, 8), dtype="int64"), None, -1, None), None),
                "half": ((T((3, 8), dtype="float16"), None, -1, None), None),
                "other_kind": ((T((3, 8), dtype="float32" if k in ("irfft", "hfft") else "complex64"), None, -1, None), None)})
      for k, dts in (("fft", ["float32", "float64", "complex64", "complex128"]), ("ifft", ["float32", "complex64"]),
                     ("rfft", ["float32", "float64"]), ("ihfft", ["float32"]),
                     ("irfft", ["complex64", "complex128"]), ("hfft", ["complex64"]))],
    Op("view_as_real", T(dtype="complex64"), dtypes=["complex64", "complex128"]),
    Op("view_as_complex", T((3, 2)), dtypes=["float32", "float64"],
       extra={"3d": ((T((2, 3, 2)),), None), "bad_last": ((T((3, 4)),), None)}),
    Op("imag", T(dtype="complex64"), dtypes=["complex64", "complex128"]),
    Op("complex", T(), T(), dtypes=["float32", "float64"], extra={"bcast": ((T((3, 1)), T((4,))), None)}),
    Op("polar", T(role="pos"), T(), tol=D, dtypes=["float32", "float64"],
       extra={"bcast": ((T((3, 1), role="pos"), T((4,))), None)}),
    Op("_conj_physical", T(dtype="complex64"), dtypes=["complex64", "complex128"]),
    Op("conj_physical", T(dtype="complex64"), dtypes=["complex64", "complex128"]),
    Op("_conj", T(dtype="complex64"), dtypes=["complex64", "complex128"]),
    Op("_neg_view", T(), dtypes=["float32", "complex64"]),
    Op("conj", T(dtype="complex64"), dtypes=["complex64", "complex128"]),
    Op("resolve_conj", T(dtype="complex64"), dtypes=["complex64", "complex128"]),
]

CASES = expand_all(OPS)

Z = "torch.complex(torch.randn(3, 4, generator=torch.Generator().manual_seed(1)), torch.randn(3, 4, generator=torch.Generator().manual_seed(2)))"
CASES.update({
    # inf/NaN input where upstream (MKL) places inf and NaN as numpy.fft's pocketfft does (Note [FFT
    # non-finite lines] in kernels/fft.c: such r2c/c2r lines at full length, odd radices as pair
    # butterflies); a batch whose other lines stay on the packed path
    "fft_nonfinite_rfft2": {"code": "out = torch.fft.rfft(torch.tensor([-float('inf'), 0.5]))", "tol": "derived"},
    "fft_nonfinite_rfft4": {"code": "out = torch.fft.rfft(torch.tensor([0.5, float('inf'), -1.25, 2.0], dtype=torch.float64), norm='ortho')", "tol": "derived"},
    "fft_nonfinite_rfft6": {"code": "out = torch.fft.rfft(torch.tensor([0.5, -1.25, float('nan'), 2.0, 0.75, -3.0]))", "tol": "derived"},
    "fft_nonfinite_rfft_batch": {"code": "x = torch.arange(60.).reshape(10, 6).sin(); x[3, 2] = float('inf'); x[7, 0] = float('nan'); out = torch.fft.rfft(x)", "tol": "derived"},
    "fft_nonfinite_irfft_batch": {"code": "x = torch.randn(9, 3, dtype=torch.complex128, generator=torch.Generator().manual_seed(3)); x[2, 1] = -float('inf'); out = torch.fft.irfft(x, n=4, norm='forward')", "tol": "derived"},
    "fft_nonfinite_fft3": {"code": "out = torch.fft.fft(torch.tensor([0.5+1.5j, complex(float('inf'), 0), 2+4j]))", "tol": "derived"},
    "fft_nonfinite_fft5": {"code": "out = torch.fft.ifft(torch.tensor([0.5+1.5j, -1.25-0.25j, complex(0, float('inf')), 0.75+1j, -3-2.5j]))", "tol": "derived"},
    "fft_nonfinite_fft7": {"code": "out = torch.fft.fft(torch.tensor([0.5, -1.25, 2.0, float('nan'), 0.75, -3.0, 1.5], dtype=torch.complex128), norm='forward')", "tol": "derived"},
    "fft_nonfinite_fft9": {"code": "out = torch.fft.fft(torch.tensor([0.5, -1.25, 2.0, 1.0, 0.75, -3.0, 1.5, -float('inf'), 4.0], dtype=torch.complex64))", "tol": "derived"},
    "fft_nonfinite_fft8": {"code": "out = torch.fft.fft(torch.tensor([0.5+1.5j, complex(float('inf'), 0), complex(-float('inf'), 0), 0.75+1j, -3-2.5j, 1.5+0.125j, -0.25+3.5j, 4-0.5j], dtype=torch.complex64))", "tol": "derived"},
    "fft_nonfinite_rfft8": {"code": "out = torch.fft.rfft(torch.tensor([0.5, -1.25, float('inf'), 0.75, -3.0, 1.5, -0.25, 4.0], dtype=torch.float64))", "tol": "derived"},
    "fft_nonfinite_hfft": {"code": "out = torch.fft.hfft(torch.tensor([1+1j, 0.5-2j, complex(float('inf'), 0)]), n=4)", "tol": "derived"},
    "fft_nonfinite_rfft2d": {"code": "out = torch.fft.rfft2(torch.tensor([[0.5, -1.25, 2.0, 0.75], [float('inf'), -3.0, 1.5, -0.25], [4.0, 1.0, -2.5, 0.125]]))", "tol": "derived"},
    "fft_nonfinite_fftn": {"code": "out = torch.fft.fftn(torch.tensor([[0.5, -1.25, 2.0], [float('inf'), -3.0, 1.5], [4.0, float('nan'), -2.5]], dtype=torch.complex128))", "tol": "derived"},
    "fft_nonfinite_irfft2": {"code": "out = torch.fft.irfft2(torch.tensor([[0.5+1j, -1.25, 2.0j], [complex(float('inf'), 0), -3.0, 1.5], [4.0, 1.0, -2.5-1j]]), s=(3, 4))", "tol": "derived"},
    "complex_repr": f"out = repr({Z})",
    "complex_tensor_literal": "out = torch.tensor([1 + 2j, 3 - 1j])",
    "complex_zeros": "out = torch.zeros(2, 3, dtype=torch.complex64)",
    "complex_real_view": f"z = {Z}; out = (z.real, z.imag)",
    "complex_real_write": f"z = {Z}; z.real.mul_(2); z.imag.add_(1); out = z",
    "view_as_real_shares": f"z = {Z}; r = torch.view_as_real(z); r[0, 0, 1] = 5.0; out = z",
    "view_as_complex_shares": "x = torch.arange(12.0).view(3, 2, 2); z = torch.view_as_complex(x); x[0, 0, 0] = -1; out = z",
    "view_as_real_conj": f"out = torch.view_as_real({Z}.conj())",
    "conj_is_lazy": f"z = {Z}; c = z.conj(); out = (c, c.is_conj(), c._is_view(), z.is_conj())",
    "conj_twice": f"out = {Z}.conj().conj()",
    "conj_real": "x = torch.randn(3); out = (x.conj(), x.conj().is_conj())",
    "resolve_conj": f"c = {Z}.conj(); r = c.resolve_conj(); out = (r, r.is_conj(), r._is_view())",
    # imag's composition serves meta calls too: an integer one raises the kernel's error (it once
    # re-entered the door and recursed until the stack overflowed: found by the fuzzer)
    "imag_meta_int": "out = torch.imag(torch.empty((2, 4), dtype=torch.int64, device='meta'))",
    "imag_meta_complex": "z = torch.empty((2, 3), dtype=torch.complex64, device='meta'); out = (z.imag, z.conj().imag)",
    # the parts of a negated view read negated: the neg bit rides on view_as_real / real / imag
    "neg_view_parts": f"n = torch.ops.aten._neg_view({Z}); out = (n.real, n.imag, torch.view_as_real(n), "
                      "n.conj().imag, n.real.is_neg(), n.conj().imag.is_neg())",
    "conj_imag_neg": f"c = {Z}.conj(); out = (c.imag, c.imag.is_neg(), c.real)",
    "resolve_neg": f"n = {Z}.conj().imag; out = (n.resolve_neg(), n.resolve_neg().is_neg())",
    "conj_clone": f"out = {Z}.conj().clone()",
    "conj_add": f"out = {Z}.conj() + 1",
    "conj_mul": {"code": f"z = {Z}; out = z * z.conj()", "tol": "derived"},
    "conj_transpose": f"out = {Z}.conj().t()",
    "conj_to": f"out = {Z}.conj().to(torch.complex128)",
    "conj_copy_into": f"d = torch.zeros(3, 4, dtype=torch.complex64); d.copy_({Z}.conj()); out = d",
    "conj_tolist_item": f"c = {Z}.conj(); n = c.imag; out = (c.tolist(), c[1, 2].item(), n.tolist(), float(n[0, 0]))",
    "conj_numpy": f"out = {Z}.conj().numpy()",
    "neg_numpy": f"out = {Z}.conj().imag.numpy()",
    "conj_numpy_force": f"out = torch.from_numpy({Z}.conj().numpy(force=True))",
    "conj_in_tensor_lists": f"z = {Z}; c = z.conj(); out = (torch.cat([c, z]), torch.stack([z, c]), torch.cat([c.imag, z.imag]))",
    "conj_view_dtype": f"out = {Z}.conj().view(torch.float32)",
    "conj_view_same_dtype": f"out = {Z}.conj().view(torch.complex64)",
    "conj_inplace_write": f"c = {Z}.conj(); c.add_(1); out = c",
    "conj_out_write": f"z = {Z}; c = z.clone().conj(); torch.add(z, 1, out=c); out = c",
    "neg_inplace_write": f"n = {Z}.conj().imag; n.neg_(); out = n",
    "conj_physical_of_conj": f"out = torch.conj_physical({Z}.conj())",
    "complex_add": f"z = {Z}; out = z + z.flip(0)",
    "complex_sub_alpha": {"code": f"z = {Z}; out = torch.sub(z, z.flip(1), alpha=2)", "tol": "derived"},
    "complex_add_alpha_complex": {"code": f"z = {Z}; out = torch.add(z, z, alpha=1j)", "tol": "derived"},
    "complex_mul": {"code": f"z = {Z}; out = z * z.flip(0)", "tol": "derived"},
    "complex_mul_bcast": {"code": f"z = {Z}; out = z[:, None, :] * z[None, :, :]", "tol": "derived"},
    "complex_mul_real": {"code": f"z = {Z}; out = z * torch.arange(4.0)", "tol": "derived"},
    "complex_mul_scalar": {"code": f"out = {Z} * (2 - 1j)", "tol": "derived"},
    "complex_div": {"code": f"z = {Z}; out = z / z.flip(0)", "tol": "derived"},
    "complex_div_zero": "out = torch.tensor([1 + 1j, 0j]) / torch.tensor([0j, 0j])",
    "complex_eq": f"z = {Z}; out = (z == z, z != z.conj(), z == 0)",
    "complex_promote_double": f"out = {Z} + torch.ones(4, dtype=torch.float64)",
    "complex_inplace": {"code": f"z = {Z}; z.mul_(1j); z.add_(1); out = z", "tol": "derived"},
    "complex_inplace_real_self": f"x = torch.ones(3, 4); out = x.add_({Z})",
    "complex_to_real_copy": f"out = torch.zeros(3, 4).copy_({Z})",
    "complex_abs": {"code": f"out = {Z}.abs()", "tol": "derived"},
    "complex_abs_conj_t": {"code": f"out = {Z}.conj().t().abs()", "tol": "derived"},
    "complex_neg": f"out = (-{Z}, -({Z}.conj()))",
    "complex_angle": {"code": f"out = torch.angle({Z})", "tol": "derived"},
    "complex_sum": {"code": f"z = {Z}; out = (z.sum(), z.sum(0), z.sum(1, keepdim=True), z.t().sum(0), z.conj().sum(1))", "tol": "derived"},
    "complex_mean": {"code": f"z = {Z}; out = (z.mean(), z.mean(0), z.mean((0, 1), keepdim=True), z.conj().mean(1))", "tol": "derived"},
    "complex_sum_dtype": {"code": f"out = torch.sum({Z}, dtype=torch.complex128)", "tol": "derived"},
    "complex_sum_item": {"code": f"out = {Z}.sum().item()", "tol": "derived"},
    "complex_sum_0dim": {"code": f"out = {Z}[0, 0].sum()", "tol": "derived"},
    # a 0-dim self with a dim: nothing is reduced (the dim once led to the parts' dim of view_as_real)
    "complex_sum_0dim_dim": {"code": f"z = {Z}[1, 2]; out = (z.sum(0), z.sum(-1, keepdim=True), z.mean(0), z.sum([0]))", "tol": "derived"},
    "complex_sum_0dim_repeat": f"out = {Z}[1, 2].sum([0, -1])",
    # norms of a complex tensor: norms of |z|, real (ops/reduce.c, Note [Complex norms])
    "complex_vector_norm": {"code": f"z = {Z}; out = (torch.linalg.vector_norm(z), torch.linalg.vector_norm(z, 1, 0), torch.linalg.vector_norm(z, 3, (0, 1), keepdim=True), torch.linalg.vector_norm(z.conj().t(), 2, 1))", "tol": "derived"},
    "complex_vector_norm_orders": {"code": f"z = {Z}; out = (torch.linalg.vector_norm(z, float('inf'), 1), torch.linalg.vector_norm(z, float('-inf')), torch.linalg.vector_norm(z, 0, 0), torch.linalg.vector_norm(z, -1.5, 1))", "tol": "derived"},
    "complex_vector_norm_dtype": {"code": f"out = torch.linalg.vector_norm({Z}, dtype=torch.complex128)", "tol": "derived"},
    "complex_vector_norm_real_dtype": f"out = torch.linalg.vector_norm({Z}, dtype=torch.float64)",
    "real_vector_norm_complex_dtype": f"out = torch.linalg.vector_norm({Z}.real, dtype=torch.complex64)",
    "complex_vector_norm_narrowing": f"out = torch.linalg.vector_norm({Z}.to(torch.complex128), dtype=torch.complex64)",
    "complex_vector_norm_empty": f"out = (torch.linalg.vector_norm(torch.zeros(0, 3, dtype=torch.complex64)), torch.linalg.vector_norm(torch.zeros(0, 3, dtype=torch.complex64), 2, 0))",
    "complex_norm": {"code": f"z = {Z}; out = (torch.norm(z), z.norm(1), torch.norm(z, float('inf'), 0), torch.norm(z, p='fro'), torch.dist(z, z.flip(0), 3))", "tol": "derived"},
    "complex_matrix_norm": {"code": f"z = {Z}; out = (torch.linalg.matrix_norm(z, 1), torch.linalg.matrix_norm(z, float('-inf')), torch.linalg.matrix_norm(z), torch.linalg.norm(z, float('inf')))", "tol": "derived"},
    "complex_normalize": {"code": f"z = {Z}; out = (torch.nn.functional.normalize(z), torch.nn.functional.normalize(z, 1, 0))", "tol": "derived"},
    "complex_pairwise_distance": {"code": f"z = {Z}; out = torch.nn.functional.pairwise_distance(z, z.flip(1))", "tol": "derived"},
    # var/std of a complex tensor: var(real) + var(imag), real; var_mean's mean complex (Note [Complex var and std])
    "complex_var": {"code": f"z = {Z}; out = (z.var(), z.var(0), torch.var(z, 1, correction=0, keepdim=True), z.t().var(0, unbiased=False))", "tol": "derived"},
    "complex_std": {"code": f"z = {Z}; out = (z.std(), torch.std(z, (0, 1), correction=2), z.conj().std(1, keepdim=True))", "tol": "derived"},
    "complex_var_mean": {"code": f"z = {Z}; out = (torch.var_mean(z), torch.var_mean(z, 1, keepdim=True), torch.std_mean(z, 0, correction=0), torch.std_mean(z, unbiased=False))", "tol": "derived"},
    "complex_var_empty": f"out = torch.var_mean(torch.zeros(0, 3, dtype=torch.complex64), 0)",
    "complex_var_meta": f"out = torch.std_mean(torch.empty(3, 4, dtype=torch.complex64, device='meta'), 1); out = [(r.shape, r.dtype, r.device) for r in out]",
    # trace sums in the accumulate type (runtime/py/tn_decompose.py, Note [trace's accumulate type])
    # where moves complex elements (kernels/binary.c tn_where: complex128's 16 bytes too); a conj input is resolved at the door
    "complex_where": f"z = {Z}; out = (torch.where(z.real > 0, z, z.conj()), torch.where(z.imag > 0, z.to(torch.complex128), torch.zeros(4, dtype=torch.complex128)), torch.where(z.real[:, :1] > 0, z.t().contiguous().t(), z.flip(0)))",
    "complex_masked_sum": {"code": f"z = {Z}; m = z.real > 0; out = (torch.masked.sum(z, 1, mask=m), torch.masked.mean(z, mask=m))", "tol": "derived"},
    # exact: summed in complex128 and rounded once, the sum is upstream's bit for bit
    "complex_trace": f"z = {Z}; out = (torch.trace(z), torch.trace(z.t()), torch.trace(z.conj()))",
    "complex_trace_long": "z = torch.randn(64, 64, dtype=torch.complex64, generator=torch.Generator().manual_seed(7)); out = torch.trace(z)",
    "real_to_complex": "out = torch.arange(4.0).to(torch.complex64)",
    "polar_llama_rope": "t = torch.arange(6.0); f = 1.0 / (10000 ** (torch.arange(0, 8, 2).float() / 8)); out = torch.polar(torch.ones(6, 4), torch.outer(t, f))",
    "rope_apply": {"tol": "derived", "code": ("x = torch.randn(2, 6, 3, 8, generator=torch.Generator().manual_seed(3)); "
                   "f = torch.polar(torch.ones(6, 4), torch.outer(torch.arange(6.0), torch.rand(4, generator=torch.Generator().manual_seed(4)))); "
                   "xc = torch.view_as_complex(x.float().reshape(2, 6, 3, -1, 2)); "
                   "out = torch.view_as_real(xc * f[None, :, None, :]).flatten(3)")},
    "fft_fft": {"code": "out = torch.fft.fft(torch.randn(4, 10, generator=torch.Generator().manual_seed(5)))", "tol": "derived"},
    "fft_rfft_ortho": {"code": "out = torch.fft.rfft(torch.randn(3, 16, generator=torch.Generator().manual_seed(5)), norm='ortho')", "tol": "derived"},
    "fft_irfft": {"code": "out = torch.fft.irfft(torch.fft.rfft(torch.randn(3, 16, generator=torch.Generator().manual_seed(5))), n=16)", "tol": "derived"},
    "fft_fftn_real": {"code": "out = torch.fft.fftn(torch.randn(2, 6, 8, generator=torch.Generator().manual_seed(6)), dim=(1, 2))", "tol": "derived"},
    "fft_fftn_real_part": {"code": "out = torch.fft.fftn(torch.randn(2, 6, 8, generator=torch.Generator().manual_seed(6)), dim=(1, 2)).real", "tol": "derived"},
    "fft_ifft2": {"code": f"out = torch.fft.ifft2({Z}, norm='forward')", "tol": "derived"},
    "fft_hfft": {"code": f"out = torch.fft.hfft({Z}, n=7)", "tol": "derived"},
    "fft_ihfft": {"code": "out = torch.fft.ihfft(torch.randn(3, 9, generator=torch.Generator().manual_seed(7)))", "tol": "derived"},
    "fft_float64": {"code": "out = torch.fft.fft(torch.randn(5, 12, dtype=torch.float64, generator=torch.Generator().manual_seed(8)), dim=0)", "tol": "derived"},
    "fft_n_pad": {"code": "out = torch.fft.fft(torch.randn(3, 5, generator=torch.Generator().manual_seed(9)), n=8)", "tol": "derived"},
    "fft_rfftn_noncontig": {"code": "out = torch.fft.rfftn(torch.randn(6, 8, 4, generator=torch.Generator().manual_seed(9)).permute(2, 0, 1))", "tol": "derived"},
    "stft": {"code": "out = torch.stft(torch.randn(2, 64, generator=torch.Generator().manual_seed(10)), n_fft=16, hop_length=4, window=torch.hann_window(16), return_complex=True)", "tol": "derived"},
    "istft": {"code": "w = torch.hann_window(16); s = torch.stft(torch.randn(2, 64, generator=torch.Generator().manual_seed(10)), n_fft=16, hop_length=4, window=w, return_complex=True); out = torch.istft(s, n_fft=16, hop_length=4, window=w, length=64)", "tol": "derived"},
})
