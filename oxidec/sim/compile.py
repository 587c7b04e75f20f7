"""MIR of one kernel -> a flat control-flow graph of closures over lane vectors, in two steps:

1. *Layout*: the kernel body and, for every `Call` site, a fresh copy (frame) of the callee
   with its own locals; the flat blocks are then numbered in a weak topological order
   (order.py), so that "run the lowest block first" reconverges lanes at joins and loop
   exits. Device calls become plain jumps (arguments are assigned to the callee's parameter
   locals; the callee's `Return` assigns the destination and jumps to the call's target), so
   barriers and warp collectives inside device functions need nothing special. Recursion is
   rejected. Blocks are split after every `sync_threads` effect: the first part ends in a
   barrier whose release jumps to the rest.
2. *Compile*: every statement becomes `fn(x)` and every terminator `fn(x) -> outcome`, where
   `x` is the executing Batch (machine.py) and the outcome is a block id for all active
   lanes, an int32 array of block ids (one per active lane), EXIT or WAIT (at a barrier).

Places compile to plans (plans.py): `LocalPlan` reads/writes (part of) a local's lanes,
`MemPlan` computes an address per lane and loads/stores through `Memory`. Unsupported
constructs compile to a closure that raises `SimError` when (and only when) it runs.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import types as T
from ..mir import syntax as M
from ..span import Span
from . import halves, ops
from .errors import LaneFault, SimError, format_span
from ..mir.layout import field_slot, fields_of, flat_operands
from .intrinsics import INTRINSICS, sim_op
from .layout import (FAT, align_of, canon, field_offsets, is_fat, scalar_dtype, size_of, tree_map,
                     zeros)
from .order import weak_topological_order
from .plans import (LocalPlan, MemPlan, constant_fn, elem_of, is_barrier, project, raiser,
                    tag_plan)

EXIT = -1
WAIT = -2


@dataclass
class FlatBlock:
    stmts: list
    spans: list[Span]
    term: object  # fn(x) -> outcome
    span: Span | None  # the terminator's (or the barrier's) span
    barrier_target: int = -1  # for a block that ends at a barrier: where the release goes
    grid_barrier: bool = False  # that barrier is `grid::sync()`: every block of the launch


@dataclass
class FlatKernel:
    name: str
    body: M.Body
    blocks: list[FlatBlock]
    local_tys: list[T.Ty]
    local_ctys: list[T.Ty | None]
    shared_offsets: dict[str, int]  # shared static -> byte offset in a block's shared memory
    shared_static_bytes: int
    global_statics: dict[str, T.Ty]  # non-shared statics (zero-initialised per launch)
    has_barrier: bool
    uses_shared: bool  # static shared arrays or dynamic shared memory are referenced
    entry: int = 0  # the kernel's first block
    barrier_targets: np.ndarray = field(default=None)
    grid_barriers: np.ndarray = field(default=None)  # per block: ends at `grid::sync()`
    strings: list[str] = field(default_factory=list)  # the program's printf C formats
    global_inits: dict[str, tuple] = field(default_factory=dict)  # name: (bytes|None, mutable)


class Frame:
    def __init__(self, body: M.Body, base: int, ret):
        self.body = body
        self.base = base
        self.ret = ret  # None for the kernel; (caller Frame, Call terminator) for a callee
        self.seg_ids: list[list[int]] = []
        self.callees: dict[int, Frame | str] = {}  # block -> callee frame, or an error


def compile_kernel(program: M.Program, name: str) -> FlatKernel:
    return _Compiler(program, name).run()


class _Compiler:
    def __init__(self, program: M.Program, name: str):
        self.program = program
        self.bodies = {b.name: b for b in program.bodies}
        self.statics = {s.name: s for s in program.statics}
        body = self.bodies.get(name)
        if body is None:
            kernels = ", ".join(sorted(b.name for b in program.bodies if b.kind == "kernel"))
            raise SimError(f"no kernel `{name}` in the program (kernels: {kernels or 'none'})")
        if body.kind != "kernel":
            raise SimError(f"`{name}` is a #[{body.kind}] function, not a kernel")
        self.kernel = body
        self.local_tys: list[T.Ty] = []
        self.frames: list[Frame] = []
        self.nblocks = 0
        self.shared_offsets: dict[str, int] = {}
        self.global_statics: dict[str, T.Ty] = {}
        self.uses_shared = False
        self.has_barrier = False

    # -- layout -------------------------------------------------------------------
    def run(self) -> FlatKernel:
        self.layout_statics()
        self.layout(self.kernel, None, ())
        self.renumber()
        blocks: list[FlatBlock | None] = [None] * self.nblocks
        for frame in self.frames:
            self.compile_frame(frame, blocks)
        ctys = []
        for ty in self.local_tys:
            try:
                ctys.append(canon(ty))
            except SimError:
                ctys.append(None)
        fk = FlatKernel(self.kernel.name, self.kernel, blocks, self.local_tys, ctys,
                        self.shared_offsets, self._shared_bytes, self.global_statics,
                        self.has_barrier, self.uses_shared, self.entry)
        fk.barrier_targets = np.array([max(b.barrier_target, 0) for b in blocks], dtype=np.int32)
        fk.grid_barriers = np.array([b.grid_barrier for b in blocks], dtype=bool)
        fk.strings = list(self.program.strings)
        fk.global_inits = {st.name: (st.init, st.mutable) for st in self.program.statics
                           if st.name in self.global_statics}
        return fk

    def renumber(self) -> None:
        """Give the flat blocks their final ids: positions in a weak topological order, so
        that the machine's "lowest block first" reconverges lanes (see order.py)."""
        succ: list[list[int]] = [[] for _ in range(self.nblocks)]
        for frame in self.frames:
            for j, bb in enumerate(frame.body.blocks):
                ids = frame.seg_ids[j]
                for a, b in zip(ids, ids[1:]):
                    succ[a].append(b)
                succ[ids[-1]].extend(self._successors(frame, j, bb.terminator))
        order = weak_topological_order(succ, 0)
        final = [0] * self.nblocks
        for pos, b in enumerate(order):
            final[b] = pos
        for frame in self.frames:
            frame.seg_ids = [[final[b] for b in ids] for ids in frame.seg_ids]
        self.entry = final[0]

    def _successors(self, frame: Frame, j: int, term) -> list[int]:
        nblocks = len(frame.body.blocks)

        def first(t) -> list[int]:
            return [frame.seg_ids[t][0]] if isinstance(t, int) and 0 <= t < nblocks else []
        if isinstance(term, (M.Goto, M.Assert)):
            return first(term.target)
        if isinstance(term, M.SwitchInt):
            return [b for t in tuple(term.targets) + (term.otherwise,) for b in first(t)]
        if isinstance(term, M.Call):
            callee = frame.callees.get(j)
            return [callee.seg_ids[0][0]] if isinstance(callee, Frame) else []
        if isinstance(term, M.Return) and frame.ret is not None:
            caller, call = frame.ret
            t = call.target
            return [caller.seg_ids[t][0]] if 0 <= t < len(caller.body.blocks) else []
        return []

    def layout(self, body: M.Body, ret, stack: tuple[str, ...]) -> Frame:
        frame = Frame(body, len(self.local_tys), ret)
        self.frames.append(frame)
        self.local_tys.extend(d.ty for d in body.locals)
        stack = stack + (body.name,)
        for j, bb in enumerate(body.blocks):
            nseg = 1 + sum(1 for s in bb.statements if is_barrier(s))
            frame.seg_ids.append(list(range(self.nblocks, self.nblocks + nseg)))
            self.nblocks += nseg
            term = bb.terminator
            if isinstance(term, M.Call):
                callee = self.bodies.get(term.func)
                if callee is None:
                    frame.callees[j] = f"call to unknown function `{term.func}`"
                elif callee.kind != "device":
                    frame.callees[j] = f"call to `{term.func}`, which is not a #[device] function"
                elif callee.name in stack:
                    frame.callees[j] = ("recursive device calls are not supported by the "
                                        f"simulator ({' -> '.join(stack + (callee.name,))})")
                elif len(term.args) != callee.arg_count:
                    frame.callees[j] = (f"`{term.func}` takes {callee.arg_count} arguments, "
                                        f"{len(term.args)} given")
                else:
                    frame.callees[j] = self.layout(callee, (frame, term), stack)
        return frame

    def layout_statics(self) -> None:
        """Shared statics referenced by the kernel or its callees, in Program.statics order."""
        used: set[str] = set()
        seen: set[str] = set()
        todo = [self.kernel]
        while todo:
            body = todo.pop()
            if body.name in seen:
                continue
            seen.add(body.name)
            for bb in body.blocks:
                for s in bb.statements:
                    if isinstance(s, M.Assign):
                        if isinstance(s.rvalue, M.StaticRef):
                            used.add(s.rvalue.name)
                        elif isinstance(s.rvalue, M.Intrinsic) \
                                and s.rvalue.name == "dynamic_shared":
                            self.uses_shared = True
                if isinstance(bb.terminator, M.Call) and bb.terminator.func in self.bodies:
                    todo.append(self.bodies[bb.terminator.func])
        off = 0
        for st in self.program.statics:
            if st.name not in used:
                continue
            if st.space == "shared":
                self.uses_shared = True
                if isinstance(st.ty, T.SliceTy):  # dynamic shared memory
                    continue
                cty = canon(st.ty)
                a = max(align_of(cty), 16, getattr(st.ty, "align", 0))
                off = (off + a - 1) // a * a
                self.shared_offsets[st.name] = off
                off += size_of(cty)
            else:
                self.global_statics[st.name] = st.ty
        self._shared_bytes = (off + 15) // 16 * 16

    # -- blocks -------------------------------------------------------------------
    def compile_frame(self, frame: Frame, blocks: list) -> None:
        for j, bb in enumerate(frame.body.blocks):
            ids = frame.seg_ids[j]
            segments: list[list] = [[]]
            barriers: list[M.Effect] = []
            for s in bb.statements:
                if is_barrier(s):
                    barriers.append(s)
                    segments.append([])
                elif not isinstance(s, M.Nop):
                    segments[-1].append(s)
            for k, seg in enumerate(segments):
                stmts = [self.statement(frame, s) for s in seg]
                spans = [s.span for s in seg]
                if k < len(barriers):
                    self.has_barrier = True
                    blocks[ids[k]] = FlatBlock(stmts, spans, lambda x: WAIT, barriers[k].span,
                                               ids[k + 1], barriers[k].name == "grid_sync")
                else:
                    term = self.terminator(frame, j, bb.terminator)
                    blocks[ids[k]] = FlatBlock(stmts, spans, term, bb.terminator.span)

    def where(self, frame: Frame, span: Span | None) -> str:
        loc = f" at {format_span(span)}" if span is not None else ""
        return f"in `{frame.body.name}`{loc}"

    def statement(self, frame: Frame, s):
        try:
            if isinstance(s, M.Assign):
                dest = self.place(frame, s.place)
                value = self.rvalue(frame, s.rvalue, dest.ty)
                write = dest.write

                def assign(x):
                    write(x, value(x))
                return assign
            if isinstance(s, M.Effect):
                return self.effect(frame, s)
            if isinstance(s, M.AtomicOp):
                return self.atomic(frame, s)
            raise SimError(f"unknown statement {s!r}")
        except SimError as e:
            return raiser(f"{e} ({self.where(frame, getattr(s, 'span', None))})")
        except Exception as e:  # malformed MIR: report it where it is
            return raiser(f"cannot simulate {s!r}: {type(e).__name__}: {e} "
                           f"({self.where(frame, getattr(s, 'span', None))})")

    def effect(self, frame: Frame, s: M.Effect):
        if sim_op(s.name) == "noop":  # a fence, nanosleep: only the operands are evaluated
            fns = [self.operand(frame, a)[0] for a in s.args]

            def noop(x):
                for f in fns:
                    f(x)
            return noop
        if s.name == "printf":
            fns = [self.operand(frame, a)[0] for a in s.args]

            def printf(x):
                x.printf(s, [f(x) for f in fns])
            return printf
        if (impl := INTRINSICS.get(sim_op(s.name))) is not None:  # `warp_sync`, a store
            fns, tys = zip(*(self.operand(frame, a) for a in s.args)) if s.args else ((), ())
            return lambda x: impl(x, [f(x) for f in fns], list(tys), None)
        raise SimError(f"effect `{s.name}` is not supported by the simulator")

    def atomic(self, frame: Frame, s: M.AtomicOp):
        """An atomic: the active lanes apply it one after another in linear thread order
        (Memory.atomic_rmw), which is one of the orders the GPU may pick; ordering and scope
        need nothing more here, as the simulator runs one statement at a time for all."""
        ptr, pty = self.operand(frame, s.ptr)
        if not isinstance(pty, (T.PtrTy, T.RefTy)) or is_fat(pty):
            raise SimError(f"atomic through a value of type `{pty}`")
        dt = scalar_dtype(canon(pty.inner))
        if dt is None or dt.kind not in "iuf":
            raise SimError(f"atomic on a value of type `{pty.inner}`")
        fns = [self.operand(frame, a)[0] for a in s.args]
        write = self.place(frame, s.dest).write if s.dest is not None else None
        op = s.op
        work = halves.atomic_work_dtype(dt, op, pty.inner)

        def atomic(x):
            addr = ptr(x)
            vals = [np.asarray(f(x)).astype(dt, copy=False).view(work) for f in fns]
            if op == "store":  # lanes storing to one address: the last lane's value stays
                last = addr.size - 1 - np.unique(addr[::-1], return_index=True)[1]
                x.mem.store_scalar(work, addr[last], vals[0][last], x.lanes[last])
                return
            if op == "load":
                old = x.mem.load_scalar(work, addr, x.lanes)
            elif op == "cas":
                old = x.mem.atomic_rmw(work, addr, vals[1], x.lanes, "cas", vals[0])
            else:
                old = x.mem.atomic_rmw(work, addr, vals[0], x.lanes, op)
            write(x, old.view(dt))
        return atomic

    def terminator(self, frame: Frame, j: int, term):
        try:
            return self._terminator(frame, j, term)
        except SimError as e:
            return raiser(f"{e} ({self.where(frame, getattr(term, 'span', None))})")
        except Exception as e:
            return raiser(f"cannot simulate {term!r}: {type(e).__name__}: {e} "
                           f"({self.where(frame, getattr(term, 'span', None))})")

    def _terminator(self, frame: Frame, j: int, term):
        block_id = lambda t: frame.seg_ids[t][0]  # noqa: E731
        if isinstance(term, M.Goto):
            t = block_id(term.target)
            return lambda x: t
        if isinstance(term, M.SwitchInt):
            return self.switch(frame, term, block_id)
        if isinstance(term, M.Return):
            if frame.ret is None:
                return lambda x: EXIT
            caller, call = frame.ret
            target = caller.seg_ids[call.target][0]
            ret_ty = frame.body.locals[0].ty
            if canon(ret_ty) == canon(T.UNIT):
                return lambda x: target
            src = self.place(frame, M.Place(0))
            dest = self.place(caller, call.destination)
            read, write = src.read, dest.write

            def ret(x):
                write(x, read(x))
                return target
            return ret
        if isinstance(term, M.Call):
            callee = frame.callees[j]
            if isinstance(callee, str):
                raise SimError(callee)
            fns = [self.operand(frame, a)[0] for a in term.args]
            params = [self.place(callee, M.Place(k + 1)).write for k in range(len(fns))]
            entry = callee.seg_ids[0][0]

            def call(x):
                vals = [f(x) for f in fns]
                for write, v in zip(params, vals):
                    write(x, v)
                return entry
            return call
        if isinstance(term, M.Assert):
            cond = self.operand(frame, term.cond)[0]
            expected, message, target = bool(term.expected), term.message, block_id(term.target)

            def check(x):
                c = cond(x)
                bad = c != expected
                if bad.any():
                    raise LaneFault(message, positions=np.flatnonzero(bad))
                return target
            return check
        if isinstance(term, M.Unreachable):
            def unreachable(x):
                raise LaneFault("entered unreachable code", positions=np.arange(x.n))
            return unreachable
        raise SimError(f"unknown terminator {term!r}")

    def switch(self, frame: Frame, term: M.SwitchInt, block_id):
        discr, ty = self.operand(frame, term.discr)
        dt = scalar_dtype(canon(ty))
        if dt is None:
            raise SimError(f"switchInt on a value of type `{ty}`")
        values = []
        for v in term.values:
            if dt.kind == "b":
                values.append(np.bool_(bool(v)))
            elif dt.kind in "iu":
                values.append(dt.type(T.wrap_int(int(v), T.IntTy(dt.itemsize * 8, dt.kind == "i"))))
            else:
                values.append(dt.type(v))
        targets = [block_id(t) for t in term.targets]
        otherwise = block_id(term.otherwise)
        table: dict = {}
        for v, t in zip(values, targets):  # the first matching arm wins
            table.setdefault(v.item(), t)
        arms = list(zip(values, targets))[::-1]

        def switch(x):
            d = discr(x)
            d0 = d[0]
            if (d == d0).all():  # uniform: no per-lane targets
                return table.get(d0.item(), otherwise)
            out = np.full(d.shape[0], otherwise, dtype=np.int32)
            for v, t in arms:
                out[d == v] = t
            return out
        return switch

    # -- places ---------------------------------------------------------------------
    def place(self, frame: Frame, place: M.Place):
        g = frame.base + place.local
        ty = frame.body.locals[place.local].ty
        plan = LocalPlan(g, ty)
        mem = None
        for proj in place.projection:
            if mem is None:
                if isinstance(proj, M.Field):
                    plan = plan.field(field_slot(ty, proj.index, proj.variant), project(ty, proj))
                    ty = plan.ty
                elif isinstance(proj, (M.Index, M.ConstIndex)):
                    if isinstance(ty, (T.ArrayTy, T.SharedArrayTy)):
                        plan = plan.index(self.index_fn(frame, proj), ty.length, ty.elem)
                        ty = plan.ty
                    elif is_fat(ty):  # indexing a slice value: through its data pointer
                        mem = MemPlan(plan, True, T.SliceTy(elem_of(ty)))
                        mem = mem.index(self.index_fn(frame, proj))
                        ty = mem.ty
                    else:
                        raise SimError(f"cannot index into a value of type `{ty}`")
                elif isinstance(proj, M.Deref):
                    inner = project(ty, proj)
                    mem = MemPlan(plan, is_fat(ty), inner)
                    ty = inner
                else:
                    raise SimError(f"unknown projection {proj!r}")
            else:
                if isinstance(proj, M.Field):
                    slot = field_slot(ty, proj.index, proj.variant)
                    ty = project(ty, proj)
                    mem = mem.offset(field_offsets(canon(mem.ty))[slot], ty)
                elif isinstance(proj, (M.Index, M.ConstIndex)):
                    mem = mem.index(self.index_fn(frame, proj))
                    ty = mem.ty
                elif isinstance(proj, M.Deref):
                    inner = project(ty, proj)
                    mem = mem.deref(is_fat(ty), inner)
                    ty = inner
                else:
                    raise SimError(f"unknown projection {proj!r}")
        return mem if mem is not None else plan

    def index_fn(self, frame: Frame, proj):
        if isinstance(proj, M.ConstIndex):
            return proj.offset
        return LocalPlan(frame.base + proj.local, frame.body.locals[proj.local].ty).read

    # -- operands and rvalues ---------------------------------------------------------
    def operand(self, frame: Frame, op):
        if isinstance(op, M.Constant):
            return constant_fn(op.value, op.ty), op.ty
        if isinstance(op, (M.Copy, M.Move)):
            plan = self.place(frame, op.place)
            return plan.read, plan.ty
        raise SimError(f"unknown operand {op!r}")

    def rvalue(self, frame: Frame, rv, dest_ty: T.Ty):
        if isinstance(rv, M.Use):
            return self.operand(frame, rv.operand)[0]
        if (half := halves.rvalue(rv, lambda o: self.operand(frame, o))) is not None:
            return half  # f16 / bf16 arithmetic, negation and casts
        if isinstance(rv, M.BinaryOp):
            fa, fb = self.operand(frame, rv.lhs)[0], self.operand(frame, rv.rhs)[0]
            op = rv.op
            binary = ops.binary
            return lambda x: binary(op, fa(x), fb(x))
        if isinstance(rv, M.UnaryOp):
            f = self.operand(frame, rv.operand)[0]
            op = rv.op
            return lambda x: ops.unary(op, f(x))
        if isinstance(rv, M.Cast):
            f, src = self.operand(frame, rv.operand)
            dst = rv.ty
            cast = ops.cast
            return lambda x: cast(f(x), src, dst)
        if isinstance(rv, M.Ref):
            plan = self.place(frame, rv.place)
            address = plan.address
            if canon(dest_ty) == FAT and isinstance(plan.ty, (T.ArrayTy, T.SharedArrayTy)):
                n = plan.ty.length  # unsizing `&[T; N]` to `&[T]`
                return lambda x: (address(x), np.full(x.n, n, dtype=np.uint64))
            return address
        if isinstance(rv, M.Len):
            return self.length(frame, rv.place)
        if isinstance(rv, M.Discriminant):
            return tag_plan(self.place(frame, rv.place)).read
        if isinstance(rv, M.Aggregate):
            return self.aggregate(frame, rv)
        if isinstance(rv, M.Repeat):
            f = self.operand(frame, rv.operand)[0]
            count = rv.count

            def repeat(x):
                def rep(a):
                    return np.repeat(a[:, None], count, axis=1)
                return tree_map(rep, f(x))
            return repeat
        if isinstance(rv, M.Intrinsic):
            impl = INTRINSICS.get(sim_op(rv.name))
            if impl is None:
                raise SimError(f"intrinsic `{rv.name}` is not supported by the simulator")
            compiled = [self.operand(frame, a) for a in rv.args]
            fns = [f for f, _ in compiled]
            tys = [t for _, t in compiled]
            return lambda x: impl(x, [f(x) for f in fns], tys, dest_ty)
        if isinstance(rv, M.StaticRef):
            return self.static_ref(rv, dest_ty)
        raise SimError(f"unknown rvalue {rv!r}")

    def length(self, frame: Frame, place: M.Place):
        plan = self.place(frame, place)
        ty = plan.ty
        if isinstance(ty, (T.ArrayTy, T.SharedArrayTy)):
            n = ty.length
            return lambda x: np.full(x.n, n, dtype=np.uint64)
        if is_fat(ty):
            read = plan.read
            return lambda x: read(x)[1]
        if isinstance(ty, T.SliceTy) and isinstance(plan, MemPlan):
            locate = plan.locate

            def slice_len(x):
                meta = locate(x)[1]
                if meta is None:
                    raise SimError("the length of this slice is unknown")
                return meta
            return slice_len
        raise SimError(f"`Len` of a place of type `{ty}`")

    def aggregate(self, frame: Frame, rv: M.Aggregate):
        fns = [self.operand(frame, o)[0] for o in rv.operands]
        ty = rv.ty
        cty = canon(ty)
        if isinstance(ty, T.EnumTy):  # tag and every variant's fields; undefined ones are 0
            parts = [(self.operand(frame, o)[0] if o is not None else None, canon(f))
                     for o, f in zip(flat_operands(rv), fields_of(ty))]
            return lambda x: tuple(p(x) if p else zeros(c, x.n) for p, c in parts)
        if isinstance(cty, T.ArrayTy):
            if not fns:
                return lambda x: zeros(cty, x.n)
            def array(x):  # noqa: E306
                parts = [f(x) for f in fns]
                return tree_map(lambda *leaves: np.stack(leaves, axis=1), *parts)
            return array
        if isinstance(cty, T.TupleTy):
            if len(fns) != len(cty.elems):
                raise SimError(f"aggregate of `{ty}` with {len(fns)} operands")
            return lambda x: tuple(f(x) for f in fns)
        raise SimError(f"aggregate of type `{ty}`")

    def static_ref(self, rv: M.StaticRef, dest_ty: T.Ty):
        st = self.statics.get(rv.name)
        if st is None:
            raise SimError(f"unknown static `{rv.name}`")
        fat = canon(dest_ty) == FAT
        length = getattr(st.ty, "length", 0)
        if st.space == "shared":
            if isinstance(st.ty, T.SliceTy):
                def dyn(x):
                    addr = x.shared_address(x.dynamic_shared_offset)
                    if fat:
                        elem = size_of(canon(st.ty.elem)) or 1
                        return addr, np.full(x.n, x.dynamic_shared_bytes // elem, np.uint64)
                    return addr
                return dyn
            off = self.shared_offsets[rv.name]

            def shared(x):
                addr = x.shared_address(off)
                return (addr, np.full(x.n, length, dtype=np.uint64)) if fat else addr
            return shared
        name = rv.name

        def global_static(x):
            addr = np.full(x.n, x.launch.static_address(name), dtype=np.uint64)
            return (addr, np.full(x.n, length, dtype=np.uint64)) if fat else addr
        return global_static
