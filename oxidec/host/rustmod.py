"""`oxidec build --emit rust`: a Rust module for a Rust host, needing no crate.

    // build.rs runs `oxidec build src/kernels.rs --emit rust -o $OUT_DIR/kernels.rs`
    #[allow(dead_code)]
    mod kernels { include!(concat!(env!("OUT_DIR"), "/kernels.rs")); }

    let m = kernels::Module::load()?;                    // into the current CUDA context
    unsafe { m.launch_vecadd((n / 256, 1, 1), 256, 0, std::ptr::null_mut(),
                             DeviceSlice::new(a, n), DeviceSlice::new(b, n),
                             DisjointSlice::new(c, n))?; }

It holds `pub const PTX: &str`, `#[repr(C)]` structs for by-value parameters (their size and
alignment asserted at compile time against the kernel's layout), `DeviceSlice<T>` /
`DisjointSlice<T>` / `DevicePtr<T>` (device addresses, `u64` as the driver API and cudarc
hold them), and a `Module` with one `unsafe fn launch_NAME` per kernel that checks
`#[launch_bounds]` and the launch contract (`Error::Launch` with the Python API's message)
before `cuLaunchKernel`. The driver API is declared `extern "C"` and linked with `-lcuda`.
Names are scoped by the Rust module the file is included into.
"""
from __future__ import annotations

import re

from .. import __version__
from .. import types as T
from ..driver import Compilation
from ..signature import KernelParam, KernelSignature
from .abi import (Aggregate, collect_aggregates, elem_scalar, is_aggregate, no_runtime2d,
                  launch_bounds_threads, rust_ident, struct_ident, type_tag)
from .contract_code import Check, contract_checks

PRELUDE = '''
use std::ffi::{c_char, c_int, c_uint, c_void};
use std::marker::PhantomData;

type CUmodule = *mut c_void;
type CUfunction = *mut c_void;
/// A CUDA stream (`CUstream`); null is the default stream.
pub type CUstream = *mut c_void;

const CU_JIT_ERROR_LOG_BUFFER: c_int = 5;
const CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES: c_int = 6;
const JIT_LOG_BYTES: usize = 4096;

#[link(name = "cuda")]
extern "C" {
    fn cuModuleLoadDataEx(module: *mut CUmodule, image: *const c_void, num_options: c_uint,
                          options: *mut c_int, values: *mut *mut c_void) -> c_int;
    fn cuModuleGetFunction(function: *mut CUfunction, module: CUmodule,
                           name: *const c_char) -> c_int;
    fn cuModuleUnload(module: CUmodule) -> c_int;
    fn cuLaunchKernel(function: CUfunction, grid_x: c_uint, grid_y: c_uint, grid_z: c_uint,
                      block_x: c_uint, block_y: c_uint, block_z: c_uint, shared_bytes: c_uint,
                      stream: CUstream, params: *mut *mut c_void,
                      extra: *mut *mut c_void) -> c_int;
}

/// Why a load or a launch failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A driver call returned `code` (a `CUresult`); `log` is the JIT error log of a load.
    Cuda { call: &'static str, code: i32, log: String },
    /// `#[launch_bounds]` or the launch contract does not hold; nothing was launched.
    Launch(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Cuda { call, code, log } if log.is_empty() => {
                write!(f, "{call} failed with CUresult {code}")
            }
            Error::Cuda { call, code, log } => write!(f, "{call} failed with CUresult {code}: {log}"),
            Error::Launch(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for Error {}

fn check(call: &'static str, code: c_int) -> Result<(), Error> {
    if code == 0 { Ok(()) } else { Err(Error::Cuda { call, code, log: String::new() }) }
}

/// A grid or block shape: `256`, `(64, 4)` or `(8, 8, 4)` convert into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dim3 {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

impl From<u32> for Dim3 {
    fn from(x: u32) -> Dim3 { Dim3 { x, y: 1, z: 1 } }
}

impl From<(u32, u32)> for Dim3 {
    fn from((x, y): (u32, u32)) -> Dim3 { Dim3 { x, y, z: 1 } }
}

impl From<(u32, u32, u32)> for Dim3 {
    fn from((x, y, z): (u32, u32, u32)) -> Dim3 { Dim3 { x, y, z } }
}
'''

