"""The text form of an AST that `oxidec build --emit ast` prints (ast.dump)."""
from __future__ import annotations


def dump(n: object, indent: int = 0) -> str:
    """An indented, deterministic text form of an AST (`oxidec build --emit ast`)."""
    from .ast import Node
    pad = "  " * indent
    if isinstance(n, Node):
        fields = [f for f in n.__dataclass_fields__ if f not in ("span", "name_span",
                                                                   "method_span", "op_span")]
        line, col = n.span.line, n.span.col
        head = f"{pad}{type(n).__name__} @{line}:{col}"
        simple, nested = [], []
        for f in fields:
            v = getattr(n, f)
            if isinstance(v, (Node, tuple)) and v and not isinstance(v, str):
                nested.append((f, v))
            elif v not in (None, (), False, ""):
                simple.append(f"{f}={v!r}")
        out = [head + (" " + " ".join(simple) if simple else "")]
        for f, v in nested:
            out.append(f"{pad}  .{f}:")
            items = v if isinstance(v, tuple) else (v,)
            for x in items:
                out.append(dump(x, indent + 2))
        return "\n".join(out)
    if isinstance(n, tuple):
        return "\n".join(dump(x, indent) for x in n)
    return f"{pad}{n!r}"
