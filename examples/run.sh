#!/usr/bin/env bash
# Build the plugin, compile each example with it, run it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
plugin="$root/target/release/libenzyme_rs.so"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
for src in "$root"/examples/*.c "$root"/examples/*.cpp; do
  name=$(basename "$src"); name=${name%.*}
  cc=clang-16; case "$src" in *.cpp) cc="clang++-16 -std=c++17";; esac
  echo "== $name ($cc -O2 -fpass-plugin=libenzyme_rs.so)"
  $cc -O2 -I"$root/include" -fpass-plugin="$plugin" "$src" -o "$out/$name" -lm
  "$out/$name" || { echo "example $name FAILED"; status=1; }
done
exit $status
