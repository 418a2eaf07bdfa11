/* The one door: every operator call, from a generated parser or from torch.ops.aten.X.Y,
 * goes through tn_dispatch(). The op table (generated/ops_table.c) holds every ATen overload;
 * ops that Python defines at run time (torch.library define) are appended to it.
 * See Note [The door] in dispatch.c for the order in which kernels are chosen.
 */
#ifndef TN_RUNTIME_DISPATCH_H
#define TN_RUNTIME_DISPATCH_H

#include "pyapi.h"
#include "value.h"
#include "op.h"
#include "tensor.h"

typedef struct {
    int op;
    tn_kernel_fn fn;
    int meta_ok;
    const char *dtype_names;
    uint64_t dtype_mask;
} tn_kernel_entry;

/* An in-place or out= call computed through its functional overload, as an out check sees it
 * (Note [Out checks] in dispatch.c). A check returns -1 with an exception set, 0 to go on, or 1
 * with `result` set (a new reference): the call is done. */
typedef struct tn_out_call {
    const tn_op *op;              /* the in-place or out= overload called */
    const tn_op *f;               /* its functional sibling, computed and copied in */
    const struct tn_schema *s;    /* op's schema */
    const struct tn_schema *fs;   /* f's schema */
    const tn_value *args;         /* op's arguments, schema order */
    tn_value *fargs;              /* f's arguments built from them; a check may change them */
    int kind;                     /* TN_OPK_INPLACE or TN_OPK_OUT */
    TensorObject *dst;            /* the tensor written: self in place, the one out=; else NULL */
    int self_dtype;               /* -1, or the dtype self is converted to before f computes */
    int check_overlap;            /* 0: the write's overlap check is off (TensorIterator's flag) */
    int out_castable;             /* 1: this call's out= takes any dtype the result can cast to (a
                                   * TensorIterator that promotes its inputs for these arguments,
                                   * lerp's 0-dim weight), not the op's TN_OPF_OUT_SAME/EXACT rule */
    PyObject *result;
} tn_out_call;

typedef struct {
    int op;
    int (*check)(tn_out_call *c);
} tn_out_check_entry;

/* For an out check that makes the write's overlap checks itself (Note [Overlap rules]), after one
 * failed: when the functional refuses its arguments' meta twins, that error replaces the overlap
 * error set, as it does after the shared overlap checks. */
void tn_out_call_argument_error_first(const tn_out_call *c);

/* a structured out='s resize_out: out's dtype must be `dtype` ("Expected out tensor to have dtype
 * float, but got double instead"); 0, or -1 with the error set */
int tn_check_out_dtype_is(const TensorObject *out, int dtype);

/* For a CompositeImplicitAutograd out= overload (TN_OPF_CIA_CHECKS_FIRST) whose autograd out= check failed: the
 * functional's argument checks on meta twins, whose error replaces it (Note [CIA out= under
 * autograd] in runtime/dispatch.c). */
void tn_dispatch_cia_out_argument_error_first(tn_op *op, const tn_value *args);

/* Generated tables the door reads: the kernel and out check tables (generated/kernel_glue.c,
 * handed to tn_dispatch_init by module init) and the structseq descriptions
 * (generated/return_types.c). */
extern const tn_kernel_entry tn_kernel_table[];
extern const tn_out_check_entry tn_out_check_table[];
extern const PyStructSequence_Desc tn_structseq_descs[TN_NUM_STRUCTSEQS];
extern PyTypeObject *tn_structseq_types[TN_NUM_STRUCTSEQS];

/* The autocast layer the door runs first for ops flagged TN_OPF_AUTOCAST while CPU autocast is
 * on (Note [Autocast]); module init sets it (autocast.c stands above the door). */
typedef PyObject *(*tn_layer_fn)(tn_op *, tn_value *);
extern tn_layer_fn tn_autocast_layer;

/* The door. args are in schema order (flat_all: positional, kwarg-only, out). */
PyObject *tn_dispatch(tn_op *op, tn_value *args);

/* Call an ATen overload by its generated id (TN_OP_<name>__<overload>, generated/ops.h) with
 * boxed values in schema order: how hand-written code reaches the door. */
static inline PyObject *
tn_call(int op_id, tn_value *args)
{
    return tn_dispatch(tn_op_by_id(op_id), args);
}

/* Install the generated kernel and out check tables into the op table; make
 * torch._C._return_types. */
int tn_dispatch_init(PyObject *module, const tn_kernel_entry *kernels, const tn_out_check_entry *out_checks);

/* The Python kernel registered for a dispatch key ("CPU", "Meta", ...) of op (borrowed), or
 * NULL; after changing op->py_kernels call tn_op_py_kernels_changed. */
PyObject *tn_op_py_kernel(const tn_op *op, const char *key);
void tn_op_py_kernels_changed(tn_op *op);

/* A result tuple as the structseq type `which` (torch.return_types.<op>); steals result. */
PyObject *tn_wrap_structseq(int which, PyObject *result);
/* A CompositeImplicitAutograd op differentiated through torch's Python decomposition of it
 * (Note [Autograd at the door] in autograd.c). */
PyObject *tn_dispatch_cia_python(tn_op *op, tn_value *args);
/* A wrapped number (a Python number a binding made into a 0-dim CPU tensor) as the number again,
 * as upstream's toPyObject gives IValues back to Python; any other object itself. New reference. */
PyObject *tn_unwrap_number(PyObject *obj);
/* The OpOverload object torch.ops.<ns>.<name>.<overload> of op (new reference). */
PyObject *tn_op_overload_object(tn_op *op);

#endif /* TN_RUNTIME_DISPATCH_H */
