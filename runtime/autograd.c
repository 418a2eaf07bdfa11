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
 *            upstream's RuntimeError "derivative for aten::<op> is not implemented" if backward
 *            reaches it (upstream has no formula either), or NotImplementedError naming the
 *            derivative when upstream has one (Note [Refusing a formula upstream has]);
 *   OUT      out= overloads are not differentiable (upstream's error when anything needs grad);
 *   CIA_KERNEL  CompositeImplicitAutograd beside a CPU kernel (mish_backward): NOTIMPL for CPU
 *            arguments, CIA when one is meta (the Autograd key takes the composite only for a
 *            backend with no kernel of its own).
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
        /* upstream's VariableType checks the differentiable inputs and the outputs only: an index
         * that requires grad reaches the kernel's own checks (index_select's "Index is supposed
         * to be a vector") */
        if (i < 64 && ((op->ag_out_nondiff >> i) & 1))
            continue;
        if ((args[i].tag == TN_V_TENSOR || args[i].tag == TN_V_TENSORLIST) && tn_value_requires_grad(&args[i])) {
            PyErr_Format(PyExc_RuntimeError,
                         "%s(): functions with out=... arguments don't support automatic differentiation, "
                         "but one of the arguments requires grad.",
                         op->ag_out_name ? op->ag_out_name : op->name);
            return -1;
        }
    }
    return 0;
}

/* Differentiable outputs of an op with no formula get a node that refuses at backward: upstream's
 * RuntimeError where upstream has no formula either (autogradNotImplementedFallback), else a
 * refusal by name, NotImplementedError (Note [Refusing a formula upstream has]). */
