"""Memory formats (See Note [Channels-last layouts] in runtime/tensor.c): channels_last_3d as a
real layout at every entry point channels_last has (factories, contiguous, is_contiguous,
clone/to/type conversions, suggest_memory_format's users, elementwise results, pooling and
convolution), with is_contiguous and the allocation's strides on edge shapes (size-1 and empty
dims), and the 4-d rules those share. Bug these guard: channels_last_3d gave contiguous strides
(24, 8, 4, 2, 1) and is_contiguous answered it for every tensor."""
CL3 = "torch.channels_last_3d"
CL = "torch.channels_last"
FMTS = "(torch.contiguous_format, torch.channels_last, torch.channels_last_3d)"
D = {"tol": "derived"}
# channels_last_3d strides made the way a user makes them
X = f"arange(2, 3, 2, 2, 2).contiguous(memory_format={CL3})"
R = f"randn(2, 3, 4, 5, 6, seed=1).contiguous(memory_format={CL3})"
# non-dense, still channels_last_3d by suggest_memory_format (every other channel)
SL = f"randn(2, 6, 4, 4, 4, seed=2).contiguous(memory_format={CL3})[:, ::2]"
SHAPES5 = {"base": (2, 3, 2, 2, 2), "ones": (1, 1, 1, 1, 1), "c_only": (1, 3, 1, 1, 1), "c1": (2, 1, 2, 2, 2),
           "n0": (0, 3, 2, 2, 2), "c0": (2, 0, 2, 2, 2), "d0": (2, 3, 0, 2, 2), "w1": (2, 3, 2, 2, 1),
           "n1": (1, 3, 2, 2, 2), "nc": (2, 3, 1, 1, 1)}
SHAPES4 = {"base": (2, 3, 4, 5), "ones": (1, 1, 1, 1), "n0": (0, 3, 2, 2), "nc": (2, 3, 1, 1), "c_only": (1, 3, 1, 1)}

CASES = {}
for name, s in SHAPES5.items():
    CASES.update({
        f"empty_cl3_{name}": f"y = torch.empty({s}, memory_format={CL3}); out = (y.shape, y.stride())",
        f"is_contiguous_cl3_alloc_{name}": f"y = torch.empty({s}, memory_format={CL3}); out = [y.is_contiguous(memory_format=m) for m in {FMTS}]",
        f"is_contiguous_plain_5d_{name}": f"y = torch.empty({s}); out = [y.is_contiguous(memory_format=m) for m in {FMTS}]",
        f"contiguous_cl3_{name}": f"x = torch.arange(float({'*'.join(map(str, s)) or 1})).reshape{s}; out = x.contiguous(memory_format={CL3})",
        f"contiguous_cl3_again_{name}": f"x = torch.empty({s}, memory_format={CL3}).fill_(2); out = x.contiguous(memory_format={CL3})",
        f"empty_like_cl3_{name}": f"y = torch.empty_like(torch.empty({s}, memory_format={CL3})); out = (y.shape, y.stride())",
        f"to_cl3_{name}": f"x = torch.empty({s}, memory_format={CL3}).fill_(1); out = x.to(memory_format={CL3})",
        f"add_cl3_{name}": f"out = torch.empty({s}, memory_format={CL3}).fill_(1.5) + 1",
        f"add_mixed_cl3_{name}": f"out = torch.empty({s}, memory_format={CL3}).fill_(1.5) + torch.ones({s})",
    })
for name, s in SHAPES4.items():
    CASES.update({
        f"is_contiguous_cl_alloc_{name}": f"y = torch.empty({s}, memory_format={CL}); out = [y.is_contiguous(memory_format=m) for m in {FMTS}]",
        f"is_contiguous_plain_4d_{name}": f"y = torch.empty({s}); out = [y.is_contiguous(memory_format=m) for m in {FMTS}]",
        f"contiguous_cl_again_{name}": f"x = torch.empty({s}, memory_format={CL}).fill_(2); out = x.contiguous(memory_format={CL})",
        f"contiguous_cl3_of_4d_{name}": f"out = torch.ones({s}).contiguous(memory_format={CL3})",
    })

