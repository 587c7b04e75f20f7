"""`cuda_device::debug`: timers and trap; `barrier::nanosleep`. (`gpu_printf!` is a macro: typeck/macros.py.)"""
from __future__ import annotations

from .model import ApiFn, hook, op

FNS = [
    ApiFn("debug::clock", (), "u32", op("clock")),
    # `clock64()` at the crate root is oxidec's older spelling; cuda-oxide has `debug::clock64`
    ApiFn("debug::clock64", (), "u64", op("clock64"), aliases=("clock64",)),
    ApiFn("debug::globaltimer", (), "u64", op("globaltimer")),
    # cuda-oxide keeps `nanosleep` with the barriers (spin-waits back off with it)
    ApiFn("barrier::nanosleep", ("u32",), "()", op("nanosleep"), unsafe=True, min_sm=70),
    ApiFn("debug::trap", (), "!", hook("trap")),
    ApiFn("debug::breakpoint", (), "()", op("breakpoint")),
    # `prof_trigger::<N>()`: N (0..=15) is an immediate of `pmevent`
    ApiFn("debug::prof_trigger", (), "()", hook("prof_trigger"), const_generics=1,
          check="prof_trigger"),
]
