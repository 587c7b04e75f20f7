"""32-bit index arithmetic behind one uniform test: `index32(body)`.

A kernel's indices are usize, so `y * cols + x` is 64-bit arithmetic (two or three
instructions per operation on the GPU, and 64-bit compares), where the CUDA twin's `int`
costs one. The values fit 32 bits whenever the slices and the usize parameters do, which
the kernel cannot know; so the body is versioned: a new entry block tests, once, that every
slice parameter's length and every usize parameter is at most LIMIT (2^31 - 4097), and,
when the kernel reads blockIdx.x, that the grid has at most 2^31 threads along x (a uniform
branch: every thread reads the same parameters), and runs either the body as it was or a
copy of it in which index arithmetic is 32-bit:

    bb0: { _20 = Len(_1); _21 = Le(copy _20, const 2147479551_usize); ...
           _24 = @nctaid.x(); ... _28 = Mul(copy _25, copy _27); _29 = Le(copy _28, ..);
           switchInt(copy _31) -> [0: <the original body>, otherwise: <the copy>]; }

In the copy, every 64-bit integer local x gets a 32-bit shadow holding x's low 32 bits,
updated after each write of x: `x_lo = Add(a_lo, b_lo)` for `x = Add(a, b)` (also Sub,
Mul, the bitwise ops, Shl by a constant, Neg, Not, select, copies, and widening casts from
32 bits or fewer); after any other write, `x_lo = x as u32`. Modulo 2^32 this is exact
whatever the 64-bit values are (the low bits of a sum or product depend only on the low
bits of the operands), so shadows need no range reasoning. They pay off where a 64-bit
value is consumed:

- an element of a slice parameter, `(*_1)[_i]`: its index is below the slice's length
  whenever the element's address is used (the bounds check, or the proof that removed it,
  comes first: that is the program's memory safety), and in the copy the length is below
  2^31, so `i == i_lo as usize`: the place becomes `(*_1)[_z]` with `_z = i_lo as usize`,
  one widening per address (a `mul.wide.u32` in ptxas' hands). Where i is `y + k` for a
  constant |k| <= 4096 (a stencil's `(r - 1) * cols + (c + 1)`), y = i - k lies in i32's
  range, and the element is `*(&(*_1)[y as i32 as usize] + k)`: the taps of one row share
  an address and differ in the load's immediate offset, as nvcc's do;
- a comparison whose operands' ranges (index_ranges.py: thread and block indices, the
  tested parameters, the grid, loop counters (counters32.py), constants, and the facts of
  dominating branches and asserts such as `c < cols`) both lie in [0, 2^32) or both in [-2^31, 2^31), where the 32-bit comparison
  of the low halves gives the same answer (`c - 1 < cols` with c in [0, 2^31 - 2] is [-1,
  2^31 - 3] against [0, 2^31 - 1]: -1 is 2^64 - 1 unsigned in 64 bits and 2^32 - 1 in
  32, above both ranges' other values either way).

The 64-bit computations that nothing reads any more are then dropped (narrow32.py's sweep,
then dead_code). The
simulator runs this MIR too, so it takes the same version as the GPU. A body where nothing
narrows is left as it was (the copy is dropped). Linear in the body's size: one copy, one
walk of the copy's dominator tree; bodies over MAX_STATEMENTS are left alone.
"""
from __future__ import annotations

from operator import attrgetter

from ..mir.cfg import has_cycle, map_targets
from ..mir.syntax import (
    Assign, BasicBlock, BinaryOp, Body, Cast, Constant, Copy, Index,
    Intrinsic, Len, LocalDecl, Place, SwitchInt, Use,
)
from ..mir.visit import rewrite_statement, rewrite_terminator, write_bases
from ..types import BOOL, U32, USIZE, ArrayTy, DisjointSliceTy, RefTy, SliceTy
from .narrow32 import GRID_THREADS, LIMIT, Narrow


def _is_slice(ty) -> bool:
    return isinstance(ty, DisjointSliceTy) or (
        isinstance(ty, RefTy) and isinstance(ty.inner, SliceTy))


# a body of more statements keeps one version: the copy doubles what the emitter and ptxas
# see (the largest benchmark kernel, softmax, has about 450)
MAX_STATEMENTS = 1000

# A loop-free kernel keeps one version unless its copy narrows at least this many sites
# (element addresses and comparisons): there the copy saves a few instructions once per
# thread, and the entry test costs about as many, all of them before the first load. On
# the H200 (2026-12-03, the same inputs, alternating, median of 30 launches) the 64-bit
# version alone ran vecadd and saxpy (5 sites each) in 0.247 ms against the two versions'
# 0.270, and scan's block_scan (4 sites) in 0.285 against 0.305; the loop-free kernels the
# copy speeds up narrow far more (transpose 32, stencil 34, conv3x3 40 sites).
MIN_SITES_LOOP_FREE = 8


