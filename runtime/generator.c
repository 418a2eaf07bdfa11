/* torch.Generator and torch.default_generator over kernels/random.c's mt19937.
 * _set_generator_metaclass(meta) re-creates the public Generator class under `meta` (torch's
 * OpaqueBaseMeta), since the limited API of 3.11 cannot give a C type a metaclass, and moves the
 * default generator to it by __class__ assignment. CPython allows that assignment only between
 * classes with the same deallocator, so the public class is a Python-level subclass (slots ())
 * of the C type from the start, and its re-creation is another such subclass.
 */
#include "generator.h"
#include "tensor.h"
#include "device.h"
#include "dtype.h"

#include <string.h>
#include <time.h>

PyTypeObject *tn_Generator_Type;     /* the C implementation type */
static PyTypeObject *public_type;     /* what torch._C.Generator is (a subclass after re-typing) */
PyObject *tn_default_generator;

tn_generator *
tn_generator_of(PyObject *gen)
{
    if (gen && gen != Py_None)
        return &((GeneratorObject *)gen)->gen;
    return &((GeneratorObject *)tn_default_generator)->gen;
}

PyObject *
tn_generator_alloc(PyTypeObject *tp)
{
    allocfunc alloc = (allocfunc)PyType_GetSlot(tp, Py_tp_alloc);
    GeneratorObject *g = (GeneratorObject *)alloc(tp, 0);
    if (!g)
        return NULL;
    tn_generator_seed(&g->gen, TN_DEFAULT_RNG_SEED);
    return (PyObject *)g;
}

static PyObject *
generator_manual_seed(PyObject *self, PyObject *arg)
{
    PyObject *idx = PyNumber_Index(arg);
    if (!idx) {
        PyErr_Format(PyExc_RuntimeError, "manual_seed expected a long, but got %s", tn_tpname(arg));
        return NULL;
    }
    /* negative seeds wrap to 64 bits, as upstream's THPUtils_unpackUInt64 path does; outside
     * [-2**63, 2**64) upstream's unpacking raises */
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(idx);
    int overflow = 0;
    long long signed_seed = PyLong_AsLongLongAndOverflow(idx, &overflow);
    if (overflow < 0 || (overflow > 0 && (PyLong_AsUnsignedLongLong(idx), PyErr_Occurred()))) {
        PyErr_Clear();
        Py_DECREF(idx);
        PyErr_SetString(PyExc_ValueError, "Overflow when unpacking long");
        return NULL;
    }
    if (!overflow && signed_seed < 0)
        seed = (unsigned long long)signed_seed;
    Py_DECREF(idx);
    if (PyErr_Occurred())
        return NULL;
    tn_generator_seed(&((GeneratorObject *)self)->gen, seed);
    return Py_NewRef(self);
}

/* A non-deterministic seed, as upstream's c10::detail::getNonDeterministicRandom on the CPU:
 * 64 bits of /dev/urandom (no 53-bit mask there; that one is CUDA's). salt: for the time
 * fallback. */
static uint64_t
nondeterministic_seed(const void *salt)
{
    uint64_t s = 0;
    FILE *f = fopen("/dev/urandom", "rb");
    if (f) {
        if (fread(&s, sizeof s, 1, f) != 1)
            s = 0;
        fclose(f);
    }
    if (!s)
        s = (uint64_t)time(NULL) ^ (uint64_t)(uintptr_t)salt;
    return s;
}

static PyObject *
generator_seed(PyObject *self, PyObject *unused)
{
    uint64_t s = nondeterministic_seed(self);
    tn_generator_seed(&((GeneratorObject *)self)->gen, s);
    return PyLong_FromUnsignedLongLong(s);
}

static PyObject *
generator_initial_seed(PyObject *self, PyObject *unused)
{
    return PyLong_FromUnsignedLongLong(tn_generator_initial_seed(&((GeneratorObject *)self)->gen));
}

