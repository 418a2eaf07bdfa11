/* The XNNPACK adapter: float32 2-D convolution through XNNPACK operators whose packed weights are
 * cached per weight (Note [XNNPACK operator cache]), where that is the faster kernel
 * (docs/DESIGN.md, "XNNPACK, op by op"; Linear was measured there and is not routed). Everything
 * else, and every call XNNPACK refuses, runs our kernels. To route another operator: a kind, its
 * create function and a tn_<op>_f32 entry that keys, acquires, sets up and runs it.
 */
#include "xnn_adapter.h"

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <xnnpack.h>

#include "parallel.h"

/* Note [XNNPACK operator cache]
 * XNNPACK packs an operator's weights when the operator is created, so an operator is worth
 * keeping for as long as its weight lives unchanged. The cache maps (kind, weight_key,
 * weight_version, w, bias, bias_key, geometry) to an operator; the raw pointers are part of the
 * key because two weights may be views of one storage (one key). Entries sit in a fixed array
 * chained from hash buckets; when all TN_XNN_CACHE_SIZE slots are taken the least recently used
 * idle entry is deleted. A new version of a weight evicts the idle entries of its old versions.
 * The cache's mutex is held only to look up, insert and release, never while XNNPACK packs or
 * runs: an operator in use is marked busy (an XNNPACK operator must not be set up by two threads
 * at once), and a thread that finds the operator it needs busy runs our kernel instead.
 */

enum { KIND_CONV2D = 1, GEOM_LEN = 14 };

typedef struct {
    int kind;
    uint64_t weight_key, weight_version, bias_key;
    const float *w, *bias;
    int64_t geom[GEOM_LEN];  /* what else decides the operator: sizes, strides, padding, ... */
} op_key;

typedef struct {
    op_key key;
    xnn_operator_t op;
    uint64_t last_use;
    int next;  /* next entry in the bucket chain, -1 ends */
    bool used, busy;
} cache_entry;

enum { CACHE_BUCKETS = 1024 };

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cache_entry cache_entries[TN_XNN_CACHE_SIZE];
static int cache_buckets[CACHE_BUCKETS];
static int64_t cache_count;
static uint64_t cache_clock;
static bool cache_ready;

static pthread_once_t xnn_once = PTHREAD_ONCE_INIT;
static bool xnn_ok;

static void
xnn_init_once(void)
{
    xnn_ok = xnn_initialize(NULL) == xnn_status_success;
}

static bool
xnn_ready(void)
{
    pthread_once(&xnn_once, xnn_init_once);
    return xnn_ok;
}

static unsigned
cache_hash(const op_key *k)
{
    uint64_t h = k->weight_key * 0x9e3779b97f4a7c15ull ^ (uint64_t)(uintptr_t)k->w * 0xc2b2ae3d27d4eb4full;
    return (unsigned)(h >> 40) % CACHE_BUCKETS;
}

static bool
same_weight(const op_key *a, const op_key *b)
{
    return a->kind == b->kind && a->weight_key == b->weight_key && a->w == b->w &&
           !memcmp(a->geom, b->geom, sizeof a->geom);
}

static bool
same_key(const op_key *a, const op_key *b)
{
    return same_weight(a, b) && a->weight_version == b->weight_version && a->bias == b->bias &&
           a->bias_key == b->bias_key;
}

static void
cache_init_locked(void)
{
    if (cache_ready)
        return;
    for (int i = 0; i < CACHE_BUCKETS; i++)
        cache_buckets[i] = -1;
    cache_ready = true;
}

static void
cache_unlink_locked(int idx)
{
    cache_entry *e = &cache_entries[idx];
    int *link = &cache_buckets[cache_hash(&e->key)];
    while (*link != idx)
        link = &cache_entries[*link].next;
    *link = e->next;
    xnn_delete_operator(e->op);
    e->used = false;
    e->op = NULL;
    cache_count--;
}

void
tn_xnn_cache_clear(void)
{
    pthread_mutex_lock(&cache_lock);
    cache_init_locked();
    for (int i = 0; i < TN_XNN_CACHE_SIZE; i++)
        if (cache_entries[i].used && !cache_entries[i].busy)
            cache_unlink_locked(i);
    pthread_mutex_unlock(&cache_lock);
}

int64_t
tn_xnn_cache_size(void)
{
    pthread_mutex_lock(&cache_lock);
    int64_t n = cache_count;
    pthread_mutex_unlock(&cache_lock);
    return n;
}

/* The cached entry for key, marked busy; -1 if there is none or (*in_use) another thread runs
 * it. Idle entries of older versions of the same weight are deleted on the way. Called with
 * cache_lock held. */
static int
cache_find_locked(const op_key *key, bool *in_use)
{
    cache_init_locked();
    *in_use = false;
    for (int i = cache_buckets[cache_hash(key)]; i >= 0;) {
        cache_entry *e = &cache_entries[i];
        int next = e->next;
        if (same_key(&e->key, key)) {
            if (e->busy) {
                *in_use = true;
                return -1;
            }
            e->busy = true;
            e->last_use = ++cache_clock;
            return i;
        }
        if (same_weight(&e->key, key) && e->key.weight_version != key->weight_version && !e->busy)
            cache_unlink_locked(i);  /* an older version of this weight: never used again */
        i = next;
    }
    return -1;
}

/* Stores a new operator for key, marked busy; -1 if every slot is busy (op then stays the
 * caller's). Called with cache_lock held. */
