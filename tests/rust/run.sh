#!/usr/bin/env bash
# tests/rust/run.sh -- Rust through `rustc -Z llvm-plugins` with the LLVM 22
# plugin: examples/rust (a cargo project; its .cargo/config.toml carries the
# flags) built and run at opt-levels 0..3, each run checking its derivatives
# against finite differences; and tests/rust/errors/*.rs, each of which must
# stop rustc with an enzyme-rs diagnostic naming the Rust source (never a
# crash). Needs a rustc built on LLVM 22 (rustc 1.95+).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
export ENZYME_RS_LLVM=22
. "$root/scripts/llvm-env.sh"
if ! rustc -vV 2>/dev/null | grep -q "^LLVM version: 22\."; then
  echo "tests/rust: SKIPPED: this rustc is not built on LLVM 22 ($(rustc -vV 2>/dev/null | grep LLVM))"
  exit 0
fi
enzyme_rs_build --quiet || { echo "tests/rust: building the LLVM 22 plugin failed"; exit 1; }
fail=0
summary=()
for o in 0 1 2 3; do
  out=$(cd "$root/examples/rust" && cargo run -q --profile "o$o" 2>&1); rc=$?
  line=$(echo "$out" | grep "checks pass" | tail -1)
  if [ $rc -ne 0 ]; then
    echo "$out" | grep -v "^ok " | tail -30
    echo "tests/rust: examples/rust at opt-level $o FAILED"
    fail=1
  fi
  summary+=("opt-level $o: ${line:-did not run}")
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
errs=0; errs_ok=0
for src in "$root"/tests/rust/errors/*.rs; do
  want=$(grep -m1 "^// EXPECT-ERROR:" "$src" | sed 's|^// EXPECT-ERROR: *||')
  levels=$(grep -m1 "^// LEVELS:" "$src" | sed 's|^// LEVELS: *||'); levels=${levels:-"0 2"}
  for o in $levels; do
    errs=$((errs + 1))
    name="$(basename "$src") -C opt-level=$o"
    out=$(cd "$(dirname "$src")" && RUSTC_BOOTSTRAP=1 rustc -Z llvm-plugins="$ENZYME_RS_PLUGIN" \
      -Zshare-generics=no -C codegen-units=1 -C opt-level="$o" -g "$(basename "$src")" \
      -o "$work/prog" 2>&1); rc=$?
    if [ $rc -eq 0 ]; then
      echo "tests/rust: $name compiled, expected an error containing '$want'"; fail=1
    elif echo "$out" | grep -qE "internal compiler error|Stack dump|panicked at|SIGSEGV|signal: "; then
      echo "$out" | head -20; echo "tests/rust: $name crashed the compiler"; fail=1
    elif ! echo "$out" | grep -qF -- "$want"; then
      echo "$out" | head -20; echo "tests/rust: $name: expected an error containing '$want'"; fail=1
    else
      errs_ok=$((errs_ok + 1))
    fi
  done
done
summary+=("error programs: $errs_ok of $errs give the expected diagnostic")
printf 'tests/rust: %s\n' "${summary[@]}"
[ $fail -eq 0 ] && echo "tests/rust: all passed"
exit $fail
