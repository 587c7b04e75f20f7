"""The `oxidec` process's start-up (oxidec/startup.py): dataclass methods compiled once and
kept in the cache directory, used only by the command, never by a library user."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import dataclasses, sys
from oxidec import startup
startup.keep_dataclass_code()
from oxidec import ast, types
from oxidec.mir import syntax as mir

@dataclasses.dataclass(frozen=True)
class P:
    x: int
    y: tuple = ()
    z: list = dataclasses.field(default_factory=list, compare=False)

a, b = P(1, (2,)), P(1, (2,))
assert a == b and hash(a) == hash(b) and a is not b
assert repr(a) == "P(x=1, y=(2,), z=[])", repr(a)
try:
    a.x = 3
except dataclasses.FrozenInstanceError:
    pass
else:
    raise AssertionError("not frozen")
assert dataclasses.replace(a, x=5).x == 5
assert [f.name for f in dataclasses.fields(P)] == ["x", "y", "z"]
print(int(startup._missed), len(startup._used))
startup.save_dataclass_code()
"""


def _run(cache: Path, code: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), OXIDEC_CACHE_DIR=str(cache))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=300)


def test_dataclass_code_is_kept_and_reused(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    first = _run(cache, PROBE)
    assert first.returncode == 0, first.stderr
    missed, used = map(int, first.stdout.split())
    assert missed == 1 and used > 500  # the compiler's classes and the probe's
    files = list(cache.glob("dataclass-code-*.marshal"))
    assert len(files) == 1
    second = _run(cache, PROBE)
    assert second.returncode == 0, second.stderr
    assert second.stdout.split() == ["0", str(used)]  # every method from the file


def test_foreign_or_damaged_file_is_not_used(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    assert _run(cache, PROBE).returncode == 0
    (path,) = cache.glob("dataclass-code-*.marshal")
    path.write_bytes(b"garbage")
    r = _run(cache, PROBE)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[0] == "1"
    cache.chmod(0o777)  # others may write here: the file is not read
    r = _run(cache, PROBE)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[0] == "1"


INSPECT_PROBE = """
import sys
from oxidec import startup
startup.keep_dataclass_code()
import oxidec.driver
assert type(sys.modules["inspect"]) is startup._LazyInspect
import inspect
def f(a, b=2): pass
print(inspect.signature(f), inspect.isfunction(f), type(sys.modules["inspect"]).__name__)
from inspect import getmembers
print(len(getmembers(f)) > 10)
"""


def test_inspect_is_imported_when_something_uses_it(tmp_path):
    r = _run(tmp_path, INSPECT_PROBE)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["(a,", "b=2)", "True", "module", "True"]


def test_library_users_keep_their_dataclasses(tmp_path):
    code = ("import dataclasses, oxidec.driver, oxidec.syntax, oxidec.typeck; "
            "print('exec' in vars(dataclasses))")
    r = _run(tmp_path, code)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"


# What a plain build must not load: the click CLI, pathlib (and urllib.parse, ipaddress),
# hashlib (OpenSSL), difflib (only for suggestions), NumPy and the runtime, Lark (a text
# without syntax errors is parsed by oxidec/syntax/direct.py), and the third-party
# `regex`/`interegular` that Lark's runtime would import where installed.
NOT_ON_THE_BUILD_PATH = ("click", "pathlib", "hashlib", "difflib", "numpy", "tempfile",
                         "oxidec.runtime", "oxidec.sim", "lark",
                         # dataclasses' `inspect` (startup._LazyInspect) and what it imports;
                         # `typing` (a few ms each)
                         "inspect", "ast", "dis", "tokenize", "typing")


def test_a_plain_build_imports_only_what_it_needs(tmp_path):
    # stand-ins for `regex` and `interegular` that leave a mark when they are imported
    # (-X importtime also lists an import that was refused, so it cannot tell)
    site = tmp_path / "site"
    site.mkdir()
    for name in ("regex", "interegular"):
        (site / f"{name}.py").write_text(f"open({str(tmp_path / name)!r}, 'w').close()\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(site)]),
               OXIDEC_CACHE_DIR=str(tmp_path / "cache"))
    for _ in range(2):  # the first run fills the parser-table and dataclass-code caches
        for name in ("regex", "interegular"):  # (building the tables imports all of Lark)
            (tmp_path / name).unlink(missing_ok=True)
        proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "oxidec", "build",
                               str(ROOT / "samples" / "vecadd.rs"), "-o",
                               str(tmp_path / "v.ptx"), "--no-cache"],
                              capture_output=True, text=True, cwd=tmp_path, env=env,
                              timeout=300)
        assert proc.returncode == 0, proc.stderr[-2000:]
    imported = {line.rsplit("|", 1)[1].strip() for line in proc.stderr.splitlines()
                if line.startswith("import time:") and line.count("|") == 2}
    # the probe sees imports (not those made through importlib.import_module)
    assert "oxidec.driver" in imported and "oxidec.syntax.direct" in imported
    loaded = sorted(m for m in imported
                    if m in NOT_ON_THE_BUILD_PATH or m.split(".")[0] in NOT_ON_THE_BUILD_PATH
                    or any(m.startswith(p + ".") for p in NOT_ON_THE_BUILD_PATH))
    assert loaded == [], loaded
    assert not (tmp_path / "regex").exists() and not (tmp_path / "interegular").exists()
    assert (tmp_path / "v.ptx").read_text().count(".entry") == 1


