#!/usr/bin/env python3
"""Retarget NVPTX (or AMDGPU) device IR to the host, for tests/gpu/host.c.

Usage: retarget.py IN.ll OUT.ll

- target triple / datalayout become x86_64 Linux's;
- address spaces are dropped (addrspacecast becomes a no-op bitcast):
  shared memory becomes ordinary globals (the harness runs one block at a
  time, its threads as host threads);
- thread/block index and size intrinsics become calls of gpuhost_* functions
  reading the host thread's variables; block barriers become a pthread
  barrier (gpuhost_barrier);
- GPU-only function attributes and calling conventions are dropped.
The math functions (__nv_*, __ocml_*) are defined by host.c.
"""
import re
import sys

HOST_DL = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
HOST_TRIPLE = "x86_64-pc-linux-gnu"

src = open(sys.argv[1]).read()
out = []
for line in src.splitlines():
    if line.startswith("target datalayout"):
        line = f'target datalayout = "{HOST_DL}"'
    elif line.startswith("target triple"):
        line = f'target triple = "{HOST_TRIPLE}"'
    out.append(line)
s = "\n".join(out) + "\n"
s = re.sub(r",? addrspace\(\d+\)", "", s)
s = re.sub(r"\baddrspacecast\b", "bitcast", s)
# NVPTX special registers.
s = re.sub(r"@llvm\.nvvm\.read\.ptx\.sreg\.(tid|ntid|ctaid|nctaid)\.([xyz])\b",
           r"@gpuhost_\1_\2", s)
s = s.replace("@llvm.nvvm.read.ptx.sreg.warpsize", "@gpuhost_warpsize")
s = s.replace("@llvm.nvvm.barrier0", "@gpuhost_barrier")
# LLVM 21+: __syncthreads() is barrier.cta.sync.aligned.all(i32 0).
s = re.sub(r"@llvm\.nvvm\.barrier\.cta\.sync(\.aligned)?\.all\b", "@gpuhost_barrier_n", s)
# AMDGPU work-item / work-group ids and the dispatch packet.
s = re.sub(r"@llvm\.amdgcn\.workitem\.id\.([xyz])\b", r"@gpuhost_tid_\1", s)
s = re.sub(r"@llvm\.amdgcn\.workgroup\.id\.([xyz])\b", r"@gpuhost_ctaid_\1", s)
s = s.replace("@llvm.amdgcn.dispatch.ptr", "@gpuhost_dispatch_ptr")
s = s.replace("@llvm.amdgcn.implicitarg.ptr", "@gpuhost_implicitarg_ptr")
s = s.replace("@llvm.amdgcn.s.barrier", "@gpuhost_barrier")
# GPU attributes and calling conventions.
def strip_gpu_attrs(line):
    if not line.startswith("attributes #"):
        return line
    line = re.sub(r'"target-(cpu|features)"="[^"]*"', "", line)
    line = re.sub(r'"(amdgpu|uniform-work-group-size|nvptx)[^"]*"(="[^"]*")?', "", line)
    # An attribute group left empty is not valid IR: keep a harmless one.
    return re.sub(r"\{\s*\}$", "{ nounwind }", line)


s = "\n".join(strip_gpu_attrs(l) for l in s.split("\n"))
# AMDGPU's module flag (code object version) means nothing on the host.
s = re.sub(r'!\{i32 \d+, !"amdgpu_code_object_version", i32 \d+\}', '!{i32 1, !"gpuhost", i32 0}', s)
s = re.sub(r"\b(ptx_kernel|ptx_device|amdgpu_kernel) ", "", s)
# fences with GPU sync scopes
s = re.sub(r'syncscope\("[^"]*"\) ', "", s)
open(sys.argv[2], "w").write(s)
