"""Raw pointers and the `core::ptr` / `core::mem` / `core::slice` functions (typeck/pointers.py
types them).

    &raw mut x            _p = &raw mut x                   (`Ref` into a `*mut T` local)
    p.add(n)              _q = ptr_add(p, n)                 (sub: n negated; offset: n as usize)
    p.read() / *p         copy (*p)
    p.write(v)            (*p) = v
    p.cast::<U>()         _q = p as *mut U
    p.is_null()           _b = p == const 0
    mem::swap(&mut a, &mut b)    t = copy (*ra); (*ra) = copy (*rb); (*rb) = t
    mem::transmute(x)     bitcast of a scalar; any other type through a memory temporary
    copy_nonoverlapping(src, dst, n)   a loop of element copies

A raw pointer to a local (`&raw mut x`, `arr.as_mut_ptr()`) makes that local live in
memory (`.local`): see mir/refs.address_taken.
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..mir import layout
from ..mir import syntax as M
from ..span import Span
from .builder import UNIT_CONST


class PointerLowering:

    def lower_raw_ref_expr(self, e: ast.RefExpr) -> M.Operand:
        base = e.operand
        while isinstance(base, (ast.FieldExpr, ast.IndexExpr)):
            base = base.base
        if isinstance(base, ast.PathExpr):  # `&raw mut TILE` needs no `unsafe` (unsafe_uses)
            self.__dict__.setdefault("raw_ref_bases", set()).add(base)
        place = self.lower_place(e.operand)
        return self.to_temp(M.Ref(place, e.mutable), self.ty(e), e.span)

    def deref_place(self, ptr: M.Operand, ty: T.Ty, span: Span) -> M.Place:
        return M.Place(self.operand_local(ptr, ty, span), (M.Deref(),))

    def ptr_offset(self, p: M.Operand, n: M.Operand, ty: T.Ty, negate: bool,
                   span: Span) -> M.Operand:
        """p + n elements; `n` a usize or isize (two's complement makes both one add)."""
        if negate:
            n = self.to_temp(M.BinaryOp("sub", M.Constant(0, T.USIZE), n), T.USIZE, span)
        return self.to_temp(M.Intrinsic("ptr_add", (p, n)), ty, span)

    def lower_ptr_method(self, e: ast.MethodCallExpr, name: str) -> M.Operand:
        span, ty = e.span, self.ty(e)
        pty = self.ty(e.receiver)
        recv, *args = self.lower_in_order((e.receiver, *e.args))
        if name in ("add", "wrapping_add", "sub", "wrapping_sub"):
            return self.ptr_offset(recv, args[0], ty, name.endswith("sub"), span)
        if name in ("offset", "wrapping_offset"):
            n = self.to_temp(M.Cast(args[0], T.USIZE), T.USIZE, span)
            return self.ptr_offset(recv, n, ty, False, span)
        if name == "read_volatile":
            return self.to_temp(M.Intrinsic("volatile_load", (recv,)), ty, span)
        if name == "write_volatile":
            self.push(M.Effect("volatile_store", (recv, args[0]), span))
            return UNIT_CONST
        if name.startswith("read"):
            return self.read(self.deref_place(recv, pty, span), ty)
        if name.startswith("write"):
            self.assign(self.deref_place(recv, pty, span), M.Use(args[0]), span)
            return UNIT_CONST
        if name in ("cast", "cast_mut", "cast_const"):
            return recv if ty == pty else self.to_temp(M.Cast(recv, ty), ty, span)
        if name in ("addr", "expose_provenance"):
            return self.to_temp(M.Cast(recv, T.USIZE), T.USIZE, span)
        if name == "as_ptr":  # `NonNull::as_ptr`: the same pointer
            return recv
        if name == "is_null":
            return self.to_temp(M.BinaryOp("eq", recv, M.Constant(0, pty)), T.BOOL, span)
        return self.unsupported(span, f"`{name}` on a raw pointer is")

    # -- `core::...` functions --------------------------------------------------
    def lower_core_call(self, e: ast.CallExpr, name: str) -> M.Operand:
        span, ty = e.span, self.ty(e)
        if name in ("ptr::null", "ptr::null_mut"):
            return M.Constant(0, ty)
        if name.startswith("MaybeUninit::"):
            inner = ty.fields[0][1]
            value = self.lower_expr(e.args[0]) if name == "MaybeUninit::new" else \
                self.zero_value(inner, span)
            return self.to_temp(M.Aggregate(ty, (value,)), ty, span)
        if name == "NonNull::dangling":
            (t,) = self.r.core_tys[e]
            return self.to_temp(M.Cast(M.Constant(layout.align_of(t), T.USIZE), ty), ty, span)
        if name in ("mem::size_of", "mem::align_of"):
            (t,) = self.r.core_tys[e]
            size = layout.size_of(t) if name == "mem::size_of" else layout.align_of(t)
            return M.Constant(size, T.USIZE)
        if name == "mem::transmute":
            return self.lower_transmute(e)
        args = list(self.lower_in_order(e.args))
        arg_tys = [self.ty(a) for a in e.args]
        if name in ("mem::swap", "ptr::swap"):  # through references or raw pointers alike
            a = self.deref_place(args[0], arg_tys[0], span)
            b = self.deref_place(args[1], arg_tys[1], span)
            elem = arg_tys[0].inner
            t = self.to_temp(M.Use(self.read(a, elem)), elem, span)
            self.assign(a, M.Use(self.read(b, elem)), span)
            self.assign(b, M.Use(t), span)
            return UNIT_CONST
        if name in ("mem::replace", "mem::take"):
            a = self.deref_place(args[0], arg_tys[0], span)
            old = self.to_temp(M.Use(self.read(a, ty)), ty, span)
            new = args[1] if name == "mem::replace" else self.zero_of(ty)
            self.assign(a, M.Use(new), span)
            return old
        if name == "ptr::read_volatile":
            p = self.as_raw(args[0], arg_tys[0], span)
            return self.to_temp(M.Intrinsic("volatile_load", (p,)), ty, span)
        if name == "ptr::write_volatile":
            p = self.as_raw(args[0], arg_tys[0], span)
            self.push(M.Effect("volatile_store", (p, args[1]), span))
            return UNIT_CONST
        if name.startswith("ptr::read"):
            return self.read(self.deref_place(args[0], arg_tys[0], span), ty)
        if name.startswith("ptr::write"):
            self.assign(self.deref_place(args[0], arg_tys[0], span), M.Use(args[1]), span)
            return UNIT_CONST
        if name == "NonNull::new_unchecked":
            return args[0]
        if name == "NonNull::new":  # Some(p) unless p is null
            p = M.Copy(M.Place(self.operand_local(args[0], arg_tys[0], span)))
            addr = self.to_temp(M.Cast(p, T.USIZE), T.USIZE, span)
            some = self.to_temp(M.BinaryOp("ne", addr, M.Constant(0, T.USIZE)), T.BOOL, span)
            return self.to_temp(M.Aggregate(ty, (some, p), None), ty, span)
        if name == "ptr::fn_addr_eq":  # function numbers (lower/fn_values.py)
            a, b = (self.to_temp(M.Cast(op, T.U64), T.U64, span) for op in args)
            return self.to_temp(M.BinaryOp("eq", a, b), T.BOOL, span)
        if name == "ptr::eq":
            a, b = (self.as_raw(op, t, span) for op, t in zip(args, arg_tys))
            return self.to_temp(M.BinaryOp("eq", a, b), T.BOOL, span)
        if name in ("ptr::copy_nonoverlapping", "ptr::copy"):
            self.copy_elements(args[0], args[1], args[2], arg_tys[0], arg_tys[1],
                               name == "ptr::copy", span)
            return UNIT_CONST
        if name == "intrinsics::exact_div":
            return self.to_temp(M.BinaryOp("div", args[0], args[1]), ty, span)
        if name.startswith("slice::from_raw_parts"):
            return self.to_temp(M.Intrinsic("slice_from_parts", (args[0], args[1])), ty, span)
        return self.unsupported(span, f"`{name}` is")

    def as_raw(self, op: M.Operand, ty: T.Ty, span: Span) -> M.Operand:
        """A reference coerced to `*const T` (the same address)."""
        if isinstance(ty, T.RefTy):
            raw = T.PtrTy(ty.inner, False)
            return self.to_temp(M.Cast(op, raw), raw, span)
        return op

    def copy_elements(self, src: M.Operand, dst: M.Operand, n: M.Operand, src_ty: T.Ty,
                      dst_ty: T.Ty, may_overlap: bool, span: Span) -> None:
        """for i in 0..n { dst[i] = src[i] } (backwards when the ranges may overlap and
        dst is above src, as `ptr::copy` must)."""
        elem = dst_ty.inner
        s = self.operand_local(src, src_ty, span)
        d = self.operand_local(dst, dst_ty, span)
        count = self.operand_local(n, T.USIZE, span)
        i = self.temp(T.USIZE, span)
        self.assign(M.Place(i), M.Use(M.Constant(0, T.USIZE)), span)
        back = None
        if may_overlap:
            ds = self.to_temp(M.Cast(M.Copy(M.Place(d)), T.USIZE), T.USIZE, span)
            ss = self.to_temp(M.Cast(M.Copy(M.Place(s)), T.USIZE), T.USIZE, span)
            back = self.operand_local(self.to_temp(M.BinaryOp("gt", ds, ss), T.BOOL, span),
                                      T.BOOL, span)
        head, body, done = self.new_block(), self.new_block(), self.new_block()
        self.goto(head, span)
        self.cur = head
        more = self.to_temp(M.BinaryOp("lt", M.Copy(M.Place(i)), M.Copy(M.Place(count))),
                            T.BOOL, span)
        self.switch_bool(more, body, done, span)
        self.cur = body
        k: M.Operand = M.Copy(M.Place(i))
        if back is not None:  # k = back ? n - 1 - i : i
            last = self.to_temp(M.BinaryOp("sub", M.Copy(M.Place(count)),
                                           M.Constant(1, T.USIZE)), T.USIZE, span)
            rev = self.to_temp(M.BinaryOp("sub", last, M.Copy(M.Place(i))), T.USIZE, span)
            k = self.to_temp(M.Intrinsic("select", (M.Copy(M.Place(back)), rev, k)), T.USIZE,
                             span)
        sp = self.to_temp(M.Intrinsic("ptr_add", (M.Copy(M.Place(s)), k)), src_ty, span)
        dp = self.to_temp(M.Intrinsic("ptr_add", (M.Copy(M.Place(d)), k)), dst_ty, span)
        value = self.read(self.deref_place(sp, src_ty, span), elem)
        self.assign(self.deref_place(dp, dst_ty, span), M.Use(value), span)
        nxt = self.to_temp(M.BinaryOp("add", M.Copy(M.Place(i)), M.Constant(1, T.USIZE)),
                           T.USIZE, span)
        self.assign(M.Place(i), M.Use(nxt), span)
        self.goto(head, span)
        self.cur = done

    def lower_transmute(self, e: ast.CallExpr) -> M.Operand:
        src_ty, dst_ty = self.r.core_tys[e]
        span = e.span
        value = self.lower_expr(e.args[0])
        if src_ty == dst_ty:
            return value
        if isinstance(src_ty, T.PtrTy) or isinstance(dst_ty, T.PtrTy):  # address <-> bits
            if T.is_scalar(src_ty) or T.is_scalar(dst_ty) or isinstance(src_ty, T.PtrTy) \
                    and isinstance(dst_ty, T.PtrTy):
                if isinstance(src_ty, T.FloatTy) or isinstance(dst_ty, T.FloatTy):
                    return self.transmute_aggregate(value, src_ty, dst_ty, span)
                return self.to_temp(M.Cast(value, dst_ty), dst_ty, span)
            return self.transmute_aggregate(value, src_ty, dst_ty, span)
        if not (T.is_scalar(src_ty) and T.is_scalar(dst_ty)):
            return self.transmute_aggregate(value, src_ty, dst_ty, span)  # lower/transmute.py
        return self.to_temp(M.Intrinsic("bitcast", (value,)), dst_ty, span)

    def zero_value(self, ty: T.Ty, span: Span) -> M.Operand:
        """All-zero bits of a type: what `MaybeUninit::uninit()` / `zeroed()` start at."""
        if T.is_scalar(ty) or isinstance(ty, (T.PtrTy, T.UnitTy)):
            return self.zero_of(ty)
        if isinstance(ty, T.ArrayTy):
            return self.to_temp(M.Repeat(self.zero_value(ty.elem, span), ty.length), ty, span)
        if isinstance(ty, (T.StructTy, T.TupleTy)):
            fields = [f for _, f in ty.fields] if isinstance(ty, T.StructTy) else ty.elems
            ops = tuple(self.zero_value(f, span) for f in fields)
            return self.to_temp(M.Aggregate(ty, ops), ty, span)
        if isinstance(ty, T.EnumTy):  # the flat fields, tag first (mir/layout.py)
            ops = tuple(self.zero_value(f, span) for f in layout.fields_of(ty))
            return self.to_temp(M.Aggregate(ty, ops, None), ty, span)
        return self.unsupported(span, f"`MaybeUninit<{ty}>` is")

    def lower_uninit_method(self, e: ast.MethodCallExpr, name: str) -> M.Operand:
        """`m.write(v)`, `m.assume_init()`, `m.as_ptr()`, `m.as_mut_ptr()` on the
        `MaybeUninit` struct's one field (typeck/uninit.py)."""
        span, ty = e.span, self.ty(e)
        if name == "write":
            value = self.lower_expr(e.args[0])
            place = self.uninit_place(e.receiver)
            self.assign(place, M.Use(value), span)
            return self.to_temp(M.Ref(place, True), ty, span)
        place = self.uninit_place(e.receiver)
        if name == "assume_init" and T.is_uninhabited(ty):
            # rustc's `assert_inhabited::<T>` guard: a panic at run time, never a value
            self.panic(f"attempted to instantiate uninhabited type `{ty}`", span, names_trap=True)
            return self.zero_value(ty, span)
        if name == "assume_init":
            return self.read(place, ty)
        return self.to_temp(M.Ref(place, name == "as_mut_ptr"), ty, span)

    def uninit_place(self, receiver: ast.Expr) -> M.Place:
        place = self.lower_place(receiver)
        ty = self.ty(receiver)
        while isinstance(ty, T.RefTy):
            place, ty = place.project(M.Deref()), ty.inner
        return place.project(M.Field(0))
