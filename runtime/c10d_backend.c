/* torch._C._tn_c10d (see c10d_backend.h): the store types (c10d_store.c) and the collective
 * backend's two C types: _Star (one process group's engine: rendezvous through the group's
 * store, then c10d_star.c's thread) and _StarWork (one submitted op; wait() releases the GIL).
 * runtime/py/distributed.py wraps them in ProcessGroupGloo / Work with upstream's signatures.
 * To add an engine call: a method on _Star that fills a tn_star_desc and submits it.
 */
#include "c10d_backend.h"

#include <stdarg.h>
#include <unistd.h>

#include "c10d_star.h"
#include "c10d_store.h"
#include "kernels/collective.h"
#include "tensor.h"

static PyTypeObject *Star_Type, *StarWork_Type;

/* An op whose Work was dropped before it finished: the tensors stay alive until it does. */
typedef struct orphan {
    struct orphan *next;
    tn_star_op *op;
    PyObject *keep;
} orphan;

typedef struct {
    PyObject_HEAD
    tn_star *star;
    int rank, size;
    int64_t timeout_ms;
    orphan *orphans;
} StarObject;

typedef struct {
    PyObject_HEAD
    tn_star_op *op;
    PyObject *keep;   /* the tensors the op reads and writes */
    PyObject *star;
    PyObject *result; /* what get_future() completes with */
} StarWorkObject;

#define STAR(o) ((StarObject *)(o))
#define WORK(o) ((StarWorkObject *)(o))

static void
sweep_orphans(StarObject *st)
{
    for (orphan **pp = &st->orphans; *pp;) {
        orphan *o = *pp;
        if (tn_star_op_done(o->op) != 0) {
            *pp = o->next;
            tn_star_op_release(o->op);
            Py_XDECREF(o->keep);
            free(o);
        } else {
            pp = &o->next;
        }
    }
}


/* ---- _Star: rendezvous ---- */

/* store.<method>(*args) with the GIL held; new reference or NULL. */
static PyObject *
store_call(PyObject *store, const char *method, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    PyObject *args = Py_VaBuildValue(fmt, ap);
    va_end(ap);
    if (!args)
        return NULL;
    if (!PyTuple_Check(args)) {
        PyObject *t = PyTuple_Pack(1, args);
        Py_DECREF(args);
        args = t;
        if (!args)
            return NULL;
    }
    PyObject *m = PyObject_GetAttrString(store, method);
    PyObject *r = m ? PyObject_Call(m, args, NULL) : NULL;
    Py_XDECREF(m);
    Py_DECREF(args);
    return r;
}

static void
hexify(const unsigned char *in, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * n] = 0;
}

static int
unhex(const char *in, unsigned char *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0;
        for (int j = 0; j < 2; j++) {
            char ch = in[2 * i + j];
            v <<= 4;
            if (ch >= '0' && ch <= '9')
                v |= (unsigned)(ch - '0');
            else if (ch >= 'a' && ch <= 'f')
                v |= (unsigned)(ch - 'a' + 10);
            else
                return -1;
        }
        out[i] = (unsigned char)v;
    }
    return 0;
}

/* Note [Where the hub listens]
 * TORCHNATIVE_DIST_ADDR if set; else the address the group's TCPStore was given when that is
 * not loopback (rank 0 hosts the store in every launch upstream documents, so it is one of
 * rank 0's own addresses); else 127.0.0.1. Bound exactly (Note [Loopback by default]). */
static const char *
hub_host(PyObject *store)
{
    const char *env = getenv("TORCHNATIVE_DIST_ADDR");
    if (env && *env)
        return env;
    const char *h = tn_c10d_store_host(store);
    if (h && !tn_net_is_loopback(h))
        return h;
    return "127.0.0.1";
}

