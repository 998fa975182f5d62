#!/usr/bin/env bash
# Packaging and languages suite (issue 19): the compiler wrappers, the
# install (make install) with a CMake project and pkg-config built against
# it, the Debian package (contents, and the CMake project built against the
# unpacked tree), the Fortran and Python examples, and every code block of
# the user guide (docs/). Needs the plugin built (cargo build --release)
# and setup.sh's packages. Prints "packaging: N passed, M failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/tests/packaging"
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0 failures=()
step() { # step NAME COMMAND... : run, log to $tmp/NAME.log, count
  local name=$1
  shift
  local t0=$SECONDS
  # set -e in a subshell that is no condition, so every command counts
  (
    set -e
    "$@"
  ) >"$tmp/$name.log" 2>&1
  if [ $? = 0 ]; then
    passed=$((passed + 1))
    echo "ok   $name ($((SECONDS - t0)) s)"
  else
    failed=$((failed + 1))
    failures+=("$name")
    echo "FAIL $name ($((SECONDS - t0)) s)"
    tail -40 "$tmp/$name.log" | sed 's/^/    /'
  fi
}

cat >"$tmp/d.c" <<'C'
#include <enzyme/enzyme.h>
#include <math.h>
double f(double x) { return x * sin(x); }
int main(void) { return fabs(__enzyme_autodiff((void *)f, 2.0) - (sin(2.0) + 2 * cos(2.0))) > 1e-12; }
C

# --- the wrappers, from the build tree -------------------------------------
wrappers() {
  local b=$1
  "$b/enzyme-clang" -O2 "$tmp/d.c" -o "$tmp/w1" -lm
  "$tmp/w1"
  "$b/enzyme-clang++" -O1 -x c++ "$tmp/d.c" -o "$tmp/w2"
  "$tmp/w2"
  # options with one flag (clang reads -mllvm only once -fplugin loaded it)
  "$b/enzyme-clang" -O2 -mllvm -enzyme-print -c "$tmp/d.c" -o "$tmp/w.o" 2>"$tmp/print.txt"
  grep -q "define internal double @enzyme_rs.rev.f" "$tmp/print.txt"
  # flang: -mllvm -enzyme-print becomes ENZYME_PRINT
  printf 'subroutine g(x, y)\n real(8) :: x, y\n y = x*x\nend subroutine\n' >"$tmp/g.f90"
  printf 'program p\n use enzyme\n real(8) :: x, dx, y, dy\n external :: g\n x = 3; dx = 0; dy = 1\n call enzyme_autodiff(g, enzyme_dup, x, dx, enzyme_dup, y, dy)\n if (dx /= 6) error stop 1\nend program\n' >>"$tmp/g.f90"
  flang-new-16 -c include/enzyme/enzyme.f90 -module-dir "$tmp" -o "$tmp/enzyme.o"
  "$b/enzyme-flang" -O2 -I"$tmp" -mllvm -enzyme-print "$tmp/g.f90" -o "$tmp/w3" 2>"$tmp/fprint.txt"
  "$tmp/w3"
  grep -q "enzyme_rs.rev.g_" "$tmp/fprint.txt"
  [ "$("$b/enzyme-clang" --enzyme-rs-plugin)" -ef target/release/libenzyme_rs.so ]
  # a name it does not know, and a plugin that is not there: clear errors
  ln -sf "$b/enzyme-clang" "$tmp/enzyme-gcc"
  if "$tmp/enzyme-gcc" --version 2>"$tmp/err.txt"; then return 1; fi
  grep -q "unknown name" "$tmp/err.txt"
  if [ ! -f target/llvm22/release/libenzyme_rs.so ]; then
    if "$b/enzyme-clang-22" --version 2>"$tmp/err22.txt"; then return 1; fi
    grep -q "no enzyme-rs plugin for LLVM 22" "$tmp/err22.txt"
  fi
}
step wrappers wrappers "$root/bin"

