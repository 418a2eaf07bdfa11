/* The op registry: qualified names ("aten::add") -> their overloads, for every ATen overload
 * (generated/ops_table.c), the ops upstream registers from C++ (schemas/extra_ops.yaml) and
 * the ops Python defines at run time (torch.library). torch.ops and the parser look ops up
 * here by name. */
#include "op_registry.h"

#include <stdio.h>
#include <string.h>

static PyObject *registry;     /* dict "aten::add" -> list of capsules (tn_op *), yaml order kept */
static PyObject *overloads_of; /* dict "aten::add" -> list of overload names */

static int
register_op(tn_op *op)
{
    char q[256];
    const char *ns = op->ns ? op->ns : "aten";
    snprintf(q, sizeof q, "%s::%s", ns, op->name);
    PyObject *key = PyUnicode_FromString(q);
    if (!key)
        return -1;
    PyObject *list = PyDict_GetItemWithError(registry, key);
    PyObject *names = PyDict_GetItemWithError(overloads_of, key);
    if (!list) {
        if (PyErr_Occurred() || !(list = PyList_New(0)) || PyDict_SetItem(registry, key, list) < 0) {
            Py_DECREF(key);
            return -1;
        }
        Py_DECREF(list);
        names = PyList_New(0);
        if (!names || PyDict_SetItem(overloads_of, key, names) < 0) {
            Py_DECREF(key);
            return -1;
        }
        Py_DECREF(names);
    }
    Py_DECREF(key);
    PyObject *cap = PyCapsule_New(op, "tn_op", NULL);
    PyObject *oname = PyUnicode_FromString(op->overload);
    int r = (cap && oname && PyList_Append(list, cap) == 0 && PyList_Append(names, oname) == 0) ? 0 : -1;
    Py_XDECREF(cap);
    Py_XDECREF(oname);
    return r;
}

tn_op *
tn_find_op(const char *qualname, const char *overload)
{
    PyObject *list = PyDict_GetItemString(registry, qualname);
    if (!list)
        return NULL;
    for (Py_ssize_t i = 0; i < PyList_Size(list); i++) {
        tn_op *op = PyCapsule_GetPointer(PyList_GetItem(list, i), "tn_op");
        if (!strcmp(op->overload, overload))
            return op;
    }
    return NULL;
}

PyObject *
tn_ops_packet_overloads(const char *qualname)
{
    PyObject *names = PyDict_GetItemString(overloads_of, qualname);
    return names ? PySequence_List(names) : NULL;
}

/* Append an op that is not in native_functions.yaml, from its full schema
 * "ns::name.overload(args) -> rets": ops upstream registers from C++ (schemas/extra_ops.yaml)
 * and ops Python declares (prims, custom ops). Returns NULL with an exception set. */
tn_op *
tn_op_define(const char *full)
{
    const char *colons = strstr(full, "::");
    const char *open = strchr(full, '(');
    if (!colons || !open || colons > open) {
        PyErr_Format(PyExc_RuntimeError, "cannot parse schema %s", full);
        return NULL;
    }
    char ns[128], name[256];
    snprintf(ns, sizeof ns, "%.*s", (int)(colons - full), full);
    snprintf(name, sizeof name, "%.*s", (int)(open - colons - 2), colons + 2);
    char *dot = strchr(name, '.');
    const char *ov = "";
    if (dot) {
        *dot = 0;
        ov = dot + 1;
    }
    char q[400];
    snprintf(q, sizeof q, "%s::%s", ns, name);
    if (tn_find_op(q, ov)) {
        PyErr_Format(PyExc_RuntimeError,
                     "Tried to register an operator (%s%s%s) with the same name and overload name multiple times.",
                     q, ov[0] ? "." : "", ov);
        return NULL;
    }
    tn_op *op = calloc(1, sizeof *op);
    if (!op)
        return (tn_op *)PyErr_NoMemory();
    op->name = strdup(name);
    op->overload = strdup(ov);
    op->ns = strdup(ns);
    op->schema = strdup(full);
    op->functional = -1;
    op->cia_alias = -1;
    op->flags = TN_OPK_FUNCTIONAL;
    op->id = -1;
    if (register_op(op) < 0)
        return NULL;
    return op;
}

PyObject *
tn_op_overloads_list(PyObject *qualname)
{
    return PyDict_GetItemWithError(registry, qualname);
}

int
tn_op_registry_init(void)
{
    registry = PyDict_New();
    overloads_of = PyDict_New();
    if (!registry || !overloads_of)
        return -1;
    for (int i = 0; i < TN_NUM_ATEN_OPS; i++) {
        tn_ops[i].id = i;
        if (register_op(&tn_ops[i]) < 0)
            return -1;
    }
    for (int i = 0; i < TN_NUM_EXTRA_OPS; i++)
        if (!tn_op_define(tn_extra_schemas[i]))
            return -1;
    return 0;
}
