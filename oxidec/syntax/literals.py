"""Decoding literal tokens: `1_000u32`, `0xFFu8`, `1f32`, `2.5e-3f32`, `"a\\n"`, `'\\u{41}'`.

Each decoder returns the value and suffix, or raises `LiteralError` with a rustc-style
message. Range checks (does 300 fit `u8`?) are typeck's job: ints keep their value.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

INT_SUFFIXES = frozenset("u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize".split())
FLOAT_SUFFIXES = frozenset({"f16", "f32", "f64"})  # `bf16` is no Rust suffix: `1.5 as bf16`


class LiteralError(Exception):
    def __init__(self, message: str, label: str = "", help: str | None = None,
                 offset: int = 0, length: int | None = None):
        super().__init__(message)
        self.message = message
        self.label = label
        self.help = help
        self.offset = offset  # where in the token the problem is
        self.length = length  # how long it is; None: the whole token


_BASES = {"0x": (16, "0123456789abcdefABCDEF"), "0o": (8, "01234567"), "0b": (2, "01")}
_FLOAT = re.compile(r"([0-9][0-9_]*(?:\.(?:[0-9][0-9_]*)?)?(?:[eE][+-]?[0-9_]*[0-9][0-9_]*)?)"
                    r"([A-Za-z_][A-Za-z0-9_]*)?$")
_SUFFIX_HELP = "the suffix must be one of the numeric types (`u32`, `isize`, `f32`, etc.)"


def decode_int(text: str) -> tuple[str, object, str | None]:
    """(kind, value, suffix) of an INT token; kind is "float" for `1f32`."""
    prefix = text[:2]
    base, digits_ok = _BASES.get(prefix, (10, "0123456789"))
    start = 2 if base != 10 else 0
    i = start
    # hex digits swallow `f32`-looking suffixes, as in rustc (`0x1f32` is hex 1f32)
    accept = "0123456789abcdefABCDEF_" if base == 16 else "0123456789_"
    while i < len(text) and text[i] in accept:
        i += 1
    digits, suffix = text[start:i].replace("_", ""), text[i:] or None
    if not digits:
        raise LiteralError("no valid digits found for number", "", None, 0, None)
    for pos, ch in enumerate(text[start:i], start):
        if ch != "_" and ch not in digits_ok:
            raise LiteralError(f"invalid digit for a base {base} literal", "", None, pos, 1)
    if suffix is None or suffix in INT_SUFFIXES:
        return "int", _int_value(digits, base), suffix
    if suffix in FLOAT_SUFFIXES and base == 10:
        return "float", Decimal.parse(digits), suffix
    if suffix in FLOAT_SUFFIXES:
        raise LiteralError(f"{_base_name(base)} float literal is not supported", "", None)
    raise LiteralError(f"invalid suffix `{suffix}` for number literal",
                       f"invalid suffix `{suffix}`", _SUFFIX_HELP)


U128_MAX = (1 << 128) - 1
# the most digits a u128 takes in each base: longer literals are too large without converting
# them (Python refuses int() of more than 4300 decimal digits, and it would be slow anyway)
_MAX_DIGITS = {2: 128, 8: 43, 10: 39, 16: 32}


def _int_value(digits: str, base: int) -> int:
    significant = digits.lstrip("0")
    value = int(significant, base) if significant and \
        len(significant) <= _MAX_DIGITS[base] else (0 if not significant else U128_MAX + 1)
    if value > U128_MAX:
        # rustc: "integer literal is too large", whatever the suffix
        raise LiteralError("integer literal is too large", "",
                           f"value exceeds limit of `{U128_MAX}`", 0, None)
    return value


def _base_name(base: int) -> str:
    return {16: "hexadecimal", 8: "octal", 2: "binary"}[base]


def decode_float(text: str) -> tuple[float, str | None]:
    m = _FLOAT.match(text)
    if not m:  # the grammar's FLOAT regex and this one agree; keep a clear error anyway
        raise LiteralError("invalid float literal", "")
    number, suffix = m.group(1), m.group(2)
    if suffix is not None and suffix not in FLOAT_SUFFIXES:
        raise LiteralError(f"invalid suffix `{suffix}` for float literal",
                           f"invalid suffix `{suffix}`",
                           "valid suffixes are `f16`, `f32` and `f64`")
    return Decimal.parse(number.replace("_", "")), suffix


# ---------------------------------------------------------------------------
# Float literals: exact until their type is known

# Significant digits kept: an exact tie between two f64s has at most 767, so 800 digits
# plus a sticky digit for whatever nonzero digits follow decide every rounding.
_KEEP_DIGITS = 800
# Decimal magnitudes beyond these round to infinity or zero in every float type.
_MAX_MAGNITUDE, _MIN_MAGNITUDE = 330, -400


@dataclass(frozen=True)
class Decimal:
    """The exact value of a decimal float literal, digits * 10^exponent, so that it is
    rounded once, to the type typeck gives it (rounding to f64 first and then to f32
    differs for `384728.953125000000727595761418342590332031f32`). `float()` of it is the
    correctly rounded f64."""

    digits: int  # the significant digits as an integer (sticky-truncated, see above)
    exponent: int

    @staticmethod
    def parse(text: str) -> "Decimal":
        """`12.5e-3` (no underscores, no suffix)."""
        mantissa, _, exp = text.lower().partition("e")
        whole, _, frac = mantissa.partition(".")
        digits = (whole + frac).lstrip("0")
        exponent = (int(exp) if exp else 0) - len(frac)
        if not digits:
            return Decimal(0, 0)
        trailing = len(digits) - len(digits.rstrip("0"))
        digits, exponent = digits[:len(digits) - trailing], exponent + trailing
        if len(digits) > _KEEP_DIGITS:
            dropped = len(digits) - _KEEP_DIGITS
            digits = digits[:_KEEP_DIGITS] + "1"  # the rest is nonzero: a sticky digit
            exponent += dropped - 1
        return Decimal(int(digits), exponent)

    def __float__(self) -> float:
        return self.round(53, -1022, 1023)

    def __str__(self) -> str:
        """The f64 value's shortest form when that is the literal exactly (`2.5`), else
        the exact digits (`384728953125000000727595761418342590332031e-36`)."""
        f = float(self)
        if math.isfinite(f) and Decimal.parse(repr(f)) == self:
            return repr(f)
        return f"{self.digits}e{self.exponent}"

    __repr__ = __str__

    def round(self, precision: int, emin: int, emax: int) -> float:
        """The nearest float (ties to even) with `precision` significant bits, exponents
        emin..emax and subnormals below, as a Python float (exact for f32 and f64)."""
        if self.digits == 0:
            return 0.0
        magnitude = len(str(self.digits)) + self.exponent  # 10^(m-1) <= value < 10^m
        if magnitude > _MAX_MAGNITUDE:
            return math.inf
        if magnitude < _MIN_MAGNITUDE:
            return 0.0
        num, den = (self.digits * 10 ** self.exponent, 1) if self.exponent >= 0 else \
            (self.digits, 10 ** -self.exponent)
        e = num.bit_length() - den.bit_length()  # 2^e <= value < 2^(e+2)
        if (num << max(0, -e)) < (den << max(0, e)):
            e -= 1
        e = max(e, emin)  # below the normal range the quantum stays 2^(emin - p + 1)
        shift = precision - 1 - e
        if shift >= 0:
            num <<= shift
        else:
            den <<= -shift
        q, r = divmod(num, den)
        if 2 * r > den or (2 * r == den and q & 1):
            q += 1
        if q >> precision:  # rounded up to the next binade
            q, e = q >> 1, e + 1
            shift -= 1
        return math.inf if e > emax else math.ldexp(q, -shift)

    def to_f32(self) -> float:
        return self.round(24, -126, 127)

    def rounded(self, bits: int) -> float:
        """The literal as an f32 (bits 32) or f64 (bits 64), rounded once."""
        return self.to_f32() if bits == 32 else float(self)


def float_literal(value, bits) -> float:
    """A float literal's value in the float type of `bits` (32, 64, or a `FloatTy`: the
    halves need it), rounded once (a Decimal), or a value that is already a float (a
    negated or computed constant)."""
    if not isinstance(bits, int):  # a FloatTy
        from ..types import float_format
        if bits.bits == 16:
            p, emin, emax = float_format(bits)
            if isinstance(value, Decimal):
                return value.round(p, emin, emax)
            from ..passes.consteval import round_float
            return round_float(float(value), bits)
        bits = bits.bits
    if isinstance(value, Decimal):
        return value.rounded(bits)
    from struct import pack, unpack
    value = float(value)
    if bits == 64 or value != value:
        return value
    try:
        return unpack("<f", pack("<f", value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


_SIMPLE_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", "0": "\0", "'": "'", '"': '"'}


def decode_escapes(body: str, offset: int, in_string: bool) -> str:
    """Decode the escapes of a string or char body; `offset` is where body starts in the token."""
    out: list[str] = []
    i = 0
    n = len(body)
    while i < n:
        ch = body[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        if i + 1 >= n:
            raise LiteralError("unterminated escape", "", None, offset + i, 1)
        e = body[i + 1]
        if e in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[e])
            i += 2
        elif e == "x":
            hexd = body[i + 2:i + 4]
            if len(hexd) != 2 or not all(c in "0123456789abcdefABCDEF" for c in hexd):
                raise LiteralError("numeric character escape is too short", "", None,
                                   offset + i, 2 + len(hexd))
            value = int(hexd, 16)
            if value > 0x7F:
                raise LiteralError("out of range hex escape", "must be a character in the "
                                   "range [\\x00-\\x7f]", None, offset + i, 4)
            out.append(chr(value))
            i += 4
        elif e == "u":
            m = re.match(r"\{([0-9A-Fa-f_]{1,8})\}", body[i + 2:])
            if not m:
                raise LiteralError("invalid unicode character escape", "", None, offset + i, 2)
            value = int(m.group(1).replace("_", ""), 16)
            if value > 0x10FFFF or 0xD800 <= value <= 0xDFFF:
                raise LiteralError("invalid unicode character escape", "", None, offset + i,
                                   2 + m.end())
            out.append(chr(value))
            i += 2 + m.end()
        elif e == "\n" and in_string:
            # a line continuation: skip the newline and the next line's leading whitespace
            i += 2
            while i < n and body[i] in " \t\r\n":
                i += 1
        else:
            raise LiteralError(f"unknown character escape: `{_show(e)}`",
                               "unknown character escape", None, offset + i + 1, 1)
    return "".join(out)


def _show(ch: str) -> str:
    return ch if ch.isprintable() else "\\u{%x}" % ord(ch)


def decode_str(text: str) -> str:
    return decode_escapes(text[1:-1], 1, True)


def decode_char(text: str) -> str:
    value = decode_escapes(text[1:-1], 1, False)
    if len(value) != 1:
        raise LiteralError("character literal may only contain one codepoint", "")
    return value


_BYTE_ESCAPES = {"n": 10, "r": 13, "t": 9, "\\": 92, "0": 0, "'": 39, '"': 34}


def decode_bytes(text: str) -> bytes:
    """The bytes of `b"..."` or `b'x'` (the whole token): ASCII characters and the byte
    escapes, `\\x00`..`\\xFF` included; no `\\u{..}`, as in rustc."""
    body, out, i = text[2:-1], bytearray(), 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            if ord(ch) > 0x7F:
                raise LiteralError("non-ASCII character in byte literal", "must be ASCII",
                                   "use a `\\xHH` escape for a byte above 0x7F", 2 + i, 1)
            out.append(ord(ch))
            i += 1
            continue
        e = body[i + 1] if i + 1 < len(body) else ""
        if e in _BYTE_ESCAPES:
            out.append(_BYTE_ESCAPES[e])
            i += 2
        elif e == "x" and re.fullmatch(r"[0-9A-Fa-f]{2}", body[i + 2:i + 4]):
            out.append(int(body[i + 2:i + 4], 16))
            i += 4
        elif e == "\n" and text.startswith('b"'):  # a line continuation
            i += 2
            while i < len(body) and body[i] in " \t\r\n":
                i += 1
        else:
            raise LiteralError(f"unknown byte escape: `{_show(e)}`", "unknown byte escape",
                               None, 2 + i, 2)
    if text.startswith("b'") and len(out) != 1:
        raise LiteralError("byte literal may only contain one byte", "")
    return bytes(out)
