"""A random-program generator for differential testing, in the spirit of Csmith and rustlantis.

`generate(seed)` builds one kernel program as a tree of `Node`s (so that the reducer can drop
statements and simplify expressions) plus its input words. Every program is valid Rust that
rustc (release semantics: `-C overflow-checks=off`) accepts and that never panics: indices are
reduced mod the array length, divisions are guarded against zero and MIN / -1, shift amounts
are masked, loops have bounded trip counts. The kernel is

    pub fn k0(inp: &[u64], mut out: DisjointSlice<u64>)

launched as one block of `OUTPUTS` threads: every thread computes the same `res` array, thread
t writes `res[t]`. Floats are output through `to_bits`, with NaN made canonical (Rust does not
fix NaN payloads, and x86 and PTX produce different ones).

The generator stays inside what oxidec compiles today (`#[device]` helpers taking values,
references used only as `*r` / `r.f` in the function that makes them, the integer and float
methods of oxidec/device_api.py); it grows with the language.

`Features` turns constructs on and off. `eval_order` covers Rust's evaluation-order rules that
oxidec got wrong (issue 15): operands with side effects (`v + { v = e; v }`), range bounds and
`step_by` amounts changed inside the loop, `for e in arr` with `arr` changed inside the loop.
"""
from __future__ import annotations

import random
import struct
from dataclasses import dataclass, field
from typing import Iterator

OUTPUTS = 16      # res[] slots = threads launched = output words
INPUTS = 8        # input words

INT_TYPES = ["i8", "i16", "i32", "i64", "isize", "u8", "u16", "u32", "u64", "usize"]
FLOAT_TYPES = ["f32", "f64"]
SCALARS = INT_TYPES + FLOAT_TYPES + ["bool"]
BITS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64, "isize": 64, "u8": 8, "u16": 16, "u32": 32,
        "u64": 64, "usize": 64}


def is_int(t: str) -> bool:
    return t in BITS


def is_signed(t: str) -> bool:
    return t.startswith("i")


# --------------------------------------------------------------------------------------------
# the tree


@dataclass
class Node:
    """A piece of program text: `parts` are strings and child nodes, concatenated.

    kind: "expr" (ty = its type), "stmt" (removable when `removable`), "block" (parts are
    statements, rendered one per line inside braces).
    """
    kind: str
    parts: list
    ty: str | None = None
    removable: bool = True

    def render(self, indent: int = 0) -> str:
        if self.kind == "block":
            pad = "    " * (indent + 1)
            inner = "".join(pad + s.render(indent + 1) + "\n" for s in self.parts)
            return "{\n" + inner + "    " * indent + "}"
        out = []
        for p in self.parts:
            out.append(p if isinstance(p, str) else p.render(indent))
        return "".join(out)

    def walk(self) -> Iterator["Node"]:
        yield self
        for p in self.parts:
            if isinstance(p, Node):
                yield from p.walk()


def E(ty: str, *parts) -> Node:
    return Node("expr", list(parts), ty)


def S(*parts, removable: bool = True) -> Node:
    return Node("stmt", list(parts), removable=removable)


def B(stmts: list[Node]) -> Node:
    return Node("block", stmts)


@dataclass
class Program:
    seed: int
    items: list[Node]          # structs and helper fns, then the kernel
    inputs: list[int]          # INPUTS u64 words

    def source(self) -> str:
        head = ("use cuda_device::{cuda_module, device, kernel, thread, DisjointSlice};\n\n"
                f"// oracle program, seed {self.seed}\n"
                # known overflows in wrapping contexts are the point: rustc allows the lint too
                "#[cuda_module]\n#[allow(arithmetic_overflow)]\nmod kernels {\n"
                "    use super::*;\n\n")
        body = "\n\n".join("    " + it.render(1) for it in self.items)
        return head + body + "\n}\n"


@dataclass
class Features:
    loops: bool = True
    structs: bool = True
    arrays: bool = True
    refs: bool = True
    helpers: bool = True
    floats: bool = True
    eval_order: bool = True


