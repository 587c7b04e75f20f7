"""The loop passes (passes/loops.py, licm, check_elim, bounds_hoist, address_reduce,
strength_reduce, loop_rotate): golden MIR before/after on hand-built bodies, what they
must leave alone, and random kernels whose simulated result must not change."""
from __future__ import annotations

import copy
import random
import textwrap
from pathlib import Path

import numpy as np
import pytest

from oxidec import driver
from oxidec.diagnostics import CompileError
from oxidec.mir import pretty_body, verify_body
from oxidec.mir.syntax import (
    Assert, Assign, BasicBlock, BinaryOp, Body, Cast, Constant, ConstIndex, Copy, Deref, Effect,
    Goto, Index, Intrinsic, LaunchContract, LaunchInfo, Len, LocalDecl, Place, Ref, Return,
    SwitchInt, Use,
)
from oxidec.passes import PASSES, optimize_program
from oxidec.passes.address_reduce import address_reduce
from oxidec.passes.bounds_hoist import bounds_hoist
from oxidec.passes.check_elim import check_elim
from oxidec.passes.dead_code import dead_code
from oxidec.passes.licm import licm
from oxidec.passes.loop_rotate import loop_rotate
from oxidec.passes.loop_unroll import loop_unroll
from oxidec.mir.cfg import Dominators, find_loops, loop_exits
from oxidec.passes.loops import LoopFacts, basic_ivs
from oxidec.passes.strength_reduce import strength_reduce
from oxidec.span import DUMMY_SPAN as S
from oxidec.types import BOOL, F32, U32, UNIT, USIZE, DisjointSliceTy, RefTy, SliceTy

# ---------------------------------------------------------------------------
# Builders


def body(args, locals_, blocks, *, block_shape=None) -> Body:
    decls = [LocalDecl(UNIT, None, True, S)]
    decls += [LocalDecl(ty, nm, False, S) for ty, nm in args]
    decls += [LocalDecl(ty, nm, nm is None, S) for ty, nm in locals_]
    launch = LaunchInfo(contract=LaunchContract(block_shape, None, ())) if block_shape else None
    return Body("k", "kernel", len(args), decls, blocks, S, launch=launch)


def pl(local, *proj) -> Place:
    return Place(local, tuple(proj))


def cp(local, *proj) -> Copy:
    return Copy(pl(local, *proj))


def k(v, ty=USIZE) -> Constant:
    return Constant(v, ty)


def let(dest, rv) -> Assign:
    return Assign(dest if isinstance(dest, Place) else Place(dest), rv, S)


def bb(*stmts, term) -> BasicBlock:
    return BasicBlock(list(stmts), term)


def goto(t) -> Goto:
    return Goto(t, S)


def if_(c, then, else_) -> SwitchInt:
    return SwitchInt(c, (0,), (else_,), then, S)


def check(c, target) -> Assert:
    return Assert(c, True, "index out of bounds", target, S)


SLICE = RefTy(SliceTy(F32), False)
OUT = DisjointSliceTy(F32)


def row_dot(*, extra_body=()) -> Body:
    """`for k in 0..n { acc += a[row * n + k] * b[k * n + col] }; out[0] = acc`, as lowered:
    _1 a, _2 b, _3 out, _4 n, _5 row, _6 col, _7 acc, _8 k."""
    return body(
        [(SLICE, "a"), (SLICE, "b"), (OUT, "out"), (USIZE, "n"), (USIZE, "row"), (USIZE, "col")],
        [(F32, "acc"), (USIZE, None), (BOOL, None), (USIZE, None), (USIZE, None),  # _7 .. _11
         (USIZE, None), (BOOL, None), (USIZE, None), (USIZE, None), (USIZE, None),  # _12 .. _16
         (BOOL, None), (F32, None), (F32, None), (RefTy(F32, True), None)],          # _17 .. _20
        [
            bb(let(7, Use(k(0.0, F32))), let(8, Use(k(0))), term=goto(1)),
            bb(let(9, BinaryOp("lt", cp(8), cp(4))), term=if_(cp(9), 2, 5)),
            bb(let(10, BinaryOp("mul", cp(5), cp(4))), let(11, BinaryOp("add", cp(10), cp(8))),
               let(12, Len(pl(1))), let(13, BinaryOp("lt", cp(11), cp(12))),
               term=check(cp(13), 3)),
            bb(let(14, BinaryOp("mul", cp(8), cp(4))), let(15, BinaryOp("add", cp(14), cp(6))),
               let(16, Len(pl(2))), let(17, BinaryOp("lt", cp(15), cp(16))),
               term=check(cp(17), 4)),
            bb(let(18, Use(cp(1, Deref(), Index(11)))), let(19, Use(cp(2, Deref(), Index(15)))),
               let(18, BinaryOp("mul", cp(18), cp(19))), let(7, BinaryOp("add", cp(7), cp(18))),
               *extra_body, let(8, BinaryOp("add", cp(8), k(1))), term=goto(1)),
            bb(let(20, Ref(pl(3, Deref(), ConstIndex(0)), True)), let(pl(20, Deref()), Use(cp(7))),
               term=Return(S)),
        ])


