"""If-conversion at emission: a short forward branch around a memory load becomes predicated
instructions, so that ptxas can issue the load early, beside the loads before and after it.

ptxas keeps a branch around a global load as a branch (BSSY/BSYNC): a load inside an `if`
is issued only once everything before the `if` has executed, including the use of an
earlier load's value. In samples/stencil.rs the centre cell is loaded and stored to shared
memory, then each halo cell is loaded under `if tx == 0 { ... if r < rows ... }`: every
block waits for two global-memory latencies in a row. Predicated, the halo loads are
ordinary instructions with a guard and ptxas schedules them next to the first:

    bb0: { ...; switchInt(copy _7) -> [0: bb3, otherwise: bb1]; }    setp.eq.u64  %p7, %rd3, 0;
    bb1: { _8 = Lt(...); switchInt(copy _8) -> [0: bb2', ...: bb2]; } mov.pred     %p9, %p7;
    bb2: { _9 = copy (*_1)[_5]; goto -> bb4; }                  ->   @%p9 setp.lt.u64 %p8, ...;
    bb2': { _9 = const 0.0_f32; goto -> bb4; }                      and.pred %p10, %p9, %p8;
    bb4: { (*_2)[_6] = copy _9; goto -> bb3; }                      @%p10 ld.global.nc.f32 ...

A region is what lies between a two-way branch on a bool and the block where its sides
meet again: acyclic, entered only through the branch, at most MAX_BLOCKS blocks, ending in
gotos and bool switches (no asserts), with a load, and with another load outside it for
its latency to overlap with (a kernel that is one `if i < n { ... }` gains nothing). The emitter writes each of its blocks with the conjunction of the conditions
that lead to it as the guard of every instruction; a block where paths meet gets their
disjunction. Whether the region is worth it (it loads from memory, it is short) and
possible (nothing in it is a barrier, a warp-synchronous op, a call or a branch of its
own) is decided on the emitted instructions (`unguardable`); otherwise it is emitted as
branches, as before. The semantics is the branch's: an instruction whose guard is false
does nothing, so registers keep the values the skipped side would have left them.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..mir import syntax as mir
from ..mir.cfg import blocks_on_cycles, predecessors, successors
from ..types import BOOL

MAX_BLOCKS = 8  # blocks of a region
MAX_INSTRUCTIONS = 48  # guarded instructions of a region: beyond, a branch is cheaper

# instructions that must not be guarded (or are not worth it): their effect depends on
# which threads execute them together, or they leave the straight line
_UNGUARDABLE = ("bra", "bar.", "barrier", ".sync", "call", "ret", "exit", "trap", "brkpt",
                "vprintf", "mbarrier", "elect", "griddepcontrol")


@dataclass
class Region:
    head: int  # the block ending in the branch
    cond: mir.Operand  # its bool condition
    on_true: int
    on_false: int
    blocks: list[int]  # in topological order (the layout's)
    join: int  # where every path through the region continues


def bool_switch_targets(term) -> tuple[int, int] | None:
    """(true target, false target) of a switch on a bool, or None."""
    if not (isinstance(term, mir.SwitchInt) and term.values == (0,)):
        return None
    return term.otherwise, term.targets[0]


def plan_regions(body: mir.Body, order: list[int]) -> dict[int, Region]:
    """Candidate regions by head block (the emitter still checks their instructions): those
    with a load whose latency can overlap another load's, one outside the region."""
    rank = {b: i for i, b in enumerate(order)}
    preds = predecessors(body)
    loading = {b for b in order if any(_loads(s) for s in body.blocks[b].statements)}
    in_loops = blocks_on_cycles(body)
    regions = {}
    for head in order:
        if head in in_loops:
            continue  # ptxas if-converts short regions in loops itself (matmul_tiled's tile
            # loads): there, ours measured two instructions more per trip
        region = _region_at(body, head, rank, preds)
        if region is not None and loading - set(region.blocks) \
                and loading & set(region.blocks):
            regions[head] = region
    return regions


def _loads(node) -> bool:
    """Whether a statement (or part of one) reads memory through a pointer."""
    if isinstance(node, mir.Ref):
        return False  # an address, not a read
    if isinstance(node, mir.Place):
        return any(isinstance(p, mir.Deref) for p in node.projection)
    if isinstance(node, (list, tuple)):
        return any(_loads(x) for x in node)
    fields = getattr(node, "__dataclass_fields__", None)
    if not fields:
        return False
    skip = ("span", "place") if isinstance(node, mir.Assign) else ("span",)  # a store
    return any(_loads(getattr(node, f)) for f in fields if f not in skip)


