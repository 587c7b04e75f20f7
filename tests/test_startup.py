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


def test_library_users_keep_their_dataclasses(tmp_path):
    code = ("import dataclasses, oxidec.driver, oxidec.syntax, oxidec.typeck; "
            "print('exec' in vars(dataclasses))")
    r = _run(tmp_path, code)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"
