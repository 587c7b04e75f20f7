"""NumPy references for the Hopper (sm_90) samples: thread-block clusters and TMA. They run
on the GPU only (the CPU simulator reports OX0030), so they are kept out of
reference.SAMPLES, whose every case also runs on the simulator; reference.MIN_ARCH names
the target they build for.

    from samples.hopper_reference import HOPPER_CASES
    for case in HOPPER_CASES:
        inputs = case.make_inputs(rng)
        grid, block = case.launch(inputs)
        module = compile_file(case.path, arch="sm_90")
        getattr(module, case.kernel)[grid, block](*case.args(inputs), device="gpu")
        case.assert_matches(inputs)
"""
from __future__ import annotations

import numpy as np

from .reference import KernelCase, _out, disjoint, rust_const, slice_

# --------------------------------------------------------------------------------------------
# cluster_reduce.rs: u32 sums of 4 blocks of 256 elements, one per cluster (wrapping)


def _cluster_reduce_make(rng: np.random.Generator, small: bool) -> dict:
    block = rust_const("cluster_reduce.rs", "BLOCK")
    per_cluster = block * rust_const("cluster_reduce.rs", "CLUSTER")
    clusters = int(rng.integers(3, 9)) if small else int(rng.integers(300, 600))
    # the last cluster is partly empty: its last block, or more, reads past the end of x
    n = clusters * per_cluster - int(rng.integers(1, per_cluster))
    x = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)  # sums wrap
    return {"x": x, "sums": _out(np.uint32, clusters)}


def _cluster_reduce_launch(inputs):
    block = rust_const("cluster_reduce.rs", "BLOCK")
    return (inputs["sums"].size * rust_const("cluster_reduce.rs", "CLUSTER"), 1, 1), \
        (block, 1, 1)


def _cluster_reduce_reference(inputs) -> dict:
    per_cluster = rust_const("cluster_reduce.rs", "BLOCK") * \
        rust_const("cluster_reduce.rs", "CLUSTER")
    x = inputs["x"].astype(np.uint64)
    padded = np.zeros(inputs["sums"].size * per_cluster, np.uint64)
    padded[:x.size] = x
    sums = padded.reshape(-1, per_cluster).sum(axis=1) % (1 << 32)
    return {"sums": sums.astype(np.uint32)}


CLUSTER_REDUCE = KernelCase(
    "cluster_reduce", "cluster_reduce", (slice_("x", np.uint32), disjoint("sums", np.uint32)),
    _cluster_reduce_make, _cluster_reduce_launch, _cluster_reduce_reference,
    notes="one u32 sum per cluster of 4 blocks, added through distributed shared memory")

HOPPER_CASES: list[KernelCase] = [CLUSTER_REDUCE]


# --------------------------------------------------------------------------------------------
# tma_copy.rs: dst = src * scale, box by box through shared memory. Its tensors are passed as
# TMA descriptors (oxidec.runtime.tma.TensorMap), which KernelCase's parameter kinds do not
# describe, so it has plain functions: inputs, launch, reference.


def tma_copy_inputs(rng: np.random.Generator) -> dict:
    """A float32 matrix whose sides are not multiples of the box (edge boxes are clipped),
    rows of a multiple of 16 bytes (TMA's strides), a poisoned output, a scale."""
    rows = int(rng.integers(70, 300))
    cols = 4 * int(rng.integers(20, 150))
    rows += rows % rust_const("tma_copy.rs", "BOX_ROWS") == 0
    cols += 4 * (cols % rust_const("tma_copy.rs", "BOX_COLS") == 0)
    src = rng.uniform(-4, 4, (rows, cols)).astype(np.float32)
    return {"src": src, "dst": np.full((rows, cols), np.nan, np.float32),
            "scale": np.float32(rng.uniform(0.5, 3.0))}


def tma_copy_box() -> tuple[int, int]:
    return rust_const("tma_copy.rs", "BOX_ROWS"), rust_const("tma_copy.rs", "BOX_COLS")


def tma_copy_launch(inputs) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    rows, cols = inputs["src"].shape
    box_rows, box_cols = tma_copy_box()
    grid = (-(-cols // box_cols), -(-rows // box_rows), 1)
    return grid, (rust_const("tma_copy.rs", "THREADS"), 1, 1)


def tma_copy_reference(inputs) -> np.ndarray:
    return inputs["src"] * inputs["scale"]  # one float32 rounding, as mul.rn.f32
