#!/usr/bin/env bash
# Build the plugin, compile each example with it, run it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
plugin="$root/target/release/libenzyme_rs.so"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
for src in "$root"/examples/*.c; do
  name=$(basename "$src" .c)
  echo "== $name (clang-16 -O2 -fpass-plugin=libenzyme_rs.so)"
  clang-16 -O2 -I"$root/include" -fpass-plugin="$plugin" "$src" -o "$out/$name" -lm
  "$out/$name" || { echo "example $name FAILED"; status=1; }
done
exit $status
