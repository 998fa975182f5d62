#!/bin/bash
# OpenMP benchmark: map/reduce and stencil kernels at n = 10^7 (or $1), with
# 1 and 2 threads; gradient/primal at the same thread count and the
# gradient's speed-up from 1 to 2 threads.
set -e
cd "$(dirname "$0")/../.."
N=${1:-10000000}
LLVM_SYS_160_PREFIX=/usr/lib/llvm-16 cargo build --release -q
out=target/omp_bench
clang-16 -O2 ${BENCH_CFLAGS:-} -fopenmp -fpass-plugin=target/release/libenzyme_rs.so \
  bench/openmp/omp_bench.c -o $out -lm
for k in mapreduce stencil; do
  for t in 1 2; do
    OMP_NUM_THREADS=$t OMP_PROC_BIND=${OMP_PROC_BIND:-false} $out $k $N | tee -a target/omp_bench.txt
  done
done
python3 - <<'PY'
import re
rows = {}
for line in open("target/omp_bench.txt").read().splitlines()[-4:]:
    d = dict(kv.split("=") for kv in line.split()[1:])
    rows[(line.split()[0], int(d["threads"]))] = (float(d["primal_s"]), float(d["gradient_s"]),
                                                float(d["primal_cpu_s"]), float(d["gradient_cpu_s"]))
for k in ("mapreduce", "stencil"):
    p1, g1, cp1, cg1 = rows[(k, 1)]
    p2, g2, cp2, cg2 = rows[(k, 2)]
    print(f"{k}: gradient/primal 1 thread {g1/p1:.2f} (cpu {cg1/cp1:.2f}), "
          f"2 threads {g2/p2:.2f} (cpu {cg2/cp2:.2f}); "
          f"gradient speed-up 1->2 threads {g1/g2:.2f}x (primal {p1/p2:.2f}x)")
PY
