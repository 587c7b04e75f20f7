"""Lark's parse errors -> rustc-style diagnostics, and the recovery that lets one
parse report several.

Messages read as rustc's do: ``expected one of `)` or `,`, found `;` ``,
``expected expression, found `)` ``, ``expected identifier, found keyword `fn` ``; the
label says what was expected. Lark's terminal names (SEMICOLON, __ANON_3, IDENT) are
mapped to the token text users know.

Recovery: after an error the parser's stacks are cut back to the innermost block's
statement list (or, outside any block, to the item list) and the input is skipped to
the end of the statement (the next `;` at that block's depth, or its `}`) or of the
item. The pre-scanner's delimiter matching and item boundaries make that exact.
"""
from __future__ import annotations

import bisect

from .lark_runtime import install

install()  # before the first import of Lark (lark_runtime.py)

from lark.lexer import Token
from lark.tree import Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.parsers.lalr_analysis import Shift

from ..diagnostics import DiagnosticSink, Label
from ..span import SourceFile, Span
from .prescan import CLOSE, KEYWORDS, OPEN, PUNCT, Prescan

SYNTAX = "OX0001"
UNSUPPORTED = "OX0002"
MAX_ERRORS = 20

_COMPARISONS = frozenset({"EQEQ", "NE", "LT", "LE", "GT", "GE"})

# folded into "an operator" when several of them are expected at once
_OPERATORS = frozenset("""
    PLUS MINUS STAR SLASH PERCENT SHL SHR AMP PIPE CARET EQEQ NE LT LE GT GE ANDAND OROR
    EQ PLUSEQ MINUSEQ STAREQ SLASHEQ PERCENTEQ AMPEQ PIPEEQ CARETEQ SHLEQ SHREQ AS
    DOTDOT DOTDOTEQ
""".split())
_REGEX_NAMES = {"IDENT": "identifier", "LABEL": "label", "INT": "integer literal",
                "FLOAT": "float literal", "STRING": "string literal", "CHAR": "char literal",
                "HOST_ITEM": "item", "LET_ELSE": "`else`", "CAST_LT": "`<`", "$END": "end of file"}


