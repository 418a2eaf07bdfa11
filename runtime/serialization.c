/* torch._C.PyTorchFileWriter and PyTorchFileReader: the zip container of torch.save and
 * torch.load (torch/serialization.py drives them), writing the layout upstream's writer
 * (caffe2/serialize/inline_container.cc over its miniz) writes, byte for byte but for one
 * record (Note [Checkpoint zip layout]), and reading any stored or deflated zip of records.
 * Targets are file names or Python file-like objects (BytesIO, open files).
 *
 * Note [Checkpoint zip layout]
 * Every record lives under "<archive>/" (the file's base name without extension, "archive"
 * for a buffer) and is stored, not compressed:
 *   - a local header whose crc32 and sizes are 0, flags 0x0808 (a data descriptor follows,
 *     UTF-8 name), no time or date; an empty record has flags 0x0800 and no descriptor;
 *   - the name, then the extra field: a zip64 field when the record is >= 4 GiB or starts at
 *     >= 4 GiB (sizes (record size, 0) and/or the header offset), then "FB" + 16-bit length
 *     + 'Z' padding, so that the data starts on a multiple of storage_alignment (64);
 *   - the data, then the descriptor: signature, crc32 (0 when compute_crc32 is off), sizes in
 *     32 bits, or in 64 bits when the record has the zip64 field.
 * The central directory repeats each entry (sizes and offset capped at 0xFFFFFFFF, with the
 * zip64 field when needed), then a zip64 end record and locator (always, as miniz's
 * MZ_ZIP_FLAG_WRITE_ZIP64 writes them), then the classic end record.
 * write_end_of_file adds "version" (".data/version" from version 6) and "byteorder" if they
 * were not written, then ".data/serialization_id": 20 digits naming the record set and 20
 * digits combining the records' crc32s in write order with c10::hash_combine. The crc half
 * is upstream's; upstream's name half hashes with libstdc++'s std::hash in unordered_set
 * order, which has no portable equivalent, so ours (FNV-1a, write order) differs from it:
 * that record is the one whose bytes are not upstream's.
 * Records are read without checking their crc32, as upstream's reader (miniz built with
 * MINIZ_DISABLE_ZIP_READER_CRC32_CHECKS) reads them: files saved with compute_crc32=False
 * carry 0.
 */
#include "serialization.h"
#include "dtype.h"
#include "storage.h"
#include "tensor.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define ZIP_U32_MAX 0xFFFFFFFFull
#define LOCAL_HEADER_SIZE 30
#define CENTRAL_HEADER_SIZE 46
#define SIG_LOCAL 0x04034b50u
#define SIG_CENTRAL 0x02014b50u
#define SIG_DESCRIPTOR 0x08074b50u
#define SIG_END 0x06054b50u
#define SIG_END64 0x06064b50u
#define SIG_LOCATOR64 0x07064b50u
#define FLAG_DESCRIPTOR 0x0008
#define FLAG_UTF8 0x0800
#define SERIALIZATION_ID_RECORD ".data/serialization_id"
#define MIN_PRODUCED_VERSION 3  /* caffe2::serialize::kMinProducedFileFormatVersion */
#define MIN_SUPPORTED_VERSION 1
#define MAX_SUPPORTED_VERSION 10

static void
put16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static void
put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void
put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static unsigned
get16(const unsigned char *p)
{
    return p[0] | (unsigned)p[1] << 8;
}

