"""Timing: GPU event pairs around each launch, or wall clock for the simulator.

Both do a few untimed warm-up runs, then `repeat` timed ones, and report the median in ms
(the baseline table in GPU.md is the median of 20 event-timed launches).
"""
from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Callable

from . import context
from .cuda import check


@dataclass
class Timing:
    times_ms: list[float]
    warmup: int
    clock: str  # "gpu events" | "wall clock"

    @property
    def median_ms(self) -> float:
        return statistics.median(self.times_ms)

    @property
    def min_ms(self) -> float:
        return min(self.times_ms)

    def __str__(self) -> str:
        return (f"{self.median_ms:.4f} ms median of {len(self.times_ms)} runs "
                f"({self.clock}, min {self.min_ms:.4f} ms, {self.warmup} warm-up)")


def time_gpu(launch_once: Callable[[], None], ctx: context.GpuContext, *, warmup: int = 3,
             repeat: int = 20, what: str = "timing a kernel") -> Timing:
    """Time `launch_once()` (which enqueues one asynchronous launch on ctx.stream)."""
    drv = ctx.drv
    flags = drv.CUevent_flags.CU_EVENT_DEFAULT.value
    events = []
    try:
        for _ in range(warmup):
            launch_once()
        for _ in range(repeat):
            start = check(drv.cuEventCreate(flags), "creating a timing event")
            events.append(start)
            end = check(drv.cuEventCreate(flags), "creating a timing event")
            events.append(end)
            check(drv.cuEventRecord(start, ctx.stream), "recording a timing event")
            launch_once()
            check(drv.cuEventRecord(end, ctx.stream), "recording a timing event")
        ctx.synchronize(f"synchronizing after {what}")
        times = [check(drv.cuEventElapsedTime(events[i], events[i + 1]), "reading event times")
                 for i in range(0, len(events), 2)]
    finally:
        if ctx.faulted:
            events.clear()  # the context is unusable; destroying them would only fail again
        for ev in events:
            try:
                drv.cuEventDestroy(ev)
            except Exception:
                pass
    return Timing([float(t) for t in times], warmup, "gpu events")


def time_wall(run_once: Callable[[], None], *, warmup: int = 1, repeat: int = 5) -> Timing:
    for _ in range(warmup):
        run_once()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        run_once()
        times.append((time.perf_counter() - t0) * 1e3)
    return Timing(times, warmup, "wall clock")
