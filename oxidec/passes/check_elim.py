"""Checks proven by dominating conditions, value ranges and launch contracts:
`check_elim(body)`.

A forward dataflow over the CFG collects comparisons `x < y` known to hold at each
point: on the success edge of `assert(x < y)`, on the true edge of `switchInt(x < y)`
(also through the bool of a short-circuit `a && b`, which is `a < n` on one path and
`false` on the other), minus those whose operands are written again. Then an `assert`
whose condition is `x < y` (or `y > x`) becomes a `goto` when

- the same comparison is known at that point (a duplicate check, or the loop test
  `while i < x.len()` before `x[i]`), or
- value ranges prove it: special registers are bounded by the hardware limits and by the
  kernel's exact block shape (`reqntid`, from a launch contract: a launch with another
  block shape fails) or `launch_bounds`, any unsigned value by a known `x < constant`;
  ranges flow through casts and arithmetic that cannot wrap (`tx + 1 < 18` for `tx < 16`,
  `tid + 32 < 256` inside `if tid < 32`), or
- a launch contract `requires (s.len() == E)` (checked by the kernel itself at entry, which
  traps when it is false) and a range of x below E's smallest value (`w.len() == 9`
  proves `w[3 * i + j]` of an unrolled `i, j < 3`), or
- a launch contract `requires (s.len() == A * B)` (checked by the kernel itself at entry,
  which traps when it is false: lower/contract_entry.py; the host checks it too) and
  known `y < A`, `x < B` prove the row-major index `y * B + x < s.len()`:
  `y * B + x <= (A - 1) * B + B - 1 = A * B - 1`, and `A * B` equals a length, so nothing
  wraps.

A `switchInt` on such a proven comparison becomes a `goto` too.

    bb0: { _5 = @tid.x(); _6 = copy _5 as usize;            (reqntid(16, 16, 1))
           _7 = Add(copy _6, const 1_usize);
           _8 = Lt(copy _7, const 18_usize);
           assert(copy _8, "index out of bounds") -> [success: bb1]; }
becomes
    bb0: { ...; _8 = Lt(copy _7, const 18_usize); goto -> bb1; }

Values are compared by keys, a small value numbering carried in the same dataflow: a
constant, `Len` of a slice the body never writes, a special register, or an expression
over keys, as a local's last write computed it; a local with none of those is itself.
Only the keys a comparison can read are kept (check_locals.tracked_locals). Writing a
local forgets every fact, key and condition that mentions it.
"""
from __future__ import annotations

import heapq

from ..mir.syntax import (
    Assert, Assign, AtomicOp, BinaryOp, Body, Call, Cast, Constant, Copy, Deref, Goto,
    Intrinsic, Len, Move, SwitchInt, Use,
    ContractBinary, ContractConst, ContractLen, ContractParam, LaunchInfo,
)
from ..types import IntTy
from ..mir.cfg import predecessors, reverse_postorder, successors
from .check_facts import TOP, FactState, locals_of, meet, mentions
from .check_locals import block_local_bools, tracked_locals, widened_locals
from ..mir.typeof import operand_ty
from ..mir.visit import (
    address_taken, defs, forget_analyses, kept, never_written, read_counts,
)
from ..mir.contract_entry import entry_checked

COMMUTATIVE = ("add", "mul", "bitand", "bitor", "bitxor")
KEYED_OPS = frozenset(COMMUTATIVE + ("sub", "div", "rem", "shl", "shr"))  # a key of their own
MAX_KEY = 64  # nodes of an expression key; larger expressions are just their local
# (a row-major index `r * cols + c` whose r and c are sums of block and thread indices and
# offsets, as in a 3x3 convolution, needs about 30)
# hardware limits (sm_80/sm_90): threads per block 1024, block dims (1024, 1024, 64),
# grid dims (2^31 - 1, 65535, 65535)
GRID_MAX = {"x": (1 << 31) - 1, "y": 65535, "z": 65535}
BLOCK_MAX = {"x": 1024, "y": 1024, "z": 64}


def check_elim(body: Body) -> bool:
    return _Checker(body).run()


