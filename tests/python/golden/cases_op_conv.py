"""Convolution kernels (ops/conv.c), expanded by spell.py: every spelling, claimed dtype
and layout (a transposed or sliced weight or input reaches im2col with other strides), groups,
stride/padding/dilation, padding="same"/"valid", unbatched inputs, bias, and the argument errors.
Float results are derived (upstream's CPU convolution sums in its own order)."""
from spell import C, Op, T, expand_all

D = "derived"
X1, W1 = T((2, 4, 9)), T((6, 2, 3))
X2, W2 = T((2, 4, 7, 8)), T((6, 2, 3, 2))
X3, W3 = T((1, 2, 5, 4, 6)), T((3, 2, 2, 3, 2))
OPS = [
    Op("convolution", X2, W2, T((6,)), [2, 1], [1, 0], [1, 2], False, [0, 0], 2, tol=D, zerodim=False,
       extra={"no_bias": ((X2, T((3, 4, 3, 3)), None, [1], [1], [1], False, [0], 1), None),
              "conv1d": ((X1, W1, None, [2], [0], [1], False, [0], 2), None),
              "conv3d": ((X3, W3, None, [1, 2, 1], [1, 0, 0], [1, 1, 2], False, [0, 0, 0], 1), None),
              "transposed": ((X2, T((4, 3, 3, 3)), None, [1], [0], [1], True, [0], 1), None),
              # Note [Transposed convolution]: groups, stride, padding, dilation, output_padding, bias
              "transposed_groups": ((X2, T((4, 3, 3, 2)), T((6,)), [2, 1], [1, 0], [1, 2], True, [1, 0], 2), None),
              "transposed_1d": ((X1, T((4, 3, 3)), T((3,)), [3], [1], [1], True, [2], 1), None),
              "transposed_3d": ((X3, T((2, 2, 2, 3, 2)), None, [1, 2, 1], [0, 1, 0], [1, 1, 2], True, [0, 1, 0], 1), None),
              "transposed_bad_channels": ((X2, T((3, 3, 3, 3)), None, [1], [0], [1], True, [0], 1), None),
              "transposed_bad_bias": ((X2, T((4, 3, 3, 3)), T((4,)), [1], [0], [1], True, [0], 1), None),
              "transposed_output_padding_dilated": ((X2, T((4, 3, 3, 3)), None, [1], [0], [2], True, [1], 1), None),
              "transposed_output_padding_too_big": ((X2, T((4, 3, 3, 3)), None, [2], [0], [1], True, [2], 1), None),
              "transposed_negative_output_padding": ((X2, T((4, 3, 3, 3)), None, [2], [0], [1], True, [-1], 1), None),
              "unbatched": ((T((4, 7, 8)), W2, None, [1], [0], [1], False, [0], 2), None),
              "stride_list": ((X2, W2, None, [1, 1, 1], [0], [1], False, [0], 2), None),
              "stride_zero": ((X2, W2, None, [0], [0], [1], False, [0], 2), None),
              "negative_pad": ((X2, W2, None, [1], [-1], [1], False, [0], 2), None),
              "groups_zero": ((X2, W2, None, [1], [0], [1], False, [0], 0), None)}),
    Op("conv1d", X1, W1, T((6,)), [1], [1], [2], 2, tol=D, zerodim=False,
       extra={"defaults": ((X1, T((3, 4, 3))), None), "unbatched": ((T((4, 9)), W1, None, [2], [0], [1], 2), None),
              "depthwise_causal": ((X1, T((4, 1, 3)), T((4,)), [1], [2], [1], 4), None),
              "deep": ((T((2, 10, 40)), T((7, 10, 5)), T((7,)), [2], [2], [1], 1), None),  # K = 50: 3 chunks
              "channels": ((X1, T((3, 3, 3))), None), "kernel_too_big": ((X1, T((3, 4, 12))), None),
              "bias_size": ((X1, T((3, 4, 3)), T((4,))), None), "input_4d": ((X2, W1), None)}),
    Op("conv2d", X2, W2, T((6,)), [2, 1], [1, 0], [1, 2], 2, tol=D, zerodim=False,
       extra={"defaults": ((X2, T((3, 4, 3, 3))), None), "pointwise": ((X2, T((5, 4, 1, 1)), T((5,))), None),
              "patches": ((T((1, 3, 8, 8)), T((5, 3, 4, 4)), T((5,)), [4, 4]), None),
              "depthwise": ((X2, T((4, 1, 3, 3)), None, [1], [1], [1], 4), None),
              # K >= 32: the split-K sums of Note [Convolution sums] (K = 144: 8 chunks)
              "deep": ((T((2, 16, 6, 7)), T((5, 16, 3, 3)), T((5,)), [1], [1], [1], 1), None),
              "deep_bf16": ((C("make((2, 16, 6, 7), torch.bfloat16, seed=1)"), C("make((5, 16, 3, 3), torch.bfloat16, seed=2)"),
                             C("make((5,), torch.bfloat16, seed=3)"), [1], [1], [1], 1), None),
              "deep_channels_last": ((C("make((2, 16, 6, 7), torch.{dtype}, seed=1).contiguous(memory_format=torch.channels_last)"),
                                      T((6, 8, 3, 3)), None, [2], [1], [1], 2), None),
              "depthwise_mult": ((X2, T((8, 1, 3, 2)), T((8,)), [2, 1], [1, 1], [1, 2], 4), None),
              "depthwise_t": ((C("make((2, 4, 7, 8), torch.{dtype}, seed=1, layout='t')"), T((4, 1, 3, 3)), T((4,)),
                               [1], [2], [1], 4), None),
              "depthwise_bf16": ((C("make((2, 4, 7, 8), torch.bfloat16, seed=1)"), C("make((4, 1, 3, 3), torch.bfloat16, seed=2)"),
                                  C("make((4,), torch.bfloat16, seed=3)"), [1], [1], [1], 4), None),
              "depthwise_f16": ((C("make((2, 4, 7, 8), torch.float16, seed=1)"), C("make((4, 1, 3, 3), torch.float16, seed=2)"),
                                 None, [1], [1], [1], 4), None),
              "depthwise_f64": ((C("make((2, 4, 7, 8), torch.float64, seed=1)"), C("make((8, 1, 3, 3), torch.float64, seed=2)"),
                                 C("make((8,), torch.float64, seed=3)"), [1], [1], [2], 4), None),
              "unbatched": ((T((4, 7, 8)), T((3, 4, 2, 2))), None),
              "weight_3d": ((X2, W1), None),
              "channels_last": ((C("make((2, 4, 7, 8), torch.{dtype}, seed=1).contiguous(memory_format=torch.channels_last)"),
                                 W2, T((6,)), [1], [1], [1], 2), None),
              "channels_last_weight": ((X2, C("make((3, 4, 3, 3), torch.{dtype}, seed=2).contiguous(memory_format=torch.channels_last)")), None), "groups_divide": ((X2, T((5, 2, 3, 3)), None, [1], [0], [1], 2), None)}),
    Op("conv3d", X3, W3, T((3,)), [1, 2, 1], [1, 0, 0], [1, 1, 2], 1, tol=D, zerodim=False,
       extra={"defaults": ((X3, T((4, 2, 1, 2, 3))), None), "unbatched": ((T((2, 5, 4, 6)), W3), None),
              # float32 sums in double (Note [Convolution sums]): one output channel as OpInfo's,
              # K = 108 with a bias, groups, and enough columns for threads
              "one_channel_strided": ((T((1, 1, 4, 4, 4)), T((1, 1, 4, 4, 4)), T((1,)), [2, 2, 2]), None),
              "deep": ((T((2, 4, 5, 6, 7)), T((3, 4, 3, 3, 3)), T((3,)), [1], [1], [1], 1), None),
              "groups": ((T((2, 6, 3, 4, 9)), T((6, 3, 3, 1, 4)), T((6,)), [1], [0], [1], 2), None),
              "wide_threads": ((T((1, 8, 8, 16, 16)), T((5, 8, 3, 3, 3)), T((5,)), [1], [1], [1], 1), None)}),
    Op("conv1d.padding", X1, T((3, 4, 4)), T((3,)), [1], "same", [1], 1, tol=D, zerodim=False,
       extra={"valid": ((X1, W1, None, [1], "valid", [1], 2), None),
              "same_odd": ((X1, W1, None, [1], "same", [2], 2), None),
              "same_strided": ((X1, W1, None, [2], "same", [1], 2), None),
              "bad_string": ((X1, W1, None, [1], "full", [1], 2), None)}),
    Op("conv2d.padding", X2, T((3, 4, 4, 3)), T((3,)), [1, 1], "same", [1, 2], 1, tol=D, zerodim=False,
       extra={"valid": ((X2, W2, None, [1], "valid", [1], 2), None),
              "same_even_dilated": ((X2, T((3, 4, 2, 2)), None, [1], "same", [2], 1), None)}),
    # transposed (Note [Transposed convolution] in ops/conv.c): weights [C_in, C_out / groups, k...]
    Op("conv_transpose1d", X1, T((4, 3, 3)), T((6,)), [2], [1], [1], 2, [2], tol=D, zerodim=False,
       extra={"defaults": ((X1, T((4, 2, 3))), None), "unbatched": ((T((4, 9)), T((4, 3, 3))), None),
              "input_4d": ((X2, T((4, 3, 3))), None)}),
    Op("conv_transpose2d.input", X2, T((4, 3, 3, 2)), T((6,)), [2, 1], [1, 0], [1, 0], 2, [1, 2], tol=D,
       zerodim=False, extra={"defaults": ((X2, T((4, 3, 3, 3))), None),
                             "unbatched": ((T((4, 7, 8)), T((4, 2, 2, 2)), T((2,))), None),
                             "depthwise": ((X2, T((4, 1, 3, 3)), None, [1], [1], [0], 4), None),
                             # output_padding past the stride, below the dilation
                             "output_padding_dilated": ((X2, T((4, 3, 3, 2)), T((3,)), [2, 1], [1], [3, 1], 1, [4, 3]),
                                                        None),
                             "bad_rank": ((T((7, 8)), T((4, 3, 3, 3))), None)}),
    Op("conv_transpose3d.input", X3, T((2, 2, 2, 3, 2)), None, [1, 2, 1], [0, 1, 0], [0, 1, 0], 1, [1, 1, 2],
       tol=D, zerodim=False, extra={"defaults": ((X3, T((2, 3, 2, 2, 2))), None),
                                    "unbatched": ((T((2, 5, 4, 6)), T((2, 3, 2, 2, 2))), None)}),
    Op("conv3d.padding", X3, W3, None, [1, 1, 1], "same", [1, 1, 1], 1, tol=D, zerodim=False,
       extra={"valid": ((X3, W3, None, [1], "valid", [1], 1), None)}),
]

