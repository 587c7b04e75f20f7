"""Building the worked examples (examples/cpp-make, examples/cmake, examples/rust-cargo) from a
clean copy, as their READMEs say, with oxidec taken from this checkout (`python -m oxidec`).

Used by tests/test_examples.py, and as a script for a GPU machine that lacks a toolchain:

    python tests/examples_build.py OUTDIR     # on the CPU machine: OUTDIR/{cpp-make,cmake,rust-cargo}
    OXIDEC_EXAMPLE_BINARIES=OUTDIR pytest -m gpu tests/test_examples.py   # on the GPU machine

Without a driver library here, the programs link against the stand-in libcuda of
host_support.py, whose SONAME is the driver's: the same binary runs on the GPU machine.
"""
from __future__ import annotations

import ctypes.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from host_support import CUDA_INCLUDE, build_fake_libcuda  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
OXIDEC = f"{sys.executable} -m oxidec"
BINARIES = {"cpp-make": "build/app", "cmake": "build/app",
            "rust-cargo": "target/debug/oxidec-cargo-example"}
TOOLS = {"cpp-make": ("make", "g++"), "cmake": ("cmake", "make", "g++"),
         "rust-cargo": ("cargo",)}


def env() -> dict:
    # the checkout first, then whatever the caller's path already had (on the GPU machine,
    # the carried lark)
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    # not the variables of a make that runs the tests (`make test`): with them the examples'
    # make believes it is a sub-make and prints "Entering directory" lines
    outer = {k: v for k, v in os.environ.items()
             if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES")}
    return dict(outer, PYTHONPATH=path, OXIDEC=OXIDEC, NO_COLOR="1")


def have_tools(name: str) -> bool:
    return CUDA_INCLUDE is not None and all(shutil.which(t) for t in TOOLS[name])


def copy_example(name: str, dest: Path) -> Path:
    """The example as a clean clone has it (no build outputs)."""
    target = dest / name
    shutil.copytree(EXAMPLES / name, target,
                    ignore=shutil.ignore_patterns("build", "target", "Cargo.lock"))
    return target


def real_driver_dir(scratch: Path) -> Path | None:
    """A directory with `libcuda.so` pointing at the installed driver, if there is one (the
    driver package often ships only libcuda.so.1, which -lcuda does not find)."""
    found = ctypes.util.find_library("cuda")
    if not found:
        return None
    try:
        handle = ctypes.CDLL(found)
        path = Path(os.path.realpath(_loaded_path(handle, found)))
    except OSError:
        return None
    scratch.mkdir(parents=True, exist_ok=True)
    link = scratch / "libcuda.so"
    link.unlink(missing_ok=True)
    link.symlink_to(path)
    return scratch


def _loaded_path(handle, name: str) -> str:
    for line in Path("/proc/self/maps").read_text().splitlines():
        if "libcuda.so" in line:
            return line.split()[-1]
    return name


def driver_dir(scratch: Path, real: bool) -> Path:
    if real:
        d = real_driver_dir(scratch / "driver")
        if d is None:
            raise RuntimeError("no CUDA driver library (libcuda.so.1) on this machine")
        return d
    return build_fake_libcuda(scratch / "fakecuda")


def run(cmd: list[str], cwd: Path, extra: dict | None = None) -> subprocess.CompletedProcess:
    r = subprocess.run(cmd, cwd=cwd, env={**env(), **(extra or {})}, capture_output=True,
                       text=True, timeout=600)
    if r.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} failed in {cwd}:\n{r.stdout}\n{r.stderr}")
    return r


def build_cpp_make(src: Path, libdir: Path) -> subprocess.CompletedProcess:
    # --no-print-directory: whatever make the tests run under (CI's, or `make test` with
    # its MAKEFLAGS), the example's output is its commands only
    return run(["make", "--no-print-directory", f"OXIDEC={OXIDEC}", f"CUDA_INCLUDE={CUDA_INCLUDE}",
                f"CUDA_LIBDIR={libdir}"], src)


def configure_cmake(src: Path, libdir: Path) -> Path:
    build = src / "build"
    run(["cmake", "-S", str(src), "-B", str(build), f"-DOXIDEC={OXIDEC}",
         f"-DCUDAToolkit_INCLUDE_DIRECTORIES={CUDA_INCLUDE}",
         f"-DCUDA_cuda_driver_LIBRARY={libdir / 'libcuda.so'}"], src)
    return build


def build_cmake(src: Path) -> subprocess.CompletedProcess:
    return run(["cmake", "--build", str(src / "build")], src)


def build_cargo(src: Path, libdir: Path) -> subprocess.CompletedProcess:
    return run(["cargo", "build", "--offline"], src, {"CUDA_LIB_DIR": str(libdir),
                                                      "CARGO_TARGET_DIR": str(src / "target")})


def build_example(name: str, dest: Path, libdir: Path) -> Path:
    """Builds a clean copy of the example under `dest`; returns the program."""
    src = copy_example(name, dest)
    if name == "cpp-make":
        build_cpp_make(src, libdir)
    elif name == "cmake":
        configure_cmake(src, libdir)
        build_cmake(src)
    else:
        build_cargo(src, libdir)
    return src / BINARIES[name]


if __name__ == "__main__":
    out = Path(sys.argv[1]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    scratch = out / ".scratch"
    lib = driver_dir(scratch, real=False)
    for example in BINARIES:
        program = build_example(example, scratch, lib)
        shutil.copy2(program, out / example)
        print(f"{example}: {out / example}")
