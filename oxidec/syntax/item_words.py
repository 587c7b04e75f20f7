"""The word tables prescan.py sorts items by: which qualifiers come before `fn`, which words
only host code holds, which attributes a host `fn` may carry."""

_FN_QUALIFIERS = frozenset({"const", "async", "unsafe", "extern", "default", "safe"})  # `.. fn`
# tokens that only host code has: a const/static/struct holding one is host code
_HOST_ONLY_WORDS = frozenset({"dyn", "impl", "where", "move", "async", "await"})
_DEVICE_ATTRS = frozenset({"kernel", "device"})
# Attributes a host `fn` may carry: Rust's built-in ones and oxidec's. A host fn with any other
# plain (one-word) attribute goes to the parser, so that resolve reports it: `#[kernal]` on a
# kernel must not turn the kernel into host code that silently vanishes. Path attributes
# (`tokio::main`, `rustfmt::skip`) belong to host crates and are left alone.
_HOST_FN_ATTRS = frozenset({
    "allow", "warn", "deny", "forbid", "expect", "cfg", "cfg_attr", "doc", "inline", "cold",
    "must_use", "deprecated", "test", "ignore", "should_panic", "bench", "no_mangle",
    "export_name", "link_section", "track_caller", "target_feature", "naked", "used",
    "instruction_set", "no_builtins", "automatically_derived", "proc_macro",
    "proc_macro_attribute", "proc_macro_derive", "launch_bounds", "launch_contract", "cluster_launch",
    "cooperative_launch", "cuda_module", "unroll", "derive", "repr", "constant", "diagnostic",
    "coverage", "optimize", "rustfmt", "clippy", "main", "start", "unsafe", "export",
})
# words that begin an item and occur in no item header (so a missing body ends there)
_ITEM_STARTS = frozenset({"pub", "mod", "struct", "enum", "use", "static", "trait", "let",
                          "macro_rules"})
