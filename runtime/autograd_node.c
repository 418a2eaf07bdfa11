/* Graph nodes (grad_fn objects) and saved variables: the node base type and its Python face
 * (name, next_functions, hooks, metadata), the kinds every graph has (AccumulateGrad,
 * GraphRoot, Identity, NotImplemented, Error), and SavedVariable. Generated node kinds
 * (generated/autograd_nodes_*.c) subclass the base with their saved fields.
 *
 * Note [Saved variables]
 * Upstream's SavedVariable keeps an input, or a leaf, as the tensor itself: no cycle can form,
 * and unpacking gives back the same object (with its grad_fn, so create_graph works). An output
 * of the saving node would form a cycle (tensor -> grad_fn -> saved tensor), so it is kept as
 * an alias without history and, on unpack, rewrapped with grad_fn = the saving node. The
 * version counter is shared by views, so the version recorded at save time detects any
 * in-place write made since ("modified by an inplace operation"). When saved-tensor hooks are
 * active (torch.autograd.graph.saved_tensors_hooks) the tensor is packed instead and unpacked
 * by the hook. After a backward without retain_graph the node drops what it saved (released).
 */
#include "autograd_node.h"
#include "dtype.h"
#include "tls.h"

#include <structmember.h>
#include <string.h>

PyTypeObject *tn_Node_Type;
static PyObject *functions_module;   /* torch._C._functions: every node type, by name */

/* Sequence numbers order nodes in the engine's ready queue (Note [Engine order]); upstream
 * keeps one counter per thread. */
static _Thread_local uint64_t next_seq_nr;

int
tn_node_check(PyObject *o)
{
    return PyObject_TypeCheck(o, tn_Node_Type);
}

int
tn_value_requires_grad(const tn_value *v)
{
    if (v->tag == TN_V_TENSOR)
        return tn_requires_grad(v->u.t);
    if (v->tag == TN_V_TENSORLIST)
        for (Py_ssize_t k = 0; k < v->n; k++)
            if (tn_requires_grad(v->u.tensors[k]))
                return 1;
    return 0;
}

int
tn_args_require_grad(const tn_value *args, int n)
{
    for (int i = 0; i < n; i++)
        if ((args[i].tag == TN_V_TENSOR || args[i].tag == TN_V_TENSORLIST) && tn_value_requires_grad(&args[i]))
            return 1;
    return 0;
}

/* ---- input metadata ---- */

