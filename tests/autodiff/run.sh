#!/usr/bin/env bash
# tests/autodiff/run.sh -- Rust nightly's std::autodiff with enzyme-rs as its
# backend (the LLVM 22 plugin as libEnzyme-22.so in the nightly sysroot).
#  1. This cargo project (src/cases/*.rs, one binary, fat LTO) built with
#     the profiles dev, o1, o2 and release (opt-levels 0, 1, 2, 3), in
#     parallel, and run: every case checks its derivatives against finite
#     differences or analytic values and the binary exits non-zero on a
#     mismatch.
#  2. errors/*.rs: bad inputs, each of which must stop rustc with a clear
#     error containing every `// EXPECT-ERROR:` text (never a crash).
# AUTODIFF_PROFILES picks the profiles ("dev o1 o2 release" by default);
# AUTODIFF_TOOLCHAIN the rustup toolchain whose sysroot gets the backend
# ("nightly" by default; e.g. a private copy linked with `rustup toolchain
# link`, so that runs side by side do not share one libEnzyme-22.so).
set -uo pipefail
tc=${AUTODIFF_TOOLCHAIN:-nightly}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
sysroot=$(rustc +"$tc" --print sysroot 2>/dev/null) ||
  { echo "tests/autodiff: SKIPPED (no $tc rustc)"; exit 0; }
lib="$sysroot/lib/rustlib/x86_64-unknown-linux-gnu/lib/libEnzyme-22.so"
plugin="$root/target/llvm22/release/libenzyme_rs.so"
# The plugin just built is the backend under test: install it if the
# sysroot holds another one (an atomic rename: a running rustc keeps its
# mapped copy).
if [ -f "$plugin" ] && ! cmp -s "$plugin" "$lib"; then
  cp "$plugin" "$lib.tmp.$$" && mv "$lib.tmp.$$" "$lib" ||
    { echo "tests/autodiff: cannot install $plugin as $lib"; exit 1; }
  # cargo does not track the backend: rebuild
  touch "$here/src/main.rs" "$root/examples/rust-autodiff/src/main.rs"
fi
[ -f "$lib" ] || { echo "tests/autodiff: libEnzyme-22.so is not installed (run ./setup.sh)"; exit 1; }
cd "$here"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail=0
profiles=${AUTODIFF_PROFILES:-dev o1 o2 release}
# Each profile in its own target directory so the two builds run in
# parallel (one fat-LTO rustc each).
for p in $profiles; do
  (start=$(date +%s)
    CARGO_TARGET_DIR="$here/target/$p" cargo +"$tc" build -q --profile "$p" >"$work/build-$p.log" 2>&1
    echo $? >"$work/build-$p.rc"; echo $(($(date +%s) - start)) >"$work/build-$p.secs") &
done
# The README's example (examples/rust-autodiff), as a new user runs it.
example="$root/examples/rust-autodiff"
(cd "$example" && cargo +"$tc" run -q >"$work/example.log" 2>&1; echo $? >"$work/example.rc") &
# Meanwhile the error programs, one at a time.
errs=0; errs_ok=0
for src in errors/*.rs; do
  errs=$((errs + 1))
  out=$(rustc +"$tc" -Z autodiff=Enable -C lto=fat -C opt-level=0 -g "$src" -o "$work/err-prog" 2>&1); rc=$?
  if [ $rc -eq 0 ]; then
    echo "tests/autodiff: $src compiled; expected an error"; fail=1; continue
  fi
  if echo "$out" | grep -qE "internal compiler error|Stack dump|panicked at|SIGSEGV|signal: "; then
    echo "$out" | head -20; echo "tests/autodiff: $src crashed the compiler"; fail=1; continue
  fi
  missing=0
  while IFS= read -r want; do
    echo "$out" | grep -qF -- "$want" || { missing=1; echo "tests/autodiff: $src: no '$want' in:"; }
  done < <(grep "^// EXPECT-ERROR:" "$src" | sed 's|^// EXPECT-ERROR: *||')
  if [ $missing -eq 0 ]; then errs_ok=$((errs_ok + 1)); else echo "$out" | head -20; fail=1; fi
done
wait
summary=()
for p in $profiles; do
  case $p in dev) level=0 ;; o1) level=1 ;; o2) level=2 ;; *) level=3 ;; esac
  if [ "$(cat "$work/build-$p.rc")" != 0 ]; then
    head -40 "$work/build-$p.log"; echo "tests/autodiff: build ($p) FAILED"; fail=1
    summary+=("$p (opt-level $level): did not build"); continue
  fi
  dir=$p; [ "$p" = dev ] && dir=debug # cargo's directory for the dev profile
  out=$("$here/target/$p/$dir/enzyme-rs-autodiff-tests" 2>&1); rc=$?
  echo "$out" | grep -v "^ok " | grep -v "^autodiff:" | head -40
  [ $rc -eq 0 ] || { echo "tests/autodiff: $p cases FAILED"; fail=1; }
  summary+=("$p (opt-level $level): $(echo "$out" | grep "^autodiff:" | sed 's/^autodiff: //'); built in $(cat "$work/build-$p.secs") s")
done
if [ "$(cat "$work/example.rc")" = 0 ] && grep -q "derivatives match" "$work/example.log"; then
  summary+=("examples/rust-autodiff (cargo run): correct derivatives")
else
  head -30 "$work/example.log"; echo "tests/autodiff: examples/rust-autodiff FAILED"; fail=1
  summary+=("examples/rust-autodiff (cargo run): FAILED")
fi
summary+=("error programs: $errs_ok of $errs give the expected error")
printf 'tests/autodiff: %s\n' "${summary[@]}"
[ $fail -eq 0 ] && echo "tests/autodiff: all passed"
exit $fail
