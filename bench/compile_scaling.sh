#!/usr/bin/env bash
# bench/compile_scaling.sh [N...] -- compile time of a straight-line
# function of N statements differentiated in reverse mode
# (bench/gen_straightline.py), `clang-16 -O2 -c` with the plugin against
# without, and `opt-16 -passes=enzyme` alone on its -O2 IR. Prints one row
# per N: CPU seconds with, without, their ratio, and the enzyme pass alone.
# REPS=k repeats each pair k times (interleaved) and takes the medians.
# ALT="VAR=value ..." adds a column: the plugin with those environment
# settings (e.g. ALT=ENZYME_RS_TAPE_REGION=0), timed in the same rounds.
# Last measured curve and profile: bench/results/compile_scaling.md.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PLUGIN=$ROOT/target/release/libenzyme_rs.so
[ -f "$PLUGIN" ] || (cd "$ROOT" && cargo build --release --quiet)
SIZES=${*:-1000 2000 4000 8000}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# CPU seconds (user + system) of a command: steadier than wall time on a
# shared machine.
secs() { python3 -c 'import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], capture_output=True)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
sys.exit("failed: %s\n%s" % (" ".join(sys.argv[1:]), r.stderr.decode()[-2000:])) if r.returncode else print("%.3f" % (u.ru_utime + u.ru_stime))' "$@"; }
if [ -n "${ALT:-}" ]; then
  printf "%8s %10s %10s %7s %10s %10s\n" N with_s without_s ratio pass_s alt_s
else
  printf "%8s %10s %10s %7s %10s\n" N with_s without_s ratio pass_s
fi
med() { printf "%s\n" "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for n in $SIZES; do
  python3 "$ROOT/bench/gen_straightline.py" "$n" "$T/s$n.c"
  # REPS pairs, with and without alternately; the median of each.
  ws=() wos=() alts=()
  for _ in $(seq "${REPS:-1}"); do
    ws+=("$(secs clang-16 -O2 -fpass-plugin="$PLUGIN" -c "$T/s$n.c" -o "$T/w.o")")
    wos+=("$(secs clang-16 -O2 -c "$T/s$n.c" -o "$T/wo.o")")
    if [ -n "${ALT:-}" ]; then
      # shellcheck disable=SC2086
      alts+=("$(secs env $ALT clang-16 -O2 -fpass-plugin="$PLUGIN" -c "$T/s$n.c" -o "$T/a.o")")
    fi
  done
  w=$(med "${ws[@]}")
  wo=$(med "${wos[@]}")
  clang-16 -O2 -Xclang -disable-llvm-passes -S -emit-llvm "$T/s$n.c" -o "$T/s$n.ll"
  opt-16 -passes='default<O2>' "$T/s$n.ll" -S -o "$T/s$n.o2.ll"
  p=$(secs opt-16 -load-pass-plugin="$PLUGIN" -passes=enzyme "$T/s$n.o2.ll" -disable-output)
  if [ -n "${ALT:-}" ]; then
    printf "%8d %10.2f %10.2f %7.1f %10.2f %10.2f\n" "$n" "$w" "$wo" "$(python3 -c "print($w / $wo)")" "$p" "$(med "${alts[@]}")"
  else
    printf "%8d %10.2f %10.2f %7.1f %10.2f\n" "$n" "$w" "$wo" "$(python3 -c "print($w / $wo)")" "$p"
  fi
done
