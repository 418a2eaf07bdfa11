/* Autograd graph nodes (grad_fn objects) and saved variables: the node base type and its Python
 * face, the error kinds (NotImplemented, Error, Identity) and SavedVariable. Node kinds are
 * generated from derivatives.yaml (generated/autograd_*.c); recording is in autograd.h, the
 * engine (with AccumulateGrad and GraphRoot) in autograd_engine.h. Nothing here calls an op.
 */
#ifndef TN_RUNTIME_AUTOGRAD_NODE_H
#define TN_RUNTIME_AUTOGRAD_NODE_H

#include "pyapi.h"
#include "tensor.h"
#include "value.h"

/* tn_requires_grad, tn_tensor_grad_fn and tn_dtype_is_differentiable are in tensor.h. */

int tn_value_requires_grad(const tn_value *v);
/* Any argument of an op call requires grad (the door's test). */
int tn_args_require_grad(const tn_value *args, int n);


/* ---- nodes ---- */

typedef struct tn_node tn_node;

/* An edge to the node that receives a gradient: (fn, input_nr); fn NULL means none. */
typedef struct {
    PyObject *fn;   /* strong reference to a tn_node, or NULL */
    int input_nr;
} tn_edge;

/* What a node's input (one output of the forward op) looked like: the engine checks and
 * reduces gradients against it (validate_outputs), and makes zeros of it. */
typedef struct {
    int ndim;
    int8_t dtype;
    int8_t device;
    int8_t defined;
    int64_t *sizes;           /* -> small or a malloc'd block */
    int64_t small[4];
} tn_input_meta;

/* apply: grads[i] is the gradient for input i (borrowed; NULL when undefined); fills out[j]
 * for next edge j (new references, or NULL for an undefined gradient). Returns 0, or -1 with
 * an exception. Convention throughout autograd: a PyObject * that is NULL with no exception
 * set is an undefined tensor (at::Tensor()). */
typedef int (*tn_node_apply_fn)(tn_node *self, PyObject **grads, PyObject **out);

typedef struct tn_node_kind {
    const char *name;              /* "MulBackward0"; NULL: the Python type's name (PyNode) */
    const char *cpp_name;          /* what name() answers when it differs ("torch::autograd::Error") */
    int basicsize;                 /* sizeof the generated struct */
    tn_node_apply_fn apply;
    void (*release)(tn_node *);    /* drop saved variables (after backward without retain_graph) */
    void (*finalize)(tn_node *);   /* drop everything else the kind owns (GC clear, dealloc) */
    int (*traverse)(tn_node *, visitproc, void *);
    PyGetSetDef *getset;           /* _saved_<name> getters, NULL-terminated, or NULL */
    const char *op;                /* "aten::mul.Tensor" for messages, or NULL */
    PyTypeObject *type;            /* made on first use (tn_node_type) */
    uint8_t complex_rule;          /* TN_COMPLEX_*: what the kind does with complex tensors */
} tn_node_kind;

/* Complex tensors through a node of a kind (Note [Complex autograd] in autograd.c). */
enum {
    TN_COMPLEX_HAND = 0,      /* hand-written kinds: a complex output refuses */
    TN_COMPLEX_REFUSE = 1,    /* generated kinds not checked on complex: complex inputs and outputs refuse */
    TN_COMPLEX_VERIFIED = 2,  /* formulas checked against upstream's on complex (schemas/autograd_complex.yaml) */
};

struct tn_node {
    PyObject_HEAD
    const tn_node_kind *kind;
    uint64_t seq_nr;
    uint64_t topo_nr;
    int num_next;
    int num_inputs;
    tn_edge *next;
    tn_input_meta *inputs;
    PyObject *pre_hooks;          /* list of callables: register_prehook */
    PyObject *post_hooks;         /* list of callables: register_hook */
    PyObject *tensor_pre_hooks;   /* list of (dict, output_nr): hooks of non-leaf tensors */
    PyObject *retains_grad;       /* dict output_nr -> weakref of the tensor */
    PyObject *metadata;           /* dict, made on first access */
    PyObject *weakrefs;
    PyObject *dict;               /* instance dict (Python subclasses: autograd.Function ctx) */
    uint8_t released;             /* saved variables were freed */
    uint8_t is_accumulate;        /* AccumulateGrad */
};

#define TN_NODE(o) ((tn_node *)(o))

extern PyTypeObject *tn_Node_Type;
int tn_node_check(PyObject *o);

/* The node's name as messages give it ("MulBackward0", "ExpBackward" for autograd.Function
 * nodes); valid while the node lives. */
