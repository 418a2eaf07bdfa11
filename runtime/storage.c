/* StorageBase: byte storage objects (torch.UntypedStorage), including from_file (mmap, what
 * safetensors loads through), slicing that shares memory, weak handles, and shared memory
 * between processes (Note [Shared storages]).
 */
#include "storage.h"
#include "device.h"
#include "dtype.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

PyTypeObject *tn_StorageBase_Type;
PyTypeObject *tn_storage_class;

static StorageObject *
storage_alloc(PyTypeObject *tp, tn_storage *s)
{
    allocfunc alloc = (allocfunc)PyType_GetSlot(tp, Py_tp_alloc);
    StorageObject *o = (StorageObject *)alloc(tp, 0);
    if (!o)
        return NULL;
    o->storage = s;  /* steals the caller's reference */
    if (!s->wrapper)
        s->wrapper = (PyObject *)o;
    return o;
}

PyObject *
tn_storage_wrap(tn_storage *s)
{
    if (s->wrapper)
        return Py_NewRef(s->wrapper);
    tn_storage_retain(s);
    PyTypeObject *tp = tn_storage_class ? tn_storage_class : tn_StorageBase_Type;
    StorageObject *o = storage_alloc(tp, s);
    if (!o)
        tn_storage_release(s);
    return (PyObject *)o;
}

static void
storage_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    StorageObject *o = (StorageObject *)self;
    PyObject_GC_UnTrack(self);
    if (o->storage) {
        if (o->storage->wrapper == self)
            o->storage->wrapper = NULL;
        tn_storage_release(o->storage);
    }
    freefunc free_fn = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    free_fn(self);
    Py_DECREF(tp);
}

static int
storage_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    return 0;
}

static int
parse_device_kw(PyObject *device, int *dev)
{
    *dev = TN_DEVICE_CPU;
    if (!device || device == Py_None)
        return 0;
    int type, index;
    if (tn_device_parse(device, &type, &index) < 0)
        return -1;
    if (type == TN_DEVTYPE_META) {
        *dev = TN_DEVICE_META;
        return 0;
    }
    if (type != TN_DEVTYPE_CPU) {
        PyErr_Format(PyExc_RuntimeError,
                     "torchnative has storage on cpu and meta only, not %s", tn_devtype_name(type));
        return -1;
    }
    return 0;
}

/* UntypedStorage(), UntypedStorage(nbytes), UntypedStorage(sequence of byte values); device=. */
static PyObject *
storage_new(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"arg", "device", NULL};
    PyObject *arg = NULL, *device = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O$O:StorageBase", kwlist, &arg, &device))
        return NULL;
    int dev;
    if (parse_device_kw(device, &dev) < 0)
        return NULL;
    int64_t n = 0;
    PyObject *seq = NULL;
    if (arg && PyLong_Check(arg)) {
        n = PyLong_AsLongLong(arg);
        if (n < 0) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_RuntimeError, "size must be non-negative");
            return NULL;
        }
    } else if (arg) {
        seq = PySequence_Fast(arg, "StorageBase(): expected an int or a sequence");
        if (!seq)
            return NULL;
        n = PySequence_Size(seq);
    }
    tn_storage *s = tn_storage_new(n, dev);
    if (!s) {
        Py_XDECREF(seq);
        return NULL;
    }
    for (int64_t i = 0; seq && i < n; i++) {
        PyObject *item = PySequence_GetItem(seq, i);
        long v = item ? PyLong_AsLong(item) : -1;
        Py_XDECREF(item);
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            tn_storage_release(s);
            return NULL;
        }
        s->data[i] = (char)(unsigned char)v;
    }
    Py_XDECREF(seq);
    StorageObject *o = storage_alloc(tp, s);
    if (!o)
        tn_storage_release(s);
    return (PyObject *)o;
}

#define S(o) (((StorageObject *)(o))->storage)

static PyObject *
storage_nbytes(PyObject *self, PyObject *unused)
{
    return PyLong_FromLongLong(S(self)->nbytes);
}

static PyObject *
storage_data_ptr(PyObject *self, PyObject *unused)
{
    return PyLong_FromVoidPtr(S(self)->data);
}

static PyObject *
storage_element_size(PyObject *self, PyObject *unused)
{
    return PyLong_FromLong(1);
}

