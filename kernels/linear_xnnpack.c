/* The XNNPACK adapter: float32 Linear through XNNPACK fully-connected operators whose packed
 * weights are cached per weight (Note [Linear operator cache]), for the row counts where that is
 * the faster kernel; everything else runs tn_linear (matmul.c).
 */
#include "linear_xnnpack.h"

#include <math.h>
#include <pthread.h>
#include <stdbool.h>

#include <xnnpack.h>

#include "gemv.h"
#include "matmul.h"
#include "parallel.h"

enum {
    XNN_MAX_M = 32,   /* tn_linear_f32 runs XNNPACK for TN_GEMV_MAX_M < m <= XNN_MAX_M */
};

/* Note [Linear operator cache]
 * XNNPACK packs a fully-connected operator's weights when the operator is created, so an
 * operator is worth keeping for as long as its weight lives unchanged. The cache maps
 * (weight_key, weight_version, w, bias, bias_key, in, out, strides) to an operator; the raw
 * pointers are part of the key because two weights may be views of one storage (one key).
 * Entries sit in a fixed array chained from hash buckets; when all TN_LINEAR_CACHE_SIZE slots
 * are taken the least recently used entry is deleted. A new version of a weight evicts the
 * entries of its old versions at once. One mutex guards the cache and the setup+run of an
 * operator (an XNNPACK operator must not be set up by two threads at once).
 */

typedef struct {
    uint64_t weight_key, weight_version, bias_key;
    const float *w, *bias;
    int64_t in, out, x_stride, y_stride;
    xnn_operator_t op;
    uint64_t last_use;
    int next;  /* next entry in the bucket chain, -1 ends */
    bool used;
} linear_entry;

enum { LINEAR_BUCKETS = 1024 };

static pthread_mutex_t linear_lock = PTHREAD_MUTEX_INITIALIZER;
static linear_entry linear_entries[TN_LINEAR_CACHE_SIZE];
static int linear_buckets[LINEAR_BUCKETS];
static int64_t linear_count;
static uint64_t linear_clock;
static bool linear_ready;

static pthread_once_t xnn_once = PTHREAD_ONCE_INIT;
static bool xnn_ok;

static void
xnn_init_once(void)
{
    xnn_ok = xnn_initialize(NULL) == xnn_status_success;
}

static unsigned
linear_hash(uint64_t key, const float *w)
{
    uint64_t h = key * 0x9e3779b97f4a7c15ull ^ (uint64_t)(uintptr_t)w * 0xc2b2ae3d27d4eb4full;
    return (unsigned)(h >> 40) % LINEAR_BUCKETS;
}

static void
linear_init_locked(void)
{
    if (linear_ready)
        return;
    for (int i = 0; i < LINEAR_BUCKETS; i++)
        linear_buckets[i] = -1;
    linear_ready = true;
}

static void
linear_unlink_locked(int idx)
{
    linear_entry *e = &linear_entries[idx];
    int *link = &linear_buckets[linear_hash(e->weight_key, e->w)];
    while (*link != idx)
        link = &linear_entries[*link].next;
    *link = e->next;
    xnn_delete_operator(e->op);
    e->used = false;
    e->op = NULL;
    linear_count--;
}

void
tn_linear_cache_clear(void)
{
    pthread_mutex_lock(&linear_lock);
    linear_init_locked();
    for (int i = 0; i < TN_LINEAR_CACHE_SIZE; i++)
        if (linear_entries[i].used)
            linear_unlink_locked(i);
    pthread_mutex_unlock(&linear_lock);
}

int64_t
tn_linear_cache_size(void)
{
    pthread_mutex_lock(&linear_lock);
    int64_t n = linear_count;
    pthread_mutex_unlock(&linear_lock);
    return n;
}

/* The cached operator for this weight, created (packing the weight) on a miss; NULL if XNNPACK
 * refuses. Called with linear_lock held. */
