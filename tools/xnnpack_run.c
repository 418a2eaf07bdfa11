/* Runs one operator through the system XNNPACK (Debian libxnnpack-dev) on float32 inputs read
 * from raw files, for tools/xnnpack_compare.py: the output is written back in the layout torch
 * uses (NCHW for convolutions), and the best time of `repeats` runs is printed as JSON.
 * Usage: xnnpack_run <op> <repeats> <threads> <out file> <in files...> -- <ints...>
 *   conv2d  ints: N C H W O KH KW SH SW PH PW groups   (input NCHW, weight OIHW, no bias)
 *   linear  ints: M IN OUT                              (x [M][IN], W [OUT][IN], no bias)
 *   softmax ints: ROWS N                                (over the last dim)
 *   add, multiply, sigmoid  ints: N                     (elementwise, same shape)
 * Times: "run" is setup + run of an operator made once (its packed weights reused), "with_layout"
 * adds the NCHW <-> NHWC copies a convolution on torch's layout needs, "create" is making the
 * operator (packing the weights) once.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthreadpool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xnnpack.h>

static double
now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static float *
read_floats(const char *path, size_t n)
{
    float *p = malloc(n * sizeof *p);
    FILE *f = fopen(path, "rb");
    if (!p || !f || fread(p, sizeof *p, n, f) != n) {
        fprintf(stderr, "xnnpack_run: cannot read %zu floats from %s\n", n, path);
        exit(2);
    }
    fclose(f);
    return p;
}

static void
write_floats(const char *path, const float *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, sizeof *p, n, f) != n) {
        fprintf(stderr, "xnnpack_run: cannot write %s\n", path);
        exit(2);
    }
    fclose(f);
}

static void
check(enum xnn_status s, const char *what)
{
    if (s != xnn_status_success) {
        fprintf(stderr, "xnnpack_run: %s failed (status %d)\n", what, (int)s);
        exit(3);
    }
}

/* [a][b][c] -> [a][c][b], in 32 x 32 tiles (what a layout change on the way in and out costs
 * when done reasonably well; kernels/copy.c's transposed copies block the same way). */
static void
swap_last2(const float *src, float *dst, size_t a, size_t b, size_t c)
{
    enum { T = 32 };
    for (size_t i = 0; i < a; i++)
        for (size_t j0 = 0; j0 < b; j0 += T)
            for (size_t k0 = 0; k0 < c; k0 += T)
                for (size_t j = j0; j < j0 + T && j < b; j++)
                    for (size_t k = k0; k < k0 + T && k < c; k++)
                        dst[(i * c + k) * b + j] = src[(i * b + j) * c + k];
}

