"""Body emission: one MIR Body -> the text of one `.entry` or `.func`.

Blocks are laid out in reverse postorder (unreachable ones dropped); a branch to the
next block is left out. Every failing `Assert` branches to one `trap` block at the end of
the function, off the hot path. Parameters are loaded in a prologue before the first
block's label, so MIR that jumps back to block 0 does not reload them.
"""
from __future__ import annotations

from contextlib import contextmanager

from ..mir import syntax as mir
from ..types import BOOL, U32, USIZE, PtrTy
from . import abi, bulk
from .atomics import emit_atomic
from ..mir.cfg import postorder, successors
from .fusion import plan_fusion
from .instrs import EFFECTS, INT_COMPARE, instr, nan_test
from .intrinsics import EFFECTS_WITH_OPERANDS
from .places import PlaceAccess, RegPlace, Val
from .predicate import EXIT, MAX_INSTRUCTIONS, is_memory_load, plan_regions, speculate, unguardable
from ..mir.typeof import place_ty
from .regalloc import RegisterFile, memory_locals
from .rvalues import emit_rvalue
from .spaces import GENERIC, SpaceAnalysis
from .types import PtxEmitError, arith, immediate, is_thin_pointer, leaf_types, memory
from .vprintf import BUFFER, emit_printf


class FunctionEmitter(PlaceAccess):
    def __init__(self, module, body: mir.Body, index: int) -> None:
        self.module = module
        self.body = body
        self.index = index
        self.regs = RegisterFile()
        self.memlocals = memory_locals(body) | abi.param_memory(body)
        self.spaces = SpaceAnalysis(body, self.memlocals, module.static_spaces,
                                    module.readonly_nc)
        self.plan = plan_fusion(body, self.memlocals)
        self.lines: list[str] = []
        self.leaves: dict[int, list[Val]] = {}
        self.whole_locals: dict[int, RegPlace] = {}  # resolve() of a local in registers
        self.bases: dict[int, Val] = {}
        self.targets: set[str] = set()  # labels something branches to
        self.trap_used = False
        self.last_loc = None
        self.pending_loc = None
        self.printf_bytes = 0  # size of the function's vprintf argument buffer
        self.regions = {}  # head block -> predicate.Region (planned in `run`)
        self.predicated: set[int] = set()  # blocks emitted inside a region, not on their own
        self.guard: str | None = None  # the predicate every emitted instruction carries
        self.guarded = 0  # instructions emitted under a guard; loads among them; a refusal
        self.guarded_loads = 0
        self.guard_refused = False
        self.guarded_at: list[int] = []  # indices in self.lines of the guarded instructions

    # -- services for places/rvalues ------------------------------------------

    def emit(self, line: str) -> None:
        line = nan_test(line)  # a float compared with itself: `testp` (instrs.py says why)
        guarded = False
        if self.guard is not None:
            line, guarded = self.guarded_line(line)
        if self.pending_loc is not None:
            if self.pending_loc != self.last_loc:
                self.lines.append("\t.loc\t%d %d %d" % self.pending_loc)
                self.last_loc = self.pending_loc
            self.pending_loc = None
        if guarded:
            self.guarded_at.append(len(self.lines))
        self.lines.append("\t" + line)

    def tmp(self, ty) -> str:
        return self.regs.new(ty)

    def tmp_u32(self) -> str:
        return self.regs.new(U32)

    def local_leaves(self, local: int) -> list[Val]:
        if local not in self.leaves:
            ty = self.body.locals[local].ty
            self.leaves[local] = [Val(self.regs.new(leaf), leaf, self.spaces.space(local, i))
                                  for i, leaf in enumerate(leaf_types(ty))]
        return self.leaves[local]

    def local_base(self, local: int) -> Val:
        return self.bases[local]

    def static_space(self, name: str) -> str:
        return self.module.static_spaces.get(name, GENERIC)

    def static_symbol(self, name: str) -> str:
        return self.module.static_symbol(name)

    # -- the function -----------------------------------------------------------

    def run(self) -> list[str]:
        """The function's body lines, between its `{` and `}`."""
        self.prologue()
        order = self.layout()
        self.regions = plan_regions(self.body, order)
        for pos, b in enumerate(order):
            if b in self.predicated:
                continue
            following = self.next_block(order, pos)
            self.block(b, following)
            if b in self.regions and self.predicate_region(self.regions[b], following):
                if self.regions[b].join == EXIT:
                    self.ret()
                else:
                    self.goto(self.regions[b].join, self.next_block(order, pos))
        if self.trap_used:
            self.lines += ["", f"{self.trap_label()}:"]
            self.emit("trap;")
        speculate(self.lines, self.guarded_at)
        body_lines = [line for line in self._with_labels()]
        decls = ["\t" + d for d in self.regs.declarations()]
        decls += ["\t" + m.declaration() for m in self.memlocals.values() if m.space == "local"]
        if self.printf_bytes:
            decls.append(f"\t.local .align 8 .b8 \t{BUFFER}[{self.printf_bytes}];")
        return decls + [""] + body_lines

    def next_block(self, order: list[int], pos: int) -> int | None:
        """The block laid out after order[pos] (predicated blocks are not laid out)."""
        predicated = self.predicated
        for k in range(pos + 1, len(order)):  # not a slice of the rest: once per block
            if order[k] not in predicated:
                return order[k]
        return None

    def _with_labels(self):
        for line in self.lines:
            if line.startswith("\x00"):  # a block label marker
                label = line[1:]
                if label in self.targets:
                    yield ""
                    yield f"{label}:"
            else:
                yield line

    def layout(self) -> list[int]:
        """Reachable blocks in reverse postorder, so that a block's preferred successor
        comes right after it and needs no branch: the `otherwise` (true) side of a
        switch, the success side of an assert. Loop bodies follow their headers and
        loop exits come after the loop."""
        return postorder(0, self._visit_order)[::-1]

    def _visit_order(self, b: int) -> list[int]:
        """Successors in DFS order: the one visited last lands right after b."""
        term = self.body.blocks[b].terminator
        if isinstance(term, mir.SwitchInt):
            return list(reversed(term.targets)) + [term.otherwise]
        return list(successors(term))

    def label(self, b: int) -> str:
        return f"$L__BB{self.index}_{b}"

    def trap_label(self) -> str:
        return f"$L__BB{self.index}_trap"

    def branch(self, b: int, guard: str = "") -> None:
        self.targets.add(self.label(b))
        self.emit(guard + instr("bra", self.label(b)))

    def loc(self, span) -> None:
        """Line info for the next instruction (written only if one follows)."""
        where = self.module.location(span)
        if where is not None:
            self.pending_loc = where

    # -- prologue -----------------------------------------------------------------

    def prologue(self) -> None:
        self.loc(self.body.span)
        for local, mem in self.memlocals.items():
            base = self.regs.new(USIZE)
            self.emit(instr("mov.u64", base, mem.symbol))
            if mem.space == GENERIC:  # a kernel parameter, where the host put it
                self.module.min_version = max(self.module.min_version, "7.7", key=float)
                self.emit(instr("cvta.param.u64", base, base))
            self.bases[local] = Val(base, PtrTy(mem.ty, True), mem.space)
        if self.body.kind == "kernel":
            self.load_kernel_params()
        else:
            self.load_device_params()

    def load_kernel_params(self) -> None:
        for local, params in abi.kernel_params(self.body):
            leaves = [(p.name, off, leaf) for p in params for off, leaf in p.leaves]
            into = self._param_destinations(local)
            values = [self.load_kernel_leaf(name, off, leaf, dst)
                      for (name, off, leaf), dst in zip(leaves, into)]
            if local in self.memlocals and self.memlocals[local].space == "local":
                self.write(mir.Place(local), values)

    def _param_destinations(self, local: int) -> list[str]:
        """Parameters load straight into the local's registers (temporaries if the
        local lives in memory)."""
        if local in self.memlocals:
            return [self.tmp(leaf) for leaf in leaf_types(self.body.locals[local].ty)]
        return [v.text for v in self.local_leaves(local)]

    def load_kernel_leaf(self, name: str, off: int, leaf, dst: str) -> Val:
        src = f"[{abi.offset_address(name, off)}]"
        if leaf == BOOL:
            byte = self.tmp_u32()
            self.emit(instr("ld.param.u8", byte, src))
            self.emit(instr("setp.ne.b32", dst, byte, "0"))
            return Val(dst, BOOL)
        if not is_thin_pointer(leaf):
            self.emit(instr(f"ld.param.{memory(leaf)}", dst, src))
            return Val(dst, leaf)
        r = self.tmp(leaf)
        self.emit(instr(f"ld.param.{memory(leaf)}", r, src))
        self.emit(instr("cvta.to.global.u64", dst, r))
        return Val(dst, leaf, "global")

    def load_device_params(self) -> None:
        sig = self.module.signature(self.body.name)
        params = iter(sig.params)
        for local in self.body.args():
            values = []
            into = self._param_destinations(local)
            for leaf, dst in zip(leaf_types(self.body.locals[local].ty), into):
                name, _ = next(params)
                abi.load_param(self, dst, name, leaf)
                values.append(Val(dst, leaf, GENERIC if is_thin_pointer(leaf) else None))
            if local in self.memlocals:
                self.write(mir.Place(local), values)

    # -- blocks -------------------------------------------------------------------

    def block(self, b: int, following: int | None) -> None:
        self.lines.append("\x00" + self.label(b))
        self.statements(b)
        block = self.body.blocks[b]
        if b in self.regions:
            return  # the branch is written by `predicate_region` or `branch_around`
        with self.located(block.terminator.span):
            self.terminator(block.terminator, following)

    def statements(self, b: int) -> None:
        # `located`'s rule without a context manager per statement (a tenth of emit's time)
        stmt = None
        try:
            for s, stmt in enumerate(self.body.blocks[b].statements):
                self.statement(b, s, stmt)
        except PtxEmitError as err:
            if err.span is not None:
                raise
            raise PtxEmitError(f"in `{self.body.name}`: {err.message}", stmt.span) from None

    # -- predicated regions (predicate.py) ----------------------------------------

    def predicate_region(self, region, following: int | None) -> bool:
        """Write the region's blocks as guarded instructions (True), or, if they cannot or
        should not be, the head's branch as usual (False): the caller then lays the
        region's blocks out as ordinary blocks."""
        saved = (len(self.lines), set(self.targets), self.trap_used, self.last_loc,
                 self.pending_loc)
        term = self.body.blocks[region.head].terminator
        with self.located(term.span):
            self.loc(term.span)
            if self._guarded_blocks(region):
                self.predicated.update(region.blocks)
                return True
        n, targets, trap_used, last_loc, pending_loc = saved
        del self.lines[n:]
        self.guarded_at = [i for i in self.guarded_at if i < n]
        self.targets, self.trap_used = targets, trap_used
        self.last_loc, self.pending_loc = last_loc, pending_loc
        with self.located(term.span):
            self.terminator(term, following)
        return False

    def _guarded_blocks(self, region) -> bool:
        cond = self.scalar(self.operand(region.cond))
        if cond.imm:
            return False
        incoming: dict[int, list[str]] = {b: [] for b in region.blocks}
        incoming[region.join] = []  # (EXIT too: nothing is guarded by it)
        on_true, on_false = self.tmp(BOOL), self.tmp(BOOL)
        self.emit(instr("mov.pred", on_true, cond.text))  # fresh: the region may reassign it
        self.emit(instr("not.pred", on_false, cond.text))
        incoming[region.on_true].append(on_true)
        incoming[region.on_false].append(on_false)
        self.guarded = self.guarded_loads = 0
        self.guard_refused = False
        for b in region.blocks:
            guard = incoming[b][0]
            for other in incoming[b][1:]:
                merged = self.tmp(BOOL)
                self.emit(instr("or.pred", merged, guard, other))
                guard = merged
            self.guard = guard
            try:
                self.statements(b)
            finally:
                self.guard = None
            term = self.body.blocks[b].terminator
            with self.located(term.span):
                self.loc(term.span)
                for target, pred in self.guarded_edges(term, guard):
                    incoming[target].append(pred)
        return (not self.guard_refused and self.guarded_loads > 0
                and self.guarded <= MAX_INSTRUCTIONS)

    def guarded_edges(self, term, guard: str) -> list[tuple[int, str]]:
        """(target, predicate of taking that edge) for a region block's terminator (a goto
        or a switch on a bool: predicate.py)."""
        if isinstance(term, mir.Goto):
            return [(term.target, guard)]
        if isinstance(term, mir.Return):
            return [(EXIT, guard)]
        cond = self.scalar(self.operand(term.discr))
        on_true, on_false = term.otherwise, term.targets[0]
        if cond.imm:
            return [(on_true if cond.text == "1" else on_false, guard)]
        yes, no = self.tmp(BOOL), self.tmp(BOOL)
        self.emit(instr("and.pred", yes, guard, cond.text))
        self.emit(instr("and.pred", no, guard, "!" + cond.text))
        return [(on_true, yes), (on_false, no)]

    def guarded_line(self, line: str) -> tuple[str, bool]:
        """`line` under the current guard (combined with a guard it already has), and
        whether it is a guarded instruction."""
        text = line.strip()
        if text.startswith("//") or text.startswith("{") or text.startswith("}") \
                or text.startswith("."):
            return line, False
        if unguardable("\t" + line):
            self.guard_refused = True
            return line, False
        self.guarded += 1
        self.guarded_loads += is_memory_load(line)
        if text.startswith("@"):
            own, rest = text.split(None, 1)
            both = self.tmp(BOOL)
            self.lines.append("\t" + instr("and.pred", both, self.guard, own[1:]))
            return f"@{both} {rest}", False
        return f"@{self.guard} {line}", True

    @contextmanager
    def located(self, span):
        """Errors name the function and carry the span of the statement being emitted."""
        try:
            yield
        except PtxEmitError as err:
            if err.span is not None:
                raise
            raise PtxEmitError(f"in `{self.body.name}`: {err.message}", span) from None

    def statement(self, b: int, s: int, stmt) -> None:
        if isinstance(stmt, mir.Nop):
            return
        self.loc(stmt.span)
        if isinstance(stmt, mir.Effect):
            self.effect(stmt)
            return
        if isinstance(stmt, mir.AtomicOp):
            emit_atomic(self, stmt)
            return
        ty = place_ty(self.body, stmt.place)
        if isinstance(stmt.rvalue, mir.Repeat):
            dest = self.resolve(stmt.place)
            if bulk.is_bulk_fill(stmt.rvalue, dest):
                bulk.fill(self, stmt.rvalue, dest)
                return
        if not leaf_types(ty):
            return  # unit: nothing to compute (rvalues have no side effects)
        dest = self.resolve(stmt.place)
        hint = None
        if isinstance(dest, RegPlace) and dest.single() is not None:
            hint = [v.text for v in dest.single()]
        values = emit_rvalue(self, stmt.rvalue, ty, hint)
        self.write_place(dest, values)

    def effect(self, stmt: mir.Effect) -> None:
        if stmt.name == "printf":
            self.module.uses_vprintf = True
            emit_printf(self, stmt)
            return
        if stmt.name in EFFECTS_WITH_OPERANDS:
            EFFECTS_WITH_OPERANDS[stmt.name](self, stmt)
            return
        if stmt.name not in EFFECTS:
            raise PtxEmitError(f"unsupported effect `{stmt.name}`")
        self.emit(EFFECTS[stmt.name])

    # -- terminators ----------------------------------------------------------

    def terminator(self, term, following: int | None) -> None:
        self.loc(term.span)
        if isinstance(term, mir.Goto):
            self.goto(term.target, following)
        elif isinstance(term, mir.SwitchInt):
            self.switch(term, following)
        elif isinstance(term, mir.Assert):
            self.assertion(term, following)
        elif isinstance(term, mir.Return):
            self.ret()
        elif isinstance(term, mir.Call):
            self.call(term)
            self.goto(term.target, following)
        elif isinstance(term, mir.Unreachable):
            self.emit("trap;")
        else:
            raise PtxEmitError(f"unsupported terminator {type(term).__name__}")

    def goto(self, target: int, following: int | None) -> None:
        if target != following:
            self.branch(target)

    def switch(self, term: mir.SwitchInt, following: int | None) -> None:
        discr = self.scalar(self.operand(term.discr))
        cases = list(zip(term.values, term.targets))
        if discr.imm:
            value = int(discr.text, 0)
            self.goto(dict(cases).get(value, term.otherwise), following)
            return
        if discr.ty == BOOL:
            table = dict(cases)
            on_false = table.get(0, term.otherwise)
            on_true = next((t for v, t in cases if v != 0), term.otherwise)
            if on_true == following:
                self.branch(on_false, f"@!{discr.text} ")
            else:
                self.branch(on_true, f"@{discr.text} ")
                self.goto(on_false, following)
            return
        for value, target in cases:
            p = self.tmp(BOOL)
            self.emit(instr(f"setp.{INT_COMPARE['eq']}.{arith(discr.ty)}", p, discr.text,
                            immediate(value, discr.ty)))
            self.branch(target, f"@{p} ")
        self.goto(term.otherwise, following)

    def assertion(self, term: mir.Assert, following: int | None) -> None:
        cond = self.scalar(self.operand(term.cond))
        message = " ".join(term.message.split()) or "assertion failed"
        self.emit(f"// assert: {message}")
        if cond.imm:
            if (cond.text == "1") != term.expected:
                self.trap_used = True
                self.targets.add(self.trap_label())
                self.emit(instr("bra", self.trap_label()))
                return
        else:
            guard = f"@!{cond.text} " if term.expected else f"@{cond.text} "
            self.trap_used = True
            self.emit(guard + instr("bra", self.trap_label()))
        self.goto(term.target, following)

    def ret(self) -> None:
        if self.body.kind == "device":
            sig = self.module.signature(self.body.name)
            values = self.read(mir.Place(0)) if sig.returns else []
            for (off, leaf), v in zip(sig.returns, values):
                if v is not None:
                    abi.store_param(self, abi.offset_address("func_retval0", off), v, leaf)
        self.emit("ret;")

    def call(self, term: mir.Call) -> None:
        callee = self.module.signature(term.func)
        args = [v for op in term.args for v in self.operand(op)]
        if len(args) != len(callee.params):
            raise PtxEmitError(f"call of `{term.func}` with {len(args)} leaves, "
                               f"expected {len(callee.params)}")
        dest = self.resolve(term.destination) if callee.returns else None
        direct = isinstance(dest, RegPlace) and dest.single() is not None
        if direct:  # results load straight into the destination's registers
            results = [v.text for v in dest.single()]
        else:
            results = [self.tmp(leaf) for _, leaf in callee.returns]
        abi.emit_call(self, callee, args, results)
        values = [Val(r, leaf, GENERIC if is_thin_pointer(leaf) else None)
                  for r, (_, leaf) in zip(results, callee.returns)]
        if dest is not None:
            self.write_place(dest, values)
