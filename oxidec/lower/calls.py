"""Calls and method calls: functions, the device API, atomics, `DisjointSlice::get_mut`.

    call_expr: expr "(" args? ")"
    method_call_expr: expr "." IDENT "(" args? ")"
"""
from __future__ import annotations


from .. import ast
from .. import types as T
from ..device_api import OPS, ApiFn
from ..device_api.atomic import METHODS as ATOMIC_METHODS
from ..device_api.numbers import FLOAT_METHODS, INT_METHODS
from ..mir import syntax as M
from ..span import Span
from ..typeck import FnSig
from .builder import UNIT_CONST
from .halves import NATIVE as HALF_NATIVE

ORDER_STRENGTH = {"relaxed": 0, "acquire": 1, "release": 1, "acq_rel": 2, "seq_cst": 3}


def join_orderings(orders: tuple[str, ...]) -> str:
    """One ordering for compare_exchange's (success, failure): the weakest that is at least
    as strong as both (Acquire + Release is AcqRel)."""
    best = max(orders, key=ORDER_STRENGTH.__getitem__)
    if set(orders) >= {"acquire", "release"}:
        return "acq_rel"
    return best


class CallLowering:

    # -- calls ----------------------------------------------------------------
    def lower_call_expr(self, e: ast.CallExpr) -> M.Operand:
        if e in self.r.desugared:  # `f32::max(a, b)`: the method call (typeck/prim_paths.py)
            return self.lower_expr(self.r.desugared[e])
        target = self.r.calls.get(e)
        if target == "variant":
            return self.lower_variant(e, e.args)
        if isinstance(target, FnSig):
            return self.call_user_fn(target, list(e.args), e.span)
        if isinstance(target, tuple) and target[0] == "ctor":
            return self.lower_ctor(e, target[1])
        if isinstance(target, tuple) and target[0] in ("default", "from", "try_from"):
            return self.lower_builtin_trait_call(e, target)  # trait_calls.py
        if isinstance(target, ApiFn):
            return self.lower_api_call(e, target)
        if isinstance(target, tuple) and target[0] == "closure":
            return self.lower_closure_call(e, target[1])
        if isinstance(target, tuple) and target[0] == "closure_value":
            return self.lower_closure_value_call(e, target[1])  # lower/closures.py
        if isinstance(target, tuple) and target[0] == "fn_ptr":
            return self.lower_fn_ptr_call(e, target[1])  # lower/fn_values.py
        if isinstance(target, tuple) and target[0] == "from_fn":
            return self.lower_array_from_fn(e, target[1])  # lower/iter_consumers.py
        if isinstance(target, tuple) and target[0] == "core":
            return self.lower_core_call(e, target[1])  # lower/pointers.py
        return UNIT_CONST

    def special(self, name: str, span: Span) -> M.Operand:
        return self.to_temp(M.Intrinsic(name, ()), T.U32, span)

    def global_index(self, axis: str, span: Span) -> M.Operand:
        """blockIdx.a * blockDim.a + threadIdx.a as usize (ptxas turns it into IMAD.WIDE)."""
        parts = [self.to_temp(M.Cast(self.special(f"{r}.{axis}", span), T.USIZE), T.USIZE, span)
                 for r in ("ctaid", "ntid", "tid")]
        prod = self.to_temp(M.BinaryOp("mul", parts[0], parts[1]), T.USIZE, span)
        return self.to_temp(M.BinaryOp("add", prod, parts[2]), T.USIZE, span)

    # -- the device API: one `Op`, or a hook `api_<name>(e, api)` (tests/test_device_api.py
    # checks that every hook the registry names exists) ---------------------------------
    def lower_api_call(self, e: ast.CallExpr | ast.MethodCallExpr, api: ApiFn) -> M.Operand:
        low = api.lowering
        if low is None:
            return self.unsupported(e.span, f"`{api.path}` is")
        if low.how == "hook":
            return getattr(self, f"api_{low.name}")(e, api)
        args = tuple(self.lower_in_order(e.args))
        if OPS[low.name].effect:
            self.push(M.Effect(low.name, args, e.span))
            return UNIT_CONST
        return self.to_temp(M.Intrinsic(low.name, args), self.ty(e), e.span)

    def api_trap(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        self.terminate(M.Unreachable(e.span))
        return UNIT_CONST

    def api_prof_trigger(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        (n,) = self.r.generic_values.get(e, (0,))
        self.push(M.Effect("pmevent", (M.Constant(n, T.U32),), e.span))
        return UNIT_CONST

    def api_index_1d(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        return self.index_1d(e.span)

    def api_index_2d_col(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        return self.global_index("x", e.span)

    def api_index_2d_row(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        return self.global_index("y", e.span)

    def api_index_2d(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        span = e.span
        (stride,) = self.r.generic_values.get(e, (1,))
        valid, idx = self.row_major_index(stride, span)
        ty = self.ty(e)
        return self.to_temp(M.Aggregate(ty, (valid, idx)), ty, span)

    def api_warp_index(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        """Some(warp's grid index) on lane 0 of each warp of a 1-D launch, else None."""
        span = e.span

        def u32(op, a, b, ty=T.U32):
            return self.to_temp(M.BinaryOp(op, a, b), ty, span)
        tid = self.special("tid.x", span)
        warps = u32("shr", u32("add", self.special("ntid.x", span), M.Constant(31, T.U32)),
                    M.Constant(5, T.U32))
        block = self.to_temp(M.Cast(self.special("ctaid.x", span), T.USIZE), T.USIZE, span)
        first = u32("mul", block, self.to_temp(M.Cast(warps, T.USIZE), T.USIZE, span), T.USIZE)
        mine = self.to_temp(M.Cast(u32("shr", tid, M.Constant(5, T.U32)), T.USIZE), T.USIZE,
                            span)
        idx = u32("add", first, mine, T.USIZE)
        lane0 = u32("eq", u32("bitand", tid, M.Constant(31, T.U32)), M.Constant(0, T.U32),
                    T.BOOL)
        flat = u32("ne", self.index_1d(span), M.Constant(T.int_range(T.USIZE)[1], T.USIZE),
                   T.BOOL)  # a 1-D launch (index_1d is the invalid usize::MAX otherwise)
        valid = u32("bitand", lane0, flat, T.BOOL)
        ty = self.ty(e)
        index = self.to_temp(M.Use(idx), T.THREAD_INDEX, span)
        return self.to_temp(M.Aggregate(ty, (valid, index)), ty, span)

    def row_major_index(self, stride: int, span: Span) -> tuple[M.Operand, M.Operand]:
        """(col < stride, row * stride + col) from the global 2-D thread position."""
        col = self.global_index("x", span)
        row = self.global_index("y", span)
        s = M.Constant(stride, T.USIZE)
        valid = self.to_temp(M.BinaryOp("lt", col, s), T.BOOL, span)
        scaled = self.to_temp(M.BinaryOp("mul", row, s), T.USIZE, span)
        return valid, self.to_temp(M.BinaryOp("add", scaled, col), T.USIZE, span)

    def index_2d_value(self, stride: int, span: Span) -> M.Operand:
        """index_2d::<stride>() as a ThreadIndex: the invalid usize::MAX when col >= stride."""
        valid, idx = self.row_major_index(stride, span)
        invalid = M.Constant(T.int_range(T.USIZE)[1], T.USIZE)
        value = self.to_temp(M.Intrinsic("select", (valid, idx, invalid)), T.USIZE, span)
        return self.to_temp(M.Use(value), T.THREAD_INDEX, span)

    def api_atomic_view(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        return self.atomic_view(e, self.ty(e), api.name)

    def api_thread_index_get(self, e: ast.MethodCallExpr, api: ApiFn) -> M.Operand:
        # ThreadIndex is a usize underneath; `get` takes &self and does not move it.
        place = self.lower_place(e.receiver)
        recv = self.spanned(M.Copy(place), e.receiver.span)
        return self.to_temp(M.Use(recv), T.USIZE, e.span)

    def api_thread_index_in_bounds(self, e: ast.MethodCallExpr, api: ApiFn) -> M.Operand:
        as_usize = self.api_thread_index_get(e, api)
        n = self.lower_expr(e.args[0])
        return self.to_temp(M.BinaryOp("lt", as_usize, n), T.BOOL, e.span)

    def api_len(self, e: ast.MethodCallExpr, api: ApiFn) -> M.Operand:
        place = self.lower_place(e.receiver)
        ty = self.ty(e.receiver)
        while isinstance(ty, T.RefTy):
            ty = ty.inner
        if isinstance(ty, (T.DisjointSliceTy, T.Runtime2DSliceTy)):  # through references
            place = self.disjoint_receiver(e)
        return self.to_temp(M.Len(place), T.USIZE, e.span)

    def api_dynamic_shared(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        """`DynamicSharedArray::<T, ALIGN>::get()` / `get_raw()` / `offset(bytes)`: the
        block's dynamic shared memory (an ALIGN above 16 is an operand: the emitter aligns
        the `.extern .shared` array to it)."""
        ty = self.ty(e)
        align = self.r.generic_values.get(e, (16,))[0]
        extra = (M.Constant(align, T.U32),) if align > 16 else ()
        if api.name != "offset":
            return self.to_temp(M.Intrinsic("dynamic_shared", extra), ty, e.span)
        (nbytes,) = self.lower_in_order(e.args)
        bytes_ptr = T.PtrTy(T.U8, True)
        base = self.to_temp(M.Intrinsic("dynamic_shared", extra), bytes_ptr, e.span)
        at = self.to_temp(M.Intrinsic("ptr_add", (base, nbytes)), bytes_ptr, e.span)
        return self.to_temp(M.Cast(at, ty), ty, e.span)

    def api_is_empty(self, e: ast.MethodCallExpr, api: ApiFn) -> M.Operand:
        n = self.api_len(e, api)
        return self.to_temp(M.BinaryOp("eq", n, M.Constant(0, T.USIZE)), T.BOOL, e.span)

    def api_disjoint_as_mut_ptr(self, e: ast.MethodCallExpr, api: ApiFn) -> M.Operand:
        # the address of element 0, computed without a bounds check (no access happens)
        place = self.disjoint_receiver(e)
        zero = self.operand_local(M.Constant(0, T.USIZE), T.USIZE, e.span)
        return self.to_temp(M.Ref(place.project(M.Deref(), M.Index(zero)), True), self.ty(e),
                            e.span)

    def api_disjoint_from_raw_parts(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        """`DisjointSlice::from_raw_parts(ptr, len)`: the (data pointer, length) pair."""
        ptr, n = self.lower_in_order(e.args)
        return self.to_temp(M.Intrinsic("slice_from_parts", (ptr, n)), self.ty(e), e.span)

    def disjoint_receiver(self, e: ast.MethodCallExpr) -> M.Place:
        """The DisjointSlice a method is called on, through any references to it
        (`out: &mut DisjointSlice<T>` in a helper: `(*out)`, whose data is `(*(*out))[i]`)."""
        place = self.lower_place(e.receiver)
        ty = self.ty(e.receiver)
        while isinstance(ty, T.RefTy):
            place, ty = place.project(M.Deref()), ty.inner
        if isinstance(ty, T.Runtime2DSliceTy):  # its 1-D slice (lower/runtime2d_api.py)
            place = place.project(M.Field(0))
        return place

    def api_get_mut_indexed(self, e: ast.MethodCallExpr, api: ApiFn) -> M.Operand:
        """Some((&mut s[i], i)) for this thread's index i when it is in bounds."""
        span = e.span
        place = self.disjoint_receiver(e)
        slice_ty = self.ty(e.receiver)
        while isinstance(slice_ty, T.RefTy):
            slice_ty = slice_ty.inner
        ty = self.ty(e)
        ref_ty, _ = ty.args[0].elems

        def index():
            if isinstance(slice_ty, T.DisjointSliceTy) and slice_ty.index.startswith("2d:"):
                return self.index_2d_value(int(slice_ty.index[3:]), span)
            return self.index_1d(span)
        as_usize = self.to_temp(M.Use(index()), T.USIZE, span)
        length = self.to_temp(M.Len(place), T.USIZE, e.receiver.span)
        ok = self.to_temp(M.BinaryOp("lt", as_usize, length), T.BOOL, span)
        i = self.operand_local(as_usize, T.USIZE, span)
        ref = self.to_temp(M.Ref(place.project(M.Deref(), M.Index(i)), True), ref_ty,
                           e.receiver.span)
        pair = self.to_temp(M.Aggregate(ty.args[0], (ref, index())), ty.args[0], span)
        return self.to_temp(M.Aggregate(ty, (ok, pair)), ty, span)

    def api_disjoint_get_mut(self, e: ast.MethodCallExpr, api: ApiFn) -> M.Operand:
        return self.disjoint_get_mut(e, self.disjoint_receiver(e), self.ty(e))

    def api_get_unchecked_mut(self, e: ast.MethodCallExpr, api: ApiFn) -> M.Operand:
        place = self.disjoint_receiver(e)
        i = self.operand_local(self.lower_expr(e.args[0]), T.USIZE, e.span)
        return self.to_temp(M.Ref(place.project(M.Deref(), M.Index(i)), True), self.ty(e),
                            e.receiver.span)

    def atomic_view(self, e: ast.CallExpr, view: T.AtomicTy, name: str) -> M.Operand:
        """`DeviceAtomicU32::from_ptr(p)` / `from_mut(r)` / `from_slice_elem(&s, i)`: the
        view is the element's address."""
        span = e.span
        if name != "from_slice_elem":
            return self.to_temp(M.Use(self.lower_expr(e.args[0])), view, span)
        target = e.args[0]
        if isinstance(target, ast.RefExpr):
            place = self.lower_place(target.operand)
        else:  # an expression of type `&DisjointSlice<T>`
            ref = self.operand_local(self.lower_expr(target), self.ty(target), target.span)
            place = M.Place(ref, (M.Deref(),))
        i = self.operand_local(self.lower_expr(e.args[1]), T.USIZE, e.args[1].span)
        if self.checked:
            length = self.to_temp(M.Len(place), T.USIZE, span)
            ok = self.to_temp(M.BinaryOp("lt", M.Copy(M.Place(i)), length), T.BOOL, span)
            self.check(ok, "index out of bounds", span)
        return self.to_temp(M.Ref(place.project(M.Deref(), M.Index(i)), True), view, span)

    def lower_atomic_method(self, e: ast.MethodCallExpr, name: str) -> M.Operand:
        """`view.fetch_add(v, AtomicOrdering::Relaxed)` -> `_d = atomic add(view, v)`."""
        span = e.span
        view_ty = self.ty(e.receiver)
        cell = view_ty.inner if isinstance(view_ty, T.RefTy) else view_ty
        if isinstance(cell, T.AtomicCellTy):  # `cells[i]` (or `&cells[i]`): its address
            place = self.lower_place(e.receiver)
            if isinstance(view_ty, T.RefTy):
                place = place.project(M.Deref())
            view_ty = cell.view()
            view = self.to_temp(M.Ref(place, False), view_ty, span)
        else:
            view = self.lower_expr(e.receiver)
        while isinstance(view_ty, T.RefTy):  # `&DeviceAtomicU32`
            local = self.operand_local(view, view_ty, span)
            view_ty = view_ty.inner
            view = self.read(M.Place(local, (M.Deref(),)), view_ty)
        op, nvalues = ATOMIC_METHODS[name]
        values = tuple(self.lower_expr(a) for a in e.args[:nvalues])
        orders = self.r.atomic_orderings.get(e, ("seq_cst",))
        dest = None if op == "store" else M.Place(self.temp(view_ty.inner, span))
        self.push(M.AtomicOp(dest, op, view, values, join_orderings(orders), view_ty.scope,
                             span))
        if op == "cas":
            return self.cas_result(M.Copy(dest), values[0], view_ty.inner, span)
        return UNIT_CONST if dest is None else M.Copy(dest)

    def cas_result(self, old: M.Operand, current: M.Operand, elem: T.Ty, span) -> M.Operand:
        """compare_exchange's `Result`: Ok(old) when the exchange happened, i.e. when `old`
        has the bits of `current` (what `atom.cas` compares: so for floats -0.0 is not 0.0
        and a NaN can succeed), else Err(old)."""
        a, b = old, current
        if isinstance(elem, T.FloatTy):
            bits = T.IntTy(elem.bits, False)
            a = self.to_temp(M.Intrinsic("bitcast", (old,)), bits, span)
            b = self.to_temp(M.Intrinsic("bitcast", (current,)), bits, span)
        failed = self.to_temp(M.BinaryOp("ne", a, b), T.BOOL, span)
        ty = T.result_ty(elem, elem)
        return self.to_temp(M.Aggregate(ty, (failed, old, old)), ty, span)

    def index_1d(self, span: Span) -> M.Operand:
        # A 1D index is only unique when the launch is 1D; otherwise it is the invalid index
        # usize::MAX, which every get_mut bounds test rejects.
        idx = self.global_index("x", span)
        extents = [self.special(r, span) for r in ("ntid.y", "ntid.z", "nctaid.y", "nctaid.z")]
        acc = None
        for x in extents:
            dec = self.to_temp(M.BinaryOp("sub", x, M.Constant(1, T.U32)), T.U32, span)
            acc = dec if acc is None else self.to_temp(M.BinaryOp("bitor", acc, dec), T.U32, span)
        flat = self.to_temp(M.BinaryOp("eq", acc, M.Constant(0, T.U32)), T.BOOL, span)
        invalid = M.Constant(T.int_range(T.USIZE)[1], T.USIZE)
        value = self.to_temp(M.Intrinsic("select", (flat, idx, invalid)), T.USIZE, span)
        return self.to_temp(M.Use(value), T.THREAD_INDEX, span)

    def lower_method_call_expr(self, e: ast.MethodCallExpr) -> M.Operand:
        target = self.r.methods.get(e, ("", ""))
        if isinstance(target, ApiFn):
            return self.lower_api_call(e, target)
        kind, name = target
        span = e.span
        ty = self.ty(e)
        if kind == "atomic":
            return self.lower_atomic_method(e, name)
        if kind == "constant":  # `C.get()` loads the whole value, `C.get_ref()` borrows it
            place = self.lower_place(e.receiver)
            if name == "get":
                return self.read(place, ty)
            return self.to_temp(M.Ref(place, False), ty, span)
        if kind == "iter":
            return self.lower_iter_method(e)
        if kind in ("option", "result"):
            return self.lower_option_method(e, kind, name)
        if kind == "user":
            return self.lower_user_method(e, name)
        if kind in ("num_int", "num_float", "num_char"):
            return self.lower_num_method(e, kind, name)
        if kind == "trait":
            return self.lower_trait_method(e, name)  # trait_calls.py
        if kind == "user_from":
            return self.lower_user_from(e, name)
        if kind == "bool":  # `then_some(v)`, `then(|| v)`: Some only where the bool holds
            return self.lower_bool_then(e, name, ty)  # lower/options.py
        if kind == "slice":
            if name != "len" or isinstance(self.ty(e.receiver), T.SliceTy):
                return self.lower_slice_method(e, name)  # lower/slices.py
            place = self.lower_place(e.receiver)
            return self.to_temp(M.Len(place), T.USIZE, span)
        if kind == "ptr":
            return self.lower_ptr_method(e, name)  # lower/pointers.py
        if kind == "uninit":
            return self.lower_uninit_method(e, name)  # lower/pointers.py
        if kind == "array":  # the receiver may be a reference to the array (auto-deref)
            array = self.ty(e.receiver)
            while isinstance(array, T.RefTy):
                array = array.inner
            return M.Constant(array.length, T.USIZE)
        recv, *args = self.lower_in_order((e.receiver, *e.args))
        rty = self.ty(e.receiver)
        while kind in ("int", "float", "half") and isinstance(rty, T.RefTy):  # `v.abs()`, v: &f32
            recv = self.read(M.Place(self.operand_local(recv, rty, span), (M.Deref(),)),
                             rty.inner)
            rty = rty.inner
        if kind == "half":  # `h.to_f32()`
            return self.half_conversion_method(name, recv, rty, span)
        if kind in ("int", "float"):
            table = INT_METHODS if kind == "int" else FLOAT_METHODS
            intrinsic = table[name][2]
            if T.is_half(rty) and intrinsic and name not in HALF_NATIVE:
                return self.half_method_through_f32(name, recv, args, rty, ty, span, intrinsic)
            if name.startswith("wrapping_"):
                return self.to_temp(M.BinaryOp(intrinsic, recv, args[0]), ty, span)
            if intrinsic:
                return self.to_temp(M.Intrinsic(intrinsic, (recv, *args)), ty, span)
            if name == "clamp":
                # if x < lo { lo } else if x > hi { hi } else { x } (NaN stays NaN, as Rust)
                below = self.to_temp(M.BinaryOp("lt", recv, args[0]), T.BOOL, span)
                t = self.to_temp(M.Intrinsic("select", (below, args[0], recv)), ty, span)
                above = self.to_temp(M.BinaryOp("gt", t, args[1]), T.BOOL, span)
                return self.to_temp(M.Intrinsic("select", (above, args[1], t)), ty, span)
            if name == "is_nan":
                return self.to_temp(M.BinaryOp("ne", recv, recv), T.BOOL, span)
        if kind == "range":
            return self.unsupported(span, "`step_by` outside a `for` loop is")
        return UNIT_CONST

    def disjoint_get_mut(self, e: ast.MethodCallExpr, place: M.Place, ty: T.Ty) -> M.Operand:
        # Some(&mut out[idx]) when idx < out.len(), else None; the address is computed either
        # way (it is only arithmetic) and only dereferenced under the tag.
        span = e.span
        index = self.lower_expr(e.args[0])
        idx = self.operand_local(index, T.THREAD_INDEX, e.args[0].span)
        # the length read and the loan carry the receiver's span, as rustc spans an
        # autoref'd `&mut self`; borrowck takes a Len spanned as its Ref as part of the loan
        length = self.to_temp(M.Len(place), T.USIZE, e.receiver.span)
        moved = self.spanned(M.Move(M.Place(idx)), e.args[0].span)
        as_usize = self.to_temp(M.Use(moved), T.USIZE, span)
        ok = self.to_temp(M.BinaryOp("lt", as_usize, length), T.BOOL, span)
        i = self.operand_local(as_usize, T.USIZE, span)
        ref = self.to_temp(M.Ref(place.project(M.Deref(), M.Index(i)), True), ty.args[0],
                           e.receiver.span)
        return self.to_temp(M.Aggregate(ty, (ok, ref)), ty, span)
