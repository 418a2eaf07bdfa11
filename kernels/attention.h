/* Attention: scaled dot-product attention computed as upstream's
 * aten::_scaled_dot_product_flash_attention_for_cpu does (online softmax over key blocks, never the
 * L×S score matrix). A new dtype is a case in tn_sdpa's switch; a new mask dtype a case in
 * mask_row() in attention.c. See Note [Flash attention on the CPU] there.
 */
#ifndef TN_KERNELS_ATTENTION_H
#define TN_KERNELS_ATTENTION_H

#include <stdint.h>

#include "element.h"

/* out = softmax(scale * q @ k^T + mask) @ v, per batch b and query head h.
 * q [B, Hq, L, E], k [B, Hkv, S, E], v [B, Hkv, S, Ev], out [B, Hq, L, Ev]: each given by a pointer
 * and 4 element strides in that dimension order (any strides; 0 broadcasts).
 * Grouped-query attention: Hq % Hkv == 0 and query head h reads kv head h / (Hq / Hkv).
 * dtype: float32, float16, bfloat16 (computed in f32: scores and the running sums in f32; the
 * softmax probabilities are rounded to the input dtype before they multiply v, as upstream does;
 * the output rounds once) or float64 (all in double).
 * is_causal: query i sees keys j <= i, top-left aligned as upstream 2.13 builds it
 * (torch.ones(L, S).tril(0)), whatever L and S are.
 * mask (NULL: none): broadcastable to [B, Hq, L, S] through mask_strides (0 broadcasts); mask_dtype
 * bool (true = attend, false = -inf) or float32/float64/float16/bfloat16 (added to the scaled
 * scores). A row whose keys are all masked gives output 0 and logsumexp 0, as upstream.
 * scale: the caller's (upstream's default is 1/sqrt(E)).
 * logsumexp (NULL: not wanted): [B, Hq, L] of max + log(sum) of the scaled, masked scores, in the
 * accumulate type (float32, or float64 for float64 inputs), at element strides lse_strides
 * (NULL: contiguous [B][Hq][L]; upstream's tensor has strides {Hq*L, 1, Hq}).
 * Returns TN_ERR_VALUE for negative sizes or Hq % Hkv != 0, TN_ERR_DTYPE for other dtypes. */
tn_status tn_sdpa(int dtype, int64_t B, int64_t Hq, int64_t Hkv, int64_t L, int64_t S, int64_t E,
                  int64_t Ev, const void *q, const int64_t q_strides[4], const void *k,
                  const int64_t k_strides[4], const void *v, const int64_t v_strides[4],
                  const void *mask, int mask_dtype, const int64_t mask_strides[4], int is_causal,
                  double scale, void *out, const int64_t out_strides[4], void *logsumexp,
                  const int64_t lse_strides[3]);

/* tn_sdpa with the softmax of upstream's math path (the inputs its flash kernel does not take):
 * a NaN score makes its row's output NaN, where the flash kernel's running max skips it (a row
 * of NaN and -inf scores is fully masked there, output 0). No logsumexp. */
tn_status tn_sdpa_math(int dtype, int64_t B, int64_t Hq, int64_t Hkv, int64_t L, int64_t S, int64_t E,
                       int64_t Ev, const void *q, const int64_t q_strides[4], const void *k,
                       const int64_t k_strides[4], const void *v, const int64_t v_strides[4],
                       const void *mask, int mask_dtype, const int64_t mask_strides[4], int is_causal,
                       double scale, void *out, const int64_t out_strides[4]);

/* tn_sdpa (math_softmax 0) or tn_sdpa_math (math_softmax 1) computed for float32 as for float64:
 * scores, softmax and the weighted sum of v in double (each product of float32 values is exact
 * there), every output and logsumexp element rounded once. dtype float32 or float64, else
 * TN_ERR_DTYPE. The ops take it for small calls (Note [Small float32 attention in double] in
 * ops/matmul.c). */
tn_status tn_sdpa_in_double(int dtype, int64_t B, int64_t Hq, int64_t Hkv, int64_t L, int64_t S, int64_t E,
                            int64_t Ev, const void *q, const int64_t q_strides[4], const void *k,
                            const int64_t k_strides[4], const void *v, const int64_t v_strides[4],
                            const void *mask, int mask_dtype, const int64_t mask_strides[4], int is_causal,
                            double scale, void *out, const int64_t out_strides[4], void *logsumexp,
                            const int64_t lse_strides[3], int math_softmax);

/* Gradients of tn_sdpa with logsumexp saved (upstream's _scaled_dot_product_flash_attention_for_cpu
 * _backward): with P = exp(scale * q @ k^T + mask - logsumexp) (causal and masked keys 0),
 * D = rowsum(grad_out * out), dS = P * (grad_out @ v^T - D):
 *   grad_v = P^T @ grad_out, grad_q = scale * dS @ k, grad_k = scale * dS^T @ q,
 * grad_k and grad_v summed over the query heads of a kv head (grouped-query attention).
 * Shapes and strides as tn_sdpa's; grad_out and out [B, Hq, L, Ev]; logsumexp [B, Hq, L] in the
 * accumulate type at lse_strides; grad_q/grad_k/grad_v like q/k/v at their own strides, fully
 * written. f32/f16/bf16 accumulate in f32 and round once; f64 in double. */
tn_status tn_sdpa_backward(int dtype, int64_t B, int64_t Hq, int64_t Hkv, int64_t L, int64_t S,
                           int64_t E, int64_t Ev, const void *grad_out, const int64_t go_strides[4],
                           const void *q, const int64_t q_strides[4], const void *k,
                           const int64_t k_strides[4], const void *v, const int64_t v_strides[4],
                           const void *out, const int64_t out_strides[4], const void *logsumexp,
                           const int64_t lse_strides[3], const void *mask, int mask_dtype,
                           const int64_t mask_strides[4], int is_causal, double scale,
                           void *grad_q, const int64_t gq_strides[4], void *grad_k,
                           const int64_t gk_strides[4], void *grad_v, const int64_t gv_strides[4]);

#endif /* TN_KERNELS_ATTENTION_H */
