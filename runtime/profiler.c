/* Kernels of the profiler ops torch.autograd.profiler.record_function calls on entry and exit
 * (profiler::_record_function_enter_new, profiler::_record_function_exit._RecordFunction).
 * DataLoader wraps every batch and every optimizer step runs inside one of these brackets.
 *
 * Note [record_function handles]
 * Upstream returns a ScriptObject wrapping an at::RecordFunction that profilers observe;
 * record_function keeps it and passes it back to _record_function_exit, nothing else reads it.
 * torchnative has no profiler (torch.profiler.profile refuses), so nothing can observe the
 * bracket: the handle records the name and whether it was closed, and does nothing else.
 * The legacy pair (_record_function_enter returning a Tensor) is left refusing: upstream
 * returns the C++ object's raw bytes as a uint8 tensor, which has no honest equivalent.
 */
#include "profiler.h"
#include "dispatch.h"
#include "op_registry.h"

typedef struct {
    PyObject_HEAD
    PyObject *name;  /* str */
    int closed;
} RecordFunctionObject;

static PyTypeObject *record_function_type;

static void
record_function_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    Py_XDECREF(((RecordFunctionObject *)self)->name);
    freefunc free_fn = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    free_fn(self);
    Py_DECREF(tp);
}

static PyObject *
record_function_repr(PyObject *self)
{
    RecordFunctionObject *r = (RecordFunctionObject *)self;
    return PyUnicode_FromFormat("<torchnative record_function handle %R%s>", r->name,
                                r->closed ? " (exited)" : "");
}

/* profiler::_record_function_enter_new(str name, str? args=None) -> _RecordFunction */
static PyObject *
record_function_enter_new(tn_value *args)
{
    if (args[0].tag != TN_V_STRING) {
        PyErr_SetString(PyExc_RuntimeError,
                        "profiler::_record_function_enter_new() expected a value of type 'str' for argument 'name'");
        return NULL;
    }
    allocfunc alloc = (allocfunc)PyType_GetSlot(record_function_type, Py_tp_alloc);
    RecordFunctionObject *r = (RecordFunctionObject *)alloc(record_function_type, 0);
    if (!r)
        return NULL;
    r->name = PyUnicode_FromString(args[0].u.s);
    if (!r->name) {
        Py_DECREF(r);
        return NULL;
    }
    return (PyObject *)r;
}

/* profiler::_record_function_exit._RecordFunction(_RecordFunction record) -> () */
static PyObject *
record_function_exit(tn_value *args)
{
    PyObject *h = args[0].tag == TN_V_OBJECT ? args[0].u.obj : NULL;
    if (!h || !PyObject_TypeCheck(h, record_function_type)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "profiler::_record_function_exit() expected a value of type "
                        "'__torch__.torch.classes.profiler._RecordFunction' for argument 'record'");
        return NULL;
    }
    ((RecordFunctionObject *)h)->closed = 1;
    Py_RETURN_NONE;
}

static PyType_Slot record_function_slots[] = {
    {Py_tp_dealloc, record_function_dealloc},
    {Py_tp_repr, record_function_repr},
    {0, NULL},
};

static int
attach(const char *qualname, const char *overload, tn_kernel_fn fn)
{
    tn_op *op = tn_find_op(qualname, overload);
    if (!op) {
        PyErr_Format(PyExc_RuntimeError, "torchnative: %s.%s is not registered", qualname, overload);
        return -1;
    }
    op->kernel = fn;
    op->dtype_names = "any";
    op->dtype_mask = ~(uint64_t)0;
    return 0;
}

int
tn_profiler_init(PyObject *module)
{
    PyType_Spec spec = {"torch._C._RecordFunctionHandle", sizeof(RecordFunctionObject), 0, Py_TPFLAGS_DEFAULT,
                        record_function_slots};
    record_function_type = (PyTypeObject *)PyType_FromSpec(&spec);
    if (!record_function_type)
        return -1;
    if (attach("profiler::_record_function_enter_new", "", record_function_enter_new) < 0 ||
        attach("profiler::_record_function_exit", "_RecordFunction", record_function_exit) < 0)
        return -1;
    return 0;
}
