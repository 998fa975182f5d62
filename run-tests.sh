#!/usr/bin/env bash
# The whole test suite: build once, then the lit tests (IR shape, printers,
# diagnostics) and the cargo tests (C/C++ programs at -O0..-O3 checked
# against analytic values and finite differences).
set -euo pipefail
cd "$(dirname "$0")"
./setup.sh
echo "== lit"
lit -sv lit
echo "== cargo test"
cargo test --release