class _Checker:
    def __init__(self, body: Body) -> None:
        self.body = body
        writes, taken = kept(body, defs), kept(body, address_taken)
        self.fixed_args = never_written(body, writes, taken)
        self.block_limit = self._block_limit()
        self.contract = self._contract_lengths()
        self.keyed, self.tracked = tracked_locals(body, writes)
        # (a range is asked of keys, and keys name keyed locals only)
        self.widened = widened_locals(body, writes, taken, self.keyed)
        # block -> the bools it assigns that are dead where it ends: forgotten there
        self.dying = block_local_bools(body, kept(body, read_counts), taken)

    # -- keys ---------------------------------------------------------------------

    def key(self, op, vals) -> tuple | None:
        """The value of an operand here: a constant, a known expression (`vals`, the
        value numbers of the state), or the local itself."""
        t = type(op)
        if t is Copy or t is Move:
            place = op.place
            if place.projection:
                return None
            local = place.local
            value = vals.get(local)
            return ("l", local) if value is None else value
        if t is Constant:
            if isinstance(op.ty, IntTy):
                return ("k", op.value)
            return ("c", op.value, str(op.ty))
        return None

    def rvalue_key(self, rv, vals) -> tuple | None:
        t = type(rv)  # the MIR classes have no subclasses
        if t is Use:
            return self.key(rv.operand, vals)
        if t is Len:
            p = rv.place
            if p.projection in ((), (Deref(),)) and p.local in self.fixed_args:
                return ("len", p.local)
            return None
        if t is Cast:
            if not isinstance(rv.ty, IntTy):
                return None
            k = self.key(rv.operand, vals)
            return ("cast", k, rv.ty.bits, rv.ty.signed) if k and _size(k) < MAX_KEY else None
        if t is Intrinsic:
            if not rv.args and ("." in rv.name or rv.name in ("laneid", "warpid")):
                return ("sreg", rv.name)
            return None
        if t is BinaryOp and rv.op in KEYED_OPS:
            a, b = self.key(rv.lhs, vals), self.key(rv.rhs, vals)
            if a is None or b is None or _size(a) + _size(b) >= MAX_KEY:
                return None  # keys stay small: chains like `x = x * x` would grow them
            if rv.op in COMMUTATIVE and repr(b) < repr(a):
                a, b = b, a
            ty = operand_ty(self.body, rv.lhs)
            if isinstance(ty, IntTy) and ty.bits < 64:
                # arithmetic that wraps at a narrower width: a key of its own, whose range
                # must fit that width (`(!7u8).wrapping_mul(64)` is 0, not 15872)
                return ("binw", rv.op, a, b, ty.bits)
            return ("bin", rv.op, a, b)
        return None

    # -- ranges ---------------------------------------------------------------------

    def _block_limit(self) -> dict[str, int]:
        limit = dict(BLOCK_MAX)
        launch = self.body.launch or LaunchInfo()
        if launch.block:
            limit = {axis: int(n) for axis, n in zip("xyz", launch.block)}
        bounds = launch.bounds
        if bounds:
            limit = {axis: min(n, int(bounds[0])) for axis, n in limit.items()}
        return limit

    def range(self, key, depth: int = 0, facts=None) -> tuple[int, int] | None:
        """Bounds of a key's value, narrowed by known facts `key < constant` (`facts`: a
        FactState, or None)."""
        r = self._range(key, depth, facts)
        known = facts.by_lhs.get(key, ()) if facts is not None else ()
        bound = min((f[2][1] - 1 for f in known if f[2][0] == "k"), default=None)
        if bound is None:
            return r
        if r is None:
            return (0, bound) if self._unsigned(key) else None
        return (r[0], min(r[1], bound))

    def _unsigned(self, key) -> bool:
        """Keys of unsigned values: a cast to an unsigned type, a special register, or a
        local of an unsigned integer type."""
        if key[0] == "cast":
            return not key[3]
        if key[0] == "sreg":
            return True
        if key[0] == "l":
            ty = self.body.locals[key[1]].ty
            return isinstance(ty, IntTy) and not ty.signed
        return False

    def _range(self, key, depth: int, facts) -> tuple[int, int] | None:
        if key is None or depth > 24:
            return None
        kind = key[0]
        if kind == "k":
            return (key[1], key[1])
        if kind == "l" and key[1] in self.widened:
            return (0, self.widened[key[1]])
        if kind == "sreg":
            name, _, axis = key[1].partition(".")
            if name == "laneid":
                return (0, 31)
            if name == "warpid":  # the linear thread index / 32 (ptx/intrinsics.py)
                lim = self.block_limit
                return (0, (min(lim["x"] * lim["y"] * lim["z"], 1024) + 31) // 32 - 1)
            if name == "tid":
                return (0, self.block_limit[axis] - 1)
            if name == "ntid":
                req = self.body.launch.block if self.body.launch else None
                if req:
                    n = int(req["xyz".index(axis)])
                    return (n, n)
                return (1, self.block_limit[axis])
            if name == "ctaid":
                return (0, GRID_MAX[axis] - 1)
            if name == "nctaid":
                return (1, GRID_MAX[axis])
            return None
        if kind == "cast":
            r = self.range(key[1], depth + 1, facts)
            bits, signed = key[2], key[3]
            lo = -(1 << (bits - 1)) if signed else 0
            hi = (1 << (bits - 1 if signed else bits)) - 1
            return r if r is not None and lo <= r[0] and r[1] <= hi else None
        if kind in ("bin", "binw"):
            a, b = self.range(key[2], depth + 1, facts), self.range(key[3], depth + 1, facts)
            if a is None or b is None or a[0] < 0 or b[0] < 0:
                return None
            op = key[1]
            if op == "add":
                r = (a[0] + b[0], a[1] + b[1])
            elif op == "mul":
                r = (a[0] * b[0], a[1] * b[1])
            elif op == "sub":
                if a[0] < b[1]:
                    return None  # may wrap
                r = (a[0] - b[1], a[1] - b[0])
            elif op == "div" and b[0] > 0:
                r = (a[0] // b[1], a[1] // b[0])
            elif op == "rem" and b[0] > 0:
                r = (0, min(a[1], b[1] - 1))
            elif op == "shr" and b[1] < 64:
                r = (a[0] >> b[1], a[1] >> b[0])
            elif op == "bitand":
                r = (0, min(a[1], b[1]))
            else:
                return None
            # well inside the type it is computed in (signed or not: no wrap either way)
            bits = key[4] if kind == "binw" else 64
            return r if r[1] < (1 << (bits - 1)) else None
        return None

    def _contract_lengths(self) -> dict[tuple, tuple]:
        """("len", s) -> the key of the expression a contract requires it to equal."""
        launch = self.body.launch
        contract = launch.contract if launch is not None else None
        out = {}
        if contract is None:
            return out

        def conv(e):
            if isinstance(e, ContractConst):
                v = e.value
                return ("k", v) if isinstance(v, int) and not isinstance(v, bool) else None
            if isinstance(e, ContractParam):
                return ("l", e.local) if e.local in self.fixed_args else None  # never written
            if isinstance(e, ContractLen):
                return ("len", e.local) if e.local in self.fixed_args else None
            if isinstance(e, ContractBinary) and e.op in ("mul", "add"):
                a, b = conv(e.lhs), conv(e.rhs)
                if a is None or b is None:
                    return None
                if repr(b) < repr(a):
                    a, b = b, a
                return ("bin", e.op, a, b)
            return None

        for req in contract.requires:
            e = req.expr
            if not entry_checked(e, self.body.locals):
                continue  # only the host checks it: a launch from elsewhere may break it
            if isinstance(e, ContractBinary) and e.op == "eq":
                a, b = conv(e.lhs), conv(e.rhs)
                if a and a[0] == "len" and b:
                    out[a] = b
                elif b and b[0] == "len" and a:
                    out[b] = a
        return out

    # -- proofs ---------------------------------------------------------------------

    def proven(self, fact: tuple, facts: FactState) -> bool:
        if facts.top or fact in facts.facts:
            return True
        _, x, y = fact
        rx, ry = self.range(x, facts=facts), self.range(y, facts=facts)
        if rx is not None and ry is not None and rx[1] < ry[0]:
            return True
        if y in self.contract:
            # the length equals the contract's expression: its range bounds the length
            # (`w.len() == 9` proves the constant indices of an unrolled loop below 9)
            rl = self.range(self.contract[y], facts=facts)
            if rx is not None and rl is not None and rx[1] < rl[0]:
                return True
            return self._row_major(x, self.contract[y], facts)
        return False

    def _row_major(self, idx, area, facts, depth: int = 0) -> bool:
        """idx = r * B + c with r < A and c < B known, and the length equal to A * B; r < A
        may itself be such an index (r = s * B2 + d, A = A2 * B2: the element (s, d, c) of a
        batch of matrices, `a[(b * m + i) * n + j]` with a.len() == batch * m * n). In exact
        integers r <= A - 1 and c <= B - 1 give idx <= A B - 1; A B is at most the length
        (the entry check computes the product without wrapping), and c < B makes B >= 1, so
        A <= A B does not wrap either, and neither does any value below it."""
        if not (area[0] == "bin" and area[1] == "mul"):
            return False
        if not (idx[0] == "bin" and idx[1] == "add"):
            return False
        for prod, col in ((idx[2], idx[3]), (idx[3], idx[2])):
            if not (prod[0] == "bin" and prod[1] == "mul"):
                continue
            for row, stride in ((prod[2], prod[3]), (prod[3], prod[2])):
                for a, b in ((area[2], area[3]), (area[3], area[2])):
                    if stride == b and ("lt", col, b) in facts.facts and (
                            ("lt", row, a) in facts.facts
                            or depth < 2 and self._row_major(row, a, facts, depth + 1)):
                        return True
        return False

    # -- the dataflow -------------------------------------------------------------------

    def comparison(self, rv, vals) -> tuple | None:
        if isinstance(rv, BinaryOp) and rv.op in ("lt", "gt"):
            a, b = self.key(rv.lhs, vals), self.key(rv.rhs, vals)
            if a is None or b is None:
                return None
            return ("lt", a, b) if rv.op == "lt" else ("lt", b, a)
        return None


    def chains(self, order: list[int], preds: list[list[int]]) -> dict[int, list[int]]:
        """The reachable blocks as straight-line chains, by head: a block continues its
        predecessor's chain when it is that block's only successor (`goto`, `assert`, `call`)
        and has no other predecessor. A chain's state is updated in place."""
        blocks = self.body.blocks
        heads = [b for i, b in enumerate(order)
                 if i == 0 or len(preds[b]) != 1
                 or not isinstance(blocks[preds[b][0]].terminator, (Goto, Assert, Call))]
        is_head = set(heads)
        out = {}
        for h in heads:
            chain = [h]
            while True:
                term = blocks[chain[-1]].terminator
                if not isinstance(term, (Goto, Assert, Call)) or term.target in is_head:
                    break
                chain.append(term.target)
            out[h] = chain
        return out

    def run(self) -> bool:
        body = self.body
        order = kept(body, reverse_postorder)
        if not order:
            return False
        preds = kept(body, predecessors)
        chains = self.chains(order, preds)
        edges: dict[tuple[int, int], FactState] = {}  # (from, to) -> the state along the edge
        entry: dict[int, FactState] = {}
        # Rounds over the chains in reverse postorder, as a worklist: a round visits only the
        # chains whose incoming states changed (a change to a chain later in the order is
        # seen in the same round, to an earlier one in the next), in the order a round over
        # every chain would; the ones skipped would have changed nothing.
        heads = list(chains)
        rank = {h: i for i, h in enumerate(heads)}
        now: list[int] = list(range(len(heads)))  # a heap of ranks, with `in_now` its set
        in_now = set(now)
        later: set[int] = set()
        # chain head -> the terminators its blocks get, as found on the chain's last visit
        # (made from its final entry state: what a walk after the fixpoint would find)
        decided: dict[int, list[tuple[int, Goto]]] = {}
        rounds = 0
        while now or later:
            if not now:
                rounds += 1
                if rounds >= 64:
                    return False  # no fixpoint (not expected): change nothing
                now, in_now, later = sorted(later), later, set()
            current = heapq.heappop(now)
            in_now.discard(current)
            h = heads[current]
            chain = chains[h]
            incoming = [edges[(p, h)] for p in preds[h] if (p, h) in edges]
            state = FactState() if h == order[0] else None
            for st in incoming:
                state = st if state is None else meet(state, st)
            if state is None or entry.get(h) == state:
                continue
            entry[h] = state
            state = state.copy()
            found = decided[h] = []
            dying = self.dying
            for b in chain[:-1]:
                state = self.transfer(b, state)
                term = body.blocks[b].terminator
                self._decide(b, term, state, found)
                state = self._follow(term, state, dying.get(b, ()))
            last = chain[-1]
            term = body.blocks[last].terminator
            state = self.transfer(last, state)
            self._decide(last, term, state, found)
            outs: dict[int, FactState] = {}
            for s, out in self._edges(term, state, dying.get(last, ())):
                outs[s] = out if s not in outs else meet(outs[s], out)  # two arms, one block
            for s, out in outs.items():
                if edges.get((last, s)) != out:
                    edges[(last, s)] = out
                    k = rank.get(s)
                    if k is None:
                        continue
                    if k > current:
                        if k not in in_now:
                            in_now.add(k)
                            heapq.heappush(now, k)
                    else:
                        later.add(k)
        changed = False
        for h in chains:
            for b, goto in decided.get(h, ()):
                if not changed:
                    forget_analyses(body)
                body.blocks[b].terminator = goto
                changed = True
        return changed

    def transfer(self, b: int, state: FactState) -> FactState:
        """The block's statements' effect on the state, in place."""
        block = self.body.blocks[b]
        keyed, tracked = self.keyed, self.tracked
        for stmt in block.statements:
            t = type(stmt)  # the MIR classes have no subclasses
            place = stmt.place if t is Assign else stmt.dest if t is AtomicOp else None
            if place is None:
                continue
            local = place.local
            if local not in tracked:
                continue  # the state says nothing about it (check_locals.py)
            projection = place.projection
            if projection and any(type(p) is Deref for p in projection):
                continue  # stores to memory: no fact is about memory
            vals = state.vals
            rv = stmt.rvalue if t is Assign and not projection else None
            rt = type(rv)
            c = self.comparison(rv, vals) if rt is BinaryOp else None
            value = self.rvalue_key(rv, vals) \
                if rv is not None and local in keyed else None
            src = _plain(rv.operand) if rt is Use else None
            when = None
            if rt is BinaryOp and rv.op == "bitand":
                parts = [state.when_true(_plain(o)) for o in (rv.lhs, rv.rhs)]
                when = TOP if TOP in parts else parts[0] | parts[1]
            state.kill(local)
            if value is not None:
                names = locals_of(value)
                if local not in names:  # state.set_val, inline: most statements get here
                    state.w_vals()[local] = value
                    entry, users = ("v", local), state.w_users()
                    for name in names:
                        users[name] = (entry, users.get(name))
            if c is not None and not mentions(c, local):
                state.set_cond(local, c)
                state.set_implies(local, TOP if state.top else frozenset((c,)))
            elif isinstance(rv, Use) and isinstance(rv.operand, Constant) \
                    and rv.operand.value is False:
                state.set_implies(local, TOP)
            elif src is not None and src != local:
                if src in state.cond:  # first: an empty `implies` is kept only with a cond
                    state.set_cond(local, state.cond[src])
                if src in state.implies:
                    state.set_implies(local, state.implies[src])
            elif when is not None:
                state.set_implies(local, when if when is TOP else
                                  frozenset(f for f in when if not mentions(f, local)))
        term = block.terminator
        if isinstance(term, Call) and term.destination.local in tracked \
                and not any(isinstance(p, Deref) for p in term.destination.projection):
            state.kill(term.destination.local)
        return state

    def _follow(self, term, state: FactState, dead: tuple) -> FactState:
        """The state along the only edge of a `goto`, `assert` or `call`, in place.
        (`dead`: the locals to forget where the block ends.)"""
        if isinstance(term, Assert) and term.expected:
            delta = state.when_true(_plain(term.cond))
            if delta is TOP:
                return FactState(top=True)
            state.add_facts(delta)
        for local in dead:
            state.forget(local)
        return state

    def _edges(self, term, state: FactState, dead: tuple) -> list[tuple[int, FactState]]:
        if isinstance(term, Assert):
            return [(term.target, self._follow(term, state, dead))]
        if isinstance(term, SwitchInt) and term.values in ((0,), (1,)):
            false_t, true_t = (term.targets[0], term.otherwise) if term.values == (0,) \
                else (term.otherwise, term.targets[0])
            delta = state.when_true(_plain(term.discr))
            for local in dead:
                state.forget(local)
            # an edge that cannot be taken carries a TOP state (the meet ignores it)
            true_state = state.with_facts(delta)
            return [(true_t, true_state), (false_t, state)]
        for local in dead:
            state.forget(local)
        return [(s, state) for s in successors(term)]

    def _decide(self, b, term, state: FactState, found: list) -> None:
        """The `goto` that replaces the block's `assert` or `switchInt` when the state
        proves its condition, appended to `found` as (b, goto)."""
        op = term.cond if isinstance(term, Assert) else \
            term.discr if isinstance(term, SwitchInt) else None
        local = _plain(op) if op is not None else None
        c = state.cond.get(local) if local is not None else None
        if c is None or state.top or not self.proven(c, state):
            return
        if isinstance(term, Assert):
            if term.expected:
                found.append((b, Goto(term.target, term.span)))
            return
        if term.values not in ((0,), (1,)):
            return
        true_t = term.otherwise if term.values == (0,) else term.targets[0]
        found.append((b, Goto(true_t, term.span)))


def _plain(op) -> int | None:
    if (op.__class__ is Copy or op.__class__ is Move) and not op.place.projection:
        return op.place.local
    return None


def _size(key) -> int:
    """Nodes in a key (bounded by MAX_KEY, so this is cheap)."""
    if key[0] == "cast":
        return 1 + _size(key[1])
    if key[0] in ("bin", "binw"):
        return 1 + _size(key[2]) + _size(key[3])
    return 1


__all__ = ["check_elim"]