static uint32_t
get32(const unsigned char *p)
{
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t
get64(const unsigned char *p)
{
    return get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* c10::hash_combine */
static uint64_t
hash_combine(uint64_t seed, uint64_t value)
{
    return seed ^ (value + 0x9e3779b9u + (seed << 6) + (seed >> 2));
}

static uint32_t
crc32_of(const char *data, uint64_t n)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    while (n > 0) {
        uInt chunk = n > (1u << 30) ? (1u << 30) : (uInt)n;
        crc = crc32(crc, (const Bytef *)data, chunk);
        data += chunk;
        n -= chunk;
    }
    return (uint32_t)crc;
}

/* ======================= writer ======================= */

typedef struct {
    char *name;         /* full name, "<archive>/<record>" */
    uint64_t header_ofs;
    uint64_t size;
    uint32_t crc;
} zip_entry;

typedef struct {
    PyObject_HEAD
    FILE *fp;             /* a file name was given */
    PyObject *buffer;     /* a file-like object was given */
    char *archive;        /* "<archive>/" */
    uint64_t pos;
    zip_entry *entries;
    Py_ssize_t nentries, cap;
    PyObject *written;    /* set of record names, as given */
    uint64_t names_hash;  /* see Note [Checkpoint zip layout] */
    uint64_t combined_crc;
    uint64_t version;
    int64_t alignment;
    int compute_crc32;
    int finalized;
    char serialization_id[41];
} FileWriterObject;

static PyTypeObject *writer_type, *reader_type;

static int
writer_fail_io(FileWriterObject *w, const char *what)
{
    if (!PyErr_Occurred())
        PyErr_Format(PyExc_RuntimeError, "PytorchStreamWriter failed %s: %s", what, strerror(errno));
    return -1;
}

/* Write n bytes (data NULL: skip n bytes, write_record_metadata). Upstream folds the crc of
 * every chunk that starts with a data descriptor's signature into the serialization id. */
static int
emit(FileWriterObject *w, const void *data, uint64_t n)
{
    if (n == 0)
        return 0;
    if (data && n >= 8 && get32(data) == SIG_DESCRIPTOR)
        w->combined_crc = hash_combine(w->combined_crc, get32((const unsigned char *)data + 4));
    if (w->fp) {
        if (!data) {
            if (fseeko(w->fp, (off_t)n, SEEK_CUR) != 0)
                return writer_fail_io(w, "skipping a record's data");
        } else if (fwrite(data, 1, (size_t)n, w->fp) != n) {
            return writer_fail_io(w, "writing");
        }
    } else {
        PyObject *r;
        if (!data) {
            r = PyObject_CallMethod(w->buffer, "seek", "Ki", (unsigned long long)n, SEEK_CUR);
        } else {
            PyObject *mv = PyMemoryView_FromMemory((char *)data, (Py_ssize_t)n, PyBUF_READ);
            r = mv ? PyObject_CallMethod(w->buffer, "write", "O", mv) : NULL;
            Py_XDECREF(mv);
        }
        if (!r)
            return -1;
        Py_DECREF(r);
    }
    w->pos += n;
    return 0;
}

/* The zip64 extra field: id 1, then the present values in order. Returns its length. */
static int
zip64_extra(unsigned char *p, const uint64_t *usize, const uint64_t *csize, const uint64_t *ofs)
{
    int n = 4;
    if (usize) {
        put64(p + n, *usize);
        n += 8;
    }
    if (csize) {
        put64(p + n, *csize);
        n += 8;
    }
    if (ofs) {
        put64(p + n, *ofs);
        n += 8;
    }
    put16(p, 1);
    put16(p + 2, (unsigned)(n - 4));
    return n;
}

/* upstream's detail::getPadding: the 'Z' bytes after the "FB" header so data starts aligned */
static uint64_t
padding_for(uint64_t cursor, size_t name_len, uint64_t size, int64_t alignment)
{
    uint64_t start = cursor + LOCAL_HEADER_SIZE + name_len + 4;
    if (size >= ZIP_U32_MAX || cursor >= ZIP_U32_MAX) {
        start += 4;
        if (size >= ZIP_U32_MAX)
            start += 16;
        if (cursor >= ZIP_U32_MAX)
            start += 8;
    }
    uint64_t mod = start % (uint64_t)alignment;
    return mod ? (uint64_t)alignment - mod : 0;
}

static int
write_entry(FileWriterObject *w, const char *name, const char *data, uint64_t size, int metadata_only)
{
    if (w->finalized) {
        PyErr_SetString(PyExc_RuntimeError, "PytorchStreamWriter: the archive was already finalized");
        return -1;
    }
    PyObject *key = PyUnicode_FromString(name);
    if (!key)
        return -1;
    int seen = PySet_Contains(w->written, key);
    if (seen) {
        Py_DECREF(key);
        if (seen > 0)
            PyErr_Format(PyExc_RuntimeError, "Tried to serialize file twice: %s", name);
        return -1;
    }
    if (!strcmp(name, SERIALIZATION_ID_RECORD) && !w->serialization_id[0]) {
        /* copying records from another file: the id is this writer's own (as upstream) */
        Py_DECREF(key);
        return 0;
    }
    size_t alen = strlen(w->archive), nlen = strlen(name);
    char *full = PyMem_Malloc(alen + nlen + 1);
    if (!full) {
        Py_DECREF(key);
        PyErr_NoMemory();
        return -1;
    }
    memcpy(full, w->archive, alen);
    memcpy(full + alen, name, nlen + 1);
    size_t flen = alen + nlen;
    if (flen > 0xFFFF) {
        PyMem_Free(full);
        Py_DECREF(key);
        PyErr_Format(PyExc_RuntimeError, "PytorchStreamWriter failed writing file %s: invalid filename", name);
        return -1;
    }
    uint64_t cursor = w->pos;
    int big_size = size >= ZIP_U32_MAX, big_ofs = cursor >= ZIP_U32_MAX;
    uint64_t zero = 0;
    unsigned char z64[28];
    int z64_len = (big_size || big_ofs) ? zip64_extra(z64, big_size ? &size : NULL, big_size ? &zero : NULL,
                                                      big_ofs ? &cursor : NULL)
                                        : 0;
    uint64_t pad = padding_for(cursor, flen, size, w->alignment);
    unsigned flags = FLAG_UTF8 | (size ? FLAG_DESCRIPTOR : 0);
    unsigned char hdr[LOCAL_HEADER_SIZE];
    memset(hdr, 0, sizeof hdr);
    put32(hdr, SIG_LOCAL);
    put16(hdr + 6, flags);
    put16(hdr + 26, (unsigned)flen);
    put16(hdr + 28, (unsigned)(z64_len + pad + 4));
    unsigned char *padding = PyMem_Malloc((size_t)pad + 4);
    if (!padding) {
        PyMem_Free(full);
        Py_DECREF(key);
        PyErr_NoMemory();
        return -1;
    }
    padding[0] = 'F';
    padding[1] = 'B';
    put16(padding + 2, (unsigned)pad);
    memset(padding + 4, 'Z', (size_t)pad);
    uint32_t crc = (w->compute_crc32 && !metadata_only && size) ? crc32_of(data, size) : 0;
    int r = emit(w, hdr, sizeof hdr);
    if (r == 0)
        r = emit(w, full, flen);
    if (r == 0)
        r = emit(w, z64, (uint64_t)z64_len);
    if (r == 0)
        r = emit(w, padding, pad + 4);
    PyMem_Free(padding);
    if (r == 0)
        r = emit(w, metadata_only ? NULL : data, size);
    if (r == 0 && size) {
        unsigned char desc[24];
        put32(desc, SIG_DESCRIPTOR);
        put32(desc + 4, crc);
        int dlen = 16;
        if (z64_len) {
            put64(desc + 8, size);
            put64(desc + 16, size);
            dlen = 24;
        } else {
            put32(desc + 8, (uint32_t)size);
            put32(desc + 12, (uint32_t)size);
        }
        r = emit(w, desc, (uint64_t)dlen);
    }
    if (r == 0 && w->nentries == w->cap) {
        Py_ssize_t cap = w->cap ? 2 * w->cap : 16;
        zip_entry *grown = PyMem_Realloc(w->entries, (size_t)cap * sizeof *grown);
        if (!grown) {
            PyErr_NoMemory();
            r = -1;
        } else {
            w->entries = grown;
            w->cap = cap;
        }
    }
    if (r == 0)
        r = PySet_Add(w->written, key);
    Py_DECREF(key);
    if (r < 0) {
        PyMem_Free(full);
        return -1;
    }
    w->entries[w->nentries++] = (zip_entry){full, cursor, size, crc};
    /* FNV-1a over the record names (see Note [Checkpoint zip layout]) */
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < nlen; i++)
        h = (h ^ (unsigned char)name[i]) * 0x100000001b3ull;
    w->names_hash = hash_combine(w->names_hash, h);
    return 0;
}