def blocks(b: Body) -> str:
    """The body's blocks (after verifying it), unindented."""
    verify_body(b)
    text = pretty_body(b)
    return textwrap.dedent(text[text.index("    bb0:"):text.rindex("}")])


def golden(s: str) -> str:
    return textwrap.dedent(s).lstrip("\n")


ROW_DOT_TAIL = """
    bb5: {
        _20 = &mut (*_3)[0];
        (*_20) = copy _7;
        return;
    }
"""

# ---------------------------------------------------------------------------
# Analysis


def test_dominators_loops_and_induction_variables():
    b = row_dot()
    doms = Dominators(b)
    assert [doms.idom[i] for i in range(6)] == [0, 0, 1, 2, 3, 1]
    assert doms.dominates(1, 4) and not doms.dominates(4, 1) and not doms.dominates(2, 5)
    (loop,) = find_loops(b, doms)
    assert (loop.header, loop.blocks, loop.latches, loop_exits(b, loop)) == \
        (1, {1, 2, 3, 4}, [4], [(1, 5)])
    facts = LoopFacts(b, loop)
    assert facts.written == {7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19}
    assert facts.invariant_operand(cp(4)) and not facts.invariant_operand(cp(8))
    ivs = basic_ivs(b, loop, facts)
    assert list(ivs) == [8] and ivs[8].step == k(1) and (ivs[8].update.block,
                                                          ivs[8].update.index) == (4, 4)


def test_nested_loops_are_found_innermost_first():
    # bb1: outer head; bb2: inner head; bb3: inner body; bb4: outer latch
    b = body([(USIZE, "n")], [(USIZE, "i"), (USIZE, "j"), (BOOL, None), (BOOL, None)], [
        bb(let(2, Use(k(0))), term=goto(1)),
        bb(let(4, BinaryOp("lt", cp(2), cp(1))), let(3, Use(k(0))), term=if_(cp(4), 2, 5)),
        bb(let(5, BinaryOp("lt", cp(3), cp(1))), term=if_(cp(5), 3, 4)),
        bb(let(3, BinaryOp("add", cp(3), k(1))), term=goto(2)),
        bb(let(2, BinaryOp("add", cp(2), k(1))), term=goto(1)),
        bb(term=Return(S)),
    ])
    inner, outer = find_loops(b)
    assert (inner.header, inner.blocks, inner.depth, inner.parent) == (2, {2, 3}, 2, outer)
    assert (outer.header, outer.blocks, outer.depth) == (1, {1, 2, 3, 4}, 1)


# ---------------------------------------------------------------------------
# Loop-invariant code motion


