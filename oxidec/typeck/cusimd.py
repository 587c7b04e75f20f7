"""`CuSimd<T, N>` (device_api/cusimd.py): its written types, `new`, and its methods'
results, which depend on T and N."""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..device_api import ApiFn
from ..device_api.cusimd import ALIASES, ELEMS, METHODS

CUSIMD_ALIASES = ALIASES


class CuSimdMixin:

    def cusimd_type(self, name: str, gargs, span) -> T.Ty:
        if name in ALIASES:
            if gargs:
                self.sink.error("E0107", f"`{name}` takes no generic arguments", span,
                                "unexpected generic arguments")
            elem, n = ALIASES[name]
            return T.cusimd_ty(T.SCALARS[elem], n)
        if len(gargs) != 2:
            self.sink.error("E0107", "wrong number of generic arguments for `CuSimd`", span,
                            "expected `CuSimd<T, N>`")
            return T.ERROR
        elem = self._type_arg(gargs[0])
        n = self.consts.eval_usize(self._const_arg(gargs[1]))
        return self._cusimd(elem, n, span)

    def _cusimd(self, elem: T.Ty, n, span) -> T.Ty:
        if n is None or isinstance(elem, T.ErrorTy):
            return T.ERROR
        if str(elem) not in ELEMS or n < 1:
            self.sink.error("E0277", f"`CuSimd<{elem}, {n}>` is not a register vector", span,
                            f"`CuSimd` holds 1 or more of {', '.join(ELEMS)}")
            return T.ERROR
        return T.cusimd_ty(elem, n)

    def call_cusimd_new(self, e: ast.CallExpr, api: ApiFn, expected=None) -> T.Ty:
        """`CuSimd::<T, N>::new([..])` / `Float4::new([..])` (or T and N from the expected
        type, else from the array)."""
        segs = e.func.path.segments
        owner = segs[-2] if len(segs) >= 2 else None
        gargs = owner.generic_args if owner is not None else ()
        want = None
        if owner is not None and owner.name in ALIASES:
            want = self.cusimd_type(owner.name, gargs, e.func.span)
        elif gargs:
            want = self.cusimd_type("CuSimd", gargs, e.func.span)
        elif expected is not None and T.cusimd_parts(self.shallow(expected)) is not None:
            want = self.shallow(expected)
        if len(e.args) != 1:
            self.sink.error("E0061", f"this function takes 1 argument but {len(e.args)} were "
                            "supplied", e.func.span, "expected 1 argument")
            return T.ERROR
        if want is not None and not isinstance(want, T.ErrorTy):
            arr = want.fields[0][1]
            self.coerce(self.check_expr(e.args[0], arr), arr, e.args[0].span)
            return want
        got = self.shallow(self.check_expr(e.args[0]))
        if isinstance(got, T.ArrayTy):
            elem = self.shallow(got.elem)
            if isinstance(elem, T.InferTy):  # an unsuffixed literal: Rust's default
                self.unify(elem, T.F32 if elem.kind == "float" else T.I32)
            return self._cusimd(self.deep(got.elem), got.length, e.args[0].span)
        if not isinstance(got, T.ErrorTy) and want is None:
            self.sink.error("E0308", "mismatched types", e.args[0].span,
                            f"expected an array `[T; N]`, found `{got}`")
        return T.ERROR

    def cusimd_method(self, e: ast.MethodCallExpr, api: ApiFn, recv: T.Ty) -> T.Ty:
        elem, n = T.cusimd_parts(recv)
        name = api.name
        need = METHODS[name][1]
        if need is not None and n not in need:
            self.sink.error("E0599", f"no method named `{name}` found for `{recv}` in the "
                            "current scope", e.method_span,
                            f"`{name}` is defined for `CuSimd<T, "
                            f"{' or '.join(map(str, need))}>`")
            return T.ERROR
        if name == "get":
            i = self.consts.eval_usize(self._const_arg(e.generic_args[0])) \
                if len(e.generic_args) == 1 else None
            if i is None:
                return T.ERROR
            if i >= n:
                self.sink.error("E0080", f"index {i} is out of range for `{recv}`",
                                e.generic_args[0].span, f"must be below {n}")
                return T.ERROR
            self.r.generic_values[e] = (i,)
            return elem
        if name in ("at", "x", "y", "z", "w"):
            return elem
        if name == "to_array":
            return recv.fields[0][1]
        if name == "len":
            return T.USIZE
        if name == "is_empty":
            return T.BOOL
        if name in ("xy", "xyzw"):
            return T.TupleTy((elem,) * len(name))
        return T.cusimd_ty(elem, 2)  # lo, hi
