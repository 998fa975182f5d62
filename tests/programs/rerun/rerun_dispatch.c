/* rerun_loop.c with a re-run budget of 0 bytes: the trip counts are
 * arguments, so the dispatch pair (modes/reverse/rerun_cost.rs) weighs
 * the tape on entry and, over budget, runs the re-run pair (by default
 * the same kernels take the taped pair). */
// FLAGS: -fplugin=%plugin -mllvm -enzyme-rs-rerun-budget=0
#include "rerun_loop.c"