CASES.update({
    # the brief's script, line by line
    "contiguous_cl3_values": f"out = {X}",
    "is_contiguous_cl3_of_contiguous_cl3": f"x = {X}; out = [x.is_contiguous(memory_format=m) for m in {FMTS}]",
    "is_contiguous_cl3_permuted": "x = arange(2, 3, 2, 2, 2).permute(0, 2, 3, 4, 1).contiguous().permute(0, 4, 1, 2, 3); "
                                  f"out = x.is_contiguous(memory_format={CL3})",
    "is_contiguous_cl3_3d_6d": f"out = [torch.ones(2, 3, 4).is_contiguous(memory_format={CL3}), "
                               f"torch.ones(2, 3, 4, 1, 1, 1).is_contiguous(memory_format={CL3}), "
                               f"torch.ones(2, 3, 4, 1, 1, 1).is_contiguous(memory_format={CL})]",
    "is_contiguous_cl3_sliced": f"x = {SL}; out = [x.is_contiguous(memory_format=m) for m in {FMTS}]",
    "is_contiguous_preserve": "x = torch.ones(2, 3); out = [x.is_contiguous(memory_format=torch.preserve_format), "
                              "x.t().is_contiguous(memory_format=torch.preserve_format)]",
    "contiguous_preserve_self": "x = torch.ones(2, 3); out = x.contiguous(memory_format=torch.preserve_format)",
    "contiguous_preserve_refused": "out = torch.ones(2, 3).t().contiguous(memory_format=torch.preserve_format)",
    "contiguous_preserve_refused_aten_grad": "x = randn(2, 3).t(); requires_grad(x); "
                                             "out = torch.ops.aten.contiguous(x, memory_format=torch.preserve_format)",
    "contiguous_cl3_grad": f"x = arange(2, 3, 2, 2, 2); requires_grad(x); out = vjp(x.contiguous(memory_format={CL3}) * 2, [x])",
    # factories
    "empty_cl3_rank4_refused": f"out = torch.empty(2, 3, 4, 5, memory_format={CL3})",
    "empty_strided_cl3": f"x = torch.empty_strided((2, 3, 2, 2, 2), (24, 1, 12, 6, 3)); out = [x.is_contiguous(memory_format=m) for m in {FMTS}]",
    "zeros_like_cl3": f"out = torch.zeros_like({X})",
    "ones_like_cl3_fmt": f"out = torch.ones_like(arange(2, 3, 2, 2, 2), memory_format={CL3})",
    "full_like_cl3": f"out = torch.full_like({X}, 2.5)",
    "empty_like_cl3_sliced": f"y = torch.empty_like({SL}); out = (y.shape, y.stride())",
    "new_empty_of_cl3": f"y = {X}.new_empty((2, 3, 2, 2, 2)); out = (y.shape, y.stride())",
    "resize_cl3": f"y = torch.empty(0).resize_(2, 3, 2, 2, 2, memory_format={CL3}); out = (y.shape, y.stride())",
    "resize_cl3_rank_refused": f"out = torch.empty(0).resize_(2, 3, 2, 2, memory_format={CL3})",
    # clone / to / type conversions
    "clone_cl3_fmt": f"out = arange(2, 3, 2, 2, 2).clone(memory_format={CL3})",
    "clone_cl3_preserved": f"out = {X}.clone()",
    "clone_cl3_to_contiguous_format": f"out = {X}.clone(memory_format=torch.contiguous_format)",
    "to_cl3": f"out = arange(2, 3, 2, 2, 2).to(memory_format={CL3})",
    "to_dtype_cl3": f"out = arange(2, 3, 2, 2, 2).to(torch.float64, memory_format={CL3})",
    "to_dtype_preserves_cl3": f"out = {X}.to(torch.float64)",
    "double_of_cl3": f"out = {X}.double()",
    "type_as_of_cl3": f"out = {X}.type_as(torch.ones(1, dtype=torch.int32))",
    "to_copy_cl3": f"out = torch.ops.aten._to_copy(arange(2, 3, 2, 2, 2), memory_format={CL3})",
    "aten_contiguous_cl3": f"out = torch.ops.aten.contiguous(arange(2, 3, 2, 2, 2), memory_format={CL3})",
    "aten_contiguous_cl3_alias": f"x = {X}; out = torch.ops.aten.contiguous(x, memory_format={CL3})",
    "copy_into_cl3": f"out = torch.empty(2, 3, 2, 2, 2, memory_format={CL3}).copy_(arange(2, 3, 2, 2, 2))",
    "resolve_conj_cl3": f"x = {X}; out = torch.complex(x, -x).conj().resolve_conj()",
    # suggest_memory_format's users
    "cat_cl3": f"x = {X}; out = torch.cat([x, x + 1], 1)",
    "cat_cl3_mixed": f"x = {X}; out = torch.cat([x, arange(2, 3, 2, 2, 2)], 1)",
    "cat_cl3_sliced": f"x = {SL}; out = torch.cat([x, x], 2)",
    "pad_cl3": f"out = torch.nn.functional.pad({X}, (1, 1, 0, 2))",
    "dropout_eval_cl3": f"out = torch.nn.functional.dropout({X}, 0.5, False)",
    # elementwise (TensorIterator's output layout follows the input's)
    "relu_cl3": f"out = torch.relu({X} - 10)",
    "sigmoid_cl3": {"code": f"out = torch.sigmoid({R})", **D},
    "mul_broadcast_cl3": f"out = {X} * arange(3, 1, 1, 1)",
    "where_cl3": f"x = {X}; out = torch.where(x > 5, x, 0.)",
    "add_sliced_cl3": f"out = {SL} + 1",
    "sum_keepdim_cl3": {"code": f"out = {R}.sum((2, 3, 4), keepdim=True)", **D},
    "softmax_cl3": {"code": f"out = {R}.softmax(1)", **D},
    # pooling
    "avg_pool3d_cl3": {"code": f"out = torch.nn.functional.avg_pool3d({R}, 2)", **D},
    "avg_pool3d_cl3_pad": {"code": f"out = torch.nn.functional.avg_pool3d({R}, 3, 2, 1, ceil_mode=True, count_include_pad=False)", **D},
    "avg_pool3d_cl3_divisor": {"code": f"out = torch.nn.functional.avg_pool3d({R}, 2, 1, 1, divisor_override=3)", **D},
    "avg_pool3d_cl3_k1_size1": {"code": f"out = torch.nn.functional.avg_pool3d({X}, 2)", **D},
    "avg_pool3d_cl3_sliced": {"code": f"out = torch.nn.functional.avg_pool3d({SL}, 2)", **D},
    "avg_pool3d_cl3_int64": f"out = torch.nn.functional.avg_pool3d((torch.arange(96).reshape(2, 3, 2, 4, 2) * 7 - 50).contiguous(memory_format={CL3}), 2)",
    "adaptive_avg_pool3d_cl3": {"code": f"out = torch.nn.functional.adaptive_avg_pool3d({R}, (3, 2, 4))", **D},
    "adaptive_avg_pool3d_cl3_1x1x1": {"code": f"out = torch.nn.functional.adaptive_avg_pool3d({R}, 1)", **D},
    "adaptive_avg_pool3d_cl3_bf16": {"code": f"out = torch.nn.functional.adaptive_avg_pool3d({R}.bfloat16(), (2, 3, 2))", **D},
    "max_pool3d_cl3_size1": f"out = torch.nn.functional.max_pool3d({X}, 2)",
    "adaptive_max_pool3d_cl3": f"out = torch.nn.functional.adaptive_max_pool3d({R}, (1, 2, 1))",
    "upsample_trilinear3d_cl3": {"code": f"out = torch.nn.functional.interpolate({R}, scale_factor=2, mode='trilinear')", **D},
    "upsample_trilinear3d_cl3_sliced_c1": {"code": f"x = randn(2, 2, 3, 3, 3, seed=3).contiguous(memory_format={CL3})[:, ::2]; "
                                                   "out = torch.nn.functional.interpolate(x, scale_factor=2, mode='trilinear')", **D},
    "upsample_nearest3d_cl3": f"out = torch.nn.functional.interpolate({R}, scale_factor=2)",
    # 2-d pooling and upsampling on a non-dense channels_last input (suggest_memory_format, not
    # dense channels-last contiguity, decides)
    "max_pool2d_cl_sliced_pool": f"out = torch.nn.functional.max_pool2d(randn(2, 6, 4, 4, seed=4).contiguous(memory_format={CL})[:, ::2], 2)",
    "avg_pool2d_cl_sliced_pool": {"code": f"out = torch.nn.functional.avg_pool2d(randn(2, 6, 4, 4, seed=4).contiguous(memory_format={CL})[:, ::2], 1)", **D},
    "adaptive_avg_pool2d_cl_sliced_pool": {"code": f"out = torch.nn.functional.adaptive_avg_pool2d(randn(2, 6, 4, 4, seed=4).contiguous(memory_format={CL})[:, ::2], (2, 1))", **D},
    "upsample_nearest2d_cl_sliced": f"out = torch.nn.functional.interpolate(randn(2, 6, 4, 4, seed=4).contiguous(memory_format={CL})[:, ::2], scale_factor=2)",
    # convolution: channels_last_3d on the oneDNN backend only (float32 and a batch or kernel that
    # takes it); slow_conv3d (batch 1 with a small kernel, float64) writes contiguous results
    "conv3d_cl3_input": {"code": f"out = torch.nn.functional.conv3d({R}, randn(4, 3, 2, 2, 2, seed=5))", **D},
    "conv3d_cl3_weight": {"code": f"out = torch.nn.functional.conv3d(randn(2, 3, 4, 5, 6, seed=1), randn(4, 3, 2, 2, 2, seed=5).contiguous(memory_format={CL3}))", **D},
    "conv3d_cl3_sliced": {"code": f"out = torch.nn.functional.conv3d({SL}, randn(2, 3, 1, 1, 1, seed=5))", **D},
    "conv3d_cl3_batch1_slow": {"code": f"out = torch.nn.functional.conv3d(randn(1, 3, 4, 4, 4, seed=1).contiguous(memory_format={CL3}), randn(2, 3, 3, 3, 3, seed=5), padding=1)", **D},
    "conv3d_cl3_float64_slow": {"code": f"out = torch.nn.functional.conv3d({R}.double(), randn(4, 3, 2, 2, 2, seed=5).double())", **D},
    "conv3d_cl3_backward": {"code": f"x = {R}; requires_grad(x); out = vjp(torch.nn.functional.conv3d(x, randn(4, 3, 2, 2, 2, seed=5)), [x])", **D},
    "conv_transpose3d_cl3": {"code": f"out = torch.nn.functional.conv_transpose3d({R}, randn(3, 2, 2, 2, 2, seed=5))", **D},
    "conv_transpose3d_cl3_weight_stride": {"code": f"out = torch.nn.functional.conv_transpose3d(randn(2, 3, 3, 3, 3, seed=1), randn(3, 2, 2, 2, 2, seed=5).contiguous(memory_format={CL3}), stride=2)", **D},
    "conv_transpose3d_cl3_float64": {"code": f"out = torch.nn.functional.conv_transpose3d({R}.double(), randn(3, 2, 2, 2, 2, seed=5).double())", **D},
    "conv_transpose3d_cl3_batch1": {"code": f"out = torch.nn.functional.conv_transpose3d(randn(1, 3, 3, 3, 3, seed=1).contiguous(memory_format={CL3}), randn(3, 2, 2, 2, 2, seed=5))", **D},
    "conv2d_cl_sliced": {"code": f"out = torch.nn.functional.conv2d(randn(2, 6, 4, 4, seed=4).contiguous(memory_format={CL})[:, ::2], randn(2, 3, 1, 1, seed=5))", **D},
    # normalisation
    "batch_norm_cl3": {"code": f"out = torch.nn.functional.batch_norm({R}, torch.zeros(3), torch.ones(3))", **D},
    "group_norm_cl3": {"code": f"out = torch.nn.functional.group_norm({R}, 3)", **D},
    "group_norm_cl3_batch1": {"code": f"out = torch.nn.functional.group_norm(randn(1, 3, 4, 4, 4, seed=1).contiguous(memory_format={CL3}), 1)", **D},
    "group_norm_cl3_sliced_c1": {"code": f"out = torch.nn.functional.group_norm(randn(2, 2, 4, 4, 4, seed=2).contiguous(memory_format={CL3})[:, ::2], 1)", **D},
    # backward of a channels_last_3d op keeps the layout
    "group_norm_cl3_backward": {"code": f"x = {R}; requires_grad(x); out = vjp(torch.nn.functional.group_norm(x, 3), [x])", **D},
    "batch_norm_train_cl3_backward": {"code": f"x = {R}; requires_grad(x); out = vjp(torch.nn.functional.batch_norm(x, None, None, training=True), [x])", **D},
    "cat_cl3_backward": f"x = {X}; requires_grad(x); out = vjp(torch.cat([x, x * 2], 1), [x])",
    # the gradient sums up to 27 cotangents per element, in another order than upstream's loop
    "pad_replicate_cl3_backward": {"code": f"x = {X}; requires_grad(x); out = vjp(torch.nn.functional.pad(x, (1, 1, 1, 1, 1, 1), mode='replicate'), [x])", **D},
    "max_pool3d_cl3_backward": f"x = {R}; requires_grad(x); out = vjp(torch.nn.functional.max_pool3d(x, 2), [x])",
})