/* Note [A peer that runs gloo]
 * torchnative answers the name "gloo" with the star backend, so a group can be started by
 * mistake with some ranks on torchnative and others on upstream torch running real gloo: both
 * build their backend over the same prefixed store, and the TCPStore interoperates. Upstream's
 * gloo then publishes its address under "0/<rank>" (its first device's prefix, then the rank:
 * what upstream 2.13.0's ProcessGroupGloo sets, seen through a logging Store; the mixed-group
 * test in tests/python/test_distributed.py fails if that changes) and waits for every other's,
 * while ours waits for the hub's address (a leaf) or for connections (the hub). Neither comes,
 * and both sides would wait out the group's timeout (30 minutes by default). So ours waits in
 * slices of GLOO_POLL_MS and between slices looks for gloo's key of the ranks it waits for:
 * found, it raises DistBackendError naming them, what each side runs and what would make it
 * work; a hub also sends the leaves that joined before it saw the key an ABORT with the reason
 * (tn_star_hub_refuse), so their first collective raises it. The upstream side cannot be told;
 * it times out (or loses its store with our rank 0).
 * A store without check() (a Python subclass may lack it) skips the look and waits as before. */
#define GLOO_KEY_FMT "0/%d"
#define GLOO_POLL_MS 500

/* 1 if gloo's rendezvous key of `rank` is in the store, 0 if not, -1 (no exception left set)
 * when the store cannot say. */
static int
runs_gloo(PyObject *store, int rank)
{
    char key[32];
    snprintf(key, sizeof key, GLOO_KEY_FMT, rank);
    PyObject *r = store_call(store, "check", "([s])", key);
    int found = r ? PyObject_IsTrue(r) : -1;
    Py_XDECREF(r);
    if (found < 0)
        PyErr_Clear();
    return found;
}

/* What a rank raises when ranks `who` of its group run gloo. */
static void
gloo_peer_msg(char *out, size_t cap, int rank, const char *who, int many)
{
    snprintf(out, cap, "[rank %d] %s %s %s gloo (upstream torch's backend: %s in the group's store), "
             "but this process runs torchnative, whose backend serves \"gloo\" with its own protocol, "
             "not gloo's wire format: one process group cannot mix the two. Run every rank of the "
             "group on torchnative, or every rank on upstream torch (torchnative and upstream "
             "processes can still share a TCPStore)", rank, many ? "ranks" : "rank", who,
             many ? "run" : "runs", many ? "their rendezvous keys are" : "its rendezvous key is");
}

/* A leaf waits for the hub's address under `key`: 0 once it is there, -1 with an exception
 * (the store's own on the timeout; DistBackendError if rank 0 runs gloo). */
static int
wait_for_hub(PyObject *store, const char *key, int rank, int64_t timeout_ms, int64_t deadline)
{
    int look = 1;
    for (;;) {
        int64_t left = deadline == INT64_MAX ? timeout_ms : deadline - tn_net_now_ms();
        int last = !look || (deadline != INT64_MAX && left <= GLOO_POLL_MS);
        PyObject *keys = Py_BuildValue("[s]", key);
        int64_t ms = !last ? GLOO_POLL_MS : deadline == INT64_MAX ? timeout_ms : left > 0 ? left : 1;
        PyObject *td = tn_c10d_timedelta_from_ms(ms);
        PyObject *w = (keys && td) ? store_call(store, "wait", "(OO)", keys, td) : NULL;
        Py_XDECREF(keys);
        Py_XDECREF(td);
        if (w) {
            Py_DECREF(w);
            return 0;
        }
        if (last)
            return -1;
        /* The slice ran out (or the store failed: then check() fails too, and the last wait
         * reports the store's error). */
        PyErr_Clear();
        PyObject *r = store_call(store, "check", "([s])", key);
        int there = r ? PyObject_IsTrue(r) : -1;
        Py_XDECREF(r);
        if (there < 0) {
            PyErr_Clear();
            look = 0;
        } else if (there == 0 && runs_gloo(store, 0) == 1) {
            char msg[1024];
            gloo_peer_msg(msg, sizeof msg, rank, "0", 0);
            tn_c10d_raise("_DistBackendError", "%s", msg);
            return -1;
        }
    }
}

/* The hub accepts its leaves, looking between slices for ranks that run gloo instead; 0 when
 * every rank joined, -1 with an exception. fds[k] are the leaves' connections. */
