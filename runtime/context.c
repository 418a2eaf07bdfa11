/* torch._C's global settings: at::globalContext() and its neighbours (see context.h), with the
 * getters and setters upstream binds in torch/csrc/Module.cpp (THP style: METH_O, RuntimeError
 * "X expects a bool, but got T") and by pybind11 (TypeError "incompatible function arguments").
 * Each function follows upstream 2.13.0's accepted types, messages and exception classes as
 * measured on .venv-upstream (tests/python/test_context.py compares them).
 * To add a setting: field + default (context.h, context_defaults), a getter/setter pair, a row
 * in tn_context_functions.
 */
#include "context.h"
#include "device.h"
#include "tls.h"
#include "torch_function.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <xmmintrin.h>
#endif
#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#include <sys/prctl.h>
#endif


TN_INTERNAL tn_context_state tn_context;
TN_INTERNAL _Thread_local tn_context_tls_state tn_context_tls;

/* c10::utils::check_env: "1" -> 1, "0" -> 0, anything else (or unset) -> -1. */
static int
check_env(const char *name)
{
    const char *v = getenv(name);
    if (!v)
        return -1;
    return !strcmp(v, "1") ? 1 : !strcmp(v, "0") ? 0 : -1;
}

/* The member initialisers of at::Context (ATen/Context.h), including the environment variables
 * upstream reads when the context is built. */
static void
context_defaults(void)
{
    tn_context_state *c = &tn_context;
    memset(c, 0, sizeof *c);
    c->deterministic_fill_uninitialized_memory = true;
    c->sdp_flash = c->sdp_mem_efficient = c->sdp_math = c->sdp_cudnn = c->sdp_overrideable = true;
    static const int32_t order[TN_SDP_NBACKENDS] = {TN_SDP_FLASH, TN_SDP_EFFICIENT, TN_SDP_MATH, TN_SDP_CUDNN,
                                                   TN_SDP_OVERRIDEABLE};
    memcpy(c->sdp_priority_order, order, sizeof order);
    int tf32_override = check_env("TORCH_ALLOW_TF32_CUBLAS_OVERRIDE") == 1;
    c->float32_matmul_precision = tf32_override ? TN_MATMUL_HIGH : TN_MATMUL_HIGHEST;
    /* Float32Precision::DEFAULT on cuda conv/rnn: "the legacy default unless a parent overrides" */
    c->fp32_precision[TN_FP32_CUDA][TN_FP32_CONV] = TN_PREC_DEFAULT;
    c->fp32_precision[TN_FP32_CUDA][TN_FP32_RNN] = TN_PREC_DEFAULT;
    c->fp32_precision[TN_FP32_CUDA][TN_FP32_MATMUL] = tf32_override ? TN_PREC_TF32 : TN_PREC_NONE;
    c->allow_tf32_cudnn = true;
    c->cudnn_enabled = true;
    c->mkldnn_enabled = true;
    c->nnpack_enabled = true;
    c->linalg_backend =
        check_env("TORCH_LINALG_PREFER_CUSOLVER") == 1 || check_env("TORCH_LINALG_PREFER_HIPSOLVER") == 1;
    int lt = check_env("TORCH_BLAS_PREFER_CUBLASLT"), hiplt = check_env("TORCH_BLAS_PREFER_HIPBLASLT");
    c->blas_backend = (lt == 1 || hiplt == 1) ? 2 : (lt == 0 || hiplt == 0) ? 1 : 0;
    c->rocm_fa_backend = check_env("TORCH_ROCM_FA_PREFER_CK") == 1 ? 2 : 0;
    c->warn_on_accumulate_grad_stream_mismatch = true;
    c->qengine = TN_QENGINE_NONE;
    c->check_sparse_tensor_invariants = -1;
    c->autograd_fallback_mode = TN_AUTOGRAD_FALLBACK_WARN;
}

/* ---- argument helpers ---- */

/* THPUtils_typename: the C-level type name (numpy.bool, not bool; a Python class's own name). */
static const char *
thp_typename(PyObject *o, char *buf, size_t n)
{
    PyTypeObject *tp = Py_TYPE(o);
    PyObject *name = PyType_GetName(tp);
    int heap = (PyType_GetFlags(tp) & Py_TPFLAGS_HEAPTYPE) != 0;
    PyObject *mod = heap ? NULL : PyObject_GetAttrString((PyObject *)tp, "__module__");
    if (!mod)
        PyErr_Clear();
    const char *s = name ? PyUnicode_AsUTF8AndSize(name, NULL) : NULL;
    const char *m = mod && PyUnicode_Check(mod) ? PyUnicode_AsUTF8AndSize(mod, NULL) : NULL;
    if (m && strcmp(m, "builtins"))
        snprintf(buf, n, "%s.%s", m, s ? s : "?");
    else
        snprintf(buf, n, "%s", s ? s : "?");
    if (!s || (mod && !m))
        PyErr_Clear();
    Py_XDECREF(name);
    Py_XDECREF(mod);
    return buf;
}

/* THPUtils_assert's RuntimeError; fmt has one %s for the type name. */
static PyObject *
thp_type_error(const char *fmt, PyObject *arg)
{
    char tn[160], msg[320];
    snprintf(msg, sizeof msg, fmt, thp_typename(arg, tn, sizeof tn));
    PyErr_SetString(PyExc_RuntimeError, msg);
    return NULL;
}

static int
is_numpy_int(PyObject *o)
{
    PyObject *np = PyDict_GetItemString(PyImport_GetModuleDict(), "numpy");
    if (!np)
        return 0;
    PyObject *integer = PyObject_GetAttrString(np, "integer");
    int r = integer ? PyObject_IsInstance(o, integer) : -1;
    Py_XDECREF(integer);
    if (r < 0) {
        PyErr_Clear();
        r = 0;
    }
    return r;
}

/* THPUtils_checkLong / THPUtils_unpackLong */
static int
thp_check_long(PyObject *o)
{
    return (PyLong_Check(o) && !PyBool_Check(o)) || is_numpy_int(o);
}

static int
thp_unpack_long(PyObject *o, long long *out)
{
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow) {
        PyErr_SetString(PyExc_ValueError, "Overflow when unpacking long long");
        return -1;
    }
    if (v == -1 && PyErr_Occurred())
        return -1;
    *out = v;
    return 0;
}

/* THPUtils_checkString / THPUtils_unpackString: str or bytes, as a new bytes object. */
static PyObject *
thp_string(PyObject *o)
{
    if (PyBytes_Check(o))
        return Py_NewRef(o);
    return PyUnicode_AsUTF8String(o);
}

/* pybind11's bool caster (convert pass): True/False; None is False; anything whose type has
 * nb_bool returning 0 or 1. 0/1, or -1 when it does not convert (no exception set). */
static int
pyb_bool(PyObject *o)
{
    if (o == Py_True)
        return 1;
    if (o == Py_False || o == Py_None)
        return 0;
    inquiry nb_bool = (inquiry)PyType_GetSlot(Py_TYPE(o), Py_nb_bool);
    if (!nb_bool)
        return -1;
    int r = nb_bool(o);
    if (r != 0 && r != 1) {
        PyErr_Clear();
        return -1;
    }
    return r;
}

/* pybind11's std::string caster: str (UTF-8), bytes or bytearray, as a new bytes object; NULL
 * (no exception set) when it does not convert. */
static PyObject *
pyb_string(PyObject *o)
{
    PyObject *r = NULL;
    if (PyUnicode_Check(o))
        r = PyUnicode_AsUTF8String(o);
    else if (PyBytes_Check(o))
        r = Py_NewRef(o);
    else if (PyByteArray_Check(o))
        r = PyBytes_FromStringAndSize(PyByteArray_AsString(o), PyByteArray_Size(o));
    if (!r)
        PyErr_Clear();
    return r;
}

/* pybind11's int caster for int32_t: ints and __index__ objects (bool included), objects with
 * only __int__ through int(); never float. -1 when it does not convert (no exception set). */
static int
pyb_int32(PyObject *o, int32_t *out)
{
    if (PyFloat_Check(o))
        return -1;
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        if (!PyNumber_Check(o))
            return -1;
        PyObject *as_int = PyNumber_Long(o);
        if (!as_int) {
            PyErr_Clear();
            return -1;
        }
        v = PyLong_AsLong(as_int);
        Py_DECREF(as_int);
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return -1;
        }
    }
    if (v != (int32_t)v)
        return -1;
    *out = (int32_t)v;
    return 0;
}

