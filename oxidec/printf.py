"""`gpu_printf!` format strings: Rust's `{}` placeholders -> a C format string for CUDA's
`vprintf`, and the same C format applied on the host (for the simulator).

    gpu_printf!("block {} sum {:.3}\n", b, s)     b: u32, s: f32
        -> "block %u sum %.3f\n"  with the values packed as (u32, f64)

Placeholders: `{}` and `{:?}` (any scalar), `{:x}` / `{:X}` / `{:o}` (integers, hex and
octal; `{:#x}` / `{:#X}` / `{:#o}` with Rust's `0x` / `0o` prefix), with an optional
alignment `<` / `>` (after a space fill), a `+` sign, a `0` flag, a width and a `.precision` (`{:>8.3}`, `{:08x}`, `{:+.2}`, `{:#010x}`); `{{` and `}}` are braces.
Floats print with C's `%g` for `{}` (Rust's shortest round-trip form has no C equivalent);
`{:e}` / `{:E}` become C's `%e` / `%E`, as cuda-oxide translates them (so `1.500000e+03`,
where Rust's `format!` writes `1.5e3`; `{:.2e}`: `1.50e+03`); bools as
`true` / `false`, pointers as `%p`. Not supported (a diagnostic): positional (`{0}`) and
named (`{x}`) arguments, fill characters other than a space, centring (`^`), `{:b}`, and a
`#` prefix padded with spaces (`{:#8x}`: write `{:#010x}`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from . import types as T

_SPEC = re.compile(r"\{(?::(?:(?P<fill>[^{}])?(?P<align>[<>^]))?(?P<sign>\+)?(?P<alt>#)?"
                   r"(?P<zero>0)?(?P<width>[1-9]\d*)?(?:\.(?P<prec>\d+))?"
                   r"(?P<kind>[xXeEob?])?)?\}")


class FormatError(Exception):
    """A format string oxidec cannot translate: a diagnostic message and an optional help."""

    def __init__(self, message: str, help: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.help = help


@dataclass(frozen=True)
class Spec:
    text: str  # as written: "{:>8.3}"
    align: str | None
    zero: bool
    width: int | None
    precision: int | None
    kind: str  # "", "x", "X", "o", "e", "E" ("?" is read as "")
    sign: bool = False  # `+`: always print the sign
    alt: bool = False  # `#`: the `0x` / `0o` prefix


def parse(fmt: str) -> list[str | Spec]:
    """Literal text and placeholders, in order."""
    out: list[str | Spec] = []
    text, i = [], 0
    while i < len(fmt):
        ch = fmt[i]
        if fmt.startswith("{{", i) or fmt.startswith("}}", i):
            text.append(ch)
            i += 2
            continue
        if ch == "}":
            raise FormatError("invalid format string: unmatched `}` found")
        if ch != "{":
            text.append(ch)
            i += 1
            continue
        m = _SPEC.match(fmt, i)
        if m is None:
            end = fmt.find("}", i)
            inner = fmt[i:end + 1] if end >= 0 else fmt[i:]
            if end < 0:
                raise FormatError("invalid format string: expected `}` but string was "
                                  "terminated", "if you intended to print `{`, you can "
                                  "escape it using `{{`")
            name = inner[1:-1].partition(":")[0]
            if name.isidentifier() or name.isdigit():
                what = "named" if name.isidentifier() else "positional (`{0}`)"
                raise FormatError(f"{what} arguments are not supported in `gpu_printf!`",
                                  f"write `{{}}` in the string and pass `{name}` as the "
                                  "next argument" if name.isidentifier() else
                                  "write `{}` and pass the arguments in order")
            raise FormatError(f"`{inner}` is not supported in `gpu_printf!`",
                              "the placeholders are `{}`, `{:x}`, `{:X}`, `{:o}` and `{:.N}`, "
                              "with an optional width (`{:8.3}`, `{:<6}`, `{:08x}`)")
        if text:
            out.append("".join(text))
            text = []
        kind = m.group("kind") or ""
        spec = Spec(m.group(0), m.group("align"), bool(m.group("zero")),
                    int(m.group("width")) if m.group("width") else None,
                    int(m.group("prec")) if m.group("prec") is not None else None,
                    "" if kind == "?" else kind, bool(m.group("sign")), bool(m.group("alt")))
        _check_supported(spec, m.group("fill"))
        out.append(spec)
        i = m.end()
    if text:
        out.append("".join(text))
    return out


def _check_supported(spec: Spec, fill: str | None) -> None:
    """What C's printf cannot do the way Rust prints it."""
    if fill not in (None, " "):
        raise FormatError(f"the fill character `{fill}` in `{spec.text}` is not supported in "
                          "`gpu_printf!`", "pad with spaces (`{:>8}`) or zeros (`{:08}`)")
    if spec.align == "^":
        raise FormatError(f"centring (`^` in `{spec.text}`) is not supported in `gpu_printf!`",
                          "align left (`<`) or right (`>`)")
    if spec.kind == "b":
        raise FormatError(f"binary (`{spec.text}`) is not supported in `gpu_printf!`",
                          "print it in hex (`{:#x}`) or octal (`{:#o}`)")
    if spec.alt and spec.kind in ("x", "X", "o") and spec.width and not spec.zero:
        raise FormatError(f"a `#` prefix padded with spaces (`{spec.text}`) is not supported "
                          "in `gpu_printf!`", "pad with zeros (`{:#010x}`) or drop the width")


