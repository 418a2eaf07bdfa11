/* Autocast on the CPU: the autocast TLS flags and dtypes behind torch.autocast, and the layer
 * of the door that applies upstream's CPU cast policies (Note [Autocast]).
 * Adding an op upstream registers for AutocastCPU: a line in autocast_policies with its policy
 * (aten/src/ATen/autocast_mode.cpp's CPU block); test_everyday.py checks the list is upstream's.
 *
 * Note [Autocast]
 * Upstream's AutocastCPU dispatch key runs before Autograd. Ops it does not register fall
 * through unchanged (their own inner ops still meet autocast); a registered op gets its policy:
 *   lower_precision_fp: floating CPU tensor arguments that are not float64 are cast to the
 *     autocast dtype (torch.get_autocast_dtype("cpu"): bfloat16 by default, or float16);
 *   fp32: the same arguments are cast to float32;
 *   promote: they are cast to the widest of the autocast dtype and their own dtypes (float32
 *     wins; two different lower precisions are an error, as upstream's prioritize raises).
 * Tensor lists (cat, stack) are cast element by element. The op then runs with autocast
 * excluded (torch.is_autocast_enabled("cpu") reads False inside it) and the casts go through
 * aten::_to_copy, so autograd records them. Casts of float32 leaf tensors that require grad to the
 * lower precision are cached (model weights: one cast per forward) until the outermost
 * torch.autocast exits (clear_autocast_cache) or the cache is disabled.
 * Meta tensors are not eligible (upstream's AutocastCPU key is a CPU key), so ops on them run
 * as they are.
 */
#include "autocast.h"
#include "dispatch.h"
#include "op_registry.h"
#include "schema.h"
#include "dtype.h"
#include "tensor.h"

#include <string.h>

static _Thread_local int autocast_dtype_set[TN_AC_N];
static _Thread_local int autocast_dtype[TN_AC_N];
static _Thread_local int autocast_cache_disabled;
static _Thread_local int autocast_nesting;
/* source tensor pointer -> (source, cast): see Note [Autocast]. Global as upstream's (the GIL
 * guards it). */
static PyObject *cast_cache;

/* ---- the Python face: flags, dtypes, the cache switch, nesting ---- */

static int
autocast_slot(PyObject *dev)
{
    const char *s = dev && PyUnicode_Check(dev) ? PyUnicode_AsUTF8AndSize(dev, NULL) : "cuda";
    if (!s)
        return -1;
    if (!strcmp(s, "cpu"))
        return TN_AC_CPU;
    if (!strcmp(s, "cuda"))
        return TN_AC_CUDA;
    if (!strcmp(s, "xpu"))
        return TN_AC_XPU;
    if (!strcmp(s, "mps"))
        return TN_AC_MPS;
    if (!strcmp(s, "hpu") || !strcmp(s, "xla"))
        return TN_AC_BF16_OTHER;
    return TN_AC_OTHER;
}

static int
autocast_default_dtype(int slot)
{
    return slot == TN_AC_CPU || slot == TN_AC_BF16_OTHER ? TN_DTYPE_BF16 : TN_DTYPE_F16;
}

static PyObject *
is_autocast_enabled(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    int s = autocast_slot(nargs ? args[0] : NULL);
    if (s < 0)
        return NULL;
    return PyBool_FromLong(tn_autocast_enabled[s]);
}

static PyObject *
set_autocast_enabled(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *dev = nargs == 2 ? args[0] : NULL, *flag = args[nargs - 1];
    int s = autocast_slot(dev);
    int v = PyObject_IsTrue(flag);
    if (s < 0 || v < 0)
        return NULL;
    tn_autocast_enabled[s] = v;
    Py_RETURN_NONE;
}

static PyObject *
is_autocast_cpu_enabled(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(tn_autocast_enabled[TN_AC_CPU]);
}

static PyObject *
set_autocast_cpu_enabled(PyObject *self, PyObject *arg)
{
    int v = PyObject_IsTrue(arg);
    if (v < 0)
        return NULL;
    tn_autocast_enabled[TN_AC_CPU] = v;
    Py_RETURN_NONE;
}