static int
cache_insert_locked(const op_key *key, xnn_operator_t op)
{
    int slot = -1;
    if (cache_count == TN_XNN_CACHE_SIZE) {
        uint64_t oldest = UINT64_MAX;
        for (int i = 0; i < TN_XNN_CACHE_SIZE; i++)
            if (!cache_entries[i].busy && cache_entries[i].last_use < oldest) {
                oldest = cache_entries[i].last_use;
                slot = i;
            }
        if (slot < 0)
            return -1;
        cache_unlink_locked(slot);
    } else {
        for (int i = 0; i < TN_XNN_CACHE_SIZE && slot < 0; i++)
            if (!cache_entries[i].used)
                slot = i;
    }
    unsigned h = cache_hash(key);
    cache_entry *e = &cache_entries[slot];
    e->key = *key;
    e->op = op;
    e->used = true;
    e->busy = true;
    e->last_use = ++cache_clock;
    e->next = cache_buckets[h];
    cache_buckets[h] = slot;
    cache_count++;
    return slot;
}

typedef xnn_operator_t (*create_fn)(const op_key *key, const void *ctx);

/* An operator for key that this thread may set up and run: a cached one (*slot >= 0, release it
 * with release_op) or, when the cache cannot keep it, one of its own (*slot == -1: the caller
 * deletes it). NULL when XNNPACK refuses or the cached operator is busy on another thread.
 * Creating (which packs the weight) runs without the lock. */
static xnn_operator_t
acquire_op(const op_key *key, create_fn create, const void *ctx, int *slot)
{
    bool in_use;
    pthread_mutex_lock(&cache_lock);
    *slot = cache_find_locked(key, &in_use);
    xnn_operator_t op = *slot >= 0 ? cache_entries[*slot].op : NULL;
    pthread_mutex_unlock(&cache_lock);
    if (op || in_use)
        return op;
    op = create(key, ctx);
    if (!op)
        return NULL;
    pthread_mutex_lock(&cache_lock);
    int other = cache_find_locked(key, &in_use);  /* made by another thread meanwhile */
    if (other >= 0) {
        xnn_delete_operator(op);
        op = cache_entries[other].op;
        *slot = other;
    } else {
        *slot = in_use ? -1 : cache_insert_locked(key, op);
    }
    pthread_mutex_unlock(&cache_lock);
    return op;
}

static void
release_op(int slot, xnn_operator_t op)
{
    if (slot < 0) {
        xnn_delete_operator(op);
        return;
    }
    pthread_mutex_lock(&cache_lock);
    cache_entries[slot].busy = false;
    pthread_mutex_unlock(&cache_lock);
}

/* XNNPACK clamps its output to [min, max] with max/min instructions even when they are -inf and
 * +inf, which turns a NaN into -inf. An output that is not finite is therefore recomputed by our
 * kernel, which propagates NaN and inf as upstream does (a pass over y costs far less than the
 * product). */
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

/* ---- 2-D convolution ---- */

/* geom: the tn_conv2d_geom fields in order. The weight is repacked from torch's OIHW to
 * XNNPACK's OHWI for the create call, which packs its own copy. */
static xnn_operator_t
create_conv2d(const op_key *k, const void *ctx)
{
    const tn_conv2d_geom *g = ctx;
    int64_t cin_g = g->c / g->groups, khw = g->kh * g->kw;
    float *ohwi = malloc((size_t)(g->o * khw * cin_g) * sizeof(float));
    if (!ohwi)
        return NULL;
    for (int64_t o = 0; o < g->o; o++)
        for (int64_t i = 0; i < cin_g; i++)
            for (int64_t p = 0; p < khw; p++)
                ohwi[(o * khw + p) * cin_g + i] = k->w[(o * cin_g + i) * khw + p];
    xnn_operator_t op = NULL;
    enum xnn_status st = xnn_create_convolution2d_nhwc_f32(
        (uint32_t)g->ph, (uint32_t)g->pw, (uint32_t)g->ph, (uint32_t)g->pw, (uint32_t)g->kh, (uint32_t)g->kw,
        (uint32_t)g->sh, (uint32_t)g->sw, (uint32_t)g->dh, (uint32_t)g->dw, (uint32_t)g->groups, (size_t)cin_g,
        (size_t)(g->o / g->groups), (size_t)g->c, (size_t)g->o, ohwi, k->bias, -INFINITY, INFINITY, 0, &op);
    free(ohwi);
    return st == xnn_status_success ? op : NULL;
}

tn_status
tn_conv2d_nhwc_f32(const tn_conv2d_geom *g, const float *x, const float *w, uint64_t weight_key,
                   uint64_t weight_version, const float *bias, uint64_t bias_key, float *y)
{
    if (g->groups <= 0 || g->c % g->groups || g->o % g->groups || !xnn_ready())
        return TN_ERR_BACKEND;
    op_key key = {
        .kind = KIND_CONV2D, .weight_key = weight_key, .weight_version = weight_version,
        .bias_key = bias ? bias_key : 0, .w = w, .bias = bias,
        .geom = {g->c, g->o, g->kh, g->kw, g->sh, g->sw, g->ph, g->pw, g->dh, g->dw, g->groups},
    };
    int slot;
    xnn_operator_t op = acquire_op(&key, create_conv2d, g, &slot);
    bool ok = op &&
              xnn_setup_convolution2d_nhwc_f32(op, (size_t)g->n, (size_t)g->h, (size_t)g->w, x, y,
                                               tn_threadpool()) == xnn_status_success &&
              xnn_run_operator(op, tn_threadpool()) == xnn_status_success;
    if (op)
        release_op(slot, op);
    if (!ok || !rows_finite(1, g->n * g->oh * g->ow * g->o, y, 0))
        return TN_ERR_BACKEND;
    return TN_OK;
}
