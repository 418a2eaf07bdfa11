/* Random kernels: the CPU generator (mt19937 as upstream's CPUGeneratorImpl keeps it) and the
 * fills that draw from it, bit-exact with torch 2.13 CPU after the same manual_seed.
 * Adding a distribution: a tn_random_<name> entry here switching on dtype, its workers in
 * random.c over the draw primitives below, golden cases in tests/kernels/gen_random_golden.py.
 */
#ifndef TN_KERNELS_RANDOM_H
#define TN_KERNELS_RANDOM_H

#include <stddef.h>
#include <stdint.h>

#include "element.h"
#include "loop.h"

#define TN_MT_N 624

/* The state of one CPU generator: the fields of upstream's mt19937_data_pod plus the two cached
 * Box-Muller samples of CPUGeneratorImpl. Plain data: copy it to clone a generator. Seed it
 * before first use. Not locked: the runtime serialises users of one generator, as upstream's
 * generator mutex does. */
typedef struct {
    uint64_t seed;              /* the initial seed, as given (all 64 bits kept) */
    int32_t left;               /* draws left before the next twist, 1..624 */
    uint32_t next;              /* index of the next state word, 0..624 */
    int32_t seeded;
    uint32_t state[TN_MT_N];
    double next_double_normal;  /* cached second Box-Muller sample of the double path */
    float next_float_normal;
    uint8_t has_next_double_normal;
    uint8_t has_next_float_normal;
} tn_generator;

/* ---- which upstream build to follow ----
 * Upstream compiles its CPU kernels once per capability. Its AVX2 and AVX512 builds (any x86-64
 * CPU with AVX2 + FMA) fuse `u * (to - from) + from` and `x * std + mean` into FMAs and run
 * normal_'s float blocks through the cephes polynomials of avx_mathfun.h; its DEFAULT build
 * (ATEN_CPU_CAPABILITY=default, or no AVX2) does neither and calls libm. The first use picks
 * AVX2 when the CPU has AVX2 and FMA, else DEFAULT; the runtime may force DEFAULT when
 * ATEN_CPU_CAPABILITY=default is set. Process-wide. */
enum { TN_RANDOM_PATH_DEFAULT = 0, TN_RANDOM_PATH_AVX2 = 1 };
void tn_random_set_path(int path);
int tn_random_get_path(void);

/* ---- the generator ---- */

/* torch.manual_seed / Generator.manual_seed: negative Python seeds arrive as seed + 2^64. Also
 * drops both cached normal samples. Upstream's default seed for a new Generator is 67280421310721. */
#define TN_DEFAULT_RNG_SEED 67280421310721ULL
void tn_generator_seed(tn_generator *g, uint64_t seed);
uint64_t tn_generator_initial_seed(const tn_generator *g);
uint32_t tn_generator_random(tn_generator *g);     /* CPUGeneratorImpl::random() */
uint64_t tn_generator_random64(tn_generator *g);   /* CPUGeneratorImpl::random64(): hi word first */

/* One uniform double in [0, 1) from 53 bits of random64(), as uniform_real_distribution<double>. */
double tn_generator_uniform_f64(tn_generator *g);
/* One uniform float in [0, 1) from 24 bits of random(), as uniform_real_distribution<float>. */
float tn_generator_uniform_f32(tn_generator *g);
/* One standard normal sample of normal_distribution<double> (uses and fills the double cache). */
double tn_generator_normal_f64(tn_generator *g);

/* torch.get_rng_state()/set_rng_state(): the bytes of upstream's CPUGeneratorImplState
 * (5056 on x86-64 / aarch64 Linux), so a state saved by either side loads in the other:
 *   0 u64 seed | 8 i32 left | 12 i32 seeded | 16 u64 next | 24 u64 state[624] (zero-extended)
 *   5016 f64 normal_x (0) | 5024 f64 normal_y (cached double sample) | 5032 f64 normal_rho (0)
 *   5040 i32 normal_is_valid | 5044 pad | 5048 f32 next_float_normal_sample
 *   5052 u8 is_next_float_normal_sample_valid | 5053 pad to 5056. Padding bytes are zero.
 * set_state returns TN_ERR_VALUE when n != 5056 or the mt19937 fields are invalid
 * (upstream: "Invalid mt19937 state"), leaving g untouched. */
size_t tn_generator_state_size(void);
void tn_generator_get_state(const tn_generator *g, uint8_t *out);
tn_status tn_generator_set_state(tn_generator *g, const uint8_t *in, size_t n);

/* ---- fills ----
 * Every fill writes operand 0 of `l` (element strides) at `out` and visits elements in
 * increasing memory order, the way upstream's TensorIterator does for a nullary op: pass the
 * tensor's own sizes and strides in any dim order (a transposed tensor is filled column by
 * column of its logical shape). Supported dtypes are listed per entry; others give TN_ERR_DTYPE
 * before any draw. */

/* uniform_(from, to), rand: f32, f64, f16, bf16. Computes in float for f32/f16/bf16 (24 bits per
 * element from random()), in double for f64 (53 bits from random64()). TN_ERR_VALUE if from > to. */
tn_status tn_random_uniform(tn_generator *g, int dtype, const tn_loop *l, void *out,
                            double from, double to);

