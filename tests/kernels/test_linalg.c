/* Criterion tests for kernels/linalg.c's least squares (tn_lapack_lstsq): the four drivers on a
 * small system whose answer is exact, batch broadcasting through a_index, the single precisions
 * through the double routines, complex128, and the dtype refusal.
 */
#include <complex.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernels/linalg.h"

#include <lapack.h>

/* A = [[1, 0], [0, 1], [1, 1]] (column-major), b = [1, 2, 3]: the normal equations give x = [1, 2]
 * exactly, A x = b, so the residual row is 0; A's singular values are sqrt(3) and 1 */
static const double A3x2[6] = {1, 0, 1, 0, 1, 1};
static const double b3[3] = {1, 2, 3};

// lstsq

Test(linalg, lstsq_every_driver_solves_the_exact_system)
{
    for (int d = TN_LSTSQ_GELS; d <= TN_LSTSQ_GELSS; d++) {
        double b[3];
        memcpy(b, b3, sizeof b);
        int64_t rank = -1;
        double s[2] = {0};
        int32_t info = -1;
        cr_assert_eq(tn_lapack_lstsq(TN_DTYPE_F64, (tn_lstsq_driver)d, 1, NULL, 1, 3, 2, 1, A3x2, b, -1.0, &rank, s,
                                     &info), TN_OK);
        cr_expect_eq(info, 0, "driver %d", d);
        cr_expect(fabs(b[0] - 1) < 1e-12 && fabs(b[1] - 2) < 1e-12, "driver %d: %g %g", d, b[0], b[1]);
        if (d != TN_LSTSQ_GELS)
            cr_expect_eq(rank, 2, "driver %d", d);
        if (d == TN_LSTSQ_GELSD || d == TN_LSTSQ_GELSS)
            cr_expect(fabs(s[0] - sqrt(3.0)) < 1e-12 && fabs(s[1] - 1) < 1e-12, "driver %d: %g %g", d, s[0], s[1]);
    }
}

Test(linalg, lstsq_broadcast_a_is_read_fresh_for_each_problem)
{
    /* two right-hand sides solved against the one A: LAPACK overwrites its A, so each problem must
     * factor a fresh copy; the second b is twice the first */
    double b[6] = {1, 2, 3, 2, 4, 6};
    int64_t a_index[2] = {0, 0}, rank = 0;
    int32_t info = -1;
    cr_assert_eq(tn_lapack_lstsq(TN_DTYPE_F64, TN_LSTSQ_GELSY, 2, a_index, 1, 3, 2, 1, A3x2, b, -1.0, &rank, NULL,
                                 &info), TN_OK);
    cr_expect(fabs(b[0] - 1) < 1e-12 && fabs(b[1] - 2) < 1e-12);
    cr_expect(fabs(b[3] - 2) < 1e-12 && fabs(b[4] - 4) < 1e-12, "%g %g", b[3], b[4]);
    cr_expect_eq(rank, 2);
}

Test(linalg, lstsq_float32_rounds_the_double_answer)
{
    float a[6], b[3];
    for (int i = 0; i < 6; i++)
        a[i] = (float)A3x2[i];
    for (int i = 0; i < 3; i++)
        b[i] = (float)b3[i];
    int32_t info = -1;
    cr_assert_eq(tn_lapack_lstsq(TN_DTYPE_F32, TN_LSTSQ_GELS, 1, NULL, 1, 3, 2, 1, a, b, -1.0, NULL, NULL, &info), TN_OK);
    cr_expect_eq(b[0], 1.0f);
    cr_expect_eq(b[1], 2.0f);
}

Test(linalg, lstsq_complex128_through_the_z_drivers)
{
    /* (1 + i) A x = (1 + i) b has the same x */
    double _Complex a[6], b[3];
    for (int i = 0; i < 6; i++)
        a[i] = A3x2[i] * (1.0 + 1.0 * I);
    for (int i = 0; i < 3; i++)
        b[i] = b3[i] * (1.0 + 1.0 * I);
    double s[2];
    int64_t rank = 0;
    int32_t info = -1;
    cr_assert_eq(tn_lapack_lstsq(TN_DTYPE_C128, TN_LSTSQ_GELSD, 1, NULL, 1, 3, 2, 1, a, b, -1.0, &rank, s, &info),
                 TN_OK);
    cr_expect(cabs(b[0] - 1) < 1e-12 && cabs(b[1] - 2) < 1e-12);
    cr_expect_eq(rank, 2);
    cr_expect(fabs(s[0] - sqrt(6.0)) < 1e-12, "%g", s[0]);
}

Test(linalg, lstsq_refuses_integer_dtypes)
{
    int64_t a[6] = {0}, b[3] = {0};
    int32_t info;
    cr_expect_eq(tn_lapack_lstsq(TN_DTYPE_I64, TN_LSTSQ_GELS, 1, NULL, 1, 3, 2, 1, a, b, -1.0, NULL, NULL, &info),
                 TN_ERR_DTYPE);
}

