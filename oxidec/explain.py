"""`oxidec explain CODE`: a page per diagnostic code oxidec emits.

Every code in `codes.CODES` has a page here (tests/test_borrowck.py checks it): what the
error means, a small example that has it, and the usual fix.
"""
from __future__ import annotations

from .codes import CODES

PAGES: dict[str, str] = {
    # -- oxidec's own ------------------------------------------------------------------
    "OX0001": """\
The source does not parse: a token where the grammar does not allow one, an unclosed
brace or comment, an invalid literal suffix. The message names what was found and what
was expected there.

    let x = 1.0f33;        // error[OX0001]: invalid suffix `f33` for float literal
    let x = 1.0f32;        // ok
""",
    "OX0002": """\
The construct is valid Rust, but oxidec does not compile it (yet): `match`, closures,
trait methods, open ranges, and references to local variables that escape.

oxidec keeps local variables in registers, which have no address. A reference to a local
is supported when it is only used through `*r` (or `r.field`, `r[i]`) in the function
that made it; oxidec then rewrites the uses into direct uses of the variable. A reference
that is passed to a function, stored in a value (`Some(&mut x)`), returned, converted to
a pointer or reassigned cannot be rewritten:

    #[device] fn bump(x: &mut f32) { *x += 1.0; }
    let mut v = 0.0f32;
    bump(&mut v);                   // error[OX0002]

    #[device] fn bumped(x: f32) -> f32 { x + 1.0 }
    v = bumped(v);                  // ok: pass the value, assign the result back

References into memory (`out.get_mut(i)`, `&mut TILE[i]`, slices) are not affected.
""",
    "OX0003": """\
An attribute oxidec does not know, or one in a place where it has no meaning
(`#[launch_bounds]` on a struct, `#[unroll]` on a function). Attributes are never
ignored silently, since a misspelt `#[kernal]` would otherwise drop a kernel.

    #[kernal] pub fn k() {}         // error[OX0003]: cannot find attribute `kernal`
    #[kernel] pub fn k() {}         // ok
""",
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

A `*mut T` parameter is accepted, but every use of it needs `unsafe` (see E0133).
""",
    "OX0005": """\
oxidec compiles every function a kernel reaches, `#[device]` or not; the rest of the file
is host code and is never checked. Code a kernel reaches cannot use what exists only on the
host: heap types (`Vec`, `String`, `Box`), host handles (`DeviceBuffer`, `CudaContext`),
or host I/O (`println!`, `format!`):

    fn total(v: &[f32]) -> f32 { println!("{}", v[0]); v[0] }   // host I/O
    #[kernel] pub fn k(..) { .. total(x) .. }  // error[OX0005] in `total`

The note gives the chain of calls from the kernel. Keep that code on the host, or pass the
device code plain data; print from device code with `gpu_printf!`. A kernel cannot be
called from device code either: it is launched by the host.
""",
    "E0015": """\
A constant (an array length, a `const` item evaluated at compile time) calls a function
that is not a `const fn`.

    fn side() -> usize { 16 }
    let a = [0.0f32; side()];          // error[E0015]

Declare it `const fn side()`; oxidec then evaluates the call at compile time.
""",
    "E0118": """\
An inherent `impl` block names a type that is not a struct or enum of this file.

    impl f32 { fn twice(self) -> f32 { self * 2.0 } }   // error[E0118]

Put the function in a struct's `impl`, or make it a plain `fn`.
""",
    "E0411": """\
`Self` names the type of the enclosing `impl`; outside one there is none.

    fn f() -> Self { .. }        // error[E0411]
""",
    "E0592": """\
Two associated items of one type have the same name.

    impl P { fn new() -> P { .. } }
    impl P { fn new() -> P { .. } }   // error[E0592]: duplicate definitions with name `new`
""",
    "OX0006": """\
A path that looks like the device API (`thread::...`, `warp::...`) names no function or
method of it. The help suggests the nearest name.

    let i = thread::index1d();      // error[OX0006]: unknown device API function
    let i = thread::index_1d();     // ok
""",
    "OX0007": """\
A literal does not fit in its type (after inference):

    let b: u8 = 300;                // error[OX0007]: literal out of range for `u8`
    let b: u16 = 300;               // ok
""",
    "OX0008": """\
The input file cannot be compiled as source text: it is not valid UTF-8 (a binary file,
or text in another encoding). Save it as UTF-8.
""",
    "OX0009": """\
`thread::sync_threads()` is a barrier for the whole block: every thread must reach it (or
none). A warp collective without a mask (`warp::shuffle_*`, `ballot`, `any`, `all`,
`reduce_*`) uses the full-warp mask: all 32 lanes must execute it together. If a condition that
depends on the thread decides whether the barrier is reached, the threads that skip it
never arrive and the others wait forever (on the GPU: a hang, or undefined results).

    let t = thread::threadIdx_x();
    if t < 128 {
        TILE[t] = x;
        thread::sync_threads();     // error[OX0009]: not every thread reaches it
    }

    if t < 128 { TILE[t] = x; }
    thread::sync_threads();         // ok: after the `if`, every thread gets here

The same holds for an early `return` before a barrier (`if i >= n { return; }`), for a
loop whose trip count depends on the thread, for `if let Some(o) = out.get_mut(idx)`
(the `None` threads skip the body) and for a call to a device function that contains a
barrier. oxidec tracks which values depend on `threadIdx`, the lane or the warp (through
arithmetic, loads at thread-dependent addresses, calls, and assignments made under such
conditions). Conditions on `warp_id()` or on `threadIdx.x < 32 * k` are the same for all
lanes of a warp, so warp collectives under them are fine (this assumes blockDim.x is a
multiple of 32). Branches to a trap (bounds checks) do not count.

A masked collective (`shuffle_xor_sync(mask, ..)`, `ballot_sync`, ...) must be executed by
exactly its mask's lanes: a constant mask is compared with the lane-id conditions around it
(`if lane < 16 { shuffle_xor_sync(0xffff, v, 1) }`), a `ballot(p)` mask with a branch on `p`.
""",
    "OX0010": """\
A warning (the lint `shared_race`): within one barrier interval (between two
`sync_threads()`), one thread writes an element of a shared array and another thread may
read the same element. The read sees the old or the new value depending on timing.

    TILE[t] = x[i];
    let left = TILE[t + 1];         // warning[OX0010]: thread t + 1 writes it
    thread::sync_threads();
    let right = TILE[t + 1];        // ok: the barrier orders the write before the read

oxidec writes each index as a * threadIdx + b (constants a and b, and values that are the
same for every thread as symbols), adds the conditions that lead to each access and the
array's bounds, and checks whether two different threads can meet at one element. So
`if t < half { S[t] += S[t + half]; }` (a tree reduction) is proved race-free, and
`S[t]` written then read by the same thread is fine. The note says which indices it
compared, or that an index is not affine in the thread (`S[j]` with `j` loaded from
memory, `S[t * t]`, `S[t % 7]`); then it cannot prove the access safe and warns.

Silence it with `#[allow(shared_race)]` on the kernel (or its module) when the race is
intended; `#[deny(shared_race)]` makes it an error.
""",
    "OX0011": """\
The block-level API is used in a way it does not support: a `SharedArray` declared
outside a kernel, an atomic view of a type without atomics, a warp shuffle of a value
type it cannot move, wrong `gpu_printf!` arguments. The message says which rule.

    static mut T: SharedArray<f32, 32> = SharedArray::UNINIT;   // at module level:
                                                                // error[OX0011]
    #[kernel] pub fn k() {
        static mut T: SharedArray<f32, 32> = SharedArray::UNINIT;  // ok
    }