static PyObject *
storage_resizable(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(S(self)->resizable && S(self)->kind != TN_STORAGE_EXTERNAL);
}

static PyObject *
storage_resize_(PyObject *self, PyObject *arg)
{
    long long n = PyLong_AsLongLong(arg);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    if (tn_storage_resize(S(self), n) < 0)
        return NULL;
    return Py_NewRef(self);
}

static PyObject *
storage_fill_(PyObject *self, PyObject *arg)
{
    long v = PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred())
        return NULL;
    if (S(self)->data)
        memset(S(self)->data, (int)(unsigned char)v, (size_t)S(self)->nbytes);
    return Py_NewRef(self);
}

static PyObject *
storage_copy_(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"src", "non_blocking", NULL};
    PyObject *src;
    int nb = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|p", kwlist, &src, &nb))
        return NULL;
    if (!tn_storage_check(src)) {
        PyErr_SetString(PyExc_TypeError, "copy_(): expected a storage");
        return NULL;
    }
    if (S(src)->nbytes != S(self)->nbytes) {
        PyErr_Format(PyExc_RuntimeError, "size does not match, self was %lld bytes but src was %lld bytes",
                     (long long)S(self)->nbytes, (long long)S(src)->nbytes);
        return NULL;
    }
    if (S(self)->data && S(src)->data)
        memmove(S(self)->data, S(src)->data, (size_t)S(self)->nbytes);
    return Py_NewRef(self);
}

static PyObject *
storage_get_device(PyObject *self, void *c)
{
    return Py_NewRef(S(self)->device == TN_DEVICE_META ? tn_device_meta : tn_device_cpu);
}

static PyObject *
storage_get_cdata(PyObject *self, void *c)
{
    return PyLong_FromVoidPtr(S(self));
}

static Py_ssize_t
storage_len(PyObject *self)
{
    return (Py_ssize_t)S(self)->nbytes;
}

/* A storage over [start, stop) of another's bytes, keeping the parent alive. */
static void
release_slice(tn_storage *s)
{
    tn_storage_release((tn_storage *)s->release_ctx);
}

static PyObject *
storage_getitem(PyObject *self, PyObject *key)
{
    tn_storage *s = S(self);
    if (PySlice_Check(key)) {
        Py_ssize_t start, stop, step;
        if (PySlice_Unpack(key, &start, &stop, &step) < 0)
            return NULL;
        Py_ssize_t len = PySlice_AdjustIndices((Py_ssize_t)s->nbytes, &start, &stop, step);
        if (step != 1) {
            PyErr_Format(PyExc_RuntimeError, "Trying to slice with a step of %zd, but only a step of 1 is supported", step);
            return NULL;
        }
        tn_storage *v = tn_storage_new_external(s->data ? s->data + start : NULL, len, NULL);
        if (!v)
            return NULL;
        v->device = s->device;
        if (s->kind == TN_STORAGE_META)
            v->kind = TN_STORAGE_META;
        tn_storage_retain(s);
        v->release = release_slice;
        v->release_ctx = s;
        PyTypeObject *tp = Py_TYPE(self);
        StorageObject *o = storage_alloc(tp, v);
        if (!o)
            tn_storage_release(v);
        return (PyObject *)o;
    }
    Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred())
        return NULL;
    if (i < 0)
        i += (Py_ssize_t)s->nbytes;
    if (i < 0 || i >= s->nbytes) {
        PyErr_Format(PyExc_IndexError, "index %zd out of range for storage of size %lld", i, (long long)s->nbytes);
        return NULL;
    }
    if (!s->data) {
        PyErr_SetString(PyExc_NotImplementedError, "Cannot access data of a meta storage");
        return NULL;
    }
    return PyLong_FromLong((unsigned char)s->data[i]);
}