static int
finalize(FileWriterObject *w)
{
    PyObject *v1 = PyUnicode_FromString("version"), *v2 = PyUnicode_FromString(".data/version"),
             *bo = PyUnicode_FromString("byteorder");
    int r = (v1 && v2 && bo) ? 0 : -1;
    if (r == 0 && !PySet_Contains(w->written, v1) && !PySet_Contains(w->written, v2)) {
        char text[32];
        int n = snprintf(text, sizeof text, "%llu\n", (unsigned long long)w->version);
        r = write_entry(w, w->version >= 6 ? ".data/version" : "version", text, (uint64_t)n, 0);
    }
    if (r == 0 && !PySet_Contains(w->written, bo))
        r = write_entry(w, "byteorder", "little", 6, 0);
    Py_XDECREF(v1);
    Py_XDECREF(v2);
    Py_XDECREF(bo);
    if (r < 0)
        return -1;
    snprintf(w->serialization_id, sizeof w->serialization_id, "%020llu%020llu", (unsigned long long)w->names_hash,
             (unsigned long long)w->combined_crc);
    if (write_entry(w, SERIALIZATION_ID_RECORD, w->serialization_id, 40, 0) < 0)
        return -1;
    /* central directory */
    uint64_t cd_ofs = w->pos;
    for (Py_ssize_t i = 0; i < w->nentries; i++) {
        zip_entry *e = &w->entries[i];
        int big_size = e->size >= ZIP_U32_MAX, big_ofs = e->header_ofs >= ZIP_U32_MAX;
        unsigned char z64[28];
        int z64_len = (big_size || big_ofs) ? zip64_extra(z64, big_size ? &e->size : NULL,
                                                          big_size ? &e->size : NULL, big_ofs ? &e->header_ofs : NULL)
                                            : 0;
        unsigned char c[CENTRAL_HEADER_SIZE];
        memset(c, 0, sizeof c);
        size_t flen = strlen(e->name);
        put32(c, SIG_CENTRAL);
        put16(c + 8, FLAG_UTF8 | (e->size ? FLAG_DESCRIPTOR : 0));
        put32(c + 16, e->crc);
        put32(c + 20, (uint32_t)(e->size < ZIP_U32_MAX ? e->size : ZIP_U32_MAX));
        put32(c + 24, (uint32_t)(e->size < ZIP_U32_MAX ? e->size : ZIP_U32_MAX));
        put16(c + 28, (unsigned)flen);
        put16(c + 30, (unsigned)z64_len);
        put32(c + 42, (uint32_t)(e->header_ofs < ZIP_U32_MAX ? e->header_ofs : ZIP_U32_MAX));
        if (emit(w, c, sizeof c) < 0 || emit(w, e->name, flen) < 0 || emit(w, z64, (uint64_t)z64_len) < 0)
            return -1;
    }
    uint64_t cd_size = w->pos - cd_ofs, end64_ofs = w->pos, n = (uint64_t)w->nentries;
    unsigned char e64[56], loc[20], end[22];
    memset(e64, 0, sizeof e64);
    put32(e64, SIG_END64);
    put64(e64 + 4, sizeof e64 - 12);
    put16(e64 + 12, 0x031E);
    put16(e64 + 14, 0x002D);
    put64(e64 + 24, n);
    put64(e64 + 32, n);
    put64(e64 + 40, cd_size);
    put64(e64 + 48, cd_ofs);
    memset(loc, 0, sizeof loc);
    put32(loc, SIG_LOCATOR64);
    put64(loc + 8, end64_ofs);
    put32(loc + 16, 1);
    memset(end, 0, sizeof end);
    put32(end, SIG_END);
    put16(end + 8, (unsigned)(n < 0xFFFF ? n : 0xFFFF));
    put16(end + 10, (unsigned)(n < 0xFFFF ? n : 0xFFFF));
    put32(end + 12, (uint32_t)(cd_size < ZIP_U32_MAX ? cd_size : ZIP_U32_MAX));
    put32(end + 16, (uint32_t)(cd_ofs < ZIP_U32_MAX ? cd_ofs : ZIP_U32_MAX));
    if (emit(w, e64, sizeof e64) < 0 || emit(w, loc, sizeof loc) < 0 || emit(w, end, sizeof end) < 0)
        return -1;
    w->finalized = 1;
    if (w->fp) {
        int bad = fclose(w->fp) != 0;
        w->fp = NULL;
        if (bad)
            return writer_fail_io(w, "closing the archive");
    }
    return 0;
}

/* upstream's basename(): the last path component without its extension */
static char *
archive_name_of(const char *path)
{
    const char *start = path;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\')
            start = p + 1;
    size_t len = strlen(start);
    for (size_t i = len; i > 0; i--)
        if (start[i - 1] == '.') {
            len = i - 1;
            break;
        }
    char *s = PyMem_Malloc(len + 2);
    if (!s)
        return NULL;
    memcpy(s, start, len);
    s[len] = '/';
    s[len + 1] = 0;
    return s;
}

