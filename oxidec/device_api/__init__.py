"""The one registry of the device API (the `cuda_device` crate as oxidec compiles it).

    model.py     the row types: Op (a MIR operation), ApiFn (a function or method as the
                 user writes it), ApiType; typetext.py parses the signatures' type text
    ops.py       every MIR `Intrinsic` and `Effect` name, with what later phases need
    thread.py warp.py debug.py fence.py memory.py atomic.py numbers.py dotprod.py
    asynchrony.py (cp.async, mbarrier) tensor.py (mma.sync, ldmatrix, stmatrix)
    cluster.py (sm_90 thread-block clusters) tma.py (sm_90 bulk tensor copies)
    wgmma.py (sm_90a warpgroup MMA)
                 the API rows, one module per `cuda_device` module (or group of them)
    arch.py      minimum sm, Blackwell-only names

Adding an API function:
  1. an `ApiFn` row in the module's file (path, signature as Rust type text, `unsafe`,
     `min_sm`, lowering: `op(NAME)` or `hook(NAME)` = a method `api_NAME` of lower/calls.py);
  2. when it is a new MIR operation, an `Op` row in ops.py (result type, how it varies
     across threads, `sync`/`convergent`/`volatile`, `sreg`, `min_sm`, `sim`), plus its
     emitter entry (ptx/intrinsics.py; none for a special register) and simulator entry
     (sim/intrinsics.py, or machine.Batch.special for a special register);
  3. tests/test_device_api.py checks that every row resolves and has those entries.
Typeck reads the signatures (typeck/api.py resolves the type text), `min_sm` (OX0013) and the
typeck hooks (`check`); lowering the `lowering`; mir/typeof, the divergence and race checks,
the passes, the emitter and the simulator the `Op` rows. This package imports nothing of the
compiler but itself.
"""
from __future__ import annotations

from . import (asynchrony, atomic, cluster, coop, coop_ops, cusimd, debug, dotprod, fence,
               fp8, libm, managed_barrier, memory, numbers, packed, rounding, runtime2d,
               swizzle, tensor, thread, tma, uniform, vector, views, warp, wgmma)
from .arch import arch_name, blackwell_family, sm_number
from .model import PER_LANE, PER_WARP, UNIFORM, ApiFn, ApiType, Lowering, Op
from .ops import OPS
from .typetext import parse_type

__all__ = ["ApiFn", "ApiType", "Lowering", "Op", "OPS", "API_FNS", "API_TYPES", "METHODS",
           "lookup_api", "lookup_method", "methods_of", "api_names", "op_row", "parse_type",
           "arch_name", "blackwell_family", "sm_number", "UNIFORM", "PER_WARP", "PER_LANE",
           "atomic", "numbers", "warp"]

# Modules whose items the crate root re-exports (`cuda_device::index_1d`).
REEXPORTED = ("thread", "fence")
# Crate prefixes a user may write before an API path, and modules of the device crate
# whose items are also reachable by their own name (`atomic::DeviceAtomicU32`).
# `cuda_intrinsics` is cuda-oxide's generated crate of the same intrinsics: its groups
# `warp`, `prmt`, `float`, .. have cuda_device's names; `sreg::*` and `matrix::*` are
# aliases on the rows (`sreg::thread_idx_x`, `matrix::ldmatrix_m8n8_x4_b16`).
CRATES = ("cuda_device", "cuda_core", "cuda_intrinsics")
MODULES = ("atomic",)

_ALL_FNS: list[ApiFn] = [*thread.FNS, *cluster.FNS, *warp.FNS, *debug.FNS,
                         *fence.FNS, *memory.FNS, *atomic.FNS, *numbers.FNS, *dotprod.FNS,
                         *packed.FNS, *asynchrony.FNS, *tensor.FNS,
                         *coop.FNS, *wgmma.FNS, *tma.FNS, *libm.FNS,
                         *rounding.FNS, *runtime2d.FNS, *swizzle.FNS, *fp8.FNS,
                         *managed_barrier.FNS, *cusimd.FNS, *coop_ops.FNS, *views.FNS, *uniform.FNS,
                         *vector.FNS]
_ALL_TYPES: list[ApiType] = [*thread.TYPES, *memory.TYPES, *atomic.TYPES, *asynchrony.TYPES,
                              *coop.TYPES, *tma.TYPES, *runtime2d.TYPES, *swizzle.TYPES,
                              *managed_barrier.TYPES, *cusimd.TYPES, *views.TYPES, *uniform.TYPES,
                              *vector.TYPES]

# Functions and associated functions by every path that names them; methods by owner.
API_FNS: dict[str, ApiFn] = {}
METHODS: dict[str, dict[str, ApiFn]] = {}
for _f in _ALL_FNS:
    if _f.kind == "method":
        METHODS.setdefault(_f.owner, {})[_f.name] = _f
        continue
    _paths = (_f.path, *_f.aliases) + ((_f.name,) if _f.module in REEXPORTED else ())
    for _p in _paths:
        assert _p not in API_FNS, f"two device API items named `{_p}`"
        API_FNS[_p] = _f
API_TYPES: dict[str, ApiType] = {t.name: t for t in _ALL_TYPES}


def lookup_api(names: tuple[str, ...]) -> ApiFn | None:
    """Find an API function by the path the user wrote (`thread::index_1d`,
    `cuda_device::thread::index_1d`, or `index_1d` after `use cuda_device::thread::*`)."""
    while names and names[0] in CRATES:
        names = names[1:]
    if len(names) > 2 and names[0] in MODULES:
        names = names[1:]
    key = "::".join(names)
    if key in API_FNS:
        return API_FNS[key]
    if len(names) == 1:
        matches = {id(f): f for p, f in API_FNS.items() if p.endswith("::" + names[0])}
        if len(matches) == 1:
            return next(iter(matches.values()))
    return None


def lookup_method(owner: str, name: str) -> ApiFn | None:
    return METHODS.get(owner, {}).get(name)


def methods_of(owner: str) -> list[str]:
    return list(METHODS.get(owner, {}))


def api_names() -> list[str]:
    """Canonical paths of the functions (for "did you mean" hints)."""
    return sorted({f.path for f in API_FNS.values()})


def op_row(name: str) -> Op | None:
    return OPS.get(name)