/* normal_(mean, std), randn: f32, f64, f16, bf16. `contiguous` is self.is_contiguous() of the
 * tensor (default memory format). When contiguous and numel >= 16 upstream's block path runs
 * (uniforms in float, or double for f64; Box-Muller in blocks of 16; the tail block redrawn);
 * otherwise every element comes from normal_distribution<double> and the generator's cached
 * double sample carries over between calls. On the block path `out` is taken as numel dense
 * elements from element 0 (the loop's strides are not read). TN_ERR_VALUE if std < 0. */
tn_status tn_random_normal(tn_generator *g, int dtype, const tn_loop *l, void *out,
                           double mean, double std, int contiguous);

/* random_(from, to), randint(low, high): value = from + (draw % range). range < 2^28 draws
 * random(), else random64(). range == 0 stands for 2^64: random_(from=INT64_MIN, to=None),
 * dtypes i64, f32, f64, bf16 only. The runtime computes range/from as upstream's random_ does:
 * to given: range = to - from; to None: range = max(dtype) - from + 1 (for floats
 * max = 2^mantissa digits). Dtypes: bool, u8, i8, i16, i32, i64, u16, u32, u64, f16, bf16, f32, f64. */
tn_status tn_random_from_to(tn_generator *g, int dtype, const tn_loop *l, void *out,
                            int64_t from, uint64_t range);

/* random_() without bounds: [0, 2^mantissa] for floats, [0, max] for integers, bit 0 for bool.
 * Dtypes: bool, u8, i8, i16, i32, i64, f16, bf16, f32, f64 (not u16/u32/u64, as upstream). */
tn_status tn_random_bits(tn_generator *g, int dtype, const tn_loop *l, void *out);

/* bernoulli_(p) with a float p: one double uniform per element, value = u < p.
 * All dtypes with kernels. TN_ERR_VALUE unless 0 <= p <= 1. */
tn_status tn_random_bernoulli_scalar(tn_generator *g, int dtype, const tn_loop *l, void *out,
                                     double p);

/* bernoulli_(p_tensor) / torch.bernoulli(p): operand 1 of `l` is p (dtype p_dtype: f32, f64,
 * f16, bf16) broadcast to operand 0. A double p draws a double uniform; other p dtypes draw a
 * float uniform (24 bits). Visits in operand 0's memory order. */
tn_status tn_random_bernoulli_tensor(tn_generator *g, int dtype, const tn_loop *l, void *out,
                                     int p_dtype, const void *p);

/* exponential_(lambd): f32, f64, f16, bf16; value = -1/lambd * log1p(-u), u a double uniform. */
tn_status tn_random_exponential(tn_generator *g, int dtype, const tn_loop *l, void *out,
                                double lambd);

/* log_normal_(mean, std): f32, f64, f16, bf16; value = exp(mean + std * z), z one sample of
 * normal_distribution<double> (the cached sample carries over, as for small normal_ fills).
 * TN_ERR_VALUE unless std > 0. */
tn_status tn_random_log_normal(tn_generator *g, int dtype, const tn_loop *l, void *out,
                               double mean, double std);
/* rrelu_with_noise in training: n contiguous elements of in, out and noise (dtype f32, f64 or
 * bf16; noise written linearly from its data pointer, as upstream writes it). x <= 0: r drawn
 * from uniform_real_distribution<double>(lower, upper) with the bounds in the op math type
 * (float for f32/bf16), rounded to it, out = x * r, noise = r; otherwise out = x, noise = 1.
 * TN_ERR_VALUE when an element draws and lower > upper or upper - lower overflows a double
 * (upstream's uniform_real_distribution checks both when it is made, for each draw). */
tn_status tn_random_rrelu(tn_generator *g, int dtype, int64_t n, const void *in, void *out, void *noise,
                          double lower, double upper);
/* randperm(n): int64 values 0..n-1 written contiguous into out[n]. Upstream runs this in the
 * result dtype but every dtype it allows holds 0..n-1 exactly (it checks n fits), so the
 * runtime may convert. n < 214748364: forward swaps with random() % (n - i); larger n: the
 * inside-out shuffle with random64(). */
tn_status tn_randperm(tn_generator *g, int64_t n, int64_t *out);

/* multinomial(probs, nsample, replacement): probs has `rows` rows of `ncat` categories (rows = 1
 * for 1-D input) with element strides; dtype f32, f64, f16, bf16. Writes out[rows][nsample]
 * (int64, contiguous). replacement && nsample > 1: cumulative sums and binary search, one double
 * uniform per sample. Otherwise: the exponential race q = p / Exp(1) then argmax / top-k, the
 * exponentials drawn in the memory order of empty_like(probs). The runtime checks shapes,
 * negative / non-finite / all-zero rows and nsample <= ncat without replacement; the kernel
 * also returns TN_ERR_VALUE for those it meets. */
tn_status tn_multinomial(tn_generator *g, int dtype, const void *probs, int64_t rows, int64_t ncat,
                         int64_t row_stride, int64_t col_stride, int64_t nsample, int replacement,
                         int64_t *out);

#endif /* TN_KERNELS_RANDOM_H */