# --------------------------------------------------------------------------------------------
# literals and inputs


def int_literal(rng: random.Random, ty: str) -> str:
    bits = BITS[ty]
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if is_signed(ty) else (0, (1 << bits) - 1)
    r = rng.random()
    if r < 0.35:
        v = rng.randint(-4 if is_signed(ty) else 0, 16)
    elif r < 0.5:
        return rng.choice([f"{ty}::MAX", f"{ty}::MIN"])
    elif r < 0.6:
        v = rng.choice([hi, lo + 1 if is_signed(ty) else 1, hi - 1, 1 << (bits - 2)])
    else:
        v = rng.randint(lo + 1, hi)
    if v == lo and is_signed(ty):
        return f"{ty}::MIN"
    if v < 0:
        return f"-{-v}{ty}"
    if rng.random() < 0.2 and v > 9:
        return f"{v:#x}{ty}"
    return f"{v}{ty}"


def float_text(value: float, ty: str) -> str:
    import numpy as np
    if value != value:
        return f"{ty}::NAN"
    if value in (float("inf"), float("-inf")):
        return f"{ty}::INFINITY" if value > 0 else f"{ty}::NEG_INFINITY"
    text = str(np.float32(value)) if ty == "f32" else repr(float(value))
    if "e" not in text and "." not in text:
        text += ".0"
    if text.startswith("-"):
        return f"-{text[1:]}{ty}"
    return f"{text}{ty}"


def float_literal(rng: random.Random, ty: str) -> str:
    r = rng.random()
    if r < 0.4:
        v = rng.choice([0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, 0.1, 1e10, -7.25, 1e-3, 65536.0])
    elif r < 0.5:
        v = rng.choice([float("inf"), float("-inf"), float("nan")])
    elif r < 0.6:
        v = rng.choice([1e-40, 3.4e38, 1e-310, 1.7e308, 2.0 ** 63, 2.0 ** 31, -2.0 ** 63])
        if ty == "f32" and abs(v) > 3.4e38:
            v = 3.4e38
    else:
        v = rng.uniform(-1, 1) * 10.0 ** rng.randint(-8, 12)
    return float_text(v, ty)


def literal(rng: random.Random, ty: str) -> Node:
    if ty == "bool":
        return E(ty, rng.choice(["true", "false"]))
    if is_int(ty):
        return E(ty, int_literal(rng, ty))
    return E(ty, float_literal(rng, ty))


SPECIAL_WORDS = [0, 1, 2, 0xFF, 0x80, 0x7F, 0xFFFF, 0x8000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF,
                 (1 << 63), (1 << 63) - 1, (1 << 64) - 1, (1 << 64) - 2]


def float_words(rng: random.Random) -> int:
    """A word that is an interesting f64 or (low half) f32."""
    f64 = rng.choice([1.0, -0.0, 0.5, -2.5, 1e300, 5e-324, float("inf"), float("nan"), 1e19,
                      -9.3e18, 4294967296.5, 255.5, -1.5, rng.uniform(-1e6, 1e6),
                      rng.uniform(-1, 1) * 10.0 ** rng.randint(-40, 40)])
    if rng.random() < 0.5:
        return struct.unpack("<Q", struct.pack("<d", f64))[0]
    f32 = struct.unpack("<I", struct.pack("<f", max(-3e38, min(3e38, f64))
                                          if f64 == f64 else f64))[0]
    return (rng.getrandbits(32) << 32) | f32


def make_inputs(rng: random.Random) -> list[int]:
    words = []
    for _ in range(INPUTS):
        r = rng.random()
        if r < 0.3:
            words.append(rng.choice(SPECIAL_WORDS))
        elif r < 0.45:
            words.append(rng.randint(0, 40))
        elif r < 0.7:
            words.append(float_words(rng))
        else:
            words.append(rng.getrandbits(64))
    return words


# --------------------------------------------------------------------------------------------
# scopes


@dataclass
class Var:
    name: str
    ty: str                 # a scalar, "S<k>" (struct) or "[T; N]"
    mutable: bool
    frozen: bool = False    # borrowed right now, or a loop bound/counter: not assigned


