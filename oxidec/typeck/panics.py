"""The panicking macros: `assert!`, `assert_eq!`, `assert_ne!`, `debug_assert*!`, `panic!`,
`unreachable!`, `todo!`, `unimplemented!`.

    assert!(cond)                 assert!(cond, "fmt {}", args..)
    assert_eq!(a, b)              assert_eq!(a, b, "fmt {}", args..)    (and assert_ne!)
    panic!()  panic!("fmt {}", args..)   unreachable!(..)   todo!(..)   unimplemented!(..)

Each becomes a `PanicMacro` in `r.panics`: the condition (for the asserts), the message's
format pieces and the values they format; lower/panics.py prints the message through
`printf` and traps, as rustc's panic prints it. The `debug_*` forms are checked but, as in
a release build (the profile oxidec follows), never evaluated.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import ast, printf
from .. import types as T

PANICS = ("panic", "unreachable", "todo", "unimplemented")
ASSERTS = ("assert", "assert_eq", "assert_ne", "debug_assert", "debug_assert_eq",
           "debug_assert_ne", "gpu_assert")
# the text rustc's macros put before (or instead of) the user's message
_HEADS = {"unreachable": "internal error: entered unreachable code",
          "todo": "not yet implemented", "unimplemented": "not implemented"}


@dataclass
class PanicMacro:
    kind: str  # the macro's name without `debug_`
    operands: tuple[ast.Expr, ...]  # the condition, or the two compared values
    pieces: list  # printf pieces of the whole message (str | printf.Spec)
    values: tuple[ast.Expr, ...]  # what the pieces' placeholders format
    message: str  # the message as the simulator reports it (placeholders left as written)
    debug: bool  # `debug_assert*!`: checked, never evaluated


class PanicMixin:

    def check_panic_macro(self, e: ast.MacroCallExpr, name: str) -> T.Ty | None:
        """Type-check one of the macros above (None: `name` is none of them)."""
        if name not in PANICS and name not in ASSERTS:
            return None
        kind = name.removeprefix("debug_")
        nops = {"assert": 1, "gpu_assert": 1, "assert_eq": 2, "assert_ne": 2}.get(kind, 0)
        if len(e.args) < nops:
            self.sink.error("OX0011", f"`{name}!` takes {nops} argument{'s' if nops > 1 else ''} "
                            "before its message", e.span, "missing arguments")
            for a in e.args:
                self.check_expr(a)
            return T.UNIT
        ops, rest = e.args[:nops], e.args[nops:]
        if kind in ("assert", "gpu_assert"):
            self.coerce(self.check_expr(ops[0], T.BOOL), T.BOOL, ops[0].span)
        elif nops == 2:
            lt = self.check_expr(ops[0])
            rt = self.check_expr(ops[1], lt)
            if not self.unify(lt, rt):
                self.mismatch(lt, rt, ops[1].span)
        user = self.panic_message(e, rest)
        if user is None:
            return T.UNIT if nops else T.NEVER
        pieces, values = user
        head = _head(kind, ops)
        text = "".join(p if isinstance(p, str) else p.text for p in pieces)
        if kind in ("assert_eq", "assert_ne"):
            message = head + (f": {text}" if rest else "")
            all_pieces = [head] + ([": "] + pieces if rest else [])
        elif kind in ("assert", "gpu_assert"):
            message = text if rest else head
            all_pieces = pieces if rest else [head]
        elif kind in _HEADS:
            message = head + (f": {text}" if rest else "")
            all_pieces = [head] + ([": "] + pieces if rest else [])
        else:  # panic!
            message = text if rest else "explicit panic"
            all_pieces = pieces if rest else ["explicit panic"]
        self.r.panics[e] = PanicMacro(kind, tuple(ops), all_pieces, values, message,
                                      name.startswith("debug_"))
        return T.UNIT if nops else T.NEVER

    def panic_message(self, e: ast.MacroCallExpr, rest) -> tuple[list, tuple] | None:
        """The user's message: (format pieces, the values), or None after an error."""
        if not rest:
            return [], ()
        lit, values = rest[0], tuple(rest[1:])
        if not (isinstance(lit, ast.LitExpr) and lit.kind == "str"):
            self.sink.error("OX0011", "format argument must be a string literal", lit.span,
                            "not a string literal",
                            help='write the message as a literal: `"{}", value`')
            for a in rest:
                self.check_expr(a)
            return None
        tys = [self.check_expr(a) for a in values]
        try:
            pieces = printf.parse(lit.value)
        except printf.FormatError as err:
            self.sink.error("OX0011", err.message, lit.span, "in this format string",
                            help=err.help)
            return None
        specs = printf.placeholders(pieces)
        if len(specs) != len(values):
            n = len(specs)
            self.sink.error("OX0011", f"{n} positional argument{'s' if n != 1 else ''} in "
                            f"format string, but there {'is' if len(values) == 1 else 'are'} "
                            f"{len(values)} argument{'s' if len(values) != 1 else ''}",
                            lit.span, f"{n} placeholder{'s' if n != 1 else ''}")
            return None
        for a, spec, ty in zip(values, specs, tys):
            why = printf.check_spec(spec, self.shallow(ty))
            if why is not None and not isinstance(self.shallow(ty), T.ErrorTy):
                self.sink.error("OX0011", why, a.span, f"formatted by `{spec.text}`")
                return None
        return pieces, values


def _head(kind: str, ops) -> str:
    if kind in ("assert", "gpu_assert"):
        return f"assertion failed: {ops[0].span.text()}"
    if kind == "assert_eq":
        return "assertion `left == right` failed"
    if kind == "assert_ne":
        return "assertion `left != right` failed"
    return _HEADS.get(kind, "explicit panic")
