"""Moves and initialisation: E0381 (use of a possibly-uninitialised binding), E0382 (use
of a moved value), E0384 (assigning twice to an immutable binding), E0507 (moving out
of a reference).

A forward dataflow over *move paths* (a local and a chain of fields: `_33`, `_33.1`),
as rustc's `MaybeUninitializedPlaces` / `EverInitializedPlaces`. Two bitsets flow:

    U  paths that may be uninitialised here (never assigned, moved out, or out of scope)
    I  paths that may be initialised here

A use of path p is an error when p, an ancestor or a descendant of p is in U; the
message says "moved" when some move reaches the use (found by a backward walk, which
also gives the "value moved here" labels) and "uninitialised" otherwise. An assignment
to an immutable binding is an error when the binding is in I (maybe assigned before):
`let x; x = 1;` is fine, `let x = 0; x = 1;` is not. A `let` inside a loop starts its
binding afresh on every iteration (lowering's `live` facts), so it is not a second
assignment.

Only user-named bindings are reported: compiler temporaries are moved exactly once by
construction.
"""
from __future__ import annotations

from ... import types as T
from ...diagnostics import DiagnosticSink, Label
from ...mir import syntax as M
from .dataflow import Cfg, Worklist
from .facts import BindingScopes
from .report import add
from .places import Access, Accesses, Point, describe, field_prefix, local_name, place_ty


class MovePaths:
    """The move paths of the user-named bindings, numbered for the bitsets. Only those are
    reported, and a path's bits change and are tested only with those of its own local, so
    a compiler temporary's paths (most of a body's locals) are left out: they all map to
    `untracked`, a path with no bits (the bitsets of a long body stay short)."""

    def __init__(self, body: M.Body, accesses: Accesses):
        self.index: dict[tuple, int] = {}
        self.keys: list[tuple] = []
        self.parent: list[int] = []
        self._of: dict[M.Place, tuple[int, str | None]] = {}
        self.tracked = [local_name(body, local) is not None for local in range(len(body.locals))]
        for local in range(len(body.locals)):
            if self.tracked[local]:
                self._add((local,))
        for accs in accesses.at.values():
            for a in accs:
                if self._tracks(a.place.local):
                    fields, _ = field_prefix(a.place)
                    self._add((a.place.local, *fields))
        n = len(self.keys)
        self.untracked = n  # desc and anc 0: no bit is ever set, cleared or tested for it
        self.desc = [1 << i for i in range(n)] + [0]
        self.anc = [0] * (n + 1)
        for i in range(n):
            p = self.parent[i]
            while p >= 0:
                self.desc[p] |= 1 << i
                self.anc[i] |= 1 << p
                p = self.parent[p]

    def _add(self, key: tuple) -> int:
        found = self.index.get(key)
        if found is not None:
            return found
        parent = self._add(key[:-1]) if len(key) > 1 else -1
        self.index[key] = len(self.keys)
        self.keys.append(key)
        self.parent.append(parent)
        return self.index[key]

    def _tracks(self, local: int) -> bool:
        return 0 <= local < len(self.tracked) and self.tracked[local]

    def of(self, place: M.Place) -> tuple[int, str | None]:
        found = self._of.get(place)
        if found is None:
            fields, rest = field_prefix(place)
            path = self.index[(place.local, *fields)] if self._tracks(place.local) \
                else self.untracked
            found = self._of[place] = (path, rest)
        return found

    def root(self, local: int) -> int:
        return self.index[(local,)] if self._tracks(local) else self.untracked


