/* torch._C: module init. Builds the C types, the generated operator bindings
 * (_VariableFunctions, the _nn/_fft/_linalg/_special/_sparse/_nested submodules, TensorBase
 * methods), the module-level functions torch's Python calls while importing
 * (_initExtension, _autograd_init, _add_docstr, ...), then runs the embedded Python in
 * runtime/py/ (the cold, Python-shaped surface), in runtime/py/ORDER.
 */
#include "pyapi.h"
#include "argparse.h"
#include "autocast.h"
#include "c10d_backend.h"
#include "context.h"
#include "dataloader.h"
#include "dispatch.h"
#include "dtype.h"
#include "device.h"
#include "generator.h"
#include "profiler.h"
#include "schema_parser.h"
#include "serialization.h"
#include "storage.h"
#include "tensor.h"
#include "tls.h"
#include "embedded.h"
#include "indexing.h"
#include "module_functions.h"
#include "op_registry.h"
#include "size.h"
#include "tensor_methods.h"
#include "tensor_new.h"
#include "torch_function.h"
#include "torch_ops.h"
#include "type_new.h"
#include "autograd.h"
#include "autograd_function.h"

#include <string.h>


static PyObject *the_module;
static PyObject *submodules[8];  /* indexed like the TN_BINDING_* module bits */

/* ---- binding tables -> Python objects ---- */

static PyMethodDef *const *
tables_for(const char *module)
{
    for (const tn_binding_module *m = tn_binding_modules; m->module; m++)
        if (!strcmp(m->module, module))
            return m->tables;
    return NULL;
}

/* One heap block per merged table: _add_docstr writes ml_doc into it later. */
static PyMethodDef *
merge_tables(PyMethodDef *const *tables, PyMethodDef *extra, int add_static)
{
    size_t n = 0;
    for (int k = 0; tables && tables[k]; k++)
        for (PyMethodDef *d = tables[k]; d->ml_name; d++)
            n++;
    for (PyMethodDef *d = extra; d && d->ml_name; d++)
        n++;
    PyMethodDef *all = PyMem_Calloc(n + 1, sizeof *all);
    if (!all)
        return (PyMethodDef *)PyErr_NoMemory();
    size_t i = 0;
    for (int k = 0; tables && tables[k]; k++)
        for (PyMethodDef *d = tables[k]; d->ml_name; d++)
            all[i++] = *d;
    for (PyMethodDef *d = extra; d && d->ml_name; d++) {
        all[i] = *d;
        if (add_static)
            all[i].ml_flags |= METH_STATIC;
        i++;
    }
    return all;
}

static PyMethodDef *variable_functions_table;

/* torch._C._VariableFunctions: an instance of _VariableFunctionsClass whose static methods
 * are the torch.* operator functions, as upstream has it. */
static int
init_variable_functions(PyObject *module)
{
    variable_functions_table = merge_tables(tables_for("torch"), tn_torch_manual_functions, 1);
    if (!variable_functions_table)
        return -1;
    PyType_Slot slots[] = {
        {Py_tp_methods, variable_functions_table},
        {0, NULL},
    };
    PyType_Spec spec = {"torch._C._VariableFunctionsClass", sizeof(PyObject), 0, Py_TPFLAGS_DEFAULT, slots};
    PyObject *cls = PyType_FromSpec(&spec);
    if (!cls)
        return -1;
    PyObject *inst = PyType_GenericNew((PyTypeObject *)cls, NULL, NULL);
    if (!inst) {
        Py_DECREF(cls);
        return -1;
    }
    if (PyModule_AddObject(module, "_VariableFunctionsClass", cls) < 0)
        return -1;
    tn_set_module_for_binding(TN_BINDING_TORCH, inst);
    return PyModule_AddObject(module, "_VariableFunctions", inst);
}

