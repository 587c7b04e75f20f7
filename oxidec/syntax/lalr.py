"""The LALR parser, put together from the stored tables (tables.py) and Lark's runtime.

`LalrParser(tables).parse(text, on_error)` behaves as `Lark(grammar, parser="lalr",
lexer="contextual", propagate_positions=True).parse(...)` does -- the same trees, tokens and
errors, and Lark's own parser state for error recovery (errors.py) -- but costs almost
nothing to set up, because everything is made when first needed:

- a state's row of actions is decoded when the parser first enters that state;
- a rule's tree-building callback is made at its first reduction;
- the lexer: Lark's contextual lexer compiles one regular expression per distinct set of
  terminals a state accepts (~300 here, ~50 used by a typical file, each a few hundred
  microseconds). Here one lexer over all terminals (Lark's "basic" lexer) reads each token,
  and only where the state does not accept the token it read does the contextual lexer of
  that state read it again. That gives the contextual lexer's tokens exactly: Lark's lexers
  take the first terminal that matches in one fixed order (priority, then length), so when
  the all-terminal lexer's choice is acceptable, no accepted terminal comes before it. The
  re-reads are rare: `>>` closing two generic argument lists, a keyword used as a name.
"""
from __future__ import annotations

import marshal
import re

from lark.common import LexerConf
from lark.exceptions import UnexpectedCharacters, UnexpectedToken
from lark.grammar import NonTerminal, Rule, RuleOptions, Terminal
from lark.lexer import Token, BasicLexer, ContextualLexer, LexerThread, PatternRE, PatternStr, TerminalDef
from lark.parse_tree_builder import ParseTreeBuilder
from lark.parsers.lalr_analysis import Reduce, Shift
from lark.parsers.lalr_parser import LALR_Parser, _Parser
from lark.tree import Tree

from .tables import START


class _ParseTable:
    """What Lark's parser reads of a parse table."""

    def __init__(self, states, start: int, end: int):
        self.states = states
        self.start_states = {START: start}
        self.end_states = {START: end}


class _States(dict):
    """state -> {symbol: (Shift, state) | (Reduce, rule)}, each row decoded on first use."""

    def __init__(self, rows: tuple, rule):
        super().__init__()
        self._rows = rows
        self._rule = rule

    def __missing__(self, state: int) -> dict:
        rule = self._rule
        row = {sym: (Shift, a) if a >= 0 else (Reduce, rule(~a))
               for sym, a in marshal.loads(self._rows[state]).items()}
        self[state] = row
        return row


class _Callbacks(dict):
    """rule -> the callback that builds its tree node, made at the rule's first reduction."""

    def __bool__(self) -> bool:  # Lark skips tree building when the callbacks are empty
        return True

    def __missing__(self, rule):
        if not isinstance(rule, Rule):
            raise KeyError(rule)
        builder = ParseTreeBuilder([rule], Tree, propagate_positions=True, ambiguous=False,
                                   maybe_placeholders=False)
        callback = builder.create_callback(None)[rule]
        self[rule] = callback
        return callback


class _StateLexers(dict):
    """state -> Lark's lexer of the terminals that state accepts, made on first use."""

    def __init__(self, conf: LexerConf, states: _States):
        super().__init__()
        self._conf = conf
        self._states = states
        self._by_accepts: dict[frozenset, BasicLexer] = {}

    def __missing__(self, state: int) -> BasicLexer:
        accepts = frozenset(self._states[state])
        lexer = self._by_accepts.get(accepts)
        if lexer is None:
            conf = self._conf
            names = accepts | set(conf.ignore)
            sub = LexerConf([t for t in conf.terminals if t.name in names], re, conf.ignore,
                            skip_validation=True)
            sub.terminals_by_name = conf.terminals_by_name
            lexer = self._by_accepts[accepts] = BasicLexer(sub)
        self[state] = lexer
        return lexer


