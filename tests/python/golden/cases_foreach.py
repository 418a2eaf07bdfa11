"""The _foreach_ ops (ops/foreach.c): upstream's CPU loop over the per-tensor op. Each case runs
on a list of tensors of different shapes (one non-contiguous, one 0-dim), in float32 and in
mixed dtypes; in-place spellings return the very list passed (upstream's binding). Ops over
exact per-tensor kernels are exact; sqrt, lerp, addcmul, addcdiv and norm are derived, as their
per-tensor golden cases are."""
CASES = {}
D = {"tol": "derived"}


def tl(seed, dt="float32", role="any"):
    r = f", role='{role}'" if role != "any" else ""
    return (f"[make((3, 4), torch.{dt}, seed={seed}{r}), make((5,), torch.{dt}, seed={seed + 10}{r}), "
            f"make((4, 3), torch.{dt}, seed={seed + 20}{r}, layout='t'), make((), torch.{dt}, seed={seed + 30}{r})]")


def case(name, expr, derived=False, inplace=False, self_list=None):
    """expr uses X (the self list); in place: the result must be the same list, and the list
    (the updated tensors) is the answer."""
    x = self_list or tl(1)
    if inplace:
        code = f"X = {x}; r = {expr}; out = (X, r is X)"
    else:
        code = f"X = {x}; out = {expr}"
    CASES[name] = {"code": code, **D} if derived else code


Y, Z = tl(2), tl(3, role="nonzero")
for op in ("add", "sub"):
    case(f"{op}/List", f"torch._foreach_{op}(X, {Y})")
    case(f"{op}/List_alpha", f"torch._foreach_{op}(X, {Y}, alpha=0.5)")
    case(f"{op}_/List_alpha", f"torch._foreach_{op}_(X, {Y}, alpha=-2)", inplace=True)
    case(f"{op}/Scalar", f"torch._foreach_{op}(X, 1.5)")
    case(f"{op}_/Scalar", f"torch._foreach_{op}_(X, 3)", inplace=True)
    case(f"{op}/ScalarList", f"torch._foreach_{op}(X, [1.0, 2, -0.5, 4])")
    case(f"{op}_/ScalarList", f"torch._foreach_{op}_(X, [1.0, 2, -0.5, 4])", inplace=True)
    case(f"{op}/aten_List", f"torch.ops.aten._foreach_{op}.List(X, {Y}, alpha=2)")
    case(f"{op}_/aten_List", f"torch.ops.aten._foreach_{op}_.List(X, {Y})", inplace=False)
case("add/Tensor", "torch._foreach_add(X, literal(2.5), alpha=2)")
case("add_/Tensor", "torch._foreach_add_(X, literal(1.0))", inplace=True)
case("add_/Tensor_alpha", "torch._foreach_add_(X, literal(1.0), alpha=-0.5)", inplace=True)  # only .Tensor takes alpha
case("add/Tensor_not_scalar", "torch._foreach_add(X, torch.ones(2))")
case("add/mixed_dtypes", f"torch._foreach_add(X, {tl(2, 'float64')})")
case("add_/mixed_dtypes", f"torch._foreach_add_(X, {tl(2, 'bfloat16')})", inplace=True)
case("add/bf16", f"torch._foreach_add({tl(1, 'bfloat16')}, {tl(2, 'bfloat16')}, alpha=0.3)")
case("add/int", f"torch._foreach_add({tl(1, 'int64')}, {tl(2, 'int64')}, alpha=3)")
case("add/empty_list", "torch._foreach_add([], [])")
case("add/length_mismatch", f"torch._foreach_add(X, {Y}[:2])")
case("add/scalar_list_length", "torch._foreach_add(X, [1.0, 2.0])")
case("add_/partial_failure", "torch._foreach_add_(X, [torch.ones(3, 4), torch.ones(6), torch.ones(4, 3), torch.ones(())])",
     inplace=True)
for op in ("mul", "div"):
    other = Z if op == "div" else Y
    case(f"{op}/List", f"torch._foreach_{op}(X, {other})")
    case(f"{op}_/List", f"torch._foreach_{op}_(X, {other})", inplace=True)
    case(f"{op}/Scalar", f"torch._foreach_{op}(X, 0.75)")
    case(f"{op}_/Scalar", f"torch._foreach_{op}_(X, 0.75)", inplace=True)
    case(f"{op}/ScalarList", f"torch._foreach_{op}(X, [0.5, 2, -3.0, 0.1])")
    case(f"{op}_/ScalarList", f"torch._foreach_{op}_(X, [0.5, 2, -3.0, 0.1])", inplace=True)
    case(f"{op}/Tensor", f"torch._foreach_{op}(X, literal(0.3))")
    case(f"{op}_/Tensor", f"torch._foreach_{op}_(X, literal(0.3, torch.float64))", inplace=True)
    case(f"{op}/bf16", f"torch._foreach_{op}({tl(1, 'bfloat16')}, 0.3)")
