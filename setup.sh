#!/usr/bin/env bash
# Install what enzyme-rs needs on Debian 12 (idempotent), build the plugin.
set -euo pipefail
need=()
for p in llvm-16-dev clang-16 llvm-16-tools libpolly-16-dev zlib1g-dev libzstd-dev libclang-16-dev \
  flang-16 libflang-16-dev lld-16 cmake pkgconf \
  libopenmpi-dev openmpi-bin libomp-16-dev \
  llvm-22-dev clang-22 llvm-22-tools lld-22 libclang-22-dev libclang-rt-22-dev libeigen3-dev libblas-dev; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}"
fi
command -v lit >/dev/null 2>&1 || python3 -m pip install -q lit
python3 -c 'import numpy, scipy' 2>/dev/null || python3 -m pip install -q numpy scipy
command -v cargo >/dev/null 2>&1 || { echo "cargo (Rust) is required: https://rustup.rs" >&2; exit 1; }
export LLVM_SYS_160_PREFIX=${LLVM_SYS_160_PREFIX:-/usr/lib/llvm-16}
cargo build --release
# The LLVM 22 plugin (clang-22, opt-22, rustc -Z llvm-plugins) in its own
# target directory: target/llvm22/release/libenzyme_rs.so
cargo build --release --no-default-features --features llvm22-1 --target-dir target/llvm22
# Rust nightly's std::autodiff loads its backend as libEnzyme-22.so from the
# sysroot: the LLVM 22 plugin is that backend.
if sysroot=$(rustc +nightly --print sysroot 2>/dev/null); then
  lib="$sysroot/lib/rustlib/x86_64-unknown-linux-gnu/lib"
  # (copied, then renamed: a rustc running meanwhile keeps its mapped copy)
  [ -d "$lib" ] && cp target/llvm22/release/libenzyme_rs.so "$lib/libEnzyme-22.so.tmp" &&
    mv "$lib/libEnzyme-22.so.tmp" "$lib/libEnzyme-22.so" &&
    echo "installed the LLVM 22 plugin as $lib/libEnzyme-22.so (std::autodiff backend)"
fi
