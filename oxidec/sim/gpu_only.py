"""What the simulator cannot run: kernels launched in thread-block clusters and operations
whose registry row has no simulator entry (`sim=None`: the cluster barrier, distributed
shared memory, TMA, wgmma). Found before anything runs and reported as one diagnostic,
OX0030, at the first such statement (or at the kernel, for `#[cluster_launch]`):

    error[OX0030]: kernel `reduce` uses `cluster::cluster_sync`, which runs on the GPU only
"""
from __future__ import annotations

from ..device_api.ops import OPS
from ..diagnostics import Diagnostic, Label
from ..mir import syntax as M
from ..span import Span
from .errors import SimError

NOTE = "the CPU simulator models neither thread-block clusters, TMA nor wgmma"
HELP = "run it on an sm_90 GPU (`oxidec run --gpu`, or `device=\"gpu\"` in the Python API)"


class SimGpuOnly(SimError):
    """The kernel uses a feature only the GPU has; `diagnostic` says where."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def check_runs_on_simulator(program: M.Program, kernel: str) -> None:
    """SimGpuOnly when `kernel` (or a device function it calls) needs the GPU."""
    bodies = {b.name: b for b in program.bodies}
    body = bodies.get(kernel)
    if body is None:
        return
    launch = body.launch
    if launch is not None and launch.cluster:
        shape = ", ".join(str(n) for n in launch.cluster)
        raise SimGpuOnly(_diagnostic(f"kernel `{kernel}` is launched in thread-block clusters "
                                     f"(#[cluster_launch({shape})]), which run on the GPU only",
                                     _first_line(body.span), "launched in clusters"))
    seen, todo = set(), [kernel]
    while todo:
        name = todo.pop()
        if name in seen or name not in bodies:
            continue
        seen.add(name)
        for block in bodies[name].blocks:
            for stmt in block.statements:
                op = _gpu_only_op(stmt)
                if op is not None:
                    raise SimGpuOnly(_diagnostic(
                        f"kernel `{kernel}` uses `{_api_path(op)}`, which runs on the GPU only",
                        stmt.span, "GPU only"))
            if isinstance(block.terminator, M.Call):
                todo.append(block.terminator.func)


def grid_sync_too_large(body: M.Body, threads: int, limit: int) -> SimGpuOnly:
    """A `grid::sync()` kernel launched with more threads than the simulator runs at once
    (it must hold every block of the grid live to meet at the grid barrier)."""
    return SimGpuOnly(Diagnostic(
        "error", "OX0030", f"kernel `{body.name}` syncs the whole grid (`grid::sync()`) and this "
        f"launch has {threads} threads: the simulator runs such a launch as one batch of at "
        f"most {limit} threads, so it runs on the GPU only",
        Label(_first_line(body.span), "uses `grid::sync()`"),
        notes=["every block of a cooperative launch must be live at once to meet at the grid "
               "barrier"], help=[HELP + ", or launch fewer blocks"]))


def _gpu_only_op(stmt) -> str | None:
    name = None
    if isinstance(stmt, M.Effect):
        name = stmt.name
    elif isinstance(stmt, M.Assign) and isinstance(stmt.rvalue, M.Intrinsic):
        name = stmt.rvalue.name
    row = OPS.get(name) if name else None
    return name if row is not None and row.sim is None else None


def _api_path(op: str) -> str:
    """The API item the user wrote for an operation (`cluster::cluster_sync`)."""
    from ..device_api import API_FNS
    paths = sorted(f.path for f in API_FNS.values() if f.intrinsic == op)
    return paths[0] if paths else op


def _diagnostic(message: str, span: Span, label: str) -> Diagnostic:
    return Diagnostic("error", "OX0030", message, Label(span, label), notes=[NOTE], help=[HELP])


def _first_line(span: Span) -> Span:
    text = span.file.text
    end = text.find("\n", span.start)
    return Span(span.file, span.start, end if 0 <= end < span.end else span.end)