void
tn_input_meta_set(tn_input_meta *m, const TensorObject *t)
{
    tn_input_meta_clear(m);
    m->ndim = t->ndim;
    m->dtype = t->dtype;
    m->device = t->device;
    m->defined = 1;
    m->sizes = t->ndim <= TN_ARRAY_LEN(m->small) ? m->small : malloc(sizeof(int64_t) * (size_t)t->ndim);
    if (!m->sizes) {
        m->sizes = m->small;
        m->ndim = 0;
        return;
    }
    memcpy(m->sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
}

void
tn_input_meta_clear(tn_input_meta *m)
{
    if (m->sizes && m->sizes != m->small)
        free(m->sizes);
    m->sizes = m->small;
    m->defined = 0;
    m->ndim = 0;
}

PyObject *
tn_input_meta_zeros(const tn_input_meta *m)
{
    TensorObject *z = tn_tensor_empty(m->ndim, m->sizes, m->dtype, m->device);
    if (z && z->storage->data)
        memset(z->storage->data, 0, (size_t)z->storage->nbytes);
    return (PyObject *)z;
}

/* ---- node allocation and deallocation ---- */

uint64_t
tn_node_next_seq_nr(void)
{
    return next_seq_nr++;
}

int
tn_node_resize(tn_node *n, int num_next, int num_inputs)
{
    if (num_next != n->num_next) {
        for (int j = num_next; j < n->num_next; j++)
            Py_CLEAR(n->next[j].fn);
        tn_edge *e = realloc(n->next, sizeof(tn_edge) * (size_t)(num_next + 1));
        if (!e) {
            PyErr_NoMemory();
            return -1;
        }
        for (int j = n->num_next; j < num_next; j++)
            e[j] = (tn_edge){NULL, 0};
        n->next = e;
        n->num_next = num_next;
    }
    if (num_inputs != n->num_inputs) {
        for (int i = num_inputs; i < n->num_inputs; i++)
            tn_input_meta_clear(&n->inputs[i]);
        tn_input_meta *m = realloc(n->inputs, sizeof(tn_input_meta) * (size_t)(num_inputs + 1));
        if (!m) {
            PyErr_NoMemory();
            return -1;
        }
        /* sizes of the kept entries may point into their own small[]: fix after the move */
        for (int i = 0; i < num_inputs && i < n->num_inputs; i++)
            if (m[i].ndim <= TN_ARRAY_LEN(m[i].small))
                m[i].sizes = m[i].small;
        for (int i = n->num_inputs; i < num_inputs; i++) {
            memset(&m[i], 0, sizeof m[i]);
            m[i].sizes = m[i].small;
        }
        n->inputs = m;
        n->num_inputs = num_inputs;
    }
    return 0;
}

tn_node *
tn_node_new(const tn_node_kind *kind, int num_next, int num_inputs)
{
    PyTypeObject *tp = tn_node_type(kind);
    if (!tp)
        return NULL;
    allocfunc alloc = (allocfunc)PyType_GetSlot(tp, Py_tp_alloc);
    tn_node *n = (tn_node *)alloc(tp, 0);
    if (!n)
        return NULL;
    /* Note [Untracked nodes]: a graph cannot form a reference cycle through nodes alone (saved
     * outputs are kept without their grad_fn, leaves point at their accumulator weakly), so
     * nodes stay out of the cyclic GC until Python objects are attached to them (hooks,
     * metadata, an instance dict), which tn_node_track calls for. Training graphs make
     * thousands of nodes a step; upstream's are C++ objects the GC never sees either. */
    PyObject_GC_UnTrack(n);
    n->kind = kind;
    n->seq_nr = next_seq_nr++;
    if (tn_node_resize(n, num_next, num_inputs) < 0) {
        Py_DECREF(n);
        return NULL;
    }
    return n;
}

/* Deleting a long chain of nodes recursively would exhaust the C stack (a training graph is
 * thousands of nodes deep), so a node whose last reference is dropped by a dying node is
 * queued here and released by the outermost dealloc, as upstream's deleteNode does. */
static _Thread_local PyObject **pending;
static _Thread_local Py_ssize_t npending, cap_pending;
static _Thread_local int dealloc_depth;

static void
release_edge(PyObject *fn)
{
    if (!fn)
        return;
    if (Py_REFCNT(fn) == 1 && dealloc_depth > 0) {
        if (npending == cap_pending) {
            Py_ssize_t cap = cap_pending ? 2 * cap_pending : 64;
            PyObject **p = realloc(pending, sizeof(PyObject *) * (size_t)cap);
            if (!p) {
                Py_DECREF(fn);
                return;
            }
            pending = p;
            cap_pending = cap;
        }
        pending[npending++] = fn;
        return;
    }
    Py_DECREF(fn);
}

static void
node_clear_edges(tn_node *n)
{
    for (int j = 0; j < n->num_next; j++) {
        PyObject *fn = n->next[j].fn;
        n->next[j].fn = NULL;
        release_edge(fn);
    }
}

static int
node_traverse(PyObject *self, visitproc visit, void *arg)
{
    tn_node *n = TN_NODE(self);
    for (int j = 0; j < n->num_next; j++)
        Py_VISIT(n->next[j].fn);
    Py_VISIT(n->pre_hooks);
    Py_VISIT(n->post_hooks);
    Py_VISIT(n->tensor_pre_hooks);
    Py_VISIT(n->retains_grad);
    Py_VISIT(n->metadata);
    Py_VISIT(n->dict);
    if (n->kind && n->kind->traverse) {
        int r = n->kind->traverse(n, visit, arg);
        if (r)
            return r;
    }
    Py_VISIT(Py_TYPE(self));
    return 0;
}

static int
node_clear(PyObject *self)
{
    tn_node *n = TN_NODE(self);
    node_clear_edges(n);
    Py_CLEAR(n->pre_hooks);
    Py_CLEAR(n->post_hooks);
    Py_CLEAR(n->tensor_pre_hooks);
    Py_CLEAR(n->retains_grad);
    Py_CLEAR(n->metadata);
    Py_CLEAR(n->dict);
    if (n->kind && n->kind->release)
        n->kind->release(n);
    if (n->kind && n->kind->finalize)
        n->kind->finalize(n);
    return 0;
}

static void
node_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    tn_node *n = TN_NODE(self);
    PyObject_GC_UnTrack(self);
    if (n->weakrefs)
        PyObject_ClearWeakRefs(self);
    dealloc_depth++;
    node_clear(self);
    dealloc_depth--;
    free(n->next);
    for (int i = 0; i < n->num_inputs; i++)
        tn_input_meta_clear(&n->inputs[i]);
    free(n->inputs);
    freefunc free_fn = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    free_fn(self);
    Py_DECREF(tp);
    if (dealloc_depth == 0) {
        /* the outermost dealloc drains what inner ones queued */
        dealloc_depth++;
        while (npending > 0) {
            PyObject *o = pending[--npending];
            Py_DECREF(o);
        }
        dealloc_depth--;
    }
}

/* ---- Python face ---- */