def placeholders(pieces: list[str | Spec]) -> list[Spec]:
    return [p for p in pieces if isinstance(p, Spec)]


def check_spec(spec: Spec, ty: T.Ty) -> str | None:
    """Why `spec` cannot format a value of type `ty` (None when it can)."""
    if isinstance(ty, T.IntTy) and ty.bits == 128:
        return f"`{ty}` cannot be printed by `gpu_printf!` (vprintf has no 128-bit " \
               "conversion): print its halves as `u64`"
    if isinstance(ty, (T.IntTy, T.InferTy)) and not (isinstance(ty, T.InferTy)
                                                      and ty.kind == "float"):
        if spec.kind in ("e", "E"):
            return f"`{spec.text}` formats floats, not `{ty}`"
        if spec.sign and spec.width and isinstance(ty, T.IntTy) and not ty.signed:
            return f"`{spec.text}`: a `+` with a width is not supported for `{ty}` in " \
                   "`gpu_printf!` (drop the width)"
        return None
    if isinstance(ty, T.FloatTy) or (isinstance(ty, T.InferTy) and ty.kind == "float"):
        if spec.kind in ("x", "X", "o"):
            return f"`{spec.text}` formats integers, not `{ty}`"
        return None
    if isinstance(ty, T.BoolTy) or is_pointer(ty):
        if spec.kind or spec.precision is not None or spec.zero or spec.sign:
            return f"`{spec.text}` cannot format a `{ty}`: write `{{}}`"
        return None
    return f"`{ty}` cannot be printed by `gpu_printf!`: print its fields or elements"


def is_pointer(ty: T.Ty) -> bool:
    return isinstance(ty, (T.PtrTy, T.RefTy)) and not isinstance(ty.inner, T.SliceTy)


def c_conversion(spec: Spec, ty: T.Ty) -> str:
    """The C conversion for one placeholder and its (final) argument type."""
    flags = ("-" if spec.align == "<" else "") + ("0" if spec.zero else "")
    width = str(spec.width) if spec.width else ""
    prec = f".{spec.precision}" if spec.precision is not None else ""
    if isinstance(ty, T.IntTy):
        length = "ll" if ty.bits == 64 else ""
        conv = spec.kind or ("d" if ty.signed else "u")
        prefix = ""
        if spec.alt and spec.kind in ("x", "X", "o"):  # Rust's prefix (C's `#` differs)
            prefix = "0o" if spec.kind == "o" else "0x"
            width = str(max(spec.width - 2, 0)) if spec.width else ""
        if spec.sign and conv == "d":
            flags += "+"
        elif spec.sign and conv == "u":  # C ignores `+` on unsigned: Rust prints it
            prefix = "+" + prefix
        return f"{prefix}%{flags}{width}{prec}{length}{conv}"
    if spec.sign:
        flags += "+"
    if isinstance(ty, T.FloatTy):
        conv = spec.kind or ("f" if spec.precision is not None else "g")
        return f"%{flags}{width}{prec}{conv}"
    if isinstance(ty, T.BoolTy):
        return f"%{flags}{width}s"
    return f"%{flags}{width}p"


def c_format(pieces: list[str | Spec], tys: list[T.Ty]) -> str:
    """The C format string of parsed pieces whose placeholders format values of `tys`."""
    out, k = [], 0
    for p in pieces:
        if isinstance(p, Spec):
            out.append(c_conversion(p, tys[k]))
            k += 1
        else:
            out.append(p.replace("%", "%%"))
    return "".join(out)


# ---------------------------------------------------------------------------------------
# The host side: what vprintf prints for a C format and the values (for the simulator)

_C_SPEC = re.compile(r"%(?P<flags>[-0+]*)(?P<width>\d+)?(?:\.(?P<prec>\d+))?(?P<len>ll)?"
                     r"(?P<conv>[duxXofgeEps%])")


def format_c(fmt: str, values) -> str:
    """Apply a C format made by `c_format` to Python values (ints, floats, bools)."""
    it = iter(values)

    def one(m: re.Match) -> str:
        conv = m.group("conv")
        if conv == "%":
            return "%"
        v = next(it)
        flags, width = m.group("flags"), m.group("width") or ""
        prec = f".{m.group('prec')}" if m.group("prec") is not None else ""
        bits = 64 if m.group("len") else 32
        if conv == "s":
            return f"%{flags}{width}s" % ("true" if v else "false")
        if conv == "p":
            return f"%{flags}{width}s" % f"0x{int(v):x}"
        if conv in "du":
            v = int(v) & ((1 << bits) - 1)
            if conv == "d" and v >> (bits - 1):
                v -= 1 << bits
            conv = "d"
        elif conv in "xXo":
            v = int(v) & ((1 << bits) - 1)
        else:
            v = float(v)
        return f"%{flags}{width}{prec}{conv}" % v

    return _C_SPEC.sub(one, fmt)
