"""The MIR passes, on bodies built by hand; golden pretty text before and after each pass."""
from __future__ import annotations

import math
import textwrap

import numpy as np
import pytest

from oxidec.mir import pretty_body, verify_body
from oxidec.mir.pretty import pretty_rvalue, pretty_terminator
from oxidec.mir.syntax import (
    Discriminant,
    Aggregate, Assert, Assign, BasicBlock, BinaryOp, Body, Call, Cast, ConstIndex, Constant,
    Copy, Deref, Effect, Field, Goto, Index, Intrinsic, Len, LocalDecl, Move, Nop, Place, Ref,
    Repeat, Return, SwitchInt, UnaryOp, Unreachable, Use,
)
from oxidec.mir.verify import MirVerifyError
from oxidec.passes import PASSES, optimize
from oxidec.passes.const_fold import const_fold
from oxidec.passes.consteval import eval_binary, eval_cast, eval_intrinsic, eval_unary
from oxidec.passes.copy_prop import copy_prop
from oxidec.passes.dead_code import dead_code, simplify_locals
from oxidec.passes.simplify_cfg import remove_unreachable, simplify_cfg
from oxidec.span import DUMMY_SPAN as S
from oxidec.types import (
    BOOL, F32, F64, I8, I32, I64, U8, U32, U64, UNIT, USIZE, ArrayTy, DisjointSliceTy, option_ty,
    RefTy, SliceTy, Ty,
)

# ---------------------------------------------------------------------------
# Builders: locals are (type, name) pairs; _0 is () unless `ret` says otherwise.


def body(args: list, locals_: list, blocks: list, *, ret: Ty = UNIT, name: str = "f",
         kind: str = "kernel") -> Body:
    decls = [LocalDecl(ret, None, True, S)]
    decls += [LocalDecl(ty, nm, False, S) for ty, nm in args]
    decls += [LocalDecl(ty, nm, nm is None, S) for ty, nm in locals_]
    return Body(name, kind, len(args), decls, blocks, S)


def pl(local: int, *proj) -> Place:
    return Place(local, tuple(proj))


def cp(local: int, *proj) -> Copy:
    return Copy(pl(local, *proj))


def mv(local: int, *proj) -> Move:
    return Move(pl(local, *proj))


def k(value, ty: Ty) -> Constant:
    return Constant(value, ty)


def let(dest, rv) -> Assign:
    return Assign(dest if isinstance(dest, Place) else Place(dest), rv, S)


def use(op) -> Use:
    return Use(op)


def bb(*stmts, term) -> BasicBlock:
    return BasicBlock(list(stmts), term)


def goto(t: int) -> Goto:
    return Goto(t, S)


def ret() -> Return:
    return Return(S)


def switch(discr, arms: dict[int, int], otherwise: int) -> SwitchInt:
    return SwitchInt(discr, tuple(arms), tuple(arms.values()), otherwise, S)


def sync() -> Effect:
    return Effect("sync_threads", (), S)


def text(s: str) -> str:
    return textwrap.dedent(s).lstrip("\n")


def check(b: Body, expected: str) -> None:
    verify_body(b)
    assert pretty_body(b) == text(expected)


# ---------------------------------------------------------------------------
# Exact target arithmetic


def fold1(rv, dest_ty: Ty) -> str:
    """Fold a single `_1 = rv` and return the printed rvalue."""
    b = body([], [(dest_ty, None)], [bb(let(1, rv), term=ret())])
    const_fold(b)
    return pretty_rvalue(b.blocks[0].statements[0].rvalue)


@pytest.mark.parametrize("rv, ty, expected", [
    (BinaryOp("add", k(250, U8), k(10, U8)), U8, "const 4_u8"),
    (BinaryOp("sub", k(0, U32), k(1, U32)), U32, "const 4294967295_u32"),
    (BinaryOp("add", k(127, I8), k(1, I8)), I8, "const -128_i8"),
    (BinaryOp("mul", k(1 << 31, I64), k(1 << 33, I64)), I64, "const 0_i64"),
    (BinaryOp("mul", k(65536, I32), k(65536, I32)), I32, "const 0_i32"),
    (BinaryOp("shl", k(1, I32), k(33, I32)), I32, "const 2_i32"),
    (BinaryOp("shl", k(1, U8), k(9, U32)), U8, "const 2_u8"),
    (BinaryOp("shr", k(-8, I32), k(1, I32)), I32, "const -4_i32"),
    (BinaryOp("shr", k(-8, I32), k(32, I32)), I32, "const -8_i32"),
    (BinaryOp("shr", k(0x80000000, U32), k(31, U32)), U32, "const 1_u32"),
    (BinaryOp("div", k(-7, I32), k(2, I32)), I32, "const -3_i32"),
    (BinaryOp("rem", k(-7, I32), k(2, I32)), I32, "const -1_i32"),
    (BinaryOp("rem", k(7, I32), k(-2, I32)), I32, "const 1_i32"),
    (BinaryOp("div", k(7, U32), k(2, U32)), U32, "const 3_u32"),
    (BinaryOp("bitxor", k(0xF0, U8), k(0xFF, U8)), U8, "const 15_u8"),
    (BinaryOp("bitand", k(True, BOOL), k(False, BOOL)), BOOL, "const false"),
    (BinaryOp("lt", k(-1, I32), k(0, I32)), BOOL, "const true"),
    (BinaryOp("gt", k(4294967295, U32), k(0, U32)), BOOL, "const true"),
    (UnaryOp("neg", k(-128, I8)), I8, "const -128_i8"),
    (UnaryOp("not", k(0, U8)), U8, "const 255_u8"),
    (UnaryOp("not", k(5, I32)), I32, "const -6_i32"),
    (UnaryOp("not", k(True, BOOL)), BOOL, "const false"),
    (UnaryOp("neg", k(2.5, F32)), F32, "const -2.5_f32"),
])
def test_fold_integer_semantics(rv, ty, expected):
    assert fold1(rv, ty) == expected


