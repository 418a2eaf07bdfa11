/* Recording at the door, and what generated nodes and recorders build on.
 *
 * Note [Autograd at the door]
 * tn_dispatch() calls tn_autograd_dispatch() before anything else when grad mode records and
 * an argument requires grad (upstream's Autograd key sits above every backend and the Python
 * dispatch key). What happens depends on the overload's mode (generated/autograd_table.c):
 *   RECORD   the generated recorder makes the node (MulBackward0, ...), saves what the formulas
 *            need, runs the op below autograd (tn_autograd_redispatch: nested door calls its
 *            kernel makes record nothing) and gives the outputs their history;
 *   CIA      upstream decomposes the op (CompositeImplicitAutograd), so the graph holds the
 *            nodes of its parts: a C decomposition registered with tn_autograd_set_compose, or
 *            torch's Python decomposition, runs with autograd on; our C kernel for such an op
 *            (linear, softmax, ...) is the inference fast path only;
 *   NOTIMPL  differentiable, but no formula is generated: outputs get a node that raises
 *            "derivative for aten::<op> is not implemented" if backward reaches it;
 *   OUT      out= overloads are not differentiable (upstream's error when anything needs grad).
 * Under no_grad / inference mode, and for tensors that need no grad, the door pays one branch.
 */
#include "autograd.h"
#include "dtype.h"
#include "device.h"
#include "tls.h"
#include "scalar.h"
#include "schema.h"

#include <string.h>

/* ---- the door's branch ---- */

PyObject *
tn_autograd_redispatch(tn_op *op, tn_value *args)
{
    int saved = tn_tls.below_autograd;
    tn_tls.below_autograd = 1;
    PyObject *r = tn_dispatch(op, args);
    tn_tls.below_autograd = saved;
    return r;
}

int
tn_autograd_check_out(const tn_op *op, const tn_value *args, int n)
{
    for (int i = 0; i < n; i++) {
        if ((args[i].tag == TN_V_TENSOR || args[i].tag == TN_V_TENSORLIST) && tn_value_requires_grad(&args[i])) {
            PyErr_Format(PyExc_RuntimeError,
                         "%s(): functions with out=... arguments don't support automatic differentiation, "
                         "but one of the arguments requires grad.",
                         op->name);
            return -1;
        }
    }
    return 0;
}

/* Differentiable outputs of an op with no formula get a node that refuses at backward. */
static int
attach_not_implemented(tn_op *op, tn_value *args, int nargs, PyObject *result)
{
    char q[256], msg[320];
    tn_op_qualname(op, q, sizeof q);
    snprintf(msg, sizeof msg, "derivative for %s is not implemented", q);
    int nnext = 0;
    for (int i = 0; i < nargs; i++)
        if (args[i].tag == TN_V_TENSOR)
            nnext++;
        else if (args[i].tag == TN_V_TENSORLIST)
            nnext += (int)args[i].n;
    tn_node *n = tn_error_node_new(&tn_kind_NotImplemented, msg, nnext);
    if (!n)
        return -1;
    int j = 0, rc = 0;
    for (int i = 0; i < nargs && rc == 0; i++) {
        if (args[i].tag == TN_V_TENSOR)
            rc = tn_node_set_next_edge(n, j++, args[i].u.t);
        else if (args[i].tag == TN_V_TENSORLIST)
            for (Py_ssize_t k = 0; k < args[i].n && rc == 0; k++)
                rc = tn_node_set_next_edge(n, j++, args[i].u.tensors[k]);
    }
    if (rc == 0) {
        int nr = 0;
        if (tn_tensor_check(result)) {
            rc = tn_autograd_set_history(result, n, nr++);
        } else if (PyTuple_Check(result) || PyList_Check(result)) {
            PyObject *seq = PySequence_Tuple(result);
            for (Py_ssize_t k = 0; seq && rc == 0 && k < PyTuple_Size(seq); k++) {
                PyObject *o = PyTuple_GetItem(seq, k);
                if (tn_tensor_check(o))
                    rc = tn_autograd_set_history(o, n, nr++);
            }
            Py_XDECREF(seq);
        }
    }
    Py_DECREF(n);
    return rc;
}

