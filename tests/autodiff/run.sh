#!/usr/bin/env bash
# tests/autodiff/run.sh -- Rust nightly's std::autodiff with enzyme-rs as its
# backend (libEnzyme-22.so, installed into the nightly sysroot by setup.sh):
# each program here is built with `-Z autodiff=Enable -C lto=fat` and run; it
# checks its derivatives and exits non-zero on a mismatch.
# Not in run-tests.sh yet: a fat-LTO build takes minutes of CPU per program.
set -uo pipefail
cd "$(dirname "$0")"
sysroot=$(rustc +nightly --print sysroot 2>/dev/null) || { echo "tests/autodiff: SKIPPED (no nightly rustc)"; exit 0; }
[ -f "$sysroot/lib/rustlib/x86_64-unknown-linux-gnu/lib/libEnzyme-22.so" ] ||
  { echo "tests/autodiff: libEnzyme-22.so is not installed (run ./setup.sh)"; exit 1; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail=0; n=0; ok=0
for src in *.rs; do
  for o in ${AUTODIFF_LEVELS:-0}; do
    n=$((n + 1))
    if rustc +nightly -Z autodiff=Enable -C lto=fat -C opt-level=$o -g "$src" -o "$work/p" 2>"$work/err" && "$work/p"; then
      ok=$((ok + 1))
    else
      cat "$work/err" | head -20; echo "tests/autodiff: $src -C opt-level=$o FAILED"; fail=1
    fi
  done
done
echo "tests/autodiff: $ok of $n programs pass"
exit $fail