const char *
tn_node_name(tn_node *n)
{
    if (n->kind && n->kind->name)
        return n->kind->name;
    /* a Python subclass (autograd.Function): its type's name, which the type keeps alive */
    PyObject *name = PyType_GetName(Py_TYPE((PyObject *)n));
    const char *s = name ? PyUnicode_AsUTF8AndSize(name, NULL) : NULL;
    Py_XDECREF(name);
    if (!s) {
        PyErr_Clear();
        return "<node>";
    }
    return s;
}

static PyObject *
node_name(PyObject *self, PyObject *unused)
{
    tn_node *n = TN_NODE(self);
    if (n->kind && n->kind->cpp_name)
        return PyUnicode_FromString(n->kind->cpp_name);
    return PyUnicode_FromString(tn_node_name(n));
}

static PyObject *
node_next_functions(PyObject *self, void *c)
{
    tn_node *n = TN_NODE(self);
    PyObject *t = PyTuple_New(n->num_next);
    for (int j = 0; t && j < n->num_next; j++) {
        PyObject *fn = n->next[j].fn ? n->next[j].fn : Py_None;
        PyObject *pair = Py_BuildValue("(Oi)", fn, n->next[j].input_nr);
        if (!pair) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SetItem(t, j, pair);
    }
    return t;
}

static PyObject *
node_requires_grad(PyObject *self, void *c)
{
    Py_RETURN_TRUE;
}

static PyObject *
node_metadata(PyObject *self, void *c)
{
    tn_node *n = TN_NODE(self);
    tn_node_track(n);
    if (!n->metadata && !(n->metadata = PyDict_New()))
        return NULL;
    return Py_NewRef(n->metadata);
}

static PyObject *
node_sequence_nr(PyObject *self, PyObject *unused)
{
    return PyLong_FromUnsignedLongLong(TN_NODE(self)->seq_nr);
}

static PyObject *
node_set_sequence_nr(PyObject *self, PyObject *arg)
{
    unsigned long long v = PyLong_AsUnsignedLongLong(arg);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    TN_NODE(self)->seq_nr = v;
    Py_RETURN_NONE;
}

/* register_hook / register_prehook: the hook goes in a dict keyed by a RemovableHandle's id,
 * as upstream's registerFunctionHook does; removing the handle removes the entry. */
void
tn_node_track(tn_node *n)
{
    if (!PyObject_GC_IsTracked((PyObject *)n))
        PyObject_GC_Track(n);
}

static PyObject *
register_in_dict(PyObject **dict, PyObject *hook)
{
    /* an OrderedDict, as Function._register_hook makes: RemovableHandle keeps a weakref to it */
    if (!*dict) {
        PyObject *col = PyImport_ImportModule("collections");
        *dict = col ? PyObject_CallMethod(col, "OrderedDict", NULL) : NULL;
        Py_XDECREF(col);
        if (!*dict)
            return NULL;
    }
    PyObject *hooks = PyImport_ImportModule("torch.utils.hooks");
    PyObject *handle = hooks ? PyObject_CallMethod(hooks, "RemovableHandle", "O", *dict) : NULL;
    Py_XDECREF(hooks);
    if (!handle)
        return NULL;
    PyObject *id = PyObject_GetAttrString(handle, "id");
    if (!id || PyDict_SetItem(*dict, id, hook) < 0) {
        Py_XDECREF(id);
        Py_DECREF(handle);
        return NULL;
    }
    Py_DECREF(id);
    return handle;
}

static PyObject *
node_register_hook(PyObject *self, PyObject *hook)
{
    tn_node_track(TN_NODE(self));
    return register_in_dict(&TN_NODE(self)->post_hooks, hook);
}

static PyObject *
node_register_prehook(PyObject *self, PyObject *hook)
{
    tn_node_track(TN_NODE(self));
    return register_in_dict(&TN_NODE(self)->pre_hooks, hook);
}

/* A non-leaf tensor's register_hook: its hook dict is consulted when this node receives the
 * tensor's gradient (upstream's PyFunctionTensorPreHook). */
static PyObject *
node_register_hook_dict(PyObject *self, PyObject *tensor)
{
    tn_node *n = TN_NODE(self);
    if (!tn_tensor_check(tensor)) {
        PyErr_SetString(PyExc_TypeError, "_register_hook_dict expected a Tensor");
        return NULL;
    }
    TensorObject *t = TN_T(tensor);
    if (!t->backward_hooks) {
        PyErr_SetString(PyExc_RuntimeError, "_register_hook_dict: the tensor has no _backward_hooks dict");
        return NULL;
    }
    tn_node_track(n);
    if (!n->tensor_pre_hooks && !(n->tensor_pre_hooks = PyList_New(0)))
        return NULL;
    PyObject *entry = Py_BuildValue("(Oi)", t->backward_hooks, t->output_nr);
    if (!entry || PyList_Append(n->tensor_pre_hooks, entry) < 0) {
        Py_XDECREF(entry);
        return NULL;
    }
    Py_DECREF(entry);
    Py_RETURN_NONE;
}