# The LLVM 22 build, when there is one (another build: cargo build --release
# --no-default-features --features llvm22-1 --target-dir target/llvm22).
llvm22() {
  bin/enzyme-clang-22 -O2 "$tmp/d.c" -o "$tmp/w22" -lm
  "$tmp/w22"
  bin/enzyme-clang++-22 -O0 -x c++ "$tmp/d.c" -o "$tmp/w22b"
  "$tmp/w22b"
  bin/enzyme-clang-22 -O2 -mllvm -enzyme-print -c "$tmp/d.c" -o "$tmp/w22.o" 2>"$tmp/print22.txt"
  grep -q "enzyme_rs.rev.f" "$tmp/print22.txt"
  # installed beside the LLVM 16 plugin; CMake picks it for clang-22
  local p="$tmp/prefix22"
  make --no-print-directory install PREFIX="$p" >/dev/null
  [ -f "$p/lib/libenzyme_rs-llvm22.so" ]
  [ -f "$p/lib/pkgconfig/enzyme-rs-llvm22.pc" ]
  mkdir -p "$tmp/c22"
  printf 'cmake_minimum_required(VERSION 3.16)\nproject(p22 C)\nfind_package(EnzymeRS REQUIRED)\nadd_executable(d %s)\ntarget_link_libraries(d PRIVATE EnzymeRS::ClangPlugin m)\n' "$tmp/d.c" >"$tmp/c22/CMakeLists.txt"
  cmake -S "$tmp/c22" -B "$tmp/c22/build" -DCMAKE_PREFIX_PATH="$p" -DCMAKE_C_COMPILER=clang-22
  cmake --build "$tmp/c22/build"
  "$tmp/c22/build/d"
  grep -rq -- "-fpass-plugin=$p/lib/libenzyme_rs-llvm22.so" "$tmp/c22/build/CMakeFiles"
}
if [ -f target/llvm22/release/libenzyme_rs.so ] && command -v clang-22 >/dev/null; then
  step wrappers-llvm22 llvm22
else
  echo "skip wrappers-llvm22 (no target/llvm22 build)"
fi

# --- the Fortran module is what the generator writes ------------------------
step fortran-module-current bash -c "python3 packaging/gen_enzyme_f90.py '$tmp/enzyme.f90' && cmp '$tmp/enzyme.f90' include/enzyme/enzyme.f90"

# --- install, CMake, pkg-config ---------------------------------------------
cmake_project() { # cmake_project PREFIX BUILD_DIR
  cmake -S "$here/cmake-project" -B "$2" -DCMAKE_PREFIX_PATH="$1" \
    -DCMAKE_C_COMPILER=clang-16 -DCMAKE_CXX_COMPILER=clang++-16 \
    -DCMAKE_Fortran_COMPILER=flang-new-16 -DCMAKE_EXE_LINKER_FLAGS=-L/usr/lib/llvm-16/lib \
    -DCMAKE_BUILD_TYPE=Release
  cmake --build "$2" -j2
  (cd "$2" && ctest --output-on-failure)
  # the derivatives came from the plugin of this prefix
  grep -rq -- "-fpass-plugin=$1/lib/libenzyme_rs.so" "$2/CMakeFiles"
}
installed() {
  local p="$tmp/prefix"
  make --no-print-directory install PREFIX="$p" >/dev/null
  for f in lib/libenzyme_rs.so include/enzyme/enzyme.h include/enzyme/enzyme.hpp \
    $(cd include && find enzyme -type f | sed 's|^|include/|') \
    include/enzyme/enzyme.f90 lib/fortran/flang-16/enzyme.mod bin/enzyme-clang bin/enzyme-clang++ \
    bin/enzyme-flang lib/cmake/EnzymeRS/EnzymeRSConfig.cmake \
    lib/cmake/EnzymeRS/EnzymeRSConfigVersion.cmake lib/pkgconfig/enzyme-rs.pc; do
    [ -e "$p/$f" ] || { echo "missing $f"; return 1; }
  done
  cmake_project "$p" "$tmp/build-install"
  # pkg-config
  export PKG_CONFIG_PATH="$p/lib/pkgconfig"
  [ "$(pkg-config --modversion enzyme-rs)" = "$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml)" ]
  [ "$(pkg-config --variable=plugin enzyme-rs)" -ef "$p/lib/libenzyme_rs.so" ]
  # shellcheck disable=SC2046
  clang-16 -O2 $(pkg-config --cflags enzyme-rs) "$tmp/d.c" -o "$tmp/pc" -lm
  "$tmp/pc"
  # the installed wrappers find the installed plugin and module
  [ "$("$p/bin/enzyme-clang" --enzyme-rs-plugin)" = "$p/lib/libenzyme_rs.so" ]
  "$p/bin/enzyme-clang" -O2 "$tmp/d.c" -o "$tmp/iw" -lm
  "$tmp/iw"
  "$p/bin/enzyme-flang" -O2 "$here/cmake-project/grad.f90" -o "$tmp/if"
  "$tmp/if"
}
step install-cmake-pkgconfig installed

