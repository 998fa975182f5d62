#!/usr/bin/env bash
# Build the Debian package target/debian/enzyme-rs_VERSION_ARCH.deb with
# dpkg-deb: `make install PREFIX=/usr DESTDIR=<staging>` plus DEBIAN/control.
# Installs the plugin (/usr/lib/libenzyme_rs.so, and the LLVM 22 build when
# target/llvm22 has one), the headers and the Fortran module source
# (/usr/include/enzyme), the prebuilt flang-16 module, the wrappers
# (/usr/bin/enzyme-clang...), the CMake package and the pkg-config file.
#   apt install ./target/debian/enzyme-rs_*.deb
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
arch=$(dpkg --print-architecture)
out=target/debian
stage="$out/enzyme-rs_${version}_${arch}"
rm -rf "$stage"
mkdir -p "$stage/DEBIAN"
make --no-print-directory install PREFIX=/usr DESTDIR="$root/$stage" >/dev/null

# The plugin is loaded into clang-16 (libLLVM-16) and links libstdc++.
depends="libc6 (>= 2.34), libgcc-s1, libstdc++6 (>= 12), libllvm16 (>= 1:16.0.6), clang-16"
recommends="lld-16, flang-16, libflang-16-dev, cmake, pkgconf"
if [ -f "$stage/usr/lib/libenzyme_rs-llvm22.so" ]; then
  recommends="$recommends, clang-22" # the LLVM 22 plugin is only loaded by clang-22
fi
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
cat >"$stage/DEBIAN/control" <<CONTROL
Package: enzyme-rs
Version: $version
Architecture: $arch
Maintainer: enzyme-rs developers <enzyme-rs@localhost>
Installed-Size: $size
Depends: $depends
Recommends: $recommends
Section: devel
Priority: optional
Description: LLVM pass plugin that synthesizes derivatives (automatic differentiation)
 enzyme-rs differentiates LLVM IR: write C, C++ or Fortran, call
 __enzyme_autodiff / __enzyme_fwddiff (Enzyme's interface) and compile with
 the plugin (clang-16 -fpass-plugin=/usr/lib/libenzyme_rs.so, or the
 enzyme-clang wrappers). Includes the headers, a Fortran module, the
 wrappers, a CMake package (find_package(EnzymeRS)) and a pkg-config file.
CONTROL
cat >"$stage/usr/share/doc/enzyme-rs/copyright" <<'COPYRIGHT'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: enzyme-rs
Files: *
License: Apache-2.0
 On Debian systems the full text of the Apache License 2.0 is in
 /usr/share/common-licenses/Apache-2.0.
COPYRIGHT
(cd "$stage" && find usr -type f -exec md5sum {} + | sort -k2) >"$stage/DEBIAN/md5sums"
deb="$out/enzyme-rs_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "$deb"