static int
storage_setitem(PyObject *self, PyObject *key, PyObject *value)
{
    tn_storage *s = S(self);
    if (!value) {
        PyErr_SetString(PyExc_TypeError, "storage items cannot be deleted");
        return -1;
    }
    long v = PyLong_AsLong(value);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (PySlice_Check(key)) {
        Py_ssize_t start, stop, step;
        if (PySlice_Unpack(key, &start, &stop, &step) < 0)
            return -1;
        Py_ssize_t len = PySlice_AdjustIndices((Py_ssize_t)s->nbytes, &start, &stop, step);
        for (Py_ssize_t k = 0; k < len; k++)
            s->data[start + k * step] = (char)(unsigned char)v;
        return 0;
    }
    Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred())
        return -1;
    if (i < 0)
        i += (Py_ssize_t)s->nbytes;
    if (i < 0 || i >= s->nbytes) {
        PyErr_Format(PyExc_IndexError, "index %zd out of range for storage of size %lld", i, (long long)s->nbytes);
        return -1;
    }
    s->data[i] = (char)(unsigned char)v;
    return 0;
}

/* from_file(filename, shared=False, nbytes=0): map the file. shared=False maps it copy-on-write,
 * as upstream's MapAllocator does with ALLOCATOR_MAPPED_PRIVATE. */
static void
release_mmap(tn_storage *s)
{
    if (s->data && s->nbytes > 0)
        munmap(s->data, (size_t)s->nbytes);
}

static PyObject *
storage_from_file(PyObject *cls, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"filename", "shared", "nbytes", "size", NULL};
    PyObject *fname;
    int shared = 0;
    long long nbytes = 0, size = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|pLL:from_file", kwlist, &fname, &shared, &nbytes, &size))
        return NULL;
    if (size >= 0 && nbytes == 0)
        nbytes = size;
    PyObject *path = NULL;
    if (!PyUnicode_FSConverter(fname, &path))
        return NULL;
    const char *p = PyBytes_AsString(path);
    int fd = open(p, shared ? O_RDWR | O_CREAT : O_RDONLY, 0644);
    if (fd < 0) {
        PyErr_Format(PyExc_RuntimeError, "unable to open %s: %s", p, strerror(errno));
        Py_DECREF(path);
        return NULL;
    }
    struct stat st;
    fstat(fd, &st);
    if (nbytes == 0)
        nbytes = st.st_size;
    if (nbytes > st.st_size) {
        if (!shared) {
            close(fd);
            PyErr_Format(PyExc_RuntimeError, "file %s is %lld bytes, smaller than the %lld asked for", p,
                         (long long)st.st_size, nbytes);
            Py_DECREF(path);
            return NULL;
        }
        if (ftruncate(fd, nbytes) < 0) {
            close(fd);
            PyErr_SetFromErrno(PyExc_OSError);
            Py_DECREF(path);
            return NULL;
        }
    }
    Py_DECREF(path);
    void *data = NULL;
    if (nbytes > 0) {
        data = mmap(NULL, (size_t)nbytes, PROT_READ | PROT_WRITE, shared ? MAP_SHARED : MAP_PRIVATE, fd, 0);
        if (data == MAP_FAILED) {
            close(fd);
            PyErr_SetFromErrno(PyExc_OSError);
            return NULL;
        }
    }
    close(fd);
    tn_storage *s = tn_storage_new_external(data, nbytes, NULL);
    if (!s) {
        if (data)
            munmap(data, (size_t)nbytes);
        return NULL;
    }
    s->release = release_mmap;
    StorageObject *o = storage_alloc((PyTypeObject *)cls, s);
    if (!o)
        tn_storage_release(s);
    return (PyObject *)o;
}

