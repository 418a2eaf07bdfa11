/* The backward engine (torch._C._ImperativeEngine): dependencies, the ready queue, input
 * buffers, hooks, gradient validation and accumulation into .grad.
 *
 * Note [Engine order]
 * Upstream's CPU engine runs a graph on the calling thread from a max-heap keyed by the nodes'
 * sequence numbers (a node made later runs first; AccumulateGrad, numbered UINT64_MAX, runs as
 * soon as it is ready). Gradients for one input add up in the order they arrive, so with three
 * or more contributions that order decides the float result; this engine keeps upstream's
 * order for that reason. Backward formulas run with grad mode = create_graph, so with
 * create_graph=True they record a graph of their own (double backward).
 */
#include "autograd_engine.h"
#include "op.h"
#include "dispatch.h"
#include "dtype.h"
#include "tls.h"
#include "generated/ops.h"

#include <string.h>

/* ---- calling ops from the engine ---- */

static PyObject *
call_op(int id, tn_value *args)
{
    return tn_dispatch(tn_op_by_id(id), args);
}

/* at::sum_to: sum the leading dims and the dims `shape` has as 1, then view to shape. */
PyObject *
tn_ag_sum_to(PyObject *t, int ndim, const int64_t *shape)
{
    TensorObject *x = TN_T(t);
    int lead = x->ndim - ndim;
    int64_t dims[TN_MAX_NDIM];
    int nd = 0;
    for (int i = 0; i < lead; i++)
        dims[nd++] = i;
    for (int i = lead; i < x->ndim; i++)
        if (shape[i - lead] == 1 && x->sizes[i] != 1)
            dims[nd++] = i;
    PyObject *r = Py_NewRef(t);
    if (nd > 0) {
        tn_value a[4] = {tn_value_tensor(r)};
        a[1].tag = TN_V_INTLIST;
        a[1].u.ints = dims;
        a[1].n = nd;
        a[2].tag = TN_V_BOOL;
        a[2].u.i = 1;
        a[3].tag = TN_V_NONE;
        TN_SETREF(r, call_op(TN_OP_sum__dim_IntList, a));
        if (!r)
            return NULL;
    }
    if (lead > 0) {
        tn_value a[2] = {tn_value_tensor(r)};
        a[1].tag = TN_V_INTLIST;
        a[1].u.ints = (int64_t *)shape;
        a[1].n = ndim;
        PyObject *v = call_op(TN_OP_view, a);
        Py_DECREF(r);
        r = v;
    }
    return r;
}

static PyObject *
to_dtype(PyObject *t, int dtype)
{
    tn_value a[6] = {tn_value_tensor(t)};
    a[1].tag = TN_V_DTYPE;
    a[1].u.i = dtype;
    a[2].tag = TN_V_BOOL;   /* non_blocking */
    a[2].u.i = 0;
    a[3].tag = TN_V_BOOL;   /* copy */
    a[3].u.i = 0;
    a[4].tag = TN_V_NONE;   /* memory_format */
    return call_op(TN_OP_to__dtype, a);
}

static PyObject *
add_tensors(PyObject *a, PyObject *b, int inplace)
{
    tn_value v[3] = {tn_value_tensor(a), tn_value_tensor(b), tn_value_int(1)};
    return call_op(inplace ? TN_OP_add___Tensor : TN_OP_add__Tensor, v);
}

/* ---- AccumulateGrad ---- */

typedef struct {
    tn_node base;
    PyObject *variable;   /* the leaf (strong); the leaf points back with a borrowed grad_acc */
} AccumulateGrad;

static int accumulate_apply(tn_node *self, PyObject **grads, PyObject **out);

static void
accumulate_finalize(tn_node *n)
{
    AccumulateGrad *a = (AccumulateGrad *)n;
    if (a->variable && TN_T(a->variable)->grad_acc == (PyObject *)n)
        TN_T(a->variable)->grad_acc = NULL;
    Py_CLEAR(a->variable);
}

static int
accumulate_traverse(tn_node *n, visitproc visit, void *arg)
{
    Py_VISIT(((AccumulateGrad *)n)->variable);
    return 0;
}

static PyObject *
accumulate_get_variable(PyObject *self, void *c)
{
    PyObject *v = ((AccumulateGrad *)self)->variable;
    return Py_NewRef(v ? v : Py_None);
}

static PyGetSetDef accumulate_getset[] = {
    {"variable", accumulate_get_variable, NULL, NULL, NULL},
    {NULL},
};

tn_node_kind tn_kind_AccumulateGrad = {
    .name = "AccumulateGrad",
    .cpp_name = "torch::autograd::AccumulateGrad",
    .basicsize = sizeof(AccumulateGrad),
    .apply = accumulate_apply,
    .finalize = accumulate_finalize,  /* not release: a graph kept by retain_graph still accumulates */
    .traverse = accumulate_traverse,
    .getset = accumulate_getset,
};

PyObject *
tn_accumulate_variable(tn_node *n)
{
    return n->is_accumulate ? ((AccumulateGrad *)n)->variable : NULL;
}

PyObject *
tn_grad_accumulator(TensorObject *t)
{
    if (t->grad_acc)
        return Py_NewRef(t->grad_acc);
    tn_node *n = tn_node_new(&tn_kind_AccumulateGrad, 0, 1);
    if (!n)
        return NULL;
    n->seq_nr = UINT64_MAX;  /* runs as soon as it is ready (Note [Engine order]) */
    n->is_accumulate = 1;
    ((AccumulateGrad *)n)->variable = Py_NewRef((PyObject *)t);
    tn_input_meta_set(&n->inputs[0], t);
    t->grad_acc = (PyObject *)n;
    return (PyObject *)n;
}

static int
accumulate_apply(tn_node *self, PyObject **grads, PyObject **out)
{
    AccumulateGrad *a = (AccumulateGrad *)self;
    if (!grads[0] || !a->variable)
        return 0;
    return tn_accumulate_grad(a->variable, grads[0], !tn_tls.grad_disabled);
}


