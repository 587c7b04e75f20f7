"""Colour for diagnostics on a terminal, as rustc does; the plain text stays the source of
truth (tests compare it), this only decorates it."""
from __future__ import annotations

import re

from rich.console import Console
from rich.text import Text

_STYLES = [
    (re.compile(r"^(error)(\[\w+\])?(:)", re.M), "bold red"),
    (re.compile(r"^(warning)(\[\w+\])?(:)", re.M), "bold yellow"),
    (re.compile(r"^\s*(-->|\d+ \||\s+\||\s+= (note|help):)", re.M), "bold blue"),
    (re.compile(r"\^+[^\n]*"), "bold red"),
    (re.compile(r"(?<=\| )\s*-+[^\n]*"), "bold blue"),
]


def print_colored(text: str) -> None:
    rich_text = Text(text)
    for pattern, style in _STYLES:
        for m in pattern.finditer(text):
            rich_text.stylize(style, m.start(), m.end())
    Console(stderr=True, highlight=False, soft_wrap=True).print(rich_text, end="")
