"""`oxidec build --emit header`: a self-contained C/C++ header for a host program.

    #include "vecadd.h"
    vecadd_module m;
    if (vecadd_load(&m) != CUDA_SUCCESS) fprintf(stderr, "%s\\n", m.error);
    CUresult r = vecadd_launch_vecadd(&m, oxidec_dim(n / 256, 1, 1), oxidec_dim(256, 1, 1),
                                      0, NULL, a, n, b, n, oxidec_disjoint_f32{c, n});

It holds the PTX, a loader over the CUDA driver API (`cuModuleLoadDataEx`, the JIT error log
kept in `m.error`), and one launcher per kernel whose parameters mirror the Rust signature
(`abi.py`), returning a `CUresult`. A launcher checks `#[launch_bounds]` and the launch
contract first; a violation returns `CUDA_ERROR_INVALID_VALUE` with the Python API's message in
`m.error`. Valid C++17 and C11; link with `-lcuda`.
"""
from __future__ import annotations

from .. import __version__
from .. import types as T
from ..driver import Compilation
from ..signature import KernelParam, KernelSignature
from .abi import (C_SCALARS, Aggregate, HostAbiError, c_ident, collect_aggregates, elem_scalar,
                  is_aggregate, launch_bounds_threads, aggregate_name, no_runtime2d, type_tag)
from .contract_code import Check, contract_checks

ERROR_BYTES = 1024

COMMON = r"""
#ifndef OXIDEC_COMMON_H_
#define OXIDEC_COMMON_H_
#ifdef __cplusplus
#define OXIDEC_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#define OXIDEC_ALIGNOF(type) alignof(type)
#else
#define OXIDEC_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#define OXIDEC_ALIGNOF(type) _Alignof(type)
#endif

/* A grid or block shape, as cuLaunchKernel takes it. */
typedef struct oxidec_dim3 { unsigned int x, y, z; } oxidec_dim3;

static inline oxidec_dim3 oxidec_dim(unsigned int x, unsigned int y, unsigned int z) {
    oxidec_dim3 d;
    d.x = x; d.y = y; d.z = z;
    return d;
}

/* Appends one line to a launcher's error buffer. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static inline void oxidec_appendf(char* buf, size_t size, const char* fmt, ...) {
    size_t used = strlen(buf);
    va_list args;
    if (used + 1 >= size) return;
    if (used > 0) { buf[used++] = '\n'; buf[used] = '\0'; }
    va_start(args, fmt);
    vsnprintf(buf + used, size - used, fmt, args);
    va_end(args);
}
#endif /* OXIDEC_COMMON_H_ */
"""


def c_scalar(ty: T.Ty) -> str:
    ty = elem_scalar(ty)
    if isinstance(ty, T.IntTy):
        if ty.pointer_sized:
            return "ptrdiff_t" if ty.signed else "size_t"
        return C_SCALARS["i" if ty.signed else "u", ty.bits]
    if isinstance(ty, T.FloatTy):  # f16 / bf16: their bits (`__half` needs cuda_fp16.h)
        return {16: "uint16_t", 32: "float"}.get(ty.bits, "double")
    if isinstance(ty, T.BoolTy):
        return "bool"
    raise HostAbiError(f"values of type `{ty}` cannot cross the host boundary")


def c_type(ty: T.Ty, prefix: str) -> str:
    ty = elem_scalar(ty)
    return aggregate_name(ty, prefix) if is_aggregate(ty) else c_scalar(ty)


def c_field(name: str, ty: T.Ty, prefix: str) -> str:
    """A struct member; arrays inside structs stay C arrays."""
    dims = ""
    while isinstance(ty, T.ArrayTy):
        dims += f"[{ty.length}]"
        ty = ty.elem
    return f"{c_type(ty, prefix)} {name}{dims};"


def disjoint_type(elem: T.Ty, prefix: str) -> str:
    tag = aggregate_name(elem_scalar(elem), prefix) if is_aggregate(elem_scalar(elem)) \
        else type_tag(elem)
    return f"oxidec_disjoint_{tag}"


def declare_disjoint(elem: T.Ty, prefix: str) -> list[str]:
    name = disjoint_type(elem, prefix)
    guard = name.upper() + "_DEFINED_"
    return [f"#ifndef {guard}", f"#define {guard}",
            f"/* DisjointSlice<{elem}>: each thread writes its own element. */",
            f"typedef struct {name} {{ {c_type(elem, prefix)}* ptr; size_t len; }} {name};",
            "#endif", ""]


