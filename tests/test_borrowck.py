"""The ownership, aliasing and GPU-safety checks (issue 3), beyond the golden tests/ui cases:
codes and explain pages, warnings on success, the skip switch, ref_elim's rewriting (run on
the simulator at every -O level), the integer constraint solver behind the race lint, and
the samples (no false positive).
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from oxidec import driver
from oxidec.checks.borrowck.affine import Lin, eq, feasible, le, lt
from oxidec.cli import main as cli_main
from oxidec.codes import CODES
from oxidec.diagnostics import CompileError, render_all
from oxidec.explain import PAGES, explain_text
from oxidec.mir import syntax as M
from oxidec.mir.verify import verify_program
from oxidec.mir.refs import address_taken, analyse
from oxidec.sim import run_kernel

ROOT = Path(__file__).resolve().parents[1]
UI = ROOT / "tests" / "ui"
PREFIXES = ("borrowck_", "unsafe_", "barrier_", "race_", "accept_")
CHECKER_CODES = {"E0133", "E0381", "E0382", "E0384", "E0499", "E0502", "E0503", "E0505",
                 "E0506", "E0507", "E0515", "E0594", "E0596", "E0597", "OX0009",
                 "OX0010"}


def compile_ok(src: str, **opts) -> driver.Compilation:
    try:
        return driver.compile_source(src, "t.rs", driver.Options(**opts))
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None


def codes_of(src: str) -> list[str]:
    try:
        comp = driver.compile_source(src, "t.rs", driver.Options(stop="mir"))
        return [d.code for d in comp.diagnostics]
    except CompileError as err:
        return [d.code for d in err.diagnostics]


# ---------------------------------------------------------------------------------------
# Codes and `oxidec explain`

def emitted_codes() -> set[str]:
    found = set()
    for path in (ROOT / "oxidec").rglob("*.py"):
        if path.name in ("codes.py", "explain.py"):
            continue
        found |= set(re.findall(r'"((?:OX|E)\d{4})"', path.read_text()))
    return found


def test_every_emitted_code_is_listed_and_has_a_page():
    missing = emitted_codes() - set(CODES)
    assert not missing, f"codes emitted but not in codes.py: {sorted(missing)}"
    assert set(CODES) == set(PAGES), set(CODES) ^ set(PAGES)
    for code in CODES:
        text = explain_text(code)
        assert text.startswith(f"{code}: {CODES[code]}\n") and len(text) > 80


def test_explain_cli_prints_the_page():
    result = CliRunner().invoke(cli_main, ["explain", "E0499"])
    assert result.exit_code == 0
    assert "get_mut" in result.output and "first reference is used" in result.output
    assert CliRunner().invoke(cli_main, ["explain", "OX0010"]).exit_code == 0
    assert CliRunner().invoke(cli_main, ["explain", "E9999"]).exit_code == 2


def test_ui_cases_cover_the_issue():
    cases = [p for p in UI.glob("*.rs") if p.name.startswith(PREFIXES)]
    failing = [p for p in cases if p.with_suffix(".stderr").exists()]
    accepted = [p for p in cases if p.name.startswith("accept_")]
    assert len(failing) >= 40 and len(accepted) >= 15
    assert not any(p.with_suffix(".stderr").exists() for p in accepted)
    seen = set()
    for p in failing:
        seen |= set(re.findall(r"^(?:error|warning)\[([A-Z0-9]+)\]",
                               p.with_suffix(".stderr").read_text(), re.M))
    assert CHECKER_CODES <= seen, CHECKER_CODES - seen


# ---------------------------------------------------------------------------------------
# The driver: warnings on success, facts removed, the measurement switch

RACY = """
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    static mut S: SharedArray<f32, 257> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    unsafe { S[t] = x[t]; }
    let v = unsafe { S[t + 1] };
    if let Some(o) = out.get_mut(thread::index_1d()) { *o = v; }
}
"""


def test_warnings_are_returned_when_compilation_succeeds(tmp_path):
    comp = compile_ok(RACY)
    assert comp.ptx and [(d.level, d.code) for d in comp.diagnostics] == [("warning", "OX0010")]
    src = tmp_path / "racy.rs"
    src.write_text(RACY)
    result = CliRunner().invoke(cli_main, ["build", str(src), "-o", str(tmp_path / "o.ptx")])
    assert result.exit_code == 0
    assert "warning[OX0010]" in result.output and "1 warning emitted" in result.output
    assert (tmp_path / "o.ptx").exists()


def test_lowering_marks_binding_scopes_with_storage_statements():
    from oxidec.diagnostics import DiagnosticSink
    from oxidec.lower import lower
    from oxidec.mir import syntax as M
    from oxidec.mir.pretty import pretty_body
    from oxidec.resolve import resolve
    from oxidec.span import SourceFile
    from oxidec.syntax import parse
    from oxidec.typeck import typeck
    sink = DiagnosticSink()
    items = resolve(parse(SourceFile("racy.rs", RACY), sink), sink)
    body = lower(items, typeck(items, sink), sink).bodies[0]
    names = {i: d.name for i, d in enumerate(body.locals)}
    marks = [(type(s).__name__, names[s.local]) for bb in body.blocks for s in bb.statements
             if isinstance(s, (M.StorageLive, M.StorageDead))]
    # `t`, `v` live from their `let`; `o` per `if let`; all dead at their closing braces
    assert ("StorageLive", "t") in marks and ("StorageLive", "v") in marks
    assert ("StorageLive", "o") in marks
    assert ("StorageDead", "t") in marks and ("StorageDead", "o") in marks
    assert marks.index(("StorageLive", "t")) < marks.index(("StorageDead", "t"))
    assert "StorageLive(_" in pretty_body(body)
    # operands read from a variable carry the span of the expression that read it
    spans = [op.span.text() for bb in body.blocks for s in bb.statements
             if isinstance(s, M.Assign) and isinstance(s.rvalue, M.Use)
             for op in [s.rvalue.operand] if isinstance(op, (M.Copy, M.Move)) and op.span]
    assert "v" in spans


def test_storage_statements_are_gone_after_the_checks():
    # lowering marks binding scopes with StorageLive/StorageDead; the checks consume them
    from oxidec.mir import syntax as M
    from oxidec.mir.pretty import pretty_program
    comp = compile_ok(RACY, stop="mir")
    assert not any(isinstance(s, (M.StorageLive, M.StorageDead))
                   for b in comp.program.bodies for bb in b.blocks for s in bb.statements)
    assert "Storage" not in pretty_program(comp.program)


MOVED = """
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) { *o = 1.0; }
    let i = idx.get();
}
"""


def test_checker_runs_on_every_build_and_can_be_skipped_for_measurement(monkeypatch):
    assert codes_of(MOVED) == ["E0382"]
    with pytest.raises(CompileError):
        driver.compile_source(MOVED, "t.rs")  # the default build (PTX) checks too
    monkeypatch.setenv("OXIDEC_SKIP_BORROWCK", "1")
    assert driver.compile_source(MOVED, "t.rs").ptx


def test_check_command_reports_borrow_errors(tmp_path):
    src = tmp_path / "moved.rs"
    src.write_text(MOVED)
    result = CliRunner().invoke(cli_main, ["check", str(src)])
    assert result.exit_code == 1 and "error[E0382]" in result.output


# ---------------------------------------------------------------------------------------
# Samples: no false positive

SAMPLES = sorted((ROOT / "samples").glob("*.rs"))


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_samples_have_no_checker_diagnostics(path):
    try:
        from samples.reference import MIN_ARCH
        comp = driver.compile_file(path, driver.Options(arch=MIN_ARCH.get(path.stem, "sm_80")))
    except CompileError as err:
        mine = [d for d in err.diagnostics if d.code in CHECKER_CODES]
        assert not mine, render_all(mine)
        pytest.skip("fails before or after the checker, for reasons of its own")
    assert not comp.diagnostics, render_all(comp.diagnostics)


# ---------------------------------------------------------------------------------------
# ref_elim: references to locals become direct uses, with the same results

REFS = """
struct Acc { sum: f32, count: u32 }

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let mut h = [0.0f32; 4];
    let mut j = 1usize;
    let r = &mut h[j];
    j = 3;                          // r still means h[1]
    *r = x[i];
    h[j] = *r + 1.0;
    let mut acc = Acc { sum: 0.0, count: 0 };
    let a = &mut acc;
    for k in 0..3 {
        a.sum += h[k + 1];
        a.count += 1;
    }
    let s = &acc.sum;
    let p = &mut h;
    p[0] = *s;
    if let Some(o) = out.get_mut(idx) {
        *o = h[0] + acc.count as f32;
    }
}
"""


@pytest.mark.parametrize("level", [0, 1, 2])
def test_ref_elim_keeps_the_meaning(level):
    from oxidec.sim import run_kernel
    comp = compile_ok(REFS, opt_level=level)
    verify_program(comp.program)
    for body in comp.program.bodies:
        for block in body.blocks:
            for st in block.statements:
                if isinstance(st, M.Assign) and isinstance(st.rvalue, M.Ref):
                    assert any(isinstance(p, M.Deref) for p in st.rvalue.place.projection)
    x = np.arange(1, 9, dtype=np.float32)
    out = np.zeros(8, np.float32)
    run_kernel(comp.program, "k", (1,), (8,), [x, out])
    # h[1] = x, h[3] = x + 1, h[2] = 0: sum = 2x + 1, count = 3
    np.testing.assert_array_equal(out, 2 * x + 1 + 3)


def test_ref_elim_keeps_what_it_cannot_eliminate_in_memory(rng):
    # `ok` is only used as `*ok`: replaced by `v` itself; `&mut v` passed to `bump` is a
    # real address (`#[inline(never)]`: inlined, the address would disappear), so `v` lives
    # in `.local` memory, and the callee gets a generic pointer
    src = """
