"""torch._C._dynamo (eval_frame, guards, utils, compiled_autograd), _export and _functorch. No
PEP 523 hook exists under the limited API, so set_eval_frame takes the "off" callbacks (None,
False) torch._dynamo.disable installs and refuses a compile callback by name; functorch refuses
at its nesting entry points and answers its predicates for plain tensors (all torchnative has).
To add a name: define it in the builder of its module."""

import opcode
import os
import re
import signal

_NO_COMPILE = "torch.compile needs PEP 523 frame evaluation, which torchnative does not have"


def _build_dynamo(C, support):
    refuse = support.refuse
    pkg = support.submodule(C, "torch._C._dynamo")
    ef = support.submodule(C, "torch._C._dynamo.eval_frame")
    guards = support.submodule(C, "torch._C._dynamo.guards")
    utils = support.submodule(C, "torch._C._dynamo.utils")
    # Upstream's attribute is compiled_autograd, its module name autograd_compiler.
    ca = support.submodule(C, "torch._C._dynamo.autograd_compiler")
    pkg.compiled_autograd = ca
    del pkg.autograd_compiler

    # ---- torch._C._dynamo -------------------------------------------------------------------
    valid_name = re.compile("[A-Za-z_].*")

    def strip_function_call(name):
        """"getattr(a.layers[slice(2)][0]._abc, '0')" -> "a" (the object a guard reads)."""
        curr = ""
        for ch in name:
            if ch in " (":
                curr = ""
            elif ch in "),[]":
                if curr and curr != "None" and valid_name.match(curr):
                    return strip_function_call(curr)
            else:
                curr += ch
        return re.split(r"[.\[]", name)[0]

    def is_valid_var_name(name):
        # Measured on upstream: "" "_" "-" -> False, all digits -> 2, else True.
        if not any(c.isalnum() for c in name):
            return False
        if name.isdigit():
            return 2
        return True

    def get_type_slots(obj):
        refuse("torch._C._dynamo.get_type_slots", "CPython type-slot introspection")

    def has_slot(slots, slot_bit):
        return bool(slots & (1 << slot_bit))

    support.set_all(pkg, locals(), ("strip_function_call", "is_valid_var_name", "get_type_slots",
                                    "has_slot"))

    # ---- eval_frame -------------------------------------------------------------------------
    state = {"callback": None, "skip_guard_eval_unsafe": False, "guard_error_hook": None,
             "guard_complete_hook": None, "c_recursion_limit": -1, "bytecode_debugger": None,
             "fullgraph_count": -1, "fullgraph_nested": False, "isolate_id": -1}
    code_strategies = {}
    breakpoint_codes = []
    FrameAction = ef._FrameAction

    def set_eval_frame(callback):
        if callback is not None and callback is not False:
            refuse("torch._C._dynamo.eval_frame.set_eval_frame", _NO_COMPILE)
        prior = state["callback"]
        state["callback"] = callback
        return prior

    def get_eval_frame_callback():
        return state["callback"]

    def set_skip_guard_eval_unsafe(value):
        prior = state["skip_guard_eval_unsafe"]
        state["skip_guard_eval_unsafe"] = bool(value)
        return prior

    def reset_code(code):
        code_strategies.pop(code, None)

    def unsupported(obj1, obj2):
        refuse("torch._C._dynamo.eval_frame.unsupported", _NO_COMPILE)

    def set_code_exec_strategy(code, strategy):
        code_strategies[code] = strategy

    def set_guard_error_hook(hook):
        state["guard_error_hook"] = hook

    def set_guard_complete_hook(hook):
        prior = state["guard_complete_hook"]
        state["guard_complete_hook"] = hook
        return prior

    def raise_sigtrap():
        os.kill(os.getpid(), signal.SIGTRAP)

    def set_c_recursion_limit(limit):
        state["c_recursion_limit"] = int(limit)

    def get_c_recursion_limit():
        return state["c_recursion_limit"]

    class _FrameExecStrategy:
        def __init__(self, cur_action=None, recursive_action=None):
            if cur_action is None and recursive_action is None:
                # Measured default on upstream 2.13.0.
                cur_action, recursive_action = FrameAction.SKIP, FrameAction.DEFAULT
            self.cur_action = cur_action
            self.recursive_action = recursive_action

    def _no_init(qualname):
        def __init__(self, *args, **kwargs):
            raise TypeError(f"{qualname}: No constructor defined!")
        return __init__

    class _CacheEntry:
        __init__ = _no_init("torch._C._dynamo.eval_frame._CacheEntry")

    class _PrecompileEntry:
        __init__ = _no_init("torch._C._dynamo.eval_frame._PrecompileEntry")

    class _ExtraState:
        __init__ = _no_init("torch._C._dynamo.eval_frame._ExtraState")

    class _PyInterpreterFrame:
        __init__ = _no_init("torch._C._dynamo.eval_frame._PyInterpreterFrame")

    class NullStackValue:
        def __repr__(self):
            return "<NULL>"

    class VectorUInt8(list):
        """std::vector<uint8_t> as pybind11 binds it; here a list of ints."""

    def _debug_get_cache_entry_list(code):
        return []

    def _get_cache_entries_for_region(code, isolate_recompiles_id):
        return []

    def _get_total_cache_entry_count(code):
        return 0

    def _debug_get_precompile_entries(code):
        return []

    def _load_precompile_entry(code, guard_manager, dynamo_code):
        refuse("torch._C._dynamo.eval_frame._load_precompile_entry", _NO_COMPILE)

    def _reset_precompile_entries(code):
        pass

    def _get_frame_value_stack_with_depth(frame, depth):
        refuse("torch._C._dynamo.eval_frame._get_frame_value_stack_with_depth",
               "CPython frame internals")

    def set_bytecode_debugger_callback(callback):
        state["bytecode_debugger"] = callback

    def get_bytecode_debugger_callback():
        return state["bytecode_debugger"]

    def register_breakpoint_code(code):
        breakpoint_codes.append(code)

    def code_framelocals_names(code):
        """The names of a 3.11 frame's localsplus: varnames, new cells, then free vars."""
        cells = tuple(c for c in code.co_cellvars if c not in code.co_varnames)
        return code.co_varnames + cells + code.co_freevars

    def set_fullgraph_compiled_frame_count(value):
        prior = state["fullgraph_count"]
        state["fullgraph_count"] = value
        return prior

    def set_fullgraph_error_on_nested_compile(value):
        prior = state["fullgraph_nested"]
        state["fullgraph_nested"] = bool(value)
        return prior

    def set_eval_frame_isolate_recompiles_id(isolate_recompiles_id):
        prior = state["isolate_id"]
        state["isolate_id"] = isolate_recompiles_id
        return prior

    def get_eval_frame_isolate_recompiles_id():
        return state["isolate_id"]

    def _set_lru_cache(value):
        pass

    support.set_all(ef, locals(), (
        "set_eval_frame", "get_eval_frame_callback", "set_skip_guard_eval_unsafe", "reset_code",
        "unsupported", "set_code_exec_strategy", "set_guard_error_hook",
        "set_guard_complete_hook", "raise_sigtrap", "set_c_recursion_limit",
        "get_c_recursion_limit", "_FrameExecStrategy", "_CacheEntry", "_PrecompileEntry",
        "_ExtraState", "_PyInterpreterFrame", "NullStackValue", "VectorUInt8",
        "_debug_get_cache_entry_list", "_get_cache_entries_for_region",
        "_get_total_cache_entry_count", "_debug_get_precompile_entries", "_load_precompile_entry",
        "_reset_precompile_entries", "_get_frame_value_stack_with_depth",
        "set_bytecode_debugger_callback", "get_bytecode_debugger_callback",
        "register_breakpoint_code", "code_framelocals_names",
        "set_fullgraph_compiled_frame_count", "set_fullgraph_error_on_nested_compile",
        "set_eval_frame_isolate_recompiles_id", "get_eval_frame_isolate_recompiles_id",
        "_set_lru_cache"))
    ef.NULL_STACK_VALUE = NullStackValue()
    # Inline cache entries per opcode (CPython's _PyOpcode_Caches) — the interpreter's own.
    ef.py_opcode_caches = VectorUInt8(opcode._inline_cache_entries[i] for i in range(256))

    # ---- guards -----------------------------------------------------------------------------
    # Guards are built only while dynamo compiles a frame, which set_eval_frame refuses; the
    # classes exist (the tree names them in annotations and isinstance checks) and refuse use.

    def _refusing_class(name, base=object, constructible=True):
        qual = f"torch._C._dynamo.guards.{name}"

        def __init__(self, *args, **kwargs):
            if not constructible:
                raise TypeError(f"{qual}: No constructor defined!")

        def __getattr__(self, attr):
            if attr.startswith("__"):
                raise AttributeError(attr)
            refuse(f"{qual}.{attr}", _NO_COMPILE)

        return type(name, (base,), {"__init__": __init__, "__getattr__": __getattr__})

    GuardManager = _refusing_class("GuardManager", constructible=False)
    RootGuardManager = _refusing_class("RootGuardManager", GuardManager)
    DictGuardManager = _refusing_class("DictGuardManager", GuardManager, False)
    LeafGuard = _refusing_class("LeafGuard", constructible=False)
    RelationalGuard = _refusing_class("RelationalGuard", LeafGuard, False)
    GuardAccessor = _refusing_class("GuardAccessor", constructible=False)
    classes = {"GuardManager": GuardManager, "RootGuardManager": RootGuardManager,
               "DictGuardManager": DictGuardManager, "LeafGuard": LeafGuard,
               "RelationalGuard": RelationalGuard, "GuardAccessor": GuardAccessor}
    for name in ("GetAttrGuardAccessor", "GenericGetAttrGuardAccessor", "GetItemGuardAccessor",
                 "DictGetItemGuardAccessor", "ListGetItemGuardAccessor",
                 "TupleGetItemGuardAccessor", "FuncDefaultsGuardAccessor",
                 "FuncKwDefaultsGuardAccessor", "GlobalsGuardAccessor", "TypeGuardAccessor",
                 "TypeDictGuardAccessor", "TypeMROGuardAccessor", "WeakRefCallGuardAccessor",
                 "CallFunctionNoArgsGuardAccessor", "TupleIteratorGetItemAccessor",
                 "GlobalWeakRefGuardAccessor", "GetGenericDictGuardAccessor",
                 "ClosureGuardAccessor", "CodeGuardAccessor", "FrameLocalsGuardAccessor"):
        classes[name] = _refusing_class(name, GuardAccessor, False)
    for name in ("LAMBDA_GUARD", "TYPE_MATCH", "ID_MATCH", "NONE_MATCH", "NOT_NONE",
                 "EQUALS_MATCH", "LENGTH_CHECK", "DICT_LENGTH", "DICT_VERSION", "DICT_CONTAINS",
                 "SET_CONTAINS", "TUPLE_ITERATOR_LEN", "RANGE_ITERATOR_MATCH", "NO_HASATTR",
                 "DEFAULT_DEVICE", "GLOBAL_STATE", "TORCH_FUNCTION_MODE_STACK", "TENSOR_MATCH",
                 "DISPATCH_KEY_SET_MATCH", "DUAL_LEVEL_MATCH", "FLOAT_IS_NAN", "COMPLEX_IS_NAN",
                 "TRUE_MATCH", "FALSE_MATCH", "MAPPING_KEYS_MATCH", "FAKE_SCRIPT_TYPE_MATCH",
                 "DIMENSION_DYNAMIC_MARKING_GUARD", "SYMBOLIC_SHAPE_GUARD"):
        classes[name] = _refusing_class(name, LeafGuard)
    for name in ("NO_TENSOR_ALIASING", "OBJECT_ALIASING", "STORAGE_OVERLAPPING"):
        classes[name] = _refusing_class(name, RelationalGuard)
    classes["TensorGuards"] = _refusing_class("TensorGuards")
    classes["GlobalStateGuard"] = _refusing_class("GlobalStateGuard")

    class GuardDebugInfo:
        def __init__(self, result, verbose_code_parts, num_guards_executed):
            self.result = result
            self.verbose_code_parts = verbose_code_parts
            self.num_guards_executed = num_guards_executed

    classes["GuardDebugInfo"] = GuardDebugInfo
    for name, cls in classes.items():
        setattr(guards, name, support.publish(cls, "torch._C._dynamo.guards", name))

    def check_obj_id(obj, expected):
        return id(obj) == expected

    def check_type_id(obj, expected):
        return id(type(obj)) == expected

    def _guard_refusal(name):
        return support.refusing(f"torch._C._dynamo.guards.{name}", _NO_COMPILE)

    # TorchDispatchMode.__enter__/__exit__ report whether a mode without ignore_compile_internals
    # is active; upstream keeps the flag for dynamo's frame evaluation. torchnative has no
    # dynamo to read it, so the flag is only kept (dispatch modes themselves work).
    mode_flag = {"in_mode_without_ignore_compile_internals": False}

    def set_is_in_mode_without_ignore_compile_internals(value):
        mode_flag["in_mode_without_ignore_compile_internals"] = bool(value)

    support.set_all(guards, locals(), ("check_obj_id", "check_type_id",
                                       "set_is_in_mode_without_ignore_compile_internals"))
    for name in ("dict_version", "install_no_tensor_aliasing_guard",
                 "install_object_aliasing_guard", "install_storage_overlapping_guard",
                 "install_symbolic_shape_guard", "compute_overlapping_tensors",
                 "profile_guard_manager", "assert_size_stride", "assert_alignment",
                 "copy_if_misaligned", "_reinterpret_tensor", "_empty_strided_cpu",
                 "_empty_strided_cpu_pinned", "_empty_strided_cuda", "_empty_strided_xpu",
                 "_empty_strided_mtia"):
        setattr(guards, name, _guard_refusal(name))

    # ---- utils, compiled autograd -----------------------------------------------------------

    def is_instancemethod(obj):
        return type(obj).__name__ == "instancemethod"

    support.set_all(utils, locals(), ("is_instancemethod",))

    ca_state = {"compiler": None, "dynamic": False, "logger": None}

    def set_autograd_compiler(compiler, dynamic):
        if compiler is not None:
            refuse("torch._C._dynamo.compiled_autograd.set_autograd_compiler",
                   "compiled autograd; " + _NO_COMPILE)
        prior = (ca_state["compiler"], ca_state["dynamic"])
        ca_state["compiler"], ca_state["dynamic"] = compiler, bool(dynamic)
        return prior

    def clear_cache():
        pass

    def is_cache_empty():
        return True

    def set_verbose_logger(logger):
        ca_state["logger"] = logger
        return True

    def call_cpp_tensor_pre_hooks(idx, grad):
        refuse("torch._C._dynamo.compiled_autograd.call_cpp_tensor_pre_hooks", _NO_COMPILE)

    support.set_all(ca, locals(), ("set_autograd_compiler", "clear_cache", "is_cache_empty",
                                   "set_verbose_logger", "call_cpp_tensor_pre_hooks"))


