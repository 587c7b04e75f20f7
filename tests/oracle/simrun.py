"""Compiles an oracle program with oxidec and runs it on oxidec's simulator."""
from __future__ import annotations

import traceback
from dataclasses import dataclass

import numpy as np

POISON = 0xDEAD_BEEF_DEAD_BEEF


@dataclass
class SimResult:
    status: str                     # "ok", "trap", "rejected" (a diagnostic), "ice" (a bug)
    outputs: list[int] | None = None
    detail: str = ""                # the diagnostic or traceback
    ptx: str | None = None          # what oxidec compiled (for the GPU bundle)
    signatures: bytes | None = None  # the kernels' signatures, pickled

    def key(self) -> str:
        """What a reduced program must keep to show the same fault."""
        if self.status == "rejected":
            return "rejected " + self.detail.split(":", 1)[0]
        if self.status == "ice":
            return "ice " + self.detail.strip().splitlines()[-1].split(":", 1)[0]
        return self.status


def run_source(source: str, inputs: list[int], outputs: int, opt_level: int = 2,
               name: str = "oracle.rs") -> SimResult:
    from oxidec.api import compile_source
    from oxidec.diagnostics import CompileError
    from oxidec.sim.errors import SimError, SimTrap
    try:
        mod = compile_source(source, name, fmad=False, opt_level=opt_level)
    except CompileError as err:
        first = err.diagnostics[0]
        return SimResult("rejected", detail=f"{first.code}: {first.message}: "
                         f"{first.primary.message if first.primary else ''}")
    except Exception:
        return SimResult("ice", detail=traceback.format_exc())
    inp = np.array(inputs, dtype=np.uint64)
    out = np.full(outputs, POISON, dtype=np.uint64)
    try:
        mod.k0.launch(1, outputs, inp, out, device="sim")
    except SimTrap as err:
        return SimResult("trap", detail=str(err))
    except SimError as err:
        return SimResult("simerror", detail=f"{type(err).__name__}: {err}")
    except Exception:
        return SimResult("ice", detail=traceback.format_exc())
    import pickle
    return SimResult("ok", [int(w) for w in out], ptx=mod.ptx,
                     signatures=pickle.dumps(mod.signatures))
