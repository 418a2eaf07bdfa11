/* The profiler ops record_function brackets code with; see Note [record_function handles]. */
#ifndef TN_RUNTIME_PROFILER_H
#define TN_RUNTIME_PROFILER_H

#include "pyapi.h"

/* Attach the kernels of profiler::_record_function_enter_new and
 * profiler::_record_function_exit._RecordFunction (after tn_dispatch_init registered them). */
int tn_profiler_init(PyObject *module);

#endif /* TN_RUNTIME_PROFILER_H */
