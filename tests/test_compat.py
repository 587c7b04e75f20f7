"""benchmarks/compat.py: which files it builds, and how it classifies each outcome.

The corpus here is our own: a crate that builds, one with an error, a host-only crate, a
sub-crate, and a module file that must not be built on its own. Internal errors, timeouts and
PTX that ptxas rejects are provoked with a stand-in for the oxidec command.
"""
from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COMPAT = ROOT / "benchmarks" / "compat.py"

GOOD = """\
use cuda_device::{kernel, thread, DisjointSlice};

#[kernel]
pub fn twice(a: &[u32], mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = a[i] * 2;
    }
}
"""

BAD = """\
use cuda_device::{kernel, thread, DisjointSlice};

#[kernel]
pub fn broken(mut out: DisjointSlice<u32>) {
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = no_such_function();
    }
}
"""

HOST_ONLY = """\
fn main() {
    println!("host side only");
}
"""


def make_corpus(root: Path) -> Path:
    files = {
        "good/src/main.rs": GOOD,
        "good/src/helpers.rs": GOOD,          # a module file: not a crate root
        "bad/src/main.rs": BAD,
        "host/src/main.rs": HOST_ONLY,
        "split/src/main.rs": HOST_ONLY,
        "split/kernels/src/lib.rs": GOOD,     # a sub-crate holding the kernels
    }
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def run_compat(corpus: Path, *extra: str) -> tuple[str, dict]:
    out = corpus.parent / "compat.json"
    proc = subprocess.run([sys.executable, str(COMPAT), str(corpus), "--json", str(out),
                           "--jobs", "2", *extra], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(out.read_text())
    return proc.stdout, {r["file"]: r for r in data["results"]}


def test_compat_builds_crate_roots_and_classifies(tmp_path: Path, ptxas) -> None:
    corpus = make_corpus(tmp_path / "corpus")
    report, results = run_compat(corpus)
    assert set(results) == {"good/src/main.rs", "bad/src/main.rs", "host/src/main.rs",
                            "split/src/main.rs", "split/kernels/src/lib.rs"}
    assert results["good/src/main.rs"]["status"] == "ok"
    assert results["good/src/main.rs"]["ptx_target"] == "sm_90"
    assert results["split/kernels/src/lib.rs"]["status"] == "ok"
    bad = results["bad/src/main.rs"]
    assert (bad["status"], bad["code"]) == ("error", "E0425")
    assert "no_such_function" in bad["message"]
    assert results["host/src/main.rs"]["status"] == "skipped"
    assert results["split/src/main.rs"]["status"] == "skipped"
    assert "2 of 3 files build and assemble (2 crate roots without device code skipped)" \
        in report
    assert "1  E0425 cannot find function `_` in this scope" in report


def stand_in(tmp_path: Path, body: str) -> str:
    """A fake `oxidec`: a Python script called as `SCRIPT build FILE -o OUT --arch A`."""
    script = tmp_path / "fake_oxidec.py"
    script.write_text("import sys, time\nout = sys.argv[sys.argv.index('-o') + 1]\n" + body)
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"


@pytest.mark.parametrize("body, status, message", [
    ("sys.stderr.write('error: internal compiler error: KeyError: 3 at lower.py:9\\n')\n"
     "sys.exit(101)\n", "internal", "KeyError: 3 at lower.py:9"),
    ("raise ValueError('escaped')\n", "internal", "ValueError: escaped"),
    ("time.sleep(30)\n", "timeout", "no result after 2 s"),
    ("open(out, 'w').write('.version 8.0\\n.target sm_90\\n.address_size 64\\nbogus;\\n')\n",
     "ptxas", ""),
    ("sys.stderr.write('error: cannot read `x`\\n')\nsys.exit(2)\n", "usage", "cannot read"),
])
def test_compat_classifies_failures(tmp_path: Path, ptxas, body: str, status: str,
                                    message: str) -> None:
    corpus = tmp_path / "corpus"
    (corpus / "k/src").mkdir(parents=True)
    (corpus / "k/src/main.rs").write_text(GOOD)
    _, results = run_compat(corpus, "--timeout", "2", "--oxidec", stand_in(tmp_path, body))
    result = results["k/src/main.rs"]
    assert result["status"] == status
    assert message in result["message"]


def test_compat_imports_nothing_heavy() -> None:
    code = ("import sys, runpy; sys.argv = ['compat', '--help']\n"
            "try: runpy.run_path(%r, run_name='__main__')\n"
            "except SystemExit: pass\n"
            "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
            "('oxidec', 'numpy', 'lark', 'click', 'rich'))\n"
            "print(heavy)\n") % str(COMPAT)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert proc.stdout.strip().splitlines()[-1] == "[]"
