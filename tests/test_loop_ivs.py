"""passes/loops.py: the basic induction variables of every loop of a body found at once
(`_latch_ivs`, one walk up the loop forest per self-update) against the per-loop walk of
the dominator tree from the latches to the header (`latch_path_ivs`, here), on the samples
and on nests where an inner loop's counter, a counter updated inside an inner loop and
two counters of one loop are all in play."""
from __future__ import annotations

from pathlib import Path

import pytest

from oxidec import driver
from oxidec.passes import loops

ROOT = Path(__file__).resolve().parent.parent

NESTS = """
use cuda_device::{cuda_module, kernel, thread, DisjointSlice};

#[cuda_module]
mod kernels {
    use super::*;

    #[kernel]
    pub fn nest(a: &[f32], n: usize, mut out: DisjointSlice<f32>) {
        let idx = thread::index_1d();
        let i = idx.get();
        let mut s = 0.0f32;
        let mut k = 0usize;      // written only in the innermost loop: in every loop once
        let mut j0 = 0usize;
        while j0 < n {
            let mut j1 = 0usize;
            let mut m = i;       // a second counter of the middle loop
            while j1 < 3 {
                let mut j2 = 0usize;
                while j2 < n {
                    s += a[(i + k + j2) % a.len()];
                    k += 2;
                    j2 += 1;
                }
                s += a[m % a.len()];
                m += n;
                j1 += 1;
            }
            j0 += 1;
        }
        let mut t = 0usize;
        while t < n {            // a loop whose step is a value written in it: no IV
            let step = t % 3 + 1;
            s += a[t % a.len()];
            t += step;
        }
        if let Some(o) = out.get_mut(idx) { *o = s + k as f32; }
    }
}
"""


def deep_nest(n: int) -> str:
    opens = "".join(f"let mut j{d} = 0usize; while j{d} < 2 {{ " for d in range(n))
    closes = "".join(f"j{d} += 1; }} " for d in reversed(range(n)))
    return NESTS.replace("let mut t = 0usize;",
                         f"{opens} s += a[i % a.len()]; {closes}\n        let mut t = 0usize;")


def latch_path_ivs(body, loop, facts, doms) -> dict:
    """The reference: an induction variable's update dominates every latch, so it is in a
    block on the dominator tree's path from the latches' common dominator up to the header;
    the self-updates of those blocks are the candidates, each asked what basic_ivs asks."""
    adds = loops._self_adds(body)
    m = loop.latches[0]
    for latch in loop.latches[1:]:
        m = doms._intersect(doms.idom, m, latch)
    candidates = []
    b = m
    while True:
        candidates += adds.get(b, [])
        if b == loop.header:
            break
        b = doms.idom[b]
    return loops._ivs_of(body, loop, facts, doms, dict.fromkeys(candidates))


def sources() -> list[tuple[str, str]]:
    out = [(p.name, p.read_text()) for p in sorted((ROOT / "samples").glob("*.rs"))]
    return out + [("nests.rs", NESTS), ("deep.rs", deep_nest(12))]


@pytest.mark.parametrize("opt_level", [2])
def test_latch_ivs_agree_with_the_per_loop_walk(monkeypatch, opt_level):
    asked = found = several = 0
    fast = loops._latch_ivs

    def both(body, loop, facts, doms):
        nonlocal asked, found, several
        got = fast(body, loop, facts, doms)
        want = latch_path_ivs(body, loop, facts, doms)
        assert got == want, (body.name, loop.header)
        asked += 1
        found += len(got) == 1
        several += len(got) > 1
        return got

    monkeypatch.setattr(loops, "_latch_ivs", both)
    for name, text in sources():
        comp = driver.compile_source(text, name, driver.Options(arch="sm_90", opt_level=opt_level))
        assert comp.ptx, name
    # the comparison ran on loops with one IV and with several (where basic_ivs goes on
    # to ask the whole question)
    assert asked > 200 and found > 50 and several > 5