/* pybind11's TypeError when no overload matches. sig is the one overload, "(arg0: bool) -> None". */
static PyObject *
pyb_incompatible(const char *name, const char *sig, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *parts = PyList_New(0);
    if (!parts)
        return NULL;
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyObject *r = PyObject_Repr(args[i]);
        if (!r || PyList_Append(parts, r) < 0) {
            Py_XDECREF(r);
            Py_DECREF(parts);
            return NULL;
        }
        Py_DECREF(r);
    }
    PyObject *sep = PyUnicode_FromString(", ");
    PyObject *invoked = sep ? PyUnicode_Join(sep, parts) : NULL;
    Py_DECREF(parts);
    Py_ssize_t nkw = kwnames ? PyTuple_Size(kwnames) : 0;
    if (invoked && nkw) {
        PyObject *kw = PyList_New(0);
        for (Py_ssize_t i = 0; kw && i < nkw; i++) {
            PyObject *item = PyUnicode_FromFormat("%U=%R", PyTuple_GetItem(kwnames, i), args[nargs + i]);
            if (!item || PyList_Append(kw, item) < 0)
                Py_CLEAR(kw);
            Py_XDECREF(item);
        }
        PyObject *kwtext = kw ? PyUnicode_Join(sep, kw) : NULL;
        Py_XDECREF(kw);
        PyObject *joined = kwtext ? PyUnicode_FromFormat("%U%skwargs: %U", invoked, nargs ? "; " : "", kwtext) : NULL;
        Py_XDECREF(kwtext);
        TN_SETREF(invoked, joined);
    }
    Py_XDECREF(sep);
    if (!invoked)
        return NULL;
    PyObject *msg = PyUnicode_FromFormat("%s(): incompatible function arguments. The following argument types are "
                                         "supported:\n    1. %s\n\nInvoked with: %U", name, sig, invoked);
    Py_DECREF(invoked);
    if (msg) {
        PyErr_SetObject(PyExc_TypeError, msg);
        Py_DECREF(msg);
    }
    return NULL;
}

/* TORCH_WARN_ONCE outside a Python-handled call (upstream's pybind11 bindings): c10's default
 * handler prints to stderr, once per site unless warnAlways is set. */
static void
warn_once_stderr(bool *done, const char *msg)
{
    if (*done && !tn_context.warn_always)
        return;
    *done = true;
    fprintf(stderr, "[W context.c] Warning: %s\n", msg);
}

/* ---- plain boolean flags (THP style) ---- */

#define TN_BOOL_FLAG(getter, setter, field, fmt)                     \
    static PyObject *                                                \
    getter(PyObject *self, PyObject *unused)                         \
    {                                                                \
        return PyBool_FromLong(tn_context.field);                    \
    }                                                                \
    static PyObject *                                                \
    setter(PyObject *self, PyObject *arg)                            \
    {                                                                \
        if (!PyBool_Check(arg))                                      \
            return thp_type_error(fmt, arg);                         \
        tn_context.field = arg == Py_True;                           \
        Py_RETURN_NONE;                                              \
    }

/* The messages are upstream's, copy-paste slips included (flash says set_sdp_use_math). */
TN_BOOL_FLAG(get_cudnn_enabled, set_cudnn_enabled, cudnn_enabled, "set_enabled_cudnn expects a bool, but got %s")
TN_BOOL_FLAG(get_flash_sdp_enabled, set_sdp_use_flash, sdp_flash, "set_sdp_use_math expects a bool, but got %s")
TN_BOOL_FLAG(get_fa3_sdp_enabled, set_sdp_use_fa3, sdp_fa3, "set_sdp_use_fa3 expects a bool, but got %s")
TN_BOOL_FLAG(get_mem_efficient_sdp_enabled, set_sdp_use_mem_efficient, sdp_mem_efficient,
             "set_sdp_use_math expects a bool, but got %s")
TN_BOOL_FLAG(get_math_sdp_enabled, set_sdp_use_math, sdp_math, "set_sdp_use_math expects a bool, but got %s")
TN_BOOL_FLAG(get_math_sdp_allow_fp16_bf16_reduction, set_math_sdp_allow_fp16_bf16_reduction,
             math_sdp_allow_fp16_bf16_reduction, "set_sdp_use_math expects a bool, but got %s")
TN_BOOL_FLAG(get_overrideable_sdp_enabled, set_sdp_use_overrideable, sdp_overrideable,
             "set_sdp_use_overrideable expects a bool, but got %s")
TN_BOOL_FLAG(get_cudnn_sdp_enabled, set_sdp_use_cudnn, sdp_cudnn, "set_sdp_use_cudnn expects a bool, but got %%s%s")
TN_BOOL_FLAG(get_mkldnn_enabled, set_mkldnn_enabled, mkldnn_enabled, "set_enabled_mkldnn expects a bool, but got %s")
TN_BOOL_FLAG(get_cudnn_benchmark, set_cudnn_benchmark, cudnn_benchmark,
             "set_benchmark_cudnn expects a bool, but got %s")
TN_BOOL_FLAG(get_miopen_immediate, set_miopen_immediate, miopen_immediate,
             "set_immediate_miopen expects a bool, but got %s")
TN_BOOL_FLAG(get_cudnn_deterministic, set_cudnn_deterministic, cudnn_deterministic,
             "set_deterministic_cudnn expects a bool, but got %s")
TN_BOOL_FLAG(get_mkldnn_deterministic, set_mkldnn_deterministic, mkldnn_deterministic,
             "set_deterministic_mkldnn expects a bool, but got %s")
TN_BOOL_FLAG(get_deterministic_fill_uninitialized_memory, set_deterministic_fill_uninitialized_memory,
             deterministic_fill_uninitialized_memory, "expected a bool, but got %s")
TN_BOOL_FLAG(get_nnpack_enabled, set_nnpack_enabled, nnpack_enabled, "set_enabled_NNPACK expects a bool, but got %s")
TN_BOOL_FLAG(get_warn_always, set_warn_always, warn_always, "setWarnOnlyOnce expects a bool, but got %s")
TN_BOOL_FLAG(get_cublas_allow_fp16_accumulation, set_cublas_allow_fp16_accumulation, cublas_fp16_accumulation,
             "set_allow_fp16_accumulation_cublas expects a bool, but got %s")
TN_BOOL_FLAG(get_backcompat_broadcast_warn, set_backcompat_broadcast_warn, backcompat_broadcast_warn,
             "set_backcompat_broadcast_warn expects a bool, but got %s")
TN_BOOL_FLAG(get_backcompat_keepdim_warn, set_backcompat_keepdim_warn, backcompat_keepdim_warn,
             "set_backcompat_keepdim_warn expects a bool, but got %s")
TN_BOOL_FLAG(get_override_stale_capture_stream, set_override_stale_capture_stream, override_stale_capture_stream,
             "enabled must be a bool, but got %s")

static PyObject *
set_warn_on_accumulate_grad_stream_mismatch(PyObject *self, PyObject *arg)
{
    if (!PyBool_Check(arg))
        return thp_type_error("enabled must be a bool, but got %s", arg);
    tn_context.warn_on_accumulate_grad_stream_mismatch = arg == Py_True;
    Py_RETURN_NONE;
}

/* _get_onednn_allow_tf32 returns None upstream (its binding returns nothing); the setter only
 * warns on a build without XPU. */
static PyObject *
get_onednn_allow_tf32(PyObject *self, PyObject *unused)
{
    Py_RETURN_NONE;
}

