"""If-conversion of short branches around global loads (oxidec/ptx/predicate.py): the loads
become guarded instructions that ptxas can issue together, instead of one memory latency
per branch. The simulator runs the MIR (unchanged), so results are the branch's by
construction; these tests pin the PTX shape and that it assembles."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from oxidec import driver
from oxidec.ptx.predicate import speculate, unguardable

ROOT = Path(__file__).resolve().parents[2]


def ptx_of(source: str | Path, arch: str = "sm_90") -> str:
    opts = driver.Options(arch=arch, line_info=False)
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
    let b = if i < n && i < y.len() { y[i] * 2.0 } else { a };
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


def test_regions_in_loops_are_left_to_ptxas() -> None:
    # matmul_tiled's tile loads sit in the k loop: ptxas if-converts them itself, and our
    # guards cost two instructions per trip there
    ptx = ptx_of(ROOT / "samples" / "matmul_tiled.rs")
    assert not [x for x in instructions(ptx) if re.match(r"@%p\d+ ld\.global", x)]
