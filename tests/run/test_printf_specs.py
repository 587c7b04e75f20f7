"""`gpu_printf!` with Rust format specs (issue 11): `{:#x}`, `{:#010x}`, `{:#X}`, `{:o}`,
`{:#o}`, `{:+}`, `{:.N}`, widths and alignment print what Rust's `format!` prints (NumPy-free:
Python's `format` agrees with Rust on these specs), on the simulator and the GPU; `{:e}` /
`{:E}` print C's `%e` / `%E`, as cuda-oxide translates them."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from oxidec.api import compile_source

SRC = """
#[kernel]
pub fn show(u: &[u32], i: &[i32], f: &[f32]) {
    let t = thread::threadIdx_x() as usize;
    if t < u.len() {
        gpu_printf!("{} {:#x} {:#010x} {:#X} {:o} {:#o} {:+} {:+} {:+.2} {:.3} [{:>7}] [{:<7}] {:08.2}\\n",
                    t, u[t], u[t] & 0xffff, u[t], u[t], u[t] % 512, i[t], u[t] % 100, f[t], f[t],
                    i[t], u[t] % 1000, f[t]);
    }
}
"""


def expected(u, i, f) -> list[str]:
    out = []
    for t in range(len(u)):
        a, b, x = int(u[t]), int(i[t]), float(f[t])
        xs = float(np.float32(x))
        out.append(f"{t} {a:#x} {a & 0xFFFF:#010x} 0x{a:X} {a:o} {a % 512:#o} {b:+} "
                   f"+{a % 100} {xs:+.2f} {xs:.3f} [{b:>7}] [{a % 1000:<7}] {xs:08.2f}")
    return out


def inputs(rng, n):
    return (rng.integers(0, 2**32, n, dtype=np.uint32), rng.integers(-5000, 5000, n)
            .astype(np.int32), (rng.standard_normal(n) * 50).astype(np.float32))


def test_printf_specs_on_the_simulator(rng, capsys):
    module = compile_source(SRC, "show.rs")
    u, i, f = inputs(rng, 6)
    module.show[(1,), (8,)](u, i, f, device="sim")
    assert capsys.readouterr().out.splitlines() == expected(u, i, f)


def test_printf_c_format():
    from oxidec import printf, types as T
    pieces = printf.parse("{:#x}|{:#010X}|{:#o}|{:+}|{:+}|{:+.1}|{:o}")
    fmt = printf.c_format(pieces, [T.U32, T.U64, T.U32, T.I32, T.U32, T.F32, T.U32])
    assert fmt == "0x%x|0x%08llX|0o%o|%+d|+%u|%+.1f|%o"


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_printf_specs_assemble(arch, ptxas, tmp_path):
    path = tmp_path / "k.ptx"
    path.write_text(compile_source(SRC, "show.rs", arch=arch).ptx)
    r = subprocess.run([ptxas, f"-arch={arch}", str(path), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.gpu
def test_printf_specs_on_gpu(rng, capfd):
    module = compile_source(SRC, "show.rs")
    u, i, f = inputs(rng, 6)
    module.show[(1,), (32,)](u, i, f, device="gpu")  # device printf flushes at sync
    lines = capfd.readouterr().out.splitlines()
    assert sorted(lines) == sorted(expected(u, i, f))


EXP = """
#[kernel]
pub fn exp(f: &[f32], d: &[f64]) {
    let t = thread::threadIdx_x() as usize;
    if t < f.len() {
        gpu_printf!("{} {:e} {:.2e} [{:>14.3E}] {:e}\\n", t, f[t], f[t], d[t], d[t]);
    }
}
"""


def exp_expected(f, d) -> list[str]:
    return [f"{t} {float(f[t]):e} {float(f[t]):.2e} [{float(d[t]):>14.3E}] {float(d[t]):e}"
            for t in range(len(f))]


def exp_inputs(rng, n):
    f = (rng.standard_normal(n) * 10.0 ** rng.integers(-30, 30, n)).astype(np.float32)
    d = rng.standard_normal(n) * 10.0 ** rng.integers(-200, 200, n)
    f[0], d[0] = 0.0, -0.0
    return f, d


def test_printf_exponent_on_the_simulator(rng, capsys):
    f, d = exp_inputs(rng, 7)
    compile_source(EXP, "exp.rs").exp[(1,), (8,)](f, d, device="sim")
    assert capsys.readouterr().out.splitlines() == exp_expected(f, d)


@pytest.mark.gpu
def test_printf_exponent_on_gpu(rng, capfd):
    f, d = exp_inputs(rng, 7)
    compile_source(EXP, "exp.rs").exp[(1,), (32,)](f, d, device="gpu")
    assert sorted(capfd.readouterr().out.splitlines()) == sorted(exp_expected(f, d))