# torch/csrc/export/pt2_archive_constants.h, measured on upstream 2.13.0.
PT2_ARCHIVE_CONSTANTS = {
    "AOTINDUCTOR_DIR": "data/aotinductor/",
    "ARCHIVE_FORMAT_PATH": "archive_format",
    "ARCHIVE_FORMAT_VALUE": "pt2",
    "ARCHIVE_ROOT_NAME": "package",
    "ARCHIVE_VERSION_PATH": "archive_version",
    "ARCHIVE_VERSION_VALUE": "0",
    "CONSTANTS_CONFIG_FILENAME_FORMAT": "data/constants/{}_constants_config.json",
    "CONSTANTS_DIR": "data/constants/",
    "CONSTANTS_PARAM_CONFIG_FORMAT": "data/constants/{}_model_constants_config.json",
    "CUSTOM_OBJ_FILENAME_PREFIX": "custom_obj_",
    "EXECUTORCH_DIR": "data/executorch/",
    "EXTRA_DIR": "extra/",
    "MODELS_DIR": "models/",
    "MODELS_FILENAME_FORMAT": "models/{}.json",
    "MODULE_INFO_PATH": "extra/module_info.json",
    "MTIA_DIR": "data/mtia",
    "OPAQUE_OBJ_FILENAME_PREFIX": "opaque_obj_",
    "SAMPLE_INPUTS_DIR": "data/sample_inputs/",
    "SAMPLE_INPUTS_FILENAME_FORMAT": "data/sample_inputs/{}.pt",
    "TENSOR_CONSTANT_FILENAME_PREFIX": "tensor_",
    "TS_SAMPLE_INPUTS_FILENAME_FORMAT": "extra/{}.forward.sample_input.pt",
    "WEIGHTS_CONFIG_FILENAME_FORMAT": "data/weights/{}_weights_config.json",
    "WEIGHTS_DIR": "data/weights/",
    "WEIGHTS_PARAM_CONFIG_FORMAT": "data/weights/{}_model_param_config.json",
    "WEIGHT_FILENAME_PREFIX": "weight_",
    "XL_MODEL_WEIGHTS_DIR": "xl_model_weights/",
    "XL_MODEL_WEIGHTS_PARAM_CONFIG_PATH": "xl_model_weights/model_param_config",
}


