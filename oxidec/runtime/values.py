"""Host values of aggregate kernel parameters (enums and `#[derive(Clone, Copy)]` structs passed
by value), encoded in the one layout of mir/layout.py.

How a user passes one (`kernel[grid, block](..)`, the simulator and `oxidec run --arg`):

    enum Act { Relu, Leaky(f32), Clamp { lo: f32, hi: f32 } }
    "Relu"                           a unit variant: its name
    ("Leaky", 0.1)                   a tuple variant: its name, then its fields
    ("Clamp", {"lo": 0, "hi": 6})    a struct variant: its name and a dict of its fields
    struct P { x: f32, y: u32 }: {"x": 1.5, "y": 2} or (1.5, 2); a tuple type: a tuple
On the command line the same in Rust syntax: `--arg act=Act::Leaky(0.1)`,
`--arg act=Clamp{lo:0,hi:6}`, `--arg act=Relu`.
"""
from __future__ import annotations

import re
import struct
from typing import Any

from .. import types as T
from ..half_float import half_bits
from ..mir import layout
from .errors import LaunchError

_FORMATS = {(8, True): "b", (16, True): "h", (32, True): "i", (64, True): "q",
            (8, False): "B", (16, False): "H", (32, False): "I", (64, False): "Q"}


def is_aggregate(ty: T.Ty) -> bool:
    return isinstance(ty, (T.EnumTy, T.StructTy, T.TupleTy, T.ArrayTy))


def encode(ty: T.Ty, value: Any, what: str) -> bytes:
    buf = bytearray(layout.size_of(ty))
    _put(buf, 0, ty, value, what)
    return bytes(buf)


def _put(buf: bytearray, off: int, ty: T.Ty, value: Any, what: str) -> None:
    if isinstance(ty, T.BoolTy):
        buf[off] = 1 if bool(value) else 0
    elif isinstance(ty, T.IntTy):
        if isinstance(value, bool) or not isinstance(value, int) and not hasattr(value, "__index__"):
            raise LaunchError(f"{what}: expected an integer ({ty}), got {value!r}")
        lo, hi = T.int_range(ty)
        if not lo <= int(value) <= hi:
            raise LaunchError(f"{what}: {int(value)} is out of range for {ty}")
        struct.pack_into("<" + _FORMATS[(ty.bits, ty.signed)], buf, off, int(value))
    elif isinstance(ty, T.FloatTy):
        if not isinstance(value, (int, float)) and not hasattr(value, "__float__"):
            raise LaunchError(f"{what}: expected a number ({ty}), got {value!r}")
        if ty.bits == 16:
            struct.pack_into("<H", buf, off, half_bits(float(value), ty))
        else:
            struct.pack_into("<f" if ty.bits == 32 else "<d", buf, off, float(value))
    elif isinstance(ty, T.EnumTy):
        _put_enum(buf, off, ty, value, what)
    elif isinstance(ty, (T.StructTy, T.TupleTy, T.ArrayTy)):
        names = [n for n, _ in ty.fields] if isinstance(ty, T.StructTy) else None
        ftys = list(layout.fields_of(ty)) if not isinstance(ty, T.ArrayTy) else \
            [ty.elem] * ty.length
        offs = list(layout.field_offsets(ty)) if not isinstance(ty, T.ArrayTy) else \
            [i * layout.size_of(ty.elem) for i in range(ty.length)]
        if T.uniform_inner(ty) is not None and not isinstance(value, (tuple, list, dict)):
            value = (value,)  # `Uniform<T>` is #[repr(transparent)]: the bare value
        values = _field_values(value, names, len(ftys), f"{what} (`{ty}`)")
        for v, t, o, i in zip(values, ftys, offs, range(len(ftys))):
            _put(buf, off + o, t, v, f"{what}.{names[i] if names else i}")
    else:
        raise LaunchError(f"{what}: values of type `{ty}` cannot be passed from the host")


def _field_values(value, names, n: int, what: str) -> list:
    if isinstance(value, dict):
        if names is None or set(value) != set(names):
            raise LaunchError(f"{what}: expected the fields {names}, got {sorted(value)}")
        return [value[k] for k in names]
    if not isinstance(value, (tuple, list)) or len(value) != n:
        raise LaunchError(f"{what}: expected {n} field value{'s' if n != 1 else ''}, got "
                          f"{value!r}")
    return list(value)


def _put_enum(buf: bytearray, off: int, ty: T.EnumTy, value: Any, what: str) -> None:
    name, fields = (value, ()) if isinstance(value, str) else \
        (value[0], tuple(value[1:])) if isinstance(value, tuple) and value and \
        isinstance(value[0], str) else (None, ())
    if name is None:
        raise LaunchError(f"{what}: expected a variant of `{ty}` (a name, or a tuple of a name "
                          f"and its fields), got {value!r}")
    v = ty.variant_index(name.rsplit("::", 1)[-1])
    if v is None:
        raise LaunchError(f"{what}: `{ty}` has no variant `{name}` (variants: "
                          + ", ".join(x.name for x in ty.variants) + ")")
    var = ty.variants[v]
    if var.kind == "struct" and len(fields) == 1 and isinstance(fields[0], dict):
        fields = fields[0]
    names = [n for n, _ in var.fields] if var.kind == "struct" else None
    values = _field_values(fields, names, len(var.fields), f"{what} (`{ty}::{var.name}`)") \
        if var.fields else []
    if not var.fields and fields:
        raise LaunchError(f"{what}: `{ty}::{var.name}` has no fields")
    offs = layout.field_offsets(ty)
    _put(buf, off + offs[0], ty.tag, bool(ty.discrs[v]) if isinstance(ty.tag, T.BoolTy)
         else ty.discrs[v], what)
    for slot, val, (fname, fty) in zip(layout.variant_slots(ty, v), values, var.fields):
        _put(buf, off + offs[slot], fty, val, f"{what}.{fname}")


def parse_rust_value(text: str) -> Any:
    """`Act::Leaky(0.1)`, `Clamp{lo:0,hi:6}`, `Relu`, `(1, 2.5)`: the Python form above."""
    tokens = re.findall(r"[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*|-?[0-9][0-9_.eE+-]*"
                        r"(?:f32|f64|[iu](?:8|16|32|64|size))?|[(){}:,]", text)
    pos = 0

    def peek():
        return tokens[pos] if pos < len(tokens) else ""

    def take():
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def value():
        t = take()
        if t == "(":
            items = []
            while peek() != ")":
                items.append(value())
                if peek() == ",":
                    take()
            take()
            return tuple(items)
        if t[0].isalpha() or t[0] == "_":
            if t in ("true", "false"):
                return t == "true"
            name = t.rsplit("::", 1)[-1]
            if peek() == "(":
                return (name, *value())
            if peek() == "{":
                take()
                fields = {}
                while peek() != "}":
                    k = take()
                    take()  # ':'
                    fields[k] = value()
                    if peek() == ",":
                        take()
                take()
                return (name, fields)
            return name
        num = re.sub(r"(f32|f64|[iu](8|16|32|64|size))$", "", t).replace("_", "")
        return float(num) if any(c in num for c in ".eE") else int(num)

    return value()