@dataclass
class Scope:
    vars: list[Var] = field(default_factory=list)


@dataclass
class StructDef:
    name: str
    fields: list[tuple[str, str]]


@dataclass
class Helper:
    name: str
    params: list[tuple[str, str]]
    ret: str


class Gen:
    def __init__(self, seed: int, features: Features | None = None):
        self.seed = seed
        self.rng = random.Random(seed)
        self.f = features or Features()
        self.scopes: list[Scope] = []
        self.counter = 0
        self.structs: list[StructDef] = []
        self.helpers: list[Helper] = []
        self.loop_depth = 0
        self.stmt_budget = 0
        self.in_kernel = False
        self.hidden: set[str] = set()   # names that may not be read (mutably borrowed)

    # names and scopes -------------------------------------------------------------------

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def all_vars(self) -> list[Var]:
        seen, out = set(), []
        for sc in reversed(self.scopes):
            for v in reversed(sc.vars):
                if v.name not in seen:
                    seen.add(v.name)
                    if v.name not in self.hidden:
                        out.append(v)
        return out

    def scalars_of(self, ty: str) -> list[Var]:
        return [v for v in self.all_vars() if v.ty == ty]

    def assignable(self, ty: str | None = None) -> list[Var]:
        return [v for v in self.all_vars() if v.mutable and not v.frozen
                and (ty is None or v.ty == ty) and v.ty in SCALARS]

    def scalar_types(self) -> list[str]:
        return SCALARS if self.f.floats else INT_TYPES + ["bool"]

    def pick_type(self) -> str:
        r = self.rng.random()
        if r < 0.7:
            return self.rng.choice(INT_TYPES)
        if r < 0.85 and self.f.floats:
            return self.rng.choice(FLOAT_TYPES)
        return "bool" if r > 0.9 else self.rng.choice(INT_TYPES)

    # expressions -------------------------------------------------------------------------

    def expr(self, ty: str, depth: int) -> Node:
        rng = self.rng
        if depth <= 0 or rng.random() < 0.25:
            return self.leaf(ty)
        if ty == "bool":
            return self.bool_expr(depth)
        choices = [(self.cast, 2), (self.binary, 5), (self.unary, 1), (self.if_expr, 1),
                   (self.method, 2)]
        if self.f.helpers and any(h.ret == ty for h in self.helpers):
            choices.append((self.call, 2))
        if self.f.structs:
            choices.append((self.field_read, 1))
        if self.f.arrays:
            choices.append((self.elem_read, 1))
        if self.f.eval_order and self.assignable(ty):
            choices.append((self.effect_block, 1))
        fn = weighted(rng, choices)
        node = fn(ty, depth - 1)
        return node if node is not None else self.leaf(ty)

    def leaf(self, ty: str) -> Node:
        vs = self.scalars_of(ty)
        if vs and self.rng.random() < 0.7:
            return E(ty, self.rng.choice(vs).name)
        return literal(self.rng, ty)

    def operand(self, ty: str, depth: int) -> Node:
        """An expression wrapped in parentheses (so that `as`, methods and ops bind right)."""
        e = self.expr(ty, depth)
        return E(ty, "(", e, ")")

    def cast(self, ty: str, depth: int) -> Node | None:
        if ty == "bool":
            return None
        src = self.rng.choice(self.scalar_types())
        if src == "bool" and not is_int(ty):  # Rust: bool casts only to integers
            src = "u8"
        return E(ty, "(", self.operand(src, depth), f" as {ty})")

    def binary(self, ty: str, depth: int) -> Node:
        rng = self.rng
        a, b = self.operand(ty, depth), self.operand(ty, depth)
        if ty in FLOAT_TYPES:
            op = rng.choice(["+", "-", "*", "/", "%"])
            return E(ty, "(", a, f" {op} ", b, ")")
        kind = rng.random()
        if kind < 0.45:
            op = rng.choice(["+", "-", "*", "&", "|", "^"])
            return E(ty, "(", a, f" {op} ", b, ")")
        if kind < 0.6:
            m = rng.choice(["wrapping_add", "wrapping_sub", "wrapping_mul"])
            return E(ty, a, f".{m}(", b, ")")
        if kind < 0.8:
            op = rng.choice(["<<", ">>"])
            sty = rng.choice(INT_TYPES)
            amount = E(sty, "(", self.operand(sty, depth), f" & {BITS[ty] - 1})")
            return E(ty, "(", a, f" {op} ", amount, ")")
        return self.division(ty, depth)

    def division(self, ty: str, depth: int) -> Node:
        op = self.rng.choice(["/", "%"])
        if not is_signed(ty):
            b = self.operand(ty, depth)
            return E(ty, "(", self.operand(ty, depth), f" {op} (", b, " | 1))")
        # guard with simple operands: the guard reads them twice
        a, b = self.leaf(ty), self.leaf(ty)
        return E(ty, "(if ", b, " == 0 || (", a, f" == {ty}::MIN && ", b, " == -1) { ",
                 self.leaf(ty), " } else { ", a, f" {op} ", b, " })")

    def unary(self, ty: str, depth: int) -> Node:
        if ty in FLOAT_TYPES or is_signed(ty) and self.rng.random() < 0.5:
            return E(ty, "(-", self.operand(ty, depth), ")")
        return E(ty, "(!", self.operand(ty, depth), ")")

    def if_expr(self, ty: str, depth: int) -> Node:
        return E(ty, "(if ", self.expr("bool", depth), " { ", self.expr(ty, depth), " } else { ",
                 self.expr(ty, depth), " })")

    def method(self, ty: str, depth: int) -> Node:
        rng = self.rng
        if ty in FLOAT_TYPES:
            m = rng.choice(["sqrt", "abs", "floor", "ceil", "round", "trunc", "mul_add"])
            if m == "mul_add":
                return E(ty, self.operand(ty, depth), ".mul_add(", self.expr(ty, depth), ", ",
                         self.expr(ty, depth), ")")
            return E(ty, self.operand(ty, depth), f".{m}()")
        if ty == "u32" and rng.random() < 0.4:
            src = rng.choice(INT_TYPES)
            m = rng.choice(["count_ones", "leading_zeros", "trailing_zeros"])
            return E(ty, self.operand(src, depth), f".{m}()")
        m = rng.choice(["min", "max"] + (["abs"] if is_signed(ty) else []))
        if m == "abs":
            return E(ty, self.operand(ty, depth), ".abs()")
        return E(ty, self.operand(ty, depth), f".{m}(", self.expr(ty, depth), ")")

    def bool_expr(self, depth: int) -> Node:
        rng = self.rng
        r = rng.random()
        if r < 0.55:
            t = rng.choice(self.scalar_types()[:-1])
            op = rng.choice(["<", "<=", ">", ">=", "==", "!="])
            return E("bool", "(", self.operand(t, depth), f" {op} ", self.operand(t, depth), ")")
        if r < 0.75:
            op = rng.choice(["&&", "||", "^", "&", "|"])
            return E("bool", "(", self.operand("bool", depth), f" {op} ",
                     self.operand("bool", depth), ")")
        if r < 0.85:
            return E("bool", "(!", self.operand("bool", depth), ")")
        if r < 0.92 and self.f.floats:
            t = rng.choice(FLOAT_TYPES)
            return E("bool", self.operand(t, depth), ".is_nan()")
        return self.if_expr("bool", depth)

    def call(self, ty: str, depth: int) -> Node | None:
        hs = [h for h in self.helpers if h.ret == ty]
        if not hs:
            return None
        h = self.rng.choice(hs)
        parts: list = [f"{h.name}("]
        for i, (_, pty) in enumerate(h.params):
            if i:
                parts.append(", ")
            parts.append(self.arg(pty, depth))
        parts.append(")")
        return E(ty, *parts)

    def arg(self, pty: str, depth: int) -> Node:
        if pty.startswith("S"):
            vs = self.scalars_of(pty)
            if vs:
                return E(pty, self.rng.choice(vs).name)
            return self.struct_literal(next(s for s in self.structs if s.name == pty), depth)
        return self.expr(pty, depth)

    def field_read(self, ty: str, depth: int) -> Node | None:
        cands = [(v, f) for v in self.all_vars() for s in self.structs if v.ty == s.name
                 for f, fty in s.fields if fty == ty]
        if not cands:
            return None
        v, f = self.rng.choice(cands)
        return E(ty, f"{v.name}.{f}")

    def elem_read(self, ty: str, depth: int) -> Node | None:
        cands = [v for v in self.all_vars() if v.ty.startswith(f"[{ty};")]
        if not cands:
            return None
        v = self.rng.choice(cands)
        return E(ty, f"{v.name}[", self.index(v, depth), "]")

    def index(self, arr: Var, depth: int) -> Node:
        n = int(arr.ty.rsplit(";", 1)[1].strip(" ]"))
        it = self.rng.choice(INT_TYPES)
        return E("usize", "(", self.operand(it, min(depth, 1)), f" as usize % {n})")

    def effect_block(self, ty: str, depth: int) -> Node | None:
        """`{ v = e; v }`: the block assigns a variable that other operands also read."""
        vs = self.assignable(ty)
        if not vs:
            return None
        v = self.rng.choice(vs)
        return E(ty, f"{{ {v.name} = ", self.expr(ty, depth), f"; {v.name} }}")

    def struct_literal(self, s: StructDef, depth: int) -> Node:
        parts: list = [f"{s.name} {{ "]
        for i, (f, fty) in enumerate(s.fields):
            parts += [", " if i else "", f"{f}: ", self.expr(fty, depth)]
        parts.append(" }")
        return E(s.name, *parts)

    # statements --------------------------------------------------------------------------

    def block(self, n: int) -> Node:
        self.scopes.append(Scope())
        stmts = []
        for _ in range(n):
            if self.stmt_budget <= 0:
                break
            stmts.append(self.stmt())
        self.scopes.pop()
        return B(stmts)

    def declare(self, name: str, ty: str, mutable: bool = True) -> None:
        self.scopes[-1].vars.append(Var(name, ty, mutable))

    def stmt(self) -> Node:
        self.stmt_budget -= 1
        rng = self.rng
        choices = [(self.s_let, 3), (self.s_assign, 5), (self.s_if, 2)]
        if self.in_kernel:
            choices.append((self.s_output, 3))
        if self.f.loops and self.loop_depth < 2:
            choices += [(self.s_for, 2), (self.s_while, 1)]
            if self.f.arrays:
                choices.append((self.s_for_each, 1))
        if self.f.structs and self.structs:
            choices.append((self.s_struct, 1))
        if self.f.arrays:
            choices.append((self.s_array, 1))
        if self.f.refs:
            choices.append((self.s_ref, 1))
        if self.loop_depth:
            choices.append((self.s_break, 0.3))
        return weighted(rng, choices)()

    def depth(self) -> int:
        return self.rng.randint(1, 3)

    def s_let(self) -> Node:
        ty = self.pick_type()
        name = self.fresh("v")
        e = self.expr(ty, self.depth())
        self.declare(name, ty)
        return S(f"let mut {name}: {ty} = ", e, ";", removable=False)

    def s_assign(self) -> Node:
        rng = self.rng
        vs = self.assignable()
        fields = [(v, f, fty) for v in self.all_vars() if v.mutable and not v.frozen
                  for s in self.structs if v.ty == s.name for f, fty in s.fields]
        elems = [v for v in self.all_vars() if v.mutable and not v.frozen and v.ty.startswith("[")]
        r = rng.random()
        if fields and r < 0.15:
            v, f, fty = rng.choice(fields)
            return S(f"{v.name}.{f} = ", self.expr(fty, self.depth()), ";")
        if elems and r < 0.3:
            v = rng.choice(elems)
            ety = v.ty[1:].split(";")[0]
            return S(f"{v.name}[", self.index(v, 1), "] = ", self.expr(ety, self.depth()), ";")
        if not vs:
            return self.s_let()
        v = rng.choice(vs)
        if v.ty == "bool" or rng.random() < 0.5:
            return S(f"{v.name} = ", self.expr(v.ty, self.depth()), ";")
        if v.ty in FLOAT_TYPES:
            op = rng.choice(["+=", "-=", "*=", "/="])
            return S(f"{v.name} {op} ", self.expr(v.ty, self.depth()), ";")
        op = rng.choice(["+=", "-=", "*=", "&=", "|=", "^=", "<<=", ">>="])
        if op in ("<<=", ">>="):
            return S(f"{v.name} {op} (", self.operand("u32", 1), f" & {BITS[v.ty] - 1});")
        return S(f"{v.name} {op} ", self.expr(v.ty, self.depth()), ";")

    def s_output(self) -> Node:
        ty = self.rng.choice(self.scalar_types())
        k = self.rng.randrange(OUTPUTS)
        op = self.rng.choice(["=", "^=", "+="]) if ty != "bool" else "="
        if op == "+=":
            return S(f"res[{k}] = res[{k}].wrapping_add(", to_u64(self.expr(ty, self.depth())), ");")
        return S(f"res[{k}] {op} ", to_u64(self.expr(ty, self.depth())), ";")

    def s_if(self) -> Node:
        cond = self.expr("bool", self.depth())
        then = self.block(self.rng.randint(1, 3))
        if self.rng.random() < 0.5:
            return S("if ", cond, " ", then)
        return S("if ", cond, " ", then, " else ", self.block(self.rng.randint(1, 3)))

    def loop_body(self, n: int, setup=None) -> Node:
        self.loop_depth += 1
        self.scopes.append(Scope())
        if setup:
            setup()
        body = self.block(n)
        self.scopes.pop()
        self.loop_depth -= 1
        return body

    def small(self, ty: str, limit: int) -> Node:
        """A value of `ty` in 0..limit computed from an arbitrary expression."""
        src = self.rng.choice(INT_TYPES)
        return E(ty, "((", self.operand(src, 1), f" as u8 % {limit}) as {ty})")

    def s_for(self) -> Node:
        rng = self.rng
        ity = rng.choice(["i32", "u32", "usize", "u8", "i64"])
        var = self.fresh("j")
        lo = self.small(ity, 4)
        prelude: list[Node] = []
        self.scopes.append(Scope())
        if self.f.eval_order and rng.random() < 0.4:
            # a bound variable the body changes: the range was evaluated before
            bound = self.fresh("n")
            prelude.append(S(f"let mut {bound}: {ity} = ", self.small(ity, 9), ";",
                             removable=False))
            hi: Node = E(ity, bound)
            self.declare(bound, ity)
            self.scopes[-1].vars[-1].frozen = True
        else:
            bound = None
            hi = self.small(ity, 9)
        step_var = None
        rng_text: list = ["(", lo, "..", hi, ")"]
        if rng.random() < 0.35:
            if self.f.eval_order and rng.random() < 0.5:
                step_var = self.fresh("s")
                prelude.append(S(f"let mut {step_var}: usize = ", self.small("usize", 3),
                                 " + 1;", removable=False))
                self.declare(step_var, "usize")
                self.scopes[-1].vars[-1].frozen = True
                step: Node = E("usize", step_var)
            else:
                step = E("usize", "(", self.small("usize", 3), " + 1)")
            rng_text = ["(", lo, "..", hi, ").step_by(", step, ")"]

        def setup():
            self.scopes[-1].vars.append(Var(var, ity, False))
        body = self.loop_body(rng.randint(1, 4), setup)
        extra = []
        if bound and rng.random() < 0.8:
            extra.append(S(f"{bound} = ", self.small(ity, 12), ";"))
        if step_var and rng.random() < 0.8:
            extra.append(S(f"{step_var} = ", self.small("usize", 5), " + 1;"))
        body.parts[0:0] = extra
        loop = S(f"for {var} in ", *rng_text, " ", body)
        self.scopes.pop()
        if prelude:
            return S(B(prelude + [loop]), removable=True)
        return loop

    def s_for_each(self) -> Node:
        arrs = [v for v in self.all_vars() if v.ty.startswith("[")]
        if not arrs:
            return self.s_array()
        arr = self.rng.choice(arrs)
        ety = arr.ty[1:].split(";")[0]
        var = self.fresh("e")

        def setup():
            self.scopes[-1].vars.append(Var(var, ety, False))
        body = self.loop_body(self.rng.randint(1, 3), setup)
        if self.f.eval_order and arr.mutable and not arr.frozen and self.rng.random() < 0.7:
            n = int(arr.ty.rsplit(";", 1)[1].strip(" ]"))
            body.parts.insert(0, S(f"{arr.name}[{self.rng.randrange(n)}] = ",
                                   self.expr(ety, 1), ";"))
        return S(f"for {var} in {arr.name} ", body)

    def s_while(self) -> Node:
        c = self.fresh("c")
        limit = self.rng.randint(1, 6)
        self.scopes.append(Scope())
        self.declare(c, "u32")
        self.scopes[-1].vars[-1].frozen = True
        cond = self.expr("bool", 2)
        body = self.loop_body(self.rng.randint(1, 3))
        body.parts.append(S(f"{c} += 1;", removable=False))
        self.scopes.pop()
        return S(B([S(f"let mut {c}: u32 = 0;", removable=False),
                    S(f"while {c} < {limit} && ", cond, " ", body, removable=False)]))

    def s_break(self) -> Node:
        return S("if ", self.expr("bool", 2), " { break; }")

    def s_struct(self) -> Node:
        s = self.rng.choice(self.structs)
        name = self.fresh("st")
        lit = self.struct_literal(s, self.depth())
        self.declare(name, s.name)
        return S(f"let mut {name} = ", lit, ";", removable=False)

    def s_array(self) -> Node:
        ty = self.pick_type()
        n = self.rng.randint(2, 5)
        name = self.fresh("a")
        parts: list = [f"let mut {name}: [{ty}; {n}] = ["]
        for i in range(n):
            parts += [", " if i else "", self.expr(ty, 1)]
        parts.append("];")
        self.declare(name, f"[{ty}; {n}]")
        return S(*parts, removable=False)

    def s_ref(self) -> Node:
        rng = self.rng
        vs = self.assignable()
        if not vs:
            return self.s_let()
        v = rng.choice(vs)
        r = self.fresh("r")
        if rng.random() < 0.6:
            # `&mut v`: v may not be read while r lives, so the new value reads `*r` instead
            self.hidden.add(v.name)
            e = self.expr(v.ty, 2)
            self.hidden.discard(v.name)
            if v.ty in FLOAT_TYPES:
                new = E(v.ty, "(", e, f" + *{r})")
            elif v.ty == "bool":
                new = E(v.ty, "(", e, f" ^ *{r})")
            else:
                new = E(v.ty, "(", e, f").wrapping_add(*{r})")
            return S(B([S(f"let {r} = &mut {v.name};", removable=False),
                        S(f"*{r} = ", new, ";", removable=False)]))
        if not self.in_kernel:
            return self.s_assign()
        k = rng.randrange(OUTPUTS)
        return S(B([S(f"let {r} = &{v.name};", removable=False),
                    S(f"res[{k}] ^= ", to_u64(E(v.ty, f"(*{r})")), ";", removable=False)]))

    # items -------------------------------------------------------------------------------

    def struct_def(self, k: int) -> tuple[StructDef, Node]:
        fields = [(f"f{i}", self.pick_type()) for i in range(self.rng.randint(1, 4))]
        s = StructDef(f"S{k}", fields)
        text = "#[derive(Clone, Copy)]\n    struct " + s.name + " { " + \
            ", ".join(f"{f}: {t}" for f, t in fields) + " }"
        return s, Node("stmt", [text], removable=False)

    def helper(self, k: int) -> tuple[Helper, Node]:
        rng = self.rng
        params = []
        for i in range(rng.randint(1, 3)):
            if self.structs and rng.random() < 0.2:
                params.append((f"p{i}", rng.choice(self.structs).name))
            else:
                params.append((f"p{i}", self.pick_type()))
        ret = self.pick_type()
        h = Helper(f"h{k}", params, ret)
        self.scopes = [Scope([Var(n, t, True) for n, t in params])]
        self.stmt_budget = rng.randint(1, 6)
        body = self.block(rng.randint(1, 4))
        self.scopes = [Scope([Var(n, t, True) for n, t in params])]
        # the tail reads what the body computed: re-run declarations is not possible, so the
        # tail uses the parameters (the body's statements still run for their effects on them)
        tail = self.expr(ret, 3)
        body.parts.append(Node("stmt", [tail], removable=False))
        sig = ", ".join(f"mut {n}: {t}" for n, t in params)
        node = Node("stmt", [f"#[device]\n    fn {h.name}({sig}) -> {ret} ", body],
                    removable=False)
        self.helpers.append(h)  # after the body: no recursion
        return h, node

    def kernel(self) -> Node:
        self.in_kernel = True
        self.scopes = [Scope()]
        stmts = [S("let idx = thread::index_1d();", removable=False),
                 S("let t = idx.get();", removable=False),
                 S(f"let mut res = [0u64; {OUTPUTS}];", removable=False)]
        for i in range(INPUTS):
            ty = self.pick_type()
            name = f"x{i}"
            if ty == "f64":
                init = f"f64::from_bits(inp[{i}])"
            elif ty == "f32":
                init = f"f32::from_bits(inp[{i}] as u32)"
            elif ty == "bool":
                init = f"(inp[{i}] & 1) != 0"
            else:
                init = f"inp[{i}] as {ty}"
            stmts.append(S(f"let mut {name}: {ty} = {init};", removable=False))
            self.declare(name, ty)
        self.stmt_budget = self.rng.randint(6, 20)
        body = self.block(self.stmt_budget)
        stmts += body.parts
        # fold every input variable into the outputs, so that late changes are seen too
        for i, v in enumerate(self.scopes[0].vars):
            stmts.append(S(f"res[{i % OUTPUTS}] ^= ", to_u64(E(v.ty, v.name)), ";"))
        stmts.append(S("if let Some(o) = out.get_mut(idx) ", B([S("*o = res[t];")]),
                       removable=False))
        return Node("stmt", ["#[kernel]\n    pub fn k0(inp: &[u64], mut out: DisjointSlice<u64>) ",
                             B(stmts)], removable=False)


