"""Float literals are rounded once, from their exact decimal value, to the type they get
(suffix or inference), and the scalar types' associated constants are rustc's: checked
against an exact rational reference and against rustc itself."""
from __future__ import annotations

import math
import shutil
import subprocess
from fractions import Fraction

import numpy as np
import pytest

from oxidec import api, types as T
from oxidec.syntax.literals import Decimal


def nearest(fr: Fraction, dt) -> float:
    """The float of dtype dt nearest fr (ties to even), by brute force around float(fr)."""
    fi = np.finfo(dt)
    if abs(fr) >= Fraction(float(fi.max)) + Fraction(2) ** (fi.maxexp - fi.nmant - 2):
        return math.inf if fr > 0 else -math.inf
    with np.errstate(all="ignore"):
        x = dt(float(fr))
    best = None
    with np.errstate(all="ignore"):
        around = (np.nextafter(x, dt(-np.inf)), x, np.nextafter(x, dt(np.inf)))
    for y in around:
        if not np.isfinite(y):
            continue
        key = (abs(Fraction(float(y)) - fr),
               int(np.array(y).view(np.uint32 if dt == np.float32 else np.uint64)) & 1)
        if best is None or key < best[0]:
            best = (key, float(y))
    return best[1]


def test_decimal_rounds_once(rng) -> None:
    texts = ["384728.953125000000727595761418342590332031", "0.1", "3.4028235e38",
             "3.40282356779733661637539395458142568448e38", "1e-45", "7.006492321624085e-46",
             "7.006492321624086e-46", "1.17549435e-38", "2.4703282292062327208828e-324",
             "2.4703282292062328e-324", "1.7976931348623158e308", "1e-400", "1e400", "0.0"]
    for _ in range(3000):
        whole = int(rng.integers(0, 10 ** int(rng.integers(1, 18))))
        frac = int(rng.integers(0, 10 ** int(rng.integers(1, 18))))
        texts.append(f"{whole}.{frac}e{int(rng.integers(-60, 45))}")
    # exact f32 midpoints, and numbers a hair above and below them
    import decimal
    ctx = decimal.Context(prec=400)
    for _ in range(300):
        m = int(rng.integers(1 << 23, 1 << 24))
        e = int(rng.integers(-40, 40))
        mid = Fraction(2 * m + 1) * Fraction(2) ** (e - 1)
        exact = ctx.divide(decimal.Decimal(mid.numerator), decimal.Decimal(mid.denominator))
        hair = decimal.Decimal(1).scaleb(exact.adjusted() - 60)
        texts += [f"{exact:e}", f"{ctx.add(exact, hair):e}", f"{ctx.subtract(exact, hair):e}"]
    for text in texts:
        d = Decimal.parse(text)
        fr = Fraction(text)
        assert d.to_f32() == nearest(fr, np.float32), text
        assert float(d) == float(text), text  # Python's float() is correctly rounded


def test_huge_literals_stay_cheap() -> None:
    assert float(Decimal.parse("1" * 5000)) == math.inf
    assert Decimal.parse("0." + "0" * 100000 + "1").to_f32() == 0.0
    assert float(Decimal.parse("1" + "0" * 6000 + "e-6000")) == 1.0
    # a sticky digit: 1 + 2^-24 (the f32 midpoint) plus a far nonzero digit rounds up
    mid = "1.000000059604644775390625"
    assert Decimal.parse(mid).to_f32() == 1.0
    assert Decimal.parse(mid + "0" * 2000 + "1").to_f32() == float(np.nextafter(
        np.float32(1), np.float32(2)))


SRC = """
#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    let t = thread::index_1d();
    let a = 384728.953125000000727595761418342590332031f32;
    let b: f32 = 384728.953125000000727595761418342590332031;
    let c = 384728.953125000000727595761418342590332031 * 1.0f32;
    let d = 16777217.000000000000000000001f32;
    let v = [a.to_bits(), b.to_bits(), c.to_bits(), d.to_bits()];
    let i = t.get();
    if let Some(o) = out.get_mut(t) { *o = v[i % 4]; }
}
"""


def test_f32_literal_rounded_once() -> None:
    module = api.compile_source(SRC, "lit.rs")
    out = np.zeros(4, np.uint32)
    module.k[(1, 1, 1), (4, 1, 1)](out, device="sim")
    assert [hex(v) for v in out] == ["0x48bbdb1f"] * 3 + ["0x4b800001"]


FLOAT_ASSOC = ["EPSILON", "MIN", "MAX", "MIN_POSITIVE", "INFINITY", "NEG_INFINITY", "NAN"]
FLOAT_INT = list(T.FLOAT_INT_CONSTS)
INT_ASSOC = ["MIN", "MAX", "BITS"]
INTS = ["i8", "i16", "i32", "i64", "isize", "u8", "u16", "u32", "u64", "usize"]


def const_exprs() -> list[str]:
    """Rust expressions giving the bits of each constant, as u64."""
    out = []
    for f in ("f32", "f64"):
        out += [f"{f}::{c}.to_bits() as u64" for c in FLOAT_ASSOC]
        out += [f"{f}::{c} as u64" for c in FLOAT_INT]
        out += [f"core::{f}::consts::{c}.to_bits() as u64" for c in T.FLOAT_CONSTS]
    for i in INTS:
        out += [f"{i}::{c} as u64" for c in INT_ASSOC]
    return out


def test_assoc_consts_match_rustc(tmp_path) -> None:
    rustc = shutil.which("rustc")
    if rustc is None:
        pytest.skip("rustc not found")
    exprs = const_exprs()
    src = tmp_path / "consts.rs"
    src.write_text("fn main() {\n" + "".join(f'    println!("{{}}", {e});\n' for e in exprs)
                   + "}\n")
    exe = tmp_path / "consts"
    subprocess.run([rustc, str(src), "-o", str(exe)], check=True, capture_output=True)
    want = [int(v) for v in subprocess.run([str(exe)], check=True, capture_output=True,
                                           text=True).stdout.split()]
    body = "\n".join(f"    if i == {n} {{ v = {e}; }}" for n, e in enumerate(exprs))
    kernel = f"""
#[kernel]
pub fn k(mut out: DisjointSlice<u64>) {{
    let t = thread::index_1d();
    let i = t.get();
    let mut v = 0u64;
{body}
    if let Some(o) = out.get_mut(t) {{ *o = v; }}
}}
"""
    module = api.compile_source(kernel, "consts.rs")
    out = np.zeros(len(exprs), np.uint64)
    module.k[(1, 1, 1), (len(exprs), 1, 1)](out, device="sim")
    got = [int(v) for v in out]
    bad = [(e, hex(g), hex(w)) for e, g, w in zip(exprs, got, want) if g != w]
    assert not bad
