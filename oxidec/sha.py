"""SHA-256 without `hashlib` on the build path.

`hashlib` loads OpenSSL's library (~3-4 ms, on every build, cached or not: the compile
cache's key and the parser tables' grammar hash both need a digest). CPython's own
implementation module (`_sha2` from 3.12, `_sha256` before) loads in ~0.1 ms and gives the
same digests; `hashlib` is the fallback where neither exists.
"""
from __future__ import annotations

try:
    from _sha2 import sha256  # type: ignore[import-not-found]
except ImportError:
    try:
        from _sha256 import sha256  # type: ignore[import-not-found,no-redef]
    except ImportError:
        from hashlib import sha256  # type: ignore[assignment]

__all__ = ["sha256"]
