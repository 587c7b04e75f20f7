"""If-conversion at emission: short forward branches around memory loads become predicated
instructions, so that ptxas can issue the loads together instead of one after the other.

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

(transpose's copy back from its tile is the same with four shared-memory loads.)

A region is what lies between a two-way branch on a bool and the block where its sides
meet again (or where all of them return, in a kernel): acyclic, entered only through the
branch, at most MAX_BLOCKS blocks, ending in gotos and bool switches (no asserts), with a
load, outside loops, and one of a run of such regions (`plan_regions`). The emitter writes
each of its blocks with the conjunction of the conditions that lead to it as the guard of
every instruction; a block where paths meet gets their disjunction. Whether the region is worth it (it loads from memory, it is short) and
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
    with a load, outside loops, in a run of two or more such regions one after the other
    (one's join is the next one's head) with no barrier between them: their loads' latencies
    can then overlap. A lone region gains nothing (a kernel that is one `if i < n {...}`);
    nor do the steps of a tree reduction, a barrier apart."""
    rank = {b: i for i, b in enumerate(order)}
    rank[EXIT] = len(order)  # after every block
    preds = predecessors(body)
    loading: dict[int, bool] = {}  # block -> has a load; asked only of regions' blocks

    def loads_in(b: int) -> bool:
        if b not in loading:
            loading[b] = b != EXIT and any(_loads(s) for s in body.blocks[b].statements)
        return loading[b]

    in_loops = blocks_on_cycles(body)
    found = {}
    for head in order:
        if head in in_loops:
            continue  # ptxas if-converts short regions in loops itself (matmul_tiled's tile
            # loads): there, ours measured two instructions more per trip
        region = _region_at(body, head, rank, preds)
        if region is not None and any(b in rank and loads_in(b) for b in region.blocks):
            found[head] = region
    chained = set()
    for head, region in found.items():
        nxt = region.join  # (EXIT is no head)
        if nxt in found and not _has_barrier(body.blocks[nxt]):
            chained.update((head, nxt))
    return {head: r for head, r in found.items() if head in chained}


def _has_barrier(block) -> bool:
    """Any effect (barriers, fences, printf...): conservatively, the run ends there."""
    return any(isinstance(s, mir.Effect) for s in block.statements)


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


EXIT = -1  # the join of a kernel's region whose paths all return


def _region_at(body, head, rank, preds) -> Region | None:
    term = body.blocks[head].terminator
    targets = bool_switch_targets(term)
    if targets is None or targets[0] == targets[1]:
        return None
    if _operand_ty(body, term.discr) != BOOL:
        return None
    order_of = rank  # (EXIT ranks after every block)
    inside: list[int] = []
    pending = set(targets)
    while len(pending) > 1:
        if any(x not in order_of or order_of[x] <= rank[head] for x in pending) \
                or len(inside) == MAX_BLOCKS:
            return None  # unreachable, a back edge, or too long
        # the first block (in layout order) entered only from the head and the region;
        # one entered from a block still pending is where they meet (or another exit)
        ready = [x for x in sorted(pending, key=order_of.__getitem__)
                 if x != EXIT and all(p == head or p in inside for p in preds[x])]
        if not ready:
            return None  # entered from elsewhere
        b = ready[0]
        t = body.blocks[b].terminator
        if isinstance(t, mir.Return) and body.kind == "kernel":
            nexts = (EXIT,)  # a kernel's return has nothing to write
        elif isinstance(t, mir.Goto) or bool_switch_targets(t) is not None:
            if isinstance(t, mir.SwitchInt) and _operand_ty(body, t.discr) != BOOL:
                return None
            nexts = successors(t)
        else:
            return None  # (an assert's trap would be one more guarded branch)
        if any(order_of.get(s, -1) <= rank[b] for s in nexts):
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
    return op.startswith(("ld.global", "ld.shared"))  # latencies worth overlapping


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
    if not guarded_at:
        return  # (most bodies: no region was predicated)
    counts = written_registers(lines)
    for i in guarded_at:
        guard, text = lines[i].strip().split(None, 1)
        op, dest = _op_and_dest(text)
        if dest is None or counts.get(dest) != 1:
            continue
        if op.split(".", 1)[0] in _PURE:
            lines[i] = "\t" + text
