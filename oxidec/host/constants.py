"""Constant memory from the host: the values of `#[constant] static NAME: ConstantMemory<T>`.

A program's constant statics start as zero; the host writes them before a launch
(`KernelModule.set_constant("NAME", value)`, `oxidec run --const NAME=1,2,3`). The value is
a NumPy array or scalar (a Python number or list is converted to T's element type) whose
bytes are exactly T's: `[f32; 8]` takes 8 float32, `u32` one uint32, a struct or tuple its
bytes in C layout (a uint8 array of the right size).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import types as T
from ..mir import layout

_DTYPES = {(8, True): "i1", (16, True): "i2", (32, True): "i4", (64, True): "i8",
           (8, False): "u1", (16, False): "u2", (32, False): "u4", (64, False): "u8"}


class ConstantError(ValueError):
    """An unknown constant, or a value that does not fit its type."""


def constant_statics(program: Any) -> dict[str, Any]:
    """The program's constant statics by the name the user wrote (`COEFFS`; also the full
    path `kernels::COEFFS`)."""
    out: dict[str, Any] = {}
    for decl in getattr(program, "statics", []) or []:
        if decl.space == "const":
            out[decl.name] = decl
            out.setdefault(decl.name.rpartition("::")[2], decl)
    return out


def find_constant(program: Any, name: str):
    found = constant_statics(program)
    if name not in found:
        known = ", ".join(sorted(n for n in found if "::" not in n)) or "none"
        raise ConstantError(f"no `#[constant]` static named `{name}` is used by the program's "
                            f"kernels (constants: {known})")
    return found[name]


def element_dtype(ty: T.Ty) -> np.dtype | None:
    """The NumPy type of T's scalars: T itself, or the innermost element of an array."""
    while isinstance(ty, T.ArrayTy):
        ty = ty.elem
    if isinstance(ty, T.FloatTy):  # bf16: its bits (NumPy has no bf16)
        return np.dtype(np.uint16) if ty.brain else np.dtype(f"f{ty.bits // 8}")
    if isinstance(ty, T.BoolTy):
        return np.dtype(np.bool_)
    if isinstance(ty, T.IntTy):
        return np.dtype(_DTYPES[(ty.bits, ty.signed)])
    return None


def encode(value: Any, ty: T.Ty, name: str) -> bytes:
    """The bytes of `value` as a `T`; ConstantError when it has another size."""
    want = layout.size_of(ty)
    dt = element_dtype(ty)
    arr = np.asarray(value)
    if dt is not None and arr.dtype != dt:
        if arr.dtype.kind not in "biuf" or (arr.dtype.kind == "f" and dt.kind in "iu"):
            raise ConstantError(f"constant `{name}` holds `{ty}`, not {arr.dtype} values")
        arr = arr.astype(dt)
    data = np.ascontiguousarray(arr).tobytes()
    if len(data) != want:
        raise ConstantError(f"constant `{name}` is `{ty}` ({want} bytes), but the value has "
                            f"{len(data)} bytes")
    return data


def parse_values(text: str, ty: T.Ty, name: str) -> bytes:
    """`oxidec run --const NAME=TEXT`: comma-separated numbers, or a `.npy` file."""
    if text.endswith(".npy"):
        return encode(np.load(text), ty, name)
    dt = element_dtype(ty)
    if dt is None:
        raise ConstantError(f"constant `{name}` is `{ty}`: give its bytes as a .npy file")
    try:
        values = [float(v) if dt.kind == "f" else int(v, 0) for v in text.split(",")]
    except ValueError:
        raise ConstantError(f"--const {name}: expected comma-separated numbers, got "
                            f"`{text}`") from None
    return encode(np.array(values).astype(dt) if len(values) > 1 or isinstance(ty, T.ArrayTy)
                  else np.array(values[0]).astype(dt), ty, name)