""",
    "OX0012": """\
The program asks for more than the GPU can give, so ptxas would reject the module or the
launch would fail. oxidec checks the limits of sm_80 and sm_90 before writing PTX:

- kernel parameters: at most 4352 bytes in all (PTX ISA 7.8; a `&[T]` is 16 bytes,
  a scalar its size, a struct its C layout);
- static shared memory: at most 48 KiB per kernel (`SharedArray`s of the kernel and of
  the functions it calls); larger tiles need `DynamicSharedArray` and the opt-in;
- `#[launch_bounds(MAX_THREADS, MIN_BLOCKS)]`: MAX_THREADS between 1 and 1024; a
  MIN_BLOCKS above 32 is ignored (a warning);
- local memory: at most 512 KiB per thread (local arrays, and locals whose address is
  taken).

    static mut T: SharedArray<u32, 65535> = SharedArray::UNINIT;   // error[OX0012]
    static mut T: SharedArray<u32, 8192> = SharedArray::UNINIT;    // ok: 32 KiB
""",
    "OX0013": """\
An item of the device API needs a newer GPU than the build targets: the minimum is the
item's (`cluster::cluster_ctaidX` needs sm_90, `barrier::nanosleep` sm_70). Build with
`--arch` set to that architecture or a newer one. The Blackwell-only parts of the API
(`tcgen05` tensor cores, `clc` cluster launch control) need sm_100, which oxidec does not
target (it builds for sm_80 to sm_90; the H200 is sm_90).

    let r = cluster::cluster_ctaidX();   // with --arch sm_80: error[OX0013]
                                         // with --arch sm_90: ok

