/* Global settings of upstream's at::globalContext() (and the few process-wide flags that live
 * next to it: warnAlways, the backcompat warnings, the autograd fallback mode), with upstream's
 * defaults, and the torch._C functions that get and set them (runtime/context.c).
 * To add a setting: a field in tn_context_state, its default in context.c, a getter/setter.
 * The ops (ops/<family>.c) read tn_context; see Note [Settings kernels must honour].
 */
#ifndef TN_RUNTIME_CONTEXT_H
#define TN_RUNTIME_CONTEXT_H

#include "pyapi.h"

/* at::Float32Backend, at::Float32Op, at::Float32Precision (numbered as upstream: their values
 * appear in upstream's error messages). */
enum { TN_FP32_GENERIC, TN_FP32_CUDA, TN_FP32_MKLDNN, TN_FP32_NBACKENDS };
enum { TN_FP32_ALL, TN_FP32_CONV, TN_FP32_RNN, TN_FP32_MATMUL, TN_FP32_NOPS };
enum { TN_PREC_NONE, TN_PREC_IEEE, TN_PREC_TF32, TN_PREC_BF16, TN_PREC_DEFAULT };

/* at::Float32MatmulPrecision */
enum { TN_MATMUL_HIGHEST, TN_MATMUL_HIGH, TN_MATMUL_MEDIUM };

/* c10::QEngine */
enum { TN_QENGINE_NONE, TN_QENGINE_FBGEMM, TN_QENGINE_QNNPACK, TN_QENGINE_ONEDNN, TN_QENGINE_X86 };

/* torch::autograd::AutogradFallbackMode */
enum { TN_AUTOGRAD_FALLBACK_NOTHING, TN_AUTOGRAD_FALLBACK_WARN, TN_AUTOGRAD_FALLBACK_ERROR };

/* at::SDPBackend, the values _get_sdp_priority_order reports */
enum { TN_SDP_MATH, TN_SDP_FLASH, TN_SDP_EFFICIENT, TN_SDP_CUDNN, TN_SDP_OVERRIDEABLE, TN_SDP_NBACKENDS };

typedef struct {
    /* determinism: see Note [Settings kernels must honour] */
    bool deterministic_algorithms;
    bool deterministic_warn_only;
    bool deterministic_fill_uninitialized_memory;
    /* scaled_dot_product_attention backends */
    bool sdp_flash, sdp_fa3, sdp_mem_efficient, sdp_math, sdp_cudnn, sdp_overrideable;
    bool math_sdp_allow_fp16_bf16_reduction;
    int32_t sdp_priority_order[TN_SDP_NBACKENDS];
    /* float32 precision: the legacy matmul setting and the (backend, op) table */
    int float32_matmul_precision;           /* TN_MATMUL_* */
    int8_t fp32_precision[TN_FP32_NBACKENDS][TN_FP32_NOPS]; /* TN_PREC_*, as stored (unresolved) */
    bool allow_tf32_cudnn;
    /* backend switches a CPU build stores and ignores */
    bool cudnn_enabled, cudnn_benchmark, cudnn_deterministic;
    int cudnn_depthwise_kernel;             /* 0 auto, 1 cudnn, 2 native */
    bool miopen_immediate;
    bool mkldnn_enabled, mkldnn_deterministic;
    bool nnpack_enabled;
    int cublas_fp16_reduction, cublas_bf16_reduction; /* at::CuBLASReductionOption */
    bool cublas_fp16_accumulation;
    bool sm_carveout_set;
    int32_t sm_carveout;
    int linalg_backend, blas_backend, rocm_fa_backend; /* values of _LinalgBackend, _BlasBackend, _ROCmFABackend */
    bool cached_tensors_enabled;
    bool warn_on_accumulate_grad_stream_mismatch;
    bool override_stale_capture_stream;
    bool mobile_cpu_allocator_set;
    /* quantized engine; TN_QENGINE_NONE until set (no engine is supported: see context.c) */
    int qengine;
    int check_sparse_tensor_invariants;     /* -1 unset (reads as False), 0, 1 */
    /* c10 warning utilities and old warning switches */
    bool warn_always;
    bool backcompat_broadcast_warn, backcompat_keepdim_warn;
    int autograd_fallback_mode;             /* TN_AUTOGRAD_FALLBACK_* */
    bool flush_denormal;                    /* last value given to set_flush_denormal that took */
} tn_context_state;

extern TN_INTERNAL tn_context_state tn_context;

/* Per-thread settings upstream keeps thread-local. */
typedef struct {
    bool grad_layout_not_enforced;          /* AccumulateGrad's layout contract (default: enforced) */
    PyObject *graph_exec_group;             /* torch.utils.checkpoint.GraphExecGroup or NULL */
} tn_context_tls_state;

extern TN_INTERNAL _Thread_local tn_context_tls_state tn_context_tls;

/* Note [Settings kernels must honour]
 * Most settings here select CUDA/ROCm/oneDNN code paths and a CPU build stores and ignores them,
 * as upstream's CPU build does. These change what upstream computes on CPU, so kernel glue must
 * read them (or refuse by name):
 * - deterministic algorithms: ops without a deterministic implementation call
 *   tn_alert_not_deterministic("put_") (on CPU upstream alerts for put_ with accumulate=False).
 * - tn_fill_uninitialized_memory(): empty, empty_like, empty_strided, new_empty and the grown
 *   part of resize_ are filled with NaN (floating, complex real part) or the dtype's max value
 *   (integers; True for bool).
 * - sdp_flash / sdp_math: scaled_dot_product_attention picks flash, else math; with both off it
 *   raises "No viable backend for scaled_dot_product_attention was found. ...".
 *   math_sdp_allow_fp16_bf16_reduction: the math path for float16/bfloat16 may reduce in that
 *   dtype instead of upcasting.
 * - tn_fp32_precision(TN_FP32_MKLDNN, TN_FP32_MATMUL/CONV/RNN) == TN_PREC_BF16 or TF32: upstream
 *   computes float32 matmul/conv through oneDNN in reduced precision only on CPUs with AMX/bf16
 *   support for it; elsewhere it is ignored.
 * - check_sparse_tensor_invariants: sparse constructors validate indices when it is 1.
 * - warn_always: a warn-once path warns every time.
 * - autograd_fallback_mode, grad layout enforcement: the autograd engine.
 */
static inline bool
tn_fill_uninitialized_memory(void)
{
    return tn_context.deterministic_algorithms && tn_context.deterministic_fill_uninitialized_memory;
}

/* at::Context::float32Precision(backend, op) resolved through "all" and "generic" (TN_PREC_*).
 * -1 with a RuntimeError for a pair upstream does not have. */
TN_INTERNAL int tn_fp32_precision(int backend, int op);

/* at::Context::alertNotDeterministic: 0 when allowed (after a UserWarning in warn-only mode),
 * -1 with RuntimeError when deterministic algorithms are required. */
TN_INTERNAL int tn_alert_not_deterministic(const char *caller);

/* "DEFAULT", "AVX2", "AVX512", "SVE256": the CPU capability upstream's dispatch would use
 * (ATEN_CPU_CAPABILITY honoured as upstream). */
TN_INTERNAL const char *tn_cpu_capability(void);

/* The torch._C functions of this file (module-level; _add_docstr can look docs up here). */
extern PyMethodDef tn_context_functions[];

int tn_context_init(PyObject *module);

#endif /* TN_RUNTIME_CONTEXT_H */