#[device]
#[inline(never)]
fn bump(x: &mut f32, by: f32) { *x += by; }
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let mut v = x[idx.get()];
    let ok = &mut v;
    *ok *= 2.0;
    bump(&mut v, 1.5);
    if let Some(o) = out.get_mut(idx) { *o = v; }
}
"""
    comp = driver.compile_source(src, "t.rs")
    body = next(b for b in comp.program.bodies if b.name == "k")
    assert {body.locals[i].name for i in address_taken(body)} == {"v"}
    assert ".local" in comp.ptx and "cvta.local.u64" in comp.ptx
    x = rng.uniform(-4, 4, 64).astype(np.float32)
    out = np.full(64, np.nan, np.float32)
    run_kernel(comp.program, "k", (1,), (64,), [x, out])
    np.testing.assert_array_equal(out, x * np.float32(2) + np.float32(1.5))


def test_ref_analysis_of_a_chain():
    comp = compile_ok("""
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let mut p = [1.0f32; 2];
    let r = &mut p;
    let q = &mut r[1];
    *q = 3.0;
}
""", stop="mir")
    info = analyse(comp.program.bodies[0])
    assert not info.escapes
    targets = {info.target(a) for a in info.defs}
    assert any(t.projection and isinstance(t.projection[-1], M.Index) for t in targets)


# ---------------------------------------------------------------------------------------
# The constraint solver behind `shared_race`

X1, X2, S = "x1", "x2", "s"


def v(name, c=1):
    return Lin.var(name, c)


def k(c):
    return Lin.k(c)


def test_solver_same_thread_only():
    # x1 == x2 with x1 < x2 or x1 > x2: impossible
    base = [eq(v(X1), v(X2))]
    assert not feasible(base + [lt(v(X1), v(X2))])
    assert not feasible(base + [lt(v(X2), v(X1))])


def test_solver_neighbour_is_feasible():
    cs = [eq(v(X1), v(X2) + k(1)), le(k(0), v(X1)), le(v(X1), k(255)), le(k(0), v(X2)),
          le(v(X2), k(255))]
    assert feasible(cs + [lt(v(X2), v(X1))])


def test_solver_reduction_halves_are_disjoint():
    # write S[x1] under x1 < s, read S[x2 + s] under x2 < s, x2 >= 0
    cs = [eq(v(X1), v(X2) + v(S)), lt(v(X1), v(S)), lt(v(X2), v(S)), le(k(0), v(X2)),
          le(k(0), v(X1))]
    assert not feasible(cs)


def test_solver_parity():
    # 2 x1 == 2 x2 + 1 has no integer solution
    assert not feasible([eq(v(X1, 2), v(X2, 2) + k(1))])
    # 2 x1 <= 1 and x1 >= 1: infeasible over the integers (x1 = 0.5 is not allowed)
    assert not feasible([le(v(X1, 2), k(1)), le(k(1), v(X1))])
    assert feasible([le(v(X1, 2), k(2)), le(k(1), v(X1))])


def test_solver_reversed_index_meets_in_the_middle():
    cs = [eq(v(X1), k(255) - v(X2)), le(k(0), v(X1)), le(v(X1), k(255)), le(k(0), v(X2)),
          le(v(X2), k(255)), lt(v(X1), v(X2))]
    assert feasible(cs)


# ---------------------------------------------------------------------------------------
# A few behaviours the goldens do not pin down

def test_reborrow_of_get_mut_result_in_calls_is_not_a_move():
    assert codes_of("""
