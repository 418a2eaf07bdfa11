"""Property kernels (ops/property.c): answers from metadata, for every spelling (the
Python properties and methods users reach them by) and every dtype."""
from spell import C, Op, T, expand_all

NO_VARIANTS = {"layouts": False, "empty": False, "zerodim": False}
# ScalarType results: torch.ops boxes them as ints (the aten spelling checks that); the sweeps
# go through torch.<name>, which returns a dtype
FN = {"via": "fn"}
OPS = [
    Op("_is_zerotensor", T()),
    Op("is_conj", T()),
    Op("is_neg", T()),
    Op("is_inference", T()),
    Op("is_floating_point", T()),
    Op("is_complex", T()),
    Op("is_signed", T()),
    Op("is_same_size", T(), T((4, 3), vary=False), extra={"same": ((T(), T()), None)}),
    Op("is_distributed", T()),
    Op("is_pinned", T(), extra={"device": ((T(), C("'cpu'")), None)}),
    # pinning needs an accelerator: upstream's CPU build raises (tests the refusal, every dtype)
    Op("pin_memory", T(), extra={"cpu_device": ((T(), C("'cpu'")), None)}),
    Op("_pin_memory", T()),
    Op("is_set_to", T(), T(), spell_extra={"self": "{0}.is_set_to({0})"}),
    Op("_has_compatible_shallow_copy_type", T(), T(dtype="int64"), spell_extra={"self": "torch._has_compatible_shallow_copy_type({0}, {0})"}),
    Op("_has_same_storage_numel", T(), T(), extra={"other_numel": ((T(), T((5,), vary=False)), None)}),
    Op("output_nr", T(), spell_extra={"property": "{0}.output_nr"}),
    Op("_version", T(), spell_extra={"property": "{0}._version"}),
    Op("retains_grad", T(), spell_extra={"property": "{0}.retains_grad"}),
    Op("size.int", T(), 1, extra={"negative": ((T(), -2), None), "out_of_range": ((T(), 2), None)},
       spell_extra={"method": "{0}.size({1})", "shape": "{0}.shape[{1}]"}),
    Op("stride.int", T(), 1, extra={"negative": ((T(), -2), None), "out_of_range": ((T(), 5), None)},
       spell_extra={"method": "{0}.stride({1})"}),
    Op("numel", T(), spell_extra={"nelement": "{0}.nelement()"}),
    Op("dim", T(), spell_extra={"ndim": "{0}.ndim", "ndimension": "{0}.ndimension()"}),
    Op("is_vulkan_available", dtypes=["float32"], **NO_VARIANTS),
    Op("result_type.Tensor", T(), T(dtype="float64", vary=False), **FN, extra={"int_0dim": ((T(), T((), dtype="int64")), None)}),
    Op("result_type.Scalar", T(), 2.5, **FN, extra={"int": ((T(), 2), None), "bool": ((T(), True), None)}),
    Op("result_type.Scalar_Tensor", 2.5, T(), **FN, extra={"int": ((3, T()), None)}),
    Op("result_type.Scalar_Scalar", 2, 2.5, dtypes=["float32"], **FN, extra={"ints": ((1, 2), None), "bool_int": ((True, 2), None)}),
    Op("can_cast", C("torch.{dtype}"), C("torch.int32"), extra={"to_bool": ((C("torch.{dtype}"), C("torch.bool")), None),
                                                                 "to_float": ((C("torch.{dtype}"), C("torch.float16")), None)}),
    Op("promote_types", C("torch.{dtype}"), C("torch.float16"), **FN, extra={"int8": ((C("torch.{dtype}"), C("torch.uint8")), None)}),
]

CASES = expand_all(OPS)
