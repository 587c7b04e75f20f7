"""MIR text (`oxidec.mir.pretty`), types of places (`typeof`) and the verifier."""
from __future__ import annotations

import math
import textwrap

import pytest

from oxidec.mir import pretty_body, pretty_program, verify_body, verify_program
from oxidec.mir.pretty import pretty_constant, pretty_place, pretty_rvalue, pretty_terminator
from oxidec.mir.syntax import (
    Discriminant, Aggregate, Assert, Assign, BasicBlock, BinaryOp, Body, Call, Cast, ConstIndex, Constant,
    Copy, Deref, Effect, Field, Goto, Index, Intrinsic, LaunchInfo, Len, LocalDecl, Move, Nop, Place,
    Program, Ref, Repeat, Return, StaticDecl, StaticRef, SwitchInt, UnaryOp, Unreachable, Use,
)
from oxidec.mir.typeof import MirTypeError, operand_ty, place_ty, rvalue_ty
from oxidec.mir.verify import MirVerifyError
from oxidec.span import SourceFile, Span
from oxidec.span import DUMMY_SPAN as S
from oxidec.types import (
    BOOL, F32, F64, I32, I64, U8, U32, UNIT, USIZE, ArrayTy, DisjointSliceTy, option_ty, PtrTy,
    RefTy, SharedArrayTy, SliceTy, StructTy, THREAD_INDEX, TupleTy, Ty,
)


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


def bb(*stmts, term) -> BasicBlock:
    return BasicBlock(list(stmts), term)


def text(s: str) -> str:
    return textwrap.dedent(s).lstrip("\n")


POINT = StructTy("Point", (("x", F32), ("y", F32)), is_copy=True)


# ---------------------------------------------------------------------------
# Leaves


@pytest.mark.parametrize("c, expected", [
    (k(1, U32), "const 1_u32"),
    (k(-3, I32), "const -3_i32"),
    (k(7, USIZE), "const 7_usize"),
    (k(2.5, F32), "const 2.5_f32"),
    (k(0.1, F32), "const 0.1_f32"),
    (k(0.1, F64), "const 0.1_f64"),
    (k(1.0, F32), "const 1.0_f32"),
    (k(3, F32), "const 3.0_f32"),
    (k(-0.0, F64), "const -0.0_f64"),
    (k(16777216.0, F32), "const 16777216.0_f32"),
    (k(1e20, F32), "const 1e20_f32"),
    (k(1.5e-7, F64), "const 1.5e-7_f64"),
    (k(3.4028234663852886e38, F32), "const 3.4028235e38_f32"),
    (k(math.nan, F32), "const NaN_f32"),
    (k(-math.inf, F64), "const -inf_f64"),
    (k(True, BOOL), "const true"),
    (k(False, BOOL), "const false"),
    (k(None, UNIT), "const ()"),
])
def test_constants_print_with_their_type(c, expected):
    assert pretty_constant(c) == expected


def test_places():
    assert pretty_place(pl(3)) == "_3"
    assert pretty_place(pl(3, Deref())) == "(*_3)"
    assert pretty_place(pl(3, Deref(), Index(4))) == "(*_3)[_4]"
    assert pretty_place(pl(8, Field(0))) == "_8.0"
    assert pretty_place(pl(2, Field(1), Deref(), Field(0))) == "(*_2.1).0"
    assert pretty_place(pl(5, ConstIndex(2))) == "_5[2]"


def test_rvalues():
    assert pretty_rvalue(BinaryOp("lt", cp(4), cp(5))) == "Lt(copy _4, copy _5)"
    assert pretty_rvalue(BinaryOp("bitxor", mv(1), k(1, U8))) == "BitXor(move _1, const 1_u8)"
    assert pretty_rvalue(UnaryOp("neg", cp(1))) == "Neg(copy _1)"
    assert pretty_rvalue(Cast(cp(1), USIZE)) == "copy _1 as usize"
    assert pretty_rvalue(Ref(pl(3, Deref(), Index(4)), True)) == "&mut (*_3)[_4]"
    assert pretty_rvalue(Ref(pl(3), False)) == "&_3"
    assert pretty_rvalue(Len(pl(3))) == "Len(_3)"
    assert pretty_rvalue(Aggregate(TupleTy((I32, F32)), (cp(1), cp(2)))) == "(copy _1, copy _2)"
    assert pretty_rvalue(Aggregate(TupleTy((I32,)), (cp(1),))) == "(copy _1,)"
    assert pretty_rvalue(Aggregate(ArrayTy(U8, 2), (k(1, U8), k(2, U8)))) == \
        "[const 1_u8, const 2_u8]"
    assert pretty_rvalue(Aggregate(POINT, (cp(1), cp(2)))) == "Point { x: copy _1, y: copy _2 }"
    assert pretty_rvalue(Aggregate(option_ty(RefTy(F32, True)), (cp(6), mv(7)))) == \
        "Option::<&mut f32>(copy _6, move _7)"
    assert pretty_rvalue(Repeat(k(0.0, F32), 16)) == "[const 0.0_f32; 16]"
    assert pretty_rvalue(Intrinsic("tid.x", ())) == "@tid.x()"
    assert pretty_rvalue(Intrinsic("min", (cp(1), k(3, U32)))) == "@min(copy _1, const 3_u32)"
    assert pretty_rvalue(StaticRef("k$TILE")) == "StaticRef(k$TILE)"


