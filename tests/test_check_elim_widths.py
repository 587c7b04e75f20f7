"""check_elim's value ranges respect the width an operation wraps at (oracle seed 41434):
`0u8 < (!7u8).wrapping_mul(64)` is false (248 * 64 wraps to 0 in u8), so the branch on it
must stay, at -O2 as at -O0. Before the fix the range of the u8 product was taken as
[15872, 15872], 'well inside any type', and the comparison was folded to true."""
import numpy as np
import pytest

from oxidec.api import compile_source

SRC = """
use cuda_device::{kernel, thread, DisjointSlice};
#[kernel]
pub fn k(inp: &[u32], mut out: DisjointSlice<u32>) {
    let i = thread::index_1d();
    let mut flags = inp[0];
    if 0u8 < (!7u8).wrapping_mul((if true { 4u8 } else { 16u8 }) * 16u8) { flags |= 1; }
    if 0u16 < (0x8000u16).wrapping_add(if true { 0x8000u16 } else { 1u16 }) { flags |= 2; }
    if 0u32 < (0x8000_0000u32).wrapping_mul(if true { 2u32 } else { 1u32 }) { flags |= 4; }
    if (64i8).wrapping_add(if true { 64i8 } else { 1i8 }) < 0 { flags |= 8; }
    if let Some(o) = out.get_mut(i) { *o = flags; }
}
"""


@pytest.mark.parametrize("opt", [0, 2])
def test_narrow_wrapping_arithmetic_is_not_folded(opt, rng):
    m = compile_source(SRC, "w.rs", opt_level=opt)
    inp = (rng.integers(0, 1 << 20, 1, dtype=np.uint32) << 4).astype(np.uint32)
    out = np.full(4, 0xDEAD, np.uint32)
    m.k[(1,), (4,)](inp, out, device="sim")
    # u8: 248 * 64 = 0 (mod 256): no 1; u16: 0x8000 + 0x8000 = 0: no 2;
    # u32: 0x8000_0000 * 2 = 0: no 4; i8: 64 + 64 = -128 < 0: 8
    assert (out == (inp[0] | 8)).all(), out
