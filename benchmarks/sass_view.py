"""The SASS of every benchmark kernel side by side, oxidec's and nvcc's (issue 13's view for
developers): `python3 benchmarks/bench.py --sass DIR [--only a,b]`, or this file directly.

For each benchmark: the sample through oxidec (sm_90, -O2) and the CUDA C twin through
`nvcc -ptx -O3`, both assembled by `ptxas -O3 -arch=sm_90` and disassembled by `cuobjdump
-sass`; DIR gets NAME.oxidec.sass and NAME.nvcc.sass (the benchmarked kernel's function
only) and SASS.md, a table of instruction counts: the whole function, the path from entry
to EXIT that skips guarded regions, and each loop (with its FFMA/FADD and its path that
skips guarded regions) as benchmarks/sass_loops.py counts them. Needs ptxas, nvcc and
cuobjdump (the GPU machine has them; here: see sass_loops.py's docstring).
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ARCH = "sm_90"


def _cubin(ptx: str, work: Path, tag: str) -> Path:
    src, out = work / f"{tag}.ptx", work / f"{tag}.cubin"
    src.write_text(ptx)
    subprocess.run(["ptxas", f"-arch={ARCH}", "-O3", str(src), "-o", str(out)], check=True,
                   capture_output=True, text=True)
    return out


def _summary(instrs) -> str:
    from sass_loops import loops, shortest_path
    total = sum(not x.startswith("NOP") for _, x in instrs)
    path = shortest_path(instrs, instrs[0][0], instrs[-1][0])
    parts = [f"{total} ({len(path)} on the path)"]
    for start, end, body in loops(instrs):
        fp = sum(("FFMA" in x or "FADD" in x) for x in body)
        parts.append(f"loop {len(body)}/{fp} FP ({len(shortest_path(instrs, start, end))})")
    return "; ".join(parts)


def sass_view(benches, out_dir: Path) -> int:
    """Write the SASS files and SASS.md for `benches` (bench.Bench); 2 without the tools."""
    import bench as B
    from oxidec import driver
    from sass_loops import sass
    missing = [t for t in ("ptxas", "cuobjdump") if shutil.which(t) is None]
    if missing or B.nvcc_path() is None:
        print(f"sass view: needs {', '.join(missing or ['nvcc'])} on PATH", file=sys.stderr)
        return 2
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = ["| kernel | oxidec | nvcc |", "|---|---|---|"]
    with tempfile.TemporaryDirectory(prefix="sass-") as tmp:
        work = Path(tmp)
        for b in benches:
            case, why = B.find_case(b)
            if case is None:
                rows.append(f"| {b.name} | {why} | - |")
                continue
            got = {}
            for impl in ("oxidec", "nvcc"):
                try:
                    if impl == "oxidec":
                        ptx = driver.compile_file(case.path, driver.Options(
                            arch=ARCH, line_info=False)).ptx
                        fn = case.kernel
                    else:
                        ptx, fn = B.nvcc_ptx(b.cu, work), b.nv_kernel
                    instrs = sass(_cubin(ptx, work, f"{b.name}.{impl}")).get(fn)
                    if not instrs:
                        raise RuntimeError(f"no function {fn} in the cubin")
                    (out_dir / f"{b.name}.{impl}.sass").write_text(
                        "".join(f"/*{a:04x}*/ {x};\n" for a, x in instrs))
                    got[impl] = _summary(instrs)
                except Exception as err:  # one kernel's failure is its row's
                    got[impl] = f"failed: {B.first_line(err)}"
            rows.append(f"| {b.name} | {got['oxidec']} | {got['nvcc']} |")
    text = ["# SASS of the benchmark kernels (sm_90, ptxas -O3)", "",
            "Instructions in the function (those on the path from entry to EXIT that takes "
            "every guarded forward branch), then per loop: instructions / FFMA+FADD (on the "
            "path that skips guarded regions). Files: NAME.oxidec.sass, NAME.nvcc.sass.", "",
            *rows, ""]
    (out_dir / "SASS.md").write_text("\n".join(text))
    print("\n".join(text))
    return 0


if __name__ == "__main__":
    sys.path[:0] = [str(HERE.parent), str(HERE)]
    import bench
    names = sys.argv[2].split(",") if len(sys.argv) > 2 else None
    chosen = [bench.bench_by_name(n) for n in names] if names else bench.BENCHES
    sys.exit(sass_view(chosen, Path(sys.argv[1] if len(sys.argv) > 1 else "sass")))
