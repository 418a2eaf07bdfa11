/* torch.autograd.Function's C side: torch._C._FunctionBase and the node it is.
 *
 * Note [Custom Function nodes]
 * Upstream's THPFunction (the `ctx` a custom Function's forward sees) owns a PyNode, and the
 * outputs' grad_fn is that ctx. Here the ctx *is* the node: _FunctionBase is a subtype of the
 * node base type (runtime/autograd_node.c) whose kind applies by calling the Python object's
 * `apply` (BackwardCFunction.apply, i.e. the user's backward). Its Python subclasses
 * (FunctionMeta makes `<Name>Backward` for every Function) keep their attributes in the node's
 * instance dict, so what FunctionCtx's methods write (to_save, dirty_tensors,
 * non_differentiable, materialize_grads) is read from there once forward returns.
 *
 * _FunctionBase.apply (a class method in the type's own dict, as upstream's THPFunction_apply):
 *   1. ctx = cls._backward_cls(); needs_input_grad from the inputs; the node is executable when
 *      grad mode records and an input requires grad, and then gets one edge per tensor input;
 *   2. forward (or forward + setup_context) runs with grad mode off;
 *   3. outputs are wrapped as upstream's _process_backward_mode_ad does: dirty inputs get their
 *      version bumped and their history rebased onto the node (CopySlices for views, Note
 *      [View + in-place] in autograd.c), inputs returned as they are become view_as aliases,
 *      non-differentiable outputs get no history, other outputs get the node as grad_fn; views
 *      among the outputs may not be modified in place later (CreationMeta IN_CUSTOM_FUNCTION,
 *      MULTI_OUTPUT_NODE);
 *   4. ctx.to_save becomes saved variables (an output of the node saved without a cycle).
 * Backward (kind apply): undefined gradients become zeros of the output unless
 * set_materialize_grads(False); the user's backward may return extra trailing Nones; the
 * count and the None-for-non-tensor-inputs rules are upstream's.
 */
#include "autograd_function.h"
#include "autograd.h"
#include "tls.h"

#include <string.h>

typedef struct {
    tn_node node;
    tn_saved *saved;            /* saved_variables */
    Py_ssize_t nsaved;
    uint8_t *is_variable_input; /* per forward argument */
    Py_ssize_t nargs;
    tn_input_meta *output_info; /* per forward output; undefined for non-tensor outputs */
    Py_ssize_t noutputs;
    PyObject *needs_input_grad; /* tuple of bools, or NULL before apply */
} PyNode;

#define PY_NODE(o) ((PyNode *)(o))

PyTypeObject *tn_FunctionBase_Type;
static PyObject *function_setup_context;   /* torch.autograd.function.Function.setup_context */

/* ---- the node kind ---- */

static int
ctx_flag(PyObject *self, const char *name, int dflt)
{
    PyObject *d = TN_NODE(self)->dict;
    PyObject *v = d ? PyDict_GetItemString(d, name) : NULL;
    if (!v)
        return dflt;
    return PyObject_IsTrue(v);
}

