"""Mutants of the front end's inputs: token and byte mutations of samples/*.rs and tests/ui/*.rs,
and pathological sizes and nesting.

`mutants(rng, n)` yields (label, text) pairs; text is `str` or, for byte mutations that break
UTF-8, `bytes`. Everything is drawn from `rng` (a random.Random), so a seed reproduces a run.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

TOKEN = re.compile(r"""\s+|//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])'|'\w+
                   |0x[0-9a-fA-F_]+\w*|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?\w*|\w+
                   |::|->|=>|\.\.=|\.\.|&&|\|\||[<>=!+\-*/%^&|]=|<<=?|>>=?|.""",
                   re.S | re.X)

EXTRA_TOKENS = [
    "fn", "let", "mut", "if", "else", "for", "while", "loop", "match", "return", "break",
    "continue", "struct", "enum", "impl", "trait", "mod", "use", "pub", "unsafe", "const",
    "static", "as", "in", "ref", "move", "where", "type", "self", "Self", "super", "crate",
    "{", "}", "(", ")", "[", "]", "<", ">", ";", ",", ".", "..", "..=", "::", "->", "=>", "#",
    "!", "?", "&", "&&", "|", "||", "*", "@", "'a", "_", "=", "+=", "<<", ">>",
    "0", "1", "-1", "255u8", "256u8", "1e400", "0x", "0b2", "1.0f32", "1f64", "0xffu8",
    "18446744073709551616", "340282366920938463463374607431768211456u128", "9" * 5000,
    "\"s\"", "'c'", "b'x'", "#[kernel]", "#[device]", "#[kernal]", "#[unroll(0)]",
    "#[launch_bounds(0, 0)]", "thread::index_1d()", "DisjointSlice<f32>", "SharedArray<f32, 65536>",
    "f32", "u64", "i128", "usize", "bool", "[f32; 1000000]", "*mut f32", "&mut [u32]",
    "sync_threads()", "gpu_printf!(\"{}\", 1)", "\u00e9", "\u202e", "\x00", "\t",
]

CORPUS_GLOBS = ("samples/*.rs", "tests/ui/*.rs")


def corpus() -> list[tuple[str, str]]:
    out = []
    for pattern in CORPUS_GLOBS:
        for p in sorted(ROOT.glob(pattern)):
            out.append((str(p.relative_to(ROOT)), p.read_text(errors="replace")))
    return out


def tokens(text: str) -> list[str]:
    return TOKEN.findall(text)


def token_mutation(rng: random.Random, text: str, pool: list[str]) -> str:
    toks = tokens(text)
    if not toks:
        return text
    for _ in range(rng.choice([1, 1, 1, 2, 3, 8])):
        i = rng.randrange(len(toks))
        op = rng.randrange(6)
        if op == 0 and len(toks) > 1:
            del toks[i]
        elif op == 1:
            toks.insert(i, toks[i])
        elif op == 2 and i + 1 < len(toks):
            toks[i], toks[i + 1] = toks[i + 1], toks[i]
        elif op == 3:
            toks[i] = rng.choice(pool)
        elif op == 4:
            toks.insert(i, rng.choice(pool))
        else:  # move a span of tokens elsewhere
            j = min(len(toks), i + rng.randint(1, 20))
            span = toks[i:j]
            del toks[i:j]
            k = rng.randrange(len(toks) + 1)
            toks[k:k] = span
    return "".join(toks)


def byte_mutation(rng: random.Random, text: str) -> bytes:
    data = bytearray(text.encode())
    if not data:
        return bytes(data)
    for _ in range(rng.choice([1, 1, 2, 4])):
        if not data:
            data = bytearray(b"x")
        i = rng.randrange(len(data))
        op = rng.randrange(5)
        if op == 0:
            data[i] ^= 1 << rng.randrange(8)
        elif op == 1:
            data[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
        elif op == 2:
            del data[i:i + rng.randint(1, 16)]
        elif op == 3:
            data = data[:i]
            if not data:
                data = bytearray(b"x")
        else:
            data[i] = rng.choice(b"{}()[];,<>\"'#!/*\\\x00\xff\xc3")
    return bytes(data)


KERNEL = """use cuda_device::{kernel, thread, DisjointSlice};
#[kernel]
pub fn k(x: &[u32], mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let a = x[i];
    BODY
    if let Some(o) = out.get_mut(idx) { *o = a; }
}
"""


SIZES = (50, 300, 600, 1500)


def pathological(rng: random.Random, sizes=SIZES) -> tuple[str, str]:
    """Deep nesting and large sizes (issue 15 lists the limits rustc has and oxidec had)."""
    kind = rng.randrange(8)
    n = rng.choice(sizes)
    if kind == 0:
        return f"blocks{n}", KERNEL.replace("BODY", "let _b = " + "{" * n + "1" + "}" * n + ";")
    if kind == 1:
        return f"sum{n}", KERNEL.replace("BODY", "let _s = " + " + ".join(["a"] * n) + ";")
    if kind == 2:
        chain = "if a == 0 { 0 }" + "".join(f" else if a == {i} {{ {i} }}" for i in range(1, n))
        return f"elseif{n}", KERNEL.replace("BODY", f"let _e = {chain} else {{ 1 }};")
    if kind == 3:
        return f"parens{n}", KERNEL.replace("BODY", "let _p = " + "(" * n + "a" + ")" * n + ";")
    if kind == 4:
        digits = rng.choice([4301, 5000, 20000])
        return f"digits{digits}", KERNEL.replace("BODY", f"let _d = {'7' * digits};")
    if kind == 5:
        return f"unary{n}", KERNEL.replace("BODY", "let _u = " + "!" * n + "a;")
    if kind == 6:
        return f"index{n}", KERNEL.replace("BODY", "let _i = " + "[" * n + "a" + "]" * n + ";")
    return f"unclosed{n}", KERNEL.replace("BODY", "{" * n)


def mutants(rng: random.Random, n: int, sizes=SIZES):
    files = corpus()
    pool = list(EXTRA_TOKENS)
    for _, text in files[:40]:
        pool += [t for t in tokens(text) if t.strip()][:200]
    for k in range(n):
        name, text = rng.choice(files)
        r = rng.random()
        if r < 0.6:
            yield f"tok:{name}", token_mutation(rng, text, pool)
        elif r < 0.9:
            yield f"byte:{name}", byte_mutation(rng, text)
        else:
            label, text = pathological(rng, sizes)
            yield f"path:{label}", text