static PyObject *
writer_new(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"file_name", "compute_crc32", "storage_alignment", NULL};
    PyObject *target;
    int crc = 1;
    long long alignment = 64;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|pL:PyTorchFileWriter", kwlist, &target, &crc, &alignment))
        return NULL;
    if (alignment <= 0 || alignment > 0xFFFF) {
        PyErr_Format(PyExc_ValueError, "PyTorchFileWriter: storage_alignment must be in [1, 65535], got %lld",
                     alignment);
        return NULL;
    }
    FILE *fp = NULL;
    char *archive;
    if (PyUnicode_Check(target)) {
        const char *path = PyUnicode_AsUTF8AndSize(target, NULL);
        if (!path)
            return NULL;
        archive = archive_name_of(path);
        if (!archive)
            return PyErr_NoMemory();
        if (archive[0] == '/') {
            PyMem_Free(archive);
            PyErr_Format(PyExc_RuntimeError, "invalid file name: %s", path);
            return NULL;
        }
        const char *slash = strrchr(path, '/');
        if (slash && slash != path) {
            char *dir = PyMem_Malloc((size_t)(slash - path) + 1);
            if (!dir) {
                PyMem_Free(archive);
                return PyErr_NoMemory();
            }
            memcpy(dir, path, (size_t)(slash - path));
            dir[slash - path] = 0;
            struct stat st;
            int ok = stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
            if (!ok)
                PyErr_Format(PyExc_RuntimeError, "Parent directory %s does not exist.", dir);
            PyMem_Free(dir);
            if (!ok) {
                PyMem_Free(archive);
                return NULL;
            }
        }
        fp = fopen(path, "wb");
        if (!fp) {
            PyMem_Free(archive);
            PyErr_Format(PyExc_RuntimeError, "File %s cannot be opened.", path);
            return NULL;
        }
        setvbuf(fp, NULL, _IOFBF, 1 << 20);
    } else {
        int has_write = PyObject_HasAttrString(target, "write");
        if (!has_write) {
            PyErr_Format(PyExc_TypeError,
                         "PyTorchFileWriter(): expected a file name or an object with a write method, got %s",
                         tn_tpname(target));
            return NULL;
        }
        archive = PyMem_Malloc(sizeof "archive/");
        if (!archive)
            return PyErr_NoMemory();
        memcpy(archive, "archive/", sizeof "archive/");
    }
    allocfunc alloc = (allocfunc)PyType_GetSlot(tp, Py_tp_alloc);
    FileWriterObject *w = (FileWriterObject *)alloc(tp, 0);
    if (!w) {
        if (fp)
            fclose(fp);
        PyMem_Free(archive);
        return NULL;
    }
    w->fp = fp;
    w->buffer = fp ? NULL : Py_NewRef(target);
    w->archive = archive;
    w->written = PySet_New(NULL);
    w->version = MIN_PRODUCED_VERSION;
    w->alignment = alignment;
    w->compute_crc32 = crc;
    if (!w->written) {
        Py_DECREF(w);
        return NULL;
    }
    return (PyObject *)w;
}

static void
writer_dealloc(PyObject *self)
{
    FileWriterObject *w = (FileWriterObject *)self;
    PyTypeObject *tp = Py_TYPE(self);
    if (!w->finalized && w->written) {
        /* upstream's destructor finishes the archive; an error here has nowhere to go */
        PyObject *et, *ev, *tb;
        PyErr_Fetch(&et, &ev, &tb);
        if (finalize(w) < 0)
            PyErr_WriteUnraisable(self);
        PyErr_Restore(et, ev, tb);
    }
    if (w->fp)
        fclose(w->fp);
    for (Py_ssize_t i = 0; i < w->nentries; i++)
        PyMem_Free(w->entries[i].name);
    PyMem_Free(w->entries);
    PyMem_Free(w->archive);
    Py_XDECREF(w->buffer);
    Py_XDECREF(w->written);
    freefunc free_fn = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    free_fn(self);
    Py_DECREF(tp);
}

#define W(o) ((FileWriterObject *)(o))

