"""If-conversion of short branches around global loads (oxidec/ptx/predicate.py): the loads
become guarded instructions that ptxas can issue together, instead of one memory latency
per branch. The simulator runs the MIR (unchanged), so results are the branch's by
construction; these tests pin the PTX shape and that it assembles."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from oxidec import driver
from oxidec.ptx.predicate import speculate, unguardable

ROOT = Path(__file__).resolve().parents[2]


def ptx_of(source: str | Path, arch: str = "sm_90") -> str:
    opts = driver.Options(arch=arch, line_info=False, index32=False)
    if isinstance(source, Path):
        return driver.compile_file(source, opts).ptx
    return driver.compile_source(source, "k.rs", opts).ptx


def instructions(ptx: str) -> list[str]:
    return [line.strip() for line in ptx.splitlines()
            if line.startswith("\t") and not line.strip().startswith(("//", ".", "{", "}"))]


def assemble(ptxas, tmp_path: Path, ptx: str) -> None:
    for arch in ("sm_80", "sm_90"):
        src = tmp_path / f"{arch}.ptx"
        src.write_text(re.sub(r"\.target sm_\d+", f".target {arch}", ptx))
        run = subprocess.run([ptxas, f"-arch={arch}", str(src), "-o", str(tmp_path / "o")],
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stderr


def test_stencil_halo_loads_are_guarded_not_branched_around(ptxas, tmp_path) -> None:
    ptx = ptx_of(ROOT / "samples" / "stencil.rs")
    assemble(ptxas, tmp_path, ptx)
    body = instructions(ptx)
    barrier = body.index("bar.sync \t0;") if "bar.sync \t0;" in body else \
        next(i for i, x in enumerate(body) if x.startswith("bar.sync"))
    first = next(i for i, x in enumerate(body) if "ld.global" in x)
    before = body[first:barrier]
    loads = [x for x in before if "ld.global" in x]
    # the centre and the four halo cells: each behind its guard, no branch between them
    assert len(loads) == 5, loads
    assert all(re.match(r"@%p\d+ ld\.global\.nc\.f32", x) for x in loads), loads
    assert not [x for x in before if re.search(r"\bbra\b", x)], before
    # the shared stores of the halo are guarded by the region's predicates too
    stores = [x for x in before if "st.shared" in x]
    assert len(stores) == 5 and sum(x.startswith("@%p") for x in stores) == 4, stores
    # the address arithmetic under the guards was speculated (single assignment, pure)
    assert not [x for x in before if re.match(r"@%p\d+ (mul|add|shl)\.", x)], before


LONE_IF = """
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let t = thread::index_1d();
    let i = t.get();
    if let Some(o) = out.get_mut(t) {
        if i + 1 < x.len() { *o = x[i] + x[i + 1]; }
    }
}
"""


def test_a_kernel_that_is_one_if_keeps_its_branch() -> None:
    # nothing outside the `if` loads: nothing for the region's loads to overlap with
    ptx = ptx_of(LONE_IF)
    assert not [x for x in instructions(ptx) if re.match(r"@%p\d+ ld\.global", x)]
    assert re.search(r"@!?%p\d+ bra", ptx)


DIAMOND = """
#[kernel]
pub fn k(x: &[f32], y: &[f32], mut out: DisjointSlice<f32>, n: usize) {
    let t = thread::index_1d();
    let i = t.get();
    let a = if i < x.len() { x[i] } else { 1.0 };
    let b = if i < y.len() { y[i] * 2.0 } else { a * n as f32 };
    if let Some(o) = out.get_mut(t) {
        *o = a + b;
    }
}
"""


def test_diamonds_and_merges(ptxas, tmp_path) -> None:
    ptx = ptx_of(DIAMOND)
    assemble(ptxas, tmp_path, ptx)
    body = instructions(ptx)
    guarded = [x for x in body if re.match(r"@%p\d+ ld\.global\.nc\.f32", x)]
    assert len(guarded) == 2, body
    # each side's value is written under the negation of the other's guard
    assert any(re.match(r"@%p\d+ mov\.f32\s+%f\d+, 0f3F800000", x) for x in body), body
    assert any(x.startswith("not.pred") for x in body)


def test_unguardable_lines() -> None:
    assert unguardable("\tbar.sync \t0;")
    assert unguardable("\tshfl.sync.bfly.b32 \t%r1, %r2, 1, 31, -1;")
    assert unguardable("\t@%p1 bra \t$L__BB0_3;")
    assert unguardable("$L__BB0_3:")
    assert not unguardable("\tld.global.nc.f32 \t%f1, [%rd1];")
    assert not unguardable("\t// assert: index out of bounds")


def test_speculation_keeps_guards_on_effects_and_reassigned_registers() -> None:
    lines = ["\tmov.f32 \t%f1, 0f00000000;",
             "\t@%p1 add.s64 \t%rd2, %rd1, 4;",       # single assignment, pure: unguarded
             "\t@%p1 ld.global.nc.f32 \t%f1, [%rd2];",  # a load: keeps its guard
             "\t@%p1 st.shared.f32 \t[%rd3], %f1;",     # a store: keeps its guard
             "\t@%p2 mov.f32 \t%f1, 0f3F800000;"]       # %f1 written three times
    speculate(lines, [1, 2, 3, 4])
    assert lines[1] == "\tadd.s64 \t%rd2, %rd1, 4;"
    assert lines[2].startswith("\t@%p1 ld.global")
    assert lines[3].startswith("\t@%p1 st.shared")
    assert lines[4].startswith("\t@%p2 mov.f32")


def test_transpose_reads_its_tile_in_one_go() -> None:
    # the four guarded (tile -> out) copies after the barrier: their shared loads guarded,
    # not each behind a branch, so the four LDS latencies overlap
    body = instructions(ptx_of(ROOT / "samples" / "transpose.rs"))
    after = body[next(i for i, x in enumerate(body) if x.startswith("bar.sync")):]
    assert len([x for x in after if re.match(r"@%p\d+ ld\.shared\.f32", x)]) == 4, after
    assert len([x for x in after if re.match(r"@%p\d+ st\.global\.f32", x)]) == 4, after


def test_tree_steps_a_barrier_apart_keep_their_branches() -> None:
    # reduce's `if tid < s { sdata[tid] += sdata[tid + s] }` steps: one region between two
    # barriers, nothing to overlap with
    body = instructions(ptx_of(ROOT / "samples" / "reduce.rs"))
    assert not [x for x in body if re.match(r"@%p\d+ ld\.shared", x)], body


def test_regions_in_loops_are_left_to_ptxas() -> None:
    # matmul_tiled's tile loads sit in the k loop: ptxas if-converts them itself, and our
    # guards cost two instructions per trip there
    ptx = ptx_of(ROOT / "samples" / "matmul_tiled.rs")
    assert not [x for x in instructions(ptx) if re.match(r"@%p\d+ ld\.global", x)]


REASSIGNED = """
#[kernel]
pub fn k(x: &[f32], y: &[f32], mut out: DisjointSlice<f32>) {
    let t = thread::index_1d();
    let i = t.get();
    let mut a = 0.0f32;
    if i < x.len() {
        if i < y.len() { a = x[i] + y[i]; } else { a = x[i] * 3.0; }
        a += 1.0;
    }
    let mut c = i < y.len();
    if c {
        a += y[i];
        c = a > 2.0;
    }
    if c { a = a * a; }
    if let Some(o) = out.get_mut(t) { *o = a; }
}
"""


def test_merges_and_a_condition_reassigned_inside_its_region(ptxas, tmp_path) -> None:
    ptx = ptx_of(REASSIGNED)
    assemble(ptxas, tmp_path, ptx)
    body = instructions(ptx)
    # the two sides of the inner `if` meet: `a += 1.0` runs under their disjunction
    merge = next(x for x in body if x.startswith("or.pred"))
    merged = merge.split()[1].rstrip(",")
    assert any(x.startswith(f"@{merged} add.rn.f32") for x in body), body
    # `c = a > 2.0` inside `if c`: the region's guard is a copy of c taken at its entry,
    # so the reassignment does not change which of the region's instructions run
    setp = next(x for x in body if re.match(r"@%p\d+ setp\.gt\.f32", x))
    guard, dest = setp.split()[0][1:], setp.split()[2].rstrip(",")
    assert guard != dest
    copy = next(x for x in body if x.startswith(f"mov.pred \t{guard},"))
    assert copy.split()[-1].rstrip(";") == dest


@pytest.mark.gpu
@pytest.mark.parametrize("source", [DIAMOND, REASSIGNED], ids=["diamond", "reassigned"])
def test_predicated_regions_run_as_the_branches_do(source: str, rng) -> None:
    # lengths that leave threads on every side of each guard; the simulator runs the MIR's
    # branches, the GPU the guarded PTX: the results must be the same bits
    from oxidec import api
    module = api.compile_source(source, "k.rs")
    n = 1000
    x = rng.standard_normal(n - 91).astype(np.float32)
    y = rng.standard_normal(n - 357).astype(np.float32) + np.float32(1.5)
    args = (x, y)
    outs = {}
    for device in ("sim", "gpu"):
        out = np.full(n, np.nan, np.float32)
        extra = (np.uint64(n - 200),) if source is DIAMOND else ()
        module.k[((n + 127) // 128, 1, 1), (128, 1, 1)](*args, out, *extra, device=device)
        outs[device] = out
    assert not np.isnan(outs["sim"]).any()
    assert np.array_equal(outs["sim"].view(np.uint32), outs["gpu"].view(np.uint32))


@pytest.mark.gpu
def test_stencil_and_transpose_on_the_gpu_match_the_simulator(rng) -> None:
    from oxidec import api
    rows, cols = 75, 53  # not multiples of the tiles: edge blocks take every guard's sides
    u = rng.uniform(-10, 10, rows * cols).astype(np.float32)
    stencil = api.compile_file(ROOT / "samples" / "stencil.rs")
    transpose = api.compile_file(ROOT / "samples" / "transpose.rs")
    got = {}
    for device in ("sim", "gpu"):
        out = np.full(rows * cols, np.nan, np.float32)
        stencil.stencil5[((cols + 15) // 16, (rows + 15) // 16, 1), (16, 16, 1)](
            u, out, np.uint64(rows), np.uint64(cols), np.float32(0.5), np.float32(0.125),
            device=device)
        t = np.full(rows * cols, np.nan, np.float32)
        transpose.transpose[((cols + 31) // 32, (rows + 31) // 32, 1), (32, 8, 1)](
            u, t, np.uint64(rows), np.uint64(cols), device=device)
        got[device] = (out, t)
    for a, b in zip(got["sim"], got["gpu"]):
        assert not np.isnan(a).any()
        assert np.array_equal(a.view(np.uint32), b.view(np.uint32))
    assert np.array_equal(got["sim"][1].reshape(cols, rows), u.reshape(rows, cols).T)