/* ---- GraphRoot ---- */

typedef struct {
    tn_node base;
    PyObject **seeds;   /* one per next edge */
} GraphRoot;

static int
graphroot_apply(tn_node *self, PyObject **grads, PyObject **out)
{
    GraphRoot *g = (GraphRoot *)self;
    for (int j = 0; j < self->num_next; j++)
        out[j] = Py_XNewRef(g->seeds ? g->seeds[j] : NULL);
    return 0;
}

static void
graphroot_release(tn_node *n)
{
    GraphRoot *g = (GraphRoot *)n;
    if (g->seeds) {
        tn_tensor_array_free(g->seeds, n->num_next);
        g->seeds = NULL;
    }
}

tn_node_kind tn_kind_GraphRoot = {
    .name = "GraphRoot",
    .cpp_name = "torch::autograd::GraphRoot",
    .basicsize = sizeof(GraphRoot),
    .apply = graphroot_apply,
    .release = graphroot_release,
};

tn_node *
tn_graph_root_new(Py_ssize_t n, const tn_edge *roots, PyObject **seeds)
{
    tn_node *g = tn_node_new(&tn_kind_GraphRoot, (int)n, 0);
    if (!g)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        g->next[i].fn = Py_NewRef(roots[i].fn);
        g->next[i].input_nr = roots[i].input_nr;
    }
    ((GraphRoot *)g)->seeds = seeds;
    return g;
}


/* ---- validate_outputs: what a node returns must fit the next node's input ---- */

static void
format_shape(char *buf, size_t n, int ndim, const int64_t *sizes)
{
    size_t k = (size_t)snprintf(buf, n, "[");
    for (int d = 0; d < ndim && k < n; d++)
        k += (size_t)snprintf(buf + k, n - k, d ? ", %lld" : "%lld", (long long)sizes[d]);
    if (k < n)
        snprintf(buf + k, n - k, "]");
}

static int
expandable_to(const tn_input_meta *m, const TensorObject *g)
{
    /* the metadata's shape broadcasts to the gradient's (is_expandable_to) */
    if (m->ndim > g->ndim)
        return 0;
    for (int i = 0; i < m->ndim; i++) {
        int64_t s = m->sizes[m->ndim - 1 - i], t = g->sizes[g->ndim - 1 - i];
        if (s != t && s != 1)
            return 0;
    }
    return 1;
}

static int
validate_grad(const char *fn_name, int index, const tn_input_meta *m, PyObject **grad)
{
    if (!*grad || !m->defined)
        return 0;
    TensorObject *g = TN_T(*grad);
    int same = g->ndim == m->ndim && !memcmp(g->sizes, m->sizes, sizeof(int64_t) * (size_t)m->ndim);
    if (!same) {
        if (!expandable_to(m, g)) {
            char got[256], want[256];
            format_shape(got, sizeof got, g->ndim, g->sizes);
            format_shape(want, sizeof want, m->ndim, m->sizes);
            PyErr_Format(PyExc_RuntimeError,
                         "Function %s returned an invalid gradient at index %d - got %s but expected shape "
                         "compatible with %s",
                         fn_name, index, got, want);
            return -1;
        }
        PyObject *r = tn_ag_sum_to(*grad, m->ndim, m->sizes);
        if (!r)
            return -1;
        TN_SETREF(*grad, r);
        g = TN_T(*grad);
    }
    if (g->dtype != m->dtype) {
        if (!tn_dtype_is_floating(g->dtype) && tn_dtype_is_complex(m->dtype) != tn_dtype_is_complex(g->dtype)) {
            PyErr_Format(PyExc_RuntimeError, "Function %s returned an invalid gradient at index %d - "
                         "expected dtype %s but got %s", fn_name, index, tn_dtype_name(m->dtype),
                         tn_dtype_name(g->dtype));
            return -1;
        }
        PyObject *r = to_dtype(*grad, m->dtype);
        if (!r)
            return -1;
        TN_SETREF(*grad, r);
    }
    return 0;
}

static int
validate_outputs(tn_node *fn, const char *name, int n, const tn_edge *edges, PyObject **grads)
{
    for (int i = 0; i < n; i++) {
        if (!edges[i].fn || !grads[i])
            continue;
        tn_node *next = TN_NODE(edges[i].fn);
        if (edges[i].input_nr >= next->num_inputs)
            continue;
        if (validate_grad(name, i, &next->inputs[edges[i].input_nr], &grads[i]) < 0)
            return -1;
    }
    return 0;
}

/* ---- accumulation into .grad (upstream's AccumulateGrad::accumulateGrad) ---- */

/* The gradient layout contract: .grad has the strides of its (dense) parameter. */
static int
obeys_layout_contract(const TensorObject *g, const TensorObject *v)
{
    if (tn_tensor_is_non_overlapping_and_dense(v)) {
        for (int d = 0; d < g->ndim; d++) {
            if (g->sizes[d] != 1) {
                if (g->strides[d] != v->strides[d])
                    return 0;
            } else if (g->strides[d] == 0) {
                return 0;
            }
        }
        return 1;
    }
    return tn_tensor_is_contiguous(g);
}

