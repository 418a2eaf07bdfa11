/* tn_op: one entry of the op table (every ATen overload, generated/ops_table.c, plus ops
 * Python defines at run time), and the errors that name an op: refusals, the dtype check
 * against schemas/kernels.yaml, and kernel statuses turned into Python exceptions.
 */
#ifndef TN_RUNTIME_OP_H
#define TN_RUNTIME_OP_H

#include "pyapi.h"
#include "value.h"
#include "kernels/element.h"
#include "generated/ops.h"

/* Schema kinds, as torchgen's SchemaKind names them. */
enum {
    TN_OPK_FUNCTIONAL = 1,
    TN_OPK_INPLACE = 2,
    TN_OPK_OUT = 3,
    TN_OPK_MUTABLE = 4,
    TN_OPK_SCRATCH = 5,
    TN_OPK_MASK = 0x7,
    TN_OPF_VIEW = 1 << 4,   /* returns an alias of an input */
    TN_OPF_CIA = 1 << 5,    /* CompositeImplicitAutograd upstream: a decomposition, no kernel */
    TN_OPF_AUTOCAST = 1 << 6, /* upstream registers it for AutocastCPU (Note [Autocast] in autocast.c) */
    TN_OPF_OUT_EXACT = 1 << 7, /* structured out= or in-place, not TensorIterator: out/self.dtype must equal the result's */
    TN_OPF_OUT_DTYPE = 1 << 8, /* ... and dtype=None computes in out's dtype (Note [out= rules]) */
    TN_OPF_OUT_SAME = 1 << 9,  /* TensorIterator with check_all_same_dtype: out.dtype == the result's */
    TN_OPF_OUT_BOOL = 1 << 10, /* out must be bool ("<op> does not support non-boolean outputs.") */
    TN_OPF_OUT_SELF = 1 << 11, /* out's dtype must be self's, checked before computing */
    TN_OPF_OUT_BYTEBOOL = 1 << 13,     /* any/all: out is bool or uint8, written as computed in bool */
    TN_OPF_OVERLAP_UNCHECKED = 1 << 12, /* in-place / out= whose upstream kernel writes an overlapping self / out unchecked */
    TN_OPF_OUT_STRUCTURED = 1 << 14,   /* structured out=: a resized out takes the meta function's strides */
    TN_OPF_ITER_ALIAS = 1 << 15,       /* out= or in-place alias of a pointwise op (multiply.out is mul.out, fix_ is trunc_): its TensorIterator checks */
    TN_OPF_OUT_NUMEL_RESIZE = 1 << 16, /* range factories' out=: resized only when its numel differs (an out of the right numel keeps its shape) */
    TN_OPF_OUT_QUIET_RESIZE = 1 << 17, /* ... resized by the op's own resize_: no deprecation warning */
    TN_OPF_OUT_COPY_DEVICES = 1 << 18, /* out= reaching a Python meta's out_wrapper: self and out share a device, checked first (Note [Meta out= through a Python meta]) */
    TN_OPF_OUT_COPY_SCALAR_OK = 1 << 20, /* ... but a 0-dim CPU self's result is copied unchecked (_safe_copy_out's CPU scalar) */
    TN_OPF_OUT_RESIZE_ONLY = 1 << 22,  /* out= upstream resize_output()s: a resized out stays contiguous (autogen wrappers) */
    TN_OPF_OUT_UNARY_ITER = 1 << 23,   /* a TensorIterator out= of one operand, not structured: a resized out takes that operand's iterator layout */
    TN_OPF_CIA_CHECKS_FIRST = 1 << 19, /* a CIA out= whose decomposition checks its arguments before its out= op's autograd check (Note [CIA out= under autograd]) */
    TN_OPF_META_ANY_DEVICE = 1 << 21,  /* structured out= whose C++ meta function compares no devices: a meta self takes CPU inputs (codegen/model.py META_ANY_DEVICE_OUT) */
    TN_OPF_KERNEL_MIXES_DEVICES = 1 << 24, /* a composite whose kernel the Meta key runs takes tensors on any devices: its parts check them (codegen/model.py KERNEL_MIXES_DEVICES) */
};

typedef PyObject *(*tn_kernel_fn)(tn_value *args);

struct tn_schema;
struct tn_out_call;

typedef struct tn_op {
    const char *name;      /* "add" */
    const char *overload;  /* "Tensor", or "" for the default overload */
    const char *schema;    /* upstream's printed schema, "aten::add.Tensor(...) -> Tensor" */
    unsigned flags;
    unsigned tags;         /* TN_TAG_* bits */
    int functional;        /* id of the functional sibling of an inplace/out op, or -1 */
    int cia_alias;         /* a CompositeImplicitAutograd alias's target (subtract_ -> sub_), or -1:
                            * see Note [Meta of a CIA alias] in dispatch.c */
    /* filled at init from generated/kernel_glue.c */
    tn_kernel_fn kernel;
    int meta_ok;           /* the kernel computes geometry only; it also serves meta tensors */
    const char *dtype_names;
    uint64_t dtype_mask;
    /* filled lazily */
    struct tn_schema *parsed;  /* the schema parsed into parameters, for boxed calls */
    PyObject *py_kernels;      /* dict: dispatch key name -> Python callable (torch.library) */
    unsigned py_keys;          /* TN_PYK_* bits: which of the door's keys py_kernels holds */
    PyObject *py_overload;     /* torch.ops.<ns>.<name>.<overload>, for __torch_dispatch__ */
    int id;
    const char *ns;            /* NULL means "aten" */
    uint64_t kernel_calls;     /* times its C kernel ran: which kernels the tests exercised */
    /* autograd (generated/autograd_table.c): what the door does when an argument requires
     * grad; see Note [Autograd at the door] in autograd.c */
    int ag_mode;
    PyObject *(*ag_record)(struct tn_op *op, tn_value *args);
    uint64_t ag_out_nondiff;   /* TN_AG_OUT: bits of the tensor arguments its check skips */
    const char *ag_out_name;   /* TN_AG_OUT: the op its refusal names, NULL for its own */
    int ag_has_formula;        /* TN_AG_NOTIMPL: upstream has a formula torchnative does not run */
    /* a CompositeImplicitAutograd op's C decomposition (ops/compositions.c, op for op as ATen's
     * C++ composes it), or NULL; meta tensors take it (Note [Meta kernels] in dispatch.c) */
    PyObject *(*compose)(struct tn_op *op, tn_value *args);
    /* set on a functional overload: its in-place and out= siblings run this check first
     * (generated/kernel_glue.c from schemas/kernels.yaml; Note [Out checks] in dispatch.c) */
    int (*out_check)(struct tn_out_call *c);
} tn_op;

