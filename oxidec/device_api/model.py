"""The rows of the device-API registry.

Three kinds of row:

- `Op`: one MIR operation of the device, an `Intrinsic` rvalue or an `Effect` statement
  (`laneid`, `shuffle_xor`, `sync_threads`). It says what every phase after lowering needs
  to know without a list of its own: the result type (mir/typeof), how the value varies
  across threads and whether every lane/thread must reach it (borrowck/divergence), whether
  passes may move it (`convergent`, `volatile`: licm, unrolling, bounds hoisting), the PTX special register it reads
  (the emitter prints a row with `sreg` without an entry of its own), the minimum sm, and
  the simulator operation that runs it (None: the simulator reports "GPU only").
- `ApiFn`: one function, method or associated function of the `cuda_device` API as the
  user writes it: its path (and re-export aliases), its signature as Rust type text
  (`"Option<&mut T>"`: typeck resolves the text with the same rules as a written type, so
  the registry knows nothing about how `Option` is represented), `unsafe`, minimum sm, and
  how it lowers: one `Op` with the arguments as operands, or a lowering hook (a method
  `api_<hook>` of the lowering, for items that expand to several MIR statements).
- `ApiType`: one type of the API (`DisjointSlice`, `ThreadIndex`, `DeviceAtomicU32`, ...),
  whose methods are `ApiFn` rows with `kind="method"` and `owner` = the type's name.
"""
from __future__ import annotations

from dataclasses import dataclass

# Uniformity levels of a value across the threads of a block (the divergence check's taint).
UNIFORM, PER_WARP, PER_LANE = 0, 1, 2


@dataclass(frozen=True)
class Op:
    name: str  # the MIR `Intrinsic` / `Effect` name
    result: str  # a scalar name ("u32", "u64", "bool"), "arg0"/"arg1" (an operand's type),
    #              "unit" (an Effect), or "dest" (the destination decides: `dynamic_shared`)
    effect: bool = False  # an `Effect` statement rather than an `Intrinsic` rvalue
    sreg: str | None = None  # the PTX special register it reads ("%laneid")
    varies: int = UNIFORM  # how the value it reads varies across the threads of a block
    #                        (otherwise its result varies as much as its operands do)
    warp_uniform_result: bool = False  # the result is the same in every lane of the warp
    sync: str | None = None  # "warp": every lane of the warp must reach it together;
    #                          "block": every thread of the block (a barrier)
    convergent: bool = False  # its result depends on which lanes run it together: passes
    #                           never move it into other control flow (LLVM's `convergent`)
    volatile: bool = False  # a different value every time (a clock): never hoisted or merged
    side_effect: bool = False  # an `Intrinsic` that also changes memory (`mbarrier.arrive`):
    #                            kept when its result is unused, and never moved (volatile)
    min_sm: int = 0
    sim: str | None = ""  # simulator operation ("" = the same name; None = GPU only)
    doc: str = ""

    @property
    def sim_op(self) -> str | None:
        return self.name if self.sim == "" else self.sim


@dataclass(frozen=True)
class Lowering:
    how: str  # "op": one `Op` row with the call's arguments as operands; "hook": `api_<name>`
    name: str


def op(name: str) -> Lowering:
    return Lowering("op", name)


def hook(name: str) -> Lowering:
    return Lowering("hook", name)


@dataclass(frozen=True)
class ApiFn:
    path: str  # canonical path without the crate: "thread::index_1d", "DisjointSlice::len"
    params: tuple[str, ...]  # parameter types as Rust type text (methods: without self)
    ret: str  # result type as Rust type text
    lowering: Lowering | None = None
    kind: str = "fn"  # "fn" | "assoc_fn" (`Type::f()`) | "method" (`x.f()`)
    owner: str | None = None  # the ApiType of an assoc_fn / method
    aliases: tuple[str, ...] = ()  # other paths that name it (crate-root re-exports)
    type_params: tuple[str, ...] = ()  # generic type parameters named in the type text
    const_generics: int = 0  # number of const generic arguments (`index_2d::<16>`)
    unsafe: bool = False
    min_sm: int = 0
    arch_specific: bool = False  # needs the arch-specific target (`sm_90a`: wgmma)
    check: str | None = None  # a typeck hook for a signature the type text cannot say
    doc: str = ""

    @property
    def name(self) -> str:
        return self.path.rpartition("::")[2]

    @property
    def module(self) -> str:
        return self.path.rpartition("::")[0]

    @property
    def intrinsic(self) -> str | None:
        """The MIR operation when the call is exactly one `Op`."""
        return self.lowering.name if self.lowering and self.lowering.how == "op" else None


@dataclass(frozen=True)
class ApiType:
    name: str  # as written: "DisjointSlice", "DeviceAtomicU32"
    module: str  # the `cuda_device` module that defines it
    generics: str = ""  # as the reference writes them, for messages: "<T, S = Index1D>"
    min_sm: int = 0
    doc: str = ""
