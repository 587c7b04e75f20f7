"""The differential oracle: random programs (gen.py) compiled by oxidec and run on its simulator,
and compiled by rustc and run on the CPU; outputs compared bit for bit.

    python tests/oracle/oracle.py --seeds 0:2000 [--jobs 2] [--no-reduce] [-O 2]

Each mismatch is printed with a reduced reproducer (reduce.py). Verdicts:
- agree: both ran and every output word is equal;
- mismatch: oxidec's outputs differ, or it rejected a program rustc accepts (`rejected`),
  failed inside (`ice`), trapped where Rust did not (`trap`), or the simulator gave up;
- generator: rustc rejected the program or it panicked on the CPU -- a bug in gen.py, not in
  oxidec (programs must be valid and must not panic).
"""
from __future__ import annotations

import argparse
import multiprocessing
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
for p in (str(ROOT), str(HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)

import gen  # noqa: E402
import rustrun  # noqa: E402
import simrun  # noqa: E402


@dataclass
class Outcome:
    name: str
    program: gen.Program
    verdict: str                  # "agree", "mismatch", "generator"
    cause: str = ""
    rust: rustrun.RustResult | None = None
    sim: simrun.SimResult | None = None
    rust_error: str = ""

    def differing_slots(self) -> list[int]:
        if not (self.rust and self.rust.outputs and self.sim and self.sim.outputs):
            return []
        return [i for i, (a, b) in enumerate(zip(self.rust.outputs, self.sim.outputs)) if a != b]


def _sim_job(args) -> simrun.SimResult:
    source, inputs, opt_level = args
    return simrun.run_source(source, inputs, gen.OUTPUTS, opt_level)


_POOL = None


def pool(jobs: int):
    global _POOL
    if jobs <= 1:
        return None
    if _POOL is None:
        ctx = multiprocessing.get_context("fork")
        _POOL = ctx.Pool(jobs)
    return _POOL


def run_sims(jobs_in: list[tuple[str, list[int], int]], jobs: int) -> list[simrun.SimResult]:
    p = pool(jobs)
    if p is None:
        return [_sim_job(j) for j in jobs_in]
    return p.map(_sim_job, jobs_in, chunksize=1)


def judge(name: str, prog: gen.Program, rust: rustrun.RustResult | None, rust_error: str,
          sim: simrun.SimResult) -> Outcome:
    if rust is None:
        return Outcome(name, prog, "generator", "rustc rejects the program", None, sim, rust_error)
    if rust.outputs is None:
        if sim.status == "trap":
            return Outcome(name, prog, "generator", "panics (both)", rust, sim)
        return Outcome(name, prog, "generator", "panics on the CPU", rust, sim)
    if sim.status != "ok":
        return Outcome(name, prog, "mismatch", sim.key(), rust, sim)
    if sim.outputs != rust.outputs:
        return Outcome(name, prog, "mismatch", "outputs differ", rust, sim)
    return Outcome(name, prog, "agree", "", rust, sim)


def check_programs(progs: dict[str, gen.Program], opt_level: int = 2,
                   jobs: int = 2) -> list[Outcome]:
    """Runs the programs both ways; rustc compiles while the simulator runs."""
    rust_box: dict = {}
    pool(jobs)  # fork the workers before the rustc thread starts: never fork a threaded process

    def rust_side():
        try:
            rust_box["r"] = rustrun.run_programs(
                {n: (p.source(), p.inputs) for n, p in progs.items()}, gen.OUTPUTS)
        except BaseException as err:  # re-raised below, in the caller's thread
            rust_box["err"] = err

    th = threading.Thread(target=rust_side)
    th.start()
    names = list(progs)
    sims = run_sims([(progs[n].source(), progs[n].inputs, opt_level) for n in names], jobs)
    th.join()
    if "err" in rust_box:
        raise rust_box["err"]
    results, rejected = rust_box["r"]
    return [judge(n, progs[n], results.get(n), rejected.get(n, ""), s)
            for n, s in zip(names, sims)]


def check_seeds(seeds, opt_level: int = 2, jobs: int = 2, batch: int = 100,
                features: gen.Features | None = None) -> list[Outcome]:
    seeds = list(seeds)
    out: list[Outcome] = []
    for i in range(0, len(seeds), batch):
        chunk = {f"p{s}": gen.generate(s, features) for s in seeds[i:i + batch]}
        out += check_programs(chunk, opt_level, jobs)
    return out


def describe(o: Outcome, reduced: gen.Program | None = None, reduced_outcome=None) -> str:
    lines = [f"=== {o.name} (seed {o.program.seed}): {o.verdict}: {o.cause}"]
    shown, so = (reduced, reduced_outcome) if reduced is not None else (o.program, o)
    if o.verdict == "generator" and o.rust_error:
        lines.append(o.rust_error[:3000])
    if so.sim and so.sim.status != "ok":
        lines.append("oxidec: " + so.sim.detail.strip()[-2000:])
    slots = so.differing_slots()
    for k in slots:
        lines.append(f"  res[{k}]: rustc {so.rust.outputs[k]:#018x}  "
                     f"oxidec {so.sim.outputs[k]:#018x}")
    lines.append(f"  inputs: [{', '.join(hex(w) for w in shown.inputs)}]")
    lines.append(("reduced " if reduced is not None else "") + "program:")
    lines.append(shown.source())
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="0:200", help="A:B (half-open) or a comma list")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("-O", dest="opt_level", type=int, default=2)
    ap.add_argument("--no-reduce", action="store_true")
    ap.add_argument("--no-eval-order", action="store_true",
                    help="leave out the evaluation-order constructs")
    ap.add_argument("--max-report", type=int, default=10, help="mismatches reduced and printed")
    ap.add_argument("--bundle", type=Path, default=None,
                    help="also write the agreeing programs as a GPU bundle (gpu_bundle.py run DIR)")
    args = ap.parse_args(argv)
    if ":" in args.seeds:
        a, b = args.seeds.split(":")
        seeds = range(int(a), int(b))
    else:
        seeds = [int(s) for s in args.seeds.split(",")]
    feats = gen.Features(eval_order=not args.no_eval_order)
    t0 = time.time()
    outcomes = check_seeds(seeds, args.opt_level, args.jobs, features=feats)
    if args.bundle:
        import gpu_bundle
        gpu_bundle.save_outcomes(args.bundle, outcomes)
    counts = Counter((o.verdict, o.cause) for o in outcomes)
    bad = [o for o in outcomes if o.verdict != "agree"]
    for o in bad[:args.max_report]:
        if o.verdict == "mismatch" and not args.no_reduce:
            import reduce
            red, ro = reduce.reduce(o, args.opt_level)
            print(describe(o, red, ro))
        else:
            print(describe(o))
    print(f"oracle: {len(outcomes)} programs in {time.time() - t0:.0f} s, -O{args.opt_level}")
    for (verdict, cause), n in sorted(counts.items()):
        print(f"  {n:5d} {verdict}{': ' + cause if cause else ''}")
    print("  mismatching seeds: " + ",".join(str(o.program.seed) for o in bad
                                              if o.verdict == "mismatch"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
