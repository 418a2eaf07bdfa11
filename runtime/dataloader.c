/* The DataLoader's process bookkeeping in torch._C: _set_worker_pids / _remove_worker_pids
 * (which children a loader iterator owns), _error_if_any_worker_fails (torch's SIGCHLD handler
 * asks whether one of them died) and _set_worker_signal_handlers (a worker reports a fatal
 * signal on stderr before dying of it). torch/utils/data/_utils/signal_handling.py calls them.
 *
 * Note [DataLoader worker deaths]
 * The parent looks at its workers without reaping them (waitid with WNOWAIT), so
 * multiprocessing can still collect their exit status. A worker that exited with a non-zero
 * code or was killed by a signal turns into RuntimeError in the parent, with upstream's
 * wording; the loader's pid set is emptied first so the error is raised once, not again for
 * every sibling the error then kills.
 */
#include "dataloader.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
    int64_t key;      /* id() of the _BaseDataLoaderIter */
    Py_ssize_t npids;
    pid_t *pids;
} worker_set;

static worker_set *sets;
static Py_ssize_t nsets, cap_sets;

static worker_set *
find_set(int64_t key)
{
    for (Py_ssize_t i = 0; i < nsets; i++)
        if (sets[i].key == key)
            return &sets[i];
    return NULL;
}

/* _set_worker_pids(loader_id, child_pids: tuple) */
static PyObject *
set_worker_pids(PyObject *self, PyObject *args)
{
    if (PyTuple_Size(args) != 2) {
        PyErr_SetString(PyExc_TypeError, "_set_worker_pids expects exactly 2 arguments.");
        return NULL;
    }
    int64_t key = PyLong_AsLongLong(PyTuple_GetItem(args, 0));
    if (key == -1 && PyErr_Occurred())
        return NULL;
    if (find_set(key)) {
        PyErr_SetString(PyExc_ValueError,
                        "_set_worker_pids should be called only once for each _BaseDataLoaderIter.");
        return NULL;
    }
    PyObject *pids = PyTuple_GetItem(args, 1);
    if (!PyTuple_Check(pids)) {
        PyErr_Format(PyExc_TypeError, "_set_worker_pids expects a tuple for child_pids, but got %s.",
                     tn_tpname(pids));
        return NULL;
    }
    Py_ssize_t n = PyTuple_Size(pids);
    pid_t *list = PyMem_Calloc(n ? (size_t)n : 1, sizeof *list);
    if (!list)
        return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n; i++) {
        long p = PyLong_AsLong(PyTuple_GetItem(pids, i));
        if (p == -1 && PyErr_Occurred()) {
            PyMem_Free(list);
            return NULL;
        }
        list[i] = (pid_t)p;
    }
    if (nsets == cap_sets) {
        Py_ssize_t cap = cap_sets ? 2 * cap_sets : 4;
        worker_set *grown = PyMem_Realloc(sets, (size_t)cap * sizeof *grown);
        if (!grown) {
            PyMem_Free(list);
            return PyErr_NoMemory();
        }
        sets = grown;
        cap_sets = cap;
    }
    sets[nsets++] = (worker_set){key, n, list};
    Py_RETURN_NONE;
}

/* _remove_worker_pids(loader_id) */
static PyObject *
remove_worker_pids(PyObject *self, PyObject *arg)
{
    int64_t key = PyLong_AsLongLong(arg);
    if (key == -1 && PyErr_Occurred())
        return NULL;
    worker_set *w = find_set(key);
    if (!w) {
        PyErr_Format(PyExc_ValueError, "Cannot find worker information for _BaseDataLoaderIter with id %lld",
                     (long long)key);
        return NULL;
    }
    PyMem_Free(w->pids);
    *w = sets[--nsets];
    Py_RETURN_NONE;
}

/* _error_if_any_worker_fails(): see Note [DataLoader worker deaths]. */
static PyObject *
error_if_any_worker_fails(PyObject *self, PyObject *unused)
{
    for (Py_ssize_t s = 0; s < nsets; s++) {
        worker_set *w = &sets[s];
        for (Py_ssize_t i = 0; i < w->npids; i++) {
            siginfo_t info;
            memset(&info, 0, sizeof info);
            if (waitid(P_PID, (id_t)w->pids[i], &info, WEXITED | WNOHANG | WNOWAIT) < 0 || info.si_pid == 0)
                continue;
            pid_t pid = w->pids[i];
            if (info.si_code == CLD_EXITED && info.si_status != EXIT_SUCCESS) {
                w->npids = 0;
                PyErr_Format(PyExc_RuntimeError,
                             "DataLoader worker (pid %d) exited unexpectedly with exit code %d. Details are lost due "
                             "to multiprocessing. Rerunning with num_workers=0 may give better error trace.",
                             (int)pid, info.si_status);
                return NULL;
            }
            if (info.si_code == CLD_KILLED || info.si_code == CLD_DUMPED) {
                w->npids = 0;
                PyErr_Format(PyExc_RuntimeError, "DataLoader worker (pid %d) is killed by signal: %s. %s", (int)pid,
                             strsignal(info.si_status),
                             info.si_status == SIGBUS ? "It is possible that dataloader's workers are out of shared "
                                                        "memory. Please try to raise your shared memory limit."
                                                      : "");
                return NULL;
            }
        }
    }
    Py_RETURN_NONE;
}

