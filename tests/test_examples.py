"""The worked examples build from a clean copy (CI: compile and link only, against a stand-in
libcuda), rebuild exactly what a kernel edit affects, and run correctly on a GPU (`gpu`)."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

import examples_build as eb

ROOT = Path(__file__).resolve().parents[1]


def needs(name: str):
    return pytest.mark.skipif(not eb.have_tools(name),
                              reason=f"needs {', '.join(eb.TOOLS[name])} and cuda.h")


@pytest.fixture(scope="module")
def fake_lib(tmp_path_factory) -> Path:
    if eb.CUDA_INCLUDE is None:
        pytest.skip("needs cuda.h")
    return eb.driver_dir(tmp_path_factory.mktemp("lib"), real=False)


def touch_later(path: Path) -> None:
    """Edit `path`, unmistakably for make and ninja: everything in its tree is aged by a
    minute first, then `path` gets the current time (so what is rebuilt afterwards is newer
    than it, whatever the file system's time resolution)."""
    tree = path.parent.parent
    for f in tree.rglob("*"):
        if not f.is_symlink():
            st = f.stat()
            os.utime(f, (st.st_atime - 60, st.st_mtime - 60))
    os.utime(path)


def run_on_fake_driver(program: Path, fake: Path, name: str, launches: list[str]) -> None:
    """The program against the stand-in driver: its contract refusal is the GPU run's, its
    launches are recorded, and its result check fails (no kernel ran): the host code works up
    to the GPU."""
    r = subprocess.run([str(program)], capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, LD_LIBRARY_PATH=str(fake)))
    lines = r.stdout.splitlines()
    assert re.match(EXPECTED[name].split("\\n")[0], lines[0]), r.stdout + r.stderr
    assert [l for l in lines if l.startswith("launch ")] == launches
    assert r.returncode == 1 and any("elements wrong" in l for l in lines), r.stdout + r.stderr


def commands(output: str) -> str:
    """The commands make ran: not its own chatter ("make[1]: Entering directory ...")."""
    return "\n".join(line for line in output.splitlines()
                     if line.strip() and not re.match(r"make(\[\d+\])?: ", line))


@needs("cpp-make")
def test_cpp_make_builds_and_rebuilds_exactly_the_dependants(tmp_path: Path, fake_lib) -> None:
    src = eb.copy_example("cpp-make", tmp_path)
    first = commands(eb.build_cpp_make(src, fake_lib).stdout)
    assert "oxidec build kernels/axpy.rs --emit header -o build/axpy.h -MD" in first
    assert "oxidec build kernels/square.rs" in first
    assert (src / "build/axpy.h.d").read_text() == "build/axpy.h: kernels/axpy.rs\n"
    run_on_fake_driver(src / "build/app", fake_lib, "cpp-make",
                       ["launch axpy grid 4096 1 1 block 256 1 1 shared 0",
                        "launch square grid 4096 1 1 block 256 1 1 shared 0"])
    again = eb.build_cpp_make(src, fake_lib).stdout
    assert "Nothing to be done" in again or again.strip() == ""

    touch_later(src / "kernels/axpy.rs")
    rebuilt = commands(eb.build_cpp_make(src, fake_lib).stdout).splitlines()
    assert len(rebuilt) == 3, rebuilt
    assert "oxidec build kernels/axpy.rs" in rebuilt[0]
    assert re.search(r"g\+\+ .* -c main\.cpp -o build/main\.o$", rebuilt[1])
    assert re.search(r"-o build/app ", rebuilt[2])
    assert "square.rs" not in rebuilt[0] and "square_step.cpp" not in "\n".join(rebuilt)

    touch_later(src / "kernels/square.rs")
    rebuilt = commands(eb.build_cpp_make(src, fake_lib).stdout).splitlines()
    assert [("square.rs" in rebuilt[0]), ("square_step.cpp" in rebuilt[1]),
            ("build/app" in rebuilt[2])] == [True, True, True] and len(rebuilt) == 3, rebuilt


