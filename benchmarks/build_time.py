"""Cold-process build time: `oxidec build` of each sample against `nvcc -ptx` of its CUDA C
twin, measured the same way (a fresh process per run, paired: oxidec and nvcc alternate, so
both see the same machine load; median of N runs of wall time and of user+system CPU time,
which is what to compare on a loaded machine). oxidec runs with --no-cache (a cold build).

    python3 benchmarks/build_time.py [--runs 7] [--hit] [--oxidec "python3 -m oxidec.cli"]
                                     [--twins] [--baseline OTHER_CHECKOUT]
    python3 benchmarks/build_time.py --scaling [--series statements,kernels,loops,depth]
                                     [--sizes 50,100,200] [--instructions]

`--scaling` builds generated inputs at 4+ sizes per series (N straight-line statements in
one kernel, N kernels in one file, N nested loops, an N-deep expression) and prints time,
peak memory and the log-log slope of each (net of the process's fixed cost: the build of
the series' N=1 input) from each size to the next and from the second size to the largest
(linear: 1.0). With `--instructions` each build is counted in instructions under valgrind
instead (one run: the count is the same on a loaded machine, where times swing).

Prints a table; pass --markdown for a table to paste into RESULTS.md.
"""
from __future__ import annotations

import argparse
import math
import os
import re
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


def run_once(argv: list[str], cwd: str | None = None) -> tuple[float, float, int]:
    """(wall seconds, user+system CPU seconds, peak resident KiB) of one fresh process."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(f"failed ({proc.returncode}): {shlex.join(argv)}\n{err}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def time_paired(commands: list[list[str]], runs: int,
                cwds: list[str | None] | None = None) -> list[tuple[float, float]]:
    """Per command, the median (wall, CPU) seconds of `runs` fresh processes, the commands
    run in turn each round (after one warm-up round for the disk cache); `cwds`: each
    command's working directory (None: this one)."""
    cwds = cwds or [None] * len(commands)
    for argv, cwd in zip(commands, cwds):
        run_once(argv, cwd)
    samples: list[list[tuple[float, float]]] = [[] for _ in commands]
    for _ in range(runs):
        for i, argv in enumerate(commands):
            wall, cpu, _ = run_once(argv, cwds[i])
            samples[i].append((wall, cpu))
    return [(statistics.median(w for w, _ in s), statistics.median(c for _, c in s))
            for s in samples]


def paired_or_none(commands, cwds, runs: int) -> list:
    """time_paired over the commands that are not None; None in the others' places."""
    live = [i for i, c in enumerate(commands) if c is not None]
    times = time_paired([commands[i] for i in live], runs, [cwds[i] for i in live])
    out: list = [None] * len(commands)
    for i, t in zip(live, times):
        out[i] = t
    return out


# ---------------------------------------------------------------------------
# Generated inputs for --scaling

HEAD = ("use cuda_device::{cuda_module, kernel, thread, DisjointSlice};\n#[cuda_module]\n"
        "mod kernels {\n    use super::*;\n")


def gen_statements(n: int) -> str:
    body = "".join(f"        v = v * 0.5 + a[(i + {k}) % a.len()];\n" for k in range(n))
    return HEAD + f"""    #[kernel]
    pub fn big(a: &[f32], mut out: DisjointSlice<f32>) {{
        let idx = thread::index_1d();
        let i = idx.get();
        let mut v = 0.0f32;
{body}        if let Some(o) = out.get_mut(idx) {{ *o = v; }}
    }}
}}
"""


KERNELS_HEAD = ("use cuda_device::{cuda_module, kernel, launch_contract, thread, DisjointSlice, "
                "SharedArray};\n#[cuda_module]\nmod kernels {\n    use super::*;\n")