def test_terminators():
    assert pretty_terminator(Goto(3, S)) == "goto -> bb3;"
    assert pretty_terminator(SwitchInt(cp(8, Field(0)), (0,), (2,), 1, S)) == \
        "switchInt(copy _8.0) -> [0: bb2, otherwise: bb1];"
    assert pretty_terminator(SwitchInt(cp(1), (1, 2), (3, 4), 5, S)) == \
        "switchInt(copy _1) -> [1: bb3, 2: bb4, otherwise: bb5];"
    assert pretty_terminator(Return(S)) == "return;"
    assert pretty_terminator(Unreachable(S)) == "unreachable;"
    assert pretty_terminator(Call("lerp", (cp(1), k(0.5, F32)), pl(4), 2, S)) == \
        "_4 = lerp(copy _1, const 0.5_f32) -> [return: bb2];"
    assert pretty_terminator(Assert(cp(7), True, 'index "out" of bounds', 1, S)) == \
        'assert(copy _7, "index \\"out\\" of bounds") -> [success: bb1];'
    assert pretty_terminator(Assert(cp(7), False, "division by zero", 1, S)) == \
        'assert(!copy _7, "division by zero") -> [success: bb1];'


# ---------------------------------------------------------------------------
# Bodies and programs


def vecadd() -> Body:
    slice_ = RefTy(SliceTy(F32), False)
    opt = option_ty(RefTy(F32, True))
    b = body([(slice_, "a"), (slice_, "b"), (DisjointSliceTy(F32), "c")],
             [(U32, None), (USIZE, "i"), (USIZE, None), (BOOL, None), (RefTy(F32, True), None),
              (opt, None), (RefTy(F32, True), "o"), (F32, None)], [
        bb(let(4, Intrinsic("tid.x", ())), let(5, Cast(cp(4), USIZE)),
           let(6, Len(pl(3))), let(7, BinaryOp("lt", cp(5), cp(6))),
           let(8, Ref(pl(3, Deref(), Index(5)), True)),
           let(9, Aggregate(opt, (cp(7), mv(8)))),
           term=SwitchInt(cp(7), (0,), (2,), 1, S)),
        bb(let(10, Use(mv(9, Field(0, 1)))),
           let(11, BinaryOp("add", cp(1, Deref(), Index(5)), cp(2, Deref(), Index(5)))),
           let(pl(10, Deref()), Use(mv(11))),
           Effect("sync_threads", (), S), Nop(S),
           term=Goto(2, S)),
        bb(term=Return(S)),
    ], name="vecadd")
    b.locals[3].mutable = True
    return b


VECADD = """
    #[kernel]
    fn vecadd(_1: &[f32], _2: &[f32], mut _3: DisjointSlice<f32>) -> () {
        debug a => _1;
        debug b => _2;
        debug c => _3;
        let mut _0: ();
        let mut _4: u32;
        let _5: usize; // i
        let mut _6: usize;
        let mut _7: bool;
        let mut _8: &mut f32;
        let mut _9: Option<&mut f32>;
        let _10: &mut f32; // o
        let mut _11: f32;

        bb0: {
            _4 = @tid.x();
            _5 = copy _4 as usize;
            _6 = Len(_3);
            _7 = Lt(copy _5, copy _6);
            _8 = &mut (*_3)[_5];
            _9 = Option::<&mut f32>(copy _7, move _8);
            switchInt(copy _7) -> [0: bb2, otherwise: bb1];
        }

        bb1: {
            _10 = move (_9 as #1).0;
            _11 = Add(copy (*_1)[_5], copy (*_2)[_5]);
            (*_10) = move _11;
            sync_threads();
            nop;
            goto -> bb2;
        }

        bb2: {
            return;
        }
    }
    """


