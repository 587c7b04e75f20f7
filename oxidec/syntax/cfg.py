"""`#[cfg(..)]` predicates, evaluated as rustc evaluates them for the GPU target.

oxidec builds device code, so the configuration is rustc's for `nvptx64-nvidia-cuda`
(`rustc --print cfg --target nvptx64-nvidia-cuda`) in the release profile oxidec's
semantics follow: `target_arch = "nvptx64"`, `target_os = "cuda"`, ... hold;
`debug_assertions` does not (overflow wraps), and no Cargo feature is enabled (a
single-file build has no Cargo.toml to enable one). An unknown name or value is false, as
in rustc (which only warns about it). Items and statements whose predicate is false are
removed before anything else sees them (prescan.py for items, transform.py for statements).

    cfg(target_arch = "nvptx64")               true
    cfg(not(feature = "host-only"))            true
    cfg(any(test, all(target_os = "cuda")))    true
"""
from __future__ import annotations

import re

# name -> the values it has (a name set without a value maps to {None})
TARGET_CFG: dict[str, frozenset] = {
    "target_arch": frozenset({"nvptx64"}),
    "target_os": frozenset({"cuda"}),
    "target_vendor": frozenset({"nvidia"}),
    "target_env": frozenset({""}),
    "target_abi": frozenset({""}),
    "target_endian": frozenset({"little"}),
    "target_pointer_width": frozenset({"64"}),
    "target_has_atomic": frozenset({"8", "16", "32", "64", "ptr"}),
    "panic": frozenset({"abort"}),
}

_TOKEN = re.compile(r'\s*(?:(?P<str>"(?:[^"\\]|\\.)*")|(?P<ident>[A-Za-z_][A-Za-z0-9_]*)'
                    r'|(?P<num>[0-9][0-9A-Za-z_.]*)|(?P<punct>[(),=]))')


class CfgSyntaxError(ValueError):
    """A predicate rustc would reject: `malformed cfg attribute input`."""


def cfg_holds(predicate: str) -> bool:
    """The value of the text inside `cfg( .. )`; CfgSyntaxError if it is malformed."""
    toks = _tokens(predicate)
    pos, value = _predicate(toks, 0)
    if pos != len(toks):
        raise CfgSyntaxError(f"unexpected `{toks[pos][1]}` in `cfg` predicate")
    return value


def _tokens(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise CfgSyntaxError(f"unexpected `{text[pos:].strip()[:1]}` in `cfg` predicate")
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    return out


def _predicate(toks: list[tuple[str, str]], pos: int) -> tuple[int, bool]:
    if pos >= len(toks) or toks[pos][0] != "ident":
        raise CfgSyntaxError("expected a `cfg` predicate")
    name = toks[pos][1]
    pos += 1
    if name in ("all", "any", "not") and pos < len(toks) and toks[pos][1] == "(":
        args, pos = _list(toks, pos + 1)
        if name == "not":
            if len(args) != 1:
                raise CfgSyntaxError("`not` takes exactly one predicate")
            return pos, not args[0]
        return pos, all(args) if name == "all" else any(args)
    if pos < len(toks) and toks[pos][1] == "=":
        if pos + 1 >= len(toks) or toks[pos + 1][0] != "str":
            raise CfgSyntaxError("expected a string literal after `=`")
        value = toks[pos + 1][1][1:-1]
        return pos + 2, value in TARGET_CFG.get(name, frozenset())
    if name in ("true", "false"):
        return pos, name == "true"
    return pos, None in TARGET_CFG.get(name, frozenset())


def _list(toks: list[tuple[str, str]], pos: int) -> tuple[list[bool], int]:
    values: list[bool] = []
    while pos < len(toks) and toks[pos][1] != ")":
        pos, v = _predicate(toks, pos)
        values.append(v)
        if pos < len(toks) and toks[pos][1] == ",":
            pos += 1
        elif pos >= len(toks) or toks[pos][1] != ")":
            raise CfgSyntaxError("expected `,` or `)` in `cfg` predicate")
    if pos >= len(toks):
        raise CfgSyntaxError("unclosed `(` in `cfg` predicate")
    return values, pos + 1
