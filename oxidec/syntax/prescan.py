"""The pre-scanner: what runs over the source before Lark sees it.

A cuda-oxide file mixes kernels with host code (`fn main`, `impl` blocks, closures,
`?`, lifetimes, `println!`) that oxidec never compiles. Rather than teach the grammar
all of Rust, this module tokenizes the whole file the way rustc's lexer does (enough
of it to match delimiters: nested comments, strings, raw strings, chars vs lifetimes),
checks that every delimiter is balanced, finds the item boundaries at top level and in
`mod` bodies, and produces the text Lark parses:

    #[kernel] fn k() { ... }      kept as it is
    fn main() { let v = vec![]; } -> "\\x01" + spaces       (one HOST_MARK character)
    // a comment                  -> spaces
    #![allow(unused)]             -> spaces

Newlines are kept everywhere, so every offset (and so every span) in the blanked text
is the user's. Each blanked item is recorded in `Prescan.skipped` under the offset of
its marker; the transformer turns the marker back into an `ast.HostFn` or
`ast.SkippedItem`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .prescan_tokens import (IDENT, LIFETIME, LITERAL, PUNCT, LexError, Tok,  # noqa: F401
                             tokenize)
from .prescan_traits import skip_to_self_type
from .prescan_attrs import DEVICE_ATTRS as _DEVICE_ATTRS, HOST_FN_ATTRS as _HOST_FN_ATTRS
from .prescan_attrs import configured_out, strip_item
from .prescan_generics import GENERIC_WORDS, after_generics

HOST_MARK = "\x01"
# The `else` of `let PAT = EXPR else { .. };` has its first letter replaced by this mark in
# the text the parser sees, so the grammar can tell it from the `else` of an `if` (which
# always follows a `}`; rustc likewise rejects a let-else initialiser that ends with `}`).
LET_ELSE_MARK = "\x02"

OPEN = {"(": ")", "[": "]", "{": "}"}
CLOSE = {")": "(", "]": "[", "}": "{"}

# Rust's strict and reserved keywords (2021 edition), for "found keyword `fn`"
KEYWORDS = frozenset("""
    as break const continue crate else enum extern false fn for if impl in let loop match
    mod move mut pub ref return self Self static struct super trait true type unsafe use
    where while async await dyn abstract become box do final macro override priv typeof
    unsized virtual yield try
""".split())

# keywords that cannot be used as an identifier anywhere (`self`, `super`, `crate` and
# `Self` are path segments and stay identifiers in this grammar)
RESERVED = KEYWORDS - {"self", "Self", "super", "crate"}

_NOT_NEWLINE = re.compile(r"[^\n]")  # what blanking turns into a space


@dataclass(frozen=True)
class SkippedInfo:
    """A host item blanked out of the Lark text."""

    kind: str  # "fn" for a host fn, else "impl", "trait", "enum", "macro", ...
    name: str
    name_start: int
    name_end: int
    start: int  # first token after the outer attributes (the marker's offset)
    end: int


@dataclass(frozen=True)
class ItemRegion:
    """Where an item (or a run of tokens that is not one) lies; used for error recovery."""

    attr_start: int  # first outer attribute, or `start`
    start: int
    end: int
    is_item: bool


@dataclass
class Prescan:
    text: str  # what Lark parses
    tokens: list[Tok]
    errors: list[LexError]
    fatal: bool  # an error after which parsing the text is pointless
    skipped: dict[int, SkippedInfo] = field(default_factory=dict)
    regions: list[ItemRegion] = field(default_factory=list)


# ---------------------------------------------------------------------------
# Delimiters

def match_delimiters(toks: list[Tok]) -> tuple[dict[int, int], list[LexError]]:
    """Map each opening delimiter's token index to its closing one's (and back)."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for idx, t in enumerate(toks):
        if t.kind != PUNCT:
            continue
        if t.text in OPEN:
            stack.append(idx)
        elif t.text in CLOSE:
            if not stack:
                return pairs, [LexError(f"unexpected closing delimiter: `{t.text}`", t.start,
                                        t.end, "unexpected closing delimiter")]
            o = stack.pop()
            if toks[o].text != CLOSE[t.text]:
                op = toks[o]
                return pairs, [LexError(f"mismatched closing delimiter: `{t.text}`", t.start,
                                        t.end, "mismatched closing delimiter",
                                        secondary=((op.start, op.end, "unclosed delimiter"),))]
            pairs[o] = idx
            pairs[idx] = o
    if stack:
        inner = toks[stack[-1]]
        others = tuple((toks[o].start, toks[o].end, "unclosed delimiter") for o in stack[:-1])
        return pairs, [LexError("this file contains an unclosed delimiter", inner.start,
                                inner.end, "unclosed delimiter", secondary=others)]
    return pairs, []