def test_pretty_body():
    b = vecadd()
    verify_body(b)
    assert pretty_body(b) == text(VECADD)
    assert pretty_body(b) == pretty_body(vecadd())  # deterministic


def test_pretty_program_with_statics_attrs_and_device_fn():
    lerp = body([(F32, "a"), (F32, "b")], [(F32, None)], [
        bb(let(3, BinaryOp("sub", cp(2), cp(1))), let(0, BinaryOp("add", cp(1), cp(3))),
           term=Return(S)),
    ], ret=F32, name="lerp", kind="device")
    tile = SharedArrayTy(F32, 256)
    k_ = body([], [(PtrTy(tile, True), None), (F32, None)], [
        bb(let(1, StaticRef("k$TILE")), term=Call("lerp", (k(1.0, F32), k(2.0, F32)), pl(2), 1, S)),
        bb(let(pl(1, Deref(), ConstIndex(0)), Use(cp(2))), term=Return(S)),
    ], name="k")
    k_.launch = LaunchInfo(bounds=(256, 2))
    prog = Program([lerp, k_], [StaticDecl("k$TILE", tile, "shared", S)])
    verify_program(prog)
    assert pretty_program(prog) == text("""
        static mut k$TILE: SharedArray<f32, 256>; // shared

        #[device]
        fn lerp(_1: f32, _2: f32) -> f32 {
            debug a => _1;
            debug b => _2;
            let mut _0: f32;
            let mut _3: f32;

            bb0: {
                _3 = Sub(copy _2, copy _1);
                _0 = Add(copy _1, copy _3);
                return;
            }
        }

        #[kernel]
        #[launch_bounds(256, 2)]
        fn k() -> () {
            let mut _0: ();
            let mut _1: *mut SharedArray<f32, 256>;
            let mut _2: f32;

            bb0: {
                _1 = StaticRef(k$TILE);
                _2 = lerp(const 1.0_f32, const 2.0_f32) -> [return: bb1];
            }

            bb1: {
                (*_1)[0] = copy _2;
                return;
            }
        }
        """)


def test_pretty_with_spans():
    src = SourceFile("k.rs", "fn f() {\n    return;\n}\n")
    span = Span(src, 13, 19)
    b = body([], [], [bb(Nop(span), term=Return(span))])
    assert pretty_body(b, spans=True).splitlines()[5:7] == [
        "        nop; // 2:5", "        return; // 2:5"]


# ---------------------------------------------------------------------------
# Types of places


def test_place_ty_through_projections():
    b = body([(RefTy(SliceTy(F32), False), "a"), (DisjointSliceTy(U32), "c"),
              (PtrTy(I64, True), "p"), (USIZE, "i")],
             [(option_ty(RefTy(F32, True)), None), (POINT, None), (TupleTy((I32, BOOL)), None),
              (ArrayTy(U8, 4), None), (PtrTy(SharedArrayTy(F32, 8), True), None),
              (RefTy(ArrayTy(F64, 2), False), None)], [bb(term=Return(S))])
    assert place_ty(b, pl(1, Deref(), Index(4))) == F32
    assert place_ty(b, pl(1, Deref())) == SliceTy(F32)
    assert place_ty(b, pl(2, Deref(), Index(4))) == U32
    assert place_ty(b, pl(3, Deref())) == I64
    assert rvalue_ty(b, Discriminant(pl(5))) == BOOL
    assert place_ty(b, pl(5, Field(0, 1))) == RefTy(F32, True)
    assert place_ty(b, pl(5, Field(0, 1), Deref())) == F32
    assert place_ty(b, pl(6, Field(1))) == F32
    assert place_ty(b, pl(7, Field(1))) == BOOL
    assert place_ty(b, pl(8, ConstIndex(3))) == U8
    assert place_ty(b, pl(9, Deref(), Index(4))) == F32
    assert place_ty(b, pl(10, Deref(), ConstIndex(1))) == F64
    assert operand_ty(b, k(1, U8)) == U8
    assert rvalue_ty(b, BinaryOp("lt", cp(4), k(1, USIZE))) == BOOL
    assert rvalue_ty(b, Ref(pl(2, Deref(), Index(4)), True)) == RefTy(U32, True)
    assert rvalue_ty(b, Intrinsic("tid.x", ())) == U32
    assert rvalue_ty(b, Repeat(k(0, U8), 3)) == ArrayTy(U8, 3)
    assert rvalue_ty(b, StaticRef("x")) is None
    with pytest.raises(MirTypeError, match="cannot index into a value of type `&\\[f32\\]`"):
        place_ty(b, pl(1, Index(4)))
    with pytest.raises(MirTypeError, match="no field 2 on type `Point`"):
        place_ty(b, pl(6, Field(2)))
    with pytest.raises(MirTypeError, match="cannot dereference a value of type `usize`"):
        place_ty(b, pl(4, Deref()))