static PyObject *
make_submodule(PyObject *module, const char *attr, const char *bindings, PyMethodDef *extra)
{
    char full[64];
    snprintf(full, sizeof full, "torch._C.%s", attr);
    PyObject *m = PyModule_New(full);
    if (!m)
        return NULL;
    PyMethodDef *table = merge_tables(tables_for(bindings), extra, 0);
    if (!table || PyModule_AddFunctions(m, table) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddObjectRef(module, attr, m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;  /* new reference kept in submodules[] */
}

/* ---- embedded Python ---- */

/* The code of one embedded file: compiled from its source, or, once codecache.py (first in
 * ORDER) has run, from its bytecode cache. */
static PyObject *
embedded_code(const tn_embedded_file *f, PyObject *loader)
{
    if (loader)
        return PyObject_CallFunction(loader, "ss", f->name, f->source);
    char filename[128];
    snprintf(filename, sizeof filename, "<torchnative runtime/py/%s>", f->name);
    return Py_CompileString(f->source, filename, Py_file_input);
}

static int
run_embedded(PyObject *module)
{
    PyObject *builtins = PyEval_GetBuiltins();
    PyObject *loader = NULL;
    int rc = -1;
    for (const tn_embedded_file *f = tn_embedded_py; f->name; f++) {
        PyObject *code = embedded_code(f, loader);
        if (!code)
            goto done;
        PyObject *ns = Py_BuildValue("{s:s,s:O}", "__name__", "torch._C", "__builtins__", builtins);
        if (!ns) {
            Py_DECREF(code);
            goto done;
        }
        PyObject *r = PyEval_EvalCode(code, ns, ns);
        Py_DECREF(code);
        if (!r) {
            Py_DECREF(ns);
            goto done;
        }
        Py_DECREF(r);
        if (!loader && strcmp(f->name, "codecache.py") == 0) {
            loader = PyDict_GetItemString(ns, "load");
            Py_XINCREF(loader);
        }
        PyObject *install = PyDict_GetItemString(ns, "install");
        if (!install) {
            PyErr_Format(PyExc_RuntimeError, "torchnative: runtime/py/%s defines no install()", f->name);
            Py_DECREF(ns);
            goto done;
        }
        r = PyObject_CallFunctionObjArgs(install, module, NULL);
        Py_DECREF(ns);
        if (!r)
            goto done;
        Py_DECREF(r);
    }
    rc = 0;
done:
    Py_XDECREF(loader);
    return rc;
}

/* ---- module-level functions upstream's import calls ---- */

static int update_torch_storage(void);

static PyObject *
init_extension(PyObject *self, PyObject *arg)
{
    PyObject *torch = PyImport_ImportModule("torch");
    if (!torch)
        return NULL;
    int r = tn_dtype_inject(torch);
    if (r == 0) {
        /* THPStorage_postInit: the class storages are made as */
        PyObject *us = PyObject_GetAttrString(torch, "UntypedStorage");
        if (us && PyType_Check(us))
            tn_storage_class = (PyTypeObject *)us;
        else {
            Py_XDECREF(us);
            r = -1;
        }
    }
    if (r == 0) {
        PyObject *priv = PyObject_GetAttrString(the_module, "_torchnative");
        PyObject *hook = priv ? PyObject_GetAttrString(priv, "init_extension") : NULL;
        Py_XDECREF(priv);
        PyObject *res = hook ? PyObject_CallFunctionObjArgs(hook, torch, NULL) : NULL;
        Py_XDECREF(hook);
        if (!res)
            r = -1;
        Py_XDECREF(res);
    }
    Py_DECREF(torch);
    if (r < 0 || update_torch_storage() < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* _autograd_init: upstream's THPAutograd_initExtension also records torch.Tensor and
 * nn.Parameter as the classes new tensors are made as. */
static PyObject *
autograd_init(PyObject *self, PyObject *unused)
{
    PyObject *mod = PyImport_ImportModule("torch._tensor");
    PyObject *cls = mod ? PyObject_GetAttrString(mod, "Tensor") : NULL;
    Py_XDECREF(mod);
    if (!cls)
        return NULL;
    tn_set_tensor_class((PyTypeObject *)cls);
    Py_DECREF(cls);
    mod = PyImport_ImportModule("torch.nn.parameter");
    cls = mod ? PyObject_GetAttrString(mod, "Parameter") : NULL;
    Py_XDECREF(mod);
    if (!cls)
        return NULL;
    tn_set_parameter_class((PyTypeObject *)cls);
    Py_DECREF(cls);
    Py_RETURN_TRUE;
}

static PyObject *
return_true(PyObject *self, PyObject *args)
{
    Py_RETURN_TRUE;
}

/* _add_docstr(obj, doc): set the docstring of one of our functions, methods or properties.
 * Upstream writes ml_doc / getset doc in place and refuses objects that already have one; we
 * do the same on our own PyMethodDef/PyGetSetDef tables (the limited API has no access to a
 * descriptor's internals, so the entry is found by name in the tables we created). */
static PyMethodDef *find_method_def(PyMethodDef *table, const char *name);

static int
set_doc_in_table(PyMethodDef *table, const char *name, const char *doc, int *found)
{
    PyMethodDef *d = find_method_def(table, name);
    if (!d)
        return 0;
    *found = 1;
    if (d->ml_doc) {
        PyErr_Format(PyExc_RuntimeError, "method '%s' already has a docstring", name);
        return -1;
    }
    d->ml_doc = strdup(doc);
    return 0;
}

static PyMethodDef *
find_method_def(PyMethodDef *table, const char *name)
{
    for (PyMethodDef *d = table; d && d->ml_name; d++)
        if (!strcmp(d->ml_name, name))
            return d;
    return NULL;
}

static PyObject *
add_docstr(PyObject *self, PyObject *args)
{
    PyObject *obj, *docobj;
    if (!PyArg_ParseTuple(args, "OO", &obj, &docobj))
        return NULL;
    if (!PyUnicode_Check(docobj)) {
        PyErr_SetString(PyExc_TypeError, "_add_docstr: doc must be a str");
        return NULL;
    }
    const char *doc = PyUnicode_AsUTF8AndSize(docobj, NULL);
    PyObject *nameobj = PyObject_GetAttrString(obj, "__name__");
    if (!nameobj) {
        PyErr_Clear();
        /* upstream accepts any object and sets nothing it cannot */
        return Py_NewRef(obj);
    }
    const char *name = PyUnicode_AsUTF8AndSize(nameobj, NULL);
    int found = 0;
    /* a method descriptor names its class in __objclass__, a bound classmethod in __self__ */
    PyObject *owner = PyObject_GetAttrString(obj, "__objclass__");
    if (!owner) {
        PyErr_Clear();
        owner = PyCFunction_Check(obj) ? PyObject_GetAttrString(obj, "__self__") : NULL;
        if (!owner)
            PyErr_Clear();
    }
    PyMethodDef *class_table = owner == (PyObject *)tn_TensorBase_Type ? tn_tensor_methods_merged
                               : owner == (PyObject *)tn_StorageBase_Type ? tn_storage_methods
                                                                          : NULL;
    Py_XDECREF(owner);
    int r = 0;
    if (class_table)
        r = set_doc_in_table(class_table, name, doc, &found);
    else if (PyCFunction_Check(obj)) {
        r = set_doc_in_table(variable_functions_table, name, doc, &found);
        if (r == 0 && !found) {
            /* functions of submodules and module-level functions: write into their method def */
            for (int b = 2; b < 8 && !found && r == 0; b++) {
                PyObject *m = submodules[b];
                if (!m)
                    continue;
                PyObject *f = PyObject_GetAttrString(m, name);
                if (!f) {
                    PyErr_Clear();
                    continue;
                }
                if (f == obj) {
                    PyObject *d = PyObject_GetAttrString(f, "__doc__");
                    if (d && d != Py_None) {
                        PyErr_Format(PyExc_RuntimeError, "function '%s' already has a docstring", name);
                        r = -1;
                    }
                    Py_XDECREF(d);
                    found = 1;
                }
                Py_DECREF(f);
            }
        }
    }
    Py_DECREF(nameobj);
    if (r < 0)
        return NULL;
    /* getset descriptors and our Python-level objects accept __doc__ directly */
    if (!found && PyObject_SetAttrString(obj, "__doc__", docobj) < 0)
        PyErr_Clear();
    return Py_NewRef(obj);
}

static PyObject *
get_default_dtype(PyObject *self, PyObject *unused)
{
    return Py_NewRef(tn_dtype_objs[tn_default_dtype]);
}

/* torch.Storage is the legacy storage class of the default dtype (torch.FloatStorage unless
 * changed); upstream's set_default_dtype/set_default_tensor_type move it. Before torch has
 * that class (early in its import) there is nothing to set. */
static int
update_torch_storage(void)
{
    PyObject *modname = PyUnicode_FromString("torch");
    PyObject *torch = modname ? PyImport_GetModule(modname) : NULL;
    Py_XDECREF(modname);
    PyErr_Clear();
    if (!torch)
        return 0;
    char name[64];
    snprintf(name, sizeof name, "%sStorage", tn_dtype_legacy_name(tn_default_dtype));
    PyObject *cls = PyObject_GetAttrString(torch, name);
    int r = 0;
    if (cls)
        r = PyObject_SetAttrString(torch, "Storage", cls);
    else
        PyErr_Clear();
    Py_XDECREF(cls);
    Py_DECREF(torch);
    return r;
}

static PyObject *
set_default_dtype(PyObject *self, PyObject *arg)
{
    int d = tn_dtype_from_py(arg);
    if (d < 0)
        return NULL;
    if (!(d == TN_DTYPE_F32 || d == TN_DTYPE_F64 || d == TN_DTYPE_F16 || d == TN_DTYPE_BF16)) {
        PyErr_Format(PyExc_TypeError, "only floating-point types are supported as the default type");
        return NULL;
    }
    tn_default_dtype = d;
    if (update_torch_storage() < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
get_default_tensor_type(PyObject *self, PyObject *unused)
{
    return PyUnicode_FromFormat("torch.%sTensor", tn_dtype_legacy_name(tn_default_dtype));
}

static PyObject *
set_default_tensor_type(PyObject *self, PyObject *arg)
{
    PyObject *name = PyUnicode_Check(arg) ? Py_NewRef(arg) : PyObject_GetAttrString(arg, "__name__");
    if (!name)
        return NULL;
    const char *s = PyUnicode_AsUTF8AndSize(name, NULL);
    int d = -1;
    if (s) {
        const char *base = strrchr(s, '.') ? strrchr(s, '.') + 1 : s;
        if (!strcmp(base, "FloatTensor"))
            d = TN_DTYPE_F32;
        else if (!strcmp(base, "DoubleTensor"))
            d = TN_DTYPE_F64;
        else if (!strcmp(base, "HalfTensor"))
            d = TN_DTYPE_F16;
        else if (!strcmp(base, "BFloat16Tensor"))
            d = TN_DTYPE_BF16;
    }
    Py_DECREF(name);
    if (d < 0) {
        PyErr_SetString(PyExc_TypeError, "only floating-point CPU tensor types are supported as the default type");
        return NULL;
    }
    tn_default_dtype = d;
    if (update_torch_storage() < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
init_names(PyObject *self, PyObject *arg)
{
    Py_RETURN_NONE;
}

static PyObject *
multiprocessing_init(PyObject *self, PyObject *unused)
{
    /* upstream injects _prctl_pr_set_pdeathsig into torch.multiprocessing */
    PyObject *mp = PyImport_ImportModule("torch.multiprocessing");
    if (!mp)
        return NULL;
    PyObject *priv = PyObject_GetAttrString(the_module, "_torchnative");
    PyObject *fn = priv ? PyObject_GetAttrString(priv, "prctl_pr_set_pdeathsig") : NULL;
    Py_XDECREF(priv);
    int r = fn ? PyObject_SetAttrString(mp, "_prctl_pr_set_pdeathsig", fn) : -1;
    Py_XDECREF(fn);
    Py_DECREF(mp);
    if (r < 0)
        return NULL;
    Py_RETURN_TRUE;
}

static PyMethodDef module_functions[] = {
    {"_initExtension", init_extension, METH_O, NULL},
    {"_autograd_init", autograd_init, METH_NOARGS, NULL},
    {"_jit_init", return_true, METH_NOARGS, NULL},
    {"_multiprocessing_init", multiprocessing_init, METH_NOARGS, NULL},
    {"_add_docstr", add_docstr, METH_VARARGS, NULL},
    {"get_default_dtype", get_default_dtype, METH_NOARGS, NULL},
    {"_set_default_dtype", set_default_dtype, METH_O, NULL},
    {"_get_default_tensor_type", get_default_tensor_type, METH_NOARGS, NULL},
    {"_set_default_tensor_type", set_default_tensor_type, METH_O, NULL},
    {"_init_names", init_names, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "torch._C", NULL, -1, NULL, NULL, NULL, NULL, NULL,
};

static int
init(PyObject *m)
{
    /* TensorBase's slots that call into higher floors are handed to it here */
    tn_tensor_type_parts tensor_parts = {
        .method_tables = tn_tensor_method_tables,
        .getset = tn_tensor_op_getset,
        .tp_new = tn_tensor_legacy_new,
        .mp_subscript = tn_tensor_mp_subscript,
        .mp_ass_subscript = tn_tensor_mp_ass_subscript,
        .mp_length = tn_tensor_mp_length,
    };
    if (tn_tensor_check_manual(tn_tensor_manual_names) < 0)
        return -1;
    if (tn_dtype_types_init(m, tn_finfo_pynew, tn_iinfo_pynew) < 0 || tn_device_type_init(m, tn_device_pynew) < 0 || tn_size_type_init(m) < 0 ||
        tn_storage_type_init(m) < 0 || tn_tensor_type_init(m, &tensor_parts) < 0 || tn_generator_type_init(m, tn_generator_pynew) < 0 ||
        tn_tls_init(m) < 0 || tn_torch_function_init(m) < 0 || tn_context_init(m) < 0 ||
        tn_dispatch_init(m, tn_kernel_table, tn_out_check_table) < 0 || tn_op_registry_init() < 0 || tn_torch_ops_init(m) < 0 ||
        tn_profiler_init(m) < 0 || tn_dataloader_init(m) < 0 || tn_serialization_init(m) < 0 ||
        tn_c10d_init(m) < 0 || tn_linalg_error_init(m) < 0)
        return -1;
    if (PyModule_AddFunctions(m, module_functions) < 0 || PyModule_AddFunctions(m, tn_module_functions) < 0)
        return -1;
    /* torch._C._functions holds every grad_fn class (not in sys.modules, as upstream) */
    PyObject *functions = PyModule_New("torch._C._functions");
    if (!functions || PyModule_AddObject(m, "_functions", functions) < 0)
        return -1;
    if (tn_autograd_node_init(functions) < 0 || tn_autograd_engine_init(m, functions) < 0 ||
        tn_autograd_function_init(m, functions) < 0 || tn_saved_tensor_init(m) < 0 ||
        tn_autograd_install(tn_autograd_table) < 0)
        return -1;
    /* _TensorMeta: `type` (see DESIGN.md: a C type cannot carry a metaclass under the 3.11 limited API) */
    if (PyModule_AddObjectRef(m, "_TensorMeta", (PyObject *)&PyType_Type) < 0)
        return -1;
    if (init_variable_functions(m) < 0)
        return -1;
    static const struct {
        int bit;
        const char *attr, *bindings;
    } subs[] = {
        {2, "_nn", "nn"}, {3, "_fft", "fft"}, {4, "_linalg", "linalg"}, {5, "_nested", "nested"},
        {6, "_sparse", "sparse"}, {7, "_special", "special"},
    };
    for (int i = 0; i < TN_ARRAY_LEN(subs); i++) {
        PyMethodDef *extra = subs[i].bit == 2 ? tn_nn_manual_functions : NULL;
        if (!(submodules[subs[i].bit] = make_submodule(m, subs[i].attr, subs[i].bindings, extra)))
            return -1;
        tn_set_module_for_binding(1 << subs[i].bit, submodules[subs[i].bit]);
    }
    PyObject *priv = PyModule_New("torch._C._torchnative");
    if (!priv || PyModule_AddFunctions(priv, tn_private_dispatch_functions) < 0 ||
        PyModule_AddFunctions(priv, tn_private_functions) < 0 ||
        PyModule_AddFunctions(priv, tn_tensor_new_private_functions) < 0 ||
        PyModule_AddFunctions(priv, tn_schema_parser_functions) < 0 ||
        PyModule_AddObject(m, "_torchnative", priv) < 0)
        return -1;
    if (tn_autocast_init(m, priv) < 0)
        return -1;
    tn_autocast_layer = tn_autocast_dispatch;
    return run_embedded(m);
}

PyMODINIT_FUNC
PyInit__C(void)
{
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    the_module = m;
    if (init(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