static PyObject *
clone_obey_contract(PyObject *grad, TensorObject *v)
{
    TensorObject *g = TN_T(grad);
    TensorObject *r;
    if (tn_tensor_is_non_overlapping_and_dense(v)) {
        tn_storage *s = NULL;
        int64_t extent = 1;
        for (int d = 0; d < v->ndim; d++)
            if (v->sizes[d] == 0)
                extent = 0;
        if (extent)
            for (int d = 0; d < v->ndim; d++)
                extent += (v->sizes[d] - 1) * v->strides[d];
        if (!(s = tn_storage_new(extent * tn_dtype_size(g->dtype), g->device)))
            return NULL;
        r = tn_tensor_from_storage(s, 0, v->ndim, v->sizes, v->strides, g->dtype);
        tn_storage_release(s);
    } else {
        r = tn_tensor_empty(v->ndim, v->sizes, g->dtype, g->device);
    }
    if (!r)
        return NULL;
    tn_value a[3] = {tn_value_tensor((PyObject *)r), tn_value_tensor(grad)};
    a[2].tag = TN_V_BOOL;
    a[2].u.i = 0;
    PyObject *c = call_op(TN_OP_copy_, a);
    if (!c) {
        Py_DECREF(r);
        return NULL;
    }
    Py_DECREF(c);
    return (PyObject *)r;
}

static int
call_post_accumulate_hooks(PyObject *variable)
{
    PyObject *hooks = TN_T(variable)->post_accumulate_grad_hooks;
    if (!hooks)
        return 0;
    PyObject *values = PyObject_CallMethod(hooks, "values", NULL);
    PyObject *it = values ? PyObject_GetIter(values) : NULL;
    Py_XDECREF(values);
    if (!it)
        return -1;
    PyObject *h;
    while ((h = PyIter_Next(it))) {
        PyObject *r = PyObject_CallFunctionObjArgs(h, variable, NULL);
        Py_DECREF(h);
        if (!r) {
            Py_DECREF(it);
            return -1;
        }
        if (r != Py_None) {
            Py_DECREF(r);
            Py_DECREF(it);
            PyErr_SetString(PyExc_RuntimeError, "Tensor post accumulate grad hooks should return None.");
            return -1;
        }
        Py_DECREF(r);
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : 0;
}

int
tn_accumulate_grad(PyObject *variable, PyObject *new_grad, int grad_mode)
{
    TensorObject *v = TN_T(variable);
    if (!v->grad) {
        /* steal the buffer's tensor when nothing else can see it (the engine's input buffer
         * holds the only reference) */
        if (!grad_mode && Py_REFCNT(new_grad) == 1 && !TN_T(new_grad)->grad_fn &&
            !TN_T(new_grad)->requires_grad && obeys_layout_contract(TN_T(new_grad), v)) {
            v->grad = Py_NewRef(new_grad);
        } else {
            PyObject *c = clone_obey_contract(new_grad, v);
            if (!c)
                return -1;
            v->grad = c;
        }
    } else if (!grad_mode) {
        PyObject *r = add_tensors(v->grad, new_grad, 1);
        if (!r)
            return -1;
        Py_DECREF(r);
    } else {
        PyObject *r = add_tensors(v->grad, new_grad, 0);
        if (!r)
            return -1;
        TN_SETREF(v->grad, r);
    }
    return call_post_accumulate_hooks(variable);
}

/* ---- hooks ---- */

/* Each hook in a dict is called with `arg`; a non-None result replaces *value. */
static int
run_hook_dict(PyObject *dict, PyObject **value, int tensor_result)
{
    PyObject *values = PyObject_CallMethod(dict, "values", NULL);
    PyObject *seq = values ? PySequence_List(values) : NULL;
    Py_XDECREF(values);
    if (!seq)
        return -1;
    for (Py_ssize_t i = 0; i < PyList_Size(seq); i++) {
        PyObject *h = PyList_GetItem(seq, i);
        PyObject *arg = *value ? *value : Py_None;
        PyObject *r = PyObject_CallFunctionObjArgs(h, arg, NULL);
        if (!r) {
            Py_DECREF(seq);
            return -1;
        }
        if (r == Py_None) {
            Py_DECREF(r);
            continue;
        }
        if (tensor_result && !tn_tensor_check(r)) {
            PyErr_Format(PyExc_TypeError, "expected Tensor or None (got %s)", tn_tpname(r));
            Py_DECREF(r);
            Py_DECREF(seq);
            return -1;
        }
        TN_XSETREF(*value, r);
    }
    Py_DECREF(seq);
    return 0;
}

static int
call_tensor_pre_hooks(tn_node *fn, PyObject **inputs)
{
    if (fn->is_accumulate) {
        /* a leaf's hooks (Tensor.register_hook on a leaf) */
        PyObject *var = tn_accumulate_variable(fn);
        if (var && TN_T(var)->backward_hooks && run_hook_dict(TN_T(var)->backward_hooks, &inputs[0], 1) < 0)
            return -1;
    }
    if (fn->tensor_pre_hooks) {
        for (Py_ssize_t k = 0; k < PyList_Size(fn->tensor_pre_hooks); k++) {
            PyObject *entry = PyList_GetItem(fn->tensor_pre_hooks, k);
            PyObject *dict = PyTuple_GetItem(entry, 0);
            long nr = PyLong_AsLong(PyTuple_GetItem(entry, 1));
            if (nr < 0 || nr >= fn->num_inputs)
                continue;
            if (run_hook_dict(dict, &inputs[nr], 1) < 0)
                return -1;
        }
    }
    if (fn->retains_grad) {
        PyObject *k, *w;
        Py_ssize_t pos = 0;
        while (PyDict_Next(fn->retains_grad, &pos, &k, &w)) {
            long nr = PyLong_AsLong(k);
            if (nr < 0 || nr >= fn->num_inputs || !inputs[nr])
                continue;
            PyObject *t = PyWeakref_Check(w) ? PyWeakref_GetObject(w) : w;
            if (!t || t == Py_None)
                continue;
            TensorObject *tt = TN_T(t);
            PyObject *g;
            if (!tt->grad) {
                tn_value a[2] = {tn_value_tensor(inputs[nr])};
                a[1].tag = TN_V_MEMFMT;
                a[1].u.i = TN_MEMFMT_CONTIGUOUS;
                g = call_op(TN_OP_clone, a);
            } else {
                g = add_tensors(tt->grad, inputs[nr], 0);
            }
            if (!g)
                return -1;
            TN_XSETREF(tt->grad, g);
        }
    }
    return 0;
}

static PyObject *
grads_tuple(PyObject **g, int n)
{
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && i < n; i++)
        PyTuple_SetItem(t, i, Py_NewRef(g[i] ? g[i] : Py_None));
    return t;
}

