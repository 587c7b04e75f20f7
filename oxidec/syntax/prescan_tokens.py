"""The pre-scanner's tokenizer: the whole file read as rustc's lexer reads it -- enough of
it to match delimiters and find items: nested comments, strings, raw strings, chars against
lifetimes, identifiers, numbers, punctuation (prescan.py).
"""
from __future__ import annotations

import re
from collections import namedtuple
from dataclasses import dataclass

# kinds of Tok
IDENT, LIFETIME, LITERAL, PUNCT = "ident", "lifetime", "literal", "punct"


# A token: kind, start and end offsets, text. A tuple: one is made for every token of the
# file, and a frozen dataclass costs several times as much to make (`typing.NamedTuple`
# would import `typing`, which a build does not).
Tok = namedtuple("Tok", "kind start end text")


@dataclass(frozen=True)
class LexError:
    message: str
    start: int
    end: int
    label: str = ""
    notes: tuple[str, ...] = ()
    secondary: tuple[tuple[int, int, str], ...] = ()  # (start, end, label)


# ---------------------------------------------------------------------------
# Tokenizer

# Rust's whitespace, plus a byte-order mark and no-break space (the grammar's %ignore agrees)
_WS = re.compile(r"[ \t\n\r\f\v\u0085\u00a0\u200e\u200f\u2028\u2029\ufeff]+")
_IDENT = re.compile(r"(?:r#)?[^\W\d]\w*")
_NUMBER = re.compile(r"[0-9][0-9A-Za-z_]*(?:\.[0-9][0-9A-Za-z_]*)?")
_STRING_BODY = re.compile(r'(?:[^"\\]|\\.)*"', re.S)
_RAW_START = re.compile(r'(?:b|c)?r(#*)"')
_STR_PREFIX = re.compile(r'(?:b|c)"')
_CHAR = re.compile(r"'(?:\\(?:u\{[^}\n]*\}|x..|.)|[^\\\n'])'", re.S)
_BYTE_CHAR = re.compile(r"b'(?:\\(?:x..|.)|[^\\\n'])'", re.S)
_LIFETIME = re.compile(r"'(?:r#)?[^\W\d]\w*")
_PUNCT = frozenset(";,.(){}[]@#~?:$=!<>-&|+*/^%")
# The common tokens in one match (white space before them skipped): an identifier that
# starts no string, char or raw identifier (`b"`, `br#"`, `b'`, `r#`), a number, a
# punctuation character other than `/` (which may open a comment). Anything else is read
# by the cases of `tokenize`, in their order.
_COMMON = re.compile(r"""[ \t\n\r\f\v\u0085\u00a0\u200e\u200f\u2028\u2029\ufeff]*+(?:
    (?P<ident>(?![bc]?r\#*"|[bc]"|b'|r\#)[^\W\d]\w*)
  | (?P<literal>[0-9][0-9A-Za-z_]*(?:\.[0-9][0-9A-Za-z_]*)?)
  | (?P<punct>[;,.(){}\[\]@\#~?:$=!<>\-&|+*^%])
)""", re.X)


def _char_repr(ch: str) -> str:
    if ch.isprintable() and not ch.isspace():
        return ch
    return "\\u{%x}" % ord(ch)


def tokenize(text: str) -> tuple[list[Tok], list[tuple[int, int]], list[LexError], bool]:
    """Tokens, ranges to blank (comments, unknown characters), errors, and whether an
    error was fatal.

    Fatal errors (an unterminated comment or string) swallow the rest of the file, as
    in rustc; we stop there.
    """
    toks: list[Tok] = []
    comments: list[tuple[int, int]] = []
    errors: list[LexError] = []
    n = len(text)
    i = 0
    if text.startswith("#!") and not text.startswith("#!["):
        # a shebang line
        i = text.find("\n")
        i = n if i < 0 else i
        comments.append((0, i))
    common = _COMMON.match
    new = tuple.__new__  # Tok(...) without the call of its __new__
    while i < n:
        m = common(text, i)
        if m is not None:
            kind = m.lastgroup
            start, i = m.span(kind)
            toks.append(new(Tok, (kind, start, i, m.group(kind))))
            continue
        ch = text[i]
        m = _WS.match(text, i)
        if m:
            i = m.end()
            continue
        if ch == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            comments.append((i, j))
            i = j
            continue
        if ch == "/" and text.startswith("/*", i):
            j = _block_comment_end(text, i)
            if j < 0:
                errors.append(LexError("unterminated block comment", i, i + 2))
                comments.append((i, n))
                return toks, comments, errors, True
            comments.append((i, j))
            i = j
            continue
        if ch == '"' or ((ch == "b" or ch == "c") and _STR_PREFIX.match(text, i)):
            q = text.index('"', i)
            m = _STRING_BODY.match(text, q + 1)
            if not m:
                errors.append(LexError("unterminated double quote string", i, q + 1))
                return toks, comments, errors, True
            toks.append(Tok(LITERAL, i, m.end(), text[i:m.end()]))
            i = m.end()
            continue
        if ch in "rbc":
            m = _RAW_START.match(text, i)
            if m:
                closing = '"' + m.group(1)
                j = text.find(closing, m.end())
                if j < 0:
                    errors.append(LexError("unterminated raw string", i, m.end()))
                    return toks, comments, errors, True
                j += len(closing)
                toks.append(Tok(LITERAL, i, j, text[i:j]))
                i = j
                continue
            if text.startswith("b'", i):
                m = _BYTE_CHAR.match(text, i)
                if m:
                    toks.append(Tok(LITERAL, i, m.end(), m.group()))
                    i = m.end()
                    continue
        if ch == "'":
            m = _CHAR.match(text, i)
            if m:
                toks.append(Tok(LITERAL, i, m.end(), m.group()))
                i = m.end()
                continue
            m = _LIFETIME.match(text, i)
            if m:
                toks.append(Tok(LIFETIME, i, m.end(), m.group()))
                i = m.end()
                continue
            errors.append(LexError("unterminated character literal", i, i + 1))
            return toks, comments, errors, True
        m = _IDENT.match(text, i)
        if m:
            toks.append(Tok(IDENT, i, m.end(), m.group()))
            i = m.end()
            continue
        m = _NUMBER.match(text, i)
        if m:
            toks.append(Tok(LITERAL, i, m.end(), m.group()))
            i = m.end()
            continue
        if ch in _PUNCT:
            toks.append(Tok(PUNCT, i, i + 1, ch))
            i += 1
            continue
        # not a Rust token: report once per run of the same character
        j = i + 1
        while j < n and text[j] == ch:
            j += 1
        notes = (f"character appears {j - i - 1} more time{'s' if j - i > 2 else ''}",) \
            if j - i > 1 else ()
        errors.append(LexError(f"unknown start of token: {_char_repr(ch)}", i, i + 1,
                               notes=notes))
        comments.append((i, j))  # blanked: the parser goes on without them
        i = j
    return toks, comments, errors, False


def _block_comment_end(text: str, i: int) -> int:
    """Offset just past the `*/` closing the (nested) block comment at i, or -1."""
    depth = 0
    n = len(text)
    while i < n:
        if text.startswith("/*", i):
            depth += 1
            i += 2
        elif text.startswith("*/", i):
            depth -= 1
            i += 2
            if depth == 0:
                return i
        else:
            i += 1
    return -1