def test_fold_f32_rounds_every_operation_to_f32():
    s = fold1(BinaryOp("add", k(float(np.float32(0.1)), F32), k(float(np.float32(0.2)), F32)), F32)
    assert s == "const 0.3_f32"  # f32: 0.1 + 0.2 rounds to the f32 nearest 0.3
    s = fold1(BinaryOp("add", k(0.1, F64), k(0.2, F64)), F64)
    assert s == "const 0.30000000000000004_f64"
    # the value itself is the f32 sum, not the f64 one rounded later
    c = eval_binary("add", k(0.1, F32), k(0.2, F32))
    assert c.value == float(np.float32(0.1) + np.float32(0.2)) != 0.1 + 0.2
    # 1 + 2^-24 is exactly halfway: ties to even gives 1.0 in f32
    assert eval_binary("add", k(1.0, F32), k(2.0 ** -24, F32)).value == 1.0
    assert eval_binary("mul", k(3.0e38, F32), k(10.0, F32)).value == math.inf
    assert fold1(BinaryOp("rem", k(-7.5, F32), k(2.0, F32)), F32) == "const -1.5_f32"


@pytest.mark.parametrize("value, src, target, expected", [
    (300.7, F32, U8, "const 255_u8"),
    (-5.5, F32, U8, "const 0_u8"),
    (-5.9, F64, I32, "const -5_i32"),
    (math.nan, F32, I32, "const 0_i32"),
    (math.inf, F64, I64, "const 9223372036854775807_i64"),
    (-math.inf, F32, I8, "const -128_i8"),
    (3e9, F32, I32, "const 2147483647_i32"),
    (-1, I32, U32, "const 4294967295_u32"),
    (-1, I8, U64, "const 18446744073709551615_u64"),
    (255, U8, I8, "const -1_i8"),
    (0x12345678, U32, U8, "const 120_u8"),
    (True, BOOL, U32, "const 1_u32"),
    (16777217, I32, F32, "const 16777216.0_f32"),
    ((1 << 64) - 1, U64, F32, "const 1.8446744e19_f32"),
    (2 ** 62 + 2 ** 38 + 1, I64, F32, "const 4.6116866e18_f32"),  # f64 first would tie down
    (0.1, F64, F32, "const 0.1_f32"),
    (1e300, F64, F32, "const inf_f32"),
])
def test_fold_casts_follow_rust_as(value, src, target, expected):
    assert fold1(Cast(k(value, src), target), target) == expected


def test_int_to_f32_rounds_once():
    # 2^62 + 2^38 is exactly halfway between two f32s: ties to even (down); +1 goes up.
    assert eval_cast(k(2 ** 62 + 2 ** 38, I64), F32).value == 2.0 ** 62
    assert eval_cast(k(2 ** 62 + 2 ** 38 + 1, I64), F32).value == 2.0 ** 62 + 2.0 ** 39


def test_never_fold_division_by_zero_or_overflow():
    assert eval_binary("div", k(1, I32), k(0, I32)) is None
    assert eval_binary("rem", k(1, U8), k(0, U8)) is None
    assert eval_binary("div", k(-2 ** 31, I32), k(-1, I32)) is None
    assert eval_binary("div", k(1.0, F32), k(0.0, F32)) is None
    assert fold1(BinaryOp("div", k(1, I32), k(0, I32)), I32) == "Div(const 1_i32, const 0_i32)"


def test_fold_intrinsics():
    assert eval_intrinsic("min", [k(-3, I32), k(2, I32)], I32) == k(-3, I32)
    assert eval_intrinsic("max", [k(math.nan, F32), k(2.0, F32)], F32) == k(2.0, F32)
    assert eval_intrinsic("min", [k(-0.0, F32), k(0.0, F32)], F32) is None
    assert eval_intrinsic("abs", [k(-2 ** 31, I32)], I32) == k(-2 ** 31, I32)
    assert eval_intrinsic("abs", [k(-1.5, F64)], F64) == k(1.5, F64)
    assert eval_intrinsic("floor", [k(-0.5, F32)], F32) == k(-1.0, F32)
    assert eval_intrinsic("popc", [k(-1, I32)], U32) == k(32, U32)
    assert eval_intrinsic("clz", [k(1, U64)], U32) == k(63, U32)
    assert eval_intrinsic("ctz", [k(0, U8)], U32) == k(8, U32)
    assert eval_intrinsic("sqrt", [k(4.0, F32)], F32) is None  # the device's rounding
    assert eval_unary("neg", k(0, U32)) == k(0, U32)
    assert fold1(Intrinsic("max", (k(3, U32), k(7, U32))), U32) == "const 7_u32"


