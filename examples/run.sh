#!/usr/bin/env bash
# Build the plugin, compile each example with it, run it.
# ENZYME_RS_LLVM=22 uses clang-22 and the LLVM 22 plugin (default 16).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/llvm-env.sh"
plugin=$ENZYME_RS_PLUGIN
[ -f "$plugin" ] || enzyme_rs_build --quiet
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
for src in "$root"/examples/*.c "$root"/examples/*.cpp; do
  name=$(basename "$src"); name=${name%.*}
  cc=$ENZYME_RS_CC; case "$src" in *.cpp) cc="$ENZYME_RS_CXX -std=c++17";; esac
  echo "== $name ($cc -O2 -fpass-plugin=libenzyme_rs.so)"
  $cc -O2 -I"$root/include" -fpass-plugin="$plugin" "$src" -o "$out/$name" -lm
  "$out/$name" || { echo "example $name FAILED"; status=1; }
done
# The hybrid MPI + OpenMP example (OpenMP is LLVM 16 only for now).
if [ "${ENZYME_RS_LLVM:-16}" != 22 ]; then
  bash "$root/examples/hybrid/run.sh" || { echo "example hybrid FAILED"; status=1; }
fi
exit $status
