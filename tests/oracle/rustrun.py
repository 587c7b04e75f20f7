"""Runs oracle programs with rustc on the CPU, against the mock of the cuda_device API that
samples/rustcheck uses (samples/rustcheck/mock/): many programs in one rustc binary, because a
rustc invocation costs ~0.3 s however small the program.

The mock crates are built once per mock version into a cache directory; each batch is a crate
whose modules are the programs' files, unchanged (`#[path = "p3.rs"] mod p3;`), and whose main
launches each kernel thread by thread (one block of OUTPUTS threads) and prints its outputs.
Release semantics: `-C overflow-checks=off` (integer arithmetic wraps, as in oxidec).
"""
from __future__ import annotations

import hashlib
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MOCK = ROOT / "samples" / "rustcheck" / "mock"
RUSTFLAGS = ["--edition", "2021", "-C", "overflow-checks=off", "-C", "debug-assertions=off",
             "-C", "opt-level=0"]


class RustcUnavailable(Exception):
    pass


@dataclass
class RustResult:
    outputs: list[int] | None     # None: the program panicked
    panic: str = ""


def rustc() -> str:
    return os.environ.get("RUSTC", "rustc")


def mock_dir() -> Path:
    """The cache of built mock crates (libcuda_macros.so, libcuda_device.rlib)."""
    h = hashlib.sha256()
    for f in sorted((MOCK / "cuda_macros").rglob("*.rs")) + sorted((MOCK / "cuda_device").rglob("*.rs")):
        h.update(f.read_bytes())
    try:
        h.update(subprocess.run([rustc(), "--version"], capture_output=True, text=True,
                                check=True).stdout.encode())
    except (OSError, subprocess.CalledProcessError) as err:
        raise RustcUnavailable(f"rustc is not usable: {err}") from err
    d = Path(tempfile.gettempdir()) / f"oxidec-oracle-mock-{h.hexdigest()[:16]}"
    if (d / "libcuda_device.rlib").exists():
        return d
    d.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=d))
    subprocess.run([rustc(), "--edition", "2021", "--crate-type", "proc-macro",
                    "--crate-name", "cuda_macros", str(MOCK / "cuda_macros" / "src" / "lib.rs"),
                    "--extern", "proc_macro", "-o", str(tmp / "libcuda_macros.so")],
                   check=True, capture_output=True)
    subprocess.run([rustc(), "--edition", "2021", "--crate-type", "rlib", "--crate-name",
                    "cuda_device", str(MOCK / "cuda_device" / "src" / "lib.rs"), "--extern",
                    f"cuda_macros={tmp / 'libcuda_macros.so'}", "-L", str(tmp),
                    "-o", str(tmp / "libcuda_device.rlib")], check=True, capture_output=True)
    for f in tmp.iterdir():  # publish atomically: a concurrent builder sees all or nothing
        os.replace(f, d / f.name)
    tmp.rmdir()
    return d


MAIN_HEAD = """#![allow(warnings, arithmetic_overflow, unconditional_panic)]
use cuda_device::DisjointSlice;

fn run(name: &str, inp: &[u64], k: fn(&[u64], DisjointSlice<u64>)) {
    let mut out = vec![0xdead_beef_dead_beefu64; OUTPUTS];
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        for t in 0..OUTPUTS as u32 {
            cuda_device::thread::set([0, 0, 0, t, 0, 0, OUTPUTS as u32, 1, 1, 1, 1, 1]);
            k(inp, DisjointSlice::new(&mut out));
        }
    }));
    match r {
        Ok(()) => println!("{name} ok {}", out.iter().map(|w| format!("{w:x}")).collect::<Vec<_>>().join(" ")),
        Err(_) => println!("{name} panic"),
    }
}
"""


def build_batch(programs: dict[str, tuple[str, list[int]]], outputs: int, work: Path) -> Path:
    """Writes the batch crate for {name: (source, inputs)} into `work` and compiles it."""
    lines = [MAIN_HEAD.replace("OUTPUTS", str(outputs))]
    main = ["fn main() {", "    std::panic::set_hook(Box::new(|_| {}));"]
    for name, (src, inputs) in programs.items():
        (work / f"{name}.rs").write_text(src)
        lines.append(f'#[path = "{name}.rs"] mod {name};')
        words = ", ".join(f"{w:#x}" for w in inputs)
        main.append(f'    run("{name}", &[{words}], {name}::kernels::k0);')
    main.append("}")
    (work / "main.rs").write_text("\n".join(lines + main) + "\n")
    mock = mock_dir()
    exe = work / "batch"
    proc = subprocess.run([rustc(), *RUSTFLAGS, str(work / "main.rs"), "-o", str(exe),
                           "--extern", f"cuda_device={mock / 'libcuda_device.rlib'}",
                           "-L", str(mock)], capture_output=True, text=True)
    if proc.returncode:
        raise BatchCompileError(proc.stderr, failing_modules(proc.stderr, programs))
    return exe


class BatchCompileError(Exception):
    def __init__(self, stderr: str, modules: set[str]):
        super().__init__(stderr[-4000:])
        self.stderr = stderr
        self.modules = modules


def failing_modules(stderr: str, programs) -> set[str]:
    names = set(re.findall(r"--> [^\n]*?(p\w+)\.rs:\d+", stderr))
    return {n for n in names if n in programs}


def run_programs(programs: dict[str, tuple[str, list[int]]], outputs: int,
                 ) -> tuple[dict[str, RustResult], dict[str, str]]:
    """Results of the programs rustc compiles, and rustc's errors for those it rejects."""
    rejected: dict[str, str] = {}
    todo = dict(programs)
    with tempfile.TemporaryDirectory(prefix="oxidec-oracle-") as tmp:
        work = Path(tmp)
        while todo:
            try:
                exe = build_batch(todo, outputs, work)
                break
            except BatchCompileError as err:
                bad = err.modules or set()
                if not bad:
                    if len(todo) == 1:
                        rejected.update({n: err.stderr for n in todo})
                        return {}, rejected
                    raise
                for n in bad:
                    rejected[n] = err.stderr
                    del todo[n]
        if not todo:
            return {}, rejected
        proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=600)
    results: dict[str, RustResult] = {}
    for line in proc.stdout.splitlines():
        name, status, *words = line.split()
        results[name] = RustResult([int(w, 16) for w in words] if status == "ok" else None,
                                   status)
    for name in todo:
        results.setdefault(name, RustResult(None, f"no result (exit {proc.returncode})"))
    return results, rejected