static PyObject *
node_input_metadata(PyObject *self, void *c)
{
    tn_node *n = TN_NODE(self);
    PyObject *l = PyList_New(n->num_inputs);
    for (int i = 0; l && i < n->num_inputs; i++) {
        tn_input_meta *m = &n->inputs[i];
        PyObject *shape = PyTuple_New(m->ndim);
        for (int d = 0; shape && d < m->ndim; d++)
            PyTuple_SetItem(shape, d, PyLong_FromLongLong(m->sizes[d]));
        PyObject *item = shape ? Py_BuildValue("{s:N,s:O,s:O}", "shape", shape, "dtype",
                                               tn_dtype_objs[m->dtype], "device",
                                               Py_None)
                               : NULL;
        if (!item) {
            Py_CLEAR(l);
            break;
        }
        PyList_SetItem(l, i, item);
    }
    return l;
}

/* grad_fn(*grads): apply the node directly (upstream nodes are callable). */
static PyObject *
node_call(PyObject *self, PyObject *args, PyObject *kwargs)
{
    tn_node *n = TN_NODE(self);
    Py_ssize_t na = PyTuple_Size(args);
    if (na != n->num_inputs) {
        PyErr_Format(PyExc_TypeError, "%s: expected %d gradients, got %zd", tn_node_name(n), n->num_inputs, na);
        return NULL;
    }
    PyObject **grads = calloc((size_t)na + 1, sizeof(PyObject *));
    PyObject **out = calloc((size_t)n->num_next + 1, sizeof(PyObject *));
    PyObject *result = NULL;
    if (!grads || !out) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < na; i++) {
        PyObject *g = PyTuple_GetItem(args, i);
        grads[i] = g == Py_None ? NULL : Py_NewRef(g);
    }
    if (n->kind->apply(n, grads, out) < 0)
        goto done;
    result = PyTuple_New(n->num_next);
    for (int j = 0; result && j < n->num_next; j++) {
        PyTuple_SetItem(result, j, out[j] ? out[j] : Py_NewRef(Py_None));
        out[j] = NULL;
    }
done:
    if (grads)
        tn_tensor_array_free(grads, na);
    if (out)
        tn_tensor_array_free(out, n->num_next);
    return result;
}

static PyObject *
node_repr(PyObject *self)
{
    return PyUnicode_FromFormat("<%s object at %p>", tn_node_name(TN_NODE(self)), self);
}

static PyObject *
node_get_dict(PyObject *self, void *c)
{
    tn_node_track(TN_NODE(self));
    return PyObject_GenericGetDict(self, c);
}

static PyMethodDef node_methods[] = {
    {"name", node_name, METH_NOARGS, NULL},
    {"register_hook", node_register_hook, METH_O, NULL},
    {"register_prehook", node_register_prehook, METH_O, NULL},
    {"_register_hook_dict", node_register_hook_dict, METH_O, NULL},
    {"_sequence_nr", node_sequence_nr, METH_NOARGS, NULL},
    {"_set_sequence_nr", node_set_sequence_nr, METH_O, NULL},
    {NULL},
};

static PyGetSetDef node_getset[] = {
    {"next_functions", node_next_functions, NULL, NULL, NULL},
    {"requires_grad", node_requires_grad, NULL, NULL, NULL},
    {"metadata", node_metadata, NULL, NULL, NULL},
    {"_input_metadata", node_input_metadata, NULL, NULL, NULL},
    {"__dict__", node_get_dict, PyObject_GenericSetDict, NULL, NULL},
    {NULL},
};

static PyMemberDef node_members[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(tn_node, weakrefs), READONLY, NULL},
    {"__dictoffset__", T_PYSSIZET, offsetof(tn_node, dict), READONLY, NULL},
    {NULL},
};

