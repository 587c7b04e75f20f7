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
  block shape fails) or `launch_bounds`; ranges flow through casts and arithmetic that
  cannot wrap (`tx + 1 < 18` for `tx < 16`), or
- a launch contract `requires (s.len() == A * B)` (checked on the host, in exact
  integer arithmetic, before the launch) and known `y < A`, `x < B` prove the row-major
  index `y * B + x < s.len()`: `y * B + x <= (A - 1) * B + B - 1 = A * B - 1`, and
  `A * B` equals a length, so nothing wraps.

A `switchInt` on such a proven comparison becomes a `goto` too.

    bb0: { _5 = @tid.x(); _6 = copy _5 as usize;            (reqntid(16, 16, 1))
           _7 = Add(copy _6, const 1_usize);
           _8 = Lt(copy _7, const 18_usize);
           assert(copy _8, "index out of bounds") -> [success: bb1]; }
becomes
    bb0: { ...; _8 = Lt(copy _7, const 18_usize); goto -> bb1; }

Values are compared by keys: a constant, `Len` of a slice the body never writes, or an
expression over such values and locals written once outside every loop (each of those
holds one value for the whole run); any other local is itself, and facts about it die at
its next write.
"""
from __future__ import annotations

from ..mir.syntax import (
    Assert, Assign, AtomicOp, BinaryOp, Body, Call, Cast, Constant, Copy, Deref, Goto,
    Intrinsic, Len, Move, Place, SwitchInt, Use,
)
from ..types import IntTy
from .loops import Dominators, find_loops, local_defs
from .visit import address_taken, never_written, successors

TOP = None  # the state of a block no path reaches yet: every fact holds

COMMUTATIVE = ("add", "mul", "bitand", "bitor", "bitxor")
# hardware limits (sm_80/sm_90): threads per block 1024, block dims (1024, 1024, 64),
# grid dims (2^31 - 1, 65535, 65535)
GRID_MAX = {"x": (1 << 31) - 1, "y": 65535, "z": 65535}
BLOCK_MAX = {"x": 1024, "y": 1024, "z": 64}


def check_elim(body: Body) -> bool:
    return _Checker(body).run()


class _Checker:
    def __init__(self, body: Body) -> None:
        self.body = body
        self.defs = local_defs(body)
        self.taken = address_taken(body)
        self.fixed_args = never_written(body)
        loops = find_loops(body)
        in_loop = set().union(*(lp.blocks for lp in loops)) if loops else set()
        self.once: dict[int, object] = {}  # local -> its rvalue: written once, in no loop
        for local, sites in self.defs.items():
            if len(sites) != 1 or local in self.taken or local <= body.arg_count:
                continue
            s = sites[0]
            block = body.blocks[s.block]
            if s.block in in_loop or s.index >= len(block.statements):
                continue
            stmt = block.statements[s.index]
            if isinstance(stmt, Assign) and stmt.place == Place(local):
                self.once[local] = stmt.rvalue
        self._keys: dict[int, tuple] = {}
        self.block_limit = self._block_limit()
        self.contract = self._contract_lengths()

    # -- keys ---------------------------------------------------------------------

    def key(self, op) -> tuple | None:
        if isinstance(op, Constant):
            if isinstance(op.ty, IntTy):
                return ("k", op.value)
            return ("c", op.value, str(op.ty))
        if not isinstance(op, (Copy, Move)) or op.place.projection:
            return None
        return self.local_key(op.place.local)

    def local_key(self, local: int) -> tuple:
        if local in self._keys:
            return self._keys[local]
        self._keys[local] = ("l", local)  # cycles (none expected) resolve to the local
        key = ("l", local)
        rv = self.once.get(local)
        if rv is not None:
            key = self.rvalue_key(rv) or key
        self._keys[local] = key
        return key

    def rvalue_key(self, rv) -> tuple | None:
        if isinstance(rv, Use):
            k = self.key(rv.operand)
            return k if k is None or k[0] != "l" or self._stable(k) else None
        if isinstance(rv, Len):
            p = rv.place
            if p.projection in ((), (Deref(),)) and p.local in self.fixed_args:
                return ("len", p.local)
            return None
        if isinstance(rv, Cast) and isinstance(rv.ty, IntTy):
            k = self.key(rv.operand)
            return ("cast", k, rv.ty.bits, rv.ty.signed) if k and self._stable(k) else None
        if isinstance(rv, Intrinsic) and not rv.args and "." in rv.name:
            return ("sreg", rv.name)
        if isinstance(rv, BinaryOp) and rv.op in COMMUTATIVE + ("sub", "div", "rem", "shl", "shr"):
            a, b = self.key(rv.lhs), self.key(rv.rhs)
            if a is None or b is None or not (self._stable(a) and self._stable(b)):
                return None
            if rv.op in COMMUTATIVE and repr(b) < repr(a):
                a, b = b, a
            return ("bin", rv.op, a, b)
        return None

    def _stable(self, key: tuple) -> bool:
        """A key that holds one value for the whole run."""
        if key[0] == "l":
            return key[1] in self.fixed_args
        return True

    # -- ranges ---------------------------------------------------------------------

    def _block_limit(self) -> dict[str, int]:
        limit = dict(BLOCK_MAX)
        req = self.body.attrs.get("reqntid")
        if req:
            limit = {axis: int(n) for axis, n in zip("xyz", req)}
        bounds = self.body.attrs.get("launch_bounds")
        if bounds:
            limit = {axis: min(n, int(bounds[0])) for axis, n in limit.items()}
        return limit

    def range(self, key, depth: int = 0) -> tuple[int, int] | None:
        if key is None or depth > 24:
            return None
        kind = key[0]
        if kind == "k":
            return (key[1], key[1])
        if kind == "sreg":
            name, _, axis = key[1].partition(".")
            if name == "tid":
                return (0, self.block_limit[axis] - 1)
            if name == "ntid":
                req = self.body.attrs.get("reqntid")
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
            r = self.range(key[1], depth + 1)
            if r is None:
                return None
            lo, hi = -(1 << (key[3 - 1 + 1] and key[2] - 1)) if key[3] else 0, \
                (1 << (key[2] - 1 if key[3] else key[2])) - 1
            return r if lo <= r[0] and r[1] <= hi else None
        if kind == "bin":
            a, b = self.range(key[2], depth + 1), self.range(key[3], depth + 1)
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
            return r if r[1] < (1 << 32) * (1 << 31) else None  # well inside any type it is in
        return None

    def _contract_lengths(self) -> dict[tuple, tuple]:
        """("len", s) -> the key of the expression a contract requires it to equal."""
        from ..ast import BinaryExpr, LitExpr, MethodCallExpr, PathExpr
        contract = self.body.attrs.get("launch_contract")
        out = {}
        if contract is None:
            return out
        names = {self.body.locals[a].name: a for a in self.body.args()}

        def conv(e):
            if isinstance(e, LitExpr) and e.kind == "int":
                return ("k", e.value)
            if isinstance(e, PathExpr) and len(e.path.segments) == 1:
                name = e.path.segments[0].name
                if name in names and names[name] in self.fixed_args:
                    return ("l", names[name])
                v = contract.consts.get(name)
                return ("k", v) if isinstance(v, int) and not isinstance(v, bool) else None
            if isinstance(e, MethodCallExpr) and e.method == "len" and not e.args:
                r = conv(e.receiver)
                return ("len", r[1]) if r and r[0] == "l" else None
            if isinstance(e, BinaryExpr) and e.op in ("*", "+"):
                a, b = conv(e.lhs), conv(e.rhs)
                if a is None or b is None:
                    return None
                op = "mul" if e.op == "*" else "add"
                if repr(b) < repr(a):
                    a, b = b, a
                return ("bin", op, a, b)
            return None

        for req in contract.requires:
            e = req.expr
            if isinstance(e, BinaryExpr) and e.op == "==":
                a, b = conv(e.lhs), conv(e.rhs)
                if a and a[0] == "len" and b:
                    out[a] = b
                elif b and b[0] == "len" and a:
                    out[b] = a
        return out

    # -- proofs ---------------------------------------------------------------------

    def proven(self, fact: tuple, facts) -> bool:
        if facts is TOP or fact in facts:
            return True
        _, x, y = fact
        rx, ry = self.range(x), self.range(y)
        if rx is not None and ry is not None and rx[1] < ry[0]:
            return True
        if y in self.contract:
            return self._row_major(x, self.contract[y], facts)
        return False

    def _row_major(self, idx, area, facts) -> bool:
        """idx = r * B + c with r < A and c < B known, and the length equal to A * B."""
        if not (area[0] == "bin" and area[1] == "mul"):
            return False
        if not (idx[0] == "bin" and idx[1] == "add"):
            return False
        for prod, col in ((idx[2], idx[3]), (idx[3], idx[2])):
            if not (prod[0] == "bin" and prod[1] == "mul"):
                continue
            for row, stride in ((prod[2], prod[3]), (prod[3], prod[2])):
                for a, b in ((area[2], area[3]), (area[3], area[2])):
                    if stride == b and ("lt", row, a) in facts and ("lt", col, b) in facts:
                        return True
        return False

    # -- the dataflow -------------------------------------------------------------------

    def comparison(self, rv) -> tuple | None:
        if isinstance(rv, BinaryOp) and rv.op in ("lt", "gt"):
            a, b = self.key(rv.lhs), self.key(rv.rhs)
            if a is None or b is None:
                return None
            return ("lt", a, b) if rv.op == "lt" else ("lt", b, a)
        return None

    def run(self) -> bool:
        body = self.body
        order = Dominators(body).order
        entry: dict[int, tuple] = {order[0]: (frozenset(), {})} if order else {}
        for _ in range(64):
            changed = False
            for b in order:
                if b not in entry:
                    continue
                for s, state in self.transfer(b, entry[b], rewrite=False):
                    old = entry.get(s)
                    new = state if old is None else _meet(old, state)
                    if old is None or new != old:
                        entry[s] = new
                        changed = True
            if not changed:
                break
        else:
            return False  # no fixpoint (not expected): change nothing
        changed = False
        for b in order:
            if b in entry:
                changed |= self.transfer(b, entry[b], rewrite=True) is True
        return changed

    def transfer(self, b: int, state, rewrite: bool):
        facts, implies = state
        implies = dict(implies)
        cond: dict[int, tuple] = {}  # bool local -> the comparison it holds, this block
        block = self.body.blocks[b]
        for stmt in block.statements:
            place = stmt.place if isinstance(stmt, Assign) else \
                stmt.dest if isinstance(stmt, AtomicOp) else None
            if place is None or place.projection:
                if place is not None and not any(isinstance(p, Deref) for p in place.projection):
                    facts, implies, cond = _kill(place.local, facts, implies, cond)
                continue
            local = place.local
            facts, implies, cond = _kill(local, facts, implies, cond)
            rv = stmt.rvalue if isinstance(stmt, Assign) else None
            c = self.comparison(rv)
            if c is not None and not _mentions(c, local):
                cond[local] = c
                implies[local] = TOP if facts is TOP else facts | {c}
            elif isinstance(rv, Use) and isinstance(rv.operand, Constant) \
                    and rv.operand.value is False:
                implies[local] = TOP
            elif isinstance(rv, Use) and isinstance(rv.operand, (Copy, Move)) \
                    and not rv.operand.place.projection and rv.operand.place.local in implies:
                implies[local] = implies[rv.operand.place.local]
            elif isinstance(rv, BinaryOp) and rv.op == "bitand":
                parts = [implies.get(o.place.local) if isinstance(o, (Copy, Move))
                         and not o.place.projection else None for o in (rv.lhs, rv.rhs)]
                if all(p is not None or False for p in parts):
                    implies[local] = TOP if TOP in parts else parts[0] | parts[1]
        term = block.terminator
        if isinstance(term, Call) and not any(isinstance(p, Deref)
                                               for p in term.destination.projection):
            facts, implies, cond = _kill(term.destination.local, facts, implies, cond)
        if rewrite:
            return self._rewrite_terminator(b, term, facts, implies, cond)
        return self._edges(term, facts, implies, cond)

    def _true_facts(self, op, facts, implies, cond):
        if not (isinstance(op, (Copy, Move)) and not op.place.projection):
            return facts
        local = op.place.local
        if local in implies:
            imp = implies[local]
            return TOP if imp is TOP or facts is TOP else facts | imp
        if local in cond and facts is not TOP:
            return facts | {cond[local]}
        return facts

    def _edges(self, term, facts, implies, cond):
        out = []
        if isinstance(term, Assert):
            after = self._true_facts(term.cond, facts, implies, cond) if term.expected else facts
            out.append((term.target, (after, implies)))
        elif isinstance(term, SwitchInt) and term.values in ((0,), (1,)):
            true_facts = self._true_facts(term.discr, facts, implies, cond)
            false_t, true_t = (term.targets[0], term.otherwise) if term.values == (0,) \
                else (term.otherwise, term.targets[0])
            if true_facts is not TOP or facts is TOP:
                out.append((true_t, (true_facts, implies)))
            out.append((false_t, (facts, implies)))
        else:
            out.extend((s, (facts, implies)) for s in successors(term))
        return out

    def _rewrite_terminator(self, b, term, facts, implies, cond) -> bool:
        op = term.cond if isinstance(term, Assert) else \
            term.discr if isinstance(term, SwitchInt) else None
        if op is None or not (isinstance(op, (Copy, Move)) and not op.place.projection):
            return False
        c = cond.get(op.place.local)
        if c is None or facts is TOP or not self.proven(c, facts):
            return False
        if isinstance(term, Assert):
            if not term.expected:
                return False
            self.body.blocks[b].terminator = Goto(term.target, term.span)
            return True
        if term.values not in ((0,), (1,)):
            return False
        true_t = term.otherwise if term.values == (0,) else term.targets[0]
        self.body.blocks[b].terminator = Goto(true_t, term.span)
        return True


def _mentions(key, local: int) -> bool:
    if isinstance(key, tuple):
        if len(key) == 2 and key[0] == "l" and key[1] == local:
            return True
        return any(_mentions(k, local) for k in key[1:] if isinstance(k, tuple))
    return False


def _kill(local: int, facts, implies, cond):
    if facts is not TOP:
        facts = frozenset(f for f in facts if not _mentions(f, local))
    implies = {k: (v if v is TOP else frozenset(f for f in v if not _mentions(f, local)))
               for k, v in implies.items() if k != local}
    cond = {k: v for k, v in cond.items() if k != local and not _mentions(v, local)}
    return facts, implies, cond


def _meet(a, b):
    fa, ia = a
    fb, ib = b
    if fa is TOP:
        return b
    if fb is TOP:
        return a
    facts = fa & fb
    implies = {}
    for local in set(ia) & set(ib):
        x, y = ia[local], ib[local]
        x = fa if x is None else x
        y = fb if y is None else y
        if x is TOP and y is TOP:
            implies[local] = TOP
        elif x is TOP:
            implies[local] = y | facts if False else y
        elif y is TOP:
            implies[local] = x
        else:
            implies[local] = x & y
    for local in set(ia) ^ set(ib):
        x = ia.get(local, fa) if local in ia else fa
        y = ib.get(local, fb) if local in ib else fb
        if x is TOP:
            implies[local] = y
        elif y is TOP:
            implies[local] = x
        else:
            implies[local] = x & y
    return facts, implies


__all__ = ["check_elim"]