/* ---- in the worker: report a fatal signal, then die of it (the parent sees the signal) ---- */

static void
die_of(int sig)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    if (sigemptyset(&sa.sa_mask) != 0 || sigaction(sig, &sa, NULL) != 0)
        _exit(EXIT_FAILURE);
    raise(sig);
}

static void
report_and_die(int sig, const char *msg, size_t len)
{
    ssize_t w = write(STDERR_FILENO, msg, len);
    (void)w;
    die_of(sig);
}

#define TN_WORKER_MSG(s) s, sizeof(s) - 1

static void
on_sigbus(int sig, siginfo_t *info, void *ctx)
{
    report_and_die(sig, TN_WORKER_MSG("ERROR: Unexpected bus error encountered in worker. This might be caused "
                                      "by insufficient shared memory (shm).\n"));
}

static void
on_sigsegv(int sig, siginfo_t *info, void *ctx)
{
    report_and_die(sig, TN_WORKER_MSG("ERROR: Unexpected segmentation fault encountered in worker.\n"));
}

static void
on_sigfpe(int sig, siginfo_t *info, void *ctx)
{
    report_and_die(sig, TN_WORKER_MSG("ERROR: Unexpected floating-point exception encountered in worker.\n"));
}

/* SIGTERM from the parent (interpreter shutdown kills workers first): exit quietly with 0, so
 * the parent's SIGCHLD handler does not report the worker as failed. */
static void
on_sigterm(int sig, siginfo_t *info, void *ctx)
{
    if (info && info->si_pid == getppid())
        _exit(EXIT_SUCCESS);
    die_of(sig);
}

static int
install(int sig, void (*handler)(int, siginfo_t *, void *))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_RESTART | SA_SIGINFO | SA_NOCLDSTOP | SA_NODEFER;
    if (sigemptyset(&sa.sa_mask) != 0 || sigaction(sig, &sa, NULL) != 0) {
        PyErr_Format(PyExc_RuntimeError, "An error occurred while setting handler for %s.", strsignal(sig));
        return -1;
    }
    return 0;
}

static PyObject *
set_worker_signal_handlers(PyObject *self, PyObject *unused)
{
    if (install(SIGBUS, on_sigbus) < 0 || install(SIGSEGV, on_sigsegv) < 0 || install(SIGTERM, on_sigterm) < 0 ||
        install(SIGFPE, on_sigfpe) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* ---- thread names: torch.multiprocessing names worker threads "pt_data_worker" ---- */

/* _set_thread_name(name): the kernel keeps 15 bytes of it, as upstream's c10::setThreadName. */
static PyObject *
set_thread_name(PyObject *self, PyObject *arg)
{
    if (!PyUnicode_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "_set_thread_name(): expected a str, got %s", tn_tpname(arg));
        return NULL;
    }
    const char *name = PyUnicode_AsUTF8AndSize(arg, NULL);
    if (!name)
        return NULL;
    char buf[16];
    snprintf(buf, sizeof buf, "%s", name);
    pthread_setname_np(pthread_self(), buf);
    Py_RETURN_NONE;
}

static PyObject *
get_thread_name(PyObject *self, PyObject *unused)
{
    char buf[16] = "";
    if (pthread_getname_np(pthread_self(), buf, sizeof buf) != 0)
        buf[0] = 0;
    return PyUnicode_FromString(buf);
}

static PyMethodDef dataloader_functions[] = {
    {"_set_thread_name", set_thread_name, METH_O, NULL},
    {"_get_thread_name", get_thread_name, METH_NOARGS, NULL},
    {"_set_worker_signal_handlers", set_worker_signal_handlers, METH_NOARGS, NULL},
    {"_set_worker_pids", set_worker_pids, METH_VARARGS, NULL},
    {"_remove_worker_pids", remove_worker_pids, METH_O, NULL},
    {"_error_if_any_worker_fails", error_if_any_worker_fails, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

int
tn_dataloader_init(PyObject *module)
{
    return PyModule_AddFunctions(module, dataloader_functions);
}