PyTypeObject *
tn_node_type(const tn_node_kind *kind)
{
    if (TN_LIKELY(kind->type != NULL))
        return kind->type;
    /* C++ nodes are callable (grad_fn(*grads) applies them); autograd.Function nodes are not,
     * so the call slot is on each kind, not on the base */
    PyType_Slot slots[] = {
        {Py_tp_traverse, node_traverse},
        {Py_tp_clear, node_clear},
        {Py_tp_dealloc, node_dealloc},
        {Py_tp_call, node_call},
        {Py_tp_getset, kind->getset},
        {0, NULL},
    };
    if (!kind->getset)
        slots[4].slot = 0;
    /* "builtins.X": upstream's node classes report __module__ 'builtins' and repr <class 'X'> */
    char name[160];
    snprintf(name, sizeof name, "builtins.%s", kind->name);
    PyType_Spec spec = {
        .name = name,
        .basicsize = kind->basicsize,
        .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
        .slots = slots,
    };
    PyObject *bases = PyTuple_Pack(1, (PyObject *)tn_Node_Type);
    PyObject *tp = bases ? PyType_FromSpecWithBases(&spec, bases) : NULL;
    Py_XDECREF(bases);
    if (!tp)
        return NULL;
    if (functions_module && PyObject_SetAttrString(functions_module, kind->name, tp) < 0) {
        Py_DECREF(tp);
        return NULL;
    }
    ((tn_node_kind *)kind)->type = (PyTypeObject *)tp;  /* kept for the process lifetime */
    return (PyTypeObject *)tp;
}

/* ---- saved variables (Note [Saved variables]) ---- */

PyObject *
tn_alias_without_history(TensorObject *t)
{
    TensorObject *a = tn_tensor_from_storage(t->storage, t->offset, t->ndim, t->sizes, t->strides, t->dtype);
    if (!a)
        return NULL;
    /* share the version counter: in-place writes to the output must be detected */
    if (--a->version->refcnt == 0)
        free(a->version);
    a->version = t->version;
    a->version->refcnt++;
    a->conj = t->conj;
    a->neg = t->neg;
    return (PyObject *)a;
}

static PyObject *
default_saved_hooks(void)
{
    /* (pack_hook, unpack_hook) of torch.autograd.graph.saved_tensors_hooks, or None */
    static PyObject *getter;
    if (!getter) {
        PyObject *m = PyImport_ImportModule("torch._C._autograd");
        getter = m ? PyObject_GetAttrString(m, "_top_saved_tensors_default_hooks") : NULL;
        Py_XDECREF(m);
        if (!getter)
            return NULL;
    }
    return PyObject_CallFunctionObjArgs(getter, Py_False, NULL);
}

int
tn_saved_save(tn_saved *s, PyObject *t, tn_node *n, int is_output)
{
    tn_saved_release(s);
    if (!t)
        return 0;
    TensorObject *tt = TN_T(t);
    if (tt->inference) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Inference tensors cannot be saved for backward. To work around you can make a "
                        "clone to get a normal tensor and use it in autograd.");
        return -1;
    }
    s->defined = 1;
    s->version = tt->version->value;
    s->is_output = (uint8_t)is_output;
    if (!tn_tensor_grad_fn(tt) && PyErr_Occurred())
        return -1;
    s->is_leaf = tt->grad_fn == NULL;
    s->requires_grad = (uint8_t)tn_requires_grad(t);
    s->output_nr = tt->output_nr;
    s->dtype = tt->dtype;
    PyObject *hooks = default_saved_hooks();
    if (!hooks)
        return -1;
    if (hooks != Py_None && !tt->wrapped_number) {
        PyObject *pack = PyTuple_GetItem(hooks, 0), *unpack = PyTuple_GetItem(hooks, 1);
        PyObject *packed = PyObject_CallFunctionObjArgs(pack, t, NULL);
        if (!packed) {
            Py_DECREF(hooks);
            return -1;
        }
        s->packed = PyTuple_Pack(2, unpack, packed);
        Py_DECREF(packed);
        Py_DECREF(hooks);
        return s->packed ? 0 : -1;
    }
    Py_DECREF(hooks);
    if (!is_output || s->is_leaf) {
        s->data = Py_NewRef(t);
        return 0;
    }
    s->data = tn_alias_without_history(tt);
    return s->data ? 0 : -1;
}

static void
format_version_error(tn_saved *s, TensorObject *t, tn_node *n)
{
    char shape[256];
    char where[160] = "";
    int k = 0;
    for (int d = 0; d < t->ndim && k < (int)sizeof shape - 24; d++)
        k += snprintf(shape + k, sizeof shape - (size_t)k, d ? ", %lld" : "%lld", (long long)t->sizes[d]);
    shape[k] = 0;
    if (s->is_output && n)
        snprintf(where, sizeof where, ", which is output %d of %s,", s->output_nr, tn_node_name(n));
    else if (!s->is_leaf && t->grad_fn)
        snprintf(where, sizeof where, ", which is output %d of %s,", t->output_nr,
                 tn_node_name(TN_NODE(t->grad_fn)));
    PyErr_Format(PyExc_RuntimeError,
                 "one of the variables needed for gradient computation has been modified by an inplace "
                 "operation: [torch.%sTensor [%s]]%s is at version %lld; expected version %lld instead. "
                 "Hint: enable anomaly detection to find the operation that failed to compute its "
                 "gradient, with torch.autograd.set_detect_anomaly(True).",
                 tn_dtype_legacy_name(t->dtype), shape, where, (long long)t->version->value,
                 (long long)s->version);
}