static PyObject *
is_any_autocast_enabled(PyObject *self, PyObject *unused)
{
    for (int i = 0; i < TN_AC_N; i++)
        if (tn_autocast_enabled[i])
            Py_RETURN_TRUE;
    Py_RETURN_FALSE;
}

static PyObject *
get_autocast_dtype(PyObject *self, PyObject *dev)
{
    int s = autocast_slot(dev);
    if (s < 0)
        return NULL;
    return Py_NewRef(tn_dtype_objs[autocast_dtype_set[s] ? autocast_dtype[s] : autocast_default_dtype(s)]);
}

static PyObject *
set_autocast_dtype(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "set_autocast_dtype(device_type, dtype)");
        return NULL;
    }
    int s = autocast_slot(args[0]);
    int d = tn_dtype_from_py(args[1]);
    if (s < 0 || d < 0)
        return NULL;
    autocast_dtype_set[s] = 1;
    autocast_dtype[s] = d;
    Py_RETURN_NONE;
}

static PyObject *
get_autocast_cpu_dtype(PyObject *self, PyObject *unused)
{
    return Py_NewRef(tn_dtype_objs[autocast_dtype_set[TN_AC_CPU] ? autocast_dtype[TN_AC_CPU] : TN_DTYPE_BF16]);
}

static PyObject *
set_autocast_cpu_dtype(PyObject *self, PyObject *arg)
{
    int d = tn_dtype_from_py(arg);
    if (d < 0)
        return NULL;
    autocast_dtype_set[TN_AC_CPU] = 1;
    autocast_dtype[TN_AC_CPU] = d;
    Py_RETURN_NONE;
}

static PyObject *
is_autocast_cache_enabled(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(!autocast_cache_disabled);
}

static PyObject *
set_autocast_cache_enabled(PyObject *self, PyObject *arg)
{
    int v = PyObject_IsTrue(arg);
    if (v < 0)
        return NULL;
    autocast_cache_disabled = !v;
    Py_RETURN_NONE;
}

static PyObject *
clear_autocast_cache(PyObject *self, PyObject *unused)
{
    if (cast_cache)
        PyDict_Clear(cast_cache);
    Py_RETURN_NONE;
}

static PyObject *
autocast_increment_nesting(PyObject *self, PyObject *unused)
{
    return PyLong_FromLong(++autocast_nesting);
}

static PyObject *
autocast_decrement_nesting(PyObject *self, PyObject *unused)
{
    return PyLong_FromLong(--autocast_nesting);
}

static PyObject *
is_autocast_available(PyObject *self, PyObject *dev)
{
    const char *s = PyUnicode_Check(dev) ? PyUnicode_AsUTF8AndSize(dev, NULL) : NULL;
    return PyBool_FromLong(s && (!strcmp(s, "cpu") || !strcmp(s, "cuda") || !strcmp(s, "xpu") ||
                                 !strcmp(s, "mps") || !strcmp(s, "hpu") || !strcmp(s, "mtia") ||
                                 !strcmp(s, "xla") || !strcmp(s, "privateuseone") || !strcmp(s, "ipu")));
}


/* ---- policies ---- */

enum { POLICY_NONE = 0, POLICY_LOWER, POLICY_FP32, POLICY_PROMOTE };

