"""Digests of what oxidec makes of many inputs, to show that a compile-speed change leaves
the generated code and the diagnostics alone.

    python benchmarks/ptx_digest.py --write BASE.json      # on the checkout before
    python benchmarks/ptx_digest.py --compare BASE.json    # on the checkout after

Inputs: every samples/*.rs, every .rs under tests/ (ui cases, run kernels, MIR cases, ...),
the corpus files when ../shared/corpus is there, and the generated inputs of
build_time.py's scaling series at small sizes; each at -O2 (and the samples and ui cases at
-O0 too), for sm_90. The digest of an input is the SHA-256 of its PTX, or of its rendered
diagnostics when it does not compile (an internal error counts as a result too, so a
change that turns one into a diagnostic shows). Everything runs in this process, with the
checkout's `oxidec` first on sys.path; `--compare` exits 1 when any digest differs and
names the inputs.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "cuda-oxide"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def inputs() -> list[tuple[str, str, int]]:
    """(name, source text, -O level) of every input, in a fixed order."""
    found: list[tuple[str, str, int]] = []
    samples = sorted((ROOT / "samples").glob("*.rs"))
    tests = sorted(p for p in (ROOT / "tests").rglob("*.rs") if "target" not in p.parts)
    for path in samples + tests:
        text = path.read_text(errors="replace")
        name = str(path.relative_to(ROOT))
        found.append((name, text, 2))
        if path in samples or "ui" in path.parts:
            found.append((name, text, 0))
    if CORPUS.is_dir():
        for path in sorted(CORPUS.rglob("*.rs")):
            found.append((f"corpus/{path.relative_to(CORPUS)}", path.read_text(errors="replace"), 2))
    else:  # (a checkout elsewhere: the two files then differ in "in one only" rows)
        print(f"note: no corpus at {CORPUS}: its files are left out", file=sys.stderr)
    import build_time
    for series, sizes in (("statements", (1, 40, 250)), ("kernels", (1, 5, 25)),
                          ("loops", (1, 10, 30)), ("depth", (1, 30, 60))):
        gen = getattr(build_time, f"gen_{series}")
        for n in sizes:
            found.append((f"generated/{series}-{n}", gen(n), 2))
    return found


def digest(name: str, text: str, level: int) -> str:
    from oxidec import driver
    from oxidec.diagnostics import CompileError, render_all
    try:
        comp = driver.compile_source(text, name, driver.Options(arch="sm_90", opt_level=level))
        out = comp.ptx + render_all(comp.diagnostics)
    except CompileError as err:
        out = "error\n" + render_all(err.diagnostics)
    except Exception as err:  # noqa: BLE001 -- an internal error is a result to compare too
        out = f"internal error: {type(err).__name__}"
    return hashlib.sha256(out.encode()).hexdigest()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", metavar="JSON")
    mode.add_argument("--compare", metavar="JSON")
    args = ap.parse_args()
    threading.stack_size(512 * 1024 * 1024)
    result: dict[str, str] = {}

    def work() -> None:
        for name, text, level in inputs():
            result[f"{name} -O{level}"] = digest(name, text, level)

    worker = threading.Thread(target=work)
    worker.start()
    worker.join()
    if args.write:
        Path(args.write).write_text(json.dumps(result, indent=0, sort_keys=True))
        print(f"{len(result)} digests written to {args.write}")
        return 0
    base = json.loads(Path(args.compare).read_text())
    differ = sorted(k for k in result if k in base and base[k] != result[k])
    missing = sorted(set(base) ^ set(result))
    for k in differ:
        print(f"differs: {k}")
    for k in missing:
        print(f"only in one of the two: {k}")
    same = len(result) - len(differ) - len([k for k in result if k not in base])
    print(f"{same} identical, {len(differ)} differ, {len(missing)} in one only")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