const char tn_err_backward_twice[] =
    "Trying to backward through the graph a second time (or directly access saved tensors after they "
    "have already been freed). Saved intermediate values of the graph are freed when you call .backward() "
    "or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time "
    "or if you need to access saved tensors after calling backward.";

PyObject *
tn_saved_unpack(tn_saved *s, tn_node *n)
{
    if (!s->defined)
        return NULL;  /* undefined, no exception */
    if ((n && n->released) || (!s->data && !s->packed)) {
        PyErr_SetString(PyExc_RuntimeError, tn_err_backward_twice);
        return NULL;
    }
    if (s->packed) {
        PyObject *r = PyObject_CallFunctionObjArgs(PyTuple_GetItem(s->packed, 0),
                                                   PyTuple_GetItem(s->packed, 1), NULL);
        if (r && !tn_tensor_check(r)) {
            PyErr_Format(PyExc_TypeError,
                         "Output of saved tensor unpack_hook expected to be a Tensor but got result of type %s",
                         tn_tpname(r));
            Py_CLEAR(r);
        }
        return r;
    }
    TensorObject *t = TN_T(s->data);
    if (t->version->value != s->version) {
        format_version_error(s, t, n);
        return NULL;
    }
    if (!s->is_output || s->is_leaf)
        return Py_NewRef(s->data);
    /* an output: give back an alias carrying this node as its history */
    PyObject *a = tn_alias_without_history(t);
    if (!a)
        return NULL;
    if (s->requires_grad && n) {
        TN_T(a)->grad_fn = Py_NewRef((PyObject *)n);
        TN_T(a)->output_nr = s->output_nr;
    }
    return a;
}

void
tn_saved_release(tn_saved *s)
{
    Py_CLEAR(s->data);
    Py_CLEAR(s->packed);
}

int
tn_saved_traverse(tn_saved *s, visitproc visit, void *arg)
{
    Py_VISIT(s->data);
    Py_VISIT(s->packed);
    return 0;
}

PyObject *
tn_saved_to_py(tn_saved *s, tn_node *n)
{
    PyObject *r = tn_saved_unpack(s, n);
    if (!r && !PyErr_Occurred())
        Py_RETURN_NONE;
    return r;
}

int
tn_saved_list_save(tn_saved_list *l, const tn_value *v, tn_node *n)
{
    tn_saved_list_release(l);
    l->items = calloc((size_t)v->n + 1, sizeof(tn_saved));
    if (!l->items) {
        PyErr_NoMemory();
        return -1;
    }
    l->n = v->n;
    for (Py_ssize_t i = 0; i < v->n; i++)
        if (tn_saved_save(&l->items[i], v->u.tensors[i], n, 0) < 0)
            return -1;
    return 0;
}

PyObject **
tn_saved_list_unpack(tn_saved_list *l, tn_node *n)
{
    PyObject **a = calloc((size_t)l->n + 1, sizeof(PyObject *));
    if (!a) {
        PyErr_NoMemory();
        return NULL;
    }
    if (n->released && l->n > 0) {
        free(a);
        PyErr_SetString(PyExc_RuntimeError, tn_err_backward_twice);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < l->n; i++) {
        a[i] = tn_saved_unpack(&l->items[i], n);
        if (!a[i] && PyErr_Occurred()) {
            tn_tensor_array_free(a, i);
            return NULL;
        }
    }
    return a;
}

void
tn_saved_list_release(tn_saved_list *l)
{
    for (Py_ssize_t i = 0; i < l->n; i++)
        tn_saved_release(&l->items[i]);
    free(l->items);
    l->items = NULL;
    l->n = 0;
}

void
tn_tensor_array_free(PyObject **a, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++)
        Py_XDECREF(a[i]);
    free(a);
}

/* ---- GraphRoot, Identity and error nodes ---- */

static int
identity_apply(tn_node *self, PyObject **grads, PyObject **out)
{
    for (int j = 0; j < self->num_next && j < self->num_inputs; j++)
        out[j] = Py_XNewRef(grads[j]);
    return 0;
}

tn_node_kind tn_kind_Identity = {
    .name = "Identity",
    .cpp_name = "torch::autograd::Identity",
    .basicsize = sizeof(tn_node),
    .apply = identity_apply,
};

typedef struct {
    tn_node base;
    PyObject *msg;   /* str */
    int refusal;     /* NotImplementedError, not RuntimeError (Note [Refusing a formula upstream has]) */
} ErrorNode;

static int
error_apply(tn_node *self, PyObject **grads, PyObject **out)
{
    PyErr_SetObject(((ErrorNode *)self)->refusal ? PyExc_NotImplementedError : PyExc_RuntimeError,
                    ((ErrorNode *)self)->msg);
    return -1;
}