def test_licm_hoists_invariant_arithmetic_and_lengths():
    b = row_dot()
    assert licm(b)
    assert blocks(b) == golden("""
        bb0: {
            _7 = const 0.0_f32;
            _8 = const 0_usize;
            _10 = Mul(copy _5, copy _4);
            _12 = Len(_1);
            _16 = Len(_2);
            goto -> bb1;
        }

        bb1: {
            _9 = Lt(copy _8, copy _4);
            switchInt(copy _9) -> [0: bb5, otherwise: bb2];
        }

        bb2: {
            _11 = Add(copy _10, copy _8);
            _13 = Lt(copy _11, copy _12);
            assert(copy _13, "index out of bounds") -> [success: bb3];
        }

        bb3: {
            _14 = Mul(copy _8, copy _4);
            _15 = Add(copy _14, copy _6);
            _17 = Lt(copy _15, copy _16);
            assert(copy _17, "index out of bounds") -> [success: bb4];
        }

        bb4: {
            _18 = copy (*_1)[_11];
            _19 = copy (*_2)[_15];
            _18 = Mul(copy _18, copy _19);
            _7 = Add(copy _7, copy _18);
            _8 = Add(copy _8, const 1_usize);
            goto -> bb1;
        }
    """) + "\n" + golden(ROW_DOT_TAIL)
    assert not licm(b)


def test_licm_leaves_loads_collectives_effects_traps_and_user_variables():
    # in a loop: a load with an invariant index, a shuffle of invariant values, a division
    # by a variable, a barrier, and a user variable computed from invariants
    b = body([(SLICE, "a"), (U32, "x"), (U32, "d"), (USIZE, "n")],
             [(USIZE, "i"), (BOOL, None), (F32, None), (U32, None), (U32, None), (U32, None),
              (U32, "user")], [
        bb(let(5, Use(k(0))), term=goto(1)),
        bb(let(6, BinaryOp("lt", cp(5), cp(4))), term=if_(cp(6), 2, 3)),
        bb(let(7, Use(cp(1, Deref(), ConstIndex(0)))),
           let(8, Intrinsic("shuffle_xor", (cp(2), k(1, U32)))),
           let(9, BinaryOp("div", cp(2), cp(3))),
           Effect("sync_threads", (), S),
           let(10, BinaryOp("mul", cp(2), cp(2))),
           let(11, Use(cp(10))),
           let(5, BinaryOp("add", cp(5), k(1))), term=goto(1)),
        bb(term=Return(S)),
    ])
    before = blocks(b)
    assert licm(b)
    after = blocks(b)
    assert "_10 = Mul(copy _2, copy _2);\n    goto -> bb1;" in after  # only that moved
    assert after.count("\n    _") == before.count("\n    _")
    for kept in ("_7 = copy (*_1)[0];", "_8 = @shuffle_xor(", "_9 = Div(", "sync_threads();",
                 "_11 = copy _10;"):
        assert kept in after.split("bb2: {")[1]


# ---------------------------------------------------------------------------
# Bounds-check hoisting


