# scripts/llvm-env.sh -- sourced by the shell scripts (examples/run.sh,
# bench/build.sh, setup.sh, run-tests.sh): which LLVM the tools and the
# plugin are for. ENZYME_RS_LLVM=16 (default) or 22.
#   ENZYME_RS_PLUGIN   the plugin built against that LLVM:
#                      16: target/release/libenzyme_rs.so
#                      22: target/llvm22/release/libenzyme_rs.so
#   ENZYME_RS_CC/CXX   clang-N / clang++-N;  ENZYME_RS_LLVM_BIN  /usr/lib/llvm-N/bin
#   enzyme_rs_build    builds that plugin (incremental; own target dir for 22)
ENZYME_RS_LLVM=${ENZYME_RS_LLVM:-16}
ENZYME_RS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
case "$ENZYME_RS_LLVM" in
  16) ENZYME_RS_TARGET=$ENZYME_RS_ROOT/target
      ENZYME_RS_CARGO_FLAGS=() ;;
  22) ENZYME_RS_TARGET=$ENZYME_RS_ROOT/target/llvm22
      ENZYME_RS_CARGO_FLAGS=(--no-default-features --features llvm22-1 --target-dir target/llvm22) ;;
  *) echo "ENZYME_RS_LLVM=$ENZYME_RS_LLVM: supported are 16 and 22" >&2; return 1 ;;
esac
export ENZYME_RS_LLVM
ENZYME_RS_PLUGIN=$ENZYME_RS_TARGET/release/libenzyme_rs.so
ENZYME_RS_CC=clang-$ENZYME_RS_LLVM
ENZYME_RS_CXX=clang++-$ENZYME_RS_LLVM
ENZYME_RS_LLVM_BIN=/usr/lib/llvm-$ENZYME_RS_LLVM/bin
enzyme_rs_build() {
  (cd "$ENZYME_RS_ROOT" &&
    LLVM_SYS_160_PREFIX=${LLVM_SYS_160_PREFIX:-/usr/lib/llvm-16} \
      cargo build --release "${ENZYME_RS_CARGO_FLAGS[@]}" "$@")
}
