"""The tensor-free parts of torch._C._autograd, _profiler and _monitor, plus _autograd_init and
_multiprocessing_init. Saved-tensor default hooks are thread-local here; the C core asks
_autograd._top_saved_tensors_default_hooks(False) when it saves a tensor. No profiler exists:
kineto_available() is False, starting one refuses by name, record-function scopes are inert.
To add a name: define it in its module's builder."""

import ctypes
import sys
import threading
import time
import traceback

_NO_PROFILER = "the autograd profiler (Kineto and legacy)"


def _build_autograd(C, support):
    ag = support.submodule(C, "torch._C._autograd")
    pr = C._profiler
    refuse = support.refuse
    tls = threading.local()

    def _hooks():
        if not hasattr(tls, "stack"):
            tls.stack = []
            tls.disabled_message = None
            tls.is_tracing = False
        return tls

    def _push_saved_tensors_default_hooks(pack_hook, unpack_hook):
        t = _hooks()
        if t.disabled_message is not None:
            raise RuntimeError(t.disabled_message)
        t.stack.append((pack_hook, unpack_hook))

    def _pop_saved_tensors_default_hooks():
        t = _hooks()
        if not t.stack:
            raise RuntimeError("_pop_saved_tensors_default_hooks: no hooks to pop")
        t.stack.pop()

    def _top_saved_tensors_default_hooks(ignore_is_tracing):
        t = _hooks()
        if not t.stack or (t.is_tracing and not ignore_is_tracing):
            return None
        return t.stack[-1]

    def _saved_tensors_hooks_enable():
        _hooks().disabled_message = None

    def _saved_tensors_hooks_disable(message, fail_if_non_empty=True):
        t = _hooks()
        if fail_if_non_empty and t.stack:
            raise RuntimeError(message)
        t.disabled_message = message

    def _saved_tensors_hooks_is_enabled():
        return _hooks().disabled_message is None

    def _saved_tensors_hooks_get_disabled_error_message():
        return _hooks().disabled_message

    def _saved_tensors_hooks_set_tracing(is_tracing):
        t = _hooks()
        prior = t.is_tracing
        t.is_tracing = bool(is_tracing)
        return prior

    def kineto_available():
        return False

    def _supported_activities():
        return {pr.ProfilerActivity.CPU}

    def _profiler_enabled():
        return False

    def _profiler_type():
        return pr.ActiveProfilerType.NONE

    def _is_kineto_stopped():
        return False

    def _kineto_step():
        pass

    def _enable_record_function(enable):
        pass

    def _set_empty_test_observer(is_global, sampling_prob):
        pass

    exported = [n for n in locals() if n.startswith(("_push", "_pop", "_top", "_saved",
                                                     "kineto", "_supported", "_profiler",
                                                     "_is_kineto", "_kineto", "_enable_record",
                                                     "_set_empty"))]
    support.set_all(ag, locals(), exported)
    for name in ("_enable_profiler", "_prepare_profiler", "_disable_profiler",
                 "_toggle_collection_dynamic", "_enable_profiler_legacy",
                 "_disable_profiler_legacy", "_add_metadata_json",
                 "_record_function_with_args_enter", "_record_function_with_args_exit"):
        setattr(ag, name, support.refusing(f"torch._C._autograd.{name}", _NO_PROFILER))

    def no_constructor(name, module):
        def __init__(self, *args, **kwargs):
            raise TypeError(f"{module}.{name}: No constructor defined!")
        return type(name, (), {"__init__": __init__, "__module__": module})

    for name in ("ProfilerEvent", "_KinetoEvent", "_ProfilerResult"):
        setattr(ag, name, no_constructor(name, "torch._C._autograd"))


def _build_profiler(C, support):
    pr = support.submodule(C, "torch._C._profiler")
    mod = "torch._C._profiler"

    class _ExperimentalConfig:
        """Kineto options; upstream exposes two of them as attributes."""

        def __init__(self, profiler_metrics=(), profiler_measure_per_kernel=False, verbose=False,
                     performance_events=(), enable_cuda_sync_events=False, adjust_profiler_step=False,
                     disable_external_correlation=False, profile_all_threads=False,
                     capture_overload_names=False, record_python_gc_info=False,
                     expose_kineto_event_metadata=False, custom_profiler_config="", adjust_timestamps=False,
                     trace_only=False):
            self.custom_profiler_config = custom_profiler_config
            self.trace_only = trace_only

    class ProfilerConfig:
        def __init__(self, state, report_input_shapes, profile_memory, with_stack, with_flops,
                     with_modules, experimental_config, trace_id=""):
            self.state = state
            self.report_input_shapes = report_input_shapes
            self.profile_memory = profile_memory
            self.with_stack = with_stack
            self.with_flops = with_flops
            self.with_modules = with_modules
            self.experimental_config = experimental_config
            self.trace_id = trace_id

    class _RecordFunctionFast:
        """A record-function scope; records nothing because no profiler can be running."""

        def __init__(self, name, input_values=None, keyword_values=None):
            self.name = name

        def __enter__(self):
            return None

        def __exit__(self, *exc):
            return False

    class CapturedTraceback:
        """A captured Python stack (C++ and TorchScript frames are not captured)."""

        def __init__(self, frames=()):
            self._frames = list(frames)

    def gather_traceback(python=True, script=True, cpp=True):
        frames = traceback.extract_stack()[:-1] if python else []
        return CapturedTraceback(frames)

    def symbolize_tracebacks(to_symbolize):
        return [[{"filename": f.filename, "line": f.lineno, "name": f.name}
                 for f in tb._frames] for tb in to_symbolize]

    def symbolize_addresses(frames):
        return []

    def _get_approximate_time():
        return time.monotonic_ns()

    class _ApproximateClockToUnixTimeConverter:
        def measurePairs(self):
            return (time.monotonic_ns(), time.time_ns())

        def makeConverter(self):
            offset = time.time_ns() - time.monotonic_ns()
            return lambda approx: approx + offset

    def _set_record_concrete_inputs_enabled_val(val):
        pass

    def _set_fwd_bwd_enabled_val(val):
        pass

    def _set_cuda_sync_enabled_val(val):
        pass

    names = ("_ExperimentalConfig", "ProfilerConfig", "_RecordFunctionFast", "CapturedTraceback",
             "gather_traceback", "symbolize_tracebacks", "symbolize_addresses",
             "_get_approximate_time", "_ApproximateClockToUnixTimeConverter",
             "_set_record_concrete_inputs_enabled_val", "_set_fwd_bwd_enabled_val",
             "_set_cuda_sync_enabled_val")
    support.set_all(pr, locals(), names)
    for name in ("_add_execution_trace_observer", "_remove_execution_trace_observer",
                 "_enable_execution_trace_observer", "_disable_execution_trace_observer"):
        setattr(pr, name, support.refusing(f"{mod}.{name}", "the execution trace observer"))