def test_bounds_hoist_versions_the_loop():
    b = row_dot()
    licm(b)
    assert bounds_hoist(b)
    dead_code(b)
    assert blocks(b) == golden("""
        bb0: {
            _7 = const 0.0_f32;
            _8 = const 0_usize;
            _10 = Mul(copy _5, copy _4);
            _12 = Len(_1);
            _16 = Len(_2);
            _21 = Le(copy _4, copy _8);
            _22 = Sub(copy _4, const 1_usize);
            _23 = Add(copy _22, copy _10);
            _24 = Ge(copy _23, copy _22);
            _25 = Lt(copy _23, copy _12);
            _26 = BitAnd(copy _24, copy _25);
            _27 = BitOr(copy _4, copy _22);
            _28 = Shr(copy _27, const 32_usize);
            _29 = Eq(copy _28, const 0_usize);
            _30 = Mul(copy _22, copy _4);
            _31 = Add(copy _30, copy _6);
            _32 = Ge(copy _31, copy _30);
            _33 = Lt(copy _31, copy _16);
            _34 = BitAnd(copy _29, copy _32);
            _35 = BitAnd(copy _34, copy _33);
            _36 = BitAnd(copy _26, copy _35);
            _37 = BitOr(copy _21, copy _36);
            switchInt(copy _37) -> [0: bb6, otherwise: bb1];
        }

        bb1: {
            _9 = Lt(copy _8, copy _4);
            switchInt(copy _9) -> [0: bb5, otherwise: bb2];
        }

        bb2: {
            _11 = Add(copy _10, copy _8);
            goto -> bb3;
        }

        bb3: {
            _14 = Mul(copy _8, copy _4);
            _15 = Add(copy _14, copy _6);
            goto -> bb4;
        }

        bb4: {
            _18 = copy (*_1)[_11];
            _19 = copy (*_2)[_15];
            _18 = Mul(copy _18, copy _19);
            _7 = Add(copy _7, copy _18);
            _8 = Add(copy _8, const 1_usize);
            goto -> bb1;
        }
    """) + "\n" + golden(ROW_DOT_TAIL) + "\n" + golden("""
        bb6: {
            _38 = Lt(copy _8, copy _4);
            switchInt(copy _38) -> [0: bb5, otherwise: bb7];
        }

        bb7: {
            _39 = Add(copy _10, copy _8);
            _40 = Ge(copy _39, copy _12);
            assert(!copy _40, "index out of bounds") -> [success: bb8];
        }

        bb8: {
            _41 = Mul(copy _8, copy _4);
            _42 = Add(copy _41, copy _6);
            _43 = Ge(copy _42, copy _16);
            assert(!copy _43, "index out of bounds") -> [success: bb9];
        }

        bb9: {
            _18 = copy (*_1)[_39];
            _44 = copy (*_2)[_42];
            _18 = Mul(copy _18, copy _44);
            _7 = Add(copy _7, copy _18);
            _8 = Add(copy _8, const 1_usize);
            goto -> bb6;
        }
    """)
    assert not bounds_hoist(b), "a loop is versioned once"


def test_bounds_hoist_leaves_loops_with_barriers():
    b = row_dot(extra_body=(Effect("sync_threads", (), S),))
    licm(b)
    assert not bounds_hoist(b)


# ---------------------------------------------------------------------------
# Strength reduction, addresses, rotation


def test_strength_reduce_turns_the_product_into_an_induction_variable():
    b = row_dot()
    licm(b)
    assert strength_reduce(b)
    dead_code(b)
    text = blocks(b)
    assert golden("""
        bb0: {
            _7 = const 0.0_f32;
            _8 = const 0_usize;
            _10 = Mul(copy _5, copy _4);
            _12 = Len(_1);
            _16 = Len(_2);
            _22 = Mul(copy _4, copy _8);
            _23 = Add(copy _22, copy _6);
            _21 = copy _23;
            goto -> bb1;
        }
    """) in text
    assert golden("""
        bb3: {
            _15 = copy _21;
            _17 = Lt(copy _15, copy _16);
            assert(copy _17, "index out of bounds") -> [success: bb4];
        }
    """) in text
    assert "_8 = Add(copy _8, const 1_usize);\n    _21 = Add(copy _21, copy _4);" in text
    assert not strength_reduce(b)


def test_address_reduce_walks_pointers():
    b = row_dot()
    licm(b)
    assert address_reduce(b)
    text = blocks(b)
    assert textwrap.indent(golden("""
        _21 = Add(copy _8, copy _10);
        _22 = &(*_1)[_21];
        _23 = Mul(copy _4, copy _8);
        _24 = Add(copy _23, copy _6);
        _25 = &(*_2)[_24];
        goto -> bb1;
    """), "    ") in text
    assert golden("""
        bb4: {
            _18 = copy (*_22);
            _19 = copy (*_25);
            _18 = Mul(copy _18, copy _19);
            _7 = Add(copy _7, copy _18);
            _8 = Add(copy _8, const 1_usize);
            _22 = @ptr_add(copy _22, const 1_usize);
            _25 = @ptr_add(copy _25, copy _4);
            goto -> bb1;
        }
    """) in text
    assert "assert(copy _13" in text and "assert(copy _17" in text  # the checks stay


def test_loop_rotate_copies_the_test_to_the_guard_and_the_latch():
    b = row_dot()
    assert loop_rotate(b)
    text = blocks(b)
    test = "_9 = Lt(copy _8, copy _4);\n    switchInt(copy _9) -> [0: bb5, otherwise: bb2];"
    assert "_8 = const 0_usize;\n    " + test in text
    assert "_8 = Add(copy _8, const 1_usize);\n    " + test in text
    assert not loop_rotate(b), "a rotated loop is not rotated again"