class ErrorReporter:
    """Turns Lark exceptions into diagnostics and steers the parser past them."""

    def __init__(self, file: SourceFile, sink: DiagnosticSink, pre: Prescan, terminals):
        self.file = file
        self.sink = sink
        self.pre = pre
        self.count = 0
        self.token_text = {t.name: t.pattern.value for t in terminals
                           if t.pattern.type == "str"}
        self._tok_starts = [t.start for t in pre.tokens]
        self._parents = _parents(pre)
        self._recovered_at: set[tuple[int, int]] = set()

    # -- messages -------------------------------------------------------------

    def show(self, name: str) -> str:
        if name == "LET_ELSE":  # its pattern carries prescan's invisible mark
            return _REGEX_NAMES[name]
        if name in self.token_text:
            return f"`{self.token_text[name]}`"
        return _REGEX_NAMES.get(name, name)

    def found(self, tok: Token) -> str:
        if tok.type == "HOST_ITEM":
            src = self.source_token(tok.start_pos)
            text = src.text if src else "item"
        else:
            text = str(tok.value)
        if text in KEYWORDS:
            return f"keyword `{text}`"
        return f"`{text}`"

    def source_token(self, pos: int):
        i = bisect.bisect_left(self._tok_starts, pos)
        if i < len(self.pre.tokens) and self.pre.tokens[i].start == pos:
            return self.pre.tokens[i]
        return None

    def expectation(self, expected: set[str]) -> tuple[str, str]:
        """(what the message says was expected, the label)."""
        if "HOST_ITEM" in expected:
            if "RBRACE" in expected or "$END" in expected:
                return "item", "expected item"
            return "item after attributes", "expected item"
        if "INT" in expected and "REF" in expected:
            return "pattern", "expected pattern"
        if "INT" in expected and "LPAR" in expected and "UNDERSCORE" not in expected:
            return "expression", "expected expression"
        if "IDENT" in expected and "UNDERSCORE" in expected and "AMP" in expected:
            return "type", "expected type"
        if expected == {"IDENT"}:
            return "identifier", "expected identifier"
        names = set(expected)
        operators = names & _OPERATORS
        shown = sorted({self.show(n) for n in names - operators} if len(operators) >= 4
                       else {self.show(n) for n in names})
        if len(operators) >= 4:
            shown.append("an operator")
        if len(shown) == 1:
            return shown[0], f"expected {shown[0]}"
        if len(shown) > 12:
            return "", "unexpected token"
        listed = (f"{shown[0]} or {shown[1]}" if len(shown) == 2
                  else ", ".join(shown[:-1]) + f", or {shown[-1]}")
        return f"one of {listed}", f"expected one of {len(shown)} possible tokens"

    def report(self, e: UnexpectedInput) -> None:
        self.count += 1
        if isinstance(e, UnexpectedToken):
            tok = e.token
            expected = (_accepts(e.interactive_parser.parser_state) if e.interactive_parser
                        else set(e.expected)) or set(e.expected)
            if self.report_unsupported(e, tok, expected):
                return
            what, label = self.expectation(expected)
            if tok.type == "$END":
                end = _last_code_offset(self.pre.text)
                span = Span(self.file, end, end)
                self.sink.error(SYNTAX, "unexpected end of file", span, label)
                return
            span = Span(self.file, tok.start_pos, tok.end_pos)
            if tok.type == "HOST_ITEM":
                src = self.source_token(tok.start_pos)
                if src is not None:
                    span = Span(self.file, src.start, src.end)
            found = self.found(tok)
            if "SEMICOLON" in expected and self.missing_semicolon(span, found):
                return
            message = f"expected {what}, found {found}" if what else f"unexpected token {found}"
            self.sink.error(SYNTAX, message, span, label)
            return
        assert isinstance(e, UnexpectedCharacters)
        pos = e.pos_in_stream
        src = self.source_token(pos)
        end = src.end if src is not None else pos + 1
        text = self.file.text[pos:end]
        span = Span(self.file, pos, end)
        if text == "?":
            self.sink.error(UNSUPPORTED, "the `?` operator is not supported in kernel code",
                            span, "not supported in kernel code")
            return
        expected = _accepts(e.interactive_parser.parser_state) if e.interactive_parser else None
        what, label = self.expectation(expected or set(e.allowed or ()))
        message = f"expected {what}, found `{text}`" if what else f"unexpected token `{text}`"
        self.sink.error(SYNTAX, message, span, label)

    def missing_semicolon(self, span: Span, found: str) -> bool:
        """rustc's reading of a token on a later line where `;` could end the statement: the
        `;` is missing after the previous token (reported there, with the fix)."""
        i = bisect.bisect_left(self._tok_starts, span.start)
        if i == 0:
            return False
        prev_end = self.pre.tokens[i - 1].end
        if self.file.line_col(prev_end)[0] >= span.line:
            return False
        self.sink.error(SYNTAX, f"expected `;`, found {found}", Span(self.file, prev_end, prev_end),
                        "help: add `;` here", labels=[Label(span, "unexpected token")])
        return True

    def report_unsupported(self, e: UnexpectedToken, tok: Token, expected: set[str]) -> bool:
        """Rust that is valid but not kernel code, or a mistake rustc words specially."""
        span = Span(self.file, tok.start_pos, tok.end_pos)
        if tok.type == "LABEL" and "LABEL" not in expected:
            self.sink.error(UNSUPPORTED, "lifetimes are not supported in kernel code", span,
                            "lifetime")
            return True
        if tok.type in ("PIPE", "OROR") and "INT" in expected and "LPAR" in expected:
            self.sink.error(UNSUPPORTED, "closures are not supported in kernel code", span,
                            "closure")
            return True
        values = e.interactive_parser.parser_state.value_stack if e.interactive_parser else []
        if self.cast_generics_misread(values):
            return True
        if tok.type in _COMPARISONS and len(values) >= 2 and isinstance(values[-2], Token) \
                and values[-2].type in _COMPARISONS:
            first = values[-2]
            self.sink.error(SYNTAX, "comparison operators cannot be chained", span, "",
                            labels=[Label(Span(self.file, first.start_pos, first.end_pos))],
                            help="split the comparison into two, joined by `&&`")
            return True
        return False

    def cast_generics_misread(self, values: list) -> bool:
        """`x as u32 < y`: the `<` opened generic arguments (rustc reads it so too), and
        the list never closed; rustc's message, pointing at that `<`."""
        at = next((i for i in range(len(values) - 1, 0, -1) if isinstance(values[i], Token)
                   and values[i].type == "CAST_LT"), None)
        if at is None or not isinstance(values[at - 1], Token):
            return False
        lt, name = values[at], values[at - 1].value
        self.sink.error(SYNTAX, f"`<` is interpreted as a start of generic arguments for "
                        f"`{name}`, not a comparison", Span(self.file, lt.start_pos, lt.end_pos),
                        "not interpreted as comparison",
                        help=f"put the cast in parentheses to compare its value: "
                             f"`(.. as {name}) < ..`")
        return True

    # -- recovery -------------------------------------------------------------

    def on_error(self, e: UnexpectedInput) -> bool:
        """Lark's `on_error` hook: report, then return True to go on parsing."""
        self.report(e)
        if self.count >= MAX_ERRORS:
            return False
        ip = e.interactive_parser
        ps = ip.parser_state
        table = ps.parse_conf.parse_table.states
        if isinstance(e, UnexpectedToken) and e.token.type == "$END":
            # an incomplete last item (delimiters balance, so only a top-level one): drop it
            # and let the parse end with what came before
            while len(ps.state_stack) > 1 and _list_kind(table[ps.state_stack[-1]]) != "items":
                ps.state_stack.pop()
                ps.value_stack.pop()
            key = (len(self.pre.text), ps.state_stack[-1])
            if key in self._recovered_at:
                return False
            self._recovered_at.add(key)
            return True
        pos = e.token.start_pos if isinstance(e, UnexpectedToken) else e.pos_in_stream
        # keep what is complete: if a statement or an item could end here, end it
        for fake in ("LET", "HOST_ITEM"):
            done = _reduce_before(ps, fake)
            if done is not None and (fake == "HOST_ITEM"
                                     or self.inside_open_brace(done.value_stack, pos)):
                ps.state_stack[:] = done.state_stack
                ps.value_stack[:] = done.value_stack
                break
        # cut back to the statement list or item list that the error lies in
        kind = None
        while len(ps.state_stack) > 1:
            kind = _list_kind(table[ps.state_stack[-1]])
            if kind == "items" or kind is not None and self.inside_open_brace(ps.value_stack, pos):
                break
            ps.state_stack.pop()
            ps.value_stack.pop()
            kind = None
        if kind == "stmts":
            resume = self.statement_end(ps.value_stack, pos)
        else:
            resume = self.item_end(pos)
            if kind == "mod" and resume is not None:  # never past the `mod`'s own `}`
                resume = min(resume, self.close_of(_top_brace(ps.value_stack)))
        if resume is None:
            return False
        key = (resume, ps.state_stack[-1])
        if key in self._recovered_at:
            return False  # no progress: give up rather than loop
        self._recovered_at.add(key)
        _move_lexer(ip, self.pre.text, resume)
        return True

    def close_of(self, brace: Token) -> int:
        """Offset of the `}` matching the `{` token brace."""
        return self.pre.tokens[self._parents.close[self.token_index(brace.start_pos)]].start

    def inside_open_brace(self, values: list, pos: int) -> bool:
        """Whether pos lies within the block or `mod` body whose `{` is topmost on the stack
        (the parser may stand just after that body's `}`, not yet having reduced it)."""
        brace = _top_brace(values)
        open_i = self.token_index(brace.start_pos) if brace is not None else None
        if open_i is None or open_i not in self._parents.close:
            return False
        return pos <= self.pre.tokens[self._parents.close[open_i]].start

    def statement_end(self, values: list, pos: int) -> int | None:
        """Where to go on after an error at pos inside the block whose `{` is on the stack."""
        brace = _top_brace(values)
        if brace is None:
            return None
        open_i = self.token_index(brace.start_pos)
        if open_i is None:
            return None
        toks = self.pre.tokens
        close_i = self._parents.close[open_i]
        i = max(bisect.bisect_left(self._tok_starts, pos), open_i + 1)
        while i < close_i:
            if self._parents.parent[i] == open_i and toks[i].text == ";" \
                    and toks[i].kind == PUNCT:
                return toks[i].end
            i += 1
        return toks[close_i].start

    def item_end(self, pos: int) -> int | None:
        """Where to go on after an error at pos outside any block: the next item."""
        inside = [r for r in self.pre.regions if r.attr_start <= pos < r.end]
        best = min(inside, key=lambda r: r.end - r.attr_start, default=None)
        if best is None:
            return None
        if pos == best.attr_start and best.is_item:
            return pos  # the error is at the item's first token: parse it afresh
        return best.end

    def token_index(self, pos: int) -> int | None:
        i = bisect.bisect_left(self._tok_starts, pos)
        if i < len(self.pre.tokens) and self.pre.tokens[i].start == pos:
            return i
        return None


