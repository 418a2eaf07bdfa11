"""Reduction and scan kernels (ops/reduce.c), expanded by spell.py: every spelling,
claimed dtype and layout; dim lists, keepdim, dtype=, empty and 0-dim inputs. Float results
are derived (the order of summation is the kernel's); integer and bool results are exact."""
from spell import C, Op, T, expand_all

D = "derived"
X3 = T((2, 3, 4))
NANS = C("literal([[1.0, nan, 2.0], [nan, nan, nan], [0.5, -1.0, 3.0]], torch.{dtype})")
KEEP = {"keepdim": True}
OPS = [
    Op("sum", T(), tol=D, extra={"dtype_f64": ((T(),), {"dtype": C("torch.float64")}), "int": ((T(dtype="int32"),), {})}),
    Op("sum.dim_IntList", X3, [1], tol=D, extra={"keepdim": ((X3, [1], True), None), "two_dims": ((X3, [0, 2]), None),
                                                 "none": ((X3, None), None), "negative": ((X3, [-1]), None),
                                                 "dtype": ((X3, [1]), {"dtype": C("torch.float64")}),
                                                 "empty_list": ((X3, []), None)}),
    Op("nansum", X3, [1], tol=D, extra={"nans": ((NANS, [1]), None), "all": ((NANS,), None)}),
    Op("prod", T(role="unit"), tol=D, extra={"int": ((T(dtype="int64", role="unit"),), {})}),
    Op("prod.dim_int", X3, 1, tol=D, extra={"keepdim": ((X3, 1, True), None), "dtype": ((X3, 2), {"dtype": C("torch.float64")})}),
    Op("mean", T(), tol=D, extra={"dtype": ((T(),), {"dtype": C("torch.float64")})}),
    Op("mean.dim", X3, [1], tol=D, extra={"keepdim": ((X3, [0, 2], True), None), "none": ((X3, None), None)}),
    Op("nanmean", X3, [1], tol=D, extra={"nans": ((NANS, [1]), None), "all": ((NANS,), None)}),
    Op("amax", X3, [1], extra={"keepdim": ((X3, [0, 2], True), None), "all": ((X3,), None), "nans": ((NANS, [1]), None)}),
    Op("amin", X3, [1], extra={"keepdim": ((X3, [0, 2], True), None), "all": ((X3,), None), "nans": ((NANS, [0]), None)}),
    Op("max", T(), extra={"nans": ((NANS,), None)}),
    Op("min", T(), extra={"nans": ((NANS,), None)}),
    Op("max.dim", X3, 1, extra={"keepdim": ((X3, 2, True), None), "ties": ((T(role="unit", dtype="int64"), 1), None),
                                "nans": ((NANS, 1), None)}),
    Op("min.dim", X3, 1, extra={"keepdim": ((X3, 2, True), None), "ties": ((T(role="unit", dtype="int64"), 1), None),
                                "nans": ((NANS, 1), None)}),
    Op("argmax", X3, 1, extra={"all": ((X3,), None), "keepdim": ((X3, 0, True), None),
                               "ties": ((T(role="unit", dtype="int64"), 1), None)}),
    Op("argmin", X3, 1, extra={"all": ((X3,), None), "keepdim": ((X3, 0, True), None),
                               "ties": ((T(role="unit", dtype="int64"), 1), None)}),
    Op("any", T(role="mask")),
    Op("any.dim", X3, 1, extra={"keepdim": ((X3, 1, True), None), "mask": ((T(role="mask"), 0), None)}),
    Op("any.dims", X3, [0, 2], extra={"none": ((X3,), None), "keepdim": ((X3, [1], True), None)}),
    Op("all", T(role="mask")),
    Op("all.dim", X3, 1, extra={"keepdim": ((X3, 1, True), None), "mask": ((T(role="mask"), 0), None)}),
    Op("all.dims", X3, [0, 2], extra={"none": ((X3,), None), "keepdim": ((X3, [1], True), None)}),
    Op("logsumexp", X3, [1], tol=D, extra={"keepdim": ((X3, [0, 2], True), None),
                                          "inf": ((C("literal([[-inf, -inf], [inf, 1.0]], torch.{dtype})"), [1]), None)}),
    Op("count_nonzero", T(role="unit"), extra={"dim": ((T(role="unit"), 1), None)}),
    Op("count_nonzero.dim_IntList", X3, [0, 2]),
    Op("linalg_vector_norm", X3, 2, [1], tol=D, extra={
        "inf": ((X3, float("inf"), [1]), None), "neg_inf": ((X3, float("-inf")), None), "one": ((X3, 1), None),
        "zero": ((X3, 0, [2]), None), "three": ((X3, 3, [0, 2], True), None),
        "dtype": ((X3, 2), {"dtype": C("torch.float64")})},
        spell_extra={"linalg": "torch.linalg.vector_norm({0}, {1}, {2})"}),
    Op("norm.ScalarOpt_dim", X3, 2, [1], tol=D, extra={"keepdim": ((X3, 1, [0, 2], True), None), "none_p": ((X3, None, [1]), None)}),
    Op("norm.Scalar", T(), 2, tol=D, extra={"p1": ((T(), 1), None), "inf": ((T(), float("inf")), None)}),
    Op("var.correction", X3, [1], kw={"correction": 1}, tol=D, extra={
        "none": ((X3, None), {"correction": 0}), "keepdim": ((X3, [0, 2]), {"correction": 1, "keepdim": True}),
        "default": ((X3,), {}), "big_correction": ((X3, [1]), {"correction": 5})}),
    Op("std.correction", X3, [1], kw={"correction": 1}, tol=D, extra={"none": ((X3, None), {"correction": 0})}),
    Op("var_mean.correction", X3, [1], kw={"correction": 1}, tol=D, extra={"keepdim": ((X3, [2]), {"keepdim": True})}),
    Op("std_mean.correction", X3, [1], kw={"correction": 1}, tol=D, extra={"none": ((X3, None), {"correction": 0})}),
    Op("var", T(), tol=D, extra={"biased": ((T(), False), None)}),
    Op("var.dim", X3, [1], tol=D, extra={"biased_keepdim": ((X3, [0, 2], False, True), None)}),
    Op("var_mean", T(), tol=D, extra={"biased": ((T(), False), None)}),
    Op("var_mean.dim", X3, [1], tol=D, extra={"biased": ((X3, [2], False), None)}),
    Op("std", T(), tol=D, extra={"biased": ((T(), False), None)}),
    Op("std.dim", X3, [1], tol=D, extra={"biased_keepdim": ((X3, [0, 2], False, True), None)}),
    Op("std_mean", T(), tol=D, extra={"biased": ((T(), False), None)}),
    Op("std_mean.dim", X3, [1], tol=D, extra={"biased": ((X3, [2], False), None)}),
    Op("cumsum", X3, 1, tol=D, extra={"dtype": ((X3, 2), {"dtype": C("torch.float64")}), "negative": ((X3, -1), None)}),
    Op("cumprod", X3, 1, tol=D, extra={"dtype": ((X3, 2), {"dtype": C("torch.float64")})}),
    Op("cummax", X3, 1, extra={"ties": ((T(role="unit", dtype="int64"), 1), None), "nans": ((NANS, 1), None)}),
    Op("cummin", X3, 1, extra={"ties": ((T(role="unit", dtype="int64"), 1), None), "nans": ((NANS, 1), None)}),
    Op("logcumsumexp", X3, 1, tol=D, extra={"inf": ((C("literal([[-inf, 1.0, -inf], [inf, 1.0, inf]], torch.{dtype})"), 1), None)}),
]

CASES = expand_all(OPS)
