/* Python objects for dtype, layout, memory_format and qscheme, type promotion, finfo/iinfo.
 * One immortal object per value, created at init and injected into `torch` by _initExtension.
 * Promotion follows c10::promoteTypes and at::native::result_type (see Note [Promotion]).
 */
#ifndef TN_RUNTIME_DTYPE_H
#define TN_RUNTIME_DTYPE_H

#include "pyapi.h"
#include "kernels/element.h"

typedef enum {
    TN_LAYOUT_STRIDED = 0,
    TN_LAYOUT_SPARSE = 1,
    TN_LAYOUT_SPARSE_CSR = 2,
    TN_LAYOUT_MKLDNN = 3,
    TN_LAYOUT_SPARSE_CSC = 4,
    TN_LAYOUT_SPARSE_BSR = 5,
    TN_LAYOUT_SPARSE_BSC = 6,
    TN_LAYOUT_JAGGED = 7,
    TN_NUM_LAYOUTS = 8,
} tn_layout;

typedef enum {
    TN_MEMFMT_CONTIGUOUS = 0,
    TN_MEMFMT_PRESERVE = 1,
    TN_MEMFMT_CHANNELS_LAST = 2,
    TN_MEMFMT_CHANNELS_LAST_3D = 3,
    TN_NUM_MEMFMTS = 4,
} tn_memory_format;

typedef struct {
    PyObject_HEAD
    int scalar_type;
    const char *name;     /* "float32" */
} DtypeObject;

typedef struct {
    PyObject_HEAD
    int value;
    const char *name;
} EnumValueObject;  /* layout, memory_format, qscheme */

extern PyTypeObject *tn_dtype_Type, *tn_layout_Type, *tn_memfmt_Type, *tn_qscheme_Type;
extern PyObject *tn_dtype_objs[TN_NUM_DTYPES];
extern PyObject *tn_layout_objs[TN_NUM_LAYOUTS];
extern PyObject *tn_memfmt_objs[TN_NUM_MEMFMTS];
#define TN_NUM_QSCHEMES 5
extern PyObject *tn_qscheme_objs[TN_NUM_QSCHEMES];

/* The default dtype for floats (torch.get_default_dtype()), float32 unless set. */
extern int tn_default_dtype;

static inline PyObject *
tn_dtype_obj(int d)
{
    return tn_dtype_objs[d];
}

static inline int
tn_dtype_check(PyObject *o)
{
    return Py_TYPE(o) == tn_dtype_Type;
}

const char *tn_dtype_name(int d);          /* "float32" */
const char *tn_dtype_legacy_name(int d);   /* "Float" (for x.type(), errors) */
const char *tn_dtype_cpp_name(int d);
const char *tn_layout_legacy_name(int layout);  /* "Strided", "Sparse" (c10's Layout names, in errors) */      /* "float", "long int": c10's TypeMeta names, in errors */
/* Accepts torch.dtype, or the Python types float/int/bool/complex as upstream does. -1 on error. */
int tn_dtype_from_py(PyObject *o);

/* c10::promoteTypes: -1 (with an exception) for combinations upstream refuses. */
int tn_promote_types(int a, int b);
int tn_can_cast(int from, int to);

/* The dtype of a Python number as a tensor would get it. */
int tn_dtype_of_pynumber(PyObject *o);

/* torch.finfo(d) / torch.iinfo(d) objects of type (iinfo refuses a non-integer d with upstream's
 * TypeError); NULL with the error set */
PyObject *tn_finfo_of(PyTypeObject *type, int d);
PyObject *tn_iinfo_of(PyTypeObject *type, int d);
/* the dtype-like types; finfo's and iinfo's constructors (runtime/type_new.c) parse with the
 * parser, a floor above */
int tn_dtype_types_init(PyObject *module, newfunc finfo_new, newfunc iinfo_new);
/* _initExtension: the dtype objects and their aliases into the torch module. */
int tn_dtype_inject(PyObject *torch);

#endif /* TN_RUNTIME_DTYPE_H */