def test_fold_select():
    b = body([(F32, "x"), (F32, "y")], [(F32, None), (F32, None)], [bb(
        let(3, Intrinsic("select", (k(False, BOOL), cp(1), cp(2)))),
        let(4, Intrinsic("select", (cp(3), cp(1), cp(1)))),
        term=ret())], kind="device")
    const_fold(b)
    assert [pretty_rvalue(s.rvalue) for s in b.blocks[0].statements] == ["copy _2", "copy _1"]


# ---------------------------------------------------------------------------
# const_fold on whole bodies


def test_const_fold_propagates_and_folds_switch():
    b = body([(RefTy(SliceTy(F32), False), "x")],
             [(U8, "n"), (U8, None), (BOOL, None), (F32, None), (USIZE, None)], [
        bb(let(2, use(k(250, U8))),
           let(3, BinaryOp("add", cp(2), k(10, U8))),
           let(4, BinaryOp("lt", cp(3), k(5, U8))),
           let(6, use(k(3, USIZE))),
           let(5, use(cp(1, Deref(), Index(6)))),
           term=switch(cp(4), {0: 2}, 1)),
        bb(term=ret()),
        bb(term=Unreachable(S)),
    ])
    const_fold(b)
    check(b, """
        #[kernel]
        fn f(_1: &[f32]) -> () {
            debug x => _1;
            let mut _0: ();
            let _2: u8; // n
            let mut _3: u8;
            let mut _4: bool;
            let mut _5: f32;
            let mut _6: usize;

            bb0: {
                _2 = const 250_u8;
                _3 = const 4_u8;
                _4 = const true;
                _6 = const 3_usize;
                _5 = copy (*_1)[3];
                goto -> bb1;
            }

            bb1: {
                return;
            }

            bb2: {
                unreachable;
            }
        }
        """)


def test_const_fold_asserts():
    b = body([], [], [
        bb(term=Assert(k(True, BOOL), True, "ok", 1, S)),
        bb(term=Assert(k(True, BOOL), False, "always fails", 2, S)),
        bb(term=ret()),
    ])
    const_fold(b)
    assert pretty_terminator(b.blocks[0].terminator) == "goto -> bb1;"
    # the failing assert stays (it traps); its success edge goes to a new `unreachable` block
    assert pretty_terminator(b.blocks[1].terminator) == \
        'assert(!const true, "always fails") -> [success: bb3];'
    assert pretty_terminator(b.blocks[3].terminator) == "unreachable;"
    const_fold(b)
    assert len(b.blocks) == 4, "a second run adds no block"


def test_const_fold_switch_on_integer():
    b = body([], [], [
        bb(term=switch(k(-1, I32), {0: 1, -1: 2}, 3)),
        bb(term=ret()), bb(term=ret()), bb(term=ret()),
    ])
    const_fold(b)
    assert pretty_terminator(b.blocks[0].terminator) == "goto -> bb2;"


def test_const_fold_leaves_reassigned_and_borrowed_locals():
    b = body([], [(I32, "a"), (I32, "b"), (I32, None), (RefTy(I32, True), None), (I32, None)], [
        bb(let(1, use(k(1, I32))),
           let(1, use(k(2, I32))),              # assigned twice
           let(2, use(k(5, I32))),
           let(4, Ref(pl(2), True)),            # address taken
           let(pl(4, Deref()), use(k(6, I32))),
           let(3, BinaryOp("add", cp(1), cp(2))),
           let(5, BinaryOp("add", k(1, I32), k(2, I32))),
           term=ret()),
    ])
    const_fold(b)
    stmts = [pretty_rvalue(s.rvalue) for s in b.blocks[0].statements]
    assert stmts[5] == "Add(copy _1, copy _2)"
    assert stmts[6] == "const 3_i32"


def test_const_fold_len_of_array_and_nan_is_stable():
    b = body([], [(ArrayTy(F32, 4), "a"), (USIZE, None), (F32, None)], [
        bb(let(1, Aggregate(ArrayTy(F32, 4), (k(0.0, F32),) * 4)),
           let(2, Len(pl(1))),
           let(3, BinaryOp("mul", k(math.inf, F32), k(0.0, F32))),
           term=ret()),
    ])
    assert const_fold(b)
    assert not const_fold(b)  # NaN != NaN must not look like a change every round
    stmts = [pretty_rvalue(s.rvalue) for s in b.blocks[0].statements]
    assert stmts[1:] == ["const 4_usize", "const NaN_f32"]


# ---------------------------------------------------------------------------
# copy_prop


def test_copy_prop_forwards_copies():
    b = body([(RefTy(SliceTy(F32), False), "x"), (USIZE, "i")],
             [(RefTy(SliceTy(F32), False), None), (USIZE, None), (F32, None), (USIZE, "j")], [
        bb(let(3, use(cp(1))),
           let(4, use(cp(2))),
           let(5, use(cp(3, Deref(), Index(4)))),
           let(6, use(cp(2))),
           let(6, BinaryOp("add", cp(6), k(1, USIZE))),  # _6 written twice: not forwarded
           let(0, use(k(None, UNIT))),
           term=ret()),
    ])
    assert copy_prop(b)
    check(b, """
        #[kernel]
        fn f(_1: &[f32], _2: usize) -> () {
            debug x => _1;
            debug i => _2;
            let mut _0: ();
            let mut _3: &[f32];
            let mut _4: usize;
            let mut _5: f32;
            let _6: usize; // j

            bb0: {
                _3 = copy _1;
                _4 = copy _2;
                _5 = copy (*_1)[_2];
                _6 = copy _2;
                _6 = Add(copy _6, const 1_usize);
                _0 = const ();
                return;
            }
        }
        """)
    assert not copy_prop(b)


