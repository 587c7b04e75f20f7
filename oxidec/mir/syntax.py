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

from ..device_api.ops import CONVERGENT
from ..span import Span
from ..types import Ty

value = dataclass(frozen=True, slots=True)


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


# An operand's `span` is where the source read the value (`v` in `f(v)`), for the checks'
# messages; it is not part of the operand's identity (equality and hashing ignore it), and
# passes that make new operands leave it None.

@value
class Copy:
    place: Place
    span: Span | None = field(default=None, compare=False, repr=False)


@value
class Move:
    place: Place
    span: Span | None = field(default=None, compare=False, repr=False)


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
    oxidec/device_api/ops.py has a row for every name, with its result type and flags.
    Passes may remove an unused one but never move one into different control flow.
    """

    name: str
    args: tuple[Operand, ...]


# The warp collectives (and `active_mask`): the device API registry's convergent operations.
WARP_COLLECTIVES = CONVERGENT


@value
class StaticRef:
    """The address of a shared/global static (e.g. a `SharedArray`) named in `Program.statics`."""

    name: str


Rvalue = (Use | BinaryOp | UnaryOp | Cast | Ref | Len | Discriminant | Aggregate | Repeat | Intrinsic
          | StaticRef)


# ---------------------------------------------------------------------------
# Statements and terminators

@dataclass(slots=True)
class Assign:
    place: Place
    rvalue: Rvalue
    span: Span


@dataclass(slots=True)
class Effect:
    """A side-effecting device operation that stays exactly where it is: "sync_threads",
    "printf" (args: the index of its C format string in `Program.strings` as a u32
    constant, then the values; f32 values are promoted to f64 when packed, as in C)."""

    name: str
    args: tuple[Operand, ...]
    span: Span


ATOMIC_OPS = ("add", "sub", "min", "max", "and", "or", "xor", "exch", "cas", "load", "store")
ATOMIC_ORDERINGS = ("relaxed", "acquire", "release", "acq_rel", "seq_cst")
ATOMIC_SCOPES = ("cta", "gpu", "sys")


@dataclass(slots=True)
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


@dataclass(slots=True)
class Nop:
    span: Span


@dataclass(slots=True)
class StorageLive:
    """The binding `local` starts here (again, on each iteration of a loop): it holds no
    value before this point (rustc's StorageLive). Only the checks read it: they remove
    the storage statements before the passes run (the emitter keeps locals in registers)."""

    local: int
    span: Span  # the binding


@dataclass(slots=True)
class StorageDead:
    """The scope that declared `local` ends here: a borrow of it must not outlive this."""

    local: int
    span: Span  # the scope's closing brace


@dataclass(slots=True)
class UnsafeUse:
    """An operation that needs an `unsafe` block or `unsafe fn`, where the source has it:
    kind "deref_raw_pointer" (`*p`), "use_of_mutable_static" (`TILE[i]`), or
    "call_unsafe_fn" (`callee`: `store`, `<*mut f32>::add`,
    `DisjointSlice::get_unchecked_mut`, `DeviceAtomicU32::from_ptr`; for a mutable static,
    "global" when it is a module-level device global). `scope` indexes
    `Body.source_scopes`. Only unsafeck reads it, and removes it before the passes run."""

    kind: str
    callee: str | None
    scope: int
    span: Span


Statement = Assign | Effect | AtomicOp | Nop | StorageLive | StorageDead | UnsafeUse


@dataclass(slots=True)
class Goto:
    target: int
    span: Span


@dataclass(slots=True)
class SwitchInt:
    """Jump to targets[i] when discr == values[i], else to otherwise. Bool discr: value 0 = false."""

    discr: Operand
    values: tuple[int, ...]
    targets: tuple[int, ...]
    otherwise: int
    span: Span


@dataclass(slots=True)
class Return:
    span: Span


@dataclass(slots=True)
class Call:
    func: str  # the Body name of a #[device] function
    args: tuple[Operand, ...]
    destination: Place
    target: int
    span: Span


@dataclass(slots=True)
class Assert:
    """Continue to target when cond == expected, else trap with message (bounds checks)."""

    cond: Operand
    expected: bool
    message: str
    target: int
    span: Span


@dataclass(slots=True)
class Unreachable:
    """Execution never reaches here (after `debug::trap()`, or a trap): emitted as `trap`."""

    span: Span


Terminator = Goto | SwitchInt | Return | Call | Assert | Unreachable


SAFETIES = ("safe", "unsafe_fn", "unsafe_block")


@dataclass(slots=True)
class SourceScope:
    """A lexical scope of the source that matters to a check (rustc's SourceScopeData):
    scope 0 is the function's body, an `unsafe { }` block opens another."""

    parent: int | None
    span: Span
    safety: str  # one of SAFETIES: "unsafe_fn" for the body of an `unsafe fn`


@dataclass(slots=True)
class BasicBlock:
    statements: list[Statement]
    terminator: Terminator


@dataclass(slots=True)
class LocalDecl:
    ty: Ty
    name: str | None  # user variable name; None for temporaries
    mutable: bool
    span: Span


# ---------------------------------------------------------------------------
# Launch information: a kernel's `#[launch_bounds]` and `#[launch_contract]`, which the
# emitter (.maxntid/.minnctapersm/.reqntid), the passes (ranges of thread indices, slice
# lengths), the checks (block shape) and the host (checked before every launch) all read.
# Contract expressions are over the kernel's parameters as the host sees them at launch.

@value
class ContractParam:
    """The value of scalar parameter `local` (`n`)."""

    local: int
    name: str


@value
class ContractLen:
    """The element count of slice parameter `local` (`a.len()`)."""

    local: int
    name: str


@value
class ContractConst:
    """A literal (name None) or the value of the `const` item `name`."""

    value: int | float | bool
    name: str | None = None


@value
class ContractBinary:
    op: str  # one of BINARY_OPS, or "and" / "or" (short-circuit `&&` / `||`)
    lhs: "ContractExpr"
    rhs: "ContractExpr"


@value
class ContractUnary:
    op: str  # "neg" | "not" (`!`, logical)
    operand: "ContractExpr"


@value
class ContractCast:
    operand: "ContractExpr"
    ty: Ty


ContractExpr = (ContractParam | ContractLen | ContractConst | ContractBinary | ContractUnary
                | ContractCast)


@value
class ContractClause:
    text: str  # the expression as written, for the host's messages
    expr: ContractExpr


@value
class LaunchContract:
    """`#[launch_contract(block = (X, Y, Z), domain = EXPR, requires = (EXPR, ...))]`."""

    block: tuple[int, int, int] | None  # the exact block shape
    domain: ContractClause | None  # the launch starts at least this many threads
    requires: tuple[ContractClause, ...]  # relations that hold at launch
    # `dynamic_shared = B` / `dynamic_shared_range = (MIN, MAX)`: the launch's dynamic shared
    # memory bytes; `dynamic_shared_alignment = A`: the alignment of that region
    dynamic_shared: tuple[int, int] | None = None
    dynamic_shared_alignment: int | None = None
    min_compute_capability: tuple[int, int] | None = None


@value
class LaunchInfo:
    bounds: tuple[int, ...] | None = None  # `#[launch_bounds(MAX_THREADS[, MIN_BLOCKS])]`
    contract: LaunchContract | None = None
    cluster: tuple[int, int, int] | None = None  # `#[cluster_launch(X, Y, Z)]` (sm_90)
    cooperative: bool = False  # `#[cooperative_launch]`: launched so `grid::sync()` works

    @property
    def block(self) -> tuple[int, int, int] | None:
        """The exact block shape (`.reqntid`), when a contract fixes it."""
        return self.contract.block if self.contract is not None else None


@dataclass
class Body:
    name: str
    kind: str  # "kernel" | "device"
    arg_count: int
    locals: list[LocalDecl]  # [0] is the return place
    blocks: list[BasicBlock]  # [0] is the entry
    span: Span
    launch: LaunchInfo | None = None  # kernels with launch attributes
    unchecked_indexing: bool = False  # `#[kernel(unchecked_indexing)]`: no bounds checks
    # lint name -> "allow" | "warn" | "deny", from `#[allow(..)]`/`#[warn(..)]`/`#[deny(..)]`/
    # `#[forbid(..)]` on the function or an enclosing module (only lints named there)
    lint_levels: dict[str, str] = field(default_factory=dict)
    source_scopes: list[SourceScope] = field(default_factory=list)  # [0]: the body's own
    inline: str | None = None  # `#[inline(never)]` / `#[inline(always)]`: "never" / "always"

    @property
    def return_ty(self) -> Ty:
        return self.locals[0].ty

    def args(self) -> range:
        return range(1, self.arg_count + 1)


@dataclass
class StaticDecl:
    name: str  # unique in the program (kernel-local statics are mangled: "kernel$TILE")
    ty: Ty  # SharedArrayTy for shared memory
    space: str  # "shared" | "global" (a module-level `static`)
    span: Span
    init: bytes | None = None  # a global's initial value, C layout (None: zeroed)
    mutable: bool = True  # `static mut` (a plain `static` is read-only)


@dataclass
class Program:
    bodies: list[Body]
    statics: list[StaticDecl] = field(default_factory=list)
    source_name: str = ""
    strings: list[str] = field(default_factory=list)  # C format strings of `printf` effects