Hopper's arch-specific items (`wgmma::*`, TMA multicast) need `sm_90a`: a build for sm_90
emits `.target sm_90a` for a module that uses them (`--arch sm_90a` names it outright).
""",
    "OX0030": """\
`oxidec run --sim` (or the Python API's `device="sim"`) was asked to run a kernel that uses
what only the GPU has: the CPU simulator runs one block at a time and models neither
thread-block clusters (`#[cluster_launch]`, `cluster::cluster_sync`, distributed shared
memory through `cluster::map_shared_rank`), TMA (`tma::cp_async_bulk_tensor_*`) nor wgmma.
The cluster registers alone do run there: without a cluster launch every block is a cluster
of one. Run the kernel on an sm_90 GPU instead.

    #[kernel]
    #[cluster_launch(4, 1, 1)]
    pub fn reduce(x: &[f32], mut out: DisjointSlice<f32>) { .. }
    // oxidec run --sim reduce.rs ..   error[OX0030]
    // oxidec run --gpu reduce.rs ..   ok on an H100/H200
""",
    # -- rustc's ----------------------------------------------------------------------
    "E0005": """\
A `let` pattern must match every value; `Some(x)` does not match `None`.

    let Some(i) = thread::index_2d::<16>();         // error[E0005]
    if let Some(i) = thread::index_2d::<16>() { }   // ok
""",
    "E0054": """\
`as` does not convert numbers to `bool`. Compare instead:

    let b = n as bool;     // error[E0054]
    let b = n != 0;        // ok
""",
    "E0061": """\
A call passes a different number of arguments than the function takes.

    #[device] fn lerp(a: f32, b: f32, t: f32) -> f32 { a + (b - a) * t }
    let v = lerp(x, y);             // error[E0061]: takes 3 arguments but 2 were supplied
""",
    "E0063": """\
A struct literal leaves out fields; every field needs a value.

    struct P { x: f32, y: f32 }
    let p = P { x: 1.0 };           // error[E0063]: missing field `y`
    let p = P { x: 1.0, y: 0.0 };   // ok
""",
    "E0069": """\
`return;` without a value in a function that returns one.

    #[device] fn f(x: f32) -> f32 { if x < 0.0 { return; } x }   // error[E0069]
    #[device] fn f(x: f32) -> f32 { if x < 0.0 { return 0.0; } x }
""",
    "E0070": """\
The left side of `=` is not a place (a variable, a field, an element, `*p`).

    a + b = 1.0;           // error[E0070]
""",
    "E0080": """\
A constant could not be evaluated at compile time: a division by zero, an overflow, or a
value only known at run time.

    const N: usize = 1 / 0;         // error[E0080]
""",
    "E0133": """\
Some operations can break memory safety, so Rust (and oxidec) only allow them inside an
`unsafe { ... }` block or an `unsafe fn`, where the programmer takes responsibility:

- dereferencing a raw pointer (`*p` with `p: *mut T` or `*const T`), and `p.add(n)`;
- using a `static mut`, which every `SharedArray` is (shared by all threads of a block);
- `DisjointSlice::get_unchecked_mut(i)` (no bounds check, no one-element-per-thread rule);
- calling an `unsafe fn`, or an unsafe API function (`DeviceAtomicU32::from_ptr`).

    static mut TILE: SharedArray<f32, 256> = SharedArray::UNINIT;
    TILE[t] = x;                    // error[E0133]: use of mutable static
    unsafe { TILE[t] = x; }         // ok

`DynamicSharedArray::<T>::get()` is safe (it only makes a pointer); reading or writing
through the pointer is a raw-pointer dereference and needs `unsafe`.
""",
    "E0268": """\
`break` or `continue` outside of any loop.

    if done { break; }     // error[E0268] when not inside `loop`, `while` or `for`
""",
    "E0277": """\
A value of this type does not support the operation: iterating over something that is
not a range or an array, a range over floats.

    for x in 0.0..1.0 { }          // error[E0277]: the range bounds must be integers
""",
    "E0282": """\
The type of a binding cannot be inferred from its uses; annotate it.

    let v;                 // error[E0282] if nothing ever gives `v` a type
    let v: f32;            // ok
""",
    "E0308": """\
A value has a different type from the one expected (by an annotation, a parameter, the
other branch of an `if`, the return type). Integer and float types never convert
implicitly; write `as`.

    let n: u32 = 1.0;              // error[E0308]: expected `u32`, found floating-point
    let n: u32 = 1.0f32 as u32;    // ok
""",
    "E0317": """\
An `if` without `else` has type `()`, so it cannot be used as a value.

    let v = if c { 1.0 };                 // error[E0317]
    let v = if c { 1.0 } else { 0.0 };    // ok
""",
    "E0369": """\
The binary operator is not defined for these operand types.

    let b = true + false;          // error[E0369]
""",
    "E0381": """\
A binding is read before it has been given a value on every path to the read.

    let v: f32;
    if i < n { v = x[i]; }
    out = v;                       // error[E0381]: `v` is possibly-uninitialized

    let v = if i < n { x[i] } else { 0.0 };   // ok

Declaring first and assigning later is fine, as long as every path assigns before use.
""",
    "E0382": """\
A value of a type that is not `Copy` was moved (given away) and then used again.
`ThreadIndex` and `DisjointSlice` are not `Copy` (nor `Clone`): `out.get_mut(idx)` and
passing `idx` to a function consume the index, so that each thread can claim its element
only once.

    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) { *o = 1.0; }
    let i = idx.get();             // error[E0382]: borrow of moved value: `idx`

    let idx = thread::index_1d();
    let i = idx.get();             // ok: read the plain `usize` first
    if let Some(o) = out.get_mut(idx) { *o = x[i]; }