static int
pynode_apply(tn_node *n, PyObject **grads, PyObject **out)
{
    PyNode *p = (PyNode *)n;
    PyObject *self = (PyObject *)n;
    const char *name = tn_node_name(n);
    int materialize = ctx_flag(self, "materialize_grads", 1);
    int materialize_non_diff = ctx_flag(self, "_materialize_non_diff_grads", 1);
    if (materialize < 0 || materialize_non_diff < 0)
        return -1;
    PyObject *args = PyTuple_New(n->num_inputs);
    if (!args)
        return -1;
    for (int i = 0; i < n->num_inputs; i++) {
        PyObject *g;
        const tn_input_meta *info = i < p->noutputs ? &p->output_info[i] : NULL;
        if (grads[i])
            g = Py_NewRef(grads[i]);
        else if (!materialize || !info || !info->defined || (!n->inputs[i].defined && !materialize_non_diff))
            g = Py_NewRef(Py_None);
        else if (!(g = tn_input_meta_zeros(info))) {
            Py_DECREF(args);
            return -1;
        }
        PyTuple_SetItem(args, i, g);
    }
    PyObject *fn = PyObject_GetAttrString(self, "apply");
    PyObject *r = fn ? PyObject_CallObject(fn, args) : NULL;
    Py_XDECREF(fn);
    Py_DECREF(args);
    if (!r)
        return -1;
    if (!PyTuple_Check(r)) {
        PyObject *t = PyTuple_Pack(1, r);
        Py_DECREF(r);
        if (!(r = t))
            return -1;
    }
    Py_ssize_t nr = PyTuple_Size(r), nin = p->nargs;
    if (nr > nin) {
        int all_none = 1;
        for (Py_ssize_t i = nin; i < nr; i++)
            all_none &= PyTuple_GetItem(r, i) == Py_None;
        if (all_none)
            nr = nin;
    }
    int rc = 0;
    if (nr != nin) {
        PyErr_Format(PyExc_RuntimeError, "function %s returned an incorrect number of gradients (expected %zd, got %zd)",
                     name, nin, nr);
        rc = -1;
    }
    for (Py_ssize_t i = 0, j = 0; rc == 0 && i < nin; i++) {
        PyObject *o = PyTuple_GetItem(r, i);
        if (!p->is_variable_input[i]) {
            if (o != Py_None) {
                PyErr_Format(PyExc_RuntimeError,
                             "function %s returned a gradient different than None at position %zd, but the "
                             "corresponding forward input was not a Variable",
                             name, i + 1);
                rc = -1;
            }
            continue;
        }
        if (o != Py_None && !tn_tensor_check(o)) {
            PyErr_Format(PyExc_RuntimeError, "expected Variable or None (got %s)", tn_tpname(o));
            rc = -1;
        } else if (j < n->num_next) {
            out[j] = o == Py_None ? NULL : Py_NewRef(o);
        }
        j++;
    }
    Py_DECREF(r);
    return rc;
}

static void
pynode_release(tn_node *n)
{
    PyNode *p = (PyNode *)n;
    for (Py_ssize_t i = 0; i < p->nsaved; i++)
        tn_saved_release(&p->saved[i]);
    free(p->saved);
    p->saved = NULL;
    p->nsaved = 0;
    n->released = 1;
}

static void
pynode_finalize(tn_node *n)
{
    PyNode *p = (PyNode *)n;
    Py_CLEAR(p->needs_input_grad);
    free(p->is_variable_input);
    p->is_variable_input = NULL;
    p->nargs = 0;
    for (Py_ssize_t i = 0; i < p->noutputs; i++)
        tn_input_meta_clear(&p->output_info[i]);
    free(p->output_info);
    p->output_info = NULL;
    p->noutputs = 0;
}

static int
pynode_traverse(tn_node *n, visitproc visit, void *arg)
{
    PyNode *p = (PyNode *)n;
    Py_VISIT(p->needs_input_grad);
    for (Py_ssize_t i = 0; i < p->nsaved; i++) {
        int r = tn_saved_traverse(&p->saved[i], visit, arg);
        if (r)
            return r;
    }
    return 0;
}

/* name NULL: messages and name() use the Python type's name ("MyFnBackward") */
static tn_node_kind kind_PyNode = {
    .name = NULL,
    .basicsize = sizeof(PyNode),
    .apply = pynode_apply,
    .release = pynode_release,
    .finalize = pynode_finalize,
    .traverse = pynode_traverse,
};

/* ---- _FunctionBase ---- */

static PyObject *
function_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    PyObject *o = alloc(type, 0);
    if (!o)
        return NULL;
    tn_node *n = TN_NODE(o);
    n->kind = &kind_PyNode;
    n->seq_nr = tn_node_next_seq_nr();
    return o;
}