def _region_at(body, head, rank, preds) -> Region | None:
    term = body.blocks[head].terminator
    targets = bool_switch_targets(term)
    if targets is None or targets[0] == targets[1]:
        return None
    if _operand_ty(body, term.discr) != BOOL:
        return None
    inside: list[int] = []
    pending = set(targets)
    while len(pending) > 1:
        b = min(pending, key=lambda x: rank.get(x, -1))
        if b not in rank or rank[b] <= rank[head] or len(inside) == MAX_BLOCKS:
            return None  # unreachable, a back edge, or too long
        if any(p != head and p not in inside for p in preds[b]):
            return None  # entered from elsewhere
        t = body.blocks[b].terminator
        if not isinstance(t, mir.Goto) and bool_switch_targets(t) is None:
            return None  # (an assert's trap would be one more guarded branch)
            return None
        if isinstance(t, mir.SwitchInt) and _operand_ty(body, t.discr) != BOOL:
            return None
        nexts = successors(t)
        if any(rank.get(s, -1) <= rank[b] for s in nexts):
            return None  # a loop
        inside.append(b)
        pending.discard(b)
        pending.update(nexts)
    if not inside:
        return None
    (join,) = pending
    return Region(head, term.discr, targets[0], targets[1], inside, join)


def _operand_ty(body, op):
    if isinstance(op, mir.Constant):
        return op.ty
    if op.place.projection:
        return None
    return body.locals[op.place.local].ty


def unguardable(line: str) -> bool:
    """An emitted line that a region may not contain."""
    text = line.strip()
    if not text or text.startswith("//") or text.startswith(".loc"):
        return False
    if text.startswith("{") or text.startswith("}") or text.startswith(".reg"):
        return False  # scopes of temporaries: fine unguarded
    if not line.startswith("\t"):
        return True  # a label
    op = text.split(None, 1)[0] if not text.startswith("@") else text.split(None, 2)[1]
    return any(word in op for word in _UNGUARDABLE)


def is_memory_load(line: str) -> bool:
    text = line.strip()
    if text.startswith("@"):
        text = text.split(None, 1)[1]
    op = text.split(None, 1)[0] if text else ""
    return op.startswith("ld.global")  # a long latency worth overlapping


# ---------------------------------------------------------------------------
# Speculation: a guarded instruction that computes a register nothing else writes, and has
# no effect but that register, runs unguarded. Its value is read only where the guard
# holds (MIR reads a local only after assigning it), and unguarded, ptxas schedules it as
# any other arithmetic; guarded, each such instruction needs the guard's predicate
# register live, and a region's many guards overflow the seven predicate registers.

_PURE = ("add", "sub", "mul", "mad", "fma", "div", "rem", "abs", "neg", "min", "max",
         "and", "or", "xor", "not", "cnot", "shl", "shr", "selp", "setp", "set", "mov", "cvt",
         "cvta", "copysign", "sqrt", "rcp", "testp", "popc", "clz", "brev", "bfe", "bfi",
         "prmt", "lop3", "mul24", "mad24", "sad")


def _op_and_dest(text: str) -> tuple[str, str | None]:
    """The opcode and the one destination register of an instruction (no guard)."""
    parts = text.split(None, 1)
    if len(parts) < 2:
        return parts[0] if parts else "", None
    dest = parts[1].split(",", 1)[0].strip()
    if not dest.startswith("%") or "|" in dest:
        return parts[0], None
    return parts[0], dest


def written_registers(lines: list[str]) -> dict[str, int]:
    """How many instructions write each register (one destination per instruction)."""
    counts: dict[str, int] = {}
    for line in lines:
        text = line.strip()
        if not text or text.startswith(("//", ".", "{", "}")) or not line.startswith("\t"):
            continue
        if text.startswith("@"):
            text = text.split(None, 1)[1]
        op, dest = _op_and_dest(text)
        if dest is not None and not op.startswith("st"):
            counts[dest] = counts.get(dest, 0) + 1
    return counts


def speculate(lines: list[str], guarded_at: list[int]) -> None:
    """Drop the guard of the pure, single-assignment instructions at `guarded_at`."""
    counts = written_registers(lines)
    for i in guarded_at:
        guard, text = lines[i].strip().split(None, 1)
        op, dest = _op_and_dest(text)
        if dest is None or counts.get(dest) != 1:
            continue
        if op.split(".", 1)[0] in _PURE:
            lines[i] = "\t" + text