class _Parents:
    def __init__(self, parent: list[int], close: dict[int, int]):
        self.parent = parent  # token index -> index of its innermost open delimiter (-1)
        self.close = close  # open delimiter index -> its close index


def _parents(pre: Prescan) -> _Parents:
    parent: list[int] = []
    close: dict[int, int] = {}
    stack: list[int] = []
    for i, t in enumerate(pre.tokens):
        if t.kind == PUNCT and t.text in CLOSE and stack:
            o = stack.pop()
            close[o] = i
        parent.append(stack[-1] if stack else -1)
        if t.kind == PUNCT and t.text in OPEN:
            stack.append(i)
    return _Parents(parent, close)


def _trial_copy(ps):
    """A copy of the parser state that trial tokens can be fed to. Lark's reductions
    extend the children list of a tree on the value stack in place (the `x*` rules), so
    those lists are copied; deeper trees are never touched."""
    trial = ps.copy(deepcopy_values=False)
    trial.value_stack[:] = [Tree(v.data, list(v.children), v.meta) if isinstance(v, Tree) else v
                            for v in trial.value_stack]
    return trial


def _accepts(ps) -> set[str]:
    """The terminals the parser can take next: Lark's `accepts()`, without deep copies."""
    out = set()
    for name in ps.parse_conf.states[ps.position]:
        if name.isupper():
            trial = _trial_copy(ps)
            try:
                trial.feed_token(Token(name, ""), is_end=name == "$END")
            except UnexpectedInput:
                continue
            out.add(name)
    return out


