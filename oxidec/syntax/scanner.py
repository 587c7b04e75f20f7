"""Lark's basic lexer for a set of the grammar's terminals, read with one regex match a token.

Lark's BasicLexer (lark/lexer.py) joins the terminals into one alternation of named groups,
in a fixed order -- priority, then maximal width, then pattern length, then name -- and takes
the first alternative that matches. A string terminal that a regular terminal of the same
priority also matches (a keyword, which IDENT matches) is left out of the alternation: the
regular terminal's token is renamed when its text is that string (Lark's "unless"
callback). Ignored terminals (whitespace) are matched like the others, then dropped.

`Scanner` builds the same alternation, so it picks the same terminal at every offset, with
one change that saves a match per token: the ignored terminals are skipped by a possessive
prefix `(?:ignored)*+` before the alternation. That reads what Lark reads as long as no
terminal that comes before an ignored one in Lark's order can match at an ignored
character (no terminal of this grammar starts with whitespace; tests/test_direct_parse.py
compares the tokens with Lark's on every file of the corpus and on damaged input).
"""
from __future__ import annotations

import re

# a terminal row of the stored tables (tables.py):
#   (name, "str" | "re", pattern, flags, raw, priority, (min_width, max_width))


def _regexp(row: tuple) -> str:
    """Lark's `Pattern.to_regexp()`."""
    _name, kind, value, flags, _raw, _priority, _width = row
    text = re.escape(value) if kind == "str" else value
    for flag in flags:
        text = f"(?{flag}:{text})"
    return text


def _width(row: tuple) -> int:
    return len(row[2]) if row[1] == "str" else row[6][1]


def lark_order(rows) -> list[tuple]:
    """The terminals in the order Lark's BasicLexer tries them."""
    return sorted(rows, key=lambda t: (-t[5], -_width(t), -len(t[2]), t[0]))


def _unless(rows: list[tuple]) -> tuple[list[tuple], dict[str, dict[str, str]]]:
    """Lark's `_create_unless`: the terminals left in the alternation, and for each regular
    terminal the strings (keywords) whose text turns its token into theirs."""
    strings = [t for t in rows if t[1] == "str"]
    embedded = set()
    renames: dict[str, dict[str, str]] = {}
    for retok in (t for t in rows if t[1] == "re"):
        pattern = re.compile(_regexp(retok))
        for strtok in strings:
            if strtok[5] != retok[5]:
                continue
            m = pattern.match(strtok[2])
            if m and m.group(0) == strtok[2]:
                if strtok[3]:  # a flagged string (`"fn"i`): Lark fullmatches; not needed here
                    raise NotImplementedError(f"terminal {strtok[0]} with flags {strtok[3]}")
                renames.setdefault(retok[0], {}).setdefault(strtok[2], strtok[0])
                if set(strtok[3]) <= set(retok[3]):
                    embedded.add(strtok[0])
    return [t for t in rows if t[0] not in embedded], renames


class Scanner:
    """`match(text, pos)`: the next token at or after pos, whitespace skipped: a match whose
    `lastgroup` is the terminal's name and whose `lastindex` group is the token's text;
    None at an offset where no terminal matches (or only ignored text is left).
    `renames[type].get(text)` is the keyword a regular terminal's text names."""

    def __init__(self, rows, ignore) -> None:
        ignore = set(ignore)
        kept, self.renames = _unless(lark_order(rows))
        skip = "|".join(_regexp(t) for t in kept if t[0] in ignore)
        body = "|".join(f"(?P<{t[0]}>{_regexp(t)})" for t in kept if t[0] not in ignore)
        prefix = f"(?:{skip})*+" if skip else ""
        self.match = re.compile(f"{prefix}(?:{body})").match
        self.skip = re.compile(f"(?:{skip})*+").match if skip else None

    def at_end(self, text: str, pos: int) -> bool:
        """Whether only ignored text is left from pos (the end of the input)."""
        if self.skip is not None:
            pos = self.skip(text, pos).end()
        return pos >= len(text)
