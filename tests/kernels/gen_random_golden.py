"""Records upstream torch's random outputs for tests/kernels/test_random.c.

Each case seeds the default CPU generator, runs a list of steps (fills on tensors of a given
geometry, randperm, multinomial, get/set_rng_state) and keeps what upstream wrote: the whole
storage image when small, else only its FNV-1a 64 hash. Add a case with one more `case(...)`
call in cases(); the C side replays steps generically. Regenerate with
    .venv-upstream/bin/python tests/kernels/gen_random_golden.py
"""

import os
import pickle
import subprocess
import sys

import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "random_golden.h")
FULL_BYTES_LIMIT = 512  # larger outputs are checked by hash only

DT = {  # torch dtype -> (tn_dtype number, C name)
    torch.uint8: 0, torch.int8: 1, torch.int16: 2, torch.int32: 3, torch.int64: 4,
    torch.float16: 5, torch.float32: 6, torch.float64: 7, torch.bool: 11, torch.bfloat16: 15,
    torch.uint16: 27, torch.uint32: 28, torch.uint64: 29,
}

OPS = ["G_UNIFORM", "G_NORMAL", "G_FROM_TO", "G_BITS", "G_BERN_SCALAR", "G_BERN_TENSOR",
       "G_EXPONENTIAL", "G_RANDPERM", "G_MULTINOMIAL", "G_STATE", "G_SET_STATE"]

INT64_MIN = -(2 ** 63)


