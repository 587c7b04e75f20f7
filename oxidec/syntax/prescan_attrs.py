"""Outer attributes as the pre-scanner reads them: which ones make a `fn` device code,
which a host `fn` may carry, and `#[cfg(..)]`, which removes an item before anything
else sees it (cfg.py says what holds)."""
from __future__ import annotations

from .cfg import CfgSyntaxError, cfg_holds

DEVICE_ATTRS = frozenset({"kernel", "device"})
# Attributes a host `fn` may carry: Rust's built-in ones and oxidec's. A host fn with any other
# plain (one-word) attribute goes to the parser, so that resolve reports it: `#[kernal]` on a
# kernel must not turn the kernel into host code that silently vanishes. Path attributes
# (`tokio::main`, `rustfmt::skip`) belong to host crates and are left alone.
HOST_FN_ATTRS = frozenset({
    "allow", "warn", "deny", "forbid", "expect", "cfg", "cfg_attr", "doc", "inline", "cold",
    "must_use", "deprecated", "test", "ignore", "should_panic", "bench", "no_mangle",
    "export_name", "link_section", "track_caller", "target_feature", "naked", "used",
    "instruction_set", "no_builtins", "automatically_derived", "proc_macro",
    "proc_macro_attribute", "proc_macro_derive", "launch_bounds", "launch_contract", "cluster_launch",
    "cooperative_launch", "cuda_module", "unroll", "derive", "repr", "constant", "diagnostic",
    "coverage", "optimize", "rustfmt", "clippy", "main", "start", "unsafe", "export",
    "custom_mir",  # rustc's MIR dialect: never device code here (resolve/attrs.py says why)
})


def configured_out(scanner, attr_i: int, item_i: int) -> bool:
    """Whether one of the attributes in tokens[attr_i:item_i] is a `#[cfg(P)]` whose P is
    false. A malformed P keeps the item: resolve reports it there."""
    i = attr_i
    while i < item_i:
        close = scanner.pairs.get(i + 1, i + 1)  # the `]` of `#[`
        if scanner.attr_name(i + 1) == "cfg" and scanner.is_punct(i + 3, "("):
            paren = scanner.pairs[i + 3]
            text = scanner.text[scanner.toks[i + 3].end:scanner.toks[paren].start]
            try:
                if not cfg_holds(text):
                    return True
            except CfgSyntaxError:
                pass
        i = close + 1
    return False


def strip_item(scanner, attr_i: int, end_i: int) -> None:
    """Blank tokens[attr_i:end_i + 1] (an item and its attributes) and forget the host
    items recorded inside it."""
    start, end = scanner.toks[attr_i].start, scanner.toks[end_i].end
    for pos in [p for p in scanner.skipped if start <= p < end]:
        del scanner.skipped[pos]
    scanner.regions[:] = [r for r in scanner.regions if not start <= r.attr_start < end]
    scanner.blank.append((start, end))
