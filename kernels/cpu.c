/* CPU features, asked once (see cpu.h), and the reference-loop switch. */
#include "cpu.h"

#if TN_X86
#include <cpuid.h>
#endif

enum { HAS_AVX2 = 1, HAS_AVX512 = 2, HAS_AVX512BF16 = 4, HAS_AVX512FP16 = 8 };

static int
detect(void)
{
    int f = 0;
#if TN_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c"))
        f |= HAS_AVX2;
    if ((f & HAS_AVX2) && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
        f |= HAS_AVX512;
    if ((f & HAS_AVX512) && __builtin_cpu_supports("avx512bf16"))
        f |= HAS_AVX512BF16;
    unsigned a7, b7, c7, d7;  /* CPUID.(7,0):EDX[23]; GCC 12's __builtin_cpu_supports misses it */
    if ((f & HAS_AVX512) && __get_cpuid_count(7, 0, &a7, &b7, &c7, &d7) && (d7 & (1u << 23)))
        f |= HAS_AVX512FP16;
#endif
    return f;
}

static int
features(void)
{
    static int cached = -1;  /* a benign race: every thread computes the same value */
    if (cached < 0)
        cached = detect();
    return cached;
}

int
tn_cpu_has_avx2(void)
{
    return (features() & HAS_AVX2) != 0;
}

int
tn_cpu_has_avx512(void)
{
    return (features() & HAS_AVX512) != 0;
}

int
tn_cpu_has_avx512bf16(void)
{
    return (features() & HAS_AVX512BF16) != 0;
}

int
tn_cpu_has_avx512fp16(void)
{
    return (features() & HAS_AVX512FP16) != 0;
}

static int reference_mode;

void
tn_elementwise_set_reference(int on)
{
    reference_mode = on;
}

int
tn_elementwise_reference(void)
{
    return reference_mode;
}
