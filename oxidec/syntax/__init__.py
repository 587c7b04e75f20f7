"""The front end: source text -> `oxidec.ast.SourceUnit`.

    from oxidec.syntax import parse
    unit = parse(source_file, sink)

`prescan` blanks host code and comments, grammar/oxide.lark (Lark, LALR) parses the
kernel code, `transform.AstBuilder` builds the AST, `errors` words syntax errors as
rustc does.
"""
from .lark_runtime import install

install()  # before anything imports lark (lark_runtime.py)

from .parser import build_parser, grammar_text, lark_parser, parse

__all__ = ["parse", "lark_parser", "build_parser", "grammar_text"]