#[device]
fn bump(x: &mut f32) { *x += 1.0; }
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    if let Some(o) = out.get_mut(thread::index_1d()) { bump(o); bump(o); *o *= 2.0; }
}
""") == []


def test_atomic_view_of_a_slice_element_is_a_shared_borrow():
    assert codes_of("""
#[kernel]
pub fn k(total: DisjointSlice<u32>) {
    let a = DeviceAtomicU32::from_slice_elem(&total, 0);
    let b = DeviceAtomicU32::from_slice_elem(&total, 0);
    a.fetch_add(1, AtomicOrdering::Relaxed);
    b.fetch_add(1, AtomicOrdering::Relaxed);
}
""") == []


def test_divergence_through_a_callee_that_returns_the_thread_index():
    src = """
#[device]
fn lane_of() -> u32 { thread::threadIdx_x() % 32 }
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    if lane_of() == 0 { thread::sync_threads(); }
}
"""
    assert codes_of(src) == ["OX0009"]


def test_barrier_under_block_uniform_value_from_memory_is_fine():
    assert codes_of("""
#[kernel]
pub fn k(n: &[u32], mut out: DisjointSlice<f32>) {
    let rounds = n[0];
    for r in 0..rounds { thread::sync_threads(); }
    let b = thread::blockIdx_x() as usize;
    if n[b] > 3 { thread::sync_threads(); }
}
""") == []


def test_race_lint_allowed_on_the_module():
    src = """