/* node pre hooks: hook(grad_outputs) may return a replacement tuple */
static int
call_pre_hooks(tn_node *fn, PyObject **inputs)
{
    if (!fn->pre_hooks || PyDict_Size(fn->pre_hooks) == 0)
        return 0;
    PyObject *values = PyDict_Values(fn->pre_hooks);
    if (!values)
        return -1;
    for (Py_ssize_t k = 0; k < PyList_Size(values); k++) {
        PyObject *arg = grads_tuple(inputs, fn->num_inputs);
        PyObject *r = arg ? PyObject_CallFunctionObjArgs(PyList_GetItem(values, k), arg, NULL) : NULL;
        Py_XDECREF(arg);
        if (!r) {
            Py_DECREF(values);
            return -1;
        }
        if (r != Py_None) {
            PyObject *seq = PySequence_Tuple(r);
            if (!seq || PyTuple_Size(seq) != fn->num_inputs) {
                if (seq)
                    PyErr_Format(PyExc_RuntimeError, "hook '%S' has returned an incorrect number of values "
                                 "(got %zd, but expected %d)", PyList_GetItem(values, k),
                                 PyTuple_Size(seq), fn->num_inputs);
                Py_XDECREF(seq);
                Py_DECREF(r);
                Py_DECREF(values);
                return -1;
            }
            for (int i = 0; i < fn->num_inputs; i++) {
                PyObject *x = PyTuple_GetItem(seq, i);
                TN_XSETREF(inputs[i], x == Py_None ? NULL : Py_NewRef(x));
            }
            Py_DECREF(seq);
        }
        Py_DECREF(r);
    }
    Py_DECREF(values);
    return 0;
}

/* node post hooks: hook(grad_inputs, grad_outputs) may return replacement grad_inputs */
static int
call_post_hooks(tn_node *fn, PyObject **outputs, PyObject **inputs)
{
    if (!fn->post_hooks || PyDict_Size(fn->post_hooks) == 0)
        return 0;
    PyObject *values = PyDict_Values(fn->post_hooks);
    if (!values)
        return -1;
    for (Py_ssize_t k = 0; k < PyList_Size(values); k++) {
        PyObject *a = grads_tuple(outputs, fn->num_next);
        PyObject *b = grads_tuple(inputs, fn->num_inputs);
        PyObject *r = a && b ? PyObject_CallFunctionObjArgs(PyList_GetItem(values, k), a, b, NULL) : NULL;
        Py_XDECREF(a);
        Py_XDECREF(b);
        if (!r) {
            Py_DECREF(values);
            return -1;
        }
        if (r != Py_None) {
            PyObject *seq = PySequence_Tuple(r);
            if (!seq || PyTuple_Size(seq) != fn->num_next) {
                if (seq)
                    PyErr_Format(PyExc_RuntimeError, "hook '%S' has returned an incorrect number of values "
                                 "(got %zd, but expected %d)", PyList_GetItem(values, k),
                                 PyTuple_Size(seq), fn->num_next);
                Py_XDECREF(seq);
                Py_DECREF(r);
                Py_DECREF(values);
                return -1;
            }
            for (int j = 0; j < fn->num_next; j++) {
                PyObject *x = PyTuple_GetItem(seq, j);
                TN_XSETREF(outputs[j], x == Py_None ? NULL : Py_NewRef(x));
            }
            Py_DECREF(seq);
        }
        Py_DECREF(r);
    }
    Py_DECREF(values);
    return 0;
}

/* ---- the graph task: per-node state in an open-addressing table ---- */

typedef struct {
    tn_node *fn;          /* borrowed: the graph holds it while the task runs */
    int deps;
    int needed;           /* exec_info: on a path to an output edge (or no exec_info) */
    int has_capture;
    PyObject **buffer;    /* num_inputs gradients (owned) */
} task_entry;

typedef struct {
    task_entry *slots;
    size_t cap, count;
    /* ready heap of entries */
    task_entry **heap;
    size_t nheap, capheap;
    int use_exec_info;
    /* captures: output edge k -> gradient */
    Py_ssize_t nout;
    const tn_edge *outputs;
    PyObject **captured;
    int keep_graph;
    int64_t id;           /* torch._C._current_graph_task_id() */
} graph_task;

static size_t
hash_ptr(const void *p)
{
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 17;
    x *= 0xed5ad4bbU;
    x ^= x >> 11;
    return (size_t)x;
}

static task_entry *
task_find(graph_task *t, const tn_node *fn)
{
    size_t mask = t->cap - 1;
    for (size_t i = hash_ptr(fn) & mask;; i = (i + 1) & mask) {
        if (t->slots[i].fn == fn)
            return &t->slots[i];
        if (!t->slots[i].fn)
            return NULL;
    }
}

static int
task_grow(graph_task *t)
{
    size_t cap = t->cap ? t->cap * 2 : 64;
    task_entry *slots = calloc(cap, sizeof(task_entry));
    if (!slots) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->slots[i].fn)
            continue;
        size_t j = hash_ptr(t->slots[i].fn) & (cap - 1);
        while (slots[j].fn)
            j = (j + 1) & (cap - 1);
        slots[j] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    return 0;
}

static task_entry *
task_get(graph_task *t, tn_node *fn, int *created)
{
    if ((t->count + 1) * 2 > t->cap && task_grow(t) < 0)
        return NULL;
    size_t mask = t->cap - 1;
    size_t i = hash_ptr(fn) & mask;
    while (t->slots[i].fn && t->slots[i].fn != fn)
        i = (i + 1) & mask;
    if (created)
        *created = !t->slots[i].fn;
    if (!t->slots[i].fn) {
        t->slots[i].fn = fn;
        t->count++;
    }
    return &t->slots[i];
}