class MoveCheck:
    def __init__(self, body: M.Body, cfg: Cfg, acc: Accesses, facts: BindingScopes,
                 sink: DiagnosticSink):
        self.body, self.cfg, self.acc, self.facts, self.sink = body, cfg, acc, facts, sink
        self.paths = MovePaths(body, acc)
        self.events: dict[Point, list[int]] = {}
        self.live_at: dict[Point, set[int]] = {}
        for b, i, local in facts.live:
            self.events.setdefault((b, i), []).append(local)
            self.live_at.setdefault((b, i), set()).add(local)
        for b, i, local, _ in facts.dead:
            self.events.setdefault((b, i), []).append(local)
        self.reported: set[int] = set()  # locals already reported

    # -- the dataflow ------------------------------------------------------------
    def entry_state(self) -> tuple[int, int]:
        p = self.paths
        init = 0
        for local in self.body.args():
            init |= p.desc[p.root(local)]
        everything = (1 << len(p.keys)) - 1
        return everything & ~init, init

    def block_summary(self, b: int) -> tuple[int, int, int, int]:
        """The block's effect as u' = (u & ku) | au, i' = (i & ki) | ai (every access is a
        bitset update of that form, and such updates compose), so the fixpoint below
        costs a few integer operations per block."""
        p = self.paths
        ku = ki = -1
        au = ai = 0
        n = len(self.body.blocks[b].statements)
        for j in range(n + 1):
            for local in self.events.get((b, j), ()):
                bits = p.desc[p.root(local)]
                au, ku, ai, ki = au | bits, ku, ai & ~bits, ki & ~bits
            for a in self.acc.at[(b, j)]:
                if a.kind == "return" or not p._tracks(a.place.local):
                    continue  # an untracked path's update changes no bit
                path, rest = p.of(a.place)
                if rest is not None or a.kind not in ("write", "move"):
                    continue
                bits = p.desc[path]
                if a.kind == "write":
                    au, ku, ai, ki = au & ~bits, ku & ~bits, ai | bits, ki
                else:
                    au, ku, ai, ki = au | bits, ku, ai & ~bits, ki & ~bits
        return ku, au, ki, ai

    def run(self) -> None:
        ins: dict[int, tuple[int, int]] = {0: self.entry_state()}
        summary = {b: self.block_summary(b) for b in self.cfg.rpo}
        pending = Worklist(self.cfg)
        while pending:
            b = pending.pop()
            ku, au, ki, ai = summary[b]
            u, i = ins[b]
            u, i = (u & ku) | au, (i & ki) | ai
            for s in self.cfg.succs[b]:
                old = ins.get(s)
                new = (u, i) if old is None else (old[0] | u, old[1] | i)
                if new != old:
                    ins[s] = new
                    pending.push(s)
        for b in self.cfg.rpo:
            self.check_block(b, ins[b])

    def check_block(self, b: int, state: tuple[int, int]) -> None:
        """Walk the block from its entry state, reporting as it goes."""
        u, i = state
        n = len(self.body.blocks[b].statements)
        p = self.paths
        for j in range(n + 1):
            for local in self.events.get((b, j), ()):
                bits = p.desc[p.root(local)]
                u |= bits
                i &= ~bits
            for k, a in enumerate(self.acc.at[(b, j)]):
                if p._tracks(a.place.local):  # else `access` changes and reports nothing
                    u, i = self.access(a, (b, j), k, u, i)

    def access(self, a: Access, point: Point, k: int, u: int, i: int) -> tuple[int, int]:
        p = self.paths
        if a.kind == "return":
            return u, i
        path, rest = p.of(a.place)
        if a.kind == "write" and rest is None:
            if i & (p.desc[path] | p.anc[path]):
                self.check_reassign(a, point, k, path)
            return u & ~p.desc[path], i | p.desc[path]
        # Every other access reads the path (or the pointer / array it goes through).
        if u & (p.desc[path] | p.anc[path]):
            self.report_use(a, point, k, path, i)
            bits = p.desc[path] | p.anc[path]
            u &= ~bits  # report once; treat it as initialised from here on
            i |= bits
        if a.kind == "move":
            if rest is None:
                return u | p.desc[path], i & ~p.desc[path]
            if rest == "deref":
                self.report_move_out_of_ref(a)
        return u, i

    # -- backward walks for the labels -------------------------------------------
    def walk_back(self, point: Point, upto: int, local: int, visit) -> None:
        """Visit the accesses before access `upto` of `point`, latest first, along every
        path back to where `local`'s binding starts; `visit(access, point)` returns True
        to stop that path."""
        b, j = point
        for a in reversed(self.acc.at[point][:upto]):
            if visit(a, point):
                return
        entered: set[int] = set()
        work = [(b, j)]  # continue before statement j of block b
        while work:
            b, j = work.pop()
            stopped = local in self.live_at.get((b, j), ())
            k = j - 1
            while not stopped and k >= 0:
                for a in reversed(self.acc.at[(b, k)]):
                    if visit(a, (b, k)):
                        stopped = True
                        break
                stopped = stopped or local in self.live_at.get((b, k), ())
                k -= 1
            if stopped:
                continue
            for pb in self.cfg.preds[b]:
                if pb not in entered and pb in self.cfg.reachable:
                    entered.add(pb)
                    work.append((pb, len(self.body.blocks[pb].statements) + 1))

    def move_sites(self, point: Point, upto: int, path: int) -> list[tuple[Access, Point, bool]]:
        p = self.paths
        related = p.desc[path] | p.anc[path]
        covering = p.anc[path] | (1 << path)
        sites: list[tuple[Access, Point, bool]] = []

        def visit(a: Access, at: Point) -> bool:
            if a.kind not in ("move", "write"):
                return False
            q, rest = p.of(a.place)
            if rest is not None:
                return False
            if a.kind == "move" and (1 << q) & related:
                partial = not (1 << q) & covering
                if all(s[0].span != a.span for s in sites):
                    sites.append((a, at, partial))
                return True
            return a.kind == "write" and bool((1 << q) & covering)

        self.walk_back(point, upto, p.keys[path][0], visit)
        return sites

    def assignments_before(self, point: Point, upto: int, path: int) -> list[tuple[Access, Point]]:
        p = self.paths
        covering = p.anc[path] | (1 << path)
        found: list[tuple[Access, Point]] = []

        def visit(a: Access, at: Point) -> bool:
            if a.kind != "write":
                return False
            q, rest = p.of(a.place)
            if rest is None and (1 << q) & covering:
                if all(f[0].span != a.span for f in found):
                    found.append((a, at))
                return True
            return False

        self.walk_back(point, upto, p.keys[path][0], visit)
        return found

    # -- reports ---------------------------------------------------------------
    def binding_span(self, a: Access, at: Point):
        """The span to show for an assignment: the pattern of a `let` initialiser."""
        decl = self.body.locals[a.place.local].span
        if not a.place.projection and a.span.start <= decl.start and decl.end <= a.span.end:
            return decl
        return a.span

    def report_use(self, a: Access, point: Point, k: int, path: int, i: int) -> None:
        body = self.body
        local = a.place.local
        name = local_name(body, local)
        if name is None:
            return
        if local in self.reported:
            return  # one error per variable: later uses would only repeat it
        self.reported.add(local)
        decl = body.locals[local]
        what = describe(body, M.Place(local, tuple(
            f for f in self.paths.keys[path][1:]))) or name
        sites = self.move_sites(point, k, path)
        if not sites:
            self.report_uninit(a, name, what, bool(i & (self.paths.desc[path]
                                                          | self.paths.anc[path])))
            return
        partial = all(s[2] for s in sites)
        borrow = a.kind in ("borrow", "borrow_mut")
        if partial:
            message = f"{'borrow' if borrow else 'use'} of partially moved value: `{what}`"
            primary = f"value {'borrowed' if borrow else 'used'} here after partial move"
        else:
            message = f"{'borrow' if borrow else 'use'} of moved value: `{what}`"
            primary = f"value {'borrowed' if borrow else 'used'} here after move"
        labels: list[Label] = []
        later = self.cfg.reaches(point)
        for site, at, part in sites:
            text = "value partially moved here" if part else "value moved here"
            if at in later:
                text += ", in previous iteration of loop"
            if site.span == a.span:  # the same code moves it again: a loop (maybe unrolled)
                primary = "value moved here, in previous iteration of loop"
            add(labels, a.span, site.span, text)
        ty = decl.ty
        if not any(s[2] for s in sites):
            add(labels, a.span, decl.span, f"move occurs because `{name}` has type `{ty}`, "
                                           "which does not implement the `Copy` trait")
        notes, help_ = self.move_advice(ty, a, sites)
        self.sink.error("E0382", message, a.span, primary, labels=labels, notes=notes,
                        help=help_)

    def move_advice(self, ty: T.Ty, use: Access, sites) -> tuple[list[str], list[str]]:
        if isinstance(ty, T.ThreadIndexTy):
            notes = ["`ThreadIndex` is neither `Copy` nor `Clone`: `get_mut` and function "
                     "calls take it by value, so each thread can use its index to claim "
                     "its element only once"]
            help_ = ["read the plain index first with `let i = idx.get();` (a `usize`) and "
                     "use `i` after the move"]
            return notes, help_
        if isinstance(ty, T.DisjointSliceTy):
            return (["`DisjointSlice` is neither `Copy` nor `Clone`: passing it by value "
                     "gives it away"], [])
        if isinstance(ty, T.StructTy) and all(T.is_copy(t) for _, t in ty.fields):
            return [], [f"add `#[derive(Clone, Copy)]` to `struct {ty.name}` to copy it "
                        "instead of moving it"]
        return [], []

    def report_uninit(self, a: Access, name: str, what: str, maybe: bool) -> None:
        decl = self.body.locals[a.place.local]
        if maybe:
            message = f"used binding `{name}` is possibly-uninitialized"
            primary = f"`{what}` used here but it is possibly-uninitialized"
        else:
            message = f"used binding `{name}` isn't initialized"
            primary = f"`{what}` used here but it isn't initialized"
        self.sink.error("E0381", message, a.span, primary,
                        labels=[Label(decl.span, "binding declared here but left "
                                                 "uninitialized")],
                        help=f"give `{name}` a value on every path before this use, e.g. "
                             f"`let {name}: {decl.ty} = ...;`")

    def check_reassign(self, a: Access, point: Point, k: int, path: int) -> None:
        body = self.body
        local = a.place.local
        decl = body.locals[local]
        name = local_name(body, local)
        if name is None or decl.mutable or a.place.projection:
            return
        if local in body.args():
            self.sink.error("E0384", f"cannot assign to immutable argument `{name}`", a.span,
                            "cannot assign to immutable argument",
                            labels=[Label(decl.span, "this parameter is not `mut`")],
                            help=f"consider making this binding mutable: `mut {name}`")
            return
        labels: list[Label] = []
        for f, at in self.assignments_before(point, k, path):
            add(labels, a.span, self.binding_span(f, at), f"first assignment to `{name}`")
        if all(lab.span != decl.span for lab in labels):
            labels.append(Label(decl.span, f"`{name}` declared here, without `mut`"))
        self.sink.error("E0384", f"cannot assign twice to immutable variable `{name}`", a.span,
                        "cannot assign twice to immutable variable", labels=labels,
                        help=f"consider making this binding mutable: `mut {name}`")

    def report_move_out_of_ref(self, a: Access) -> None:
        body = self.body
        what = describe(body, a.place)
        if what is None:
            return
        ty = place_ty(body, a.place)
        # Which pointer is the value behind? The type at the last deref.
        base = M.Place(a.place.local, a.place.projection[:max(
            j for j, pr in enumerate(a.place.projection) if isinstance(pr, M.Deref))])
        bty = place_ty(body, base)
        kind = "a mutable reference" if isinstance(bty, T.RefTy) and bty.mutable else \
            "a shared reference" if isinstance(bty, T.RefTy) else "a raw pointer"
        hint = "(`r.get()` gives a `ThreadIndex`'s plain `usize`)" if isinstance(
            ty, T.ThreadIndexTy) else "(a field of it, or a copy of one)"
        self.sink.error("E0507", f"cannot move out of `{what}` which is behind {kind}",
                        a.span, f"move occurs because `{what}` has type `{ty}`, which does not "
                                "implement the `Copy` trait",
                        help=f"use the value through the reference instead of moving it out "
                             f"{hint}")


def check_moves(body: M.Body, cfg: Cfg, acc: Accesses, facts: BindingScopes,
                sink: DiagnosticSink) -> None:
    MoveCheck(body, cfg, acc, facts, sink).run()