/* The door's entries for the modes without a generated recorder (see the Note). */
static PyObject *
mode_out(tn_op *op, tn_value *args)
{
    tn_schema *s = tn_op_schema(op);
    if (!s || tn_autograd_check_out(op, args, s->nparams) < 0)
        return NULL;
    return tn_autograd_redispatch(op, args);
}

static PyObject *
mode_cia_python(tn_op *op, tn_value *args)
{
    return tn_dispatch_cia_python(op, args);
}

static PyObject *
mode_not_implemented(tn_op *op, tn_value *args)
{
    tn_schema *s = tn_op_schema(op);
    if (!s)
        return NULL;
    PyObject *r = tn_autograd_redispatch(op, args);
    if (r && attach_not_implemented(op, args, s->nparams, r) < 0)
        Py_CLEAR(r);
    return r;
}

/* ---- history ---- */

int
tn_node_set_next_edge(tn_node *n, int j, PyObject *t)
{
    if (!t || !tn_requires_grad(t))
        return 0;
    TensorObject *tt = TN_T(t);
    PyObject *fn;
    int nr = 0;
    if (tt->grad_fn) {
        fn = Py_NewRef(tt->grad_fn);
        nr = tt->output_nr;
    } else if (!(fn = tn_grad_accumulator(tt))) {
        return -1;
    }
    TN_XSETREF(n->next[j].fn, fn);
    n->next[j].input_nr = nr;
    return 0;
}


static int
node_add_input(tn_node *n, int nr, const TensorObject *t)
{
    if (nr >= n->num_inputs) {
        tn_input_meta *m = realloc(n->inputs, sizeof(tn_input_meta) * (size_t)(nr + 1));
        if (!m) {
            PyErr_NoMemory();
            return -1;
        }
        for (int i = n->num_inputs; i <= nr; i++) {
            memset(&m[i], 0, sizeof m[i]);
            m[i].sizes = m[i].small;
        }
        /* sizes of earlier entries may point into their own small[]: fix after the move */
        for (int i = 0; i < n->num_inputs; i++)
            if (m[i].ndim <= TN_ARRAY_LEN(m[i].small))
                m[i].sizes = m[i].small;
        n->inputs = m;
        n->num_inputs = nr + 1;
    }
    tn_input_meta_set(&n->inputs[nr], t);
    return 0;
}

int
tn_autograd_set_history(PyObject *t, tn_node *n, int output_nr)
{
    if (!t || !tn_tensor_check(t))
        return 0;
    TensorObject *tt = TN_T(t);
    if (!tn_dtype_is_differentiable(tt->dtype))
        return node_add_input(n, output_nr, tt);  /* keeps numbering; never receives a gradient */
    if (tn_dtype_is_complex(tt->dtype)) {
        PyErr_Format(PyExc_NotImplementedError,
                     "torchnative: autograd through %s tensors is not implemented (%s): complex "
                     "gradients need the conjugate rules of upstream's Wirtinger calculus",
                     tn_dtype_name(tt->dtype), n->kind->name);
        return -1;
    }
    if (node_add_input(n, output_nr, tt) < 0)
        return -1;
    TN_XSETREF(tt->grad_fn, Py_NewRef((PyObject *)n));
    tt->output_nr = output_nr;
    tt->requires_grad = 0;  /* a non-leaf's requires_grad comes from its grad_fn */
    return 0;
}

int
tn_ag_set_history_list(PyObject *list, tn_node *n, int *nr)
{
    PyObject *seq = PySequence_Tuple(list);
    if (!seq)
        return -1;
    int rc = 0;
    for (Py_ssize_t k = 0; rc == 0 && k < PyTuple_Size(seq); k++) {
        PyObject *o = PyTuple_GetItem(seq, k);
        rc = tn_autograd_set_history(o, n, (*nr)++);
        if (rc == 0 && TN_T(o)->is_view)
            TN_T(o)->view_meta = TN_VIEW_MULTI_OUTPUT;
    }
    Py_DECREF(seq);
    return rc;
}

