"""The differential oracle in the suite: random programs (gen.py) run by oxidec's simulator and
by rustc on the CPU must agree bit for bit (see oracle.py).

CI runs a fixed set of seeds; `--oracle-seeds N` runs N more, from a fresh random start (the
first seed is printed). A mismatch fails with a reduced reproducer.
"""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import gen  # noqa: E402
import oracle  # noqa: E402
import rustrun  # noqa: E402

CI_SEEDS = range(0, 100)


def seeds_for(config) -> range:
    n = config.getoption("oracle_seeds")
    if n is None:
        return CI_SEEDS
    start = 1_000_000 + (config.rng_seed % 1_000_000_000)
    print(f"oracle: seeds {start}..{start + n}")
    return range(start, start + n)


@pytest.fixture(scope="module")
def need_rustc():
    if not shutil.which(rustrun.rustc()):
        pytest.skip("rustc not found")


def test_generated_programs_agree_with_rustc(request, need_rustc):
    outcomes = oracle.check_seeds(seeds_for(request.config), jobs=2)
    assert len(outcomes) >= 1
    gen_bugs = [o for o in outcomes if o.verdict == "generator"]
    assert not gen_bugs, "gen.py made invalid programs:\n" + \
        "\n".join(oracle.describe(o) for o in gen_bugs[:3])
    bad = [o for o in outcomes if o.verdict == "mismatch"]
    if bad:
        import reduce
        reports = []
        for o in bad[:3]:
            red, ro = reduce.reduce(o, budget_s=60)
            reports.append(oracle.describe(o, red, ro))
        pytest.fail(f"{len(bad)} of {len(outcomes)} programs disagree "
                    f"(seeds {[o.program.seed for o in bad]}):\n" + "\n".join(reports))


def test_generator_is_deterministic_and_varied():
    a, b = gen.generate(7).source(), gen.generate(7).source()
    assert a == b
    sources = {gen.generate(s).source() for s in range(20)}
    assert len(sources) == 20
    text = "".join(sources)
    for construct in ("for ", "while ", ".step_by(", " as f32", "#[device]", "struct S",
                      "&mut ", "wrapping_", " % ", " >> ", "{ x"):
        assert construct in text, construct


def test_a_wrong_result_is_a_mismatch(need_rustc):
    """The oracle itself can fail: a program whose oxidec result differs is reported."""
    prog = gen.generate(3)
    outs = oracle.check_programs({"p3": prog}, jobs=1)
    assert outs[0].verdict == "agree"
    bad = oracle.judge("p3", prog, outs[0].rust, "", outs[0].sim.__class__(
        "ok", [w ^ 1 for w in outs[0].sim.outputs]))
    assert bad.verdict == "mismatch" and bad.differing_slots() == list(range(gen.OUTPUTS))


@pytest.mark.gpu
def test_bundle_on_gpu(tmp_path):
    """The oracle's programs on the GPU: integers exactly, floats bit for bit (the generator
    uses only correctly rounded float operations: + - * / % sqrt, casts, mul_add, rounding).

    OXIDEC_ORACLE_BUNDLE=DIR runs a bundle written elsewhere (gpu_bundle.py write, or
    oracle.py --bundle); otherwise 100 programs are built here, which needs rustc."""
    import os
    import gpu_bundle
    given = os.environ.get("OXIDEC_ORACLE_BUNDLE")
    if given:
        bundle = Path(given)
    else:
        if not shutil.which(rustrun.rustc()):
            pytest.skip("rustc not found and OXIDEC_ORACLE_BUNDLE not set")
        bundle = tmp_path / "bundle"
        gpu_bundle.write_bundle(bundle, range(5000, 5100))
    report = gpu_bundle.run_bundle(bundle)
    assert report["programs"] >= 50
    assert not report["mismatches"], json.dumps(report["mismatches"][:5], indent=1)
