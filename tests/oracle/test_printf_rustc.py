"""`gpu_printf!` against rustc (issue 11): the same format string and values printed by
`format!` in a program rustc builds and by the kernel on the simulator, line for line; the
kernel's return value (vprintf's: the number of arguments printed) on the simulator and the
GPU; `{:e}` is C's `%e` (as in cuda-oxide), not Rust's form."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from oxidec.api import compile_source
from oxidec.diagnostics import CompileError

# Every spec gpu_printf! takes, as a Rust user writes them (one line per thread).
FORMAT = ("{} {:x} {:X} {:#x} {:#010x} {:o} {:#o} {:+} {:+} {:.3} {:+.2} [{:>9}] [{:<7}] "
          "[{:8.2}] {:08.3} [{:>6}] [{:<8.1}] {:05} {} {}")
ARGS = ("t", "u[t]", "u[t]", "u[t]", "u[t] & 0xffff", "u[t]", "u[t] % 4096", "i[t]",
        "u[t] % 1000", "f[t]", "f[t]", "i[t]", "u[t] % 100000", "f[t]", "f[t]", "i[t] % 1000",
        "f[t]", "i[t] % 100", "w[t]", "u[t] % 2 == 0")

SRC = """
#[kernel]
pub fn show(u: &[u32], i: &[i32], f: &[f32], w: &[u64], out: *mut i32) {
    let t = thread::threadIdx_x() as usize;
    if t < u.len() {
        let n = gpu_printf!("FORMAT\\n", ARGS);
        unsafe { *out.add(t) = n; }
    }
}
""".replace("FORMAT", FORMAT).replace("ARGS", ", ".join(ARGS))


def rust_program(u, i, f, w) -> str:
    def arr(name, ty, vals, fmt):
        return f"let {name}: [{ty}; {len(vals)}] = [{', '.join(fmt(v) for v in vals)}];"
    lines = [
        "fn main() {",
        arr("u", "u32", u, str), arr("i", "i32", i, str),
        arr("f", "f32", f, lambda v: f"f32::from_bits({int(np.float32(v).view(np.uint32))})"),
        arr("w", "u64", w, str),
        f"    for t in 0..{len(u)} {{",
        f'        println!("{FORMAT}", {", ".join(ARGS)});',
        "    }",
        "}",
    ]
    return "\n".join(lines)


def inputs(rng, n):
    return (rng.integers(0, 2**32, n, dtype=np.uint32),
            rng.integers(-2**31, 2**31, n, dtype=np.int64).astype(np.int32),
            (rng.standard_normal(n) * 10.0 ** rng.integers(-2, 4, n)).astype(np.float32),
            rng.integers(0, 2**63, n, dtype=np.uint64))


def rustc_lines(tmp_path, u, i, f, w) -> list[str]:
    src = tmp_path / "fmt.rs"
    src.write_text(rust_program(u, i, f, w))
    exe = tmp_path / "fmt"
    try:
        subprocess.run(["rustc", "--edition", "2021", "-O", str(src), "-o", str(exe)],
                       check=True, capture_output=True, text=True)
    except FileNotFoundError:
        pytest.skip("rustc is not installed")
    return subprocess.run([str(exe)], check=True, capture_output=True,
                          text=True).stdout.splitlines()


def test_printf_matches_rustc_format(rng, tmp_path, capsys):
    u, i, f, w = inputs(rng, 24)
    want = rustc_lines(tmp_path, u, i, f, w)
    m = compile_source(SRC, "show.rs")
    out = np.full(u.size, -7, np.int32)
    m.show[(1,), (32,)](u, i, f, w, out, device="sim")
    got = capsys.readouterr().out.splitlines()
    assert got == want
    np.testing.assert_array_equal(out, np.full(u.size, len(ARGS), np.int32))


@pytest.mark.gpu
def test_printf_result_on_gpu(rng):
    u, i, f, w = inputs(rng, 24)
    m = compile_source(SRC, "show.rs")
    out = np.full(u.size, -7, np.int32)
    m.show[(1,), (32,)](u, i, f, w, out, device="gpu")
    np.testing.assert_array_equal(out, np.full(u.size, len(ARGS), np.int32))


def test_exponent_form_is_c():
    """`{:e}` is not compared with rustc: as cuda-oxide does, oxidec hands it to vprintf as
    C's `%e` (`1.500000e+03`, where Rust writes `1.5e3`); tests/run/test_printf_specs.py
    checks what it prints."""
    from oxidec import printf, types as T
    fmt = printf.c_format(printf.parse("{:e} {:.2E} {:>12.3e}"), [T.F32, T.F64, T.F32])
    assert fmt == "%e %.2E %12.3e"