static PyObject *
saved_tensors_get(PyObject *self, void *c)
{
    PyNode *p = PY_NODE(self);
    if (p->node.released) {
        PyErr_SetString(PyExc_RuntimeError, tn_err_backward_twice);
        return NULL;
    }
    PyObject *t = PyTuple_New(p->nsaved);
    for (Py_ssize_t i = 0; t && i < p->nsaved; i++) {
        PyObject *v = tn_saved_unpack(&p->saved[i], &p->node);
        if (!v && PyErr_Occurred()) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SetItem(t, i, v ? v : Py_NewRef(Py_None));
    }
    return t;
}

static PyObject *
needs_input_grad_get(PyObject *self, void *c)
{
    PyObject *v = PY_NODE(self)->needs_input_grad;
    return Py_NewRef(v ? v : Py_None);
}

static PyObject *
dict_attr_get(PyObject *self, void *name)
{
    PyObject *d = TN_NODE(self)->dict;
    PyObject *v = d ? PyDict_GetItemString(d, (const char *)name) : NULL;
    return Py_NewRef(v ? v : Py_None);
}

static int
dict_attr_set(PyObject *self, PyObject *value, void *name)
{
    tn_node *n = TN_NODE(self);
    if (!n->dict && !(n->dict = PyDict_New()))
        return -1;
    if (!value) {
        if (PyDict_GetItemString(n->dict, (const char *)name))
            return PyDict_DelItemString(n->dict, (const char *)name);
        return 0;
    }
    return PyDict_SetItemString(n->dict, (const char *)name, value);
}

/* Take ctx.<name> out of the instance dict (new reference or NULL; never an error). */
static PyObject *
ctx_take(PyObject *ctx, const char *name)
{
    PyObject *d = TN_NODE(ctx)->dict;
    PyObject *v = d ? PyDict_GetItemString(d, name) : NULL;
    if (!v)
        return NULL;
    Py_INCREF(v);
    PyDict_DelItemString(d, name);
    return v;
}

static int
tuple_contains_obj(PyObject *tuple, PyObject *o)
{
    if (!tuple)
        return 0;
    for (Py_ssize_t i = 0; i < PyTuple_Size(tuple); i++)
        if (PyTuple_GetItem(tuple, i) == o)
            return 1;
    return 0;
}

/* x.view_as(x) with grad mode off (an input returned as it is gets its own autograd meta) */
static PyObject *
view_as_self(PyObject *x)
{
    int gd = tn_tls.grad_disabled;
    tn_tls.grad_disabled = 1;
    PyObject *v = PyObject_CallMethod(x, "view_as", "O", x);
    tn_tls.grad_disabled = gd;
    return v;
}

/* upstream's _process_backward_mode_ad for one output; *var is replaced when upstream returns
 * another tensor (an alias of an input). */
static int
wrap_output(PyNode *p, int executable, PyObject **var, int i, int is_input, int is_modified, int is_diff,
            int noutputs)
{
    TensorObject *t = TN_T(*var);
    tn_node *n = &p->node;
    if (!is_diff) {
        if (!tn_requires_grad(*var)) {
            if (is_input && !is_modified) {
                PyObject *v = view_as_self(*var);
                if (!v)
                    return -1;
                TN_SETREF(*var, v);
            }
            return 0;
        }
        /* detached aliases of inputs; other outputs detached in place unless views of inputs */
        if (!is_input && t->is_view)
            return 0;
        PyObject *r = PyObject_CallMethod(*var, is_input ? "detach" : "detach_", NULL);
        if (!r)
            return -1;
        if (is_input)
            TN_SETREF(*var, r);
        else
            Py_DECREF(r);
        return 0;
    }
    if (is_modified) {
        if (!t->grad_fn && t->requires_grad) {
            PyErr_SetString(PyExc_RuntimeError,
                            "a leaf Variable that requires grad has been used in an in-place operation.");
            return -1;
        }
        if (!is_input && PyErr_WarnEx(PyExc_UserWarning,
                                      "Only input Tensors should be given to ctx.mark_dirty(). If a Tensor is not an "
                                      "input, there is no need to pass it to mark_dirty().", 1) < 0)
            return -1;
        if (t->is_view && t->base && noutputs > 1) {
            PyErr_SetString(PyExc_RuntimeError,
                            "If your Function modifies inplace an input that is a view of another Tensor, your "
                            "Function cannot return more than one Tensor. This is not supported by the current "
                            "autograd engine. You should either make sure the input is not a view (using .clone() "
                            "for example) or make your Function only return one Tensor (potentially splitting it "
                            "into two Functions: one doing the inplace that returns a single Tensor and a second "
                            "one that does the other operations). You can ask on the forum "
                            "https://discuss.pytorch.org/ if you need help to do this change.");
            return -1;
        }
        Py_CLEAR(t->grad);
        return executable ? tn_autograd_rebase_history_at(*var, n, i) : 0;
    }
    if (is_input) {
        PyObject *v = view_as_self(*var);
        if (!v)
            return -1;
        TN_SETREF(*var, v);
    }
    return executable ? tn_autograd_set_history_any(*var, n, i) : 0;
}

