"""The front end: source text -> `oxidec.ast.SourceUnit`.

    from oxidec.syntax import parse
    unit = parse(source_file, sink)

`prescan` blanks host code and comments, `direct` parses the kernel code with the LALR
tables of grammar/oxide.lark and `transform.AstBuilder` builds the AST as it goes; after a
syntax error Lark's parser parses it again and `errors` words the errors as rustc does
(the only time a build imports Lark, see lark_runtime.py).
"""
from .parser import build_parser, grammar_text, lark_parser, parse

__all__ = ["parse", "lark_parser", "build_parser", "grammar_text"]