static const char *
view_error(int meta)
{
    switch (meta) {
    case TN_VIEW_NO_GRAD:
        return "A view was created in no_grad mode and is being modified inplace with grad mode enabled. "
               "This view is the output of a function that returns multiple views. Such functions do not "
               "allow the output views to be modified inplace. You should replace the inplace operation by "
               "an out-of-place one.";
    case TN_VIEW_INFERENCE:
        return "A view was created in inference mode and is being modified inplace in normal mode.";
    case TN_VIEW_MULTI_OUTPUT:
        return "This view is the output of a function that returns multiple views. Such functions do not "
               "allow the output views to be modified inplace. You should replace the inplace operation by "
               "an out-of-place one.";
    case TN_VIEW_CUSTOM_FUNCTION:
        return "This view was created inside a custom Function (or because an input was returned as-is) "
               "and the autograd logic to handle view+inplace would override the custom backward associated "
               "with the custom Function, leading to incorrect gradients. This behavior is forbidden. You can "
               "fix this by cloning the output of the custom Function.";
    }
    return NULL;
}

int
tn_autograd_check_inplace(PyObject *self, int requires_grad)
{
    if (!requires_grad || tn_tls.grad_disabled)
        return 0;
    TensorObject *t = TN_T(self);
    if (t->is_view && t->base) {
        const char *e = view_error(t->view_meta);
        if (e && t->view_meta == TN_VIEW_NO_GRAD && tn_requires_grad(t->base)) {
            PyErr_SetString(PyExc_RuntimeError,
                            "A view was created in no_grad mode and is being modified inplace with grad mode "
                            "enabled. Given that this use case is ambiguous and error-prone, it is forbidden. "
                            "You can clarify your code by moving both the view and the inplace either both "
                            "inside the no_grad block (if you don't want the inplace to be tracked) or both "
                            "outside (if you want the inplace to be tracked).");
            return -1;
        }
        if (e && t->view_meta != TN_VIEW_NO_GRAD) {
            PyErr_SetString(PyExc_RuntimeError, e);
            return -1;
        }
        TensorObject *base = TN_T(t->base);
        if (tn_requires_grad(self) && !base->grad_fn && base->requires_grad) {
            PyErr_SetString(PyExc_RuntimeError,
                            "a view of a leaf Variable that requires grad is being used in an in-place operation.");
            return -1;
        }
    }
    if (t->requires_grad && !t->grad_fn) {
        PyErr_SetString(PyExc_RuntimeError,
                        "a leaf Variable that requires grad is being used in an in-place operation.");
        return -1;
    }
    return 0;
}

int
tn_autograd_rebase_history(PyObject *self, tn_node *n)
{
    TensorObject *t = TN_T(self);
    if (t->is_view && t->base && (tn_requires_grad(t->base) || tn_requires_grad(self) || n->num_next > 0)) {
        PyErr_Format(PyExc_NotImplementedError,
                     "torchnative: an in-place %s on a view of another tensor while grad mode records "
                     "(upstream's CopySlices rebase) is not implemented; write the result out of place "
                     "(e.g. torch.where / index_put / cat) or under torch.no_grad()",
                     n->kind->op ? n->kind->op : n->kind->name);
        return -1;
    }
    /* a retained gradient moves to the new history */
    PyObject *old = t->grad_fn;
    if (tn_autograd_set_history(self, n, 0) < 0)
        return -1;
    if (t->retains_grad && old && old != (PyObject *)n) {
        tn_node *o = TN_NODE(old);
        if (o->retains_grad) {
            PyObject *key = PyLong_FromLong(t->output_nr);
            PyObject *w = key ? PyDict_GetItem(o->retains_grad, key) : NULL;
            if (w) {
                if (!n->retains_grad && !(n->retains_grad = PyDict_New())) {
                    Py_DECREF(key);
                    return -1;
                }
                PyObject *zero = PyLong_FromLong(0);
                PyDict_SetItem(n->retains_grad, zero, w);
                Py_XDECREF(zero);
                PyDict_DelItem(o->retains_grad, key);
            }
            Py_XDECREF(key);
        }
    }
    return 0;
}

/* ---- support for generated code ---- */

int
tn_ag_any_defined(PyObject **grads, int n)
{
    for (int i = 0; i < n; i++)
        if (grads[i])
            return 1;
    return 0;
}

