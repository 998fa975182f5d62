#!/usr/bin/env bash
# Build model.c with the plugin at -O0 and -O2 and run fit.py (scipy) on
# it; torch_function.py too when PyTorch is installed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${ENZYME_RS_BIN:-$(cd "$here/../.." && pwd)/bin}
py=${PYTHON:-python3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
passed=0 failed=0
for O in ${LEVELS:-O0 O2}; do
  "$bin/enzyme-clang" -$O -shared -fPIC "$here/model.c" -o "$out/libmodel_$O.so" -lm
  if "$py" "$here/fit.py" "$out/libmodel_$O.so"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  if "$py" -c 'import torch' 2>/dev/null; then
    if "$py" "$here/torch_function.py" "$out/libmodel_$O.so"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  else
    echo "(torch not installed: torch_function.py not run)"
  fi
done
echo "python examples: $passed passed, $failed failed"
[ "$failed" = 0 ]