/* from_buffer(buf, byte_order="native", count=-1, offset=0, dtype=uint8): a copy of the bytes. */
static PyObject *
storage_from_buffer(PyObject *cls, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"buffer", "byte_order", "count", "offset", "dtype", NULL};
    PyObject *buf, *dtype = NULL;
    const char *order = NULL;
    Py_ssize_t count = -1, offset = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|znnO:from_buffer", kwlist, &buf, &order, &count, &offset, &dtype))
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(buf, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    int esize = 1;
    if (dtype && dtype != Py_None) {
        int d = tn_dtype_from_py(dtype);
        if (d < 0) {
            PyBuffer_Release(&view);
            return NULL;
        }
        esize = tn_dtype_size(d);
    }
    Py_ssize_t avail = view.len - offset;
    Py_ssize_t n = count < 0 ? avail : count * esize;
    if (offset < 0 || n > avail || n < 0 || (count < 0 && avail % esize)) {
        PyBuffer_Release(&view);
        PyErr_Format(PyExc_ValueError, "buffer has only %zd elements after offset %zd, but the end of the "
                     "requested range would be past it", avail / esize, offset);
        return NULL;
    }
    tn_storage *s = tn_storage_new(n, TN_DEVICE_CPU);
    if (!s) {
        PyBuffer_Release(&view);
        return NULL;
    }
    memcpy(s->data, (char *)view.buf + offset, (size_t)n);
    PyBuffer_Release(&view);
    if (order && strcmp(order, "native") && strcmp(order, "little") && esize > 1) {
        /* big-endian input: swap each element */
        for (Py_ssize_t i = 0; i < n; i += esize)
            for (int a = 0, b = esize - 1; a < b; a++, b--) {
                char tmp = s->data[i + a];
                s->data[i + a] = s->data[i + b];
                s->data[i + b] = tmp;
            }
    }
    StorageObject *o = storage_alloc((PyTypeObject *)cls, s);
    if (!o)
        tn_storage_release(s);
    return (PyObject *)o;
}

static PyObject *
storage_new_empty(PyObject *self, PyObject *unused)
{
    tn_storage *s = tn_storage_new(0, S(self)->device);
    if (!s)
        return NULL;
    StorageObject *o = storage_alloc(Py_TYPE(self), s);
    if (!o)
        tn_storage_release(s);
    return (PyObject *)o;
}

/* _weak_ref / _expired / _free_weak_ref / _new_with_weak_ptr: weak handles on a storage (the
 * caches of torch.multiprocessing and fake tensors key on them). A handle is the tn_storage
 * pointer; it keeps the struct (not the data) alive until _free_weak_ref, so _expired can tell
 * a storage that died from one still in use, as upstream's weak_intrusive_ptr does. */
static PyObject *
storage_weak_ref(PyObject *self, PyObject *unused)
{
    S(self)->weakcnt++;
    return PyLong_FromVoidPtr(S(self));
}

static tn_storage *
weak_handle(PyObject *arg)
{
    void *p = PyLong_AsVoidPtr(arg);
    if (!p && !PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "expected a storage weak reference, got 0");
    return p;
}

static PyObject *
storage_expired(PyObject *cls, PyObject *arg)
{
    tn_storage *s = weak_handle(arg);
    if (!s)
        return NULL;
    return PyBool_FromLong(s->refcnt == 0);
}

static PyObject *
storage_free_weak_ref(PyObject *cls, PyObject *arg)
{
    if (arg == Py_None)
        Py_RETURN_NONE;
    tn_storage *s = weak_handle(arg);
    if (!s)
        return NULL;
    if (--s->weakcnt == 0 && s->refcnt == 0)
        free(s);
    Py_RETURN_NONE;
}

static PyObject *
storage_new_with_weak_ptr(PyObject *cls, PyObject *arg)
{
    tn_storage *s = weak_handle(arg);
    if (!s)
        return NULL;
    if (s->refcnt == 0)
        Py_RETURN_NONE;
    return tn_storage_wrap(s);
}

static PyObject *
storage_fix_weakref(PyObject *self, PyObject *unused)
{
    Py_RETURN_NONE;
}

static PyObject *
storage_use_count(PyObject *self, PyObject *unused)
{
    return PyLong_FromSsize_t(S(self)->refcnt);
}

static PyObject *
storage_set_cdata(PyObject *self, PyObject *arg)
{
    void *p = PyLong_AsVoidPtr(arg);
    if (!p)
        return NULL;
    tn_storage *s = p;
    tn_storage_retain(s);
    if (S(self)->wrapper == self)
        S(self)->wrapper = NULL;
    tn_storage_release(S(self));
    ((StorageObject *)self)->storage = s;
    return Py_NewRef(self);
}

