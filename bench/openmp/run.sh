#!/bin/bash
# OpenMP benchmark: map/reduce and stencil kernels at n = 10^7 (or $1), with
# 1 and 2 threads; gradient/primal at the same thread count and the
# gradient's speed-up from 1 to 2 threads. The runs are interleaved
# (REPS rounds of kernel x thread count, default 3) and each figure is
# reported as the median with the spread (min-max) over the rounds: on a
# shared machine one run says little. The CPU-time ratio is the steadier
# one under load (with more threads than free cores, wall clock measures
# the machine).
set -e
cd "$(dirname "$0")/../.."
N=${1:-10000000}
REPS=${REPS:-3}
LLVM_SYS_160_PREFIX=/usr/lib/llvm-16 cargo build --release -q
out=target/omp_bench
clang-16 -O2 ${BENCH_CFLAGS:-} -fopenmp -fpass-plugin=target/release/libenzyme_rs.so \
  bench/openmp/omp_bench.c -o $out -lm
: > target/omp_bench.txt
for r in $(seq "$REPS"); do
  for k in mapreduce stencil; do
    for t in 1 2; do
      OMP_NUM_THREADS=$t OMP_PROC_BIND=${OMP_PROC_BIND:-false} $out $k $N | tee -a target/omp_bench.txt
    done
  done
done
python3 - <<'PY'
import statistics as st
runs = {}
for line in open("target/omp_bench.txt").read().splitlines():
    d = dict(kv.split("=") for kv in line.split()[1:] if "=" in kv)
    runs.setdefault((line.split()[0], int(d["threads"])), []).append(
        (float(d["primal_s"]), float(d["gradient_s"]), float(d["primal_cpu_s"]), float(d["gradient_cpu_s"])))
def fig(xs):
    return f"{st.median(xs):.2f} ({min(xs):.2f}-{max(xs):.2f})"
for k in ("mapreduce", "stencil"):
    r1, r2 = runs[(k, 1)], runs[(k, 2)]
    print(f"{k}: gradient/primal 1 thread {fig([g/p for p, g, _, _ in r1])}, "
          f"cpu {fig([g/p for _, _, p, g in r1])}; 2 threads {fig([g/p for p, g, _, _ in r2])}, "
          f"cpu {fig([g/p for _, _, p, g in r2])}; gradient speed-up 1->2 threads "
          f"{fig([a[1]/b[1] for a, b in zip(r1, r2)])} (primal {fig([a[0]/b[0] for a, b in zip(r1, r2)])})")
PY