static void
task_free(graph_task *t)
{
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].fn && t->slots[i].buffer)
            tn_tensor_array_free(t->slots[i].buffer, t->slots[i].fn->num_inputs);
    free(t->slots);
    free(t->heap);
    if (t->captured)
        tn_tensor_array_free(t->captured, t->nout);
}

/* heap order: higher sequence number first */
static int
heap_before(const task_entry *a, const task_entry *b)
{
    return a->fn->seq_nr > b->fn->seq_nr;
}

static int
heap_push(graph_task *t, task_entry *e)
{
    if (t->nheap == t->capheap) {
        size_t cap = t->capheap ? 2 * t->capheap : 64;
        task_entry **h = realloc(t->heap, cap * sizeof *h);
        if (!h) {
            PyErr_NoMemory();
            return -1;
        }
        t->heap = h;
        t->capheap = cap;
    }
    size_t i = t->nheap++;
    t->heap[i] = e;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!heap_before(t->heap[i], t->heap[p]))
            break;
        task_entry *x = t->heap[i];
        t->heap[i] = t->heap[p];
        t->heap[p] = x;
        i = p;
    }
    return 0;
}

static task_entry *
heap_pop(graph_task *t)
{
    task_entry *top = t->heap[0];
    t->heap[0] = t->heap[--t->nheap];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < t->nheap && heap_before(t->heap[l], t->heap[m]))
            m = l;
        if (r < t->nheap && heap_before(t->heap[r], t->heap[m]))
            m = r;
        if (m == i)
            break;
        task_entry *x = t->heap[i];
        t->heap[i] = t->heap[m];
        t->heap[m] = x;
        i = m;
    }
    return top;
}

static PyObject **
entry_buffer(task_entry *e)
{
    if (!e->buffer) {
        e->buffer = calloc((size_t)e->fn->num_inputs + 1, sizeof(PyObject *));
        if (!e->buffer)
            PyErr_NoMemory();
    }
    return e->buffer;
}

/* InputBuffer::add: the first gradient is kept; later ones add (in place when only the buffer
 * sees the tensor and grad mode is off). */
static int
buffer_add(PyObject **slot, PyObject *g)
{
    if (!g)
        return 0;
    if (!*slot) {
        *slot = Py_NewRef(g);
        return 0;
    }
    TensorObject *old = TN_T(*slot);
    int inplace = tn_tls.grad_disabled && Py_REFCNT(*slot) == 1 && old->storage->refcnt == 1 &&
                  !old->grad_fn && tn_tensor_is_contiguous(old) && old->dtype == TN_T(g)->dtype &&
                  old->ndim == TN_T(g)->ndim &&
                  !memcmp(old->sizes, TN_T(g)->sizes, sizeof(int64_t) * (size_t)old->ndim);
    PyObject *r = add_tensors(*slot, g, inplace);
    if (!r)
        return -1;
    TN_SETREF(*slot, r);
    return 0;
}

/* DFS from the root: count how many edges point at each node. */
static int
compute_dependencies(graph_task *t, tn_node *root)
{
    tn_node **stack = NULL;
    size_t n = 0, cap = 0;
    int created;
    if (!task_get(t, root, NULL))
        return -1;
#define PUSH(x)                                                          \
    do {                                                                 \
        if (n == cap) {                                                  \
            size_t nc = cap ? 2 * cap : 64;                              \
            tn_node **ns = realloc(stack, nc * sizeof *ns);              \
            if (!ns) {                                                   \
                free(stack);                                             \
                PyErr_NoMemory();                                        \
                return -1;                                               \
            }                                                            \
            stack = ns;                                                  \
            cap = nc;                                                    \
        }                                                                \
        stack[n++] = (x);                                                \
    } while (0)
    PUSH(root);
    while (n > 0) {
        tn_node *fn = stack[--n];
        for (int j = 0; j < fn->num_next; j++) {
            tn_node *next = TN_NODE(fn->next[j].fn);
            if (!next)
                continue;
            task_entry *e = task_get(t, next, &created);
            if (!e) {
                free(stack);
                return -1;
            }
            e->deps++;
            if (created)
                PUSH(next);
        }
    }
#undef PUSH
    free(stack);
    return 0;
}

/* exec_info: which nodes lead to an output edge (upstream's init_to_execute). */
static int
compute_needed(graph_task *t, int accumulate_grad)
{
    /* mark output functions */
    for (Py_ssize_t k = 0; k < t->nout; k++) {
        tn_node *fn = TN_NODE(t->outputs[k].fn);
        task_entry *e = task_find(t, fn);
        if (!e)
            continue;  /* not reachable: its gradient stays undefined */
        if (accumulate_grad)
            e->needed = 1;
        else
            e->has_capture = 1;
    }
    /* propagate: a node is needed when one of its next nodes is needed or captures.
     * Iterate to a fixed point over the table (graphs are DAGs; passes are bounded by depth,
     * so process in ascending sequence order instead: next nodes are always older). */
    size_t m = 0;
    task_entry **order = malloc(sizeof(task_entry *) * (t->count + 1));
    if (!order) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].fn)
            order[m++] = &t->slots[i];
    /* insertion order is arbitrary; a simple repeated relaxation until nothing changes */
    int changed = 1;
    while (changed) {
        changed = 0;
        for (size_t i = 0; i < m; i++) {
            task_entry *e = order[i];
            if (e->needed)
                continue;
            for (int j = 0; j < e->fn->num_next; j++) {
                tn_node *next = TN_NODE(e->fn->next[j].fn);
                if (!next)
                    continue;
                task_entry *ne = task_find(t, next);
                if (ne && (ne->needed || ne->has_capture)) {
                    e->needed = 1;
                    changed = 1;
                    break;
                }
            }
        }
    }
    free(order);
    return 0;
}