/* upstream's CPU registrations (torch._C._dispatch_get_registrations_for_dispatch_key("AutocastCPU")) */
static const struct {
    const char *name;  /* "aten::conv1d.padding" */
    unsigned char policy;
} autocast_policies[] = {
    {"aten::conv1d", POLICY_LOWER}, {"aten::conv1d.padding", POLICY_LOWER}, {"aten::conv2d", POLICY_LOWER},
    {"aten::conv2d.padding", POLICY_LOWER}, {"aten::conv3d", POLICY_LOWER}, {"aten::conv3d.padding", POLICY_LOWER},
    {"aten::bmm", POLICY_LOWER}, {"aten::mm", POLICY_LOWER}, {"aten::linalg_vecdot", POLICY_LOWER},
    {"aten::baddbmm", POLICY_LOWER}, {"aten::addmm", POLICY_LOWER}, {"aten::_addmm_activation", POLICY_LOWER},
    {"aten::addbmm", POLICY_LOWER}, {"aten::linear", POLICY_LOWER}, {"aten::_convolution.deprecated", POLICY_LOWER},
    {"aten::matmul", POLICY_LOWER}, {"aten::conv_tbc", POLICY_LOWER}, {"aten::mkldnn_rnn_layer", POLICY_LOWER},
    {"aten::conv_transpose1d", POLICY_LOWER}, {"aten::conv_transpose2d.input", POLICY_LOWER},
    {"aten::conv_transpose3d.input", POLICY_LOWER}, {"aten::prelu", POLICY_LOWER},
    {"aten::scaled_dot_product_attention", POLICY_LOWER}, {"aten::_native_multi_head_attention", POLICY_LOWER},
    {"aten::avg_pool3d", POLICY_FP32}, {"aten::binary_cross_entropy", POLICY_FP32}, {"aten::grid_sampler", POLICY_FP32},
    {"aten::polar", POLICY_FP32}, {"aten::prod", POLICY_FP32}, {"aten::prod.dim_int", POLICY_FP32},
    {"aten::quantile", POLICY_FP32}, {"aten::quantile.scalar", POLICY_FP32}, {"aten::nanquantile", POLICY_FP32},
    {"aten::nanquantile.scalar", POLICY_FP32}, {"aten::stft", POLICY_FP32}, {"aten::stft.center", POLICY_FP32},
    {"aten::cdist", POLICY_FP32}, {"aten::grid_sampler_2d", POLICY_FP32},
    {"aten::_grid_sampler_2d_cpu_fallback", POLICY_FP32}, {"aten::grid_sampler_3d", POLICY_FP32},
    {"aten::trace", POLICY_FP32}, {"aten::view_as_complex", POLICY_FP32}, {"aten::cholesky", POLICY_FP32},
    {"aten::cholesky_inverse", POLICY_FP32}, {"aten::cholesky_solve", POLICY_FP32}, {"aten::inverse", POLICY_FP32},
    {"aten::lu_solve", POLICY_FP32}, {"aten::orgqr", POLICY_FP32}, {"aten::ormqr", POLICY_FP32},
    {"aten::pinverse", POLICY_FP32}, {"aten::max_pool3d", POLICY_FP32}, {"aten::max_unpool2d", POLICY_FP32},
    {"aten::max_unpool3d", POLICY_FP32}, {"aten::adaptive_avg_pool3d", POLICY_FP32},
    {"aten::reflection_pad1d", POLICY_FP32}, {"aten::reflection_pad2d", POLICY_FP32},
    {"aten::replication_pad1d", POLICY_FP32}, {"aten::replication_pad2d", POLICY_FP32},
    {"aten::replication_pad3d", POLICY_FP32}, {"aten::mse_loss", POLICY_FP32},
    {"aten::cosine_embedding_loss", POLICY_FP32}, {"aten::nll_loss", POLICY_FP32}, {"aten::nll_loss2d", POLICY_FP32},
    {"aten::hinge_embedding_loss", POLICY_FP32}, {"aten::poisson_nll_loss", POLICY_FP32},
    {"aten::smooth_l1_loss", POLICY_FP32}, {"aten::cross_entropy_loss", POLICY_FP32}, {"aten::l1_loss", POLICY_FP32},
    {"aten::huber_loss", POLICY_FP32}, {"aten::margin_ranking_loss", POLICY_FP32},
    {"aten::soft_margin_loss", POLICY_FP32}, {"aten::triplet_margin_loss", POLICY_FP32},
    {"aten::multi_margin_loss", POLICY_FP32}, {"aten::ctc_loss.IntList", POLICY_FP32},
    {"aten::ctc_loss.Tensor", POLICY_FP32}, {"aten::kl_div", POLICY_FP32}, {"aten::multilabel_margin_loss", POLICY_FP32},
    {"aten::binary_cross_entropy_with_logits", POLICY_FP32}, {"aten::fft_fft", POLICY_FP32},
    {"aten::fft_ifft", POLICY_FP32}, {"aten::fft_fft2", POLICY_FP32}, {"aten::fft_ifft2", POLICY_FP32},
    {"aten::fft_fftn", POLICY_FP32}, {"aten::fft_ifftn", POLICY_FP32}, {"aten::fft_rfft", POLICY_FP32},
    {"aten::fft_irfft", POLICY_FP32}, {"aten::fft_rfft2", POLICY_FP32}, {"aten::fft_irfft2", POLICY_FP32},
    {"aten::fft_rfftn", POLICY_FP32}, {"aten::fft_irfftn", POLICY_FP32}, {"aten::fft_hfft", POLICY_FP32},
    {"aten::fft_ihfft", POLICY_FP32}, {"aten::linalg_cond", POLICY_FP32}, {"aten::linalg_cond.p_str", POLICY_FP32},
    {"aten::linalg_matrix_rank", POLICY_FP32}, {"aten::linalg_matrix_rank.tol_tensor", POLICY_FP32},
    {"aten::linalg_matrix_rank.atol_rtol_tensor", POLICY_FP32},
    {"aten::linalg_matrix_rank.atol_rtol_float", POLICY_FP32}, {"aten::linalg_solve", POLICY_FP32},
    {"aten::linalg_cholesky", POLICY_FP32}, {"aten::linalg_svdvals", POLICY_FP32}, {"aten::linalg_eigvals", POLICY_FP32},
    {"aten::linalg_eigvalsh", POLICY_FP32}, {"aten::linalg_inv", POLICY_FP32},
    {"aten::linalg_householder_product", POLICY_FP32}, {"aten::linalg_tensorinv", POLICY_FP32},
    {"aten::linalg_tensorsolve", POLICY_FP32}, {"aten::fake_quantize_per_tensor_affine", POLICY_FP32},
    {"aten::geqrf", POLICY_FP32}, {"aten::_lu_with_info", POLICY_FP32}, {"aten::qr", POLICY_FP32},
    {"aten::svd", POLICY_FP32}, {"aten::triangular_solve", POLICY_FP32}, {"aten::fractional_max_pool2d", POLICY_FP32},
    {"aten::fractional_max_pool3d", POLICY_FP32}, {"aten::adaptive_max_pool3d", POLICY_FP32},
    {"aten::multilabel_margin_loss_forward", POLICY_FP32}, {"aten::linalg_qr", POLICY_FP32},
    {"aten::linalg_cholesky_ex", POLICY_FP32}, {"aten::linalg_svd", POLICY_FP32}, {"aten::linalg_eig", POLICY_FP32},
    {"aten::linalg_eigh", POLICY_FP32}, {"aten::linalg_lstsq", POLICY_FP32}, {"aten::linalg_inv_ex", POLICY_FP32},
    {"aten::stack", POLICY_PROMOTE}, {"aten::cat", POLICY_PROMOTE}, {"aten::index_copy", POLICY_PROMOTE},
};