def gen_kernels(n: int) -> str:
    """N kernels of 46 lines each (500: 23k lines), each with its own device function, a
    shared tile, a launch contract, loops, a match and checked indexing."""
    kernels = "".join(f"""
    #[device]
    fn weight{k}(x: f32, j: usize) -> f32 {{
        if j % 2 == 0 {{
            x * {k + 1}.0
        }} else {{
            x - 0.5
        }}
    }}

    #[kernel]
    #[launch_contract(block = (128, 1, 1))]
    pub fn k{k}(a: &[f32], mut out: DisjointSlice<f32>, n: usize) {{
        static mut TILE: SharedArray<f32, 128> = SharedArray::UNINIT;
        let tx = thread::threadIdx_x() as usize;
        let idx = thread::index_1d();
        let i = idx.get();
        // the block's slice of `a` in shared memory (0 past the end)
        unsafe {{
            TILE[tx] = if i < a.len() {{ a[i] }} else {{ 0.0 }};
        }}
        thread::sync_threads();
        let mut acc = 0.0f32;
        let mut j = 0usize;
        while j < 4 {{
            if i + j < n {{
                acc += weight{k}(a[(i + j) % a.len()], j);
            }}
            j += 1;
        }}
        let right = unsafe {{ TILE[(tx + 1) % 128] }};
        let mut m = acc;
        for r in 0..3 {{
            if right > m {{
                m = right + r as f32;
            }}
        }}
        let v = match i % 3 {{
            0 => acc + m,
            1 => acc * 2.0 - m,
            _ => acc - 1.0,
        }};
        if let Some(o) = out.get_mut(idx) {{
            *o = v;
        }}
    }}
""" for k in range(n))
    return KERNELS_HEAD + kernels + "}\n"


def gen_loops(n: int) -> str:
    pad = "    "
    opens = "".join(f"{pad * (2 + d)}let mut j{d} = 0usize;\n{pad * (2 + d)}while j{d} < 2 {{\n"
                    for d in range(n))
    inner = f"{pad * (2 + n)}s += a[i % a.len()];\n"
    closes = "".join(f"{pad * (3 + d)}j{d} += 1;\n{pad * (2 + d)}}}\n" for d in reversed(range(n)))
    return HEAD + f"""    #[kernel]
    pub fn nest(a: &[f32], mut out: DisjointSlice<f32>) {{
        let idx = thread::index_1d();
        let i = idx.get();
        let mut s = 0.0f32;
{opens}{inner}{closes}        if let Some(o) = out.get_mut(idx) {{ *o = s; }}
    }}
}}
"""


def gen_depth(n: int) -> str:
    """16 expressions each N deep (one alone compiles too fast to time)."""
    lets = []
    for j in range(16):
        e = "x"
        for k in range(n):
            e = f"({e} * 0.5 + {k + j}.0)"
        lets.append(f"        let v{j} = {e};\n")
    total = " + ".join(f"v{j}" for j in range(16))
    return HEAD + f"""    #[kernel]
    pub fn deep(a: &[f32], mut out: DisjointSlice<f32>) {{
        let idx = thread::index_1d();
        let x = a[idx.get() % a.len()];
{"".join(lets)}        if let Some(o) = out.get_mut(idx) {{ *o = {total}; }}
    }}
}}
"""


SERIES = {
    "statements": (gen_statements, (250, 500, 1000, 2000, 5000)),
    "kernels": (gen_kernels, (25, 50, 100, 200, 500)),
    "loops": (gen_loops, (25, 50, 100, 200)),
    "depth": (gen_depth, (25, 50, 100, 200)),  # 300 deep: "too deeply nested" (recursion)
}


def slope(a: tuple[int, float], b: tuple[int, float], least: float) -> str:
    """The log-log slope from a to b; "n/a" where either value is below `least` (noise)."""
    (n1, t1), (n2, t2) = a, b
    if t1 < least or t2 < least:
        return "n/a"
    return f"{math.log(t2 / t1) / math.log(n2 / n1):.2f}"