static PyObject *
generator_get_state(PyObject *self, PyObject *unused)
{
    size_t n = tn_generator_state_size();
    TensorObject *t = tn_tensor_empty(1, (int64_t[]){(int64_t)n}, TN_DTYPE_U8, TN_DEVICE_CPU);
    if (!t)
        return NULL;
    tn_generator_get_state(&((GeneratorObject *)self)->gen, (uint8_t *)tn_tensor_data(t));
    return (PyObject *)t;
}

static PyObject *
generator_set_state(PyObject *self, PyObject *arg)
{
    if (!tn_tensor_check(arg)) {
        PyErr_Format(PyExc_TypeError, "expected a torch.ByteTensor, but got %s", tn_tpname(arg));
        return NULL;
    }
    TensorObject *t = TN_T(arg);
    if (t->dtype != TN_DTYPE_U8 || !tn_tensor_is_contiguous(t)) {
        PyErr_SetString(PyExc_TypeError, "expected a contiguous torch.ByteTensor");
        return NULL;
    }
    if (tn_generator_set_state(&((GeneratorObject *)self)->gen, (const uint8_t *)tn_tensor_data(t),
                               (size_t)t->numel) != TN_OK) {
        PyErr_SetString(PyExc_RuntimeError, "Expected either a CPUGeneratorImplStateLegacy of size 5048 or a "
                        "CPUGeneratorImplState of size 5056 but found the input RNG state size to be different");
        return NULL;
    }
    return Py_NewRef(self);
}

static PyObject *
generator_get_device(PyObject *self, void *c)
{
    return Py_NewRef(tn_device_cpu);
}

static PyObject *
generator_clone_state(PyObject *self, PyObject *unused)
{
    PyTypeObject *tp = Py_TYPE(self);
    allocfunc alloc = (allocfunc)PyType_GetSlot(tp, Py_tp_alloc);
    GeneratorObject *g = (GeneratorObject *)alloc(tp, 0);
    if (!g)
        return NULL;
    g->gen = ((GeneratorObject *)self)->gen;
    return (PyObject *)g;
}

static PyObject *
generator_graphsafe_set_state(PyObject *self, PyObject *other)
{
    if (!tn_generator_check(other)) {
        PyErr_SetString(PyExc_TypeError, "graphsafe_set_state expects a torch.Generator");
        return NULL;
    }
    ((GeneratorObject *)self)->gen = ((GeneratorObject *)other)->gen;
    return Py_NewRef(self);
}

/* CPU generators are not offset-based (mt19937): upstream's CPUGeneratorImpl refuses both. */
static PyObject *
generator_offset_refused(PyObject *self, PyObject *args)
{
    PyErr_SetString(PyExc_RuntimeError, "CPU Generator does not use offset");
    return NULL;
}

static PyObject *
generator_reduce(PyObject *self, PyObject *unused)
{
    PyObject *state = generator_get_state(self, NULL);
    if (!state)
        return NULL;
    return Py_BuildValue("(O(O)(OON))", (PyObject *)Py_TYPE(self), tn_device_cpu,
                         PyLong_FromUnsignedLongLong(tn_generator_initial_seed(&((GeneratorObject *)self)->gen)),
                         Py_None, state);
}

static PyObject *
generator_setstate(PyObject *self, PyObject *arg)
{
    PyObject *seed, *offset, *state;
    if (!PyArg_ParseTuple(arg, "OOO", &seed, &offset, &state))
        return NULL;
    PyObject *r = generator_manual_seed(self, seed);
    if (!r)
        return NULL;
    Py_DECREF(r);
    if (state != Py_None)
        return generator_set_state(self, state);
    Py_RETURN_NONE;
}