Scalars, arrays of `Copy` values and `#[derive(Clone, Copy)]` structs are copied instead.
A value moved in one branch may be used again after it is given a new value.
""",
    "E0384": """\
A binding that is not `mut` is assigned a second time (or a parameter that is not `mut`
is assigned at all).

    let total = 0.0;
    for j in 0..n { total += x[j]; }      // error[E0384]
    let mut total = 0.0;                  // ok

`let x; x = 1;` is allowed: the first assignment initialises `x`. A `let` inside a loop
makes a new binding on every iteration, so it is not a second assignment.
""",
    "E0391": """\
A constant's value depends on itself.

    const A: usize = B + 1;
    const B: usize = A;            // error[E0391]: cycle detected
""",
    "E0412": """\
A type name is not defined (or not imported).

    let t: Flaot = 1.0;            // error[E0412]: cannot find type `Flaot`
""",
    "E0422": """\
A struct literal names a struct that does not exist.

    let p = Piont { x: 1.0 };      // error[E0422]
""",
    "E0423": """\
In rustc: a type or module name used where a value is expected (`let v = f32;`). oxidec
reports such a name as a value it cannot find (E0425).
""",
    "E0425": """\
A name is used that no variable, constant or function in scope has.

    let y = undefined_name;        // error[E0425]
