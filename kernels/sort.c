/* sort / argsort, topk and searchsorted (declared in sort.h).
 * Lines are gathered into (key, index) pairs, ordered by one of the algorithms below, and
 * scattered back. Keys are doubles for float dtypes (every kernel float fits) and int64 for
 * the rest, each with its own instantiation of the algorithms (SORT_IMPL). A plain scalar
 * reference (insertion sort with index tie-break) backs the tests.
 */
#include "sort.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parallel.h"

#define GRAIN 32768

/* Note [Tie order]
 * Unstable sorts and topk give equal keys an order that depends on the algorithm. Upstream's
 * (SortingKernel.cpp, TopKImpl.h) are the C++ library's std::sort (introsort: median-of-three
 * quicksort to runs of 16, depth limit 2*floor(log2 n) then heapsort, final insertion sort),
 * std::partial_sort (heap select, then heap sort) and std::nth_element (introselect down to 3,
 * then insertion sort), on (key, index) pairs with index ascending at the start. The
 * functions below run those same steps with the same comparisons, so the same permutation
 * comes out. kthvalue's (Sorting.cpp) is TH's quickselect after Sedgewick (median of three,
 * NaN largest), replayed the same way. Stable sorting has one correct answer; a merge sort
 * gives it.
 */

/* SORT_IMPL(S, KEY, LESS): pair type S_pair {KEY k; int64_t i;} and the algorithms over it,
 * LESS(a, b, desc) being the strict order (desc flips it; NaN is largest either way). An
 * instantiation need not use every algorithm (mode's uses only the unstable sort). */
