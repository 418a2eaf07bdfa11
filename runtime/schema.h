/* tn_schema: a parsed signature (upstream's Python signature strings) or ATen schema, one
 * tn_param per argument, built in runtime/schema.c (an ATen schema from the AST of the c10
 * schema parser, runtime/schema_parser.c); the argument parser (argparse.c) matches calls
 * against these, the door (dispatch.c) reads them for boxed calls.
 */
#ifndef TN_RUNTIME_SCHEMA_H
#define TN_RUNTIME_SCHEMA_H

#include "pyapi.h"
#include "value.h"
#include "op.h"

#define TN_MAX_PARAMS 64

typedef enum {
    TN_P_TENSOR, TN_P_SCALAR, TN_P_INT, TN_P_SYMINT, TN_P_DOUBLE, TN_P_COMPLEX, TN_P_BOOL,
    TN_P_TENSORLIST, TN_P_OPT_TENSORLIST, TN_P_INTLIST, TN_P_SYMINTLIST, TN_P_DOUBLELIST,
    TN_P_BOOLLIST, TN_P_SCALARLIST, TN_P_GENERATOR, TN_P_STORAGE, TN_P_PYOBJECT,
    TN_P_DTYPE, TN_P_LAYOUT, TN_P_MEMFMT, TN_P_QSCHEME, TN_P_DEVICE, TN_P_STREAM,
    TN_P_STRING, TN_P_STRINGLIST, TN_P_DIMNAME, TN_P_DIMNAMELIST, TN_P_ANY,
    TN_P_ANYLIST,  /* t[]: any list or tuple, passed through */
} tn_ptype;

/* Where a Python-signature parameter goes in the op's schema arguments. */
enum {
    TN_TARGET_DROP = -1,          /* python-only, ignored (pin_memory without a schema slot) */
    TN_TARGET_REQUIRES_GRAD = -2, /* applied to the result */
    TN_TARGET_OUT = -3,           /* the out= tensor(s) */
    TN_TARGET_CHECK_OUT = -4,     /* dtype/layout/device given with out=: must match out */
};

typedef struct {
    PyObject *name;          /* interned */
    PyObject *aliases[3];    /* NumPy spellings (dim -> axis, ...), interned */
    int8_t type;
    int8_t allow_none;
    int8_t optional;         /* has a default */
    int8_t kwonly;
    int8_t numbers_as_tensors;
    int8_t from_schema;       /* a boxed call's parameter: a ScalarType also takes its int code */
    int8_t is_out;           /* schema: an out argument (Tensor(a!) after *) */
    int8_t dflt_int_literal; /* a float default written as an int (float? x=1): c10 keeps an int
                              * IValue, which no float argument equals (Note [Meta kernels]) */
    int16_t size;            /* [N] */
    int16_t target;          /* schema argument index, or TN_TARGET_* */
    tn_value dflt;           /* the default, when optional and not None */
    const char *cname;       /* name for messages */
} tn_param;

typedef struct tn_schema {
    const char *name;        /* function name for messages */
    int nparams;
    int max_pos;
    int min_args;
    int deprecated;
    int hidden;
    int nreturns;
    int returns_list;  /* one return of list type (Tensor[]): torch.ops gives a list */
    int returns_scalartype;  /* one ScalarType return: torch.ops gives its int code (an IValue) */
    tn_param *params;
} tn_schema;

/* Parse an ATen schema string ("aten::add.Tensor(Tensor self, ...) -> Tensor"); NULL with
 * upstream's parse error set when it does not parse. */
tn_schema *tn_schema_parse(const char *text);
tn_schema *tn_op_schema(tn_op *op);

/* The index of the parameter named cname, or -1. */
int tn_schema_param(const tn_schema *s, const char *cname);

/* A Python signature ("add(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)");
 * NULL when the text does not parse. */
tn_schema *tn_signature_parse(const char *text);
/* Split at ", " outside brackets into at most max pieces; -1 when there are more. */
int tn_split_params(const char *s, size_t n, const char **starts, size_t *lens, int max);
/* "Tensor", "int", "tuple of ints" ...: a parameter type as upstream's messages spell it. */
const char *tn_param_type_name(int type);

#endif /* TN_RUNTIME_SCHEMA_H */