CASES = expand_all(OPS)

# Note [Padding times a non-finite weight] (ops/conv.c): the slow convolutions multiply each padded
# zero by its weight, so an infinite or NaN weight makes NaN of every output whose window puts it over
# padding: float64 and bfloat16 always (no oneDNN path for them on AVX2; float16 likewise), float32 where
# use_mkldnn declines (one image of one channel, a 3 x 3 or smaller kernel, under 20480 elements). The
# depthwise loop (one input channel per group) skipped the padding (seed 16 #384904). Exact: NaN for NaN.
for _dt in ("float64", "bfloat16", "float16", "float32"):
    _w = f"torch.tensor([1.0, float('nan'), 0.0, 1e-30], dtype=torch.{_dt}).reshape((1, 1, 4, 1))"
    _x = f"torch.tensor([0.0, 0.0, -1.25, -0.0], dtype=torch.{_dt}).reshape((1, 1, 4, 1))"
    CASES[f"conv2d_nan_weight_over_padding_{_dt}"] = {
        "code": f"out = torch.conv2d({_x}, {_w}, stride=[4, 2], padding=[1])"}
    CASES[f"conv2d_inf_weight_over_padding_{_dt}"] = {
        "code": f"w = torch.ones(1, 1, 3, 3, dtype=torch.{_dt}); w[0, 0, 0, 0] = float('inf'); "
                f"out = torch.conv2d(torch.ones(1, 1, 5, 5, dtype=torch.{_dt}), w, padding=1)"}
