/* The c10 schema grammar (function_schema_parser.cpp, schema_type_parser.cpp): schema text ->
 * an AST of nested tuples (Note [Schema AST] in schema_parser.c). The one parser of that grammar:
 * runtime/schema.c builds the argument parser's tn_param from the AST, runtime/py/schema.py
 * builds FunctionSchema, Argument and the JIT types from it.
 */
#ifndef TN_RUNTIME_SCHEMA_PARSER_H
#define TN_RUNTIME_SCHEMA_PARSER_H

#include "pyapi.h"

/* The kinds of the AST's types: c10 TypeKind names, which the AST holds as interned strings. */
typedef enum {
    TN_K_ANY, TN_K_ANYENUM, TN_K_ANYCLASS, TN_K_TENSOR, TN_K_STORAGE, TN_K_TUPLE, TN_K_LIST,
    TN_K_DICT, TN_K_NUMBER, TN_K_FLOAT, TN_K_COMPLEX, TN_K_FUTURE, TN_K_AWAIT, TN_K_RREF,
    TN_K_INT, TN_K_NONE, TN_K_STRING, TN_K_GENERATOR, TN_K_QUANTIZER, TN_K_BOOL, TN_K_OPTIONAL,
    TN_K_VAR, TN_K_DEVICE, TN_K_STREAM, TN_K_CLASS, TN_K_PYOBJECT, TN_K_CAPSULE, TN_K_QSCHEME,
    TN_K_SCALARTYPE, TN_K_LAYOUT, TN_K_MEMFMT, TN_K_SYMINT, TN_K_SYMBOOL, TN_K_UNION,
    TN_K_COUNT
} tn_type_kind;

/* Default kinds of an argument's AST (its 7th item). */
enum { TN_DEFAULT_NONE_GIVEN = 0, TN_DEFAULT_VALUE = 1, TN_DEFAULT_LIST = 2, TN_DEFAULT_DEVICE = 3 };

/* Parse schema text (or a bare operator name) into its AST; NULL with upstream's exception set
 * when it does not parse. allow_typevars: a lower-case unknown type name is a type variable. */
PyObject *tn_schema_ast(PyObject *text, int allow_typevars);
/* The kind of an AST type (a tuple whose item 0 is the kind's name). */
tn_type_kind tn_ast_kind(PyObject *type);

/* torch._C._torchnative._parse_schema and _schema_registries (runtime/module.c adds them). */
extern PyMethodDef tn_schema_parser_functions[];

#endif /* TN_RUNTIME_SCHEMA_PARSER_H */
