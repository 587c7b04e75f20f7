"""Compatibility report: build every example crate in a folder as a new user would, and count.

    python3 benchmarks/compat.py CORPUS_DIR [--arch sm_90] [--jobs N] [--timeout S]
                                            [--json FILE] [--markdown]
                                            [--oxidec "python3 -m oxidec.cli"]

What is built: every crate root under CORPUS_DIR (a `src/main.rs` or `src/lib.rs`, at any
depth, so sub-crates such as `kernel-lib/src/lib.rs` count too) whose text holds device code
(`#[kernel]`, `#[device]`, `#[cuda_module]` or a `cuda_device` import). Crate roots without
device code (host-only drivers, `src/bin/*` tools) are listed as skipped; module files such
as `src/foo.rs` are not built on their own, as a user would not build them either.

Each file goes through `oxidec build FILE -o OUT.ptx --arch ARCH` in its own process with a
timeout, and the PTX through `ptxas -arch=T` where T is the PTX's `.target` (so a module that
targets sm_90a is assembled for sm_90a). One line per file:

    ok        the build succeeded and ptxas accepted the PTX
    error     exit 1: the first diagnostic's code and message
    internal  exit 101, a traceback, or death by a signal: a bug in oxidec
    ptxas     oxidec wrote PTX that ptxas rejected: a bug in oxidec
    timeout   the build ran past --timeout
    usage     exit 2 (the file could not be read)

then the counts and a histogram of the first blockers. `--json` writes every result, with all
of a file's error headlines, for comparing runs; `--markdown` prints the per-file table as
Markdown (what benchmarks/COMPAT.md holds). Imports nothing from oxidec: every build is
a fresh process, as the user's would be.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

DEVICE_CODE = re.compile(r"#\[\s*(kernel|device|cuda_module)\b|\bcuda_device\s*::")
CRATE_ROOTS = ("main.rs", "lib.rs")
HEADLINE = re.compile(r"^error(?:\[(?P<code>[A-Z]+\d+)\])?: (?P<message>.*)$")
TARGET = re.compile(r"^\s*\.target\s+(sm_\w+)", re.MULTILINE)
STATUSES = ("ok", "error", "internal", "ptxas", "timeout", "usage")


@dataclass
class Result:
    file: str                 # relative to the corpus folder
    status: str               # one of STATUSES, or "skipped"
    code: str = ""            # the first error's code (E0425, OX0006, ...), if it has one
    message: str = ""         # the first error's message, or why it is skipped / failed
    errors: list[str] = field(default_factory=list)  # every error headline, in order
    seconds: float = 0.0
    ptx_target: str = ""


# --------------------------------------------------------------------------------------------
# what to build


def crate_roots(corpus: Path) -> list[Path]:
    roots = []
    for src in sorted(corpus.rglob("src")):
        if not src.is_dir() or "target" in src.relative_to(corpus).parts:
            continue
        roots.extend(src / name for name in CRATE_ROOTS if (src / name).is_file())
    return roots


def has_device_code(path: Path) -> bool:
    try:
        return DEVICE_CODE.search(path.read_text(encoding="utf-8", errors="replace")) is not None
    except OSError:
        return False


# --------------------------------------------------------------------------------------------
# one build


def first_errors(stderr: str) -> list[str]:
    """The error headlines, `error[CODE]: message` or `error: message`, minus the summary."""
    heads = []
    for line in stderr.splitlines():
        m = HEADLINE.match(line)
        if m and not m["message"].startswith("aborting due to"):
            heads.append(line.strip())
    return heads


def split_headline(headline: str) -> tuple[str, str]:
    m = HEADLINE.match(headline)
    return (m["code"] or "", m["message"]) if m else ("", headline)


def internal_message(stderr: str) -> str:
    for line in stderr.splitlines():
        if "internal compiler error" in line:
            return line.split("internal compiler error:", 1)[-1].strip()
    tail = [line for line in stderr.splitlines() if line.strip()]
    return tail[-1].strip() if tail else "(no output)"


def build_one(path: Path, corpus: Path, args: argparse.Namespace, oxidec: list[str],
              ptxas: str | None) -> Result:
    rel = path.relative_to(corpus).as_posix()
    with tempfile.TemporaryDirectory(prefix="oxidec-compat-") as tmp:
        out = Path(tmp) / "out.ptx"
        argv = [*oxidec, "build", str(path), "-o", str(out), "--arch", args.arch]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        env.pop("OXIDEC_BACKTRACE", None)
        start = time.perf_counter()
        try:
            proc = subprocess.run(argv, capture_output=True, text=True, timeout=args.timeout,
                                  env=env, cwd=tmp)
        except subprocess.TimeoutExpired:
            return Result(rel, "timeout", message=f"no result after {args.timeout:g} s",
                          seconds=args.timeout)
        seconds = round(time.perf_counter() - start, 2)
        errors = first_errors(proc.stderr)
        if proc.returncode == 101 or "Traceback (most recent call last)" in proc.stderr \
                or proc.returncode < 0:
            why = (f"killed by signal {-proc.returncode}" if proc.returncode < 0
                   else internal_message(proc.stderr))
            return Result(rel, "internal", message=why, errors=errors, seconds=seconds)
        if proc.returncode == 2:
            return Result(rel, "usage", message=internal_message(proc.stderr), seconds=seconds)
        if proc.returncode != 0:
            code, message = split_headline(errors[0]) if errors else ("", internal_message(
                proc.stderr))
            return Result(rel, "error", code, message, errors, seconds)
        if not out.is_file():
            return Result(rel, "internal", message="exit 0 but no PTX written", seconds=seconds)
        ptx = out.read_text(encoding="utf-8", errors="replace")
        m = TARGET.search(ptx)
        target = m[1] if m else args.arch
        if ptxas is None:
            return Result(rel, "ok", message="(ptxas not run)", seconds=seconds,
                          ptx_target=target)
        asm = subprocess.run([ptxas, f"-arch={target}", str(out), "-o", os.devnull],
                             capture_output=True, text=True, timeout=args.timeout)
        if asm.returncode != 0:
            lines = [line for line in asm.stderr.splitlines() if line.strip()]
            return Result(rel, "ptxas", message=lines[0] if lines else f"exit {asm.returncode}",
                          seconds=seconds, ptx_target=target)
        return Result(rel, "ok", seconds=seconds, ptx_target=target)


# --------------------------------------------------------------------------------------------
# report


def blocker_kind(result: Result) -> str:
    """The first blocker with the names taken out, so files stopped by the same missing
    feature count together: "E0425 cannot find function `_` in this scope"."""
    if result.status != "error":
        return result.status
    general = re.sub(r"`[^`]*`", "`_`", result.message)
    return f"{result.code} {general}".strip()


def print_report(results: list[Result], out) -> None:
    width = max((len(r.file) for r in results), default=10)
    for r in results:
        detail = f"{r.code}: {r.message}" if r.code else r.message
        out.write(f"{r.status:<9} {r.file:<{width}}  {detail}".rstrip() + "\n")
    built = [r for r in results if r.status != "skipped"]
    counts = Counter(r.status for r in built)
    out.write("\n")
    out.write(f"{counts['ok']} of {len(built)} files build and assemble"
              f" ({len(results) - len(built)} crate roots without device code skipped)\n")
    out.write("  " + ", ".join(f"{s} {counts[s]}" for s in STATUSES) + "\n")
    kinds = Counter(blocker_kind(r) for r in built if r.status != "ok")
    if kinds:
        out.write("\nfirst blockers:\n")
        for kind, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])):
            out.write(f"  {n:3}  {kind}\n")


def print_markdown(results: list[Result], out) -> None:
    built = [r for r in results if r.status != "skipped"]
    counts = Counter(r.status for r in built)
    out.write(f"{counts['ok']} of {len(built)} files build and assemble; "
              + ", ".join(f"{s} {counts[s]}" for s in STATUSES) + "\n\n")
    out.write("| file | status | first blocker |\n|---|---|---|\n")
    for r in results:
        detail = f"{r.code}: {r.message}" if r.code else r.message
        detail = detail.replace("|", "\\|")
        out.write(f"| {r.file} | {r.status} | {detail} |\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", type=Path, help="folder of example crates")
    ap.add_argument("--arch", default="sm_90", help="oxidec --arch (default sm_90)")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per build")
    ap.add_argument("--json", type=Path, help="also write the results as JSON here")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    ap.add_argument("--oxidec", default=f"{shlex.quote(sys.executable)} -m oxidec.cli",
                    help="the command that runs oxidec (default: this Python, the checkout's "
                         "oxidec)")
    args = ap.parse_args(argv)
    if not args.corpus.is_dir():
        ap.error(f"{args.corpus} is not a folder")
    corpus = args.corpus.resolve()
    ptxas = os.environ.get("PTXAS") or shutil.which("ptxas")
    if ptxas is None:
        print("warning: ptxas not found; PTX is not assembled", file=sys.stderr)
    oxidec = shlex.split(args.oxidec)

    roots = crate_roots(corpus)
    to_build = [p for p in roots if has_device_code(p)]
    skipped = [Result(p.relative_to(corpus).as_posix(), "skipped", message="no device code")
               for p in roots if p not in to_build]
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        built = list(pool.map(lambda p: build_one(p, corpus, args, oxidec, ptxas), to_build))
    results = sorted(built + skipped, key=lambda r: r.file)
    (print_markdown if args.markdown else print_report)(results, sys.stdout)
    if args.json:
        summary = Counter(r.status for r in results)
        args.json.write_text(json.dumps({
            "corpus": str(corpus), "arch": args.arch, "counts": dict(summary),
            "results": [asdict(r) for r in results]}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
