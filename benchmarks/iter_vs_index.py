"""The iterator-and-closure reduction against the same reduction as an index loop, both compiled
by oxidec from samples/iter_reduce.rs (issue 10: "the iterator-based reduction's PTX is within
2% of the index-loop version on the GPU").

    python3 benchmarks/iter_vs_index.py               # on the GPU machine
    python3 benchmarks/iter_vs_index.py --dry-run     # here: the simulator, small inputs

Both kernels run on the same inputs (each with freshly poisoned outputs), are checked against
the NumPy reference and against each other bit for bit (they add the same terms in the same
order), then timed with CUDA events (median of --repeat launches after --warmup). The two are
timed alternately, in rounds, so that clock and thermal drift hit both alike. Prints one line
per kernel and the ratio index/iter (>= 0.98: within 2%).
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from oxidec.api import compile_file  # noqa: E402
from samples.reference import SAMPLES, _uniform_f32  # noqa: E402

ITER, INDEX = SAMPLES["iter_reduce"]


def make_inputs(rng, rows: int, cols: int) -> dict:
    return {"x": _uniform_f32(rng, rows * cols), "cols": np.uint32(cols),
            "out": np.full(rows, np.nan, np.float32)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dry-run", action="store_true", help="simulator, small inputs, no timing")
    ap.add_argument("--rows", type=int, default=1 << 20)
    ap.add_argument("--cols", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    device = "sim" if args.dry_run else "gpu"
    rows, cols = (700, 37) if args.dry_run else (args.rows, args.cols)
    module = compile_file(ROOT / "samples" / "iter_reduce.rs")
    inputs = make_inputs(np.random.default_rng(args.seed), rows, cols)
    block = 256
    grid = (rows + block - 1) // block
    results, times = {}, {c.kernel: [] for c in (ITER, INDEX)}
    for case in (ITER, INDEX):
        outs = case.fresh_outputs(inputs)
        module.kernel(case.kernel).launch(grid, block, *case.args(inputs, outs), device=device)
        problems = case.check(inputs, outs)
        if problems:
            print("\n".join(problems))
            return 1
        results[case.kernel] = outs["out"]
    if not np.array_equal(results[ITER.kernel].view(np.uint32),
                          results[INDEX.kernel].view(np.uint32)):
        print("the two kernels disagree")
        return 1
    print(f"iter_reduce: {rows} rows x {cols} columns, both kernels correct and bit-identical")
    if args.dry_run:
        return 0
    for _ in range(args.rounds):
        for case in (ITER, INDEX):
            outs = case.fresh_outputs(inputs)
            res = module.kernel(case.kernel).launch(grid, block, *case.args(inputs, outs),
                                                    device="gpu", time=True,
                                                    warmup=args.warmup, repeat=args.repeat)
            times[case.kernel].append(res.timing.median_ms)
    med = {k: statistics.median(v) for k, v in times.items()}
    gbs = rows * cols * 4 / 1e9
    for k, ms in med.items():
        print(f"{k:16s} {ms:.4f} ms  ({gbs / (ms * 1e-3):.0f} GB/s)  rounds: "
              + ", ".join(f"{t:.4f}" for t in times[k]))
    ratio = med[INDEX.kernel] / med[ITER.kernel]
    print(f"index / iter = {ratio:.4f}  ({'within' if ratio >= 0.98 else 'NOT within'} 2%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
