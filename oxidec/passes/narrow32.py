"""The 32-bit version's rewriting for index32.py: shadows, narrowed element indices and
comparisons, and the sweep of what the 64-bit arithmetic no longer feeds (see index32.py's
docstring for the rules and why they hold)."""
from __future__ import annotations

from ..device_api.ops import SIDE_EFFECTS
from ..mir.cfg import Dominators, predecessor_counts, predecessors
from ..mir.syntax import (
    Assert, Assign, AtomicOp, BinaryOp, Body, Call, Cast, COMPARISONS, Constant, Copy, Deref,
    Effect, Index, Intrinsic, Len, LocalDecl, Move, Nop, Operand, Place, Ref, StorageDead,
    StorageLive, SwitchInt, UnaryOp, UnsafeUse, Use,
)
from ..mir.visit import rewrite_statement, rewrite_terminator, statement_reads, terminator_reads
from ..mir.typeof import place_ty
from ..types import BOOL, I32, U32, USIZE, DisjointSliceTy, IntTy, RefTy
from . import index_ranges as R
from .counters32 import Counters

KMAX = 1 << 12  # the largest constant offset an element's address takes as an immediate
LIMIT = (1 << 31) - 1 - KMAX  # lengths and usize parameters at most this in the 32-bit version
GRID_THREADS = 1 << 31  # and the grid's threads along x at most this (when it reads ctaid.x)
RING = ("add", "sub", "mul", "bitand", "bitor", "bitxor")
FLIP = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"}


def wide(ty) -> bool:
    return isinstance(ty, IntTy) and ty.bits == 64 and type(ty) is IntTy


