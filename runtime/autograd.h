/* Recording autograd graphs: what the generated recorders (generated/autograd_*.c), the C
 * compositions and the hand-written autograd ops (ops/) build on, and the door's table of them.
 * See Note [Autograd at the door] in autograd.c.
 */
#ifndef TN_RUNTIME_AUTOGRAD_H
#define TN_RUNTIME_AUTOGRAD_H

#include "pyapi.h"
#include "tensor.h"
#include "value.h"
#include "dispatch.h"
#include "autograd_node.h"
#include "autograd_engine.h"

/* Edge j: the gradient edge of tensor t (grad_fn + output_nr, or the grad accumulator of a
 * leaf that requires grad); nothing when t is NULL or needs no gradient. */
int tn_node_set_next_edge(tn_node *n, int j, PyObject *t);

/* ---- recording (used by generated code) ---- */


/* Run the op below autograd: nested door calls made by its kernel record nothing. */
PyObject *tn_autograd_redispatch(tn_op *op, tn_value *args);

/* Give output `t` (output nr `output_nr` of node n) its history when its dtype is
 * differentiable: grad_fn, output_nr, and n's input metadata (`_any`); a non-differentiable
 * dtype only numbers the output there. tn_autograd_set_history, for an output upstream's
 * VariableType declares differentiable, raises upstream's error for such a dtype instead. */
int tn_autograd_set_history(PyObject *t, tn_node *n, int output_nr);
int tn_autograd_set_history_any(PyObject *t, tn_node *n, int output_nr);
/* An in-place op's node becomes self's history (rebase); views of tensors that need grad
 * go through CopySlices. */
int tn_autograd_rebase_history(PyObject *self, tn_node *n);
/* The same with self becoming output `output_nr` of n (autograd.Function's mark_dirty). */
int tn_autograd_rebase_history_at(PyObject *self, tn_node *n, int output_nr);
/* upstream's check_inplace: leaves that require grad (and views of them) cannot be written in
 * place while grad mode records; views made in no_grad mode cannot either. */
int tn_autograd_check_inplace(PyObject *self, int requires_grad);
/* Tensor.retain_grad(): a non-leaf's gradient is kept in its .grad when backward reaches its
 * grad_fn (upstream's VariableHooks::retain_grad; leaves: nothing to do). */
int tn_autograd_retain_grad(PyObject *self);
/* out= overloads are not differentiable: RuntimeError when an input or output needs grad. */
int tn_autograd_check_out(const tn_op *op, const tn_value *args, int n);


/* ---- the door's autograd layer (autograd.c) ---- */

/* How the door treats an overload when an argument requires grad (generated table). */
enum {
    TN_AG_NONE = 0,     /* not differentiable: run as is */
    TN_AG_RECORD = 1,   /* the generated recorder makes its node */
    TN_AG_CIA = 2,      /* CompositeImplicitAutograd: its decomposition records */
    TN_AG_NOTIMPL = 3,  /* differentiable, no formula here: a node that refuses at backward */
    TN_AG_OUT = 4,      /* out= overload: refused when a differentiable input or out requires grad */
    /* CompositeImplicitAutograd beside a CPU kernel (mish_backward): the dispatcher gives an
     * Autograd key the composite only when its backend has no kernel of its own, so CPU
     * arguments get the NOTIMPL node and meta ones the decomposition (record: the composition) */
    TN_AG_CIA_KERNEL = 5,
};

typedef PyObject *(*tn_ag_record_fn)(tn_op *op, tn_value *args);

typedef struct {
    int op;
    int mode;
    tn_ag_record_fn record;
    uint64_t out_nondiff;  /* TN_AG_OUT: argument positions derivatives.yaml marks non_differentiable */
    int has_formula;       /* TN_AG_NOTIMPL: upstream differentiates it by a derivatives.yaml formula
                            * not generated here: its backward refuses by name (NotImplementedError) */
    const char *out_name;  /* TN_AG_OUT: the op its refusal names, if not its own (Note [CIA out=
                            * under autograd]: nanmean.out's is nansum's) */
} tn_autograd_entry;


/* ---- support for generated nodes and recorders (autograd.c) ---- */

static inline PyObject *
tn_ag_op(int id, tn_value *args)
{
    return tn_dispatch(tn_op_by_id(id), args);
}

static inline PyObject *
tn_ag_arg_tensor(const tn_value *v)
{
    return v->tag == TN_V_TENSOR ? v->u.t : NULL;
}