static int
capture_grads(graph_task *t, task_entry *e)
{
    for (Py_ssize_t k = 0; k < t->nout; k++) {
        if (TN_NODE(t->outputs[k].fn) != e->fn)
            continue;
        int nr = t->outputs[k].input_nr;
        PyObject *g = e->buffer && nr < e->fn->num_inputs ? e->buffer[nr] : NULL;
        TN_XSETREF(t->captured[k], Py_XNewRef(g));
    }
    return 0;
}

/* Run one node: hooks, apply, validation, post hooks; route its outputs. */
static int
evaluate(graph_task *t, task_entry *e)
{
    tn_node *fn = e->fn;
    PyObject **inputs = entry_buffer(e);
    if (!inputs)
        return -1;
    if (t->use_exec_info) {
        if (!e->needed) {
            if (call_tensor_pre_hooks(fn, inputs) < 0)
                return -1;
            return capture_grads(t, e);
        }
    }
    if (call_tensor_pre_hooks(fn, inputs) < 0)
        return -1;
    if (e->has_capture && capture_grads(t, e) < 0)
        return -1;
    if (call_pre_hooks(fn, inputs) < 0)
        return -1;
    int nout = fn->num_next;
    PyObject **outputs = calloc((size_t)nout + 1, sizeof(PyObject *));
    if (!outputs) {
        PyErr_NoMemory();
        return -1;
    }
    int rc = fn->kind->apply(fn, inputs, outputs);
    if (rc == 0)
        rc = validate_outputs(fn, tn_node_name(fn), nout, fn->next, outputs);
    if (rc == 0)
        rc = call_post_hooks(fn, outputs, inputs);
    if (rc == 0 && !t->keep_graph && fn->kind->release) {
        fn->kind->release(fn);
        fn->released = 1;
    }
    /* the inputs are consumed */
    tn_tensor_array_free(e->buffer, fn->num_inputs);
    e->buffer = NULL;
    for (int j = 0; rc == 0 && j < nout; j++) {
        tn_node *next = TN_NODE(fn->next[j].fn);
        if (!next)
            continue;
        task_entry *ne = task_find(t, next);
        if (!ne)
            continue;
        PyObject **buf = entry_buffer(ne);
        if (!buf || buffer_add(&buf[fn->next[j].input_nr], outputs[j]) < 0) {
            rc = -1;
            break;
        }
        if (--ne->deps == 0 && heap_push(t, ne) < 0)
            rc = -1;
    }
    tn_tensor_array_free(outputs, nout);
    return rc;
}

/* queue_callback: callables run when the current backward finishes */
static _Thread_local graph_task *current_task;
static _Thread_local PyObject *final_callbacks;
static _Thread_local int engine_depth;
static _Thread_local PyObject *current_node;   /* _current_autograd_node */

/* Does the running backward keep its graph (retain_graph)? A formula's `retain_variables`. */
int
tn_engine_keep_graph(void)
{
    return current_task && current_task->keep_graph;
}

/* task_should_compute_output: with exec_info, only edges into needed nodes are computed */
int
tn_engine_node_needed(tn_node *fn)
{
    graph_task *t = current_task;
    if (!t || !t->use_exec_info)
        return 1;
    task_entry *e = task_find(t, fn);
    return e && (e->needed || e->has_capture);
}

PyObject *
tn_engine_execute(Py_ssize_t nroots, const tn_edge *roots, PyObject **seeds, Py_ssize_t nout,
                  const tn_edge *outputs, const tn_backward_opts *o)
{
    graph_task t;
    memset(&t, 0, sizeof t);
    t.keep_graph = o->keep_graph;
    t.nout = nout;
    t.outputs = outputs;
    PyObject *result = NULL;
    tn_node *root = NULL;
    int saved_grad_disabled = tn_tls.grad_disabled;
    PyObject *saved_callbacks = final_callbacks;
    graph_task *saved_task = current_task;
    final_callbacks = NULL;
    static int64_t next_task_id;
    t.id = next_task_id++;
    current_task = &t;
    engine_depth++;
    tn_tls.grad_disabled = !o->create_graph;

    PyObject **root_grads = calloc((size_t)nroots + 1, sizeof(PyObject *));
    if (!root_grads) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nroots; i++)
        root_grads[i] = Py_XNewRef(seeds[i]);
    /* seeds are validated against their roots as node outputs are */
    for (Py_ssize_t i = 0; i < nroots; i++) {
        tn_node *r = TN_NODE(roots[i].fn);
        if (root_grads[i] && roots[i].input_nr < r->num_inputs &&
            validate_grad("backward", (int)i, &r->inputs[roots[i].input_nr], &root_grads[i]) < 0)
            goto done;
    }
    if (nroots == 1) {
        root = (tn_node *)Py_NewRef(roots[0].fn);
    } else {
        root = tn_graph_root_new(nroots, roots, root_grads);
        if (!root)
            goto done;
        root_grads = NULL;  /* the root owns them */
    }
    if (compute_dependencies(&t, root) < 0)
        goto done;
    if (nout > 0) {
        t.use_exec_info = 1;
        if (!o->accumulate_grad && !(t.captured = calloc((size_t)nout + 1, sizeof(PyObject *)))) {
            PyErr_NoMemory();
            goto done;
        }
        if (compute_needed(&t, o->accumulate_grad) < 0)
            goto done;
    }
    task_entry *re = task_find(&t, root);
    if (nroots == 1) {
        PyObject **buf = entry_buffer(re);
        if (!buf || buffer_add(&buf[roots[0].input_nr], root_grads[0]) < 0)
            goto done;
    }
    if (heap_push(&t, re) < 0)
        goto done;
    while (t.nheap > 0) {
        task_entry *e = heap_pop(&t);
        PyObject *prev = current_node;
        current_node = (PyObject *)e->fn;
        int rc = evaluate(&t, e);
        current_node = prev;
        if (rc < 0)
            goto done;
    }
    /* final callbacks, including ones queued by callbacks */
    for (Py_ssize_t k = 0; final_callbacks && k < PyList_Size(final_callbacks); k++) {
        PyObject *r = PyObject_CallNoArgs(PyList_GetItem(final_callbacks, k));
        if (!r)
            goto done;
        Py_DECREF(r);
    }
    if (!o->accumulate_grad) {
        result = PyList_New(nout);
        for (Py_ssize_t k = 0; result && k < nout; k++) {
            PyObject *g = t.captured[k];
            PyList_SetItem(result, k, Py_NewRef(g ? g : Py_None));
        }
    } else {
        result = Py_NewRef(Py_None);
    }
