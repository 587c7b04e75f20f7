"""Iterator chains: `a.iter()`, `(0..n).rev()`, the adapters and the consumers of LANGUAGE.md.

    method_call_expr: expr "." IDENT "(" args ")"     (on arrays, slices, ranges, iterators)

There is no `Iterator` trait: a chain has the compiler-known type `IterTy(item)`, and each
method has the signature Rust's would have for that item type. The chain must be consumed
where it is written (typeck/closures.py reports the other uses); lower/iterators.py turns it
into one loop.
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from .results import describe

SOURCES = ("iter", "iter_mut", "into_iter")
WINDOW_SOURCES = ("chunks", "chunks_exact", "windows", "chunks_mut", "chunks_exact_mut")
ADAPTERS = ("enumerate", "zip", "map", "filter", "rev", "step_by", "take", "skip", "chain",
            "copied", "cloned")
CONSUMERS = ("sum", "product", "fold", "min", "max", "any", "all", "count", "position",
             "for_each", "max_by", "min_by", "find", "nth", "last", "max_by_key", "min_by_key")
# Iterator methods of Rust that oxidec does not have: named in the error
UNSUPPORTED = ("filter_map", "flat_map", "flatten", "take_while", "skip_while", "map_while",
               "scan", "peekable", "inspect", "cycle", "fuse", "nth_back",
               "collect", "find_map",
               "reduce", "try_fold", "try_for_each", "partition", "unzip", "rposition",
               "sum_by", "step", "windows", "chunks", "by_ref", "next", "next_back",
               "cmp", "eq", "lt", "le", "gt", "ge", "ne", "is_sorted", "array_chunks",
               "intersperse", "map_windows", "rfold", "rfind", "size_hint", "len", "copied_",
               "product_by")


class IteratorMixin:

    def iter_search(self, e: ast.MethodCallExpr, m: str, item: T.Ty) -> T.Ty:
        """`find`, `nth`, `last`, `max_by_key`, `min_by_key`: an `Option` of the item."""
        if m == "find":
            self.coerce(self.closure_arg(e.args[0], [T.RefTy(item, False)], T.BOOL), T.BOOL,
                        e.args[0].span)
        elif m == "nth":
            self.coerce(self.check_expr(e.args[0], T.USIZE), T.USIZE, e.args[0].span)
        elif m != "last":
            key = self.shallow(self.closure_arg(e.args[0], [T.RefTy(item, False)], None))
            if isinstance(key, T.FloatTy):
                self.sink.error("E0277", f"the trait bound `{key}: Ord` is not satisfied",
                                e.args[0].span, f"the trait `Ord` is not implemented for `{key}`",
                                help=f"floats are not `Ord` (NaN): compare with `total_cmp` in "
                                     f"`{m.replace('_key', '')}(|a, b| ..)`")
                return T.ERROR
            if not isinstance(key, (T.IntTy, T.BoolTy, T.CharTy, T.ErrorTy)):
                self.unsupported(e.args[0].span, f"`{m}` with a key of type "
                                 f"{describe(self.deep(key))}",
                                 help="return an integer key, or compare in `max_by`/`min_by`")
                return T.ERROR
        return self.iter_done(e, m, T.option_ty(item))

    def iterable_item(self, ty: T.Ty) -> T.Ty | None:
        """The item of what `for x in <ty>` (IntoIterator) walks, or None."""
        ty = self.shallow(ty)
        if isinstance(ty, T.IterTy):
            return ty.item
        if isinstance(ty, T.RangeTy):
            return ty.elem
        if isinstance(ty, T.ArrayTy):
            return ty.elem
        if T.view_kind(ty) == "ZipView32":  # a row and a column's elements, pairwise
            return T.TupleTy((ty.elem, ty.elem))
        if isinstance(ty, T.RefTy):
            inner = self.shallow(ty.inner)
            if isinstance(inner, (T.ArrayTy, T.SliceTy)):
                return T.RefTy(inner.elem, ty.mutable)
        return None

    def iter_method(self, e: ast.MethodCallExpr, recv: T.Ty, base: T.Ty) -> T.Ty | None:
        """The type of an iterator method call, or None when `e` is no iterator method."""
        m = e.method
        recv = self.shallow(recv)
        kind = T.view_kind(base)
        if kind in ("RowView32", "ColView32") and m == "iter":  # its elements, by value
            if not self.iter_args(e, 0):
                return T.ERROR
            return self.iter_done(e, m, T.IterTy(base.elem))
        if kind == "ZipView32" and (m in ADAPTERS or m in CONSUMERS or m in SOURCES):
            return self.iter_adapter(e, T.TupleTy((base.elem, base.elem)))
        if m in WINDOW_SOURCES:  # `a.chunks_exact(4)`, `s.windows(3)`
            found = self.window_source(e, base)
            if found is not None:
                return found
        if m == "remainder" and not e.args and isinstance(recv, T.IterTy) and \
                self.r.iter_methods.get(e.receiver) in ("chunks_exact", "chunks_exact_mut"):
            self.r.methods[e] = ("iter", "remainder")
            return recv.item  # the elements after the last whole chunk
        if m in SOURCES and isinstance(base, (T.ArrayTy, T.RefTy)) and not (
                isinstance(base, T.RefTy) and not isinstance(self.shallow(base.inner), T.SliceTy)):
            inner = self.shallow(base.inner) if isinstance(base, T.RefTy) else base
            if m == "into_iter" and isinstance(recv, T.ArrayTy):
                item = inner.elem
            else:
                mutable = m == "iter_mut" or (m == "into_iter" and isinstance(recv, T.RefTy)
                                              and recv.mutable)
                item = T.RefTy(inner.elem, mutable)
            return self.iter_done(e, m, T.IterTy(item))
        if isinstance(recv, T.RangeTy) and m != "step_by" or isinstance(recv, T.IterTy):
            item = recv.elem if isinstance(recv, T.RangeTy) else recv.item
            if m in ADAPTERS or m in CONSUMERS or m in SOURCES:
                return self.iter_adapter(e, item)
            for a in e.args:
                if not isinstance(a, ast.ClosureExpr):
                    self.check_expr(a)
            if m in UNSUPPORTED:
                self.sink.error("OX0002", f"the iterator method `{m}` is not supported by "
                                "oxidec yet", e.method_span, "not supported",
                                help="oxidec has the adapters " + ", ".join(
                                    f"`{a}`" for a in ADAPTERS) + " and the consumers " +
                                ", ".join(f"`{c}`" for c in CONSUMERS))
            else:
                self.sink.error("E0599", f"no method named `{m}` found for iterator "
                                f"`{self.deep(recv)}` in the current scope", e.method_span,
                                "method not found")
            return T.ERROR
        return None

    def window_source(self, e: ast.MethodCallExpr, base: T.Ty) -> T.Ty | None:
        """`chunks`, `chunks_exact`, `windows` (and the `_mut` chunks) of an array or slice:
        an iterator of sub-slices (lower/iter_windows.py)."""
        inner = self.shallow(base.inner) if isinstance(base, T.RefTy) else base
        if not isinstance(inner, (T.ArrayTy, T.SliceTy)):
            return None
        if not self.iter_args(e, 1):
            return T.ERROR
        self.coerce(self.check_expr(e.args[0], T.USIZE), T.USIZE, e.args[0].span)
        mutable = e.method.endswith("_mut")
        return self.iter_done(e, e.method, T.IterTy(T.RefTy(T.SliceTy(inner.elem), mutable)))

    def check_array_from_fn(self, e: ast.CallExpr, expected) -> T.Ty:
        """`core::array::from_fn(|i| ..)`: `[f(0), f(1), .., f(N - 1)]`; N from the turbofish
        (`from_fn::<T, N, _>`) or the expected array type, as in rustc."""
        exp = self.shallow(expected) if expected is not None else None
        gargs = e.func.path.last.generic_args
        length = exp.length if isinstance(exp, T.ArrayTy) else None
        elem = exp.elem if isinstance(exp, T.ArrayTy) else None
        if len(gargs) == 3:
            if isinstance(gargs[0], ast.TypeExpr) and not isinstance(gargs[0], ast.InferType):
                elem = self.lower_type(gargs[0])
            n = gargs[1]
            if isinstance(n, ast.Expr):
                length = self.consts.eval_usize(n)
        if len(e.args) != 1:
            self.iter_args(e, 1)
            return T.ERROR
        out = self.closure_arg(e.args[0], [T.USIZE], elem)
        if elem is not None:
            self.coerce(out, elem, e.args[0].span)
        if length is None:
            self.sink.error("E0282", "type annotations needed for the array length", e.span,
                            "cannot infer the value of the const parameter `N`",
                            help="give the result an array type: `let a: [f32; 8] = "
                                 "core::array::from_fn(..)`")
            return T.ERROR
        self.r.calls[e] = ("from_fn", length)
        return T.ArrayTy(elem if elem is not None else out, length)

    def iter_done(self, e: ast.MethodCallExpr, m: str, ty: T.Ty) -> T.Ty:
        self.r.iter_methods[e] = m
        self.r.methods[e] = ("iter", m)
        return ty

    def iter_args(self, e: ast.MethodCallExpr, n: int) -> bool:
        if len(e.args) != n:
            self.sink.error("E0061", f"this method takes {n} argument{'s' if n != 1 else ''} "
                            f"but {len(e.args)} argument{'s were' if len(e.args) != 1 else ' was'}"
                            " supplied", e.span, f"expected {n}")
            for a in e.args:
                if not isinstance(a, ast.ClosureExpr):
                    self.check_expr(a)
            return False
        return True

    def iter_adapter(self, e: ast.MethodCallExpr, item: T.Ty) -> T.Ty:
        m = e.method
        nargs = {"zip": 1, "map": 1, "filter": 1, "step_by": 1, "take": 1, "skip": 1,
                 "chain": 1, "fold": 2, "any": 1, "all": 1, "position": 1, "for_each": 1,
                 "max_by": 1, "min_by": 1, "find": 1, "nth": 1, "max_by_key": 1,
                 "min_by_key": 1}
        if not self.iter_args(e, nargs.get(m, 0)):
            return T.ERROR
        args = e.args
        value = self.shallow(item)
        value = self.shallow(value.inner) if isinstance(value, T.RefTy) else value
        if m in SOURCES:  # `(0..n).into_iter()`, `it.into_iter()`: the same iterator
            return self.iter_done(e, m, T.IterTy(item))
        if m == "enumerate":
            return self.iter_done(e, m, T.IterTy(T.TupleTy((T.USIZE, item))))
        if m in ("zip", "chain"):
            other = self.iterable_item(self.check_expr(args[0]))
            if other is None:
                ty = self.deep(self.r.expr_ty[args[0]])
                if not isinstance(ty, T.ErrorTy):
                    self.sink.error("E0277", f"{describe(ty)} is not an iterator", args[0].span,
                                    "not an iterator",
                                    help="pass a range, an array, a slice or an iterator")
                return T.ERROR
            if m == "zip":
                return self.iter_done(e, m, T.IterTy(T.TupleTy((item, other))))
            if not self.unify(item, other):
                self.sink.error("E0271", "type mismatch resolving the chained iterator's item",
                                args[0].span, f"expected {describe(self.deep(item))}, found "
                                f"{describe(self.deep(other))}")
            return self.iter_done(e, m, T.IterTy(item))
        if m == "map":
            return self.iter_done(e, m, T.IterTy(self.closure_arg(args[0], [item], None)))
        if m == "filter":
            self.coerce(self.closure_arg(args[0], [T.RefTy(item, False)], T.BOOL), T.BOOL,
                        args[0].span)
            return self.iter_done(e, m, T.IterTy(item))
        if m in ("step_by", "take", "skip"):
            self.coerce(self.check_expr(args[0], T.USIZE), T.USIZE, args[0].span)
            return self.iter_done(e, m, T.IterTy(item))
        if m == "rev":
            return self.iter_done(e, m, T.IterTy(item))
        if m in ("copied", "cloned"):
            it = self.shallow(item)
            if not isinstance(it, T.RefTy):
                self.sink.error("E0271", f"expected an iterator of references, found items of "
                                f"type {describe(self.deep(it))}", e.method_span,
                                f"`{m}` needs items `&T`")
                return T.ERROR
            return self.iter_done(e, m, T.IterTy(it.inner))
        if m in ("sum", "product"):
            if not (T.is_numeric(value) or isinstance(value, (T.InferTy, T.ErrorTy))):
                self.sink.error("E0277", f"a value of type {describe(self.deep(value))} cannot "
                                f"be made by {'summing' if m == 'sum' else 'multiplying'} an "
                                f"iterator over elements of type {describe(self.deep(item))}",
                                e.method_span, "value cannot be summed" if m == "sum" else
                                "value cannot be multiplied")
                return T.ERROR
            return self.iter_done(e, m, value)
        if m in ("max_by", "min_by"):  # `|a, b| a.total_cmp(b)`: an Ordering
            ref = T.RefTy(item, False)
            out = self.closure_arg(args[0], [ref, ref], T.CMP_ORDERING)
            self.coerce(out, T.CMP_ORDERING, args[0].span)
            return self.iter_done(e, m, T.option_ty(item))
        if m == "fold":
            acc = self.check_expr(args[0])
            out = self.closure_arg(args[1], [acc, item], acc)
            self.coerce(out, acc, args[1].span)
            return self.iter_done(e, m, acc)
        if m in ("min", "max"):
            if isinstance(value, T.FloatTy):
                self.sink.error("E0277", f"the trait bound `{value}: Ord` is not satisfied",
                                e.method_span, f"the trait `Ord` is not implemented for "
                                f"`{value}`", help="floats are not `Ord` (NaN): fold with "
                                f"`{value}::min`/`max`: `.fold({value}::INFINITY, |a, b| "
                                "a.min(b))`")
                return T.ERROR
            return self.iter_done(e, m, T.option_ty(item))
        if m in ("any", "all"):
            self.coerce(self.closure_arg(args[0], [item], T.BOOL), T.BOOL, args[0].span)
            return self.iter_done(e, m, T.BOOL)
        if m == "position":
            self.coerce(self.closure_arg(args[0], [item], T.BOOL), T.BOOL, args[0].span)
            return self.iter_done(e, m, T.option_ty(T.USIZE))
        if m == "count":
            return self.iter_done(e, m, T.USIZE)
        if m in ("find", "nth", "last", "max_by_key", "min_by_key"):
            return self.iter_search(e, m, item)
        # for_each
        self.coerce(self.closure_arg(args[0], [item], T.UNIT), T.UNIT, args[0].span)
        return self.iter_done(e, m, T.UNIT)
