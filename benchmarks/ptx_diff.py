"""Build every samples/*.rs to PTX and compare with a saved snapshot.

    python benchmarks/ptx_diff.py save DIR     write DIR/<sample>.ptx for every sample
    python benchmarks/ptx_diff.py check DIR    rebuild and diff against DIR; exit 1 on any change

Run `save` on the commit before a change and `check` after it: every sample's PTX must stay
byte-identical (or the change must be a measured speed-up).
"""
from __future__ import annotations

import difflib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from oxidec.driver import compile_source  # noqa: E402


def build_all() -> dict[str, str]:
    """Each sample's PTX, compiled under its repository-relative name (so that the `.file`
    line does not depend on where the checkout is)."""
    out = {}
    for src in sorted((ROOT / "samples").glob("*.rs")):
        out[src.stem] = compile_source(src.read_text(), f"samples/{src.name}").ptx
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("save", "check"):
        print(__doc__, file=sys.stderr)
        return 2
    snap = Path(argv[1])
    ptx = build_all()
    if argv[0] == "save":
        snap.mkdir(parents=True, exist_ok=True)
        for name, text in ptx.items():
            (snap / f"{name}.ptx").write_text(text)
        print(f"saved {len(ptx)} samples to {snap}")
        return 0
    changed = new = 0
    for name, text in ptx.items():
        old_path = snap / f"{name}.ptx"
        if not old_path.exists():
            new += 1
            print(f"new sample: {name}")
            continue
        old = old_path.read_text()
        if old != text:
            changed += 1
            diff = difflib.unified_diff(old.splitlines(), text.splitlines(), f"old/{name}.ptx",
                                        f"new/{name}.ptx", lineterm="", n=1)
            print("\n".join(list(diff)[:40]))
    print(f"{len(ptx) - changed - new} of {len(ptx) - new} samples byte-identical")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