/* write_record(name, data: str | bytes | StorageBase | int (an address), size) */
static PyObject *
writer_write_record(PyObject *self, PyObject *args)
{
    const char *name;
    PyObject *data;
    unsigned long long size;
    if (!PyArg_ParseTuple(args, "sOK:write_record", &name, &data, &size))
        return NULL;
    const char *bytes = NULL;
    Py_ssize_t have = -1;
    if (PyUnicode_Check(data)) {
        bytes = PyUnicode_AsUTF8AndSize(data, &have);
    } else if (PyBytes_Check(data)) {
        char *b;
        if (PyBytes_AsStringAndSize(data, &b, &have) < 0)
            return NULL;
        bytes = b;
    } else if (tn_storage_check(data)) {
        tn_storage *s = ((StorageObject *)data)->storage;
        if (s->device != TN_DEVICE_CPU) {
            PyErr_SetString(PyExc_RuntimeError, "write_record: the storage must be on the CPU");
            return NULL;
        }
        bytes = s->data;
        have = (Py_ssize_t)s->nbytes;
    } else if (PyLong_Check(data)) {
        bytes = PyLong_AsVoidPtr(data);
        if (!bytes && PyErr_Occurred())
            return NULL;
        have = (Py_ssize_t)size;
    } else {
        PyErr_Format(PyExc_TypeError, "write_record(): data must be str, bytes, a storage or an address, not %s",
                     tn_tpname(data));
        return NULL;
    }
    if (!bytes && have < 0)
        return NULL;
    if ((unsigned long long)have < size) {
        PyErr_Format(PyExc_ValueError, "write_record(): %s has %zd bytes, fewer than the %llu to write", name, have,
                     size);
        return NULL;
    }
    if (write_entry(W(self), name, bytes, size, 0) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* write_record_metadata(name, size): the record's header and size, its data left as a hole
 * (torch.serialization's skip_data) */
static PyObject *
writer_write_record_metadata(PyObject *self, PyObject *args)
{
    const char *name;
    unsigned long long size;
    if (!PyArg_ParseTuple(args, "sK:write_record_metadata", &name, &size))
        return NULL;
    if (write_entry(W(self), name, NULL, size, 1) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
writer_write_end_of_file(PyObject *self, PyObject *unused)
{
    if (W(self)->finalized) {
        PyErr_SetString(PyExc_RuntimeError, "PytorchStreamWriter: write_end_of_file was already called");
        return NULL;
    }
    if (finalize(W(self)) < 0) {
        W(self)->finalized = 1;
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
writer_set_min_version(PyObject *self, PyObject *arg)
{
    unsigned long long v = PyLong_AsUnsignedLongLong(arg);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    if (v > W(self)->version)
        W(self)->version = v;
    Py_RETURN_NONE;
}

static PyObject *
writer_get_all_written_records(PyObject *self, PyObject *unused)
{
    return PySet_New(W(self)->written);
}

static PyObject *
writer_archive_name(PyObject *self, PyObject *unused)
{
    const char *a = W(self)->archive;
    return PyUnicode_FromStringAndSize(a, (Py_ssize_t)strlen(a) - 1);
}

static PyObject *
writer_serialization_id(PyObject *self, PyObject *unused)
{
    return PyUnicode_FromString(W(self)->serialization_id);
}

static PyMethodDef writer_methods[] = {
    {"write_record", writer_write_record, METH_VARARGS, NULL},
    {"write_record_metadata", writer_write_record_metadata, METH_VARARGS, NULL},
    {"write_end_of_file", writer_write_end_of_file, METH_NOARGS, NULL},
    {"set_min_version", writer_set_min_version, METH_O, NULL},
    {"get_all_written_records", writer_get_all_written_records, METH_NOARGS, NULL},
    {"archive_name", writer_archive_name, METH_NOARGS, NULL},
    {"serialization_id", writer_serialization_id, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot writer_slots[] = {
    {Py_tp_new, writer_new},
    {Py_tp_dealloc, writer_dealloc},
    {Py_tp_methods, writer_methods},
    {0, NULL},
};

/* ======================= reader ======================= */

typedef struct {
    uint64_t header_ofs, csize, usize;
    uint32_t crc;
    unsigned method;
} read_entry;

typedef struct {
    PyObject_HEAD
    FILE *fp;            /* a file name was given */
    PyObject *buffer;    /* a file-like object */
    uint64_t start;      /* the buffer's position when given (upstream's BufferAdapter) */
    uint64_t size;
    PyObject *names;     /* list of full names, central directory order */
    PyObject *index;     /* dict full name -> position in names/entries */
    read_entry *entries;
    char *archive;       /* "<archive>/" */
} FileReaderObject;

#define R(o) ((FileReaderObject *)(o))

static int
read_at(FileReaderObject *r, uint64_t pos, void *buf, uint64_t n)
{
    if (n == 0)
        return 0;
    if (pos + n > r->size || pos + n < pos) {
        PyErr_Format(PyExc_RuntimeError, "PytorchStreamReader failed reading file: %llu bytes at %llu are past the "
                     "end of the archive (%llu bytes)", (unsigned long long)n, (unsigned long long)pos,
                     (unsigned long long)r->size);
        return -1;
    }
    if (r->fp) {
        if (fseeko(r->fp, (off_t)pos, SEEK_SET) != 0 || fread(buf, 1, (size_t)n, r->fp) != n) {
            PyErr_Format(PyExc_RuntimeError, "PytorchStreamReader failed reading file: %s", strerror(errno));
            return -1;
        }
        return 0;
    }
    PyObject *s = PyObject_CallMethod(r->buffer, "seek", "K", (unsigned long long)(r->start + pos));
    if (!s)
        return -1;
    Py_DECREF(s);
    uint64_t done = 0;
    while (done < n) {
        PyObject *mv = PyMemoryView_FromMemory((char *)buf + done, (Py_ssize_t)(n - done), PyBUF_WRITE);
        PyObject *got = mv ? PyObject_CallMethod(r->buffer, "readinto", "O", mv) : NULL;
        Py_XDECREF(mv);
        if (!got)
            return -1;
        Py_ssize_t k = PyLong_AsSsize_t(got);
        Py_DECREF(got);
        if (k < 0 && PyErr_Occurred())
            return -1;
        if (k <= 0) {
            PyErr_SetString(PyExc_RuntimeError, "PytorchStreamReader failed reading file: unexpected end of data");
            return -1;
        }
        done += (uint64_t)k;
    }
    return 0;
}

static int
corrupt(const char *what)
{
    PyErr_Format(PyExc_RuntimeError, "PytorchStreamReader failed reading zip archive: %s", what);
    return -1;
}

/* Read the end records and the central directory into r->entries / r->names / r->index. */
static int
read_central_directory(FileReaderObject *r)
{
    if (r->size < 22)
        return corrupt("failed finding central directory");
    uint64_t tail = r->size < 22 + 0xFFFF ? r->size : 22 + 0xFFFF;
    unsigned char *buf = PyMem_Malloc((size_t)tail);
    if (!buf) {
        PyErr_NoMemory();
        return -1;
    }
    if (read_at(r, r->size - tail, buf, tail) < 0) {
        PyMem_Free(buf);
        return -1;
    }
    int64_t at = -1;
    for (int64_t i = (int64_t)tail - 22; i >= 0; i--)
        if (get32(buf + i) == SIG_END) {
            at = i;
            break;
        }
    if (at < 0) {
        PyMem_Free(buf);
        return corrupt("failed finding central directory");
    }
    uint64_t end_ofs = r->size - tail + (uint64_t)at;
    uint64_t n = get16(buf + at + 10), cd_size = get32(buf + at + 12), cd_ofs = get32(buf + at + 16);
    PyMem_Free(buf);
    if (end_ofs >= 20) {
        unsigned char loc[20];
        if (read_at(r, end_ofs - 20, loc, 20) < 0)
            return -1;
        if (get32(loc) == SIG_LOCATOR64) {
            unsigned char e64[56];
            if (read_at(r, get64(loc + 8), e64, 56) < 0)
                return -1;
            if (get32(e64) != SIG_END64)
                return corrupt("invalid zip64 end of central directory record");
            n = get64(e64 + 32);
            cd_size = get64(e64 + 40);
            cd_ofs = get64(e64 + 48);
        }
    }
    if (cd_ofs + cd_size > r->size || cd_size < n * CENTRAL_HEADER_SIZE)
        return corrupt("invalid central directory");
    unsigned char *cd = PyMem_Malloc(cd_size ? (size_t)cd_size : 1);
    if (!cd) {
        PyErr_NoMemory();
        return -1;
    }
    if (read_at(r, cd_ofs, cd, cd_size) < 0) {
        PyMem_Free(cd);
        return -1;
    }
    r->entries = PyMem_Calloc(n ? (size_t)n : 1, sizeof *r->entries);
    r->names = PyList_New(0);
    r->index = PyDict_New();
    if (!r->entries || !r->names || !r->index) {
        PyMem_Free(cd);
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        return -1;
    }
    uint64_t p = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (p + CENTRAL_HEADER_SIZE > cd_size || get32(cd + p) != SIG_CENTRAL) {
            PyMem_Free(cd);
            return corrupt("invalid central directory entry");
        }
        const unsigned char *c = cd + p;
        unsigned flen = get16(c + 28), xlen = get16(c + 30), clen = get16(c + 32);
        if (p + CENTRAL_HEADER_SIZE + flen + xlen + clen > cd_size) {
            PyMem_Free(cd);
            return corrupt("invalid central directory entry");
        }
        read_entry *e = &r->entries[i];
        e->method = get16(c + 10);
        e->crc = get32(c + 16);
        e->csize = get32(c + 20);
        e->usize = get32(c + 24);
        e->header_ofs = get32(c + 42);
        /* zip64 extra: the values whose 32-bit fields are saturated, in order */
        const unsigned char *x = c + CENTRAL_HEADER_SIZE + flen, *xend = x + xlen;
        while (x + 4 <= xend) {
            unsigned id = get16(x), len = get16(x + 2);
            const unsigned char *v = x + 4, *vend = v + len;
            if (vend > xend)
                break;
            if (id == 1) {
                if (e->usize == ZIP_U32_MAX && v + 8 <= vend) {
                    e->usize = get64(v);
                    v += 8;
                }
                if (e->csize == ZIP_U32_MAX && v + 8 <= vend) {
                    e->csize = get64(v);
                    v += 8;
                }
                if (e->header_ofs == ZIP_U32_MAX && v + 8 <= vend)
                    e->header_ofs = get64(v);
            }
            x = vend;
        }
        PyObject *name = PyUnicode_DecodeUTF8((const char *)c + CENTRAL_HEADER_SIZE, flen, "surrogateescape");
        PyObject *pos = PyLong_FromUnsignedLongLong(i);
        int bad = !name || !pos || PyList_Append(r->names, name) < 0 || PyDict_SetItem(r->index, name, pos) < 0;
        Py_XDECREF(name);
        Py_XDECREF(pos);
        if (bad) {
            PyMem_Free(cd);
            return -1;
        }
        p += CENTRAL_HEADER_SIZE + flen + xlen + clen;
    }
    PyMem_Free(cd);
    return 0;
}

/* The entry of a record name (without the archive prefix); -1 with RuntimeError if absent
 * and must_exist, -1 without error otherwise. */
static Py_ssize_t
find_record(FileReaderObject *r, const char *name, int must_exist)
{
    PyObject *full = PyUnicode_FromFormat("%s%s", r->archive, name);
    if (!full)
        return -1;
    PyObject *pos = PyDict_GetItemWithError(r->index, full);
    Py_DECREF(full);
    if (!pos) {
        if (!PyErr_Occurred() && must_exist)
            PyErr_Format(PyExc_RuntimeError, "PytorchStreamReader failed locating file %s: file not found", name);
        return -1;
    }
    return PyLong_AsSsize_t(pos);
}

/* Where a record's data starts: after its local header, name and extra field. */
static int
data_offset(FileReaderObject *r, const read_entry *e, uint64_t *ofs)
{
    unsigned char h[LOCAL_HEADER_SIZE];
    if (read_at(r, e->header_ofs, h, sizeof h) < 0)
        return -1;
    if (get32(h) != SIG_LOCAL)
        return corrupt("invalid local header");
    *ofs = e->header_ofs + LOCAL_HEADER_SIZE + get16(h + 26) + get16(h + 28);
    return 0;
}

/* Read a record's bytes into dst (e->usize bytes): stored records directly, deflated ones
 * through zlib's inflate. */
static int
extract(FileReaderObject *r, const char *name, const read_entry *e, char *dst)
{
    uint64_t ofs;
    if (data_offset(r, e, &ofs) < 0)
        return -1;
    if (e->method == 0)
        return read_at(r, ofs, dst, e->usize);
    if (e->method != 8) {
        PyErr_Format(PyExc_RuntimeError,
                     "PytorchStreamReader failed reading file %s: compression method %u is not supported "
                     "(stored and deflate are)", name, e->method);
        return -1;
    }
    char *src = PyMem_Malloc(e->csize ? (size_t)e->csize : 1);
    if (!src) {
        PyErr_NoMemory();
        return -1;
    }
    if (read_at(r, ofs, src, e->csize) < 0) {
        PyMem_Free(src);
        return -1;
    }
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    int ok = inflateInit2(&zs, -15) == Z_OK;
    zs.next_in = (Bytef *)src;
    zs.avail_in = (uInt)e->csize;
    zs.next_out = (Bytef *)dst;
    zs.avail_out = (uInt)e->usize;
    ok = ok && inflate(&zs, Z_FINISH) == Z_STREAM_END && zs.total_out == e->usize;
    inflateEnd(&zs);
    PyMem_Free(src);
    if (!ok) {
        PyErr_Format(PyExc_RuntimeError, "PytorchStreamReader failed reading file %s: decompression failed", name);
        return -1;
    }
    return 0;
}

static PyObject *
reader_new(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    PyObject *source;
    if (!PyArg_ParseTuple(args, "O:PyTorchFileReader", &source))
        return NULL;
    allocfunc alloc = (allocfunc)PyType_GetSlot(tp, Py_tp_alloc);
    FileReaderObject *r = (FileReaderObject *)alloc(tp, 0);
    if (!r)
        return NULL;
    if (PyUnicode_Check(source)) {
        const char *path = PyUnicode_AsUTF8AndSize(source, NULL);
        if (!path)
            goto fail;
        r->fp = fopen(path, "rb");
        if (!r->fp) {
            PyErr_Format(PyExc_RuntimeError, "open file failed because of errno %d on fopen: %s, file path: %s",
                         errno, strerror(errno), path);
            goto fail;
        }
        struct stat st;
        if (fstat(fileno(r->fp), &st) != 0) {
            PyErr_SetFromErrno(PyExc_OSError);
            goto fail;
        }
        r->size = (uint64_t)st.st_size;
    } else {
        r->buffer = Py_NewRef(source);
        PyObject *pos = PyObject_CallMethod(source, "tell", NULL);
        PyObject *end = pos ? PyObject_CallMethod(source, "seek", "ii", 0, SEEK_END) : NULL;
        PyObject *back = end ? PyObject_CallMethod(source, "seek", "O", pos) : NULL;
        if (!back) {
            Py_XDECREF(pos);
            Py_XDECREF(end);
            goto fail;
        }
        r->start = PyLong_AsUnsignedLongLong(pos);
        uint64_t e = PyLong_AsUnsignedLongLong(end);
        Py_DECREF(pos);
        Py_DECREF(end);
        Py_DECREF(back);
        if (PyErr_Occurred())
            goto fail;
        r->size = e - r->start;
    }
    if (r->size > 8) {
        char magic[8];
        if (read_at(r, 0, magic, 8) < 0)
            goto fail;
        if (!memcmp(magic, "PYTORCH1", 8)) {
            PyErr_SetString(PyExc_RuntimeError, "File is an unsupported archive format from the preview release.");
            goto fail;
        }
    }
    if (read_central_directory(r) < 0)
        goto fail;
    if (PyList_Size(r->names) == 0) {
        PyErr_SetString(PyExc_RuntimeError, "archive does not contain any files");
        goto fail;
    }
    {
        const char *first = PyUnicode_AsUTF8AndSize(PyList_GetItem(r->names, 0), NULL);
        const char *slash = first ? strchr(first, '/') : NULL;
        if (!slash) {
            if (first)
                PyErr_Format(PyExc_RuntimeError, "file in archive is not in a subdirectory: %s", first);
            goto fail;
        }
        size_t n = (size_t)(slash - first) + 1;
        r->archive = PyMem_Malloc(n + 1);
        if (!r->archive) {
            PyErr_NoMemory();
            goto fail;
        }
        memcpy(r->archive, first, n);
        r->archive[n] = 0;
    }
    {
        Py_ssize_t k = find_record(r, ".data/version", 0);
        if (k < 0 && !PyErr_Occurred())
            k = find_record(r, "version", 1);
        if (k < 0)
            goto fail;
        read_entry *e = &r->entries[k];
        char text[32] = "";
        if (e->usize >= sizeof text) {
            PyErr_SetString(PyExc_RuntimeError, "Couldn't parse the version record of the archive");
            goto fail;
        }
        if (extract(r, "version", e, text) < 0)
            goto fail;
        char *endp;
        unsigned long long v = strtoull(text, &endp, 10);
        if (endp == text) {
            PyErr_Format(PyExc_RuntimeError, "Couldn't parse the version %s as Long Long.", text);
            goto fail;
        }
        if (v < MIN_SUPPORTED_VERSION) {
            PyErr_Format(PyExc_RuntimeError,
                         "Attempted to read a PyTorch file with version %llu, but the minimum supported version for "
                         "reading is %d. Your PyTorch script module file is too old. Please regenerate it with latest "
                         "version of PyTorch to mitigate this issue.", v, MIN_SUPPORTED_VERSION);
            goto fail;
        }
        if (v > MAX_SUPPORTED_VERSION) {
            PyErr_Format(PyExc_RuntimeError,
                         "Attempted to read a PyTorch file with version %llu, but the maximum supported version for "
                         "reading is %d. The version of your PyTorch installation may be too old, please upgrade "
                         "PyTorch to latest version to mitigate this issue.", v, MAX_SUPPORTED_VERSION);
            goto fail;
        }
    }
    return (PyObject *)r;
fail:
    Py_DECREF(r);
    return NULL;
}

static void
reader_dealloc(PyObject *self)
{
    FileReaderObject *r = R(self);
    PyTypeObject *tp = Py_TYPE(self);
    if (r->fp)
        fclose(r->fp);
    Py_XDECREF(r->buffer);
    Py_XDECREF(r->names);
    Py_XDECREF(r->index);
    PyMem_Free(r->entries);
    PyMem_Free(r->archive);
    freefunc free_fn = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    free_fn(self);
    Py_DECREF(tp);
}

static PyObject *
reader_get_record(PyObject *self, PyObject *arg)
{
    const char *name = PyUnicode_Check(arg) ? PyUnicode_AsUTF8AndSize(arg, NULL) : NULL;
    if (!name) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "get_record(): expected a str");
        return NULL;
    }
    Py_ssize_t k = find_record(R(self), name, 1);
    if (k < 0)
        return NULL;
    read_entry *e = &R(self)->entries[k];
    PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)e->usize);
    if (!b)
        return NULL;
    if (extract(R(self), name, e, PyBytes_AsString(b)) < 0) {
        Py_DECREF(b);
        return NULL;
    }
    return b;
}

static PyObject *
reader_has_record(PyObject *self, PyObject *arg)
{
    const char *name = PyUnicode_Check(arg) ? PyUnicode_AsUTF8AndSize(arg, NULL) : NULL;
    if (!name) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "has_record(): expected a str");
        return NULL;
    }
    Py_ssize_t k = find_record(R(self), name, 0);
    if (k < 0 && PyErr_Occurred())
        return NULL;
    return PyBool_FromLong(k >= 0);
}

static PyObject *
reader_get_all_records(PyObject *self, PyObject *unused)
{
    FileReaderObject *r = R(self);
    size_t alen = strlen(r->archive);
    PyObject *out = PyList_New(0);
    for (Py_ssize_t i = 0; out && i < PyList_Size(r->names); i++) {
        const char *full = PyUnicode_AsUTF8AndSize(PyList_GetItem(r->names, i), NULL);
        if (!full || strncmp(full, r->archive, alen)) {
            if (full)
                PyErr_Format(PyExc_RuntimeError, "file in archive is not in a subdirectory %s: %s", r->archive, full);
            Py_CLEAR(out);
            break;
        }
        PyObject *s = PyUnicode_FromString(full + alen);
        if (!s || PyList_Append(out, s) < 0)
            Py_CLEAR(out);
        Py_XDECREF(s);
    }
    return out;
}

static Py_ssize_t
record_arg(PyObject *self, PyObject *arg, const char **name)
{
    *name = PyUnicode_Check(arg) ? PyUnicode_AsUTF8AndSize(arg, NULL) : NULL;
    if (!*name) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "expected a record name (str)");
        return -1;
    }
    return find_record(R(self), *name, 1);
}

