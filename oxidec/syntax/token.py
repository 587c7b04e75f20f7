"""The tokens the AST builder (transform.py) reads: a str with its terminal and its offsets.

The builder sees the tokens the grammar keeps (IDENT, INT, MUT, ...), never the punctuation it
filters out. It reads `type`, `value` and the offsets `start_pos`/`end_pos` (spans are
offsets; a Span finds its own line and column), so a token carries just those -- not Lark's
lines and columns, which Lark's lexer counts for every token. Lark's own Token (the parse
after a syntax error, parser.py) is turned into this one before the builder sees it, so the
builder has one token type and the common parse needs no part of Lark.
"""
from __future__ import annotations


class Token(str):
    __slots__ = ("type", "value", "start_pos", "end_pos")

    def __new__(cls, type: str, value: str, start_pos: int, end_pos: int) -> "Token":
        tok = str.__new__(cls, value)
        tok.type = type
        tok.value = value
        tok.start_pos = start_pos
        tok.end_pos = end_pos
        return tok

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {self.value!r})"

    def __reduce__(self):
        return (Token, (self.type, self.value, self.start_pos, self.end_pos))


def from_lark(tok) -> Token:
    """Lark's token (`value` may be a str subclass there) as this module's."""
    return Token(tok.type, str(tok.value), tok.start_pos, tok.end_pos)