extern tn_op tn_ops[TN_NUM_ATEN_OPS];
/* Full schemas of ops upstream registers outside native_functions.yaml (schemas/extra_ops.yaml). */
extern const char *const tn_extra_schemas[TN_NUM_EXTRA_OPS];

/* Look up an op by id (aten) or by pointer for dynamic ops. */
static inline tn_op *
tn_op_by_id(int id)
{
    return &tn_ops[id];
}

/* "aten::add.Tensor" into buf; returns buf. */
const char *tn_op_qualname(const tn_op *op, char *buf, size_t n);

/* Raise NotImplementedError naming the op and what would make it work. Returns NULL. */
PyObject *tn_refuse(const tn_op *op, const char *why);
/* Raise the dtype refusal: "aten::add.Tensor has no kernel in torchnative for float16 (...)" */
PyObject *tn_refuse_dtype(const tn_op *op, int dtype);
/* A kernel calls this with the dtype it will compute in; raises and returns -1 if refused. */
int tn_check_dtype(const tn_op *op, int dtype);
/* A Scalar a kernel converts (Scalar::to<T>, checked) inside its dtype dispatch: the dispatch
 * refuses a dtype the kernel lacks (tn_check_dtype on `dtype`) before the value converted to `to`
 * is checked (Note [Scalar overflow] in scalar.c, its order). -1 with the error set. */
int tn_check_kernel_scalar(const tn_op *op, int dtype, const tn_value *v, int to);
/* torch._C._torchnative.<name>(a, b, c) (the embedded Python's helpers; NULLs end the arguments). */
PyObject *tn_call_private(const char *name, PyObject *a, PyObject *b, PyObject *c);
/* NotImplementedError for `missing` ("aten::x.y", "aten::x.y for complex64") with `why`, worded
 * by support.refusal_message to name what the user called (Note [Refusal messages]); NULL. */
PyObject *tn_raise_refusal(const char *missing, const char *why);
/* A factory's `bool? pin_memory` argument: True raises upstream's RuntimeError (pinned memory
 * needs an accelerator backend, which a CPU build has not) and returns 1; otherwise 0, also
 * when the result is a meta tensor (its `device` argument, else `self`'s device; either NULL). */
int tn_refuse_pin_memory(const tn_value *pin_memory, const tn_value *device, const tn_value *self);

/* What a C++ kernel's std::length_error and std::bad_alloc say: raised as RuntimeError (the
 * bindings'), translated on the boxed path (Note [Standard exceptions on the boxed path]). A
 * std::vector<T> holds at most PTRDIFF_MAX / sizeof(T) elements. */
#define TN_CXX_LENGTH_ERROR "cannot create std::vector larger than max_size()"
#define TN_CXX_BAD_ALLOC "std::bad_alloc"
#define TN_CXX_VECTOR_MAX(T) ((int64_t)((size_t)PTRDIFF_MAX / sizeof(T)))

/* torch._C._LinAlgError (torch.linalg.LinAlgError, a RuntimeError): what upstream's linalg kernels
 * raise for singular, non-positive-definite and non-converging inputs. Made by tn_linalg_error_init. */
extern PyObject *tn_LinAlgError;
int tn_linalg_error_init(PyObject *module);

/* Kernel status -> Python exception naming op (NULL: "torchnative"); returns -1 unless TN_OK. */
int tn_kernel_error(const tn_op *op, tn_status s, int dtype);
#define TN_KCHECK(op, call, dtype) (tn_kernel_error((op), (call), (dtype)))

/* Note [GIL]: a kernel call whose work (elements, or multiply-adds for GEMMs) reaches
 * TN_NOGIL_MIN_WORK runs with the GIL released, so other Python threads progress meanwhile
 * (upstream releases it around every op). This is safe because kernels/ touch no Python
 * object and the caller holds a reference to every tensor the kernel reads or writes; `stmt`
 * must not return or goto. Below the threshold (tens of microseconds of work) the release and
 * the reacquire, which may wait a switch interval for another thread, cost more than they give. */
#define TN_NOGIL_MIN_WORK 65536
#define TN_NOGIL(work, stmt)                                  \
    do {                                                      \
        if ((work) >= TN_NOGIL_MIN_WORK) {                    \
            PyThreadState *tn_nogil_save_ = PyEval_SaveThread(); \
            stmt;                                             \
            PyEval_RestoreThread(tn_nogil_save_);             \
        } else {                                              \
            stmt;                                             \
        }                                                     \
    } while (0)

#endif /* TN_RUNTIME_OP_H */