def _build_export(C, support):
    exp = support.submodule(C, "torch._C._export")
    consts = support.submodule(C, "torch._C._export.pt2_archive_constants")
    for name, value in PT2_ARCHIVE_CONSTANTS.items():
        setattr(consts, name, value)

    class CppExportedProgram:
        def __init__(self, *args, **kwargs):
            raise TypeError("torch._C._export.CppExportedProgram: No constructor defined!")

    exp.CppExportedProgram = support.publish(CppExportedProgram, "torch._C._export",
                                             "CppExportedProgram")
    for name in ("deserialize_exported_program", "serialize_exported_program", "upgrade",
                 "register_example_upgraders", "deregister_example_upgraders"):
        setattr(exp, name, support.refusing(f"torch._C._export.{name}",
                                            "the C++ exported-program serializer"))


def _build_functorch(C, support):
    ft = support.submodule(C, "torch._C._functorch")
    refuse = support.refuse
    flags = {"inplace_requires_grad": False, "single_level_autograd_function": False,
             "vmap_fallback": True, "vmap_fallback_warning": True}
    no_transforms = "functorch transforms (vmap, grad, jvp, functionalize)"

    # Every tensor torchnative makes is a plain tensor: no functorch wrapper, no batch dim.
    def is_batchedtensor(tensor):
        return False

    def is_gradtrackingtensor(tensor):
        return False

    def is_functionaltensor(tensor):
        return False

    def is_functorch_wrapped_tensor(tensor):
        return False

    def is_legacy_batchedtensor(tensor):
        return False

    def is_dead_tensor_wrapper(tensor):
        return False

    def maybe_get_level(tensor):
        return -1

    def maybe_get_bdim(tensor):
        return -1

    def dlevel(tensor):
        return 0

    def unwrap_if_dead(tensor):
        return tensor

    def get_unwrapped(tensor):
        raise RuntimeError("No wrappers present!")

    # The dynamic layer stack is always empty.
    def maybe_current_level():
        return None

    def current_level():
        raise RuntimeError("maybe_layer.has_value() INTERNAL ASSERT FAILED: no functorch "
                           "transform is active")

    def peek_interpreter_stack():
        return None

    def get_interpreter_stack():
        return None

    def get_dynamic_layer_stack_depth():
        return 0

    def pop_dynamic_layer_stack():
        raise RuntimeError("!dynamicLayerStack.empty() INTERNAL ASSERT FAILED")

    def pop_dynamic_layer_stack_and_undo_to_depth(depth):
        if depth != 0:
            raise RuntimeError("pop_dynamic_layer_stack_and_undo_to_depth: the dynamic layer "
                               "stack is empty")

    def set_inplace_requires_grad_allowed(allowed):
        flags["inplace_requires_grad"] = bool(allowed)

    def get_inplace_requires_grad_allowed():
        return flags["inplace_requires_grad"]

    def set_single_level_autograd_function_allowed(allowed):
        flags["single_level_autograd_function"] = bool(allowed)

    def get_single_level_autograd_function_allowed():
        return flags["single_level_autograd_function"]

    def _set_vmap_fallback_enabled(enabled):
        flags["vmap_fallback"] = bool(enabled)

    def _is_vmap_fallback_enabled():
        return flags["vmap_fallback"]

    def _set_vmap_fallback_warning_enabled(enabled):
        flags["vmap_fallback_warning"] = bool(enabled)

    def _set_dynamic_layer_keys_included(included):
        pass

    real = dict(locals())
    del real["ft"], real["refuse"], real["flags"], real["no_transforms"], real["support"], real["C"]
    support.set_all(ft, real, tuple(real))

    for name in ("_vmap_increment_nesting", "_vmap_decrement_nesting", "_grad_increment_nesting",
                 "_grad_decrement_nesting", "_jvp_increment_nesting", "_jvp_decrement_nesting",
                 "_func_increment_nesting", "_func_decrement_nesting", "_add_batch_dim",
                 "_remove_batch_dim", "_wrap_for_grad", "_unwrap_for_grad", "_unwrap_batched",
                 "_wrap_functional_tensor", "_unwrap_functional_tensor",
                 "_assert_wrapped_functional", "_propagate_functional_input_mutation",
                 "_maybe_unsafe_set_level", "push_dynamic_layer_stack", "reshape_dim_into",
                 "reshape_dim_outof", "tls_set_vmap_excluded", "dump_tensor", "dump_dls",
                 "dump_local_tls"):
        setattr(ft, name, support.refusing(f"torch._C._functorch.{name}", no_transforms))

    def interpreter_class(name):
        def __init__(self, *args, **kwargs):
            raise TypeError(f"torch._C._functorch.{name}: No constructor defined!")
        return type(name, (), {"__init__": __init__, "__module__": "torch._C._functorch"})

    for name in ("CInterpreter", "CGradInterpreterPtr", "CJvpInterpreterPtr",
                 "CFunctionalizeInterpreterPtr", "CVmapInterpreterPtr", "DynamicLayer"):
        setattr(ft, name, interpreter_class(name))


def install(C):
    support = C._tn_support
    _build_dynamo(C, support)
    _build_export(C, support)
    _build_functorch(C, support)
