"""Closeness and equality (ops/compare.c over kernels/compare.c): isclose, allclose and equal
for every claimed dtype; NaN, infinities and signed zeros with and without equal_nan;
tolerances at and around the boundary in each float dtype (Note [isclose rounding]); integers
compared in the default dtype; broadcasting; upstream's argument errors."""
from spell import C, Op, T, expand_all

NAN, INF = float("nan"), float("inf")
EDGE_X = [1.0, NAN, INF, -INF, INF, 0.0, -0.0, 1e-8, 100.0, 3.0, NAN, 1e-3]
EDGE_Y = [1.0, NAN, INF, -INF, -INF, -0.0, 0.0, 0.0, 100.001, NAN, 2.0, 1.1e-3]
# y = x (1 + k rtol) for k around 1: which side of `|x - y| <= atol + rtol |y|` each lands on
# depends on the dtype's rounding of every step
NEAR_X = [1.0, -2.0, 3.5, 1000.0, 0.1, 7.0, -0.25, 65.0, 1e-6, 12345.0, 2.0, 0.5]
NEAR_K = [0.0, 0.5, 0.9, 0.99, 1.0, 1.01, 1.1, 1.5, 2.0, -1.0, -0.99, 1.001]


def near(rtol):
    return [x * (1 + k * rtol) for x, k in zip(NEAR_X, NEAR_K)]


def lit(values, dtype):
    return C(f"literal({values!r}, torch.{dtype})")


INT_X = {"uint8": [0, 1, 255, 7, 100, 3], "int8": [0, -1, 127, -128, 100, 3], "int16": [0, -1, 32767, -5, 1000, 3],
         "int32": [0, -1, 100000, -5, 2**31 - 1, 3], "int64": [0, -1, 100000, -5, 2**53 + 1, 3],
         "uint16": [0, 1, 65535, 7, 1000, 3], "uint32": [0, 1, 2**32 - 1, 7, 100000, 3],
         "uint64": [0, 1, 2**63 + 5, 7, 100000, 3], "bool": [True, False, True, False, True, True]}
INT_Y = {"uint8": [0, 2, 254, 7, 100, 4], "int8": [0, -2, 127, -127, 101, 3], "int16": [0, -1, 32766, -5, 1001, 4],
         "int32": [0, -2, 100001, -5, 2**31 - 2, 4], "int64": [1, -1, 100001, -5, 2**53, 3],
         "uint16": [0, 2, 65534, 7, 1000, 4], "uint32": [0, 2, 2**32 - 2, 7, 100001, 3],
         "uint64": [1, 1, 2**63 + 4, 7, 100001, 3], "bool": [True, True, False, False, True, False]}
# (a NaN imaginary part has no repr the recorded inputs can read back: NaN real parts only)
COMPLEX_X = [1 + 1j, 2 - 1j, complex(NAN, 0), complex(NAN, 2), complex(INF, 0), 1e-9j, 0j, 3 + 4j]
COMPLEX_Y = [1 + 1j, 2 - 1.00001j, complex(NAN, 1), complex(1, 2), complex(INF, 0), 0j, -0j, 3 + 4.0001j]
FLOATS = ("float16", "bfloat16", "float32", "float64")


def close_extras(bool_result):
    ex = {}
    for d in FLOATS:
        ex[f"edge_{d}"] = ((lit(EDGE_X, d), lit(EDGE_Y, d)), None)
        ex[f"edge_{d}_equal_nan"] = ((lit(EDGE_X, d), lit(EDGE_Y, d)), {"equal_nan": True})
        ex[f"near_{d}"] = ((lit(NEAR_X, d), lit(near(1e-5), d)), None)
        ex[f"near_rtol_1e-2_{d}"] = ((lit(NEAR_X, d), lit(near(1e-2), d)), {"rtol": 1e-2, "atol": 1e-3})
        ex[f"atol_only_{d}"] = ((lit(NEAR_X, d), lit(near(1e-3), d)), {"rtol": 0.0, "atol": 0.01})
        ex[f"zero_tolerances_{d}"] = ((lit(EDGE_X, d), lit(EDGE_Y, d)), {"rtol": 0.0, "atol": 0.0, "equal_nan": True})
    for d in INT_X:
        ex[f"int_{d}"] = ((lit(INT_X[d], d), lit(INT_Y[d], d)), None)
    ex["int32_atol"] = ((lit(INT_X["int32"], "int32"), lit(INT_Y["int32"], "int32")), {"atol": 1.0})
    for d in ("complex64", "complex128"):
        ex[f"complex_{d}"] = ((lit(COMPLEX_X, d), lit(COMPLEX_Y, d)), None)
        ex[f"complex_{d}_equal_nan"] = ((lit(COMPLEX_X, d), lit(COMPLEX_Y, d)), {"equal_nan": True})
    ex["broadcast"] = ((T((3, 4)), C("a0[1].clone()")), None)
    ex["bad_broadcast"] = ((T((2, 3)), T((2,))), None)
    ex["dtype_mismatch"] = ((T(), T(dtype="float64")), None)
    ex["negative_rtol"] = ((T(), C("a0.clone()")), {"rtol": -1.0})
    ex["negative_atol"] = ((T(), C("a0.clone()")), {"atol": -0.5})
    ex["nan_rtol"] = ((T(), C("a0.clone()")), {"rtol": NAN})
    if bool_result:
        ex["one_far"] = ((lit([1.0, 2.0, 3.0], "float32"), lit([1.0, 2.0, 3.5], "float32")), None)
    return ex


