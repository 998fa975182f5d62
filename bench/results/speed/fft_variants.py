#!/usr/bin/env python3
"""Hand-edited variants of the fft gradient's emitted IR (bench/results/speed/fft.md).

Input: the module `ENZYME_RS_NO_INLINE=1 clang-16 -O2 -S -emit-llvm
-fpass-plugin=... common/main.c` gives for bench/problems/fft.h
(HAVE_VECTOR_FWD=0) at commit 81d2808; the value names below are that
module's. Writes v0.ll (as is), v1.ll (the kept shadow dX not zeroed, the
weighted sum's reverse stores instead of adding), v2.ll (v1 and the
leaves' shadow zeroing dropped), v3.ll (v1 with dX in the primal block X:
no take/give). Each is then `clang-16 -O2 vN.ll -lm -o vN`; all pass
`vN check 65536`. An experiment only: the edits are right for this
program, not in general.
"""
import sys

src, out = sys.argv[1], sys.argv[2]
s = open(src).read()
open(f"{out}/v0.ll", "w").write(s)
a = s.replace("  tail call void @llvm.memset.p0.i64(ptr align 1 %15, i8 0, i64 %11, i1 false)\n", "")
assert a != s
i = a.index("define internal void @enzyme_rs.rev.objective")
j = a.index("define internal noalias ptr @__enzyme_rs_keep_take")
f = a[i:j]
for old, new in [
    ("%61 = fadd <2 x double> %60, %56", "%61 = fadd <2 x double> %56, zeroinitializer"),
    ("%62 = fadd <2 x double> %59, %53", "%62 = fadd <2 x double> %53, zeroinitializer"),
    ("%86 = fadd <2 x double> %85, %84", "%86 = fadd <2 x double> %84, zeroinitializer"),
    ("%104 = fadd <2 x double> %103, %102", "%104 = fadd <2 x double> %102, zeroinitializer"),
    ("%117 = fadd <2 x double> %116, %115", "%117 = fadd <2 x double> %115, zeroinitializer"),
]:
    assert old in f, old
    f = f.replace(old, new)
v1 = a[:i] + f + a[j:]
open(f"{out}/v1.ll", "w").write(v1)
i = v1.index("define internal void @enzyme_rs.rev.fft_rec")
g = v1[i:].replace("  store double 0.000000e+00, ptr %21, align 8\n", "", 1)
g = g.replace("  store double 0.000000e+00, ptr %4, align 8\n", "", 1)
open(f"{out}/v2.ll", "w").write(v1[:i] + g)
v3 = v1.replace(
    "%15 = tail call ptr @__enzyme_rs_keep_take(ptr nonnull @enzyme_rs.keep.slot, i64 %11)",
    "%15 = getelementptr i8, ptr %12, i64 0",
)
v3 = v3.replace("  tail call void @__enzyme_rs_keep_give(ptr %128, ptr nonnull @enzyme_rs.keep.slot)\n", "")
assert "keep_take(ptr nonnull" not in v3 and "keep_give(ptr %" not in v3
open(f"{out}/v3.ll", "w").write(v3)
