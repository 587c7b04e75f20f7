"""No PTX register is read that nothing writes. The simulator reads an unwritten MIR local as
zero, the GPU reads whatever the register holds: such a read makes the two disagree (the
`ok_or(e)` argument, lowered after the branch into an unreachable block, gave `safe_ratio`
the wrong error on the H200 while the simulator and rustc agreed).

Checked at -O2 only: at -O0 copying a whole `None` or `Err` also copies its unused payload
registers, a harmless read of an unwritten register this check cannot tell apart."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from oxidec import driver
from samples.reference import MIN_ARCH

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.rs"))
SPECIAL = re.compile(r"%(tid|ntid|ctaid|nctaid|laneid|warpid|nwarpid|smid|nsmid|gridid|clock"
                     r"|globaltimer|lanemask|dynamic_smem|total_smem|cluster|is_explicit|envreg"
                     r"|pm|aggr|reserved|SP|SPL)")


def unwritten_reads(ptx: str) -> dict[str, list[str]]:
    """Per function: registers read by some instruction but written by none."""
    found = {}
    for m in re.finditer(r"\.(?:entry|func)\s+(?:\([^)]*\)\s*)?(\w+)\s*\((.*?)\n\)\s*\n\{(.*?)\n\}",
                         ptx, re.S):
        name, body = m.group(1), m.group(3)
        written, read = set(), {}
        for line in body.splitlines():
            s = re.sub(r"^@!?%p\d+\s+", "", line.strip())
            if not s or s.startswith(("//", ".", "$", "{", "}")):
                continue
            op, _, args = s.rstrip(";").partition(" ")
            regs = re.findall(r"%[a-zA-Z]+\d+", args)
            if op.startswith(("st.", "bra", "ret", "bar", "red.", "call", "trap")) or not regs:
                for r in regs:
                    read.setdefault(r, s)
                continue
            args = args.strip()
            if args.startswith("{"):  # a vector destination: ld.v4, ldmatrix, mma
                dest, _, rest = args[1:].partition("}")
                dests = re.findall(r"%[a-zA-Z]+\d+", dest)
                srcs = re.findall(r"%[a-zA-Z]+\d+", rest)
            else:
                first, _, rest = args.partition(",")
                dests = re.findall(r"%[a-zA-Z]+\d+", first)
                srcs = re.findall(r"%[a-zA-Z]+\d+", rest)
            written.update(dests)
            for r in srcs:
                read.setdefault(r, s)
        bad = sorted(r for r in read if r not in written and not SPECIAL.match(r))
        if bad:
            found[name] = [f"{r} in `{read[r]}`" for r in bad]
    return found


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.stem)
def test_samples_read_no_unwritten_register(sample) -> None:
    opts = driver.Options(arch=MIN_ARCH.get(sample.stem, "sm_80"))
    ptx = driver.compile_file(sample, opts).ptx
    assert unwritten_reads(ptx) == {}


EAGER = """
use cuda_device::{kernel, device, thread, DisjointSlice};
#[derive(Clone, Copy)]
pub enum Why { Small, Big }
#[device]
fn half(v: f32) -> Option<f32> { if v > 1.0 { Some(v * 0.5) } else { None } }
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        let w = half(x[i]).ok_or(Why::Big);
        let a = half(x[i]).unwrap_or(x[i] + 3.0);
        let b = half(x[i]).map_or(x[i] * 7.0, |h| h + 1.0);
        *o = match w { Ok(v) => v, Err(Why::Small) => -1.0, Err(Why::Big) => -2.0 } + a + b;
    }
}
"""


def test_eager_option_arguments_are_written_before_the_branch() -> None:
    ptx = driver.compile_source(EAGER, "eager.rs", driver.Options()).ptx
    assert unwritten_reads(ptx) == {}