static int
hub_accept(PyObject *store, int lfd, int size, const unsigned char session[16], const char *token,
           size_t toklen, int64_t deadline, int *fds)
{
    tn_star_accepting acc;
    char err[TN_NET_ERRLEN];
    int rc, look = 1;
    tn_star_accepting_init(&acc, fds, size);
    for (;;) {
        int64_t until = tn_net_now_ms() + GLOO_POLL_MS;
        if (!look || until > deadline)
            until = deadline;
        Py_BEGIN_ALLOW_THREADS
        rc = tn_star_hub_accept(lfd, size, session, token, toklen, until, deadline, fds, &acc, err);
        Py_END_ALLOW_THREADS
        if (rc == TN_NET_OK)
            return 0;
        if (rc != TN_NET_TIMEOUT || until >= deadline)
            break;
        char who[256] = "";
        size_t used = 0;
        int many = 0;
        for (int k = 1; k < size && look && used + 12 < sizeof who; k++) {
            if (fds[k] >= 0)
                continue;
            int found = runs_gloo(store, k);
            if (found < 0) {
                look = 0;
            } else if (found) {
                used += (size_t)snprintf(who + used, sizeof who - used, "%s%d", used ? ", " : "", k);
                many++;
            }
        }
        if (used) {
            /* the leaves that joined already would only learn it at their first collective */
            char msg[1024];
            gloo_peer_msg(msg, sizeof msg, 0, who, many > 1);
            tn_star_hub_refuse(fds, size, msg);
            tn_c10d_raise("_DistBackendError", "%s", msg);
            goto fail;
        }
    }
    tn_c10d_raise("_DistBackendError", "[rank 0] %s", err);
fail:
    for (int k = 0; k < size; k++)
        if (fds[k] >= 0)
            close(fds[k]);
    return -1;
}