static inline PyObject *
tn_ag_grad_at(PyObject **grads, int n, int64_t i)
{
    return i < n ? grads[i] : NULL;
}

/* element i of a tensor list (an unpacked saved list), NULL past its end */
static inline PyObject *
tn_ag_tensor_at(tn_tensors l, int64_t i)
{
    return i < l.n ? l.v[i] : NULL;
}

int tn_ag_any_defined(PyObject **grads, int n);
/* should this node compute gradient j in the running backward (its edge leads somewhere the
 * graph task executes)? */
int tn_ag_needs(tn_node *n, int j);
/* any of gradients j .. j + count - 1 (a TensorList input's edges) */
int tn_ag_needs_range(tn_node *n, int j, int count);
int tn_ag_grad_mode(void);
/* upstream's own not_implemented(): a NotImplementedError, as upstream raises it */
void tn_ag_not_implemented(const char *msg, const char *detail);
/* a derivative torchnative has not translated: a refusal by name (NotImplementedError) */
void tn_ag_refuse(const char *msg, const char *detail);
/* upstream's check_no_requires_grad for inputs an op is not differentiable in */
int tn_ag_check_no_requires_grad(const tn_value *v, const char *name, const char *fn);
void tn_ag_release_temps(PyObject **t, int n);
PyObject *tn_ag_result_item(PyObject *result, int k);   /* borrowed */
PyObject *tn_ag_tuple_item(PyObject *result, int k);    /* new reference; NULL for None (undefined) */
int tn_ag_set_history_list(PyObject *list, tn_node *n, int *nr);
int tn_ag_save_original_self(tn_saved *s, PyObject *self, tn_node *n);
PyObject *tn_ag_scalar_div(tn_value s, PyObject *t);
tn_value tn_ag_scalar_neg(const tn_value *s);
/* Tensor::conj() and Scalar::conj() in formulas (Note [Complex autograd] in autograd.c): a
 * complex tensor's conj view through the door (conj, which records when create_graph), a real
 * one itself; a complex Scalar's conjugate, a real one itself. NULL in, NULL out (undefined). */
PyObject *tn_ag_conj(PyObject *t);
tn_value tn_ag_scalar_conj(const tn_value *s);
tn_value tn_ag_scalar_binary(char op, tn_value a, tn_value b);

/* owned copies of non-tensor saved values */
typedef struct { int64_t *v; Py_ssize_t n; bool none; } tn_ag_ints;
typedef struct { int8_t dtype, device; } tn_ag_options;
typedef struct { int8_t dtype, device; int ndim; int64_t *sizes; } tn_ag_type_and_size;
typedef struct { int ndim; int64_t *sizes, *strides; int64_t offset; } tn_ag_geometry;
typedef struct { int8_t *v; Py_ssize_t n; } tn_ag_dtypes;
typedef struct { Py_ssize_t n; int *ndim; int64_t **sizes; } tn_ag_sizes_list;
typedef struct { tn_value *v; Py_ssize_t n; } tn_ag_scalars;
/* an owned array of tensors (unpacked saved lists, vector<Tensor> results) */
typedef struct { PyObject **v; Py_ssize_t n; } tn_ag_vec;

static inline tn_ints
tn_ag_ints_view(const tn_ag_ints *a)
{
    tn_ints r = {a->v, a->n, a->none};
    return r;
}

static inline tn_ints
tn_ag_ints_none(void)
{
    tn_ints r = {NULL, 0, true};
    return r;
}

tn_ints tn_ag_sizes(PyObject *t);
tn_ints tn_ag_strides(PyObject *t);
int64_t tn_ag_size_at(PyObject *t, int64_t dim);
int tn_ag_size_save(int64_t *dst, PyObject *t, int64_t dim);
int64_t tn_ag_stride_at(PyObject *t, int64_t dim);
tn_ag_options tn_ag_options_of(PyObject *t);
tn_ints tn_ag_reverse_list(tn_ints l, int64_t *buf);
tn_ints tn_ag_negate_list(tn_ints l, int64_t *buf);