int
tn_ag_needs(tn_node *n, int j)
{
    if (j >= n->num_next || !n->next[j].fn)
        return 0;
    return tn_engine_node_needed(TN_NODE(n->next[j].fn));
}

int
tn_ag_needs_range(tn_node *n, int j, int count)
{
    for (int i = j; i < j + count; i++)
        if (tn_ag_needs(n, i))
            return 1;
    return 0;
}

int
tn_ag_grad_mode(void)
{
    return !tn_tls.grad_disabled;
}

void
tn_ag_not_implemented(const char *msg, const char *detail)
{
    if (detail && detail[0])
        PyErr_Format(PyExc_RuntimeError, "%s (%s)", msg, detail);
    else
        PyErr_SetString(PyExc_RuntimeError, msg);
}

void
tn_ag_refuse(const char *msg, const char *detail)
{
    if (detail && detail[0])
        PyErr_Format(PyExc_NotImplementedError, "%s (%s)", msg, detail);
    else
        PyErr_SetString(PyExc_NotImplementedError, msg);
}

int
tn_ag_check_no_requires_grad(const tn_value *v, const char *name, const char *fn)
{
    if (v->tag == TN_V_TENSOR && tn_requires_grad(v->u.t)) {
        PyErr_Format(PyExc_RuntimeError,
                     "The function '%s' is not differentiable with respect to argument '%s'. This input cannot "
                     "have requires_grad True.", fn, name);
        return -1;
    }
    return 0;
}

void
tn_ag_release_temps(PyObject **t, int n)
{
    for (int i = 0; i < n; i++)
        Py_CLEAR(t[i]);
}

PyObject *
tn_ag_result_item(PyObject *result, int k)
{
    if (PyTuple_Check(result))
        return PyTuple_GetItem(result, k);
    if (PyList_Check(result))
        return PyList_GetItem(result, k);
    /* a structseq (torch.return_types) */
    PyObject *o = PySequence_GetItem(result, k);
    Py_XDECREF(o);   /* the sequence keeps it alive */
    return o;
}

PyObject *
tn_ag_tuple_item(PyObject *result, int k)
{
    return PySequence_GetItem(result, k);
}

int
tn_ag_save_original_self(tn_saved *s, PyObject *self, tn_node *n)
{
    /* upstream saves self.clone() for an in-place op whose formula reads self */
    tn_value a[2] = {tn_value_tensor(self)};
    a[1].tag = TN_V_NONE;
    PyObject *c = tn_autograd_redispatch(tn_op_by_id(TN_OP_clone), a);
    if (!c)
        return -1;
    int r = tn_saved_save(s, c, n, 0);
    Py_DECREF(c);
    return r;
}

PyObject *
tn_ag_scalar_div(tn_value s, PyObject *t)
{
    /* Scalar / Tensor: empty_like(t).fill_(s).div_(t) upstream; full_like then div gives the same
     * values */
    tn_value a[7] = {tn_value_tensor(t), s};
    for (int i = 2; i < 7; i++)
        a[i].tag = TN_V_NONE;
    PyObject *f = tn_ag_op(TN_OP_full_like, a);
    if (!f)
        return NULL;
    tn_value b[2] = {tn_value_tensor(f), tn_value_tensor(t)};
    PyObject *r = tn_ag_op(TN_OP_div__Tensor, b);
    Py_DECREF(f);
    return r;
}

tn_value
tn_ag_scalar_neg(const tn_value *s)
{
    tn_value r = *s;
    if (s->tag == TN_V_DOUBLE || s->tag == TN_V_COMPLEX) {
        r.u.d = -s->u.d;
        r.im = -s->im;
    } else {
        r.tag = TN_V_INT;
        r.u.i = -s->u.i;
    }
    return r;
}

tn_value
tn_ag_scalar_binary(char op, tn_value a, tn_value b)
{
    int fl = a.tag == TN_V_DOUBLE || b.tag == TN_V_DOUBLE || a.tag == TN_V_COMPLEX || b.tag == TN_V_COMPLEX;
    if (fl) {
        double x = tn_scalar_to_double(&a), y = tn_scalar_to_double(&b);
        double r = op == '+' ? x + y : op == '-' ? x - y : op == '*' ? x * y : x / y;
        return tn_value_double(r);
    }
    int64_t x = tn_scalar_to_int(&a), y = tn_scalar_to_int(&b);
    int64_t r = op == '+' ? x + y : op == '-' ? x - y : op == '*' ? x * y : (y ? x / y : 0);
    return tn_value_int(r);
}

