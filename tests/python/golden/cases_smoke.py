"""A few cases that exercise the harness itself (every comparison kind)."""
CASES = {
    "add_broadcast": "out = arange(2, 3) + arange(3)",
    "sum_dim": "out = arange(2, 3).sum(1)",
    "softmax": {"code": "out = torch.softmax(randn(4, 5), -1)", "tol": "derived"},
    "view_strides": "out = arange(2, 3, 4).permute(2, 0, 1)[1:]",
    "max_structseq": "out = arange(2, 3).max(1)",
    "randn_seeded": "out = torch.randn(5, generator=gen(1))",
    "shape_error": "out = arange(2, 3) + arange(4)",
}