const char *tn_node_name(tn_node *n);
/* A fresh sequence number (Node's constructor takes one). */
uint64_t tn_node_next_seq_nr(void);
/* Resize the next edges / input metadata of a node whose size is known only later
 * (autograd.Function nodes); new entries start empty. */
int tn_node_resize(tn_node *n, int num_next, int num_inputs);

/* A new node of `kind` with room for num_next edges and num_inputs input metadata; next
 * edges start empty, metadata undefined. A new sequence number is taken (Node's ctor). */
tn_node *tn_node_new(const tn_node_kind *kind, int num_next, int num_inputs);
/* Puts n under the cyclic GC once Python objects hang off it (Note [Untracked nodes]). */
void tn_node_track(tn_node *n);
/* The Python type of a kind, created (and put in torch._C._functions) on first use. */
PyTypeObject *tn_node_type(const tn_node_kind *kind);
/* should_compute_output(j): edge j leads somewhere. */
static inline int
tn_node_needs(const tn_node *n, int j)
{
    return j < n->num_next && n->next[j].fn != NULL;
}
void tn_input_meta_set(tn_input_meta *m, const TensorObject *t);
void tn_input_meta_clear(tn_input_meta *m);
/* zeros of the metadata's shape and dtype (an undefined input made concrete) */
PyObject *tn_input_meta_zeros(const tn_input_meta *m);

/* The kinds every graph can have besides AccumulateGrad and GraphRoot (autograd_engine.h). */
extern tn_node_kind tn_kind_Identity;
extern tn_node_kind tn_kind_NotImplemented;
tn_node *tn_refusal_node_new(const char *msg, int num_next);
extern tn_node_kind tn_kind_Error;

/* A node whose backward raises `msg` (NotImplemented / Error). */
tn_node *tn_error_node_new(const tn_node_kind *kind, const char *msg, int num_next);

/* upstream's ERR_BACKWARD_TWICE: saved values (or a CopySlices' node) were freed */
extern const char tn_err_backward_twice[];

/* ---- saved variables ---- */

/* A tensor kept for backward (upstream's SavedVariable). Inputs and leaves are kept as the
 * tensor itself; an output of the node that saves it is kept without its grad_fn (a cycle
 * otherwise) and rewrapped with it on unpack. See Note [Saved variables] in autograd_node.c. */
typedef struct {
    PyObject *data;        /* the tensor, or an alias without history for outputs; NULL: none */
    PyObject *packed;      /* saved-tensor hooks: (unpack_hook, packed object), else NULL */
    int64_t version;       /* data's version when saved */
    int32_t output_nr;
    uint8_t defined;       /* a tensor was saved (undefined optional tensors are "defined=0") */
    uint8_t is_output;
    uint8_t is_leaf;
    uint8_t requires_grad;
    int8_t dtype;          /* metadata kept for messages after packing */
} tn_saved;

/* A tensor sharing t's storage, geometry and version counter, with no history and no base
 * (upstream's tensor_data()). */
PyObject *tn_alias_without_history(TensorObject *t);
/* Save t (NULL: an undefined tensor) for node n; is_output when t is an output of n. */
int tn_saved_save(tn_saved *s, PyObject *t, tn_node *n, int is_output);
/* The tensor back: a new reference; NULL without an exception when an undefined tensor was
 * saved; NULL with one when the version moved (upstream's in-place error) or the graph was
 * freed. */
PyObject *tn_saved_unpack(tn_saved *s, tn_node *n);
void tn_saved_release(tn_saved *s);
int tn_saved_traverse(tn_saved *s, visitproc visit, void *arg);
/* A list of saved tensors (TensorList arguments: cat, stack, index). */
typedef struct {
    tn_saved *items;
    Py_ssize_t n;
    uint8_t released;
} tn_saved_list;
int tn_saved_list_save(tn_saved_list *l, const tn_value *v, tn_node *n);
/* unpacked elements (new references, NULL for undefined); caller frees with tn_tensor_array_free */
PyObject **tn_saved_list_unpack(tn_saved_list *l, tn_node *n);
void tn_saved_list_release(tn_saved_list *l);
void tn_tensor_array_free(PyObject **a, Py_ssize_t n);
PyObject *tn_saved_to_py(tn_saved *s, tn_node *n);  /* _saved_<name> getter value */

int tn_autograd_node_init(PyObject *functions_module);
/* torch._C._autograd.SavedTensor and _make_saved_tensor (module: torch._C) */
int tn_saved_tensor_init(PyObject *module);

#endif /* TN_RUNTIME_AUTOGRAD_NODE_H */
