"""Regression tests for Rust's evaluation order (issue 15), found by the differential oracle:
each kernel is run on oxidec's simulator and, compiled by rustc against the mock API, on the
CPU; the outputs must be equal bit for bit. Each case fails if oxidec reads a variable after
a later operand (or the loop body) changed it.
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import rustrun  # noqa: E402
import simrun  # noqa: E402

OUTPUTS = 4

HEAD = """use cuda_device::{cuda_module, device, kernel, thread, DisjointSlice};
#[cuda_module]
mod kernels {
    use super::*;
    #[derive(Clone, Copy)]
    struct P { a: u32, b: u32 }
    #[device]
    fn pair(x: u32, y: u32) -> u32 { x.wrapping_mul(1000).wrapping_add(y) }
    #[kernel]
    pub fn k0(inp: &[u64], mut out: DisjointSlice<u64>) {
        let idx = thread::index_1d();
        let t = idx.get();
        let mut res = [0u64; 4];
        let mut v = inp[0] as u32;
        let mut n = (inp[1] % 7) as u32 + 2;
        let mut s = (inp[2] % 3) as usize + 1;
"""
TAIL = """
        if let Some(o) = out.get_mut(idx) {
            *o = res[t];
        }
    }
}
"""

CASES = {
    # `for j in lo..n` evaluates the range once: the body's `n = 1` does not end the loop
    "range_bound": "let mut c = 0u32; for j in 0..n { n = 1; c += j + 1; } res[0] = c as u64;"
                   " res[1] = n as u64;",
    "range_lo_bound": "let mut c = 0u32; for j in v % 3..n { v = 0; n = 0; c = c * 7 + j; }"
                      " res[0] = c as u64; res[1] = v as u64;",
    # `step_by(s)` evaluates s once
    "step_by": "let mut c = 0usize; for j in (0..20usize).step_by(s) { s = 7; c = c * 3 + j; }"
               " res[0] = c as u64; res[1] = s as u64;",
    # `for e in arr` walks the array as it was when the loop started
    "array_loop": "let mut a = [v, v ^ 1, v ^ 2, v ^ 3]; let mut c = 0u32;"
                  " for e in a { a[3] = 99; a[2] = 98; c = c.wrapping_mul(31) ^ e; }"
                  " res[0] = c as u64; res[1] = a[3] as u64;",
    # binary operands left to right, each fixed when evaluated
    "binary_lhs": "res[0] = (v + { v += 10; v }) as u64; res[1] = (v * { v = 3; v }) as u64;",
    "compound_rhs_first": "v += { v = v.wrapping_mul(5); v }; res[0] = v as u64;",
    "call_args": "res[0] = pair(v, { v += 1; v }) as u64; res[1] = pair(n, { n = 7; n }) as u64;",
    "method_receiver": "res[0] = v.wrapping_sub({ v = 5; v }) as u64;"
                       " res[1] = n.max({ n = 0; n }) as u64;",
    "tuple_elems": "let p = (v, { v = v ^ 0xff; v }); res[0] = p.0 as u64; res[1] = p.1 as u64;",
    "array_elems": "let a = [v, { v += 1; v }, v]; res[0] = a[0] as u64; res[1] = a[1] as u64;"
                   " res[2] = a[2] as u64;",
    "struct_fields": "let p = P { b: v, a: { v = 1; v } }; res[0] = p.a as u64;"
                     " res[1] = p.b as u64;",
    "index_operand": "let mut a = [v, n, 3, 4]; res[0] = (a[1] + { a[1] = 50; a[1] }) as u64;",
}


@pytest.fixture(scope="module")
def rust_results():
    if not shutil.which(rustrun.rustc()):
        pytest.skip("rustc not found")
    return {}


@pytest.mark.parametrize("case", sorted(CASES))
def test_eval_order_matches_rustc(case, rng, rust_results):
    inputs = [int(w) for w in rng.integers(1, 2**63, size=3, dtype="u8")]
    source = HEAD + "        " + CASES[case] + TAIL
    rust, rejected = rustrun.run_programs({"p0": (source, inputs)}, OUTPUTS)
    assert not rejected, rejected
    assert rust["p0"].outputs is not None, "the Rust program panicked"
    sim = simrun.run_source(source, inputs, OUTPUTS, opt_level=2)
    assert sim.status == "ok", sim.detail
    assert sim.outputs == rust["p0"].outputs, f"{case}: rustc {rust['p0'].outputs} oxidec {sim.outputs}"
    sim0 = simrun.run_source(source, inputs, OUTPUTS, opt_level=0)
    assert sim0.outputs == rust["p0"].outputs, f"{case} at -O0"
