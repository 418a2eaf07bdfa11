"""Gradients of the indexing ops (ops/index_backward.c): embedding_dense_backward and the
embedding_backward composite. grad_weight rows are summed row by row in index order through the
add kernel, as upstream does: exact in every dtype."""
CASES = {}
A = "torch.ops.aten"
G = "make((2, 3, 5), torch.{dt}, seed=1)"
I = "literal([[0, 2, 2], [5, 0, 2]], torch.int64)"


def emb(name, g=G, i=I, nw=6, pad=-1, freq=False, dt="float32", fn="embedding_dense_backward", extra=""):
    CASES[f"{fn}/{name}"] = f"out = {A}.{fn}({g}, {i}, {nw}, {pad}, {freq}{extra})".format(dt=dt)


for fn, extra in (("embedding_dense_backward", ""), ("embedding_backward", ", False")):
    emb("plain", fn=fn, extra=extra)
    emb("padding", pad=2, fn=fn, extra=extra)
    emb("scale_grad_by_freq", freq=True, fn=fn, extra=extra)
    emb("freq_and_padding", freq=True, pad=0, fn=fn, extra=extra)
for dt in ("float64", "bfloat16", "float16", "int64"):
    emb(dt, dt=dt, freq=dt != "int64")
emb("int32_indices", i="literal([[0, 2, 2], [5, 0, 2]], torch.int32)")
emb("float_indices", i="literal([[0.0, 2.0, 2.0], [5.0, 0.0, 2.0]])")
emb("noncontig_grad", g="make((2, 3, 5), torch.float32, seed=1, layout='slice')")
emb("noncontig_indices", i="literal([[0, 5], [2, 0], [2, 2]], torch.int64).t()")
emb("1d", g="make((4, 3), torch.float32, seed=1)", i="literal([1, 1, 1, 3], torch.int64)", freq=True)
emb("wide_rows_bf16", g="make((6, 40), torch.bfloat16, seed=1)", i="literal([0, 1, 0, 0, 2, 0], torch.int64)", freq=True)
emb("out_of_range_ignored", i="literal([[0, 2, 9], [5, -1, 2]], torch.int64)")
emb("bad_shape", g="make((2, 4, 5), torch.float32, seed=1)")
emb("0dim_grad", g="literal(1.0)", i="literal([0], torch.int64)")
emb("empty", g="make((0, 5), torch.float32, seed=1)", i="literal([], torch.int64)")
emb("no_weights", nw=0, i="literal([[0, 2, 2], [5, 0, 2]], torch.int64) * 0 - 1")
emb("sparse_float_indices", fn="embedding_backward", g="make((6, 5), torch.float32, seed=1)",
    i="literal([0.0, 2.0])", extra=", True")
# a sparse gradient: refused by name (the harness reads upstream's answer as its layout)
CASES["embedding_backward/sparse"] = (
    f"r = {A}.embedding_backward(make((6, 5), torch.float32, seed=1), literal([0, 2, 2, 5, 0, 2], torch.int64), 6, "
    "-1, False, True); out = str(r.layout)")
CASES["embedding_dense_backward/out"] = (
    f"o = torch.empty(0); r = {A}.embedding_dense_backward.out({G}, {I}, 6, -1, False, out=o); out = (o, r)"
    .format(dt="float32"))
# the gradient upstream's autograd computes for F.embedding
CASES["embedding_dense_backward/of_embedding"] = (
    "w = make((7, 4), torch.float32, seed=3); idx = literal([[1, 2, 1], [6, 1, 0]], torch.int64); "
    f"out = {A}.embedding_dense_backward(make((2, 3, 4), torch.float32, seed=4), idx, 7, 1, False)")