# ---------------------------------------------------------------------------
# Items

from .item_words import _FN_QUALIFIERS, _HOST_ONLY_WORDS, _ITEM_STARTS  # noqa: E402


class _ItemScanner:
    def __init__(self, text: str, toks: list[Tok], pairs: dict[int, int],
                 promote: frozenset[int] = frozenset()):
        self.promote = promote  # offsets of host items device code reaches: parse them
        self.text = text
        self.toks = toks
        self.pairs = pairs
        self.skipped: dict[int, SkippedInfo] = {}
        self.blank: list[tuple[int, int]] = []
        self.regions: list[ItemRegion] = []

    def tok(self, i: int) -> str:
        return self.toks[i].text if i < len(self.toks) else ""

    def is_punct(self, i: int, ch: str) -> bool:
        return i < len(self.toks) and self.toks[i].kind == PUNCT and self.toks[i].text == ch

    def is_word(self, i: int, word: str) -> bool:
        return i < len(self.toks) and self.toks[i].kind == IDENT and self.toks[i].text == word

    def skip_group(self, i: int) -> int:
        """Index after the token at i, or after the whole group if it opens one."""
        t = self.toks[i]
        if t.kind == PUNCT and t.text in OPEN:
            return self.pairs[i] + 1
        return i + 1

    def stops(self, i: int) -> bool:
        """A token that starts the next item and can occur in no item's header or `;`
        item outside a group: a missing `{` or `;` ends the item there."""
        t = self.toks[i]
        return (t.kind == PUNCT and t.text == "#") or (t.kind == IDENT and t.text in _ITEM_STARTS)

    def end_at_semi(self, i: int, end: int) -> int:
        """Index of the `;` ending a `use`/`const`/`static`/`type` item (groups skipped)."""
        while i < end and not self.stops(i):
            if self.is_punct(i, ";"):
                return i
            i = self.skip_group(i)
        return i - 1  # no `;`: the item is incomplete

    def end_at_body(self, i: int, end: int) -> int:
        """Index of the `}` closing the first brace group, or of a `;` before one."""
        while i < end and not self.stops(i):
            t = self.toks[i]
            if t.kind == PUNCT:
                if t.text == "{":
                    return self.pairs[i]
                if t.text == ";":
                    return i
            i = self.skip_group(i)
        return i - 1  # no body: the item is incomplete

    def end_of_macro(self, i: int, end: int) -> int:
        """`name! (...)`, `name! [...];`, `name! {...}` with i at the group."""
        if i >= end or not (self.toks[i].kind == PUNCT and self.toks[i].text in OPEN):
            return min(i, end - 1)
        close = self.pairs[i]
        if self.toks[i].text != "{" and self.is_punct(close + 1, ";"):
            return close + 1
        return close

    def attr_name(self, i: int) -> str:
        """The path of the attribute whose `[` is at i: `kernel`, `cuda_device::kernel`."""
        parts: list[str] = []
        j = i + 1
        while j < len(self.toks) and self.toks[j].kind == IDENT:
            parts.append(self.toks[j].text)
            if self.is_punct(j + 1, ":") and self.is_punct(j + 2, ":"):
                j += 3
            else:
                break
        return "::".join(parts)

    def has_host_only_tokens(self, i: int, j: int, allow: frozenset = frozenset(),
                             lifetimes: bool = False) -> bool:
        """Whether tokens[i..=j] hold syntax only host code uses; `lifetimes`: a type
        item's lifetime parameters (`struct View<'a>(&'a [f32])`) are device syntax."""
        prev = ""
        for t in self.toks[i:j + 1]:
            if t.text in allow:
                prev = t.text
                continue
            host_lifetime = t.kind == LIFETIME and t.text != "'static" and not lifetimes
            if host_lifetime or (t.kind == IDENT and t.text in _HOST_ONLY_WORDS):
                return True
            if t.kind == PUNCT and t.text in "?$":
                return True
            if t.kind == PUNCT and t.text == "|" and prev in ("=", "(", ",", "{", "move"):
                return True  # a closure (`a || b` has `|` after an operand: not one)
            prev = t.text
        return False

    def skip(self, kind: str, name_i: int | None, start_i: int, end_i: int,
             named: bool = True, ends: str = ";}", label_i: int | None = None) -> int | None:
        """Blank the host item tokens[start_i:end_i + 1] and return end_i; or return None
        if the item is incomplete (no name, or it does not end with one of `ends`): the
        parser then sees it and reports the error as for kernel code."""
        last = self.toks[end_i] if start_i <= end_i < len(self.toks) else None
        if last is None or not (last.kind == PUNCT and last.text in ends) \
                or (named and (name_i is None or name_i > end_i)):
            return None
        start = self.toks[start_i].start
        if start in self.promote:
            return end_i  # reached from device code: the parser sees it
        if name_i is not None and named:
            nt = self.toks[name_i]
            name, ns, ne = nt.text, nt.start, nt.end
        elif label_i is not None:  # an `impl`: recorded under its self type's name
            kw, nt = self.toks[start_i], self.toks[label_i]
            name, ns, ne = nt.text, kw.start, kw.end
        else:
            kw = self.toks[start_i]
            name, ns, ne = "", kw.start, kw.end
        self.skipped[start] = SkippedInfo(kind, name, ns, ne, start, last.end)
        self.blank.append((start, last.end))
        return end_i

    def scan(self, i: int, end: int) -> None:
        """Scan the items of tokens[i:end] (a file, or the inside of a `mod` body)."""
        junk_start: int | None = None
        while i < end:
            # inner attributes: recorded nowhere
            if self.is_punct(i, "#") and self.is_punct(i + 1, "!") and self.is_punct(i + 2, "["):
                close = self.pairs[i + 2]
                self.blank.append((self.toks[i].start, self.toks[close].end))
                i = close + 1
                continue
            attr_i = i
            attrs: list[str] = []
            while i < end and self.is_punct(i, "#") and self.is_punct(i + 1, "["):
                attrs.append(self.attr_name(i + 1))
                i = self.pairs[i + 1] + 1
            if i >= end:
                break
            item_end = self.item(i, end, attrs)
            if item_end is None:
                # not an item: the parser will report it; remember the run for recovery
                if junk_start is None:
                    junk_start = self.toks[attr_i].start
                i = self.skip_group(i)
                continue
            if configured_out(self, attr_i, i):  # `#[cfg(P)]` with P false: gone
                strip_item(self, attr_i, item_end)
                i = item_end + 1
                continue
            if junk_start is not None:
                self.regions.append(ItemRegion(junk_start, junk_start,
                                               self.toks[attr_i].start, False))
                junk_start = None
            self.regions.append(ItemRegion(self.toks[attr_i].start, self.toks[i].start,
                                           self.toks[item_end].end, True))
            i = item_end + 1
        if junk_start is not None:
            last = self.toks[end - 1].end if end > 0 else junk_start
            self.regions.append(ItemRegion(junk_start, junk_start, last, False))

    def item(self, i: int, end: int, attrs: list[str]) -> int | None:
        """Classify the item starting at token i; return the index of its last token, or
        None if it is no item (the parser reports what it is)."""
        start_i = i
        if self.is_word(i, "pub"):
            i += 1
            if self.is_punct(i, "("):
                i = self.pairs[i] + 1
        k = self.skip_fn_qualifiers(i, end)
        if self.is_word(k, "fn"):
            last = self.end_at_body(k + 1, end)
            if any(a.rsplit("::", 1)[-1] in _DEVICE_ATTRS for a in attrs):
                return last  # kernel code: the parser's
            if any(a and "::" not in a and a not in _HOST_FN_ATTRS for a in attrs):
                return last  # an unknown attribute: the parser's, and resolve reports it
            name_i = k + 1 if k + 1 < end and self.toks[k + 1].kind == IDENT else None
            return self.skip("fn", name_i, start_i, last)
        if i >= end or self.toks[i].kind != IDENT:
            return None
        kw = self.tok(i)
        if k != i and not (kw == "unsafe" and self.tok(i + 1) in ("impl", "trait", "extern")):
            return None  # `unsafe`, `async`, ... not followed by an item we know
        name_i = i + 1 if i + 1 < end and self.toks[i + 1].kind == IDENT else None
        if kw == "mod":
            if name_i is not None and self.is_punct(i + 2, "{"):
                close = self.pairs[i + 2]
                self.scan(i + 3, close)
                return close
            return self.skip("mod", name_i, start_i, self.end_at_semi(i + 1, end), ends=";")
        if kw == "use":
            return self.end_at_semi(i + 1, end)
        if kw in ("const", "static"):
            last = self.end_at_semi(i + 1, end)
            if not self.has_host_only_tokens(i + 1, last):
                return last
            return self.skip(kw, name_i if kw == "const" else self._static_name(i), start_i, last,
                             ends=";")
        if kw in ("struct", "union"):  # a plain union is device code too
            last = self.end_at_body(i + 1, end)
            j = after_generics(self.toks, self.pairs, i + 2, end)
            plain = name_i is not None and (self.is_punct(j, "{") or self.is_punct(j, ";")
                                            or self.is_punct(j, "(") or self.is_word(j, "where"))
            if plain and not self.has_host_only_tokens(i + 1, last, GENERIC_WORDS, lifetimes=True):
                return last
            return self.skip(kw, name_i, start_i, last)
        if kw == "enum":  # a plain enum is device code, as a struct is
            last = self.end_at_body(i + 1, end)
            j = after_generics(self.toks, self.pairs, i + 2, end)
            if name_i is not None and (self.is_punct(j, "{") or self.is_word(j, "where")) \
                    and not self.has_host_only_tokens(i + 1, last, GENERIC_WORDS,
                                                      lifetimes=True):
                return last
            return self.skip("enum", name_i, start_i, last)
        if kw in ("trait",) or (kw in ("union", "auto") and name_i is not None):
            kind = "trait" if kw == "auto" else kw
            name_i = i + 2 if kw == "auto" else name_i
            return self.skip(kind, name_i, start_i, self.end_at_body(i + 1, end))
        if kw == "impl":
            return self.skip("impl", None, start_i, self.end_at_body(i + 1, end), named=False,
                             label_i=self.impl_self_name(i + 1, end))
        if kw == "unsafe":  # `unsafe impl`, `unsafe trait`
            what = self.tok(i + 1)
            last = self.end_at_body(i + 2, end)
            if what == "impl":
                return self.skip("impl", None, start_i, last, named=False)
            if what == "extern":  # `unsafe extern "C" { .. }` (edition 2024)
                return self.skip("extern", None, start_i, last, named=False)
            return self.skip("trait", i + 2 if i + 2 < end else None, start_i, last)
        if kw == "type":
            return self.skip("type", name_i, start_i, self.end_at_semi(i + 1, end), ends=";")
        if kw == "extern":
            if self.is_word(i + 1, "crate"):
                name_i = i + 2 if i + 2 < end and self.toks[i + 2].kind == IDENT else None
                return self.skip("extern crate", name_i, start_i, self.end_at_semi(i + 2, end),
                                 ends=";")
            return self.skip("extern", None, start_i, self.end_at_body(i + 1, end), named=False)
        if kw == "macro_rules" and self.is_punct(i + 1, "!"):
            name_i = i + 2 if i + 2 < end and self.toks[i + 2].kind == IDENT else None
            return self.skip("macro_rules", name_i, start_i, self.end_of_macro(i + 3, end),
                             ends=";})]")
        # an item-level macro call: `name!(...);`, `a::b! { ... }`
        j = i
        while self.is_punct(j + 1, ":") and self.is_punct(j + 2, ":") and j + 3 < end \
                and self.toks[j + 3].kind == IDENT:
            j += 3
        if self.is_punct(j + 1, "!") and kw not in KEYWORDS:
            return self.skip("macro", j, start_i, self.end_of_macro(j + 2, end), ends=";})]")
        return None

    def impl_self_name(self, i: int, end: int) -> int | None:
        """Token index of the self type's last name in `impl Path {` or
        `impl Trait<..> for Path {` (prescan_traits.py)."""
        last = None  # `impl<T: Copy> V<T> where T: Add {`, `impl<T> Tr for V<T> {`
        i = skip_to_self_type(self.toks, self.pairs, i, end)
        while i < end and self.toks[i].kind == IDENT and self.tok(i) not in ("for", "where"):
            last = i
            i = after_generics(self.toks, self.pairs, i + 1, end)
            if self.is_punct(i, ":") and self.is_punct(i + 1, ":"):
                i += 2
            else:
                break
        if self.is_word(i, "where"):
            while i < end and not self.is_punct(i, "{") and not self.is_word(i, "for"):
                i = self.skip_group(i)
        return last if last is not None and self.is_punct(i, "{") else None

    def skip_fn_qualifiers(self, k: int, end: int) -> int:
        """Index after `const async unsafe extern "C"` and the like before a `fn`."""
        while k < end and self.toks[k].kind == IDENT:
            word = self.toks[k].text
            nxt = k + 1
            if word == "extern" and nxt < end and self.toks[nxt].kind == LITERAL:
                nxt += 1  # the ABI string
            if word not in _FN_QUALIFIERS or self.tok(nxt) not in _FN_QUALIFIERS | {"fn"}:
                return k
            k = nxt
        return k

    def _static_name(self, i: int) -> int | None:
        j = i + 1
        if self.is_word(j, "mut"):
            j += 1
        return j if j < len(self.toks) and self.toks[j].kind == IDENT else None


