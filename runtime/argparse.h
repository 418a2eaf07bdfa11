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

typedef enum {
    TN_P_TENSOR, TN_P_SCALAR, TN_P_INT, TN_P_SYMINT, TN_P_DOUBLE, TN_P_COMPLEX, TN_P_BOOL,
    TN_P_TENSORLIST, TN_P_OPT_TENSORLIST, TN_P_INTLIST, TN_P_SYMINTLIST, TN_P_DOUBLELIST,
    TN_P_BOOLLIST, TN_P_SCALARLIST, TN_P_GENERATOR, TN_P_STORAGE, TN_P_PYOBJECT,
    TN_P_DTYPE, TN_P_LAYOUT, TN_P_MEMFMT, TN_P_QSCHEME, TN_P_DEVICE, TN_P_STREAM,
    TN_P_STRING, TN_P_STRINGLIST, TN_P_DIMNAME, TN_P_DIMNAMELIST, TN_P_ANY,
    TN_P_ANYLIST,  /* t[]: any list or tuple, passed through */
} tn_ptype;

/* Where a Python-signature parameter goes in the op's schema arguments. */
enum {
    TN_TARGET_DROP = -1,          /* python-only, ignored (pin_memory without a schema slot) */
    TN_TARGET_REQUIRES_GRAD = -2, /* applied to the result */
    TN_TARGET_OUT = -3,           /* the out= tensor(s) */
    TN_TARGET_CHECK_OUT = -4,     /* dtype/layout/device given with out=: must match out */
};

typedef struct {
    PyObject *name;          /* interned */
    PyObject *aliases[3];    /* NumPy spellings (dim -> axis, ...), interned */
    int8_t type;
    int8_t allow_none;
    int8_t optional;         /* has a default */
    int8_t kwonly;
    int8_t numbers_as_tensors;
    int8_t from_schema;       /* a boxed call's parameter: a ScalarType also takes its int code */
    int8_t is_out;           /* schema: an out argument (Tensor(a!) after *) */
    int16_t size;            /* [N] */
    int16_t target;          /* schema argument index, or TN_TARGET_* */
    tn_value dflt;           /* the default, when optional and not None */
    const char *cname;       /* name for messages */
} tn_param;

typedef struct tn_schema {
    const char *name;        /* function name for messages */
    int nparams;
    int max_pos;
    int min_args;
    int deprecated;
    int hidden;
    int nreturns;
    int returns_list;  /* one return of list type (Tensor[]): torch.ops gives a list */
    int returns_scalartype;  /* one ScalarType return: torch.ops gives its int code (an IValue) */
    tn_param *params;
} tn_schema;

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

/* Parse an ATen schema string ("aten::add.Tensor(Tensor self, ...) -> Tensor"). */
tn_schema *tn_schema_parse(const char *text);
tn_schema *tn_op_schema(tn_op *op);

/* Convert one Python object to a boxed value of a parameter's type (the parser's converter,
 * exposed for the hand-written methods). Lists live in `arena` until tn_arena_free. */
typedef struct tn_arena {
    char *blocks[16];
    int nblocks;
    char buf[1024];
    size_t used;
} tn_arena;

void *tn_arena_alloc(tn_arena *a, size_t n);
void tn_arena_free(tn_arena *a);
int tn_convert(const tn_param *p, PyObject *obj, tn_value *out, tn_arena *arena);
PyObject *tn_value_to_py(const tn_value *v);

/* Hand-written bindings (size, to, tensor, ...) parse with the same engine: upstream's
 * signature strings for that function, matched in order. */
typedef struct {
    const char *name;            /* public name, for __torch_function__ and messages */
    int is_method;
    int n;
    const char *const *texts;
    tn_schema **sigs;            /* parsed on first use */
} tn_manual_sigs;

/* Returns the index of the matching signature with raw[i] per parameter (NULL: default),
 * -1 on error, or -2 when __torch_function__ handled the call (*handled holds the result). */
int tn_manual_parse(tn_manual_sigs *m, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwnames, PyObject **raw, PyObject **handled);
/* raw[i] (or the default) of signature k as a value. */
int tn_manual_value(tn_manual_sigs *m, int k, int i, PyObject *raw, tn_value *out, tn_arena *arena);

/* Call an ATen overload by name with boxed values (hand-written code reaching the door). */
PyObject *tn_call_op(const char *qualname, const char *overload, tn_value *args);

int tn_argparse_init(PyObject *module);

/* Call `api` through the active __torch_function__ mode or the overloaded arguments' handlers
 * (upstream's handle_torch_function); nov may be 0 when only modes apply. */
PyObject *tn_handle_torch_function(PyObject *api, PyObject *const *ov, int nov, PyObject *args, PyObject *kwargs);
/* torch.* / torch._C._nn.* ... : the object a binding's functions live on (borrowed). */
PyObject *tn_module_for_binding(int flags);

#endif /* TN_RUNTIME_ARGPARSE_H */
