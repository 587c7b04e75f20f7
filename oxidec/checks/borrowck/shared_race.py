"""OX0010, the `shared_race` lint: within one barrier interval, a write to a shared array
by one thread and a read, by another thread, of an index that may be the same element.

    SUMS[tid] = acc;            // fine: each thread reads back its own element
    let v = SUMS[tid];
    let w = SUMS[tid + 1];      // warning: thread tid+1 writes it, maybe not yet

1. Barrier intervals. A forward pass tags every point with the barriers (or the kernel's
   entry) it can be reached from without crossing another barrier, and with the first
   decision taken at each *uniform* branch on the way (all threads decide those alike,
   so a write inside a uniform loop and a read after the loop's exit, behind the same
   barrier, are not in the same interval). Two accesses can race only if they share a
   tag.
2. Index forms. Each index is put in the form a*threadIdx + b (several axes, lane and
   warp ids, values that are the same for all threads as symbols; constants a, b). A
   value the form cannot express (a load, a product of two variables, a division)
   becomes an opaque symbol: one per thread if it depends on the thread, else shared,
   unless it is reassigned between the two accesses.
3. The question "can thread t write element E while thread t' != t reads E?" becomes a
   set of linear integer constraints: the indices are equal, both are in bounds, the
   threads' positions are within the block (`#[launch_contract(block = ..)]` gives the
   exact shape), and the branch conditions that lead to each access hold (`if tid <
   half { S[tid] += S[tid + half] }` is proved race-free this way). `affine.feasible`
   decides it; the lint warns unless it is infeasible.

What it does not prove (and says so in a note when it matters): indices that are not
affine in the thread position (`S[tid * tid]`, `S[tid % 7]`, `S[idx_from_memory]`),
strides of `step_by` loops, facts from `assert`s, and anything about shared memory
reached through references or raw pointers (`&mut S[i]`, `DynamicSharedArray`). Writes
by two threads to one element are not reported (only write/read pairs), nor accesses
in different device functions.

`#[allow(shared_race)]` on the function (or its module) silences it; `#[deny(shared_race)]`
makes it an error.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import count

from ...mir.visit import rvalue_operands
from ... import types as T
from ...diagnostics import DiagnosticSink, Label
from ...mir import syntax as M
from ...span import Span
from .affine import Lin, eq, feasible, le, lt
from .divergence import BARRIERS, BodyTaint, Summary
from .places import static_temps, user_static_name

LINT = "shared_race"
MAX_TAGS = 32


@dataclass(frozen=True)
class SharedAccess:
    point: tuple[int, int]
    write: bool
    static: str
    indices: tuple  # per dimension: ("local", n) | ("const", c)
    span: Span


@dataclass(frozen=True)
class Tag:
    head: tuple[int, int] | None  # the barrier point (None: the kernel's entry)
    decisions: frozenset | None  # {(branch block, successor)}; None: unknown (matches all)


def _compatible(a: Tag, b: Tag) -> bool:
    if a.head != b.head:
        return False
    if a.decisions is None or b.decisions is None:
        return True
    da = dict(a.decisions)
    return all(da.get(u, s) == s for u, s in b.decisions)


class RaceCheck:
    def __init__(self, body: M.Body, program: M.Program, summaries: dict[str, Summary],
                 level: str, facts, taint: BodyTaint | None, sink: DiagnosticSink):
        self.body, self.program, self.summaries, self.sink = body, program, summaries, sink
        self.facts = facts
        self.given_taint = taint
        self.level = level  # "warn" | "deny"
        self.statics = static_temps(body)
        self.static_tys = {s.name: s.ty for s in program.statics}
        self.accesses = self.find_accesses()

    # -- shared accesses ---------------------------------------------------------
    def shared_index(self, place: M.Place):
        if place.local not in self.statics or not place.projection or \
                not isinstance(place.projection[0], M.Deref):
            return None
        idx = []
        for proj in place.projection[1:]:
            if isinstance(proj, M.Index):
                idx.append(("local", proj.local))
            elif isinstance(proj, M.ConstIndex):
                idx.append(("const", proj.offset))
            else:
                break
        return tuple(idx) if idx else None

    def find_accesses(self) -> list[SharedAccess]:
        out: list[SharedAccess] = []
        for b, block in enumerate(self.body.blocks):
            for i, stmt in enumerate(block.statements):
                if not isinstance(stmt, M.Assign):
                    continue
                for op in rvalue_operands(stmt.rvalue):
                    if isinstance(op, (M.Copy, M.Move)):
                        span = self.facts.span_of(op, stmt.span) if self.facts else stmt.span
                        self.add(out, (b, i), op.place, False, span)
                self.add(out, (b, i), stmt.place, True, stmt.span)
        return out

    def add(self, out, point, place, write, span) -> None:
        idx = self.shared_index(place)
        if idx is not None:
            out.append(SharedAccess(point, write, self.statics[place.local], idx, span))

    # -- barrier intervals ---------------------------------------------------------
    def is_barrier(self, point: tuple[int, int]) -> bool:
        b, i = point
        block = self.body.blocks[b]
        if i < len(block.statements):
            st = block.statements[i]
            return isinstance(st, M.Effect) and st.name in BARRIERS
        term = block.terminator
        if isinstance(term, M.Call):
            s = self.summaries.get(term.func)
            return s is not None and s.barrier is not None
        return False

    def tags(self) -> dict[tuple[int, int], set[Tag]]:
        """Tags reaching each point (before its statement)."""
        blocks = self.body.blocks
        uniform = self.uniform_branches()
        at: dict[tuple[int, int], set[Tag]] = {}
        block_in: dict[int, set[Tag]] = {0: {Tag(None, frozenset())}}
        work = [0]
        while work:
            b = work.pop()
            cur = set(block_in[b])
            n = len(blocks[b].statements)
            for i in range(n + 1):
                p = (b, i)
                at.setdefault(p, set()).update(cur)
                if self.is_barrier(p):
                    cur = {Tag(p, frozenset())}
            for s in self.cfg.succs[b]:
                out = set()
                for t in cur:
                    if b in uniform and t.decisions is not None and \
                            all(u != b for u, _ in t.decisions):
                        if len(t.decisions) < 8:
                            t = Tag(t.head, t.decisions | {(b, s)})
                    out.add(t)
                old = block_in.get(s, set())
                new = _cap(old | out)
                if new != old:
                    block_in[s] = new
                    work.append(s)
        return at

    def uniform_branches(self) -> set[int]:
        out = set()
        for b in self.cfg.rpo:
            term = self.body.blocks[b].terminator
            if isinstance(term, M.SwitchInt) and self.taint.operand(term.discr)[0] == 0:
                out.add(b)
        return out

    # -- index forms -------------------------------------------------------------
    def defs(self) -> dict[int, list]:
        out: dict[int, list] = {}
        for b, block in enumerate(self.body.blocks):
            for i, st in enumerate(block.statements):
                if isinstance(st, M.Assign):
                    out.setdefault(st.place.local, []).append(((b, i), st))
            if isinstance(block.terminator, M.Call):
                out.setdefault(block.terminator.destination.local, []).append(
                    ((b, len(block.statements)), block.terminator))
        return out

    def form(self, local: int, depth: int = 0) -> Lin:
        """The value of `local` as a linear form over thread positions and symbols."""
        key = local
        if key in self.form_cache:
            return self.form_cache[key]
        result = self.opaque(local)
        ds = self.def_map.get(local, [])
        if depth < 24 and len(ds) == 1 and isinstance(ds[0][1], M.Assign) \
                and not ds[0][1].place.projection:
            got = self.rvalue_form(ds[0][1].rvalue, depth)
            if got is not None:
                result = got
        self.form_cache[key] = result
        return result

    def opaque(self, local: int) -> Lin:
        return Lin.var(("sym", local))

    def operand_form(self, op, depth: int) -> Lin | None:
        if isinstance(op, M.Constant):
            if isinstance(op.value, bool) or not isinstance(op.value, int):
                return None
            return Lin.k(op.value)
        if not op.place.projection:
            return self.form(op.place.local, depth + 1)
        return None

    def rvalue_form(self, rv, depth: int) -> Lin | None:
        if isinstance(rv, M.Use):
            return self.operand_form(rv.operand, depth)
        if isinstance(rv, M.Cast) and isinstance(rv.ty, T.IntTy):
            return self.operand_form(rv.operand, depth)
        if isinstance(rv, M.BinaryOp) and rv.op in ("add", "sub", "mul", "shl"):
            a = self.operand_form(rv.lhs, depth)
            b = self.operand_form(rv.rhs, depth)
            if a is None or b is None:
                return None
            if rv.op == "add":
                return a + b
            if rv.op == "sub":
                return a - b
            if rv.op == "mul":
                if b.is_const():
                    return a.scale(b.const)
                if a.is_const():
                    return b.scale(a.const)
                return None
            if b.is_const() and 0 <= b.const < 32:
                return a.scale(2 ** int(b.const))
            return None
        if isinstance(rv, M.Intrinsic) and not rv.args:
            name = rv.name
            if name.startswith("tid."):
                return Lin.var(("tid", name[4:]))
            if name in ("laneid", "warpid") and self.linear_1d:
                return Lin.var(("lane" if name == "laneid" else "warp",))
            if name.startswith(("ntid.", "ctaid.", "nctaid.")):
                if name.startswith("ntid.") and self.block_dims:
                    return Lin.k(self.block_dims["xyz".index(name[-1])])
                return Lin.var(("g", name))
        return None

    # -- the question ------------------------------------------------------------------
    def run(self) -> None:
        writes = [a for a in self.accesses if a.write]
        if not writes or not any(not a.write for a in self.accesses):
            return
        self.taint = self.given_taint or BodyTaint(self.body, self.summaries, {})
        self.cfg = self.taint.cfg
        self.def_map = self.defs()
        self.form_cache: dict[int, Lin] = {}
        self.block_dims = self.body.launch.block if self.body.launch else None
        used = self.used_axes()
        self.axes = [ax for ax in "xyz" if ax in used and not (
            self.block_dims and self.block_dims["xyz".index(ax)] == 1)]
        self.linear_1d = set(self.axes) <= {"x"}
        tags = self.tags()
        self.reach_cache: dict = {}
        reported: set[tuple] = set()
        reads = [a for a in self.accesses if not a.write]
        for r in reads:
            for w in writes:
                if w.static != r.static or (r.span, w.span) in reported:
                    continue
                if not any(_compatible(tw, tr) for tw in tags.get(w.point, ())
                           for tr in tags.get(r.point, ())):
                    continue
                why = self.may_race(w, r)
                if why is not None:
                    reported.add((r.span, w.span))
                    self.report(w, r, why)
                    break

    def used_axes(self) -> set[str]:
        used = set()
        for block in self.body.blocks:
            for st in block.statements:
                if isinstance(st, M.Assign) and isinstance(st.rvalue, M.Intrinsic):
                    if st.rvalue.name.startswith("tid."):
                        used.add(st.rvalue.name[4:])
                    if st.rvalue.name in ("laneid", "warpid"):
                        used.add("x")
        return used

    def reach(self, start, barrier_free: bool, avoid=None) -> set:
        """Points reachable from `start`, not crossing a barrier (if barrier_free) nor
        the point `avoid`."""
        key = (start, barrier_free, avoid)
        if key not in self.reach_cache:
            def blocked(p):
                return p == avoid or (barrier_free and self.is_barrier(p))
            self.reach_cache[key] = self.cfg.reaches(start, blocked)
        return self.reach_cache[key]

    def defined_between(self, local: int, a, b, barrier_free: bool, avoid=None) -> bool:
        """Is `local` (re)defined on some path from point a to point b (that does not
        pass `avoid`)?"""
        ra = self.reach(a, barrier_free, avoid)
        if b not in ra:
            return False
        for p, _st in self.def_map.get(local, ()):
            if p in ra and p != a and p != b and b in self.reach(p, barrier_free, avoid):
                return True
        return False

    def guards(self, point) -> list[tuple[int, int, bool]]:
        """(branch block, condition local, taken-when-true) for the branches leading here."""
        out = []
        deps = self.cfg.control_deps
        seen = set()
        frontier = [point[0]]
        while frontier:
            nxt = []
            for x in frontier:
                for a, s in deps.get(x, ()):
                    if (a, s) in seen or a == x:
                        # a == x: a loop header runs before it decides, so its own
                        # condition says nothing about its first run
                        continue
                    seen.add((a, s))
                    term = self.body.blocks[a].terminator
                    if isinstance(term, M.SwitchInt) and isinstance(term.discr, M.Copy) and \
                            not term.discr.place.projection and term.values == (0,):
                        out.append((a, term.discr.place.local, s != term.targets[0]))
                    nxt.append(a)
            frontier = nxt
        return out

    def condition(self, local: int, truth: bool, depth=0):
        """The comparison a bool local holds, as (Lin, kind) constraints, if affine."""
        ds = self.def_map.get(local, [])
        if depth > 8 or len(ds) != 1 or not isinstance(ds[0][1], M.Assign):
            return None
        rv = ds[0][1].rvalue
        if isinstance(rv, M.Use) and isinstance(rv.operand, M.Copy) and \
                not rv.operand.place.projection:
            return self.condition(rv.operand.place.local, truth, depth + 1)
        if isinstance(rv, M.UnaryOp) and rv.op == "not" and isinstance(rv.operand, M.Copy) \
                and not rv.operand.place.projection:
            return self.condition(rv.operand.place.local, not truth, depth + 1)
        if not isinstance(rv, M.BinaryOp) or rv.op not in ("lt", "le", "gt", "ge", "eq", "ne"):
            return None
        a = self.operand_form(rv.lhs, 0)
        b = self.operand_form(rv.rhs, 0)
        if a is None or b is None:
            return None
        op = rv.op
        if not truth:
            op = {"lt": "ge", "le": "gt", "gt": "le", "ge": "lt", "eq": "ne", "ne": "eq"}[op]
        if op == "lt":
            return [lt(a, b)]
        if op == "le":
            return [le(a, b)]
        if op == "gt":
            return [lt(b, a)]
        if op == "ge":
            return [le(b, a)]
        if op == "eq":
            return [eq(a, b)]
        return None  # `!=`: not a linear constraint

    def may_race(self, w: SharedAccess, r: SharedAccess):
        """None when thread t writing `w` and thread t' != t reading `r` at the same element
        is impossible; else a short reason for the note."""
        fresh = count()
        side_items = {}
        for side, acc in ((1, w), (2, r)):
            forms = []
            for kind, v in acc.indices:
                forms.append(Lin.k(v) if kind == "const" else self.form(v))
            conds = []
            for a, local, truth in self.guards(acc.point):
                c = self.condition(local, truth)
                if c is not None:
                    conds.append((a, c))
            side_items[side] = (acc, forms, conds)

        def symbol(var, side, where, acc) -> object:
            """Name a symbol for one side: shared between the sides when it is the same
            value for every thread and not reassigned in between."""
            if var[0] == "tid":
                return ("tid", var[1], side)
            if var[0] in ("lane", "warp"):
                return (var[0], side)
            if var[0] == "g":
                return var
            local = var[1]
            thread_dep = self.taint.level[local] > 0
            if where is not None:
                # The condition was evaluated at the branch; the access sees the same value
                # unless it is reassigned on the way (without coming back to the branch).
                branch = (where, len(self.body.blocks[where].statements))
                if self.defined_between(local, branch, acc.point, False, avoid=branch):
                    return ("guard", local, side, next(fresh))
            if thread_dep:
                return ("sym", local, side)
            other = r if acc is w else w
            if self.defined_between(local, acc.point, other.point, True) or \
                    self.defined_between(local, other.point, acc.point, True):
                return ("sym", local, side)
            return ("sym", local, 0)

        constraints = []
        sides = {}
        for side in (1, 2):
            acc, forms, conds = side_items[side]
            fs = [f.rename(lambda v, s=side, a=acc: symbol(v, s, None, a)) for f in forms]
            sides[side] = fs
            for where, cs in conds:
                for lin, kind in cs:
                    constraints.append((lin.rename(
                        lambda v, s=side, a=acc, g=where: symbol(v, s, g, a)), kind))
            # in bounds
            ty = self.static_tys.get(acc.static)
            dims = _dims(ty)
            for k, f in enumerate(fs):
                if k < len(dims):
                    constraints.append(le(Lin.k(0), f))
                    constraints.append(le(f, Lin.k(dims[k] - 1)))
        for a, b in zip(sides[1], sides[2]):
            constraints.append(eq(a, b))
        # thread positions, non-negative symbols
        variables = set()
        for lin, _ in constraints:
            variables.update(lin.coeffs)
        for v in variables:
            if v[0] in ("sym", "guard"):
                decl_ty = self.body.locals[v[1]].ty
                if isinstance(decl_ty, T.IntTy) and not decl_ty.signed:
                    constraints.append(le(Lin.k(0), Lin.var(v)))
            elif v[0] == "g" and not v[1].startswith("ctaid"):
                constraints.append(le(Lin.k(1), Lin.var(v)))
        for side in (1, 2):
            for ax in "xyz":
                v = ("tid", ax, side)
                constraints.append(le(Lin.k(0), Lin.var(v)))
                if self.block_dims:
                    constraints.append(le(Lin.var(v), Lin.k(self.block_dims["xyz".index(ax)] - 1)))
                else:
                    constraints.append(lt(Lin.var(v), Lin.var(("g", f"ntid.{ax}"))))
                if ax not in self.axes:
                    constraints.append(eq(Lin.var(v), Lin.k(0)))
            if self.linear_1d:
                lane, warp = ("lane", side), ("warp", side)
                constraints.append(eq(Lin.var(("tid", "x", side)),
                                      Lin.var(warp, 32) + Lin.var(lane)))
                constraints.append(le(Lin.k(0), Lin.var(lane)))
                constraints.append(le(Lin.var(lane), Lin.k(31)))
        # the two threads differ in some axis
        distinct = []
        for ax in self.axes or ["x"]:
            a, b = Lin.var(("tid", ax, 1)), Lin.var(("tid", ax, 2))
            distinct += [lt(a, b), lt(b, a)]
        for d in distinct:
            if feasible(constraints + [d]):
                return self.explain(w, r, side_items[1][1], side_items[2][1])
        return None

    def explain(self, w, r, wforms: list[Lin], rforms: list[Lin]) -> str:
        opaque = [v for f in wforms + rforms for v in f.coeffs
                  if v[0] == "sym" and self.taint.level[v[1]] > 0]
        name = user_static_name(w.static)
        if opaque:
            local = self.body.locals[opaque[0][1]].name
            what = f"`{local}`" if local else "the index"
            return (f"{what} depends on the thread in a way oxidec cannot follow: it is not "
                    "of the form a * threadIdx + b (with a and b the same for every thread), "
                    "so oxidec cannot prove that the element read is not another thread's")
        written = f"{name}{''.join(f'[{self.render(f)}]' for f in wforms)}"
        read = f"{name}{''.join(f'[{self.render(f)}]' for f in rforms)}"
        return (f"`{written}` is written and `{read}` is read: for two different threads "
                "they can be the same element (oxidec checked this with the indices as "
                "a * threadIdx + b and the conditions on the way to each access)")

    def render(self, lin: Lin) -> str:
        def name(v) -> str:
            if v[0] == "tid":
                return f"threadIdx.{v[1]}"
            if v[0] in ("lane", "warp"):
                return {"lane": "lane_id", "warp": "warp_id"}[v[0]]
            if v[0] == "g":
                return {"ntid": "blockDim", "ctaid": "blockIdx", "nctaid": "gridDim"}.get(
                    v[1].split(".")[0], v[1]) + "." + v[1].split(".")[1]
            return self.body.locals[v[1]].name or "_"
        pos, neg = [], []
        for v, c in sorted(lin.coeffs.items(), key=lambda kv: (kv[0][0] != "tid", repr(kv[0]))):
            c = int(c) if c == int(c) else c
            term = name(v) if abs(c) == 1 else f"{abs(c)} * {name(v)}"
            (pos if c > 0 else neg).append(term)
        k = int(lin.const) if lin.const == int(lin.const) else lin.const
        if k > 0:
            pos.append(str(k))
        elif k < 0:
            neg.append(str(-k))
        if not pos and not neg:
            return "0"
        text = " + ".join(pos) if pos else "-" + neg.pop(0)
        for term in neg:
            text += f" - {term}"
        return text

    # -- the warning ---------------------------------------------------------------
    def report(self, w: SharedAccess, r: SharedAccess, why: str) -> None:
        name = user_static_name(w.static)
        labels = [Label(w.span, "written here by one thread")]
        notes = [why,
                 "no `thread::sync_threads()` separates the write from the read, so the read "
                 "may see the element before or after the other thread writes it"]
        if self.level == "warn":
            notes.insert(0, f"`#[warn({LINT})]` on by default")
        help_ = ["put `thread::sync_threads()` between the write and the read, or, if this "
                 f"is intended, allow it with `#[allow({LINT})]` on the function"]
        emit = self.sink.error if self.level == "deny" else self.sink.warning
        emit("OX0010", f"possible data race on shared array `{name}`", r.span,
             "read here by another thread, in the same barrier interval", labels=labels,
             notes=notes, help=help_)


def _dims(ty) -> list[int]:
    dims = []
    while isinstance(ty, (T.SharedArrayTy, T.ArrayTy)):
        dims.append(ty.length)
        ty = ty.elem
    return dims


def _cap(tags: set[Tag]) -> set[Tag]:
    if len(tags) <= MAX_TAGS:
        return tags
    return {Tag(t.head, None) for t in tags}


def check_shared_races(program: M.Program, summaries: dict[str, Summary],
                       taints: dict, facts: dict, sink: DiagnosticSink) -> None:
    if not program.statics:
        return
    for body in program.bodies:
        level = body.lint_levels.get(LINT, "warn")
        if level == "allow":
            continue
        RaceCheck(body, program, summaries, level, facts.get(id(body)), taints.get(id(body)),
                  sink).run()
