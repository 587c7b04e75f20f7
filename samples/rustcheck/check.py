"""Checks the samples with rustc: each must compile as real Rust against a CPU mock of the
cuda-oxide API (mock/), its host main() must run, and every kernel, run thread by thread on
the CPU, must match samples/reference.py on the same random inputs, at both sizes.

    python3 samples/rustcheck/check.py [--seed N] [--no-mains]

Needs cargo (offline is fine: nothing is downloaded). Rust never contracts a*b+c and its
mul_add is a true fma, so this also confirms that the tolerances hold for unfused arithmetic
and that the mandelbrot reference is exact.
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from samples.reference import ALL_CASES  # noqa: E402

BIN = HERE / "target" / "release"


def build() -> None:
    subprocess.run(["cargo", "build", "--release", "--offline", "--quiet"], cwd=HERE, check=True)


# Samples that use shared memory, barriers, atomics or warp collectives cannot run thread by
# thread on the CPU mock: the mock (and so this check) covers only the samples it builds.
RUNNER_CASES = set(re.findall(r'"(\w+::\w+)" =>', (HERE / "runner" / "src" / "main.rs").read_text()))


def run_mains() -> int:
    bad = 0
    for rs in sorted(HERE.parent.glob("*.rs")):
        if not (BIN / rs.stem).exists():
            print(f"main   {rs.stem:34s} skipped (not built against the mock)")
            continue
        proc = subprocess.run([BIN / rs.stem], capture_output=True, text=True)
        last = (proc.stdout.strip().splitlines() or [""])[-1]
        print(f"main   {rs.stem:34s} {'OK ' if proc.returncode == 0 else 'BAD'} {last[:70]}")
        if proc.returncode:
            print(proc.stderr)
            bad += 1
    return bad


def run_case(case, inputs) -> dict[str, np.ndarray]:
    grid, block = case.launch(inputs)
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        for p in case.params:
            np.asarray(inputs[p.name], p.dtype).reshape(-1).tofile(d / f"{p.name}.bin")
        (d / "launch.txt").write_text(" ".join(map(str, grid + block)))
        subprocess.run([BIN / "runner", case.id, str(d)], check=True)
        return {p.name: np.fromfile(d / f"{p.name}.out", p.dtype) for p in case.outputs}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int)
    parser.add_argument("--no-mains", action="store_true", help="skip running each sample's main()")
    args = parser.parse_args()
    if not shutil.which("cargo"):
        print("rustcheck: cargo not found")
        return 2
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**63)
    rng = np.random.default_rng(seed)
    build()
    bad = 0 if args.no_mains else run_mains()
    for small in (True, False):
        for case in ALL_CASES:
            if case.id not in RUNNER_CASES:
                continue
            inputs = case.make_inputs(rng, small=small)
            problems = case.check(inputs, run_case(case, inputs))
            sizes = " ".join(f"{k}={v.size}" for k, v in inputs.items() if isinstance(v, np.ndarray))
            print(f"{'small' if small else 'full '}  {case.id:34s} {'BAD' if problems else 'OK '} {sizes}")
            for p in problems:
                print("   ", p)
            bad += bool(problems)
    print(f"rustcheck: seed {seed}: {'OK' if not bad else f'{bad} failures'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
