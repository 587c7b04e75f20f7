"""Borrows: E0499, E0502, E0503, E0505, E0506 (a borrow in conflict with another access
while it is live), E0597 and E0515 (a borrow that outlives its owner).

NLL in spirit, on MIR. Every `Ref` rvalue creates a *loan* of a place:

    _8 = &mut x.f               loan of `x.f` (a register local)
    _32 = &mut (*_3)[_30]       `get_mut`: a loan of the whole DisjointSlice `_3`
    _9 = &mut (*_8)             a reborrow: a loan of `*_8`, which keeps _8's loans too

Loans of data behind shared references, raw pointers and statics are not tracked (shared
data cannot be mutated through them; raw pointers and statics are `unsafe`'s business).

A forward dataflow computes which loans each reference-carrying local may hold (moves and
copies pass them on, `Some(r)` wraps them); a backward liveness pass says which locals
are still going to be used. A loan is live at a point when a local that may hold it is
live there, which is NLL's rule: a borrow lasts until the last use of the reference, not
to the end of its scope. Every access at a point is then checked against the live loans
of overlapping places (different fields never overlap; different indices are assumed to).
"""
from __future__ import annotations

from dataclasses import dataclass

from ... import types as T
from ...diagnostics import DiagnosticSink, Label
from ...mir import syntax as M
from ...span import Span
from .dataflow import Cfg, Worklist
from .facts import BindingScopes
from .report import add
from .places import (Access, Accesses, Point, carries_ref, describe, is_atomic_view, local_name,
                     overlaps, place_ty, static_temps)


@dataclass(frozen=True)
class Loan:
    index: int
    place: M.Place  # the borrowed place, cut at the first index
    mutable: bool
    point: Point
    span: Span