static int
save_variables(PyNode *p, PyObject *to_save)
{
    Py_ssize_t k = PyTuple_Size(to_save);
    p->saved = calloc((size_t)k + 1, sizeof(tn_saved));
    if (!p->saved) {
        PyErr_NoMemory();
        return -1;
    }
    p->nsaved = k;
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *o = PyTuple_GetItem(to_save, i);
        if (o == Py_None)
            continue;
        if (!tn_tensor_check(o)) {
            PyErr_Format(PyExc_TypeError, "save_for_backward can only save variables, but argument %zd is of type %s",
                         i, tn_tpname(o));
            return -1;
        }
        if (tn_saved_save(&p->saved[i], o, &p->node, TN_T(o)->grad_fn == (PyObject *)p) < 0)
            return -1;
    }
    return 0;
}

static int
check_tuple_attr(PyObject *v, const char *what)
{
    if (v && !PyTuple_Check(v)) {
        PyErr_Format(PyExc_RuntimeError, "autograd internal error: %s attribute is expected to be a tuple but is %s",
                     what, tn_tpname(v));
        return -1;
    }
    return 0;
}

/* Wraps the forward's outputs (a tuple; each item replaced in place) and saves ctx.to_save. */
static int
process_outputs(PyNode *p, PyObject *inputs, PyObject *outputs, int executable)
{
    PyObject *ctx = (PyObject *)p;
    Py_ssize_t nout = PyTuple_Size(outputs);
    PyObject *to_save = ctx_take(ctx, "to_save");
    PyObject *non_diff = ctx_take(ctx, "non_differentiable");
    PyObject *dirty = ctx_take(ctx, "dirty_tensors");
    int rc = -1;
    if (check_tuple_attr(to_save, "to_save") < 0 || check_tuple_attr(non_diff, "non_differentiable") < 0 ||
        check_tuple_attr(dirty, "dirty_tensors") < 0)
        goto done;
    for (Py_ssize_t i = 0; non_diff && i < PyTuple_Size(non_diff); i++)
        if (!tn_tensor_check(PyTuple_GetItem(non_diff, i))) {
            PyErr_Format(PyExc_RuntimeError, "mark_non_differentiable only accepts variable arguments, but got %s",
                         tn_tpname(PyTuple_GetItem(non_diff, i)));
            goto done;
        }
    for (Py_ssize_t i = 0; dirty && i < PyTuple_Size(dirty); i++) {
        PyObject *o = PyTuple_GetItem(dirty, i);
        if (!tn_tensor_check(o)) {
            PyErr_Format(PyExc_RuntimeError, "mark_dirty can only accept variables, but argument %zd is of type %s", i,
                         tn_tpname(o));
            goto done;
        }
        tn_tensor_bump_version(TN_T(o));
    }
    if (executable) {
        free(p->output_info);
        p->output_info = calloc((size_t)nout + 1, sizeof(tn_input_meta));
        if (!p->output_info) {
            PyErr_NoMemory();
            goto done;
        }
        p->noutputs = nout;
        for (Py_ssize_t i = 0; i < nout; i++)
            p->output_info[i].sizes = p->output_info[i].small;
        if (tn_node_resize(&p->node, p->node.num_next, (int)nout) < 0)
            goto done;
    }
    int ndiff = 0;
    for (Py_ssize_t i = 0; i < nout; i++) {
        PyObject *o = PyTuple_GetItem(outputs, i);
        if (!tn_tensor_check(o))
            continue;
        int is_input = tuple_contains_obj(inputs, o);
        int is_modified = tuple_contains_obj(dirty, o);
        int is_diff = executable && !tuple_contains_obj(non_diff, o) && tn_dtype_is_differentiable(TN_T(o)->dtype);
        if (executable) {
            tn_input_meta_set(&p->output_info[i], TN_T(o));
            if (is_diff)
                tn_input_meta_set(&p->node.inputs[i], TN_T(o));
        }
        PyObject *var = Py_NewRef(o);
        if (wrap_output(p, executable, &var, (int)i, is_input, is_modified, is_diff, nout) < 0) {
            Py_DECREF(var);
            goto done;
        }
        if (!(is_input && is_modified) && TN_T(var)->is_view)
            TN_T(var)->view_meta = TN_VIEW_CUSTOM_FUNCTION;
        ndiff += is_diff;
        PyTuple_SetItem(outputs, i, var);   /* steals; drops the raw output */
    }
    if (ndiff > 1)
        for (Py_ssize_t i = 0; i < nout; i++) {
            PyObject *o = PyTuple_GetItem(outputs, i);
            if (tn_tensor_check(o) && TN_T(o)->is_view && TN_T(o)->base && tn_requires_grad(TN_T(o)->base))
                TN_T(o)->view_meta = TN_VIEW_MULTI_OUTPUT;
        }
    for (Py_ssize_t i = 0; dirty && i < PyTuple_Size(dirty); i++)
        if (!tuple_contains_obj(outputs, PyTuple_GetItem(dirty, i))) {
            PyErr_SetString(PyExc_RuntimeError,
                            "Some elements marked as dirty during the forward method were not returned as output. "
                            "The inputs that are modified inplace must all be outputs of the Function.");
            goto done;
        }
    if (executable && to_save && save_variables(p, to_save) < 0)
        goto done;
    rc = 0;
done:
    Py_XDECREF(to_save);
    Py_XDECREF(non_diff);
    Py_XDECREF(dirty);
    return rc;
}

