"""OX0009 for the masked warp collectives (`shuffle_xor_sync(mask, ..)`, `ballot_sync`,
`match_*_sync`, `redux_sync_*`, `elect_sync`, `sync_mask`): the lanes that execute one
together must be exactly the lanes of its mask. Compared with the lane-dependent branches
that decide whether it runs (the divergence check's control dependences):

- a constant mask: the branches must be conditions on the lane id (`lane < 16`,
  `threadIdx.x % 32 >= 8`, `!c`, several nested) whose lanes are the mask's bits; with no
  such branch, every lane runs it and the mask must be the full warp.
      if lane < 16 { shuffle_xor_sync(0x0000ffff, v, 1) }        accepted
      if lane < 8  { shuffle_xor_sync(0x0000ffff, v, 1) }        OX0009
- a mask from `ballot(p)` / `ballot_sync(m, p)`: used under the same branches as the
  ballot plus one on `p` itself (`let m = ballot(p); if p { .. m .. }`);
- a mask from `active_mask()`: used under the same branches as it was read;
- any other mask (a value computed at run time): accepted; the simulator checks it when
  the kernel runs.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...mir import syntax as M

FULL = 0xFFFF_FFFF
LANE = 2  # the taint level of a branch that may split a warp

_COMPARE = {"lt": lambda a, b: a < b, "le": lambda a, b: a <= b, "gt": lambda a, b: a > b,
            "ge": lambda a, b: a >= b, "eq": lambda a, b: a == b, "ne": lambda a, b: a != b}
_FLIP = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"}


@dataclass
class MaskMismatch:
    lanes: int | None  # the lanes that execute it (None: a condition the check cannot read)
    mask: int | None  # the constant mask (None: a mask from a ballot / active_mask)
    cond_block: int | None  # the branch to point at
    why: str


class MaskCheck:
    def __init__(self, taint):
        self.t = taint
        self.defs: dict[int, list[tuple[int, M.Assign]]] = {}
        for b, block in enumerate(taint.body.blocks):
            for stmt in block.statements:
                if isinstance(stmt, M.Assign) and not stmt.place.projection:
                    self.defs.setdefault(stmt.place.local, []).append((b, stmt))

    # -- definitions -----------------------------------------------------------------
    def single_def(self, op) -> tuple[int, M.Assign] | None:
        if not isinstance(op, (M.Copy, M.Move)) or op.place.projection:
            return None
        ds = self.defs.get(op.place.local, [])
        return ds[0] if len(ds) == 1 else None

    def through_copies(self, op):
        """The operand a chain of plain copies and casts starts from."""
        for _ in range(16):
            d = self.single_def(op)
            if d is None or not isinstance(d[1].rvalue, (M.Use, M.Cast)):
                return op
            op = d[1].rvalue.operand
        return op

    def is_lane(self, op) -> bool:
        """`warp::lane_id()`, or threadIdx.x % 32 / & 31 (possibly cast)."""
        op = self.through_copies(op)
        d = self.single_def(op)
        if d is None:
            return False
        rv = d[1].rvalue
        if isinstance(rv, M.Intrinsic):
            return rv.name == "laneid"
        if isinstance(rv, M.BinaryOp) and isinstance(rv.rhs, M.Constant):
            x = self.through_copies(rv.lhs)
            tid = isinstance(x, (M.Copy, M.Move)) and not x.place.projection and \
                x.place.local in self.t.exact_tidx
            return tid and (rv.op, rv.rhs.value) in (("rem", 32), ("bitand", 31))
        return False

    def lanes_where(self, op, depth: int = 0) -> int | None:
        """The lanes (a 32-bit set) where the bool `op` holds, or None. A local assigned in
        several places (`a && b` joins a `false` and `b`) holds, in each lane, the value of
        the assignment that lane went through."""
        if isinstance(op, M.Constant):
            return FULL if op.value else 0
        if depth > 8 or not isinstance(op, (M.Copy, M.Move)) or op.place.projection:
            return None
        ds = self.defs.get(op.place.local, [])
        if len(ds) > 1:
            if not self.exclusive([b for b, _ in ds]):
                return None  # a lane may go through several of them: the last one counts
            total = 0
            for b, stmt in ds:
                got, reach = self.rvalue_lanes(stmt.rvalue, depth), self.reach(b, depth)
                if got is None or reach is None:
                    return None
                total |= got & reach
            return total
        return self.rvalue_lanes(ds[0][1].rvalue, depth) if ds else None

    def exclusive(self, blocks: list[int]) -> bool:
        """No lane goes through two of these blocks (none reaches another, or itself)."""
        succs = self.t.cfg.succs
        for b in blocks:
            seen, work = set(), list(succs[b])
            while work:
                x = work.pop()
                if x in blocks:
                    return False
                if x not in seen:
                    seen.add(x)
                    work.extend(succs[x])
        return len(set(blocks)) == len(blocks)

    def reach(self, b: int, depth: int) -> int | None:
        """The lanes that get to block `b`."""
        lanes = FULL
        for a, s in self.conditions(b):
            got = self.branch_lanes(a, s, depth + 1)
            if got is None:
                return None
            lanes &= got
        return lanes

    def rvalue_lanes(self, rv, depth: int) -> int | None:
        lanes_where = lambda o: self.lanes_where(o, depth + 1)  # noqa: E731
        if isinstance(rv, (M.Use, M.Cast)):
            return lanes_where(rv.operand)
        if isinstance(rv, M.UnaryOp) and rv.op == "not":
            inner = lanes_where(rv.operand)
            return None if inner is None else FULL & ~inner
        if not isinstance(rv, M.BinaryOp):
            return None
        if rv.op in ("bitand", "bitor"):
            a, b = lanes_where(rv.lhs), lanes_where(rv.rhs)
            if a is None or b is None:
                return None
            return a & b if rv.op == "bitand" else a | b
        if rv.op not in _COMPARE:
            return None
        lhs, rhs, op = rv.lhs, rv.rhs, rv.op
        if isinstance(lhs, M.Constant):
            lhs, rhs, op = rhs, lhs, _FLIP[op]
        if not (isinstance(rhs, M.Constant) and isinstance(rhs.value, int)
                and self.is_lane(lhs)):
            return None
        return sum(1 << lane for lane in range(32) if _COMPARE[op](lane, rhs.value))

    # -- branches ------------------------------------------------------------------------
    def conditions(self, b: int) -> list[tuple[int, int]]:
        """The lane-dependent branches (branch block, successor taken) deciding whether
        block `b` runs, nearest first."""
        deps = self.t.cfg.control_deps
        out: list[tuple[int, int]] = []
        seen, frontier = {b}, [b]
        while frontier:
            nxt = []
            for x in frontier:
                for a, s in deps.get(x, ()):
                    if self.t.branch_level(a)[0] >= LANE and (a, s) not in out:
                        out.append((a, s))
                    if a not in seen:
                        seen.add(a)
                        nxt.append(a)
            frontier = nxt
        return out

    def branch_lanes(self, a: int, s: int, depth: int = 0) -> int | None:
        term = self.t.body.blocks[a].terminator
        if not (isinstance(term, M.SwitchInt) and term.values == (0,)):
            return None
        holds = self.lanes_where(term.discr, depth)
        if holds is None or s not in (term.otherwise, term.targets[0]) or \
                term.otherwise == term.targets[0]:
            return None
        return holds if s == term.otherwise else FULL & ~holds

    def on_predicate(self, a: int, s: int, pred) -> bool:
        """Branch `a` goes to `s` exactly when `pred` holds."""
        term = self.t.body.blocks[a].terminator
        if not (isinstance(term, M.SwitchInt) and term.values == (0,) and s == term.otherwise):
            return False
        x, y = self.through_copies(term.discr), self.through_copies(pred)
        return isinstance(x, (M.Copy, M.Move)) and isinstance(y, (M.Copy, M.Move)) and \
            x.place == y.place

    # -- the check ---------------------------------------------------------------------
    def check(self, block: int, mask) -> MaskMismatch | None:
        conds = self.conditions(block)
        nearest = conds[0][0] if conds else None
        src = self.through_copies(mask)
        if isinstance(src, M.Constant) and isinstance(src.value, int):
            want = src.value & FULL
            lanes = FULL
            for a, s in conds:
                got = self.branch_lanes(a, s)
                if got is None:
                    return MaskMismatch(None, want, a, "unreadable")
                lanes &= got
            if lanes == want:
                return None
            return MaskMismatch(lanes, want, nearest, "constant")
        d = self.single_def(src)
        rv = d[1].rvalue if d is not None else None
        if not isinstance(rv, M.Intrinsic) or rv.name not in ("ballot", "ballot_sync",
                                                              "active_mask"):
            return None  # a mask computed at run time: the simulator checks it
        before = self.conditions(d[0])
        if any(c not in conds for c in before):
            return MaskMismatch(None, None, nearest, "outside")
        extra = [c for c in conds if c not in before]
        if rv.name == "active_mask":
            ok = not extra
        else:
            ok = len(extra) == 1 and self.on_predicate(*extra[0], rv.args[-1])
        return None if ok else MaskMismatch(None, None, extra[0][0] if extra else nearest,
                                            rv.name)
