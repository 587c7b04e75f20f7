"""Loop-carried bools kept in integer registers (passes/loop_bools.py), the workaround for a
ptxas fault: a predicate tested before a loop and flipped inside it, in a loop holding a
subroutine call (f64 division), was taken as constant inside the loop (oracle program
p40533; tests/oracle/open/ptxas_loop_pred.ptx is the PTX reproducer).

The kernel below is that shape. Its result is computed here in Python for random inputs
and compared with the simulator and, on a GPU, with the hardware."""
from __future__ import annotations

import struct

import numpy as np
import pytest

from oxidec import api, driver
from oxidec.mir.syntax import Assign, BinaryOp, Cast
from oxidec.types import U32

BIG = 378022420951.79596

SOURCE = f"""
use cuda_device::{{cuda_module, kernel, thread, DisjointSlice}};
#[cuda_module]
mod kernels {{
    use super::*;
    #[kernel]
    pub fn flip(inp: &[u64], mut out: DisjointSlice<u64>) {{
        let idx = thread::index_1d();
        let k = idx.get();
        let mut acc = 0u64;
        let mut x: bool = (inp[4 * k] & 1) != 0;
        let start = inp[4 * k + 1] as i64 % 4;
        let d = inp[4 * k + 2] as f64;
        if x {{
            for _j in start..3 {{
                x = !x;
                acc ^= ((if x {{ {BIG}f64 }} else {{ 1.0f64 }}) / d).to_bits();
            }}
        }}
        acc ^= x as u64;
        if let Some(o) = out.get_mut(idx) {{
            *o = acc;
        }}
    }}
}}
"""


def reference(inp: np.ndarray) -> np.ndarray:
    out = []
    for k in range(len(inp) // 4):
        x = bool(inp[4 * k] & 1)
        s = int(inp[4 * k + 1].astype(np.int64))
        start = abs(s) % 4 * (1 if s >= 0 else -1)  # Rust's `%` truncates toward zero
        d = float(inp[4 * k + 2])
        acc = 0
        if x:
            for _ in range(start, 3):
                x = not x
                acc ^= struct.unpack("<Q", struct.pack("<d", (BIG if x else 1.0) / d))[0]
        out.append(acc ^ int(x))
    return np.array(out, dtype=np.uint64)


def inputs(rng, n: int) -> np.ndarray:
    inp = rng.integers(0, 2 ** 63, size=4 * n, dtype=np.uint64)
    inp[0::4] |= 1  # x starts true (the branch around the loop is taken) ...
    inp[4::8] &= ~np.uint64(1)  # ... except in every other thread
    inp[1::4] = rng.integers(-7, 8, size=n).astype(np.int64).view(np.uint64)
    inp[2::4] = rng.integers(1, 1000, size=n, dtype=np.uint64)
    return inp


def test_loop_bool_gets_an_integer_home():
    comp = driver.compile_source(SOURCE, "flip.rs", driver.Options(arch="sm_90"))
    body = next(b for b in comp.program.bodies if b.name == "flip")
    homes = [i for i, d in enumerate(body.locals) if d.name == "x" and d.ty == U32]
    assert homes, "the loop-carried bool `x` has no u32 home"
    home = homes[0]
    writes = [s for bb in body.blocks for s in bb.statements
              if isinstance(s, Assign) and s.place.local == home]
    assert any(isinstance(s.rvalue, Cast) for s in writes)  # x = !x -> home = tmp as u32
    tests = [s for bb in body.blocks for s in bb.statements
             if isinstance(s, Assign) and isinstance(s.rvalue, BinaryOp)
             and s.rvalue.op == "ne" and getattr(s.rvalue.lhs, "place", None) is not None
             and s.rvalue.lhs.place.local == home]
    assert len(tests) >= 2  # the test in the loop and the read after it
    assert "setp.ne.u32" in comp.ptx


def test_loop_bool_only_for_variables_carried_in_loops():
    src = SOURCE.replace("x = !x;", "let y = !x; acc ^= y as u64;")
    comp = driver.compile_source(src, "f.rs", driver.Options(arch="sm_90"))
    body = next(b for b in comp.program.bodies
                if b.name == "flip")
    assert not [d for d in body.locals if d.name == "x" and d.ty == U32]


@pytest.mark.parametrize("device", ["sim", pytest.param("gpu", marks=pytest.mark.gpu)])
def test_loop_bool_flip(device, rng):
    mod = api.compile_source(SOURCE, "flip.rs", arch="sm_90")
    n = 64
    inp = inputs(rng, n)
    out = np.full(n, 0xDEADBEEFDEADBEEF, dtype=np.uint64)
    mod.flip.launch(1, n, inp, out, device=device)
    np.testing.assert_array_equal(out, reference(inp))
