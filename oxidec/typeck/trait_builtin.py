"""core's trait items that need no impl in the file: `Default::default()` for scalars,
arrays, tuples and `#[derive(Default)]` types; `From`/`Into`/`TryFrom` between the numeric
types, as core defines them (`From` only where lossless, `TryFrom` giving a `Result`);
`.clone()` of `Clone` types.

    u64::from(x)        (x: u32)        a widening cast
    u8::try_from(x)     (x: i32)        Ok(x as u8) when it fits, else Err(TryFromIntError)
    let y: f64 = x.into();              `From<f32> for f64`
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from .operators import lossless
from .ordering import ordering_method

TRY_FROM_INT_ERROR = T.StructTy("TryFromIntError", (), is_copy=True)


def numeric_from(src: T.Ty, dst: T.Ty) -> bool:
    """Whether core has `From<src> for dst` between numbers (and bool)."""
    if src == dst:
        return True
    if isinstance(src, T.BoolTy):
        return isinstance(dst, T.IntTy)
    if isinstance(src, T.IntTy) and isinstance(dst, T.IntTy):
        return lossless(src, dst)
    if isinstance(dst, T.FloatTy) and dst.bits in (32, 64):
        if isinstance(src, T.FloatTy):
            return src.bits <= dst.bits
        if isinstance(src, T.IntTy) and not src.pointer_sized:
            return src.bits <= (16 if dst.bits == 32 else 32)
    return False


def builtin_assoc_call(ck, e: ast.CallExpr, self_ty: T.Ty, trait: str | None, name: str,
                       expected, first_checked) -> T.Ty | None:
    """`T::default()`, `T::from(x)`, `T::try_from(x)` without a user impl; None if none."""
    if name == "default" and trait in (None, "Default") and not e.args:
        if default_ok(ck, self_ty, e.func.span):
            ck.r.calls[e] = ("default", self_ty)
            return self_ty
        return T.ERROR
    if name in ("from", "try_from") and trait in (None, "From", "TryFrom") and len(e.args) == 1 \
            and T.is_scalar(self_ty):
        src = first_checked if first_checked is not None else ck.check_expr(e.args[0])
        src = ck.deep(src)
        if isinstance(src, T.InferTy):
            src = T.I32 if src.kind == "int" else T.F64 if src.kind == "float" else src
            ck.coerce(ck.r.expr_ty[e.args[0]], src, e.args[0].span)
        if name == "from":
            if not numeric_from(src, self_ty):
                ck.sink.error("E0277", f"the trait bound `{self_ty}: From<{src}>` is not "
                              "satisfied", e.func.span,
                              f"the trait `From<{src}>` is not implemented for `{self_ty}`",
                              help=f"convert with `as` (`x as {self_ty}`)" + (
                                  f" or with `{self_ty}::try_from(x)`"
                                  if isinstance(self_ty, T.IntTy) and isinstance(src, T.IntTy)
                                  else ""))
                return T.ERROR
            ck.r.calls[e] = ("from", self_ty)
            return self_ty
        if not (isinstance(src, T.IntTy) and isinstance(self_ty, T.IntTy)):
            ck.sink.error("E0277", f"the trait bound `{self_ty}: TryFrom<{src}>` is not "
                          "satisfied", e.func.span,
                          f"the trait `TryFrom<{src}>` is not implemented for `{self_ty}`")
            return T.ERROR
        ty = T.result_ty(self_ty, TRY_FROM_INT_ERROR)
        ck.r.calls[e] = ("try_from", ty)
        return ty
    return None


def default_ok(ck, ty: T.Ty, span) -> bool:
    """Whether `ty: Default` (requesting the user impls it needs); E0277 if not."""
    ty = ck.deep(ty)
    if T.is_scalar(ty) or ty == T.UNIT:
        return True
    if isinstance(ty, T.ArrayTy):
        return default_ok(ck, ty.elem, span)
    if isinstance(ty, T.TupleTy):
        return all(default_ok(ck, t, span) for t in ty.elems)
    impls = ck.impls_of(ty, "Default")
    if impls and "default" in impls[0].fns:
        ck.request_fn(impls[0].fns["default"].key, span)
        return True
    if "Default" in ck.derived(ty) and isinstance(ty, T.StructTy):
        return all(default_ok(ck, t, span) for _, t in ty.fields)
    ck.sink.error("E0277", f"the trait bound `{ty}: Default` is not satisfied", span,
                  f"the trait `Default` is not implemented for `{ty}`",
                  help=f"add `#[derive(Default)]` to `{ty}` or implement `Default` for it")
    return False


def builtin_method(ck, e: ast.MethodCallExpr, recv: T.Ty, base: T.Ty, expected) -> T.Ty | None:
    """`.clone()` of a `Clone` type, `.into()` / `.try_into()` between numbers."""
    base = ck.deep(base)
    found = ordering_method(ck, e, base)  # `cmp`, `partial_cmp`, Ordering's (ordering.py)
    if found is not None:
        return found
    if e.method == "clone" and not e.args and (T.is_scalar(base) or "Clone" in ck.derived(base)
                                               or "Copy" in ck.derived(base)):
        ck.r.methods[e] = ("trait", "clone")
        return base
    if e.method == "try_into" and not e.args and isinstance(base, T.IntTy):
        exp = ck.shallow(expected) if expected is not None else None
        dst = exp.args[0] if T.is_result(exp) else ck.fresh("int")  # `.try_into().unwrap()`
        ck.r.methods[e] = ("trait", "try_into")
        return T.result_ty(dst, TRY_FROM_INT_ERROR)
    if e.method == "into" and not e.args and T.is_scalar(base):
        exp = ck.deep(expected) if expected is not None else None
        if exp is None or isinstance(exp, T.InferTy):
            ck.sink.error("E0283", "type annotations needed", e.method_span,
                          "cannot infer type", help="give the result a type: "
                          "`let y: T = x.into()`")
            return T.ERROR
        if T.is_scalar(exp):
            if not numeric_from(base, exp):
                ck.sink.error("E0277", f"the trait bound `{exp}: From<{base}>` is not "
                              "satisfied", e.method_span,
                              f"the trait `From<{base}>` is not implemented for `{exp}`",
                              notes=[f"required for `{base}` to implement `Into<{exp}>`"])
                return T.ERROR
            ck.r.methods[e] = ("trait", "into")
            return exp
        for impl in ck.impls_of(exp, "From"):
            d = impl.fns.get("from")
            if d is None:
                continue
            sig = ck.request_fn(d.key, e.method_span)
            if sig.params and ck.deep(sig.params[0]) == base:
                ck.r.methods[e] = ("user_from", d.key)
                return sig.ret
        return None
    return None