/* _write_file(f, is_real_file, save_size, element_size): torch.save's legacy path writes raw bytes. */
static PyObject *
storage_write_file(PyObject *self, PyObject *args)
{
    PyObject *f;
    int is_real, save_size;
    long long esize;
    if (!PyArg_ParseTuple(args, "OppL", &f, &is_real, &save_size, &esize))
        return NULL;
    tn_storage *s = S(self);
    if (save_size) {
        long long count = s->nbytes / (esize ? esize : 1);
        PyObject *b = PyBytes_FromStringAndSize((const char *)&count, 8);
        PyObject *r = b ? PyObject_CallMethod(f, "write", "O", b) : NULL;
        Py_XDECREF(b);
        if (!r)
            return NULL;
        Py_DECREF(r);
    }
    PyObject *mv = PyMemoryView_FromMemory(s->data ? s->data : "", s->nbytes, PyBUF_READ);
    PyObject *r = mv ? PyObject_CallMethod(f, "write", "O", mv) : NULL;
    Py_XDECREF(mv);
    if (!r)
        return NULL;
    Py_DECREF(r);
    Py_RETURN_NONE;
}

/* ---- shared memory (torch.multiprocessing's file_descriptor strategy) ----
 *
 * Note [Shared storages]
 * A shared storage is an anonymous memory file (memfd) mapped MAP_SHARED; the storage keeps
 * the descriptor open, so `_share_fd_cpu_` can hand it to another process (multiprocessing
 * duplicates it over a socket) and `_new_shared_fd_cpu` maps the same pages there. Sharing an
 * existing storage moves its bytes into such a file and repoints the storage's data, so every
 * tensor viewing it follows, as upstream's set_data_ptr_noswap does. Upstream uses shm_open +
 * unlink for the same thing. The file_system strategy needs upstream's torch_shm_manager
 * process and is refused by name.
 */
static void
release_shared(tn_storage *s)
{
    if (s->data && s->nbytes > 0)
        munmap(s->data, (size_t)s->nbytes);
    close((int)(intptr_t)s->release_ctx);
}

static int
storage_is_shared_fd(const tn_storage *s)
{
    return s->kind == TN_STORAGE_EXTERNAL && s->release == release_shared;
}

/* Map nbytes of fd shared; data NULL for an empty storage (nothing can be mapped). */
static int
map_shared(int fd, int64_t nbytes, char **data)
{
    *data = NULL;
    if (nbytes == 0)
        return 0;
    void *p = mmap(NULL, (size_t)nbytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        PyErr_Format(PyExc_RuntimeError, "unable to mmap %lld bytes of shared memory: %s", (long long)nbytes,
                     strerror(errno));
        return -1;
    }
    *data = p;
    return 0;
}

