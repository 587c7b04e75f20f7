"""compute-sanitizer (memcheck, racecheck, synccheck) over every sample kernel, on the GPU.

    python tests/sanitizer/run_sanitizer.py [--tools memcheck,racecheck,synccheck]
                                            [--kernel NAME] [--small] [--seed N] [--jobs N]

Each kernel of samples/reference.py's table runs as a user would run it,
`compute-sanitizer --tool T python -m oxidec.cli run samples/X.rs -k K --gpu ...`, with the
arguments, grid and block its sample test uses (inputs written to .npy files, scalars and
enum values as --arg text), and its outputs saved and compared with the NumPy reference, so
that a clean report comes from a run that computed the right thing. Prints one line per
(kernel, tool) and exits 1 when any report is not clean. compute-sanitizer must be on PATH.
--jobs runs that many sanitizer processes at once (each is mostly process start-up and
instrumentation on the host: the whole table takes minutes one at a time).
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from samples.reference import ALL_CASES  # noqa: E402

TOOLS = ("memcheck", "racecheck", "synccheck")
# memcheck and synccheck end with the first, racecheck with the second
CLEAN = ("ERROR SUMMARY: 0 errors",
         "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)")


def rust_text(value) -> str:
    """The host API's form of an enum value as `--arg` text: ("Leaky", 0.1) -> Leaky(0.1)."""
    if isinstance(value, str):
        return value
    if isinstance(value, tuple) and value and isinstance(value[0], str):
        if len(value) == 2 and isinstance(value[1], dict):  # a struct variant: V { a: 1 }
            return f"{value[0]} " + rust_text(value[1])
        return f"{value[0]}(" + ", ".join(rust_text(v) for v in value[1:]) + ")"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k}: {rust_text(v)}" for k, v in value.items()) + " }"
    return repr(value.item() if hasattr(value, "item") else value)


def command(case, inputs, work: Path, save: Path) -> list[str]:
    grid, block = case.launch(inputs)
    cmd = [sys.executable, "-m", "oxidec.cli", "run", str(case.path), "-k", case.kernel, "--gpu",
           "--grid", ",".join(map(str, grid)), "--block", ",".join(map(str, block)),
           "--save", str(save)]
    for p in case.params:
        v = inputs[p.name]
        if p.kind in ("slice", "disjoint"):
            f = work / f"{p.name}.npy"
            np.save(f, np.asarray(v, p.dtype))
            cmd += ["--arg", f"{p.name}={f}"]
        elif p.kind == "value":
            cmd += ["--arg", f"{p.name}={rust_text(v)}"]
        else:
            cmd += ["--arg", f"{p.name}={np.asarray(v).item()!r}".replace("'", "")]
    return cmd


def check_outputs(case, inputs, save: Path) -> list[str]:
    if not save.exists():
        return ["no outputs saved"]
    got = np.load(save)
    merged = dict(inputs)
    for name in case.output_names:
        if name in got:
            merged[name] = got[name]
    return case.check(merged)


def run_one(case, tool: str, seed: int, small: bool, sanitizer: str) -> tuple[bool, str]:
    rng = np.random.default_rng(seed)
    inputs = case.make_inputs(rng, small=small)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        save = work / "out.npz"
        cmd = [sanitizer, "--tool", tool, "--error-exitcode", "97", "--target-processes", "all",
               *command(case, inputs, work, save)]
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=1800,
                              env={**os.environ, "PYTHONPATH": os.pathsep.join(
                                  p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)})
        text = proc.stdout + proc.stderr
        problems = check_outputs(case, inputs, save) if proc.returncode == 0 else []
    clean = proc.returncode == 0 and any(c in text for c in CLEAN) and not problems
    summary = next((ln for ln in text.splitlines() if "ERROR SUMMARY" in ln), "no summary")
    detail = "" if clean else f"\n  exit {proc.returncode}; {problems[:3]}\n" + text[-3000:]
    return clean, summary.strip() + detail


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tools", default=",".join(TOOLS))
    ap.add_argument("--kernel", default="")
    ap.add_argument("--small", action="store_true", help="the small input sizes")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    sanitizer = shutil.which("compute-sanitizer")
    if sanitizer is None:
        print("compute-sanitizer is not on PATH", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**31)
    print(f"seed {seed}")
    runs = [(case, tool) for case in ALL_CASES if not args.kernel or case.kernel == args.kernel
            for tool in args.tools.split(",")]
    bad = 0
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futures = {pool.submit(run_one, case, tool, seed, args.small, sanitizer): (case, tool)
                   for case, tool in runs}
        for fut in as_completed(futures):
            case, tool = futures[fut]
            clean, summary = fut.result()
            print(f"{case.id:36s} {tool:10s} {'clean' if clean else 'NOT CLEAN'}  {summary}",
                  flush=True)
            bad += not clean
    print(f"{len(runs)} runs of {len({c.id for c, _ in runs})} kernels")
    print(f"{bad} unclean runs")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