def _reduce_before(ps, name: str):
    """A copy of the parser state reduced as it would be before a `name` token (a `let`
    to end a statement, a HOST_ITEM to end an item), or None if `name` cannot come next."""
    trial = _trial_copy(ps)
    try:
        trial.feed_token(Token(name, ""))
    except UnexpectedInput:
        return None
    trial.state_stack.pop()
    trial.value_stack.pop()
    return trial


def _list_kind(actions: dict) -> str | None:
    """"stmts" in a block's statement list, "mod" in a `mod` body's item list, "items"
    in the file's item list, else None. Only shifts count: a state about to reduce
    lists every token that may follow it."""
    def shifts(name: str) -> bool:
        return name in actions and actions[name][0] is Shift
    if shifts("LET") and shifts("RBRACE"):
        return "stmts"
    if shifts("HOST_ITEM") and shifts("RBRACE"):
        return "mod"
    if shifts("HOST_ITEM") and "$END" in actions:
        return "items"
    return None


def _top_brace(values: list) -> Token | None:
    return next((v for v in reversed(values) if isinstance(v, Token) and v.type == "LBRACE"),
                None)


def _move_lexer(ip, text: str, pos: int) -> None:
    """Point the interactive parser's lexer at offset pos (forward or back)."""
    lc = ip.lexer_thread.state.line_ctr
    line_start = text.rfind("\n", 0, pos) + 1
    lc.char_pos = pos
    lc.line = text.count("\n", 0, pos) + 1
    lc.column = pos - line_start + 1
    lc.line_start_pos = line_start


def _last_code_offset(text: str) -> int:
    """Just past the last non-blank character: where an unexpected EOF is shown."""
    return len(text.rstrip(" \t\r\n\f\v\x01"))