class BorrowCheck:
    def __init__(self, body: M.Body, cfg: Cfg, acc: Accesses, facts: BindingScopes,
                 sink: DiagnosticSink):
        self.body, self.cfg, self.acc, self.facts, self.sink = body, cfg, acc, facts, sink
        self.statics = static_temps(body)
        self.loans: list[Loan] = []
        self.loan_at: dict[Point, Loan] = {}
        self.find_loans()
        self.tracked = [l for l, d in enumerate(body.locals) if carries_ref(d.ty)]
        self.slot = {l: k for k, l in enumerate(self.tracked)}
        self.resets: dict[Point, list[int]] = {}  # binding starts / scope ends
        self.dead: dict[Point, list[tuple[int, Span]]] = {}
        for b, i, local in facts.live:
            self.resets.setdefault((b, i), []).append(local)
        for b, i, local, brace in facts.dead:
            self.resets.setdefault((b, i), []).append(local)
            self.dead.setdefault((b, i), []).append((local, brace))
        self._uses_defs: dict[Point, tuple[int, int]] = {}
        self.reported: set[tuple] = set()  # (code, span) and ("E0597", loan) already said
        self.returned = False  # set by use_span: the use found is the `return`

    # -- loans -----------------------------------------------------------------
    def loan_place(self, place: M.Place) -> M.Place | None:
        """The place a borrow of `place` locks; None when the borrow is not tracked."""
        body = self.body
        projs = place.projection
        if place.local in self.statics:
            return None
        if local_name(body, place.local) is None and not any(
                isinstance(p, M.Deref) for p in projs):
            return None  # a temporary's own storage
        cut: list = []
        through = None
        for j, proj in enumerate(projs):
            if isinstance(proj, (M.Index, M.ConstIndex)):
                break
            if isinstance(proj, M.Deref):
                base_ty = place_ty(body, M.Place(place.local, projs[:j]))
                if isinstance(base_ty, T.DisjointSliceTy):
                    break  # `get_mut(&mut self)`: the whole slice is borrowed
                if isinstance(base_ty, T.RefTy) and base_ty.mutable and j == 0:
                    through = place.local
                elif isinstance(base_ty, T.RefTy) and base_ty.mutable:
                    pass
                else:
                    return None  # behind `&`, a raw pointer: not tracked
            cut.append(proj)
        if local_name(body, place.local) is None and through is None:
            return None
        return M.Place(place.local, tuple(cut))

    def find_loans(self) -> None:
        for b, block in enumerate(self.body.blocks):
            for i, stmt in enumerate(block.statements):
                if isinstance(stmt, M.Assign) and isinstance(stmt.rvalue, M.Ref):
                    if isinstance(place_ty(self.body, stmt.place), T.PtrTy) and not \
                            is_atomic_view(place_ty(self.body, stmt.place)):
                        continue  # `&raw mut x`: a raw pointer holds no loan (as in rustc)
                    found = self.loan_place(stmt.rvalue.place)
                    if found is None:
                        continue
                    mutable = stmt.rvalue.mutable and not is_atomic_view(
                        place_ty(self.body, stmt.place))
                    loan = Loan(len(self.loans), found, mutable, (b, i), stmt.span)
                    self.loans.append(loan)
                    self.loan_at[(b, i)] = loan

    # -- which locals hold which loans (forward) --------------------------------
    def operand_loans(self, op, holds: list[int]) -> int:
        if isinstance(op, (M.Copy, M.Move)):
            k = self.slot.get(op.place.local)
            if k is not None and carries_ref(place_ty(self.body, op.place)):
                return holds[k]
        return 0

    def reset(self, point: Point, holds: list[int]) -> None:
        """A binding that starts or ends here holds nothing."""
        for local in self.resets.get(point, ()):
            k = self.slot.get(local)
            if k is not None:
                holds[k] = 0

    def transfer(self, point: Point, holds: list[int]) -> None:
        """Update `holds` (one loan bitset per tracked local) across the statement at
        `point` (the binding facts just before it are `reset`'s)."""
        b, i = point
        block = self.body.blocks[b]
        if i < len(block.statements):
            stmt = block.statements[i]
            if not isinstance(stmt, M.Assign):
                return
            rv = stmt.rvalue
            carried = 0
            if isinstance(rv, M.Ref):
                loan = self.loan_at.get(point)
                if loan is not None:
                    carried |= 1 << loan.index
                k = self.slot.get(rv.place.local)
                if k is not None and rv.place.projection and \
                        isinstance(rv.place.projection[0], M.Deref):
                    carried |= holds[k]  # a reborrow keeps the original alive
            elif isinstance(rv, (M.Use, M.Cast)):
                carried = self.operand_loans(rv.operand, holds)
            elif isinstance(rv, M.Aggregate):
                for op in rv.operands:
                    carried |= self.operand_loans(op, holds)
            elif isinstance(rv, M.Intrinsic):
                for op in rv.args:
                    carried |= self.operand_loans(op, holds)
            self.store(stmt.place, carried, holds)
        elif isinstance(block.terminator, M.Call):
            carried = 0
            for op in block.terminator.args:
                carried |= self.operand_loans(op, holds)
            self.store(block.terminator.destination, carried, holds)

    def store(self, place: M.Place, carried: int, holds: list[int]) -> None:
        k = self.slot.get(place.local)
        if k is None:
            return
        if not place.projection:
            holds[k] = carried if carries_ref(self.body.locals[place.local].ty) else 0
        elif not any(isinstance(p, M.Deref) for p in place.projection):
            holds[k] |= carried

    def holds_in(self) -> dict[int, list[int]]:
        n = len(self.tracked)
        ins: dict[int, list[int]] = {0: [0] * n}
        pending = Worklist(self.cfg, [0])
        while pending:
            b = pending.pop()
            holds = list(ins[b])
            for i in range(len(self.body.blocks[b].statements) + 1):
                self.reset((b, i), holds)
                self.transfer((b, i), holds)
            for s in self.cfg.succs[b]:
                old = ins.get(s)
                new = holds if old is None else [x | y for x, y in zip(old, holds)]
                if new != old:
                    ins[s] = new
                    pending.push(s)
        return ins

    # -- which tracked locals are live (backward) ---------------------------------
    def uses_defs(self, point: Point) -> tuple[int, int]:
        """(uses, defs) of tracked locals at a point, as bitsets over slots."""
        found = self._uses_defs.get(point)
        if found is None:
            found = self._uses_defs[point] = self._compute_uses_defs(point)
        return found

    def _compute_uses_defs(self, point: Point) -> tuple[int, int]:
        uses = defs = 0
        for a in self.acc.at[point]:
            k = self.slot.get(a.place.local)
            if k is None:
                continue
            if a.kind == "write" and not a.place.projection:
                defs |= 1 << k
            elif a.kind == "write" and not any(isinstance(p, M.Deref)
                                               for p in a.place.projection):
                pass  # a partial write neither uses nor kills
            else:
                uses |= 1 << k
        return uses, defs

    def liveness(self) -> dict[int, int]:
        """live-out bitset of each block."""
        blocks = self.body.blocks
        summary: dict[int, tuple[int, int]] = {}
        for b in self.cfg.rpo:
            gen = kill = 0
            for i in range(len(blocks[b].statements), -1, -1):
                uses, defs = self.uses_defs((b, i))
                gen = (gen & ~defs) | uses
                kill |= defs
                for local in self.resets.get((b, i), ()):
                    k = self.slot.get(local)
                    if k is not None:
                        gen &= ~(1 << k)
                        kill |= 1 << k
            summary[b] = (gen, kill)
        live_in = {b: 0 for b in self.cfg.rpo}
        live_out = {b: 0 for b in self.cfg.rpo}
        changed = True
        order = list(reversed(self.cfg.rpo))
        while changed:
            changed = False
            for b in order:
                out = 0
                for s in self.cfg.succs[b]:
                    out |= live_in.get(s, 0)
                gen, kill = summary[b]
                new_in = gen | (out & ~kill)
                if out != live_out[b] or new_in != live_in[b]:
                    live_out[b], live_in[b] = out, new_in
                    changed = True
        return live_out

    # -- the check ---------------------------------------------------------------
    def run(self) -> None:
        if not self.loans:
            return
        holds_in = self.holds_in()
        live_out = self.liveness()
        blocks = self.body.blocks
        for b in self.cfg.rpo:
            n = len(blocks[b].statements)
            # Live tracked locals just before each statement (after the binding facts).
            live_in: list[int] = [0] * (n + 1)
            live = live_out[b]
            for i in range(n, -1, -1):
                uses, defs = self.uses_defs((b, i))
                live = (live & ~defs) | uses
                live_in[i] = live
                for local in self.resets.get((b, i), ()):
                    k = self.slot.get(local)
                    if k is not None:
                        live &= ~(1 << k)
            holds = list(holds_in.get(b, [0] * len(self.tracked)))
            for i in range(n + 1):
                point = (b, i)
                for local, brace in self.dead.get(point, ()):
                    self.check_dead(point, local, brace, holds, live_in[i])
                self.reset(point, holds)
                self.check_point(point, holds, live_in[i])
                self.transfer(point, holds)

    def live_loans(self, holds: list[int], live: int) -> int:
        out = 0
        while live:
            low = live & -live
            out |= holds[low.bit_length() - 1]
            live ^= low
        return out

    def check_point(self, point: Point, holds: list[int], live: int) -> None:
        loans = self.live_loans(holds, live)
        if not loans:
            return
        # A loan made by this very statement is not in `holds` yet (unless a reference from
        # the previous iteration of a loop still holds it: a real conflict).
        for a in self.acc.at[point]:
            if a.kind == "return":
                continue
            for loan in self.loans:
                if not loans >> loan.index & 1 or not overlaps(a.place, loan.place):
                    continue
                if self.conflict(a, loan, point, holds, live):
                    break

    def conflict(self, a: Access, loan: Loan, point: Point, holds, live) -> bool:
        body = self.body
        if a.kind == "borrow_mut":
            code = "E0499" if loan.mutable else "E0502"
        elif a.kind == "borrow":
            if not loan.mutable:
                return False
            code = "E0502"
        elif a.kind == "copy":
            if not loan.mutable:
                return False
            code = "E0503"
        elif a.kind == "move":
            code = "E0505"
        elif a.kind == "write":
            code = "E0506"
        else:
            return False
        key = (code, a.span.start, a.span.end)
        if key in self.reported:
            return True
        self.reported.add(key)
        what = describe(body, self.shown_place(a.place)) or describe(body, loan.place) or \
            "value"
        owner = describe(body, loan.place) or what
        later = self.later_use(point, loan, holds, live)
        labels: list[Label] = []
        if code == "E0499":
            message = f"cannot borrow `{what}` as mutable more than once at a time"
            primary = "second mutable borrow occurs here"
            labels.append(Label(loan.span, "first mutable borrow occurs here"))
            later_text = "first borrow later used here"
        elif code == "E0502" and a.kind == "borrow_mut":
            message = f"cannot borrow `{what}` as mutable because it is also borrowed as " \
                      "immutable"
            primary = "mutable borrow occurs here"
            labels.append(Label(loan.span, "immutable borrow occurs here"))
            later_text = "immutable borrow later used here"
        elif code == "E0502":
            message = f"cannot borrow `{what}` as immutable because it is also borrowed as " \
                      "mutable"
            primary = "immutable borrow occurs here"
            labels.append(Label(loan.span, "mutable borrow occurs here"))
            later_text = "mutable borrow later used here"
        elif code == "E0503":
            message = f"cannot use `{what}` because it was mutably borrowed"
            primary = f"use of borrowed `{owner}`"
            labels.append(Label(loan.span, f"`{owner}` is borrowed here"))
            later_text = "borrow later used here"
        elif code == "E0505":
            message = f"cannot move out of `{what}` because it is borrowed"
            primary = f"move out of `{what}` occurs here"
            labels.append(Label(loan.span, f"borrow of `{owner}` occurs here"))
            later_text = "borrow later used here"
        else:
            message = f"cannot assign to `{what}` because it is borrowed"
            primary = f"`{what}` is assigned to here but it was already borrowed"
            labels.append(Label(loan.span, f"`{owner}` is borrowed here"))
            later_text = "borrow later used here"
        add(labels, a.span, later, later_text)
        help_ = self.conflict_help(code, a, loan)
        self.sink.error(code, message, a.span, primary, labels=labels, help=help_)
        return True

    def shown_place(self, place: M.Place) -> M.Place:
        """How a conflicting access is named: `get_mut` borrows `out` (the whole slice),
        `a[2] = ..` assigns `a[_]`."""
        for j, proj in enumerate(place.projection):
            if isinstance(proj, M.Deref) and isinstance(
                    place_ty(self.body, M.Place(place.local, place.projection[:j])),
                    T.DisjointSliceTy):
                return M.Place(place.local, place.projection[:j])
        return place

    def conflict_help(self, code: str, a: Access, loan: Loan) -> list[str]:
        ty = place_ty(self.body, M.Place(loan.place.local))
        if isinstance(ty, T.DisjointSliceTy) and code in ("E0499", "E0502"):
            # the loan is spanned on the receiver; the method name follows it
            after = loan.span.file.text[loan.span.end:loan.span.end + 40]
            method = "get_unchecked_mut" if "get_unchecked_mut" in after else "get_mut"
            return [f"`{method}` borrows the whole `DisjointSlice` for as long as its "
                    "reference is used: finish with one element (or read `len()` into a "
                    "variable) before borrowing again"]
        if code in ("E0499", "E0502", "E0503", "E0506"):
            return ["use the first borrow for the last time before this point, or access the "
                    "value through that reference"]
        return []

    def later_use(self, point: Point, loan: Loan, holds, live) -> Span | None:
        """The next use (after `point`) of a reference that holds `loan`."""
        holders = {self.tracked[k] for k in range(len(self.tracked))
                   if live >> k & 1 and holds[k] >> loan.index & 1}
        return self.next_use(point, holders, skip_first=True)

    def next_use(self, point: Point, holders: set[int], skip_first: bool) -> Span | None:
        self.returned = False
        blocks = self.body.blocks
        seen: set[Point] = set()
        work = [(point, frozenset(holders))]
        first = skip_first
        while work:
            (b, i), hs = work.pop(0)
            n = len(blocks[b].statements)
            while i <= n:
                if ((b, i), hs) in seen:
                    break
                seen.add(((b, i), hs))
                if first:
                    first = False
                else:
                    passed = self.passes_on((b, i), hs)
                    if passed is None:
                        return self.use_span((b, i), hs)
                    hs = passed
                i += 1
            else:
                for s in self.cfg.succs[b]:
                    work.append(((s, 0), hs))
        return None

    def passes_on(self, point: Point, hs: frozenset[int]) -> frozenset[int] | None:
        """None if the statement at `point` really uses a holder; else the holders after it
        (a plain move or copy into another reference local passes the loan on)."""
        mentions = [a for a in self.acc.at[point] if a.place.local in hs]
        if not mentions:
            return hs
        b, i = point
        block = self.body.blocks[b]
        stmt = block.statements[i] if i < len(block.statements) else None
        reads = [a for a in mentions if not (a.kind == "write" and not a.place.projection)]
        if not reads:
            return hs - {a.place.local for a in mentions}  # overwritten: holds no more
        plain = all(a.kind in ("move", "copy") and not any(
            isinstance(p, M.Deref) for p in a.place.projection) for a in reads)
        if plain and isinstance(stmt, M.Assign) and isinstance(
                stmt.rvalue, (M.Use, M.Aggregate, M.Cast)) and stmt.place.local in self.slot \
                and not any(isinstance(p, M.Deref) for p in stmt.place.projection):
            return hs | {stmt.place.local}
        return None

    def use_span(self, point: Point, hs: frozenset[int]) -> Span:
        self.returned = False
        for a in self.acc.at[point]:
            if a.place.local in hs and a.kind == "return":
                self.returned = True
            if a.place.local in hs:
                b, i = point
                block = self.body.blocks[b]
                stmt = block.statements[i] if i < len(block.statements) else block.terminator
                # A write through the reference reads best as the whole assignment.
                return stmt.span if a.kind == "write" else a.span
        b, i = point
        block = self.body.blocks[b]
        return (block.statements[i] if i < len(block.statements) else block.terminator).span

    # -- scope ends ------------------------------------------------------------------
    def check_dead(self, point: Point, local: int, brace: Span, holds, live) -> None:
        loans = self.live_loans(holds, live)
        for loan in self.loans:
            if not loans >> loan.index & 1 or loan.place.local != local:
                continue
            name = local_name(self.body, local)
            if name is None:
                continue
            key = ("E0597", loan.index)
            if key in self.reported:
                continue
            self.reported.add(key)
            holders = {self.tracked[k] for k in range(len(self.tracked))
                       if live >> k & 1 and holds[k] >> loan.index & 1}
            later = self.next_use(point, holders, skip_first=False)
            if 0 in holders or self.returned:
                self.sink.error("E0515", f"cannot return reference to local variable `{name}`",
                                loan.span, "returns a reference to data owned by the current "
                                           "function",
                                help="return the value itself instead of a reference to it")
                continue
            labels = [Label(self.body.locals[local].span, f"binding `{name}` declared here"),
                      Label(brace, f"`{name}` dropped here while still borrowed")]
            add(labels, loan.span, later, "borrow later used here")
            self.sink.error("E0597", f"`{name}` does not live long enough", loan.span,
                            "borrowed value does not live long enough", labels=labels,
                            help=f"declare `{name}` in the outer block, so that it lives as "
                                 "long as the reference")


def check_borrows(body: M.Body, cfg: Cfg, acc: Accesses, facts: BindingScopes,
                  sink: DiagnosticSink) -> None:
    BorrowCheck(body, cfg, acc, facts, sink).run()
