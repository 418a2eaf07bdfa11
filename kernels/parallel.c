/* The process-wide thread pool (pthreadpool) and tn_parallel_for. */
#include "parallel.h"

#include <stdlib.h>
#include <unistd.h>

/* torch.set_num_threads(n) records n (get_num_threads reports it, as upstream's does), but the
 * pool never has more workers than online CPUs: more only adds contention, and
 * pthreadpool_create(10000) takes seconds. Pools are made once per worker count and never
 * destroyed, because a kernel running with the GIL released (Note [GIL] in runtime/op.h) may be
 * inside the old pool while another thread changes the setting; at most one pool per count up
 * to the CPU count ever exists. */
#define MAX_POOLS 1024
static pthreadpool_t pools[MAX_POOLS + 1];
static int pool_threads;    /* what set_num_threads asked for */
static int cpu_count;

static int
online_cpus(void)
{
    if (!cpu_count) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        cpu_count = n < 1 ? 1 : n > MAX_POOLS ? MAX_POOLS : (int)n;
    }
    return cpu_count;
}

static int
default_threads(void)
{
    const char *env = getenv("TN_NUM_THREADS");
    if (env && atoi(env) > 0)
        return atoi(env);
    return online_cpus();
}

int
tn_requested_num_threads(void)
{
    if (!pool_threads)
        pool_threads = default_threads();
    return pool_threads;
}

int
tn_num_threads(void)
{
    int n = tn_requested_num_threads();
    return n < online_cpus() ? n : online_cpus();
}

pthreadpool_t
tn_threadpool(void)
{
    int n = tn_num_threads();
    if (n <= 1)
        return NULL;
    if (!pools[n])
        pools[n] = pthreadpool_create((size_t)n);
    return pools[n];
}

void
tn_set_num_threads(int n)
{
    pool_threads = n < 1 ? 1 : n;
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

/* [0, n) in pieces of ceil(n / chunks), on the pool (inline, in order, without one) */
static void
run_pieces(tn_range_fn fn, void *ctx, int64_t n, int64_t chunks)
{
    range_task t = {fn, ctx, n, (n + chunks - 1) / chunks};
    size_t count = (size_t)((n + t.chunk - 1) / t.chunk);
    if (tn_threadpool()) {
        pthreadpool_parallelize_1d(tn_threadpool(), run_chunk, &t, count, 0);
        return;
    }
    for (size_t i = 0; i < count; i++)
        run_chunk(&t, i);
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
    run_pieces(fn, ctx, n, chunks);
}

/* at::parallel_for's split (ParallelOpenMP.h invoke_parallel): min(threads, ceil(n / grain)) chunks
 * of ceil(n / chunks), threads being torch.set_num_threads' setting (upstream's OpenMP team), run on
 * the pool however many workers it has; inline when n <= grain. Elementwise kernels whose answer
 * depends on where a row starts (a vector body and a scalar tail, Note [Vector body and tail] in
 * binary.c) split where upstream does with it. */
void
tn_parallel_for_aten(int64_t n, int64_t grain, tn_range_fn fn, void *ctx)
{
    if (n <= 0)
        return;
    int64_t threads = tn_requested_num_threads();
    if (grain < 1)
        grain = 1;
    if (threads <= 1 || n <= grain) {
        fn(ctx, 0, n);
        return;
    }
    int64_t chunks = (n + grain - 1) / grain;
    if (chunks > threads)
        chunks = threads;
    run_pieces(fn, ctx, n, chunks);
}