# --- the Debian package -----------------------------------------------------
debian() {
  local deb
  deb=$(bash packaging/build-deb.sh)
  dpkg-deb --info "$deb" >"$tmp/info.txt"
  grep -q "^ Package: enzyme-rs" "$tmp/info.txt"
  grep -q "^ Depends:.*libllvm16.*clang-16" "$tmp/info.txt"
  dpkg-deb --contents "$deb" >"$tmp/contents.txt"
  for f in ./usr/lib/libenzyme_rs.so ./usr/include/enzyme/enzyme.h ./usr/include/enzyme/enzyme.hpp \
    $(cd include && find enzyme -type f | sed 's|^|./usr/include/|') \
    ./usr/include/enzyme/enzyme.f90 ./usr/lib/fortran/flang-16/enzyme.mod ./usr/bin/enzyme-clang \
    ./usr/bin/enzyme-clang++ ./usr/bin/enzyme-flang ./usr/lib/cmake/EnzymeRS/EnzymeRSConfig.cmake \
    ./usr/lib/pkgconfig/enzyme-rs.pc ./usr/share/doc/enzyme-rs/copyright; do
    grep -q " $f\( \|$\)" "$tmp/contents.txt" || { echo "missing $f in the package"; return 1; }
  done
  if grep -v "root/root" "$tmp/contents.txt"; then return 1; fi
  # unpacked into a clean tree: the CMake project builds against it
  dpkg-deb -x "$deb" "$tmp/root"
  cmake_project "$tmp/root/usr" "$tmp/build-deb"
  "$tmp/root/usr/bin/enzyme-clang" -O2 "$tmp/d.c" -o "$tmp/dw" -lm
  "$tmp/dw"
  # dpkg installs it into an empty root (dependencies are not there:
  # --force-depends) and removes every file again
  local r="$tmp/dpkgroot"
  mkdir -p "$r/var/lib/dpkg/info" "$r/var/lib/dpkg/updates" "$r/var/lib/dpkg/triggers"
  touch "$r/var/lib/dpkg/status"
  dpkg --root="$r" --force-not-root --force-depends --force-script-chrootless -i "$deb"
  dpkg --root="$r" -s enzyme-rs | grep -q "^Status: install ok installed"
  "$r/usr/bin/enzyme-clang" -O2 "$tmp/d.c" -o "$tmp/dr" -lm
  "$tmp/dr"
  dpkg --root="$r" --force-not-root --force-depends -r enzyme-rs
  if [ -e "$r/usr/lib/libenzyme_rs.so" ] || [ -e "$r/usr/bin/enzyme-clang" ]; then return 1; fi
  # dependencies resolvable (simulated install; needs root for apt's lock)
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get -s install "./$deb" >"$tmp/apt.txt" 2>&1 || { cat "$tmp/apt.txt"; return 1; }
    grep -q "^Inst enzyme-rs" "$tmp/apt.txt"
  fi
}
step debian-package debian

# --- Fortran, Python, the guide ---------------------------------------------
step fortran-examples env LEVELS="O0 O2" examples/fortran/run.sh
if python3 -c 'import numpy, scipy' 2>/dev/null; then
  step python-examples env LEVELS="O0 O2" examples/python/run.sh
else
  failed=$((failed + 1))
  failures+=(python-examples)
  echo "FAIL python-examples (numpy/scipy not installed: run setup.sh)"
fi
step doc-examples python3 tests/packaging/doctest.py
grep -h "^\(ok\|FAIL\|skip\) " "$tmp/doc-examples.log" | grep -c "^ok" | sed 's/^/    doc blocks ok: /'
# the doc-test runner itself notices a wrong example
doctest_selftest() {
  printf '# t\n\n```c\nint main(void) { return 1; }\n```\n' >"$tmp/bad.md"
  if python3 tests/packaging/doctest.py "$tmp/bad.md"; then return 1; fi
}
step doctest-selftest doctest_selftest

echo "packaging: $passed passed, $failed failed"
[ "$failed" = 0 ] || { echo "failed: ${failures[*]}"; exit 1; }
