/*
 * enzyme/fixed_point.h -- converged iterations in reverse and forward mode
 * (enzyme-rs).
 *
 *   __enzyme_fixed_point((void *)step,
 *                        enzyme_fp_state, z, bytes,      (one or more)
 *                        [enzyme_fp_reduction, r,]       (double)
 *                        [enzyme_fp_max_iters, n,]       (int64_t)
 *                        [enzyme_fp_control, control,]
 *                        [enzyme_checkpoint_region, ptr, bytes,]...
 *                        args...);
 *
 * runs   int64_t i = 0; while (step(i++, args...));
 *
 * an iteration z <- phi(z, x) of the state z (doubles) that step updates in
 * place until it returns 0. Differentiated in reverse mode, its iterations
 * are not reversed one by one: only the state it converged to is kept, and
 * the reverse sweep iterates the adjoint of one step at that state,
 * d <- phi_z^T d, adding phi_x^T d into the parameters' adjoints each time,
 * until d vanishes (so the parameters get phi_x^T (I - phi_z^T)^-1 zbar,
 * the derivative of the fixed point z* = phi(z*, x) by the implicit
 * function theorem). The memory kept is one copy of the state, whatever
 * the number of iterations.
 *
 * - enzyme_fp_state, z, bytes: the iterated state (doubles). The squared
 *   2-norm of its adjoint decides when the adjoint iteration stops; its
 *   adjoint is zero afterwards (z* does not depend on the initial guess).
 * - enzyme_fp_reduction, r: stop once the squared norm is below r times its
 *   value after the first adjoint iteration (default 1e-12), or when it
 *   grows again after five iterations.
 * - enzyme_fp_max_iters, n: at most n adjoint iterations (default 1000; 0:
 *   no limit).
 * - enzyme_fp_control, control: `int control(double *cumul, double *r)`,
 *   called with *cumul = -1 before the first adjoint iteration and with the
 *   squared norm after each; returns whether to iterate (again).
 * - enzyme_checkpoint_region, ptr, bytes: other memory the step overwrites
 *   (kept with the state and restored before each adjoint iteration).
 *
 * Memory the step only reads must not change between the loop and the
 * reverse sweep. The primal state after the reverse sweep is the one it
 * started from. Forward mode runs the iteration to its end, then iterates
 * the tangent at the state it converged to (the state put back before each
 * pass), t <- phi_z t + phi_x xdot, until the state's tangent stops
 * changing: the same reduction, max_iters and control protocol, with the
 * squared norm of the tangent's change; the state's initial tangent does
 * not matter and the primal state stays as the iteration left it. Vector
 * forward mode differentiates the iterations themselves.
 *
 * __enzyme_set_fixed_point(reduction, max_iters, control, state, bytes, ...)
 * first in a loop body marks that loop as the iteration instead (as a
 * Fortran fixed-point directive does): one iteration, from the marker
 * around the loop back to it, becomes the step, the (state, bytes) pairs
 * the states, reduction / max_iters / control those above (-1 or 0: the
 * defaults). The loop must leave to one place.
 */
#ifndef ENZYME_FIXED_POINT_H
#define ENZYME_FIXED_POINT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

extern int enzyme_fp_state;
extern int enzyme_fp_reduction;
extern int enzyme_fp_max_iters;
extern int enzyme_fp_control;
extern int enzyme_checkpoint_region;

void __enzyme_fixed_point(void *step, ...);
void __enzyme_set_fixed_point(double reduction, int64_t max_iters, void *control, ...);

#ifdef __cplusplus
}
#endif

#endif /* ENZYME_FIXED_POINT_H */
