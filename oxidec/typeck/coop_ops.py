"""`warp_reduce::<T, Op, N>(&tile, v)` and the other cooperative-groups collectives
(device_api/coop_ops.py): their generic arguments and arguments."""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..device_api import ApiFn
from ..device_api.coop_ops import OPS


class CoopOpsMixin:

    def call_coop_collective(self, e: ast.CallExpr, api: ApiFn) -> T.Ty:
        gargs = e.func.path.last.generic_args
        block = api.name.startswith("block")
        want = 3 if block else 2
        tys = [self.shallow(self.check_expr(a)) for a in e.args]
        if len(gargs) != 3 or len(e.args) != want:
            self.sink.error("E0107", f"`{api.name}` is written `{api.name}::<T, Op, _>("
                            f"{'&block, value, &raw mut SMEM' if block else '&tile, value'})`",
                            e.func.span, "expected 3 generic arguments and "
                            f"{want} arguments")
            return T.ERROR
        elem = self._type_arg(gargs[0])
        op = gargs[1].path.last.name if isinstance(gargs[1], ast.PathType) else None
        if op not in OPS or str(elem) not in OPS[op][1]:
            self.sink.error("E0277", f"`{op}` is not a reduction operator of `{elem}`",
                            gargs[1].span, "not one of `cooperative_groups::ops`",
                            notes=["Sum, Min and Max combine u32, i32 and f32; BitAnd, BitOr "
                                   "and BitXor combine u32"])
            return T.ERROR
        group = tys[0].inner if isinstance(tys[0], T.RefTy) else tys[0]
        group = self.shallow(group)
        if block:
            n = None
            scratch = tys[2].inner if isinstance(tys[2], T.PtrTy) else None
            if group != T.THREAD_BLOCK or not isinstance(scratch, T.SharedArrayTy) or \
                    scratch.elem != elem:
                self.sink.error("E0308", "mismatched types", e.span,
                                f"expected `(&ThreadBlock, {elem}, *mut SharedArray<{elem}, "
                                "NUM_WARPS>)`")
                return T.ERROR
            n = scratch.length
        else:
            n = T.warp_tile_size(group)
            if n is None:
                self.sink.error("E0308", "mismatched types", e.args[0].span,
                                f"expected `&WarpTile<N>`, found `{tys[0]}`")
                return T.ERROR
        if not isinstance(gargs[2], ast.InferType):
            given = self.consts.eval_usize(self._const_arg(gargs[2]))
            if given is not None and given != n:
                self.sink.error("E0308", "mismatched types", gargs[2].span,
                                f"expected `{n}`, found `{given}`")
        self.coerce(tys[1], elem, e.args[1].span)
        self.r.generic_values[e] = (list(OPS).index(op), n)
        return elem