done:
    if (root_grads)
        tn_tensor_array_free(root_grads, nroots);
    task_free(&t);
    Py_XDECREF((PyObject *)root);
    Py_XDECREF(final_callbacks);
    final_callbacks = saved_callbacks;
    current_task = saved_task;
    engine_depth--;
    tn_tls.grad_disabled = saved_grad_disabled;
    return result;
}

/* ---- torch._C._ImperativeEngine ---- */

static int
edge_of(PyObject *obj, tn_edge *e, Py_ssize_t i, const char *what)
{
    if (tn_tensor_check(obj)) {
        TensorObject *t = TN_T(obj);
        if (!tn_tensor_grad_fn(t) && PyErr_Occurred())
            return -1;
        if (t->grad_fn) {
            e->fn = Py_NewRef(t->grad_fn);
            e->input_nr = t->output_nr;
            return 0;
        }
        if (t->requires_grad) {
            e->fn = tn_grad_accumulator(t);
            e->input_nr = 0;
            return e->fn ? 0 : -1;
        }
        e->fn = NULL;
        return 0;
    }
    /* GradientEdge(node, output_nr) */
    PyObject *node = PySequence_GetItem(obj, 0);
    PyObject *nr = node ? PySequence_GetItem(obj, 1) : NULL;
    if (!node || !nr || !tn_node_check(node)) {
        Py_XDECREF(node);
        Py_XDECREF(nr);
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s %zd is not a Tensor or a GradientEdge", what, i);
        return -1;
    }
    e->fn = node;
    e->input_nr = (int)PyLong_AsLong(nr);
    Py_DECREF(nr);
    return 0;
}

static void
free_edges(tn_edge *e, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; e && i < n; i++)
        Py_XDECREF(e[i].fn);
    free(e);
}

static PyObject *
engine_run_backward(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"tensors", "grad_tensors", "keep_graph", "create_graph", "inputs",
                             "allow_unreachable", "accumulate_grad", NULL};
    PyObject *tensors, *grads, *inputs = NULL;
    int keep_graph, create_graph, allow_unreachable = 0, accumulate_grad = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOpp|Opp", kwlist, &tensors, &grads, &keep_graph,
                                     &create_graph, &inputs, &allow_unreachable, &accumulate_grad))
        return NULL;
    if (!PyTuple_Check(tensors) || !PyTuple_Check(grads)) {
        PyErr_SetString(PyExc_TypeError, "run_backward: tensors and grad_tensors must be tuples");
        return NULL;
    }
    Py_ssize_t n = PyTuple_Size(tensors);
    if (PyTuple_Size(grads) != n) {
        PyErr_Format(PyExc_RuntimeError, "got %zd tensors and %zd gradients", n, PyTuple_Size(grads));
        return NULL;
    }
    Py_ssize_t nin = inputs && inputs != Py_None ? PySequence_Size(inputs) : 0;
    if (nin < 0)
        return NULL;
    tn_edge *roots = calloc((size_t)n + 1, sizeof(tn_edge));
    PyObject **seeds = calloc((size_t)n + 1, sizeof(PyObject *));
    tn_edge *outs = calloc((size_t)nin + 1, sizeof(tn_edge));
    PyObject *result = NULL;
    if (!roots || !seeds || !outs) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *obj = PyTuple_GetItem(tensors, i);
        if (edge_of(obj, &roots[i], i, "element") < 0)
            goto done;
        if (!roots[i].fn) {
            PyErr_Format(PyExc_RuntimeError,
                         "element %zd of tensors does not require grad and does not have a grad_fn", i);
            goto done;
        }
        PyObject *g = PyTuple_GetItem(grads, i);
        if (tn_tensor_check(g)) {
            seeds[i] = g;
        } else if (g != Py_None) {
            PyErr_Format(PyExc_RuntimeError, "element %zd of gradients tuple is not a Tensor or None", i);
            goto done;
        } else if (tn_tensor_check(obj) && tn_requires_grad(obj)) {
            PyErr_Format(PyExc_RuntimeError,
                         "element %zd of gradients tuple is None, but the corresponding Tensor requires grad", i);
            goto done;
        }
    }
    for (Py_ssize_t i = 0; i < nin; i++) {
        PyObject *obj = PySequence_GetItem(inputs, i);
        if (!obj)
            goto done;
        if (tn_tensor_check(obj)) {
            TensorObject *t = TN_T(obj);
            if (!tn_requires_grad(obj)) {
                Py_DECREF(obj);
                PyErr_SetString(PyExc_RuntimeError, "One of the differentiated Tensors does not require grad");
                goto done;
            }
            if (!tn_tensor_grad_fn(t) && PyErr_Occurred()) {
                Py_DECREF(obj);
                goto done;
            }
            if (accumulate_grad && t->grad_fn) {
                PyObject *r = PyObject_CallMethod(obj, "retain_grad", NULL);
                if (!r) {
                    Py_DECREF(obj);
                    goto done;
                }
                Py_DECREF(r);
            }
            if (t->grad_fn) {
                outs[i].fn = Py_NewRef(t->grad_fn);
                outs[i].input_nr = t->output_nr;
            } else if (t->grad_acc) {
                outs[i].fn = Py_NewRef(t->grad_acc);
            } else {
                /* no accumulator: unreachable (NOTE [ Autograd Unreachable Input ]) */
                tn_node *id = tn_node_new(&tn_kind_Identity, 0, 1);
                if (!id) {
                    Py_DECREF(obj);
                    goto done;
                }
                outs[i].fn = (PyObject *)id;
            }
        } else if (edge_of(obj, &outs[i], i, "input") < 0) {
            Py_DECREF(obj);
            goto done;
        }
        Py_DECREF(obj);
    }
    /* upstream's engine warns once per process when backward() (not grad()) builds a graph of
     * the gradients it accumulates: each leaf's .grad then refers back to the leaf */
    static int warned_cycle;
    if (create_graph && accumulate_grad && !warned_cycle++ &&
        PyErr_WarnEx(PyExc_UserWarning,
                     "Using backward() with create_graph=True will create a reference cycle between the parameter "
                     "and its gradient which can cause a memory leak. We recommend using autograd.grad when creating "
                     "the graph to avoid this. If you have to use this function, make sure to reset the .grad fields "
                     "of your parameters to None after use to break the cycle and avoid the leak.", 1) < 0)
        goto done;
    tn_backward_opts o = {keep_graph, create_graph, accumulate_grad, allow_unreachable};
    result = tn_engine_execute(n, roots, seeds, nin, outs, &o);
    if (result && !accumulate_grad) {
        /* grad(): every input must have been reached unless allow_unused */
        PyObject *tup = PyList_AsTuple(result);
        TN_SETREF(result, tup);
        for (Py_ssize_t k = 0; result && k < nin; k++) {
            if (PyTuple_GetItem(result, k) == Py_None && !allow_unreachable) {
                PyErr_SetString(PyExc_RuntimeError,
                                "One of the differentiated Tensors appears to not have been used in the graph. "
                                "Set allow_unused=True if this is the desired behavior.");
                Py_CLEAR(result);
            }
        }
    }