static int
star_init(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"store", "rank", "size", "timeout_ms", NULL};
    PyObject *store;
    int rank, size;
    long long timeout_ms;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OiiL:_Star", kwlist, &store, &rank, &size, &timeout_ms))
        return -1;
    StarObject *st = STAR(self);
    if (st->star) {
        PyErr_SetString(PyExc_RuntimeError, "_Star.__init__ called twice");
        return -1;
    }
    if (size < 1 || rank < 0 || rank >= size) {
        PyErr_Format(PyExc_ValueError, "invalid rank %d for a group of size %d", rank, size);
        return -1;
    }
    st->rank = rank;
    st->size = size;
    st->timeout_ms = timeout_ms;
    const char *token = getenv("TORCHNATIVE_DIST_TOKEN");
    size_t toklen = token ? strlen(token) : 0;
    if (!toklen)
        toklen = tn_c10d_store_token(store, &token);
    int64_t deadline = tn_net_deadline(timeout_ms);
    char err[TN_NET_ERRLEN];
    int rc;
    int *fds = calloc((size_t)size, sizeof *fds);
    if (!fds) {
        PyErr_NoMemory();
        return -1;
    }
    for (int k = 0; k < size; k++)
        fds[k] = -1;
    /* Each construction on the same store gets its own key: ranks count their own joins. */
    PyObject *mine = NULL;
    char rankkey[64];
    snprintf(rankkey, sizeof rankkey, "tnstar/joins/%d", rank);
    mine = store_call(store, "add", "(si)", rankkey, 1);
    if (!mine) {
        free(fds);
        return -1;
    }
    long long incarnation = PyLong_AsLongLong(mine);
    Py_DECREF(mine);
    char key[64];
    snprintf(key, sizeof key, "tnstar/hub/%lld", incarnation);
    if (rank == 0) {
        const char *host = hub_host(store);
        int lfd, port;
        unsigned char session[16];
        tn_net_random(session, sizeof session);
        Py_BEGIN_ALLOW_THREADS
        rc = tn_star_listen(host, &lfd, &port, err);
        Py_END_ALLOW_THREADS
        if (rc) {
            free(fds);
            tn_c10d_raise("_DistNetworkError", "%s", err);
            return -1;
        }
        char bound[128], hex[33], advert[256];
        if (tn_net_local_host(lfd, bound, sizeof bound) < 0 || strcmp(bound, "0.0.0.0") == 0 ||
            strcmp(bound, "::") == 0)
            snprintf(bound, sizeof bound, "%s", tn_c10d_store_host(store) ? tn_c10d_store_host(store) : host);
        hexify(session, sizeof session, hex);
        snprintf(advert, sizeof advert, "%s|%d|%s", bound, port, hex);
        PyObject *r = store_call(store, "set", "(ss)", key, advert);
        if (!r) {
            close(lfd);
            free(fds);
            return -1;
        }
        Py_DECREF(r);
        rc = hub_accept(store, lfd, size, session, token, toklen, deadline, fds);
        close(lfd);
        if (rc) {
            free(fds);
            return -1;
        }
    } else {
        PyObject *v = wait_for_hub(store, key, rank, timeout_ms, deadline) == 0 ? store_call(store, "get", "(s)", key) : NULL;
        if (!v) {
            free(fds);
            return -1;
        }
        char advert[256] = "";
        if (PyBytes_Check(v) && PyBytes_Size(v) < (Py_ssize_t)sizeof advert)
            memcpy(advert, PyBytes_AsString(v), (size_t)PyBytes_Size(v) + 1);
        Py_DECREF(v);
        char *bar1 = strchr(advert, '|'), *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
        unsigned char session[16];
        if (!bar1 || !bar2 || strlen(bar2 + 1) != 32 || unhex(bar2 + 1, session, 16) < 0) {
            free(fds);
            tn_c10d_raise("_DistBackendError", "the hub's address in the store is malformed: '%s'", advert);
            return -1;
        }
        *bar1 = 0;
        int port = atoi(bar1 + 1);
        Py_BEGIN_ALLOW_THREADS
        rc = tn_star_leaf_connect(advert, port, rank, size, session, token, toklen, deadline, &fds[0], err);
        Py_END_ALLOW_THREADS
        if (rc) {
            free(fds);
            tn_c10d_raise("_DistBackendError", "[rank %d] %s", rank, err);
            return -1;
        }
    }
    Py_BEGIN_ALLOW_THREADS
    rc = tn_star_start(rank, size, fds, timeout_ms, &st->star, err);
    Py_END_ALLOW_THREADS
    if (rc) {
        for (int k = 0; k < size; k++)
            if (fds[k] >= 0)
                close(fds[k]);
        free(fds);
        tn_c10d_raise("_DistBackendError", "%s", err);
        return -1;
    }
    free(fds);
    return 0;
}

static void
star_shutdown_engine(StarObject *st)
{
    if (!st->star)
        return;
    tn_star *s = st->star;
    st->star = NULL;
    Py_BEGIN_ALLOW_THREADS
    tn_star_destroy(s);
    Py_END_ALLOW_THREADS
}

static void
star_dealloc(PyObject *self)
{
    StarObject *st = STAR(self);
    star_shutdown_engine(st);
    for (orphan *o = st->orphans, *n; o; o = n) {
        n = o->next;
        tn_star_op_release(o->op);
        Py_XDECREF(o->keep);
        free(o);
    }
    tn_c10d_dealloc(self);
}

/* ---- _Star: submitting ---- */

/* A contiguous CPU tensor's data and size in bytes. */
static int
tensor_bytes(PyObject *t, const char *what, char **data, uint64_t *nbytes, int *dtype)
{
    if (!tn_tensor_check(t)) {
        PyErr_Format(PyExc_TypeError, "%s must be a Tensor, got %s", what, tn_tpname(t));
        return -1;
    }
    TensorObject *x = TN_T(t);
    if (x->device != TN_DEVICE_CPU) {
        PyErr_Format(PyExc_RuntimeError, "%s is not a CPU tensor: torchnative's backend moves CPU "
                     "tensors only", what);
        return -1;
    }
    if (!tn_tensor_is_contiguous(x)) {
        PyErr_Format(PyExc_RuntimeError, "%s must be contiguous", what);
        return -1;
    }
    *data = x->numel ? tn_tensor_data(x) : NULL;
    *nbytes = (uint64_t)x->numel * (uint64_t)tn_dtype_size(x->dtype);
    if (dtype)
        *dtype = x->dtype;
    return 0;
}

