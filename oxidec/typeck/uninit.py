"""`core::mem::MaybeUninit<T>`: a struct of one field, `value: T`, whose value may be
anything until written (oxidec starts it at all-zero bits, one of the values it may hold).

    MaybeUninit::uninit()  MaybeUninit::<T>::uninit()  MaybeUninit::zeroed()  MaybeUninit::new(v)
    m.write(v) -> &mut T    m.assume_init() -> T (unsafe)    m.as_ptr()    m.as_mut_ptr()

`r.calls[e] = ("core", "MaybeUninit::uninit")`, `r.methods[e] = ("uninit", name)`;
lower/pointers.py builds them.
"""
from __future__ import annotations

from .. import ast
from .. import types as T

CONSTRUCTORS = ("uninit", "zeroed", "new")
UNSAFE_METHODS = ("assume_init",)


def maybe_uninit_ty(inner: T.Ty) -> T.StructTy:
    return T.StructTy(f"MaybeUninit<{inner}>", (("value", inner),), is_copy=T.is_copy(inner))


def is_maybe_uninit(ty: T.Ty) -> bool:
    return isinstance(ty, T.StructTy) and ty.name.startswith("MaybeUninit<") and \
        len(ty.fields) == 1 and ty.fields[0][0] == "value"


def uninit_ctor(names: tuple[str, ...]) -> str | None:
    """`MaybeUninit::uninit` (with any `core::mem::` prefix) -> "MaybeUninit::uninit"."""
    if len(names) >= 2 and names[-2] == "MaybeUninit" and names[-1] in CONSTRUCTORS:
        return f"MaybeUninit::{names[-1]}"
    return None


class UninitMixin:

    def call_uninit_ctor(self, e: ast.CallExpr, name: str, expected) -> T.Ty:
        self.r.calls[e] = ("core", name)
        segs = e.func.path.segments
        gargs = segs[-2].generic_args or segs[-1].generic_args
        exp = self.shallow(expected) if expected is not None else None
        if gargs:
            inner = self._type_arg(gargs[0])
        elif exp is not None and is_maybe_uninit(exp):
            inner = exp.fields[0][1]
        else:
            inner = self.fresh("any")
        if name == "MaybeUninit::new":
            self.check_args(e, (inner,), "function")
        else:
            self.check_args(e, (), "function")
        inner = self.deep(inner)
        if isinstance(inner, T.InferTy):  # from later uses, as rustc: checked at the fn's end
            self.__dict__.setdefault("_uninits", []).append((e, inner))
        return maybe_uninit_ty(inner)

    def finish_uninits(self) -> None:
        """After inference: E0282 for a `MaybeUninit::uninit()` whose `T` nothing fixed."""
        for e, inner in self.__dict__.pop("_uninits", []):
            if isinstance(self.deep(inner), T.InferTy):
                self.sink.error("E0282", "type annotations needed", e.func.span,
                                "cannot infer the type of the value",
                                help="write `MaybeUninit::<T>::uninit()` or annotate the "
                                     "variable")

    def uninit_method(self, e: ast.MethodCallExpr, base: T.StructTy, done) -> T.Ty | None:
        inner = base.fields[0][1]
        table = {"write": ((inner,), T.RefTy(inner, True)), "assume_init": ((), inner),
                 "as_ptr": ((), T.PtrTy(inner, False)), "as_mut_ptr": ((), T.PtrTy(inner, True))}
        row = table.get(e.method)
        if row is None:
            return None
        return done("uninit", *row)
