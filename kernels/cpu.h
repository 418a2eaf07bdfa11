/* Which instruction-set paths this machine runs, and the one set of target attributes every
 * kernel file compiles those paths with. A path is chosen at run time (the CPU is asked once);
 * the portable C path is always there. Tests can also force the elementwise families' plain
 * reference loops (tn_elementwise_set_reference).
 * Adding an ISA: its TN_TARGET_* macro here, its tn_cpu_has_* in cpu.c.
 */
#ifndef TN_KERNELS_CPU_H
#define TN_KERNELS_CPU_H

#if defined(__x86_64__) || defined(__i386__)
#define TN_X86 1
#include <immintrin.h>
/* AVX2 path: AVX2 + FMA + F16C (every AVX2 CPU has all three). */
#define TN_TARGET_AVX2 __attribute__((target("avx2,fma,f16c")))
/* AVX-512 path: F, BW, VL and DQ, the set upstream's AVX512 build requires. */
#define TN_TARGET_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx2,fma,f16c")))
#define TN_TARGET_AVX512BF16 \
    __attribute__((target("avx512bf16,avx512f,avx512bw,avx512vl,avx512dq,avx2,fma,f16c")))
#else
#define TN_X86 0
/* elsewhere the "AVX2" copies of the elementwise loops are the same C, built plainly */
#define TN_TARGET_AVX2
#define TN_TARGET_AVX512
#define TN_TARGET_AVX512BF16
#endif

/* Does this CPU run the path (checked once)? Each implies the ones above it. */
int tn_cpu_has_avx2(void);
int tn_cpu_has_avx512(void);
int tn_cpu_has_avx512bf16(void);
int tn_cpu_has_avx512fp16(void); /* AVX512-FP16: oneDNN's float16 paths (mkldnn_fp16_device_check) */

/* Tests only: when on, every kernel in copy.c, binary.c and unary.c runs its plain scalar
 * reference loop (one thread, element by element, no SIMD) so results can be compared with the
 * fast paths. Not thread-safe; flip it only between kernel calls. */
void tn_elementwise_set_reference(int on);
int tn_elementwise_reference(void);

#endif /* TN_KERNELS_CPU_H */
