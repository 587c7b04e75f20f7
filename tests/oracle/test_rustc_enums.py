"""rustc as the reference for enums, patterns, `Option`/`Result` and `?`.

Each kernel in tests/oracle/kernels/ is compiled twice: by oxidec and run on the simulator
(every thread of a grid), and by rustc as ordinary Rust against a small CPU mock of
`thread::index_1d` and `DisjointSlice` (the kernel's source unchanged, only its `use` line
and `#[kernel]`/`#[device]` attributes dropped), run thread by thread. The outputs must be
bit-identical: the kernels use only exactly rounded arithmetic, so there is no tolerance.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from oxidec import api

KERNELS = Path(__file__).resolve().parent / "kernels"

PRELUDE = """
#![allow(unused, dead_code, non_snake_case, unused_parens)]
mod cuda_device {
    pub mod thread {
        use std::cell::Cell;
        thread_local! { static I: Cell<usize> = const { Cell::new(0) }; }
        pub fn set(i: usize) { I.with(|c| c.set(i)); }
        pub struct ThreadIndex(pub(crate) usize);
        impl ThreadIndex { pub fn get(&self) -> usize { self.0 } }
        pub fn index_1d() -> ThreadIndex { ThreadIndex(I.with(|c| c.get())) }
    }
    pub struct DisjointSlice<'a, T>(pub &'a mut [T]);
    impl<'a, T> DisjointSlice<'a, T> {
        pub fn get_mut(&mut self, i: thread::ThreadIndex) -> Option<&mut T> { self.0.get_mut(i.0) }
        pub fn len(&self) -> usize { self.0.len() }
    }
}
use cuda_device::*;
"""

MAIN = """
fn main() {
    let bytes = std::fs::read(std::env::args().nth(1).unwrap()).unwrap();
    let x: Vec<f32> = bytes.chunks(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
    let n = x.len() + 24;  // more threads than elements: get_mut's None path runs too
    let mut out = vec![f32::NAN; x.len()];
    for i in 0..n {
        thread::set(i);
        KERNEL(&x, ARGS DisjointSlice(&mut out));
    }
    for v in out { println!("{:08x}", v.to_bits()); }
}
"""

# kernel file, kernel name, (Rust argument, the same value for the host API) per case
CASES = [
    ("activation.rs", "activation", [
        ("Act::Relu", "Relu"),
        ("Act::Leaky(0.25)", ("Leaky", 0.25)),
        ("Act::Clamp { lo: -0.5, hi: 0.75 }", ("Clamp", {"lo": -0.5, "hi": 0.75})),
    ]),
    ("patterns.rs", "patterns", [(None, None)]),
]


def rust_twin(source: str, kernel: str, arg: str | None) -> str:
    body = re.sub(r"^use cuda_device::.*;$", "", source, flags=re.M)
    body = re.sub(r"^\s*#\[(kernel|device)\]\s*$", "", body, flags=re.M)
    main = MAIN.replace("KERNEL", kernel).replace("ARGS", f"{arg}," if arg else "")
    return PRELUDE + body + main


@pytest.fixture(scope="module")
def rustc():
    path = shutil.which("rustc")
    if path is None:
        pytest.skip("rustc is not installed")
    return path


@pytest.mark.parametrize("file, kernel, args", CASES, ids=[c[0] for c in CASES])
def test_simulator_matches_rustc(file, kernel, args, rustc, rng, tmp_path) -> None:
    source = (KERNELS / file).read_text()
    module = api.compile_file(KERNELS / file)
    n = 200
    x = (rng.standard_normal(n) * 2).astype(np.float32)
    (tmp_path / "x.bin").write_bytes(x.tobytes())
    for rust_arg, host_arg in args:
        rs = tmp_path / "twin.rs"
        rs.write_text(rust_twin(source, kernel, rust_arg))
        exe = tmp_path / "twin"
        subprocess.run([rustc, "--edition", "2024", "-O", "-o", str(exe), str(rs)], check=True,
                       capture_output=True)
        proc = subprocess.run([str(exe), str(tmp_path / "x.bin")], check=True,
                              capture_output=True, text=True)
        want = np.array([int(line, 16) for line in proc.stdout.split()], dtype=np.uint32)
        out = np.full(n, np.nan, np.float32)
        launch_args = (x, host_arg, out) if rust_arg is not None else (x, out)
        getattr(module, kernel)[(2, 1, 1), (112, 1, 1)](*launch_args, device="sim")
        got = out.view(np.uint32)
        bad = np.flatnonzero(got != want)
        assert bad.size == 0, (f"{kernel}({rust_arg}): {bad.size} of {n} differ, first at "
                               f"{bad[0]}: oxidec {out[bad[0]]!r}, rustc "
                               f"{want[bad[0]:bad[0] + 1].view(np.float32)[0]!r}")


@pytest.mark.gpu
@pytest.mark.parametrize("file, kernel, args", CASES, ids=[c[0] for c in CASES])
def test_gpu_matches_rustc(file, kernel, args, rustc, rng, tmp_path) -> None:
    """The same comparison on the GPU: enums passed by value through the kernel ABI."""
    source = (KERNELS / file).read_text()
    module = api.compile_file(KERNELS / file)
    n = 5000
    x = (rng.standard_normal(n) * 2).astype(np.float32)
    (tmp_path / "x.bin").write_bytes(x.tobytes())
    for rust_arg, host_arg in args:
        rs = tmp_path / "twin.rs"
        rs.write_text(rust_twin(source, kernel, rust_arg))
        exe = tmp_path / "twin"
        subprocess.run([rustc, "--edition", "2024", "-O", "-o", str(exe), str(rs)], check=True,
                       capture_output=True)
        proc = subprocess.run([str(exe), str(tmp_path / "x.bin")], check=True,
                              capture_output=True, text=True)
        want = np.array([int(line, 16) for line in proc.stdout.split()], dtype=np.uint32)
        out = np.full(n, np.nan, np.float32)
        launch_args = (x, host_arg, out) if rust_arg is not None else (x, out)
        getattr(module, kernel)[(20, 1, 1), (256, 1, 1)](*launch_args, device="gpu")
        np.testing.assert_array_equal(out.view(np.uint32), want)