static int
is_setup_context_overridden(PyObject *cls)
{
    if (!function_setup_context) {
        PyObject *m = PyImport_ImportModule("torch.autograd.function");
        PyObject *f = m ? PyObject_GetAttrString(m, "Function") : NULL;
        function_setup_context = f ? PyObject_GetAttrString(f, "setup_context") : NULL;
        Py_XDECREF(f);
        Py_XDECREF(m);
        if (!function_setup_context)
            return -1;
    }
    PyObject *s = PyObject_GetAttrString(cls, "setup_context");
    if (!s)
        return -1;
    int r = s != function_setup_context;
    Py_DECREF(s);
    return r;
}

/* _FunctionBase.apply(cls, *args): see the Note */
static PyObject *
function_apply(PyObject *cls, PyObject *args, PyObject *kwargs)
{
    if (kwargs && PyDict_Size(kwargs) > 0) {
        PyErr_SetString(PyExc_TypeError, "_FunctionBase.apply() takes no keyword arguments");
        return NULL;
    }
    PyObject *bcls = PyObject_GetAttrString(cls, "_backward_cls");
    PyObject *ctx = bcls ? PyObject_CallNoArgs(bcls) : NULL;
    Py_XDECREF(bcls);
    if (!ctx)
        return NULL;
    if (!PyObject_TypeCheck(ctx, tn_FunctionBase_Type)) {
        PyErr_SetString(PyExc_TypeError, "_FunctionBase.apply: _backward_cls() did not make a _FunctionBase");
        Py_DECREF(ctx);
        return NULL;
    }
    PyNode *p = PY_NODE(ctx);
    PyObject *result = NULL, *raw = NULL, *outputs = NULL;
    Py_ssize_t nargs = PyTuple_Size(args);
    int ntensors = 0, any_rg = 0;
    p->nargs = nargs;
    p->is_variable_input = calloc((size_t)nargs + 1, 1);
    p->needs_input_grad = PyTuple_New(nargs);
    if (!p->is_variable_input || !p->needs_input_grad) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyObject *a = PyTuple_GetItem(args, i);
        int isv = tn_tensor_check(a), rg = isv && tn_requires_grad(a);
        p->is_variable_input[i] = (uint8_t)isv;
        ntensors += isv;
        any_rg |= rg;
        PyTuple_SetItem(p->needs_input_grad, i, Py_NewRef(rg ? Py_True : Py_False));
    }
    int executable = !tn_tls.grad_disabled && any_rg;
    if (executable) {
        if (tn_node_resize(&p->node, ntensors, 0) < 0)
            goto done;
        for (Py_ssize_t i = 0, j = 0; i < nargs; i++)
            if (p->is_variable_input[i] && tn_node_set_next_edge(&p->node, (int)j++, PyTuple_GetItem(args, i)) < 0)
                goto done;
    }
    int overridden = is_setup_context_overridden(cls);
    if (overridden < 0)
        goto done;
    PyObject *forward = PyObject_GetAttrString(cls, "forward");
    if (!forward)
        goto done;
    int gd = tn_tls.grad_disabled, fgd = tn_tls.fwd_grad_disabled;
    tn_tls.grad_disabled = 1;
    tn_tls.fwd_grad_disabled = 1;
    if (overridden) {
        raw = PyObject_CallObject(forward, args);
        PyObject *setup = raw ? PyObject_GetAttrString(cls, "setup_context") : NULL;
        PyObject *r = setup ? PyObject_CallFunctionObjArgs(setup, ctx, args, raw, NULL) : NULL;
        Py_XDECREF(setup);
        if (!r)
            Py_CLEAR(raw);
        Py_XDECREF(r);
    } else {
        PyObject *full = PyTuple_New(nargs + 1);
        if (full) {
            PyTuple_SetItem(full, 0, Py_NewRef(ctx));
            for (Py_ssize_t i = 0; i < nargs; i++)
                PyTuple_SetItem(full, i + 1, Py_NewRef(PyTuple_GetItem(args, i)));
            raw = PyObject_CallObject(forward, full);
            Py_DECREF(full);
        }
    }
    tn_tls.grad_disabled = gd;
    tn_tls.fwd_grad_disabled = fgd;
    Py_DECREF(forward);
    if (!raw)
        goto done;
    int unpack = !PyTuple_Check(raw);
    /* a fresh tuple (its items are replaced by the wrapped outputs) */
    Py_ssize_t nout = unpack ? 1 : PyTuple_Size(raw);
    outputs = PyTuple_New(nout);
    for (Py_ssize_t i = 0; outputs && i < nout; i++)
        PyTuple_SetItem(outputs, i, Py_NewRef(unpack ? raw : PyTuple_GetItem(raw, i)));
    if (!outputs || process_outputs(p, args, outputs, executable) < 0)
        goto done;
    result = unpack ? Py_NewRef(PyTuple_GetItem(outputs, 0)) : Py_NewRef(outputs);