static PyObject *
set_onednn_allow_tf32(PyObject *self, PyObject *arg)
{
    if (!PyBool_Check(arg))
        return thp_type_error("_set_onednn_allow_tf32 expects a bool, but got %s", arg);
    if (PyErr_WarnEx(PyExc_UserWarning,
                     "TF32 acceleration on top of oneDNN is available for Intel GPUs. The current Torch version "
                     "does not have Intel GPU Support.", 1) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* ---- determinism ---- */

static PyObject *
get_deterministic_algorithms(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(tn_context.deterministic_algorithms);
}

static PyObject *
get_deterministic_algorithms_warn_only(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(tn_context.deterministic_warn_only);
}

/* A one-signature PythonArgParser call whose parameters are all bool: positional names first,
 * then keyword-only ones; out[i] is 0/1, or -1 when not given (a default). Checks and messages
 * in upstream's order: too many positionals, then per parameter (given twice, missing, type),
 * then unknown keywords. */
static int
parse_bools(const char *fname, const char *const *names, int npos, int nall, PyObject *const *args,
            Py_ssize_t nargs, PyObject *kwnames, int *out)
{
    if (nargs > npos) {
        PyErr_Format(PyExc_TypeError, "%s() takes %d positional argument%s but %zd were given", fname, npos,
                     npos == 1 ? "" : "s", nargs);
        return -1;
    }
    Py_ssize_t nkw = kwnames ? PyTuple_Size(kwnames) : 0;
    PyObject *given[8] = {NULL};
    int used = 0;
    for (int j = 0; j < nall; j++) {
        PyObject *kw = NULL;
        for (Py_ssize_t k = 0; k < nkw; k++)
            if (PyUnicode_CompareWithASCIIString(PyTuple_GetItem(kwnames, k), names[j]) == 0)
                kw = args[nargs + k];
        if (kw)
            used++;
        if (j < nargs && kw) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fname, names[j]);
            return -1;
        }
        given[j] = j < nargs ? args[j] : kw;
        if (!given[j] && j < npos) {
            char list[128] = "";
            int missing = 0;
            for (int m = j; m < npos; m++) {
                int present = m < nargs;
                for (Py_ssize_t k = 0; !present && k < nkw; k++)
                    present = PyUnicode_CompareWithASCIIString(PyTuple_GetItem(kwnames, k), names[m]) == 0;
                if (!present) {
                    size_t len = strlen(list);
                    snprintf(list + len, sizeof list - len, "%s\"%s\"", missing ? ", " : "", names[m]);
                    missing++;
                }
            }
            PyErr_Format(PyExc_TypeError, "%s() missing %d required positional arguments: %s", fname, missing, list);
            return -1;
        }
        out[j] = -1;
        if (!given[j])
            continue;
        if (!PyBool_Check(given[j])) {
            char tn[160];
            thp_typename(given[j], tn, sizeof tn);
            if (j < npos)
                PyErr_Format(PyExc_TypeError, "%s(): argument '%s' (position %d) must be bool, not %s", fname,
                             names[j], j + 1, tn);
            else
                PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be bool, not %s", fname, names[j], tn);
            return -1;
        }
        out[j] = given[j] == Py_True;
    }
    if (used < nkw) {
        for (Py_ssize_t k = 0; k < nkw; k++) {
            PyObject *key = PyTuple_GetItem(kwnames, k);
            int known = 0;
            for (int j = 0; j < nall && !known; j++)
                known = PyUnicode_CompareWithASCIIString(key, names[j]) == 0;
            if (!known) {
                PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fname, key);
                return -1;
            }
        }
    }
    return 0;
}

/* _set_deterministic_algorithms(bool mode, *, bool warn_only=False) */
static PyObject *
set_deterministic_algorithms(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"mode", "warn_only"};
    int v[2];
    if (parse_bools("_set_deterministic_algorithms", names, 1, 2, args, nargs, kwnames, v) < 0)
        return NULL;
    tn_context.deterministic_algorithms = v[0];
    tn_context.deterministic_warn_only = v[1] == 1;
    Py_RETURN_NONE;
}

int
tn_alert_not_deterministic(const char *caller)
{
    if (!tn_context.deterministic_algorithms)
        return 0;
    if (tn_context.deterministic_warn_only)
        return PyErr_WarnFormat(PyExc_UserWarning, 1,
                                "%s does not have a deterministic implementation, but you set "
                                "'torch.use_deterministic_algorithms(True, warn_only=True)'. You can file an issue at "
                                "https://github.com/pytorch/pytorch/issues to help us prioritize adding deterministic "
                                "support for this operation.", caller);
    PyErr_Format(PyExc_RuntimeError,
                 "%s does not have a deterministic implementation, but you set "
                 "'torch.use_deterministic_algorithms(True)'. You can turn off determinism just for this operation, "
                 "or you can use the 'warn_only=True' option, if that's acceptable for your application. You can also "
                 "file an issue at https://github.com/pytorch/pytorch/issues to help us prioritize adding "
                 "deterministic support for this operation.", caller);
    return -1;
}

/* ---- float32 precision ---- */

static const char *const fp32_backend_names[] = {"generic", "cuda", "mkldnn"};
static const char *const fp32_op_names[] = {"all", "conv", "rnn", "matmul"};
static const char *const fp32_precision_names[] = {"none", "ieee", "tf32", "bf16"};

static int
fp32_valid_pair(int backend, int op)
{
    return backend != TN_FP32_GENERIC || op == TN_FP32_ALL;
}

static int
fp32_check_pair(int backend, int op)
{
    if (fp32_valid_pair(backend, op))
        return 0;
    PyErr_Format(PyExc_RuntimeError, "Invalid (backend, op) pair: (%d, %d)", backend, op);
    return -1;
}

int
tn_fp32_precision(int backend, int op)
{
    if (fp32_check_pair(backend, op) < 0)
        return -1;
    int8_t (*t)[TN_FP32_NOPS] = tn_context.fp32_precision;
    int p = t[backend][op];
    if (p == TN_PREC_NONE)
        p = t[backend][TN_FP32_ALL];
    if (p == TN_PREC_NONE)
        p = t[TN_FP32_GENERIC][TN_FP32_ALL];
    if (p == TN_PREC_DEFAULT) {
        /* see context_defaults: the parents win when they say something, else the legacy flag */
        int parent = t[backend][TN_FP32_ALL];
        if (parent == TN_PREC_NONE)
            parent = t[TN_FP32_GENERIC][TN_FP32_ALL];
        p = parent != TN_PREC_NONE ? parent : tn_context.allow_tf32_cudnn ? TN_PREC_TF32 : TN_PREC_NONE;
    }
    if (backend == TN_FP32_CUDA && p == TN_PREC_BF16)
        return TN_PREC_NONE;
    return p;
}

static int
lookup_name(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], s))
            return i;
    return -1;
}

/* _get_fp32_precision_getter(arg0: str, arg1: str) -> str */
static PyObject *
get_fp32_precision_getter(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *sig = "(arg0: str, arg1: str) -> str";
    PyObject *b = NULL, *o = NULL, *r = NULL;
    if (nargs != 2 || kwnames || !(b = pyb_string(args[0])) || !(o = pyb_string(args[1]))) {
        Py_XDECREF(b);
        return pyb_incompatible("_get_fp32_precision_getter", sig, args, nargs, kwnames);
    }
    int backend = lookup_name(fp32_backend_names, TN_FP32_NBACKENDS, PyBytes_AsString(b));
    int op = lookup_name(fp32_op_names, TN_FP32_NOPS, PyBytes_AsString(o));
    if (backend < 0)
        PyErr_Format(PyExc_RuntimeError, "Unknown backend: %s", PyBytes_AsString(b));
    else if (op < 0)
        PyErr_Format(PyExc_RuntimeError, "Unknown op: %s", PyBytes_AsString(o));
    else {
        int p = tn_fp32_precision(backend, op);
        if (p >= 0)
            r = PyUnicode_FromString(fp32_precision_names[p]);
    }
    Py_DECREF(b);
    Py_DECREF(o);
    return r;
}

/* _set_fp32_precision_setter(arg0: str, arg1: str, arg2: str) -> str: returns the precision given */
static PyObject *
set_fp32_precision_setter(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *sig = "(arg0: str, arg1: str, arg2: str) -> str";
    PyObject *s[3] = {NULL, NULL, NULL};
    int ok = nargs == 3 && !kwnames;
    for (int i = 0; ok && i < 3; i++)
        ok = (s[i] = pyb_string(args[i])) != NULL;
    if (!ok) {
        for (int i = 0; i < 3; i++)
            Py_XDECREF(s[i]);
        return pyb_incompatible("_set_fp32_precision_setter", sig, args, nargs, kwnames);
    }
    const char *bs = PyBytes_AsString(s[0]), *os = PyBytes_AsString(s[1]), *ps = PyBytes_AsString(s[2]);
    int backend = lookup_name(fp32_backend_names, TN_FP32_NBACKENDS, bs);
    int op = lookup_name(fp32_op_names, TN_FP32_NOPS, os);
    int prec = lookup_name(fp32_precision_names, 4, ps);
    PyObject *r = NULL;
    if (prec < 0)  /* upstream converts the precision first */
        PyErr_Format(PyExc_RuntimeError, "Unknown precision: %s", ps);
    else if (backend < 0)
        PyErr_Format(PyExc_RuntimeError, "Unknown backend: %s", bs);
    else if (op < 0)
        PyErr_Format(PyExc_RuntimeError, "Unknown op: %s", os);
    else if (fp32_check_pair(backend, op) < 0)
        ;
    else if (backend == TN_FP32_CUDA && prec == TN_PREC_BF16)
        PyErr_SetString(PyExc_RuntimeError, "backend 'cuda' does not support precision 'bf16'");
    else {
        tn_context.fp32_precision[backend][op] = (int8_t)prec;
        r = PyUnicode_FromString(ps);
    }
    for (int i = 0; i < 3; i++)
        Py_DECREF(s[i]);
    return r;
}

