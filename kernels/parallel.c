/* The process-wide thread pool (pthreadpool) and tn_parallel_for. */
#include "parallel.h"

#include <stdlib.h>
#include <unistd.h>

static pthreadpool_t pool;
static int pool_threads;

static int
default_threads(void)
{
    const char *env = getenv("TN_NUM_THREADS");
    if (env && atoi(env) > 0)
        return atoi(env);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

pthreadpool_t
tn_threadpool(void)
{
    if (!pool_threads)
        pool_threads = default_threads();
    if (!pool && pool_threads > 1)
        pool = pthreadpool_create((size_t)pool_threads);
    return pool;
}

int
tn_num_threads(void)
{
    if (!pool_threads)
        pool_threads = default_threads();
    return pool_threads;
}

void
tn_set_num_threads(int n)
{
    if (n < 1)
        n = 1;
    if (n == pool_threads)
        return;
    if (pool) {
        pthreadpool_destroy(pool);
        pool = NULL;
    }
    pool_threads = n;
}

typedef struct {
    tn_range_fn fn;
    void *ctx;
    int64_t n;
    int64_t chunk;
} range_task;

static void
run_chunk(void *arg, size_t i)
{
    range_task *t = arg;
    int64_t begin = (int64_t)i * t->chunk;
    int64_t end = begin + t->chunk < t->n ? begin + t->chunk : t->n;
    t->fn(t->ctx, begin, end);
}

void
tn_parallel_for(int64_t n, int64_t grain, tn_range_fn fn, void *ctx)
{
    if (n <= 0)
        return;
    int threads = tn_num_threads();
    if (grain < 1)
        grain = 1;
    if (threads <= 1 || n <= grain || !tn_threadpool()) {
        fn(ctx, 0, n);
        return;
    }
    int64_t chunks = n / grain;
    if (chunks > threads)
        chunks = threads;
    if (chunks < 2) {
        fn(ctx, 0, n);
        return;
    }
    range_task t = {fn, ctx, n, (n + chunks - 1) / chunks};
    size_t count = (size_t)((n + t.chunk - 1) / t.chunk);
    pthreadpool_parallelize_1d(tn_threadpool(), run_chunk, &t, count, 0);
}
