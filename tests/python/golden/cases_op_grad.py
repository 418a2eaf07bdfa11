"""Gradient kernels the backward formulas call (derivatives.yaml): activation gradients
(runtime/ops_pointwise.c over kernels/binary.c), expanded by spell.py into every spelling,
claimed dtype, non-contiguous/empty/0-dim input, plus mixed dtypes, broadcasting, the
grad_input= spelling and special values. Gradients that select or scale once (threshold,
hardtanh, leaky_relu, hardsigmoid) are exact; the others run transcendentals or several
roundings (upstream's vector math and, in float16/bfloat16, its per-step rounding), so they
are compared under the derived tolerance (compare.py)."""
from spell import C, Op, T, expand_all

OPS = []
# NaN inputs in upstream's vector body (positions 5, 22) and scalar tail (39): Note [Activation NaN tails]
NAN_X = C("make((40,), torch.{dtype}, seed=2).masked_fill(torch.arange(40) % 17 == 5, float('nan'))")
SPECIAL = C("literal([0.0, -0.0, 1.5, -2.5, nan, inf, -inf, 3.0, -3.0], torch.{dtype})")
SPECIAL_GRAD = C("literal([1.0, -2.0, 0.5, nan, 1.0, -1.0, 2.0, 1.5, -0.5], torch.{dtype})")


def act(ov, *params, x="any", tol="derived", kw=None, grad_input="grad_input", special=True, extra=None,
        x_last=False):
    """An activation gradient (grad_output, x, *params), or (grad_output, *params, x); grad_input: the
    name of its out= overload and argument."""
    def order(g, xx):
        return (g, *params, xx) if x_last else (g, xx, *params)
    more = {
        "mixed_f64_grad": (order(T(dtype="float64"), T(role=x)), kw),
        "mixed_f64_x": (order(T(), T(role=x, dtype="float64")), kw),
        "bcast_x": (order(T((3, 4)), T((4,), role=x)), kw),
        "bcast_grad": (order(T((4,)), T((3, 4), role=x)), kw),
        "t_grad_only": (order(T((4, 3), vary=False), C("make((3, 4), torch.float32, seed=9).t()")), kw),
    }
    if special:
        more["special"] = (order(SPECIAL_GRAD, SPECIAL), kw)
        more["nan_tails"] = (order(T((40,)), NAN_X), kw)
    more.update(extra or {})
    spell_extra = {}
    if grad_input:
        args = ", ".join("{%d}" % i for i in range(2 + len(params)))
        kws = "".join(f", {k}={{{k}}}" for k in (kw or {}))
        spell_extra[grad_input] = (f"torch.ops.aten.{ov}.{grad_input}({args}{kws}, {grad_input}=torch.empty(0, "
                                   "dtype={0}.dtype))")
    OPS.append(Op(ov, *order(T(), T(role=x)), kw=kw, tol=tol, extra=more, spell_extra=spell_extra))


act("sigmoid_backward", x="prob")
act("tanh_backward", x="unit")
act("silu_backward")
act("gelu_backward", kw={"approximate": "none"},
    extra={"tanh": ((T(), T()), {"approximate": "tanh"}), "default": ((T(), T()), {}),
           "bad_approximate": ((T(), T()), {"approximate": "sigmoid"})})
act("threshold_backward", 0.1, tol="exact",
    extra={"int": ((T(dtype="int64"), T(dtype="int64"), 0), None),
           "int8_int64": ((T(dtype="int8"), T(dtype="int64"), 2), None),
           "int_float_threshold": ((T(dtype="int32"), T(dtype="int32"), 0.5), None),
           "bool": ((T(dtype="bool"), T(dtype="bool"), 0), None),
           "overflow_threshold": ((T(dtype="int8"), T(dtype="int8"), 300), None),
           "relu_threshold_0": ((T(), T(), 0), None)})