def index32(body: Body) -> bool:
    if body.kind != "kernel" or not body.blocks \
            or sum(len(bb.statements) for bb in body.blocks) > MAX_STATEMENTS:
        return False
    written = write_bases(body)
    slices = [a for a in body.args() if _is_slice(body.locals[a].ty) and a not in written]
    scalars = [a for a in body.args() if body.locals[a].ty == USIZE and a not in written]
    if not slices:
        return False
    n = len(body.blocks)
    needed = 1 if has_cycle(body) else MIN_SITES_LOOP_FREE
    saved_blocks, saved_locals = list(body.blocks), len(body.locals)
    grid = _reads_ctaid_x(body)
    _version(body, slices, scalars, grid)
    narrowed = Narrow(body, n, set(slices), set(scalars), saved_locals, grid).run(needed)
    if narrowed < needed:  # nothing narrowed, or too little to pay for the test
        body.blocks = saved_blocks
        del body.locals[saved_locals:]
        for bb in body.blocks:
            map_targets(bb.terminator, lambda t: 0 if t == 2 * n else t)
        return False
    return True



def _reads_ctaid_x(body: Body) -> bool:
    return any(isinstance(s, Assign) and isinstance(s.rvalue, Intrinsic)
               and s.rvalue.name == "ctaid.x" for bb in body.blocks for s in bb.statements)


_FIELDS: dict[type, object] = {}  # MIR class -> the getter of its fields, as a tuple


def _clone(obj):
    """A shallow copy of a statement, terminator or local (slotted dataclasses whose fields are
    their positional arguments): copy.copy goes through __reduce_ex__ and copyreg, several
    times slower, and the copy of a body clones every statement."""
    cls = obj.__class__
    get = _FIELDS.get(cls)
    if get is None:
        get = _FIELDS[cls] = attrgetter(*cls.__slots__)
        if len(cls.__slots__) == 1:  # attrgetter of one name gives the value, not a tuple
            one = get
            get = _FIELDS[cls] = lambda o: (one(o),)
    return cls(*get(obj))


def _version(body: Body, slices: list[int], scalars: list[int], grid: bool) -> None:
    """blocks n..2n-1: the copy (with fresh locals), 2n: the old entry, 0: the test."""
    n = len(body.blocks)
    fresh = {}
    for i in range(body.arg_count + 1, len(body.locals)):
        if isinstance(body.locals[i].ty, ArrayTy):
            continue  # one array for both versions, which never run together: local memory
        fresh[i] = len(body.locals)
        body.locals.append(_clone(body.locals[i]))

    def local(i: int) -> int:
        return fresh.get(i, i)

    plain: dict[int, Place] = {}  # local -> the copy's place of it, without projection

    def place_fn(place: Place, is_def: bool) -> Place:
        if not place.projection:  # the common case, one place per local
            got = plain.get(place.local)
            if got is None:
                got = plain[place.local] = Place(local(place.local))
            return got
        proj = tuple([Index(local(p.local)) if type(p) is Index else p
                      for p in place.projection])
        return Place(local(place.local), proj)

    for i in range(n):
        old = body.blocks[i]
        stmts = []
        for s in old.statements:
            s = _clone(s)
            rewrite_statement(s, place_fn=place_fn)
            stmts.append(s)
        term = _clone(old.terminator)
        rewrite_terminator(term, place_fn=place_fn)
        map_targets(term, lambda t: t + n)
        body.blocks.append(BasicBlock(stmts, term))
    body.blocks.append(body.blocks[0])  # the original entry moves to 2n
    for i in list(range(1, n)) + [2 * n]:
        map_targets(body.blocks[i].terminator, lambda t: 2 * n if t == 0 else t)
    span = body.span
    stmts, conds = [], []

    def new(ty) -> int:
        body.locals.append(LocalDecl(ty, None, True, span))
        return len(body.locals) - 1

    for a in slices + scalars:
        v = Place(new(USIZE))
        stmts.append(Assign(v, Len(Place(a)) if a in slices else Use(Copy(Place(a))), span))
        c = Place(new(BOOL))
        stmts.append(Assign(c, BinaryOp("le", Copy(v), Constant(LIMIT, USIZE)), span))
        conds.append(c)
    if grid:  # the grid's threads along x: nctaid.x * ntid.x <= 2^31 (GRID_THREADS)
        block = body.launch.block if body.launch is not None else None
        parts = []
        for name in ("nctaid.x", "ntid.x"):
            if name == "ntid.x" and block:  # `.reqntid`: a constant (launch_dims.py)
                parts.append(Constant(int(block[0]), USIZE))
                continue
            r = Place(new(U32))
            stmts.append(Assign(r, Intrinsic(name, ()), span))
            w = Place(new(USIZE))
            stmts.append(Assign(w, Cast(Copy(r), USIZE), span))
            parts.append(Copy(w))
        p = Place(new(USIZE))
        stmts.append(Assign(p, BinaryOp("mul", parts[0], parts[1]), span))
        c = Place(new(BOOL))
        stmts.append(Assign(c, BinaryOp("le", Copy(p), Constant(GRID_THREADS, USIZE)), span))
        conds.append(c)
    acc = conds[0]
    for c in conds[1:]:
        d = Place(new(BOOL))
        stmts.append(Assign(d, BinaryOp("bitand", Copy(acc), Copy(c)), span))
        acc = d
    body.blocks[0] = BasicBlock(stmts, SwitchInt(Copy(acc), (0,), (2 * n,), n, span))