Test(linalg, lstsq_no_right_hand_side_never_reaches_xerbla)
{
    /* nrhs = 0: gelss crashes inside LAPACK (MKL's too) and gelsd's dlalsd stops the process
     * through the reference XERBLA; gelss answers rank and singular values, gelsd LAPACK's info
     * for its 4th argument */
    double b[1] = {0}, s[2] = {0};
    int64_t rank = -1;
    int32_t info = 0;
    cr_assert_eq(tn_lapack_lstsq(TN_DTYPE_F64, TN_LSTSQ_GELSS, 1, NULL, 1, 3, 2, 0, A3x2, b, -1.0, &rank, s, &info),
                 TN_OK);
    cr_expect_eq(info, 0);
    cr_expect_eq(rank, 2);
    cr_expect(fabs(s[0] - sqrt(3.0)) < 1e-12);
    cr_assert_eq(tn_lapack_lstsq(TN_DTYPE_F64, TN_LSTSQ_GELSD, 1, NULL, 1, 3, 2, 0, A3x2, b, -1.0, &rank, s, &info),
                 TN_OK);
    cr_expect_eq(info, -4);
}

Test(linalg, lstsq_nan_gets_mkls_info_and_an_infinite_a_is_not_handed_to_the_svd_drivers)
{
    /* Note [lstsq of a NaN]: a NaN in A is MKL's illegal 4th argument (gels: 5th), in B its 6th
     * (gels: 7th); an infinite A element never reaches dgelsd (XERBLA) or dgelss (no return) */
    double a[6], b[3];
    int64_t rank;
    double s[2];
    int32_t info;
    for (int d = TN_LSTSQ_GELS; d <= TN_LSTSQ_GELSS; d++) {
        memcpy(a, A3x2, sizeof a), memcpy(b, b3, sizeof b);
        a[4] = NAN;
        cr_assert_eq(tn_lapack_lstsq(TN_DTYPE_F64, (tn_lstsq_driver)d, 1, NULL, 1, 3, 2, 1, a, b, -1.0, &rank, s, &info),
                     TN_OK);
        cr_expect_eq(info, d == TN_LSTSQ_GELS ? -5 : -4, "driver %d", d);
        memcpy(a, A3x2, sizeof a), memcpy(b, b3, sizeof b);
        b[2] = NAN;
        cr_assert_eq(tn_lapack_lstsq(TN_DTYPE_F64, (tn_lstsq_driver)d, 1, NULL, 1, 3, 2, 1, a, b, -1.0, &rank, s, &info),
                     TN_OK);
        cr_expect_eq(info, d == TN_LSTSQ_GELS ? -7 : -6, "driver %d", d);
        memcpy(a, A3x2, sizeof a), memcpy(b, b3, sizeof b);
        a[1] = INFINITY;
        cr_assert_eq(tn_lapack_lstsq(TN_DTYPE_F64, (tn_lstsq_driver)d, 1, NULL, 1, 3, 2, 1, a, b, -1.0, &rank, s, &info),
                     TN_OK);
        if (d == TN_LSTSQ_GELSD || d == TN_LSTSQ_GELSS)
            cr_expect_eq(info, TN_LSTSQ_INF, "driver %d", d);
    }
}

// xerbla

/* the reference XERBLA's STOP is exit(0), which Criterion would count as a pass: an exit while
 * inside LAPACK is turned into a failing status */
static volatile int inside_lapack;

static void
exit_inside_lapack(void)
{
    if (inside_lapack)
        _exit(3);
}

Test(linalg, xerbla_returns_to_the_caller_with_the_illegal_argument)
{
    /* the reference XERBLA prints and STOPs: this process would exit here unless
     * kernels/linalg.c's xerbla_ binds in place of liblapack's (Note [LAPACK's XERBLA]) */
    atexit(exit_inside_lapack);
    inside_lapack = 1;
    lapack_int m = -1, n = 2, lda = 1, piv[2] = {0}, info = 0;
    double a[4] = {0};
    tn_lapack_xerbla_take();
    LAPACK_dgetrf(&m, &n, a, &lda, piv, &info);
    cr_expect_eq(info, -1);
    cr_expect_eq(tn_lapack_xerbla_take(), 1);
    cr_expect_eq(tn_lapack_xerbla_take(), 0, "the take forgets the report");
    /* a character argument: dpotrf's UPLO */
    char uplo = 'X';
    n = 1;
    LAPACK_dpotrf(&uplo, &n, a, &lda, &info);
    inside_lapack = 0;
    cr_expect_eq(info, -1);
    cr_expect_eq(tn_lapack_xerbla_take(), 1);
}
