"""`char` methods and associated functions, expanded into MIR on the char's scalar value
(a u32 below typeck), with core's definitions (core/src/char/methods.rs):

    method_call_expr: expr "." IDENT "(" args? ")"      `c.is_ascii_digit()`, `c.to_digit(16)`
    call_expr: path_expr "(" args ")"                   `char::from_u32(x)`, `char::from_digit(d, 10)`
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..mir import syntax as M
from .num_methods import _Ops, k

# the ASCII classes as inclusive ranges of code points
ASCII_CLASSES = {
    "digit": ((0x30, 0x39),),
    "uppercase": ((0x41, 0x5A),),
    "lowercase": ((0x61, 0x7A),),
    "alphabetic": ((0x41, 0x5A), (0x61, 0x7A)),
    "alphanumeric": ((0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A)),
    "hexdigit": ((0x30, 0x39), (0x41, 0x46), (0x61, 0x66)),
    "whitespace": ((0x09, 0x0A), (0x0C, 0x0D), (0x20, 0x20)),
    "punctuation": ((0x21, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E)),
    "graphic": ((0x21, 0x7E),),
    "control": ((0x00, 0x1F), (0x7F, 0x7F)),
}
WHITE_SPACE = ((0x09, 0x0D), (0x20, 0x20), (0x85, 0x85), (0xA0, 0xA0), (0x1680, 0x1680),
               (0x2000, 0x200A), (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F),
               (0x3000, 0x3000))
RADIX_PANIC = "to_digit: invalid radix -- radix must be in the range 2 to 36 inclusive"


def _in_ranges(o: _Ops, c, ranges) -> M.Operand:
    """c in any of the ranges: (c - lo) <= hi - lo, unsigned, one compare per range."""
    out = None
    for lo, hi in ranges:
        off = o.bin("sub", c, k(lo, T.U32), T.U32)
        hit = o.bin("le", off, k(hi - lo, T.U32), T.U32)
        out = hit if out is None else o.either(out, hit)
    return out


class CharLowering:

    def char_is_whitespace(self, o, c, ret):
        """core's `is_whitespace`: `' '`, `'\\t'..='\\r'`, or Unicode's White_Space set
        above ASCII (U+0085, U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029, U+202F,
        U+205F, U+3000: the property's whole list, unchanged since Unicode 6.3)."""
        return _in_ranges(o, o.cast(c, T.U32), WHITE_SPACE)

    def char_is_ascii(self, o, c, ret):
        return o.bin("lt", o.cast(c, T.U32), k(0x80, T.U32), T.U32)

    def _case(self, o, c, ranges, delta: int):
        u = o.cast(c, T.U32)
        flipped = o.cast(o.bin("add", u, k(delta, T.U32), T.U32), T.CHAR)
        return o.sel(_in_ranges(o, u, ranges), flipped, c, T.CHAR)

    def char_to_ascii_uppercase(self, o, c, ret):
        return self._case(o, c, ASCII_CLASSES["lowercase"], -32 & 0xFFFF_FFFF)

    def char_to_ascii_lowercase(self, o, c, ret):
        return self._case(o, c, ASCII_CLASSES["uppercase"], 32)

    def _digit(self, o, c, radix):
        """(the digit value, whether it is below radix): core's `to_digit`."""
        ok_radix = o.bin("le", o.bin("sub", radix, k(2, T.U32), T.U32), k(34, T.U32), T.U32)
        self.check(ok_radix, RADIX_PANIC, o.span)
        u = o.cast(c, T.U32)
        d0 = o.bin("sub", u, k(0x30, T.U32), T.U32)
        letter = o.bin("sub", o.bin("bitor", u, k(0x20, T.U32), T.U32), k(0x61, T.U32), T.U32)
        big = o.bin("gt", letter, k(0xFFFF_FFFF - 10, T.U32), T.U32)  # saturating_add(10)
        d1 = o.sel(big, k(0xFFFF_FFFF, T.U32), o.bin("add", letter, k(10, T.U32), T.U32),
                   T.U32)
        wide = o.both(o.bin("gt", radix, k(10, T.U32), T.U32),
                      o.bin("ge", d0, k(10, T.U32), T.U32))
        digit = o.sel(wide, d1, d0, T.U32)
        return digit, o.bin("lt", digit, radix, T.U32)

    def char_to_digit(self, o, c, radix, ret):
        digit, ok = self._digit(o, c, radix)
        return o.agg(ret, ok, digit)

    def char_is_digit(self, o, c, radix, ret):
        return self._digit(o, c, radix)[1]

    def char_len_utf8(self, o, c, ret):
        u = o.cast(c, T.U32)
        n = k(1, T.USIZE)
        for limit in (0x80, 0x800, 0x10000):
            more = o.cast(o.bin("ge", u, k(limit, T.U32), T.U32), T.USIZE)
            n = o.bin("add", n, more, T.USIZE)
        return n

    # -- `char::from_u32(i)`, `char::from_digit(num, radix)` (device API hooks) ------------
    def api_char_from_u32(self, e: ast.CallExpr, api) -> M.Operand:
        (i,) = self.lower_in_order(e.args)
        o = _Ops(self, e.span)
        # core: valid unless a surrogate (0xD800..=0xDFFF) or above 0x10FFFF
        shifted = o.bin("sub", o.bin("bitxor", i, k(0xD800, T.U32), T.U32), k(0x800, T.U32),
                        T.U32)
        ok = o.bin("lt", shifted, k(0x110000 - 0x800, T.U32), T.U32)
        return o.agg(self.ty(e), ok, o.cast(i, T.CHAR))

    def api_char_from_digit(self, e: ast.CallExpr, api) -> M.Operand:
        num, radix = self.lower_in_order(e.args)
        o = _Ops(self, e.span)
        self.check(o.bin("le", o.bin("sub", radix, k(2, T.U32), T.U32), k(34, T.U32), T.U32),
                   "from_digit: radix is too high (maximum 36)", e.span)
        small = o.bin("lt", num, k(10, T.U32), T.U32)
        code = o.sel(small, o.bin("add", num, k(0x30, T.U32), T.U32),
                     o.bin("add", num, k(0x61 - 10, T.U32), T.U32), T.U32)
        ok = o.bin("lt", num, radix, T.U32)
        return o.agg(self.ty(e), ok, o.cast(code, T.CHAR))


def _class_test(ranges):
    def method(self, o, c, ret):
        return _in_ranges(o, o.cast(c, T.U32), ranges)
    return method


for _name, _ranges in ASCII_CLASSES.items():  # `char_is_ascii_digit`, ...
    setattr(CharLowering, f"char_is_ascii_{_name}", _class_test(_ranges))
