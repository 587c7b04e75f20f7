"""`oxidec explain CODE`: a page per diagnostic code oxidec emits."""
from __future__ import annotations

from .codes import CODES

# Longer explanations with an example; codes without one get their summary.
PAGES: dict[str, str] = {
    "OX0004": """\
Kernel parameters must have a type the host can pass and that keeps the kernel free of
data races: scalars, `&[T]` (read-only), `DisjointSlice<T>` (each thread writes only its
own element) and raw pointers (which need `unsafe` to use).

`&mut [T]` would give every thread a mutable view of the whole slice, so two threads could
write the same element. oxidec rejects it unless the kernel is an `unsafe fn`:

    #[kernel]
    pub fn scale(data: &mut [f32]) { ... }          // error[OX0004]

    #[kernel]
    pub fn scale(mut data: DisjointSlice<f32>) {    // ok
        let i = thread::index_1d();
        if let Some(x) = data.get_mut(i) { *x *= 2.0; }
    }
""",
    "OX0005": """\
Only `#[device]` functions are compiled for the GPU; any other `fn` in the file is host
code and is skipped. Calling one from a kernel or a device function is an error:

    fn square(x: f32) -> f32 { x * x }          // host code
    #[kernel] pub fn k(..) { .. square(v) .. }  // error[OX0005]

Add `#[device]` above the function to compile it for the GPU.
""",
}


def explain_text(code: str) -> str:
    summary = CODES[code]
    body = PAGES.get(code, "")
    return f"{code}: {summary}\n" + (f"\n{body}" if body else "")
