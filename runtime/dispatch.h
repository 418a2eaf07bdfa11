/* The one door: every operator call, from a generated parser or from torch.ops.aten.X.Y,
 * goes through tn_dispatch(). The op table (generated/ops_table.c) holds every ATen overload;
 * ops that Python defines at run time (torch.library define) are appended to it.
 * See Note [The door] in dispatch.c for the order in which kernels are chosen.
 */
#ifndef TN_RUNTIME_DISPATCH_H
#define TN_RUNTIME_DISPATCH_H

#include "pyapi.h"
#include "value.h"
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
};

typedef PyObject *(*tn_kernel_fn)(tn_value *args);

struct tn_schema;

typedef struct tn_op {
    const char *name;      /* "add" */
    const char *overload;  /* "Tensor", or "" for the default overload */
    const char *schema;    /* upstream's printed schema, "aten::add.Tensor(...) -> Tensor" */
    unsigned flags;
    unsigned tags;         /* TN_TAG_* bits */
    int functional;        /* id of the functional sibling of an inplace/out op, or -1 */
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
} tn_op;

extern tn_op tn_ops[TN_NUM_ATEN_OPS];
/* Full schemas of ops upstream registers outside native_functions.yaml (schemas/extra_ops.yaml). */
extern const char *const tn_extra_schemas[TN_NUM_EXTRA_OPS];

typedef struct {
    int op;
    tn_kernel_fn fn;
    int meta_ok;
    const char *dtype_names;
    uint64_t dtype_mask;
} tn_kernel_entry;

extern const tn_kernel_entry tn_kernel_table[];
extern const PyStructSequence_Desc tn_structseq_descs[TN_NUM_STRUCTSEQS];
extern PyTypeObject *tn_structseq_types[TN_NUM_STRUCTSEQS];

/* The door. args are in schema order (flat_all: positional, kwarg-only, out). */
PyObject *tn_dispatch(tn_op *op, tn_value *args);

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

/* Registry of ops by qualified name, including ones Python defines (torch.library). */
int tn_dispatch_init(PyObject *module);
PyObject *tn_ops_packet_overloads(const char *qualname);  /* list of overload names or NULL */
tn_op *tn_find_op(const char *qualname, const char *overload);

#endif /* TN_RUNTIME_DISPATCH_H */
