"""Linear algebra kernels (ops/linalg.c over kernels/linalg.c), expanded by spell.py: every
spelling, claimed dtype and layout (transposed and sliced A and B reach the solver with other
strides), broadcast batch dims, both triangles and sides, unit diagonals. Float results are
derived (upstream's own float32-vs-float64 error bounds ours)."""
from spell import C, Op, T, expand_all

D = "derived"
A, B = T((3, 3)), T((3, 4))
OPS = [
    Op("linalg_solve_triangular", A, B, kw={"upper": True}, tol=D, zerodim=False, extra={
        "lower": ((A, B), {"upper": False}),
        "right": ((A, T((4, 3))), {"upper": True, "left": False}),
        "right_lower_unit": ((A, T((4, 3))), {"upper": False, "left": False, "unitriangular": True}),
        "unit": ((A, B), {"upper": True, "unitriangular": True}),
        "batched": ((T((2, 3, 3)), T((2, 3, 4))), {"upper": False}),
        "bcast_batch": ((A, T((2, 1, 3, 2))), {"upper": True}),
        "bcast_a": ((T((2, 1, 3, 3)), T((4, 3, 2))), {"upper": False}),
        "promote": ((A, T((3, 4), dtype="float64")), {"upper": True}),
        "empty_cols_batched": ((T((2, 3, 3)), T((2, 3, 0))), {"upper": True}),
        "empty_matrices": ((T((2, 0, 0)), T((2, 0, 4))), {"upper": False}),
        "zero_pivot": ((C("torch.zeros(3, 3, dtype=torch.{dtype})"), B), {"upper": False}),
        "not_square_error": ((T((3, 4)), B), {"upper": True}),
        "shape_error": ((A, T((4, 2))), {"upper": True}),
        "right_shape_error": ((A, B), {"upper": True, "left": False}),
        "vector_error": ((T((3,)), B), {"upper": True}),
        "int_error": ((T((3, 3), dtype="int64"), T((3, 4), dtype="int64")), {"upper": True})},
       spell_extra={"F": "torch.linalg.solve_triangular({0}, {1}, upper=True)"}),
]

CASES = expand_all(OPS)