done:
    Py_XDECREF(raw);
    Py_XDECREF(outputs);
    Py_DECREF(ctx);
    return result;
}

static PyObject *
function_maybe_clear_saved_tensors(PyObject *self, PyObject *unused)
{
    Py_RETURN_NONE;
}

static PyMethodDef function_methods[] = {
    {"apply", (PyCFunction)(void (*)(void))function_apply, METH_VARARGS | METH_KEYWORDS | METH_CLASS, NULL},
    {"maybe_clear_saved_tensors", function_maybe_clear_saved_tensors, METH_NOARGS, NULL},
    {NULL},
};

static PyGetSetDef function_getset[] = {
    {"saved_tensors", saved_tensors_get, NULL, NULL, NULL},
    {"saved_variables", saved_tensors_get, NULL, NULL, NULL},
    {"needs_input_grad", needs_input_grad_get, NULL, NULL, NULL},
    {"to_save", dict_attr_get, dict_attr_set, NULL, "to_save"},
    {"dirty_tensors", dict_attr_get, dict_attr_set, NULL, "dirty_tensors"},
    {"non_differentiable", dict_attr_get, dict_attr_set, NULL, "non_differentiable"},
    {NULL},
};

/* ---- torch._C._functions.DelayedError (once_differentiable) ---- */

