"""PTX emitter cases: hand-built MIR programs with CHECK lines on the PTX they give.

Each case is a function returning a `Case`. `checks` must match lines of the PTX in
order (a substring of each line, as FileCheck's CHECK); `absent` must match no line.
`stack_ok` marks cases that are meant to use `.local` memory (a stack frame).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from mirbuild import D, F0, F1, F2, P, Fn, c, cidx, cp, idx, mv, program, shared_static, slice_of

from oxidec.mir.syntax import (Aggregate, Assert, BinaryOp, Call, Cast, Field, Goto, Intrinsic, LaunchInfo, Len,
                               Program, Ref, Repeat, Return, StaticRef, SwitchInt, UnaryOp,
                               Unreachable, Use)
from oxidec.types import (BOOL, F32, F64, I8, I16, I32, I64, ISIZE, U8, U16, U32, U64, UNIT,
                          USIZE, ArrayTy, DisjointSliceTy, option_ty, PtrTy, RefTy,
                          SharedArrayTy, StructTy, ThreadIndexTy, TupleTy)


@dataclass
class Case:
    program: Program
    checks: list[str]
    absent: list[str] = field(default_factory=list)
    options: dict = field(default_factory=dict)
    stack_ok: bool = False  # meant to use a stack frame (.local memory, recursion)


CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def thread_index(f: Fn, bb: int) -> int:
    """_i = (ctaid.x * ntid.x + tid.x) as usize, the way index_1d() computes it."""
    ctaid, ntid, tid = f.local(U32), f.local(U32), f.local(U32)
    prod, lin = f.local(U32), f.local(U32)
    i = f.local(USIZE, "i")
    f.assign(bb, ctaid, Intrinsic("ctaid.x", ()))
    f.assign(bb, ntid, Intrinsic("ntid.x", ()))
    f.assign(bb, tid, Intrinsic("tid.x", ()))
    f.assign(bb, prod, BinaryOp("mul", cp(ctaid), cp(ntid)))
    f.assign(bb, lin, BinaryOp("add", mv(prod), cp(tid)))
    f.assign(bb, i, Cast(cp(lin), USIZE))
    return i


def bounds_checked_load(f: Fn, bb: int, next_bb: int, slice_local: int, i: int, dst: int):
    """len = Len(s); ok = i < len; assert(ok) -> next_bb; next_bb: dst = (*s)[i]."""
    n, ok = f.local(USIZE), f.local(BOOL)
    f.assign(bb, n, Len(P(slice_local)))
    f.assign(bb, ok, BinaryOp("lt", cp(i), cp(n)))
    f.term(bb, Assert, cp(ok), True, "index out of bounds", next_bb)
    f.assign(next_bb, dst, Use(cp(slice_local, D, idx(i))))


def get_mut(f: Fn, bb: int, out: int, i: int, some_bb: int, none_bb: int) -> int:
    """if let Some(o) = out.get_mut(i) — returns o (a &mut T) valid in some_bb."""
    elem = out_elem = f.locals[out].ty.elem
    ref_ty = RefTy(out_elem, True)
    n, ok, r = f.local(USIZE), f.local(BOOL), f.local(ref_ty)
    opt, o = f.local(option_ty(ref_ty)), f.local(ref_ty, "o")
    f.assign(bb, n, Len(P(out)))
    f.assign(bb, ok, BinaryOp("lt", cp(i), cp(n)))
    f.assign(bb, r, Ref(P(out, D, idx(i)), True))
    f.assign(bb, opt, Aggregate(option_ty(ref_ty), (cp(ok), mv(r))))
    f.term(bb, SwitchInt, cp(ok), (0,), (none_bb,), some_bb)
    f.assign(some_bb, o, Use(cp(opt, Field(0, 1))))
    del elem
    return o


# ---------------------------------------------------------------------------

@case
def vecadd():
    f = Fn("vecadd")
    a, b = f.arg("a", slice_of(F32)), f.arg("b", slice_of(F32))
    out = f.arg("out", DisjointSliceTy(F32))
    bb0, bb1, bb2, bb3, done = (f.block() for _ in range(5))
    i = thread_index(f, bb0)
    o = get_mut(f, bb0, out, i, bb1, done)
    x, y = f.local(F32), f.local(F32)
    bounds_checked_load(f, bb1, bb2, a, i, x)
    bounds_checked_load(f, bb2, bb3, b, i, y)
    f.assign(bb3, P(o, D), BinaryOp("add", cp(x), cp(y)))
    f.term(bb3, Goto, done)
    f.term(done, Return)
    checks = [
        ".version 7.8", ".target sm_80", ".address_size 64", '.file 1 "kernels.rs"',
        ".visible .entry vecadd(", ".param .u64 vecadd_param_0", ".param .u64 vecadd_param_5",
        "cvta.to.global.u64", "mov.u32", "%ctaid.x", "mul.wide.u32", "@!%p",
        "ld.global.nc.f32", "ld.global.nc.f32", "add.rn.f32", "st.global.f32", "ret;",
        "$L__BB0_trap:", "trap;",
    ]
    return Case(program(f), checks, absent=["ld.f32", "st.f32", "fma"])


@case
def saxpy_contracts_to_fma():
    f = Fn("saxpy")
    alpha = f.arg("alpha", F32)
    x = f.arg("x", slice_of(F32))
    y = f.arg("y", DisjointSliceTy(F32))
    bb0, bb1, bb2, done = (f.block() for _ in range(4))
    i = thread_index(f, bb0)
    o = get_mut(f, bb0, y, i, bb1, done)
    xi, prod, s = f.local(F32), f.local(F32), f.local(F32)
    bounds_checked_load(f, bb1, bb2, x, i, xi)
    f.assign(bb2, prod, BinaryOp("mul", cp(alpha), cp(xi)))
    old = f.local(F32)
    f.assign(bb2, old, Use(cp(o, D)))
    f.assign(bb2, s, BinaryOp("add", mv(prod), cp(old)))
    f.assign(bb2, P(o, D), Use(mv(s)))
    f.term(bb2, Goto, done)
    f.term(done, Return)
    return Case(program(f), ["ld.param.f32", "ld.global.f32", "fma.rn.f32", "st.global.f32"],
                absent=["mul.rn.f32", "add.rn.f32"])


@case
def saxpy_without_fmad():
    base = saxpy_contracts_to_fma()
    return Case(base.program, ["mul.rn.f32", "add.rn.f32"], absent=["fma"],
                options={"fmad": False})


@case
def mul_add_intrinsic_is_fma():
    f = Fn("muladd", "device", ret=F64)
    a, b, cc = f.arg("a", F64), f.arg("b", F64), f.arg("c", F64)
    bb0 = f.block()
    f.assign(bb0, 0, Intrinsic("fma", (cp(a), cp(b), cp(cc))))
    f.term(bb0, Return)
    k = Fn("k")
    out = k.arg("out", PtrTy(F64, True))
    kb = k.block()
    kb1 = k.block()
    r = k.local(F64)
    k.term(kb, Call, "muladd", (c(1.5, F64), c(2.0, F64), c(-0.25, F64)), P(r), kb1)
    k.assign(kb1, P(out, D), Use(cp(r)))
    k.term(kb1, Return)
    checks = [".func (.param .f64 func_retval0) muladd(", "fma.rn.f64", "st.param.f64",
              ".visible .entry k(", "0d3FF8000000000000", "call (retval0), muladd,",
              "ld.param.f64", "st.global.f64"]
    return Case(program(f, k), checks, options={"fmad": False})


@case
def sub_of_product_contracts():
    f = Fn("k")
    out = f.arg("out", PtrTy(F32, True))
    a, b, x = f.arg("a", F32), f.arg("b", F32), f.arg("x", F32)
    bb = f.block()
    p1, p2, r1, r2 = f.local(F32), f.local(F32), f.local(F32), f.local(F32)
    f.assign(bb, p1, BinaryOp("mul", cp(a), cp(b)))
    f.assign(bb, r1, BinaryOp("sub", cp(x), mv(p1)))  # x - a*b = fma(-a, b, x)
    f.assign(bb, p2, BinaryOp("mul", cp(a), cp(b)))
    f.assign(bb, r2, BinaryOp("sub", mv(p2), cp(r1)))  # a*b - r1 = fma(a, b, -r1)
    f.assign(bb, P(out, D), Use(cp(r2)))
    f.term(bb, Return)
    return Case(program(f), ["xor.b32", "fma.rn.f32", "xor.b32", "fma.rn.f32"],
                absent=["mul.rn", "sub.rn"])


@case
def product_used_twice_is_not_contracted():
    f = Fn("k")
    out = f.arg("out", PtrTy(F32, True))
    a, b = f.arg("a", F32), f.arg("b", F32)
    bb = f.block()
    p, s = f.local(F32), f.local(F32)
    f.assign(bb, p, BinaryOp("mul", cp(a), cp(b)))
    f.assign(bb, s, BinaryOp("add", cp(p), cp(p)))
    f.assign(bb, P(out, D), Use(cp(s)))
    f.term(bb, Return)
    return Case(program(f), ["mul.rn.f32", "add.rn.f32"], absent=["fma"])


@case
def loop_with_switch_int():
    """let mut acc = 0f32; let mut k = 0usize; while k < n { acc += a[k]; k += 1 }"""
    f = Fn("sum")
    a = f.arg("a", slice_of(F32))
    out = f.arg("out", PtrTy(F32, True))
    acc, k, n, cond, x = f.local(F32, "acc"), f.local(USIZE, "k"), f.local(USIZE), \
        f.local(BOOL), f.local(F32)
    entry, head, body, load, done = (f.block() for _ in range(5))
    f.assign(entry, acc, Use(c(0.0, F32)))
    f.assign(entry, k, Use(c(0, USIZE)))
    f.term(entry, Goto, head)
    f.assign(head, n, Len(P(a)))
    f.assign(head, cond, BinaryOp("lt", cp(k), cp(n)))
    f.term(head, SwitchInt, cp(cond), (0,), (done,), body)
    bounds_checked_load(f, body, load, a, k, x)
    f.assign(load, acc, BinaryOp("add", cp(acc), cp(x)))
    f.assign(load, k, BinaryOp("add", cp(k), c(1, USIZE)))
    f.term(load, Goto, head)
    f.assign(done, P(out, D), Use(cp(acc)))
    f.term(done, Return)
    checks = ["mov.f32", "0f00000000", "$L__BB0_1:", "setp.lt.u64", "@!%p", "bra",
              "ld.global.nc.f32", "add.rn.f32", "add.u64", "bra \t$L__BB0_1;",
              "$L__BB0_4:", "st.global.f32"]
    return Case(program(f), checks)


@case
def switch_on_integer_values():
    f = Fn("k")
    sel = f.arg("sel", I32)
    out = f.arg("out", PtrTy(I32, True))
    b0, b1, b2, b3, done = (f.block() for _ in range(5))
    f.term(b0, SwitchInt, cp(sel), (0, 7, -1), (b1, b2, b3), done)
    for bb, v in ((b1, 10), (b2, 20), (b3, 30)):
        f.assign(bb, P(out, D), Use(c(v, I32)))
        f.term(bb, Goto, done)
    f.term(done, Return)
    checks = ["setp.eq.s32", ", 0;", "setp.eq.s32", ", 7;", "setp.eq.s32", ", -1;",
              "st.global.u32", "st.global.u32", "st.global.u32", "ret;"]
    return Case(program(f), checks)


@case
def narrow_integers_wrap():
    f = Fn("narrow")
    bytes_ = f.arg("bytes", PtrTy(U8, True))
    halves = f.arg("halves", PtrTy(I16, True))
    sb = f.arg("sb", PtrTy(I8, True))
    bb = f.block()
    x, y, z, s1, s2, h1, h2, h3, n1 = (f.local(t) for t in (U8, U8, U8, I8, I8, I16, I16, I16, U8))
    f.assign(bb, x, Use(cp(bytes_, D)))
    f.assign(bb, y, BinaryOp("add", cp(x), c(200, U8)))  # wraps past 255
    f.assign(bb, z, BinaryOp("shl", cp(y), c(9, U32)))  # amount masked to 1
    f.assign(bb, n1, UnaryOp("not", cp(z)))
    f.assign(bb, P(bytes_, D), Use(cp(n1)))
    f.assign(bb, s1, Use(cp(sb, D)))
    f.assign(bb, s2, BinaryOp("mul", cp(s1), c(-3, I8)))
    f.assign(bb, s2, BinaryOp("shr", cp(s2), cp(x)))  # arithmetic, amount masked to 7
    f.assign(bb, P(sb, D), Use(cp(s2)))
    f.assign(bb, h1, Use(cp(halves, D)))
    f.assign(bb, h2, BinaryOp("mul", cp(h1), c(300, I16)))
    f.assign(bb, h3, UnaryOp("neg", cp(h2)))
    f.assign(bb, P(halves, D), Use(cp(h3)))
    f.term(bb, Return)
    checks = ["ld.global.u8", "add.u32", "and.b32", ", 255;", "shl.b32", ", 1;", "and.b32",
              "not.b32", "and.b32", "st.global.u8", "ld.global.s8", "mul.lo.s32",
              "cvt.s32.s8", "and.b32", ", 7;", "shr.s32", "st.global.u8", "ld.global.s16",
              "mul.lo.s32", "cvt.s32.s16", "neg.s32", "cvt.s32.s16", "st.global.u16"]
    return Case(program(f), checks, absent=[".b16", ".u8 \t%rs"])


@case
def shifts_mask_amounts():
    f = Fn("shifts")
    out = f.arg("out", PtrTy(U64, True))
    v, amt = f.arg("v", U64), f.arg("amt", U64)
    w, amt32 = f.arg("w", I32), f.arg("amt32", U32)
    bb = f.block()
    r1, r2 = f.local(U64), f.local(I32)
    f.assign(bb, r1, BinaryOp("shl", cp(v), cp(amt)))
    f.assign(bb, r2, BinaryOp("shr", cp(w), cp(amt32)))
    f.assign(bb, P(out, D), Use(cp(r1)))
    f.assign(bb, P(out, D), Cast(cp(r2), U64))
    f.term(bb, Return)
    checks = ["cvt.u32.u64", "and.b32", ", 63;", "shl.b64", "and.b32", ", 31;", "shr.s32",
              "cvt.s64.s32"]
    return Case(program(f), checks)


CAST_PAIRS = [
    (F32, I32, "cvt.rzi.s32.f32"), (F32, U64, "cvt.rzi.u64.f32"),
    (F64, I64, "cvt.rzi.s64.f64"), (F32, U8, "cvt.rzi.u32.f32"), (F32, I8, "max.s32"),
    (I32, F32, "cvt.rn.f32.s32"), (U64, F64, "cvt.rn.f64.u64"), (U8, F32, "cvt.rn.f32.u32"),
    (F32, F64, "cvt.f64.f32"), (F64, F32, "cvt.rn.f32.f64"),
    (I32, I64, "cvt.s64.s32"), (U32, U64, "cvt.u64.u32"), (I64, I32, "cvt.u32.u64"),
    (U64, U8, "and.b32"), (I32, I8, "cvt.s32.s8"), (I8, U16, "and.b32"),
    (U8, I16, "mov.b32"), (I8, I64, "cvt.s64.s32"), (U16, U64, "cvt.u64.u32"),
    (BOOL, I32, "selp.u32"), (BOOL, U64, "selp.u64"), (USIZE, ISIZE, "mov.b64"),
]


@case
def every_cast():
    f = Fn("casts")
    sinks = {}
    checks = []
    bb = f.block()
    for n, (src, dst, expect) in enumerate(CAST_PAIRS):
        arg = f.arg(f"x{n}", src)
        sinks[n] = (arg, dst, expect)
    for n, (arg, dst, expect) in sinks.items():
        out = f.local(dst)
        f.assign(bb, out, Cast(cp(arg), dst))
        checks.append(expect)
        ptr = f.local(PtrTy(dst, True))
        f.assign(bb, ptr, Cast(c(0x1000 + 16 * n, USIZE), PtrTy(dst, True)))
        f.assign(bb, P(ptr, D), Use(cp(out)))
    f.term(bb, Return)
    return Case(program(f), checks, absent=["cvt.rni"])


@case
def float_to_narrow_saturates():
    f = Fn("k")
    x = f.arg("x", F32)
    out = f.arg("out", PtrTy(U8, True))
    bb = f.block()
    b = f.local(U8)
    f.assign(bb, b, Cast(cp(x), U8))
    f.assign(bb, P(out, D), Use(cp(b)))
    f.term(bb, Return)
    return Case(program(f), ["cvt.rzi.u32.f32", "min.u32", ", 255;", "st.global.u8"])


@case
def device_call_returning_f32():
    lerp = Fn("lerp", "device", ret=F32)
    a, b, t = lerp.arg("a", F32), lerp.arg("b", F32), lerp.arg("t", F32)
    bb = lerp.block()
    d, m = lerp.local(F32), lerp.local(F32)
    lerp.assign(bb, d, BinaryOp("sub", cp(b), cp(a)))
    lerp.assign(bb, m, BinaryOp("mul", mv(d), cp(t)))
    lerp.assign(bb, 0, BinaryOp("add", cp(a), mv(m)))
    lerp.term(bb, Return)

    k = Fn("blend")
    x, y = k.arg("x", slice_of(F32)), k.arg("y", slice_of(F32))
    t = k.arg("t", F32)
    out = k.arg("out", DisjointSliceTy(F32))
    bb0, bb1, bb2, bb3, bb4, done = (k.block() for _ in range(6))
    i = thread_index(k, bb0)
    o = get_mut(k, bb0, out, i, bb1, done)
    xi, yi, r = k.local(F32), k.local(F32), k.local(F32)
    bounds_checked_load(k, bb1, bb2, x, i, xi)
    bounds_checked_load(k, bb2, bb3, y, i, yi)
    k.term(bb3, Call, "lerp", (cp(xi), cp(yi), cp(t)), P(r), bb4)
    k.assign(bb4, P(o, D), Use(cp(r)))
    k.term(bb4, Goto, done)
    k.term(done, Return)
    checks = [".func (.param .f32 func_retval0) lerp(", ".param .f32 lerp_param_0",
              "ld.param.f32", "sub.rn.f32", "fma.rn.f32", "st.param.f32 \t[func_retval0]",
              "ret;", ".visible .entry blend(", ".param .f32 param0;",
              "st.param.f32 \t[param0]", "call (retval0), lerp, (param0, param1, param2);",
              "ld.param.f32", "st.global.f32"]
    return Case(program(lerp, k), checks)


@case
def device_fn_with_slice_and_struct_return():
    pair = StructTy("Pair", (("lo", F32), ("hi", U64), ("ok", BOOL)), True)
    g = Fn("first_two", "device", ret=pair)
    s = g.arg("s", slice_of(F32))
    bb, bb1, bb2 = g.block(), g.block(), g.block()
    x = g.local(F32)
    zero = g.local(USIZE)
    g.assign(bb, zero, Use(c(0, USIZE)))
    bounds_checked_load(g, bb, bb1, s, zero, x)
    n = g.local(USIZE)
    g.assign(bb1, n, Len(P(s)))
    g.assign(bb1, 0, Aggregate(pair, (cp(x), cp(n), c(True, BOOL))))
    g.term(bb1, Goto, bb2)
    g.term(bb2, Return)

    k = Fn("k")
    a = k.arg("a", slice_of(F32))
    out = k.arg("out", PtrTy(pair, True))
    kb, kb1 = k.block(), k.block()
    r = k.local(pair)
    k.term(kb, Call, "first_two", (cp(a),), P(r), kb1)
    k.assign(kb1, P(out, D), Use(cp(r)))
    k.term(kb1, Return)
    checks = [".func (.param .align 8 .b8 func_retval0[24]) first_two(",
              ".param .b64 first_two_param_0", ".param .b64 first_two_param_1",
              "ld.f32", "st.param.f32 \t[func_retval0]", "st.param.b64 \t[func_retval0+8]",
              "selp.u32", "st.param.b32 \t[func_retval0+16]", ".visible .entry k(",
              "cvta.global.u64", "st.param.b64", "call (retval0), first_two, (param0, param1);",
              "ld.param.f32", "ld.param.b64", "ld.param.b32", "setp.ne.b32",
              "st.global.f32", "st.global.u64 \t[%rd", "+8]", "selp.u32", "st.global.u8", "+16]"]
    return Case(program(g, k), checks, absent=["ld.global.f32"])


@case
def shared_array_and_barrier():
    tile_ty = SharedArrayTy(F32, 256)
    tile = shared_static("reverse$TILE", tile_ty)
    f = Fn("reverse")
    a = f.arg("a", slice_of(F32))
    out = f.arg("out", DisjointSliceTy(F32))
    bb0, bb1, bb2, bb3, bb4, done = (f.block() for _ in range(6))
    tid, t64, j, x, y = f.local(U32), f.local(USIZE), f.local(USIZE), f.local(F32), f.local(F32)
    base = f.local(PtrTy(tile_ty, True))
    f.assign(bb0, tid, Intrinsic("tid.x", ()))
    f.assign(bb0, t64, Cast(cp(tid), USIZE))
    f.assign(bb0, base, StaticRef("reverse$TILE"))
    bounds_checked_load(f, bb0, bb1, a, t64, x)
    f.assign(bb1, P(base, D, idx(t64)), Use(cp(x)))
    f.effect(bb1, "sync_threads")
    f.assign(bb1, j, BinaryOp("sub", c(255, USIZE), cp(t64)))
    f.assign(bb1, y, Use(cp(base, D, idx(j))))
    f.term(bb1, Goto, bb2)
    o = get_mut(f, bb2, out, t64, bb3, done)
    f.assign(bb3, P(o, D), Use(cp(y)))
    f.term(bb3, Goto, bb4)
    f.term(bb4, Goto, done)
    f.term(done, Return)
    checks = [".shared .align 4 .b8 reverse$TILE[1024];", "mov.u64", "reverse$TILE;",
              "st.shared.f32", "bar.sync \t0;", "ld.shared.f32", "st.global.f32"]
    return Case(program(f, statics=(tile,)), checks)


@case
def shared_and_global_pointer_becomes_generic():
    tile_ty = SharedArrayTy(F32, 32)
    tile = shared_static("pick$T", tile_ty)
    f = Fn("pick")
    g = f.arg("g", PtrTy(F32, True))
    flag = f.arg("flag", BOOL)
    bb0, bb1, bb2, bb3 = (f.block() for _ in range(4))
    sp, p = f.local(PtrTy(tile_ty, True)), f.local(PtrTy(F32, True))
    f.assign(bb0, sp, StaticRef("pick$T"))
    f.term(bb0, SwitchInt, cp(flag), (0,), (bb2,), bb1)
    f.assign(bb1, p, Cast(cp(sp), PtrTy(F32, True)))
    f.term(bb1, Goto, bb3)
    f.assign(bb2, p, Use(cp(g)))
    f.term(bb2, Goto, bb3)
    f.assign(bb3, P(p, D), Use(c(1.0, F32)))
    f.term(bb3, Return)
    checks = [".param .u8 pick_param_1", "ld.param.u8", "setp.ne.b32", "cvta.shared.u64",
              "cvta.global.u64", "st.f32", "0f3F800000"]
    return Case(program(f, statics=(tile,)), checks, absent=["st.global.f32", "st.shared.f32"])


@case
def option_of_mut_ref_aggregate():
    base = vecadd()
    return Case(base.program, ["setp.lt.u64", "mov.pred", "@!%p", "st.global.f32"])


@case
def struct_local_and_param():
    point = StructTy("Point", (("x", F32), ("y", F32), ("tag", U8), ("w", F64)), True)
    f = Fn("norm")
    p = f.arg("p", point)
    out = f.arg("out", PtrTy(F64, True))
    bb = f.block()
    q = f.local(point, "q")
    sx, sy, s, w = f.local(F32), f.local(F32), f.local(F32), f.local(F64)
    f.assign(bb, q, Aggregate(point, (cp(p, F1), cp(p, F0), cp(p, F2), c(2.0, F64))))
    f.assign(bb, P(q, F0), BinaryOp("mul", cp(q, F0), cp(q, F0)))
    f.assign(bb, sx, Use(cp(q, F0)))
    f.assign(bb, sy, BinaryOp("mul", cp(q, F1), cp(q, F1)))
    f.assign(bb, s, BinaryOp("add", cp(sx), cp(sy)))
    f.assign(bb, s, Intrinsic("sqrt", (cp(s),)))
    f.assign(bb, w, Cast(cp(s), F64))
    f.assign(bb, w, BinaryOp("div", cp(w), cp(q, Field(3))))
    f.assign(bb, P(out, D), Use(cp(w)))
    f.term(bb, Return)
    checks = [".param .align 8 .b8 norm_param_0[24]", "ld.param.f32", "[norm_param_0+4]",
              "ld.param.u8", "[norm_param_0+8]", "ld.param.f64", "[norm_param_0+16]",
              "mul.rn.f32", "sqrt.rn.f32", "cvt.f64.f32", "div.rn.f64", "st.global.f64"]
    return Case(program(f), checks)


@case
def float_compare_ne_is_unordered():
    f = Fn("cmp")
    a, b = f.arg("a", F32), f.arg("b", F64)
    out = f.arg("out", PtrTy(BOOL, True))
    bb = f.block()
    ne, lt, eq, both = f.local(BOOL), f.local(BOOL), f.local(BOOL), f.local(BOOL)
    f.assign(bb, ne, BinaryOp("ne", cp(a), c(0.5, F32)))
    f.assign(bb, lt, BinaryOp("lt", cp(b), c(0.1, F64)))
    f.assign(bb, eq, BinaryOp("eq", cp(ne), cp(lt)))
    f.assign(bb, both, BinaryOp("bitand", cp(eq), cp(ne)))
    f.assign(bb, P(out, D), Use(cp(both)))
    f.term(bb, Return)
    checks = ["setp.neu.f32", "setp.lt.f64", "0d3FB999999999999A", "xor.pred", "not.pred",
              "and.pred", "selp.u32", "st.global.u8"]
    return Case(program(f), checks, absent=["setp.ne.f32"])


@case
def float_compared_with_itself_is_testp():
    """`x != x` / `x == x` are NaN tests, written `testp` (ptx/instrs.py nan_test says why)."""
    f = Fn("selfcmp")
    a, b = f.arg("a", F32), f.arg("b", F64)
    out = f.arg("out", PtrTy(BOOL, True))
    bb = f.block()
    ne, eq, both = f.local(BOOL), f.local(BOOL), f.local(BOOL)
    f.assign(bb, ne, BinaryOp("ne", cp(a), cp(a)))
    f.assign(bb, eq, BinaryOp("eq", cp(b), cp(b)))
    f.assign(bb, both, BinaryOp("bitand", cp(eq), cp(ne)))
    f.assign(bb, P(out, D), Use(cp(both)))
    f.term(bb, Return)
    return Case(program(f), ["testp.notanumber.f32", "testp.number.f64"],
                absent=["setp.neu.f32", "setp.eq.f64"])


@case
def math_intrinsics():
    f = Fn("math")
    x, n, m = f.arg("x", F32), f.arg("n", U32), f.arg("m", I16)
    out = f.arg("out", PtrTy(F32, True))
    iout = f.arg("iout", PtrTy(U32, True))
    bb = f.block()
    names = ["floor", "ceil", "round", "trunc", "abs", "sqrt"]
    checks = []
    expect = {"floor": "cvt.rmi.f32.f32", "ceil": "cvt.rpi.f32.f32", "round": "add.rz.f32",
              "trunc": "cvt.rzi.f32.f32", "abs": "and.b32", "sqrt": "sqrt.rn.f32"}
    for name in names:
        r = f.local(F32)
        f.assign(bb, r, Intrinsic(name, (cp(x),)))
        f.assign(bb, P(out, D), Use(cp(r)))
        checks.append(expect[name])
    mn, mx = f.local(F32), f.local(F32)
    f.assign(bb, mn, Intrinsic("min", (cp(x), c(1.0, F32))))
    f.assign(bb, mx, Intrinsic("max", (cp(mn), c(-1.0, F32))))
    f.assign(bb, P(out, D), Use(cp(mx)))
    checks += ["min.f32", "max.f32"]
    for name, arg, want in (("popc", n, "popc.b32"), ("clz", n, "clz.b32"),
                            ("ctz", n, "brev.b32"), ("clz", m, "sub.s32"),
                            ("popc", m, "and.b32")):
        r = f.local(U32)
        f.assign(bb, r, Intrinsic(name, (cp(arg),)))
        f.assign(bb, P(iout, D), Use(cp(r)))
        checks.append(want)
    s = f.local(U32)
    cond = f.local(BOOL)
    f.assign(bb, cond, BinaryOp("gt", cp(n), c(4, U32)))
    f.assign(bb, s, Intrinsic("select", (cp(cond), cp(n), c(4, U32))))
    f.assign(bb, P(iout, D), Use(cp(s)))
    lane, warp, w64, nw = f.local(U32), f.local(U32), f.local(USIZE), f.local(U32)
    f.assign(bb, lane, Intrinsic("laneid", ()))
    f.assign(bb, warp, Intrinsic("warpid", ()))
    f.assign(bb, nw, Intrinsic("nwarpid", ()))
    f.assign(bb, P(iout, D), Use(cp(nw)))
    f.assign(bb, w64, Intrinsic("ntid.y", ()))
    f.assign(bb, P(iout, D), BinaryOp("add", cp(lane), cp(warp)))
    f.assign(bb, P(iout, D), Cast(cp(w64), U32))
    f.term(bb, Return)
    checks += ["setp.gt.u32", "selp.b32", "%laneid", "%tid.y", "shr.u32", "%ntid.z",
               "mad.lo.u32", ", 31;", "shr.u32", "%ntid.y", "cvt.u64.u32"]
    return Case(program(f), checks, absent=["cvt.rni", "%warpid", "%nwarpid"])


@case
def register_array_dynamic_index_uses_predicated_moves():
    arr = ArrayTy(F32, 4)
    f = Fn("arr")
    k = f.arg("k", USIZE)
    out = f.arg("out", PtrTy(F32, True))
    bb = f.block()
    a, x = f.local(arr, "a"), f.local(F32)
    f.assign(bb, a, Repeat(c(0.0, F32), 4))
    f.assign(bb, P(a, cidx(2)), Use(c(2.0, F32)))
    f.assign(bb, P(a, idx(k)), Use(c(5.0, F32)))
    f.assign(bb, x, Use(cp(a, idx(k))))
    f.assign(bb, P(out, D), Use(cp(x)))
    f.term(bb, Return)
    checks = ["0f40000000", "setp.eq.u64", "@%p", "mov.f32", "0f40A00000", "setp.eq.u64",
              "@%p", "mov.f32", "st.global.f32"]
    return Case(program(f), checks, absent=[".local"])


@case
def big_register_array_dynamic_index_uses_local_memory():
    arr = ArrayTy(F32, 64)
    f = Fn("big")
    k = f.arg("k", USIZE)
    out = f.arg("out", PtrTy(F32, True))
    bb = f.block()
    a, x = f.local(arr, "a"), f.local(F32)
    f.assign(bb, a, Repeat(c(1.0, F32), 64))
    f.assign(bb, P(a, idx(k)), Use(c(5.0, F32)))
    f.assign(bb, x, Use(cp(a, idx(k))))
    f.assign(bb, P(out, D), Use(cp(x)))
    f.term(bb, Return)
    checks = [".local .align 4 .b8", "[256];", "mov.u64", "__local_", "st.local.f32",
              "st.local.f32", "ld.local.f32", "st.global.f32"]
    return Case(program(f), checks, stack_ok=True)


@case
def address_taken_local_lives_in_memory():
    f = Fn("addr")
    out = f.arg("out", PtrTy(I32, True))
    v = f.arg("v", I32)
    bb = f.block()
    x, r, y = f.local(I32, "x"), f.local(RefTy(I32, True), "r"), f.local(I32)
    f.assign(bb, x, Use(cp(v)))
    f.assign(bb, r, Ref(P(x), True))
    f.assign(bb, P(r, D), BinaryOp("add", cp(r, D), c(1, I32)))
    f.assign(bb, y, Use(cp(x)))
    f.assign(bb, P(out, D), Use(cp(y)))
    f.term(bb, Return)
    checks = [".local .align 4 .b8 \t__local_3[4];", "st.local.u32", "ld.local.s32",
              "add.s32", "st.local.u32", "ld.local.s32", "st.global.u32"]
    return Case(program(f), checks, stack_ok=True)


@case
def raw_pointers_and_ptr_add():
    f = Fn("ptrs")
    p = f.arg("p", PtrTy(F64, False))
    q = f.arg("q", PtrTy(F64, True))
    n = f.arg("n", USIZE)
    m = f.arg("m", U32)
    bb = f.block()
    p2, q2, v = f.local(PtrTy(F64, False)), f.local(PtrTy(F64, True)), f.local(F64)
    f.assign(bb, p2, Intrinsic("ptr_add", (cp(p), cp(n))))
    f.assign(bb, v, Use(cp(p2, D)))
    f.assign(bb, q2, Intrinsic("ptr_add", (cp(q), cp(m))))
    f.assign(bb, P(q2, D), BinaryOp("mul", cp(v), c(3.0, F64)))
    f.assign(bb, q2, Intrinsic("ptr_add", (cp(q2), c(3, USIZE))))
    f.assign(bb, P(q2, D), Use(cp(v)))
    f.term(bb, Return)
    checks = ["mad.lo.s64", ", 8,", "ld.global.f64", "mad.wide.u32", "mul.rn.f64",
              "st.global.f64", "add.s64", ", 24;", "st.global.f64"]
    return Case(program(f), checks)


@case
def struct_in_memory_field_offsets():
    rec = StructTy("Rec", (("a", U8), ("b", F32), ("c", TupleTy((I16, F64)))), True)
    f = Fn("recs")
    s = f.arg("s", slice_of(rec))
    out = f.arg("out", PtrTy(F64, True))
    bb = f.block()
    i = f.local(USIZE)
    v, h = f.local(F64), f.local(I16)
    f.assign(bb, i, Use(c(3, USIZE)))
    f.assign(bb, v, Use(cp(s, D, idx(i), F2, F1)))
    f.assign(bb, h, Use(cp(s, D, cidx(1), F2, F0)))
    w = f.local(F64)
    f.assign(bb, w, Cast(cp(h), F64))
    f.assign(bb, w, BinaryOp("add", cp(w), cp(v)))
    f.assign(bb, P(out, D), Use(cp(w)))
    f.term(bb, Return)
    # sizeof(Rec) = 24: a@0 b@4 c@8 (c.0@8, c.1@16)
    checks = ["mul.lo.s64", "ld.global.nc.f64", "+16]", "ld.global.nc.s16",
              "+32]", "cvt.rn.f64.s32", "add.rn.f64"]
    return Case(program(f), checks)


@case
def asserts_unreachable_and_unit_locals():
    f = Fn("k")
    flag = f.arg("flag", BOOL)
    out = f.arg("out", PtrTy(U32, True))
    b0, b1, b2, b3 = (f.block() for _ in range(4))
    unit = f.local(UNIT)
    f.assign(b0, unit, Use(c(None, UNIT)))
    f.term(b0, Assert, cp(flag), False, "must be false", b1)
    f.assign(b1, P(out, D), Use(c(7, U32)))
    f.term(b1, Assert, c(True, BOOL), True, "always true", b2)
    f.term(b2, SwitchInt, c(False, BOOL), (0,), (b3,), b2)
    f.term(b3, Unreachable)
    checks = ["// assert: must be false", "@%p1 bra \t$L__BB0_trap;", "st.global.u32", "7;",
              "trap;", "$L__BB0_trap:", "trap;"]
    return Case(program(f), checks)


@case
def tuple_swap_through_aggregate():
    pair = TupleTy((U32, U32))
    f = Fn("swap")
    a, b = f.arg("a", U32), f.arg("b", U32)
    out = f.arg("out", PtrTy(pair, True))
    bb = f.block()
    t = f.local(pair)
    f.assign(bb, t, Aggregate(pair, (cp(a), cp(b))))
    f.assign(bb, t, Aggregate(pair, (cp(t, F1), cp(t, F0))))
    f.assign(bb, P(out, D), Use(cp(t)))
    f.term(bb, Return)
    return Case(program(f), ["mov.b32", "mov.b32", "mov.b32", "mov.b32", "st.global.u32",
                             "st.global.u32 \t[%rd", "+4]"])


@case
def launch_bounds_and_thread_index_type():
    f = Fn("bounded")
    f.launch = LaunchInfo(bounds=(256, 2))
    out = f.arg("out", DisjointSliceTy(U32))
    bb0, bb1, done = f.block(), f.block(), f.block()
    t, ti = f.local(U32), f.local(ThreadIndexTy(), "idx")
    f.assign(bb0, t, Intrinsic("tid.x", ()))
    f.assign(bb0, ti, Cast(cp(t), USIZE))
    o = get_mut(f, bb0, out, ti, bb1, done)
    f.assign(bb1, P(o, D), Use(cp(t)))
    f.term(bb1, Goto, done)
    f.term(done, Return)
    return Case(program(f), [".maxntid 256, 1, 1", ".minnctapersm 2", "st.global.u32"])


@case
def sm90_target():
    base = vecadd()
    return Case(base.program, [".version 7.8", ".target sm_90"], options={"arch": "sm_90"})


@case
def no_line_info():
    base = vecadd()
    return Case(base.program, [".visible .entry vecadd("], absent=[".loc", ".file"],
                options={"line_info": False})


@case
def i64_arith_and_division():
    f = Fn("div")
    a, b = f.arg("a", I64), f.arg("b", U32)
    out = f.arg("out", PtrTy(I64, True))
    bb = f.block()
    q, r, fr = f.local(I64), f.local(U32), f.local(F32)
    f.assign(bb, q, BinaryOp("div", cp(a), c(-7, I64)))
    f.assign(bb, r, BinaryOp("rem", cp(b), c(10, U32)))
    f.assign(bb, fr, BinaryOp("rem", c(7.5, F32), c(2.0, F32)))
    f.assign(bb, P(out, D), Use(cp(q)))
    f.assign(bb, P(out, D), Cast(cp(r), I64))
    f.assign(bb, P(out, D), Cast(cp(fr), I64))
    f.term(bb, Return)
    # float % is mathlib's exact fmod: f32 widened, quotient digits by division, remainder
    # in u64, a loop for long quotients
    return Case(program(f), ["div.s64", ", -7;", "rem.u32", "cvt.f64.f32", "div.rn.f64",
                             "cvt.rzi.u64.f64", "mul.lo.u64", "bra", "cvt.rn.f32.f64",
                             "cvt.u64.u32"])


@case
def option_payload_none_and_bool_memory():
    opt = option_ty(F32)
    f = Fn("opts")
    flag = f.arg("flag", BOOL)
    x = f.arg("x", F32)
    out = f.arg("out", PtrTy(opt, True))
    b0, b1, b2, b3 = (f.block() for _ in range(4))
    o = f.local(opt)
    f.term(b0, SwitchInt, cp(flag), (0,), (b2,), b1)
    f.assign(b1, o, Aggregate(opt, (cp(x),), 1))
    f.term(b1, Goto, b3)
    f.assign(b2, o, Aggregate(opt, (), 0))
    f.term(b2, Goto, b3)
    f.assign(b3, P(out, D), Use(cp(o)))
    f.term(b3, Return)
    return Case(program(f), ["mov.pred", "1;", "mov.pred", "0;", "selp.u32", "st.global.u8",
                             "st.global.f32", "+4]"])


@case
def readonly_nc_can_be_turned_off():
    base = vecadd()
    return Case(base.program, ["ld.global.f32", "ld.global.f32", "st.global.f32"],
                absent=[".nc"], options={"readonly_nc": False})


@case
def readonly_and_mutable_pointer_mix_is_plain_global():
    f = Fn("mix")
    a = f.arg("a", slice_of(F32))
    b = f.arg("b", PtrTy(F32, True))
    r = f.arg("r", RefTy(F32, False))
    flag = f.arg("flag", BOOL)
    out = f.arg("out", PtrTy(F32, True))
    bb = f.block()
    pa, p, v, w = f.local(PtrTy(F32, False)), f.local(PtrTy(F32, False)), f.local(F32), \
        f.local(F32)
    f.assign(bb, pa, Cast(cp(a), PtrTy(F32, False)))
    f.assign(bb, p, Intrinsic("select", (cp(flag), cp(pa), cp(b))))
    f.assign(bb, v, Use(cp(p, D)))
    f.assign(bb, w, Use(cp(r, D)))
    f.assign(bb, P(out, D), BinaryOp("add", cp(v), cp(w)))
    f.term(bb, Return)
    return Case(program(f), ["selp.b64", "ld.global.f32", "ld.global.f32", "st.global.f32"],
                absent=["cvta.global", ".nc"])


@case
def nested_dynamic_index_on_register_matrix():
    mat = ArrayTy(ArrayTy(F32, 2), 2)
    f = Fn("mat")
    i, j = f.arg("i", USIZE), f.arg("j", USIZE)
    out = f.arg("out", PtrTy(F32, True))
    bb = f.block()
    m, x = f.local(mat, "m"), f.local(F32)
    row = f.local(ArrayTy(F32, 2))
    f.assign(bb, row, Repeat(c(0.0, F32), 2))
    f.assign(bb, m, Repeat(cp(row), 2))
    f.assign(bb, P(m, idx(i), idx(j)), Use(c(3.0, F32)))
    f.assign(bb, x, Use(cp(m, idx(j), idx(i))))
    f.assign(bb, P(out, D), Use(cp(x)))
    f.term(bb, Return)
    checks = ["setp.eq.u64", "setp.eq.u64", "and.pred", "@%p", "mov.f32", "0f40400000",
              "and.pred", "@%p", "mov.f32", "st.global.f32"]
    return Case(program(f), checks, absent=[".local"])


@case
def pointer_to_pointer_and_pointer_casts():
    pp_ty = PtrTy(PtrTy(I32, True), False)
    f = Fn("pp")
    pp = f.arg("pp", pp_ty)
    out = f.arg("out", PtrTy(USIZE, True))
    bb = f.block()
    v, addr, back = f.local(I32), f.local(USIZE), f.local(PtrTy(I32, True))
    f.assign(bb, v, Use(cp(pp, D, D)))
    f.assign(bb, P(pp, D, D), BinaryOp("add", cp(v), c(1, I32)))
    f.assign(bb, addr, Cast(cp(pp), USIZE))
    f.assign(bb, back, Cast(cp(addr), PtrTy(I32, True)))
    f.assign(bb, P(back, D), Use(c(-2147483648, I32)))
    f.assign(bb, P(out, D), Use(cp(addr)))
    f.assign(bb, P(out, D), Use(c(2**64 - 1, U64)))
    f.term(bb, Return)
    checks = ["ld.global.u64", "ld.s32", "ld.global.u64", "add.s32", "st.u32",
              "cvta.global.u64", "mov.b64", "st.u32", "-2147483648", "st.global.u64",
              "0xFFFFFFFFFFFFFFFF"]
    return Case(program(f), checks)


@case
def device_fn_bools_pointers_and_recursion():
    g = Fn("walk", "device", ret=RefTy(F32, False))
    p = g.arg("p", RefTy(F32, False))
    n = g.arg("n", U32)
    stop = g.arg("stop", BOOL)
    b0, b1, b2, b3 = (g.block() for _ in range(4))
    done, m = g.local(BOOL), g.local(U32)
    g.assign(b0, done, BinaryOp("bitor", cp(stop), c(False, BOOL)))
    g.term(b0, SwitchInt, cp(done), (0,), (b2,), b1)
    g.assign(b1, 0, Use(cp(p)))
    g.term(b1, Return)
    g.assign(b2, m, BinaryOp("sub", cp(n), c(1, U32)))
    eq = g.local(BOOL)
    g.assign(b2, eq, BinaryOp("eq", cp(m), c(0, U32)))
    g.term(b2, Call, "walk", (cp(p), cp(m), cp(eq)), P(0), b3)
    g.term(b3, Return)

    k = Fn("k")
    a = k.arg("a", RefTy(F32, False))
    out = k.arg("out", PtrTy(F32, True))
    kb, kb1 = k.block(), k.block()
    r, v = k.local(RefTy(F32, False)), k.local(F32)
    k.term(kb, Call, "walk", (cp(a), c(3, U32), c(True, BOOL)), P(r), kb1)
    k.assign(kb1, v, Use(cp(r, D)))
    k.assign(kb1, P(out, D), Use(cp(v)))
    k.term(kb1, Return)
    checks = [".func (.param .b64 func_retval0) walk(", ".param .b32 walk_param_2", ");",
              ".func (.param .b64 func_retval0) walk(", "setp.ne.b32", "or.pred",
              "st.param.b64 \t[func_retval0]", "call (retval0), walk,",
              ".visible .entry k(", "cvta.global.u64", "st.param.b32 \t[param2], 1;",
              "call (retval0), walk,", "ld.f32", "st.global.f32"]
    return Case(program(g, k), checks, stack_ok=True)  # recursion keeps a stack


@case
def kernel_without_params_and_param_in_memory():
    f = Fn("noparams")
    bb = f.block()
    f.effect(bb, "sync_threads")
    f.term(bb, Return)
    g = Fn("addr_param")
    out = g.arg("out", DisjointSliceTy(F32))
    gb = g.block()
    r, n = g.local(RefTy(DisjointSliceTy(F32), True)), g.local(USIZE)
    g.assign(gb, r, Ref(P(out), True))
    g.assign(gb, n, Len(P(r, D)))
    g.assign(gb, P(r, D, D, cidx(0)), Cast(cp(n), F32))
    g.term(gb, Return)
    checks = [".visible .entry noparams()", "bar.sync", ".visible .entry addr_param(",
              ".local .align 8 .b8", "[16];", "cvta.global.u64", "st.local.u64",
              "st.local.u64", "ld.local.u64", "ld.local.u64", "cvt.rn.f32.u64", "st.f32"]
    return Case(program(f, g), checks, stack_ok=True)


@case
def fat_refs_from_slices_and_arrays():
    h = Fn("total", "device", ret=USIZE)
    s = h.arg("s", slice_of(F32))
    hb = h.block()
    h.assign(hb, 0, Len(P(s)))
    h.term(hb, Return)
    k = Fn("k")
    a = k.arg("a", slice_of(F32))
    out = k.arg("out", PtrTy(ArrayTy(F32, 8), True))
    o2 = k.arg("o2", PtrTy(USIZE, True))
    b0, b1, b2 = k.block(), k.block(), k.block()
    re, ra, n1, n2 = k.local(slice_of(F32)), k.local(slice_of(F32, True)), k.local(USIZE), \
        k.local(USIZE)
    k.assign(b0, re, Ref(P(a, D), False))
    k.assign(b0, ra, Ref(P(out, D), True))
    k.term(b0, Call, "total", (cp(re),), P(n1), b1)
    k.term(b1, Call, "total", (cp(ra),), P(n2), b2)
    k.assign(b2, P(o2, D), BinaryOp("add", cp(n1), cp(n2)))
    k.term(b2, Return)
    checks = ["mov.b64", ", 8;", "call (retval0), total,", "st.param.b64 \t[param1]",
              "call (retval0), total,", "add.u64", "st.global.u64"]
    return Case(program(h, k), checks)


@case
def shared_2d_tile_with_padding():
    tile_ty = SharedArrayTy(ArrayTy(F32, 33), 32)
    tile = shared_static("transpose$TILE", tile_ty)
    f = Fn("transpose")
    out = f.arg("out", PtrTy(F32, True))
    bb = f.block()
    tx, ty_, x, y, v = f.local(U32), f.local(U32), f.local(USIZE), f.local(USIZE), f.local(F32)
    t = f.local(RefTy(tile_ty, True))
    f.assign(bb, tx, Intrinsic("tid.x", ()))
    f.assign(bb, ty_, Intrinsic("tid.y", ()))
    f.assign(bb, x, Cast(cp(tx), USIZE))
    f.assign(bb, y, Cast(cp(ty_), USIZE))
    f.assign(bb, t, StaticRef("transpose$TILE"))
    f.assign(bb, P(t, D, idx(y), idx(x)), Use(c(float("inf"), F32)))
    f.effect(bb, "sync_threads")
    f.assign(bb, v, Use(cp(t, D, idx(x), idx(y))))
    f.assign(bb, P(out, D), Use(cp(v)))
    f.term(bb, Return)
    checks = [".shared .align 4 .b8 transpose$TILE[4224];", "mul.wide.u32", ", 132;",
              "mul.wide.u32", ", 4;", "st.shared.f32", "0f7F800000", "bar.sync",
              "mul.wide.u32", ", 132;", "ld.shared.f32", "st.global.f32"]
    return Case(program(f, statics=(tile,)), checks)


@case
def warp_operations():
    f = Fn("warp")
    x, d = f.arg("x", F32), f.arg("d", F64)
    out = f.arg("out", PtrTy(F32, True))
    iout = f.arg("iout", PtrTy(U32, True))
    dout = f.arg("dout", PtrTy(F64, True))
    bb = f.block()
    s, sd, lane, pos, mask, anyp, tot, act = (f.local(t) for t in (F32, F64, U32, BOOL, U32,
                                                                   BOOL, U32, U32))
    f.assign(bb, s, Intrinsic("shuffle_xor", (cp(x), c(16, U32))))
    f.assign(bb, sd, Intrinsic("shuffle_down", (cp(d), c(1, U32))))
    f.assign(bb, lane, Intrinsic("laneid", ()))
    f.assign(bb, pos, BinaryOp("gt", cp(s), c(0.0, F32)))
    f.assign(bb, mask, Intrinsic("ballot", (cp(pos),)))
    f.assign(bb, anyp, Intrinsic("any", (cp(pos),)))
    f.assign(bb, tot, Intrinsic("redux_sync_add", (c(0xFFFF_FFFF, U32), cp(lane))))
    f.assign(bb, act, Intrinsic("active_mask", ()))
    f.assign(bb, P(out, D), Use(cp(s)))
    f.assign(bb, P(dout, D), Use(cp(sd)))
    f.assign(bb, P(iout, D), BinaryOp("add", cp(mask), cp(tot)))
    f.assign(bb, P(iout, D), Cast(cp(anyp), U32))
    f.assign(bb, P(iout, D), Use(cp(act)))
    f.term(bb, Return)
    checks = ["shfl.sync.bfly.b32", ", 16, 31, -1;", "mov.b64 \t{", "shfl.sync.down.b32",
              "shfl.sync.down.b32", "mov.b64", "}", "%laneid", "vote.sync.ballot.b32",
              "vote.sync.any.pred", "redux.sync.add.u32", "activemask.b32"]
    return Case(program(f), checks)


@case
def integer_min_max_abs():
    f = Fn("mm")
    a, b, n = f.arg("a", I8), f.arg("b", I64), f.arg("n", U16)
    out = f.arg("out", PtrTy(I64, True))
    bb = f.block()
    r1, r2, r3, r4 = f.local(I8), f.local(I64), f.local(U16), f.local(I64)
    f.assign(bb, r1, Intrinsic("abs", (cp(a),)))
    f.assign(bb, r2, Intrinsic("max", (cp(b), c(-5, I64))))
    f.assign(bb, r3, Intrinsic("min", (cp(n), c(300, U16))))
    f.assign(bb, r4, Cast(cp(r1), I64))
    f.assign(bb, r4, BinaryOp("add", cp(r4), cp(r2)))
    r5 = f.local(I64)
    f.assign(bb, r5, Cast(cp(r3), I64))
    f.assign(bb, P(out, D), BinaryOp("sub", cp(r4), cp(r5)))
    f.term(bb, Return)
    return Case(program(f), ["abs.s32", "cvt.s32.s8", "max.s64", "-5;", "min.u32", "300;"])


def _saxpy_lowered(store_between: bool) -> Program:
    """saxpy as the lowering writes it: the mul loads x[i] itself, and y[i]'s bounds
    check sits between the mul and the add (a separate block)."""
    f = Fn("saxpy")
    a = f.arg("a", F32)
    x, y = f.arg("x", slice_of(F32)), f.arg("y", slice_of(F32))
    out = f.arg("out", DisjointSliceTy(F32))
    bb0, bb1, bb2, bb3, done = (f.block() for _ in range(5))
    i = thread_index(f, bb0)
    o = get_mut(f, bb0, out, i, bb1, done)
    n1, ok1, n2, ok2, prod, s = (f.local(t) for t in (USIZE, BOOL, USIZE, BOOL, F32, F32))
    f.assign(bb1, n1, Len(P(x)))
    f.assign(bb1, ok1, BinaryOp("lt", cp(i), cp(n1)))
    f.term(bb1, Assert, cp(ok1), True, "index out of bounds", bb2)
    f.assign(bb2, prod, BinaryOp("mul", cp(a), cp(x, D, idx(i))))
    if store_between:
        f.assign(bb2, P(o, D), Use(c(0.0, F32)))
    f.assign(bb2, n2, Len(P(y)))
    f.assign(bb2, ok2, BinaryOp("lt", cp(i), cp(n2)))
    f.term(bb2, Assert, cp(ok2), True, "index out of bounds", bb3)
    f.assign(bb3, s, BinaryOp("add", cp(prod), cp(y, D, idx(i))))
    f.assign(bb3, P(o, D), Use(cp(s)))
    f.term(bb3, Goto, done)
    f.term(done, Return)
    return program(f)


@case
def fma_across_bounds_check_with_loaded_factor():
    checks = ["// assert", "// assert", "ld.global.nc.f32", "ld.global.nc.f32", "fma.rn.f32",
              "st.global.f32"]
    return Case(_saxpy_lowered(False), checks, absent=["mul.rn.f32"])


@case
def no_fma_when_a_store_may_change_the_loaded_factor():
    return Case(_saxpy_lowered(True), ["ld.global.nc.f32", "mul.rn.f32", "st.global.f32",
                                       "add.rn.f32"], absent=["fma"])


@case
def widened_product_is_mul_wide():
    f = Fn("wide")
    out = f.arg("out", PtrTy(U64, True))
    bb = f.block()
    ctaid, ntid, a64, b64, prod = f.local(U32), f.local(U32), f.local(U64), f.local(U64), \
        f.local(U64)
    f.assign(bb, ctaid, Intrinsic("ctaid.x", ()))
    f.assign(bb, ntid, Intrinsic("ntid.x", ()))
    f.assign(bb, a64, Cast(cp(ctaid), U64))
    f.assign(bb, b64, Cast(cp(ntid), U64))
    f.assign(bb, prod, BinaryOp("mul", cp(a64), cp(b64)))
    f.assign(bb, P(out, D), Use(cp(prod)))
    f.term(bb, Return)
    return Case(program(f), ["%ctaid.x", "%ntid.x", "mul.wide.u32", "st.global.u64"],
                absent=["mul.lo.u64"])


@case
def loop_body_follows_its_header():
    """Blocks are laid out so the loop body falls through from the header."""
    f = Fn("count")
    n = f.arg("n", U32)
    out = f.arg("out", PtrTy(U32, True))
    entry, exit_, head, body = (f.block() for _ in range(4))  # MIR order: exit first
    k, go = f.local(U32, "k"), f.local(BOOL)
    f.assign(entry, k, Use(c(0, U32)))
    f.term(entry, Goto, head)
    f.assign(exit_, P(out, D), Use(cp(k)))
    f.term(exit_, Return)
    f.assign(head, go, BinaryOp("lt", cp(k), cp(n)))
    f.term(head, SwitchInt, cp(go), (0,), (exit_,), body)
    f.assign(body, k, BinaryOp("add", cp(k), c(1, U32)))
    f.term(body, Goto, head)
    checks = ["$L__BB0_2:", "setp.lt.u32", "@!%p1 bra \t$L__BB0_1;", "add.u32",
              "bra \t$L__BB0_2;", "$L__BB0_1:", "st.global.u32", "ret;"]
    return Case(program(f), checks)


SCALAR_TYPES = (U8, I8, U16, I16, U32, I32, U64, I64, USIZE, ISIZE, F32, F64, BOOL)
INT_OPS = ("add", "sub", "mul", "div", "rem", "bitand", "bitor", "bitxor", "shl", "shr")
FLOAT_OPS = ("add", "sub", "mul", "div", "rem")
BOOL_OPS = ("bitand", "bitor", "bitxor")
COMPARE_OPS = ("eq", "ne", "lt", "le", "gt", "ge")


@case
def every_binary_and_unary_op_on_every_scalar():
    """Mostly for test_assembles: every operation on every scalar type is valid PTX."""
    f = Fn("all_ops")
    args = [(ty, f.arg(f"a{n}", ty), f.arg(f"b{n}", ty), f.arg(f"out{n}", PtrTy(ty, True)),
             f.arg(f"flags{n}", PtrTy(BOOL, True))) for n, ty in enumerate(SCALAR_TYPES)]
    bb = f.block()
    for ty, a, b, out, flags in args:
        is_float = ty in (F32, F64)
        ops = BOOL_OPS if ty == BOOL else FLOAT_OPS if is_float else INT_OPS
        for op in ops:
            r = f.local(ty)
            rhs = c(3, U32) if op in ("shl", "shr") else cp(b)
            f.assign(bb, r, BinaryOp(op, cp(a), rhs))
            f.assign(bb, P(out, D), Use(cp(r)))
        for op in COMPARE_OPS:
            r = f.local(BOOL)
            f.assign(bb, r, BinaryOp(op, cp(a), cp(b)))
            f.assign(bb, P(flags, D), Use(cp(r)))
        unary = () if is_float else ("not",)
        if ty in (I8, I16, I32, I64, ISIZE, F32, F64):
            unary += ("neg",)
        for op in unary:
            r = f.local(ty)
            f.assign(bb, r, UnaryOp(op, cp(a)))
            f.assign(bb, P(out, D), Use(cp(r)))
    f.term(bb, Return)
    checks = ["add.u32", "and.b32", ", 255;", "cvt.s32.s8", "div.rn.f32", "setp.neu.f64",
              "xor.pred"]
    return Case(program(f), checks)


@case
def every_numeric_cast_pair():
    f = Fn("all_casts")
    xs = [f.arg(f"x{n}", src) for n, src in enumerate(SCALAR_TYPES)]
    bb = f.block()
    numeric = [t for t in SCALAR_TYPES if t != BOOL]
    for x in xs:
        for m, dst in enumerate(numeric):
            if f.locals[x].ty == BOOL and dst in (F32, F64):
                continue  # not a Rust cast
            out = f.local(PtrTy(dst, True))
            f.assign(bb, out, Cast(c(0x1000 + 8 * m, USIZE), PtrTy(dst, True)))
            r = f.local(dst)
            f.assign(bb, r, Cast(cp(x), dst))
            f.assign(bb, P(out, D), Use(cp(r)))
    f.term(bb, Return)
    return Case(program(f), ["cvt.rn.f64.s64", "cvt.rzi.u32.f32"])


@case
def one_over_x_is_rcp_rn():
    """1.0 / x (and `recip()`) is rcp.rn: the same correctly rounded result as div.rn with a
    shorter SASS path; other numerators stay div.rn."""
    f = Fn("reciprocals")
    a = f.arg("a", F32)
    b = f.arg("b", F64)
    out = f.arg("out", PtrTy(F32, True))
    out64 = f.arg("out64", PtrTy(F64, True))
    bb = f.block()
    r, s, t = f.local(F32), f.local(F64), f.local(F32)
    f.assign(bb, r, BinaryOp("div", c(1.0, F32), cp(a)))
    f.assign(bb, s, BinaryOp("div", c(1.0, F64), cp(b)))
    f.assign(bb, t, BinaryOp("div", c(2.0, F32), cp(a)))
    f.assign(bb, P(out, D), Use(cp(r)))
    f.assign(bb, P(out64, D), Use(cp(s)))
    f.assign(bb, P(out, D), Use(cp(t)))
    f.term(bb, Return)
    return Case(program(f), ["rcp.rn.f32", "rcp.rn.f64", "div.rn.f32"])
