"""Headers (`--emit header`) and Rust modules (`--emit rust`): every sample's compiles warning-
free as C++17, C11 and Rust 2021, all of them together (their names cannot clash); the
launchers pack parameters byte for byte as the Python runtime does and reject a broken launch
contract with the Python API's message."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from host_support import CUDA_INCLUDE, build_fake_libcuda, have_toolchain

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sorted((ROOT / "samples").glob("*.rs"))
from samples.reference import MIN_ARCH  # noqa: E402  (samples built for a newer target)
CONTRACT = ROOT / "tests" / "run" / "kernels" / "contract.rs"
STRUCTS = """
#[derive(Clone, Copy)]
pub struct Affine { pub scale: f32, pub shift: f64, pub flag: bool, pub n: [u16; 3] }

#[kernel]
#[launch_bounds(256)]
pub fn apply(p: Affine, on: bool, k: i8, xs: &[f32], mut out: DisjointSlice<f32>,
             raw: *mut u32) {
    let idx = thread::index_1d();
    let i = idx.get();
    let v = if on { xs[i] * p.scale + (p.shift as f32) + (k as f32) } else { 0.0 };
    if let Some(o) = out.get_mut(idx) { *o = v + (p.n[0] as f32); }
    if i == 0 && p.flag { unsafe { *raw = 1; } }
}

// instances of a generic struct cross the boundary under identifier names (`Pair_f32`)
#[derive(Clone, Copy)]
pub struct Pair<T> { pub a: T, pub b: T }

#[kernel]
pub fn pair_sum(p: Pair<f32>, q: Pair<u32>, mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) { *o = p.a + p.b + (q.a + q.b) as f32; }
}
"""


def oxidec(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "oxidec", *args], capture_output=True,
                          text=True, cwd=cwd or ROOT, env=env, timeout=300)


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("host")
    (out / "structs.rs").write_text(STRUCTS)
    r = oxidec("build", *(str(p) for p in SAMPLES if p.stem not in MIN_ARCH), str(CONTRACT),
               str(out / "structs.rs"), "--emit", "header,rust", "-o", f"{out}/")
    assert r.returncode == 0, r.stderr
    for arch in sorted(set(MIN_ARCH.values())):  # the sm_90 samples (clusters, ...)
        r = oxidec("build", *(str(p) for p in SAMPLES if MIN_ARCH.get(p.stem) == arch),
                   "--emit", "header,rust", "--arch", arch, "-o", f"{out}/")
        assert r.returncode == 0, r.stderr
    return out


def names() -> list[str]:
    return [p.stem for p in SAMPLES] + ["contract", "structs"]


@pytest.mark.skipif(not have_toolchain("g++", "gcc"), reason="needs g++ and cuda.h")
@pytest.mark.parametrize("compiler, flags", [("g++", ["-std=c++17", "-x", "c++"]),
                                             ("gcc", ["-std=c11", "-x", "c"])])
def test_headers_compile_warning_free(generated: Path, compiler: str, flags: list[str]) -> None:
    unit = generated / "all_headers.inc"
    unit.write_text("".join(f'#include "{n}.h"\n' for n in names()) +
                    "".join(f'#include "{n}.h"\n' for n in names()))  # include guards
    r = subprocess.run([compiler, "-Wall", "-Wextra", "-Werror", *flags, "-fsyntax-only",
                        f"-I{CUDA_INCLUDE}", f"-I{generated}", str(unit)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.skipif(not have_toolchain("rustc"), reason="needs rustc")
def test_rust_modules_compile_warning_free(generated: Path) -> None:
    lib = generated / "all_modules.rs"
    lib.write_text("".join(f'pub mod {n} {{ include!("{n}_kernels.rs"); }}\n' for n in names()))
    r = subprocess.run(["rustc", "--edition", "2021", "-D", "warnings", "--crate-type", "lib",
                        "--emit", "metadata", "-o", str(generated / "all.rmeta"), str(lib)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_header_contents(generated: Path) -> None:
    h = (generated / "structs.h").read_text()
    assert "typedef struct structs_Affine {" in h
    assert "OXIDEC_STATIC_ASSERT(sizeof(structs_Affine) == 24" in h
    assert ("static inline CUresult structs_launch_apply(structs_module* m, oxidec_dim3 grid, "
            "oxidec_dim3 block, unsigned int shared_bytes, CUstream stream,\n"
            "        structs_Affine p,\n        bool on,\n        int8_t k,\n"
            "        const float* xs,\n        size_t xs_len,\n        oxidec_disjoint_f32 out,\n"
            "        uint32_t* raw)") in h
    assert "cuModuleLoadDataEx(&m->module, structs_ptx, 2, options, values)" in h
    ptx = oxidec("build", str(generated / "structs.rs"), "-o", "-").stdout
    assert ptx.splitlines()[5] in h.replace('\\"', '"')  # the PTX itself is embedded
    rs = (generated / "structs_kernels.rs").read_text()
    assert "pub struct Affine {\n    pub scale: f32,\n    pub shift: f64,\n    pub flag: bool,\n" \
           "    pub n: [u16; 3],\n}" in rs
    assert "pub unsafe fn launch_apply(&self, grid: impl Into<Dim3>" in rs


# -- the launchers run against the recording fake driver --------------------------------------

C_DRIVER = r"""
#include "contract.h"
#include "structs.h"
int main(void) {
    contract_module m;
    structs_module s;
    static float a[12], out[12];
    static uint32_t flag;
    CUresult r;
    if (contract_load(&m) != CUDA_SUCCESS || structs_load(&s) != CUDA_SUCCESS) return 3;
    r = contract_launch_scale(&m, oxidec_dim(1, 1, 1), oxidec_dim(128, 1, 1), 0, NULL,
                              a, 10, 12, (oxidec_disjoint_f32){out, 12});
    printf("%d|%s\n", (int)r, m.error);
    r = contract_launch_scale(&m, oxidec_dim(1, 1, 1), oxidec_dim(64, 2, 1), 0, NULL,
                              a, 12, 12, (oxidec_disjoint_f32){out, 12});
    printf("%d|%s\n", (int)r, m.error);
    r = contract_launch_scale(&m, oxidec_dim(3, 1, 1), oxidec_dim(128, 1, 1), 16, NULL,
                              a, 12, 12, (oxidec_disjoint_f32){out, 12});
    printf("%d|%s\n", (int)r, m.error);
    structs_Affine p = {1.5f, -2.25, true, {7, 8, 9}};
    r = structs_launch_apply(&s, oxidec_dim(2, 1, 1), oxidec_dim(512, 1, 1), 0, NULL, p, true,
                             -3, a, 12, (oxidec_disjoint_f32){out, 12}, &flag);
    printf("%d|%s\n", (int)r, s.error);
    r = structs_launch_apply(&s, oxidec_dim(2, 1, 1), oxidec_dim(256, 1, 1), 0, NULL, p, true,
                             -3, a, 12, (oxidec_disjoint_f32){out, 12}, &flag);
    printf("%d|%s\n", (int)r, s.error);
    printf("addresses %llu %llu %llu\n", (unsigned long long)(uintptr_t)a,
           (unsigned long long)(uintptr_t)out, (unsigned long long)(uintptr_t)&flag);
    return 0;
}
"""

RUST_DRIVER = r"""
#[allow(dead_code)]
mod contract { include!("contract_kernels.rs"); }
#[allow(dead_code)]
mod structs { include!("structs_kernels.rs"); }

