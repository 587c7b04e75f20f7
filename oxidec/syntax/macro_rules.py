"""`macro_rules!` by example, for macros invoked where an item may stand.

    macro_rules! tables {                      tables!(16, OPS16);
        ($n:expr, $name:ident) => {      ->    const OPS16: [u8; 16] = [0; 16];
            const $name: [u8; $n] = [0; $n];
        };
    }

The pre-scanner blanks a `macro_rules!` definition and every item-level `name!(..)` call
(both are host syntax to the grammar). After parsing, each such call whose macro the file
defines is matched against the macro's rules, in order, on the pre-scanner's tokens; the
first rule that matches is transcribed as text, and that text is parsed as items of its own
file (named after the call, so diagnostics point into the expansion) which take the call's
place in its module. An expansion may call macros again (up to MAX_DEPTH deep).

Matchers: literal tokens, `$x:frag` (`ident`, `lifetime`, `literal`, `tt`, `block`, and
`expr`, `ty`, `path`, `pat`, `pat_param`, `stmt`, `item`, `vis`, which take token trees up to
the token that follows them in the matcher, or, for `expr`, the first `,` / `;` / `=>`), and
repetitions `$( .. ) sep? op` with `*`, `+` or `?`. Hygiene is not modelled: names in an
expansion are the caller's names, which is what item macros (the kind expanded here) need.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .prescan import IDENT, LIFETIME, LITERAL, PUNCT, Tok, match_delimiters, tokenize

MAX_DEPTH = 16
_OPEN = {"(": ")", "[": "]", "{": "}"}
_EXPR_ENDS = (",", ";")
_GREEDY = ("expr", "ty", "path", "pat", "pat_param", "stmt", "item", "vis")


class MacroError(Exception):
    """A call no rule matches, or a malformed definition: (message, offset in the text)."""

    def __init__(self, message: str, at: int):
        super().__init__(message)
        self.at = at


@dataclass
class _Frag:
    name: str
    kind: str


@dataclass
class _Rep:
    body: list            # matcher or transcriber elements
    sep: str | None
    op: str


@dataclass
class _Bindings:
    one: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> (start, end)
    many: dict[str, list["_Bindings"]] = field(default_factory=dict)  # rep -> iterations


@dataclass
class MacroDef:
    name: str
    text: str  # the source the offsets below index
    rules: list[tuple[list, list]]  # (matcher, transcriber) of token elements


class _Trees:
    """Tokens of one text with their delimiter pairs."""

    def __init__(self, text: str, toks: list[Tok]):
        self.text, self.toks = text, toks
        self.pairs, _ = match_delimiters(toks)

    def tree_end(self, i: int) -> int:
        """Index just past the token tree starting at i."""
        t = self.toks[i]
        if t.kind == PUNCT and t.text in _OPEN:
            return self.pairs.get(i, len(self.toks) - 1) + 1
        return i + 1

    def is_p(self, i: int, ch: str) -> bool:
        return i < len(self.toks) and self.toks[i].kind == PUNCT and self.toks[i].text == ch


def parse_definition(name: str, text: str) -> MacroDef:
    """`macro_rules! name { (matcher) => { transcriber }; ... }` from its source text."""
    toks, _, errors, fatal = tokenize(text)
    if fatal or errors:
        raise MacroError(f"cannot read the definition of `{name}!`", 0)
    tr = _Trees(text, toks)
    i = next((k for k, t in enumerate(toks) if t.kind == PUNCT and t.text in _OPEN), None)
    if i is None:
        raise MacroError(f"`macro_rules! {name}` has no body", 0)
    end = tr.pairs.get(i, len(toks) - 1)
    i += 1
    rules = []
    while i < end:
        if tr.is_p(i, ";"):
            i += 1
            continue
        if not (toks[i].kind == PUNCT and toks[i].text in _OPEN):
            raise MacroError(f"expected a matcher in `macro_rules! {name}`", toks[i].start)
        m_end = tr.pairs[i]
        matcher = _elements(tr, i + 1, m_end, matcher=True)
        i = m_end + 1
        if not (tr.is_p(i, "=") and tr.is_p(i + 1, ">")):
            raise MacroError(f"expected `=>` in `macro_rules! {name}`", toks[min(i, end)].start)
        i += 2
        if not (i < end and toks[i].kind == PUNCT and toks[i].text in _OPEN):
            raise MacroError(f"expected a transcriber in `macro_rules! {name}`",
                             toks[min(i, end)].start)
        t_end = tr.pairs[i]
        rules.append((matcher, _elements(tr, i + 1, t_end, matcher=False)))
        i = t_end + 1
    return MacroDef(name, text, rules)


def _elements(tr: _Trees, i: int, end: int, matcher: bool) -> list:
    """Tokens (as indices), `_Frag`s and `_Rep`s of toks[i:end]."""
    out: list = []
    toks = tr.toks
    while i < end:
        t = toks[i]
        if t.kind == PUNCT and t.text == "$" and i + 1 < end:
            nxt = toks[i + 1]
            if nxt.kind == PUNCT and nxt.text == "(":
                close = tr.pairs[i + 1]
                body = _elements(tr, i + 2, close, matcher)
                j = close + 1
                sep = None
                if j < end and not (toks[j].kind == PUNCT and toks[j].text in "*+?"):
                    sep, j = toks[j].text, j + 1
                if not (j < end and toks[j].kind == PUNCT and toks[j].text in "*+?"):
                    raise MacroError("expected `*`, `+` or `?` after a repetition", t.start)
                out.append(_Rep(body, sep, toks[j].text))
                i = j + 1
                continue
            if nxt.kind == IDENT:
                if matcher and tr.is_p(i + 2, ":") and i + 3 < end:
                    out.append(_Frag(nxt.text, toks[i + 3].text))
                    i += 4
                else:
                    out.append(_Frag(nxt.text, ""))
                    i += 2
                continue
        out.append(i)
        i += 1
    return out


# ---------------------------------------------------------------------------
# matching

def match_call(d: MacroDef, text: str, toks: list[Tok], at: int) -> tuple[list, _Bindings]:
    """The transcriber and bindings of the first rule of `d` matching all of toks."""
    tr = _Trees(text, toks)
    defs = _Trees(d.text, tokenize(d.text)[0])
    for matcher, transcriber in d.rules:
        b = _Bindings()
        if _match(matcher, defs, tr, 0, len(toks), b) == len(toks):
            return transcriber, b
    raise MacroError(f"no rules expected this token in macro call of `{d.name}!`", at)


def _match(elems: list, defs: _Trees, tr: _Trees, i: int, end: int, b: _Bindings):
    """Index after matching elems from toks[i], or None."""
    for k, el in enumerate(elems):
        if isinstance(el, int):
            want = defs.toks[el]
            if i >= end or tr.toks[i].text != want.text \
                    or _joint(defs, el) != _joint(tr, i):  # `=` is not the `=` of `=>`
                return None
            i += 1
        elif isinstance(el, _Frag):
            j = _fragment(el.kind, tr, i, end, _follow(elems, k + 1, defs))
            if j is None:
                return None
            b.one[el.name] = (tr.toks[i].start, tr.toks[j - 1].end) if j > i else (0, 0)
            i = j
        else:
            runs = []
            while i < end:
                if runs and el.sep is not None:
                    if tr.toks[i].text != el.sep:
                        break
                    start = i + 1
                else:
                    start = i
                sub = _Bindings()
                j = _match(el.body, defs, tr, start, end, sub)
                if j is None or j == start:
                    break
                runs.append(sub)
                i = j
                if el.op == "?":
                    break
            if el.op == "+" and not runs:
                return None
            for name in _names(el.body):
                b.many[name] = runs
    return i


_COMPOUND = frozenset({"=>", "==", "!=", "<=", ">=", "->", "::", "&&", "||", "..", "+=", "-=",
                       "*=", "/=", "%=", "^=", "&=", "|=", "<<", ">>"})


def _joint(tr: _Trees, i: int) -> bool:
    """Whether token i and the next form one operator (`=>`, `::`): Rust's lexer reads them
    as one token, so a matcher's lone `=` does not match the first half of `=>`."""
    toks = tr.toks
    if i + 1 >= len(toks) or toks[i].kind != PUNCT or toks[i + 1].kind != PUNCT \
            or toks[i].end != toks[i + 1].start:
        return False
    return toks[i].text + toks[i + 1].text in _COMPOUND