""",
    "E0426": """\
`break 'label` or `continue 'label` names a label no enclosing loop has.

    'outer: for i in 0..n { for j in 0..n { break 'outr; } }   // error[E0426]
""",
    "E0428": """\
Two items in one file have the same name.

    const N: usize = 256;
    const N: usize = 512;          // error[E0428]
""",
    "E0433": """\
A path's module or type part names nothing: the first segment is no module, type or crate
in scope, or a later one is not in the module before it.

    mod geo { pub fn area(w: f32, h: f32) -> f32 { w * h } }
    let a = gemo::area(w, h);      // error[E0433]: use of undeclared crate or module `gemo`
    let b = geo::shape::area(w, h);  // error[E0433]: could not find `shape` in `geo`

A path into the device API that names nothing (`thread::index1d()`) is OX0006, with the
nearest API name.
""",
    "E0435": """\
A constant (or an array length) uses a value only known at run time.

    let n = x.len();
    let a = [0.0f32; n];           // error[E0435]: write a `const` length
""",
    "E0499": """\
Two mutable borrows of the same place are alive at once. A borrow lasts from where it is
made until the last use of the reference (not to the end of the scope), so this is only
an error when the first reference is used after the second borrow.

`get_mut` borrows the whole `DisjointSlice` mutably for as long as its result is used:

    let a = out.get_mut(i);
    let b = out.get_mut(j);        // error[E0499]: `out` borrowed twice
    if let Some(x) = a { *x = 1.0; }

    if let Some(x) = out.get_mut(i) { *x = 1.0; }   // ok: the first borrow is over
    if let Some(y) = out.get_mut(j) { *y = 2.0; }

Borrows of different fields of a struct do not conflict; borrows of different elements
of an array do (the indices are not compared). `get_mut` on two different slices is fine.
""",
    "E0502": """\
A place is borrowed mutably while a shared borrow of it is alive, or the other way
round. `out.len()` borrows `out`, so it conflicts with a live `get_mut` result:

    if let Some(o) = out.get_mut(idx) {
        *o = out.len() as f32;     // error[E0502]
    }

    let n = out.len();             // ok: read it before
    if let Some(o) = out.get_mut(idx) { *o = n as f32; }
""",
    "E0503": """\
A value is read while a mutable borrow of it is alive (the value may be changing
through the reference).

    let r = &mut acc;
    let copy = acc;                // error[E0503]
    *r += 1.0;
""",
    "E0505": """\
A value is moved out while a borrow of it is alive; the reference would point at a value
that has been given away.

    let r = &holder;
    consume(holder.idx);           // error[E0505]
    let w = r.weight;
""",
    "E0506": """\
A place is assigned while it is borrowed, which would change the value under the
reference.

    let r = &mut a[1];
    a[2] = 3.0;                    // error[E0506]
    *r = 1.0;
""",
    "E0507": """\
A value that is not `Copy` is moved out from behind a reference or a pointer; that would
leave the referenced place without a value.

    let r = &mut idx;              // idx: ThreadIndex
    let stolen = *r;               // error[E0507]
""",
    "E0515": """\
A function returns a reference to one of its own local variables, which stop existing
when the function returns.

    #[device] fn f() -> &f32 { let x = 1.0; &x }     // error[E0515]
    #[device] fn f() -> f32 { 1.0 }                   // ok: return the value
