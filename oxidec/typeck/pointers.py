"""Raw pointers and the `core::ptr` / `core::mem` / `core::slice` functions.

    raw_ref_expr: "&" "raw" ("const" | "mut") expr      (and `addr_of!(x)`, `addr_of_mut!(x)`)
    method_call_expr on `*const T` / `*mut T`: add sub offset wrapping_* read write
        read_volatile write_volatile cast cast_mut cast_const is_null
    call_expr of `core::ptr::{null, null_mut, read, write, read_volatile, write_volatile,
        copy_nonoverlapping}`, `core::mem::{swap, replace, take, transmute, size_of,
        align_of}`, `core::slice::{from_raw_parts, from_raw_parts_mut}`

The results go in the usual side tables: `r.methods[e] = ("ptr", name)` and
`r.calls[e] = ("core", "mem::swap")`; `lower/pointers.py` reads them. Which of them need
`unsafe` (rustc's E0133) is `UNSAFE_PTR_METHODS` / `UNSAFE_CORE_FNS`.
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..mir import layout

# pointer methods: name -> (parameter kinds, result kind); kinds: "usize", "isize",
# "pointee", "self", "bool", "unit"
PTR_METHODS: dict[str, tuple[tuple[str, ...], str]] = {
    "add": (("usize",), "self"), "sub": (("usize",), "self"),
    "offset": (("isize",), "self"),
    "wrapping_add": (("usize",), "self"), "wrapping_sub": (("usize",), "self"),
    "wrapping_offset": (("isize",), "self"),
    "read": ((), "pointee"), "read_volatile": ((), "pointee"),
    "read_unaligned": ((), "pointee"),
    "write": (("pointee",), "unit"), "write_volatile": (("pointee",), "unit"),
    "write_unaligned": (("pointee",), "unit"),
    "is_null": ((), "bool"),
    "addr": ((), "usize"), "expose_provenance": ((), "usize"),
    "as_ptr": ((), "self"),  # `NonNull::as_ptr` (NonNull<T> is `*mut T`: typeck/types.py)
}
VOLATILE = ("read_volatile", "write_volatile")
UNSAFE_PTR_METHODS = ("add", "sub", "offset", "read", "read_volatile", "read_unaligned",
                      "write", "write_volatile", "write_unaligned")

CORE_FNS = ("ptr::null", "ptr::null_mut", "ptr::read", "ptr::write", "ptr::read_volatile",
            "ptr::write_volatile", "ptr::read_unaligned", "ptr::write_unaligned",
            "ptr::copy_nonoverlapping", "ptr::copy", "ptr::swap",
            "mem::swap", "mem::replace", "mem::take", "mem::transmute", "mem::size_of",
            "mem::align_of", "slice::from_raw_parts", "slice::from_raw_parts_mut",
            "intrinsics::exact_div", "ptr::eq", "ptr::fn_addr_eq", "NonNull::new_unchecked",
            "NonNull::new", "NonNull::dangling")
UNSAFE_CORE_FNS = ("ptr::read", "ptr::write", "ptr::read_volatile", "ptr::write_volatile",
                   "ptr::read_unaligned", "ptr::write_unaligned", "ptr::copy_nonoverlapping",
                   "ptr::copy", "ptr::swap", "mem::transmute", "slice::from_raw_parts",
                   "slice::from_raw_parts_mut", "intrinsics::exact_div", "NonNull::new_unchecked")
# names usable without their module (the prelude has `size_of`/`align_of` since 1.80; the
# others after `use core::mem::swap` and the like)
_BARE = {n.split("::")[1]: n for n in CORE_FNS if n.split("::")[1] not in ("read", "write",
                                                                            "copy", "swap")}
_BARE["swap"] = "mem::swap"


def core_fn(names: tuple[str, ...]) -> str | None:
    """`core::mem::swap`, `std::mem::swap`, `mem::swap` or `swap` -> "mem::swap"."""
    names = tuple(names)
    while names and names[0] in ("core", "std", "alloc"):
        names = names[1:]
    if names[:2] == ("ptr", "NonNull"):  # `ptr::NonNull::new_unchecked`
        names = names[1:]
    if len(names) == 2 and "::".join(names) in CORE_FNS:
        return "::".join(names)
    if len(names) == 1:
        return _BARE.get(names[0])
    return None


def plain(ty: T.Ty) -> bool:
    """Whether transmute can take `ty` apart: integers and floats up to 64 bits, and
    arrays, tuples and structs of them."""
    if isinstance(ty, T.IntTy):
        return ty.bits <= 64
    if isinstance(ty, T.PtrTy):  # a thin pointer: its 64-bit address
        return not isinstance(ty.inner, T.SliceTy)
    if isinstance(ty, T.FloatTy):
        return ty.bits in (32, 64)
    if isinstance(ty, T.ArrayTy):
        return plain(ty.elem)
    if isinstance(ty, T.TupleTy):
        return all(plain(t) for t in ty.elems)
    if isinstance(ty, T.StructTy):
        return all(plain(t) for _, t in ty.fields)
    return False


def sized(ty: T.Ty) -> bool:
    try:
        layout.size_of(ty)
        return True
    except Exception:  # noqa: BLE001 -- any type the C layout cannot place
        return False


class PointerMixin:

    # -- `&raw const place` / `&raw mut place` ------------------------------------
    def check_raw_ref_expr(self, e: ast.RefExpr, expected):
        exp = self.shallow(expected) if expected is not None else None
        inner = self.check_expr(e.operand, exp.inner if isinstance(exp, T.PtrTy) else None)
        if not self.is_place(e.operand) and not isinstance(self.shallow(inner), T.ErrorTy):
            self.sink.error("E0745", "cannot take address of a temporary", e.operand.span,
                            "temporary value")
        return T.PtrTy(inner, e.mutable)

    # -- methods of `*const T` / `*mut T` -----------------------------------------
    def ptr_method(self, e: ast.MethodCallExpr, base: T.PtrTy, done) -> T.Ty | None:
        m = e.method
        if m in ("cast", "cast_mut", "cast_const"):
            if m == "cast":
                target = self._type_arg(e.generic_args[0]) if len(e.generic_args) == 1 \
                    else self.fresh("any")
                ret = T.PtrTy(target, base.mutable)
            else:
                ret = T.PtrTy(base.inner, m == "cast_mut")
            return done("ptr", (), ret)
        row = PTR_METHODS.get(m)
        if row is None:
            return None
        if m.startswith("write") and not base.mutable:
            self.sink.error("E0599", f"no method named `{m}` found for raw pointer `{base}` in "
                            "the current scope", e.method_span, "method not found",
                            help=f"`{m}` writes through a `*mut {base.inner}`: cast the pointer "
                                 "with `.cast_mut()` if the place may be written")
            return T.ERROR
        kinds = {"usize": T.USIZE, "isize": T.ISIZE, "pointee": base.inner, "self": base,
                 "bool": T.BOOL, "unit": T.UNIT}
        return done("ptr", tuple(kinds[k] for k in row[0]), kinds[row[1]])

    def call_core_fn(self, e: ast.CallExpr, name: str, expected) -> T.Ty:
        self.r.calls[e] = ("core", name)
        gargs = [self._type_arg(g) for g in e.func.path.last.generic_args]
        segs = e.func.path.segments
        if not gargs and name.startswith("NonNull::") and len(segs) >= 2:
            gargs = [self._type_arg(g) for g in segs[-2].generic_args]  # `NonNull::<T>::new`
        exp = self.shallow(expected) if expected is not None else None
        if name in ("ptr::null", "ptr::null_mut"):
            self.check_args(e, (), "function")
            if gargs:
                elem = gargs[0]
            elif isinstance(exp, T.PtrTy):
                elem = exp.inner
            else:
                elem = self.fresh("any")
            return T.PtrTy(elem, name == "ptr::null_mut")
        if name in ("mem::size_of", "mem::align_of"):
            self.check_args(e, (), "function")
            if len(gargs) != 1:
                self.sink.error("E0107", f"function `{name.split('::')[1]}` takes 1 generic "
                                "argument", e.func.span, "write `size_of::<T>()`")
                return T.USIZE
            if not sized(gargs[0]) and not isinstance(gargs[0], T.ErrorTy):
                self.sink.error("E0277", f"the size for values of type `{gargs[0]}` cannot be "
                                "known here", e.func.span, "no size known")
            self.r.core_tys[e] = (gargs[0],)
            return T.USIZE
        if name in ("mem::swap", "mem::replace", "mem::take"):
            return self.check_mem_place_fn(e, name, gargs)
        if name == "mem::transmute":
            return self.check_transmute(e, gargs, exp)
        if name in ("slice::from_raw_parts", "slice::from_raw_parts_mut"):
            mut = name.endswith("_mut")
            elem = gargs[0] if gargs else (exp.inner.elem if isinstance(exp, T.RefTy) and
                                           isinstance(exp.inner, T.SliceTy) else
                                           self.fresh("any"))
            self.check_args(e, (T.PtrTy(elem, mut), T.USIZE), "function")
            return T.RefTy(T.SliceTy(elem), mut)
        if name == "intrinsics::exact_div":  # x / y, undefined unless exact (no checks)
            t = gargs[0] if gargs else self.fresh("int")
            self.check_args(e, (t, t), "function")
            if not T.is_integer(self.deep(t)) and not isinstance(self.deep(t), T.InferTy):
                self.sink.error("E0277", f"`exact_div` divides integers, not `{self.deep(t)}`",
                                e.func.span, "not an integer")
            return t
        # the pointer functions
        elem = gargs[0] if gargs else self.fresh("any")
        if name in ("ptr::read", "ptr::read_volatile", "ptr::read_unaligned"):
            self.check_args(e, (T.PtrTy(elem, False),), "function")
            return elem
        if name in ("ptr::write", "ptr::write_volatile", "ptr::write_unaligned"):
            self.check_args(e, (T.PtrTy(elem, True), elem), "function")
            return T.UNIT
        if name in ("ptr::copy_nonoverlapping", "ptr::copy"):
            self.check_args(e, (T.PtrTy(elem, False), T.PtrTy(elem, True), T.USIZE), "function")
            return T.UNIT
        if name == "ptr::eq":
            self.check_args(e, (T.PtrTy(elem, False), T.PtrTy(elem, False)), "function")
            return T.BOOL
        if name in ("NonNull::new_unchecked", "NonNull::new"):  # NonNull<T> is `*mut T`
            ptr = T.PtrTy(gargs[0] if gargs else self.fresh("any"), True)  # (typeck/types.py)
            self.check_args(e, (ptr,), "function")
            return ptr if name == "NonNull::new_unchecked" else T.option_ty(ptr)
        if name == "NonNull::dangling":  # non-null and aligned: `align_of::<T>()` itself
            self.check_args(e, (), "function")
            if not gargs and isinstance(exp, T.PtrTy):
                gargs = [exp.inner]
            if not gargs:
                self.sink.error("E0282", "type annotations needed", e.func.span,
                                "cannot infer the type of the pointee",
                                help="write `NonNull::<T>::dangling()`")
                return T.ERROR
            self.r.core_tys[e] = (self.deep(gargs[0]),)
            return T.PtrTy(gargs[0], True)
        if name == "ptr::fn_addr_eq":  # two function values: the same function?
            tys = [self.deep(self.check_expr(a)) for a in e.args]
            if len(tys) != 2 or not all(isinstance(t, (T.FnPtrTy, T.ErrorTy)) for t in tys):
                self.sink.error("E0277", "`fn_addr_eq` compares two function pointers",
                                e.func.span, "expected two `fn(..)` values")
            return T.BOOL
        if name == "ptr::swap":
            self.check_args(e, (T.PtrTy(elem, True), T.PtrTy(elem, True)), "function")
            return T.UNIT
        return T.ERROR

    def check_mem_place_fn(self, e: ast.CallExpr, name: str, gargs) -> T.Ty:
        """`mem::swap(&mut a, &mut b)`, `mem::replace(&mut a, v)`, `mem::take(&mut a)`."""
        elem = gargs[0] if gargs else self.fresh("any")
        ref = T.RefTy(elem, True)
        params = {"mem::swap": (ref, ref), "mem::replace": (ref, elem), "mem::take": (ref,)}
        self.check_args(e, params[name], "function")
        if name == "mem::take":
            t = self.deep(elem)
            if not (T.is_scalar(t) or isinstance(t, (T.ErrorTy, T.InferTy))):
                self.unsupported(e.span, f"`mem::take` of a `{t}` (only scalars have a "
                                 "`Default` here)")
        return T.UNIT if name == "mem::swap" else elem

    def check_transmute(self, e: ast.CallExpr, gargs, exp) -> T.Ty:
        """`mem::transmute::<A, B>(x)`: A and B must have the same size (E0512)."""
        src = gargs[0] if gargs else self.fresh("any")
        dst = gargs[1] if len(gargs) > 1 else (exp if exp is not None else self.fresh("any"))
        self.check_args(e, (src,), "function")
        self.r.core_tys[e] = (src, dst)
        self.__dict__.setdefault("_transmutes", []).append((e, src, dst))
        return dst

    def finish_transmutes(self) -> None:
        """After inference: E0512 for each transmute between types of different sizes."""
        pending = self.__dict__.pop("_transmutes", [])
        for e, src, dst in pending:
            a, b = self.finalize(src), self.finalize(dst)
            self.r.core_tys[e] = (a, b)
            if any(isinstance(t, (T.ErrorTy, T.InferTy)) for t in (a, b)):
                if any(isinstance(t, T.InferTy) for t in (a, b)):
                    self.sink.error("E0282", "type annotations needed", e.func.span,
                                    "cannot infer the types of this transmute",
                                    help="write `transmute::<A, B>(x)`")
                continue
            if not (sized(a) and sized(b)):
                self.unsupported(e.span, f"`transmute` between `{a}` and `{b}`")
                continue
            sa, sb = layout.size_of(a), layout.size_of(b)
            if sa == sb and not (plain(a) and plain(b)):
                self.unsupported(e.span, f"`transmute` from `{a}` to `{b}` (only between "
                                 "integers, floats and arrays, tuples and structs of them "
                                 "so far)")
            elif sa != sb:
                self.sink.error("E0512", "cannot transmute between types of different sizes, "
                                "or dependently-sized types", e.func.span,
                                f"transmuting between `{a}` and `{b}`",
                                notes=[f"source type: `{a}` ({sa * 8} bits)",
                                       f"target type: `{b}` ({sb * 8} bits)"])
