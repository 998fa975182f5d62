#!/usr/bin/env bash
# bench/run.sh -- run the whole benchmark suite and write bench/results/.
#   bench/run.sh                 full run (about 10-15 minutes on 2 cores)
#   bench/run.sh --quick         smoke run: smallest sizes, short timings
#   bench/run.sh --problems gmm,ba
# Installs ADOL-C (apt) and matplotlib (pip) when missing.
set -euo pipefail
cd "$(dirname "$0")"
. ./deps.sh
exec python3 run.py "$@"