static const char TF32_DOCS[] =
    "https://pytorch.org/docs/main/notes/cuda.html#tensorfloat-32-tf32-on-ampere-and-later-devices";

/* at::Context::float32MatmulPrecision: refuses states only the new API can express */
static PyObject *
get_float32_matmul_precision(PyObject *self, PyObject *unused)
{
    int cuda = tn_fp32_precision(TN_FP32_CUDA, TN_FP32_MATMUL);
    int mkldnn = tn_fp32_precision(TN_FP32_MKLDNN, TN_FP32_MATMUL);
    int legacy = tn_context.float32_matmul_precision;
    if ((cuda == TN_PREC_TF32 && legacy == TN_MATMUL_HIGHEST) ||
        (mkldnn == TN_PREC_BF16 && legacy != TN_MATMUL_MEDIUM) ||
        (mkldnn == TN_PREC_TF32 && legacy != TN_MATMUL_HIGH)) {
        PyErr_Format(PyExc_RuntimeError,
                     "PyTorch is checking the matmul precision without a specific backend name,Current status indicate "
                     "that you have used mix of the legacy and new APIs to set the matmul precision. We suggest only "
                     "using the new API for matmul precision. See also: %s", TF32_DOCS);
        return NULL;
    }
    static const char *const names[] = {"highest", "high", "medium"};
    return PyUnicode_FromString(names[legacy]);
}

