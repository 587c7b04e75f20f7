"""The word tables prescan.py sorts items by: which qualifiers come before `fn`, which words
only host code holds, which words begin an item (the attribute tables: prescan_attrs.py)."""

_FN_QUALIFIERS = frozenset({"const", "async", "unsafe", "extern", "default", "safe"})  # `.. fn`
# tokens that only host code has: a const/static/struct holding one is host code
_HOST_ONLY_WORDS = frozenset({"dyn", "impl", "where", "move", "async", "await"})
# words that begin an item and occur in no item header (so a missing body ends there)
_ITEM_STARTS = frozenset({"pub", "mod", "struct", "enum", "use", "static", "trait", "let",
                          "macro_rules"})