tn_ints
tn_ag_sizes(PyObject *t)
{
    tn_ints r = {TN_T(t)->sizes, TN_T(t)->ndim, false};
    return r;
}

tn_ints
tn_ag_strides(PyObject *t)
{
    tn_ints r = {TN_T(t)->strides, TN_T(t)->ndim, false};
    return r;
}

int64_t
tn_ag_size_at(PyObject *t, int64_t dim)
{
    int64_t d = dim < 0 ? dim + TN_T(t)->ndim : dim;
    return d >= 0 && d < TN_T(t)->ndim ? TN_T(t)->sizes[d] : 1;
}

int64_t
tn_ag_stride_at(PyObject *t, int64_t dim)
{
    int64_t d = dim < 0 ? dim + TN_T(t)->ndim : dim;
    return d >= 0 && d < TN_T(t)->ndim ? TN_T(t)->strides[d] : 1;
}

tn_ag_options
tn_ag_options_of(PyObject *t)
{
    tn_ag_options o = {TN_T(t)->dtype, (int8_t)(TN_T(t)->device == TN_DEVICE_META ? TN_DEVTYPE_META : TN_DEVTYPE_CPU)};
    return o;
}

tn_ints
tn_ag_reverse_list(tn_ints l, int64_t *buf)
{
    for (Py_ssize_t i = 0; i < l.n; i++)
        buf[i] = l.v[l.n - 1 - i];
    tn_ints r = {buf, l.n, false};
    return r;
}

tn_ints
tn_ag_negate_list(tn_ints l, int64_t *buf)
{
    for (Py_ssize_t i = 0; i < l.n; i++)
        buf[i] = -l.v[i];
    tn_ints r = {buf, l.n, false};
    return r;
}

static int
ints_copy(tn_ag_ints *dst, const int64_t *v, Py_ssize_t n, bool none)
{
    tn_ag_free_ints(dst);
    dst->none = none;
    dst->n = n;
    if (n > 0) {
        dst->v = malloc(sizeof(int64_t) * (size_t)n);
        if (!dst->v) {
            PyErr_NoMemory();
            return -1;
        }
        memcpy(dst->v, v, sizeof(int64_t) * (size_t)n);
    }
    return 0;
}

int
tn_ag_ints_save(tn_ag_ints *dst, const tn_value *v)
{
    if (v->tag == TN_V_NONE)
        return ints_copy(dst, NULL, 0, true);
    if (v->tag == TN_V_INT)
        return ints_copy(dst, &v->u.i, 1, false);
    return ints_copy(dst, v->u.ints, v->n, false);
}

int
tn_ag_ints_save_sizes(tn_ag_ints *dst, PyObject *t)
{
    return ints_copy(dst, TN_T(t)->sizes, TN_T(t)->ndim, false);
}

int
tn_ag_ints_save_sizes_opt(tn_ag_ints *dst, PyObject *t)
{
    if (!t)
        return ints_copy(dst, NULL, 0, true);
    return tn_ag_ints_save_sizes(dst, t);
}

int
tn_ag_ints_save_strides(tn_ag_ints *dst, PyObject *t)
{
    return ints_copy(dst, TN_T(t)->strides, TN_T(t)->ndim, false);
}

int
tn_ag_str_save(char **dst, const tn_value *v)
{
    free(*dst);
    *dst = NULL;
    if (v->tag != TN_V_STRING)
        return 0;
    size_t n = strlen(v->u.s) + 1;
    if (!(*dst = malloc(n))) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(*dst, v->u.s, n);
    return 0;
}

int
tn_ag_type_and_size_save(tn_ag_type_and_size *dst, PyObject *t)
{
    tn_ag_free_type_and_size(dst);
    TensorObject *x = TN_T(t);
    dst->dtype = x->dtype;
    dst->device = x->device;
    dst->ndim = x->ndim;
    if (x->ndim > 0) {
        if (!(dst->sizes = malloc(sizeof(int64_t) * (size_t)x->ndim))) {
            PyErr_NoMemory();
            return -1;
        }
        memcpy(dst->sizes, x->sizes, sizeof(int64_t) * (size_t)x->ndim);
    }
    return 0;
}