def test_copy_prop_forwards_option_fields_of_get_mut():
    # the lowering of `if let Some(o) = c.get_mut(i) { *o = 1.0 }`
    opt = option_ty(RefTy(F32, True))
    b = body([(DisjointSliceTy(F32), "c"), (USIZE, "i")],
             [(USIZE, None), (BOOL, None), (RefTy(F32, True), None), (opt, None),
              (RefTy(F32, True), "o"), (BOOL, None)], [
        bb(let(3, Len(pl(1))),
           let(4, BinaryOp("lt", cp(2), cp(3))),
           let(5, Ref(pl(1, Deref(), Index(2)), True)),
           let(6, Aggregate(opt, (cp(4), mv(5)))),
           let(8, Discriminant(pl(6))),
           term=switch(cp(8), {0: 2}, 1)),
        bb(let(7, use(mv(6, Field(0, 1)))),
           let(pl(7, Deref()), use(k(1.0, F32))),
           term=goto(2)),
        bb(term=ret()),
    ])
    copy_prop(b)
    dead_code(b)
    check(b, """
        #[kernel]
        fn f(_1: DisjointSlice<f32>, _2: usize) -> () {
            debug c => _1;
            debug i => _2;
            let mut _0: ();
            let mut _3: usize;
            let mut _4: bool;
            let mut _5: &mut f32;
            let mut _6: Option<&mut f32>;
            let _7: &mut f32; // o
            let mut _8: bool;

            bb0: {
                _3 = Len(_1);
                _4 = Lt(copy _2, copy _3);
                _5 = &mut (*_1)[_2];
                switchInt(copy _4) -> [0: bb2, otherwise: bb1];
            }

            bb1: {
                _7 = copy _5;
                (*_5) = const 1.0_f32;
                goto -> bb2;
            }

            bb2: {
                return;
            }
        }
        """)


# ---------------------------------------------------------------------------
# dead_code


def test_dead_code_removes_unread_temporaries_to_a_fixpoint():
    b = body([(RefTy(SliceTy(F32), False), "x"), (RefTy(F32, True), "out")],
             [(USIZE, None), (USIZE, None), (USIZE, None), (F32, None), (I32, "unused")], [
        bb(let(3, Len(pl(1, Deref()))),
           let(4, BinaryOp("add", cp(3), k(1, USIZE))),
           let(5, BinaryOp("mul", cp(4), k(2, USIZE))),
           let(6, use(k(2.0, F32))),
           let(pl(2, Deref()), use(cp(6))),
           Nop(S),
           sync(),
           let(7, use(k(0, I32))),
           term=ret()),
    ])
    assert dead_code(b)
    check(b, """
        #[kernel]
        fn f(_1: &[f32], _2: &mut f32) -> () {
            debug x => _1;
            debug out => _2;
            let mut _0: ();
            let mut _3: usize;
            let mut _4: usize;
            let mut _5: usize;
            let mut _6: f32;
            let _7: i32; // unused

            bb0: {
                _6 = const 2.0_f32;
                (*_2) = copy _6;
                sync_threads();
                _7 = const 0_i32;
                return;
            }
        }
        """)
    assert simplify_locals(b)
    assert pretty_body(b).splitlines()[5:9] == [
        "    let mut _3: f32;", "    let _4: i32; // unused", "", "    bb0: {"]
    assert pretty_body(b).splitlines()[9] == "        _3 = const 2.0_f32;"
    verify_body(b)


def test_dead_code_keeps_calls_and_effects():
    b = body([], [(F32, None)], [
        bb(term=Call("g", (k(1.0, F32),), pl(1), 1, S)),
        bb(Effect("printf", (k(0, U32), cp(1)), S), term=ret()),
    ])
    before = pretty_body(b)
    assert not dead_code(b)
    assert pretty_body(b) == before


# ---------------------------------------------------------------------------
# simplify_cfg


def test_remove_unreachable_renumbers_targets():
    b = body([], [], [
        bb(term=goto(2)),
        bb(term=goto(0)),        # unreachable
        bb(term=goto(3)),
        bb(term=ret()),
    ])
    assert remove_unreachable(b)
    check(b, """
        #[kernel]
        fn f() -> () {
            let mut _0: ();

            bb0: {
                goto -> bb1;
            }

            bb1: {
                goto -> bb2;
            }

            bb2: {
                return;
            }
        }
        """)


def test_simplify_cfg_merges_threads_and_collapses():
    b = body([(BOOL, "c")], [(I32, "x")], [
        bb(let(2, use(k(1, I32))), term=goto(1)),
        bb(sync(), term=switch(cp(1), {0: 3}, 3)),   # both ways to bb3
        bb(term=goto(1)),                                 # unreachable
        bb(term=goto(4)),                                 # empty: threaded
        bb(term=ret()),
    ])
    assert simplify_cfg(b)
    check(b, """
        #[kernel]
        fn f(_1: bool) -> () {
            debug c => _1;
            let mut _0: ();
            let _2: i32; // x

            bb0: {
                _2 = const 1_i32;
                sync_threads();
                return;
            }
        }
        """)


