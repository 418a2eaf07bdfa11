"""2-D pooling and upsampling kernels (ops/pool.c over kernels/pool.c), expanded by spell.py: every
claimed dtype and layout, channels-last inputs (results stay channels-last), padding, ceil_mode,
dilation, count_include_pad, divisor_override, NaN in max pooling (upstream keeps the last NaN's
index), the .vec overloads' output size and scales, and upstream's argument errors. Averages and
bilinear weights are derived (upstream's vector bodies divide and sum in their own orders)."""
from spell import C, Op, T, expand_all

D = "derived"
X = T((2, 3, 7, 8))


def cl(shape, seed=1, dtype="{dtype}"):
    return C(f"make({shape!r}, torch.{dtype}, seed={seed}).contiguous(memory_format=torch.channels_last)")


NAN = C("torch.tensor([[[[1.0, float('nan'), 3.0, 0.5], [float('nan'), 2.0, -1.0, 4.0], "
        "[0.0, 5.0, float('nan'), float('-inf')], [float('-inf'), float('-inf'), 1.0, 2.0]]]], dtype=torch.{dtype})")
SP = ("aten", "nn")
OPS = [
    Op("_adaptive_avg_pool2d", X, [3, 5], tol=D, spell=("aten",),
       extra={"cl": ((cl((2, 5, 9, 11)), [4, 3]), None), "cl_wide": ((cl((1, 19, 6, 5)), [4, 2]), None),
              "3d": ((T((3, 9, 11)), [4, 3]), None), "same": ((X, [7, 8]), None), "grow": ((X, [9, 11]), None),
              "zero_out": ((X, [0, 2]), None), "no_channels": ((T((2, 0, 5, 5)), [2, 2]), None),
              "bad_len": ((X, [2]), None), "bad_rank": ((T((5, 5)), [2, 2]), None),
              "empty_spatial": ((T((1, 2, 0, 5)), [2, 2]), None)}),
    Op("avg_pool2d", X, [3, 2], [2, 1], [1, 1], True, False, None, tol=D, spell=SP,
       extra={"defaults": ((X, [2]), None), "include_pad": ((X, [3, 3], [2, 2], [1, 1], False, True), None),
              "divisor": ((X, [2, 3], [1, 2], [0, 1], False, True, 5), None),
              "ceil_edge": ((T((1, 2, 5, 5)), [3], [2], [1], True, True), None),
              "cl": ((cl((2, 5, 9, 11)), [3, 2], [2, 1], [1, 1], True, False), None),
              "cl_divisor": ((cl((1, 19, 6, 5)), [2], [2], [1], False, True, -3), None),
              "3d": ((T((3, 7, 8)), [2, 3], [2, 2]), None),
              "bad_pad": ((X, [2], [2], [2]), None), "bad_divisor": ((X, [2], [2], [0], False, True, 0), None),
              "bad_kernel_len": ((X, [2, 2, 2]), None), "bad_stride_len": ((X, [2], [1, 1, 1]), None),
              "zero_stride": ((X, [2], [0]), None), "too_small": ((T((1, 1, 1, 1)), [3], [1], [1]), None),
              "rank2": ((T((5, 5)), [2]), None), "empty_spatial": ((T((1, 2, 0, 5)), [2]), None)}),
    Op("max_pool2d_with_indices", X, [3, 2], [2, 1], [1, 1], [2, 1], True, spell=SP,
       extra={"defaults": ((X, [2]), None), "s2p1": ((X, [3], [2], [1]), None),
              "cl": ((cl((2, 5, 9, 11)), [3, 2], [2, 1], [1, 1], [2, 1], True), None),
              "cl_s2p1": ((cl((1, 19, 8, 7)), [3], [2], [1]), None),
              "3d": ((T((3, 7, 8)), [2, 3], [2, 2]), None),
              "nan": ((NAN, [2], [1]), None), "nan_pad": ((NAN, [3], [2], [1]), None),
              "int32": ((T((2, 3, 7, 8), dtype="int32"), [2]), None),
              "bad_pad": ((X, [2], [2], [2]), None), "bad_dilation": ((X, [2], [1], [0], [0, 1]), None),
              "bad_kernel_len": ((X, [2, 2, 2]), None), "bad_dilation_len": ((X, [2], [], [0], [1, 1, 1]), None),
              "zero_kernel": ((X, [0, 2]), None), "too_small": ((T((1, 1, 1, 1)), [3]), None),
              "rank2": ((T((5, 5)), [2]), None), "empty_spatial": ((T((1, 2, 0, 5)), [2]), None)}),
    Op("upsample_nearest2d", T((2, 3, 5, 4)), [7, 9], None, None, spell=SP,
       extra={"twice": ((T((2, 3, 5, 4)), [10, 8]), None), "down": ((T((2, 3, 5, 4)), [3, 2]), None),
              "scales": ((T((2, 3, 5, 4)), [8, 7], 1.7, 1.9), None),
              "cl": ((cl((2, 5, 5, 4)), [7, 9]), None), "cl_scales": ((cl((1, 19, 5, 4)), [8, 7], 1.7, 1.9), None),
              "bad_len": ((T((2, 3, 5, 4)), [3]), None), "zero_out": ((T((2, 3, 5, 4)), [0, 3]), None),
              "rank3": ((T((3, 5, 4)), [3, 3]), None), "empty_batch": ((T((0, 3, 5, 4)), [3, 3]), None)}),
    Op("upsample_bilinear2d", T((2, 3, 5, 4)), [7, 9], False, None, None, tol=D, spell=SP,
       extra={"align": ((T((2, 3, 5, 4)), [7, 9], True), None), "down": ((T((2, 3, 5, 4)), [3, 2], False), None),
              "down_align": ((T((2, 3, 5, 4)), [3, 1], True), None),
              "scales": ((T((2, 3, 5, 4)), [8, 7], False, 1.7, 1.9), None),
              "scales_align": ((T((2, 3, 5, 4)), [8, 7], True, 1.7, 1.9), None),
              "same": ((T((2, 3, 5, 4)), [5, 4], False), None),
              "cl": ((cl((2, 5, 5, 4)), [7, 9], False), None), "cl_align": ((cl((1, 19, 5, 4)), [8, 7], True), None),
              "bad_len": ((T((2, 3, 5, 4)), [3], False), None), "zero_out": ((T((2, 3, 5, 4)), [0, 3], False), None)}),
    Op("upsample_nearest2d.vec", T((2, 3, 5, 4)), [7, 9], None, spell=("aten",),
       extra={"factors": ((T((2, 3, 5, 4)), None, [1.7, 2.0]), None),
              "cl": ((cl((2, 5, 5, 4)), None, [2.0, 2.0]), None),
              "both": ((T((2, 3, 5, 4)), [7, 9], [2.0, 2.0]), None),
              "neither": ((T((2, 3, 5, 4)), None, None), None),
              "short": ((T((2, 3, 5, 4)), [7], None), None),
              "tiny_factor": ((T((2, 3, 5, 4)), None, [0.1, 0.1]), None)}),
    Op("upsample_bilinear2d.vec", T((2, 3, 5, 4)), [7, 9], False, None, tol=D, spell=("aten",),
       extra={"factors": ((T((2, 3, 5, 4)), None, False, [1.7, 2.0]), None),
              "factors_align": ((T((2, 3, 5, 4)), None, True, [0.6, 1.5]), None),
              "cl": ((cl((2, 5, 5, 4)), None, False, [2.0, 2.0]), None),
              "neither": ((T((2, 3, 5, 4)), None, False, None), None)}),
]

