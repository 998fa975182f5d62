/*
 * enzyme/enzyme.h -- the C (and C++) interface of enzyme-rs.
 *
 * Compile with:
 *   clang-16 -O2 -fpass-plugin=libenzyme_rs.so prog.c
 * The enzyme-rs pass replaces every call to a function whose name starts
 * with one of the prefixes below by the synthesized derivative. Programs
 * that declare these names themselves (as Enzyme's users do) work the same.
 *
 * Entry points (any suffix, any prototype; the first argument is the
 * function to differentiate, or a cast of it):
 *   __enzyme_fwddiff   forward mode: returns the tangent of the result
 *                      (or {primal, tangent} when the declared result is a
 *                      two-element struct, or enzyme_primal_return is given)
 *   __enzyme_autodiff  reverse mode: the float result is seeded with 1.0 and
 *                      the derivatives of the active scalar arguments are
 *                      returned (one value, or a struct of them in argument
 *                      order); derivatives of pointer arguments are *added*
 *                      into their shadow memory.
 *
 * Argument markers: pass the marker (its value in C), then the argument(s):
 *   enzyme_const, x            x carries no derivative
 *   enzyme_dup, x, dx          x with shadow dx: pointer -> shadow memory;
 *                              float in forward mode -> value and tangent
 *   enzyme_dupnoneed, x, dx    as enzyme_dup; the primal need not be kept
 *   enzyme_out, x              active scalar (reverse): derivative returned
 *   enzyme_width, N            vector mode: N shadows per duplicated arg
 *   enzyme_primal_return       also return the primal result (first)
 *   enzyme_const_return / enzyme_active_return   activity of the result
 *
 * Default activity with no marker: integers are constant; floats are active
 * (reverse: enzyme_out; forward: value then tangent); pointers are
 * duplicated (pointer then shadow), or constant when no shadow follows.
 *
 * Vector forward mode: __enzyme_fwddiff(f, enzyme_width, N, ...) takes N
 * shadows after each duplicated argument (N tangent values for a float, N
 * shadow pointers for a pointer) and returns the N tangents of the result
 * as the declared struct/array/vector (N values in lane order; with
 * enzyme_primal_return or room for N + 1 values, the primal comes first).
 * The primal and every partial derivative are computed once for all lanes.
 *
 * Module-level registrations (globals; any name suffix):
 *   void *__enzyme_register_derivative_NAME[] = {(void *)f, (void *)df};
 *     custom forward derivative. df takes f's parameters, each float or
 *     pointer parameter followed by its tangent / shadow (a zero tangent or
 *     null shadow where the argument has none), and returns the tangent of
 *     the result (f's result type) or {primal, tangent} (a struct of two of
 *     them); void for a void f. Vector mode calls df once per lane.
 *   void *__enzyme_register_gradient_NAME[] = {(void *)f, (void *)aug_f,
 *                                             (void *)rev_f};
 *     custom reverse-mode derivative. Both aug_f and rev_f take f's
 *     parameters with each duplicated one followed by its shadow (active
 *     floats alone; inside differentiated code floats are active and
 *     pointers duplicated, a pointer without a shadow getting null).
 *     aug_f returns: for a void f, void or a tape value (any type, e.g. a
 *     void* to memory it allocated); otherwise {tape, result} (a two-field
 *     struct, also through a hidden sret result), the result alone (no
 *     tape), or a tape of another type alone (f is then called for the
 *     result). rev_f takes, after those parameters, the adjoint of f's
 *     float result (when f returns one) and then the tape (when aug_f
 *     returns one); it returns the adjoints of the active float parameters
 *     (void, one value, or a struct/array of them in order). The tape
 *     travels on enzyme-rs's own tape, so this nests in loops and calls.
 *   void *__enzyme_inactivefn[] = {(void *)f, ...};  (or the function
 *     attribute "enzyme_inactive"): calls to f carry no derivative.
 *   void *__enzyme_function_like[] = {(void *)f, (void *)"malloc"};  f
 *     behaves like malloc ("free", "calloc", "realloc" likewise).
 *   void *__enzyme_allocation_like[] = {(void *)f, (void *)SIZE_ARG_INDEX,
 *     (void *)"-1", (void *)dealloc};  f allocates SIZE_ARG bytes; dealloc
 *     releases them.
 * Registered functions are kept from being inlined before the pass runs.
 * A custom derivative whose signature does not fit is a compile error
 * naming both functions.
 *
 * Higher order: a function that calls __enzyme_autodiff / __enzyme_fwddiff
 * can itself be differentiated (e.g. forward over reverse for
 * Hessian-vector products); inner calls are rewritten first.
 *
 * C++: see <enzyme/enzyme.hpp> for enzyme::autodiff<enzyme::Reverse>(...).
 */
#ifndef ENZYME_RS_ENZYME_H
#define ENZYME_RS_ENZYME_H

#ifdef __cplusplus
extern "C" {
#endif

/* Markers. Declared, never defined: the pass recognises them by name. */
extern int enzyme_const;
extern int enzyme_dup;
extern int enzyme_dupnoneed;
extern int enzyme_out;
extern int enzyme_width;
extern int enzyme_tape;
extern int enzyme_allocated;
extern int enzyme_nofree;
extern int enzyme_nocache; /* before an argument: its memory is not overwritten before the reverse sweep (no effect here: always assumed) */
extern int enzyme_const_return;
extern int enzyme_active_return;
extern int enzyme_dup_return;
extern int enzyme_primal_return;
extern int enzyme_noret;

/* Entry points. Declare your own with other prototypes as needed, e.g.
 *   double __enzyme_autodiff_f(double (*)(double), double);
 * Any function whose name starts with these prefixes is rewritten. */
double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
int __enzyme_augmentsize(void *, ...);

#ifdef __cplusplus
}
#endif

#endif /* ENZYME_RS_ENZYME_H */