static PyObject *
set_float32_matmul_precision(PyObject *self, PyObject *arg)
{
    if (!PyBytes_Check(arg) && !PyUnicode_Check(arg))
        return thp_type_error("set_float32_matmul_precision expects a str, but got %s", arg);
    PyObject *b = thp_string(arg);
    if (!b)
        return NULL;
    const char *s = PyBytes_AsString(b);
    static const int8_t cuda_prec[] = {TN_PREC_IEEE, TN_PREC_TF32, TN_PREC_TF32};
    static const int8_t mkldnn_prec[] = {TN_PREC_IEEE, TN_PREC_TF32, TN_PREC_BF16};
    static const char *const names[] = {"highest", "high", "medium"};
    /* upstream retries lower-cased, but its lower-casing produces an empty string: exact only */
    int level = lookup_name(names, 3, s);
    if (level >= 0) {
        tn_context.float32_matmul_precision = level;
        tn_context.fp32_precision[TN_FP32_CUDA][TN_FP32_MATMUL] = cuda_prec[level];
        tn_context.fp32_precision[TN_FP32_MKLDNN][TN_FP32_MATMUL] = mkldnn_prec[level];
        Py_DECREF(b);
        Py_RETURN_NONE;
    }
    PyObject *text = PyUnicode_DecodeUTF8(s, PyBytes_Size(b), NULL);
    Py_DECREF(b);
    if (!text)
        return NULL;
    int r = PyErr_WarnFormat(PyExc_UserWarning, 1,
                             "%U is not one of 'highest', 'high', or 'medium'; the currentsetFloat32MatmulPrecision "
                             "call has no effect.", text);
    Py_DECREF(text);
    if (r < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* at::Context::allowTF32CuBLAS */
static PyObject *
get_cublas_allow_tf32(PyObject *self, PyObject *unused)
{
    int legacy = tn_context.float32_matmul_precision != TN_MATMUL_HIGHEST;
    int now = tn_fp32_precision(TN_FP32_CUDA, TN_FP32_MATMUL) == TN_PREC_TF32;
    if (legacy != now) {
        PyErr_Format(PyExc_RuntimeError,
                     "PyTorch is checking whether allow_tf32_new is enabled for cuBlas matmul,Current status indicate "
                     "that you have used mix of the legacy and new APIs to set the TF32 status for cublas matmul. We "
                     "suggest only using the new API to set the TF32 flag. See also: %s", TF32_DOCS);
        return NULL;
    }
    return PyBool_FromLong(now);
}

static PyObject *
set_cublas_allow_tf32(PyObject *self, PyObject *arg)
{
    if (!PyBool_Check(arg))
        return thp_type_error("set_allow_tf32_cublas expects a bool, but got %s", arg);
    int on = arg == Py_True;
    tn_context.float32_matmul_precision = on ? TN_MATMUL_HIGH : TN_MATMUL_HIGHEST;
    tn_context.fp32_precision[TN_FP32_CUDA][TN_FP32_MATMUL] = on ? TN_PREC_TF32 : TN_PREC_IEEE;
    Py_RETURN_NONE;
}

/* at::Context::allowTF32CuDNN() without an op */
static PyObject *
get_cudnn_allow_tf32(PyObject *self, PyObject *unused)
{
    int rnn = tn_fp32_precision(TN_FP32_CUDA, TN_FP32_RNN) == TN_PREC_TF32;
    int conv = tn_fp32_precision(TN_FP32_CUDA, TN_FP32_CONV) == TN_PREC_TF32;
    if (rnn != conv || rnn != tn_context.allow_tf32_cudnn) {
        PyErr_Format(PyExc_RuntimeError,
                     "PyTorch is checking whether allow_tf32 is enabled for cuDNN without a specific operator name,but "
                     "the current flag(s) indicate that cuDNN conv and cuDNN RNN have different TF32 flags.This "
                     "combination indicates that you have used a mix of the legacy and new APIs to set the TF32 "
                     "flags. We suggest only using the new API to set the TF32 flag(s). See also: %s", TF32_DOCS);
        return NULL;
    }
    return PyBool_FromLong(tn_context.allow_tf32_cudnn);
}

static PyObject *
set_cudnn_allow_tf32(PyObject *self, PyObject *arg)
{
    if (!PyBool_Check(arg))
        return thp_type_error("set_allow_tf32_cublas expects a bool, but got %s", arg);
    int on = arg == Py_True;
    tn_context.fp32_precision[TN_FP32_CUDA][TN_FP32_RNN] = on ? TN_PREC_TF32 : TN_PREC_NONE;
    tn_context.fp32_precision[TN_FP32_CUDA][TN_FP32_CONV] = on ? TN_PREC_TF32 : TN_PREC_NONE;
    tn_context.allow_tf32_cudnn = on;
    Py_RETURN_NONE;
}

/* ---- cuBLAS reduced-precision reductions: at::CuBLASReductionOption ---- */

static PyObject *
reduction_tuple(int option)
{
    /* AllowReducedPrecisionWithSplitK, DisallowReducedPrecisionAllowSplitK, ...DisallowSplitK */
    return Py_BuildValue("(OO)", option == 0 ? Py_True : Py_False, option == 2 ? Py_False : Py_True);
}

static PyObject *
set_reduction(int *slot, const char *what, PyObject *args)
{
    PyObject *reduced, *splitk = Py_True;
    if (!PyArg_ParseTuple(args, "O|O", &reduced, &splitk))
        return NULL;
    char fmt[160];
    if (!PyBool_Check(reduced)) {
        snprintf(fmt, sizeof fmt, "%s expects a bool for allow_reduced_precision, but got %%s", what);
        return thp_type_error(fmt, reduced);
    }
    if (!PyBool_Check(splitk)) {
        snprintf(fmt, sizeof fmt, "%s expects a bool for allow_splitk, but got %%s", what);
        return thp_type_error(fmt, splitk);
    }
    if (reduced == Py_True && splitk == Py_False) {
        PyErr_SetString(PyExc_RuntimeError,
                        "allow_splitk=False is not supported when reduced precision reductions are enabled");
        return NULL;
    }
    *slot = reduced == Py_True ? 0 : splitk == Py_True ? 1 : 2;
    Py_RETURN_NONE;
}

static PyObject *
get_cublas_allow_fp16_reduced_precision_reduction(PyObject *self, PyObject *unused)
{
    return reduction_tuple(tn_context.cublas_fp16_reduction);
}

static PyObject *
set_cublas_allow_fp16_reduced_precision_reduction(PyObject *self, PyObject *args)
{
    return set_reduction(&tn_context.cublas_fp16_reduction, "set_allow_fp16_reduction_cublas", args);
}

static PyObject *
get_cublas_allow_bf16_reduced_precision_reduction(PyObject *self, PyObject *unused)
{
    return reduction_tuple(tn_context.cublas_bf16_reduction);
}

static PyObject *
set_cublas_allow_bf16_reduced_precision_reduction(PyObject *self, PyObject *args)
{
    return set_reduction(&tn_context.cublas_bf16_reduction, "set_allow_bf16_reduction_cublas", args);
}

/* ---- cuDNN depthwise kernel ---- */

static const char *const depthwise_names[] = {"auto", "cudnn", "native"};

static PyObject *
get_cudnn_depthwise_kernel(PyObject *self, PyObject *unused)
{
    return PyUnicode_FromString(depthwise_names[tn_context.cudnn_depthwise_kernel]);
}

static PyObject *
set_cudnn_depthwise_kernel(PyObject *self, PyObject *arg)
{
    if (!PyBytes_Check(arg) && !PyUnicode_Check(arg))
        return thp_type_error("set_cudnn_depthwise_kernel expects a string, but got %s", arg);
    PyObject *b = thp_string(arg);
    if (!b)
        return NULL;
    int k = lookup_name(depthwise_names, 3, PyBytes_AsString(b));
    if (k < 0)
        PyErr_Format(PyExc_RuntimeError,
                     "Unknown cuDNN depthwise kernel mode: %s. Expected one of: auto, cudnn, native",
                     PyBytes_AsString(b));
    else
        tn_context.cudnn_depthwise_kernel = k;
    Py_DECREF(b);
    if (k < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* ---- scaled_dot_product_attention priority order ---- */

static PyObject *
get_sdp_priority_order(PyObject *self, PyObject *unused)
{
    PyObject *l = PyList_New(TN_SDP_NBACKENDS);
    for (int i = 0; l && i < TN_SDP_NBACKENDS; i++) {
        PyObject *v = PyLong_FromLong(tn_context.sdp_priority_order[i]);
        if (!v || PyList_SetItem(l, i, v) < 0) {
            Py_CLEAR(l);
            break;
        }
    }
    return l;
}

/* Upstream writes every given element into its five-slot array; more than five overrun it into
 * the next flags (undefined behaviour). Here the extra ones are ignored. */
static PyObject *
set_sdp_priority_order(PyObject *self, PyObject *arg)
{
    if (!PyList_Check(arg) && !PyTuple_Check(arg)) {
        PyErr_SetString(PyExc_RuntimeError, "Expected tuple or list");
        return NULL;
    }
    PyObject *seq = arg;
    Py_ssize_t n = PySequence_Size(seq);
    int32_t order[TN_SDP_NBACKENDS];
    memcpy(order, tn_context.sdp_priority_order, sizeof order);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *it = PySequence_GetItem(seq, i);
        long long v = 0;
        int bad = !it || !thp_check_long(it);
        if (bad && it) {
            char tn[160];
            PyErr_Format(PyExc_RuntimeError, "expected int at position %zd, but got: %s", i,
                         thp_typename(it, tn, sizeof tn));
        }
        if (!bad && thp_unpack_long(it, &v) < 0)
            bad = 1;
        Py_XDECREF(it);
        if (bad)
            return NULL;
        if (i < TN_SDP_NBACKENDS)
            order[i] = (int32_t)v;  /* static_cast<at::SDPBackend>: truncated to 32 bits */
    }
    memcpy(tn_context.sdp_priority_order, order, sizeof order);
    Py_RETURN_NONE;
}

/* ---- backend enums (pybind11 bindings) ---- */

static PyObject *the_module;

/* torch._C.<cls>(value): the enums are built by runtime/py/enums.py after this file's init. */
static PyObject *
enum_member(const char *cls, int value)
{
    PyObject *type = PyObject_GetAttrString(the_module, cls);
    PyObject *r = type ? PyObject_CallFunction(type, "i", value) : NULL;
    Py_XDECREF(type);
    return r;
}

/* One pybind11 argument of enum type cls: its value, or -1 (TypeError set, pybind's message). */
static int
enum_arg(const char *fname, const char *cls, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    char sig[96];
    snprintf(sig, sizeof sig, "(arg0: torch._C.%s) -> None", cls);
    PyObject *type = PyObject_GetAttrString(the_module, cls);
    if (!type)
        return -1;
    int ok = nargs == 1 && !kwnames ? PyObject_IsInstance(args[0], type) : 0;
    Py_DECREF(type);
    if (ok < 0)
        return -1;
    if (!ok) {
        pyb_incompatible(fname, sig, args, nargs, kwnames);
        return -1;
    }
    PyObject *v = PyObject_GetAttrString(args[0], "value");
    long r = v ? PyLong_AsLong(v) : -1;
    Py_XDECREF(v);
    return r == -1 && PyErr_Occurred() ? -1 : (int)r;
}

static PyObject *
no_args_or_incompatible(const char *fname, const char *sig, PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames)
{
    if (nargs || kwnames)
        return pyb_incompatible(fname, sig, args, nargs, kwnames);
    return Py_None;  /* borrowed marker: arguments fine */
}

#define TN_PYB_NOARGS(fname, sig)                                                    \
    do {                                                                              \
        if (!no_args_or_incompatible(fname, sig, args, nargs, kwnames))               \
            return NULL;                                                              \
    } while (0)

static bool blas_warned, linalg_warned, magma_warned, carveout_warned;

/* _BlasBackend: Default 0, Cublas 1, Cublaslt 2, Ck 3. A CPU build has no cuBLASLt; Default
 * reads as Cublas (the getter writes it back, as upstream's does). */
static PyObject *
get_blas_preferred_backend(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    TN_PYB_NOARGS("_get_blas_preferred_backend", "() -> torch._C._BlasBackend");
    if (tn_context.blas_backend == 0)
        tn_context.blas_backend = 1;
    return enum_member("_BlasBackend", tn_context.blas_backend);
}

static PyObject *
get_blas_default_backend(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    TN_PYB_NOARGS("_get_blas_default_backend", "() -> torch._C._BlasBackend");
    return enum_member("_BlasBackend", 1);
}

static PyObject *
set_blas_preferred_backend(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    int b = enum_arg("_set_blas_preferred_backend", "_BlasBackend", args, nargs, kwnames);
    if (b < 0)
        return NULL;
    if (b == 2) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Cannot set preferred backend to cuBLASLt if PyTorch has not been compiled with cuBLASLt.");
        return NULL;
    }
    if (b != 0 && b != 1)
        warn_once_stderr(&blas_warned, "torch.backends.cuda.preferred_blas_library is an experimental feature. If you "
                                       "see any error or unexpected behavior when this flag is set please file an "
                                       "issue on GitHub.");
    tn_context.blas_backend = b;
    Py_RETURN_NONE;
}

/* _LinalgBackend: Default 0, Cusolver 1, Magma 2. Upstream stores the value before refusing it. */
static PyObject *
get_linalg_preferred_backend(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    TN_PYB_NOARGS("_get_linalg_preferred_backend", "() -> torch._C._LinalgBackend");
    return enum_member("_LinalgBackend", tn_context.linalg_backend);
}

static PyObject *
set_linalg_preferred_backend(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    int b = enum_arg("_set_linalg_preferred_backend", "_LinalgBackend", args, nargs, kwnames);
    if (b < 0)
        return NULL;
    if (b == 2)
        warn_once_stderr(&magma_warned, "The usage of MAGMA backend for linear algebra operations is deprecated and "
                                        "will be removed in future releases. cuSOLVER stays as the default backend.If "
                                        "you see any error messages with cuSOLVER but not MAGMA, please, file an issue "
                                        "on GitHub.");
    tn_context.linalg_backend = b;
    if (b == 1) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Cannot set preferred backend to cuSOLVER if PyTorch has not been compiled with cuSOLVER.");
        return NULL;
    }
    if (b == 2) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Cannot set preferred backend to MAGMA if PyTorch has not been compiled with MAGMA.");
        return NULL;
    }
    if (b != 0)
        warn_once_stderr(&linalg_warned, "torch.backends.cuda.preferred_linalg_library is an experimental feature. If "
                                         "you see any error or unexpected behavior when this flag is set please file "
                                         "an issue on GitHub.");
    Py_RETURN_NONE;
}

