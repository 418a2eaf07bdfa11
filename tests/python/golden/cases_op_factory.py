"""Copy and factory kernels (ops/factory.c), expanded by spell.py. Factories sweep the
dtype= argument over the claimed dtypes; uninitialised results (empty*, new_empty*, a grown
resize_) are compared by geometry and dtype only (spell.META)."""
from spell import META, C, Op, S, T, expand_all

DT = {"dtype": C("torch.{dtype}")}
STORAGE = C("make((8,), torch.{dtype}, seed=9).untyped_storage()")
OPS = [
    Op("clone", T(), extra={"contiguous_format": ((T(),), {"memory_format": C("torch.contiguous_format")}),
                            "preserve": ((T(),), {"memory_format": C("torch.preserve_format")})}),
    Op("_to_copy", T(), extra={f"to_{d}": ((T(),), {"dtype": C(f"torch.{d}")})
                               for d in ("bool", "uint8", "int8", "int32", "int64", "float16", "bfloat16", "float64")}),
    Op("type_as", T(), T(dtype="float64", vary=False), extra={"to_int": ((T(), T(dtype="int32")), None),
                                                              "same": ((T(), T()), None)}),
    Op("copy_", T(), T(), extra={"bcast": ((T(), T((4,))), None), "from_int": ((T(), T(dtype="int64")), None),
                                 "from_f64": ((T(), T(dtype="float64")), None), "to_int": ((T(dtype="int32"), T()), None),
                                 "non_blocking": ((T(), T(), True), None), "shape_error": ((T(), T((4, 3))), None)}),
    Op("fill_.Scalar", T(), S, extra={"int": ((T(), 3), None), "bool": ((T(), True), None),
                                      "overflow": ((T(dtype="int8"), 300), None)}),
    Op("fill_.Tensor", T(), T((), vary=False), extra={"other_dtype": ((T(), T((), dtype="int64")), None),
                                                      "not_0dim": ((T(), T((1,))), None)}),
    Op("zero_", T()),
    Op("empty.memory_format", [2, 3], kw=DT, post=META, extra={"no_dtype": (([2, 0],), {})}),
    Op("empty_strided", [2, 3], [1, 2], kw=DT, post=META, extra={"zero": (([2, 0], [1, 1]), {})}),
    Op("zeros", [2, 3], kw=DT, extra={"no_dtype": (([2, 3],), {}), "empty": (([0, 3],), DT)}),
    Op("ones", [2, 3], kw=DT, extra={"no_dtype": (([2, 3],), {})}),
    Op("full", [2, 3], S, kw=DT, extra={"infer_int": (([2, 3], 7), {}), "infer_float": (([2, 3], 2.5), {}),
                                        "infer_bool": (([2, 3], True), {}), "overflow": (([2], 300), {"dtype": C("torch.int8")})}),
    Op("arange", 5, kw=DT, extra={"no_dtype": ((5,), {}), "float_end": ((4.5,), {})}),
    Op("arange.start", 2, 7, kw=DT, extra={"negative": ((-3, 2), {}), "float": ((0.5, 3), {})}),
    Op("arange.start_step", 1, 10, 3, kw=DT, extra={"float_step": ((0, 1, 0.1), {}), "negative_step": ((5, -2, -2), {}),
                                                    "zero_step": ((0, 5, 0), {}), "wrong_sign": ((0, 5, -1), {}),
                                                    # past 32768 elements: the parallel chunks (Note [arange values])
                                                    "chunks_f32": ((-2.25, 7000.0, 0.1), {}),
                                                    "chunks_f64": ((-2.25, 7000.0, 0.1), {"dtype": C("torch.float64")}),
                                                    "chunks_int16": ((5, 10**6, 3), {"dtype": C("torch.int16")})}),
    Op("linspace", 0, 1, 5, kw=DT, extra={"no_dtype": ((-2, 3.5, 7), {}), "one_step": ((1, 5, 1), {}),
                                          "zero_steps": ((1, 5, 0), {}), "reverse": ((3, -1, 9), {})}),
    Op("empty_like", T(), post=META, extra={"dtype": ((T(),), {"dtype": C("torch.int64")})}),
    Op("zeros_like", T(), extra={"dtype": ((T(),), {"dtype": C("torch.int64")})}),
    Op("ones_like", T(), extra={"dtype": ((T(),), {"dtype": C("torch.float64")})}),
    Op("full_like", T(), S, extra={"float_in_int": ((T(dtype="int64"), 2.5), None), "dtype": ((T(), 3), {"dtype": C("torch.int16")})}),
    Op("scalar_tensor", S, kw=DT, extra={"no_dtype": ((2.5,), {}), "int": ((3,), {})}),
    Op("eye", 3, kw=DT, extra={"zero": ((0,), DT), "no_dtype": ((4,), {})}),
    Op("eye.m", 3, 4, kw=DT, extra={"tall": ((4, 2), DT)}),
    Op("_local_scalar_dense", T(()), spell_extra={"item": "{0}.item()"}, extra={"one_elem": ((T((1, 1)),), None),
                                                                                   "many": ((T(),), None)}),
    Op("new_empty", T(), [2, 3], post=META, extra={"dtype": ((T(), [4]), {"dtype": C("torch.int64")})}),
    Op("new_empty_strided", T(), [2, 3], [1, 2], post=META),
    Op("new_zeros", T(), [2, 3], extra={"dtype": ((T(), [4]), {"dtype": C("torch.int64")})}),
    Op("new_ones", T(), [2, 3]),
    Op("new_full", T(), [2, 3], S, extra={"float_fill_int": ((T(dtype="int32"), [2], 2.5), None)}),
    # shrinking only: the elements a grown resize_ adds are uninitialised (resize_/grow below)
    Op("resize_", T(), [2, 3], extra={"same": ((T(), [3, 4]), None), "flat": ((T(), [12]), None)},
       layouts=("t", "slice", "offset"), empty=False, zerodim=False),
    Op("set_", T(), post="(a0.shape, a0.stride(), r is a0)"),
    Op("to.dtype", T(), C("torch.float64"), extra={"same": ((T(), C("torch.{dtype}")), None),
                                                   "copy": ((T(), C("torch.{dtype}"), False, True), None),
                                                   "to_int": ((T(), C("torch.int32")), None)}),
    Op("to.device", T(), C("torch.device('cpu')"), C("torch.float64"),
       extra={"same": ((T(), C("torch.device('cpu')"), C("torch.{dtype}")), None),
              "copy": ((T(), C("torch.device('cpu')"), C("torch.{dtype}"), False, True), None)}),
    Op("to.other", T(), T(dtype="float64", vary=False), extra={"same": ((T(), T()), None),
                                                               "copy": ((T(), T(), False, True), None)}),
    Op("to.dtype_layout", T(), kw={"dtype": C("torch.float64")},
       extra={"nothing": ((T(),), {}), "copy": ((T(),), {"copy": True}),
              "same": ((T(),), {"dtype": C("torch.{dtype}"), "device": C("torch.device('cpu')")})}),
    Op("set_.source_Storage", T(), STORAGE),
    Op("set_.source_Storage_storage_offset", T(), STORAGE, 1, [2, 3], [3, 1]),
    Op("set_.source_Tensor", T(), T((2, 5), vary=False)),
    Op("set_.source_Tensor_storage_offset", T(), T((8,), vary=False), 1, [2, 3], [1, 2]),
]
CASES = expand_all(OPS)
# a resize_ that grows keeps the old elements in front; the new ones are uninitialised
CASES["resize_/grow"] = ("a0 = make((3, 4), torch.float32, seed=1); r = torch.ops.aten.resize_.default(a0, [4, 5]); "
                         "out = (a0.shape, a0.stride(), r is a0, a0.reshape(-1)[:12])")
