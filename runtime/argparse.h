/* The argument parser: upstream's PythonArgParser rules in C, over signature strings.
 * Generated bindings (generated/bindings_*.c) hold upstream's signature strings; the first
 * call of a binding parses them into tn_param arrays, and every call matches against those.
 * The same engine parses ATen schema strings for boxed calls (torch.ops.aten.X.Y(...)).
 * See Note [Overload resolution] in argparse.c.
 */
#ifndef TN_RUNTIME_ARGPARSE_H
#define TN_RUNTIME_ARGPARSE_H

#include "pyapi.h"
#include "value.h"
#include "dispatch.h"
#include "schema.h"

/* One Python signature of a binding: generated. */
typedef struct {
    const char *text;
    int functional;          /* op id called when out is None */
    int out;                 /* op id called when out= is given, or -1 */
    const char *deprecated_args;
    int structseq;
    int structseq_out;
    /* parsed lazily */
    tn_schema *sig;
    int16_t *map_functional; /* for each schema arg of the functional op: param index or const */
    int16_t *map_out;
    int16_t out_param;       /* index of `out` in sig, or -1 */
    int16_t requires_grad_param;
} tn_sigdef;

enum {
    TN_BINDING_TENSOR = 1 << 0,
    TN_BINDING_TORCH = 1 << 1,
    TN_BINDING_NN = 1 << 2,
    TN_BINDING_FFT = 1 << 3,
    TN_BINDING_LINALG = 1 << 4,
    TN_BINDING_NESTED = 1 << 5,
    TN_BINDING_SPARSE = 1 << 6,
    TN_BINDING_SPECIAL = 1 << 7,
    TN_BINDING_DUNDER = 1 << 8,   /* binary dunder: a TypeError becomes NotImplemented */
};

typedef struct {
    const char *name;
    int flags;
    int nsigs;
    tn_sigdef *sigs;
    int ready;
} tn_binding;

typedef struct {
    const char *module;
    PyMethodDef *const *tables;
} tn_binding_module;

extern const tn_binding_module tn_binding_modules[];

PyObject *tn_binding_call(tn_binding *b, PyObject *self, PyObject *const *args,
                          Py_ssize_t nargs, PyObject *kwnames);

/* Boxed call by schema: torch.ops.aten.X.Y(*args, **kwargs). */
PyObject *tn_call_boxed(tn_op *op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *tn_call_boxed_matched(tn_op *op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                                int *matched);
PyObject *tn_call_boxed_tuple(tn_op *op, PyObject *args, PyObject *kwargs);

/* upstream's check_out_type_matches for a factory given out= (Note [Out type check]): dtype,
 * layout and device (each NULL or None when not given) against out; -1 with the error set. */
int tn_check_out_type_matches(PyObject *out, PyObject *dtype, PyObject *layout, PyObject *device);

/* Convert one Python object to a boxed value of a parameter's type (the parser's converter,
 * exposed for the hand-written methods). Lists live in `arena` until tn_arena_free. */
typedef struct tn_arena {
    char *blocks[16];
    int nblocks;
    /* 16-aligned like the chunks handed out of it (int64 and double lists): after `nblocks` it
     * sat at 4 mod 8, so every list was misaligned (UBSan's report in tools/asan.py) */
    _Alignas(16) char buf[1024];
    size_t used;
} tn_arena;

void *tn_arena_alloc(tn_arena *a, size_t n);
void tn_arena_free(tn_arena *a);
int tn_convert(const tn_param *p, PyObject *obj, tn_value *out, tn_arena *arena);

/* Hand-written bindings (size, to, tensor, ...) parse with the same engine: upstream's
 * signature strings for that function, matched in order. */
typedef struct {
    const char *name;            /* public name, for __torch_function__ and messages */
    int is_method;
    int n;
    const char *const *texts;
    tn_schema **sigs;            /* parsed on first use */
    const char *module;          /* where __torch_function__ finds it (NULL: torch) */
    int no_torch_function;       /* upstream does not offer the call to __torch_function__ (finfo) */
} tn_manual_sigs;

/* Returns the index of the matching signature with raw[i] per parameter (NULL: default),
 * -1 on error, or -2 when __torch_function__ handled the call (*handled holds the result). */
int tn_manual_parse(tn_manual_sigs *m, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwnames, PyObject **raw, PyObject **handled);
/* The same for a METH_VARARGS | METH_KEYWORDS function (args tuple, kwds dict or NULL); raw[i]
 * are borrowed from args and kwds. */
int tn_manual_parse_tuple(tn_manual_sigs *m, PyObject *self, PyObject *args, PyObject *kwds, PyObject **raw,
                          PyObject **handled);
/* raw[i] (or the default) of signature k as a value. */
int tn_manual_value(tn_manual_sigs *m, int k, int i, PyObject *raw, tn_value *out, tn_arena *arena);

/* torch.* / torch._C._nn.* ... : the object a binding's functions live on (borrowed); module
 * init tells the parser where each binding's functions went (flags: one TN_BINDING_*). */
PyObject *tn_module_for_binding(int flags);
void tn_set_module_for_binding(int flags, PyObject *module);

#endif /* TN_RUNTIME_ARGPARSE_H */
