#!/usr/bin/env bash
# The plugin itself under checks (issue 18): built with debug assertions and
# overflow checks (cargo profile `checked`), and the lit suite run with
# every `opt` under LeakSanitizer (the ASan runtime preloaded into the
# uninstrumented opt: it intercepts malloc/free, so what the plugin
# allocates and never frees is reported at exit and fails the test).
# LLVM 16 only (the LLVM 22 build is checked by the same Rust code).
set -euo pipefail
cd "$(dirname "$0")/.."
LLVM_SYS_160_PREFIX=${LLVM_SYS_160_PREFIX:-/usr/lib/llvm-16} \
  cargo build --quiet --profile checked
real=/usr/lib/llvm-16/bin
asan=$(ls /usr/lib/llvm-16/lib/clang/*/lib/linux/libclang_rt.asan-x86_64.so | head -1)
wrap=target/checked/tools
rm -rf "$wrap" && mkdir -p "$wrap"
for t in "$real"/*; do ln -s "$t" "$wrap/$(basename "$t")"; done
rm "$wrap/opt"
cat > "$wrap/opt" <<WRAP
#!/bin/sh
LD_PRELOAD=$asan exec $real/opt "\$@"
WRAP
chmod +x "$wrap/opt"
export ENZYME_RS_PLUGIN=$PWD/target/checked/libenzyme_rs.so
export ENZYME_RS_TOOL_WRAP=$PWD/$wrap
export ASAN_OPTIONS=detect_leaks=1:exitcode=23
export LSAN_OPTIONS=suppressions=$PWD/tests/plugin-checked.supp:print_suppressions=0
lit -q lit
echo "plugin-checked: lit passed with debug assertions and the leak check"
