/* torch._C.Generator: a Python object holding one tn_generator (kernels/random.h), and the
 * process's default generator (torch.default_generator) that random ops use when given None.
 */
#ifndef TN_RUNTIME_GENERATOR_H
#define TN_RUNTIME_GENERATOR_H

#include "pyapi.h"
#include "kernels/random.h"

typedef struct {
    PyObject_HEAD
    tn_generator gen;
    int device;     /* TN_DEVICE_CPU */
} GeneratorObject;

extern PyTypeObject *tn_Generator_Type;
extern PyObject *tn_default_generator;

static inline int
tn_generator_check(PyObject *o)
{
    return tn_Generator_Type && PyObject_TypeCheck(o, tn_Generator_Type);
}

/* The generator an op draws from: `gen` if given (not NULL/None), else the default one. */
tn_generator *tn_generator_of(PyObject *gen);
/* a new generator of type tp (torch.Generator or a subclass), seeded with the default seed */
PyObject *tn_generator_alloc(PyTypeObject *tp);
/* torch.Generator, whose constructor (runtime/type_new.c) parses with the parser, a floor above */
int tn_generator_type_init(PyObject *module, newfunc tp_new);

#endif /* TN_RUNTIME_GENERATOR_H */
