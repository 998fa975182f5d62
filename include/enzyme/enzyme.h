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
