"""cp.async copies and mbarrier operations (their rows: oxidec/device_api/asynchrony.py).

Pointers arrive in whatever representation the space analysis gave them; an instruction
on `.shared` or `.global` addresses takes the pointer as it is when it is already in that
space's window, and converts a generic one with `cvta.to.<space>.u64`:

    cp.async.cg.shared.global   [%rd7], [%rd9], 16, %r4;     // zfill: src_size %r4
    mbarrier.arrive.shared.b64  %rd12, [%rd3];
    $L__BB0_mbw1:                                            // mbarrier_wait(b, t)
    mbarrier.test_wait.shared.b64 %p3, [%rd3], %rd12;
    @!%p3 bra $L__BB0_mbw1;
"""
from __future__ import annotations

from ..device_api.asynchrony import PROXY_FENCES
from ..mir import syntax as mir
from ..types import BOOL, U64
from .instrs import instr
from .places import Val
from .spaces import GENERIC, representation
from .types import PtxEmitError


def address(em, op: mir.Operand, space: str) -> str:
    """The register holding op's pointer as an address of `space` ("shared", "global" or
    generic)."""
    v = em.as_reg(em.scalar(em.operand(op)))
    if space == GENERIC:
        return em.coerce(v, GENERIC).text
    have = representation(v.space)
    if have == space:
        return v.text
    if have not in (None, GENERIC):
        raise PtxEmitError(f"a pointer into {have} memory where {space} memory is needed")
    r = em.tmp(U64)
    em.emit(instr(f"cvta.to.{space}.u64", r, v.text))
    return r


def _value(em, op: mir.Operand) -> str:
    return em.scalar(em.operand(op)).text


def _isa(em, version: str) -> None:
    em.module.min_version = max(em.module.min_version, version, key=float)


def cp_async(em, stmt: mir.Effect) -> None:
    """`cp.async.{ca,cg}.N`: (dst, src[, src_size]) global -> shared."""
    cache, n = stmt.name.split(".")[2:]
    dst = address(em, stmt.args[0], "shared")
    src = address(em, stmt.args[1], "global")
    extra = [_value(em, stmt.args[2])] if len(stmt.args) == 3 else []
    em.emit(instr(f"cp.async.{cache}.shared.global", f"[{dst}]", f"[{src}]", n, *extra))


def wait_group(em, stmt: mir.Effect) -> None:
    (n,) = stmt.args
    if not (isinstance(n, mir.Constant) and isinstance(n.value, int) and 0 <= n.value < 2**31):
        raise PtxEmitError("`cp_async_wait_group` needs a constant number of groups")
    em.emit(instr("cp.async.wait_group", str(n.value)))


def copy_arrive(em, stmt: mir.Effect) -> None:
    """`cp.async.mbarrier.arrive[.noinc][.shared].b64 [bar]`."""
    space = "shared" if stmt.name.endswith(".shared") else GENERIC
    bar = address(em, stmt.args[0], space)
    em.emit(instr(f"{stmt.name}.b64", f"[{bar}]"))


def init(em, stmt: mir.Effect) -> None:
    bar = address(em, stmt.args[0], "shared")
    em.emit(instr("mbarrier.init.shared.b64", f"[{bar}]", _value(em, stmt.args[1])))


def inval(em, stmt: mir.Effect) -> None:
    bar = address(em, stmt.args[0], "shared")
    em.emit(instr("mbarrier.inval.shared.b64", f"[{bar}]"))


def expect_tx(em, stmt: mir.Effect) -> None:
    _isa(em, "8.0")
    bar = address(em, stmt.args[0], "shared")
    em.emit(instr("mbarrier.expect_tx.relaxed.cta.shared::cta.b64", f"[{bar}]",
                  _value(em, stmt.args[1])))


def wait(em, stmt: mir.Effect) -> None:
    """`mbarrier_wait(b, token)`: spin on test_wait (sm_80), as cuda-oxide's library does."""
    bar = address(em, stmt.args[0], "shared")
    token = em.as_reg(em.scalar(em.operand(stmt.args[1]))).text
    done = em.tmp(BOOL)
    n = getattr(em, "_mbarrier_waits", 0) + 1
    em._mbarrier_waits = n
    top = f"$L__BB{em.index}_mbw{n}"
    em.lines.append(f"{top}:")
    em.emit(instr("mbarrier.test_wait.shared.b64", done, f"[{bar}]", token))
    em.emit(f"@!{done} " + instr("bra", top))


def fence(em, stmt: mir.Effect) -> None:
    _isa(em, "8.6" if "sync_restrict" in stmt.name else "8.0")  # (one-way: PTX ISA 8.6)
    em.emit(f"{stmt.name};")


def _dst(em, ty, hint) -> str:
    return hint[0] if hint else em.tmp(ty)


def arrive(em, rv, ty, hint) -> list[Val]:
    """`mbarrier.arrive` -> the token (the barrier's state before the arrival)."""
    bar = address(em, rv.args[0], "shared")
    dst = _dst(em, U64, hint)
    if rv.name == "mbarrier.arrive":
        em.emit(instr("mbarrier.arrive.shared.b64", dst, f"[{bar}]"))
    else:
        _isa(em, "8.0")
        em.emit(instr("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64", dst, f"[{bar}]",
                      _value(em, rv.args[1])))
    return [Val(dst, U64)]


WAITS = {"mbarrier.test_wait": ("mbarrier.test_wait.shared.b64", "7.0"),
         "mbarrier.try_wait": ("mbarrier.try_wait.shared.b64", "7.8"),
         "mbarrier.try_wait.parity": ("mbarrier.try_wait.parity.shared::cta.b64", "7.8")}


def test(em, rv, ty, hint) -> list[Val]:
    """test_wait / try_wait (token) / try_wait.parity (parity) -> bool."""
    opcode, version = WAITS[rv.name]
    _isa(em, version)
    bar = address(em, rv.args[0], "shared")
    arg = em.as_reg(em.scalar(em.operand(rv.args[1]))).text
    dst = _dst(em, BOOL, hint)
    em.emit(instr(opcode, dst, f"[{bar}]", arg))
    return [Val(dst, BOOL)]


EFFECTS = {
    **{f"cp.async.{c}.{n}": cp_async for c, n in (("ca", 4), ("ca", 8), ("ca", 16),
                                                  ("cg", 16))},
    "cp.async.wait_group": wait_group,
    **{f"cp.async.mbarrier.arrive{a}{b}": copy_arrive for a in ("", ".noinc")
       for b in ("", ".shared")},
    "mbarrier.init": init,
    "mbarrier.inval": inval,
    "mbarrier.expect_tx": expect_tx,
    "mbarrier.wait": wait,
    "fence.proxy.async.shared::cta": fence,
    "fence.mbarrier_init.release.cluster": fence,
    **{f"fence.proxy.async::generic.{sem}.sync_restrict::shared::{space}.cluster": fence
       for sem, space in PROXY_FENCES},
}
INTRINSICS = {"mbarrier.arrive": arrive, "mbarrier.arrive.expect_tx": arrive,
              **{name: test for name in WAITS}}