int
main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: xnnpack_run <op> <repeats> <threads> <out> <in...> -- <ints...>\n");
        return 1;
    }
    const char *op = argv[1], *out_path = argv[4];
    int repeats = atoi(argv[2]), threads = atoi(argv[3]);
    const char *ins[4];
    int nin = 0, a = 5;
    for (; a < argc && strcmp(argv[a], "--"); a++)
        ins[nin++] = argv[a];
    long v[16];
    int nv = 0;
    for (a++; a < argc && nv < 16; a++)
        v[nv++] = atol(argv[a]);
    check(xnn_initialize(NULL), "xnn_initialize");
    pthreadpool_t tp = pthreadpool_create((size_t)threads);
    xnn_operator_t o = NULL;
    double t0, create, best = 1e30, best_layout = 1e30;
    float *y = NULL;
    size_t ny = 0;
    if (!strcmp(op, "conv2d")) {
        size_t N = v[0], C = v[1], H = v[2], W = v[3], O = v[4], KH = v[5], KW = v[6];
        size_t SH = v[7], SW = v[8], PH = v[9], PW = v[10], G = v[11];
        size_t OH = (H + 2 * PH - KH) / SH + 1, OW = (W + 2 * PW - KW) / SW + 1, gic = C / G;
        float *x = read_floats(ins[0], N * C * H * W), *w = read_floats(ins[1], O * gic * KH * KW);
        float *wk = malloc(O * gic * KH * KW * sizeof *wk);   /* OIHW -> O,KH,KW,I */
        swap_last2(w, wk, O, gic, KH * KW);
        float *xh = malloc(N * H * W * C * sizeof *xh), *yh = malloc(N * OH * OW * O * sizeof *yh);
        ny = N * O * OH * OW;
        y = malloc(ny * sizeof *y);
        t0 = now();
        check(xnn_create_convolution2d_nhwc_f32((uint32_t)PH, (uint32_t)PW, (uint32_t)PH, (uint32_t)PW,
                                                (uint32_t)KH, (uint32_t)KW, (uint32_t)SH, (uint32_t)SW, 1, 1,
                                                (uint32_t)G, gic, O / G, C, O, wk, NULL, -INFINITY, INFINITY,
                                                0, &o), "create convolution");
        create = now() - t0;
        for (int r = 0; r < repeats; r++) {
            double s = now();
            swap_last2(x, xh, N, C, H * W);
            double s1 = now();
            check(xnn_setup_convolution2d_nhwc_f32(o, N, H, W, xh, yh, tp), "setup");
            check(xnn_run_operator(o, tp), "run");
            double e1 = now();
            swap_last2(yh, y, N, OH * OW, O);
            double e = now();
            best = fmin(best, e1 - s1);
            best_layout = fmin(best_layout, e - s);
        }
    } else if (!strcmp(op, "linear")) {
        size_t M = v[0], IN = v[1], OUT = v[2];
        float *x = read_floats(ins[0], M * IN), *w = read_floats(ins[1], OUT * IN);
        ny = M * OUT;
        y = malloc(ny * sizeof *y);
        t0 = now();
        check(xnn_create_fully_connected_nc_f32(IN, OUT, IN, OUT, w, NULL, -INFINITY, INFINITY, 0, &o),
              "create fully_connected");
        create = now() - t0;
        for (int r = 0; r < repeats; r++) {
            double s = now();
            check(xnn_setup_fully_connected_nc_f32(o, M, x, y, tp), "setup");
            check(xnn_run_operator(o, tp), "run");
            best = fmin(best, now() - s);
        }
        best_layout = best;
    } else {
        size_t rows = !strcmp(op, "softmax") ? (size_t)v[0] : 1, n = !strcmp(op, "softmax") ? (size_t)v[1] : (size_t)v[0];
        float *x = read_floats(ins[0], rows * n), *x2 = nin > 1 ? read_floats(ins[1], rows * n) : NULL;
        ny = rows * n;
        y = malloc(ny * sizeof *y);
        size_t shape[1] = {n};
        t0 = now();
        if (!strcmp(op, "softmax"))
            check(xnn_create_softmax_nc_f32(n, n, n, 0, &o), "create softmax");
        else if (!strcmp(op, "sigmoid"))
            check(xnn_create_sigmoid_nc_f32(1, 1, 1, 0, &o), "create sigmoid");
        else if (!strcmp(op, "add"))
            check(xnn_create_add_nd_f32(-INFINITY, INFINITY, 0, &o), "create add");
        else if (!strcmp(op, "multiply"))
            check(xnn_create_multiply_nd_f32(-INFINITY, INFINITY, 0, &o), "create multiply");
        else {
            fprintf(stderr, "xnnpack_run: unknown op %s\n", op);
            return 1;
        }
        create = now() - t0;
        for (int r = 0; r < repeats; r++) {
            double s = now();
            if (!strcmp(op, "softmax"))
                check(xnn_setup_softmax_nc_f32(o, rows, x, y, tp), "setup");
            else if (!strcmp(op, "sigmoid"))
                check(xnn_setup_sigmoid_nc_f32(o, n, x, y, tp), "setup");
            else if (!strcmp(op, "add"))
                check(xnn_setup_add_nd_f32(o, 1, shape, 1, shape, x, x2, y, tp), "setup");
            else
                check(xnn_setup_multiply_nd_f32(o, 1, shape, 1, shape, x, x2, y, tp), "setup");
            check(xnn_run_operator(o, tp), "run");
            best = fmin(best, now() - s);
        }
        best_layout = best;
    }
    write_floats(out_path, y, ny);
    printf("{\"run\": %.9g, \"with_layout\": %.9g, \"create\": %.9g}\n", best, best_layout, create);
    xnn_delete_operator(o);
    pthreadpool_destroy(tp);
    return 0;
}