# ---------------------------------------------------------------------------
# Checks proven away


def test_check_elim_duplicate_check_and_loop_test():
    # while i < a.len() { x = a[i]; ... } with a second Len: the check is the loop test
    b = body([(SLICE, "a"), (USIZE, "s")], [(USIZE, "i"), (USIZE, None), (BOOL, None),
                                            (USIZE, None), (BOOL, None), (F32, None)], [
        bb(let(3, Use(k(0))), term=goto(1)),
        bb(let(4, Len(pl(1))), let(5, BinaryOp("lt", cp(3), cp(4))), term=if_(cp(5), 2, 4)),
        bb(let(6, Len(pl(1))), let(7, BinaryOp("lt", cp(3), cp(6))), term=check(cp(7), 3)),
        bb(let(8, Use(cp(1, Deref(), Index(3)))), let(3, BinaryOp("add", cp(3), cp(2))),
           term=goto(1)),
        bb(term=Return(S)),
    ])
    assert check_elim(b)
    assert isinstance(b.blocks[2].terminator, Goto)
    assert not check_elim(b)


def test_check_elim_keeps_a_check_after_its_index_changes():
    b = body([(SLICE, "a")], [(USIZE, "i"), (USIZE, None), (BOOL, None), (BOOL, None)], [
        bb(let(2, Use(k(0))), let(3, Len(pl(1))), let(4, BinaryOp("lt", cp(2), cp(3))),
           term=check(cp(4), 1)),
        bb(let(2, BinaryOp("add", cp(2), k(1))), let(5, BinaryOp("lt", cp(2), cp(3))),
           term=check(cp(5), 2)),
        bb(term=Return(S)),
    ])
    assert not check_elim(b)


def test_check_elim_uses_the_block_shape_for_thread_indices():
    def shared_index(shape):
        return body([], [(U32, None), (USIZE, None), (USIZE, None), (BOOL, None)], [
            bb(let(1, Intrinsic("tid.x", ())), let(2, Use(cp(1))),
               let(2, Cast(cp(1), USIZE)),
               let(3, BinaryOp("add", cp(2), k(1))), let(4, BinaryOp("lt", cp(3), k(18))),
               term=check(cp(4), 1)),
            bb(term=Return(S)),
        ], block_shape=shape)
    b = shared_index((16, 16, 1))
    assert check_elim(b) and isinstance(b.blocks[0].terminator, Goto)
    b = shared_index((32, 1, 1))
    assert not check_elim(b)
    b = shared_index(None)  # up to 1024 threads
    assert not check_elim(b)


CONTRACT_KERNEL = """
use cuda_device::{kernel, launch_contract, thread, DisjointSlice};
#[kernel]
#[launch_contract(block = (32, 8, 1), requires = (a.len() == rows * cols))]
pub fn k(a: &[f32], mut out: DisjointSlice<f32>, rows: usize, cols: usize) {
    let x = thread::blockIdx_x() as usize * 32 + thread::threadIdx_x() as usize;
    let y = thread::blockIdx_y() as usize * 8 + thread::threadIdx_y() as usize;
    if x < cols && y < rows {
        unsafe { *out.get_unchecked_mut(y * cols + x) = a[y * cols + x]; }
    }
}
"""


def test_check_elim_row_major_index_under_a_length_contract():
    def asserts(src):
        comp = driver.compile_source(src, "c.rs", driver.Options(stop="mir-opt", index32=False))
        (b,) = comp.program.bodies
        return [blk.terminator for blk in b.blocks if isinstance(blk.terminator, Assert)]
    assert asserts(CONTRACT_KERNEL) == []
    # without the contract (or with another stride) the check stays
    assert len(asserts(CONTRACT_KERNEL.replace("requires = (a.len() == rows * cols)",
                                               "requires = (a.len() >= rows)"))) == 1
    assert len(asserts(CONTRACT_KERNEL.replace("a[y * cols + x]", "a[y * rows + x]"))) == 1