def prescan(text: str, promote: frozenset[int] = frozenset()) -> Prescan:
    toks, comments, errors, fatal = tokenize(text)
    if fatal:
        return Prescan(text, toks, errors, True)
    pairs, delim_errors = match_delimiters(toks)
    if delim_errors:
        return Prescan(text, toks, errors + delim_errors, True)
    scanner = _ItemScanner(text, toks, pairs, promote)
    scanner.scan(0, len(toks))
    chars = list(text)
    if "macro_rules" in text:  # (no token can be `macro_rules` otherwise)
        from .macro_rules import blank_macro_args  # (macro_rules imports this module)
        blank_macro_args(toks, pairs, chars)  # first: host items blanked below stay blank
    for start, end in comments + scanner.blank:
        chars[start:end] = _NOT_NEWLINE.sub(" ", text[start:end])
    for start in scanner.skipped:
        chars[start] = HOST_MARK
    for j, tok in enumerate(toks):
        if tok.text == "else" and tok.kind == IDENT and chars[tok.start] == "e" and j > 0 \
                and toks[j - 1].text != "}":
            chars[tok.start] = LET_ELSE_MARK
    # a HOST_MARK in the source itself is an unknown character: reported and blanked
    return Prescan("".join(chars), toks, errors, False, scanner.skipped, scanner.regions)