OPS = [
    # the dtype sweep compares a tensor with its copy (all close); the extras hold the values
    Op("isclose", T(), C("a0.clone()"), extra=close_extras(False)),
    Op("allclose", T(), C("a0.clone()"), extra=close_extras(True), layouts=False),
    Op("equal", T(), C("a0.clone()"), extra={
        "differs": ((T(), T()), None),
        "self_nan": ((T(), C("a0.fill_(float('nan'))")), None),
        "self_no_nan": ((T(), C("a0")), None),
        "self_int": ((T(dtype="int64"), C("a0")), None),
        "nan_copies": ((lit([1.0, NAN], "float32"), lit([1.0, NAN], "float32")), None),
        "signed_zero": ((lit([0.0, -0.0], "float32"), lit([-0.0, 0.0], "float32")), None),
        "promotes": ((lit([1, 2, 3], "int64"), lit([1.0, 2.0, 3.0], "float32")), None),
        "promotes_unequal": ((lit([1, 2, 3], "int64"), lit([1.0, 2.5, 3.0], "float32")), None),
        "other_size": ((T((3, 4)), T((4, 3))), None),
        "no_broadcasting": ((T((1, 4)), C("a0.expand(3, 4)")), None),
        "strided_equal": ((T((3, 4)), C("a0.t().contiguous().t()")), None),
        "complex": ((lit(COMPLEX_X, "complex64"), lit(COMPLEX_X, "complex64")), None),
        "uint64": ((lit(INT_X["uint64"], "uint64"), lit(INT_X["uint64"], "uint64")), None),
    }),
]

CASES = expand_all(OPS)

# --- session 30 h4: eq / ne of uint16 / uint32 / uint64 (upstream's comparison kernels take the
# barebones unsigned types for these two only: kernels/binary.c bits_dtype); a Python number
# wraps into the dtype (uint16 == 65536 is == 0), a float one promotes to float32
UC = "torch.tensor([[0, 1, 3], [65535, 40000, 3]], dtype=torch.{})"
UC2 = "torch.tensor([[65535, 1, 3], [0, 40000, 2]], dtype=torch.{})"  # (flip(0) of a 2-d uint16 refuses in ours)
for _dt in ("uint16", "uint32", "uint64"):
    _u, _v = UC.format(_dt), UC2.format(_dt)
    CASES.update({
        f"eq_{_dt}": f"out = torch.eq({_u}, {_u}.flip(1))",
        f"ne_{_dt}": f"out = torch.ne({_u}, {_v})",
        f"eq_{_dt}_operator_broadcast": f"out = {_u} == {_u}[:1]",
        f"ne_{_dt}_operator_strided": f"out = {_u}.t() != {_u}.t()[:, :1]",
        f"eq_{_dt}_scalars": f"a = {_u}; out = (a == 3, a == -1, a != 65536, a == 2**32, a == 3.0, a == 3.5, a != True, a == 1j)",
        f"eq_{_dt}_zero_dim": f"a = {_u}; out = (torch.eq(a, torch.tensor(3)), torch.ne(a, torch.tensor(3, dtype=torch.{_dt})), "
                              f"torch.eq(a, torch.tensor(1, dtype=torch.uint8)), torch.eq(a, torch.tensor(3.5)))",
        f"eq_{_dt}_out_bool": f"o = torch.empty(0, dtype=torch.bool); r = torch.eq({_u}, 3, out=o); out = (r, o)",
        f"ne_{_dt}_out_self_dtype": f"o = torch.empty(2, 3, dtype=torch.{_dt}); r = torch.ne({_u}, {_u}.flip(1), out=o); out = (r, o)",
        f"eq_{_dt}_inplace": f"a = {_u}; r = a.eq_(3); out = (r, a)",
        f"ne_{_dt}_inplace_tensor": f"a = {_u}; r = a.ne_({_v}); out = (r, a)",
        f"eq_{_dt}_int64_tensor_error": f"out = torch.eq({_u}, torch.tensor([[3]]))",
        f"eq_{_dt}_meta": f"out = torch.eq({_u}.to('meta'), 3)",
        f"lt_{_dt}_error": f"out = torch.lt({_u}, {_u})",
        f"ge_{_dt}_scalar_error": f"out = {_u} >= 3",
        f"le_{_dt}_inplace_error": f"out = {_u}.le_(3)",
        f"gt_{_dt}_meta": f"out = {_u}.to('meta') > 3",
        f"where_{_dt}": f"a = {_u}; out = (torch.where(a == 3, a, a.flip(1)), torch.where(a != 0, a, 7), torch.where(a == 1, 5, a))",
        f"unique_{_dt}": f"out = torch.unique({_u}, return_inverse=True, return_counts=True)",
    })