def test_simplify_cfg_keeps_barrier_in_its_branch_and_loops():
    # if c { sync_threads() } ; loop header bb3 has two predecessors and is not merged
    b = body([(BOOL, "c")], [(USIZE, "i"), (BOOL, None)], [
        bb(let(2, use(k(0, USIZE))), term=switch(cp(1), {0: 2}, 1)),
        bb(sync(), term=goto(2)),
        bb(term=goto(3)),
        bb(let(3, BinaryOp("lt", cp(2), k(4, USIZE))), term=switch(cp(3), {0: 5}, 4)),
        bb(let(2, BinaryOp("add", cp(2), k(1, USIZE))), sync(), term=goto(3)),
        bb(term=ret()),
    ])
    simplify_cfg(b)
    check(b, """
        #[kernel]
        fn f(_1: bool) -> () {
            debug c => _1;
            let mut _0: ();
            let _2: usize; // i
            let mut _3: bool;

            bb0: {
                _2 = const 0_usize;
                switchInt(copy _1) -> [0: bb2, otherwise: bb1];
            }

            bb1: {
                sync_threads();
                goto -> bb2;
            }

            bb2: {
                _3 = Lt(copy _2, const 4_usize);
                switchInt(copy _3) -> [0: bb4, otherwise: bb3];
            }

            bb3: {
                _2 = Add(copy _2, const 1_usize);
                sync_threads();
                goto -> bb2;
            }

            bb4: {
                return;
            }
        }
        """)
    assert not simplify_cfg(b)


def test_simplify_cfg_terminates_on_empty_infinite_loop():
    b = body([], [], [bb(term=goto(1)), bb(term=goto(2)), bb(term=goto(1))])
    simplify_cfg(b)
    verify_body(b)
    assert pretty_terminator(b.blocks[0].terminator) in ("goto -> bb0;", "goto -> bb1;")


# ---------------------------------------------------------------------------
# The pipeline


def lowered_vecadd() -> Body:
    """What the lowering makes of
    `let i = index_1d().get(); if let Some(o) = c.get_mut(i) { *o = a[i] + b[i]; }`."""
    slice_ = RefTy(SliceTy(F32), False)
    opt = option_ty(RefTy(F32, True))
    return body([(slice_, "a"), (slice_, "b"), (DisjointSliceTy(F32), "c")], [
        (U32, None), (USIZE, "i"), (USIZE, None), (BOOL, None), (RefTy(F32, True), None),
        (opt, None), (RefTy(F32, True), "o"), (USIZE, None), (BOOL, None), (F32, None),
        (F32, None), (USIZE, None), (BOOL, None), (F32, None),
    ], [
        bb(let(4, Intrinsic("tid.x", ())), let(5, Cast(cp(4), USIZE)), term=goto(1)),
        bb(let(6, Len(pl(3))), let(7, BinaryOp("lt", cp(5), cp(6))),
           let(8, Ref(pl(3, Deref(), Index(5)), True)),
           let(9, Aggregate(opt, (cp(7), mv(8)))),
           term=switch(cp(7), {0: 3}, 2)),
        bb(let(10, use(mv(9, Field(0, 1)))),
           let(11, Len(pl(1, Deref()))), let(12, BinaryOp("lt", cp(5), cp(11))),
           term=Assert(cp(12), True, "index out of bounds", 4, S)),
        bb(term=goto(7)),
        bb(let(13, use(cp(1, Deref(), Index(5)))),
           let(15, Len(pl(2, Deref()))), let(16, BinaryOp("lt", cp(5), cp(15))),
           term=Assert(cp(16), True, "index out of bounds", 5, S)),
        bb(let(14, use(cp(2, Deref(), Index(5)))),
           let(17, BinaryOp("add", cp(13), cp(14))),
           let(pl(10, Deref()), use(mv(17))),
           term=goto(6)),
        bb(term=goto(3)),
        bb(term=ret()),
    ])


def test_optimize_levels():
    assert PASSES[0] == ("remove_unreachable",)
    assert set(PASSES[1]) == {"remove_unreachable", "const_fold", "dead_code"}
    b0 = lowered_vecadd()
    verify_body(b0)
    before = pretty_body(b0)
    optimize(b0, 0, verify=True)
    assert pretty_body(b0) == before  # nothing unreachable

    b2 = lowered_vecadd()
    optimize(b2, 2, verify=True)
    check(b2, """
        #[kernel]
        fn f(_1: &[f32], _2: &[f32], _3: DisjointSlice<f32>) -> () {
            debug a => _1;
            debug b => _2;
            debug c => _3;
            let mut _0: ();
            let mut _4: u32;
            let _5: usize; // i
            let mut _6: usize;
            let mut _7: bool;
            let mut _8: &mut f32;
            let _9: &mut f32; // o
            let mut _10: usize;
            let mut _11: bool;
            let mut _12: f32;
            let mut _13: f32;
            let mut _14: usize;
            let mut _15: bool;
            let mut _16: f32;

            bb0: {
                _4 = @tid.x();
                _5 = copy _4 as usize;
                _6 = Len(_3);
                _7 = Lt(copy _5, copy _6);
                _8 = &mut (*_3)[_5];
                switchInt(copy _7) -> [0: bb4, otherwise: bb1];
            }

            bb1: {
                _9 = copy _8;
                _10 = Len((*_1));
                _11 = Lt(copy _5, copy _10);
                assert(copy _11, "index out of bounds") -> [success: bb2];
            }

            bb2: {
                _12 = copy (*_1)[_5];
                _14 = Len((*_2));
                _15 = Lt(copy _5, copy _14);
                assert(copy _15, "index out of bounds") -> [success: bb3];
            }

            bb3: {
                _13 = copy (*_2)[_5];
                _16 = Add(copy _12, copy _13);
                (*_8) = move _16;
                return;
            }

            bb4: {
                return;
            }
        }
        """)
    assert not optimize(b2, 2)  # a fixpoint