for _dt in ("float64", "bfloat16"):
    CASES[f"conv2d_depthwise_inf_weight_over_padding_{_dt}"] = {
        "code": f"w = torch.ones(4, 1, 3, 3, dtype=torch.{_dt}); w[0, 0, 0, 0] = float('inf'); w[3, 0, 2, 1] = float('nan'); "
                f"out = torch.conv2d(torch.ones(2, 4, 6, 6, dtype=torch.{_dt}), w, padding=1, stride=[1, 2], groups=4)"}
    CASES[f"conv1d_depthwise_inf_weight_over_padding_{_dt}"] = {
        "code": f"w = torch.ones(2, 1, 3, dtype=torch.{_dt}); w[1, 0, 2] = float('-inf'); "
                f"out = torch.conv1d(torch.ones(1, 2, 7, dtype=torch.{_dt}), w, padding=2, dilation=2, groups=2)"}
    CASES[f"conv3d_depthwise_nan_weight_over_padding_{_dt}"] = {
        "code": f"w = torch.ones(2, 1, 2, 2, 2, dtype=torch.{_dt}); w[0, 0, 1, 1, 1] = float('nan'); "
                f"out = torch.conv3d(torch.ones(1, 2, 3, 3, 3, dtype=torch.{_dt}), w, padding=1, groups=2)"}
