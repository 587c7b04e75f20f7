"""The GPU's measured copy ceiling: what a memory-bound kernel can reach at best.

    python3 benchmarks/copy_ceiling.py [--mib 256] [--repeat 20]     # GPU machine

A device-to-device copy of a buffer larger than L2 (each byte read once and written once),
timed with CUDA events like the kernels in bench.py; the rate counts read + write traffic, as
bench.py's rates do. bench.py reports each memory-bound kernel's rate as a share of it
(issue 13: >= 85%).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def copy_ceiling_gbs(nbytes: int = 256 << 20, warmup: int = 3, repeat: int = 20) -> float:
    """Median device-to-device copy rate in GB/s (read + write bytes per second)."""
    from oxidec.runtime import context
    from oxidec.runtime.cuda import check
    from oxidec.runtime.timing import time_gpu
    ctx = context.current()
    drv = ctx.drv
    src = check(drv.cuMemAlloc(nbytes), "allocating the copy source")
    dst = check(drv.cuMemAlloc(nbytes), "allocating the copy destination")
    try:
        check(drv.cuMemsetD8Async(src, 0x5A, nbytes, ctx.stream), "filling the copy source")

        def once() -> None:
            check(drv.cuMemcpyDtoDAsync(dst, src, nbytes, ctx.stream), "copying")
        timing = time_gpu(once, ctx, warmup=warmup, repeat=repeat, what="a device copy")
    finally:
        drv.cuMemFree(src)
        drv.cuMemFree(dst)
    return 2 * nbytes / (timing.median_ms * 1e-3) / 1e9


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mib", type=int, default=256)
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args(argv)
    print(f"copy ceiling: {copy_ceiling_gbs(args.mib << 20, repeat=args.repeat):,.0f} GB/s "
          f"({args.mib} MiB device-to-device, read + write)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