static void
error_finalize(tn_node *n)
{
    Py_CLEAR(((ErrorNode *)n)->msg);
}

tn_node_kind tn_kind_NotImplemented = {
    .name = "NotImplemented",
    .cpp_name = "torch::autograd::NotImplemented",
    .basicsize = sizeof(ErrorNode),
    .apply = error_apply,
    .finalize = error_finalize,
};

/* Note [Refusing a formula upstream has]
 * An overload upstream differentiates by a derivatives.yaml formula, when torchnative does not run
 * that formula (computed by a decomposition at the door and not yet `decomposed` in
 * schemas/autograd_compositions.yaml, or a formula codegen cannot translate), records a
 * NotImplemented node made by tn_refusal_node_new: backward through it raises
 * NotImplementedError naming the overload's derivative, a refusal by name, never upstream's
 * RuntimeError for ops it has no formula for (which would read as a bug). */
tn_node *
tn_refusal_node_new(const char *msg, int num_next)
{
    tn_node *n = tn_error_node_new(&tn_kind_NotImplemented, msg, num_next);
    if (n)
        ((ErrorNode *)n)->refusal = 1;
    return n;
}

tn_node_kind tn_kind_Error = {
    .name = "Error",
    .cpp_name = "torch::autograd::Error",
    .basicsize = sizeof(ErrorNode),
    .apply = error_apply,
    .finalize = error_finalize,
};

tn_node *
tn_error_node_new(const tn_node_kind *kind, const char *msg, int num_next)
{
    tn_node *n = tn_node_new(kind, num_next, 1);
    if (!n)
        return NULL;
    if (!(((ErrorNode *)n)->msg = PyUnicode_FromString(msg))) {
        Py_DECREF(n);
        return NULL;
    }
    return n;
}

/* ---- the base type ---- */

static PyObject *
node_new_refuse(PyTypeObject *tp, PyObject *args, PyObject *kwargs)
{
    PyErr_Format(PyExc_TypeError, "cannot create '%s' instances", tn_tpname((PyObject *)tp));
    return NULL;
}

/* ---- torch._C._autograd.SavedTensor (a SavedVariable saved for no node) ---- */

/* torch.utils.checkpoint (non-reentrant) keeps the inputs of a checkpointed region as
 * _make_saved_tensor(t, is_output=False) and unpacks them when it recomputes: the version
 * check and the saved-tensor hooks apply as to any saved variable. */
typedef struct {
    PyObject_HEAD
    tn_saved s;
} SavedTensorObject;

/* torch._C._autograd._unsafe_set_version_counter(tensors, versions): sets each tensor's version
 * counter (shared with its views) to the given value. The door uses it where a decomposition
 * writes an argument that upstream's kernel writes below the version counter (batch norm's running
 * statistics: Note [Running statistics keep their version] in runtime/py/tn_decompose.py). */
static PyObject *
unsafe_set_version_counter(PyObject *self, PyObject *args)
{
    PyObject *ts, *vs;
    if (!PyArg_ParseTuple(args, "OO:_unsafe_set_version_counter", &ts, &vs))
        return NULL;
    Py_ssize_t n = PySequence_Size(ts), m = n < 0 ? -1 : PySequence_Size(vs);
    if (m < 0)
        return NULL;
    if (n != m)
        return PyErr_Format(PyExc_RuntimeError, "tensors_len=%zd, versions_len=%zd", n, m);
    for (int set = 0; set < 2; set++) {  /* check every pair, then set: all or nothing */
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *t = PySequence_GetItem(ts, i);
            PyObject *x = t ? PySequence_GetItem(vs, i) : NULL;
            long long v = x ? PyLong_AsLongLong(x) : -1;
            int ok = x && !(v == -1 && PyErr_Occurred());
            if (ok && !tn_tensor_check(t)) {
                PyErr_SetString(PyExc_TypeError, "_unsafe_set_version_counter: arg0 must be a sequence of tensors");
                ok = 0;
            }
            if (ok && set)
                TN_T(t)->version->value = v;
            Py_XDECREF(t);
            Py_XDECREF(x);
            if (!ok)
                return NULL;
        }
    }
    Py_RETURN_NONE;
}

static PyTypeObject *SavedTensor_Type;

static PyObject *
make_saved_tensor(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"obj", "is_output", NULL};
    PyObject *t;
    int is_output;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "Op", kw, &t, &is_output))
        return NULL;
    if (!tn_tensor_check(t)) {
        PyErr_Format(PyExc_TypeError, "_make_saved_tensor(): expected a Tensor, got %s", tn_tpname(t));
        return NULL;
    }
    allocfunc alloc = (allocfunc)PyType_GetSlot(SavedTensor_Type, Py_tp_alloc);
    SavedTensorObject *o = (SavedTensorObject *)alloc(SavedTensor_Type, 0);
    if (!o)
        return NULL;
    if (tn_saved_save(&o->s, t, NULL, is_output) < 0) {
        Py_DECREF(o);
        return NULL;
    }
    return (PyObject *)o;
}

