"""`cuda_device::fence` (re-exported at the crate root): memory fences."""
from __future__ import annotations

from .model import ApiFn, op

FNS = [
    ApiFn("fence::threadfence", (), "()", op("threadfence"), doc="`membar.gl`: the device"),
    ApiFn("fence::threadfence_block", (), "()", op("threadfence_block"),
          doc="`membar.cta`: the block"),
    ApiFn("fence::threadfence_system", (), "()", op("threadfence_system"),
          doc="`membar.sys`: the device and the host"),
]