static PyObject *
reader_get_record_size(PyObject *self, PyObject *arg)
{
    const char *name;
    Py_ssize_t k = record_arg(self, arg, &name);
    return k < 0 ? NULL : PyLong_FromUnsignedLongLong(R(self)->entries[k].usize);
}

static PyObject *
reader_get_record_offset(PyObject *self, PyObject *arg)
{
    const char *name;
    Py_ssize_t k = record_arg(self, arg, &name);
    uint64_t ofs;
    if (k < 0 || data_offset(R(self), &R(self)->entries[k], &ofs) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(ofs);
}

static PyObject *
reader_get_record_header_offset(PyObject *self, PyObject *arg)
{
    const char *name;
    Py_ssize_t k = record_arg(self, arg, &name);
    return k < 0 ? NULL : PyLong_FromUnsignedLongLong(R(self)->entries[k].header_ofs);
}

/* get_record_offset_no_read(header_offset, name, size, alignment): where the data of a record
 * written by our writer starts, computed as upstream computes it (without reading). */
static PyObject *
reader_get_record_offset_no_read(PyObject *self, PyObject *args)
{
    unsigned long long cursor, size;
    const char *name;
    long long alignment;
    if (!PyArg_ParseTuple(args, "KsKL:get_record_offset_no_read", &cursor, &name, &size, &alignment))
        return NULL;
    if (alignment <= 0) {
        PyErr_SetString(PyExc_ValueError, "get_record_offset_no_read(): alignment must be positive");
        return NULL;
    }
    size_t flen = strlen(R(self)->archive) + strlen(name);
    uint64_t pad = padding_for(cursor, flen, size, alignment);
    return PyLong_FromUnsignedLongLong(cursor + LOCAL_HEADER_SIZE + flen + pad + 4);
}

/* get_storage_from_record(name, numel, dtype or storage class) -> an empty tensor of that dtype
 * whose storage holds the record (torch.load takes the storage). */
static PyObject *
reader_get_storage_from_record(PyObject *self, PyObject *args)
{
    const char *name;
    unsigned long long numel;
    PyObject *dt;
    if (!PyArg_ParseTuple(args, "sKO:get_storage_from_record", &name, &numel, &dt))
        return NULL;
    int dtype = tn_dtype_check(dt) ? tn_dtype_from_py(dt) : TN_DTYPE_U8;
    if (dtype < 0)
        return NULL;
    Py_ssize_t k = find_record(R(self), name, 1);
    if (k < 0)
        return NULL;
    read_entry *e = &R(self)->entries[k];
    int es = tn_dtype_size(dtype);
    if (e->usize != numel * (uint64_t)es) {
        PyErr_Format(PyExc_RuntimeError,
                     "record size (%llu bytes) does not match expected size (%llu bytes = %llu elements * %d "
                     "bytes/element) for dtype %s", (unsigned long long)e->usize,
                     (unsigned long long)(numel * (uint64_t)es), numel, es, tn_dtype_legacy_name(dtype));
        return NULL;
    }
    tn_storage *s = tn_storage_new((int64_t)e->usize, TN_DEVICE_CPU);
    if (!s)
        return NULL;
    if (extract(R(self), name, e, s->data) < 0) {
        tn_storage_release(s);
        return NULL;
    }
    int64_t zero = 0;
    TensorObject *t = tn_tensor_from_storage(s, 0, 1, &zero, NULL, dtype);
    tn_storage_release(s);
    return (PyObject *)t;
}

static PyObject *
reader_serialization_id(PyObject *self, PyObject *unused)
{
    Py_ssize_t k = find_record(R(self), SERIALIZATION_ID_RECORD, 0);
    if (k < 0) {
        if (PyErr_Occurred())
            return NULL;
        return PyUnicode_FromString("");
    }
    PyObject *name = PyUnicode_FromString(SERIALIZATION_ID_RECORD);
    PyObject *b = name ? reader_get_record(self, name) : NULL;
    Py_XDECREF(name);
    if (!b)
        return NULL;
    PyObject *s = PyUnicode_FromStringAndSize(PyBytes_AsString(b), PyBytes_Size(b));
    Py_DECREF(b);
    return s;
}

static PyMethodDef reader_methods[] = {
    {"get_record", reader_get_record, METH_O, NULL},
    {"has_record", reader_has_record, METH_O, NULL},
    {"get_all_records", reader_get_all_records, METH_NOARGS, NULL},
    {"get_record_size", reader_get_record_size, METH_O, NULL},
    {"get_record_offset", reader_get_record_offset, METH_O, NULL},
    {"get_record_header_offset", reader_get_record_header_offset, METH_O, NULL},
    {"get_record_offset_no_read", reader_get_record_offset_no_read, METH_VARARGS, NULL},
    {"get_storage_from_record", reader_get_storage_from_record, METH_VARARGS, NULL},
    {"serialization_id", reader_serialization_id, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot reader_slots[] = {
    {Py_tp_new, reader_new},
    {Py_tp_dealloc, reader_dealloc},
    {Py_tp_methods, reader_methods},
    {0, NULL},
};

int
tn_serialization_init(PyObject *module)
{
    PyType_Spec wspec = {"torch._C.PyTorchFileWriter", sizeof(FileWriterObject), 0, Py_TPFLAGS_DEFAULT, writer_slots};
    PyType_Spec rspec = {"torch._C.PyTorchFileReader", sizeof(FileReaderObject), 0, Py_TPFLAGS_DEFAULT, reader_slots};
    writer_type = (PyTypeObject *)PyType_FromSpec(&wspec);
    reader_type = (PyTypeObject *)PyType_FromSpec(&rspec);
    if (!writer_type || !reader_type)
        return -1;
    if (PyModule_AddObjectRef(module, "PyTorchFileWriter", (PyObject *)writer_type) < 0 ||
        PyModule_AddObjectRef(module, "PyTorchFileReader", (PyObject *)reader_type) < 0)
        return -1;
    return 0;
}