def test_lark_is_loaded_without_regex_and_leaves_it_importable(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "regex.py").write_text("MARK = 'the stand-in'\n")
    code = ("import sys\nimport oxidec.syntax.lalr\nimport lark.utils\n"
            "assert 'regex' not in sys.modules and not lark.utils._has_regex\n"
            "import regex\nprint(regex.MARK)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(site)]))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=tmp_path, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "the stand-in"


REGEX_PROBE = r"""
import re, sys
from oxidec import regex_cache
regex_cache.keep_regex_code()
cases = [(r"(?P<word>[^\W\d]\w*)\s*=\s*(\d+)", 0), (r"a.b", re.S), (rb"\x00+(?:ab|cd)$", 0),
         (r"(?i)straße|ǅ", 0), (r"^\s*#(?P<n>\d+)", re.M | re.X), (r"(a)|(b)(?(2)c|d)", 0)]
texts = ["x1 = 42", "a\nb", b"\x00\x00cd", "STRASSE ǆ straße", " #7\n #8", "bc ad"]
out = []
for (pat, flags), text in zip(cases, texts):
    p = re.compile(pat, flags)
    out.append((p.pattern, p.flags, p.groups, sorted(p.groupindex.items()),
                [m.span() for m in p.finditer(text)]))
print(len(regex_cache._new))
print(repr(out))
regex_cache.save_regex_code()
"""


def test_regex_code_is_kept_and_replayed_as_re_compiles_it(tmp_path):
    first = _run(tmp_path, REGEX_PROBE)
    second = _run(tmp_path, REGEX_PROBE)
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    recorded, results = first.stdout.split("\n", 1)
    replayed, results_again = second.stdout.split("\n", 1)
    assert int(recorded) >= 6 and int(replayed) == 0  # the second run compiled none itself
    plain = subprocess.run([sys.executable, "-c", REGEX_PROBE.replace(
        "regex_cache.keep_regex_code()", "pass")], capture_output=True, text=True, cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT), OXIDEC_CACHE_DIR="off"), timeout=300)
    assert results == results_again == plain.stdout.split("\n", 1)[1]


BUNDLE_PROBE = """
import sys
from oxidec import module_bundle
module_bundle.keep_module_bundle()
import oxidec.driver, oxidec.passes.dead_functions as dead
from oxidec.mir import syntax
print(len(module_bundle._served), 'oxidec.driver' in module_bundle._served,
      oxidec.driver.__file__, getattr(dead, 'MARK', None))
module_bundle.save_module_bundle()
"""


def _bundle_run(cache: Path, root: Path = ROOT) -> list[str]:
    env = dict(os.environ, PYTHONPATH=str(root), OXIDEC_CACHE_DIR=str(cache))
    r = subprocess.run([sys.executable, "-c", BUNDLE_PROBE], capture_output=True, text=True,
                       cwd=root, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout.split()


def test_module_bundle_serves_the_compiler_from_one_file(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    served, driver, file, mark = _bundle_run(cache)
    assert (served, driver, mark) == ("0", "False", "None")  # nothing to read yet
    assert len(list(cache.glob("modules-*.marshal"))) == 1
    served, driver, file_again, mark = _bundle_run(cache)
    assert int(served) > 50 and driver == "True" and mark == "None"
    assert file_again == file == str(ROOT / "oxidec" / "driver.py")  # still the module's file


def test_module_bundle_does_not_serve_an_edited_module(tmp_path):
    import shutil
    root = tmp_path / "tree"
    shutil.copytree(ROOT / "oxidec", root / "oxidec",
                    ignore=shutil.ignore_patterns("__pycache__"))
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    _bundle_run(cache, root)
    edited = root / "oxidec" / "passes" / "dead_functions.py"
    edited.write_text(edited.read_text() + "\nMARK = 'edited'\n")
    served, driver, _, mark = _bundle_run(cache, root)
    assert driver == "True" and mark == "edited"  # the others from the file, not this one
    served_after, _, _, mark = _bundle_run(cache, root)
    assert mark == "edited" and int(served_after) == int(served) + 1  # and now it is kept


def test_module_bundle_foreign_or_damaged_file_is_not_used(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    _bundle_run(cache)
    (path,) = cache.glob("modules-*.marshal")
    path.write_bytes(b"garbage")
    assert _bundle_run(cache)[:2] == ["0", "False"]
    assert _bundle_run(cache)[1] == "True"  # rewritten by the run before
    cache.chmod(0o777)  # others may write here: the file is not read
    assert _bundle_run(cache)[:2] == ["0", "False"]
