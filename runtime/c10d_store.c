/* torch._C._distributed_c10d's stores (see c10d_store.h). Store is the base Python classes
 * subclass (its pure virtuals refuse as upstream's trampoline does); HashStore, FileStore and
 * TCPStore hold their state in C and release the GIL while they block; PrefixStore calls the
 * store it wraps through Python, so it wraps Python subclasses too.
 * To add a method: a C function and a row in the type's PyMethodDef table.
 */
#include "c10d_store.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "c10d_kv.h"
#include "c10d_tcpstore.h"

static PyObject *c_module;       /* torch._C: where distributed.py puts the _Dist* errors */
static PyObject *timedelta_type; /* datetime.timedelta */
static PyTypeObject *Store_Type, *HashStore_Type, *FileStore_Type, *TCPStore_Type,
    *PrefixStore_Type;

#define DEFAULT_STORE_TIMEOUT_MS 300000  /* c10d::Store::kDefaultTimeout */

/* ---- errors, keys, values, timedeltas ---- */

PyObject *
tn_c10d_raise(const char *cls, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    PyObject *type = c_module ? PyObject_GetAttrString(c_module, cls) : NULL;
    if (!type) {
        PyErr_Clear();
        PyErr_SetString(PyExc_RuntimeError, msg);
        return NULL;
    }
    PyErr_SetString(type, msg);
    Py_DECREF(type);
    return NULL;
}

/* A failed network call as the exception upstream raises for it. */
static PyObject *
raise_net(int rc, const char *err)
{
    if (rc == TN_NET_TIMEOUT)
        return tn_c10d_raise("_DistStoreError", "%s", err);
    return tn_c10d_raise("_DistNetworkError", "%s", err);
}

static int
ensure_timedelta(void)
{
    if (timedelta_type)
        return 0;
    PyObject *dt = PyImport_ImportModule("datetime");
    if (!dt)
        return -1;
    timedelta_type = PyObject_GetAttrString(dt, "timedelta");
    Py_DECREF(dt);
    return timedelta_type ? 0 : -1;
}

int64_t
tn_c10d_timedelta_ms(PyObject *td)
{
    if (ensure_timedelta() < 0)
        return -1;
    if (!PyObject_IsInstance(td, timedelta_type)) {
        PyErr_Format(PyExc_TypeError, "expected a datetime.timedelta, got %s", tn_tpname(td));
        return -1;
    }
    int64_t parts[3];
    static const char *names[3] = {"days", "seconds", "microseconds"};
    for (int i = 0; i < 3; i++) {
        PyObject *v = PyObject_GetAttrString(td, names[i]);
        parts[i] = v ? PyLong_AsLongLong(v) : -1;
        Py_XDECREF(v);
        if (PyErr_Occurred())
            return -1;
    }
    int64_t us = parts[0] * 86400000000LL + parts[1] * 1000000LL + parts[2];
    return us / 1000;
}

PyObject *
tn_c10d_timedelta_from_ms(int64_t ms)
{
    if (ensure_timedelta() < 0)
        return NULL;
    PyObject *args = PyTuple_New(0);
    PyObject *kw = Py_BuildValue("{s:L}", "milliseconds", (long long)ms);
    PyObject *r = (args && kw) ? PyObject_Call(timedelta_type, args, kw) : NULL;
    Py_XDECREF(args);
    Py_XDECREF(kw);
    return r;
}

/* str (UTF-8), bytes, bytearray, or a sequence of ints 0..255 (pybind's std::vector<uint8_t>)
 * as a new bytes object. */
static PyObject *
as_bytes(PyObject *o)
{
    if (PyUnicode_Check(o))
        return PyUnicode_AsUTF8String(o);
    if (PyBytes_Check(o)) {
        Py_INCREF(o);
        return o;
    }
    if (PyByteArray_Check(o))
        return PyBytes_FromStringAndSize(PyByteArray_AsString(o), PyByteArray_Size(o));
    if (PySequence_Check(o))
        return PyBytes_FromObject(o);
    PyErr_Format(PyExc_TypeError, "expected str or bytes, got %s", tn_tpname(o));
    return NULL;
}

/* A key (str or bytes) as UTF-8 bytes in a new bytes object. */
static PyObject *
as_key(PyObject *o)
{
    if (PyUnicode_Check(o))
        return PyUnicode_AsUTF8String(o);
    if (PyBytes_Check(o)) {
        Py_INCREF(o);
        return o;
    }
    PyErr_Format(PyExc_TypeError, "a store key must be str, got %s", tn_tpname(o));
    return NULL;
}

/* Keys of a list as bytes objects (new list). */
static PyObject *
as_keys(PyObject *seq)
{
    PyObject *fast = PySequence_List(seq);
    if (!fast)
        return NULL;
    Py_ssize_t n = PyList_Size(fast);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *k = as_key(PyList_GetItem(fast, i));
        if (!k || PyList_SetItem(fast, i, k) < 0) {
            Py_DECREF(fast);
            return NULL;
        }
    }
    return fast;
}

static PyObject *
bytes_of(const tn_bytes *b)
{
    PyObject *r = PyBytes_FromStringAndSize(b->data, (Py_ssize_t)b->len);
    free(b->data);
    return r;
}

void
tn_c10d_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    freefunc f = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    f(self);
    Py_DECREF(tp);
}

/* ---- Store: the base ---- */

typedef struct {
    PyObject_HEAD
    int64_t timeout_ms;
} StoreObject;

#define STORE(o) ((StoreObject *)(o))

static int
store_init(PyObject *self, PyObject *args, PyObject *kw)
{
    if (PyTuple_Size(args) || (kw && PyDict_Size(kw))) {
        PyErr_SetString(PyExc_TypeError, "Store.__init__() takes no arguments");
        return -1;
    }
    STORE(self)->timeout_ms = DEFAULT_STORE_TIMEOUT_MS;
    return 0;
}

static PyObject *
store_get_timeout(PyObject *self, void *unused)
{
    return tn_c10d_timedelta_from_ms(STORE(self)->timeout_ms);
}

static PyObject *
store_set_timeout(PyObject *self, PyObject *td)
{
    int64_t ms = tn_c10d_timedelta_ms(td);
    if (ms < 0 && PyErr_Occurred())
        return NULL;
    STORE(self)->timeout_ms = ms;
    Py_RETURN_NONE;
}

/* The timeout argument of wait/barrier: None -> the store's. */
static int
timeout_arg(PyObject *self, PyObject *td, int64_t *ms)
{
    if (!td || td == Py_None) {
        *ms = STORE(self)->timeout_ms;
        return 0;
    }
    *ms = tn_c10d_timedelta_ms(td);
    return (*ms < 0 && PyErr_Occurred()) ? -1 : 0;
}

#define PURE_VIRTUAL(fn, cname)                                                                 \
    static PyObject *fn(PyObject *self, PyObject *args)                                        \
    {                                                                                          \
        PyErr_SetString(PyExc_RuntimeError,                                                    \
                        "Tried to call pure virtual function \"::c10d::Store::" cname "\"");   \
        return NULL;                                                                           \
    }
PURE_VIRTUAL(store_pv_set, "set")
PURE_VIRTUAL(store_pv_get, "get")
PURE_VIRTUAL(store_pv_add, "add")
PURE_VIRTUAL(store_pv_compare_set, "compareSet")
PURE_VIRTUAL(store_pv_delete_key, "deleteKey")
PURE_VIRTUAL(store_pv_num_keys, "getNumKeys")
PURE_VIRTUAL(store_pv_check, "check")
PURE_VIRTUAL(store_pv_wait, "wait")
PURE_VIRTUAL(store_pv_clone, "clone")

static PyObject *
store_not_implemented(const char *what)
{
    PyErr_Format(PyExc_NotImplementedError, "%s support is not implemented.", what);
    return NULL;
}

static PyObject *
store_queue_refused(PyObject *self, PyObject *args)
{
    return store_not_implemented("queue");
}

static PyObject *
store_list_keys_refused(PyObject *self, PyObject *args)
{
    return store_not_implemented("listKeys");
}

/* Store::multiGet / multiSet / append / barrier: written over the virtual methods, so they
 * call the object's own (possibly Python) set/get/compare_set/add/wait. */
static PyObject *
store_multi_get(PyObject *self, PyObject *keys)
{
    PyObject *list = PySequence_List(keys);
    if (!list)
        return NULL;
    Py_ssize_t n = PyList_Size(list);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyObject_CallMethod(self, "get", "O", PyList_GetItem(list, i));
        if (!v || PyList_SetItem(list, i, v) < 0) {
            Py_DECREF(list);
            return NULL;
        }
    }
    return list;
}

static PyObject *
store_multi_set(PyObject *self, PyObject *args)
{
    PyObject *keys, *values;
    if (!PyArg_ParseTuple(args, "OO:multi_set", &keys, &values))
        return NULL;
    Py_ssize_t n = PySequence_Size(keys);
    if (n < 0 || PySequence_Size(values) != n) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "multi_set: keys and values differ in length");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *k = PySequence_GetItem(keys, i), *v = PySequence_GetItem(values, i);
        PyObject *r = (k && v) ? PyObject_CallMethod(self, "set", "OO", k, v) : NULL;
        Py_XDECREF(k);
        Py_XDECREF(v);
        if (!r)
            return NULL;
        Py_DECREF(r);
    }
    Py_RETURN_NONE;
}

static PyObject *
store_append(PyObject *self, PyObject *args)
{
    PyObject *key, *value;
    if (!PyArg_ParseTuple(args, "OO:append", &key, &value))
        return NULL;
    PyObject *add = as_bytes(value);
    if (!add)
        return NULL;
    /* compare_set loop, as c10d::Store::append */
    PyObject *expected = PyBytes_FromStringAndSize(NULL, 0);
    PyObject *want = NULL, *cur = NULL;
    Py_INCREF(add);
    want = add;
    for (;;) {
        cur = expected ? PyObject_CallMethod(self, "compare_set", "OOO", key, expected, want) : NULL;
        if (!cur)
            break;
        if (PyObject_RichCompareBool(cur, want, Py_EQ) == 1) {
            Py_DECREF(cur);
            Py_DECREF(expected);
            Py_DECREF(want);
            Py_DECREF(add);
            Py_RETURN_NONE;
        }
        TN_SETREF(expected, cur);
        PyObject *next = PyNumber_Add(expected, add);
        if (!next)
            break;
        TN_SETREF(want, next);
    }
    Py_XDECREF(expected);
    Py_XDECREF(want);
    Py_DECREF(add);
    return NULL;
}

static PyObject *
store_barrier(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"key", "world_size", "timeout", NULL};
    PyObject *key, *timeout = Py_None;
    long long world;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "UL|O:barrier", kwlist, &key, &world, &timeout))
        return NULL;
    PyObject *members = PyUnicode_FromFormat("%U/num_members", key);
    PyObject *last = PyUnicode_FromFormat("%U/last_member", key);
    PyObject *idx = members ? PyObject_CallMethod(self, "add", "Oi", members, 1) : NULL;
    PyObject *r = NULL;
    if (idx && last) {
        long long i = PyLong_AsLongLong(idx);
        PyObject *setr = (i == world) ? PyObject_CallMethod(self, "set", "Os", last, "1") : Py_None;
        if (setr) {
            if (setr != Py_None)
                Py_DECREF(setr);
            PyObject *keys = PyList_New(1);
            if (keys) {
                Py_INCREF(last);
                PyList_SetItem(keys, 0, last);
                r = timeout == Py_None ? PyObject_CallMethod(self, "wait", "O", keys)
                                       : PyObject_CallMethod(self, "wait", "OO", keys, timeout);
                Py_DECREF(keys);
            }
        }
    }
    Py_XDECREF(members);
    Py_XDECREF(last);
    Py_XDECREF(idx);
    if (!r)
        return NULL;
    Py_DECREF(r);
    Py_RETURN_NONE;
}