def to_u64(e: Node) -> Node:
    """The output word of a value: floats by their bits, NaN made canonical."""
    ty = e.ty
    if ty == "f64":
        return E("u64", "{ let f: f64 = ", e, "; if f.is_nan() { 0x7ff8_0000_0000_0000u64 } "
                 "else { f.to_bits() } }")
    if ty == "f32":
        return E("u64", "{ let f: f32 = ", e, "; if f.is_nan() { 0x7fc0_0000u64 } "
                 "else { f.to_bits() as u64 } }")
    return E("u64", "((", e, ") as u64)")


def weighted(rng: random.Random, choices):
    total = sum(w for _, w in choices)
    x = rng.random() * total
    for fn, w in choices:
        x -= w
        if x < 0:
            return fn
    return choices[-1][0]


def generate(seed: int, features: Features | None = None) -> Program:
    g = Gen(seed, features)
    rng = g.rng
    items = []
    if g.f.structs:
        for k in range(rng.randint(0, 2)):
            s, node = g.struct_def(k)
            g.structs.append(s)
            items.append(node)
    if g.f.helpers:
        for k in range(rng.randint(0, 3)):
            _, node = g.helper(k)
            items.append(node)
    items.append(g.kernel())
    return Program(seed, items, make_inputs(rng))


if __name__ == "__main__":
    import sys
    print(generate(int(sys.argv[1]) if len(sys.argv) > 1 else 0).source())