int
tn_ag_geometry_save(tn_ag_geometry *dst, PyObject *t)
{
    tn_ag_free_geometry(dst);
    TensorObject *x = TN_T(t);
    dst->ndim = x->ndim;
    dst->offset = x->offset;
    if (x->ndim > 0) {
        dst->sizes = malloc(sizeof(int64_t) * 2 * (size_t)x->ndim);
        if (!dst->sizes) {
            PyErr_NoMemory();
            return -1;
        }
        dst->strides = dst->sizes + x->ndim;
        memcpy(dst->sizes, x->sizes, sizeof(int64_t) * (size_t)x->ndim);
        memcpy(dst->strides, x->strides, sizeof(int64_t) * (size_t)x->ndim);
    }
    return 0;
}

int
tn_ag_dtypes_save(tn_ag_dtypes *dst, const tn_value *list)
{
    tn_ag_free_dtypes(dst);
    dst->n = list->n;
    dst->v = malloc((size_t)list->n + 1);
    if (!dst->v) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < list->n; i++)
        dst->v[i] = list->u.tensors[i] ? TN_T(list->u.tensors[i])->dtype : -1;
    return 0;
}

int
tn_ag_sizes_list_save(tn_ag_sizes_list *dst, const tn_value *list)
{
    tn_ag_free_sizes_list(dst);
    dst->n = list->n;
    dst->ndim = calloc((size_t)list->n + 1, sizeof(int));
    dst->sizes = calloc((size_t)list->n + 1, sizeof(int64_t *));
    if (!dst->ndim || !dst->sizes) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < list->n; i++) {
        TensorObject *t = list->u.tensors[i] ? TN_T(list->u.tensors[i]) : NULL;
        int nd = t ? t->ndim : 0;
        dst->ndim[i] = nd;
        dst->sizes[i] = malloc(sizeof(int64_t) * (size_t)(nd + 1));
        if (!dst->sizes[i]) {
            PyErr_NoMemory();
            return -1;
        }
        if (nd)
            memcpy(dst->sizes[i], t->sizes, sizeof(int64_t) * (size_t)nd);
    }
    return 0;
}

int
tn_ag_scalars_save(tn_ag_scalars *dst, const tn_value *v)
{
    tn_ag_free_scalars(dst);
    dst->n = v->n;
    dst->v = malloc(sizeof(tn_value) * (size_t)(v->n + 1));
    if (!dst->v) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(dst->v, v->u.scalars, sizeof(tn_value) * (size_t)v->n);
    return 0;
}

void
tn_ag_free_ints(tn_ag_ints *a)
{
    free(a->v);
    a->v = NULL;
    a->n = 0;
}

void
tn_ag_free_str(char **s)
{
    free(*s);
    *s = NULL;
}

void
tn_ag_free_type_and_size(tn_ag_type_and_size *a)
{
    free(a->sizes);
    a->sizes = NULL;
}

void
tn_ag_free_geometry(tn_ag_geometry *a)
{
    free(a->sizes);
    a->sizes = a->strides = NULL;
}

void
tn_ag_free_dtypes(tn_ag_dtypes *a)
{
    free(a->v);
    a->v = NULL;
}

void
tn_ag_free_sizes_list(tn_ag_sizes_list *a)
{
    for (Py_ssize_t i = 0; a->sizes && i < a->n; i++)
        free(a->sizes[i]);
    free(a->sizes);
    free(a->ndim);
    a->sizes = NULL;
    a->ndim = NULL;
}

void
tn_ag_free_scalars(tn_ag_scalars *a)
{
    free(a->v);
    a->v = NULL;
}

PyObject *
tn_ag_type_and_size_zeros(const tn_ag_type_and_size *a)
{
    TensorObject *z = tn_tensor_empty(a->ndim, a->sizes, a->dtype, a->device);
    if (z && z->storage->data)
        memset(z->storage->data, 0, (size_t)z->storage->nbytes);
    return (PyObject *)z;
}