fn show(r: Result<(), impl std::fmt::Display>) {
    match r {
        Ok(()) => println!("0|"),
        Err(e) => println!("1|{}", e),
    }
}

fn main() {
    let m = contract::Module::load().expect("load");
    let s = structs::Module::load().expect("load");
    let (a, out, flag) = (0x1000u64, 0x2000u64, 0x3000u64);
    let null = std::ptr::null_mut();
    unsafe {
        use contract::{DeviceSlice, DisjointSlice};
        show(m.launch_scale(1, 128, 0, null, DeviceSlice::new(a, 10), 12, DisjointSlice::new(out, 12)));
        show(m.launch_scale(1, (64, 2), 0, null, DeviceSlice::new(a, 12), 12, DisjointSlice::new(out, 12)));
        show(m.launch_scale(3, 128, 16, null, DeviceSlice::new(a, 12), 12, DisjointSlice::new(out, 12)));
        let p = structs::Affine { scale: 1.5, shift: -2.25, flag: true, n: [7, 8, 9] };
        show(s.launch_apply(2, 512, 0, null, p, true, -3, structs::DeviceSlice::new(a, 12),
                            structs::DisjointSlice::new(out, 12), structs::DevicePtr::new(flag)));
        show(s.launch_apply(2, 256, 0, null, p, true, -3, structs::DeviceSlice::new(a, 12),
                            structs::DisjointSlice::new(out, 12), structs::DevicePtr::new(flag)));
    }
    println!("addresses {} {} {}", a, out, flag);
}
"""


def python_messages() -> list[str]:
    """What the Python API says for the same launches."""
    from oxidec.api import compile_file
    from oxidec.contracts import check_contract
    k = compile_file(CONTRACT).scale
    contract = k.signature.launch.contract
    a10, a12, out = np.ones(10, np.float32), np.ones(12, np.float32), np.ones(12, np.float32)
    return ["\n".join(check_contract("scale", contract, (1, 1, 1), (128, 1, 1),
                                     {"a": a10, "n": 12, "out": out})),
            "\n".join(check_contract("scale", contract, (1, 1, 1), (64, 2, 1),
                                     {"a": a12, "n": 12, "out": out}))]


def expected_params(addresses: list[int]) -> list[bytes]:
    """The Python runtime's parameter bytes for the same `scale` launch."""
    from oxidec.api import compile_file
    from oxidec.runtime.launch import pack_params
    a, out, _ = addresses
    scale = compile_file(CONTRACT).scale.signature
    return pack_params(scale, [(a, 12), 12, (out, 12)]).blobs()


