// EXPECT-ERROR: '__enzyme_autodiff' is used other than by a direct call (here
// LEVELS: O0 O2
// The entry point's address handed to a function defined elsewhere: no
// call of it the pass could rewrite; reported at the use, not left to fail
// at the link.
#include "check.h"

typedef double (*grad_t)(void *, double);
extern double apply(grad_t g, void *f, double x);
static double sq(double x) { return x * x; }

int main(void) { return (int)apply((grad_t)__enzyme_autodiff, (void *)sq, 3.0); }
