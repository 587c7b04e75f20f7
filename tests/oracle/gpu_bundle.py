"""The oracle's programs on the GPU, in one device call.

    python tests/oracle/gpu_bundle.py write DIR --seeds 0:1000 [--jobs 2]   # here (rustc)
    python tests/oracle/gpu_bundle.py run DIR [--recompile --jobs N]        # on the GPU machine

`write` compiles each program with oxidec (PTX, `--fmad=false`), runs it on the simulator and
with rustc on the CPU, and writes DIR/manifest.json (seed, inputs, both expected outputs) and
DIR/<name>.ptx + DIR/<name>.sig.pkl (the kernel signature). Programs where the simulator and
rustc disagree are marked and left out of the comparison (the oracle reports those).
`run` loads each PTX as it is (no compiler needed on the GPU machine beyond oxidec's runtime),
or with `--recompile` first compiles each program's source again with the oxidec there (the
rustc outputs stay valid for any compiler: a bundle written once checks later compilers), and
launches it and compares with rustc's outputs, word for word: integers exactly, floats by
their bits (the generator uses only correctly rounded float operations). It prints a summary
and writes DIR/report.json; exit 1 on any mismatch.
"""
from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
for p in (str(ROOT), str(HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)

import gen  # noqa: E402
import oracle  # noqa: E402


def write_bundle(out: Path, seeds, jobs: int = 2) -> dict:
    outcomes = oracle.check_seeds(seeds, jobs=jobs)
    return save_outcomes(out, outcomes)


def save_outcomes(out: Path, outcomes) -> dict:
    """The bundle of the oracle's outcomes: the PTX of those where simulator and rustc agree."""
    out.mkdir(parents=True, exist_ok=True)
    entries = []
    for o in outcomes:
        entry = {"name": o.name, "seed": o.program.seed, "inputs": o.program.inputs,
                 "verdict": o.verdict, "cause": o.cause}
        if o.verdict == "agree" and o.sim.ptx:
            (out / f"{o.name}.ptx").write_text(o.sim.ptx)
            (out / f"{o.name}.sig.pkl").write_bytes(o.sim.signatures)
            (out / f"{o.name}.rs").write_text(o.program.source())
            entry["expected"] = o.rust.outputs
        entries.append(entry)
    manifest = {"outputs": gen.OUTPUTS, "programs": entries}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=0))
    return manifest


def _compile(path: str) -> tuple[str, bytes] | str:
    """(PTX, pickled signatures) of one bundled program, as `write` compiles it; or the error."""
    from oxidec.api import compile_source
    try:
        mod = compile_source(Path(path).read_text(), Path(path).name, fmad=False, opt_level=2)
    except Exception as err:  # a program oxidec once compiled and now refuses: a finding
        return f"{type(err).__name__}: {err}"
    return mod.ptx, pickle.dumps(mod.signatures)


def run_bundle(bundle: Path, recompile: bool = False, jobs: int = 2) -> dict:
    import numpy as np
    from oxidec.api import KernelModule
    manifest = json.loads((bundle / "manifest.json").read_text())
    n_out = manifest["outputs"]
    mismatches, ran = [], 0
    todo = [e for e in manifest["programs"] if "expected" in e]
    compiled = {}
    if recompile:
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            compiled = dict(zip((e["name"] for e in todo),
                                pool.map(_compile, [str(bundle / f"{e['name']}.rs") for e in todo],
                                         chunksize=8)))
    for entry in todo:
        name = entry["name"]
        if recompile:
            got = compiled[name]
            if isinstance(got, str):
                mismatches.append({"name": name, "seed": entry["seed"], "error": got})
                continue
            ptx, sigs = got[0], pickle.loads(got[1])
        else:
            ptx = (bundle / f"{name}.ptx").read_text()
            sigs = pickle.loads((bundle / f"{name}.sig.pkl").read_bytes())
        mod = KernelModule.from_ptx(ptx, sigs, name=name)
        out = np.full(n_out, 0xDEAD_BEEF_DEAD_BEEF, dtype=np.uint64)
        try:
            mod.k0.launch(1, n_out, np.array(entry["inputs"], dtype=np.uint64), out, device="gpu")
        except Exception as err:
            mismatches.append({"name": name, "seed": entry["seed"], "error": str(err)})
            continue
        ran += 1
        got = [int(w) for w in out]
        diff = [k for k, (a, b) in enumerate(zip(entry["expected"], got)) if a != b]
        if diff:
            mismatches.append({"name": name, "seed": entry["seed"], "slots": diff,
                               "expected": [hex(entry["expected"][k]) for k in diff],
                               "gpu": [hex(got[k]) for k in diff]})
    report = {"programs": ran, "mismatches": mismatches}
    (bundle / "report.json").write_text(json.dumps(report, indent=1))
    return report


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("write")
    w.add_argument("dir", type=Path)
    w.add_argument("--seeds", default="0:1000")
    w.add_argument("--jobs", type=int, default=2)
    r = sub.add_parser("run")
    r.add_argument("dir", type=Path)
    r.add_argument("--recompile", action="store_true",
                   help="compile each program's .rs with this oxidec instead of the bundled PTX")
    r.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    if args.cmd == "write":
        a, b = args.seeds.split(":")
        m = write_bundle(args.dir, range(int(a), int(b)), args.jobs)
        kept = sum("expected" in e for e in m["programs"])
        print(f"gpu_bundle: {kept} of {len(m['programs'])} programs written to {args.dir} "
              f"(the rest: simulator and rustc disagree, or rustc rejects: see the oracle)")
        return 0
    rep = run_bundle(args.dir, args.recompile, args.jobs)
    print(f"gpu_bundle: {rep['programs']} programs run on the GPU, "
          f"{len(rep['mismatches'])} mismatches")
    for m in rep["mismatches"][:20]:
        print("  ", json.dumps(m))
    return 1 if rep["mismatches"] else 0


if __name__ == "__main__":
    sys.exit(main())