""",
    "E0594": """\
An assignment through a shared reference (`&T`, `&[T]`), through a `*const T`, or to a
field or element of a binding that is not `mut`.

A kernel's `&[T]` parameter is read-only; outputs go through a `DisjointSlice<T>`:

    #[kernel] pub fn k(x: &[f32]) { x[0] = 1.0; }           // error[E0594]

    #[kernel] pub fn k(mut out: DisjointSlice<f32>) {
        if let Some(o) = out.get_mut(thread::index_1d()) { *o = 1.0; }   // ok
    }

    let p = P { a: 1.0 };
    p.a = 2.0;                     // error[E0594]: write `let mut p`
""",
    "E0596": """\
A mutable borrow of something that cannot be borrowed mutably: a binding that is not
`mut`, or data behind a shared reference. `get_mut` takes `&mut self`, so a
`DisjointSlice` parameter must be declared `mut`:

    #[kernel] pub fn k(out: DisjointSlice<f32>) {
        out.get_mut(thread::index_1d());       // error[E0596]
    }
    #[kernel] pub fn k(mut out: DisjointSlice<f32>) { ... }   // ok

    let v = 1.0f32;
    let r = &mut v;                // error[E0596]: write `let mut v`
""",
    "E0597": """\
A reference outlives the variable it points to: the variable's block ends while the
reference is still going to be used.

    let r;
    {
        let x = 5.0;
        r = &x;                    // error[E0597]
    }                              // `x` dropped here while still borrowed
    out = *r;

Declare `x` in the outer block, or copy the value out instead of keeping a reference.
""",
    "E0560": """\
A struct literal names a field the struct does not have.

    struct P { x: f32 }
    let p = P { x: 1.0, z: 2.0 };  // error[E0560]
""",
    "E0571": """\
Only `loop` can `break` with a value (`while` and `for` may end without a `break`).

    let v = while c { break 1.0; };     // error[E0571]
    let v = loop { break 1.0; };        // ok
""",
    "E0599": """\
No method with this name exists for the receiver's type. The help suggests the nearest
existing one.

    let r = x.sqr();               // error[E0599] for x: f32; did you mean `sqrt`?
""",
    "E0600": """\
The unary operator does not apply to the type: `-` on an unsigned integer or a bool,
`!` on a float.

    let n = -(x as u32);           // error[E0600]: unsigned values cannot be negated
""",
    "E0606": """\
The cast between these two types is not one `as` performs.

    let f = flag as f32;           // error[E0606] for flag: bool; use `as u32 as f32`
""",
    "E0608": """\
The value cannot be indexed with `[]`. A `DisjointSlice` is written through
`get_mut(thread_index)`, not by index:

    out[i] = 1.0;                  // error[E0608]
    if let Some(o) = out.get_mut(idx) { *o = 1.0; }   // ok
""",
    "E0609": """\
The struct (or tuple) has no field with that name.

    struct P { x: f32 }
    let v = p.y;                   // error[E0609]
""",
    "E0610": """\
A field access on a primitive type, which has no fields.

    let v = n.x;                   // error[E0610] for n: u32
""",
    "E0614": """\
`*` applied to a value that is not a reference or a pointer.

    let v = *n;                    // error[E0614] for n: f32
""",
    "E0618": """\
A call of something that is not a function (a local variable, an expression).

    let f = 1.0;
    let v = f(2.0);                // error[E0618]
""",
}


def _add_pattern_pages() -> None:
    from . import (explain_generics, explain_memory, explain_numbers, explain_patterns,
                   explain_traits)
    for module in (explain_patterns, explain_numbers, explain_generics, explain_traits,
                   explain_memory):
        PAGES.update(module.PAGES)


_add_pattern_pages()


def explain_text(code: str) -> str:
    summary = CODES[code]
    body = PAGES.get(code, "")
    return f"{code}: {summary}\n" + (f"\n{body}" if body else "")