# ---------------------------------------------------------------------------
# Whole kernels on the simulator


def sim_outcome(program, kernel, grid, block, args):
    from oxidec.sim import SimError, SimTrap, run_kernel
    args = [copy.deepcopy(a) for a in args]
    try:
        run_kernel(program, kernel, grid, block, args, max_steps=200_000)
    except SimTrap as e:
        return ("trap", e.reason, e.span.line if e.span else None)
    except SimError as e:
        return ("error", str(e).split(";")[0])
    return ("ok", [a.tolist() for a in args if isinstance(a, np.ndarray)])


def both_levels(src: str):
    comp = driver.compile_source(src, "gen.rs", driver.Options(stop="mir"))
    base, opt = copy.deepcopy(comp.program), copy.deepcopy(comp.program)
    optimize_program(base, 0, verify=True)
    optimize_program(opt, 2, verify=True)
    return base, opt


WRAPPING_INDEX = """
use cuda_device::{kernel, thread, DisjointSlice};
#[kernel]
pub fn k(a: &[u32], mut out: DisjointSlice<u32>, n: usize, step: usize, start: usize) {
    let idx = thread::index_1d();
    let mut acc = 0u32;
    for i in 0..n {
        acc = acc.wrapping_mul(31).wrapping_add(a[i * step + start]);
    }
    if let Some(o) = out.get_mut(idx) {
        *o = acc;
    }
}
"""


@pytest.mark.parametrize("n, step, start, traps", [
    (5, 2, 1, False),                 # the fast loop: P holds
    (5, 2, 2, True),                  # the last index is out of bounds: the same trap
    (6, 2**64 - 1, 5, False),         # a[5 - i]: wraps, stays in bounds (the copy runs)
    (3, 2**63, 1, True),              # a[1], then 2^63 + 1: traps in the second iteration
    (0, 7, 99, False),                # no iteration: nothing to check
])
def test_versioned_loop_matches_the_original_exactly(n, step, start, traps):
    base, opt = both_levels(WRAPPING_INDEX)
    a = np.arange(10, dtype=np.uint32) * 7 + 3
    args = [a, np.zeros(32, np.uint32), np.uint64(n), np.uint64(step), np.uint64(start)]
    want = sim_outcome(base, "k", (1, 1, 1), (32, 1, 1), args)
    got = sim_outcome(opt, "k", (1, 1, 1), (32, 1, 1), args)
    assert got == want
    assert (want[0] == "trap") == traps