typedef struct {
    PyObject_HEAD
    char *msg;
    int num_inputs;
} DelayedError;

static PyObject *
delayed_error_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *msg;
    int n;
    if (!PyArg_ParseTuple(args, "Oi", &msg, &n))
        return NULL;
    const char *s = NULL;
    if (PyBytes_Check(msg))
        s = PyBytes_AsString(msg);
    else if (PyUnicode_Check(msg))
        s = PyUnicode_AsUTF8AndSize(msg, NULL);
    if (!s) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "DelayedError: expected a message (bytes or str)");
        return NULL;
    }
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    DelayedError *e = (DelayedError *)alloc(type, 0);
    if (!e)
        return NULL;
    e->msg = strdup(s);
    e->num_inputs = n;
    if (!e->msg) {
        Py_DECREF(e);
        return PyErr_NoMemory();
    }
    return (PyObject *)e;
}

static void
delayed_error_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    free(((DelayedError *)self)->msg);
    freefunc f = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    f(self);
    Py_DECREF(tp);
}

/* Aliases of the argument tensors (None stays None) whose grad_fn is a node made by make(n),
 * when any argument requires grad: upstream's wrap_outputs for the C++ functions torch._C._functions
 * exposes. One output comes back bare, as THPCppFunction_call returns it. */
static PyObject *
alias_outputs(PyObject *args, tn_node *(*make)(PyObject *self, int n), PyObject *self)
{
    Py_ssize_t n = PyTuple_Size(args);
    int any = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = PyTuple_GetItem(args, i);
        if (a != Py_None && !tn_tensor_check(a)) {
            PyErr_Format(PyExc_TypeError, "%s: expected Tensors or None, got %s", tn_tpname(self), tn_tpname(a));
            return NULL;
        }
        any |= a != Py_None && tn_requires_grad(a);
    }
    tn_node *node = any ? make(self, (int)n) : NULL;
    if (any && !node)
        return NULL;
    PyObject *out = PyTuple_New(n);
    for (Py_ssize_t i = 0; out && i < n; i++) {
        PyObject *a = PyTuple_GetItem(args, i);
        PyObject *o;
        if (a == Py_None) {
            o = Py_NewRef(Py_None);
        } else if (!(o = tn_alias_without_history(TN_T(a))) ||
                   (node && (tn_node_set_next_edge(node, (int)i, a) < 0 ||
                             tn_autograd_set_history_any(o, node, (int)i) < 0))) {
            Py_XDECREF(o);
            Py_CLEAR(out);
            break;
        }
        PyTuple_SetItem(out, i, o);
    }
    Py_XDECREF((PyObject *)node);
    if (out && n == 1) {
        PyObject *only = Py_NewRef(PyTuple_GetItem(out, 0));
        Py_DECREF(out);
        return only;
    }
    return out;
}

static tn_node *
make_delayed_error(PyObject *self, int n)
{
    return tn_error_node_new(&tn_kind_Error, ((DelayedError *)self)->msg, n);
}

