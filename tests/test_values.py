"""Enum and struct kernel parameters on the host side: the bytes of runtime/values.py follow
mir/layout.py (tag, then every variant's fields), and `--arg` parses them in Rust syntax."""
from __future__ import annotations

import struct

import pytest

from oxidec import types as T
from oxidec.mir import layout
from oxidec.runtime import values
from oxidec.runtime.errors import LaunchError

ACT = T.EnumTy("Act", (T.VariantDef("Relu", "unit"),
                       T.VariantDef("Leaky", "tuple", (("0", T.F32),)),
                       T.VariantDef("Clamp", "struct", (("lo", T.F32), ("hi", T.F64)))),
               (0, 1, 2), T.U8, True)


def test_layout_is_tag_then_every_variant():
    assert layout.fields_of(ACT) == (T.U8, T.F32, T.F32, T.F64)
    assert layout.field_offsets(ACT) == (0, 4, 8, 16)
    assert layout.size_of(ACT) == 24 and layout.align_of(ACT) == 8
    assert layout.field_slot(ACT, 1, 2) == 3
    opt = T.option_ty(T.RefTy(T.F32, True))
    assert layout.fields_of(opt) == (T.BOOL, T.RefTy(T.F32, True))
    assert layout.size_of(opt) == 16


def test_encode_variants():
    raw = values.encode(ACT, ("Clamp", {"lo": -0.5, "hi": 2.25}), "act")
    assert raw[0] == 2
    assert struct.unpack_from("<f", raw, 8)[0] == -0.5
    assert struct.unpack_from("<d", raw, 16)[0] == 2.25
    raw = values.encode(ACT, ("Leaky", 0.125), "act")
    assert raw[0] == 1 and struct.unpack_from("<f", raw, 4)[0] == 0.125
    assert values.encode(ACT, "Relu", "act")[0] == 0


@pytest.mark.parametrize("bad, message", [
    ("Sigmoid", "has no variant `Sigmoid`"),
    (("Leaky",), "expected 1 field value"),
    (("Relu", 1.0), "has no fields"),
    (3, "expected a variant of `Act`"),
])
def test_encode_errors(bad, message):
    with pytest.raises(LaunchError, match=message):
        values.encode(ACT, bad, "argument `act`")


def test_parse_rust_value():
    assert values.parse_rust_value("Act::Leaky(0.5)") == ("Leaky", 0.5)
    assert values.parse_rust_value("Clamp { lo: -1, hi: 2.5f64 }") == \
        ("Clamp", {"lo": -1, "hi": 2.5})
    assert values.parse_rust_value("Relu") == "Relu"
    assert values.parse_rust_value("(1, 2.5, true)") == (1, 2.5, True)