/* _ROCmFABackend: Default 0, AOTriton 1, Ck 2; a build without ROCm stores any of them. */
static PyObject *
get_rocm_fa_preferred_backend(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    TN_PYB_NOARGS("_get_rocm_fa_preferred_backend", "() -> torch._C._ROCmFABackend");
    return enum_member("_ROCmFABackend", tn_context.rocm_fa_backend);
}

static PyObject *
set_rocm_fa_preferred_backend(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    int b = enum_arg("_set_rocm_fa_preferred_backend", "_ROCmFABackend", args, nargs, kwnames);
    if (b < 0)
        return NULL;
    tn_context.rocm_fa_backend = b;
    Py_RETURN_NONE;
}

/* ---- other pybind11 bindings ---- */

static PyObject *
get_sm_carveout_experimental(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    TN_PYB_NOARGS("_get_sm_carveout_experimental", "() -> int | None");
    if (!tn_context.sm_carveout_set)
        Py_RETURN_NONE;
    return PyLong_FromLong(tn_context.sm_carveout);
}

static PyObject *
set_sm_carveout_experimental(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    int32_t v = 0;
    if (nargs != 1 || kwnames || (args[0] != Py_None && pyb_int32(args[0], &v) < 0))
        return pyb_incompatible("_set_sm_carveout_experimental",
                                "(arg0: typing.SupportsInt | typing.SupportsIndex | None) -> None", args, nargs,
                                kwnames);
    if (args[0] != Py_None)
        warn_once_stderr(&carveout_warned, "Setting the SM carveout for matmuls is a temporary experimental mitigation "
                                           "for performance issues, while more robust solutions are developed. It may "
                                           "be removed at any moment without notice.");
    tn_context.sm_carveout_set = args[0] != Py_None;
    tn_context.sm_carveout = v;
    Py_RETURN_NONE;
}

/* _get_accelerator(check: bool | None = None) -> torch.device: a CPU build has no accelerator
 * and answers the CPU device, or refuses when asked to check. */
static PyObject *
get_accelerator(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *sig = "(check: bool | None = None) -> torch.device";
    Py_ssize_t nkw = kwnames ? PyTuple_Size(kwnames) : 0;
    PyObject *check = nargs ? args[0] : NULL;
    int bad = nargs + nkw > 1;
    if (!bad && nkw) {
        const char *key = PyUnicode_AsUTF8AndSize(PyTuple_GetItem(kwnames, 0), NULL);
        bad = !key || strcmp(key, "check");
        PyErr_Clear();
        check = args[nargs];
    }
    int on = 0;
    if (!bad && check && check != Py_None && (on = pyb_bool(check)) < 0)
        bad = 1;
    if (bad)
        return pyb_incompatible("_get_accelerator", sig, args, nargs, kwnames);
    if (on) {
        PyErr_SetString(PyExc_RuntimeError, "Cannot access accelerator device when none is available.");
        return NULL;
    }
    return tn_device_new(TN_DEVTYPE_CPU, -1);
}

static PyObject *
set_cached_tensors_enabled(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    int on = nargs == 1 && !kwnames ? pyb_bool(args[0]) : -1;
    if (on < 0)
        return pyb_incompatible("_set_cached_tensors_enabled", "(arg0: bool) -> None", args, nargs, kwnames);
    tn_context.cached_tensors_enabled = on;
    Py_RETURN_NONE;
}

static const char *const fallback_mode_names[] = {"nothing", "warn", "error"};

static PyObject *
get_autograd_fallback_mode(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    TN_PYB_NOARGS("_get_autograd_fallback_mode", "() -> str");
    return PyUnicode_FromString(fallback_mode_names[tn_context.autograd_fallback_mode]);
}

static PyObject *
set_autograd_fallback_mode(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *b = nargs == 1 && !kwnames ? pyb_string(args[0]) : NULL;
    if (!b)
        return pyb_incompatible("_set_autograd_fallback_mode", "(arg0: str) -> None", args, nargs, kwnames);
    int m = lookup_name(fallback_mode_names, 3, PyBytes_AsString(b));
    if (m == TN_AUTOGRAD_FALLBACK_ERROR)
        PyErr_SetString(PyExc_RuntimeError, "NYI: mode='error'");
    else if (m < 0)  /* upstream: an internal assert */
        PyErr_Format(PyExc_RuntimeError, "Unsupported AutogradFallbackMode: %s", PyBytes_AsString(b));
    else
        tn_context.autograd_fallback_mode = m;
    Py_DECREF(b);
    if (m < 0 || m == TN_AUTOGRAD_FALLBACK_ERROR)
        return NULL;
    Py_RETURN_NONE;
}

/* ---- quantized engine ----
 * Upstream's CPU wheel lists QNNPACK, ONEDNN, X86 and FBGEMM and defaults to X86. torchnative
 * has none of those kernel libraries, so it answers as an upstream build without them does:
 * no supported engine, NoQEngine, and every set_qengine refused. */
static const char *const qengine_names[] = {"NoQEngine", "FBGEMM", "QNNPACK", "ONEDNN", "X86"};
/* Engines this build has kernels for, in upstream's order: the first n_supported_qengines. */
static const int supported_qengines[TN_ARRAY_LEN(qengine_names)];
static const int n_supported_qengines = 0;

static PyObject *
get_qengine(PyObject *self, PyObject *unused)
{
    return PyLong_FromLong(tn_context.qengine);
}

static PyObject *
set_qengine(PyObject *self, PyObject *arg)
{
    if (!thp_check_long(arg))
        return thp_type_error("set_qengine expects an int, but got %s", arg);
    long long v;
    if (thp_unpack_long(arg, &v) < 0)
        return NULL;
    int e = (uint8_t)v;  /* static_cast<at::QEngine> of a uint8_t enum */
    for (int i = 0; i < n_supported_qengines; i++)
        if (supported_qengines[i] == e) {
            tn_context.qengine = e;
            Py_RETURN_NONE;
        }
    if (e >= TN_ARRAY_LEN(qengine_names))
        PyErr_Format(PyExc_RuntimeError, "Unrecognized Quantized Engine: %d", e);
    else
        PyErr_Format(PyExc_RuntimeError, "quantized engine %s is not supported", qengine_names[e]);
    return NULL;
}

static PyObject *
get_supported_qengines(PyObject *self, PyObject *unused)
{
    PyObject *l = PyList_New(0);
    for (int i = 0; l && i < n_supported_qengines; i++) {
        PyObject *v = PyLong_FromLong(supported_qengines[i]);
        if (!v || PyList_Append(l, v) < 0)
            Py_CLEAR(l);
        Py_XDECREF(v);
    }
    return l;
}

/* ---- sparse invariants, mobile allocator ---- */

static PyObject *
get_check_sparse_tensor_invariants(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(tn_context.check_sparse_tensor_invariants == 1);
}

static PyObject *
set_check_sparse_tensor_invariants(PyObject *self, PyObject *arg)
{
    if (arg != Py_None && !PyBool_Check(arg))
        return thp_type_error("set_check_sparse_tensor_invariants expects a bool or None, but got %s", arg);
    tn_context.check_sparse_tensor_invariants = arg == Py_None ? -1 : arg == Py_True;
    Py_RETURN_NONE;
}

/* The mobile CPU allocator only pads allocations; what stays observable is the pairing rule. */
static PyObject *
is_default_mobile_cpu_allocator_set(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(tn_context.mobile_cpu_allocator_set);
}

static PyObject *
set_default_mobile_cpu_allocator(PyObject *self, PyObject *unused)
{
    if (tn_context.mobile_cpu_allocator_set) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Already within the scope of another non-default cpu allocator.Cannot set another allocator.");
        return NULL;
    }
    tn_context.mobile_cpu_allocator_set = true;
    Py_RETURN_NONE;
}

static PyObject *
unset_default_mobile_cpu_allocator(PyObject *self, PyObject *unused)
{
    if (!tn_context.mobile_cpu_allocator_set) {
        PyErr_SetString(PyExc_RuntimeError,
                        "setDefaultMobileCPUAllocator must have been called before unsetDefaultMobileCPUAllocator.");
        return NULL;
    }
    tn_context.mobile_cpu_allocator_set = false;
    Py_RETURN_NONE;
}

/* ---- flush denormal: the calling thread's floating-point control register, as upstream ---- */