act("elu_backward", 1.0, 1.0, 1.0, False, x_last=True,
    extra={"params": ((T(), 0.5, 2.0, 1.5, False, T()), None),
           "is_result": ((T(), 0.5, 2.0, 1.5, True, T()), None),
           "negative_alpha_result": ((T(), -0.5, 1.0, 1.0, True, T()), None),
           "int": ((T(dtype="int64"), 1.0, 1.0, 1.0, False, T(dtype="int64")), None),
           "special_result": ((SPECIAL_GRAD, 0.5, 2.0, 1.5, True, SPECIAL), None),
           "nan_tails_result": ((T((40,)), 0.5, 2.0, 1.5, True, NAN_X), None)})
act("hardtanh_backward", -0.5, 0.5, tol="exact",
    extra={"wide": ((T(), T(), -2, 2), None), "at_bounds": ((SPECIAL_GRAD, SPECIAL, -2.5, 1.5), None),
           "int": ((T(dtype="int64"), T(dtype="int64"), 0, 1), None)})
act("leaky_relu_backward", 0.2, False, tol="exact",
    extra={"is_result": ((T(), T(), 0.01, True), None),
           "negative_slope_result": ((T(), T(), -0.1, True), None),
           "int": ((T(dtype="int64"), T(dtype="int64"), 0.1, False), None)})
act("softplus_backward", 2, 1.5, extra={"default_like": ((T(), T(), 1, 20), None),
                                        "int": ((T(dtype="int64"), T(dtype="int64"), 1, 20), None)})
act("hardsigmoid_backward", x="small", tol="exact",
    extra={"wide": ((T(), C("make((3, 4), torch.float32, seed=2) * 4")), None)})
act("hardswish_backward", x="small", extra={"wide": ((T(), C("make((3, 4), torch.float32, seed=2) * 4")), None)},
    grad_input="out")
act("mish_backward", grad_input=None)
act("logit_backward", x="prob", kw={"eps": None},
    extra={"eps": ((T(), T(role="prob")), {"eps": 0.2}), "eps0": ((T(), T(role="prob")), {"eps": 0.0}),
           "outside": ((T(), C("make((3, 4), torch.float32, seed=2)")), {}),
           "outside_eps": ((T(), C("make((3, 4), torch.float32, seed=2)")), {"eps": 0.1}),
           "int": ((T(dtype="int64"), T(dtype="int64")), {})})
# log_sigmoid_backward(grad_output, self, buffer): one iterator over (self, buffer, grad_output) of
# one dtype (self's); its grad_input is empty_like(grad_output), resized when the others broadcast
# it. Its arithmetic rounds as upstream's (no transcendental; f16/bf16 in float, rounded once).
LSB = C("torch.exp(-make((3, 4), torch.{dtype}, seed=2).abs())")
OPS.append(Op("log_sigmoid_backward", T(), T(), T(role="prob"), spell=("aten",), extra={
    "real_buffer": ((T(), C("make((3, 4), torch.{dtype}, seed=2)"), LSB), None),
    "special": ((SPECIAL_GRAD, SPECIAL, C("torch.exp(-literal([0.0, -0.0, 1.5, -2.5, nan, inf, -inf, 3.0, -3.0], torch.{dtype}).abs())")), None),
    "bcast_grad": ((T((4,)), T(), T(role="prob")), None),
    "bcast_self": ((T(), T((4,)), T((4,), role="prob")), None),
    "bcast_grad_t_self": ((T((4,)), C("make((3, 4), torch.{dtype}, seed=2, layout='t')"), T(role="prob")), None),
    "t_grad": ((C("make((3, 4), torch.{dtype}, seed=1, layout='t')"), T(), T(role="prob")), None),
    "grad_0dim": ((T(()), T(), T(role="prob")), None),
    "bad_shape": ((T(), T((2, 4)), T(role="prob")), None),
    "f64_grad": ((T(dtype="float64"), T(), T(role="prob")), None),
    "f64_self": ((T(), T(dtype="float64"), T(role="prob")), None),
    "f64_buffer": ((T(), T(), T(role="prob", dtype="float64")), None),
    "int": ((T(dtype="int64"), T(dtype="int64"), T(dtype="int64")), None)},
    spell_extra={"grad_input": "torch.ops.aten.log_sigmoid_backward.grad_input({0}, {1}, {2}, grad_input=torch.empty(0, dtype={0}.dtype))"}))

CASES = expand_all(OPS)
