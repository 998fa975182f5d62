#!/usr/bin/env bash
# Link-time differentiation suite: every program in tests/lto/*/ (2-4 files,
# the function differentiated and its call in different files) is built with
# full LTO and ThinLTO at -O0..-O3 through lld, the plugin loaded in the
# compiles and in the link, and run (each checks its derivatives against
# analytic values / central finite differences, tests/programs/check.h).
#
# Layout of a program directory:
#   *.c, *.cpp      compiled and linked into the program
#   lib/*.c{,pp}    compiled into a static library (llvm-ar) linked after
#   `// LDFLAGS: ...` in a source: extra link flags
#   `// EXPECT-LINK-ERROR: text` in a source: the link must fail saying so
#   ThinLTO -O0 must fail at compile time with the message naming
#   -flto=full, unless the main file has the line `// THIN-O0: ok`.
#
# Usage: tests/lto/run.sh [FILTER]
#   ENZYME_RS_LLVM=22 (or LLVM=22): clang-22/lld-22 and the LLVM 22 plugin
#   (target/llvm22/release/libenzyme_rs.so); PLUGIN=path overrides.
# Jobs run in parallel over $JOBS (default 2) cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
V=${LLVM:-${ENZYME_RS_LLVM:-16}}
default_plugin=$root/target/release/libenzyme_rs.so
[ "$V" = 16 ] || default_plugin=$root/target/llvm$V/release/libenzyme_rs.so
plugin=${PLUGIN:-$default_plugin}
filter=${1:-}
work=$root/target/lto-tests
rm -rf "$work"
mkdir -p "$work"

one() { # program dir, lto kind, level
  local dir=$1 kind=$2 lvl=$3
  local prog
  prog=$(basename "$dir")
  local out=$work/$prog.$kind.O$lvl
  mkdir -p "$out"
  local cflags=(-O"$lvl" -g -flto="$kind" -fpass-plugin="$plugin" -I"$root/include"
    -I"$root/tests/programs" -Wno-deprecated)
  local objs=() libobjs=() src
  local log=$out/log
  local expect_err=1
  grep -qs '^// THIN-O0: ok' "$dir"/*.c "$dir"/*.cpp && expect_err=0
  [ "$kind" = thin ] && [ "$lvl" = 0 ] || expect_err=0
  local failed=0
  for src in "$dir"/*.c "$dir"/*.cpp "$dir"/lib/*.c "$dir"/lib/*.cpp; do
    [ -e "$src" ] || continue
    local cc=clang-$V
    case $src in *.cpp) cc=clang++-$V ;; esac
    local o
    o=$out/$(basename "$(dirname "$src")")_$(basename "$src").o
    if ! $cc "${cflags[@]}" -c "$src" -o "$o" >>"$log" 2>&1; then
      failed=1
      continue
    fi
    case $src in */lib/*) libobjs+=("$o") ;; *) objs+=("$o") ;; esac
  done
  if [ $expect_err = 1 ]; then
    if [ $failed = 1 ] && grep -q 'flto=full' "$log"; then
      echo "PASS $prog $kind -O$lvl (error as expected)"
    else
      echo "FAIL $prog $kind -O$lvl: expected the ThinLTO -O0 error"
      sed 's/^/    /' "$log" | head -20
    fi
    return
  fi
  if [ $failed = 1 ]; then
    echo "FAIL $prog $kind -O$lvl: compile"
    sed 's/^/    /' "$log" | head -20
    return
  fi
  local libs=() ldflags
  # shellcheck disable=SC2207
  ldflags=($(grep -h '^// LDFLAGS:' "$dir"/*.c "$dir"/*.cpp 2>/dev/null | sed 's|^// LDFLAGS:||'))
  if [ ${#libobjs[@]} -gt 0 ]; then
    llvm-ar-$V rcs "$out/libdep.a" "${libobjs[@]}"
    libs=("$out/libdep.a")
  fi
  local want_err
  want_err=$(grep -h '^// EXPECT-LINK-ERROR:' "$dir"/*.c "$dir"/*.cpp 2>/dev/null | sed 's|^// EXPECT-LINK-ERROR: *||' | head -1)
  if [ -n "$want_err" ]; then
    if clang++-$V -O"$lvl" -flto="$kind" -fuse-ld=lld-$V -fpass-plugin="$plugin" \
      -Wl,--load-pass-plugin="$plugin" "${objs[@]}" "${libs[@]}" -lm -o "$out/prog" >>"$log" 2>&1; then
      echo "FAIL $prog $kind -O$lvl: linked, expected: $want_err"
    elif grep -qF -- "$want_err" "$log"; then
      echo "PASS $prog $kind -O$lvl (link error as expected)"
    else
      echo "FAIL $prog $kind -O$lvl: link error without: $want_err"
      sed 's/^/    /' "$log" | head -20
    fi
    return
  fi
  if ! clang++-$V -O"$lvl" -flto="$kind" -fuse-ld=lld-$V -fpass-plugin="$plugin" \
    -Wl,--load-pass-plugin="$plugin" "${ldflags[@]}" "${objs[@]}" "${libs[@]}" -lm -o "$out/prog" >>"$log" 2>&1; then
    echo "FAIL $prog $kind -O$lvl: link"
    sed 's/^/    /' "$log" | head -20
    return
  fi
  if ! timeout 20 "$out/prog" >>"$log" 2>&1; then
    echo "FAIL $prog $kind -O$lvl: run"
    grep -E 'FAIL|failed' "$log" | head -10 | sed 's/^/    /'
    return
  fi
  echo "PASS $prog $kind -O$lvl"
}
export -f one
export work plugin root V

jobs=()
for dir in "$root"/tests/lto/*/; do
  dir=${dir%/}
  case $(basename "$dir") in *"$filter"*) ;; *) continue ;; esac
  for kind in full thin; do
    for lvl in 0 1 2 3; do
      jobs+=("$dir $kind $lvl")
    done
  done
done
printf '%s\n' "${jobs[@]}" | xargs -P "${JOBS:-2}" -L 1 bash -c 'one "$@"' _ >"$work/results.txt"
sort "$work/results.txt"
pass=$(grep -c '^PASS' "$work/results.txt" || true)
fail=$(grep -c '^FAIL' "$work/results.txt" || true)
echo "lto suite (LLVM $V): $pass passed, $fail failed"
for kind in full thin; do
  for lvl in 0 1 2 3; do
    p=$(grep -c "^PASS .* $kind -O$lvl" "$work/results.txt" || true)
    f=$(grep -c "^FAIL .* $kind -O$lvl" "$work/results.txt" || true)
    echo "  $kind -O$lvl: $p passed, $f failed"
  done
done
[ "$fail" = 0 ]
