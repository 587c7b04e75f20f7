"""Cold-process build time: `oxidec build` of each sample against `nvcc -ptx` of its CUDA C
twin, measured the same way (a fresh process per run, wall clock, median of N runs).

    python3 benchmarks/build_time.py [--runs 7] [--oxidec "python3 -m oxidec.cli"]

Prints a table; pass --markdown for a table to paste into RESULTS.md.
"""
from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CUDA = ROOT / "benchmarks" / "cuda"


def time_command(argv: list[str], runs: int) -> float:
    """Median wall time in seconds of `runs` fresh processes (after one warm-up for the disk
    cache, which is also what a developer's second build sees)."""
    subprocess.run(argv, check=True, capture_output=True)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--oxidec", default=f"{shlex.quote(sys.executable)} -m oxidec.cli",
                    help="command that runs oxidec (default: this Python's module)")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    nvcc = shutil.which("nvcc") or "/usr/local/bin/nvcc"
    have_nvcc = os.path.exists(nvcc)
    oxidec = shlex.split(args.oxidec)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for sample in sorted((ROOT / "samples").glob("*.rs")):
            out = Path(tmp) / f"{sample.stem}.ptx"
            ox = time_command(oxidec + ["build", str(sample), "-o", str(out),
                                        "--arch", args.arch], args.runs)
            twin = CUDA / f"{sample.stem}.cu"
            nv = None
            if have_nvcc and twin.exists():
                nv = time_command([nvcc, "-ptx", "-O3", f"-arch={args.arch}", str(twin), "-o",
                                   str(Path(tmp) / f"{sample.stem}.nvcc.ptx")], args.runs)
            rows.append((sample.stem, ox, nv))
    if args.markdown:
        print("| sample | oxidec build (s) | nvcc -ptx (s) | nvcc / oxidec |")
        print("|---|---|---|---|")
    else:
        print(f"{'sample':16} {'oxidec build':>13} {'nvcc -ptx':>10} {'nvcc/oxidec':>12}")
    for name, ox, nv in rows:
        nv_s = f"{nv:.3f}" if nv is not None else "-"
        ratio = f"{nv / ox:.1f}x" if nv is not None else "-"
        if args.markdown:
            print(f"| {name} | {ox:.3f} | {nv_s} | {ratio} |")
        else:
            print(f"{name:16} {ox:13.3f} {nv_s:>10} {ratio:>12}")
    print(f"(median of {args.runs} cold processes each, {args.arch}; "
          f"python {sys.version.split()[0]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
