import sys
sys.path.insert(0, "tests")
import numpy as np, test_runtime as t
from cuda.bindings import driver as d
from oxidec.api import KernelModule
from oxidec.runtime import context
from oxidec.runtime.errors import CudaError
variant = sys.argv[1]
# stop the runtime's own reset so we can try variants
context.reset_after_fault = lambda: None
mod = KernelModule.from_ptx(t.KERNELS_PTX, [t.OOB_READ])
try:
    mod.oob_read[1, 32](np.zeros(4, np.float32), np.zeros(32, np.float32), device="gpu")
except CudaError as e:
    print("trap:", e)
ctx = context._current
dev = ctx.device
def show(what, r):
    print(variant, what, r[0] if isinstance(r, tuple) else r)
    return r
show("streamdestroy", d.cuStreamDestroy(ctx.stream))
if variant in ("release_reset", "unset_release_reset"):
    if variant == "unset_release_reset":
        show("setcurrent(0)", d.cuCtxSetCurrent(d.CUcontext(0)))
    show("release", d.cuDevicePrimaryCtxRelease(dev))
    show("reset", d.cuDevicePrimaryCtxReset(dev))
elif variant == "reset_only":
    show("reset", d.cuDevicePrimaryCtxReset(dev))
elif variant == "unset_reset":
    show("setcurrent(0)", d.cuCtxSetCurrent(d.CUcontext(0)))
    show("reset", d.cuDevicePrimaryCtxReset(dev))
r = show("retain", d.cuDevicePrimaryCtxRetain(dev))
if int(r[0]) == 0:
    show("setcurrent", d.cuCtxSetCurrent(r[1]))
    show("memalloc", d.cuMemAlloc(16))
    show("ctxsync", d.cuCtxSynchronize())
