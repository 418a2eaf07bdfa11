/* Criterion tests for the runtime's pure-C rules, against facts captured from upstream
 * (upstream_facts.h, made by gen_facts.py): dtype promotion (c10::promoteTypes), can_cast, and
 * the output layout TensorIterator gives an elementwise result. The runtime is linked as a
 * static library into this program, which embeds Python (its error paths raise exceptions). */
#include <Python.h>
#include <criterion/criterion.h>

#include "runtime/dtype.h"
#include "runtime/tensor_iter.h"
#include "upstream_facts.h"

static void
start_python(void)
{
    Py_Initialize();
}

static void
stop_python(void)
{
    Py_Finalize();
}

TestSuite(rules, .init = start_python, .fini = stop_python);

Test(rules, promotion_matches_upstream_for_every_pair)
{
    cr_assert_eq(UPSTREAM_NUM_DTYPES, TN_NUM_DTYPES, "dtype tables differ in size");
    int wrong = 0;
    for (int a = 0; a < UPSTREAM_NUM_DTYPES; a++) {
        for (int b = 0; b < UPSTREAM_NUM_DTYPES; b++) {
            int got = tn_promote_types(a, b);
            if (got < 0) {
                cr_assert(PyErr_Occurred(), "promote(%d, %d) failed without an exception", a, b);
                PyErr_Clear();
            }
            if (got != upstream_promote[a][b]) {
                if (wrong++ < 10)
                    cr_log_error("promote(%d, %d): ours %d, upstream %d", a, b, got, upstream_promote[a][b]);
            }
        }
    }
    cr_assert_eq(wrong, 0, "%d promotion pairs differ from upstream", wrong);
}

Test(rules, can_cast_matches_upstream_for_every_pair)
{
    int wrong = 0;
    for (int a = 0; a < UPSTREAM_NUM_DTYPES; a++)
        for (int b = 0; b < UPSTREAM_NUM_DTYPES; b++)
            if (upstream_can_cast[a][b] >= 0 && tn_can_cast(a, b) != upstream_can_cast[a][b]) {
                if (wrong++ < 10)
                    cr_log_error("can_cast(%d, %d): ours %d, upstream %d", a, b, tn_can_cast(a, b),
                                 upstream_can_cast[a][b]);
            }
    cr_assert_eq(wrong, 0, "%d can_cast pairs differ from upstream", wrong);
}

Test(rules, elementwise_output_layout_matches_upstream)
{
    for (size_t k = 0; k < sizeof upstream_layouts / sizeof upstream_layouts[0]; k++) {
        const layout_fact *f = &upstream_layouts[k];
        int nout;
        int64_t sizes[4], strides[4];
        cr_assert_eq(tn_broadcast_shapes(f->na, f->as, f->nb, f->bs, &nout, sizes), 0, "case %zu", k);
        cr_assert_eq(nout, f->nout, "case %zu: rank", k);
        for (int d = 0; d < nout; d++)
            cr_assert_eq(sizes[d], f->os[d], "case %zu: size[%d]", k, d);
        tn_geom g[2] = {{f->na, f->as, f->at}, {f->nb, f->bs, f->bt}};
        tn_output_strides(nout, sizes, 2, g, strides);
        for (int d = 0; d < nout; d++)
            cr_assert_eq(strides[d], f->ot[d], "case %zu: stride[%d] ours %lld upstream %lld", k, d,
                         (long long)strides[d], (long long)f->ot[d]);
    }
}

Test(rules, broadcast_mismatch_raises_runtime_error)
{
    int64_t a[2] = {2, 3}, b[1] = {4}, out[2];
    int nout;
    cr_assert_eq(tn_broadcast_shapes(2, a, 1, b, &nout, out), -1);
    cr_assert(PyErr_ExceptionMatches(PyExc_RuntimeError));
    PyErr_Clear();
}
