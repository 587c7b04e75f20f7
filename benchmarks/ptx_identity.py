"""Build every samples/*.rs with two oxidec checkouts and diff the PTX.

    python benchmarks/ptx_identity.py BASE_CHECKOUT [NEW_CHECKOUT]

Prints one line per sample (identical / differs, with the diff's size) and exits 1 when any
sample's PTX differs; used to show that a front-end change leaves the generated code alone.
"""
from __future__ import annotations

import difflib
import subprocess
import sys
import tempfile
from pathlib import Path


def build(checkout: Path, sample: Path, out: Path) -> str:
    """The PTX (sm_90: some samples need it), or the exit status and stderr of a failed build."""
    proc = subprocess.run([sys.executable, "-m", "oxidec.cli", "build", str(sample), "-o",
                           str(out), "--arch", "sm_90"], cwd=checkout, capture_output=True)
    if proc.returncode != 0:
        return f"exit {proc.returncode}\n{proc.stderr.decode(errors='replace')}"
    return out.read_text()


def main() -> int:
    base = Path(sys.argv[1]).resolve()
    new = Path(sys.argv[2]).resolve() if len(sys.argv) > 2 else Path(__file__).resolve().parents[1]
    differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        for sample in sorted((new / "samples").glob("*.rs")):
            if not (base / "samples" / sample.name).exists():
                print(f"{sample.name:24} new sample")
                continue
            a = build(base, sample, Path(tmp) / "a.ptx")
            b = build(new, sample, Path(tmp) / "b.ptx")
            if a == b:
                print(f"{sample.name:24} identical")
            else:
                differ += 1
                n = sum(1 for line in difflib.unified_diff(a.splitlines(), b.splitlines())
                        if line[:1] in "+-" and line[:3] not in ("+++", "---"))
                print(f"{sample.name:24} differs ({n} lines)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