/* policy by op id (aten ops only: upstream registers no other namespace for AutocastCPU) */
static unsigned char op_policy[TN_NUM_ATEN_OPS];


static int
lower_precision(void)
{
    return autocast_dtype_set[TN_AC_CPU] ? autocast_dtype[TN_AC_CPU] : TN_DTYPE_BF16;
}

/* is_autocast_eligible and not float64: a floating tensor on the CPU */
static int
eligible(const TensorObject *t)
{
    return t && t->device == TN_DEVICE_CPU && tn_dtype_is_floating(t->dtype) && t->dtype != TN_DTYPE_F64;
}

/* upstream's prioritize: the dtype promote-policy ops compute in */
static int
prioritize(int current, const TensorObject *t)
{
    if (!eligible(t))
        return current;
    int lp = lower_precision();
    if (current == TN_DTYPE_F32 || t->dtype == TN_DTYPE_F32)
        return TN_DTYPE_F32;
    if (current == lp && t->dtype == lp)
        return lp;
    PyErr_SetString(PyExc_RuntimeError, "Unexpected floating ScalarType in at::autocast::prioritize");
    return -1;
}

/* t cast to dtype through aten::to (a new reference), from the cache when upstream caches */
static PyObject *
cast_to(TensorObject *t, int dtype)
{
    int cacheable = dtype == lower_precision() && t->dtype == TN_DTYPE_F32 && t->requires_grad && !t->grad_fn &&
                    !t->is_view && !autocast_cache_disabled;
    PyObject *key = NULL;
    if (cacheable) {
        if (!cast_cache && !(cast_cache = PyDict_New()))
            return NULL;
        key = PyLong_FromVoidPtr(t);
        PyObject *hit = key ? PyDict_GetItemWithError(cast_cache, key) : NULL;
        if (hit) {
            Py_DECREF(key);
            return Py_NewRef(PyTuple_GetItem(hit, 1));
        }
        if (!key || PyErr_Occurred()) {
            Py_XDECREF(key);
            return NULL;
        }
    }
    /* upstream's arg.to(dtype): aten::to is a composite over _to_copy, which the door (and a
     * __torch_dispatch__ mode) sees */
    tn_value a[7];
    memset(a, 0, sizeof a);
    a[0] = tn_value_tensor((PyObject *)t);
    a[1].tag = TN_V_DTYPE;
    a[1].u.i = dtype;
    a[3].dev_index = -1;
    a[5].tag = TN_V_BOOL;
    PyObject *r = tn_call(TN_OP__to_copy, a);
    if (r && key) {
        PyObject *entry = PyTuple_Pack(2, (PyObject *)t, r);
        if (!entry || PyDict_SetItem(cast_cache, key, entry) < 0)
            Py_CLEAR(r);
        Py_XDECREF(entry);
    }
    Py_XDECREF(key);
    return r;
}

