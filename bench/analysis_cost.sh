#!/usr/bin/env bash
# The cost of the analyses: time type analysis and activity analysis over a
# generated module of about 10k LLVM instructions, next to the time
# `clang-16 -O2` takes to compile the same module.
#   bench/analysis_cost.sh [N]   (N groups of functions; default 46)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
plugin="$root/target/release/libenzyme_rs.so"
[ -f "$plugin" ] || (cd "$root" && cargo build --release)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$root/bench/gen_analysis_module.py" "${1:-46}" > "$work/gen.c"
# The IR the plugin sees at -O0 (no optnone, so opt may run on it).
clang-16 -O0 -Xclang -disable-O0-optnone -S -emit-llvm "$work/gen.c" -o "$work/gen.ll"

best() { # best of 3 wall-clock seconds of a command
  local b=""
  for _ in 1 2 3; do
    local s e
    s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N)
    b=$(python3 -c "import sys; a=float('$e')-float('$s'); b='$b'; print(a if not b else min(a, float(b)))")
  done
  echo "$b"
}

clang_s=$(best clang-16 -O2 -c "$work/gen.c" -o "$work/gen.o")
opt_s=$(best opt-16 -passes=verify -disable-output "$work/gen.ll")
echo "module: $(grep -c '^define' "$work/gen.ll") functions"
opt-16 -load-pass-plugin="$plugin" -passes=enzyme-analysis-cost -disable-output "$work/gen.ll" 2>&1
echo "opt-16 parse+verify of the module alone, for scale: $(python3 -c "print(f'{$opt_s*1e3:.1f} ms')")"
echo "clang-16 -O2 -c of the module: $(python3 -c "print(f'{$clang_s*1e3:.1f} ms')")"
