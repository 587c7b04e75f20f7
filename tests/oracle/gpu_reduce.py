"""Reduce an oracle program while its GPU result differs from the simulator's (on the GPU
machine, where rustc is not: the simulator stands for rustc, which agreed with it on the
original program); prints the smallest source found, both outputs and its PTX.

    python3 tests/oracle/gpu_reduce.py SEED OPT_LEVEL BUDGET_SECONDS
"""
import sys, time
from pathlib import Path
sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[2])]
import numpy as np
import gen, reduce as R
from oxidec.api import compile_source
from oxidec.diagnostics import CompileError

def differs(prog, opt):
    try:
        mod = compile_source(prog.source(), "r.rs", opt_level=opt, fmad=False)
    except CompileError:
        return False
    outs = []
    for dev in ("sim", "gpu"):
        out = np.full(16, 0xDEADBEEFDEADBEEF, dtype=np.uint64)
        try:
            mod.k0.launch(1, 16, np.array(prog.inputs, dtype=np.uint64), out, device=dev)
        except Exception:
            return False
        outs.append(out.copy())
    return not np.array_equal(outs[0], outs[1])

seed, opt, budget = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
best = gen.generate(seed)
assert differs(best, opt), "no fault to reduce"
t0 = time.time(); tried = set(); progress = True; n = 0
while progress and time.time() - t0 < budget:
    progress = False
    for edit in R.candidates(best):
        cand = R.apply(best, edit)
        src = cand.source()
        if src in tried:
            continue
        tried.add(src); n += 1
        if differs(cand, opt):
            best = cand; progress = True
            break
        if time.time() - t0 > budget:
            break
print(f"tried {n} candidates in {time.time() - t0:.0f} s")
print(best.source())
mod = compile_source(best.source(), "r.rs", opt_level=opt, fmad=False)
for dev in ("sim", "gpu"):
    out = np.full(16, 0xDEADBEEFDEADBEEF, dtype=np.uint64)
    mod.k0.launch(1, 16, np.array(best.inputs, dtype=np.uint64), out, device=dev)
    print(dev, [hex(int(v)) for v in out])
print("PTX-BEGIN"); print(mod.ptx); print("PTX-END")