enum { MAX_CASTS = 64 };

typedef struct {
    PyObject *owned[MAX_CASTS];  /* casts made for this call */
    int n;
    PyObject **lists[8];         /* tensor lists rebuilt for this call */
    int nlists;
} cast_scratch;

static int
keep(cast_scratch *sc, PyObject *o)
{
    if (sc->n == MAX_CASTS) {
        Py_DECREF(o);
        PyErr_SetString(PyExc_RuntimeError, "torchnative autocast: too many tensor arguments to cast");
        return -1;
    }
    sc->owned[sc->n++] = o;
    return 0;
}

static PyObject *
autocast_dispatch(tn_op *op, tn_value *args)
{
    tn_schema *s = op->parsed ? op->parsed : tn_op_schema(op);
    if (!s)
        return NULL;
    int n = s->nparams, policy = op_policy[op->id];
    int target = policy == POLICY_LOWER ? lower_precision() : TN_DTYPE_F32;
    if (policy == POLICY_PROMOTE) {
        target = lower_precision();
        for (int i = 0; i < n && target >= 0; i++) {
            if (args[i].tag == TN_V_TENSOR)
                target = prioritize(target, TN_T(args[i].u.t));
            else if (args[i].tag == TN_V_TENSORLIST)
                for (Py_ssize_t k = 0; k < args[i].n && target >= 0; k++)
                    if (args[i].u.tensors[k])
                        target = prioritize(target, TN_T(args[i].u.tensors[k]));
        }
        if (target < 0)
            return NULL;
    }
    tn_value local[n > 0 ? n : 1];
    memcpy(local, args, sizeof(tn_value) * (size_t)n);
    cast_scratch sc = {.n = 0, .nlists = 0};
    PyObject *result = NULL;
    for (int i = 0; i < n; i++) {
        if (local[i].tag == TN_V_TENSOR) {
            TensorObject *t = TN_T(local[i].u.t);
            if (!eligible(t) || t->dtype == target)
                continue;
            PyObject *c = cast_to(t, target);
            if (!c || keep(&sc, c) < 0)
                goto done;
            local[i].u.t = c;
        } else if (local[i].tag == TN_V_TENSORLIST) {
            PyObject **items = NULL;
            for (Py_ssize_t k = 0; k < local[i].n; k++) {
                PyObject *e = local[i].u.tensors[k];
                if (!e || !eligible(TN_T(e)) || TN_T(e)->dtype == target)
                    continue;
                if (!items) {
                    if (sc.nlists == TN_ARRAY_LEN(sc.lists)) {
                        PyErr_SetString(PyExc_RuntimeError, "torchnative autocast: too many tensor lists to cast");
                        goto done;
                    }
                    items = PyMem_Malloc(sizeof(PyObject *) * (size_t)local[i].n);
                    if (!items) {
                        PyErr_NoMemory();
                        goto done;
                    }
                    memcpy(items, local[i].u.tensors, sizeof(PyObject *) * (size_t)local[i].n);
                    sc.lists[sc.nlists++] = items;
                }
                PyObject *c = cast_to(TN_T(e), target);
                if (!c || keep(&sc, c) < 0)
                    goto done;
                items[k] = c;
            }
            if (items)
                local[i].u.tensors = items;
        }
    }
    {
        /* the op runs with autocast excluded (upstream's ExcludeDispatchKeyGuard) */
        int saved = tn_autocast_enabled[TN_AC_CPU];
        tn_autocast_enabled[TN_AC_CPU] = 0;
        result = tn_dispatch(op, local);
        tn_autocast_enabled[TN_AC_CPU] = saved;
    }
done:
    for (int i = 0; i < sc.n; i++)
        Py_DECREF(sc.owned[i]);
    for (int i = 0; i < sc.nlists; i++)
        PyMem_Free(sc.lists[i]);
    return result;
}