int tn_ag_ints_save(tn_ag_ints *dst, const tn_value *v);
int tn_ag_ints_save_sizes(tn_ag_ints *dst, PyObject *t);
int tn_ag_ints_save_sizes_opt(tn_ag_ints *dst, PyObject *t);
int tn_ag_ints_save_strides(tn_ag_ints *dst, PyObject *t);
int tn_ag_str_save(char **dst, const tn_value *v);
int tn_ag_type_and_size_save(tn_ag_type_and_size *dst, PyObject *t);
int tn_ag_geometry_save(tn_ag_geometry *dst, PyObject *t);
int tn_ag_dtypes_save(tn_ag_dtypes *dst, const tn_value *list);
int tn_ag_sizes_list_save(tn_ag_sizes_list *dst, const tn_value *list);
int tn_ag_scalars_save(tn_ag_scalars *dst, const tn_value *v);
void tn_ag_free_ints(tn_ag_ints *a);
void tn_ag_free_str(char **s);
void tn_ag_free_type_and_size(tn_ag_type_and_size *a);
void tn_ag_free_geometry(tn_ag_geometry *a);
void tn_ag_free_dtypes(tn_ag_dtypes *a);
void tn_ag_free_sizes_list(tn_ag_sizes_list *a);
void tn_ag_free_scalars(tn_ag_scalars *a);
PyObject *tn_ag_type_and_size_zeros(const tn_ag_type_and_size *a);

int tn_ag_vec_alloc(tn_ag_vec *v, Py_ssize_t n);
/* upstream's copy_range: a foreach node's per-element gradients become gradients first ..
 * first + count - 1 (those the backward needs); RuntimeError when the counts differ */
int tn_ag_copy_range(tn_node *n, PyObject **out, int first, int count, const tn_ag_vec *grads);
int tn_ag_vec_unpack(tn_ag_vec *v, tn_saved_list *l, tn_node *n);
void tn_ag_vec_free(tn_ag_vec *v);

/* tn_value builders for calls through the door */
static inline tn_value
tn_ag_value_bool(int b)
{
    tn_value v = {.tag = TN_V_BOOL};
    v.u.i = b != 0;
    return v;
}

static inline tn_value
tn_ag_value_ints(tn_ints l)
{
    tn_value v = {.tag = l.none ? TN_V_NONE : TN_V_INTLIST};
    v.u.ints = (int64_t *)l.v;
    v.n = l.n;
    return v;
}

static inline tn_value
tn_ag_value_ints_lit(int64_t *p, Py_ssize_t n)
{
    tn_value v = {.tag = TN_V_INTLIST};
    v.u.ints = p;
    v.n = n;
    return v;
}

static inline tn_value
tn_ag_value_bools(int64_t *mask, Py_ssize_t n)
{
    tn_value v = {.tag = TN_V_BOOLLIST};
    v.u.ints = mask;
    v.n = n;
    return v;
}

static inline tn_value
tn_ag_value_dtype(int d)
{
    tn_value v = {.tag = d < 0 ? TN_V_NONE : TN_V_DTYPE};
    v.u.i = d;
    return v;
}

static inline tn_value
tn_ag_value_device(int d)
{
    tn_value v = {.tag = TN_V_DEVICE};
    v.u.i = d;
    v.dev_index = -1;
    return v;
}

static inline tn_value
tn_ag_value_memfmt(int m)
{
    tn_value v = {.tag = TN_V_MEMFMT};
    v.u.i = m;
    return v;
}

static inline tn_value
tn_ag_value_str(const char *s)
{
    tn_value v = {.tag = s ? TN_V_STRING : TN_V_NONE};
    v.u.s = s;
    return v;
}

static inline tn_value
tn_ag_value_tensors(tn_tensors l)
{
    tn_value v = {.tag = TN_V_TENSORLIST};
    v.u.tensors = (PyObject **)l.v;
    v.n = l.n;
    return v;
}

/* _saved_<name> getters */
PyObject *tn_ag_scalar_to_py(const tn_value *v);
PyObject *tn_ag_opt_int_to_py(tn_opt_int v);
PyObject *tn_ag_opt_double_to_py(tn_opt_double v);
PyObject *tn_ag_opt_bool_to_py(int v);
PyObject *tn_ag_ints_to_py(const tn_ag_ints *a);
PyObject *tn_ag_str_to_py(const char *s);
PyObject *tn_ag_saved_list_to_py(tn_saved_list *l, tn_node *n);
int tn_ag_saved_list_save_outputs(tn_saved_list *l, PyObject *list, tn_node *n);
int tn_ag_scalar_of_tensor(tn_value *dst, PyObject *t);

/* The generated table (generated/autograd_table.c, handed over by module init): each op's
 * autograd entry, which the door calls through tn_op.ag_record. */
extern const tn_autograd_entry tn_autograd_table[];
int tn_autograd_install(const tn_autograd_entry *table);

#endif /* TN_RUNTIME_AUTOGRAD_H */
