"""`cuda_device::fence` (re-exported at the crate root): memory fences."""
from __future__ import annotations

from .model import ApiFn, op

FNS = [
    ApiFn("fence::threadfence", (), "()", op("threadfence"), doc="`membar.gl`: the device"),
    ApiFn("fence::threadfence_block", (), "()", op("threadfence_block"),
          doc="`membar.cta`: the block"),
    ApiFn("fence::threadfence_system", (), "()", op("threadfence_system"),
          doc="`membar.sys`: the device and the host"),
    # cuda-oxide keeps the proxy fence with the barriers (TMA code orders its shared-memory
    # writes before `cp.async.bulk` with it)
    ApiFn("barrier::fence_proxy_async_shared_cta", (), "()", op("fence_proxy_async"),
          unsafe=True, min_sm=90),
]