def _build_monitor(C, support):
    mon = support.submodule(C, "torch._C._monitor")
    Aggregation = mon.Aggregation
    handlers = []

    class Event:
        def __init__(self, name, timestamp, data):
            self.name = name
            self.timestamp = timestamp
            self.data = data

    class EventHandlerHandle:
        def __init__(self, handler):
            self._handler = handler

    def log_event(e):
        for h in list(handlers):
            h._handler(e)

    def register_event_handler(handler):
        handle = EventHandlerHandle(handler)
        handlers.append(handle)
        return handle

    def unregister_event_handler(handle):
        if handle in handlers:
            handlers.remove(handle)

    class Stat:
        """A windowed statistic (torch/csrc/monitor/counters.h): aggregates samples over
        window_size samples; get() returns the last completed window."""

        def __init__(self, name, aggregations, window_size, max_samples=-1):
            self.name = name
            self._aggs = list(aggregations)
            self._window = window_size
            self._max = max_samples
            self._cur = []
            self._last = {}
            self.count = 0

        def add(self, v):
            if 0 <= self._max <= self.count:
                return
            self._cur.append(float(v))
            self.count += 1
            if len(self._cur) >= self._window:
                self._last = self._aggregate(self._cur)
                self._cur = []

        def _aggregate(self, xs):
            out = {}
            for a in self._aggs:
                if a == Aggregation.VALUE:
                    out[a] = xs[-1]
                elif a == Aggregation.MEAN:
                    out[a] = sum(xs) / len(xs)
                elif a == Aggregation.COUNT:
                    out[a] = float(len(xs))
                elif a == Aggregation.SUM:
                    out[a] = sum(xs)
                elif a == Aggregation.MAX:
                    out[a] = max(xs)
                elif a == Aggregation.MIN:
                    out[a] = min(xs)
            return out

        def get(self):
            return dict(self._last)

    class _WaitCounterTracker:
        """Times a wait for a _WaitCounter; with no counter backend registered (none can be
        here) the measurement goes nowhere, as upstream's does in that case."""

        def __init__(self, counter):
            self._counter = counter

        def __enter__(self):
            self._start = time.monotonic_ns()
            return None

        def __exit__(self, exc_type=None, exc_value=None, tb=None):
            return None

    class _WaitCounter:
        def __init__(self, key):
            self.key = key

        def guard(self):
            return _WaitCounterTracker(self)

    def data_value_t(*args, **kwargs):
        support.refuse("torch._C._monitor.data_value_t")

    support.set_all(mon, locals(), ("Event", "EventHandlerHandle", "log_event",
                                    "register_event_handler", "unregister_event_handler", "Stat",
                                    "_WaitCounterTracker", "_WaitCounter", "data_value_t"))


def _multiprocessing_init_fn(C):
    def _prctl_pr_set_pdeathsig(signal):
        # prctl(PR_SET_PDEATHSIG, signal): the child gets `signal` when its parent dies.
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(1, int(signal), 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")

    def _multiprocessing_init():
        mp = sys.modules.get("torch.multiprocessing")
        if mp is not None:
            mp._prctl_pr_set_pdeathsig = _prctl_pr_set_pdeathsig
        return True

    return _multiprocessing_init


def _autograd_init_fn(C, core_init):
    done = []

    def _autograd_init():
        # The C core's _autograd_init (if any) records torch.Tensor/Parameter; upstream's also
        # creates torch._C._functions here, after torch registered its _C submodules in
        # sys.modules (so, as upstream, that module is not in sys.modules).
        result = core_init() if core_init is not None else True
        if not done:
            done.append(True)
            if "_functions" not in C.__dict__:
                import types
                C._functions = types.ModuleType("torch._C._functions")
            fill = getattr(C._tn_support, "fill_placeholders", None)
            if fill is not None:
                fill(C, "torch._C._functions")
        return result

    return _autograd_init


def install(C):
    support = C._tn_support
    _build_profiler(C, support)
    _build_autograd(C, support)
    _build_monitor(C, support)
    # The C core may define these; its versions stay (wrapped, for _autograd_init).
    if "_multiprocessing_init" not in C.__dict__:
        C._multiprocessing_init = support.publish(_multiprocessing_init_fn(C), "torch._C",
                                                  "_multiprocessing_init")
    C._autograd_init = support.publish(_autograd_init_fn(C, C.__dict__.get("_autograd_init")),
                                       "torch._C", "_autograd_init")
