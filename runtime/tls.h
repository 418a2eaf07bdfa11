/* Thread-local state: grad mode, inference mode, the __torch_function__ mode stack and its
 * disabled state, the __torch_dispatch__ mode stack, autocast flags. Upstream keeps all of
 * these per thread (generate() runs under no_grad on a background thread while the main
 * thread keeps grad mode on), so do we.
 */
#ifndef TN_RUNTIME_TLS_H
#define TN_RUNTIME_TLS_H

#include "pyapi.h"

enum {
    TN_TF_ENABLED = 0,
    TN_TF_SUBCLASSES_DISABLED = 1,
    TN_TF_ALL_DISABLED = 2,
};

typedef struct {
    int grad_disabled;       /* 0: grad enabled (the default) */
    int inference_mode;
    int fwd_grad_disabled;
    int tf_state;            /* TN_TF_* */
    PyObject *tf_stack;      /* list of torch-function modes, innermost last */
    PyObject *td_stack;      /* list of torch-dispatch modes */
    PyObject *td_infra[3];   /* FAKE, PROXY, FUNCTIONAL infra-mode slots */
    PyObject *stash;         /* dict for _stash_obj_in_tls */
    int dispatch_disabled;   /* _DisableTorchDispatch */
    int below_autograd;      /* inside an op autograd already recorded: nested calls record nothing */
    int meta_twin;           /* a CPU call's meta function computed on meta twins (Note [Meta twins]
                              * in dispatch.c): a kernel's meta path checks what upstream's C++
                              * meta function checks, not torch's Python meta registration */
} tn_tls_state;

extern _Thread_local tn_tls_state tn_tls;

static inline int
tn_grad_enabled(void)
{
    return !tn_tls.grad_disabled;
}

/* A torch-function mode is active: route through handle_torch_function. */
static inline int
tn_torch_function_mode_active(void)
{
    return tn_tls.tf_state != TN_TF_ALL_DISABLED && tn_tls.tf_stack &&
           PyList_Size(tn_tls.tf_stack) > 0;
}

static inline int
tn_torch_function_enabled(void)
{
    return tn_tls.tf_state == TN_TF_ENABLED;
}

static inline int
tn_torch_dispatch_active(void)
{
    return !tn_tls.dispatch_disabled &&
           ((tn_tls.td_stack && PyList_Size(tn_tls.td_stack) > 0) || tn_tls.td_infra[0] ||
            tn_tls.td_infra[1] || tn_tls.td_infra[2]);
}

int tn_torch_function_stack_push(PyObject *mode);
PyObject *tn_torch_function_stack_pop(void);  /* new reference */

/* Set by _disabled_torch_function_impl's creation; compared against __torch_function__. */
extern PyObject *tn_disabled_torch_function;
extern PyObject *tn_disabled_torch_dispatch;

int tn_tls_init(PyObject *module);

/* Autocast flags per device slot (torch.is_autocast_enabled(device)); 0 while an autocast op
 * runs (excluded). autocast.c holds the rest of autocast (Note [Autocast]). */
enum { TN_AC_CPU, TN_AC_CUDA, TN_AC_XPU, TN_AC_MPS, TN_AC_BF16_OTHER, TN_AC_OTHER, TN_AC_N };
extern _Thread_local int tn_autocast_enabled[TN_AC_N];

#endif /* TN_RUNTIME_TLS_H */
