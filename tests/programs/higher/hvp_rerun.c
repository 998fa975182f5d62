// hvp_costly_loop.c with every re-runnable loop re-run (the automatic
// re-run forced): the Hessian-vector product is forward mode over a
// gradient whose loop the loop runtime re-runs from snapshots
// (modes/loops/tangent.rs runs it on the tangents). Same checks.
// FLAGS: -Xclang -load -Xclang %plugin -mllvm -enzyme-rs-auto-rerun=1
#include "hvp_costly_loop.c"