#[cuda_module]
#[allow(shared_race)]
mod kernels {
    use super::*;
""" + RACY + "\n}\n"
    assert codes_of(src) == []


def test_unsafeck_reads_only_the_mir_source_scopes():
    # an unsafe use is allowed when its scope or an enclosing one is unsafe
    from oxidec.checks import unsafeck
    from oxidec.diagnostics import DiagnosticSink
    from oxidec.mir import syntax as M
    from oxidec.span import SourceFile, Span
    from oxidec.types import UNIT
    src = SourceFile("u.rs", "fn f() { *p; unsafe { *q; } *r; }")
    at = lambda text: Span(src, src.text.index(text), src.text.index(text) + len(text))  # noqa
    scopes = [M.SourceScope(None, at("fn f()"), "safe"),
              M.SourceScope(0, at("unsafe { *q; }"), "unsafe_block"),
              M.SourceScope(1, at("*q"), "safe")]  # a safe scope inside the unsafe block
    uses = [M.UnsafeUse("deref_raw_pointer", None, 0, at("*r")),
            M.UnsafeUse("deref_raw_pointer", None, 2, at("*q")),
            M.UnsafeUse("call_unsafe_fn", "store", 0, at("*p"))]
    body = M.Body("f", "device", 0, [M.LocalDecl(UNIT, None, True, at("fn f()"))],
                  [M.BasicBlock(list(uses), M.Return(at("}")))], at("fn f()"),
                  source_scopes=scopes)
    sink = DiagnosticSink()
    unsafeck(M.Program([body]), sink)
    assert [(d.code, d.primary.span.text(), d.message.split(" is ")[0])
            for d in sink.diagnostics] == [
        ("E0133", "*p", "call to unsafe function `store`"),  # in source order
        ("E0133", "*r", "dereference of raw pointer")]
    assert body.blocks[0].statements == []  # consumed: the passes never see them
    fn_scope = M.SourceScope(None, at("fn f()"), "unsafe_fn")
    body = M.Body("f", "device", 0, body.locals, [M.BasicBlock(list(uses), M.Return(at("}")))],
                  at("fn f()"), source_scopes=[fn_scope, scopes[1], scopes[2]])
    sink = DiagnosticSink()
    unsafeck(M.Program([body]), sink)
    assert sink.diagnostics == []