static PyObject *
saved_tensor_unpack(PyObject *self, PyObject *unused)
{
    PyObject *r = tn_saved_unpack(&((SavedTensorObject *)self)->s, NULL);
    if (!r && !PyErr_Occurred())
        Py_RETURN_NONE;
    return r;
}

static PyObject *
saved_tensor_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyErr_SetString(PyExc_RuntimeError, "Trying to create a SavedTensor object from Python is forbidden.");
    return NULL;
}

static int
saved_tensor_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    return tn_saved_traverse(&((SavedTensorObject *)self)->s, visit, arg);
}

static int
saved_tensor_clear(PyObject *self)
{
    tn_saved_release(&((SavedTensorObject *)self)->s);
    return 0;
}

static void
saved_tensor_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    saved_tensor_clear(self);
    freefunc f = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    f(self);
    Py_DECREF(tp);
}

int
tn_saved_tensor_init(PyObject *module)
{
    static PyMethodDef methods[] = {
        {"unpack", saved_tensor_unpack, METH_NOARGS, NULL},
        {NULL},
    };
    PyType_Slot slots[] = {
        {Py_tp_new, saved_tensor_new},
        {Py_tp_methods, methods},
        {Py_tp_traverse, saved_tensor_traverse},
        {Py_tp_clear, saved_tensor_clear},
        {Py_tp_dealloc, saved_tensor_dealloc},
        {0, NULL},
    };
    PyType_Spec spec = {
        .name = "torch._C._autograd.SavedTensor",
        .basicsize = sizeof(SavedTensorObject),
        .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
        .slots = slots,
    };
    static PyMethodDef fn = {"_make_saved_tensor", (PyCFunction)(void (*)(void))make_saved_tensor,
                             METH_VARARGS | METH_KEYWORDS, NULL};
    static PyMethodDef set_version = {"_unsafe_set_version_counter", unsafe_set_version_counter, METH_VARARGS,
                                      "_unsafe_set_version_counter(arg0, arg1) -> None"};
    /* torch._C._autograd: runtime/py/autograd.py adds the rest of it to this module */
    PyObject *ag = PyObject_GetAttrString(module, "_autograd");
    if (!ag) {
        PyErr_Clear();
        if (!(ag = PyModule_New("torch._C._autograd")) || PyModule_AddObjectRef(module, "_autograd", ag) < 0) {
            Py_XDECREF(ag);
            return -1;
        }
    }
    SavedTensor_Type = (PyTypeObject *)PyType_FromSpec(&spec);
    PyObject *f = SavedTensor_Type ? PyCFunction_NewEx(&fn, NULL, NULL) : NULL;
    PyObject *sv = f ? PyCFunction_NewEx(&set_version, NULL, NULL) : NULL;
    int rc = sv && PyModule_AddObjectRef(ag, "SavedTensor", (PyObject *)SavedTensor_Type) == 0 &&
                     PyModule_AddObjectRef(ag, "_make_saved_tensor", f) == 0 &&
                     PyModule_AddObjectRef(ag, "_unsafe_set_version_counter", sv) == 0
                 ? 0
                 : -1;
    Py_XDECREF(f);
    Py_XDECREF(sv);
    Py_DECREF(ag);
    return rc;
}

int
tn_autograd_node_init(PyObject *functions)
{
    PyType_Slot slots[] = {
        {Py_tp_dealloc, node_dealloc},
        {Py_tp_traverse, node_traverse},
        {Py_tp_clear, node_clear},
        {Py_tp_methods, node_methods},
        {Py_tp_getset, node_getset},
        {Py_tp_members, node_members},
        {Py_tp_repr, node_repr},
        {Py_tp_new, node_new_refuse},
        {0, NULL},
    };
    PyType_Spec spec = {
        .name = "torch._C._functions._Node",
        .basicsize = sizeof(tn_node),
        .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
        .slots = slots,
    };
    tn_Node_Type = (PyTypeObject *)PyType_FromSpec(&spec);
    if (!tn_Node_Type)
        return -1;
    functions_module = Py_NewRef(functions);
    /* the kinds every graph can have are made now, so torch._C._functions lists them */
    const tn_node_kind *always[] = {&tn_kind_Identity, &tn_kind_NotImplemented, &tn_kind_Error};
    for (int i = 0; i < TN_ARRAY_LEN(always); i++)
        if (!tn_node_type(always[i]))
            return -1;
    return 0;
}