/* parts: a list of tensors (or None) -> a malloc'd array of data pointers (+ sizes). */
static int
tensor_list(PyObject *list, const char *what, int n, char ***ptrs, uint64_t **sizes, PyObject *keep)
{
    *ptrs = NULL;
    if (sizes)
        *sizes = NULL;
    if (list == Py_None)
        return 0;
    if (!PyList_Check(list) || PyList_Size(list) != n) {
        PyErr_Format(PyExc_ValueError, "%s must be a list of %d tensors", what, n);
        return -1;
    }
    *ptrs = calloc((size_t)n + 1, sizeof **ptrs);
    if (sizes)
        *sizes = calloc((size_t)n + 1, sizeof **sizes);
    if (!*ptrs || (sizes && !*sizes)) {
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < n; i++) {
        PyObject *t = PyList_GetItem(list, i);
        uint64_t nb;
        if (tensor_bytes(t, what, &(*ptrs)[i], &nb, NULL) < 0)
            return -1;
        if (sizes)
            (*sizes)[i] = nb;
        if (PyList_Append(keep, t) < 0)
            return -1;
    }
    return 0;
}

static PyObject *
star_submit(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"kind", "buf", "parts", "parts2", "root", "redop", "tag",
                             "timeout_ms", "result", NULL};
    int kind, root = 0, redop = 0;
    long long tag = 0, timeout_ms = 0;
    PyObject *buf = Py_None, *parts = Py_None, *parts2 = Py_None, *result = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "i|OOOiiLLO:submit", kwlist, &kind, &buf, &parts,
                                     &parts2, &root, &redop, &tag, &timeout_ms, &result))
        return NULL;
    StarObject *st = STAR(self);
    if (!st->star)
        return tn_c10d_raise("_DistBackendError", "the process group was destroyed or aborted");
    sweep_orphans(st);
    if (kind < TN_STAR_ALLREDUCE || kind >= TN_STAR_NKINDS) {
        PyErr_Format(PyExc_ValueError, "unknown collective kind %d", kind);
        return NULL;
    }
    tn_star_desc d;
    memset(&d, 0, sizeof d);
    d.kind = kind;
    d.root = root;
    d.redop = redop;
    d.tag = tag;
    d.timeout_ms = timeout_ms;
    d.dtype = TN_DTYPE_U8;
    PyObject *keep = PyList_New(0);
    if (!keep)
        return NULL;
    int N = st->size;
    int ok = 0;
    if (buf != Py_None) {
        if (tensor_bytes(buf, "tensor", &d.buf, &d.nbytes, &d.dtype) < 0 || PyList_Append(keep, buf) < 0)
            goto done;
    }
    if (tensor_list(parts, "tensor list", N, &d.parts, kind == TN_STAR_ALLTOALL ? &d.sizes : NULL, keep) < 0 ||
        tensor_list(parts2, "output tensor list", N, &d.parts2, kind == TN_STAR_ALLTOALL ? &d.sizes2 : NULL, keep) < 0)
        goto done;
    if (buf == Py_None && d.parts && kind != TN_STAR_ALLTOALL) {
        /* reduce_scatter / scatter / gather without buf are not shapes we make */
        PyErr_SetString(PyExc_ValueError, "submit: this collective needs a tensor");
        goto done;
    }
    if (kind == TN_STAR_REDUCE_SCATTER) {
        int dt;
        char *p;
        uint64_t nb;
        if (tensor_bytes(PyList_GetItem(parts, 0), "input", &p, &nb, &dt) < 0)
            goto done;
        if (dt != d.dtype) {
            PyErr_SetString(PyExc_TypeError, "reduce_scatter: input and output dtypes differ");
            goto done;
        }
    }
    if ((kind == TN_STAR_ALLREDUCE || kind == TN_STAR_REDUCE || kind == TN_STAR_REDUCE_SCATTER) &&
        !tn_collective_supports(redop, d.dtype)) {
        PyErr_Format(PyExc_NotImplementedError, "torchnative's backend has no reduction %d for "
                     "dtype %d", redop, d.dtype);
        goto done;
    }
    tn_star_op *op = tn_star_submit(st->star, &d);
    if (!op) {
        PyErr_NoMemory();
        goto done;
    }
    StarWorkObject *w = PyObject_New(StarWorkObject, StarWork_Type);
    if (!w) {
        tn_star_op_release(op);
        goto done;
    }
    w->op = op;
    w->keep = keep;
    keep = NULL;
    Py_INCREF(self);
    w->star = self;
    Py_INCREF(result);
    w->result = result;
    ok = 1;
    free(d.parts);
    free(d.parts2);
    free(d.sizes);
    free(d.sizes2);
    return (PyObject *)w;
