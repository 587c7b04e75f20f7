"""OX0009: a barrier or a warp collective under control flow that depends on the thread.

`thread::sync_threads()` must be reached by every thread of the block (or by none), and a
warp collective (`warp::shuffle_*`, `ballot`, `any`, `all`, `redux_sync_*`, which use
the full-warp mask: the registry's `Op` rows with `sync="warp"`) by every lane of the warp. A thread that takes the other side of a
branch never arrives, and the block hangs or computes garbage. So:

1. Taint. Every local gets a level: 0 the same in every thread, 1 the same within a warp
   but not across warps, 2 possibly different in every lane. Sources: the special
   registers by their row's `varies` (`tid.*`, `laneid`, `lanemask_*`, the clocks: 2;
   `warpid`, `active_mask`: 1), atomics' results (2); the level flows
   through arithmetic, casts, aggregates, loads (the address's level: `x[tid]` is 2,
   `x[0]` is 0), calls (the arguments', or what the callee computes from the thread
   index), and implicitly: an assignment executed under a tainted branch gets at least
   the branch's level. `threadIdx.x / 32`, `>> 5` and `threadIdx.x < 32*k` are warp-
   uniform (level 1), assuming blockDim.x is a multiple of 32.
2. Control dependence (post-dominators, with `return` as the exit). A block depends on a
   branch when the branch decides whether it runs. Paths that end in a trap (bounds
   checks, `debug::trap()`) do not count: a trap aborts the launch, it does not leave
   threads waiting. So a barrier after the join of an `if` is fine; one inside it, or
   after an early `return` under a thread-dependent condition, is not. One exception:
   an explicit `return` from the kernel under a warp-uniform condition (level 1) that
   skips only the barrier and what follows it (`if threadIdx.x >= 64 { return; }`):
   whole warps exit, and PTX `exit` releases a barrier that waits only on exited threads.
3. Calls: a device function that reaches a barrier is one (summaries, to a fixpoint over
   the call graph), and a device function whose barrier depends on a parameter makes a
   call with a thread-dependent argument for that parameter an error.

Flow-insensitive over locals: a variable that is thread-dependent anywhere counts as such
everywhere (sound, occasionally conservative).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...device_api.ops import OPS
from ...diagnostics import DiagnosticSink, Label
from ...mir import syntax as M
from ...mir.refs import analyse as analyse_refs
from ...span import Span
from .dataflow import Cfg
from .early_exit import whole_warps_exit
from .lane_index import lane_linear_locals
from .masks import MaskCheck, MaskMismatch

# How an intrinsic varies across threads, and which operations every lane / thread must
# reach, are flags of its row in the device API registry (oxidec/device_api/ops.py).
COLLECTIVES = frozenset(o.name for o in OPS.values() if o.sync == "warp")
MASKED = frozenset(o.name for o in OPS.values() if o.sync == "mask")  # mask: 1st operand
BARRIERS = frozenset(o.name for o in OPS.values() if o.sync == "block")
WARP_UNIFORM_RESULT = frozenset(o.name for o in OPS.values() if o.warp_uniform_result)

# `shuffle(v, src)` / `shuffle_sync(mask, v, src)`: every lane reads lane `src`'s value, so
# the result is the same in the warp when `src` is (the operand index of `src`)
BROADCASTS = {"shuffle": 1, "shuffle_sync": 2}

BLOCK, WARP = 1, 2  # the level that makes a barrier / a warp collective divergent


@dataclass
class Summary:
    ret: int = 0  # taint of the result when the arguments are uniform
    barrier: Span | None = None  # a block barrier it reaches (itself or via a call)
    collective: Span | None = None  # a warp collective it reaches
    # parameter index -> (condition span, barrier span, threshold) when a barrier inside
    # depends on that parameter
    by_param: dict[int, tuple[Span, Span, int]] = field(default_factory=dict)

    def key(self):
        return (self.ret, self.barrier is not None, self.collective is not None,
                tuple(sorted(self.by_param)))


@dataclass
class SyncPoint:
    point: tuple[int, int]
    span: Span
    threshold: int
    kind: str  # "barrier" | "collective" | "call" | "masked" (a collective with a mask)
    callee: str | None = None
    inner: Span | None = None  # the barrier inside the callee
    mask: M.Operand | None = None


@dataclass
class Divergent:
    sync: SyncPoint
    cond_block: int | None  # the branch that decides (None: via an argument)
    via_arg: tuple[int, Span, Span] | None = None  # (param index, callee cond, callee barrier)
    mismatch: MaskMismatch | None = None  # a masked collective: how its mask is wrong


class BodyTaint:
    def __init__(self, body: M.Body, summaries: dict[str, Summary], seeds: dict[int, int]):
        self.body = body
        self.summaries = summaries
        self.cfg = Cfg(body)
        self.refs = analyse_refs(body)
        n = len(body.locals)
        self.level = [0] * n
        self.origin: list[Span | None] = [None] * n
        for local, lv in seeds.items():
            self.level[local] = lv
            self.origin[local] = body.locals[local].span
        self.exact_tidx = self.find_exact_tidx()
        self.implicit: dict[int, int] = {}  # block -> level of the branches deciding it
        self.implicit_origin: dict[int, Span | None] = {}
        self.run()

    # -- values ----------------------------------------------------------------
    def find_exact_tidx(self) -> set[int]:
        return lane_linear_locals(self.body)

    def place(self, place: M.Place) -> tuple[int, Span | None]:
        place = self.refs.resolve(place)
        lv, org = self.level[place.local], self.origin[place.local]
        for proj in place.projection:
            if isinstance(proj, M.Index) and self.level[proj.local] > lv:
                lv, org = self.level[proj.local], self.origin[proj.local]
        return lv, org

    def operand(self, op) -> tuple[int, Span | None]:
        if isinstance(op, (M.Copy, M.Move)):
            return self.place(op.place)
        return 0, None

    def join(self, ops) -> tuple[int, Span | None]:
        best = (0, None)
        for op in ops:
            got = self.operand(op)
            if got[0] > best[0]:
                best = got
        return best

    def rvalue(self, rv, span: Span) -> tuple[int, Span | None]:
        if isinstance(rv, (M.Use, M.Cast, M.UnaryOp, M.Repeat)):
            return self.operand(rv.operand)
        if isinstance(rv, M.BinaryOp):
            lv = self.join((rv.lhs, rv.rhs))
            if lv[0] == 2 and self.warp_uniform(rv):
                return 1, lv[1]
            return lv
        if isinstance(rv, M.Aggregate):
            return self.join(rv.operands)
        if isinstance(rv, M.Intrinsic):
            op = OPS.get(rv.name)
            if op is not None and op.varies:  # a special register: the thread's own value
                return op.varies, span
            lv = self.join(rv.args)
            if rv.name in WARP_UNIFORM_RESULT and lv[0] > 1:
                return 1, lv[1]
            if rv.name in BROADCASTS and lv[0] > 1 and \
                    self.operand(rv.args[BROADCASTS[rv.name]])[0] <= 1:
                return 1, lv[1]  # `shuffle(v, src)` from a warp-uniform lane: a broadcast
            return lv
        if isinstance(rv, (M.Ref, M.Len, M.Discriminant)):
            return self.place(rv.place)
        return 0, None

    def warp_uniform(self, rv: M.BinaryOp) -> bool:
        """threadIdx.x / 32k, threadIdx.x >> (5+), threadIdx.x < 32k: the same in a warp."""
        lhs, rhs = rv.lhs, rv.rhs
        if not (isinstance(lhs, M.Copy) and not lhs.place.projection
                and lhs.place.local in self.exact_tidx and isinstance(rhs, M.Constant)
                and isinstance(rhs.value, int) and not isinstance(rhs.value, bool)):
            return False
        c = rhs.value
        if rv.op == "div":
            return c > 0 and c % 32 == 0
        if rv.op == "shr":
            return c >= 5
        if rv.op in ("lt", "ge"):
            return c % 32 == 0
        if rv.op in ("le", "gt"):
            return (c + 1) % 32 == 0
        return False

    def raise_to(self, local: int, lv: int, org: Span | None) -> bool:
        if lv > self.level[local]:
            self.level[local] = lv
            self.origin[local] = org
            return True
        return False

    def store(self, place: M.Place, lv: int, org: Span | None) -> bool:
        place = self.refs.resolve(place)
        if any(isinstance(p, M.Deref) for p in place.projection):
            return False  # memory: a load at a uniform address reads one value
        for proj in place.projection:
            if isinstance(proj, M.Index) and self.level[proj.local] > lv:
                lv, org = self.level[proj.local], self.origin[proj.local]
        return self.raise_to(place.local, lv, org)

    # -- the fixpoint -------------------------------------------------------------
    def run(self) -> None:
        blocks = self.body.blocks
        for _ in range(50):
            changed = False
            for b in self.cfg.rpo:
                imp = self.implicit.get(b, 0)
                imp_org = self.implicit_origin.get(b) if imp else None
                for stmt in blocks[b].statements:
                    if isinstance(stmt, M.Assign):
                        lv, org = self.rvalue(stmt.rvalue, stmt.span)
                        if imp > lv:
                            lv, org = imp, imp_org
                        changed |= self.store(stmt.place, lv, org)
                    elif type(stmt).__name__ == "AtomicOp" and stmt.dest is not None:
                        changed |= self.store(stmt.dest, 2, stmt.span)
                term = blocks[b].terminator
                if isinstance(term, M.Call):
                    lv, org = self.join(term.args)
                    s = self.summaries.get(term.func)
                    if s is not None and s.ret > lv:
                        lv, org = s.ret, term.span
                    if imp > lv:
                        lv, org = imp, imp_org
                    changed |= self.store(term.destination, lv, org)
            changed |= self.update_implicit()
            if not changed:
                break

    def branch_level(self, a: int) -> tuple[int, Span | None]:
        term = self.body.blocks[a].terminator
        if isinstance(term, M.SwitchInt):
            return self.operand(term.discr)
        return 0, None

    def update_implicit(self) -> bool:
        deps = self.cfg.control_deps if self.any_taint() else {}
        changed = False
        for _ in range(len(self.cfg.rpo) + 1):
            step = False
            for b in self.cfg.rpo:
                best, org = self.implicit.get(b, 0), self.implicit_origin.get(b)
                for a, _s in deps.get(b, ()):
                    lv, o = self.branch_level(a)
                    if self.implicit.get(a, 0) > lv:
                        lv, o = self.implicit[a], self.implicit_origin.get(a)
                    if lv > best:
                        best, org = lv, o
                if best > self.implicit.get(b, 0):
                    self.implicit[b] = best
                    self.implicit_origin[b] = org
                    step = changed = True
            if not step:
                break
        return changed

    def any_taint(self) -> bool:
        return any(self.level)

    # -- barriers ---------------------------------------------------------------------
    def sync_points(self) -> list[SyncPoint]:
        out: list[SyncPoint] = []
        for b in self.cfg.rpo:
            block = self.body.blocks[b]
            for i, stmt in enumerate(block.statements):
                if isinstance(stmt, M.Effect) and stmt.name in BARRIERS:
                    out.append(SyncPoint((b, i), stmt.span, BLOCK, "barrier"))
                elif isinstance(stmt, M.Assign) and isinstance(stmt.rvalue, M.Intrinsic) \
                        and stmt.rvalue.name in COLLECTIVES:
                    out.append(SyncPoint((b, i), stmt.span, WARP, "collective"))
                elif _masked_args(stmt) is not None:
                    mask = _masked_args(stmt)[0]
                    full = isinstance(mask, M.Constant) and mask.value == 0xFFFF_FFFF
                    out.append(SyncPoint((b, i), stmt.span, WARP, "collective" if full
                                         else "masked", mask=mask))
            term = block.terminator
            if isinstance(term, M.Call):
                s = self.summaries.get(term.func)
                if s is not None and s.barrier is not None:
                    out.append(SyncPoint((b, len(block.statements)), term.span, BLOCK, "call",
                                         term.func, s.barrier))
                elif s is not None and s.collective is not None:
                    out.append(SyncPoint((b, len(block.statements)), term.span, WARP, "call",
                                         term.func, s.collective))
        return out

    def controlling(self, b: int, threshold: int) -> int | None:
        """The nearest branch with a level >= threshold that decides whether `b` runs."""
        deps = self.cfg.control_deps
        seen = {b}
        frontier = [b]
        while frontier:
            nxt = []
            for x in frontier:
                for a, _s in deps.get(x, ()):
                    lv = self.branch_level(a)[0]
                    if lv >= threshold and not (threshold == BLOCK and lv == 1
                                                and whole_warps_exit(self, a, b)):
                        return a
                    if a not in seen:
                        seen.add(a)
                        nxt.append(a)
            frontier = nxt
        return None

    def divergent(self) -> list[Divergent]:
        out: list[Divergent] = []
        points = self.sync_points()
        if not points:
            return out
        masks = None
        for sp in points:
            if sp.kind == "masked":
                masks = masks or MaskCheck(self)
                bad = masks.check(sp.point[0], sp.mask)
                if bad is not None:
                    out.append(Divergent(sp, bad.cond_block, mismatch=bad))
        if self.any_taint():
            for sp in points:
                if sp.kind == "masked":
                    continue
                a = self.controlling(sp.point[0], sp.threshold)
                if a is not None:
                    out.append(Divergent(sp, a))
        for sp in points:
            if sp.kind != "call":
                continue
            b, i = sp.point
            term = self.body.blocks[b].terminator
            callee = self.summaries.get(term.func)
            if callee is None or not callee.by_param:
                continue
            for k, arg in enumerate(term.args):
                got = callee.by_param.get(k)
                if got is not None and self.operand(arg)[0] >= got[2]:
                    out.append(Divergent(sp, None, (k, got[0], got[1])))
                    break
        return out


def _masked_args(stmt) -> tuple | None:
    """The operands of a masked collective (mask first), or None."""
    if isinstance(stmt, M.Effect) and stmt.name in MASKED:
        return stmt.args
    if isinstance(stmt, M.Assign) and isinstance(stmt.rvalue, M.Intrinsic) \
            and stmt.rvalue.name in MASKED:
        return stmt.rvalue.args
    return None


def _summaries(program: M.Program) -> dict[str, Summary]:
    summaries = {b.name: Summary() for b in program.bodies if b.kind == "device"}
    devices = [b for b in program.bodies if b.kind == "device"]
    for _ in range(len(devices) + 2):
        before = {n: s.key() for n, s in summaries.items()}
        for body in devices:
            t = BodyTaint(body, summaries, {})
            s = summaries[body.name]
            s.ret = max(s.ret, t.level[0])
            for sp in t.sync_points():
                if sp.kind == "masked":
                    continue  # checked against its own mask where it is, not by callers
                span = sp.inner if sp.kind == "call" else sp.span
                if sp.threshold == BLOCK and s.barrier is None:
                    s.barrier = span
                if sp.threshold == WARP and s.collective is None:
                    s.collective = span
            if s.barrier is None and s.collective is None:
                continue
            plain = {d.sync.span for d in t.divergent()}
            for k, param in enumerate(body.args()):
                if k in s.by_param:
                    continue
                tp = BodyTaint(body, summaries, {param: 2})
                for d in tp.divergent():
                    if d.sync.span not in plain and d.cond_block is not None:
                        cond = tp.body.blocks[d.cond_block].terminator.span
                        inner = d.sync.inner or d.sync.span
                        s.by_param[k] = (cond, inner, d.sync.threshold)
                        break
        if {n: s.key() for n, s in summaries.items()} == before:
            break
    return summaries


def _has_sync(program: M.Program) -> bool:
    for body in program.bodies:
        for block in body.blocks:
            for stmt in block.statements:
                if isinstance(stmt, M.Effect) and stmt.name in BARRIERS or \
                        isinstance(stmt, M.Assign) and isinstance(stmt.rvalue, M.Intrinsic) \
                        and stmt.rvalue.name in COLLECTIVES or _masked_args(stmt):
                    return True
    return False


def check_divergence(program: M.Program, sink: DiagnosticSink
                     ) -> tuple[dict[str, Summary], dict[int, BodyTaint]]:
    """Report divergent barriers; return the call summaries and each body's taint (by
    id(body)), which the race lint reuses."""
    if not _has_sync(program):
        return {}, {}
    summaries = _summaries(program)
    params = {(body.name, k): body.locals[local].name or f"#{k + 1}"
              for body in program.bodies for k, local in enumerate(body.args())}
    taints: dict[int, BodyTaint] = {}
    for body in program.bodies:
        t = taints[id(body)] = BodyTaint(body, summaries, {})
        for d in t.divergent():
            report(t, d, params, sink)
    return summaries, taints


def _shape(t: BodyTaint, a: int, sp: SyncPoint) -> tuple[str, Span | None]:
    """How the branch at `a` keeps threads from `sp`: "loop" (it is the barrier's own loop),
    "return" (its other side leaves the function by a `return`), or "if"."""
    cfg = t.cfg
    after = cfg.reaches(sp.point)
    if (a, len(t.body.blocks[a].statements)) in after:
        return "loop", None
    # The side of the branch from which the barrier is not reached.
    reach_sync = {b for b in cfg.rpo if sp.point in cfg.reaches((b, 0))}
    for s in cfg.succs[a]:
        if s in reach_sync:
            continue
        seen, work = {s}, [s]
        while work:
            b = work.pop()
            term = t.body.blocks[b].terminator
            if isinstance(term, M.Goto) and term.span.text().startswith("return"):
                return "return", term.span
            for n in cfg.succs[b]:
                if n not in seen and n not in reach_sync:
                    seen.add(n)
                    work.append(n)
    return "if", None


def _callee_text(span: Span) -> str:
    text = span.text()
    head = text.split("(", 1)[0].strip()
    return head or text


def report(t: BodyTaint, d: Divergent, params: dict[tuple[str, int], str],
           sink: DiagnosticSink) -> None:
    sp = d.sync
    if d.mismatch is not None:
        report_mask(t, d, sink)
        return
    labels: list[Label] = []
    notes: list[str] = []
    lane = sp.threshold == WARP
    who = "lanes of the warp" if lane else "threads of the block"
    depends = "the lane" if lane else "the thread index"
    if d.via_arg is not None:
        k, cond, inner = d.via_arg
        pname = params.get((sp.callee, k), f"#{k + 1}")
        message = f"`{sp.callee}` waits at a barrier under a condition on its parameter " \
                  f"`{pname}`, and this call passes a value that depends on {depends}"
        primary = f"`{pname}` differs between the {who} here"
        labels.append(Label(cond, f"this condition in `{sp.callee}` depends on `{pname}`"))
        labels.append(Label(inner, "the barrier"))
        help_ = [f"pass `{sp.callee}` a value that is the same for all {who}, or move the "
                 "barrier out of the condition"]
    else:
        term = t.body.blocks[d.cond_block].terminator
        cond = term.span
        lv, origin = t.operand(term.discr)
        if sp.kind == "call":
            message = f"call to `{sp.callee}`, which waits at " \
                      f"`{_callee_text(sp.inner)}`, under a condition that depends on {depends}"
            primary = f"some {who} skip this call, and the barrier in it"
            if sp.inner is not None and sp.inner.file is sp.span.file:
                labels.append(Label(sp.inner, "the barrier"))
        elif sp.kind == "barrier":
            message = "`sync_threads()` under a condition that depends on the thread index"
            primary = "not every thread of the block reaches this barrier"
        else:
            name = _callee_text(sp.span)
            message = f"warp collective `{name}` under a condition that differs between " \
                      "the lanes of a warp"
            primary = "not every lane of the warp executes this"
        differ = "lanes" if lane else "threads"
        labels.append(Label(cond, f"this condition differs between {differ}"))
        if origin is not None and not (cond.start <= origin.start and origin.end <= cond.end) \
                and origin.file is cond.file:
            labels.append(Label(origin, f"this value depends on {depends}"))
        if "get_mut(" in cond.text():
            notes.append("`get_mut` gives `None` to the threads whose index is past the end of "
                         "the slice, so the body of this `if let` runs for some threads only")
        shape, exit_span = _shape(t, d.cond_block, sp)
        if shape == "return":
            if exit_span is not None:
                labels.append(Label(exit_span, "these threads leave here"))
            help_ = ["do not return before a barrier: put the rest of the work under the "
                     "opposite condition instead, and keep the barrier where every thread "
                     "reaches it"]
        elif shape == "loop":
            help_ = [f"the loop runs a different number of times in different threads: give "
                     f"it a trip count that is the same for all {who} (guard the work "
                     "inside instead), or move the barrier out of the loop"]
        elif lane:
            help_ = ["execute it in every lane, before the `if`, and use its result only "
                     "where the condition holds"]
        else:
            help_ = ["move the barrier after the end of the `if`, where every thread of the "
                     "block reaches it"]
    if lane:
        notes.append("warp collectives use the full-warp mask: all 32 lanes must execute "
                     "them together, or the result is undefined")
    else:
        notes.append("every thread of a block must reach the same `sync_threads()`: the "
                     "threads that wait there for one that never comes hang the block")
    sink.error("OX0009", message, sp.span, primary, labels=labels, notes=notes, help=help_)


def _lanes_text(lanes: int) -> str:
    if lanes == 0:
        return "no lane"
    low = (lanes & -lanes).bit_length() - 1
    high = lanes.bit_length() - 1
    if lanes == ((1 << (high + 1)) - 1) ^ ((1 << low) - 1):
        return f"lanes {low}..={high}" if high > low else f"lane {low}"
    return f"the lanes {lanes:#010x}"


def report_mask(t: BodyTaint, d: Divergent, sink: DiagnosticSink) -> None:
    """A masked collective whose mask is not the set of lanes that execute it."""
    sp, bad = d.sync, d.mismatch
    name = _callee_text(sp.span)
    labels: list[Label] = []
    cond = t.body.blocks[d.cond_block].terminator.span if d.cond_block is not None else None
    if bad.why == "constant":
        runs = f"{_lanes_text(bad.lanes)} execute" if cond is not None \
            else "every lane of the warp executes"
        primary = f"{runs} this, but its mask {bad.mask:#010x} names " \
                  f"{_lanes_text(bad.mask)}"
        if cond is not None:
            labels.append(Label(cond, f"this condition lets {_lanes_text(bad.lanes)} through"))
    elif bad.why == "unreadable":
        primary = f"its mask {bad.mask:#010x} names {_lanes_text(bad.mask)}, but which " \
                  "lanes get here depends on values, not only on the lane id"
        labels.append(Label(cond, "this condition differs between lanes"))
    else:
        source = "`active_mask()`" if bad.why == "active_mask" else f"`{bad.why}(..)`"
        primary = f"its mask comes from {source}, read under other conditions than the " \
                  "ones that lead here"
        if cond is not None:
            labels.append(Label(cond, "this condition is not the one the mask was made from"))
    notes = ["the lanes that execute a masked warp collective must be exactly the lanes of "
             "its mask: a lane of the mask that does not arrive hangs the warp, and one that "
             "is not in it gets an undefined result"]
    help_ = ["use a mask that names exactly the lanes of the branch, or compute it from the "
             "same condition before the branch: `let m = warp::ballot(cond); if cond { .. "
             "m .. }`"]
    sink.error("OX0009", f"masked warp collective `{name}` does not match the lanes that "
               "execute it", sp.span, primary, labels=labels, notes=notes, help=help_)