CASES = expand_all(OPS)


# Through torch.nn.functional (the cases these overloads had as decompositions at the door), named
# <overload>/F_<what>; exact unless marked.
CL = "randn(1, 2, 3, 6, seed=1).contiguous(memory_format=torch.channels_last)"


def add(overload, code, exact=False):
    for name, c in code.items():
        spec = {"code": f"out = {c}"}
        if not exact:
            spec["tol"] = D
        CASES[f"{overload}/F_{name}"] = spec


add("max_pool2d_with_indices_backward", {"0": "torch.ops.aten.max_pool2d_with_indices_backward(torch.ones(1, 1, 1, 1), randn(1, 1, 2, 2), [2, 2], [2, 2], [0, 0], [1, 1], False, literal([[[[2]]]], torch.int64))"}, exact=True)
add("_adaptive_avg_pool2d", {"0": "torch.ops.aten._adaptive_avg_pool2d(randn(1, 2, 5, 7, seed=1), [2, 3])"})
add("max_pool2d_with_indices", {"0": "torch.nn.functional.max_pool2d(randn(2, 3, 5, 5, seed=1), 2, return_indices=True)",
                                "cl": f"torch.nn.functional.max_pool2d({CL}, 3, 2, dilation=(1, 2), return_indices=True)",
                                "pad": "torch.nn.functional.max_pool2d(randn(1, 4, 4, seed=1), 3, 2, 1, ceil_mode=True, return_indices=True)"}, exact=True)
add("avg_pool2d", {"0": "torch.nn.functional.avg_pool2d(randn(2, 3, 5, 6, seed=1), 2)",
                   "pad": "torch.nn.functional.avg_pool2d(randn(1, 2, 5, 5, seed=1), 3, 2, 1, ceil_mode=True)",
                   "nopad": "torch.nn.functional.avg_pool2d(randn(1, 2, 5, 5, seed=1), 3, 2, 1, ceil_mode=True, count_include_pad=False)",
                   "divisor": "torch.nn.functional.avg_pool2d(randn(2, 5, 5, seed=1), (2, 3), (1, 2), divisor_override=4)",
                   "cl": "torch.nn.functional.avg_pool2d(randn(1, 2, 4, 6, seed=1).contiguous(memory_format=torch.channels_last), 2)",
                   "bad_pad": "torch.nn.functional.avg_pool2d(randn(1, 2, 5, 5, seed=1), 2, padding=2)",
                   "small": "torch.nn.functional.avg_pool2d(randn(1, 2, 1, 1, seed=1), 2)"})