int
tn_ag_vec_alloc(tn_ag_vec *v, Py_ssize_t n)
{
    v->n = n;
    v->v = calloc((size_t)n + 1, sizeof(PyObject *));
    if (!v->v) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

int
tn_ag_vec_unpack(tn_ag_vec *v, tn_saved_list *l, tn_node *n)
{
    v->n = l->n;
    v->v = tn_saved_list_unpack(l, n);
    if (!v->v) {
        v->n = 0;
        return -1;
    }
    return 0;
}

void
tn_ag_vec_free(tn_ag_vec *v)
{
    if (v->v)
        tn_tensor_array_free(v->v, v->n);
    v->v = NULL;
    v->n = 0;
}

/* ---- getters ---- */

PyObject *
tn_ag_scalar_to_py(const tn_value *v)
{
    switch (v->tag) {
    case TN_V_NONE:
        Py_RETURN_NONE;
    case TN_V_BOOL:
        return PyBool_FromLong((long)v->u.i);
    case TN_V_INT:
        return PyLong_FromLongLong(v->u.i);
    case TN_V_COMPLEX:
        return PyComplex_FromDoubles(v->u.d, v->im);
    default:
        return PyFloat_FromDouble(v->u.d);
    }
}

PyObject *
tn_ag_opt_int_to_py(tn_opt_int v)
{
    if (!v.has)
        Py_RETURN_NONE;
    return PyLong_FromLongLong(v.v);
}

PyObject *
tn_ag_opt_double_to_py(tn_opt_double v)
{
    if (!v.has)
        Py_RETURN_NONE;
    return PyFloat_FromDouble(v.v);
}

PyObject *
tn_ag_opt_bool_to_py(int v)
{
    if (v < 0)
        Py_RETURN_NONE;
    return PyBool_FromLong(v);
}

PyObject *
tn_ag_ints_to_py(const tn_ag_ints *a)
{
    if (a->none)
        Py_RETURN_NONE;
    PyObject *t = PyTuple_New(a->n);
    for (Py_ssize_t i = 0; t && i < a->n; i++)
        PyTuple_SetItem(t, i, PyLong_FromLongLong(a->v[i]));
    return t;
}

PyObject *
tn_ag_str_to_py(const char *s)
{
    if (!s)
        Py_RETURN_NONE;
    return PyUnicode_FromString(s);
}

PyObject *
tn_ag_saved_list_to_py(tn_saved_list *l, tn_node *n)
{
    PyObject **items = tn_saved_list_unpack(l, n);
    if (!items)
        return NULL;
    PyObject *t = PyTuple_New(l->n);
    for (Py_ssize_t i = 0; t && i < l->n; i++) {
        PyTuple_SetItem(t, i, items[i] ? items[i] : Py_NewRef(Py_None));
        items[i] = NULL;
    }
    tn_tensor_array_free(items, l->n);
    return t;
}

int
tn_ag_saved_list_save_outputs(tn_saved_list *l, PyObject *list, tn_node *n)
{
    PyObject *seq = PySequence_Tuple(list);
    if (!seq)
        return -1;
    tn_saved_list_release(l);
    Py_ssize_t k = PyTuple_Size(seq);
    l->items = calloc((size_t)k + 1, sizeof(tn_saved));
    if (!l->items) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    l->n = k;
    int rc = 0;
    for (Py_ssize_t i = 0; rc == 0 && i < k; i++)
        rc = tn_saved_save(&l->items[i], PyTuple_GetItem(seq, i), n, 1);
    Py_DECREF(seq);
    return rc;
}

int
tn_ag_scalar_of_tensor(tn_value *dst, PyObject *t)
{
    return tn_tensor_item_value(TN_T(t), dst);
}

/* ---- the generated table into the op registry (module init hands it over) ---- */

int
tn_autograd_install(const tn_autograd_entry *table)
{
    for (const tn_autograd_entry *e = table; e->mode; e++) {
        tn_op *op = tn_op_by_id(e->op);
        op->ag_mode = e->mode;
        op->ag_record = e->record ? e->record
                        : e->mode == TN_AG_OUT ? mode_out
                        : e->mode == TN_AG_CIA ? mode_cia_python
                                               : mode_not_implemented;
    }
    return 0;
}