static int
attach_not_implemented(tn_op *op, tn_value *args, int nargs, PyObject *result)
{
    char q[256], msg[480];
    tn_op_qualname(op, q, sizeof q);
    if (op->ag_has_formula)
        snprintf(msg, sizeof msg, "derivative for %s is not implemented in torchnative (upstream differentiates it by "
                 "its derivatives.yaml formula, which torchnative does not run yet)", q);
    else  /* upstream's NotImplemented node names the operator, not the overload */
        snprintf(msg, sizeof msg, "derivative for %s::%s is not implemented", op->ns ? op->ns : "aten", op->name);
    /* edges to the arguments that require grad only (upstream's collect_next_edges of them) */
    int nnext = 0;
    for (int i = 0; i < nargs; i++)
        if (args[i].tag == TN_V_TENSOR)
            nnext += tn_requires_grad(args[i].u.t);
        else if (args[i].tag == TN_V_TENSORLIST)
            for (Py_ssize_t k = 0; k < args[i].n; k++)
                nnext += args[i].u.tensors[k] && tn_requires_grad(args[i].u.tensors[k]);
    tn_node *n = op->ag_has_formula ? tn_refusal_node_new(msg, nnext) : tn_error_node_new(&tn_kind_NotImplemented, msg, nnext);
    if (!n)
        return -1;
    int j = 0, rc = 0;
    for (int i = 0; i < nargs && rc == 0; i++) {
        if (args[i].tag == TN_V_TENSOR && tn_requires_grad(args[i].u.t))
            rc = tn_node_set_next_edge(n, j++, args[i].u.t);
        else if (args[i].tag == TN_V_TENSORLIST)
            for (Py_ssize_t k = 0; k < args[i].n && rc == 0; k++)
                if (args[i].u.tensors[k] && tn_requires_grad(args[i].u.tensors[k]))
                    rc = tn_node_set_next_edge(n, j++, args[i].u.tensors[k]);
    }
    /* an out= overload's results are its out arguments, written in place: their history is
     * rebased (a view's base records the write), as upstream's rebase_history does */
    int (*set)(PyObject *, tn_node *, int) =
        (op->flags & TN_OPK_MASK) == TN_OPK_OUT ? tn_autograd_rebase_history_at : tn_autograd_set_history_any;
    if (rc == 0) {
        int nr = 0;
        if (tn_tensor_check(result)) {
            rc = set(result, n, nr++);
        } else if (PyTuple_Check(result) || PyList_Check(result)) {
            PyObject *seq = PySequence_Tuple(result);
            for (Py_ssize_t k = 0; seq && rc == 0 && k < PyTuple_Size(seq); k++) {
                PyObject *o = PyTuple_GetItem(seq, k);
                if (tn_tensor_check(o))
                    rc = set(o, n, nr++);
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
    if (!s)
        return NULL;
    if (tn_autograd_check_out(op, args, s->nparams) < 0) {
        if (op->flags & TN_OPF_CIA_CHECKS_FIRST)
            tn_dispatch_cia_out_argument_error_first(op, args);
        return NULL;
    }
    return tn_autograd_redispatch(op, args);
}

static PyObject *
mode_cia_python(tn_op *op, tn_value *args)
{
    return tn_dispatch_cia_python(op, args);
}

/* upstream's can_mutate_inplace under grad mode, when some argument requires grad: whether a write
 * into `self` cannot be recorded (tn_autograd_check_inplace raises what it finds) */
static int
inplace_refused(PyObject *self)
{
    TensorObject *t = TN_T(self);
    if (t->is_view && t->base && tn_dtype_is_differentiable(t->dtype)) {
        if (t->view_meta != TN_VIEW_DEFAULT)
            return 1;
        if (tn_requires_grad(self) && !TN_T(t->base)->grad_fn)
            return 1;
    }
    return t->requires_grad && !t->grad_fn;
}

/* empty.out, randn.out and rand/randn.generator_out are CompositeImplicitAutograd upstream: their
 * composite resizes out with resize_ above autograd, whose VariableType kernel refuses a tensor that
 * requires grad ("cannot resize variables that require grad", a size it already has too), after
 * empty_out's own checks of memory_format and the sizes. -1 with that error. */
static int
resizes_out_under_autograd(const tn_op *op, const tn_schema *s, const tn_value *args)
{
    int empty = !strcmp(op->name, "empty") && !strcmp(op->overload, "out");
    if (!empty && !(!strcmp(op->name, "randn") && !strcmp(op->overload, "out")) &&
        !((!strcmp(op->name, "rand") || !strcmp(op->name, "randn")) && !strcmp(op->overload, "generator_out")))
        return 0;
    const tn_value *out = &args[s->nparams - 1];
    if (out->tag != TN_V_TENSOR || !tn_requires_grad(out->u.t))
        return 0;
    if (empty && args[1].tag != TN_V_NONE) {
        PyErr_SetString(PyExc_RuntimeError, "'memory_format' argument is incompatible with 'out' tensor argument");
        return -1;
    }
    if (empty && args[0].tag == TN_V_INTLIST && tn_check_size_nonnegative((int)args[0].n, args[0].u.ints) < 0)
        return -1;
    PyErr_SetString(PyExc_RuntimeError, "cannot resize variables that require grad");
    return -1;
}

static PyObject *
mode_not_implemented(tn_op *op, tn_value *args)
{
    tn_schema *s = tn_op_schema(op);
    if (!s)
        return NULL;
    /* upstream's VariableType checks an in-place op's self first (check_inplace), formula or not:
     * set_ on a leaf that requires grad is refused */
    if ((op->flags & TN_OPK_MASK) == TN_OPK_INPLACE && s->nparams > 0 && args[0].tag == TN_V_TENSOR &&
        tn_autograd_check_inplace(args[0].u.t, 1) < 0)
        return NULL;
    if (resizes_out_under_autograd(op, s, args) < 0)
        return NULL;
    /* an out= overload here has no derivative entry (upstream's autogradNotImplementedFallback):
     * only its out arguments are checked before the kernel, the inputs' kernel errors come first.
     * An out the write could be recorded into (not a leaf that requires grad, nor a view of one,
     * nor a view made in no_grad or by a multi-output op) gets the refusing node as its history,
     * as an in-place op's self does: torch.zeros(3, out=a * 2) runs and fails at backward. */
    for (int i = 0; (op->flags & TN_OPK_MASK) == TN_OPK_OUT && i < s->nparams; i++) {
        int refused = 0;
        if (s->params[i].is_out && args[i].tag == TN_V_TENSOR)
            refused = inplace_refused(args[i].u.t);
        for (Py_ssize_t k = 0; s->params[i].is_out && args[i].tag == TN_V_TENSORLIST && k < args[i].n; k++)
            refused |= args[i].u.tensors[k] && inplace_refused(args[i].u.tensors[k]);
        if (refused) {
            PyErr_Format(PyExc_RuntimeError,
                         "%s::%s(): functions with out=... arguments don't support automatic differentiation, "
                         "but one of the arguments requires grad.", op->ns ? op->ns : "aten", op->name);
            return NULL;
        }
    }
    PyObject *r = tn_autograd_redispatch(op, args);
    if (r && attach_not_implemented(op, args, s->nparams, r) < 0)
        Py_CLEAR(r);
    return r;
}

/* ---- history ---- */

/* Note [Complex autograd]
 * Upstream differentiates complex functions by Wirtinger calculus: the gradient a node hands on
 * is the conjugate Wirtinger derivative, so formulas conjugate (grad * other.conj() for mul),
 * a real input that receives a complex gradient keeps its real part (handle_r_to_c), and the
 * engine casts a real gradient to a complex input's dtype (validate_outputs). Formulas are
 * translated with their conjugations (codegen/formula.py: .conj() is a real conj for complex
 * tensors, the identity for real ones), but a formula is only trusted on complex tensors once
 * its golden backward cases agree with upstream's on complex inputs: the generated kinds listed
 * in schemas/autograd_complex.yaml are TN_COMPLEX_VERIFIED; every other generated kind refuses,
 * by name, a complex tensor requiring grad as input or output (TN_COMPLEX_REFUSE), and a
 * hand-written kind (TN_COMPLEX_HAND: CopySlices, autograd.Function, copy_) refuses a complex
 * output, as all kinds did before (UndefinedGradBackward, which hands on no gradient at all, is
 * TN_COMPLEX_VERIFIED: gradcheck wraps complex outputs in it). Refuse, never fake: a wrong
 * complex gradient looks like a right one. */
static int
refuse_complex(tn_node *n, const TensorObject *t, const char *role)
{
    const char *op = n->kind->op;
    PyErr_Format(PyExc_NotImplementedError,
                 "torchnative: autograd through %s tensors is not implemented for %s%s%s%s (a complex %s): its "
                 "derivative is not checked against upstream's on complex inputs (schemas/autograd_complex.yaml "
                 "lists the node kinds that are)",
                 tn_dtype_name(t->dtype), tn_node_name(n), op ? " (" : "", op ? op : "", op ? ")" : "", role);
    return -1;
}

int
tn_node_set_next_edge(tn_node *n, int j, PyObject *t)
{
    if (!t || !tn_requires_grad(t))
        return 0;
    TensorObject *tt = TN_T(t);
    if (n->kind->complex_rule == TN_COMPLEX_REFUSE && tn_dtype_is_complex(tt->dtype))
        return refuse_complex(n, tt, "input");
    PyObject *fn = tn_tensor_grad_fn(tt);
    int nr = 0;
    if (!fn && PyErr_Occurred())
        return -1;
    if (fn) {
        fn = Py_NewRef(fn);
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
tn_autograd_set_history_any(PyObject *t, tn_node *n, int output_nr)
{
    if (!t || !tn_tensor_check(t))
        return 0;
    TensorObject *tt = TN_T(t);
    if (!tn_dtype_is_differentiable(tt->dtype))
        return node_add_input(n, output_nr, tt);  /* keeps numbering; never receives a gradient */
    if (tn_dtype_is_complex(tt->dtype) && n->kind->complex_rule != TN_COMPLEX_VERIFIED)
        return refuse_complex(n, tt, "output");   /* See Note [Complex autograd] */
    if (node_add_input(n, output_nr, tt) < 0)
        return -1;
    TN_XSETREF(tt->grad_fn, Py_NewRef((PyObject *)n));
    tt->output_nr = output_nr;
    tt->requires_grad = 0;  /* a non-leaf's requires_grad comes from its grad_fn */
    return 0;
}

int
tn_autograd_set_history(PyObject *t, tn_node *n, int output_nr)
{
    /* upstream's set_history: a differentiable output of a recorded op must have a differentiable
     * dtype (x.sum(dtype=torch.bool) of an x requiring grad) */
    if (t && tn_tensor_check(t) && !tn_dtype_is_differentiable(TN_T(t)->dtype)) {
        PyErr_Format(PyExc_RuntimeError, "Autograd not support dtype: %s", tn_dtype_legacy_name(TN_T(t)->dtype));
        return -1;
    }
    return tn_autograd_set_history_any(t, n, output_nr);
}

int
tn_ag_set_history_list(PyObject *list, tn_node *n, int *nr)
{
    PyObject *seq = PySequence_Tuple(list);
    if (!seq)
        return -1;
    int rc = 0;
    /* upstream's foreach ops set the history of every result (set_history of the flattened
     * list), whose isDifferentiableType check refuses an integer or bool one */
    int foreach = n->kind->name && !strncmp(n->kind->name, "Foreach", 7);
    for (Py_ssize_t k = 0; foreach && k < PyTuple_Size(seq); k++) {
        PyObject *o = PyTuple_GetItem(seq, k);
        if (tn_tensor_check(o) && !tn_dtype_is_differentiable(TN_T(o)->dtype)) {
            PyErr_Format(PyExc_RuntimeError, "Autograd not support dtype: %s", tn_dtype_legacy_name(TN_T(o)->dtype));
            Py_DECREF(seq);
            return -1;
        }
    }
    for (Py_ssize_t k = 0; rc == 0 && k < PyTuple_Size(seq); k++) {
        PyObject *o = PyTuple_GetItem(seq, k);
        rc = tn_autograd_set_history(o, n, (*nr)++);
        if (rc == 0 && TN_T(o)->is_view)
            TN_T(o)->view_meta = TN_VIEW_MULTI_OUTPUT;
    }
    Py_DECREF(seq);
    return rc;
}

/* upstream's handle_view_on_rebase: in-place writes through views made in no_grad / inference
 * mode, by multi-output ops or inside custom Functions are refused while grad mode records. */
static int
handle_view_on_rebase(TensorObject *t)
{
    const char *why;
    switch (t->view_meta) {
    case TN_VIEW_MULTI_OUTPUT:
        why = "This view is the output of a function that returns multiple views. Such functions do not allow "
              "the output views to be modified inplace. You should replace the inplace operation by an "
              "out-of-place one.";
        break;
    case TN_VIEW_NO_GRAD:
        why = "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code "
              "by moving both the view and the inplace either both inside the no_grad block (if you don't want "
              "the inplace to be tracked) or both outside (if you want the inplace to be tracked).";
        break;
    case TN_VIEW_INFERENCE:
        why = "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code "
              "by moving both the view and the inplace either both inside the inference_mode block (if you "
              "don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked).";
        break;
    case TN_VIEW_CUSTOM_FUNCTION:
        why = "This view was created inside a custom Function (or because an input was returned as-is) and the "
              "autograd logic to handle view+inplace would override the custom backward associated with the "
              "custom Function, leading to incorrect gradients. This behavior is forbidden. You can fix this by "
              "cloning the output of the custom Function.";
        break;
    default:
        return 0;
    }
    if (t->grad_fn)
        PyErr_Format(PyExc_RuntimeError, "Output %d of %s is a view and is being modified inplace. %s",
                     (int)t->output_nr, tn_node_name(TN_NODE(t->grad_fn)), why);
    else if (t->view_meta == TN_VIEW_INFERENCE)
        PyErr_Format(PyExc_RuntimeError,
                     "A view was created in inference mode and is being modified inplace in normal mode. %s", why);
    else
        PyErr_Format(PyExc_RuntimeError,
                     "A view was created in no_grad mode and is being modified inplace with grad mode enabled. %s",
                     why);
    return -1;
}

int
tn_autograd_check_inplace(PyObject *self, int requires_grad)
{
    if (!requires_grad || tn_tls.grad_disabled)
        return 0;
    TensorObject *t = TN_T(self);
    if (t->is_view && t->base && tn_dtype_is_differentiable(t->dtype)) {
        if (handle_view_on_rebase(t) < 0)
            return -1;
        TensorObject *base = TN_T(t->base);
        if (tn_requires_grad(self) && !base->grad_fn) {
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

/* A retained gradient (retain_grad) of output `nr` of `old` moves to output `new_nr` of `n`
 * (upstream's update_tensor_hooks_on_new_gradfn). */
static int
move_retains_grad(TensorObject *t, PyObject *old, int nr, tn_node *n, int new_nr)
{
    if (!t->retains_grad || !old || old == (PyObject *)n || !TN_NODE(old)->retains_grad)
        return 0;
    tn_node *o = TN_NODE(old);
    PyObject *key = PyLong_FromLong(nr);
    PyObject *w = key ? PyDict_GetItem(o->retains_grad, key) : NULL;
    int rc = key ? 0 : -1;
    if (w) {
        Py_INCREF(w);
        PyObject *to = PyLong_FromLong(new_nr);
        if (!n->retains_grad)
            n->retains_grad = PyDict_New();
        rc = to && n->retains_grad && PyDict_SetItem(n->retains_grad, to, w) == 0 &&
                     PyDict_DelItem(o->retains_grad, key) == 0 ? 0 : -1;
        Py_XDECREF(to);
        Py_DECREF(w);
    }
    Py_XDECREF(key);
    return rc;
}

/* ---- views modified in place ---- */

/* Note [View + in-place]
 * An in-place op on a view whose history autograd records (upstream's rebase_history): the
 * base gets a CopySlices node that holds the op's node `fn`. CopySlices' backward copies the
 * base's gradient, runs fn on the view's slice of it, writes fn's gradient for the view back
 * into that slice and passes fn's other gradients on. The view's own grad_fn is regenerated as
 * AsStridedBackward0 of the base whenever the shared version counter moved since it was made
 * (VariableHooks::grad_fn; CPU tensors support as_strided, so upstream replays no view chain):
 * tn_tensor_grad_fn does it lazily for every view of the base, rebase eagerly for the view
 * written. A view's attr_version is the version its grad_fn was made at. */

typedef struct {
    tn_node node;
    tn_ag_geometry base;
    tn_ag_geometry view;
    tn_node *fn;
} CopySlices;

static PyObject *
geometry_view(PyObject *t, const tn_ag_geometry *g, int64_t offset)
{
    tn_value a[4] = {tn_value_tensor(t), tn_ag_value_ints_lit(g->sizes, g->ndim), tn_ag_value_ints_lit(g->strides, g->ndim),
                     tn_value_int(offset)};
    return tn_ag_op(TN_OP_as_strided, a);
}

static int
copy_slices_apply(tn_node *n_, PyObject **grads, PyObject **out)
{
    CopySlices *n = (CopySlices *)n_;
    PyObject *grad = grads[0];
    if (!grad)
        return 0;
    if (!n->fn) {
        PyErr_SetString(PyExc_RuntimeError, tn_err_backward_twice);
        return -1;
    }
    tn_ag_options o = tn_ag_options_of(grad);
    /* result = grad.new_empty_strided(base sizes, base strides); result.copy_(grad) */
    tn_value ne[7] = {tn_value_tensor(grad), tn_ag_value_ints_lit(n->base.sizes, n->base.ndim),
                      tn_ag_value_ints_lit(n->base.strides, n->base.ndim), tn_ag_value_dtype(o.dtype), {0},
                      tn_ag_value_device(o.device), {0}};
    PyObject *result = tn_ag_op(TN_OP_new_empty_strided, ne);
    PyObject *cp = result ? tn_ag_op(TN_OP_copy_, (tn_value[]){tn_value_tensor(result), tn_value_tensor(grad),
                                                                tn_ag_value_bool(0)})
                          : NULL;
    PyObject *slice = cp ? geometry_view(result, &n->view, n->view.offset - n->base.offset) : NULL;
    PyObject *clone = slice ? tn_ag_op(TN_OP_clone, (tn_value[]){tn_value_tensor(slice),
                                                                 tn_ag_value_memfmt(TN_MEMFMT_CONTIGUOUS)})
                            : NULL;
    Py_XDECREF(cp);
    int rc = -1, nout = n->fn->num_next;
    PyObject **res = clone ? calloc((size_t)nout + 1, sizeof(PyObject *)) : NULL;
    if (clone && !res)
        PyErr_NoMemory();
    if (res && n->fn->kind->apply(n->fn, &clone, res) == 0) {
        rc = 0;
        for (int i = 0; i < nout && rc == 0; i++) {
            if (!tn_ag_needs(n_, i) || !res[i])
                continue;   /* an undefined gradient counts as zeros, as upstream */
            if (i == 0) {
                PyObject *w = tn_ag_op(TN_OP_copy_, (tn_value[]){tn_value_tensor(slice), tn_value_tensor(res[0]),
                                                                  tn_ag_value_bool(0)});
                if (w) {
                    Py_DECREF(w);
                    out[0] = Py_NewRef(result);
                } else {
                    rc = -1;
                }
            } else {
                out[i] = Py_NewRef(res[i]);
            }
        }
    }
    if (res)
        tn_ag_release_temps(res, nout);
    free(res);
    Py_XDECREF(result);
    Py_XDECREF(slice);
    Py_XDECREF(clone);
    return rc;
}

static void
copy_slices_release(tn_node *n_)
{
    Py_CLEAR(((CopySlices *)n_)->fn);
}

static void
copy_slices_finalize(tn_node *n_)
{
    CopySlices *n = (CopySlices *)n_;
    Py_CLEAR(n->fn);
    tn_ag_free_geometry(&n->base);
    tn_ag_free_geometry(&n->view);
}

static int
copy_slices_traverse(tn_node *n_, visitproc visit, void *arg)
{
    Py_VISIT(((CopySlices *)n_)->fn);
    return 0;
}

static tn_node_kind kind_CopySlices = {
    .name = "CopySlices",
    .cpp_name = "torch::autograd::CopySlices",
    .basicsize = sizeof(CopySlices),
    .apply = copy_slices_apply,
    .release = copy_slices_release,
    .finalize = copy_slices_finalize,
    .traverse = copy_slices_traverse,
};

/* The view's grad_fn made anew: AsStridedBackward0 of its base (recorded by running as_strided
 * on the base with grad mode on), or none when the base needs no gradient. */
static int
view_regenerate(TensorObject *t)
{
    PyObject *fn = NULL;
    if (tn_requires_grad(t->base)) {
        int gd = tn_tls.grad_disabled, below = tn_tls.below_autograd;
        tn_tls.grad_disabled = 0;
        tn_tls.below_autograd = 0;
        tn_value a[4] = {tn_value_tensor(t->base), tn_ag_value_ints_lit(t->sizes, t->ndim),
                         tn_ag_value_ints_lit(t->strides, t->ndim), tn_value_int(t->offset)};
        PyObject *v = tn_ag_op(TN_OP_as_strided, a);
        tn_tls.grad_disabled = gd;
        tn_tls.below_autograd = below;
        if (!v)
            return -1;
        fn = Py_XNewRef(TN_T(v)->grad_fn);
        Py_DECREF(v);
    }
    PyObject *old = t->grad_fn;
    int nr = t->output_nr;
    t->grad_fn = fn;
    t->output_nr = 0;
    t->attr_version = t->version->value;
    int rc = fn ? move_retains_grad(t, old, nr, TN_NODE(fn), 0) : 0;
    Py_XDECREF(old);
    return rc;
}

/* tn_view_grad_fn_hook: a stale view's grad_fn made anew (tn_tensor_grad_fn calls it) */
static PyObject *
view_grad_fn(TensorObject *t)
{
    if (!t->grad_fn && !tn_requires_grad(t->base))
        return NULL;
    if (view_regenerate(t) < 0)
        return NULL;
    return t->grad_fn;
}

static int
rebase_view(PyObject *self, tn_node *fn)
{
    TensorObject *t = TN_T(self);
    PyObject *base = t->base;
    if (fn->num_inputs != 1) {
        PyErr_SetString(PyExc_RuntimeError, "Functions which modify views in-place must return a single Variable");
        return -1;
    }
    CopySlices *cs = (CopySlices *)tn_node_new(&kind_CopySlices, fn->num_next, 0);
    if (!cs)
        return -1;
    int rc = -1;
    if (tn_ag_geometry_save(&cs->base, base) < 0 || tn_ag_geometry_save(&cs->view, self) < 0 ||
        tn_node_set_next_edge(&cs->node, 0, base) < 0)
        goto done;
    /* fn's edges but the first, which goes to the base instead of the view; fn's own edge 0
     * becomes the base's too, so fn computes the view's gradient exactly when CopySlices needs
     * the base's (upstream's CopySlices::update_exec_info) */
    for (int i = 1; i < fn->num_next; i++) {
        cs->node.next[i].fn = Py_XNewRef(fn->next[i].fn);
        cs->node.next[i].input_nr = fn->next[i].input_nr;
    }
    TN_XSETREF(fn->next[0].fn, Py_XNewRef(cs->node.next[0].fn));
    fn->next[0].input_nr = cs->node.next[0].input_nr;
    cs->fn = (tn_node *)Py_NewRef((PyObject *)fn);
    PyObject *old = TN_T(base)->grad_fn;
    Py_XINCREF(old);
    int onr = TN_T(base)->output_nr;
    if (tn_autograd_set_history(base, &cs->node, 0) < 0 || move_retains_grad(TN_T(base), old, onr, &cs->node, 0) < 0) {
        Py_XDECREF(old);
        goto done;
    }
    Py_XDECREF(old);
    rc = view_regenerate(t);   /* self.grad_fn(): the view's history now goes through CopySlices */
done:
    Py_DECREF((PyObject *)cs);
    return rc;
}

int
tn_autograd_rebase_history(PyObject *self, tn_node *n)
{
    return tn_autograd_rebase_history_at(self, n, 0);
}

int
tn_autograd_rebase_history_at(PyObject *self, tn_node *n, int output_nr)
{
    TensorObject *t = TN_T(self);
    if (t->is_view && t->base && tn_dtype_is_differentiable(t->dtype)) {
        /* upstream's rebase_history adds the view's metadata as the node's input first */
        if (node_add_input(n, output_nr, t) < 0)
            return -1;
        return rebase_view(self, n);
    }
    PyObject *old = t->grad_fn;
    Py_XINCREF(old);
    int nr = t->output_nr;
    int rc = tn_autograd_set_history_any(self, n, output_nr);
    if (rc == 0)
        rc = move_retains_grad(t, old, nr, n, output_nr);
    Py_XDECREF(old);
    return rc;
}

int
tn_autograd_retain_grad(PyObject *self)
{
    TensorObject *t = TN_T(self);
    if (!tn_requires_grad(self)) {
        PyErr_SetString(PyExc_RuntimeError, "can't retain_grad on Tensor that has requires_grad=False");
        return -1;
    }
    PyObject *fn = tn_tensor_grad_fn(t);
    if (!fn)
        return PyErr_Occurred() ? -1 : 0;
    if (t->retains_grad)
        return 0;
    tn_node *n = TN_NODE(fn);
    tn_node_track(n);
    if (!n->retains_grad && !(n->retains_grad = PyDict_New()))
        return -1;
    PyObject *key = PyLong_FromLong(t->output_nr);
    PyObject *w = key ? PyWeakref_NewRef(self, NULL) : NULL;
    int rc = w ? PyDict_SetItem(n->retains_grad, key, w) : -1;
    Py_XDECREF(key);
    Py_XDECREF(w);
    if (rc == 0)
        t->retains_grad = 1;
    return rc;
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

/* derivatives.yaml's not_implemented(...): upstream's TORCH_CHECK_NOT_IMPLEMENTED, so
 * NotImplementedError (zeta and igamma with respect to their first argument, in-place acosh...) */
void
tn_ag_not_implemented(const char *msg, const char *detail)
{
    if (detail && detail[0])
        PyErr_Format(PyExc_NotImplementedError, "%s (%s)", msg, detail);
    else
        PyErr_SetString(PyExc_NotImplementedError, msg);
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
    PyObject *o = PySequence_GetItem(result, k);
    if (o == Py_None) {
        Py_DECREF(o);   /* an undefined tensor of a multi-output op */
        return NULL;
    }
    return o;
}

int
tn_ag_save_original_self(tn_saved *s, PyObject *self, tn_node *n)
{
    /* upstream saves self.clone() for an in-place op whose formula reads self; the clone is
     * recorded (CloneBackward0), so double backward reaches self's history through it */
    tn_value a[2] = {tn_value_tensor(self)};
    a[1].tag = TN_V_NONE;
    PyObject *c = tn_ag_op(TN_OP_clone, a);
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

PyObject *
tn_ag_conj(PyObject *t)
{
    if (!t || !tn_dtype_is_complex(TN_T(t)->dtype))
        return Py_XNewRef(t);
    return tn_ag_op(TN_OP_conj, (tn_value[]){tn_value_tensor(t)});
}

tn_value
tn_ag_scalar_conj(const tn_value *s)
{
    tn_value r = *s;
    if (s->tag == TN_V_COMPLEX)
        r.im = -s->im;
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

/* A node's saved t.sym_size(dim), taken as upstream's VariableType takes it before the kernel
 * runs: a dim the tensor has not is an IndexError there (a 0-dim grad_output of
 * _adaptive_avg_pool2d_backward that requires grad). */
int
tn_ag_size_save(int64_t *dst, PyObject *t, int64_t dim)
{
    int64_t d;
    if (tn_wrap_dim_no_scalar(dim, TN_T(t)->ndim, &d) < 0)
        return -1;
    *dst = TN_T(t)->sizes[d];
    return 0;
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
tn_ag_copy_range(tn_node *n, PyObject **out, int first, int count, const tn_ag_vec *grads)
{
    if (grads->n != count) {
        PyErr_SetString(PyExc_RuntimeError, "inconsistent range for TensorList output");
        return -1;
    }
    for (int i = 0; i < count; i++)
        if (tn_ag_needs(n, first + i))
            out[first + i] = Py_XNewRef(grads->v[i]);
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

/* CIA_KERNEL (see the Note): the composition when a tensor argument is meta, else the kernel
 * under a node that refuses backward */
static PyObject *
mode_cia_kernel(tn_op *op, tn_value *args)
{
    tn_schema *s = tn_op_schema(op);
    if (!s)
        return NULL;
    for (int i = 0; i < s->nparams; i++)
        if (args[i].tag == TN_V_TENSOR && TN_T(args[i].u.t)->device == TN_DEVICE_META)
            return op->compose ? op->compose(op, args) : mode_cia_python(op, args);
    return mode_not_implemented(op, args);
}

/* ---- the generated table into the op registry (module init hands it over) ---- */

int
tn_autograd_install(const tn_autograd_entry *table)
{
    tn_view_grad_fn_hook = view_grad_fn;
    for (const tn_autograd_entry *e = table; e->mode; e++) {
        tn_op *op = tn_op_by_id(e->op);
        op->ag_mode = e->mode;
        op->ag_out_nondiff = e->out_nondiff;
        op->ag_out_name = e->out_name;
        op->ag_has_formula = e->has_formula;
        op->compose = e->mode == TN_AG_CIA || e->mode == TN_AG_CIA_KERNEL ? e->record : NULL;
        op->ag_record = e->mode == TN_AG_CIA_KERNEL ? mode_cia_kernel
                        : e->record            ? e->record
                        : e->mode == TN_AG_OUT ? mode_out
                        : e->mode == TN_AG_CIA ? mode_cia_python
                                               : mode_not_implemented;
    }
    return 0;
}
