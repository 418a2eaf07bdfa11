/* Threading for kernels: one process-wide pthreadpool, and a parallel-for over a range.
 * Small work runs inline: a kernel passes its grain (the fewest items worth a thread).
 * TN_NUM_THREADS (env) caps the pool; default: the CPU count. XNNPACK runs on the same pool.
 */
#ifndef TN_KERNELS_PARALLEL_H
#define TN_KERNELS_PARALLEL_H

#include <stddef.h>
#include <stdint.h>
#include <pthreadpool.h>

/* fn(ctx, begin, end) covers [begin, end) of [0, n). */
typedef void (*tn_range_fn)(void *ctx, int64_t begin, int64_t end);

void tn_parallel_for(int64_t n, int64_t grain, tn_range_fn fn, void *ctx);
/* the same range split as upstream's at::parallel_for (see parallel.c) */
void tn_parallel_for_aten(int64_t n, int64_t grain, tn_range_fn fn, void *ctx);
pthreadpool_t tn_threadpool(void);
/* the workers kernels split work over: the setting, at most the online CPU count */
int tn_num_threads(void);
/* what torch.set_num_threads asked for (torch.get_num_threads reports it) */
int tn_requested_num_threads(void);
void tn_set_num_threads(int n);

#endif /* TN_KERNELS_PARALLEL_H */
