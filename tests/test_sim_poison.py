"""The simulator's locals start as poison (every byte 0xA5), not as zero: a read of a local
that nothing wrote (a lowering bug) must show in the outputs, as garbage does on the GPU,
instead of passing as 0 -- how the `ok_or` argument bug of issue 15 hid from the rustc oracle."""
import dataclasses

import numpy as np
import pytest

from oxidec.api import compile_source
from oxidec.mir import syntax as M

SRC = """
use cuda_device::{kernel, thread, DisjointSlice};
#[kernel]
pub fn k(a: &[T], mut out: DisjointSlice<T>) {
    let i = thread::index_1d();
    let x: T = a[i.get()] + (7 as T);
    if let Some(o) = out.get_mut(i) { *o = x; }
}
"""


def drop_the_write_of_x(m) -> None:
    """Remove the MIR statement that writes `x` (the `let` on line 6), as a lowering bug would."""
    body = m.program.bodies[0]
    for block in body.blocks:
        keep = [s for s in block.statements
                if not (isinstance(s, M.Assign) and s.span.line == 6 and s.span.col == 5)]
        if len(keep) != len(block.statements):
            if isinstance(block.statements, list):
                block.statements[:] = keep
            else:
                object.__setattr__(block, "statements", tuple(keep))
            return
    raise AssertionError("no write of `x` found")


@pytest.mark.parametrize("ty, dtype", [("u32", np.uint32), ("f32", np.float32), ("u64", np.uint64)])
def test_an_unwritten_local_reads_as_poison(ty, dtype, rng):
    m = compile_source(SRC.replace("T", ty), "p.rs", opt_level=0)
    a = rng.integers(1, 100, 64).astype(dtype)
    out = np.full(40, 3, dtype)
    m.k[(2,), (32,)](a, out, device="sim")
    np.testing.assert_array_equal(out, a[:40] + 7)  # intact, it runs
    drop_the_write_of_x(m)
    m.k[(2,), (32,)](a, out, device="sim")
    bits = out.view({4: np.uint32, 8: np.uint64}[out.itemsize])
    assert (bits == int("A5" * out.itemsize, 16)).all(), bits[:4]