@needs("cmake")
def test_cmake_builds_and_tracks_the_kernel_sources(tmp_path: Path, fake_lib) -> None:
    src = eb.copy_example("cmake", tmp_path)
    eb.configure_cmake(src, fake_lib)
    first = eb.build_cmake(src).stdout
    assert "oxidec kernels/relu.rs -> oxidec/relu.h" in first
    assert "oxidec kernels/scale.rs -> oxidec/scale.h" in first
    run_on_fake_driver(src / "build/app", fake_lib, "cmake",
                       ["launch relu grid 3001 1 1 block 128 1 1 shared 0",
                        "launch scale grid 3001 1 1 block 128 1 1 shared 0"])
    assert "oxidec " not in eb.build_cmake(src).stdout
    touch_later(src / "kernels/relu.rs")
    second = eb.build_cmake(src).stdout
    assert "oxidec kernels/relu.rs -> oxidec/relu.h" in second
    assert "scale.rs" not in second and "Linking CXX executable app" in second


@needs("rust-cargo")
def test_cargo_builds_offline(tmp_path: Path, fake_lib) -> None:
    src = eb.copy_example("rust-cargo", tmp_path)
    r = eb.build_cargo(src, fake_lib)
    assert "warning" not in r.stderr, r.stderr
    run_on_fake_driver(src / eb.BINARIES["rust-cargo"], fake_lib, "rust-cargo",
                       ["launch lerp grid 4096 1 1 block 256 1 1 shared 0",
                        "launch hash grid 4096 1 1 block 256 1 1 shared 0"])
    generated = list((src / "target").glob("debug/build/oxidec-cargo-example-*/out/vector.rs"))
    assert generated and "pub unsafe fn launch_lerp(" in generated[0].read_text()


def test_readme_shows_each_in_under_ten_lines() -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Use it from your build", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```\w*\n(.*?)```", section, re.S)
    assert len(blocks) >= 3
    for block in blocks:
        assert len(block.strip().splitlines()) < 10, block
    for name in eb.BINARIES:
        assert f"examples/{name}" in section
        assert (ROOT / "examples" / name / "README.md").exists()


# -- on the GPU ---------------------------------------------------------------------------

EXPECTED = {
    "cpp-make": (r"^refused: launch contract of `axpy` violated: `requires x\.len\(\) == "
                 r"y\.len\(\)` is false \(x\.len\(\) = 1048576, y\.len\(\) = 1048575\)\n"
                 r"cpp-make: 1048576 elements OK"),
    "cmake": (r"^refused: launch contract of `scale` violated: `block = \(128, 1, 1\)` but the "
              r"launch uses block \(256, 1, 1\)\ncmake: 384017 elements OK"),
    "rust-cargo": (r"^refused: launch contract of `lerp` violated: `requires a\.len\(\) == "
                   r"b\.len\(\)` is false \(a\.len\(\) = 1048576, b\.len\(\) = 1048575\)\n"
                   r"rust-cargo: 1048576 elements OK"),
}


@pytest.mark.gpu
@pytest.mark.parametrize("name", sorted(eb.BINARIES))
def test_example_runs_on_the_gpu(name: str, tmp_path: Path) -> None:
    """Built here when the toolchain is present; else the binary carried from a CPU machine
    (OXIDEC_EXAMPLE_BINARIES, see examples_build.py)."""
    carried = os.environ.get("OXIDEC_EXAMPLE_BINARIES")
    if carried:
        program = Path(carried) / name
        assert program.exists(), f"{program} missing: run tests/examples_build.py there"
    else:
        assert eb.have_tools(name), (f"{name}: no toolchain here ({', '.join(eb.TOOLS[name])}, "
                                     "cuda.h); build it on a CPU machine with "
                                     "tests/examples_build.py and set OXIDEC_EXAMPLE_BINARIES")
        program = eb.build_example(name, tmp_path, eb.driver_dir(tmp_path, real=True))
    r = subprocess.run([str(program)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"{name} exited {r.returncode}:\n{r.stdout}\n{r.stderr}"
    assert re.search(EXPECTED[name], r.stdout, re.M), r.stdout