POINTERS = {
    "DeviceSlice": ("/// `&[T]` on the device: the address of `len` elements (a `CUdeviceptr`, "
                    "as cudarc's\n/// `*slice.device_ptr()`).", True),
    "DisjointSlice": ("/// `DisjointSlice<T>` on the device: `len` elements, each written by its "
                      "own thread.", True),
    "DevicePtr": ("/// `&T`, `*const T` or `*mut T` on the device: an address.", False),
}


def pointer_type(name: str) -> str:
    doc, has_len = POINTERS[name]
    fields = "    pub ptr: u64,\n" + ("    pub len: usize,\n" if has_len else "")
    args = "ptr: u64, len: usize" if has_len else "ptr: u64"
    init = "ptr, len" if has_len else "ptr"
    return (f"{doc}\n#[repr(C)]\npub struct {name}<T> {{\n{fields}"
            f"    _elem: PhantomData<*const T>,\n}}\n\n"
            f"impl<T> {name}<T> {{\n    pub fn new({args}) -> {name}<T> {{\n"
            f"        {name} {{ {init}, _elem: PhantomData }}\n    }}\n}}\n\n"
            f"impl<T> Clone for {name}<T> {{\n    fn clone(&self) -> {name}<T> {{ *self }}\n}}\n\n"
            f"impl<T> Copy for {name}<T> {{}}\n")


def camel(tag: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in tag.split("_"))


def rust_type(ty: T.Ty) -> str:
    ty = elem_scalar(ty)
    if T.is_half(ty):  # f16 is unstable in Rust and bf16 no Rust type: the host holds bits
        return "u16"
    if isinstance(ty, (T.IntTy, T.FloatTy, T.BoolTy)):
        return str(ty)
    if isinstance(ty, T.ArrayTy):
        return f"[{rust_type(ty.elem)}; {ty.length}]"
    if isinstance(ty, T.StructTy):
        return struct_ident(ty)
    return camel(type_tag(ty))  # tuples and Options: repr(C) structs


def declare_aggregate(agg: Aggregate) -> str:
    if isinstance(agg.ty, T.ArrayTy):
        return ""
    name = rust_type(agg.ty)
    fields = "".join(f"    pub {rust_ident(n)}: {rust_type(f)},\n" for n, f in agg.fields)
    return (f"/// `{agg.ty}` as the kernel lays it out ({agg.size} bytes, align {agg.align}).\n"
            f"#[repr(C)]\n#[derive(Clone, Copy, Debug, PartialEq)]\npub struct {name} {{\n"
            f"{fields}}}\n\n"
            f"const _: () = assert!(std::mem::size_of::<{name}>() == {agg.size}\n"
            f"    && std::mem::align_of::<{name}>() == {agg.align});\n")


def rust_param(p: KernelParam) -> str:
    no_runtime2d(p)
    name = rust_ident(p.name)
    if p.kind == "scalar":
        return f"{name}: {rust_type(p.ty)}"
    wrapper = {"slice": "DeviceSlice", "disjoint": "DisjointSlice", "ptr": "DevicePtr"}[p.kind]
    return f"{name}: {wrapper}<{rust_type(p.elem)}>"


def param_slots(p: KernelParam) -> list[tuple[str, str]]:
    """(Rust type, value) of each PTX `.param` the parameter fills, in order."""
    name = rust_ident(p.name)
    if p.kind == "scalar":
        if isinstance(p.ty, T.BoolTy):
            return [("u8", f"{name} as u8")]
        return [(rust_type(p.ty), name)]
    if p.kind in ("slice", "disjoint"):
        return [("u64", f"{name}.ptr"), ("u64", f"{name}.len as u64")]
    return [("u64", f"{name}.ptr")]