/* A new memory file of nbytes, mapped; returns the fd or -1. */
static int
new_shared_region(int64_t nbytes, char **data)
{
    int fd = memfd_create("torch_shared_storage", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, nbytes) < 0) {
        PyErr_Format(PyExc_RuntimeError, "unable to create %lld bytes of shared memory: %s", (long long)nbytes,
                     strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (map_shared(fd, nbytes, data) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static PyObject *
new_shared_storage(PyObject *cls, int fd, char *data, int64_t nbytes)
{
    tn_storage *s = tn_storage_new_external(data, nbytes, NULL);
    if (!s) {
        if (data)
            munmap(data, (size_t)nbytes);
        close(fd);
        return NULL;
    }
    s->release = release_shared;
    s->release_ctx = (void *)(intptr_t)fd;
    PyTypeObject *tp = PyType_Check(cls) ? (PyTypeObject *)cls : (tn_storage_class ? tn_storage_class : tn_StorageBase_Type);
    StorageObject *o = storage_alloc(tp, s);
    if (!o)
        tn_storage_release(s);
    return (PyObject *)o;
}

static PyObject *
storage_is_shared(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(storage_is_shared_fd(S(self)));
}

/* _share_fd_cpu_() -> (fd, nbytes): see Note [Shared storages]. */
static PyObject *
storage_share_fd(PyObject *self, PyObject *unused)
{
    tn_storage *s = S(self);
    if (s->kind == TN_STORAGE_META || s->device != TN_DEVICE_CPU) {
        PyErr_SetString(PyExc_RuntimeError, "_share_fd_: only available on CPU");
        return NULL;
    }
    if (!storage_is_shared_fd(s)) {
        char *data;
        int fd = new_shared_region(s->nbytes, &data);
        if (fd < 0)
            return NULL;
        if (data && s->data)
            memcpy(data, s->data, (size_t)s->nbytes);
        if (s->kind == TN_STORAGE_MALLOC)
            tn_storage_free_data(s);
        else if (s->kind == TN_STORAGE_EXTERNAL && s->release)
            s->release(s);
        Py_CLEAR(s->owner);
        s->kind = TN_STORAGE_EXTERNAL;
        s->inline_data = 0;
        s->resizable = 0;
        s->data = data;
        s->release = release_shared;
        s->release_ctx = (void *)(intptr_t)fd;
    }
    return Py_BuildValue("(iL)", (int)(intptr_t)s->release_ctx, (long long)s->nbytes);
}

/* _new_using_fd_cpu(nbytes): a new shared storage (what a DataLoader worker collates into). */
static PyObject *
storage_new_using_fd(PyObject *cls, PyObject *arg)
{
    long long n = PyLong_AsLongLong(arg);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    if (n < 0) {
        PyErr_SetString(PyExc_RuntimeError, "size must be non-negative");
        return NULL;
    }
    char *data;
    int fd = new_shared_region(n, &data);
    if (fd < 0)
        return NULL;
    return new_shared_storage(cls, fd, data, n);
}

/* _new_shared_fd_cpu(fd, nbytes): map another process's shared storage; the caller keeps fd. */
static PyObject *
storage_new_shared_fd(PyObject *cls, PyObject *args)
{
    int fd;
    long long n;
    if (!PyArg_ParseTuple(args, "iL:_new_shared_fd_cpu", &fd, &n))
        return NULL;
    int mine = dup(fd);
    if (mine < 0) {
        PyErr_Format(PyExc_RuntimeError, "could not duplicate a shared memory file descriptor: %s", strerror(errno));
        return NULL;
    }
    char *data;
    if (map_shared(mine, n, &data) < 0) {
        close(mine);
        return NULL;
    }
    return new_shared_storage(cls, mine, data, n);
}

/* _set_from_file(f, offset, is_real_file, element_size): torch.load's legacy format reads a
 * storage as its element count (int64, little-endian) then its bytes, from offset if given
 * (real files only, as upstream), leaving f just past them. */
static PyObject *
storage_set_from_file(PyObject *self, PyObject *args)
{
    PyObject *f, *offset;
    int is_real;
    long long esize;
    if (!PyArg_ParseTuple(args, "OOpL:_set_from_file", &f, &offset, &is_real, &esize))
        return NULL;
    tn_storage *s = S(self);
    if (offset != Py_None) {
        if (!is_real) {
            PyErr_SetString(PyExc_RuntimeError, "_set_from_file: offset is NYI for filelike objects");
            return NULL;
        }
        PyObject *r = PyObject_CallMethod(f, "seek", "Oi", offset, 0);
        if (!r)
            return NULL;
        Py_DECREF(r);
    }
    PyObject *head = PyObject_CallMethod(f, "read", "i", 8);
    if (!head)
        return NULL;
    if (!PyBytes_Check(head) || PyBytes_Size(head) != 8) {
        Py_DECREF(head);
        PyErr_SetString(PyExc_RuntimeError, "unexpected EOF, expected 8 more bytes. The file might be corrupted.");
        return NULL;
    }
    const unsigned char *h = (const unsigned char *)PyBytes_AsString(head);
    uint64_t numel = 0;
    for (int i = 7; i >= 0; i--)
        numel = numel << 8 | h[i];
    Py_DECREF(head);
    uint64_t nbytes = numel * (uint64_t)(esize > 0 ? esize : 1);
    if ((int64_t)nbytes != s->nbytes) {
        PyErr_Format(PyExc_RuntimeError, "storage has wrong byte size: expected %lld got %lld", (long long)nbytes,
                     (long long)s->nbytes);
        return NULL;
    }
    uint64_t done = 0;
    while (done < nbytes) {
        PyObject *mv = PyMemoryView_FromMemory(s->data + done, (Py_ssize_t)(nbytes - done), PyBUF_WRITE);
        PyObject *got = mv ? PyObject_CallMethod(f, "readinto", "O", mv) : NULL;
        Py_XDECREF(mv);
        if (!got)
            return NULL;
        Py_ssize_t k = PyLong_AsSsize_t(got);
        Py_DECREF(got);
        if (k <= 0) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_RuntimeError, "unexpected EOF, expected %llu more bytes. The file might be corrupted.",
                             (unsigned long long)(nbytes - done));
            return NULL;
        }
        done += (uint64_t)k;
    }
    return Py_NewRef(self);
}

static PyObject *
storage_refuse_file_system(PyObject *self, PyObject *args)
{
    PyErr_SetString(PyExc_RuntimeError,
                    "torch.multiprocessing's 'file_system' sharing strategy needs torch_shm_manager, which "
                    "torchnative does not have; the default 'file_descriptor' strategy "
                    "(torch.multiprocessing.set_sharing_strategy('file_descriptor')) shares tensors between "
                    "processes");
    return NULL;
}

PyMethodDef tn_storage_methods[] = {
    {"nbytes", storage_nbytes, METH_NOARGS, NULL},
    {"data_ptr", storage_data_ptr, METH_NOARGS, NULL},
    {"element_size", storage_element_size, METH_NOARGS, NULL},
    {"resizable", storage_resizable, METH_NOARGS, NULL},
    {"resize_", storage_resize_, METH_O, NULL},
    {"fill_", storage_fill_, METH_O, NULL},
    {"copy_", (PyCFunction)(void (*)(void))storage_copy_, METH_VARARGS | METH_KEYWORDS, NULL},
    {"is_shared", storage_is_shared, METH_NOARGS, NULL},
    {"new", storage_new_empty, METH_NOARGS, NULL},
    {"from_file", (PyCFunction)(void (*)(void))storage_from_file, METH_VARARGS | METH_KEYWORDS | METH_CLASS, NULL},
    {"from_buffer", (PyCFunction)(void (*)(void))storage_from_buffer, METH_VARARGS | METH_KEYWORDS | METH_CLASS, NULL},
    {"_weak_ref", storage_weak_ref, METH_NOARGS, NULL},
    {"_expired", storage_expired, METH_O | METH_CLASS, NULL},
    {"_free_weak_ref", storage_free_weak_ref, METH_O | METH_CLASS, NULL},
    {"_new_with_weak_ptr", storage_new_with_weak_ptr, METH_O | METH_CLASS, NULL},
    {"_fix_weakref", storage_fix_weakref, METH_NOARGS, NULL},
    {"_use_count", storage_use_count, METH_NOARGS, NULL},
    {"_set_cdata", storage_set_cdata, METH_O, NULL},
    {"_write_file", storage_write_file, METH_VARARGS, NULL},
    {"_set_from_file", storage_set_from_file, METH_VARARGS, NULL},
    {"_share_fd_cpu_", storage_share_fd, METH_NOARGS, NULL},
    {"_new_using_fd_cpu", storage_new_using_fd, METH_O | METH_CLASS, NULL},
    {"_new_shared_fd_cpu", storage_new_shared_fd, METH_VARARGS | METH_CLASS, NULL},
    {"_share_filename_cpu_", storage_refuse_file_system, METH_VARARGS, NULL},
    {"_new_using_filename_cpu", storage_refuse_file_system, METH_VARARGS | METH_CLASS, NULL},
    {"_new_shared_filename_cpu", storage_refuse_file_system, METH_VARARGS | METH_CLASS, NULL},
    {"_shared_decref", storage_refuse_file_system, METH_NOARGS, NULL},
    {"_shared_incref", storage_refuse_file_system, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef storage_getset[] = {
    {"device", storage_get_device, NULL, NULL, NULL},
    {"_cdata", storage_get_cdata, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot storage_slots[] = {
    {Py_tp_new, storage_new},
    {Py_tp_dealloc, storage_dealloc},
    {Py_tp_traverse, storage_traverse},
    {Py_tp_methods, tn_storage_methods},
    {Py_tp_getset, storage_getset},
    {Py_mp_length, storage_len},
    {Py_mp_subscript, storage_getitem},
    {Py_mp_ass_subscript, storage_setitem},
    {0, NULL},
};

int
tn_storage_type_init(PyObject *module)
{
    PyType_Spec spec = {"torch._C.StorageBase", sizeof(StorageObject), 0,
                        Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, storage_slots};
    tn_StorageBase_Type = (PyTypeObject *)PyType_FromSpec(&spec);
    if (!tn_StorageBase_Type)
        return -1;
    return PyModule_AddObjectRef(module, "StorageBase", (PyObject *)tn_StorageBase_Type);
}