def scaling(args, oxidec: list[str]) -> int:
    """Each series' builds, in fresh processes like a user's. The slopes are of the time
    (and memory) net of the process's fixed cost (start-up, imports: a build of the series'
    N=1 input, the least CPU time of 3), which would otherwise flatten them. A build under
    3 s CPU is repeated 3 times (the least is kept); a slope is "n/a" where a net time is
    under 0.1 s or a net peak under 2 MiB (noise)."""
    names = args.series.split(",")
    print(f"{'series':12} {'N':>6} {'lines':>7} {'wall (s)':>9} {'cpu (s)':>8} {'net cpu':>8} "
          f"{'slope':>6} {'peak MiB':>9} {'slope':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        def build(text: str, name: str) -> tuple[float, float, int, int]:
            src = Path(tmp) / f"{name}.rs"
            src.write_text(text)
            wall, cpu, rss = run_once(oxidec + ["build", str(src), "-o", str(Path(tmp) / "out.ptx")]
                                      + shlex.split(args.build_flags))
            return wall, cpu, rss, text.count("\n")

        for name in names:
            gen, sizes = SERIES[name]
            if args.sizes:
                sizes = tuple(int(n) for n in args.sizes.split(","))
            base = [build(gen(1), f"{name}_1") for _ in range(3)]
            base_cpu = min(b[1] for b in base)
            base_rss = min(b[2] for b in base)
            print(f"{name:12} {1:6} {base[0][3]:7} {base[0][0]:9.2f} {base_cpu:8.2f} "
                  f"{'':8} {'':6} {base_rss / 1024:9.1f}   (fixed cost)", flush=True)
            times, peaks = [], []
            for n in sizes:
                wall, cpu, rss, lines = build(gen(n), f"{name}_{n}")
                if cpu < 3:
                    again = [build(gen(n), f"{name}_{n}") for _ in range(2)]
                    cpu = min([cpu] + [r[1] for r in again])
                    rss = min([rss] + [r[2] for r in again])
                times.append((n, cpu - base_cpu))
                peaks.append((n, (rss - base_rss) / 1024))
                st = slope(times[-2], times[-1], 0.1) if len(times) > 1 else "-"
                sm = slope(peaks[-2], peaks[-1], 2.0) if len(peaks) > 1 else "-"
                print(f"{name:12} {n:6} {lines:7} {wall:9.2f} {cpu:8.2f} {cpu - base_cpu:8.2f} "
                      f"{st:>6} {rss / 1024:9.1f} {sm:>6}", flush=True)
            if len(times) > 2:
                print(f"{name:12} slope from N={times[1][0]} to N={times[-1][0]}: "
                      f"{slope(times[1], times[-1], 0.1)} (net CPU time), "
                      f"{slope(peaks[1], peaks[-1], 2.0)} (net peak memory)", flush=True)
    return 0


def count_instructions(argv: list[str]) -> int:
    """The instructions a fresh process (and any worker it forks) executes, counted by
    valgrind's cachegrind without its cache simulation: the same count on a loaded machine,
    where a time is not (a 2-core machine shared with other work swings 10-30% run to run)."""
    proc = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                           "--cachegrind-out-file=/dev/null", *argv],
                          capture_output=True, text=True)
    counts = re.findall(r"I\s+refs:\s+([\d,]+)", proc.stderr)
    if proc.returncode != 0 or not counts:
        raise SystemExit(f"failed ({proc.returncode}): valgrind {shlex.join(argv)}\n"
                         f"{proc.stderr[-2000:]}")
    return sum(int(c.replace(",", "")) for c in counts)  # one line per process


