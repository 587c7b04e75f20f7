"""Output files written like cc and nvcc write them: regular files atomically, devices, pipes and
`-` directly, through symlinks, never over an input; every failure one line and exit 1.
Devices are reached through symlinks and FIFOs in a temporary directory; the real /dev is only
ever written into (/dev/null, /dev/full), never replaced."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from oxidec.outputs import OutputError, OutputSet

ROOT = Path(__file__).resolve().parents[1]
VECADD = ROOT / "samples" / "vecadd.rs"


def oxidec(*args: str, cwd: Path | None = None, stdout=subprocess.PIPE, stdin_data=None):
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "oxidec", *args], stdout=stdout,
                          stderr=subprocess.PIPE, input=stdin_data, cwd=cwd or ROOT, env=env,
                          timeout=120)


def one_line_error(r: subprocess.CompletedProcess, *needles: str) -> str:
    err = r.stderr.decode()
    assert r.returncode == 1, err
    assert "Traceback" not in err and "internal compiler error" not in err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    for n in needles:
        assert n in err, err
    return err


@pytest.fixture
def src(tmp_path: Path) -> Path:
    p = tmp_path / "k.rs"
    p.write_bytes(VECADD.read_bytes())
    return p


def test_fifo_is_written_directly(tmp_path: Path, src: Path) -> None:
    fifo = tmp_path / "pipe.ptx"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    r = oxidec("build", str(src), "-o", str(fifo))
    reader.join(timeout=60)
    assert r.returncode == 0, r.stderr
    assert b".entry vecadd(" in got[0]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO was replaced"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.rs", "pipe.ptx"]


def test_symlink_to_dev_null_stays_a_device(tmp_path: Path, src: Path) -> None:
    link = tmp_path / "null.ptx"
    link.symlink_to("/dev/null")
    r = oxidec("build", str(src), "-o", str(link), "--depfile", str(tmp_path / "k.d"))
    assert r.returncode == 0, r.stderr
    assert os.path.islink(link) and os.readlink(link) == "/dev/null"
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert (tmp_path / "k.d").read_text() == f"{link}: {src}\n"


def test_symlink_to_a_file_is_written_through(tmp_path: Path, src: Path) -> None:
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "k.ptx"
    target.write_text("old")
    link = tmp_path / "k.ptx"
    link.symlink_to(target)
    r = oxidec("build", str(src), "-o", str(link))
    assert r.returncode == 0, r.stderr
    assert os.path.islink(link)
    assert ".entry vecadd(" in target.read_text()
    assert sorted(p.name for p in (tmp_path / "real").iterdir()) == ["k.ptx"]
    dangling = tmp_path / "d.ptx"
    dangling.symlink_to(tmp_path / "real" / "new.ptx")
    assert oxidec("build", str(src), "-o", str(dangling)).returncode == 0
    assert os.path.islink(dangling) and (tmp_path / "real" / "new.ptx").exists()


@pytest.mark.parametrize("flag", ["-o", "--depfile", "-MF"])
def test_never_over_an_input(tmp_path: Path, src: Path, flag: str) -> None:
    before = src.read_bytes()
    extra = ["-MD"] if flag == "-MF" else []
    one_line_error(oxidec("build", str(src), flag, str(src), *extra), "is the input file")
    link = tmp_path / "alias.rs"
    link.symlink_to(src)
    one_line_error(oxidec("build", str(src), flag, str(link), *extra), "is the input file")
    assert src.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["alias.rs", "k.rs"]


def test_file_as_directory(tmp_path: Path, src: Path) -> None:
    one_line_error(oxidec("build", str(src), "-o", f"{src}/out.ptx"), "Not a directory",
                   f"{src}/out.ptx")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.rs"]


def test_directory_as_output_file_is_an_error(tmp_path: Path, src: Path) -> None:
    (tmp_path / "d").mkdir()
    one_line_error(oxidec("build", str(src), "--depfile", str(tmp_path / "d")),
                   "is a directory")
    assert not (tmp_path / "k.ptx").exists()


def test_read_only_directory(tmp_path: Path, src: Path) -> None:
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        if os.access(ro, os.W_OK):
            pytest.skip("running as root: a mode-0555 directory is writable")
        one_line_error(oxidec("build", str(src), "-o", str(ro / "k.ptx")),
                       "Permission denied", str(ro / "k.ptx"))
        assert list(ro.iterdir()) == []
    finally:
        ro.chmod(0o755)


def test_staging_failure_writes_nothing(tmp_path: Path, monkeypatch) -> None:
    """The same path in-process, where a directory that refuses new files can be made even as
    root: the first output is staged, the second fails, neither appears."""
    from oxidec import outputs
    real_create = outputs._create_temporary

    def refusing(parent, prefix):
        if str(parent).endswith("ro"):
            raise PermissionError(13, "Permission denied")
        return real_create(parent, prefix)

    monkeypatch.setattr(outputs, "_create_temporary", refusing)
    (tmp_path / "ro").mkdir()
    out = OutputSet()
    out.add(str(tmp_path / "k.ptx"), "ptx")
    out.add(str(tmp_path / "ro" / "k.d"), "dep")
    with pytest.raises(OutputError, match=r"cannot write `.*ro/k.d`: .*Permission denied"):
        out.write()
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["ro"]


def test_proc_file(src: Path) -> None:
    before = Path("/proc/version").read_text()
    one_line_error(oxidec("build", str(src), "-o", "/proc/version"), "`/proc/version`")
    assert Path("/proc/version").read_text() == before


def test_stdout_full(tmp_path: Path, src: Path) -> None:
    with open("/dev/full", "wb") as full:
        r = oxidec("build", str(src), "-o", "-", stdout=full)
    one_line_error(r, "cannot write to standard output", "No space left on device")
    link = tmp_path / "full.ptx"
    link.symlink_to("/dev/full")
    one_line_error(oxidec("build", str(src), "-o", str(link)), str(link), "No space left")
    assert os.path.islink(link) and stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_stdout_full_writes_no_depfile(tmp_path: Path, src: Path) -> None:
    with open("/dev/full", "wb") as full:
        r = oxidec("build", str(src), "-o", "-", "--depfile", str(tmp_path / "k.d"),
                   stdout=full)
    one_line_error(r, "standard output")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.rs"]


def test_unwritable_depfile_leaves_no_ptx(tmp_path: Path, src: Path) -> None:
    out = tmp_path / "k.ptx"
    one_line_error(oxidec("build", str(src), "-o", str(out), "--depfile", f"{src}/k.d"),
                   "Not a directory")
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.rs"]


def test_depfile_with_stdout_output(tmp_path: Path, src: Path) -> None:
    dep = tmp_path / "k.d"
    r = oxidec("build", str(src), "-o", "-", "--depfile", str(dep))
    assert r.returncode == 0, r.stderr
    assert b".entry vecadd(" in r.stdout
    assert dep.read_text() == f"{tmp_path / 'k.ptx'}: {src}\n"


def test_cubin_to_stdout(tmp_path: Path, src: Path, ptxas) -> None:
    r = oxidec("build", str(src), "--emit", "cubin", "--arch", "sm_90", "-o", "-", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout[:4] == b"\x7fELF"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.rs"], "no file named `-`"


def test_run_save_into_a_file_as_directory(tmp_path: Path, src: Path) -> None:
    r = oxidec("run", str(src), "-k", "vecadd", "--sim", "--arg", "a=rand:f32:64",
               "--arg", "b=rand:f32:64", "--arg", "c=zeros:f32:64", "--save", f"{src}/o.npz")
    err = r.stderr.decode()
    assert r.returncode == 1, err
    assert f"error: cannot write `{src}/o.npz`: Not a directory" in err
    assert "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.rs"]


def test_run_save_names_the_file_it_wrote(tmp_path: Path, src: Path) -> None:
    r = oxidec("run", str(src), "-k", "vecadd", "--sim", "--arg", "a=rand:f32:64",
               "--arg", "b=rand:f32:64", "--arg", "c=zeros:f32:64", "--save",
               str(tmp_path / "out"))
    assert r.returncode == 0, r.stderr
    assert f"saved arguments and outputs to {tmp_path / 'out.npz'}" in r.stdout.decode()
    import numpy as np
    with np.load(tmp_path / "out.npz") as z:
        np.testing.assert_array_equal(z["c"], z["a"] + z["b"])
def test_default_rust_module_name_is_not_the_input(tmp_path: Path, src: Path) -> None:
    r = oxidec("build", str(src), "--emit", "rust")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "k_kernels.rs").exists() and src.read_bytes() == VECADD.read_bytes()




def test_dev_stdout_is_written_directly(tmp_path: Path, src: Path) -> None:
    r = oxidec("build", str(src), "-o", "/dev/stdout")  # a pipe here
    assert r.returncode == 0, r.stderr
    assert b".entry vecadd(" in r.stdout
    with open(tmp_path / "redirected.ptx", "wb") as f:  # a regular file behind the fd
        r = oxidec("build", str(src), "-o", "/dev/stdout", stdout=f)
    assert r.returncode == 0, r.stderr
    assert b".entry vecadd(" in (tmp_path / "redirected.ptx").read_bytes()