def _follow(elems: list, k: int, defs: _Trees) -> str | None:
    """The literal token text that follows position k of a matcher, if one does."""
    if k < len(elems) and isinstance(elems[k], int):
        return defs.toks[elems[k]].text
    if k < len(elems) and isinstance(elems[k], _Rep) and elems[k].body \
            and isinstance(elems[k].body[0], int):
        return defs.toks[elems[k].body[0]].text
    return None


def _fragment(kind: str, tr: _Trees, i: int, end: int, follow: str | None) -> int | None:
    if i >= end:
        return None
    t = tr.toks[i]
    if kind == "ident":
        return i + 1 if t.kind == IDENT else None
    if kind == "lifetime":
        return i + 1 if t.kind == LIFETIME else None
    if kind == "literal":
        if t.kind == PUNCT and t.text == "-" and i + 1 < end and tr.toks[i + 1].kind == LITERAL:
            return i + 2
        return i + 1 if t.kind == LITERAL or t.text in ("true", "false") else None
    if kind == "tt":
        return tr.tree_end(i)
    if kind == "block":
        return tr.tree_end(i) if t.kind == PUNCT and t.text == "{" else None
    if kind not in _GREEDY:
        return None
    angle = 0
    j = i
    while j < end:
        u = tr.toks[j]
        if u.kind == PUNCT and angle == 0 and (u.text == follow or (
                kind == "expr" and u.text in _EXPR_ENDS)):
            break
        if kind == "expr" and u.text == "=" and tr.is_p(j + 1, ">") and angle == 0:
            break
        if kind in ("ty", "path") and u.kind == PUNCT:
            angle += {"<": 1, ">": -1}.get(u.text, 0)
        j = tr.tree_end(j)
    return j if j > i else None