def fnv1a(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def storage_bytes(t: torch.Tensor) -> bytes:
    return bytes(t.untyped_storage())


def row_major(sizes):
    st, acc = [], 1
    for s in reversed(sizes):
        st.insert(0, acc)
        acc *= s
    return st


class Step:
    def __init__(self, op, dtype=torch.float32, sizes=(), strides=None, storage=None, flag=0,
                 a=0.0, b=0.0, i0=0, u0=0, data=b"", full=False):
        self.op, self.dtype, self.sizes = op, dtype, list(sizes)
        self.strides = list(strides) if strides is not None else row_major(self.sizes)
        self.storage = storage
        self.flag, self.a, self.b, self.i0, self.u0 = flag, a, b, i0, u0
        self.data, self.full = data, full


def target(dtype, sizes, strides, storage):
    base = torch.zeros(storage, dtype=dtype)
    return base, base.as_strided(sizes, strides)


def geometry(sizes, strides=None, storage=None):
    sizes = list(sizes)
    strides = list(strides) if strides is not None else row_major(sizes)
    if storage is None:
        storage = 1 + sum((s - 1) * st for s, st in zip(sizes, strides)) if all(sizes) else 0
    return sizes, strides, storage


# ---- step builders: each runs upstream and returns the recorded Step ----

def uniform(dtype, sizes, a=0.0, b=1.0, strides=None, storage=None, literal=False):
    sizes, strides, storage = geometry(sizes, strides, storage)
    if literal:  # torch.rand: the same kernel, called the way users call it
        t = torch.rand(sizes, dtype=dtype)
        data = storage_bytes(t)
    else:
        base, t = target(dtype, sizes, strides, storage)
        t.uniform_(a, b)
        data = storage_bytes(base)
    return Step("G_UNIFORM", dtype, sizes, strides, storage, a=a, b=b, data=data)


def normal(dtype, sizes, mean=0.0, std=1.0, strides=None, storage=None, literal=False):
    sizes, strides, storage = geometry(sizes, strides, storage)
    if literal:
        t = torch.randn(sizes, dtype=dtype)
        data, contig = storage_bytes(t), 1
    else:
        base, t = target(dtype, sizes, strides, storage)
        contig = int(t.is_contiguous())
        t.normal_(mean, std)
        data = storage_bytes(base)
    return Step("G_NORMAL", dtype, sizes, strides, storage, flag=contig, a=mean, b=std, data=data)


def randint(dtype, sizes, low, high, strides=None, storage=None):
    sizes, strides, storage = geometry(sizes, strides, storage)
    if strides == row_major(sizes):
        t = torch.randint(low, high, sizes, dtype=dtype)
        data = storage_bytes(t)
    else:
        base, t = target(dtype, sizes, strides, storage)
        t.random_(low, high)
        data = storage_bytes(base)
    return Step("G_FROM_TO", dtype, sizes, strides, storage, i0=low, u0=high - low, data=data)


def random_from(dtype, sizes, low):
    """random_(from=low, to=None): upstream's range runs to the dtype's max (2^digits for
    floats), or the full 64-bit range when low is INT64_MIN."""
    sizes, strides, storage = geometry(sizes)
    base, t = target(dtype, sizes, strides, storage)
    t.random_(low, None)
    if low == INT64_MIN:
        rng = 0
    else:
        if dtype.is_floating_point:
            top = 2 ** {torch.float32: 24, torch.float64: 53, torch.float16: 11,
                        torch.bfloat16: 8}[dtype]
        else:
            top = torch.iinfo(dtype).max
        rng = top - low + 1
    return Step("G_FROM_TO", dtype, sizes, strides, storage, i0=low, u0=rng,
                data=storage_bytes(base))


def bits(dtype, sizes):
    sizes, strides, storage = geometry(sizes)
    base, t = target(dtype, sizes, strides, storage)
    t.random_()
    return Step("G_BITS", dtype, sizes, strides, storage, data=storage_bytes(base))


def bernoulli(dtype, sizes, p, strides=None, storage=None):
    sizes, strides, storage = geometry(sizes, strides, storage)
    base, t = target(dtype, sizes, strides, storage)
    t.bernoulli_(p)
    return Step("G_BERN_SCALAR", dtype, sizes, strides, storage, a=p, data=storage_bytes(base))


def p_values(n, dtype):
    # exact in every float dtype; the C side builds the same values
    return torch.tensor([(k % 9) / 8.0 for k in range(n)], dtype=torch.float64).to(dtype)


def bernoulli_tensor(dtype, p_dtype, sizes, strides=None, storage=None, literal=False):
    sizes, strides, storage = geometry(sizes, strides, storage)
    numel = 1
    for s in sizes:
        numel *= s
    p = p_values(numel, p_dtype).reshape(sizes)
    if literal:
        assert dtype == p_dtype and strides == row_major(sizes)
        data = storage_bytes(torch.bernoulli(p))
    else:
        base, t = target(dtype, sizes, strides, storage)
        t.bernoulli_(p)
        data = storage_bytes(base)
    return Step("G_BERN_TENSOR", dtype, sizes, strides, storage, flag=DT[p_dtype], data=data)


def exponential(dtype, sizes, lambd=1.0, strides=None, storage=None):
    sizes, strides, storage = geometry(sizes, strides, storage)
    base, t = target(dtype, sizes, strides, storage)
    t.exponential_(lambd)
    return Step("G_EXPONENTIAL", dtype, sizes, strides, storage, a=lambd, data=storage_bytes(base))


def randperm(n):
    return Step("G_RANDPERM", torch.int64, [n], storage=n, i0=n,
                data=storage_bytes(torch.randperm(n)))


def prob(k, pattern):
    # exact in every float dtype; test_random.c's prob() is the same function
    if pattern == 1:  # four in five categories zero: ties once the positive ones run out
        return ((k % 3) + 1) / 8.0 if k % 5 == 2 else 0.0
    if pattern == 2:  # very sparse
        return 1.0 if k % 211 == 5 else 0.0
    return ((k * 7) % 10) / 8.0


def multinomial(dtype, sizes, nsample, replacement, strides=None, storage=None, pattern=0):
    sizes, strides, storage = geometry(sizes, strides, storage)
    probs = torch.tensor([prob(k, pattern) for k in range(storage)], dtype=torch.float64)
    probs = probs.to(dtype).as_strided(sizes, strides)
    r = torch.multinomial(probs, nsample, replacement)
    return Step("G_MULTINOMIAL", dtype, sizes, strides, storage, flag=int(replacement),
                b=float(pattern), i0=nsample, data=r.contiguous().numpy().tobytes())


def state(full=False):
    s = torch.get_rng_state()
    return Step("G_STATE", torch.uint8, [s.numel()], storage=s.numel(),
                data=s.numpy().tobytes(), full=full)


def set_state(data):
    torch.set_rng_state(torch.frombuffer(bytearray(data), dtype=torch.uint8))
    return Step("G_SET_STATE", torch.uint8, [len(data)], storage=len(data), data=data, full=True)


# ---- the cases ----

CASES = []
PATH = 1  # 1: upstream's AVX2/AVX512 builds, 0: its DEFAULT build (ATEN_CPU_CAPABILITY=default)


def case(name, seed, *builders):
    """builders are thunks so each runs after the seed, in order."""
    torch.manual_seed(seed)
    steps = [b() for b in builders]
    steps.append(state())
    CASES.append((name, seed, steps, PATH))


def cases():
    F16, BF16, F32, F64 = torch.float16, torch.bfloat16, torch.float32, torch.float64
    sizes = [1, 5, 15, 16, 17, 100]

    # the generator itself
    case("seed_state_0", 0, lambda: state(full=True))
    case("seed_state_big", 2 ** 63 + 12345, lambda: state())
    case("seed_state_after_odd_randn", 7, lambda: normal(F32, [3], literal=True),
         lambda: state(full=True))

    # rand / uniform_
    for n in sizes:
        case(f"rand_f32_n{n}", 42, lambda n=n: uniform(F32, [n], literal=True))
    for dt in (F64, F16, BF16):
        for n in (1, 17, 100):
            case(f"rand_{dt}_n{n}".replace("torch.", ""), 3, lambda dt=dt, n=n: uniform(dt, [n], literal=True))
    for dt in (F32, F64, F16, BF16):
        name = str(dt).replace("torch.", "")
        case(f"uniform_{name}_ab", 11, lambda dt=dt: uniform(dt, [64], -3.3, 7.1))
        case(f"uniform_{name}_big", 12, lambda dt=dt: uniform(dt, [20000], -2.5, 1e3))
        case(f"uniform_{name}_narrow", 13, lambda dt=dt: uniform(dt, [20000], 1.0, 1.0078125))
        case(f"uniform_{name}_transposed", 14,
             lambda dt=dt: uniform(dt, [4, 8], 0.0, 1.0, strides=[1, 4], storage=32))

    # randn / normal_: block path (contiguous, n >= 16) and scalar path
    for n in sizes:
        case(f"randn_f32_n{n}", 42, lambda n=n: normal(F32, [n], literal=True))
    for dt in (F64, F16, BF16):
        for n in sizes:
            case(f"randn_{dt}_n{n}".replace("torch.", ""), 5, lambda dt=dt, n=n: normal(dt, [n], literal=True))
    for dt in (F32, F64, F16, BF16):
        name = str(dt).replace("torch.", "")
        case(f"normal_{name}_mean_std_block", 21, lambda dt=dt: normal(dt, [50], 1.5, 0.3))
        case(f"normal_{name}_mean_std_scalar", 22, lambda dt=dt: normal(dt, [9], -2.0, 4.25))
        case(f"normal_{name}_big", 23, lambda dt=dt: normal(dt, [100003], 0.25, 2.0))
        case(f"normal_{name}_transposed", 24,
             lambda dt=dt: normal(dt, [4, 8], strides=[1, 4], storage=32))
        case(f"normal_{name}_big_transposed", 25,
             lambda dt=dt: normal(dt, [300, 200], 0.5, 3.0, strides=[1, 300], storage=60000))
    case("normal_f32_strided_slice", 26,
         lambda: normal(F32, [6, 5], strides=[10, 2], storage=60))
    case("normal_f32_permuted_3d", 27,
         lambda: normal(F32, [3, 4, 5], strides=[1, 15, 3], storage=60))

    # randint / random_
    for dt, lo, hi in ((torch.int64, 0, 10), (torch.int64, -50, 50), (torch.int32, -7, 1000),
                       (torch.uint8, 0, 256), (torch.int8, -128, 128), (torch.int16, -300, 300),
                       (torch.bool, 0, 2), (F32, -5, 5), (F64, 0, 1000), (F16, -20, 20),
                       (BF16, 0, 100), (torch.uint16, 0, 60000), (torch.uint32, 5, 2 ** 31),
                       (torch.uint64, 0, 2 ** 40)):
        name = str(dt).replace("torch.", "")
        case(f"randint_{name}_{lo}_{hi}".replace("-", "m"), 31,
             lambda dt=dt, lo=lo, hi=hi: randint(dt, [100], lo, hi))
    case("randint_int64_wide_range", 32, lambda: randint(torch.int64, [50], -(2 ** 40), 2 ** 40))
    case("randint_int64_range_2p28", 33, lambda: randint(torch.int64, [50], 0, 2 ** 28))
    case("randint_int64_range_2p28_minus_1", 33, lambda: randint(torch.int64, [50], 0, 2 ** 28 - 1))
    case("randint_int64_big", 34, lambda: randint(torch.int64, [30000], -1000, 123456))
    case("randint_int32_transposed", 35,
         lambda: randint(torch.int32, [4, 8], 0, 100, strides=[1, 4], storage=32))
    for dt in (torch.int64, torch.int32, torch.uint8, torch.int8, F32, F64, F16, BF16):
        name = str(dt).replace("torch.", "")
        case(f"random_from_{name}", 36, lambda dt=dt: random_from(dt, [40], 3))
    for dt in (torch.int64, F32, F64, BF16):
        name = str(dt).replace("torch.", "")
        case(f"random_full64_{name}", 37, lambda dt=dt: random_from(dt, [40], INT64_MIN))
    for dt in (torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
               F16, BF16, F32, F64):
        name = str(dt).replace("torch.", "")
        case(f"random_bits_{name}", 38, lambda dt=dt: bits(dt, [40]))

    # randperm
    for n in (0, 1, 2, 10, 100, 5000):
        case(f"randperm_n{n}", 41, lambda n=n: randperm(n))

    # bernoulli / exponential
    for dt in (F32, F64, F16, BF16, torch.bool, torch.int64, torch.uint8):
        name = str(dt).replace("torch.", "")
        case(f"bernoulli_scalar_{name}", 51, lambda dt=dt: bernoulli(dt, [100], 0.3))
    case("bernoulli_scalar_f32_transposed", 52,
         lambda: bernoulli(F32, [4, 8], 0.5, strides=[1, 4], storage=32))
    case("bernoulli_scalar_big", 53, lambda: bernoulli(F32, [30000], 0.7))
    for dt in (F32, F64, F16, BF16):
        name = str(dt).replace("torch.", "")
        case(f"bernoulli_tensor_{name}", 54, lambda dt=dt: bernoulli_tensor(dt, dt, [100], literal=True))
    case("bernoulli_tensor_bool_from_f32", 55, lambda: bernoulli_tensor(torch.bool, F32, [50]))
    case("bernoulli_tensor_f32_transposed", 56,
         lambda: bernoulli_tensor(F32, F64, [4, 8], strides=[1, 4], storage=32))
    for dt in (F32, F64, F16, BF16):
        name = str(dt).replace("torch.", "")
        case(f"exponential_{name}", 61, lambda dt=dt: exponential(dt, [100]))
        case(f"exponential_{name}_lambda", 62, lambda dt=dt: exponential(dt, [100], 2.5))
    case("exponential_f32_big", 63, lambda: exponential(F32, [30000], 0.7))
    case("exponential_f64_transposed", 64,
         lambda: exponential(F64, [4, 8], strides=[1, 4], storage=32))

    # multinomial
    for dt in (F32, F64, F16, BF16):
        name = str(dt).replace("torch.", "")
        case(f"multinomial_{name}_noreplace", 71, lambda dt=dt: multinomial(dt, [12], 5, False))
        case(f"multinomial_{name}_noreplace_one", 72, lambda dt=dt: multinomial(dt, [12], 1, False))
        case(f"multinomial_{name}_replace", 73, lambda dt=dt: multinomial(dt, [12], 20, True))
        case(f"multinomial_{name}_replace_one", 74, lambda dt=dt: multinomial(dt, [12], 1, True))
        case(f"multinomial_{name}_rows", 75, lambda dt=dt: multinomial(dt, [3, 12], 6, False))
        case(f"multinomial_{name}_rows_replace", 76, lambda dt=dt: multinomial(dt, [3, 12], 9, True))
    case("multinomial_f32_transposed", 77,
         lambda: multinomial(F32, [3, 12], 4, False, strides=[1, 3], storage=36))
    case("multinomial_f32_transposed_replace", 78,
         lambda: multinomial(F32, [3, 12], 4, True, strides=[1, 3], storage=36))
    case("multinomial_f64_strided_rows", 79,
         lambda: multinomial(F64, [3, 12], 3, False, strides=[24, 2], storage=72))
    case("multinomial_f32_many_cats", 80, lambda: multinomial(F32, [1000], 50, False))
    case("multinomial_f64_many_replace", 81, lambda: multinomial(F64, [1000], 500, True))
    # ties between zero-probability categories: libstdc++'s nth_element + sort, or partial_sort
    for dt in (F32, F64, F16, BF16):
        name = str(dt).replace("torch.", "")
        case(f"multinomial_ties_{name}_all", 82, lambda dt=dt: multinomial(dt, [12], 12, False, pattern=1))
        case(f"multinomial_ties_{name}_rows", 83,
             lambda dt=dt: multinomial(dt, [4, 40], 30, False, pattern=1))
    case("multinomial_ties_f32_partial_sort", 84,
         lambda: multinomial(F32, [3000], 40, False, pattern=2))
    case("multinomial_ties_f64_partial_sort_rows", 85,
         lambda: multinomial(F64, [2, 2000], 31, False, pattern=2))
    case("multinomial_ties_f32_big_nth", 86,
         lambda: multinomial(F32, [300], 200, False, pattern=1))

    # sequences: state and the cached normal carry over between calls
    case("sequence_mixed", 91,
         lambda: normal(F32, [5], literal=True),
         lambda: normal(F64, [3], literal=True),
         lambda: uniform(F32, [4], literal=True),
         lambda: normal(F32, [20], literal=True),
         lambda: normal(F16, [1], literal=True),
         lambda: randint(torch.int64, [7], 0, 9),
         lambda: randperm(12),
         lambda: multinomial(F32, [12], 3, False),
         lambda: normal(BF16, [2, 3], strides=[1, 2], storage=6),
         lambda: exponential(F32, [3]),
         lambda: bernoulli(torch.bool, [9], 0.5))
    case("sequence_cache_across_dtypes", 92,
         lambda: normal(F64, [1], literal=True),
         lambda: normal(F32, [1], literal=True),
         lambda: normal(F16, [3], literal=True),
         lambda: normal(F32, [16], literal=True),
         lambda: normal(F32, [1], literal=True))

    # set_rng_state: a state saved by upstream (with a cached normal) restores its stream
    torch.manual_seed(101)
    torch.randn(3)
    saved = bytes(torch.get_rng_state().numpy().tobytes())
    torch.manual_seed(0)  # the C side starts from a different seed too
    case("set_state_restores_stream", 0,
         lambda: set_state(saved),
         lambda: normal(F32, [7], literal=True),
         lambda: uniform(F64, [5], literal=True))


# ---- emit ----

def c_double(x: float) -> str:
    return float(x).hex() if x == x else "NAN"


def c_int64(v: int) -> str:
    return "INT64_MIN" if v == INT64_MIN else f"INT64_C({v})"


def c_bytes(name: str, data: bytes) -> str:
    # a string literal of \xNN escapes, exactly len(data) bytes (C drops the NUL when full)
    if not data:
        return f"static const uint8_t {name}[1] = {{0}};\n"
    lines = []
    for i in range(0, len(data), 32):
        lines.append('    "' + "".join(f"\\x{b:02x}" for b in data[i:i + 32]) + '"')
    return f"static const uint8_t {name}[{len(data)}] =\n" + "\n".join(lines) + ";\n"


def emit():
    out = []
    out.append("/* @generated by tests/kernels/gen_random_golden.py from torch "
               f"{torch.__version__} (CPU capability {torch.backends.cpu.get_cpu_capability()},\n"
               " * default_* cases with ATEN_CPU_CAPABILITY=default)\n"
               " * Upstream outputs of seeded random ops for tests/kernels/test_random.c.\n"
               " * Do not edit. Regenerate: .venv-upstream/bin/python tests/kernels/gen_random_golden.py\n"
               " */\n")
    out.append("#ifndef TN_TESTS_RANDOM_GOLDEN_H\n#define TN_TESTS_RANDOM_GOLDEN_H\n\n#include <stdint.h>\n\n")
    out.append("enum {\n" + "".join(f"    {op},\n" for op in OPS) + "};\n\n")
    out.append("typedef struct {\n"
               "    int op;\n    int dtype;\n    int ndim;\n    int64_t sizes[3];\n    int64_t strides[3];\n"
               "    int64_t storage;   /* elements in the storage the view lives in */\n"
               "    int flag;          /* normal: is_contiguous; multinomial: replacement; bernoulli tensor: p dtype */\n"
               "    double a, b;       /* from/to, mean/std, p, lambda; multinomial: b = probs pattern */\n"
               "    int64_t i0;        /* from, randperm n, multinomial nsample */\n"
               "    uint64_t u0;       /* range (0 = 2^64) */\n"
               "    int64_t nbytes;    /* bytes of the storage image upstream left */\n"
               "    const uint8_t *bytes;  /* the image, or NULL when only the hash is kept */\n"
               "    uint64_t fnv;      /* FNV-1a 64 of the image */\n"
               "} golden_step;\n\n"
               "typedef struct {\n    const char *name;\n    uint64_t seed;\n    int nsteps;\n"
               "    const golden_step *steps;\n"
               "    int path;          /* TN_RANDOM_PATH_*: the upstream build that wrote it */\n"
               "} golden_case;\n\n")
    case_rows = []
    for ci, (name, seed, steps, path) in enumerate(CASES):
        rows = []
        for si, s in enumerate(steps):
            bname = "NULL"
            if s.full or len(s.data) <= FULL_BYTES_LIMIT:
                bname = f"golden_b{ci}_{si}"
                out.append(c_bytes(bname, s.data))
            nd = len(s.sizes)
            assert nd <= 3, name
            sz = (s.sizes + [0, 0, 0])[:3]
            st = (s.strides + [0, 0, 0])[:3]
            rows.append(
                f"    {{{s.op}, {DT[s.dtype]}, {nd}, {{{sz[0]}, {sz[1]}, {sz[2]}}}, "
                f"{{{st[0]}, {st[1]}, {st[2]}}}, {s.storage}, {s.flag}, {c_double(s.a)}, "
                f"{c_double(s.b)}, {c_int64(s.i0)}, UINT64_C({s.u0}), {len(s.data)}, {bname}, "
                f"UINT64_C(0x{fnv1a(s.data):016x})}},")
        out.append(f"static const golden_step golden_steps{ci}[] = {{\n" + "\n".join(rows) + "\n};\n\n")
        case_rows.append(f'    {{"{name}", UINT64_C({seed}), {len(steps)}, golden_steps{ci}, {path}}},')
    out.append("static const golden_case golden_cases[] = {\n" + "\n".join(case_rows) + "\n};\n\n")
    out.append(f"#define GOLDEN_NCASES {len(CASES)}\n\n#endif /* TN_TESTS_RANDOM_GOLDEN_H */\n")
    return "".join(out)


def default_cases():
    """Cases for upstream's DEFAULT build: run in a child with ATEN_CPU_CAPABILITY=default."""
    global PATH
    PATH = 0
    F16, BF16, F32, F64 = torch.float16, torch.bfloat16, torch.float32, torch.float64
    for n in (16, 17, 100):
        case(f"default_randn_f32_n{n}", 42, lambda n=n: normal(F32, [n], literal=True))
    for dt in (F32, F64, F16, BF16):
        name = str(dt).replace("torch.", "")
        case(f"default_normal_{name}_big", 23, lambda dt=dt: normal(dt, [100003], 0.25, 2.0))
        case(f"default_normal_{name}_scalar", 22, lambda dt=dt: normal(dt, [9], -2.0, 4.25))
        case(f"default_uniform_{name}_big", 12, lambda dt=dt: uniform(dt, [20000], -2.5, 1e3))
    case("default_sequence_mixed", 91,
         lambda: normal(F32, [5], literal=True),
         lambda: normal(F64, [3], 0.5, 3.0, literal=False),
         lambda: uniform(F32, [40], -1.0, 3.0),
         lambda: normal(F32, [20], 1.0, 0.5))


def main():
    if "--default-part" in sys.argv:
        torch.set_num_threads(1)
        default_cases()
        sys.stdout.buffer.write(pickle.dumps(CASES))
        return
    torch.set_num_threads(1)
    cases()
    env = dict(os.environ, ATEN_CPU_CAPABILITY="default")
    child = subprocess.run([sys.executable, os.path.abspath(__file__), "--default-part"],
                           env=env, check=True, capture_output=True)
    CASES.extend(pickle.loads(child.stdout))
    text = emit()
    with open(OUT, "w") as f:
        f.write(text)
    print(f"wrote {OUT}: {len(CASES)} cases, {len(text)} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
