// A custom forward derivative with the wrong signature is an error naming
// both functions.
// EXPECT-ERROR: custom forward derivative 'bad_fwd' registered for 'h'
#include "check.h"
double h(double x) { return x * x; }
static double bad_fwd(double x) { return 2 * x; }
void *__enzyme_register_derivative_h[] = {(void *)h, (void *)bad_fwd};
int main(void) { return (int)__enzyme_fwddiff((void *)h, 1.0, 1.0); }