# ---------------------------------------------------------------------------
# The verifier


def errors_of(b: Body) -> list[str]:
    with pytest.raises(MirVerifyError) as info:
        verify_body(b)
    return info.value.errors


def test_verify_accepts_thread_index_as_usize():
    b = body([(DisjointSliceTy(F32), "c")], [(THREAD_INDEX, "i"), (USIZE, None), (BOOL, None),
                                              (RefTy(F32, True), None), (U32, None)], [
        bb(let(6, Intrinsic("tid.x", ())), let(2, Cast(cp(6), USIZE)),
           let(3, Len(pl(1))), let(4, BinaryOp("lt", cp(2), cp(3))),
           let(5, Ref(pl(1, Deref(), Index(2)), True)), term=Return(S))])
    verify_body(b)


def test_verify_catches_a_bad_target():
    b = body([], [], [bb(term=Goto(3, S)), bb(term=Return(S))])
    assert errors_of(b) == ["fn f: bb0[term]: target bb3 out of range (the body has 2 blocks)"]


def test_verify_catches_structural_errors():
    b = body([], [(BOOL, None)], [
        bb(let(7, Use(k(1, U32))), term=SwitchInt(cp(1), (0, 1), (1,), 1, S)),
        BasicBlock([], None),
    ])
    b.arg_count = 5
    assert errors_of(b) == [
        "fn f: arg_count 5 but only 1 locals after the return place",
        "fn f: bb0[0]: local _7 out of range (the body has 2)",
        "fn f: bb0[term]: switchInt has 2 values but 1 targets",
        "fn f: bb1[term]: block has no terminator",
    ]
    assert str(MirVerifyError(["a", "b"])) == "invalid MIR:\n  a\n  b"


def test_verify_catches_type_errors():
    b = body([(RefTy(SliceTy(F32), False), "a"), (I32, "n")],
             [(F32, None), (BOOL, None), (U8, None), (F64, None)], [
        bb(let(3, Use(cp(1, Deref(), Index(2)))),             # index by an i32
           let(3, BinaryOp("add", cp(3), k(1.0, F64))),       # f32 + f64
           let(4, BinaryOp("add", cp(2), k(1, I32))),         # i32 into a bool
           let(5, Use(k(300, U8))),                           # out of range
           let(6, Use(cp(1, Field(0)))),                      # field of a reference
           term=Assert(cp(2), True, "x", 1, S)),
        bb(term=SwitchInt(cp(3), (0,), (1,), 1, S)),
    ])
    assert errors_of(b) == [
        "fn f: bb0[0]: index local _2 has type `i32`, expected `usize`",
        "fn f: bb0[1]: operator `add` applied to `f32` and `f64`",
        "fn f: bb0[2]: assigns a `i32` to a place of type `bool`",
        "fn f: bb0[3]: constant 300 out of range for `u8`",
        "fn f: bb0[4]: in `_1.0`: no field 0 on type `&[f32]`",
        "fn f: bb0[term]: assert on a value of type `i32`",
        "fn f: bb1[term]: switchInt on a value of type `f32`",
    ]


def test_verify_program_checks_calls_and_statics():
    callee = body([(F32, "x")], [], [bb(term=Return(S))], ret=F32, name="g", kind="device")
    caller = body([], [(F32, None), (PtrTy(F32, True), None)], [
        bb(let(2, StaticRef("nope")), term=Call("g", (), pl(1), 1, S)),
        bb(term=Call("h", (), pl(1), 2, S)),
        bb(term=Return(S)),
    ], name="k")
    with pytest.raises(MirVerifyError) as info:
        verify_program(Program([callee, caller]))
    assert info.value.errors == [
        "fn k: bb0[term]: `g` takes 1 arguments, 0 given",
        "fn k: bb0[0]: unknown static `nope`",
        "fn k: bb1[term]: call to unknown fn `h`",
    ]