/* err_fn(*tensors): their aliases, whose grad_fn raises the message (DelayedError::apply) */
static PyObject *
delayed_error_call(PyObject *self, PyObject *args, PyObject *kwargs)
{
    return alias_outputs(args, make_delayed_error, self);
}

/* ---- torch._C._functions.UndefinedGrad (gradcheck's undefined-gradient check) ---- */

static int
undefined_grad_backward_apply(tn_node *self, PyObject **grads, PyObject **out)
{
    return 0;   /* every gradient undefined */
}

static tn_node_kind kind_UndefinedGradBackward = {
    .name = "UndefinedGradBackward",
    .cpp_name = "torch::autograd::UndefinedGradBackward",
    .basicsize = sizeof(tn_node),
    .apply = undefined_grad_backward_apply,
    .complex_rule = TN_COMPLEX_VERIFIED,   /* no formula: every gradient undefined, complex or not */
};

static PyObject *
undefined_grad_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    return alloc(type, 0);
}

static tn_node *
make_undefined_grad_backward(PyObject *self, int n)
{
    return tn_node_new(&kind_UndefinedGradBackward, n, 0);
}

/* UndefinedGrad()(*tensors): aliases whose gradients arrive undefined at the inputs */
static PyObject *
undefined_grad_call(PyObject *self, PyObject *args, PyObject *kwargs)
{
    return alias_outputs(args, make_undefined_grad_backward, self);
}

int
tn_autograd_function_init(PyObject *module, PyObject *functions)
{
    /* the node base's GC and dealloc (they call the kind's traverse / release / finalize) */
    PyType_Slot slots[] = {
        {Py_tp_traverse, PyType_GetSlot(tn_Node_Type, Py_tp_traverse)},
        {Py_tp_clear, PyType_GetSlot(tn_Node_Type, Py_tp_clear)},
        {Py_tp_dealloc, PyType_GetSlot(tn_Node_Type, Py_tp_dealloc)},
        {Py_tp_new, function_new},
        {Py_tp_methods, function_methods},
        {Py_tp_getset, function_getset},
        {0, NULL},
    };
    PyType_Spec spec = {
        .name = "torch._C._FunctionBase",
        .basicsize = sizeof(PyNode),
        .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
        .slots = slots,
    };
    PyObject *bases = PyTuple_Pack(1, (PyObject *)tn_Node_Type);
    PyObject *tp = bases ? PyType_FromSpecWithBases(&spec, bases) : NULL;
    Py_XDECREF(bases);
    if (!tp)
        return -1;
    tn_FunctionBase_Type = (PyTypeObject *)tp;
    if (PyModule_AddObjectRef(module, "_FunctionBase", tp) < 0)
        return -1;
    PyType_Slot eslots[] = {
        {Py_tp_new, delayed_error_new},
        {Py_tp_dealloc, delayed_error_dealloc},
        {Py_tp_call, delayed_error_call},
        {0, NULL},
    };
    PyType_Spec espec = {
        .name = "torch._C._functions.DelayedError",
        .basicsize = sizeof(DelayedError),
        .flags = Py_TPFLAGS_DEFAULT,
        .slots = eslots,
    };
    PyObject *et = PyType_FromSpec(&espec);
    if (!et || PyModule_AddObject(functions, "DelayedError", et) < 0)
        return -1;
    PyType_Slot uslots[] = {
        {Py_tp_new, undefined_grad_new},
        {Py_tp_call, undefined_grad_call},
        {0, NULL},
    };
    PyType_Spec uspec = {
        .name = "torch._C._functions.UndefinedGrad",
        .basicsize = sizeof(PyObject),
        .flags = Py_TPFLAGS_DEFAULT,
        .slots = uslots,
    };
    PyObject *ut = PyType_FromSpec(&uspec);
    if (!ut || PyModule_AddObject(functions, "UndefinedGrad", ut) < 0)
        return -1;
    return tn_node_type(&kind_UndefinedGradBackward) ? 0 : -1;
}