static PyMethodDef generator_methods[] = {
    {"manual_seed", generator_manual_seed, METH_O, NULL},
    {"seed", generator_seed, METH_NOARGS, NULL},
    {"initial_seed", generator_initial_seed, METH_NOARGS, NULL},
    {"get_state", generator_get_state, METH_NOARGS, NULL},
    {"set_state", generator_set_state, METH_O, NULL},
    {"clone_state", generator_clone_state, METH_NOARGS, NULL},
    {"graphsafe_get_state", generator_clone_state, METH_NOARGS, NULL},
    {"graphsafe_set_state", generator_graphsafe_set_state, METH_O, NULL},
    {"set_offset", generator_offset_refused, METH_VARARGS, NULL},
    {"get_offset", generator_offset_refused, METH_NOARGS, NULL},
    {"__reduce__", generator_reduce, METH_NOARGS, NULL},
    {"__setstate__", generator_setstate, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef generator_getset[] = {
    {"device", generator_get_device, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot generator_slots[] = {
    {Py_tp_new, NULL}, /* tn_generator_type_init's */
    {Py_tp_methods, generator_methods},
    {Py_tp_getset, generator_getset},
    {0, NULL},
};

/* class Generator(<C type>, metaclass=meta): __slots__ = () */
static PyObject *
public_subclass(PyObject *meta)
{
    PyObject *dict = Py_BuildValue("{s:(),s:s,s:s}", "__slots__", "__module__", "torch._C", "__qualname__", "Generator");
    PyObject *bases = PyTuple_Pack(1, (PyObject *)tn_Generator_Type);
    PyObject *cls = (dict && bases) ? PyObject_CallFunction(meta, "sOO", "Generator", bases, dict) : NULL;
    Py_XDECREF(dict);
    Py_XDECREF(bases);
    return cls;
}

/* _set_generator_metaclass(meta): see the file comment. */
static PyObject *
set_generator_metaclass(PyObject *module, PyObject *meta)
{
    if (!PyType_Check(meta) || !PyType_IsSubtype((PyTypeObject *)meta, &PyType_Type)) {
        PyErr_SetString(PyExc_TypeError, "_set_generator_metaclass expects a metaclass");
        return NULL;
    }
    if (Py_TYPE((PyObject *)public_type) == (PyTypeObject *)meta)
        Py_RETURN_NONE;
    PyObject *cls = public_subclass(meta);
    if (!cls)
        return NULL;
    if (PyObject_SetAttrString(tn_default_generator, "__class__", cls) < 0 ||
        PyObject_SetAttrString(module, "Generator", cls) < 0) {
        Py_DECREF(cls);
        return NULL;
    }
    /* torch copied the old class at `from torch._C import *`; point it at the new one */
    PyObject *tname = PyUnicode_FromString("torch");
    PyObject *torch = tname ? PyImport_GetModule(tname) : NULL;
    Py_XDECREF(tname);
    if (torch) {
        if (PyObject_SetAttrString(torch, "Generator", cls) < 0)
            PyErr_Clear();
        Py_DECREF(torch);
    } else {
        PyErr_Clear();
    }
    TN_XSETREF(public_type, (PyTypeObject *)cls);
    Py_RETURN_NONE;
}

static PyMethodDef generator_functions[] = {
    {"_set_generator_metaclass", set_generator_metaclass, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

int
tn_generator_type_init(PyObject *module, newfunc tp_new)
{
    generator_slots[0].pfunc = (void *)tp_new;
    PyType_Spec spec = {"torch._C.Generator", sizeof(GeneratorObject), 0,
                        Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, generator_slots};
    tn_Generator_Type = (PyTypeObject *)PyType_FromSpec(&spec);
    if (!tn_Generator_Type)
        return -1;
    tn_tpname_full(tn_Generator_Type);
    public_type = (PyTypeObject *)public_subclass((PyObject *)&PyType_Type);
    if (!public_type)
        return -1;
    tn_default_generator = tn_generator_alloc(public_type);
    if (!tn_default_generator)
        return -1;
    /* a new torch.Generator() starts at the fixed default seed, the process's default generator
     * at a non-deterministic one (upstream's getDefaultCPUGenerator) */
    tn_generator_seed(&((GeneratorObject *)tn_default_generator)->gen, nondeterministic_seed(tn_default_generator));
    if (PyModule_AddObjectRef(module, "Generator", (PyObject *)public_type) < 0 ||
        PyModule_AddObjectRef(module, "default_generator", tn_default_generator) < 0)
        return -1;
    return PyModule_AddFunctions(module, generator_functions);
}