static PyObject *
store_has_extended_api(PyObject *self, PyObject *unused)
{
    Py_RETURN_FALSE;
}

static PyMethodDef store_methods[] = {
    {"set", store_pv_set, METH_VARARGS, NULL},
    {"get", store_pv_get, METH_VARARGS, NULL},
    {"add", store_pv_add, METH_VARARGS, NULL},
    {"compare_set", store_pv_compare_set, METH_VARARGS, NULL},
    {"delete_key", store_pv_delete_key, METH_VARARGS, NULL},
    {"num_keys", store_pv_num_keys, METH_VARARGS, NULL},
    {"check", store_pv_check, METH_VARARGS, NULL},
    {"wait", store_pv_wait, METH_VARARGS, NULL},
    {"clone", store_pv_clone, METH_VARARGS, NULL},
    {"multi_get", store_multi_get, METH_O, NULL},
    {"multi_set", store_multi_set, METH_VARARGS, NULL},
    {"append", store_append, METH_VARARGS, NULL},
    {"queue_push", store_queue_refused, METH_VARARGS, NULL},
    {"queue_pop", store_queue_refused, METH_VARARGS | METH_KEYWORDS, NULL},
    {"queue_len", store_queue_refused, METH_VARARGS, NULL},
    {"list_keys", store_list_keys_refused, METH_NOARGS, NULL},
    {"barrier", (PyCFunction)(void (*)(void))store_barrier, METH_VARARGS | METH_KEYWORDS, NULL},
    {"has_extended_api", store_has_extended_api, METH_NOARGS, NULL},
    {"set_timeout", store_set_timeout, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef store_getset[] = {
    {"timeout", store_get_timeout, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* ---- HashStore ---- */

/* The table a HashStore and its clones share. */
typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    tn_kv values, queues;
    int refs;  /* guarded by the GIL */
} hash_state;

typedef struct {
    StoreObject base;
    hash_state *st;
} HashStoreObject;

#define HS(o) (((HashStoreObject *)(o))->st)

static hash_state *
hash_state_new(void)
{
    hash_state *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&st->mu, NULL);
    pthread_cond_init(&st->cv, &ca);
    pthread_condattr_destroy(&ca);
    st->refs = 1;
    return st;
}

static int
hashstore_init(PyObject *self, PyObject *args, PyObject *kw)
{
    if (PyTuple_Size(args) || (kw && PyDict_Size(kw))) {
        PyErr_SetString(PyExc_TypeError, "HashStore.__init__() takes no arguments");
        return -1;
    }
    STORE(self)->timeout_ms = DEFAULT_STORE_TIMEOUT_MS;
    if (!HS(self) && !(((HashStoreObject *)self)->st = hash_state_new())) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void
hashstore_dealloc(PyObject *self)
{
    hash_state *st = HS(self);
    if (st && --st->refs == 0) {
        tn_kv_free(&st->values);
        tn_kv_free(&st->queues);
        pthread_mutex_destroy(&st->mu);
        pthread_cond_destroy(&st->cv);
        free(st);
    }
    tn_c10d_dealloc(self);
}

static hash_state *
hs_of(PyObject *self)
{
    hash_state *st = HS(self);
    if (!st)
        PyErr_SetString(PyExc_RuntimeError, "HashStore.__init__ was not called");
    return st;
}

/* Keys as C strings, valid while `keys` (a list of bytes) lives. */
typedef struct {
    Py_ssize_t n;
    const char **k;
    size_t *len;
} key_array;

static int
key_array_of(PyObject *keys, key_array *a)
{
    a->n = PyList_Size(keys);
    a->k = malloc((size_t)(a->n + 1) * sizeof *a->k);
    a->len = malloc((size_t)(a->n + 1) * sizeof *a->len);
    if (!a->k || !a->len) {
        free(a->k);
        free(a->len);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < a->n; i++) {
        PyObject *k = PyList_GetItem(keys, i);
        a->k[i] = PyBytes_AsString(k);
        a->len[i] = (size_t)PyBytes_Size(k);
    }
    return 0;
}

static void
key_array_free(key_array *a)
{
    free(a->k);
    free(a->len);
}

static int
hs_ready(hash_state *st, const key_array *a)
{
    for (Py_ssize_t i = 0; i < a->n; i++)
        if (!tn_kv_find(&st->values, a->k[i], a->len[i]))
            return 0;
    return 1;
}

static void
deadline_in(struct timespec *dl, int64_t timeout_ms)
{
    clock_gettime(CLOCK_MONOTONIC, dl);
    int64_t ns = dl->tv_nsec + (timeout_ms % 1000) * 1000000;
    dl->tv_sec += timeout_ms / 1000 + ns / 1000000000;
    dl->tv_nsec = ns % 1000000000;
}

/* Block (GIL released) until every key exists; 0, or -1 with DistStoreError on the timeout.
 * The table's lock is held on entry and on return. */
static int
hs_wait_locked(hash_state *st, PyObject *keys, int64_t timeout_ms)
{
    key_array a;
    if (key_array_of(keys, &a) < 0)
        return -1;
    int ok = hs_ready(st, &a);
    if (!ok) {
        struct timespec dl;
        deadline_in(&dl, timeout_ms);
        Py_BEGIN_ALLOW_THREADS
        while (!(ok = hs_ready(st, &a))) {
            if (timeout_ms <= 0) {
                pthread_cond_wait(&st->cv, &st->mu);
            } else if (pthread_cond_timedwait(&st->cv, &st->mu, &dl) == ETIMEDOUT) {
                ok = hs_ready(st, &a);
                break;
            }
        }
        Py_END_ALLOW_THREADS
    }
    key_array_free(&a);
    if (!ok) {
        tn_c10d_raise("_DistStoreError", "Wait timeout");
        return -1;
    }
    return 0;
}

/* Lock the table with the GIL released (a waiter holds the lock only while it runs C). */
static void
hs_lock(hash_state *st)
{
    if (pthread_mutex_trylock(&st->mu) == 0)
        return;
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&st->mu);
    Py_END_ALLOW_THREADS
}

/* set / append / queue_push on the table: one (key, value) under the lock, waiters woken. */
enum { HS_SET, HS_APPEND, HS_PUSH };

static PyObject *
hs_keyed_value(PyObject *self, PyObject *args, int what)
{
    static const char *fmt[] = {"OO:set", "OO:append", "OO:queue_push"};
    PyObject *k, *v;
    hash_state *st = hs_of(self);
    if (!st || !PyArg_ParseTuple(args, fmt[what], &k, &v))
        return NULL;
    PyObject *kb = as_key(k), *vb = kb ? as_bytes(v) : NULL;
    int rc = -1;
    if (vb) {
        const char *key = PyBytes_AsString(kb), *val = PyBytes_AsString(vb);
        size_t kn = (size_t)PyBytes_Size(kb), vn = (size_t)PyBytes_Size(vb);
        hs_lock(st);
        rc = what == HS_PUSH ? tn_kv_push(&st->queues, key, kn, val, vn)
                             : tn_kv_set(&st->values, key, kn, val, vn, what == HS_APPEND);
        pthread_cond_broadcast(&st->cv);
        pthread_mutex_unlock(&st->mu);
    }
    Py_XDECREF(kb);
    Py_XDECREF(vb);
    if (rc < 0)
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyObject *
hashstore_set(PyObject *self, PyObject *args)
{
    return hs_keyed_value(self, args, HS_SET);
}

static PyObject *
hs_get_many(PyObject *self, PyObject *keys_in, int single)
{
    hash_state *st = hs_of(self);
    if (!st)
        return NULL;
    PyObject *keys = as_keys(keys_in);
    if (!keys)
        return NULL;
    hs_lock(st);
    PyObject *out = NULL;
    if (hs_wait_locked(st, keys, STORE(self)->timeout_ms) == 0) {
        Py_ssize_t n = PyList_Size(keys);
        out = PyList_New(n);
        for (Py_ssize_t i = 0; out && i < n; i++) {
            PyObject *k = PyList_GetItem(keys, i);
            tn_kv_entry *e = tn_kv_find(&st->values, PyBytes_AsString(k), (size_t)PyBytes_Size(k));
            PyList_SetItem(out, i, PyBytes_FromStringAndSize(e->val, (Py_ssize_t)e->vlen));
        }
    }
    pthread_mutex_unlock(&st->mu);
    Py_DECREF(keys);
    if (out && single) {
        PyObject *one = PyList_GetItem(out, 0);
        Py_INCREF(one);
        Py_DECREF(out);
        return one;
    }
    return out;
}

static PyObject *
hashstore_get(PyObject *self, PyObject *key)
{
    PyObject *keys = PyList_New(1);
    if (!keys)
        return NULL;
    Py_INCREF(key);
    PyList_SetItem(keys, 0, key);
    PyObject *r = hs_get_many(self, keys, 1);
    Py_DECREF(keys);
    return r;
}

static PyObject *
hashstore_multi_get(PyObject *self, PyObject *keys)
{
    return hs_get_many(self, keys, 0);
}

/* ADD on a table: the decimal text of the sum, ValueError('stoll') on a non-number. */
static int
kv_add(tn_kv *t, const char *k, size_t kn, int64_t delta, int64_t *out)
{
    tn_kv_entry *e = tn_kv_find(t, k, kn);
    int64_t cur = 0;
    if (e && tn_kv_parse_i64(e->val, e->vlen, &cur) < 0) {
        PyErr_SetString(PyExc_ValueError, "stoll");
        return -1;
    }
    *out = (int64_t)((uint64_t)cur + (uint64_t)delta);
    char text[32];
    int n = snprintf(text, sizeof text, "%lld", (long long)*out);
    if (tn_kv_set(t, k, kn, text, (size_t)n, 0) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static PyObject *
hashstore_add(PyObject *self, PyObject *args)
{
    PyObject *k;
    long long delta;
    hash_state *st = hs_of(self);
    if (!st || !PyArg_ParseTuple(args, "OL:add", &k, &delta))
        return NULL;
    PyObject *kb = as_key(k);
    if (!kb)
        return NULL;
    int64_t v = 0;
    hs_lock(st);
    int rc = kv_add(&st->values, PyBytes_AsString(kb), (size_t)PyBytes_Size(kb), delta, &v);
    pthread_cond_broadcast(&st->cv);
    pthread_mutex_unlock(&st->mu);
    Py_DECREF(kb);
    return rc < 0 ? NULL : PyLong_FromLongLong(v);
}

/* compare_set on a table (HashStore::compareSet, the same rules as the TCPStore server). */
static PyObject *
kv_compare_set(tn_kv *t, PyObject *kb, PyObject *eb, PyObject *db)
{
    const char *k = PyBytes_AsString(kb), *ex = PyBytes_AsString(eb), *de = PyBytes_AsString(db);
    size_t kn = (size_t)PyBytes_Size(kb), en = (size_t)PyBytes_Size(eb), dn = (size_t)PyBytes_Size(db);
    tn_kv_entry *e = tn_kv_find(t, k, kn);
    if (!e) {
        if (en != 0) {
            Py_INCREF(eb);
            return eb;
        }
        if (tn_kv_set(t, k, kn, de, dn, 0) < 0)
            return PyErr_NoMemory();
        Py_INCREF(db);
        return db;
    }
    if (e->vlen == en && memcmp(e->val, ex, en) == 0 && tn_kv_set(t, k, kn, de, dn, 0) < 0)
        return PyErr_NoMemory();
    e = tn_kv_find(t, k, kn);
    return PyBytes_FromStringAndSize(e->val, (Py_ssize_t)e->vlen);
}

static PyObject *
hashstore_compare_set(PyObject *self, PyObject *args)
{
    PyObject *k, *e, *d;
    hash_state *st = hs_of(self);
    if (!st || !PyArg_ParseTuple(args, "OOO:compare_set", &k, &e, &d))
        return NULL;
    PyObject *kb = as_key(k), *eb = kb ? as_bytes(e) : NULL, *db = eb ? as_bytes(d) : NULL;
    PyObject *r = NULL;
    if (db) {
        hs_lock(st);
        r = kv_compare_set(&st->values, kb, eb, db);
        pthread_cond_broadcast(&st->cv);
        pthread_mutex_unlock(&st->mu);
    }
    Py_XDECREF(kb);
    Py_XDECREF(eb);
    Py_XDECREF(db);
    return r;
}

static PyObject *
hashstore_delete_key(PyObject *self, PyObject *k)
{
    hash_state *st = hs_of(self);
    PyObject *kb = st ? as_key(k) : NULL;
    if (!kb)
        return NULL;
    hs_lock(st);
    int r = tn_kv_remove(&st->values, PyBytes_AsString(kb), (size_t)PyBytes_Size(kb));
    pthread_mutex_unlock(&st->mu);
    Py_DECREF(kb);
    return PyBool_FromLong(r);
}

static PyObject *
hashstore_num_keys(PyObject *self, PyObject *unused)
{
    hash_state *st = hs_of(self);
    if (!st)
        return NULL;
    hs_lock(st);
    size_t n = st->values.count;
    pthread_mutex_unlock(&st->mu);
    return PyLong_FromSize_t(n);
}

static PyObject *
hashstore_check(PyObject *self, PyObject *keys_in)
{
    hash_state *st = hs_of(self);
    PyObject *keys = st ? as_keys(keys_in) : NULL;
    if (!keys)
        return NULL;
    key_array a;
    if (key_array_of(keys, &a) < 0) {
        Py_DECREF(keys);
        return NULL;
    }
    hs_lock(st);
    int r = hs_ready(st, &a);
    pthread_mutex_unlock(&st->mu);
    key_array_free(&a);
    Py_DECREF(keys);
    return PyBool_FromLong(r);
}

static PyObject *
hashstore_wait(PyObject *self, PyObject *args)
{
    PyObject *keys_in, *td = Py_None;
    hash_state *st = hs_of(self);
    int64_t ms;
    if (!st || !PyArg_ParseTuple(args, "O|O:wait", &keys_in, &td) || timeout_arg(self, td, &ms) < 0)
        return NULL;
    PyObject *keys = as_keys(keys_in);
    if (!keys)
        return NULL;
    hs_lock(st);
    int rc = hs_wait_locked(st, keys, ms);
    pthread_mutex_unlock(&st->mu);
    Py_DECREF(keys);
    if (rc < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
hashstore_multi_set(PyObject *self, PyObject *args)
{
    PyObject *keys_in, *vals_in;
    hash_state *st = hs_of(self);
    if (!st || !PyArg_ParseTuple(args, "OO:multi_set", &keys_in, &vals_in))
        return NULL;
    PyObject *keys = as_keys(keys_in), *vals = keys ? PySequence_List(vals_in) : NULL;
    if (!vals) {
        Py_XDECREF(keys);
        return NULL;
    }
    Py_ssize_t n = PyList_Size(keys);
    if (PyList_Size(vals) != n) {
        PyErr_SetString(PyExc_ValueError, "multi_set: keys and values differ in length");
        n = -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *vb = as_bytes(PyList_GetItem(vals, i));
        if (!vb || PyList_SetItem(vals, i, vb) < 0) {
            n = -1;
            break;
        }
    }
    if (n >= 0) {
        hs_lock(st);
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *k = PyList_GetItem(keys, i), *v = PyList_GetItem(vals, i);
            tn_kv_set(&st->values, PyBytes_AsString(k), (size_t)PyBytes_Size(k), PyBytes_AsString(v),
                      (size_t)PyBytes_Size(v), 0);
        }
        pthread_cond_broadcast(&st->cv);
        pthread_mutex_unlock(&st->mu);
    }
    Py_DECREF(keys);
    Py_DECREF(vals);
    if (n < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
hashstore_append(PyObject *self, PyObject *args)
{
    return hs_keyed_value(self, args, HS_APPEND);
}

static PyObject *
hashstore_queue_push(PyObject *self, PyObject *args)
{
    return hs_keyed_value(self, args, HS_PUSH);
}

static PyObject *
hashstore_queue_pop(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"key", "block", NULL};
    PyObject *k;
    int block = 1;
    hash_state *st = hs_of(self);
    if (!st || !PyArg_ParseTupleAndKeywords(args, kw, "O|p:queue_pop", kwlist, &k, &block))
        return NULL;
    PyObject *kb = as_key(k);
    if (!kb)
        return NULL;
    const char *key = PyBytes_AsString(kb);
    size_t kn = (size_t)PyBytes_Size(kb);
    int64_t timeout_ms = STORE(self)->timeout_ms;
    hs_lock(st);
    tn_kv_item *item = tn_kv_pop(&st->queues, key, kn);
    if (!item && block) {
        struct timespec dl;
        deadline_in(&dl, timeout_ms);
        Py_BEGIN_ALLOW_THREADS
        while (!(item = tn_kv_pop(&st->queues, key, kn))) {
            if (timeout_ms <= 0)
                pthread_cond_wait(&st->cv, &st->mu);
            else if (pthread_cond_timedwait(&st->cv, &st->mu, &dl) == ETIMEDOUT) {
                item = tn_kv_pop(&st->queues, key, kn);
                break;
            }
        }
        Py_END_ALLOW_THREADS
    }
    pthread_mutex_unlock(&st->mu);
    Py_DECREF(kb);
    if (!item)
        return block ? tn_c10d_raise("_DistStoreError", "Wait timeout")
                     : tn_c10d_raise("_DistQueueEmptyError", "queue is empty");
    PyObject *r = PyBytes_FromStringAndSize(item->data, (Py_ssize_t)item->len);
    free(item);
    return r;
}

static PyObject *
hashstore_queue_len(PyObject *self, PyObject *k)
{
    hash_state *st = hs_of(self);
    PyObject *kb = st ? as_key(k) : NULL;
    if (!kb)
        return NULL;
    hs_lock(st);
    tn_kv_entry *e = tn_kv_find(&st->queues, PyBytes_AsString(kb), (size_t)PyBytes_Size(kb));
    int64_t n = e ? e->qlen : 0;
    pthread_mutex_unlock(&st->mu);
    Py_DECREF(kb);
    return PyLong_FromLongLong(n);
}

static PyObject *
kv_keys(const tn_kv *t, size_t strip, const char *only_prefix)
{
    PyObject *out = PyList_New(0);
    size_t pl = only_prefix ? strlen(only_prefix) : 0;
    for (size_t i = 0; out && i < t->nslots; i++) {
        for (tn_kv_entry *e = t->slots[i]; e; e = e->next) {
            if (pl && (e->klen < pl || memcmp(e->key, only_prefix, pl) != 0))
                continue;
            size_t s = e->klen < strip ? e->klen : strip;
            PyObject *k = PyUnicode_DecodeUTF8(e->key + s, (Py_ssize_t)(e->klen - s), "replace");
            if (!k || PyList_Append(out, k) < 0) {
                Py_XDECREF(k);
                Py_CLEAR(out);
                break;
            }
            Py_DECREF(k);
        }
    }
    return out;
}

static PyObject *
hashstore_list_keys(PyObject *self, PyObject *unused)
{
    hash_state *st = hs_of(self);
    if (!st)
        return NULL;
    hs_lock(st);
    PyObject *r = kv_keys(&st->values, 0, NULL);
    pthread_mutex_unlock(&st->mu);
    return r;
}

static PyObject *
store_true(PyObject *self, PyObject *unused)
{
    Py_RETURN_TRUE;
}

static PyObject *
hashstore_clone(PyObject *self, PyObject *unused)
{
    /* upstream's HashStore::clone returns the same store */
    Py_INCREF(self);
    return self;
}

static PyMethodDef hashstore_methods[] = {
    {"set", hashstore_set, METH_VARARGS, NULL},
    {"get", hashstore_get, METH_O, NULL},
    {"add", hashstore_add, METH_VARARGS, NULL},
    {"compare_set", hashstore_compare_set, METH_VARARGS, NULL},
    {"delete_key", hashstore_delete_key, METH_O, NULL},
    {"num_keys", hashstore_num_keys, METH_NOARGS, NULL},
    {"check", hashstore_check, METH_O, NULL},
    {"wait", hashstore_wait, METH_VARARGS, NULL},
    {"multi_get", hashstore_multi_get, METH_O, NULL},
    {"multi_set", hashstore_multi_set, METH_VARARGS, NULL},
    {"append", hashstore_append, METH_VARARGS, NULL},
    {"queue_push", hashstore_queue_push, METH_VARARGS, NULL},
    {"queue_pop", (PyCFunction)(void (*)(void))hashstore_queue_pop, METH_VARARGS | METH_KEYWORDS, NULL},
    {"queue_len", hashstore_queue_len, METH_O, NULL},
    {"list_keys", hashstore_list_keys, METH_NOARGS, NULL},
    {"has_extended_api", store_true, METH_NOARGS, NULL},
    {"clone", hashstore_clone, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

/* ---- FileStore: upstream's append-only file ---- */

/* Note [FileStore format]
 * As upstream's FileStore.cpp (checked by writing one with upstream 2.13.0 and reading it
 * here, tests/python/test_distributed.py): a sequence of records, each a u32 length + key bytes
 * then a u32 length + value bytes, appended under an exclusive flock(2). Keys of the store are
 * written "/" + key; a delete appends "-/" + key with an empty value; the bookkeeping keys
 * "refcount/" (+1 per open FileStore, -1 at close) and "cleanup/" (+1 at close) decide who
 * removes the file: the last one, once cleanup/ reaches the world size. Readers replay the
 * records they have not seen into a cache. */

typedef struct {
    StoreObject base;
    char *path;
    int num_workers;
    off_t pos;
    tn_kv cache;
    pthread_mutex_t mu;
} FileStoreObject;

#define FS(o) ((FileStoreObject *)(o))

static int
fs_open(FileStoreObject *fs, int flags, char *err)
{
    int64_t deadline = tn_net_deadline(fs->base.timeout_ms);
    for (;;) {
        int fd = open(fs->path, flags | O_CLOEXEC, 0644);
        if (fd >= 0)
            return fd;
        if (errno != ENOENT || (flags & O_CREAT) || tn_net_now_ms() > deadline) {
            snprintf(err, TN_NET_ERRLEN, "%s", strerror(errno));
            return -1;
        }
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
}

static int
read_full(int fd, void *p, size_t n)
{
    char *c = p;
    while (n) {
        ssize_t r = read(fd, c, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        c += r;
        n -= (size_t)r;
    }
    return 0;
}

static int
write_full(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Replay records past fs->pos into the cache (the file is locked). */
static int
fs_refresh(FileStoreObject *fs, int fd)
{
    off_t size = lseek(fd, 0, SEEK_END);
    if (size < 0 || size == fs->pos)
        return size < 0 ? -1 : 0;
    lseek(fd, fs->pos, SEEK_SET);
    while (fs->pos < size) {
        uint32_t kl, vl;
        char *k = NULL, *v = NULL;
        if (read_full(fd, &kl, 4) < 0 || !(k = malloc(kl + 1)) || read_full(fd, k, kl) < 0 ||
            read_full(fd, &vl, 4) < 0 || !(v = malloc(vl + 1)) || read_full(fd, v, vl) < 0) {
            free(k);
            free(v);
            return -1;
        }
        if (kl > 0 && k[0] == '-')
            tn_kv_remove(&fs->cache, k + 1, kl - 1);
        else
            tn_kv_set(&fs->cache, k, kl, v, vl, 0);
        free(k);
        free(v);
        fs->pos = lseek(fd, 0, SEEK_CUR);
    }
    return 0;
}

static int
fs_append(int fd, const char *k, size_t kl, const char *v, size_t vl)
{
    uint32_t a = (uint32_t)kl, b = (uint32_t)vl;
    lseek(fd, 0, SEEK_END);
    return (write_full(fd, &a, 4) < 0 || write_full(fd, k, kl) < 0 || write_full(fd, &b, 4) < 0 ||
            write_full(fd, v, vl) < 0) ? -1 : 0;
}

/* One locked operation on the file: opens it, flocks, refreshes, runs fn, unlocks, closes.
 * Runs without the GIL. */
typedef int (*fs_fn)(FileStoreObject *fs, int fd, void *ctx);

static int
fs_locked(FileStoreObject *fs, int flags, int lock, fs_fn fn, void *ctx, char *err)
{
    pthread_mutex_lock(&fs->mu);
    int fd = fs_open(fs, flags, err), rc = -1;
    if (fd >= 0) {
        while (flock(fd, lock) < 0 && errno == EINTR)
            ;
        rc = fs_refresh(fs, fd);
        if (rc < 0)
            snprintf(err, TN_NET_ERRLEN, "cannot read %s: %s", fs->path, strerror(errno));
        else
            rc = fn(fs, fd, ctx);
        flock(fd, LOCK_UN);
        close(fd);
    }
    pthread_mutex_unlock(&fs->mu);
    return rc;
}

typedef struct {
    const char *k, *v, *v2;
    size_t kl, vl, vl2;
    int64_t num;
    tn_bytes out;
    int found;
    char *err;
} fs_args;

static int
fs_do_set(FileStoreObject *fs, int fd, void *ctx)
{
    fs_args *a = ctx;
    return fs_append(fd, a->k, a->kl, a->v, a->vl);
}

static int
fs_do_add(FileStoreObject *fs, int fd, void *ctx)
{
    fs_args *a = ctx;
    tn_kv_entry *e = tn_kv_find(&fs->cache, a->k, a->kl);
    int64_t cur = 0;
    if (e && e->vlen && tn_kv_parse_i64(e->val, e->vlen, &cur) < 0)
        return -2;
    a->num = (int64_t)((uint64_t)cur + (uint64_t)a->num);
    char text[32];
    int n = snprintf(text, sizeof text, "%lld", (long long)a->num);
    if (fs_append(fd, a->k, a->kl, text, (size_t)n) < 0)
        return -1;
    return tn_kv_set(&fs->cache, a->k, a->kl, text, (size_t)n, 0);
}

static int
fs_do_compare_set(FileStoreObject *fs, int fd, void *ctx)
{
    fs_args *a = ctx;
    tn_kv_entry *e = tn_kv_find(&fs->cache, a->k, a->kl);
    const char *r;
    size_t rl;
    if ((!e && a->vl == 0) || (e && e->vlen == a->vl && memcmp(e->val, a->v, a->vl) == 0)) {
        if (fs_append(fd, a->k, a->kl, a->v2, a->vl2) < 0)
            return -1;
        r = a->v2;
        rl = a->vl2;
    } else if (!e) {
        r = a->v;
        rl = a->vl;
    } else {
        r = e->val;
        rl = e->vlen;
    }
    a->out.data = malloc(rl + 1);
    if (!a->out.data)
        return -1;
    memcpy(a->out.data, r, rl);
    a->out.len = rl;
    return 0;
}

static int
fs_do_nothing(FileStoreObject *fs, int fd, void *ctx)
{
    return 0;
}

static int
fs_do_delete(FileStoreObject *fs, int fd, void *ctx)
{
    fs_args *a = ctx;
    return fs_append(fd, a->k, a->kl, "", 0);
}

static PyObject *
fs_error(int rc, const char *err)
{
    if (rc == -2) {
        PyErr_SetString(PyExc_ValueError, "stoll");
        return NULL;
    }
    return tn_c10d_raise("_DistStoreError", "%s", err);
}

/* "/" + key as bytes (FileStore's regular prefix). */
static PyObject *
fs_key(PyObject *k, const char *prefix)
{
    PyObject *kb = as_key(k);
    if (!kb)
        return NULL;
    PyObject *r = PyBytes_FromFormat("%s%s", prefix, PyBytes_AsString(kb));
    Py_DECREF(kb);
    return r;
}

static int
fs_run(PyObject *self, int flags, int lock, fs_fn fn, fs_args *a)
{
    char err[TN_NET_ERRLEN] = "";
    int rc;
    a->err = err;
    Py_BEGIN_ALLOW_THREADS
    rc = fs_locked(FS(self), flags, lock, fn, a, err);
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        free(a->out.data);
        a->out.data = NULL;
        fs_error(rc, err[0] ? err : strerror(errno));
    }
    return rc;
}

static int
fs_add_key(PyObject *self, const char *k, size_t kl, int64_t delta, int64_t *out)
{
    fs_args a = {.k = k, .kl = kl, .num = delta};
    if (fs_run(self, O_RDWR | O_CREAT, LOCK_EX, fs_do_add, &a) < 0)
        return -1;
    *out = a.num;
    return 0;
}

static int
filestore_init(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"file_name", "world_size", NULL};
    const char *path;
    int world = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s|i:FileStore", kwlist, &path, &world))
        return -1;
    FileStoreObject *fs = FS(self);
    if (fs->path) {
        PyErr_SetString(PyExc_RuntimeError, "FileStore.__init__ called twice");
        return -1;
    }
    fs->base.timeout_ms = DEFAULT_STORE_TIMEOUT_MS;
    fs->path = strdup(path);
    fs->num_workers = world;
    pthread_mutex_init(&fs->mu, NULL);
    int64_t refs;
    return fs_add_key(self, "refcount/", 9, 1, &refs);
}

static void
filestore_dealloc(PyObject *self)
{
    FileStoreObject *fs = FS(self);
    if (fs->path && access(fs->path, F_OK) == 0) {
        int64_t done = 0, refs = 1;
        PyObject *et, *ev, *tb;
        PyErr_Fetch(&et, &ev, &tb);
        if (fs_add_key(self, "cleanup/", 8, 1, &done) == 0 &&
            fs_add_key(self, "refcount/", 9, -1, &refs) == 0 && refs == 0 &&
            fs->num_workers >= 0 && done >= fs->num_workers)
            remove(fs->path);
        PyErr_Clear();
        PyErr_Restore(et, ev, tb);
    }
    if (fs->path) {
        pthread_mutex_destroy(&fs->mu);
        free(fs->path);
    }
    tn_kv_free(&fs->cache);
    tn_c10d_dealloc(self);
}

static int
fs_ready(FileStoreObject *fs)
{
    return fs->path != NULL;
}

#define FS_CHECK(self)                                                                 \
    if (!fs_ready(FS(self))) {                                                         \
        PyErr_SetString(PyExc_RuntimeError, "FileStore.__init__ was not called");      \
        return NULL;                                                                   \
    }

static PyObject *
filestore_set(PyObject *self, PyObject *args)
{
    PyObject *k, *v;
    FS_CHECK(self);
    if (!PyArg_ParseTuple(args, "OO:set", &k, &v))
        return NULL;
    PyObject *kb = fs_key(k, "/"), *vb = kb ? as_bytes(v) : NULL;
    int rc = -1;
    if (vb) {
        fs_args a = {.k = PyBytes_AsString(kb), .kl = (size_t)PyBytes_Size(kb),
                     .v = PyBytes_AsString(vb), .vl = (size_t)PyBytes_Size(vb)};
        rc = fs_run(self, O_RDWR | O_CREAT, LOCK_EX, fs_do_set, &a);
    }
    Py_XDECREF(kb);
    Py_XDECREF(vb);
    if (rc < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* Poll the file every 10 ms until all keys are there or the timeout passes. */
static int
fs_wait_keys(PyObject *self, PyObject *keys, int64_t timeout_ms, int *ok)
{
    int64_t deadline = tn_net_deadline(timeout_ms);
    Py_ssize_t n = PyList_Size(keys);
    for (;;) {
        fs_args a = {0};
        if (fs_run(self, O_RDONLY, LOCK_SH, fs_do_nothing, &a) < 0)
            return -1;
        int all = 1;
        for (Py_ssize_t i = 0; all && i < n; i++) {
            PyObject *k = PyList_GetItem(keys, i);
            all = tn_kv_find(&FS(self)->cache, PyBytes_AsString(k), (size_t)PyBytes_Size(k)) != NULL;
        }
        if (all) {
            *ok = 1;
            return 0;
        }
        if (tn_net_now_ms() > deadline) {
            *ok = 0;
            return 0;
        }
        Py_BEGIN_ALLOW_THREADS
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
        Py_END_ALLOW_THREADS
        if (PyErr_CheckSignals() < 0)
            return -1;
    }
}

static PyObject *
fs_prefixed_keys(PyObject *keys_in)
{
    PyObject *keys = PySequence_List(keys_in);
    if (!keys)
        return NULL;
    for (Py_ssize_t i = 0; i < PyList_Size(keys); i++) {
        PyObject *kb = fs_key(PyList_GetItem(keys, i), "/");
        if (!kb || PyList_SetItem(keys, i, kb) < 0) {
            Py_DECREF(keys);
            return NULL;
        }
    }
    return keys;
}

static PyObject *
filestore_get(PyObject *self, PyObject *k)
{
    FS_CHECK(self);
    PyObject *kb = fs_key(k, "/");
    if (!kb)
        return NULL;
    PyObject *keys = PyList_New(1);
    PyList_SetItem(keys, 0, kb);
    int ok = 0;
    PyObject *r = NULL;
    if (fs_wait_keys(self, keys, STORE(self)->timeout_ms, &ok) == 0) {
        if (!ok) {
            PyObject *ku = as_key(k);
            PyErr_Format(PyExc_RuntimeError, "Timeout waiting for key: %s after %lld ms",
                         ku ? PyBytes_AsString(ku) : "?", (long long)STORE(self)->timeout_ms);
            Py_XDECREF(ku);
        } else {
            tn_kv_entry *e = tn_kv_find(&FS(self)->cache, PyBytes_AsString(kb), (size_t)PyBytes_Size(kb));
            r = PyBytes_FromStringAndSize(e->val, (Py_ssize_t)e->vlen);
        }
    }
    Py_DECREF(keys);
    return r;
}

static PyObject *
filestore_add(PyObject *self, PyObject *args)
{
    PyObject *k;
    long long delta;
    FS_CHECK(self);
    if (!PyArg_ParseTuple(args, "OL:add", &k, &delta))
        return NULL;
    PyObject *kb = fs_key(k, "/");
    if (!kb)
        return NULL;
    int64_t v = 0;
    int rc = fs_add_key(self, PyBytes_AsString(kb), (size_t)PyBytes_Size(kb), delta, &v);
    Py_DECREF(kb);
    return rc < 0 ? NULL : PyLong_FromLongLong(v);
}

static PyObject *
filestore_compare_set(PyObject *self, PyObject *args)
{
    PyObject *k, *e, *d;
    FS_CHECK(self);
    if (!PyArg_ParseTuple(args, "OOO:compare_set", &k, &e, &d))
        return NULL;
    PyObject *kb = fs_key(k, "/"), *eb = kb ? as_bytes(e) : NULL, *db = eb ? as_bytes(d) : NULL;
    PyObject *r = NULL;
    if (db) {
        fs_args a = {.k = PyBytes_AsString(kb), .kl = (size_t)PyBytes_Size(kb),
                     .v = PyBytes_AsString(eb), .vl = (size_t)PyBytes_Size(eb),
                     .v2 = PyBytes_AsString(db), .vl2 = (size_t)PyBytes_Size(db)};
        if (fs_run(self, O_RDWR | O_CREAT, LOCK_EX, fs_do_compare_set, &a) == 0)
            r = bytes_of(&a.out);
    }
    Py_XDECREF(kb);
    Py_XDECREF(eb);
    Py_XDECREF(db);
    return r;
}

static PyObject *
filestore_append(PyObject *self, PyObject *args)
{
    /* upstream 2.13's FileStore keeps Store::append: a compare_set loop (the whole new value
     * is appended as a record) */
    return store_append(self, args);
}

static PyObject *
filestore_delete_key(PyObject *self, PyObject *k)
{
    FS_CHECK(self);
    PyObject *kb = fs_key(k, "-/");
    if (!kb)
        return NULL;
    fs_args a = {.k = PyBytes_AsString(kb), .kl = (size_t)PyBytes_Size(kb)};
    int rc = fs_run(self, O_RDWR, LOCK_EX, fs_do_delete, &a);
    Py_DECREF(kb);
    if (rc < 0)
        return NULL;
    Py_RETURN_TRUE;
}

static PyObject *
filestore_num_keys(PyObject *self, PyObject *unused)
{
    FS_CHECK(self);
    fs_args a = {0};
    if (fs_run(self, O_RDONLY, LOCK_SH, fs_do_nothing, &a) < 0)
        return NULL;
    return PyLong_FromSize_t(FS(self)->cache.count);
}

static PyObject *
filestore_check(PyObject *self, PyObject *keys_in)
{
    FS_CHECK(self);
    PyObject *keys = fs_prefixed_keys(keys_in);
    if (!keys)
        return NULL;
    int ok = 0;
    int rc = fs_wait_keys(self, keys, 1, &ok);  /* one refresh, no waiting to speak of */
    Py_DECREF(keys);
    return rc < 0 ? NULL : PyBool_FromLong(ok);
}

static PyObject *
filestore_wait(PyObject *self, PyObject *args)
{
    PyObject *keys_in, *td = Py_None;
    int64_t ms;
    FS_CHECK(self);
    if (!PyArg_ParseTuple(args, "O|O:wait", &keys_in, &td) || timeout_arg(self, td, &ms) < 0)
        return NULL;
    PyObject *keys = fs_prefixed_keys(keys_in);
    if (!keys)
        return NULL;
    int ok = 0;
    int rc = fs_wait_keys(self, keys, ms, &ok);
    Py_DECREF(keys);
    if (rc < 0)
        return NULL;
    if (!ok) {
        PyErr_SetString(PyExc_RuntimeError, "Wait timeout");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
filestore_list_keys(PyObject *self, PyObject *unused)
{
    FS_CHECK(self);
    fs_args a = {0};
    if (fs_run(self, O_RDONLY, LOCK_SH, fs_do_nothing, &a) < 0)
        return NULL;
    /* upstream strips one character from every key, bookkeeping keys included */
    return kv_keys(&FS(self)->cache, 1, NULL);
}

static PyObject *
filestore_clone(PyObject *self, PyObject *unused)
{
    FS_CHECK(self);
    return PyObject_CallFunction((PyObject *)FileStore_Type, "si", FS(self)->path,
                                 FS(self)->num_workers);
}

static PyObject *
filestore_path(PyObject *self, void *unused)
{
    FS_CHECK(self);
    return PyUnicode_FromString(FS(self)->path);
}

static PyMethodDef filestore_methods[] = {
    {"set", filestore_set, METH_VARARGS, NULL},
    {"get", filestore_get, METH_O, NULL},
    {"add", filestore_add, METH_VARARGS, NULL},
    {"compare_set", filestore_compare_set, METH_VARARGS, NULL},
    {"append", filestore_append, METH_VARARGS, NULL},
    {"delete_key", filestore_delete_key, METH_O, NULL},
    {"num_keys", filestore_num_keys, METH_NOARGS, NULL},
    {"check", filestore_check, METH_O, NULL},
    {"wait", filestore_wait, METH_VARARGS, NULL},
    {"list_keys", filestore_list_keys, METH_NOARGS, NULL},
    {"clone", filestore_clone, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef filestore_getset[] = {
    {"path", filestore_path, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* ---- TCPStore ---- */

/* A running server, shared by the multi-tenant TCPStores of one port (guarded by the GIL). */
typedef struct server_ref {
    struct server_ref *next;
    tn_store_server *server;
    int port;
    int refs;
    int multi_tenant;
} server_ref;

static server_ref *servers;

static void
server_release(server_ref *r)
{
    if (!r || --r->refs > 0)
        return;
    for (server_ref **pp = &servers; *pp; pp = &(*pp)->next)
        if (*pp == r) {
            *pp = r->next;
            break;
        }
    tn_store_server *s = r->server;
    free(r);
    Py_BEGIN_ALLOW_THREADS
    tn_store_server_stop(s);
    Py_END_ALLOW_THREADS
}

typedef struct {
    StoreObject base;
    tn_store_client *client;
    server_ref *server;
    char *host;
    int port;
    int64_t world_size;  /* -1: None */
    int use_libuv;
    char *token;
    size_t toklen;
} TCPStoreObject;

#define TS(o) ((TCPStoreObject *)(o))

/* The shared token: the argument, else TORCHNATIVE_DIST_TOKEN. */
static int
token_arg(PyObject *tok, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    if (tok == NULL || tok == Py_None) {
        const char *env = getenv("TORCHNATIVE_DIST_TOKEN");
        if (env && *env) {
            *out = strdup(env);
            *len = strlen(env);
        }
        return 0;
    }
    PyObject *b = as_bytes(tok);
    if (!b)
        return -1;
    *len = (size_t)PyBytes_Size(b);
    *out = malloc(*len + 1);
    memcpy(*out, PyBytes_AsString(b), *len);
    Py_DECREF(b);
    return 0;
}

static int
tcpstore_wait_for_workers(TCPStoreObject *ts)
{
    char err[TN_NET_ERRLEN];
    int64_t joined = 0;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = tn_store_add(ts->client, "init/", 5, 1, &joined, err);
    Py_END_ALLOW_THREADS
    if (rc) {
        raise_net(rc, err);
        return -1;
    }
    if (!ts->server)
        return 0;
    int64_t start = tn_net_now_ms();
    for (;;) {
        tn_bytes v = {0};
        Py_BEGIN_ALLOW_THREADS
        rc = tn_store_get(ts->client, "init/", 5, &v, err);
        Py_END_ALLOW_THREADS
        if (rc) {
            raise_net(rc, err);
            return -1;
        }
        if (tn_kv_parse_i64(v.data, v.len, &joined) < 0)
            joined = 0;
        free(v.data);
        if (joined >= ts->world_size)
            return 0;
        int64_t elapsed = tn_net_now_ms() - start;
        if (ts->base.timeout_ms > 0 && elapsed > ts->base.timeout_ms) {
            tn_c10d_raise("_DistStoreError", "Timed out after %lld seconds waiting for clients. "
                          "%lld/%lld clients joined.", (long long)(elapsed / 1000),
                          (long long)joined, (long long)ts->world_size);
            return -1;
        }
        Py_BEGIN_ALLOW_THREADS
        struct timespec t10 = {0, 10000000};
        nanosleep(&t10, NULL);
        Py_END_ALLOW_THREADS
        if (PyErr_CheckSignals() < 0)
            return -1;
    }
}

static int
tcpstore_init(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"host_name", "port", "world_size", "is_master", "timeout",
                             "wait_for_workers", "multi_tenant", "master_listen_fd", "use_libuv",
                             "token", NULL};
    const char *host;
    int port, is_master = 0, wait_workers = 1, multi_tenant = 0, use_libuv = 1;
    PyObject *world = Py_None, *timeout = NULL, *listen_fd = Py_None, *token = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "si|OpOppOpO:TCPStore", kwlist, &host, &port,
                                     &world, &is_master, &timeout, &wait_workers, &multi_tenant,
                                     &listen_fd, &use_libuv, &token))
        return -1;
    TCPStoreObject *ts = TS(self);
    if (ts->host) {
        PyErr_SetString(PyExc_RuntimeError, "TCPStore.__init__ called twice");
        return -1;
    }
    if (port < 0 || port > 65535) {
        PyErr_Format(PyExc_ValueError, "TCPStore: port %d is out of range", port);
        return -1;
    }
    ts->base.timeout_ms = DEFAULT_STORE_TIMEOUT_MS;
    if (timeout && timeout != Py_None) {
        ts->base.timeout_ms = tn_c10d_timedelta_ms(timeout);
        if (ts->base.timeout_ms < 0 && PyErr_Occurred())
            return -1;
    }
    ts->world_size = -1;
    if (world != Py_None) {
        ts->world_size = PyLong_AsLongLong(world);
        if (ts->world_size < 0 && PyErr_Occurred())
            return -1;
    }
    int lfd = -1;
    if (listen_fd != Py_None && (lfd = (int)PyLong_AsLong(listen_fd)) < 0 && PyErr_Occurred())
        return -1;
    if (token_arg(token, &ts->token, &ts->toklen) < 0)
        return -1;
    ts->host = strdup(host);
    ts->use_libuv = use_libuv;
    ts->port = port;
    char err[TN_NET_ERRLEN];
    int rc = 0;
    if (is_master) {
        server_ref *r = NULL;
        if (multi_tenant && port > 0)
            for (r = servers; r && !(r->port == port && r->multi_tenant); r = r->next)
                ;
        if (r) {
            r->refs++;
        } else {
            tn_store_server *srv = NULL;
            Py_BEGIN_ALLOW_THREADS
            rc = tn_store_server_start(host, port, lfd, ts->token, ts->toklen, &srv, err);
            Py_END_ALLOW_THREADS
            if (rc) {
                raise_net(TN_NET_ERROR, err);
                return -1;
            }
            r = calloc(1, sizeof *r);
            r->server = srv;
            r->port = tn_store_server_port(srv);
            r->refs = 1;
            r->multi_tenant = multi_tenant;
            r->next = servers;
            servers = r;
        }
        ts->server = r;
        ts->port = r->port;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = tn_store_client_open(ts->host, ts->port, ts->base.timeout_ms, ts->token, ts->toklen,
                              &ts->client, err);
    Py_END_ALLOW_THREADS
    if (rc) {
        raise_net(rc == TN_NET_TIMEOUT ? TN_NET_ERROR : rc, err);
        return -1;
    }
    if (wait_workers && ts->world_size >= 0)
        return tcpstore_wait_for_workers(ts);
    return 0;
}

static void
tcpstore_dealloc(PyObject *self)
{
    TCPStoreObject *ts = TS(self);
    tn_store_client_close(ts->client);
    server_release(ts->server);
    free(ts->host);
    free(ts->token);
    tn_c10d_dealloc(self);
}

#define TS_CHECK(self)                                                                 \
    if (!TS(self)->client) {                                                           \
        PyErr_SetString(PyExc_RuntimeError, "TCPStore.__init__ was not called");       \
        return NULL;                                                                   \
    }

/* "/" + key: TCPStore's keyPrefix_. */
static PyObject *
ts_key(PyObject *k)
{
    return fs_key(k, "/");
}

static PyObject *
ts_keys(PyObject *keys_in, const char ***ks, size_t **ls)
{
    PyObject *keys = fs_prefixed_keys(keys_in);
    if (!keys)
        return NULL;
    Py_ssize_t n = PyList_Size(keys);
    *ks = malloc((size_t)(n + 1) * sizeof **ks);
    *ls = malloc((size_t)(n + 1) * sizeof **ls);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *k = PyList_GetItem(keys, i);
        (*ks)[i] = PyBytes_AsString(k);
        (*ls)[i] = (size_t)PyBytes_Size(k);
    }
    return keys;
}

/* Sync the client's timeout with the store's before every call (set_timeout may change it). */
static tn_store_client *
ts_client(PyObject *self)
{
    tn_store_client_set_timeout(TS(self)->client, STORE(self)->timeout_ms);
    return TS(self)->client;
}

static PyObject *
tcpstore_get(PyObject *self, PyObject *k)
{
    TS_CHECK(self);
    PyObject *kb = ts_key(k);
    if (!kb)
        return NULL;
    char err[TN_NET_ERRLEN];
    tn_bytes out = {0};
    int rc;
    tn_store_client *c = ts_client(self);
    Py_BEGIN_ALLOW_THREADS
    rc = tn_store_get(c, PyBytes_AsString(kb), (size_t)PyBytes_Size(kb), &out, err);
    Py_END_ALLOW_THREADS
    Py_DECREF(kb);
    if (rc)
        return raise_net(rc, err);
    return bytes_of(&out);
}

static PyObject *
tcpstore_add(PyObject *self, PyObject *args)
{
    PyObject *k;
    long long delta;
    TS_CHECK(self);
    if (!PyArg_ParseTuple(args, "OL:add", &k, &delta))
        return NULL;
    PyObject *kb = ts_key(k);
    if (!kb)
        return NULL;
    char err[TN_NET_ERRLEN];
    int64_t v = 0;
    int rc;
    tn_store_client *c = ts_client(self);
    Py_BEGIN_ALLOW_THREADS
    rc = tn_store_add(c, PyBytes_AsString(kb), (size_t)PyBytes_Size(kb), delta, &v, err);
    Py_END_ALLOW_THREADS
    Py_DECREF(kb);
    if (rc)
        return raise_net(rc, err);
    return PyLong_FromLongLong(v);
}

static PyObject *
tcpstore_compare_set(PyObject *self, PyObject *args)
{
    PyObject *k, *e, *d;
    TS_CHECK(self);
    if (!PyArg_ParseTuple(args, "OOO:compare_set", &k, &e, &d))
        return NULL;
    PyObject *kb = ts_key(k), *eb = kb ? as_bytes(e) : NULL, *db = eb ? as_bytes(d) : NULL;
    PyObject *r = NULL;
    if (db) {
        char err[TN_NET_ERRLEN];
        tn_bytes out = {0};
        int rc;
        tn_store_client *c = ts_client(self);
        Py_BEGIN_ALLOW_THREADS
        rc = tn_store_compare_set(c, PyBytes_AsString(kb), (size_t)PyBytes_Size(kb),
                                  PyBytes_AsString(eb), (size_t)PyBytes_Size(eb),
                                  PyBytes_AsString(db), (size_t)PyBytes_Size(db), &out, err);
        Py_END_ALLOW_THREADS
        r = rc ? raise_net(rc, err) : bytes_of(&out);
    }
    Py_XDECREF(kb);
    Py_XDECREF(eb);
    Py_XDECREF(db);
    return r;
}

static PyObject *
tcpstore_keyed_i64(PyObject *self, PyObject *k, int which)
{
    TS_CHECK(self);
    PyObject *kb = ts_key(k);
    if (!kb)
        return NULL;
    char err[TN_NET_ERRLEN];
    int64_t v = 0;
    int rc;
    tn_store_client *c = ts_client(self);
    Py_BEGIN_ALLOW_THREADS
    rc = which == 0 ? tn_store_delete(c, PyBytes_AsString(kb), (size_t)PyBytes_Size(kb), &v, err)
                    : tn_store_queue_len(c, PyBytes_AsString(kb), (size_t)PyBytes_Size(kb), &v, err);
    Py_END_ALLOW_THREADS
    Py_DECREF(kb);
    if (rc)
        return raise_net(rc, err);
    return which == 0 ? PyBool_FromLong(v == 1) : PyLong_FromLongLong(v);
}

static PyObject *
tcpstore_delete_key(PyObject *self, PyObject *k)
{
    return tcpstore_keyed_i64(self, k, 0);
}

static PyObject *
tcpstore_queue_len(PyObject *self, PyObject *k)
{
    return tcpstore_keyed_i64(self, k, 1);
}

static PyObject *
tcpstore_num_keys(PyObject *self, PyObject *unused)
{
    TS_CHECK(self);
    char err[TN_NET_ERRLEN];
    int64_t v = 0;
    int rc;
    tn_store_client *c = ts_client(self);
    Py_BEGIN_ALLOW_THREADS
    rc = tn_store_num_keys(c, &v, err);
    Py_END_ALLOW_THREADS
    if (rc)
        return raise_net(rc, err);
    return PyLong_FromLongLong(v);
}

static PyObject *
tcpstore_check(PyObject *self, PyObject *keys_in)
{
    TS_CHECK(self);
    const char **ks = NULL;
    size_t *ls = NULL;
    PyObject *keys = ts_keys(keys_in, &ks, &ls);
    if (!keys)
        return NULL;
    char err[TN_NET_ERRLEN];
    int ready = 0, rc;
    size_t n = (size_t)PyList_Size(keys);
    tn_store_client *c = ts_client(self);
    Py_BEGIN_ALLOW_THREADS
    rc = tn_store_check(c, ks, ls, n, &ready, err);
    Py_END_ALLOW_THREADS
    free(ks);
    free(ls);
    Py_DECREF(keys);
    if (rc)
        return raise_net(rc, err);
    return PyBool_FromLong(ready);
}

static PyObject *
tcpstore_wait(PyObject *self, PyObject *args)
{
    PyObject *keys_in, *td = Py_None;
    int64_t ms;
    TS_CHECK(self);
    if (!PyArg_ParseTuple(args, "O|O:wait", &keys_in, &td) || timeout_arg(self, td, &ms) < 0)
        return NULL;
    const char **ks = NULL;
    size_t *ls = NULL;
    PyObject *keys = ts_keys(keys_in, &ks, &ls);
    if (!keys)
        return NULL;
    char err[TN_NET_ERRLEN];
    int rc;
    size_t n = (size_t)PyList_Size(keys);
    tn_store_client *c = ts_client(self);
    Py_BEGIN_ALLOW_THREADS
    rc = tn_store_wait(c, ks, ls, n, ms, err);
    Py_END_ALLOW_THREADS
    free(ks);
    free(ls);
    Py_DECREF(keys);
    if (rc)
        return raise_net(rc, err);
    Py_RETURN_NONE;
}

static PyObject *
tcpstore_multi_get(PyObject *self, PyObject *keys_in)
{
    TS_CHECK(self);
    const char **ks = NULL;
    size_t *ls = NULL;
    PyObject *keys = ts_keys(keys_in, &ks, &ls);
    if (!keys)
        return NULL;
    size_t n = (size_t)PyList_Size(keys);
    tn_bytes *outs = calloc(n + 1, sizeof *outs);
    char err[TN_NET_ERRLEN];
    int rc;
    tn_store_client *c = ts_client(self);
    Py_BEGIN_ALLOW_THREADS
    rc = tn_store_multi_get(c, ks, ls, n, outs, err);
    Py_END_ALLOW_THREADS
    PyObject *r = rc ? raise_net(rc, err) : PyList_New((Py_ssize_t)n);
    for (size_t i = 0; i < n; i++) {
        if (r)
            PyList_SetItem(r, (Py_ssize_t)i, bytes_of(&outs[i]));
        else
            free(outs[i].data);
    }
    free(outs);
    free(ks);
    free(ls);
    Py_DECREF(keys);
    return r;
}

static PyObject *
tcpstore_multi_set(PyObject *self, PyObject *args)
{
    PyObject *keys_in, *vals_in;
    TS_CHECK(self);
    if (!PyArg_ParseTuple(args, "OO:multi_set", &keys_in, &vals_in))
        return NULL;
    const char **ks = NULL;
    size_t *ls = NULL;
    PyObject *keys = ts_keys(keys_in, &ks, &ls), *vals = keys ? PySequence_List(vals_in) : NULL;
    PyObject *r = NULL;
    size_t n = keys ? (size_t)PyList_Size(keys) : 0;
    const char **vs = calloc(n + 1, sizeof *vs);
    size_t *vls = calloc(n + 1, sizeof *vls);
    if (vals && (size_t)PyList_Size(vals) != n)
        PyErr_SetString(PyExc_ValueError, "multi_set: keys and values differ in length");
    else if (vals) {
        size_t i;
        for (i = 0; i < n; i++) {
            PyObject *vb = as_bytes(PyList_GetItem(vals, (Py_ssize_t)i));
            if (!vb || PyList_SetItem(vals, (Py_ssize_t)i, vb) < 0)
                break;
            vs[i] = PyBytes_AsString(vb);
            vls[i] = (size_t)PyBytes_Size(vb);
        }
        if (i == n) {
            char err[TN_NET_ERRLEN];
            int rc;
            tn_store_client *c = ts_client(self);
            Py_BEGIN_ALLOW_THREADS
            rc = tn_store_multi_set(c, ks, ls, vs, vls, n, err);
            Py_END_ALLOW_THREADS
            if (rc)
                raise_net(rc, err);
            else
                r = Py_None, Py_INCREF(r);
        }
    }
    free(vs);
    free(vls);
    free(ks);
    free(ls);
    Py_XDECREF(keys);
    Py_XDECREF(vals);
    return r;
}

/* set / append / queue_push: one (key, value) request, no reply. */
typedef int (*ts_keyed_fn)(tn_store_client *, const char *, size_t, const char *, size_t, char *);

static PyObject *
tcpstore_keyed_value(PyObject *self, PyObject *args, ts_keyed_fn fn)
{
    PyObject *k, *v;
    TS_CHECK(self);
    if (!PyArg_ParseTuple(args, "OO", &k, &v))
        return NULL;
    PyObject *kb = ts_key(k), *vb = kb ? as_bytes(v) : NULL;
    if (!vb) {
        Py_XDECREF(kb);
        return NULL;
    }
    char err[TN_NET_ERRLEN];
    int rc;
    tn_store_client *c = ts_client(self);
    Py_BEGIN_ALLOW_THREADS
    rc = fn(c, PyBytes_AsString(kb), (size_t)PyBytes_Size(kb), PyBytes_AsString(vb),
            (size_t)PyBytes_Size(vb), err);
    Py_END_ALLOW_THREADS
    Py_DECREF(kb);
    Py_DECREF(vb);
    if (rc)
        return raise_net(rc, err);
    Py_RETURN_NONE;
}

static PyObject *
tcpstore_set(PyObject *self, PyObject *args)
{
    return tcpstore_keyed_value(self, args, tn_store_set);
}

static PyObject *
tcpstore_append(PyObject *self, PyObject *args)
{
    return tcpstore_keyed_value(self, args, tn_store_append);
}

static PyObject *
tcpstore_queue_push(PyObject *self, PyObject *args)
{
    return tcpstore_keyed_value(self, args, tn_store_queue_push);
}

static PyObject *
tcpstore_queue_pop(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"key", "block", NULL};
    PyObject *k;
    int block = 1;
    TS_CHECK(self);
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|p:queue_pop", kwlist, &k, &block))
        return NULL;
    PyObject *kb = ts_key(k);
    if (!kb)
        return NULL;
    char err[TN_NET_ERRLEN];
    tn_bytes out = {0};
    int rc, empty = 0;
    tn_store_client *c = ts_client(self);
    Py_BEGIN_ALLOW_THREADS
    rc = tn_store_queue_pop(c, PyBytes_AsString(kb), (size_t)PyBytes_Size(kb), block, &out,
                            &empty, err);
    Py_END_ALLOW_THREADS
    Py_DECREF(kb);
    if (rc)
        return raise_net(rc, err);
    if (empty)
        return tn_c10d_raise("_DistQueueEmptyError", "queue is empty");
    return bytes_of(&out);
}

static PyObject *
tcpstore_list_keys(PyObject *self, PyObject *unused)
{
    TS_CHECK(self);
    char err[TN_NET_ERRLEN];
    tn_bytes *outs = NULL;
    size_t n = 0;
    int rc;
    tn_store_client *c = ts_client(self);
    Py_BEGIN_ALLOW_THREADS
    rc = tn_store_list_keys(c, &outs, &n, err);
    Py_END_ALLOW_THREADS
    PyObject *r = rc ? raise_net(rc, err) : PyList_New(0);
    for (size_t i = 0; i < n; i++) {
        /* keys set through a TCPStore carry its "/" prefix; the rest (init/) are internal */
        if (r && outs[i].len > 0 && outs[i].data[0] == '/') {
            PyObject *k = PyUnicode_DecodeUTF8(outs[i].data + 1, (Py_ssize_t)outs[i].len - 1,
                                               "replace");
            if (!k || PyList_Append(r, k) < 0)
                Py_CLEAR(r);
            Py_XDECREF(k);
        }
        free(outs[i].data);
    }
    free(outs);
    return r;
}

static PyObject *
tcpstore_barrier(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"key", "world_size", "timeout", NULL};
    PyObject *k, *td = Py_None;
    long long world;
    int64_t ms;
    TS_CHECK(self);
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OL|O:barrier", kwlist, &k, &world, &td) ||
        timeout_arg(self, td, &ms) < 0)
        return NULL;
    PyObject *kb = ts_key(k);
    if (!kb)
        return NULL;
    char err[TN_NET_ERRLEN];
    int rc;
    tn_store_client *c = ts_client(self);
    Py_BEGIN_ALLOW_THREADS
    rc = tn_store_barrier(c, PyBytes_AsString(kb), (size_t)PyBytes_Size(kb), world, ms, err);
    Py_END_ALLOW_THREADS
    Py_DECREF(kb);
    if (rc)
        return raise_net(rc, err);
    Py_RETURN_NONE;
}

static PyObject *
tcpstore_clone(PyObject *self, PyObject *unused)
{
    TS_CHECK(self);
    TCPStoreObject *ts = TS(self);
    PyObject *td = tn_c10d_timedelta_from_ms(ts->base.timeout_ms);
    PyObject *tok = ts->toklen ? PyBytes_FromStringAndSize(ts->token, (Py_ssize_t)ts->toklen)
                               : (Py_INCREF(Py_None), Py_None);
    PyObject *args = td ? Py_BuildValue("(siOOO)", ts->host, ts->port, Py_None, Py_False, td) : NULL;
    PyObject *kw = tok ? Py_BuildValue("{s:O,s:O}", "wait_for_workers", Py_False, "token", tok) : NULL;
    PyObject *r = (args && kw) ? PyObject_Call((PyObject *)TCPStore_Type, args, kw) : NULL;
    Py_XDECREF(td);
    Py_XDECREF(tok);
    Py_XDECREF(args);
    Py_XDECREF(kw);
    return r;
}

static PyObject *
tcpstore_host(PyObject *self, void *unused)
{
    TS_CHECK(self);
    return PyUnicode_FromString(TS(self)->host);
}

static PyObject *
tcpstore_port(PyObject *self, void *unused)
{
    TS_CHECK(self);
    return PyLong_FromLong(TS(self)->port);
}

static PyObject *
tcpstore_libuv(PyObject *self, void *unused)
{
    TS_CHECK(self);
    return PyBool_FromLong(TS(self)->use_libuv);
}

static PyObject *
tcpstore_rejected(PyObject *self, PyObject *unused)
{
    TS_CHECK(self);
    return PyLong_FromLongLong(TS(self)->server ? tn_store_server_rejected(TS(self)->server->server) : 0);
}

static PyMethodDef tcpstore_methods[] = {
    {"set", tcpstore_set, METH_VARARGS, NULL},
    {"get", tcpstore_get, METH_O, NULL},
    {"add", tcpstore_add, METH_VARARGS, NULL},
    {"compare_set", tcpstore_compare_set, METH_VARARGS, NULL},
    {"delete_key", tcpstore_delete_key, METH_O, NULL},
    {"num_keys", tcpstore_num_keys, METH_NOARGS, NULL},
    {"check", tcpstore_check, METH_O, NULL},
    {"wait", tcpstore_wait, METH_VARARGS, NULL},
    {"multi_get", tcpstore_multi_get, METH_O, NULL},
    {"multi_set", tcpstore_multi_set, METH_VARARGS, NULL},
    {"append", tcpstore_append, METH_VARARGS, NULL},
    {"queue_push", tcpstore_queue_push, METH_VARARGS, NULL},
    {"queue_pop", (PyCFunction)(void (*)(void))tcpstore_queue_pop, METH_VARARGS | METH_KEYWORDS, NULL},
    {"queue_len", tcpstore_queue_len, METH_O, NULL},
    {"list_keys", tcpstore_list_keys, METH_NOARGS, NULL},
    {"barrier", (PyCFunction)(void (*)(void))tcpstore_barrier, METH_VARARGS | METH_KEYWORDS, NULL},
    {"has_extended_api", store_true, METH_NOARGS, NULL},
    {"clone", tcpstore_clone, METH_NOARGS, NULL},
    {"_tn_rejected", tcpstore_rejected, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef tcpstore_getset[] = {
    {"host", tcpstore_host, NULL, NULL, NULL},
    {"port", tcpstore_port, NULL, NULL, NULL},
    {"libuvBackend", tcpstore_libuv, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* ---- PrefixStore ---- */

typedef struct {
    StoreObject base;
    PyObject *prefix;  /* str */
    PyObject *store;
} PrefixStoreObject;

#define PS(o) ((PrefixStoreObject *)(o))

static int
prefixstore_init(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"prefix", "store", NULL};
    PyObject *prefix, *store;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "UO:PrefixStore", kwlist, &prefix, &store))
        return -1;
    if (!PyObject_TypeCheck(store, Store_Type)) {
        PyErr_SetString(PyExc_TypeError, "PrefixStore(): store must be a torch.distributed.Store");
        return -1;
    }
    Py_INCREF(prefix);
    Py_INCREF(store);
    TN_XSETREF(PS(self)->prefix, prefix);
    TN_XSETREF(PS(self)->store, store);
    return 0;
}

static void
prefixstore_dealloc(PyObject *self)
{
    Py_CLEAR(PS(self)->prefix);
    Py_CLEAR(PS(self)->store);
    tn_c10d_dealloc(self);
}

#define PS_CHECK(self)                                                                 \
    if (!PS(self)->store) {                                                            \
        PyErr_SetString(PyExc_RuntimeError, "PrefixStore.__init__ was not called");    \
        return NULL;                                                                   \
    }

static PyObject *
ps_key(PyObject *self, PyObject *k)
{
    if (PyBytes_Check(k)) {
        PyObject *u = PyUnicode_FromEncodedObject(k, "utf-8", "strict");
        if (!u)
            return NULL;
        PyObject *r = PyUnicode_FromFormat("%U/%U", PS(self)->prefix, u);
        Py_DECREF(u);
        return r;
    }
    if (!PyUnicode_Check(k)) {
        PyErr_Format(PyExc_TypeError, "a store key must be str, got %s", tn_tpname(k));
        return NULL;
    }
    return PyUnicode_FromFormat("%U/%U", PS(self)->prefix, k);
}

static PyObject *
ps_keys(PyObject *self, PyObject *keys_in)
{
    PyObject *keys = PySequence_List(keys_in);
    if (!keys)
        return NULL;
    for (Py_ssize_t i = 0; i < PyList_Size(keys); i++) {
        PyObject *k = ps_key(self, PyList_GetItem(keys, i));
        if (!k || PyList_SetItem(keys, i, k) < 0) {
            Py_DECREF(keys);
            return NULL;
        }
    }
    return keys;
}

/* store.<name>(prefixed key, *rest); the first `nvalues` of rest go as bytes (c10d passes
 * std::vector<uint8_t> to a Python store's methods). */
static PyObject *
ps_forward_key(PyObject *self, const char *name, PyObject *args, int nvalues)
{
    PS_CHECK(self);
    Py_ssize_t n = PyTuple_Size(args);
    if (n < 1) {
        PyErr_Format(PyExc_TypeError, "PrefixStore.%s() missing the key", name);
        return NULL;
    }
    PyObject *k = ps_key(self, PyTuple_GetItem(args, 0));
    if (!k)
        return NULL;
    PyObject *fwd = PyTuple_New(n);
    PyTuple_SetItem(fwd, 0, k);
    for (Py_ssize_t i = 1; i < n; i++) {
        PyObject *a = PyTuple_GetItem(args, i);
        if (i <= nvalues) {
            a = as_bytes(a);
            if (!a) {
                Py_DECREF(fwd);
                return NULL;
            }
        } else {
            Py_INCREF(a);
        }
        PyTuple_SetItem(fwd, i, a);
    }
    PyObject *m = PyObject_GetAttrString(PS(self)->store, name);
    PyObject *r = m ? PyObject_Call(m, fwd, NULL) : NULL;
    Py_XDECREF(m);
    Py_DECREF(fwd);
    return r;
}

#define PS_KEYED(fn, name, nvalues)                                                    \
    static PyObject *fn(PyObject *self, PyObject *args)                                \
    {                                                                                  \
        return ps_forward_key(self, name, args, nvalues);                              \
    }
PS_KEYED(prefixstore_set, "set", 1)
PS_KEYED(prefixstore_get, "get", 0)
PS_KEYED(prefixstore_add, "add", 0)
PS_KEYED(prefixstore_compare_set, "compare_set", 2)
PS_KEYED(prefixstore_delete_key, "delete_key", 0)
PS_KEYED(prefixstore_append, "append", 1)
PS_KEYED(prefixstore_queue_push, "queue_push", 1)
PS_KEYED(prefixstore_queue_len, "queue_len", 0)
PS_KEYED(prefixstore_barrier, "barrier", 0)

static PyObject *
prefixstore_queue_pop(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"key", "block", NULL};
    PyObject *k, *block = Py_True;
    PS_CHECK(self);
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:queue_pop", kwlist, &k, &block))
        return NULL;
    PyObject *pk = ps_key(self, k);
    PyObject *r = pk ? PyObject_CallMethod(PS(self)->store, "queue_pop", "OO", pk, block) : NULL;
    Py_XDECREF(pk);
    return r;
}

/* store.<name>(prefixed keys, *rest) */
static PyObject *
ps_forward_keys(PyObject *self, const char *name, PyObject *args)
{
    PS_CHECK(self);
    Py_ssize_t n = PyTuple_Size(args);
    if (n < 1) {
        PyErr_Format(PyExc_TypeError, "PrefixStore.%s() missing the keys", name);
        return NULL;
    }
    PyObject *ks = ps_keys(self, PyTuple_GetItem(args, 0));
    if (!ks)
        return NULL;
    PyObject *fwd = PyTuple_New(n);
    PyTuple_SetItem(fwd, 0, ks);
    for (Py_ssize_t i = 1; i < n; i++) {
        PyObject *a = PyTuple_GetItem(args, i);
        Py_INCREF(a);
        PyTuple_SetItem(fwd, i, a);
    }
    PyObject *m = PyObject_GetAttrString(PS(self)->store, name);
    PyObject *r = m ? PyObject_Call(m, fwd, NULL) : NULL;
    Py_XDECREF(m);
    Py_DECREF(fwd);
    return r;
}

#define PS_KEYS(fn, name)                                                              \
    static PyObject *fn(PyObject *self, PyObject *args)                                \
    {                                                                                  \
        return ps_forward_keys(self, name, args);                                      \
    }
PS_KEYS(prefixstore_check, "check")
PS_KEYS(prefixstore_wait, "wait")
PS_KEYS(prefixstore_multi_get, "multi_get")
PS_KEYS(prefixstore_multi_set, "multi_set")

static PyObject *
ps_forward(PyObject *self, const char *name)
{
    PS_CHECK(self);
    return PyObject_CallMethod(PS(self)->store, name, NULL);
}

static PyObject *
prefixstore_num_keys(PyObject *self, PyObject *unused)
{
    return ps_forward(self, "num_keys");
}

static PyObject *
prefixstore_has_extended_api(PyObject *self, PyObject *unused)
{
    return ps_forward(self, "has_extended_api");
}

static PyObject *
prefixstore_list_keys(PyObject *self, PyObject *unused)
{
    PyObject *all = ps_forward(self, "list_keys");
    if (!all)
        return NULL;
    PyObject *pre = PyUnicode_FromFormat("%U/", PS(self)->prefix);
    PyObject *out = pre ? PyList_New(0) : NULL;
    Py_ssize_t pl = pre ? PyUnicode_GetLength(pre) : 0;
    for (Py_ssize_t i = 0; out && i < PyList_Size(all); i++) {
        PyObject *k = PyList_GetItem(all, i);
        if (!PyUnicode_Check(k) || PyUnicode_Tailmatch(k, pre, 0, pl, -1) != 1)
            continue;
        PyObject *rest = PyUnicode_Substring(k, pl, PyUnicode_GetLength(k));
        if (!rest || PyList_Append(out, rest) < 0)
            Py_CLEAR(out);
        Py_XDECREF(rest);
    }
    Py_XDECREF(pre);
    Py_DECREF(all);
    return out;
}

static PyObject *
prefixstore_clone(PyObject *self, PyObject *unused)
{
    PyObject *inner = ps_forward(self, "clone");
    if (!inner)
        return NULL;
    PyObject *r = PyObject_CallFunction((PyObject *)PrefixStore_Type, "OO", PS(self)->prefix, inner);
    Py_DECREF(inner);
    return r;
}

static PyObject *
prefixstore_get_timeout(PyObject *self, void *unused)
{
    PS_CHECK(self);
    return PyObject_GetAttrString(PS(self)->store, "timeout");
}

static PyObject *
prefixstore_set_timeout(PyObject *self, PyObject *td)
{
    PS_CHECK(self);
    return PyObject_CallMethod(PS(self)->store, "set_timeout", "O", td);
}

static PyObject *
prefixstore_underlying(PyObject *self, void *unused)
{
    PS_CHECK(self);
    Py_INCREF(PS(self)->store);
    return PS(self)->store;
}

static PyObject *
innermost(PyObject *store)
{
    while (PrefixStore_Type && PyObject_TypeCheck(store, PrefixStore_Type) && PS(store)->store)
        store = PS(store)->store;
    return store;
}

static PyObject *
prefixstore_non_prefix(PyObject *self, void *unused)
{
    PS_CHECK(self);
    PyObject *s = innermost(self);
    Py_INCREF(s);
    return s;
}

size_t
tn_c10d_store_token(PyObject *store, const char **token)
{
    store = innermost(store);
    if (!PyObject_TypeCheck(store, TCPStore_Type) || !TS(store)->toklen)
        return 0;
    *token = TS(store)->token;
    return TS(store)->toklen;
}

const char *
tn_c10d_store_host(PyObject *store)
{
    store = innermost(store);
    return PyObject_TypeCheck(store, TCPStore_Type) ? TS(store)->host : NULL;
}

static PyMethodDef prefixstore_methods[] = {
    {"set", prefixstore_set, METH_VARARGS, NULL},
    {"get", prefixstore_get, METH_VARARGS, NULL},
    {"add", prefixstore_add, METH_VARARGS, NULL},
    {"compare_set", prefixstore_compare_set, METH_VARARGS, NULL},
    {"delete_key", prefixstore_delete_key, METH_VARARGS, NULL},
    {"append", prefixstore_append, METH_VARARGS, NULL},
    {"queue_push", prefixstore_queue_push, METH_VARARGS, NULL},
    {"queue_pop", (PyCFunction)(void (*)(void))prefixstore_queue_pop, METH_VARARGS | METH_KEYWORDS, NULL},
    {"queue_len", prefixstore_queue_len, METH_VARARGS, NULL},
    {"barrier", prefixstore_barrier, METH_VARARGS, NULL},
    {"check", prefixstore_check, METH_VARARGS, NULL},
    {"wait", prefixstore_wait, METH_VARARGS, NULL},
    {"multi_get", prefixstore_multi_get, METH_VARARGS, NULL},
    {"multi_set", prefixstore_multi_set, METH_VARARGS, NULL},
    {"num_keys", prefixstore_num_keys, METH_NOARGS, NULL},
    {"list_keys", prefixstore_list_keys, METH_NOARGS, NULL},
    {"has_extended_api", prefixstore_has_extended_api, METH_NOARGS, NULL},
    {"clone", prefixstore_clone, METH_NOARGS, NULL},
    {"set_timeout", prefixstore_set_timeout, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef prefixstore_getset[] = {
    {"timeout", prefixstore_get_timeout, NULL, NULL, NULL},
    {"underlying_store", prefixstore_underlying, NULL, NULL, NULL},
    {"_underlying_non_prefix_store", prefixstore_non_prefix, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* ---- types ---- */

static PyTypeObject *
make_type(PyObject *ns, const char *name, size_t size, PyTypeObject *base, PyType_Slot *slots)
{
    char qual[128];
    snprintf(qual, sizeof qual, "torch._C._distributed_c10d.%s", name);
    PyType_Spec spec = {qual, (int)size, 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, slots};
    PyObject *bases = base ? PyTuple_Pack(1, (PyObject *)base) : NULL;
    PyObject *tp = PyType_FromSpecWithBases(&spec, bases);
    Py_XDECREF(bases);
    if (!tp || PyModule_AddObjectRef(ns, name, tp) < 0) {
        Py_XDECREF(tp);
        return NULL;
    }
    return (PyTypeObject *)tp;
}

int
tn_c10d_store_init(PyObject *c, PyObject *ns)
{
    c_module = c;
    PyType_Slot store_slots[] = {
        {Py_tp_new, PyType_GenericNew}, {Py_tp_init, store_init}, {Py_tp_dealloc, tn_c10d_dealloc},
        {Py_tp_methods, store_methods}, {Py_tp_getset, store_getset},
        {Py_tp_doc, "c10d::Store: the base of every store; subclass it in Python to make one."},
        {0, NULL}};
    PyType_Slot hash_slots[] = {
        {Py_tp_init, hashstore_init}, {Py_tp_dealloc, hashstore_dealloc},
        {Py_tp_methods, hashstore_methods},
        {Py_tp_doc, "An in-memory, thread-safe store (c10d::HashStore)."}, {0, NULL}};
    PyType_Slot file_slots[] = {
        {Py_tp_init, filestore_init}, {Py_tp_dealloc, filestore_dealloc},
        {Py_tp_methods, filestore_methods}, {Py_tp_getset, filestore_getset},
        {Py_tp_doc, "A store in a file shared by processes, in upstream's format "
                    "(Note [FileStore format] in runtime/c10d_store.c)."}, {0, NULL}};
    PyType_Slot tcp_slots[] = {
        {Py_tp_init, tcpstore_init}, {Py_tp_dealloc, tcpstore_dealloc},
        {Py_tp_methods, tcpstore_methods}, {Py_tp_getset, tcpstore_getset},
        {Py_tp_doc, "A TCP key-value store speaking upstream's wire protocol; the master "
                    "binds exactly host_name (loopback stays loopback). token= or "
                    "TORCHNATIVE_DIST_TOKEN makes server and client prove a shared secret."},
        {0, NULL}};
    PyType_Slot prefix_slots[] = {
        {Py_tp_init, prefixstore_init}, {Py_tp_dealloc, prefixstore_dealloc},
        {Py_tp_methods, prefixstore_methods}, {Py_tp_getset, prefixstore_getset},
        {Py_tp_doc, "A store that puts '<prefix>/' before every key of the store it wraps."},
        {0, NULL}};
    if (!(Store_Type = make_type(ns, "Store", sizeof(StoreObject), NULL, store_slots)) ||
        !(HashStore_Type = make_type(ns, "HashStore", sizeof(HashStoreObject), Store_Type, hash_slots)) ||
        !(FileStore_Type = make_type(ns, "FileStore", sizeof(FileStoreObject), Store_Type, file_slots)) ||
        !(TCPStore_Type = make_type(ns, "TCPStore", sizeof(TCPStoreObject), Store_Type, tcp_slots)) ||
        !(PrefixStore_Type = make_type(ns, "PrefixStore", sizeof(PrefixStoreObject), Store_Type, prefix_slots)))
        return -1;
    return 0;
}
