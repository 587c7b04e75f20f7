"""The target's hard limits, checked before emission so that a program ptxas (or the
driver) would reject is a diagnostic at the source that exceeds the limit (OX0012), never
PTX that fails to assemble or to launch. Measured with ptxas 13.0 for sm_80 and sm_90:

- kernel parameter space: 4352 bytes (0x1100) under PTX ISA 7.8, the version oxidec
  emits for sm_80/sm_90; 32764 under ISA 8.1 and later (the sm_100 family);
- static shared memory per kernel: 48 KiB (0xC000); more needs the dynamic opt-in
  (`DynamicSharedArray` and a launch attribute);
- (`#[launch_bounds]` values are checked where lowering reads the attribute:
  lower/builder.py `check_launch_bounds`, with the same code);
- local memory: at most 512 KiB per thread (CUDA's limit on every architecture; ptxas
  accepts more, the launch fails).
"""
from __future__ import annotations

from ..diagnostics import DiagnosticSink, Label
from ..mir import syntax as mir
from ..types import SharedArrayTy
from . import abi
from .regalloc import memory_locals
from .types import mem_align, mem_size

CODE = "OX0012"
PARAM_SPACE = 4352
PARAM_SPACE_ISA_8_1 = 32764
STATIC_SHARED = 48 * 1024
LOCAL_MEMORY = 512 * 1024


def check_limits(program: mir.Program, version: str, sink: DiagnosticSink) -> None:
    """Report every limit the program exceeds (errors, and warnings for ignored hints);
    on the MIR as lowered, so that `check` reports them too."""
    bodies = {body.name: body for body in program.bodies}
    statics = {decl.name: decl for decl in program.statics}
    param_limit = PARAM_SPACE_ISA_8_1 if _version(version) >= (8, 1) else PARAM_SPACE
    for body in program.bodies:
        if body.kind == "kernel":
            _params(body, param_limit, version, sink)
            _shared(body, bodies, statics, sink)
        for decl in body.locals:
            if mem_size(decl.ty) > LOCAL_MEMORY:
                _local_memory_error(body, decl, mem_size(decl.ty), sink)
                break


def check_local_memory(program: mir.Program, sink: DiagnosticSink) -> None:
    """The `.local` memory of each function, as emitted (after the passes removed the
    temporaries), within the per-thread limit."""
    for body in program.bodies:
        check_body_local_memory(body, sink)


def check_body_local_memory(body: mir.Body, sink: DiagnosticSink) -> None:
    """`check_local_memory` of one function."""
    locals_ = memory_locals(body)
    total = sum(mem_size(m.ty) for m in locals_.values())
    if total > LOCAL_MEMORY:
        biggest = max(locals_, key=lambda i: mem_size(locals_[i].ty))
        _local_memory_error(body, body.locals[biggest], total, sink)


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("."))


def _params(body: mir.Body, limit: int, version: str, sink: DiagnosticSink) -> None:
    end = 0
    for local, params in abi.kernel_params(body):
        for param in params:
            size, align = _param_size(body.locals[local].ty, param)
            end = -(-end // align) * align + size
        if end > limit:
            decl = body.locals[local]
            sink.error(CODE, f"kernel `{body.name}` has more parameter data than a launch "
                       f"can pass ({limit} bytes)", decl.span,
                       f"the parameters reach byte {end} here",
                       notes=[f"PTX ISA {version} kernels take at most {limit} bytes of "
                              f"`.param` space"],
                       help="pass large or numerous values in a device buffer "
                            "(a `&[T]` parameter) instead")
            return


def _param_size(ty, param: abi.Param) -> tuple[int, int]:
    if "[" in param.decl:  # a struct, tuple or array by value: `.align A .b8 name[SIZE]`
        return mem_size(ty), mem_align(ty)
    size = mem_size(param.leaves[0][1])
    return size, size


def _shared(body: mir.Body, bodies, statics, sink: DiagnosticSink) -> None:
    used = [statics[name] for name in _statics_reached(body, bodies) if name in statics]
    shared = [d for d in used if d.space == "shared"]
    total = sum(mem_size(d.ty) for d in shared)
    if total <= STATIC_SHARED:
        return
    biggest = max(shared, key=lambda d: mem_size(d.ty))
    others = [Label(d.span, f"{mem_size(d.ty)} bytes") for d in shared if d is not biggest]
    what = (f"`{biggest.ty}` is {mem_size(biggest.ty)} bytes" if isinstance(
        biggest.ty, SharedArrayTy) else f"{mem_size(biggest.ty)} bytes")
    sink.error(CODE, f"kernel `{body.name}` uses {total} bytes of static shared memory, "
               f"more than the {STATIC_SHARED} bytes (48 KiB) a block may declare",
               biggest.span, what, labels=others,
               help="use `DynamicSharedArray` (sized at launch; above 48 KiB it needs the "
                    "opt-in launch attribute), or a smaller tile")


def _statics_reached(body: mir.Body, bodies) -> list[str]:
    """Names of the statics `body` and the device functions it calls refer to."""
    seen, names, stack = {body.name}, [], [body]
    while stack:
        b = stack.pop()
        for block in b.blocks:
            for stmt in block.statements:
                if isinstance(stmt, mir.Assign) and isinstance(stmt.rvalue, mir.StaticRef):
                    if stmt.rvalue.name not in names:
                        names.append(stmt.rvalue.name)
            term = block.terminator
            if isinstance(term, mir.Call) and term.func not in seen and term.func in bodies:
                seen.add(term.func)
                stack.append(bodies[term.func])
    return names


def _local_memory_error(body: mir.Body, decl: mir.LocalDecl, total: int,
                        sink: DiagnosticSink) -> None:
    sink.error(CODE, f"`{body.name}` needs {total} bytes of local memory per thread, more "
               f"than the {LOCAL_MEMORY} bytes (512 KiB) a thread may use", decl.span,
               f"`{decl.ty}` is {mem_size(decl.ty)} bytes",
               help="keep large arrays in global memory (a `&[T]` or `DisjointSlice` "
                    "parameter) or shared memory")
