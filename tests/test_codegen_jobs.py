"""Worker processes for the optimiser and the emitter (oxidec/codegen_jobs.py, `build -j`):
the same PTX as one process, byte for byte, and what one process reports when anything
goes wrong in a worker."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from oxidec import codegen_jobs, driver
from oxidec.diagnostics import CompileError, render_all
from oxidec.passes import prepare_program

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="workers need fork")

HEAD = """use cuda_device::{cuda_module, kernel, thread, DisjointSlice, DynamicSharedArray};
#[cuda_module]
mod kernels {
    use super::*;

    #[device]
    #[inline(never)] // a `.func` every kernel calls: its declaration and its signature
    fn mix(a: u32, b: u32) -> u32 {
        (a ^ b.rotate_left(7)).wrapping_mul(0x9E37_79B9)
    }
"""

# kernels that use the things the module's header declares: strings (printf), the dynamic
# shared array, vprintf, a newer PTX version (a 128-bit multiply needs none; mul.hi does)
VARIANTS = [
    """
    #[kernel]
    pub fn k{n}(x: &[u32], mut out: DisjointSlice<u32>) {{
        let idx = thread::index_1d();
        let i = idx.get();
        let mut acc = {n}u32;
        for j in 0..{reps} {{
            acc = mix(acc, x[(i + j) % x.len()]);
        }}
        if let Some(o) = out.get_mut(idx) {{ *o = acc; }}
    }}
""",
    """
    #[kernel]
    pub fn k{n}(x: &[f32], mut out: DisjointSlice<f32>) {{
        let t = thread::threadIdx_x();
        let idx = thread::index_1d();
        let i = idx.get();
        let mut s = 0.0f32;
        let mut j = 0usize;
        while j < {reps} {{
            s = s * 0.5 + x[(i * {n} + j) % x.len()];
            j += 1;
        }}
        if t == 0 {{
            gpu_printf!("kernel {n}: {{}}\\n", s);
        }}
        if let Some(o) = out.get_mut(idx) {{ *o = s; }}
    }}
""",
    """
    #[kernel]
    pub fn k{n}(x: &[f32], mut out: DisjointSlice<f32>) {{
        let buf = DynamicSharedArray::<f32>::get();
        let t = thread::threadIdx_x() as usize;
        let idx = thread::index_1d();
        let i = idx.get();
        unsafe {{
            *buf.add(t) = if i < x.len() {{ x[i] * {n}.0 }} else {{ 0.0 }};
        }}
        thread::sync_threads();
        let mut m = 0.0f32;
        for r in 0..{reps} {{
            m += unsafe {{ *buf.add((t + r) % 32) }};
        }}
        if let Some(o) = out.get_mut(idx) {{ *o = m; }}
    }}
""",
    """
    #[kernel]
    pub fn k{n}(x: &[u64], mut out: DisjointSlice<u64>) {{
        let idx = thread::index_1d();
        let i = idx.get();
        let wide = x[i % x.len()] as u128 * ({n}u128 + 0x1_0000_0001);
        let v = match i % 3 {{
            0 => (wide >> 64) as u64,
            1 => wide as u64 ^ {reps},
            _ => mix(wide as u32, {n}) as u64,
        }};
        if let Some(o) = out.get_mut(idx) {{ *o = v; }}
    }}
""",
]


def program(kernels: int, reps: int = 6) -> str:
    body = "".join(VARIANTS[n % len(VARIANTS)].format(n=n, reps=reps + n % 5)
                   for n in range(kernels))
    return HEAD + body + "}\n"


def compile_(text: str, jobs: int, **options) -> driver.Compilation:
    return driver.compile_source(text, "jobs.rs", driver.Options(arch="sm_90", jobs=jobs,
                                                                 **options))


def test_workers_write_the_same_module_byte_for_byte():
    text = program(36)
    one = compile_(text, 1)
    for jobs in (2, 3):
        assert compile_(text, jobs).ptx == one.ptx
        # made by the workers (not by the compile that follows when one fails)
        prepared = compile_(text, 1, stop="mir").program
        prepare_program(prepared)
        assert codegen_jobs.optimize_and_emit(prepared, driver.Options(arch="sm_90"),
                                              jobs) == one.ptx
    assert one.ptx.count(".entry") == 36 and "$str_" in one.ptx and "dyn_smem" in one.ptx
    # and with other options that change what the workers do
    for options in ({"line_info": False}, {"fmad": False}, {"opt_level": 1},
                    {"index32": False}):
        assert compile_(text, 2, **options).ptx == compile_(text, 1, **options).ptx, options


def test_a_small_program_is_compiled_in_this_process(monkeypatch):
    monkeypatch.setattr(codegen_jobs, "_start", None)  # a fork would now fail loudly
    text = program(2)
    assert compile_(text, 4).ptx == compile_(text, 1).ptx


def test_the_work_is_shared_by_size():
    comp = compile_(program(36), 1, stop="mir")
    groups = codegen_jobs._share(comp.program.bodies, 3)
    assert sorted(i for g in groups for i in g) == list(range(len(comp.program.bodies)))
    sizes = [sum(len(b.statements) + 1 for b in comp.program.bodies[i].blocks) for i in
             range(len(comp.program.bodies))]
    loads = [sum(sizes[i] for i in g) for g in groups]
    assert max(loads) - min(loads) <= max(sizes)  # greedy: within one body of each other


def test_a_failing_worker_leaves_the_compile_to_this_process(monkeypatch):
    text = program(36)
    expected = compile_(text, 1).ptx
    real = codegen_jobs._work

    def flaky(program, group, options):
        if 0 in group:
            raise RuntimeError("a worker's internal error")
        return real(program, group, options)

    monkeypatch.setattr(codegen_jobs, "_work", flaky)
    assert compile_(text, 2).ptx == expected


# two arrays each under the limit of `.local` memory (lowering checks each local), over it
# together: found after the passes (check_local_memory), so in a worker
def test_a_fork_that_fails_leaves_the_compile_to_this_process(monkeypatch):
    text = program(36)
    expected = compile_(text, 1).ptx
    calls = []

    def no_fork():
        calls.append(1)
        if len(calls) == 2:  # the first worker starts, the second cannot
            raise OSError("no more processes")
        return real_fork()

    real_fork = os.fork
    monkeypatch.setattr(os, "fork", no_fork)
    assert compile_(text, 2).ptx == expected
    assert len(calls) == 2


LOCAL_MEMORY = """
    #[kernel]
    pub fn big(x: &[f32], mut out: DisjointSlice<f32>) {
        let idx = thread::index_1d();
        let i = idx.get();
        let mut a = [0.0f32; 70000];
        let mut b = [1.0f32; 70000];
        a[i % 70000] = x[i % x.len()];
        b[(i * 7) % 70000] = a[(i + 1) % 70000];
        if let Some(o) = out.get_mut(idx) { *o = a[(i + 3) % 70000] + b[(i + 5) % 70000]; }
    }
"""


def test_a_diagnostic_in_a_worker_is_reported_as_without_workers():
    text = program(36).rstrip()[:-1] + LOCAL_MEMORY + "}\n"
    rendered = []
    for jobs in (1, 2):
        with pytest.raises(CompileError) as err:
            compile_(text, jobs)
        rendered.append(render_all(err.value.diagnostics))
    assert rendered[0] == rendered[1] and "local memory" in rendered[0]


def test_build_dash_j(tmp_path):
    src = tmp_path / "many.rs"
    src.write_text(program(36))
    outs = []
    for flags in (["-j", "1"], ["-j2"], ["--jobs=3"], []):
        out = tmp_path / f"out{len(outs)}.ptx"
        r = subprocess.run([sys.executable, "-m", "oxidec.cli", "build", str(src), "-o", str(out),
                            "--no-cache", *flags], capture_output=True, text=True, cwd=ROOT,
                           timeout=600)
        assert r.returncode == 0, r.stderr
        outs.append(out.read_bytes())
    assert outs[1:] == outs[:1] * 3
    r = subprocess.run([sys.executable, "-m", "oxidec.cli", "build", str(src), "-j", "-1"],
                       capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert r.returncode == 2 and "-1" in r.stderr


def test_default_jobs(monkeypatch):
    monkeypatch.delenv("MAKEFLAGS", raising=False)
    assert 1 <= codegen_jobs.default_jobs() <= 8
    monkeypatch.setenv("MAKEFLAGS", " -j8 --jobserver-auth=3,4")  # a parallel make's child
    assert codegen_jobs.default_jobs() == 1
