/* native_dropout and native_dropout_backward, composed through the door as ATen's Dropout.cpp
 * writes them (mask = bernoulli_(1 - p) on a bool tensor, input * mask * scale; the gradient
 * grad * mask * scale). On CPU torch.dropout does not call native_dropout (it takes the
 * unfused path, runtime/ops_random.c); native_dropout's backward formula does.
 * Adding one: its overload in schemas/kernels.yaml, a function here, golden cases.
 */
#include "runtime/dispatch.h"
#include "runtime/scalar.h"
#include "runtime/size.h"
#include "runtime/tensor_iter.h"
#include "runtime/argparse.h"
#include "runtime/dtype.h"
#include "generated/op_kernels.h"

static tn_value
tv(PyObject *t)
{
    return tn_value_tensor(t);
}

/* native_dropout(input, p, train) -> (output, mask). An empty input comes back as itself with
 * an uninitialised mask of its dtype, as upstream's. */
PyObject *
tn_op_native_dropout(const tn_op *overload, TensorObject *input, double p, int train)
{
    tn_value none = {.tag = TN_V_NONE};
    if (input->numel == 0) {  /* empty_like(input): an empty tensor keeps its strides */
        tn_value e[6] = {tv((PyObject *)input), none, none, none, none, none};
        PyObject *mask = tn_call(TN_OP_empty_like, e);
        return mask ? Py_BuildValue("(ON)", (PyObject *)input, mask) : NULL;
    }
    tn_value like[6] = {tv((PyObject *)input), {.tag = TN_V_DTYPE}, none, none, none, none};
    like[1].u.i = TN_DTYPE_BOOL;
    if (train == 0) {
        PyObject *mask = tn_call(TN_OP_ones_like, like);
        PyObject *out = mask ? tn_op_clone(overload, input, -1) : NULL;
        if (!out) {
            Py_XDECREF(mask);
            return NULL;
        }
        return Py_BuildValue("(NN)", out, mask);
    }
    double p1m = 1.0 - p, scale = p1m == 0 ? 0.0 : 1.0 / p1m;
    PyObject *mask = tn_call(TN_OP_empty_like, like), *done = NULL, *masked = NULL, *out = NULL;
    if (mask) {
        tn_value b[3] = {tv(mask), tn_value_double(p1m), none};
        done = tn_call(TN_OP_bernoulli___float, b);
    }
    if (done) {
        tn_value m[2] = {tv((PyObject *)input), tv(mask)};
        masked = tn_call(TN_OP_mul__Tensor, m);
    }
    if (masked) {
        tn_value s[2] = {tv(masked), tn_value_double(scale)};
        out = tn_call(TN_OP_mul___Scalar, s);
    }
    Py_XDECREF(done);
    Py_XDECREF(masked);
    if (!out) {
        Py_XDECREF(mask);
        return NULL;
    }
    return Py_BuildValue("(NN)", out, mask);
}

PyObject *
tn_op_native_dropout_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *mask, double scale)
{
    tn_value m[2] = {tv((PyObject *)grad_output), tv((PyObject *)mask)};
    PyObject *masked = tn_call(TN_OP_mul__Tensor, m);
    if (!masked)
        return NULL;
    tn_value s[2] = {tv(masked), tn_value_double(scale)};
    PyObject *r = tn_call(TN_OP_mul__Scalar, s);
    Py_DECREF(masked);
    return r;
}