case("mul_/Tensor_not_scalar", "torch._foreach_mul_(X, torch.ones(2))", inplace=True)
for op in ("addcmul", "addcdiv"):
    t2 = Z
    case(f"{op}/Scalar", f"torch._foreach_{op}(X, {Y}, {t2}, value=0.5)", derived=True)
    case(f"{op}_/Scalar", f"torch._foreach_{op}_(X, {Y}, {t2}, 0.5)", derived=True, inplace=True)
    case(f"{op}/default", f"torch._foreach_{op}(X, {Y}, {t2})", derived=True)
    case(f"{op}/ScalarList", f"torch._foreach_{op}(X, {Y}, {t2}, [0.5, -1.0, 2, 0.1])", derived=True)
    case(f"{op}_/ScalarList", f"torch._foreach_{op}_(X, {Y}, {t2}, [0.5, -1.0, 2, 0.1])", derived=True, inplace=True)
    case(f"{op}_/bf16", f"torch._foreach_{op}_(X, {tl(2, 'bfloat16')}, {tl(3, 'bfloat16', 'nonzero')}, -0.25)",
         derived=True, inplace=True, self_list=tl(1, "bfloat16"))
case("lerp/Scalar", f"torch._foreach_lerp(X, {Y}, 0.3)", derived=True)
case("lerp_/Scalar", f"torch._foreach_lerp_(X, {Y}, 0.9)", derived=True, inplace=True)
case("lerp/List", f"torch._foreach_lerp(X, {Y}, {tl(4, role='prob')})", derived=True)
case("lerp_/List", f"torch._foreach_lerp_(X, {Y}, {tl(4, role='prob')})", derived=True, inplace=True)
for op in ("maximum", "minimum"):
    case(f"{op}/List", f"torch._foreach_{op}(X, {Y})")
    case(f"{op}_/List", f"torch._foreach_{op}_(X, {Y})", inplace=True)
for op in ("clamp_min", "clamp_max"):
    case(f"{op}/Scalar", f"torch._foreach_{op}(X, 0.25)")
    case(f"{op}_/Scalar", f"torch._foreach_{op}_(X, -0.25)", inplace=True)
case("sqrt", "torch._foreach_sqrt(X)", derived=True, self_list=tl(1, role="pos"))
case("sqrt_", "torch._foreach_sqrt_(X)", derived=True, inplace=True, self_list=tl(1, role="pos"))
case("neg", "torch._foreach_neg(X)")
case("neg_", "torch._foreach_neg_(X)", inplace=True)
case("zero_", "torch._foreach_zero_(X)", inplace=True)
case("copy_", f"torch._foreach_copy_(X, {Y})", inplace=True)
case("copy_/dtype", f"torch._foreach_copy_(X, {tl(2, 'float64')})", inplace=True)
case("norm", "torch._foreach_norm(X)", derived=True)
case("norm/ord1", "torch._foreach_norm(X, 1)", derived=True)
case("norm/inf", "torch._foreach_norm(X, float('inf'))", derived=True)
case("norm/dtype", f"torch._foreach_norm({tl(1, 'bfloat16')}, 2, dtype=torch.float32)", derived=True)
case("norm/narrowing_dtype", f"torch._foreach_norm({tl(1, 'float64')}, 2, dtype=torch.float32)")
case("norm/aten", "torch.ops.aten._foreach_norm.Scalar(X)", derived=True)
case("group_tensors", f"sorted(torch._C._group_tensors_by_device_and_dtype([X + {tl(1, 'float64')}, {Y} + {Y}], True).items(), "
                      "key=lambda kv: str(kv[0][1]))")
case("group_tensors/no_indices", f"sorted(torch._C._group_tensors_by_device_and_dtype([X, []], False).items(), "
                                 "key=lambda kv: str(kv[0][1]))")
case("group_tensors/ragged", f"torch._C._group_tensors_by_device_and_dtype([X, {Y}[:2]], False)")
# linalg_vector_norm's dtype checks, which _foreach_norm's dtype= reaches
CASES["vector_norm/narrowing_dtype"] = "out = torch.linalg.vector_norm(torch.ones(3, dtype=torch.float64), dtype=torch.float32)"
CASES["vector_norm/half_types"] = "out = torch.linalg.vector_norm(torch.ones(3, dtype=torch.bfloat16), dtype=torch.float16)"
CASES["vector_norm/int_input"] = "out = torch.linalg.vector_norm(torch.ones(3, dtype=torch.long), dtype=torch.float32)"
CASES["vector_norm/int_dtype"] = "out = torch.linalg.vector_norm(torch.ones(3), dtype=torch.long)"
CASES["vector_norm/widening"] = {"code": "out = torch.linalg.vector_norm(make((4, 5), torch.bfloat16, seed=1), dtype=torch.float64)", **D}