done:
    free_edges(roots, n);
    free(seeds);
    free_edges(outs, nin);
    return result;
}

static PyObject *
engine_queue_callback(PyObject *self, PyObject *cb)
{
    if (engine_depth == 0) {
        PyErr_SetString(PyExc_RuntimeError, "Final callbacks can only be installed during backward pass.");
        return NULL;
    }
    if (!final_callbacks && !(final_callbacks = PyList_New(0)))
        return NULL;
    if (PyList_Append(final_callbacks, cb) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
engine_is_checkpoint_valid(PyObject *self, PyObject *unused)
{
    Py_RETURN_TRUE;
}

static PyMethodDef engine_methods[] = {
    {"run_backward", (PyCFunction)(void (*)(void))engine_run_backward, METH_VARARGS | METH_KEYWORDS, NULL},
    {"queue_callback", engine_queue_callback, METH_O, NULL},
    {"is_checkpoint_valid", engine_is_checkpoint_valid, METH_NOARGS, NULL},
    {NULL},
};

static PyObject *
current_autograd_node(PyObject *self, PyObject *unused)
{
    return Py_NewRef(current_node ? current_node : Py_None);
}

static PyObject *
current_graph_task_id(PyObject *self, PyObject *unused)
{
    return PyLong_FromLongLong(current_task ? current_task->id : -1);
}

/* Will the running backward execute this node (a Node or a GradientEdge's node)? Upstream's
 * THPAutograd_will_engine_execute_node: in the graph, and needed when only some outputs are. */
static PyObject *
will_engine_execute_node(PyObject *self, PyObject *arg)
{
    graph_task *t = current_task;
    if (!t) {
        PyErr_SetString(PyExc_RuntimeError, "_will_engine_execute_node should only be called during the backward pass");
        return NULL;
    }
    PyObject *node = tn_node_check(arg) ? Py_NewRef(arg) : PyObject_GetAttrString(arg, "node");
    if (!node)
        return NULL;
    if (!tn_node_check(node)) {
        PyErr_Format(PyExc_TypeError, "_will_engine_execute_node expects an grad_fn or a GradientEdge, got %s",
                     tn_tpname(arg));
        Py_DECREF(node);
        return NULL;
    }
    task_entry *e = task_find(t, TN_NODE(node));
    Py_DECREF(node);
    return PyBool_FromLong(e && (!t->use_exec_info || e->needed || e->has_capture));
}

/* torchnative has no functorch transforms (vmap / grad refuse), so none is ever active */
static PyObject *
functorch_transforms_active(PyObject *self, PyObject *unused)
{
    Py_RETURN_FALSE;
}

static PyMethodDef engine_module_functions[] = {
    {"_current_autograd_node", current_autograd_node, METH_NOARGS, NULL},
    {"_current_graph_task_id", current_graph_task_id, METH_NOARGS, NULL},
    {"_will_engine_execute_node", will_engine_execute_node, METH_O, NULL},
    {"_are_functorch_transforms_active", functorch_transforms_active, METH_NOARGS, NULL},
    {NULL},
};

int
tn_autograd_engine_init(PyObject *module, PyObject *functions)
{
    if (!tn_node_type(&tn_kind_AccumulateGrad) || !tn_node_type(&tn_kind_GraphRoot))
        return -1;
    PyType_Slot slots[] = {
        {Py_tp_methods, engine_methods},
        {0, NULL},
    };
    PyType_Spec spec = {
        .name = "torch._C._ImperativeEngine",
        .basicsize = sizeof(PyObject),
        .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
        .slots = slots,
    };
    PyObject *tp = PyType_FromSpec(&spec);
    if (!tp || PyModule_AddObject(module, "_ImperativeEngine", tp) < 0)
        return -1;
    return PyModule_AddFunctions(module, engine_module_functions);
}
