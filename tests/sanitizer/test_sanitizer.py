"""compute-sanitizer's memcheck, racecheck and synccheck report nothing on any sample
(run_sanitizer.py does the work; this runs it on the GPU machine, on the small sizes)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.mark.gpu
def test_every_sample_is_sanitizer_clean(rng) -> None:
    if shutil.which("compute-sanitizer") is None:
        pytest.fail("compute-sanitizer is not on PATH on the GPU machine")
    proc = subprocess.run([sys.executable, str(HERE / "run_sanitizer.py"), "--small",
                           "--seed", str(int(rng.integers(1 << 30))), "--jobs", "8"],
                          capture_output=True, text=True, timeout=3600)
    assert proc.returncode == 0, proc.stdout[-20000:] + proc.stderr[-5000:]
    assert "0 unclean runs" in proc.stdout


sys.path.insert(0, str(HERE))
import run_sanitizer as rs  # noqa: E402


@pytest.mark.parametrize("case", rs.ALL_CASES, ids=lambda c: c.id)
def test_commands_are_well_formed(case, tmp_path, rng) -> None:
    # Without a GPU: every sample's command line runs in `oxidec run` (on the simulator, small
    # sizes; the output table is printed as a user sees it) and its saved outputs match the
    # reference, so the GPU run tests kernels.
    inputs = case.make_inputs(rng, small=True)
    save = tmp_path / "out.npz"
    cmd = [a if a != "--gpu" else "--sim" for a in rs.command(case, inputs, tmp_path, save)]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=rs.ROOT)
    assert proc.returncode == 0, " ".join(cmd) + "\n" + proc.stderr
    assert rs.check_outputs(case, inputs, save) == []