#if defined(__x86_64__) || defined(__i386__)
/* DAZ is usable when FXSAVE's MXCSR_MASK has bit 6 (a zero mask means the default 0xFFBF). */
static int
x86_has_daz(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(d & (1u << 24)))  /* FXSR */
        return 0;
    _Alignas(16) unsigned char area[512];
    memset(area, 0, sizeof area);
    __asm__ __volatile__("fxsave %0" : "=m"(area));
    uint32_t mask;
    memcpy(&mask, area + 28, sizeof mask);
    return (mask & 0x40) != 0;
}
#endif

static PyObject *
set_flush_denormal(PyObject *self, PyObject *arg)
{
    if (!PyBool_Check(arg))
        return thp_type_error("flush_denormal expects a bool, but got %s", arg);
    int on = arg == Py_True;
#if defined(__x86_64__) || defined(__i386__)
    if (x86_has_daz()) {
        unsigned csr = _mm_getcsr() & ~(0x0040u | 0x8000u);  /* DAZ, FTZ */
        _mm_setcsr(on ? csr | 0x0040u | 0x8000u : csr);
        tn_context.flush_denormal = on;
        Py_RETURN_TRUE;
    }
#elif defined(__aarch64__)
    uint64_t fpcr;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(fpcr));
    fpcr = on ? fpcr | (1u << 24) : fpcr & ~(uint64_t)(1u << 24);  /* FPCR.FZ */
    __asm__ __volatile__("msr fpcr, %0" : : "r"(fpcr));
    tn_context.flush_denormal = on;
    Py_RETURN_TRUE;
#endif
    Py_RETURN_FALSE;
}

/* ---- CPU capability (ATen's DispatchStub choice) ---- */

static const char *cpu_capability;
static char cpu_capability_bad_env[128];  /* an ATEN_CPU_CAPABILITY value upstream ignores, warned once */
static char cpu_capability_sve_warning[96];

#if defined(__x86_64__) || defined(__i386__)
static const char *
detect_cpu_capability(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27)))  /* OSXSAVE */
        return "DEFAULT";
    unsigned lo, hi;
    __asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    int ymm = (lo & 0x6) == 0x6, zmm = (lo & 0xe6) == 0xe6;
    int fma = ymm && (c & (1u << 12));
    if (__get_cpuid_max(0, NULL) < 7)
        return "DEFAULT";
    unsigned a7, b7, c7, d7;
    __cpuid_count(7, 0, a7, b7, c7, d7);
    int avx2 = ymm && (b7 & (1u << 5));
    int avx512 = zmm && (b7 & (1u << 31)) && (b7 & (1u << 30)) && (b7 & (1u << 17));  /* VL, BW, DQ */
    if (avx512 && fma)
        return "AVX512";
    if (avx2 && fma)
        return "AVX2";
    return "DEFAULT";
}
#elif defined(__aarch64__) && defined(__linux__)
static int
sve256_available(void)
{
    unsigned long hw = getauxval(AT_HWCAP), hw2 = getauxval(AT_HWCAP2);
    if (!(hw & (1ul << 22)))  /* HWCAP_SVE */
        return 0;
    int vl = prctl(51 /* PR_SVE_GET_VL */);
    return vl > 0 && (vl & 0xffff) * 8 == 256 && (hw2 & (1ul << 14)); /* HWCAP2_BF16 */
}

static const char *
detect_cpu_capability(void)
{
    return sve256_available() ? "SVE256" : "DEFAULT";
}
#else
static const char *
detect_cpu_capability(void)
{
    return "DEFAULT";
}
#endif

const char *
tn_cpu_capability(void)
{
    if (cpu_capability)
        return cpu_capability;
    const char *env = getenv("ATEN_CPU_CAPABILITY");
    if (env) {
#if defined(__x86_64__) || defined(__i386__)
        if (!strcmp(env, "avx512"))
            return cpu_capability = "AVX512";
        if (!strcmp(env, "avx2"))
            return cpu_capability = "AVX2";
#elif defined(__aarch64__) && defined(__linux__)
        if (!strcmp(env, "sve256")) {
            if (sve256_available())
                return cpu_capability = "SVE256";
            snprintf(cpu_capability_sve_warning, sizeof cpu_capability_sve_warning,
                     "SVE256 capability not available on hardware. Falling back to DEFAULT");
            return cpu_capability = "DEFAULT";
        }
#endif
        if (!strcmp(env, "default"))
            return cpu_capability = "DEFAULT";
        snprintf(cpu_capability_bad_env, sizeof cpu_capability_bad_env, "%s", env);
    }
    return cpu_capability = detect_cpu_capability();
}

static PyObject *
get_cpu_capability(PyObject *self, PyObject *unused)
{
    const char *cap = tn_cpu_capability();
    if (cpu_capability_bad_env[0]) {
        char msg[200];
        snprintf(msg, sizeof msg, "ignoring invalid value for ATEN_CPU_CAPABILITY: %s", cpu_capability_bad_env);
        cpu_capability_bad_env[0] = 0;
        if (PyErr_WarnEx(PyExc_UserWarning, msg, 1) < 0)
            return NULL;
    }
    if (cpu_capability_sve_warning[0]) {
        cpu_capability_sve_warning[0] = 0;
        if (PyErr_WarnEx(PyExc_UserWarning, "SVE256 capability not available on hardware. Falling back to DEFAULT",
                         1) < 0)
            return NULL;
    }
    return PyUnicode_FromString(cap);
}

static PyObject *
get_privateuse1_backend_name(PyObject *self, PyObject *unused)
{
    return PyUnicode_FromString("privateuseone");
}

/* ---- per-thread settings ---- */

static PyObject *
get_graph_exec_group(PyObject *self, PyObject *unused)
{
    return Py_NewRef(tn_context_tls.graph_exec_group ? tn_context_tls.graph_exec_group : Py_None);
}

static PyObject *
set_graph_exec_group(PyObject *self, PyObject *arg)
{
    TN_XSETREF(tn_context_tls.graph_exec_group, arg == Py_None ? NULL : Py_NewRef(arg));
    Py_RETURN_NONE;
}

static PyObject *
is_grad_layout_enforcement_enabled(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(!tn_context_tls.grad_layout_not_enforced);
}

/* set_grad_layout_enforcement_enabled(bool enabled): upstream parses it with PythonArgParser
 * and, unlike the other setters here, hands it to an active torch-function mode. */
static PyObject *
set_grad_layout_enforcement_enabled(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"enabled"};
    int v;
    if (parse_bools("set_grad_layout_enforcement_enabled", names, 1, 1, args, nargs, kwnames, &v) < 0)
        return NULL;
    if (tn_torch_function_mode_active()) {
        PyObject *api = PyObject_GetAttrString(self, "_set_grad_layout_enforcement_enabled");
        PyObject *targs = PyTuple_New(nargs);
        PyObject *kw = kwnames ? PyDict_New() : NULL;
        for (Py_ssize_t i = 0; targs && i < nargs; i++)
            PyTuple_SetItem(targs, i, Py_NewRef(args[i]));
        for (Py_ssize_t k = 0; kw && k < PyTuple_Size(kwnames); k++)
            if (PyDict_SetItem(kw, PyTuple_GetItem(kwnames, k), args[nargs + k]) < 0)
                Py_CLEAR(kw);
        PyObject *r = api && targs && (!kwnames || kw) ? tn_handle_torch_function(api, NULL, 0, targs, kw) : NULL;
        Py_XDECREF(api);
        Py_XDECREF(targs);
        Py_XDECREF(kw);
        return r;
    }
    tn_context_tls.grad_layout_not_enforced = !v;
    Py_RETURN_NONE;
}

/* ---- the table ---- */

#define FK(name, fn) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL | METH_KEYWORDS, NULL}
#define PYB(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL | METH_KEYWORDS, doc}
#define GET(name, fn) {name, fn, METH_NOARGS, NULL}
#define SET(name, fn) {name, fn, METH_O, NULL}