def _names(elems: list) -> list[str]:
    out = []
    for el in elems:
        if isinstance(el, _Frag):
            out.append(el.name)
        elif isinstance(el, _Rep):
            out += _names(el.body)
    return out


# ---------------------------------------------------------------------------
# transcription

def transcribe(d: MacroDef, elems: list, b: _Bindings, call_text: str) -> str:
    """The expansion as source text: the transcriber's own text between its tokens (so
    spacing and line breaks survive), each `$x` replaced by the text it matched."""
    defs = _Trees(d.text, tokenize(d.text)[0])
    out: list[str] = []
    _emit(elems, defs, b, call_text, out)
    return "".join(out)


def _emit(elems: list, defs: _Trees, b: _Bindings, call_text: str, out: list[str]) -> None:
    for el in elems:
        if isinstance(el, int):
            t = defs.toks[el]
            out.append(_gap_before(defs, el) + t.text)
        elif isinstance(el, _Frag):
            if el.name == "crate":
                out.append(" crate")
            elif el.name in b.one:
                s, e = b.one[el.name]
                out.append(" " + call_text[s:e])
            else:
                raise MacroError(f"`${el.name}` is not bound here", 0)
        else:
            names = [n for n in _names(el.body) if n in b.many]
            if not names:
                raise MacroError("a repetition in the transcriber uses no repeated variable",
                                 0)
            runs = b.many[names[0]]
            for r, sub in enumerate(runs):
                if r and el.sep is not None:
                    out.append(el.sep)
                inner = _Bindings(dict(b.one), dict(b.many))
                inner.one.update(sub.one)
                inner.many.update(sub.many)
                _emit(el.body, defs, inner, call_text, out)


def _gap_before(defs: _Trees, k: int) -> str:
    """What separated token k from the one before it in the transcriber: its white space
    (so lines stay lines), one space for a comment, nothing when they touched."""
    if k == 0:
        return " "
    gap = defs.text[defs.toks[k - 1].end:defs.toks[k].start]
    return gap if not gap.strip() else " "


# ---------------------------------------------------------------------------
# expansion in a parsed unit

def blank_macro_args(toks: list[Tok], pairs: dict[int, int], chars: list[str]) -> None:
    """A call of a `macro_rules!` of this file takes any tokens (`bump!(x by 2)`), not only
    expressions: the parser sees `name!( )` (its delimiters made parentheses), and the
    expansion (parser.py) reads the call's text from the source itself."""
    names = {toks[i + 2].text for i in range(len(toks) - 2) if toks[i].text == "macro_rules"
             and toks[i + 1].text == "!" and toks[i + 2].kind == IDENT}
    for i in range(1, len(toks) - 2):
        t = toks[i]
        if t.kind != IDENT or t.text not in names or toks[i + 1].text != "!" \
                or toks[i - 1].text == "!" or toks[i + 2].text not in "([{" \
                or i + 2 not in pairs:
            continue
        open_i, close_i = i + 2, pairs[i + 2]
        start, end = toks[open_i].start, toks[close_i].start
        for p in range(start + 1, end):
            if chars[p] != "\n":
                chars[p] = " "
        chars[start], chars[end] = "(", ")"



def definitions(text: str, skipped: dict) -> dict[str, "MacroDef | MacroError"]:
    """The file's `macro_rules!` definitions (the pre-scanner's blanked items), by name."""
    out: dict = {}
    for info in skipped.values():
        if info.kind == "macro_rules" and info.name:
            try:
                out[info.name] = parse_definition(info.name, text[info.start:info.end])
            except MacroError as err:
                err.at += info.start
                out[info.name] = err
    return out


def expand_call(d: MacroDef, call_text: str) -> str:
    """The expansion of one item-level call `name!(..);` (its whole source text)."""
    toks, _, errors, fatal = tokenize(call_text)
    if fatal or errors:
        raise MacroError(f"cannot read this call of `{d.name}!`", 0)
    tr = _Trees(call_text, toks)
    i = next((k for k, t in enumerate(toks) if t.kind == PUNCT and t.text in _OPEN), None)
    if i is None:
        raise MacroError(f"expected `(`, `[` or `{{` after `{d.name}!`", 0)
    close = tr.pairs.get(i, len(toks) - 1)
    args = toks[i + 1:close]
    transcriber, b = match_call(d, call_text, args, toks[i].start)
    return transcribe(d, transcriber, b, call_text)
