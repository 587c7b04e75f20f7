"""Helpers for tests of the build integration (headers, Rust modules, examples) on machines
without a GPU driver: a stand-in `libcuda.so` to link against.

The stand-in exports every function `cuda.h` declares (found by preprocessing it), so that any
host program links. The loader and launch functions are a recording fake: a launch prints its
kernel name, geometry and the bytes of each parameter (sizes from the OXIDEC_FAKE_PARAM_SIZES
environment variable, e.g. "k=8,8,8;other=4") and succeeds without running anything. Device
memory is host memory (malloc, memcpy), so a host program runs through to its result check,
which then fails: no kernel ran. Its SONAME is `libcuda.so.1`, the driver's, so a program
linked against it here runs against the real driver on a GPU machine."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

CUDA_INCLUDE = next((Path(p) for p in (os.environ.get("CUDA_INCLUDE", ""),
                                        "/usr/local/cuda/include", "/usr/include")
                     if p and (Path(p) / "cuda.h").exists()), None)

FAKE = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cuModuleLoadDataEx(void** module, const void* image, unsigned n, int* opts, void** vals) {
    (void)opts; (void)vals; (void)n;
    *module = (void*)image;
    return 0;
}

int cuModuleGetFunction(void** fn, void* module, const char* name) {
    (void)module;
    *fn = strdup(name);
    return 0;
}

int cuModuleUnload(void* module) { (void)module; return 0; }

int cuLaunchKernel(void* fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                   unsigned bz, unsigned shared, void* stream, void** params, void** extra) {
    const char* name = (const char*)fn;
    const char* spec = getenv("OXIDEC_FAKE_PARAM_SIZES");
    const char* sizes = NULL;
    size_t len = strlen(name);
    int i = 0;
    (void)stream; (void)extra;
    for (const char* p = spec; p && *p; p = strchr(p, ';') ? strchr(p, ';') + 1 : NULL) {
        if (strncmp(p, name, len) == 0 && p[len] == '=') { sizes = p + len + 1; break; }
    }
    printf("launch %s grid %u %u %u block %u %u %u shared %u\n", name, gx, gy, gz,
           bx, by, bz, shared);
    while (sizes && *sizes && *sizes != ';') {
        long size = strtol(sizes, (char**)&sizes, 10);
        printf("param %d:", i);
        for (long b = 0; b < size; b++) printf(" %02x", ((unsigned char*)params[i])[b]);
        printf("\n");
        i++;
        if (*sizes == ',') sizes++;
    }
    return 0;
}

/* Context and memory, on the host: enough for a host program to reach its launches. */
typedef unsigned long long dptr;
int cuInit(unsigned flags) { (void)flags; return 0; }
int cuDeviceGet(int* dev, int ordinal) { *dev = ordinal; return 0; }
int cuDevicePrimaryCtxRetain(void** ctx, int dev) { (void)dev; *ctx = (void*)16; return 0; }
int cuDevicePrimaryCtxRelease_v2(int dev) { (void)dev; return 0; }
int cuCtxSetCurrent(void* ctx) { (void)ctx; return 0; }
int cuCtxSynchronize(void) { return 0; }
int cuMemAlloc_v2(dptr* p, size_t bytes) { *p = (dptr)(uintptr_t)malloc(bytes ? bytes : 1); return 0; }
int cuMemFree_v2(dptr p) { free((void*)(uintptr_t)p); return 0; }
int cuMemcpyHtoD_v2(dptr dst, const void* src, size_t n) { memcpy((void*)(uintptr_t)dst, src, n); return 0; }
int cuMemcpyDtoH_v2(void* dst, dptr src, size_t n) { memcpy(dst, (void*)(uintptr_t)src, n); return 0; }
int cuMemsetD32_v2(dptr dst, unsigned v, size_t n) {
    for (size_t i = 0; i < n; i++) ((unsigned*)(uintptr_t)dst)[i] = v;
    return 0;
}
int cuGetErrorName(int code, const char** name) { (void)code; *name = "FAKE_DRIVER"; return 0; }
"""
RECORDED = {"cuModuleLoadDataEx", "cuModuleGetFunction", "cuModuleUnload", "cuLaunchKernel",
            "cuInit", "cuDeviceGet", "cuDevicePrimaryCtxRetain", "cuDevicePrimaryCtxRelease_v2",
            "cuCtxSetCurrent", "cuCtxSynchronize", "cuMemAlloc_v2", "cuMemFree_v2",
            "cuMemcpyHtoD_v2", "cuMemcpyDtoH_v2", "cuMemsetD32_v2", "cuGetErrorName"}


def have_toolchain(*tools: str) -> bool:
    return CUDA_INCLUDE is not None and all(shutil.which(t) for t in tools)


def driver_symbols() -> list[str]:
    text = subprocess.run(["gcc", "-E", f"-I{CUDA_INCLUDE}", "-x", "c", "-"],
                          input="#include <cuda.h>\n", capture_output=True, text=True,
                          check=True).stdout
    return sorted(set(re.findall(r"\b(cu[A-Z]\w*)\s*\(", text)))


def build_fake_libcuda(directory: Path) -> Path:
    """`directory/libcuda.so` (SONAME libcuda.so.1, also linked as that name); returns the
    directory, for -L and LD_LIBRARY_PATH."""
    directory.mkdir(parents=True, exist_ok=True)
    others = [s for s in driver_symbols() if s not in RECORDED]
    src = directory / "fake_cuda.c"
    src.write_text(FAKE + "".join(f"int {s}(void) {{ return 999; }}\n" for s in others))
    lib = directory / "libcuda.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-Wl,-soname,libcuda.so.1", str(src),
                    "-o", str(lib)], check=True)
    (directory / "libcuda.so.1").unlink(missing_ok=True)
    (directory / "libcuda.so.1").symlink_to("libcuda.so")
    return directory