static xnn_operator_t
linear_op_locked(const linear_entry *key)
{
    linear_init_locked();
    unsigned h = linear_hash(key->weight_key, key->w);
    for (int i = linear_buckets[h]; i >= 0;) {
        linear_entry *e = &linear_entries[i];
        int next = e->next;
        bool same_weight = e->weight_key == key->weight_key && e->w == key->w &&
                           e->in == key->in && e->out == key->out;
        if (same_weight && e->weight_version == key->weight_version && e->bias == key->bias &&
            e->bias_key == key->bias_key && e->x_stride == key->x_stride &&
            e->y_stride == key->y_stride) {
            e->last_use = ++linear_clock;
            return e->op;
        }
        if (same_weight && e->weight_version != key->weight_version)
            linear_unlink_locked(i);  /* an older version of this weight: never used again */
        i = next;
    }
    xnn_operator_t op = NULL;
    if (xnn_create_fully_connected_nc_f32((size_t)key->in, (size_t)key->out, (size_t)key->x_stride,
                                          (size_t)key->y_stride, key->w, key->bias, -INFINITY,
                                          INFINITY, 0, &op) != xnn_status_success)
        return NULL;
    int slot = -1;
    if (linear_count == TN_LINEAR_CACHE_SIZE) {
        uint64_t oldest = UINT64_MAX;
        for (int i = 0; i < TN_LINEAR_CACHE_SIZE; i++)
            if (linear_entries[i].last_use < oldest) {
                oldest = linear_entries[i].last_use;
                slot = i;
            }
        linear_unlink_locked(slot);
    } else {
        for (int i = 0; i < TN_LINEAR_CACHE_SIZE && slot < 0; i++)
            if (!linear_entries[i].used)
                slot = i;
    }
    linear_entry *e = &linear_entries[slot];
    *e = *key;
    e->op = op;
    e->used = true;
    e->last_use = ++linear_clock;
    e->next = linear_buckets[h];
    linear_buckets[h] = slot;
    linear_count++;
    return op;
}

/* XNNPACK clamps its output to [min, max] with max/min instructions even when they are -inf and
 * +inf, which turns a NaN into -inf. An output that is not finite is therefore recomputed by
 * tn_gemm, which propagates NaN and inf as upstream does (a pass over y costs far less than the
 * GEMM). */
static bool
rows_finite(int64_t m, int64_t out, const float *y, int64_t y_row_stride)
{
    for (int64_t i = 0; i < m; i++) {
        const uint32_t *r = (const uint32_t *)(y + i * y_row_stride);
        uint32_t bad = 0;
        for (int64_t j = 0; j < out; j++)
            bad |= (r[j] & 0x7f800000u) == 0x7f800000u;
        if (bad)
            return false;
    }
    return true;
}

tn_status
tn_linear_f32(int64_t m, int64_t in, int64_t out, const float *x, int64_t x_row_stride,
              const float *w, uint64_t weight_key, uint64_t weight_version,
              const float *bias, uint64_t bias_key, float *y, int64_t y_row_stride)
{
    if (m < 0 || in < 0 || out < 0)
        return TN_ERR_VALUE;
    if (m == 0 || out == 0)
        return TN_OK;
    /* Measured on Zen 5 (AVX-512), in = 576, out = 576 and 1536: up to TN_GEMV_MAX_M rows our
     * GEMV (W streamed once, no packing) is faster than XNNPACK; from 13 to about 32 rows XNNPACK's
     * pre-packed weights win (we would pack all of W for a few rows); above that our packed GEMM
     * is faster again. Odd strides and a failed xnn_initialize also take tn_linear. */
    if (m <= TN_GEMV_MAX_M || m > XNN_MAX_M || in == 0 || x_row_stride < in || y_row_stride < out)
        return tn_linear(TN_DTYPE_F32, m, in, out, x, x_row_stride, w, bias, y, y_row_stride);
    pthread_once(&xnn_once, xnn_init_once);
    if (!xnn_ok)
        return tn_linear(TN_DTYPE_F32, m, in, out, x, x_row_stride, w, bias, y, y_row_stride);
    linear_entry key = {
        .weight_key = weight_key, .weight_version = weight_version,
        .bias_key = bias ? bias_key : 0, .w = w, .bias = bias, .in = in, .out = out,
        .x_stride = x_row_stride, .y_stride = y_row_stride,
    };
    pthread_mutex_lock(&linear_lock);
    xnn_operator_t op = linear_op_locked(&key);
    tn_status st = TN_ERR_BACKEND;
    if (op && xnn_setup_fully_connected_nc_f32(op, (size_t)m, x, y, tn_threadpool()) ==
                  xnn_status_success &&
        xnn_run_operator(op, tn_threadpool()) == xnn_status_success)
        st = TN_OK;
    pthread_mutex_unlock(&linear_lock);
    if (!op || (st == TN_OK && !rows_finite(m, out, y, y_row_stride)))
        return tn_linear(TN_DTYPE_F32, m, in, out, x, x_row_stride, w, bias, y, y_row_stride);
    return st;
}