done:
    free(d.parts);
    free(d.parts2);
    free(d.sizes);
    free(d.sizes2);
    Py_XDECREF(keep);
    (void)ok;
    return NULL;
}

static PyObject *
star_abort(PyObject *self, PyObject *msg)
{
    StarObject *st = STAR(self);
    const char *m = PyUnicode_Check(msg) ? PyUnicode_AsUTF8AndSize(msg, NULL) : "aborted";
    if (!m)
        return NULL;
    if (st->star)
        tn_star_abort(st->star, m);
    Py_RETURN_NONE;
}

static PyObject *
star_shutdown(PyObject *self, PyObject *unused)
{
    star_shutdown_engine(STAR(self));
    Py_RETURN_NONE;
}

static PyObject *
star_chunk_bytes(PyObject *self, PyObject *unused)
{
    return PyLong_FromUnsignedLongLong(tn_star_chunk_bytes());
}

static PyObject *
star_eager_bytes(PyObject *self, PyObject *unused)
{
    return PyLong_FromUnsignedLongLong(tn_star_eager_bytes());
}

static PyMethodDef star_methods[] = {
    {"submit", (PyCFunction)(void (*)(void))star_submit, METH_VARARGS | METH_KEYWORDS, NULL},
    {"abort", star_abort, METH_O, NULL},
    {"shutdown", star_shutdown, METH_NOARGS, NULL},
    {"chunk_bytes", star_chunk_bytes, METH_NOARGS | METH_STATIC, NULL},
    {"eager_bytes", star_eager_bytes, METH_NOARGS | METH_STATIC, NULL},
    {NULL, NULL, 0, NULL},
};

/* ---- _StarWork ---- */

static void
work_dealloc(PyObject *self)
{
    StarWorkObject *w = WORK(self);
    if (w->op) {
        if (tn_star_op_done(w->op) == 0 && w->star) {
            orphan *o = malloc(sizeof *o);
            if (o) {
                o->op = w->op;
                o->keep = w->keep;
                o->next = STAR(w->star)->orphans;
                STAR(w->star)->orphans = o;
                w->op = NULL;
                w->keep = NULL;
            }
        }
        if (w->op)
            tn_star_op_release(w->op);
    }
    Py_XDECREF(w->keep);
    Py_XDECREF(w->star);
    Py_XDECREF(w->result);
    tn_c10d_dealloc(self);
}

static PyObject *
work_wait(PyObject *self, PyObject *args)
{
    long long timeout_ms = -1;
    if (!PyArg_ParseTuple(args, "|L:wait", &timeout_ms))
        return NULL;
    char err[TN_NET_ERRLEN];
    int rc;
    tn_star_op *op = WORK(self)->op;
    Py_BEGIN_ALLOW_THREADS
    rc = tn_star_wait(op, timeout_ms, err);
    Py_END_ALLOW_THREADS
    if (rc == TN_NET_TIMEOUT)
        return tn_c10d_raise("_DistBackendError", "%s", err);
    if (rc)
        return tn_c10d_raise("_DistBackendError", "%s", err);
    Py_RETURN_TRUE;
}

static PyObject *
work_is_completed(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(tn_star_op_done(WORK(self)->op) != 0);
}