def test_optimize_folds_a_constant_branch_away():
    b = body([(RefTy(F32, True), "out")], [(I32, "n"), (BOOL, None), (I32, None)], [
        bb(let(2, use(k(-7, I32))), let(4, BinaryOp("rem", cp(2), k(2, I32))),
           let(3, BinaryOp("eq", cp(4), k(-1, I32))), term=switch(cp(3), {0: 2}, 1)),
        bb(let(pl(1, Deref()), use(k(1.0, F32))), sync(), term=goto(3)),
        bb(let(pl(1, Deref()), use(k(2.0, F32))), term=goto(3)),
        bb(term=ret()),
    ])
    optimize(b, 1, verify=True)
    assert "2.0_f32" not in pretty_body(b)
    optimize(b, 2, verify=True)
    check(b, """
        #[kernel]
        fn f(_1: &mut f32) -> () {
            debug out => _1;
            let mut _0: ();
            let _2: i32; // n

            bb0: {
                _2 = const -7_i32;
                (*_1) = const 1.0_f32;
                sync_threads();
                return;
            }
        }
        """)


def test_verify_after_each_pass_names_the_pass(monkeypatch):
    import oxidec.passes as passes

    def breaks(b: Body) -> bool:
        b.blocks[0].terminator = goto(9)
        return True

    monkeypatch.setitem(passes.REGISTRY, "dead_code", breaks)
    with pytest.raises(MirVerifyError, match=r"after dead_code: fn f: bb0\[term\]: target bb9"):
        optimize(body([], [], [bb(term=ret())]), 1, verify=True)


def test_const_fold_long_chain_in_one_call():
    n = 300
    locals_ = [(I32, None)] * n
    stmts = [let(1, use(k(1, I32)))]
    stmts += [let(i + 1, BinaryOp("mul", cp(i), k(3, I32))) for i in range(1, n)]
    b = body([], locals_, [bb(*stmts, term=ret())])
    const_fold(b)
    assert pretty_rvalue(b.blocks[0].statements[-1].rvalue) == \
        f"const {wrap(3 ** (n - 1), 32)}_i32"
    optimize(b, 2, verify=True)
    assert len(b.locals) == 1 and b.blocks[0].statements == []


