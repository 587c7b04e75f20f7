"""oxidec: a compiler from GPU kernels in Rust syntax (the cuda-oxide kernel language) to PTX.

The pipeline (`driver.compile_source` runs it, one line per phase):

    source text
      -> syntax.parse        grammar/oxide.lark (Lark LALR) -> ast.SourceUnit, host items skipped
      -> resolve.resolve     items: kernels, device fns, consts, statics, structs
      -> typeck.typeck       types, Rust's literal inference -> side tables keyed on AST nodes
      -> lower.lower         MIR (mir/syntax.py): basic blocks, places, rvalues, terminators
      -> unsafeck, borrowck  `unsafe`, moves, borrows, divergent barriers, shared-memory races
      -> passes              const folding, copy propagation, dead code, CFG simplification,
                             fma contraction
      -> ptx.emit_program    PTX text, one .entry per #[kernel]

Beside it: `sim` runs MIR on the CPU (whole grids), `runtime` loads PTX with cuda-python,
`api` is the Python launch API, `cli` the `oxidec` command.

The names below are imported lazily so that `oxidec build` does not pay for NumPy or CUDA.
"""
from __future__ import annotations

__all__ = ["compile_file", "compile_source", "KernelModule", "LaunchError", "NoGpuError",
           "CudaError", "CompileError"]

_LAZY = {
    "compile_file": ("oxidec.api", "compile_file"),
    "compile_source": ("oxidec.api", "compile_source"),
    "KernelModule": ("oxidec.api", "KernelModule"),
    "LaunchError": ("oxidec.runtime.errors", "LaunchError"),
    "NoGpuError": ("oxidec.runtime.errors", "NoGpuError"),
    "CudaError": ("oxidec.runtime.errors", "CudaError"),
    "CompileError": ("oxidec.diagnostics", "CompileError"),
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib
        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(module), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'oxidec' has no attribute {name!r}")

__version__ = "0.1.0"  # the one place; pyproject.toml reads it
