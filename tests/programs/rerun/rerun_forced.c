/* rerun_loop.c with -enzyme-rs-auto-rerun=1 (ENZYME_RS_AUTO_RERUN=1):
 * every loop that may be re-run is, whatever its tape would cost (by
 * default the cost model tapes these small loops: their tape fits the
 * budget). */
// FLAGS: -fplugin=%plugin -mllvm -enzyme-rs-auto-rerun=1
#include "rerun_loop.c"
