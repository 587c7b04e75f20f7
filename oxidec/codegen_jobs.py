"""The passes and the emitter of a large program in several processes, as rustc's codegen
units: `optimize_and_emit(program, options)`.

After `passes.prepare_program` (inlining, dropping what no kernel calls), every body is
optimised and written on its own: the pass rounds, index32, fma contraction and the ptxas
workarounds read and change one body; the emitter writes one function from one body and
records in the module only what the module's header declares (strings, features, the PTX
version: `ptx.module.Module.features`). So the bodies are shared out among forked worker
processes; each sends back its functions' text and what it recorded, and this process puts
the module together exactly as `emit_program` does, byte for byte: a function's labels are
numbered by its index in the program, not by the order of work.

Only worth it where there is enough work to share (`MIN_STATEMENTS`; a fork and the
results' transfer cost a few ms) and where `fork` exists. Anything unusual in a worker -- a
diagnostic (too much local memory), an internal error, a process that dies, a device
function whose signature the passes changed (other workers wrote its calls from the one
before) -- makes this return None, and the caller compiles the (prepared, otherwise untouched) program itself,
which reports exactly what a compile without workers reports. The program in this process
is not optimised: the build command, which asks for this (`Options.jobs`), needs only the
PTX and the kernels' signatures, which the passes do not change.
"""
from __future__ import annotations

import marshal
import os

from .mir.syntax import Body, Program

# Below this many MIR statements (as lowered) the passes and the emitter take ~0.25 s or
# less (~0.13 ms a statement): not enough to share, as the machine may well be busy with
# other builds (make -j); every sample is below it.
MIN_STATEMENTS = 2000


def default_jobs() -> int:
    """What `-j 0` means: the CPUs this process may run on, at most 8; but 1 under a
    parallel make (its jobserver in MAKEFLAGS), which already keeps the CPUs busy with
    other builds."""
    if "--jobserver-" in os.environ.get("MAKEFLAGS", ""):
        return 1
    try:
        return max(1, min(8, len(os.sched_getaffinity(0))))
    except (AttributeError, OSError):
        return max(1, min(8, os.cpu_count() or 1))


def optimize_and_emit(program: Program, options, jobs: int) -> str | None:
    """The PTX of `program` (prepared by `passes.prepare_program`) made by `jobs` worker
    processes; None when not worth it or not possible (the caller then compiles)."""
    groups = _share(program.bodies, jobs)
    if groups is None or not hasattr(os, "fork"):
        return None
    from .ptx.module import Module, assemble_module
    module = Module(program, options.line_info, True)
    if len(module.files) > 1:
        return None  # `.loc` file numbers come from the optimised bodies: one file only
    workers = [_start(program, group, options) for group in groups]
    results = [_finish(*worker) if worker is not None else None for worker in workers]
    if any(result is None for result in results):
        return None
    functions: list = [None] * len(program.bodies)  # ptx.module.EmittedFunction each
    for emitted, features in results:
        for index, function in emitted:
            functions[index] = function
        module.add_features(features)
    return assemble_module(module, program, functions, options.arch, options.line_info)


def _share(bodies: list[Body], jobs: int) -> list[list[int]] | None:
    """The bodies' indices in `jobs` groups of about equal statement counts (largest body
    first, to the group with the least so far); None when there is too little work."""
    sizes = [sum(len(b.statements) + 1 for b in body.blocks) for body in bodies]
    jobs = min(jobs, len(bodies))
    if jobs < 2 or sum(sizes) < MIN_STATEMENTS:
        return None
    groups: list[list[int]] = [[] for _ in range(jobs)]
    loads = [0] * jobs
    for index in sorted(range(len(bodies)), key=lambda i: -sizes[i]):
        least = loads.index(min(loads))
        groups[least].append(index)
        loads[least] += sizes[index]
    return groups


def _start(program: Program, group: list[int], options) -> tuple[int, int] | None:
    """Fork a worker for `group`: (its pid, the read end of its pipe), or None."""
    import warnings
    try:
        read, write = os.pipe()
    except OSError:
        return None
    try:
        with warnings.catch_warnings():
            # Python 3.12+ warns that a fork of a process with threads may deadlock in the
            # child (a lock another thread held stays held): the compile runs on deep.py's
            # thread while the main thread waits for it, holding no lock the worker takes
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        return None
    if pid:
        os.close(write)
        return pid, read
    # the worker: never returns; os._exit leaves this process's buffers and files alone
    status = 0
    try:
        os.close(read)
        data = marshal.dumps(_work(program, group, options))
    except BaseException:  # noqa: BLE001 -- reported by the compile that follows
        data, status = marshal.dumps(None), 1
    try:
        with os.fdopen(write, "wb") as pipe:
            pipe.write(data)
    finally:
        os._exit(status)


def _finish(pid: int, read: int):
    """A worker's result (None if it failed), once it has exited."""
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()  # before waiting: a full pipe would block the worker
    _, status = os.waitpid(pid, 0)
    if status != 0 or not data:
        return None
    try:
        return marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return None


def _work(program: Program, group: list[int], options):
    """In a worker: optimise and emit the bodies of `group`; ([(index, the emitted function)],
    the module's features), or None after a diagnostic or a changed signature."""
    from .diagnostics import DiagnosticSink
    from .passes import fma_contract, optimize_body, ptxas_workarounds_body
    from .ptx.limits import check_body_local_memory
    from .ptx.module import Module, emit_function
    from .ptx.abi import signature
    sink = DiagnosticSink()
    bodies = program.bodies
    for index in group:
        body = bodies[index]
        # the other workers write calls of a device function from its signature as it
        # was before the passes: the passes are not expected to change it, but if they did
        # the compile without workers is what is right
        before = signature(body) if body.kind == "device" else None
        optimize_body(body, options.opt_level, index32_version=options.index32)
        if options.fmad:
            fma_contract(body)
        check_body_local_memory(body, sink)
        ptxas_workarounds_body(body)
        if before is not None and signature(body) != before:
            return None
    if sink.diagnostics:
        return None
    module = Module(program, options.line_info, True)
    emitted = [(index, emit_function(module, bodies[index], index)) for index in group]
    return emitted, module.features()