def unparen(code: str) -> str:
    """`(a == b)` -> `a == b` where the outer parentheses enclose the whole (rustc warns)."""
    while code.startswith("(") and code.endswith(")"):
        depth = 0
        for i, ch in enumerate(code):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0 and i < len(code) - 1:
                return code
        code = code[1:-1]
    return code


def format_escape(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def string_literal(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def check_code(check: Check) -> str:
    msg = format_escape(check.message)
    args: list[str] = []
    pre = ""
    cond = check.cond
    if check.need is not None:
        pre = (f"        let need: i128 = {unparen(check.need)};\n"
               "        let have = [grid.x, grid.y, grid.z, block.x, block.y, block.z]"
               ".iter().map(|&d| d as i128).product::<i128>();\n")
        cond = "have >= need"
        msg = msg.replace("{{need}}", "{}").replace("{{have}}", "{}")
        args += ["need", "have"]
    elif "{{block}}" in msg:
        msg = msg.replace("{{block}}", "({}, {}, {})")
        args += ["block.x", "block.y", "block.z"]
        cond = cond.replace("block == ", "(block.x, block.y, block.z) == ")
    if check.leaves:
        msg += " (" + ", ".join(f"{format_escape(lf.label)} = {{}}" for lf in check.leaves) + ")"
        args += [lf.code for lf in check.leaves]
    fmt = string_literal(msg)
    return (f"    {{\n{pre}        if !({unparen(cond)}) {{\n"
            f"            problems.push(format!({fmt}{''.join(', ' + a for a in args)}));\n"
            "        }\n    }\n")


def launcher(sig: KernelSignature) -> str:
    params = "".join(f",\n        {rust_param(p)}" for p in sig.params)
    rust_sig = ", ".join(f"{p.name}: {p.ty}" for p in sig.params)
    body = "        let grid: Dim3 = grid.into();\n        let block: Dim3 = block.into();\n"
    bound = launch_bounds_threads(sig)
    checks = contract_checks(sig, "rust")
    if bound or checks:
        body += "        let mut problems: Vec<String> = Vec::new();\n"
    if bound:
        body += ("        let threads = block.x as u64 * block.y as u64 * block.z as u64;\n"
                 f"        if threads > {bound} {{\n"
                 "            problems.push(format!(\"block ({}, {}, {}) has {} threads, but "
                 f"kernel `{sig.name}` has #[launch_bounds({bound}, ..)]\", block.x, block.y, "
                 "block.z, threads));\n        }\n")
    body += "".join("    " + line + "\n" for c in checks
                    for line in check_code(c).rstrip("\n").split("\n"))
    if bound or checks:
        body += ("        if !problems.is_empty() {\n"
                 "            return Err(Error::Launch(problems.join(\"\\n\")));\n        }\n")
    slots = [s for p in sig.params for s in param_slots(p)]
    for i, (ty, value) in enumerate(slots):
        body += f"        let p{i}: {ty} = {value};\n"
    if slots:
        ptrs = ", ".join(f"&p{i} as *const {ty} as *mut c_void"
                         for i, (ty, _) in enumerate(slots))
        body += f"        let mut params: [*mut c_void; {len(slots)}] = [{ptrs}];\n"
        arg = "params.as_mut_ptr()"
    else:
        arg = "std::ptr::null_mut()"
    body += (f"        check(\"cuLaunchKernel\", cuLaunchKernel(self.fn_{sig.name}, grid.x, "
             "grid.y, grid.z, block.x, block.y, block.z,\n"
             f"            shared_bytes, stream, {arg}, std::ptr::null_mut()))\n")
    return (f"    /// Launches `{sig.name}({rust_sig})`.\n    ///\n    /// # Safety\n"
            "    /// Every pointer must address device memory of this context holding at least\n"
            "    /// `len` elements of its type (a `DevicePtr`: one), valid until the kernel "
            "ends.\n"
            f"    pub unsafe fn launch_{sig.name}(&self, grid: impl Into<Dim3>, "
            f"block: impl Into<Dim3>,\n        shared_bytes: u32, stream: CUstream{params})"
            f" -> Result<(), Error> {{\n{body}    }}\n")


def raw_string(text: str) -> str:
    runs = [len(m.group(1)) for m in re.finditer(r'"(#*)', text)]
    hashes = "#" * (max(runs, default=0) + 1)
    return f"r{hashes}\"{text}\"{hashes}"


def emit_rust(comp: Compilation, prefix: str) -> str:
    sigs = list(comp.kernels.values())
    out = [f"// Generated by oxidec {__version__} from {comp.source.name} "
           f"(--arch {comp.options.arch}): do not edit.\n"
           f"// Kernels of `{prefix}` for a Rust host over the CUDA driver API; link with "
           "-lcuda.\n", PRELUDE]
    kinds = {p.kind for s in sigs for p in s.params}
    for name, kind in (("DeviceSlice", "slice"), ("DisjointSlice", "disjoint"),
                       ("DevicePtr", "ptr")):
        if kind in kinds:
            out.append(pointer_type(name))
    for agg in collect_aggregates(sigs, prefix):
        if not isinstance(agg.ty, T.ArrayTy):
            out.append(declare_aggregate(agg))
    out.append(f"/// The PTX of {comp.source.name}.\n"
               f"pub const PTX: &str = {raw_string(comp.ptx)};\n")
    fields = "".join(f"    fn_{s.name}: CUfunction,\n" for s in sigs)
    out.append(f"/// The kernels of {comp.source.name}, loaded into the current CUDA context; "
               f"unloaded on drop.\npub struct Module {{\n    module: CUmodule,\n{fields}}}\n")
    gets = "".join(
        f"        let mut fn_{s.name}: CUfunction = std::ptr::null_mut();\n"
        f"        let name = b\"{s.name}\\0\";\n"
        f"        if let Err(e) = check(\"cuModuleGetFunction\", unsafe {{\n"
        f"            cuModuleGetFunction(&mut fn_{s.name}, module, name.as_ptr() as *const c_char)\n"
        f"        }}) {{\n            unsafe {{ cuModuleUnload(module); }}\n"
        f"            return Err(e);\n        }}\n" for s in sigs)
    names = "".join(f", fn_{s.name}" for s in sigs)
    out.append(
        "impl Module {\n"
        "    /// Loads the PTX (`cuModuleLoadDataEx`); a JIT failure carries the JIT's log.\n"
        "    pub fn load() -> Result<Module, Error> {\n"
        "        let image = std::ffi::CString::new(PTX).expect(\"PTX has no NUL byte\");\n"
        "        let mut log = vec![0u8; JIT_LOG_BYTES];\n"
        "        let mut options = [CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES];\n"
        "        let mut values = [log.as_mut_ptr() as *mut c_void, JIT_LOG_BYTES as *mut c_void];\n"
        "        let mut module: CUmodule = std::ptr::null_mut();\n"
        "        let code = unsafe {\n"
        "            cuModuleLoadDataEx(&mut module, image.as_ptr() as *const c_void, 2,\n"
        "                               options.as_mut_ptr(), values.as_mut_ptr())\n"
        "        };\n"
        "        if code != 0 {\n"
        "            let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());\n"
        "            let log = String::from_utf8_lossy(&log[..end]).into_owned();\n"
        "            return Err(Error::Cuda { call: \"cuModuleLoadDataEx\", code, log });\n"
        "        }\n"
        f"{gets}"
        f"        Ok(Module {{ module{names} }})\n"
        "    }\n\n"
        + "\n".join(launcher(s) for s in sigs) +
        "}\n\n"
        "impl Drop for Module {\n"
        "    fn drop(&mut self) {\n"
        "        unsafe { cuModuleUnload(self.module); }\n"
        "    }\n}\n")
    return "\n".join(out)