PyObject *
tn_autocast_dispatch(tn_op *op, tn_value *args)
{
    return autocast_dispatch(op, args);
}

/* _torchnative.autocast_policies(): {"aten::mm": "lower_precision_fp", ...} for the tests */
static PyObject *
policies(PyObject *self, PyObject *unused)
{
    static const char *const names[] = {"", "lower_precision_fp", "fp32", "promote"};
    PyObject *d = PyDict_New();
    for (int i = 0; d && i < TN_ARRAY_LEN(autocast_policies); i++) {
        PyObject *v = PyUnicode_FromString(names[autocast_policies[i].policy]);
        if (!v || PyDict_SetItemString(d, autocast_policies[i].name, v) < 0)
            Py_CLEAR(d);
        Py_XDECREF(v);
    }
    return d;
}

#define FC(name, fn) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, NULL}
static PyMethodDef autocast_functions[] = {
    FC("is_autocast_enabled", is_autocast_enabled),
    FC("set_autocast_enabled", set_autocast_enabled),
    {"is_autocast_cpu_enabled", is_autocast_cpu_enabled, METH_NOARGS, NULL},
    {"set_autocast_cpu_enabled", set_autocast_cpu_enabled, METH_O, NULL},
    {"_is_any_autocast_enabled", is_any_autocast_enabled, METH_NOARGS, NULL},
    {"get_autocast_dtype", get_autocast_dtype, METH_O, NULL},
    FC("set_autocast_dtype", set_autocast_dtype),
    {"get_autocast_cpu_dtype", get_autocast_cpu_dtype, METH_NOARGS, NULL},
    {"set_autocast_cpu_dtype", set_autocast_cpu_dtype, METH_O, NULL},
    {"is_autocast_cache_enabled", is_autocast_cache_enabled, METH_NOARGS, NULL},
    {"set_autocast_cache_enabled", set_autocast_cache_enabled, METH_O, NULL},
    {"clear_autocast_cache", clear_autocast_cache, METH_NOARGS, NULL},
    {"autocast_increment_nesting", autocast_increment_nesting, METH_NOARGS, NULL},
    {"autocast_decrement_nesting", autocast_decrement_nesting, METH_NOARGS, NULL},
    {"_is_autocast_available", is_autocast_available, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef autocast_private_functions[] = {
    {"autocast_policies", policies, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

int
tn_autocast_init(PyObject *module, PyObject *private_module)
{
    for (int i = 0; i < TN_ARRAY_LEN(autocast_policies); i++) {
        char name[128];
        snprintf(name, sizeof name, "%s", autocast_policies[i].name);
        char *dot = strchr(name + 6, '.');
        const char *overload = "";
        if (dot) {
            *dot = 0;
            overload = dot + 1;
        }
        tn_op *op = tn_find_op(name, overload);
        if (!op || op->id < 0 || op->id >= TN_NUM_ATEN_OPS) {
            PyErr_Format(PyExc_RuntimeError, "torchnative: autocast policy for unknown op %s", autocast_policies[i].name);
            return -1;
        }
        op_policy[op->id] = autocast_policies[i].policy;
        op->flags |= TN_OPF_AUTOCAST;
    }
    if (PyModule_AddFunctions(module, autocast_functions) < 0)
        return -1;
    return PyModule_AddFunctions(private_module, autocast_private_functions);
}