class Narrow(Counters):
    """Shadows, narrowed indices and comparisons in the copy (blocks n..2n-1)."""

    def __init__(self, body: Body, n: int, slices: set[int], scalars: set[int],
                 first_new: int, grid: bool) -> None:
        self.body, self.n, self.first_new, self.grid = body, n, first_new, grid
        self.slices, self.scalars = slices, scalars
        self.block = body.launch.block if body.launch is not None else None
        self.defs: dict[int, list] = {}  # local -> its Assign statements in the copy
        self.other_defs: set[int] = set()  # locals also written otherwise (calls, atomics)
        for bb in body.blocks[n:2 * n]:
            for s in bb.statements:
                if isinstance(s, Assign):
                    if s.place.projection:
                        self.other_defs.add(s.place.local)
                    else:
                        self.defs.setdefault(s.place.local, []).append(s)
                elif isinstance(s, AtomicOp) and s.dest is not None:
                    self.other_defs.add(s.dest.local)
            if isinstance(bb.terminator, Call):
                self.other_defs.add(bb.terminator.destination.local)
        self.shadow: dict[int, int] = {}  # 64-bit local -> its u32 shadow
        for x, ds in self.defs.items():
            if x not in self.other_defs and wide(body.locals[x].ty):
                self.shadow[x] = self._new(U32)
        self.param_lo: dict[int, int] = {}
        self.ranges: dict[int, R.Range] = {}  # single-def locals and parameters
        self.refined: dict[int, R.Range] = {}
        self.changed = 0  # the sites narrowed: element addresses and comparisons
        self.preds = predecessors(body)
        self.ivs = {x: iv for x in self.defs if (iv := self._counter(x)) is not None}
        self.inits: dict[int, list] = {}  # counter -> its initial values' ranges, as visited


    # -- helpers ---------------------------------------------------------------------
    def _new(self, ty) -> int:
        self.body.locals.append(LocalDecl(ty, None, True, self.body.span))
        return len(self.body.locals) - 1

    def _single(self, x: int) -> Assign | None:
        ds = self.defs.get(x)
        if ds is not None and len(ds) == 1 and x not in self.other_defs:
            return ds[0]
        return None

    def root(self, x: int) -> int:
        """The local whose value `x` copies (through single-def copies)."""
        for _ in range(64):
            d = self._single(x)
            if d is None or not isinstance(d.rvalue, Use) \
                    or not isinstance(d.rvalue.operand, (Copy, Move)) \
                    or d.rvalue.operand.place.projection:
                return x
            x = d.rvalue.operand.place.local
        return x

    def rng(self, op: Operand) -> R.Range | None:
        if isinstance(op, Constant):
            return (op.value, op.value) if isinstance(op.value, int) \
                and not isinstance(op.value, bool) else None
        if op.place.projection:
            return None
        x = op.place.local
        r = self.ranges.get(x)
        if r is None and x in self.ivs:
            r = self._counter_range(x)
        ty = self.body.locals[x].ty
        for key in {x, self.root(x)}:
            if key in self.refined and isinstance(ty, IntTy):
                r = R.meet(r, self.refined[key], ty.bits)
        return r

    def lo(self, op: Operand, pre: list) -> Operand:
        """An operand holding the low 32 bits of 64-bit `op`."""
        if isinstance(op, Constant):
            return Constant(op.value & 0xFFFFFFFF, U32)
        x = op.place.local
        if not op.place.projection and x in self.shadow:
            return Copy(Place(self.shadow[x]))
        if not op.place.projection and x in self.scalars:
            if x not in self.param_lo:
                self.param_lo[x] = self._new(U32)
            return Copy(Place(self.param_lo[x]))
        t = self._new(U32)
        pre.append(Assign(Place(t), Cast(Copy(op.place), U32), self.body.span))
        return Copy(Place(t))

    # -- the walk --------------------------------------------------------------------
    def run(self, needed: int = 1) -> int:
        """Narrow the copy; the number of sites narrowed (element addresses, comparisons).
        Below `needed` the caller drops the copy: then it is left unfinished (no parameter
        shadows, no sweep)."""
        body, n = self.body, self.n
        doms = Dominators(body)
        children: dict[int, list[int]] = {}
        for b in range(n, 2 * n):
            p = doms.idom[b]
            if p is not None and b != n:
                children.setdefault(p, []).append(b)
        preds = predecessor_counts(body)
        for p in self.scalars:
            self.ranges[p] = (0, LIMIT)
        stack = [(n, None)]
        while stack:
            b, undo = stack.pop()
            if undo is not None:  # leaving b's subtree: drop the facts its edge added
                for k, old in undo:
                    if old is None:
                        self.refined.pop(k, None)
                    else:
                        self.refined[k] = old
                continue
            self._block(b)
            for c in children.get(b, ()):
                added = self._edge_facts(b, c, preds) if preds[c] == 1 else []
                stack.append((c, added))
                stack.append((c, None))
        if self.changed < max(needed, 1):
            return self.changed
        entry = body.blocks[n]
        span = body.span
        entry.statements[:0] = [Assign(Place(lo), Cast(Copy(Place(p)), U32), span)
                                for p, lo in self.param_lo.items()]
        self._sweep()
        return self.changed

    def _pure_def(self, st) -> bool:
        return isinstance(st, Assign) and not st.place.projection \
            and st.place.local >= self.first_new \
            and not (isinstance(st.rvalue, Intrinsic) and st.rvalue.name in SIDE_EFFECTS)

    def _sweep(self) -> None:
        """Drop the copy's writes whose values nothing needs, counting a loop counter read
        only by its own update (the 64-bit `j += 256` once its test reads the shadow) as
        unneeded, which dead_code, counting reads, keeps."""
        blocks = self.body.blocks[self.n:2 * self.n]
        deps: dict[int, list[int]] = {}
        live: set[int] = set()
        work: list[int] = []

        def mark(x: int) -> None:
            if x not in live:
                live.add(x)
                work.append(x)

        for bb in blocks:
            for st in bb.statements:
                if self._pure_def(st):
                    deps.setdefault(st.place.local, []).extend(statement_reads(st))
                else:
                    for r in statement_reads(st):
                        mark(r)
                    if isinstance(st, Assign):
                        mark(st.place.local)
            for r in terminator_reads(bb.terminator):
                mark(r)
            if isinstance(bb.terminator, Call):
                mark(bb.terminator.destination.local)
        while work:
            for r in deps.get(work.pop(), ()):
                mark(r)
        for bb in blocks:
            bb.statements = [st for st in bb.statements
                             if not self._pure_def(st) or st.place.local in live]

    def _edge_facts(self, b: int, c: int, preds) -> list:
        """Facts on the edge b -> c (c's only predecessor), added to `refined`; returns
        the undo list."""
        term = self.body.blocks[b].terminator
        cond = None
        if isinstance(term, SwitchInt) and term.values == (0,) and term.otherwise == c \
                and term.targets[0] != c:
            cond = term.discr
        elif isinstance(term, Assert) and term.expected and term.target == c:
            cond = term.cond
        undo: list = []
        if isinstance(cond, (Copy, Move)) and not cond.place.projection:
            self._assume(cond.place.local, undo, 0)
        return undo

    def _assume(self, c: int, undo: list, depth: int) -> None:
        d = self._single(c)
        if d is None or not isinstance(d.rvalue, BinaryOp) or depth > 8:
            return
        rv = d.rvalue
        if rv.op == "bitand":
            for o in (rv.lhs, rv.rhs):
                if isinstance(o, (Copy, Move)) and not o.place.projection:
                    self._assume(o.place.local, undo, depth + 1)
            return
        op, x, y = rv.op, rv.lhs, rv.rhs
        if op in ("gt", "ge"):
            op, x, y = FLIP[op], y, x
        if op not in ("lt", "le") or not isinstance(x, (Copy, Move)) or x.place.projection:
            return
        ty = self.body.locals[x.place.local].ty
        if not isinstance(ty, IntTy) or ty.signed:
            return
        fact = R.below(self.rng(y), ty.bits, op == "lt")
        if fact is None:
            return
        for key in {x.place.local, self.root(x.place.local)}:
            if self._single(key) is None and key not in self.scalars:
                continue  # a fact about a register written again later holds only until then
            undo.append((key, self.refined.get(key)))
            self.refined[key] = R.meet(self.refined.get(key), fact, ty.bits)

    def _block(self, b: int) -> None:
        bb = self.body.blocks[b]
        out: list = []
        cache: dict = {}  # (slice, index local) -> the element's new place, in this block
        for s in bb.statements:
            pre: list = []
            self._narrow_places(s, pre, cache)
            post: list = []
            written = None
            if isinstance(s, Assign) and not s.place.projection:
                self._assign(s, pre, post)
                written = s.place.local
            elif isinstance(s, AtomicOp) and s.dest is not None:
                written = s.dest.local
            for key in [k for k in cache if k[1] == written]:
                del cache[key]  # (slice, index) -> element: the index has a new value
            out.extend(pre)
            out.append(s)
            out.extend(post)
        pre = []
        self._narrow_places(bb.terminator, pre, cache)
        out.extend(pre)
        bb.statements = out

    def _narrow_places(self, s, pre: list, cache: dict) -> None:
        def place_fn(place: Place, is_def: bool) -> Place:
            proj = place.projection
            if len(proj) < 2 or not isinstance(proj[0], Deref) \
                    or not isinstance(proj[1], Index) \
                    or self.root(place.local) not in self.slices:
                return place
            i = proj[1].local
            if i not in self.shadow and i not in self.scalars:
                return place
            d = self._single(i)
            if d is not None and isinstance(d.rvalue, Cast) \
                    and getattr(self._op_ty(d.rvalue.operand), "bits", 64) <= 32:
                return place  # already a widened 32-bit value
            key = (place.local, i)
            prefix = cache.get(key)
            if prefix is None:
                prefix = self._element(place.local, i, pre)
                cache[key] = prefix
            self.changed += 1
            return prefix.project(*proj[2:])

        if isinstance(s, (Assign, AtomicOp, Effect)):
            rewrite_statement(s, place_fn=place_fn)
        elif not isinstance(s, (Nop, StorageLive, StorageDead, UnsafeUse)):
            rewrite_terminator(s, place_fn=place_fn)

    def _element(self, s: int, i: int, pre: list) -> Place:
        """`(*s)[i]` rewritten: `(*s)[z]` with z the zero-extended shadow of i, or, where i
        is `y + k` for a small constant k, `(*q)` with q = `&(*s)[y'] + k`, y' the shadow
        of y sign-extended: rows of a stencil then share one address and differ in the
        load's immediate offset (y = i - k lies in [-KMAX, LIMIT + KMAX], in i32's range).
        """
        span = self.body.span
        form = self._offset_form(i)
        if form is None:
            z = self._new(USIZE)
            pre.append(Assign(Place(z), Cast(self.lo(Copy(Place(i)), pre), USIZE), span))
            return Place(s, (Deref(), Index(z)))
        parts, k = form
        y = self._new(U32)
        los = [self.lo(p, pre) for p in parts]
        pre.append(Assign(Place(y), BinaryOp("add", *los) if len(los) == 2 else Use(los[0]),
                          span))
        yi, z = self._new(I32), self._new(USIZE)
        pre.append(Assign(Place(yi), Cast(Copy(Place(y)), I32), span))
        pre.append(Assign(Place(z), Cast(Copy(Place(yi)), USIZE), span))
        if k == 0:
            return Place(s, (Deref(), Index(z)))
        base = self.body.locals[s].ty
        mutable = isinstance(base, DisjointSliceTy) or getattr(base, "mutable", False)
        elem = place_ty(self.body, Place(s, (Deref(), Index(z))))
        p, q = self._new(RefTy(elem, mutable)), self._new(RefTy(elem, mutable))
        pre.append(Assign(Place(p), Ref(Place(s, (Deref(), Index(z))), mutable), span))
        pre.append(Assign(Place(q), Intrinsic("ptr_add", (Copy(Place(p)), Constant(
            k % (1 << 64), USIZE))), span))
        return Place(q, (Deref(),))

    def _offset_form(self, i: int):
        """([a] or [a, b], k) with i == a (+ b) + k, k a constant of at most KMAX (nonzero
        for one part),
        a and b values that cannot change (written once, or parameters); else None."""
        d = self._single(i)
        if d is None:
            return None
        rv = d.rvalue
        if isinstance(rv, BinaryOp) and rv.op == "add" and not isinstance(rv.lhs, Constant) \
                and not isinstance(rv.rhs, Constant):
            (a, ka), (b, kb) = self._split(rv.lhs), self._split(rv.rhs)
            parts, k = [a, b], ka + kb
        else:
            a, k = self._split(Copy(Place(i)))
            parts = [a]
        if (k == 0 and len(parts) == 1) or abs(k) > KMAX:
            return None  # (k == 0 with two parts: the row's base, shared with its taps)
        for op in parts:
            if isinstance(op, Constant) or op.place.projection or not wide(self._op_ty(op)):
                return None
            if self._single(op.place.local) is None and op.place.local not in self.scalars:
                return None
        return parts, k

    def _split(self, op: Operand) -> tuple[Operand, int]:
        """(a, k) with op == a + k: through copies and additions of constants."""
        k = 0
        for _ in range(16):
            if isinstance(op, Constant) or op.place.projection:
                break
            d = self._single(op.place.local)
            if d is None:
                break
            rv = d.rvalue
            if isinstance(rv, Use) and wide(self._op_ty(rv.operand)):
                op = rv.operand
                continue
            if isinstance(rv, BinaryOp) and rv.op in ("add", "sub") \
                    and isinstance(rv.rhs, Constant) and wide(self._op_ty(rv.lhs)):
                c = rv.rhs.value - ((1 << 64) if rv.rhs.value >= 1 << 63 else 0)
                k += c if rv.op == "add" else -c
                op = rv.lhs
                continue
            break
        return op, k

    def _assign(self, s: Assign, pre: list, post: list) -> None:
        x = s.place.local
        rv = s.rvalue
        ty = self.body.locals[x].ty
        if isinstance(rv, BinaryOp) and rv.op in COMPARISONS:
            self._compare(s, pre)
        if self._single(x) is s and isinstance(ty, IntTy):
            r = self._range(rv, ty)
            if r is not None:
                self.ranges[x] = r
        elif x in self.ivs and any(d is s for d in self.ivs[x][0]):
            self.inits.setdefault(x, []).append(R.unsigned_value(self._range(rv, ty), 64))
        if x in self.shadow:
            post.append(Assign(Place(self.shadow[x]), self._shadow_rv(x, rv, post),
                               s.span))

    def _compare(self, s: Assign, pre: list) -> None:
        rv = s.rvalue
        tys = [self._op_ty(o) for o in (rv.lhs, rv.rhs)]
        if rv.op == "lt" and isinstance(rv.rhs, Constant) and isinstance(rv.rhs.value, float):
            if self._small_product(rv.lhs, rv.rhs.value):
                s.rvalue = Use(Constant(True, BOOL))
                self.changed += 1
            return
        if not all(isinstance(t, IntTy) and type(t) is IntTy for t in tys):
            return
        ra, rb = self.rng(rv.lhs), self.rng(rv.rhs)
        known = R.decide(rv.op, R.value_of(ra, tys[0]), R.value_of(rb, tys[1])) \
            if tys[0] == tys[1] else None
        if known is not None:  # (the contract checks' `n >= 0` of a tested length)
            s.rvalue = Use(Constant(known, BOOL))
            self.changed += 1
            return
        if not all(wide(t) for t in tys) or ra is None or rb is None:
            return
        unsigned32 = R.unsigned_value(ra, 32) and R.unsigned_value(rb, 32)
        signed32 = R.signed_value(ra, 32) and R.signed_value(rb, 32)
        if not unsigned32 and not signed32:
            return
        a, b = self.lo(rv.lhs, pre), self.lo(rv.rhs, pre)
        if not unsigned32 and tys[0].signed:  # a signed comparison of signed values
            a, b = self._as_i32(a, pre), self._as_i32(b, pre)
        s.rvalue = BinaryOp(rv.op, a, b)
        self.changed += 1

    def _small_product(self, op: Operand, bound: float) -> bool:
        """`op` is `@abs((a as f64) * (b as f64))` with integers a, b whose ranges keep it
        below `bound`: a launch contract's test that `rows * cols` does not overflow, with
        rows and cols at most LIMIT in this version."""
        defs = []
        for _ in range(2):
            if isinstance(op, Constant) or op.place.projection:
                return False
            d = self._single(op.place.local)
            if d is None:
                return False
            defs.append(d.rvalue)
            op = d.rvalue.args[0] if isinstance(d.rvalue, Intrinsic) and d.rvalue.args \
                else None
            if op is None:
                break
        if len(defs) != 2 or not isinstance(defs[0], Intrinsic) or defs[0].name != "abs" \
                or not isinstance(defs[1], BinaryOp) or defs[1].op != "mul":
            return False
        ints = []
        for f in (defs[1].lhs, defs[1].rhs):
            if isinstance(f, Constant) or f.place.projection:
                return False
            d = self._single(f.place.local)
            if d is None or not isinstance(d.rvalue, Cast):
                return False
            src = self._op_ty(d.rvalue.operand)
            if not isinstance(src, IntTy):
                return False
            ints.append(R.value_of(self.rng(d.rvalue.operand), src))
        return R.product_below(ints[0], ints[1], bound)

    def _as_i32(self, op: Operand, pre: list) -> Operand:
        if isinstance(op, Constant):
            v = op.value
            return Constant(v - (1 << 32) if v >= 1 << 31 else v, I32)
        t = self._new(I32)
        pre.append(Assign(Place(t), Cast(op, I32), self.body.span))
        return Copy(Place(t))

    def _op_ty(self, op: Operand):
        if isinstance(op, Constant):
            return op.ty
        if op.place.projection:
            return None
        return self.body.locals[op.place.local].ty

    def _range(self, rv, ty: IntTy) -> R.Range | None:
        if isinstance(rv, Use):
            return self.rng(rv.operand)
        if isinstance(rv, Len) and not rv.place.projection \
                and self.root(rv.place.local) in self.slices:
            return (0, LIMIT)
        if isinstance(rv, BinaryOp) and rv.op not in COMPARISONS:
            if self._op_ty(rv.lhs) != ty:
                return None
            if rv.op == "mul" and self.grid \
                    and {self._sreg(rv.lhs), self._sreg(rv.rhs)} == {"ctaid.x", "ntid.x"}:
                return (0, GRID_THREADS - 1)
            return R.binary(rv.op, self.rng(rv.lhs), self.rng(rv.rhs), ty)
        if isinstance(rv, Cast):
            src = self._op_ty(rv.operand)
            if isinstance(src, IntTy) and isinstance(rv.ty, IntTy):
                return R.cast(self.rng(rv.operand), src, rv.ty)
            return None
        if isinstance(rv, Intrinsic):
            if not rv.args and rv.name == "ctaid.x" and self.grid:
                # ctaid.x * ntid.x <= (nctaid.x - 1) * ntid.x <= GRID_THREADS - ntid.x
                least = int(self.block[0]) if self.block else 1
                return (0, GRID_THREADS // least - 1)
            if not rv.args:
                return R.special_register(rv.name, self.block)
            if rv.name == "select" and len(rv.args) == 3:
                a, b = self.rng(rv.args[1]), self.rng(rv.args[2])
                if a is not None and b is not None:
                    return (min(a[0], b[0]), max(a[1], b[1]))
            if rv.name in ("min", "max") and len(rv.args) == 2:
                a = R.value_of(self.rng(rv.args[0]), ty)
                b = R.value_of(self.rng(rv.args[1]), ty)
                if a is not None and b is not None:
                    f = min if rv.name == "min" else max
                    return (f(a[0], b[0]), f(a[1], b[1]))
        return None

    def _sreg(self, op: Operand) -> str | None:
        """The special register `op` holds (through copies and widening casts)."""
        for _ in range(8):
            if isinstance(op, Constant) or op.place.projection:
                return None
            d = self._single(self.root(op.place.local))
            if d is None:
                return None
            rv = d.rvalue
            if isinstance(rv, Intrinsic) and not rv.args:
                return rv.name
            if not isinstance(rv, Cast):
                return None
            op = rv.operand
        return None

    def _shadow_rv(self, x: int, rv, post: list):
        """The rvalue of x's shadow after `x = rv` (statements it needs go to `post`)."""
        xty = self.body.locals[x].ty
        if isinstance(rv, Use) and wide(self._op_ty(rv.operand)):
            return Use(self.lo(rv.operand, post))
        if isinstance(rv, BinaryOp) and self._op_ty(rv.lhs) == xty:
            if rv.op in RING and self._op_ty(rv.rhs) == xty:
                return BinaryOp(rv.op, self.lo(rv.lhs, post), self.lo(rv.rhs, post))
            if rv.op == "shl" and isinstance(rv.rhs, Constant):
                k = rv.rhs.value & 63
                if k >= 32:
                    return Use(Constant(0, U32))
                return BinaryOp("shl", self.lo(rv.lhs, post), Constant(k, U32))
        if isinstance(rv, UnaryOp) and self._op_ty(rv.operand) == xty:
            return UnaryOp(rv.op, self.lo(rv.operand, post))
        if isinstance(rv, Cast):
            src = self._op_ty(rv.operand)
            if isinstance(src, IntTy) and src.bits <= 32 and type(src) is IntTy:
                return Cast(rv.operand, U32)
            if wide(src):
                return Use(self.lo(rv.operand, post))
        if isinstance(rv, Intrinsic) and rv.name == "select" and len(rv.args) == 3 \
                and all(self._op_ty(a) == xty for a in rv.args[1:]):
            return Intrinsic("select", (rv.args[0], self.lo(rv.args[1], post),
                                        self.lo(rv.args[2], post)))
        return Cast(Copy(Place(x)), U32)

