"""Expressions without control flow: literals, paths, operators, casts, places, aggregates.

    expr: lit_expr | path_expr | unary_expr | binary_expr | cast_expr | assign_expr
        | compound_assign_expr | tuple_expr | array_expr | array_repeat_expr | struct_expr
        | ref_expr | block_expr | index_expr | field_expr | range_expr
"""
from __future__ import annotations

import functools

from .. import ast
from .. import types as T
from .types import is_range_struct
from ..diagnostics import Label
from .operators import deref_operands, operator_mismatch, scalar_ref
from .results import (ConstRes, LocalRes, Loop,
                      StaticRes, Var, describe, nearest)


@functools.cache
def _checker_name(cls: type) -> str:
    """`IfExpr` -> `check_if_expr`: checkers are named after the AST class they handle."""
    return "check_" + "".join("_" + c.lower() if c.isupper() else c for c in cls.__name__)[1:]


def _expr_kind(e: ast.Expr) -> str:
    return {"MatchExpr": "match"}.get(type(e).__name__, type(e).__name__)


class ExprMixin:

    # -- expressions -------------------------------------------------------
    def check_expr(self, e: ast.Expr, expected: T.Ty | None = None) -> T.Ty:
        method = getattr(self, _checker_name(type(e)), None)
        if method is None:
            self.unsupported(e.span, f"`{_expr_kind(e)}` expressions")
            ty = T.ERROR
        else:
            ty = method(e, expected)
        self.r.expr_ty[e] = ty
        return ty

    def check_lit_expr(self, e: ast.LitExpr, expected):
        if e.kind == "bool":
            return T.BOOL
        if e.kind == "char":
            return T.CHAR
        if e.kind == "str":
            self.unsupported(e.span, f"{e.kind} literals outside `gpu_printf!`")
            return T.ERROR
        if e.suffix:
            ty = T.SCALARS.get(e.suffix)
            if ty is None or ty == T.BOOL or (e.kind == "float" and not T.is_float(ty)):
                self.sink.error("OX0001", f"invalid suffix `{e.suffix}` for {e.kind} literal",
                                e.span, "invalid suffix",
                                help="valid suffixes are `i8`..`i64`, `isize`, `u8`..`u64`, "
                                     "`usize`, `f32`, `f64`")
                return T.ERROR
            if e.kind == "int" and T.is_integer(ty):
                self.ctx.lits.append((e, e in self.negated))
            return ty
        if e.kind == "int":
            self.ctx.lits.append((e, e in self.negated))
            var = self.fresh("int")
        else:
            var = self.fresh("float")
        if expected is not None:
            self.unify(var, expected)  # mismatches are reported by the caller's coerce
        return var

    def check_path_expr(self, e: ast.PathExpr, expected):
        traits = self.trait_path_value(e, expected)  # typeck/traits.py
        if traits is not None:
            return traits
        names = e.path.names
        if len(names) > 1 or self.lookup(names[0]) is None:
            ty = self.check_variant_value(e, e.path, None, expected)
            if ty is not None:
                return ty
        if names[-1] == "PhantomData" and names[0] in ("PhantomData", "core", "std", "marker") \
                and self.lookup(names[0]) is None \
                and getattr(self.resolver.lookup(self.module, names[0], "value"), "def_",
                            None) is None:
            self.r.res[e] = ("unit_struct", T.PHANTOM_DATA)  # `PhantomData`: a unit value
            return T.PHANTOM_DATA
        if len(names) == 1:
            found = self.lookup(names[0])
            if isinstance(found, Var):
                self.r.res[e] = LocalRes(found)
                return found.ty
            if found is not None:
                return self._item_res(e, found)
            name = names[0]
            res = self.resolver.lookup(self.module, name, "value")
            if res is not None and res.def_ is not None:
                return self.value_item(e, res.def_, expected)
            if self.api_named(e.path) is not None:
                return self.api_fn_value(e, name)  # typeck/fn_values.py
            hint = nearest(name, self.visible_names())
            imp = self.resolver.import_help(name, "value")
            helps = [f"a local variable with a similar name exists: `{hint}`"] if hint else []
            self.sink.error("E0425", f"cannot find value `{name}` in this scope", e.span,
                            "not found in this scope", help=helps + ([imp] if imp else []))
            return T.ERROR
        res = self.resolve_value_path(e.path)
        if res is not None and res.def_ is not None:
            if res.assoc is not None:
                return self.assoc_value(e, res.def_, res.assoc, expected)
            return self.value_item(e, res.def_, expected)
        if res is None and self.local_path_failed(e.path, "value"):
            return T.ERROR
        value = self.consts.eval_assoc(e)
        if value is not None:
            return self._item_res(e, ConstRes(value))
        if self.api_named(e.path) is not None:
            return self.api_fn_value(e, "::".join(names))  # typeck/fn_values.py
        if names[-2:] == ("SharedArray", "UNINIT"):
            self.sink.error("OX0002", "`SharedArray::UNINIT` may only initialise a "
                            "`static mut` shared array", e.span, "used as a value")
            return T.ERROR
        if self.blackwell_item(names, e.span):  # `Tcgen05SwizzleMode::None`: OX0013
            return T.ERROR
        self.sink.error("E0425", f"cannot find value `{'::'.join(names)}` in this scope", e.span,
                        "not found in this scope")
        return T.ERROR

    def _item_res(self, e: ast.PathExpr, res) -> T.Ty:
        if isinstance(res, ast.ConstItem):  # a local `const` (check_item_stmt)
            return self.const_value(e, res)
        self.r.res[e] = res
        if isinstance(res, ConstRes):
            return res.value.ty
        if isinstance(res, StaticRes):
            return res.ty
        return T.ERROR

    def check_tuple_expr(self, e: ast.TupleExpr, expected):
        if not e.elems:
            return T.UNIT
        exp = self.shallow(expected) if expected is not None else None
        elems = []
        for i, x in enumerate(e.elems):
            hint = exp.elems[i] if isinstance(exp, T.TupleTy) and i < len(exp.elems) else None
            elems.append(self.check_expr(x, hint))
        return T.TupleTy(tuple(elems))

    def check_array_expr(self, e: ast.ArrayExpr, expected):
        exp = self.shallow(expected) if expected is not None else None
        elem = exp.elem if isinstance(exp, T.ArrayTy) else self.fresh("any")
        for x in e.elems:
            self.coerce(self.check_expr(x, elem), elem, x.span)
        return T.ArrayTy(elem, len(e.elems))

    def check_array_repeat_expr(self, e: ast.ArrayRepeatExpr, expected):
        exp = self.shallow(expected) if expected is not None else None
        elem = exp.elem if isinstance(exp, T.ArrayTy) else self.fresh("any")
        self.coerce(self.check_expr(e.value, elem), elem, e.value.span)
        n = self.consts.eval_usize(e.count)
        self.r.expr_ty[e.count] = T.USIZE
        return T.ArrayTy(elem, n if n is not None else 0)

    def check_struct_expr(self, e: ast.StructExpr, expected):
        name = e.path.names[-1]
        if len(e.path.names) > 1:
            ty = self.check_variant_value(e, e.path, ("struct", e.fields), expected)
            if ty is not None:
                return ty
        ty = self.generic_struct_expr(e, expected)  # `Pair { .. }` of a generic struct
        if isinstance(ty, tuple):
            return ty[0]  # checked there, its arguments inferred from the fields
        if ty is None:
            ty = self.self_ty if e.path.names == ("Self",) else \
                self.user_type(ast.PathType(path=e.path, span=e.path.span))
        if not isinstance(ty, T.StructTy) and name in self.items.unions:
            self.lower_type(ast.PathType(path=e.path, span=e.path.span))  # OX0002 (types.py)
            for _, x in e.fields:
                self.check_expr(x)
            return T.ERROR
        if not isinstance(ty, T.StructTy):
            hint = nearest(name, self.resolver.visible(self.module, "type"))
            self.sink.error("E0422", f"cannot find struct, variant or union type `{name}` in "
                            "this scope", e.path.span, "not found in this scope",
                            help=f"a struct with a similar name exists: `{hint}`" if hint
                            else None)
            for _, x in e.fields:
                self.check_expr(x)
            if e.base is not None:
                self.check_expr(e.base)
            return T.ERROR
        if ty.name in self.r.union_fields:
            return self.check_union_expr(e, ty)  # typeck/unions.py
        name = str(ty)
        seen = set()
        for fname, x in e.fields:
            idx = ty.field_index(fname)
            if idx is None:
                self.sink.error("E0560", f"struct `{name}` has no field named `{fname}`", x.span,
                                "unknown field")
                self.check_expr(x)
                continue
            seen.add(fname)
            fty = ty.fields[idx][1]
            self.coerce(self.check_expr(x, fty), fty, x.span)
        if e.base is not None:  # `..base` supplies every field not written
            self.coerce(self.check_expr(e.base, ty), ty, e.base.span)
        missing = [f for f, _ in ty.fields if f not in seen]
        if missing and e.base is None:
            self.sink.error("E0063", f"missing field{'s' if len(missing) > 1 else ''} "
                            + ", ".join(f"`{m}`" for m in missing)
                            + f" in initializer of `{name}`", e.path.span,
                            "missing " + ", ".join(f"`{m}`" for m in missing))
        return ty

    def check_block_expr(self, e: ast.BlockExpr, expected):
        if e.label:
            self.ctx.loops.append(Loop(e.label, True))
            ty = self.check_block(e.block, expected)
            loop = self.ctx.loops.pop()
            if loop.break_ty is not None:
                self.unify(loop.break_ty, ty)
            return ty
        return self.check_block(e.block, expected)

    def check_unary_expr(self, e: ast.UnaryExpr, expected):
        # rustc's overflowing_literals: a negation counts for its operand unless it is itself
        # the counted operand of a negation, so in `-(-128i8)` the literal is not negated
        # (out of range) and in `-(-(-128i8))` it is
        if e.op == "-" and e not in self.neg_counted:
            self.neg_counted.add(e.operand)
            if isinstance(e.operand, ast.LitExpr):
                self.negated.add(e.operand)
        if e.op == "*":
            ty = self.shallow(self.check_expr(e.operand))
            if isinstance(ty, T.AtomicTy):
                self.sink.error("E0614", f"type `{ty}` cannot be dereferenced", e.span,
                                "cannot be dereferenced",
                                help="an atomic view is read with `.load(AtomicOrdering::"
                                     "Relaxed)` and written with `.store(v, ..)`")
                return T.ERROR
            if isinstance(ty, (T.RefTy, T.PtrTy)):
                return ty.inner
            if not isinstance(ty, T.ErrorTy):
                self.sink.error("E0614", f"type `{self.deep(ty)}` cannot be dereferenced",
                                e.span, "cannot be dereferenced")
            return T.ERROR
        ty = self.check_expr(e.operand, expected)
        t = self.shallow(ty)
        if isinstance(t, (T.StructTy, T.EnumTy)) and not (T.is_option(t) or T.is_result(t)):
            return self.check_unary_overload(e, ty)  # typeck/trait_ops.py
        if e.op == "-":
            ok = isinstance(t, T.FloatTy) or (isinstance(t, T.IntTy) and t.signed) or (
                isinstance(t, T.InferTy) and t.kind in ("int", "float"))
        else:
            ok = isinstance(t, (T.IntTy, T.BoolTy)) or (isinstance(t, T.InferTy) and t.kind == "int")
        if not ok and not isinstance(t, T.ErrorTy):
            self.sink.error("E0600", f"cannot apply unary operator `{e.op}` to type "
                            f"`{self.deep(t)}`", e.span, f"cannot apply unary operator `{e.op}`",
                            notes=["unsigned values cannot be negated"]
                            if isinstance(t, T.IntTy) and e.op == "-" else None)
            return T.ERROR
        return ty

    def check_ref_expr(self, e: ast.RefExpr, expected):
        if e.raw:
            return self.check_raw_ref_expr(e, expected)  # typeck/pointers.py
        exp = self.shallow(expected) if expected is not None else None
        inner = self.check_expr(e.operand, exp.inner if isinstance(exp, T.RefTy) else None)
        arr = self.shallow(inner)
        if isinstance(exp, T.RefTy) and isinstance(exp.inner, T.SliceTy) and \
                isinstance(arr, T.ArrayTy) and self.unify(arr.elem, exp.inner.elem):
            return T.RefTy(exp.inner, e.mutable)  # `&arr` as `&[T]`: unsized where it is made
        if isinstance(arr, T.AtomicCellTy):  # `&cells[i]`: a view of the cell, as in
            return T.RefTy(arr.view(), e.mutable)  # cuda-oxide (lower_ref_expr makes it)
        return T.RefTy(inner, e.mutable)

    ARITH = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "%": "calculate the "
             "remainder of"}

    def check_binary_expr(self, e: ast.BinaryExpr, expected):
        op = e.op
        if op in ("&&", "||"):
            for side in (e.lhs, e.rhs):
                self.coerce(self.check_expr(side, T.BOOL), T.BOOL, side.span)
            return T.BOOL
        if op in ("<<", ">>"):
            lt = self.check_expr(e.lhs, expected)
            rt = self.check_expr(e.rhs)
            for side, t in ((e.lhs, lt), (e.rhs, rt)):
                s = self.shallow(t)
                if not (T.is_integer(s) or isinstance(s, T.ErrorTy) or
                        (isinstance(s, T.InferTy) and s.kind == "int")):
                    self.op_error(e, lt, rt)
                    return T.ERROR
            return lt
        comparison = op in ("==", "!=", "<", "<=", ">", ">=")
        lt = self.check_expr(e.lhs, None if comparison else expected)
        if self.op_on_bare_param(e):  # `a + b` with `a: T`, `T: Copy` (generic_bounds.py)
            return T.BOOL if comparison else T.ERROR
        if self.overloadable(lt, op):  # a user type: its trait impl (typeck/trait_ops.py)
            return self.check_binary_overload(e, lt, expected)
        lref = scalar_ref(self, lt)  # `&x` operands (operators.py)
        rt = self.check_expr(e.rhs, lref if lref is not None and not comparison else lt)
        scalar_lhs = self.scalar_lhs_overload(e, lt, rt)  # `2.0 * v` (trait_ops.py)
        if scalar_lhs is not None:
            return scalar_lhs
        lt, rt = deref_operands(self, e, lt, rt, comparison)
        if not self.unify(lt, rt):
            if not comparison and isinstance(self.shallow(lt), T.CharTy):
                self.op_error(e, lt, rt)  # rustc: E0369, `char` has no arithmetic
                return T.ERROR
            if comparison:
                self.mismatch(lt, rt, e.rhs.span)
            else:
                operator_mismatch(self, op, e.lhs, e.rhs, e.op_span, lt, rt)
            return T.BOOL if comparison else T.ERROR
        s = self.shallow(lt)
        if isinstance(s, T.ErrorTy):
            return T.BOOL if comparison else T.ERROR
        numeric = T.is_numeric(s) or (
            isinstance(s, T.InferTy) and s.kind in ("int", "float"))
        if comparison:
            trait = "PartialEq" if op in ("==", "!=") else "PartialOrd"
            ok = numeric or isinstance(s, (T.BoolTy, T.CharTy)) or \
                self.comparable_tuple(s, trait) or (
                isinstance(s, T.PtrTy) and not isinstance(s.inner, T.SliceTy))
        elif op in ("&", "|", "^"):
            ok = T.is_integer(s) or isinstance(s, T.BoolTy) or (
                isinstance(s, T.InferTy) and s.kind == "int")
        else:
            ok = numeric
        if not ok:
            self.op_error(e, lt, rt)
            return T.BOOL if comparison else T.ERROR
        if op in ("/", "%"):
            self.refuse_wide_division(s, e.op_span)
        return T.BOOL if comparison else lt

    def refuse_wide_division(self, ty: T.Ty, span) -> None:
        """128-bit values are computed in 64-bit halves (passes/wide_ints.py), which have
        no division yet."""
        if isinstance(ty, T.IntTy) and ty.bits == 128:
            self.sink.error("OX0002", f"division and remainder of `{ty}` are not supported",
                            span, f"`{ty}` division",
                            help="oxidec computes 128-bit integers in 64-bit halves: add, "
                                 "subtract, multiply, shifts, comparisons and casts are supported")

    def op_error(self, e, lt, rt) -> None:
        op = e.op
        lt, rt = self.deep(lt), self.deep(rt)
        if op in self.ARITH:
            msg = f"cannot {self.ARITH[op]} `{rt}` to `{lt}`" if op == "+" else \
                f"cannot {self.ARITH[op]} `{lt}` by `{rt}`" if op in "*/%" else \
                f"cannot subtract `{rt}` from `{lt}`"
        else:
            msg = f"no implementation for `{lt} {op} {rt}`"
        self.sink.error("E0369", msg, e.op_span, f"`{op}` cannot be applied to `{lt}`",
                        labels=[Label(e.lhs.span, f"{describe(lt)}")])

    def check_assign_expr(self, e: ast.AssignExpr, expected):
        lt = self.check_place(e.lhs)
        self.coerce(self.check_expr(e.rhs, lt), lt, e.rhs.span)
        return T.UNIT

    def check_compound_assign_expr(self, e: ast.CompoundAssignExpr, expected):
        lt = self.check_place(e.lhs)
        if self.overloadable(lt, e.op):  # typeck/trait_ops.py
            return self.check_compound_overload(e, lt)
        fake = ast.BinaryExpr(op=e.op, lhs=e.lhs, rhs=e.rhs, op_span=e.op_span, span=e.span)
        if e.op in ("<<", ">>"):
            rt = self.check_expr(e.rhs)
            s = self.shallow(rt)
            if not (isinstance(s, (T.IntTy, T.ErrorTy)) or (isinstance(s, T.InferTy) and
                                                            s.kind == "int")):
                self.op_error(fake, lt, rt)
            return T.UNIT
        rt = self.check_expr(e.rhs, lt)
        if not self.unify(lt, rt):
            operator_mismatch(self, e.op, e.lhs, e.rhs, e.op_span, lt, rt, compound=True)
            return T.UNIT
        s = self.shallow(lt)
        ok = isinstance(s, (T.IntTy, T.FloatTy, T.ErrorTy)) or isinstance(s, T.InferTy)
        if e.op in ("&", "|", "^"):
            ok = ok and not isinstance(s, T.FloatTy) or isinstance(s, T.BoolTy)
        if not ok:
            self.op_error(fake, lt, rt)
        elif e.op in ("/", "%"):
            self.refuse_wide_division(s, e.op_span)
        return T.UNIT

    def check_place(self, e: ast.Expr) -> T.Ty:
        ty = self.check_expr(e)
        if e in self.r.overloads:  # `v[i] = x` through `impl IndexMut` (trait_ops.py)
            self.index_write(e)
        self.check_static_write(e)
        if not self.is_place(e):
            self.sink.error("E0070", "invalid left-hand side of assignment", e.span,
                            "cannot assign to this expression")
            return T.ERROR
        return ty

    def is_place(self, e: ast.Expr) -> bool:
        if isinstance(e, ast.PathExpr):
            return isinstance(self.r.res.get(e), (LocalRes, StaticRes))
        if isinstance(e, ast.FieldExpr):
            return self.is_place(e.base) or isinstance(self.shallow(self.r.expr_ty.get(e.base)),
                                                       T.RefTy)
        if isinstance(e, ast.IndexExpr):
            return True
        if isinstance(e, ast.UnaryExpr) and e.op == "*":
            return True
        return False

    def check_cast_expr(self, e: ast.CastExpr, expected):
        target = self.lower_type(e.ty)
        src = self.shallow(self.check_expr(e.expr))
        if isinstance(src, T.InferTy) and src.kind == "any":
            self.sink.error("E0282", "type annotations needed", e.expr.span,
                            "cannot infer the type of this value")
            return target
        if isinstance(src, T.EnumTy) and self.check_enum_cast(src, target, e):
            return target
        castable = (T.IntTy, T.FloatTy, T.BoolTy, T.ErrorTy, T.InferTy)
        ok = isinstance(src, castable) and isinstance(target, (T.IntTy, T.FloatTy, T.ErrorTy))
        if isinstance(src, T.BoolTy) and isinstance(target, T.FloatTy):
            ok = False
        if isinstance(src, T.PtrTy) and isinstance(target, (T.PtrTy, T.IntTy)):
            ok = True
        if isinstance(target, T.PtrTy) and not isinstance(target, T.AtomicTy) and (
                src == T.USIZE or isinstance(src, T.InferTy) and src.kind == "int"):
            self.unify(src, T.USIZE)
            ok = True  # `addr as *mut T`
        if isinstance(src, T.RefTy) and isinstance(target, T.PtrTy) and not isinstance(
                target, T.AtomicTy) and (src.mutable or not target.mutable) \
                and self.unify(src.inner, target.inner):
            ok = True  # `&mut x as *mut T`
        if isinstance(target, T.BoolTy) and isinstance(src, (T.IntTy, T.InferTy)):
            self.sink.error("E0054", f"cannot cast `{self.deep(src)}` as `bool`", e.span,
                            "invalid cast", help="compare with zero instead: `x != 0`")
            return T.BOOL
        if isinstance(target, T.CharTy) and ok and not (src == T.U8 or isinstance(
                src, (T.CharTy, T.ErrorTy)) or (isinstance(src, T.InferTy) and self.unify(
                src, T.U8))):
            self.sink.error("E0604", f"only `u8` can be cast as `char`, not `{self.deep(src)}`",
                            e.span, "invalid cast",
                            help="consider using `char::from_u32` instead")
            return target
        if isinstance(src, T.CharTy) and isinstance(target, T.FloatTy):
            self.sink.error("E0606", f"casting `char` as `{target}` is invalid", e.span,
                            "invalid cast", help="cast through an integer first")
            return target
        if not ok:
            self.sink.error("E0606", f"casting `{self.deep(src)}` as `{target}` is invalid",
                            e.span, "invalid cast")
        return target

    def check_range_expr(self, e: ast.RangeExpr, expected):
        if e.lo is None or e.hi is None:
            self.unsupported(e.span, "open ranges")
            return T.ERROR
        exp = self.shallow(expected) if expected is not None else None
        if is_range_struct(exp) and not e.inclusive:  # `let r: Range<u64> = 8..16`
            elem = exp.fields[0][1]
            for b in (e.lo, e.hi):
                self.coerce(self.check_expr(b, elem), elem, b.span)
            return exp
        lt = self.check_expr(e.lo, exp.elem if isinstance(exp, T.RangeTy) else None)
        rt = self.check_expr(e.hi, lt)
        if not self.unify(lt, rt):
            self.mismatch(lt, rt, e.hi.span)
        s = self.shallow(lt)
        if not (isinstance(s, (T.IntTy, T.ErrorTy)) or isinstance(s, T.InferTy)):
            self.sink.error("E0277", f"the range bounds must be integers, found `{self.deep(s)}`",
                            e.span, "not an integer range")
        elif isinstance(s, T.InferTy) and s.kind == "any":
            self.unify(s, self.fresh("int"))
        return T.RangeTy(lt)

    def check_index_expr(self, e: ast.IndexExpr, expected):
        if isinstance(e.index, ast.RangeExpr):
            return self.check_range_index(e)  # typeck/slices.py
        base = self.shallow(self.check_expr(e.base))
        if self.has_trait(self.deref_all(base), "Index"):  # `impl Index` (trait_ops.py)
            return self.check_index_overload(e, self.deref_all(base))
        # rustc: E0277 "cannot be indexed by `u32`", without a conversion help
        self.coerce(self.check_expr(e.index, T.USIZE), T.USIZE, e.index.span, convert_help=False)
        if isinstance(base, T.RefTy):
            base = self.shallow(base.inner)
        if isinstance(base, (T.SliceTy, T.ArrayTy, T.SharedArrayTy)):
            return base.elem
        if T.cusimd_parts(base) is not None:  # `v[i]`: its array's element
            return T.cusimd_parts(base)[0]
        if isinstance(base, T.ErrorTy):
            return T.ERROR
        help = None
        if isinstance(base, T.DisjointSliceTy):
            help = "a `DisjointSlice` is written through `get_mut(thread_index)`, which gives " \
                   "each thread only its own element"
        self.sink.error("E0608", f"cannot index into a value of type `{self.deep(base)}`",
                        e.span, "cannot be indexed", help=help)
        return T.ERROR

    def check_field_expr(self, e: ast.FieldExpr, expected):
        base = self.shallow(self.check_expr(e.base))
        while isinstance(base, T.RefTy):
            base = self.shallow(base.inner)
        if isinstance(base, T.StructTy) and base.name in self.r.union_fields:
            return self.union_field(e, base)  # typeck/unions.py
        if isinstance(base, T.StructTy):
            idx = base.field_index(e.name)
            if idx is not None:
                return base.fields[idx][1]
            names = [f for f, _ in base.fields]
            hint = nearest(e.name, names)
            self.sink.error("E0609", f"no field `{e.name}` on type `{base}`", e.name_span,
                            "unknown field",
                            help=f"a field with a similar name exists: `{hint}`" if hint else
                            "available fields are: " + ", ".join(f"`{n}`" for n in names))
            return T.ERROR
        if isinstance(base, T.TupleTy) and e.name.isdigit():
            i = int(e.name)
            if i < len(base.elems):
                return base.elems[i]
        if isinstance(base, T.ErrorTy):
            return T.ERROR
        code = "E0610" if T.is_scalar(base) else "E0609"
        msg = f"`{self.deep(base)}` is a primitive type and therefore doesn't have fields" \
            if code == "E0610" else f"no field `{e.name}` on type `{self.deep(base)}`"
        self.sink.error(code, msg, e.name_span, "unknown field")
        return T.ERROR
