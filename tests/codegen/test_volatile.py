"""`read_volatile`/`write_volatile` are MIR accesses no pass removes, merges, hoists or
reorders (the `volatile_load` intrinsic, the `volatile_store` effect), emitted as
`ld.volatile`/`st.volatile` in the pointer's state space: a spin loop that reads a flag
twice per iteration keeps both reads, inside the loop, after every pass; an unused
volatile read stays; the PTX assembles for sm_80 and sm_90.
"""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from oxidec import driver
from oxidec.mir.pretty import pretty_program

SPIN = """
use cuda_device::{kernel, thread, DisjointSlice};
#[kernel]
pub unsafe fn spin(flag: *const u32, cell: *mut u32, mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let mut n = 0u32;
    loop {
        let a = flag.READ();
        let b = core::ptr::READ(flag);
        n += 1;
        if a == b { break; }
    }
    flag.READ();
    cell.WRITE(n);
    core::ptr::WRITE(cell, n + 1);
    if let Some(o) = out.get_mut(idx) { *o = n; }
}
"""


def source(volatile: bool = True) -> str:
    r, w = ("read_volatile", "write_volatile") if volatile else ("read", "write")
    return SPIN.replace("READ", r).replace("WRITE", w)


def loop_body(ptx: str) -> list[str]:
    """The lines from the loop's label to the branch back to it."""
    lines = ptx.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"(\$L__BB\d+_\d+):", line.strip())
        if not m:
            continue
        for j in range(i + 1, len(lines)):
            if lines[j].strip().endswith(f"bra \t{m.group(1)};") or \
                    re.search(rf"bra\s+{re.escape(m.group(1))};", lines[j]):
                return lines[i:j + 1]
    return []


def test_volatile_reads_survive_every_pass() -> None:
    comp = driver.compile_source(source(), "spin.rs", driver.Options(stop="mir-opt", index32=False))
    text = pretty_program(comp.program)
    assert text.count("@volatile_load(") == 3, text  # two in the loop, one unused after it
    assert text.count("volatile_store(") == 2, text


def test_volatile_reads_stay_two_loads_in_the_loop() -> None:
    ptx = driver.compile_source(source(), "spin.rs", driver.Options(index32=False)).ptx
    body = loop_body(ptx)
    assert body, ptx
    loads = [ln for ln in body if "ld.volatile.global.u32" in ln]
    assert len(loads) == 2, "\n".join(body)
    assert ptx.count("ld.volatile.global.u32") == 3  # the unused read after the loop too
    assert ptx.count("st.volatile.global.u32") == 2
    assert "ld.global.nc" not in "\n".join(body)


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="needs ptxas")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_volatile_ptx_assembles(arch: str, tmp_path) -> None:
    ptx = tmp_path / "spin.ptx"
    ptx.write_text(driver.compile_source(source(), "spin.rs", driver.Options(arch=arch)).ptx)
    proc = subprocess.run(["ptxas", f"-arch={arch}", str(ptx), "-o", str(tmp_path / "s.cubin")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_plain_reads_are_not_volatile() -> None:
    ptx = driver.compile_source(source(volatile=False), "spin.rs",
                                driver.Options(index32=False)).ptx
    assert ".volatile" not in ptx