def declare_aggregate(agg: Aggregate, prefix: str) -> list[str]:
    lines = [f"/* {agg.ty} (C layout: {agg.size} bytes, align {agg.align}) */",
             f"typedef struct {agg.name} {{"]
    if isinstance(agg.ty, T.ArrayTy):
        lines.append("    " + c_field("elems", agg.ty, prefix))
    else:
        lines += ["    " + c_field(c_ident(n), f, prefix) for n, f in agg.fields]
    lines.append(f"}} {agg.name};")
    lines.append(f"OXIDEC_STATIC_ASSERT(sizeof({agg.name}) == {agg.size} && "
                 f"OXIDEC_ALIGNOF({agg.name}) == {agg.align}, "
                 f'"{agg.name}: C layout differs from the kernel\'s");')
    return lines + [""]


def c_params(p: KernelParam, prefix: str) -> list[str]:
    no_runtime2d(p)
    name = c_ident(p.name)
    if p.kind == "scalar":
        return [f"{c_type(p.ty, prefix)} {name}"]
    if p.kind == "slice":
        const = "" if p.writable else "const "
        return [f"{const}{c_type(p.elem, prefix)}* {name}", f"size_t {name}_len"]
    if p.kind == "disjoint":
        return [f"{disjoint_type(p.elem, prefix)} {name}"]
    const = "" if p.writable else "const "
    return [f"{const}{c_type(p.elem, prefix)}* {name}"]


def param_slots(p: KernelParam, prefix: str) -> list[tuple[str, str]]:
    """(C type, value) of each PTX `.param` the parameter fills, in order."""
    name = c_ident(p.name)
    if p.kind == "scalar":
        if isinstance(p.ty, T.BoolTy):
            return [("unsigned char", f"{name} ? 1 : 0")]
        return [(c_type(p.ty, prefix), name)]
    if p.kind == "slice":
        return [("unsigned long long", f"(unsigned long long)(uintptr_t){name}"),
                ("unsigned long long", f"(unsigned long long){name}_len")]
    if p.kind == "disjoint":
        return [("unsigned long long", f"(unsigned long long)(uintptr_t){name}.ptr"),
                ("unsigned long long", f"(unsigned long long){name}.len")]
    return [("unsigned long long", f"(unsigned long long)(uintptr_t){name}")]


def c_string(text: str) -> list[str]:
    out = []
    for line in text.splitlines(keepends=True):
        body = line.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t") \
            .replace("\n", "\\n")
        out.append(f'    "{body}"')
    return out or ['    ""']


def printf_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("%", "%%")


def check_lines(check: Check) -> list[str]:
    fmt = {"int": "%lld", "float": "%g", "bool": "%s"}
    values = [f"{printf_escape(lf.label)} = {fmt[lf.kind]}" for lf in check.leaves]
    args = [f'({lf.code}) ? "true" : "false"' if lf.kind == "bool" else lf.code
            for lf in check.leaves]
    msg = printf_escape(check.message)
    if check.need is not None:
        msg = msg.replace("{need}", "%lld").replace("{have}", "%lld")
        args = ["need", "have"] + args
        cond = "have >= need"
        pre = [f"        long long need = {check.need};",
               "        long long have = (long long)grid.x * grid.y * grid.z * block.x * "
               "block.y * block.z;"]
    else:
        cond, pre = check.cond, []
        if "{block}" in msg:
            msg = msg.replace("{block}", "(%u, %u, %u)")
            args = ["block.x", "block.y", "block.z"] + args
    if values:
        msg += " (" + ", ".join(values) + ")"
    arglist = "".join(f", {a}" for a in args)
    return ["    {", *pre, f"        if (!({cond})) {{",
            f'            oxidec_appendf(m->error, sizeof m->error, "{msg}"{arglist});',
            "            ok = 0;", "        }", "    }"]