def scaling_instructions(args, oxidec: list[str]) -> int:
    """`--scaling --instructions`: each series' builds counted in instructions (one run each:
    the count does not vary), net of the series' N=1 build, with the slopes as `scaling`."""
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind on PATH")
    print(f"{'series':12} {'N':>6} {'lines':>7} {'instr (G)':>10} {'net (G)':>9} {'slope':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        def count(text: str, name: str) -> float:
            src = Path(tmp) / f"{name}.rs"
            src.write_text(text)
            return count_instructions(oxidec + ["build", str(src), "-o",
                                                str(Path(tmp) / "out.ptx")]
                                      + shlex.split(args.build_flags)) / 1e9

        for name in args.series.split(","):
            gen, sizes = SERIES[name]
            if args.sizes:
                sizes = tuple(int(n) for n in args.sizes.split(","))
            base = count(gen(1), f"{name}_1")
            print(f"{name:12} {1:6} {gen(1).count(chr(10)):7} {base:10.3f} {'':9} {'':6}"
                  "   (fixed cost)", flush=True)
            nets = []
            for n in sizes:
                text = gen(n)
                got = count(text, f"{name}_{n}")
                nets.append((n, got - base))
                st = slope(nets[-2], nets[-1], 0.05) if len(nets) > 1 else "-"
                print(f"{name:12} {n:6} {text.count(chr(10)):7} {got:10.3f} {got - base:9.3f} "
                      f"{st:>6}", flush=True)
            if len(nets) > 2:
                print(f"{name:12} slope from N={nets[1][0]} to N={nets[-1][0]}: "
                      f"{slope(nets[1], nets[-1], 0.05)} (net instructions)", flush=True)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--oxidec", default=f"{shlex.quote(sys.executable)} -m oxidec.cli",
                    help="command that runs oxidec (default: this Python's module)")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--build-flags", default="--no-cache",
                    help="extra flags of every oxidec build (default: --no-cache, a cold build)")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--hit", action="store_true",
                    help="also time a cache hit (the build without --build-flags, cache filled)")
    ap.add_argument("--scaling", action="store_true", help="the generated scaling series")
    ap.add_argument("--instructions", action="store_true",
                    help="with --scaling: count instructions (valgrind) instead of timing; "
                         "slow (~40x a build), but the same on a loaded machine")
    ap.add_argument("--series", default=",".join(SERIES))
    ap.add_argument("--sizes", help="comma-separated sizes (default: each series' own)")
    ap.add_argument("--samples", help="comma-separated sample names (default: all)")
    ap.add_argument("--twins", action="store_true",
                    help="only the samples with a CUDA twin in benchmarks/cuda")
    ap.add_argument("--baseline", metavar="CHECKOUT",
                    help="also time the same oxidec command run in another checkout (its "
                         "`oxidec` package: e.g. the branch point), paired with the others")
    args = ap.parse_args()
    oxidec = shlex.split(args.oxidec)
    # the compiler's bytecode, as `pip install` leaves it (with PYTHONDONTWRITEBYTECODE set,
    # each run would otherwise compile every module from source: ~0.35 s more per build)
    import compileall
    compileall.compile_dir(str(ROOT / "oxidec"), quiet=1)
    if args.scaling:
        return scaling_instructions(args, oxidec) if args.instructions else scaling(args, oxidec)
    nvcc = shutil.which("nvcc") or "/usr/local/bin/nvcc"
    have_nvcc = os.path.exists(nvcc)
    if args.baseline:
        compileall.compile_dir(str(Path(args.baseline) / "oxidec"), quiet=1)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for sample in sorted((ROOT / "samples").glob("*.rs")):
            if args.samples and sample.stem not in args.samples.split(","):
                continue
            commands = [oxidec + ["build", str(sample), "-o", str(Path(tmp) / "o.ptx"),
                                  "--arch", args.arch] + shlex.split(args.build_flags)]
            twin = CUDA / f"{sample.stem}.cu"
            if args.twins and not twin.exists():
                continue
            if have_nvcc and twin.exists():
                commands.append([nvcc, "-ptx", "-O3", f"-arch={args.arch}", str(twin), "-o",
                                 str(Path(tmp) / "n.ptx")])
            else:
                commands.append(None)
            cwds = [None, None]
            if args.baseline:
                commands.append(list(commands[0]))
                cwds.append(args.baseline)
            if args.hit:  # a cache hit: the same build with the cache, stored by the warm-up
                with tempfile.TemporaryDirectory() as cache:
                    os.environ["OXIDEC_CACHE_DIR"] = cache
                    commands.append(commands[0][:-len(shlex.split(args.build_flags))]
                                    if args.build_flags.strip() else list(commands[0]))
                    cwds.append(None)
                    times = paired_or_none(commands, cwds, args.runs)
                    del os.environ["OXIDEC_CACHE_DIR"]
                hit = times.pop()
            else:
                times, hit = paired_or_none(commands, cwds, args.runs), None
            base = times[2] if args.baseline else None
            rows.append((sample.stem, times[0], times[1], hit, base))
    head = ("sample", "oxidec wall", "oxidec cpu", "nvcc wall", "nvcc cpu", "nvcc/oxidec cpu",
            "nvcc/oxidec wall", "cache hit wall")
    if args.baseline:
        head += ("baseline cpu", "baseline wall", "nvcc/baseline cpu")
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
    else:
        print(f"{head[0]:16}" + "".join(f"{h:>16}" for h in head[1:]))
    for name, ox, nv, hit, base in rows:
        cells = [f"{ox[0]:.3f}", f"{ox[1]:.3f}",
                 f"{nv[0]:.3f}" if nv else "-", f"{nv[1]:.3f}" if nv else "-",
                 f"{nv[1] / ox[1]:.2f}x" if nv else "-", f"{nv[0] / ox[0]:.2f}x" if nv else "-",
                 f"{hit[0]:.3f}" if hit else "-"]
        if args.baseline:
            cells += [f"{base[1]:.3f}", f"{base[0]:.3f}",
                      f"{nv[1] / base[1]:.2f}x" if nv else "-"]
        if args.markdown:
            print(f"| {name} | " + " | ".join(cells) + " |")
        else:
            print(f"{name:16}" + "".join(f"{c:>16}" for c in cells))
    print(f"(median of {args.runs} cold processes each, {args.arch}; "
          f"python {sys.version.split()[0]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