class KernelGen:
    """Random kernels: nested `for`/`while`/`step_by` loops with runtime bounds, affine and
    non-affine (wrapping) indices into two slices, conditions, `break`, `continue`."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)
        self.n = 0
        self.loop_vars: list[str] = []
        self.lets: list[str] = []

    def fresh(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def inv(self) -> str:
        return self.r.choice(["n", "m", "t", "big", "s", "3", "1", "0", "t % 4", "(n + 1)"])

    def idx(self) -> str:
        r = self.r
        names = self.loop_vars + self.lets
        if not names:
            return self.inv()
        form = r.choice([
            "{v}", "{v} + {i}", "{i} + {v}", "{v} * {i}", "{v} * {i} + {j}", "{i} * {v} + {j}",
            "({v} + {i}) * {j}", "{v} * 2 + 1", "({v} << 1) + {i}", "{v}.wrapping_sub({i})",
            "{v} * {v}", "{i} - {v}", "{v} * {i} + {w}", "{v} + {w} * {i}",
        ])
        return "(" + form.format(v=r.choice(names), i=self.inv(), j=self.inv(),
                                 w=r.choice(names)) + ")"

    def stmt(self, depth: int, in_loop: bool) -> str:
        r = self.r
        c = r.random()
        if c < 0.35:
            op = r.choice(["acc = acc.wrapping_add({x});", "acc = acc ^ {x};",
                           "acc = acc.wrapping_mul(3).wrapping_add({x});"])
            x = f"{r.choice('ab')}[{self.idx()}]" if r.random() < 0.8 else f"({self.idx()} as u32)"
            return op.format(x=x)
        if c < 0.45 and self.loop_vars:
            name = self.fresh("l")
            self.lets.append(name)
            return f"let {name} = {self.idx()};"
        if c < 0.7 and depth < 3:
            return self.loop(depth)
        if c < 0.8 and depth < 3:
            cond = r.choice([f"{self.idx()} < {self.inv()}", "acc % 3 == 0",
                             f"t < {self.inv()}", f"{self.idx()} == {self.inv()}"])
            return f"if {cond} {{ {self.block(depth + 1, in_loop)} }}"
        if c < 0.85 and in_loop:
            return r.choice(["if acc % 5 == 1 { break; }", "if acc % 7 == 2 { continue; }"])
        return "acc = acc.wrapping_add(1);"

    def block(self, depth: int, in_loop: bool) -> str:
        saved = list(self.lets)
        out = " ".join(self.stmt(depth, in_loop) for _ in range(self.r.randint(1, 3)))
        self.lets = saved
        return out

    def loop(self, depth: int) -> str:
        r = self.r
        v = self.fresh("i")
        lo = r.choice(["0", "0", "1", "t % 3", "m"])
        hi = r.choice(["n", "m", "n + 1", "t % 5 + 1", "4", "s"])
        kind = r.random()
        self.loop_vars.append(v)
        body_ = self.block(depth + 1, True)
        self.loop_vars.pop()
        if kind < 0.75:
            return f"for {v} in {lo}..{hi} {{ {body_} }}"
        if kind < 0.88:
            return f"for {v} in ({lo}..{hi}).step_by({r.choice([1, 2, 3])}) {{ {body_} }}"
        return f"let mut {v} = {lo}; while {v} < {hi} {{ {body_} {v} += 1; }}"

    def kernel(self) -> str:
        body_ = " ".join(self.stmt(0, False) for _ in range(self.r.randint(1, 3)))
        return f"""use cuda_device::{{kernel, thread, DisjointSlice}};
