#!/usr/bin/env bash
# Build and run the Fortran examples with the plugin at -O0 and -O2 (or the
# levels in $LEVELS): Fortran calling Fortran (the module `enzyme`) and C
# calling Fortran (bitcode with -flto, the plugin at link time).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${ENZYME_RS_BIN:-$root/bin}
inc=${ENZYME_RS_INCLUDE:-$root/include}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
flang-new-16 -c "$inc/enzyme/enzyme.f90" -module-dir "$out" -o "$out/enzyme.o"
passed=0 failed=0
for O in ${LEVELS:-O0 O2}; do
  if (cd "$here" && "$bin/enzyme-flang" -$O -I"$out" from_fortran.f90 -o "$out/ff_$O") && "$out/ff_$O"; then
    passed=$((passed + 1))
  else
    echo "FAILED: from_fortran -$O"
    failed=$((failed + 1))
  fi
  if flang-new-16 -$O -flto -c "$here/kernels.f90" -o "$out/kernels_$O.o" &&
    clang-16 -$O -flto -c -I"$inc" "$here/from_c.c" -o "$out/from_c_$O.o" &&
    "$bin/enzyme-clang" -$O -flto -fuse-ld=lld "$out/from_c_$O.o" "$out/kernels_$O.o" -o "$out/fc_$O" \
      -L/usr/lib/llvm-16/lib -lFortranRuntime -lFortranDecimal -lm &&
    "$out/fc_$O"; then
    passed=$((passed + 1))
  else
    echo "FAILED: from_c -$O"
    failed=$((failed + 1))
  fi
done
echo "fortran examples: $passed passed, $failed failed"
[ "$failed" = 0 ]