PyMethodDef tn_context_functions[] = {
    GET("_get_cudnn_enabled", get_cudnn_enabled),
    SET("_set_cudnn_enabled", set_cudnn_enabled),
    GET("_get_flash_sdp_enabled", get_flash_sdp_enabled),
    SET("_set_sdp_use_flash", set_sdp_use_flash),
    GET("_get_fa3_sdp_enabled", get_fa3_sdp_enabled),
    SET("_set_sdp_use_fa3", set_sdp_use_fa3),
    GET("_get_mem_efficient_sdp_enabled", get_mem_efficient_sdp_enabled),
    SET("_set_sdp_use_mem_efficient", set_sdp_use_mem_efficient),
    GET("_get_math_sdp_enabled", get_math_sdp_enabled),
    SET("_set_sdp_use_math", set_sdp_use_math),
    GET("_get_math_sdp_allow_fp16_bf16_reduction", get_math_sdp_allow_fp16_bf16_reduction),
    SET("_set_math_sdp_allow_fp16_bf16_reduction", set_math_sdp_allow_fp16_bf16_reduction),
    GET("_get_overrideable_sdp_enabled", get_overrideable_sdp_enabled),
    SET("_set_sdp_use_overrideable", set_sdp_use_overrideable),
    GET("_get_cudnn_sdp_enabled", get_cudnn_sdp_enabled),
    SET("_set_sdp_use_cudnn", set_sdp_use_cudnn),
    GET("_get_sdp_priority_order", get_sdp_priority_order),
    SET("_set_sdp_priority_order", set_sdp_priority_order),
    GET("_get_mkldnn_enabled", get_mkldnn_enabled),
    SET("_set_mkldnn_enabled", set_mkldnn_enabled),
    GET("_get_cudnn_benchmark", get_cudnn_benchmark),
    SET("_set_cudnn_benchmark", set_cudnn_benchmark),
    GET("_get_cudnn_depthwise_kernel", get_cudnn_depthwise_kernel),
    SET("_set_cudnn_depthwise_kernel", set_cudnn_depthwise_kernel),
    GET("_get_miopen_immediate", get_miopen_immediate),
    SET("_set_miopen_immediate", set_miopen_immediate),
    GET("_get_cudnn_deterministic", get_cudnn_deterministic),
    SET("_set_cudnn_deterministic", set_cudnn_deterministic),
    GET("_get_mkldnn_deterministic", get_mkldnn_deterministic),
    SET("_set_mkldnn_deterministic", set_mkldnn_deterministic),
    GET("_get_onednn_allow_tf32", get_onednn_allow_tf32),
    SET("_set_onednn_allow_tf32", set_onednn_allow_tf32),
    GET("_get_deterministic_algorithms", get_deterministic_algorithms),
    GET("_get_deterministic_algorithms_warn_only", get_deterministic_algorithms_warn_only),
    FK("_set_deterministic_algorithms", set_deterministic_algorithms),
    GET("_get_deterministic_fill_uninitialized_memory", get_deterministic_fill_uninitialized_memory),
    SET("_set_deterministic_fill_uninitialized_memory", set_deterministic_fill_uninitialized_memory),
    GET("_get_nnpack_enabled", get_nnpack_enabled),
    SET("_set_nnpack_enabled", set_nnpack_enabled),
    GET("_get_warnAlways", get_warn_always),
    SET("_set_warnAlways", set_warn_always),
    GET("_get_cudnn_allow_tf32", get_cudnn_allow_tf32),
    SET("_set_cudnn_allow_tf32", set_cudnn_allow_tf32),
    GET("_get_cublas_allow_tf32", get_cublas_allow_tf32),
    SET("_set_cublas_allow_tf32", set_cublas_allow_tf32),
    GET("_get_float32_matmul_precision", get_float32_matmul_precision),
    SET("_set_float32_matmul_precision", set_float32_matmul_precision),
    GET("_get_cublas_allow_fp16_reduced_precision_reduction", get_cublas_allow_fp16_reduced_precision_reduction),
    {"_set_cublas_allow_fp16_reduced_precision_reduction", set_cublas_allow_fp16_reduced_precision_reduction,
     METH_VARARGS, NULL},
    GET("_get_cublas_allow_bf16_reduced_precision_reduction", get_cublas_allow_bf16_reduced_precision_reduction),
    {"_set_cublas_allow_bf16_reduced_precision_reduction", set_cublas_allow_bf16_reduced_precision_reduction,
     METH_VARARGS, NULL},
    GET("_get_cublas_allow_fp16_accumulation", get_cublas_allow_fp16_accumulation),
    SET("_set_cublas_allow_fp16_accumulation", set_cublas_allow_fp16_accumulation),
    GET("_get_backcompat_broadcast_warn", get_backcompat_broadcast_warn),
    SET("_set_backcompat_broadcast_warn", set_backcompat_broadcast_warn),
    GET("_get_backcompat_keepdim_warn", get_backcompat_keepdim_warn),
    SET("_set_backcompat_keepdim_warn", set_backcompat_keepdim_warn),
    SET("_set_warn_on_accumulate_grad_stream_mismatch", set_warn_on_accumulate_grad_stream_mismatch),
    GET("_override_stale_capture_stream", get_override_stale_capture_stream),
    SET("_set_override_stale_capture_stream", set_override_stale_capture_stream),
    SET("set_flush_denormal", set_flush_denormal),
    GET("_get_qengine", get_qengine),
    SET("_set_qengine", set_qengine),
    GET("_supported_qengines", get_supported_qengines),
    GET("_check_sparse_tensor_invariants", get_check_sparse_tensor_invariants),
    SET("_set_check_sparse_tensor_invariants", set_check_sparse_tensor_invariants),
    GET("_is_default_mobile_cpu_allocator_set", is_default_mobile_cpu_allocator_set),
    GET("_set_default_mobile_cpu_allocator", set_default_mobile_cpu_allocator),
    GET("_unset_default_mobile_cpu_allocator", unset_default_mobile_cpu_allocator),
    GET("_get_cpu_capability", get_cpu_capability),
    GET("_get_privateuse1_backend_name", get_privateuse1_backend_name),
    GET("_get_graph_exec_group", get_graph_exec_group),
    SET("_set_graph_exec_group", set_graph_exec_group),
    GET("_is_grad_layout_enforcement_enabled", is_grad_layout_enforcement_enabled),
    FK("_set_grad_layout_enforcement_enabled", set_grad_layout_enforcement_enabled),
    /* pybind11 bindings carry pybind11's signature docstring */
    PYB("_get_fp32_precision_getter", get_fp32_precision_getter,
        "_get_fp32_precision_getter(arg0: str, arg1: str) -> str\n"),
    PYB("_set_fp32_precision_setter", set_fp32_precision_setter,
        "_set_fp32_precision_setter(arg0: str, arg1: str, arg2: str) -> str\n"),
    PYB("_get_blas_preferred_backend", get_blas_preferred_backend,
        "_get_blas_preferred_backend() -> torch._C._BlasBackend\n"),
    PYB("_set_blas_preferred_backend", set_blas_preferred_backend,
        "_set_blas_preferred_backend(arg0: torch._C._BlasBackend) -> None\n"),
    PYB("_get_blas_default_backend", get_blas_default_backend,
        "_get_blas_default_backend() -> torch._C._BlasBackend\n"),
    PYB("_get_linalg_preferred_backend", get_linalg_preferred_backend,
        "_get_linalg_preferred_backend() -> torch._C._LinalgBackend\n"),
    PYB("_set_linalg_preferred_backend", set_linalg_preferred_backend,
        "_set_linalg_preferred_backend(arg0: torch._C._LinalgBackend) -> None\n"),
    PYB("_get_rocm_fa_preferred_backend", get_rocm_fa_preferred_backend,
        "_get_rocm_fa_preferred_backend() -> torch._C._ROCmFABackend\n"),
    PYB("_set_rocm_fa_preferred_backend", set_rocm_fa_preferred_backend,
        "_set_rocm_fa_preferred_backend(arg0: torch._C._ROCmFABackend) -> None\n"),
    PYB("_get_sm_carveout_experimental", get_sm_carveout_experimental,
        "_get_sm_carveout_experimental() -> int | None\n"),
    PYB("_set_sm_carveout_experimental", set_sm_carveout_experimental,
        "_set_sm_carveout_experimental(arg0: typing.SupportsInt | typing.SupportsIndex | None) -> None\n"),
    PYB("_get_accelerator", get_accelerator, "_get_accelerator(check: bool | None = None) -> torch.device\n"),
    PYB("_set_cached_tensors_enabled", set_cached_tensors_enabled, "_set_cached_tensors_enabled(arg0: bool) -> None\n"),
    PYB("_get_autograd_fallback_mode", get_autograd_fallback_mode, "_get_autograd_fallback_mode() -> str\n"),
    PYB("_set_autograd_fallback_mode", set_autograd_fallback_mode, "_set_autograd_fallback_mode(arg0: str) -> None\n"),
    {NULL, NULL, 0, NULL},
};

int
tn_context_init(PyObject *module)
{
    context_defaults();
    the_module = module;
    return PyModule_AddFunctions(module, tn_context_functions);
}