#[kernel]
pub fn k(a: &[u32], b: &[u32], mut out: DisjointSlice<u32>, n: usize, m: usize, s: usize,
         big: usize) {{
    let idx = thread::index_1d();
    let t = idx.get();
    let mut acc = 0u32;
    {body_}
    if let Some(o) = out.get_mut(idx) {{
        *o = acc;
    }}
}}
"""


BIG = [0, 1, 5, 2**32, 2**63, 2**64 - 1, 2**32 + 1, 2**62]


@pytest.mark.parametrize("seed", range(40))
def test_random_kernels_keep_their_meaning_on_the_simulator(seed):
    src = KernelGen(seed).kernel()
    try:
        base, opt = both_levels(src)
    except CompileError:
        pytest.skip("the generator wrote a kernel the front end rejects")
    rng = np.random.default_rng(seed)
    for _ in range(2):
        la, lb = rng.integers(0, 80, 2)
        a = rng.integers(0, 2**32, la, dtype=np.uint32)
        b = rng.integers(0, 2**32, lb, dtype=np.uint32)
        n, m, s = (int(x) for x in rng.integers(0, 9, 3))
        big = BIG[int(rng.integers(0, len(BIG)))]
        args = [a, b, np.full(32, 0xDEADBEEF, np.uint32), np.uint64(n), np.uint64(m),
                np.uint64(s), np.uint64(big)]
        want = sim_outcome(base, "k", (1, 1, 1), (32, 1, 1), args)
        got = sim_outcome(opt, "k", (1, 1, 1), (32, 1, 1), args)
        assert got[:2] == want[:2], (src, (la, lb, n, m, s, big))


def test_passes_are_registered_at_o2_only():
    for name in ("check_elim", "licm", "bounds_hoist", "address_reduce", "strength_reduce",
                 "loop_rotate", "loop_unroll"):
        assert name in PASSES[2] and name not in PASSES[1]


def test_naive_matmul_inner_loop_has_no_checks_and_walks_pointers():
    comp = driver.compile_file(Path(__file__).resolve().parents[1]
                               / "samples" / "matmul_naive.rs",
                               driver.Options(stop="mir-opt", index32=False))
    (b,) = comp.program.bodies
    loops = find_loops(b)
    fast = [lp for lp in loops if not any(isinstance(b.blocks[x].terminator, Assert)
                                          for x in lp.blocks)]
    assert len(fast) == 2 and len(loops) == 3  # unrolled main loop, remainder; checked copy
    for lp in fast:
        stmts = [s for x in lp.blocks for s in b.blocks[x].statements if isinstance(s, Assign)]
        calls = [s.rvalue.name for s in stmts if isinstance(s.rvalue, Intrinsic)]
        assert calls.count("ptr_add") == 2 * calls.count("fma") > 0
        assert not any(isinstance(s.rvalue, BinaryOp) and s.rvalue.op == "mul" for s in stmts)
    assert max(len(lp.blocks) for lp in fast) == 1


def test_loop_unroll_main_loop_and_remainder():
    b = row_dot()
    for p in (licm, bounds_hoist, dead_code, address_reduce, strength_reduce, dead_code,
              loop_rotate):
        p(b)
    from oxidec.passes.simplify_cfg import simplify_cfg
    simplify_cfg(b)
    before = len(b.blocks)
    assert loop_unroll(b)
    verify_body(b)
    assert len(b.blocks) == before + 3
    from oxidec.passes.loop_unroll import unroll_factor
    main = b.blocks[before]
    adds = [s for s in main.statements if isinstance(s, Assign) and s.place == Place(8)]
    n = len(main.statements) // len(adds)
    assert len(adds) == unroll_factor(n) and (unroll_factor(8), unroll_factor(9)) == (16, 8)
    assert not loop_unroll(b), "neither the main loop nor the remainder is unrolled again"


def test_bool_select_turns_short_circuit_and_into_bitand():
    # _3 = a < n; if _3 { _5 = b < n } else { _5 = false }; if _5 { ... }
    b = body([(USIZE, "a"), (USIZE, "b"), (USIZE, "n")],
             [(BOOL, None), (BOOL, None), (BOOL, None)], [
        bb(let(4, BinaryOp("lt", cp(1), cp(3))), term=if_(cp(4), 1, 2)),
        bb(let(5, BinaryOp("lt", cp(2), cp(3))), term=goto(3)),
        bb(let(5, Use(k(False, BOOL))), term=goto(3)),
        bb(term=if_(cp(5), 4, 4)),
        bb(term=Return(S)),
    ])
    from oxidec.passes.bool_select import bool_select
    assert bool_select(b)
    assert blocks(b).startswith(golden("""
        bb0: {
            _4 = Lt(copy _1, copy _3);
            _7 = Lt(copy _2, copy _3);
            _5 = BitAnd(copy _4, copy _7);
            goto -> bb3;
        }
    """))
    # an arm that may trap (a division) is not evaluated unconditionally
    b.blocks[1].statements[0] = let(6, BinaryOp("div", cp(1), cp(2)))
    b.blocks[0].terminator = if_(cp(4), 1, 2)
    b.blocks[0].statements = b.blocks[0].statements[:1]
    assert not bool_select(b)


def test_check_elim_narrows_ranges_by_known_facts():
    # if tid < 32 { SUMS[tid + 32] } with a 256-element array and 256 threads
    b = body([], [(U32, None), (USIZE, None), (BOOL, None), (USIZE, None), (BOOL, None)], [
        bb(let(1, Intrinsic("tid.x", ())), let(2, Cast(cp(1), USIZE)),
           let(3, BinaryOp("lt", cp(2), k(32))), term=if_(cp(3), 1, 2)),
        bb(let(4, BinaryOp("add", cp(2), k(32))), let(5, BinaryOp("lt", cp(4), k(64))),
           term=check(cp(5), 2)),
        bb(term=Return(S)),
    ], block_shape=(256, 1, 1))
    assert check_elim(b) and isinstance(b.blocks[1].terminator, Goto)
    b.blocks[1].statements[1] = let(5, BinaryOp("lt", cp(4), k(63)))
    b.blocks[1].terminator = check(cp(5), 2)
    assert not check_elim(b)  # tid = 31 gives 63