def launcher(sig: KernelSignature, prefix: str) -> list[str]:
    params = [p for q in sig.params for p in c_params(q, prefix)]
    head = (f"static inline CUresult {prefix}_launch_{sig.name}({prefix}_module* m, "
            "oxidec_dim3 grid, oxidec_dim3 block, unsigned int shared_bytes, CUstream stream")
    lines = [f"/* {sig.name}({', '.join(f'{p.name}: {p.ty}' for p in sig.params)}) */",
             head + "".join(f",\n        {p}" for p in params) + ") {",
             "    int ok = 1;", "    m->error[0] = '\\0';"]
    bound = launch_bounds_threads(sig)
    if bound:
        lines += ["    {", "        unsigned long long threads = (unsigned long long)block.x * "
                  "block.y * block.z;",
                  f"        if (threads > {bound}ULL) {{",
                  f'            oxidec_appendf(m->error, sizeof m->error, "block (%u, %u, %u) '
                  f'has %llu threads, but kernel `{sig.name}` has #[launch_bounds({bound}, ..)]",'
                  " block.x, block.y, block.z, threads);",
                  "            ok = 0;", "        }", "    }"]
    for check in contract_checks(sig, "c"):
        lines += check_lines(check)
    lines += ["    if (!ok) return CUDA_ERROR_INVALID_VALUE;"]
    slots = [s for p in sig.params for s in param_slots(p, prefix)]
    for i, (ctype, value) in enumerate(slots):
        lines.append(f"    {ctype} p{i} = {value};")
    if slots:
        lines.append(f"    void* params[{len(slots)}];")
        lines += [f"    params[{i}] = &p{i};" for i in range(len(slots))]
    args = "params" if slots else "NULL"
    lines += [f"    return cuLaunchKernel(m->fn_{sig.name}, grid.x, grid.y, grid.z, block.x, "
              f"block.y, block.z, shared_bytes, stream, {args}, NULL);", "}", ""]
    return lines


def emit_header(comp: Compilation, prefix: str) -> str:
    sigs = list(comp.kernels.values())
    guard = f"OXIDEC_{prefix.upper()}_H_"
    out = [f"/* Generated by oxidec {__version__} from {comp.source.name} "
           f"(--arch {comp.options.arch}): do not edit. */",
           f"#ifndef {guard}", f"#define {guard}", "",
           "#include <cuda.h>", "#include <stdarg.h>", "#include <stddef.h>",
           "#include <stdint.h>", "#include <stdio.h>", "#include <string.h>",
           "#ifndef __cplusplus", "#include <stdbool.h>", "#endif", COMMON]
    for agg in collect_aggregates(sigs, prefix):
        out += declare_aggregate(agg, prefix)
    seen: set[str] = set()
    for sig in sigs:
        for p in sig.params:
            if p.kind == "disjoint" and disjoint_type(p.elem, prefix) not in seen:
                seen.add(disjoint_type(p.elem, prefix))
                out += declare_disjoint(p.elem, prefix)
    out += [f"/* The PTX of {comp.source.name}. */",
            f"static const char {prefix}_ptx[] =", *c_string(comp.ptx), ";", ""]
    out += ["/* The loaded module; `error` says why the last call failed (the JIT log of a "
            "failed load, or a violated launch contract). */",
            f"typedef struct {prefix}_module {{", "    CUmodule module;",
            *[f"    CUfunction fn_{s.name};" for s in sigs],
            f"    char error[{ERROR_BYTES}];", f"}} {prefix}_module;", ""]
    out += ["/* Loads the PTX into the current context (cuModuleLoadDataEx). */",
            f"static inline CUresult {prefix}_load({prefix}_module* m) {{",
            "    CUjit_option options[2];", "    void* values[2];", "    CUresult r;",
            "    options[0] = CU_JIT_ERROR_LOG_BUFFER;", "    values[0] = m->error;",
            "    options[1] = CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES;",
            "    values[1] = (void*)(uintptr_t)sizeof m->error;",
            "    m->error[0] = '\\0';",
            f"    r = cuModuleLoadDataEx(&m->module, {prefix}_ptx, 2, options, values);",
            "    if (r != CUDA_SUCCESS) return r;"]
    for s in sigs:
        out += [f'    r = cuModuleGetFunction(&m->fn_{s.name}, m->module, "{s.name}");',
                "    if (r != CUDA_SUCCESS) { cuModuleUnload(m->module); return r; }"]
    out += ["    return CUDA_SUCCESS;", "}", "",
            f"static inline CUresult {prefix}_unload({prefix}_module* m) {{",
            "    return cuModuleUnload(m->module);", "}", ""]
    for sig in sigs:
        out += launcher(sig, prefix)
    out += [f"#endif /* {guard} */", ""]
    return "\n".join(out)