#define SORT_FN static __attribute__((unused))
#define SORT_IMPL(S, KEY, LESS)                                                               \
    typedef struct {                                                                          \
        KEY k;                                                                                \
        int64_t i;                                                                            \
    } S##_pair;                                                                               \
                                                                                              \
    static inline int                                                                         \
    S##_lt(const S##_pair *a, const S##_pair *b, int desc)                                    \
    {                                                                                         \
        return LESS(a->k, b->k, desc);                                                        \
    }                                                                                         \
                                                                                              \
    static inline void                                                                        \
    S##_swap(S##_pair *a, S##_pair *b)                                                        \
    {                                                                                         \
        S##_pair t = *a;                                                                      \
        *a = *b;                                                                              \
        *b = t;                                                                               \
    }                                                                                         \
                                                                                              \
    SORT_FN void                                                                              \
    S##_push_heap(S##_pair *f, int64_t hole, int64_t top, S##_pair v, int desc)               \
    {                                                                                         \
        int64_t parent = (hole - 1) / 2;                                                      \
        while (hole > top && S##_lt(&f[parent], &v, desc)) {                                  \
            f[hole] = f[parent];                                                              \
            hole = parent;                                                                    \
            parent = (hole - 1) / 2;                                                          \
        }                                                                                     \
        f[hole] = v;                                                                          \
    }                                                                                         \
                                                                                              \
    SORT_FN void                                                                              \
    S##_adjust_heap(S##_pair *f, int64_t hole, int64_t len, S##_pair v, int desc)             \
    {                                                                                         \
        const int64_t top = hole;                                                             \
        int64_t child = hole;                                                                 \
        while (child < (len - 1) / 2) {                                                       \
            child = 2 * (child + 1);                                                          \
            if (S##_lt(&f[child], &f[child - 1], desc))                                       \
                child--;                                                                      \
            f[hole] = f[child];                                                               \
            hole = child;                                                                     \
        }                                                                                     \
        if ((len & 1) == 0 && child == (len - 2) / 2) {                                       \
            child = 2 * (child + 1);                                                          \
            f[hole] = f[child - 1];                                                           \
            hole = child - 1;                                                                 \
        }                                                                                     \
        S##_push_heap(f, hole, top, v, desc);                                                 \
    }                                                                                         \
                                                                                              \
    SORT_FN void                                                                              \
    S##_make_heap(S##_pair *f, int64_t len, int desc)                                         \
    {                                                                                         \
        if (len < 2)                                                                          \
            return;                                                                           \
        for (int64_t parent = (len - 2) / 2;; parent--) {                                     \
            S##_adjust_heap(f, parent, len, f[parent], desc);                                 \
            if (parent == 0)                                                                  \
                return;                                                                       \
        }                                                                                     \
    }                                                                                         \
                                                                                              \
    SORT_FN void                                                                              \
    S##_pop_heap(S##_pair *f, int64_t len, S##_pair *result, int desc)                        \
    {                                                                                         \
        S##_pair v = *result;                                                                 \
        *result = f[0];                                                                       \
        S##_adjust_heap(f, 0, len, v, desc);                                                  \
    }                                                                                         \
                                                                                              \
    SORT_FN void                                                                              \
    S##_heap_select(S##_pair *f, int64_t mid, int64_t n, int desc)                            \
    {                                                                                         \
        S##_make_heap(f, mid, desc);                                                          \
        for (int64_t i = mid; i < n; i++)                                                     \
            if (S##_lt(&f[i], &f[0], desc))                                                   \
                S##_pop_heap(f, mid, &f[i], desc);                                            \
    }                                                                                         \
                                                                                              \
    SORT_FN void                                                                              \
    S##_sort_heap(S##_pair *f, int64_t len, int desc)                                         \
    {                                                                                         \
        while (len > 1) {                                                                     \
            len--;                                                                            \
            S##_pop_heap(f, len, &f[len], desc);                                              \
        }                                                                                     \
    }                                                                                         \
                                                                                              \
    SORT_FN void                                                                              \
    S##_partial_sort(S##_pair *f, int64_t mid, int64_t n, int desc)                           \
    {                                                                                         \
        S##_heap_select(f, mid, n, desc);                                                     \
        S##_sort_heap(f, mid, desc);                                                          \
    }                                                                                         \
                                                                                              \
    SORT_FN void                                                                              \
    S##_move_median_to_first(S##_pair *r, S##_pair *a, S##_pair *b, S##_pair *c, int desc)    \
    {                                                                                         \
        if (S##_lt(a, b, desc)) {                                                             \
            if (S##_lt(b, c, desc))                                                           \
                S##_swap(r, b);                                                               \
            else if (S##_lt(a, c, desc))                                                      \
                S##_swap(r, c);                                                               \
            else                                                                              \
                S##_swap(r, a);                                                               \
        } else if (S##_lt(a, c, desc)) {                                                      \
            S##_swap(r, a);                                                                   \
        } else if (S##_lt(b, c, desc)) {                                                      \
            S##_swap(r, c);                                                                   \
        } else {                                                                              \
            S##_swap(r, b);                                                                   \
        }                                                                                     \
    }                                                                                         \
                                                                                              \
    SORT_FN S##_pair *                                                                        \
    S##_partition_pivot(S##_pair *first, S##_pair *last, int desc)                            \
    {                                                                                         \
        S##_pair *mid = first + (last - first) / 2;                                           \
        S##_move_median_to_first(first, first + 1, mid, last - 1, desc);                      \
        S##_pair *lo = first + 1, *hi = last, *pivot = first;                                 \
        for (;;) {                                                                            \
            while (S##_lt(lo, pivot, desc))                                                   \
                lo++;                                                                         \
            hi--;                                                                             \
            while (S##_lt(pivot, hi, desc))                                                   \
                hi--;                                                                         \
            if (!(lo < hi))                                                                   \
                return lo;                                                                    \
            S##_swap(lo, hi);                                                                 \
            lo++;                                                                             \
        }                                                                                     \
    }                                                                                         \
                                                                                              \
    SORT_FN void                                                                              \
    S##_linear_insert(S##_pair *last, int desc)                                               \
    {                                                                                         \
        S##_pair v = *last;                                                                   \
        S##_pair *next = last - 1;                                                            \
        while (S##_lt(&v, next, desc)) {                                                      \
            *last = *next;                                                                    \
            last = next;                                                                      \
            next--;                                                                           \
        }                                                                                     \
        *last = v;                                                                            \
    }                                                                                         \
                                                                                              \
    SORT_FN void                                                                              \
    S##_insertion_sort(S##_pair *first, S##_pair *last, int desc)                             \
    {                                                                                         \
        if (first == last)                                                                    \
            return;                                                                           \
        for (S##_pair *i = first + 1; i != last; i++) {                                       \
            if (S##_lt(i, first, desc)) {                                                     \
                S##_pair v = *i;                                                              \
                memmove(first + 1, first, (size_t)(i - first) * sizeof *first);               \
                *first = v;                                                                   \
            } else {                                                                          \
                S##_linear_insert(i, desc);                                                   \
            }                                                                                 \
        }                                                                                     \
    }                                                                                         \
                                                                                              \
    SORT_FN void                                                                              \
    S##_introsort_loop(S##_pair *first, S##_pair *last, int64_t depth, int desc)              \
    {                                                                                         \
        while (last - first > 16) {                                                           \
            if (depth == 0) {                                                                 \
                S##_partial_sort(first, last - first, last - first, desc);                    \
                return;                                                                       \
            }                                                                                 \
            depth--;                                                                          \
            S##_pair *cut = S##_partition_pivot(first, last, desc);                           \
            S##_introsort_loop(cut, last, depth, desc);                                       \
            last = cut;                                                                       \
        }                                                                                     \
    }                                                                                         \
                                                                                              \
    SORT_FN void                                                                              \
    S##_unstable_sort(S##_pair *f, int64_t n, int desc)                                       \
    {                                                                                         \
        if (n < 2)                                                                            \
            return;                                                                           \
        S##_introsort_loop(f, f + n, 2 * floor_log2(n), desc);                                \
        if (n > 16) {                                                                         \
            S##_insertion_sort(f, f + 16, desc);                                              \
            for (S##_pair *i = f + 16; i != f + n; i++)                                       \
                S##_linear_insert(i, desc);                                                   \
        } else {                                                                              \
            S##_insertion_sort(f, f + n, desc);                                               \
        }                                                                                     \
    }                                                                                         \
                                                                                              \
    SORT_FN void                                                                              \
    S##_nth_element(S##_pair *first, S##_pair *nth, S##_pair *last, int desc)                 \
    {                                                                                         \
        if (first == last || nth == last)                                                     \
            return;                                                                           \
        int64_t depth = 2 * floor_log2(last - first);                                         \
        while (last - first > 3) {                                                            \
            if (depth == 0) {                                                                 \
                S##_heap_select(first, nth - first + 1, last - first, desc);                  \
                S##_swap(first, nth);                                                         \
                return;                                                                       \
            }                                                                                 \
            depth--;                                                                          \
            S##_pair *cut = S##_partition_pivot(first, last, desc);                           \
            if (cut <= nth)                                                                   \
                first = cut;                                                                  \
            else                                                                              \
                last = cut;                                                                   \
        }                                                                                     \
        S##_insertion_sort(first, last, desc);                                                \
    }                                                                                         \
                                                                                              \
    /* Sedgewick's quickselect (upstream's quick_select_template for kthvalue): the NaN-largest \
     * order is lt(., ., 1); afterwards f[k] holds the k-th smallest */                        \
    SORT_FN void                                                                              \
    S##_quick_select(S##_pair *f, int64_t n, int64_t k)                                       \
    {                                                                                         \
        int64_t lo = 0, hi = n - 1;                                                           \
        for (;;) {                                                                            \
            if (hi <= lo)                                                                     \
                return;                                                                       \
            if (hi == lo + 1) {                                                               \
                if (S##_lt(&f[lo], &f[hi], 1))                                                \
                    S##_swap(&f[lo], &f[hi]);                                                 \
                return;                                                                       \
            }                                                                                 \
            S##_swap(&f[(lo + hi) >> 1], &f[lo + 1]);                                         \
            if (S##_lt(&f[lo + 1], &f[hi], 1))                                                \
                S##_swap(&f[lo + 1], &f[hi]);                                                 \
            if (S##_lt(&f[lo], &f[hi], 1))                                                    \
                S##_swap(&f[lo], &f[hi]);                                                     \
            if (S##_lt(&f[lo + 1], &f[lo], 1))                                                \
                S##_swap(&f[lo + 1], &f[lo]);                                                 \
            int64_t i = lo + 1, j = hi;                                                       \
            const S##_pair piv = f[lo];                                                       \
            for (;;) {                                                                        \
                do                                                                            \
                    i++;                                                                      \
                while (S##_lt(&piv, &f[i], 1));                                               \
                do                                                                            \
                    j--;                                                                      \
                while (S##_lt(&f[j], &piv, 1));                                               \
                if (j < i)                                                                    \
                    break;                                                                    \
                S##_swap(&f[i], &f[j]);                                                       \
            }                                                                                 \
            S##_swap(&f[lo], &f[j]);                                                          \
            if (j <= k)                                                                       \
                lo = i;                                                                       \
            if (j >= k)                                                                       \
                hi = j - 1;                                                                   \
        }                                                                                     \
    }                                                                                         \
                                                                                              \
    /* bottom-up merge sort; tmp holds n pairs */                                             \
    SORT_FN void                                                                              \
    S##_stable_sort(S##_pair *f, int64_t n, int desc, S##_pair *tmp)                          \
    {                                                                                         \
        for (int64_t s = 0; s < n; s += 16) {                                                 \
            int64_t e = s + 16 < n ? s + 16 : n;                                              \
            for (int64_t i = s + 1; i < e; i++) {                                             \
                S##_pair v = f[i];                                                            \
                int64_t j = i;                                                                \
                while (j > s && S##_lt(&v, &f[j - 1], desc)) {                                \
                    f[j] = f[j - 1];                                                          \
                    j--;                                                                      \
                }                                                                             \
                f[j] = v;                                                                     \
            }                                                                                 \
        }                                                                                     \
        S##_pair *src = f, *dst = tmp;                                                        \
        for (int64_t w = 16; w < n; w *= 2) {                                                 \
            for (int64_t s = 0; s < n; s += 2 * w) {                                          \
                int64_t m = s + w < n ? s + w : n, e = s + 2 * w < n ? s + 2 * w : n;         \
                int64_t a = s, b = m, o = s;                                                  \
                while (a < m && b < e)                                                        \
                    dst[o++] = S##_lt(&src[b], &src[a], desc) ? src[b++] : src[a++];          \
                while (a < m)                                                                 \
                    dst[o++] = src[a++];                                                      \
                while (b < e)                                                                 \
                    dst[o++] = src[b++];                                                      \
            }                                                                                 \
            S##_pair *t = src;                                                                \
            src = dst;                                                                        \
            dst = t;                                                                          \
        }                                                                                     \
        if (src != f)                                                                         \
            memcpy(f, src, (size_t)n * sizeof *f);                                            \
    }

static inline int64_t
floor_log2(int64_t n)
{
    return 63 - __builtin_clzll((uint64_t)n);
}

/* NaN is the largest key in both directions (upstream's KeyValueComp{Asc,Desc}). */
#define FLESS(a, b, desc)                                                                     \
    ((desc) ? (((a) != (a) && (b) == (b)) || (a) > (b)) : (((a) == (a) && (b) != (b)) || (a) < (b)))
#define ILESS(a, b, desc) ((desc) ? (a) > (b) : (a) < (b))

SORT_IMPL(fk, double, FLESS)
SORT_IMPL(ik, int64_t, ILESS)
SORT_IMPL(uk, uint64_t, ILESS)  /* uint16..uint64 (sort only: upstream's topk and kthvalue refuse them) */
/* mode's std::sort compares values with `<` alone, so a NaN is neither less nor greater than
 * anything (Note [Mode's index]); for integers that is ILESS ascending */
#define PLESS(a, b, desc) ((a) < (b))
SORT_IMPL(mk, double, PLESS)

/* Integer keys are read and written as int64; bool keys as their byte (U8), so a key goes
 * back into values exactly as it came (a float key is exact in double). */
static inline int64_t
ld_key_i(int dt, const void *p, int64_t i)
{
    return tn_load_i64(dt == TN_DTYPE_BOOL ? TN_DTYPE_U8 : dt, p, i);
}

static inline void
st_key_i(int dt, void *p, int64_t i, int64_t v)
{
    tn_store_i64(dt == TN_DTYPE_BOOL ? TN_DTYPE_U8 : dt, p, i, v);
}

// sort

enum { MODE_SORT_STABLE, MODE_SORT, MODE_SORT_REF, MODE_TOPK, MODE_TOPK_REF, MODE_KTH, MODE_MODE };

typedef struct {
    int dt, mode, desc, sorted;
    const tn_loop *outer;
    int64_t n, k, is, vs, xs;
    void *values;
    int64_t *indices;
    const void *in;
} sort_plan;

/* The reference: insertion sort on (key, index), ties broken by index (so a stable sort);
 * for topk the first k of it. Slow on purpose: simple enough to trust. */
#define REF_SORT(S, f, n, desc)                                                               \
    do {                                                                                      \
        for (int64_t i_ = 1; i_ < (n); i_++) {                                                \
            S##_pair v_ = (f)[i_];                                                            \
            int64_t j_ = i_;                                                                  \
            while (j_ > 0 && S##_lt(&v_, &(f)[j_ - 1], desc)) {                               \
                (f)[j_] = (f)[j_ - 1];                                                        \
                j_--;                                                                         \
            }                                                                                 \
            (f)[j_] = v_;                                                                     \
        }                                                                                     \
    } while (0)

/* Order one line's pairs as the plan asks; returns how many leading pairs are the result. */
#define ORDER_LINE(S, f, tmp)                                                                 \
    do {                                                                                      \
        switch (p->mode) {                                                                    \
        case MODE_SORT_STABLE: S##_stable_sort(f, n, p->desc, tmp); break;                    \
        case MODE_SORT: S##_unstable_sort(f, n, p->desc); break;                              \
        case MODE_SORT_REF: case MODE_TOPK_REF: REF_SORT(S, f, n, p->desc); break;            \
        case MODE_KTH: S##_quick_select(f, n, p->k - 1); break;                               \
        default:                                                                              \
            if (p->k == 0)                                                                    \
                break;                                                                        \
            if (p->k * 64 <= n) {                                                             \
                S##_partial_sort(f, p->k, n, p->desc);                                        \
            } else {                                                                          \
                S##_nth_element(f, f + p->k - 1, f + n, p->desc);                             \
                if (p->sorted)                                                                \
                    S##_unstable_sort(f, p->k - 1, p->desc);                                  \
            }                                                                                 \
            break;                                                                            \
        }                                                                                     \
    } while (0)

/* Note [Mode's index]
 * upstream's mode (TensorCompare.cpp mode_kernel) sorts each line's (value, index) pairs with
 * std::sort comparing values by `<`, then walks the sorted line: a run's length is compared with
 * `>`, so of equally long runs the first wins, and the answer is the run's last pair. For a
 * repeated value that index depends on how introsort moved equal keys, which the unstable sort
 * here replays (Note [Tie order]); a NaN is its own run (`!=` is true for it). */
#define LONGEST_RUN(f, n, at)                                                                 \
    do {                                                                                      \
        int64_t best_ = 0, len_ = 0;                                                          \
        (at) = 0;                                                                             \
        for (int64_t j_ = 0; j_ < (n); j_++) {                                                \
            len_++;                                                                           \
            if (j_ == (n) - 1 || (f)[j_].k != (f)[j_ + 1].k) {                                \
                if (len_ > best_)                                                             \
                    best_ = len_, (at) = j_;                                                  \
                len_ = 0;                                                                     \
            }                                                                                 \
        }                                                                                     \
    } while (0)

static void
sort_task(void *ctx, int64_t begin, int64_t end)
{
    const sort_plan *p = ctx;
    const int64_t n = p->n;
    const int fl = tn_dtype_is_kernel_float(p->dt);
    /* the pairs written out: topk's first k, kthvalue's k-th or mode's answer alone, else the line */
    const int one = p->mode == MODE_KTH || p->mode == MODE_MODE;
    const int64_t out_n = one ? 1 : (p->mode == MODE_TOPK || p->mode == MODE_TOPK_REF) ? p->k : n;
    int64_t from = p->mode == MODE_KTH ? p->k - 1 : 0;
    size_t psz = fl ? sizeof(fk_pair) : sizeof(ik_pair);
    char *buf = malloc(psz * (size_t)(2 * n + 1));
    if (!buf)
        return;
    for (int64_t t = begin; t < end; t++) {
        int64_t off[TN_LOOP_MAX_OPERANDS];
        tn_loop_elem_offsets(p->outer, t, off);
        if (fl) {
            fk_pair *f = (fk_pair *)buf, *tmp = f + n;
            for (int64_t j = 0; j < n; j++) {
                f[j].k = tn_load_float(p->dt, p->in, off[2] + j * p->is);
                f[j].i = j;
            }
            if (p->mode == MODE_MODE) {
                mk_pair *m = (mk_pair *)buf;  /* the same layout, mode's comparison */
                for (int64_t j = 0; j < n; j++)
                    m[j] = (mk_pair){f[j].k, f[j].i};
                mk_unstable_sort(m, n, 0);
                LONGEST_RUN(m, n, from);
            } else {
                ORDER_LINE(fk, f, tmp);
            }
            for (int64_t j = 0; j < out_n; j++) {
                if (p->values)
                    tn_store_float(p->dt, p->values, off[0] + j * p->vs, f[from + j].k);
                p->indices[off[1] + j * p->xs] = f[from + j].i;
            }
        } else if (tn_dtype_is_barebones_unsigned(p->dt)) {
            uk_pair *f = (uk_pair *)buf, *tmp = f + n;
            for (int64_t j = 0; j < n; j++) {
                f[j].k = tn_load_u64(p->dt, p->in, off[2] + j * p->is);
                f[j].i = j;
            }
            ORDER_LINE(uk, f, tmp);
            for (int64_t j = 0; j < out_n; j++) {
                if (p->values)
                    tn_store_u64(p->dt, p->values, off[0] + j * p->vs, f[from + j].k);
                p->indices[off[1] + j * p->xs] = f[from + j].i;
            }
        } else {
            ik_pair *f = (ik_pair *)buf, *tmp = f + n;
            for (int64_t j = 0; j < n; j++) {
                f[j].k = ld_key_i(p->dt, p->in, off[2] + j * p->is);
                f[j].i = j;
            }
            if (p->mode == MODE_MODE) {
                ik_unstable_sort(f, n, 0);
                LONGEST_RUN(f, n, from);
            } else {
                ORDER_LINE(ik, f, tmp);
            }
            for (int64_t j = 0; j < out_n; j++) {
                if (p->values)
                    st_key_i(p->dt, p->values, off[0] + j * p->vs, f[from + j].k);
                p->indices[off[1] + j * p->xs] = f[from + j].i;
            }
        }
    }
    free(buf);
}

static tn_status
sort_run(sort_plan *p)
{
    int sorting = p->mode == MODE_SORT || p->mode == MODE_SORT_STABLE || p->mode == MODE_SORT_REF;
    if (!tn_dtype_has_kernels(p->dt) && !(sorting && tn_dtype_is_barebones_unsigned(p->dt)))
        return TN_ERR_DTYPE;
    if (!p->outer || p->outer->noperands < 3 || p->n < 0)
        return TN_ERR_VALUE;
    int64_t lines = tn_loop_numel(p->outer);
    int topk = p->mode == MODE_TOPK || p->mode == MODE_TOPK_REF || p->mode == MODE_KTH || p->mode == MODE_MODE;
    if (lines == 0 || p->n == 0 || (topk && p->k == 0))
        return TN_OK;
    if (!p->indices)
        return TN_ERR_VALUE;
    int64_t grain = p->n >= GRAIN ? 1 : GRAIN / p->n;
    tn_parallel_for(lines, grain, sort_task, p);
    return TN_OK;
}

tn_status
tn_sort(int dtype, const tn_loop *outer, int64_t n, int64_t in_stride, int64_t val_stride,
        int64_t idx_stride, void *values, int64_t *indices, const void *in, int descending,
        int stable)
{
    switch (dtype) {
    case TN_DTYPE_BOOL: case TN_DTYPE_U8: case TN_DTYPE_I8: case TN_DTYPE_I16:
    case TN_DTYPE_I32: case TN_DTYPE_I64: case TN_DTYPE_F16: case TN_DTYPE_BF16:
    case TN_DTYPE_F32: case TN_DTYPE_F64: case TN_DTYPE_U16: case TN_DTYPE_U32: case TN_DTYPE_U64: {
        /* upstream radix-sorts a long 1-d ascending integer tensor (fbgemm): stable (uint16..64
         * it refuses there: ops/index.c) */
        int radix = dtype != TN_DTYPE_BOOL && !tn_dtype_is_kernel_float(dtype) && !descending &&
                    n >= GRAIN && outer && tn_loop_numel(outer) == 1;
        sort_plan p = {dtype, stable || radix ? MODE_SORT_STABLE : MODE_SORT, descending != 0, 1,
                       outer, n, 0, in_stride, val_stride, idx_stride, values, indices, in};
        return sort_run(&p);
    }
    default:
        return TN_ERR_DTYPE;
    }
}

tn_status
tn_topk(int dtype, const tn_loop *outer, int64_t n, int64_t k, int largest, int sorted,
        int64_t in_stride, int64_t val_stride, int64_t idx_stride, void *values,
        int64_t *indices, const void *in)
{
    switch (dtype) {
    case TN_DTYPE_U8: case TN_DTYPE_I8: case TN_DTYPE_I16: case TN_DTYPE_I32:
    case TN_DTYPE_I64: case TN_DTYPE_F16: case TN_DTYPE_BF16: case TN_DTYPE_F32:
    case TN_DTYPE_F64: {
        if (k < 0 || k > n)
            return TN_ERR_VALUE;
        sort_plan p = {dtype, MODE_TOPK, largest != 0, sorted != 0, outer, n, k, in_stride,
                       val_stride, idx_stride, values, indices, in};
        return sort_run(&p);
    }
    default:
        return TN_ERR_DTYPE;
    }
}

tn_status
tn_kthvalue(int dtype, const tn_loop *outer, int64_t n, int64_t k, int64_t in_stride, void *values,
            int64_t *indices, const void *in)
{
    switch (dtype) {
    case TN_DTYPE_U8: case TN_DTYPE_I8: case TN_DTYPE_I16: case TN_DTYPE_I32:
    case TN_DTYPE_I64: case TN_DTYPE_F16: case TN_DTYPE_BF16: case TN_DTYPE_F32:
    case TN_DTYPE_F64: {
        if (k < 1 || k > n)
            return TN_ERR_VALUE;
        sort_plan p = {dtype, MODE_KTH, 0, 0, outer, n, k, in_stride, 0, 0, values, indices, in};
        return sort_run(&p);
    }
    default:
        return TN_ERR_DTYPE;
    }
}

tn_status
tn_mode(int dtype, const tn_loop *outer, int64_t n, int64_t in_stride, void *values, int64_t *indices,
        const void *in)
{
    sort_plan p = {dtype, MODE_MODE, 0, 0, outer, n, 1, in_stride, 0, 0, values, indices, in};
    return sort_run(&p);  /* every dtype with kernels, bool too */
}

/* References for the tests (not in sort.h: tests declare them). topk_ref returns the
 * stable order's first k, which is upstream's set but not necessarily its tie order. */
tn_status
tn_sort_ref(int dtype, const tn_loop *outer, int64_t n, int64_t in_stride, int64_t val_stride,
            int64_t idx_stride, void *values, int64_t *indices, const void *in, int descending)
{
    sort_plan p = {dtype, MODE_SORT_REF, descending != 0, 1, outer, n, 0, in_stride, val_stride,
                   idx_stride, values, indices, in};
    return sort_run(&p);
}

tn_status
tn_topk_ref(int dtype, const tn_loop *outer, int64_t n, int64_t k, int largest,
            int64_t in_stride, int64_t val_stride, int64_t idx_stride, void *values,
            int64_t *indices, const void *in)
{
    if (k < 0 || k > n)
        return TN_ERR_VALUE;
    sort_plan p = {dtype, MODE_TOPK_REF, largest != 0, 1, outer, n, k, in_stride, val_stride,
                   idx_stride, values, indices, in};
    return sort_run(&p);
}

// searchsorted

typedef struct {
    int dt, right, out_int32;
    const tn_loop *outer;
    int64_t n, ss, sos;
    const void *bd, *vals;
    const int64_t *sorter;
    void *out;
} ss_plan;

/* upstream's cus_lower_bound / cus_upper_bound: first position whose boundary is not below
 * (lower) / not at or below (upper) the value; NaN values land at the end. */
static void
ss_task(void *ctx, int64_t begin, int64_t end)
{
    const ss_plan *p = ctx;
    const int fl = tn_dtype_is_kernel_float(p->dt);
    for (int64_t t = begin; t < end; t++) {
        int64_t off[TN_LOOP_MAX_OPERANDS];
        tn_loop_elem_offsets(p->outer, t, off);
        int64_t lo = 0, hi = p->n;
        if (fl) {
            double v = tn_load_float(p->dt, p->vals, off[1]);
            while (lo < hi) {
                int64_t mid = lo + ((hi - lo) >> 1);
                int64_t at = p->sorter ? p->sorter[off[3] + mid * p->sos] : mid;
                double b = tn_load_float(p->dt, p->bd, off[2] + at * p->ss);
                if (p->right ? !(b > v) : !(b >= v))
                    lo = mid + 1;
                else
                    hi = mid;
            }
        } else {
            int64_t v = ld_key_i(p->dt, p->vals, off[1]);
            while (lo < hi) {
                int64_t mid = lo + ((hi - lo) >> 1);
                int64_t at = p->sorter ? p->sorter[off[3] + mid * p->sos] : mid;
                int64_t b = ld_key_i(p->dt, p->bd, off[2] + at * p->ss);
                if (p->right ? !(b > v) : !(b >= v))
                    lo = mid + 1;
                else
                    hi = mid;
            }
        }
        if (p->out_int32)
            ((int32_t *)p->out)[off[0]] = (int32_t)lo;
        else
            ((int64_t *)p->out)[off[0]] = lo;
    }
}

tn_status
tn_searchsorted(int dtype, const tn_loop *outer, int64_t n, int64_t seq_stride,
                const void *boundaries, const void *values, const int64_t *sorter,
                int64_t sorter_stride, int right, int out_int32, void *out)
{
    switch (dtype) {
    case TN_DTYPE_U8: case TN_DTYPE_I8: case TN_DTYPE_I16: case TN_DTYPE_I32:
    case TN_DTYPE_I64: case TN_DTYPE_F16: case TN_DTYPE_BF16: case TN_DTYPE_F32:
    case TN_DTYPE_F64: {
        if (!outer || outer->noperands < (sorter ? 4 : 3) || n < 0)
            return TN_ERR_VALUE;
        int64_t cnt = tn_loop_numel(outer);
        if (cnt == 0)
            return TN_OK;
        ss_plan p = {dtype, right != 0, out_int32 != 0, outer, n, seq_stride, sorter_stride,
                     boundaries, values, sorter, out};
        tn_parallel_for(cnt, 4096, ss_task, &p);
        return TN_OK;
    }
    default:
        return TN_ERR_DTYPE;
    }
}
