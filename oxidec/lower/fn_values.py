"""Function values and calls through them (typeck/fn_values.py gives the numbers).

    let f: fn(u32) -> u32 = inc;     _3 = const 2_fn(u32) -> u32
    f(x)                             switchInt(_3) -> [1: bb4, 2: bb5, otherwise: bb6]
                                     bb4: _7 = dec(_2) -> bb7      bb5: _7 = inc(_2) -> bb7
                                     bb6: unreachable

The dispatch lists the functions of the pointer's signature that were used as values (no
other number can be in a value of that type); with one candidate it is a direct call.
Constant propagation folds the switch when it knows the number.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import ast
from .. import types as T
from ..mir import syntax as M
from .builder import UNIT_CONST
from .user_calls import byval_ref


@dataclass
class FnValueEnv:
    """A function value bound where a closure could be (an `F: Fn(..)` parameter)."""

    value: M.Operand
    ty: T.FnPtrTy


class FnValueLowering:

    def lower_fn_value(self, res, e: ast.PathExpr) -> M.Operand:
        return M.Constant(res.id, self.ty(e))

    def fn_value_env(self, arg: ast.Expr) -> FnValueEnv | None:
        ty = self.ty(arg)
        if isinstance(ty, T.FnPtrTy):
            return FnValueEnv(self.lower_expr(arg), ty)
        if isinstance(ty, T.RefTy) and isinstance(ty.inner, (T.FnPtrTy, T.RefTy)):
            value = self.lower_expr(arg)  # a `&fn(..)` (`&&fn(..)` ..) variable: its pointee
            while isinstance(ty, T.RefTy):
                place = M.Place(self.operand_local(value, ty, arg.span), (M.Deref(),))
                value, ty = self.read(place, ty.inner), ty.inner
            return FnValueEnv(value, ty) if isinstance(ty, T.FnPtrTy) else None
        return None

    def fn_value_arg(self, a, ty: T.Ty) -> M.Operand:
        """An argument a closure call site has (an operand, a place, an iterator item) as
        an operand for a call through a function value."""
        if isinstance(a, M.Place):
            return self.read(a, ty)
        if hasattr(a, "kind") and hasattr(a, "parts"):  # an iterator item
            return self.item_operand(a, None)
        return a

    def lower_fn_ptr_call(self, e: ast.CallExpr, ty: T.FnPtrTy) -> M.Operand:
        """`f(a, b)` / `(s.f)(a)`: the callee value, then the arguments, left to right."""
        value = self.lower_expr(e.func)
        value = self.to_temp(M.Use(value), ty, e.func.span)
        return self.call_fn_value(value, ty, list(e.args), e.span)

    def call_fn_value(self, value: M.Operand, ty: T.FnPtrTy, args: list, span) -> M.Operand:
        """Dispatch on the function number `value` (see the module docstring); `args` are
        AST expressions or operands already lowered."""
        ops = []
        for a, pty in zip(args, ty.params):
            if not isinstance(a, ast.Expr):
                ops.append(a)
            elif byval_ref(pty):  # a `&S` parameter takes the value (lower/user_calls.py)
                if pty.mutable:
                    return self.unsupported(a.span, "a `&mut` aggregate argument of a call "
                                                    "through a function pointer is")
                ops.append(M.Copy(self.ref_arg_place(a)))
            else:
                ops.append(self.fixed(self.lower_expr(a), pty, a.span))
        cands = [(i, k) for k, i in sorted(self.r.fn_ids.items(), key=lambda kv: kv[1])
                 if self.r.fn_sigs[k].params == ty.params and self.r.fn_sigs[k].ret == ty.ret]
        result = self.new_local(ty.ret, span)
        join = self.new_block()
        if len(cands) == 1:
            self.call_one(cands[0][1], ops, result, join, span)
        else:
            blocks = [self.new_block() for _ in cands]
            dead = self.new_block()
            self.terminate(M.SwitchInt(value, tuple(i for i, _ in cands), tuple(blocks), dead,
                                       span))
            for (_, key), b in zip(cands, blocks):
                self.cur = b
                self.call_one(key, ops, result, join, span)
            self.cur = dead
            self.terminate(M.Unreachable(span))
        self.cur = join
        if isinstance(ty.ret, T.NeverTy):
            self.terminate(M.Unreachable(span))
            return UNIT_CONST
        return self.read(M.Place(result), ty.ret)

    def call_one(self, key: str, ops: list, result: int, join: int, span) -> None:
        nxt = self.new_block()
        self.terminate(M.Call(key, tuple(ops), M.Place(result), nxt, span))
        self.cur = nxt
        self.goto(join, span)