def wrap(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >= 1 << (bits - 1) else v


# ---------------------------------------------------------------------------
# Random programs: every level computes what the unoptimised body computes


class Ptr:
    """A pointer into the interpreter's storage: a container (dict of locals, or an array
    list) and a key in it."""

    def __init__(self, cont, key):
        self.cont, self.key = cont, key

    def __repr__(self) -> str:
        return "ptr"


class Interp:
    """A tiny MIR interpreter (scalars, arrays in locals, references to them): enough to
    check that the passes keep a body's meaning."""

    def __init__(self, b: Body, args: list[Constant]):
        self.b, self.env, self.trace = b, {}, []
        for i, a in enumerate(args, 1):
            self.env[i] = a

    def lvalue(self, place: Place):
        cont, key = self.env, place.local
        for p in place.projection:
            v = cont[key]
            if isinstance(p, Deref):
                cont, key = v.cont, v.key
            elif isinstance(p, Index):
                cont, key = v, self.env[p.local].value
            elif isinstance(p, ConstIndex):
                cont, key = v, p.offset
            else:
                raise AssertionError(p)
        return cont, key

    def read(self, op):
        if isinstance(op, Constant):
            return op
        cont, key = self.lvalue(op.place)
        v = cont[key]
        return list(v) if isinstance(v, list) else v  # arrays are values

    def eval(self, rv) -> Constant:
        if isinstance(rv, Use):
            return self.read(rv.operand)
        if isinstance(rv, BinaryOp):
            r = eval_binary(rv.op, self.read(rv.lhs), self.read(rv.rhs))
        elif isinstance(rv, UnaryOp):
            r = eval_unary(rv.op, self.read(rv.operand))
        elif isinstance(rv, Cast):
            r = eval_cast(self.read(rv.operand), rv.ty)
        elif isinstance(rv, Ref):
            return Ptr(*self.lvalue(rv.place))
        elif isinstance(rv, Repeat):
            return [self.read(rv.operand)] * rv.count
        elif isinstance(rv, Aggregate):
            return [self.read(o) for o in rv.operands]
        elif isinstance(rv, Intrinsic):
            vals = [self.read(a) for a in rv.args]
            if rv.name == "select":
                return vals[1] if vals[0].value else vals[2]
            r = eval_intrinsic(rv.name, vals, vals[0].ty)
            if r is None and rv.name in ("min", "max"):
                r = vals[0]  # min(-0.0, 0.0): the device picks; any fixed choice will do here
        else:
            raise AssertionError(rv)
        assert r is not None, rv
        return r

    def run(self) -> tuple:
        blk, steps = 0, 0
        while True:
            block = self.b.blocks[blk]
            for stmt in block.statements:
                if isinstance(stmt, Assign):
                    value = self.eval(stmt.rvalue)
                    cont, key = self.lvalue(stmt.place)
                    cont[key] = value
                elif isinstance(stmt, Effect):
                    self.trace.append((stmt.name, tuple(repr(self.read(a)) for a in stmt.args)))
            term = block.terminator
            steps += 1
            assert steps < 10_000, "runaway loop"
            if isinstance(term, Goto):
                blk = term.target
            elif isinstance(term, SwitchInt):
                v = int(self.read(term.discr).value)
                blk = dict(zip(term.values, term.targets)).get(v, term.otherwise)
            elif isinstance(term, Return):
                named = {d.name: repr(self.env.get(i)) for i, d in enumerate(self.b.locals)
                         if d.name is not None}
                return repr(self.env.get(0)), named, tuple(self.trace)
            else:
                raise AssertionError(term)


class Gen:
    TYPES = (I32, U8, F32)

    def __init__(self, seed: int):
        import random
        self.r = random.Random(seed)
        self.locals: list = []
        self.blocks: list = []
        self.vars = {}  # type -> named locals
        self.args = [(I32, "a"), (U8, "b"), (F32, "x")]

    def new(self, ty, name=None) -> int:
        self.locals.append((ty, name))
        return len(self.args) + len(self.locals)

    def const(self, ty) -> Constant:
        r = self.r
        if ty == F32:
            return k(float(np.float32(r.choice([0.0, 1.5, -2.25, 1e30, 0.1, 3.0]))), F32)
        if ty == U8:
            return k(r.choice([0, 1, 7, 200, 255]), U8)
        return k(r.choice([0, 1, -1, 5, 2 ** 31 - 1, -2 ** 31, 33]), I32)

    def leaf(self, ty, temps):
        r = self.r
        pool = [i for i, t in enumerate(self.args, 1) if t[0] == ty] + self.vars[ty] \
            + [t for t, tt in temps if tt == ty]
        if ty == I32 and r.random() < 0.15:
            return cp(self.arr, ConstIndex(r.randint(0, 3)))
        if pool and r.random() < 0.6:
            return cp(r.choice(pool))
        return self.const(ty)

    def expr(self, ty, stmts, temps, depth=2):
        r = self.r
        if depth == 0 or r.random() < 0.25:
            return self.leaf(ty, temps)
        choice = r.random()
        if choice < 0.5:
            ops = ["add", "sub", "mul"] + ([] if ty == F32 else ["bitand", "bitxor", "shl", "shr"])
            rv = BinaryOp(r.choice(ops), self.expr(ty, stmts, temps, depth - 1),
                          self.expr(ty, stmts, temps, depth - 1))
        elif choice < 0.65:
            src = r.choice(self.TYPES)
            rv = Cast(self.expr(src, stmts, temps, depth - 1), ty)
        elif choice < 0.75:
            rv = UnaryOp("neg" if ty != U8 else "not", self.expr(ty, stmts, temps, depth - 1))
        elif choice < 0.85:
            rv = Intrinsic(r.choice(["min", "max"]), (self.expr(ty, stmts, temps, depth - 1),
                                                      self.leaf(ty, temps)))
        else:
            rv = Use(self.leaf(ty, temps))
        t = self.new(ty)
        stmts.append(let(t, rv))
        temps.append((t, ty))
        return cp(t)

    def assignments(self, stmts, temps):
        """A few statements; `temps` are the values visible here, and grow with new ones."""
        for _ in range(self.r.randint(1, 3)):
            ty = self.r.choice(self.TYPES)
            if self.r.random() < 0.3:  # an immutable `let`: written once
                v = self.new(ty, f"l{len(self.locals)}")
                stmts.append(let(v, Use(self.expr(ty, stmts, temps))))
                temps.append((v, ty))
                continue
            if self.r.random() < 0.3:
                self.memory(stmts, temps)
                continue
            v = self.r.choice(self.vars[ty])
            stmts.append(let(v, Use(self.expr(ty, stmts, temps))))
            if self.r.random() < 0.2:
                stmts.append(Effect("printf", (k(0, U32), cp(v)), S))
            if self.r.random() < 0.2:
                stmts.append(sync())

    def memory(self, stmts, temps):
        """A write into the array `arr`, directly or through a reference, or through a
        reference to a `let mut` local (whose address is then taken)."""
        r = self.r
        kind = r.choice(["const", "index", "ref", "local"])
        if kind == "const":
            stmts.append(let(pl(self.arr, ConstIndex(r.randint(0, 3))),
                             Use(self.expr(I32, stmts, temps))))
        elif kind == "index":
            i, j = self.new(USIZE), self.new(USIZE)
            stmts.append(let(i, Cast(self.expr(U8, stmts, temps, 1), USIZE)))
            stmts.append(let(j, BinaryOp("bitand", cp(i), k(3, USIZE))))
            stmts.append(let(pl(self.arr, Index(j)), Use(self.expr(I32, stmts, temps))))
        elif kind == "ref":
            p = self.new(RefTy(I32, True))
            stmts.append(let(p, Ref(pl(self.arr, ConstIndex(r.randint(0, 3))), True)))
            stmts.append(let(pl(p, Deref()), Use(self.expr(I32, stmts, temps))))
            t = self.new(I32)
            stmts.append(let(t, Use(cp(p, Deref()))))
            temps.append((t, I32))
        else:
            v = self.new(I32, f"m{len(self.locals)}")
            p = self.new(RefTy(I32, True))
            stmts.append(let(v, Use(self.const(I32))))
            t = self.new(I32)
            stmts.append(let(t, Use(cp(v))))          # the value before the write
            stmts.append(let(p, Ref(pl(v), True)))
            stmts.append(let(pl(p, Deref()), Use(self.expr(I32, stmts, temps))))
            temps += [(v, I32), (t, I32)]

    def block(self, stmts, term) -> int:
        self.blocks.append(BasicBlock(stmts, term))
        return len(self.blocks) - 1

    def cond(self, stmts, temps):
        if self.r.random() < 0.3:
            return k(self.r.random() < 0.5, BOOL)
        t = self.new(BOOL)
        stmts.append(let(t, BinaryOp(self.r.choice(["lt", "eq", "ne"]),
                                     self.expr(I32, stmts, temps, 1), self.leaf(I32, []))))
        return cp(t)

    def build(self) -> Body:
        for ty in self.TYPES:
            self.vars[ty] = [self.new(ty, f"v{ty}{i}") for i in range(2)]
        counter = self.new(U8, "i")
        self.arr = self.new(ArrayTy(I32, 4), "arr")
        stmts = [let(v, Use(self.const(ty))) for ty in self.TYPES for v in self.vars[ty]]
        stmts.append(let(self.arr, Repeat(self.const(I32), 4)))
        stmts.append(let(counter, Use(k(0, U8))))
        cur = self.block(stmts, None)
        temps = []  # values defined on the straight path so far: they dominate what follows
        for _ in range(self.r.randint(1, 4)):
            kind = self.r.choice(["straight", "if", "loop"])
            stmts = self.blocks[cur].statements
            if kind == "straight":
                self.assignments(stmts, temps)
                continue
            if kind == "if":
                c = self.cond(stmts, temps)
                then_s, else_s = [], []
                self.assignments(then_s, list(temps))
                self.assignments(else_s, list(temps))
                join = self.block([], None)
                then_b = self.block(then_s, goto(join))
                else_b = self.block(else_s, goto(join))
                self.blocks[cur].terminator = switch(c, {0: else_b}, then_b)
                cur = join
                continue
            # loop: i = 0; while i < n { ...; i += 1 }
            stmts.append(let(counter, Use(k(0, U8))))
            head = self.block([], None)
            self.blocks[cur].terminator = goto(head)
            t = self.new(BOOL)
            self.blocks[head].statements.append(
                let(t, BinaryOp("lt", cp(counter), k(self.r.randint(0, 3), U8))))
            body_s = []
            self.assignments(body_s, list(temps))
            body_s.append(let(counter, BinaryOp("add", cp(counter), k(1, U8))))
            loop_b = self.block(body_s, goto(head))
            exit_b = self.block([], None)
            self.blocks[head].terminator = switch(cp(t), {0: exit_b}, loop_b)
            cur = exit_b
        self.blocks[cur].terminator = ret()
        stmts = self.blocks[cur].statements
        self.blocks[cur].statements.append(let(0, Use(self.expr(I32, stmts, temps))))
        return body(self.args, self.locals, self.blocks, ret=I32, kind="device")


@pytest.mark.parametrize("seed", range(150))
def test_random_programs_keep_their_meaning(seed):
    import copy as copy_module
    original = Gen(seed).build()
    verify_body(original)
    args = [k(-3, I32), k(250, U8), k(0.5, F32)]
    expected = Interp(original, args).run()
    for level in (0, 1, 2):
        b = copy_module.deepcopy(original)
        optimize(b, level, verify=True)
        ret_, named, trace = Interp(b, args).run()
        context = (level, pretty_body(original), pretty_body(b))
        assert (ret_, trace) == (expected[0], expected[2]), context
        # a named local may vanish with the code that used it; the others must agree
        assert named == {n: v for n, v in expected[1].items() if n in named}, context


def test_copy_prop_merges_a_temporary_into_the_next_assignment():
    b = body([(I32, "n")], [(I32, "x"), (I32, None), (I32, None)], [
        bb(let(2, use(cp(1))),
           let(3, BinaryOp("add", cp(2), k(1, I32))),
           let(2, use(mv(3))),                                  # x = x + 1
           let(4, BinaryOp("mul", cp(2), cp(2))),
           let(0, use(cp(4))),
           term=ret())], ret=I32, kind="device")
    assert copy_prop(b)
    check(b, """
        #[device]
        fn f(_1: i32) -> i32 {
            debug n => _1;
            let mut _0: i32;
            let _2: i32; // x
            let mut _3: i32;
            let mut _4: i32;

            bb0: {
                _2 = copy _1;
                _2 = Add(copy _2, const 1_i32);
                _0 = Mul(copy _2, copy _2);
                return;
            }
        }
        """)


def test_copy_prop_leaves_values_that_may_change():
    b = body([(RefTy(I32, True), "p")], [(I32, "x"), (I32, None), (I32, None), (I32, None)], [
        bb(let(2, use(k(1, I32))),
           let(3, use(cp(2))),                  # x is written again below
           let(2, use(k(2, I32))),
           let(4, use(cp(1, Deref()))),         # a load: memory may change
           let(pl(1, Deref()), use(k(7, I32))),
           let(5, BinaryOp("add", cp(3), cp(4))),
           let(0, use(cp(5))),
           term=ret())], ret=I32, kind="device")
    copy_prop(b)
    assert pretty_body(b).splitlines()[-5:-2] == [
        "        (*_1) = const 7_i32;",
        "        _0 = Add(copy _3, copy _4);",  # `_5 = ...; _0 = copy _5` merged, no more
        "        return;",
    ]