def parse_launches(stdout: str) -> tuple[list[tuple[int, str]], list[list[str]], list[int]]:
    results, launches, addresses = [], [], []
    lines = stdout.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("launch "):
            launches.append([line])
        elif line.startswith("param "):
            launches[-1].append(line)
        elif line.startswith("addresses "):
            addresses = [int(x) for x in line.split()[1:]]
        else:
            code, _, msg = line.partition("|")
            while i + 1 < len(lines) and lines[i + 1].startswith("launch contract of"):
                msg += "\n" + lines[i + 1]
                i += 1
            results.append((int(code), msg))
        i += 1
    return results, launches, addresses


def check_run(stdout: str, failure_code: int) -> None:
    results, launches, addresses = parse_launches(stdout)
    wrong_len, wrong_block = python_messages()
    assert results[0] == (failure_code, wrong_len)
    assert wrong_len == ("launch contract of `scale` violated: `requires a.len() == n` is false "
                         "(a.len() = 10, n = 12)")
    assert results[1] == (failure_code, wrong_block)
    assert "`block = (128, 1, 1)` but the launch uses block (64, 2, 1)" in wrong_block
    assert results[2] == (0, "")
    assert results[3] == (failure_code, "block (512, 1, 1) has 512 threads, but kernel `apply` "
                                        "has #[launch_bounds(256, ..)]")
    assert results[4] == (0, "")
    assert len(launches) == 2, "nothing is launched when a check fails"
    assert launches[0][0] == "launch scale grid 3 1 1 block 128 1 1 shared 16"
    blobs = expected_params(addresses)
    assert [bytes.fromhex(l.split(":")[1]) for l in launches[0][1:]] == blobs
    apply_params = [bytes.fromhex(l.split(":")[1]) for l in launches[1][1:]]
    import struct
    p = apply_params[0]  # the struct by value, compared field by field (not the padding)
    assert len(p) == 24
    assert (p[0:4], p[8:16], p[16:17], p[18:24]) == (
        struct.pack("<f", 1.5), struct.pack("<d", -2.25), b"\x01", struct.pack("<3H", 7, 8, 9))
    assert apply_params[1:] == [b"\x01", struct.pack("<b", -3),
                                struct.pack("<Q", addresses[0]), struct.pack("<Q", 12),
                                struct.pack("<Q", addresses[1]), struct.pack("<Q", 12),
                                struct.pack("<Q", addresses[2])]


PARAM_SIZES = "scale=8,8,8,8,8;apply=24,1,1,8,8,8,8,8"


@pytest.fixture(scope="module")
def fake_cuda(tmp_path_factory) -> Path:
    if not have_toolchain("gcc"):
        pytest.skip("needs gcc and cuda.h")
    return build_fake_libcuda(tmp_path_factory.mktemp("fakecuda"))


def run_driver(binary: Path, fake: Path) -> str:
    r = subprocess.run([str(binary)], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, LD_LIBRARY_PATH=str(fake),
                                OXIDEC_FAKE_PARAM_SIZES=PARAM_SIZES))
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.mark.skipif(not have_toolchain("g++"), reason="needs g++ and cuda.h")
def test_c_launchers_against_the_fake_driver(generated: Path, fake_cuda: Path) -> None:
    src = generated / "driver.c"
    src.write_text(C_DRIVER)
    exe = generated / "c_driver"
    r = subprocess.run(["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", f"-I{CUDA_INCLUDE}",
                        f"-I{generated}", str(src), f"-L{fake_cuda}", "-lcuda", "-o", str(exe)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    check_run(run_driver(exe, fake_cuda), failure_code=1)  # CUDA_ERROR_INVALID_VALUE


@pytest.mark.skipif(not have_toolchain("rustc"), reason="needs rustc and cuda.h")
def test_rust_launchers_against_the_fake_driver(generated: Path, fake_cuda: Path) -> None:
    src = generated / "driver.rs"
    src.write_text(RUST_DRIVER)
    exe = generated / "rust_driver"
    r = subprocess.run(["rustc", "--edition", "2021", "-D", "warnings", "-L", str(fake_cuda),
                        str(src), "-o", str(exe)], capture_output=True, text=True, cwd=generated)
    assert r.returncode == 0, r.stderr
    check_run(run_driver(exe, fake_cuda), failure_code=1)
