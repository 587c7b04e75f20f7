"""`core::mem::transmute` between aggregates of integers and floats (typeck/pointers.py checks
that the sizes match): the value is taken apart into its scalar leaves and the result's
leaves are assembled from the bytes they cover (typeck/pointers.plain says which types), little-endian, in registers, so no memory
round trip is needed (padding bytes read as zero).

    transmute::<[u8; 4], u32>(b)    =>   _w0 = b[0] as u64; _w1 = b[1] as u64; ...
                                         _r = (_w0 | _w1 << 8 | _w2 << 16 | _w3 << 24) as u32
    transmute::<u64, [f32; 2]>(x)   =>   [bitcast(x as u32), bitcast((x >> 32) as u32)]
"""
from __future__ import annotations

from .. import types as T
from ..mir import layout
from ..mir import syntax as M
from ..span import Span

U64 = T.IntTy(64, False)


def leaves(ty: T.Ty, offset: int = 0, projs: tuple = ()):
    """(projections, scalar type, byte offset) of every scalar in a value of `ty`."""
    if isinstance(ty, (T.IntTy, T.FloatTy, T.PtrTy)):
        yield projs, ty, offset
    elif isinstance(ty, T.ArrayTy):
        size = layout.size_of(ty.elem)
        for k in range(ty.length):
            yield from leaves(ty.elem, offset + k * size, projs + (M.ConstIndex(k),))
    else:
        fields = ty.elems if isinstance(ty, T.TupleTy) else tuple(t for _, t in ty.fields)
        for i, (f, off) in enumerate(zip(fields, layout.field_offsets(ty))):
            yield from leaves(f, offset + off, projs + (M.Field(i),))


class TransmuteLowering:

    def transmute_aggregate(self, value: M.Operand, src: T.Ty, dst: T.Ty,
                            span: Span) -> M.Operand:
        tmp = self.operand_local(value, src, span)
        words = []
        for projs, ty, off in leaves(src):
            v = self.read(M.Place(tmp, projs), ty)
            words.append((off, layout.size_of(ty), self.bits_of(v, ty, span)))
        return self.assemble(dst, 0, words, span)

    def bits_of(self, v: M.Operand, ty: T.Ty, span: Span) -> M.Operand:
        """A scalar's bits, zero-extended to a u64."""
        unsigned = T.IntTy(layout.size_of(ty) * 8, False)
        if isinstance(ty, T.PtrTy):
            return self.to_temp(M.Cast(v, U64), U64, span)
        if isinstance(ty, T.FloatTy):
            v = self.to_temp(M.Intrinsic("bitcast", (v,)), unsigned, span)
        elif ty != unsigned:
            v = self.to_temp(M.Cast(v, unsigned), unsigned, span)
        return v if unsigned == U64 else self.to_temp(M.Cast(v, U64), U64, span)

    def assemble(self, ty: T.Ty, offset: int, words, span: Span) -> M.Operand:
        if isinstance(ty, T.PtrTy):  # an address: the u64 at `offset`, cast
            return self.to_temp(M.Cast(self.scalar_from(U64, offset, words, span), ty), ty,
                                span)
        if isinstance(ty, (T.IntTy, T.FloatTy)):
            return self.scalar_from(ty, offset, words, span)
        if isinstance(ty, T.ArrayTy):
            size = layout.size_of(ty.elem)
            ops = tuple(self.assemble(ty.elem, offset + k * size, words, span)
                        for k in range(ty.length))
        else:
            fields = ty.elems if isinstance(ty, T.TupleTy) else tuple(t for _, t in ty.fields)
            ops = tuple(self.assemble(f, offset + off, words, span)
                        for f, off in zip(fields, layout.field_offsets(ty)))
        return self.to_temp(M.Aggregate(ty, ops), ty, span)

    def scalar_from(self, ty: T.Ty, offset: int, words, span: Span) -> M.Operand:
        """The scalar of type `ty` at `offset`, from the bytes of the source's leaves."""
        size = layout.size_of(ty)
        acc: M.Operand | None = None
        for soff, ssize, w in words:
            lo, hi = max(offset, soff), min(offset + size, soff + ssize)
            if lo >= hi:
                continue
            piece = w
            if lo > soff:
                piece = self.to_temp(M.BinaryOp("shr", piece, M.Constant(8 * (lo - soff),
                                                                          T.U32)), U64, span)
            if hi - lo < 8 and hi < soff + ssize:
                mask = (1 << (8 * (hi - lo))) - 1
                piece = self.to_temp(M.BinaryOp("bitand", piece, M.Constant(mask, U64)), U64,
                                     span)
            if lo > offset:
                piece = self.to_temp(M.BinaryOp("shl", piece, M.Constant(8 * (lo - offset),
                                                                          T.U32)), U64, span)
            acc = piece if acc is None else self.to_temp(M.BinaryOp("bitor", acc, piece), U64,
                                                         span)
        if acc is None:
            acc = M.Constant(0, U64)
        unsigned = T.IntTy(size * 8, False)
        if unsigned != U64:
            acc = self.to_temp(M.Cast(acc, unsigned), unsigned, span)
        if isinstance(ty, T.FloatTy):
            return self.to_temp(M.Intrinsic("bitcast", (acc,)), ty, span)
        return acc if ty == unsigned else self.to_temp(M.Cast(acc, ty), ty, span)