static PyObject *
work_is_success(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(tn_star_op_done(WORK(self)->op) >= 0);
}

static PyObject *
work_error(PyObject *self, PyObject *unused)
{
    if (tn_star_op_done(WORK(self)->op) >= 0)
        Py_RETURN_NONE;
    char err[TN_NET_ERRLEN];
    tn_star_wait(WORK(self)->op, 1, err);
    return PyUnicode_FromString(err);
}

static PyObject *
work_source_rank(PyObject *self, PyObject *unused)
{
    return PyLong_FromLong(tn_star_op_source(WORK(self)->op));
}

static PyObject *
work_result(PyObject *self, PyObject *unused)
{
    Py_INCREF(WORK(self)->result);
    return WORK(self)->result;
}

static PyMethodDef work_methods[] = {
    {"wait", work_wait, METH_VARARGS, NULL},
    {"is_completed", work_is_completed, METH_NOARGS, NULL},
    {"is_success", work_is_success, METH_NOARGS, NULL},
    {"error", work_error, METH_NOARGS, NULL},
    {"source_rank", work_source_rank, METH_NOARGS, NULL},
    {"result", work_result, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static int
add_kinds(PyObject *ns)
{
    static const struct {
        const char *name;
        int value;
    } kinds[] = {
        {"ALLREDUCE", TN_STAR_ALLREDUCE}, {"BROADCAST", TN_STAR_BROADCAST},
        {"REDUCE", TN_STAR_REDUCE}, {"ALLGATHER", TN_STAR_ALLGATHER}, {"GATHER", TN_STAR_GATHER},
        {"SCATTER", TN_STAR_SCATTER}, {"REDUCE_SCATTER", TN_STAR_REDUCE_SCATTER},
        {"ALLTOALL", TN_STAR_ALLTOALL}, {"BARRIER", TN_STAR_BARRIER}, {"SEND", TN_STAR_SEND},
        {"RECV", TN_STAR_RECV},
    };
    for (int i = 0; i < TN_ARRAY_LEN(kinds); i++) {
        char name[64];
        snprintf(name, sizeof name, "STAR_%s", kinds[i].name);
        if (PyModule_AddIntConstant(ns, name, kinds[i].value) < 0)
            return -1;
    }
    return 0;
}

int
tn_c10d_init(PyObject *c_module)
{
    PyObject *ns = PyModule_New("torch._C._tn_c10d");
    if (!ns)
        return -1;
    PyType_Slot star_slots[] = {
        {Py_tp_new, PyType_GenericNew}, {Py_tp_init, star_init}, {Py_tp_dealloc, star_dealloc},
        {Py_tp_methods, star_methods},
        {Py_tp_doc, "_Star(store, rank, size, timeout_ms): one process group's star engine "
                    "(runtime/c10d_star.c)."},
        {0, NULL}};
    PyType_Slot work_slots[] = {
        {Py_tp_dealloc, work_dealloc}, {Py_tp_methods, work_methods},
        {Py_tp_doc, "One submitted operation of a _Star."}, {0, NULL}};
    PyType_Spec star_spec = {"torch._C._tn_c10d._Star", sizeof(StarObject), 0, Py_TPFLAGS_DEFAULT, star_slots};
    PyType_Spec work_spec = {"torch._C._tn_c10d._StarWork", sizeof(StarWorkObject), 0, Py_TPFLAGS_DEFAULT, work_slots};
    Star_Type = (PyTypeObject *)PyType_FromSpec(&star_spec);
    StarWork_Type = (PyTypeObject *)PyType_FromSpec(&work_spec);
    if (!Star_Type || !StarWork_Type || PyModule_AddObjectRef(ns, "_Star", (PyObject *)Star_Type) < 0 ||
        PyModule_AddObjectRef(ns, "_StarWork", (PyObject *)StarWork_Type) < 0 || add_kinds(ns) < 0 ||
        tn_c10d_store_init(c_module, ns) < 0 || PyModule_AddObject(c_module, "_tn_c10d", ns) < 0) {
        Py_DECREF(ns);
        return -1;
    }
    return 0;
}
