"""MIR -> PTX text, directly (no LLVM).

    from oxidec.ptx import emit_program
    text = emit_program(program, arch="sm_80", fmad=True, line_info=True, readonly_nc=True)

Modules, one job each:
- `types.py`    type tables: leaves of a type, register classes, suffixes, C layout;
- `regalloc.py` locals -> virtual registers (and the few locals kept in `.local`);
- `spaces.py`   which state space each pointer leaf points into;
- `fusion.py`   fma contraction and widened-index planning;
- `instrs.py`   tables from MIR operations to instruction templates;
- `legalize.py` what is not one table entry (narrow ints, casts, round, bool logic);
- `places.py`   resolving places to registers or memory; loads, stores, moves;
- `rvalues.py`  rvalues -> instructions; `intrinsics.py` the `Intrinsic` table;
- `abi.py`      kernel params, device function params/returns, call sequences;
- `emit.py`     one body -> one function; `module.py` the whole module;
- `bulk.py`     large array initialisers as loops;
- `limits.py`   the target's hard limits (parameter space, shared and local memory,
                launch bounds) as diagnostics, checked before emission.
"""
from .limits import check_limits, check_local_memory
from .module import emit_program, ptx_version
from .types import PtxEmitError

__all__ = ["emit_program", "check_limits", "check_local_memory", "ptx_version", "PtxEmitError"]
