/* The backward engine (torch._C._ImperativeEngine): runs a graph from its roots in upstream's
 * order, accumulates into .grad (AccumulateGrad) and owns the kinds only the engine makes
 * (AccumulateGrad, GraphRoot). See Note [Engine order] in autograd_engine.c.
 */
#ifndef TN_RUNTIME_AUTOGRAD_ENGINE_H
#define TN_RUNTIME_AUTOGRAD_ENGINE_H

#include "autograd_node.h"

extern tn_node_kind tn_kind_AccumulateGrad;
extern tn_node_kind tn_kind_GraphRoot;

/* The AccumulateGrad node of a leaf that requires grad, made on first use (new reference). */
PyObject *tn_grad_accumulator(TensorObject *t);
/* The leaf an AccumulateGrad node accumulates into (borrowed), NULL for other kinds. */
PyObject *tn_accumulate_variable(tn_node *n);
/* A GraphRoot over several roots; it takes ownership of `seeds` (an array of n new refs). */
tn_node *tn_graph_root_new(Py_ssize_t n, const tn_edge *roots, PyObject **seeds);
/* .grad += new_grad as upstream's AccumulateGrad does it (steal, clone to the layout, add). */
int tn_accumulate_grad(PyObject *variable, PyObject *new_grad, int grad_mode);
/* In the running backward, will node fn execute (exec_info, for task_should_compute_output)? */
int tn_engine_node_needed(tn_node *fn);
int tn_engine_keep_graph(void);
/* at::sum_to: sum the leading dims and the dims `shape` has as 1, then view to shape. */
PyObject *tn_ag_sum_to(PyObject *t, int ndim, const int64_t *shape);

typedef struct {
    int keep_graph;
    int create_graph;
    int accumulate_grad;
    int allow_unreachable;
} tn_backward_opts;

/* roots: edges with their seeds (new references or NULL); outputs: edges to capture
 * (grad() mode) or to restrict execution to (backward(inputs=...)). Returns a list of the
 * captured gradients (accumulate_grad=0) or Py_None. */
PyObject *tn_engine_execute(Py_ssize_t nroots, const tn_edge *roots, PyObject **seeds,
                            Py_ssize_t nout, const tn_edge *outputs, const tn_backward_opts *o);


int tn_autograd_engine_init(PyObject *module, PyObject *functions);

#endif /* TN_RUNTIME_AUTOGRAD_ENGINE_H */
