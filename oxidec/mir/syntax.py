"""MIR datatypes only (as rustc keeps `mir/syntax.rs`): no behaviour here.

A `Body` is a list of basic blocks; each block is statements plus one terminator.
Statements assign an `Rvalue` to a `Place`; places are a local plus projections;
operands are copies, moves or constants. Local 0 is the return place, locals
1..=arg_count are the parameters (as in rustc). Every statement and terminator keeps
the span of the source it came from.

Semantics that the emitter and the simulator must agree on:
- integer add/sub/mul wrap; `shl`/`shr` mask the shift amount to the bit width (Rust's
  release semantics); `shr` is arithmetic for signed types; `div`/`rem` truncate
  (lowering inserts the divide-by-zero assert before them);
- float ops are IEEE round-to-nearest; `ne` on floats is unordered (NaN != NaN);
- `Cast` follows Rust `as`: float->int saturates (NaN -> 0), int->int truncates or
  extends by the source's signedness, int->float rounds to nearest, bool->int is 0/1;
- `Ref` yields the address of a place in memory (an element of a slice, a shared array,
  a raw pointer target); it never loads.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..span import Span
from ..types import Ty

value = dataclass(frozen=True)


# ---------------------------------------------------------------------------
# Places and operands

@value
class Deref:
    """`*p`: p is a reference, raw pointer, or a slice/DisjointSlice (its data pointer)."""


@value
class Field:
    """Field `index` of a struct or tuple; of an enum, field `index` of variant `variant`
    (rustc's `Downcast(variant)` then `Field(index)`, written `(_1 as Some).0`; the two are
    one projection here because every variant's fields have their own storage, see
    mir/layout.py). Reading a variant's field is only meaningful when the value holds that
    variant; lowering reads it only after testing the `Discriminant`."""

    index: int
    variant: int | None = None


@value
class Index:
    local: int  # element index held in a usize local


@value
class ConstIndex:
    offset: int


Projection = Deref | Field | Index | ConstIndex


@value
class Place:
    local: int
    projection: tuple[Projection, ...] = ()

    def project(self, *more: Projection) -> "Place":
        return Place(self.local, self.projection + tuple(more))


@value
class Copy:
    place: Place


@value
class Move:
    place: Place


@value
class Constant:
    value: int | float | bool | None  # None only for the unit type
    ty: Ty


Operand = Copy | Move | Constant


# ---------------------------------------------------------------------------
# Rvalues

BINARY_OPS = ("add", "sub", "mul", "div", "rem", "bitand", "bitor", "bitxor", "shl", "shr",
              "eq", "ne", "lt", "le", "gt", "ge")
COMPARISONS = ("eq", "ne", "lt", "le", "gt", "ge")


@value
class Use:
    operand: Operand


@value
class BinaryOp:
    op: str  # one of BINARY_OPS
    lhs: Operand
    rhs: Operand


@value
class UnaryOp:
    op: str  # "neg" | "not" (bitwise for ints, logical for bool)
    operand: Operand


@value
class Cast:
    operand: Operand
    ty: Ty  # target type; the source type is the operand's


@value
class Ref:
    place: Place  # ends in a Deref/Index through memory
    mutable: bool


@value
class Len:
    place: Place  # a slice or DisjointSlice local


@value
class Aggregate:
    """A tuple, array, struct or enum value from its fields. For an enum, `variant` is the
    variant built (operands: its fields; the other variants' fields are left undefined);
    with `variant=None` the operands are the enum's flat fields, tag first (mir/layout.py):
    how `DisjointSlice::get_mut` builds an `Option` whose variant is only known at run time."""

    ty: Ty
    operands: tuple[Operand, ...]
    variant: int | None = None


@value
class Discriminant:
    """The discriminant of the enum value at `place` (of the enum's tag type)."""

    place: Place


@value
class Repeat:
    operand: Operand
    count: int  # `[x; N]`


@value
class Intrinsic:
    """A pure device operation: special registers, math, warp collectives.

    names: "tid.x" .. "nctaid.z", "laneid", "warpid", "sqrt", "abs", "min", "max", "fma",
    "floor", "ceil", "round", "trunc", "popc", "clz", "ctz", "select" (cond, a, b),
    "ptr_add" (p, n), "clock64" () -> u64, "dynamic_shared" () -> *mut T (this block's
    dynamic shared memory, sized at launch);
    warp collectives over the full warp (mask 0xffffffff), which every lane of the warp
    must reach together: "shuffle_xor", "shuffle_down", "shuffle_up", "shuffle" (value,
    lane_or_delta: u32) -> the value's type (any 32- or 64-bit scalar; a lane whose
    source is outside the warp gets its own value), "ballot" (bool) -> u32, "any" (bool)
    -> bool, "all" (bool) -> bool, "active_mask" () -> u32, "redux_sync_add", "_min",
    "_max", "_and", "_or", "_xor" (u32) -> u32 (all of WARP_COLLECTIVES).
    Passes may remove an unused one but never move one into different control flow.
    """

    name: str
    args: tuple[Operand, ...]


WARP_COLLECTIVES = frozenset({
    "shuffle_xor", "shuffle_down", "shuffle_up", "shuffle", "ballot", "any", "all",
    "active_mask", "redux_sync_add", "redux_sync_min", "redux_sync_max", "redux_sync_and",
    "redux_sync_or", "redux_sync_xor",
})


@value
class StaticRef:
    """The address of a shared/global static (e.g. a `SharedArray`) named in `Program.statics`."""

    name: str


Rvalue = (Use | BinaryOp | UnaryOp | Cast | Ref | Len | Discriminant | Aggregate | Repeat | Intrinsic
          | StaticRef)


# ---------------------------------------------------------------------------
# Statements and terminators

@dataclass
class Assign:
    place: Place
    rvalue: Rvalue
    span: Span


@dataclass
class Effect:
    """A side-effecting device operation that stays exactly where it is: "sync_threads",
    "printf" (args: the index of its C format string in `Program.strings` as a u32
    constant, then the values; f32 values are promoted to f64 when packed, as in C)."""

    name: str
    args: tuple[Operand, ...]
    span: Span


ATOMIC_OPS = ("add", "sub", "min", "max", "and", "or", "xor", "exch", "cas", "load", "store")
ATOMIC_ORDERINGS = ("relaxed", "acquire", "release", "acq_rel", "seq_cst")
ATOMIC_SCOPES = ("cta", "gpu")


@dataclass
class AtomicOp:
    """An atomic access to the scalar that `ptr` (a thin pointer into global or shared
    memory) points to: `dest = atomic <op>(ptr, args) [ordering, scope]`.

    op: "add" "sub" "min" "max" "and" "or" "xor" "exch" (args: value), "cas" (args:
    expected, new; compares bits), "load" (no args), "store" (args: value; dest is None).
    `dest` receives the value the memory held just before (for every op but "store").
    ordering: one of ATOMIC_ORDERINGS (Rust's Relaxed, Acquire, Release, AcqRel, SeqCst);
    scope: "cta" (BlockAtomic*) or "gpu" (DeviceAtomic*).
    It has side effects: passes never remove, duplicate or move it, even when `dest` is
    unused; concurrent atomics of one statement apply in linear thread order on the
    simulator (any order is allowed on the GPU).
    """

    dest: Place | None
    op: str
    ptr: Operand
    args: tuple[Operand, ...]
    ordering: str
    scope: str
    span: Span


@dataclass
class Nop:
    span: Span


Statement = Assign | Effect | AtomicOp | Nop


@dataclass
class Goto:
    target: int
    span: Span


@dataclass
class SwitchInt:
    """Jump to targets[i] when discr == values[i], else to otherwise. Bool discr: value 0 = false."""

    discr: Operand
    values: tuple[int, ...]
    targets: tuple[int, ...]
    otherwise: int
    span: Span


@dataclass
class Return:
    span: Span


@dataclass
class Call:
    func: str  # the Body name of a #[device] function
    args: tuple[Operand, ...]
    destination: Place
    target: int
    span: Span


@dataclass
class Assert:
    """Continue to target when cond == expected, else trap with message (bounds checks)."""

    cond: Operand
    expected: bool
    message: str
    target: int
    span: Span


@dataclass
class Unreachable:
    """Execution never reaches here (after `debug::trap()`, or a trap): emitted as `trap`."""

    span: Span


Terminator = Goto | SwitchInt | Return | Call | Assert | Unreachable


@dataclass
class BasicBlock:
    statements: list[Statement]
    terminator: Terminator


@dataclass
class LocalDecl:
    ty: Ty
    name: str | None  # user variable name; None for temporaries
    mutable: bool
    span: Span


@dataclass
class Body:
    name: str
    kind: str  # "kernel" | "device"
    arg_count: int
    locals: list[LocalDecl]  # [0] is the return place
    blocks: list[BasicBlock]  # [0] is the entry
    span: Span
    attrs: dict = field(default_factory=dict)  # "launch_bounds": (max_threads, min_blocks), ...

    @property
    def return_ty(self) -> Ty:
        return self.locals[0].ty

    def args(self) -> range:
        return range(1, self.arg_count + 1)


@dataclass
class StaticDecl:
    name: str  # unique in the program (kernel-local statics are mangled: "kernel$TILE")
    ty: Ty  # SharedArrayTy for shared memory
    space: str  # "shared"
    span: Span


@dataclass
class Program:
    bodies: list[Body]
    statics: list[StaticDecl] = field(default_factory=list)
    source_name: str = ""
    strings: list[str] = field(default_factory=list)  # C format strings of `printf` effects
