"""Mutation fuzzer of oxidec's front end.

    python tests/fuzz/run.py --mutants 5000 [--seed N] [--jobs 2] [--cli-every 25] [--save DIR]
                             [--progress 250]

Each mutant (mutate.py) is compiled in a worker process with oxidec's driver, as the CLI does.
Verdicts:
- ok: compiled; diag: rejected with diagnostics (both fine);
- limit: a RecursionError/MemoryError, which the CLI reports as "input too deeply nested" with
  no position (a failure: limits must give a positioned diagnostic);
- ice: any other exception: an internal compiler error (a failure);
- crash: the compiling process died (a signal, a fatal Python error: a failure);
- slow: more than --timeout seconds (counted; the compile-speed work owns it).
Every --cli-every'th mutant also goes through `python -m oxidec.cli build -o OUT`: its exit code
must be 0 or 1, its stderr must hold no Python traceback and no "internal compiler error", and
OUT must not exist after a failure. Failing mutants are written to --save DIR.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import random
import select
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
for p in (str(ROOT), str(HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)

import mutate  # noqa: E402

FAILURES = ("ice", "limit", "crash", "cli")


def _verdict(text: str | bytes) -> tuple[str, str]:
    """(verdict, detail) of compiling one mutant in this process, as the CLI does."""
    from oxidec import driver
    from oxidec.diagnostics import CompileError
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            # the CLI reads files as UTF-8 and reports a decoding error; the driver takes str
            text = text.decode("utf-8", errors="replace")
    try:
        driver.compile_source(text, "fuzz.rs", driver.Options())
        return "ok", ""
    except CompileError:
        return "diag", ""
    except (RecursionError, MemoryError) as err:
        return "limit", type(err).__name__
    except Exception as err:
        tb = traceback.extract_tb(err.__traceback__)[-1]
        return "ice", f"{type(err).__name__}: {str(err)[:200]} at " \
                      f"{Path(tb.filename).name}:{tb.lineno}"


_warm = False


def compile_one(args) -> tuple[str, str]:
    """(verdict, detail) for one mutant, compiled in a child forked from this worker (oxidec
    is imported once per worker, so a fork costs milliseconds). A child past the timeout is
    killed, so a slow compile cannot keep running beside the next ones (the driver compiles on
    a thread of its own, which an alarm in this thread would not stop), and a child that dies
    of a signal (a C stack overflow, an abort) is a failure of its own: "crash"."""
    text, timeout = args
    global _warm
    if not _warm:  # the parser tables and other lazy state are built once per worker
        _verdict(mutate.KERNEL.replace("BODY", "let _x = a + 1;"))
        _warm = True
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        try:
            result = _verdict(text)
        except BaseException as err:  # noqa: BLE001  (a verdict, whatever happened)
            result = ("ice", f"{type(err).__name__}: {str(err)[:200]}")
        os.write(write_end, json.dumps(result).encode())
        os._exit(0)
    os.close(write_end)
    try:
        ready, _, _ = select.select([read_end], [], [], timeout)
        if not ready:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "slow", ""
        data = b""
        while chunk := os.read(read_end, 65536):
            data += chunk
    finally:
        os.close(read_end)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status) or not data:
        return "crash", f"compiler process died: {os.waitstatus_to_exitcode(status)}"
    verdict, detail = json.loads(data)
    return verdict, detail


def cli_check(text: str | bytes, timeout: float) -> tuple[str, str]:
    """Through the CLI: exit 0/1, no traceback, no output file after a failure."""
    with tempfile.TemporaryDirectory(prefix="oxidec-fuzz-") as tmp:
        src, out = Path(tmp) / "m.rs", Path(tmp) / "m.ptx"
        src.write_bytes(text if isinstance(text, bytes) else text.encode())
        try:
            proc = subprocess.run([sys.executable, "-m", "oxidec.cli", "build", str(src),
                                   "-o", str(out)], cwd=ROOT, capture_output=True, text=True,
                                  timeout=timeout, errors="replace")
        except subprocess.TimeoutExpired:
            return "slow", ""
        problems = []
        if proc.returncode not in (0, 1):
            problems.append(f"exit {proc.returncode}")
        if "Traceback (most recent call last)" in proc.stderr:
            problems.append("traceback")
        if "internal compiler error" in proc.stderr:
            problems.append("internal compiler error")
        if proc.returncode != 0 and out.exists():
            problems.append("output file left after a failure")
        if proc.returncode == 0 and not out.exists():
            problems.append("exit 0 without an output file")
        if problems:
            return "cli", "; ".join(problems) + ": " + proc.stderr.strip()[-300:]
        return "ok" if proc.returncode == 0 else "diag", ""


def fuzz(n: int, seed: int, jobs: int = 2, timeout: float = 20.0, cli_every: int = 25,
         save: Path | None = None, sizes=mutate.SIZES, progress: int = 0) -> dict:
    rng = random.Random(seed)
    items = list(mutate.mutants(rng, n, sizes))
    counts: Counter = Counter()
    failures: list[tuple[str, str, str, str | bytes]] = []
    ctx = multiprocessing.get_context("fork")
    t0 = time.time()
    with ctx.Pool(jobs, maxtasksperchild=200) as pool:
        results = pool.imap(compile_one, [(t, timeout) for _, t in items], chunksize=4)
        for k, ((label, text), (verdict, detail)) in enumerate(zip(items, results)):
            counts[verdict] += 1
            if verdict in FAILURES:
                failures.append((label, verdict, detail, text))
            if progress and (k + 1) % progress == 0:
                # a long run says how far it is (and what it found so far) on stderr
                print(f"fuzz: {k + 1}/{n} mutants, {time.time() - t0:.0f} s, " +
                      ", ".join(f"{v} {c}" for v, c in sorted(counts.items())),
                      file=sys.stderr, flush=True)
    cli_items = items[::cli_every] if cli_every else []
    for label, text in cli_items:
        verdict, detail = cli_check(text, timeout * 2)
        counts["cli-run"] += 1
        if verdict == "cli":
            counts["cli"] += 1
            failures.append((label, verdict, detail, text))
    if save and failures:
        save.mkdir(parents=True, exist_ok=True)
        for label, verdict, detail, text in failures:
            data = text if isinstance(text, bytes) else text.encode()
            h = hashlib.sha1(data).hexdigest()[:10]
            (save / f"{verdict}-{h}.rs").write_bytes(data)
            (save / f"{verdict}-{h}.txt").write_text(f"{label}\n{detail}\n")
    return {"mutants": n, "seconds": time.time() - t0, "counts": dict(counts),
            "failures": failures}


def summary(rep: dict) -> str:
    lines = [f"fuzz: {rep['mutants']} mutants in {rep['seconds']:.0f} s: " +
             ", ".join(f"{k} {v}" for k, v in sorted(rep["counts"].items()))]
    by_cause = Counter((v, d.split(" at ")[-1] if v == "ice" else d[:120])
                       for _, v, d, _ in rep["failures"])
    for (v, d), c in by_cause.most_common(30):
        lines.append(f"  {c:4d} {v}: {d}")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mutants", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--cli-every", type=int, default=25)
    ap.add_argument("--save", type=Path, default=None)
    ap.add_argument("--progress", type=int, default=250, metavar="N",
                    help="print a progress line to stderr every N mutants (0: never)")
    args = ap.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"fuzz: seed {seed}")
    rep = fuzz(args.mutants, seed, args.jobs, args.timeout, args.cli_every, args.save,
               progress=args.progress)
    print(summary(rep))
    return 1 if rep["failures"] else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
