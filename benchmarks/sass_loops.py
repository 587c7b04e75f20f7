"""SASS hot loops of a PTX file, a cubin, or a sample (oxidec) / CUDA C twin (nvcc): for
every backward branch, the instructions from its target to it, and how many of them are
FFMA/FADD. This is how the loop passes' predictions were checked (oxidec/passes/).

    python3 benchmarks/sass_loops.py samples/matmul_naive.rs          # oxidec, sm_90
    python3 benchmarks/sass_loops.py benchmarks/cuda/matmul_naive.cu  # nvcc -O3
    python3 benchmarks/sass_loops.py x.ptx -v                         # and list each loop

Needs ptxas (and nvcc for .cu) plus cuobjdump with nvdisasm, which the CPU machines lack;
pip has them: `pip install --target /tmp/cu "nvidia-cuda-cuobjdump==13.2.*"
"nvidia-cuda-nvdisasm==13.2.*"`, then put /tmp/cu/nvidia/cu13/bin on PATH.
"""
from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

ARCH = "sm_90"


def cubin_of(path: Path) -> Path:
    out = Path(tempfile.mkdtemp()) / (path.stem + ".cubin")
    if path.suffix == ".cu":
        subprocess.run(["nvcc", "-cubin", f"-arch={ARCH}", "-O3", str(path), "-o", str(out)],
                       check=True)
        return out
    if path.suffix == ".rs":
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from oxidec import driver
        ptx = out.with_suffix(".ptx")
        ptx.write_text(driver.compile_file(path, driver.Options(arch=ARCH, line_info=False)).ptx)
        path = ptx
    if path.suffix == ".ptx":
        subprocess.run(["ptxas", f"-arch={ARCH}", "-O3", str(path), "-o", str(out)], check=True)
        return out
    return path


def sass(cubin: Path) -> dict[str, list[tuple[int, str]]]:
    text = subprocess.run(["cuobjdump", "-sass", str(cubin)], check=True, capture_output=True,
                          text=True).stdout
    funcs: dict[str, list[tuple[int, str]]] = {}
    current = None
    for line in text.splitlines():
        m = re.match(r"\s*Function : (\S+)", line)
        if m:
            current = m.group(1)
            funcs[current] = []
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4})\*/\s+(.*?);", line)
        if m and current:
            funcs[current].append((int(m.group(1), 16), m.group(2).strip()))
    return funcs


def loops(instrs: list[tuple[int, str]]):
    for addr, text in instrs:
        m = re.search(r"BRA (0x[0-9a-f]+)", text)
        if m and int(m.group(1), 16) < addr:
            start = int(m.group(1), 16)
            body = [x for a, x in instrs if start <= a <= addr]
            yield start, addr, body


def shortest_path(instrs: list[tuple[int, str]], start: int, end: int) -> list[str]:
    """The instructions of one trip from `start` to the backward branch at `end` that takes
    every guarded forward branch (`@P BRA` to a later address in the loop, before the first
    EXIT): the path that skips the regions a trip rarely runs, such as a math routine's
    out-of-range branch (which puts its general case behind such a branch)."""
    at = {a: i for i, (a, _) in enumerate(instrs)}
    # the failure paths (traps, contract checks) lie after the first unconditional EXIT
    end = min([end] + [a for a, x in instrs if x == "EXIT" and a >= start])
    i, out = at[start], []
    while i < len(instrs) and instrs[i][0] <= end:
        addr, text = instrs[i]
        out.append(text)
        if text == "EXIT":
            break
        m = re.match(r"@!?U?P\d BRA (0x[0-9a-f]+)", text)
        if m and addr < int(m.group(1), 16) <= end:
            i = at[int(m.group(1), 16)]
            continue
        i += 1
    return out


def main(argv: list[str]) -> None:
    verbose = "-v" in argv
    for arg in (a for a in argv if a != "-v"):
        for name, instrs in sass(cubin_of(Path(arg))).items():
            total = sum(not x.startswith("NOP") for _, x in instrs)
            path = shortest_path(instrs, instrs[0][0], instrs[-1][0])
            print(f"{name}: {total} instructions; {len(path)} from entry to EXIT on the path "
                  f"that skips guarded regions (not counting loop trips)")
            for start, end, body in loops(instrs):
                fp = sum(("FFMA" in x or "FADD" in x) for x in body)
                fast = shortest_path(instrs, start, end)
                print(f"  loop {start:#06x}..{end:#06x}: {len(body)} instructions, "
                      f"{fp} FFMA/FADD; {len(fast)} on the path skipping guarded regions")
                if verbose:
                    for x in body:
                        print("      " + x)


if __name__ == "__main__":
    main(sys.argv[1:])
