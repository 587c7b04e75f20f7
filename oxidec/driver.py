"""The one function that runs the phases in order. The CLI, the tests and the Python API all
call `compile_source` / `compile_file`.

    source -> parse -> resolve -> typeck -> lower (MIR) -> unsafeck, borrowck
           -> optimize (-O level) -> fma contraction (--fmad) -> ptxas workarounds -> PTX

From the optimiser on, each body is compiled on its own (after inlining); a large program's
bodies may be shared out among worker processes (`Options.jobs`, codegen_jobs.py).

The checks run before the passes because the passes may turn moves into copies; fma
contraction runs on MIR, not in the emitter, so the simulator sees the same operations.

`stop` names the last phase to run ("ast", "mir", "mir-opt", "ptx"), like QBE's `func()`:
one line per phase.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from . import ast
from .diagnostics import CompileError, Diagnostic, DiagnosticSink
from .mir.syntax import Program
from .signature import KernelSignature, kernel_signatures
from .span import SourceFile

STOPS = ("ast", "mir", "mir-opt", "ptx")
ARCHES = ("sm_80", "sm_86", "sm_89", "sm_90", "sm_90a")


@dataclass
class Options:
    arch: str = "sm_80"
    opt_level: int = 2
    fmad: bool = True
    line_info: bool = True
    stop: str = "ptx"
    # -O2: a kernel's 32-bit index version behind a uniform test (passes/index32.py); off,
    # the tests of other passes see one version
    index32: bool = True
    # worker processes for the passes and the emitter of a large program (codegen_jobs.py);
    # with more than 1 and a stop at "ptx", `Compilation.program` is left unoptimised
    jobs: int = 1


@dataclass
class Compilation:
    """Everything one compilation produced; fields past `stop` stay None."""

    source: SourceFile
    options: Options
    diagnostics: list[Diagnostic] = field(default_factory=list)  # warnings when it succeeded
    # the AST; kept only by a compilation that stops at "ast": past lowering nothing reads
    # it, and dropping it (and typeck's tables) lets the passes reuse its memory
    unit: ast.SourceUnit | None = None
    program: Program | None = None
    ptx: str | None = None

    @property
    def kernels(self) -> dict[str, KernelSignature]:
        return kernel_signatures(self.program) if self.program else {}


def compile_source(text: str, filename: str = "<input>", options: Options | None = None
                   ) -> Compilation:
    """Compile kernel source text; raises CompileError carrying the diagnostics on failure.

    The phases run on a thread with a large stack (deep.py), so that deeply nested input
    compiles; nesting past even that limit is a diagnostic at the innermost construct.
    """
    from .deep import run_deep, too_deep_diagnostic
    source = SourceFile(filename, text)
    try:
        return run_deep(_compile, source, options)
    except RecursionError as err:
        raise too_deep_diagnostic(err, source) from None


def _compile(source: SourceFile, options: Options | None) -> Compilation:
    from .syntax import parse
    from .resolve import resolve
    from .resolve.reach import parse_reached
    from .typeck import typeck
    from .lower import lower
    from .checks import borrowck, unsafeck
    from .passes import contract_program, optimize_body, prepare_program, ptxas_workarounds
    from .ptx import check_limits, check_local_memory, emit_program, ptx_version

    opts = options or Options()
    sink = DiagnosticSink()
    comp = Compilation(source, opts, sink.diagnostics)

    comp.unit, unparsed = parse_reached(comp.source, sink); sink.check()
    if opts.stop == "ast":
        return comp
    items = resolve(comp.unit, sink, unparsed); sink.check()
    typed = typeck(items, sink, opts.arch); sink.check()
    comp.program = lower(items, typed, sink); sink.check()
    # the MIR is all the later phases read: the AST and the tables about it go (emptied,
    # as they hold cycles; see ItemTable.release), so that their memory is reused
    items.release()
    typed.release()
    comp.unit = items = typed = unparsed = None
    unsafeck(comp.program, sink)
    borrowck(comp.program, sink); sink.check()
    check_limits(comp.program, ptx_version(opts.arch), sink); sink.check()
    if opts.stop == "mir":
        return comp
    prepare_program(comp.program, opts.opt_level)  # inlining: what needs every body
    if opts.jobs > 1 and opts.stop == "ptx":
        from .codegen_jobs import optimize_and_emit
        comp.ptx = optimize_and_emit(comp.program, opts, opts.jobs)
        if comp.ptx is not None:
            return comp
    for body in comp.program.bodies:
        optimize_body(body, opts.opt_level, index32_version=opts.index32)
    if opts.fmad:
        contract_program(comp.program)
    if opts.stop == "mir-opt":
        return comp
    check_local_memory(comp.program, sink); sink.check()
    ptxas_workarounds(comp.program)
    comp.ptx = emit_program(comp.program, opts.arch, line_info=opts.line_info)
    return comp


def read_source(path: str | os.PathLike) -> str:
    """Read a source file as UTF-8; undecodable bytes are a diagnostic, not a traceback."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        src = SourceFile(str(path), data.decode("utf-8", errors="replace"))
        sink = DiagnosticSink()
        from .span import Span
        sink.error("OX0008", "source file is not valid UTF-8", Span(src, exc.start, exc.start + 1),
                   "invalid byte here")
        raise CompileError(sink.diagnostics) from None


def compile_file(path: str | os.PathLike, options: Options | None = None) -> Compilation:
    return compile_source(read_source(path), str(path), options)
