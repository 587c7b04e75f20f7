"""Cooperative-groups collectives (issue 11): `warp_reduce` / `warp_scan` over warp tiles of
32 and 8 lanes and `block_reduce` / `block_scan` over a block of 3 warps, with every
operator of `cooperative_groups::ops` (Sum, Min, Max on u32, i32, f32; BitAnd, BitOr, BitXor
on u32). On the simulator against NumPy, through ptxas, and on the GPU."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from oxidec import driver
from oxidec.api import compile_source
from oxidec.diagnostics import CompileError, render_all

OPS = {"u32": ["Sum", "Min", "Max", "BitAnd", "BitOr", "BitXor"], "i32": ["Sum", "Min", "Max"],
       "f32": ["Sum", "Min", "Max"]}
BLOCK = 96


def source(t: str) -> str:
    calls = []
    for op in OPS[t]:
        calls += [f"warp_reduce::<{t}, {op}, _>(&w32, v)", f"warp_reduce::<{t}, {op}, 8>(&w8, v)",
                  f"warp_scan::<{t}, {op}, _>(&w32, v)", f"warp_scan::<{t}, {op}, _>(&w8, v)",
                  f"block_reduce::<{t}, {op}, _>(&block, v, &raw mut SMEM)",
                  f"block_scan::<{t}, {op}, _>(&block, v, &raw mut SMEM)"]
    body = "\n".join(f"    unsafe {{ *out.add(i * N + {k}) = {c}; }}\n    block.sync();"
                     for k, c in enumerate(calls))
    return f"""
use cuda_device::cooperative_groups::{{this_thread_block, warp_reduce, warp_scan, block_reduce,
                                       block_scan, ThreadGroup, ops::*}};
use cuda_device::{{SharedArray, kernel, thread}};
const N: usize = {len(calls)};

#[kernel]
pub unsafe fn collect(x: &[{t}], out: *mut {t}) {{
    static mut SMEM: SharedArray<{t}, 3> = SharedArray::UNINIT;
    let block = this_thread_block();
    let w32 = block.tiled_partition::<32>();
    let w8 = block.tiled_partition::<8>();
    let i = thread::index_1d().get();
    let v = x[i];
{body}
}}
"""


def combine(op, a, b, t):
    if op == "Sum":
        return a + b  # NumPy scalars: wraps (u32, i32) or rounds (f32)
    return {"Min": min, "Max": max, "BitAnd": lambda p, q: p & q,
            "BitOr": lambda p, q: p | q, "BitXor": lambda p, q: p ^ q}[op](a, b)


def expected(x, t):
    dt = np.float32 if t == "f32" else (np.uint32 if t == "u32" else np.int32)
    rows = np.zeros((x.size, 6 * len(OPS[t])), dt)
    with np.errstate(over="ignore"):
        vals = [dt(v) for v in x]
        for j, op in enumerate(OPS[t]):
            c = lambda a, b: dt(combine(op, a, b, t))  # noqa: E731 (wraps and rounds)
            def red(vs, c=c, op=op):
                vs = list(vs)
                off = len(vs) // 2
                while off:
                    vs = [c(vs[i], vs[i ^ off]) for i in range(len(vs))]
                    off //= 2
                return vs
            def scan(vs, c=c):
                vs = list(vs)
                d = 1
                while d < len(vs):
                    vs = [c(vs[i], vs[i - d]) if i >= d else vs[i] for i in range(len(vs))]
                    d *= 2
                return vs
            for b0 in range(0, x.size, BLOCK):
                blk = vals[b0:b0 + BLOCK]
                warps = [blk[w:w + 32] for w in range(0, BLOCK, 32)]
                wred = [red(w)[0] for w in warps]
                wscan = [scan(w) for w in warps]
                total = wred[0]
                for r in wred[1:]:
                    total = c(total, r)
                for k in range(BLOCK):
                    w, lane = divmod(k, 32)
                    t8 = warps[w][lane & ~7:(lane & ~7) + 8]
                    prefix = None
                    for q in range(w):
                        last = wscan[q][31]
                        prefix = last if prefix is None else c(prefix, last)
                    bscan = wscan[w][lane] if prefix is None else c(prefix, wscan[w][lane])
                    rows[b0 + k, 6 * j:6 * j + 6] = [red(warps[w])[lane], red(t8)[lane & 7],
                                                     wscan[w][lane], scan(t8)[lane & 7],
                                                     total, bscan]
    return rows


def run(device, rng, t, blocks=2):
    n = blocks * BLOCK
    if t == "f32":
        x = rng.standard_normal(n).astype(np.float32)
    elif t == "i32":
        x = rng.integers(-2**31, 2**31, n, dtype=np.int64).astype(np.int32)
    else:
        x = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    width = 6 * len(OPS[t])
    out = np.zeros(n * width, x.dtype)
    compile_source(source(t), "cg.rs").collect[(blocks,), (BLOCK,)](x, out, device=device)
    return out.reshape(n, width), expected(x, t)


@pytest.mark.parametrize("t", ["u32", "i32", "f32"])
def test_collectives_on_the_simulator(t, rng):
    got, want = run("sim", rng, t)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_collectives_assemble(arch, ptxas, tmp_path):
    for t in OPS:
        try:
            ptx = driver.compile_source(source(t), "cg.rs", driver.Options(arch=arch)).ptx
        except CompileError as err:
            raise AssertionError(render_all(err.diagnostics)) from None
        path = tmp_path / f"{t}.ptx"
        path.write_text(ptx)
        r = subprocess.run([ptxas, f"-arch={arch}", str(path), "-o", str(tmp_path / "c.cubin")],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr


def test_a_bit_operator_on_floats_is_an_error():
    src = source("f32").replace("warp_reduce::<f32, Sum, _>(&w32, v)",
                                "warp_reduce::<f32, BitXor, _>(&w32, v)", 1)
    with pytest.raises(CompileError) as err:
        driver.compile_source(src, "cg.rs", driver.Options())
    assert "`BitXor` is not a reduction operator of `f32`" in render_all(err.value.diagnostics)


@pytest.mark.gpu
@pytest.mark.parametrize("t", ["u32", "i32", "f32"])
def test_collectives_on_gpu(t, rng):
    got, want = run("gpu", rng, t, blocks=5)
    np.testing.assert_array_equal(got, want)
