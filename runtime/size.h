/* torch.Size objects, and sizes as text for messages. */
#ifndef TN_RUNTIME_SIZE_H
#define TN_RUNTIME_SIZE_H

#include "pyapi.h"

/* A new torch.Size of the given ints. */
PyObject *tn_size_new(int ndim, const int64_t *sizes);
int tn_size_type_init(PyObject *module);

/* "[2, 3]" */
void tn_format_sizes(char *buf, size_t n, int ndim, const int64_t *sizes);
/* "2 x 3" (sep " x "), "2, 3" (sep ", ") */
void tn_format_ints(char *buf, size_t n, int count, const int64_t *v, const char *sep);

#endif /* TN_RUNTIME_SIZE_H */