class _Lexer(ContextualLexer):
    """Lark's contextual lexer, reading with the all-terminal lexer first (module docstring)."""

    def __init__(self, conf: LexerConf, states: _States):  # Lark's builds every state's lexer
        self.root_lexer = BasicLexer(conf)
        self.lexers = _StateLexers(conf, states)
        self._states = states

    def lex(self, lexer_state, parser_state):
        states = self._states
        root = self.root_lexer
        lc = lexer_state.line_ctr
        try:
            while True:
                saved = (lc.char_pos, lc.line, lc.column, lc.line_start_pos,
                         lexer_state.last_token)
                try:
                    token = root.next_token(lexer_state, parser_state)
                except UnexpectedCharacters:
                    token = None
                if token is None or token.type not in states[parser_state.position]:
                    lc.char_pos, lc.line, lc.column, lc.line_start_pos, \
                        lexer_state.last_token = saved
                    token = self.lexers[parser_state.position].next_token(lexer_state,
                                                                          parser_state)
                if token.type == "LT" and "CAST_LT" in states[parser_state.position]:
                    token.type = "CAST_LT"  # `x as Foo<T>`: rustc reads generics there too
                if token.type in _SPLIT and not _shifts(states, parser_state, token.type) \
                        and _shifts(states, parser_state, "GT"):
                    lc.char_pos, lc.line, lc.column, lc.line_start_pos, \
                        lexer_state.last_token = saved
                    token = _split_gt(lexer_state)
                yield token
        except EOFError:
            pass
        except UnexpectedCharacters as e:
            # as Lark's ContextualLexer: a terminal of another context is an unexpected token
            try:
                last_token = lexer_state.last_token
                token = root.next_token(lexer_state, parser_state)
                raise UnexpectedToken(token, e.allowed, state=parser_state,
                                      token_history=[last_token],
                                      terminals_by_name=root.terminals_by_name)
            except UnexpectedCharacters:
                raise e from None


# `>>`, `>=`, `>>=` whose first `>` closes a generic argument list (`W<W<W<u32>>>`): after
# the type `W<u32>` a `>>` may follow in a cast (`x as W<u32> >> 1`), so the state accepts it
# and the contextual lexer keeps it whole; rustc splits such a token when it needs a `>`.
_SPLIT = frozenset({"SHR", "SHREQ", "GE"})


def _shifts(states, parser_state, term: str) -> bool:
    """Whether the parser, after the reductions `term` causes, shifts it."""
    stack = list(parser_state.state_stack)
    while True:
        action = states[stack[-1]].get(term)
        if action is None:
            return False
        kind, arg = action
        if kind is Shift:
            return True
        if arg.expansion:
            del stack[-len(arg.expansion):]
        goto = states[stack[-1]].get(arg.origin.name)
        if goto is None:
            return False
        stack.append(goto[1])


def _split_gt(lexer_state) -> Token:
    """A `>` token for the first character at the lexer's position; the rest is read next."""
    lc = lexer_state.line_ctr
    tok = Token("GT", ">", lc.char_pos, lc.line, lc.column, lc.line, lc.column + 1,
                lc.char_pos + 1)
    lc.feed(">")
    lexer_state.last_token = tok
    return tok


def _terminal(row: tuple) -> TerminalDef:
    name, kind, value, flags, raw, priority, width = row
    if kind == "str":
        pattern = PatternStr(value, flags, raw)
    else:
        pattern = PatternRE(value, flags, raw)
        pattern._width = tuple(width)
    return TerminalDef(name, pattern, priority)


def _rule(row: tuple) -> Rule:
    origin, expansion, order, alias, keep_all, expand1, priority, template, empty = row
    symbols = [Terminal(name, filter_out) if is_term else NonTerminal(name)
               for name, is_term, filter_out in expansion]
    return Rule(NonTerminal(origin), symbols, order, alias,
                RuleOptions(keep_all, expand1, priority, template, empty))


class LalrParser:
    """The grammar's parser; `terminals` are Lark's TerminalDefs (errors.py shows them)."""

    def __init__(self, tables: dict):
        self.terminals = [_terminal(t) for t in tables["terminals"]]
        rule_rows = tables["rules"]
        rules: list[Rule | None] = [None] * len(rule_rows)

        def rule(i: int) -> Rule:
            r = rules[i]
            if r is None:
                r = rules[i] = _rule(rule_rows[i])
            return r

        self.states = _States(tables["states"], rule)
        table = _ParseTable(self.states, tables["start"], tables["end"])
        conf = LexerConf(self.terminals, re, tables["ignore"], skip_validation=True)
        self.lexer = _Lexer(conf, self.states)
        self._parser = LALR_Parser.__new__(LALR_Parser)
        self._parser._parse_table = table
        self._parser.parser = _Parser(table, _Callbacks())

    def parse(self, text: str, on_error=None) -> Tree:
        stream = LexerThread.from_text(self.lexer, text)
        if on_error is None:
            return self._parser.parse(stream, START)
        return self._parser.parse(stream, START, on_error=on_error)
