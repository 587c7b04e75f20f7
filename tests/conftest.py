"""Shared pytest machinery for every test directory.

- `@pytest.mark.gpu`: the test needs an NVIDIA GPU; skipped (not failed) when the CUDA driver
  cannot be initialised or reports no device. Checked once per session.
- `rng`: a NumPy Generator seeded afresh every run. The session seed is printed in the header,
  and a failing test's report carries the seed and the command that reproduces the draw
  (`--seed N`). Each test gets its own stream derived from (seed, test id), so reproducing one
  test does not depend on which others ran before it.
- `--bless`: regenerate expected outputs (tests/ui/*.stderr, golden MIR, ...) instead of
  comparing; read it as `request.config.bless` or through the `bless` fixture.
- `ptxas`: the path of the ptxas binary (/usr/local/bin/ptxas or on PATH, or $PTXAS); skips the
  test when there is none.
- A packaging guard: pyproject.toml lists oxidec's packages by hand (the grammar is mapped in
  from grammar/, which `packages.find` cannot express), so a run from a checkout fails, with
  a message saying what to add, when a directory of .py files under oxidec/ is not listed.
"""
from __future__ import annotations

import os
import shutil
import sys
import zlib
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

if str(ROOT) not in sys.path:  # `import samples.reference` and the checkout's oxidec
    sys.path.insert(0, str(ROOT))


# --------------------------------------------------------------------------------------------
# options


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("oxidec")
    group.addoption("--bless", action="store_true", default=False,
                    help="rewrite expected outputs (tests/ui/*.stderr, ...) from the actual ones")
    group.addoption("--seed", type=int, default=None,
                    help="seed for the `rng` fixture (default: a fresh one every run)")
    group.addoption("--oracle-seeds", type=int, default=None,
                    help="tests/oracle: run this many random programs instead of the fixed CI set")


def pytest_configure(config: pytest.Config) -> None:
    config.bless = config.getoption("bless")
    seed = config.getoption("seed")
    if seed is None:
        import secrets
        seed = secrets.randbits(63)
    config.rng_seed = seed
    config.packaging_problems = packaging_problems()


def pytest_report_header(config: pytest.Config) -> list[str]:
    lines = [f"oxidec: rng seed {config.rng_seed} (reproduce with --seed {config.rng_seed})"]
    if config.bless:
        lines.append("oxidec: --bless: expected outputs will be rewritten")
    return lines


@pytest.fixture
def bless(request: pytest.FixtureRequest) -> bool:
    return request.config.bless


# --------------------------------------------------------------------------------------------
# rng


@pytest.fixture
def rng(request: pytest.FixtureRequest):
    np = pytest.importorskip("numpy")
    seed = request.config.rng_seed
    # One independent stream per test, stable across runs with the same --seed.
    stream = zlib.crc32(request.node.nodeid.encode())
    request.node.user_properties.append(("rng_seed", seed))
    return np.random.default_rng([seed, stream])


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    report = outcome.get_result()
    if report.failed and "rng" in getattr(item, "fixturenames", ()):
        seed = item.config.rng_seed
        report.sections.append(
            ("rng", f"seed {seed}; reproduce: python -m pytest --seed {seed} '{item.nodeid}'"))


# --------------------------------------------------------------------------------------------
# gpu


@cache
def gpu_unavailable_reason() -> str | None:
    """None when a CUDA device can be used, else why not."""
    if os.environ.get("OXIDEC_NO_GPU"):
        return "OXIDEC_NO_GPU is set"
    try:
        from cuda.bindings import driver
    except Exception as err:  # not installed, or a broken install
        return f"cuda-python is not importable ({type(err).__name__}: {err})"
    try:
        (err,) = driver.cuInit(0)
        if err != driver.CUresult.CUDA_SUCCESS:
            return f"cuInit failed: {err.name if hasattr(err, 'name') else err}"
        err, count = driver.cuDeviceGetCount()
        if err != driver.CUresult.CUDA_SUCCESS:
            return f"cuDeviceGetCount failed: {err.name if hasattr(err, 'name') else err}"
        if count == 0:
            return "no CUDA device"
    except Exception as err:
        return f"the CUDA driver is not usable ({type(err).__name__}: {err})"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    gpu_items = [item for item in items if item.get_closest_marker("gpu")]
    if not gpu_items:
        return
    reason = gpu_unavailable_reason()
    if reason:
        skip = pytest.mark.skip(reason=f"needs an NVIDIA GPU: {reason}")
        for item in gpu_items:
            item.add_marker(skip)


# --------------------------------------------------------------------------------------------
# ptxas


def find_ptxas() -> str | None:
    for candidate in (os.environ.get("PTXAS"), "/usr/local/bin/ptxas", shutil.which("ptxas")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


@pytest.fixture(scope="session")
def ptxas() -> str:
    path = find_ptxas()
    if path is None:
        pytest.skip("ptxas not found (set PTXAS, or put it on PATH)")
    return path


@pytest.fixture
def assemble(ptxas, tmp_path):
    """`assemble(ptx, arch)`: ptxas must accept the PTX for that arch (its stderr otherwise)."""
    import subprocess

    def run(ptx: str, arch: str) -> None:
        path = tmp_path / f"k_{arch}.ptx"
        path.write_text(ptx)
        r = subprocess.run([ptxas, f"-arch={arch}", str(path), "-o", str(path.with_suffix(".cubin"))],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    return run


# --------------------------------------------------------------------------------------------
# packaging guard


def packaging_problems() -> list[str]:
    """Packages under oxidec/ that pyproject.toml does not list, and listed ones that are gone."""
    pyproject = ROOT / "pyproject.toml"
    if not pyproject.is_file() or not (ROOT / "oxidec").is_dir():
        return []  # not a checkout
    import tomllib

    try:
        setup = tomllib.loads(pyproject.read_text())["tool"]["setuptools"]
        listed = set(setup["packages"])
        mapped = setup.get("package-dir", {})
    except (KeyError, TypeError, ValueError):
        return []  # laid out some other way; nothing to guard
    present = set()
    for py in (ROOT / "oxidec").rglob("*.py"):
        parts = py.parent.relative_to(ROOT).parts
        if "__pycache__" not in parts:
            present.add(".".join(parts))
    problems = [f"pyproject.toml [tool.setuptools] packages does not list {name!r}: "
                f"`pip install .` would leave it out" for name in sorted(present - listed)]
    for name in sorted(listed):
        where = ROOT / mapped.get(name, name.replace(".", "/"))
        if not where.is_dir():
            problems.append(f"pyproject.toml lists package {name!r} but {where.relative_to(ROOT)}/ "
                            f"does not exist: `pip install .` would fail")
    return problems


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    if config.option.verbose < 0:  # `-q` (as `make test` runs it) hides the header's seed line
        seed = config.rng_seed
        terminalreporter.write_line(f"oxidec: rng seed {seed} (reproduce with --seed {seed})")
    if config.packaging_problems:
        terminalreporter.section("packaging", red=True)
        for line in config.packaging_problems:
            terminalreporter.line(line, red=True)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if session.config.packaging_problems and session.exitstatus == 0:
        session.exitstatus = 1
